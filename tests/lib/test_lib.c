/* SPDX-License-Identifier: MIT */
/*
 * libdnstrust against a fake daemon (fake.c) served by a thread of this
 * test on a socket in a temporary directory: dt_query with every status
 * and flag, broken answers, silence, no socket, the pool (a descriptor
 * the program took back is left alone) and the
 * reconnect, threads and fork, dt_trust_available, dt_res_query,
 * dt_tlsa, dt_sshfp; and a fake daemon run as uid 65534 by a child,
 * which must be refused (the test runs as root). dt_getaddrinfo is
 * test_gai.c's.
 *
 * "test_lib --fake-daemon PATH" is that child, after exec.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dnstrust.h"
#include "fake.h"
#include "lib/internal.h"
#include "tap.h"

static char dir[64], sock[128];
static struct fake *fake;
static dt_ctx_t *ctx;

/* --- helpers --- */

static int64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* --- contexts, arguments, strings --- */

static void test_ctx(void)
{
	dt_ctx_t *c = NULL;
	char longpath[200];

	is_int(dt_ctx_new(NULL), DT_ERR_INVALID, "dt_ctx_new(NULL)");
	is_int(dt_ctx_new(&c), 0, "dt_ctx_new");
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	is_int(dt_ctx_set_socket(c, longpath), DT_ERR_INVALID,
	       "a socket path too long for sun_path");
	is_int(dt_ctx_set_socket(c, NULL), DT_ERR_INVALID, "no socket path");
	is_int(dt_ctx_set_timeout(c, 0), DT_ERR_INVALID, "timeout 0");
	is_int(dt_ctx_set_timeout(c, 600001), DT_ERR_INVALID,
	       "timeout over 600000 ms");
	is_int(dt_ctx_set_timeout(c, 600000), 0, "timeout 600000 ms");
	is_int(dt_ctx_set_daemon_uid(c, (uid_t)-1), DT_ERR_INVALID,
	       "daemon uid -1");
	is_int(dt_ctx_set_fallback(c, false), 0, "fallback off");
	dt_ctx_free(c);
	dt_ctx_free(NULL);
	ok(dt_ctx_default() == dt_ctx_default(), "one default context");
	dt_ctx_free(dt_ctx_default()); /* ignored */
	ok(dt_ctx_default() != NULL,
	   "the default context survives dt_ctx_free");

	int all_named = strcmp(dt_error_str(DT_OK), "success") == 0;
	for (int e = DT_ERR_SERVFAIL; e <= DT_ERR_UNAVAILABLE; e++)
		all_named &= strcmp(dt_error_str(e), "unknown error") != 0;
	ok(all_named, "dt_error_str names every error");
	is_str(dt_error_str(-99), "unknown error", "dt_error_str(-99)");
	is_str(dt_status_str(DT_STATUS_SECURE), "secure", "status text");
	is_str(dt_status_str(DT_STATUS_UNVALIDATED), "unvalidated",
	       "status text unvalidated");
	is_str(dt_status_str((enum dt_status)42), "none", "unknown status");
	ok(strstr(dt_gai_strerror(DT_EAI_UNAVAILABLE), "dnstrustd") != NULL,
	   "dt_gai_strerror(DT_EAI_UNAVAILABLE)");
	ok(strstr(dt_gai_strerror(DT_EAI_NOT_SECURE), "secure") != NULL,
	   "dt_gai_strerror(DT_EAI_NOT_SECURE)");
	is_str(dt_gai_strerror(EAI_NONAME), gai_strerror(EAI_NONAME),
	       "dt_gai_strerror falls back to gai_strerror");
}

/* --- dt_query --- */

