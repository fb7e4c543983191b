/* SPDX-License-Identifier: MIT */
/*
 * Key sets (RFC 4035 §5.2): a zone's DNSKEY RRset is trusted when a key
 * designated by a validated DS record (or equal to a configured DNSKEY
 * trust anchor) signed it; then every zone key of the RRset is trusted.
 *
 * Steps, shared by both entry points:
 *   1. sanity of the DNSKEY RRset (present, owned by the zone, bounded);
 *   2. the trusted keys: DNSKEYs matching a usable DS (RFC 4509 applied)
 *      or an anchor, each a zone key, not revoked, parsed once;
 *   3. val_rrset_verify() of the DNSKEY RRset with a temporary key set of
 *      only those keys;
 *   4. the final key set: every zone key of the RRset (not revoked,
 *      supported algorithm, parseable), trusted ones reused, not parsed
 *      twice.
 * Only DNSKEY records whose tag and algorithm match a DS are hashed, at
 * most keys_per_tag per DS, so a flood of colliding keys costs little.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/alg.h"
#include "crypto/ds.h"
#include "crypto/key.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* DNSKEY RDATA: flags (2), protocol (1), algorithm (1), key. DS RDATA: key
 * tag (2), algorithm (1), digest type (1), digest. */
#define DNSKEY_HDRLEN	4
#define DNSKEY_PROTOCOL 3
#define DS_HDRLEN	4

/* DS records or keys named in one reason; more are shown as "...". */
#define LIST_MAX 4

/* Why a DNSKEY that matched a DS or anchor could not be trusted. */
enum untrusted {
	UNTRUSTED_NONE = 0,
	UNTRUSTED_NOT_ZONE,
	UNTRUSTED_REVOKED,
	UNTRUSTED_PARSE, /* crypto_key_new() refused it: see parse_err */
};

/* The state of one key-set build. */
struct ks_build {
	struct val_ctx *ctx;
	const uint8_t *zone;
	const struct val_rrset *dnskeys;
	char zname[DT_NAME_TEXT_MAXLEN];
	struct arena arena;
	uint16_t *tags;		  /* key tag of each DNSKEY */
	struct crypto_key **keys; /* parsed on need; index as dnskeys->rrs */
	bool *trusted;		  /* matched a DS or an anchor, usable */
	size_t ntrusted;
	/* The first matching key that could not be trusted, and why. */
	enum untrusted why;
	int parse_err;
	uint16_t why_tag;
	uint8_t why_alg;
};

static const struct wire_rr *dnskey_rr(const struct ks_build *b, size_t i)
{
	return b->dnskeys->rrs[i];
}

/* --- the build's memory --- */

static int build_init(struct ks_build *b, struct val_ctx *ctx,
		      const uint8_t *zone, const struct val_rrset *dnskeys)
{
	size_t n = dnskeys ? dnskeys->n : 0;

	memset(b, 0, sizeof(*b));
	b->ctx = ctx;
	b->zone = zone;
	b->dnskeys = dnskeys;
	arena_init(&b->arena, 0);
	wire_dname_to_str(zone, b->zname, sizeof(b->zname));
	uint16_t *tags = arena_alloc(&b->arena, (n + 1) * sizeof(*tags));
	struct crypto_key **keys =
		arena_alloc(&b->arena, (n + 1) * sizeof(*keys));
	bool *trusted = arena_alloc(&b->arena, (n + 1) * sizeof(*trusted));

	if (!tags || !keys || !trusted)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct wire_rr *rr = dnskey_rr(b, i);
		tags[i] = wire_keytag(rr->rdata, rr->rdlen);
		keys[i] = NULL;
		trusted[i] = false;
	}
	/* Set only now: build_cleanup() frees what b->keys holds. */
	b->tags = tags;
	b->keys = keys;
	b->trusted = trusted;
	return 0;
}

/* Frees the parsed keys not handed over to a key set, and the arena. */
static void build_cleanup(struct ks_build *b)
{
	if (b->keys && b->dnskeys) {
		for (size_t i = 0; i < b->dnskeys->n; i++)
			crypto_key_free(b->keys[i]);
	}
	arena_free(&b->arena);
}

/* --- step 1: the DNSKEY RRset --- */

