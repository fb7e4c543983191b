/* SPDX-License-Identifier: MIT */
/*
 * RFC 5011 trust-anchor updates (src/validator/autotrust.c and
 * autotrust_file.c), walked through whole scenarios with a simulated
 * clock: a key added and trusted after the add hold-down, a key that
 * disappears during its hold-down, revocation (the revoked key's tag
 * changes), removal after the remove hold-down, a key that goes missing
 * and returns, the last trusted key revoked, DS anchors becoming DNSKEYs,
 * forged keys and forged revocations that must never count, the query
 * intervals of §2.3, and the state file: round trip and every error.
 *
 * Keys are Ed25519, made here with OpenSSL; the DNSKEY RRsets are signed
 * here at each simulated time (the canonical form comes from src/wire).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "common/errcode.h"
#include "crypto/ds.h"
#include "validator/anchor.h"
#include "validator/autotrust.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

#include "tap.h"

#define DAY  86400
#define T0   1800000000 /* 2027-01-15, the simulated start */
#define HOLD (30 * DAY)

static const uint8_t root[1] = {0};

/* --- keys --- */

struct tkey {
	EVP_PKEY *pk;	   /* shared by a key and its revoked form */
	uint8_t rdata[36]; /* flags, 3, 15, 32 octets of Ed25519 key */
};

static void tkey_new(struct tkey *k, uint16_t flags)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	size_t len = 32;

	k->pk = NULL;
	if (!c || EVP_PKEY_keygen_init(c) != 1 ||
	    EVP_PKEY_keygen(c, &k->pk) != 1 ||
	    EVP_PKEY_get_raw_public_key(k->pk, k->rdata + 4, &len) != 1)
		abort();
	EVP_PKEY_CTX_free(c);
	k->rdata[0] = (uint8_t)(flags >> 8);
	k->rdata[1] = (uint8_t)flags;
	k->rdata[2] = 3;
	k->rdata[3] = 15;
}

/* The same key with the REVOKE bit. */
static struct tkey tkey_revoked(const struct tkey *k)
{
	struct tkey r = *k;

	r.rdata[1] |= 0x80;
	return r;
}

static uint16_t tag(const struct tkey *k)
{
	return wire_keytag(k->rdata, sizeof(k->rdata));
}

/* --- DNSKEY RRsets signed at a simulated time --- */

#define SET_MAX 8

struct tset {
	struct wire_rr rrs[SET_MAX], sigs[SET_MAX];
	const struct wire_rr *prrs[SET_MAX], *psigs[SET_MAX];
	uint8_t sigdata[SET_MAX][128];
	struct val_rrset set;
};

static void tset_init(struct tset *s, uint32_t ttl)
{
	memset(s, 0, sizeof(*s));
	s->set = (struct val_rrset){.owner = root,
				    .type = WIRE_TYPE_DNSKEY,
				    .rclass = WIRE_CLASS_IN,
				    .ttl = ttl,
				    .rrs = s->prrs,
				    .sigs = s->psigs};
}

static void tset_key(struct tset *s, const struct tkey *k)
{
	struct wire_rr *rr = &s->rrs[s->set.n];

	*rr = (struct wire_rr){.owner = root,
			       .type = WIRE_TYPE_DNSKEY,
			       .rclass = WIRE_CLASS_IN,
			       .ttl = s->set.ttl,
			       .rdlen = sizeof(k->rdata),
			       .rdata = k->rdata};
	s->prrs[s->set.n++] = rr;
}

static uint8_t *put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return p + 2;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	return put16(put16(p, v >> 16), v & 0xffff);
}

/* An RRSIG by k (as its flags are in k) over the keys of s, valid from
 * inc to exp, original TTL that of s (RFC 4034 §3.1.8.1). */
static void tset_sign_at(struct tset *s, const struct tkey *k, int64_t inc,
			 int64_t exp)
{
	uint8_t *rd = s->sigdata[s->set.nsigs], data[2048];
	struct wire_rr canon[SET_MAX];
	size_t len, siglen = 64;
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	uint8_t *p = put16(rd, WIRE_TYPE_DNSKEY);
	*p++ = 15;
	*p++ = 0;
	p = put32(p, s->set.ttl);
	p = put32(p, (uint32_t)exp);
	p = put32(p, (uint32_t)inc);
	p = put16(p, tag(k));
	*p++ = 0; /* signer: the root */
	len = (size_t)(p - rd);
	memcpy(data, rd, len);
	memcpy(canon, s->rrs, s->set.n * sizeof(canon[0]));
	size_t n = wire_rrset_canon_sort(canon, s->set.n);
	for (size_t i = 0; i < n; i++) {
		int w = wire_rr_canon_write(&canon[i], NULL, s->set.ttl,
					    data + len, sizeof(data) - len);
		if (w < 0)
			abort();
		len += (size_t)w;
	}
	if (!md || EVP_DigestSignInit(md, NULL, NULL, NULL, k->pk) != 1 ||
	    EVP_DigestSign(md, p, &siglen, data, len) != 1)
		abort();
	EVP_MD_CTX_free(md);
	s->sigs[s->set.nsigs] =
		(struct wire_rr){.owner = root,
				 .type = WIRE_TYPE_RRSIG,
				 .rclass = WIRE_CLASS_IN,
				 .ttl = s->set.ttl,
				 .rdlen = (uint16_t)(p - rd + (long)siglen),
				 .rdata = rd};
	s->psigs[s->set.nsigs] = &s->sigs[s->set.nsigs];
	s->set.nsigs++;
}

/* Signed at now, valid from an hour before until 20 days after. */
static void tset_sign(struct tset *s, const struct tkey *k, int64_t now)
{
	tset_sign_at(s, k, now - 3600, now + 20 * DAY);
}

/* An RRset of keys, each signing: the zone's usual DNSKEY RRset. */
static void tset_make(struct tset *s, int64_t now,
		      const struct tkey *const *keys, size_t n,
		      const struct tkey *const *signers, size_t nsig)
{
	tset_init(s, DAY);
	for (size_t i = 0; i < n; i++)
		tset_key(s, keys[i]);
	for (size_t i = 0; i < nsig; i++)
		tset_sign(s, signers[i], now);
}

/* --- running updates --- */

