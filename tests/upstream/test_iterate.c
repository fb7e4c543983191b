/* SPDX-License-Identifier: MIT */
/*
 * The iterator's pieces that need no network (src/iterator/iter_hints.c,
 * iter_msg.c): root hints, built in and read from named.root text; the
 * reading of authoritative responses (referrals within bailiwick, glue
 * only in the sending zone and only for the referral's NS names, DS at
 * the parent, CNAMEs, final and lame responses); the response assembled
 * from the steps of a question; the reading of a priming response (the
 * root's NS RRset and only its names' addresses, the TTL bounded).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "iterator/iter_msg.h"
#include "iterator/iter_prime.h"
#include "iterator/iterate.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"
#include "tap.h"

static const uint8_t *name(const char *text)
{
	static uint8_t buf[8][DT_NAME_MAXLEN];
	static int k;
	uint8_t *b = buf[k++ % 8];

	if (wire_dname_from_str(text, strlen(text), NULL, b) < 0)
		abort();
	return b;
}

static const char *addr_str(const struct up_server *s)
{
	static char buf[80];

	up_server_str(s, buf, sizeof(buf));
	return buf;
}

/* --- hints --- */

static void test_hints(void)
{
	struct it_hints h;
	char err[256];
	static const char lab[] = ". 3600000 NS ns1.lab.\n"
				  "ns1.lab. 3600000 A 127.0.2.1\n";
	static const char named_root[] =
		";       This file holds the information on root name servers\n"
		".                        3600000      NS    "
		"A.ROOT-SERVERS.NET.\n"
		"A.ROOT-SERVERS.NET.      3600000      A     198.41.0.4\n"
		"A.ROOT-SERVERS.NET.      3600000      AAAA  "
		"2001:503:ba3e::2:30\n"
		".                        3600000      NS    "
		"B.ROOT-SERVERS.NET.\n"
		"B.ROOT-SERVERS.NET.      3600000      A     170.247.170.2\n"
		"stray.example.           3600000      A     192.0.2.66\n";

	it_hints_builtin(&h);
	is_int(h.n, 26, "built-in hints: 13 root servers, IPv4 and IPv6");
	is_str(addr_str(&h.addr[0]), "198.41.0.4", "first: a.root-servers.net");
	is_str(addr_str(&h.addr[13]), "2001:503:ba3e::2:30",
	       "then their IPv6 addresses");

	memset(&h, 0, sizeof(h));
	ok(it_hints_parse(lab, sizeof(lab) - 1, "lab.hints", &h, err,
			  sizeof(err)) == 0 &&
		   h.n == 1,
	   "the lab's hints: one address");
	is_str(addr_str(&h.addr[0]), "127.0.2.1", "ns1.lab.'s, port 53");

	ok(it_hints_parse(named_root, sizeof(named_root) - 1, "named.root", &h,
			  err, sizeof(err)) == 0,
	   "a named.root file");
	is_int(h.n, 3, "three addresses: an A without a root NS is left out");
	is_str(addr_str(&h.addr[2]), "170.247.170.2",
	       "names matched without regard to case");

	ok(it_hints_parse(". NS a.example.\n", 16, "noaddr", &h, err,
			  sizeof(err)) < 0 &&
		   strstr(err, "no address of a root server"),
	   "NS without an address: refused (%s)", err);
	ok(it_hints_parse(". NS\n", 5, "bad.hints", &h, err, sizeof(err)) < 0 &&
		   strncmp(err, "bad.hints:1:", 12) == 0,
	   "a syntax error names file:line (%s)", err);
	ok(it_hints_load("/nonexistent/root.hints", &h, err, sizeof(err)) < 0 &&
		   strstr(err, "/nonexistent/root.hints"),
	   "a missing file names the path (%s)", err);
}

/* --- responses --- */

static uint8_t pkt[4096];

