/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for src/wire/msg.c and src/wire/build.c: hand-built messages
 * for every check of the parser, and build → parse round trips for the
 * builder's compression, rollback and section order.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "tap.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* Names in wire form; octal escapes with three digits so that a label
 * starting with a digit cannot be misread. */
#define N_ROOT ((const uint8_t *)"")
#define N_COM ((const uint8_t *)"\003com")
#define N_EXAMPLE ((const uint8_t *)"\007example\003com")
#define N_WWW ((const uint8_t *)"\003www\007example\003com")
#define N_MAIL ((const uint8_t *)"\004mail\007example\003com")
#define N_NS1 ((const uint8_t *)"\003ns1\007example\003com")

/* A message under construction, large enough for any test. */
struct pkt {
	uint8_t b[DT_MSG_MAXLEN + 64];
	size_t n;
};

static struct pkt P;

static void p_bytes(struct pkt *p, const void *d, size_t n)
{
	if (n)
		memcpy(p->b + p->n, d, n);
	p->n += n;
}

static void p_u8(struct pkt *p, uint8_t v)
{
	p->b[p->n++] = v;
}

static void p_u16(struct pkt *p, uint16_t v)
{
	p_u8(p, (uint8_t)(v >> 8));
	p_u8(p, (uint8_t)v);
}

static void p_u32(struct pkt *p, uint32_t v)
{
	p_u16(p, (uint16_t)(v >> 16));
	p_u16(p, (uint16_t)v);
}

static void p_hdr(struct pkt *p, uint16_t flags, uint16_t qd, uint16_t an,
		  uint16_t ns, uint16_t ar)
{
	p->n = 0;
	p_u16(p, 0x1234);
	p_u16(p, flags);
	p_u16(p, qd);
	p_u16(p, an);
	p_u16(p, ns);
	p_u16(p, ar);
}

static void p_name(struct pkt *p, const uint8_t *name)
{
	p_bytes(p, name, wire_dname_len(name));
}

static void p_ptr(struct pkt *p, uint16_t off)
{
	p_u16(p, (uint16_t)(0xC000 | off));
}

static void p_rrfix(struct pkt *p, uint16_t type, uint16_t rclass,
		    uint32_t ttl, uint16_t rdlen)
{
	p_u16(p, type);
	p_u16(p, rclass);
	p_u32(p, ttl);
	p_u16(p, rdlen);
}

static void p_question(struct pkt *p, const uint8_t *name, uint16_t type)
{
	p_name(p, name);
	p_u16(p, type);
	p_u16(p, WIRE_CLASS_IN);
}

/* An OPT record: root owner, udp size, TTL, option TLVs. */
static void p_opt(struct pkt *p, uint16_t udp, uint32_t ttl,
		  const void *opts, uint16_t optlen)
{
	p_u8(p, 0);
	p_rrfix(p, WIRE_TYPE_OPT, udp, ttl, optlen);
	p_bytes(p, opts, optlen);
}

/* Parses the first n octets of p from an exact-size copy, so that ASan
 * sees any read past the end. */
static struct wire_msg *parse_n(const struct pkt *p, size_t n,
				unsigned flags, int *err)
{
	uint8_t *copy = malloc(n ? n : 1);
	struct wire_msg *m;

	memcpy(copy, p->b, n);
	m = wire_msg_parse(copy, n, flags, err);
	free(copy);
	return m;
}

static struct wire_msg *parse(const struct pkt *p, unsigned flags, int *err)
{
	return parse_n(p, p->n, flags, err);
}

/* Parses and expects the error want; frees whatever was returned. */
static void parse_fails(const struct pkt *p, unsigned flags, int want,
			const char *what)
{
	int err = 0;
	struct wire_msg *m = parse(p, flags, &err);

	ok(m == NULL, "%s: no message", what);
	is_int(err, want, "%s: %s", what, errcode_str(want));
	wire_msg_free(m);
}

/* The start of a response to www.example.com A: header + question. */
static void p_www_query(struct pkt *p, uint16_t flags, uint16_t an,
			uint16_t ns, uint16_t ar)
{
	p_hdr(p, flags, 1, an, ns, ar);
	p_question(p, N_WWW, WIRE_TYPE_A);
}

static void p_a(struct pkt *p, uint16_t owner_ptr, uint8_t last)
{
	const uint8_t addr[4] = { 192, 0, 2, last };

	p_ptr(p, owner_ptr);
	p_rrfix(p, WIRE_TYPE_A, WIRE_CLASS_IN, 300, 4);
	p_bytes(p, addr, 4);
}

/* --- parser --- */

static void test_simple_a(void)
{
	const uint8_t addr[4] = { 192, 0, 2, 1 };
	struct wire_msg *m;
	int err = -1;

	p_www_query(&P, WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA, 1, 0, 0);
	p_a(&P, 12, 1);
	m = parse(&P, 0, &err);
	ok(m != NULL, "simple A response parses");
	is_int(err, 0, "simple A: no error");
	if (!m)
		return;
	is_int(m->hdr.id, 0x1234, "simple A: id");
	is_int(m->hdr.flags, WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA,
	       "simple A: flags");
	ok(m->has_question, "simple A: has question");
	is_mem(m->qname, wire_dname_len(m->qname), N_WWW, 17,
	       "simple A: qname");
	is_int(m->qtype, WIRE_TYPE_A, "simple A: qtype");
	is_int(m->qclass, WIRE_CLASS_IN, "simple A: qclass");
	is_int(m->count[0], 1, "simple A: one answer");
	is_int(m->count[1] + m->count[2], 0, "simple A: nothing else");
	is_mem(m->sec[0][0].owner, wire_dname_len(m->sec[0][0].owner), N_WWW,
	       17, "simple A: owner decompressed");
	is_int(m->sec[0][0].type, WIRE_TYPE_A, "simple A: type");
	is_int(m->sec[0][0].rclass, WIRE_CLASS_IN, "simple A: class");
	is_int(m->sec[0][0].ttl, 300, "simple A: ttl");
	is_mem(m->sec[0][0].rdata, m->sec[0][0].rdlen, addr, 4,
	       "simple A: rdata");
	is_mem(m->raw, m->rawlen, P.b, P.n, "simple A: raw copy");
	is_int(m->rcode, 0, "simple A: rcode");
	ok(!m->edns.present, "simple A: no EDNS");
	ok(!m->truncated, "simple A: not truncated");
	wire_msg_free(m);
}

