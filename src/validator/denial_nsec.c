/* SPDX-License-Identifier: MIT */
/*
 * Denial of existence with NSEC (RFC 4035 §3.1.3, §5.4; RFC 4592; RFC 6840
 * §4.1, §4.4; RFC 6672 §5.3.4). Pure functions over NSEC RRsets whose
 * signatures were already verified; see validator/denial.h.
 *
 * Two rules run through every proof:
 *   - an NSEC is only believed about names at or below its zone, and
 *     only when its next name is in the zone too (an "overreaching" next
 *     name outside it would span other zones' names);
 *   - an NSEC at a zone cut (NS without SOA) or at a DNAME says nothing
 *     about the names below its owner: the zone is not authoritative
 *     there. Such an NSEC is never used to cover a name below it, and an
 *     NSEC showing that an ancestor of qname is a cut or a DNAME makes
 *     every denial of qname bogus (the answer should have been a
 *     referral or a DNAME redirection).
 */
#include <stdio.h>

#include "common/limits.h"
#include "validator/denial.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* One NSEC record, split into its fields. */
struct nsec {
	const uint8_t *owner;
	const uint8_t *next;
	const uint8_t *bm;
	size_t bmlen;
};

/* Every NSEC record of the RRsets whose owner lies in zone. */
struct nsec_iter {
	const struct val_rrset *sets;
	size_t nsets;
	const uint8_t *zone;
	size_t set, rr;
};

/* Bogus with EDE 12 (NSEC Missing): the records do not prove the denial. */
#define nsec_bogus(v, tag, ...)                                                \
	val_verdict_set(v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, tag, __VA_ARGS__)

/* Presentation form of a name, for reasons. */
static const char *name_str(const uint8_t *name, char buf[DT_NAME_TEXT_MAXLEN])
{
	if (wire_dname_to_str(name, buf, DT_NAME_TEXT_MAXLEN) < 0)
		snprintf(buf, DT_NAME_TEXT_MAXLEN, "?");
	return buf;
}

static void nsec_split(const struct wire_rr *rr, struct nsec *out)
{
	/* RDATA was checked where it entered: next name, then bitmap. */
	size_t nl = wire_dname_len(rr->rdata);

	out->owner = rr->owner;
	out->next = rr->rdata;
	out->bm = rr->rdata + nl;
	out->bmlen = rr->rdlen - nl;
}

static void iter_init(struct nsec_iter *it, const struct val_rrset *sets,
		      size_t n, const uint8_t *zone)
{
	*it = (struct nsec_iter){.sets = sets, .nsets = n, .zone = zone};
}

static bool iter_next(struct nsec_iter *it, struct nsec *out)
{
	for (; it->set < it->nsets; it->set++, it->rr = 0) {
		const struct val_rrset *s = &it->sets[it->set];

		if (s->type != WIRE_TYPE_NSEC)
			continue;
		while (it->rr < s->n) {
			const struct wire_rr *rr = s->rrs[it->rr++];

			if (rr->rdlen == 0 ||
			    !wire_dname_is_subdomain(rr->owner, it->zone))
				continue;
			nsec_split(rr, out);
			/* A next name outside the zone "covers" other zones'
			 * names: the record is not of this zone's chain
			 * (RFC 4034 §4.1.1) and proves nothing. */
			if (!wire_dname_is_subdomain(out->next, it->zone))
				continue;
			return true;
		}
	}
	return false;
}

static bool nsec_has(const struct nsec *x, uint16_t type)
{
	return wire_bitmap_has(x->bm, x->bmlen, type);
}

/* NS without SOA: the parent side of a zone cut. */
static bool nsec_is_cut(const struct nsec *x)
{
	return nsec_has(x, WIRE_TYPE_NS) && !nsec_has(x, WIRE_TYPE_SOA);
}

/* True when x may not speak about name because name lies strictly below a
 * zone cut or a DNAME at x's owner (RFC 6840 §4.1, RFC 6672 §5.3.4). */
static bool nsec_blind_below(const struct nsec *x, const uint8_t *name)
{
	if (wire_dname_equal(x->owner, name) ||
	    !wire_dname_is_subdomain(name, x->owner))
		return false;
	return nsec_is_cut(x) || nsec_has(x, WIRE_TYPE_DNAME);
}

