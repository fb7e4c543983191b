/* SPDX-License-Identifier: MIT */
/*
 * The one chain of an answer: from the question's name through the
 * CNAME links (each with the DNAME it was synthesized from, if any) to
 * the records of the type asked, taken in the order the daemon wrote
 * them. Only records of the question's class whose owner is the name
 * reached so far count; everything else is ignored, never followed. An
 * answer that allows two readings (two CNAMEs at one owner, a CNAME
 * beside data, a CNAME that is not what its DNAME synthesizes, a split
 * final RRset, a loop, more than DT_VAL_CHAIN_MAX links, NXDOMAIN beside
 * the data asked for) is refused.
 */
#include <string.h>

#include "common/limits.h"
#include "lib/internal.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* The walk in progress. */
struct walk {
	struct dtlib_chain c;
	uint16_t qclass, qtype;
	const struct wire_rr *dname; /* pending for the next link */
	size_t finals;		     /* records of the type at c.end */
};

bool dtlib_type_matches(uint16_t type, uint16_t qtype)
{
	if (qtype == WIRE_TYPE_ANY)
		return type != WIRE_TYPE_CNAME && type != WIRE_TYPE_RRSIG;
	return type == qtype;
}

/* Whether target is what dname (its owner an ancestor of cur) makes of
 * cur (RFC 6672 §2.2). */
static bool synthesized(const uint8_t *cur, const struct wire_rr *dname,
			const uint8_t *target)
{
	size_t plen = wire_dname_len(cur) - wire_dname_len(dname->owner);
	size_t tlen = wire_dname_len(dname->rdata);
	uint8_t want[DT_NAME_MAXLEN];

	if (plen + tlen > DT_NAME_MAXLEN)
		return false;
	memcpy(want, cur, plen);
	memcpy(want + plen, dname->rdata, tlen);
	return wire_dname_equal(want, target);
}

/* A DNAME at an ancestor of the current name: remembered for the link
 * that follows. Two different ones are two readings. */
static int note_dname(struct walk *w, const struct wire_rr *rr)
{
	if (w->dname && !wire_dname_equal(w->dname->owner, rr->owner))
		return DT_ERR_BOGUS;
	if (w->dname && !wire_dname_equal(w->dname->rdata, rr->rdata))
		return DT_ERR_BOGUS;
	w->dname = rr;
	return 0;
}

/* Follows the CNAME rr (record i) from the current name. */
static int follow(struct walk *w, const struct wire_rr *rr, size_t i)
{
	struct dtlib_chain *c = &w->c;

	if (w->finals || c->nlinks == DT_VAL_CHAIN_MAX)
		return DT_ERR_BOGUS;
	if (w->dname && !synthesized(c->end, w->dname, rr->rdata))
		return DT_ERR_BOGUS;
	c->link[c->nlinks] = rr;
	c->dname[c->nlinks++] = w->dname;
	c->end = rr->rdata;
	c->start = i + 1;
	w->dname = NULL;
	return 0;
}

/* One record of the answer section, in order. */
static int walk_rr(struct walk *w, const struct wire_rr *rr, size_t i)
{
	const uint8_t *cur = w->c.end;

	if (rr->rclass != w->qclass)
		return 0;
	if (rr->type == WIRE_TYPE_DNAME && w->qtype != WIRE_TYPE_DNAME &&
	    !wire_dname_equal(rr->owner, cur) &&
	    wire_dname_is_subdomain(cur, rr->owner))
		return note_dname(w, rr);
	if (!wire_dname_equal(rr->owner, cur))
		return 0;
	if (dtlib_type_matches(rr->type, w->qtype)) {
		w->finals++;
		return 0;
	}
	return rr->type == WIRE_TYPE_CNAME ? follow(w, rr, i) : 0;
}