static void test_query_secure(void)
{
	dt_result_t *r = NULL;
	struct fake_seen s;
	const char *text = "x";
	dt_rr_t rr;
	char buf[128];
	size_t len;

	is_int(dt_query(ctx, "secure.test.", 1, 1, 0, &r), 0, "secure A");
	fake_seen(fake, &s);
	is_int(s.status_opt_len, 1, "the query carries the status option");
	is_int(s.status_opt_version, 1, "with the protocol version");
	ok(!(s.flags & 0x0010) && !(s.edns_flags & 0x8000),
	   "without flags: CD=0, DO=0");
	if (!r)
		return;
	is_int(dt_result_rcode(r), 0, "rcode NOERROR");
	is_int(dt_result_status(r), DT_STATUS_SECURE, "status secure");
	is_int(dt_last_status(), DT_STATUS_SECURE, "dt_last_status secure");
	is_int(dt_result_ede(r, &text), -1, "no EDE");
	is_str(text, "", "no EDE text");
	ok(!dt_result_cached(r), "not from the cache");
	is_int(dt_result_count(r, DT_SECTION_ANSWER), 2, "two answers");
	is_int(dt_result_count(r, DT_SECTION_AUTHORITY), 0, "no authority");
	is_int(dt_result_count(r, (enum dt_section)7), 0, "bad section: 0");
	is_int(dt_result_rr(r, DT_SECTION_ANSWER, 0, &rr), 0, "first record");
	is_str(rr.owner, "secure.test.", "its owner");
	ok(rr.type == 1 && rr.rclass == 1 && rr.ttl == 300 && rr.rdlen == 4 &&
		   !memcmp(rr.rdata, "\xc0\x00\x02\x01", 4),
	   "its type, class, TTL and RDATA");
	is_int(dt_result_rr(r, DT_SECTION_ANSWER, 2, &rr), DT_ERR_INVALID,
	       "no third record");
	is_int(dt_result_rr_text(r, DT_SECTION_ANSWER, 1, buf, sizeof(buf)),
	       (int)strlen("secure.test.\t300\tIN\tA\t192.0.2.11"),
	       "record text length");
	is_str(buf, "secure.test.\t300\tIN\tA\t192.0.2.11", "record text");
	is_int(dt_result_rr_text(r, DT_SECTION_ANSWER, 1, buf, 5),
	       (int)strlen("secure.test.\t300\tIN\tA\t192.0.2.11"),
	       "cut text: the full length, as snprintf");
	is_str(buf, "secu", "cut text");
	is_int(dt_result_rr_text(r, DT_SECTION_ANSWER, 1, NULL, 0), 32,
	       "only the length");
	const uint8_t *w = dt_result_wire(r, &len);
	ok(w && len > 12 && (w[3] & 0x20) && (w[2] & 0x80),
	   "the raw message, QR and AD set");
	dt_result_free(r);
	dt_result_free(NULL);
}

static void test_query_flags(void)
{
	dt_result_t *r = NULL;
	struct fake_seen s;

	is_int(dt_query(ctx, "secure.test", 1, 1, DT_FLAG_DNSSEC, &r), 0,
	       "a relative name, DT_FLAG_DNSSEC");
	fake_seen(fake, &s);
	ok(s.edns_flags & 0x8000, "DT_FLAG_DNSSEC sets DO");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "secure.test", 1, 1, DT_FLAG_RETURN_BOGUS, &r), 0,
	       "DT_FLAG_RETURN_BOGUS");
	fake_seen(fake, &s);
	ok(s.flags & 0x0010, "DT_FLAG_RETURN_BOGUS sets CD");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "secure.test", 1, 1, DT_FLAG_REQUIRE_SECURE, &r),
	       0, "DT_FLAG_REQUIRE_SECURE on a secure answer");
	dt_result_free(r);
}

