/* SPDX-License-Identifier: MIT */
/*
 * dt_getaddrinfo against the fake daemon (fake.c): getaddrinfo's
 * contract (hints, AI_* flags, numeric hosts, services, a test hosts
 * file read as glibc's "files" source), the statuses of A and AAAA
 * answers combined, bogus and unavailable daemons, A and AAAA pipelined
 * on one connection.
 */
#include <arpa/inet.h>
#include <errno.h>
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

static char dir[64], sock[128], hosts[128];
static struct fake *fake;
static dt_ctx_t *ctx;

static const char hosts_file[] =
	"# a test hosts file\n"
	"192.0.2.50   filehost.test  alias.test   # trailing comment\n"
	"2001:db8::50 filehost.test\n"
	"\n"
	"   192.0.2.51\tcached.test\n"
	"10.1.1.1     v4only.test\n"
	"not-an-addr  broken.test\n"
	"192.0.2.52   MultiCase.Test\n"
	"192.0.2.53   filehost.test\n"
	"192.0.2.54\n";

static unsigned questions(void)
{
	struct fake_seen s;

	fake_seen(fake, &s);
	return s.questions;
}

/* The addresses of a list as "a b c" (text forms), and its length. */
static const char *addrs_of(const struct addrinfo *ai, int *ret_n)
{
	static char out[16384];
	size_t len = 0;
	int n = 0;

	out[0] = '\0';
	for (; ai; ai = ai->ai_next, n++) {
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
		if (len < sizeof(out) - 64)
			len += (size_t)snprintf(out + len, sizeof(out) - len,
						"%s%s", len ? " " : "", t);
	}
	if (ret_n)
		*ret_n = n;
	return out;
}

static uint16_t port_of(const struct addrinfo *ai)
{
	return ntohs(ai->ai_family == AF_INET
			     ? ((struct sockaddr_in *)ai->ai_addr)->sin_port
			     : ((struct sockaddr_in6 *)ai->ai_addr)->sin6_port);
}

/* dt_getaddrinfo_ex on ctx, one socket type; the addresses as text. */
static int gai(const char *node, int family, int flags, unsigned dtflags,
	       const char **out, enum dt_status *st)
{
	struct addrinfo hints = {.ai_family = family,
				 .ai_socktype = SOCK_STREAM,
				 .ai_flags = flags};
	struct addrinfo *res = NULL;
	int err = dt_getaddrinfo_ex(ctx, node, NULL, &hints, dtflags, &res, st);

	*out = err ? "" : addrs_of(res, NULL);
	dt_freeaddrinfo(res);
	return err;
}

/* --- addresses from the daemon --- */

static void test_dns(void)
{
	enum dt_status st = DT_STATUS_NONE;
	const char *a;

	is_int(gai("secure.test", AF_UNSPEC, 0, 0, &a, &st), 0, "secure.test");
	is_str(a, "192.0.2.1 192.0.2.11 2001:db8::1",
	       "A and AAAA, IPv4 first when IPv6 is not preferred");
	is_int(st, DT_STATUS_SECURE, "status secure");
	is_int(dt_last_status(), DT_STATUS_SECURE, "dt_last_status secure");
	dtlib_ctx_set_netview(ctx, 1, 1, 1);
	gai("secure.test", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "2001:db8::1 192.0.2.1 192.0.2.11", "IPv6 first when it is");
	dtlib_ctx_set_netview(ctx, 1, 1, 0);
	gai("secure.test", AF_INET, 0, 0, &a, &st);
	is_str(a, "192.0.2.1 192.0.2.11", "AF_INET");
	gai("secure.test", AF_INET6, 0, 0, &a, &st);
	is_str(a, "2001:db8::1", "AF_INET6");
	gai("cname.test", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "192.0.2.7 2001:db8::7", "through a CNAME");
	gai("big.test", AF_INET, 0, 0, &a, &st);
	ok(strncmp(a, "10.0.0.0 10.0.0.1 ", 18) == 0 &&
		   strstr(a, " 10.0.1.43") != NULL,
	   "300 addresses in a large answer");

	unsigned q0 = questions();
	is_int(gai("reorder.test", AF_UNSPEC, 0, 0, &a, &st), 0,
	       "answers coming back in reverse order");
	is_str(a, "192.0.2.1 192.0.2.11 2001:db8::1", "are matched right");
	is_int(questions() - q0, 2,
	       "A and AAAA were asked at once on one connection");
}