static struct val_at_policy policy;

static int update(struct val_at_point *tp, const struct tset *s, int64_t now,
		  struct val_at_result *res)
{
	struct val_ctx ctx;

	val_ctx_init(&ctx, now, NULL);
	int r = val_at_update(&ctx, tp, s ? &s->set : NULL, &policy, res);
	if (r < 0)
		diag("val_at_update: %s", errcode_str(r));
	return r;
}

/* The state of k in tp (the REVOKE bit aside), or -1. */
static int state_of(const struct val_at_point *tp, const struct tkey *k)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *e = &tp->keys[i];
		if (e->type == WIRE_TYPE_DNSKEY && e->rdlen == 36 &&
		    e->rdata[0] == k->rdata[0] &&
		    memcmp(e->rdata + 2, k->rdata + 2, 34) == 0)
			return (int)e->state;
	}
	return -1;
}

/* Whether the anchors at gives hold k exactly (flags included), and how
 * many there are. */
static bool anchored(const struct val_at *at, const struct tkey *k, int *ret_n)
{
	struct val_anchors *ta = val_anchors_new();
	bool found = false;

	*ret_n = val_at_anchors(at, ta);
	const struct val_anchor_zone *az = val_anchors_find(ta, root);
	for (size_t i = 0; az && i < az->ndnskey; i++)
		found |= az->dnskey[i].rdlen == 36 &&
			 memcmp(az->dnskey[i].rdata, k->rdata, 36) == 0;
	val_anchors_free(ta);
	return found;
}

/* A point at the root trusting k (configured as a DNSKEY anchor). */
static struct val_at_point *point_with(struct val_at *at, const struct tkey *k)
{
	struct wire_rr rr = {.owner = root,
			     .type = WIRE_TYPE_DNSKEY,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = DAY,
			     .rdlen = 36,
			     .rdata = k->rdata};

	memset(at, 0, sizeof(*at));
	if (val_at_add_anchor(at, &rr) != 0)
		abort();
	return &at->points[0];
}

/* Whether res holds an event for k from -> to. */
static bool has_event(const struct val_at_result *res, uint16_t t,
		      enum val_at_state from, enum val_at_state to)
{
	for (size_t i = 0; i < res->nevents; i++) {
		const struct val_at_event *e = &res->events[i];
		if (e->tag == t && e->from == from && e->to == to)
			return true;
	}
	return false;
}

static struct val_at at, at2;
static struct tkey k1, k2, k3, zsk, forged;

/* --- scenarios --- */

/* A key published next to the trusted one: ADDPEND, then VALID once 30
 * days have passed and it was in every validated RRset since. */
static void test_add(void)
{
	const struct tkey *both[] = {&k1, &k2, &zsk}, *ksks[] = {&k1, &k2};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;
	int n;

	tset_make(&s, T0, both, 2, ksks, 1);
	update(tp, &s, T0, &res);
	is_str(val_status_name(res.verdict.status), "secure",
	       "add: the RRset validates with the trusted key");
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND, "add: new key ADDPEND");
	ok(has_event(&res, tag(&k2), VAL_AT_START, VAL_AT_ADDPEND),
	   "add: START -> ADDPEND reported");
	is_int(tp->keys[1].hold_until, T0 + HOLD, "add: hold-down 30 days");
	ok(!res.trust_changed, "add: the trusted keys did not change");
	bool a = anchored(&at, &k2, &n);
	ok(!a && n == 1, "add: not an anchor yet (%d anchor)", n);

	int64_t t = T0;
	for (int day = 1; day < 30; day += 7) {
		t = T0 + day * DAY;
		tset_make(&s, t, both, 3, ksks, 2);
		update(tp, &s, t, &res);
	}
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "add: still ADDPEND on day 29");
	is_int(state_of(tp, &zsk), -1, "add: a non-SEP key is not followed");
	tset_make(&s, T0 + HOLD - 1, both, 3, ksks, 2);
	update(tp, &s, T0 + HOLD - 1, &res);
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "add: ADDPEND one second before the hold-down ends");
	tset_make(&s, T0 + HOLD, both, 3, ksks, 2);
	update(tp, &s, T0 + HOLD, &res);
	is_int(state_of(tp, &k2), VAL_AT_VALID, "add: VALID after 30 days");
	ok(has_event(&res, tag(&k2), VAL_AT_ADDPEND, VAL_AT_VALID),
	   "add: ADDPEND -> VALID reported");
	ok(res.trust_changed, "add: the trusted keys changed");
	a = anchored(&at, &k2, &n) && anchored(&at, &k1, &n);
	ok(a && n == 2, "add: both keys are anchors (%d)", n);
}

/* Seen once, then nothing until long after the hold-down: a second
 * validated RRset is still needed (RFC 5011 §2.4.1). */
static void test_add_two_sightings(void)
{
	const struct tkey *both[] = {&k1, &k2};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	policy.add_holddown = 0;
	tset_make(&s, T0, both, 2, both, 1);
	update(tp, &s, T0, &res);
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "hold-down 0: ADDPEND at the first sighting");
	is_int(tp->keys[1].hold_until, T0 + DAY,
	       "hold-down 0: the original TTL (1 day) is the hold-down");
	tset_make(&s, T0 + 2 * DAY, both, 2, both, 1);
	update(tp, &s, T0 + 2 * DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_VALID,
	       "hold-down 0: VALID at the second sighting");
	val_at_policy_default(&policy);
}

/* A key that disappears during its hold-down goes back to START, and
 * its next appearance starts the hold-down again. */
static void test_add_interrupted(void)
{
	const struct tkey *both[] = {&k1, &k2}, *one[] = {&k1};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	tset_make(&s, T0, both, 2, one, 1);
	update(tp, &s, T0, &res);
	tset_make(&s, T0 + 20 * DAY, one, 1, one, 1);
	update(tp, &s, T0 + 20 * DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_START,
	       "interrupted: absent on day 20: back to START");
	ok(has_event(&res, tag(&k2), VAL_AT_ADDPEND, VAL_AT_START),
	   "interrupted: ADDPEND -> START reported");
	tset_make(&s, T0 + 25 * DAY, both, 2, one, 1);
	update(tp, &s, T0 + 25 * DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "interrupted: back on day 25: ADDPEND again");
	tset_make(&s, T0 + 35 * DAY, both, 2, one, 1);
	update(tp, &s, T0 + 35 * DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "interrupted: day 35 (30 days after the first sighting): "
	       "still ADDPEND");
	tset_make(&s, T0 + 55 * DAY, both, 2, one, 1);
	update(tp, &s, T0 + 55 * DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_VALID,
	       "interrupted: day 55 (30 days after its return): VALID");
}

