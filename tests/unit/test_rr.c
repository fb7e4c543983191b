/* SPDX-License-Identifier: MIT */
/*
 * Tests for src/wire/rr.c: mnemonics, RDATA layouts and checks, unpacking
 * from messages, canonical form and order, key tags and type bitmaps.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "tap.h"
#include "wire/rr.h"

/* --- helpers: RDATA and messages built octet by octet --- */

#define RB_CAP 2048

struct rb {
	uint8_t d[RB_CAP];
	size_t n;
};

static void rb_raw(struct rb *b, const void *p, size_t n)
{
	if (b->n + n > RB_CAP)
		abort();
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void rb_u8(struct rb *b, unsigned int v)
{
	uint8_t o = (uint8_t)v;

	rb_raw(b, &o, 1);
}

static void rb_u16(struct rb *b, unsigned int v)
{
	rb_u8(b, v >> 8);
	rb_u8(b, v);
}

static void rb_u32(struct rb *b, uint32_t v)
{
	rb_u16(b, v >> 16);
	rb_u16(b, v & 0xffff);
}

/* Wire form of a dotted name without escapes; "." is the root. Labels
 * are written as given (case kept). A trailing dot is optional. */
static size_t rb_name_nz(struct rb *b, const char *dotted, bool root)
{
	size_t start = b->n;
	const char *p = dotted;

	while (*p && strcmp(p, ".") != 0) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);

		rb_u8(b, (unsigned int)len);
		rb_raw(b, p, len);
		p += len;
		if (*p == '.')
			p++;
	}
	if (root)
		rb_u8(b, 0);
	return b->n - start;
}

static size_t rb_name(struct rb *b, const char *dotted)
{
	return rb_name_nz(b, dotted, true);
}

/* A compression pointer to off. */
static void rb_ptr(struct rb *b, unsigned int off)
{
	rb_u16(b, 0xC000 | off);
}

/* One <character-string>. */
static void rb_str(struct rb *b, const char *s)
{
	rb_u8(b, (unsigned int)strlen(s));
	rb_raw(b, s, strlen(s));
}

static void rb_hex(struct rb *b, const char *hex)
{
	while (*hex) {
		unsigned int v;

		if (*hex == ' ') {
			hex++;
			continue;
		}
		if (sscanf(hex, "%2x", &v) != 1)
			abort();
		rb_u8(b, v);
		hex += 2;
	}
}

static void rb_fill(struct rb *b, unsigned int v, size_t n)
{
	while (n--)
		rb_u8(b, v);
}

static void rb_reset(struct rb *b)
{
	b->n = 0;
}

/* --- mnemonics --- */

struct tname {
	uint16_t value;
	const char *name;
};

static const struct tname all_types[] = {
	{1, "A"},	{2, "NS"},	 {3, "MD"},	     {4, "MF"},
	{5, "CNAME"},	{6, "SOA"},	 {7, "MB"},	     {8, "MG"},
	{9, "MR"},	{10, "NULL"},	 {12, "PTR"},	     {13, "HINFO"},
	{14, "MINFO"},	{15, "MX"},	 {16, "TXT"},	     {17, "RP"},
	{18, "AFSDB"},	{21, "RT"},	 {24, "SIG"},	     {26, "PX"},
	{28, "AAAA"},	{29, "LOC"},	 {53, "SMIMEA"},     {61, "OPENPGPKEY"},
	{62, "CSYNC"},	{256, "URI"},	 {30, "NXT"},	 {33, "SRV"},	     {35, "NAPTR"},
	{36, "KX"},	{38, "A6"},	 {39, "DNAME"},	     {41, "OPT"},
	{43, "DS"},	{44, "SSHFP"},	 {46, "RRSIG"},	     {47, "NSEC"},
	{48, "DNSKEY"}, {50, "NSEC3"},	 {51, "NSEC3PARAM"}, {52, "TLSA"},
	{59, "CDS"},	{60, "CDNSKEY"}, {63, "ZONEMD"},     {64, "SVCB"},
	{65, "HTTPS"},	{249, "TKEY"},	 {250, "TSIG"},	     {251, "IXFR"},
	{252, "AXFR"},	{255, "ANY"},	 {257, "CAA"},
};

#define NTYPES (sizeof(all_types) / sizeof(all_types[0]))

static int type_from(const char *s, uint16_t *t)
{
	return wire_type_from_str(s, strlen(s), t);
}

static int class_from(const char *s, uint16_t *c)
{
	return wire_class_from_str(s, strlen(s), c);
}

static void lowercase(char *dst, const char *src)
{
	for (; *src; src++, dst++)
		*dst = (*src >= 'A' && *src <= 'Z') ? (char)(*src + 32) : *src;
	*dst = '\0';
}

/* Mixed case: every other letter lowercased. */
static void mixcase(char *dst, const char *src)
{
	size_t i;

	for (i = 0; src[i]; i++)
		dst[i] = (i & 1 && src[i] >= 'A' && src[i] <= 'Z')
				 ? (char)(src[i] + 32)
				 : src[i];
	dst[i] = '\0';
}

static void test_type_mnemonics(void)
{
	char buf[16], low[16], mix[16], generic[16];
	uint16_t t, tl, tm, tg;
	size_t i;

	for (i = 0; i < NTYPES; i++) {
		const struct tname *e = &all_types[i];

		is_str(wire_type_to_str(e->value, buf), e->name,
		       "type %u is %s", e->value, e->name);
		lowercase(low, e->name);
		mixcase(mix, e->name);
		snprintf(generic, sizeof(generic), "TYPE%u", e->value);
		t = tl = tm = tg = 0;
		ok(type_from(e->name, &t) == 0 && t == e->value &&
			   type_from(low, &tl) == 0 && tl == e->value &&
			   type_from(mix, &tm) == 0 && tm == e->value &&
			   type_from(generic, &tg) == 0 && tg == e->value,
		   "%s, %s, %s and %s parse to %u", e->name, low, mix, generic,
		   e->value);
	}
}

static void test_type_generic(void)
{
	static const char *const bad[] = {
		"TYPE0",
		"TYPE65536",
		"TYPE",
		"type",
		"TYPE99999999999999999999",
		" TYPE1",
		"XTYPE1",
		"TYPE+1",
		"TYPE-1",
		"TYPE 1",
		"TYPE1 ",
		"TYPE1x",
		"TYPE0x10",
		"",
		"A ",
		" A",
		"AAAAA",
		"*",
		"TYP1",
		"TYPE 65535",
		"0",
		"1",
		"CLASS1",
		"NSEC3PARAMS",
		"NSEC4",
		"IN",
	};
	char buf[16];
	uint16_t t;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = 4242;
		is_int(type_from(bad[i], &t), DT_ETYPE, "type \"%s\" refused",
		       bad[i]);
		is_int(t, 4242, "  and the output is not written");
	}
	t = 0;
	is_int(type_from("TYPE65535", &t), 0, "TYPE65535 accepted");
	is_int(t, 65535, "  as 65535");
	ok(type_from("type65534", &t) == 0 && t == 65534, "type65534");
	ok(type_from("TYPE001", &t) == 0 && t == 1, "leading zeros: TYPE001");
	ok(type_from("TYPE0000000000000000000000000062", &t) == 0 && t == 62,
	   "many leading zeros do not overflow");
	ok(type_from("TYPE11", &t) == 0 && t == 11, "TYPE11 (WKS, no name)");
	ok(wire_type_from_str("AAAA", 1, &t) == 0 && t == WIRE_TYPE_A,
	   "only len characters are read (\"AAAA\", 1)");
	ok(wire_type_from_str("NSEC3PARAM", 5, &t) == 0 && t == WIRE_TYPE_NSEC3,
	   "\"NSEC3PARAM\", 5 is NSEC3");
	t = 7;
	is_int(wire_type_from_str("A\0", 2, &t), DT_ETYPE,
	       "embedded NUL refused");
	is_int(wire_type_from_str("TYPE1\0", 6, &t), DT_ETYPE,
	       "TYPE1 followed by NUL refused");
	is_int(wire_type_from_str(NULL, 0, &t), DT_ETYPE, "empty (NULL, 0)");
	is_str(wire_type_to_str(0, buf), "TYPE0", "type 0 prints TYPE0");
	is_str(wire_type_to_str(11, buf), "TYPE11", "type 11 prints TYPE11");
	is_str(wire_type_to_str(258, buf), "TYPE258", "TYPE258");
	is_str(wire_type_to_str(65535, buf), "TYPE65535", "TYPE65535");
	is_str(wire_type_to_str(65280, buf), "TYPE65280", "TYPE65280");
	ok(wire_type_to_str(1, buf) == buf, "to_str returns buf");
}

static void test_class_mnemonics(void)
{
	static const struct tname classes[] = {
		{1, "IN"}, {3, "CH"}, {4, "HS"}, {254, "NONE"}, {255, "ANY"},
	};
	static const char *const bad[] = {
		"CLASS0",  "CLASS65536", "CLASS",  "CS",    "CLASS 1",
		"CLASS1 ", "CLASS-1",	 "CLASSx", "TYPE1", "",
		" IN",	   "INN",	 "A",
	};
	char buf[16], low[16], generic[16];
	uint16_t c, cl, cg;
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		const struct tname *e = &classes[i];

		is_str(wire_class_to_str(e->value, buf), e->name,
		       "class %u is %s", e->value, e->name);
		lowercase(low, e->name);
		snprintf(generic, sizeof(generic), "CLASS%u", e->value);
		c = cl = cg = 0;
		ok(class_from(e->name, &c) == 0 && c == e->value &&
			   class_from(low, &cl) == 0 && cl == e->value &&
			   class_from(generic, &cg) == 0 && cg == e->value,
		   "%s, %s and %s parse to %u", e->name, low, generic,
		   e->value);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = 4242;
		is_int(class_from(bad[i], &c), DT_ETYPE, "class \"%s\" refused",
		       bad[i]);
		is_int(c, 4242, "  and the output is not written");
	}
	ok(class_from("iN", &c) == 0 && c == 1, "iN");
	ok(class_from("CLASS65535", &c) == 0 && c == 65535, "CLASS65535");
	ok(class_from("class2", &c) == 0 && c == 2, "class2");
	ok(type_from("ANY", &c) == 0 && c == 255 &&
		   class_from("ANY", &c) == 0 && c == 255,
	   "ANY is both a type and a class");
	is_str(wire_class_to_str(2, buf), "CLASS2", "class 2 prints CLASS2");
	is_str(wire_class_to_str(0, buf), "CLASS0", "class 0 prints CLASS0");
	is_str(wire_class_to_str(65535, buf), "CLASS65535", "CLASS65535");
}

