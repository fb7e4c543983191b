/* SPDX-License-Identifier: MIT */
/*
 * src/cache: the keyed hash, the cache's operations, its budget under
 * random workloads, CLOCK order, references across eviction and a
 * multi-threaded stress meant to be run under ThreadSanitizer too.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "cache/siphash.h"
#include "common/errcode.h"
#include "common/limits.h"
#include "tap.h"

#define MIB (1024u * 1024)
#define TVAL_MAGIC 0x7ca4e5u

/*
 * Allocation failures on demand: the test is linked with --wrap for
 * malloc, calloc and realloc, so the cache's calls come here; with
 * fail_in at n > 0, the n-th call from now fails.
 */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static atomic_int fail_in;

static bool should_fail(void)
{
	int n = atomic_load(&fail_in);

	while (n > 0 && !atomic_compare_exchange_weak(&fail_in, &n, n - 1))
		;
	return n == 1;
}

void *__wrap_malloc(size_t size)
{
	return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return should_fail() ? NULL : __real_realloc(p, size);
}

/* A test value: knows its key and counts its own frees. */
struct tval {
	uint32_t magic;
	atomic_int *freed;		/* incremented by tval_free, or NULL */
	size_t size;			/* octets allocated, struct included */
	uint16_t klen;
	uint8_t key[];
};

static atomic_long n_alloc, n_freed, live_bytes;

static struct tval *tval_new(const void *key, size_t klen, size_t extra,
			     atomic_int *freed)
{
	size_t size = sizeof(struct tval) + klen + extra;
	struct tval *v = malloc(size);

	if (!v)
		abort();
	v->magic = TVAL_MAGIC;
	v->freed = freed;
	v->size = size;
	v->klen = (uint16_t)klen;
	if (klen)
		memcpy(v->key, key, klen);
	atomic_fetch_add(&n_alloc, 1);
	atomic_fetch_add(&live_bytes, (long)size);
	return v;
}

static void tval_free(void *p)
{
	struct tval *v = p;

	if (v->magic != TVAL_MAGIC)
		abort();
	v->magic = 0;
	if (v->freed)
		atomic_fetch_add(v->freed, 1);
	atomic_fetch_add(&n_freed, 1);
	atomic_fetch_sub(&live_bytes, (long)v->size);
	free(v);
}

static bool tval_is(const struct tval *v, const void *key, size_t klen)
{
	return v && v->magic == TVAL_MAGIC && v->klen == klen &&
	       (klen == 0 || memcmp(v->key, key, klen) == 0);
}

/* Puts a value under a text key with cost = its size. */
static int put_str(struct cache *c, const char *key, size_t extra,
		   int64_t expire, atomic_int *freed)
{
	size_t klen = strlen(key);
	struct tval *v = tval_new(key, klen, extra, freed);

	return cache_put(c, key, klen, v, v->size, expire, tval_free);
}

static bool has_key(struct cache *c, const void *key, size_t klen,
		    int64_t now)
{
	struct cache_ref r;
	bool found = cache_get(c, key, klen, now, &r);

	if (found && !tval_is(r.val, key, klen))
		found = false;
	cache_unref(c, &r);
	return found;
}

static bool has_str(struct cache *c, const char *key, int64_t now)
{
	return has_key(c, key, strlen(key), now);
}

static struct cache_stats stats_of(struct cache *c)
{
	struct cache_stats st;

