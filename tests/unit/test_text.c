/* SPDX-License-Identifier: MIT */
/*
 * Record writer (src/wire/text.c): RDATA built octet by octet, written
 * with wire_rdata_to_str() and wire_rr_to_str(), compared with the exact
 * text ldns and dig print.
 */
#include <stdlib.h>

#include "common/errcode.h"
#include "tap.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

static char out[WIRE_RR_TEXT_MAXLEN(DT_RDATA_MAXLEN)];

/* Writes RDATA given as octets and returns the text ("ERR n" on error). */
static const char *rd(uint16_t type, const void *rdata, size_t len)
{
	int ret = wire_rdata_to_str(type, rdata, len, out, sizeof(out));

	if (ret < 0)
		snprintf(out, sizeof(out), "ERR %d", ret);
	else if ((size_t)ret != strlen(out))
		snprintf(out, sizeof(out), "BAD LENGTH %d", ret);
	return out;
}

#define RD(type, ...)                                                          \
	rd((type), (const uint8_t[]){__VA_ARGS__},                             \
	   sizeof((const uint8_t[]){__VA_ARGS__}))

static void test_simple_types(void)
{
	is_str(RD(WIRE_TYPE_A, 192, 0, 2, 1), "192.0.2.1", "A");
	is_str(RD(WIRE_TYPE_A, 0, 0, 0, 0), "0.0.0.0", "A all zero");
	is_str(RD(WIRE_TYPE_AAAA, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0,
		  0, 0x0f, 0x00, 0xba, 0xa9),
	       "2001:db8::f00:baa9", "AAAA compressed like inet_ntop");
	is_str(RD(WIRE_TYPE_NS, 3, 'n', 's', '1', 7, 'e', 'x', 'a', 'm', 'p',
		  'l', 'e', 0),
	       "ns1.example.", "NS");
	is_str(RD(WIRE_TYPE_CNAME, 0), ".", "CNAME to the root");
	is_str(RD(WIRE_TYPE_MX, 0, 10, 2, 'm', 'x', 0), "10 mx.", "MX");
	is_str(RD(WIRE_TYPE_SRV, 0, 10, 0, 20, 0x13, 0xc4, 1, 'h', 0),
	       "10 20 5060 h.", "SRV");
	is_str(RD(WIRE_TYPE_SOA, 1, 'a', 0, 1, 'b', 0, 0x78, 0xa4, 0xb2, 0x3d,
		  0, 0, 0x0e, 0x10, 0, 0, 0x03, 0x84, 0, 0x09, 0x3a, 0x80, 0, 0,
		  0x01, 0x2c),
	       "a. b. 2024059453 3600 900 604800 300", "SOA");
	is_str(RD(WIRE_TYPE_HINFO, 6, 'K', 'L', 'H', '-', '1', '0', 3, 'I', 'T',
		  'S'),
	       "\"KLH-10\" \"ITS\"", "HINFO");
}

static void test_txt(void)
{
	is_str(RD(WIRE_TYPE_TXT, 11, 'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o',
		  'r', 'l', 'd'),
	       "\"hello world\"", "TXT with a space");
	is_str(RD(WIRE_TYPE_TXT, 5, 'a', '"', 'b', '\\', 'c'),
	       "\"a\\\"b\\\\c\"", "TXT quote and backslash escaped");
	is_str(RD(WIRE_TYPE_TXT, 4, 0, 1, 0x7f, 0xff),
	       "\"\\000\\001\\127\\255\"", "TXT non-printables as \\DDD");
	is_str(RD(WIRE_TYPE_TXT, 0), "\"\"", "TXT empty string");
	is_str(RD(WIRE_TYPE_TXT, 1, 'a', 0, 2, ';', '('), "\"a\" \"\" \";(\"",
	       "TXT several strings");
	is_str(RD(WIRE_TYPE_TXT, 3, 'a'), "\\# 2 0361",
	       "TXT truncated string: generic form");
}

