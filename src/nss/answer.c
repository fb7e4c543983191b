/* SPDX-License-Identifier: MIT */
/*
 * The CNAME chain of an answer and the records at its end, taken in the
 * order the daemon wrote them (libdnstrust has already cut the answer to
 * its chain, DNAME checks included; this is the same walk again over
 * what dt_query returns, so that the module never relies on it).
 */
#include "nss/answer.h"

#include <string.h>
#include <sys/socket.h>

#include "nss/name.h"

/* The walk in progress: the chain so far and the records of the type
 * asked seen at its end. */
struct walk {
	struct dtnss_chain c;
	uint16_t qtype;
	size_t finals;
};

/* The link whose owner is owner (text), or -1. */
static int link_at(const struct dtnss_chain *c, const char *owner)
{
	uint8_t wire[DT_NAME_MAXLEN];

	if (dtnss_name_from_text(owner, wire) <= 0)
		return -1;
	for (size_t k = 0; k < c->nalias; k++)
		if (dtnss_owner_is(c->alias[k], wire))
			return (int)k;
	return -1;
}

/* Follows the CNAME rr, record i. Returns 0 or -1 (data already seen at
 * the name, too many links, a malformed target). */
static int follow(struct walk *w, const dt_rr_t *rr, size_t i)
{
	struct dtnss_chain *c = &w->c;
	int len;

	if (w->finals || c->nalias == DT_VAL_CHAIN_MAX)
		return -1;
	if ((len = dtnss_name_check(rr->rdata, rr->rdlen)) < 0)
		return -1;
	c->alias[c->nalias++] = rr->owner;
	if (rr->ttl < c->ttl)
		c->ttl = rr->ttl;
	memcpy(c->end, rr->rdata, (size_t)len);
	c->start = i + 1;
	return 0;
}

/* One record, in the daemon's order. */
static int walk_rr(struct walk *w, const dt_rr_t *rr, size_t i)
{
	if (rr->rclass != DTNSS_CLASS_IN ||
	    !dtnss_owner_is(rr->owner, w->c.end))
		return 0;
	if (rr->type == w->qtype) {
		w->finals++;
		return 0;
	}
	return rr->type == DTNSS_TYPE_CNAME ? follow(w, rr, i) : 0;
}

/* A record that gives the chain a second reading: a second CNAME at an
 * owner, a CNAME beside data, data at the end before the last link, a
 * CNAME at the end that was not followed. */
static bool second_reading(const struct walk *w, const dt_rr_t *rr, size_t i)
{
	int k;

	if (rr->rclass != DTNSS_CLASS_IN ||
	    (rr->type != DTNSS_TYPE_CNAME && rr->type != w->qtype))
		return false;
	if ((k = link_at(&w->c, rr->owner)) >= 0)
		return rr->type == w->qtype || rr->owner != w->c.alias[k];
	if (!dtnss_owner_is(rr->owner, w->c.end))
		return false;
	return rr->type == DTNSS_TYPE_CNAME || i < w->c.start;
}

int dtnss_chain_follow(const dt_result_t *res, const uint8_t *qname,
		       uint16_t qtype, struct dtnss_chain *ret)
{
	size_t n = dt_result_count(res, DT_SECTION_ANSWER);
	struct walk w = {.c = {.ttl = UINT32_MAX}, .qtype = qtype};
	dt_rr_t rr;
	int len;

	if ((len = dtnss_name_check(qname, DT_NAME_MAXLEN)) < 0)
		return -1;
	memcpy(w.c.end, qname, (size_t)len);
	for (size_t i = 0; i < n; i++)
		if (dt_result_rr(res, DT_SECTION_ANSWER, i, &rr) == 0 &&
		    walk_rr(&w, &rr, i) < 0)
			return -1;
	for (size_t k = 0; k < w.c.nalias; k++)
		if (dtnss_owner_is(w.c.alias[k], w.c.end))
			return -1; /* a loop */
	for (size_t i = 0; i < n; i++)
		if (dt_result_rr(res, DT_SECTION_ANSWER, i, &rr) == 0 &&
		    second_reading(&w, &rr, i))
			return -1;
	if (w.finals && dt_result_rcode(res) == DTNSS_RCODE_NXDOMAIN)
		return -1; /* "no such name" beside its data */
	*ret = w.c;
	return 0;
}

bool dtnss_chain_next(const dt_result_t *res, const struct dtnss_chain *chain,
		      uint16_t type, size_t *pos, dt_rr_t *ret)
{
	size_t n = dt_result_count(res, DT_SECTION_ANSWER);
	dt_rr_t rr;

	for (size_t i = *pos > chain->start ? *pos : chain->start; i < n; i++) {
		if (dt_result_rr(res, DT_SECTION_ANSWER, i, &rr) != 0 ||
		    rr.type != type || rr.rclass != DTNSS_CLASS_IN ||
		    !dtnss_owner_is(rr.owner, chain->end))
			continue;
		*pos = i + 1;
		*ret = rr;
		return true;
	}
	*pos = n;
	return false;
}

bool dtnss_addr_next(const dt_result_t *res, const struct dtnss_chain *chain,
		     int af, size_t *pos, dt_rr_t *ret)
{
	uint16_t type = af == AF_INET ? DTNSS_TYPE_A : DTNSS_TYPE_AAAA;
	size_t want = af == AF_INET ? 4 : 16;
	dt_rr_t rr;

	while (dtnss_chain_next(res, chain, type, pos, &rr)) {
		if (rr.rdlen == want) {
			*ret = rr;
			return true;
		}
	}
	return false;
}

size_t dtnss_addr_count(const dt_result_t *res, const struct dtnss_chain *chain,
			int af)
{
	size_t n = 0, pos = 0;
	dt_rr_t rr;

	while (dtnss_addr_next(res, chain, af, &pos, &rr))
		n++;
	return n;
}
