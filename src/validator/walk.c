/* SPDX-License-Identifier: MIT */
/*
 * The chain-of-trust walk (walk.h): zone_keys() builds the key set of
 * one zone from its anchor or from its parent's validated DS RRset;
 * name_keys() finds the zone that holds a name, walking down from the
 * closest anchor label by label and asking at each for the DS RRset (the
 * parent side answers: a DS RRset, a signed zone begins there; a proven
 * NODATA with a delegation, an insecure one; a NODATA without, the same
 * zone goes on; NXDOMAIN, nothing further down exists).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/key.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "validator/walk.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

static const struct val_keyset *zone_keys(void *arg, const uint8_t *zone);
static const struct val_keyset *name_keys(void *arg, const uint8_t *name);
static const uint8_t *anchor_of(void *arg, const uint8_t *name);

void walk_init(struct walk *w, const struct walk_source *src,
	       const struct val_anchors *ta, const struct val_ctx *tmpl)
{
	memset(w, 0, sizeof(*w));
	w->src = *src;
	w->ta = ta;
	w->tmpl = *tmpl;
}

void walk_keysource(struct walk *w, struct val_keysource *ks)
{
	ks->zone_keys = zone_keys;
	ks->name_keys = name_keys;
	ks->anchor = anchor_of;
	ks->arg = w;
}

static const uint8_t *anchor_of(void *arg, const uint8_t *name)
{
	const struct walk *w = arg;
	const struct val_anchor_zone *az = val_anchors_find(w->ta, name);

	return az ? az->zone : NULL;
}

static void sub_ctx(const struct walk *w, struct val_ctx *sub)
{
	*sub = w->tmpl;
	sub->crypto_used = 0;
	sub->nsec3_hashes_used = 0;
}

/* Keeps a key set (taking *ks's contents) and traces it. */
static const struct val_keyset *keep(struct walk *w, struct val_keyset *ks,
				     bool cacheable, const char *how)
{
	char zone[DT_NAME_TEXT_MAXLEN];

	/* A verdict reached because this question ran out of work says
	 * nothing about the zone. */
	if (ks->verdict.budget)
		cacheable = false;
	wire_dname_to_str(ks->zone, zone, sizeof(zone));
	val_trace(&w->tmpl, "zone %s: %s (%s)%s%s", zone,
		  val_status_name(ks->verdict.status), how,
		  ks->verdict.reason[0] ? ": " : "", ks->verdict.reason);
	return w->src.keys_put(w->src.arg, ks, cacheable);
}

static const struct val_keyset *verdict_keys(struct walk *w,
					     const uint8_t *zone,
					     const struct val_verdict *v,
					     uint32_t ttl, bool cacheable,
					     const char *how)
{
	struct val_keyset ks;

	val_keyset_from_verdict(&ks, zone, v, ttl);
	return keep(w, &ks, cacheable, how);
}

/* The EDE of a key fetch that failed: no server reached (22); a DNSKEY
 * RRset that the servers reached did not give (9, "DNSKEY Missing",
 * RFC 8914 §4.10, as Unbound reports it); a DS response
 * that could not be had (23). */
static uint16_t fetch_ede(uint16_t type, int err)
{
	if (err == DT_ETIMEOUT || err == DT_ENOSERVER || err == DT_ERECURSION)
		return (uint16_t)walk_fetch_ede(err);
	if (type == WIRE_TYPE_DNSKEY)
		return WIRE_EDE_DNSKEY_MISSING; /* failed with an answer */
	return (uint16_t)walk_fetch_ede(err);
}

/* The response to (name, type) cannot be had: the zone's keys cannot be
 * decided now (indeterminate, never cached). */
static const struct val_keyset *unavailable(struct walk *w,
					    const uint8_t *zone,
					    const uint8_t *name, uint16_t type,
					    enum walk_got got, int err)
{
	char txt[DT_NAME_TEXT_MAXLEN], tbuf[16];
	struct val_verdict v;