/* k1 and k2 trusted; k1 is revoked (REVOKE bit, signed by itself), then
 * removed after the remove hold-down; it never comes back. */
static void test_revoke_remove(void)
{
	struct tkey k1r = tkey_revoked(&k1);
	const struct tkey *both[] = {&k1, &k2}, *rev[] = {&k1r, &k2},
			  *one[] = {&k2}, *back[] = {&k1, &k2};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;
	int n;

	tset_make(&s, T0, both, 2, both, 2);
	update(tp, &s, T0, &res);
	tset_make(&s, T0 + HOLD, both, 2, both, 2);
	update(tp, &s, T0 + HOLD, &res);
	is_int(state_of(tp, &k2), VAL_AT_VALID, "revoke: k2 trusted first");

	int64_t t = T0 + HOLD + DAY;
	ok(tag(&k1r) != tag(&k1),
	   "revoke: the revoked key's tag %u is not "
	   "%u",
	   tag(&k1r), tag(&k1));
	/* The revoked key's RRSIG, but also a forged REVOKE for k2 that k2
	 * did not sign: only k1 is revoked. */
	struct tkey k2r = tkey_revoked(&k2);
	const struct tkey *both_rev[] = {&k1r, &k2r, &k2};
	tset_make(&s, t, both_rev, 3, rev, 2);
	update(tp, &s, t, &res);
	is_int(state_of(tp, &k1), VAL_AT_REVOKED, "revoke: k1 REVOKED");
	ok(has_event(&res, tag(&k1r), VAL_AT_VALID, VAL_AT_REVOKED),
	   "revoke: reported under the revoked tag %u", tag(&k1r));
	ok(res.nevents == 1 && res.events[0].prev_tag == tag(&k1),
	   "revoke: and under the tag it had, %u", tag(&k1));
	is_int(state_of(tp, &k2), VAL_AT_VALID,
	       "revoke: a REVOKE bit k2 did not sign revokes nothing");
	ok(res.trust_changed && !res.deleted, "revoke: trust changed");
	bool a = !anchored(&at, &k1, &n) && anchored(&at, &k2, &n);
	ok(a && n == 1, "revoke: k2 is the only anchor (%d)", n);
	for (size_t i = 0; i < tp->nkeys; i++) {
		if (tp->keys[i].state == VAL_AT_REVOKED)
			is_int(wire_keytag(tp->keys[i].rdata,
					   tp->keys[i].rdlen),
			       tag(&k1r),
			       "revoke: the state keeps the revoked DNSKEY");
	}

	t += HOLD - 1;
	tset_make(&s, t, rev, 2, rev, 2);
	update(tp, &s, t, &res);
	is_int(state_of(tp, &k1), VAL_AT_REVOKED,
	       "remove: REVOKED until the remove hold-down ends");
	t += 1;
	tset_make(&s, t, one, 1, one, 1);
	update(tp, &s, t, &res);
	is_int(state_of(tp, &k1), VAL_AT_REMOVED,
	       "remove: REMOVED 30 days after the revocation");
	ok(has_event(&res, tag(&k1r), VAL_AT_REVOKED, VAL_AT_REMOVED),
	   "remove: REVOKED -> REMOVED reported");
	ok(!res.trust_changed, "remove: the trusted keys did not change");

	tset_make(&s, t + DAY, back, 2, back, 2);
	update(tp, &s, t + DAY, &res);
	is_int(state_of(tp, &k1), VAL_AT_REMOVED,
	       "remove: the key published again unrevoked stays REMOVED");
	t += 40 * DAY;
	tset_make(&s, t, back, 2, back, 2);
	update(tp, &s, t, &res);
	a = !anchored(&at, &k1, &n);
	ok(state_of(tp, &k1) == VAL_AT_REMOVED && a,
	   "remove: and never becomes an anchor again");
}

/* A trusted key absent from a validated RRset stays an anchor
 * (MISSING) and is VALID again when it returns. */
static void test_missing(void)
{
	const struct tkey *both[] = {&k1, &k2}, *one[] = {&k2};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;
	int n;

	tset_make(&s, T0, both, 2, both, 2);
	update(tp, &s, T0, &res);
	tset_make(&s, T0 + HOLD, both, 2, both, 2);
	update(tp, &s, T0 + HOLD, &res);
	tset_make(&s, T0 + HOLD + DAY, one, 1, one, 1);
	update(tp, &s, T0 + HOLD + DAY, &res);
	is_int(state_of(tp, &k1), VAL_AT_MISSING, "missing: k1 MISSING");
	bool a = anchored(&at, &k1, &n);
	ok(a && n == 2 && !res.trust_changed, "missing: still an anchor (%d)",
	   n);
	tset_make(&s, T0 + HOLD + 2 * DAY, both, 2, both, 2);
	update(tp, &s, T0 + HOLD + 2 * DAY, &res);
	is_int(state_of(tp, &k1), VAL_AT_VALID, "missing: back: VALID");
	ok(has_event(&res, tag(&k1), VAL_AT_MISSING, VAL_AT_VALID),
	   "missing: MISSING -> VALID reported");
}

/* A key added by someone without a trusted key's private half: in an
 * RRset signed by itself, with a leftover genuine RRSIG, with an expired
 * genuine RRSIG: never followed, whatever the time. */