static void test_header_only(void)
{
	struct wire_msg *m;
	int err = -1;

	p_hdr(&P, WIRE_RCODE_NXDOMAIN, 0, 0, 0, 0);
	m = parse(&P, 0, &err);
	ok(m && err == 0, "header-only message parses");
	if (m) {
		ok(!m->has_question && m->qname == NULL,
		   "header only: no question");
		is_int(m->rcode, WIRE_RCODE_NXDOMAIN, "header only: rcode");
	}
	wire_msg_free(m);
	wire_msg_free(NULL);
}

static void test_compression(void)
{
	const uint8_t mx[] = "\000\012\004mail\007example\003com";
	struct wire_msg *m;
	int err = -1;

	/* Answer: mail.example.com (label + pointer to example.com at 16)
	 * MX 10 mail.example.com (pointer to the owner). */
	p_hdr(&P, WIRE_FLAG_QR, 1, 1, 0, 0);
	p_question(&P, N_WWW, WIRE_TYPE_MX);
	size_t owner = P.n;
	p_bytes(&P, "\004mail", 5);
	p_ptr(&P, 16);
	p_rrfix(&P, WIRE_TYPE_MX, WIRE_CLASS_IN, 60, 4);
	p_u16(&P, 10);
	p_ptr(&P, (uint16_t)owner);
	m = parse(&P, 0, &err);
	ok(m != NULL, "compressed owner and MX exchange parse");
	if (!m)
		return;
	is_mem(m->sec[0][0].owner, wire_dname_len(m->sec[0][0].owner),
	       N_MAIL, 18, "owner: label + pointer to an earlier suffix");
	is_mem(m->sec[0][0].rdata, m->sec[0][0].rdlen, mx, sizeof(mx),
	       "MX exchange decompressed");
	wire_msg_free(m);
}

static void test_bad_pointers(void)
{
	/* Self pointer in the question. */
	p_hdr(&P, 0, 1, 0, 0, 0);
	p_ptr(&P, 12);
	p_u32(&P, 0x00010001);
	parse_fails(&P, 0, DT_EPTR, "pointer to itself");

	/* Two pointers pointing at each other, in an opaque RDATA at R,
	 * reached from the next owner. */
	p_www_query(&P, 0, 2, 0, 0);
	p_ptr(&P, 12);
	p_rrfix(&P, 65280, WIRE_CLASS_IN, 0, 4);
	size_t r = P.n;
	p_ptr(&P, (uint16_t)(r + 2));
	p_ptr(&P, (uint16_t)r);
	p_ptr(&P, (uint16_t)(r + 2));
	p_rrfix(&P, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 4);
	p_u32(&P, 0);
	parse_fails(&P, 0, DT_EPTR, "two pointers pointing at each other");

	/* Forward pointer: the answer owner points at its own RDATA. */
	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, (uint16_t)(P.n + 12));
	p_rrfix(&P, WIRE_TYPE_NULL, WIRE_CLASS_IN, 0, 1);
	p_u8(&P, 0);
	parse_fails(&P, 0, DT_EPTR, "forward pointer");

	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 4);
	p_rrfix(&P, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 4);
	p_u32(&P, 0);
	parse_fails(&P, 0, DT_EPTR, "pointer into the header");

	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 0x3FFF);
	p_rrfix(&P, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 4);
	p_u32(&P, 0);
	parse_fails(&P, 0, DT_EPTR, "pointer past the end");

	p_www_query(&P, 0, 1, 0, 0);
	p_u8(&P, 0xC0);
	parse_fails(&P, 0, DT_ETRUNC, "pointer cut after its first octet");
}

/* An owner reached through a chain: the owner's pointer, then nptr - 1
 * pointers in an opaque RDATA, the last one to the qname. */
static void p_chain(struct pkt *p, unsigned nptr)
{
	p_www_query(p, 0, 2, 0, 0);
	p_ptr(p, 12);
	p_rrfix(p, 65280, WIRE_CLASS_IN, 0, (uint16_t)(2 * (nptr - 1)));
	size_t prev = 12;
	for (unsigned i = 0; i + 1 < nptr; i++) {
		size_t here = p->n;

		p_ptr(p, (uint16_t)prev);
		prev = here;
	}
	p_ptr(p, (uint16_t)prev);
	p_rrfix(p, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 4);
	p_u32(p, 0);
}

static void test_pointer_chain(void)
{
	struct wire_msg *m;
	int err = -1;

	p_chain(&P, DT_NAME_MAXPTRS);
	m = parse(&P, 0, &err);
	ok(m != NULL, "a name through %d pointers parses", DT_NAME_MAXPTRS);
	if (m)
		is_mem(m->sec[0][1].owner, wire_dname_len(m->sec[0][1].owner),
		       N_WWW, 17, "pointer chain: owner is the qname");
	wire_msg_free(m);
	p_chain(&P, DT_NAME_MAXPTRS + 1);
	parse_fails(&P, 0, DT_EPTRLIMIT, "a name through 129 pointers");
}

/* A name of total wire length len (>= 2), labels of 63 octets and a last
 * label to fit. */
