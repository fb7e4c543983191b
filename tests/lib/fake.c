/* SPDX-License-Identifier: MIT */
/*
 * The fake daemon. The first label of the question's name picks what it
 * does (the rest of the name is free, so "secure.test." and
 * "secure.example." behave alike):
 *
 *   secure     NOERROR, AD, status secure: A 192.0.2.1 and 192.0.2.11,
 *              AAAA 2001:db8::1, TXT "secure", SSHFP 4 2 <32 octets>;
 *              _443._tcp.secure TLSA 3 1 1 <32 octets>
 *   insecure   the same data for A/AAAA (192.0.2.2, 2001:db8::2), status
 *              insecure, no AD
 *   bogus      SERVFAIL, EDE 6 "fake: RRSIG over bogus/A does not
 *              verify", status bogus; with CD=1 NOERROR and A 192.0.2.3
 *   halfbogus  A secure (192.0.2.4), AAAA bogus
 *   mixed      A secure (192.0.2.5), AAAA insecure (2001:db8::5)
 *   nx         NXDOMAIN, secure, SOA in the authority section
 *   nodata     NOERROR without records, secure, SOA
 *   only4      A 192.0.2.6 only (AAAA NODATA), secure
 *   only6      AAAA 2001:db8::6 only (A NODATA), secure
 *   cname      CNAME to target.cname.test., whose A 192.0.2.7 and AAAA
 *              2001:db8::7 follow; secure
 *   cached     as secure, with the status option's "from the cache" bit
 *   indet      SERVFAIL, EDE 22 "fake: no reachable authority", status
 *              indeterminate
 *   refused    REFUSED, status none
 *   big        300 A records 10.0.x.y (a frame over 4 KiB), secure
 *   reorder    as secure, but the answer waits for a second question on
 *              the connection and the two go out in reverse order
 *   silent     no answer
 *   close      the connection is closed without an answer
 *   cut        a frame announcing 100 octets, 20 sent, then closed
 *   garbage    a frame of 40 octets of noise
 *   short      a frame of 5 octets
 *   wrongid    an answer with another ID
 *   wrongname  an answer to another question
 *   badstatus  a status option of version 2
 *   noad       status secure without AD
 *   version    (CH TXT version.dnstrust.) "dnstrustd 0.1.0 (fake)"
 *
 * Hostile answers, all secure with AD (a daemon that let an upstream's
 * additions through): the genuine records are those of "secure"; the
 * injected ones are owned by or point to evil.test. and carry 10.66.0.9,
 * 2001:db8:66::9, or 32 octets of 0xee as TLSA/SSHFP data (see
 * fake_evil):
 *
 *   ibeside    genuine, then CNAME evil.test. and evil's records
 *   ibefore    CNAME evil.test. and evil's records, then genuine
 *   ioff       evil's records (off the chain), then genuine
 *   iclass     a CNAME and the type asked of class CH at the name, genuine
 *   icase      genuine, then a CNAME at the name in upper case
 *   idname     a DNAME test. -> evil.test. without its CNAME, its target's
 *              records, genuine
 *   idnamecn   a DNAME test. -> good.test. and a CNAME to evil.test.
 *   iloop      a CNAME loop through loop2.test.
 *   itypes     genuine and every other type of evil data at the name
 *   isect      genuine; CNAMEs and evil data in authority and additional
 *   itwo       two CNAMEs at the name (good.test. and evil.test.)
 *   isplit     evil's records, a CNAME to evil, genuine at evil
 *   ilong      a chain of 13 CNAMEs c1..c13.test. ending in genuine data
 *   inx        genuine, RCODE NXDOMAIN
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/protocol.h"
#include "fake.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define MAX_CLIENTS 32
#define OUTCAP	    (2 + 65535)

struct client {
	int fd;
	uint8_t in[2 + 65535];
	size_t inlen;
	unsigned answered;
	uint8_t held[2048]; /* a held answer (reorder), framed */
	size_t heldlen;
};

struct fake {
	int lfd;
	int stop[2];
	pthread_t thread;
	pthread_mutex_t lock;
	struct fake_seen seen;
	bool one_per_conn;
	struct client *cl[MAX_CLIENTS];
};

/* What to do with a question. */
enum act { ANSWER, SILENT, CLOSE, RAW, HOLD };

struct reply {
	enum act act;
	uint8_t buf[OUTCAP]; /* framed */
	size_t len;
	size_t close_after; /* RAW: send this many octets, then close */
};

