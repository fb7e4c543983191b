/* SPDX-License-Identifier: MIT */
/*
 * Denial of existence with NSEC3 (RFC 5155 §8, RFC 9276 §3.2). Pure
 * functions over NSEC3 RRsets whose signatures were already verified; see
 * validator/denial.h.
 *
 * A proof first picks the usable records: hash algorithm 1, flags 0 or 1
 * (RFC 5155 §8.1, §8.2), a 20-octet next hash, an owner that is one
 * base32hex label directly below the zone, and the iterations and salt of
 * the first such record (records with other parameters are ignored). It
 * then checks the iterations against the limit (RFC 9276 §3.2): above it,
 * only qname's own hash is computed, and unless an NSEC3 matches it the
 * proof stops there, insecure. Every hash is charged to ctx->nsec3_hashes_used; the closest
 * encloser walk hashes each ancestor of qname at most once per call.
 *
 * A proof that needs a next closer name to be covered, and finds it covered
 * only by an opt-out NSEC3, is insecure: an unsigned delegation may sit
 * there (RFC 5155 §6, §9.2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "crypto/nsec3.h"
#include "validator/denial.h"
#include "wire/base.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

#define HLEN CRYPTO_NSEC3_HASHLEN
/* Characters of a base32hex SHA-1 hash: one owner label. */
#define HLEN_B32	  32
#define NSEC3_FLAG_OPTOUT 0x01

/* The proof is decided: the verdict is written. */
#define N3_DONE 1

/* One proof in progress. */
struct n3_proof {
	struct val_ctx *ctx;
	const uint8_t *zone;
	const uint8_t *qname;
	struct val_nsec3 *recs; /* usable records, one malloc */
	size_t nrecs;
	size_t nseen; /* NSEC3 records looked at */
	/* Hashes of qname's ancestors, by label count. */
	uint8_t anc[DT_NAME_MAXLABELS + 1][HLEN];
	bool have[DT_NAME_MAXLABELS + 1];
};

/* A proven closest encloser (RFC 5155 §8.3). */
struct n3_ce {
	int labels;		       /* of the closest encloser */
	const struct val_nsec3 *match; /* NSEC3 matching it */
	const struct val_nsec3 *nc;    /* NSEC3 covering the next closer
					  name, or NULL when the closest
					  encloser is qname */
};

#define n3_bogus(v, tag, ...)                                                  \
	val_verdict_set(v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, tag, __VA_ARGS__)

static const char *name_str(const uint8_t *name, char buf[DT_NAME_TEXT_MAXLEN])
{
	if (wire_dname_to_str(name, buf, DT_NAME_TEXT_MAXLEN) < 0)
		snprintf(buf, DT_NAME_TEXT_MAXLEN, "?");
	return buf;
}

bool val_nsec3_has(const struct val_nsec3 *r, uint16_t type)
{
	return wire_bitmap_has(r->bm, r->bmlen, type);
}

bool val_nsec3_is_cut(const struct val_nsec3 *r)
{
	return val_nsec3_has(r, WIRE_TYPE_NS) &&
	       !val_nsec3_has(r, WIRE_TYPE_SOA);
}

bool val_nsec3_optout(const struct val_nsec3 *r)
{
	return r->flags & NSEC3_FLAG_OPTOUT;
}

bool val_nsec3_split(const struct wire_rr *rr, const uint8_t *zone,
		     struct val_nsec3 *out)
{
	const uint8_t *d = rr->rdata;
	size_t saltlen, off;

	if (rr->rdlen < 6 || d[0] != CRYPTO_NSEC3_SHA1 ||
	    (d[1] & ~NSEC3_FLAG_OPTOUT) != 0)
		return false;
	saltlen = d[4];
	off = 5 + saltlen;
	if (off + 1 + HLEN > rr->rdlen || d[off] != HLEN)
		return false;
	if (rr->owner[0] != HLEN_B32 ||
	    !wire_dname_equal(wire_dname_parent(rr->owner), zone) ||
	    wire_b32hex_decode((const char *)rr->owner + 1, HLEN_B32, out->hash,
			       HLEN) != HLEN)
		return false;
	out->rr = rr;
	out->flags = d[1];
	out->iterations = wire_get16(d + 2);
	out->saltlen = (uint8_t)saltlen;
	out->salt = d + 5;
	out->next = d + off + 1;
	out->bm = out->next + HLEN;
	out->bmlen = rr->rdlen - (off + 1 + HLEN);
	return true;
}

