/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the zone-file reader and the record writer. The input
 * is zone text (origin "example."). Besides memory errors, it checks the
 * round-trip property: every record read, written with wire_rr_to_str()
 * and read again by a fresh reader, gives exactly one record with the same
 * owner, type, class, TTL and RDATA octets. A violation aborts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/zone.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Same owner octets: the writer keeps case, so the comparison is exact. */
static bool same_owner(const uint8_t *a, const uint8_t *b)
{
	size_t i = 0;

	while (a[i] != 0) {
		if (a[i] != b[i])
			return false;
		i += 1u + a[i];
	}
	return b[i] == 0 && memcmp(a, b, i) == 0;
}

static bool same_rr(const struct wire_rr *a, const struct wire_rr *b)
{
	return same_owner(a->owner, b->owner) && a->type == b->type &&
	       a->rclass == b->rclass && a->ttl == b->ttl &&
	       a->rdlen == b->rdlen &&
	       (a->rdlen == 0 || memcmp(a->rdata, b->rdata, a->rdlen) == 0);
}

static void fail(const char *why, const char *text, const char *err)
{
	fprintf(stderr, "fuzz_zone: %s\n  text: %s\n  error: %s\n", why, text,
		err);
	abort();
}

static void check_roundtrip(const struct wire_rr *rr)
{
	size_t cap = WIRE_RR_TEXT_MAXLEN(rr->rdlen);
	char *text = malloc(cap);
	struct wire_zreader *zr;
	struct wire_rr again, extra;
	int len;

	if (!text)
		return;
	len = wire_rr_to_str(rr, text, cap);
	if (len < 0)
		fail("wire_rr_to_str failed", "", "");
	zr = wire_zreader_new(text, (size_t)len, "example.", 0, "roundtrip");
	if (!zr) {
		free(text);
		return;
	}
	if (wire_zreader_next(zr, &again) != 1)
		fail("written record not read back", text,
		     wire_zreader_error(zr));
	if (!same_rr(rr, &again))
		fail("written record reads back different", text, "");
	if (wire_zreader_next(zr, &extra) != 0)
		fail("written record reads back as more", text,
		     wire_zreader_error(zr));
	wire_zreader_free(zr);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_zreader *zr;
	struct wire_rr rr;

	zr = wire_zreader_new((const char *)data, size, "example.", 3600,
			      "fuzz");
	if (!zr)
		return 0;
	while (wire_zreader_next(zr, &rr) == 1)
		check_roundtrip(&rr);
	wire_zreader_free(zr);
	return 0;
}
