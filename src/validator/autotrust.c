/* SPDX-License-Identifier: MIT */
/*
 * The RFC 5011 state machine (autotrust.h says what it does; the state
 * file is in autotrust_file.c).
 *
 * Keys are told apart by everything but the REVOKE bit: flags with that
 * bit cleared, protocol, algorithm and public key. The revoked form of a
 * key is therefore the same key (with another key tag, RFC 5011 §2.1),
 * and a REVOKED or REMOVED key seen again without the bit stays where it
 * is: revocation is permanent.
 *
 * One update, in order: revocations (checked whether or not the RRset
 * validates), then for a validated RRset the DS anchors, the keys present
 * and the keys absent, then the remove hold-down, then the schedule.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "crypto/ds.h"
#include "crypto/key.h"
#include "validator/anchor.h"
#include "validator/autotrust.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* RFC 5011 §2.3: never more often than hourly, at least every 15 days;
 * after a failure, retried at most hourly and at least daily. */
#define AT_QUERY_MIN 3600
#define AT_QUERY_MAX (15 * 86400)
#define AT_RETRY_MAX 86400
/* RFC 5011 §2.4.1: a new key must be in at least two validated RRsets. */
#define AT_MIN_SIGHTINGS 2

#define DNSKEY_PROTOCOL 3
/* RRSIG RDATA offsets (RFC 4034 §3.1). */
#define RRSIG_OFF_OTTL	 4
#define RRSIG_OFF_EXP	 8
#define RRSIG_OFF_SIGNER 18

static const char *const state_names[] = {
	[VAL_AT_START] = "START",     [VAL_AT_ADDPEND] = "ADDPEND",
	[VAL_AT_VALID] = "VALID",     [VAL_AT_MISSING] = "MISSING",
	[VAL_AT_REVOKED] = "REVOKED", [VAL_AT_REMOVED] = "REMOVED",
};

const char *val_at_state_name(enum val_at_state state)
{
	if ((unsigned)state < sizeof(state_names) / sizeof(state_names[0]))
		return state_names[state];
	return "?";
}

void val_at_policy_default(struct val_at_policy *pol)
{
	pol->add_holddown = DT_AT_HOLDDOWN;
	pol->remove_holddown = DT_AT_HOLDDOWN;
}

/* --- keys --- */

static bool trusted(const struct val_at_key *k)
{
	return k->state == VAL_AT_VALID || k->state == VAL_AT_MISSING;
}

bool val_at_point_trusted(const struct val_at_point *tp)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		if (trusted(&tp->keys[i]))
			return true;
	}
	return false;
}

uint16_t val_at_key_tag(const struct val_at_key *k)
{
	if (k->type == WIRE_TYPE_DS)
		return wire_get16(k->rdata);
	return wire_keytag(k->rdata, k->rdlen);
}

struct wire_rr val_at_key_rr(const struct val_at_point *tp,
			     const struct val_at_key *k)
{
	return (struct wire_rr){.owner = tp->zone,
				.type = k->type,
				.rclass = WIRE_CLASS_IN,
				.ttl = k->ttl,
				.rdlen = k->rdlen,
				.rdata = k->rdata};
}

/* The same key, the REVOKE bit aside. */
static bool same_key(const uint8_t *a, size_t alen, const uint8_t *b,
		     size_t blen)
{
	return alen == blen && alen >= 4 && a[0] == b[0] &&
	       (a[1] | CRYPTO_KEY_FLAG_REVOKE) ==
		       (b[1] | CRYPTO_KEY_FLAG_REVOKE) &&
	       memcmp(a + 2, b + 2, alen - 2) == 0;
}

static struct val_at_key *key_find(struct val_at_point *tp,
				   const struct wire_rr *rr)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->type == WIRE_TYPE_DNSKEY &&
		    same_key(k->rdata, k->rdlen, rr->rdata, rr->rdlen))
			return k;
	}
	return NULL;
}

static void key_set_rdata(struct val_at_key *k, const struct wire_rr *rr)
{
	k->type = rr->type;
	k->ttl = rr->ttl;
	k->rdlen = rr->rdlen;
	memcpy(k->rdata, rr->rdata, rr->rdlen);
}

/* The entry to forget when the table is full: a START key (never
 * trusted), else the REMOVED key removed longest ago. */
static struct val_at_key *key_victim(struct val_at_point *tp)
{
	struct val_at_key *best = NULL;

