/* SPDX-License-Identifier: MIT */
/*
 * The iterator core: recursion from the root without sockets, timers or
 * global state. The same (name, type) questions the forwarder sends
 * upstream (transport.h) are answered by asking authoritative servers,
 * from root hints down the referrals. What comes back is put together
 * as a recursive resolver's response (every answer record met on the
 * way, in order, and the last zone's authority section) and handed to
 * the question's callback; nothing here says whether it is true: the
 * validator does, exactly as for a forwarded response.
 *
 * Questions in, queries out (it_env.send: a server address and a
 * question), responses in (it_recv), verdicts out (the question's
 * callback, from it_deliver). The caller owns the transport and the
 * clock and passes the time (monotonic ms) to every call: dnstrustd
 * drives the core over UDP/TCP (drive/iter_net.h: RD=0, EDNS 1232
 * with DO=1, TCP after TC=1, FORMERR -> no EDNS), the replay runner of
 * tests/replay over a scenario's servers. Bailiwick: a referral's NS
 * RRset is followed only when its owner is below the zone of the server
 * that sent it and at or above the name asked; glue only when it is in
 * that zone. NS names without glue are questions of their own,
 * validated (it_set_lookup), with bounded nesting. DS questions go to
 * the parent side of the cut.
 *
 * The root's servers are primed (RFC 8109, iter_prime.h): a `. NS` query
 * to a hint address on the first question, again when its TTL runs out;
 * questions wait for it; the hints stay in use when it fails.
 *
 * A name an authoritative server answered NXDOMAIN for with signed
 * NSEC/NSEC3 records is an NXDOMAIN cut (RFC 8020, iter_nxd.h): a later
 * question for it or below it is answered from that response, which the
 * validator checks for the new name; unsigned NXDOMAINs are not kept.
 * A signed DNAME met in an answer is kept likewise (iter_dname.h): a
 * name below it gets the DNAME and the CNAME synthesised from it as a
 * step, and the walk goes on with the target. A signed wildcard
 * expansion is kept with its NSEC proof (iter_wild.h): another name the
 * proof covers gets the expansion for it as a step.
 *
 * A server of a zone whose referral carried a signed DS RRset that
 * answers without any RRSIG is DNSSEC-lame: its response is left for the
 * zone's other servers while one is left to ask, and is the answer when
 * none of them gives one. A CNAME chain whose
 * data at its end is unsigned while a zone at or above it signed the
 * chain is cut there, and its end asked for itself (it_unsigned_tail).
 *
 * One core per event loop (thread), with its own cache of zone cuts
 * (NS names and addresses, TTL-bounded) and of servers (smoothed RTT,
 * lameness), chosen by RTT with some exploration (a generator seeded by
 * the caller). Every limit is in common/limits.h (DT_IT_*).
 */
#ifndef DT_ITERATOR_ITERATE_H
#define DT_ITERATOR_ITERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"
#include "upstream/transport.h"

struct iterator;
struct it_req;

/* Root hints: the addresses of the root servers (port 53 unless a file
 * says otherwise through a test's own hints). */
struct it_hints {
	struct up_server addr[DT_IT_HINTS_MAX];
	size_t n;
};

/* The built-in IANA hints (the 13 root servers, IPv4 and IPv6). */
void it_hints_builtin(struct it_hints *ret);

/*
 * Reads a named.root-style zone file: the NS records of the root, and
 * the A and AAAA records of those NS names (others are ignored). Returns
 * 0 and *ret, or a negative code with a message in err (errlen octets):
 * the file cannot be read or parsed, or names no root server address.
 */
int it_hints_load(const char *path, struct it_hints *ret, char *err,
		  size_t errlen);

/* Parses hints from text (len octets; name for messages), as
 * it_hints_load(). */
int it_hints_parse(const char *text, size_t len, const char *name,
		   struct it_hints *ret, char *err, size_t errlen);

/* A response (or its failure) for a query the core sent: the driver
 * calls it_recv(io, ...) with it. */
typedef void it_recv_fn(void *arg, int err, const struct up_answer *ans,
			int last_rcode, int64_t now);

/* The core's handle on one query it sent: given to it_env.send; drv is
 * the driver's own (the core never reads it). */
struct it_io {
	it_recv_fn *fn;
	void *arg;
	void *drv;
};

/* A query to send: conf names the server(s) (the address of each,
 * tried in turn), the timeout and the attempts; RD=0, class IN. */
struct it_send {
	const uint8_t *name;
	uint16_t type;
	const struct up_conf *conf;
	/* The server echoed the random case of its last question (0x20,
	 * up_answer.case_echoed): a response whose question's case differs
	 * is taken as forged (transport.h, UP_Q_CASE_STRICT). */
	bool case_strict;
};

