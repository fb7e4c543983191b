/* SPDX-License-Identifier: MIT */
/*
 * A client question as the reply must honour it, and a validated answer
 * as the answer cache keeps it.
 */
#ifndef DT_RESOLVER_ANSWER_H
#define DT_RESOLVER_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/val.h"

struct cache;
struct val_used;
struct wire_msg;

/* What the reply to a client question must echo or honour. */
struct qinfo {
	uint16_t id;
	uint16_t flags;			/* RD and CD are echoed */
	bool edns;
	bool do_bit;
	bool want_status;		/* the status option was in the query */
	uint16_t udp_size;		/* 0 on streams */
	uint8_t qname[DT_NAME_MAXLEN];	/* as sent (case kept) */
	uint16_t qtype, qclass;
	bool admin;			/* peer may use administrative names */
	bool hotspot;			/* peer may start and end a hotspot
					   sign-on (daemon/hotspot.h) */
};

/* A validated result, as kept in the answer cache; immutable. */
struct answer {
	enum val_status status;
	uint16_t ede;			/* VAL_EDE_NONE when none */
	uint16_t rcode;			/* the proven one (val_result.rcode),
					   or SERVFAIL */
	bool upstream_fail;		/* no usable upstream answer */
	bool nta;			/* a negative trust anchor applied */
	bool permissive;		/* bogus, returned by mode permissive */
	bool policy_pass;		/* domain validate no: data returned */
	bool no_anchor;			/* indeterminate because no trust
					   anchor covers the name (RFC 4033
					   §5): data returned, AD=0 */
	bool unvalidated;		/* not proven, returned during a
					   hotspot sign-on: status
					   unvalidated, never cached */
	uint32_t ttl;			/* the answer's: its shortest RRset's,
					   or what policy lowered it to */
	bool ttl_own;			/* ttl is the validator's (no policy
					   lowered it): the answer section's
					   RRsets show their own TTLs, up to
					   ttl_max (render.c) */
	uint32_t ttl_max;
	int64_t stored;			/* monotonic seconds */
	const char *tag;
	char reason[VAL_REASON_MAXLEN];
	struct wire_msg *msg;		/* the upstream response, or NULL */
	struct val_used *used;		/* the validator's used list: the
					   only records of msg a client
					   sees (render.h); malloc'd */
	size_t nused;
};

void answer_free(void *answer);

/* Whether a's data may be used by the resolver itself (the address of a
 * name server): validated secure or proven unsigned, neither a bogus
 * answer let through (permissive) nor one returned unvalidated. */
bool answer_proven(const struct answer *a);

/* q filled from a parsed query m: its ID, flags, EDNS (DO, the status
 * option of docs/PROTOCOL.md), question; udp: the reply's size limit is
 * m's EDNS buffer (512 without EDNS, at most DT_UP_EDNS_BUFSIZE), else 0
 * (a stream). admin and hotspot: what the peer may do (struct qinfo). */
void qinfo_from_msg(struct qinfo *q, const struct wire_msg *m, bool udp,
		    bool admin, bool hotspot);

/* Types no client question may ask: zone transfers, ANY, MAILA/MAILB,
 * OPT and the other meta types (answered NOTIMP). */
bool qinfo_type_unsupported(uint16_t t);

/* Cache key of kind ('V' answers, 'W' rendered replies, 'K' key sets,
 * 'P' DS probes, 'Q' upstream responses) for a name (lower-cased in the
 * key), type and class. Returns the key length. */
size_t answer_key(uint8_t kind, const uint8_t *name, uint16_t type,
		  uint16_t qclass, uint8_t *key);

/* Drops every cache entry, of every kind, for a name at or below top
 * (lower case): a flush below a name, a negative trust anchor added or
 * removed. Returns how many went. */
size_t answer_drop_below(struct cache *c, const uint8_t *top);

#endif