/* Adds the records of text (zone lines, one a line) to section sec. */
static void add(struct wire_builder *b, enum wire_section sec, const char *text)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	int r;

	if (!text)
		return;
	zr = wire_zreader_new(text, strlen(text), ".", 3600, "t");
	while ((r = wire_zreader_next(zr, &rr)) == 1)
		if (wire_build_rr(b, sec, &rr) < 0)
			abort();
	if (r < 0) {
		fprintf(stderr, "%s\n", wire_zreader_error(zr));
		abort();
	}
	wire_zreader_free(zr);
}

/* A response to qname/qtype with these flags and records. */
static struct wire_msg *resp(const char *q, uint16_t qtype, uint16_t flags,
			     const char *an, const char *ns, const char *ar)
{
	struct wire_builder b;
	struct wire_msg *m;
	int err;

	if (wire_build_init(&b, pkt, sizeof(pkt), 1, WIRE_FLAG_QR | flags) <
		    0 ||
	    wire_build_question(&b, name(q), qtype, WIRE_CLASS_IN) < 0)
		abort();
	add(&b, WIRE_SEC_ANSWER, an);
	add(&b, WIRE_SEC_AUTHORITY, ns);
	add(&b, WIRE_SEC_ADDITIONAL, ar);
	m = wire_msg_parse(pkt, wire_build_finish(&b), 0, &err);
	if (!m)
		abort();
	return m;
}

static struct it_referral ref;
static uint8_t next[DT_NAME_MAXLEN];

static enum it_kind classify(struct wire_msg *m, const char *zone,
			     const char *q, uint16_t qtype)
{
	enum it_kind k;

	memset(&ref, 0, sizeof(ref));
	next[0] = 0;
	k = it_classify(m, name(zone), name(q), qtype, next, &ref);
	wire_msg_free(m);
	return k;
}

static const char *DELEG = "example.com. 172800 NS ns1.example.com.\n"
			   "example.com. 86400 NS ns.other.net.\n";
static const char *GLUE = "ns1.example.com. 3600 A 192.0.2.1\n"
			  "ns1.example.com. 3600 AAAA 2001:db8::1\n"
			  "ns.other.net. 3600 A 192.0.2.9\n"
			  "evil.example. 3600 A 192.0.2.66\n";

static void test_referrals(void)
{
	char txt[DT_NAME_TEXT_MAXLEN];
	bool evil = false;

	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, 0, NULL, DELEG,
			     GLUE),
			".", "www.example.com.", WIRE_TYPE_A),
	       IT_REFERRAL, "root: a referral to example.com. is followed");
	wire_dname_to_str(ref.zone, txt, sizeof(txt));
	is_str(txt, "example.com.", "the child zone");
	is_int(ref.nns, 2, "its two NS names");
	is_int(ref.ttl, 86400, "the NS RRset's smallest TTL");
	is_int(ref.naddr, 3, "glue in the root's bailiwick: three addresses");
	for (size_t i = 0; i < ref.naddr; i++)
		evil |= strcmp(addr_str(&ref.addr[i]), "192.0.2.66") == 0;
	ok(!evil, "glue for a name not among the NS names is not taken");

	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, 0, NULL, DELEG,
			     GLUE),
			"com.", "www.example.com.", WIRE_TYPE_A),
	       IT_REFERRAL, "from com.: followed too");
	is_int(ref.naddr, 2,
	       "but ns.other.net.'s glue is out of com.'s bailiwick: dropped");
	is_str(addr_str(&ref.addr[0]), "192.0.2.1", "ns1.example.com. A kept");

	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, 0, NULL,
			     "com. NS a.gtld-servers.net.\n", NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_LAME, "a referral upwards is lame");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, 0, NULL,
			     "example.com. NS ns1.example.com.\n", NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_LAME, "a referral to the server's own zone is lame");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, 0, NULL,
			     "example.org. NS ns.example.org.\n",
			     "ns.example.org. A 192.0.2.7\n"),
			"com.", "www.example.com.", WIRE_TYPE_A),
	       IT_LAME, "a referral sideways (not below the zone) is lame");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, 0, NULL,
			     "other.com. NS ns.other.com.\n", NULL),
			"com.", "www.example.com.", WIRE_TYPE_A),
	       IT_LAME, "a referral to a zone not above the name is lame");
	is_int(classify(
		       resp("example.com.", WIRE_TYPE_DS, 0, NULL, DELEG, GLUE),
		       "com.", "example.com.", WIRE_TYPE_DS),
	       IT_FINAL,
	       "DS: a referral to the name itself is not followed (the DS "
	       "lives at the parent)");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_DS, 0, NULL, DELEG,
			     GLUE),
			"com.", "www.example.com.", WIRE_TYPE_DS),
	       IT_REFERRAL, "DS below the child: followed");
}

