/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the RFC 5011 state file (src/validator/autotrust_file.c)
 * and what the daemon does with a state it read. The input is the file's
 * text. Besides memory errors, it checks:
 * - a refused text leaves *ret untouched and gives a NUL-terminated
 *   message starting with "fuzz.state:";
 * - an accepted text formats, reads back to an equal state and formats to
 *   the same text again (val_at_format is a fixpoint);
 * - its anchors can be handed to a val_anchors set, and a failed query
 *   schedules the next one at least an hour later.
 * A violation aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "validator/anchor.h"
#include "validator/autotrust.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Longest text val_at_format writes: every point and key at their longest
 * lines (DT_AT_LINE_MAXLEN) plus comments. */
#define FMT_MAX                                                                \
	(DT_AT_MAX_POINTS * (DT_AT_MAX_KEYS + 4) * (DT_AT_LINE_MAXLEN + 2) +   \
	 4096)

static char text[FMT_MAX], again[FMT_MAX];
static struct val_at at, before, back;

static void fail(const char *why, const char *detail)
{
	fprintf(stderr, "fuzz_autotrust: %s\n%s\n", why, detail);
	abort();
}

static void check_refused(int r, const char *err, size_t errlen)
{
	if (r != DT_ESYNTAX && r != DT_ELIMIT)
		fail("unexpected error code", err);
	if (memchr(err, '\0', errlen) == NULL)
		fail("message not NUL-terminated", "");
	if (strncmp(err, "fuzz.state:", 11) != 0)
		fail("message without the file name", err);
	if (memcmp(&at, &before, sizeof(at)) != 0)
		fail("*ret written on error", err);
}

static void check_round_trip(void)
{
	char err[512];
	size_t n = val_at_format(&at, text, sizeof(text));

	if (n >= sizeof(text) || strlen(text) != n)
		fail("formatted text too long or miscounted", "");
	if (val_at_parse(text, n, "fuzz.state", &back, err, sizeof(err)) != 0)
		fail(err, text);
	if (memcmp(&at, &back, sizeof(at)) != 0)
		fail("not equal after the round trip", text);
	if (val_at_format(&back, again, sizeof(again)) != n ||
	    strcmp(text, again) != 0)
		fail("formats differently the second time", again);
}

static void check_use(void)
{
	struct val_anchors *ta = val_anchors_new();
	const int64_t now = 1800000000;

	if (!ta)
		return;
	if (val_at_anchors(&at, ta) < 0)
		fail("val_at_anchors refused a parsed state", "");
	val_anchors_free(ta);
	for (size_t i = 0; i < at.npoints; i++) {
		val_at_failed(&at.points[i], now);
		if (at.points[i].next_query < now + 3600)
			fail("retry sooner than an hour", "");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	int r;

	memset(&at, 0x5a, sizeof(at));
	before = at;
	r = val_at_parse((const char *)data, size, "fuzz.state", &at, err,
			 sizeof(err));
	if (r != 0) {
		check_refused(r, err, sizeof(err));
		return 0;
	}
	check_round_trip();
	check_use();
	return 0;
}
