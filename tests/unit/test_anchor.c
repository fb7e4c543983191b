/* SPDX-License-Identifier: MIT */
/*
 * Trust anchors (src/validator/anchor.c): the built-in IANA root anchors
 * byte for byte (and KSK-2017's DS against the root KSK itself), adding
 * records, zones and lookups, and reading anchor files in the forms
 * people paste (dig output with RRSIGs, ldns-key2ds lines, $ORIGIN and
 * relative names) with "file:line: message" errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/errcode.h"
#include "crypto/ds.h"
#include "validator/anchor.h"
#include "wire/base.h"
#include "wire/dname.h"
#include "wire/zone.h"

#include "tap.h"

static const uint8_t *dn(const char *s)
{
	static wire_dname_storage_t buf[8];
	static unsigned next;
	uint8_t *out = buf[next++ % 8];

	if (wire_dname_from_str(s, strlen(s), NULL, out) < 0)
		abort();
	return out;
}

/* DS RDATA from its presentation-format fields. */
static size_t ds_rdata(uint8_t *out, uint16_t tag, uint8_t alg, uint8_t type,
		       const char *hex)
{
	out[0] = (uint8_t)(tag >> 8);
	out[1] = (uint8_t)tag;
	out[2] = alg;
	out[3] = type;
	int len = wire_hex_decode(hex, strlen(hex), out + 4, 64);
	if (len < 0)
		abort();
	return 4 + (size_t)len;
}

/* The root KSK-2017 (key tag 20326) as the root zone publishes it. */
static const char root_ksk_2017[] =
	". 172800 IN DNSKEY 257 3 8 AwEAAaz/tAm8yTn4Mfeh5eyI96WSVexTBAvkMgJzk"
	"KTOiW1vkIbzxeF3+/4RgWOq7HrxRixHlFlExOLAJr5emLvN7SWXgnLh4+B5xQlNVz8O"
	"g8kvArMtNROxVQuCaSnIDdD5LKyWbRd2n9WGe2R8PzgCmr3EgVLrjyBxWezF0jLHwVN"
	"8efS3rCj/EWgvIWgb9tarpVUDK/b58Da+sqqls3eNbuv7pr+eoZG+SrDK6nWeL3c6H5"
	"Apxz7LjVc1uTIdsIXxuOLYA4/ilBmSVIzuDWfdRUfhHdY6+cn8HFRm+2hM8AnXGXws9"
	"555KrUB5qihylGa8subX2Nn6UwNR1AkUTV74bU=\n";

static void test_root(void)
{
	struct val_anchors *ta = val_anchors_new();
	uint8_t want[2][64];
	size_t wlen[2];

	ok(ta && val_anchors_count(ta) == 0, "new set is empty");
	is_int(val_anchors_add_root(ta), 0, "root anchors added");
	is_int(val_anchors_count(ta), 1, "one anchor zone");
	const struct val_anchor_zone *az = val_anchors_get(ta, 0);
	ok(az && wire_dname_is_root(az->zone), "the zone is the root");
	if (!az)
		goto out;
	is_int(az->nds, 2, "two DS anchors");
	is_int(az->ndnskey, 0, "no DNSKEY anchors");
	wlen[0] = ds_rdata(want[0], 20326, 8, 2,
			   "E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC6834571"
			   "04237C7F8EC8D");
	wlen[1] = ds_rdata(want[1], 38696, 8, 2,
			   "683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF"
			   "444A4C0FB2B16");
	for (size_t i = 0; i < 2 && i < az->nds; i++) {
		const struct wire_rr *ds = &az->ds[i];
		is_mem(ds->rdata, ds->rdlen, want[i], wlen[i],
		       "DS %zu: RDATA is IANA's byte for byte", i);
		ok(ds->type == WIRE_TYPE_DS && ds->rclass == WIRE_CLASS_IN &&
			   wire_dname_is_root(ds->owner),
		   "DS %zu: . IN DS", i);
	}

	/* KSK-2017's DS matches the key the root zone serves. */
	struct wire_zreader *zr = wire_zreader_new(
		root_ksk_2017, strlen(root_ksk_2017), NULL, 3600, "ksk");
	struct wire_rr key;
	if (zr && wire_zreader_next(zr, &key) == 1) {
		is_int(wire_keytag(key.rdata, key.rdlen), 20326,
		       "root KSK-2017 has key tag 20326");
		is_int(crypto_ds_match(dn("."), key.rdata, key.rdlen,
				       az->ds[0].rdata, az->ds[0].rdlen),
		       1, "built-in DS 20326 matches the root KSK-2017");
		is_int(crypto_ds_match(dn("."), key.rdata, key.rdlen,
				       az->ds[1].rdata, az->ds[1].rdlen),
		       0, "built-in DS 38696 does not");
	} else {
		ok(0, "root KSK read");
	}
	wire_zreader_free(zr);

	is_int(val_anchors_add_root(ta), 0, "root anchors added again");
	is_int(az->nds, 2, "duplicates are not added twice");
	ok(val_anchors_find(ta, dn("www.example.com.")) == az,
	   "find: www.example.com is under the root anchor");
	ok(val_anchors_find(ta, dn(".")) == az, "find: the root itself");
	ok(val_anchors_get(ta, 1) == NULL, "get past the end: NULL");
out:
	val_anchors_free(ta);
	val_anchors_free(NULL);
}

