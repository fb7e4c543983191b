/* SPDX-License-Identifier: MIT */
/*
 * dnstrustd's rendering (src/daemon/render.c): replies carry only the
 * validator's used list with the proven RCODE, and are built whole or not
 * at all: a long name with EDNS size 512 and a long EDE text, records
 * that do not fit (TC, none of them sent), a stream without limit.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "resolver/answer.h"
#include "resolver/render.h"
#include "response_fixture.h"
#include "tap.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "validator/response.h"
#include "wire/bytes.h"
#include "wire/msg.h"

static struct val_anchors *anchors;
static struct fx_rrs keys;

/* An upstream response built from text, parsed as the daemon has it. */
static struct wire_msg *make_msg(const char *qname, uint16_t qtype,
				 uint16_t rcode, const char *an,
				 const char *ns)
{
	static uint8_t buf[DT_MSG_MAXLEN];
	struct fx_rrs a = {0}, n = {0};
	uint8_t q[DT_NAME_MAXLEN];
	struct wire_builder b;
	int err = 0;

	if (wire_dname_from_str(qname, strlen(qname), NULL, q) < 0 ||
	    fx_load(an, &a) < 0 || fx_load(ns, &n) < 0)
		return NULL;
	wire_build_init(&b, buf, sizeof(buf), 1,
			WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA | rcode);
	wire_build_question(&b, q, qtype, WIRE_CLASS_IN);
	for (size_t i = 0; i < a.n && !err; i++)
		err = wire_build_rr(&b, WIRE_SEC_ANSWER, &a.rr[i]);
	for (size_t i = 0; i < n.n && !err; i++)
		err = wire_build_rr(&b, WIRE_SEC_AUTHORITY, &n.rr[i]);
	size_t len = wire_build_finish(&b);
	fx_free(&a);
	fx_free(&n);
	return err ? NULL : wire_msg_parse(buf, len, 0, &err);
}

/* Validates m into a (which then owns m). */
static bool validated(struct wire_msg *m, struct answer *a)
{
	static struct val_result res;
	struct val_keysource src;
	struct val_ctx ctx;

	memset(a, 0, sizeof(*a));
	if (!m)
		return false;
	val_ctx_init(&ctx, FIXTURE_NOW, NULL);
	struct val_bag *bag = val_bag_new(&ctx, anchors, keys.rr, keys.n);
	struct val_response resp = {
		.qname = m->qname,
		.qtype = m->qtype,
		.qclass = WIRE_CLASS_IN,
		.rcode = m->rcode,
		.answer = m->sec[WIRE_SEC_ANSWER],
		.nanswer = m->count[WIRE_SEC_ANSWER],
		.authority = m->sec[WIRE_SEC_AUTHORITY],
		.nauthority = m->count[WIRE_SEC_AUTHORITY],
	};
	val_bag_keysource(bag, &src);
	int r = val_response_validate(&ctx, &resp, &src, &res);
	val_bag_free(bag);
	memset(a, 0, sizeof(*a));
	a->status = res.verdict.status;
	a->ede = res.verdict.ede;
	a->tag = res.verdict.tag;
	memcpy(a->reason, res.verdict.reason, sizeof(a->reason));
	a->rcode = res.rcode;
	a->ttl = res.ttl;
	a->msg = m;
	a->used = res.used;
	a->nused = res.nused;
	return r == 0;
}

static void qinfo_for(struct qinfo *q, const struct wire_msg *m, bool edns,
		      uint16_t udp, bool cd)
{
	memset(q, 0, sizeof(*q));
	q->id = 77;
	q->flags = WIRE_FLAG_RD | (cd ? WIRE_FLAG_CD : 0);
	q->edns = edns;
	q->do_bit = edns;
	q->want_status = edns;
	q->udp_size = udp;
	wire_dname_copy(q->qname, m->qname);
	q->qtype = m->qtype;
	q->qclass = WIRE_CLASS_IN;
}

static uint8_t out[DT_MSG_MAXLEN];

/* Renders and parses; NULL when the reply is empty, longer than the
 * client's size, does not parse or lacks the question. */
