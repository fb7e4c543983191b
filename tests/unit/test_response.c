/* SPDX-License-Identifier: MIT */
/*
 * The validator's used list (validator/response.h): genuine signed data
 * of the fixture zone (response_fixture.h) with unvalidated records added
 * beside it, as an attacker on the upstream path would. The list must name
 * exactly the chain, in order; the verdict and the proven RCODE must be
 * those docs/DESIGN.md gives for each case.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "response_fixture.h"
#include "tap.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "validator/response.h"
#include "wire/msg.h"

static struct val_anchors *anchors;
static struct fx_rrs keys;

/* One validation of a response made of text. */
struct run {
	struct fx_rrs an, ns;
	struct val_result res;
	int rc;
};

static const char *roles[] = {"?", "link", "synth", "final", "proof", "soa"};

static void run_free(struct run *r)
{
	fx_free(&r->an);
	fx_free(&r->ns);
}

static void run(struct run *r, const char *qname, uint16_t qtype,
		uint16_t rcode, const char *an, const char *ns)
{
	uint8_t q[DT_NAME_MAXLEN];
	struct val_keysource src;
	struct val_ctx ctx;

	memset(r, 0, sizeof(*r));
	r->rc = -1;
	if (wire_dname_from_str(qname, strlen(qname), NULL, q) < 0 ||
	    fx_load(an, &r->an) < 0 || fx_load(ns, &r->ns) < 0) {
		diag("bad test input for %s", qname);
		return;
	}
	val_ctx_init(&ctx, FIXTURE_NOW, NULL);
	struct val_bag *bag = val_bag_new(&ctx, anchors, keys.rr, keys.n);
	if (!bag)
		return;
	val_bag_keysource(bag, &src);
	struct val_response resp = {
		.qname = q,
		.qtype = qtype,
		.qclass = WIRE_CLASS_IN,
		.rcode = rcode,
		.answer = r->an.rr,
		.nanswer = r->an.n,
		.authority = r->ns.rr,
		.nauthority = r->ns.n,
	};
	r->rc = val_response_validate(&ctx, &resp, &src, &r->res);
	val_bag_free(bag);
}

static const struct fx_rrs *section_of(const struct run *r,
				       const struct val_used *u)
{
	return u->section == WIRE_SEC_ANSWER ? &r->an : &r->ns;
}

/* The used list as "owner/TYPE role, ...". */
static const char *used_str(const struct run *r, char *buf, size_t cap)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->res.nused && off < cap; i++) {
		const struct val_used *u = &r->res.used[i];
		char name[DT_NAME_TEXT_MAXLEN], tb[16];
		wire_dname_to_str(section_of(r, u)->rr[u->first].owner, name,
				  sizeof(name));
		off += (size_t)snprintf(buf + off, cap - off, "%s%s/%s %s",
					i ? ", " : "", name,
					wire_type_to_str(u->type, tb),
					roles[u->role <= 5 ? u->role : 0]);
	}
	return buf;
}

/* Records of a section held by some used RRset. */
static size_t held(const struct run *r, int sec)
{
	const struct fx_rrs *s = sec == WIRE_SEC_ANSWER ? &r->an : &r->ns;
	size_t n = 0;

	for (size_t k = 0; k < s->n; k++) {
		for (size_t i = 0; i < r->res.nused; i++) {
			const struct val_used *u = &r->res.used[i];
			if (u->section == sec &&
			    val_used_holds(u, &s->rr[u->first], &s->rr[k])) {
				n++;
				break;
			}
		}
	}
	return n;
}

/* A response text: the fixture's RRsets named in pairs, then extra. */
static char *text(const char *extra, ...)
{
	static char buf[16384];
	va_list ap;
	const char *owner;

	buf[0] = 0;
	va_start(ap, extra);
	while ((owner = va_arg(ap, const char *)) != NULL)
		fx_select(buf, sizeof(buf), owner, va_arg(ap, const char *));
	va_end(ap);
	strncat(buf, extra, sizeof(buf) - strlen(buf) - 1);
	return strdup(buf);
}