/* False with *v written when the RRset cannot be this zone's keys. */
static bool dnskeys_ok(const struct ks_build *b, struct val_verdict *v)
{
	const struct val_rrset *set = b->dnskeys;

	if (!set || set->n == 0)
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"ks-no-dnskey", "no DNSKEY RRset for %s",
				b->zname);
	else if (set->type != WIRE_TYPE_DNSKEY ||
		 !wire_dname_equal(set->owner, b->zone))
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"ks-wrong-rrset",
				"the RRset given as DNSKEYs of %s is not "
				"%s/DNSKEY",
				b->zname, b->zname);
	else if (set->n > b->ctx->lim.rrs_per_rrset)
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"ks-too-many-dnskeys",
				"the DNSKEY RRset of %s has %zu records, over "
				"the limit of %u",
				b->zname, set->n, b->ctx->lim.rrs_per_rrset);
	else
		return true;
	return false;
}

/* --- step 2: trusted keys --- */

/* Parses DNSKEY i once. Returns 0 or crypto_key_new()'s error. */
static int key_parse(struct ks_build *b, size_t i)
{
	const struct wire_rr *rr = dnskey_rr(b, i);

	if (b->keys[i])
		return 0;
	return crypto_key_new(rr->rdata, rr->rdlen, &b->keys[i]);
}

static void note_untrusted(struct ks_build *b, size_t i, enum untrusted why,
			   int err)
{
	if (b->why != UNTRUSTED_NONE)
		return;
	b->why = why;
	b->parse_err = err;
	b->why_tag = b->tags[i];
	b->why_alg = dnskey_rr(b, i)->rdata[3];
}

/* DNSKEY i matched a DS or an anchor: trust it if it is a usable zone
 * key. Returns 0 or -ENOMEM. */
static int key_trust(struct ks_build *b, size_t i)
{
	const struct wire_rr *rr = dnskey_rr(b, i);
	uint16_t flags = wire_get16(rr->rdata);

	if (b->trusted[i])
		return 0;
	if (!(flags & CRYPTO_KEY_FLAG_ZONE)) {
		note_untrusted(b, i, UNTRUSTED_NOT_ZONE, 0);
		return 0;
	}
	if (flags & CRYPTO_KEY_FLAG_REVOKE) {
		note_untrusted(b, i, UNTRUSTED_REVOKED, 0);
		return 0;
	}
	int r = key_parse(b, i);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		note_untrusted(b, i, UNTRUSTED_PARSE, r);
		return 0;
	}
	b->trusted[i] = true;
	b->ntrusted++;
	return 0;
}

/* A DS this validator can check: supported algorithm and digest type. */
static bool ds_supported(const struct wire_rr *ds)
{
	return ds->rdlen > DS_HDRLEN && crypto_alg_supported(ds->rdata[2]) &&
	       crypto_ds_digest_supported(ds->rdata[3]);
}

/* RFC 4509 §3: a SHA-1 DS is ignored when a DS with a stronger supported
 * digest exists for the same key (tag and algorithm). */
static bool ds_usable(const struct wire_rr *const *ds, size_t nds, size_t i)
{
	if (!ds_supported(ds[i]))
		return false;
	if (ds[i]->rdata[3] != CRYPTO_DS_SHA1)
		return true;
	for (size_t j = 0; j < nds; j++) {
		if (ds_supported(ds[j]) && ds[j]->rdata[3] != CRYPTO_DS_SHA1 &&
		    memcmp(ds[j]->rdata, ds[i]->rdata, 3) == 0)
			return false;
	}
	return true;
}

/* Trusts the DNSKEYs one DS designates, hashing at most keys_per_tag
 * candidates with the DS's tag and algorithm. Returns 0 or -ENOMEM. */
