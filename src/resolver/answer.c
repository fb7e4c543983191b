/* SPDX-License-Identifier: MIT */
/*
 * The answer cache, and the replies clients get from its answers.
 *
 * Its functions: the cache keys of every kind of entry (cache_key), an
 * answer stored (answer_store), read back for a reply (answer_cached) or
 * served stale (answer_stale_get), freed (answer_free); and a reply
 * rendered from an answer or an error reply (answer_render, answer_error:
 * through render.c, also for answers not from the cache).
 *
 * A validated answer ('V' entry) keeps the upstream response with its
 * verdict and the validator's used list; a reply is rendered from it
 * (render.c: only the used RRsets) for the client's flags (DO: with
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
#include "resolver/render.h"
#include "resolver/task.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

size_t answer_key(uint8_t kind, const uint8_t *name, uint16_t type,
		  uint16_t qclass, uint8_t *key)
{
	size_t len = wire_dname_len(name);

	key[0] = kind;
	wire_put16(key + 1, type);
	wire_put16(key + 3, qclass);
	memcpy(key + 5, name, len);
	wire_dname_tolower(key + 5);
	return 5 + len;
}

/* A key's name (after kind, type and class) at or below arg. */
static bool key_below(const uint8_t *key, size_t klen, void *arg)
{
	return klen > 5 && wire_dname_is_subdomain(key + 5, arg);
}

size_t answer_drop_below(struct cache *c, const uint8_t *top)
{
	return cache_remove_if(c, key_below, (void *)top);
}

void answer_free(void *p)
{
	struct answer *a = p;

	if (!a)
		return;
	wire_msg_free(a->msg);
	free(a->used);
	free(a);
}

/* --- the answer cache --- */

/* A rendered reply, for one variant of client flags. */
struct rendered {
	int64_t stored;		/* monotonic seconds when rendered */
	int64_t fresh_until;	/* the answer's: stored + ttl */
	uint32_t ttl;		/* the answer's TTL (for prefetch) */
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
#define VARIANT_AD 16		/* AD=1 in a query without DO (render.c) */
#define VARIANT_COUNT 32

static uint8_t variant(const struct qinfo *q)
{
	return (uint8_t)((q->do_bit ? VARIANT_DO : 0) |
			 (q->flags & WIRE_FLAG_CD ? VARIANT_CD : 0) |
			 (q->edns ? VARIANT_EDNS : 0) |
			 (q->want_status ? VARIANT_STATUS : 0) |
			 (!q->do_bit && (q->flags & WIRE_FLAG_AD) ? VARIANT_AD
								 : 0));
}

/* Whether a rendered reply of variant v may be kept: a question has DO
 * or the status option only with EDNS (server.c's qinfo_fill), and AD
 * counts only without DO, so 15 of the 32 values occur; store_rendered()
 * keeps no other, so that answer_store() has only these to remove. */
static bool variant_occurs(uint8_t v)
{
	if ((v & VARIANT_AD) && (v & VARIANT_DO))
		return false;
	return (v & VARIANT_EDNS) || !(v & (VARIANT_DO | VARIANT_STATUS));
}

static size_t wkey(const struct qinfo *q, uint8_t *key)
{
	size_t len = answer_key('W', q->qname, q->qtype, q->qclass, key);

	key[len] = variant(q);
	return len + 1;
}

/* The hot path: a copy with the client's ID and spelling, TTLs aged. */
static size_t from_rendered(const struct rendered *rd, const struct qinfo *q,
			    int64_t now, uint8_t *buf)
{
	int64_t age = now - rd->stored;

	memcpy(buf, rd->msg, rd->len);
	wire_put16(buf, q->id);
	buf[2] = (uint8_t)((buf[2] & ~(WIRE_FLAG_RD >> 8)) |
			   ((q->flags & WIRE_FLAG_RD) >> 8));
	memcpy(buf + DT_MSG_HDRLEN, q->qname, wire_dname_len(q->qname));
	for (size_t i = 0; age > 0 && i < rd->nttl; i++) {
		uint32_t t = wire_get32(buf + rd->ttl_off[i]);
		wire_put32(buf + rd->ttl_off[i],
		      t > age ? t - (uint32_t)age : 0);
	}
	if (rd->status_off)
		buf[rd->status_off] |= DT_PROTO_FLAG_CACHED >> 8;
	return rd->len;
}

static void store_rendered(struct resolver *rv, int64_t now,
			   const struct qinfo *q, const struct answer *a,
			   const struct render *r, size_t len)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN + 1];
	size_t cost = sizeof(struct rendered) + r->nttl * 2 + len;

	if (!variant_occurs(variant(q)))
		return;
	struct rendered *rd = malloc(cost);
	if (!rd)
		return;
	rd->stored = now;
	rd->fresh_until = a->stored + a->ttl;
	rd->ttl = a->ttl;
	rd->len = len;
	rd->status_off = r->status_off;
	rd->nttl = r->nttl;
	memcpy(rd->ttl_off, r->ttl_off, r->nttl * 2);
	rd->msg = (const uint8_t *)(rd->ttl_off + r->nttl);
	memcpy((uint8_t *)(rd->ttl_off + r->nttl), r->b.buf, len);
	cache_put(rv->cache, key, wkey(q, key), rd, cost, rd->fresh_until,
		  free);
}

/* A cached answer asked for in the last tenth of its TTL is fetched again
 * in the background (prefetch yes), so that a popular name never goes
 * cold. Answers of less than DT_RSV_PREFETCH_MIN_TTL are left to
 * expire. */
