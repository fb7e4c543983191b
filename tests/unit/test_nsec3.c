/* SPDX-License-Identifier: MIT */
/*
 * NSEC3 denial of existence (src/validator/denial_nsec3.c) against the
 * RFC 5155 Appendix B responses and the Appendix A zone: the proofs, the
 * opt-out cases, the iteration limit of RFC 9276 and the hash budget
 * against deep names (CVE-2023-50868).
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

#define RESP_FILE "rfc5155-appendix-B-responses.txt"
#define ZONE_FILE "rfc5155-appendix-A-nsec3-zone.zone"
#define NOW	  1262304000

/* Every NSEC3 of the RFC 5155 zone has the opt-out flag; this edit clears
 * it (signatures are not checked here). */
#define OPTOUT	  " NSEC3 1 1 12 "
#define NO_OPTOUT " NSEC3 1 0 12 "

#include "denial_vectors.h"

/* --- the proofs, run over one authority section --- */

static struct val_limits lim;
static struct val_ctx ctx;
static struct val_verdict v;
static struct val_denial_info info;

static void reset(void)
{
	val_ctx_init(&ctx, NOW, &lim);
	memset(&v, 0, sizeof(v));
	/* Written only on success: a failure must leave these. */
	info = (struct val_denial_info){true, true, true};
}

static int nodata(const struct recs *rs, const char *qname, uint16_t qtype)
{
	reset();
	return val_nsec3_nodata(&ctx, rs->sets, rs->nsets, N("example."),
				N(qname), qtype, &info, &v);
}

static int nxdomain(const struct recs *rs, const char *qname)
{
	reset();
	return val_nsec3_nxdomain(&ctx, rs->sets, rs->nsets, N("example."),
				  N(qname), &v);
}

static int wildcard(const struct recs *rs, const char *qname, const char *ce)
{
	reset();
	return val_nsec3_wildcard(&ctx, rs->sets, rs->nsets, N("example."),
				  N(qname), N(ce), &v);
}

static void hashes(unsigned want, const char *what)
{
	is_int(ctx.nsec3_hashes_used, want, "%s: %u NSEC3 hashes charged", what,
	       want);
}

/* --- tests --- */