/* The link whose owner is name, or -1. */
static int link_at(const struct dtlib_chain *c, const uint8_t *name)
{
	for (size_t k = 0; k < c->nlinks; k++)
		if (wire_dname_equal(c->link[k]->owner, name))
			return (int)k;
	return -1;
}

/* Once the chain is known, a record anywhere in the section that gives
 * it a second reading. */
static bool second_reading(const struct walk *w, const struct wire_rr *rr,
			   size_t i)
{
	const struct dtlib_chain *c = &w->c;
	int k = link_at(c, rr->owner);

	if (rr->rclass != w->qclass)
		return false;
	if (k >= 0 && rr->type == WIRE_TYPE_CNAME)
		return rr != c->link[k]; /* two CNAMEs at one owner */
	if (k >= 0 && dtlib_type_matches(rr->type, w->qtype))
		return true; /* a CNAME beside data */
	if (!wire_dname_equal(rr->owner, c->end))
		return false;
	if (rr->type == WIRE_TYPE_CNAME && w->qtype != WIRE_TYPE_CNAME)
		return true; /* at the end, not followed: out of order */
	return dtlib_type_matches(rr->type, w->qtype) && i < c->start;
}

int dtlib_chain_walk(const struct wire_msg *m, const uint8_t *qname,
		     uint16_t qtype, struct dtlib_chain *ret)
{
	const struct wire_rr *an = m->sec[WIRE_SEC_ANSWER];
	size_t n = m->count[WIRE_SEC_ANSWER];
	struct walk w = {.qclass = m->qclass, .qtype = qtype};
	int err;

	w.c.end = qname;
	for (size_t i = 0; i < n; i++)
		if ((err = walk_rr(&w, &an[i], i)) < 0)
			return err;
	if (link_at(&w.c, w.c.end) >= 0)
		return DT_ERR_BOGUS; /* a loop */
	for (size_t i = 0; i < n; i++)
		if (second_reading(&w, &an[i], i))
			return DT_ERR_BOGUS;
	if (w.finals && m->rcode == WIRE_RCODE_NXDOMAIN)
		return DT_ERR_BOGUS; /* "no such name" beside its data */
	w.c.nfinal = w.finals;
	*ret = w.c;
	return 0;
}

bool dtlib_chain_final(const struct dtlib_chain *c, const struct wire_msg *m,
		       uint16_t qtype, size_t i)
{
	const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

	return i >= c->start && rr->rclass == m->qclass &&
	       dtlib_type_matches(rr->type, qtype) &&
	       wire_dname_equal(rr->owner, c->end);
}

/* Whether rr is an RRSIG over an RRset of the chain. */
static bool chain_sig(const struct dtlib_chain *c, const struct wire_rr *rr,
		      uint16_t qtype)
{
	uint16_t covered = wire_get16(rr->rdata);

	if (wire_dname_equal(rr->owner, c->end) &&
	    dtlib_type_matches(covered, qtype))
		return true;
	for (size_t k = 0; k < c->nlinks; k++) {
		const struct wire_rr *d = c->dname[k];
		if (covered == WIRE_TYPE_CNAME &&
		    wire_dname_equal(rr->owner, c->link[k]->owner))
			return true;
		if (d && covered == WIRE_TYPE_DNAME &&
		    wire_dname_equal(rr->owner, d->owner))
			return true;
	}
	return false;
}

bool dtlib_chain_keeps(const struct dtlib_chain *c, const struct wire_msg *m,
		       uint16_t qtype, size_t i)
{
	const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

	if (rr->rclass != m->qclass)
		return false;
	if (rr->type == WIRE_TYPE_RRSIG)
		return qtype != WIRE_TYPE_RRSIG
			       ? chain_sig(c, rr, qtype)
			       : dtlib_chain_final(c, m, qtype, i);
	for (size_t k = 0; k < c->nlinks; k++)
		if (rr == c->link[k] || rr == c->dname[k])
			return true;
	return dtlib_chain_final(c, m, qtype, i);
}