static void test_answers(void)
{
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     "www.example.com. A 192.0.2.80\n", NULL, NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_FINAL, "an answer is final");
	is_int(classify(resp("WWW.Example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     "www.example.com. A 192.0.2.80\n", NULL, NULL),
			"example.com.", "WWW.Example.com.", WIRE_TYPE_A),
	       IT_FINAL, "whatever the case of the name");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     "www.example.com. CNAME web.example.com.\n"
			     "web.example.com. A 192.0.2.80\n",
			     NULL, NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_FINAL, "a CNAME chain ending in the data is final");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     "www.example.com. CNAME www.other.net.\n", NULL,
			     NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_CNAME, "a CNAME out of the zone is followed");
	ok(wire_dname_equal(next, name("www.other.net.")), "to its target");
	is_int(classify(resp("example.com.", WIRE_TYPE_ANY, WIRE_FLAG_AA,
			     "example.com. A 192.0.2.1\n"
			     "example.com. MX 10 mail.example.com.\n",
			     NULL, NULL),
			"example.com.", "example.com.", WIRE_TYPE_ANY),
	       IT_FINAL,
	       "qtype ANY: records of any type at the name are final");
	struct wire_msg *yx =
		resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
		     "example.com. DNAME a.very.long.example.\n", NULL, NULL);
	yx->rcode = 6;
	is_int(classify(yx, "example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_FINAL, "YXDOMAIN (a DNAME result too long) is final");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_CNAME, WIRE_FLAG_AA,
			     "www.example.com. CNAME www.other.net.\n", NULL,
			     NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_CNAME),
	       IT_FINAL, "not when the CNAME itself was asked");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     "www.example.com. CNAME gone.example.com.\n",
			     "example.com. SOA ns1.example.com. h.example.com. "
			     "1 2 3 4 5\n",
			     NULL),
			"example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_FINAL, "a CNAME whose target the zone denies is final");
	struct wire_msg *oob =
		resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
		     "www.example.com. CNAME www.other.net.\n"
		     "www.other.net. A 192.0.2.66\n",
		     "other.net. SOA ns.other.net. h.other.net. "
		     "1 2 3 4 5\n",
		     NULL);
	oob->rcode = WIRE_RCODE_NXDOMAIN;
	is_int(classify(oob, "example.com.", "www.example.com.", WIRE_TYPE_A),
	       IT_CNAME,
	       "a target out of the zone is asked of its own servers, "
	       "whatever the RCODE and records the alias's server gives "
	       "(RFC 2181 §5.4.1)");
	ok(wire_dname_equal(next, name("www.other.net.")), "to its target");
	is_int(classify(resp("x.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA, NULL,
			     "example.com. SOA ns1.example.com. h.example.com. "
			     "1 2 3 4 5\n",
			     NULL),
			"example.com.", "x.example.com.", WIRE_TYPE_A),
	       IT_FINAL, "NODATA is final");
	struct wire_msg *m = resp("x.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
				  NULL, NULL, NULL);
	m->rcode = WIRE_RCODE_NXDOMAIN;
	is_int(classify(m, "example.com.", "x.example.com.", WIRE_TYPE_A),
	       IT_FINAL, "NXDOMAIN is final");
	m = resp("x.example.com.", WIRE_TYPE_A, 0, NULL, NULL, NULL);
	m->rcode = WIRE_RCODE_SERVFAIL;
	is_int(classify(m, "example.com.", "x.example.com.", WIRE_TYPE_A),
	       IT_LAME, "SERVFAIL is lame");
	is_int(classify(
		       resp("x.example.com.", WIRE_TYPE_A, 0, NULL, NULL, NULL),
		       "example.com.", "x.example.com.", WIRE_TYPE_A),
	       IT_FINAL,
	       "an empty response without AA or SOA is NODATA (RFC 2308 "
	       "type 3)");
	is_int(classify(resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     NULL, DELEG, GLUE),
			"com.", "www.example.com.", WIRE_TYPE_A),
	       IT_REFERRAL, "a referral down with AA=1 is followed");
	is_int(classify(resp("x.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			     "y.example.com. A 192.0.2.1\n", NULL, NULL),
			"example.com.", "x.example.com.", WIRE_TYPE_A),
	       IT_LAME, "an answer about another name is lame");
}

