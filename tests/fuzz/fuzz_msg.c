/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the message parser and builder (src/wire/msg.c,
 * src/wire/build.c). Each input is parsed with and without
 * WIRE_PARSE_TRUNC_OK. A message that parses is checked for consistency,
 * its EDNS options are walked, and it is rebuilt with the builder; the
 * rebuilt message must parse again to the same question and records.
 * Names are compared ignoring ASCII case where the builder may have
 * compressed them, since compression matches names regardless of case.
 * Any difference abort()s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t rebuilt[DT_MSG_MAXLEN];

static void fail(const char *what, int err)
{
	fprintf(stderr, "fuzz_msg: %s (%s)\n", what, errcode_str(err));
	abort();
}

/* Options must walk to exactly their length; EDE must agree. */
static void check_options(const struct wire_edns *edns)
{
	const uint8_t *data, *ede = NULL;
	const char *text;
	uint16_t code, len, ede_len = 0;
	size_t pos = 0, textlen;
	int ret;

	while (wire_edns_opt_next(edns, &pos, &code, &data, &len) == 1) {
		if (code == WIRE_OPT_EDE && !ede) {
			ede = data;
			ede_len = len;
		}
	}
	if (pos != edns->optlen)
		fail("options do not fill the OPT RDATA", 0);
	ret = wire_edns_ede(edns, &code, &text, &textlen);
	if (ret != (ede ? (ede_len < 2 ? DT_EOPT : 1) : 0))
		fail("wire_edns_ede disagrees with the options", ret);
	if (ret == 1 && ((const uint8_t *)text != ede + 2 ||
			 textlen != ede_len - 2u))
		fail("EDE text misplaced", 0);
}

/* Every record is checked, uncompressed data; counts agree. */
static void check_msg(const struct wire_msg *m)
{
	size_t n[WIRE_SEC_COUNT] = { m->hdr.ancount, m->hdr.nscount,
				     m->hdr.arcount - (size_t)m->edns.present };

	if (m->has_question != (m->hdr.qdcount == 1) ||
	    (m->has_question &&
	     wire_dname_check(m->qname, m->qname + DT_NAME_MAXLEN) < 0))
		fail("bad question", 0);
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		if (m->count[s] != n[s])
			fail("header count differs from records", 0);
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			int ret = wire_dname_check(rr->owner,
						   rr->owner + DT_NAME_MAXLEN);

			if (ret < 0)
				fail("bad owner", ret);
			ret = wire_rdata_check(rr->type, rr->rdata, rr->rdlen);
			if (ret < 0)
				fail("parsed RDATA fails its check", ret);
		}
	}
	if (m->edns.present)
		check_options(&m->edns);
}

/* Rebuilds m in cap octets; *ret_full tells whether something did not
 * fit, when only a prefix of the message was written. */
static size_t rebuild(const struct wire_msg *m, size_t cap, bool *ret_full)
{
	struct wire_builder b;
	int ret;

	*ret_full = false;
	if (wire_build_init(&b, rebuilt, cap, m->hdr.id, m->hdr.flags) != 0)
		fail("init", 0);
	if (m->has_question) {
		ret = wire_build_question(&b, m->qname, m->qtype, m->qclass);
		if (ret == DT_ESPACE && b.len == DT_MSG_HDRLEN)
			*ret_full = true;
		else if (ret != 0)
			fail("question", ret);
	}
	for (int s = 0; s < WIRE_SEC_COUNT && !*ret_full; s++) {
		for (size_t i = 0; i < m->count[s] && !*ret_full; i++) {
			ret = wire_build_rr(&b, (enum wire_section)s,
					    &m->sec[s][i]);
			if (ret == DT_ESPACE)
				*ret_full = true;
			else if (ret != 0)
				fail("record", ret);
		}
	}
	if (m->edns.present && !*ret_full) {
		ret = wire_build_opt(&b, m->edns.udp_size, m->edns.ext_rcode,
				     m->edns.version, m->edns.flags,
				     m->edns.opts, m->edns.optlen);
		if (ret == DT_ESPACE)
			*ret_full = true;
		else if (ret != 0)
			fail("OPT", ret);
	}
	return wire_build_finish(&b);
}

