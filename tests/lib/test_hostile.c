/* SPDX-License-Identifier: MIT */
/*
 * Hostile daemon answers (fake.c's "i..." cases: records an upstream
 * added beside the genuine ones, let through with AD=1) through every
 * call of libdnstrust: dt_query (records and raw message), dt_res_query,
 * dt_getaddrinfo, dt_tlsa, dt_sshfp. No injected octet may come out:
 * each answer is either the genuine data alone or refused as bogus.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dnstrust.h"
#include "fake.h"
#include "lib/internal.h"
#include "tap.h"

static char dir[64], sock[128];
static dt_ctx_t *ctx;

/* Each case: its first label and whether the genuine answer survives. */
static const struct {
	const char *name;
	bool genuine;
} cases[] = {
	{"ibeside", false},  {"ibefore", false}, {"ioff", true},
	{"iclass", true},    {"icase", false},	 {"idname", true},
	{"idnamecn", false}, {"iloop", false},	 {"itypes", true},
	{"isect", true},     {"itwo", false},	 {"isplit", false},
	{"ilong", false},    {"inx", false},
};

/* Whether len octets at p hold anything injected: the name evil, the
 * addresses 10.66.0.9 and 2001:db8:66::9, the 0xee key data. */
static bool has_evil(const uint8_t *p, size_t len)
{
	static const struct {
		const char *s;
		size_t n;
	} pat[] = {
		{"\4evil", 5},
		{"\12\102\0\11", 4},
		{"\40\1\15\270\0\146", 6},
		{"\356\356\356\356\356\356\356\356", 8},
	};

	for (size_t k = 0; k < sizeof(pat) / sizeof(pat[0]); k++)
		for (size_t i = 0; i + pat[k].n <= len; i++)
			if (!memcmp(p + i, pat[k].s, pat[k].n))
				return true;
	return false;
}

static bool result_evil(const dt_result_t *r)
{
	size_t len;
	const uint8_t *w = dt_result_wire(r, &len);
	dt_rr_t rr;

	if (has_evil(w, len))
		return true;
	for (int s = DT_SECTION_ANSWER; s <= DT_SECTION_ADDITIONAL; s++)
		for (size_t i = 0; i < dt_result_count(r, s); i++)
			if (dt_result_rr(r, s, i, &rr) ||
			    strstr(rr.owner, "evil") ||
			    has_evil(rr.rdata, rr.rdlen))
				return true;
	return false;
}

static void check_query(const char *name, bool genuine, uint16_t type,
			int nwant)
{
	dt_result_t *r = NULL;
	int err = dt_query(ctx, name, 1, type, DT_FLAG_DNSSEC, &r);

	if (!genuine) {
		ok(err == DT_ERR_BOGUS && !r &&
			   dt_last_status() == DT_STATUS_BOGUS,
		   "dt_query %s type %u: refused as bogus (%d)", name, type,
		   err);
		err = dt_query(ctx, name, 1, type, DT_FLAG_RETURN_BOGUS, &r);
		ok(!err && r && dt_result_rcode(r) == 2 &&
			   dt_result_status(r) == DT_STATUS_BOGUS &&
			   dt_result_ede(r, NULL) == 6 && !result_evil(r),
		   "  with DT_FLAG_RETURN_BOGUS: SERVFAIL, EDE 6, no data");
	} else {
		ok(!err && r &&
			   (int)dt_result_count(r, DT_SECTION_ANSWER) ==
				   nwant &&
			   dt_result_count(r, DT_SECTION_AUTHORITY) == 0 &&
			   dt_result_count(r, DT_SECTION_ADDITIONAL) == 0 &&
			   !result_evil(r),
		   "dt_query %s type %u: the %d genuine records only", name,
		   type, nwant);
	}
	dt_result_free(r);
}

