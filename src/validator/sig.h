/* SPDX-License-Identifier: MIT */
/*
 * RRset signature verification (RFC 4035 §5.3): the RRSIG checks that are
 * not cryptography, the signed data in canonical form, and the call into
 * src/crypto, all within the question's budget.
 */
#ifndef DT_VALIDATOR_SIG_H
#define DT_VALIDATOR_SIG_H

#include <stdbool.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/val.h"

/* What a successful verification found out besides "secure". */
struct val_sig_info {
	const struct wire_rr *sig;  /* the RRSIG that verified */
	uint32_t ttl;		    /* TTL the RRset may be used for: min of
				       its TTL, the RRSIG's original TTL and
				       the time left until expiration */
	bool wildcard;		    /* labels field < owner labels: the RRset
				       was expanded from a wildcard */
	/* With wildcard: the wildcard's parent, the closest encloser of the
	 * owner (RFC 4035 §5.3.4); its "*" child is the source of synthesis. */
	uint8_t closest_encloser[DT_NAME_MAXLEN];
};

/*
 * Verifies set with the keys of ks (which must be secure, and whose zone
 * must be each RRSIG's signer: RRSIGs by another signer are skipped).
 * Tries the RRSIGs in order, each with the keys matching its key tag and
 * algorithm, until one verifies, charging every verification to ctx (per
 * RRset and per question) — and stops when a limit is reached.
 *
 * Checks per RRSIG (RFC 4035 §5.3.1): class and owner equal to the
 * RRset's; signer name equal to ks->zone and the owner at or below it;
 * labels field not more than the owner's labels (fewer means wildcard
 * expansion: the signed owner becomes "*." + the rightmost labels);
 * inception <= now + skew and now - skew <= expiration, in RFC 1982
 * serial arithmetic relative to now; the key is a zone key (flags bit 7),
 * not revoked, protocol 3, same algorithm and tag.
 *
 * Writes v (secure, or bogus with the EDE and a reason naming the RRset,
 * the key tag and algorithm and, for time failures, the time) and, when
 * secure and info is not NULL, *info. Returns 0, or -ENOMEM.
 *
 * EDE codes: 10 RRSIGs Missing (none at all, or none by this signer),
 * 7 Signature Expired, 8 Signature Not Yet Valid, 25 Signature Expired
 * before Valid (inception after expiration), 9 DNSKEY Missing (no key with
 * the RRSIG's tag and algorithm), 6 DNSSEC Bogus (bad signature, limits).
 */
int val_rrset_verify(struct val_ctx *ctx, const struct val_rrset *set,
		     const struct val_keyset *ks, struct val_sig_info *info,
		     struct val_verdict *v);

/*
 * The revocation check of RFC 5011 §2.1: verifies the DNSKEY RRset set
 * with the revoked keys of ks (REVOKE bit set) and only those, proving
 * that the holder of a revoked key signed the RRset that announces its
 * revocation. Keys without the REVOKE bit are not used here, and revoked
 * keys are used nowhere else. Checks, budget and verdict as
 * val_rrset_verify. Returns 0, or -ENOMEM.
 */
int val_rrset_verify_revocation(struct val_ctx *ctx,
				const struct val_rrset *set,
				const struct val_keyset *ks,
				struct val_verdict *v);

/* Formats an owner/type pair as "www.example.com/A" into buf (at least
 * DT_NAME_TEXT_MAXLEN + 16 octets). Returns buf. */
const char *val_rrset_name(const uint8_t *owner, uint16_t type, char *buf,
			   size_t buflen);

/* Formats an RRSIG time (serial arithmetic relative to now) as
 * "2026-11-30T00:00:00Z" into buf (at least 24 octets). Returns buf. */
const char *val_time_str(uint32_t t, int64_t now, char *buf, size_t buflen);

/* Resolves a 32-bit RRSIG time to the absolute time closest to now
 * (RFC 4034 §3.1.5: serial number arithmetic, RFC 1982). */
int64_t val_time_abs(uint32_t t, int64_t now);

#endif
