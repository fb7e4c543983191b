/* SPDX-License-Identifier: MIT */
/*
 * dt_result_t: one allocation holding the verdict, the records of every
 * section (owners in wire and presentation form, RDATA uncompressed), the
 * EDE text and the message as received.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "common/protocol.h"
#include "lib/internal.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

struct rr_slot {
	dt_rr_t pub;
	const uint8_t *owner_wire;
};

struct dt_result {
	int rcode;
	enum dt_status status;
	int ede;
	const char *ede_text; /* NUL-terminated */
	bool cached;
	size_t count[WIRE_SEC_COUNT];
	struct rr_slot *rr[WIRE_SEC_COUNT];
	const uint8_t *wire;
	size_t wirelen;
};

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* Octets of the byte area: owners (wire and text), RDATA, EDE text and
 * the message. */
static size_t bytes_needed(const struct dtlib_answer *a)
{
	const struct wire_msg *m = a->msg;
	char text[DT_NAME_TEXT_MAXLEN];
	size_t n = a->ede_len + 1 + m->rawlen;

	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			int tl = wire_dname_to_str(rr->owner, text,
						   sizeof(text));
			n += wire_dname_len(rr->owner) + (size_t)tl + 1 +
			     rr->rdlen;
		}
	return n;
}

static uint8_t *put(uint8_t *p, const void *src, size_t len)
{
	if (len)
		memcpy(p, src, len);
	return p + len;
}

static uint8_t *fill_rr(struct rr_slot *slot, const struct wire_rr *rr,
			uint8_t *p)
{
	char text[DT_NAME_TEXT_MAXLEN];
	int tl = wire_dname_to_str(rr->owner, text, sizeof(text));

	slot->owner_wire = p;
	p = put(p, rr->owner, wire_dname_len(rr->owner));
	slot->pub.owner = (const char *)p;
	p = put(p, text, (size_t)tl + 1);
	slot->pub.type = rr->type;
	slot->pub.rclass = rr->rclass;
	slot->pub.ttl = rr->ttl;
	slot->pub.rdlen = rr->rdlen;
	slot->pub.rdata = p;
	return put(p, rr->rdata, rr->rdlen);
}

int dtlib_result_new(const struct dtlib_answer *a, dt_result_t **ret)
{
	const struct wire_msg *m = a->msg;
	size_t nrr = 0, head, size;
	struct dt_result *r;
	struct rr_slot *slot;
	uint8_t *p;

	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		nrr += m->count[s];
	head = align_up(sizeof(*r), alignof(struct rr_slot));
	size = head + nrr * sizeof(struct rr_slot) + bytes_needed(a);
	r = malloc(size);
	if (!r)
		return DT_ERR_NOMEM;
	r->rcode = m->rcode;
	r->status = a->status;
	r->ede = a->ede;
	r->cached = (a->pflags & DT_PROTO_FLAG_CACHED) != 0;
	slot = (struct rr_slot *)((uint8_t *)r + head);
	p = (uint8_t *)(slot + nrr);
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		r->count[s] = m->count[s];
		r->rr[s] = slot;
		for (size_t i = 0; i < m->count[s]; i++)
			p = fill_rr(slot++, &m->sec[s][i], p);
	}
	r->ede_text = (const char *)p;
	p = put(p, a->ede_text, a->ede_len);
	*p++ = '\0';
	r->wire = p;
	r->wirelen = m->rawlen;
	put(p, m->raw, m->rawlen);
	*ret = r;
	return 0;
}

void dt_result_free(dt_result_t *res)
{
	free(res);
}

int dt_result_rcode(const dt_result_t *res)
{
	return res ? res->rcode : DT_ERR_INVALID;
}

enum dt_status dt_result_status(const dt_result_t *res)
{
	return res ? res->status : DT_STATUS_NONE;
}

int dt_result_ede(const dt_result_t *res, const char **text)
{
	if (text)
		*text = res ? res->ede_text : "";
	return res ? res->ede : -1;
}

bool dt_result_cached(const dt_result_t *res)
{
	return res && res->cached;
}

static bool sec_ok(enum dt_section sec)
{
	return (int)sec >= 0 && (int)sec < WIRE_SEC_COUNT;
}

size_t dt_result_count(const dt_result_t *res, enum dt_section sec)
{
	return res && sec_ok(sec) ? res->count[sec] : 0;
}

int dt_result_rr(const dt_result_t *res, enum dt_section sec, size_t i,
		 dt_rr_t *ret)
{
	if (!res || !ret || !sec_ok(sec) || i >= res->count[sec])
		return DT_ERR_INVALID;
	*ret = res->rr[sec][i].pub;
	return 0;
}

int dt_result_rr_text(const dt_result_t *res, enum dt_section sec, size_t i,
		      char *buf, size_t len)
{
	const struct rr_slot *s;
	struct wire_rr rr;
	char *text;
	int n;

	if (!res || !sec_ok(sec) || i >= res->count[sec] || (!buf && len))
		return DT_ERR_INVALID;
	s = &res->rr[sec][i];
	rr = (struct wire_rr){
		.owner = s->owner_wire,
		.type = s->pub.type,
		.rclass = s->pub.rclass,
		.ttl = s->pub.ttl,
		.rdlen = s->pub.rdlen,
		.rdata = s->pub.rdata,
	};
	text = malloc(WIRE_RR_TEXT_MAXLEN(rr.rdlen));
	if (!text)
		return DT_ERR_NOMEM;
	n = wire_rr_to_str(&rr, text, WIRE_RR_TEXT_MAXLEN(rr.rdlen));
	if (n >= 0 && len) {
		size_t c = (size_t)n < len ? (size_t)n : len - 1;
		memcpy(buf, text, c);
		buf[c] = '\0';
	}
	free(text);
	return n < 0 ? DT_ERR_INVALID : n;
}

const uint8_t *dt_result_wire(const dt_result_t *res, size_t *len)
{
	if (len)
		*len = res ? res->wirelen : 0;
	return res ? res->wire : NULL;
}