/* --- layouts --- */

struct tlayout {
	uint16_t type;
	uint8_t fields[WIRE_RDESC_MAXFIELDS];
};

#define NC  WIRE_F_NAME_C
#define NL  WIRE_F_NAME_L
#define U8  WIRE_F_U8
#define ALG WIRE_F_ALG
#define U16 WIRE_F_U16
#define U32 WIRE_F_U32
#define TTL WIRE_F_TTL

static const struct tlayout layouts[] = {
	{WIRE_TYPE_A, {WIRE_F_A}},
	{WIRE_TYPE_NS, {NC}},
	{WIRE_TYPE_MD, {NC}},
	{WIRE_TYPE_MF, {NC}},
	{WIRE_TYPE_CNAME, {NC}},
	{WIRE_TYPE_SOA, {NC, NC, U32, TTL, TTL, TTL, TTL}},
	{WIRE_TYPE_MB, {NC}},
	{WIRE_TYPE_MG, {NC}},
	{WIRE_TYPE_MR, {NC}},
	{WIRE_TYPE_PTR, {NC}},
	{WIRE_TYPE_HINFO, {WIRE_F_CHARSTR, WIRE_F_CHARSTR}},
	{WIRE_TYPE_MINFO, {NC, NC}},
	{WIRE_TYPE_MX, {U16, NC}},
	{WIRE_TYPE_TXT, {WIRE_F_CHARSTRS}},
	{WIRE_TYPE_RP, {NL, NL}},
	{WIRE_TYPE_AFSDB, {U16, NL}},
	{WIRE_TYPE_RT, {U16, NL}},
	{WIRE_TYPE_SIG,
	 {WIRE_F_TYPE, ALG, U8, TTL, WIRE_F_TIME, WIRE_F_TIME, U16, NL,
	  WIRE_F_B64}},
	{WIRE_TYPE_PX, {U16, NL, NL}},
	{WIRE_TYPE_AAAA, {WIRE_F_AAAA}},
	{WIRE_TYPE_LOC, {WIRE_F_LOC}},
	{WIRE_TYPE_SRV, {U16, U16, U16, NL}},
	{WIRE_TYPE_NAPTR,
	 {U16, U16, WIRE_F_CHARSTR, WIRE_F_CHARSTR, WIRE_F_CHARSTR, NL}},
	{WIRE_TYPE_KX, {U16, NL}},
	{WIRE_TYPE_DNAME, {NL}},
	{WIRE_TYPE_DS, {U16, ALG, U8, WIRE_F_HEX}},
	{WIRE_TYPE_SSHFP, {U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_RRSIG,
	 {WIRE_F_TYPE, ALG, U8, TTL, WIRE_F_TIME, WIRE_F_TIME, U16, NL,
	  WIRE_F_B64}},
	{WIRE_TYPE_NSEC, {WIRE_F_NAME, WIRE_F_BITMAP}},
	{WIRE_TYPE_DNSKEY, {U16, U8, ALG, WIRE_F_B64}},
	{WIRE_TYPE_NSEC3,
	 {U8, U8, U16, WIRE_F_SALT, WIRE_F_HASH, WIRE_F_BITMAP}},
	{WIRE_TYPE_NSEC3PARAM, {U8, U8, U16, WIRE_F_SALT}},
	{WIRE_TYPE_TLSA, {U8, U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_SMIMEA, {U8, U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_CDS, {U16, ALG, U8, WIRE_F_HEX}},
	{WIRE_TYPE_CDNSKEY, {U16, U8, ALG, WIRE_F_B64}},
	{WIRE_TYPE_OPENPGPKEY, {WIRE_F_B64}},
	{WIRE_TYPE_CSYNC, {U32, U16, WIRE_F_BITMAP}},
	{WIRE_TYPE_ZONEMD, {U32, U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_SVCB, {U16, WIRE_F_NAME, WIRE_F_SVCPARAMS}},
	{WIRE_TYPE_HTTPS, {U16, WIRE_F_NAME, WIRE_F_SVCPARAMS}},
	{WIRE_TYPE_URI, {U16, U16, WIRE_F_TEXT}},
	{WIRE_TYPE_CAA, {U8, WIRE_F_TAG, WIRE_F_TEXT}},
};

#undef NC
#undef NL
#undef U8
#undef U16
#undef U32
#undef TTL

#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

static bool is_rest_field(uint8_t f)
{
	return f == WIRE_F_CHARSTRS || f == WIRE_F_HEX || f == WIRE_F_B64 ||
	       f == WIRE_F_BITMAP || f == WIRE_F_TEXT || f == WIRE_F_LOC ||
	       f == WIRE_F_SVCPARAMS;
}

/* Every descriptor: right type and name, END-terminated, rest last. */
static bool rdesc_sane(const struct wire_rdesc *d, uint16_t type)
{
	char buf[16];
	size_t i;

	if (d->type != type || !d->name ||
	    strcmp(d->name, wire_type_to_str(type, buf)) != 0)
		return false;
	for (i = 0; i < WIRE_RDESC_MAXFIELDS; i++) {
		if (d->fields[i] == WIRE_F_END)
			return i > 0;
		if (d->fields[i] > WIRE_F_SVCPARAMS)
			return false;
		if (is_rest_field(d->fields[i]) &&
		    i + 1 < WIRE_RDESC_MAXFIELDS &&
		    d->fields[i + 1] != WIRE_F_END)
			return false;
	}
	return true;
}

static void test_rdesc(void)
{
	static const uint16_t opaque[] = {
		0,
		WIRE_TYPE_NULL,
		11,
		WIRE_TYPE_NXT,
		WIRE_TYPE_A6,
		WIRE_TYPE_OPT,
		WIRE_TYPE_TKEY,
		WIRE_TYPE_TSIG,
		WIRE_TYPE_IXFR,
		WIRE_TYPE_AXFR,
		WIRE_TYPE_ANY,
		65535,
		32769,
	};
	unsigned int t, known = 0, insane = 0;
	size_t i;

	for (i = 0; i < NLAYOUTS; i++) {
		const struct wire_rdesc *d = wire_rdesc_get(layouts[i].type);
		char buf[16];

		ok(d && d->type == layouts[i].type &&
			   memcmp(d->fields, layouts[i].fields,
				  WIRE_RDESC_MAXFIELDS) == 0,
		   "layout of %s", wire_type_to_str(layouts[i].type, buf));
	}
	for (i = 0; i < sizeof(opaque) / sizeof(opaque[0]); i++)
		ok(wire_rdesc_get(opaque[i]) == NULL, "type %u is opaque",
		   opaque[i]);
	for (t = 0; t <= 65535; t++) {
		const struct wire_rdesc *d = wire_rdesc_get((uint16_t)t);

		if (!d)
			continue;
		known++;
		if (!rdesc_sane(d, (uint16_t)t))
			insane++;
	}
	is_int(known, NLAYOUTS, "exactly the listed types have a layout");
	is_int(insane, 0, "every layout names its type, ends, rest last");
}

/* --- wire_rdata_check --- */

/*
 * One valid RDATA per type. Every prefix shorter than nfixed is truncated;
 * a prefix of exactly nfixed octets (shorter than the whole) leaves only
 * the final variable field, giving at_fixed; one extra octet 0xFF after
 * the whole RDATA gives trail.
 */
struct sample {
	uint16_t type;
	struct rb rd;
	size_t nfixed;
	int at_fixed;
	int trail;
};

#define NSAMPLES 48
static struct sample samples[NSAMPLES];
static size_t nsamples;

static struct sample *sample_new(uint16_t type)
{
	struct sample *s = &samples[nsamples++];

	if (nsamples > NSAMPLES)
		abort();
	s->type = type;
	rb_reset(&s->rd);
	s->at_fixed = 0;
	s->trail = DT_ETRAIL;
	return s;
}

/* RDATA that is names and fixed fields only: every octet is needed. */
static void sample_done(struct sample *s)
{
	s->nfixed = s->rd.n;
}

/* Marks the end of the fixed part: what follows is the final rest field. */
static void sample_rest(struct sample *s, int at_fixed, int trail)
{
	s->nfixed = s->rd.n;
	s->at_fixed = at_fixed;
	s->trail = trail;
}

static void bitmap_a_rrsig_nsec(struct rb *b)
{
	rb_hex(b, "00 06 40 00 00 00 00 03");
}

static void make_samples(void)
{
	static const uint16_t one_name[] = {
		WIRE_TYPE_NS,	 WIRE_TYPE_MD,	WIRE_TYPE_MF,
		WIRE_TYPE_CNAME, WIRE_TYPE_MB,	WIRE_TYPE_MG,
		WIRE_TYPE_MR,	 WIRE_TYPE_PTR, WIRE_TYPE_DNAME,
	};
	static const uint16_t pref_name[] = {
		WIRE_TYPE_MX,
		WIRE_TYPE_AFSDB,
		WIRE_TYPE_RT,
		WIRE_TYPE_KX,
	};
	static const uint16_t sigs[] = {WIRE_TYPE_RRSIG, WIRE_TYPE_SIG};
	static const uint16_t ds[] = {WIRE_TYPE_DS, WIRE_TYPE_CDS};
	static const uint16_t keys[] = {WIRE_TYPE_DNSKEY, WIRE_TYPE_CDNSKEY};
	struct sample *s;
	size_t i;

	s = sample_new(WIRE_TYPE_A);
	rb_hex(&s->rd, "c0 00 02 01");
	sample_done(s);
	s = sample_new(WIRE_TYPE_AAAA);
	rb_hex(&s->rd, "2001 0db8 0000 0000 0000 0000 0000 0001");
	sample_done(s);
	for (i = 0; i < sizeof(one_name) / sizeof(one_name[0]); i++) {
		s = sample_new(one_name[i]);
		rb_name(&s->rd, "ns1.example.com.");
		sample_done(s);
	}
	for (i = 0; i < sizeof(pref_name) / sizeof(pref_name[0]); i++) {
		s = sample_new(pref_name[i]);
		rb_u16(&s->rd, 10);
		rb_name(&s->rd, "mail.example.com.");
		sample_done(s);
	}
	s = sample_new(WIRE_TYPE_SOA);
	rb_name(&s->rd, "ns1.example.");
	rb_name(&s->rd, "hostmaster.example.");
	rb_u32(&s->rd, 2024010101);
	rb_u32(&s->rd, 7200);
	rb_u32(&s->rd, 3600);
	rb_u32(&s->rd, 1209600);
	rb_u32(&s->rd, 300);
	sample_done(s);
	s = sample_new(WIRE_TYPE_HINFO);
	rb_str(&s->rd, "PDP-11");
	rb_str(&s->rd, "UNIX");
	sample_done(s);
	s = sample_new(WIRE_TYPE_MINFO);
	rb_name(&s->rd, "list-request.example.");
	rb_name(&s->rd, "owner-list.example.");
	sample_done(s);
	s = sample_new(WIRE_TYPE_RP);
	rb_name(&s->rd, "louie.trantor.umd.edu.");
	rb_name(&s->rd, ".");
	sample_done(s);
	s = sample_new(WIRE_TYPE_PX);
	rb_u16(&s->rd, 10);
	rb_name(&s->rd, "net2.it.");
	rb_name(&s->rd, "prmd-net2.admd-p400.c-it.");
	sample_done(s);
	s = sample_new(WIRE_TYPE_SRV);
	rb_u16(&s->rd, 0);
	rb_u16(&s->rd, 5);
	rb_u16(&s->rd, 5060);
	rb_name(&s->rd, "sipserver.example.com.");
	sample_done(s);
	s = sample_new(WIRE_TYPE_NAPTR);
	rb_u16(&s->rd, 100);
	rb_u16(&s->rd, 10);
	rb_str(&s->rd, "S");
	rb_str(&s->rd, "SIP+D2U");
	rb_str(&s->rd, "");
	rb_name(&s->rd, "_sip._udp.example.com.");
	sample_done(s);
	for (i = 0; i < 2; i++) {
		s = sample_new(ds[i]);
		rb_u16(&s->rd, 55648);
		rb_u8(&s->rd, 13);
		rb_u8(&s->rd, 2);
		sample_rest(s, DT_ERDATA, 0);
		rb_hex(&s->rd, "b4c8c1fe2e7477127b27115656ad6256"
			       "f424625bf5c1e2770ce6d6e37df61d17");
	}
	s = sample_new(WIRE_TYPE_SSHFP);
	rb_u8(&s->rd, 2);
	rb_u8(&s->rd, 1);
	sample_rest(s, DT_ERDATA, 0);
	rb_hex(&s->rd, "123456789abcdef67890123456789abcdef67890");
	for (i = 0; i < 2; i++) {
		s = sample_new(sigs[i]);
		rb_u16(&s->rd, WIRE_TYPE_A);
		rb_u8(&s->rd, 13);
		rb_u8(&s->rd, 3);
		rb_u32(&s->rd, 3600);
		rb_u32(&s->rd, 1284026679);
		rb_u32(&s->rd, 1281607479);
		rb_u16(&s->rd, 55648);
		rb_name(&s->rd, "example.net.");
		sample_rest(s, DT_ERDATA, 0);
		rb_fill(&s->rd, 0xab, 64);
	}
	s = sample_new(WIRE_TYPE_NSEC);
	rb_name(&s->rd, "host.example.com.");
	sample_rest(s, 0, DT_EBITMAP);
	bitmap_a_rrsig_nsec(&s->rd);
	for (i = 0; i < 2; i++) {
		s = sample_new(keys[i]);
		rb_u16(&s->rd, 257);
		rb_u8(&s->rd, 3);
		rb_u8(&s->rd, 15);
		sample_rest(s, DT_ERDATA, 0);
		rb_fill(&s->rd, 0x42, 32);
	}
	s = sample_new(WIRE_TYPE_NSEC3);
	rb_u8(&s->rd, 1);
	rb_u8(&s->rd, 1);
	rb_u16(&s->rd, 12);
	rb_hex(&s->rd, "04 aabbccdd");
	rb_u8(&s->rd, 20);
	rb_fill(&s->rd, 0x5a, 20);
	sample_rest(s, 0, DT_EBITMAP);
	bitmap_a_rrsig_nsec(&s->rd);
	s = sample_new(WIRE_TYPE_NSEC3PARAM);
	rb_hex(&s->rd, "01 00 000c 04 aabbccdd");
	sample_done(s);
	s = sample_new(WIRE_TYPE_TLSA);
	rb_hex(&s->rd, "03 01 01");
	sample_rest(s, DT_ERDATA, 0);
	rb_fill(&s->rd, 0x77, 32);
	s = sample_new(WIRE_TYPE_ZONEMD);
	rb_u32(&s->rd, 2018031900);
	rb_u8(&s->rd, 1);
	rb_u8(&s->rd, 1);
	sample_rest(s, DT_ERDATA, 0);
	rb_fill(&s->rd, 0xfe, 48);
	s = sample_new(WIRE_TYPE_SMIMEA);
	rb_hex(&s->rd, "03 01 01");
	sample_rest(s, DT_ERDATA, 0);
	rb_fill(&s->rd, 0x77, 32);
	s = sample_new(WIRE_TYPE_OPENPGPKEY);
	sample_rest(s, DT_ERDATA, 0);
	rb_fill(&s->rd, 0x99, 40);
	s = sample_new(WIRE_TYPE_CSYNC);
	rb_u32(&s->rd, 66);
	rb_u16(&s->rd, 3);
	sample_rest(s, 0, DT_EBITMAP);
	bitmap_a_rrsig_nsec(&s->rd);
	s = sample_new(WIRE_TYPE_LOC);
	rb_hex(&s->rd, "00 12 16 13 89172dd0 70be15f0 00988d20");
	sample_done(s);
	for (i = 0; i < 2; i++) {
		s = sample_new(i ? WIRE_TYPE_HTTPS : WIRE_TYPE_SVCB);
		rb_u16(&s->rd, 1);
		rb_name(&s->rd, "svc.example.");
		/* a lone 0xff after the parameters is a truncated key */
		sample_rest(s, 0, DT_ETRUNC);
		rb_hex(&s->rd, "0001 0003 02 6832");
	}
	s = sample_new(WIRE_TYPE_URI);
	rb_u16(&s->rd, 10);
	rb_u16(&s->rd, 1);
	sample_rest(s, 0, 0);
	rb_raw(&s->rd, "ftp://ftp1.example.com/public", 29);
	s = sample_new(WIRE_TYPE_CAA);
	rb_u8(&s->rd, 0);
	rb_str(&s->rd, "issue");
	sample_rest(s, 0, 0);
	rb_raw(&s->rd, "ca.example", 10);
	s = sample_new(WIRE_TYPE_TXT);
	rb_str(&s->rd, "v=spf1 -all");
	/* Any prefix of a single string is truncated; trailing 0xFF is the
	 * length octet of a second, missing string. */
	sample_done(s);
	s->trail = DT_ETRUNC;
}

static void test_check_samples(void)
{
	char name[16];
	size_t i, len;

	make_samples();
	for (i = 0; i < nsamples; i++) {
		struct sample *s = &samples[i];
		uint8_t buf[RB_CAP + 1];
		int bad = 0, r;

		wire_type_to_str(s->type, name);
		is_int(wire_rdata_check(s->type, s->rd.d, s->rd.n), 0,
		       "%s: valid RDATA passes", name);
		for (len = 0; len < s->nfixed; len++) {
			/* A copy exactly len long, so ASan sees overreads. */
			uint8_t *cut = malloc(len ? len : 1);

			memcpy(cut, s->rd.d, len);
			r = wire_rdata_check(s->type, cut, len);
			free(cut);
			if (r != DT_ETRUNC && !bad++)
				diag("%s: prefix of %zu: %d", name, len, r);
		}
		is_int(bad, 0, "%s: the %zu shorter prefixes are truncated",
		       name, s->nfixed);
		if (s->nfixed < s->rd.n)
			is_int(wire_rdata_check(s->type, s->rd.d, s->nfixed),
			       s->at_fixed, "%s: fixed part alone", name);
		memcpy(buf, s->rd.d, s->rd.n);
		buf[s->rd.n] = 0xff;
		is_int(wire_rdata_check(s->type, buf, s->rd.n + 1), s->trail,
		       "%s: one more octet", name);
	}
	is_int(nsamples, NLAYOUTS, "a sample for every type with a layout");
}

static int check(uint16_t type, const struct rb *b)
{
	return wire_rdata_check(type, b->d, b->n);
}

static void test_check_rest_fields(void)
{
	struct rb b;

	rb_reset(&b);
	rb_hex(&b, "d960 0d 02");
	is_int(check(WIRE_TYPE_DS, &b), DT_ERDATA, "DS with empty digest");
	is_int(check(WIRE_TYPE_CDS, &b), DT_ERDATA, "CDS with empty digest");
	rb_reset(&b);
	rb_hex(&b, "0000 00 00 00");
	is_int(check(WIRE_TYPE_CDS, &b), 0, "CDS delete (RFC 8078: 0 0 0 00)");
	rb_reset(&b);
	rb_hex(&b, "0101 03 0d");
	is_int(check(WIRE_TYPE_DNSKEY, &b), DT_ERDATA,
	       "DNSKEY without key material");
	rb_reset(&b);
	rb_hex(&b, "0000 03 00 00");
	is_int(check(WIRE_TYPE_CDNSKEY, &b), 0,
	       "CDNSKEY delete (RFC 8078: 0 3 0 AA==)");
	rb_reset(&b);
	rb_hex(&b, "02 01");
	is_int(check(WIRE_TYPE_SSHFP, &b), DT_ERDATA, "SSHFP, no fingerprint");
	rb_reset(&b);
	rb_hex(&b, "03 01 01");
	is_int(check(WIRE_TYPE_TLSA, &b), DT_ERDATA, "TLSA, no data");
	rb_reset(&b);
	rb_hex(&b, "7848b78c 01 01");
	rb_fill(&b, 0x11, 11);
	is_int(check(WIRE_TYPE_ZONEMD, &b), DT_ERDATA,
	       "ZONEMD digest of 11 octets (RFC 8976: at least 12)");
	rb_u8(&b, 0x11);
	is_int(check(WIRE_TYPE_ZONEMD, &b), 0, "ZONEMD digest of 12 octets");
	rb_reset(&b);
	rb_hex(&b, "7848b78c 01");
	is_int(check(WIRE_TYPE_ZONEMD, &b), DT_ETRUNC, "ZONEMD, 5 octets");
}

static void test_check_nsec3(void)
{
	struct rb b;

	rb_reset(&b);
	rb_hex(&b, "01 00 000a 00 00");
	is_int(check(WIRE_TYPE_NSEC3, &b), DT_ERDATA, "NSEC3 hash length 0");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 00 01 aa");
	is_int(check(WIRE_TYPE_NSEC3, &b), 0,
	       "NSEC3, no salt, 1-octet hash, no bitmap");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 05 aabbccdd");
	is_int(check(WIRE_TYPE_NSEC3, &b), DT_ETRUNC,
	       "NSEC3 salt length past the end");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 01 aa 14 0102030405");
	is_int(check(WIRE_TYPE_NSEC3, &b), DT_ETRUNC,
	       "NSEC3 hash length past the end");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 01 aa");
	is_int(check(WIRE_TYPE_NSEC3, &b), DT_ETRUNC,
	       "NSEC3 without hash length");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a ff");
	rb_fill(&b, 0xcd, 255);
	rb_hex(&b, "ff");
	rb_fill(&b, 0xef, 255);
	rb_hex(&b, "00 01 40");
	is_int(check(WIRE_TYPE_NSEC3, &b), 0, "NSEC3, salt and hash of 255");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 00 01 aa 00 00");
	is_int(check(WIRE_TYPE_NSEC3, &b), DT_EBITMAP,
	       "NSEC3 bitmap with an empty window");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 00");
	is_int(check(WIRE_TYPE_NSEC3PARAM, &b), 0, "NSEC3PARAM without salt");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 03 aabb");
	is_int(check(WIRE_TYPE_NSEC3PARAM, &b), DT_ETRUNC,
	       "NSEC3PARAM salt length past the end");
	rb_reset(&b);
	rb_hex(&b, "01 00 000a 01 aabb");
	is_int(check(WIRE_TYPE_NSEC3PARAM, &b), DT_ETRAIL,
	       "NSEC3PARAM with an octet after the salt");
}

static void test_check_names(void)
{
	struct rb b;
	int i;

	rb_reset(&b);
	rb_hex(&b, "03 6e 73 31 c0 0c");
	is_int(check(WIRE_TYPE_NS, &b), DT_EPTR,
	       "NS with a compression pointer");
	rb_reset(&b);
	rb_u16(&b, 10);
	rb_ptr(&b, 12);
	is_int(check(WIRE_TYPE_MX, &b), DT_EPTR, "MX with a pointer");
	rb_reset(&b);
	rb_u8(&b, 64);
	rb_fill(&b, 'a', 64);
	rb_u8(&b, 0);
	is_int(check(WIRE_TYPE_CNAME, &b), DT_ELABEL, "label of 64 octets");
	rb_reset(&b);
	for (i = 0; i < 4; i++) {
		rb_u8(&b, 63);
		rb_fill(&b, 'a', 63);
	}
	rb_u8(&b, 0);
	is_int(check(WIRE_TYPE_DNAME, &b), DT_ENAMELEN, "name of 257 octets");
	rb_reset(&b);
	for (i = 0; i < 3; i++) {
		rb_u8(&b, 63);
		rb_fill(&b, 'a', 63);
	}
	rb_u8(&b, 61);
	rb_fill(&b, 'a', 61);
	rb_u8(&b, 0);
	is_int(check(WIRE_TYPE_DNAME, &b), 0, "name of 255 octets");
	rb_reset(&b);
	rb_name(&b, "a.example.");
	rb_u8(&b, 0);
	is_int(check(WIRE_TYPE_PTR, &b), DT_ETRAIL, "PTR, then a root label");
	rb_reset(&b);
	rb_name(&b, "NEXT.example.");
	rb_hex(&b, "c0 0c");
	is_int(check(WIRE_TYPE_NSEC, &b), DT_EBITMAP,
	       "NSEC with a pointer where the bitmap starts");
	rb_reset(&b);
	rb_hex(&b, "c0 0c 00 01 40");
	is_int(check(WIRE_TYPE_NSEC, &b), DT_EPTR, "NSEC next name compressed");
	rb_reset(&b);
	rb_hex(&b, "0064 000a 01 53 07 53 49 50 2b 44 32 55 00");
	is_int(check(WIRE_TYPE_NAPTR, &b), DT_ETRUNC,
	       "NAPTR without replacement");
	rb_name(&b, ".");
	is_int(check(WIRE_TYPE_NAPTR, &b), 0, "NAPTR, root replacement");
}

static void test_check_strings(void)
{
	struct rb b;

	rb_reset(&b);
	is_int(wire_rdata_check(WIRE_TYPE_TXT, NULL, 0), DT_ETRUNC,
	       "TXT without strings");
	rb_u8(&b, 0);
	is_int(check(WIRE_TYPE_TXT, &b), 0, "TXT, one empty string");
	rb_reset(&b);
	rb_str(&b, "hello");
	rb_str(&b, "");
	rb_str(&b, "abc");
	is_int(check(WIRE_TYPE_TXT, &b), 0, "TXT, three strings");
	b.n--;
	is_int(check(WIRE_TYPE_TXT, &b), DT_ETRUNC, "TXT, last one cut");
	rb_reset(&b);
	rb_u8(&b, 255);
	rb_fill(&b, 'x', 255);
	rb_u8(&b, 255);
	rb_fill(&b, 'y', 255);
	is_int(check(WIRE_TYPE_TXT, &b), 0, "TXT, two strings of 255");
	rb_reset(&b);
	rb_str(&b, "CPU");
	is_int(check(WIRE_TYPE_HINFO, &b), DT_ETRUNC, "HINFO, one string");
	rb_str(&b, "OS");
	rb_str(&b, "more");
	is_int(check(WIRE_TYPE_HINFO, &b), DT_ETRAIL, "HINFO, three strings");
}

static void test_check_opaque(void)
{
	static uint8_t big[DT_RDATA_MAXLEN + 1];
	static const uint8_t junk[] = {0xc0, 0x0c, 0xff, 0x00, 0x41};

	is_int(wire_rdata_check(WIRE_TYPE_NULL, junk, sizeof(junk)), 0,
	       "NULL: anything goes");
	is_int(wire_rdata_check(999, junk, sizeof(junk)), 0,
	       "unknown type: anything goes");
	is_int(wire_rdata_check(WIRE_TYPE_TSIG, junk, sizeof(junk)), 0,
	       "TSIG is opaque");
	is_int(wire_rdata_check(999, NULL, 0), 0, "unknown type, empty");
	is_int(wire_rdata_check(WIRE_TYPE_A, NULL, 0), DT_ETRUNC, "A, empty");
	is_int(wire_rdata_check(WIRE_TYPE_NS, NULL, 0), DT_ETRUNC, "NS, empty");
	memset(big, 0, sizeof(big));
	big[0] = 1;
	is_int(wire_rdata_check(WIRE_TYPE_DNSKEY, big, DT_RDATA_MAXLEN), 0,
	       "DNSKEY of 65535 octets");
	is_int(wire_rdata_check(WIRE_TYPE_DNSKEY, big, sizeof(big)), DT_ERDATA,
	       "DNSKEY of 65536 octets");
}

/* --- type bitmaps --- */

static int check_nsec_bitmap(const char *hex)
{
	struct rb b;

	rb_reset(&b);
	rb_name(&b, "b.example.");
	rb_hex(&b, hex);
	return check(WIRE_TYPE_NSEC, &b);
}

static int check_bitmap(const char *hex)
{
	struct rb b;
	uint8_t *copy;
	int r;

	rb_reset(&b);
	rb_hex(&b, hex);
	copy = malloc(b.n ? b.n : 1);
	memcpy(copy, b.d, b.n);
	r = wire_bitmap_check(copy, b.n);
	free(copy);
	return r;
}

static void test_bitmap_check(void)
{
	static const struct {
		const char *hex;
		int want;
		const char *what;
	} cases[] = {
		{"", 0, "empty bitmap"},
		{"00 06 40 00 00 00 00 03", 0, "one window"},
		{"00 00", DT_EBITMAP, "empty window"},
		{"00 00 01 01 40", DT_EBITMAP, "empty window, then one"},
		{"00 01 40 01 00", DT_EBITMAP, "one, then an empty window"},
		{"00 21 "
		 "00000000000000000000000000000000 "
		 "0000000000000000000000000000000001",
		 DT_EBITMAP, "window of 33 octets"},
		{"00 20 "
		 "00000000000000000000000000000000 "
		 "00000000000000000000000000000001",
		 0, "window of 32 octets"},
		{"ff 20 "
		 "00000000000000000000000000000000 "
		 "00000000000000000000000000000001",
		 0, "window 255 of 32 octets"},
		{"01 01 40 00 01 40", DT_EBITMAP, "descending windows"},
		{"00 01 40 00 01 20", DT_EBITMAP, "repeated window"},
		{"00 01 40 02 01 40 01 01 40", DT_EBITMAP,
		 "third window below the second"},
		{"00 01 40 01 01 40 02 01 40", 0, "windows 0, 1, 2"},
		{"00 05 40 00 00", DT_EBITMAP, "window cut short"},
		{"00", DT_EBITMAP, "window number alone"},
		{"00 01 40 01", DT_EBITMAP, "second window number alone"},
		{"00 02 00 00", 0, "all-zero octets are accepted"},
		{"00 01 00 01 01 00", 0, "all-zero windows are accepted"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_int(check_bitmap(cases[i].hex), cases[i].want, "bitmap: %s",
		       cases[i].what);
		is_int(check_nsec_bitmap(cases[i].hex), cases[i].want,
		       "NSEC: %s", cases[i].what);
	}
}

struct collect {
	uint16_t types[65536];
	size_t n;
	size_t stop_after; /* 0: never */
};

static int collect_type(uint16_t type, void *arg)
{
	struct collect *c = arg;

	c->types[c->n++] = type;
	return c->stop_after && c->n == c->stop_after ? 7 : 0;
}

static void test_bitmap_build(void)
{
	static const uint16_t types[] = {65535, 1, 47, 257, 46, 32769, 1, 47};
	static const uint16_t sorted[] = {1, 46, 47, 257, 32769, 65535};
	static const uint16_t absent[] = {0,   2,   45,	   48,	  255,	256,
					  258, 512, 32768, 32770, 65534};
	static const uint16_t rfc4034[] = {WIRE_TYPE_A, WIRE_TYPE_MX,
					   WIRE_TYPE_RRSIG, WIRE_TYPE_NSEC,
					   1234};
	static struct collect c;
	static uint8_t all[8704 + 16];
	static uint16_t every[65536];
	uint8_t bm[64];
	struct rb want;
	size_t i;
	int len, bad;

	rb_reset(&want);
	rb_hex(&want, "00 06 40 00 00 00 00 03  01 01 40  80 01 40  ff 20");
	rb_fill(&want, 0, 31);
	rb_u8(&want, 0x01);
	len = wire_bitmap_build(types, sizeof(types) / sizeof(types[0]), bm,
				sizeof(bm));
	is_mem(bm, len, want.d, want.n,
	       "build {1, 46, 47, 257, 32769, 65535}, unordered, repeated");
	is_int(wire_bitmap_check(bm, (size_t)len), 0, "  and it checks");
	bad = 0;
	for (i = 0; i < sizeof(sorted) / sizeof(sorted[0]); i++)
		if (!wire_bitmap_has(bm, (size_t)len, sorted[i]))
			bad++;
	is_int(bad, 0, "has() finds the 6 types");
	bad = 0;
	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		if (wire_bitmap_has(bm, (size_t)len, absent[i]))
			bad++;
	is_int(bad, 0, "has() finds none of 11 neighbours");
	c.n = 0;
	c.stop_after = 0;
	is_int(wire_bitmap_foreach(bm, (size_t)len, collect_type, &c), 0,
	       "foreach runs to the end");
	is_mem(c.types, c.n * sizeof(uint16_t), sorted, sizeof(sorted),
	       "foreach gives the types in increasing order");
	c.n = 0;
	c.stop_after = 3;
	is_int(wire_bitmap_foreach(bm, (size_t)len, collect_type, &c), 7,
	       "foreach returns the callback's non-zero value");
	is_int(c.n, 3, "  after the third type");

	is_int(wire_bitmap_build(types, 8, bm, want.n - 1), DT_ESPACE,
	       "build: one octet short");
	is_int(wire_bitmap_build(types, 8, bm, want.n), (int)want.n,
	       "build: exact fit");
	is_int(wire_bitmap_build(NULL, 0, bm, 0), 0, "build: no types");
	ok(!wire_bitmap_has(bm, 0, WIRE_TYPE_A), "has() on an empty bitmap");

	rb_reset(&want);
	rb_hex(&want, "00 06 40 01 00 00 00 03 04 1b");
	rb_fill(&want, 0, 26);
	rb_u8(&want, 0x20);
	len = wire_bitmap_build(rfc4034, 5, bm, sizeof(bm));
	is_mem(bm, len, want.d, want.n,
	       "RFC 4034 §4.3: A MX RRSIG NSEC TYPE1234");

	ok(!wire_bitmap_has((const uint8_t *)"\x00\x01\x40", 3, 8) &&
		   !wire_bitmap_has((const uint8_t *)"\x00\x01\x40", 3, 200),
	   "has(): types past a short window are absent");

	for (i = 0; i < 65536; i++)
		every[i] = (uint16_t)(65535 - i);
	len = wire_bitmap_build(every, 65536, all, 8704);
	is_int(len, 8704, "all 65536 types: 256 windows of 34 octets");
	is_int(wire_bitmap_check(all, (size_t)len), 0, "  and it checks");
	c.n = 0;
	c.stop_after = 0;
	wire_bitmap_foreach(all, (size_t)len, collect_type, &c);
	bad = c.n != 65536;
	for (i = 0; !bad && i < 65536; i++)
		bad = c.types[i] != i;
	is_int(bad, 0, "  foreach visits 0..65535 in order");
	ok(wire_bitmap_has(all, 8704, 0) && wire_bitmap_has(all, 8704, 65535) &&
		   wire_bitmap_has(all, 8704, 4660),
	   "  has() 0, 4660, 65535");
}

/* --- key tags --- */

static const uint8_t key_p256_55648[] = {
	0x01, 0x01, 0x03, 0x0d, 0x1a, 0x88, 0xc8, 0x86, 0x15, 0xd4, 0x37, 0xfb,
	0xb8, 0xbf, 0x9e, 0x19, 0x42, 0xa1, 0x92, 0x9f, 0x28, 0x56, 0x27, 0x06,
	0xae, 0x6c, 0x2b, 0xd3, 0x99, 0xe7, 0xb1, 0xbf, 0xb6, 0xd1, 0xe9, 0xe7,
	0x5b, 0x92, 0xb4, 0xaa, 0x42, 0x91, 0x7a, 0xe1, 0xc6, 0x1b, 0x70, 0x1e,
	0xf0, 0x35, 0xc3, 0xfe, 0x7b, 0xe3, 0x00, 0x9c, 0xba, 0xfe, 0x5a, 0x2f,
	0x71, 0x31, 0x6c, 0x90, 0x2d, 0xcf, 0x0d, 0x00,
};
static const uint8_t key_rsasha256_9033[] = {
	0x01, 0x00, 0x03, 0x08, 0x03, 0x01, 0x00, 0x01, 0xc1, 0x5c, 0x1a, 0xc6,
	0xb1, 0xc5, 0xd8, 0x22, 0xba, 0xe1, 0xa6, 0x0a, 0x45, 0x48, 0x9b, 0x2e,
	0x21, 0xf7, 0xd0, 0xaa, 0x4f, 0xb8, 0xf0, 0x63, 0x7a, 0x5e, 0xc4, 0xf1,
	0x9c, 0x9d, 0x41, 0x6d, 0x47, 0x61, 0x61, 0xdf, 0xa0, 0x69, 0xa2, 0x77,
	0x30, 0xb6, 0x46, 0x78, 0x70, 0x08, 0x2d, 0xbd, 0xde, 0x10, 0xb3, 0xc3,
	0xe4, 0xc5, 0x47, 0x69, 0xea, 0x9f, 0xc3, 0x95, 0x49, 0x8e, 0x6d, 0xd9,
};
static const uint8_t key_ed25519_3613[] = {
	0x01, 0x01, 0x03, 0x0f, 0x97, 0x4d, 0x96, 0xa2, 0x2d, 0x22, 0x4b, 0xc0,
	0x1a, 0xdb, 0x91, 0x50, 0x91, 0x47, 0x7d, 0x44, 0xcc, 0xd9, 0x1c, 0x9a,
	0x41, 0xa1, 0x14, 0x30, 0x01, 0x01, 0x17, 0xd5, 0x2c, 0x59, 0x24, 0x0e,
};
static const uint8_t key_p384_10771[] = {
	0x01, 0x01, 0x03, 0x0e, 0xc4, 0xa6, 0x1a, 0x36, 0x15, 0x9d, 0x18, 0xe7,
	0xc9, 0xfa, 0x73, 0xeb, 0x2f, 0xcf, 0xda, 0xae, 0x4c, 0x1f, 0xd8, 0x46,
	0x37, 0x30, 0x32, 0x7e, 0x48, 0x4a, 0xca, 0x8a, 0xf0, 0x55, 0x4a, 0xe9,
	0xb5, 0xc3, 0xf7, 0xa0, 0xb1, 0x7b, 0xd2, 0x00, 0x3b, 0x4d, 0x26, 0x1c,
	0x9e, 0x9b, 0x94, 0x42, 0x3a, 0x98, 0x10, 0xe8, 0xaf, 0x17, 0xd4, 0x34,
	0x52, 0x12, 0x4a, 0xdb, 0x61, 0x0f, 0x8e, 0x07, 0xeb, 0xfc, 0xfe, 0xe5,
	0xf8, 0xe4, 0xd0, 0x70, 0x63, 0xca, 0xe9, 0xeb, 0x91, 0x7a, 0x1a, 0x5b,
	0xab, 0xf0, 0x8f, 0xe6, 0x95, 0x53, 0x60, 0x17, 0xa5, 0xbf, 0xa9, 0x32,
	0x37, 0xee, 0x6e, 0x34,
};
static const uint8_t key_rsasha1_9465[] = {
	0x01, 0x01, 0x03, 0x05, 0x01, 0x03, 0x9e, 0x5f, 0xbf, 0x9b, 0x69, 0x39,
	0xaf, 0xa5, 0x51, 0xdb, 0xd8, 0x27, 0x0b, 0x9c, 0xbd, 0x5d, 0x31, 0x15,
	0x9b, 0xba, 0xc7, 0x11, 0xbc, 0x75, 0xe5, 0x2e, 0x75, 0xf0, 0x0f, 0x3b,
	0xea, 0xa7, 0x8b, 0x59, 0x54, 0xaa, 0x75, 0xb1, 0x93, 0x1e, 0xa4, 0x56,
	0xfc, 0x32, 0xfc, 0x61, 0x85, 0x6d, 0xf2, 0xff, 0x44, 0x19, 0xb3, 0x20,
	0xa3, 0x73, 0x31, 0x89, 0xd6, 0xa9, 0x3c, 0xbc, 0x97, 0xb9, 0xda, 0x23,
	0xa1, 0x22, 0x72, 0x91, 0x39, 0x52, 0xd1, 0xc3, 0x11, 0xa9, 0x31, 0xfc,
	0xcf, 0x44, 0xb3, 0x25, 0x1b, 0x26, 0xeb, 0xe7, 0x56, 0xce, 0x57, 0xfd,
	0x6c, 0x7b, 0x43, 0x83, 0x69, 0xc8, 0xf7, 0x0e, 0x89, 0xb2, 0x07, 0x84,
	0x01, 0xe6, 0x02, 0x93, 0x62, 0x8b, 0x7f, 0x2b, 0xd6, 0xa5, 0x93, 0x9f,
	0xe3, 0xf2, 0xf7, 0xdd, 0xe2, 0x35, 0x82, 0x58, 0x3f, 0x84, 0xd5, 0x2c,
	0xde, 0xd1,
};
static const uint8_t key_rsasha1_38519[] = {
	0x01, 0x00, 0x03, 0x05, 0x01, 0x03, 0xb2, 0xd5, 0xb6, 0x55, 0xbe, 0x93,
	0xea, 0x86, 0x0e, 0x23, 0xec, 0x42, 0x68, 0x33, 0xda, 0xc8, 0xdd, 0x99,
	0xb2, 0x13, 0x1d, 0x8e, 0xcc, 0x30, 0x55, 0xad, 0x9c, 0xbf, 0x96, 0xf2,
	0x39, 0x09, 0x07, 0x8f, 0xc5, 0x71, 0xd9, 0x4b, 0x88, 0xbc, 0x74, 0x03,
	0x47, 0xe0, 0x35, 0xf7, 0xb5, 0xb1, 0xe8, 0x97, 0xad, 0x5e, 0x93, 0xc1,
	0x05, 0x31, 0xcb, 0x06, 0x5f, 0x12, 0x9c, 0x88, 0x91, 0x47, 0xca, 0x19,
	0x7d, 0xe0, 0x2f, 0x8d, 0xc0, 0x82, 0xd0, 0x77, 0x3b, 0x14, 0x95, 0x21,
	0x68, 0xbc, 0x16, 0x6c, 0xca, 0x5f, 0xcd, 0x5f, 0xac, 0x84, 0x6e, 0xdc,
	0x3f, 0xc4, 0xdf, 0x59, 0x35, 0xca, 0xdb, 0x62, 0xf8, 0x23, 0x8d, 0x9f,
	0xd4, 0x54, 0xf6, 0x48, 0xc9, 0x21, 0x4d, 0xb2, 0x01, 0x18, 0xbe, 0x1d,
	0x33, 0xdb, 0x9e, 0x36, 0x97, 0x33, 0x0a, 0x47, 0x80, 0xe1, 0xf2, 0xe6,
	0x5f, 0x7d,
};

static void test_keytag(void)
{
	/* RSA/MD5 (App. B.1): bits 8..23 of the modulus, the key's end. */
	static const uint8_t md5key[] = {0x01, 0x00, 0x03, 0x01, 0x01, 0x03,
					 0x11, 0x22, 0xab, 0xcd, 0xef};

	is_int(wire_keytag(key_p256_55648, sizeof(key_p256_55648)), 55648,
	       "RFC 6605 §6.1 P-256 key: 55648");
	is_int(wire_keytag(key_p384_10771, sizeof(key_p384_10771)), 10771,
	       "RFC 6605 §6.2 P-384 key: 10771");
	is_int(wire_keytag(key_rsasha256_9033, sizeof(key_rsasha256_9033)),
	       9033, "RFC 5702 §6.1 RSA/SHA-256 key: 9033");
	is_int(wire_keytag(key_ed25519_3613, sizeof(key_ed25519_3613)), 3613,
	       "RFC 8080 §6.1 Ed25519 key: 3613");
	is_int(wire_keytag(key_rsasha1_9465, sizeof(key_rsasha1_9465)), 9465,
	       "RFC 4035 App. A KSK: 9465");
	is_int(wire_keytag(key_rsasha1_38519, sizeof(key_rsasha1_38519)), 38519,
	       "RFC 4035 App. A ZSK: 38519");
	is_int(wire_keytag(md5key, sizeof(md5key)), 0xabcd,
	       "algorithm 1: 0xabcd from the modulus");
	is_int(wire_keytag((const uint8_t *)"\x01\x00\x03\x08", 4), 0x0408,
	       "no key material: the sum of the 4 header octets");
}

/* --- canonical form --- */

static void canon(uint16_t type, struct rb *b)
{
	wire_rdata_canonicalize(type, b->d, b->n);
}

static void test_canonicalize(void)
{
	struct rb b, w;

	rb_reset(&b);
	rb_name(&b, "NS1.Example.COM.");
	rb_name(&b, "HostMaster.EXAMPLE.com.");
	rb_hex(&b, "41424344 41424344 41424344 41424344 41424344");
	rb_reset(&w);
	rb_name(&w, "ns1.example.com.");
	rb_name(&w, "hostmaster.example.com.");
	rb_hex(&w, "41424344 41424344 41424344 41424344 41424344");
	canon(WIRE_TYPE_SOA, &b);
	is_mem(b.d, b.n, w.d, w.n, "SOA: both names lowercased, numbers kept");

	rb_reset(&b);
	rb_u16(&b, 0x4142);
	rb_name(&b, "MAIL.Example.COM.");
	rb_reset(&w);
	rb_u16(&w, 0x4142);
	rb_name(&w, "mail.example.com.");
	canon(WIRE_TYPE_MX, &b);
	is_mem(b.d, b.n, w.d, w.n, "MX: exchange lowercased");

	rb_reset(&b);
	rb_hex(&b, "0001 0d 03 00000e10 4c88b737 4c63c737 d960");
	rb_name(&b, "Example.NET.");
	rb_raw(&b, "SIGNATURE-ABC", 13);
	rb_reset(&w);
	rb_hex(&w, "0001 0d 03 00000e10 4c88b737 4c63c737 d960");
	rb_name(&w, "example.net.");
	rb_raw(&w, "SIGNATURE-ABC", 13);
	canon(WIRE_TYPE_RRSIG, &b);
	is_mem(b.d, b.n, w.d, w.n,
	       "RRSIG: signer lowercased, signature untouched");
	rb_reset(&b);
	rb_hex(&b, "0001 0d 03 00000e10 4c88b737 4c63c737 d960");
	rb_name(&b, "Example.NET.");
	rb_raw(&b, "SIGNATURE-ABC", 13);
	canon(WIRE_TYPE_SIG, &b);
	is_mem(b.d, b.n, w.d, w.n, "SIG: signer lowercased");

	rb_reset(&b);
	rb_name(&b, "Next.EXAMPLE.");
	rb_hex(&b, "00 06 40 01 00 00 00 03");
	rb_reset(&w);
	rb_raw(&w, b.d, b.n);
	canon(WIRE_TYPE_NSEC, &b);
	is_mem(b.d, b.n, w.d, w.n, "NSEC: next name keeps its case");

	rb_reset(&b);
	rb_u16(&b, 100);
	rb_u16(&b, 10);
	rb_str(&b, "U");
	rb_str(&b, "E2U+SIP");
	rb_str(&b, "!^.*$!SIP:Info@Example.COM!");
	rb_name(&b, "Replace.Example.");
	rb_reset(&w);
	rb_u16(&w, 100);
	rb_u16(&w, 10);
	rb_str(&w, "U");
	rb_str(&w, "E2U+SIP");
	rb_str(&w, "!^.*$!SIP:Info@Example.COM!");
	rb_name(&w, "replace.example.");
	canon(WIRE_TYPE_NAPTR, &b);
	is_mem(b.d, b.n, w.d, w.n,
	       "NAPTR: replacement lowercased, strings kept");

	rb_reset(&b);
	rb_hex(&b, "0000 0005 13c4");
	rb_name(&b, "SIP.Example.");
	rb_reset(&w);
	rb_hex(&w, "0000 0005 13c4");
	rb_name(&w, "sip.example.");
	canon(WIRE_TYPE_SRV, &b);
	is_mem(b.d, b.n, w.d, w.n, "SRV: target lowercased");

	rb_reset(&b);
	rb_u16(&b, 0x4d4d);
	rb_name(&b, "A.B.");
	rb_name(&b, "C.D.");
	rb_reset(&w);
	rb_u16(&w, 0x4d4d);
	rb_name(&w, "a.b.");
	rb_name(&w, "c.d.");
	canon(WIRE_TYPE_PX, &b);
	is_mem(b.d, b.n, w.d, w.n, "PX: both names lowercased");
	rb_reset(&b);
	rb_name(&b, "A.B.");
	rb_name(&b, "C.D.");
	canon(WIRE_TYPE_RP, &b);
	is_mem(b.d, b.n, w.d + 2, w.n - 2, "RP: both names lowercased");

	rb_reset(&b);
	rb_name(&b, "Target.EXAMPLE.");
	rb_reset(&w);
	rb_name(&w, "target.example.");
	canon(WIRE_TYPE_DNAME, &b);
	is_mem(b.d, b.n, w.d, w.n, "DNAME lowercased");

	rb_reset(&b);
	rb_raw(&b,
	       "\x03"
	       "A\xc1Z",
	       4);
	rb_u8(&b, 0);
	canon(WIRE_TYPE_CNAME, &b);
	is_mem(b.d, b.n,
	       "\x03"
	       "a\xc1z\x00",
	       5, "CNAME: ASCII only, 0xC1 kept");

	rb_reset(&b);
	rb_raw(&b, "AAAA", 4);
	canon(WIRE_TYPE_A, &b);
	is_mem(b.d, b.n, "AAAA", 4, "A: octets 0x41 untouched");
	rb_reset(&b);
	rb_str(&b, "ABC");
	canon(WIRE_TYPE_TXT, &b);
	is_mem(b.d, b.n,
	       "\x03"
	       "ABC",
	       4, "TXT untouched");
	rb_reset(&b);
	rb_name(&b, "ABC.");
	canon(999, &b);
	is_mem(b.d, b.n,
	       "\x03"
	       "ABC\x00",
	       5, "unknown type untouched");
	rb_reset(&b);
	rb_hex(&b, "00 05");
	rb_raw(&b, "ISSUE", 5);
	rb_raw(&b, "CA.EXAMPLE", 10);
	rb_reset(&w);
	rb_raw(&w, b.d, b.n);
	canon(WIRE_TYPE_CAA, &b);
	is_mem(b.d, b.n, w.d, w.n, "CAA untouched");

	rb_reset(&b);
	rb_name(&b, "Host.Example.");
	rb_hex(&b, "40 00 00 00 01");
	rb_reset(&w);
	rb_name(&w, "host.example.");
	rb_hex(&w, "40 00 00 00 01");
	canon(WIRE_TYPE_NXT, &b);
	is_mem(b.d, b.n, w.d, w.n, "NXT: next name lowercased");

	rb_reset(&b);
	rb_u8(&b, 64);
	rb_raw(&b, "ABCDEFGH", 8);
	rb_name(&b, "Prefix.EXAMPLE.");
	rb_reset(&w);
	rb_u8(&w, 64);
	rb_raw(&w, "ABCDEFGH", 8);
	rb_name(&w, "prefix.example.");
	canon(WIRE_TYPE_A6, &b);
	is_mem(b.d, b.n, w.d, w.n, "A6: prefix name lowercased, suffix kept");
	rb_reset(&b);
	rb_u8(&b, 0);
	rb_raw(&b, "ABCDEFGHIJKLMNOP", 16);
	canon(WIRE_TYPE_A6, &b);
	is_mem(b.d, b.n,
	       "\x00"
	       "ABCDEFGHIJKLMNOP",
	       17, "A6 prefix length 0: no name, nothing changed");
	rb_reset(&b);
	rb_u8(&b, 120);
	rb_raw(&b, "A", 1);
	rb_raw(&b,
	       "\x05"
	       "ABC",
	       4);
	canon(WIRE_TYPE_A6, &b);
	is_mem(b.d, b.n,
	       "\x78"
	       "A\x05"
	       "ABC",
	       6, "A6 with a cut prefix name: nothing changed");
}

static void test_canon_write(void)
{
	static const uint8_t want[] = {
		0x03, 'w',  'w',  'w',	0x07, 'e',  'x',  'a',
		'm',  'p',  'l',  'e',	0x03, 'n',  'e',  't',
		0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x0e,
		0x10, 0x00, 0x04, 0xc0, 0x00, 0x02, 0x01,
	};
	static const uint8_t want_wild[] = {
		0x01, '*',  0x07, 'e',	'x',  'a',  'm',  'p',	'l',  'e',
		0x03, 'n',  'e',  't',	0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
		0x01, 0x51, 0x80, 0x00, 0x04, 0xc0, 0x00, 0x02, 0x01,
	};
	static const uint8_t addr[] = {0xc0, 0x00, 0x02, 0x01};
	uint8_t out[600], untouched[600];
	struct rb owner, wild, mx, want_mx;
	struct wire_rr rr;
	int len;

	rb_reset(&owner);
	rb_name(&owner, "WWW.Example.NET.");
	rb_reset(&wild);
	rb_name(&wild, "*.EXAMPLE.net.");
	rr = (struct wire_rr){.owner = owner.d,
			      .type = WIRE_TYPE_A,
			      .rclass = WIRE_CLASS_IN,
			      .ttl = 7200,
			      .rdlen = 4,
			      .rdata = addr};
	len = wire_rr_canon_write(&rr, NULL, 3600, out, sizeof(out));
	is_mem(out, len, want, sizeof(want),
	       "A record: lowercased owner, orig TTL 3600 (not 7200)");
	memset(out, 0xaa, sizeof(out));
	memset(untouched, 0xaa, sizeof(untouched));
	is_int(wire_rr_canon_write(&rr, NULL, 3600, out, sizeof(want) - 1),
	       DT_ESPACE, "one octet short");
	is_mem(out, sizeof(out), untouched, sizeof(untouched),
	       "  and nothing is written");
	is_int(wire_rr_canon_write(&rr, NULL, 3600, out, sizeof(want)),
	       (int)sizeof(want), "exact fit");
	len = wire_rr_canon_write(&rr, wild.d, 86400, out, sizeof(out));
	is_mem(out, len, want_wild, sizeof(want_wild),
	       "owner_override *.example.net., lowercased, orig TTL 86400");
	ok(memcmp(owner.d, "\x03WWW", 4) == 0, "the record is not modified");

	rb_reset(&mx);
	rb_u16(&mx, 10);
	rb_name(&mx, "MX.Example.");
	rr = (struct wire_rr){.owner = (const uint8_t *)"",
			      .type = 15,
			      .rclass = 1,
			      .ttl = 0,
			      .rdlen = (uint16_t)mx.n,
			      .rdata = mx.d};
	rb_reset(&want_mx);
	rb_hex(&want_mx, "00 000f 0001 00000000");
	rb_u16(&want_mx, (unsigned int)mx.n);
	rb_u16(&want_mx, 10);
	rb_name(&want_mx, "mx.example.");
	len = wire_rr_canon_write(&rr, NULL, 0, out, sizeof(out));
	is_mem(out, len, want_mx.d, want_mx.n,
	       "MX at the root: RDATA name lowercased in the output");
	ok(memcmp(mx.d + 2, "\x02MX", 3) == 0, "  but not in the record");

	rr = (struct wire_rr){.owner = (const uint8_t *)"",
			      .type = 10,
			      .rclass = 1,
			      .ttl = 5,
			      .rdlen = 0,
			      .rdata = NULL};
	len = wire_rr_canon_write(&rr, NULL, 5, out, 11);
	is_mem(out, len, "\x00\x00\x0a\x00\x01\x00\x00\x00\x05\x00\x00", 11,
	       "empty RDATA, NULL rdata pointer");
}

/* --- canonical order --- */

static void test_canon_sort(void)
{
	static const uint8_t r12[] = {1, 2}, r1[] = {1}, r2[] = {2};
	static const uint8_t r7f[] = {0x7f}, r80[] = {0x80};
	struct wire_rr rrs[8];
	size_t n;

	ok(wire_rdata_canon_cmp(r1, 1, r12, 2) < 0, "01 < 01 02");
	ok(wire_rdata_canon_cmp(r12, 2, r1, 1) > 0, "01 02 > 01");
	ok(wire_rdata_canon_cmp(r12, 2, r2, 1) < 0, "01 02 < 02");
	ok(wire_rdata_canon_cmp(r12, 2, r12, 2) == 0, "01 02 = 01 02");
	ok(wire_rdata_canon_cmp(NULL, 0, r1, 1) < 0, "empty < 01");
	ok(wire_rdata_canon_cmp(NULL, 0, NULL, 0) == 0, "empty = empty");
	ok(wire_rdata_canon_cmp(r80, 1, r7f, 1) > 0, "80 > 7f (unsigned)");

	memset(rrs, 0, sizeof(rrs));
	rrs[0] = (struct wire_rr){.ttl = 0, .rdata = r12, .rdlen = 2};
	rrs[1] = (struct wire_rr){.ttl = 1, .rdata = r1, .rdlen = 1};
	rrs[2] = (struct wire_rr){.ttl = 2, .rdata = r2, .rdlen = 1};
	n = wire_rrset_canon_sort(rrs, 3);
	is_int(n, 3, "{01 02, 01, 02}: three records");
	ok(rrs[0].rdata == r1 && rrs[1].rdata == r12 && rrs[2].rdata == r2,
	   "  ordered 01 < 01 02 < 02");
	ok(rrs[0].ttl == 1 && rrs[1].ttl == 0 && rrs[2].ttl == 2,
	   "  whole records move");

	rrs[0] = (struct wire_rr){.rdata = r2, .rdlen = 1};
	rrs[1] = (struct wire_rr){.rdata = r1, .rdlen = 1};
	rrs[2] = (struct wire_rr){.rdata = (const uint8_t *)"\x02", .rdlen = 1};
	rrs[3] = (struct wire_rr){.rdata = r12, .rdlen = 2};
	rrs[4] = (struct wire_rr){.rdata = (const uint8_t *)"\x01", .rdlen = 1};
	rrs[5] = (struct wire_rr){.rdata = NULL, .rdlen = 0};
	rrs[6] = (struct wire_rr){.rdata = r1, .rdlen = 1};
	n = wire_rrset_canon_sort(rrs, 7);
	is_int(n, 4, "7 records with 3 duplicates: 4 left");
	ok(n == 4 && rrs[0].rdlen == 0 &&
		   wire_rdata_canon_cmp(rrs[1].rdata, rrs[1].rdlen, r1, 1) ==
			   0 &&
		   wire_rdata_canon_cmp(rrs[2].rdata, rrs[2].rdlen, r12, 2) ==
			   0 &&
		   wire_rdata_canon_cmp(rrs[3].rdata, rrs[3].rdlen, r2, 1) == 0,
	   "  empty < 01 < 01 02 < 02");

	rrs[0] = (struct wire_rr){.rdata = r1, .rdlen = 1};
	rrs[1] = (struct wire_rr){.rdata = r1, .rdlen = 1};
	rrs[2] = (struct wire_rr){.rdata = r1, .rdlen = 1};
	is_int(wire_rrset_canon_sort(rrs, 3), 1, "three equal records: 1");
	is_int(wire_rrset_canon_sort(rrs, 1), 1, "one record");
	is_int(wire_rrset_canon_sort(NULL, 0), 0, "no records");
}

/* --- unpacking from a message --- */

/* Header, then the question example.com. A IN: the name is at 12. */
static void msg_start(struct rb *m)
{
	rb_reset(m);
	rb_hex(m, "1234 8180 0001 0001 0000 0000");
	rb_name(m, "example.com.");
	rb_u16(m, WIRE_TYPE_A);
	rb_u16(m, WIRE_CLASS_IN);
}

/* An answer record owned by the question name; returns the offset of its
 * RDLENGTH (RDATA follows at +2). */
static size_t msg_rr(struct rb *m, uint16_t type)
{
	size_t off;

	rb_ptr(m, 12);
	rb_u16(m, type);
	rb_u16(m, WIRE_CLASS_IN);
	rb_u32(m, 300);
	off = m->n;
	rb_u16(m, 0);
	return off;
}

/* Sets RDLENGTH to what follows it; returns it. */
static size_t msg_rr_end(struct rb *m, size_t off)
{
	size_t rdlen = m->n - off - 2;

	m->d[off] = (uint8_t)(rdlen >> 8);
	m->d[off + 1] = (uint8_t)rdlen;
	return rdlen;
}

static int unpack(uint16_t type, const struct rb *m, size_t off, size_t rdlen,
		  uint8_t *out, size_t outcap)
{
	return wire_rdata_unpack(type, m->d, m->n, off + 2, rdlen, out, outcap);
}

static void test_unpack_names(void)
{
	uint8_t out[DT_RDATA_MAXLEN];
	struct rb m, w;
	size_t off, rdlen, p1;
	int len;

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_MX);
	rb_u16(&m, 10);
	rb_name_nz(&m, "mail", false);
	rb_ptr(&m, 12);
	rdlen = msg_rr_end(&m, off);
	rb_reset(&w);
	rb_u16(&w, 10);
	rb_name(&w, "mail.example.com.");
	len = unpack(WIRE_TYPE_MX, &m, off, rdlen, out, sizeof(out));
	is_mem(out, len, w.d, w.n, "MX exchange decompressed (pointer to 12)");
	is_int(unpack(WIRE_TYPE_MX, &m, off, rdlen, out, w.n - 1), DT_ESPACE,
	       "MX: output one octet short");
	is_int(unpack(WIRE_TYPE_MX, &m, off, rdlen, out, w.n), (int)w.n,
	       "MX: exact output fit");
	is_int(unpack(WIRE_TYPE_MX, &m, off, rdlen - 3, out, sizeof(out)),
	       DT_ETRUNC, "MX: name runs past RDLENGTH (in a label)");
	is_int(unpack(WIRE_TYPE_MX, &m, off, rdlen - 1, out, sizeof(out)),
	       DT_ETRUNC, "MX: name runs past RDLENGTH (half a pointer)");
	is_int(unpack(WIRE_TYPE_MX, &m, off, 2, out, sizeof(out)), DT_ETRUNC,
	       "MX: RDLENGTH 2, no name");
	is_int(wire_rdata_unpack(WIRE_TYPE_MX, m.d, m.n - 1, off + 2, rdlen,
				 out, sizeof(out)),
	       DT_ETRUNC, "MX: RDATA past the message end");
	is_int(wire_rdata_unpack(WIRE_TYPE_MX, m.d, m.n, m.n + 1, 0, out,
				 sizeof(out)),
	       DT_ETRUNC, "position past the message end");
	rb_u8(&m, 0);
	is_int(unpack(WIRE_TYPE_MX, &m, off, rdlen + 1, out, sizeof(out)),
	       DT_ETRAIL, "MX: an octet after the name within RDLENGTH");

	/* SOA: RNAME points back into MNAME, inside the same RDATA. */
	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_SOA);
	p1 = m.n;
	rb_name_nz(&m, "NS1", false);
	rb_ptr(&m, 12);
	rb_name_nz(&m, "hostmaster", false);
	rb_ptr(&m, (unsigned int)p1);
	rb_hex(&m, "78a5b2c1 00001c20 00000e10 00127500 0000012c");
	rdlen = msg_rr_end(&m, off);
	rb_reset(&w);
	rb_name(&w, "NS1.example.com.");
	rb_name(&w, "hostmaster.NS1.example.com.");
	rb_hex(&w, "78a5b2c1 00001c20 00000e10 00127500 0000012c");
	len = unpack(WIRE_TYPE_SOA, &m, off, rdlen, out, sizeof(out));
	is_mem(out, len, w.d, w.n,
	       "SOA: both names decompressed, case kept, chain of pointers");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_RP);
	rb_name_nz(&m, "admin", false);
	rb_ptr(&m, 12);
	rb_ptr(&m, 12);
	rdlen = msg_rr_end(&m, off);
	rb_reset(&w);
	rb_name(&w, "admin.example.com.");
	rb_name(&w, "example.com.");
	len = unpack(WIRE_TYPE_RP, &m, off, rdlen, out, sizeof(out));
	is_mem(out, len, w.d, w.n, "RP: names decompressed (RFC 3597 §4)");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_RRSIG);
	rb_hex(&m, "0001 0d 02 00000e10 4c88b737 4c63c737 d960");
	rb_ptr(&m, 12);
	rb_fill(&m, 0x5c, 64);
	rdlen = msg_rr_end(&m, off);
	rb_reset(&w);
	rb_hex(&w, "0001 0d 02 00000e10 4c88b737 4c63c737 d960");
	rb_name(&w, "example.com.");
	rb_fill(&w, 0x5c, 64);
	len = unpack(WIRE_TYPE_RRSIG, &m, off, rdlen, out, sizeof(out));
	is_mem(out, len, w.d, w.n, "RRSIG: signer decompressed");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_NS);
	rb_name(&m, "ns.Example.ORG.");
	rdlen = msg_rr_end(&m, off);
	rb_reset(&w);
	rb_name(&w, "ns.Example.ORG.");
	len = unpack(WIRE_TYPE_NS, &m, off, rdlen, out, sizeof(out));
	is_mem(out, len, w.d, w.n, "NS: uncompressed name copied");
}

