/* SPDX-License-Identifier: MIT */
/*
 * Parsed DNSKEY public keys.
 *
 * A struct crypto_key is made once from DNSKEY RDATA (RFC 4034 §2.1) and
 * then only read: the key cache may keep it for hours and any number of
 * threads may verify with it at the same time. It holds the OpenSSL key,
 * the key tag (RFC 4034 App. B), algorithm, flags, size, and a copy of the
 * RDATA (for DS matching and trust-anchor comparison).
 *
 * Public key encodings: RSA per RFC 3110 §2 (exponent length in one octet,
 * or zero then two octets, then exponent, then modulus), ECDSA per RFC
 * 6605 §4 (X | Y, 64 or 96 octets), EdDSA per RFC 8080 §3 (32 or 57
 * octets).
 */
#ifndef DT_CRYPTO_KEY_H
#define DT_CRYPTO_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct crypto_key;

/* DNSKEY flag bits (RFC 4034 §2.1.1, RFC 5011 §7). */
#define CRYPTO_KEY_FLAG_ZONE   0x0100
#define CRYPTO_KEY_FLAG_REVOKE 0x0080
#define CRYPTO_KEY_FLAG_SEP    0x0001

/*
 * Parses DNSKEY RDATA of rdlen octets (flags, protocol, algorithm, public
 * key) into a new key. rdata is copied; the caller keeps ownership of it.
 * Flags are recorded, not judged: whether a key without the Zone Key bit,
 * or a revoked one, may be used is the validator's decision.
 *
 * Returns 0 and sets *ret_key (free it with crypto_key_free()), or:
 *   DT_ETRUNC        rdlen < 4;
 *   DT_ERDATA        rdlen > 65535;
 *   DT_EUNSUPPORTED  algorithm not in crypto_alg_supported();
 *   DT_EKEY          protocol other than 3 (RFC 4034 §2.1.2), or a public
 *                    key that does not decode: RSA exponent length
 *                    running past the end, empty exponent or modulus,
 *                    leading zero in the exponent, even exponent or
 *                    exponent 1, even modulus; ECDSA or EdDSA key of the
 *                    wrong length, or an ECDSA point not on the curve;
 *   DT_EKEYSIZE      RSA modulus outside DT_RSA_MIN_BITS..DT_RSA_MAX_BITS
 *                    or exponent longer than DT_RSA_EXP_MAXLEN octets;
 *   -ENOMEM, DT_ECRYPTO (OpenSSL failed for a reason not in the data).
 * *ret_key is written only on success. Allocates one block for the key
 * plus OpenSSL's key object and, for RSA and ECDSA, a verification context
 * initialised once and copied by each verification.
 */
__attribute__((warn_unused_result)) int
crypto_key_new(const uint8_t *rdata, size_t rdlen, struct crypto_key **ret_key);

/*
 * Tests only (the replay runner's fake-sha1 / fake-dsa): a key of
 * algorithm 3, 5, 6 or 7 taken without decoding its public key, so that
 * the test scenarios written for those algorithms can be played. No
 * signature ever verifies with it (crypto_verify gives DT_EUNSUPPORTED);
 * the validator accepts its signatures unchecked only when its context
 * says so (val_ctx.test_fake_sig). Returns 0, DT_EUNSUPPORTED for another
 * algorithm, crypto_key_new()'s header errors or -ENOMEM.
 */
__attribute__((warn_unused_result)) int
crypto_key_new_unchecked(const uint8_t *rdata, size_t rdlen,
			 struct crypto_key **ret_key);

/* Whether alg is one whose test signatures crypto_key_new_unchecked()
 * takes: DSA (3, 6) and RSASHA1 (5, 7). */
bool crypto_alg_fakeable(uint8_t alg);

/* Frees a key made by crypto_key_new(). NULL is allowed. The caller must
 * make sure no other thread still uses it. */
void crypto_key_free(struct crypto_key *key);

/* Key tag of the DNSKEY (RFC 4034 App. B), computed once at parse time. */
uint16_t crypto_key_tag(const struct crypto_key *key);

/* DNSSEC algorithm number (always one crypto_alg_supported() accepts). */
uint8_t crypto_key_alg(const struct crypto_key *key);

/* DNSKEY flags field (see CRYPTO_KEY_FLAG_*). */
uint16_t crypto_key_flags(const struct crypto_key *key);

/* Key size in bits: RSA modulus bits, 256/384 for ECDSA, 256 for Ed25519,
 * 456 for Ed448 (the sizes RFC 8624 and DNSViz report). */
unsigned crypto_key_bits(const struct crypto_key *key);

/* The DNSKEY RDATA the key was made from, owned by the key and valid until
 * crypto_key_free(). Writes its length to *ret_len. */
const uint8_t *crypto_key_rdata(const struct crypto_key *key, size_t *ret_len);

#endif
