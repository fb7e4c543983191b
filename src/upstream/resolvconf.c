/* SPDX-License-Identifier: MIT */
/*
 * resolv.conf read the way glibc's res_init reads it (resolv.conf(5)),
 * down to its quirks, so the daemon asks the servers an application
 * would ask:
 *
 * - a line counts only when its keyword starts in column 0 and is
 *   followed by a space or a tab; ';' or '#' in column 0 makes a comment;
 *   a NUL octet ends the line's content;
 * - nameserver takes the first word after it: an IPv4 address in any form
 *   inet_aton accepts ("127.1", "0x7f.1") with nothing after it, else an
 *   IPv6 address with an optional %scope (an interface name for
 *   link-local addresses, else a number; a bad scope is ignored, the
 *   address kept); the first DT_UP_MAXNS good lines are used;
 * - options words are separated by spaces and tabs and matched as
 *   prefixes ("rotate", "timeout:", "attempts:"), numbers read as atoi
 *   does (leading white space, sign, then digits), later words win.
 *
 * - search NAME... and domain NAME: the last such line wins, as in
 *   glibc; names past DT_UP_MAXSEARCH or DT_UP_SEARCH_MAXLEN octets, the
 *   root and names that do not parse are left out.
 *
 * glibc takes timeout:0 (or less) as 1 s when sending; so do we, keeping
 * timeout_ms in 1..30 s. attempts:0 (or less) makes glibc send nothing at
 * all; a forwarder that never asks is useless, so we take it as 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/file.h"
#include "upstream/resolvconf.h"
#include "wire/dname.h"

/* The nameserver port: RFC 1035 §4.2. */
#define NS_PORT 53
/* Longest nameserver word tried as an IPv4 address: inet_aton allows
 * leading zeros without end, 255 is far past any sane spelling. */
#define V4_TEXT_MAX 255
/* Longest IPv6 text inet_pton can accept ("ffff:...:255.255.255.255"). */
#define V6_TEXT_MAX 45

/* --- servers --- */

static void server_v4(struct up_server *s, const struct in_addr *a,
		      uint16_t port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&s->addr;

	memset(s, 0, sizeof(*s));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	sin->sin_addr = *a;
	s->addrlen = sizeof(*sin);
}

static void server_v6(struct up_server *s, const struct in6_addr *a,
		      uint32_t scope, uint16_t port)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&s->addr;

	memset(s, 0, sizeof(*s));
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	sin6->sin6_addr = *a;
	sin6->sin6_scope_id = scope;
	s->addrlen = sizeof(*sin6);
}

bool up_server_equal(const struct up_server *a, const struct up_server *b)
{
	const struct sockaddr_in *a4 = (const void *)&a->addr;
	const struct sockaddr_in *b4 = (const void *)&b->addr;
	const struct sockaddr_in6 *a6 = (const void *)&a->addr;
	const struct sockaddr_in6 *b6 = (const void *)&b->addr;

	if (a->addr.ss_family != b->addr.ss_family)
		return false;
	if (a->addr.ss_family == AF_INET)
		return a4->sin_port == b4->sin_port &&
		       a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	if (a->addr.ss_family == AF_INET6)
		return a6->sin6_port == b6->sin6_port &&
		       a6->sin6_scope_id == b6->sin6_scope_id &&
		       memcmp(&a6->sin6_addr, &b6->sin6_addr,
			      sizeof(a6->sin6_addr)) == 0;
	return false;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number of digits only, at most max; -1 when not. */
static long long parse_decimal(const char *s, size_t len, long long max)
{
	long long v = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -1;
	}
	return v;
}

/* Copies len octets into a NUL-terminated buffer of cap; false when they
 * do not fit. */
static bool copy_text(char *buf, size_t cap, const char *s, size_t len)
{
	if (len >= cap)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return true;
}

/* A scope: an interface name, else a decimal number; -1 when neither.
 * glibc's resolv.conf rule looks names up only for link-local and node-
 * or link-local multicast addresses (strict is false); the config's
 * syntax takes a name for any address and refuses a bad scope. */
static long long scope_parse(const struct in6_addr *a, const char *s,
			     size_t len, bool strict)
{
	char name[IF_NAMESIZE];

	if ((strict || IN6_IS_ADDR_LINKLOCAL(a) ||
	     IN6_IS_ADDR_MC_NODELOCAL(a) || IN6_IS_ADDR_MC_LINKLOCAL(a)) &&
	    copy_text(name, sizeof(name), s, len)) {
		unsigned idx = if_nametoindex(name);

		if (idx != 0)
			return idx;
	}
	return parse_decimal(s, len, UINT32_MAX);
}

/* "ADDR" or "ADDR%SCOPE" as an IPv6 address; with strict, a bad scope is
 * refused, else (glibc's resolv.conf rule) taken as 0. */
static bool v6_parse(const char *s, size_t len, bool strict, uint16_t port,
		     struct up_server *ret)
{
	const char *pct = memchr(s, '%', len);
	size_t alen = pct ? (size_t)(pct - s) : len;
	char text[V6_TEXT_MAX + 1];
	struct in6_addr a;
	long long scope = 0;