static int match_one_ds(struct ks_build *b, const struct wire_rr *ds)
{
	uint16_t tag = wire_get16(ds->rdata);
	unsigned tried = 0;

	for (size_t i = 0; i < b->dnskeys->n; i++) {
		const struct wire_rr *rr = dnskey_rr(b, i);
		if (rr->rdlen < DNSKEY_HDRLEN || b->tags[i] != tag ||
		    rr->rdata[3] != ds->rdata[2])
			continue;
		if (tried++ >= b->ctx->lim.keys_per_tag)
			break;
		int r = crypto_ds_match(b->zone, rr->rdata, rr->rdlen,
					ds->rdata, ds->rdlen);
		if (r == -ENOMEM)
			return r;
		if (r == 1 && key_trust(b, i) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* --- verdicts --- */

/* Appends " 12345/8/2" style items of a DS list to buf. */
static void ds_list(const struct wire_rr *const *ds, size_t nds, char *buf,
		    size_t buflen)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nds && len < buflen; i++) {
		if (i == LIST_MAX) {
			snprintf(buf + len, buflen - len, ", ...");
			return;
		}
		if (ds[i]->rdlen < DS_HDRLEN)
			continue;
		int r = snprintf(buf + len, buflen - len, "%s%u/%u/%u",
				 len ? ", " : "", wire_get16(ds[i]->rdata),
				 ds[i]->rdata[2], ds[i]->rdata[3]);
		if (r < 0)
			return;
		len += (size_t)r;
	}
}

/* No DS can be checked here: insecure, EDE 2 when some DS had a supported
 * algorithm (its digest type is the obstacle), else EDE 1. */
static void ds_unsupported(const struct ks_build *b,
			   const struct wire_rr *const *ds, size_t nds,
			   struct val_verdict *v)
{
	char list[128];
	bool alg_ok = false;

	for (size_t i = 0; i < nds; i++)
		alg_ok |= ds[i]->rdlen > DS_HDRLEN &&
			  crypto_alg_supported(ds[i]->rdata[2]);
	ds_list(ds, nds, list, sizeof(list));
	if (alg_ok)
		val_verdict_set(v, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_DS_DIGEST,
				"ks-ds-digest-unsupported",
				"the DS records of %s (%s) use only digest "
				"types not supported here: the zone is treated "
				"as unsigned",
				b->zname, list);
	else
		val_verdict_set(v, VAL_INSECURE,
				WIRE_EDE_UNSUPPORTED_DNSKEY_ALG,
				"ks-ds-alg-unsupported",
				"the DS records of %s (%s) name only DNSKEY "
				"algorithms not supported here: the zone is "
				"treated as unsigned",
				b->zname, list);
}

/* No DNSKEY could be trusted; what says most. what is "its DS (...)" or
 * "a trust anchor". */
static void untrusted_verdict(const struct ks_build *b, const char *what,
			      struct val_verdict *v)
{
	switch (b->why) {
	case UNTRUSTED_NOT_ZONE:
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_NO_ZONE_KEY_BIT,
				"ks-match-not-zone-key",
				"DNSKEY %u (alg %u) of %s matches %s but lacks "
				"the Zone Key flag",
				b->why_tag, b->why_alg, b->zname, what);
		break;
	case UNTRUSTED_REVOKED:
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"ks-match-revoked",
				"DNSKEY %u (alg %u) of %s matches %s but is "
				"revoked (RFC 5011)",
				b->why_tag, b->why_alg, b->zname, what);
		break;
	case UNTRUSTED_PARSE:
		val_verdict_set(
			v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
			"ks-match-unusable",
			"DNSKEY %u (alg %u) of %s matches %s but cannot "
			"be used: %s",
			b->why_tag, b->why_alg, b->zname, what,
			errcode_str(b->parse_err));
		break;
	case UNTRUSTED_NONE:
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"ks-no-match", "no DNSKEY of %s matches %s",
				b->zname, what);
		break;
	}
}

/* " 9465/5, 38519/5": the trusted keys, for reasons. */
static void trusted_list(const struct ks_build *b, char *buf, size_t buflen)
{
	size_t len = 0, shown = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < b->dnskeys->n && len < buflen; i++) {
		if (!b->trusted[i])
			continue;
		if (shown++ == LIST_MAX) {
			snprintf(buf + len, buflen - len, ", ...");
			return;
		}
		int r = snprintf(buf + len, buflen - len, "%s%u/%u",
				 len ? ", " : "", b->tags[i],
				 dnskey_rr(b, i)->rdata[3]);
		if (r < 0)
			return;
		len += (size_t)r;
	}
}

/* --- steps 3 and 4 --- */

/* Verifies the DNSKEY RRset with only the trusted keys. Returns 0 (the
 * outcome in *v and *info) or -ENOMEM. */
static int verify_self(struct ks_build *b, const char *by,
		       struct val_sig_info *info, struct val_verdict *v)
{
	struct crypto_key **keys =
		arena_alloc(&b->arena, b->ntrusted * sizeof(*keys));
	struct val_keyset tmp = {.nkeys = 0};
	char list[96];

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < b->dnskeys->n; i++) {
		if (b->trusted[i])
			keys[tmp.nkeys++] = b->keys[i];
	}
	wire_dname_copy(tmp.zone, b->zone);
	val_verdict_secure(&tmp.verdict);
	tmp.keys = keys;
	int r = val_rrset_verify(b->ctx, b->dnskeys, &tmp, info, v);
	if (r < 0 || v->status == VAL_SECURE ||
	    v->ede != WIRE_EDE_DNSKEY_MISSING)
		return r;
	/* Every trusted key is usable: EDE 9 means the RRSIGs are by other
	 * keys, which the DS or anchors do not vouch for. */
	trusted_list(b, list, sizeof(list));
	val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
			"ks-not-signed-by-trusted",
			"the DNSKEY RRset of %s has no RRSIG by a key %s (%s)",
			b->zname, by, list);
	return 0;
}

