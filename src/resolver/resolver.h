/* SPDX-License-Identifier: MIT */
/*
 * The resolver core: questions in, upstream fetches out, upstream
 * responses in, verdicts and rendered answers out. No sockets, no
 * threads, no timers, no global state: the caller (dnstrustd's worker
 * loop, or the replay runner of tests/replay) owns the transport and the
 * clock, and passes the time to every call; the configuration, anchors
 * and runtime negative trust anchors come in its state (struct dstate).
 * The unit test no-static-state checks that src/resolver and
 * src/validator have no writable object outside a function's frame.
 *
 * A question is validated again after every fetch until the verdict is
 * in: the chain-of-trust walk (validator/walk.h) asks for a DS or DNSKEY
 * response it does not have, the core asks the caller to fetch it, and
 * when the response arrives (rsv_fetch_done) the walk runs again. Key
 * sets, DS probes and the responses they were built from go to the
 * shared cache, so that each run, and each later question, gets further.
 *
 * Identical questions are one task (the waiters are listed on it);
 * identical fetches are one fetch, shared by the tasks that want it.
 */
#ifndef DT_RESOLVER_RESOLVER_H
#define DT_RESOLVER_RESOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/policy.h"
#include "resolver/answer.h"

struct cache;
struct dstate;
struct resolver;
struct rsv_fetch;
struct rsv_task;
struct val_sigcache_stats;
struct up_conf;

/* Room for an upstream's name in logs ("[addr%scope]:port"). */
#define DT_FETCH_FROM_LEN 80

/* The time of a call: monotonic milliseconds (cache expiry, task age)
 * and the wall clock in seconds (signature validity, RFC 5011, negative
 * trust anchors), each as the caller sees it. */
struct rsv_clock {
	int64_t mono_ms;
	int64_t wall;
};

/*
 * A question waiting for an answer: embedded in the caller's own
 * structure (container_of-style), linked on the task it waits for.
 *
 * nest is 0 for a client's question. The caller's recursion may need a
 * question answered to go on with a fetch (the validated address of a
 * name server without glue): that question is asked with the nesting
 * of the fetch (rsv_fetch_nest) plus one. A task or fetch is joined only
 * by questions and tasks of its own nesting or less: every wait then
 * goes to the same nesting or deeper, and each nested question deeper
 * still, so no question can end up waiting for itself, whatever the
 * zones' servers are named. The caller bounds the nesting.
 */
struct rsv_waiter {
	struct rsv_waiter *next;
	struct rsv_task *task;		/* NULL once answered or detached */
	struct qinfo q;			/* what the reply must echo */
	unsigned nest;
};

/* What the core tells the caller when a question is finished. */
struct rsv_done {
	const uint8_t *qname;		/* lower case */
	uint16_t qtype, qclass;
	const struct answer *a;		/* valid during the call only */
	int64_t elapsed_ms;		/* since the question was submitted */
	unsigned nest;			/* its waiters' (rsv_waiter.nest) */
};

struct rsv_env {
	void *arg;
	/*
	 * Starts the upstream query (name, type, class IN) to servers (NULL:
	 * the default upstreams, resolv.conf's). Returns 0 and sets *handle,
	 * after which the caller calls rsv_fetch_done(f, ...) exactly once
	 * (never from inside this call), unless the core cancels it first
	 * with fetch_cancel(handle). Returns -errno when it cannot start.
	 */
	int (*fetch)(void *arg, struct rsv_fetch *f, const uint8_t *name,
		     uint16_t type, const struct up_conf *servers,
		     void **handle);
	void (*fetch_cancel)(void *arg, void *handle);
	/*
	 * A question is finished, once per task: every waiter of the list
	 * (linked by next, each already detached: task NULL; NULL when
	 * nobody waits any more) is to be answered from d->a, e.g. with
	 * answer_render(). The caller owns the waiters again.
	 */
	void (*answered)(void *arg, struct rsv_waiter *waiters,
			 const struct rsv_done *d);
	/*
	 * Optional (NULL: none). resolv.conf as the default upstreams have
	 * it now: its search list names private domains (policy/policy.h).
	 */
	const struct up_conf *(*network)(void *arg);
	/*
	 * Optional (NULL: none). The servers of the split-DNS route learnt
	 * from the network for the upstream query (name, type)
	 * (policy/route.h), or NULL; asked only when no domain rule of the
	 * configuration names upstreams for it (the administrator's rule
	 * wins). Valid until the caller's next return to its loop.
	 */
	const struct up_conf *(*route)(void *arg, const uint8_t *name,
				       uint16_t type);
	/*
	 * Optional (NULL: never). Seconds left of a hotspot sign-on
	 * (`dnstrust hotspot`), 0 when none: answers that cannot be proven
	 * and are not shown to be in a signed zone below the root are then
	 * returned marked unvalidated, and never cached.
	 */
	uint32_t (*hotspot)(void *arg);
	/*
	 * Optional (NULL: nothing remembered). A resolution ended bogus,
	 * malformed or with an unusable RCODE and is tried again: from (as
	 * given to rsv_fetch_done) sent one of its responses. The caller
	 * may try that server last for a while (bounded, expiring).
	 */
	void (*distrust)(void *arg, const char *from);
	/*
	 * Optional (NULL: never). Whether questions go to forwarding
	 * resolvers now (not to the iterator): the chain of trust of a
	 * client's question is then asked together with the question
	 * (resolver.c speculate_ahead()), not once its answer is in.
	 */
	bool (*forwarding)(void *arg);
};

