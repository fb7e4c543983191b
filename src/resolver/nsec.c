/* SPDX-License-Identifier: MIT */
/*
 * Aggressive use of validated NSEC records (RFC 8198). The NSEC RRsets and
 * the SOA of every secure negative answer proven with NSEC are kept per
 * zone ('N' cache entries: the records with their RRSIGs, as the
 * authority section of a message). A later question they answer (a name
 * an NSEC covers, with the wildcard at its closest encloser covered too:
 * NXDOMAIN; an NSEC at the name without the type and without CNAME, or
 * one covering the name whose next name lies below it, an empty
 * non-terminal: NODATA; for DS, the records of a zone above the name
 * only) is answered from them without an upstream query: the records
 * are put together into a response, and that response is validated like
 * any upstream's (resolver.c), so a synthesised answer is exactly as
 * trusted as the answers the records came with, and only a secure verdict
 * is kept. NSEC3 records are kept and used the same way (RFC 8198 §4,
 * RFC 5155 §7.2): an NSEC3 matching the name's hash without the type
 * (NODATA), or a closest-encloser proof with the next closer name and the
 * wildcard covered (NXDOMAIN), never through an opt-out span and never
 * with more iterations than nsec3-max-iterations.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/nsec3.h"
#include "policy/policy.h"
#include "resolver/task.h"
#include "validator/denial.h"
#include "validator/val.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* The records kept for a zone. */
struct nsec_zone {
	int64_t stored;		/* monotonic seconds */
	size_t len;
	uint8_t msg[];		/* a message: no question, SOA and NSEC
				   RRsets with RRSIGs in the authority
				   section, TTLs as they were stored */
};

static size_t zone_key(const uint8_t *zone, uint8_t *key)
{
	return answer_key('N', zone, WIRE_TYPE_NSEC, WIRE_CLASS_IN, key);
}

/* Whether rr is one of the records to keep: an NSEC or SOA RRset of the
 * used list of a, or their RRSIGs. */
static bool kept_record(const struct answer *a, const struct wire_rr *rr,
			int sec)
{
	for (size_t i = 0; i < a->nused; i++) {
		const struct val_used *u = &a->used[i];
		if (u->section != sec ||
		    (u->role != VAL_ROLE_PROOF && u->role != VAL_ROLE_SOA) ||
		    (u->type != WIRE_TYPE_NSEC && u->type != WIRE_TYPE_NSEC3 &&
		     u->type != WIRE_TYPE_SOA))
			continue;
		if (val_used_holds(u, &a->msg->sec[sec][u->first], rr))
			return true;
	}
	return false;
}

/* The zone whose NSEC or NSEC3 records a used: their signer. */
static const uint8_t *answer_zone(const struct answer *a)
{
	for (size_t i = 0; i < a->nused; i++) {
		const struct val_used *u = &a->used[i];
		if (u->role != VAL_ROLE_PROOF ||
		    (u->type != WIRE_TYPE_NSEC && u->type != WIRE_TYPE_NSEC3))
			continue;
		const struct wire_rr *recs = a->msg->sec[u->section];
		for (size_t k = 0; k < a->msg->count[u->section]; k++)
			if (val_rrsig_covers(&recs[k], u->type) &&
			    val_used_holds(u, &recs[u->first], &recs[k]))
				return val_rrsig_signer(&recs[k]);
	}
	return NULL;
}

static bool same_rr(const struct wire_rr *a, const struct wire_rr *b)
{
	return a->type == b->type && a->rdlen == b->rdlen &&
	       wire_dname_equal(a->owner, b->owner) &&
	       memcmp(a->rdata, b->rdata, a->rdlen) == 0;
}

void nsec_learn_proof(struct resolver *r, const struct wire_msg *m,
		      const struct val_result *res, int64_t now)
{
	struct answer a = {
		.status = res->verdict.status,
		.ttl = res->ttl ? res->ttl : UINT32_MAX,
		.msg = (struct wire_msg *)m,
		.used = (struct val_used *)res->used,
		.nused = res->nused,
	};

	nsec_learn(r, &a, now);
}

