/* SPDX-License-Identifier: MIT */
/*
 * DNAME RRsets kept by the iterator (iter_dname.h): a table of kept
 * responses (iter_kept.h) keyed by owner and type.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "iterator/iter_dname.h"
#include "iterator/iter_kept.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

struct it_dname {
	struct it_kept e[DT_IT_DNAME_MAX]; /* DNAME or CNAME RRsets with
					      their RRSIGs, answer
					      section */
};

struct it_dname *it_dname_new(void)
{
	return calloc(1, sizeof(struct it_dname));
}

void it_dname_free(struct it_dname *t)
{
	if (t)
		it_kept_clear_all(t->e, DT_IT_DNAME_MAX);
	free(t);
}

void it_dname_clear(struct it_dname *t)
{
	it_kept_clear_all(t->e, DT_IT_DNAME_MAX);
}

void it_dname_forget(struct it_dname *t, const struct up_server *from)
{
	it_kept_forget(t->e, DT_IT_DNAME_MAX, from);
}

/* Whether rr is a record of type at owner or an RRSIG over one. */
static bool of_set(const struct wire_rr *rr, const uint8_t *owner,
		   uint16_t type)
{
	if (!wire_dname_equal(rr->owner, owner))
		return false;
	if (rr->type == type)
		return true;
	return rr->type == WIRE_TYPE_RRSIG && rr->rdlen >= 2 &&
	       wire_get16(rr->rdata) == type;
}

/* Whether rr is an RRSIG over an RRset expanded from a wildcard (its
 * labels fewer than its owner's): such a CNAME holds only with the
 * proof beside it, which is not kept here. */
static bool expanded(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG && rr->rdlen >= 4 &&
	       rr->rdata[3] < wire_dname_labels(rr->owner);
}

/* Writes the RRset of type at owner in m (with its RRSIGs) to out as the
 * answer section of a message; its smallest TTL in *ret_ttl. Returns
 * the length, 0 when it is unsigned, expanded from a wildcard or cannot
 * be written. */
static size_t take_set(const struct wire_msg *m, const uint8_t *owner,
		       uint16_t type, uint8_t *out, size_t cap,
		       uint32_t *ret_ttl)
{
	struct wire_builder b;
	uint32_t ttl = UINT32_MAX;
	bool sig = false;
	int err = wire_build_init(&b, out, cap, 0, WIRE_FLAG_QR);

	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER] && err == 0; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (!of_set(rr, owner, type))
			continue;
		if (expanded(rr))
			return 0;
		sig |= rr->type == WIRE_TYPE_RRSIG;
		ttl = rr->ttl < ttl ? rr->ttl : ttl;
		err = wire_build_rr(&b, WIRE_SEC_ANSWER, rr);
	}
	if (err < 0 || !sig)
		return 0;
	*ret_ttl = ttl;
	return wire_build_finish(&b);
}

static void learn_one(struct it_dname *t, const struct wire_msg *m,
		      const uint8_t *owner, uint16_t type,
		      const struct up_server *from, int64_t now)
{
	uint8_t buf[DT_UP_EDNS_BUFSIZE]; /* a set no UDP response holds is
					    not kept */
	uint32_t ttl = 0;
	size_t len = take_set(m, owner, type, buf, sizeof(buf), &ttl);

	if (!len || !ttl)
		return;
	if (ttl > DT_IT_ZONE_TTL_MAX)
		ttl = DT_IT_ZONE_TTL_MAX;
	it_kept_put(t->e, DT_IT_DNAME_MAX, owner, type, buf, len, now,
		    now + (int64_t)ttl * 1000, from);
}

void it_dname_learn(struct it_dname *t, const struct wire_msg *m,
		    const uint8_t *zone, const struct up_server *from,
		    int64_t now)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if ((rr->type == WIRE_TYPE_DNAME ||
		     rr->type == WIRE_TYPE_CNAME) &&
		    wire_dname_is_subdomain(rr->owner, zone))
			learn_one(t, m, rr->owner, rr->type, from, now);
	}
}