	cache_stats(c, &st);
	return st;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* --- SipHash-1-3 --- */

/* Reference SipHash-1-3 outputs, key 16 zero octets, message 00 01 02 …
 * of the given length (veorq/SipHash, as used by OCaml's test suite). */
static void test_siphash(void)
{
	static const struct {
		size_t len;
		uint64_t h;
	} v[] = {
		{0, 0xd1fba762150c532cULL},  {1, 0x68a914128e01e473ULL},
		{7, 0x2f098ab0c751325aULL},  {8, 0xead411e67ebe2eeaULL},
		{15, 0xf30eb725bb91c9eaULL}, {16, 0x8972188433a5c5b7ULL},
	};
	uint8_t msg[16];

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		ok(cache_siphash13(0, 0, msg, v[i].len) == v[i].h,
		   "siphash13 of %zu octets", v[i].len);
	ok(cache_siphash13(1, 0, msg, 8) != cache_siphash13(0, 0, msg, 8),
	   "siphash13 depends on the key");
}

/* --- single-threaded operations --- */

static void test_basic(void)
{
	struct cache *c = cache_new(0);
	struct cache_ref r = {.val = (void *)1};
	struct cache_stats st;

	ok(c != NULL, "cache_new");
	st = stats_of(c);
	is_int(st.max_bytes, DT_CACHE_MINSIZE, "budget raised to the minimum");
	ok(!cache_get(c, "a", 1, 0, &r) && r.val == NULL,
	   "miss on empty cache, ref cleared");
	cache_unref(c, &r);
	is_int(put_str(c, "a", 10, 100, NULL), 0, "put");
	ok(cache_get(c, "a", 1, 0, &r) && tval_is(r.val, "a", 1),
	   "get finds the value");
	is_int(r.expire, 100, "ref carries the expiry");
	cache_unref(c, &r);
	ok(r.val == NULL, "unref clears the ref");
	ok(!has_str(c, "b", 0), "other key misses");
	is_int(put_str(c, "", 0, 100, NULL), 0, "empty key stored");
	ok(has_str(c, "", 0), "empty key found");
	ok(has_key(c, NULL, 0, 0), "empty key found through NULL");
	st = stats_of(c);
	is_int(st.hits, 3, "hits counted");
	is_int(st.misses, 2, "misses counted");
	is_int(st.inserts, 2, "inserts counted");
	is_int(st.entries, 2, "entries counted");
	ok(st.bytes > 2 * (sizeof(struct tval) + 10), "bytes include values");
	is_int(cache_put(c, "n", 1, &r, 5, 100, NULL), 0, "NULL free_fn");
	ok(cache_remove(c, "n", 1), "entry with NULL free_fn removed");
	cache_free(c);
	is_int(n_alloc, n_freed, "cache_free frees every value");
}

static void test_replace_remove(void)
{
	struct cache *c = cache_new(0);
	atomic_int f1 = 0, f2 = 0;
	struct cache_ref r;

	put_str(c, "k", 0, 100, &f1);
	ok(cache_get(c, "k", 1, 0, &r), "first value held");
	put_str(c, "k", 0, 100, &f2);
	is_int(stats_of(c).replaced, 1, "replace counted");
	is_int(stats_of(c).entries, 1, "one entry after replace");
	is_int(f1, 0, "replaced value alive while held");
	ok(tval_is(r.val, "k", 1), "replaced value still readable");
	cache_unref(c, &r);
	is_int(f1, 1, "replaced value freed on unref");
	ok(cache_get(c, "k", 1, 0, &r) &&
		   ((struct tval *)r.val)->freed == &f2,
	   "get returns the new value");
	cache_unref(c, &r);
	ok(cache_remove(c, "k", 1), "remove finds the key");
	is_int(f2, 1, "removed value freed");
	ok(!cache_remove(c, "k", 1), "second remove finds nothing");
	ok(!has_str(c, "k", 0), "removed key misses");
	is_int(stats_of(c).entries, 0, "no entries left");
	cache_free(c);
}

static bool first_is(const uint8_t *key, size_t klen, void *arg)
{
	return klen > 0 && key[0] == *(const char *)arg;
}

static void test_remove_if(void)
{
	struct cache *c = cache_new(0);
	char key[24], kind = 'A';
	size_t left = 0;

	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "%c%d", i % 3 ? 'B' : 'A', i);
		put_str(c, key, 0, 100, NULL);
	}
	is_int(cache_remove_if(c, first_is, &kind), 334,
	       "remove_if removes the matching entries");
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "%c%d", i % 3 ? 'B' : 'A', i);
		left += has_str(c, key, 0) == (i % 3 != 0);
	}
	is_int(left, 1000, "exactly the others remain");
	is_int(stats_of(c).entries, 666, "entry count follows");
	is_int(cache_remove_if(c, first_is, &kind), 0, "nothing left to match");
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed");
}

/* Selects by value: the tval's key ends in '7'. */
static bool val_ends_in_7(const uint8_t *key, size_t klen, void *val,
			  void *arg)
{
	const struct tval *v = val;

	(void)key;
	(void)arg;
	return klen == v->klen && v->key[v->klen - 1] == '7';
}