struct it_env {
	void *arg;
	/*
	 * Sends q. Returns a handle, after which the driver calls
	 * it_recv(io, ...) exactly once (never from inside this call),
	 * unless the core cancels it first with cancel(handle); NULL when
	 * it cannot start (out of memory). The answer's err and last_rcode
	 * are up_query_ex()'s (transport.h): err 0 with the response, or
	 * an error with last_rcode -1 when no server answered at all.
	 */
	void *(*send)(void *arg, const struct it_send *q, struct it_io *io);
	void (*cancel)(void *arg, void *handle);
	/*
	 * Questions have ended (or a priming restart failed): the driver
	 * calls it_deliver() soon, never from inside this call. Called
	 * again for each new end until then.
	 */
	void (*wake)(void *arg);
};

/*
 * A core calling env (copied), starting from hints (copied); seed drives
 * the choice of servers to explore. NULL when out of memory.
 */
struct iterator *it_new(const struct it_env *env, const struct it_hints *hints,
			uint64_t seed);

/* Hands a response (or a failure) to the query of io; now in ms. */
void it_recv(struct it_io *io, int err, const struct up_answer *ans,
	     int last_rcode, int64_t now);

/* Runs the callbacks of the questions that have ended (after wake). */
void it_deliver(struct iterator *it, int64_t now);

/* Cancels every question (their callbacks do not run) and frees. */
void it_free(struct iterator *it);

/* Replaces the hints of later questions (the cache of zones is
 * emptied and the primed root servers forgotten: they were learnt from
 * the old root). */
void it_set_hints(struct iterator *it, const struct it_hints *hints,
		  int64_t now);

/* Text for the log (info level) about root priming: its failure (once
 * until it works again) and its first success after start or a failure. */
typedef void it_notice_fn(void *arg, const char *text);

/* Where the iterator's notices go (NULL: nowhere); fn runs from inside
 * the core's calls. */
void it_set_notice(struct iterator *it, it_notice_fn *fn, void *arg);

/* Tests: every server the iterator asks (hints, glue, looked-up NS
 * addresses) is asked on this port instead of 53, so that fake
 * authoritative servers need no privilege. 0 restores 53. */
void it_set_port(struct iterator *it, uint16_t port);

/*
 * Resolves qname (wire form) / qtype, class IN, at time now (ms). cb runs
 * exactly once, from it_deliver(), never from inside it_query(), with
 * up_query()'s arguments: err 0 with the assembled response
 * (ans->server: the server of the last step), or DT_ENETBLOCKED (no root
 * server answered at all: the network blocks queries to authoritative
 * servers), DT_ETIMEOUT (the zone's servers did not answer, or are all
 * dead), DT_ENOAUTH (they answered, none usably), DT_ERECURSION (a limit
 * was reached: referrals, CNAME links, queries), DT_EUPSTREAM (the
 * responses could not be put together) or -ENOMEM. Returns the
 * request (for it_cancel) or NULL when out of memory (cb does not run).
 */
struct it_req *it_query(struct iterator *it, int64_t now, const uint8_t *qname,
			uint16_t qtype, up_done_fn *cb, void *arg);

/*
 * it_query() for a question asked to answer a question of nesting nest-1
 * (resolver/resolver.h, rsv_waiter): its NS-address lookups are asked at
 * nest + 1, and none past DT_IT_NS_DEPTH_MAX.
 */
struct it_req *it_query_nest(struct iterator *it, int64_t now,
			     const uint8_t *qname, uint16_t qtype,
			     unsigned nest, up_done_fn *cb, void *arg);

/* Root hints and stub zones (tests): name's servers are addrs (at most
 * DT_IT_ADDRS_MAX), used instead of any referral to name, for good.
 * Returns 0, or DT_ELIMIT past DT_IT_STUBS_MAX. */
int it_add_stub(struct iterator *it, const uint8_t *name,
		const struct up_server *addrs, size_t n);

/* QNAME minimisation (RFC 9156) on (the default) or off: a test
 * scenario's servers may answer only the full name. */
void it_set_qmin(struct iterator *it, bool on);

/* The addresses (n, port 53) found for an NS name by it_lookup.start:
 * none when the lookup failed or its answer did not validate. */
typedef void it_addrs_fn(void *cbarg, const struct up_server *addrs, size_t n,
			 int64_t now);

/*
 * How the addresses of NS names without glue are found. Unset, the
 * iterator asks for them itself, unvalidated (tests, the fuzz target).
 * Set (dnstrustd), each is a question of its own, at the nesting given,
 * answered and validated like a client's: start returns a handle, and
 * cb(cbarg, ..., now) runs once later, never from inside start, unless cancel
 * (with the handle) comes first; NULL when it cannot start (cb does not
 * run). At most DT_IT_NS_LOOKUPS_MAX per question.
 */
