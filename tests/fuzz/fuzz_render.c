/* SPDX-License-Identifier: MIT */
/*
 * Property fuzz target: an arbitrary upstream response through the
 * validator (trust anchor and keys of the signed fixture zone
 * secure.test., tests/unit/response_fixture.h, at a fixed time) and the
 * daemon's rendering (src/daemon/render.c), for several kinds of client
 * question (DO, CD, EDNS, the status option, UDP 512 or a stream).
 *
 * The properties, each an abort() when broken:
 *   - the reply parses and asks the question asked;
 *   - every record in its answer and authority sections is a record of
 *     an RRset in the validator's used list, from that section of the
 *     response, in the order of the list (answer section);
 *   - its RCODE is the proven one (val_result.rcode) when data is shown,
 *     SERVFAIL when not; AD only for a secure answer shown;
 *   - a truncated reply (TC) carries no record at all.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/response_fixture.h"
#include "resolver/answer.h"
#include "resolver/render.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "validator/response.h"
#include "wire/dname.h"
#include "wire/msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct val_anchors *fixed_anchors(void)
{
	static struct val_anchors *ta;
	struct fx_rrs a = {0};

	if (ta)
		return ta;
	ta = val_anchors_new();
	if (!ta || fx_load(fixture_anchor, &a) < 0 || a.n != 1 ||
	    val_anchors_add(ta, &a.rr[0]) < 0)
		abort();
	fx_free(&a);
	return ta;
}

/* The zone's DNSKEY RRset and its RRSIG. */
static const struct fx_rrs *fixed_keys(void)
{
	static struct fx_rrs keys;
	static char text[4096];

	if (!keys.rr) {
		fx_select(text, sizeof(text), "secure.test.", "DNSKEY");
		if (fx_load(text, &keys) < 0 || keys.n != 3)
			abort();
	}
	return &keys;
}

/* Whether two RDATA of one type are equal in canonical form (RFC 4034
 * §6.2): the builder may compress a name in RDATA against an earlier
 * spelling of it in another case. */
static bool rdata_equal(uint16_t type, const struct wire_rr *a,
			const struct wire_rr *b)
{
	static uint8_t ca[65535], cb[65535];

	if (a->rdlen != b->rdlen)
		return false;
	memcpy(ca, a->rdata, a->rdlen);
	memcpy(cb, b->rdata, b->rdlen);
	wire_rdata_canonicalize(type, ca, a->rdlen);
	wire_rdata_canonicalize(type, cb, b->rdlen);
	return memcmp(ca, cb, a->rdlen) == 0;
}

/* Whether rr (from the reply's section sec) is a record of the used RRset
 * u of the upstream response m: same owner, type, class and RDATA. */
static bool from_used(const struct wire_msg *m, const struct val_used *u,
		      int sec, const struct wire_rr *rr)
{
	const struct wire_rr *s = m->sec[u->section];

	if (u->section != sec || u->first >= m->count[u->section])
		return false;
	for (size_t i = 0; i < m->count[u->section]; i++) {
		const struct wire_rr *up = &s[i];
		if (val_used_holds(u, &s[u->first], up) &&
		    up->type == rr->type && up->rclass == rr->rclass &&
		    rdata_equal(rr->type, up, rr) &&
		    wire_dname_equal(up->owner, rr->owner))
			return true;
	}
	return false;
}

/* The first used entry at or after *at that rr comes from; aborts when
 * none: a record the validator did not use reached the client. */
static void check_record(const struct wire_msg *m, const struct answer *a,
			 int sec, const struct wire_rr *rr, size_t *at)
{
	for (size_t i = sec == WIRE_SEC_ANSWER ? *at : 0; i < a->nused; i++) {
		if (from_used(m, &a->used[i], sec, rr)) {
			if (sec == WIRE_SEC_ANSWER)
				*at = i;
			return;
		}
	}
	abort();
}

