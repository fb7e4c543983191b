/* SPDX-License-Identifier: MIT */
/*
 * Wildcard answers kept by the iterator (iter_wild.h): a table of kept
 * responses (iter_kept.h) keyed by the closest encloser and the type
 * expanded.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "iterator/iter_kept.h"
#include "iterator/iter_wild.h"
#include "validator/denial.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

struct it_wild {
	struct it_kept e[DT_IT_WILD_MAX]; /* name: the closest encloser;
					     the RRset with its RRSIGs
					     (answer section), the NSEC
					     records with theirs
					     (authority) */
};

struct it_wild *it_wild_new(void)
{
	return calloc(1, sizeof(struct it_wild));
}

void it_wild_free(struct it_wild *t)
{
	if (t)
		it_kept_clear_all(t->e, DT_IT_WILD_MAX);
	free(t);
}

void it_wild_clear(struct it_wild *t)
{
	it_kept_clear_all(t->e, DT_IT_WILD_MAX);
}

void it_wild_forget(struct it_wild *t, const struct up_server *from)
{
	it_kept_forget(t->e, DT_IT_WILD_MAX, from);
}

/* The type an RRSIG covers, 0 for any other record. */
static uint16_t covered(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG && rr->rdlen >= 18
		       ? wire_get16(rr->rdata)
		       : 0;
}

/* Whether rr is an NSEC or NSEC3, or an RRSIG over one. */
static bool is_nsec(const struct wire_rr *rr)
{
	uint16_t t = rr->type == WIRE_TYPE_RRSIG ? covered(rr) : rr->type;

	return t == WIRE_TYPE_NSEC || t == WIRE_TYPE_NSEC3;
}

/* Whether the NSEC3 rr covers the hash of name (RFC 5155 §8.8: the next
 * closer name of a wildcard answer), with its own parameters, not through
 * an opt-out span nor past the iterations a validator takes
 * (DT_VAL_NSEC3_ITERATIONS; the validator judges the answer anyway). */
static bool nsec3_covers(const struct wire_rr *rr, const uint8_t *name)
{
	const uint8_t *zone = wire_dname_parent(rr->owner);
	uint8_t h[20];
	struct val_nsec3 r;

	return rr->type == WIRE_TYPE_NSEC3 && zone && name &&
	       val_nsec3_split(rr, zone, &r) && !val_nsec3_optout(&r) &&
	       r.iterations <= DT_VAL_NSEC3_ITERATIONS &&
	       wire_dname_is_subdomain(name, zone) &&
	       val_nsec3_hash_name(&r, name, h) && val_nsec3_covers(&r, h);
}

/* The next closer name of name below the closest encloser ce (the
 * ancestor of name one label below ce), or NULL. */
static const uint8_t *next_closer(const uint8_t *name, const uint8_t *ce)
{
	return wire_dname_ancestor(name, wire_dname_labels(ce) + 1);
}

/* Whether the NSEC rr covers name (lies strictly between its owner and
 * its next name, the last NSEC of a zone wrapping to the apex). */
static bool nsec_covers(const struct wire_rr *rr, const uint8_t *name)
{
	const uint8_t *next = rr->rdata;

	if (rr->type != WIRE_TYPE_NSEC ||
	    wire_dname_check(next, rr->rdata + rr->rdlen) < 0 ||
	    wire_dname_canon_cmp(rr->owner, name) >= 0)
		return false;
	if (wire_dname_canon_cmp(rr->owner, next) >= 0)
		return wire_dname_is_subdomain(name, next); /* wraps */
	return wire_dname_canon_cmp(name, next) < 0;
}

/* The target of the CNAME at owner in m's answer section, or NULL. */
static const uint8_t *cname_target(const struct wire_msg *m,
				   const uint8_t *owner)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (rr->type == WIRE_TYPE_CNAME &&
		    wire_dname_equal(rr->owner, owner) &&
		    wire_dname_check(rr->rdata, rr->rdata + rr->rdlen) > 0)
			return rr->rdata;
	}
	return NULL;
}

/* Whether rr is a record of the RRset the question's type asked for at
 * target (or one of its RRSIGs), signed data of the zone beside a
 * wildcard CNAME: kept with the expansion, so that the CNAME expanded
 * for another name ends where the server's own answer ended. */
