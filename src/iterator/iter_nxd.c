/* SPDX-License-Identifier: MIT */
/*
 * NXDOMAIN cuts (RFC 8020, iter_nxd.h): a table of kept responses
 * (iter_kept.h) keyed by the name asked, each with the zone of the
 * server that sent it.
 */
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "iterator/iter_kept.h"
#include "iterator/iter_nxd.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

struct it_nxd {
	struct it_kept e[DT_IT_NXD_MAX];
	uint8_t zone[DT_IT_NXD_MAX][DT_NAME_MAXLEN]; /* of e[i]'s server */
};

struct it_nxd *it_nxd_new(void)
{
	return calloc(1, sizeof(struct it_nxd));
}

void it_nxd_free(struct it_nxd *t)
{
	if (t)
		it_kept_clear_all(t->e, DT_IT_NXD_MAX);
	free(t);
}

/* The negative TTL of m's SOA at or below zone and strictly above
 * asked (RFC 2308 §5: the smaller of its TTL and MINIMUM), or -1 when
 * m has none; *ret_denial: m holds a signed NSEC or NSEC3. */
static int64_t cut_ttl(const struct wire_msg *m, const uint8_t *asked,
		       const uint8_t *zone, bool *ret_denial)
{
	bool nsec = false, sig = false;
	int64_t ttl = -1;

	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (rr->type == WIRE_TYPE_NSEC || rr->type == WIRE_TYPE_NSEC3)
			nsec = true;
		else if (rr->type == WIRE_TYPE_RRSIG)
			sig = true;
		else if (rr->type == WIRE_TYPE_SOA && rr->rdlen >= 20 &&
			 wire_dname_is_subdomain(rr->owner, zone) &&
			 wire_dname_is_subdomain(asked, rr->owner) &&
			 !wire_dname_equal(asked, rr->owner)) {
			uint32_t min = wire_get32(rr->rdata + rr->rdlen - 4);
			ttl = rr->ttl < min ? rr->ttl : min;
		}
	}
	*ret_denial = nsec && sig;
	return ttl;
}

void it_nxd_learn(struct it_nxd *t, const struct wire_msg *m,
		  const uint8_t *asked, const uint8_t *zone,
		  const struct up_server *from, int64_t now)
{
	bool denial;
	int64_t ttl;
	int i;

	if (m->rcode != WIRE_RCODE_NXDOMAIN || m->count[WIRE_SEC_ANSWER] ||
	    !m->raw)
		return;
	ttl = cut_ttl(m, asked, zone, &denial);
	if (ttl <= 0 || !denial)
		return;
	if (ttl > DT_IT_ZONE_TTL_MAX)
		ttl = DT_IT_ZONE_TTL_MAX;
	i = it_kept_put(t->e, DT_IT_NXD_MAX, asked, 0, m->raw, m->rawlen, now,
			now + ttl * 1000, from);
	if (i >= 0) {
		wire_dname_copy(t->zone[i], zone);
		wire_dname_tolower(t->zone[i]);
	}
}

/* The kept response of e for name/qtype. */
static size_t rewrite(const struct it_kept *e, const uint8_t *name,
		      uint16_t qtype, int64_t now, uint8_t *out, size_t cap)
{
	struct wire_builder b;
	struct wire_msg *m;
	uint32_t age = it_kept_age(e, now);
	int err;

	if (!(m = wire_msg_parse(e->msg, e->len, 0, &err)))
		return 0;
	err = wire_build_init(&b, out, cap, 0,
			      WIRE_FLAG_QR | WIRE_FLAG_AA |
				      WIRE_RCODE_NXDOMAIN);
	if (err == 0)
		err = wire_build_question(&b, name, qtype, WIRE_CLASS_IN);
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] && err == 0; i++) {
		struct wire_rr rr = m->sec[WIRE_SEC_AUTHORITY][i];

		rr.ttl = rr.ttl > age ? rr.ttl - age : 0;
		err = wire_build_rr(&b, WIRE_SEC_AUTHORITY, &rr);
	}
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	wire_msg_free(m);
	return err == 0 ? wire_build_finish(&b) : 0;
}

size_t it_nxd_answer(struct it_nxd *t, const uint8_t *name, uint16_t qtype,
		     const uint8_t *floor, int64_t now, uint8_t *out,
		     size_t cap, struct up_server *ret_from)
{
	for (size_t i = 0; i < DT_IT_NXD_MAX; i++) {
		struct it_kept *e = &t->e[i];
		size_t len;

		if (!it_kept_live(e, now) ||
		    !wire_dname_is_subdomain(name, e->name) ||
		    !wire_dname_is_subdomain(e->name, floor) ||
		    !wire_dname_is_subdomain(t->zone[i], floor))
			continue;
		len = rewrite(e, name, qtype, now, out, cap);
		if (len)
			*ret_from = e->from;
		return len;
	}
	return 0;
}

void it_nxd_clear(struct it_nxd *t)
{
	it_kept_clear_all(t->e, DT_IT_NXD_MAX);
}

void it_nxd_forget(struct it_nxd *t, const struct up_server *from)
{
	it_kept_forget(t->e, DT_IT_NXD_MAX, from);
}