static size_t long_name(uint8_t *out, size_t len)
{
	size_t n = 0, left = len - 1;

	while (left > 0) {
		size_t l = left - 1 > 63 ? 63 : left - 1;

		if (left - (l + 1) == 1)
			l--; /* leave room for a last label of 1 octet */
		out[n++] = (uint8_t)l;
		memset(out + n, 'a', l);
		n += l;
		left -= l + 1;
	}
	out[n++] = 0;
	return n;
}

static void test_name_limits(void)
{
	uint8_t name[300];
	struct wire_msg *m;
	int err = -1;

	is_int(long_name(name, 255), 255, "helper: 255-octet name");
	p_hdr(&P, 0, 1, 0, 0, 0);
	p_bytes(&P, name, 255);
	p_u32(&P, 0x00010001);
	m = parse(&P, 0, &err);
	ok(m != NULL, "255-octet name parses");
	if (m)
		is_mem(m->qname, wire_dname_len(m->qname), name, 255,
		       "255-octet name kept");
	wire_msg_free(m);

	is_int(long_name(name, 256), 256, "helper: 256-octet name");
	p_hdr(&P, 0, 1, 0, 0, 0);
	p_bytes(&P, name, 256);
	p_u32(&P, 0x00010001);
	parse_fails(&P, 0, DT_ENAMELEN, "256-octet name");

	/* 256 octets only once decompressed: 3 literal octets + pointer to
	 * a 253-octet qname. */
	long_name(name, 253);
	p_hdr(&P, 0, 1, 1, 0, 0);
	p_bytes(&P, name, 253);
	p_u32(&P, 0x00010001);
	p_bytes(&P, "\002ab", 3);
	p_ptr(&P, 12);
	p_rrfix(&P, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 4);
	p_u32(&P, 0);
	parse_fails(&P, 0, DT_ENAMELEN, "256 octets after decompression");

	p_hdr(&P, 0, 1, 0, 0, 0);
	p_u8(&P, 63);
	memset(P.b + P.n, 'x', 63);
	P.n += 63;
	p_u8(&P, 0);
	p_u32(&P, 0x00010001);
	m = parse(&P, 0, &err);
	ok(m != NULL, "63-octet label parses");
	wire_msg_free(m);

	p_hdr(&P, 0, 1, 0, 0, 0);
	p_u8(&P, 64);
	memset(P.b + P.n, 'x', 64);
	P.n += 64;
	p_u8(&P, 0);
	p_u32(&P, 0x00010001);
	/* dname.h promises DT_ELABEL; 0x40 is also the obsolete extended
	 * label type (RFC 6891 §5), which dname.c reports as DT_EMALF. */
	m = parse(&P, 0, &err);
	ok(!m && (err == DT_ELABEL || err == DT_EMALF),
	   "64-octet label refused (%s)", errcode_str(err));
	wire_msg_free(m);
}

static void test_truncated(void)
{
	p_www_query(&P, 0, 0, 0, 0);
	P.n = 0;
	parse_fails(&P, 0, DT_ETRUNC, "empty message");
	P.n = 11;
	parse_fails(&P, 0, DT_ETRUNC, "11-octet header");

	p_hdr(&P, 0, 1, 0, 0, 0);
	p_name(&P, N_WWW);
	p_u16(&P, WIRE_TYPE_A);
	parse_fails(&P, 0, DT_ETRUNC, "question without its class");

	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 12);
	p_u16(&P, WIRE_TYPE_A);
	p_u16(&P, WIRE_CLASS_IN);
	parse_fails(&P, 0, DT_ETRUNC, "record cut in its fixed part");

	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 12);
	p_rrfix(&P, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 4);
	p_u16(&P, 0xC000);
	parse_fails(&P, 0, DT_ETRUNC, "RDATA cut short");

	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 12);
	p_rrfix(&P, 65280, WIRE_CLASS_IN, 0, 0xFFFF);
	p_u32(&P, 0);
	parse_fails(&P, 0, DT_ETRUNC, "RDLENGTH running past the end");
}

static void test_bad_rdata(void)
{
	int err = 0;
	struct wire_msg *m;

	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 12);
	p_rrfix(&P, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 5);
	p_u32(&P, 0);
	p_u8(&P, 0);
	m = parse(&P, 0, &err);
	ok(!m && (err == DT_ERDATA || err == DT_ETRAIL),
	   "A with RDLENGTH 5 refused (%s)", errcode_str(err));
	wire_msg_free(m);

	/* A name in MX RDATA running past RDLENGTH. */
	p_www_query(&P, 0, 1, 0, 0);
	p_ptr(&P, 12);
	p_rrfix(&P, WIRE_TYPE_MX, WIRE_CLASS_IN, 0, 4);
	p_u16(&P, 10);
	p_bytes(&P, "\003abc", 4);
	p_u8(&P, 0);
	m = parse(&P, 0, &err);
	ok(!m && err < 0, "MX exchange running past RDLENGTH refused (%s)",
	   errcode_str(err));
	wire_msg_free(m);
}

