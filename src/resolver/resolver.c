/* SPDX-License-Identifier: MIT */
/*
 * Questions under way (resolver.h): one task per distinct (name, type,
 * class), however many clients asked it; upstream fetches shared per
 * (name, type) between tasks; validation re-run after every fetch until
 * the verdict is in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cache/siphash.h"
#include "common/errcode.h"
#include "common/log.h"
#include "policy/policy.h"
#include "resolver/chase.h"
#include "resolver/task.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "validator/sigcache.h"
#include "validator/walk.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define TABLE_SIZE 1024 /* buckets of the task and fetch tables */

/* An upstream query in flight, shared by the tasks that want it. */
struct rsv_fetch {
	struct rsv_fetch *hnext;
	struct resolver *r;
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	void *handle;			/* the caller's */
	unsigned nest;			/* its first task's (rsv_waiter) */
	unsigned attempt;		/* its first task's (rsv_fetch_attempt) */
	struct rsv_task **tasks;
	size_t ntasks, cap;
};

static void task_run(struct rsv_task *t, const struct rsv_clock *now);
static void fetch_wanted(struct rsv_task *t, const struct wire_msg *m);
static bool ask_network(struct rsv_task *t);
static void finish_result(struct rsv_task *t, const struct val_result *res);
static struct wire_msg *take_main(struct rsv_task *t);

static unsigned name_hash(const struct resolver *r, const uint8_t *name,
			  uint16_t type)
{
	uint8_t key[2 + DT_NAME_MAXLEN];
	size_t len = wire_dname_len(name);

	wire_put16(key, type);
	for (size_t i = 0; i < len; i++) {
		uint8_t c = name[i];
		key[2 + i] = c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
	}
	return (unsigned)(cache_siphash13(r->hash_k0, r->hash_k1, key,
					  2 + len) %
			  TABLE_SIZE);
}

struct resolver *rsv_new(struct cache *c, const struct rsv_env *env)
{
	struct resolver *r = calloc(1, sizeof(*r));
	uint64_t seed[2];

	if (!r)
		return NULL;
	/* Random per resolver, so that nobody can choose names that all
	 * land in one bucket. */
	if (getrandom(seed, sizeof(seed), 0) != sizeof(seed)) {
		free(r);
		return NULL;
	}
	r->hash_k0 = seed[0];
	r->hash_k1 = seed[1];
	r->cache = c;
	r->env = *env;
	r->fetches_max = DT_DMN_FETCHES_PER_TASK;
	r->bytes_max = DT_DMN_BYTES_PER_TASK;
	r->tasks = calloc(TABLE_SIZE, sizeof(*r->tasks));
	r->fetches = calloc(TABLE_SIZE, sizeof(*r->fetches));
	r->sigcache = val_sigcache_new();
	if (!r->tasks || !r->fetches || !r->sigcache) {
		free(r->tasks);
		free(r->fetches);
		val_sigcache_free(r->sigcache);
		free(r);
		return NULL;
	}
	return r;
}

void rsv_set_state(struct resolver *r, struct dstate *st)
{
	struct dstate *old = r->st;

	r->st = st ? dstate_get(st) : NULL;
	dstate_put(old);
}

void rsv_set_task_limits(struct resolver *r, unsigned fetches, size_t bytes)
{
	r->fetches_max = fetches;
	r->bytes_max = bytes;
}

size_t rsv_tasks(const struct resolver *r)
{
	return r->ntasks;
}

size_t rsv_fetches(const struct resolver *r)
{
	return r->nfetches;
}

const struct rsv_stats *rsv_stats(const struct resolver *r)
{
	return &r->stats;
}

void rsv_sigcache_stats(const struct resolver *r,
			struct val_sigcache_stats *ret)
{
	val_sigcache_stats(r->sigcache, ret);
}

/* --- upstream fetches shared between tasks --- */

/* The fetch of (name, type) that a task of nesting nest may join (one of
 * the same nesting or deeper: see rsv_waiter), or the bucket's end. */
/* A fetch t may join: same question, nesting no shallower than t's, and
 * asked no earlier than t's attempt (a retry never takes the answer it is
 * retrying). */
static struct rsv_fetch **fetch_slot(struct resolver *r, const uint8_t *name,
				     uint16_t type, unsigned nest,
				     unsigned attempt)
{
	struct rsv_fetch **p = &r->fetches[name_hash(r, name, type)];

	while (*p && !((*p)->type == type && (*p)->nest >= nest &&
		       (*p)->attempt >= attempt &&
		       wire_dname_equal((*p)->name, name)))
		p = &(*p)->hnext;
	return p;
}

/* The link to f in its bucket. */
static struct rsv_fetch **fetch_link(struct rsv_fetch *f)
{
	struct rsv_fetch **p = &f->r->fetches[name_hash(f->r, f->name,
							f->type)];

	while (*p != f)
		p = &(*p)->hnext;
	return p;
}

unsigned rsv_fetch_nest(const struct rsv_fetch *f)
{
	return f->nest;
}

unsigned rsv_fetch_attempt(const struct rsv_fetch *f)
{
	return f->attempt;
}

static void fetch_free(struct rsv_fetch *f)
{
	free(f->tasks);
	free(f);
}

void rsv_fetch_done(struct rsv_fetch *f, int err, const uint8_t *msg,
		    size_t len, const char *from, const struct rsv_clock *now)
{
	struct resolver *r = f->r;
	struct wire_msg *m = NULL;

	*fetch_link(f) = f->hnext;
	r->nfetches--;
	if (!err) {
		m = wire_msg_parse(msg, len, 0, &err);
		if (!m) {
			log_info("upstream answer unparsable: %s",
				 errcode_str(err));
			err = DT_EUPSTREAM;
		}
	} else if (err > 0) {
		err = DT_EUPSTREAM;
	}
	for (size_t i = 0; i < f->ntasks; i++) {
		struct rsv_task *t = f->tasks[i];
		struct wire_msg *copy = NULL;
		int e = err;
		if (m && !(copy = wire_msg_parse(m->raw, m->rawlen, 0, &e)))
			e = -ENOMEM;
		t->nfetching--;
		int rr = source_fetched_add(t, f->name, f->type, copy, e,
					    from ? from : "upstream");
		if (rr < 0 && rr != DT_ELIMIT)
			t->fail_err = -ENOMEM;
		/* Validation runs again when what it asked for is in, or
		 * when nothing else is on its way. */
		if (!t->nfetching || !t->want ||
		    (t->want_type == f->type &&
		     wire_dname_equal(t->want_name, f->name)))
			task_run(t, now);
	}
	wire_msg_free(m);
	fetch_free(f);
}

static bool waits_on(const struct rsv_fetch *f, const struct rsv_task *t)
{
	for (size_t i = 0; i < f->ntasks; i++)
		if (f->tasks[i] == t)
			return true;
	return false;
}

/* Makes t wait for (name, type), joining a fetch in flight if any.
 * Returns 0 or -errno. */
