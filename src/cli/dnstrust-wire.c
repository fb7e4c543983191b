/* SPDX-License-Identifier: MIT */
/*
 * dnstrust-wire: a developer's tool over src/wire, used by `make demo` and
 * the benchmarks.
 *
 *   dnstrust-wire zone [-o ORIGIN] [-p] [-t] FILE
 *	read a zone file; -p print every record; -t report records/s
 *   dnstrust-wire mkmsgs [-o ORIGIN] ZONEFILE OUTFILE
 *	build one response per RRset of the zone (the RRset and its RRSIGs
 *	in the answer, the zone's SOA in the authority section, EDNS with
 *	DO) and write them as a stream of 2-octet-length-prefixed messages
 *   dnstrust-wire msgs [-p] [-t] FILE
 *	parse such a stream; -p print each message as dig does
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errcode.h"
#include "common/file.h"
#include "common/limits.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"
#include "wire/zone.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: dnstrust-wire zone [-o ORIGIN] [-p] [-t] FILE\n"
		"       dnstrust-wire mkmsgs [-o ORIGIN] ZONEFILE OUTFILE\n"
		"       dnstrust-wire msgs [-p] [-t] FILE\n");
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int print_rr(const struct wire_rr *rr)
{
	static char *buf;
	static size_t cap;
	size_t need = WIRE_RR_TEXT_MAXLEN(rr->rdlen);

	if (need > cap) {
		free(buf);
		buf = malloc(cap = need);
		if (!buf)
			return -ENOMEM;
	}
	int r = wire_rr_to_str(rr, buf, cap);
	if (r < 0)
		return r;
	puts(buf);
	return 0;
}

struct opts {
	const char *origin;
	bool print;
	bool timing;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c;

	optind = 1;
	while ((c = getopt(argc, argv, "o:pt")) != -1) {
		switch (c) {
		case 'o': o->origin = optarg; break;
		case 'p': o->print = true; break;
		case 't': o->timing = true; break;
		default: usage();
		}
	}
	return optind;
}

static int cmd_zone(int argc, char **argv)
{
	struct opts o = {0};
	int i = parse_opts(argc, argv, &o);
	struct wire_zreader *zr;
	struct wire_rr rr;
	size_t n = 0;
	int r;

	if (i + 1 != argc)
		usage();
	double t0 = now();
	r = wire_zreader_open(argv[i], o.origin, 3600, &zr);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[i], errcode_str(r));
		return 1;
	}
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		n++;
		if (o.print && (r = print_rr(&rr)) < 0)
			break;
	}
	double t1 = now();
	if (r < 0) {
		fprintf(stderr, "%s\n", wire_zreader_error(zr));
		wire_zreader_free(zr);
		return 1;
	}
	wire_zreader_free(zr);
	fprintf(stderr, "%zu records", n);
	if (o.timing)
		fprintf(stderr, " in %.3f s (%.0f records/s)", t1 - t0,
			(double)n / (t1 - t0));
	fprintf(stderr, "\n");
	return 0;
}

/* All records of a zone, kept in order with their own storage. */
struct zone {
	struct wire_rr *rr;
	size_t n, cap;
};

static int zone_add(struct zone *z, const struct wire_rr *rr)
{
	if (z->n == z->cap) {
		size_t cap = z->cap ? 2 * z->cap : 1024;
		struct wire_rr *nr = realloc(z->rr, cap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		z->rr = nr;
		z->cap = cap;
	}
	size_t olen = wire_dname_len(rr->owner);
	uint8_t *mem = malloc(olen + rr->rdlen + 1);
	if (!mem)
		return -ENOMEM;
	memcpy(mem, rr->owner, olen);
	memcpy(mem + olen, rr->rdata, rr->rdlen);
	z->rr[z->n] = *rr;
	z->rr[z->n].owner = mem;
	z->rr[z->n].rdata = mem + olen;
	z->n++;
	return 0;
}

static void zone_free(struct zone *z)
{
	for (size_t i = 0; i < z->n; i++)
		free((void *)z->rr[i].owner);
	free(z->rr);
}

static int zone_load(const char *path, const char *origin, struct zone *z)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	int r = wire_zreader_open(path, origin, 3600, &zr);

	if (r < 0) {
		fprintf(stderr, "%s: %s\n", path, errcode_str(r));
		return r;
	}
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		if ((r = zone_add(z, &rr)) < 0)
			break;
	}
	if (r < 0)
		fprintf(stderr, "%s\n", r == -ENOMEM ? "out of memory" :
			wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r;
}