	wire_dname_to_str(name, txt, sizeof(txt));
	wire_type_to_str(type, tbuf);
	if (got == WALK_ABSENT) {
		/* Missing input, not proof of an attack: undecidable. */
		val_verdict_set(&v, VAL_INDETERMINATE,
				WIRE_EDE_DNSKEY_MISSING, "keys-not-in-input",
				"neither the %s RRset of %s nor a proof of its "
				"absence is in the input",
				tbuf, txt);
		return verdict_keys(w, zone, &v, 0, false, tbuf);
	}
	val_verdict_set(&v, VAL_INDETERMINATE, fetch_ede(type, err),
			"keys-fetch-failed", "the %s query for %s failed: %s",
			tbuf, txt, errcode_str(err));
	w->fail_err = err;
	return verdict_keys(w, zone, &v, 0, false, tbuf);
}

/* A limit of the walk itself was reached. */
static const struct val_keyset *walk_limit(struct walk *w,
					   const uint8_t *zone,
					   const char *tag, const char *what)
{
	char txt[DT_NAME_TEXT_MAXLEN];
	struct val_verdict v;

	wire_dname_to_str(zone, txt, sizeof(txt));
	val_verdict_set(&v, VAL_INDETERMINATE, WIRE_EDE_DNSSEC_INDETERMINATE,
			tag, "the chain of trust to %s is %s", txt, what);
	v.budget = true;
	return verdict_keys(w, zone, &v, 0, false, "limit");
}

/* Whether the answer's budget of DS responses (val_work.ds_checks) is
 * spent; one more is charged when it is not. */
static bool ds_budget_spent(struct walk *w)
{
	struct val_work *wk = w->tmpl.work;

	if (!wk)
		return false;
	if (wk->ds_checks >= wk->ds_checks_max)
		return true;
	wk->ds_checks++;
	return false;
}

static enum walk_got get(struct walk *w, const uint8_t *name, uint16_t type,
			 struct val_response *resp, bool *tentative, int *err)
{
	*tentative = false;
	*err = 0;
	memset(resp, 0, sizeof(*resp));
	return w->src.response(w->src.arg, name, type, resp, tentative, err);
}

/* The RRset of type at owner among n records, collected in a. */
static const struct val_rrset *find_set(const struct wire_rr *rrs, size_t n,
					const uint8_t *owner, uint16_t type,
					struct arena *a)
{
	struct val_rrset *sets;
	int r = val_rrsets_collect(rrs, n, a, &sets);

	if (r <= 0)
		return NULL;
	return val_rrset_find(sets, (size_t)r, owner, type);
}

static void validated(struct walk *w, const uint8_t *name, uint16_t type,
		      const struct val_verdict *v, uint32_t ttl)
{
	if (w->src.validated && !v->budget)
		w->src.validated(w->src.arg, name, type, v, ttl);
}

/* The zone's DNSKEY RRset authenticated from DS records (anchors or a
 * validated DS RRset). */
static const struct val_keyset *from_ds(struct walk *w, const uint8_t *zone,
					const struct wire_rr *const *ds,
					size_t nds, uint32_t ds_ttl,
					const char *how)
{
	struct val_response resp;
	struct val_keyset ks;
	struct val_ctx sub;
	struct val_verdict v;
	struct arena a;
	bool tentative;
	int err;
	enum walk_got got = get(w, zone, WIRE_TYPE_DNSKEY, &resp, &tentative,
				&err);

	if (got == WALK_PENDING)
		return NULL;
	if (got != WALK_GOT)
		return unavailable(w, zone, zone, WIRE_TYPE_DNSKEY, got, err);
	arena_init(&a, 0);
	const struct val_rrset *dnskeys = find_set(
		resp.answer, resp.nanswer, zone, WIRE_TYPE_DNSKEY, &a);
	if (!dnskeys) {
		char txt[DT_NAME_TEXT_MAXLEN];
		arena_free(&a);
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"keys-no-dnskey",
				"the response has no DNSKEY RRset for %s, whose "
				"DS RRset is validated",
				txt);
		validated(w, zone, WIRE_TYPE_DNSKEY, &v, UINT32_MAX);
		return verdict_keys(w, zone, &v, 0, true, how);
	}
	sub_ctx(w, &sub);
	int r = val_keyset_from_ds(&sub, zone, dnskeys, ds, nds, ds_ttl, &ks);
	arena_free(&a);
	if (r < 0) {
		w->fail_err = -ENOMEM;
		return NULL;
	}
	validated(w, zone, WIRE_TYPE_DNSKEY, &ks.verdict, ks.ttl);
	return keep(w, &ks, true, how);
}

