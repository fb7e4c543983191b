/* SPDX-License-Identifier: MIT */
/*
 * Many clients at once, for the load and fault suite (tests/load/load.sh).
 * Each of C threads resolves names one after another until N lookups are
 * done, all starting together, and the program prints one line:
 *
 *   total=N ok=N fail=N unavailable=N other=N hung=N p50_ms=X p99_ms=X
 *   max_ms=X
 *
 *   ok           an address (secure or insecure: dt_getaddrinfo's 0)
 *   fail         EAI_FAIL / EAI_NONAME / EAI_NODATA / EAI_AGAIN: an answer
 *                that says no
 *   unavailable  DT_EAI_UNAVAILABLE (libdnstrust only: through glibc an
 *                unreachable daemon is an EAI_AGAIN like any other, so
 *                it counts as "fail")
 *   other        anything else
 *
 * usage: loadclient -m lib|nss [-s SOCKET] [-c THREADS] [-n LOOKUPS]
 *                   [-t TIMEOUT_MS] [-d DEADLINE_MS] [-i PAUSE_MS]
 *                   [-T SECONDS] NAME...
 *
 *   -m lib   dt_getaddrinfo_ex on SOCKET with TIMEOUT_MS (libdnstrust)
 *   -m nss   getaddrinfo(3): whatever nsswitch.conf says (the NSS module)
 *   -d       the whole run must end within DEADLINE_MS: a lookup still
 *            running then is reported as "hung=N" and the exit status is 3
 *   -i       each thread pauses PAUSE_MS after each lookup
 *   -T       no lookup starts after SECONDS from the start: N is then an
 *            upper bound, and total= counts the lookups made
 *
 * Names are taken in turn. Exit 0 when the run ended in time.
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dnstrust.h"

enum outcome { OUT_OK, OUT_FAIL, OUT_UNAVAILABLE, OUT_OTHER, OUT_N };

struct run {
	int nss;
	const char *socket;
	unsigned timeout_ms;
	unsigned interval_ms;	/* pause after each lookup */
	double stop_at;		/* no lookup starts after (0: none) */
	char **names;
	int nnames;
	long total;
	atomic_long next;
	atomic_long done;
	atomic_long count[OUT_N];
	double *ms;		/* per lookup, indexed by its number */
	pthread_barrier_t start;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static enum outcome classify(int rc)
{
	switch (rc) {
	case 0:
		return OUT_OK;
	case DT_EAI_UNAVAILABLE:
		return OUT_UNAVAILABLE;
	case EAI_FAIL:
	case EAI_NONAME:
	case EAI_NODATA:
	case EAI_AGAIN:
		return OUT_FAIL;
	default:
		return OUT_OTHER;
	}
}

static int lookup(struct run *r, dt_ctx_t *ctx, const char *name)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	int rc;

	if (r->nss) {
		rc = getaddrinfo(name, NULL, &hints, &res);
		if (rc == 0)
			freeaddrinfo(res);
		return rc;
	}
	rc = dt_getaddrinfo_ex(ctx, name, NULL, &hints, 0, &res, NULL);
	if (rc == 0)
		dt_freeaddrinfo(res);
	return rc;
}