static void test_dnssec_types(void)
{
	is_str(RD(WIRE_TYPE_DS, 0xe3, 0xe5, 13, 2, 0xde, 0xad, 0xbe, 0xef),
	       "58341 13 2 DEADBEEF", "DS digest in uppercase hex");
	is_str(RD(WIRE_TYPE_CDS, 0, 0, 0, 0, 0), "0 0 0 00",
	       "CDS delete (RFC 8078)");
	is_str(RD(WIRE_TYPE_SSHFP, 1, 1, 0xab, 0xcd), "1 1 ABCD", "SSHFP");
	is_str(RD(WIRE_TYPE_TLSA, 3, 1, 1, 0x0a, 0x0b), "3 1 1 0A0B", "TLSA");
	is_str(RD(WIRE_TYPE_DNSKEY, 1, 1, 3, 13, 0xfb, 0xff, 0xbf),
	       "257 3 13 +/+/", "DNSKEY base64 with + and /");
	is_str(RD(WIRE_TYPE_DNSKEY, 1, 0, 3, 8, 'a'),
	       "256 3 8 YQ==", "DNSKEY base64 padding");
	is_str(RD(WIRE_TYPE_RRSIG, 0, 1, 13, 2, 0, 0, 0x0e, 0x10, 0x55, 0xd4,
		  0xfc, 0x60, 0x55, 0xb9, 0x4c, 0xe0, 0x0e, 0x1d, 7, 'e', 'x',
		  'a', 'm', 'p', 'l', 'e', 0, 0xff),
	       "A 13 2 3600 20150819220000 20150729220000 3613 example. /w==",
	       "RRSIG");
	is_str(RD(WIRE_TYPE_NSEC, 1, 'b', 0, 0, 6, 0x40, 0, 0, 0, 0, 0x03),
	       "b. A RRSIG NSEC", "NSEC bitmap in type order");
	is_str(RD(WIRE_TYPE_NSEC, 1, 'b', 0), "b.", "NSEC empty bitmap");
	is_str(RD(WIRE_TYPE_NSEC, 0, 0, 1, 0x40, 1, 1, 0x40, 0xff, 32, 0, 0, 0,
		  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0, 0, 0, 0, 0, 1),
	       ". A CAA TYPE65535", "NSEC bitmap, three windows");
}

/* RFC 4648 §10 test vectors give the base32hex text of known octets. */
static void test_nsec3(void)
{
	/* "foobar" is "CPNMUOJ1E8" in base32hex (RFC 4648 §10) */
	is_str(RD(WIRE_TYPE_NSEC3, 1, 1, 0, 12, 4, 0xaa, 0xbb, 0xcc, 0xdd, 6,
		  'f', 'o', 'o', 'b', 'a', 'r', 0, 1, 0x40),
	       "1 1 12 aabbccdd cpnmuoj1e8 A",
	       "NSEC3 hash lowercase base32hex");
	is_str(RD(WIRE_TYPE_NSEC3, 1, 0, 0, 0, 0, 1, 'f'), "1 0 0 - co",
	       "NSEC3 empty salt, empty bitmap");
	is_str(RD(WIRE_TYPE_NSEC3PARAM, 1, 0, 0, 12, 2, 0xAA, 0xBB),
	       "1 0 12 aabb", "NSEC3PARAM salt lowercase hex");
	is_str(RD(WIRE_TYPE_NSEC3PARAM, 1, 0, 0, 0, 0), "1 0 0 -",
	       "NSEC3PARAM empty salt");
}

static void test_times(void)
{
	static const struct {
		uint32_t t;
		const char *text;
	} cases[] = {
		{0, "19700101000000"},
		{951782400, "20000229000000"}, /* leap day, 400-year rule */
		{1709164799, "20240228235959"},
		{1709251200, "20240301000000"},
		{4102444800u, "21000101000000"}, /* 2100 is not a leap year */
		{4107542400u, "21000301000000"},
		{4294967295u, "21060207062815"},
	};
	uint8_t rr[22] = {0, 1, 8, 0, 0, 0, 0, 0};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[128];
		uint32_t t = cases[i].t;

		rr[8] = rr[12] = (uint8_t)(t >> 24);
		rr[9] = rr[13] = (uint8_t)(t >> 16);
		rr[10] = rr[14] = (uint8_t)(t >> 8);
		rr[11] = rr[15] = (uint8_t)t;
		rr[16] = rr[17] = 0;
		rr[18] = 0;    /* signer: root */
		rr[19] = 0xff; /* signature "/w==" */
		snprintf(want, sizeof(want),
			 "A 8 0 0 %s %s 0 . /w==", cases[i].text,
			 cases[i].text);
		is_str(rd(WIRE_TYPE_RRSIG, rr, 20), want, "RRSIG time %lu",
		       (unsigned long)t);
	}
}