static void test_opt(void)
{
	const uint8_t cookie[] = { 0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct wire_msg *m;
	int err = -1;

	p_www_query(&P, WIRE_FLAG_QR, 0, 0, 3);
	p_a(&P, 12, 1);
	p_a(&P, 12, 2);
	p_opt(&P, 1232, WIRE_EDNS_DO, cookie, sizeof(cookie));
	m = parse(&P, 0, &err);
	ok(m != NULL, "OPT after two additional records parses");
	if (m) {
		ok(m->edns.present, "OPT: present");
		is_int(m->edns.udp_size, 1232, "OPT: udp size from CLASS");
		is_int(m->edns.flags, WIRE_EDNS_DO, "OPT: DO flag");
		is_int(m->edns.version, 0, "OPT: version");
		is_int(m->count[2], 2, "OPT: not among the records");
		is_int(m->hdr.arcount, 3, "OPT: header count as received");
		is_mem(m->edns.opts, m->edns.optlen, cookie, sizeof(cookie),
		       "OPT: options");
		ok(m->edns.opts >= m->raw && m->edns.opts < m->raw + m->rawlen,
		   "OPT: options point into the raw copy");
	}
	wire_msg_free(m);

	p_www_query(&P, 0, 0, 0, 1);
	p_opt(&P, 512, 0, NULL, 0);
	m = parse(&P, 0, &err);
	ok(m && m->edns.present && m->edns.opts == NULL &&
		   m->edns.optlen == 0,
	   "OPT without options: opts NULL");
	wire_msg_free(m);

	p_www_query(&P, 0, 0, 0, 2);
	p_opt(&P, 512, 0, NULL, 0);
	p_opt(&P, 512, 0, NULL, 0);
	parse_fails(&P, 0, DT_EOPT, "two OPT records");

	p_www_query(&P, 0, 1, 0, 0);
	p_opt(&P, 512, 0, NULL, 0);
	parse_fails(&P, 0, DT_EOPT, "OPT in the answer section");

	p_www_query(&P, 0, 0, 1, 0);
	p_opt(&P, 512, 0, NULL, 0);
	parse_fails(&P, 0, DT_EOPT, "OPT in the authority section");

	p_www_query(&P, 0, 0, 0, 1);
	p_ptr(&P, 12);
	p_rrfix(&P, WIRE_TYPE_OPT, 512, 0, 0);
	parse_fails(&P, 0, DT_EOPT, "OPT owned by www.example.com");

	p_www_query(&P, 0, 0, 0, 1);
	p_opt(&P, 512, 0, "\000\012\000\012abcdef", 10);
	parse_fails(&P, 0, DT_EOPT, "option running past the OPT RDATA");

	p_www_query(&P, 0, 0, 0, 1);
	p_opt(&P, 512, 0, "\000\012\000\000\000\003", 6);
	parse_fails(&P, 0, DT_EOPT, "partial option header at the end");
}

static void test_trailing_and_qdcount(void)
{
	p_www_query(&P, 0, 1, 0, 0);
	p_a(&P, 12, 1);
	p_u8(&P, 0);
	parse_fails(&P, 0, DT_ETRAIL, "one octet after the last record");

	p_hdr(&P, 0, 2, 0, 0, 0);
	p_question(&P, N_WWW, WIRE_TYPE_A);
	p_question(&P, N_MAIL, WIRE_TYPE_A);
	parse_fails(&P, 0, DT_EQDCOUNT, "QDCOUNT 2");

	p_www_query(&P, 0, 0, 0, 0);
	P.n = DT_MSG_MAXLEN + 1;
	parse_fails(&P, 0, DT_EMALF, "message longer than 65535");
}

static void test_tc(void)
{
	struct wire_msg *m;
	int err = -1;

	/* TC=1, ANCOUNT 3, ARCOUNT 1, one answer present. */
	p_www_query(&P, WIRE_FLAG_QR | WIRE_FLAG_TC, 3, 0, 1);
	p_a(&P, 12, 1);
	parse_fails(&P, 0, DT_ETRUNC, "TC cut without WIRE_PARSE_TRUNC_OK");
	m = parse(&P, WIRE_PARSE_TRUNC_OK, &err);
	ok(m != NULL, "TC cut at a record boundary with TRUNC_OK parses");
	if (m) {
		ok(m->truncated, "TC cut: truncated");
		is_int(m->count[0], 1, "TC cut: one answer");
		is_int(m->hdr.ancount, 1, "TC cut: ANCOUNT what was present");
		is_int(m->hdr.arcount, 0, "TC cut: ARCOUNT what was present");
	}
	wire_msg_free(m);

	/* The same with only header and question. */
	p_www_query(&P, WIRE_FLAG_QR | WIRE_FLAG_TC, 3, 0, 1);
	m = parse(&P, WIRE_PARSE_TRUNC_OK, &err);
	ok(m && m->truncated && m->count[0] == 0 && m->has_question,
	   "TC with the question only");
	wire_msg_free(m);

	/* TC=0: TRUNC_OK does not help. */
	p_www_query(&P, WIRE_FLAG_QR, 3, 0, 0);
	p_a(&P, 12, 1);
	parse_fails(&P, WIRE_PARSE_TRUNC_OK, DT_ETRUNC,
		    "missing records without TC");

	/* TC=1 cut inside a record. */
	p_www_query(&P, WIRE_FLAG_QR | WIRE_FLAG_TC, 2, 0, 0);
	p_a(&P, 12, 1);
	p_a(&P, 12, 2);
	P.n -= 2;
	parse_fails(&P, WIRE_PARSE_TRUNC_OK, DT_ETRUNC,
		    "TC cut inside a record");

	/* TC=1 with everything present is not truncated. */
	p_www_query(&P, WIRE_FLAG_QR | WIRE_FLAG_TC, 1, 0, 0);
	p_a(&P, 12, 1);
	m = parse(&P, WIRE_PARSE_TRUNC_OK, &err);
	ok(m && !m->truncated, "TC with all records: not truncated");
	wire_msg_free(m);
}

static void test_ede(void)
{
	const uint8_t opts[] = { 0, 10, 0, 2, 0xAA, 0xBB,   /* cookie */
				 0, 15, 0, 9, 0, 6, 'b', 'a', 'd', ' ',
				 's', 'i', 'g' };
	const uint8_t empty[] = { 0, 15, 0, 2, 0, 9 };
	const uint8_t shortede[] = { 0, 15, 0, 1, 0 };
	struct wire_msg *m;
	const uint8_t *data;
	const char *text = NULL;
	uint16_t code = 0, len;
	size_t textlen = 99, pos = 0;
	int err, n = 0;

	p_www_query(&P, WIRE_FLAG_QR | WIRE_RCODE_SERVFAIL, 0, 0, 1);
	p_opt(&P, 1232, 0, opts, sizeof(opts));
	m = parse(&P, 0, &err);
	ok(m != NULL, "EDE message parses");
	if (!m)
		return;
	while (wire_edns_opt_next(&m->edns, &pos, &code, &data, &len) == 1)
		n++;
	is_int(n, 2, "two options iterated");
	is_int(pos, sizeof(opts), "iteration ends at the end");
	is_int(wire_edns_ede(&m->edns, &code, &text, &textlen), 1,
	       "EDE found");
	is_int(code, WIRE_EDE_DNSSEC_BOGUS, "EDE INFO-CODE");
	is_mem(text, textlen, "bad sig", 7, "EDE EXTRA-TEXT");
	is_int(m->rcode, WIRE_RCODE_SERVFAIL, "rcode with EDNS, no extension");
	wire_msg_free(m);

	p_www_query(&P, WIRE_FLAG_QR, 0, 0, 1);
	p_opt(&P, 1232, 0, empty, sizeof(empty));
	m = parse(&P, 0, &err);
	ok(m && wire_edns_ede(&m->edns, &code, &text, &textlen) == 1 &&
		   code == WIRE_EDE_DNSKEY_MISSING && textlen == 0,
	   "EDE with empty EXTRA-TEXT");
	wire_msg_free(m);

	p_www_query(&P, WIRE_FLAG_QR, 0, 0, 1);
	p_opt(&P, 1232, 0, shortede, sizeof(shortede));
	m = parse(&P, 0, &err);
	ok(m != NULL, "EDE of one octet: message still parses");
	if (m)
		is_int(wire_edns_ede(&m->edns, &code, &text, &textlen),
		       DT_EOPT, "EDE of one octet: DT_EOPT");
	wire_msg_free(m);

	p_www_query(&P, WIRE_FLAG_QR, 1, 0, 0);
	p_a(&P, 12, 1);
	m = parse(&P, 0, &err);
	pos = 0;
	ok(m && wire_edns_ede(&m->edns, &code, &text, &textlen) == 0 &&
		   wire_edns_opt_next(&m->edns, &pos, &code, &data, &len) == 0,
	   "no EDNS: no options, no EDE");
	wire_msg_free(m);
}

static void test_ext_rcode(void)
{
	struct wire_msg *m;
	int err;

	/* BADVERS = 16: extended RCODE 1, header RCODE 0. */
	p_www_query(&P, WIRE_FLAG_QR, 0, 0, 1);
	p_opt(&P, 1232, 0x01000000, NULL, 0);
	m = parse(&P, 0, &err);
	ok(m && m->rcode == WIRE_RCODE_BADVERS && m->edns.ext_rcode == 1,
	   "extended RCODE: BADVERS");
	wire_msg_free(m);

	p_www_query(&P, WIRE_FLAG_QR | WIRE_RCODE_NXDOMAIN, 0, 0, 1);
	p_opt(&P, 4096, 0x00FF8000 | 0x7F00, NULL, 0);
	m = parse(&P, 0, &err);
	ok(m != NULL, "EDNS version 255 parses");
	if (m) {
		is_int(m->rcode, WIRE_RCODE_NXDOMAIN, "NXDOMAIN kept");
		is_int(m->edns.version, 255, "EDNS version from TTL");
		is_int(m->edns.flags, 0xFF00, "EDNS flags from TTL");
	}
	wire_msg_free(m);
}

/* --- builder --- */

static uint8_t B[DT_MSG_MAXLEN];

static struct wire_rr mkrr(const uint8_t *owner, uint16_t type,
			   const void *rdata, size_t rdlen)
{
	return (struct wire_rr){ .owner = owner, .type = type,
				 .rclass = WIRE_CLASS_IN, .ttl = 3600,
				 .rdlen = (uint16_t)rdlen, .rdata = rdata };
}

static void test_build_tiny(void)
{
	const uint8_t want[] = {
		0x12, 0x34, 0x81, 0x80, 0, 1, 0, 2, 0, 0, 0, 0,
		3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e',
		3, 'c', 'o', 'm', 0, 0, 1, 0, 1,
		0xC0, 0x0C, 0, 1, 0, 1, 0, 0, 0x0E, 0x10, 0, 4, 192, 0, 2, 1,
		4, 'm', 'a', 'i', 'l', 0xC0, 0x10,
		0, 1, 0, 1, 0, 0, 0x0E, 0x10, 0, 4, 192, 0, 2, 2,
	};
	const uint8_t a1[] = { 192, 0, 2, 1 }, a2[] = { 192, 0, 2, 2 };
	struct wire_builder b;
	struct wire_rr rr;
	size_t len;

	is_int(wire_build_init(&b, B, 11, 1, 0), DT_ESPACE,
	       "init: 11 octets are too few");
	is_int(wire_build_init(&b, B, sizeof(B), 0x1234,
			       WIRE_FLAG_QR | WIRE_FLAG_RD),
	       0, "init");
	wire_build_set_flags(&b, WIRE_FLAG_RA, 0);
	is_int(wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN), 0,
	       "question");
	rr = mkrr(N_WWW, WIRE_TYPE_A, a1, 4);
	is_int(wire_build_rr(&b, WIRE_SEC_ANSWER, &rr), 0, "answer 1");
	rr = mkrr(N_MAIL, WIRE_TYPE_A, a2, 4);
	is_int(wire_build_rr(&b, WIRE_SEC_ANSWER, &rr), 0, "answer 2");
	len = wire_build_finish(&b);
	is_mem(B, len, want, sizeof(want),
	       "exact bytes: owner as 0xC00C, suffix as 0xC010");
}

