/* SPDX-License-Identifier: MIT */
/*
 * Rendering a reply from a validated answer: only the RRsets of the
 * validator's used list (validator/response.h), in its order, with the
 * proven RCODE; a reply that cannot be built whole is not built. Pure:
 * no cache, no clock, no sockets (so the fuzz target can drive it).
 */
#ifndef DT_RESOLVER_RENDER_H
#define DT_RESOLVER_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/msg.h"

struct answer;
struct qinfo;

/* A reply being built, and where its TTL fields are (for the rendered
 * cache's ageing). */
struct render {
	struct wire_builder b;
	uint16_t *ttl_off;	/* optional: TTL offsets written */
	size_t nttl, capttl;
	size_t status_off;	/* offset of the status option's FLAGS */
	bool truncated;		/* the records did not fit: none sent, TC */
};

/*
 * Renders the reply to q from a (aged by age seconds) into buf of cap
 * octets (the reply's size limit: render_cap()). Records: those of
 * a->used, answer-section RRsets always, the SOA always, RRSIGs and
 * NSEC/NSEC3 proofs with DO; never another record of a->msg. When they
 * do not all fit, none is sent and TC is set (r->truncated). Returns the
 * length, or 0 when not even the header, question and OPT fit (then
 * nothing may be sent from buf).
 */
size_t render_build(struct render *r, const struct answer *a,
		    const struct qinfo *q, int64_t age, bool cached,
		    uint8_t *buf, size_t cap);

/* Renders the reply to q from a, aged by age seconds, into buf (cap
 * octets, at least DT_MSG_MAXLEN). cached sets the status option's flag.
 * Returns the length (a SERVFAIL when the reply cannot be built). */
size_t render_reply(const struct answer *a, const struct qinfo *q, int64_t age,
		    bool cached, uint8_t *buf, size_t cap);

/* Renders a reply without answer data: rcode, and an EDE when ede is not
 * VAL_EDE_NONE (text may be NULL). Returns the length. */
size_t render_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		    const char *text, uint8_t *buf, size_t cap);

/* The size a reply to q may have: the client's UDP size (at least 512),
 * or a whole message on streams; at most cap. */
size_t render_cap(const struct qinfo *q, size_t cap);

#endif