static void test_b1_name_error(void)
{
	struct recs rs;

	if (load_auth("B.1.", NULL, NULL, NULL, &rs) < 0)
		return;
	is_int(nxdomain(&rs, "a.c.x.w.example."), 0, "B.1 returns 0");
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.1 a.c.x.w.example. NXDOMAIN through an opt-out span");
	hashes(4, "B.1");
	nodata(&rs, "a.c.x.w.example.", WIRE_TYPE_A);
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.1 records as NODATA: only the opt-out span");
	ok(info.optout && !info.wildcard && !info.delegation,
	   "B.1 NODATA info: opt-out");
	nxdomain(&rs, "x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nx-qname-exists",
	      "B.1 records as NXDOMAIN for x.w.example. (it matches)");
	nxdomain(&rs, "a.c.x.w.example.org.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-out-of-zone",
	      "B.1 for a name outside the zone");
	hashes(0, "out of zone");
	recs_free(&rs);

	if (load_auth("B.1.", NULL, OPTOUT, NO_OPTOUT, &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.1 without opt-out: NXDOMAIN secure");
	hashes(4, "B.1 without opt-out");
	nodata(&rs, "a.c.x.w.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-no-proof",
	      "B.1 without opt-out as NODATA");
	ok(info.optout && info.wildcard && info.delegation,
	   "info untouched on failure");
	recs_free(&rs);
}

static void test_b1_broken(void)
{
	struct recs rs;

	if (load_auth("B.1.", "35mthgpgcu1qg68fab165klnsnk3dpvl.example. NSEC3",
		      NULL, NULL, &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING,
	      "nsec3-nx-no-wildcard-cover",
	      "B.1 without the NSEC3 covering *.x.w.example.");
	ok(strstr(v.reason, "*.x.w.example.") != NULL,
	   "reason names the wildcard");
	recs_free(&rs);

	if (load_auth("B.1.", "b4um86eghhds6nea196smvmlo4ors995.example. NSEC3",
		      NULL, NULL, &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-no-nc-cover",
	      "B.1 without the closest encloser's NSEC3 (falls back to "
	      "the apex, and w.example. is not covered)");
	recs_free(&rs);

	if (load_auth("B.1.", "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom.example. NSEC3",
		      NULL, NULL, &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-no-nc-cover",
	      "B.1 without the NSEC3 covering c.x.w.example.");
	ok(strstr(v.reason, "c.x.w.example.") != NULL,
	   "reason names the next closer name");
	recs_free(&rs);

	/* A record with other parameters is ignored (RFC 5155 §8.2). */
	if (load_auth("B.1.", NULL,
		      "35mthgpgcu1qg68fab165klnsnk3dpvl.example. NSEC3 1 1 "
		      "12 aabbccdd",
		      "35mthgpgcu1qg68fab165klnsnk3dpvl.example. NSEC3 1 1 12 "
		      "aabbccde",
		      &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING,
	      "nsec3-nx-no-wildcard-cover",
	      "B.1 with the wildcard cover's salt changed");
	recs_free(&rs);

	if (load_auth("B.1.", NULL, OPTOUT, " NSEC3 1 2 12 ", &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-none-usable",
	      "B.1 with unknown flags only");
	hashes(0, "unknown flags");
	recs_free(&rs);

	if (load_auth("B.1.", NULL, OPTOUT, " NSEC3 2 1 12 ", &rs) < 0)
		return;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-none-usable",
	      "B.1 with an unknown hash algorithm only");
	recs_free(&rs);
}

static void test_limits(void)
{
	struct recs rs;

	if (load_auth("B.1.", NULL, NULL, NULL, &rs) < 0)
		return;
	lim.nsec3_iterations = 10;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS,
	      "nsec3-iterations", "B.1 with the iteration limit at 10");
	ok(strstr(v.reason, "iterations 12 above the limit 10") != NULL,
	   "reason gives the iterations and the limit");
	/* Only the question's own hash, to look for its NSEC3 (none
	 * matches a name that does not exist). */
	hashes(1, "over the iteration limit");
	lim.nsec3_iterations = 12;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.1 with the iteration limit at 12 (not above)");
	val_limits_default(&lim);

	lim.nsec3_hashes_per_query = 2;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "nsec3-hash-limit",
	      "B.1 with 2 hashes per question");
	ok(ctx.nsec3_hashes_used <= 2, "at most 2 hashes charged (%u)",
	   ctx.nsec3_hashes_used);
	ok(strstr(v.reason, "(2 per question)") != NULL,
	   "reason names the limit");
	lim.nsec3_hashes_per_query = 4;
	nxdomain(&rs, "a.c.x.w.example.");
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.1 with exactly the 4 hashes it needs");
	val_limits_default(&lim);
	recs_free(&rs);

	/* The hard cap holds whatever the configured limit. */
	if (load_auth("B.2.", NULL, " 12 aabbccdd", " 3000 aabbccdd", &rs) < 0)
		return;
	lim.nsec3_iterations = 100000;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS,
	      "nsec3-iterations", "3000 iterations against a limit of 100000");
	ok(strstr(v.reason, "limit 2500") != NULL,
	   "reason gives the hard cap 2500");
	val_limits_default(&lim);
	recs_free(&rs);

	/* Every vector becomes insecure under a limit of 10, but for B.2,
	 * which holds the NSEC3 of ns1.example. itself: that one is found
	 * with one hash and checked in full (RFC 9276 §3.2 gives up on the
	 * denials the limit makes costly, not on a name's own record). */
	static const char *const ids[] = {"B.1.", "B.2.", "B.2.1.",
					  "B.3.", "B.5.", "B.6."};
	lim.nsec3_iterations = 10;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		bool own = strcmp(ids[i], "B.2.") == 0;
		if (load_auth(ids[i], NULL, NULL, NULL, &rs) < 0)
			continue;
		nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
		is_int(v.status, own ? VAL_SECURE : VAL_INSECURE,
		       "%s: %s at limit 10", ids[i],
		       own ? "secure (its own NSEC3)" : "insecure");
		is_int(v.ede,
		       own ? VAL_EDE_NONE
			   : WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS,
		       "%s: %s", ids[i], own ? "no EDE" : "EDE 27");
		recs_free(&rs);
	}
	/* Nor can it deny a name its own NSEC3 shows to exist. */
	if (load_auth("B.2.", NULL, NULL, NULL, &rs) == 0) {
		nxdomain(&rs, "ns1.example.");
		is_int(v.status, VAL_BOGUS,
		       "B.2 read as an NXDOMAIN for ns1.example. at limit 10: "
		       "bogus, the name exists");
		recs_free(&rs);
	}
	if (load_auth("B.4.", NULL, NULL, NULL, &rs) == 0) {
		wildcard(&rs, "a.z.w.example.", "w.example.");
		is_int(v.ede, WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS,
		       "B.4 wildcard: EDE 27 at limit 10");
		recs_free(&rs);
	}
	val_limits_default(&lim);
}

static void test_b2_no_data(void)
{
	struct recs rs;

	if (load_auth("B.2.", NULL, NULL, NULL, &rs) < 0)
		return;
	is_int(nodata(&rs, "ns1.example.", WIRE_TYPE_MX), 0, "B.2 returns 0");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure", "B.2 ns1.example./MX");
	ok(!info.optout && !info.wildcard && !info.delegation,
	   "B.2 info: plain NODATA");
	hashes(1, "B.2");
	nodata(&rs, "ns1.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-type-present",
	      "B.2 records as NODATA for ns1.example./A");
	nxdomain(&rs, "ns1.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nx-qname-exists",
	      "B.2 records as NXDOMAIN");
	nodata(&rs, "ns1.example.", WIRE_TYPE_ANY);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-any",
	      "B.2 records as NODATA for ns1.example./ANY");
	recs_free(&rs);

	if (load_auth("B.2.", NULL, "2vptu5timamqttgl4luu9kg21e0aor3s A RRSIG",
		      "2vptu5timamqttgl4luu9kg21e0aor3s A MX RRSIG", &rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-type-present",
	      "B.2 with an NSEC3 listing MX");
	ok(strstr(v.reason, "lists MX") != NULL, "reason says it lists MX");
	recs_free(&rs);

	if (load_auth("B.2.", NULL, "2vptu5timamqttgl4luu9kg21e0aor3s A RRSIG",
		      "2vptu5timamqttgl4luu9kg21e0aor3s A CNAME RRSIG",
		      &rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-cname",
	      "B.2 with an NSEC3 listing CNAME");
	recs_free(&rs);

	if (load_auth("B.2.", NULL, " NSEC3 1 1 12 ", " NSEC3 1 128 12 ", &rs) <
	    0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-none-usable",
	      "B.2 with an unknown flag (128) only");
	recs_free(&rs);

	if (load_auth("B.2.", NULL, "2t7b4g4vsa5smi47k61mv5bv1a22bojr.example.",
		      "2t7b4g4vsa5smi47k61mv5bv1a22bojr.sub.example.", &rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-none-usable",
	      "B.2 with the owner two labels below the zone");
	recs_free(&rs);

	/* An unusable record first does not set the parameters... */
	if (load_auth_x("B.2.", NULL, NULL, NULL,
			"2t7b4g4vsa5smi47k61mv5bv1a22bojr NSEC3 1 128 12 "
			"aabbccdd 2vptu5timamqttgl4luu9kg21e0aor3s A MX RRSIG",
			&rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.2 after an NSEC3 with unknown flags (ignored)");
	recs_free(&rs);

	/* ...the first usable one does: the others are then ignored. */
	if (load_auth_x("B.2.", NULL, NULL, NULL,
			"00000000000000000000000000000000 NSEC3 1 0 12 ff "
			"00000000000000000000000000000001 A",
			&rs) < 0)
		return;
	nodata(&rs, "ns1.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-no-ce",
	      "B.2 after a usable NSEC3 with another salt");
	recs_free(&rs);
}

static void test_b21_ent(void)
{
	struct recs rs;

	if (load_auth("B.2.1.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "y.w.example.", WIRE_TYPE_A);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.2.1 empty non-terminal y.w.example./A");
	nodata(&rs, "y.w.example.", WIRE_TYPE_ANY);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.2.1 an empty non-terminal has nothing for ANY");
	nodata(&rs, "y.w.example.", WIRE_TYPE_DS);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.2.1 no DS at the empty non-terminal");
	ok(!info.delegation, "B.2.1 DS: not a delegation");
	recs_free(&rs);
}

static void test_b3_optout_referral(void)
{
	struct recs rs;

	if (load_auth("B.3.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "c.example.", WIRE_TYPE_DS);
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.3 c.example./DS denied through opt-out");
	ok(info.optout && !info.wildcard && !info.delegation,
	   "B.3 info: opt-out");
	hashes(3, "B.3 (c.example., example., *.example.)");
	recs_free(&rs);

	if (load_auth("B.3.", NULL, OPTOUT, NO_OPTOUT, &rs) < 0)
		return;
	nodata(&rs, "c.example.", WIRE_TYPE_DS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-ds-no-optout",
	      "B.3 without opt-out: no proof for c.example./DS");
	recs_free(&rs);
}

static void test_b4_wildcard(void)
{
	struct recs rs;

	if (load_auth("B.4.", NULL, NULL, NULL, &rs) < 0)
		return;
	is_int(wildcard(&rs, "a.z.w.example.", "w.example."), 0,
	       "B.4 returns 0");
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.4 a.z.w.example. from *.w.example., next closer opt-out");
	hashes(1, "B.4");
	wildcard(&rs, "a.z.w.example.", "a.z.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-wc-bad-ce",
	      "B.4 with qname as its own closest encloser");
	wildcard(&rs, "a.z.w.example.", "x.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-wc-bad-ce",
	      "B.4 with a closest encloser not above qname");
	recs_free(&rs);

	if (load_auth("B.4.", NULL, OPTOUT, NO_OPTOUT, &rs) < 0)
		return;
	wildcard(&rs, "a.z.w.example.", "w.example.");
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.4 without opt-out: wildcard answer secure");
	recs_free(&rs);

	/* Shorten the span so that it no longer covers H(z.w.example). */
	if (load_auth("B.4.", NULL, "r53bq7cc2uvmubfu5ocmm6pers9tk9en A RRSIG",
		      "q1000000000000000000000000000000 A RRSIG", &rs) < 0)
		return;
	wildcard(&rs, "a.z.w.example.", "w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-wc-no-nc-cover",
	      "B.4 when no NSEC3 covers z.w.example.");
	recs_free(&rs);
}

static void test_b5_wildcard_nodata(void)
{
	struct recs rs;

	if (load_auth("B.5.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_AAAA);
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "B.5 a.z.w.example./AAAA wildcard NODATA, next closer opt-out");
	ok(info.wildcard && info.optout && !info.delegation,
	   "B.5 info: wildcard, opt-out");
	hashes(4, "B.5 (a.z.w, z.w, w, *.w)");
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_MX);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING,
	      "nsec3-wc-nodata-type-present",
	      "B.5 records as NODATA for a.z.w.example./MX");
	nxdomain(&rs, "a.z.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nx-wildcard-exists",
	      "B.5 records as NXDOMAIN (the wildcard exists)");
	recs_free(&rs);

	if (load_auth("B.5.", NULL, OPTOUT, NO_OPTOUT, &rs) < 0)
		return;
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_AAAA);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.5 without opt-out: wildcard NODATA secure");
	ok(info.wildcard && !info.optout, "B.5 info: wildcard");
	recs_free(&rs);

	if (load_auth("B.5.", "r53bq7cc2uvmubfu5ocmm6pers9tk9en.example. NSEC3",
		      OPTOUT, NO_OPTOUT, &rs) < 0)
		return;
	nodata(&rs, "a.z.w.example.", WIRE_TYPE_AAAA);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-no-proof",
	      "B.5 without opt-out and without the wildcard's NSEC3");
	recs_free(&rs);
}

static void test_b6_ds_child(void)
{
	struct recs rs;

	if (load_auth("B.6.", NULL, NULL, NULL, &rs) < 0)
		return;
	nodata(&rs, "example.", WIRE_TYPE_DS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-ds-child-side",
	      "B.6 child apex NSEC3 as proof of no DS");
	nodata(&rs, "example.", WIRE_TYPE_A);
	check(&v, VAL_SECURE, VAL_EDE_NONE, "secure",
	      "B.6 records deny example./A");
	recs_free(&rs);
}

/* A name of n one-letter labels below example. */
static const char *deep_name(int n)
{
	static char buf[DT_NAME_TEXT_MAXLEN];
	size_t off = 0;

	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%c.",
					'a' + i % 26);
	snprintf(buf + off, sizeof(buf) - off, "example.");
	return buf;
}

static void test_zone_chain(void)
{
	struct recs rs;
	unsigned used;

	if (recs_from_file(ZONE_FILE, &rs) < 0) {
		ok(0, "read %s", ZONE_FILE);
		return;
	}
	nxdomain(&rs, "x.a.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-ce-delegation",
	      "zone: x.a.example. lies below the delegation a.example.");
	nodata(&rs, "a.example.", WIRE_TYPE_A);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-referral",
	      "zone: parent-side NSEC3 cannot deny a.example./A");
	nodata(&rs, "a.example.", WIRE_TYPE_DS);
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nodata-type-present",
	      "zone: a.example. has a DS");
	nodata(&rs, "c.example.", WIRE_TYPE_DS);
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "zone: c.example./DS (unsigned, opted out)");
	wildcard(&rs, "a.x.w.example.", "w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-wc-nc-exists",
	      "zone: a.x.w.example. cannot come from *.w.example.");
	nxdomain(&rs, "b.w.example.");
	check(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "nsec3-nx-wildcard-exists",
	      "zone: b.w.example. is answered by *.w.example.");

	/* CVE-2023-50868: 60 labels below the apex. */
	nxdomain(&rs, deep_name(60));
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "zone: 60-label name NXDOMAIN within the default budget");
	hashes(62, "60 labels: 61 names up to the apex and the wildcard");
	ok(ctx.nsec3_hashes_used <= DT_VAL_NSEC3_HASHES_PER_QUERY,
	   "within the default budget of %u", DT_VAL_NSEC3_HASHES_PER_QUERY);

	lim.nsec3_hashes_per_query = 30;
	nxdomain(&rs, deep_name(60));
	check(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "nsec3-hash-limit",
	      "zone: 60-label name with 30 hashes per question");
	hashes(30, "stopped at the limit");
	used = ctx.nsec3_hashes_used;
	memset(&v, 0, sizeof(v));
	val_nsec3_nodata(&ctx, rs.sets, rs.nsets, N("example."),
			 N(deep_name(60)), WIRE_TYPE_A, &info, &v);
	is_str(v.tag, "nsec3-hash-limit",
	       "a second proof in the question "
	       "fails at once");
	is_int(ctx.nsec3_hashes_used, used, "...without hashing");
	val_limits_default(&lim);

	/* The longest name that fits: 123 labels of one octet. */
	nxdomain(&rs, deep_name(123));
	check(&v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
	      "zone: 123-label name NXDOMAIN within the default budget");
	hashes(125, "123 labels");
	recs_free(&rs);
}

int main(void)
{
	val_limits_default(&lim);
	test_b1_name_error();
	test_b1_broken();
	test_limits();
	test_b2_no_data();
	test_b21_ent();
	test_b3_optout_referral();
	test_b4_wildcard();
	test_b5_wildcard_nodata();
	test_b6_ds_child();
	test_zone_chain();
	return done_testing();
}
