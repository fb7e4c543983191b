/* SPDX-License-Identifier: MIT */
/*
 * Replies to clients, and the answer cache.
 *
 * A validated answer ('V' entry) keeps the upstream response with its
 * verdict; a reply is rendered from it for the client's flags (DO: with
 * RRSIGs and proofs; CD: bogus data shown). The rendered reply is kept
 * too ('W' entry, one per flag variant) with the offsets of its TTL
 * fields, so that the hot path is a copy, a new ID, the client's spelling
 * of the name and the TTLs aged: no validation, no rendering.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "common/protocol.h"
#include "daemon/daemon.h"
#include "wire/dname.h"
#include "wire/msg.h"

size_t cache_key(uint8_t kind, const uint8_t *name, uint16_t type,
		 uint16_t qclass, uint8_t *key)
{
	size_t len = wire_dname_len(name);

	key[0] = kind;
	key[1] = (uint8_t)(type >> 8);
	key[2] = (uint8_t)type;
	key[3] = (uint8_t)(qclass >> 8);
	key[4] = (uint8_t)qclass;
	memcpy(key + 5, name, len);
	wire_dname_tolower(key + 5);
	return 5 + len;
}

void answer_free(void *p)
{
	struct answer *a = p;

	if (!a)
		return;
	wire_msg_free(a->msg);
	free(a);
}

static uint8_t proto_status(const struct answer *a)
{
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
	    a->policy_pass || a->permissive)
		return true;
	return (q->flags & WIRE_FLAG_CD) != 0;
}

/* Authority records a client gets: the SOA of a negative answer and, with
 * DO, the NSEC/NSEC3 proofs and their RRSIGs. Referral NS and glue are
 * the upstream's business, not the client's. */
static bool keep_authority(const struct wire_rr *rr, bool do_bit)
{
	uint16_t t = rr->type;

	if (t == WIRE_TYPE_RRSIG && rr->rdlen >= 2)
		t = (uint16_t)(rr->rdata[0] << 8 | rr->rdata[1]);
	else if (rr->type == WIRE_TYPE_RRSIG)
		return false;
	if (t == WIRE_TYPE_SOA)
		return rr->type == WIRE_TYPE_SOA || do_bit;
	return do_bit && (t == WIRE_TYPE_NSEC || t == WIRE_TYPE_NSEC3);
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

struct render {
	struct wire_builder b;
	uint16_t *ttl_off;	/* optional: TTL offsets written */
	size_t nttl, capttl;
	size_t status_off;	/* offset of the status option's FLAGS */
};

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

/* The answer's records; false when they did not all fit (TC). */
static bool add_records(struct render *r, const struct answer *a,
			const struct qinfo *q, int64_t age)
{
	const struct wire_msg *m = a->msg;

	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		if (rr->type == WIRE_TYPE_RRSIG && !q->do_bit &&
		    q->qtype != WIRE_TYPE_RRSIG)
			continue;
		if (add_rr(r, WIRE_SEC_ANSWER, rr, aged(rr->ttl, a->ttl, age)))
			return false;
	}
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];
		if (!keep_authority(rr, q->do_bit))
			continue;
		if (add_rr(r, WIRE_SEC_AUTHORITY, rr,
			   aged(rr->ttl, a->ttl, age)))
			return false;
	}
	return true;
}

/* Room kept for the OPT record while records are added. */
#define OPT_RESERVE (11 + 4 + DT_EDE_TEXT_MAXLEN + 6 + 4 + 8)

static void add_opt(struct render *r, const struct qinfo *q, uint16_t ede,
		    const char *text, uint8_t status, uint16_t pflags,
		    size_t cap)
{
	uint8_t opts[OPT_RESERVE];
	size_t olen = 0, status_at = 0;

	if (!q->edns)
		return;
	if (ede != VAL_EDE_NONE)
		wire_opt_put_ede(opts, sizeof(opts), &olen, ede, text);
	if (q->want_status) {
		uint8_t v[DT_PROTO_OPT_STATUS_LEN] = {
			DT_PROTO_VERSION, status, (uint8_t)(pflags >> 8),
			(uint8_t)pflags,
		};
		status_at = olen + 4 + 2;
		wire_opt_put(opts, sizeof(opts), &olen, DT_PROTO_OPT_STATUS, v,
			     sizeof(v));
	}
	r->b.cap = cap;
	size_t before = r->b.len;
	if (wire_build_opt(&r->b, DT_UP_EDNS_BUFSIZE, 0, 0,
			   q->do_bit ? WIRE_EDNS_DO : 0, opts, olen) == 0 &&
	    status_at)
		r->status_off = before + 11 + status_at;
}

