/* SPDX-License-Identifier: MIT */
/*
 * Trust anchors: DS or DNSKEY records for zones whose keys are trusted
 * without a parent (the root, or any zone an admin configures). Built in:
 * the IANA root KSKs, key tags 20326 and 38696, as DS records.
 */
#ifndef DT_VALIDATOR_ANCHOR_H
#define DT_VALIDATOR_ANCHOR_H

#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "wire/rr.h"

/* The anchors of one zone. The records' owner and RDATA are owned by the
 * set they belong to. */
struct val_anchor_zone {
	uint8_t zone[DT_NAME_MAXLEN];
	struct wire_rr *ds;	/* DS anchors */
	size_t nds;
	struct wire_rr *dnskey;	/* DNSKEY anchors */
	size_t ndnskey;
};

struct val_anchors;

/* A new, empty set, or NULL when out of memory. */
struct val_anchors *val_anchors_new(void);
void val_anchors_free(struct val_anchors *ta);

/* Adds one DS or DNSKEY record (copied). Other types → DT_ETYPE; class
 * other than IN → DT_ERDATA; RDATA failing wire_rdata_check → its code.
 * Returns 0 or an error. */
int val_anchors_add(struct val_anchors *ta, const struct wire_rr *rr);

/* Adds the built-in IANA root anchors (DS 20326 8 2 ..., 38696 8 2 ...). */
int val_anchors_add_root(struct val_anchors *ta);

/* Reads DS and DNSKEY records from a file in presentation format
 * (comments, $ORIGIN, the output of dig or ldns-key2ds). On error writes
 * "file:line: message" into err (errlen octets) and returns the code;
 * records before the error are kept. */
int val_anchors_load(struct val_anchors *ta, const char *path, char *err,
		     size_t errlen);

/* The anchor zone closest to name (at or above it), or NULL. */
const struct val_anchor_zone *val_anchors_find(const struct val_anchors *ta,
					       const uint8_t *name);

/* Number of anchor zones, and the i-th, for listing (dnstrust status). */
size_t val_anchors_count(const struct val_anchors *ta);
const struct val_anchor_zone *val_anchors_get(const struct val_anchors *ta,
					      size_t i);

#endif
