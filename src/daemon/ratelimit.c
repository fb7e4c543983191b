/* SPDX-License-Identifier: MIT */
/*
 * Per-address token buckets and connection counts for remote clients
 * (see ratelimit.h).
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

/* Connections of one source; n == 0: a free entry. */
struct conns {
	uint8_t key[17];
	unsigned n;
};

struct ratelimit {
	pthread_mutex_t lock;		/* the workers share the tables */
	uint64_t k0, k1;
	struct bucket slot[DT_DMN_RATE_SLOTS];
	/* DT_DMN_REMOTE_CONN_SETS sets of DT_DMN_REMOTE_CONN_WAYS entries */
	struct conns conns[DT_DMN_REMOTE_CONN_SETS * DT_DMN_REMOTE_CONN_WAYS];
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

static uint64_t source_hash(const struct ratelimit *rl, const uint8_t key[17])
{
	return cache_siphash13(rl->k0, rl->k1, key, 17);
}

int64_t ratelimit_wait(struct ratelimit *rl, const struct sockaddr *addr,
		       unsigned rate, int64_t now_ms)
{
	uint8_t key[17];
	uint64_t full = (uint64_t)rate * 1000;
	int64_t wait = 0;

	source_key(addr, key);
	pthread_mutex_lock(&rl->lock);
	struct bucket *b = &rl->slot[source_hash(rl, key) % DT_DMN_RATE_SLOTS];
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
	if (b->milli >= 1000)
		b->milli -= 1000;
	else /* rate thousandths of a token come in each millisecond */
		wait = (int64_t)((1000 - b->milli + rate - 1) / rate);
	pthread_mutex_unlock(&rl->lock);
	return wait;
}

bool ratelimit_take(struct ratelimit *rl, const struct sockaddr *addr,
		    unsigned rate, int64_t now_ms)
{
	return ratelimit_wait(rl, addr, rate, now_ms) == 0;
}

/* The entry of key in its set, or a free one there to take (NULL: the set
 * is full of others). Called with the lock held. */
static struct conns *conns_find(struct ratelimit *rl, const uint8_t key[17])
{
	size_t set = source_hash(rl, key) % DT_DMN_REMOTE_CONN_SETS;
	struct conns *e = &rl->conns[set * DT_DMN_REMOTE_CONN_WAYS];
	struct conns *free_slot = NULL;

	for (size_t i = 0; i < DT_DMN_REMOTE_CONN_WAYS; i++) {
		if (e[i].n && memcmp(e[i].key, key, 17) == 0)
			return &e[i];
		if (!e[i].n && !free_slot)
			free_slot = &e[i];
	}
	return free_slot;
}

bool ratelimit_conn_take(struct ratelimit *rl, const struct sockaddr *addr,
			 unsigned limit)
{
	uint8_t key[17];
	bool taken = false;

	source_key(addr, key);
	pthread_mutex_lock(&rl->lock);
	struct conns *e = conns_find(rl, key);
	if (e && e->n < limit) {
		if (!e->n)
			memcpy(e->key, key, sizeof(key));
		e->n++;
		taken = true;
	}
	pthread_mutex_unlock(&rl->lock);
	return taken;
}

void ratelimit_conn_put(struct ratelimit *rl, const struct sockaddr *addr)
{
	uint8_t key[17];

	source_key(addr, key);
	pthread_mutex_lock(&rl->lock);
	struct conns *e = conns_find(rl, key);
	if (e && e->n && memcmp(e->key, key, sizeof(key)) == 0)
		e->n--;
	pthread_mutex_unlock(&rl->lock);
}