/* Counters, added with relaxed atomics (read from other threads). */
struct rsv_stats {
	uint64_t joined;		/* joined a question under way */
	uint64_t upstream;		/* fetches asked of the environment
					   (which may share them) */
	uint64_t secure, insecure, bogus, indeterminate;
	uint64_t servfail_upstream;	/* no usable upstream answer */
	uint64_t overload;		/* refused: too many under way */
	uint64_t prefetch;		/* answers fetched again before they
					   expired */
	uint64_t stale;			/* answers served stale (RFC 8767) */
	uint64_t retried;		/* resolutions asked again after a
					   bogus, malformed or unusable
					   answer (DT_RSV_RETRY_MAX) */
	uint64_t synthesized;		/* negative answers from kept NSEC
					   records (RFC 8198) */
	uint64_t tasks;			/* questions under way now (a gauge,
					   not a counter) */
};

/* A new resolver over the shared cache c, calling env. NULL when out of
 * memory. The state is set with rsv_set_state() before the first
 * question. */
struct resolver *rsv_new(struct cache *c, const struct rsv_env *env);

/* Cancels every fetch (fetch_cancel) and ends every task; their waiters
 * are handed back through answered() with an answer of status
 * indeterminate, tag "shutdown". Then frees r. */
void rsv_free(struct resolver *r);

/* The state (configuration, anchors, limits) new questions use; held by
 * reference. Questions under way keep the one they started with. */
void rsv_set_state(struct resolver *r, struct dstate *st);

/*
 * Whether a recursing resolver's iterator should ask the DNSKEY RRset of
 * zone (a zone cut its walk for qname has reached) beside the question
 * (iterator/iterate.h, it_set_keys_ahead): qname is at or below zone
 * under a trust anchor, and neither private (asked of the network's
 * resolver), nor under a domain rule or a negative trust anchor, nor
 * asked during a hotspot sign-on; no cut between the anchor and zone is
 * proven unsigned or absent in the cache, and the cache knows nothing
 * of zone's key set yet (a secure one needs no query; a probe that says
 * zone is no cut, none either). Allocates nothing.
 */
bool rsv_keys_ahead(struct resolver *r, const uint8_t *zone,
		    const uint8_t *qname, const struct rsv_clock *now);

/*
 * Answers wt->q from the answer cache when it can: writes the reply to
 * buf (cap octets, at least DT_MSG_MAXLEN) and returns its length, else
 * returns 0.
 */
size_t answer_cached(struct resolver *r, const struct qinfo *q,
		     const struct rsv_clock *now, uint8_t *buf, size_t cap);

/*
 * The answer cache's fresh answer to (qname, qtype, IN) when it is
 * proven (answer_proven), rendered to buf (cap octets, at least
 * DT_MSG_MAXLEN); returns its length, else 0. For the
 * core's own lookups (a name server's address), which no client's
 * cached reply serves.
 */
size_t rsv_proven_cached(struct resolver *r, const uint8_t *qname,
			 uint16_t qtype, const struct rsv_clock *now,
			 uint8_t *buf, size_t cap);

/*
 * Starts or joins the resolution of wt->q. Returns 0 when wt waits (it
 * may already have been answered through answered(), before this
 * returns), or DT_ELIMIT when too many questions are under way (the
 * caller answers SERVFAIL, EDE 14), or -ENOMEM.
 */