static void test_forged(void)
{
	const struct tkey *both[] = {&k1, &forged}, *fk[] = {&forged},
			  *one[] = {&k1};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s, genuine;
	int n;

	for (int day = 0; day <= 90; day += 5) {
		int64_t t = T0 + day * DAY;
		tset_make(&s, t, both, 2, fk, 1);
		update(tp, &s, t, &res);
		if (day == 0) {
			is_str(val_status_name(res.verdict.status), "bogus",
			       "forged: signed by the new key only: bogus");
			is_str(res.verdict.tag, "ks-not-signed-by-trusted",
			       "forged: tag ks-not-signed-by-trusted");
		}
		/* k1's genuine RRSIG over {k1}, copied next to the new key. */
		tset_make(&genuine, t, one, 1, one, 1);
		tset_make(&s, t, both, 2, fk, 1);
		s.sigs[s.set.nsigs] = genuine.sigs[0];
		memcpy(s.sigdata[s.set.nsigs], genuine.sigdata[0],
		       sizeof(s.sigdata[0]));
		s.sigs[s.set.nsigs].rdata = s.sigdata[s.set.nsigs];
		s.psigs[s.set.nsigs] = &s.sigs[s.set.nsigs];
		s.set.nsigs++;
		update(tp, &s, t, &res);
		if (day == 0)
			is_str(val_status_name(res.verdict.status), "bogus",
			       "forged: with a copied RRSIG of k1: bogus");
	}
	is_int(state_of(tp, &forged), -1,
	       "forged: after 90 days the key is not even ADDPEND");
	bool a = anchored(&at, &forged, &n);
	ok(!a && n == 1, "forged: k1 is the only anchor (%d)", n);
	is_int(tp->failures, 38, "forged: every query counted as failed");

	/* Signed by k1, but with an RRSIG that expired: a replay. */
	tset_init(&s, DAY);
	tset_key(&s, &k1);
	tset_key(&s, &forged);
	tset_sign_at(&s, &k1, T0 - 40 * DAY, T0 - 10 * DAY);
	update(tp, &s, T0 + 91 * DAY, &res);
	is_str(res.verdict.tag, "sig-expired",
	       "forged: an expired RRSIG of k1 does not validate");
	is_int(state_of(tp, &forged), -1, "forged: so nothing is added");

	/* A forged revocation of k1: k1's revoked form, signed by the
	 * forger. */
	struct tkey k1r = tkey_revoked(&k1);
	const struct tkey *rev[] = {&k1r, &forged};
	tset_make(&s, T0 + 92 * DAY, rev, 2, fk, 1);
	update(tp, &s, T0 + 92 * DAY, &res);
	is_int(state_of(tp, &k1), VAL_AT_VALID,
	       "forged: a REVOKE bit k1 did not sign does not revoke it");
}

/* The only trusted key revoked: the trust point trusts nothing (RFC 5011
 * §5) and a key pending or new is never accepted. */
static void test_last_revoked(void)
{
	struct tkey k1r = tkey_revoked(&k1);
	const struct tkey *both[] = {&k1, &k3}, *rev[] = {&k1r, &k3},
			  *ksk[] = {&k1}, *newk[] = {&k3};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;
	int n;

	tset_make(&s, T0, both, 2, ksk, 1);
	update(tp, &s, T0, &res);
	is_int(state_of(tp, &k3), VAL_AT_ADDPEND, "last: k3 ADDPEND");
	/* Revoked on day 5, before k3's hold-down ends. */
	tset_make(&s, T0 + 5 * DAY, rev, 2, rev, 2);
	update(tp, &s, T0 + 5 * DAY, &res);
	is_int(state_of(tp, &k1), VAL_AT_REVOKED,
	       "last: k1 REVOKED though the RRset validates with no "
	       "trusted key");
	ok(res.deleted && res.trust_changed,
	   "last: the trust point is reported deleted");
	ok(!val_at_point_trusted(tp), "last: no trusted key left");
	anchored(&at, &k3, &n);
	is_int(n, 0, "last: val_at_anchors adds nothing");
	tset_make(&s, T0 + 40 * DAY, newk, 1, newk, 1);
	update(tp, &s, T0 + 40 * DAY, &res);
	is_str(res.verdict.tag, "at-no-trusted-key",
	       "last: later RRsets: at-no-trusted-key");
	ok(state_of(tp, &k3) != VAL_AT_VALID,
	   "last: the pending key never becomes VALID");
}

/* A ZSK configured as the anchor hands over to the KSK of the first
 * RRset it validates: VALID at once, and the ZSK is no longer followed
 * (a ZSK rolls without RFC 5011's hold-downs). */
static void test_zsk_anchor(void)
{
	const struct tkey *keys[] = {&k1, &zsk}, *signers[] = {&k1, &zsk};
	struct val_at_point *tp = point_with(&at, &zsk);
	struct val_at_result res;
	struct tset s;
	int n;

	tset_make(&s, T0, keys, 2, signers, 2);
	update(tp, &s, T0, &res);
	is_str(val_status_name(res.verdict.status), "secure",
	       "zsk anchor: the RRset validates with the configured ZSK");
	is_int(state_of(tp, &k1), VAL_AT_VALID,
	       "zsk anchor: the KSK it signed is VALID at once");
	is_int(state_of(tp, &zsk), VAL_AT_REMOVED,
	       "zsk anchor: the ZSK is no longer followed");
	ok(res.trust_changed, "zsk anchor: the trusted keys changed");
	bool a = anchored(&at, &k1, &n) && !anchored(&at, &zsk, &n);
	ok(a && n == 1, "zsk anchor: the KSK is the only anchor (%d)", n);
}

/* A KSK configured beside a ZSK: the ZSK is dropped, a new KSK still
 * waits for its hold-down. */
static void test_zsk_beside_ksk(void)
{
	const struct tkey *keys[] = {&k1, &k2, &zsk}, *signers[] = {&k1, &zsk};
	struct wire_rr rr = {.owner = root,
			     .type = WIRE_TYPE_DNSKEY,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = DAY,
			     .rdlen = 36,
			     .rdata = zsk.rdata};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	ok(val_at_add_anchor(&at, &rr) == 0, "zsk beside: both configured");
	tset_make(&s, T0, keys, 3, signers, 2);
	update(tp, &s, T0, &res);
	is_int(state_of(tp, &zsk), VAL_AT_REMOVED,
	       "zsk beside: the ZSK is dropped once a KSK is VALID");
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "zsk beside: a new KSK still waits for its hold-down");
}

/* AddTime is an event of time (RFC 5011 §4.2): once its hold-down has
 * ended, a key seen in two validated RRsets is trusted even when the old
 * key left the RRset in the meantime. */