static void test_generic(void)
{
	is_str(RD(65280, 0xab, 0xcd, 0xef), "\\# 3 abcdef", "unknown type");
	is_str(rd(65280, NULL, 0), "\\# 0", "unknown type, empty RDATA");
	is_str(RD(WIRE_TYPE_A, 1, 2, 3), "\\# 3 010203", "A of 3 octets");
	is_str(RD(WIRE_TYPE_TSIG, 0, 5, 'i', 's', 's', 'u', 'e', 'x'),
	       "\\# 8 0005697373756578", "TSIG is opaque");
	is_str(RD(WIRE_TYPE_NS, 0xc0, 0x0c), "\\# 2 c00c",
	       "compressed name: generic");
	is_str(RD(WIRE_TYPE_NSEC, 0, 0, 2, 0x40, 0), "\\# 5 0000024000",
	       "bitmap window ending in a zero octet: generic");
	is_str(RD(WIRE_TYPE_NSEC, 0, 0, 1, 0), "\\# 4 00000100",
	       "empty bitmap window: generic");
	is_str(RD(WIRE_TYPE_NSEC, 0, 0, 1, 0xc0), "\\# 4 000001c0",
	       "bitmap with type 0: generic");
	is_str(RD(WIRE_TYPE_RRSIG, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		  0, 0, 0, 0, 0xff),
	       "\\# 20 00000800000000000000000000000000000000ff",
	       "RRSIG covering type 0: generic");
	is_str(RD(WIRE_TYPE_DS, 1, 2, 3, 4), "\\# 4 01020304",
	       "DS without digest: generic");
	is_str(RD(WIRE_TYPE_NSEC3, 1, 0, 0, 0, 0, 0), "\\# 6 010000000000",
	       "NSEC3 with empty hash: generic");
	is_str(rd(WIRE_TYPE_TXT, NULL, 0), "\\# 0", "TXT without strings");
}

/* The types real zones and browsers use, in the form dig prints. */
static void test_caa_uri(void)
{
	is_str(RD(WIRE_TYPE_CAA, 0, 5, 'i', 's', 's', 'u', 'e', 'x'),
	       "0 issue \"x\"", "CAA");
	is_str(RD(WIRE_TYPE_CAA, 128, 3, 't', 'b', 's'), "128 tbs \"\"",
	       "CAA with an empty value");
	is_str(RD(WIRE_TYPE_CAA, 0, 3, 't', 'a', 'g', '"', ';', 0x0a),
	       "0 tag \"\\\";\\010\"", "CAA value escapes");
	is_str(RD(WIRE_TYPE_CAA, 0, 3, 't', '-', 'g', 'v'),
	       "\\# 6 0003742d6776", "CAA tag with a hyphen: generic");
	is_str(RD(WIRE_TYPE_CAA, 0, 0, 'v'), "\\# 3 000076",
	       "CAA with an empty tag: generic");
	is_str(RD(WIRE_TYPE_URI, 0, 10, 0, 1, 'f', 't', 'p', ':', '/', '/',
		  'h', '/'),
	       "10 1 \"ftp://h/\"", "URI");
	is_str(RD(WIRE_TYPE_URI, 0, 10, 0, 1), "10 1 \"\"", "URI, empty");
}

static void test_loc(void)
{
	/* RFC 1876 §4's example, as dig prints it */
	is_str(RD(WIRE_TYPE_LOC, 0, 0x12, 0x16, 0x13, 0x89, 0x17, 0x2d, 0xd0,
		  0x70, 0xbe, 0x15, 0xf0, 0x00, 0x98, 0x8d, 0x20),
	       "42 21 54.000 N 71 6 18.000 W -24.00m 1m 10000m 10m", "LOC");
	is_str(RD(WIRE_TYPE_LOC, 0, 0x00, 0x51, 0x99, 0x80, 0, 0, 1, 0x80, 0,
		  0, 0, 0x00, 0x98, 0x96, 0x80),
	       "0 0 0.001 N 0 0 0.000 E 0.00m 0.00m 0.50m 90000000m",
	       "LOC: small and large precisions");
	is_str(RD(WIRE_TYPE_LOC, 1, 2, 3), "\\# 3 010203",
	       "LOC of version 1: generic");
	is_str(RD(WIRE_TYPE_LOC, 0, 0x1a, 0x16, 0x13, 0x89, 0x17, 0x2d, 0xd0,
		  0x70, 0xbe, 0x15, 0xf0, 0x00, 0x98, 0x8d, 0x20),
	       "\\# 16 001a161389172dd070be15f000988d20",
	       "LOC with exponent 10: generic");
	is_str(RD(WIRE_TYPE_LOC, 0, 0x05, 0x16, 0x13, 0x89, 0x17, 0x2d, 0xd0,
		  0x70, 0xbe, 0x15, 0xf0, 0x00, 0x98, 0x8d, 0x20),
	       "\\# 16 0005161389172dd070be15f000988d20",
	       "LOC with mantissa 0, exponent 5: generic");
	is_str(RD(WIRE_TYPE_LOC, 0, 0x12, 0x16, 0x13, 0xff, 0xff, 0xff, 0xff,
		  0x70, 0xbe, 0x15, 0xf0, 0x00, 0x98, 0x8d, 0x20),
	       "\\# 16 00121613ffffffff70be15f000988d20",
	       "LOC beyond the pole: generic");
}