static void test_statuses(void)
{
	enum dt_status st = DT_STATUS_NONE;
	const char *a;

	is_int(gai("insecure.test", AF_UNSPEC, 0, 0, &a, &st), 0, "insecure");
	is_int(st, DT_STATUS_INSECURE, "status insecure");
	is_int(gai("insecure.test", AF_UNSPEC, 0, DT_FLAG_REQUIRE_SECURE, &a,
		   &st),
	       DT_EAI_NOT_SECURE,
	       "insecure, secure required: DT_EAI_NOT_SECURE");
	is_int(dt_last_status(), DT_STATUS_INSECURE, "dt_last_status insecure");
	is_int(gai("bogus.test", AF_UNSPEC, 0, 0, &a, &st), EAI_FAIL,
	       "bogus: EAI_FAIL");
	is_int(dt_last_status(), DT_STATUS_BOGUS, "dt_last_status bogus");
	is_int(gai("bogus.test", AF_INET, 0, DT_FLAG_RETURN_BOGUS, &a, &st), 0,
	       "bogus with DT_FLAG_RETURN_BOGUS");
	ok(!strcmp(a, "192.0.2.3") && st == DT_STATUS_BOGUS,
	   "the bogus address, marked bogus");
	is_int(gai("halfbogus.test", AF_UNSPEC, 0, 0, &a, &st), EAI_FAIL,
	       "A secure, AAAA bogus: EAI_FAIL, not the A alone");
	is_int(gai("halfbogus.test", AF_INET, 0, 0, &a, &st), 0,
	       "AF_INET: only A asked");
	is_int(st, DT_STATUS_SECURE, "secure");
	is_int(gai("mixed.test", AF_UNSPEC, 0, 0, &a, &st), 0,
	       "A secure, AAAA insecure");
	is_int(st, DT_STATUS_INSECURE, "the least trusted status: insecure");
	is_int(gai("mixed.test", AF_UNSPEC, 0, DT_FLAG_REQUIRE_SECURE, &a, &st),
	       DT_EAI_NOT_SECURE, "not secure as a whole");
	is_int(gai("mixed.test", AF_INET, 0, DT_FLAG_REQUIRE_SECURE, &a, &st),
	       0, "AF_INET: secure");
	st = DT_STATUS_UNVALIDATED;
	is_int(gai("nx.test", AF_UNSPEC, 0, 0, &a, &st), EAI_NONAME,
	       "NXDOMAIN: EAI_NONAME");
	is_int(st, DT_STATUS_UNVALIDATED, "*status untouched on error");
	is_int(dt_last_status(), DT_STATUS_SECURE, "a secure denial");
	is_int(gai("nodata.test", AF_UNSPEC, 0, 0, &a, &st), EAI_NODATA,
	       "no addresses: EAI_NODATA");
	is_int(gai("indet.test", AF_UNSPEC, 0, 0, &a, &st), EAI_AGAIN,
	       "indeterminate SERVFAIL: EAI_AGAIN");
	is_int(gai("refused.test", AF_UNSPEC, 0, 0, &a, &st), EAI_FAIL,
	       "REFUSED: EAI_FAIL");
	is_int(gai("only4.test", AF_UNSPEC, 0, 0, &a, &st), 0, "A only");
	is_str(a, "192.0.2.6", "its address");
	is_int(gai("garbage.test", AF_UNSPEC, 0, 0, &a, &st), EAI_FAIL,
	       "nonsense from the daemon: EAI_FAIL");
	is_int(gai("close.test", AF_UNSPEC, 0, 0, &a, &st), DT_EAI_UNAVAILABLE,
	       "the daemon hangs up: DT_EAI_UNAVAILABLE");
	is_int(gai("a..b", AF_UNSPEC, 0, 0, &a, &st), EAI_NONAME,
	       "a bad name: EAI_NONAME");
	is_int(gai("", AF_UNSPEC, 0, 0, &a, &st), EAI_NONAME,
	       "an empty name: EAI_NONAME");

	dt_ctx_t *quick = NULL;
	struct addrinfo *res = NULL;
	dt_ctx_new(&quick);
	dt_ctx_set_socket(quick, sock);
	dt_ctx_set_timeout(quick, 200);
	is_int(dt_getaddrinfo_ex(quick, "silent.test", NULL, NULL, 0, &res,
				 NULL),
	       EAI_AGAIN, "silence: EAI_AGAIN");
	dt_ctx_free(quick);
}