static void test_unpack_pointers(void)
{
	uint8_t out[DT_RDATA_MAXLEN];
	struct rb m;
	size_t off, rdlen;

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_CNAME);
	rb_ptr(&m, (unsigned int)(m.n + 2));
	rb_name(&m, "later.example.");
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_CNAME, &m, off, 2, out, sizeof(out)), DT_EPTR,
	       "CNAME: forward pointer");
	(void)rdlen;

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_CNAME);
	rb_ptr(&m, (unsigned int)(m.n));
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_CNAME, &m, off, rdlen, out, sizeof(out)),
	       DT_EPTR, "CNAME: pointer to itself");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_CNAME);
	rb_ptr(&m, 4);
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_CNAME, &m, off, rdlen, out, sizeof(out)),
	       DT_EPTR, "CNAME: pointer into the header");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_NSEC);
	rb_ptr(&m, 12);
	rb_hex(&m, "00 01 40");
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_NSEC, &m, off, rdlen, out, sizeof(out)),
	       DT_EPTR, "NSEC: compressed next name refused");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_NSEC);
	rb_name(&m, "Next.EXAMPLE.com.");
	rb_hex(&m, "00 06 40 00 00 00 00 03");
	rdlen = msg_rr_end(&m, off);
	is_mem(out, unpack(WIRE_TYPE_NSEC, &m, off, rdlen, out, sizeof(out)),
	       m.d + off + 2, rdlen, "NSEC: copied as is, case kept");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_NSEC);
	rb_name(&m, "next.example.com.");
	rb_hex(&m, "01 01 40 00 01 40");
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_NSEC, &m, off, rdlen, out, sizeof(out)),
	       DT_EBITMAP, "NSEC: descending windows refused");
}