/* A zone key the final set may hold (RFC 4034 §2.1.1, RFC 5011). */
static bool zone_key_candidate(const struct wire_rr *rr)
{
	uint16_t flags;

	if (rr->rdlen < DNSKEY_HDRLEN)
		return false;
	flags = wire_get16(rr->rdata);
	return (flags & CRYPTO_KEY_FLAG_ZONE) &&
	       !(flags & CRYPTO_KEY_FLAG_REVOKE) &&
	       rr->rdata[2] == DNSKEY_PROTOCOL &&
	       crypto_alg_supported(rr->rdata[3]);
}

static bool key_taken(struct crypto_key *const *keys, size_t n,
		      const struct wire_rr *rr)
{
	for (size_t k = 0; k < n; k++) {
		size_t len;
		const uint8_t *rdata = crypto_key_rdata(keys[k], &len);
		if (len == rr->rdlen && memcmp(rdata, rr->rdata, len) == 0)
			return true;
	}
	return false;
}

/* Moves every usable zone key into a new array (malloc'd, as
 * val_keyset_free() expects). Keys that do not parse are skipped. Returns
 * the count or -ENOMEM. */
static int collect_keys(struct ks_build *b, struct crypto_key ***ret)
{
	struct crypto_key **keys = malloc(b->dnskeys->n * sizeof(*keys));
	size_t n = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < b->dnskeys->n; i++) {
		const struct wire_rr *rr = dnskey_rr(b, i);
		if (!zone_key_candidate(rr) || key_taken(keys, n, rr))
			continue;
		int r = key_parse(b, i);
		if (r == -ENOMEM) {
			free(keys);
			return r;
		}
		if (r < 0)
			continue;
		keys[n++] = b->keys[i];
	}
	/* Handed over only now, so that a failure above frees them all. */
	for (size_t k = 0, i = 0; k < n; i++) {
		if (b->keys[i] == keys[k]) {
			b->keys[i] = NULL;
			k++;
		}
	}
	*ret = keys;
	return (int)n;
}

/* Steps 3 and 4: writes the outcome to *ks. Returns 0 or -ENOMEM. */
static int finish(struct ks_build *b, const char *by, uint32_t ttl_cap,
		  struct val_keyset *ks)
{
	struct val_sig_info info;
	struct val_verdict v;
	struct crypto_key **keys;

	int r = verify_self(b, by, &info, &v);
	if (r < 0)
		return r;
	if (v.status != VAL_SECURE) {
		val_keyset_from_verdict(ks, b->zone, &v, 0);
		return 0;
	}
	r = collect_keys(b, &keys);
	if (r < 0)
		return r;
	val_keyset_from_verdict(ks, b->zone, &v,
				info.ttl < ttl_cap ? info.ttl : ttl_cap);
	ks->keys = keys;
	ks->nkeys = (size_t)r;
	return 0;
}

/* --- entry points --- */

static int from_ds(struct ks_build *b, const struct wire_rr *const *ds,
		   size_t nds, uint32_t ds_ttl, struct val_keyset *ks)
{
	char list[128], by[160];
	struct val_verdict v;
	bool any = false;

	if (nds == 0) {
		val_verdict_set(
			&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "ks-no-ds",
			"no DS records given to authenticate %s", b->zname);
		val_keyset_from_verdict(ks, b->zone, &v, 0);
		return 0;
	}
	for (size_t i = 0; i < nds; i++)
		any |= ds_supported(ds[i]);
	if (!any) {
		ds_unsupported(b, ds, nds, &v);
		val_keyset_from_verdict(ks, b->zone, &v, ds_ttl);
		return 0;
	}
	if (!dnskeys_ok(b, &v)) {
		val_keyset_from_verdict(ks, b->zone, &v, 0);
		return 0;
	}
	for (size_t i = 0; i < nds; i++) {
		if (ds_usable(ds, nds, i) && match_one_ds(b, ds[i]) < 0)
			return -ENOMEM;
	}
	ds_list(ds, nds, list, sizeof(list));
	snprintf(by, sizeof(by), "its DS (%s)", list);
	if (b->ntrusted == 0) {
		untrusted_verdict(b, by, &v);
		val_keyset_from_verdict(ks, b->zone, &v, 0);
		return 0;
	}
	return finish(b, "its DS designates", ds_ttl, ks);
}

