/* SPDX-License-Identifier: MIT */
/*
 * src/daemon/ratelimit.c: token buckets and connection counts of remote
 * client addresses.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>

#include "../tap.h"
#include "common/limits.h"
#include "daemon/ratelimit.h"

static struct sockaddr_in v4(const char *a)
{
	struct sockaddr_in s = {.sin_family = AF_INET};

	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

static struct sockaddr_in6 v6(const char *a)
{
	struct sockaddr_in6 s = {.sin6_family = AF_INET6};

	inet_pton(AF_INET6, a, &s.sin6_addr);
	return s;
}

/* Questions taken out of n asked at time ms. */
static unsigned take(struct ratelimit *rl, const void *sa, unsigned rate,
		     unsigned n, int64_t ms)
{
	unsigned got = 0;

	for (unsigned i = 0; i < n; i++)
		got += ratelimit_take(rl, sa, rate, ms);
	return got;
}

/* Workers share the table: threads asking from one address together get
 * one bucket's worth, not one each. */
struct asker {
	struct ratelimit *rl;
	const struct sockaddr_in *sa;
	unsigned got;
};

static void *ask(void *arg)
{
	struct asker *k = arg;

	k->got = take(k->rl, k->sa, 100, 20000, 5000);
	return NULL;
}

static unsigned threads_take(struct ratelimit *rl, const struct sockaddr_in *sa)
{
	struct asker k[4];
	pthread_t t[4];
	unsigned got = 0;

	for (int i = 0; i < 4; i++) {
		k[i] = (struct asker){.rl = rl, .sa = sa};
		pthread_create(&t[i], NULL, ask, &k[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		got += k[i].got;
	}
	return got;
}

/* The wait until the next token: what a throttled TCP client waits. */
static void test_wait(void)
{
	struct ratelimit *rl = ratelimit_new();
	struct sockaddr_in a = v4("192.0.2.1");
	const struct sockaddr *sa = (const struct sockaddr *)&a;

	is_int(take(rl, &a, 20, 20, 1000), 20, "rate 20: a full bucket of 20");
	is_int(ratelimit_wait(rl, sa, 20, 1000), 50,
	       "empty: the next token in 50 ms (1000 / 20)");
	is_int(ratelimit_wait(rl, sa, 20, 1030), 20,
	       "30 ms on: 20 ms more, and nothing taken meanwhile");
	is_int(ratelimit_wait(rl, sa, 20, 1050), 0, "at 50 ms: taken");
	is_int(ratelimit_wait(rl, sa, 20, 1050), 50,
	       "and the next one 50 ms later");
	is_int(ratelimit_wait(rl, sa, 3, 1050), 334,
	       "rate 3: a third of a second, rounded up");
	/* A client waiting as told gets tokens at the rate, no faster. */
	int64_t now = 1100;
	unsigned got = 0;
	while (now < 4100) {
		int64_t w = ratelimit_wait(rl, sa, 20, now);
		if (w == 0)
			got++;
		else
			now += w;
	}
	is_int(got, 60, "3 s of waiting as told: 60 tokens at rate 20");
	ratelimit_free(rl);
}

/* Connections per source: counted to the limit, given back, bounded. */
static void test_conns(void)
{
	struct ratelimit *rl = ratelimit_new();
	struct sockaddr_in a = v4("192.0.2.1"), b = v4("192.0.2.2");
	struct sockaddr_in6 c = v6("2001:db8:1:2::1"), d = v6("2001:db8:1:2::99"),
			    m = v6("::ffff:192.0.2.1");
	const struct sockaddr *sa = (const struct sockaddr *)&a;
	unsigned got = 0;

	for (int i = 0; i < 6; i++)
		got += ratelimit_conn_take(rl, sa, 4);
	is_int(got, 4, "limit 4: 4 of 6 connections counted");
	ok(!ratelimit_conn_take(rl, (const struct sockaddr *)&m, 4),
	   "the same address IPv4-mapped: over the same limit");
	ok(ratelimit_conn_take(rl, (const struct sockaddr *)&b, 4),
	   "another address: counted");
	ratelimit_conn_put(rl, sa);
	ok(ratelimit_conn_take(rl, sa, 4), "one closed: one more counted");
	ok(!ratelimit_conn_take(rl, sa, 4), "and no more");
	ok(ratelimit_conn_take(rl, sa, 5), "a higher limit (a reload): one more");
	got = 0;
	for (int i = 0; i < 3; i++) {
		got += ratelimit_conn_take(rl, (const struct sockaddr *)&c, 2);
		got += ratelimit_conn_take(rl, (const struct sockaddr *)&d, 2);
	}
	is_int(got, 2, "one IPv6 /64: one count");
	for (int i = 0; i < 5; i++)
		ratelimit_conn_put(rl, sa);
	ratelimit_conn_put(rl, sa); /* more than counted: ignored */
	got = 0;
	for (int i = 0; i < 6; i++)
		got += ratelimit_conn_take(rl, sa, 4);
	is_int(got, 4, "all closed (and one put too many): 4 again");

	/* Many sources, one connection each: all counted while the table has
	 * room (512 in 256 sets of 16), never more than it holds. */
	struct ratelimit *many = ratelimit_new();
	struct sockaddr_in6 s = v6("2001:db8::");
	got = 0;
	for (unsigned i = 0; i < 512; i++) {
		s.sin6_addr.s6_addr[6] = (uint8_t)(i >> 8);
		s.sin6_addr.s6_addr[7] = (uint8_t)i;
		got += ratelimit_conn_take(many, (const struct sockaddr *)&s, 1);
	}
	is_int(got, 512, "512 sources: each counted");
	for (unsigned i = 512; i < 8192; i++) {
		s.sin6_addr.s6_addr[6] = (uint8_t)(i >> 8);
		s.sin6_addr.s6_addr[7] = (uint8_t)i;
		got += ratelimit_conn_take(many, (const struct sockaddr *)&s, 1);
	}
	ok(got <= DT_DMN_REMOTE_CONN_SETS * DT_DMN_REMOTE_CONN_WAYS &&
		   got > 512,
	   "8192 sources: at most the table's %d counted (%u)",
	   DT_DMN_REMOTE_CONN_SETS * DT_DMN_REMOTE_CONN_WAYS, got);
	for (unsigned i = 0; i < 8192; i++) {
		s.sin6_addr.s6_addr[6] = (uint8_t)(i >> 8);
		s.sin6_addr.s6_addr[7] = (uint8_t)i;
		ratelimit_conn_put(many, (const struct sockaddr *)&s);
	}
	got = 0;
	for (unsigned i = 8192; i < 8192 + 512; i++) {
		s.sin6_addr.s6_addr[6] = (uint8_t)(i >> 8);
		s.sin6_addr.s6_addr[7] = (uint8_t)i;
		got += ratelimit_conn_take(many, (const struct sockaddr *)&s, 1);
	}
	is_int(got, 512, "all closed: the table empty again, 512 new ones counted");
	ratelimit_free(many);
	ratelimit_free(rl);
}

int main(void)
{
	struct ratelimit *rl = ratelimit_new();
	struct sockaddr_in a = v4("192.0.2.1"), b = v4("192.0.2.2");
	struct sockaddr_in6 c = v6("2001:db8:1:2::1"), d = v6("2001:db8:1:2::99"),
			    e = v6("2001:db8:1:3::1"), m = v6("::ffff:192.0.2.1");

	ok(rl != NULL, "a table");
	is_int(take(rl, &a, 10, 50, 1000), 10, "a burst of 50: 10 taken");
	is_int(take(rl, &a, 10, 50, 1500), 5, "half a second on: 5 more");
	is_int(take(rl, &b, 10, 50, 1500), 10, "another address: its own 10");
	is_int(take(rl, &m, 10, 5, 1500), 0,
	       "the same address IPv4-mapped: the same bucket");
	is_int(take(rl, &c, 10, 8, 2000) + take(rl, &d, 10, 8, 2000), 10,
	       "one IPv6 /64: one bucket");
	is_int(take(rl, &e, 10, 8, 2000), 8, "the next /64: another");
	is_int(take(rl, &a, 10, 50, 100000), 10,
	       "long idle: back to a full bucket, no more");
	struct sockaddr_in f = v4("192.0.2.3");
	is_int(threads_take(rl, &f), 100,
	       "4 threads asking 20000 each from one address: 100 in all");
	ratelimit_free(rl);
	test_wait();
	test_conns();
	return done_testing();
}
