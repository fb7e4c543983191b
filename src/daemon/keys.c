/* SPDX-License-Identifier: MIT */
/*
 * The daemon's key source: key sets from the key cache, or built from
 * the task's fetched DS and DNSKEY responses, walking down from a trust
 * anchor. See task.h for how a missing response becomes a fetch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/key.h"
#include "daemon/log.h"
#include "daemon/policy.h"
#include "daemon/task.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* What a DS query for a name below a secure zone proved. */
enum probe {
	PROBE_NOT_CUT = 1,	/* no delegation there (same zone) */
	PROBE_NXDOMAIN = 2,	/* the name does not exist */
};

static const struct val_keyset *zone_keys(void *arg, const uint8_t *zone);
static const struct val_keyset *name_keys(void *arg, const uint8_t *name);

void keys_source(struct task *t, struct val_keysource *src)
{
	src->zone_keys = zone_keys;
	src->name_keys = name_keys;
	src->arg = t;
}

void keys_release(struct task *t)
{
	struct cache *c = t->w->d->cache;

	for (size_t i = 0; i < t->nrefs; i++)
		cache_unref(c, &t->refs[i]);
	t->nrefs = 0;
	for (size_t i = 0; i < t->nlocal; i++) {
		val_keyset_free(t->local[i]);
		free(t->local[i]);
	}
	t->nlocal = 0;
}

void keys_response(const struct wire_msg *msg, const uint8_t *qname,
		   uint16_t qtype, struct val_response *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->qname = qname;
	ret->qtype = qtype;
	ret->qclass = WIRE_CLASS_IN;
	ret->rcode = msg->rcode;
	ret->answer = msg->sec[WIRE_SEC_ANSWER];
	ret->nanswer = msg->count[WIRE_SEC_ANSWER];
	ret->authority = msg->sec[WIRE_SEC_AUTHORITY];
	ret->nauthority = msg->count[WIRE_SEC_AUTHORITY];
}

static void keyset_destroy(void *p)
{
	val_keyset_free(p);
	free(p);
}

static bool hold_ref(struct task *t, struct cache_ref *ref)
{
	if (t->nrefs == t->caprefs) {
		size_t cap = t->caprefs ? 2 * t->caprefs : 8;
		struct cache_ref *n = realloc(t->refs, cap * sizeof(*n));
		if (!n)
			return false;
		t->refs = n;
		t->caprefs = cap;
	}
	t->refs[t->nrefs++] = *ref;
	return true;
}

/* A key set from the cache or from this task's own, or NULL. */
static const struct val_keyset *lookup(struct task *t, const uint8_t *zone)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = cache_key('K', zone, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN, key);
	struct cache_ref ref;

	for (size_t i = 0; i < t->nlocal; i++)
		if (wire_dname_equal(t->local[i]->zone, zone))
			return t->local[i];
	if (!cache_get(t->w->d->cache, key, klen, worker_now(t->w), &ref))
		return NULL;
	if (!hold_ref(t, &ref)) {
		cache_unref(t->w->d->cache, &ref);
		return NULL;
	}
	return ref.val;
}

static size_t keyset_cost(const struct val_keyset *ks)
{
	/* A parsed public key holds the OpenSSL object and its numbers:
	 * about 1 KiB for RSA-2048, less for elliptic curves. */
	return sizeof(*ks) + ks->nkeys * 1024;
}

/*
 * Keeps a freshly built key set (taking *ks's contents) and returns it.
 * Key sets with a TTL go to the key cache (bogus ones for bogus-ttl);
 * others stay with the task.
 */