int rsv_submit(struct resolver *r, struct rsv_waiter *wt,
	       const struct rsv_clock *now);

/* Detaches a waiter from its task (deadline passed, client gone); the
 * task runs on without it and its answer fills the cache. */
void rsv_detach(struct rsv_waiter *wt);

/*
 * An upstream response (msg, len octets, from the upstream named from)
 * or a failure (err < 0: DT_ETIMEOUT, DT_ENOSERVER, DT_EUPSTREAM...) for
 * the fetch f. DT_EABSENT says an offline source does not hold the
 * records and never will (`dnstrust verify --resolver`): the walk treats
 * them as absent from its input, not as a failed query. Validation runs again for every task that wanted it;
 * answered() may be called before this returns.
 */
void rsv_fetch_done(struct rsv_fetch *f, int err, const uint8_t *msg,
		    size_t len, const char *from, const struct rsv_clock *now);

/* The nesting of the questions a fetch serves (rsv_waiter). */
unsigned rsv_fetch_nest(const struct rsv_fetch *f);

/* 0 for a question's first resolution; n (1..DT_RSV_RETRY_MAX) when the
 * core asks again because the n-th resolution ended bogus, malformed or
 * with an unusable RCODE: the caller should send it another way (over
 * TCP, another server first) and never join it to a fetch of an earlier
 * attempt. */
unsigned rsv_fetch_attempt(const struct rsv_fetch *f);

/* The limits of one question: upstream responses fetched (default
 * DT_DMN_FETCHES_PER_TASK) and the memory they may take once parsed
 * (default DT_DMN_BYTES_PER_TASK). Past either, the question fails
 * (SERVFAIL, tags limit-fetches and limit-bytes). */
void rsv_set_task_limits(struct resolver *r, unsigned fetches, size_t bytes);

/* Questions and fetches under way. */
size_t rsv_tasks(const struct resolver *r);
size_t rsv_fetches(const struct resolver *r);

const struct rsv_stats *rsv_stats(const struct resolver *r);

/* The counters of r's cache of signature verifications (misses: made,
 * hits: answered by it); safe from another thread. */
void rsv_sigcache_stats(const struct resolver *r,
			struct val_sigcache_stats *ret);

/* Renders the reply to q from a, aged by age seconds, into buf (cap
 * octets, at least DT_MSG_MAXLEN). Returns the length. */
size_t answer_render(const struct answer *a, const struct qinfo *q, int64_t age,
		     uint8_t *buf, size_t cap);

/* A reply without answer data: rcode, and an EDE when ede is not
 * VAL_EDE_NONE (text may be NULL). Returns the length. */
size_t answer_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		    const char *text, uint8_t *buf, size_t cap);

/* Drops every cache entry not learnt through a secure validation (for a
 * change of upstreams). Returns the number dropped. */
size_t source_drop_unproven(struct cache *c);

/* The same, and every negative answer and upstream response, secure or
 * not (the start of a hotspot sign-on: the portal answers names the
 * public DNS proves absent). Returns the number dropped. */
size_t source_drop_unproven_negative(struct cache *c);

struct dstate;
struct up_conf;

/*
 * Whether suffix is proven not to be in a signed zone: no trust anchor of
 * st is at or above it (the administrator's anchors leave it unsigned),
 * or the cache holds the public tree's proof: a zone at or above it
 * proven unsigned (an insecure key set, built from a validated denial of
 * the DS), or it or an ancestor proven not to exist (a validated
 * NXDOMAIN). mono: monotonic seconds.
 */
bool rsv_search_proven(struct cache *c, const struct dstate *st,
		       const uint8_t *suffix, int64_t mono);

/*
 * The private domain at or above name as questions are sent and answers
 * judged (docs/DESIGN.md, "Search suffixes"): the deepest private-domain
 * line or built-in name of st's configuration, or the deepest search
 * name of uc (may be NULL) once rsv_search_proven holds for it,
 * whichever is deeper; NULL when none. *src (may be NULL) says which,
 * written only when one is returned.
 * A search name that is a signed public zone, or one not yet proven
 * unsigned, makes nothing private.
 */
const uint8_t *rsv_private_domain(struct cache *c, const struct dstate *st,
				  const struct up_conf *uc,
				  const uint8_t *name, int64_t mono,
				  enum policy_private_src *src);

#endif
