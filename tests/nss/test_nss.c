/* SPDX-License-Identifier: MIT */
/*
 * The NSS module's entry points called directly, as glibc calls them,
 * against a fake dnstrustd (fake_daemon.c) on a temporary socket: every
 * status of the mapping, CNAME chains and what is not on them, reverse
 * lookups, and the caller's buffer: every size below the one needed gives
 * ERANGE, nothing is written past the end, any alignment works. And the
 * connection: one per process, reused by later lookups and threads,
 * replaced when the daemon restarted, never shared with a child of
 * fork(), never a descriptor the program took back.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netdb.h>
#include <nss.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tap.h"
#include "fake_daemon.h"
#include "nss/ask.h"
#include "nss/name.h"
#include "nss/nss_dnstrust.h"

#define GUARD	   64
#define GUARD_BYTE 0xa5

/* --- the fake daemon's table --- */

static const struct fake_rr v4_a[] = {
	{"v4.test", 1, 300, "192.0.2.1"},
	{"v4.test", 1, 200, "192.0.2.2"},
	{NULL},
};
static const struct fake_rr v4_aaaa[] = {
	{"v4.test", 28, 100, "2001:db8::1"},
	{NULL},
};
static const struct fake_rr insecure_a[] = {
	{"insecure.test", 1, 60, "198.51.100.7"},
	{NULL},
};
/* A chain alias -> mid -> v4, and a record off the chain that must never
 * be used. */
static const struct fake_rr alias_a[] = {
	{"alias.test", 5, 80, "mid.test"},  /* link 1 */
	{"mid.test", 5, 50, "v4.test"},	    /* link 2 */
	{"evil.test", 1, 300, "10.66.0.9"}, /* off the chain */
	{"v4.test", 1, 300, "192.0.2.1"},   /* the chain's end */
	{NULL},
};
static const struct fake_rr alias_aaaa[] = {
	{"alias.test", 5, 80, "mid.test"},
	{"mid.test", 5, 50, "v4.test"},
	{"v4.test", 28, 100, "2001:db8::1"},
	{NULL},
};
static const struct fake_rr loop_a[] = {
	{"loop.test", 5, 60, "loop2.test"},
	{"loop2.test", 5, 60, "loop.test"},
	{NULL},
};
static const struct fake_rr weird_a[] = {
	{"weird.test", 5, 60, "a b.test"},
	{"a b.test", 1, 60, "192.0.2.9"},
	{NULL},
};
static const struct fake_rr bogus6_a[] = {
	{"bogus6.test", 1, 60, "192.0.2.66"},
	{NULL},
};
static const struct fake_rr slow6_a[] = {
	{"slow6.test", 1, 60, "192.0.2.66"},
	{NULL},
};
static const struct fake_rr slow4_aaaa[] = {
	{"slow4.test", 28, 60, "2001:db8::44"},
	{NULL},
};
static const struct fake_rr ptr4[] = {
	{"1.2.0.192.in-addr.arpa", 12, 400, "host1.test"},
	{"1.2.0.192.in-addr.arpa", 12, 300, "bad name.test"},
	{"1.2.0.192.in-addr.arpa", 12, 500, "host2.test"},
	{NULL},
};
static const struct fake_rr ptr_classless[] = {
	{"5.2.0.192.in-addr.arpa", 5, 30, "5.0-25.2.0.192.in-addr.arpa"},
	{"5.0-25.2.0.192.in-addr.arpa", 12, 60, "classless.test"},
	{NULL},
};
static const struct fake_rr ptr_bad[] = {
	{"6.2.0.192.in-addr.arpa", 12, 60, "bad;name.test"},
	{NULL},
};
static const struct fake_rr ptr6[] = {
	{"1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2."
	 "ip6.arpa",
	 12, 60, "v6host.test"},
	{NULL},
};
static const struct fake_rr none[] = {{NULL}};

/* Hostile answers (an upstream's additions a daemon let through): no
 * 10.66.x.x address may ever come out of the module. */
