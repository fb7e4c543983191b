/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the resolv.conf parser (and the server text parser).
 * Besides memory errors it checks what the daemon relies on: one to
 * DT_UP_MAXNS servers, each IPv4 or IPv6 on port 53; a timeout of whole
 * seconds within 1..30 and attempts within 1..5 (glibc's ranges, as
 * clamped); the default server exactly when nothing usable was given;
 * every server's text parsed back to the same server; parsing twice
 * giving equal configurations. A violation aborts.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upstream/resolvconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_resolvconf: %s\n", why);
	abort();
}

static unsigned port_of(const struct up_server *s)
{
	const struct sockaddr_in *sin = (const void *)&s->addr;
	const struct sockaddr_in6 *sin6 = (const void *)&s->addr;

	if (s->addr.ss_family == AF_INET && s->addrlen == sizeof(*sin))
		return ntohs(sin->sin_port);
	if (s->addr.ss_family == AF_INET6 && s->addrlen == sizeof(*sin6))
		return ntohs(sin6->sin6_port);
	fail("server neither IPv4 nor IPv6");
	return 0;
}

/* The text of a server, made into "ADDR@PORT", parses back to it. */
static void check_roundtrip(const struct up_server *s)
{
	char text[128], again[140], *end;
	struct up_server back;

	up_server_str(s, text, sizeof(text));
	if (text[0] == '[') {
		end = strrchr(text, ']');
		if (!end)
			fail("bracketed text without ']'");
		*end = '\0';
		snprintf(again, sizeof(again), "%s@%s", text + 1, end + 2);
	} else if (s->addr.ss_family == AF_INET && strchr(text, ':')) {
		*strchr(text, ':') = '@';
		snprintf(again, sizeof(again), "%s", text);
	} else {
		snprintf(again, sizeof(again), "%s", text);
	}
	if (up_server_parse(again, &back) != 0)
		fail("server text does not parse back");
	if (!up_server_equal(s, &back))
		fail("server text parses back to another server");
}

static void check_conf(const struct up_conf *c)
{
	const struct sockaddr_in *first = (const void *)&c->ns[0].addr;

	if (c->nns < 1 || c->nns > DT_UP_MAXNS)
		fail("server count out of range");
	if (c->timeout_ms < 1000 || c->timeout_ms > DT_UP_TIMEOUT_MAX_MS ||
	    c->timeout_ms % 1000)
		fail("timeout out of glibc's range");
	if (c->attempts < 1 || c->attempts > DT_UP_ATTEMPTS_MAX)
		fail("attempts out of glibc's range");
	if (c->defaulted && (c->nns != 1 || first->sin_family != AF_INET ||
			     first->sin_addr.s_addr != htonl(INADDR_LOOPBACK)))
		fail("defaulted but not 127.0.0.1");
	for (size_t i = 0; i < c->nns; i++) {
		if (port_of(&c->ns[i]) != 53)
			fail("resolv.conf server not on port 53");
		check_roundtrip(&c->ns[i]);
	}
	if (!up_conf_equal(c, c))
		fail("configuration not equal to itself");
}

/* The input as one up_server_parse() argument too. */
static void check_server_parse(const uint8_t *data, size_t size)
{
	char text[256];
	struct up_server s;

	if (size >= sizeof(text))
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	if (up_server_parse(text, &s) != 0)
		return;
	port_of(&s);
	check_roundtrip(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct up_conf a, b;

	up_conf_parse((const char *)data, size, &a);
	check_conf(&a);
	up_conf_parse((const char *)data, size, &b);
	if (!up_conf_equal(&a, &b) || a.skipped != b.skipped ||
	    a.defaulted != b.defaulted)
		fail("two parses of one text differ");
	check_server_parse(data, size);
	return 0;
}