	for (size_t i = 0; i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->state == VAL_AT_START)
			return k;
		if (k->state == VAL_AT_REMOVED &&
		    (!best || k->changed < best->changed))
			best = k;
	}
	return best;
}

/* A fresh entry for rr (owned by the caller to fill in), or NULL when the
 * key is too large or no entry can be had. */
static struct val_at_key *key_new(struct val_at_point *tp,
				  const struct wire_rr *rr)
{
	struct val_at_key *k;

	if (rr->rdlen > DT_AT_KEY_MAXLEN)
		return NULL;
	k = tp->nkeys < DT_AT_MAX_KEYS ? &tp->keys[tp->nkeys++]
				       : key_victim(tp);
	if (!k)
		return NULL;
	memset(k, 0, sizeof(*k));
	key_set_rdata(k, rr);
	return k;
}

static void key_remove(struct val_at_point *tp, size_t i)
{
	memmove(&tp->keys[i], &tp->keys[i + 1],
		(tp->nkeys - i - 1) * sizeof(tp->keys[0]));
	tp->nkeys--;
}

/* --- events --- */

static void event(struct val_at_result *res, const struct val_at_key *k,
		  enum val_at_state from, bool from_ds, uint16_t prev_tag)
{
	struct val_at_event *e;

	if (res->nevents == sizeof(res->events) / sizeof(res->events[0]))
		return;
	e = &res->events[res->nevents++];
	e->tag = val_at_key_tag(k);
	e->prev_tag = prev_tag;
	e->alg = k->type == WIRE_TYPE_DS ? k->rdata[2] : k->rdata[3];
	e->from = from;
	e->to = k->state;
	e->from_ds = from_ds;
	e->hold_until = k->hold_until;
}

/* Moves k to state at now, and says so; prev_tag is its tag before. */
static void key_move_tag(struct val_at_key *k, enum val_at_state to,
			 int64_t now, uint16_t prev_tag,
			 struct val_at_result *res)
{
	enum val_at_state from = k->state;

	k->state = to;
	k->changed = now;
	if (to != VAL_AT_ADDPEND) {
		k->hold_until = 0;
		k->count = 0;
	}
	event(res, k, from, false, prev_tag);
}

static void key_move(struct val_at_key *k, enum val_at_state to, int64_t now,
		     struct val_at_result *res)
{
	key_move_tag(k, to, now, val_at_key_tag(k), res);
}

/* --- the DNSKEY RRset --- */

/* What the records of the RRset are to this module. */
static bool zone_key(const struct wire_rr *rr)
{
	return rr->rdlen >= 4 &&
	       (wire_get16(rr->rdata) & CRYPTO_KEY_FLAG_ZONE) &&
	       rr->rdata[2] == DNSKEY_PROTOCOL;
}

static bool revoked(const struct wire_rr *rr)
{
	return wire_get16(rr->rdata) & CRYPTO_KEY_FLAG_REVOKE;
}

static bool sep(const struct wire_rr *rr)
{
	return wire_get16(rr->rdata) & CRYPTO_KEY_FLAG_SEP;
}

/* Whether a non-revoked zone key of the RRset is k. */
static bool present(const struct val_rrset *set, const struct val_at_key *k)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct wire_rr *rr = set->rrs[i];
		if (zone_key(rr) && !revoked(rr) &&
		    same_key(rr->rdata, rr->rdlen, k->rdata, k->rdlen))
			return true;
	}
	return false;
}

/* The RRSIGs over the RRset by its own zone: the smallest original TTL
 * and the least time left before one expires (none left: the RRset's
 * TTL). Shorter means more queries, never fewer, so RRSIGs an attacker
 * adds can only make us ask more often (and never more than hourly). */
static void rrsig_times(const struct val_rrset *set, int64_t now,
			uint32_t *ret_ttl, uint32_t *ret_left)
{
	uint32_t ttl = UINT32_MAX, left = UINT32_MAX;

	for (size_t i = 0; i < set->nsigs; i++) {
		const struct wire_rr *sig = set->sigs[i];
		if (sig->rdlen <= RRSIG_OFF_SIGNER ||
		    wire_dname_check(sig->rdata + RRSIG_OFF_SIGNER,
				     sig->rdata + sig->rdlen) < 0 ||
		    !wire_dname_equal(sig->rdata + RRSIG_OFF_SIGNER,
				      set->owner))
			continue;
		uint32_t ottl = wire_get32(sig->rdata + RRSIG_OFF_OTTL);
		int64_t exp = val_time_abs(
			wire_get32(sig->rdata + RRSIG_OFF_EXP), now);
		if (ottl < ttl)
			ttl = ottl;
		if (exp > now && exp - now < (int64_t)left)
			left = (uint32_t)(exp - now);
	}
	*ret_ttl = ttl == UINT32_MAX ? set->ttl : ttl;
	*ret_left = left == UINT32_MAX ? set->ttl : left;
}