static const struct val_keyset *keep(struct task *t, struct val_keyset *ks,
				     bool cacheable)
{
	struct val_keyset *copy = malloc(sizeof(*copy));
	const struct cfg *cfg = &t->st->cfg;
	char zone[DT_NAME_TEXT_MAXLEN];

	if (!copy) {
		val_keyset_free(ks);
		return NULL;
	}
	*copy = *ks;
	wire_dname_to_str(copy->zone, zone, sizeof(zone));
	log_debug("keys %s: %s%s%s", zone,
		  val_status_name(copy->verdict.status),
		  copy->verdict.reason[0] ? ": " : "", copy->verdict.reason);
	/* A key set that failed because this question ran out of work says
	 * nothing about the zone: never cached for other questions. */
	const char *tag = copy->verdict.tag ? copy->verdict.tag : "";
	if (strstr(tag, "-limit"))
		cacheable = false;
	uint32_t ttl = copy->ttl;
	if (copy->verdict.status == VAL_BOGUS ||
	    copy->verdict.status == VAL_INDETERMINATE)
		ttl = cfg->bogus_ttl;
	if (ttl > cfg->max_cache_ttl)
		ttl = cfg->max_cache_ttl;
	if (!cacheable || ttl == 0 || t->nrefs == SIZE_MAX) {
		if (t->nlocal == t->caplocal) {
			size_t cap = t->caplocal ? 2 * t->caplocal : 4;
			struct val_keyset **n =
				realloc(t->local, cap * sizeof(*n));
			if (!n) {
				keyset_destroy(copy);
				return NULL;
			}
			t->local = n;
			t->caplocal = cap;
		}
		t->local[t->nlocal++] = copy;
		return copy;
	}
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = cache_key('K', copy->zone, WIRE_TYPE_DNSKEY,
				WIRE_CLASS_IN, key);
	struct cache *c = t->w->d->cache;
	if (cache_put(c, key, klen, copy, keyset_cost(copy),
		      worker_now(t->w) + ttl, keyset_destroy) < 0)
		return NULL;
	return lookup(t, copy->zone);
}

static const struct val_keyset *verdict_keys(struct task *t,
					     const uint8_t *zone,
					     const struct val_verdict *v,
					     uint32_t ttl, bool cacheable)
{
	struct val_keyset ks;

	val_keyset_from_verdict(&ks, zone, v, ttl);
	return keep(t, &ks, cacheable);
}

/* A fetch that failed: the zone's keys cannot be had now (not cached). */
static const struct val_keyset *fetch_failed(struct task *t,
					     const uint8_t *zone,
					     const uint8_t *name, uint16_t type,
					     int err)
{
	char txt[DT_NAME_TEXT_MAXLEN], tbuf[16];
	struct val_verdict v;

	wire_dname_to_str(name, txt, sizeof(txt));
	val_verdict_set(&v, VAL_INDETERMINATE,
			err == DT_ETIMEOUT ? WIRE_EDE_NO_REACHABLE_AUTHORITY
					   : WIRE_EDE_NETWORK_ERROR,
			"keys-fetch-failed", "the %s query for %s failed: %s",
			wire_type_to_str(type, tbuf), txt, dt_strerror(err));
	t->fail_err = err;
	return verdict_keys(t, zone, &v, 0, false);
}

static void sub_ctx(const struct task *t, struct val_ctx *sub)
{
	*sub = t->tmpl;
	sub->crypto_used = 0;
	sub->nsec3_hashes_used = 0;
}

/* The RRset of type at owner in a section of msg, collected in a. */
static const struct val_rrset *find_set(const struct wire_msg *msg,
					enum wire_section sec,
					const uint8_t *owner, uint16_t type,
					struct arena *a)
{
	struct val_rrset *sets;
	int n = val_rrsets_collect(msg->sec[sec], msg->count[sec], a, &sets);

	if (n <= 0)
		return NULL;
	return val_rrset_find(sets, (size_t)n, owner, type);
}

/* The zone's DNSKEY RRset authenticated from DS records (anchors or a
 * validated DS RRset). */