/*
 * The configured DNSKEY anchors themselves, for a zone whose DNSKEY
 * RRset is absent or unsigned (RFC 4033 §2, "trust anchor": the
 * configured key is authoritative; RFC example data signs only the
 * answer). Zone keys of a supported algorithm, not revoked.
 */
static const struct val_keyset *anchor_keys(struct walk *w,
					    const struct val_anchor_zone *az)
{
	struct val_keyset ks = {0};
	struct val_verdict v;

	ks.keys = calloc(az->ndnskey + 1, sizeof(*ks.keys));
	if (!ks.keys) {
		w->fail_err = -ENOMEM;
		return NULL;
	}
	wire_dname_copy(ks.zone, az->zone);
	for (size_t i = 0; i < az->ndnskey; i++) {
		struct crypto_key *k;
		const struct wire_rr *rr = &az->dnskey[i];
		uint16_t flags = wire_get16(rr->rdata);
		if (!(flags & CRYPTO_KEY_FLAG_ZONE) ||
		    (flags & CRYPTO_KEY_FLAG_REVOKE) ||
		    val_key_new(&w->tmpl, rr->rdata, rr->rdlen, &k) < 0)
			continue;
		ks.keys[ks.nkeys++] = k;
	}
	if (!ks.nkeys) {
		free(ks.keys);
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"keys-anchor-unusable",
				"no usable zone key among the DNSKEY trust "
				"anchors");
		return verdict_keys(w, az->zone, &v, 0, true,
				    "DNSKEY trust anchor");
	}
	ks.ttl = UINT32_MAX;
	val_verdict_secure(&ks.verdict);
	return keep(w, &ks, false,
		    "DNSKEY trust anchor, keys used as configured (DNSKEY "
		    "RRset absent or unsigned)");
}

/* A record array of pointers to n records (anchors). */
static const struct wire_rr **ptrs_of(const struct wire_rr *rrs, size_t n)
{
	const struct wire_rr **p = malloc((n ? n : 1) * sizeof(*p));

	for (size_t i = 0; p && i < n; i++)
		p[i] = &rrs[i];
	return p;
}

/* Keys of an anchored zone. */
static const struct val_keyset *from_anchor(struct walk *w,
					    const struct val_anchor_zone *az)
{
	const struct val_keyset *ret;

	if (az->nds) {
		const struct wire_rr **ds = ptrs_of(az->ds, az->nds);
		if (!ds) {
			w->fail_err = -ENOMEM;
			return NULL;
		}
		ret = from_ds(w, az->zone, ds, az->nds, UINT32_MAX,
			      "DNSKEY from DS trust anchor");
		free(ds);
		return ret;
	}
	struct val_response resp;
	bool tentative;
	int err;
	enum walk_got got = get(w, az->zone, WIRE_TYPE_DNSKEY, &resp,
				&tentative, &err);
	if (got == WALK_PENDING)
		return NULL;
	if (got == WALK_FAILED)
		return unavailable(w, az->zone, az->zone, WIRE_TYPE_DNSKEY,
				   got, err);
	struct arena a;
	arena_init(&a, 0);
	const struct val_rrset *dnskeys =
		got == WALK_GOT ? find_set(resp.answer, resp.nanswer, az->zone,
					   WIRE_TYPE_DNSKEY, &a)
				: NULL;
	if (!dnskeys || !dnskeys->nsigs) {
		arena_free(&a);
		return anchor_keys(w, az);
	}
	const struct wire_rr **keys = ptrs_of(az->dnskey, az->ndnskey);
	struct val_keyset ks;
	struct val_ctx sub;
	sub_ctx(w, &sub);
	int r = keys ? val_keyset_from_dnskey_anchor(&sub, az->zone, dnskeys,
						     keys, az->ndnskey, &ks)
		     : -ENOMEM;
	free(keys);
	arena_free(&a);
	if (r < 0) {
		w->fail_err = -ENOMEM;
		return NULL;
	}
	validated(w, az->zone, WIRE_TYPE_DNSKEY, &ks.verdict, ks.ttl);
	return keep(w, &ks, true, "DNSKEY trust anchor");
}