int val_keyset_from_ds(struct val_ctx *ctx, const uint8_t *zone,
		       const struct val_rrset *dnskeys,
		       const struct wire_rr *const *ds, size_t nds,
		       uint32_t ds_ttl, struct val_keyset *ks)
{
	struct ks_build b __attribute__((cleanup(build_cleanup)));
	struct val_keyset out;

	if (build_init(&b, ctx, zone, dnskeys) < 0)
		return -ENOMEM;
	int r = from_ds(&b, ds, nds, ds_ttl, &out);
	if (r < 0)
		return r;
	*ks = out;
	return 0;
}

/* A DNSKEY anchor that can vouch for keys: a zone key, not revoked
 * (RFC 5011 §2.1), protocol 3, supported algorithm. */
static bool anchor_usable(const struct wire_rr *a)
{
	return a->type == WIRE_TYPE_DNSKEY && zone_key_candidate(a);
}

/* No anchor is usable: insecure when the only obstacle is algorithms
 * not supported here (RFC 4035 §5.2 applied to anchors), else bogus. */
static void anchors_unusable(const struct ks_build *b,
			     const struct wire_rr *const *anchors, size_t n,
			     struct val_verdict *v)
{
	bool alg_ok = false, dnskey = false;

	for (size_t i = 0; i < n; i++) {
		const struct wire_rr *a = anchors[i];
		if (a->type != WIRE_TYPE_DNSKEY || a->rdlen < DNSKEY_HDRLEN)
			continue;
		dnskey = true;
		alg_ok |= crypto_alg_supported(a->rdata[3]);
	}
	if (!dnskey)
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"ks-no-anchor",
				"no DNSKEY trust anchors given to authenticate "
				"%s",
				b->zname);
	else if (alg_ok)
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"ks-anchor-unusable",
				"the DNSKEY trust anchors of %s are revoked or "
				"not zone keys",
				b->zname);
	else
		val_verdict_set(v, VAL_INSECURE,
				WIRE_EDE_UNSUPPORTED_DNSKEY_ALG,
				"ks-anchor-alg-unsupported",
				"the DNSKEY trust anchors of %s use only "
				"algorithms not supported here: the zone is "
				"treated as unsigned",
				b->zname);
}

static int match_anchors(struct ks_build *b,
			 const struct wire_rr *const *anchors, size_t n)
{
	for (size_t i = 0; i < b->dnskeys->n; i++) {
		const struct wire_rr *rr = dnskey_rr(b, i);
		for (size_t a = 0; a < n; a++) {
			if (!anchor_usable(anchors[a]) ||
			    anchors[a]->rdlen != rr->rdlen ||
			    memcmp(anchors[a]->rdata, rr->rdata, rr->rdlen))
				continue;
			if (key_trust(b, i) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static int from_anchor(struct ks_build *b, const struct wire_rr *const *anchors,
		       size_t n, struct val_keyset *ks)
{
	struct val_verdict v;
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= anchor_usable(anchors[i]);
	if (!any) {
		anchors_unusable(b, anchors, n, &v);
		val_keyset_from_verdict(ks, b->zone, &v,
					v.status == VAL_INSECURE ? UINT32_MAX
								 : 0);
		return 0;
	}
	if (!dnskeys_ok(b, &v)) {
		val_keyset_from_verdict(ks, b->zone, &v, 0);
		return 0;
	}
	if (match_anchors(b, anchors, n) < 0)
		return -ENOMEM;
	if (b->ntrusted == 0) {
		untrusted_verdict(b, "a trust anchor", &v);
		val_keyset_from_verdict(ks, b->zone, &v, 0);
		return 0;
	}
	return finish(b, "configured as trust anchor", UINT32_MAX, ks);
}

int val_keyset_from_dnskey_anchor(struct val_ctx *ctx, const uint8_t *zone,
				  const struct val_rrset *dnskeys,
				  const struct wire_rr *const *anchors,
				  size_t nanchors, struct val_keyset *ks)
{
	struct ks_build b __attribute__((cleanup(build_cleanup)));
	struct val_keyset out;

	if (build_init(&b, ctx, zone, dnskeys) < 0)
		return -ENOMEM;
	int r = from_anchor(&b, anchors, nanchors, &out);
	if (r < 0)
		return r;
	*ks = out;
	return 0;
}

void val_keyset_from_verdict(struct val_keyset *ks, const uint8_t *zone,
			     const struct val_verdict *v, uint32_t ttl)
{
	memset(ks, 0, sizeof(*ks));
	wire_dname_copy(ks->zone, zone);
	ks->verdict = *v;
	ks->ttl = ttl;
}
