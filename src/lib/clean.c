/* SPDX-License-Identifier: MIT */
/*
 * Every answer the library takes is rewritten to what its chain holds
 * (chain.c): the answer section keeps the links, the final records and
 * their RRSIGs, in the daemon's order; the authority section keeps the
 * SOA, NSEC and NSEC3 records of the question's class and their RRSIGs;
 * the additional section keeps only the OPT record. An answer with two
 * readings becomes SERVFAIL, status bogus, EDE 6. What a caller sees of
 * an answer (records, dt_result_wire, dt_res_query's copy) is the
 * rewritten message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "common/protocol.h"
#include "lib/internal.h"
#include "wire/bytes.h"
#include "wire/msg.h"
#include "wire/rr.h"

#define REFUSED_TEXT "libdnstrust: the answer's CNAME chain has two readings"

static bool proof_type(uint16_t type)
{
	return type == WIRE_TYPE_SOA || type == WIRE_TYPE_NSEC ||
	       type == WIRE_TYPE_NSEC3;
}

static bool authority_keeps(const struct wire_msg *m, const struct wire_rr *rr)
{
	if (rr->rclass != m->qclass)
		return false;
	if (rr->type == WIRE_TYPE_RRSIG)
		return proof_type(wire_get16(rr->rdata));
	return proof_type(rr->type);
}

static void start(struct wire_builder *b, uint8_t *buf,
		  const struct wire_msg *m, uint16_t flags)
{
	wire_build_init(b, buf, DT_MSG_MAXLEN, m->hdr.id, flags);
	wire_build_question(b, m->qname, m->qtype, m->qclass);
}

/* The records kept, then the daemon's OPT record as it was. */
static int build_kept(struct wire_builder *b, const struct wire_msg *m,
		      const struct dtlib_chain *c, uint16_t qtype)
{
	const struct wire_edns *e = &m->edns;
	int err = 0;

	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER] && !err; i++)
		if (dtlib_chain_keeps(c, m, qtype, i))
			err = wire_build_rr(b, WIRE_SEC_ANSWER,
					    &m->sec[WIRE_SEC_ANSWER][i]);
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] && !err; i++)
		if (authority_keeps(m, &m->sec[WIRE_SEC_AUTHORITY][i]))
			err = wire_build_rr(b, WIRE_SEC_AUTHORITY,
					    &m->sec[WIRE_SEC_AUTHORITY][i]);
	if (!err && e->present)
		err = wire_build_opt(b, e->udp_size, e->ext_rcode, e->version,
				     e->flags, e->opts, e->optlen);
	return err;
}

/* SERVFAIL without records, AD clear, status bogus and EDE 6. */
static int build_refused(struct wire_builder *b, const struct wire_msg *m)
{
	uint8_t opts[256], st[DT_PROTO_OPT_STATUS_LEN] = {
				   DT_PROTO_VERSION, DT_STATUS_BOGUS, 0, 0};
	size_t olen = 0;
	int err;

	err = wire_opt_put_ede(opts, sizeof(opts), &olen, WIRE_EDE_DNSSEC_BOGUS,
			       REFUSED_TEXT);
	if (!err)
		err = wire_opt_put(opts, sizeof(opts), &olen,
				   DT_PROTO_OPT_STATUS, st, sizeof(st));
	if (!err)
		err = wire_build_opt(b, m->edns.udp_size, 0, 0, m->edns.flags,
				     opts, olen);
	return err;
}

int dtlib_answer_clean(struct wire_msg **msg, const uint8_t *qname,
		       uint16_t qtype)
{
	const struct wire_msg *m = *msg;
	uint16_t flags = m->hdr.flags;
	struct wire_builder b;
	struct dtlib_chain c;
	struct wire_msg *out = NULL;
	int refused = dtlib_chain_walk(m, qname, qtype, &c) < 0, err;
	uint8_t *buf = malloc(DT_MSG_MAXLEN);

	if (!buf)
		return DT_ERR_NOMEM;
	if (refused)
		flags = (uint16_t)((flags & ~WIRE_FLAG_AD & ~0xf) |
				   WIRE_RCODE_SERVFAIL);
	start(&b, buf, m, flags);
	err = refused ? build_refused(&b, m) : build_kept(&b, m, &c, qtype);
	if (!err)
		out = wire_msg_parse(buf, wire_build_finish(&b), 0, &err);
	free(buf);
	if (!out)
		return err == -ENOMEM ? DT_ERR_NOMEM : DT_ERR_PROTOCOL;
	wire_msg_free(*msg);
	*msg = out;
	return refused;
}