static struct wire_msg *rendered(const struct answer *a,
				 const struct qinfo *q, bool *tc)
{
	struct render r = {0};
	size_t len = render_build(&r, a, q, 0, false, out,
				  render_cap(q, sizeof(out)));
	int err;

	if (!len || len > render_cap(q, sizeof(out)))
		return NULL;
	struct wire_msg *m = wire_msg_parse(out, len, 0, &err);
	if (m && (!m->has_question || !wire_dname_equal(m->qname, q->qname))) {
		wire_msg_free(m);
		return NULL;
	}
	*tc = r.truncated;
	return m;
}

static char *sel(const char *extra, const char *owner, const char *type)
{
	static char buf[8192];

	buf[0] = 0;
	if (owner)
		fx_select(buf, sizeof(buf), owner, type);
	strncat(buf, extra, sizeof(buf) - strlen(buf) - 1);
	return buf;
}

static void test_only_used(void)
{
	struct answer a;
	struct qinfo q;
	bool tc;

	ok(validated(make_msg("www.secure.test.", WIRE_TYPE_A,
			      WIRE_RCODE_NXDOMAIN,
			      sel("www.secure.test. 3600 IN CNAME evil.plain.\n"
				  "evil.plain. 3600 IN A 6.6.6.6\n",
				  "www.secure.test.", "A"),
			      "evil.plain. 3600 IN NS ns.evil.plain.\n"),
		     &a),
	   "injected CNAME beside a signed A: validated");
	qinfo_for(&q, a.msg, true, 1232, false);
	struct wire_msg *r = rendered(&a, &q, &tc);
	ok(r != NULL, "the reply parses");
	if (r) {
		is_int(r->rcode, WIRE_RCODE_NOERROR,
		       "RCODE: the proven NOERROR, not the upstream's NXDOMAIN");
		ok(r->hdr.flags & WIRE_FLAG_AD, "AD set: secure");
		is_int(r->count[WIRE_SEC_ANSWER], 2, "the A and its RRSIG only");
		is_int(r->count[WIRE_SEC_AUTHORITY], 0, "no injected NS");
		ok(r->count[WIRE_SEC_ANSWER] >= 1 &&
			   r->sec[WIRE_SEC_ANSWER][0].type == WIRE_TYPE_A,
		   "the answer is the signed A");
		wire_msg_free(r);
	}
	qinfo_for(&q, a.msg, false, 512, false);
	r = rendered(&a, &q, &tc);
	ok(r && r->count[WIRE_SEC_ANSWER] == 1,
	   "without DO: the A alone, no RRSIG");
	/* RFC 6840 §5.8: AD only when the query had DO=1 or AD=1. */
	ok(r && !(r->hdr.flags & WIRE_FLAG_AD),
	   "neither DO nor AD in the query: no AD, though secure");
	wire_msg_free(r);
	q.flags |= WIRE_FLAG_AD;
	r = rendered(&a, &q, &tc);
	ok(r && (r->hdr.flags & WIRE_FLAG_AD),
	   "AD=1 in the query, no DO: AD set");
	wire_msg_free(r);
	wire_msg_free(a.msg);
}

/* RRSIGs past the DT_VAL_RRSIGS_PER_RRSET the validator looks at are not
 * used, so not shown: 11 injected after the genuine one leave 8 in all. */
static void test_rrsig_cap(void)
{
	static char extra[4096];
	struct answer a;
	struct qinfo q;
	bool tc;

	extra[0] = 0;
	for (int i = 0; i < 11; i++) {
		char line[256];
		snprintf(line, sizeof(line),
			 "www.secure.test. 3600 IN RRSIG A 13 3 3600 "
			 "20360101000000 20260101000000 %d secure.test. "
			 "AAAA\n",
			 900 + i);
		strncat(extra, line, sizeof(extra) - strlen(extra) - 1);
	}
	ok(validated(make_msg("www.secure.test.", WIRE_TYPE_A, 0,
			      sel(extra, "www.secure.test.", "A"), ""),
		     &a) &&
		   a.status == VAL_SECURE,
	   "a signed A with 11 more RRSIGs: secure");
	qinfo_for(&q, a.msg, true, 4096, false);
	struct wire_msg *r = rendered(&a, &q, &tc);
	size_t sigs = 0;
	for (size_t i = 0; r && i < r->count[WIRE_SEC_ANSWER]; i++)
		sigs += r->sec[WIRE_SEC_ANSWER][i].type == WIRE_TYPE_RRSIG;
	is_int((int)sigs, DT_VAL_RRSIGS_PER_RRSET,
	       "with DO: the first %d RRSIGs, the genuine one among them",
	       DT_VAL_RRSIGS_PER_RRSET);
	ok(r && r->count[WIRE_SEC_ANSWER] >= 2 &&
		   r->sec[WIRE_SEC_ANSWER][1].type == WIRE_TYPE_RRSIG &&
		   wire_get16(r->sec[WIRE_SEC_ANSWER][1].rdata + 16) != 900,
	   "the genuine RRSIG is shown");
	wire_msg_free(r);
	wire_msg_free(a.msg);
}