static void test_add_time_alone(void)
{
	const struct tkey *both[] = {&k1, &k2}, *only[] = {&k2};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	tset_make(&s, T0, both, 2, both, 2);
	update(tp, &s, T0, &res);
	tset_make(&s, T0 + 10 * DAY, both, 2, both, 2);
	update(tp, &s, T0 + 10 * DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND, "add time: k2 ADDPEND");
	tset_make(&s, T0 + HOLD + DAY, only, 1, only, 1);
	update(tp, &s, T0 + HOLD + DAY, &res);
	is_str(val_status_name(res.verdict.status), "secure",
	       "add time: the RRset of k2 alone validates");
	is_int(state_of(tp, &k2), VAL_AT_VALID, "add time: k2 VALID");
	is_int(state_of(tp, &k1), VAL_AT_MISSING, "add time: k1 MISSING");

	/* Seen once only: the hold-down alone is not enough (§2.4.1). */
	tp = point_with(&at, &k1);
	tset_make(&s, T0, both, 2, both, 2);
	update(tp, &s, T0, &res);
	tset_make(&s, T0 + HOLD + DAY, only, 1, only, 1);
	update(tp, &s, T0 + HOLD + DAY, &res);
	is_int(state_of(tp, &k2), VAL_AT_ADDPEND,
	       "add time: seen once, k2 stays ADDPEND");
	ok(res.verdict.status != VAL_SECURE,
	   "add time: and the RRset of k2 alone does not validate");
}

/* A deleted trust point (every key revoked, RFC 5011 §5) is not asked
 * again. */
static void test_deleted_not_asked(void)
{
	struct tkey k1r = tkey_revoked(&k1);
	const struct tkey *rev[] = {&k1r};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	tset_make(&s, T0, rev, 1, rev, 1);
	update(tp, &s, T0, &res);
	ok(res.deleted, "deleted: every key revoked");
	is_int(tp->next_query, 0, "deleted: no next query");
	is_int(val_at_next_query(&at), 0,
	       "deleted: val_at_next_query has nothing to ask");
}

/* A new key of an algorithm the validator cannot use is not followed. */
static void test_unknown_alg(void)
{
	struct tkey unk = k2;
	const struct tkey *keys[] = {&k1, &unk}, *signers[] = {&k1};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	unk.rdata[3] = 157; /* unassigned */
	tset_make(&s, T0, keys, 2, signers, 1);
	update(tp, &s, T0, &res);
	is_str(val_status_name(res.verdict.status), "secure",
	       "unknown alg: the RRset validates");
	is_int(state_of(tp, &unk), -1,
	       "unknown alg: the key of algorithm 157 is not followed");
}

/* DS anchors (as configured, or built in) become the DNSKEYs they
 * designate at the first validated RRset; one that designates nothing is
 * dropped. */
static void test_ds(void)
{
	const struct tkey *keys[] = {&k1, &zsk}, *ksk[] = {&k1};
	uint8_t ds[4 + 32], other[4 + 32];
	struct val_at_result res;
	struct tset s;
	int n;

	memset(&at, 0, sizeof(at));
	ds[0] = (uint8_t)(tag(&k1) >> 8);
	ds[1] = (uint8_t)tag(&k1);
	ds[2] = 15;
	ds[3] = 2;
	if (crypto_ds_digest(root, k1.rdata, 36, 2, ds + 4, 32) < 0)
		abort();
	memcpy(other, ds, sizeof(other));
	other[1] ^= 1;
	other[10] ^= 1;
	struct wire_rr rr = {.owner = root,
			     .type = WIRE_TYPE_DS,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = DAY,
			     .rdlen = 36,
			     .rdata = ds};
	is_int(val_at_add_anchor(&at, &rr), 0, "ds: a DS anchor added");
	is_int(val_at_add_anchor(&at, &rr), 0, "ds: twice is once");
	rr.rdata = other;
	val_at_add_anchor(&at, &rr);
	struct val_at_point *tp = &at.points[0];
	is_int(tp->nkeys, 2, "ds: two DS anchors");
	struct val_anchors *ta = val_anchors_new();
	is_int(val_at_anchors(&at, ta), 2, "ds: both given as anchors");
	is_int(val_anchors_find(ta, root)->nds, 2, "ds: as DS records");
	val_anchors_free(ta);

	tset_make(&s, T0, keys, 2, ksk, 1);
	update(tp, &s, T0, &res);
	is_str(val_status_name(res.verdict.status), "secure",
	       "ds: the RRset validates with the DS");
	is_int(tp->nkeys, 1, "ds: one key left");
	ok(tp->keys[0].type == WIRE_TYPE_DNSKEY &&
		   state_of(tp, &k1) == VAL_AT_VALID,
	   "ds: it is the DNSKEY, VALID");
	ok(has_event(&res, tag(&k1), VAL_AT_VALID, VAL_AT_VALID) &&
		   res.events[0].from_ds,
	   "ds: the conversion is reported");
	ok(has_event(&res, (uint16_t)(other[0] << 8 | other[1]), VAL_AT_VALID,
		     VAL_AT_REMOVED),
	   "ds: the DS designating nothing is reported dropped");
	bool a = anchored(&at, &k1, &n);
	ok(res.trust_changed && a && n == 1,
	   "ds: the DNSKEY is the anchor now");
	is_int(state_of(tp, &zsk), -1, "ds: the ZSK is not followed");
}

/* A key configured as DS and revoked before its DNSKEY was ever seen:
 * the revocation still finds it. */
static void test_ds_revoked(void)
{
	struct tkey k1r = tkey_revoked(&k1);
	const struct tkey *keys[] = {&k1r, &k2}, *signers[] = {&k1r};
	uint8_t ds[4 + 32];
	struct val_at_result res;
	struct tset s;

	memset(&at, 0, sizeof(at));
	ds[0] = (uint8_t)(tag(&k1) >> 8);
	ds[1] = (uint8_t)tag(&k1);
	ds[2] = 15;
	ds[3] = 2;
	if (crypto_ds_digest(root, k1.rdata, 36, 2, ds + 4, 32) < 0)
		abort();
	struct wire_rr rr = {.owner = root,
			     .type = WIRE_TYPE_DS,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = DAY,
			     .rdlen = 36,
			     .rdata = ds};
	val_at_add_anchor(&at, &rr);
	struct val_at_point *tp = &at.points[0];
	tset_make(&s, T0, keys, 2, signers, 1);
	update(tp, &s, T0, &res);
	ok(state_of(tp, &k1) == VAL_AT_REVOKED &&
		   tp->keys[0].type == WIRE_TYPE_DNSKEY,
	   "ds revoked: the DS anchor's key is REVOKED, as a DNSKEY");
	ok(res.deleted && !val_at_point_trusted(tp),
	   "ds revoked: nothing trusted is left");
	is_int(state_of(tp, &k2), -1,
	       "ds revoked: the other key, never validated, is not followed");
}

