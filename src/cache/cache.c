/* SPDX-License-Identifier: MIT */
/*
 * DT_CACHE_SHARDS shards, chosen by a keyed hash of the key. Each shard is
 * a mutex, a chained hash table whose bucket count follows its number of
 * entries, and a CLOCK ring over the same entries, with a byte budget of
 * max_bytes / DT_CACHE_SHARDS that counts every entry (struct, key and
 * declared cost) and the shard's bucket array.
 *
 * An entry holds one reference for the table while it is linked, and one
 * per reader. Unlinking drops the table's reference after the shard's lock
 * is released, so free functions never run under a lock; the last
 * reference frees the value and the entry.
 */
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cache/cache.h"
#include "cache/siphash.h"
#include "common/errcode.h"
#include "common/limits.h"

/* Fewest buckets in a shard's table: 64 pointers (512 octets) are nothing
 * beside a shard's smallest budget (128 KiB) and spare small caches most
 * resizing. */
#define CACHE_MIN_BUCKETS 64
/* The table doubles when entries pass buckets (load 1) and halves when
 * they fall below buckets / CACHE_SHRINK_LOAD: a wide gap, so a shard at
 * its budget never resizes back and forth. */
#define CACHE_SHRINK_LOAD 8

/* What a lookup compares (hnext, hash, klen, key) sits together at the
 * end, next to the key, to touch as few cache lines as it can. */
struct cache_entry {
	struct cache_entry *prev, *next; /* CLOCK ring */
	void (*free_fn)(void *val);
	size_t charge;			/* octets counted against the budget */
	void *val;
	int64_t expire;
	atomic_uint refs;		/* 1 while linked + 1 per reader */
	bool referenced;		/* CLOCK bit: read since swept */
	uint16_t klen;
	struct cache_entry *hnext;	/* bucket chain, or list of the dead */
	uint64_t hash;
	uint8_t key[];
};

struct shard {
	alignas(64) pthread_mutex_t lock; /* own cache line per shard */
	struct cache_entry **tbl;
	size_t nbuckets;		/* a power of two */
	size_t tbl_bytes;		/* octets allocated for tbl */
	struct cache_entry *hand;	/* CLOCK hand; NULL when empty */
	size_t entries;
	size_t bytes;			/* the entries' charges */
	size_t budget;			/* for bytes + tbl_bytes */
	uint64_t hits, misses, inserts, replaced, evictions, expired;
};

struct cache {
	uint64_t k0, k1;		/* SipHash key, from getrandom() */
	pthread_mutex_t set_lock;	/* serialises cache_set_max() */
	atomic_size_t max_bytes;
	_Atomic int64_t now;		/* latest now given to cache_get() */
	struct shard shard[DT_CACHE_SHARDS];
};

/* --- entries --- */

static bool entry_expired(const struct cache_entry *e, int64_t now)
{
	return e->expire <= now;
}

/* Drops one reference; the last frees the value and the entry. */
static void entry_release(struct cache_entry *e)
{
	if (atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) != 1)
		return;
	if (e->free_fn)
		e->free_fn(e->val);
	free(e);
}

/* Drops the table's reference of every entry unlinked under a lock. */
static void release_dead(struct cache_entry *dead)
{
	while (dead) {
		struct cache_entry *next = dead->hnext;

		entry_release(dead);
		dead = next;
	}
}

static struct cache_entry *entry_new(const void *key, size_t klen, void *val,
				     size_t cost, int64_t expire,
				     void (*free_fn)(void *val))
{
	struct cache_entry *e = malloc(sizeof(*e) + klen);

	if (!e)
		return NULL;
	memset(e, 0, sizeof(*e));
	if (klen)
		memcpy(e->key, key, klen);
	e->klen = (uint16_t)klen;
	e->val = val;
	e->free_fn = free_fn;
	e->expire = expire;
	e->charge = sizeof(*e) + klen + cost;
	atomic_init(&e->refs, 1);
	return e;
}

/* Frees a value the cache will not keep and returns err. */
static int value_drop(void *val, void (*free_fn)(void *val), int err)
{
	if (free_fn)
		free_fn(val);
	return err;
}