static bool being_probed(const struct walk *w, const uint8_t *name)
{
	for (unsigned i = 0; i < w->nprobing; i++)
		if (wire_dname_equal(w->probing[i], name))
			return true;
	return false;
}

/*
 * Validates the response to "name DS" with this same walk as key source.
 * Returns WALK_GOT with *res written, or the source's other answers
 * (WALK_FAILED with *err; WALK_PENDING also when keys are still missing).
 * -1 cast: the nesting limit (*res holds nothing).
 */
static enum walk_got ds_response(struct walk *w, const uint8_t *name,
				 struct val_result *res, bool *tentative,
				 int *err)
{
	struct val_keysource src;
	struct val_response resp;
	struct val_ctx sub;
	enum walk_got got = get(w, name, WIRE_TYPE_DS, &resp, tentative, err);

	if (got != WALK_GOT)
		return got;
	resp.qname = name;
	resp.qtype = WIRE_TYPE_DS;
	resp.qclass = WIRE_CLASS_IN;
	sub_ctx(w, &sub);
	walk_keysource(w, &src);
	w->probing[w->nprobing++] = name;
	int r = val_response_validate(&sub, &resp, &src, res);
	w->nprobing--;
	if (r < 0) {
		w->fail_err = -ENOMEM;
		*err = -ENOMEM;
		return WALK_FAILED;
	}
	if (res->kind == VAL_KIND_NEED_KEYS)
		return WALK_PENDING;
	if (!*tentative) {
		validated(w, name, WIRE_TYPE_DS, &res->verdict, res->ttl);
		if (w->src.ds_validated && !res->verdict.budget)
			w->src.ds_validated(w->src.arg, name, res);
	}
	return WALK_GOT;
}

/* Whether a tentative DS response is about its name: it is not when no
 * record of it matches or covers the name (EDE 12, NSEC Missing); a
 * proof that is about the name but fails (a bad signature) counts, as
 * it would from an upstream. */
static bool proves(const struct val_result *res)
{
	return res->verdict.status == VAL_SECURE ||
	       res->verdict.ede != WIRE_EDE_NSEC_MISSING;
}

/* The keys of a zone below its anchor: from its validated DS RRset, or
 * insecure when its absence is proven. */
