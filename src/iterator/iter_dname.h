/* SPDX-License-Identifier: MIT */
/*
 * DNAME and CNAME RRsets kept by the iterator (RFC 6672 §3.2: a
 * resolver may synthesise the CNAME of a cached DNAME; RFC 1034 §4.3.2:
 * a cached CNAME answers for its owner). A signed DNAME or CNAME RRset
 * met in the answer of a server of a zone at or above its owner is kept
 * for its TTL; a later question for a name strictly below a DNAME's
 * owner, or for a CNAME's owner, is given a step of its own, as a server
 * would send it: the DNAME RRset with its RRSIGs and the CNAME
 * synthesised from it (RFC 6672 §3.1), or the CNAME RRset with its
 * RRSIGs, and the walk goes on with the CNAME's target. Nothing here
 * says the records are true: the validator checks their signatures and
 * the CNAME against the DNAME, exactly as in a server's response. An
 * unsigned RRset, one expanded from a wildcard (its proof is not kept)
 * or one of TTL 0 (RFC 1035 §3.2.1: not cached) is not kept.
 */
#ifndef DT_ITERATOR_ITER_DNAME_H
#define DT_ITERATOR_ITER_DNAME_H

#include <stddef.h>
#include <stdint.h>

#include "upstream/resolvconf.h"

struct it_dname;
struct wire_msg;

/* A table of DT_IT_DNAME_MAX RRsets; NULL when out of memory. */
struct it_dname *it_dname_new(void);
void it_dname_free(struct it_dname *t);

/* Keeps the signed DNAME and CNAME RRsets of m's answer section owned at
 * or below zone (the zone of the server from that sent m); now in ms. */
void it_dname_learn(struct it_dname *t, const struct wire_msg *m,
		    const uint8_t *zone, const struct up_server *from,
		    int64_t now);

/*
 * The response of a server to name/qtype from a DNAME kept for an
 * ancestor of name, or a CNAME kept for name, at or below floor (the
 * zone asked): AA, NOERROR, the question, the DNAME RRset and its RRSIGs
 * (their TTLs aged) with the CNAME from name to its substitution (the
 * same TTL), or the CNAME RRset and its RRSIGs, OPT with DO, written to
 * out (cap octets); the CNAME's target in ret_next. Returns its length
 * with the server that sent the RRset in *ret_from, or 0 (none kept, or
 * the substitution is longer than a name may be: the server is asked).
 */
size_t it_dname_answer(struct it_dname *t, const uint8_t *name, uint16_t qtype,
		       const uint8_t *floor, int64_t now, uint8_t *out,
		       size_t cap, uint8_t ret_next[DT_NAME_MAXLEN],
		       struct up_server *ret_from);

/* Forgets every RRset. */
void it_dname_clear(struct it_dname *t);

/* Forgets every RRset from server from. */
void it_dname_forget(struct it_dname *t, const struct up_server *from);

#endif
