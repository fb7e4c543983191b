/* SPDX-License-Identifier: MIT */
/*
 * src/upstream/resolvconf.c against glibc's reading of resolv.conf:
 * keywords in column 0, comments, the first word of a nameserver line in
 * inet_aton's or inet_pton's syntax with %scope, at most three servers,
 * options as prefixes with atoi numbers and glibc's clamps, the loopback
 * default; loading files; comparing; server text both ways; the search
 * list.
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/errcode.h"
#include "upstream/resolvconf.h"
#include "wire/dname.h"
#include "tap.h"

static struct up_conf C;

static void parse_len(const char *text, size_t len)
{
	up_conf_parse(text, len, &C);
}

/* Literals may hold NUL octets: their length is their size. */
#define parse(lit)	      parse_len(lit, sizeof(lit) - 1)
#define one(lit, want, what)  one_len(lit, sizeof(lit) - 1, want, what)
#define parse_into(lit, conf) up_conf_parse(lit, sizeof(lit) - 1, conf)

static const char *ns(size_t i)
{
	static char buf[128];

	if (i >= C.nns)
		return "(none)";
	up_server_str(&C.ns[i], buf, sizeof(buf));
	return buf;
}

static uint32_t scope(size_t i)
{
	const struct sockaddr_in6 *s = (const void *)&C.ns[i].addr;

	return s->sin6_family == AF_INET6 ? s->sin6_scope_id : 0xFFFFFFFF;
}

/* One nameserver line's outcome: the server text or "-" when skipped. */
static void one_len(const char *text, size_t len, const char *want,
		    const char *what)
{
	parse_len(text, len);
	if (strcmp(want, "-") == 0)
		ok(C.defaulted && C.skipped == 1, "%s: skipped", what);
	else
		ok(C.nns == 1 && !C.defaulted && strcmp(ns(0), want) == 0,
		   "%s: %s (got %s)", what, want, ns(0));
}

static void test_defaults(void)
{
	parse("");
	ok(C.nns == 1 && C.defaulted, "empty file: one server, defaulted");
	is_str(ns(0), "127.0.0.1", "the default is 127.0.0.1");
	is_int(C.timeout_ms, 5000, "timeout 5 s");
	is_int(C.attempts, 2, "attempts 2");
	ok(!C.rotate && C.skipped == 0, "no rotate, nothing skipped");
	parse("# only comments\n; and more\nsearch example.com\n"
	      "domain example.com\nsortlist 10.0.0.0/8\n");
	ok(C.defaulted && C.nns == 1, "no nameserver line: defaulted");
	parse("nameserver 192.0.2.1");
	ok(!C.defaulted && C.nns == 1, "no final newline");
	is_str(ns(0), "192.0.2.1", "the server");
	parse_len("nameserver 192.0.2.1\n", 11);
	ok(C.defaulted, "len is honoured: \"nameserver \" alone");
	is_int(C.skipped, 1, "and is an empty nameserver line");
}

