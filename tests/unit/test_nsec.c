/* SPDX-License-Identifier: MIT */
/*
 * NSEC denial of existence (src/validator/denial_nsec.c) against the
 * RFC 4035 Appendix B responses and the Appendix A zone, plus records
 * built by hand for what the RFC does not show.
 */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "validator/denial.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

#include "tap.h"

#define RESP_FILE "rfc4035-appendix-B-responses.txt"
#define ZONE_FILE "rfc4035-appendix-A-signed-zone.zone"
#define NOW	  1082419200

#include "denial_vectors.h"

/* --- the proofs, run over one authority section --- */

static struct val_verdict v;
static struct val_denial_info info;

static int nodata(const struct recs *rs, const char *qname, uint16_t qtype)
{
	struct val_ctx ctx;

	val_ctx_init(&ctx, NOW, NULL);
	/* Written only on success: a failure must leave these. */
	info = (struct val_denial_info){true, true, true};
	memset(&v, 0, sizeof(v));
	return val_nsec_nodata(&ctx, rs->sets, rs->nsets, N("example."),
			       N(qname), qtype, &info, &v);
}

static int nxdomain_in(const struct recs *rs, const char *zone,
		       const char *qname)
{
	struct val_ctx ctx;

	val_ctx_init(&ctx, NOW, NULL);
	memset(&v, 0, sizeof(v));
	return val_nsec_nxdomain(&ctx, rs->sets, rs->nsets, N(zone), N(qname),
				 &v);
}

static int nxdomain(const struct recs *rs, const char *qname)
{
	return nxdomain_in(rs, "example.", qname);
}

static int wildcard(const struct recs *rs, const char *qname, const char *ce)
{
	struct val_ctx ctx;

	val_ctx_init(&ctx, NOW, NULL);
	memset(&v, 0, sizeof(v));
	return val_nsec_wildcard(&ctx, rs->sets, rs->nsets, N("example."),
				 N(qname), N(ce), &v);
}

/* --- tests --- */

static void test_covers(void)
{
	ok(val_nsec_covers(N("b.example."), N("ns1.example."),
			   N("ml.example.")),
	   "covers: b < ml < ns1");
	ok(!val_nsec_covers(N("b.example."), N("ns1.example."),
			    N("b.example.")),
	   "covers: the owner itself is matched, not covered");
	ok(!val_nsec_covers(N("b.example."), N("ns1.example."),
			    N("ns1.example.")),
	   "covers: the next name is not covered");
	ok(!val_nsec_covers(N("b.example."), N("ns1.example."),
			    N("a.example.")),
	   "covers: a name before the owner is not covered");
	ok(val_nsec_covers(N("b.example."), N("ns1.example."),
			   N("x.b.example.")),
	   "covers: a name below the owner sorts between (canonical order)");
	ok(val_nsec_covers(N("xx.example."), N("example."), N("zz.example.")),
	   "covers: the last NSEC wraps to the apex");
	ok(val_nsec_covers(N("xx.example."), N("example."), N("a.zz.example.")),
	   "covers: the last NSEC covers names below later names");
	ok(!val_nsec_covers(N("xx.example."), N("example."), N("a.example.")),
	   "covers: the last NSEC does not cover names before its owner");
	ok(!val_nsec_covers(N("xx.example."), N("example."), N("zz.")),
	   "covers: the last NSEC does not cover names outside the apex");
	ok(val_nsec_covers(N("example."), N("example."), N("a.example.")),
	   "covers: a zone of one NSEC (owner = next = apex) covers all");
	ok(!val_nsec_covers(N("example."), N("example."), N("example.")),
	   "covers: ...but not the apex itself");
	ok(val_nsec_covers(N("EXAMPLE."), N("NS1.example."), N("Ml.Example.")),
	   "covers: case-insensitive");
}

static void test_b2_name_error(void)
{
	struct recs rs;

	if (load_auth("B.2.", NULL, NULL, NULL, &rs) < 0)
		return;
	is_int(nxdomain(&rs, "ml.example."), 0, "B.2 nxdomain returns 0");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.2 ml.example. NXDOMAIN");
	nxdomain(&rs, "ML.EXAMPLE.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.2 NXDOMAIN, qname in upper case");
	nodata(&rs, "ml.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-no-wildcard",
	      "B.2 records as NODATA for ml.example./A");
	nxdomain(&rs, "b.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-qname-exists",
	      "B.2 records as NXDOMAIN for b.example. (it has an NSEC)");
	nxdomain(&rs, "ml.example.org.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-out-of-zone",
	      "B.2 NXDOMAIN for a name outside the zone");
	recs_free(&rs);

	/* Without the apex NSEC nothing covers *.example. */
	if (load_auth("B.2.", "example. 3600 NSEC", NULL, NULL, &rs) < 0)
		return;
	nxdomain(&rs, "ml.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-no-wildcard-cover",
	      "B.2 without the wildcard-covering NSEC");
	ok(strstr(v.reason, "*.example.") != NULL,
	   "B.2 reason names the wildcard *.example.");
	recs_free(&rs);

	if (load_auth("B.2.", "b.example. 3600 NSEC", NULL, NULL, &rs) < 0)
		return;
	nxdomain(&rs, "ml.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-no-cover",
	      "B.2 without the NSEC covering ml.example.");
	recs_free(&rs);

	/* An "overreaching" NSEC: its next name lies outside the zone, so
	 * it would span other zones' names (Unbound's val_nx_overreach). */
	if (load_auth("B.2.", NULL, "NSEC ns1.example. NS",
		      "NSEC ns1.example.org. NS", &rs) < 0)
		return;
	nxdomain(&rs, "ml.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-no-cover",
	      "B.2 with a next name outside the zone: no cover");
	recs_free(&rs);
}