static uint32_t clamp(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static uint32_t min3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* --- validation --- */

/* The trusted keys of tp as records, DNSKEYs and DS apart. */
struct trusted_set {
	struct wire_rr rrs[DT_AT_MAX_KEYS];
	const struct wire_rr *dnskey[DT_AT_MAX_KEYS], *ds[DT_AT_MAX_KEYS];
	size_t ndnskey, nds;
};

static void trusted_collect(const struct val_at_point *tp,
			    struct trusted_set *t)
{
	t->ndnskey = t->nds = 0;
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];
		if (!trusted(k))
			continue;
		t->rrs[i] = val_at_key_rr(tp, k);
		if (k->type == WIRE_TYPE_DS)
			t->ds[t->nds++] = &t->rrs[i];
		else
			t->dnskey[t->ndnskey++] = &t->rrs[i];
	}
}

/* Whether a trusted key of tp signed the RRset: *v secure, or why not.
 * Returns 0 or -ENOMEM. */
static int validate(struct val_ctx *ctx, const struct val_at_point *tp,
		    const struct val_rrset *set, struct val_verdict *v)
{
	struct trusted_set t;
	struct val_keyset ks;
	int r = 0;

	trusted_collect(tp, &t);
	if (!t.ndnskey && !t.nds) {
		char zone[DT_NAME_TEXT_MAXLEN];
		wire_dname_to_str(tp->zone, zone, sizeof(zone));
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"at-no-trusted-key",
				"trust point %s has no trusted key left: every "
				"one was revoked",
				zone);
		return 0;
	}
	if (t.ndnskey) {
		r = val_keyset_from_dnskey_anchor(ctx, tp->zone, set, t.dnskey,
						  t.ndnskey, &ks);
		if (r < 0)
			return r;
		*v = ks.verdict;
		val_keyset_free(&ks);
		if (v->status == VAL_SECURE || !t.nds)
			return 0;
	}
	r = val_keyset_from_ds(ctx, tp->zone, set, t.ds, t.nds, UINT32_MAX,
			       &ks);
	if (r < 0)
		return r;
	*v = ks.verdict;
	val_keyset_free(&ks);
	return 0;
}

/* --- revocation (§2.1) --- */

/* Whether the revoked key rr signed the RRset. Returns 1, 0 or -ENOMEM. */
static int self_signed(struct val_ctx *ctx, const uint8_t *zone,
		       const struct val_rrset *set, const struct wire_rr *rr)
{
	struct crypto_key *key;
	struct val_keyset ks = {.nkeys = 1};
	struct val_verdict v;

	int r = crypto_key_new(rr->rdata, rr->rdlen, &key);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0; /* unsupported or malformed: cannot sign */
	wire_dname_copy(ks.zone, zone);
	val_verdict_secure(&ks.verdict);
	ks.keys = &key;
	r = val_rrset_verify_revocation(ctx, set, &ks, &v);
	crypto_key_free(key);
	if (r < 0)
		return r;
	return v.status == VAL_SECURE;
}

/* The DS anchor of tp designating the key rr would be without its REVOKE
 * bit (a revocation of a key configured as DS), or NULL. */
static struct val_at_key *ds_find_revoked(struct val_at_point *tp,
					  const struct wire_rr *rr)
{
	uint8_t plain[DT_AT_KEY_MAXLEN];
	uint16_t tag;

	if (rr->rdlen > sizeof(plain))
		return NULL;
	memcpy(plain, rr->rdata, rr->rdlen);
	plain[1] &= (uint8_t)~CRYPTO_KEY_FLAG_REVOKE;
	tag = wire_keytag(plain, rr->rdlen);
	for (size_t i = 0; i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		/* Tag and algorithm first: only a likely match is hashed. */
		if (k->type == WIRE_TYPE_DS && wire_get16(k->rdata) == tag &&
		    k->rdata[2] == plain[3] &&
		    crypto_ds_match(tp->zone, plain, rr->rdlen, k->rdata,
				    k->rdlen) == 1)
			return k;
	}
	return NULL;
}

