/* SPDX-License-Identifier: MIT */
/*
 * The chain-of-trust walk (validator/walk.h) over a record source of this
 * file, answering from the fixture zone (response_fixture.h) or saying
 * "pending", "failed" or "absent" as each test wants: what the walk
 * builds, what it asks, what it keeps and may cache, and which verdict,
 * EDE and tag each answer of the source leads to.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "response_fixture.h"
#include "tap.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "validator/walk.h"
#include "wire/msg.h"

static struct fx_rrs zone;
static struct val_anchors *anchors;

/* --- the source --- */

struct src {
	enum walk_got dnskey;		/* what (zone, DNSKEY) gets */
	bool unsigned_dnskey;		/* the RRset without its RRSIGs */
	int err;
	const char *exempt;		/* a negative trust anchor, or NULL */
	struct wire_rr ans[64], auth[64];
	struct val_keyset *kept[16];
	bool cacheable[16];
	size_t nkept;
	unsigned asked_ds, asked_dnskey;
	unsigned probes_put[3];		/* by enum walk_probe */
	unsigned validated;
};

static enum walk_got response(void *arg, const uint8_t *name, uint16_t type,
			      struct val_response *resp, bool *tentative,
			      int *err)
{
	struct src *s = arg;
	size_t n = 0;

	(void)tentative;
	resp->rcode = WIRE_RCODE_NOERROR;
	if (type == WIRE_TYPE_DNSKEY) {
		s->asked_dnskey++;
		if (s->dnskey != WALK_GOT) {
			*err = s->err;
			return s->dnskey;
		}
		for (size_t i = 0; i < zone.n && n < 64; i++)
			if (wire_dname_equal(zone.rr[i].owner, name) &&
			    (zone.rr[i].type == type ||
			     (!s->unsigned_dnskey && val_rrsig_covers(&zone.rr[i], type))))
				s->ans[n++] = zone.rr[i];
		resp->answer = s->ans;
		resp->nanswer = n;
		return WALK_GOT;
	}
	/* DS: the zone has none; its NSEC chain says so, as a server
	 * would send it (every NSEC, the validator picks), with NXDOMAIN
	 * for a name that does not exist. */
	s->asked_ds++;
	resp->rcode = WIRE_RCODE_NXDOMAIN;
	for (size_t i = 0; i < zone.n; i++)
		if (wire_dname_equal(zone.rr[i].owner, name))
			resp->rcode = WIRE_RCODE_NOERROR;
	for (size_t i = 0; i < zone.n && n < 64; i++)
		if (zone.rr[i].type == WIRE_TYPE_NSEC ||
		    val_rrsig_covers(&zone.rr[i], WIRE_TYPE_NSEC))
			s->auth[n++] = zone.rr[i];
	resp->authority = s->auth;
	resp->nauthority = n;
	return WALK_GOT;
}

static const struct val_keyset *keys_get(void *arg, const uint8_t *z)
{
	struct src *s = arg;

	for (size_t i = 0; i < s->nkept; i++)
		if (wire_dname_equal(s->kept[i]->zone, z))
			return s->kept[i];
	return NULL;
}

static const struct val_keyset *keys_put(void *arg, struct val_keyset *ks,
					 bool cacheable)
{
	struct src *s = arg;
	struct val_keyset *c = malloc(sizeof(*c));

	if (!c || s->nkept == 16) {
		free(c);
		val_keyset_free(ks);
		return NULL;
	}
	*c = *ks;
	s->cacheable[s->nkept] = cacheable;
	s->kept[s->nkept++] = c;
	return c;
}

static void probe_put(void *arg, const uint8_t *name, enum walk_probe p,
		      uint32_t ttl)
{
	(void)name;
	(void)ttl;
	((struct src *)arg)->probes_put[p]++;
}

static void validated(void *arg, const uint8_t *name, uint16_t type,
		      const struct val_verdict *v, uint32_t ttl)
{
	(void)name;
	(void)type;
	(void)v;
	(void)ttl;
	((struct src *)arg)->validated++;
}

static const uint8_t *exempt(void *arg, const uint8_t *name,
			     struct val_verdict *v)
{
	struct src *s = arg;
	static uint8_t at[DT_NAME_MAXLEN];

	if (!s->exempt ||
	    wire_dname_from_str(s->exempt, strlen(s->exempt), NULL, at) < 0 ||
	    !wire_dname_is_subdomain(name, at))
		return NULL;
	val_verdict_set(v, VAL_INSECURE, VAL_EDE_NONE, "policy-nta",
			"negative trust anchor");
	return at;
}