/* --- a shard's hash table --- */

static struct cache_entry **shard_bucket(struct shard *s, uint64_t hash)
{
	return &s->tbl[hash & (s->nbuckets - 1)];
}

static struct cache_entry *shard_find(struct shard *s, uint64_t hash,
				      const void *key, size_t klen)
{
	struct cache_entry *e = *shard_bucket(s, hash);

	for (; e; e = e->hnext)
		if (e->hash == hash && e->klen == klen &&
		    (klen == 0 || memcmp(e->key, key, klen) == 0))
			return e;
	return NULL;
}

/* Doubles the bucket array, splitting each chain in two. Out of memory,
 * the table stays as it is: chains get longer, nothing breaks. */
static void table_grow(struct shard *s)
{
	size_t n = s->nbuckets;
	struct cache_entry **t;

	if (n > SIZE_MAX / 2 / sizeof(*t))
		return;
	t = realloc(s->tbl, 2 * n * sizeof(*t));
	if (!t)
		return;
	for (size_t i = 0; i < n; i++) {
		struct cache_entry *e = t[i], *lo = NULL, *hi = NULL;

		while (e) {
			struct cache_entry *next = e->hnext;

			if (e->hash & n) {
				e->hnext = hi;
				hi = e;
			} else {
				e->hnext = lo;
				lo = e;
			}
			e = next;
		}
		t[i] = lo;
		t[i + n] = hi;
	}
	s->tbl = t;
	s->nbuckets = 2 * n;
	s->tbl_bytes = 2 * n * sizeof(*t);
}

/* Halves the bucket array, merging chain i + half into chain i. Should
 * realloc fail, the old (larger) block is kept and still counted. */
static void table_shrink(struct shard *s)
{
	size_t half = s->nbuckets / 2;
	struct cache_entry **t = s->tbl;

	for (size_t i = 0; i < half; i++) {
		struct cache_entry *e = t[i + half];

		while (e) {
			struct cache_entry *next = e->hnext;

			e->hnext = t[i];
			t[i] = e;
			e = next;
		}
	}
	s->nbuckets = half;
	t = realloc(t, half * sizeof(*t));
	if (t) {
		s->tbl = t;
		s->tbl_bytes = half * sizeof(*t);
	}
}

static void shard_shrink_table(struct shard *s)
{
	while (s->nbuckets > CACHE_MIN_BUCKETS &&
	       s->entries < s->nbuckets / CACHE_SHRINK_LOAD)
		table_shrink(s);
}

/* --- a shard's CLOCK ring --- */

/* New entries go just behind the hand: the last the hand will reach. */
static void ring_insert(struct shard *s, struct cache_entry *e)
{
	struct cache_entry *h = s->hand;

	if (!h) {
		e->prev = e->next = e;
		s->hand = e;
		return;
	}
	e->next = h;
	e->prev = h->prev;
	h->prev->next = e;
	h->prev = e;
}

static void ring_remove(struct shard *s, struct cache_entry *e)
{
	if (e->next == e) {
		s->hand = NULL;
		return;
	}
	e->prev->next = e->next;
	e->next->prev = e->prev;
	if (s->hand == e)
		s->hand = e->next;
}

/* --- linking and unlinking --- */

static size_t shard_used(const struct shard *s)
{
	return s->bytes + s->tbl_bytes;
}

static void shard_link(struct shard *s, struct cache_entry *e)
{
	struct cache_entry **b = shard_bucket(s, e->hash);

	e->hnext = *b;
	*b = e;
	ring_insert(s, e);
	s->entries++;
	s->bytes += e->charge;
	if (s->entries > s->nbuckets)
		table_grow(s);
}

/* Takes e out of the shard and puts it on *dead, to be released once the
 * lock is dropped. */
static void shard_unlink(struct shard *s, struct cache_entry *e,
			 struct cache_entry **dead)
{
	struct cache_entry **pp = shard_bucket(s, e->hash);

	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	ring_remove(s, e);
	s->entries--;
	s->bytes -= e->charge;
	e->hnext = *dead;
	*dead = e;
	shard_shrink_table(s);
}