/* One record of the RRset with the REVOKE bit: the key it revokes. */
static int revoke_one(struct val_ctx *ctx, struct val_at_point *tp,
		      const struct val_rrset *set, const struct wire_rr *rr,
		      bool validated, struct val_at_result *res)
{
	struct val_at_key *k = key_find(tp, rr);

	if (!k)
		k = ds_find_revoked(tp, rr);
	if (k && (k->state == VAL_AT_REVOKED || k->state == VAL_AT_REMOVED))
		return 0;
	/* A key never seen is worth recording (so that it cannot be added
	 * later) only from an RRset a trusted key signed. */
	if (!k && (!validated || !sep(rr) || rr->rdlen > DT_AT_KEY_MAXLEN))
		return 0;
	int r = self_signed(ctx, tp->zone, set, rr);
	if (r <= 0)
		return r;
	if (!k) {
		k = key_new(tp, rr);
		if (!k) {
			res->ignored++;
			return 0;
		}
		k->state = VAL_AT_START;
		k->first_seen = ctx->now;
	}
	uint16_t prev = val_at_key_tag(k);
	key_set_rdata(k, rr);
	key_move_tag(k, VAL_AT_REVOKED, ctx->now, prev, res);
	return 0;
}

static int revocations(struct val_ctx *ctx, struct val_at_point *tp,
		       const struct val_rrset *set, bool validated,
		       struct val_at_result *res)
{
	/* Validation refused it already; no work for an oversized RRset. */
	if (set->n > ctx->lim.rrs_per_rrset)
		return 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct wire_rr *rr = set->rrs[i];
		if (!zone_key(rr) || !revoked(rr))
			continue;
		int r = revoke_one(ctx, tp, set, rr, validated, res);
		if (r < 0)
			return r;
	}
	return 0;
}

/* --- a validated RRset (§2.4) --- */

/* Each DS anchor becomes the DNSKEYs it designates; then it is dropped.
 * Returns 0 or -ENOMEM. */
static int ds_convert(struct val_at_point *tp, const struct val_rrset *set,
		      int64_t now, struct val_at_result *res)
{
	for (size_t i = 0; i < tp->nkeys;) {
		struct val_at_key *d = &tp->keys[i];
		bool matched = false;

		if (d->type != WIRE_TYPE_DS) {
			i++;
			continue;
		}
		for (size_t j = 0; j < set->n; j++) {
			const struct wire_rr *rr = set->rrs[j];
			if (!zone_key(rr) || revoked(rr) ||
			    wire_keytag(rr->rdata, rr->rdlen) !=
				    wire_get16(d->rdata) ||
			    rr->rdata[3] != d->rdata[2])
				continue;
			int r = crypto_ds_match(tp->zone, rr->rdata, rr->rdlen,
						d->rdata, d->rdlen);
			if (r == -ENOMEM)
				return r;
			if (r != 1 || rr->rdlen > DT_AT_KEY_MAXLEN)
				continue;
			matched = true;
			if (key_find(tp, rr))
				continue;
			/* Takes d's place: the DS is done with. */
			struct val_at_key *k = d;
			key_set_rdata(k, rr);
			k->changed = now;
			event(res, k, VAL_AT_VALID, true, val_at_key_tag(k));
			break;
		}
		if (d->type == WIRE_TYPE_DS) {
			if (!matched) {
				d->state = VAL_AT_REMOVED;
				event(res, d, VAL_AT_VALID, true,
				      val_at_key_tag(d));
			}
			key_remove(tp, i);
			continue;
		}
		i++;
	}
	return 0;
}

/* AddTime (§4.2): the add hold-down has ended for k, of ADDPEND, and it
 * was in at least two validated RRsets (§2.4.1). */
static bool add_time(const struct val_at_key *k, int64_t now)
{
	return now >= k->hold_until && k->count >= AT_MIN_SIGHTINGS;
}

/*
 * AddTime is an event of time (§4.2): a key of ADDPEND whose hold-down
 * has ended, having been in every validated RRset since it was first
 * seen (else KeyRem took it back to START), is VALID before the RRset at
 * hand is validated. Otherwise a zone that drops its old key once the new
 * one's hold-down is over (RFC 7583 §3.3.4) would have no trusted key
 * left for a resolver that did not ask in between, and its trust point
 * would be lost.
 */
