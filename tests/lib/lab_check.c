/* SPDX-License-Identifier: MIT */
/*
 * libdnstrust against dnstrustd in the integration lab (run by
 * lab_lib.sh), through the shared library and its public header only.
 *
 *   lab_check up SOCKET EXPECT   the daemon runs: every line of the lab's
 *                                truth table through dt_query (plain,
 *                                with DT_FLAG_RETURN_BOGUS, with
 *                                DT_FLAG_REQUIRE_SECURE) and, for A and
 *                                AAAA, dt_getaddrinfo_ex; then dt_tlsa,
 *                                dt_sshfp, dt_res_query,
 *                                dt_trust_available on chosen names
 *   lab_check nouplink SOCKET    the daemon's nameserver does not answer:
 *                                indeterminate
 *   lab_check down SOCKET        the daemon is stopped
 *   lab_check fallback SOCKET    the daemon is stopped, /etc/resolv.conf
 *                                names a lab resolver: the opt-in fallback
 *   lab_check inproc SOCKET EXPECT
 *                                what "up" checks, answered in-process
 *                                (DT_MODE_INPROCESS on every context;
 *                                $DNSTRUST_CONF names the lab's
 *                                resolver and anchor), whatever SOCKET is;
 *                                then threads sharing the context, and a
 *                                child of fork()
 *   lab_check forged SOCKET FORGED
 *                                in-process over the attacker upstream:
 *                                no line of the lab's forged list is
 *                                secure or reaches the caller
 *                                ($DNSTRUST_CONF: resolution forward)
 *   lab_check forged-auto SOCKET FORGED
 *                                the same with resolution auto: every
 *                                line asked again from the root, secure,
 *                                the forged address never returned
 *   lab_check switch SOCKET RESOLV ATTACKER_RESOLV
 *                                in-process, RESOLV (the resolv-conf of
 *                                $DNSTRUST_CONF) rewritten to the
 *                                attacker's between two questions
 *   lab_check routegone SOCKET NAME FILE NAME2
 *                                in-process ($DNSTRUST_CONF: a resolvconf
 *                                or networkd upstream-source): NAME
 *                                insecure through a learnt route, FILE
 *                                (its interface) removed, NAME2 then
 *                                answered by the public tree
 *   lab_check auto SOCKET daemon|inprocess
 *                                DT_MODE_AUTO on every context: the mode
 *                                that must answer, signed names secure,
 *                                a tampered one bogus, through
 *                                dt_getaddrinfo
 *
 * With LAB_CHECK_MODE=inproc in the environment, every phase runs with
 * DT_MODE_INPROCESS on every context.
 *
 * Prints "ok - ..." / "not ok - ..." lines (lab_lib.sh numbers them) and
 * "# ..." details.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dnstrust.h"

static dt_ctx_t *ctx;
static int failed;

__attribute__((format(printf, 2, 3))) static int check(int cond,
						       const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed += !cond;
	return cond;
}

static const struct {
	const char *name;
	uint16_t type;
} types[] = {
	{"A", 1},   {"NS", 2},	   {"CNAME", 5},   {"SOA", 6},
	{"MX", 15}, {"TXT", 16},   {"AAAA", 28},   {"DNAME", 39},
	{"DS", 43}, {"SSHFP", 44}, {"DNSKEY", 48}, {"TLSA", 52},
};

static uint16_t type_num(const char *s)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcasecmp(types[i].name, s))
			return types[i].type;
	return 0;
}

static enum dt_status status_num(const char *s)
{
	static const char *const n[] = {"none", "secure", "insecure", "bogus",
					"indeterminate"};

	for (int i = 0; i < 5; i++)
		if (!strcmp(s, n[i]))
			return (enum dt_status)i;
	return DT_STATUS_NONE;
}

static int rcode_num(const char *s)
{
	return !strcmp(s, "NOERROR")	? 0
	       : !strcmp(s, "SERVFAIL") ? 2
	       : !strcmp(s, "NXDOMAIN") ? 3
					: -1;
}

/* Records of the type asked in the answer section. */
static size_t typed(const dt_result_t *r, uint16_t type)
{
	size_t n = 0;
	dt_rr_t rr;

	for (size_t i = 0; i < dt_result_count(r, DT_SECTION_ANSWER); i++)
		if (!dt_result_rr(r, DT_SECTION_ANSWER, i, &rr) &&
		    rr.type == type)
			n++;
	return n;
}

/* One line of the truth table through dt_query; returns whether the
 * answer holds records of the type (for dt_getaddrinfo's NODATA). */
