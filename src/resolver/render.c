/* SPDX-License-Identifier: MIT */
/*
 * Replies to clients, rendered from an answer's used list (render.h).
 */
#include <stdio.h>
#include <string.h>

#include "common/errcode.h"
#include "common/protocol.h"
#include "resolver/answer.h"
#include "resolver/render.h"
#include "validator/response.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* Fixed part of the OPT record (root owner, type, class, TTL, RDLENGTH). */
#define OPT_FIXED 11
/* Option header (code, length). */
#define OPTION_HDR 4
/* Largest option data we send: an EDE with its longest text, and the
 * status option. */
#define OPTS_MAXLEN                                                        \
	(OPTION_HDR + 2 + DT_EDE_TEXT_MAXLEN + OPTION_HDR +                \
	 DT_PROTO_OPT_STATUS_LEN)

static uint8_t proto_status(const struct answer *a)
{
	if (a->unvalidated)
		return DT_PROTO_STATUS_UNVALIDATED;
	switch (a->status) {
	case VAL_SECURE: return DT_PROTO_STATUS_SECURE;
	case VAL_INSECURE: return DT_PROTO_STATUS_INSECURE;
	case VAL_BOGUS: return DT_PROTO_STATUS_BOGUS;
	default: return DT_PROTO_STATUS_INDETERMINATE;
	}
}

/* Whether the client gets the answer's records. */
static bool shows_data(const struct answer *a, const struct qinfo *q)
{
	if (!a->msg || a->upstream_fail)
		return false;
	if (a->status == VAL_SECURE || a->status == VAL_INSECURE ||
	    a->policy_pass || a->permissive || a->unvalidated ||
	    a->no_anchor)
		return true;
	return (q->flags & WIRE_FLAG_CD) != 0;
}

/* Offset just past the (possibly compressed) name at off in our own
 * output. */
static size_t skip_name(const uint8_t *buf, size_t off)
{
	while (buf[off] != 0) {
		if ((buf[off] & 0xC0) == 0xC0)
			return off + 2;
		off += 1 + buf[off];
	}
	return off + 1;
}

static int add_rr(struct render *r, enum wire_section sec,
		  const struct wire_rr *rr, uint32_t ttl)
{
	struct wire_rr copy = *rr;
	size_t start = r->b.len;

	copy.ttl = ttl;
	int e = wire_build_rr(&r->b, sec, &copy);
	if (e < 0)
		return e;
	if (r->ttl_off && r->nttl < r->capttl)
		r->ttl_off[r->nttl++] =
			(uint16_t)(skip_name(r->b.buf, start) + 4);
	return 0;
}

static uint32_t aged(uint32_t ttl, uint32_t cap, int64_t age)
{
	int64_t v = (int64_t)(ttl < cap ? ttl : cap) - age;

	return v > 0 ? (uint32_t)v : 0;
}

/* Which records of a used RRset the client gets: the data of the
 * chain and the SOA always, proofs and RRSIGs with DO; never an RRSIG
 * over a synthesised CNAME (it has none: RFC 6672 §5.3.1). RRSIGs asked
 * for (qtype RRSIG) are the data. */
static bool shown(const struct val_used *u, const struct wire_rr *rr,
		  bool do_bit)
{
	if (u->role == VAL_ROLE_PROOF && !do_bit)
		return false;
	if (rr->type != WIRE_TYPE_RRSIG)
		return true;
	if (u->type == WIRE_TYPE_RRSIG && u->role != VAL_ROLE_PROOF)
		return true;
	return do_bit && u->role != VAL_ROLE_SYNTH;
}

/* The records of one used RRset, in the upstream's order, with the
 * RRset's TTL: in the answer section its own (up to max-cache-ttl) when
 * no policy shortened the answer, elsewhere at most the answer's (a
 * negative answer's SOA shows the negative TTL). Returns 0 or
 * DT_ESPACE. */
static int add_used(struct render *r, const struct answer *a,
		    const struct val_used *u, bool do_bit, int64_t age)
{
	const struct wire_msg *m = a->msg;
	const struct wire_rr *sec = m->sec[u->section];
	uint32_t cap = a->ttl_own && u->section == WIRE_SEC_ANSWER ? a->ttl_max
								 : a->ttl;
	uint32_t ttl = aged(u->ttl, cap, age);
	size_t sigs = 0;
	int e;

	if (u->first >= m->count[u->section])
		return 0;
	for (size_t i = 0; i < m->count[u->section]; i++) {
		if (!val_used_holds(u, &sec[u->first], &sec[i]) ||
		    !shown(u, &sec[i], do_bit))
			continue;
		/* The RRSIGs the validator looks at (sig.c: the first
		 * DT_VAL_RRSIGS_PER_RRSET), no more: the rest were not used,
		 * and a validating client behind dnstrust is not handed the
		 * KeyTrap-style pile either (Unbound scrubs the same). */
		if (sec[i].type == WIRE_TYPE_RRSIG &&
		    u->type != WIRE_TYPE_RRSIG &&
		    ++sigs > DT_VAL_RRSIGS_PER_RRSET)
			continue;
		if ((e = add_rr(r, (enum wire_section)u->section, &sec[i],
				ttl)) < 0)
			return e;
	}
	return 0;
}

