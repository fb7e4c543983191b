/* SPDX-License-Identifier: MIT */
/*
 * DNS message parser (RFC 1035 §4.1) with the EDNS(0) OPT record
 * (RFC 6891 §6.1) and Extended DNS Errors (RFC 8914).
 *
 * wire_msg_parse() walks the message twice with the same code. The first
 * walk checks everything against the message's end and adds up the octets
 * the uncompressed names and RDATA need; the second walk fills one
 * allocation of exactly that size. The second walk cannot fail on a
 * message the first one accepted; if it does, that is reported as an
 * error, never trusted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* Octets of TYPE, CLASS, TTL and RDLENGTH after a record's owner. */
#define RR_FIXEDLEN 10
/* Octets of OPTION-CODE and OPTION-LENGTH before an option's data. */
#define OPT_HDRLEN 4

/* RDATA with names to decompress is measured in a stack buffer of this
 * size (an RRSIG with a 4096-bit RSA signature needs under 800 octets);
 * only larger RDATA needs a heap buffer of DT_RDATA_MAXLEN. */
#define SCRATCH_STACK 1024

/* The records share the allocation right after struct wire_msg. */
_Static_assert(_Alignof(struct wire_rr) <= _Alignof(struct wire_msg),
	       "records must be aligned after the message");

/* State of one walk over the message; the first walk has msg == NULL. */
struct walk {
	const uint8_t *pkt;
	size_t len;
	size_t pos;
	bool trunc_ok;		/* TC=1 and WIRE_PARSE_TRUNC_OK */
	bool truncated;
	bool has_question;
	size_t count[WIRE_SEC_COUNT];
	size_t nrr;
	size_t need;		/* octets of uncompressed names and RDATA */
	struct wire_edns edns;	/* opts not set: see optpos */
	size_t optpos;		/* offset of the OPT RDATA in pkt */
	/* second walk: where records, names and RDATA go */
	struct wire_msg *msg;
	uint8_t *out;
	uint8_t *out_end;
	/* first walk: DT_RDATA_MAXLEN octets, allocated on demand */
	uint8_t *heap;
};

static void walk_init(struct walk *w, const uint8_t *pkt, size_t len,
		      unsigned flags, const struct wire_hdr *hdr)
{
	memset(w, 0, sizeof(*w));
	w->pkt = pkt;
	w->len = len;
	w->pos = DT_MSG_HDRLEN;
	w->trunc_ok = (flags & WIRE_PARSE_TRUNC_OK) &&
		      (hdr->flags & WIRE_FLAG_TC);
}

/* Second walk: copies n octets to the output. NULL when they do not fit,
 * which means the walks disagree. */
static const uint8_t *emit(struct walk *w, const uint8_t *src, size_t n)
{
	uint8_t *dst = w->out;

	if ((size_t)(w->out_end - w->out) < n)
		return NULL;
	memcpy(dst, src, n);
	w->out += n;
	return dst;
}

/* True when RDATA of this type may hold compressed names, so that its
 * uncompressed length is known only by unpacking it. */
static bool may_decompress(uint16_t type)
{
	const struct wire_rdesc *d = wire_rdesc_get(type);

	for (int i = 0; d && i < WIRE_RDESC_MAXFIELDS; i++) {
		if (d->fields[i] == WIRE_F_END)
			break;
		if (d->fields[i] == WIRE_F_NAME_C ||
		    d->fields[i] == WIRE_F_NAME_L)
			return true;
	}
	return false;
}

/* First walk: checks the RDATA at w->pos and returns its uncompressed
 * length. */
static int measure_rdata(struct walk *w, uint16_t type, uint16_t wlen)
{
	uint8_t buf[SCRATCH_STACK];
	int n;

	if (!may_decompress(type)) {
		n = wire_rdata_check(type, w->pkt + w->pos, wlen);
		return n < 0 ? n : wlen;
	}
	n = wire_rdata_unpack(type, w->pkt, w->len, w->pos, wlen, buf,
			      sizeof(buf));
	if (n != DT_ESPACE)
		return n;
	if (!w->heap && !(w->heap = malloc(DT_RDATA_MAXLEN)))
		return -ENOMEM;
	return wire_rdata_unpack(type, w->pkt, w->len, w->pos, wlen, w->heap,
				 DT_RDATA_MAXLEN);
}

/* Checks the RDATA at w->pos; the second walk also writes it out. Returns
 * the uncompressed length. */
static int walk_rdata(struct walk *w, struct wire_rr *rr, uint16_t wlen)
{
	int n;

	if (!w->msg)
		return measure_rdata(w, rr->type, wlen);
	n = wire_rdata_unpack(rr->type, w->pkt, w->len, w->pos, wlen, w->out,
			      (size_t)(w->out_end - w->out));
	if (n < 0)
		return n == DT_ESPACE ? DT_EMALF : n;
	rr->rdata = w->out;
	w->out += n;
	return n;
}