static void add_times(struct val_at_point *tp, int64_t now,
		      struct val_at_result *res)
{
	/* A deleted point (§5) accepts nothing, pending keys included. */
	if (!val_at_point_trusted(tp))
		return;
	for (size_t i = 0; i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->state == VAL_AT_ADDPEND && add_time(k, now))
			key_move(k, VAL_AT_VALID, now, res);
	}
}

/* A SEP key of the validated RRset (NewKey, KeyPres, AddTime: §4). */
static void seen_one(struct val_at_point *tp, const struct wire_rr *rr,
		     int64_t now, int64_t hold, struct val_at_result *res)
{
	struct val_at_key *k = key_find(tp, rr);

	if (!k) {
		k = key_new(tp, rr);
		if (!k) {
			res->ignored++;
			return;
		}
		k->state = VAL_AT_START;
	}
	k->ttl = rr->ttl;
	switch (k->state) {
	case VAL_AT_START:
		k->first_seen = now;
		k->hold_until = now + hold;
		k->count = 1;
		key_move(k, VAL_AT_ADDPEND, now, res);
		break;
	case VAL_AT_ADDPEND:
		if (k->count < UINT32_MAX)
			k->count++;
		if (add_time(k, now))
			key_move(k, VAL_AT_VALID, now, res);
		break;
	case VAL_AT_MISSING: key_move(k, VAL_AT_VALID, now, res); break;
	default: /* VALID stays; REVOKED and REMOVED never come back */ break;
	}
}

/* A new key of an algorithm this validator cannot use would be an
 * anchor that validates nothing (RFC 4035 §5.2 treats its signatures as
 * absent): it is not followed. A key followed already (configured, say)
 * is. */
static bool usable(const struct val_ctx *ctx, struct val_at_point *tp,
		   const struct wire_rr *rr)
{
	return val_alg_supported(ctx, rr->rdata[3]) || key_find(tp, rr);
}

static void sightings(const struct val_ctx *ctx, struct val_at_point *tp,
		      const struct val_rrset *set, int64_t hold,
		      struct val_at_result *res)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct wire_rr *rr = set->rrs[i];
		if (zone_key(rr) && !revoked(rr) && sep(rr) &&
		    usable(ctx, tp, rr))
			seen_one(tp, rr, ctx->now, hold, res);
	}
}

/* Keys of ADDPEND or VALID absent from the RRset (KeyRem). */
static void absences(struct val_at_point *tp, const struct val_rrset *set,
		     int64_t now, struct val_at_result *res)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->type != WIRE_TYPE_DNSKEY || present(set, k))
			continue;
		if (k->state == VAL_AT_ADDPEND)
			key_move(k, VAL_AT_START, now, res);
		else if (k->state == VAL_AT_VALID)
			key_move(k, VAL_AT_MISSING, now, res);
	}
}

/* Whether a key of tp has the SEP bit. */
static bool key_sep(const struct val_at_key *k)
{
	return wire_get16(k->rdata) & CRYPTO_KEY_FLAG_SEP;
}

/*
 * A zone-signing key configured as the anchor (no SEP bit: only a
 * configuration puts such a key in tp) hands over to the SEP keys of the
 * RRsets it validates: while no SEP key is VALID, those in ADDPEND (all
 * in this validated RRset) become VALID at once; once one is VALID, the
 * configured ZSKs are REMOVED. A ZSK is rolled without RFC 5011's
 * hold-downs (RFC 6781 §4.1.1), so followed as an anchor it would be lost
 * before a new KSK's add hold-down ended; trusting the KSKs it signed is
 * trusting what it validates already, as a DS anchor's keys are trusted
 * (ds_convert).
 */
static void zsk_handover(struct val_at_point *tp, int64_t now,
			 struct val_at_result *res)
{
	bool sep_valid = false, zsk = false;

	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];
		if (k->type != WIRE_TYPE_DNSKEY)
			continue;
		if (key_sep(k))
			sep_valid |= k->state == VAL_AT_VALID;
		else
			zsk |= trusted(k);
	}
	for (size_t i = 0; !sep_valid && zsk && i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->type == WIRE_TYPE_DNSKEY && key_sep(k) &&
		    k->state == VAL_AT_ADDPEND)
			key_move(k, VAL_AT_VALID, now, res);
	}
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];
		sep_valid |= k->type == WIRE_TYPE_DNSKEY && key_sep(k) &&
			     k->state == VAL_AT_VALID;
	}
	for (size_t i = 0; sep_valid && i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->type == WIRE_TYPE_DNSKEY && !key_sep(k) && trusted(k))
			key_move(k, VAL_AT_REMOVED, now, res);
	}
}