static const struct val_keyset *from_parent(struct walk *w,
					    const uint8_t *zone)
{
	char txt[DT_NAME_TEXT_MAXLEN];
	struct val_result res;
	struct val_verdict v;
	bool tentative;
	int err = 0;

	wire_dname_to_str(zone, txt, sizeof(txt));
	if (being_probed(w, zone)) {
		/* Validating the DS RRset of zone needs zone's own keys. */
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"keys-ds-signer",
				"the DS RRset of %s is not signed by a parent "
				"zone",
				txt);
		return verdict_keys(w, zone, &v, 0, true, "DS");
	}
	if (w->nprobing == DT_VAL_DS_PROOF_NEST_MAX)
		return walk_limit(w, zone, "keys-proof-depth-limit",
				  "nested too deep");
	if (ds_budget_spent(w))
		return walk_limit(w, zone, "keys-work-limit",
				  "past the answer's budget of DS responses");
	enum walk_got got = ds_response(w, zone, &res, &tentative, &err);
	if (got == WALK_PENDING)
		return NULL;
	if (got == WALK_ABSENT) {
		/* Nothing in the input: below a zone that is not secure,
		 * zone inherits its status; else it cannot be decided. */
		const struct val_keyset *pks =
			name_keys(w, wire_dname_parent(zone));
		if (!pks)
			return NULL;
		if (pks->verdict.status != VAL_SECURE)
			return verdict_keys(w, zone, &pks->verdict, pks->ttl,
					    true, "parent not secure");
	}
	if (got != WALK_GOT)
		return err == -ENOMEM ? NULL
				      : unavailable(w, zone, zone,
						    WIRE_TYPE_DS, got, err);
	if (res.verdict.status != VAL_SECURE)
		return verdict_keys(w, zone, &res.verdict, res.ttl, true, "DS");
	if (res.kind == VAL_KIND_ANSWER) {
		struct val_response resp;
		struct arena a;
		get(w, zone, WIRE_TYPE_DS, &resp, &tentative, &err);
		arena_init(&a, 0);
		const struct val_rrset *ds = find_set(
			resp.answer, resp.nanswer, zone, WIRE_TYPE_DS, &a);
		const struct val_keyset *ks =
			ds ? from_ds(w, zone, ds->rrs, ds->n, res.ttl,
				     "DNSKEY from validated DS")
			   : NULL;
		arena_free(&a);
		if (ds)
			return ks;
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"keys-ds-elsewhere",
				"the DS answer for %s validated but holds no DS "
				"RRset at that name",
				txt);
		return verdict_keys(w, zone, &v, 0, true, "DS");
	}
	if (res.kind == VAL_KIND_NODATA && res.denial.delegation) {
		val_verdict_set(&v, VAL_INSECURE, VAL_EDE_NONE,
				"keys-insecure-delegation",
				"insecure delegation: no DS for %s (proven)",
				txt);
		return verdict_keys(w, zone, &v, res.ttl, true, "no DS");
	}
	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
			"keys-not-a-zone",
			"%s signs data but is proven not to be a zone cut", txt);
	return verdict_keys(w, zone, &v, 0, true, "no DS");
}

/* A zone at or below a negative trust anchor is treated as unsigned
 * (RFC 7646): an insecure key set for the walk only. NULL when none
 * applies. */
static const struct val_keyset *exempt_keys(struct walk *w,
					    const uint8_t *name)
{
	struct val_verdict v;
	const uint8_t *at;

	if (!w->src.exempt || !(at = w->src.exempt(w->src.arg, name, &v)))
		return NULL;
	w->exempted = true;
	const struct val_keyset *ks = w->src.keys_get(w->src.arg, at);
	if (ks && ks->verdict.status == VAL_INSECURE && ks->verdict.tag &&
	    strcmp(ks->verdict.tag, v.tag) == 0)
		return ks;
	return verdict_keys(w, at, &v, 0, false, "negative trust anchor");
}

static const struct val_keyset *zone_keys(void *arg, const uint8_t *zone)
{
	struct walk *w = arg;
	const struct val_keyset *ks = exempt_keys(w, zone);
	struct val_verdict v;

	if (ks || (ks = w->src.keys_get(w->src.arg, zone)))
		return ks;
	if (w->depth > DT_NAME_MAXLABELS + 1)
		return walk_limit(w, zone, "keys-depth-limit",
				  "longer than a name has labels");
	const struct val_anchor_zone *az = val_anchors_find(w->ta, zone);
	if (!az) {
		char txt[DT_NAME_TEXT_MAXLEN];
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_INDETERMINATE,
				WIRE_EDE_DNSSEC_INDETERMINATE,
				"keys-no-anchor",
				"no trust anchor at or above %s", txt);
		return verdict_keys(w, zone, &v, UINT32_MAX, true,
				    "no anchor");
	}
	w->depth++;
	if (wire_dname_equal(az->zone, zone))
		ks = from_anchor(w, az);
	else
		ks = from_parent(w, zone);
	w->depth--;
	return ks;
}

/* --- name_keys: finding the zone that holds a name --- */