/* True when option TLVs exactly fill len octets (RFC 6891 §6.1.2). */
static bool opts_valid(const uint8_t *p, size_t len)
{
	while (len >= OPT_HDRLEN) {
		size_t olen = wire_get16(p + 2);

		if (len - OPT_HDRLEN < olen)
			return false;
		p += OPT_HDRLEN + olen;
		len -= OPT_HDRLEN + olen;
	}
	return len == 0;
}

/* The OPT pseudo-record (RFC 6891 §6.1): one at most, in the additional
 * section, owned by the root. */
static int walk_opt(struct walk *w, enum wire_section sec,
		    const uint8_t *owner, const struct wire_rr *rr)
{
	if (sec != WIRE_SEC_ADDITIONAL || w->edns.present ||
	    !wire_dname_is_root(owner))
		return DT_EOPT;
	if (!opts_valid(w->pkt + w->pos, rr->rdlen))
		return DT_EOPT;
	w->edns.present = true;
	w->edns.udp_size = rr->rclass;
	w->edns.ext_rcode = (uint8_t)(rr->ttl >> 24);
	w->edns.version = (uint8_t)(rr->ttl >> 16);
	w->edns.flags = (uint16_t)rr->ttl;
	w->edns.optlen = rr->rdlen;
	w->optpos = w->pos;
	w->pos += rr->rdlen;
	return 0;
}

static int walk_rr(struct walk *w, enum wire_section sec)
{
	wire_dname_storage_t owner;
	struct wire_rr rr = { 0 };
	uint16_t wlen;
	int olen, rlen;

	olen = wire_dname_unpack(w->pkt, w->len, &w->pos, owner);
	if (olen < 0)
		return olen;
	if (w->len - w->pos < RR_FIXEDLEN)
		return DT_ETRUNC;
	rr.type = wire_get16(w->pkt + w->pos);
	rr.rclass = wire_get16(w->pkt + w->pos + 2);
	rr.ttl = wire_get32(w->pkt + w->pos + 4);
	rr.rdlen = wlen = wire_get16(w->pkt + w->pos + 8);
	w->pos += RR_FIXEDLEN;
	if (w->len - w->pos < wlen)
		return DT_ETRUNC;
	if (rr.type == WIRE_TYPE_OPT)
		return walk_opt(w, sec, owner, &rr);
	if (w->nrr == DT_MSG_MAXRR)
		return DT_ELIMIT;
	if (w->msg && !(rr.owner = emit(w, owner, (size_t)olen)))
		return DT_EMALF;
	rlen = walk_rdata(w, &rr, wlen);
	if (rlen < 0)
		return rlen;
	rr.rdlen = (uint16_t)rlen;
	w->pos += wlen;
	w->need += (size_t)olen + (size_t)rlen;
	if (w->msg) {
		if (w->count[sec] == w->msg->count[sec])
			return DT_EMALF;
		w->msg->sec[sec][w->count[sec]] = rr;
	}
	w->count[sec]++;
	w->nrr++;
	return 0;
}

/* True when the message may stop here: TC=1, WIRE_PARSE_TRUNC_OK and no
 * octet left. Remembers that it did. */
static bool stops_here(struct walk *w)
{
	if (!w->trunc_ok || w->pos != w->len)
		return false;
	w->truncated = true;
	return true;
}

static int walk_question(struct walk *w, uint16_t qdcount)
{
	wire_dname_storage_t name;
	int n;

	if (qdcount == 0 || stops_here(w))
		return 0;
	n = wire_dname_unpack(w->pkt, w->len, &w->pos, name);
	if (n < 0)
		return n;
	if (w->len - w->pos < 4)
		return DT_ETRUNC;
	if (w->msg) {
		w->msg->qname = emit(w, name, (size_t)n);
		if (!w->msg->qname)
			return DT_EMALF;
		w->msg->qtype = wire_get16(w->pkt + w->pos);
		w->msg->qclass = wire_get16(w->pkt + w->pos + 2);
	}
	w->has_question = true;
	w->need += (size_t)n;
	w->pos += 4;
	return 0;
}