static void test_nameservers(void)
{
	parse("nameserver 192.0.2.1\nnameserver 2001:db8::53\n"
	      "nameserver 198.51.100.7\nnameserver 203.0.113.9\n");
	is_int(C.nns, 3, "at most three servers (MAXNS)");
	is_str(ns(0), "192.0.2.1", "first");
	is_str(ns(1), "2001:db8::53", "second, IPv6");
	is_str(ns(2), "198.51.100.7", "third; the fourth ignored");
	is_int(C.skipped, 0, "the fourth is not malformed");

	parse("nameserver bad\nnameserver 192.0.2.1\nnameserver 300.1.1.1\n"
	      "nameserver 192.0.2.2\nnameserver 192.0.2.3\n"
	      "nameserver 192.0.2.4\n");
	ok(C.nns == 3 && strcmp(ns(2), "192.0.2.3") == 0,
	   "malformed lines take no slot");
	is_int(C.skipped, 2, "two malformed lines counted");

	parse("nameserver 192.0.2.1\nnameserver 192.0.2.1\n");
	is_int(C.nns, 2, "a server given twice is kept twice, as glibc does");

	one("nameserver\t192.0.2.1\n", "192.0.2.1", "tab after the keyword");
	one("nameserver  \t 192.0.2.1 \n", "192.0.2.1", "runs of blanks");
	one("nameserver 192.0.2.1 # resolver\n", "192.0.2.1",
	    "words after the address ignored");
	one("nameserver 192.0.2.1 junk 10.0.0.1\n", "192.0.2.1",
	    "only the first word counts");
	one("nameserver 192.0.2.1#x\n", "-", "comment glued to the address");
	one("nameserver 192.0.2.1;\n", "-", "semicolon glued to the address");
	one("nameserver 192.0.2.1\r\n", "-",
	    "CRLF line: glibc sees 192.0.2.1\\r, not an address");
	one("nameserver 192.0.2.1\v\n", "-", "vertical tab after it");
	one("nameserver 192.0.2.1\0junk\n", "192.0.2.1",
	    "a NUL octet ends the line");
	one("nameserver 127.1\n", "127.0.0.1", "inet_aton: 127.1");
	one("nameserver 0x7f.1\n", "127.0.0.1", "inet_aton: hex");
	one("nameserver 010.0.0.1\n", "8.0.0.1", "inet_aton: octal");
	one("nameserver 3221225985\n", "192.0.2.1", "inet_aton: one number");
	one("nameserver 1.2.3.4.\n", "-", "trailing dot");
	one("nameserver 09.1.1.1\n", "-", "bad octal digit");
	one("nameserver 256.1.1.1\n", "-", "octet over 255");
	one("nameserver example.com\n", "-", "a name");
	one("nameserver [::1]\n", "-", "brackets");
	one("nameserver ::1\n", "::1", "IPv6 loopback");
	one("nameserver ::ffff:192.0.2.1\n", "::ffff:192.0.2.1", "IPv4-mapped");
	one("nameserver 2001:db8::1:\n", "-", "bad IPv6");
	one("nameserver 1.2.3.4%1\n", "-", "scope on an IPv4 address");
	one("nameserver \n", "-", "nothing after the keyword");
	one("nameserver %1\n", "-", "only a scope");

	parse("nameserver\n");
	ok(C.defaulted && C.skipped == 0,
	   "keyword without a blank after it is not a nameserver line");
	parse("nameservers 192.0.2.1\n nameserver 192.0.2.1\n"
	      "#nameserver 192.0.2.2\n;nameserver 192.0.2.3\n"
	      "\0nameserver 192.0.2.4\nNAMESERVER 192.0.2.5\n");
	ok(C.defaulted && C.skipped == 0,
	   "other words, indented lines, comments, NUL first, upper case: "
	   "all ignored");
}

static void test_scopes(void)
{
	unsigned lo = if_nametoindex("lo");
	char want[64];

	parse("nameserver fe80::1%2\n");
	ok(C.nns == 1 && scope(0) == 2, "numeric scope");
	if (lo) {
		parse("nameserver fe80::1%lo\n");
		ok(C.nns == 1 && scope(0) == lo, "interface name (lo = %u)",
		   lo);
		snprintf(want, sizeof(want), "fe80::1%%lo");
		is_str(ns(0), want, "written with the interface's name");
		parse("nameserver ff02::1%lo\n");
		ok(scope(0) == lo, "link-local multicast: interface name");
	} else {
		ok(1, "# SKIP no lo");
		ok(1, "# SKIP no lo");
		ok(1, "# SKIP no lo");
	}
	parse("nameserver 2001:db8::1%lo\n");
	ok(C.nns == 1 && scope(0) == 0,
	   "global address: names are not looked up, bad scope gives 0");
	parse("nameserver 2001:db8::1%7\n");
	ok(C.nns == 1 && scope(0) == 7, "global address, numeric scope");
	parse("nameserver fe80::1%nosuchif0\n");
	ok(C.nns == 1 && scope(0) == 0, "unknown interface: kept, scope 0");
	parse("nameserver fe80::1%\n");
	ok(C.nns == 1 && scope(0) == 0, "empty scope: kept, scope 0");
	parse("nameserver fe80::1%4294967295\n");
	ok(scope(0) == 4294967295u, "largest scope");
	parse("nameserver fe80::1%4294967296\n");
	ok(C.nns == 1 && scope(0) == 0, "scope too large: 0");
	parse("nameserver fe80::1%00000000000000000000000000003\n");
	ok(scope(0) == 3, "leading zeros");
	parse("nameserver fe80::1%3%4\n");
	ok(C.nns == 1 && scope(0) == 0, "second %% makes the scope bad");
}