static uint16_t covered_type(const struct wire_rr *rr)
{
	return wire_get16(rr->rdata);
}

static bool same_rrset(const struct wire_rr *a, const struct wire_rr *b,
		       uint16_t type)
{
	if (b->type == WIRE_TYPE_RRSIG && b->rdlen >= 2 &&
	    covered_type(b) == type)
		return wire_dname_equal(a->owner, b->owner);
	return b->type == type && wire_dname_equal(a->owner, b->owner);
}

/* Builds a response for the RRset (owner, type) of z->rr[first]. Signed
 * zones keep an owner's records together, so the RRset and its RRSIGs are
 * found by scanning forward while the owner stays the same. */
static size_t build_response(const struct zone *z, size_t first,
			     const struct wire_rr *soa, uint8_t *buf,
			     size_t cap, uint16_t id)
{
	const struct wire_rr *q = &z->rr[first];
	struct wire_builder b;

	wire_build_init(&b, buf, cap, id,
			WIRE_FLAG_QR | WIRE_FLAG_AA | WIRE_FLAG_RD);
	wire_build_question(&b, q->owner, q->type, WIRE_CLASS_IN);
	for (size_t i = first;
	     i < z->n && wire_dname_equal(q->owner, z->rr[i].owner); i++) {
		if (same_rrset(q, &z->rr[i], q->type))
			wire_build_rr(&b, WIRE_SEC_ANSWER, &z->rr[i]);
	}
	if (soa)
		wire_build_rr(&b, WIRE_SEC_AUTHORITY, soa);
	wire_build_opt(&b, 1232, 0, 0, WIRE_EDNS_DO, NULL, 0);
	return wire_build_finish(&b);
}

static int cmd_mkmsgs(int argc, char **argv)
{
	struct opts o = {0};
	int i = parse_opts(argc, argv, &o);
	struct zone z = {0};
	static uint8_t buf[DT_MSG_MAXLEN];
	const struct wire_rr *soa = NULL;
	size_t msgs = 0;

	if (i + 2 != argc)
		usage();
	if (zone_load(argv[i], o.origin, &z) < 0)
		return 1;
	FILE *out = fopen(argv[i + 1], "wb");
	if (!out) {
		fprintf(stderr, "%s: %s\n", argv[i + 1], strerror(errno));
		zone_free(&z);
		return 1;
	}
	for (size_t k = 0; k < z.n && !soa; k++) {
		if (z.rr[k].type == WIRE_TYPE_SOA)
			soa = &z.rr[k];
	}
	/* One response per RRset: at the first record of each. */
	for (size_t k = 0; k < z.n; k++) {
		const struct wire_rr *rr = &z.rr[k];
		if (rr->type == WIRE_TYPE_RRSIG ||
		    (k > 0 && same_rrset(rr, &z.rr[k - 1], rr->type)))
			continue;
		size_t len = build_response(&z, k, soa, buf, sizeof(buf),
					    (uint16_t)msgs);
		uint8_t pfx[2];
		wire_put16(pfx, (uint16_t)len);
		fwrite(pfx, 1, 2, out);
		fwrite(buf, 1, len, out);
		msgs++;
	}
	int bad = ferror(out);
	bad |= fclose(out) != 0;
	zone_free(&z);
	if (bad) {
		fprintf(stderr, "%s: write error\n", argv[i + 1]);
		return 1;
	}
	fprintf(stderr, "%zu messages\n", msgs);
	return 0;
}

