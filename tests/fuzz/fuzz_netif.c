/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for systemd-networkd's link state files as upstream-source
 * networkd reads them (up_netif_parse, src/upstream/source.c). Besides
 * memory errors it checks what the route table relies on: at most
 * DT_UP_MAXNS servers, each IPv4 or IPv6 and its text parsed back to the
 * same server; the search and routing-only lists well-formed names
 * (lower case, never the root) whose octets add up to the lengths kept;
 * default_route one of -1, 0, 1; defaulted exactly when no server was
 * read; two parses of one text equal. A violation aborts.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "upstream/source.h"
#include "wire/dname.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_netif: %s\n", why);
	abort();
}

/* n names packed in buf (len octets in use): each well formed, lower
 * case, not the root. */
static void check_names(const uint8_t *buf, size_t cap, size_t n, size_t len)
{
	size_t off = 0;

	if (len > cap)
		fail("name list longer than its buffer");
	for (size_t i = 0; i < n; i++) {
		int l;

		if (off >= len)
			fail("fewer names than counted");
		l = wire_dname_check(buf + off, buf + len);
		if (l <= 1)
			fail("a name malformed or the root");
		for (int j = 0; j < l; j++) {
			/* length octets are below 64, never a letter */
			uint8_t c = buf[off + (size_t)j];
			if (c >= 'A' && c <= 'Z')
				fail("a name not in lower case");
		}
		off += (size_t)l;
	}
	if (off != len)
		fail("names do not fill the length kept");
}

static void check_servers(const struct up_conf *c)
{
	if (c->nns > DT_UP_MAXNS)
		fail("server count out of range");
	if (c->defaulted != (c->nns == 0))
		fail("defaulted not exactly when no server was read");
	for (size_t i = 0; i < c->nns; i++) {
		char text[128], again[140], *end;
		struct up_server back;

		up_server_str(&c->ns[i], text, sizeof(text));
		if (text[0] == '[') {
			if (!(end = strrchr(text, ']')) || end[1] != ':')
				fail("bracketed text without ']:'");
			*end = '\0';
			snprintf(again, sizeof(again), "%s@%s", text + 1,
				 end + 2);
		} else if (c->ns[i].addr.ss_family == AF_INET &&
			   strchr(text, ':')) {
			*strchr(text, ':') = '@';
			snprintf(again, sizeof(again), "%s", text);
		} else {
			snprintf(again, sizeof(again), "%s", text);
		}
		if (up_server_parse(again, &back) != 0)
			fail("server text does not parse back");
		if (!up_server_equal(&c->ns[i], &back))
			fail("server text parses back to another server");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct up_iface a, b;

	up_netif_parse((const char *)data, size, &a);
	check_servers(&a.conf);
	check_names(a.conf.search, sizeof(a.conf.search), a.conf.nsearch,
		    a.conf.searchlen);
	check_names(a.conf.route, sizeof(a.conf.route), a.conf.nroute,
		    a.conf.routelen);
	if (a.default_route < -1 || a.default_route > 1)
		fail("default_route out of range");
	up_netif_parse((const char *)data, size, &b);
	if (!up_conf_equal(&a.conf, &b.conf) ||
	    a.conf.skipped != b.conf.skipped ||
	    a.conf.nroute != b.conf.nroute ||
	    a.conf.routelen != b.conf.routelen ||
	    memcmp(a.conf.route, b.conf.route, a.conf.routelen) != 0 ||
	    a.default_route != b.default_route)
		fail("two parses of one text differ");
	return 0;
}
