/* SPDX-License-Identifier: MIT */
/*
 * An offline key source: a bag of records (DS and DNSKEY sets with their
 * RRSIGs, NSEC/NSEC3 proofs of insecure delegations) and trust anchors.
 * The chain-of-trust walk (walk.h) builds key sets from them, each zone
 * once, as the resolver core does from its caches and fetches. Used by
 * `dnstrust verify` and by the tests.
 */
#ifndef DT_VALIDATOR_BAG_H
#define DT_VALIDATOR_BAG_H

#include <stddef.h>

#include "validator/response.h"

struct val_anchors;
struct val_bag;

/*
 * A new bag over n records (not copied: they must outlive the bag) and
 * anchors ta. Each key set is built with a fresh budget derived from
 * ctx's time, limits and trace (as the daemon validates each zone's keys
 * as a question of its own). Returns NULL when out of memory.
 */
struct val_bag *val_bag_new(const struct val_ctx *ctx,
			    const struct val_anchors *ta,
			    const struct wire_rr *rrs, size_t n);

void val_bag_free(struct val_bag *bag);

/* Fills *src with the bag's key source functions. */
void val_bag_keysource(struct val_bag *bag, struct val_keysource *src);

/* Key sets built so far, in the order they were built (for printing the
 * chain of trust). */
size_t val_bag_keysets(const struct val_bag *bag,
		       const struct val_keyset *const **ret_sets);

#endif