/*
 * One step down from a secure zone towards a name: what is at a, one
 * label further? Returns the key set to continue from (cur when a is in
 * the same zone), NULL when something is still missing, and sets *stop
 * when the walk ends here.
 */
static const struct val_keyset *step(struct walk *w, const uint8_t *a,
				     const struct val_keyset *cur, bool *stop)
{
	const struct val_keyset *ks = w->src.keys_get(w->src.arg, a);
	struct val_result res;
	enum walk_probe p;
	bool tentative;
	int err = 0;

	if (ks)
		return ks;
	if (w->src.probe_get && w->src.probe_get(w->src.arg, a, &p)) {
		*stop = p == WALK_PROBE_NXDOMAIN;
		return cur;
	}
	if (w->nprobing == DT_VAL_DS_PROOF_NEST_MAX)
		return walk_limit(w, a, "keys-proof-depth-limit",
				  "nested too deep");
	if (ds_budget_spent(w))
		return walk_limit(w, a, "keys-work-limit",
				  "past the answer's budget of DS responses");
	enum walk_got got = ds_response(w, a, &res, &tentative, &err);
	if (got == WALK_PENDING)
		return NULL;
	if (got == WALK_FAILED)
		return err == -ENOMEM ? NULL
				      : unavailable(w, a, a, WIRE_TYPE_DS, got,
						    err);
	if (got == WALK_ABSENT || (tentative && !proves(&res))) {
		/* Offline input with nothing about a: a zone begins there
		 * only when the input shows one. */
		if (w->src.is_cut && w->src.is_cut(w->src.arg, a))
			return zone_keys(w, a);
		return cur;
	}
	if (res.verdict.status != VAL_SECURE)
		return verdict_keys(w, a, &res.verdict, res.ttl, !tentative,
				    "DS");
	switch (res.kind) {
	case VAL_KIND_ANSWER:
		return zone_keys(w, a);
	case VAL_KIND_NODATA:
		if (res.denial.delegation)
			return zone_keys(w, a); /* proven insecure */
		if (w->src.probe_put)
			w->src.probe_put(w->src.arg, a, WALK_PROBE_NOT_CUT,
					 res.ttl);
		if (tentative && w->src.is_cut && w->src.is_cut(w->src.arg, a))
			return zone_keys(w, a);
		return cur;
	case VAL_KIND_NXDOMAIN:
		if (w->src.probe_put)
			w->src.probe_put(w->src.arg, a, WALK_PROBE_NXDOMAIN,
					 res.ttl);
		*stop = true;
		return cur;
	case VAL_KIND_YXDOMAIN:
		return cur; /* below a DNAME: no zone cut there */
	default:
		return NULL;
	}
}

/*
 * The key set of the zone holding name: walk from the closest trust
 * anchor down, label by label. Stops at the first key set that is not
 * secure, and above a name whose own DS response is being validated.
 */
static const struct val_keyset *name_keys(void *arg, const uint8_t *name)
{
	struct walk *w = arg;
	const struct val_anchor_zone *az = val_anchors_find(w->ta, name);
	const struct val_keyset *ks = exempt_keys(w, name);

	if (ks)
		return ks;
	if (!az)
		return zone_keys(w, name);
	const struct val_keyset *cur = zone_keys(w, az->zone);
	int labels = wire_dname_labels(name);
	bool stop = false;

	for (int l = wire_dname_labels(az->zone) + 1;
	     cur && l <= labels && !stop; l++) {
		const uint8_t *a = wire_dname_ancestor(name, l);
		if (cur->verdict.status != VAL_SECURE || being_probed(w, a))
			break;
		cur = step(w, a, cur, &stop);
	}
	return cur;
}

int walk_fetch_ede(int err)
{
	switch (err) {
	case DT_ETIMEOUT:
	case DT_ENOSERVER:
	case DT_ENOAUTH: return WIRE_EDE_NO_REACHABLE_AUTHORITY;
	case DT_ERECURSION:
	case DT_EBADANSWER: return WIRE_EDE_OTHER;
	default: return WIRE_EDE_NETWORK_ERROR;
	}
}
