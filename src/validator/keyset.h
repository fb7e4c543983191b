/* SPDX-License-Identifier: MIT */
/*
 * Building a zone's key set: authenticating its DNSKEY RRset from a DS
 * RRset validated in the parent (RFC 4035 §5.2) or from trust anchors.
 */
#ifndef DT_VALIDATOR_KEYSET_H
#define DT_VALIDATOR_KEYSET_H

#include "validator/val.h"

/*
 * Authenticates the DNSKEY RRset of zone (dnskeys, with its RRSIGs) from
 * ds: DS RDATA records, already validated as secure (from the parent, or
 * a DS trust anchor). Writes a new key set to *ks (caller frees with
 * val_keyset_free):
 *   - no DS with a supported algorithm and digest type → insecure
 *     (RFC 4035 §5.2, RFC 6840 §5.2), EDE 1 or 2;
 *   - when a SHA-256 (or stronger) DS exists for a key, SHA-1 DS for it
 *     are ignored (RFC 4509 §3);
 *   - a DNSKEY matching a usable DS must have signed the DNSKEY RRset:
 *     then secure, and the set holds every zone key of the RRset (not
 *     revoked, supported algorithm) parsed into key objects;
 *   - otherwise bogus: EDE 9 DNSKEY Missing (no DNSKEY matches any DS),
 *     or the EDE of the signature failure.
 * The TTL of the set is that of the verified DNSKEY RRset (clamped as by
 * val_rrset_verify) and never more than ds_ttl.
 * Returns 0 (the outcome is in ks->verdict) or -ENOMEM.
 */
int val_keyset_from_ds(struct val_ctx *ctx, const uint8_t *zone,
		       const struct val_rrset *dnskeys,
		       const struct wire_rr *const *ds, size_t nds,
		       uint32_t ds_ttl, struct val_keyset *ks);

/*
 * Authenticates the DNSKEY RRset of zone from DNSKEY trust anchors
 * (RDATA records configured for the zone): a DNSKEY of the RRset equal to
 * an anchor (flags, protocol, algorithm and key; RFC 5011 revoked anchors
 * excluded) must have signed it. Outcomes as val_keyset_from_ds, with
 * "no supported algorithm among the anchors" insecure.
 */
int val_keyset_from_dnskey_anchor(struct val_ctx *ctx, const uint8_t *zone,
				  const struct val_rrset *dnskeys,
				  const struct wire_rr *const *anchors,
				  size_t nanchors, struct val_keyset *ks);

/* Whether signatures of alg can be checked in ctx: supported here, or
 * a test algorithm under ctx->test_fake_sig. */
bool val_alg_supported(const struct val_ctx *ctx, uint8_t alg);

/* The key object of a DNSKEY for ctx: crypto_key_new(), or under
 * ctx->test_fake_sig for algorithms 3, 5, 6, 7 crypto_key_new_unchecked().
 */
int val_key_new(const struct val_ctx *ctx, const uint8_t *rdata, size_t rdlen,
		struct crypto_key **ret);

/* Makes an insecure or bogus/indeterminate key set carrying verdict v. */
void val_keyset_from_verdict(struct val_keyset *ks, const uint8_t *zone,
			     const struct val_verdict *v, uint32_t ttl);

#endif