/* A key that appears already revoked and self-signed in a validated
 * RRset is recorded REVOKED; one in an RRset nobody trusted signed is
 * ignored. */
static void test_new_revoked(void)
{
	struct tkey k3r = tkey_revoked(&k3);
	const struct tkey *keys[] = {&k1, &k3r}, *ksk[] = {&k1, &k3r},
			  *only[] = {&k3r};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	tset_make(&s, T0, keys, 2, only, 1);
	update(tp, &s, T0, &res);
	is_int(state_of(tp, &k3), -1,
	       "new revoked: unvalidated RRset: not recorded");
	tset_make(&s, T0, keys, 2, ksk, 2);
	update(tp, &s, T0, &res);
	is_int(state_of(tp, &k3), VAL_AT_REVOKED,
	       "new revoked: validated RRset: recorded REVOKED");
	const struct tkey *plain[] = {&k1, &k3};
	tset_make(&s, T0 + DAY, plain, 2, ksk, 1);
	update(tp, &s, T0 + DAY, &res);
	is_int(state_of(tp, &k3), VAL_AT_REVOKED,
	       "new revoked: published unrevoked later: stays REVOKED");
}

/* RFC 5011 §2.3: queryInterval and retryTime. */
static void test_intervals(void)
{
	const struct tkey *one[] = {&k1};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;

	tset_make(&s, T0, one, 1, one, 1);
	update(tp, &s, T0, &res);
	is_int(tp->next_query - T0, DAY / 2,
	       "intervals: TTL 1 day: next query in 12 h");
	is_int(tp->retry, DAY / 10, "intervals: retry 2.4 h");
	is_int(tp->last_success, T0, "intervals: last success");

	tset_init(&s, 2000000);
	tset_key(&s, &k1);
	tset_sign_at(&s, &k1, T0 - 3600, T0 + 60 * DAY);
	update(tp, &s, T0, &res);
	is_int(tp->next_query - T0, 1000000,
	       "intervals: TTL 23 days: half of it");
	is_int(tp->retry, DAY, "intervals: retry at most a day");

	tset_init(&s, 40 * DAY);
	tset_key(&s, &k1);
	tset_sign_at(&s, &k1, T0 - 3600, T0 + 90 * DAY);
	update(tp, &s, T0, &res);
	is_int(tp->next_query - T0, 15 * DAY, "intervals: at most 15 days");

	tset_init(&s, DAY);
	tset_key(&s, &k1);
	tset_sign_at(&s, &k1, T0 - 3600, T0 + 1800);
	update(tp, &s, T0, &res);
	is_int(tp->next_query - T0, 3600,
	       "intervals: RRSIG expiring in 30 min: at least an hour");
	is_int(tp->retry, 3600, "intervals: retry at least an hour");

	tset_make(&s, T0 + 50, one, 1, one, 1);
	s.set.owner = (const uint8_t *)"\7example\0";
	update(tp, &s, T0 + 50, &res);
	ok(tp->failures == 1 && !strcmp(res.verdict.tag, "at-no-dnskey"),
	   "intervals: the DNSKEY RRset of another zone is no answer");
	tp->failures = 0;
	update(tp, NULL, T0 + 100, &res);
	ok(tp->failures == 1 && tp->next_query == T0 + 100 + 3600 &&
		   tp->last_query == T0 + 100,
	   "intervals: no answer: retried after the retry interval");
	is_str(res.verdict.tag, "at-no-dnskey", "intervals: at-no-dnskey");
	is_int(val_at_next_query(&at), T0 + 100 + 3600,
	       "intervals: val_at_next_query");
}

/* --- the state file --- */

static char text[1 << 18], again[1 << 18];

static int parse(const char *t, struct val_at *ret, char *err, size_t errlen)
{
	return val_at_parse(t, strlen(t), "at.state", ret, err, errlen);
}

static void test_file_round_trip(void)
{
	struct tkey k1r = tkey_revoked(&k1);
	const struct tkey *both[] = {&k1, &k2}, *rev[] = {&k1r, &k2};
	struct val_at_point *tp = point_with(&at, &k1);
	struct val_at_result res;
	struct tset s;
	char err[256];

	tset_make(&s, T0, both, 2, both, 2);
	update(tp, &s, T0, &res);
	tset_make(&s, T0 + HOLD, both, 2, both, 2);
	update(tp, &s, T0 + HOLD, &res);
	tset_make(&s, T0 + HOLD + DAY, rev, 2, rev, 2);
	update(tp, &s, T0 + HOLD + DAY, &res);
	struct wire_rr rr = {.owner = (const uint8_t *)"\7example\0",
			     .type = WIRE_TYPE_DNSKEY,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = 3600,
			     .rdlen = 36,
			     .rdata = k3.rdata};
	is_int(val_at_add_anchor(&at, &rr), 0, "file: a second trust point");

	size_t n = val_at_format(&at, text, sizeof(text));
	ok(n == strlen(text) && n < sizeof(text), "file: formatted (%zu)", n);
	ok(strstr(text, "\ndnstrust-autotrust 1\n") &&
		   strstr(text, "\npoint . last-query=") &&
		   strstr(text, "\nkey REVOKED tag=") &&
		   strstr(text, "\npoint example. "),
	   "file: version, points and keys");
	memset(&at2, 0x5a, sizeof(at2));
	int r = parse(text, &at2, err, sizeof(err));
	is_int(r, 0, "file: read back");
	if (r)
		diag("%s", err);
	is_int(at2.npoints, 2, "file: two points");
	ok(memcmp(&at2.points[0].keys[0], &at.points[0].keys[0],
		  sizeof(at.points[0].keys[0])) == 0,
	   "file: a key is read back exactly");
	is_int(at2.points[0].next_query, at.points[0].next_query,
	       "file: next query");
	val_at_format(&at2, again, sizeof(again));
	is_str(again, text, "file: formats the same again");
	char small[40];
	ok(val_at_format(&at, small, sizeof(small)) == n &&
		   strlen(small) == sizeof(small) - 1,
	   "file: a short buffer gets a cut, NUL-terminated text");

	/* A hand-written file: CRLF, comments, tabs, DS anchor. */
	static const char hand[] =
		"# comment\r\n\r\ndnstrust-autotrust 1\r\n"
		"point example.com. last-query=0 last-success=0 "
		"next-query=0 retry=3600 failures=0\n"
		"\t# indented comment\n"
		"key VALID tag=20326 first-seen=0 changed=0 hold-until=0 "
		"count=0 example.com. IN DS 20326 8 2 "
		"E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC"
		"8D"
		" ; a comment\n";
	r = parse(hand, &at2, err, sizeof(err));
	is_int(r, 0, "file: hand-written file with CRLF, comments, a DS");
	if (r)
		diag("%s", err);
	else
		ok(at2.points[0].keys[0].type == WIRE_TYPE_DS &&
			   at2.points[0].keys[0].ttl == 0,
		   "file: the DS, TTL 0 when not given");
	r = parse("dnstrust-autotrust 1\n", &at2, err, sizeof(err));
	ok(r == 0 && at2.npoints == 0, "file: no trust point is a file");
}

