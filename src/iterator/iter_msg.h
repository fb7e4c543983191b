/* SPDX-License-Identifier: MIT */
/*
 * The iterator's reading of one authoritative response and its writing
 * of the final one; pure functions of parsed messages (no I/O), so that
 * the bailiwick rules and the assembly are tested without a network.
 */
#ifndef DT_ITERATOR_ITER_MSG_H
#define DT_ITERATOR_ITER_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

struct wire_msg;
struct wire_rr;

/* What one response is, for the step that asked it. */
enum it_kind {
	IT_FINAL,    /* an answer, NODATA or NXDOMAIN: the last step */
	IT_CNAME,    /* a CNAME chain ending outside the response: ask its
			target next */
	IT_REFERRAL, /* a referral down, within bailiwick */
	IT_LAME,     /* nothing usable from this server (an empty
			response, a referral up or sideways, an answer
			about other names) */
};

/* A referral followed: the child zone, its NS names (at most
 * DT_IT_NS_MAX) and the glue found for them in the sending zone. */
struct it_referral {
	uint8_t zone[DT_NAME_MAXLEN];
	uint8_t ns[DT_IT_NS_MAX][DT_NAME_MAXLEN];
	size_t nns;
	struct up_server addr[DT_IT_ADDRS_MAX];
	size_t naddr;
	uint32_t ttl; /* of the NS RRset */
	bool has_ds;  /* a signed DS RRset of zone came with it
			 (it_referral_signed; not set by it_classify) */
};

/* The address of an A or AAAA record (class IN, RDATA of the right
 * length), port 53. Returns false for anything else (*ret untouched). */
bool it_addr_from_rr(const struct wire_rr *rr, struct up_server *ret);

/* What an address may be as an authoritative server's (do-not-query):
 * never (0.0.0.0/8, ::, multicast, 255.255.255.255: no server answers
 * from there, and 0.0.0.0 reaches the host itself), loopback
 * (127.0.0.0/8, ::1: the host's own services, never a public zone's
 * server), or a server's. IPv4-mapped IPv6 addresses are their IPv4
 * address's. */
enum it_addr_kind {
	IT_ADDR_SERVER,
	IT_ADDR_LOOPBACK,
	IT_ADDR_NEVER,
};

enum it_addr_kind it_addr_kind(const struct up_server *a);

/*
 * Classifies m, the response of a server of zone to qname/qtype.
 * A CNAME chain is followed only within zone (RFC 2181 §5.4.1): a
 * target outside it is IT_CNAME whatever the RCODE says about it.
 * IT_CNAME writes the chain's last target to ret_next; IT_REFERRAL fills
 * *ret_ref: the NS RRset's owner must be strictly below zone and at or
 * above qname (for DS, strictly above qname: the DS lives on the parent
 * side, so a referral to qname itself ends the question as it is), and
 * glue is taken only for those NS names and only when it is at or below
 * zone. Nothing is written for the other kinds.
 */
enum it_kind it_classify(const struct wire_msg *m, const uint8_t *zone,
			 const uint8_t *qname, uint16_t qtype,
			 uint8_t ret_next[DT_NAME_MAXLEN],
			 struct it_referral *ret_ref);

/*
 * The apex of a zone below zone that m, the authoritative (AA) response
 * of a server of zone to qname, shows through its SOA record: the owner,
 * when it is strictly below zone and at or above qname, and the SOA's TTL
 * in *ret_ttl. Such a server serves parent and child both, so no
 * referral ever shows the cut. NULL otherwise.
 */
const uint8_t *it_child_apex(const struct wire_msg *m, const uint8_t *zone,
			     const uint8_t *qname, uint32_t *ret_ttl);

/*
 * Writes the response a recursive resolver would give to qname/qtype
 * from the n responses of its steps (n >= 1; steps[n - 1] the last),
 * each taken only for the records at or below the zone of the server
 * that sent it (zones[i]; zones NULL: every record): RA
 * and the RCODE of the last step, the question, every answer record of
 * every step in order (a record an earlier step gave already, once), the
 * NSEC and NSEC3 records (with their RRSIGs) of
 * the earlier steps' authority sections (wildcard proofs of CNAMEs),
 * then the last step's whole authority section, and an OPT record with
 * DO. Returns the length written to out (cap octets) or a negative
 * code (DT_ESPACE when it does not fit).
 */
int it_assemble(const struct wire_msg *const *steps,
		const uint8_t *const *zones, size_t n, const uint8_t *qname,
		uint16_t qtype, uint8_t *out, size_t cap);

/* Whether m, a referral to zone, carries a DS RRset of zone with an
 * RRSIG over it: the child zone is signed, and its servers' answers to
 * a query with DO must carry RRSIGs. */
bool it_referral_signed(const struct wire_msg *m, const uint8_t *zone);

/* Whether m's authority section holds an NSEC record owned by name
 * whose type bitmap has type (DNAME: everything below name is
 * redirected, so no name below it is asked one label at a time). */
bool it_nsec_has_type(const struct wire_msg *m, const uint8_t *name,
		      uint16_t type);

/*
 * An unsigned tail: m, a NOERROR response of a server of zone to
 * qname/qtype, follows a CNAME chain (or a DNAME's synthesised CNAME)
 * within zone to data of qtype at another name, and that data has no
 * RRSIG although an RRSIG in the answer was made by a zone at or above
 * its owner. A signed zone signs every RRset, so the data was stripped
 * or added on the way (or sits below an unsigned cut the server also
 * serves): the chain's end is asked for itself, as Unbound always does.
 * Writes the end to ret_end and m without the records owned there
 * (answer section only, OPT with DO) to out (cap octets); returns the
 * length, or 0 when m is not so (or does not fit).
 */
int it_unsigned_tail(const struct wire_msg *m, const uint8_t *zone,
		     const uint8_t *qname, uint16_t qtype,
		     uint8_t ret_end[DT_NAME_MAXLEN], uint8_t *out, size_t cap);

/* Whether m's answer or authority section holds an RRSIG. */
bool it_has_rrsig(const struct wire_msg *m);

/*
 * The DS RRset of zone that m, a referral to zone, carries in its
 * authority section (with the RRSIGs over it), written to out (cap
 * octets) as the response to `zone DS` (AA, NOERROR, the records in the
 * answer section, OPT with DO): the parent's answer, which the validator
 * checks as if asked. Without a DS of zone, m's NSEC and NSEC3 records
 * (with their RRSIGs) are written instead, in the authority section of
 * a NODATA response: the proof of no DS an unsigned delegation carries
 * (RFC 4035 §3.1.4.1), checked the same way. Returns its length with the
 * smallest TTL of the records taken in *ret_ttl, 0 when m has neither,
 * or a negative code (DT_ESPACE).
 */
int it_referral_ds(const struct wire_msg *m, const uint8_t *zone, uint8_t *out,
		   size_t cap, uint32_t *ret_ttl);

#endif
