/* SPDX-License-Identifier: MIT */
/*
 * Inside the resolver core: a question under way (task), the responses
 * it has fetched, and the record source it gives the chain-of-trust walk
 * (source.c: the key, probe and response caches, and the fetched
 * responses). Not for use outside src/resolver.
 */
#ifndef DT_RESOLVER_TASK_H
#define DT_RESOLVER_TASK_H

#include "cache/cache.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "validator/response.h"
#include "validator/walk.h"

struct resolver {
	struct cache *cache;
	struct rsv_env env;
	struct dstate *st;		/* the state new questions use */
	uint64_t hash_k0, hash_k1;	/* the tables' SipHash key */
	struct rsv_task **tasks;	/* by (name, type) */
	struct rsv_fetch **fetches;
	size_t ntasks, nfetches;
	unsigned fetches_max;		/* per task */
	size_t bytes_max;		/* per task */
	struct rsv_stats stats;
	struct val_sigcache *sigcache;	/* verifications that succeeded */
	/* nsec.c's message under construction (nsec_learn, nsec_synthesize,
	 * and resolver.c's chase(): one at a time, the core being
	 * single-threaded, and each done with it on return); DT_MSG_MAXLEN,
	 * the largest DNS message */
	uint8_t nsec_buf[DT_MSG_MAXLEN];
	/* Bogus answers logged at notice in the current window (started
	 * at bogus_window, monotonic seconds), and those held back. */
	int64_t bogus_window;
	unsigned bogus_logged, bogus_held;
};

#define RSV_STAT_INC(r, field) \
	__atomic_fetch_add(&(r)->stats.field, 1, __ATOMIC_RELAXED)

/* An upstream response fetched for a task (or its failure). */
struct rsv_fetched {
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	int err;			/* 0, or why there is no message */
	struct wire_msg *msg;
	char from[DT_FETCH_FROM_LEN];	/* the upstream that sent it, or
					   "cache" */
	bool kept;			/* stored as a 'Q' entry already, or
					   read from one */
};

struct rsv_task {
	struct rsv_task *hnext;
	struct resolver *r;
	struct dstate *st;
	uint8_t qname[DT_NAME_MAXLEN];	/* lower case */
	uint16_t qtype, qclass;
	unsigned nest;			/* its first waiter's */
	struct rsv_waiter *waiters;
	size_t nwaiters;
	struct rsv_fetched *f;
	size_t nf, capf;
	size_t bytes;			/* held by f's messages (parsed) */
	unsigned nfetching;		/* fetches it waits on */
	int64_t now;			/* wall clock of this run */
	int64_t mono;			/* monotonic seconds of this run */
	int64_t started_ms;		/* monotonic, when it was created */
	struct val_ctx tmpl;		/* time, limits (budgets unused) */
	/* key source state */
	struct cache_ref *refs;		/* key sets held from the cache */
	size_t nrefs, caprefs;
	struct val_keyset **local;	/* key sets not cached (failures) */
	size_t nlocal, caplocal;
	bool want;			/* a fetch is wanted: */
	uint8_t want_name[DT_NAME_MAXLEN];
	uint16_t want_type;
	int fail_err;			/* a wanted fetch had failed */
	bool synth_tried;		/* kept NSEC records were looked at */
	bool synth;			/* the answer is put together from
					   them (nsec.c), not fetched */
	const struct cfg_nta *nta;	/* a negative trust anchor applied */
	bool unvalidated;		/* answered unvalidated (hotspot) */
	unsigned attempt;		/* 0, or the retry under way
					   (resolver.c retry()): cached
					   responses and key sets that are
					   not secure are not used then */
	struct answer *bogus;		/* the bogus answer of an earlier
					   attempt: given if the next ones
					   end without any answer (a retry
					   never turns bogus into a
					   network error) */
	unsigned chased;		/* CNAME targets asked
					   (chase()) */
	bool search_walked;		/* the walk to its search suffix
					   is done (search_pending) */
	struct val_work work;		/* shared by every run and key set */
};

/* The fetched response for (name, type): the message, or NULL with *err
 * set when the fetch failed, or NULL with *err 0 when not fetched yet
 * (then it is noted as wanted). */
const struct wire_msg *source_task_fetched(struct rsv_task *t,
					   const uint8_t *name, uint16_t type,
					   int *err);

/* Records a fetched response (or its failure err). Past
 * the resolver's bytes_max the response is dropped and recorded as failed
 * with DT_ELIMIT, which is returned; -ENOMEM. */
