/* SPDX-License-Identifier: MIT */
/*
 * Which DNSSEC algorithms (RFC 8624 §3.1) and DS digest types (§3.3) this
 * validator implements.
 *
 * Validation choices against RFC 8624 §3.1 and §3.3 (the "validate"
 * column):
 *
 *   alg  mnemonic            RFC 8624 validate   here
 *     1  RSAMD5              MUST NOT            unsupported
 *     3  DSA                 MUST NOT            unsupported
 *     5  RSASHA1             MUST                supported
 *     6  DSA-NSEC3-SHA1      MUST NOT            unsupported
 *     7  RSASHA1-NSEC3-SHA1  MUST                supported
 *     8  RSASHA256           MUST                supported
 *    10  RSASHA512           MUST                supported
 *    12  ECC-GOST            MAY                 unsupported (no GOST in
 *                                                OpenSSL 3 without an
 *                                                engine)
 *    13  ECDSAP256SHA256     MUST                supported
 *    14  ECDSAP384SHA384     RECOMMENDED         supported
 *    15  ED25519             RECOMMENDED         supported
 *    16  ED448               RECOMMENDED         supported
 *   253  PRIVATEDNS, 254 PRIVATEOID, others      unsupported
 *
 *   DS   digest              RFC 8624 validate   here
 *     1  SHA-1               MUST                supported
 *     2  SHA-256             MUST                supported
 *     3  GOST R 34.11-94     MAY                 unsupported
 *     4  SHA-384             RECOMMENDED         supported
 *
 * SHA-1 (5, 7 and DS type 1) stays: RFC 8624 says MUST validate (drafts
 * of its successor move it towards SHOULD NOT), and refusing it would
 * only turn secure zones insecure, never bogus ones secure. Debian 12's
 * OpenSSL 3.0 allows SHA-1 in signature verification at the EVP level
 * (tests/unit/test_crypto.c checks it); on a system whose crypto policy
 * forbids it (RHEL 9) crypto_verify() fails with DT_ECRYPTO, and the table
 * in alg.c is the single place to change.
 *
 * An unsupported algorithm or digest type is reported as such
 * (DT_EUNSUPPORTED), never as a bad signature: the validator then treats
 * the zone as insecure (RFC 4035 §5.2, RFC 6840 §5.2). Nothing here
 * allocates or keeps state.
 */
#ifndef DT_CRYPTO_ALG_H
#define DT_CRYPTO_ALG_H

#include <stdbool.h>
#include <stdint.h>

/* DNSSEC algorithm numbers (IANA "DNS Security Algorithm Numbers"). */
enum crypto_alg {
	CRYPTO_ALG_RSAMD5 = 1,
	CRYPTO_ALG_DSA = 3,
	CRYPTO_ALG_RSASHA1 = 5,
	CRYPTO_ALG_DSA_NSEC3_SHA1 = 6,
	CRYPTO_ALG_RSASHA1_NSEC3_SHA1 = 7,
	CRYPTO_ALG_RSASHA256 = 8,
	CRYPTO_ALG_RSASHA512 = 10,
	CRYPTO_ALG_ECC_GOST = 12,
	CRYPTO_ALG_ECDSAP256SHA256 = 13,
	CRYPTO_ALG_ECDSAP384SHA384 = 14,
	CRYPTO_ALG_ED25519 = 15,
	CRYPTO_ALG_ED448 = 16,
	CRYPTO_ALG_PRIVATEDNS = 253,
	CRYPTO_ALG_PRIVATEOID = 254,
};

/* DS digest types (IANA "Delegation Signer (DS) Resource Record Type
 * Digest Algorithms"). */
enum crypto_ds_type {
	CRYPTO_DS_SHA1 = 1,
	CRYPTO_DS_SHA256 = 2,
	CRYPTO_DS_GOST = 3,
	CRYPTO_DS_SHA384 = 4,
};

/* True when signatures of algorithm alg can be verified here. */
bool crypto_alg_supported(uint8_t alg);

/* The algorithm's mnemonic ("RSASHA256", "ED25519"), for logs and EDE
 * texts; "unknown" for a number without one. Static string, never NULL. */
const char *crypto_alg_name(uint8_t alg);

/* True when DS records of digest type type can be checked here. */
bool crypto_ds_digest_supported(uint8_t type);

/* Digest length of a supported DS digest type (20, 32 or 48); 0 when the
 * type is not supported. */
unsigned crypto_ds_digest_len(uint8_t type);

/*
 * Goes once through OpenSSL's key import and verification for every
 * supported algorithm, with keys of well-known values (no signature
 * verifies), so that OpenSSL's one-time set-up (the provider's algorithm
 * tables, the methods of each key type and digest) is done now, at a
 * daemon's start, rather than during its first questions. Returns the
 * number of algorithms it went through (every key refused a signature,
 * as it must); nothing is kept.
 */
unsigned crypto_warm_up(void);

/* crypto_warm_up's steps, for a caller that spreads them over idle time
 * (libdnstrust's in-process engine), each under 1.5 ms here: OpenSSL's
 * start-up (its configuration); the DS digests (SHA-256, whose first
 * fetch loads the provider, SHA-1, also NSEC3's, and SHA-384); one
 * algorithm's key import and verification, true when alg is supported
 * (and its key refused the signature). */
void crypto_warm_init(void);
void crypto_warm_digests(void);
bool crypto_warm_alg(uint8_t alg);

#endif