	if (alen == 0 || !copy_text(text, sizeof(text), s, alen) ||
	    inet_pton(AF_INET6, text, &a) != 1)
		return false;
	if (pct) {
		scope = scope_parse(&a, pct + 1, len - alen - 1, strict);
		if (scope < 0 && strict)
			return false;
		if (scope < 0)
			scope = 0;
	}
	server_v6(ret, &a, (uint32_t)scope, port);
	return true;
}

/* inet_aton with nothing after the address (glibc's __inet_aton_exact):
 * inet_aton itself stops quietly at white space. */
static bool v4_parse_aton(const char *s, size_t len, struct up_server *ret)
{
	char text[V4_TEXT_MAX + 1];
	struct in_addr a;

	for (size_t i = 0; i < len; i++) {
		if (is_space(s[i]))
			return false;
	}
	if (len == 0 || !copy_text(text, sizeof(text), s, len) ||
	    inet_aton(text, &a) == 0)
		return false;
	server_v4(ret, &a, NS_PORT);
	return true;
}

/* --- resolv.conf lines --- */

/* When line [s, e) starts with keyword followed by a space or a tab,
 * returns the position after the keyword, else NULL. */
static const char *keyword(const char *s, const char *e, const char *kw)
{
	size_t n = strlen(kw);

	if ((size_t)(e - s) <= n || memcmp(s, kw, n) != 0)
		return NULL;
	return s[n] == ' ' || s[n] == '\t' ? s + n : NULL;
}

static void parse_nameserver(struct up_conf *conf, const char *s, const char *e)
{
	const char *w;
	struct up_server srv;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	for (w = s; w < e && *w != ' ' && *w != '\t'; w++)
		;
	if (!v4_parse_aton(s, (size_t)(w - s), &srv) &&
	    !v6_parse(s, (size_t)(w - s), false, NS_PORT, &srv)) {
		conf->skipped++;
		return;
	}
	if (conf->nns < DT_UP_MAXNS)
		conf->ns[conf->nns++] = srv;
}

/* atoi as glibc has it: (int)strtol(s, NULL, 10), strtol saturating at
 * LONG_MIN/LONG_MAX, the conversion to int keeping the low bits. */
static int option_number(const char *s, const char *e)
{
	unsigned long v = 0, lim = (unsigned long)LONG_MAX;
	bool neg = false;

	while (s < e && is_space(*s))
		s++;
	if (s < e && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	if (neg)
		lim += 1;
	for (; s < e && is_digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		v = v > (lim - d) / 10 ? lim : v * 10 + d;
	}
	if (neg)
		v = 0 - v;
	return (int)(unsigned)v;
}

static unsigned clamp(int v, int lo, int hi)
{
	return (unsigned)(v < lo ? lo : v > hi ? hi : v);
}

static bool has_prefix(const char *s, const char *e, const char *p)
{
	size_t n = strlen(p);

	return (size_t)(e - s) >= n && memcmp(s, p, n) == 0;
}

static void parse_option(struct up_conf *conf, const char *s, const char *e)
{
	if (has_prefix(s, e, "timeout:"))
		conf->timeout_ms = 1000 * clamp(option_number(s + 8, e), 1,
						DT_UP_TIMEOUT_MAX_MS / 1000);
	else if (has_prefix(s, e, "attempts:"))
		conf->attempts =
			clamp(option_number(s + 9, e), 1, DT_UP_ATTEMPTS_MAX);
	else if (has_prefix(s, e, "rotate"))
		conf->rotate = true;
}

static void parse_options(struct up_conf *conf, const char *s, const char *e)
{
	while (s < e) {
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s < e)
			parse_option(conf, s, e);
		while (s < e && *s != ' ' && *s != '\t')
			s++;
	}
}

/* search NAME... or domain NAME: replaces the list. */
static void parse_search(struct up_conf *conf, const char *s, const char *e,
			 bool one)
{
	conf->nsearch = 0;
	conf->searchlen = 0;
	while (s < e && conf->nsearch < DT_UP_MAXSEARCH) {
		const char *w;
		uint8_t name[DT_NAME_MAXLEN];
		int len;

		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		for (w = s; w < e && *w != ' ' && *w != '\t'; w++)
			;
		if (w == s)
			break;
		len = wire_dname_from_str(s, (size_t)(w - s), (const uint8_t *)"",
					  name);
		if (len > 1 &&
		    conf->searchlen + (size_t)len <= sizeof(conf->search)) {
			wire_dname_tolower(name);
			memcpy(conf->search + conf->searchlen, name, (size_t)len);
			conf->searchlen += (size_t)len;
			conf->nsearch++;
		}
		if (one)
			break;
		s = w;
	}
}

static const uint8_t *nth_name(const uint8_t *p, size_t i)
{
	while (i--)
		p += wire_dname_len(p);
	return p;
}

const uint8_t *up_conf_search(const struct up_conf *c, size_t i)
{
	return nth_name(c->search, i);
}

const uint8_t *up_conf_route(const struct up_conf *c, size_t i)
{
	return nth_name(c->route, i);
}

