/* SPDX-License-Identifier: MIT */
/*
 * Per-address token buckets for remote clients (see ratelimit.h).
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cache/siphash.h"
#include "common/limits.h"
#include "daemon/ratelimit.h"

struct bucket {
	uint8_t key[17];		/* family octet, then the address */
	int64_t last_ms;		/* when tokens was last refilled */
	uint64_t milli;			/* tokens, in thousandths */
};

struct ratelimit {
	pthread_mutex_t lock;		/* the workers share the table */
	uint64_t k0, k1;
	struct bucket slot[DT_DMN_RATE_SLOTS];
};

struct ratelimit *ratelimit_new(void)
{
	struct ratelimit *rl = calloc(1, sizeof(*rl));
	uint64_t seed[2] = {0};

	if (!rl)
		return NULL;
	if (getrandom(seed, sizeof(seed), 0) != sizeof(seed)) {
		free(rl);
		return NULL;
	}
	rl->k0 = seed[0];
	rl->k1 = seed[1];
	pthread_mutex_init(&rl->lock, NULL);
	return rl;
}

void ratelimit_free(struct ratelimit *rl)
{
	if (!rl)
		return;
	pthread_mutex_destroy(&rl->lock);
	free(rl);
}

/* The source a bucket is for: an IPv4 address (IPv4-mapped ones too), or
 * an IPv6 /64, which one host can own whole. */
static void source_key(const struct sockaddr *addr, uint8_t key[17])
{
	static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};

	memset(key, 0, 17);
	if (addr->sa_family == AF_INET) {
		key[0] = 4;
		memcpy(key + 1, &((const struct sockaddr_in *)addr)->sin_addr, 4);
		return;
	}
	const uint8_t *a =
		((const struct sockaddr_in6 *)addr)->sin6_addr.s6_addr;
	if (memcmp(a, mapped, 12) == 0) {
		key[0] = 4;
		memcpy(key + 1, a + 12, 4);
	} else {
		key[0] = 6;
		memcpy(key + 1, a, 8);
	}
}

bool ratelimit_take(struct ratelimit *rl, const struct sockaddr *addr,
		    unsigned rate, int64_t now_ms)
{
	uint8_t key[17];
	uint64_t full = (uint64_t)rate * 1000;
	bool taken = false;

	source_key(addr, key);
	pthread_mutex_lock(&rl->lock);
	struct bucket *b = &rl->slot[cache_siphash13(rl->k0, rl->k1, key,
						      sizeof(key)) %
				     DT_DMN_RATE_SLOTS];
	if (memcmp(b->key, key, sizeof(key)) != 0) {
		/* A new source, or one that collides: a full bucket. */
		memcpy(b->key, key, sizeof(key));
		b->milli = full;
		b->last_ms = now_ms;
	} else if (now_ms > b->last_ms) {
		uint64_t add = (uint64_t)(now_ms - b->last_ms) * rate;
		b->milli = b->milli + add > full ? full : b->milli + add;
		b->last_ms = now_ms;
	}
	if (b->milli >= 1000) {
		b->milli -= 1000;
		taken = true;
	}
	pthread_mutex_unlock(&rl->lock);
	return taken;
}