static void test_remove_if_val(void)
{
	struct cache *c = cache_new(0);
	char key[24];
	size_t left = 0;

	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		put_str(c, key, 0, 100, NULL);
	}
	is_int(cache_remove_if_val(c, val_ends_in_7, NULL), 100,
	       "remove_if_val removes the entries whose value matches");
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		left += has_str(c, key, 0) == (i % 10 != 7);
	}
	is_int(left, 1000, "exactly the others remain");
	is_int(stats_of(c).entries, 900, "entry count follows");
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed");
}

static void test_expiry(void)
{
	struct cache *c = cache_new(0);
	atomic_int f = 0;

	put_str(c, "x", 0, 100, &f);
	ok(has_str(c, "x", 99), "fresh before expiry");
	ok(!has_str(c, "x", 100), "expired at its expiry time");
	is_int(f, 1, "expired value freed on get");
	is_int(stats_of(c).expired, 1, "expiry counted");
	is_int(stats_of(c).entries, 0, "expired entry dropped");
	cache_free(c);
}

static void test_limits(void)
{
	struct cache *c = cache_new(0);
	uint8_t key[DT_CACHE_KEY_MAXLEN + 1];
	size_t shard = DT_CACHE_MINSIZE / DT_CACHE_SHARDS;
	atomic_int f = 0;
	struct tval *v;
	struct cache_ref r;

	memset(key, 'k', sizeof(key));
	v = tval_new(key, DT_CACHE_KEY_MAXLEN, 0, &f);
	is_int(cache_put(c, key, sizeof(key), v, 0, 100, tval_free),
	       DT_ELIMIT, "key too long refused");
	is_int(f, 1, "its value freed");
	ok(!cache_get(c, key, sizeof(key), 0, &r), "get with a long key");
	v = tval_new(key, DT_CACHE_KEY_MAXLEN, 0, &f);
	is_int(cache_put(c, key, DT_CACHE_KEY_MAXLEN, v, 0, 100, tval_free), 0,
	       "longest key stored");
	v = tval_new("big", 3, 0, &f);
	is_int(cache_put(c, "big", 3, v, shard, 100, tval_free), DT_ELIMIT,
	       "value of a shard's budget refused");
	is_int(f, 2, "its value freed");
	v = tval_new("big", 3, 0, &f);
	is_int(cache_put(c, "big", 3, v, SIZE_MAX, 100, tval_free), DT_ELIMIT,
	       "value of SIZE_MAX refused");
	is_int(f, 3, "its value freed");
	v = tval_new("big", 3, 0, &f);
	is_int(cache_put(c, "big", 3, v, shard - 4096, 100, tval_free), 0,
	       "value just under a shard's budget stored");
	ok(has_str(c, "big", 0), "and found");
	ok(stats_of(c).bytes <= DT_CACHE_MINSIZE, "within the budget");
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed");
}

static bool any_key(const uint8_t *key, size_t klen, void *arg)
{
	(void)key;
	(void)klen;
	(void)arg;
	return true;
}

/* Puts n entries "<prefix><i>"; with fail_resize, each put's second
 * allocation (a table resize, the first being the entry) fails. */
static void put_many(struct cache *c, char prefix, int n, bool fail_resize)
{
	char key[24];

	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%c%d", prefix, i);
		struct tval *v = tval_new(key, strlen(key), 0, NULL);

		atomic_store(&fail_in, fail_resize ? 2 : 0);
		cache_put(c, key, strlen(key), v, v->size, 100, tval_free);
		atomic_store(&fail_in, 0);
	}
}

static size_t count_found(struct cache *c, char prefix, int n)
{
	char key[24];
	size_t found = 0;

	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%c%d", prefix, i);
		found += has_str(c, key, 0);
	}
	return found;
}

/* Out of memory: put frees the value; a table that cannot grow or shrink
 * still works and is still counted; cache_new cleans up. */
