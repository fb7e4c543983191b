/* SPDX-License-Identifier: MIT */
/*
 * Questions under way: one task per distinct (name, type, class) per
 * worker, however many clients asked it; upstream queries shared per
 * (name, type) between the tasks of a worker; validation re-run after
 * every fetch until the verdict is in (see task.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cache/siphash.h"
#include "common/errcode.h"
#include "daemon/admin_ops.h"
#include "daemon/log.h"
#include "daemon/policy.h"
#include "daemon/task.h"
#include "upstream/transport.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define TABLE_SIZE 1024 /* buckets of the task and fetch tables */

/* An upstream query in flight, shared by the tasks that want it. */
struct wfetch {
	struct wfetch *hnext;
	struct worker *w;
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	struct up_req *req;
	struct task **tasks;
	size_t ntasks, cap;
};

static void task_run(struct task *t);
static void finish_result(struct task *t, const struct val_result *res);
static struct wire_msg *take_main(struct task *t);
static struct fetched *fetched_find(struct task *t, const uint8_t *name,
				    uint16_t type);

/* The task and fetch tables' SipHash key: random per worker, so that
 * nobody can choose names that all land in one bucket. */
static __thread uint64_t hash_k0, hash_k1;

static unsigned name_hash(const uint8_t *name, uint16_t type)
{
	uint8_t key[2 + DT_NAME_MAXLEN];
	size_t len = wire_dname_len(name);

	key[0] = (uint8_t)(type >> 8);
	key[1] = (uint8_t)type;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = name[i];
		key[2 + i] = c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
	}
	return (unsigned)(cache_siphash13(hash_k0, hash_k1, key, 2 + len) %
			  TABLE_SIZE);
}

static bool tables_ready(struct worker *w)
{
	if (!w->tasks) {
		uint64_t seed[2];
		if (getrandom(seed, sizeof(seed), 0) != sizeof(seed))
			return false;
		hash_k0 = seed[0];
		hash_k1 = seed[1];
	}
	if (!w->tasks)
		w->tasks = calloc(TABLE_SIZE, sizeof(*w->tasks));
	if (!w->fetches)
		w->fetches = calloc(TABLE_SIZE, sizeof(*w->fetches));
	return w->tasks && w->fetches;
}

/* --- cached upstream responses ('Q' entries) --- */

/*
 * A raw DS or DNSKEY response, kept for the key source of later
 * questions only once a key set or a DS verdict was built from it, for no
 * longer than what was validated (a failed one at most bogus-ttl), and
 * with that status, so that a change of upstreams can drop what did not
 * validate as secure.
 */
struct rawmsg {
	enum val_status status;
	size_t len;
	uint8_t data[];
};

/* The smallest TTL of a response's answer and authority records; for a
 * negative answer, RFC 2308 §5's SOA minimum too. */
static uint32_t response_ttl(const struct wire_msg *m)
{
	uint32_t ttl = UINT32_MAX;

	for (int s = WIRE_SEC_ANSWER; s <= WIRE_SEC_AUTHORITY; s++) {
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			uint32_t v = rr->ttl;
			if (rr->type == WIRE_TYPE_SOA && rr->rdlen >= 20) {
				const uint8_t *p = rr->rdata + rr->rdlen - 4;
				uint32_t min = (uint32_t)p[0] << 24 |
					       (uint32_t)p[1] << 16 |
					       (uint32_t)p[2] << 8 | p[3];
				v = min < v ? min : v;
			}
			ttl = v < ttl ? v : ttl;
		}
	}
	return ttl == UINT32_MAX ? 0 : ttl;
}

static uint32_t keep_ttl(const struct task *t, const struct wire_msg *m,
			 const struct val_verdict *v, uint32_t ttl)
{
	const struct cfg *cfg = &t->st->cfg;
	uint32_t rttl = response_ttl(m);

	if (v->status == VAL_BOGUS || v->status == VAL_INDETERMINATE)
		ttl = ttl < cfg->bogus_ttl ? ttl : cfg->bogus_ttl;
	ttl = ttl < rttl ? ttl : rttl;
	return ttl < cfg->max_cache_ttl ? ttl : cfg->max_cache_ttl;
}