static void test_query_statuses(void)
{
	dt_result_t *r = NULL;
	const char *text;

	is_int(dt_query(ctx, "insecure.test", 1, 1, 0, &r), 0, "insecure A");
	is_int(dt_result_status(r), DT_STATUS_INSECURE, "status insecure");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "insecure.test", 1, 1, DT_FLAG_REQUIRE_SECURE, &r),
	       DT_ERR_NOT_SECURE, "insecure with DT_FLAG_REQUIRE_SECURE");
	ok(r == NULL, "no result written on error");
	is_int(dt_last_status(), DT_STATUS_INSECURE,
	       "dt_last_status tells why: insecure");
	is_int(dt_query(ctx, "bogus.test", 1, 1, 0, &r), DT_ERR_BOGUS,
	       "bogus A: DT_ERR_BOGUS");
	is_int(dt_last_status(), DT_STATUS_BOGUS, "dt_last_status bogus");
	is_int(dt_query(ctx, "bogus.test", 1, 1, DT_FLAG_RETURN_BOGUS, &r), 0,
	       "bogus A with DT_FLAG_RETURN_BOGUS");
	is_int(dt_result_status(r), DT_STATUS_BOGUS, "status bogus");
	is_int(dt_result_ede(r, &text), 6, "EDE 6");
	is_str(text, "fake: RRSIG over bogus/A does not verify", "EDE text");
	is_int(dt_result_count(r, DT_SECTION_ANSWER), 1, "the bogus data");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "bogus.test", 1, 1,
			DT_FLAG_RETURN_BOGUS | DT_FLAG_REQUIRE_SECURE, &r),
	       DT_ERR_NOT_SECURE, "bogus, returned, but secure required");
	is_int(dt_query(ctx, "nx.test", 1, 1, 0, &r), 0, "NXDOMAIN");
	is_int(dt_result_rcode(r), 3, "rcode 3");
	is_int(dt_result_status(r), DT_STATUS_SECURE, "a secure denial");
	is_int(dt_result_count(r, DT_SECTION_AUTHORITY), 1, "with its SOA");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "nodata.test", 1, 1, 0, &r), 0, "NODATA");
	ok(dt_result_rcode(r) == 0 && !dt_result_count(r, DT_SECTION_ANSWER),
	   "NOERROR without answers");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "indet.test", 1, 1, 0, &r), 0, "indeterminate");
	is_int(dt_result_rcode(r), 2, "SERVFAIL");
	is_int(dt_result_status(r), DT_STATUS_INDETERMINATE,
	       "status indeterminate");
	is_int(dt_result_ede(r, NULL), 22, "EDE 22");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "cached.test", 1, 1, 0, &r), 0, "cached");
	ok(dt_result_cached(r), "the cache bit");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "refused.test", 1, 1, 0, &r), 0, "REFUSED");
	is_int(dt_result_rcode(r), 5, "rcode 5");
	is_int(dt_result_status(r), DT_STATUS_NONE, "status none");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "big.test", 1, 1, 0, &r), 0,
	       "an answer larger than 4 KiB");
	is_int(dt_result_count(r, DT_SECTION_ANSWER), 300, "300 records");
	dt_result_free(r);
	r = NULL;
	is_int(dt_query(ctx, "version.dnstrust.", 3, 16, 0, &r), 0, "CH TXT");
	is_int(dt_result_status(r), DT_STATUS_NONE, "administrative: none");
	dt_result_free(r);
}