static void src_free(struct src *s)
{
	for (size_t i = 0; i < s->nkept; i++) {
		val_keyset_free(s->kept[i]);
		free(s->kept[i]);
	}
	s->nkept = 0;
}

/* --- a walk over it --- */

struct run {
	struct src s;
	struct walk w;
	struct val_keysource ks;
};

/* start() with an answer's work budget (NULL: none). */
static void start_work(struct run *r, const struct val_limits *lim,
		       struct val_work *work)
{
	struct walk_source src = {
		.arg = &r->s,
		.response = response,
		.keys_get = keys_get,
		.keys_put = keys_put,
		.probe_put = probe_put,
		.validated = validated,
		.exempt = exempt,
	};
	struct val_ctx ctx;

	val_ctx_init(&ctx, FIXTURE_NOW, lim);
	ctx.work = work;
	walk_init(&r->w, &src, anchors, &ctx);
	walk_keysource(&r->w, &r->ks);
}

static void start(struct run *r, const struct val_limits *lim)
{
	start_work(r, lim, NULL);
}

static const uint8_t *dn(const char *s)
{
	static uint8_t b[4][DT_NAME_MAXLEN];
	static int i;

	i = (i + 1) % 4;
	wire_dname_from_str(s, strlen(s), NULL, b[i]);
	return b[i];
}

static void test_anchor(void)
{
	struct run r = {.s = {.dnskey = WALK_GOT}};

	start(&r, NULL);
	const struct val_keyset *ks = r.ks.zone_keys(r.ks.arg, dn("secure.test."));
	ok(ks && ks->verdict.status == VAL_SECURE,
	   "the anchored zone's signed DNSKEY RRset: secure");
	ok(ks && ks->nkeys == 2, "with both zone keys");
	ok(r.s.cacheable[0], "cacheable");
	is_int(r.s.validated, 1, "the DNSKEY response reported validated");
	ok(r.ks.zone_keys(r.ks.arg, dn("secure.test.")) == ks && r.s.asked_dnskey == 1,
	   "built once: asked again, the kept key set");
	src_free(&r.s);

	r = (struct run){.s = {.dnskey = WALK_GOT, .unsigned_dnskey = true}};
	start(&r, NULL);
	ks = r.ks.zone_keys(r.ks.arg, dn("secure.test."));
	ok(ks && ks->verdict.status == VAL_SECURE && ks->nkeys == 1,
	   "DNSKEY RRset unsigned: the configured key itself (RFC 4033 §2)");
	ok(!r.s.cacheable[0], "not cached (it is the configuration)");
	src_free(&r.s);
}

static void test_unavailable(void)
{
	struct run r = {.s = {.dnskey = WALK_PENDING}};

	start(&r, NULL);
	ok(!r.ks.zone_keys(r.ks.arg, dn("secure.test.")),
	   "pending: no key set yet (the validator needs keys)");
	is_int(r.s.nkept, 0, "nothing kept");
	src_free(&r.s);

	r = (struct run){.s = {.dnskey = WALK_FAILED, .err = DT_ETIMEOUT}};
	start(&r, NULL);
	const struct val_keyset *ks = r.ks.zone_keys(r.ks.arg, dn("secure.test."));
	ok(ks && ks->verdict.status == VAL_INDETERMINATE,
	   "failed fetch: indeterminate");
	is_str(ks ? ks->verdict.tag : "", "keys-fetch-failed",
	       "tag keys-fetch-failed");
	is_int(ks ? ks->verdict.ede : 0, WIRE_EDE_NO_REACHABLE_AUTHORITY,
	       "EDE 22 for a timeout");
	ok(!r.s.cacheable[0], "never cached");
	is_int(r.w.fail_err, DT_ETIMEOUT, "the walk remembers the failure");
	src_free(&r.s);

	r = (struct run){.s = {.dnskey = WALK_ABSENT}};
	start(&r, NULL);
	ks = r.ks.zone_keys(r.ks.arg, dn("secure.test."));
	ok(ks && ks->verdict.status == VAL_SECURE,
	   "absent (offline) DNSKEY RRset of an anchored zone: the anchor");
	src_free(&r.s);
}