bool val_nsec3_hash_name(const struct val_nsec3 *r, const uint8_t *name,
			 uint8_t out[HLEN])
{
	return name && crypto_nsec3_hash(name, CRYPTO_NSEC3_SHA1, r->iterations,
					 r->salt, r->saltlen, out) > 0;
}

bool val_nsec3_same_params(const struct val_nsec3 *a,
			   const struct val_nsec3 *b)
{
	return a->iterations == b->iterations && a->saltlen == b->saltlen &&
	       memcmp(a->salt, b->salt, a->saltlen) == 0;
}

/* Keeps the usable records whose parameters equal the first one's. */
static int n3_collect(struct n3_proof *p, const struct val_rrset *sets,
		      size_t n)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		if (sets[i].type == WIRE_TYPE_NSEC3)
			total += sets[i].n;
	}
	p->recs = calloc(total ? total : 1, sizeof(*p->recs));
	if (!p->recs)
		return -ENOMEM;
	p->nseen = total;
	for (size_t i = 0; i < n; i++) {
		if (sets[i].type != WIRE_TYPE_NSEC3)
			continue;
		for (size_t j = 0; j < sets[i].n; j++) {
			struct val_nsec3 *r = &p->recs[p->nrecs];

			if (val_nsec3_split(sets[i].rrs[j], p->zone, r) &&
			    (p->nrecs == 0 ||
			     val_nsec3_same_params(&p->recs[0], r)))
				p->nrecs++;
		}
	}
	return 0;
}

/* Hashes name with the proof's parameters, within the question's budget.
 * Returns 0, N3_DONE (limit reached, v set) or a negative code. */
static int n3_hash(struct n3_proof *p, const uint8_t *name, uint8_t out[HLEN],
		   struct val_verdict *v)
{
	struct val_ctx *ctx = p->ctx;
	const struct val_nsec3 *par = &p->recs[0];
	char b1[DT_NAME_TEXT_MAXLEN];
	int r;

	if (ctx->nsec3_hashes_used >= ctx->lim.nsec3_hashes_per_query) {
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"nsec3-hash-limit",
				"NSEC3 hash limit (%u per question) reached "
				"while proving the denial for %s",
				ctx->lim.nsec3_hashes_per_query,
				name_str(p->qname, b1));
		v->budget = true;
		return N3_DONE;
	}
	if (ctx->work && ctx->work->hashes >= ctx->work->hashes_max) {
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"nsec3-hash-limit-answer",
				"NSEC3 hash limit (%u for the answer and its chain "
				"of trust) reached while proving the denial for %s",
				ctx->work->hashes_max, name_str(p->qname, b1));
		v->budget = true;
		return N3_DONE;
	}
	ctx->nsec3_hashes_used++;
	if (ctx->work)
		ctx->work->hashes++;
	r = crypto_nsec3_hash(name, CRYPTO_NSEC3_SHA1, par->iterations,
			      par->salt, par->saltlen, out);
	return r < 0 ? r : 0;
}

/* The hash of qname's ancestor with the given label count, computed once. */
static int n3_hash_anc(struct n3_proof *p, int labels, const uint8_t **ret,
		       struct val_verdict *v)
{
	int r;

	if (!p->have[labels]) {
		r = n3_hash(p, wire_dname_ancestor(p->qname, labels),
			    p->anc[labels], v);
		if (r)
			return r;
		p->have[labels] = true;
	}
	*ret = p->anc[labels];
	return 0;
}

const struct val_nsec3 *val_nsec3_find_match(const struct val_nsec3 *recs,
					      size_t n, const uint8_t h[HLEN])
{
	for (size_t i = 0; i < n; i++) {
		if (memcmp(recs[i].hash, h, HLEN) == 0)
			return &recs[i];
	}
	return NULL;
}

static const struct val_nsec3 *n3_match(const struct n3_proof *p,
					const uint8_t h[HLEN])
{
	return val_nsec3_find_match(p->recs, p->nrecs, h);
}

/* owner < h < next, or for the last NSEC3 of the chain (next <= owner),
 * h after owner or before next. */
bool val_nsec3_covers(const struct val_nsec3 *r, const uint8_t h[HLEN])
{
	int lo = memcmp(r->hash, h, HLEN), hi = memcmp(h, r->next, HLEN);

	if (memcmp(r->hash, r->next, HLEN) < 0)
		return lo < 0 && hi < 0;
	return lo < 0 || hi < 0;
}

