/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "crypto/key.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "wire/dname.h"
#include "wire/msg.h"

struct val_bag {
	struct val_ctx ctx;	/* template: time, limits, trace */
	const struct val_anchors *ta;
	struct arena arena;
	struct val_rrset *sets;
	size_t nsets;
	struct val_keyset **ks;	/* built so far */
	size_t nks, capks;
	unsigned depth;		/* recursion guard */
	/* The names whose DS absence is being proven, outermost first. */
	const uint8_t *proving[DT_VAL_DS_PROOF_NEST_MAX];
	unsigned nproving;
	struct val_work work;	/* shared by every key set and denial */
};

struct val_bag *val_bag_new(const struct val_ctx *ctx,
			    const struct val_anchors *ta,
			    const struct wire_rr *rrs, size_t n)
{
	struct val_bag *bag = calloc(1, sizeof(*bag));

	if (!bag)
		return NULL;
	bag->ctx = *ctx;
	bag->ta = ta;
	val_work_init(&bag->work);
	arena_init(&bag->arena, 0);
	int r = val_rrsets_collect(rrs, n, &bag->arena, &bag->sets);
	if (r < 0) {
		val_bag_free(bag);
		return NULL;
	}
	bag->nsets = (size_t)r;
	return bag;
}

void val_bag_free(struct val_bag *bag)
{
	if (!bag)
		return;
	for (size_t i = 0; i < bag->nks; i++) {
		val_keyset_free(bag->ks[i]);
		free(bag->ks[i]);
	}
	free(bag->ks);
	arena_free(&bag->arena);
	free(bag);
}

size_t val_bag_keysets(const struct val_bag *bag,
		       const struct val_keyset *const **ret_sets)
{
	*ret_sets = (const struct val_keyset *const *)bag->ks;
	return bag->nks;
}

static const struct val_rrset *bag_find(const struct val_bag *bag,
					const uint8_t *owner, uint16_t type)
{
	return val_rrset_find(bag->sets, bag->nsets, owner, type);
}

static const struct val_keyset *bag_cached(const struct val_bag *bag,
					   const uint8_t *zone)
{
	for (size_t i = 0; i < bag->nks; i++) {
		if (wire_dname_equal(bag->ks[i]->zone, zone))
			return bag->ks[i];
	}
	return NULL;
}

/* Takes ownership of *ks's contents; returns the stored copy or NULL. */
static const struct val_keyset *bag_store(struct val_bag *bag,
					  struct val_keyset *ks)
{
	struct val_keyset *copy = malloc(sizeof(*copy));

	if (!copy || (bag->nks == bag->capks && bag->capks > SIZE_MAX / 4)) {
		free(copy);
		val_keyset_free(ks);
		return NULL;
	}
	if (bag->nks == bag->capks) {
		size_t cap = bag->capks ? 2 * bag->capks : 8;
		struct val_keyset **nk = realloc(bag->ks, cap * sizeof(*nk));
		if (!nk) {
			free(copy);
			val_keyset_free(ks);
			return NULL;
		}
		bag->ks = nk;
		bag->capks = cap;
	}
	*copy = *ks;
	bag->ks[bag->nks++] = copy;
	return copy;
}

static void trace_keyset(const struct val_bag *bag,
			 const struct val_keyset *ks, const char *how)
{
	char zone[DT_NAME_TEXT_MAXLEN];

	wire_dname_to_str(ks->zone, zone, sizeof(zone));
	val_trace(&bag->ctx, "zone %s: %s (%s)%s%s", zone,
		  val_status_name(ks->verdict.status), how,
		  ks->verdict.reason[0] ? ": " : "", ks->verdict.reason);
}

static const struct val_keyset *bag_verdict(struct val_bag *bag,
					    const uint8_t *zone,
					    const struct val_verdict *v,
					    uint32_t ttl, const char *how)
{
	struct val_keyset ks;

	val_keyset_from_verdict(&ks, zone, v, ttl);
	const struct val_keyset *stored = bag_store(bag, &ks);
	if (stored)
		trace_keyset(bag, stored, how);
	return stored;
}

