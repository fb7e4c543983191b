/* SPDX-License-Identifier: MIT */
/*
 * One validated lookup path in a fresh process, for bench/inproc.sh:
 * the time of the first answer for NAME (cold: empty cache, the chain of
 * trust fetched and validated), the median of the next REPS (warm: from
 * the cache), and what the process grew by (its peak resident set,
 * VmHWM, after the lookups, minus before the library was first called).
 *
 *   inproc_bench inproc CONF NAME [REPS]      libdnstrust,
 *                                             DT_MODE_INPROCESS, CONF as
 *                                             dnstrust.conf
 *   inproc_bench daemon SOCKET NAME [REPS]    libdnstrust through
 *                                             dnstrustd at SOCKET
 *   inproc_bench unbound RESOLV ANCHOR NAME [REPS]
 *                                             libunbound's ub_resolve,
 *                                             forwarding to the servers
 *                                             of RESOLV, ANCHOR as its
 *                                             trust anchor file
 *
 * Each asks NAME type A, and checks the answer is secure with data
 * (libunbound: secure and havedata). Prints one line:
 *     PATH cold_us=N warm_us=N rss_kib=N
 * and exits 1 when an answer was not secure. Nothing here asserts a
 * figure: it is a benchmark. With BENCH_SMAPS=PREFIX in the
 * environment, /proc/self/smaps is copied to PREFIX.before (before the
 * library is first called) and PREFIX.after (after the lookups), for
 * bench/smaps_diff.py: where the pages are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.h"
#include "dnstrust.h"
#ifdef HAVE_LIBUNBOUND
#include <unbound.h>
#endif

#define REPS_MAX 1000

/* VmHWM of this process, in KiB. */
static long peak_kib(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			v = atol(line + 6);
	if (f)
		fclose(f);
	return v;
}

/* /proc/self/smaps to $BENCH_SMAPS.suffix, when set. */
static void smaps_copy(const char *suffix)
{
	const char *prefix = getenv("BENCH_SMAPS");
	char path[4096], buf[8192];
	FILE *in, *out;
	size_t n;

	if (!prefix || !*prefix ||
	    (size_t)snprintf(path, sizeof(path), "%s.%s", prefix, suffix) >=
		    sizeof(path))
		return;
	in = fopen("/proc/self/smaps", "r");
	out = in ? fopen(path, "w") : NULL;
	while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (out)
		fclose(out);
	if (in)
		fclose(in);
}

static dt_ctx_t *ctx;

static int ask_dt(const char *name)
{
	dt_result_t *r = NULL;
	int ok = !dt_query(ctx, name, 1, 1, 0, &r) &&
		 dt_result_status(r) == DT_STATUS_SECURE &&
		 dt_result_rcode(r) == 0 && dt_result_count(r, DT_SECTION_ANSWER);

	dt_result_free(r);
	return ok;
}

#ifdef HAVE_LIBUNBOUND
static struct ub_ctx *ub;

static int ask_ub(const char *name)
{
	struct ub_result *r = NULL;
	int ok = !ub_resolve(ub, name, 1, 1, &r) && r->secure && r->havedata;

	ub_resolve_free(r);
	return ok;
}
#endif

int main(int argc, char **argv)
{
	int (*ask)(const char *) = ask_dt;
	const char *name;
	int reps, bad = 0;
	double t0, cold, warm[REPS_MAX];
	long base;

	smaps_copy("before");
	base = peak_kib();

	if (argc >= 4 && !strcmp(argv[1], "inproc")) {
		if (dt_ctx_new(&ctx) || dt_ctx_set_config(ctx, argv[2]) ||
		    dt_ctx_set_mode(ctx, DT_MODE_INPROCESS))
			return 2;
		name = argv[3];
		reps = argc > 4 ? atoi(argv[4]) : 100;
	} else if (argc >= 4 && !strcmp(argv[1], "daemon")) {
		if (dt_ctx_new(&ctx) || dt_ctx_set_socket(ctx, argv[2]))
			return 2;
		name = argv[3];
		reps = argc > 4 ? atoi(argv[4]) : 100;
#ifdef HAVE_LIBUNBOUND
	} else if (argc >= 5 && !strcmp(argv[1], "unbound")) {
		ub = ub_ctx_create();
		if (!ub || ub_ctx_resolvconf(ub, argv[2]) ||
		    ub_ctx_add_ta_file(ub, argv[3]) ||
		    ub_ctx_set_option(ub, "do-ip6:", "no") ||
		    /* the lab's servers are on loopback */
		    ub_ctx_set_option(ub, "do-not-query-localhost:", "no"))
			return 2;
		ask = ask_ub;
		name = argv[4];
		reps = argc > 5 ? atoi(argv[5]) : 100;
#endif
	} else {
		fprintf(stderr, "usage: inproc_bench inproc CONF NAME [REPS] | "
				"daemon SOCKET NAME [REPS] | unbound RESOLV "
				"ANCHOR NAME [REPS]\n");
		return 2;
	}
	if (reps < 1 || reps > REPS_MAX)
		reps = 100;
	t0 = now_us();
	bad += !ask(name);
	cold = now_us() - t0;
	for (int i = 0; i < reps; i++) {
		t0 = now_us();
		bad += !ask(name);
		warm[i] = now_us() - t0;
	}
	qsort(warm, (size_t)reps, sizeof(warm[0]), cmp_double);
	smaps_copy("after");
	printf("%s cold_us=%.0f warm_us=%.1f rss_kib=%ld\n", argv[1], cold,
	       warm[reps / 2], peak_kib() - base);
#ifdef HAVE_LIBUNBOUND
	if (ub)
		ub_ctx_delete(ub);
#endif
	dt_ctx_free(ctx);
	return bad ? 1 : 0;
}