static int fetch_start(struct rsv_task *t, const uint8_t *name, uint16_t type)
{
	struct resolver *r = t->r;
	struct rsv_fetch **slot = fetch_slot(r, name, type, t->nest,
					     t->attempt);
	struct rsv_fetch *f = *slot;

	if (f && waits_on(f, t))
		return 0;
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return -ENOMEM;
		f->r = r;
		wire_dname_copy(f->name, name);
		f->type = type;
		f->nest = t->nest;
		f->attempt = t->attempt;
		/* Split DNS: a domain rule's servers, else a learnt route's,
		 * else resolv.conf's. A DS RRset is the parent's (RFC 4035
		 * §2.4): the DS of a rule's own domain is asked where its
		 * parent's questions go, as Unbound does for a forward-zone
		 * (a learnt route's DS likewise, policy_route_find()). */
		const uint8_t *at = name;
		if (type == WIRE_TYPE_DS && !wire_dname_is_root(name))
			at = wire_dname_parent(name);
		const struct cfg_domain *d =
			policy_domain(&t->st->cfg, at, true);
		const struct up_conf *servers =
			d ? &t->st->split[d - t->st->cfg.domain]
			: r->env.route ? r->env.route(r->env.arg, name, type)
				       : NULL;
		int e = r->env.fetch(r->env.arg, f, name, type, servers,
				     &f->handle);
		if (e < 0) {
			free(f);
			return e;
		}
		f->hnext = *slot; /* a deeper one may be there */
		*slot = f;
		r->nfetches++;
		RSV_STAT_INC(r, upstream);
		if (log_enabled(LOG_DEBUG)) {
			char txt[DT_NAME_TEXT_MAXLEN], tb[16];
			wire_dname_to_str(name, txt, sizeof(txt));
			log_debug("upstream query %s/%s", txt,
				  wire_type_to_str(type, tb));
		}
	}
	if (f->ntasks == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 4;
		struct rsv_task **n = realloc(f->tasks, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->tasks = n;
		f->cap = cap;
	}
	f->tasks[f->ntasks++] = t;
	t->nfetching++;
	return 0;
}

/* Removes t from the fetches it waits on (task ending early). */
static void fetch_leave(struct rsv_task *t)
{
	for (size_t b = 0; b < TABLE_SIZE && t->nfetching; b++) {
		for (struct rsv_fetch *f = t->r->fetches[b]; f; f = f->hnext) {
			for (size_t i = 0; i < f->ntasks; i++) {
				if (f->tasks[i] != t)
					continue;
				f->tasks[i] = f->tasks[--f->ntasks];
				t->nfetching--;
				break;
			}
		}
	}
}

/* --- the chain of trust fetched at once --- */

static void speculate_one(struct rsv_task *t, const uint8_t *name,
			  uint16_t type)
{
	if (t->nf + t->nfetching >= t->r->fetches_max ||
	    source_fetched_find(t, name, type) ||
	    source_response_kept(t, name, type))
		return;
	fetch_start(t, name, type);
}

/* Whether t waits on the fetch of (name, type) now. */
static bool fetch_pending(struct rsv_task *t, const uint8_t *name,
			  uint16_t type)
{
	const struct rsv_fetch *f =
		*fetch_slot(t->r, name, type, t->nest, t->attempt);

	return f && waits_on(f, t);
}

/* The chain from the anchor above name down to name: the DS and DNSKEY
 * response of every label not known from the cache (dnskey false:
 * DS only, but the anchor's DNSKEY, and nothing below a label whose DS
 * is still on its way: it may prove the cut there unsigned, and then
 * the DS below it are not asked at all). */
static void speculate_chain(struct rsv_task *t, const uint8_t *name,
			    bool dnskey)
{
	const struct val_anchor_zone *az = val_anchors_find(t->st->ta, name);
	int top = az ? wire_dname_labels(az->zone) : 0;

	for (int l = top; az && l <= wire_dname_labels(name); l++) {
		const uint8_t *a = wire_dname_ancestor(name, l);
		if (policy_nta(&t->st->cfg, t->st->nta, a, t->now))
			return;
		enum source_cut known = source_cut_known(t, a);
		if (known == SOURCE_CUT_NOTHING_BELOW)
			return;
		if (known != SOURCE_CUT_UNKNOWN)
			continue;
		if (!dnskey && l > top && fetch_pending(t, a, WIRE_TYPE_DS))
			return;
		if (l > top)
			speculate_one(t, a, WIRE_TYPE_DS);
		if (dnskey || l == top)
			speculate_one(t, a, WIRE_TYPE_DNSKEY);
	}
}

/*
 * Before the answer: the DS and DNSKEY of every ancestor of the name
 * below the closest anchor (a zone cut guessed at each label; labels the
 * cache knows are skipped, and nothing below a cut proven unsigned or a
 * name proven absent), asked together with the name, so that a cold name
 * whose zone cuts are at its labels takes one round trip. Only while
 * forwarding (env.forwarding), for a client's question on its first
 * attempt, and not for names asked of the network's resolver (private
 * names, hotspot sign-on), under a domain rule or a negative trust
 * anchor; at most DT_RSV_SPECULATE_AHEAD_LABELS ancestors. A name just
 * below its anchor is asked alone: its chain is the anchor's DNSKEY,
 * wasted when the question fails or is answered from the network.
 */
static void speculate_ahead(struct rsv_task *t)
{
	struct resolver *r = t->r;
	const struct val_anchor_zone *az =
		t->st->ta ? val_anchors_find(t->st->ta, t->qname) : NULL;
	int labels = wire_dname_labels(t->qname);

	if (!az || !r->env.forwarding || !r->env.forwarding(r->env.arg) ||
	    t->nest || t->attempt || t->synth ||
	    labels <= wire_dname_labels(az->zone) + 1 ||
	    policy_domain(&t->st->cfg, t->qname, false) ||
	    policy_nta(&t->st->cfg, t->st->nta, t->qname, t->now) ||
	    ask_network(t))
		return;
	int deepest = wire_dname_labels(az->zone) +
		      DT_RSV_SPECULATE_AHEAD_LABELS;
	if (deepest > labels - 1)
		deepest = labels - 1;
	speculate_chain(t, wire_dname_ancestor(t->qname, deepest), true);
}

bool rsv_keys_ahead(struct resolver *r, const uint8_t *zone,
		    const uint8_t *qname, const struct rsv_clock *now)
{
	const struct dstate *st = r->st;
	const struct up_conf *uc =
		r->env.network ? r->env.network(r->env.arg) : NULL;
	int64_t mono = now->mono_ms / 1000;
	const struct val_anchor_zone *az =
		st && st->ta ? val_anchors_find(st->ta, zone) : NULL;

	if (!az || !wire_dname_is_subdomain(qname, zone) ||
	    policy_domain(&st->cfg, qname, false) ||
	    policy_nta(&st->cfg, st->nta, qname, now->wall) ||
	    policy_nta(&st->cfg, st->nta, zone, now->wall) ||
	    (r->env.hotspot && r->env.hotspot(r->env.arg)) ||
	    rsv_private_domain(r->cache, st, uc, qname, mono, NULL))
		return false;
	for (int l = wire_dname_labels(az->zone); l < wire_dname_labels(zone);
	     l++) {
		const uint8_t *a = wire_dname_ancestor(zone, l);
		if (source_cut_cached(r->cache, a, mono) ==
		    SOURCE_CUT_NOTHING_BELOW)
			return false;
	}
	return source_cut_cached(r->cache, zone, mono) == SOURCE_CUT_UNKNOWN;
}

