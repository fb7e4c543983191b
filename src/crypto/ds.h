/* SPDX-License-Identifier: MIT */
/*
 * DS digests (RFC 4034 §5.1.4, RFC 4509, RFC 6605 §2): digest =
 * hash(canonical DNSKEY owner name | DNSKEY RDATA). Nothing here keeps
 * state; only OpenSSL's per-call digest context is allocated.
 */
#ifndef DT_CRYPTO_DS_H
#define DT_CRYPTO_DS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Computes the DS digest of type digest_type (see crypto_ds_digest_len())
 * over owner, a checked wire-format name that is lowercased here (into a
 * local copy; the caller's name is not changed), and rdlen octets of
 * DNSKEY RDATA. Writes the digest to out.
 * Returns the digest length (20, 32 or 48), or DT_EUNSUPPORTED for a
 * digest type crypto_ds_digest_supported() refuses, DT_ESPACE when outcap
 * is smaller than the digest (DT_DS_DIGEST_MAXLEN is always enough),
 * -ENOMEM or DT_ECRYPTO. out is written only on success.
 */
__attribute__((warn_unused_result)) int
crypto_ds_digest(const uint8_t *owner, const uint8_t *rdata, size_t rdlen,
		 uint8_t digest_type, uint8_t *out, size_t outcap);

/*
 * Tells whether DS RDATA (key tag, algorithm, digest type, digest; ds_len
 * octets) designates the DNSKEY with RDATA dnskey (dnskey_len octets)
 * owned by owner: key tag, algorithm and digest must all match (RFC 4035
 * §5.2). Returns 1 for a match, 0 for none (including a digest of the
 * wrong length for its type), DT_EUNSUPPORTED when the DS digest type is
 * not supported (checked first: the validator must tell "cannot check"
 * from "does not match"), DT_ETRUNC when either RDATA is shorter than 4
 * octets, -ENOMEM or DT_ECRYPTO.
 */
__attribute__((warn_unused_result)) int
crypto_ds_match(const uint8_t *owner, const uint8_t *dnskey, size_t dnskey_len,
		const uint8_t *ds, size_t ds_len);

#endif