static void test_options(void)
{
	parse("options timeout:1 attempts:3 rotate\n");
	ok(C.timeout_ms == 1000 && C.attempts == 3 && C.rotate,
	   "timeout, attempts, rotate");
	parse("options\trotate\ttimeout:7\n");
	ok(C.rotate && C.timeout_ms == 7000, "tabs between words");
	parse("options timeout:2\noptions attempts:4\noptions timeout:3\n");
	ok(C.timeout_ms == 3000 && C.attempts == 4,
	   "several options lines, the later wins");
	parse("options attempts:3 attempts:1\n");
	is_int(C.attempts, 1, "the later word wins");

	parse("options timeout:0\n");
	is_int(C.timeout_ms, 1000, "timeout:0 is 1 s (glibc's res_send)");
	parse("options timeout:-5\n");
	is_int(C.timeout_ms, 1000, "negative timeout: 1 s");
	parse("options timeout:30\n");
	is_int(C.timeout_ms, 30000, "timeout:30");
	parse("options timeout:31\n");
	is_int(C.timeout_ms, 30000,
	       "timeout:31 clamped to 30 (RES_MAXRETRANS)");
	parse("options timeout:\n");
	is_int(C.timeout_ms, 1000, "timeout: without a number is 0, so 1 s");
	parse("options timeout: 4\n");
	is_int(C.timeout_ms, 4000, "atoi skips the blank: timeout: 4 is 4");
	parse("options timeout:+6x\n");
	is_int(C.timeout_ms, 6000, "sign and junk after the digits");
	parse("options timeout:4294967297\n");
	is_int(C.timeout_ms, 1000,
	       "atoi's int keeps the low 32 bits: 2^32+1 is 1");
	parse("options timeout:2147483648\n");
	is_int(C.timeout_ms, 1000, "2^31 is negative as an int: 1 s");
	parse("options timeout:99999999999999999999999\n");
	is_int(C.timeout_ms, 1000, "LONG_MAX as an int is -1: 1 s");
	parse("options timeout:-99999999999999999999999\n");
	is_int(C.timeout_ms, 1000, "LONG_MIN as an int is 0: 1 s");
	parse("options timeout:4294967326\n");
	is_int(C.timeout_ms, 30000, "2^32+30 is 30");

	parse("options attempts:0\n");
	is_int(C.attempts, 1, "attempts:0 taken as 1 (glibc would not ask)");
	parse("options attempts:5\n");
	is_int(C.attempts, 5, "attempts:5");
	parse("options attempts:6\n");
	is_int(C.attempts, 5, "attempts:6 clamped to 5 (RES_MAXRETRY)");

	parse("options rotatefoo\n");
	ok(C.rotate, "options are prefixes: rotatefoo is rotate");
	parse("options norotate no-rotate rotat\n");
	ok(!C.rotate, "norotate, rotat: not rotate");
	parse("options rotate\r\n");
	ok(C.rotate, "rotate before a CR");
	parse("options timeout:3\r\n");
	is_int(C.timeout_ms, 3000, "timeout before a CR");
	parse(" options rotate\n#options rotate\n");
	ok(!C.rotate, "indented or commented: ignored");
	parse("options\n");
	ok(!C.rotate && C.timeout_ms == 5000, "options alone");
	parse("options ndots:3 edns0 trust-ad single-request timeout:2 "
	      "unknown:1\n");
	ok(C.timeout_ms == 2000 && !C.rotate, "other options ignored");
	parse("options timeout:2#comment\n");
	is_int(C.timeout_ms, 2000, "atoi stops at '#'");
	parse("options rotate\0timeout:9\n");
	ok(C.rotate && C.timeout_ms == 5000, "a NUL ends the options");
}

static void test_realistic(void)
{
	parse("# Generated by NetworkManager\nsearch lan example.com\n"
	      "nameserver 192.168.1.1\nnameserver fe80::1%2\n"
	      "nameserver 2001:db8:1::1\n# NOTE: the libc resolver may not "
	      "support more than 3 nameservers.\n# The nameservers listed "
	      "below may not be recognized.\nnameserver 192.168.1.2\n");
	ok(C.nns == 3 && strcmp(ns(0), "192.168.1.1") == 0 && scope(1) == 2,
	   "NetworkManager's file");
	parse("# This is /run/systemd/resolve/stub-resolv.conf managed by "
	      "man:systemd-resolved(8).\n\nnameserver 127.0.0.53\n"
	      "options edns0 trust-ad\nsearch .\n");
	ok(C.nns == 1 && strcmp(ns(0), "127.0.0.53") == 0 && !C.defaulted,
	   "systemd-resolved's stub file");
	parse("domain corp.example\nsearch corp.example example\n"
	      "nameserver 10.0.0.2\nnameserver 10.0.0.3\n"
	      "options timeout:2 attempts:3 rotate ndots:2\n");
	ok(C.nns == 2 && C.timeout_ms == 2000 && C.attempts == 3 && C.rotate,
	   "a corporate file");
}

