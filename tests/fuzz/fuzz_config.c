/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for dnstrust.conf (src/policy/config.c). The input is the
 * file's text. Besides memory errors, it checks:
 * - a refused text leaves *ret untouched and gives a NUL-terminated
 *   message starting with "fuzz.conf:";
 * - an accepted text formats, reads back to an equal configuration and
 *   formats to the same text again (cfg_format is a fixpoint);
 * - cfg_format into a short buffer returns the full length and writes a
 *   NUL-terminated prefix.
 * A violation aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../daemon/cfg_same.h"
#include "common/errcode.h"
#include "policy/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Longest text cfg_format writes: every key, DT_CFG_MAX_LISTEN
 * listeners, three paths of PATH_MAX octets all escaped. */
#define FMT_MAX (16 * 1024 + 6 * PATH_MAX)

static char text[FMT_MAX], again[FMT_MAX];

static void fail(const char *why, const char *detail)
{
	fprintf(stderr, "fuzz_config: %s\n%s\n", why, detail);
	abort();
}

/* A refused text: message shape and *ret untouched. */
static void check_refused(int r, const struct cfg *c, const struct cfg *before,
			  const char *err, size_t errlen)
{
	if (r != DT_ECONFIG)
		fail("error other than DT_ECONFIG", err);
	if (memchr(err, '\0', errlen) == NULL)
		fail("message not NUL-terminated", "");
	if (strncmp(err, "fuzz.conf:", 10) != 0)
		fail("message without the file name", err);
	if (memcmp(c, before, sizeof(*c)) != 0)
		fail("*ret written on error", err);
}

/* An accepted text: the round trip through cfg_format. */
static void check_round_trip(const struct cfg *c, size_t cut)
{
	char err[512];
	struct cfg back;
	size_t n = cfg_format(c, text, sizeof(text)), m;

	if (n >= sizeof(text) || strlen(text) != n)
		fail("formatted text too long or miscounted", "");
	if (cfg_parse(text, n, "fuzz.conf", &back, err, sizeof(err)) != 0)
		fail(err, text);
	if (!cfg_same(c, &back))
		fail("not equal after the round trip", text);
	if (cfg_format(&back, again, sizeof(again)) != n ||
	    strcmp(text, again) != 0)
		fail("formats differently the second time", again);
	cut = cut % (n + 2);
	m = cfg_format(c, again, cut);
	if (m != n || (cut && (strlen(again) != (cut <= n ? cut - 1 : n) ||
			       memcmp(again, text, strlen(again)) != 0)))
		fail("short buffer mishandled", again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg c, before;
	char err[256];
	int r;

	memset(&c, 0x5a, sizeof(c));
	before = c;
	r = cfg_parse((const char *)data, size, "fuzz.conf", &c, err,
		      sizeof(err));
	if (r != 0)
		check_refused(r, &c, &before, err, sizeof(err));
	else
		check_round_trip(&c, size ? data[0] * 37u + size : 0);
	return 0;
}