static bool expect_query(const char *name, uint16_t type, enum dt_status st,
			 int rc, int ede)
{
	dt_result_t *r = NULL;
	int err = dt_query(ctx, name, 1, type, 0, &r);
	bool has = false;

	if (st == DT_STATUS_BOGUS) {
		check(err == DT_ERR_BOGUS &&
			      dt_last_status() == DT_STATUS_BOGUS,
		      "dt_query %s %u: DT_ERR_BOGUS (%d)", name, type, err);
		err = dt_query(ctx, name, 1, type, DT_FLAG_RETURN_BOGUS, &r);
		check(!err && dt_result_status(r) == DT_STATUS_BOGUS &&
			      (ede < 0 || dt_result_ede(r, NULL) == ede),
		      "dt_query %s %u, DT_FLAG_RETURN_BOGUS: bogus data, EDE "
		      "%d",
		      name, type, ede);
	} else {
		check(!err && dt_result_status(r) == st &&
			      dt_result_rcode(r) == rc &&
			      (ede < 0 || dt_result_ede(r, NULL) == ede),
		      "dt_query %s %u: %s, rcode %d%s", name, type,
		      dt_status_str(st), rc, ede >= 0 ? ", EDE" : "");
	}
	if (!err)
		has = typed(r, type) > 0;
	dt_result_free(r);
	r = NULL;
	err = dt_query(ctx, name, 1, type, DT_FLAG_REQUIRE_SECURE, &r);
	check(err == (st == DT_STATUS_SECURE  ? 0
		      : st == DT_STATUS_BOGUS ? DT_ERR_BOGUS
					      : DT_ERR_NOT_SECURE),
	      "dt_query %s %u, DT_FLAG_REQUIRE_SECURE: %s", name, type,
	      dt_error_str(err));
	dt_result_free(r);
	return has;
}

static void expect_gai(const char *name, uint16_t type, enum dt_status st,
		       int rc, bool has)
{
	struct addrinfo hints = {.ai_family = type == 1 ? AF_INET : AF_INET6,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	enum dt_status got = DT_STATUS_NONE;
	int want = st == DT_STATUS_BOGUS ? EAI_FAIL
		   : rc == 3		 ? EAI_NONAME
		   : !has		 ? EAI_NODATA
					 : 0;
	int err = dt_getaddrinfo_ex(ctx, name, NULL, &hints, 0, &res, &got);

	check(err == want && (err || got == st), "dt_getaddrinfo %s %s: %s",
	      name, type == 1 ? "AF_INET" : "AF_INET6",
	      err ? dt_gai_strerror(err) : dt_status_str(got));
	dt_freeaddrinfo(res);
	res = NULL;
	if (st != DT_STATUS_INSECURE)
		return;
	err = dt_getaddrinfo_ex(ctx, name, NULL, &hints, DT_FLAG_REQUIRE_SECURE,
				&res, NULL);
	check(err == DT_EAI_NOT_SECURE,
	      "dt_getaddrinfo %s, DT_FLAG_REQUIRE_SECURE: DT_EAI_NOT_SECURE",
	      name);
	dt_freeaddrinfo(res);
}

static void truth_table(const char *path)
{
	char name[300], type[16], st[16], rc[16], line[512];
	FILE *f = fopen(path, "r");
	int lines = 0;

	if (!check(f != NULL, "the truth table %s", path))
		return;
	while (fgets(line, sizeof(line), f)) {
		int ede = -1;
		int n = sscanf(line, "%299s %15s %15s %15s %d", name, type, st,
			       rc, &ede);
		uint16_t t = type_num(type);
		if (n < 4 || !t) {
			printf("# skipped: %s", line);
			continue;
		}
		lines++;
		bool has = expect_query(name, t, status_num(st), rcode_num(rc),
					ede);
		if (t == 1 || t == 28)
			expect_gai(name, t, status_num(st), rcode_num(rc), has);
	}
	fclose(f);
	check(lines > 40, "%d lines of the truth table", lines);
}

static const char *addrs_of(const struct addrinfo *ai)
{
	static char out[1024];
	size_t len = 0;

	out[0] = '\0';
	for (; ai && len < sizeof(out) - 64; ai = ai->ai_next) {
		char t[INET6_ADDRSTRLEN];
		const void *a =
			ai->ai_family == AF_INET
				? (const void *)&(
					  (struct sockaddr_in *)ai->ai_addr)
					  ->sin_addr
				: (const void *)&(
					  (struct sockaddr_in6 *)ai->ai_addr)
					  ->sin6_addr;
		inet_ntop(ai->ai_family, a, t, sizeof(t));
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s",
					len ? " " : "", t);
	}
	return out;
}