static char *tmpfile_with(const char *text, size_t len)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/dt-resolvconf-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

static void test_load(void)
{
	struct up_conf before;
	char *big = malloc(DT_UP_CONF_MAXSIZE + 1), *path;

	path = tmpfile_with("nameserver 192.0.2.7\noptions rotate\n", 36);
	is_int(up_conf_load(path, &C), 0, "load a file");
	ok(C.nns == 1 && strcmp(ns(0), "192.0.2.7") == 0 && C.rotate,
	   "its contents");
	unlink(path);
	before = C;
	is_int(up_conf_load(path, &C), -ENOENT, "missing file: -ENOENT");
	ok(memcmp(&before, &C, sizeof(C)) == 0, "*ret untouched");
	is_int(up_conf_load("/", &C), -EISDIR, "a directory: -EISDIR");

	memset(big, '#', DT_UP_CONF_MAXSIZE + 1);
	memcpy(big, "nameserver 192.0.2.8\n", 21);
	path = tmpfile_with(big, DT_UP_CONF_MAXSIZE);
	is_int(up_conf_load(path, &C), 0, "a file of exactly the cap");
	is_str(ns(0), "192.0.2.8", "read");
	unlink(path);
	path = tmpfile_with(big, DT_UP_CONF_MAXSIZE + 1);
	before = C;
	is_int(up_conf_load(path, &C), DT_ETOOBIG,
	       "one octet more: DT_ETOOBIG");
	ok(memcmp(&before, &C, sizeof(C)) == 0, "*ret untouched");
	unlink(path);
	free(big);
}

static void test_equal(void)
{
	struct up_conf a, b;

	parse_into("nameserver 192.0.2.1\nnameserver ::1\n", &a);
	parse_into("# new\nnameserver 192.0.2.1\nnameserver bad\n"
		   "nameserver ::1\nsortlist 10.0.0.0\n",
		   &b);
	ok(up_conf_equal(&a, &b), "comments and skipped lines: equal");
	parse_into("nameserver ::1\nnameserver 192.0.2.1\n", &b);
	ok(!up_conf_equal(&a, &b), "another order: not equal");
	parse_into("nameserver 192.0.2.1\nnameserver ::1\noptions rotate\n",
		   &b);
	ok(!up_conf_equal(&a, &b), "rotate: not equal");
	parse_into("nameserver 192.0.2.1\nnameserver ::1\n"
		   "options timeout:5 attempts:2\n",
		   &b);
	ok(up_conf_equal(&a, &b), "the defaults spelt out: equal");
	parse_into("nameserver 192.0.2.1\nnameserver ::1%1\n", &b);
	ok(!up_conf_equal(&a, &b), "another scope: not equal");
	parse_into("", &a);
	parse_into("nameserver 127.0.0.1\n", &b);
	ok(up_conf_equal(&a, &b), "the default is the same as 127.0.0.1");
}

