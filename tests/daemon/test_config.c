/* SPDX-License-Identifier: MIT */
/*
 * dnstrust.conf (src/policy/config.c): every key with good and bad
 * values, every message with its file:line, quoting, comments, repeats,
 * limits, cfg_load on real files, and the round trip through cfg_format.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tap.h"
#include "cfg_same.h"
#include "common/errcode.h"
#include "policy/config.h"

static char err[1024];

/* Parses a NUL-terminated text named "t.conf". */
static int parse(const char *text, struct cfg *c)
{
	return cfg_parse(text, strlen(text), "t.conf", c, err, sizeof(err));
}

/* A test name for text: control characters escaped (TAP wants one
 * line), cut after 60 octets. Static: valid until the next call. */
static const char *label(const char *text)
{
	static char buf[80];
	size_t n = 0;

	for (; *text && n < 60; text++) {
		unsigned char ch = (unsigned char)*text;

		if (ch < 0x20 || ch == 0x7f)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "\\x%02x", ch);
		else
			buf[n++] = (char)ch;
	}
	snprintf(buf + n, sizeof(buf) - n, "%s", *text ? "..." : "");
	return buf;
}

/* text fails with exactly the message want. */
static void bad(const char *text, const char *want)
{
	struct cfg c;
	int r = parse(text, &c);

	is_int(r, DT_ECONFIG, "refused: %s", label(text));
	is_str(err, want, "message: %s", label(want));
}

/* text parses; returns the result in *c. */
static int good(const char *text, struct cfg *c, const char *what)
{
	int r = parse(text, c);

	is_int(r, 0, "accepted: %s", label(what));
	if (r != 0)
		diag("%s", err);
	return r == 0;
}

/* Writes pre, n copies of ch, then post into buf (cap octets); returns
 * buf. */
static char *make(char *buf, size_t cap, const char *pre, char ch, size_t n,
		  const char *post)
{
	size_t a = strlen(pre), b = strlen(post);

	if (a + n + b >= cap)
		abort();
	memcpy(buf, pre, a);
	memset(buf + a, ch, n);
	memcpy(buf + a + n, post, b + 1);
	return buf;
}

static void test_defaults(void)
{
	struct cfg d, c;

	cfg_default(&d);
	is_str(d.socket, "/run/dnstrust/socket", "default socket");
	is_str(d.resolv_conf, "/etc/resolv.conf", "default resolv-conf");
	is_str(d.trust_anchor_file, "", "default: built-in anchors");
	is_int(d.nlisten, 0, "default: no listener");
	is_int(d.cache_size, 64 * 1024 * 1024, "default cache-size 64M");
	is_int(d.threads, 0, "default threads: cores");
	is_str(d.user, "", "default user: none");
	is_int(d.log_level, CFG_LOG_NOTICE, "default log-level notice");
	is_int(d.query_timeout_ms, 5000, "default query-timeout 5 s");
	is_int(d.nsec3_max_iterations, DT_VAL_NSEC3_ITERATIONS,
	       "default nsec3-max-iterations");
	is_int(d.clock_skew, DT_VAL_SKEW, "default clock-skew");
	is_int(d.max_cache_ttl, 86400, "default max-cache-ttl");
	is_int(d.bogus_ttl, 60, "default bogus-ttl");
	if (good("", &c, "empty text"))
		ok(cfg_same(&c, &d), "empty text gives the defaults");
	if (good("# only a comment\n\n   \t\n  # indented comment\n", &c,
		 "comments and blank lines"))
		ok(cfg_same(&c, &d), "comments give the defaults");
}

static void test_paths(void)
{
	struct cfg c;
	char text[256];
	size_t maxsock = 107;

	if (good("socket /run/x/s\nresolv-conf /etc/r.conf\n"
		 "trust-anchor-file /etc/dnstrust/root.key\n",
		 &c, "three paths")) {
		is_str(c.socket, "/run/x/s", "socket");
		is_str(c.resolv_conf, "/etc/r.conf", "resolv-conf");
		is_str(c.trust_anchor_file, "/etc/dnstrust/root.key",
		       "trust-anchor-file");
	}
	bad("socket run/x",
	    "t.conf:1: socket: 'run/x' is not an absolute path");
	bad("\nresolv-conf resolv.conf",
	    "t.conf:2: resolv-conf: 'resolv.conf' is not an absolute path");
	bad("trust-anchor-file ./root.key",
	    "t.conf:1: trust-anchor-file: './root.key' is not an absolute "
	    "path");
	bad("socket \"\"", "t.conf:1: socket: '' is not an absolute path");
	make(text, sizeof(text), "socket /", 's', maxsock - 1, "");
	if (good(text, &c, "socket of 107 octets"))
		is_int(strlen(c.socket), maxsock, "socket path kept whole");
	make(text, sizeof(text), "socket /", 's', maxsock, "");
	bad(text,
	    "t.conf:1: socket: path longer than 107 octets: "
	    "'/sssssssssssssssssssssssssssssssssssssssssssssssssssssssssss"
	    "ssss...'");
	bad("socket", "t.conf:1: socket: missing value (usage: socket PATH)");
	bad("socket /a /b",
	    "t.conf:1: socket: unexpected '/b' (usage: socket PATH)");
	bad("socket /a\n# comment\nsocket /b",
	    "t.conf:3: socket given twice (first on line 1)");
	bad("resolv-conf /a\nresolv-conf /a",
	    "t.conf:2: resolv-conf given twice (first on line 1)");
	bad("trust-anchor-file /a\n\ntrust-anchor-file /b",
	    "t.conf:3: trust-anchor-file given twice (first on line 1)");
}

/* Family, address text and port of c->listen[i]. */
static void listen_is(const struct cfg *c, size_t i, const char *addr,
		      unsigned port, unsigned scope)
{
	const struct sockaddr_storage *ss = &c->listen[i].addr;
	char text[INET6_ADDRSTRLEN] = "";
	unsigned got_port = 0, got_scope = 0;

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)ss;

		inet_ntop(AF_INET, &sin->sin_addr, text, sizeof(text));
		got_port = ntohs(sin->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)ss;

		inet_ntop(AF_INET6, &sin6->sin6_addr, text, sizeof(text));
		got_port = ntohs(sin6->sin6_port);
		got_scope = sin6->sin6_scope_id;
	}
	is_str(text, addr, "listen %zu address", i);
	is_int(got_port, port, "listen %zu port", i);
	is_int(got_scope, scope, "listen %zu scope", i);
}

static void round_trip(const struct cfg *c, const char *what);