static void gai_cases(void)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_CANONNAME};
	struct addrinfo *res = NULL;
	enum dt_status st = DT_STATUS_NONE;
	int err;

	err = dt_getaddrinfo_ex(ctx, "www.secure.lab", "https", &hints, 0, &res,
				&st);
	const char *a = addrs_of(res);
	check(!err && strstr(a, "192.0.2.1") && strstr(a, "2001:db8:1::1") &&
		      st == DT_STATUS_SECURE,
	      "dt_getaddrinfo www.secure.lab AF_UNSPEC: A and AAAA, secure "
	      "(%s)",
	      a);
	check(res && ntohs(((struct sockaddr_in *)res->ai_addr)->sin_port) ==
			      443,
	      "service https: port 443");
	dt_freeaddrinfo(res);
	res = NULL;
	err = dt_getaddrinfo_ex(ctx, "chain.secure.lab", NULL, &hints, 0, &res,
				&st);
	check(!err && res && !strcmp(res->ai_canonname, "www.nsec3.lab") &&
		      st == DT_STATUS_SECURE,
	      "two CNAMEs: canonname www.nsec3.lab, secure");
	dt_freeaddrinfo(res);
	res = NULL;
	err = dt_getaddrinfo_ex(ctx, "to-insecure.secure.lab", NULL, &hints, 0,
				&res, &st);
	check(!err && st == DT_STATUS_INSECURE,
	      "a secure CNAME to an insecure name: insecure");
	dt_freeaddrinfo(res);
	res = NULL;
	err = dt_getaddrinfo_ex(ctx, "to-insecure.secure.lab", NULL, &hints,
				DT_FLAG_REQUIRE_SECURE, &res, NULL);
	check(err == DT_EAI_NOT_SECURE, "and not secure enough when required");
	check(dt_getaddrinfo("to-bogus.secure.lab", NULL, &hints, &res) ==
		      EAI_FAIL,
	      "dt_getaddrinfo: a CNAME to a bogus name fails (EAI_FAIL)");
	check(dt_getaddrinfo("www.tampered.lab", NULL, NULL, &res) ==
			      EAI_FAIL &&
		      dt_last_status() == DT_STATUS_BOGUS,
	      "dt_getaddrinfo www.tampered.lab: EAI_FAIL, status bogus");
}

static void key_cases(void)
{
	dt_tlsa_set_t *t = NULL;
	dt_sshfp_set_t *s = NULL;
	int err;

	err = dt_tlsa(ctx, "www.secure.lab", 443, "tcp", &t);
	check(!err && t->n == 1 && t->rr[0].usage == 3 && t->rr[0].len == 32 &&
		      !strcmp(t->name, "_443._tcp.www.secure.lab."),
	      "dt_tlsa www.secure.lab 443 tcp: 3 1 1, 32 octets");
	dt_tlsa_free(t);
	t = NULL;
	check(dt_tlsa(ctx, "www.insecure.lab", 443, "tcp", &t) ==
		      DT_ERR_NOT_SECURE,
	      "dt_tlsa on an insecure name: DT_ERR_NOT_SECURE");
	check(dt_tlsa(ctx, "www.expired.lab", 443, "tcp", &t) == DT_ERR_BOGUS,
	      "dt_tlsa on a bogus zone: DT_ERR_BOGUS");
	check(dt_tlsa(ctx, "nonexistent.secure.lab", 443, "tcp", &t) ==
		      DT_ERR_NXDOMAIN,
	      "dt_tlsa on a name that does not exist: DT_ERR_NXDOMAIN");
	err = dt_sshfp(ctx, "www.secure.lab", &s);
	check(!err && s->n == 1 && s->rr[0].algorithm == 4 &&
		      s->rr[0].fp_type == 2 && s->rr[0].len == 32,
	      "dt_sshfp www.secure.lab: 4 2, 32 octets");
	dt_sshfp_free(s);
	s = NULL;
	check(dt_sshfp(ctx, "mail.secure.lab", &s) == DT_ERR_NODATA,
	      "dt_sshfp without SSHFP records: DT_ERR_NODATA");
	check(dt_sshfp(ctx, "www.insecure.lab", &s) == DT_ERR_NOT_SECURE,
	      "dt_sshfp on an insecure name: DT_ERR_NOT_SECURE");
	check(dt_sshfp(ctx, "www.expired.lab", &s) == DT_ERR_BOGUS,
	      "dt_sshfp on a bogus zone: DT_ERR_BOGUS");
}