static void test_build_case(void)
{
	const uint8_t a1[] = { 192, 0, 2, 1 };
	struct wire_builder b;
	struct wire_rr rr = mkrr(N_WWW, WIRE_TYPE_A, a1, 4);

	wire_build_init(&b, B, sizeof(B), 1, WIRE_FLAG_QR);
	wire_build_question(&b, (const uint8_t *)"\003WwW\007ExAmPlE\003CoM",
			    WIRE_TYPE_A, WIRE_CLASS_IN);
	wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	wire_build_finish(&b);
	ok(B[33] == 0xC0 && B[34] == 0x0C,
	   "owner compressed against a qname in other case");
}

/* Fields of the records of the round-trip test. */
static const uint8_t soa_rd[] = "\003ns1\007example\003com\000"
				"\012hostmaster\007example\003com\000"
				"\000\000\000\001\000\000\016\020"
				"\000\000\007\010\000\011\072\200"
				"\000\000\016\020";
#define SOA_RDLEN (17 + 24 + 20)
static const uint8_t rrsig_rd[] = "\000\006\015\002\000\000\016\020"
				  "\145\000\000\000\144\000\000\000"
				  "\047\020\007example\003com\000"
				  "SIGNATURESIGNATURESIGNATURESIGNATURE";
#define RRSIG_RDLEN (18 + 13 + 36)
static const uint8_t nsec_rd[] = "\003www\007example\003com\000"
				 "\000\006\100\000\000\000\000\003";