static void *worker(void *arg)
{
	struct run *r = arg;
	dt_ctx_t *ctx = NULL;
	long i;

	if (!r->nss && (dt_ctx_new(&ctx) != 0 ||
			dt_ctx_set_socket(ctx, r->socket) != 0 ||
			dt_ctx_set_timeout(ctx, r->timeout_ms) != 0)) {
		fprintf(stderr, "loadclient: cannot make a context\n");
		exit(2);
	}
	pthread_barrier_wait(&r->start);
	while ((i = atomic_fetch_add(&r->next, 1)) < r->total) {
		double t0 = now_ms();

		if (r->stop_at && t0 > r->stop_at) {
			/* Out of time: the rest are not asked at all. */
			atomic_fetch_add(&r->done, r->total - i);
			break;
		}
		int rc = lookup(r, ctx, r->names[i % r->nnames]);

		r->ms[i] = now_ms() - t0;
		atomic_fetch_add(&r->count[classify(rc)], 1);
		atomic_fetch_add(&r->done, 1);
		if (r->interval_ms)
			usleep(r->interval_ms * 1000);
	}
	dt_ctx_free(ctx);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void report(struct run *r, long hung)
{
	long n = atomic_load(&r->done);
	double *v = malloc(sizeof(*v) * (n ? n : 1));
	long k = 0;

	for (long i = 0; i < r->total && k < n; i++)
		if (r->ms[i] >= 0)
			v[k++] = r->ms[i];
	qsort(v, k, sizeof(*v), cmp_double);
	long asked = 0;

	for (int o = 0; o < OUT_N; o++)
		asked += atomic_load(&r->count[o]);
	printf("total=%ld ok=%ld fail=%ld unavailable=%ld other=%ld hung=%ld "
	       "p50_ms=%.1f p99_ms=%.1f max_ms=%.1f\n",
	       asked + hung, atomic_load(&r->count[OUT_OK]),
	       atomic_load(&r->count[OUT_FAIL]),
	       atomic_load(&r->count[OUT_UNAVAILABLE]),
	       atomic_load(&r->count[OUT_OTHER]), hung,
	       k ? v[k / 2] : 0.0, k ? v[(k * 99) / 100] : 0.0,
	       k ? v[k - 1] : 0.0);
	fflush(stdout);
	free(v);
}

static int usage(void)
{
	fprintf(stderr, "usage: loadclient -m lib|nss [-s SOCKET] [-c THREADS]"
			" [-n LOOKUPS] [-t TIMEOUT_MS] [-d DEADLINE_MS]"
			" [-i PAUSE_MS] [-T SECONDS]"
			" NAME...\n");
	return 2;
}

static int parse(struct run *r, long *threads, long *deadline, int argc,
		 char **argv)
{
	int o;

	while ((o = getopt(argc, argv, "m:s:c:n:t:d:i:T:")) != -1) {
		switch (o) {
		case 'm': r->nss = strcmp(optarg, "nss") == 0; break;
		case 's': r->socket = optarg; break;
		case 'c': *threads = atol(optarg); break;
		case 'n': r->total = atol(optarg); break;
		case 't': r->timeout_ms = (unsigned)atol(optarg); break;
		case 'd': *deadline = atol(optarg); break;
		case 'i': r->interval_ms = (unsigned)atol(optarg); break;
		case 'T': r->stop_at = atol(optarg) * 1e3; break;
		default: return -1;
		}
	}
	r->names = argv + optind;
	r->nnames = argc - optind;
	if (r->nnames < 1 || *threads < 1 || *threads > 20000 ||
	    r->total < 1 || r->total > 10000000)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct run r = {.socket = "/run/dnstrust/socket",
			       .timeout_ms = 5000, .total = 1};
	long threads = 1, deadline = 0;
	pthread_attr_t attr;
	pthread_t *tid;

	if (parse(&r, &threads, &deadline, argc, argv) < 0)
		return usage();
	if (threads > r.total)
		threads = r.total;
	r.ms = malloc(sizeof(*r.ms) * r.total);
	tid = calloc(threads, sizeof(*tid));
	if (!r.ms || !tid)
		return 2;
	for (long i = 0; i < r.total; i++)
		r.ms[i] = -1;
	pthread_barrier_init(&r.start, NULL, (unsigned)threads + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (long i = 0; i < threads; i++)
		if (pthread_create(&tid[i], &attr, worker, &r) != 0) {
			fprintf(stderr, "loadclient: thread %ld: %s\n", i,
				strerror(errno));
			return 2;
		}
	double t0 = now_ms();

	if (r.stop_at)
		r.stop_at += t0;
	pthread_barrier_wait(&r.start);
	while (atomic_load(&r.done) < r.total) {
		if (deadline && now_ms() - t0 > deadline) {
			long hung = r.total - atomic_load(&r.done);

			report(&r, hung);
			_exit(3);
		}
		usleep(5000);
	}
	report(&r, 0);
	return 0;
}
