/* SPDX-License-Identifier: MIT */
/*
 * NXDOMAIN cuts (RFC 8020): a name an authoritative server answered
 * NXDOMAIN for, with NSEC or NSEC3 records and their signatures, has
 * nothing below it; a later question for the name or below it is
 * answered from that response (its question rewritten), without a
 * query. Nothing here says the response is true: the validator checks
 * it against the new question like any response, so an NSEC or NSEC3
 * proof of the name's absence proves its descendants' too (the same
 * closest encloser and wildcard), and a forged one is bogus. A response
 * without NSEC/NSEC3 (an unsigned zone, whose servers are known to send
 * NXDOMAIN for empty non-terminals) is never kept: those names are
 * asked, as before. A server found to send bogus data (it_distrust)
 * loses its cuts.
 */
#ifndef DT_ITERATOR_ITER_NXD_H
#define DT_ITERATOR_ITER_NXD_H

#include <stddef.h>
#include <stdint.h>

#include "upstream/resolvconf.h"

struct it_nxd;
struct wire_msg;

/* A table of DT_IT_NXD_MAX cuts; NULL when out of memory. */
struct it_nxd *it_nxd_new(void);
void it_nxd_free(struct it_nxd *t);

/*
 * Keeps m, the response (raw: msg, len) of a server (from) of zone to
 * asked, as the NXDOMAIN cut of asked when it is one: RCODE NXDOMAIN, no
 * answer record, an SOA owned at or below zone and strictly above asked,
 * and an NSEC or NSEC3 record with an RRSIG in the authority section.
 * It is kept for the SOA's negative TTL (RFC 2308 §5), at most
 * DT_IT_ZONE_TTL_MAX seconds; now in ms.
 */
void it_nxd_learn(struct it_nxd *t, const struct wire_msg *m,
		  const uint8_t *asked, const uint8_t *zone,
		  const struct up_server *from, int64_t now);

/*
 * The response for name/qtype from the cut at or above name and at or
 * below floor (the zone asked: a stub zone or a cut known below the
 * NXDOMAIN's name is asked instead), sent by a server of floor or of a
 * zone below it (its records are floor's), written to out (cap octets): AA,
 * NXDOMAIN, the question, the kept authority section, OPT with DO.
 * Returns its length with the server that sent it in *ret_from, or 0.
 */
size_t it_nxd_answer(struct it_nxd *t, const uint8_t *name, uint16_t qtype,
		     const uint8_t *floor, int64_t now, uint8_t *out,
		     size_t cap, struct up_server *ret_from);

/* Forgets every cut. */
void it_nxd_clear(struct it_nxd *t);

/* Forgets every cut from server from. */
void it_nxd_forget(struct it_nxd *t, const struct up_server *from);

#endif