bool val_nsec_covers(const uint8_t *owner, const uint8_t *next,
		     const uint8_t *name)
{
	if (wire_dname_canon_cmp(owner, name) >= 0)
		return false;
	if (wire_dname_canon_cmp(owner, next) < 0)
		return wire_dname_canon_cmp(name, next) < 0;
	/* The last NSEC: next is the apex, which every name of the zone
	 * follows; owner == next is a zone holding only its apex. */
	return wire_dname_is_subdomain(name, next);
}

static bool find_match(const struct val_rrset *sets, size_t n,
		       const uint8_t *zone, const uint8_t *name,
		       struct nsec *out)
{
	struct nsec_iter it;

	iter_init(&it, sets, n, zone);
	while (iter_next(&it, out)) {
		if (wire_dname_equal(out->owner, name))
			return true;
	}
	return false;
}

static bool find_cover(const struct val_rrset *sets, size_t n,
		       const uint8_t *zone, const uint8_t *name,
		       struct nsec *out)
{
	struct nsec_iter it;

	iter_init(&it, sets, n, zone);
	while (iter_next(&it, out)) {
		if (val_nsec_covers(out->owner, out->next, name) &&
		    !nsec_blind_below(out, name))
			return true;
	}
	return false;
}

/*
 * Checks what must hold before any denial of name: name is in zone, and
 * no NSEC shows an ancestor of name to be a zone cut or a DNAME. Returns
 * true when the proof may go on; otherwise sets v.
 */
static bool nsec_precheck(const struct val_rrset *sets, size_t n,
			  const uint8_t *zone, const uint8_t *name,
			  struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	struct nsec_iter it;
	struct nsec x;

	if (!wire_dname_is_subdomain(name, zone)) {
		nsec_bogus(v, "nsec-out-of-zone",
			   "%s is not in the zone %s that signed the NSECs",
			   name_str(name, b1), name_str(zone, b2));
		return false;
	}
	iter_init(&it, sets, n, zone);
	while (iter_next(&it, &x)) {
		if (!nsec_blind_below(&x, name))
			continue;
		nsec_bogus(v, "nsec-ancestor-cut",
			   "NSEC at %s shows a %s: %s lies below it, so this "
			   "zone cannot deny it",
			   name_str(x.owner, b1),
			   nsec_has(&x, WIRE_TYPE_DNAME) ? "DNAME"
							 : "delegation",
			   name_str(name, b2));
		return false;
	}
	return true;
}

/*
 * Labels of the closest encloser of name proven by x, an NSEC covering it
 * (RFC 6840 §4.1): the longest ancestor name shares with x's owner or next
 * name, never above the zone.
 */
static int nsec_ce_labels(const struct nsec *x, const uint8_t *name,
			  const uint8_t *zone)
{
	int a = wire_dname_common_labels(name, x->owner);
	int b = wire_dname_common_labels(name, x->next);
	int z = wire_dname_labels(zone);
	int ce = a > b ? a : b;

	return ce < z ? z : ce;
}

/*
 * Checks that x, an NSEC matching qname (or, with wc, the wildcard that
 * would have answered qname), denies qtype. Returns true, or false with v
 * set.
 */
static bool nsec_lacks_type(const struct nsec *x, const uint8_t *qname,
			    uint16_t qtype, bool wc, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN], t[16];

	name_str(x->owner, b1);
	name_str(qname, b2);
	wire_type_to_str(qtype, t);
	if (nsec_has(x, qtype)) {
		nsec_bogus(
			v,
			wc ? "nsec-wc-nodata-type-present"
			   : "nsec-nodata-type-present",
			"NSEC at %s lists %s: NODATA for %s/%s is not proven",
			b1, t, b2, t);
		return false;
	}
	if (qtype == WIRE_TYPE_ANY && wire_bitmap_any(x->bm, x->bmlen)) {
		/* ANY is in no bitmap; a name whose NSEC lists any type
		 * (its own NSEC at least) has data for ANY. */
		nsec_bogus(v, wc ? "nsec-wc-nodata-any" : "nsec-nodata-any",
			   "NSEC at %s lists types: %s/ANY has data, NODATA "
			   "is not proven",
			   b1, b2);
		return false;
	}
	if (nsec_has(x, WIRE_TYPE_CNAME)) {
		nsec_bogus(v, wc ? "nsec-wc-nodata-cname" : "nsec-nodata-cname",
			   "NSEC at %s lists CNAME: %s/%s should have been "
			   "answered with the CNAME",
			   b1, b2, t);
		return false;
	}
	if (qtype == WIRE_TYPE_DS && nsec_has(x, WIRE_TYPE_SOA) &&
	    !wire_dname_is_root(qname)) {
		nsec_bogus(v,
			   wc ? "nsec-wc-ds-child-side" : "nsec-ds-child-side",
			   "NSEC at %s has SOA: it comes from the child zone's "
			   "apex and cannot deny %s/DS, which the parent holds",
			   b1, b2);
		return false;
	}
	if (qtype != WIRE_TYPE_DS && nsec_is_cut(x)) {
		nsec_bogus(v,
			   wc ? "nsec-wc-nodata-referral"
			      : "nsec-nodata-referral",
			   "NSEC at %s is a delegation (NS, no SOA): it cannot "
			   "deny %s/%s, which the child zone holds",
			   b1, b2, t);
		return false;
	}
	return true;
}