static const struct fake_rr inj_beside[] = { /* CNAME beside the data */
	{"h1.test", 1, 60, "192.0.2.1"},
	{"h1.test", 5, 60, "evil.test"},
	{"evil.test", 1, 60, "10.66.0.1"},
	{NULL},
};
static const struct fake_rr inj_before[] = { /* CNAME first */
	{"h2.test", 5, 60, "evil.test"},
	{"evil.test", 1, 60, "10.66.0.2"},
	{"h2.test", 1, 60, "192.0.2.2"},
	{NULL},
};
static const struct fake_rr inj_offchain[] = {
	{"evil.test", 1, 60, "10.66.0.3"},
	{"h3.test", 1, 60, "192.0.2.3"},
	{"evil.test", 5, 60, "h3.test"},
	{NULL},
};
static const struct fake_rr inj_class[] = { /* a CNAME of class CH */
	{"h4.test", 5, 60, "evil.test", 3},
	{"evil.test", 1, 60, "10.66.0.4"},
	{"h4.test", 1, 60, "192.0.2.4"},
	{"h4.test", 1, 60, "10.66.0.44", 3},
	{NULL},
};
static const struct fake_rr inj_case[] = { /* a case variant of the owner */
	{"h5.test", 1, 60, "192.0.2.5"},
	{"H5.TEST", 5, 60, "evil.test"},
	{"evil.test", 1, 60, "10.66.0.5"},
	{NULL},
};
static const struct fake_rr case_chain[] = { /* genuine, mixed case */
	{"H6.test", 5, 60, "Target6.TEST"},
	{"target6.test", 1, 60, "192.0.2.6"},
	{NULL},
};
static const struct fake_rr inj_dname_alone[] = { /* no synthesized CNAME */
	{"x.test", 39, 60, "evil.test"},
	{"h7.evil.test", 1, 60, "10.66.0.7"},
	{NULL},
};
static const struct fake_rr inj_dname_wrong[] = { /* CNAME not the DNAME's */
	{"x.test", 39, 60, "good.test"},
	{"h8.x.test", 5, 60, "evil.test"},
	{"evil.test", 1, 60, "10.66.0.8"},
	{NULL},
};
static const struct fake_rr dname_chain[] = { /* genuine DNAME */
	{"x.test", 39, 60, "good.test"},
	{"h9.x.test", 5, 60, "h9.good.test"},
	{"h9.good.test", 1, 60, "192.0.2.9"},
	{NULL},
};
static const struct fake_rr inj_types[] = { /* wrong types, other sections */
	{"h10.test", 12, 60, "evil.test"},
	{"h10.test", 16, 60, "evil.test"},
	{"h10.test", 1, 60, "192.0.2.10"},
	{"h10.test", 1, 60, "10.66.0.10", 0, 1},
	{"h10.test", 5, 60, "evil.test", 0, 1},
	{"evil.test", 1, 60, "10.66.0.11", 0, 2},
	{"h10.test", 5, 60, "evil.test", 0, 2},
	{NULL},
};
static const struct fake_rr inj_two[] = { /* two CNAMEs at one owner */
	{"h12.test", 5, 60, "good12.test"},
	{"h12.test", 5, 60, "evil.test"},
	{"good12.test", 1, 60, "192.0.2.12"},
	{"evil.test", 1, 60, "10.66.0.12"},
	{NULL},
};
static const struct fake_rr inj_nx[] = { /* NXDOMAIN beside the data */
	{"h14.test", 1, 60, "192.0.2.14"},
	{NULL},
};
static const struct fake_rr inj_split[] = { /* end's data before the link */
	{"t13.test", 1, 60, "10.66.0.13"},
	{"h13.test", 5, 60, "t13.test"},
	{"t13.test", 1, 60, "192.0.2.13"},
	{NULL},
};

static struct fake_rr many_a[201];
static char many_addr[200][16];

static const struct fake_answer table[] = {
	{"v4.test", 1, 0, 1, -1, false, v4_a},
	{"v4.test", 28, 0, 1, -1, false, v4_aaaa},
	{"insecure.test", 1, 0, 2, -1, false, insecure_a},
	{"insecure.test", 28, 0, 2, -1, false, none},
	{"alias.test", 1, 0, 1, -1, false, alias_a},
	{"alias.test", 28, 0, 1, -1, false, alias_aaaa},
	{"nodata.test", 0, 0, 1, -1, false, none},
	{"bogus.test", 0, 2, 3, 6, false, none},
	{"bogus6.test", 1, 0, 1, -1, false, bogus6_a},
	{"bogus6.test", 28, 2, 3, 7, false, none},
	{"servfail.test", 0, 2, 4, 22, false, none},
	{"refused.test", 0, 5, 2, -1, false, none},
	{"slow.test", 0, 0, 1, -1, true, none},
	{"slow6.test", 1, 0, 1, -1, false, slow6_a},
	{"slow6.test", 28, 0, 1, -1, true, none},
	{"slow4.test", 1, 0, 1, -1, true, none},
	{"slow4.test", 28, 0, 1, -1, false, slow4_aaaa},
	{"loop.test", 0, 0, 1, -1, false, loop_a},
	{"h1.test", 0, 0, 1, -1, false, inj_beside},
	{"h2.test", 0, 0, 1, -1, false, inj_before},
	{"h3.test", 0, 0, 1, -1, false, inj_offchain},
	{"h4.test", 0, 0, 1, -1, false, inj_class},
	{"h5.test", 0, 0, 1, -1, false, inj_case},
	{"h6.test", 0, 0, 1, -1, false, case_chain},
	{"h7.x.test", 0, 0, 1, -1, false, inj_dname_alone},
	{"h8.x.test", 0, 0, 1, -1, false, inj_dname_wrong},
	{"h9.x.test", 0, 0, 1, -1, false, dname_chain},
	{"h10.test", 0, 0, 1, -1, false, inj_types},
	{"h12.test", 0, 0, 1, -1, false, inj_two},
	{"h13.test", 0, 0, 1, -1, false, inj_split},
	{"h14.test", 0, 3, 1, -1, false, inj_nx},
	{"weird.test", 1, 0, 2, -1, false, weird_a},
	{"many.test", 1, 0, 1, -1, false, many_a},
	{"many.test", 28, 0, 1, -1, false, none},
	{"1.2.0.192.in-addr.arpa", 12, 0, 1, -1, false, ptr4},
	{"5.2.0.192.in-addr.arpa", 12, 0, 2, -1, false, ptr_classless},
	{"6.2.0.192.in-addr.arpa", 12, 0, 2, -1, false, ptr_bad},
	{"7.2.0.192.in-addr.arpa", 12, 2, 3, 6, false, none},
	{"1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2."
	 "ip6.arpa",
	 12, 0, 1, -1, false, ptr6},
	{NULL, 0, 0, 0, 0, false, NULL},
};