static void sub_ctx(struct val_bag *bag, struct val_ctx *sub)
{
	*sub = bag->ctx;
	sub->crypto_used = 0;
	sub->nsec3_hashes_used = 0;
	sub->work = &bag->work;
}

static const struct val_keyset *zone_keys(void *arg, const uint8_t *zone);
static const struct val_keyset *name_keys(void *arg, const uint8_t *name);

/* The zone's DNSKEY RRset authenticated from DS records (anchor or
 * validated parent DS). */
static const struct val_keyset *from_ds(struct val_bag *bag,
					const uint8_t *zone,
					const struct wire_rr *const *ds,
					size_t nds, uint32_t ds_ttl,
					const char *how)
{
	const struct val_rrset *dnskeys = bag_find(bag, zone, WIRE_TYPE_DNSKEY);
	char txt[DT_NAME_TEXT_MAXLEN];
	struct val_keyset ks;
	struct val_verdict v;
	struct val_ctx sub;

	if (!dnskeys) {
		wire_dname_to_str(zone, txt, sizeof(txt));
		/* Missing input, not proof of an attack: undecidable. */
		val_verdict_set(&v, VAL_INDETERMINATE, WIRE_EDE_DNSKEY_MISSING,
				"bag-no-dnskey",
				"the DNSKEY RRset of %s is not in the input",
				txt);
		return bag_verdict(bag, zone, &v, 0, how);
	}
	sub_ctx(bag, &sub);
	if (val_keyset_from_ds(&sub, zone, dnskeys, ds, nds, ds_ttl, &ks) < 0)
		return NULL;
	const struct val_keyset *stored = bag_store(bag, &ks);
	if (stored)
		trace_keyset(bag, stored, how);
	return stored;
}

/*
 * DNSKEY anchors for a zone whose DNSKEY RRset is absent or unsigned in the
 * input: the configured keys themselves are the starting point (RFC 4033
 * §2, "trust anchor"), as when checking RFC example data that signs only
 * the answer. Zone keys of a supported algorithm, not revoked.
 */
static const struct val_keyset *anchor_keys(struct val_bag *bag,
					    const struct val_anchor_zone *az)
{
	struct val_keyset ks = {0};
	struct val_verdict v;

	ks.keys = calloc(az->ndnskey + 1, sizeof(*ks.keys));
	if (!ks.keys)
		return NULL;
	wire_dname_copy(ks.zone, az->zone);
	for (size_t i = 0; i < az->ndnskey; i++) {
		struct crypto_key *k;
		const struct wire_rr *rr = &az->dnskey[i];
		uint16_t flags = (uint16_t)(rr->rdata[0] << 8 | rr->rdata[1]);
		if (!(flags & CRYPTO_KEY_FLAG_ZONE) ||
		    (flags & CRYPTO_KEY_FLAG_REVOKE) ||
		    crypto_key_new(rr->rdata, rr->rdlen, &k) < 0)
			continue;
		ks.keys[ks.nkeys++] = k;
	}
	ks.ttl = UINT32_MAX;
	if (ks.nkeys) {
		val_verdict_secure(&ks.verdict);
	} else {
		free(ks.keys);
		ks.keys = NULL;
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"bag-anchor-unusable",
				"no usable zone key among the DNSKEY trust anchors");
		return bag_verdict(bag, az->zone, &v, 0, "DNSKEY trust anchor");
	}
	const struct val_keyset *stored = bag_store(bag, &ks);
	if (stored)
		trace_keyset(bag, stored, "DNSKEY trust anchor, keys used as "
					  "configured (DNSKEY RRset unsigned "
					  "in the input)");
	return stored;
}