static void test_unpack_other(void)
{
	uint8_t out[DT_RDATA_MAXLEN];
	struct rb m;
	size_t off, rdlen;

	msg_start(&m);
	off = msg_rr(&m, 999);
	rb_hex(&m, "c0 0c 41 42");
	rdlen = msg_rr_end(&m, off);
	is_mem(out, unpack(999, &m, off, rdlen, out, sizeof(out)),
	       "\xc0\x0c\x41\x42", 4, "unknown type copied as is");
	is_int(unpack(999, &m, off, rdlen, out, 3), DT_ESPACE,
	       "unknown type: output too small");
	is_int(unpack(999, &m, off, 0, out, 0), 0, "unknown type, empty");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_A);
	rb_hex(&m, "c0 00 02 01 ff");
	is_mem(out, unpack(WIRE_TYPE_A, &m, off, 4, out, sizeof(out)),
	       "\xc0\x00\x02\x01", 4, "A copied");
	is_int(unpack(WIRE_TYPE_A, &m, off, 5, out, sizeof(out)), DT_ETRAIL,
	       "A with RDLENGTH 5");
	is_int(unpack(WIRE_TYPE_A, &m, off, 3, out, sizeof(out)), DT_ETRUNC,
	       "A with RDLENGTH 3");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_NSEC3);
	rb_hex(&m, "01 00 000a 00 00");
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_NSEC3, &m, off, rdlen, out, sizeof(out)),
	       DT_ERDATA, "NSEC3 hash length 0: output is checked");

	msg_start(&m);
	off = msg_rr(&m, WIRE_TYPE_DS);
	rb_hex(&m, "d960 0d 02");
	rdlen = msg_rr_end(&m, off);
	is_int(unpack(WIRE_TYPE_DS, &m, off, rdlen, out, sizeof(out)),
	       DT_ERDATA, "DS with empty digest");
}