static const struct val_keyset *from_ds(struct task *t, const uint8_t *zone,
					const struct wire_rr *const *ds,
					size_t nds, uint32_t ds_ttl)
{
	int err;
	const struct wire_msg *m = task_fetched(t, zone, WIRE_TYPE_DNSKEY, &err);
	struct val_keyset ks;
	struct val_ctx sub;
	struct val_verdict v;
	struct arena a;

	if (!m)
		return err ? fetch_failed(t, zone, zone, WIRE_TYPE_DNSKEY, err)
			   : NULL;
	arena_init(&a, 0);
	const struct val_rrset *dnskeys =
		find_set(m, WIRE_SEC_ANSWER, zone, WIRE_TYPE_DNSKEY, &a);
	if (!dnskeys) {
		char txt[DT_NAME_TEXT_MAXLEN];
		arena_free(&a);
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"keys-no-dnskey",
				"the upstream gave no DNSKEY RRset for %s, "
				"whose DS RRset is validated",
				txt);
		task_keep_response(t, zone, WIRE_TYPE_DNSKEY, &v, UINT32_MAX);
		return verdict_keys(t, zone, &v, 0, true);
	}
	sub_ctx(t, &sub);
	int r = val_keyset_from_ds(&sub, zone, dnskeys, ds, nds, ds_ttl, &ks);
	arena_free(&a);
	if (r < 0)
		return NULL;
	task_keep_response(t, zone, WIRE_TYPE_DNSKEY, &ks.verdict, ks.ttl);
	return keep(t, &ks, true);
}

/* Keys of an anchored zone. */
static const struct val_keyset *from_anchor(struct task *t,
					    const struct val_anchor_zone *az)
{
	const struct wire_rr *ptrs[64];
	size_t n = 0;
	int err;

	if (az->nds) {
		for (size_t i = 0; i < az->nds && n < 64; i++)
			ptrs[n++] = &az->ds[i];
		return from_ds(t, az->zone, ptrs, n, UINT32_MAX);
	}
	const struct wire_msg *m =
		task_fetched(t, az->zone, WIRE_TYPE_DNSKEY, &err);
	if (!m)
		return err ? fetch_failed(t, az->zone, az->zone,
					  WIRE_TYPE_DNSKEY, err)
			   : NULL;
	struct arena a;
	struct val_keyset ks;
	struct val_ctx sub;
	struct val_verdict v;
	arena_init(&a, 0);
	const struct val_rrset *dnskeys =
		find_set(m, WIRE_SEC_ANSWER, az->zone, WIRE_TYPE_DNSKEY, &a);
	if (!dnskeys) {
		arena_free(&a);
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"keys-anchor-no-dnskey",
				"the upstream gave no DNSKEY RRset for a trust "
				"anchor's zone");
		task_keep_response(t, az->zone, WIRE_TYPE_DNSKEY, &v,
				   UINT32_MAX);
		return verdict_keys(t, az->zone, &v, 0, true);
	}
	for (size_t i = 0; i < az->ndnskey && n < 64; i++)
		ptrs[n++] = &az->dnskey[i];
	sub_ctx(t, &sub);
	int r = val_keyset_from_dnskey_anchor(&sub, az->zone, dnskeys, ptrs, n,
					      &ks);
	arena_free(&a);
	if (r < 0)
		return NULL;
	task_keep_response(t, az->zone, WIRE_TYPE_DNSKEY, &ks.verdict, ks.ttl);
	return keep(t, &ks, true);
}

/*
 * Validates the fetched response to "name DS" with this same key source.
 * Returns 1 with *res written, 0 when something is still missing (a fetch
 * is wanted), -1 when the fetch failed (*err set) or out of memory.
 */
static int ds_response(struct task *t, const uint8_t *name,
		       struct val_result *res, int *err)
{
	const struct wire_msg *m = task_fetched(t, name, WIRE_TYPE_DS, err);
	struct val_keysource src;
	struct val_response resp;
	struct val_ctx sub;

	if (!m)
		return *err ? -1 : 0;
	keys_response(m, name, WIRE_TYPE_DS, &resp);
	sub_ctx(t, &sub);
	keys_source(t, &src);
	if (val_response_validate(&sub, &resp, &src, res) < 0) {
		*err = -ENOMEM;
		return -1;
	}
	if (res->kind == VAL_KIND_NEED_KEYS)
		return 0;
	task_keep_response(t, name, WIRE_TYPE_DS, &res->verdict, res->ttl);
	return 1;
}