static int walk_section(struct walk *w, enum wire_section sec, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		int ret;

		if (stops_here(w))
			return 0;
		ret = walk_rr(w, sec);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int walk_msg(struct walk *w, const struct wire_hdr *hdr)
{
	const uint16_t n[WIRE_SEC_COUNT] = { hdr->ancount, hdr->nscount,
					     hdr->arcount };
	int ret = walk_question(w, hdr->qdcount);

	for (int s = 0; ret == 0 && s < WIRE_SEC_COUNT; s++)
		ret = walk_section(w, (enum wire_section)s, n[s]);
	if (ret == 0 && w->pos != w->len)
		ret = DT_ETRAIL;
	return ret;
}

static int read_header(const uint8_t *pkt, size_t len, struct wire_hdr *hdr)
{
	if (len < DT_MSG_HDRLEN)
		return DT_ETRUNC;
	if (len > DT_MSG_MAXLEN)
		return DT_EMALF;
	hdr->id = wire_get16(pkt);
	hdr->flags = wire_get16(pkt + 2);
	hdr->qdcount = wire_get16(pkt + 4);
	hdr->ancount = wire_get16(pkt + 6);
	hdr->nscount = wire_get16(pkt + 8);
	hdr->arcount = wire_get16(pkt + 10);
	return hdr->qdcount > 1 ? DT_EQDCOUNT : 0;
}

/* After a truncated message, the header counts say what was present. */
static void set_counts(struct wire_msg *msg)
{
	msg->hdr.qdcount = msg->has_question;
	msg->hdr.ancount = (uint16_t)msg->count[WIRE_SEC_ANSWER];
	msg->hdr.nscount = (uint16_t)msg->count[WIRE_SEC_AUTHORITY];
	msg->hdr.arcount = (uint16_t)(msg->count[WIRE_SEC_ADDITIONAL] +
				      msg->edns.present);
}

/* Lays out the allocation measured by the first walk: the message, the
 * records section by section, names and RDATA, the raw copy. */
static struct wire_msg *msg_alloc(const struct walk *m, const uint8_t *pkt,
				  const struct wire_hdr *hdr)
{
	size_t rrsize = m->nrr * sizeof(struct wire_rr);
	struct wire_msg *msg;
	struct wire_rr *rrs;
	uint8_t *data, *raw;

	msg = malloc(sizeof(*msg) + rrsize + m->need + m->len);
	if (!msg)
		return NULL;
	memset(msg, 0, sizeof(*msg));
	rrs = (struct wire_rr *)(msg + 1);
	data = (uint8_t *)rrs + rrsize;
	raw = data + m->need;
	memcpy(raw, pkt, m->len);
	msg->hdr = *hdr;
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		msg->sec[s] = rrs;
		msg->count[s] = m->count[s];
		rrs += m->count[s];
	}
	msg->raw = raw;
	msg->rawlen = m->len;
	return msg;
}

/* Second walk into the allocation; the first walk's results in m. */
static int msg_fill(const struct walk *m, const uint8_t *pkt,
		    const struct wire_hdr *hdr, unsigned flags,
		    struct wire_msg **ret_msg)
{
	struct wire_msg *msg = msg_alloc(m, pkt, hdr);
	struct walk w;
	int ret;

	if (!msg)
		return -ENOMEM;
	walk_init(&w, msg->raw, m->len, flags, hdr);
	w.msg = msg;
	w.out = (uint8_t *)(msg->sec[0] + m->nrr);
	w.out_end = w.out + m->need;
	ret = walk_msg(&w, hdr);
	if (ret == 0 && (w.out != w.out_end || w.nrr != m->nrr))
		ret = DT_EMALF;
	if (ret < 0) {
		free(msg);
		return ret;
	}
	msg->has_question = w.has_question;
	msg->edns = w.edns;
	if (w.edns.optlen)
		msg->edns.opts = msg->raw + w.optpos;
	msg->rcode = (uint16_t)(w.edns.ext_rcode << 4 | WIRE_RCODE(hdr->flags));
	msg->truncated = w.truncated;
	if (w.truncated)
		set_counts(msg);
	*ret_msg = msg;
	return 0;
}

struct wire_msg *wire_msg_parse(const uint8_t *pkt, size_t len,
				unsigned flags, int *ret_err)
{
	struct wire_msg *msg = NULL;
	struct wire_hdr hdr;
	struct walk w;
	int ret;

	ret = read_header(pkt, len, &hdr);
	if (ret == 0) {
		walk_init(&w, pkt, len, flags, &hdr);
		ret = walk_msg(&w, &hdr);
		free(w.heap);
	}
	if (ret == 0)
		ret = msg_fill(&w, pkt, &hdr, flags, &msg);
	if (ret_err)
		*ret_err = ret;
	return msg;
}

void wire_msg_free(struct wire_msg *msg)
{
	free(msg);
}

int wire_edns_opt_next(const struct wire_edns *edns, size_t *pos,
		       uint16_t *ret_code, const uint8_t **ret_data,
		       uint16_t *ret_len)
{
	const uint8_t *p;
	uint16_t olen;

	if (!edns->present || *pos >= edns->optlen ||
	    edns->optlen - *pos < OPT_HDRLEN)
		return 0;
	p = edns->opts + *pos;
	olen = wire_get16(p + 2);
	if (edns->optlen - *pos - OPT_HDRLEN < olen)
		return 0;
	*ret_code = wire_get16(p);
	*ret_data = p + OPT_HDRLEN;
	*ret_len = olen;
	*pos += OPT_HDRLEN + olen;
	return 1;
}

int wire_edns_ede(const struct wire_edns *edns, uint16_t *ret_code,
		  const char **ret_text, size_t *ret_textlen)
{
	const uint8_t *data;
	uint16_t code, len;
	size_t pos = 0;

	while (wire_edns_opt_next(edns, &pos, &code, &data, &len) == 1) {
		if (code != WIRE_OPT_EDE)
			continue;
		if (len < 2)
			return DT_EOPT;
		*ret_code = wire_get16(data);
		*ret_text = (const char *)data + 2;
		*ret_textlen = len - 2u;
		return 1;
	}
	return 0;
}
