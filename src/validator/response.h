/* SPDX-License-Identifier: MIT */
/*
 * Validating one response: follow the CNAME/DNAME chain from the question,
 * verify every RRset on it with its zone's keys, and prove what is denied
 * (NXDOMAIN, NODATA, wildcard expansion). Keys come from a key source: the
 * daemon's key cache, or an offline bag of records (bag.h).
 */
#ifndef DT_VALIDATOR_RESPONSE_H
#define DT_VALIDATOR_RESPONSE_H

#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/denial.h"
#include "validator/val.h"

/*
 * Where the validator gets key sets. Both return a key set that stays
 * valid for the rest of the validation, or NULL when the source has
 * nothing yet (the daemon then fetches and validates again).
 *   zone_keys: the key set of exactly this zone (an RRSIG's signer);
 *   name_keys: the key set of the zone that holds name, where the chain
 *              of zone cuts from the trust anchor down to name is known
 *              (an insecure key set when an insecure delegation lies on
 *              the way): decides whether unsigned data may be insecure.
 *   anchor:    optional (NULL: none known); the closest trust anchor's
 *              zone at or above name, or NULL: the records of a zone
 *              above it never speak for a name below it.
 */
struct val_keysource {
	const struct val_keyset *(*zone_keys)(void *arg, const uint8_t *zone);
	const struct val_keyset *(*name_keys)(void *arg, const uint8_t *name);
	void *arg;
	const uint8_t *(*anchor)(void *arg, const uint8_t *name);
};

/* A response, as the validator needs it. */
struct val_response {
	const uint8_t *qname;
	uint16_t qtype;
	uint16_t qclass;
	uint16_t rcode;			/* NOERROR, NXDOMAIN; others are not
					   validated */
	const struct wire_rr *answer;
	size_t nanswer;
	const struct wire_rr *authority;
	size_t nauthority;
	/* Optional: the additional section. Only its RRSIGs are looked at,
	 * for an RRset of the answer or authority section that has none
	 * beside it (some servers put them there; a signature proves what
	 * it proves wherever it sits). Never shown to clients. */
	const struct wire_rr *additional;
	size_t nadditional;
};

/*
 * The used list: the RRsets a verdict rests on, in chain order. A client
 * sees only these (docs/DESIGN.md, "A client sees only what the validator
 * used"); whatever else the response holds is not part of the answer.
 */
enum val_role {
	VAL_ROLE_LINK = 1,	/* a CNAME or DNAME the chain went through */
	VAL_ROLE_SYNTH = 2,	/* the CNAME synthesised from the DNAME just
				   before it (RFC 6672 §2.2), checked equal to
				   the substitution */
	VAL_ROLE_FINAL = 3,	/* the RRset of qtype that ends the chain
				   (with qtype ANY: each RRset at the name;
				   with qtype RRSIG: every RRSIG at it) */
	VAL_ROLE_PROOF = 4,	/* an NSEC or NSEC3 RRset of the denial or of
				   a wildcard expansion */
	VAL_ROLE_SOA = 5,	/* the SOA of a negative answer */
};

/*
 * One used RRset, as found in the response: the records of section
 * (WIRE_SEC_ANSWER: val_response.answer; WIRE_SEC_AUTHORITY:
 * val_response.authority) whose owner equals (case-insensitively) that of
 * record first, whose class is rclass and whose type is type, with the
 * RRSIGs of that owner and class covering type (val_used_holds).
 */
struct val_used {
	uint8_t section;	/* enum wire_section: ANSWER or AUTHORITY */
	uint8_t role;		/* enum val_role */
	bool link_secure;	/* a CNAME or DNAME link that validated as
				   secure on its own, whatever the chain's
				   verdict (its answer may keep it for
				   later questions: source.c) */
	uint16_t type;
	uint16_t rclass;
	uint32_t ttl;		/* the TTL to give every record of it: the
				   smallest, clamped to the signatures'
				   validity when secure (RFC 4035 §5.3.3) */
	size_t first;		/* index of its first record in section */
};

/* Room in a result's used list: DT_VAL_CHAIN_MAX links, each a DNAME and
 * its CNAME, the final RRset, an SOA and the proofs. A longer list (qtype
 * ANY at a name with very many types, or a response carrying very many
 * proof RRsets) is cut: what does not fit is not used, hence not shown. */
#define VAL_USED_MAX 64

enum val_kind {
	VAL_KIND_ANSWER,	/* the chain ends in an RRset of qtype */
	VAL_KIND_NODATA,	/* the chain ends in a name without qtype */
	VAL_KIND_NXDOMAIN,	/* the chain ends in a name that does not exist */
	VAL_KIND_NEED_KEYS,	/* the key source lacks need_zone's keys */
	VAL_KIND_YXDOMAIN,	/* a DNAME substitution longer than a name may
				   be (RFC 6672 §2.2): the chain ends there */
};

struct val_result {
	struct val_verdict verdict;	/* weakest link of the chain */
	enum val_kind kind;
	uint32_t ttl;			/* the smallest TTL on the chain, after
					   clamping to signature validity */
	unsigned links;			/* CNAME/DNAME links followed */
	struct val_denial_info denial;	/* with NODATA: what the proof
					   learnt (zone cut, opt-out) */
	uint8_t final_name[DT_NAME_MAXLEN]; /* the last name of the chain */
	uint8_t need_zone[DT_NAME_MAXLEN]; /* with VAL_KIND_NEED_KEYS: the
					      zone (or, for unsigned data,
					      the name) to get keys for */
	uint16_t rcode;			/* the proven RCODE: NXDOMAIN with
					   VAL_KIND_NXDOMAIN, YXDOMAIN with
					   VAL_KIND_YXDOMAIN, else NOERROR;
					   never the upstream's word */
	size_t nused;			/* the used list, in chain order: */
	struct val_used used[VAL_USED_MAX];
};

/*
 * Whether rr belongs to the used RRset u, where first is the record at
 * u->first in u's section: same owner (case-insensitive), same class, and
 * type u->type or an RRSIG covering it.
 */
bool val_used_holds(const struct val_used *u, const struct wire_rr *first,
		    const struct wire_rr *rr);

/*
 * Validates resp. Writes *ret and returns 0, or -ENOMEM. The verdict is
 * the weakest of every step's: each RRset of the chain (signed: verified
 * with its signer's keys, a wildcard expansion needing its proof; unsigned:
 * insecure only where the key source says the zone is insecure, else
 * bogus with EDE 10), each DNAME synthesis, the denial at the end, and
 * the limit of ctx->lim.chain_max links.
 *
 * Only records of class resp->qclass take part. At each name of the
 * chain the candidates are, in this order, the RRset of qtype, a DNAME
 * above the name and a CNAME at it; the first that validates as secure is
 * taken, else the strongest (ties to the earlier); the others are left
 * out of the used list. A CNAME or DNAME RRset of more than one record is
 * bogus (RFC 2181 §10.1; a DNAME gives one substitution, RFC 6672 §2.2).
 * ret->used lists what was taken, in chain order, then the proofs and the
 * SOA; ret->rcode is what the chain proved (an answer or NODATA: NOERROR,
 * whatever resp->rcode says).
 */
int val_response_validate(struct val_ctx *ctx, const struct val_response *resp,
			  const struct val_keysource *src,
			  struct val_result *ret);

#endif
