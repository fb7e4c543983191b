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

/* --- test helpers: vector files, blocks, sections, records --- */

/* Records read from text, owned, grouped into RRsets. */
struct recs {
	struct wire_rr *rr;
	size_t n;
	struct arena arena;
	struct val_rrset *sets;
	size_t nsets;
};

static const char *vector_path(const char *file)
{
	static char path[4096];
	const char *peer = getenv("DT_PEER");

	snprintf(path, sizeof(path), "%s/rfc-vectors/%s", peer ? peer : ".",
		 file);
	return path;
}

/* The whole file as a NUL-terminated string (caller frees), or NULL. */
static char *file_text(const char *file)
{
	FILE *f = fopen(vector_path(file), "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1))) {
		if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		} else {
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static char *dup_range(const char *s, const char *e)
{
	char *out = malloc((size_t)(e - s) + 1);

	if (!out)
		abort();
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return out;
}

/* Start of the line after p (or the terminating NUL). */
static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* The block of a response file whose "; ===== RFC nnnn <id>" header
 * line contains id (e.g. "B.2."), up to the next "; =====" line. */
static char *block_text(const char *file, const char *id)
{
	char *all = file_text(file), *out = NULL;
	const char *p, *e;

	if (!all)
		return NULL;
	for (p = all; *p; p = next_line(p)) {
		const char *eol = next_line(p);
		if (strncmp(p, "; =====", 7) != 0)
			continue;
		char *line = dup_range(p, eol);
		bool hit = strstr(line, id) != NULL;
		free(line);
		if (hit)
			break;
	}
	if (*p) {
		for (e = next_line(p); *e && strncmp(e, "; =====", 7) != 0;
		     e = next_line(e))
			;
		out = dup_range(p, e);
	}
	free(all);
	return out;
}

static bool is_section_marker(const char *p)
{
	return strncmp(p, ";; Answer", 9) == 0 ||
	       strncmp(p, ";; Authority", 12) == 0 ||
	       strncmp(p, ";; Additional", 13) == 0;
}

/* The lines of one section (";; Authority"...) of a block. */
static char *section_text(const char *block, const char *marker)
{
	const char *p, *e;

	for (p = block; *p && strncmp(p, marker, strlen(marker)) != 0;
	     p = next_line(p))
		;
	if (!*p)
		return NULL;
	p = next_line(p);
	for (e = p; *e && !is_section_marker(e); e = next_line(e))
		;
	return dup_range(p, e);
}

/* Copy of s with every line starting with prefix removed. */
static char *drop_lines(const char *s, const char *prefix)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		abort();
	for (const char *p = s; *p;) {
		const char *e = next_line(p);
		if (strncmp(p, prefix, strlen(prefix)) != 0) {
			memcpy(o, p, (size_t)(e - p));
			o += e - p;
		}
		p = e;
	}
	*o = '\0';
	return out;
}

/* Copy of s with every occurrence of from replaced by to. */
static char *replace(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	char *out, *o;

	for (const char *p = s; (p = strstr(p, from)); p += fl)
		n++;
	out = malloc(strlen(s) + n * tl + 1);
	if (!out)
		abort();
	o = out;
	for (const char *p = s;;) {
		const char *m = strstr(p, from);
		if (!m) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(m - p));
		o += m - p;
		memcpy(o, to, tl);
		o += tl;
		p = m + fl;
	}
	return out;
}

static void recs_add(struct recs *rs, const struct wire_rr *rr)
{
	struct wire_rr *c;
	uint8_t *owner = malloc(DT_NAME_MAXLEN);
	uint8_t *rdata = malloc(rr->rdlen ? rr->rdlen : 1);

	rs->rr = realloc(rs->rr, (rs->n + 1) * sizeof(*rs->rr));
	if (!rs->rr || !owner || !rdata)
		abort();
	wire_dname_copy(owner, rr->owner);
	memcpy(rdata, rr->rdata, rr->rdlen);
	c = &rs->rr[rs->n++];
	*c = *rr;
	c->owner = owner;
	c->rdata = rdata;
}