static void res_cases(void)
{
	unsigned char ans[4096];
	int n;

	n = dt_res_query("www.secure.lab", 1, 1, ans, sizeof(ans));
	check(n > 12 && (ans[3] & 0x20), "dt_res_query www.secure.lab: AD=1");
	n = dt_res_query("www.insecure.lab", 1, 1, ans, sizeof(ans));
	check(n > 12 && !(ans[3] & 0x20),
	      "dt_res_query www.insecure.lab: an answer, AD=0");
	n = dt_res_query("www.expired.lab", 1, 1, ans, sizeof(ans));
	check(n == -1 && h_errno == NO_RECOVERY,
	      "dt_res_query www.expired.lab: -1, NO_RECOVERY");
	n = dt_res_query("nonexistent.secure.lab", 1, 1, ans, sizeof(ans));
	check(n == -1 && h_errno == HOST_NOT_FOUND,
	      "dt_res_query NXDOMAIN: -1, HOST_NOT_FOUND");
	n = dt_res_query("ent.secure.lab", 1, 1, ans, sizeof(ans));
	check(n == -1 && h_errno == NO_DATA,
	      "dt_res_query NODATA: -1, NO_DATA");
}

static void misc_cases(void)
{
	dt_result_t *r = NULL;
	dt_rr_t rr;
	size_t sigs = 0;

	check(dt_trust_available(ctx) == 1, "dt_trust_available: 1");
	if (!dt_query(ctx, "www.ed.lab", 1, 1, DT_FLAG_DNSSEC, &r))
		for (size_t i = 0; i < dt_result_count(r, DT_SECTION_ANSWER);
		     i++)
			sigs += !dt_result_rr(r, DT_SECTION_ANSWER, i, &rr) &&
				rr.type == 46;
	check(sigs > 0, "DT_FLAG_DNSSEC: the RRSIGs come along");
	dt_result_free(r);
	r = NULL;
	dt_query(ctx, "www.rsa.lab", 1, 1, 0, &r);
	dt_result_free(r);
	r = NULL;
	check(!dt_query(ctx, "www.rsa.lab", 1, 1, 0, &r) && dt_result_cached(r),
	      "the second question is answered from the cache");
	dt_result_free(r);
	r = NULL;
	check(!dt_query(ctx, "version.dnstrust.", 3, 16, 0, &r) &&
		      dt_result_count(r, DT_SECTION_ANSWER) == 1,
	      "version.dnstrust. CH TXT");
	dt_result_free(r);
}

/* Every context of the program in mode m. */
static bool set_mode(enum dt_mode m)
{
	return !dt_ctx_set_mode(ctx, m) && !dt_ctx_set_mode(NULL, m) &&
	       dt_ctx_get_mode(ctx) == m && dt_ctx_get_mode(NULL) == m;
}

/* A thread of inproc_shared: names whose status it knows, asked on the
 * shared context; returns the number of wrong answers. */
static void *asker(void *arg)
{
	static const struct {
		const char *name;
		enum dt_status st;
	} qs[] = {
		{"www.secure.lab", DT_STATUS_SECURE},
		{"www.insecure.lab", DT_STATUS_INSECURE},
		{"www.nsec3.lab", DT_STATUS_SECURE},
		{"www.ed.lab", DT_STATUS_SECURE},
	};
	size_t wrong = 0, first = (size_t)(uintptr_t)arg;

	for (size_t i = 0; i < 8; i++) {
		size_t k = (first + i) % (sizeof(qs) / sizeof(qs[0]));
		dt_result_t *r = NULL;
		if (dt_query(ctx, qs[k].name, 1, 1, 0, &r) ||
		    dt_result_status(r) != qs[k].st ||
		    dt_last_mode() != DT_MODE_INPROCESS)
			wrong++;
		dt_result_free(r);
	}
	return (void *)(uintptr_t)wrong;
}

/* Four threads on one context take turns on its engine. */
static void inproc_shared(void)
{
	pthread_t t[4];
	size_t wrong = 0, made = 0;

	for (size_t i = 0; i < 4; i++)
		made += !pthread_create(&t[i], NULL, asker, (void *)(uintptr_t)i);
	for (size_t i = 0; i < made; i++) {
		void *w;
		pthread_join(t[i], &w);
		wrong += (size_t)(uintptr_t)w;
	}
	check(made == 4 && wrong == 0,
	      "4 threads x 8 questions on one context: %zu wrong", wrong);
}