static void make_many(void)
{
	for (int i = 0; i < 200; i++) {
		snprintf(many_addr[i], sizeof(many_addr[i]), "192.0.2.%d", i);
		many_a[i] = (struct fake_rr){"many.test", 1, 60, many_addr[i]};
	}
	many_a[200] = (struct fake_rr){NULL};
}

/* --- helpers --- */

static uid_t daemon_uid;

struct call {
	enum nss_status st;
	int err, herr;
	int32_t ttl;
};

static const char *st_name(enum nss_status st)
{
	switch (st) {
	case NSS_STATUS_SUCCESS: return "SUCCESS";
	case NSS_STATUS_NOTFOUND: return "NOTFOUND";
	case NSS_STATUS_TRYAGAIN: return "TRYAGAIN";
	case NSS_STATUS_UNAVAIL: return "UNAVAIL";
	default: return "RETURN";
	}
}

static void is_call(const struct call *c, enum nss_status st, int err, int herr,
		    const char *what)
{
	if (!ok(c->st == st && (st == NSS_STATUS_SUCCESS ||
				(c->err == err && c->herr == herr)),
		"%s: %s", what, st_name(st)))
		diag("got %s errno %d h_errno %d, want errno %d h_errno %d",
		     st_name(c->st), c->err, c->herr, err, herr);
}

static struct call name4(const char *name, struct gaih_addrtuple **pat,
			 char *buf, size_t len)
{
	struct call c = {.ttl = -1};

	c.st = _nss_dnstrust_gethostbyname4_r(name, pat, buf, len, &c.err,
					      &c.herr, &c.ttl);
	return c;
}

static struct call name3(const char *name, int af, struct hostent *h, char *buf,
			 size_t len, char **canon)
{
	struct call c = {.ttl = -1};

	c.st = _nss_dnstrust_gethostbyname3_r(name, af, h, buf, len, &c.err,
					      &c.herr, &c.ttl, canon);
	return c;
}

static struct call addr2(const char *text, int af, struct hostent *h, char *buf,
			 size_t len)
{
	struct call c = {.ttl = -1};
	uint8_t a[16];

	inet_pton(af, text, a);
	c.st = _nss_dnstrust_gethostbyaddr2_r(a, af == AF_INET ? 4 : 16, af, h,
					      buf, len, &c.err, &c.herr,
					      &c.ttl);
	return c;
}

static const char *tuple_text(const struct gaih_addrtuple *t, char *out)
{
	inet_ntop(t->family, t->addr, out, INET6_ADDRSTRLEN);
	return out;
}

static const char *host_addr(const struct hostent *h, size_t i, char *out)
{
	inet_ntop(h->h_addrtype, h->h_addr_list[i], out, INET6_ADDRSTRLEN);
	return out;
}

/* --- names --- */

/* A name of wire_len octets in wire form: labels of 63, then the rest
 * (wire_len 255 and 256 leave a last label of 61 and 62). */
static void long_name(char *out, size_t wire_len)
{
	size_t left = wire_len - 1, o = 0; /* the root label */

	while (left > 0) {
		size_t lab = left - 1 > 63 ? 63 : left - 1;

		memset(out + o, 'a', lab);
		o += lab;
		out[o++] = '.';
		left -= lab + 1;
	}
	out[o] = '\0';
}