/* The keys of a zone below its anchor: from its validated DS RRset, or
 * insecure when its absence is proven. */
static const struct val_keyset *from_parent(struct task *t,
					    const uint8_t *zone)
{
	char txt[DT_NAME_TEXT_MAXLEN];
	struct val_result res;
	struct val_verdict v;
	int err = 0;
	int r = ds_response(t, zone, &res, &err);

	if (r < 0)
		return err == -ENOMEM ? NULL
				      : fetch_failed(t, zone, zone,
						     WIRE_TYPE_DS, err);
	if (r == 0)
		return NULL;
	wire_dname_to_str(zone, txt, sizeof(txt));
	if (res.verdict.status != VAL_SECURE)
		return verdict_keys(t, zone, &res.verdict, res.ttl, true);
	if (res.kind == VAL_KIND_ANSWER) {
		const struct wire_msg *m =
			task_fetched(t, zone, WIRE_TYPE_DS, &err);
		struct arena a;
		arena_init(&a, 0);
		const struct val_rrset *ds =
			find_set(m, WIRE_SEC_ANSWER, zone, WIRE_TYPE_DS, &a);
		const struct val_keyset *ks =
			ds ? from_ds(t, zone, ds->rrs, ds->n, res.ttl) : NULL;
		arena_free(&a);
		if (ds)
			return ks;
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"keys-ds-elsewhere",
				"the DS answer for %s validated but holds no DS "
				"RRset at that name",
				txt);
		return verdict_keys(t, zone, &v, 0, true);
	}
	if (res.kind == VAL_KIND_NODATA && res.denial.delegation) {
		val_verdict_set(&v, VAL_INSECURE, VAL_EDE_NONE,
				"keys-insecure-delegation",
				"insecure delegation: no DS for %s (proven)",
				txt);
		return verdict_keys(t, zone, &v, res.ttl, true);
	}
	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
			"keys-not-a-zone",
			"%s signs data but is proven not to be a zone cut", txt);
	return verdict_keys(t, zone, &v, 0, true);
}

/* A zone at or below a negative trust anchor is treated as unsigned
 * (RFC 7646): an insecure key set, kept by the task only, since the
 * anchor may expire or be removed. NULL when none applies. */
static const struct val_keyset *nta_keys(struct task *t, const uint8_t *name)
{
	const struct cfg_nta *nta = policy_nta(&t->st->cfg, name, t->now);
	char txt[DT_NAME_TEXT_MAXLEN], date[16];
	struct val_verdict v;

	if (!nta)
		return NULL;
	for (size_t i = 0; i < t->nlocal; i++)
		if (wire_dname_equal(t->local[i]->zone, nta->name))
			return t->local[i];
	t->nta = nta;
	wire_dname_to_str(nta->name, txt, sizeof(txt));
	policy_date(nta->until, date, sizeof(date));
	val_verdict_set(&v, VAL_INSECURE, VAL_EDE_NONE, "policy-nta",
			"negative trust anchor %s (until %s): not validated",
			txt, date);
	return verdict_keys(t, nta->name, &v, 0, false);
}

static const struct val_keyset *zone_keys(void *arg, const uint8_t *zone)
{
	struct task *t = arg;
	const struct val_keyset *ks = nta_keys(t, zone);
	struct val_verdict v;

	if (ks)
		return ks;
	if ((ks = lookup(t, zone)))
		return ks;
	if (t->depth > DT_NAME_MAXLABELS + 1)
		return NULL;
	const struct val_anchor_zone *az = val_anchors_find(t->st->ta, zone);
	if (!az) {
		char txt[DT_NAME_TEXT_MAXLEN];
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_INDETERMINATE,
				WIRE_EDE_DNSSEC_INDETERMINATE,
				"keys-no-anchor",
				"no trust anchor at or above %s", txt);
		return verdict_keys(t, zone, &v, t->st->cfg.max_cache_ttl,
				    true);
	}
	t->depth++;
	if (wire_dname_equal(az->zone, zone))
		ks = from_anchor(t, az);
	else
		ks = from_parent(t, zone);
	t->depth--;
	return ks;
}