static void test_svcb(void)
{
	is_str(RD(WIRE_TYPE_SVCB, 0, 0, 3, 'f', 'o', 'o', 0),
	       "0 foo.", "SVCB AliasMode");
	is_str(RD(WIRE_TYPE_HTTPS, 0, 1, 0), "1 .", "HTTPS, no parameters");
	is_str(RD(WIRE_TYPE_HTTPS, 0, 1, 0, 0, 1, 0, 6, 2, 'h', '3', 2, 'h',
		  '2', 0, 4, 0, 4, 192, 0, 2, 1),
	       "1 . alpn=\"h3,h2\" ipv4hint=192.0.2.1", "HTTPS alpn, ipv4hint");
	is_str(RD(WIRE_TYPE_SVCB, 0, 16, 0, 0, 0, 0, 4, 0, 1, 0, 4, 0, 1, 0,
		  3, 2, 'h', '2', 0, 4, 0, 4, 192, 0, 2, 1),
	       "16 . mandatory=alpn,ipv4hint alpn=\"h2\" ipv4hint=192.0.2.1",
	       "SVCB mandatory");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 1, 0, 12, 8, 'f', '\\', 'o', 'o',
		  ',', 'b', 'a', 'r', 2, 'h', '2'),
	       "1 . alpn=\"f\\\\\\\\oo\\\\,bar,h2\"",
	       "alpn: RFC 9460 App. D.2 figure 9 escapes");
	is_str(RD(WIRE_TYPE_HTTPS, 0, 1, 0, 0, 2, 0, 0, 0, 3, 0, 2, 0x20, 0xfb,
		  0, 5, 0, 3, 1, 2, 3, 0, 6, 0, 16, 0x20, 1, 0x0d, 0xb8, 0, 0,
		  0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
	       "1 . no-default-alpn port=8443 ech=AQID ipv6hint=2001:db8::1",
	       "no-default-alpn, port, ech, ipv6hint");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 7, 0, 2, '/', 'q', 0, 8, 0, 0,
		  0x02, 0x9b, 0, 5, 'h', 'e', '"', 0xd2, 'o', 0xfd, 0xe8, 0, 0),
	       "1 . dohpath=\"/q\" ohttp key667=\"he\\\"\\210o\" key65000",
	       "dohpath, ohttp, keyNNNNN with and without a value");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 3, 0, 2, 0, 1, 0, 1, 0, 1, 'x'),
	       "\\# 14 0001000003000200010001000178",
	       "keys out of order: generic");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 3, 0, 1, 0),
	       "\\# 8 0001000003000100", "port of one octet: generic");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 0, 0, 2, 0, 1),
	       "\\# 9 000100000000020001",
	       "mandatory naming an absent key: generic");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 1, 0, 2, 2, 'h'),
	       "\\# 9 000100000100020268",
	       "alpn with a truncated id: generic");
	is_str(RD(WIRE_TYPE_SVCB, 0, 1, 0, 0, 1, 0, 9),
	       "\\# 7 00010000010009",
	       "SvcParams past the RDATA: generic");
}

static void test_space(void)
{
	uint8_t a[4] = {192, 0, 2, 1};
	char small[16];

	is_int(wire_rdata_to_str(WIRE_TYPE_A, a, 4, small, 10), 9,
	       "exact fit with NUL");
	is_int(wire_rdata_to_str(WIRE_TYPE_A, a, 4, small, 9), DT_ESPACE,
	       "one short: DT_ESPACE");
	is_int(wire_rdata_to_str(WIRE_TYPE_A, a, 4, small, 0), DT_ESPACE,
	       "no buffer: DT_ESPACE");
	is_int(wire_rdata_to_str(65280, a, 4, small, 13), DT_ESPACE,
	       "generic too long: DT_ESPACE");
	is_int(wire_rdata_to_str(65280, a, 4, small, 14), 13,
	       "generic exact fit");
	is_int(wire_rdata_to_str(65280, a, DT_RDATA_MAXLEN + 1, small,
				 sizeof(small)),
	       DT_ERDATA, "RDATA over 65535 octets refused");
}