static void test_listen(void)
{
	char text[2048];
	size_t n = 0;
	struct cfg c;

	if (good("listen 127.0.0.1@5353\nlisten ::1@53\nlisten 127.0.0.2\n"
		 "listen fe80::1%1@53\nlisten 2001:db8::1%7@1053\n"
		 "allow-remote fe80::/10 2001:db8::/32\n",
		 &c, "five listeners")) {
		is_int(c.nlisten, 5, "five listeners kept in order");
		listen_is(&c, 0, "127.0.0.1", 5353, 0);
		listen_is(&c, 1, "::1", 53, 0);
		listen_is(&c, 2, "127.0.0.2", 53, 0);
		listen_is(&c, 3, "fe80::1", 53, 1);
		listen_is(&c, 4, "2001:db8::1", 1053, 7);
	}
	bad("listen 127.0.0.1@x",
	    "t.conf:1: listen: '127.0.0.1@x' is not ADDR@PORT (e.g. "
	    "127.0.0.1@53, ::1@5353)");
	bad("listen 127.0.0.1@0",
	    "t.conf:1: listen: '127.0.0.1@0' is not ADDR@PORT (e.g. "
	    "127.0.0.1@53, ::1@5353)");
	bad("listen 127.0.0.1@65536",
	    "t.conf:1: listen: '127.0.0.1@65536' is not ADDR@PORT (e.g. "
	    "127.0.0.1@53, ::1@5353)");
	bad("listen localhost@53",
	    "t.conf:1: listen: 'localhost@53' is not ADDR@PORT (e.g. "
	    "127.0.0.1@53, ::1@5353)");
	bad("listen [::1]@53",
	    "t.conf:1: listen: '[::1]@53' is not ADDR@PORT (e.g. "
	    "127.0.0.1@53, ::1@5353)");
	bad("listen", "t.conf:1: listen: missing value (usage: listen "
		      "ADDR@PORT)");
	bad("listen 127.0.0.1@53 ::1@53",
	    "t.conf:1: listen: unexpected '::1@53' (usage: listen "
	    "ADDR@PORT)");
	bad("listen 127.0.0.1@53\nlisten 127.0.0.1",
	    "t.conf:2: listen: 127.0.0.1 given twice");
	bad("listen ::1@53\nlisten 0.0.0.0@53\nlisten 192.0.2.1",
	    "t.conf:2: listen: not a loopback address: anyone who reaches "
	    "it could use the daemon; write allow-remote with the client "
	    "networks to serve");
	bad("allow-remote 192.0.2.1/24",
	    "t.conf:1: allow-remote: '192.0.2.1/24' is not ADDR/PREFIX with "
	    "the host bits zero (e.g. 192.0.2.0/24, 2001:db8::/32)");
	bad("allow-remote 192.0.2.0/33",
	    "t.conf:1: allow-remote: '192.0.2.0/33' is not ADDR/PREFIX with "
	    "the host bits zero (e.g. 192.0.2.0/24, 2001:db8::/32)");
	bad("allow-remote", "t.conf:1: allow-remote: missing value (usage: "
			    "allow-remote NET...)");
	if (good("listen 192.0.2.53\nallow-remote 192.0.2.0/24 10.0.0.0/8\n"
		 "allow-remote 2001:db8:1::/48 192.0.2.77\n",
		 &c, "allow-remote")) {
		struct sockaddr_in a4 = {.sin_family = AF_INET};
		struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
		is_int(c.nallow, 4, "four networks on two lines");
		inet_pton(AF_INET, "192.0.2.200", &a4.sin_addr);
		ok(cfg_nets_match(c.allow, c.nallow, (struct sockaddr *)&a4),
		   "192.0.2.200 is in 192.0.2.0/24");
		inet_pton(AF_INET, "192.0.3.1", &a4.sin_addr);
		ok(!cfg_nets_match(c.allow, c.nallow, (struct sockaddr *)&a4),
		   "192.0.3.1 is in none");
		inet_pton(AF_INET6, "::ffff:10.1.2.3", &a6.sin6_addr);
		ok(cfg_nets_match(c.allow, c.nallow, (struct sockaddr *)&a6),
		   "IPv4-mapped ::ffff:10.1.2.3 is in 10.0.0.0/8");
		inet_pton(AF_INET6, "2001:db8:1:ffff::1", &a6.sin6_addr);
		ok(cfg_nets_match(c.allow, c.nallow, (struct sockaddr *)&a6),
		   "2001:db8:1:ffff::1 is in 2001:db8:1::/48");
		inet_pton(AF_INET6, "2001:db8:2::1", &a6.sin6_addr);
		ok(!cfg_nets_match(c.allow, c.nallow, (struct sockaddr *)&a6),
		   "2001:db8:2::1 is in none");
		ok(!cfg_addr_loopback((struct sockaddr *)&a6),
		   "2001:db8:2::1 is not loopback");
		inet_pton(AF_INET6, "::1", &a6.sin6_addr);
		inet_pton(AF_INET, "127.3.2.1", &a4.sin_addr);
		ok(cfg_addr_loopback((struct sockaddr *)&a6) &&
			   cfg_addr_loopback((struct sockaddr *)&a4),
		   "::1 and 127.3.2.1 are loopback");
		inet_pton(AF_INET6, "::ffff:127.0.0.1", &a6.sin6_addr);
		ok(cfg_addr_loopback((struct sockaddr *)&a6),
		   "::ffff:127.0.0.1 is loopback");
		round_trip(&c, "allow-remote");
	}
	/* DT_CFG_MAX_ALLOW networks, more than one line holds: formatted
	 * on several lines, they read back (fuzz_config found the text
	 * once printed on one line of 33 words, which cfg_parse refuses). */
	n = 0;
	for (int i = 0; i < DT_CFG_MAX_ALLOW; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "%sallow-remote 10.%d.0.0/16\n",
				      i ? "" : "listen 192.0.2.53\n", i);
	if (good(text, &c, "DT_CFG_MAX_ALLOW networks")) {
		is_int(c.nallow, DT_CFG_MAX_ALLOW, "all kept");
		round_trip(&c, "DT_CFG_MAX_ALLOW networks");
	}
	snprintf(text + n, sizeof(text) - n, "allow-remote 10.99.0.0/16\n");
	bad(text, "t.conf:34: allow-remote: more than 32 networks");
	n = 0;
	for (int i = 0; i < DT_CFG_MAX_LISTEN; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "listen 127.0.0.1@%d\n", 1000 + i);
	if (good(text, &c, "DT_CFG_MAX_LISTEN listeners"))
		is_int(c.nlisten, DT_CFG_MAX_LISTEN, "all kept");
	snprintf(text + n, sizeof(text) - n, "listen ::1@53\n");
	bad(text, "t.conf:17: listen: more than 16 listeners");
}

static void test_cache_size(void)
{
	static const struct {
		const char *text;
		unsigned long long size;
	} sizes[] = {
		{"64M", 64ull << 20},	 {"2M", 2ull << 20},
		{"2048K", 2ull << 20},	 {"2048k", 2ull << 20},
		{"1G", 1ull << 30},	 {"3g", 3ull << 30},
		{"2m", 2ull << 20},	 {"2097152", 2097152},
		{"0003145728", 3145728},
	};
	struct cfg c;
	char text[64];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(text, sizeof(text), "cache-size %s", sizes[i].text);
		if (good(text, &c, text))
			is_int(c.cache_size, sizes[i].size, "%s", label(text));
	}
	if (sizeof(size_t) == 8 && good("cache-size 17179869183G", &c,
					"largest G multiple of 64 bits"))
		ok(c.cache_size == (size_t)17179869183ull << 30, "kept");
	bad("cache-size 12X",
	    "t.conf:1: cache-size: '12X' is not a size (use bytes or K, M, G)");
	bad("cache-size 1KB",
	    "t.conf:1: cache-size: '1KB' is not a size (use bytes or K, M, "
	    "G)");
	bad("cache-size 1.5G",
	    "t.conf:1: cache-size: '1.5G' is not a size (use bytes or K, M, "
	    "G)");
	bad("cache-size -1",
	    "t.conf:1: cache-size: '-1' is not a size (use bytes or K, M, G)");
	bad("cache-size M",
	    "t.conf:1: cache-size: 'M' is not a size (use bytes or K, M, G)");
	bad("cache-size \"\"",
	    "t.conf:1: cache-size: '' is not a size (use bytes or K, M, G)");
	bad("cache-size 2097151",
	    "t.conf:1: cache-size: 2097151 is below the minimum of 2M");
	bad("cache-size 1K",
	    "t.conf:1: cache-size: 1K is below the minimum of 2M");
	bad("cache-size 0", "t.conf:1: cache-size: 0 is below the minimum "
			    "of 2M");
	bad("cache-size 17179869184G",
	    "t.conf:1: cache-size: 17179869184G is more than this system can "
	    "address");
	bad("cache-size 99999999999999999999999",
	    "t.conf:1: cache-size: 99999999999999999999999 is more than this "
	    "system can address");
	bad("cache-size 64M\ncache-size 64M",
	    "t.conf:2: cache-size given twice (first on line 1)");
}