static void print_msg(const struct wire_msg *m)
{
	static const char *const secname[] = {"ANSWER", "AUTHORITY",
					      "ADDITIONAL"};
	char name[DT_NAME_TEXT_MAXLEN], t[16], c[16];

	printf(";; ->>HEADER<<- opcode: %d, rcode: %d, id: %u\n",
	       WIRE_OPCODE(m->hdr.flags), m->rcode, m->hdr.id);
	printf(";; flags:%s%s%s%s%s%s%s; QUERY: %u, ANSWER: %zu, "
	       "AUTHORITY: %zu, ADDITIONAL: %zu\n",
	       m->hdr.flags & WIRE_FLAG_QR ? " qr" : "",
	       m->hdr.flags & WIRE_FLAG_AA ? " aa" : "",
	       m->hdr.flags & WIRE_FLAG_TC ? " tc" : "",
	       m->hdr.flags & WIRE_FLAG_RD ? " rd" : "",
	       m->hdr.flags & WIRE_FLAG_RA ? " ra" : "",
	       m->hdr.flags & WIRE_FLAG_AD ? " ad" : "",
	       m->hdr.flags & WIRE_FLAG_CD ? " cd" : "", m->hdr.qdcount,
	       m->count[0], m->count[1], m->count[2]);
	if (m->edns.present)
		printf(";; EDNS: version: %u, flags:%s; udp: %u\n",
		       m->edns.version,
		       m->edns.flags & WIRE_EDNS_DO ? " do" : "",
		       m->edns.udp_size);
	if (m->has_question) {
		wire_dname_to_str(m->qname, name, sizeof(name));
		printf(";; QUESTION SECTION:\n;%s\t\t%s\t%s\n", name,
		       wire_class_to_str(m->qclass, c),
		       wire_type_to_str(m->qtype, t));
	}
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		if (!m->count[s])
			continue;
		printf("\n;; %s SECTION:\n", secname[s]);
		for (size_t k = 0; k < m->count[s]; k++)
			print_rr(&m->sec[s][k]);
	}
	printf("\n");
}

static int cmd_msgs(int argc, char **argv)
{
	struct opts o = {0};
	int i = parse_opts(argc, argv, &o);
	size_t msgs = 0, rrs = 0, bad = 0, len = 0;

	if (i + 1 != argc)
		usage();
	/* Read first so the timing covers parsing alone. */
	char *text;
	int r = file_read_path(argv[i], DT_ZONE_FILE_MAXSIZE, &text, &len);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[i], errcode_str(r));
		return 1;
	}
	const uint8_t *data = (const uint8_t *)text;
	double t0 = now();
	for (size_t p = 0; p + 2 <= len;) {
		size_t mlen = wire_get16(data + p);
		p += 2;
		if (p + mlen > len) {
			fprintf(stderr, "message %zu: cut short\n", msgs);
			bad++;
			break;
		}
		int err;
		struct wire_msg *m = wire_msg_parse(data + p, mlen, 0, &err);
		p += mlen;
		msgs++;
		if (!m) {
			fprintf(stderr, "message %zu: %s\n", msgs - 1,
				errcode_str(err));
			bad++;
			continue;
		}
		rrs += m->count[0] + m->count[1] + m->count[2];
		if (o.print)
			print_msg(m);
		wire_msg_free(m);
	}
	double t1 = now();
	free(text);
	fprintf(stderr, "%zu messages, %zu records, %zu malformed", msgs, rrs,
		bad);
	if (o.timing)
		fprintf(stderr, " in %.3f s (%.0f messages/s)", t1 - t0,
			(double)msgs / (t1 - t0));
	fprintf(stderr, "\n");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "zone") == 0)
		return cmd_zone(argc - 1, argv + 1);
	if (strcmp(argv[1], "mkmsgs") == 0)
		return cmd_mkmsgs(argc - 1, argv + 1);
	if (strcmp(argv[1], "msgs") == 0)
		return cmd_msgs(argc - 1, argv + 1);
	usage();
	return 2;
}