/* A child of fork() answers with an engine of its own; the parent's
 * goes on working. */
static void inproc_fork(void)
{
	dt_result_t *r = NULL;
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		int bad = dt_query(ctx, "www.secure.lab", 1, 28, 0, &r) ||
			  dt_result_status(r) != DT_STATUS_SECURE ||
			  dt_last_mode() != DT_MODE_INPROCESS;
		_exit(bad);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid &&
		      WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "fork: the child's question is answered in-process, secure");
	check(!dt_query(ctx, "www.rsa.lab", 1, 1, 0, &r) &&
		      dt_result_status(r) == DT_STATUS_SECURE,
	      "fork: the parent's engine still answers");
	dt_result_free(r);
}

static void phase_inproc(const char *expect)
{
	dt_result_t *r = NULL;

	check(set_mode(DT_MODE_INPROCESS), "DT_MODE_INPROCESS set");
	check(!dt_query(ctx, "www.secure.lab", 1, 1, 0, &r) &&
		      dt_result_status(r) == DT_STATUS_SECURE &&
		      dt_last_mode() == DT_MODE_INPROCESS,
	      "www.secure.lab A: secure, answered in-process (mode %d)",
	      dt_last_mode());
	dt_result_free(r);
	truth_table(expect);
	gai_cases();
	key_cases();
	res_cases();
	misc_cases();
	check(dt_last_mode() == DT_MODE_INPROCESS,
	      "the last answer came in-process too");
	inproc_shared();
	inproc_fork();
}

/* The attacker upstream ($LAB_FORGED: NAME TYPE FORGED-ADDRESS METHOD per
 * line): in-process, no forged answer is secure and no forged address
 * reaches the caller, through dt_query (even with DT_FLAG_RETURN_BOGUS,
 * the status is never secure) or dt_getaddrinfo. */
static void phase_forged(const char *path)
{
	char name[300], type[16], addr[64], method[32], line[512];
	FILE *f = fopen(path, "r");
	int lines = 0;

	check(set_mode(DT_MODE_INPROCESS), "DT_MODE_INPROCESS set");
	if (!check(f != NULL, "the forged list %s", path))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%299s %15s %63s %31s", name, type, addr,
			   method) != 4 || !type_num(type))
			continue;
		uint16_t t = type_num(type);
		dt_result_t *r = NULL;
		int err = dt_query(ctx, name, 1, t, 0, &r);
		check(err || (dt_result_status(r) != DT_STATUS_SECURE &&
			      typed(r, t) == 0),
		      "attacker (%s): %s %s not secure, nothing returned (%s)",
		      method, name, type,
		      err ? dt_error_str(err)
			  : dt_status_str(dt_result_status(r)));
		dt_result_free(r);
		r = NULL;
		err = dt_query(ctx, name, 1, t, DT_FLAG_RETURN_BOGUS, &r);
		check(err || dt_result_status(r) != DT_STATUS_SECURE,
		      "attacker (%s): %s %s with DT_FLAG_RETURN_BOGUS: not "
		      "secure",
		      method, name, type);
		dt_result_free(r);
		if (t == 1 || t == 28) {
			struct addrinfo hints = {
				.ai_family = t == 1 ? AF_INET : AF_INET6,
				.ai_socktype = SOCK_STREAM};
			struct addrinfo *res = NULL;
			err = dt_getaddrinfo_ex(ctx, name, NULL, &hints, 0,
						&res, NULL);
			check(err || !strstr(addrs_of(res), addr),
			      "attacker (%s): %s never reaches dt_getaddrinfo",
			      method, addr);
			dt_freeaddrinfo(res);
		}
		lines++;
	}
	fclose(f);
	check(lines >= 5, "%d forged answers tried", lines);
}

/* The attacker upstream with resolution auto and the lab's root hints
 * ($LAB_FORGED as for phase_forged): each forged question is asked again,
 * twice, then from the root (DT_RSV_RETRY_MAX), as dnstrustd asks it:
 * the genuine records, secure; the forged address never reaches the
 * caller, through dt_query or dt_getaddrinfo. */