static void test_query_broken(void)
{
	static const char *const broken[] = {
		"cut.test",	"garbage.test",	  "short.test",
		"wrongid.test", "wrongname.test", "badstatus.test",
		"noad.test",
	};
	dt_result_t *r = NULL;
	dt_ctx_t *quick = NULL;

	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++)
		is_int(dt_query(ctx, broken[i], 1, 1, 0, &r), DT_ERR_PROTOCOL,
		       "%s: DT_ERR_PROTOCOL", broken[i]);
	is_int(dt_query(ctx, "close.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "closed without an answer: DT_ERR_UNAVAILABLE");
	dt_ctx_new(&quick);
	dt_ctx_set_socket(quick, sock);
	dt_ctx_set_timeout(quick, 300);
	int64_t t0 = ms_now();
	is_int(dt_query(quick, "silent.test", 1, 1, 0, &r), DT_ERR_TIMEOUT,
	       "silence: DT_ERR_TIMEOUT");
	int64_t ms = ms_now() - t0;
	ok(ms >= 250 && ms < 2000, "after the timeout (%lld ms)",
	   (long long)ms);
	is_int(dt_query(quick, "secure.test", 1, 1, 0, &r), 0,
	       "the next question gets its own answer");
	is_int(dt_result_count(r, DT_SECTION_ANSWER), 2, "the right one");
	dt_result_free(r);
	r = NULL;
	dt_ctx_free(quick);
	is_int(dt_query(ctx, "secure.test", 1, 1, 0, &r), 0,
	       "and the daemon is fine");
	dt_result_free(r);
}

static void test_query_args(void)
{
	dt_result_t *r = NULL;
	char label[80];

	memset(label, 'a', 70);
	strcpy(label + 70, ".test");
	is_int(dt_query(ctx, NULL, 1, 1, 0, &r), DT_ERR_INVALID, "no name");
	is_int(dt_query(ctx, "a..b", 1, 1, 0, &r), DT_ERR_INVALID,
	       "an empty label");
	is_int(dt_query(ctx, label, 1, 1, 0, &r), DT_ERR_INVALID,
	       "a 70-octet label");
	is_int(dt_query(ctx, "secure.test", 1, 0, 0, &r), DT_ERR_INVALID,
	       "type 0");
	is_int(dt_query(ctx, "secure.test", 0, 1, 0, &r), DT_ERR_INVALID,
	       "class 0");
	is_int(dt_query(ctx, "secure.test", 1, 1, 0x80, &r), DT_ERR_INVALID,
	       "an unknown flag");
	is_int(dt_query(ctx, "secure.test", 1, 1, 0, NULL), DT_ERR_INVALID,
	       "nowhere to put the result");
}

static void test_unavailable(void)
{
	dt_ctx_t *c = NULL;
	dt_result_t *r = NULL;
	char path[160];
	struct addrinfo *res = NULL;

	dt_ctx_new(&c);
	snprintf(path, sizeof(path), "%s/nothing", dir);
	dt_ctx_set_socket(c, path);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "no socket: DT_ERR_UNAVAILABLE");
	is_int(dt_last_status(), DT_STATUS_NONE, "no status");
	is_int(dt_getaddrinfo_ex(c, "secure.test", NULL, NULL, 0, &res, NULL),
	       DT_EAI_UNAVAILABLE, "no socket: DT_EAI_UNAVAILABLE");
	is_int(dt_trust_available(c), 0, "no socket: no trust");
	snprintf(path, sizeof(path), "%s/plainfile", dir);
	write_file(path, "not a socket\n");
	dt_ctx_set_socket(c, path);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "a file that is no socket: DT_ERR_UNAVAILABLE");
	dt_ctx_free(c);
}

/* --- modes (DT_MODE_*): what needs no network; the lab does the rest
 * (tests/lib/lab_inproc.sh) --- */

static void test_modes(void)
{
	char path[160], text[512], longp[300];
	dt_ctx_t *c = NULL;
	dt_result_t *r = NULL;

	dt_ctx_new(&c);
	dt_ctx_set_socket(c, sock);
	is_int(dt_ctx_get_mode(c), DT_MODE_DAEMON, "the default mode: daemon");
	is_int(dt_ctx_set_mode(c, (enum dt_mode)0), DT_ERR_INVALID,
	       "mode 0: DT_ERR_INVALID");
	is_int(dt_ctx_set_mode(c, (enum dt_mode)7), DT_ERR_INVALID,
	       "mode 7: DT_ERR_INVALID");
	is_int(dt_ctx_get_mode(c), DT_MODE_DAEMON, "still daemon");
	is_int(dt_ctx_set_config(c, NULL), DT_ERR_INVALID, "config NULL");
	is_int(dt_ctx_set_config(c, ""), DT_ERR_INVALID, "config empty");
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	is_int(dt_ctx_set_config(c, longp), DT_ERR_INVALID,
	       "config path of 299 octets");
	is_int(dt_ctx_set_cache_size(c, 1024), DT_ERR_INVALID,
	       "a cache of 1 KiB: DT_ERR_INVALID");
	is_int(dt_ctx_set_cache_size(c, 8u << 20), 0, "a cache of 8 MiB");

	/* AUTO with the daemon there: the daemon answers. */
	is_int(dt_ctx_set_mode(c, DT_MODE_AUTO), 0, "DT_MODE_AUTO");
	is_int(dt_ctx_get_mode(c), DT_MODE_AUTO, "read back");
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), 0, "auto: an answer");
	is_int(dt_last_mode(), DT_MODE_DAEMON, "auto: from the daemon");
	dt_result_free(r);
	r = NULL;
	is_int(dt_trust_available(c), 1, "auto: dt_trust_available, daemon");

	/* In-process without a readable configuration: unavailable, and
	 * nothing asked of any network (the engine is never built). */
	snprintf(path, sizeof(path), "%s/missing.conf", dir);
	is_int(dt_ctx_set_config(c, path), 0, "a configuration path");
	is_int(dt_ctx_set_mode(c, DT_MODE_INPROCESS), 0, "DT_MODE_INPROCESS");
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "in-process, no dnstrust.conf: DT_ERR_UNAVAILABLE");
	is_int(dt_last_mode(), 0, "no mode answered");
	is_int(dt_trust_available(c), 0, "no trust");
	snprintf(path, sizeof(path), "%s/bad-anchor.conf", dir);
	snprintf(text, sizeof(text),
		 "resolv-conf %s/resolv.conf\ntrust-anchor-file %s/none.ds\n",
		 dir, dir);
	write_file(path, text);
	dt_ctx_set_config(c, path);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "in-process, anchors unreadable: DT_ERR_UNAVAILABLE");
	snprintf(path, sizeof(path), "%s/bad.conf", dir);
	write_file(path, "no-such-key yes\n");
	dt_ctx_set_config(c, path);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "in-process, a refused dnstrust.conf: DT_ERR_UNAVAILABLE");

	/* AUTO with no daemon and no engine: still unavailable. */
	dt_ctx_set_mode(c, DT_MODE_AUTO);
	snprintf(path, sizeof(path), "%s/nothing", dir);
	dt_ctx_set_socket(c, path);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNAVAILABLE,
	       "auto, no socket, no engine: DT_ERR_UNAVAILABLE");
	dt_ctx_free(c);
}