static void expect(const char *what, const struct run *r,
		   enum val_status status, const char *tag, uint16_t rcode,
		   const char *used)
{
	char buf[2048];

	is_int(r->rc, 0, "%s: validated", what);
	is_str(val_status_name(r->res.verdict.status), val_status_name(status),
	       "%s: %s", what, val_status_name(status));
	if (tag)
		is_str(r->res.verdict.tag, tag, "%s: tag %s", what, tag);
	is_int(r->res.rcode, rcode, "%s: proven RCODE %u", what, rcode);
	is_str(used_str(r, buf, sizeof(buf)), used, "%s: used list", what);
}

#define WWW "www.secure.test."
#define EVIL "www.secure.test. 3600 IN CNAME evil.plain.\n" \
	     "evil.plain. 3600 IN A 6.6.6.6\n"

static void check(const char *what, const char *qname, uint16_t qtype,
		  uint16_t rcode, char *an, char *ns, enum val_status status,
		  const char *tag, uint16_t want_rcode, const char *used,
		  struct run *keep)
{
	struct run r;

	run(&r, qname, qtype, rcode, an, ns);
	expect(what, &r, status, tag, want_rcode, used);
	free(an);
	free(ns);
	if (keep)
		*keep = r;
	else
		run_free(&r);
}