static bool target_data(const struct wire_msg *m, const struct wire_rr *rr,
			const uint8_t *target, const uint8_t *zone)
{
	uint16_t t = rr->type == WIRE_TYPE_RRSIG ? covered(rr) : rr->type;

	return target && wire_dname_equal(rr->owner, target) &&
	       wire_dname_is_subdomain(target, zone) && m->has_question &&
	       t == m->qtype && t != WIRE_TYPE_CNAME;
}

/* Writes the RRset of type at owner with its RRSIGs (answer section;
 * for a CNAME, then the RRset asked for at its target in zone, as the
 * server gave it) and m's NSEC or NSEC3 records (authority) to out; their
 * smallest TTL in *ret_ttl. Returns the length, 0 when no NSEC covers
 * owner (no NSEC3 its next closer name below ce) or it does not fit. */
static size_t take(const struct wire_msg *m, const uint8_t *owner,
		   const uint8_t *ce, const uint8_t *zone, uint16_t type,
		   uint8_t *out, size_t cap, uint32_t *ret_ttl)
{
	struct wire_builder b;
	uint32_t ttl = UINT32_MAX;
	bool cover = false;
	const uint8_t *nc = next_closer(owner, ce);
	const uint8_t *target =
		type == WIRE_TYPE_CNAME ? cname_target(m, owner) : NULL;
	int err = wire_build_init(&b, out, cap, 0, WIRE_FLAG_QR);

	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER] && err == 0; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (!wire_dname_equal(rr->owner, owner) ||
		    (rr->type != type && covered(rr) != type))
			continue;
		ttl = rr->ttl < ttl ? rr->ttl : ttl;
		err = wire_build_rr(&b, WIRE_SEC_ANSWER, rr);
	}
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER] && err == 0; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (!target_data(m, rr, target, zone))
			continue;
		ttl = rr->ttl < ttl ? rr->ttl : ttl;
		err = wire_build_rr(&b, WIRE_SEC_ANSWER, rr);
	}
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] && err == 0; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (!is_nsec(rr))
			continue;
		/* (each NSEC3 looked at is a hash: none once covered) */
		cover = cover || nsec_covers(rr, owner) || nsec3_covers(rr, nc);
		ttl = rr->ttl < ttl ? rr->ttl : ttl;
		err = wire_build_rr(&b, WIRE_SEC_AUTHORITY, rr);
	}
	if (err < 0 || !cover || ttl == 0 || ttl == UINT32_MAX)
		return 0;
	*ret_ttl = ttl;
	return wire_build_finish(&b);
}

static void learn_one(struct it_wild *t, const struct wire_msg *m,
		      const struct wire_rr *sig, const uint8_t *zone,
		      const struct up_server *from, int64_t now)
{
	uint8_t buf[DT_UP_EDNS_BUFSIZE]; /* what no UDP response holds is
					    not kept */
	uint16_t type = covered(sig);
	const uint8_t *ce = wire_dname_ancestor(sig->owner, sig->rdata[3]);
	uint32_t ttl = 0;
	size_t len = ce ? take(m, sig->owner, ce, zone, type, buf, sizeof(buf),
			       &ttl)
			: 0;

	if (!len)
		return;
	if (ttl > DT_IT_ZONE_TTL_MAX)
		ttl = DT_IT_ZONE_TTL_MAX;
	it_kept_put(t->e, DT_IT_WILD_MAX, ce, type, buf, len, now,
		    now + (int64_t)ttl * 1000, from);
}

void it_wild_learn(struct it_wild *t, const struct wire_msg *m,
		   const uint8_t *zone, const struct up_server *from,
		   int64_t now)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		int labels = wire_dname_labels(rr->owner);

		/* An expansion: the RRSIG's labels fewer than the owner's,
		 * the owner no wildcard itself (RFC 4035 §5.3.4). */
		if (!covered(rr) || rr->rdata[3] >= labels ||
		    (rr->owner[0] == 1 && rr->owner[1] == '*') ||
		    !wire_dname_is_subdomain(rr->owner, zone))
			continue;
		learn_one(t, m, rr, zone, from, now);
	}
}