/*
 * The DS and DNSKEY responses a chain of trust needs do not depend on one
 * another, only their validation does: once the answer is in, ask for
 * every one the cache does not hold, together, so that a cold answer
 * takes two round trips whatever its depth. Which they are: for each
 * signer of the answer's RRSIGs, every label from the closest anchor down
 * to it (labels that are not zone cuts cost a NODATA each); for an
 * unsigned answer, the DS of every label down to the name. Labels the
 * cache knows (key sets, probes that are not cuts) are skipped; the
 * fetches of a question stay within fetches_max.
 */
static void speculate(struct rsv_task *t, const struct wire_msg *m)
{
	const uint8_t *signers[DT_RSV_SPECULATE_SIGNERS];
	size_t n = 0;

	for (int s = WIRE_SEC_ANSWER; s <= WIRE_SEC_AUTHORITY; s++) {
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			if (rr->type != WIRE_TYPE_RRSIG ||
			    n == DT_RSV_SPECULATE_SIGNERS)
				continue;
			const uint8_t *sg = val_rrsig_signer(rr);
			bool seen = !wire_dname_is_subdomain(rr->owner, sg);
			for (size_t k = 0; k < n && !seen; k++)
				seen = wire_dname_equal(signers[k], sg);
			if (!seen)
				signers[n++] = sg;
		}
	}
	for (size_t i = 0; i < n; i++)
		speculate_chain(t, signers[i], true);
	if (!n)
		speculate_chain(t, t->qname, false);
}

/* --- tasks --- */

/* The task for the question that a waiter of nesting nest may join (one
 * of the same nesting or deeper: see rsv_waiter), or the bucket's end. */
static struct rsv_task **task_slot(struct resolver *r, const uint8_t *qname,
				   uint16_t qtype, uint16_t qclass,
				   unsigned nest)
{
	struct rsv_task **p = &r->tasks[name_hash(r, qname, qtype)];

	while (*p && !((*p)->qtype == qtype && (*p)->qclass == qclass &&
		       (*p)->nest >= nest &&
		       wire_dname_equal((*p)->qname, qname)))
		p = &(*p)->hnext;
	return p;
}

/* The link to t in its bucket. */
static struct rsv_task **task_link(struct rsv_task *t)
{
	struct rsv_task **p = &t->r->tasks[name_hash(t->r, t->qname,
						     t->qtype)];

	while (*p != t)
		p = &(*p)->hnext;
	return p;
}

static void log_bogus(struct rsv_task *t, const struct answer *a);

static void task_free(struct rsv_task *t)
{
	source_release(t);
	for (size_t i = 0; i < t->nf; i++)
		wire_msg_free(t->f[i].msg);
	free(t->f);
	free(t->refs);
	free(t->local);
	answer_free(t->bogus);
	dstate_put(t->st);
	free(t);
}

/* Takes t out of the tables and hands its waiters to the caller with a;
 * then t is freed. */
static void task_end(struct rsv_task *t, const struct answer *a)
{
	struct resolver *r = t->r;
	struct rsv_waiter *list = t->waiters;

	*task_link(t) = t->hnext;
	r->ntasks--;
	__atomic_store_n(&r->stats.tasks, r->ntasks, __ATOMIC_RELAXED);
	fetch_leave(t);
	for (struct rsv_waiter *wt = list; wt; wt = wt->next)
		wt->task = NULL;
	t->waiters = NULL;
	struct rsv_done d = {
		.qname = t->qname,
		.qtype = t->qtype,
		.qclass = t->qclass,
		.a = a,
		.elapsed_ms = t->mono * 1000 - t->started_ms,
		.nest = t->nest,
	};
	if (d.elapsed_ms < 0)
		d.elapsed_ms = 0;
	r->env.answered(r->env.arg, list, &d);
}

/* Answers every waiter from a and ends the task (a goes to the cache). */
static void task_finish(struct rsv_task *t, struct answer *a)
{
	struct resolver *r = t->r;

	a->stored = t->mono;
	switch (a->status) {
	case VAL_SECURE: RSV_STAT_INC(r, secure); break;
	case VAL_INSECURE: RSV_STAT_INC(r, insecure); break;
	case VAL_BOGUS: RSV_STAT_INC(r, bogus); break;
	default:
		if (a->upstream_fail)
			RSV_STAT_INC(r, servfail_upstream);
		else
			RSV_STAT_INC(r, indeterminate);
	}
	task_end(t, a);
	answer_store(r, t->qname, t->qtype, t->qclass, a);
	task_free(t);
}

static struct answer *answer_new(void)
{
	struct answer *a = calloc(1, sizeof(*a));

	if (a)
		a->ede = VAL_EDE_NONE;
	return a;
}

/* Ends a task without an answer to cache: its clients get SERVFAIL
 * with the reason. */
static void task_abandon(struct rsv_task *t, const char *tag,
			 const char *why)
{
	struct answer a = {
		.status = VAL_INDETERMINATE,
		.ede = WIRE_EDE_OTHER,
		.rcode = WIRE_RCODE_SERVFAIL,
		.tag = tag,
	};

	snprintf(a.reason, sizeof(a.reason), "%s", why);
	task_end(t, &a);
	task_free(t);
}

/*
 * No verdict: SERVFAIL, with a tag and EDE for the kind of failure.
 *   upstream-unreachable (EDE 22): no upstream answered in time;
 *   upstream-failed (EDE 23): every upstream failed or answered
 *     unusably (upstream-rcode: with an RCODE other than NOERROR and
 *     NXDOMAIN);
 *   limit-fetches, limit-bytes (EDE 0): the question needed more
 *     upstream queries or memory than one question may have;
 *   internal-nomem, internal-keys (EDE 0): out of memory, or the walk
 *     stopped without saying what it needs (a bug).
 * Only the upstream failures count as such (answer.upstream_fail).
 */
/*
 * The upstreams failed: an answer kept past its TTL (secure or insecure
 * only) is served instead, for at most serve-stale-max, marked stale
 * (RFC 8767: EDE 3, TTL DT_RSV_STALE_TTL); the failure is not cached
 * over it. A fresh one (a prefetch that failed) is served as it is.
 * Returns true when t was finished so.
 */
static bool finish_stale(struct rsv_task *t, int err)
{
	struct cache_ref ref;

	if (!t->st->cfg.serve_stale_max ||
	    !answer_stale_get(t->r, t->qname, t->qtype, t->qclass, t->mono,
			      &ref))
		return false;
	struct answer a = *(const struct answer *)ref.val;
	int64_t past = t->mono - (a.stored + (int64_t)a.ttl);
	if (past >= 0) {
		a.ede = WIRE_EDE_STALE_ANSWER;
		a.tag = "stale-answer";
		snprintf(a.reason, sizeof(a.reason),
			 "%lld s past its TTL, served stale (RFC 8767): the "
			 "upstreams failed (%s)",
			 (long long)past, errcode_str(err));
		a.ttl = DT_RSV_STALE_TTL;
		a.stored = t->mono;
		RSV_STAT_INC(t->r, stale);
	}
	/* Rendered with the age the cache would give it. */
	a.ttl = past >= 0 ? a.ttl : (uint32_t)(-past);
	a.ttl_own = false;
	a.stored = t->mono;
	task_end(t, &a);
	cache_unref(t->r->cache, &ref);
	task_free(t);
	return true;
}

