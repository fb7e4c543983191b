/* SPDX-License-Identifier: MIT */
/*
 * src/daemon/ratelimit.c: token buckets of remote client addresses.
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
	return done_testing();
}