/*
 * A 255-octet name at 12 and an RRSIG whose signer points to it: the
 * RDATA grows by 253 octets, past 65535 with a large enough signature.
 */
static int unpack_big_rrsig(size_t siglen, uint8_t *out, size_t outcap)
{
	size_t rdlen = 18 + 2 + siglen, msglen = 12 + 255 + rdlen, i;
	uint8_t *msg = calloc(1, msglen), *p;
	int r;

	p = msg + 12;
	for (i = 0; i < 4; i++) {
		*p = i < 3 ? 63 : 61;
		memset(p + 1, 'a', *p);
		p += 1 + *p;
	}
	*p++ = 0;
	memcpy(p, "\x00\x01\x0d\x05\x00\x00\x0e\x10", 8);
	p[18] = 0xc0;
	p[19] = 12;
	memset(p + 20, 0x33, siglen);
	r = wire_rdata_unpack(WIRE_TYPE_RRSIG, msg, msglen, 12 + 255, rdlen,
			      out, outcap);
	free(msg);
	return r;
}

static void test_unpack_limits(void)
{
	uint8_t *out = malloc(DT_RDATA_MAXLEN + 1000);
	uint8_t *big = calloc(1, DT_RDATA_MAXLEN + 1);

	is_int(unpack_big_rrsig(65262, out, DT_RDATA_MAXLEN), DT_RDATA_MAXLEN,
	       "RRSIG decompressed to exactly 65535 octets");
	is_int(unpack_big_rrsig(65263, out, DT_RDATA_MAXLEN + 1000), DT_ERDATA,
	       "RRSIG decompressed to 65536 octets: refused");
	is_int(unpack_big_rrsig(65263, out, 100), DT_ESPACE,
	       "  (the output space runs out first with a small buffer)");
	is_int(unpack_big_rrsig(100, out, 373), 373,
	       "small RRSIG with a 255-octet signer");
	is_int(wire_rdata_unpack(999, big, DT_RDATA_MAXLEN + 1, 0,
				 DT_RDATA_MAXLEN + 1, out,
				 DT_RDATA_MAXLEN + 1000),
	       DT_ERDATA, "opaque RDATA of 65536 octets");
	free(big);
	free(out);
}

int main(void)
{
	test_type_mnemonics();
	test_type_generic();
	test_class_mnemonics();
	test_rdesc();
	test_check_samples();
	test_check_rest_fields();
	test_check_nsec3();
	test_check_names();
	test_check_strings();
	test_check_opaque();
	test_bitmap_check();
	test_bitmap_build();
	test_keytag();
	test_canonicalize();
	test_canon_write();
	test_canon_sort();
	test_unpack_names();
	test_unpack_pointers();
	test_unpack_other();
	test_unpack_limits();
	return done_testing();
}