/*
 * Second chance: the hand clears the bit of entries read since it last
 * passed and takes the first entry not read, or the first expired one
 * whatever its bit (expired entries get no second chance). Ends within
 * one turn of the ring.
 */
static void shard_evict_one(struct shard *s, int64_t now,
			    struct cache_entry **dead)
{
	struct cache_entry *e = s->hand;

	for (;;) {
		if (entry_expired(e, now)) {
			s->expired++;
			break;
		}
		if (!e->referenced) {
			s->evictions++;
			break;
		}
		e->referenced = false;
		e = s->hand = e->next;
	}
	shard_unlink(s, e, dead);
}

/* Evicts until the shard is within its budget. */
static void shard_trim(struct shard *s, int64_t now, struct cache_entry **dead)
{
	while (shard_used(s) > s->budget && s->entries)
		shard_evict_one(s, now, dead);
}

/* The largest charge one entry may have: the budget less the smallest
 * table, so an entry that passes can always fit alone. */
static size_t shard_room(const struct shard *s)
{
	size_t min_tbl = CACHE_MIN_BUCKETS * sizeof(struct cache_entry *);

	return s->budget > min_tbl ? s->budget - min_tbl : 0;
}

/* --- the cache --- */

static size_t budget_clamp(size_t max_bytes)
{
	return max_bytes < DT_CACHE_MINSIZE ? DT_CACHE_MINSIZE : max_bytes;
}

static uint64_t key_hash(const struct cache *c, const void *key, size_t klen)
{
	return cache_siphash13(c->k0, c->k1, key, klen);
}

/* High bits choose the shard, low bits the bucket within it. */
static struct shard *shard_of(struct cache *c, uint64_t hash)
{
	return &c->shard[(hash >> 32) % DT_CACHE_SHARDS];
}

static int64_t cache_now(struct cache *c)
{
	return atomic_load_explicit(&c->now, memory_order_relaxed);
}

/* Remembers the caller's clock for eviction, which has no now of its own.
 * Written only when it moves forward (once a second), so the line stays
 * shared between threads the rest of the time. */
static void cache_note_now(struct cache *c, int64_t now)
{
	if (now > cache_now(c))
		atomic_store_explicit(&c->now, now, memory_order_relaxed);
}

static int shard_init(struct shard *s, size_t budget)
{
	memset(s, 0, sizeof(*s));
	s->tbl = calloc(CACHE_MIN_BUCKETS, sizeof(*s->tbl));
	if (!s->tbl)
		return -ENOMEM;
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		free(s->tbl);
		return -ENOMEM;
	}
	s->nbuckets = CACHE_MIN_BUCKETS;
	s->tbl_bytes = CACHE_MIN_BUCKETS * sizeof(*s->tbl);
	s->budget = budget;
	return 0;
}

/* Drops the table's reference of every entry and frees the shard's own
 * memory. */
static void shard_destroy(struct shard *s)
{
	struct cache_entry *e = s->hand;

	for (size_t i = 0; i < s->entries; i++) {
		struct cache_entry *next = e->next;

		entry_release(e);
		e = next;
	}
	free(s->tbl);
	pthread_mutex_destroy(&s->lock);
}

static int seed_key(struct cache *c)
{
	uint64_t seed[2];
	ssize_t n;

	do
		n = getrandom(seed, sizeof(seed), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(seed))
		return n < 0 ? -errno : -EIO;
	c->k0 = seed[0];
	c->k1 = seed[1];
	return 0;
}

static int cache_init(struct cache *c, size_t max_bytes)
{
	int err = seed_key(c);
	size_t i;

	if (err)
		return err;
	if (pthread_mutex_init(&c->set_lock, NULL) != 0)
		return -ENOMEM;
	atomic_init(&c->max_bytes, max_bytes);
	atomic_init(&c->now, INT64_MIN);
	for (i = 0; i < DT_CACHE_SHARDS; i++) {
		err = shard_init(&c->shard[i], max_bytes / DT_CACHE_SHARDS);
		if (err)
			break;
	}
	if (!err)
		return 0;
	while (i-- > 0)
		shard_destroy(&c->shard[i]);
	pthread_mutex_destroy(&c->set_lock);
	return err;
}

