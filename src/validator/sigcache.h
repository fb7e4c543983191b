/* SPDX-License-Identifier: MIT */
/*
 * A cache of successful signature verifications.
 *
 * Whether a signature verifies depends on the key, the signature and the
 * signed data (the RRSIG RDATA without the signature, then the records in
 * canonical form) and on nothing else: not on the time, whose checks
 * (inception, expiration) sig.c makes before and outside this, nor on
 * the question. So a verification that succeeded once need not be made
 * again for the same three: the cache remembers SHA-256 over
 *
 *     length of the DNSKEY RDATA (2 octets), the DNSKEY RDATA,
 *     length of the signature (2 octets), the signature,
 *     the signed data
 *
 * SHA-256 and not a keyed or shorter hash: finding a bad signature whose
 * digest equals a good one's is finding a SHA-256 collision. Only
 * successes are kept; a failure is verified again every time, with its
 * reason. A table of DT_VAL_SIGCACHE_SETS sets of DT_VAL_SIGCACHE_WAYS
 * digests (the least recently used of a set goes), allocated once: no
 * allocation per entry, no lock. One cache is used by one thread at a
 * time (each daemon worker has its own); its counters may be read from
 * another.
 */
#ifndef DT_VALIDATOR_SIGCACHE_H
#define DT_VALIDATOR_SIGCACHE_H

#include <stddef.h>
#include <stdint.h>

struct crypto_chunk;
struct crypto_key;
struct val_sigcache;

/* Counters of one cache since it was made. */
struct val_sigcache_stats {
	uint64_t hits;	 /* verifications answered from the cache */
	uint64_t misses; /* verifications made (valid or not) */
};

/* A new, empty cache (one allocation of about 132 KiB), or NULL when out
 * of memory. Freed with val_sigcache_free(). */
__attribute__((warn_unused_result)) struct val_sigcache *
val_sigcache_new(void);

/* Frees c; NULL is a no-op. */
void val_sigcache_free(struct val_sigcache *c);

/*
 * crypto_verifyv() through the cache c: 0 from the cache when the same
 * key, signature and data verified before, else crypto_verifyv()'s
 * result, remembered when 0. c NULL (or SHA-256 failing) is
 * crypto_verifyv() alone. Returns as crypto_verifyv(). Allocates only
 * OpenSSL's per-call contexts.
 */
__attribute__((warn_unused_result)) int
val_sigcache_verify(struct val_sigcache *c, const struct crypto_key *key,
		    const struct crypto_chunk *chunks, size_t n,
		    const uint8_t *sig, size_t siglen);

/* Writes c's counters to ret (zero for c NULL). Safe beside the thread
 * using c (relaxed atomic reads). */
void val_sigcache_stats(const struct val_sigcache *c,
			struct val_sigcache_stats *ret);

#endif