static void phase_forged_auto(const char *path)
{
	char name[300], type[16], addr[64], method[32], line[512];
	FILE *f = fopen(path, "r");
	int lines = 0;

	check(set_mode(DT_MODE_INPROCESS), "DT_MODE_INPROCESS set");
	if (!check(f != NULL, "the forged list %s", path))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%299s %15s %63s %31s", name, type, addr,
			   method) != 4 || !type_num(type))
			continue;
		uint16_t t = type_num(type);
		dt_result_t *r = NULL;
		int err = dt_query(ctx, name, 1, t, 0, &r);
		check(!err && dt_result_status(r) == DT_STATUS_SECURE,
		      "attacker, auto (%s): %s %s asked again from the root: "
		      "secure (%s)",
		      method, name, type,
		      err ? dt_error_str(err)
			  : dt_status_str(dt_result_status(r)));
		dt_result_free(r);
		if (t == 1 || t == 28) {
			struct addrinfo hints = {
				.ai_family = t == 1 ? AF_INET : AF_INET6,
				.ai_socktype = SOCK_STREAM};
			struct addrinfo *res = NULL;
			err = dt_getaddrinfo_ex(ctx, name, NULL, &hints, 0,
						&res, NULL);
			const char *a = err ? "" : addrs_of(res);
			check(!err && *a && !strstr(a, addr),
			      "attacker, auto (%s): dt_getaddrinfo %s gets the "
			      "genuine address, never %s (%s)",
			      method, name, addr, err ? "error" : a);
			dt_freeaddrinfo(res);
		}
		lines++;
	}
	fclose(f);
	check(lines >= 5, "%d forged answers tried", lines);
}

/* Copies the file from to the file to (rewritten in place). */
static bool copy_file(const char *from, const char *to)
{
	char buf[4096];
	size_t n;
	FILE *in = fopen(from, "r"), *out = in ? fopen(to, "w") : NULL;
	bool ok = in && out;

	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ok = false;
	return ok;
}

/* One process while its resolv.conf (the file resolv, named by
 * $DNSTRUST_CONF's resolv-conf) changes to the attacker's (attacker): the
 * engine reads it again at its next call, and the attacker's forged
 * answer is bogus, not the honest secure one. */
static void phase_switch(const char *resolv, const char *attacker)
{
	dt_result_t *r = NULL;
	int err;

	check(set_mode(DT_MODE_INPROCESS), "DT_MODE_INPROCESS set");
	err = dt_query(ctx, "www.secure.lab", 1, 1, 0, &r);
	check(!err && dt_result_status(r) == DT_STATUS_SECURE,
	      "switch: www.secure.lab A secure through the honest upstream");
	dt_result_free(r);
	r = NULL;
	check(copy_file(attacker, resolv),
	      "switch: resolv.conf now names the attacker");
	err = dt_query(ctx, "mail.secure.lab", 1, 1, 0, &r);
	check(err == DT_ERR_BOGUS,
	      "switch: mail.secure.lab A, asked after the change, is the "
	      "attacker's forgery: bogus (%s)",
	      dt_error_str(err));
	dt_result_free(r);
}

static void phase_auto(const char *who)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	enum dt_status st = DT_STATUS_NONE;
	int want = !strcmp(who, "daemon") ? DT_MODE_DAEMON : DT_MODE_INPROCESS;
	int err;

	check(set_mode(DT_MODE_AUTO), "DT_MODE_AUTO set");
	err = dt_getaddrinfo_ex(NULL, "www.secure.lab", NULL, &hints, 0, &res,
				&st);
	const char *a = addrs_of(res);
	check(!err && strstr(a, "192.0.2.1") && strstr(a, "2001:db8:1::1") &&
		      st == DT_STATUS_SECURE,
	      "auto: dt_getaddrinfo www.secure.lab: A and AAAA, secure (%s)",
	      a);
	check(dt_last_mode() == want, "auto: answered by the %s (mode %d)",
	      who, dt_last_mode());
	dt_freeaddrinfo(res);
	res = NULL;
	err = dt_getaddrinfo("www.tampered.lab", NULL, &hints, &res);
	check(err == EAI_FAIL && dt_last_status() == DT_STATUS_BOGUS,
	      "auto: dt_getaddrinfo www.tampered.lab: EAI_FAIL, bogus (%s)",
	      dt_gai_strerror(err));
	dt_freeaddrinfo(res);
	res = NULL;
	err = dt_getaddrinfo_ex(ctx, "www.insecure.lab", NULL, &hints, 0, &res,
				&st);
	check(!err && st == DT_STATUS_INSECURE,
	      "auto: dt_getaddrinfo www.insecure.lab: insecure");
	dt_freeaddrinfo(res);
	check(dt_trust_available(ctx) == 1 && dt_last_mode() == want,
	      "auto: dt_trust_available 1, from the %s", who);
}