void nsec_learn(struct resolver *r, const struct answer *a, int64_t now)
{
	uint8_t *buf = r->nsec_buf;
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	struct wire_builder b;
	struct cache_ref ref = {0};
	struct wire_msg *old = NULL;
	const uint8_t *zone;
	uint32_t ttl = UINT32_MAX;
	size_t n = 0;
	int err;

	if (!r->st || !r->st->cfg.aggressive_nsec || !a->msg ||
	    a->status != VAL_SECURE || !(zone = answer_zone(a)))
		return;
	size_t klen = zone_key(zone, key);
	wire_build_init(&b, buf, sizeof(r->nsec_buf), 0, WIRE_FLAG_QR);
	/* What is kept already, aged, then what this answer adds. */
	if (cache_get(r->cache, key, klen, now, &ref)) {
		const struct nsec_zone *z = ref.val;
		old = wire_msg_parse(z->msg, z->len, 0, &err);
		for (size_t i = 0; old && i < old->count[WIRE_SEC_AUTHORITY];
		     i++) {
			struct wire_rr rr = old->sec[WIRE_SEC_AUTHORITY][i];
			if (rr.type == WIRE_TYPE_SOA ||
			    val_rrsig_covers(&rr, WIRE_TYPE_SOA))
				continue; /* the new SOA replaces it */
			int64_t left = (int64_t)rr.ttl - (now - z->stored);
			if (left <= 0)
				continue;
			rr.ttl = (uint32_t)left;
			if (n < DT_RSV_NSEC_PER_ZONE * 2 &&
			    wire_build_rr(&b, WIRE_SEC_AUTHORITY, &rr) == 0) {
				n++;
				ttl = rr.ttl < ttl ? rr.ttl : ttl;
			}
		}
		cache_unref(r->cache, &ref);
	}
	for (int sec = WIRE_SEC_ANSWER; sec <= WIRE_SEC_AUTHORITY; sec++) {
		for (size_t i = 0; i < a->msg->count[sec]; i++) {
			const struct wire_rr *rr = &a->msg->sec[sec][i];
			bool dup = false;
			if (!kept_record(a, rr, sec))
				continue;
			for (size_t k = 0; old && !dup &&
					   k < old->count[WIRE_SEC_AUTHORITY];
			     k++)
				dup = rr->type != WIRE_TYPE_SOA &&
				      !val_rrsig_covers(rr, WIRE_TYPE_SOA) &&
				      same_rr(rr,
					      &old->sec[WIRE_SEC_AUTHORITY][k]);
			struct wire_rr c = *rr;
			c.ttl = rr->ttl < a->ttl ? rr->ttl : a->ttl;
			if (dup || n >= DT_RSV_NSEC_PER_ZONE * 2 + 2 ||
			    wire_build_rr(&b, WIRE_SEC_AUTHORITY, &c) < 0)
				continue;
			n++;
			ttl = c.ttl < ttl ? c.ttl : ttl;
		}
	}
	wire_msg_free(old);
	size_t len = wire_build_finish(&b);
	if (!n || ttl == UINT32_MAX)
		return;
	if (ttl > r->st->cfg.max_cache_ttl)
		ttl = r->st->cfg.max_cache_ttl;
	struct nsec_zone *z = malloc(sizeof(*z) + len);
	if (!z)
		return;
	z->stored = now;
	z->len = len;
	memcpy(z->msg, buf, len);
	/* The entry lives as long as its shortest record; a record whose
	 * TTL ran out earlier is dropped at the next merge. */
	cache_put(r->cache, key, klen, z, sizeof(*z) + len, now + ttl, free);
}

/* Whether the type bitmap of a checked NSEC record holds type. */
static bool bitmap_has(const struct wire_rr *nsec, uint16_t type)
{
	size_t next = wire_dname_len(nsec->rdata);

	return wire_bitmap_has(nsec->rdata + next, nsec->rdlen - next, type);
}

/* Appends the RRset of type at owner (and its RRSIGs) from m. */
static void put_set(struct wire_builder *b, const struct wire_msg *m,
		    const uint8_t *owner, uint16_t type, int64_t age)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		struct wire_rr rr = m->sec[WIRE_SEC_AUTHORITY][i];
		if (!wire_dname_equal(rr.owner, owner) ||
		    (rr.type != type && !val_rrsig_covers(&rr, type)))
			continue;
		rr.ttl = rr.ttl > age ? (uint32_t)(rr.ttl - age) : 0;
		wire_build_rr(b, WIRE_SEC_AUTHORITY, &rr);
	}
}

/* The NSEC of m at name (match) or covering it, or NULL. */
static const struct wire_rr *find_nsec(const struct wire_msg *m,
				       const uint8_t *name, bool match)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];
		if (rr->type != WIRE_TYPE_NSEC)
			continue;
		if (match ? wire_dname_equal(rr->owner, name)
			  : val_nsec_covers(rr->owner, rr->rdata, name))
			return rr;
	}
	return NULL;
}

/* --- NSEC3 (RFC 5155) --- */