static void test_names(void)
{
	uint8_t w[DT_NAME_MAXLEN], w2[DT_NAME_MAXLEN];
	char text[1100], host[DT_NAME_MAXLEN];

	is_int(dtnss_name_from_text("www.Example.", w), 13, "a name");
	ok(dtnss_name_from_text("WWW.example", w2) == 13 &&
		   dtnss_name_equal(w, w2),
	   "final dot optional, case ignored");
	is_int(dtnss_name_from_text(".", w), 1, "the root");
	ok(dtnss_name_from_text("\\065\\.b.c", w) == 7 &&
		   memcmp(w, "\003A.b\001c", 7) == 0,
	   "\\DDD and \\X escapes");
	is_int(dtnss_name_from_text("a\\", w), -1, "a final backslash");
	is_int(dtnss_name_from_text("a\\256", w), -1, "\\256");
	is_int(dtnss_name_from_text("a..b", w), -1, "an empty label");
	is_int(dtnss_name_from_text(".a", w), -1, "a leading dot");
	memset(text, 'a', 64);
	strcpy(text + 63, ".b");
	is_int(dtnss_name_from_text(text, w), 67, "a label of 63");
	memset(text, 'a', 64);
	strcpy(text + 64, ".b");
	is_int(dtnss_name_from_text(text, w), -1, "a label of 64");
	long_name(text, 255);
	is_int(dtnss_name_from_text(text, w), 255, "a name of 255 octets");
	long_name(text, 256);
	is_int(dtnss_name_from_text(text, w), -1, "a name of 256 octets");
	ok(dtnss_name_check((const uint8_t *)"\001a\300\014", 4) < 0,
	   "a compression pointer in RDATA is refused");
	ok(dtnss_name_check((const uint8_t *)"\001a\001", 3) < 0,
	   "a name that runs off its RDATA is refused");
	dtnss_name_from_text("host-1_x.Example", w);
	ok(dtnss_name_to_host(w, host, sizeof(host)) == 16 &&
		   strcmp(host, "host-1_x.Example") == 0,
	   "a host name back to text");
	ok(dtnss_name_to_host(w, host, 16) < 0, "a buffer one octet short");
	is_int(dtnss_name_to_host((const uint8_t *)"", host, sizeof(host)), -1,
	       "the root is no host name");
	ok(dtnss_text_is_host("www.secure.lab.") &&
		   !dtnss_text_is_host("a\\032b.lab.") &&
		   !dtnss_text_is_host("a;b.lab") && !dtnss_text_is_host("."),
	   "host names in text");
}

/* --- forward lookups --- */