static void test_child_apex(void)
{
	const char *soa = "sub.example.com. 300 SOA ns1.example.com. "
			  "h.example.com. 1 2 3 4 5\n";
	struct wire_msg *m;
	const uint8_t *apex;
	uint32_t ttl = 0;

	m = resp("sub.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA, NULL, soa,
		 NULL);
	apex = it_child_apex(m, name("example.com."), name("sub.example.com."),
			     &ttl);
	ok(apex && wire_dname_equal(apex, name("sub.example.com.")) &&
		   ttl == 300,
	   "an example.com. server's SOA of sub.example.com.: a child apex");
	ok(!it_child_apex(m, name("sub.example.com."), name("sub.example.com."),
			  &ttl),
	   "not when it is the zone asked");
	ok(!it_child_apex(m, name("example.com."), name("other.example.com."),
			  &ttl),
	   "not when the name asked is not below it");
	ok(!it_child_apex(m, name("other.com."), name("sub.example.com."),
			  &ttl),
	   "not when it is outside the zone asked");
	wire_msg_free(m);
	m = resp("sub.example.com.", WIRE_TYPE_A, 0, NULL, soa, NULL);
	ok(!it_child_apex(m, name("example.com."), name("sub.example.com."),
			  &ttl),
	   "not without AA");
	wire_msg_free(m);
}

/* --- assembly --- */