void task_keep_response(struct task *t, const uint8_t *name, uint16_t type,
			const struct val_verdict *v, uint32_t ttl)
{
	struct fetched *f = fetched_find(t, name, type);
	uint8_t key[DT_CACHE_KEY_MAXLEN];

	/* A verdict reached because this question ran out of work says
	 * nothing about the response. */
	if (!f || !f->msg || f->kept || (v->tag && strstr(v->tag, "-limit")))
		return;
	f->kept = true;
	const struct wire_msg *m = f->msg;
	if (m->rcode != WIRE_RCODE_NOERROR && m->rcode != WIRE_RCODE_NXDOMAIN)
		return;
	if (!(ttl = keep_ttl(t, m, v, ttl)))
		return;
	struct rawmsg *r = malloc(sizeof(*r) + m->rawlen);
	if (!r)
		return;
	r->status = v->status;
	r->len = m->rawlen;
	memcpy(r->data, m->raw, m->rawlen);
	size_t klen = cache_key('Q', name, type, WIRE_CLASS_IN, key);
	cache_put(t->w->d->cache, key, klen, r, sizeof(*r) + r->len,
		  worker_now(t->w) + ttl, free);
}

/* After a change of upstreams: whether a cache entry was learnt without
 * a secure validation ('W' entries are renderings of 'V' ones; 'P'
 * probes come from secure DS proofs only). */
static bool unproven(const uint8_t *key, size_t klen, void *val, void *arg)
{
	(void)klen;
	(void)arg;
	switch (key[0]) {
	case 'V': return ((const struct answer *)val)->status != VAL_SECURE;
	case 'W': return true;
	case 'K':
		return ((const struct val_keyset *)val)->verdict.status !=
		       VAL_SECURE;
	case 'Q': return ((const struct rawmsg *)val)->status != VAL_SECURE;
	default: return false;
	}
}

size_t task_drop_unproven(struct cache *c)
{
	return cache_remove_if_val(c, unproven, NULL);
}

static struct wire_msg *response_cached(struct worker *w, const uint8_t *name,
					uint16_t type)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = cache_key('Q', name, type, WIRE_CLASS_IN, key);
	struct cache_ref ref;
	int err;

	if (!cache_get(w->d->cache, key, klen, worker_now(w), &ref))
		return NULL;
	const struct rawmsg *r = ref.val;
	struct wire_msg *m = wire_msg_parse(r->data, r->len, 0, &err);
	cache_unref(w->d->cache, &ref);
	return m;
}

/* --- fetched responses of a task --- */

static struct fetched *fetched_find(struct task *t, const uint8_t *name,
				    uint16_t type)
{
	for (size_t i = 0; i < t->nf; i++)
		if (t->f[i].type == type && wire_dname_equal(t->f[i].name, name))
			return &t->f[i];
	return NULL;
}

/* What a parsed message holds in memory: its records with their names and
 * RDATA decompressed, and the raw copy. */
static size_t msg_bytes(const struct wire_msg *m)
{
	size_t n = sizeof(*m) + m->rawlen;

	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		for (size_t i = 0; i < m->count[s]; i++)
			n += sizeof(struct wire_rr) +
			     wire_dname_len(m->sec[s][i].owner) +
			     m->sec[s][i].rdlen;
	return n;
}

/* Records a fetched response (or its failure err). Past
 * DT_DMN_BYTES_PER_TASK the response is dropped and recorded as failed
 * with DT_ELIMIT, which is returned. */
static int fetched_add(struct task *t, const uint8_t *name, uint16_t type,
		       struct wire_msg *msg, int err, const char *from)
{
	int r = 0;

	if (msg) {
		size_t bytes = msg_bytes(msg);
		if (t->bytes + bytes > DT_DMN_BYTES_PER_TASK) {
			wire_msg_free(msg);
			msg = NULL;
			err = r = DT_ELIMIT;
		} else {
			t->bytes += bytes;
		}
	}
	if (t->nf == t->capf) {
		size_t cap = t->capf ? 2 * t->capf : 4;
		struct fetched *n = realloc(t->f, cap * sizeof(*n));
		if (!n) {
			wire_msg_free(msg);
			return -ENOMEM;
		}
		t->f = n;
		t->capf = cap;
	}
	struct fetched *f = &t->f[t->nf++];
	wire_dname_copy(f->name, name);
	f->type = type;
	f->msg = msg;
	f->err = err;
	f->kept = false;
	snprintf(f->from, sizeof(f->from), "%s", from);
	return r;
}