struct cache *cache_new(size_t max_bytes)
{
	struct cache *c = aligned_alloc(alignof(struct cache), sizeof(*c));
	int err;

	if (!c)
		return NULL;
	err = cache_init(c, budget_clamp(max_bytes));
	if (err) {
		free(c);
		errno = -err;
		return NULL;
	}
	return c;
}

void cache_free(struct cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < DT_CACHE_SHARDS; i++)
		shard_destroy(&c->shard[i]);
	pthread_mutex_destroy(&c->set_lock);
	free(c);
}

void cache_set_max(struct cache *c, size_t max_bytes)
{
	int64_t now = cache_now(c);

	max_bytes = budget_clamp(max_bytes);
	pthread_mutex_lock(&c->set_lock);
	atomic_store(&c->max_bytes, max_bytes);
	for (size_t i = 0; i < DT_CACHE_SHARDS; i++) {
		struct shard *s = &c->shard[i];
		struct cache_entry *dead = NULL;

		pthread_mutex_lock(&s->lock);
		s->budget = max_bytes / DT_CACHE_SHARDS;
		shard_trim(s, now, &dead);
		pthread_mutex_unlock(&s->lock);
		release_dead(dead);
	}
	pthread_mutex_unlock(&c->set_lock);
}

/* Links e (hash set) into s, replacing an entry with the same key, and
 * evicts to stay within the budget. Returns 0 or DT_ELIMIT (e not
 * linked). Called with s locked. */
static int shard_put(struct shard *s, struct cache_entry *e, int64_t now,
		     struct cache_entry **dead)
{
	struct cache_entry *old;

	if (e->charge > shard_room(s))
		return DT_ELIMIT;
	old = shard_find(s, e->hash, e->key, e->klen);
	if (old) {
		shard_unlink(s, old, dead);
		s->replaced++;
	}
	shard_link(s, e);
	s->inserts++;
	shard_trim(s, now, dead);
	return 0;
}

int cache_put(struct cache *c, const void *key, size_t klen, void *val,
	      size_t cost, int64_t expire, void (*free_fn)(void *val))
{
	struct cache_entry *e, *dead = NULL;
	struct shard *s;
	int err;

	if (klen > DT_CACHE_KEY_MAXLEN || cost > SIZE_MAX / 2)
		return value_drop(val, free_fn, DT_ELIMIT);
	e = entry_new(key, klen, val, cost, expire, free_fn);
	if (!e)
		return value_drop(val, free_fn, -ENOMEM);
	e->hash = key_hash(c, key, klen);
	s = shard_of(c, e->hash);
	pthread_mutex_lock(&s->lock);
	err = shard_put(s, e, cache_now(c), &dead);
	pthread_mutex_unlock(&s->lock);
	release_dead(dead);
	if (err)
		entry_release(e);
	return err;
}

/* The entry for key if present and fresh at now, with a reader's
 * reference taken; an expired one is unlinked onto *dead. Called with s
 * locked. */
static struct cache_entry *shard_get(struct shard *s, uint64_t hash,
				     const void *key, size_t klen, int64_t now,
				     struct cache_entry **dead)
{
	struct cache_entry *e = shard_find(s, hash, key, klen);

	if (e && entry_expired(e, now)) {
		shard_unlink(s, e, dead);
		s->expired++;
		e = NULL;
	}
	if (!e) {
		s->misses++;
		return NULL;
	}
	s->hits++;
	e->referenced = true;
	atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
	return e;
}

bool cache_get(struct cache *c, const void *key, size_t klen, int64_t now,
	       struct cache_ref *ret)
{
	struct cache_entry *e, *dead = NULL;
	struct shard *s;
	uint64_t hash;

