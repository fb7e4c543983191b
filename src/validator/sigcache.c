/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "crypto/key.h"
#include "crypto/verify.h"
#include "validator/sigcache.h"
#include "wire/bytes.h"

#define DIGEST_LEN CRYPTO_SHA256_LEN
/* Pieces of signed data one verification passes (sig.c: the RRSIG prefix,
 * the records). */
#define DATA_CHUNKS_MAX 2

_Static_assert((DT_VAL_SIGCACHE_SETS & (DT_VAL_SIGCACHE_SETS - 1)) == 0,
	       "DT_VAL_SIGCACHE_SETS must be a power of two");
_Static_assert(DT_VAL_SIGCACHE_WAYS == 2,
	       "the replacement below is least recently used of two");

struct sigcache_set {
	uint8_t digest[DT_VAL_SIGCACHE_WAYS][DIGEST_LEN];
	uint8_t used;	/* bit w: way w holds a digest */
	uint8_t victim; /* the way to replace next (least recently used) */
};

struct val_sigcache {
	uint64_t hits, misses; /* relaxed atomics: read by other threads */
	struct sigcache_set sets[DT_VAL_SIGCACHE_SETS];
};

struct val_sigcache *val_sigcache_new(void)
{
	return calloc(1, sizeof(struct val_sigcache));
}

void val_sigcache_free(struct val_sigcache *c)
{
	free(c);
}

/* The digest of one verification (see sigcache.h for what it covers). */
static int sigcache_digest(const struct crypto_key *key,
			   const struct crypto_chunk *data, size_t n,
			   const uint8_t *sig, size_t siglen,
			   uint8_t out[DIGEST_LEN])
{
	struct crypto_chunk chunks[4 + DATA_CHUNKS_MAX];
	uint8_t klen[2], slen[2];
	size_t rdlen, m = 0;
	const uint8_t *rdata = crypto_key_rdata(key, &rdlen);

	if (n > DATA_CHUNKS_MAX || siglen > UINT16_MAX)
		return -1; /* not what sig.c passes: not cached */
	wire_put16(klen, (uint16_t)rdlen);
	wire_put16(slen, (uint16_t)siglen);
	chunks[m++] = (struct crypto_chunk){klen, 2};
	chunks[m++] = (struct crypto_chunk){rdata, rdlen};
	chunks[m++] = (struct crypto_chunk){slen, 2};
	chunks[m++] = (struct crypto_chunk){sig, siglen};
	for (size_t i = 0; i < n; i++)
		chunks[m++] = data[i];
	return crypto_sha256v(chunks, m, out);
}

static struct sigcache_set *set_of(struct val_sigcache *c,
				   const uint8_t d[DIGEST_LEN])
{
	/* The digest is SHA-256: any four of its octets are uniform. */
	return &c->sets[wire_get32(d) & (DT_VAL_SIGCACHE_SETS - 1)];
}

static bool lookup(struct val_sigcache *c, const uint8_t d[DIGEST_LEN])
{
	struct sigcache_set *s = set_of(c, d);

	for (unsigned w = 0; w < DT_VAL_SIGCACHE_WAYS; w++)
		if ((s->used & (1u << w)) &&
		    memcmp(s->digest[w], d, DIGEST_LEN) == 0) {
			s->victim = (uint8_t)(1 - w);
			return true;
		}
	return false;
}

static void store(struct val_sigcache *c, const uint8_t d[DIGEST_LEN])
{
	struct sigcache_set *s = set_of(c, d);
	unsigned w = s->victim;

	memcpy(s->digest[w], d, DIGEST_LEN);
	s->used |= (uint8_t)(1u << w);
	s->victim = (uint8_t)(1 - w);
}

int val_sigcache_verify(struct val_sigcache *c, const struct crypto_key *key,
			const struct crypto_chunk *chunks, size_t n,
			const uint8_t *sig, size_t siglen)
{
	uint8_t d[DIGEST_LEN];
	int r;

	if (!c || sigcache_digest(key, chunks, n, sig, siglen, d) != 0)
		return crypto_verifyv(key, chunks, n, sig, siglen);
	if (lookup(c, d)) {
		__atomic_fetch_add(&c->hits, 1, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_fetch_add(&c->misses, 1, __ATOMIC_RELAXED);
	r = crypto_verifyv(key, chunks, n, sig, siglen);
	if (r == 0)
		store(c, d);
	return r;
}

void val_sigcache_stats(const struct val_sigcache *c,
			struct val_sigcache_stats *ret)
{
	ret->hits = c ? __atomic_load_n(&c->hits, __ATOMIC_RELAXED) : 0;
	ret->misses = c ? __atomic_load_n(&c->misses, __ATOMIC_RELAXED) : 0;
}