const struct wire_msg *task_fetched(struct task *t, const uint8_t *name,
				    uint16_t type, int *err)
{
	const struct fetched *f = fetched_find(t, name, type);

	*err = 0;
	if (f) {
		*err = f->err;
		return f->msg;
	}
	struct wire_msg *m = response_cached(t->w, name, type);
	int r = m ? fetched_add(t, name, type, m, 0, "cache") : -ENOENT;
	if (r == 0) {
		t->f[t->nf - 1].kept = true;
		return m;
	}
	if (r == DT_ELIMIT) {
		*err = r;
		return NULL;
	}
	if (!t->want) {
		t->want = true;
		wire_dname_copy(t->want_name, name);
		t->want_type = type;
	}
	return NULL;
}

/* --- upstream fetches shared within a worker --- */

static struct wfetch **fetch_slot(struct worker *w, const uint8_t *name,
				  uint16_t type)
{
	struct wfetch **p = &w->fetches[name_hash(name, type)];

	while (*p && !((*p)->type == type && wire_dname_equal((*p)->name, name)))
		p = &(*p)->hnext;
	return p;
}

static void fetch_free(struct wfetch *f)
{
	free(f->tasks);
	free(f);
}

/* Checks that a response answers what was asked as a DNSSEC-aware server
 * would: parsed, with EDNS (else no RRSIG can be there). */
static struct wire_msg *fetch_parse(const struct up_answer *ans, int *err)
{
	struct wire_msg *m = wire_msg_parse(ans->msg, ans->len, 0, err);

	if (!m)
		log_info("upstream answer unparsable: %s", dt_strerror(*err));
	return m;
}

static void fetch_done(void *arg, int err, const struct up_answer *ans,
		       int last_rcode)
{
	struct wfetch *f = arg;
	struct worker *w = f->w;
	struct wire_msg *m = NULL;
	char from[DT_FETCH_FROM_LEN] = "upstream";

	(void)last_rcode;
	if (!err && ans && ans->server)
		up_server_str(ans->server, from, sizeof(from));
	*fetch_slot(w, f->name, f->type) = f->hnext;
	w->nfetches--;
	if (!err) {
		m = fetch_parse(ans, &err);
		if (!m)
			err = DT_EUPSTREAM;
	}
	for (size_t i = 0; i < f->ntasks; i++) {
		struct task *t = f->tasks[i];
		struct wire_msg *copy = NULL;
		int e = err;
		if (m && !(copy = wire_msg_parse(m->raw, m->rawlen, 0, &e)))
			e = -ENOMEM;
		t->fetching = false;
		int r = fetched_add(t, f->name, f->type, copy, e, from);
		if (r < 0 && r != DT_ELIMIT)
			t->fail_err = -ENOMEM;
		task_run(t);
	}
	wire_msg_free(m);
	fetch_free(f);
}

/* Makes t wait for (name, type), joining a fetch in flight if any.
 * Returns 0 or -ENOMEM. */
static int fetch_start(struct task *t, const uint8_t *name, uint16_t type)
{
	struct worker *w = t->w;
	struct wfetch **slot = fetch_slot(w, name, type);
	struct wfetch *f = *slot;

	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return -ENOMEM;
		f->w = w;
		wire_dname_copy(f->name, name);
		f->type = type;
		/* Split DNS: a domain rule's servers, else resolv.conf's. */
		const struct cfg_domain *d =
			policy_domain(&t->st->cfg, name, true);
		f->req = up_query(w->up, name, type, WIRE_CLASS_IN,
				  d ? &t->st->split[d - t->st->cfg.domain]
				    : NULL,
				  fetch_done, f);
		if (!f->req) {
			free(f);
			return -ENOMEM;
		}
		*slot = f;
		w->nfetches++;
		STAT_INC(w, upstream);
		if (log_enabled(LOG_DEBUG)) {
			char txt[DT_NAME_TEXT_MAXLEN], tb[16];
			wire_dname_to_str(name, txt, sizeof(txt));
			log_debug("upstream query %s/%s", txt,
				  wire_type_to_str(type, tb));
		}
	}
	if (f->ntasks == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 4;
		struct task **n = realloc(f->tasks, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		f->tasks = n;
		f->cap = cap;
	}
	f->tasks[f->ntasks++] = t;
	t->fetching = true;
	return 0;
}