static void finish_failed(struct rsv_task *t, int err, const char *tag,
			  const char *what)
{
	struct answer *a;
	char txt[DT_NAME_TEXT_MAXLEN];

	if (strncmp(tag, "upstream-", 9) == 0 && finish_stale(t, err))
		return;
	if (strncmp(tag, "upstream-", 9) == 0 && t->bogus) {
		/* Asked again and nothing came back this time: the verdict
		 * of the attempt that had an answer stands. */
		a = t->bogus;
		t->bogus = NULL;
		log_bogus(t, a);
		task_finish(t, a);
		return;
	}
	a = answer_new();
	if (!a) {
		task_abandon(t, "internal-nomem", "out of memory");
		return;
	}
	wire_dname_to_str(t->qname, txt, sizeof(txt));
	a->status = VAL_INDETERMINATE;
	a->rcode = WIRE_RCODE_SERVFAIL;
	a->tag = tag;
	a->ttl = DT_DMN_FAIL_TTL;
	if (strncmp(tag, "upstream-", 9) == 0) {
		a->upstream_fail = true;
		a->ede = (uint16_t)walk_fetch_ede(err);
	} else {
		a->ede = WIRE_EDE_OTHER;
		if (err == -ENOMEM)
			a->ttl = 0; /* says nothing about the name */
	}
	snprintf(a->reason, sizeof(a->reason), "%s for %.255s: %s", what, txt,
		 errcode_str(err));
	task_finish(t, a);
}

/* The failure of a fetch, by kind. */
static void finish_fetch_failed(struct rsv_task *t, int err)
{
	if (err == DT_ELIMIT)
		finish_failed(t, err, "limit-bytes",
			      "the upstream responses exceed the memory one "
			      "question may hold");
	else if (err == -ENOMEM)
		finish_failed(t, err, "internal-nomem", "out of memory");
	else if (err == DT_ETIMEOUT || err == DT_ENOSERVER || err == DT_ENOAUTH)
		finish_failed(t, err, "upstream-unreachable",
			      "no usable upstream answer");
	else if (err == DT_ERECURSION)
		finish_failed(t, err, "upstream-limit",
			      "recursion stopped at a limit");
	else if (err == DT_EBADANSWER)
		finish_failed(t, err, "upstream-malformed",
			      "no usable upstream answer");
	else if (err == DT_ENETBLOCKED) /* EDE 23, Network Error */
		finish_failed(t, err, "upstream-blocked",
			      "no root server answered");
	else
		finish_failed(t, err, "upstream-failed",
			      "no usable upstream answer");
}

/* After validation: a negative trust anchor marks the answer and bounds
 * its life; require-secure and `insecure reject` fail insecure answers;
 * mode permissive lets bogus ones through, marked. */
static void apply_policy(struct rsv_task *t, struct answer *a)
{
	const struct cfg *cfg = &t->st->cfg;
	char txt[DT_NAME_TEXT_MAXLEN], orig[VAL_REASON_MAXLEN];
	const uint8_t *rs;

	if (t->nta) {
		a->nta = true;
		if (t->nta->until && t->nta->until - t->now < (int64_t)a->ttl)
			a->ttl = (uint32_t)(t->nta->until - t->now);
	}
	if ((a->status == VAL_INSECURE || a->no_anchor) && !t->nta &&
	    ((rs = policy_require_secure(cfg, t->qname)) ||
	     cfg->insecure_reject)) {
		a->no_anchor = false; /* not shown either: refused */
		snprintf(orig, sizeof(orig), "%s", a->reason);
		a->status = VAL_BOGUS;
		a->ede = WIRE_EDE_DNSSEC_BOGUS;
		if (rs) {
			wire_dname_to_str(rs, txt, sizeof(txt));
			a->tag = "policy-require-secure";
			snprintf(a->reason, sizeof(a->reason),
				 "require-secure %.100s: the answer is insecure%s%.150s",
				 txt, orig[0] ? ": " : "", orig);
		} else {
			a->tag = "policy-insecure-reject";
			snprintf(a->reason, sizeof(a->reason),
				 "insecure reject: the answer is insecure%s%.250s",
				 orig[0] ? ": " : "", orig);
		}
		a->ttl = cfg->bogus_ttl;
	}
	if (a->status == VAL_BOGUS && cfg->mode == CFG_MODE_PERMISSIVE) {
		a->permissive = true;
		wire_dname_to_str(t->qname, txt, sizeof(txt));
		log_warn("permissive: returning the bogus answer for %s: %s",
			 txt, a->reason);
	}
}

/* A key source for answers exempt from validation: every zone is
 * insecure, so that the walk over the response only finds the chain
 * (what a client may see) and checks no signature. */
static const struct val_keyset *exempt_keys(void *arg, const uint8_t *name)
{
	(void)name;
	return arg;
}

/* The chain of an exempt answer, with the verdict policy gives it. */
static int walk_exempt(struct rsv_task *t, const struct wire_msg *m,
		       struct val_result *res)
{
	struct val_verdict verdict = res->verdict, ins;
	struct val_keysource src = {exempt_keys, exempt_keys, NULL, NULL};
	struct val_response resp;
	struct val_keyset ks;
	struct val_ctx ctx = t->tmpl;

	val_verdict_set(&ins, VAL_INSECURE, VAL_EDE_NONE, "policy-exempt",
			"not validated");
	val_keyset_from_verdict(&ks, (const uint8_t *)"", &ins, UINT32_MAX);
	src.arg = &ks;
	source_response(m, t->qname, t->qtype, &resp);
	int r = val_response_validate(&ctx, &resp, &src, res);
	val_keyset_free(&ks);
	res->verdict = verdict;
	return r;
}

/* Answers that policy exempts from validation: under a negative trust
 * anchor (insecure, RFC 7646) or a `domain ... validate no` rule
 * (indeterminate, returned). Returns true when t was finished. */
static bool finish_exempt(struct rsv_task *t)
{
	const struct cfg *cfg = &t->st->cfg;
	const struct cfg_nta *nta =
		policy_nta(cfg, t->st->nta, t->qname, t->now);
	const struct cfg_domain *d = policy_domain(cfg, t->qname, false);
	char txt[DT_NAME_TEXT_MAXLEN], date[16];
	struct val_result res = {0};

	if (d && !d->novalidate)
		d = NULL;
	if (!nta && !d)
		return false;
	if (nta) {
		t->nta = nta;
		wire_dname_to_str(nta->name, txt, sizeof(txt));
		policy_date(nta->until, date, sizeof(date));
		val_verdict_set(&res.verdict, VAL_INSECURE, VAL_EDE_NONE,
				"policy-nta",
				"negative trust anchor %s (until %s): not "
				"validated",
				txt, date);
	} else {
		wire_dname_to_str(d->name, txt, sizeof(txt));
		val_verdict_set(&res.verdict, VAL_INDETERMINATE, VAL_EDE_NONE,
				"policy-validate-no",
				"domain %s validate no: not validated", txt);
	}
	struct rsv_fetched *f = source_fetched_find(t, t->qname, t->qtype);
	if (walk_exempt(t, f->msg, &res) < 0) {
		finish_failed(t, -ENOMEM, "internal-nomem", "out of memory");
		return true;
	}
	finish_result(t, &res);
	return true;
}