static void test_server_text(void)
{
	struct up_server s, keep;
	char buf[64];
	unsigned lo = if_nametoindex("lo");

	is_int(up_server_parse("192.0.2.1", &s), 0, "parse 192.0.2.1");
	up_server_str(&s, buf, sizeof(buf));
	is_str(buf, "192.0.2.1", "port 53 not written");
	is_int(up_server_parse("192.0.2.1@5353", &s), 0, "with a port");
	up_server_str(&s, buf, sizeof(buf));
	is_str(buf, "192.0.2.1:5353", "written with it");
	is_int(up_server_parse("2001:db8::1@5353", &s), 0, "IPv6 and port");
	up_server_str(&s, buf, sizeof(buf));
	is_str(buf, "[2001:db8::1]:5353", "in brackets");
	is_int(up_server_parse("::1", &s), 0, "::1");
	up_server_str(&s, buf, sizeof(buf));
	is_str(buf, "::1", "written");
	is_int(up_server_parse("fe80::1%9@53", &s), 0, "numeric scope");
	ok(((struct sockaddr_in6 *)&s.addr)->sin6_scope_id == 9, "is 9");
	if (lo) {
		is_int(up_server_parse("fe80::1%lo@5300", &s), 0,
		       "named scope");
		up_server_str(&s, buf, sizeof(buf));
		is_str(buf, "[fe80::1%lo]:5300", "written with the name");
		is_int(up_server_parse("2001:db8::1%lo", &s), 0,
		       "a named scope on a global address");
		ok(((struct sockaddr_in6 *)&s.addr)->sin6_scope_id == lo,
		   "is lo's index");
	} else {
		for (int i = 0; i < 4; i++)
			ok(1, "# SKIP no lo");
	}
	/* resolv.conf keeps a numeric scope on any address; its text must
	 * read back (found by fuzzing). */
	parse("nameserver fe79::1%1\n");
	up_server_str(&C.ns[0], buf, sizeof(buf));
	is_int(up_server_parse(buf, &s), 0, "\"%s\" reads back", buf);
	ok(up_server_equal(&s, &C.ns[0]), "as the same server");
	is_int(up_server_parse("192.0.2.1@65535", &s), 0, "port 65535");
	up_server_str(&s, buf, 4);
	is_str(buf, "192", "truncated to the buffer");

	keep = s;
	static const char *bad[] = {
		"",
		"@53",
		"192.0.2.1@",
		"192.0.2.1@0",
		"192.0.2.1@65536",
		"192.0.2.1@53x",
		"192.0.2.1@-1",
		"192.0.2.1@+53",
		"127.1",
		"192.0.2.1 ",
		" 192.0.2.1",
		"example.com",
		"[::1]",
		"fe80::1%nosuchif0",
		"fe80::1%",
		"::1@53@53",
		"1.2.3.4%1",
		"::g",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(up_server_parse(bad[i], &s), DT_ESYNTAX,
		       "refused: \"%s\"", bad[i]);
	ok(memcmp(&s, &keep, sizeof(s)) == 0, "*ret untouched on errors");
	ok(up_server_equal(&s, &keep), "up_server_equal: same");
	up_server_parse("192.0.2.1@65534", &s);
	ok(!up_server_equal(&s, &keep), "another port: not equal");
}

/* The search list as "a. b." text. */
static const char *search_text(const struct up_conf *c)
{
	static char buf[2048];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nsearch; i++) {
		char t[DT_NAME_TEXT_MAXLEN];
		wire_dname_to_str(up_conf_search(c, i), t, sizeof(t));
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					i ? " " : "", t);
	}
	return buf;
}

static void test_search(void)
{
	struct up_conf a, b;

	parse("search Corp.Example lan\n");
	is_str(search_text(&C), "corp.example. lan.", "search: two, lower case");
	parse("domain home.arpa\n");
	is_str(search_text(&C), "home.arpa.", "domain: one");
	parse("search a b\ndomain c d\n");
	is_str(search_text(&C), "c.", "the last line wins; domain takes one");
	parse("domain c\nsearch a\tb\n");
	is_str(search_text(&C), "a. b.", "search after domain wins; tabs");
	parse("search . x..y ok\n");
	is_str(search_text(&C), "ok.", "the root and bad names left out");
	parse("search a b c d e f g h\n");
	is_int(C.nsearch, DT_UP_MAXSEARCH, "at most DT_UP_MAXSEARCH names");
	{
		char text[1200] = "search";
		for (int i = 0; i < 6; i++)
			strcat(text, " aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."
				     "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
		parse_len(text, strlen(text));
		ok(C.searchlen <= DT_UP_SEARCH_MAXLEN && C.nsearch == 2,
		   "at most DT_UP_SEARCH_MAXLEN octets (%zu names, %zu octets)",
		   C.nsearch, C.searchlen);
	}
	parse(" search a\n#search b\nsearchx c\n");
	is_int(C.nsearch, 0, "keyword in column 0 only, comments skipped");
	parse_into("nameserver 10.0.0.1\nsearch a\n", &a);
	parse_into("nameserver 10.0.0.1\nsearch b\n", &b);
	ok(!up_conf_equal(&a, &b), "another search list: not equal");
	parse_into("nameserver 10.0.0.1\nsearch b\n", &a);
	ok(up_conf_equal(&a, &b), "the same search list: equal");
}

int main(void)
{
	test_defaults();
	test_nameservers();
	test_scopes();
	test_options();
	test_realistic();
	test_load();
	test_equal();
	test_server_text();
	test_search();
	return done_testing();
}