static void phase_down(void)
{
	dt_result_t *r = NULL;
	struct addrinfo *res = NULL;
	dt_tlsa_set_t *t = NULL;
	unsigned char ans[512];

	check(dt_query(ctx, "www.secure.lab", 1, 1, 0, &r) ==
		      DT_ERR_UNAVAILABLE,
	      "daemon stopped: dt_query DT_ERR_UNAVAILABLE");
	check(dt_last_status() == DT_STATUS_NONE, "no status");
	check(dt_getaddrinfo("www.secure.lab", NULL, NULL, &res) ==
		      DT_EAI_UNAVAILABLE,
	      "daemon stopped: dt_getaddrinfo DT_EAI_UNAVAILABLE");
	check(dt_tlsa(ctx, "www.secure.lab", 443, "tcp", &t) ==
		      DT_ERR_UNAVAILABLE,
	      "daemon stopped: dt_tlsa DT_ERR_UNAVAILABLE");
	check(dt_trust_available(ctx) == 0,
	      "daemon stopped: dt_trust_available 0");
	check(dt_res_query("www.secure.lab", 1, 1, ans, sizeof(ans)) == -1 &&
		      h_errno == TRY_AGAIN,
	      "daemon stopped: dt_res_query -1, TRY_AGAIN");
}

static void phase_nouplink(void)
{
	dt_result_t *r = NULL;
	struct addrinfo *res = NULL;
	dt_sshfp_set_t *s = NULL;
	unsigned char ans[512];
	int err, ede;

	err = dt_query(ctx, "www.secure.lab", 1, 1, 0, &r);
	ede = dt_result_ede(r, NULL);
	check(!err && dt_result_rcode(r) == 2 &&
		      dt_result_status(r) == DT_STATUS_INDETERMINATE &&
		      (ede == 22 || ede == 23),
	      "no nameserver answers: SERVFAIL, indeterminate, EDE %d", ede);
	dt_result_free(r);
	r = NULL;
	check(dt_query(ctx, "www.secure.lab", 1, 1, DT_FLAG_REQUIRE_SECURE,
		       &r) == DT_ERR_NOT_SECURE,
	      "indeterminate is not secure");
	err = dt_getaddrinfo_ex(ctx, "www.insecure.lab", NULL, NULL, 0, &res,
				NULL);
	check(err == EAI_AGAIN && dt_last_status() == DT_STATUS_INDETERMINATE,
	      "dt_getaddrinfo: EAI_AGAIN, indeterminate");
	check(dt_sshfp(ctx, "www.secure.lab", &s) == DT_ERR_SERVFAIL,
	      "dt_sshfp: DT_ERR_SERVFAIL");
	check(dt_res_query("www.secure.lab", 1, 1, ans, sizeof(ans)) == -1 &&
		      h_errno == TRY_AGAIN,
	      "dt_res_query: -1, TRY_AGAIN");
	check(dt_trust_available(ctx) == 1,
	      "dt_trust_available: 1 (the validator is there)");
}

static void phase_fallback(void)
{
	dt_result_t *r = NULL;
	struct addrinfo *res = NULL;
	dt_tlsa_set_t *t = NULL;
	enum dt_status st = DT_STATUS_NONE;
	unsigned char ans[4096];
	const uint8_t *w;
	size_t len;

	check(dt_query(ctx, "www.secure.lab", 1, 1, 0, &r) ==
		      DT_ERR_UNAVAILABLE,
	      "no fallback unless asked for");
	dt_ctx_set_fallback(ctx, true);
	check(!dt_query(ctx, "www.secure.lab", 1, 1, DT_FLAG_DNSSEC, &r) &&
		      dt_result_status(r) == DT_STATUS_UNVALIDATED &&
		      typed(r, 1) == 1,
	      "fallback: dt_query answers, DT_STATUS_UNVALIDATED");
	w = dt_result_wire(r, &len);
	check(w && len > 12 && !(w[3] & 0x20) && typed(r, 46) > 0,
	      "the nameserver's AD bit is cleared (DO=1, RRSIGs present)");
	dt_result_free(r);
	r = NULL;
	int err = dt_getaddrinfo_ex(ctx, "www.secure.lab", NULL, NULL, 0, &res,
				    &st);
	check(!err && st == DT_STATUS_UNVALIDATED,
	      "fallback: dt_getaddrinfo answers, unvalidated (%s)",
	      addrs_of(res));
	dt_freeaddrinfo(res);
	res = NULL;
	check(dt_getaddrinfo_ex(ctx, "www.secure.lab", NULL, NULL,
				DT_FLAG_REQUIRE_SECURE, &res,
				NULL) == DT_EAI_NOT_SECURE,
	      "fallback: never secure (DT_EAI_NOT_SECURE)");
	check(dt_tlsa(ctx, "www.secure.lab", 443, "tcp", &t) ==
		      DT_ERR_NOT_SECURE,
	      "fallback: no key material (DT_ERR_NOT_SECURE)");
	check(dt_trust_available(ctx) == 0,
	      "fallback: dt_trust_available still 0");
	dt_ctx_set_fallback(NULL, true);
	int n = dt_res_query("www.secure.lab", 1, 1, ans, sizeof(ans));
	check(n > 12 && !(ans[3] & 0x20) &&
		      dt_last_status() == DT_STATUS_UNVALIDATED,
	      "fallback: dt_res_query answers, AD=0, unvalidated");
}