static void test_rr(void)
{
	uint8_t owner[DT_NAME_MAXLEN], rdata[4] = {10, 0, 0, 1};
	struct wire_rr rr = {.owner = owner,
			     .type = WIRE_TYPE_A,
			     .rclass = WIRE_CLASS_IN,
			     .ttl = 4294967295u,
			     .rdlen = 4,
			     .rdata = rdata};
	char small[32];

	ok(wire_dname_from_str("www.Example.", 12, NULL, owner) > 0,
	   "owner parsed");
	is_int(wire_rr_to_str(&rr, out, sizeof(out)),
	       (int)strlen("www.Example.\t4294967295\tIN\tA\t10.0.0.1"),
	       "length returned");
	is_str(out, "www.Example.\t4294967295\tIN\tA\t10.0.0.1",
	       "owner TAB ttl TAB class TAB type TAB rdata, case kept");
	rr.type = 65280;
	rr.rclass = 65280;
	rr.ttl = 0;
	wire_rr_to_str(&rr, out, sizeof(out));
	is_str(out, "www.Example.\t0\tCLASS65280\tTYPE65280\t\\# 4 0a000001",
	       "unknown class and type");
	rr.rdlen = 0;
	wire_rr_to_str(&rr, out, sizeof(out));
	is_str(out, "www.Example.\t0\tCLASS65280\tTYPE65280\t\\# 0",
	       "empty RDATA");
	is_int(wire_rr_to_str(&rr, small, 20), DT_ESPACE,
	       "short buffer: DT_ESPACE");
	is_int(wire_rr_to_str(&rr, small, 5), DT_ESPACE,
	       "owner does not fit: DT_ESPACE");
}

/* WIRE_RR_TEXT_MAXLEN is enough for the worst cases: a full bitmap, TXT
 * of \DDD escapes, a 255-octet name of escaped octets. */
static void test_maxlen(void)
{
	static uint8_t rdata[DT_RDATA_MAXLEN];
	uint8_t owner[DT_NAME_MAXLEN];
	struct wire_rr rr = {.owner = owner,
			     .type = WIRE_TYPE_NSEC,
			     .rclass = 65535,
			     .ttl = 4294967295u,
			     .rdata = rdata};
	size_t n = 0, i, w;
	char *buf;
	int ret;

	for (i = 0; i < 3; i++) {
		owner[i * 64] = 63;
		memset(owner + i * 64 + 1, 0x80, 63);
	}
	owner[192] = 61; /* 3 * 64 + 62 + 1 = 255 octets */
	memset(owner + 193, 0x80, 61);
	owner[254] = 0;
	memcpy(rdata, owner, 255);
	n = 255;
	for (w = 0; w < 256; w++) {
		rdata[n++] = (uint8_t)w;
		rdata[n++] = 32;
		memset(rdata + n, 0xff, 32);
		n += 32;
	}
	rdata[255 + 2] = 0x7f; /* every type but 0, which has no mnemonic */
	rr.rdlen = (uint16_t)n;
	buf = malloc(WIRE_RR_TEXT_MAXLEN(n));
	ret = wire_rr_to_str(&rr, buf, WIRE_RR_TEXT_MAXLEN(n));
	ok(ret > 0 && (size_t)ret < WIRE_RR_TEXT_MAXLEN(n),
	   "NSEC with every type but 0 fits WIRE_RR_TEXT_MAXLEN (%d)", ret);
	ok(ret > 0 && strstr(buf, "\tNSEC\t\\128\\128") &&
		   strstr(buf, " TYPE65535") && !strstr(buf, "\\#"),
	   "written as a type list");
	free(buf);

	memset(rdata, 0xff, sizeof(rdata));
	for (n = 0; n + 256 <= sizeof(rdata); n += 256)
		rdata[n] = 255;
	rr.type = WIRE_TYPE_TXT;
	rr.rdlen = (uint16_t)n;
	buf = malloc(WIRE_RR_TEXT_MAXLEN(n));
	ret = wire_rr_to_str(&rr, buf, WIRE_RR_TEXT_MAXLEN(n));
	ok(ret > 0, "TXT of \\255 escapes fits WIRE_RR_TEXT_MAXLEN (%d)", ret);
	free(buf);
}

int main(void)
{
	test_simple_types();
	test_txt();
	test_dnssec_types();
	test_nsec3();
	test_times();
	test_generic();
	test_caa_uri();
	test_loc();
	test_svcb();
	test_space();
	test_rr();
	test_maxlen();
	return done_testing();
}