static size_t render(struct render *r, const struct answer *a,
		     const struct qinfo *q, int64_t age, bool cached,
		     uint8_t *buf, size_t cap)
{
	bool data = a && shows_data(a, q);
	uint16_t rcode = data ? a->rcode : WIRE_RCODE_SERVFAIL;
	uint16_t flags = WIRE_FLAG_QR | WIRE_FLAG_RA |
			 (q->flags & (WIRE_FLAG_RD | WIRE_FLAG_CD));
	uint16_t pflags = cached ? DT_PROTO_FLAG_CACHED : 0;

	if (data && a->status == VAL_SECURE)
		flags |= WIRE_FLAG_AD;
	if (a->upstream_fail)
		pflags |= DT_PROTO_FLAG_UPSTREAM_FAIL;
	if (a->nta)
		pflags |= DT_PROTO_FLAG_NTA;
	if (a->permissive)
		pflags |= DT_PROTO_FLAG_PERMISSIVE;
	wire_build_init(&r->b, buf, cap, q->id, flags | (rcode & 0xF));
	r->b.cap = cap - (q->edns ? OPT_RESERVE : 0);
	wire_build_question(&r->b, q->qname, q->qtype, q->qclass);
	if (data && !add_records(r, a, q, age))
		wire_build_set_flags(&r->b, WIRE_FLAG_TC, 0);
	add_opt(r, q, a->ede, a->reason, proto_status(a), pflags, cap);
	return wire_build_finish(&r->b);
}

/* The size a reply may have: the client's UDP size, or a whole message
 * on streams. */
static size_t reply_cap(const struct qinfo *q, size_t cap)
{
	size_t lim = DT_MSG_MAXLEN;

	if (q->udp_size) {
		lim = q->edns ? q->udp_size : 512;
		lim = lim < 512 ? 512 : lim;
	}
	return lim < cap ? lim : cap;
}

size_t reply_render(const struct answer *a, const struct qinfo *q,
		    int64_t age, bool cached, uint8_t *buf, size_t cap)
{
	struct render r = {0};

	return render(&r, a, q, age, cached, buf, reply_cap(q, cap));
}

size_t reply_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		   const char *text, uint8_t *buf, size_t cap)
{
	struct answer a = {
		.status = VAL_INDETERMINATE,
		.ede = ede,
		.rcode = rcode,
	};
	struct render r = {0};
	uint16_t flags = WIRE_FLAG_QR | WIRE_FLAG_RA |
			 (q->flags & (WIRE_FLAG_RD | WIRE_FLAG_CD));

	cap = reply_cap(q, cap);
	if (text)
		snprintf(a.reason, sizeof(a.reason), "%s", text);
	wire_build_init(&r.b, buf, cap, q->id, flags | (rcode & 0xF));
	if (q->qname[0] || q->qtype) {
		r.b.cap = cap - (q->edns ? OPT_RESERVE : 0);
		wire_build_question(&r.b, q->qname, q->qtype, q->qclass);
	}
	add_opt(&r, q, ede, a.reason, DT_PROTO_STATUS_NONE, 0, cap);
	return wire_build_finish(&r.b);
}

/* --- the answer cache --- */

/* A rendered reply, for one variant of client flags. */
struct rendered {
	int64_t stored;		/* monotonic seconds when rendered */
	size_t len;
	size_t status_off;
	size_t nttl;
	const uint8_t *msg;	/* after the offsets, same allocation */
	uint16_t ttl_off[];	/* nttl offsets, then the message */
};

/* The variant of a rendered reply: the client flags it depends on. */
#define VARIANT_DO 1
#define VARIANT_CD 2
#define VARIANT_EDNS 4
#define VARIANT_STATUS 8

static uint8_t variant(const struct qinfo *q)
{
	return (uint8_t)((q->do_bit ? VARIANT_DO : 0) |
			 (q->flags & WIRE_FLAG_CD ? VARIANT_CD : 0) |
			 (q->edns ? VARIANT_EDNS : 0) |
			 (q->want_status ? VARIANT_STATUS : 0));
}

/* Whether a rendered reply of variant v may be kept: a question has DO
 * or the status option only with EDNS (server.c's qinfo_fill), so 10 of
 * the 16 values occur; store_rendered() keeps no other, so that
 * answer_store() has only these to remove. */
