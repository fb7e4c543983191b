/* SPDX-License-Identifier: MIT */
/*
 * Asking upstream nameservers: one question in, one matching response out,
 * over UDP with TCP fallback, with the servers, timeout, attempts and
 * rotation of an up_conf. Every query has RD=1 (RD=0 with UP_Q_NORD, for
 * the iterator), CD=1 (we validate, not them), EDNS with DO=1 and a
 * 1232-octet buffer (unless the server is known to refuse EDNS,
 * capab.h), a random ID and a fresh socket (so a random source port) per
 * try.
 *
 * What comes back is checked before the caller sees it: from the server
 * asked (connected socket), QR=1, same ID, opcode QUERY, the same question
 * (case-insensitive). Anything else is dropped and the try keeps waiting,
 * so a blind spoofer must guess ID and port within the try's time. (A
 * FORMERR or NOTIMP with the right ID and no question at all, as servers
 * that do not know EDNS send, is taken only as a reason to ask again
 * without EDNS or move on, never as an answer.)
 * Nothing here says whether the answer is true: the validator does.
 */
#ifndef DT_UPSTREAM_TRANSPORT_H
#define DT_UPSTREAM_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "upstream/resolvconf.h"

struct capab;
struct loop;
struct up_client;
struct up_req;

/* A response as handed to the caller; valid only during the callback. */
struct up_answer {
	const uint8_t *msg;
	size_t len;
	const struct up_server *server;	/* who answered */
	bool tcp;			/* came over TCP (after TC=1) */
	bool no_edns;			/* the server refused EDNS: asked again
					   without it (so without DNSSEC) */
	bool case_echoed;		/* UP_Q_CASE: the response's question
					   has the letters' case as sent */
};

/*
 * Completion: err 0 with ans set: a checked response with RCODE NOERROR,
 * NXDOMAIN, or another the caller must see (YXDOMAIN...); SERVFAIL,
 * REFUSED, NOTIMP and FORMERR make the client try the next server
 * instead. Otherwise ans is NULL and err is DT_ETIMEOUT (every try timed
 * out), DT_ENOSERVER (no nameserver), DT_EUPSTREAM (every server failed;
 * the last failing RCODE is in last_rcode when one was seen, else -1;
 * UP_RCODE_MALFORMED when it was a response to the query that does not
 * parse) or -ENOMEM.
 */
typedef void up_done_fn(void *arg, int err, const struct up_answer *ans,
			int last_rcode);

/* last_rcode of a server whose response (its header and question those
 * of the query) does not parse: no RCODE has this value. */
#define UP_RCODE_MALFORMED 0x10000

/* A client for one loop (one thread). NULL when out of memory. */
struct up_client *up_client_new(struct loop *loop);

/* Cancels every pending request (their callbacks do not run) and frees. */
void up_client_free(struct up_client *c);

/* Replaces the servers used by later up_query() calls (copied). When the
 * servers changed (another network): the penalties are forgotten, and
 * each request under way on the client's servers whose current server is
 * not among the new ones starts again on them (its tries and time
 * afresh; split-DNS requests keep theirs). */
void up_client_set_conf(struct up_client *c, const struct up_conf *conf);

/* Certificates of DNS-over-TLS servers are checked against the PEM file
 * path (copied), or the system's store for NULL or "". Takes effect at
 * the next TLS connection. 0 or -ENOMEM. */
int up_client_set_tls_ca(struct up_client *c, const char *path);

/* The last TLS failure of c's connections ("" when none): the server,
 * its name and why (a certificate that does not match, a failed
 * handshake). For the client's own thread. */
const char *up_client_tls_error(const struct up_client *c);

/* Feeds capab (NULL: none) with what every exchange shows (capab.h);
 * with apply, also follows what it remembers: no EDNS to a server that
 * answered FORMERR to it, TCP at once to one that truncates. A probe's
 * client feeds without applying, so that it tests again what the
 * workers' clients have stopped doing. capab must outlive the client. */
void up_client_set_capab(struct up_client *c, struct capab *capab,
			 bool apply);

/* The configuration in use (for `dnstrust status`). */
const struct up_conf *up_client_conf(const struct up_client *c);

/*
 * Sends qname/qtype/qclass (qname in wire form) to the client's servers,
 * or to servers when not NULL (split DNS; copied). Order: with rotate, start
 * one further on each query; servers that timed out in the last
 * DT_UP_PENALTY_MS are tried after the others. For each of `attempts`
 * rounds, each server gets one try of timeout_ms; TC=1 → the same server
 * over TCP (within the same try's time, plus one timeout); FORMERR or
 * NOTIMP to an EDNS query → the same server once without EDNS.
 * A timeout_ms or attempts of 0 means glibc's default; larger values
 * than glibc's caps are capped. A malformed qname ends the request with
 * its wire_dname_check() error. cb runs exactly once, on the loop's
 * thread, never from inside up_query(); it may free the client or start
 * new queries. Returns the request (for up_cancel) or NULL when out of
 * memory (cb does not run).
 */
