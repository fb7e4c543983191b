/* SPDX-License-Identifier: MIT */
/*
 * CNAME targets a response left out, asked (chase.c). Not for use outside
 * src/resolver.
 */
#ifndef DT_RESOLVER_CHASE_H
#define DT_RESOLVER_CHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "wire/msg.h"

/* Whether m, the response to (qname, qtype), is NOERROR, follows
 * CNAMEs from qname to a name without any record in the answer section,
 * and has no SOA in the authority section: then that name
 * is written to target. Never for qtype CNAME (the alias is the answer),
 * ANY or RRSIG, a loop or a chain past DT_VAL_CHAIN_MAX (qtype DNAME is
 * chased: a DNAME above the name is not the DNAME at it). */
bool chase_target(const struct wire_msg *m, const uint8_t *qname,
		  uint16_t qtype, uint8_t target[DT_NAME_MAXLEN]);

/* Writes to out (cap octets) the response to (qname, qtype) made of
 * first and next, the response for first's chain target: RA and next's
 * RCODE, first's answer records then next's not in first, first's NSEC
 * and NSEC3 records (the proofs of its links) then next's authority
 * records not among them, both additional sections, and an OPT record
 * with DO. Returns its length or a negative code (DT_ESPACE). */
int chase_join(const struct wire_msg *first, const struct wire_msg *next,
	       const uint8_t *qname, uint16_t qtype, uint8_t *out, size_t cap);

#endif