/* The used RRsets: the answer section's in chain order, then the
 * authority section's. Returns 0 or DT_ESPACE. */
static int add_records(struct render *r, const struct answer *a,
		       const struct qinfo *q, int64_t age)
{
	int e;

	for (int sec = WIRE_SEC_ANSWER; sec <= WIRE_SEC_AUTHORITY; sec++) {
		for (size_t i = 0; i < a->nused; i++) {
			if (a->used[i].section != sec)
				continue;
			if ((e = add_used(r, a, &a->used[i], q->do_bit, age)) < 0)
				return e;
		}
	}
	return 0;
}

/* Length of text cut to at most max octets, never inside a UTF-8
 * sequence. */
static size_t cut_utf8(const char *text, size_t max)
{
	size_t n = strnlen(text, max + 1);

	if (n <= max)
		return n;
	n = max;
	while (n > 0 && ((uint8_t)text[n] & 0xC0) == 0x80)
		n--;
	return n;
}

/*
 * The OPT record's options: an EDE when ede is not VAL_EDE_NONE, its text
 * cut to what room leaves, and the status option when asked for. Writes
 * *status_at (offset of the status FLAGS in opts, 0 for none) and returns
 * the options' length.
 */
static size_t make_opts(uint8_t opts[OPTS_MAXLEN], const struct qinfo *q,
			uint16_t ede, const char *text, uint8_t status,
			uint16_t pflags, size_t room, size_t *status_at)
{
	size_t olen = 0, need = q->want_status
					? OPTION_HDR + DT_PROTO_OPT_STATUS_LEN
					: 0;
	char cut[DT_EDE_TEXT_MAXLEN + 1] = "";

	*status_at = 0;
	if (ede != VAL_EDE_NONE && room >= need + OPTION_HDR + 2) {
		size_t max = room - need - OPTION_HDR - 2;
		size_t n = text ? cut_utf8(text, max < DT_EDE_TEXT_MAXLEN
							 ? max
							 : DT_EDE_TEXT_MAXLEN)
				: 0;
		memcpy(cut, text ? text : "", n);
		cut[n] = 0;
		wire_opt_put_ede(opts, OPTS_MAXLEN, &olen, ede, cut);
	}
	if (q->want_status && room >= olen + need) {
		uint8_t v[DT_PROTO_OPT_STATUS_LEN] = {
			DT_PROTO_VERSION, status, (uint8_t)(pflags >> 8),
			(uint8_t)pflags,
		};
		*status_at = olen + OPTION_HDR + 2;
		wire_opt_put(opts, OPTS_MAXLEN, &olen, DT_PROTO_OPT_STATUS, v,
			     sizeof(v));
	}
	return olen;
}

/* Whether a reply to q echoes a question: always for an answer; an error
 * about a message without one (root, type 0) has none. */
static bool has_question(const struct qinfo *q, bool answer)
{
	return answer || q->qname[0] || q->qtype;
}

/* Header, question and the OPT's room: what every reply needs. */
static size_t fixed_len(const struct qinfo *q, bool answer)
{
	size_t len = DT_MSG_HDRLEN;

	if (has_question(q, answer))
		len += wire_dname_len(q->qname) + 4;
	return len + (q->edns ? OPT_FIXED : 0);
}

struct opt_plan {
	uint8_t opts[OPTS_MAXLEN];
	size_t olen, status_at;
};

/* Starts a reply: header and question, with room kept for the OPT.
 * Returns 0, or DT_ESPACE when they do not fit in cap. */
static int start(struct render *r, const struct qinfo *q, uint16_t flags,
		 uint8_t *buf, size_t cap, const struct opt_plan *p, bool answer)
{
	size_t keep = q->edns ? OPT_FIXED + p->olen : 0;
	int e;

	if (cap < fixed_len(q, answer) + p->olen)
		return DT_ESPACE;
	if ((e = wire_build_init(&r->b, buf, cap, q->id, flags)) < 0)
		return e;
	r->b.cap = cap - keep;
	if (has_question(q, answer))
		return wire_build_question(&r->b, q->qname, q->qtype,
					   q->qclass);
	return 0;
}

