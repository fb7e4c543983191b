/* SPDX-License-Identifier: MIT */
/*
 * Micro-benchmark of src/cache: gets per second (hit-heavy: 95% of the
 * keys asked for are present) and puts per second (each replacing a
 * present key), with 1 and 2 threads sharing one cache.
 *
 * Usage: cache_bench [seconds per run [keys]]   (defaults: 2, 100000)
 *
 * Keys look like the daemon's: a kind octet, type, class and a name of
 * about 20 octets. Values are not allocated (free function NULL) and
 * declare a cost of 300 octets, a typical wire-ready answer, so the
 * figures are the cache's own cost: hashing, locking, lookup, CLOCK
 * bookkeeping and, for puts, one malloc and one free per entry (plus making
 * the key, a few ns). Throughput is wall
 * clock; CPU/op is the threads' CPU time per operation, the steadier
 * figure on a shared machine.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache/cache.h"

#define MISS_PERCENT 5
#define VAL_COST 300
#define BUDGET (64u * 1024 * 1024)

enum op { OP_GET, OP_PUT };

struct run {
	struct cache *c;
	enum op op;
	double secs;
	uint64_t seed;
	uint64_t ops, hits;
	double cpu;			/* the thread's CPU seconds */
	pthread_barrier_t *start;
};

static int dummy_value;
static uint32_t nkeys = 100000;

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static double clock_sec(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_sec(void)
{
	return clock_sec(CLOCK_MONOTONIC);
}

/* Decimal digits of i into buf (no NUL); returns their number. */
static size_t put_digits(uint32_t i, char *buf)
{
	char tmp[10];
	size_t n = 0;

	do
		tmp[n++] = (char)('0' + i % 10);
	while ((i /= 10) != 0);
	for (size_t j = 0; j < n; j++)
		buf[j] = tmp[n - 1 - j];
	return n;
}

/* Key i: 'V', type A, class IN, then "host<i>.example.com" in wire form. */
static size_t make_key(uint32_t i, uint8_t *key)
{
	size_t n = put_digits(i, (char *)key + 10);

	memcpy(key, "V\0\1\0\1", 5);
	key[5] = (uint8_t)(4 + n);
	memcpy(key + 6, "host", 4);
	memcpy(key + 10 + n, "\7example\3com", 13);
	return 10 + n + 13;
}

static void run_ops(struct run *r)
{
	uint64_t rng = r->seed;
	double end = now_sec() + r->secs;
	uint8_t key[64];

	for (;;) {
		for (int i = 0; i < 1024; i++) {
			uint64_t x = rng_next(&rng);
			uint32_t k = (uint32_t)(x % nkeys);
			struct cache_ref ref;

			if (r->op == OP_PUT) {
				cache_put(r->c, key, make_key(k, key),
					  &dummy_value, VAL_COST, 1000000,
					  NULL);
				continue;
			}
			if ((x >> 32) % 100 < MISS_PERCENT)
				k += nkeys;
			if (cache_get(r->c, key, make_key(k, key), 0, &ref))
				r->hits++;
			cache_unref(r->c, &ref);
		}
		r->ops += 1024;
		if (now_sec() >= end)
			break;
	}
}

static void *run_thread(void *arg)
{
	struct run *r = arg;

	double cpu0;

	pthread_barrier_wait(r->start);
	cpu0 = clock_sec(CLOCK_THREAD_CPUTIME_ID);
	run_ops(r);
	r->cpu = clock_sec(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return NULL;
}

static void bench(struct cache *c, enum op op, int nthreads, double secs)
{
	struct run runs[2];
	pthread_t tid[2];
	pthread_barrier_t start;
	uint64_t ops = 0, hits = 0;
	double t0, t1, cpu = 0;

	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	for (int i = 0; i < nthreads; i++) {
		runs[i] = (struct run){.c = c, .op = op, .secs = secs,
				       .seed = 0x9e3779b97f4a7c15ULL * (i + 1),
				       .start = &start};
		pthread_create(&tid[i], NULL, run_thread, &runs[i]);
	}
	pthread_barrier_wait(&start);
	t0 = now_sec();
	for (int i = 0; i < nthreads; i++) {
		pthread_join(tid[i], NULL);
		ops += runs[i].ops;
		hits += runs[i].hits;
		cpu += runs[i].cpu;
	}
	t1 = now_sec();
	pthread_barrier_destroy(&start);
	printf("%-4s %d thread%s  %7.2f M/s  %6.1f ns CPU/op",
	       op == OP_GET ? "get" : "put", nthreads, nthreads > 1 ? "s" : " ",
	       ops / (t1 - t0) / 1e6, cpu * 1e9 / ops);
	if (op == OP_GET)
		printf("  (%.1f%% hits)", 100.0 * hits / ops);
	printf("\n");
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0;
	struct cache *c;
	struct cache_stats st;
	uint8_t key[64];

	if (argc > 2)
		nkeys = (uint32_t)strtoul(argv[2], NULL, 10);
	c = cache_new(BUDGET);
	if (!c || secs <= 0 || nkeys == 0) {
		fprintf(stderr, "usage: cache_bench [seconds [keys]]\n");
		return 1;
	}
	for (uint32_t i = 0; i < nkeys; i++)
		cache_put(c, key, make_key(i, key), &dummy_value, VAL_COST,
			  1000000, NULL);
	cache_stats(c, &st);
	printf("cache_bench: %u keys, %zu entries, %.1f MiB of %.0f MiB, "
	       "%.1f s per run\n", nkeys, st.entries, st.bytes / 1048576.0,
	       st.max_bytes / 1048576.0, secs);
	bench(c, OP_GET, 1, secs);
	bench(c, OP_GET, 2, secs);
	bench(c, OP_PUT, 1, secs);
	bench(c, OP_PUT, 2, secs);
	cache_free(c);
	return 0;
}