/* A number key: lo and hi accepted (stored times scale), lo - 1 (when
 * lo > 0) and hi + 1 refused, words refused. */
static void number_key(const char *key, unsigned lo, unsigned hi,
		       unsigned scale, size_t off)
{
	char text[128], want[256];
	unsigned vals[2] = {lo, hi};
	struct cfg c;

	for (int i = 0; i < 2; i++) {
		snprintf(text, sizeof(text), "%s %u", key, vals[i]);
		if (good(text, &c, text))
			is_int(*(unsigned *)(void *)((char *)&c + off),
			       (unsigned long long)vals[i] * scale, "%s", text);
	}
	if (lo > 0) {
		snprintf(text, sizeof(text), "%s %u", key, lo - 1);
		snprintf(want, sizeof(want),
			 "t.conf:1: %s: %u is out of range (%u..%u)", key,
			 lo - 1, lo, hi);
		bad(text, want);
	}
	snprintf(text, sizeof(text), "%s %llu", key, hi + 1ull);
	snprintf(want, sizeof(want),
		 "t.conf:1: %s: %llu is out of range "
		 "(%u..%u)",
		 key, hi + 1ull, lo, hi);
	bad(text, want);
	snprintf(text, sizeof(text), "%s 99999999999999999999999", key);
	snprintf(want, sizeof(want),
		 "t.conf:1: %s: 99999999999999999999999 "
		 "is out of range (%u..%u)",
		 key, lo, hi);
	bad(text, want);
	snprintf(text, sizeof(text), "%s -1", key);
	snprintf(want, sizeof(want), "t.conf:1: %s: '-1' is not a number", key);
	bad(text, want);
	snprintf(text, sizeof(text), "%s 5s", key);
	snprintf(want, sizeof(want), "t.conf:1: %s: '5s' is not a number", key);
	bad(text, want);
	snprintf(text, sizeof(text), "%s", key);
	snprintf(want, sizeof(want), "t.conf:1: %s: missing value (usage: %s ",
		 key, key);
	ok(parse(text, &c) == DT_ECONFIG &&
		   strncmp(err, want, strlen(want)) == 0,
	   "%s without a value", key);
	snprintf(text, sizeof(text), "%s %u\n%s %u", key, lo, key, lo);
	snprintf(want, sizeof(want),
		 "t.conf:2: %s given twice (first on line 1)", key);
	bad(text, want);
}

static void test_numbers(void)
{
	struct cfg c;

	number_key("threads", 0, 256, 1, offsetof(struct cfg, threads));
	number_key("query-timeout", 1, 60, 1000,
		   offsetof(struct cfg, query_timeout_ms));
	number_key("nsec3-max-iterations", 0, 2500, 1,
		   offsetof(struct cfg, nsec3_max_iterations));
	number_key("clock-skew", 0, 86400, 1, offsetof(struct cfg, clock_skew));
	number_key("max-cache-ttl", 1, 2147483647, 1,
		   offsetof(struct cfg, max_cache_ttl));
	number_key("bogus-ttl", 1, 3600, 1, offsetof(struct cfg, bogus_ttl));
	number_key("serve-stale-max", 0, 604800, 1,
		   offsetof(struct cfg, serve_stale_max));
	if (good("threads 007", &c, "leading zeros"))
		is_int(c.threads, 7, "threads 007 is 7");
	bad("threads \"\"", "t.conf:1: threads: '' is not a number");
	bad("threads +4", "t.conf:1: threads: '+4' is not a number");
	bad("threads 0x10", "t.conf:1: threads: '0x10' is not a number");
}

static void test_user(void)
{
	static const char *const good_names[] = {
		"dnstrust", "_dnstrust", "dns-trust", "d.t", "MACHINE$", "a1",
	};
	static const char *const bad_names[] = {
		"123", "-x", ".x", "a b", "a/b", "a$b", "$", "é",
	};
	char text[256], want[512];
	struct cfg c;

	for (size_t i = 0; i < sizeof(good_names) / sizeof(*good_names); i++) {
		snprintf(text, sizeof(text), "user \"%s\"", good_names[i]);
		if (good(text, &c, text))
			is_str(c.user, good_names[i], "%s", text);
	}
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(*bad_names); i++) {
		snprintf(text, sizeof(text), "user \"%s\"", bad_names[i]);
		snprintf(want, sizeof(want),
			 "t.conf:1: user: '%s' is not a user name (letters, "
			 "digits, '.', '_', '-'; not only digits)",
			 bad_names[i]);
		bad(text, want);
	}
	make(text, sizeof(text), "user ", 'u', 63, "");
	if (good(text, &c, "user name of 63 octets"))
		is_int(strlen(c.user), 63, "kept whole");
	make(text, sizeof(text), "user ", 'u', 64, "");
	make(want, sizeof(want),
	     "t.conf:1: user: name longer than 63 octets: '", 'u', 64, "'");
	bad(text, want);
	bad("user a\nuser a", "t.conf:2: user given twice (first on line 1)");
}

static void test_log_level(void)
{
	static const struct {
		const char *name;
		enum cfg_log_level level;
	} levels[] = {
		{"error", CFG_LOG_ERROR},   {"warning", CFG_LOG_WARNING},
		{"notice", CFG_LOG_NOTICE}, {"info", CFG_LOG_INFO},
		{"debug", CFG_LOG_DEBUG},
	};
	char text[64];
	struct cfg c;

	for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++) {
		snprintf(text, sizeof(text), "log-level %s", levels[i].name);
		if (good(text, &c, text))
			is_int(c.log_level, levels[i].level, "%s", text);
	}
	bad("log-level verbose",
	    "t.conf:1: log-level: 'verbose' is not one of error, warning, "
	    "notice, info, debug");
	bad("log-level ERROR",
	    "t.conf:1: log-level: 'ERROR' is not one of error, warning, "
	    "notice, info, debug");
	bad("log-level 3",
	    "t.conf:1: log-level: '3' is not one of error, warning, notice, "
	    "info, debug");
	bad("log-level info\nlog-level info",
	    "t.conf:2: log-level given twice (first on line 1)");
}