static void maybe_prefetch(struct resolver *rv, const struct qinfo *q,
			   const struct rsv_clock *clock, int64_t fresh_until,
			   uint32_t ttl)
{
	int64_t now = clock->mono_ms / 1000;

	if (!rv->st || !rv->st->cfg.prefetch || ttl < DT_RSV_PREFETCH_MIN_TTL ||
	    (fresh_until - now) * 10 > (int64_t)ttl)
		return;
	rsv_prefetch(rv, q, clock);
}

size_t answer_cached(struct resolver *rv, const struct qinfo *q,
		     const struct rsv_clock *clock, uint8_t *buf, size_t cap)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN + 1];
	struct cache *c = rv->cache;
	int64_t now = clock->mono_ms / 1000;
	struct cache_ref ref;
	size_t len = 0;

	if (cache_get(c, key, wkey(q, key), now, &ref)) {
		const struct rendered *rd = ref.val;
		bool fits = rd->len <= render_cap(q, cap);
		int64_t fresh_until = rd->fresh_until;
		uint32_t ttl = rd->ttl;
		if (fits)
			len = from_rendered(rd, q, now, buf);
		cache_unref(c, &ref);
		if (fits) {
			maybe_prefetch(rv, q, clock, fresh_until, ttl);
			return len;
		}
	}
	size_t klen = answer_key('V', q->qname, q->qtype, q->qclass, key);
	if (!cache_get(c, key, klen, now, &ref))
		return 0;
	const struct answer *a = ref.val;
	if (now >= a->stored + (int64_t)a->ttl) {
		/* Kept past its TTL only to be served stale when the
		 * upstreams fail (resolver.c): asked again first. */
		cache_unref(c, &ref);
		return 0;
	}
	uint16_t offs[512];
	struct render r = {.ttl_off = offs, .capttl = 512};
	len = render_build(&r, a, q, now - a->stored, true, buf,
			   render_cap(q, cap));
	if (len && r.nttl < r.capttl && !r.truncated)
		store_rendered(rv, now, q, a, &r, len);
	if (len)
		maybe_prefetch(rv, q, clock, a->stored + a->ttl, a->ttl);
	if (!len)
		len = render_error(q, WIRE_RCODE_SERVFAIL, WIRE_EDE_OTHER,
				   "the reply cannot be built", buf, cap);
	cache_unref(c, &ref);
	return len;
}

size_t answer_render(const struct answer *a, const struct qinfo *q, int64_t age,
		     uint8_t *buf, size_t cap)
{
	return render_reply(a, q, age, false, buf, cap);
}

size_t answer_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		    const char *text, uint8_t *buf, size_t cap)
{
	return render_error(q, rcode, ede, text, buf, cap);
}

bool answer_proven(const struct answer *a)
{
	return (a->status == VAL_SECURE || a->status == VAL_INSECURE) &&
	       !a->unvalidated && !a->permissive;
}

size_t rsv_proven_cached(struct resolver *rv, const uint8_t *qname,
			 uint16_t qtype, const struct rsv_clock *clock,
			 uint8_t *buf, size_t cap)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('V', qname, qtype, WIRE_CLASS_IN, key);
	int64_t now = clock->mono_ms / 1000;
	struct qinfo q = {.edns = true,
			  .qtype = qtype, .qclass = WIRE_CLASS_IN};
	struct cache_ref ref;
	size_t len = 0;

	if (!cache_get(rv->cache, key, klen, now, &ref))
		return 0;
	const struct answer *a = ref.val;
	wire_dname_copy(q.qname, qname);
	/* Kept past its TTL only for serve-stale: not for a lookup. */
	if (now < a->stored + (int64_t)a->ttl && answer_proven(a))
		len = answer_render(a, &q, now - a->stored, buf, cap);
	cache_unref(rv->cache, &ref);
	return len;
}

/* RFC 8767: only what was validated (secure) or proven unsigned
 * (insecure) may be served stale; never bogus, indeterminate or an
 * upstream failure, nor what policy let through unvalidated. */
static bool answer_may_be_stale(const struct answer *a)
{
	return (a->status == VAL_SECURE || a->status == VAL_INSECURE) &&
	       !a->nta && !a->policy_pass && !a->permissive &&
	       !a->upstream_fail;
}

bool answer_stale_get(struct resolver *rv, const uint8_t *qname,
		      uint16_t qtype, uint16_t qclass, int64_t now,
		      struct cache_ref *ref)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('V', qname, qtype, qclass, key);

	if (!cache_get(rv->cache, key, klen, now, ref))
		return false;
	if (answer_may_be_stale(ref->val))
		return true;
	cache_unref(rv->cache, ref);
	return false;
}

void answer_store(struct resolver *rv, const uint8_t *qname, uint16_t qtype,
		  uint16_t qclass, struct answer *a)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('V', qname, qtype, qclass, key);
	size_t cost = sizeof(*a) + (a->msg ? 2 * a->msg->rawlen + 1024 : 0);
	int64_t expire = a->stored + a->ttl;

	if (answer_may_be_stale(a) && rv->st)
		expire += rv->st->cfg.serve_stale_max;
	if (!a->ttl) {
		answer_free(a);
		return;
	}
	/* A new verdict replaces every rendered variant of the old one. */
	uint8_t wk[DT_CACHE_KEY_MAXLEN + 1];
	size_t wl = answer_key('W', qname, qtype, qclass, wk);
	for (uint8_t v = 0; v < VARIANT_COUNT; v++) {
		if (!variant_occurs(v))
			continue;
		wk[wl] = v;
		cache_remove(rv->cache, wk, wl + 1);
	}
	cache_put(rv->cache, key, klen, a, cost, expire, answer_free);
}