/* --- connections --- */

static void test_pool(void)
{
	dt_ctx_t *c = NULL;
	dt_result_t *r = NULL;
	struct fake_seen before, after;
	int good = 0;

	dt_ctx_new(&c);
	dt_ctx_set_socket(c, sock);
	fake_seen(fake, &before);
	for (int i = 0; i < 5; i++) {
		good += dt_query(c, "secure.test", 1, 1, 0, &r) == 0;
		dt_result_free(r);
		r = NULL;
	}
	fake_seen(fake, &after);
	is_int(good, 5, "five questions in a row");
	is_int(after.accepts - before.accepts, 1, "on one connection");

	fake_one_per_conn(fake, true);
	fake_seen(fake, &before);
	good = 0;
	for (int i = 0; i < 3; i++) {
		good += dt_query(c, "secure.test", 1, 1, 0, &r) == 0;
		dt_result_free(r);
		r = NULL;
	}
	fake_seen(fake, &after);
	fake_one_per_conn(fake, false);
	is_int(good, 3,
	       "a daemon closing each connection after one answer: all "
	       "answered");
	ok(after.accepts - before.accepts >= 3, "on new connections (%u)",
	   after.accepts - before.accepts);
	dt_ctx_free(c);
}

struct worker_arg {
	int good;
	int n;
};

static void *worker(void *p)
{
	struct worker_arg *w = p;

	for (int i = 0; i < w->n; i++) {
		dt_result_t *r = NULL;
		struct addrinfo *res = NULL;
		const char *name = i % 2 ? "insecure.test" : "secure.test";
		enum dt_status want =
			i % 2 ? DT_STATUS_INSECURE : DT_STATUS_SECURE;
		if (dt_query(ctx, name, 1, 28, 0, &r) == 0 &&
		    dt_result_status(r) == want && dt_last_status() == want)
			w->good++;
		dt_result_free(r);
		if (dt_getaddrinfo_ex(ctx, name, "80", NULL, 0, &res, NULL) ==
			    0 &&
		    dt_last_status() == want)
			w->good++;
		dt_freeaddrinfo(res);
	}
	return NULL;
}

static void test_threads(void)
{
	enum { NT = 8, NQ = 40 };
	pthread_t t[NT];
	struct worker_arg a[NT];
	int good = 0;

	for (int i = 0; i < NT; i++) {
		a[i] = (struct worker_arg){.n = NQ};
		pthread_create(&t[i], NULL, worker, &a[i]);
	}
	for (int i = 0; i < NT; i++) {
		pthread_join(t[i], NULL);
		good += a[i].good;
	}
	is_int(good, NT * NQ * 2,
	       "8 threads sharing a context: every answer and status right");
}