static void test_mapped(void)
{
	enum dt_status st;
	const char *a;
	unsigned q0;

	q0 = questions();
	is_int(gai("only4.test", AF_INET6, AI_V4MAPPED, 0, &a, &st), 0,
	       "AF_INET6, AI_V4MAPPED, A only");
	is_str(a, "::ffff:192.0.2.6", "the A mapped");
	is_int(questions() - q0, 2, "AAAA first, then A");
	q0 = questions();
	gai("only6.test", AF_INET6, AI_V4MAPPED, 0, &a, &st);
	is_str(a, "2001:db8::6", "with AAAA, no mapping");
	is_int(questions() - q0, 1, "and A not asked");
	gai("secure.test", AF_INET6, AI_V4MAPPED | AI_ALL, 0, &a, &st);
	is_str(a, "2001:db8::1 ::ffff:192.0.2.1 ::ffff:192.0.2.11",
	       "AI_ALL: both, IPv6 first");
	gai("secure.test", AF_INET, AI_V4MAPPED, 0, &a, &st);
	is_str(a, "192.0.2.1 192.0.2.11",
	       "AI_V4MAPPED means nothing to AF_INET");
	is_int(gai("only4.test", AF_INET6, 0, 0, &a, &st), EAI_NODATA,
	       "AF_INET6 without AI_V4MAPPED, A only: EAI_NODATA");
}

static void test_addrconfig(void)
{
	enum dt_status st;
	const char *a;

	dtlib_ctx_set_netview(ctx, 1, 0, 0);
	gai("secure.test", AF_UNSPEC, AI_ADDRCONFIG, 0, &a, &st);
	is_str(a, "192.0.2.1 192.0.2.11",
	       "AI_ADDRCONFIG, IPv4 host: IPv4 only");
	is_int(gai("secure.test", AF_INET6, AI_ADDRCONFIG, 0, &a, &st),
	       EAI_NONAME, "AF_INET6 on an IPv4 host: EAI_NONAME");
	gai("secure.test", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "192.0.2.1 192.0.2.11 2001:db8::1",
	       "without AI_ADDRCONFIG: both");
	dtlib_ctx_set_netview(ctx, 0, 1, 0);
	gai("secure.test", AF_UNSPEC, AI_ADDRCONFIG, 0, &a, &st);
	is_str(a, "2001:db8::1", "IPv6 host: IPv6 only");
	dtlib_ctx_set_netview(ctx, 0, 0, 0);
	gai("secure.test", AF_UNSPEC, AI_ADDRCONFIG, 0, &a, &st);
	is_str(a, "192.0.2.1 192.0.2.11 2001:db8::1",
	       "no addresses at all: no narrowing");
	dtlib_ctx_set_netview(ctx, 1, 1, 0);
}

/* --- without the daemon: numeric hosts, none, /etc/hosts --- */