static void test_syntax(void)
{
	char text[8192];
	struct cfg c;

	if (good("socket \"/run/my dir/s\"", &c, "quoted value with a space"))
		is_str(c.socket, "/run/my dir/s", "spaces kept");
	if (good("socket \"/a\\\"b\\\\c\"", &c, "escapes"))
		is_str(c.socket, "/a\"b\\c", "\\\" and \\\\ unescaped");
	if (good("socket \"/a#b\" # a comment", &c, "'#' inside quotes"))
		is_str(c.socket, "/a#b", "'#' kept inside quotes");
	if (good("socket /a#b # comment", &c, "'#' inside a word"))
		is_str(c.socket, "/a#b", "'#' is part of the word");
	bad("threads 2 #comment\nsocket /b# x",
	    "t.conf:2: socket: unexpected 'x' (usage: socket PATH)");
	if (good("socket \"/a\"# comment", &c, "comment after a quote"))
		is_str(c.socket, "/a", "quoted word then comment");
	if (good("\"socket\" /a", &c, "quoted key"))
		is_str(c.socket, "/a", "quoted key works");
	if (good("  \tsocket\t\t/a  \t", &c, "tabs and spaces"))
		is_str(c.socket, "/a", "white space around words");
	if (good("socket /a\\b", &c, "backslash outside quotes"))
		is_str(c.socket, "/a\\b", "backslash literal outside quotes");
	if (good("socket /a\r\nthreads 2\r\n", &c, "CRLF line ends"))
		ok(strcmp(c.socket, "/a") == 0 && c.threads == 2, "CR ignored");
	if (good("threads 3", &c, "no final newline"))
		is_int(c.threads, 3, "last line read");
	if (good("socket /\xc3\xa9t\xc3\xa9", &c, "UTF-8 in a path"))
		is_str(c.socket, "/\xc3\xa9t\xc3\xa9", "UTF-8 kept");
	bad("socket \"/a\\nb\"",
	    "t.conf:1: unknown escape in a quoted string (only \\\" and \\\\)");
	bad("socket \"/a\\", "t.conf:1: unknown escape in a quoted string "
			     "(only \\\" and \\\\)");
	bad("# c\nsocket \"/a", "t.conf:2: unterminated quoted string");
	bad("socket \"/a\"b", "t.conf:1: no space after a closing quote");
	bad("socket /a\"b\"",
	    "t.conf:1: '\"' inside a word (quote the whole value)");
	bad("foo bar", "t.conf:1: unknown key 'foo'");
	bad("\n\n# x\nSocket /a", "t.conf:4: unknown key 'Socket'");
	bad("socket=/a", "t.conf:1: unknown key 'socket=/a'");
	bad("threads 1\n\"\" x", "t.conf:2: unknown key ''");
	make(text, sizeof(text), "", 'k', 100, " x");
	make(text + 200, sizeof(text) - 200, "t.conf:1: unknown key '", 'k', 64,
	     "...'");
	bad(text, text + 200);
	bad("threads 1\nsocket /a\rb", "t.conf:2: control character 0x0d");
	bad("socket /a\x1b[0m", "t.conf:1: control character 0x1b");
	bad("socket /a\x7f", "t.conf:1: control character 0x7f");
	bad("# x\n# comment \x01\n", "t.conf:2: control character 0x01");
	{
		static const char nul[] = "threads 1\nsocket /a\0b\n";
		int r = cfg_parse(nul, sizeof(nul) - 1, "t.conf", &c, err,
				  sizeof(err));

		is_int(r, DT_ECONFIG, "NUL octet refused");
		is_str(err, "t.conf:2: NUL octet in the text", "NUL message");
	}
	make(text, sizeof(text), "socket /", 'a', 4096 - 8, "");
	ok(strlen(text) == 4096, "a line of 4096 octets");
	bad(text,
	    "t.conf:1: socket: path longer than 107 octets: "
	    "'/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaa...'");
	make(text, sizeof(text), "# ", 'c', 4094, "\nthreads 2\r\n");
	ok(good(text, &c, "4096-octet comment line, then CRLF"), "read");
	make(text, sizeof(text), "\n# ", 'c', 4095, "\n");
	bad(text, "t.conf:2: line longer than 4096 octets");
	make(text, sizeof(text), "trust-anchor-file /", 'a', 4096 - 19, "");
	if (good(text, &c, "longest path a line can hold"))
		is_int(strlen(c.trust_anchor_file), 4096 - 18, "kept whole");
	make(text, sizeof(text), "socket", ' ', 4000, "");
	bad(text, "t.conf:1: socket: missing value (usage: socket PATH)");
	make(text, sizeof(text), "threads", ' ', 31 * 2, "");
	for (int i = 0; i < 31; i++)
		text[7 + 2 * i + 1] = '1';
	bad(text, "t.conf:1: threads: unexpected '1' (usage: threads N)");
	strcat(text, " 1");
	bad(text, "t.conf:1: more than 32 words on one line");
}

/* cfg_parse leaves *ret and handles small or missing buffers. */
static void test_errors(void)
{
	struct cfg c, before;
	char small[12];
	char *big;
	int r;

	memset(&c, 0xa5, sizeof(c));
	before = c;
	bad("threads 2\nsocket x", "t.conf:2: socket: 'x' is not an absolute "
				   "path");
	r = parse("threads 2\nsocket x", &c);
	ok(r == DT_ECONFIG && memcmp(&c, &before, sizeof(c)) == 0,
	   "*ret untouched on error");
	r = cfg_parse("foo", 3, "t.conf", &c, small, sizeof(small));
	is_int(r, DT_ECONFIG, "small err buffer");
	is_str(small, "t.conf:1: u", "message cut, NUL-terminated");
	r = cfg_parse("foo", 3, "t.conf", &c, small, 3);
	is_str(small, "t.", "message cut within the prefix");
	r = cfg_parse("foo", 3, "t.conf", &c, NULL, 0);
	is_int(r, DT_ECONFIG, "no err buffer");
	r = cfg_parse("foo", 3, NULL, &c, err, sizeof(err));
	is_str(err, "(config):1: unknown key 'foo'", "NULL name");
	r = cfg_parse("socket /a", 6, "t.conf", &c, err, sizeof(err));
	is_str(err, "t.conf:1: socket: missing value (usage: socket PATH)",
	       "len bounds the text");
	strcpy(err, "stale");
	r = parse("threads 2", &c);
	ok(r == 0 && err[0] == '\0', "success clears err");
	big = malloc(DT_CFG_MAXSIZE + 1);
	if (!big)
		return;
	memset(big, '\n', DT_CFG_MAXSIZE + 1);
	r = cfg_parse(big, DT_CFG_MAXSIZE, "t.conf", &c, err, sizeof(err));
	is_int(r, 0, "a text of DT_CFG_MAXSIZE octets");
	r = cfg_parse(big, DT_CFG_MAXSIZE + 1, "t.conf", &c, err, sizeof(err));
	is_int(r, DT_ECONFIG, "a text over DT_CFG_MAXSIZE");
	is_str(err, "t.conf: larger than 1048576 octets", "size message");
	free(big);
}

/* Writes text to path; false on failure. */
static bool write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	bool done;

	if (!f)
		return false;
	done = fwrite(text, 1, len, f) == len;
	return fclose(f) == 0 && done;
}