/* NODATA when qname is covered: an empty non-terminal, or a wildcard
 * NODATA at the closest encloser. */
static void nodata_covered(const struct val_rrset *sets, size_t n,
			   const uint8_t *zone, const uint8_t *qname,
			   uint16_t qtype, const struct nsec *cover,
			   struct val_denial_info *got, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	char b3[DT_NAME_TEXT_MAXLEN], b4[DT_NAME_TEXT_MAXLEN], t[16];
	uint8_t wc[DT_NAME_MAXLEN];
	const uint8_t *ce;
	struct nsec x;

	/* RFC 4592 §2.2.2: the next name lies below qname, which therefore
	 * exists with no data of its own. */
	if (!wire_dname_equal(cover->next, qname) &&
	    wire_dname_is_subdomain(cover->next, qname)) {
		val_verdict_secure(v);
		return;
	}
	ce = wire_dname_ancestor(qname, nsec_ce_labels(cover, qname, zone));
	if (wire_dname_wildcard_of(wc, ce) < 0 ||
	    !find_match(sets, n, zone, wc, &x)) {
		name_str(qname, b3);
		nsec_bogus(v, "nsec-nodata-no-wildcard",
			   "NSEC %s -> %s shows that %s does not exist, and no "
			   "NSEC matches the wildcard at its closest encloser "
			   "%s: NODATA for %s/%s is not proven",
			   name_str(cover->owner, b1),
			   name_str(cover->next, b2), b3, name_str(ce, b4), b3,
			   wire_type_to_str(qtype, t));
		return;
	}
	if (!nsec_lacks_type(&x, qname, qtype, true, v))
		return;
	got->wildcard = true;
	val_verdict_secure(v);
}

int val_nsec_nodata(struct val_ctx *ctx, const struct val_rrset *nsecs,
		    size_t n, const uint8_t *zone, const uint8_t *qname,
		    uint16_t qtype, struct val_denial_info *info,
		    struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], t[16];
	struct val_denial_info got = {0};
	struct nsec x;

	(void)ctx;
	if (!nsec_precheck(nsecs, n, zone, qname, v))
		return 0;
	if (find_match(nsecs, n, zone, qname, &x)) {
		if (!nsec_lacks_type(&x, qname, qtype, false, v))
			return 0;
		got.delegation = nsec_is_cut(&x);
		val_verdict_secure(v);
	} else if (find_cover(nsecs, n, zone, qname, &x)) {
		nodata_covered(nsecs, n, zone, qname, qtype, &x, &got, v);
	} else {
		nsec_bogus(v, "nsec-nodata-missing",
			   "no NSEC matches or covers %s: NODATA for %s/%s is "
			   "not proven",
			   name_str(qname, b1), b1, wire_type_to_str(qtype, t));
	}
	if (v->status == VAL_SECURE && info)
		*info = got;
	return 0;
}