static const struct val_keyset *from_anchor(struct val_bag *bag,
					    const struct val_anchor_zone *az)
{
	const struct wire_rr *ptrs[64];
	size_t n = 0;

	if (az->nds) {
		for (size_t i = 0; i < az->nds && n < 64; i++)
			ptrs[n++] = &az->ds[i];
		return from_ds(bag, az->zone, ptrs, n, UINT32_MAX,
			       "DNSKEY from DS trust anchor");
	}
	const struct val_rrset *dnskeys =
		bag_find(bag, az->zone, WIRE_TYPE_DNSKEY);
	struct val_keyset ks;
	struct val_ctx sub;
	if (!dnskeys || dnskeys->nsigs == 0)
		return anchor_keys(bag, az);
	for (size_t i = 0; i < az->ndnskey && n < 64; i++)
		ptrs[n++] = &az->dnskey[i];
	sub_ctx(bag, &sub);
	if (val_keyset_from_dnskey_anchor(&sub, az->zone, dnskeys, ptrs, n,
					  &ks) < 0)
		return NULL;
	const struct val_keyset *stored = bag_store(bag, &ks);
	if (stored)
		trace_keyset(bag, stored, "DNSKEY trust anchor");
	return stored;
}

/* The zone's DS RRset is in the bag: verify it in the parent, then the
 * DNSKEY RRset from it. */
static const struct val_keyset *from_parent_ds(struct val_bag *bag,
					       const uint8_t *zone,
					       const struct val_rrset *ds)
{
	char txt[DT_NAME_TEXT_MAXLEN];
	struct val_sig_info info;
	struct val_verdict v;
	struct val_ctx sub;
	const struct val_keyset *pks;

	if (ds->nsigs == 0) {
		pks = name_keys(bag, wire_dname_parent(zone));
		if (!pks)
			return NULL;
		if (pks->verdict.status != VAL_SECURE)
			return bag_verdict(bag, zone, &pks->verdict, pks->ttl,
					   "parent not secure");
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING,
				"bag-ds-unsigned", "the DS RRset of %s is unsigned",
				txt);
		return bag_verdict(bag, zone, &v, 0, "DS");
	}
	const uint8_t *signer = val_rrsig_signer(ds->sigs[0]);
	if (wire_dname_equal(signer, zone) ||
	    !wire_dname_is_subdomain(zone, signer)) {
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"bag-ds-signer",
				"the DS RRset of %s is not signed by a parent zone",
				txt);
		return bag_verdict(bag, zone, &v, 0, "DS");
	}
	pks = zone_keys(bag, signer);
	if (!pks)
		return NULL;
	if (pks->verdict.status != VAL_SECURE)
		return bag_verdict(bag, zone, &pks->verdict, pks->ttl,
				   "parent not secure");
	sub_ctx(bag, &sub);
	if (val_rrset_verify(&sub, ds, pks, &info, &v) < 0)
		return NULL;
	if (v.status != VAL_SECURE)
		return bag_verdict(bag, zone, &v, 0, "DS");
	return from_ds(bag, zone, ds->rrs, ds->n, info.ttl,
		       "DNSKEY from validated DS");
}

/* Denial records of the bag signed by the deepest proper ancestor of
 * name that signs any, as one array (struct copies). */
static size_t denial_records(struct val_bag *bag, const uint8_t *name,
			     struct wire_rr **ret)
{
	const uint8_t *best = NULL;
	size_t n = 0;