/* A name of 240 octets: labels of 61, 61, 61 and 40 below secure.test. */
#define LONG_NAME                                                          \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."    \
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb."    \
	"ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc."    \
	"dddddddddddddddddddddddddddddddddddddddd."                         \
	"secure.test."

static void test_long_name(void)
{
	struct answer a;
	struct qinfo q;
	bool tc;

	/* Unsigned data in the signed zone: bogus, with a long reason. */
	ok(validated(make_msg(LONG_NAME, WIRE_TYPE_TXT, 0,
			      LONG_NAME " 60 IN TXT \"x\"\n", ""),
		     &a),
	   "long name: validated");
	is_int(a.status, VAL_BOGUS, "long name: bogus");
	snprintf(a.reason, sizeof(a.reason), "%0300d", 7);
	qinfo_for(&q, a.msg, true, 512, false);
	struct wire_msg *r = rendered(&a, &q, &tc);
	ok(r != NULL, "240-octet name, EDNS 512, long EDE text: a whole reply");
	if (r) {
		is_int(r->rcode, WIRE_RCODE_SERVFAIL, "bogus: SERVFAIL");
		ok(!(r->hdr.flags & WIRE_FLAG_AD), "no AD");
		ok(r->edns.present, "with its OPT record (the EDE text cut)");
		wire_msg_free(r);
	}
	size_t len = render_error(&q, WIRE_RCODE_SERVFAIL, WIRE_EDE_OTHER,
				  a.reason, out, sizeof(out));
	int err;
	r = wire_msg_parse(out, len, 0, &err);
	ok(r && r->has_question && len <= 512,
	   "render_error: the same, within 512 octets");
	wire_msg_free(r);
	wire_msg_free(a.msg);
}

static void test_truncation(void)
{
	char text[32768] = "";
	struct answer a;
	struct qinfo q;
	bool tc = false;

	/* 60 TXT records of 100 octets: bogus (unsigned), shown with CD. */
	for (int i = 0; i < 60; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "big.secure.test. 60 IN TXT \"%0100d\"\n", i);
	ok(validated(make_msg("big.secure.test.", WIRE_TYPE_TXT, 0, text, ""),
		     &a),
	   "big answer: validated");
	qinfo_for(&q, a.msg, true, 512, true);
	struct wire_msg *r = rendered(&a, &q, &tc);
	ok(r != NULL, "too big for 512: a reply");
	if (r) {
		ok(tc && (r->hdr.flags & WIRE_FLAG_TC), "TC set");
		is_int(r->count[WIRE_SEC_ANSWER] + r->count[WIRE_SEC_AUTHORITY],
		       0, "TC: no record at all, never a partial answer");
		wire_msg_free(r);
	}
	qinfo_for(&q, a.msg, true, 0, true);
	r = rendered(&a, &q, &tc);
	ok(r && !tc && r->count[WIRE_SEC_ANSWER] == 60,
	   "on a stream: all 60 records");
	wire_msg_free(r);
	wire_msg_free(a.msg);
}

int main(void)
{
	struct fx_rrs an = {0};

	anchors = val_anchors_new();
	if (!anchors || fx_load(fixture_anchor, &an) < 0 || an.n != 1 ||
	    val_anchors_add(anchors, &an.rr[0]) < 0 ||
	    fx_load(sel("", "secure.test.", "DNSKEY"), &keys) < 0) {
		printf("Bail out! fixture\n");
		return 1;
	}
	test_only_used();
	test_rrsig_cap();
	test_long_name();
	test_truncation();
	fx_free(&an);
	fx_free(&keys);
	val_anchors_free(anchors);
	return done_testing();
}
