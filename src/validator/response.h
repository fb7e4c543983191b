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
 */
struct val_keysource {
	const struct val_keyset *(*zone_keys)(void *arg, const uint8_t *zone);
	const struct val_keyset *(*name_keys)(void *arg, const uint8_t *name);
	void *arg;
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
};

enum val_kind {
	VAL_KIND_ANSWER,	/* the chain ends in an RRset of qtype */
	VAL_KIND_NODATA,	/* the chain ends in a name without qtype */
	VAL_KIND_NXDOMAIN,	/* the chain ends in a name that does not exist */
	VAL_KIND_NEED_KEYS,	/* the key source lacks need_zone's keys */
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
};

/*
 * Validates resp. Writes *ret and returns 0, or -ENOMEM. The verdict is
 * the weakest of every step's: each RRset of the chain (signed: verified
 * with its signer's keys, a wildcard expansion needing its proof; unsigned:
 * insecure only where the key source says the zone is insecure, else
 * bogus with EDE 10), each DNAME synthesis, the denial at the end, and
 * the limit of ctx->lim.chain_max links.
 */
int val_response_validate(struct val_ctx *ctx, const struct val_response *resp,
			  const struct val_keysource *src,
			  struct val_result *ret);

#endif
