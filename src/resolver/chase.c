/* SPDX-License-Identifier: MIT */
/*
 * A response whose CNAME chain stops at a target without its data and
 * without a negative answer for it (a forwarder that is not recursive,
 * or answered the alias alone; recursing, a server that put a CNAME
 * beside the data asked for, which the iterator takes as final). The
 * target is asked, and its response joined to the first as a recursive
 * upstream would have sent them together (RFC 1034 §4.3.2 step 3a); the
 * validator then checks the joined response as any other, each RRset
 * with its own zone's keys and the proofs per zone along the chain.
 */
#include <string.h>

#include "common/limits.h"
#include "resolver/chase.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* The record of the answer section at owner with the given type, or
 * NULL. */
static const struct wire_rr *answer_rr(const struct wire_msg *m,
				       const uint8_t *owner, uint16_t type)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		if (rr->rclass == WIRE_CLASS_IN &&
		    (type == 0 ? rr->type != WIRE_TYPE_RRSIG
			       : rr->type == type) &&
		    wire_dname_equal(rr->owner, owner))
			return rr;
	}
	return NULL;
}

/* Whether the authority section holds an SOA: a negative answer for the
 * chain's end (RFC 2308 §3). NSEC and NSEC3 records alone may be the
 * proofs of the chain's own links (a wildcard CNAME, the opt-out span
 * above the target), not a denial of the end. */
static bool has_soa(const struct wire_msg *m)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++)
		if (m->sec[WIRE_SEC_AUTHORITY][i].type == WIRE_TYPE_SOA)
			return true;
	return false;
}

/* An NSEC or NSEC3 record, or an RRSIG over one. */
static bool is_proof(const struct wire_rr *rr)
{
	uint16_t t = rr->type;

	if (t == WIRE_TYPE_RRSIG && rr->rdlen >= 2)
		t = (uint16_t)(rr->rdata[0] << 8 | rr->rdata[1]);
	return t == WIRE_TYPE_NSEC || t == WIRE_TYPE_NSEC3;
}

bool chase_target(const struct wire_msg *m, const uint8_t *qname,
		  uint16_t qtype, uint8_t target[DT_NAME_MAXLEN])
{
	const uint8_t *cur = qname;
	const struct wire_rr *rr;

	if (m->rcode != WIRE_RCODE_NOERROR || qtype == WIRE_TYPE_CNAME ||
	    qtype == WIRE_TYPE_ANY ||
	    qtype == WIRE_TYPE_RRSIG || has_soa(m))
		return false;
	for (int i = 0; i < DT_VAL_CHAIN_MAX; i++) {
		rr = answer_rr(m, cur, WIRE_TYPE_CNAME);
		if (!rr)
			break;
		cur = rr->rdata;
	}
	/* Not a chain, a loop or one too long, or an end with data: the
	 * validator decides on the response as it is. */
	if (cur == qname || answer_rr(m, cur, 0))
		return false;
	wire_dname_copy(target, cur);
	return true;
}

/* Whether rr is among the first n records of sec in m. */
static bool has_rr(const struct wire_msg *m, int sec, const struct wire_rr *rr)
{
	for (size_t i = 0; i < m->count[sec]; i++) {
		const struct wire_rr *o = &m->sec[sec][i];
		if (o->type == rr->type && o->rclass == rr->rclass &&
		    o->rdlen == rr->rdlen &&
		    wire_dname_equal(o->owner, rr->owner) &&
		    memcmp(o->rdata, rr->rdata, rr->rdlen) == 0)
			return true;
	}
	return false;
}

static int copy_section(struct wire_builder *b, int sec,
			const struct wire_msg *m, const struct wire_msg *skip)
{
	int err = 0;

	for (size_t i = 0; i < m->count[sec] && err == 0; i++)
		if (!skip || !has_rr(skip, sec, &m->sec[sec][i]))
			err = wire_build_rr(b, (enum wire_section)sec,
					    &m->sec[sec][i]);
	return err;
}

int chase_join(const struct wire_msg *first, const struct wire_msg *next,
	       const uint8_t *qname, uint16_t qtype, uint8_t *out, size_t cap)
{
	struct wire_builder b;
	int err;

	err = wire_build_init(&b, out, cap, 0,
			      WIRE_FLAG_QR | WIRE_FLAG_RA |
				      (next->rcode & 0xF));
	if (err == 0)
		err = wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	if (err == 0)
		err = copy_section(&b, WIRE_SEC_ANSWER, first, NULL);
	if (err == 0)
		err = copy_section(&b, WIRE_SEC_ANSWER, next, first);
	for (size_t i = 0; err == 0 && i < first->count[WIRE_SEC_AUTHORITY];
	     i++)
		if (is_proof(&first->sec[WIRE_SEC_AUTHORITY][i]))
			err = wire_build_rr(&b, WIRE_SEC_AUTHORITY,
					    &first->sec[WIRE_SEC_AUTHORITY][i]);
	if (err == 0)
		err = copy_section(&b, WIRE_SEC_AUTHORITY, next, first);
	if (err == 0)
		err = copy_section(&b, WIRE_SEC_ADDITIONAL, first, NULL);
	if (err == 0)
		err = copy_section(&b, WIRE_SEC_ADDITIONAL, next, first);
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	if (err < 0)
		return err;
	return (int)wire_build_finish(&b);
}
