/* SPDX-License-Identifier: MIT */
#include "cache/siphash.h"

struct sip_state {
	uint64_t v0, v1, v2, v3;
};

static inline uint64_t rotl64(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline void sip_round(struct sip_state *s)
{
	s->v0 += s->v1;
	s->v1 = rotl64(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl64(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl64(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl64(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl64(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl64(s->v2, 32);
}

/* One message word: a single compression round (the "1" of 1-3). */
static inline void sip_word(struct sip_state *s, uint64_t m)
{
	s->v3 ^= m;
	sip_round(s);
	s->v0 ^= m;
}

static inline uint64_t load_le64(const uint8_t *p, size_t n)
{
	uint64_t w = 0;

	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)p[i] << (8 * i);
	return w;
}

uint64_t cache_siphash13(uint64_t k0, uint64_t k1, const void *data,
			 size_t len)
{
	struct sip_state s = {
		k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
		k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL,
	};
	const uint8_t *p = data;
	size_t left = len;

	for (; left >= 8; p += 8, left -= 8)
		sip_word(&s, load_le64(p, 8));
	sip_word(&s, load_le64(p, left) | (uint64_t)(len & 0xff) << 56);
	s.v2 ^= 0xff;
	sip_round(&s);
	sip_round(&s);
	sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