/* A VPN's interface goes under a running process: NAME (below the
 * domain its interface routes) is answered insecure from the VPN's
 * server; FILE (the interface's file) is removed; within a second the
 * engine has dropped the route, and NAME2 (below the same domain, not
 * asked before) is answered by the public tree: NXDOMAIN, secure. */
static void phase_routegone(const char *name, const char *file,
			    const char *name2)
{
	dt_result_t *r = NULL;
	int err;

	check(set_mode(DT_MODE_INPROCESS), "DT_MODE_INPROCESS set");
	err = dt_query(ctx, name, 1, 1, 0, &r);
	check(!err && dt_result_status(r) == DT_STATUS_INSECURE &&
		      dt_result_rcode(r) == 0 && typed(r, 1) > 0,
	      "routegone: %s A insecure, through the route (%s)", name,
	      dt_error_str(err));
	dt_result_free(r);
	r = NULL;
	check(unlink(file) == 0, "routegone: the VPN's interface goes");
	usleep(1200 * 1000); /* DT_INPROC_SOURCE_LOOK_MS, and some */
	err = dt_query(ctx, name2, 1, 1, 0, &r);
	check(!err && dt_result_status(r) == DT_STATUS_SECURE &&
		      dt_result_rcode(r) == 3,
	      "routegone: %s A, asked after, is the public tree's NXDOMAIN, "
	      "secure (%s, rcode %d)",
	      name2, dt_error_str(err), r ? dt_result_rcode(r) : -1);
	dt_result_free(r);
}

int main(int argc, char **argv)
{
	if (argc < 3 || dt_ctx_new(&ctx) || dt_ctx_set_socket(ctx, argv[2]) ||
	    dt_ctx_set_socket(dt_ctx_default(), argv[2])) {
		fprintf(stderr, "usage: lab_check up|nouplink|down|fallback|"
				"inproc|auto SOCKET [EXPECT|MODE]\n");
		return 64;
	}
	dt_ctx_set_timeout(ctx, 10000);
	/* Any phase in-process: LAB_CHECK_MODE=inproc. */
	const char *mode = getenv("LAB_CHECK_MODE");
	if (mode && !strcmp(mode, "inproc") &&
	    !check(set_mode(DT_MODE_INPROCESS),
		   "LAB_CHECK_MODE=inproc: DT_MODE_INPROCESS set"))
		return 1;
	if (!strcmp(argv[1], "up") && argc == 4) {
		truth_table(argv[3]);
		gai_cases();
		key_cases();
		res_cases();
		misc_cases();
	} else if (!strcmp(argv[1], "nouplink")) {
		phase_nouplink();
	} else if (!strcmp(argv[1], "down")) {
		phase_down();
	} else if (!strcmp(argv[1], "fallback")) {
		phase_fallback();
	} else if (!strcmp(argv[1], "inproc") && argc == 4) {
		phase_inproc(argv[3]);
	} else if (!strcmp(argv[1], "auto") && argc == 4) {
		phase_auto(argv[3]);
	} else if (!strcmp(argv[1], "forged") && argc == 4) {
		phase_forged(argv[3]);
	} else if (!strcmp(argv[1], "forged-auto") && argc == 4) {
		phase_forged_auto(argv[3]);
	} else if (!strcmp(argv[1], "switch") && argc == 5) {
		phase_switch(argv[3], argv[4]);
	} else if (!strcmp(argv[1], "routegone") && argc == 6) {
		phase_routegone(argv[3], argv[4], argv[5]);
	} else {
		return 64;
	}
	dt_ctx_free(ctx);
	return failed ? 1 : 0;
}