static void test_assemble(void)
{
	struct wire_msg *steps[2];
	uint8_t out[4096], raw0[4096];
	uint8_t name_copy0[DT_NAME_MAXLEN], name_copy1[DT_NAME_MAXLEN];
	struct wire_msg *m;
	int len, err;

	/* Step 1: the CNAME, from a wildcard, with its NSEC proof. */
	steps[0] = resp("www.example.com.", WIRE_TYPE_A, WIRE_FLAG_AA,
			"www.example.com. CNAME www.other.net.\n",
			"example.com. NS ns1.example.com.\n"
			"a.example.com. NSEC z.example.com. A\n",
			NULL);
	/* resp() reuses pkt: keep step 1 in a buffer of its own. */
	memcpy(raw0, steps[0]->raw, steps[0]->rawlen);
	size_t l0 = steps[0]->rawlen;
	wire_msg_free(steps[0]);
	steps[0] = wire_msg_parse(raw0, l0, 0, &err);
	steps[1] = resp("www.other.net.", WIRE_TYPE_A, WIRE_FLAG_AA, NULL,
			"other.net. SOA ns.other.net. h.other.net. 1 2 3 4 5\n"
			"www.other.net. NSEC zz.other.net. AAAA\n",
			NULL);
	steps[1]->rcode = WIRE_RCODE_NXDOMAIN;
	len = it_assemble((const struct wire_msg *const *)steps, NULL, 2,
			  name("www.example.com."), WIRE_TYPE_A, out,
			  sizeof(out));
	ok(len > 0, "two steps assembled (%d octets)", len);
	m = len > 0 ? wire_msg_parse(out, (size_t)len, 0, &err) : NULL;
	ok(m, "into a message that parses");
	if (m) {
		ok(wire_dname_equal(m->qname, name("www.example.com.")) &&
			   m->qtype == WIRE_TYPE_A,
		   "the question asked");
		is_int(m->rcode, WIRE_RCODE_NXDOMAIN, "the last step's RCODE");
		ok(m->hdr.flags & WIRE_FLAG_RA, "RA");
		is_int(m->count[WIRE_SEC_ANSWER], 1, "the CNAME in the answer");
		is_int(m->count[WIRE_SEC_AUTHORITY], 3,
		       "the first step's NSEC, the last's SOA and NSEC");
		ok(m->count[WIRE_SEC_AUTHORITY] == 3 &&
			   m->sec[WIRE_SEC_AUTHORITY][0].type ==
				   WIRE_TYPE_NSEC &&
			   m->sec[WIRE_SEC_AUTHORITY][1].type == WIRE_TYPE_SOA,
		   "the earlier proof first, the first step's NS left out");
		ok(m->edns.present && (m->edns.flags & WIRE_EDNS_DO),
		   "EDNS with DO");
		wire_msg_free(m);
	}
	ok(it_assemble((const struct wire_msg *const *)steps, NULL, 2,
		       name("www.example.com."), WIRE_TYPE_A, out, 40) < 0,
	   "too small a buffer: an error, not a cut message");
	/* Each step only for its own zone's records. */
	const uint8_t *zones[2] = {name_copy0, name_copy1};
	wire_dname_copy(name_copy0, name("example.com."));
	wire_dname_copy(name_copy1, name("other.net."));
	len = it_assemble((const struct wire_msg *const *)steps, zones, 2,
			  name("www.example.com."), WIRE_TYPE_A, out,
			  sizeof(out));
	m = len > 0 ? wire_msg_parse(out, (size_t)len, 0, &err) : NULL;
	ok(m && m->count[WIRE_SEC_ANSWER] == 1 &&
		   m->count[WIRE_SEC_AUTHORITY] == 3,
	   "with each step's zone, the records in its zone are all kept");
	wire_msg_free(m);
	wire_dname_copy(name_copy1, name("example.com."));
	len = it_assemble((const struct wire_msg *const *)steps, zones, 2,
			  name("www.example.com."), WIRE_TYPE_A, out,
			  sizeof(out));
	m = len > 0 ? wire_msg_parse(out, (size_t)len, 0, &err) : NULL;
	ok(m && m->count[WIRE_SEC_AUTHORITY] == 1,
	   "and a step's records outside its server's zone are dropped");
	wire_msg_free(m);
	wire_msg_free(steps[0]);
	wire_msg_free(steps[1]);
}

/* --- priming (RFC 8109) --- */

static const char *ROOT_NS = ". 518400 NS a.root-servers.net.\n"
			     ". 518400 NS b.root-servers.net.\n";