static void finish_opt(struct render *r, const struct qinfo *q,
		       const struct opt_plan *p, size_t cap)
{
	size_t before = r->b.len;

	if (!q->edns)
		return;
	r->b.cap = cap;
	if (wire_build_opt(&r->b, DT_UP_EDNS_BUFSIZE, 0, 0,
			   q->do_bit ? WIRE_EDNS_DO : 0, p->opts,
			   p->olen) == 0 &&
	    p->status_at)
		r->status_off = before + OPT_FIXED + p->status_at;
}

static uint16_t reply_flags(const struct qinfo *q)
{
	return WIRE_FLAG_QR | WIRE_FLAG_RA |
	       (q->flags & (WIRE_FLAG_RD | WIRE_FLAG_CD));
}

/* Records that do not all fit: none is sent, TC is set (RFC 2181 §9: a
 * client then asks over TCP; a partial answer is never passed on). */
static void truncate_reply(struct render *r, const struct wire_builder *q)
{
	r->b = *q;
	r->nttl = 0;
	r->truncated = true;
	wire_build_set_flags(&r->b, WIRE_FLAG_TC, 0);
}

size_t render_build(struct render *r, const struct answer *a,
		    const struct qinfo *q, int64_t age, bool cached,
		    uint8_t *buf, size_t cap)
{
	bool data = shows_data(a, q);
	uint16_t flags = reply_flags(q);
	uint16_t pflags = cached ? DT_PROTO_FLAG_CACHED : 0;
	struct opt_plan p;

	flags |= data ? a->rcode & 0xF : WIRE_RCODE_SERVFAIL;
	/* RFC 6840 §5.8: AD only to a client that asked for it (DO=1 or
	 * AD=1 in its query). */
	if (data && a->status == VAL_SECURE &&
	    (q->do_bit || (q->flags & WIRE_FLAG_AD)))
		flags |= WIRE_FLAG_AD;
	pflags |= a->upstream_fail ? DT_PROTO_FLAG_UPSTREAM_FAIL : 0;
	pflags |= a->nta ? DT_PROTO_FLAG_NTA : 0;
	pflags |= a->permissive ? DT_PROTO_FLAG_PERMISSIVE : 0;
	size_t fixed = fixed_len(q, true);
	p.olen = make_opts(p.opts, q, a->ede, a->reason, proto_status(a),
			   pflags, cap > fixed ? cap - fixed : 0, &p.status_at);
	r->truncated = false;
	r->nttl = 0;
	r->status_off = 0;
	if (start(r, q, flags, buf, cap, &p, true) < 0)
		return 0;
	if (data) {
		struct wire_builder after_question = r->b;
		if (add_records(r, a, q, age) < 0)
			truncate_reply(r, &after_question);
	}
	finish_opt(r, q, &p, cap);
	return wire_build_finish(&r->b);
}

size_t render_cap(const struct qinfo *q, size_t cap)
{
	size_t lim = DT_MSG_MAXLEN;

	if (q->udp_size) {
		lim = q->edns ? q->udp_size : 512;
		lim = lim < 512 ? 512 : lim;
	}
	return lim < cap ? lim : cap;
}

size_t render_reply(const struct answer *a, const struct qinfo *q, int64_t age,
		    bool cached, uint8_t *buf, size_t cap)
{
	struct render r = {0};
	size_t len =
		render_build(&r, a, q, age, cached, buf, render_cap(q, cap));

	if (len)
		return len;
	return render_error(q, WIRE_RCODE_SERVFAIL, WIRE_EDE_OTHER,
			    "the reply cannot be built", buf, cap);
}

/* A header alone, as the last resort (RCODE rcode, no question). */
static size_t header_only(const struct qinfo *q, uint16_t rcode, uint8_t *buf)
{
	struct wire_builder b;

	wire_build_init(&b, buf, DT_MSG_HDRLEN, q->id,
			reply_flags(q) | (rcode & 0xF));
	return wire_build_finish(&b);
}

size_t render_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		    const char *text, uint8_t *buf, size_t cap)
{
	uint16_t flags = reply_flags(q) | (rcode & 0xF);
	struct render r = {0};
	struct opt_plan p;

	cap = render_cap(q, cap);
	size_t fixed = fixed_len(q, false);
	p.olen = make_opts(p.opts, q, ede, text, DT_PROTO_STATUS_NONE, 0,
			   cap > fixed ? cap - fixed : 0, &p.status_at);
	if (start(&r, q, flags, buf, cap, &p, false) < 0)
		return header_only(q, rcode, buf);
	finish_opt(&r, q, &p, cap);
	return wire_build_finish(&r.b);
}