/* RemTime: revoked for the remove hold-down. */
static void removals(struct val_at_point *tp, int64_t now, uint32_t hold,
		     struct val_at_result *res)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		struct val_at_key *k = &tp->keys[i];
		if (k->state == VAL_AT_REVOKED && now - k->changed >= hold)
			key_move(k, VAL_AT_REMOVED, now, res);
	}
}

/* §2.3 after a validated RRset; returns the original TTL for the add
 * hold-down. */
static uint32_t schedule(struct val_at_point *tp, const struct val_rrset *set,
			 int64_t now)
{
	uint32_t ttl, left;

	rrsig_times(set, now, &ttl, &left);
	tp->next_query = now + clamp(min3(AT_QUERY_MAX, ttl / 2, left / 2),
				     AT_QUERY_MIN, AT_QUERY_MAX);
	tp->retry = clamp(min3(AT_RETRY_MAX, ttl / 10, left / 10), AT_QUERY_MIN,
			  AT_RETRY_MAX);
	tp->failures = 0;
	tp->last_success = now;
	return ttl;
}

void val_at_failed(struct val_at_point *tp, int64_t now)
{
	tp->last_query = now;
	if (tp->failures < UINT32_MAX)
		tp->failures++;
	tp->next_query = now + clamp(tp->retry, AT_QUERY_MIN, AT_RETRY_MAX);
}

/* --- one update --- */

/* Whether two versions of a point trust the same records. */
static bool trust_equal(const struct val_at_point *a,
			const struct val_at_point *b)
{
	size_t na = 0, nb = 0;

	for (size_t i = 0; i < a->nkeys; i++) {
		const struct val_at_key *x = &a->keys[i];
		bool found = false;
		if (!trusted(x))
			continue;
		na++;
		for (size_t j = 0; j < b->nkeys && !found; j++) {
			const struct val_at_key *y = &b->keys[j];
			found = trusted(y) && x->type == y->type &&
				x->rdlen == y->rdlen &&
				memcmp(x->rdata, y->rdata, x->rdlen) == 0;
		}
		if (!found)
			return false;
	}
	for (size_t j = 0; j < b->nkeys; j++)
		nb += trusted(&b->keys[j]);
	return na == nb;
}

static bool rrset_usable(const struct val_at_point *tp,
			 const struct val_rrset *set, struct val_verdict *v)
{
	char zone[DT_NAME_TEXT_MAXLEN];

	if (set && set->n && set->type == WIRE_TYPE_DNSKEY &&
	    wire_dname_equal(set->owner, tp->zone))
		return true;
	wire_dname_to_str(tp->zone, zone, sizeof(zone));
	val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "at-no-dnskey",
			"no DNSKEY RRset for trust point %s", zone);
	return false;
}

/* The state machine proper, on tp, for a DNSKEY RRset of its zone. */
static int run(struct val_ctx *ctx, struct val_at_point *tp,
	       const struct val_rrset *set, const struct val_at_policy *pol,
	       struct val_at_result *res)
{
	int64_t now = ctx->now;
	bool validated;
	int r;

	add_times(tp, now, res);
	r = validate(ctx, tp, set, &res->verdict);
	if (r < 0)
		return r;
	validated = res->verdict.status == VAL_SECURE;
	r = revocations(ctx, tp, set, validated, res);
	if (r < 0)
		return r;
	if (validated) {
		uint32_t ottl = schedule(tp, set, now);
		int64_t hold =
			pol->add_holddown > ottl ? pol->add_holddown : ottl;
		r = ds_convert(tp, set, now, res);
		if (r < 0)
			return r;
		sightings(ctx, tp, set, hold, res);
		absences(tp, set, now, res);
		zsk_handover(tp, now, res);
	}
	removals(tp, now, pol->remove_holddown, res);
	if (!validated)
		val_at_failed(tp, now);
	tp->last_query = now;
	return 0;
}