/* A record from one line of presentation format (static storage). */
static struct wire_rr rr_of(const char *line)
{
	static uint8_t owner[4][DT_NAME_MAXLEN], rdata[4][512];
	static unsigned next;
	struct wire_zreader *zr =
		wire_zreader_new(line, strlen(line), ".", 3600, "test");
	struct wire_rr rr;
	unsigned k = next++ % 4;

	if (!zr || wire_zreader_next(zr, &rr) != 1)
		abort();
	wire_dname_copy(owner[k], rr.owner);
	memcpy(rdata[k], rr.rdata, rr.rdlen);
	rr.owner = owner[k];
	rr.rdata = rdata[k];
	wire_zreader_free(zr);
	return rr;
}

static void test_add(void)
{
	struct val_anchors *ta = val_anchors_new();
	struct wire_rr rr;

	rr = rr_of("Example.COM. IN DS 12345 13 2 "
		   "0011223344556677889900112233445566778899001122334455667788"
		   "990011\n");
	is_int(val_anchors_add(ta, &rr), 0, "add a DS for example.com");
	rr = rr_of("example.com. IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwa"
		   "ubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA"
		   "==\n");
	is_int(val_anchors_add(ta, &rr), 0, "add a DNSKEY for example.com");
	is_int(val_anchors_count(ta), 1, "names compared case-insensitively");
	const struct val_anchor_zone *az = val_anchors_get(ta, 0);
	ok(az->nds == 1 && az->ndnskey == 1, "one DS and one DNSKEY");
	ok(wire_dname_equal(az->zone, dn("example.com.")) && az->zone[1] == 'e',
	   "zone name stored lowercased");
	ok(az->ds[0].owner == az->zone && az->dnskey[0].owner == az->zone,
	   "records are owned by the zone's name");

	rr = rr_of("example.com. IN A 192.0.2.1\n");
	is_int(val_anchors_add(ta, &rr), DT_ETYPE, "A record: DT_ETYPE");
	rr = rr_of("example.com. CH DS 1 8 2 00\n");
	is_int(val_anchors_add(ta, &rr), DT_ERDATA, "class CH: DT_ERDATA");
	rr = rr_of("example.com. IN DS 1 8 2 00\n");
	uint8_t shortrd[3] = {0, 1, 8};
	rr.rdata = shortrd;
	rr.rdlen = 3;
	ok(val_anchors_add(ta, &rr) < 0, "DS RDATA of 3 octets refused: %s",
	   errcode_str(val_anchors_add(ta, &rr)));
	is_int(val_anchors_count(ta), 1, "refused records add no zone");

	rr = rr_of("sub.example.com. IN DS 1 8 2 00\n");
	val_anchors_add(ta, &rr);
	rr = rr_of("org. IN DS 2 8 2 00\n");
	val_anchors_add(ta, &rr);
	is_int(val_anchors_count(ta), 3, "three anchor zones");
	ok(val_anchors_find(ta, dn("a.b.sub.example.com.")) ==
		   val_anchors_get(ta, 1),
	   "find: deepest anchor wins (sub.example.com)");
	ok(val_anchors_find(ta, dn("www.example.com.")) == az,
	   "find: www.example.com -> example.com");
	ok(val_anchors_find(ta, dn("EXAMPLE.com.")) == az,
	   "find: the anchor zone itself, any case");
	ok(val_anchors_find(ta, dn("xample.com.")) == NULL,
	   "find: xample.com is not under example.com");
	ok(val_anchors_find(ta, dn("com.")) == NULL,
	   "find: com is above every anchor: NULL");
	ok(val_anchors_find(ta, dn("www.org.")) == val_anchors_get(ta, 2),
	   "find: www.org -> org");
	val_anchors_free(ta);
}