const struct val_nsec3 *val_nsec3_find_cover(const struct val_nsec3 *recs,
					      size_t n, const uint8_t h[HLEN])
{
	for (size_t i = 0; i < n; i++) {
		if (val_nsec3_covers(&recs[i], h))
			return &recs[i];
	}
	return NULL;
}

static const struct val_nsec3 *n3_cover(const struct n3_proof *p,
					const uint8_t h[HLEN])
{
	return val_nsec3_find_cover(p->recs, p->nrecs, h);
}

/* The limit in force: the caller's, never above the hard cap. */
static unsigned iter_limit(const struct val_ctx *ctx)
{
	unsigned lim = ctx->lim.nsec3_iterations;

	return lim < DT_NSEC3_MAX_ITERATIONS ? lim : DT_NSEC3_MAX_ITERATIONS;
}

/*
 * Starts a proof: qname in zone, usable records, iterations within the
 * limit. Returns 0 to go on, N3_DONE with v set, or -ENOMEM. p->recs must
 * be freed by n3_end() in every case.
 */
static int n3_begin(struct n3_proof *p, struct val_ctx *ctx,
		    const struct val_rrset *sets, size_t n, const uint8_t *zone,
		    const uint8_t *qname, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	int r;

	memset(p->have, 0, sizeof(p->have));
	p->ctx = ctx;
	p->zone = zone;
	p->qname = qname;
	p->recs = NULL;
	p->nrecs = 0;
	if (!wire_dname_is_subdomain(qname, zone)) {
		n3_bogus(v, "nsec3-out-of-zone",
			 "%s is not in the zone %s that signed the NSEC3s",
			 name_str(qname, b1), name_str(zone, b2));
		return N3_DONE;
	}
	if ((r = n3_collect(p, sets, n)) < 0)
		return r;
	if (p->nrecs == 0) {
		n3_bogus(v, "nsec3-none-usable",
			 "none of the %zu NSEC3 records is usable for %s "
			 "(hash algorithm 1, flags 0 or 1, owner one label "
			 "below %s)",
			 p->nseen, name_str(qname, b1), name_str(zone, b2));
		return N3_DONE;
	}
	if (p->recs[0].iterations > iter_limit(ctx)) {
		/* RFC 9276 §3.2 lets a validator give up on such a zone's
		 * denials (insecure), not on its data: the NSEC3 of qname
		 * itself takes one hash to find, and when it is there the
		 * proof is checked in full, so that it can neither deny a
		 * name it shows to exist nor make a name below a signed zone
		 * "insecure" as a zone cut it shows not to be. */
		const uint8_t *h;
		if (p->recs[0].iterations <= DT_NSEC3_MAX_ITERATIONS) {
			if ((r = n3_hash_anc(p, wire_dname_labels(qname), &h,
					     v)) != 0)
				return r;
			if (n3_match(p, h))
				return 0;
		}
		val_verdict_set(v, VAL_INSECURE,
				WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS,
				"nsec3-iterations",
				"NSEC3 iterations %u above the limit %u "
				"(RFC 9276) in zone %s",
				p->recs[0].iterations, iter_limit(ctx),
				name_str(zone, b1));
		return N3_DONE;
	}
	return 0;
}

static void n3_end(struct n3_proof *p)
{
	free(p->recs);
	p->recs = NULL;
}

/* A closest encloser that is a zone cut or a DNAME cannot have names below
 * it in this zone (RFC 5155 §8.3, last paragraph). */
static int ce_check_type(struct n3_proof *p, const uint8_t *ce,
			 const struct val_nsec3 *m, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];

	if (!val_nsec3_is_cut(m) && !val_nsec3_has(m, WIRE_TYPE_DNAME))
		return 0;
	n3_bogus(v,
		 val_nsec3_is_cut(m) ? "nsec3-ce-delegation"
				     : "nsec3-ce-dname",
		 "NSEC3 for %s, closest encloser of %s, shows a %s: the "
		 "answer should have been a %s",
		 name_str(ce, b1), name_str(p->qname, b2),
		 val_nsec3_is_cut(m) ? "delegation (NS, no SOA)" : "DNAME",
		 val_nsec3_is_cut(m) ? "referral" : "DNAME redirection");
	return N3_DONE;
}