bool up_names_add(uint8_t *buf, size_t cap, size_t *n, size_t *len,
		  const uint8_t *name)
{
	size_t l = wire_dname_len(name);

	for (size_t i = 0; i < *n; i++)
		if (wire_dname_equal(nth_name(buf, i), name))
			return true;
	if (*n == DT_UP_MAXSEARCH || *len + l > cap)
		return false;
	memcpy(buf + *len, name, l);
	*len += l;
	(*n)++;
	return true;
}

static void parse_line(struct up_conf *conf, const char *s, const char *e)
{
	const char *p;

	if (s == e || *s == ';' || *s == '#')
		return;
	if ((p = keyword(s, e, "nameserver")) != NULL)
		parse_nameserver(conf, p, e);
	else if ((p = keyword(s, e, "options")) != NULL)
		parse_options(conf, p, e);
	else if ((p = keyword(s, e, "search")) != NULL)
		parse_search(conf, p, e, false);
	else if ((p = keyword(s, e, "domain")) != NULL)
		parse_search(conf, p, e, true);
}

void up_conf_parse(const char *text, size_t len, struct up_conf *ret)
{
	const char *p = text, *end = text + len;
	struct in_addr loopback = {.s_addr = htonl(INADDR_LOOPBACK)};

	memset(ret, 0, sizeof(*ret));
	ret->timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
	ret->attempts = DT_UP_ATTEMPTS_DEFAULT;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *nul = memchr(p, '\0', (size_t)(le - p));

		parse_line(ret, p, nul ? nul : le);
		p = nl ? nl + 1 : end;
	}
	if (ret->nns == 0) {
		server_v4(&ret->ns[0], &loopback, NS_PORT);
		ret->nns = 1;
		ret->defaulted = true;
	}
}

int up_conf_load(const char *path, struct up_conf *ret)
{
	char *buf;
	size_t len;
	int r = file_read_path(path, DT_UP_CONF_MAXSIZE, &buf, &len);

	if (r < 0)
		return r;
	up_conf_parse(buf, len, ret);
	free(buf);
	return 0;
}

bool up_conf_equal(const struct up_conf *a, const struct up_conf *b)
{
	if (a->nns != b->nns || a->timeout_ms != b->timeout_ms ||
	    a->attempts != b->attempts || a->rotate != b->rotate ||
	    a->searchlen != b->searchlen ||
	    memcmp(a->search, b->search, a->searchlen) != 0 ||
	    a->routelen != b->routelen ||
	    memcmp(a->route, b->route, a->routelen) != 0)
		return false;
	for (size_t i = 0; i < a->nns; i++) {
		if (!up_server_equal(&a->ns[i], &b->ns[i]) ||
		    strcmp(a->tls_name[i], b->tls_name[i]) != 0)
			return false;
	}
	return true;
}

/* "%scope": the interface's name when it has one, else the number. */
static void scope_str(uint32_t scope, char *buf, size_t len)
{
	char name[IF_NAMESIZE];

	if (if_indextoname(scope, name))
		snprintf(buf, len, "%%%s", name);
	else
		snprintf(buf, len, "%%%u", (unsigned)scope);
}

void up_server_str(const struct up_server *s, char *buf, size_t len)
{
	const struct sockaddr_in *sin = (const void *)&s->addr;
	const struct sockaddr_in6 *sin6 = (const void *)&s->addr;
	char addr[INET6_ADDRSTRLEN] = "?", scope[IF_NAMESIZE + 12] = "";
	unsigned port = 0;

	if (len == 0)
		return;
	if (s->addr.ss_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, addr, sizeof(addr));
		port = ntohs(sin->sin_port);
		if (port == NS_PORT)
			snprintf(buf, len, "%s", addr);
		else
			snprintf(buf, len, "%s:%u", addr, port);
		return;
	}
	if (s->addr.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, addr, sizeof(addr));
		port = ntohs(sin6->sin6_port);
		if (sin6->sin6_scope_id)
			scope_str(sin6->sin6_scope_id, scope, sizeof(scope));
	}
	if (port == NS_PORT)
		snprintf(buf, len, "%s%s", addr, scope);
	else
		snprintf(buf, len, "[%s%s]:%u", addr, scope, port);
}

int up_server_parse(const char *text, struct up_server *ret)
{
	const char *at = strchr(text, '@');
	size_t alen = at ? (size_t)(at - text) : strlen(text);
	char v4[INET_ADDRSTRLEN];
	struct in_addr a;
	long long port = NS_PORT;

	if (at) {
		port = parse_decimal(at + 1, strlen(at + 1), UINT16_MAX);
		if (port <= 0)
			return DT_ESYNTAX;
	}
	if (memchr(text, ':', alen))
		return v6_parse(text, alen, true, (uint16_t)port, ret)
			       ? 0
			       : DT_ESYNTAX;
	if (!copy_text(v4, sizeof(v4), text, alen) ||
	    inet_pton(AF_INET, v4, &a) != 1)
		return DT_ESYNTAX;
	server_v4(ret, &a, (uint16_t)port);
	return 0;
}