/* The wildcard at ce must not exist: an NSEC covers it. */
static void nx_wildcard(const struct val_rrset *sets, size_t n,
			const uint8_t *zone, const uint8_t *qname,
			const uint8_t *ce, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	char b3[DT_NAME_TEXT_MAXLEN];
	uint8_t wc[DT_NAME_MAXLEN];
	struct nsec x;

	if (wire_dname_wildcard_of(wc, ce) < 0) {
		/* Cannot happen: qname, at least one label longer than ce,
		 * fits in 255 octets, and so does *.ce. Fail closed. */
		nsec_bogus(v, "nsec-nx-wildcard-len",
			   "the wildcard at %s would exceed 255 octets",
			   name_str(ce, b1));
		return;
	}
	if (find_match(sets, n, zone, wc, &x)) {
		nsec_bogus(v, "nsec-nx-wildcard-exists",
			   "NSEC at %s shows the wildcard exists: it should "
			   "have answered %s",
			   name_str(wc, b1), name_str(qname, b2));
		return;
	}
	if (!find_cover(sets, n, zone, wc, &x)) {
		nsec_bogus(v, "nsec-nx-no-wildcard-cover",
			   "no NSEC covers the wildcard %s at the closest "
			   "encloser %s of %s: NXDOMAIN is not proven",
			   name_str(wc, b1), name_str(ce, b2),
			   name_str(qname, b3));
		return;
	}
	val_verdict_secure(v);
}

int val_nsec_nxdomain(struct val_ctx *ctx, const struct val_rrset *nsecs,
		      size_t n, const uint8_t *zone, const uint8_t *qname,
		      struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	char b3[DT_NAME_TEXT_MAXLEN];
	struct nsec x;
	int ce;

	(void)ctx;
	if (!nsec_precheck(nsecs, n, zone, qname, v))
		return 0;
	if (find_match(nsecs, n, zone, qname, &x)) {
		nsec_bogus(v, "nsec-nx-qname-exists",
			   "NSEC at %s shows that the name exists: NXDOMAIN "
			   "is false",
			   name_str(qname, b1));
		return 0;
	}
	if (!find_cover(nsecs, n, zone, qname, &x)) {
		nsec_bogus(v, "nsec-nx-no-cover",
			   "no NSEC covers %s: its non-existence is not proven",
			   name_str(qname, b1));
		return 0;
	}
	ce = nsec_ce_labels(&x, qname, zone);
	if (ce == wire_dname_labels(qname)) {
		nsec_bogus(v, "nsec-nx-ent",
			   "NSEC %s -> %s shows that %s is an empty "
			   "non-terminal: it exists, NXDOMAIN is false",
			   name_str(x.owner, b1), name_str(x.next, b2),
			   name_str(qname, b3));
		return 0;
	}
	nx_wildcard(nsecs, n, zone, qname, wire_dname_ancestor(qname, ce), v);
	return 0;
}

int val_nsec_wildcard(struct val_ctx *ctx, const struct val_rrset *nsecs,
		      size_t n, const uint8_t *zone, const uint8_t *qname,
		      const uint8_t *closest_encloser, struct val_verdict *v)
{
	char b1[DT_NAME_TEXT_MAXLEN], b2[DT_NAME_TEXT_MAXLEN];
	char b3[DT_NAME_TEXT_MAXLEN], b4[DT_NAME_TEXT_MAXLEN];
	char b5[DT_NAME_TEXT_MAXLEN];
	const uint8_t *ce = closest_encloser;
	struct nsec x;
	int proven;

	(void)ctx;
	if (!nsec_precheck(nsecs, n, zone, qname, v))
		return 0;
	if (!wire_dname_is_subdomain(ce, zone) ||
	    !wire_dname_is_subdomain(qname, ce) ||
	    wire_dname_equal(qname, ce)) {
		nsec_bogus(v, "nsec-wc-bad-ce",
			   "%s cannot be a wildcard expansion below %s in the "
			   "zone %s",
			   name_str(qname, b1), name_str(ce, b2),
			   name_str(zone, b3));
		return 0;
	}
	if (!find_cover(nsecs, n, zone, qname, &x)) {
		nsec_bogus(v, "nsec-wc-no-cover",
			   "no NSEC covers %s: the wildcard answer is not "
			   "proven (a closer match may exist)",
			   name_str(qname, b1));
		return 0;
	}
	proven = nsec_ce_labels(&x, qname, zone);
	if (proven != wire_dname_labels(ce)) {
		nsec_bogus(v, "nsec-wc-wrong-ce",
			   "NSEC %s -> %s puts the closest encloser of %s at "
			   "%s, not at the wildcard's parent %s",
			   name_str(x.owner, b1), name_str(x.next, b2),
			   name_str(qname, b3),
			   name_str(wire_dname_ancestor(qname, proven), b4),
			   name_str(ce, b5));
		return 0;
	}
	val_verdict_secure(v);
	return 0;
}