	ret->val = NULL;
	ret->expire = 0;
	ret->entry = NULL;
	if (klen > DT_CACHE_KEY_MAXLEN)
		return false;
	cache_note_now(c, now);
	hash = key_hash(c, key, klen);
	s = shard_of(c, hash);
	pthread_mutex_lock(&s->lock);
	e = shard_get(s, hash, key, klen, now, &dead);
	pthread_mutex_unlock(&s->lock);
	release_dead(dead);
	if (!e)
		return false;
	ret->val = e->val;
	ret->expire = e->expire;
	ret->entry = e;
	return true;
}

void cache_unref(struct cache *c, struct cache_ref *ref)
{
	(void)c;
	if (!ref->val)
		return;
	entry_release(ref->entry);
	ref->val = NULL;
	ref->entry = NULL;
}

bool cache_remove(struct cache *c, const void *key, size_t klen)
{
	struct cache_entry *e, *dead = NULL;
	struct shard *s;
	uint64_t hash;

	if (klen > DT_CACHE_KEY_MAXLEN)
		return false;
	hash = key_hash(c, key, klen);
	s = shard_of(c, hash);
	pthread_mutex_lock(&s->lock);
	e = shard_find(s, hash, key, klen);
	if (e)
		shard_unlink(s, e, &dead);
	pthread_mutex_unlock(&s->lock);
	release_dead(dead);
	return e != NULL;
}

/* A predicate on an entry: the key alone, or the key and the value. */
struct match {
	bool (*key_pred)(const uint8_t *key, size_t klen, void *arg);
	bool (*val_pred)(const uint8_t *key, size_t klen, void *val,
			 void *arg);
	void *arg;
};

static bool matches(const struct match *m, const struct cache_entry *e)
{
	if (m->val_pred)
		return m->val_pred(e->key, e->klen, e->val, m->arg);
	return m->key_pred(e->key, e->klen, m->arg);
}

/* One turn of the ring from the hand; unlinking leaves the order of the
 * others as it was, so each entry is seen once. */
static size_t shard_remove_if(struct shard *s, const struct match *m,
			      struct cache_entry **dead)
{
	struct cache_entry *e = s->hand;
	size_t n = s->entries, removed = 0;

	for (size_t i = 0; i < n; i++) {
		struct cache_entry *next = e->next;

		if (matches(m, e)) {
			shard_unlink(s, e, dead);
			removed++;
		}
		e = next;
	}
	return removed;
}

static size_t remove_matching(struct cache *c, const struct match *m)
{
	size_t removed = 0;

	for (size_t i = 0; i < DT_CACHE_SHARDS; i++) {
		struct shard *s = &c->shard[i];
		struct cache_entry *dead = NULL;

		pthread_mutex_lock(&s->lock);
		removed += shard_remove_if(s, m, &dead);
		pthread_mutex_unlock(&s->lock);
		release_dead(dead);
	}
	return removed;
}

size_t cache_remove_if(struct cache *c,
		       bool (*pred)(const uint8_t *key, size_t klen,
				    void *arg),
		       void *arg)
{
	struct match m = {.key_pred = pred, .arg = arg};

	return remove_matching(c, &m);
}

size_t cache_remove_if_val(struct cache *c,
			   bool (*pred)(const uint8_t *key, size_t klen,
					void *val, void *arg),
			   void *arg)
{
	struct match m = {.val_pred = pred, .arg = arg};

	return remove_matching(c, &m);
}

static void stats_add(struct cache_stats *st, const struct shard *s)
{
	st->hits += s->hits;
	st->misses += s->misses;
	st->inserts += s->inserts;
	st->replaced += s->replaced;
	st->evictions += s->evictions;
	st->expired += s->expired;
	st->entries += s->entries;
	st->bytes += shard_used(s);
}

void cache_stats(struct cache *c, struct cache_stats *ret)
{
	struct cache_stats st;

	memset(&st, 0, sizeof(st));
	for (size_t i = 0; i < DT_CACHE_SHARDS; i++) {
		struct shard *s = &c->shard[i];

		pthread_mutex_lock(&s->lock);
		stats_add(&st, s);
		pthread_mutex_unlock(&s->lock);
	}
	st.max_bytes = atomic_load(&c->max_bytes);
	*ret = st;
}