/* The deepest zone below the root that holds t's name and is shown or
 * said to be signed: one whose key set validated (source_signed_zone),
 * or a trust anchor's (the administrator's word that it is signed, even
 * when its keys cannot be had or are forged); NULL when there is none. */
static const uint8_t *signed_holder(struct rsv_task *t)
{
	const uint8_t *sz = source_signed_zone(t, t->qname);
	const struct val_anchor_zone *az =
		t->st->ta ? val_anchors_find(t->st->ta, t->qname) : NULL;

	if (az && wire_dname_labels(az->zone) > 0 &&
	    (!sz || wire_dname_labels(az->zone) > wire_dname_labels(sz)))
		return az->zone;
	return sz;
}

/* Whether a private name's unproven answer may be taken as insecure:
 * not when a signed zone (signed_holder) at or below the private domain
 * holds the name (its data must validate), and for the network's search
 * list (its word, not the admin's; rsv_private_domain counts it only
 * once proven unsigned) only when none below the root does. */
static bool private_softens(const uint8_t *dom, enum policy_private_src src,
			    const uint8_t *signed_zone)
{
	if (!signed_zone)
		return true;
	return src != POLICY_PRIVATE_SEARCH &&
	       wire_dname_labels(signed_zone) < wire_dname_labels(dom);
}

/*
 * A verdict that is neither secure nor insecure, for names policy lets
 * through without proof (no negative trust anchor, domain rule or
 * require-secure covers the name):
 *   private-domain: a private name (policy.h) is insecure, the
 *     network's data;
 *   hotspot-unvalidated: during a hotspot sign-on, a name no signed zone
 *     below the root is shown or said (signed_holder) to hold is
 *     returned marked unvalidated.
 * Returns true when t was finished so.
 */
static bool finish_unproven(struct rsv_task *t, const struct wire_msg *m,
			    struct val_result *res)
{
	const struct cfg *cfg = &t->st->cfg;
	struct resolver *r = t->r;
	enum val_status st = res->verdict.status;
	enum policy_private_src src;
	char txt[DT_NAME_TEXT_MAXLEN], orig[VAL_REASON_MAXLEN];

	if ((st != VAL_BOGUS && st != VAL_INDETERMINATE) || t->synth ||
	    t->nta || policy_domain(cfg, t->qname, false) ||
	    policy_require_secure(cfg, t->qname))
		return false;
	const struct up_conf *uc = r->env.network ? r->env.network(r->env.arg)
						  : NULL;
	const uint8_t *dom = rsv_private_domain(r->cache, t->st, uc, t->qname,
						t->mono, &src);
	const uint8_t *sz = signed_holder(t);
	uint32_t hotspot = r->env.hotspot ? r->env.hotspot(r->env.arg) : 0;

	snprintf(orig, sizeof(orig), "%s", res->verdict.reason);
	if (dom && private_softens(dom, src, sz)) {
		wire_dname_to_str(dom, txt, sizeof(txt));
		val_verdict_set(&res->verdict, VAL_INSECURE, VAL_EDE_NONE,
				"private-domain",
				"private-domain %.255s (%s): the network's "
				"answer, not proven: %.200s",
				txt,
				src == POLICY_PRIVATE_SEARCH ? "resolv.conf search"
				: src == POLICY_PRIVATE_CONFIG ? "dnstrust.conf"
							       : "built-in",
				orig);
	} else if (hotspot && !sz) {
		val_verdict_set(&res->verdict, VAL_INDETERMINATE, VAL_EDE_NONE,
				"hotspot-unvalidated",
				"hotspot sign-on (%u s left): the network's "
				"answer, not validated: %.200s",
				(unsigned)hotspot, orig);
		t->unvalidated = true;
	} else {
		return false;
	}
	if (walk_exempt(t, m, res) < 0) {
		finish_failed(t, -ENOMEM, "internal-nomem", "out of memory");
		return true;
	}
	finish_result(t, res);
	return true;
}

/* Whether rr of section sec is one the validator used. */
static bool is_used(const struct wire_msg *m, const struct val_result *res,
		    int sec, const struct wire_rr *rr)
{
	for (size_t i = 0; i < res->nused; i++) {
		const struct val_used *u = &res->used[i];
		if (u->section == sec &&
		    val_used_holds(u, &m->sec[sec][u->first], rr))
			return true;
	}
	return false;
}

/* Logs (info) the upstream's records that no client will see. */
/* A bogus answer, at notice: DT_BOGUS_LOG_BURST per worker in a window
 * of DT_BOGUS_LOG_WINDOW_S, the others counted, their number logged at
 * the first one after the window. */
static void log_bogus(struct rsv_task *t, const struct answer *a)
{
	struct resolver *r = t->r;
	char txt[DT_NAME_TEXT_MAXLEN], tb[16];

	if (t->mono - r->bogus_window >= DT_BOGUS_LOG_WINDOW_S) {
		if (r->bogus_held)
			log_notice("%u more bogus answers were not logged "
				   "(at most %d a minute)",
				   r->bogus_held, DT_BOGUS_LOG_BURST);
		r->bogus_window = t->mono;
		r->bogus_logged = 0;
		r->bogus_held = 0;
	}
	if (r->bogus_logged >= DT_BOGUS_LOG_BURST) {
		r->bogus_held++;
		return;
	}
	r->bogus_logged++;
	wire_dname_to_str(t->qname, txt, sizeof(txt));
	log_notice("%s/%s: bogus (%s): %s", txt, wire_type_to_str(t->qtype, tb),
		   a->tag ? a->tag : "", a->reason);
}

static void log_dropped(const struct rsv_task *t, const struct wire_msg *m,
			const struct val_result *res, const char *from)
{
	char txt[DT_NAME_TEXT_MAXLEN], first[DT_NAME_TEXT_MAXLEN + 16];
	char tb[16];
	size_t n = 0;

	if (!log_enabled(LOG_INFO))
		return;
	for (int sec = WIRE_SEC_ANSWER; sec < WIRE_SEC_COUNT; sec++) {
		for (size_t i = 0; i < m->count[sec]; i++) {
			const struct wire_rr *rr = &m->sec[sec][i];
			if (rr->type == WIRE_TYPE_OPT ||
			    is_used(m, res, sec, rr))
				continue;
			if (n++ == 0)
				val_rrset_name(rr->owner, rr->type, first,
					       sizeof(first));
		}
	}
	if (!n)
		return;
	wire_dname_to_str(t->qname, txt, sizeof(txt));
	log_info("%s/%s: %zu record%s from %s not used by the validator, "
		 "dropped (first: %s)",
		 txt, wire_type_to_str(t->qtype, tb), n, n == 1 ? "" : "s",
		 from, first);
}