static void test_load(void)
{
	char dir[] = "/tmp/test_config.XXXXXX", path[256], want[512];
	struct cfg c, d;
	char *big;
	int r;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	cfg_default(&d);
	snprintf(path, sizeof(path), "%s/missing.conf", dir);
	r = cfg_load(path, false, &c, err, sizeof(err));
	ok(r == 0 && cfg_same(&c, &d), "missing optional file: defaults");
	r = cfg_load(path, true, &c, err, sizeof(err));
	is_int(r, -ENOENT, "missing required file: -ENOENT");
	snprintf(want, sizeof(want), "%s: %s", path, strerror(ENOENT));
	is_str(err, want, "missing file message");
	r = cfg_load(dir, true, &c, err, sizeof(err));
	is_int(r, -EISDIR, "a directory: -EISDIR");
	snprintf(want, sizeof(want), "%s: %s", dir, strerror(EISDIR));
	is_str(err, want, "directory message");

	snprintf(path, sizeof(path), "%s/good.conf", dir);
	ok(write_file(path, "threads 4\nsocket /x\n", 20), "good.conf");
	r = cfg_load(path, true, &c, err, sizeof(err));
	ok(r == 0 && c.threads == 4 && strcmp(c.socket, "/x") == 0,
	   "file read");
	/* In place into zeroed memory: the same configuration. */
	struct cfg *z = calloc(1, sizeof(*z));
	if (ok(z != NULL, "calloc")) {
		r = cfg_load_zeroed(path, true, z, err, sizeof(err));
		ok(r == 0 && cfg_same(z, &c),
		   "cfg_load_zeroed: what cfg_load gives");
		memset(z, 0, sizeof(*z));
		snprintf(want, sizeof(want), "%s/missing.conf", dir);
		r = cfg_load_zeroed(want, false, z, err, sizeof(err));
		ok(r == 0 && cfg_same(z, &d),
		   "cfg_load_zeroed: missing optional file: defaults");
		memset(z, 0, sizeof(*z));
		r = cfg_load_zeroed(want, true, z, err, sizeof(err));
		is_int(r, -ENOENT, "cfg_load_zeroed: missing required file");
		free(z);
	}
	snprintf(path, sizeof(path), "%s/bad.conf", dir);
	ok(write_file(path, "threads 4\n\nthreads 5\n", 21), "bad.conf");
	r = cfg_load(path, false, &c, err, sizeof(err));
	is_int(r, DT_ECONFIG, "bad file: DT_ECONFIG");
	snprintf(want, sizeof(want),
		 "%s:3: threads given twice (first on line 1)", path);
	is_str(err, want, "bad file message names path:line");
	z = calloc(1, sizeof(*z));
	if (z) {
		r = cfg_load_zeroed(path, false, z, err, sizeof(err));
		ok(r == DT_ECONFIG && !strcmp(err, want),
		   "cfg_load_zeroed: bad file, the same message");
		free(z);
	}

	big = malloc(DT_CFG_MAXSIZE + 1);
	snprintf(path, sizeof(path), "%s/big.conf", dir);
	if (big) {
		memset(big, '#', DT_CFG_MAXSIZE + 1);
		for (size_t i = 100; i < DT_CFG_MAXSIZE + 1; i += 100)
			big[i] = '\n';
		ok(write_file(path, big, DT_CFG_MAXSIZE), "max-size file");
		r = cfg_load(path, true, &c, err, sizeof(err));
		is_int(r, 0, "file of DT_CFG_MAXSIZE octets read");
		ok(write_file(path, big, DT_CFG_MAXSIZE + 1), "big.conf");
		r = cfg_load(path, true, &c, err, sizeof(err));
		is_int(r, DT_ETOOBIG, "file over DT_CFG_MAXSIZE refused");
		snprintf(want, sizeof(want), "%s: larger than 1048576 octets",
			 path);
		is_str(err, want, "size message");
		free(big);
	}
	if (geteuid() != 0) {
		snprintf(path, sizeof(path), "%s/good.conf", dir);
		chmod(path, 0);
		r = cfg_load(path, true, &c, err, sizeof(err));
		is_int(r, -EACCES, "unreadable file: -EACCES");
	}
	snprintf(path, sizeof(path), "%s/good.conf", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bad.conf", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/big.conf", dir);
	unlink(path);
	rmdir(dir);
}

/* c formats, reads back equal, and formats to the same text. */
static void round_trip(const struct cfg *c, const char *what)
{
	static char text[1 << 16], again[1 << 16];
	size_t n = cfg_format(c, text, sizeof(text));
	struct cfg back;
	int r;

	ok(n == strlen(text) && n < sizeof(text), "%s: formatted (%zu)", what,
	   n);
	r = parse(text, &back);
	is_int(r, 0, "%s: read back", what);
	if (r != 0) {
		diag("%s", err);
		return;
	}
	ok(cfg_same(c, &back), "%s: equal after the round trip", what);
	cfg_format(&back, again, sizeof(again));
	is_str(again, text, "%s: formats the same again", what);
}

static const char full_text[] = "# every key, values away from the defaults\n"
				"socket \"/run/dns trust/\\\"s\\\\\"\n"
				"listen 127.0.0.1@5353\n"
				"listen ::1@53\n"
				"listen fe80::1%1@53\n"
				"listen 2001:db8::1%9@1053\n"
				"resolv-conf \"/etc/my#resolv.conf\"\n"
				"upstream 192.0.2.53@53\n"
				"upstream \"2001:db8::53@853#dns.example.net\" tls\n"
				"fallback-upstream \"198.51.100.1@853#dot.example\"\n"
				"tls-ca /etc/dnstrust/ca.pem\n"
				"resolution recursive\n"
				"root-hints /etc/dnstrust/root.hints\n"
				"trust-anchor-file /etc/dnstrust/root.key\n"
				"cache-size 3145728\n"
				"threads 256\n"
				"user _dnstrust\n"
				"log-level debug\n"
				"query-timeout 60\n"
				"nsec3-max-iterations 2500\n"
				"clock-skew 0\n"
				"max-cache-ttl 2147483647\n"
				"bogus-ttl 3600\n"
				"serve-stale-max 0\n"
				"prefetch no\n"
				"aggressive-nsec no\n"
				"max-connections-per-user 16\n"
				"allow-remote 2001:db8::/32 192.0.2.0/24\n"
				"ratelimit 20\n"
				"max-connections-per-address 4\n"
				"mode permissive\n"
				"insecure reject\n"
				"negative-trust-anchor broken.example. until 2027-02-28\n"
				"negative-trust-anchor also.broken.example.\n"
				"require-secure bank.example.\n"
				"domain corp.example. upstream 10.0.0.53 10.0.0.54@5353\n"
				"domain corp.example. validate no\n"
				"domain vpn.example. upstream ::1@53\n"
				"domain lab.example. validate no\n"
				"private-domain corp.example.\n"
				"private-domain fritz.box.\n"
				"no-private-defaults\n"
				"hotspot-group netdev\n";

