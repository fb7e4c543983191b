/* SPDX-License-Identifier: MIT */
/*
 * Signature verification with a parsed key.
 *
 * The caller assembles the signed data of RFC 4034 §3.1.8.1 (RRSIG RDATA
 * without the signature, then the RRset in canonical form and order) and
 * checks everything that is not cryptography: that the RRSIG's algorithm
 * and key tag match the key, the signer name, the validity period, the
 * labels count. These functions answer one question only: does sig
 * verify over the data with this key.
 *
 * Signature encodings: RSA per RFC 3110 §3 (exactly as many octets as the
 * modulus), ECDSA per RFC 6605 §4 (r | s, 64 or 96 octets; converted to
 * DER for OpenSSL here), EdDSA per RFC 8080 §4 (64 or 114 octets).
 *
 * Safe to call from several threads at once with the same key.
 */
#ifndef DT_CRYPTO_VERIFY_H
#define DT_CRYPTO_VERIFY_H

#include <stddef.h>
#include <stdint.h>

struct crypto_key;

/* One piece of the signed data; data may be NULL when len is 0. */
struct crypto_chunk {
	const void *data;
	size_t len;
};

/*
 * Verifies sig (siglen octets) over len octets of data with key.
 * Returns:
 *   0            the signature is valid;
 *   DT_EBADSIG   it is not (including a signature of the wrong length for
 *                the key, and an EdDSA key that is not a valid point);
 *   DT_ELIMIT    EdDSA data longer than DT_EDDSA_DATA_MAXLEN;
 *   -ENOMEM, DT_ECRYPTO  OpenSSL failed for a reason not in the data (on
 *                a system whose policy forbids SHA-1, algorithms 5 and 7
 *                end up here).
 * Allocates only OpenSSL's per-call context.
 */
__attribute__((warn_unused_result)) int
crypto_verify(const struct crypto_key *key, const uint8_t *data, size_t len,
	      const uint8_t *sig, size_t siglen);

/*
 * The same over the concatenation of n chunks, so that the caller need
 * not copy the RRSIG RDATA and the canonical records into one buffer.
 * RSA and ECDSA hash the chunks as they come. EdDSA (RFC 8032) cannot be
 * fed in pieces through OpenSSL 3.0, so for n > 1 the chunks are copied
 * into one temporary heap buffer (at most DT_EDDSA_DATA_MAXLEN octets,
 * freed before returning). Returns as crypto_verify().
 */
__attribute__((warn_unused_result)) int
crypto_verifyv(const struct crypto_key *key, const struct crypto_chunk *chunks,
	       size_t n, const uint8_t *sig, size_t siglen);

/* SHA-256's output length. */
#define CRYPTO_SHA256_LEN 32

/*
 * Writes SHA-256 of the concatenation of n chunks to out (for the
 * validator's cache of verifications, src/validator/sigcache.h). Returns
 * 0, -ENOMEM or DT_ECRYPTO; out is written only on success. Allocates
 * only OpenSSL's per-call digest context.
 */
__attribute__((warn_unused_result)) int
crypto_sha256v(const struct crypto_chunk *chunks, size_t n,
	       uint8_t out[CRYPTO_SHA256_LEN]);

#endif