/* Copies the used list into a (false when out of memory). */
static bool keep_used(struct answer *a, const struct val_result *res)
{
	if (!res->nused)
		return true;
	a->used = malloc(res->nused * sizeof(*a->used));
	if (!a->used)
		return false;
	memcpy(a->used, res->used, res->nused * sizeof(*a->used));
	a->nused = res->nused;
	return true;
}

/* The answer a validation result makes (policy applied), the main
 * response taken into it; NULL without memory. */
static struct answer *result_answer(struct rsv_task *t,
				    const struct val_result *res)
{
	struct answer *a = answer_new();

	if (!a || !keep_used(a, res)) {
		answer_free(a);
		return NULL;
	}
	a->status = res->verdict.status;
	a->ede = res->verdict.ede;
	a->tag = res->verdict.tag;
	memcpy(a->reason, res->verdict.reason, sizeof(a->reason));
	a->rcode = res->rcode;
	a->ttl = res->ttl;
	a->policy_pass = res->verdict.tag &&
			 strcmp(res->verdict.tag, "policy-validate-no") == 0;
	/* Outside every trust anchor nothing can be checked, and nothing
	 * says the data should be signed: RFC 4033 §5's indeterminate,
	 * returned as it came (Unbound and Knot Resolver do the same). With
	 * the root's anchor, the default, no name is outside. */
	a->no_anchor = a->status == VAL_INDETERMINATE && res->verdict.tag &&
		       strcmp(res->verdict.tag, "keys-no-anchor") == 0;
	if ((a->status == VAL_BOGUS || a->status == VAL_INDETERMINATE) &&
	    !a->policy_pass && !a->no_anchor)
		a->ttl = t->st->cfg.bogus_ttl;
	if (a->ttl > t->st->cfg.max_cache_ttl)
		a->ttl = t->st->cfg.max_cache_ttl;
	if (t->fail_err && a->status == VAL_INDETERMINATE && !t->unvalidated)
		a->upstream_fail = true;
	if (t->unvalidated) {
		a->unvalidated = true;
		a->ttl = 0; /* never cached: ends with the sign-on */
	}
	apply_policy(t, a);
	/* An answer's RRsets keep their own TTLs (a CNAME of TTL 0 does
	 * not shorten its target's), unless policy shortened the answer. */
	a->ttl_own = a->ttl == res->ttl && !a->unvalidated;
	a->ttl_max = t->st->cfg.max_cache_ttl;
	return a;
}

static void finish_result(struct rsv_task *t, const struct val_result *res)
{
	struct rsv_fetched *f = source_fetched_find(t, t->qname, t->qtype);
	struct answer *a = result_answer(t, res);

	if (!a) {
		finish_failed(t, -ENOMEM, "internal-nomem", "out of memory");
		return;
	}
	if (a->status == VAL_INDETERMINATE && a->upstream_fail && t->bogus) {
		/* The keys could not be had this time: the verdict of the
		 * attempt that had them stands. */
		answer_free(a);
		a = t->bogus;
		t->bogus = NULL;
		log_bogus(t, a);
		task_finish(t, a);
		return;
	}
	log_dropped(t, f->msg, res, f->from);
	a->msg = take_main(t);
	if (t->synth)
		RSV_STAT_INC(t->r, synthesized);
	else if (a->status == VAL_SECURE && a->rcode != WIRE_RCODE_SERVFAIL)
		nsec_learn(t->r, a, t->mono);
	if (!t->synth)
		source_alias_learn(t, a);
	if (a->status == VAL_BOGUS)
		log_bogus(t, a);
	else if (log_enabled(LOG_INFO) && a->status != VAL_SECURE &&
		 a->status != VAL_INSECURE) {
		char txt[DT_NAME_TEXT_MAXLEN], tb[16];
		wire_dname_to_str(t->qname, txt, sizeof(txt));
		log_info("%s/%s: %s (%s): %s", txt,
			 wire_type_to_str(t->qtype, tb),
			 val_status_name(a->status), a->tag ? a->tag : "",
			 a->reason);
	}
	task_finish(t, a);
}

/* Takes the main response out of the fetched list (the answer keeps it). */
static struct wire_msg *take_main(struct rsv_task *t)
{
	struct rsv_fetched *f = source_fetched_find(t, t->qname, t->qtype);
	struct wire_msg *m = f->msg;

	f->msg = NULL;
	f->err = DT_EUPSTREAM;
	return m;
}

/* Whether the network is to be asked even when kept NSEC records would
 * answer: for private names (the root's NSEC records prove lan. absent,
 * the router knows router.lan.) and during a hotspot sign-on (the portal
 * answers names the public DNS does not have). */
static bool ask_network(struct rsv_task *t)
{
	struct resolver *r = t->r;
	const struct up_conf *uc = r->env.network ? r->env.network(r->env.arg)
						  : NULL;

	return (r->env.hotspot && r->env.hotspot(r->env.arg)) ||
	       rsv_private_domain(r->cache, t->st, uc, t->qname,
				  t->mono, NULL);
}

/*
 * A search suffix makes names private only once the public tree proves
 * it unsigned or absent (rsv_private_domain). For a client question
 * under one (and under no private-domain line or built-in name as deep),
 * the walk first goes down to the suffix, so that the cache holds that
 * proof or its absence before the question is sent (routed by it) and
 * its answer judged. Returns true when a fetch is wanted for that
 * (t->want set). Nested questions (name-server addresses) do not wait:
 * they are private only by a proof already had.
 */
static bool search_pending(struct rsv_task *t)
{
	struct resolver *r = t->r;
	const struct up_conf *uc = r->env.network ? r->env.network(r->env.arg)
						  : NULL;
	uint8_t suffix[DT_NAME_MAXLEN];
	struct walk_source wsrc;
	struct val_keysource src;
	struct walk walk;

	if (t->search_walked || t->nest)
		return false;
	const uint8_t *s = policy_search_domain(uc, t->qname);
	const uint8_t *admin = policy_private_domain(&t->st->cfg, NULL,
						     t->qname, NULL);
	if (!s || (admin && wire_dname_labels(admin) >= wire_dname_labels(s)))
		return false;
	wire_dname_copy(suffix, s);
	wire_dname_tolower(suffix);
	if (rsv_search_proven(r->cache, t->st, suffix, t->mono))
		return false;
	source_init(t, &wsrc);
	walk_init(&walk, &wsrc, t->st->ta, &t->tmpl);
	walk_keysource(&walk, &src);
	(void)src.name_keys(src.arg, suffix);
	if (t->want && walk.fail_err != -ENOMEM)
		return true;
	t->want = false;
	t->search_walked = true;
	return false;
}

/* A negative answer put together from kept NSEC records (nsec.c), as
 * the question's response, to be validated; NULL when there is none. */
static const struct wire_msg *try_synthesize(struct rsv_task *t)
{
	struct wire_msg *m;

	t->synth_tried = true;
	if (ask_network(t))
		return NULL;
	const char *from = "aggressive-nsec";
	if (!(m = nsec_synthesize(t))) {
		m = source_alias_synthesize(t);
		from = "cache";
	}
	if (!m || source_fetched_add(t, t->qname, t->qtype, m, 0, from) < 0)
		return NULL;
	t->f[t->nf - 1].kept = true;
	t->synth = true;
	t->want = false;
	return m;
}