static void test_no_anchor(void)
{
	struct run r = {.s = {.dnskey = WALK_GOT}};

	start(&r, NULL);
	const struct val_keyset *ks = r.ks.zone_keys(r.ks.arg, dn("other.test."));
	ok(ks && ks->verdict.status == VAL_INDETERMINATE,
	   "no anchor at or above: indeterminate");
	is_str(ks ? ks->verdict.tag : "", "keys-no-anchor", "tag keys-no-anchor");
	is_int(r.s.asked_dnskey + r.s.asked_ds, 0, "nothing asked");
	src_free(&r.s);
}

static void test_walk_down(void)
{
	struct run r = {.s = {.dnskey = WALK_GOT}};

	start(&r, NULL);
	const struct val_keyset *ks =
		r.ks.name_keys(r.ks.arg, dn("x.www.secure.test."));
	ok(ks && ks->verdict.status == VAL_SECURE &&
		   wire_dname_equal(ks->zone, dn("secure.test.")),
	   "x.www.secure.test is in the secure zone secure.test");
	is_int(r.s.asked_ds, 2, "DS asked at www and at x.www");
	is_int(r.s.probes_put[WALK_PROBE_NOT_CUT], 1,
	       "www: proven not a cut (NODATA without NS), remembered");
	is_int(r.s.probes_put[WALK_PROBE_NXDOMAIN], 1,
	       "x.www: proven not to exist, remembered; the walk ends");
	src_free(&r.s);
}

static void test_exempt(void)
{
	struct run r = {.s = {.dnskey = WALK_GOT, .exempt = "secure.test."}};

	start(&r, NULL);
	const struct val_keyset *ks = r.ks.zone_keys(r.ks.arg, dn("secure.test."));
	ok(ks && ks->verdict.status == VAL_INSECURE,
	   "under a negative trust anchor: insecure");
	is_str(ks ? ks->verdict.tag : "", "policy-nta", "tag policy-nta");
	ok(r.w.exempted, "the walk says an exemption applied");
	ok(!r.s.cacheable[0], "not cached (the anchor may go)");
	is_int(r.s.asked_dnskey, 0, "no key asked for");
	ks = r.ks.name_keys(r.ks.arg, dn("www.secure.test."));
	ok(ks && ks->verdict.status == VAL_INSECURE && r.s.nkept == 1,
	   "names below: the same key set, not another");
	src_free(&r.s);
}

static void test_budget(void)
{
	struct run r = {.s = {.dnskey = WALK_GOT}};
	struct val_limits lim;

	val_limits_default(&lim);
	lim.crypto_per_query = 0;
	start(&r, &lim);
	const struct val_keyset *ks = r.ks.zone_keys(r.ks.arg, dn("secure.test."));
	ok(ks && ks->verdict.status == VAL_BOGUS && ks->verdict.budget,
	   "no signature verification allowed: bogus, from the budget");
	ok(!r.s.cacheable[0], "a spent budget is never cached");
	is_int(r.s.validated, 0, "and the response not reported validated");
	src_free(&r.s);
}

/* The answer's budget of DS responses (val_work.ds_checks): one left
 * lets the walk take up www's, and x.www's is then refused. */
static void test_ds_budget(void)
{
	struct run r = {.s = {.dnskey = WALK_GOT}};
	struct val_work work;

	val_work_init(&work);
	work.ds_checks_max = 1;
	start_work(&r, NULL, &work);
	const struct val_keyset *ks =
		r.ks.name_keys(r.ks.arg, dn("x.www.secure.test."));
	ok(ks && ks->verdict.status == VAL_INDETERMINATE &&
		   ks->verdict.budget,
	   "past the DS budget: indeterminate, from the budget");
	is_str(ks ? ks->verdict.tag : "", "keys-work-limit",
	       "tag keys-work-limit");
	is_int(r.s.asked_ds, 1, "only www's DS response was taken up");
	is_int((int)work.ds_checks, 1, "one charged");
	src_free(&r.s);
}

int main(void)
{
	struct fx_rrs a = {0};

	anchors = val_anchors_new();
	if (!anchors || fx_load(fixture_zone, &zone) < 0 ||
	    fx_load(fixture_anchor, &a) < 0 ||
	    val_anchors_add(anchors, &a.rr[0]) < 0)
		return 1;
	test_anchor();
	test_unavailable();
	test_no_anchor();
	test_walk_down();
	test_exempt();
	test_budget();
	test_ds_budget();
	fx_free(&a);
	fx_free(&zone);
	val_anchors_free(anchors);
	return done_testing();
}