struct up_req *up_query(struct up_client *c, const uint8_t *qname,
			uint16_t qtype, uint16_t qclass,
			const struct up_conf *servers, up_done_fn *cb,
			void *arg);

/* Flags of up_query_ex(). */
enum {
	/* RD=0: the servers are authoritative ones asked by the iterator
	 * (iterator/iterate.h), not resolvers. CD=1, DO=1 and the EDNS
	 * buffer stay as for up_query(). */
	UP_Q_NORD = 1 << 0,
	/* Over TCP from the first try: a question asked again because what
	 * came over UDP was bogus or malformed (resolver.h,
	 * rsv_fetch_attempt), which an off-path forger cannot reach. */
	UP_Q_TCP = 1 << 1,
	/* 0x20 (draft-vixie-dnsext-dns0x20): the letters of the question
	 * go out in random case; ans->case_echoed says whether the
	 * response's question came back with the same case. */
	UP_Q_CASE = 1 << 2,
	/* With UP_Q_CASE, for a server known to echo the case: a response
	 * whose question's case differs is taken as forged (an off-path
	 * forger must guess one bit per letter besides the ID and port)
	 * and dropped like one with a wrong ID. */
	UP_Q_CASE_STRICT = 1 << 3,
	/* DNS cookies (RFC 7873, RFC 9018): a client cookie of 8 random
	 * octets per server (with the server cookie it last sent); a
	 * response carrying a COOKIE option whose client cookie is not
	 * ours is dropped as forged; one without the option is taken (a
	 * server without cookies). */
	UP_Q_COOKIE = 1 << 4,
};

/* A server that sent what made an answer bogus (its "[addr]:port" as
 * up_server_str() writes it): tried after the others for DT_UP_PENALTY_MS,
 * as one that timed out is. Unknown names are ignored. */
void up_client_distrust(struct up_client *c, const char *server);

/* up_query() with flags (UP_Q_*); up_query() is up_query_ex() with 0. */
struct up_req *up_query_ex(struct up_client *c, const uint8_t *qname,
			   uint16_t qtype, uint16_t qclass,
			   const struct up_conf *servers, unsigned flags,
			   up_done_fn *cb, void *arg);

/* Cancels a pending request: cb will not run; its sockets are closed.
 * NULL, or r from inside its own callback, is a no-op; once its callback
 * has returned, r is freed and must not be passed. */
void up_cancel(struct up_req *r);

struct up_stats {
	uint64_t queries;	/* up_query calls */
	uint64_t tries;		/* datagrams or TCP exchanges sent */
	uint64_t timeouts;	/* tries that timed out */
	uint64_t tcp;		/* TCP fallbacks after TC=1 */
	uint64_t dropped;	/* received packets that did not match */
	uint64_t failed;	/* requests ending with an error */
	uint64_t tcp_queued;	/* TCP exchanges that waited for a
				   connection (DT_UP_TCP_MAX) */
	uint64_t truncated_tcp;	/* TC=1 over TCP: taken as a failure */
	uint64_t malformed;	/* responses to the query (header and
				   question) that do not parse: taken as a
				   failure */
	uint64_t port_fallback;	/* UDP sockets left to the kernel's port
				   (DT_UP_PORT_TRIES drawn ports in use) */
	uint64_t tls_failed;	/* TLS handshakes or certificate checks
				   that failed (tls.h) */
};

/* Counters of this client since it was made. */
void up_client_stats(const struct up_client *c, struct up_stats *ret);

/* Upstream TCP connections open now in the process, every client's
 * (at most DT_UP_TCP_MAX, DT_UP_TCP_PER_SERVER to one server). */
unsigned up_tcp_open(void);

/* Servers counted one by one: those of resolv.conf and of a few split-DNS
 * domains; later ones are not counted per server. */
#define UP_STATS_SERVERS 16

/* Counters of one server (for `dnstrust statistics`). */
struct up_server_stats {
	struct up_server server;
	uint64_t tries;	   /* queries sent to it (UDP or TCP) */
	uint64_t answers;  /* answers taken from it */
	uint64_t timeouts; /* tries that timed out */
	uint64_t errors;   /* tries that failed otherwise (RCODE, socket) */
	uint64_t rtt_ms;   /* sum over the answers of the try's time */
};

/* Copies the per-server counters of this client into out (at most cap).
 * May be called from another thread than the client's: the counters are
 * read atomically, each on its own. Returns the number copied. */
size_t up_client_server_stats(const struct up_client *c,
			      struct up_server_stats *out, size_t cap);

#endif
