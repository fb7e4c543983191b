/* SPDX-License-Identifier: MIT */
/*
 * Test helper for tests/wire/roundtrip.sh: reads a zone file with
 * wire_zreader, writes every record with wire_rr_to_str(), reads the
 * written text back with a fresh reader and compares the two record
 * streams record for record: owner, type, class, TTL and RDATA octets.
 *
 *   zone_roundtrip ZONE [ORIGIN [OUT]]
 *
 * ORIGIN is the initial $ORIGIN ("-" for none); OUT receives the written
 * text, one record per line. Prints "read N", "written N", "reread N",
 * "mismatch N" and the count per type; exits 0 only when every record
 * reads back the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

/* One record copied out of the reader. */
struct rec {
	uint8_t owner[DT_NAME_MAXLEN];
	uint16_t type;
	uint16_t rclass;
	uint32_t ttl;
	uint16_t rdlen;
	uint8_t *rdata;
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

/* Text written for all records. */
struct text {
	char *s;
	size_t len, cap;
};

static unsigned type_count[65536];

static void die(const char *what)
{
	fprintf(stderr, "zone_roundtrip: %s\n", what);
	exit(2);
}

static void recs_add(struct recs *rs, const struct wire_rr *rr)
{
	struct rec *r;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 1024;
		rs->v = realloc(rs->v, rs->cap * sizeof(*rs->v));
		if (!rs->v)
			die("out of memory");
	}
	r = &rs->v[rs->n++];
	wire_dname_copy(r->owner, rr->owner);
	r->type = rr->type;
	r->rclass = rr->rclass;
	r->ttl = rr->ttl;
	r->rdlen = rr->rdlen;
	r->rdata = malloc(rr->rdlen ? rr->rdlen : 1);
	if (!r->rdata)
		die("out of memory");
	memcpy(r->rdata, rr->rdata, rr->rdlen);
}

static void text_add_rr(struct text *t, const struct wire_rr *rr)
{
	size_t need = WIRE_RR_TEXT_MAXLEN(rr->rdlen) + 1;
	int len;

	while (t->cap - t->len < need) {
		t->cap = t->cap ? t->cap * 2 : 1 << 20;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			die("out of memory");
	}
	len = wire_rr_to_str(rr, t->s + t->len, t->cap - t->len);
	if (len < 0)
		die(errcode_str(len));
	t->len += (size_t)len;
	t->s[t->len++] = '\n';
}

/* Exact comparison: the writer keeps the case of names. */
static int rec_cmp(const struct rec *a, const struct wire_rr *b)
{
	size_t olen = wire_dname_len(a->owner);

	if (olen != wire_dname_len(b->owner) ||
	    memcmp(a->owner, b->owner, olen) != 0)
		return 1;
	if (a->type != b->type || a->rclass != b->rclass || a->ttl != b->ttl ||
	    a->rdlen != b->rdlen)
		return 1;
	return memcmp(a->rdata, b->rdata, a->rdlen) != 0;
}

static int read_zone(const char *path, const char *origin, struct recs *rs,
		     struct text *t)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	int ret = wire_zreader_open(path, origin, 3600, &zr);

	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", path, errcode_str(ret));
		return ret;
	}
	while ((ret = wire_zreader_next(zr, &rr)) == 1) {
		recs_add(rs, &rr);
		text_add_rr(t, &rr);
		type_count[rr.type]++;
	}
	if (ret < 0)
		fprintf(stderr, "%s\n", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return ret;
}

/* Reads the written text back; returns the number of differences. */
static size_t reread(const struct text *t, const struct recs *rs, size_t *ret_n)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	size_t n = 0, bad = 0;
	int ret;

	zr = wire_zreader_new(t->s, t->len, NULL, 0, "written");
	if (!zr)
		die("out of memory");
	while ((ret = wire_zreader_next(zr, &rr)) == 1) {
		if (n >= rs->n || rec_cmp(&rs->v[n], &rr)) {
			if (bad++ < 10)
				fprintf(stderr,
					"record %zu differs (line %u)\n", n + 1,
					wire_zreader_line(zr));
		}
		n++;
	}
	if (ret < 0) {
		fprintf(stderr, "%s\n", wire_zreader_error(zr));
		bad++;
	}
	wire_zreader_free(zr);
	*ret_n = n;
	return bad + (n != rs->n);
}

static void print_types(void)
{
	char buf[16];

	printf("types");
	for (size_t i = 0; i < 65536; i++)
		if (type_count[i])
			printf(" %s=%u", wire_type_to_str((uint16_t)i, buf),
			       type_count[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *origin = argc > 2 && strcmp(argv[2], "-") ? argv[2] : NULL;
	struct recs rs = {0};
	struct text t = {0};
	size_t n2, bad;
	FILE *f;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: zone_roundtrip ZONE [ORIGIN [OUT]]\n");
		return 2;
	}
	if (read_zone(argv[1], origin, &rs, &t) < 0)
		return 1;
	if (argc > 3) {
		f = fopen(argv[3], "w");
		if (!f || fwrite(t.s, 1, t.len, f) != t.len || fclose(f))
			die("cannot write the output file");
	}
	bad = reread(&t, &rs, &n2);
	printf("read %zu\nwritten %zu\nreread %zu\nmismatch %zu\n", rs.n, rs.n,
	       n2, bad);
	print_types();
	for (size_t i = 0; i < rs.n; i++)
		free(rs.v[i].rdata);
	free(rs.v);
	free(t.s);
	return bad ? 1 : 0;
}
