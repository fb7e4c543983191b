/* SPDX-License-Identifier: MIT */
/*
 * Wildcard answers kept by the iterator (RFC 8198 §5.4, RFC 4592). A
 * signed RRset that a server expanded from a wildcard (its RRSIG's labels
 * fewer than its owner's), with the NSEC records beside it (the proof
 * that the name asked did not exist), is kept for the smallest TTL. A
 * later question for another name below the wildcard's closest encloser,
 * whose next closer name one of those NSEC records covers, is answered
 * from them without a query: the RRset written with the new name as
 * owner and the same RRSIGs (a wildcard's signature holds for every
 * expansion, RFC 4035 §5.3.4), and the NSEC records in the authority
 * section. The validator checks the signatures and the proof for the new
 * name, exactly as for a server's expansion; a CNAME is followed from
 * there. NSEC3 proofs are kept as well (the next closer name's hash
 * covered). With a wildcard CNAME, the RRset the server gave for the
 * question's type at the CNAME's target, when the target is in the
 * zone, is kept beside it and given with the expansion when that type is
 * asked: the chain then ends there, as the server's answer did.
 */
#ifndef DT_ITERATOR_ITER_WILD_H
#define DT_ITERATOR_ITER_WILD_H

#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

struct it_wild;
struct wire_msg;

/* A table of DT_IT_WILD_MAX expansions; NULL when out of memory. */
struct it_wild *it_wild_new(void);
void it_wild_free(struct it_wild *t);

/* Keeps the wildcard expansions of m's answer section (owned at or below
 * zone, the zone of the server from), with m's NSEC records; now in ms. */
void it_wild_learn(struct it_wild *t, const struct wire_msg *m,
		   const uint8_t *zone, const struct up_server *from,
		   int64_t now);

/*
 * The response for name/qtype synthesised from a kept expansion whose
 * wildcard is at or below floor (the zone asked), written to out (cap
 * octets): AA, NOERROR, the question, the RRset (of qtype, or a CNAME)
 * owned by name with its RRSIGs (for a CNAME, then its target's RRset of
 * qtype when one was kept), the NSEC records in the authority section,
 * OPT with DO. Returns its length with the server that sent the records
 * in *ret_from, the type of the RRset in *ret_type and, for a CNAME whose
 * target's RRset is not in it, its target in ret_next (else empty); or
 * 0.
 */
size_t it_wild_answer(struct it_wild *t, const uint8_t *name, uint16_t qtype,
		      const uint8_t *floor, int64_t now, uint8_t *out,
		      size_t cap, struct up_server *ret_from,
		      uint16_t *ret_type, uint8_t ret_next[DT_NAME_MAXLEN]);

/* Forgets every expansion. */
void it_wild_clear(struct it_wild *t);

/* Forgets every expansion from server from. */
void it_wild_forget(struct it_wild *t, const struct up_server *from);

#endif