static void test_nomem(void)
{
	struct cache *c = cache_new(0);
	atomic_int f = 0;
	struct tval *v = tval_new("m", 1, 0, &f);

	atomic_store(&fail_in, 1);
	is_int(cache_put(c, "m", 1, v, v->size, 100, tval_free), -ENOMEM,
	       "put without memory: -ENOMEM");
	atomic_store(&fail_in, 0);
	is_int(f, 1, "its value freed");
	is_int(stats_of(c).entries, 0, "nothing stored");
	put_many(c, 'g', 4000, true);
	is_int(count_found(c, 'g', 4000), 4000,
	       "a table that could not grow still finds all");
	struct cache *ctl = cache_new(0);
	put_many(ctl, 'g', 4000, false);
	ok(stats_of(ctl).bytes > stats_of(c).bytes,
	   "it did not grow (%zu bytes, %zu with growth)", stats_of(c).bytes,
	   stats_of(ctl).bytes);
	cache_free(ctl);
	put_many(c, 'h', 4000, false);
	is_int(count_found(c, 'h', 4000), 4000, "a table that grew finds all");
	atomic_store(&fail_in, 1);
	is_int(cache_remove_if(c, any_key, NULL), 8000,
	       "a table that could not shrink once still removes all");
	atomic_store(&fail_in, 0);
	ok(stats_of(c).bytes <= DT_CACHE_MINSIZE, "still within the budget");
	cache_free(c);
	for (int n = 1; n <= 3; n++) {
		atomic_store(&fail_in, n);
		c = cache_new(0);
		ok(c == NULL && errno == ENOMEM,
		   "cache_new fails cleanly at allocation %d", n);
		atomic_store(&fail_in, 0);
		cache_free(c);
	}
	is_int(n_alloc, n_freed, "every value freed");
}

/* --- the budget --- */

/* Random keys (1 to 300 octets), sizes (0 to 48 KiB, mostly under 1 KiB)
 * and expiry (one in eight short-lived); after every put the cache's count and
 * the memory really held by live values stay within the budget. */
static void test_budget_random(void)
{
	size_t max = 3 * MIB;
	struct cache *c = cache_new(max);
	uint64_t rng = 0x1234567;
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t over = 0, over_live = 0, failed = 0;

	for (int i = 0; i < 100000; i++) {
		uint64_t r = rng_next(&rng);
		size_t klen = 1 + r % DT_CACHE_KEY_MAXLEN;
		size_t extra = (r >> 16) % 8 == 0 ? (r >> 20) % (48 * 1024)
						  : (r >> 20) % 1024;
		int64_t expire =
			(r >> 12) % 8 ? INT64_MAX : i + (int64_t)(r >> 60);
		struct tval *v;

		memset(key, 'k', klen);
		key[0] = (uint8_t)((r >> 40) % 20000 / 256);
		key[klen - 1] = (uint8_t)((r >> 40) % 20000);
		v = tval_new(key, klen, extra, NULL);
		if (cache_put(c, key, klen, v, v->size, expire, tval_free))
			failed++;
		if (i % 100 == 0)
			has_key(c, key, klen, i);
		if (stats_of(c).bytes > max)
			over++;
		if ((size_t)live_bytes > max)
			over_live++;
	}
	struct cache_stats st = stats_of(c);
	is_int(failed, 0, "100k random puts accepted");
	is_int(over, 0, "stats.bytes <= max_bytes after every put");
	is_int(over_live, 0, "live value memory <= max_bytes after every put");
	ok(st.evictions > 10000 && st.entries > 100,
	   "evicting, not empty (%zu entries, %zu bytes, %llu evictions)",
	   st.entries, st.bytes, (unsigned long long)st.evictions);
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed");
}

static void test_set_max(void)
{
	struct cache *c = cache_new(8 * MIB);
	char key[24];
	struct cache_stats st;

	for (int i = 0; i < 6000; i++) {
		snprintf(key, sizeof(key), "s%d", i);
		put_str(c, key, 1000, 100, NULL);
	}
	st = stats_of(c);
	ok(st.bytes > 4 * MIB, "filled to %zu bytes", st.bytes);
	cache_set_max(c, 2 * MIB);
	st = stats_of(c);
	is_int(st.max_bytes, 2 * MIB, "new budget");
	ok(st.bytes <= 2 * MIB, "shrunk at once to %zu bytes", st.bytes);
	is_int(live_bytes <= (long)(2 * MIB), 1, "values freed at once");
	cache_set_max(c, 1);
	is_int(stats_of(c).max_bytes, DT_CACHE_MINSIZE,
	       "budget never below the minimum");
	cache_set_max(c, 8 * MIB);
	put_str(c, "after", 0, 100, NULL);
	ok(has_str(c, "after", 0), "usable after growing again");
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed");
}

/* --- eviction order and references --- */

/* Octets one entry of this cost and key length is charged. */
static size_t charge_of(size_t klen, size_t extra)
{
	struct cache *c = cache_new(0);
	char key[DT_CACHE_KEY_MAXLEN + 1];
	size_t before = stats_of(c).bytes, after;

	memset(key, 'c', klen);
	key[klen] = 0;
	put_str(c, key, extra, 100, NULL);
	after = stats_of(c).bytes;
	cache_free(c);
	return after - before;
}