int source_fetched_add(struct rsv_task *t, const uint8_t *name, uint16_t type,
		       struct wire_msg *msg, int err, const char *from);

/* An answer validated secure leaves the CNAME and DNAME RRsets of its
 * chain (with their RRSIGs; not a wildcard's expansion) as the
 * responses to `owner CNAME` and `owner DNAME` ('Q' entries, for their
 * TTLs), so that those questions are answered from them, validated
 * again, as Unbound answers them from its RRset cache (val_cnameqtype,
 * val_dnameqtype). */
void source_alias_learn(struct rsv_task *t, const struct answer *a);

/* A response for t's question put together from a kept DNAME at an
 * ancestor of its name (the deepest one kept): the DNAME RRset with its
 * RRSIGs and the CNAME it synthesises (RFC 6672 §3.4), to be validated
 * like an upstream's; NULL when none is kept. Never for qtype DS. */
struct wire_msg *source_alias_synthesize(struct rsv_task *t);

/* Puts msg in f's place (its old message freed), as f's response; past
 * the resolver's bytes_max msg is freed and DT_ELIMIT returned, f
 * unchanged. */
int source_fetched_replace(struct rsv_task *t, struct rsv_fetched *f,
			   struct wire_msg *msg);

/* The fetched entry for (name, type), or NULL. */
struct rsv_fetched *source_fetched_find(struct rsv_task *t, const uint8_t *name,
					uint16_t type);

/* The walk's record source over t (source.c). */
void source_init(struct rsv_task *t, struct walk_source *src);

/* Gives back every key set t holds. */
void source_release(struct rsv_task *t);

/* What the cache knows of the zone cut at a name (source.c), for the
 * chain fetched at once (resolver.c). */
enum source_cut {
	SOURCE_CUT_UNKNOWN,		/* nothing */
	SOURCE_CUT_KEYS,		/* a secure key set: nothing to fetch */
	SOURCE_CUT_NOT_A_CUT,		/* a probe: no zone cut there */
	SOURCE_CUT_NOTHING_BELOW,	/* the name does not exist, or its
					   key set is not secure */
};
enum source_cut source_cut_known(struct rsv_task *t, const uint8_t *name);
/* The same from cache c alone, at mono (seconds). */
enum source_cut source_cut_cached(struct cache *c, const uint8_t *name,
				  int64_t mono);

/* The deepest zone at or above name, the root excepted, whose key set
 * is secure (in the key cache or the task's own), or NULL: where a
 * signed zone below the root is shown to hold the name. Points into
 * name. */
const uint8_t *source_signed_zone(struct rsv_task *t, const uint8_t *name);

/* Whether the cache holds the response to (name, type) ('Q'). */
bool source_response_kept(struct rsv_task *t, const uint8_t *name,
			  uint16_t type);

/* Builds the validator's view of a response to (qname, qtype) from msg. */
void source_response(const struct wire_msg *msg, const uint8_t *qname,
		     uint16_t qtype, struct val_response *ret);

/* The cached answer to (qname, qtype, qclass) when it may be served
 * stale (secure or insecure, kept past its TTL for serve-stale-max),
 * fresh or not: true with *ref held (answer.c). */
bool answer_stale_get(struct resolver *r, const uint8_t *qname,
		      uint16_t qtype, uint16_t qclass, int64_t now,
		      struct cache_ref *ref);

/* Starts, without a waiter, the resolution of q when none is under way:
 * the answer refreshes the cache (resolver.c). */
void rsv_prefetch(struct resolver *r, const struct qinfo *q,
		  const struct rsv_clock *now);

/* Keeps the NSEC and SOA records of a secure negative answer for the
 * aggressive use of NSEC (nsec.c, RFC 8198). */
void nsec_learn(struct resolver *r, const struct answer *a, int64_t now);

/* Likewise for m, a response validated secure with res (a DS proof of
 * the chain of trust); a TTL of 0 in res (no SOA, RFC 2308 §5) leaves the
 * records their own TTLs. */
void nsec_learn_proof(struct resolver *r, const struct wire_msg *m,
		      const struct val_result *res, int64_t now);

/* A response to t's question put together from kept NSEC records, to be
 * validated like an upstream's, or NULL (nsec.c). */
struct wire_msg *nsec_synthesize(struct rsv_task *t);

/* Stores a in the answer cache (takes it) (answer.c). */
void answer_store(struct resolver *r, const uint8_t *qname, uint16_t qtype,
		  uint16_t qclass, struct answer *a);

#endif