#define NSEC_RDLEN (17 + 8)

static size_t rr_wire_size(const struct wire_rr *rr)
{
	return wire_dname_len(rr->owner) + 10 + rr->rdlen;
}

static bool rr_same(const struct wire_rr *a, const struct wire_rr *b)
{
	static uint8_t ca[DT_RDATA_MAXLEN], cb[DT_RDATA_MAXLEN];

	if (!wire_dname_equal(a->owner, b->owner) || a->type != b->type ||
	    a->rclass != b->rclass || a->ttl != b->ttl || a->rdlen != b->rdlen)
		return false;
	memcpy(ca, a->rdata, a->rdlen);
	memcpy(cb, b->rdata, b->rdlen);
	wire_rdata_canonicalize(a->type, ca, a->rdlen);
	wire_rdata_canonicalize(b->type, cb, b->rdlen);
	return memcmp(ca, cb, a->rdlen) == 0;
}

static void test_build_roundtrip(void)
{
	const uint8_t a1[] = { 192, 0, 2, 1 }, a2[] = { 192, 0, 2, 53 };
	const struct wire_rr an[] = {
		mkrr(N_WWW, WIRE_TYPE_CNAME, N_MAIL, 18),
		mkrr(N_MAIL, WIRE_TYPE_A, a1, 4),
	};
	const struct wire_rr ns[] = {
		mkrr(N_EXAMPLE, WIRE_TYPE_SOA, soa_rd, SOA_RDLEN),
		mkrr(N_EXAMPLE, WIRE_TYPE_RRSIG, rrsig_rd, RRSIG_RDLEN),
	};
	const struct wire_rr ar[] = { mkrr(N_NS1, WIRE_TYPE_A, a2, 4) };
	uint8_t opts[64];
	size_t optlen = 0, sum = DT_MSG_HDRLEN + 17 + 4, len;
	struct wire_builder b;
	struct wire_msg *m;
	const char *text;
	size_t textlen;
	uint16_t code;
	int err = -1;
	bool same = true;

	ok(wire_opt_put_ede(opts, sizeof(opts), &optlen,
			    WIRE_EDE_SIGNATURE_EXPIRED, "expired") == 0,
	   "EDE option encoded");
	wire_build_init(&b, B, sizeof(B), 7, WIRE_FLAG_QR | WIRE_FLAG_AA);
	wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN);
	for (size_t i = 0; i < 2; i++) {
		ok(wire_build_rr(&b, WIRE_SEC_ANSWER, &an[i]) == 0,
		   "answer %zu added", i);
		sum += rr_wire_size(&an[i]);
	}
	for (size_t i = 0; i < 2; i++) {
		ok(wire_build_rr(&b, WIRE_SEC_AUTHORITY, &ns[i]) == 0,
		   "authority %zu added", i);
		sum += rr_wire_size(&ns[i]);
	}
	ok(wire_build_rr(&b, WIRE_SEC_ADDITIONAL, &ar[0]) == 0,
	   "additional added");
	sum += rr_wire_size(&ar[0]) + 11 + optlen;
	ok(wire_build_opt(&b, 1232, 0, 0, WIRE_EDNS_DO, opts, optlen) == 0,
	   "OPT added");
	len = wire_build_finish(&b);
	ok(len < sum, "compression saved octets (%zu < %zu)", len, sum);

	m = wire_msg_parse(B, len, 0, &err);
	ok(m != NULL, "built message parses (%s)", errcode_str(err));
	if (!m)
		return;
	is_int(m->hdr.id, 7, "round trip: id");
	is_int(m->hdr.flags, WIRE_FLAG_QR | WIRE_FLAG_AA, "round trip: flags");
	is_mem(m->qname, wire_dname_len(m->qname), N_WWW, 17,
	       "round trip: qname");
	is_int(m->count[0], 2, "round trip: 2 answers");
	is_int(m->count[1], 2, "round trip: 2 authority");
	is_int(m->count[2], 1, "round trip: 1 additional");
	is_int(m->hdr.arcount, 2, "round trip: ARCOUNT includes OPT");
	for (size_t i = 0; i < 2; i++) {
		same &= rr_same(&m->sec[0][i], &an[i]);
		same &= rr_same(&m->sec[1][i], &ns[i]);
	}
	same &= rr_same(&m->sec[2][0], &ar[0]);
	ok(same, "round trip: every record identical");
	is_mem(m->sec[1][0].rdata, m->sec[1][0].rdlen, soa_rd, SOA_RDLEN,
	       "round trip: SOA RDATA decompressed to the original");
	ok(m->edns.present && m->edns.udp_size == 1232 &&
		   m->edns.flags == WIRE_EDNS_DO,
	   "round trip: EDNS");
	ok(wire_edns_ede(&m->edns, &code, &text, &textlen) == 1 &&
		   code == WIRE_EDE_SIGNATURE_EXPIRED && textlen == 7 &&
		   memcmp(text, "expired", 7) == 0,
	   "round trip: EDE");
	wire_msg_free(m);
}