static void test_b3_no_data(void)
{
	struct recs rs;

	if (load_auth("B.3.", NULL, NULL, NULL, &rs) < 0)
		return;
	is_int(nodata(&rs, "ns1.example.", WIRE_TYPE_MX), 0,
	       "B.3 nodata returns 0");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure", "B.3 ns1.example./MX");
	ok(!info.delegation && !info.optout && !info.wildcard,
	   "B.3 info: no delegation, opt-out or wildcard");
	nodata(&rs, "ns1.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-type-present",
	      "B.3 records as NODATA for ns1.example./A");
	ok(info.delegation && info.optout && info.wildcard,
	   "B.3 info untouched on failure");
	nxdomain(&rs, "ns1.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-qname-exists",
	      "B.3 records as NXDOMAIN for ns1.example.");
	/* ANY is in no bitmap: the name's NSEC shows it holds data. */
	nodata(&rs, "ns1.example.", WIRE_TYPE_ANY);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-any",
	      "B.3 records as NODATA for ns1.example./ANY");
	recs_free(&rs);

	if (load_auth("B.3.", NULL, "ns2.example. A RRSIG",
		      "ns2.example. A MX RRSIG", &rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-type-present",
	      "B.3 with an NSEC listing MX");
	ok(strstr(v.reason, "lists MX") != NULL,
	   "reason says the NSEC lists MX");
	recs_free(&rs);

	if (load_auth("B.3.", NULL, "ns2.example. A RRSIG",
		      "ns2.example. CNAME RRSIG", &rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-cname",
	      "B.3 with an NSEC listing CNAME");
	recs_free(&rs);
}

static void test_b4_b5_referrals(void)
{
	struct recs rs;

	/* B.4 carries a DS and no NSEC: nothing to deny with. */
	if (load_auth("B.4.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "a.example.", WIRE_TYPE_DS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-missing",
	      "B.4 (no NSEC) as NODATA for a.example./DS");
	recs_free(&rs);

	if (load_auth("B.5.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "b.example.", WIRE_TYPE_DS);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.5 b.example./DS absent");
	ok(info.delegation && !info.optout && !info.wildcard,
	   "B.5 info: insecure delegation proven");
	nodata(&rs, "b.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-referral",
	      "B.5 parent-side NSEC cannot deny b.example./A");
	nodata(&rs, "mc.b.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-ancestor-cut",
	      "B.5 NSEC at the cut cannot deny mc.b.example./MX");
	nxdomain(&rs, "mc.b.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-ancestor-cut",
	      "B.5 NSEC at the cut cannot prove mc.b.example. NXDOMAIN");
	nodata(&rs, "b.example.", WIRE_TYPE_NS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-type-present",
	      "B.5 NSEC lists NS");
	recs_free(&rs);
}

static void test_b6_wildcard(void)
{
	struct recs rs;

	if (load_auth("B.6.", NULL, NULL, NULL, &rs) < 0)
		return;
	is_int(wildcard(&rs, "a.z.w.example.", "w.example."), 0,
	       "B.6 wildcard returns 0");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.6 a.z.w.example. from *.w.example.");
	wildcard(&rs, "a.z.w.example.", "z.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-wrong-ce",
	      "B.6 with a claimed closest encloser the NSEC disproves");
	wildcard(&rs, "a.z.w.example.", "example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-wrong-ce",
	      "B.6 with a wildcard above the proven closest encloser");
	wildcard(&rs, "a.z.w.example.", "a.z.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-bad-ce",
	      "B.6 with qname as its own closest encloser");
	wildcard(&rs, "a.z.w.example.", "v.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-bad-ce",
	      "B.6 with a closest encloser not above qname");
	wildcard(&rs, "x.y.w.example.", "w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-no-cover",
	      "B.6 records for a name that has its own NSEC");
	recs_free(&rs);

	if (load_auth("B.6.", "x.y.w.example. 3600 NSEC", NULL, NULL, &rs) < 0)
		return;
	wildcard(&rs, "a.z.w.example.", "w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-no-cover",
	      "B.6 without the NSEC proving no closer match");
	recs_free(&rs);
}

static void test_b7_wildcard_nodata(void)
{
	struct recs rs;

	if (load_auth("B.7.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_AAAA);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.7 a.z.w.example./AAAA wildcard NODATA");
	ok(info.wildcard && !info.delegation && !info.optout,
	   "B.7 info: proven at the wildcard");
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING,
	      "nsec-wc-nodata-type-present",
	      "B.7 records as NODATA for a.z.w.example./MX");
	nxdomain(&rs, "a.z.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-wildcard-exists",
	      "B.7 records as NXDOMAIN (the wildcard exists)");
	recs_free(&rs);

	if (load_auth("B.7.", "*.w.example. 3600 NSEC", NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_AAAA);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-no-wildcard",
	      "B.7 without the wildcard's NSEC");
	recs_free(&rs);
}

static void test_b8_ds_child(void)
{
	struct recs rs;

	/* RFC 4035 B.8: the DS query went to the child; its apex NSEC
	 * (SOA set) cannot prove the parent has no DS. */
	if (load_auth("B.8.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "example.", WIRE_TYPE_DS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-ds-child-side",
	      "B.8 child apex NSEC as proof of no DS");
	nodata(&rs, "example.", WIRE_TYPE_A);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.8 records deny example./A");
	recs_free(&rs);
}

static void test_zone_chain(void)
{
	struct recs rs;

	if (recs_from_file(ZONE_FILE, &rs) < 0) {
		ok(0, "read %s", ZONE_FILE);
		return;
	}
	/* y.w.example. exists only because x.y.w.example. does. */
	nodata(&rs, "y.w.example.", WIRE_TYPE_A);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "zone: empty non-terminal y.w.example./A");
	ok(!info.wildcard && !info.delegation, "ENT info: plain NODATA");
	nxdomain(&rs, "y.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-ent",
	      "zone: NXDOMAIN for the empty non-terminal y.w.example.");
	nxdomain(&rs, "zz.example.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "zone: zz.example. NXDOMAIN through the last NSEC");
	nxdomain(&rs, "0.example.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "zone: 0.example. NXDOMAIN (covered by the apex NSEC)");
	nxdomain(&rs, "b.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nx-wildcard-exists",
	      "zone: b.w.example. is answered by *.w.example.");
	nodata(&rs, "a.example.", WIRE_TYPE_DS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-nodata-type-present",
	      "zone: a.example. has a DS");
	nxdomain(&rs, "www.a.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-ancestor-cut",
	      "zone: names below the signed delegation a.example.");
	nxdomain_in(&rs, "w.example.", "xx.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-out-of-zone",
	      "zone: xx.example. is outside the signer w.example.");
	recs_free(&rs);
}

static void test_hand_built(void)
{
	struct recs rs;

	/* A zone holding only its apex: one NSEC pointing to itself. */
	if (recs_from_text("@ NSEC @ NS SOA RRSIG NSEC DNSKEY\n", &rs) < 0)
		return;
	nxdomain(&rs, "foo.example.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "one-NSEC zone: foo.example. NXDOMAIN");
	nodata(&rs, "example.", WIRE_TYPE_A);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "one-NSEC zone: example./A NODATA");
	recs_free(&rs);

	/* RFC 6672 §5.3.4: nothing below a DNAME is in the zone. */
	if (recs_from_text("@ NSEC d NS SOA RRSIG NSEC DNSKEY\n"
			   "d NSEC e DNAME RRSIG NSEC\n"
			   "e NSEC @ A RRSIG NSEC\n",
			   &rs) < 0)
		return;
	nxdomain(&rs, "x.d.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-ancestor-cut",
	      "DNAME: x.d.example. NXDOMAIN from the DNAME's NSEC");
	ok(strstr(v.reason, "DNAME") != NULL, "reason names the DNAME");
	nodata(&rs, "d.example.", WIRE_TYPE_A);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "DNAME: d.example./A NODATA at the DNAME owner itself");
	nxdomain(&rs, "c.example.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "DNAME: c.example. NXDOMAIN, unaffected");
	recs_free(&rs);

	/* An attacker's view: only the delegation NSEC, asked to deny a name
	 * inside the child. */
	if (recs_from_text("@ NSEC b NS SOA RRSIG NSEC DNSKEY\n"
			   "b NSEC c NS RRSIG NSEC\n",
			   &rs) < 0)
		return;
	nodata(&rs, "www.b.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-ancestor-cut",
	      "delegation NSEC cannot deny www.b.example./A");
	recs_free(&rs);

	/* Wildcard NODATA where the wildcard owns a CNAME. */
	if (recs_from_text("w NSEC *.w A RRSIG NSEC\n"
			   "*.w NSEC x.w CNAME RRSIG NSEC\n",
			   &rs) < 0)
		return;
	nodata(&rs, "q.w.example.", WIRE_TYPE_TXT);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec-wc-nodata-cname",
	      "wildcard NODATA where the wildcard is a CNAME");
	recs_free(&rs);
}

int main(void)
{
	test_covers();
	test_b2_name_error();
	test_b3_no_data();
	test_b4_b5_referrals();
	test_b6_wildcard();
	test_b7_wildcard_nodata();
	test_b8_ds_child();
	test_zone_chain();
	test_hand_built();
	return done_testing();
}