static void test_prime_read(void)
{
	struct it_hints h = {0};
	const char *why = NULL;
	uint32_t ttl = 0;
	struct wire_msg *m;

	m = resp(".", WIRE_TYPE_NS, WIRE_FLAG_AA, ROOT_NS, NULL,
		 "a.root-servers.net. 518400 A 198.41.0.4\n"
		 "a.root-servers.net. 518400 AAAA 2001:503:ba3e::2:30\n"
		 "b.root-servers.net. 3600000 A 170.247.170.2\n"
		 "evil.example. 518400 A 192.0.2.66\n"
		 "A.ROOT-SERVERS.NET. 518400 A 198.41.0.4\n");
	ok(it_prime_read(m, &h, &ttl, &why) == 0 && why == NULL,
	   "a priming response is read");
	is_int(h.n, 3,
	       "three addresses: the NS names' (a duplicate once), "
	       "not another name's");
	is_str(addr_str(&h.addr[0]), "198.41.0.4", "a.root-servers.net. A");
	is_str(addr_str(&h.addr[1]), "2001:503:ba3e::2:30", "its AAAA");
	is_str(addr_str(&h.addr[2]), "170.247.170.2", "b.root-servers.net. A");
	is_int(ttl, DT_IT_PRIME_TTL_MAX, "the 6-day TTL capped at a day");
	wire_msg_free(m);

	m = resp(".", WIRE_TYPE_NS, WIRE_FLAG_AA, ". 5 NS a.root.\n", NULL,
		 "a.root. 5 A 192.0.2.1\n");
	ok(it_prime_read(m, &h, &ttl, &why) == 0 &&
		   ttl == DT_IT_PRIME_TTL_MIN && h.n == 1,
	   "a TTL of 5 s raised to %u s", DT_IT_PRIME_TTL_MIN);
	wire_msg_free(m);

	m = resp(".", WIRE_TYPE_NS, WIRE_FLAG_AA, ". 7200 NS a.root.\n", NULL,
		 "a.root. 600 A 192.0.2.1\n");
	ok(it_prime_read(m, &h, &ttl, &why) == 0 && ttl == 600,
	   "the smallest TTL of the records used: the address's");
	wire_msg_free(m);

	struct {
		uint16_t flags;
		const char *an, *ar, *what;
	} bad[] = {
		{0, ROOT_NS, "a.root-servers.net. A 198.41.0.4\n",
		 "not authoritative (AA=0)"},
		{WIRE_FLAG_AA | WIRE_RCODE_NXDOMAIN, NULL, NULL, "NXDOMAIN"},
		{WIRE_FLAG_AA, NULL, "a.root-servers.net. A 198.41.0.4\n",
		 "no NS RRset in the answer"},
		{WIRE_FLAG_AA, "com. NS a.gtld-servers.net.\n",
		 "a.gtld-servers.net. A 192.5.6.30\n",
		 "an NS RRset of another name"},
		{WIRE_FLAG_AA, ROOT_NS, NULL, "no additional section"},
		{WIRE_FLAG_AA, ROOT_NS, "evil.example. A 192.0.2.66\n",
		 "addresses of other names only"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct it_hints keep = {.n = 7};

		m = resp(".", WIRE_TYPE_NS, bad[i].flags, bad[i].an, NULL,
			 bad[i].ar);
		why = NULL;
		ok(it_prime_read(m, &keep, &ttl, &why) == DT_EUPSTREAM && why &&
			   keep.n == 7,
		   "refused: %s (%s)", bad[i].what, why ? why : "-");
		wire_msg_free(m);
	}
}

/* --- do-not-query --- */

static void test_addr_kind(void)
{
	static const struct {
		const char *a;
		enum it_addr_kind want;
	} cases[] = {
		{"192.0.2.1", IT_ADDR_SERVER},
		{"2001:db8::1", IT_ADDR_SERVER},
		{"127.0.0.1", IT_ADDR_LOOPBACK},
		{"127.6.53.4", IT_ADDR_LOOPBACK},
		{"::1", IT_ADDR_LOOPBACK},
		{"::ffff:127.0.0.1", IT_ADDR_LOOPBACK},
		{"0.0.0.0", IT_ADDR_NEVER},
		{"0.1.2.3", IT_ADDR_NEVER},
		{"::", IT_ADDR_NEVER},
		{"::ffff:0.0.0.0", IT_ADDR_NEVER},
		{"224.0.0.1", IT_ADDR_NEVER},
		{"255.255.255.255", IT_ADDR_NEVER},
		{"ff02::1", IT_ADDR_NEVER},
		{"::ffff:192.0.2.1", IT_ADDR_SERVER},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct up_server s;

		if (up_server_parse(cases[i].a, &s) < 0) {
			ok(0, "%s parses", cases[i].a);
			continue;
		}
		is_int(it_addr_kind(&s), cases[i].want, "%s: kind %d",
		       cases[i].a, cases[i].want);
	}
}

int main(void)
{
	test_hints();
	test_addr_kind();
	test_referrals();
	test_answers();
	test_child_apex();
	test_assemble();
	test_prime_read();
	return done_testing();
}