static void test_name4(void)
{
	static char buf[4096];
	char a[INET6_ADDRSTRLEN];
	struct gaih_addrtuple *t = NULL, mine = {0}, *pmine = &mine;
	struct call c;

	c = name4("v4.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "gethostbyname4_r v4.test");
	if (c.st != NSS_STATUS_SUCCESS)
		return;
	is_str(t->name, "v4.test", "canonical name on the first tuple");
	is_str(tuple_text(t, a), "192.0.2.1", "first address");
	is_str(tuple_text(t->next, a), "192.0.2.2", "second address");
	is_str(tuple_text(t->next->next, a), "2001:db8::1", "AAAA last");
	ok(t->next->next->next == NULL, "three tuples");
	ok(t->next->name == NULL && t->next->scopeid == 0,
	   "later tuples: no name, no scope");
	is_int(c.ttl, 100, "ttl: the smallest of A and AAAA");

	c = name4("V4.TEST.", &pmine, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0,
		"gethostbyname4_r with glibc's own first tuple");
	ok(pmine == &mine && mine.family == AF_INET && mine.next != NULL &&
		   mine.next->next != NULL && mine.next->next->next == NULL,
	   "the caller's tuple is filled and linked to the rest");

	t = NULL;
	c = name4("alias.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "CNAME chain alias->mid->v4");
	if (c.st == NSS_STATUS_SUCCESS) {
		is_str(t->name, "v4.test", "canonical name: the chain's end");
		is_str(tuple_text(t, a), "192.0.2.1",
		       "only the address at the chain's end");
		ok(t->next && t->next->family == AF_INET6 &&
			   t->next->next == NULL,
		   "records off the chain are ignored (10.66.0.9)");
		is_int(c.ttl, 50, "ttl counts the CNAMEs");
	}

	t = NULL;
	c = name4("insecure.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "insecure A, AAAA NODATA");
	ok(c.st == NSS_STATUS_SUCCESS && t->next == NULL, "one tuple");

	c = name4("nx.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND, "NXDOMAIN");
	c = name4("nodata.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_DATA, "no address");
	c = name4("bogus.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY, "bogus");
	c = name4("bogus6.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY,
		"A secure but AAAA bogus: the lookup fails");
	c = name4("servfail.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_TRYAGAIN, EAGAIN, TRY_AGAIN,
		"indeterminate SERVFAIL");
	c = name4("refused.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY, "REFUSED");
	c = name4("loop.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY, "CNAME loop");
	c = name4("weird.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY,
		"canonical name that is not a host name");
	c = name4("a..b", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND,
		"not a domain name");
	c = name4("", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND, "empty name");
}

static void test_name3(void)
{
	static char buf[4096];
	char a[INET6_ADDRSTRLEN], *canon = NULL;
	struct hostent h;
	struct call c;
	int err, herr;

	c = name3("alias.test", AF_INET, &h, buf, sizeof(buf), &canon);
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "gethostbyname3_r AF_INET");
	if (c.st == NSS_STATUS_SUCCESS) {
		is_str(h.h_name, "v4.test", "h_name: the canonical name");
		ok(canon == h.h_name, "canonp points at h_name");
		ok(h.h_aliases[0] && !strcmp(h.h_aliases[0], "alias.test") &&
			   h.h_aliases[1] &&
			   !strcmp(h.h_aliases[1], "mid.test") &&
			   h.h_aliases[2] == NULL,
		   "h_aliases: the names the chain went through");
		ok(h.h_addrtype == AF_INET && h.h_length == 4,
		   "h_addrtype, h_length");
		is_str(host_addr(&h, 0, a), "192.0.2.1", "h_addr_list[0]");
		ok(h.h_addr_list[1] == NULL, "one address");
		is_int(c.ttl, 50, "ttl");
	}
	c = name3("v4.test", AF_INET6, &h, buf, sizeof(buf), NULL);
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "gethostbyname3_r AF_INET6");
	ok(c.st == NSS_STATUS_SUCCESS && h.h_length == 16 &&
		   h.h_aliases[0] == NULL &&
		   !strcmp(host_addr(&h, 0, a), "2001:db8::1"),
	   "AAAA hostent");
	c = name3("insecure.test", AF_INET6, &h, buf, sizeof(buf), NULL);
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_DATA, "AAAA NODATA");
	c = name3("v4.test", AF_UNIX, &h, buf, sizeof(buf), NULL);
	is_call(&c, NSS_STATUS_UNAVAIL, EAFNOSUPPORT, NETDB_INTERNAL,
		"unknown family");

	memset(&h, 0, sizeof(h));
	is_int(_nss_dnstrust_gethostbyname2_r("v4.test", AF_INET, &h, buf,
					      sizeof(buf), &err, &herr),
	       NSS_STATUS_SUCCESS, "gethostbyname2_r");
	ok(h.h_addr_list && h.h_addr_list[1] && !h.h_addr_list[2],
	   "gethostbyname2_r: two addresses");
	is_int(_nss_dnstrust_gethostbyname_r("bogus.test", &h, buf, sizeof(buf),
					     &err, &herr),
	       NSS_STATUS_NOTFOUND, "gethostbyname_r: bogus");
	is_int(herr, NO_RECOVERY, "gethostbyname_r: bogus is NO_RECOVERY");
}

/* --- reverse lookups --- */

static void test_addr(void)
{
	static char buf[4096];
	char rname[DTNSS_REVERSE_MAXLEN], a[INET6_ADDRSTRLEN];
	uint8_t v6[16];
	struct hostent h;
	struct call c;
	int err, herr;

	inet_pton(AF_INET6, "2001:db8::1", v6);
	dtnss_reverse_name(AF_INET6, v6, rname);
	is_str(rname,
	       "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0."
	       "2.ip6.arpa.",
	       "ip6.arpa. name");

	c = addr2("192.0.2.1", AF_INET, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "gethostbyaddr2_r 192.0.2.1");
	if (c.st == NSS_STATUS_SUCCESS) {
		is_str(h.h_name, "host1.test", "h_name: the first PTR");
		ok(h.h_aliases[0] && !strcmp(h.h_aliases[0], "host2.test") &&
			   h.h_aliases[1] == NULL,
		   "h_aliases: the other PTR; 'bad name.test' left out");
		is_str(host_addr(&h, 0, a), "192.0.2.1", "h_addr_list");
		is_int(c.ttl, 400, "ttl of the PTRs used");
	}
	c = addr2("192.0.2.5", AF_INET, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "classless delegation (CNAME)");
	ok(c.st == NSS_STATUS_SUCCESS && !strcmp(h.h_name, "classless.test"),
	   "PTR at the end of the CNAME");
	c = addr2("192.0.2.6", AF_INET, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_DATA,
		"a PTR target that is no host name is not returned");
	c = addr2("192.0.2.7", AF_INET, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY, "bogus PTR");
	c = addr2("192.0.2.8", AF_INET, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND,
		"NXDOMAIN PTR");
	c = addr2("2001:db8::1", AF_INET6, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "ip6.arpa.");
	ok(c.st == NSS_STATUS_SUCCESS && !strcmp(h.h_name, "v6host.test") &&
		   h.h_length == 16,
	   "IPv6 hostent");
	c = addr2("::ffff:192.0.2.1", AF_INET6, &h, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "IPv4-mapped: in-addr.arpa.");
	ok(c.st == NSS_STATUS_SUCCESS && !strcmp(h.h_name, "host1.test") &&
		   h.h_addrtype == AF_INET6,
	   "IPv4-mapped keeps its family");
	is_int(_nss_dnstrust_gethostbyaddr_r(v6, 4, AF_INET6, &h, buf,
					     sizeof(buf), &err, &herr),
	       NSS_STATUS_UNAVAIL, "gethostbyaddr_r: short address");
	ok(err == EAFNOSUPPORT && herr == NETDB_INTERNAL,
	   "short address: EAFNOSUPPORT, NETDB_INTERNAL");
}

/* --- the buffer --- */

/* Every length below the one needed must give ERANGE and leave the guard
 * bytes after it alone; at every offset (alignment). Returns the length
 * needed, or 0 on failure. */
typedef struct call (*buf_fn)(char *buf, size_t len);

static size_t sweep(buf_fn fn, const char *what)
{
	static char area[8 + 8192 + GUARD];
	size_t need = 0;
	bool all_erange = true, guard_ok = true;

	for (size_t off = 0; off < 8; off++) {
		for (size_t len = 0; len <= 8192; len++) {
			char *buf = area + off;
			struct call c;

			memset(area, GUARD_BYTE, sizeof(area));
			c = fn(len ? buf : NULL, len);
			for (size_t i = len; i < len + GUARD; i++)
				guard_ok &= (uint8_t)buf[i] == GUARD_BYTE;
			for (size_t i = 0; i < off; i++)
				guard_ok &= (uint8_t)area[i] == GUARD_BYTE;
			if (c.st == NSS_STATUS_SUCCESS) {
				if (off == 0)
					need = len;
				break;
			}
			all_erange &= c.st == NSS_STATUS_TRYAGAIN &&
				      c.err == ERANGE &&
				      c.herr == NETDB_INTERNAL;
		}
	}
	ok(need > 0 && all_erange,
	   "%s: every buffer below %zu octets gives ERANGE", what, need);
	ok(guard_ok, "%s: nothing written outside the buffer", what);
	return need;
}

static struct call b_name4(char *buf, size_t len)
{
	struct gaih_addrtuple *t = NULL;
	struct call c = name4("alias.test", &t, buf, len);

	if (c.st == NSS_STATUS_SUCCESS &&
	    ((uintptr_t)t % _Alignof(struct gaih_addrtuple) != 0 ||
	     strcmp(t->name, "v4.test") != 0))
		c.st = NSS_STATUS_RETURN; /* misaligned or wrong */
	return c;
}

static struct call b_name3(char *buf, size_t len)
{
	struct hostent h;
	struct call c = name3("alias.test", AF_INET, &h, buf, len, NULL);

	if (c.st == NSS_STATUS_SUCCESS &&
	    ((uintptr_t)h.h_aliases % _Alignof(char *) != 0 ||
	     (uintptr_t)h.h_addr_list[0] % 4 != 0 ||
	     strcmp(h.h_aliases[1], "mid.test") != 0))
		c.st = NSS_STATUS_RETURN;
	return c;
}

static struct call b_addr(char *buf, size_t len)
{
	struct hostent h;
	struct call c = addr2("192.0.2.1", AF_INET, &h, buf, len);

	if (c.st == NSS_STATUS_SUCCESS &&
	    strcmp(h.h_aliases[0], "host2.test") != 0)
		c.st = NSS_STATUS_RETURN;
	return c;
}

static void test_buffer(void)
{
	char *buf = NULL;
	size_t len = 16, rounds = 0;
	struct gaih_addrtuple *t = NULL;
	struct call c;
	size_t n = 0;

	sweep(b_name4, "gethostbyname4_r");
	sweep(b_name3, "gethostbyname3_r");
	sweep(b_addr, "gethostbyaddr2_r");

	/* glibc's loop: double the buffer while ERANGE. */
	for (;;) {
		buf = realloc(buf, len);
		c = name4("many.test", &t, buf, len);
		rounds++;
		if (c.st != NSS_STATUS_TRYAGAIN || c.err != ERANGE)
			break;
		len *= 2;
	}
	for (; c.st == NSS_STATUS_SUCCESS && t != NULL; t = t->next)
		n++;
	ok(c.st == NSS_STATUS_SUCCESS && n == 200,
	   "200 addresses after %zu doublings to %zu octets", rounds - 1, len);
	free(buf);
}

/* --- descriptors --- */

static int fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

/* One connection stays open for the next lookups, nothing else: two
 * descriptors more than before the first lookup, its two ends (the
 * fake daemon closes its side of any other once the module has, given
 * a moment). */
static void test_fds(int before)
{
	int after = -1;

	for (int i = 0; i < 100 && (after = fd_count()) != before + 2; i++)
		usleep(10000);
	is_int(after, before + 2,
	       "one connection kept by the lookups above, nothing else");
}

/* --- the daemon gone, slow, or an impostor --- */

static void test_transport(const char *sock)
{
	static char buf[1024];
	struct gaih_addrtuple *t = NULL;
	struct call c;
	unsigned before;

	dtnss_test_settings("/nonexistent/dnstrust/socket", DTNSS_TIMEOUT_MS,
			    daemon_uid);
	c = name4("v4.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_UNAVAIL, ENOENT, TRY_AGAIN,
		"no daemon: UNAVAIL");

	dtnss_test_settings(sock, 300, daemon_uid);
	before = fake_daemon_questions();
	c = name4("slow.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_TRYAGAIN, EAGAIN, TRY_AGAIN,
		"no answer in time: TRYAGAIN, not UNAVAIL");
	is_int(fake_daemon_questions() - before, 2,
	       "A and AAAA were asked together");
	c = name4("slow6.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0,
		"A answered, AAAA not in time: the A address");
	ok(c.st == NSS_STATUS_SUCCESS && t != NULL && t->family == AF_INET &&
		   t->next == NULL,
	   "... and only it");
	c = name4("slow4.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_TRYAGAIN, EAGAIN, TRY_AGAIN,
		"AAAA answered, A not in time: TRYAGAIN");
	dtnss_test_settings(sock, DTNSS_TIMEOUT_MS, daemon_uid);
	c = name4("v4.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_SUCCESS, 0, 0, "answers again afterwards");
}

/* --- one connection per process --- */

/* n lookups of v4.test: how many failed. */
static int lookups(int n)
{
	static _Thread_local char buf[1024];
	int bad = 0;

	for (int i = 0; i < n; i++) {
		struct gaih_addrtuple *t = NULL;
		struct call c = name4("v4.test", &t, buf, sizeof(buf));
		bad += c.st != NSS_STATUS_SUCCESS || t == NULL;
	}
	return bad;
}

static void *lookups_thread(void *arg)
{
	*(int *)arg = lookups(100);
	return NULL;
}

/* The module's own descriptor: the one connected to the socket. */
static int module_fd(const char *sock)
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

static void test_reuse_threads(void)
{
	pthread_t th[4];
	int bad[4] = {0}, sum = 0;
	unsigned c0 = fake_daemon_connections();

	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, lookups_thread, &bad[i]);
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		sum += bad[i];
	}
	is_int(sum, 0, "400 lookups from 4 threads at once all answered");
	ok(fake_daemon_connections() - c0 <= 4,
	   "... on at most 4 connections (%u)", fake_daemon_connections() - c0);
}

static void test_reuse_fork(void)
{
	unsigned c0 = fake_daemon_connections();
	int status;
	pid_t pid;

	if ((pid = fork()) == 0)
		_exit(lookups(10) == 0 ? 0 : 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a child of fork() looks names up");
	is_int(fake_daemon_connections() - c0, 1,
	       "... on a connection of its own");
	c0 = fake_daemon_connections();
	is_int(lookups(10), 0, "the parent still looks names up");
	is_int(fake_daemon_connections() - c0, 0, "... on its connection");
}

/* The program closes the module's descriptor and opens a pipe that gets
 * its number: the pipe is neither written to nor closed. */
static void test_reuse_taken(const char *sock)
{
	int fd = module_fd(sock), p[2] = {-1, -1}, n = -1;
	char c;

	if (fd < 0 || pipe2(p, O_NONBLOCK) != 0 || dup2(p[1], fd) != fd) {
		ok(0, "the module's descriptor replaced by a pipe");
		return;
	}
	close(p[1]);
	is_int(lookups(3), 0, "its descriptor taken back: lookups go on");
	ok(fcntl(fd, F_GETFD) >= 0 && (n = (int)read(p[0], &c, 1)) < 0 &&
		   errno == EAGAIN,
	   "... and the program's pipe is neither written to nor closed");
	close(fd);
	close(p[0]);
}

/* The daemon gone and its path taken by a socket another user listens
 * on: the next connection is checked as the first was. */
static void test_reuse_impostor(const char *sock)
{
	static char buf[1024];
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct gaih_addrtuple *t = NULL;
	int ready[2], status;
	struct call c;
	char x;
	pid_t pid;

	if (getuid() != 0) {
		ok(1, "# SKIP the impostor test needs root");
		return;
	}
	is_int(lookups(1), 0, "a connection kept");
	fake_daemon_pause();
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (pipe(ready) != 0 || (pid = fork()) < 0) {
		ok(0, "an impostor starts");
		return;
	}
	if (pid == 0) {
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		/* Bound as root, listening as 65534: SO_PEERCRED says 65534. */
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
		    setgid(65534) != 0 || setuid(65534) != 0 ||
		    listen(fd, 16) != 0 || write(ready[1], "", 1) != 1)
			_exit(1);
		for (;;)
			if (accept(fd, NULL, NULL) < 0)
				pause();
	}
	ok(read(ready[0], &x, 1) == 1, "another user listens at the path");
	c = name4("v4.test", &t, buf, sizeof(buf));
	is_call(&c, NSS_STATUS_UNAVAIL, EACCES, NO_RECOVERY,
		"the kept connection gone, the new one refused");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(ready[0]);
	close(ready[1]);
	unlink(sock);
	ok(fake_daemon_resume() == 0 && lookups(1) == 0,
	   "the daemon back: answered again");
}

static void test_reuse(const char *sock)
{
	static char buf[1024];
	struct hostent h;
	unsigned c0, q0;
	struct call c;
	int bad = 0;

	dtnss_test_settings(sock, DTNSS_TIMEOUT_MS, daemon_uid);
	c0 = fake_daemon_connections();
	q0 = fake_daemon_questions();
	is_int(lookups(100), 0, "100 lookups in a row all answered");
	is_int(fake_daemon_connections() - c0, 1, "... on one connection");
	is_int(fake_daemon_questions() - q0, 200, "... A and AAAA each");
	for (int i = 0; i < 10; i++) {
		c = name3("v4.test", AF_INET, &h, buf, sizeof(buf), NULL);
		bad += c.st != NSS_STATUS_SUCCESS;
		c = addr2("192.0.2.1", AF_INET, &h, buf, sizeof(buf));
		bad += c.st != NSS_STATUS_SUCCESS;
	}
	is_int(bad, 0, "gethostbyname3_r, gethostbyaddr2_r answered");
	is_int(fake_daemon_connections() - c0, 1, "... on the same connection");

	test_reuse_threads();
	test_reuse_fork();

	ok(fake_daemon_restart() == 0, "the daemon restarts");
	c0 = fake_daemon_connections();
	is_int(lookups(5), 0, "lookups after the restart all answered");
	is_int(fake_daemon_connections() - c0, 1, "... on a new connection");

	/* The daemon closes the kept connection as the question arrives:
	 * asked again on a new one. */
	fake_daemon_hangup_next();
	c0 = fake_daemon_connections();
	is_int(lookups(1), 0, "a kept connection closed under the question: "
			      "answered on a new one");
	is_int(fake_daemon_connections() - c0, 1, "... one new connection");

	test_reuse_taken(sock);
	test_reuse_impostor(sock);
}

/* --- hostile answers --- */

struct hostile {
	const char *name;
	const char *want; /* the one address, or NULL: refused */
	int herr;	  /* when refused */
};

static const struct hostile hostile[] = {
	{"h1.test", NULL, NO_RECOVERY},
	{"h2.test", NULL, NO_RECOVERY},
	{"h3.test", "192.0.2.3", 0},
	{"h4.test", "192.0.2.4", 0},
	{"h5.test", NULL, NO_RECOVERY},
	{"h6.test", "192.0.2.6", 0},
	{"h7.x.test", NULL, NO_DATA},
	{"h8.x.test", NULL, NO_RECOVERY},
	{"h9.x.test", "192.0.2.9", 0},
	{"h10.test", "192.0.2.10", 0},
	{"h12.test", NULL, NO_RECOVERY},
	{"h13.test", NULL, NO_RECOVERY},
	{"h14.test", NULL, NO_RECOVERY},
};

/* The addresses of a hostent, one string; injected ones start 10.66. */
static void host_list(const struct hostent *h, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	out[0] = '\0';
	for (size_t i = 0; h->h_addr_list[i] != NULL; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 i ? " " : "", host_addr(h, i, a));
}

static void check_hostile4(const struct hostile *x)
{
	static char buf[4096];
	char a[INET6_ADDRSTRLEN], got[256] = "";
	struct gaih_addrtuple *t = NULL;
	struct call c = name4(x->name, &t, buf, sizeof(buf));

	for (; c.st == NSS_STATUS_SUCCESS && t != NULL; t = t->next)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 got[0] ? " " : "", tuple_text(t, a));
	if (x->want)
		is_str(got, x->want, "gethostbyname4_r %s: %s only", x->name,
		       x->want);
	else
		is_call(&c, NSS_STATUS_NOTFOUND, ENOENT, x->herr, x->name);
}

static void check_hostile3(const struct hostile *x)
{
	static char buf[4096];
	char got[256] = "";
	struct hostent h;
	struct call c = name3(x->name, AF_INET, &h, buf, sizeof(buf), NULL);

	if (c.st == NSS_STATUS_SUCCESS)
		host_list(&h, got, sizeof(got));
	if (x->want)
		is_str(got, x->want, "gethostbyname3_r %s: %s only", x->name,
		       x->want);
	else
		ok(c.st == NSS_STATUS_NOTFOUND && c.herr == x->herr,
		   "gethostbyname3_r %s: refused (%s, h_errno %d)", x->name,
		   st_name(c.st), c.herr);
}

static void test_hostile(void)
{
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		check_hostile4(&hostile[i]);
		check_hostile3(&hostile[i]);
	}
}

/* An impostor: the same answers, served by uid 65534 (the test forks,
 * the child drops to that user and asks its own fake daemon). */
static void test_impostor(void)
{
	static char buf[1024];
	struct gaih_addrtuple *t = NULL;
	const char *p;
	struct call c;
	pid_t pid;
	int status;

	if (getuid() != 0) {
		ok(1, "# SKIP the impostor test needs root");
		return;
	}
	if ((pid = fork()) == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0 ||
		    (p = fake_daemon_start(table)) == NULL)
			_exit(1);
		dtnss_test_settings(p, DTNSS_TIMEOUT_MS, (uid_t)-1);
		c = name4("v4.test", &t, buf, sizeof(buf));
		fake_daemon_stop();
		_exit(c.st == NSS_STATUS_UNAVAIL && c.err == EACCES &&
				      c.herr == NO_RECOVERY
			      ? 0
			      : 2);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a socket served by another user: UNAVAIL, EACCES (exit %d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void)
{
	const char *sock;
	int fds;

	make_many();
	if ((sock = fake_daemon_start(table)) == NULL) {
		printf("Bail out! fake daemon did not start\n");
		return 1;
	}
	/* A test run by another user trusts its own fake daemon. */
	daemon_uid = getuid() == 0 ? (uid_t)-1 : getuid();
	dtnss_test_settings(sock, DTNSS_TIMEOUT_MS, daemon_uid);
	fds = fd_count();

	test_names();
	test_name4();
	test_name3();
	test_addr();
	test_hostile();
	test_buffer();
	test_fds(fds);
	test_reuse(sock);
	test_transport(sock);
	fake_daemon_stop();
	test_impostor();
	return done_testing();
}