static void test_numeric(void)
{
	struct addrinfo hints = {.ai_flags = AI_CANONNAME,
				 .ai_socktype = SOCK_DGRAM};
	struct addrinfo *res = NULL;
	enum dt_status st = DT_STATUS_SECURE;
	unsigned q0 = questions();
	const char *a;

	is_int(dt_getaddrinfo_ex(ctx, "192.0.2.99", "53", &hints, 0, &res, &st),
	       0, "a numeric IPv4 address");
	if (res) {
		is_str(addrs_of(res, NULL), "192.0.2.99", "its address");
		is_str(res->ai_canonname, "192.0.2.99", "canonname: itself");
		is_int(port_of(res), 53, "port 53");
		is_int(res->ai_socktype, SOCK_DGRAM, "SOCK_DGRAM");
		is_int(res->ai_protocol, IPPROTO_UDP, "IPPROTO_UDP");
	}
	is_int(st, DT_STATUS_NONE, "status none: not DNS data");
	dt_freeaddrinfo(res);
	gai("127.1", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "127.0.0.1", "inet_aton's forms (127.1)");
	gai("2001:db8::99", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "2001:db8::99", "a numeric IPv6 address");
	is_int(gai("192.0.2.99", AF_INET6, 0, 0, &a, &st), EAI_ADDRFAMILY,
	       "IPv4 for AF_INET6: EAI_ADDRFAMILY");
	gai("192.0.2.99", AF_INET6, AI_V4MAPPED, 0, &a, &st);
	is_str(a, "::ffff:192.0.2.99", "mapped with AI_V4MAPPED");
	is_int(gai("::1", AF_INET, 0, 0, &a, &st), EAI_ADDRFAMILY,
	       "IPv6 for AF_INET: EAI_ADDRFAMILY");
	is_int(gai("1.2.3.4 junk", AF_UNSPEC, AI_NUMERICHOST, 0, &a, &st),
	       EAI_NONAME, "trailing junk is not numeric");
	hints = (struct addrinfo){.ai_family = AF_INET6,
				  .ai_socktype = SOCK_STREAM};
	res = NULL;
	is_int(dt_getaddrinfo_ex(ctx, "fe80::1%1", NULL, &hints, 0, &res, NULL),
	       0, "a scoped IPv6 address");
	if (res)
		is_int(((struct sockaddr_in6 *)res->ai_addr)->sin6_scope_id, 1,
		       "scope id 1");
	dt_freeaddrinfo(res);
	is_int(gai("fe80::1%nosuchif0", AF_UNSPEC, AI_NUMERICHOST, 0, &a, &st),
	       EAI_NONAME, "an unknown interface");
	is_int(gai("secure.test", AF_UNSPEC, AI_NUMERICHOST, 0, &a, &st),
	       EAI_NONAME, "AI_NUMERICHOST with a name: EAI_NONAME");
	is_int(questions() - q0, 0, "the daemon was never asked");
}

static void test_no_node(void)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_PASSIVE};
	struct addrinfo *res = NULL;

	is_int(dt_getaddrinfo_ex(ctx, NULL, "8080", &hints, 0, &res, NULL), 0,
	       "no node, AI_PASSIVE");
	is_str(addrs_of(res, NULL), "0.0.0.0 ::", "the wildcard addresses");
	ok(res && port_of(res) == 8080, "port 8080");
	dt_freeaddrinfo(res);
	res = NULL;
	hints.ai_flags = 0;
	dt_getaddrinfo_ex(ctx, NULL, "8080", &hints, 0, &res, NULL);
	is_str(addrs_of(res, NULL), "::1 127.0.0.1", "the loopback addresses");
	dt_freeaddrinfo(res);
	res = NULL;
	hints.ai_family = AF_INET;
	hints.ai_flags = AI_PASSIVE;
	dt_getaddrinfo_ex(ctx, NULL, "8080", &hints, 0, &res, NULL);
	is_str(addrs_of(res, NULL), "0.0.0.0", "AF_INET, AI_PASSIVE");
	dt_freeaddrinfo(res);
}

