/* SPDX-License-Identifier: MIT */
/*
 * dt_getaddrinfo through dnstrustd's socket against glibc's getaddrinfo
 * through a nameserver, for a name both have cached, in the same run:
 * rounds alternate between the two so that drift in the machine's load
 * touches both alike. Prints the microseconds per call of each and their
 * ratio. bench/gai.sh sets the scene (the lab, dnstrustd, a private
 * /etc/resolv.conf naming the lab's Unbound).
 *
 * usage: gai_bench SOCKET NAME [CALLS]   (CALLS per function, default
 *        20000, in rounds of 1000)
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "dnstrust.h"

#define ROUND 1000

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static const struct addrinfo hints = {.ai_family = AF_UNSPEC,
				      .ai_socktype = SOCK_STREAM};

/* One round of n calls; returns the microseconds, or -1 on a failure. */
static double round_dt(dt_ctx_t *ctx, const char *name, int n)
{
	double t0 = now_us();

	for (int i = 0; i < n; i++) {
		struct addrinfo *res;
		if (dt_getaddrinfo_ex(ctx, name, NULL, &hints, 0, &res, NULL))
			return -1;
		dt_freeaddrinfo(res);
	}
	return now_us() - t0;
}

static double round_glibc(const char *name, int n)
{
	double t0 = now_us();

	for (int i = 0; i < n; i++) {
		struct addrinfo *res;
		if (getaddrinfo(name, NULL, &hints, &res))
			return -1;
		freeaddrinfo(res);
	}
	return now_us() - t0;
}

static int count(const struct addrinfo *ai)
{
	int n = 0;

	for (; ai; ai = ai->ai_next)
		n++;
	return n;
}

int main(int argc, char **argv)
{
	dt_ctx_t *ctx;
	struct addrinfo *a, *b;
	enum dt_status st;
	double t_dt = 0, t_glibc = 0;
	int calls = argc > 3 ? atoi(argv[3]) : 20000;

	if (argc < 3 || calls < ROUND || dt_ctx_new(&ctx) ||
	    dt_ctx_set_socket(ctx, argv[1])) {
		fprintf(stderr, "usage: gai_bench SOCKET NAME [CALLS >= %d]\n",
			ROUND);
		return 64;
	}
	/* Both caches warm, and both answers alike. */
	if (dt_getaddrinfo_ex(ctx, argv[2], NULL, &hints, 0, &a, &st) ||
	    getaddrinfo(argv[2], NULL, &hints, &b)) {
		fprintf(stderr, "gai_bench: %s does not resolve both ways\n",
			argv[2]);
		return 1;
	}
	printf("name %s: dnstrust %d addresses (%s), glibc %d addresses\n",
	       argv[2], count(a), dt_status_str(st), count(b));
	dt_freeaddrinfo(a);
	freeaddrinfo(b);
	for (int done = 0; done < calls; done += ROUND) {
		double d = round_dt(ctx, argv[2], ROUND);
		double g = round_glibc(argv[2], ROUND);
		if (d < 0 || g < 0) {
			fprintf(stderr, "gai_bench: a call failed\n");
			return 1;
		}
		t_dt += d;
		t_glibc += g;
	}
	printf("calls %d each, AF_UNSPEC, SOCK_STREAM\n", calls);
	printf("dt_getaddrinfo (dnstrustd socket, cached): %.1f us/call\n",
	       t_dt / calls);
	printf("getaddrinfo (glibc, nameserver cached):    %.1f us/call\n",
	       t_glibc / calls);
	printf("ratio dnstrust/glibc: %.2f\n", t_dt / t_glibc);
	dt_ctx_free(ctx);
	return 0;
}