/*
 * Closest encloser proof (RFC 5155 §8.3): the longest ancestor of qname
 * (qname included, the zone at most) with a matching NSEC3, and an NSEC3
 * covering the next closer name. When qname itself matches, ce->nc is
 * NULL. Returns 0, N3_DONE with v set, or a negative code.
 */
static int n3_ce_proof(struct n3_proof *p, struct n3_ce *ce,
		       struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	int ql = wire_dname_labels(p->qname), zl = wire_dname_labels(p->zone);
	const uint8_t *h, *name;
	int l, r;

	ce->match = NULL;
	for (l = ql; l >= zl; l--) {
		if ((r = n3_hash_anc(p, l, &h, v)))
			return r;
		if ((ce->match = n3_match(p, h)))
			break;
	}
	if (!ce->match) {
		n3_bogus(v, "nsec3-no-ce",
			 "no NSEC3 matches the closest encloser of %s (no "
			 "ancestor up to %s has one)",
			 name_str(p->qname, b1), name_str(p->zone, b2));
		return N3_DONE;
	}
	ce->labels = l;
	ce->nc = NULL;
	if (ce->labels == ql)
		return 0;
	name = wire_dname_ancestor(p->qname, ce->labels);
	if ((r = ce_check_type(p, name, ce->match, v)))
		return r;
	if ((r = n3_hash_anc(p, ce->labels + 1, &h, v)))
		return r;
	ce->nc = n3_cover(p, h);
	if (!ce->nc) {
		n3_bogus(v, "nsec3-no-nc-cover",
			 "no NSEC3 covers the next closer name %s (closest "
			 "encloser %s)",
			 name_str(wire_dname_ancestor(p->qname, ce->labels + 1),
				  b1),
			 name_str(name, b2));
		return N3_DONE;
	}
	if (p->ctx->trace)
		val_trace(p->ctx, "NSEC3: closest encloser of %s is %s%s",
			  name_str(p->qname, b1), name_str(name, b2),
			  val_nsec3_optout(ce->nc)
				  ? " (next closer in opt-out span)"
				  : "");
	return 0;
}

/* Hashes *.<ce> into h. Returns 0, N3_DONE with v set, or a negative code. */
static int n3_hash_wildcard(struct n3_proof *p, const struct n3_ce *ce,
			    uint8_t wc[DT_NAME_MAXLEN], uint8_t h[HLEN],
			    struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN];
	const uint8_t *cen = wire_dname_ancestor(p->qname, ce->labels);

	if (wire_dname_wildcard_of(wc, cen) < 0) {
		/* Cannot happen: qname, longer than ce, fits in 255
		 * octets and so does *.ce. Fail closed. */
		n3_bogus(v, "nsec3-wildcard-len",
			 "the wildcard at %s would exceed 255 octets",
			 name_str(cen, b1));
		return N3_DONE;
	}
	return n3_hash(p, wc, h, v);
}

/* Secure, or insecure when the next closer name was only covered by an
 * opt-out span. */
static void n3_done(struct n3_proof *p, const struct n3_ce *ce,
		    const char *what, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];

	if (!ce->nc || !val_nsec3_optout(ce->nc)) {
		val_verdict_secure(v);
		return;
	}
	val_verdict_set(
		v, VAL_INSECURE, VAL_EDE_NONE, "nsec3-optout",
		"%s for %s holds only through an opt-out NSEC3 span "
		"over %s: an unsigned delegation may exist there "
		"(RFC 5155 §9.2)",
		what, name_str(p->qname, b1),
		name_str(wire_dname_ancestor(p->qname, ce->labels + 1), b2));
}

/* --- NXDOMAIN --- */

static int n3_nxdomain(struct n3_proof *p, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	char b3[DT_NAME_TEXT_MAXLEN];
	uint8_t wc[DT_NAME_MAXLEN], h[HLEN];
	struct n3_ce ce;
	int r;

	if ((r = n3_ce_proof(p, &ce, v)))
		return r;
	if (!ce.nc) {
		n3_bogus(v, "nsec3-nx-qname-exists",
			 "an NSEC3 matches %s: the name exists, NXDOMAIN is "
			 "false",
			 name_str(p->qname, b1));
		return N3_DONE;
	}
	if ((r = n3_hash_wildcard(p, &ce, wc, h, v)))
		return r;
	if (n3_match(p, h)) {
		n3_bogus(v, "nsec3-nx-wildcard-exists",
			 "an NSEC3 matches the wildcard %s: it should have "
			 "answered %s",
			 name_str(wc, b1), name_str(p->qname, b2));
		return N3_DONE;
	}
	if (!n3_cover(p, h)) {
		n3_bogus(v, "nsec3-nx-no-wildcard-cover",
			 "no NSEC3 covers the wildcard %s at the closest "
			 "encloser %s of %s: NXDOMAIN is not proven",
			 name_str(wc, b1),
			 name_str(wire_dname_ancestor(p->qname, ce.labels), b2),
			 name_str(p->qname, b3));
		return N3_DONE;
	}
	n3_done(p, &ce, "NXDOMAIN", v);
	return 0;
}