static const uint8_t fp32[32] = {
	0x5a, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
	0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

static void put_rr(struct wire_builder *b, enum wire_section sec,
		   const uint8_t *owner, uint16_t type, const void *rdata,
		   uint16_t rdlen)
{
	struct wire_rr rr = {
		.owner = owner,
		.type = type,
		.rclass = WIRE_CLASS_IN,
		.ttl = 300,
		.rdlen = rdlen,
		.rdata = rdata,
	};
	wire_build_rr(b, sec, &rr);
}

static void put_a(struct wire_builder *b, const uint8_t *owner, uint8_t last)
{
	uint8_t a[4] = {192, 0, 2, last};

	put_rr(b, WIRE_SEC_ANSWER, owner, WIRE_TYPE_A, a, 4);
}

static void put_aaaa(struct wire_builder *b, const uint8_t *owner, uint8_t last)
{
	uint8_t a[16] = {0x20, 0x01, 0x0d, 0xb8};

	a[15] = last;
	put_rr(b, WIRE_SEC_ANSWER, owner, WIRE_TYPE_AAAA, a, 16);
}

static void put_soa(struct wire_builder *b, const uint8_t *owner)
{
	uint8_t soa[2 + 20] = {0, 0}; /* mname ".", rname ".", 5 numbers */

	soa[5] = 1;
	put_rr(b, WIRE_SEC_AUTHORITY,
	       wire_dname_parent(owner) ? wire_dname_parent(owner) : owner,
	       WIRE_TYPE_SOA, soa, sizeof(soa));
}

static bool label_is(const uint8_t *name, const char *label)
{
	size_t l = strlen(label);

	return name[0] == l &&
	       strncasecmp((const char *)name + 1, label, l) == 0;
}

/* The first label picks the case; for _443._tcp.X it is X's. */
static const uint8_t *case_label(const uint8_t *name)
{
	while (name[0] && name[1] == '_')
		name += name[0] + 1;
	return name;
}

static void finish(struct reply *r, struct wire_builder *b, uint8_t status,
		   uint16_t pflags, int ede, const char *text, uint8_t version)
{
	uint8_t opts[512], st[4] = {version, status, (uint8_t)(pflags >> 8),
				    (uint8_t)pflags};
	size_t olen = 0;

	if (ede >= 0)
		wire_opt_put_ede(opts, sizeof(opts), &olen, (uint16_t)ede,
				 text);
	wire_opt_put(opts, sizeof(opts), &olen, DT_PROTO_OPT_STATUS, st, 4);
	wire_build_opt(b, 1232, 0, 0, 0, opts, olen);
	size_t len = wire_build_finish(b);
	r->buf[0] = (uint8_t)(len >> 8);
	r->buf[1] = (uint8_t)len;
	r->len = len + 2;
}

/* The records of the data cases. */
static void data(struct wire_builder *b, const struct wire_msg *q,
		 uint8_t a_last, uint8_t aaaa_last)
{
	static const uint8_t txt[] = "\6secure";
	uint8_t tlsa[3 + 32] = {3, 1, 1}, sshfp[2 + 32] = {4, 2};

	memcpy(tlsa + 3, fp32, 32);
	memcpy(sshfp + 2, fp32, 32);
	switch (q->qtype) {
	case WIRE_TYPE_A:
		put_a(b, q->qname, a_last);
		if (a_last == 1)
			put_a(b, q->qname, 11);
		break;
	case WIRE_TYPE_AAAA: put_aaaa(b, q->qname, aaaa_last); break;
	case WIRE_TYPE_TXT:
		put_rr(b, WIRE_SEC_ANSWER, q->qname, WIRE_TYPE_TXT, txt, 7);
		break;
	case WIRE_TYPE_TLSA:
		put_rr(b, WIRE_SEC_ANSWER, q->qname, WIRE_TYPE_TLSA, tlsa,
		       sizeof(tlsa));
		break;
	case WIRE_TYPE_SSHFP:
		put_rr(b, WIRE_SEC_ANSWER, q->qname, WIRE_TYPE_SSHFP, sshfp,
		       sizeof(sshfp));
		break;
	default: put_soa(b, q->qname);
	}
}

static void start(struct wire_builder *b, struct reply *r,
		  const struct wire_msg *q, uint16_t flags)
{
	wire_build_init(b, r->buf + 2, OUTCAP - 2, q->hdr.id,
			WIRE_FLAG_QR | WIRE_FLAG_RA |
				(q->hdr.flags & (WIRE_FLAG_RD | WIRE_FLAG_CD)) |
				flags);
	wire_build_question(b, q->qname, q->qtype, q->qclass);
}

static void raw(struct reply *r, const uint8_t *bytes, size_t len, size_t send)
{
	memcpy(r->buf, bytes, len);
	r->len = len;
	r->act = RAW;
	r->close_after = send;
}

static bool broken(const uint8_t *l, const struct wire_msg *q, struct reply *r)
{
	uint8_t noise[42] = {0, 40};

	if (label_is(l, "silent")) {
		r->act = SILENT;
	} else if (label_is(l, "close")) {
		r->act = CLOSE;
	} else if (label_is(l, "cut")) {
		uint8_t cut[22] = {0,
				   100,
				   (uint8_t)(q->hdr.id >> 8),
				   (uint8_t)q->hdr.id,
				   0x81,
				   0x80};
		raw(r, cut, sizeof(cut), sizeof(cut));
	} else if (label_is(l, "garbage")) {
		for (size_t i = 2; i < sizeof(noise); i++)
			noise[i] = (uint8_t)(i * 37 + 11);
		noise[2] = (uint8_t)(q->hdr.id >> 8);
		noise[3] = (uint8_t)q->hdr.id;
		raw(r, noise, sizeof(noise), 0);
	} else if (label_is(l, "short")) {
		uint8_t s[7] = {0, 5, (uint8_t)(q->hdr.id >> 8),
				(uint8_t)q->hdr.id, 0x81};
		raw(r, s, sizeof(s), 0);
	} else {
		return false;
	}
	return true;
}

static void version(struct reply *r, const struct wire_msg *q)
{
	static const char v[] = "\026dnstrustd 0.1.0 (fake)";
	struct wire_builder b;
	struct wire_rr rr = {.owner = q->qname,
			     .type = WIRE_TYPE_TXT,
			     .rclass = WIRE_CLASS_CH,
			     .rdlen = sizeof(v) - 1,
			     .rdata = (const uint8_t *)v};

	start(&b, r, q, WIRE_FLAG_AA);
	wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	size_t len = wire_build_finish(&b);
	r->buf[0] = (uint8_t)(len >> 8);
	r->buf[1] = (uint8_t)len;
	r->len = len + 2;
}

static void big(struct wire_builder *b, const struct wire_msg *q)
{
	for (int i = 0; i < 300; i++) {
		uint8_t a[4] = {10, 0, (uint8_t)(i >> 8), (uint8_t)i};
		put_rr(b, WIRE_SEC_ANSWER, q->qname, WIRE_TYPE_A, a, 4);
	}
}

static void cname(struct wire_builder *b, const struct wire_msg *q)
{
	uint8_t target[DT_NAME_MAXLEN];
	int tl = wire_dname_from_str("target.cname.test.", 18, NULL, target);

	put_rr(b, WIRE_SEC_ANSWER, q->qname, WIRE_TYPE_CNAME, target,
	       (uint16_t)tl);
	if (q->qtype == WIRE_TYPE_A)
		put_a(b, target, 7);
	else if (q->qtype == WIRE_TYPE_AAAA)
		put_aaaa(b, target, 7);
}

/* A secure or insecure answer with data (or NODATA). */
static void good(struct reply *r, const struct wire_msg *q, bool secure,
		 uint8_t a, uint8_t aaaa, uint16_t pflags)
{
	struct wire_builder b;

	start(&b, r, q, secure ? WIRE_FLAG_AD : 0);
	data(&b, q, a, aaaa);
	finish(r, &b, secure ? 1 : 2, pflags, -1, NULL, 1);
}

static void bogus(struct reply *r, const struct wire_msg *q)
{
	struct wire_builder b;
	bool cd = q->hdr.flags & WIRE_FLAG_CD;

	start(&b, r, q, cd ? 0 : WIRE_RCODE_SERVFAIL);
	if (cd)
		data(&b, q, 3, 3);
	finish(r, &b, 3, 0, 6, "fake: RRSIG over bogus/A does not verify", 1);
}

static void plain(struct reply *r, const struct wire_msg *q, uint16_t rcode,
		  uint8_t status, uint16_t flags, int ede, const char *text,
		  uint8_t version_octet)
{
	struct wire_builder b;

	start(&b, r, q, rcode | flags);
	if (rcode == WIRE_RCODE_NXDOMAIN || rcode == WIRE_RCODE_NOERROR)
		put_soa(&b, q->qname);
	finish(r, &b, status, 0, ede, text, version_octet);
}

static bool data_cases(const uint8_t *l, const struct wire_msg *q,
		       struct reply *r)
{
	bool a = q->qtype == WIRE_TYPE_A;
	struct wire_builder b;

	if (label_is(l, "secure") || label_is(l, "reorder"))
		good(r, q, true, 1, 1, 0);
	else if (label_is(l, "cached"))
		good(r, q, true, 1, 1, DT_PROTO_FLAG_CACHED);
	else if (label_is(l, "insecure"))
		good(r, q, false, 2, 2, 0);
	else if (label_is(l, "bogus") || (label_is(l, "halfbogus") && !a))
		bogus(r, q);
	else if (label_is(l, "halfbogus"))
		good(r, q, true, 4, 4, 0);
	else if (label_is(l, "mixed"))
		good(r, q, a, 5, 5, 0);
	else if (label_is(l, "only4") && !a)
		plain(r, q, 0, 1, WIRE_FLAG_AD, -1, NULL, 1);
	else if (label_is(l, "only4"))
		good(r, q, true, 6, 6, 0);
	else if (label_is(l, "only6") && a)
		plain(r, q, 0, 1, WIRE_FLAG_AD, -1, NULL, 1);
	else if (label_is(l, "only6"))
		good(r, q, true, 6, 6, 0);
	else if (label_is(l, "big") || label_is(l, "cname")) {
		start(&b, r, q, WIRE_FLAG_AD);
		if (label_is(l, "big"))
			big(&b, q);
		else
			cname(&b, q);
		finish(r, &b, 1, 0, -1, NULL, 1);
	} else
		return false;
	return true;
}

/* --- hostile answers --- */

static const uint8_t evil_name[] = "\4evil\4test";
static const uint8_t good_name[] = "\4good\4test";

/* Injected records of type at owner, in section sec. */
static void put_evil(struct wire_builder *b, enum wire_section sec,
		     const uint8_t *owner, uint16_t type, uint16_t rclass)
{
	uint8_t rd[3 + 32] = {3, 1, 1}, a6[16] = {0x20, 0x01, 0x0d, 0xb8,
						  0x00, 0x66};
	uint8_t a4[4] = {10, 66, 0, 9};
	struct wire_rr rr = {.owner = owner, .type = type, .rclass = rclass,
			     .ttl = 300, .rdata = rd};

	memset(rd + 3, 0xee, 32);
	a6[15] = 9;
	switch (type) {
	case WIRE_TYPE_A: rr.rdata = a4, rr.rdlen = 4; break;
	case WIRE_TYPE_AAAA: rr.rdata = a6, rr.rdlen = 16; break;
	case WIRE_TYPE_TLSA: rr.rdlen = 35; break;
	case WIRE_TYPE_SSHFP: rr.rdata = rd + 1, rr.rdlen = 34; break;
	case WIRE_TYPE_CNAME:
	case WIRE_TYPE_DNAME:
		rr.rdata = evil_name;
		rr.rdlen = sizeof(evil_name);
		break;
	default:
		rr.rdata = evil_name; /* as TXT: "evil" "test" "" */
		rr.rdlen = sizeof(evil_name);
	}
	wire_build_rr(b, sec, &rr);
}

static void put_link(struct wire_builder *b, const uint8_t *owner,
		     uint16_t type, const uint8_t *target, uint16_t rclass)
{
	struct wire_rr rr = {.owner = owner, .type = type, .rclass = rclass,
			     .ttl = 300, .rdata = target,
			     .rdlen = (uint16_t)wire_dname_len(target)};

	wire_build_rr(b, WIRE_SEC_ANSWER, &rr);
}

/* The genuine records of q's type at owner. */
static void genuine(struct wire_builder *b, const struct wire_msg *q,
		    const uint8_t *owner)
{
	struct wire_msg at = *q;

	at.qname = owner;
	data(b, &at, 1, 1);
}

static void evil_at(struct wire_builder *b, const uint8_t *owner,
		    uint16_t type)
{
	put_evil(b, WIRE_SEC_ANSWER, owner, type, WIRE_CLASS_IN);
}

static void hostile_more(const uint8_t *l, const struct wire_msg *q,
			 struct wire_builder *b)
{
	static const uint16_t types[] = {WIRE_TYPE_A, WIRE_TYPE_AAAA,
					 WIRE_TYPE_TLSA, WIRE_TYPE_SSHFP,
					 WIRE_TYPE_TXT};
	uint8_t up[DT_NAME_MAXLEN];
	const uint8_t *name = q->qname;
	uint16_t t = q->qtype;

	if (label_is(l, "icase")) {
		genuine(b, q, name);
		wire_dname_copy(up, name);
		for (size_t i = 0; up[i]; i += up[i] + 1)
			for (size_t k = 1; k <= up[i]; k++)
				if (up[i + k] >= 'a' && up[i + k] <= 'z')
					up[i + k] -= 32;
		put_link(b, up, WIRE_TYPE_CNAME, evil_name, WIRE_CLASS_IN);
		evil_at(b, evil_name, t);
	} else if (label_is(l, "itypes")) {
		genuine(b, q, name);
		for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (types[i] != t)
				evil_at(b, name, types[i]);
	} else if (label_is(l, "isect")) {
		genuine(b, q, name);
		put_evil(b, WIRE_SEC_AUTHORITY, name, WIRE_TYPE_CNAME, 1);
		put_evil(b, WIRE_SEC_AUTHORITY, evil_name, t, 1);
		put_evil(b, WIRE_SEC_AUTHORITY, name, t, 1);
		put_evil(b, WIRE_SEC_ADDITIONAL, evil_name, t, 1);
		put_evil(b, WIRE_SEC_ADDITIONAL, name, t, 1);
	} else if (label_is(l, "itwo")) {
		put_link(b, name, WIRE_TYPE_CNAME, good_name, WIRE_CLASS_IN);
		put_link(b, name, WIRE_TYPE_CNAME, evil_name, WIRE_CLASS_IN);
		genuine(b, q, good_name);
		evil_at(b, evil_name, t);
	} else if (label_is(l, "isplit")) {
		evil_at(b, evil_name, t);
		put_link(b, name, WIRE_TYPE_CNAME, evil_name, WIRE_CLASS_IN);
		genuine(b, q, evil_name);
	}
}

/* A chain of 13 links: name -> c1.test. -> ... -> c13.test. */
static void long_chain(struct wire_builder *b, const struct wire_msg *q)
{
	uint8_t from[DT_NAME_MAXLEN], to[DT_NAME_MAXLEN];
	char text[32];

	wire_dname_copy(from, q->qname);
	for (int i = 1; i <= 13; i++) {
		int len = snprintf(text, sizeof(text), "c%d.test.", i);
		wire_dname_from_str(text, (size_t)len, NULL, to);
		put_link(b, from, WIRE_TYPE_CNAME, to, WIRE_CLASS_IN);
		wire_dname_copy(from, to);
	}
	genuine(b, q, from);
}

static void hostile_body(const uint8_t *l, const struct wire_msg *q,
			 struct wire_builder *b)
{
	static const uint8_t tld[] = "\4test", loop2[] = "\5loop2\4test";
	uint8_t syn[DT_NAME_MAXLEN];
	const uint8_t *name = q->qname;
	uint16_t t = q->qtype;

	if (label_is(l, "ibeside") || label_is(l, "ibefore")) {
		if (label_is(l, "ibeside"))
			genuine(b, q, name);
		put_link(b, name, WIRE_TYPE_CNAME, evil_name, WIRE_CLASS_IN);
		evil_at(b, evil_name, t);
		if (label_is(l, "ibefore"))
			genuine(b, q, name);
	} else if (label_is(l, "ioff")) {
		evil_at(b, evil_name, t);
		genuine(b, q, name);
	} else if (label_is(l, "iclass")) {
		put_link(b, name, WIRE_TYPE_CNAME, evil_name, WIRE_CLASS_CH);
		put_evil(b, WIRE_SEC_ANSWER, name, t, WIRE_CLASS_CH);
		evil_at(b, evil_name, t);
		genuine(b, q, name);
	} else if (label_is(l, "idname") || label_is(l, "idnamecn")) {
		bool cn = label_is(l, "idnamecn");
		put_link(b, tld, WIRE_TYPE_DNAME, cn ? good_name : evil_name,
			 WIRE_CLASS_IN);
		memcpy(syn, name, name[0] + 1u);
		memcpy(syn + name[0] + 1, evil_name, sizeof(evil_name));
		if (cn)
			put_link(b, name, WIRE_TYPE_CNAME, evil_name, 1);
		evil_at(b, cn ? evil_name : syn, t);
		if (!cn)
			genuine(b, q, name);
	} else if (label_is(l, "iloop")) {
		put_link(b, name, WIRE_TYPE_CNAME, loop2, WIRE_CLASS_IN);
		put_link(b, loop2, WIRE_TYPE_CNAME, name, WIRE_CLASS_IN);
	} else if (label_is(l, "ilong")) {
		long_chain(b, q);
	} else if (label_is(l, "inx")) {
		wire_build_set_flags(b, WIRE_RCODE_NXDOMAIN, 0);
		genuine(b, q, name);
	} else {
		hostile_more(l, q, b);
	}
}

static bool hostile(const uint8_t *l, const struct wire_msg *q,
		    struct reply *r)
{
	static const char *const cases[] = {
		"ibeside", "ibefore", "ioff", "iclass", "icase", "idname",
		"idnamecn", "iloop", "itypes", "isect", "itwo", "isplit",
		"ilong", "inx"};
	struct wire_builder b;
	size_t i = 0;

	while (i < sizeof(cases) / sizeof(cases[0]) && !label_is(l, cases[i]))
		i++;
	if (i == sizeof(cases) / sizeof(cases[0]))
		return false;
	start(&b, r, q, WIRE_FLAG_AD);
	hostile_body(l, q, &b);
	finish(r, &b, 1, 0, -1, NULL, 1);
	return true;
}

static void answer(const struct wire_msg *q, struct reply *r)
{
	const uint8_t *l = case_label(q->qname);

	r->act = ANSWER;
	if (q->qclass == WIRE_CLASS_CH && label_is(l, "version"))
		version(r, q);
	else if (broken(l, q, r) || data_cases(l, q, r) || hostile(l, q, r))
		;
	else if (label_is(l, "nx"))
		plain(r, q, WIRE_RCODE_NXDOMAIN, 1, WIRE_FLAG_AD, -1, NULL, 1);
	else if (label_is(l, "nodata"))
		plain(r, q, 0, 1, WIRE_FLAG_AD, -1, NULL, 1);
	else if (label_is(l, "indet"))
		plain(r, q, WIRE_RCODE_SERVFAIL, 4, 0, 22,
		      "fake: no reachable authority", 1);
	else if (label_is(l, "badstatus"))
		plain(r, q, 0, 2, 0, -1, NULL, 2);
	else if (label_is(l, "noad"))
		plain(r, q, 0, 1, 0, -1, NULL, 1);
	else
		plain(r, q, WIRE_RCODE_REFUSED, 0, 0, 21, "fake: refused", 1);
	if (label_is(l, "reorder"))
		r->act = HOLD;
	if (label_is(l, "wrongid")) {
		good(r, q, true, 1, 1, 0);
		r->buf[3] ^= 0x5a;
	}
	if (label_is(l, "wrongname")) {
		good(r, q, true, 1, 1, 0);
		r->buf[2 + 12 + 1] ^= 0x01; /* first letter of the name */
	}
}

/* --- the server --- */

static void note_query(struct fake *f, const struct wire_msg *q)
{
	size_t pos = 0;
	uint16_t code, len;
	const uint8_t *d;

	pthread_mutex_lock(&f->lock);
	f->seen.questions++;
	f->seen.flags = q->hdr.flags;
	f->seen.edns_flags = q->edns.present ? q->edns.flags : 0;
	f->seen.status_opt_len = -1;
	f->seen.status_opt_version = -1;
	while (wire_edns_opt_next(&q->edns, &pos, &code, &d, &len) == 1)
		if (code == DT_PROTO_OPT_STATUS) {
			f->seen.status_opt_len = len;
			f->seen.status_opt_version = len ? d[0] : -1;
		}
	pthread_mutex_unlock(&f->lock);
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One question from c: false when the connection is to be closed. */
static bool serve_one(struct fake *f, struct client *c, const uint8_t *msg,
		      size_t len)
{
	static _Thread_local struct reply r;
	struct wire_msg *q;
	int err;
	bool keep = true;

	q = wire_msg_parse(msg, len, 0, &err);
	if (!q)
		return false;
	note_query(f, q);
	pthread_mutex_lock(&f->lock);
	bool once = f->one_per_conn;
	pthread_mutex_unlock(&f->lock);
	if (once && c->answered) {
		wire_msg_free(q);
		return false;
	}
	answer(q, &r);
	wire_msg_free(q);
	switch (r.act) {
	case ANSWER: keep = write_all(c->fd, r.buf, r.len) == 0; break;
	case RAW:
		keep = write_all(c->fd, r.buf, r.len) == 0 && !r.close_after;
		break;
	case HOLD:
		if (!c->heldlen) {
			memcpy(c->held, r.buf, r.len);
			c->heldlen = r.len;
			return true;
		}
		keep = write_all(c->fd, r.buf, r.len) == 0 &&
		       write_all(c->fd, c->held, c->heldlen) == 0;
		c->heldlen = 0;
		break;
	case SILENT: break;
	case CLOSE: keep = false;
	}
	c->answered++;
	return keep;
}

/* Reads what the client sent; false when it is to be closed. */
static bool serve_client(struct fake *f, struct client *c)
{
	ssize_t n = recv(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen, 0);

	if (n <= 0)
		return false;
	c->inlen += (size_t)n;
	while (c->inlen >= 2) {
		size_t len = (size_t)(c->in[0] << 8 | c->in[1]);
		if (c->inlen < 2 + len)
			break;
		if (!serve_one(f, c, c->in + 2, len))
			return false;
		memmove(c->in, c->in + 2 + len, c->inlen - 2 - len);
		c->inlen -= 2 + len;
	}
	return true;
}

static void accept_client(struct fake *f)
{
	int fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (!f->cl[i]) {
			f->cl[i] = calloc(1, sizeof(struct client));
			if (!f->cl[i])
				break;
			f->cl[i]->fd = fd;
			pthread_mutex_lock(&f->lock);
			f->seen.accepts++;
			pthread_mutex_unlock(&f->lock);
			return;
		}
	close(fd);
}

static void drop(struct fake *f, int i)
{
	close(f->cl[i]->fd);
	free(f->cl[i]);
	f->cl[i] = NULL;
}

static void *serve(void *arg)
{
	struct fake *f = arg;
	struct pollfd p[MAX_CLIENTS + 2];

	for (;;) {
		int map[MAX_CLIENTS], n = 2;
		p[0] = (struct pollfd){.fd = f->stop[0], .events = POLLIN};
		p[1] = (struct pollfd){.fd = f->lfd, .events = POLLIN};
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (f->cl[i]) {
				map[n - 2] = i;
				p[n++] = (struct pollfd){.fd = f->cl[i]->fd,
							 .events = POLLIN};
			}
		if (poll(p, (nfds_t)n, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		if (p[1].revents)
			accept_client(f);
		for (int k = 2; k < n; k++)
			if (p[k].revents && !serve_client(f, f->cl[map[k - 2]]))
				drop(f, map[k - 2]);
	}
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (f->cl[i])
			drop(f, i);
	return NULL;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 64)) {
		close(fd);
		return -1;
	}
	return fd;
}

static struct fake *fake_new(const char *path)
{
	struct fake *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	pthread_mutex_init(&f->lock, NULL);
	f->lfd = listen_on(path);
	if (f->lfd < 0 || pipe2(f->stop, O_CLOEXEC)) {
		free(f);
		return NULL;
	}
	return f;
}

struct fake *fake_start(const char *path)
{
	struct fake *f = fake_new(path);

	if (f && pthread_create(&f->thread, NULL, serve, f)) {
		close(f->lfd);
		free(f);
		return NULL;
	}
	return f;
}

void fake_stop(struct fake *f)
{
	if (!f)
		return;
	if (write(f->stop[1], "x", 1) != 1)
		return; /* cannot stop the thread: leave it */
	pthread_join(f->thread, NULL);
	close(f->lfd);
	close(f->stop[0]);
	close(f->stop[1]);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

void fake_seen(struct fake *f, struct fake_seen *ret)
{
	pthread_mutex_lock(&f->lock);
	*ret = f->seen;
	pthread_mutex_unlock(&f->lock);
}

void fake_one_per_conn(struct fake *f, bool on)
{
	pthread_mutex_lock(&f->lock);
	f->one_per_conn = on;
	pthread_mutex_unlock(&f->lock);
}

int fake_serve_forever(const char *path)
{
	struct fake *f = fake_new(path);

	if (!f)
		return 1;
	serve(f);
	return 0;
}