static void test_format(void)
{
	static const char *const keys[] = {
		"socket ",	     "#listen ADDR@PORT\n",
		"resolv-conf ",	     "resolution auto\n",
		"#root-hints PATH\n", "#trust-anchor-file PATH\n",
		"cache-size 64M\n",  "threads 0\n",
		"#user NAME\n",	     "log-level notice\n",
		"query-timeout 5\n", "nsec3-max-iterations 50\n",
		"clock-skew 300\n",  "max-cache-ttl 86400\n",
		"bogus-ttl 60\n",   "serve-stale-max 86400\n",
		"prefetch yes\n",   "aggressive-nsec yes\n",
		"max-connections-per-user 128\n",
		"#allow-remote NET...\n", "ratelimit 100\n",
		"max-connections-per-address 16\n",
	};
	char text[8192], small[16];
	struct cfg c;
	size_t n;

	cfg_default(&c);
	round_trip(&c, "defaults");
	n = cfg_format(&c, text, sizeof(text));
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		char line[64];

		snprintf(line, sizeof(line), "\n%s", keys[i]);
		ok(strstr(text, line) != NULL, "defaults show %s",
		   label(keys[i]));
	}
	ok(cfg_format(&c, NULL, 0) == n, "NULL buffer: length needed");
	ok(cfg_format(&c, small, sizeof(small)) == n &&
		   strlen(small) == sizeof(small) - 1 &&
		   strncmp(small, text, sizeof(small) - 1) == 0,
	   "small buffer: cut, NUL-terminated, full length returned");
	if (good(full_text, &c, "every key")) {
		is_str(c.socket, "/run/dns trust/\"s\\", "quoted socket");
		round_trip(&c, "every key");
		cfg_format(&c, text, sizeof(text));
		ok(strstr(text, "\ncache-size 3M\n") != NULL, "3145728 as 3M");
		ok(strstr(text, "\nsocket \"/run/dns trust/\\\"s\\\\\"\n") !=
			   NULL,
		   "socket quoted and escaped");
		ok(strstr(text, "\nlisten 2001:db8::1%9@1053\n") != NULL,
		   "scope written as a number");
		ok(strstr(text, "\nresolv-conf \"/etc/my#resolv.conf\"\n"),
		   "'#' quoted");
	}
	if (good("cache-size 2049K\nthreads 1\nlisten 0.0.0.0@1\n"
		 "allow-remote 0.0.0.0/0 ::/0",
		 &c,
		 "odd values")) {
		round_trip(&c, "odd values");
		cfg_format(&c, text, sizeof(text));
		ok(strstr(text, "\ncache-size 2049K\n") != NULL, "2049K");
	}
	if (sizeof(size_t) == 8 &&
	    good("cache-size 17179869183G", &c, "huge size"))
		round_trip(&c, "huge size");
}

/* etc/dnstrust.conf reads as the defaults, and so does it with every
 * commented-out key line enabled, but for the examples of the keys that
 * have no default value. */