/* Offset of needle in hay, or -1. */
static long find(const uint8_t *hay, size_t hlen, const uint8_t *needle,
		 size_t nlen)
{
	for (size_t i = 0; i + nlen <= hlen; i++)
		if (memcmp(hay + i, needle, nlen) == 0)
			return (long)i;
	return -1;
}

static void test_build_uncompressed_fields(void)
{
	struct wire_builder b;
	struct wire_rr nsec = mkrr(N_EXAMPLE, WIRE_TYPE_NSEC, nsec_rd,
				   NSEC_RDLEN);
	struct wire_rr sig = mkrr(N_EXAMPLE, WIRE_TYPE_RRSIG, rrsig_rd,
				  RRSIG_RDLEN);
	struct wire_rr soa = mkrr(N_EXAMPLE, WIRE_TYPE_SOA, soa_rd, SOA_RDLEN);
	size_t len;

	wire_build_init(&b, B, sizeof(B), 1, WIRE_FLAG_QR);
	wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN);
	wire_build_rr(&b, WIRE_SEC_AUTHORITY, &nsec);
	wire_build_rr(&b, WIRE_SEC_AUTHORITY, &sig);
	wire_build_rr(&b, WIRE_SEC_AUTHORITY, &soa);
	len = wire_build_finish(&b);
	/* NSEC: owner pointer to 16, then the RDATA as it is. */
	ok(B[33] == 0xC0 && B[34] == 0x10, "NSEC owner compressed");
	is_int(B[43] << 8 | B[44], NSEC_RDLEN, "NSEC RDLENGTH unchanged");
	is_mem(B + 45, NSEC_RDLEN, nsec_rd, NSEC_RDLEN,
	       "NSEC next name written in full");
	is_int(B[45 + NSEC_RDLEN + 10] << 8 | B[45 + NSEC_RDLEN + 11],
	       RRSIG_RDLEN, "RRSIG RDLENGTH unchanged");
	is_mem(B + 45 + NSEC_RDLEN + 12, RRSIG_RDLEN, rrsig_rd, RRSIG_RDLEN,
	       "RRSIG signer written in full");
	ok(find(B, len, soa_rd, 17) < 0, "SOA MNAME compressed");
	ok(len < 45 + NSEC_RDLEN + 12 + RRSIG_RDLEN + 12 + SOA_RDLEN,
	   "SOA RDATA shorter than uncompressed");
}

static void test_build_order(void)
{
	const uint8_t a1[] = { 192, 0, 2, 1 };
	struct wire_rr rr = mkrr(N_WWW, WIRE_TYPE_A, a1, 4);
	struct wire_builder b;

	wire_build_init(&b, B, sizeof(B), 1, 0);
	is_int(wire_build_rr(&b, WIRE_SEC_AUTHORITY, &rr), 0,
	       "authority first (no answers) is fine");
	is_int(wire_build_rr(&b, WIRE_SEC_ANSWER, &rr), DT_ESECTION,
	       "answer after authority: DT_ESECTION");
	is_int(wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN),
	       DT_ESECTION, "question after a record: DT_ESECTION");
	is_int(wire_build_rr(&b, (enum wire_section)7, &rr), DT_ESECTION,
	       "bad section number: DT_ESECTION");
	is_int(wire_build_opt(&b, 1232, 0, 0, 0, NULL, 0), 0, "OPT");
	is_int(wire_build_rr(&b, WIRE_SEC_ADDITIONAL, &rr), DT_ESECTION,
	       "record after OPT: DT_ESECTION");
	is_int(wire_build_opt(&b, 1232, 0, 0, 0, NULL, 0), DT_ESECTION,
	       "second OPT: DT_ESECTION");
	is_int(wire_build_finish(&b), 12 + 17 + 10 + 4 + 11, "length");
	is_mem(B + 4, 8, "\000\000\000\000\000\001\000\001", 8,
	       "counts: QD 0, AN 0, NS 1, AR 1");

	wire_build_init(&b, B, sizeof(B), 1, 0);
	wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN);
	is_int(wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN),
	       DT_EQDCOUNT, "second question: DT_EQDCOUNT");
}

static void test_build_espace(void)
{
	const uint8_t a1[] = { 192, 0, 2, 1 };
	struct wire_rr cn = mkrr((const uint8_t *)"\003foo\003bar\007example"
						  "\003com",
				 WIRE_TYPE_CNAME,
				 "\003baz\003qux\007example\003com", 21);
	struct wire_rr rr = mkrr(N_WWW, WIRE_TYPE_A, a1, 4);
	struct wire_builder b;
	struct wire_msg *m;
	size_t len, nctab;
	int ret, n = 0, err;

	/* Room for the question and a few A records. */
	wire_build_init(&b, B, 12 + 21 + 3 * 16 + 10, 9, WIRE_FLAG_QR);
	wire_build_question(&b, N_WWW, WIRE_TYPE_A, WIRE_CLASS_IN);
	while ((ret = wire_build_rr(&b, WIRE_SEC_ANSWER, &rr)) == 0)
		n++;
	is_int(ret, DT_ESPACE, "full: DT_ESPACE");
	is_int(n, 3, "three records fit");
	len = b.len;
	nctab = b.nctab;
	/* The CNAME's owner fits (8 octets + pointer) but not the rest. */
	is_int(wire_build_rr(&b, WIRE_SEC_ANSWER, &cn), DT_ESPACE,
	       "CNAME does not fit");
	ok(b.len == len && b.nctab == nctab,
	   "rollback: length and compression table restored");
	is_int(wire_build_opt(&b, 1232, 0, 0, 0, NULL, 0), DT_ESPACE,
	       "OPT does not fit either");
	wire_build_set_flags(&b, WIRE_FLAG_TC, 0);
	len = wire_build_finish(&b);
	m = wire_msg_parse(B, len, 0, &err);
	ok(m && m->count[0] == 3 && m->hdr.ancount == 3 &&
		   (m->hdr.flags & WIRE_FLAG_TC),
	   "after DT_ESPACE the message parses with 3 answers");
	wire_msg_free(m);
}