/* A kept CNAME's target, as the next name. */
static int take_target(const uint8_t *target, uint8_t next[DT_NAME_MAXLEN])
{
	wire_dname_copy(next, target);
	return 0;
}

/* The CNAME synthesised from e's DNAME (target) for name, of TTL ttl,
 * added to b; its target (RFC 6672 §2.2: the owner replaced by the
 * DNAME's target) written to next. -1 when longer than a name may be. */
static int add_synthesised(struct wire_builder *b, const struct it_kept *e,
			   const uint8_t *name, const uint8_t *target,
			   uint32_t ttl, uint8_t next[DT_NAME_MAXLEN])
{
	size_t prefix = wire_dname_len(name) - wire_dname_len(e->name);
	size_t tlen = wire_dname_len(target);

	if (prefix + tlen > DT_NAME_MAXLEN)
		return -1;
	memcpy(next, name, prefix);
	memcpy(next + prefix, target, tlen);
	struct wire_rr cname = {
		.owner = name,
		.type = WIRE_TYPE_CNAME,
		.rclass = WIRE_CLASS_IN,
		.ttl = ttl,
		.rdlen = (uint16_t)(prefix + tlen),
		.rdata = next,
	};
	return wire_build_rr(b, WIRE_SEC_ANSWER, &cname);
}

/* The response of e to name/qtype: name strictly below a DNAME's owner,
 * or a CNAME's owner. */
static size_t synthesise(const struct it_kept *e, const uint8_t *name,
			 uint16_t qtype, int64_t now, uint8_t *out, size_t cap,
			 uint8_t next[DT_NAME_MAXLEN])
{
	uint32_t age = it_kept_age(e, now);
	uint32_t ttl = UINT32_MAX;
	struct wire_builder b;
	struct wire_msg *m;
	const uint8_t *target = NULL;
	int err;

	if (!(m = wire_msg_parse(e->msg, e->len, 0, &err)))
		return 0;
	err = wire_build_init(&b, out, cap, 0,
			      WIRE_FLAG_QR | WIRE_FLAG_AA | WIRE_RCODE_NOERROR);
	if (err == 0)
		err = wire_build_question(&b, name, qtype, WIRE_CLASS_IN);
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER] && err == 0; i++) {
		struct wire_rr rr = m->sec[WIRE_SEC_ANSWER][i];

		rr.ttl = rr.ttl > age ? rr.ttl - age : 0;
		ttl = rr.ttl < ttl ? rr.ttl : ttl;
		if (rr.type == e->type)
			target = m->sec[WIRE_SEC_ANSWER][i].rdata;
		if (e->type == WIRE_TYPE_CNAME)
			rr.owner = name; /* the same name, its case */
		err = wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	}
	if (err == 0 && target)
		err = e->type == WIRE_TYPE_CNAME
			      ? take_target(target, next)
			      : add_synthesised(&b, e, name, target, ttl, next);
	if (err == 0 && !target)
		err = -1;
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	wire_msg_free(m);
	return err == 0 ? wire_build_finish(&b) : 0;
}

size_t it_dname_answer(struct it_dname *t, const uint8_t *name, uint16_t qtype,
		       const uint8_t *floor, int64_t now, uint8_t *out,
		       size_t cap, uint8_t ret_next[DT_NAME_MAXLEN],
		       struct up_server *ret_from)
{
	for (size_t i = 0; i < DT_IT_DNAME_MAX; i++) {
		struct it_kept *e = &t->e[i];
		size_t len;

		/* A DNAME redirects the names below its owner, a CNAME
		 * its owner (RFC 6672 §2.3, RFC 1034 §3.6.2). */
		if (!it_kept_live(e, now) ||
		    !wire_dname_is_subdomain(name, e->name) ||
		    wire_dname_equal(name, e->name) !=
			    (e->type == WIRE_TYPE_CNAME) ||
		    !wire_dname_is_subdomain(e->name, floor))
			continue;
		len = synthesise(e, name, qtype, now, out, cap, ret_next);
		if (len)
			*ret_from = e->from;
		return len;
	}
	return 0;
}