static void test_fork(void)
{
	dt_result_t *r = NULL;
	pid_t pid;
	int st = -1;

	dt_query(ctx, "secure.test", 1, 1, 0, &r); /* a pooled connection */
	dt_result_free(r);
	pid = fork();
	if (pid == 0) {
		int ok_child = 1;
		for (int i = 0; i < 5; i++) {
			r = NULL;
			ok_child &= dt_query(ctx,
					     i % 2 ? "insecure.test"
						   : "secure.test",
					     1, 1, 0, &r) == 0 &&
				    dt_result_status(r) ==
					    (i % 2 ? DT_STATUS_INSECURE
						   : DT_STATUS_SECURE);
			dt_result_free(r);
		}
		_exit(ok_child ? 0 : 1);
	}
	for (int i = 0; i < 5; i++) {
		r = NULL;
		dt_query(ctx, "secure.test", 1, 1, 0, &r);
		dt_result_free(r);
	}
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "a forked child asking at the same time gets its own answers");
}

/* The pooled descriptor of a context: the one connected to the socket. */
static int pooled_fd(void)
{
	for (int fd = 3; fd < 1024; fd++) {
		struct sockaddr_un sa;
		socklen_t len = sizeof(sa);
		if (getpeername(fd, (struct sockaddr *)&sa, &len) == 0 &&
		    sa.sun_family == AF_UNIX && strcmp(sa.sun_path, sock) == 0)
			return fd;
	}
	return -1;
}

/* The program closes a pooled descriptor and a pipe gets its number:
 * the next call neither writes to the pipe nor closes it. */
static void test_pool_taken(void)
{
	dt_ctx_t *c = NULL;
	dt_result_t *r = NULL;
	int fd, p[2] = {-1, -1}, rc;
	char x;

	dt_ctx_new(&c);
	dt_ctx_set_socket(c, sock);
	rc = dt_query(c, "secure.test", 1, 1, 0, &r);
	dt_result_free(r);
	r = NULL;
	fd = pooled_fd();
	if (rc != 0 || fd < 0 || pipe(p) != 0 || dup2(p[1], fd) != fd) {
		ok(0, "a pooled descriptor replaced by a pipe");
		dt_ctx_free(c);
		return;
	}
	close(p[1]);
	rc = dt_query(c, "secure.test", 1, 1, 0, &r);
	dt_result_free(r);
	is_int(rc, 0, "a pooled descriptor the program took back: answered");
	dt_ctx_free(c);
	ok(fcntl(fd, F_GETFD) >= 0 && fcntl(p[0], F_SETFL, O_NONBLOCK) == 0 &&
		   read(p[0], &x, 1) < 0 && errno == EAGAIN,
	   "... its pipe neither written to nor closed, dt_ctx_free too");
	close(fd);
	close(p[0]);
}

/* The default context across fork: the child's calls connect anew (its
 * copies of the parent's connections dropped by the atfork handler). */
