/* SPDX-License-Identifier: MIT */
/*
 * Authenticated denial of existence with NSEC (RFC 4035 §5.4, RFC 4592,
 * RFC 6840 §4) and NSEC3 (RFC 5155 §8, RFC 9276): pure functions over
 * NSEC or NSEC3 RRsets that val_rrset_verify() already found secure.
 *
 * Every function writes a verdict:
 *   secure        the proof holds;
 *   insecure      the proof holds only through an NSEC3 opt-out span
 *                 (RFC 5155 §6: an unsigned delegation may exist there), or
 *                 the NSEC3 iterations exceed ctx->lim.nsec3_iterations
 *                 (RFC 9276 §3.2, EDE 27);
 *   bogus         the records do not prove it: EDE 12 NSEC Missing, with a
 *                 reason naming what is missing ("no NSEC3 matches the
 *                 closest encloser of x.y.example"), or EDE 6 when a limit
 *                 on the work was reached.
 * They return 0, or -ENOMEM (the NSEC3 ones also DT_ECRYPTO when OpenSSL
 * fails to hash).
 *
 * zone is the signer of the NSEC/NSEC3 records: proofs never look above
 * it (the closest encloser is at or below the apex).
 */
#ifndef DT_VALIDATOR_DENIAL_H
#define DT_VALIDATOR_DENIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/val.h"

/* Facts a successful NODATA proof learnt, for the caller's decisions. */
struct val_denial_info {
	bool delegation;   /* the name has NS and no SOA: a zone cut. With
			      qtype DS: an insecure delegation is proven. */
	bool optout;	   /* proven through an opt-out span only */
	bool wildcard;	   /* NODATA proven at the wildcard (RFC 4035
			      §3.1.3.4) */
};

/* --- NSEC --- */

/* True when the NSEC owned by owner with next name next covers name:
 * owner < name < next in canonical order, with the last NSEC of a zone
 * (next = apex) covering everything after owner. */
bool val_nsec_covers(const uint8_t *owner, const uint8_t *next,
		     const uint8_t *name);

/* NODATA (RFC 4035 §3.1.3.1, §3.1.3.4, RFC 4592 §4 empty non-terminals):
 * an NSEC at qname whose bitmap lacks qtype and CNAME; or an empty
 * non-terminal (an NSEC covering qname whose next name is below qname);
 * or qname covered and the wildcard at its closest encloser matched by an
 * NSEC lacking qtype. For qtype DS the NSEC must come from the parent side
 * (no SOA bit, unless qname is the root). info may be NULL. */
int val_nsec_nodata(struct val_ctx *ctx, const struct val_rrset *nsecs,
		    size_t n, const uint8_t *zone, const uint8_t *qname,
		    uint16_t qtype, struct val_denial_info *info,
		    struct val_verdict *v);

/* NXDOMAIN (RFC 4035 §3.1.3.2): an NSEC covering qname and an NSEC
 * covering the wildcard at qname's closest encloser (RFC 6840 §4.1: the
 * closest encloser is derived from the covering NSEC's owner and next). */
int val_nsec_nxdomain(struct val_ctx *ctx, const struct val_rrset *nsecs,
		      size_t n, const uint8_t *zone, const uint8_t *qname,
		      struct val_verdict *v);

/* Wildcard answer (RFC 4035 §5.3.4, §3.1.3.3): qname was synthesised from
 * the wildcard below closest_encloser; an NSEC must cover qname, proving
 * that no closer match existed. */
int val_nsec_wildcard(struct val_ctx *ctx, const struct val_rrset *nsecs,
		      size_t n, const uint8_t *zone, const uint8_t *qname,
		      const uint8_t *closest_encloser, struct val_verdict *v);

/* --- NSEC3 --- */

/* An NSEC3 record split into its fields (RFC 5155 §3.2). */
struct val_nsec3 {
	const struct wire_rr *rr;
	uint8_t hash[20];    /* the owner's first label, decoded */
	const uint8_t *next; /* the next hashed owner, 20 octets */
	const uint8_t *bm;   /* the type bitmap */
	size_t bmlen;
	uint8_t flags;
	uint16_t iterations;
	const uint8_t *salt;
	uint8_t saltlen;
};

/* Splits rr when it is a usable NSEC3 of zone: algorithm SHA-1, no flag
 * but opt-out, the owner one base32hex hash label below zone (parameters
 * not compared). RDATA was checked where it entered: alg, flags,
 * iterations, salt length and salt, hash length and hash, bitmap. */
bool val_nsec3_split(const struct wire_rr *rr, const uint8_t *zone,
		     struct val_nsec3 *out);

/* Whether r's type bitmap holds type. */
bool val_nsec3_has(const struct val_nsec3 *r, uint16_t type);

/* Whether r is at a delegation: NS without SOA (its names below are
 * another zone's). */
bool val_nsec3_is_cut(const struct val_nsec3 *r);

/* Whether r has the opt-out flag (RFC 5155 §6: its span may hold
 * unsigned delegations). */
bool val_nsec3_optout(const struct val_nsec3 *r);

/* Whether a and b have the same hash parameters (iterations, salt). */
bool val_nsec3_same_params(const struct val_nsec3 *a,
			   const struct val_nsec3 *b);

/* Whether r covers the hash h (its owner's hash < h < its next, the
 * last record of the chain wrapping to the first). */
bool val_nsec3_covers(const struct val_nsec3 *r, const uint8_t h[20]);

/* The record of recs (n of them) whose owner hash is h, and the one
 * covering h (val_nsec3_covers); NULL when none is. */
const struct val_nsec3 *val_nsec3_find_match(const struct val_nsec3 *recs,
					      size_t n, const uint8_t h[20]);
const struct val_nsec3 *val_nsec3_find_cover(const struct val_nsec3 *recs,
					      size_t n, const uint8_t h[20]);

/* The hash of name with r's parameters (iterations are the caller's to
 * bound first: up to DT_NSEC3_MAX_ITERATIONS). false on failure or a NULL
 * name. */
bool val_nsec3_hash_name(const struct val_nsec3 *r, const uint8_t *name,
			 uint8_t out[20]);

/* NODATA (RFC 5155 §8.5, §8.6 for DS with opt-out, §8.7 wildcard NODATA):
 * an NSEC3 matching qname without qtype and CNAME; for DS, when none
 * matches, a closest-encloser proof whose next-closer name is covered by
 * an opt-out NSEC3 (insecure, info->optout); or a wildcard NODATA. */
int val_nsec3_nodata(struct val_ctx *ctx, const struct val_rrset *nsec3s,
		     size_t n, const uint8_t *zone, const uint8_t *qname,
		     uint16_t qtype, struct val_denial_info *info,
		     struct val_verdict *v);

/* NXDOMAIN (RFC 5155 §8.4): closest-encloser proof (an NSEC3 matching the
 * closest encloser, one covering the next closer name) and an NSEC3
 * covering the wildcard at the closest encloser. An opt-out next-closer
 * cover makes the result insecure. */
int val_nsec3_nxdomain(struct val_ctx *ctx, const struct val_rrset *nsec3s,
		       size_t n, const uint8_t *zone, const uint8_t *qname,
		       struct val_verdict *v);

/* Wildcard answer (RFC 5155 §8.8): an NSEC3 covering the next closer name
 * of qname relative to closest_encloser. */
int val_nsec3_wildcard(struct val_ctx *ctx, const struct val_rrset *nsec3s,
		       size_t n, const uint8_t *zone, const uint8_t *qname,
		       const uint8_t *closest_encloser,
		       struct val_verdict *v);

#endif