struct it_lookup {
	void *(*start)(void *arg, const uint8_t *name, uint16_t type,
		       unsigned nest, it_addrs_fn *cb, void *cbarg);
	void (*cancel)(void *arg, void *handle);
	void *arg;
};

/* Sets (or, with NULL, unsets) the lookup of NS names' addresses. */
void it_set_lookup(struct iterator *it, const struct it_lookup *lookup);

/*
 * Whether the DNSKEY RRset of zone (a zone cut, wire form, lower case)
 * is worth asking of its servers beside a question about qname that goes
 * to them: the chain of trust of qname will need it and nothing the
 * caller holds proves it yet (resolver.h, rsv_keys_ahead). now in ms.
 */
typedef bool it_keys_fn(void *arg, const uint8_t *zone, const uint8_t *qname,
			int64_t now);

/*
 * Sets (fn NULL: unsets, the default) the DNSKEY of each zone asked at
 * the moment a question is first sent to that zone's servers: the zone it
 * starts at (the root, or the closest cut known) and each one a
 * referral with a DS RRset leads to (none below a
 * referral without DS), when fn says so, at most DT_IT_KEYS_AHEAD_MAX per
 * question, each charged to its DT_IT_QUERIES_MAX. Where a server serves
 * a zone and its child both (no referral: a minimised answer shows the
 * child's apex), the child's DS and DNSKEY are asked of it so. The
 * response is kept (DT_IT_KEYS_MAX, or with the DS from referrals, for
 * DT_IT_KEYS_KEEP_MS, once) for the question the chain walk asks when
 * the answer is in, which is answered from it without a query, or
 * joins it while it is under way. Nothing
 * here is validated: the question's caller validates the response as it
 * would the same response asked then.
 */
void it_set_keys_ahead(struct iterator *it, it_keys_fn *fn, void *arg);

/* Cancels a pending question: cb will not run. NULL, or r from inside
 * its own callback, is a no-op. */
void it_cancel(struct it_req *r);

/*
 * A server sent what made an answer bogus (resolver.h, rsv_env.distrust):
 * it is taken as lame for DT_IT_LAME_MS, so that the question asked
 * again goes to the zone's other servers first. server is the name fmt
 * gives it (the caller's own spelling, as it reported it); servers the
 * iterator does not know are ignored.
 */
void it_distrust(struct iterator *it, const char *server,
		 void (*fmt)(const struct up_server *s, char *buf, size_t len),
		 int64_t now);

/* Counters since the iterator was made; read with relaxed atomics, so
 * another thread may call this. */
struct it_stats {
	uint64_t questions;	   /* it_query calls */
	uint64_t queries;	   /* queries sent to authoritative servers */
	uint64_t referrals;	   /* referrals followed */
	uint64_t timeouts;	   /* queries without any answer (timeout,
				      unreachable) */
	uint64_t lame;		   /* servers found lame (REFUSED,
				      SERVFAIL, a referral up or sideways) */
	uint64_t root_unreachable; /* questions failed because no root
				      server answered */
	uint64_t ds_from_referral; /* DS questions answered from the DS
				      RRset a referral carried */
	uint64_t keys_ahead;	   /* DNSKEY and DS questions asked beside
				      a question (it_set_keys_ahead) */
	uint64_t keys_from_ahead;  /* questions answered by them */
	uint64_t nxdomain_cut;	   /* questions answered from a signed
				      NXDOMAIN above them (RFC 8020) */
	uint64_t dname_synth;	   /* CNAMEs synthesised from a kept
				      DNAME (RFC 6672 §3.2) */
	uint64_t dnssec_lame;	   /* responses without RRSIGs from a
				      signed zone's server, left for its
				      other servers */
	uint64_t wild_synth;	   /* answers expanded from a kept
				      wildcard (RFC 8198 §5.4) */
};

void it_get_stats(const struct iterator *it, struct it_stats *ret);

/* Adds each counter of one to sum's (several iterators' totals). */
void it_stats_add(struct it_stats *sum, const struct it_stats *one);

/* The verdict on the network: false when the last attempt to reach the
 * root servers found none answering, until an authoritative server
 * answers again; true otherwise (also before any attempt). Another
 * thread may call this. */
bool it_root_reachable(const struct iterator *it);

/* Whether the root's servers in use are those of a priming response
 * (RFC 8109: the root's NS RRset and their addresses, asked of a hint
 * address), rather than the hints themselves. Another thread may call
 * this. */
bool it_root_primed(const struct iterator *it);

#endif