static void check_res_query(const char *name, bool genuine)
{
	unsigned char ans[4096];
	int n = dt_res_query(name, 1, 1, ans, sizeof(ans));

	if (genuine)
		ok(n > 12 && !has_evil(ans, (size_t)n) && (ans[3] & 0x20),
		   "dt_res_query %s: genuine, AD, nothing injected", name);
	else
		ok(n < 0 && h_errno == NO_RECOVERY,
		   "dt_res_query %s: refused (NO_RECOVERY)", name);
}

static void check_gai(const char *name, bool genuine)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
	char list[256] = "", a[INET6_ADDRSTRLEN];
	int err = dt_getaddrinfo(name, "80", &hints, &res);

	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		const void *p =
			ai->ai_family == AF_INET
				? (void *)&((struct sockaddr_in *)ai->ai_addr)
					  ->sin_addr
				: (void *)&((struct sockaddr_in6 *)ai->ai_addr)
					  ->sin6_addr;
		inet_ntop(ai->ai_family, p, a, sizeof(a));
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", list[0] ? " " : "", a);
	}
	if (genuine)
		is_str(list, "192.0.2.1 192.0.2.11 2001:db8::1",
		       "dt_getaddrinfo %s: the genuine addresses only", name);
	else
		ok(err == EAI_FAIL && !res, "dt_getaddrinfo %s: EAI_FAIL (%d)",
		   name, err);
	dt_freeaddrinfo(res);
}

static void check_keys(const char *name, bool genuine)
{
	dt_tlsa_set_t *t = NULL;
	dt_sshfp_set_t *s = NULL;
	int et = dt_tlsa(ctx, name, 443, "tcp", &t);
	int es = dt_sshfp(ctx, name, &s);

	if (genuine) {
		ok(!et && t->n == 1 && t->rr[0].data[0] == 0x5a &&
			   !has_evil(t->rr[0].data, t->rr[0].len),
		   "dt_tlsa %s: the genuine TLSA only", name);
		ok(!es && s->n == 1 && s->rr[0].fingerprint[0] == 0x5a &&
			   !has_evil(s->rr[0].fingerprint, s->rr[0].len),
		   "dt_sshfp %s: the genuine SSHFP only", name);
	} else {
		ok(et == DT_ERR_BOGUS && !t, "dt_tlsa %s: DT_ERR_BOGUS (%d)",
		   name, et);
		ok(es == DT_ERR_BOGUS && !s, "dt_sshfp %s: DT_ERR_BOGUS (%d)",
		   name, es);
	}
	dt_tlsa_free(t);
	dt_sshfp_free(s);
}

static void test_case(const char *label, bool genuine)
{
	char name[64];

	snprintf(name, sizeof(name), "%s.test.", label);
	check_query(name, genuine, 1, 2);
	check_query(name, genuine, 28, 1);
	check_res_query(name, genuine);
	check_gai(name, genuine);
	check_keys(name, genuine);
}

/* A genuine chain through a DNAME and mixed case still resolves: the
 * refusals above are not a refusal of every chain. */
static void test_genuine_chain(void)
{
	dt_result_t *r = NULL;

	is_int(dt_query(ctx, "cname.test.", 1, 1, 0, &r), 0,
	       "a genuine CNAME chain is followed");
	if (r)
		is_int((int)dt_result_count(r, DT_SECTION_ANSWER), 2,
		       "its CNAME and A");
	dt_result_free(r);
}

int main(void)
{
	struct fake *fake;

	snprintf(dir, sizeof(dir), "/tmp/dt-test-hostile.XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0755)) {
		printf("Bail out! no temporary directory\n");
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/socket", dir);
	fake = fake_start(sock);
	if (!fake || dt_ctx_new(&ctx) || dt_ctx_set_socket(NULL, sock)) {
		printf("Bail out! no fake daemon\n");
		return 1;
	}
	dt_ctx_set_socket(ctx, sock);
	dtlib_ctx_set_netview(NULL, 1, 1, 0);
	dtlib_ctx_set_hosts(NULL, "/nonexistent");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_case(cases[i].name, cases[i].genuine);
	test_genuine_chain();
	dt_ctx_free(ctx);
	fake_stop(fake);
	unlink(sock);
	rmdir(dir);
	return done_testing();
}