/* The response of e to name/qtype: the expansion re-owned at name, and
 * for a CNAME its target's RRset kept with it when it is of qtype (then
 * next stays empty: the chain ends in the response). */
static size_t synthesise(const struct it_kept *e, const uint8_t *name,
			 uint16_t qtype, int64_t now, uint8_t *out, size_t cap,
			 uint8_t next[DT_NAME_MAXLEN])
{
	uint32_t age = it_kept_age(e, now);
	struct wire_builder b;
	struct wire_msg *m;
	bool ends = false;
	int err;

	if (!(m = wire_msg_parse(e->msg, e->len, 0, &err)))
		return 0;
	const uint8_t *exp = m->count[WIRE_SEC_ANSWER]
				     ? m->sec[WIRE_SEC_ANSWER][0].owner
				     : NULL;
	err = wire_build_init(&b, out, cap, 0,
			      WIRE_FLAG_QR | WIRE_FLAG_AA | WIRE_RCODE_NOERROR);
	if (err == 0)
		err = wire_build_question(&b, name, qtype, WIRE_CLASS_IN);
	for (int sec = WIRE_SEC_ANSWER; sec <= WIRE_SEC_AUTHORITY; sec++)
		for (size_t i = 0; i < m->count[sec] && err == 0; i++) {
			struct wire_rr rr = m->sec[sec][i];
			uint16_t t = rr.type == WIRE_TYPE_RRSIG ? covered(&rr)
								: rr.type;

			rr.ttl = rr.ttl > age ? rr.ttl - age : 0;
			if (sec == WIRE_SEC_ANSWER &&
			    !wire_dname_equal(rr.owner, exp)) {
				/* the CNAME's target, as its server gave
				 * it: only the type asked now */
				if (t != qtype)
					continue;
				ends |= rr.type == qtype;
			} else if (sec == WIRE_SEC_ANSWER) {
				rr.owner = name;
			}
			if (rr.type == WIRE_TYPE_CNAME &&
			    wire_dname_check(rr.rdata, rr.rdata + rr.rdlen) > 0)
				wire_dname_copy(next, rr.rdata);
			err = wire_build_rr(&b, (enum wire_section)sec, &rr);
		}
	if (ends)
		next[0] = 0;
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	wire_msg_free(m);
	return err == 0 ? wire_build_finish(&b) : 0;
}

/* Whether one of e's NSEC or NSEC3 records covers the next closer name
 * of name (the ancestor one label below e's closest encloser): no name
 * between the encloser and name exists, so the wildcard applies to name. */
static bool proven_absent(const struct it_kept *e, const uint8_t *name)
{
	const uint8_t *nc = next_closer(name, e->name);
	struct wire_msg *m;
	bool ok = false;
	int err;

	if (!nc || !(m = wire_msg_parse(e->msg, e->len, 0, &err)))
		return false;
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] && !ok; i++)
		ok = nsec_covers(&m->sec[WIRE_SEC_AUTHORITY][i], nc) ||
		     nsec3_covers(&m->sec[WIRE_SEC_AUTHORITY][i], nc);
	wire_msg_free(m);
	return ok;
}

size_t it_wild_answer(struct it_wild *t, const uint8_t *name, uint16_t qtype,
		      const uint8_t *floor, int64_t now, uint8_t *out,
		      size_t cap, struct up_server *ret_from,
		      uint16_t *ret_type, uint8_t ret_next[DT_NAME_MAXLEN])
{
	for (size_t i = 0; i < DT_IT_WILD_MAX; i++) {
		struct it_kept *e = &t->e[i];
		size_t len;

		if (!it_kept_live(e, now) ||
		    (e->type != qtype && e->type != WIRE_TYPE_CNAME) ||
		    qtype == WIRE_TYPE_DS ||
		    !wire_dname_is_subdomain(name, e->name) ||
		    wire_dname_equal(name, e->name) ||
		    !wire_dname_is_subdomain(e->name, floor) ||
		    !proven_absent(e, name))
			continue;
		ret_next[0] = 0;
		len = synthesise(e, name, qtype, now, out, cap, ret_next);
		if (len) {
			*ret_from = e->from;
			*ret_type = e->type;
		}
		return len;
	}
	return 0;
}