/* The kept NSEC3 records of m, of zone, with the first one's parameters. */
struct n3_kept {
	struct val_nsec3 r[DT_RSV_NSEC_PER_ZONE * 2];
	size_t n;
};

static void n3_collect(const struct wire_msg *m, const uint8_t *zone,
		       struct n3_kept *k)
{
	k->n = 0;
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] &&
			   k->n < sizeof(k->r) / sizeof(k->r[0]);
	     i++) {
		struct val_nsec3 *x = &k->r[k->n];
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];
		if (rr->type != WIRE_TYPE_NSEC3 ||
		    !val_nsec3_split(rr, zone, x))
			continue;
		if (k->n && !val_nsec3_same_params(x, &k->r[0]))
			continue;
		k->n++;
	}
}

static bool n3_hash(const struct n3_kept *k, const uint8_t *name,
		    uint8_t out[CRYPTO_NSEC3_HASHLEN])
{
	return val_nsec3_hash_name(&k->r[0], name, out);
}

static const struct val_nsec3 *n3_match(const struct n3_kept *k,
					const uint8_t *h)
{
	return val_nsec3_find_match(k->r, k->n, h);
}

static const struct val_nsec3 *n3_cover(const struct n3_kept *k,
					const uint8_t *h)
{
	return val_nsec3_find_cover(k->r, k->n, h);
}

/*
 * The NSEC3 records of m that answer (qname, qtype) in zone: the one
 * matching qname (NODATA), or the closest encloser's with the next closer
 * name and the wildcard covered (NXDOMAIN); none past an opt-out span, a
 * delegation or a DNAME, nor with more than max_iter iterations. Writes
 * their owners (m's names) to used (at most 3) and returns how many;
 * *nx: NXDOMAIN.
 */
static size_t n3_answer(const struct wire_msg *m, const uint8_t *zone,
			const uint8_t *qname, uint16_t qtype, unsigned max_iter,
			const uint8_t *used[3], bool *nx)
{
	struct n3_kept *k = malloc(sizeof(*k));
	uint8_t h[CRYPTO_NSEC3_HASHLEN], wname[DT_NAME_MAXLEN];
	const struct val_nsec3 *at, *ce = NULL, *nc, *wc;
	int ql = wire_dname_labels(qname), zl = wire_dname_labels(zone), l;
	size_t n = 0;

	if (!k)
		return 0;
	n3_collect(m, zone, k);
	if (!k->n || k->r[0].iterations > max_iter || !n3_hash(k, qname, h))
		goto out;
	if ((at = n3_match(k, h))) {
		/* The type exists, or an alias, or a delegation (ask; for
		 * DS the parent's record at the cut is the answer). */
		if (val_nsec3_has(at, qtype) ||
		    val_nsec3_has(at, WIRE_TYPE_CNAME) ||
		    (qtype != WIRE_TYPE_DS && val_nsec3_is_cut(at)))
			goto out;
		used[n++] = at->rr->owner;
		*nx = false;
		goto out;
	}
	for (l = ql - 1; l >= zl && !ce; l--)
		if (n3_hash(k, wire_dname_ancestor(qname, l), h))
			ce = n3_match(k, h);
	l++;
	if (!ce || val_nsec3_has(ce, WIRE_TYPE_DNAME) || val_nsec3_is_cut(ce) ||
	    !n3_hash(k, wire_dname_ancestor(qname, l + 1), h) ||
	    !(nc = n3_cover(k, h)) || val_nsec3_optout(nc) ||
	    wire_dname_wildcard_of(wname, wire_dname_ancestor(qname, l)) < 0 ||
	    !n3_hash(k, wname, h) || n3_match(k, h) || !(wc = n3_cover(k, h)))
		goto out;
	used[n++] = ce->rr->owner;
	used[n++] = nc->rr->owner;
	if (wc != nc && wc != ce)
		used[n++] = wc->rr->owner;
	*nx = true;
out:
	free(k);
	return n;
}

/* The records of z that answer (qname, qtype), as a response in buf;
 * 0 when they do not. */
