/* SPDX-License-Identifier: MIT */
/*
 * NXDOMAIN cuts (RFC 8020, iter_nxd.h): a fixed table, scanned; the
 * oldest entry makes room.
 */
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "iterator/iter_nxd.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

struct nxd_ent {
	uint8_t name[DT_NAME_MAXLEN]; /* lower case; empty: unused */
	uint8_t zone[DT_NAME_MAXLEN]; /* of the server that sent it */
	int64_t expires;	      /* ms */
	int64_t stored;		      /* ms */
	struct up_server from;
	uint8_t *msg; /* the response as received */
	size_t len;
};

struct it_nxd {
	struct nxd_ent e[DT_IT_NXD_MAX];
};

struct it_nxd *it_nxd_new(void)
{
	return calloc(1, sizeof(struct it_nxd));
}

static void ent_clear(struct nxd_ent *e)
{
	free(e->msg);
	memset(e, 0, sizeof(*e));
}

void it_nxd_free(struct it_nxd *t)
{
	for (size_t i = 0; t && i < DT_IT_NXD_MAX; i++)
		free(t->e[i].msg);
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
	struct nxd_ent *e = &t->e[0];
	bool denial;
	int64_t ttl;
	uint8_t *copy;

	if (m->rcode != WIRE_RCODE_NXDOMAIN || m->count[WIRE_SEC_ANSWER] ||
	    !m->raw)
		return;
	ttl = cut_ttl(m, asked, zone, &denial);
	if (ttl <= 0 || !denial || !(copy = malloc(m->rawlen)))
		return;
	if (ttl > DT_IT_ZONE_TTL_MAX)
		ttl = DT_IT_ZONE_TTL_MAX;
	memcpy(copy, m->raw, m->rawlen);
	for (size_t i = 0; i < DT_IT_NXD_MAX; i++) {
		struct nxd_ent *x = &t->e[i];

		if (!x->msg || wire_dname_equal(x->name, asked)) {
			e = x;
			break;
		}
		if (x->stored < e->stored)
			e = x;
	}
	ent_clear(e);
	wire_dname_copy(e->name, asked);
	wire_dname_tolower(e->name);
	wire_dname_copy(e->zone, zone);
	wire_dname_tolower(e->zone);
	e->stored = now;
	e->expires = now + ttl * 1000;
	e->from = *from;
	e->msg = copy;
	e->len = m->rawlen;
}

/* The kept response of e for name/qtype. */
static size_t rewrite(const struct nxd_ent *e, const uint8_t *name,
		      uint16_t qtype, int64_t now, uint8_t *out, size_t cap)
{
	struct wire_builder b;
	struct wire_msg *m;
	uint32_t age = (uint32_t)((now - e->stored) / 1000);
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
		struct nxd_ent *e = &t->e[i];
		size_t len;

		if (!e->msg)
			continue;
		if (e->expires <= now) {
			ent_clear(e);
			continue;
		}
		if (!wire_dname_is_subdomain(name, e->name) ||
		    !wire_dname_is_subdomain(e->name, floor) ||
		    !wire_dname_is_subdomain(e->zone, floor))
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
	for (size_t i = 0; i < DT_IT_NXD_MAX; i++)
		ent_clear(&t->e[i]);
}

void it_nxd_forget(struct it_nxd *t, const struct up_server *from)
{
	for (size_t i = 0; i < DT_IT_NXD_MAX; i++)
		if (t->e[i].msg && up_server_equal(&t->e[i].from, from))
			ent_clear(&t->e[i]);
}