	for (size_t i = 0; i < bag->nsets; i++) {
		const struct val_rrset *s = &bag->sets[i];
		if ((s->type != WIRE_TYPE_NSEC && s->type != WIRE_TYPE_NSEC3) ||
		    !s->nsigs || !s->n)
			continue;
		const uint8_t *signer = val_rrsig_signer(s->sigs[0]);
		if (wire_dname_equal(signer, name) ||
		    !wire_dname_is_subdomain(name, signer))
			continue;
		if (!best ||
		    wire_dname_labels(signer) > wire_dname_labels(best))
			best = signer;
	}
	if (!best)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t k = 0;
		for (size_t i = 0; i < bag->nsets; i++) {
			const struct val_rrset *s = &bag->sets[i];
			if ((s->type != WIRE_TYPE_NSEC &&
			     s->type != WIRE_TYPE_NSEC3) ||
			    !s->nsigs || !s->n ||
			    !wire_dname_equal(best, val_rrsig_signer(s->sigs[0])))
				continue;
			for (size_t j = 0; j < s->n; j++, k++)
				if (pass)
					(*ret)[k] = *s->rrs[j];
			for (size_t j = 0; j < s->nsigs; j++, k++)
				if (pass)
					(*ret)[k] = *s->sigs[j];
		}
		if (!pass) {
			*ret = arena_alloc(&bag->arena, k * sizeof(**ret));
			if (!*ret)
				return 0;
		}
		n = k;
	}
	return n;
}

/*
 * Looks for a proof that name has no DS. Returns 1 and writes *ret when
 * the bag holds one that validates (or fails), 0 when it holds none,
 * -ELOOP past the recursion bound, -ENOMEM.
 */
static int ds_denial(struct val_bag *bag, const uint8_t *name,
		     struct val_result *ret)
{
	struct wire_rr *auth = NULL;
	size_t n = denial_records(bag, name, &auth);
	struct val_keysource src;
	struct val_ctx sub;

	if (!n)
		return 0;
	/* Proving a DS absent may ask name_keys() again, which may ask for
	 * this proof again: never the same name twice, never too deep. */
	if (bag->nproving == DT_VAL_DS_PROOF_NEST_MAX)
		return -ELOOP;
	for (unsigned i = 0; i < bag->nproving; i++)
		if (wire_dname_equal(bag->proving[i], name))
			return -ELOOP;
	struct val_response resp = {
		.qname = name,
		.qtype = WIRE_TYPE_DS,
		.qclass = WIRE_CLASS_IN,
		.rcode = WIRE_RCODE_NOERROR,
		.authority = auth,
		.nauthority = n,
	};
	sub_ctx(bag, &sub);
	val_bag_keysource(bag, &src);
	bag->proving[bag->nproving++] = name;
	int r = val_response_validate(&sub, &resp, &src, ret);
	bag->nproving--;
	return r < 0 ? -ENOMEM : 1;
}

static const struct val_keyset *no_ds(struct val_bag *bag, const uint8_t *zone)
{
	char txt[DT_NAME_TEXT_MAXLEN];
	struct val_result res;
	struct val_verdict v;
	int r = ds_denial(bag, zone, &res);

	if (r < 0)
		return NULL;
	wire_dname_to_str(zone, txt, sizeof(txt));
	if (r == 0) {
		const struct val_keyset *pks =
			name_keys(bag, wire_dname_parent(zone));
		if (!pks)
			return NULL;
		if (pks->verdict.status != VAL_SECURE)
			return bag_verdict(bag, zone, &pks->verdict, pks->ttl,
					   "parent not secure");
		val_verdict_set(&v, VAL_INDETERMINATE, WIRE_EDE_DNSKEY_MISSING,
				"bag-no-ds",
				"neither the DS RRset of %s nor a proof of its "
				"absence is in the input",
				txt);
		return bag_verdict(bag, zone, &v, 0, "DS");
	}
	if (res.verdict.status == VAL_SECURE && res.kind == VAL_KIND_NODATA &&
	    !res.denial.delegation) {
		val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"bag-not-a-zone",
				"%s is used as a signer but is proven not to be "
				"a zone cut",
				txt);
		return bag_verdict(bag, zone, &v, 0, "no DS");
	}
	if (res.verdict.status == VAL_SECURE) {
		val_verdict_set(&v, VAL_INSECURE, VAL_EDE_NONE,
				"bag-insecure-delegation",
				"insecure delegation: no DS for %s (proven)", txt);
		return bag_verdict(bag, zone, &v, res.ttl, "no DS");
	}
	return bag_verdict(bag, zone, &res.verdict, res.ttl, "no DS");
}