/* --- name_keys: finding the zone that holds a name --- */

static bool probe_get(struct task *t, const uint8_t *name, enum probe *ret)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = cache_key('P', name, WIRE_TYPE_DS, WIRE_CLASS_IN, key);
	struct cache_ref ref;
	struct cache *c = t->w->d->cache;

	if (!cache_get(c, key, klen, worker_now(t->w), &ref))
		return false;
	*ret = (enum probe)(uintptr_t)ref.val;
	cache_unref(c, &ref);
	return true;
}

static void probe_put(struct task *t, const uint8_t *name, enum probe p,
		      uint32_t ttl)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = cache_key('P', name, WIRE_TYPE_DS, WIRE_CLASS_IN, key);

	if (ttl > t->st->cfg.max_cache_ttl)
		ttl = t->st->cfg.max_cache_ttl;
	if (ttl)
		cache_put(t->w->d->cache, key, klen, (void *)(uintptr_t)p, 0,
			  worker_now(t->w) + ttl, NULL);
}

/*
 * One step down from a secure zone towards a name: what is at a, one
 * label further? Returns the key set to continue from (cur when a is in
 * the same zone), NULL when something must be fetched first, and sets
 * *stop when the walk ends here.
 */
static const struct val_keyset *step(struct task *t, const uint8_t *a,
				     const struct val_keyset *cur, bool *stop)
{
	const struct val_keyset *ks = lookup(t, a);
	struct val_result res;
	enum probe p;
	int err = 0;

	if (ks)
		return ks;
	if (probe_get(t, a, &p)) {
		*stop = p == PROBE_NXDOMAIN;
		return cur;
	}
	if (t->nprobing >= DT_NAME_MAXLABELS + 1)
		return NULL;
	t->probing[t->nprobing++] = a;
	int r = ds_response(t, a, &res, &err);
	t->nprobing--;
	if (r < 0)
		return err == -ENOMEM ? NULL
				      : fetch_failed(t, a, a, WIRE_TYPE_DS,
						     err);
	if (r == 0)
		return NULL;
	if (res.verdict.status != VAL_SECURE)
		return verdict_keys(t, a, &res.verdict, res.ttl, true);
	switch (res.kind) {
	case VAL_KIND_ANSWER:
		return zone_keys(t, a);
	case VAL_KIND_NODATA:
		if (res.denial.delegation)
			return zone_keys(t, a); /* proven insecure */
		probe_put(t, a, PROBE_NOT_CUT, res.ttl);
		return cur;
	case VAL_KIND_NXDOMAIN:
		probe_put(t, a, PROBE_NXDOMAIN, res.ttl);
		*stop = true;
		return cur;
	default:
		return NULL;
	}
}

/*
 * The key set of the zone holding name: walk from the closest trust
 * anchor down, label by label, asking for the DS RRset at each (the
 * parent side answers: a DS RRset means a signed zone begins there; a
 * proven NODATA with a delegation, an insecure one; a NODATA without,
 * the same zone goes on). Stops at the first key set that is not secure.
 */
static bool being_probed(const struct task *t, const uint8_t *name)
{
	for (unsigned i = 0; i < t->nprobing; i++)
		if (wire_dname_equal(t->probing[i], name))
			return true;
	return false;
}

static const struct val_keyset *name_keys(void *arg, const uint8_t *name)
{
	struct task *t = arg;
	const struct val_anchor_zone *az = val_anchors_find(t->st->ta, name);
	const struct val_keyset *nta = nta_keys(t, name);

	if (nta)
		return nta;
	if (!az)
		return zone_keys(t, name);
	const struct val_keyset *cur = zone_keys(t, az->zone);
	int labels = wire_dname_labels(name);
	bool stop = false;

	for (int l = wire_dname_labels(az->zone) + 1;
	     cur && l <= labels && !stop; l++) {
		const uint8_t *a = wire_dname_ancestor(name, l);
		if (cur->verdict.status != VAL_SECURE || being_probed(t, a))
			break;
		cur = step(t, a, cur, &stop);
	}
	return cur;
}