static void drop_synthesized(struct rsv_task *t)
{
	struct rsv_fetched *f = source_fetched_find(t, t->qname, t->qtype);

	if (f) {
		wire_msg_free(f->msg);
		*f = t->f[--t->nf];
	}
	t->synth = false;
	t->want = true;
	wire_dname_copy(t->want_name, t->qname);
	t->want_type = t->qtype;
}

/* Whether f was sent by a server (not read from the cache nor put
 * together from kept records). By its source, not by f->kept: a
 * response a server sent is kept as a 'Q' entry once validated, bogus
 * ones too (for bogus-ttl), and its sender is still to blame. */
static bool from_server(const struct rsv_fetched *f)
{
	return strcmp(f->from, "cache") != 0 &&
	       strcmp(f->from, "aggressive-nsec") != 0;
}

/* Tells the caller which servers sent t's responses (env.distrust),
 * each once. */
static void distrust_senders(struct rsv_task *t)
{
	struct resolver *r = t->r;

	for (size_t i = 0; i < t->nf; i++) {
		const struct rsv_fetched *f = &t->f[i];
		if (!from_server(f))
			continue;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(t->f[k].from, f->from) == 0;
		if (!seen && r->env.distrust)
			r->env.distrust(r->env.arg, f->from);
	}
}

/* Whether retry() may ask t again: bounds, and a server to blame. */
static bool may_retry(const struct rsv_task *t, bool budget)
{
	if (t->attempt >= DT_RSV_RETRY_MAX || budget || t->synth || t->nta ||
	    t->unvalidated)
		return false;
	for (size_t i = 0; i < t->nf; i++)
		if (from_server(&t->f[i]))
			return true;
	return false;
}

/*
 * Asks the question again from the start instead of failing (issue:
 * "ask again before failing"): what came back was bogus, malformed or an
 * unusable RCODE, so a forger on the path, a broken server or a lost
 * packet may be to blame. The task's responses are dropped, the servers
 * that sent them reported (env.distrust), and the next resolution takes
 * from the caches only what is secure (source.c). Bounded by
 * DT_RSV_RETRY_MAX; never for answers put together from kept records,
 * negative trust anchors or spent budgets. Returns true when the retry
 * is under way (t->want set to the question).
 */
static bool retry(struct rsv_task *t, bool budget)
{
	if (!may_retry(t, budget))
		return false;
	distrust_senders(t);
	fetch_leave(t); /* what is still on its way is of the old attempt */
	for (size_t i = 0; i < t->nf; i++)
		wire_msg_free(t->f[i].msg);
	t->nf = 0;
	t->bytes = 0;
	source_release(t);
	t->attempt++;
	t->chased = 0;
	t->fail_err = 0;
	t->want = true;
	wire_dname_copy(t->want_name, t->qname);
	t->want_type = t->qtype;
	RSV_STAT_INC(t->r, retried);
	if (log_enabled(LOG_DEBUG)) {
		char txt[DT_NAME_TEXT_MAXLEN], tb[16];
		wire_dname_to_str(t->qname, txt, sizeof(txt));
		log_debug("%s/%s: asked again (attempt %u)", txt,
			  wire_type_to_str(t->qtype, tb), t->attempt);
	}
	return true;
}

/* Keeps the answer of a bogus result before its question is asked again
 * (t->bogus, replacing an older one). False without memory, or when no
 * retry may follow (then the result is finished as it is). */
static bool keep_bogus(struct rsv_task *t, const struct val_result *res)
{
	if (!may_retry(t, res->verdict.budget))
		return false;
	struct answer *a = result_answer(t, res);
	if (!a)
		return false;
	a->msg = take_main(t);
	answer_free(t->bogus);
	t->bogus = a;
	return true;
}

/*
 * The question's response stops at a CNAME target without its data or
 * a negative answer for it (chase.c): the target is asked
 * and its response joined to the question's, which is then validated as
 * one (each RRset with its own zone's keys). Returns true when a fetch
 * is wanted; *m becomes the joined response once the target's is in.
 * A target that cannot be had leaves the response as it came.
 */
static bool chase(struct rsv_task *t, const struct wire_msg **m)
{
	struct resolver *r = t->r;
	uint8_t target[DT_NAME_MAXLEN];
	const struct wire_msg *next;
	struct wire_msg *joined;
	int err, len;

	while (t->chased < DT_RSV_CHASE_MAX &&
	       chase_target(*m, t->qname, t->qtype, target)) {
		next = source_task_fetched(t, target, t->qtype, &err);
		if (!next && !err)
			return true;
		if (!next)
			return false;
		t->chased++;
		len = chase_join(*m, next, t->qname, t->qtype, r->nsec_buf,
				 sizeof(r->nsec_buf));
		if (len < 0 ||
		    !(joined = wire_msg_parse(r->nsec_buf, (size_t)len, 0,
					      &err)))
			return false;
		struct rsv_fetched *f =
			source_fetched_find(t, t->qname, t->qtype);
		if (source_fetched_replace(t, f, joined) < 0)
			return false;
		*m = joined;
	}
	return false;
}