static bool variant_occurs(uint8_t v)
{
	return (v & VARIANT_EDNS) || !(v & (VARIANT_DO | VARIANT_STATUS));
}

static size_t wkey(const struct qinfo *q, uint8_t *key)
{
	size_t len = cache_key('W', q->qname, q->qtype, q->qclass, key);

	key[len] = variant(q);
	return len + 1;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The hot path: a copy with the client's ID and spelling, TTLs aged. */
static size_t from_rendered(const struct rendered *rd, const struct qinfo *q,
			    int64_t now, uint8_t *buf)
{
	int64_t age = now - rd->stored;

	memcpy(buf, rd->msg, rd->len);
	buf[0] = (uint8_t)(q->id >> 8);
	buf[1] = (uint8_t)q->id;
	buf[2] = (uint8_t)((buf[2] & ~(WIRE_FLAG_RD >> 8)) |
			   ((q->flags & WIRE_FLAG_RD) >> 8));
	memcpy(buf + DT_MSG_HDRLEN, q->qname, wire_dname_len(q->qname));
	for (size_t i = 0; age > 0 && i < rd->nttl; i++) {
		uint32_t t = get32(buf + rd->ttl_off[i]);
		put32(buf + rd->ttl_off[i],
		      t > age ? t - (uint32_t)age : 0);
	}
	if (rd->status_off)
		buf[rd->status_off] |= DT_PROTO_FLAG_CACHED >> 8;
	return rd->len;
}

static void store_rendered(struct worker *w, const struct qinfo *q,
			   const struct render *r, size_t len,
			   int64_t expire)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN + 1];
	size_t cost = sizeof(struct rendered) + r->nttl * 2 + len;

	if (!variant_occurs(variant(q)))
		return;
	struct rendered *rd = malloc(cost);
	if (!rd)
		return;
	rd->stored = worker_now(w);
	rd->len = len;
	rd->status_off = r->status_off;
	rd->nttl = r->nttl;
	memcpy(rd->ttl_off, r->ttl_off, r->nttl * 2);
	rd->msg = (const uint8_t *)(rd->ttl_off + r->nttl);
	memcpy((uint8_t *)(rd->ttl_off + r->nttl), r->b.buf, len);
	cache_put(w->d->cache, key, wkey(q, key), rd, cost, expire, free);
}

bool reply_from_cache(struct worker *w, const struct qinfo *q, uint8_t *buf,
		      size_t cap, size_t *len)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN + 1];
	struct cache *c = w->d->cache;
	int64_t now = worker_now(w);
	struct cache_ref ref;

	if (cache_get(c, key, wkey(q, key), now, &ref)) {
		const struct rendered *rd = ref.val;
		bool fits = rd->len <= reply_cap(q, cap);
		if (fits)
			*len = from_rendered(rd, q, now, buf);
		cache_unref(c, &ref);
		if (fits)
			return true;
	}
	size_t klen = cache_key('V', q->qname, q->qtype, q->qclass, key);
	if (!cache_get(c, key, klen, now, &ref))
		return false;
	const struct answer *a = ref.val;
	uint16_t offs[512];
	struct render r = {.ttl_off = offs, .capttl = 512};
	*len = render(&r, a, q, now - a->stored, true, buf, reply_cap(q, cap));
	if (r.nttl < r.capttl && !(buf[2] & (WIRE_FLAG_TC >> 8)))
		store_rendered(w, q, &r, *len, ref.expire);
	cache_unref(c, &ref);
	return true;
}

void answer_store(struct worker *w, const uint8_t *qname, uint16_t qtype,
		  uint16_t qclass, struct answer *a)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = cache_key('V', qname, qtype, qclass, key);
	size_t cost = sizeof(*a) + (a->msg ? 2 * a->msg->rawlen + 1024 : 0);

	if (!a->ttl) {
		answer_free(a);
		return;
	}
	/* A new verdict replaces every rendered variant of the old one. */
	uint8_t wk[DT_CACHE_KEY_MAXLEN + 1];
	size_t wl = cache_key('W', qname, qtype, qclass, wk);
	for (uint8_t v = 0; v < 16; v++) {
		if (!variant_occurs(v))
			continue;
		wk[wl] = v;
		cache_remove(w->d->cache, wk, wl + 1);
	}
	cache_put(w->d->cache, key, klen, a, cost, a->stored + a->ttl,
		  answer_free);
}
