/* SPDX-License-Identifier: MIT */
/*
 * dt_getaddrinfo through dnstrustd's socket against glibc's getaddrinfo
 * through a nameserver, for a name both have cached, in the same run:
 * rounds of 1000 calls alternate between the two so that drift in the
 * machine's load touches both alike. Prints the microseconds per call of
 * each (the median round, the fastest, and the mean) and the ratio of the
 * medians: a round slowed by another process on the machine moves the
 * mean, hardly the median. bench/gai.sh sets the scene (the lab,
 * dnstrustd, a private /etc/resolv.conf naming the lab's Unbound).
 *
 * usage: gai_bench SOCKET NAME [CALLS]   (CALLS per function, default
 *        20000, in rounds of 1000)
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bench_time.h"
#include "dnstrust.h"

#define ROUND 1000

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

/* Microseconds per call: median round, fastest round, mean. */
static void report(const char *what, double *rounds, int n, double *median)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += rounds[i];
	qsort(rounds, (size_t)n, sizeof(*rounds), cmp_double);
	*median = rounds[n / 2] / ROUND;
	printf("%-44s median %6.1f  min %6.1f  mean %6.1f us/call\n", what,
	       *median, rounds[0] / ROUND, sum / n / ROUND);
}

/* n rounds of each, alternating; 0, or 1 when a call failed. */
static int rounds(dt_ctx_t *ctx, const char *name, int n)
{
	double *rd = calloc((size_t)n, sizeof(double));
	double *rg = calloc((size_t)n, sizeof(double));
	double md, mg;
	int err = !rd || !rg;

	for (int i = 0; i < n && !err; i++) {
		rd[i] = round_dt(ctx, name, ROUND);
		rg[i] = round_glibc(name, ROUND);
		err = rd[i] < 0 || rg[i] < 0;
	}
	if (err) {
		fprintf(stderr, "gai_bench: a call failed\n");
	} else {
		printf("%d rounds of %d calls each, AF_UNSPEC, SOCK_STREAM\n",
		       n, ROUND);
		report("dt_getaddrinfo (dnstrustd socket, cached):", rd, n,
		       &md);
		report("getaddrinfo (glibc, nameserver cached):", rg, n, &mg);
		printf("ratio dnstrust/glibc (medians): %.2f\n", md / mg);
	}
	free(rd);
	free(rg);
	return err;
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
	int calls = argc > 3 ? atoi(argv[3]) : 20000, err;

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
	err = rounds(ctx, argv[2], calls / ROUND);
	dt_ctx_free(ctx);
	return err;
}