/* RDATA equal, or equal once canonical (names compressed against a name
 * in other case come back in that case). */
static bool rdata_same(const struct wire_rr *a, const struct wire_rr *b)
{
	static uint8_t ca[DT_RDATA_MAXLEN], cb[DT_RDATA_MAXLEN];

	if (a->rdlen != b->rdlen)
		return false;
	if (a->rdlen == 0 || memcmp(a->rdata, b->rdata, a->rdlen) == 0)
		return true;
	memcpy(ca, a->rdata, a->rdlen);
	memcpy(cb, b->rdata, b->rdlen);
	wire_rdata_canonicalize(a->type, ca, a->rdlen);
	wire_rdata_canonicalize(b->type, cb, b->rdlen);
	return memcmp(ca, cb, a->rdlen) == 0;
}

static bool rr_same(const struct wire_rr *a, const struct wire_rr *b)
{
	return wire_dname_equal(a->owner, b->owner) && a->type == b->type &&
	       a->rclass == b->rclass && a->ttl == b->ttl && rdata_same(a, b);
}

static void compare(const struct wire_msg *m, const struct wire_msg *r,
		    bool full)
{
	if (r->hdr.id != m->hdr.id || r->hdr.flags != m->hdr.flags ||
	    r->truncated)
		fail("header differs", 0);
	if (r->has_question != m->has_question &&
	    !(full && !r->has_question && !r->hdr.ancount && !r->hdr.nscount &&
	      !r->hdr.arcount))
		fail("question lost", 0);
	if (r->has_question &&
	    (wire_dname_len(r->qname) != wire_dname_len(m->qname) ||
	     memcmp(r->qname, m->qname, wire_dname_len(m->qname)) != 0 ||
	     r->qtype != m->qtype || r->qclass != m->qclass))
		fail("question differs", 0);
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		if (full ? r->count[s] > m->count[s]
			 : r->count[s] != m->count[s])
			fail("record count differs", 0);
		for (size_t i = 0; i < r->count[s]; i++)
			if (!rr_same(&m->sec[s][i], &r->sec[s][i]))
				fail("record differs", 0);
	}
	if (full)
		return;
	if (r->rcode != m->rcode || r->edns.present != m->edns.present ||
	    r->edns.udp_size != m->edns.udp_size ||
	    r->edns.version != m->edns.version ||
	    r->edns.flags != m->edns.flags ||
	    r->edns.optlen != m->edns.optlen ||
	    (m->edns.optlen &&
	     memcmp(r->edns.opts, m->edns.opts, m->edns.optlen) != 0))
		fail("EDNS differs", 0);
}

/* The rebuilt message in rebuilt[] parses to the same as m. */
static void check_rebuilt(const struct wire_msg *m, size_t len, bool full)
{
	struct wire_msg *r;
	int err;

	r = wire_msg_parse(rebuilt, len, 0, &err);
	if (!r)
		fail("rebuilt message does not parse", err);
	check_msg(r);
	compare(m, r, full);
	wire_msg_free(r);
}

static void roundtrip(const uint8_t *data, size_t size, unsigned flags)
{
	struct wire_msg *m;
	bool full;
	size_t len;
	int err;

	m = wire_msg_parse(data, size, flags, &err);
	if (!m) {
		if (err >= 0)
			fail("NULL without an error", err);
		return;
	}
	if (m->rawlen != size || memcmp(m->raw, data, size) != 0)
		fail("raw copy differs", 0);
	check_msg(m);
	len = rebuild(m, sizeof(rebuilt), &full);
	check_rebuilt(m, len, full);
	/* Again in a buffer too small for all of it, to exercise rollback:
	 * what was written must still parse as a prefix. */
	if (len > DT_MSG_HDRLEN) {
		len = rebuild(m, DT_MSG_HDRLEN + (len - DT_MSG_HDRLEN) *
						    data[size - 1] / 256,
			      &full);
		check_rebuilt(m, len, full);
	}
	wire_msg_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	roundtrip(data, size, 0);
	roundtrip(data, size, WIRE_PARSE_TRUNC_OK);
	return 0;
}