int val_nsec3_nxdomain(struct val_ctx *ctx, const struct val_rrset *nsec3s,
		       size_t n, const uint8_t *zone, const uint8_t *qname,
		       struct val_verdict *v)
{
	struct n3_proof p;
	int r;

	r = n3_begin(&p, ctx, nsec3s, n, zone, qname, v);
	if (r == 0)
		r = n3_nxdomain(&p, v);
	n3_end(&p);
	return r < 0 ? r : 0;
}

/* --- NODATA --- */

/* Checks that m, an NSEC3 matching qname (or with wc its wildcard),
 * denies qtype. Returns 0, or N3_DONE with v set. */
static int n3_lacks_type(struct n3_proof *p, const struct val_nsec3 *m,
			 uint16_t qtype, bool wc, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], t[16];
	const char *at = wc ? "the wildcard matching " : "";

	name_str(p->qname, b1);
	wire_type_to_str(qtype, t);
	if (val_nsec3_has(m, qtype)) {
		n3_bogus(v,
			 wc ? "nsec3-wc-nodata-type-present"
			    : "nsec3-nodata-type-present",
			 "NSEC3 for %s%s lists %s: NODATA for %s/%s is not "
			 "proven",
			 at, b1, t, b1, t);
	} else if (qtype == WIRE_TYPE_ANY && wire_bitmap_any(m->bm, m->bmlen)) {
		/* ANY is in no bitmap: a name with any type has data for
		 * it (an empty non-terminal's NSEC3 lists none). */
		n3_bogus(v, wc ? "nsec3-wc-nodata-any" : "nsec3-nodata-any",
			 "NSEC3 for %s%s lists types: %s/ANY has data, "
			 "NODATA is not proven",
			 at, b1, b1);
	} else if (val_nsec3_has(m, WIRE_TYPE_CNAME)) {
		n3_bogus(v, wc ? "nsec3-wc-nodata-cname" : "nsec3-nodata-cname",
			 "NSEC3 for %s%s lists CNAME: %s/%s should have been "
			 "answered with the CNAME",
			 at, b1, b1, t);
	} else if (qtype == WIRE_TYPE_DS && val_nsec3_has(m, WIRE_TYPE_SOA) &&
		   !wire_dname_is_root(p->qname)) {
		n3_bogus(v,
			 wc ? "nsec3-wc-ds-child-side" : "nsec3-ds-child-side",
			 "NSEC3 for %s%s has SOA: it comes from the child "
			 "zone's apex and cannot deny %s/DS, which the parent "
			 "holds",
			 at, b1, b1);
	} else if (qtype != WIRE_TYPE_DS && val_nsec3_is_cut(m)) {
		n3_bogus(v,
			 wc ? "nsec3-wc-nodata-referral"
			    : "nsec3-nodata-referral",
			 "NSEC3 for %s%s is a delegation (NS, no SOA): it "
			 "cannot deny %s/%s, which the child zone holds",
			 at, b1, b1, t);
	} else {
		return 0;
	}
	return N3_DONE;
}

/* No NSEC3 matches qname: wildcard NODATA (§8.7) or an opt-out span over
 * the next closer name (§8.6; for other types too, as Unbound does: data
 * below an unsigned delegation reaches us through forwarders). */