static void test_hosts(void)
{
	unsigned q0 = questions();
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_CANONNAME};
	struct addrinfo *res = NULL;
	enum dt_status st = DT_STATUS_SECURE;
	const char *a;

	is_int(dt_getaddrinfo_ex(ctx, "alias.test", NULL, &hints,
				 DT_FLAG_REQUIRE_SECURE, &res, &st),
	       0, "an alias from the hosts file");
	is_str(addrs_of(res, NULL), "192.0.2.50", "its address");
	is_str(res ? res->ai_canonname : NULL, "filehost.test",
	       "the canonical name of its line");
	is_int(st, DT_STATUS_NONE,
	       "status none, and DT_FLAG_REQUIRE_SECURE does not refuse it");
	dt_freeaddrinfo(res);
	gai("filehost.test", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "192.0.2.50 192.0.2.53 2001:db8::50",
	       "every line naming it, both families");
	gai("filehost.test", AF_INET6, 0, 0, &a, &st);
	is_str(a, "2001:db8::50", "AF_INET6");
	gai("filehost.test", AF_INET6, AI_V4MAPPED, 0, &a, &st);
	is_str(a, "2001:db8::50", "AI_V4MAPPED with IPv6 present: no mapping");
	gai("filehost.test", AF_INET6, AI_V4MAPPED | AI_ALL, 0, &a, &st);
	is_str(a, "2001:db8::50 ::ffff:192.0.2.50 ::ffff:192.0.2.53",
	       "AI_ALL: mapped IPv4 after IPv6");
	gai("multicase.TEST", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "192.0.2.52", "names match without regard to case");
	gai("cached.test", AF_UNSPEC, 0, 0, &a, &st);
	is_str(a, "192.0.2.51", "the hosts file comes before the daemon");
	is_int(questions() - q0, 0, "which was never asked");
	is_int(gai("v4only.test", AF_INET6, 0, 0, &a, &st), EAI_FAIL,
	       "a name there for another family goes to the daemon");
	is_int(questions() - q0, 1, "(asked once)");
	is_int(gai("broken.test", AF_UNSPEC, 0, 0, &a, &st), EAI_FAIL,
	       "a line with a bad address is skipped");
	dtlib_ctx_set_hosts(ctx, "/nonexistent/hosts");
	gai("alias.test", AF_INET, 0, 0, &a, &st);
	is_str(a, "", "no hosts file: the daemon answers (REFUSED here)");
	dtlib_ctx_set_hosts(ctx, hosts);
}