/* A key line with record text rec for the point ".". */
static void bad(const char *body, const char *want)
{
	char t[8192], err[512];
	struct val_at c, before;

	snprintf(t, sizeof(t), "dnstrust-autotrust 1\n%s", body);
	memset(&c, 0x33, sizeof(c));
	before = c;
	int r = val_at_parse(t, strlen(t), "at.state", &c, err, sizeof(err));
	ok(r < 0 && memcmp(&c, &before, sizeof(c)) == 0,
	   "file error: refused, *ret untouched: %s", want);
	is_str(err, want, "file error: message");
}

static void test_file_errors(void)
{
	char k1txt[200], key[400], line[5000], err[256];
	static char big[DT_AT_FILE_MAXSIZE + 2];
	static const char pt[] = "point . last-query=0 last-success=0 "
				 "next-query=0 retry=3600 failures=0\n";
	struct val_at c;

	snprintf(k1txt, sizeof(k1txt), ". 3600 IN DNSKEY 257 3 15 %s", "");
	/* The DNSKEY of k1 in presentation form. */
	struct wire_rr rr = {.owner = root,
			     .type = WIRE_TYPE_DNSKEY,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = 3600,
			     .rdlen = 36,
			     .rdata = k1.rdata};
	wire_rr_to_str(&rr, k1txt, sizeof(k1txt));
	snprintf(key, sizeof(key),
		 "key VALID tag=%u first-seen=0 changed=0 hold-until=0 "
		 "count=0 %s\n",
		 tag(&k1), k1txt);

	is_int(parse("", &c, err, sizeof(err)), DT_ESYNTAX, "empty text");
	is_str(err, "at.state: empty: no 'dnstrust-autotrust 1' line",
	       "empty text: message");
	is_int(parse("# only\n\n", &c, err, sizeof(err)), DT_ESYNTAX,
	       "comments only");
	is_int(parse(". 3600 IN DS 1 8 2 00\n", &c, err, sizeof(err)),
	       DT_ESYNTAX, "an anchor file is not a state file");
	is_str(err,
	       "at.state:1: not a dnstrust RFC 5011 state file: the first "
	       "line must be 'dnstrust-autotrust 1'",
	       "an anchor file: message");
	is_int(parse("dnstrust-autotrust 2\n", &c, err, sizeof(err)),
	       DT_ESYNTAX, "version 2");
	is_str(err, "at.state:1: version '2' is not supported (1 is)",
	       "version 2: message");

	bad("point .\n", "at.state:2: a point line is 'point ZONE "
			 "last-query=T last-success=T next-query=T retry=S "
			 "failures=N'");
	bad("point example last-query=0 last-success=0 next-query=0 "
	    "retry=3600 failures=0\n",
	    "at.state:2: 'example' is not an absolute domain name");
	bad("point . last-query=0 last-success=0 next-query=0 retry=3600 "
	    "fails=0\n",
	    "at.state:2: expected failures=NUMBER, found 'fails=0'");
	bad("point . last-query=x last-success=0 next-query=0 retry=3600 "
	    "failures=0\n",
	    "at.state:2: last-query: 'x' is not a number");
	bad("point . last-query= last-success=0 next-query=0 retry=3600 "
	    "failures=0\n",
	    "at.state:2: last-query: no number");
	bad("point . last-query=999999999999999999999 last-success=0 "
	    "next-query=0 retry=3600 failures=0\n",
	    "at.state:2: last-query: above 253402300799");
	bad("point . last-query=0 last-success=0 next-query=0 retry=60 "
	    "failures=0\n",
	    "at.state:2: retry: below 3600 (RFC 5011 §2.3)");
	bad("point . last-query=0 last-success=0 next-query=0 retry=3600 "
	    "failures=0 extra\n",
	    "at.state:2: a point line is 'point ZONE last-query=T "
	    "last-success=T next-query=T retry=S failures=N'");
	snprintf(line, sizeof(line), "%s%s", pt, pt);
	bad(line, "at.state:3: trust point . given twice");
	bad(key, "at.state:2: a key line before any point line");
	bad("something\n",
	    "at.state:2: 'something': a line is a comment, 'point' or 'key'");
	bad("point\001 .\n", "at.state:2: control character 0x01");

	snprintf(line, sizeof(line), "%skey VALID tag=1\n", pt);
	bad(line, "at.state:3: a key line is 'key STATE tag=N first-seen=T "
		  "changed=T hold-until=T count=N RECORD'");
	snprintf(line, sizeof(line),
		 "%skey GOOD tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 %s\n",
		 pt, k1txt);
	bad(line, "at.state:3: 'GOOD' is not a state (START, ADDPEND, VALID, "
		  "MISSING, REVOKED, REMOVED)");
	snprintf(line, sizeof(line),
		 "%skey VALID tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 %s\n",
		 pt, k1txt);
	char want[200];
	snprintf(want, sizeof(want),
		 "at.state:3: tag=1, but the key's tag is %u", tag(&k1));
	bad(line, want);
	snprintf(line, sizeof(line), "%s%s%s", pt, key, key);
	bad(line, "at.state:4: this key is given twice");
	snprintf(line, sizeof(line),
		 "%skey VALID tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 . 3600 IN A 192.0.2.1\n",
		 pt);
	bad(line, "at.state:3: a A record is not a key (DNSKEY or DS "
		  "expected)");
	snprintf(line, sizeof(line),
		 "%skey VALID tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 example. 3600 IN DS 1 8 2 00\n",
		 pt);
	bad(line, "at.state:3: example. is not the trust point's name");
	snprintf(line, sizeof(line),
		 "%skey ADDPEND tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 . 3600 IN DS 1 8 2 00\n",
		 pt);
	bad(line, "at.state:3: a DS record is a configured anchor: VALID "
		  "only");
	snprintf(line, sizeof(line),
		 "%skey VALID tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 . 3600 CH DS 1 8 2 00\n",
		 pt);
	bad(line, "at.state:3: class CH: keys are class IN");
	snprintf(line, sizeof(line),
		 "dnstrust-autotrust 1\n%skey VALID tag=1 first-seen=0 "
		 "changed=0 hold-until=0 count=0 www 3600 IN DS 1 8 2 00\n",
		 pt);
	int r = val_at_parse(line, strlen(line), "at.state", &c, err,
			     sizeof(err));
	ok(r == DT_ESYNTAX && strncmp(err, "at.state:3: ", 12) == 0 &&
		   !strstr(err + 12, "at.state"),
	   "file error: the zone reader's message, placed at this line: %s",
	   err);
	snprintf(line, sizeof(line),
		 "%skey VALID tag=1 first-seen=0 changed=0 hold-until=0 "
		 "count=0 ; nothing\n",
		 pt);
	bad(line, "at.state:3: no DNSKEY or DS record");

	memset(line, 'x', sizeof(line));
	memcpy(line, pt, sizeof(pt) - 1);
	line[sizeof(pt) - 1] = '#';
	line[sizeof(pt) - 1 + DT_AT_LINE_MAXLEN + 1] = '\n';
	line[sizeof(pt) - 1 + DT_AT_LINE_MAXLEN + 2] = '\0';
	bad(line, "at.state:3: line longer than 4096 characters");

	memset(big, '#', sizeof(big));
	r = val_at_parse(big, sizeof(big) - 1, "at.state", &c, err,
			 sizeof(err));
	ok(r == DT_ELIMIT && strstr(err, "at.state: larger than"),
	   "file error: too large: %s", err);

	/* DT_AT_MAX_KEYS keys, then one more. */
	size_t off = (size_t)snprintf(big, sizeof(big),
				      "dnstrust-autotrust 1\n%s", pt);
	for (int i = 0; i <= DT_AT_MAX_KEYS; i++) {
		struct tkey t;
		char rtxt[200];
		tkey_new(&t, 257);
		rr.rdata = t.rdata;
		wire_rr_to_str(&rr, rtxt, sizeof(rtxt));
		off += (size_t)snprintf(big + off, sizeof(big) - off,
					"key ADDPEND tag=%u first-seen=0 "
					"changed=0 hold-until=0 count=0 %s\n",
					tag(&t), rtxt);
		EVP_PKEY_free(t.pk);
	}
	r = val_at_parse(big, off, "at.state", &c, err, sizeof(err));
	ok(r == DT_ELIMIT && strstr(err, "at.state:19: more than 16 keys"),
	   "file error: too many keys: %s", err);

	off = (size_t)snprintf(big, sizeof(big), "dnstrust-autotrust 1\n");
	for (int i = 0; i <= DT_AT_MAX_POINTS; i++)
		off += (size_t)snprintf(
			big + off, sizeof(big) - off,
			"point p%d. last-query=0 last-success=0 next-query=0 "
			"retry=3600 failures=0\n",
			i);
	r = val_at_parse(big, off, "at.state", &c, err, sizeof(err));
	ok(r == DT_ELIMIT && strstr(err, "at.state:10: more than 8 trust"),
	   "file error: too many points: %s", err);
}

