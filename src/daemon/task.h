/* SPDX-License-Identifier: MIT */
/*
 * One question being resolved (task.c) and the key source it validates
 * with (keys.c).
 *
 * Resolution is validation re-run until it has what it needs: the
 * validator asks its key source for key sets; the daemon's key source
 * builds them from the key cache and from the upstream responses the task
 * has fetched so far, and when a response is missing it notes which
 * (name, type) it wants and says "not yet". The task then fetches that
 * and validates again from the start. Every key set built is kept (the key
 * cache, or the task for failures), so each run gets further; the number
 * of fetches per question is capped (DT_DMN_FETCHES_PER_TASK).
 */
#ifndef DT_DAEMON_TASK_H
#define DT_DAEMON_TASK_H

#include "cache/cache.h"
#include "daemon/daemon.h"
#include "validator/response.h"

/* Room for an upstream's address in logs ("[addr%scope]:port"). */
#define DT_FETCH_FROM_LEN 80

/* An upstream response fetched for a task (or its failure). */
struct fetched {
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	int err;			/* 0, or why there is no message */
	struct wire_msg *msg;
	char from[DT_FETCH_FROM_LEN];	/* the upstream that sent it, or
					   "cache" */
	bool kept;			/* stored as a 'Q' entry already, or
					   read from one */
};

struct task {
	struct task *hnext;
	struct worker *w;
	struct dstate *st;
	uint8_t qname[DT_NAME_MAXLEN];	/* lower case */
	uint16_t qtype, qclass;
	struct waiter *waiters;
	struct fetched *f;
	size_t nf, capf;
	size_t bytes;			/* held by f's messages (parsed) */
	bool fetching;
	int64_t now;			/* wall clock of this run */
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
	const struct cfg_nta *nta;	/* a negative trust anchor applied */
	unsigned depth;
	struct val_work work;		/* shared by every run and key set */
	/* names whose DS answer is being validated (innermost last): the
	 * walk of name_keys stops above them, as their DS lives in the
	 * parent */
	const uint8_t *probing[DT_NAME_MAXLABELS + 1];
	unsigned nprobing;
};

/* The fetched response for (name, type): the message, or NULL with *err
 * set when the fetch failed, or NULL with *err 0 when not fetched yet
 * (then it is noted as wanted). */
const struct wire_msg *task_fetched(struct task *t, const uint8_t *name,
				    uint16_t type, int *err);

/*
 * Keeps the fetched response to (name, type) as a 'Q' cache entry for
 * other questions' key sources, now that v (with ttl) was validated from
 * it: for at most ttl, bogus-ttl when v is bogus or indeterminate, the
 * response's own TTLs and max-cache-ttl. Once per fetched response; not
 * for one read from the cache, nor for a verdict of a spent work budget.
 */
void task_keep_response(struct task *t, const uint8_t *name, uint16_t type,
			const struct val_verdict *v, uint32_t ttl);

/* Drops every cache entry not learnt through a secure validation
 * (answers, key sets and raw responses of another status; rendered
 * replies): for a change of upstreams. Returns the number dropped. */
size_t task_drop_unproven(struct cache *c);

/* Fills *src with the task's key source. */
void keys_source(struct task *t, struct val_keysource *src);

/* Gives back everything the key source holds. */
void keys_release(struct task *t);

/* Builds the validator's view of a response to (qname, qtype) from msg. */
void keys_response(const struct wire_msg *msg, const uint8_t *qname,
		   uint16_t qtype, struct val_response *ret);

#endif
