/* SPDX-License-Identifier: MIT */
/*
 * NSEC3 owner-name hashing (RFC 5155 §5):
 *
 *   IH(salt, x, 0) = H(x | salt)
 *   IH(salt, x, k) = H(IH(salt, x, k - 1) | salt)
 *   hash = IH(salt, lowercased wire name, iterations)
 *
 * with H = SHA-1, the only hash algorithm defined. Iterations are work an
 * attacker chooses (CVE-2023-50868): the validator applies its own limit
 * (RFC 9276 §3.2) and budget, prices a hash with crypto_nsec3_cost() before
 * computing it, and crypto_nsec3_hash() refuses anything above
 * DT_NSEC3_MAX_ITERATIONS regardless. Nothing here keeps state.
 */
#ifndef DT_CRYPTO_NSEC3_H
#define DT_CRYPTO_NSEC3_H

#include <stddef.h>
#include <stdint.h>

/* NSEC3 hash algorithm 1 (RFC 5155 §11) and its output length. */
#define CRYPTO_NSEC3_SHA1    1
#define CRYPTO_NSEC3_HASHLEN 20

/*
 * Cost of one NSEC3 hash in SHA-1 compression-function calls (64-octet
 * blocks, padding included), the unit Knot Resolver prices NSEC3 in:
 * blocks(namelen + saltlen) + iterations * blocks(20 + saltlen), where
 * blocks(n) = (n + 8) / 64 + 1. Pure arithmetic; never fails.
 */
uint64_t crypto_nsec3_cost(unsigned iterations, size_t saltlen, size_t namelen);

/*
 * Hashes name (a checked wire-format name, lowercased here in a local
 * copy) with hash_alg, iterations and saltlen octets of salt, and writes
 * the 20-octet hash to out.
 * Returns the number of SHA-1 blocks computed (equal to
 * crypto_nsec3_cost() for the same arguments, always > 0), or
 * DT_EUNSUPPORTED for a hash algorithm other than CRYPTO_NSEC3_SHA1,
 * DT_ELIMIT for iterations above DT_NSEC3_MAX_ITERATIONS, DT_ERANGE for a
 * salt longer than 255 octets, -ENOMEM or DT_ECRYPTO. out is written only
 * on success. Allocates only OpenSSL's per-call digest context.
 */
__attribute__((warn_unused_result)) int
crypto_nsec3_hash(const uint8_t *name, uint8_t hash_alg, unsigned iterations,
		  const uint8_t *salt, size_t saltlen,
		  uint8_t out[CRYPTO_NSEC3_HASHLEN]);

#endif
