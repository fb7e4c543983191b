/* SPDX-License-Identifier: MIT */
/*
 * A bounded, thread-safe cache of opaque values under byte-string keys.
 * The daemon keeps all its caches in one of these, under one budget
 * (cache-size): answers ready to send, RRsets and negative answers, and
 * validated key sets; the first octet of each key says which kind.
 *
 * Values belong to the caller until cache_put() takes them; from then on
 * the cache frees them (with the free function given) when they are
 * evicted, expired, replaced or removed AND no reader holds a reference.
 * Readers get a reference with cache_get() and give it back with
 * cache_unref(), so a value can be used after the lock is dropped.
 *
 * Memory: every entry costs its key, its caller-declared value cost and a
 * fixed overhead (the entry's struct); with the shards' hash tables the
 * sum never exceeds the budget after any call returns (entries are
 * evicted by CLOCK per shard: read entries get a second chance, expired
 * ones none, "expired" judged by the latest now given to cache_get()).
 * Each shard has max_bytes / DT_CACHE_SHARDS of it. An evicted value a
 * reader still holds is no longer counted; it is freed on the last
 * cache_unref(). Shards (DT_CACHE_SHARDS, chosen by a keyed hash with a
 * random key, each with its mutex) keep threads from queueing on one
 * lock and attackers from filling one bucket.
 */
#ifndef DT_CACHE_CACHE_H
#define DT_CACHE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cache;
struct cache_entry;

/* A reader's hold on a value. */
struct cache_ref {
	void *val;		/* NULL: nothing found */
	int64_t expire;		/* the entry's expiry time (as given) */
	struct cache_entry *entry; /* the cache's business */
};

struct cache_stats {
	uint64_t hits, misses;	/* cache_get found / did not find */
	uint64_t inserts;	/* entries stored, replacements included */
	uint64_t replaced;	/* of those, replacing one with the same key */
	uint64_t evictions;	/* removed to stay within the budget */
	uint64_t expired;	/* found expired (on get or eviction) */
	size_t entries;		/* now */
	size_t bytes;		/* now, overhead included */
	size_t max_bytes;	/* the budget */
};

/* A new cache with a budget of max_bytes (raised to DT_CACHE_MINSIZE when
 * below it), or NULL with errno set when out of memory or when no random
 * hash key could be had from getrandom(). Free with cache_free(). */
struct cache *cache_new(size_t max_bytes);

/* Frees every entry (values with their free functions). No reference may
 * be outstanding. */
void cache_free(struct cache *c);

/* Changes the budget (SIGHUP with a new cache-size; raised to
 * DT_CACHE_MINSIZE when below it); evicts at once when it shrinks.
 * Entries are kept otherwise. */
void cache_set_max(struct cache *c, size_t max_bytes);

/*
 * Stores val under key (klen octets, at most DT_CACHE_KEY_MAXLEN), valid
 * until expire (the caller's clock, seconds; compared with the now given
 * to cache_get), costing cost octets beyond the entry overhead, freed by
 * free_fn (may be NULL). Replaces an entry with the same key. A value too
 * large for one shard's budget is not stored: free_fn(val) runs at once
 * and DT_ELIMIT is returned. Returns 0, DT_ELIMIT or -ENOMEM (then val was
 * freed too: after the call the cache owns val in every case).
 */
int cache_put(struct cache *c, const void *key, size_t klen, void *val,
	      size_t cost, int64_t expire, void (*free_fn)(void *val));

/*
 * Looks key up. Found and not expired at now (expired: now >= expire):
 * *ret holds the value with a reference, and true is returned; the caller
 * must cache_unref(). An expired entry is dropped. Otherwise false,
 * ret->val NULL (a key longer than DT_CACHE_KEY_MAXLEN is never found).
 */
bool cache_get(struct cache *c, const void *key, size_t klen, int64_t now,
	       struct cache_ref *ret);

/* Gives back a reference (no-op when ref->val is NULL). */
void cache_unref(struct cache *c, struct cache_ref *ref);

/* Removes key's entry, if any. Returns whether one was removed. */
bool cache_remove(struct cache *c, const void *key, size_t klen);

/* Removes every entry for which pred(key, klen, arg) is true (for
 * `dnstrust flush NAME`: keys that name a domain at or below NAME).
 * Returns the number removed. pred runs under a shard lock: it must not
 * call into the cache. */
size_t cache_remove_if(struct cache *c,
		       bool (*pred)(const uint8_t *key, size_t klen,
				    void *arg),
		       void *arg);

/* The same, with the value given to pred too (read-only; for dropping
 * entries by what they hold, such as answers that did not validate). */
size_t cache_remove_if_val(struct cache *c,
			   bool (*pred)(const uint8_t *key, size_t klen,
					void *val, void *arg),
			   void *arg);

/* A snapshot of the counters. */
void cache_stats(struct cache *c, struct cache_stats *ret);

#endif