static const struct val_keyset *zone_keys(void *arg, const uint8_t *zone)
{
	struct val_bag *bag = arg;
	const struct val_keyset *ks = bag_cached(bag, zone);
	struct val_verdict v;

	if (ks)
		return ks;
	if (bag->depth > DT_NAME_MAXLABELS + 1)
		return NULL;
	const struct val_anchor_zone *az = val_anchors_find(bag->ta, zone);
	if (!az) {
		char txt[DT_NAME_TEXT_MAXLEN];
		wire_dname_to_str(zone, txt, sizeof(txt));
		val_verdict_set(&v, VAL_INDETERMINATE,
				WIRE_EDE_DNSSEC_INDETERMINATE, "bag-no-anchor",
				"no trust anchor at or above %s", txt);
		return bag_verdict(bag, zone, &v, 0, "no anchor");
	}
	bag->depth++;
	if (wire_dname_equal(az->zone, zone))
		ks = from_anchor(bag, az);
	else {
		const struct val_rrset *ds = bag_find(bag, zone, WIRE_TYPE_DS);
		ks = ds ? from_parent_ds(bag, zone, ds) : no_ds(bag, zone);
	}
	bag->depth--;
	return ks;
}

/* True when the bag shows name to be a zone (or claims so). */
static bool bag_knows_zone(const struct val_bag *bag, const uint8_t *name)
{
	for (size_t i = 0; i < bag->nsets; i++) {
		const struct val_rrset *s = &bag->sets[i];
		if ((s->type == WIRE_TYPE_DNSKEY || s->type == WIRE_TYPE_DS) &&
		    s->n && wire_dname_equal(s->owner, name))
			return true;
		for (size_t j = 0; j < s->nsigs; j++) {
			if (wire_dname_equal(name, val_rrsig_signer(s->sigs[j])))
				return true;
		}
	}
	return false;
}

/*
 * The key set of the zone holding name: the deepest zone the bag knows of
 * at or above name, unless a proven insecure delegation lies between it
 * and name.
 */
static const struct val_keyset *name_keys(void *arg, const uint8_t *name)
{
	struct val_bag *bag = arg;
	const struct val_anchor_zone *az = val_anchors_find(bag->ta, name);
	int top = az ? wire_dname_labels(az->zone) : 0;
	int labels = wire_dname_labels(name);
	const uint8_t *zone = NULL;

	for (int l = labels; l >= top && !zone; l--) {
		const uint8_t *a = wire_dname_ancestor(name, l);
		if (l == top || bag_knows_zone(bag, a))
			zone = a;
	}
	const struct val_keyset *ks = zone_keys(bag, zone);
	if (!ks || ks->verdict.status != VAL_SECURE)
		return ks;
	/* Below a secure zone: an insecure delegation on the way down? Either
	 * proven (NS, no DS), or possible because the DS denial holds only
	 * through an opt-out NSEC3 span (RFC 5155 §8.6), which zone_keys()
	 * then reports as insecure. */
	for (int l = wire_dname_labels(zone) + 1; l <= labels; l++) {
		const uint8_t *a = wire_dname_ancestor(name, l);
		struct val_result res;
		int r = ds_denial(bag, a, &res);
		if (r < 0)
			return NULL;
		if (r && res.kind == VAL_KIND_NODATA &&
		    ((res.verdict.status == VAL_SECURE &&
		      res.denial.delegation) ||
		     (res.verdict.status == VAL_INSECURE &&
		      res.denial.optout && !res.denial.wildcard)))
			return zone_keys(bag, a);
	}
	return ks;
}

void val_bag_keysource(struct val_bag *bag, struct val_keysource *src)
{
	src->zone_keys = zone_keys;
	src->name_keys = name_keys;
	src->arg = bag;
}