static int n3_nodata_ce(struct n3_proof *p, uint16_t qtype,
			struct val_denial_info *got, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN], t[16];
	uint8_t wc[DT_NAME_MAXLEN], h[HLEN];
	const struct val_nsec3 *m;
	struct n3_ce ce;
	int r;

	if ((r = n3_ce_proof(p, &ce, v)))
		return r;
	if ((r = n3_hash_wildcard(p, &ce, wc, h, v)))
		return r;
	if ((m = n3_match(p, h))) {
		if ((r = n3_lacks_type(p, m, qtype, true, v)))
			return r;
		got->wildcard = true;
		got->optout = val_nsec3_optout(ce.nc);
		n3_done(p, &ce, "wildcard NODATA", v);
		return 0;
	}
	if (!val_nsec3_optout(ce.nc)) {
		n3_bogus(v,
			 qtype == WIRE_TYPE_DS ? "nsec3-ds-no-optout"
					       : "nsec3-nodata-no-proof",
			 "no NSEC3 matches %s or the wildcard %s, and the next "
			 "closer name is not in an opt-out span: NODATA for "
			 "%s/%s is not proven",
			 name_str(p->qname, b1), name_str(wc, b2), b1,
			 wire_type_to_str(qtype, t));
		return N3_DONE;
	}
	got->optout = true;
	n3_done(p, &ce, qtype == WIRE_TYPE_DS ? "no DS" : "NODATA", v);
	return 0;
}

static int n3_nodata(struct n3_proof *p, uint16_t qtype,
		     struct val_denial_info *got, struct val_verdict *v)
{
	const uint8_t *h;
	const struct val_nsec3 *m;
	int r;

	if ((r = n3_hash_anc(p, wire_dname_labels(p->qname), &h, v)))
		return r;
	m = n3_match(p, h);
	if (!m)
		return n3_nodata_ce(p, qtype, got, v);
	if ((r = n3_lacks_type(p, m, qtype, false, v)))
		return r;
	got->delegation = val_nsec3_is_cut(m);
	val_verdict_secure(v);
	return 0;
}

int val_nsec3_nodata(struct val_ctx *ctx, const struct val_rrset *nsec3s,
		     size_t n, const uint8_t *zone, const uint8_t *qname,
		     uint16_t qtype, struct val_denial_info *info,
		     struct val_verdict *v)
{
	struct val_denial_info got = {0};
	struct n3_proof p;
	int r;

	r = n3_begin(&p, ctx, nsec3s, n, zone, qname, v);
	if (r == 0)
		r = n3_nodata(&p, qtype, &got, v);
	n3_end(&p);
	if (r < 0)
		return r;
	if (r == 0 && info)
		*info = got;
	return 0;
}

/* --- wildcard answer --- */

static int n3_wildcard(struct n3_proof *p, const uint8_t *cen,
		       struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	struct n3_ce ce = {.labels = wire_dname_labels(cen)};
	const uint8_t *h, *nc;
	int r;

	nc = wire_dname_ancestor(p->qname, ce.labels + 1);
	if ((r = n3_hash_anc(p, ce.labels + 1, &h, v)))
		return r;
	ce.nc = n3_cover(p, h);
	if (!ce.nc && n3_match(p, h)) {
		n3_bogus(v, "nsec3-wc-nc-exists",
			 "an NSEC3 matches the next closer name %s: it exists, "
			 "so the wildcard cannot have answered %s",
			 name_str(nc, b1), name_str(p->qname, b2));
		return N3_DONE;
	}
	if (!ce.nc) {
		n3_bogus(v, "nsec3-wc-no-nc-cover",
			 "no NSEC3 covers the next closer name %s: the "
			 "wildcard answer for %s is not proven",
			 name_str(nc, b1), name_str(p->qname, b2));
		return N3_DONE;
	}
	n3_done(p, &ce, "the wildcard answer", v);
	return 0;
}

int val_nsec3_wildcard(struct val_ctx *ctx, const struct val_rrset *nsec3s,
		       size_t n, const uint8_t *zone, const uint8_t *qname,
		       const uint8_t *closest_encloser, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	char b3[DT_NAME_TEXT_MAXLEN];
	const uint8_t *ce = closest_encloser;
	struct n3_proof p;
	int r;

	if (!wire_dname_is_subdomain(ce, zone) ||
	    !wire_dname_is_subdomain(qname, ce) ||
	    wire_dname_equal(qname, ce)) {
		n3_bogus(v, "nsec3-wc-bad-ce",
			 "%s cannot be a wildcard expansion below %s in the "
			 "zone %s",
			 name_str(qname, b1), name_str(ce, b2),
			 name_str(zone, b3));
		return 0;
	}
	r = n3_begin(&p, ctx, nsec3s, n, zone, qname, v);
	if (r == 0)
		r = n3_wildcard(&p, ce, v);
	n3_end(&p);
	return r < 0 ? r : 0;
}