/* Removes t from the fetch it waits on (task ending early). */
static void fetch_leave(struct task *t)
{
	for (size_t b = 0; b < TABLE_SIZE && t->fetching; b++) {
		for (struct wfetch *f = t->w->fetches[b]; f; f = f->hnext) {
			for (size_t i = 0; i < f->ntasks; i++) {
				if (f->tasks[i] != t)
					continue;
				f->tasks[i] = f->tasks[--f->ntasks];
				t->fetching = false;
				break;
			}
		}
	}
}

/* --- tasks --- */

static struct task **task_slot(struct worker *w, const uint8_t *qname,
			       uint16_t qtype, uint16_t qclass)
{
	struct task **p = &w->tasks[name_hash(qname, qtype)];

	while (*p && !((*p)->qtype == qtype && (*p)->qclass == qclass &&
		       wire_dname_equal((*p)->qname, qname)))
		p = &(*p)->hnext;
	return p;
}

static void task_free(struct task *t)
{
	keys_release(t);
	for (size_t i = 0; i < t->nf; i++)
		wire_msg_free(t->f[i].msg);
	free(t->f);
	free(t->refs);
	free(t->local);
	dstate_put(t->st);
	free(t);
}

/* Answers every waiter from a and ends the task (a goes to the cache). */
static void task_finish(struct task *t, struct answer *a)
{
	struct worker *w = t->w;
	static __thread uint8_t buf[DT_MSG_MAXLEN];

	*task_slot(w, t->qname, t->qtype, t->qclass) = t->hnext;
	w->ntasks--;
	fetch_leave(t);
	a->stored = worker_now(w);
	switch (a->status) {
	case VAL_SECURE: STAT_INC(w, secure); break;
	case VAL_INSECURE: STAT_INC(w, insecure); break;
	case VAL_BOGUS: STAT_INC(w, bogus); break;
	default:
		if (a->upstream_fail)
			STAT_INC(w, servfail_upstream);
		else
			STAT_INC(w, indeterminate);
	}
	admin_ops_finished(w, t->qname, t->qtype, a,
			   loop_now_ms(w->loop) - t->started_ms);
	while (t->waiters) {
		struct waiter *wt = t->waiters;
		t->waiters = wt->next;
		wt->task = NULL;
		size_t len = reply_render(a, &wt->q, 0, false, buf, sizeof(buf));
		waiter_reply(wt, buf, len);
	}
	answer_store(w, t->qname, t->qtype, t->qclass, a);
	task_free(t);
}

static struct answer *answer_new(void)
{
	struct answer *a = calloc(1, sizeof(*a));

	if (a)
		a->ede = VAL_EDE_NONE;
	return a;
}

/* Ends a task without an answer to cache (out of memory): its clients
 * get SERVFAIL. */
static void task_abandon(struct task *t)
{
	static __thread uint8_t buf[DT_MSG_MAXLEN];

	while (t->waiters) {
		struct waiter *wt = t->waiters;
		t->waiters = wt->next;
		wt->task = NULL;
		waiter_reply(wt, buf,
			     reply_error(&wt->q, WIRE_RCODE_SERVFAIL,
					 WIRE_EDE_OTHER, "out of memory", buf,
					 sizeof(buf)));
	}
	*task_slot(t->w, t->qname, t->qtype, t->qclass) = t->hnext;
	t->w->ntasks--;
	fetch_leave(t);
	task_free(t);
}

/* No usable upstream answer: SERVFAIL with EDE 22 or 23. */
static void finish_failed(struct task *t, int err, const char *what)
{
	struct answer *a = answer_new();
	char txt[DT_NAME_TEXT_MAXLEN];

	if (!a) {
		task_abandon(t);
		return;
	}
	wire_dname_to_str(t->qname, txt, sizeof(txt));
	a->status = VAL_INDETERMINATE;
	a->upstream_fail = true;
	a->rcode = WIRE_RCODE_SERVFAIL;
	a->ede = err == DT_ETIMEOUT || err == DT_ENOSERVER
			 ? WIRE_EDE_NO_REACHABLE_AUTHORITY
			 : WIRE_EDE_NETWORK_ERROR;
	a->tag = "upstream-failed";
	a->ttl = DT_DMN_FAIL_TTL;
	snprintf(a->reason, sizeof(a->reason), "%s for %.255s: %s", what, txt,
		 dt_strerror(err));
	task_finish(t, a);
}

/* After validation: a negative trust anchor marks the answer and bounds
 * its life; require-secure and `insecure reject` fail insecure answers;
 * mode permissive lets bogus ones through, marked. */