/* Writes text to a new temporary file; returns its path (static). */
static const char *temp_file(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/dt_anchor_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	return path;
}

static const char good_file[] =
	"; trust anchors for the lab\n"
	"$ORIGIN example.\n"
	"@ 3600 IN DNSKEY 257 3 8 ( AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pe\n"
	"\txPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk= )\n"
	"; dig +dnssec prints the RRSIG too\n"
	"example. 3600 IN RRSIG DNSKEY 8 1 3600 20300101000000 20000101000000 "
	"9033 example. AAAA\n"
	"sub IN DS 60485 5 1 ( 2BB183AF5F22588179A53B0A\n"
	"                      98631FAD1A292118 )\n"
	"example.net. IN DS 55648 13 2 b4c8c1fe2e7477127b27115656ad6256f424625b"
	"f5c1e2770ce6d6e37df61d17\n";

static void test_load(void)
{
	struct val_anchors *ta = val_anchors_new();
	char err[256];
	const char *path = temp_file(good_file);
	char want[300];

	is_int(val_anchors_load(ta, path, err, sizeof(err)), 0,
	       "anchor file with comments, $ORIGIN, dig and ldns lines read");
	is_str(err, "", "no error text on success");
	is_int(val_anchors_count(ta), 3,
	       "three zones: example, sub.example, "
	       "example.net");
	const struct val_anchor_zone *az = val_anchors_find(ta, dn("example."));
	ok(az && az->ndnskey == 1 && az->nds == 0,
	   "example.: one DNSKEY, the RRSIG skipped");
	az = val_anchors_find(ta, dn("x.sub.example."));
	ok(az && wire_dname_equal(az->zone, dn("sub.example.")) &&
		   az->nds == 1 && az->ds[0].rdlen == 24,
	   "relative name sub -> sub.example., DS over two lines");
	unlink(path);

	/* Errors: where, and the records before them kept. */
	val_anchors_free(ta);
	ta = val_anchors_new();
	path = temp_file("example. IN DS 1 8 2 00\n"
			 "; comment\n"
			 "www.example. IN A 192.0.2.1\n"
			 "later. IN DS 2 8 2 00\n");
	is_int(val_anchors_load(ta, path, err, sizeof(err)), DT_ETYPE,
	       "an A record in an anchor file: DT_ETYPE");
	snprintf(want, sizeof(want),
		 "%s:3: a A record is not a trust anchor (DS or DNSKEY "
		 "expected)",
		 path);
	is_str(err, want, "A record: file:line: message");
	is_int(val_anchors_count(ta), 1, "the DS before the error is kept");
	unlink(path);

	path = temp_file("example. CH DS 1 8 2 00\n");
	is_int(val_anchors_load(ta, path, err, sizeof(err)), DT_ERDATA,
	       "class CH: DT_ERDATA");
	snprintf(want, sizeof(want),
		 "%s:1: class CH: trust anchors are class IN", path);
	is_str(err, want, "class CH: message");
	unlink(path);

	path = temp_file("example. IN DS 1 8 2 00\n"
			 "example. IN DS 1 8 2 zz\n");
	ok(val_anchors_load(ta, path, err, sizeof(err)) < 0,
	   "bad hex: an error");
	snprintf(want, sizeof(want), "%s:2: ", path);
	ok(strncmp(err, want, strlen(want)) == 0,
	   "bad hex: the reader's file:line message: %s", err);
	unlink(path);

	is_int(val_anchors_load(ta, "/nonexistent/anchors", err, sizeof(err)),
	       -ENOENT, "missing file: -ENOENT");
	ok(strncmp(err, "/nonexistent/anchors: ", 22) == 0,
	   "missing file: message names it: %s", err);
	is_int(val_anchors_load(ta, "/nonexistent/anchors", NULL, 0), -ENOENT,
	       "no error buffer: still the code");
	val_anchors_free(ta);
}

int main(void)
{
	test_root();
	test_add();
	test_load();
	return done_testing();
}