int val_at_update(struct val_ctx *ctx, struct val_at_point *tp,
		  const struct val_rrset *dnskeys,
		  const struct val_at_policy *pol, struct val_at_result *res)
{
	struct val_at_point *before = malloc(sizeof(*before));
	int r = 0;

	memset(res, 0, sizeof(*res));
	if (!before)
		return -ENOMEM;
	*before = *tp;
	if (!rrset_usable(tp, dnskeys, &res->verdict)) {
		removals(tp, ctx->now, pol->remove_holddown, res);
		val_at_failed(tp, ctx->now);
	} else {
		r = run(ctx, tp, dnskeys, pol, res);
	}
	res->trust_changed = !trust_equal(before, tp);
	res->deleted =
		val_at_point_trusted(before) && !val_at_point_trusted(tp);
	/* Deleted (§5): nothing it could fetch would validate; not asked
	 * again until a new anchor is configured. */
	if (!val_at_point_trusted(tp))
		tp->next_query = 0;
	free(before);
	return r;
}

/* --- configured anchors --- */

static struct val_at_point *point_get(struct val_at *at, const uint8_t *zone,
				      bool create)
{
	for (size_t i = 0; i < at->npoints; i++) {
		if (wire_dname_equal(at->points[i].zone, zone))
			return &at->points[i];
	}
	if (!create || at->npoints == DT_AT_MAX_POINTS)
		return NULL;
	struct val_at_point *tp = &at->points[at->npoints++];
	memset(tp, 0, sizeof(*tp));
	wire_dname_copy(tp->zone, zone);
	wire_dname_tolower(tp->zone);
	tp->retry = AT_QUERY_MIN;
	return tp;
}

int val_at_add_anchor(struct val_at *at, const struct wire_rr *rr)
{
	struct val_at_point *tp;

	if (rr->type != WIRE_TYPE_DS && rr->type != WIRE_TYPE_DNSKEY)
		return DT_ETYPE;
	if (rr->rclass != WIRE_CLASS_IN || rr->rdlen < 4 ||
	    rr->rdlen > DT_AT_KEY_MAXLEN ||
	    (rr->type == WIRE_TYPE_DNSKEY && rr->rdata[2] != DNSKEY_PROTOCOL))
		return DT_ERDATA;
	tp = point_get(at, rr->owner, true);
	if (!tp)
		return DT_ELIMIT;
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];
		if (k->type == rr->type && k->rdlen == rr->rdlen &&
		    memcmp(k->rdata, rr->rdata, rr->rdlen) == 0)
			return 0;
	}
	if (tp->nkeys == DT_AT_MAX_KEYS)
		return DT_ELIMIT;
	struct val_at_key *k = &tp->keys[tp->nkeys++];
	memset(k, 0, sizeof(*k));
	key_set_rdata(k, rr);
	k->state = VAL_AT_VALID;
	return 0;
}

int val_at_add_anchors(struct val_at *at, const struct val_anchors *ta)
{
	size_t n = val_anchors_count(ta);

	for (size_t i = 0; i < n; i++) {
		const struct val_anchor_zone *az = val_anchors_get(ta, i);
		for (size_t j = 0; j < az->nds; j++) {
			int r = val_at_add_anchor(at, &az->ds[j]);
			if (r < 0)
				return r;
		}
		for (size_t j = 0; j < az->ndnskey; j++) {
			int r = val_at_add_anchor(at, &az->dnskey[j]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int val_at_anchors(const struct val_at *at, struct val_anchors *ta)
{
	int added = 0;

	for (size_t i = 0; i < at->npoints; i++) {
		const struct val_at_point *tp = &at->points[i];
		for (size_t j = 0; j < tp->nkeys; j++) {
			const struct val_at_key *k = &tp->keys[j];
			if (!trusted(k))
				continue;
			struct wire_rr rr = val_at_key_rr(tp, k);
			int r = val_anchors_add(ta, &rr);
			if (r < 0)
				return r;
			added++;
		}
	}
	return added;
}

int64_t val_at_next_query(const struct val_at *at)
{
	int64_t next = 0;
	bool any = false;

	for (size_t i = 0; i < at->npoints; i++) {
		int64_t t = at->points[i].next_query;
		if (!val_at_point_trusted(&at->points[i]))
			continue;
		if (!any || t < next)
			next = t;
		any = true;
	}
	return next;
}