static int recs_group(struct recs *rs)
{
	int r;

	arena_init(&rs->arena, 0);
	r = val_rrsets_collect(rs->rr, rs->n, &rs->arena, &rs->sets);
	if (r < 0)
		return r;
	rs->nsets = (size_t)r;
	return 0;
}

static int recs_read(struct wire_zreader *zr, struct recs *rs)
{
	struct wire_rr rr;
	int r;

	memset(rs, 0, sizeof(*rs));
	while ((r = wire_zreader_next(zr, &rr)) == 1)
		recs_add(rs, &rr);
	if (r < 0)
		diag("%s", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r < 0 ? r : recs_group(rs);
}

/* Reads zone text (origin "example.", $TTL 3600) into grouped RRsets. */
static int recs_from_text(const char *text, struct recs *rs)
{
	struct wire_zreader *zr;

	zr = wire_zreader_new(text, strlen(text), "example.", 3600, "text");
	if (!zr)
		abort();
	return recs_read(zr, rs);
}

static int recs_from_file(const char *file, struct recs *rs)
{
	struct wire_zreader *zr;
	int r = wire_zreader_open(vector_path(file), NULL, 3600, &zr);

	if (r < 0) {
		diag("%s: %s", vector_path(file), dt_strerror(r));
		return r;
	}
	return recs_read(zr, rs);
}

static void recs_free(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free((void *)rs->rr[i].owner);
		free((void *)rs->rr[i].rdata);
	}
	free(rs->rr);
	arena_free(&rs->arena);
	memset(rs, 0, sizeof(*rs));
}

/*
 * The authority section of a response block, after an optional edit:
 * lines starting with drop removed, then from replaced by to, then extra
 * lines put first. Returns 0 or a negative code (a failed test).
 */
static int load_auth_x(const char *id, const char *drop, const char *from,
		       const char *to, const char *extra, struct recs *rs)
{
	char *block = block_text(RESP_FILE, id), *sec, *t;
	int r;

	if (!block) {
		ok(0, "block %s in %s", id, vector_path(RESP_FILE));
		return -1;
	}
	sec = section_text(block, ";; Authority");
	free(block);
	if (!sec) {
		ok(0, "authority section of %s", id);
		return -1;
	}
	if (drop) {
		t = drop_lines(sec, drop);
		free(sec);
		sec = t;
	}
	if (from) {
		t = replace(sec, from, to);
		free(sec);
		sec = t;
	}
	if (extra) {
		t = malloc(strlen(extra) + strlen(sec) + 2);
		if (!t)
			abort();
		sprintf(t, "%s\n%s", extra, sec);
		free(sec);
		sec = t;
	}
	r = recs_from_text(sec, rs);
	free(sec);
	if (r < 0)
		ok(0, "records of %s: %s", id, dt_strerror(r));
	return r;
}

static int load_auth(const char *id, const char *drop, const char *from,
		     const char *to, struct recs *rs)
{
	return load_auth_x(id, drop, from, to, NULL, rs);
}

static const uint8_t *N(const char *text)
{
	/* A ring of buffers so that a call may take several names. */
	static uint8_t ring[8][DT_NAME_MAXLEN];
	static unsigned next;
	uint8_t *out = ring[next++ % 8];

	if (wire_dname_from_str(text, strlen(text), NULL, out) < 0)
		abort();
	return out;
}

static void check(const struct val_verdict *v, enum val_status status,
		  uint16_t ede, const char *tag, const char *what)
{
	is_int(v->status, status, "%s: %s", what, val_status_name(status));
	is_int(v->ede, ede, "%s: EDE %u", what, (unsigned)ede);
	is_str(v->tag, tag, "%s: tag %s", what, tag);
	if (v->reason[0])
		diag("  reason: %s", v->reason);
}

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