/* glibc and libdnstrust agree on localhost (from the real /etc/hosts). */
static void test_like_glibc(void)
{
	struct addrinfo hints = {.ai_family = AF_INET,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *g = NULL, *d = NULL;
	char want[256];
	dt_ctx_t *c = NULL;

	if (getaddrinfo("localhost", "80", &hints, &g)) {
		ok(1, "# SKIP glibc does not resolve localhost");
		return;
	}
	snprintf(want, sizeof(want), "%s", addrs_of(g, NULL));
	freeaddrinfo(g);
	dt_ctx_new(&c);
	dt_ctx_set_socket(c, sock);
	is_int(dt_getaddrinfo_ex(c, "localhost", "80", &hints, 0, &d, NULL), 0,
	       "localhost from /etc/hosts");
	is_str(addrs_of(d, NULL), want, "the addresses glibc gives");
	dt_freeaddrinfo(d);
	dt_ctx_free(c);
}

/* --- services and hints --- */

static int ports(const char *service, int socktype, int protocol, int flags,
		 char *out, size_t len)
{
	struct addrinfo hints = {.ai_family = AF_INET,
				 .ai_flags = flags,
				 .ai_socktype = socktype,
				 .ai_protocol = protocol};
	struct addrinfo *res = NULL;
	int err = dt_getaddrinfo_ex(ctx, "192.0.2.1", service, &hints, 0, &res,
				    NULL);
	size_t l = 0;

	out[0] = '\0';
	for (struct addrinfo *i = res; i; i = i->ai_next)
		l += (size_t)snprintf(out + l, len - l, "%s%d/%d/%u",
				      l ? " " : "", i->ai_socktype,
				      i->ai_protocol, port_of(i));
	dt_freeaddrinfo(res);
	return err;
}

static void test_services(void)
{
	char p[256], want[128];

	ports(NULL, 0, 0, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/%d/0 %d/%d/0 %d/0/0", SOCK_STREAM,
		 IPPROTO_TCP, SOCK_DGRAM, IPPROTO_UDP, SOCK_RAW);
	is_str(p, want, "no service, no type: stream, datagram, raw");
	ports("80", 0, 0, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/%d/80 %d/%d/80 %d/0/80", SOCK_STREAM,
		 IPPROTO_TCP, SOCK_DGRAM, IPPROTO_UDP, SOCK_RAW);
	is_str(p, want, "a numeric service: all three, port 80");
	ports("domain", 0, 0, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/%d/53 %d/%d/53", SOCK_STREAM,
		 IPPROTO_TCP, SOCK_DGRAM, IPPROTO_UDP);
	is_str(p, want, "domain: tcp and udp from /etc/services");
	ports("http", 0, 0, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/%d/80", SOCK_STREAM, IPPROTO_TCP);
	is_str(p, want, "http: tcp only");
	ports("ntp", SOCK_DGRAM, 0, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/%d/123", SOCK_DGRAM, IPPROTO_UDP);
	is_str(p, want, "ntp, SOCK_DGRAM");
	ports("ssh", 0, IPPROTO_TCP, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/%d/22", SOCK_STREAM, IPPROTO_TCP);
	is_str(p, want, "ssh, IPPROTO_TCP");
	ports(NULL, SOCK_RAW, 17, 0, p, sizeof(p));
	snprintf(want, sizeof(want), "%d/17/0", SOCK_RAW);
	is_str(p, want, "SOCK_RAW takes any protocol");
	is_int(ports("http", SOCK_DGRAM, 0, 0, p, sizeof(p)), EAI_SERVICE,
	       "http over udp: EAI_SERVICE");
	is_int(ports("http", 0, 0, AI_NUMERICSERV, p, sizeof(p)), EAI_NONAME,
	       "AI_NUMERICSERV with a name: EAI_NONAME");
	is_int(ports("no-such-service", 0, 0, 0, p, sizeof(p)), EAI_SERVICE,
	       "an unknown service: EAI_SERVICE");
	is_int(ports("70000", 0, 0, 0, p, sizeof(p)), EAI_SERVICE,
	       "port 70000: EAI_SERVICE");
	is_int(ports("80", SOCK_RAW, 0, 0, p, sizeof(p)), EAI_SERVICE,
	       "a service for a raw socket: EAI_SERVICE");
	is_int(ports(NULL, 12345, 0, 0, p, sizeof(p)), EAI_SOCKTYPE,
	       "an unknown socket type: EAI_SOCKTYPE");
	is_int(ports(NULL, SOCK_DGRAM, IPPROTO_TCP, 0, p, sizeof(p)),
	       EAI_SOCKTYPE, "datagrams over TCP: EAI_SOCKTYPE");
}

static void test_hints(void)
{
	struct addrinfo hints = {0}, *res = NULL;
	int n;

	is_int(dt_getaddrinfo_ex(ctx, NULL, NULL, NULL, 0, &res, NULL),
	       EAI_NONAME, "neither node nor service: EAI_NONAME");
	hints.ai_flags = AI_CANONNAME;
	is_int(dt_getaddrinfo_ex(ctx, NULL, "80", &hints, 0, &res, NULL),
	       EAI_BADFLAGS, "AI_CANONNAME without a node: EAI_BADFLAGS");
	hints.ai_flags = 0x10000;
	is_int(dt_getaddrinfo_ex(ctx, "secure.test", NULL, &hints, 0, &res,
				 NULL),
	       EAI_BADFLAGS, "an unknown AI_ flag: EAI_BADFLAGS");
	hints.ai_flags = 0;
	is_int(dt_getaddrinfo_ex(ctx, "secure.test", NULL, &hints, 0x80, &res,
				 NULL),
	       EAI_BADFLAGS, "an unknown DT_FLAG_: EAI_BADFLAGS");
	hints.ai_family = AF_UNIX;
	is_int(dt_getaddrinfo_ex(ctx, "secure.test", NULL, &hints, 0, &res,
				 NULL),
	       EAI_FAMILY, "AF_UNIX: EAI_FAMILY");
	is_int(dt_getaddrinfo_ex(ctx, "secure.test", NULL, NULL, 0, NULL, NULL),
	       EAI_SYSTEM, "nowhere to put the list: EAI_SYSTEM");
	ok(res == NULL, "nothing written on errors");
	is_int(dt_getaddrinfo_ex(ctx, "cname.test", NULL, NULL, 0, &res, NULL),
	       0, "no hints");
	addrs_of(res, &n);
	is_int(n, 6, "two addresses, three socket types each");
	ok(res && res->ai_flags == (AI_V4MAPPED | AI_ADDRCONFIG),
	   "glibc's default flags");
	ok(res && !res->ai_canonname, "no canonname unless asked");
	dt_freeaddrinfo(res);
	res = NULL;
	hints = (struct addrinfo){.ai_flags = AI_CANONNAME};
	dt_getaddrinfo_ex(ctx, "cname.test.", NULL, &hints, 0, &res, NULL);
	is_str(res ? res->ai_canonname : NULL, "target.cname.test",
	       "AI_CANONNAME: the end of the CNAME chain, no final dot");
	ok(res && res->ai_next && !res->ai_next->ai_canonname,
	   "in the first entry only");
	dt_freeaddrinfo(res);
	dt_freeaddrinfo(NULL);
}

/* dt_getaddrinfo: the default context. */
static void test_default_ctx(void)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_family = AF_INET};
	struct addrinfo *res = NULL;

	dt_ctx_set_socket(NULL, sock);
	is_int(dt_getaddrinfo("secure.test", "443", &hints, &res), 0,
	       "dt_getaddrinfo on the default context");
	is_str(addrs_of(res, NULL), "192.0.2.1 192.0.2.11", "its addresses");
	ok(res && port_of(res) == 443, "port 443");
	is_int(dt_last_status(), DT_STATUS_SECURE, "and its status");
	dt_freeaddrinfo(res);
	res = NULL;
	is_int(dt_getaddrinfo("bogus.test", NULL, &hints, &res), EAI_FAIL,
	       "bogus: EAI_FAIL");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/dt-test-gai.XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0755)) {
		printf("Bail out! no temporary directory\n");
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/socket", dir);
	snprintf(hosts, sizeof(hosts), "%s/hosts", dir);
	FILE *f = fopen(hosts, "w");
	fake = fake_start(sock);
	if (!f || !fake || dt_ctx_new(&ctx)) {
		printf("Bail out! no fake daemon\n");
		return 1;
	}
	fputs(hosts_file, f);
	fclose(f);
	dt_ctx_set_socket(ctx, sock);
	dt_ctx_set_timeout(ctx, 3000);
	dtlib_ctx_set_hosts(ctx, hosts);
	dtlib_ctx_set_netview(ctx, 1, 1, 0);

	test_dns();
	test_statuses();
	test_mapped();
	test_addrconfig();
	test_numeric();
	test_no_node();
	test_hosts();
	test_like_glibc();
	test_services();
	test_hints();
	test_default_ctx();

	dt_ctx_free(ctx);
	fake_stop(fake);
	unlink(hosts);
	unlink(sock);
	rmdir(dir);
	return done_testing();
}