/*
 * Old entries fill 60% of the budget and half of them are read; new ones
 * then add 35%, which with the tables' growth overflows a few shards by a
 * few percent: well under the 30% never read in each. CLOCK then evicts
 * only old entries never read and every entry read survives (FIFO would
 * lose read ones first).
 */
static void test_clock(void)
{
	size_t max = DT_CACHE_MINSIZE, charge = charge_of(8, 0);
	size_t nold = max * 6 / 10 / charge, nnew = max * 35 / 100 / charge;
	struct cache *c = cache_new(max);
	size_t read_kept = 0, unread_lost = 0, new_kept = 0;
	char key[24];

	for (size_t i = 0; i < nold; i++) {
		snprintf(key, sizeof(key), "o%07zu", i);
		put_str(c, key, 0, 100, NULL);
	}
	is_int(stats_of(c).evictions, 0, "old entries all fit");
	for (size_t i = 0; i < nold; i += 2) {
		snprintf(key, sizeof(key), "o%07zu", i);
		has_str(c, key, 0);
	}
	for (size_t i = 0; i < nnew; i++) {
		snprintf(key, sizeof(key), "n%07zu", i);
		put_str(c, key, 0, 100, NULL);
	}
	struct cache_stats st = stats_of(c);
	for (size_t i = 0; i < nold; i++) {
		snprintf(key, sizeof(key), "o%07zu", i);
		if (i % 2 == 0)
			read_kept += has_str(c, key, 0);
		else
			unread_lost += !has_str(c, key, 0);
	}
	for (size_t i = 0; i < nnew; i++) {
		snprintf(key, sizeof(key), "n%07zu", i);
		new_kept += has_str(c, key, 0);
	}
	ok(st.evictions > 0, "evictions happened (%llu)",
	   (unsigned long long)st.evictions);
	is_int(read_kept, (nold + 1) / 2, "every entry read survives");
	is_int(unread_lost, st.evictions, "evictions took never-read entries");
	is_int(new_kept, nnew, "new entries kept");
	cache_free(c);
}

/* Every old entry read (all have their bit), half of them expired by the
 * time new entries push the cache over its budget: eviction takes expired
 * entries and keeps fresh ones. */
static void test_expired_first(void)
{
	size_t max = DT_CACHE_MINSIZE, charge = charge_of(8, 0);
	size_t nold = max * 6 / 10 / charge, nnew = max * 35 / 100 / charge;
	struct cache *c = cache_new(max);
	size_t fresh_kept = 0;
	char key[24];

	for (size_t i = 0; i < nold; i++) {
		snprintf(key, sizeof(key), "o%07zu", i);
		put_str(c, key, 0, i % 2 ? 1000 : 10, NULL);
		has_str(c, key, 5);
	}
	has_str(c, "clock", 20);
	for (size_t i = 0; i < nnew; i++) {
		snprintf(key, sizeof(key), "n%07zu", i);
		put_str(c, key, 0, 1000, NULL);
	}
	struct cache_stats st = stats_of(c);
	ok(st.expired > 0, "expired entries evicted (%llu)",
	   (unsigned long long)st.expired);
	is_int(st.evictions, 0, "no fresh entry evicted");
	for (size_t i = 1; i < nold; i += 2) {
		snprintf(key, sizeof(key), "o%07zu", i);
		fresh_kept += has_str(c, key, 20);
	}
	is_int(fresh_kept, nold / 2, "every fresh old entry kept");
	cache_free(c);
}

/* A reader's reference keeps a value through its eviction. */
static void test_ref_across_eviction(void)
{
	struct cache *c = cache_new(0);
	atomic_int f = 0;
	struct cache_ref r;
	char key[24];

	put_str(c, "held", 100, 100, &f);
	ok(cache_get(c, "held", 4, 0, &r), "value held");
	for (int i = 0; i < 3 * (int)(DT_CACHE_MINSIZE / 1000); i++) {
		snprintf(key, sizeof(key), "f%d", i);
		put_str(c, key, 1000, 100, NULL);
	}
	ok(!has_str(c, "held", 0), "held entry evicted");
	is_int(f, 0, "value not freed while held");
	ok(tval_is(r.val, "held", 4), "value intact while held");
	cache_unref(c, &r);
	is_int(f, 1, "value freed on the last unref");
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed");
}