/* Names written past offset 0x3FFF cannot be pointed to. */
static void test_build_far(void)
{
	static uint8_t big[0x4000];
	const uint8_t a1[] = { 192, 0, 2, 1 };
	struct wire_rr pad = mkrr(N_ROOT, 65280, big, sizeof(big));
	struct wire_rr rr = mkrr(N_MAIL, WIRE_TYPE_A, a1, 4);
	struct wire_builder b;
	struct wire_msg *m;
	size_t len;
	int err;

	wire_build_init(&b, B, sizeof(B), 1, 0);
	wire_build_rr(&b, WIRE_SEC_ANSWER, &pad);
	wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	len = b.len;
	wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	is_mem(B + len, 18, N_MAIL, 18,
	       "name after 0x3FFF written in full again");
	is_int(b.nctab, 0, "nothing past 0x3FFF remembered");
	len = wire_build_finish(&b);
	m = wire_msg_parse(B, len, 0, &err);
	ok(m && m->count[0] == 3, "far names: message parses");
	wire_msg_free(m);
}

/* More names than the table holds: the rest is written in full. */
static void test_build_table_full(void)
{
	const uint8_t a1[] = { 192, 0, 2, 1 };
	uint8_t names[300][8];
	struct wire_builder b;
	struct wire_msg *m;
	size_t len;
	int err, fails = 0;

	wire_build_init(&b, B, sizeof(B), 1, 0);
	for (int i = 0; i < 300; i++) {
		struct wire_rr rr = mkrr(names[i], WIRE_TYPE_A, a1, 4);

		names[i][0] = 3;
		names[i][1] = (uint8_t)('a' + i / 26 % 26);
		names[i][2] = (uint8_t)('a' + i % 26);
		names[i][3] = (uint8_t)('0' + i / 676);
		names[i][4] = 0;
		fails += wire_build_rr(&b, WIRE_SEC_ANSWER, &rr) != 0;
	}
	is_int(fails, 0, "300 names added");
	is_int(b.nctab, DT_COMPRESS_MAXNAMES, "table full");
	len = wire_build_finish(&b);
	m = wire_msg_parse(B, len, 0, &err);
	ok(m && m->count[0] == 300 &&
		   wire_dname_equal(m->sec[0][299].owner, names[299]),
	   "table full: message parses");
	wire_msg_free(m);
}

static void test_opt_put(void)
{
	char text[400];
	uint8_t buf[600];
	size_t len = 0;

	is_int(wire_opt_put(buf, 7, &len, WIRE_OPT_COOKIE,
			    (const uint8_t *)"abcd", 4),
	       DT_ESPACE, "option does not fit");
	is_int(len, 0, "nothing written");
	is_int(wire_opt_put(buf, 8, &len, WIRE_OPT_COOKIE,
			    (const uint8_t *)"abcd", 4),
	       0, "option fits exactly");
	is_mem(buf, len, "\000\012\000\004abcd", 8, "option bytes");

	len = 0;
	is_int(wire_opt_put_ede(buf, sizeof(buf), &len, 6, NULL), 0,
	       "EDE without text");
	is_mem(buf, len, "\000\017\000\002\000\006", 6, "EDE bytes");

	memset(text, 'a', 300);
	text[300] = 0;
	len = 0;
	wire_opt_put_ede(buf, sizeof(buf), &len, 0, text);
	is_int(len, 6 + 255, "ASCII text cut at 255");

	memset(text, 'a', 254);
	strcpy(text + 254, "\xC3\xA9 and more");
	len = 0;
	wire_opt_put_ede(buf, sizeof(buf), &len, 0, text);
	is_int(len, 6 + 254, "2-octet character across 255 dropped whole");

	memset(text, 'a', 253);
	strcpy(text + 253, "\xE2\x82\xAC and more");
	len = 0;
	wire_opt_put_ede(buf, sizeof(buf), &len, 0, text);
	is_int(len, 6 + 253, "3-octet character across 255 dropped whole");

	memset(text, 'a', 252);
	strcpy(text + 252, "\xE2\x82\xAC and more");
	len = 0;
	wire_opt_put_ede(buf, sizeof(buf), &len, 0, text);
	is_int(len, 6 + 255, "3-octet character ending at 255 kept");

	memset(text, 'a', 255);
	text[255] = 0;
	len = 0;
	is_int(wire_opt_put_ede(buf, 6 + 254, &len, 0, text), DT_ESPACE,
	       "EDE does not fit");
}

int main(void)
{
	test_simple_a();
	test_header_only();
	test_compression();
	test_bad_pointers();
	test_pointer_chain();
	test_name_limits();
	test_truncated();
	test_bad_rdata();
	test_opt();
	test_trailing_and_qdcount();
	test_tc();
	test_ede();
	test_ext_rcode();
	test_build_tiny();
	test_build_case();
	test_build_roundtrip();
	test_build_uncompressed_fields();
	test_build_order();
	test_build_espace();
	test_build_far();
	test_build_table_full();
	test_opt_put();
	return done_testing();
}