static void test_add_anchor_errors(void)
{
	uint8_t rdata[4] = {1, 1, 2, 8};
	struct wire_rr rr = {.owner = root,
			     .type = WIRE_TYPE_A,
			     .rclass = WIRE_CLASS_IN,
			     .rdlen = 4,
			     .rdata = rdata};

	memset(&at, 0, sizeof(at));
	is_int(val_at_add_anchor(&at, &rr), DT_ETYPE, "add anchor: an A");
	rr.type = WIRE_TYPE_DNSKEY;
	is_int(val_at_add_anchor(&at, &rr), DT_ERDATA,
	       "add anchor: protocol 2");
	rr.rclass = WIRE_CLASS_CH;
	rr.type = WIRE_TYPE_DS;
	is_int(val_at_add_anchor(&at, &rr), DT_ERDATA, "add anchor: class CH");
	is_int(at.npoints, 0, "add anchor: nothing added");
}

int main(void)
{
	val_at_policy_default(&policy);
	tkey_new(&k1, 257);
	tkey_new(&k2, 257);
	tkey_new(&k3, 257);
	tkey_new(&zsk, 256);
	tkey_new(&forged, 257);

	test_add();
	test_add_two_sightings();
	test_add_interrupted();
	test_revoke_remove();
	test_missing();
	test_forged();
	test_last_revoked();
	test_zsk_anchor();
	test_zsk_beside_ksk();
	test_add_time_alone();
	test_deleted_not_asked();
	test_unknown_alg();
	test_ds();
	test_ds_revoked();
	test_new_revoked();
	test_intervals();
	test_file_round_trip();
	test_file_errors();
	test_add_anchor_errors();

	EVP_PKEY_free(k1.pk);
	EVP_PKEY_free(k2.pk);
	EVP_PKEY_free(k3.pk);
	EVP_PKEY_free(zsk.pk);
	EVP_PKEY_free(forged.pk);
	return done_testing();
}