static void apply_policy(struct task *t, struct answer *a)
{
	const struct cfg *cfg = &t->st->cfg;
	char txt[DT_NAME_TEXT_MAXLEN], orig[VAL_REASON_MAXLEN];
	const uint8_t *rs;

	if (t->nta) {
		a->nta = true;
		if (t->nta->until && t->nta->until - t->now < (int64_t)a->ttl)
			a->ttl = (uint32_t)(t->nta->until - t->now);
	}
	if (a->status == VAL_INSECURE && !t->nta &&
	    ((rs = policy_require_secure(cfg, t->qname)) ||
	     cfg->insecure_reject)) {
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
static int walk_exempt(struct task *t, const struct wire_msg *m,
		       struct val_result *res)
{
	struct val_verdict verdict = res->verdict, ins;
	struct val_keysource src = {exempt_keys, exempt_keys, NULL};
	struct val_response resp;
	struct val_keyset ks;
	struct val_ctx ctx = t->tmpl;

	val_verdict_set(&ins, VAL_INSECURE, VAL_EDE_NONE, "policy-exempt",
			"not validated");
	val_keyset_from_verdict(&ks, (const uint8_t *)"", &ins, UINT32_MAX);
	src.arg = &ks;
	keys_response(m, t->qname, t->qtype, &resp);
	int r = val_response_validate(&ctx, &resp, &src, res);
	val_keyset_free(&ks);
	res->verdict = verdict;
	return r;
}

/* Answers that policy exempts from validation: under a negative trust
 * anchor (insecure, RFC 7646) or a `domain ... validate no` rule
 * (indeterminate, returned). Returns true when t was finished. */
static bool finish_exempt(struct task *t)
{
	const struct cfg *cfg = &t->st->cfg;
	const struct cfg_nta *nta = policy_nta(cfg, t->qname, t->now);
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
	struct fetched *f = fetched_find(t, t->qname, t->qtype);
	if (walk_exempt(t, f->msg, &res) < 0) {
		finish_failed(t, -ENOMEM, "out of memory");
		return true;
	}
	finish_result(t, &res);
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
static void log_dropped(const struct task *t, const struct wire_msg *m,
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

static void finish_result(struct task *t, const struct val_result *res)
{
	struct answer *a = answer_new();
	struct fetched *f = fetched_find(t, t->qname, t->qtype);

	if (!a || !keep_used(a, res)) {
		answer_free(a);
		finish_failed(t, -ENOMEM, "out of memory");
		return;
	}
	a->status = res->verdict.status;
	a->ede = res->verdict.ede;
	a->tag = res->verdict.tag;
	memcpy(a->reason, res->verdict.reason, sizeof(a->reason));
	a->rcode = res->rcode;
	a->ttl = res->ttl;
	a->policy_pass = res->verdict.tag &&
			 strcmp(res->verdict.tag, "policy-validate-no") == 0;
	if ((a->status == VAL_BOGUS || a->status == VAL_INDETERMINATE) &&
	    !a->policy_pass)
		a->ttl = t->st->cfg.bogus_ttl;
	if (a->ttl > t->st->cfg.max_cache_ttl)
		a->ttl = t->st->cfg.max_cache_ttl;
	if (t->fail_err && a->status == VAL_INDETERMINATE)
		a->upstream_fail = true;
	apply_policy(t, a);
	log_dropped(t, f->msg, res, f->from);
	a->msg = take_main(t);
	if (log_enabled(LOG_INFO) && a->status != VAL_SECURE &&
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
static struct wire_msg *take_main(struct task *t)
{
	struct fetched *f = fetched_find(t, t->qname, t->qtype);
	struct wire_msg *m = f->msg;

	f->msg = NULL;
	f->err = DT_EUPSTREAM;
	return m;
}

/* One validation run; fetches what is missing or finishes. */
static void task_run(struct task *t)
{
	struct val_keysource src;
	struct val_response resp;
	struct val_result res;
	struct val_ctx ctx;
	int err;

	if (t->fail_err == -ENOMEM) {
		finish_failed(t, -ENOMEM, "out of memory");
		return;
	}
	t->want = false;
	t->now = worker_wallclock(t->w);
	val_ctx_init(&t->tmpl, t->now, &t->st->lim);
	t->tmpl.work = &t->work;
	const struct wire_msg *m = task_fetched(t, t->qname, t->qtype, &err);
	if (!m && err) {
		finish_failed(t, err, "no usable upstream answer");
		return;
	}
	if (m && m->rcode != WIRE_RCODE_NOERROR &&
	    m->rcode != WIRE_RCODE_NXDOMAIN) {
		finish_failed(t, DT_EUPSTREAM, "upstream RCODE not usable");
		return;
	}
	if (m && finish_exempt(t))
		return;
	if (m) {
		ctx = t->tmpl;
		keys_source(t, &src);
		keys_response(m, t->qname, t->qtype, &resp);
		if (val_response_validate(&ctx, &resp, &src, &res) < 0) {
			finish_failed(t, -ENOMEM, "out of memory");
			return;
		}
		if (res.kind != VAL_KIND_NEED_KEYS) {
			finish_result(t, &res);
			return;
		}
		if (!t->want) {
			finish_failed(t, -ENOMEM, "key source failed");
			return;
		}
	}
	if (t->nf >= DT_DMN_FETCHES_PER_TASK) {
		finish_failed(t, DT_ELIMIT, "too many upstream queries");
		return;
	}
	if (fetch_start(t, t->want_name, t->want_type) < 0)
		finish_failed(t, -ENOMEM, "out of memory");
}

static struct task *task_new(struct worker *w, const struct qinfo *q)
{
	struct task *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->w = w;
	t->st = dstate_get(w->st);
	wire_dname_copy(t->qname, q->qname);
	wire_dname_tolower(t->qname);
	t->qtype = q->qtype;
	t->qclass = q->qclass;
	t->started_ms = loop_now_ms(w->loop);
	val_work_init(&t->work);
	return t;
}

void task_submit(struct worker *w, struct waiter *wt)
{
	static __thread uint8_t buf[DT_MSG_MAXLEN];
	uint8_t lname[DT_NAME_MAXLEN];
	struct task **slot;

	wire_dname_copy(lname, wt->q.qname);
	wire_dname_tolower(lname);
	if (!tables_ready(w))
		goto overload;
	slot = task_slot(w, lname, wt->q.qtype, wt->q.qclass);
	if (*slot) {
		size_t n = 0;
		for (struct waiter *o = (*slot)->waiters;
		     o && n < DT_DMN_WAITERS_PER_TASK; o = o->next)
			n++;
		if (n >= DT_DMN_WAITERS_PER_TASK)
			goto overload;
		STAT_INC(w, joined);
		wt->task = *slot;
		wt->next = (*slot)->waiters;
		(*slot)->waiters = wt;
		return;
	}
	if (w->ntasks >= DT_DMN_MAX_TASKS)
		goto overload;
	struct task *t = task_new(w, &wt->q);
	if (!t)
		goto overload;
	*slot = t;
	w->ntasks++;
	wt->task = t;
	t->waiters = wt;
	task_run(t);
	return;
overload:
	STAT_INC(w, refused);
	waiter_reply(wt, buf,
		     reply_error(&wt->q, WIRE_RCODE_SERVFAIL, WIRE_EDE_NOT_READY,
				 "too many questions under way", buf,
				 sizeof(buf)));
}

void task_detach(struct waiter *wt)
{
	struct task *t = wt->task;

	if (!t)
		return;
	for (struct waiter **p = &t->waiters; *p; p = &(*p)->next) {
		if (*p == wt) {
			*p = wt->next;
			break;
		}
	}
	wt->task = NULL;
	/* The task runs on without waiters: its answer fills the cache. */
}

void task_shutdown(struct worker *w)
{
	if (!w->tasks)
		return;
	for (size_t b = 0; b < TABLE_SIZE; b++) {
		while (w->fetches[b]) {
			struct wfetch *f = w->fetches[b];
			w->fetches[b] = f->hnext;
			up_cancel(f->req);
			fetch_free(f);
		}
	}
	for (size_t b = 0; b < TABLE_SIZE; b++) {
		while (w->tasks[b]) {
			struct task *t = w->tasks[b];
			w->tasks[b] = t->hnext;
			while (t->waiters) {
				struct waiter *wt = t->waiters;
				t->waiters = wt->next;
				wt->task = NULL;
				waiter_free(wt);
			}
			t->fetching = false;
			task_free(t);
		}
	}
	free(w->tasks);
	free(w->fetches);
	w->tasks = NULL;
	w->fetches = NULL;
	w->ntasks = w->nfetches = 0;
}