/* One validation run; fetches what is missing or finishes. */
static void task_run(struct rsv_task *t, const struct rsv_clock *now)
{
	struct walk_source wsrc;
	struct val_keysource src;
	struct val_response resp;
	struct val_result res;
	struct val_ctx ctx;
	struct walk walk;
	int err;

	if (t->fail_err == -ENOMEM) {
		finish_failed(t, -ENOMEM, "internal-nomem", "out of memory");
		return;
	}
	t->want = false;
	t->now = now->wall;
	t->mono = now->mono_ms / 1000;
	val_ctx_init(&t->tmpl, t->now, &t->st->lim);
	t->tmpl.work = &t->work;
	t->tmpl.sigcache = t->r->sigcache;
	t->tmpl.test_fake_sig = t->st->test_fake_sig;
	t->tmpl.test_sig_time_any = t->st->test_sig_time_any;
	if (search_pending(t)) {
		fetch_wanted(t, NULL);
		return;
	}
	const struct wire_msg *m =
		source_task_fetched(t, t->qname, t->qtype, &err);
	if (!m && !err && !t->synth_tried)
		m = try_synthesize(t);
	if (!m && err) {
		/* Malformed, or no server to be had (refused, unreachable;
		 * authorities that answer nothing usable): asked again over
		 * TCP, but not a last time from the root (DT_RSV_RETRY_MAX):
		 * a network that answers nothing is not a network that lies,
		 * and auto mode does not recurse for it (capab.h:
		 * unreachable is never "no"). */
		if ((err == DT_EUPSTREAM || err == DT_ENOAUTH ||
		     err == DT_EBADANSWER) &&
		    t->attempt + 1 < DT_RSV_RETRY_MAX && retry(t, false)) {
			fetch_wanted(t, NULL);
			return;
		}
		finish_fetch_failed(t, err);
		return;
	}
	/* YXDOMAIN too: the validator proves it from the DNAME that
	 * overflows (RFC 6672 §2.2), or finds it proves nothing. */
	if (m && m->rcode != WIRE_RCODE_NOERROR &&
	    m->rcode != WIRE_RCODE_NXDOMAIN &&
	    m->rcode != WIRE_RCODE_YXDOMAIN) {
		if (retry(t, false)) {
			fetch_wanted(t, NULL);
			return;
		}
		finish_failed(t, DT_EUPSTREAM, "upstream-rcode",
			      "upstream RCODE not usable");
		return;
	}
	if (m && m->rcode == WIRE_RCODE_NOERROR && chase(t, &m)) {
		fetch_wanted(t, NULL);
		return;
	}
	if (m && finish_exempt(t))
		return;
	if (m) {
		ctx = t->tmpl;
		source_init(t, &wsrc);
		walk_init(&walk, &wsrc, t->st->ta, &t->tmpl);
		walk_keysource(&walk, &src);
		source_response(m, t->qname, t->qtype, &resp);
		if (val_response_validate(&ctx, &resp, &src, &res) < 0 ||
		    walk.fail_err == -ENOMEM) {
			finish_failed(t, -ENOMEM, "internal-nomem",
				      "out of memory");
			return;
		}
		if (walk.fail_err == DT_ELIMIT &&
		    res.verdict.status == VAL_INDETERMINATE) {
			/* A key response was dropped at the byte cap. */
			finish_fetch_failed(t, DT_ELIMIT);
			return;
		}
		if (walk.fail_err && !t->fail_err)
			t->fail_err = walk.fail_err;
		if (res.kind != VAL_KIND_NEED_KEYS &&
		    (!t->synth || res.verdict.status == VAL_SECURE)) {
			if (res.verdict.status == VAL_BOGUS &&
			    !res.verdict.budget && keep_bogus(t, &res) &&
			    retry(t, false)) {
				fetch_wanted(t, NULL);
				return;
			}
			if (finish_unproven(t, m, &res))
				return;
			finish_result(t, &res);
			return;
		}
		if (res.kind != VAL_KIND_NEED_KEYS) {
			/* Put together from kept records, and not secure
			 * now: asked of the upstream instead (m is freed
			 * with it). */
			drop_synthesized(t);
			m = NULL;
		}
		if (!t->want) {
			finish_failed(t, -EINVAL, "internal-keys",
				      "the chain of trust stopped without a "
				      "question to ask");
			return;
		}
	}
	fetch_wanted(t, m);
}

/* Fetches what t wants; m (may be NULL): the question's response, whose
 * chain of trust is fetched at once. */
static void fetch_wanted(struct rsv_task *t, const struct wire_msg *m)
{
	int err;

	if (t->nf >= t->r->fetches_max) {
		finish_failed(t, DT_ELIMIT, "limit-fetches",
			      "too many upstream queries");
		return;
	}
	if ((err = fetch_start(t, t->want_name, t->want_type)) < 0) {
		finish_failed(t, err,
			      err == -ENOMEM ? "internal-nomem"
					     : "upstream-failed",
			      "the upstream query cannot be sent");
		return;
	}
	if (m)
		speculate(t, m);
	else if (wire_dname_equal(t->want_name, t->qname) &&
		 t->want_type == t->qtype)
		speculate_ahead(t);
}

static struct rsv_task *task_new(struct resolver *r, const struct qinfo *q,
				 const struct rsv_clock *now)
{
	struct rsv_task *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->r = r;
	t->st = dstate_get(r->st);
	wire_dname_copy(t->qname, q->qname);
	wire_dname_tolower(t->qname);
	t->qtype = q->qtype;
	t->qclass = q->qclass;
	t->started_ms = now->mono_ms;
	t->mono = now->mono_ms / 1000;
	val_work_init(&t->work);
	return t;
}

int rsv_submit(struct resolver *r, struct rsv_waiter *wt,
	       const struct rsv_clock *now)
{
	uint8_t lname[DT_NAME_MAXLEN];
	struct rsv_task **slot;

	wire_dname_copy(lname, wt->q.qname);
	wire_dname_tolower(lname);
	slot = task_slot(r, lname, wt->q.qtype, wt->q.qclass, wt->nest);
	if (*slot) {
		if ((*slot)->nwaiters >= DT_DMN_WAITERS_PER_TASK) {
			RSV_STAT_INC(r, overload);
			return DT_ELIMIT;
		}
		RSV_STAT_INC(r, joined);
		wt->task = *slot;
		wt->next = (*slot)->waiters;
		(*slot)->waiters = wt;
		(*slot)->nwaiters++;
		return 0;
	}
	if (r->ntasks >= DT_DMN_MAX_TASKS || !r->st) {
		RSV_STAT_INC(r, overload);
		return DT_ELIMIT;
	}
	struct rsv_task *t = task_new(r, &wt->q, now);
	if (!t)
		return -ENOMEM;
	t->nest = wt->nest;
	*slot = t;
	r->ntasks++;
	__atomic_store_n(&r->stats.tasks, r->ntasks, __ATOMIC_RELAXED);
	wt->task = t;
	wt->next = NULL;
	t->waiters = wt;
	t->nwaiters = 1;
	task_run(t, now);
	return 0;
}

void rsv_prefetch(struct resolver *r, const struct qinfo *q,
		  const struct rsv_clock *now)
{
	uint8_t lname[DT_NAME_MAXLEN];
	struct rsv_task **slot;

	wire_dname_copy(lname, q->qname);
	wire_dname_tolower(lname);
	slot = task_slot(r, lname, q->qtype, q->qclass, 0);
	/* Never at the expense of clients' questions: only while the
	 * table is at most half full. */
	if (*slot || !r->st || r->ntasks >= DT_DMN_MAX_TASKS / 2)
		return;
	struct rsv_task *t = task_new(r, q, now);
	if (!t)
		return;
	*slot = t;
	r->ntasks++;
	__atomic_store_n(&r->stats.tasks, r->ntasks, __ATOMIC_RELAXED);
	RSV_STAT_INC(r, prefetch);
	task_run(t, now);
}

void rsv_detach(struct rsv_waiter *wt)
{
	struct rsv_task *t = wt->task;

	if (!t)
		return;
	for (struct rsv_waiter **p = &t->waiters; *p; p = &(*p)->next) {
		if (*p == wt) {
			*p = wt->next;
			t->nwaiters--;
			break;
		}
	}
	wt->task = NULL;
	/* The task runs on without waiters: its answer fills the cache. */
}

void rsv_free(struct resolver *r)
{
	if (!r)
		return;
	for (size_t b = 0; b < TABLE_SIZE; b++) {
		while (r->fetches[b]) {
			struct rsv_fetch *f = r->fetches[b];
			r->fetches[b] = f->hnext;
			if (r->env.fetch_cancel)
				r->env.fetch_cancel(r->env.arg, f->handle);
			for (size_t i = 0; i < f->ntasks; i++)
				f->tasks[i]->nfetching--;
			fetch_free(f);
		}
	}
	r->nfetches = 0;
	for (size_t b = 0; b < TABLE_SIZE; b++)
		while (r->tasks[b])
			task_abandon(r->tasks[b], "shutdown",
				     "dnstrustd is stopping");
	free(r->tasks);
	free(r->fetches);
	val_sigcache_free(r->sigcache);
	dstate_put(r->st);
	free(r);
}