static void check_reply(const struct wire_msg *m, const struct answer *a,
			const struct qinfo *q, const uint8_t *buf, size_t len)
{
	int err;
	struct wire_msg *r = wire_msg_parse(buf, len, 0, &err);
	bool cd = q->flags & WIRE_FLAG_CD;
	bool shown = a->status == VAL_SECURE || a->status == VAL_INSECURE || cd;

	if (!r || !r->has_question || !wire_dname_equal(r->qname, q->qname) ||
	    r->qtype != q->qtype)
		abort();
	if (r->rcode != (shown ? a->rcode : WIRE_RCODE_SERVFAIL))
		abort();
	if ((r->hdr.flags & WIRE_FLAG_AD) && !(shown && a->status == VAL_SECURE))
		abort();
	if ((r->hdr.flags & WIRE_FLAG_TC) &&
	    (r->count[WIRE_SEC_ANSWER] || r->count[WIRE_SEC_AUTHORITY]))
		abort();
	if (!shown && (r->count[WIRE_SEC_ANSWER] || r->count[WIRE_SEC_AUTHORITY]))
		abort();
	size_t at = 0;
	for (int s = WIRE_SEC_ANSWER; s <= WIRE_SEC_AUTHORITY; s++)
		for (size_t i = 0; i < r->count[s]; i++)
			check_record(m, a, s, &r->sec[s][i], &at);
	if (r->count[WIRE_SEC_ADDITIONAL])
		abort();
	wire_msg_free(r);
}

/* The client questions each response is rendered for. */
static const struct {
	bool edns, do_bit, cd, status;
	uint16_t udp;
} variants[] = {
	{false, false, false, false, 512},
	{true, true, false, true, 512},
	{true, true, true, true, 1232},
	{true, false, true, false, 0},
	{true, true, false, true, 0},
};

static void render_all(const struct wire_msg *m, const struct answer *a)
{
	static uint8_t buf[DT_MSG_MAXLEN];
	struct qinfo q;

	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		memset(&q, 0, sizeof(q));
		q.id = 0x1234;
		q.flags = WIRE_FLAG_RD | (variants[v].cd ? WIRE_FLAG_CD : 0);
		q.edns = variants[v].edns;
		q.do_bit = variants[v].do_bit;
		q.want_status = variants[v].status;
		q.udp_size = variants[v].udp;
		wire_dname_copy(q.qname, m->qname);
		q.qtype = m->qtype;
		q.qclass = m->qclass;
		struct render r = {0};
		size_t len = render_build(&r, a, &q, 0, false, buf,
					  render_cap(&q, sizeof(buf)));
		if (!len)
			abort();
		check_reply(m, a, &q, buf, len);
	}
}

static void validate(struct wire_msg *m)
{
	const struct fx_rrs *keys = fixed_keys();
	struct val_keysource src;
	struct val_result res;
	struct val_ctx ctx;

	val_ctx_init(&ctx, FIXTURE_NOW, NULL);
	struct val_bag *bag =
		val_bag_new(&ctx, fixed_anchors(), keys->rr, keys->n);
	if (!bag)
		abort();
	val_bag_keysource(bag, &src);
	struct val_response resp = {
		.qname = m->qname,
		.qtype = m->qtype,
		.qclass = m->qclass,
		.rcode = m->rcode,
		.answer = m->sec[WIRE_SEC_ANSWER],
		.nanswer = m->count[WIRE_SEC_ANSWER],
		.authority = m->sec[WIRE_SEC_AUTHORITY],
		.nauthority = m->count[WIRE_SEC_AUTHORITY],
	};
	if (val_response_validate(&ctx, &resp, &src, &res) == 0 &&
	    res.kind != VAL_KIND_NEED_KEYS) {
		struct answer a = {
			.status = res.verdict.status,
			.ede = res.verdict.ede,
			.rcode = res.rcode,
			.ttl = res.ttl,
			.msg = m,
			.used = res.used,
			.nused = res.nused,
		};
		memcpy(a.reason, res.verdict.reason, sizeof(a.reason));
		render_all(m, &a);
	}
	val_bag_free(bag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int err;
	struct wire_msg *m = wire_msg_parse(data, size, 0, &err);

	if (!m)
		return 0;
	if (m->has_question && (m->rcode == WIRE_RCODE_NOERROR ||
				m->rcode == WIRE_RCODE_NXDOMAIN))
		validate(m);
	wire_msg_free(m);
	return 0;
}
