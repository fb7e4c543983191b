/* SPDX-License-Identifier: MIT */
/*
 * What each libdnstrust call returns for one question, as text lines for
 * tests/lab/injector.sh to search for injected data:
 *
 *   query rc=R rcode=N status=S      then one "rr SECTION TEXT" line per
 *                                    record, "wire injected" when the
 *                                    raw message holds injected octets
 *   gai rc=R A...                    (dt_getaddrinfo of NAME)
 *   tlsa rc=R U S M HEX...           (TLSA: NAME is _PORT._tcp.HOST)
 *   sshfp rc=R A T HEX...            (SSHFP)
 *
 * usage: inj_client SOCKET NAME TYPE
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "dnstrust.h"

static dt_ctx_t *ctx;

/* Injected octets: the label evil, 6.6.6.6, 2001:db8:666::, 0xee runs. */
static int wire_injected(const uint8_t *p, size_t len)
{
	static const struct {
		const char *s;
		size_t n;
	} pat[] = {{"\4evil", 5},
		   {"\6\6\6\6", 4},
		   {"\40\1\15\270\6\146", 6},
		   {"\356\356\356\356\356\356\356\356", 8}};

	for (size_t k = 0; k < sizeof(pat) / sizeof(pat[0]); k++)
		for (size_t i = 0; i + pat[k].n <= len; i++)
			if (!memcmp(p + i, pat[k].s, pat[k].n))
				return 1;
	return 0;
}

static void print_query(const char *name, uint16_t type, unsigned flags)
{
	static const char *const sec[] = {"an", "ns", "ar"};
	dt_result_t *r = NULL;
	char text[8192];
	const uint8_t *w;
	size_t len;
	int rc = dt_query(ctx, name, 1, type, flags, &r);

	printf("query%s rc=%d rcode=%d status=%s\n",
	       flags & DT_FLAG_DNSSEC ? "+do" : "", rc, dt_result_rcode(r),
	       dt_status_str(dt_last_status()));
	if (!r)
		return;
	for (int s = 0; s < 3; s++)
		for (size_t i = 0; i < dt_result_count(r, s); i++)
			if (dt_result_rr_text(r, s, i, text, sizeof(text)) >= 0)
				printf("rr %s %s\n", sec[s], text);
	w = dt_result_wire(r, &len);
	if (wire_injected(w, len))
		printf("wire injected\n");
	dt_result_free(r);
}

static void print_gai(const char *name)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
	char a[INET6_ADDRSTRLEN];
	int rc = dt_getaddrinfo_ex(ctx, name, NULL, &hints, 0, &res, NULL);

	printf("gai rc=%d", rc);
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		void *p =
			ai->ai_family == AF_INET
				? (void *)&((struct sockaddr_in *)ai->ai_addr)
					  ->sin_addr
				: (void *)&((struct sockaddr_in6 *)ai->ai_addr)
					  ->sin6_addr;
		printf(" %s", inet_ntop(ai->ai_family, p, a, sizeof(a)));
	}
	printf("\n");
	dt_freeaddrinfo(res);
}

static void hex(const uint8_t *p, size_t n)
{
	printf(" ");
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static void print_tlsa(const char *name)
{
	dt_tlsa_set_t *t = NULL;
	unsigned port = 0;
	char host[1100];
	int rc = sscanf(name, "_%u._tcp.%1099s", &port, host) == 2
			 ? dt_tlsa(ctx, host, (uint16_t)port, "tcp", &t)
			 : DT_ERR_INVALID;

	printf("tlsa rc=%d", rc);
	for (size_t i = 0; t && i < t->n; i++) {
		printf(" %u %u %u", t->rr[i].usage, t->rr[i].selector,
		       t->rr[i].matching_type);
		hex(t->rr[i].data, t->rr[i].len);
	}
	printf("\n");
	dt_tlsa_free(t);
}

static void print_sshfp(const char *name)
{
	dt_sshfp_set_t *s = NULL;
	int rc = dt_sshfp(ctx, name, &s);

	printf("sshfp rc=%d", rc);
	for (size_t i = 0; s && i < s->n; i++) {
		printf(" %u %u", s->rr[i].algorithm, s->rr[i].fp_type);
		hex(s->rr[i].fingerprint, s->rr[i].len);
	}
	printf("\n");
	dt_sshfp_free(s);
}

int main(int argc, char **argv)
{
	uint16_t type;

	if (argc != 4 || dt_ctx_new(&ctx) || dt_ctx_set_socket(ctx, argv[1])) {
		fprintf(stderr, "usage: inj_client SOCKET NAME TYPE\n");
		return 2;
	}
	type = !strcmp(argv[3], "AAAA")	   ? 28
	       : !strcmp(argv[3], "TLSA")  ? 52
	       : !strcmp(argv[3], "SSHFP") ? 44
	       : !strcmp(argv[3], "TXT")   ? 16
					   : 1;
	print_query(argv[2], type, 0);
	print_query(argv[2], type, DT_FLAG_DNSSEC);
	print_gai(argv[2]);
	if (type == 52)
		print_tlsa(argv[2]);
	if (type == 44)
		print_sshfp(argv[2]);
	dt_ctx_free(ctx);
	return 0;
}