static void test_example(void)
{
	static char text[16384];
	const char *src = getenv("DT_SRC");
	char path[1024], *p;
	struct cfg c, d;
	FILE *f;
	size_t n;

	if (!src) {
		ok(0, "DT_SRC not set");
		return;
	}
	snprintf(path, sizeof(path), "%s/etc/dnstrust.conf", src);
	cfg_default(&d);
	ok(cfg_load(path, true, &c, err, sizeof(err)) == 0 && cfg_same(&c, &d),
	   "etc/dnstrust.conf reads as the defaults");
	f = fopen(path, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	/* "\n#key value" becomes "\nkey value"; comments keep "# ". */
	for (p = text; (p = strstr(p, "\n#")) != NULL; p++) {
		if (p[2] >= 'a' && p[2] <= 'z')
			memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
	if (!good(text, &c, "etc/dnstrust.conf with every key enabled"))
		return;
	is_int(c.nlisten, 2, "example listeners");
	ok(c.trust_anchor_file[0] && c.user[0] && c.auto_trust_anchor_file[0] &&
		   c.root_hints[0],
	   "example anchors, state file, user and root hints");
	c.nlisten = 0;
	is_int(c.nallow, 2, "example client networks");
	c.nallow = 0;
	c.trust_anchor_file[0] = c.user[0] = '\0';
	c.auto_trust_anchor_file[0] = c.root_hints[0] = '\0';
	ok(c.nprivate == 1 && c.no_private_defaults && c.hotspot_group[0],
	   "example private domain, no-private-defaults, hotspot-group");
	c.nprivate = 0;
	c.no_private_defaults = false;
	c.hotspot_group[0] = '\0';
	ok(c.upstream.nns == 1 && c.upstream.tls_name[0][0] &&
		   c.fallback.nns == 1 && c.tls_ca[0],
	   "example TLS upstream, fallback and CA file");
	memset(&c.upstream, 0, sizeof(c.upstream));
	memset(&c.fallback, 0, sizeof(c.fallback));
	c.tls_ca[0] = '\0';
	ok(c.upstream_source == UP_SOURCE_AUTO &&
		   strcmp(c.stub_resolv_conf,
			  "/run/dnstrust/stub/resolv.conf") == 0,
	   "example stub mode: upstream-source auto, stub-resolv-conf");
	c.upstream_source = d.upstream_source;
	memcpy(c.resolv_conf, d.resolv_conf, sizeof(c.resolv_conf));
	c.stub_resolv_conf[0] = '\0';
	ok(cfg_same(&c, &d), "every other commented value is the default");
}

/* The key a line of the man page's KEYS or POLICY section names after
 * .TP, as
 * ".B key", ".BI key \" VALUE\"", ".BR key ..." ("\-" for "-"), into
 * key; 0 when the line names none (the built-in private domains). */
static int man_key(const char *line, char *key, size_t len)
{
	size_t n = 0;

	if (strncmp(line, ".B", 2) != 0)
		return 0;
	line += strcspn(line, " ");
	line += strspn(line, " ");
	for (; *line && *line != ' ' && *line != '\n' && n + 1 < len; line++) {
		if (line[0] == '\\' && line[1] == '-')
			line++;
		if ((*line < 'a' || *line > 'z') && *line != '-' &&
		    (*line < '0' || *line > '9'))
			return 0;
		key[n++] = *line;
	}
	key[n] = '\0';
	return n > 0;
}

/* docs/dnstrust.conf.5 lists exactly the keys of the table (cfg_key_name),
 * each once or more (domain has two forms), in its sections KEYS and
 * POLICY. */
static void test_man_keys(void)
{
	static char man[64][64];
	const char *src = getenv("DT_SRC");
	char path[1024], line[512], key[64];
	size_t nman = 0, missing = 0, unknown = 0;
	bool in_keys = false, after_tp = false;
	FILE *f;

	if (!src) {
		ok(0, "DT_SRC not set");
		return;
	}
	snprintf(path, sizeof(path), "%s/docs/dnstrust.conf.5", src);
	f = fopen(path, "r");
	if (!f) {
		ok(0, "%s: not readable", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, ".SH", 3) == 0)
			in_keys = strncmp(line, ".SH KEYS", 8) == 0 ||
				  strncmp(line, ".SH POLICY", 10) == 0;
		if (in_keys && after_tp && man_key(line, key, sizeof(key)) &&
		    nman < 64) {
			bool seen = false;
			for (size_t i = 0; i < nman; i++)
				seen = seen || strcmp(man[i], key) == 0;
			if (!seen)
				snprintf(man[nman++], sizeof(man[0]), "%s",
					 key);
		}
		after_tp = strncmp(line, ".TP", 3) == 0;
	}
	fclose(f);
	for (size_t i = 0; cfg_key_name(i); i++) {
		bool found = false;
		for (size_t j = 0; j < nman; j++)
			found = found || strcmp(man[j], cfg_key_name(i)) == 0;
		if (!found) {
			diag("dnstrust.conf.5 does not list %s",
			     cfg_key_name(i));
			missing++;
		}
	}
	for (size_t j = 0; j < nman; j++) {
		bool found = false;
		for (size_t i = 0; cfg_key_name(i); i++)
			found = found || strcmp(man[j], cfg_key_name(i)) == 0;
		if (!found) {
			diag("dnstrust.conf.5 lists %s, not a key", man[j]);
			unknown++;
		}
	}
	ok(nman >= 30, "the man page's KEYS section names %zu keys", nman);
	is_int(missing, 0, "every key of the table is in dnstrust.conf.5");
	is_int(unknown, 0, "dnstrust.conf.5 lists no other key");
}

static void test_policy(void)
{
	static struct cfg c;

	if (good("mode permissive\ninsecure reject\n", &c, "mode, insecure")) {
		is_int(c.mode, CFG_MODE_PERMISSIVE, "mode permissive");
		ok(c.insecure_reject, "insecure reject");
	}
	if (good("", &c, "policy defaults")) {
		is_int(c.mode, CFG_MODE_ENFORCE, "mode enforce by default");
		ok(!c.insecure_reject, "insecure accept by default");
		ok(!c.nnta && !c.nrequire && !c.ndomain, "no lists");
	}
	bad("mode lax", "t.conf:1: mode: 'lax' is not enforce or permissive");
	cfg_default(&c);
	ok(c.prefetch && c.serve_stale_max == 86400,
	   "prefetch yes and serve-stale-max a day by default");
	if (good("prefetch no\n", &c, "prefetch no"))
		ok(!c.prefetch, "prefetch no: off");
	bad("prefetch maybe", "t.conf:1: prefetch: 'maybe' is not yes or no");
	ok(c.resolution == CFG_RES_AUTO && c.root_hints[0] == 0,
	   "resolution auto and the built-in root hints by default");
	if (good("resolution recursive\nroot-hints /etc/r.hints\n", &c,
		 "resolution recursive"))
		ok(c.resolution == CFG_RES_RECURSIVE &&
			   strcmp(c.root_hints, "/etc/r.hints") == 0,
		   "resolution recursive, root-hints /etc/r.hints");
	if (good("resolution forward\n", &c, "resolution forward"))
		ok(c.resolution == CFG_RES_FORWARD, "resolution forward");
	bad("resolution iterate",
	    "t.conf:1: resolution: 'iterate' is not auto, forward or recursive");
	bad("root-hints named.root",
	    "t.conf:1: root-hints: 'named.root' is not an absolute path");
	if (good("aggressive-nsec no\n", &c, "aggressive-nsec no"))
		ok(!c.aggressive_nsec && c.prefetch,
		   "aggressive-nsec no: off, prefetch untouched");
	bad("insecure maybe",
	    "t.conf:1: insecure: 'maybe' is not accept or reject");
	if (good("negative-trust-anchor Broken.Example until 2026-12-04\n"
		 "negative-trust-anchor other.example.\n",
		 &c, "two negative trust anchors")) {
		is_int(c.nnta, 2, "both kept");
		ok(c.nta[0].name[1] == 'b', "lower-cased");
		is_int(c.nta[0].until, 1796342400, "until 2026-12-04 00:00 UTC");
		is_int(c.nta[1].until, 0, "no end");
	}
	if (good("negative-trust-anchor x. until 2024-02-29", &c, "leap day"))
		is_int(c.nta[0].until, 1709164800, "2024-02-29 00:00 UTC");
	bad("negative-trust-anchor x. until 2025-02-29",
	    "t.conf:1: negative-trust-anchor: '2025-02-29' is not a date "
	    "YYYY-MM-DD");
	bad("negative-trust-anchor x. till 2025-02-20",
	    "t.conf:1: negative-trust-anchor: expected 'until YYYY-MM-DD' "
	    "after the domain");
	bad("negative-trust-anchor x. until",
	    "t.conf:1: negative-trust-anchor: expected 'until YYYY-MM-DD' "
	    "after the domain");
	bad("negative-trust-anchor a..b",
	    "t.conf:1: negative-trust-anchor: 'a..b' is not a domain name");
	bad("negative-trust-anchor x\nnegative-trust-anchor X.",
	    "t.conf:2: negative-trust-anchor: X. given twice");
	if (good("require-secure bank.example\nrequire-secure .", &c,
		 "require-secure"))
		is_int(c.nrequire, 2, "two require-secure domains");
	bad("require-secure bank.example bank2.example",
	    "t.conf:1: require-secure: unexpected 'bank2.example' (usage: "
	    "require-secure DOMAIN)");
	if (good("domain corp.example upstream 10.1.1.1 10.1.1.2@5353\n"
		 "domain corp.example validate no\n",
		 &c, "one domain, two lines")) {
		is_int(c.ndomain, 1, "merged into one rule");
		is_int(c.domain[0].nns, 2, "two upstreams");
		ok(c.domain[0].novalidate, "validate no");
	}
	bad("domain corp.example",
	    "t.conf:1: domain: missing value (usage: domain DOMAIN upstream "
	    "ADDR... | DOMAIN validate yes|no)");
	bad("domain corp.example upstream",
	    "t.conf:1: domain: 1 to 3 upstream addresses (usage: domain "
	    "DOMAIN upstream ADDR... | DOMAIN validate yes|no)");
	bad("domain corp.example upstream a.b.c.d",
	    "t.conf:1: domain: 'a.b.c.d' is not ADDR or ADDR@PORT");
	bad("domain corp.example validate maybe",
	    "t.conf:1: domain: validate takes yes or no");
	bad("domain corp.example forward 1.2.3.4",
	    "t.conf:1: domain: 'forward' is not upstream or validate");
	bad("domain c upstream 10.0.0.1\ndomain c upstream 10.0.0.2",
	    "t.conf:2: domain: upstream of c given twice");
	if (good("private-domain Fritz.Box\nprivate-domain corp.example.",
		 &c, "private-domain")) {
		is_int(c.nprivate, 2, "two private domains");
		ok(wire_dname_equal(c.private_domain[0],
				    (const uint8_t *)"\5fritz\3box"),
		   "lower case, fully qualified");
		ok(!c.no_private_defaults, "the built-in list kept");
	}
	bad("private-domain .",
	    "t.conf:1: private-domain: not the root: every name would be "
	    "private");
	bad("private-domain a\nprivate-domain A.",
	    "t.conf:2: private-domain: A. given twice");
	bad("private-domain a..b",
	    "t.conf:1: private-domain: 'a..b' is not a domain name");
	if (good("no-private-defaults", &c, "no-private-defaults"))
		ok(c.no_private_defaults, "no-private-defaults set");
	bad("no-private-defaults yes",
	    "t.conf:1: no-private-defaults: unexpected 'yes' (usage: "
	    "no-private-defaults)");
	if (good("hotspot-group netdev", &c, "hotspot-group"))
		is_str(c.hotspot_group, "netdev", "hotspot-group netdev");
	bad("hotspot-group",
	    "t.conf:1: hotspot-group: missing value (usage: hotspot-group "
	    "NAME)");
	{
		char many[DT_CFG_MAX_PRIVATE * 24 + 32];
		size_t off = 0;
		for (int i = 0; i <= DT_CFG_MAX_PRIVATE; i++)
			off += (size_t)snprintf(many + off, sizeof(many) - off,
						"private-domain p%d.\n", i);
		bad(many, "t.conf:65: private-domain: more than 64");
	}
}

/* upstream, fallback-upstream, tls-ca: servers of our choosing, TLS. */
static void test_upstream(void)
{
	struct cfg c;

	if (good("upstream 192.0.2.1\nupstream \"192.0.2.2@5353#dns.example\" "
		 "tls\nupstream \"::1#x.y\" tls # a comment\n",
		 &c, "three upstreams")) {
		is_int(c.upstream.nns, 3, "three servers");
		is_str(c.upstream.tls_name[0], "", "the first: plain DNS");
		is_str(c.upstream.tls_name[1], "dns.example",
		       "the second: TLS, its name");
		is_int(ntohs(((struct sockaddr_in *)&c.upstream.ns[1].addr)
				     ->sin_port),
		       5353, "its port as given");
	}
	if (good("upstream \"::1#dot.lab\" tls\n"
		 "fallback-upstream \"192.0.2.9#a-b.c\"",
		 &c, "TLS port by default")) {
		is_int(ntohs(((struct sockaddr_in6 *)&c.upstream.ns[0].addr)
				     ->sin6_port),
		       853, "upstream tls: port 853");
		is_int(ntohs(((struct sockaddr_in *)&c.fallback.ns[0].addr)
				     ->sin_port),
		       853, "fallback-upstream: port 853");
		is_str(c.fallback.tls_name[0], "a-b.c", "fallback's name");
	}
	bad("upstream 192.0.2.1 tls",
	    "t.conf:1: upstream: '192.0.2.1' has no #NAME: a TLS server is "
	    "known by the name its certificate holds");
	if (good("upstream 192.0.2.1#dns.example tls", &c, "unquoted #NAME"))
		is_str(c.upstream.tls_name[0], "dns.example",
		       "'#' inside a word is no comment");
	bad("upstream \"192.0.2.1#dns.example\"",
	    "t.conf:1: upstream: '192.0.2.1#dns.example': #NAME is for TLS "
	    "servers (add tls)");
	bad("upstream \"192.0.2.1#dns..example\" tls",
	    "t.conf:1: upstream: 'dns..example' is not a host name (e.g. "
	    "dns.example.net)");
	bad("upstream \"192.0.2.1#-a.example\" tls",
	    "t.conf:1: upstream: '-a.example' is not a host name (e.g. "
	    "dns.example.net)");
	bad("upstream 192.0.2.1 udp",
	    "t.conf:1: upstream: 'udp' is not tls");
	bad("upstream \"1.2.3#x\" tls",
	    "t.conf:1: upstream: '1.2.3#x' is not ADDR[@PORT][#NAME] (e.g. "
	    "192.0.2.53@853#dns.example.net)");
	bad("upstream 192.0.2.1\nupstream 192.0.2.2\nupstream 192.0.2.3\n"
	    "upstream 192.0.2.4",
	    "t.conf:4: upstream: more than 3 servers");
	bad("upstream 192.0.2.1\nupstream 192.0.2.1@53",
	    "t.conf:2: upstream: 192.0.2.1@53 given twice");
	bad("fallback-upstream 192.0.2.1",
	    "t.conf:1: fallback-upstream: '192.0.2.1' has no #NAME: a TLS "
	    "server is known by the name its certificate holds");
	bad("tls-ca ca.pem", "t.conf:1: tls-ca: 'ca.pem' is not an absolute "
			      "path");
}

/* upstream-source (resolv-conf its older spelling) and stub-resolv-conf. */
static void test_source(void)
{
	struct cfg c;
	char text[8192];

	if (good("upstream-source auto", &c, "upstream-source auto")) {
		is_int(c.upstream_source, UP_SOURCE_AUTO, "auto");
		is_str(c.resolv_conf, "", "auto: no path until the daemon "
					  "chooses");
		round_trip(&c, "auto");
	}
	if (good("upstream-source networkmanager", &c, "networkmanager")) {
		is_int(c.upstream_source, UP_SOURCE_NETWORKMANAGER, "kind");
		is_str(c.resolv_conf, "/run/NetworkManager/no-stub-resolv.conf",
		       "NetworkManager's no-stub file by default");
	}
	if (good("upstream-source resolved", &c, "resolved"))
		is_str(c.resolv_conf, "/run/systemd/resolve/resolv.conf",
		       "systemd-resolved's file by default");
	if (good("upstream-source networkd", &c, "networkd")) {
		is_int(c.upstream_source, UP_SOURCE_NETWORKD, "kind");
		is_str(c.resolv_conf, "/run/systemd/netif/links",
		       "systemd-networkd's link directory by default");
		round_trip(&c, "networkd");
	}
	if (good("upstream-source resolvconf /run/x/ifaces", &c,
		 "resolvconf DIR")) {
		is_int(c.upstream_source, UP_SOURCE_RESOLVCONF, "kind");
		is_str(c.resolv_conf, "/run/x/ifaces", "its directory");
		round_trip(&c, "resolvconf DIR");
		cfg_format(&c, text, sizeof(text));
		ok(strstr(text, "\nupstream-source resolvconf /run/x/ifaces\n") &&
			   strstr(text, "\n#resolv-conf PATH\n"),
		   "written as upstream-source, resolv-conf commented");
	}
	if (good("upstream-source file /etc/r.conf", &c, "file PATH")) {
		is_int(c.upstream_source, UP_SOURCE_FILE, "file");
		cfg_format(&c, text, sizeof(text));
		ok(strstr(text, "\nresolv-conf /etc/r.conf\n") != NULL,
		   "a file source is written as resolv-conf");
	}
	bad("upstream-source file",
	    "t.conf:1: upstream-source: file needs its PATH");
	bad("upstream-source auto /x",
	    "t.conf:1: upstream-source: auto takes no path");
	bad("upstream-source dhcp",
	    "t.conf:1: upstream-source: 'dhcp' is not file, networkmanager, "
	    "resolved, resolvconf, networkd or auto");
	bad("upstream-source resolved run/x",
	    "t.conf:1: upstream-source: 'run/x' is not an absolute path");
	bad("resolv-conf /a\nupstream-source auto",
	    "t.conf:2: upstream-source: the upstream source was given on "
	    "line 1 (resolv-conf PATH is upstream-source file PATH)");
	if (good("upstream-source auto\nlisten 127.0.0.53@53\n"
		 "stub-resolv-conf /run/dnstrust/stub/resolv.conf",
		 &c, "stub mode")) {
		is_str(c.stub_resolv_conf, "/run/dnstrust/stub/resolv.conf",
		       "stub-resolv-conf");
		round_trip(&c, "stub mode");
	}
	bad("upstream-source auto\nlisten 127.0.0.53@5353\n"
	    "stub-resolv-conf /run/s",
	    "t.conf: stub-resolv-conf: needs a listen address on loopback, "
	    "port 53 (resolv.conf cannot name a port)");
	bad("listen 127.0.0.53@53\nstub-resolv-conf /run/s",
	    "t.conf: stub-resolv-conf: the upstream source is "
	    "/etc/resolv.conf, which stub mode replaces: set upstream-source "
	    "(auto, networkmanager, resolved, resolvconf or another file)");
	bad("upstream-source file /run/s\nlisten ::1@53\n"
	    "stub-resolv-conf /run/s",
	    "t.conf: stub-resolv-conf: the upstream source is /run/s, which "
	    "stub mode replaces: set upstream-source (auto, networkmanager, "
	    "resolved, resolvconf or another file)");
}

int main(void)
{
	test_defaults();
	test_paths();
	test_source();
	test_listen();
	test_cache_size();
	test_numbers();
	test_user();
	test_log_level();
	test_syntax();
	test_errors();
	test_load();
	test_policy();
	test_upstream();
	test_format();
	test_example();
	test_man_keys();
	return done_testing();
}