static void test_fork_default(void)
{
	struct fake_seen before, after;
	dt_result_t *r = NULL;
	pid_t pid;
	int st = -1, rc;

	dt_ctx_set_socket(NULL, sock);
	rc = dt_query(NULL, "secure.test", 1, 1, 0, &r);
	dt_result_free(r);
	fake_seen(fake, &before);
	pid = fork();
	if (pid == 0) {
		r = NULL;
		rc = dt_query(NULL, "secure.test", 1, 1, 0, &r);
		_exit(rc == 0 && pooled_fd() >= 0 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	fake_seen(fake, &after);
	ok(rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "the default context in a child of fork: answered");
	is_int(after.accepts - before.accepts, 1,
	       "... on a connection of the child's own");
	r = NULL;
	fake_seen(fake, &before);
	rc = dt_query(NULL, "secure.test", 1, 1, 0, &r);
	dt_result_free(r);
	fake_seen(fake, &after);
	ok(rc == 0 && after.accepts == before.accepts,
	   "the parent's kept connection still serves it");
}

/* --- dt_trust_available, dt_res_query --- */

static void test_trust_res(void)
{
	unsigned char ans[512];
	int n;

	is_int(dt_trust_available(ctx), 1, "dt_trust_available: 1");
	dt_ctx_set_socket(NULL, sock); /* the default context, for res_query */
	n = dt_res_query("secure.test", 1, 1, ans, sizeof(ans));
	ok(n > 12 && (ans[3] & 0x20), "dt_res_query: an answer with AD (%d)",
	   n);
	is_int(dt_last_status(), DT_STATUS_SECURE, "its status");
	n = dt_res_query("insecure.test", 1, 1, ans, sizeof(ans));
	ok(n > 12 && !(ans[3] & 0x20), "insecure: no AD");
	h_errno = 0;
	is_int(dt_res_query("bogus.test", 1, 1, ans, sizeof(ans)), -1,
	       "bogus: -1");
	is_int(h_errno, NO_RECOVERY, "h_errno NO_RECOVERY");
	is_int(dt_res_query("nx.test", 1, 1, ans, sizeof(ans)), -1,
	       "NXDOMAIN: -1");
	is_int(h_errno, HOST_NOT_FOUND, "h_errno HOST_NOT_FOUND");
	is_int(ans[3] & 0xf, 3, "the answer copied anyway");
	is_int(dt_res_query("nodata.test", 1, 1, ans, sizeof(ans)), -1,
	       "NODATA: -1");
	is_int(h_errno, NO_DATA, "h_errno NO_DATA");
	is_int(dt_res_query("indet.test", 1, 1, ans, sizeof(ans)), -1,
	       "SERVFAIL: -1");
	is_int(h_errno, TRY_AGAIN, "h_errno TRY_AGAIN");
	n = dt_res_query("big.test", 1, 1, ans, 100);
	ok(n == 100 && (ans[2] & 0x02), "cut to anslen, with TC");
	is_int(dt_res_query("a..b", 1, 1, ans, sizeof(ans)), -1, "bad name");
	is_int(h_errno, NO_RECOVERY, "h_errno NO_RECOVERY");
}

/* --- dt_tlsa, dt_sshfp --- */

static void test_keys(void)
{
	dt_tlsa_set_t *t = NULL;
	dt_sshfp_set_t *s = NULL;

	is_int(dt_tlsa(ctx, "secure.test", 443, "tcp", &t), 0,
	       "dt_tlsa secure");
	if (t) {
		is_str(t->name, "_443._tcp.secure.test.", "the name asked");
		ok(t->n == 1 && t->rr[0].usage == 3 && t->rr[0].selector == 1 &&
			   t->rr[0].matching_type == 1 && t->rr[0].len == 32 &&
			   t->rr[0].data[0] == 0x5a &&
			   t->rr[0].data[31] == 0x0f,
		   "TLSA 3 1 1 and its 32 octets");
	}
	dt_tlsa_free(t);
	t = NULL;
	is_int(dt_tlsa(ctx, "insecure.test", 443, "tcp", &t), DT_ERR_NOT_SECURE,
	       "dt_tlsa insecure: DT_ERR_NOT_SECURE");
	is_int(dt_tlsa(ctx, "bogus.test", 443, "tcp", &t), DT_ERR_BOGUS,
	       "dt_tlsa bogus: DT_ERR_BOGUS");
	is_int(dt_tlsa(ctx, "nx.test", 443, "tcp", &t), DT_ERR_NXDOMAIN,
	       "dt_tlsa NXDOMAIN");
	is_int(dt_tlsa(ctx, "nodata.test", 443, "tcp", &t), DT_ERR_NODATA,
	       "dt_tlsa NODATA");
	is_int(dt_tlsa(ctx, "indet.test", 443, "tcp", &t), DT_ERR_SERVFAIL,
	       "dt_tlsa indeterminate: DT_ERR_SERVFAIL");
	is_int(dt_tlsa(ctx, "secure.test", 443, "tls", &t), DT_ERR_INVALID,
	       "dt_tlsa bad protocol");
	ok(t == NULL, "nothing written on errors");
	is_int(dt_sshfp(ctx, "secure.test", &s), 0, "dt_sshfp secure");
	if (s)
		ok(s->n == 1 && s->rr[0].algorithm == 4 &&
			   s->rr[0].fp_type == 2 && s->rr[0].len == 32 &&
			   s->rr[0].fingerprint[0] == 0x5a,
		   "SSHFP 4 2 and its 32 octets");
	dt_sshfp_free(s);
	s = NULL;
	is_int(dt_sshfp(ctx, "insecure.test", &s), DT_ERR_NOT_SECURE,
	       "dt_sshfp insecure");
	is_int(dt_sshfp(ctx, "bogus.test", &s), DT_ERR_BOGUS, "dt_sshfp bogus");
	is_int(dt_last_status(), DT_STATUS_BOGUS, "its status");
	is_int(dt_sshfp(ctx, NULL, &s), DT_ERR_INVALID, "dt_sshfp no host");
}

/* --- the impostor --- */

static bool accepting(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		if (fd >= 0)
			close(fd);
		return access(path, F_OK) == 0;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	ok = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

static pid_t impostor(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = {"test_lib", "--fake-daemon", (char *)path,
				NULL};
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(1);
		execv("/proc/self/exe", argv);
		_exit(1);
	}
	/* Ready when it accepts, not when the path exists: between its
	 * bind() and listen() a connection is refused (a busy machine
	 * showed it as DT_ERR_UNAVAILABLE). */
	for (int i = 0; i < 200 && !accepting(path); i++)
		usleep(20000);
	return pid;
}

static void test_untrusted(void)
{
	char sub[128], path[160];
	dt_ctx_t *c = NULL;
	dt_result_t *r = NULL;
	struct addrinfo *res = NULL;
	pid_t pid;
	int st;

	snprintf(sub, sizeof(sub), "%s/nobody", dir);
	mkdir(sub, 0777);
	chmod(sub, 0777);
	snprintf(path, sizeof(path), "%s/socket", sub);
	pid = impostor(path);
	ok(pid > 0 && access(path, F_OK) == 0,
	   "a fake daemon runs as uid 65534");
	dt_ctx_new(&c);
	dt_ctx_set_socket(c, path);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNTRUSTED,
	       "its answers are refused: DT_ERR_UNTRUSTED");
	ok(r == NULL, "no result");
	is_int(dt_getaddrinfo_ex(c, "secure.test", NULL, NULL, 0, &res, NULL),
	       EAI_FAIL, "dt_getaddrinfo: EAI_FAIL");
	is_int(dt_trust_available(c), 0, "dt_trust_available: 0");
	dt_ctx_set_fallback(c, true);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), DT_ERR_UNTRUSTED,
	       "an impostor is no reason for the fallback");
	dt_ctx_set_fallback(c, false);
	dt_ctx_set_daemon_uid(c, 65534);
	is_int(dt_query(c, "secure.test", 1, 1, 0, &r), 0,
	       "trusted once it is the daemon's configured user");
	is_int(dt_result_status(r), DT_STATUS_SECURE, "and believed");
	dt_result_free(r);
	is_int(dt_trust_available(c), 1, "dt_trust_available: 1");
	dt_ctx_free(c);
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, &st, 0);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fake-daemon"))
		return fake_serve_forever(argv[2]);
	signal(SIGPIPE, SIG_DFL); /* the library must never raise it */
	snprintf(dir, sizeof(dir), "/tmp/dt-test-lib.XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0755)) {
		printf("Bail out! no temporary directory\n");
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/socket", dir);
	fake = fake_start(sock);
	if (!fake || dt_ctx_new(&ctx)) {
		printf("Bail out! no fake daemon\n");
		return 1;
	}
	dt_ctx_set_socket(ctx, sock);
	dt_ctx_set_timeout(ctx, 3000);

	test_ctx();
	test_query_secure();
	test_query_flags();
	test_query_statuses();
	test_query_broken();
	test_query_args();
	test_unavailable();
	test_modes();
	test_pool();
	test_threads();
	test_fork();
	test_pool_taken();
	test_fork_default();
	test_trust_res();
	test_keys();
	if (getuid() == 0)
		test_untrusted();
	else
		diag("not root: the impostor test needs to change uid");

	dt_ctx_free(ctx);
	fake_stop(fake);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}