static size_t answer_from(const struct nsec_zone *z, const uint8_t *zone,
			  const uint8_t *qname, uint16_t qtype,
			  unsigned max_iter, int64_t now, uint8_t *buf,
			  size_t cap)
{
	struct wire_builder b;
	int err;
	size_t len = 0;
	struct wire_msg *m = wire_msg_parse(z->msg, z->len, 0, &err);
	int64_t age = now - z->stored;
	const uint8_t *n3[3];
	size_t n3n;
	bool nx = false;

	if (!m)
		return 0;
	if ((n3n = n3_answer(m, zone, qname, qtype, max_iter, n3, &nx))) {
		wire_build_init(&b, buf, cap, 0,
				WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA |
					(nx ? WIRE_RCODE_NXDOMAIN
					    : WIRE_RCODE_NOERROR));
		wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
		put_set(&b, m, zone, WIRE_TYPE_SOA, age);
		for (size_t i = 0; i < n3n; i++)
			put_set(&b, m, n3[i], WIRE_TYPE_NSEC3, age);
		len = wire_build_finish(&b);
		goto out;
	}
	const struct wire_rr *at = find_nsec(m, qname, true);
	const struct wire_rr *cover = at ? NULL : find_nsec(m, qname, false);
	/* Not below a delegation or a DNAME the covering NSEC's owner holds.
	 * When its next name lies below qname, qname is an empty
	 * non-terminal: NODATA for every type (RFC 8198 §5.1, RFC 4592 §2.2.2),
	 * no wildcard to look for. */
	if (cover && wire_dname_is_subdomain(qname, cover->owner) &&
	    (bitmap_has(cover, WIRE_TYPE_DNAME) ||
	     (bitmap_has(cover, WIRE_TYPE_NS) &&
	      !bitmap_has(cover, WIRE_TYPE_SOA))))
		goto out;
	const bool ent = cover && wire_dname_is_subdomain(cover->rdata, qname);
	const struct wire_rr *wild = NULL;
	uint8_t wname[DT_NAME_MAXLEN];
	if (at && (bitmap_has(at, qtype) || bitmap_has(at, WIRE_TYPE_CNAME) ||
		   (qtype != WIRE_TYPE_DS && bitmap_has(at, WIRE_TYPE_NS) &&
		    !bitmap_has(at, WIRE_TYPE_SOA))))
		goto out; /* the type exists, or a delegation: ask (for DS
			     the parent's NSEC at a cut is the answer) */
	if (cover && !ent) {
		/* The closest encloser: the longest ancestor of qname that
		 * the covering NSEC's owner or next name shares. */
		int a = wire_dname_common_labels(qname, cover->owner);
		int n = wire_dname_common_labels(qname, cover->rdata);
		int ce = a > n ? a : n;
		if (ce < wire_dname_labels(zone) ||
		    wire_dname_wildcard_of(wname,
					   wire_dname_ancestor(qname, ce)) < 0 ||
		    find_nsec(m, wname, true) ||
		    !(wild = find_nsec(m, wname, false)))
			goto out; /* a wildcard may exist: ask */
	}
	if (!at && !cover)
		goto out;
	wire_build_init(&b, buf, cap, 0,
			WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA |
				(at || ent ? WIRE_RCODE_NOERROR
					   : WIRE_RCODE_NXDOMAIN));
	wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	put_set(&b, m, zone, WIRE_TYPE_SOA, age);
	put_set(&b, m, at ? at->owner : cover->owner, WIRE_TYPE_NSEC, age);
	if (wild && !wire_dname_equal(wild->owner, cover->owner))
		put_set(&b, m, wild->owner, WIRE_TYPE_NSEC, age);
	len = wire_build_finish(&b);
out:
	wire_msg_free(m);
	return len;
}

struct wire_msg *nsec_synthesize(struct rsv_task *t)
{
	uint8_t *buf = t->r->nsec_buf;
	const struct cfg *cfg = &t->st->cfg;
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	struct cache_ref ref;
	int err;

	/* A DS RRset is its parent's: only the records of a zone above the
	 * name speak for it (never the name's own zone's apex NSEC). */
	int top = wire_dname_labels(t->qname) -
		  (t->qtype == WIRE_TYPE_DS && t->qname[0] ? 1 : 0);

	if (!cfg->aggressive_nsec || t->qclass != WIRE_CLASS_IN ||
	    policy_nta(cfg, t->st->nta, t->qname, t->now) ||
	    policy_domain(cfg, t->qname, false))
		return NULL;
	for (int l = top; l >= 0; l--) {
		const uint8_t *zone = wire_dname_ancestor(t->qname, l);
		if (!cache_get(t->r->cache, key, zone_key(zone, key), t->mono,
			       &ref))
			continue;
		size_t len = answer_from(ref.val, zone, t->qname, t->qtype,
					 cfg->nsec3_max_iterations, t->mono,
					 buf, sizeof(t->r->nsec_buf));
		cache_unref(t->r->cache, &ref);
		return len ? wire_msg_parse(buf, len, 0, &err) : NULL;
	}
	return NULL;
}