static void test_cname_beside_data(void)
{
	check("CNAME and its target beside a signed A", WWW, WIRE_TYPE_A, 0,
	      text(EVIL, WWW, "A", NULL), text("", NULL), VAL_SECURE, NULL, 0,
	      "www.secure.test./A final", NULL);
	check("an unsigned A and CNAME, nothing signed", WWW, WIRE_TYPE_A, 0,
	      text(EVIL "www.secure.test. 3600 IN A 6.6.6.6\n", NULL),
	      text("", NULL), VAL_BOGUS, "resp-unsigned", 0,
	      "www.secure.test./A final", NULL);
	check("an unsigned A beside a signed CNAME", "alias.secure.test.",
	      WIRE_TYPE_A, 0,
	      text("alias.secure.test. 60 IN A 6.6.6.6\n",
		   "alias.secure.test.", "CNAME", WWW, "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0,
	      "alias.secure.test./CNAME link, www.secure.test./A final", NULL);
	check("two CNAMEs at one owner", "alias.secure.test.", WIRE_TYPE_A, 0,
	      text("alias.secure.test. 3600 IN CNAME evil.plain.\n",
		   "alias.secure.test.", "CNAME", WWW, "A", NULL),
	      text("", NULL), VAL_BOGUS, "resp-alias-not-single", 0,
	      "alias.secure.test./CNAME link, www.secure.test./A final", NULL);
	check("a chain to the TLSA, and one to the attacker's",
	      "_443._tcp.www.secure.test.", WIRE_TYPE_TLSA, 0,
	      text("_443._tcp.www.secure.test. 3600 IN CNAME evil.plain.\n"
		   "evil.plain. 3600 IN TLSA 3 1 1 ffff\n",
		   "_443._tcp.www.secure.test.", "TLSA", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0,
	      "_443._tcp.www.secure.test./TLSA final", NULL);
}

#define SYNTH "www.sub.secure.test. 3600 IN CNAME www.other.secure.test.\n"

static void test_dname(void)
{
	check("DNAME, its CNAME and the target", "www.sub.secure.test.",
	      WIRE_TYPE_A, 0,
	      text(SYNTH, "sub.secure.test.", "DNAME",
		   "www.other.secure.test.", "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0,
	      "sub.secure.test./DNAME link, www.sub.secure.test./CNAME "
	      "synth, www.other.secure.test./A final",
	      NULL);
	/* A client following CNAMEs would read "no data", signed. */
	check("DNAME without its CNAME", "www.sub.secure.test.", WIRE_TYPE_A,
	      0,
	      text("", "sub.secure.test.", "DNAME", "www.other.secure.test.",
		   "A", NULL),
	      text("", NULL), VAL_BOGUS, "resp-dname-no-cname", 0,
	      "sub.secure.test./DNAME link", NULL);
	check("qtype CNAME through a DNAME: the synthesised CNAME",
	      "www.sub.secure.test.", WIRE_TYPE_CNAME, 0,
	      text(SYNTH, "sub.secure.test.", "DNAME", NULL), text("", NULL),
	      VAL_SECURE, NULL, 0,
	      "sub.secure.test./DNAME link, www.sub.secure.test./CNAME synth",
	      NULL);
	struct run r;

	check("DNAME whose CNAME points elsewhere", "www.sub.secure.test.",
	      WIRE_TYPE_A, 0,
	      text("www.sub.secure.test. 3600 IN CNAME evil.plain.\n"
		   "evil.plain. 3600 IN A 6.6.6.6\n",
		   "sub.secure.test.", "DNAME", NULL),
	      text("", NULL), VAL_BOGUS, "resp-dname-cname-mismatch", 0,
	      "sub.secure.test./DNAME link", &r);
	/* The DNAME validated on its own: it may answer later questions
	 * (source.c keeps such links); the forged CNAME never. */
	ok(r.res.nused == 1 && r.res.used[0].link_secure,
	   "the mismatched answer's DNAME is marked secure on its own");
	run_free(&r);
	check("forged DNAME, CNAME to match", "www.sub.secure.test.",
	      WIRE_TYPE_A, 0,
	      text("sub.secure.test. 3600 IN DNAME evil.plain.\n"
		   "www.sub.secure.test. 3600 IN CNAME www.evil.plain.\n"
		   "www.evil.plain. 3600 IN A 6.6.6.6\n", NULL),
	      text("", NULL), VAL_BOGUS, NULL, 0,
	      "sub.secure.test./DNAME link, www.sub.secure.test./CNAME synth, "
	      "www.evil.plain./A final",
	      &r);
	ok(r.res.nused == 3 && !r.res.used[0].link_secure,
	   "an unsigned DNAME is not marked secure");
	run_free(&r);
	check("an injected DNAME and CNAME beside a signed A", WWW,
	      WIRE_TYPE_A, 0,
	      text("secure.test. 3600 IN DNAME evil.plain.\n"
		   "www.secure.test. 3600 IN CNAME www.evil.plain.\n"
		   "www.evil.plain. 3600 IN A 6.6.6.6\n",
		   WWW, "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0, "www.secure.test./A final",
	      NULL);
	check("an injected DNAME above a signed CNAME", "alias.secure.test.",
	      WIRE_TYPE_A, 0,
	      text("secure.test. 3600 IN DNAME evil.plain.\n",
		   "alias.secure.test.", "CNAME", WWW, "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0,
	      "alias.secure.test./CNAME link, www.secure.test./A final", NULL);
}

/* RFC 6672 §2.2: a substitution longer than 255 octets is YXDOMAIN,
 * proven by the validated DNAME; qtype RRSIG is answered unvalidated
 * (signatures are not signed themselves). */
static void test_yxdomain_and_rrsig(void)
{
	char q[300], label[64];

	memset(label, 'a', 63);
	label[63] = 0;
	/* 3 x 64 + 45 + 17 (sub.secure.test.) = 254 octets; the
	 * substitution (other.secure.test., 19) would make 256. */
	snprintf(q, sizeof(q), "%s.%s.%s.%.44s.sub.secure.test.", label, label,
		 label, label);
	check("a DNAME substitution over 255 octets", q, WIRE_TYPE_A, 0,
	      text("", "sub.secure.test.", "DNAME", NULL), text("", NULL),
	      VAL_SECURE, NULL, 6, "sub.secure.test./DNAME link", NULL);
	check("qtype RRSIG", "www.other.secure.test.", WIRE_TYPE_RRSIG, 0,
	      text("www.other.secure.test.\t3600\tIN\tRRSIG\tA 13 4 3600 "
		   "20360101000000 20260101000000 12458 secure.test. "
		   "Lh2Zkvits+OOuq7p/FEllWXzn6K2p8VxTyalffFsygme3R+5spnhq1a1"
		   "GHI7rpzUMzP2vSLTQpTLwcf9E8T/Vg==\n",
		   NULL),
	      text("", NULL), VAL_INSECURE, "resp-qtype-rrsig", 0,
	      "www.other.secure.test./RRSIG final", NULL);
}

static void test_class_and_case(void)
{
	struct run r;

	check("other-class CNAME and A beside a signed A", WWW, WIRE_TYPE_A, 0,
	      text("www.secure.test. 3600 CH CNAME evil.plain.\n"
		   "www.secure.test. 3600 CH A 6.6.6.6\n",
		   WWW, "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0, "www.secure.test./A final",
	      NULL);
	check("other-class data alone is no answer", WWW, WIRE_TYPE_A, 0,
	      text("www.secure.test. 3600 CH A 6.6.6.6\n", NULL),
	      text("", NULL), VAL_BOGUS, "resp-no-denial", 0, "", NULL);
	check("an RRset split, spelled in two cases", "two.secure.test.",
	      WIRE_TYPE_A, 0,
	      text("TWO.secure.test. 3600 IN A 192.0.2.3\n"
		   "two.SECURE.TEST. 60 IN A 192.0.2.4\n",
		   "two.secure.test.", "RRSIG", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0, "TWO.secure.test./A final",
	      &r);
	is_int(held(&r, WIRE_SEC_ANSWER), 3, "both halves and the RRSIG held");
	is_int(r.res.used[0].ttl, 60, "the split RRset gets its smallest TTL");
	run_free(&r);
	check("a case-variant record added to a signed RRset",
	      "two.secure.test.", WIRE_TYPE_A, 0,
	      text("TWO.SECURE.TEST. 3600 IN A 6.6.6.6\n", "two.secure.test.",
		   "A", NULL),
	      text("", NULL), VAL_BOGUS, NULL, 0,
	      "two.secure.test./A final", NULL);
}

static void test_rcode(void)
{
	check("NXDOMAIN beside the signed answer", WWW, WIRE_TYPE_A,
	      WIRE_RCODE_NXDOMAIN, text("", WWW, "A", NULL), text("", NULL),
	      VAL_SECURE, NULL, WIRE_RCODE_NOERROR, "www.secure.test./A final",
	      NULL);
}

#define JUNK                                                               \
	"nothere.secure.test. 3600 IN A 6.6.6.6\n"                         \
	"nothere.secure.test. 3600 IN TXT \"junk\"\n"                      \
	"evil.plain. 3600 IN A 6.6.6.6\n"                                  \
	"secure.test. 3600 IN DNSKEY 256 3 13 AAAA\n"

static void test_negative(void)
{
	struct run r;

	check("junk answers in an NXDOMAIN", "nothere.secure.test.",
	      WIRE_TYPE_MX, WIRE_RCODE_NXDOMAIN, text(JUNK, NULL),
	      text("nothere.secure.test. 3600 IN NS evil.plain.\n",
		   "secure.test.", "SOA", "secure.test.", "NSEC",
		   "alias.secure.test.", "NSEC", NULL),
	      VAL_SECURE, NULL, WIRE_RCODE_NXDOMAIN,
	      "secure.test./NSEC proof, alias.secure.test./NSEC proof, "
	      "secure.test./SOA soa",
	      &r);
	ok(r.res.ttl <= 300, "the SOA minimum bounds the negative TTL (%u)",
	   r.res.ttl);
	is_int(held(&r, WIRE_SEC_ANSWER), 0, "no answer record held");
	run_free(&r);
	check("junk beside a NODATA proof", WWW, WIRE_TYPE_MX, 0,
	      text("evil.plain. 3600 IN MX 10 evil.plain.\n", NULL),
	      text("", "secure.test.", "SOA", WWW, "NSEC", NULL), VAL_SECURE,
	      NULL, 0,
	      "www.secure.test./NSEC proof, secure.test./SOA soa", NULL);
	/* The zone signed its SOA: a bad or missing signature on it means
	 * the response was altered, even beside a sound proof. */
	check("a NODATA proof beside an SOA whose signature fails", WWW,
	      WIRE_TYPE_MX, 0, text("", NULL),
	      text("secure.test. 3600 IN SOA ns.secure.test. "
		   "host.secure.test. 2 7200 3600 1209600 300\n"
		   "secure.test. 3600 IN RRSIG SOA 13 2 3600 20360101000000 "
		   "20260101000000 12458 secure.test. 43it6dWKzx+28pLLajJMSZT+"
		   "yPyvQ5a8rvLcRUJoCFaoAk82VVQ2H1JKt+yhX4cZXxf7k70Ltj/NYscZBf"
		   "Z13w==\n",
		   WWW, "NSEC", NULL),
	      VAL_BOGUS, "sig-bad", 0, "www.secure.test./NSEC proof", NULL);
	check("a NODATA proof beside an unsigned SOA", WWW, WIRE_TYPE_MX, 0,
	      text("", NULL),
	      text("secure.test. 3600 IN SOA ns.secure.test. "
		   "host.secure.test. 1 7200 3600 1209600 300\n",
		   WWW, "NSEC", NULL),
	      VAL_BOGUS, NULL, 0, "www.secure.test./NSEC proof", NULL);
	check("another zone's unsigned SOA beside a NODATA proof", WWW,
	      WIRE_TYPE_MX, 0, text("", NULL),
	      text("plain. 3600 IN SOA ns.plain. host.plain. 1 7200 3600 "
		   "1209600 300\n",
		   WWW, "NSEC", NULL),
	      VAL_SECURE, NULL, 0, "www.secure.test./NSEC proof", NULL);
	check("an unsigned RRset of qtype beside a NODATA proof", WWW,
	      WIRE_TYPE_MX, 0,
	      text("www.secure.test. 3600 IN MX 10 evil.plain.\n", NULL),
	      text("", "secure.test.", "SOA", WWW, "NSEC", NULL), VAL_BOGUS,
	      "resp-unsigned", 0, "www.secure.test./MX final", NULL);
}

static void test_dnskeys(void)
{
	check("extra DNSKEYs in an A answer", WWW, WIRE_TYPE_A, 0,
	      text("secure.test. 3600 IN DNSKEY 256 3 13 AAAA\n"
		   "secure.test. 3600 IN DNSKEY 257 3 13 AAAB\n",
		   WWW, "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0, "www.secure.test./A final",
	      NULL);
	check("an extra DNSKEY in the DNSKEY answer", "secure.test.",
	      WIRE_TYPE_DNSKEY, 0,
	      text("secure.test. 3600 IN DNSKEY 256 3 13 AAAA\n",
		   "secure.test.", "DNSKEY", NULL),
	      text("", NULL), VAL_BOGUS, NULL, 0,
	      "secure.test./DNSKEY final", NULL);
	check("off-chain records of the queried type", WWW, WIRE_TYPE_A, 0,
	      text("mail.secure.test. 3600 IN A 6.6.6.6\n"
		   "www.evil.plain. 3600 IN A 6.6.6.6\n",
		   WWW, "A", NULL),
	      text("", NULL), VAL_SECURE, NULL, 0, "www.secure.test./A final",
	      NULL);
}

int main(void)
{
	struct fx_rrs a = {0};

	anchors = val_anchors_new();
	if (!anchors || fx_load(fixture_anchor, &a) < 0 || a.n != 1 ||
	    val_anchors_add(anchors, &a.rr[0]) < 0) {
		printf("Bail out! fixture anchor\n");
		return 1;
	}
	char *k = text("", "secure.test.", "DNSKEY", NULL);
	if (fx_load(k, &keys) < 0 || keys.n != 3) {
		printf("Bail out! fixture keys\n");
		return 1;
	}
	free(k);
	test_cname_beside_data();
	test_dname();
	test_yxdomain_and_rrsig();
	test_class_and_case();
	test_rcode();
	test_negative();
	test_dnskeys();
	fx_free(&a);
	fx_free(&keys);
	val_anchors_free(anchors);
	return done_testing();
}