/* --- threads --- */

#define STRESS_THREADS 4
#define STRESS_OPS 100000
#define STRESS_KEYS 5000
#define STRESS_HELD 4

struct stress {
	struct cache *c;
	uint64_t seed;
	size_t bad;			/* wrong values, budget overruns */
};

static size_t stress_key(uint64_t r, uint8_t *key)
{
	uint32_t k = (uint32_t)(r % STRESS_KEYS);
	size_t klen = 4 + k % 40;

	memset(key, (int)(k & 0xff), klen);
	memcpy(key, &k, sizeof(k));
	return klen;
}

static bool stress_pred(const uint8_t *key, size_t klen, void *arg)
{
	uint32_t k;

	(void)arg;
	memcpy(&k, key, sizeof(k));
	return klen > 30 && k % 97 == 0;
}

/* One operation at now (50 seconds over a thread's run; entries live 1 to
 * 20): 55% get (some kept across later operations), 30% put,
 * 10% remove, the rest stats, remove_if and set_max. */
static void stress_op(struct stress *t, uint64_t *rng, int64_t now,
		      struct cache_ref *held)
{
	uint8_t key[64];
	uint64_t r = rng_next(rng);
	size_t klen = stress_key(r, key);
	unsigned op = (unsigned)((r >> 32) % 1000);
	struct cache_ref ref;
	struct cache_stats st;

	if (op < 550) {
		if (cache_get(t->c, key, klen, now, &ref) &&
		    !tval_is(ref.val, key, klen))
			t->bad++;
		struct cache_ref *slot = &held[r % STRESS_HELD];
		cache_unref(t->c, slot);
		*slot = ref;
	} else if (op < 850) {
		struct tval *v = tval_new(key, klen, (r >> 20) % 4096, NULL);
		cache_put(t->c, key, klen, v, v->size,
			  now + 1 + (int64_t)((r >> 48) % 20), tval_free);
	} else if (op < 950) {
		cache_remove(t->c, key, klen);
	} else if (op < 997) {
		cache_stats(t->c, &st);
		t->bad += st.bytes > 4 * MIB;
	} else if (op < 999) {
		cache_remove_if(t->c, stress_pred, NULL);
	} else {
		cache_set_max(t->c, r & 1 ? 2 * MIB : 4 * MIB);
	}
}

static void *stress_run(void *arg)
{
	struct stress *t = arg;
	struct cache_ref held[STRESS_HELD] = {0};
	uint64_t rng = t->seed;

	for (int i = 0; i < STRESS_OPS; i++)
		stress_op(t, &rng, i / 2000, held);
	for (int i = 0; i < STRESS_HELD; i++)
		cache_unref(t->c, &held[i]);
	return NULL;
}

static void test_threads(void)
{
	struct cache *c = cache_new(4 * MIB);
	struct stress t[STRESS_THREADS];
	pthread_t tid[STRESS_THREADS];
	size_t bad = 0;
	int started = 0;

	for (int i = 0; i < STRESS_THREADS; i++) {
		t[i] = (struct stress){.c = c,
				       .seed = 0x9e3779b97f4a7c15ULL * (i + 1)};
		if (pthread_create(&tid[i], NULL, stress_run, &t[i]) == 0)
			started++;
	}
	is_int(started, STRESS_THREADS, "stress threads started");
	for (int i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		bad += t[i].bad;
	}
	struct cache_stats st = stats_of(c);
	is_int(bad, 0, "%d threads x %d ops: values right, budget kept",
	       STRESS_THREADS, STRESS_OPS);
	ok(st.bytes <= st.max_bytes, "within the budget after the stress");
	ok(st.hits > 0 && st.inserts > 0, "stress hit (%llu hits, %llu "
	   "inserts, %llu evictions, %llu expired)",
	   (unsigned long long)st.hits, (unsigned long long)st.inserts,
	   (unsigned long long)st.evictions, (unsigned long long)st.expired);
	cache_free(c);
	is_int(n_alloc, n_freed, "every value freed exactly once");
}

int main(void)
{
	test_siphash();
	test_basic();
	test_replace_remove();
	test_remove_if();
	test_remove_if_val();
	test_expiry();
	test_limits();
	test_nomem();
	test_budget_random();
	test_set_max();
	test_clock();
	test_expired_first();
	test_ref_across_eviction();
	test_threads();
	return done_testing();
}
