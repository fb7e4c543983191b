/* SPDX-License-Identifier: MIT */
/*
 * RFC 5011 automated updates of DNSKEY trust anchors. Per trust point:
 * the keys seen in its DNSKEY RRset with their states (§4), the add and
 * remove hold-downs (§2.2), revocation by the REVOKE bit on a key that
 * signed the RRset itself (§2.1), the intervals between queries (§2.3),
 * and a text state file that keeps all of it across restarts.
 *
 * Pure, like the rest of the validator: the DNSKEY RRset fetched, the
 * time (ctx->now) and the hold-downs come in; states, events and the time
 * of the next query come out. Fetching, the file and the clock belong to
 * the caller (dnstrustd: src/daemon/autotrust.c).
 *
 * The one rule everything rests on: a new key enters the state machine
 * only from a DNSKEY RRset signed by a key that is trusted (Valid or
 * Missing) at that moment; whoever does not hold a trusted key's private
 * half can therefore add nothing, and can take away nothing but the keys
 * whose private half they hold (by revoking them).
 */
#ifndef DT_VALIDATOR_AUTOTRUST_H
#define DT_VALIDATOR_AUTOTRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/val.h"

struct val_anchors;

/* RFC 5011 §4.2. */
enum val_at_state {
	VAL_AT_START = 0, /* seen, then absent from a validated RRset during
			     its hold-down: not trusted */
	VAL_AT_ADDPEND,	  /* in its add hold-down: not yet trusted */
	VAL_AT_VALID,	  /* trusted */
	VAL_AT_MISSING,	  /* trusted, but absent from the last validated
			     RRset (abnormal: its zone should revoke it) */
	VAL_AT_REVOKED,	  /* revoked by its holder: never trusted again */
	VAL_AT_REMOVED,	  /* revoked for the remove hold-down; kept only so
			     that it cannot come back */
};

/* "START", "ADDPEND", "VALID", "MISSING", "REVOKED", "REMOVED": the
 * words of the state file and of the daemon's log. */
const char *val_at_state_name(enum val_at_state state);

/* One key of a trust point. */
struct val_at_key {
	enum val_at_state state;
	uint16_t type;	    /* WIRE_TYPE_DNSKEY; WIRE_TYPE_DS for an anchor
			       configured as DS whose DNSKEY has not yet been
			       seen in a validated RRset (always VALID) */
	uint32_t ttl;	    /* of the record, for the state file */
	int64_t first_seen; /* first in a validated RRset; 0: configured */
	int64_t changed;    /* last change of state (REVOKED: the revocation,
			       start of the remove hold-down) */
	int64_t hold_until; /* ADDPEND: trusted from then on, if still seen */
	uint32_t count;	    /* ADDPEND: validated RRsets it was in */
	uint16_t rdlen;
	uint8_t rdata[DT_AT_KEY_MAXLEN]; /* DNSKEY as last seen (a revoked
					    key's has the REVOKE bit), or DS */
};

/* A trust point: a zone whose DNSKEY RRset is followed. */
struct val_at_point {
	uint8_t zone[DT_NAME_MAXLEN]; /* wire form, lower case */
	int64_t last_query;	      /* last query answered or failed; 0:
					 never */
	int64_t last_success;	      /* last validated RRset; 0: never */
	int64_t next_query;	      /* when to ask again; 0: at once */
	uint32_t retry;		      /* seconds between tries after a
					 failure (§2.3) */
	uint32_t failures;	      /* queries failed in a row */
	struct val_at_key keys[DT_AT_MAX_KEYS];
	size_t nkeys;
};

/* k as a record owned by tp's zone, class IN; its RDATA points into k. */
struct wire_rr val_at_key_rr(const struct val_at_point *tp,
			     const struct val_at_key *k);

/* k's key tag: a DS record's own, or that of the DNSKEY. */
uint16_t val_at_key_tag(const struct val_at_key *k);

/* Every trust point of one state file: a fixed-size value (about 140 KiB),
 * allocated by the caller. */
struct val_at {
	struct val_at_point points[DT_AT_MAX_POINTS];
	size_t npoints;
};

/* The hold-downs (seconds); RFC 5011's 30 days unless a test says less. */
struct val_at_policy {
	uint32_t add_holddown;
	uint32_t remove_holddown;
};

/* Sets both hold-downs to DT_AT_HOLDDOWN. */
void val_at_policy_default(struct val_at_policy *pol);

/* A change of one key's state, for the log. */
struct val_at_event {
	uint16_t tag;	   /* the key's tag now */
	uint16_t prev_tag; /* and before (revocation changes it) */
	uint8_t alg;
	enum val_at_state from, to;
	bool from_ds;	    /* a DS anchor became the DNSKEY it designates
			       (from = to = VALID), or, with to REMOVED,
			       was dropped for designating no key */
	int64_t hold_until; /* to ADDPEND: when it may become VALID */
};

/* What one val_at_update() did. */
struct val_at_result {
	struct val_verdict verdict; /* the DNSKEY RRset: secure when a
				       trusted key signed it */
	bool trust_changed;	    /* what val_at_anchors() gives changed */
	bool deleted;		    /* it trusted keys before and none now:
				       every one was revoked (RFC 5011 §5) */
	size_t ignored;		    /* new keys not followed: table full, or
				       RDATA over DT_AT_KEY_MAXLEN */
	struct val_at_event events[3 * DT_AT_MAX_KEYS];
	size_t nevents;
};

/*
 * Runs the state machine of tp over dnskeys, the zone's DNSKEY RRset with
 * its RRSIGs as just received (NULL when the answer held none), at
 * ctx->now, charging signature verifications to ctx:
 *   - revocations first (§2.1): a key of tp in its RRset with the REVOKE
 *     bit and an RRSIG over the RRset by that revoked key goes to REVOKED,
 *     whether or not a trusted key signed the RRset (only the key's
 *     holder can make that signature: this is how the last trusted key is
 *     revoked);
 *   - before that, AddTime (§4.2): a key of ADDPEND whose hold-down has
 *     passed and that was in at least two validated RRsets is VALID
 *     (while tp still trusts a key), so the RRset may validate with it;
 *   - then, only when a trusted key of tp signed the RRset: DS anchors
 *     become the DNSKEYs they designate (the DS is dropped, matched or
 *     not); a new SEP zone key of an algorithm the validator can use goes
 *     to ADDPEND for max(add hold-down, the RRSIG's original TTL) and to
 *     VALID once that has passed and it was in at least two validated
 *     RRsets; a key of ADDPEND absent goes back to START, a VALID one to
 *     MISSING and back to VALID when it returns; a new key that is
 *     revoked and self-signed is recorded as REVOKED; a configured key
 *     without the SEP flag (a ZSK as anchor) makes the ADDPEND keys VALID
 *     at once while no SEP key is, and is REMOVED once one is;
 *   - REVOKED keys become REMOVED remove_holddown after their revocation;
 *   - the next query: validated, at MAX(1 h, MIN(15 d, OrigTTL / 2,
 *     RRSIG expiration interval / 2)) with the retry interval MAX(1 h,
 *     MIN(1 d, OrigTTL / 10, expiration interval / 10)) remembered;
 *     otherwise at the retry interval (val_at_failed); a point left
 *     without a trusted key is not asked again (next_query 0).
 * Writes *res (always). Returns 0, or -ENOMEM (tp may then be half
 * updated: the caller must not save it).
 */
int val_at_update(struct val_ctx *ctx, struct val_at_point *tp,
		  const struct val_rrset *dnskeys,
		  const struct val_at_policy *pol, struct val_at_result *res);

/* A query that got no usable answer at now: the next one at the retry
 * interval (§2.3). */
void val_at_failed(struct val_at_point *tp, int64_t now);

/*
 * Adds a configured anchor (a DS or DNSKEY record, class IN) as a VALID
 * key of the trust point at its owner, made when missing. Returns 0;
 * DT_ETYPE (another type), DT_ERDATA (another class, RDATA not fit for a
 * key: shorter than 4 octets, a DNSKEY with a protocol other than 3, or
 * over DT_AT_KEY_MAXLEN), DT_ELIMIT (DT_AT_MAX_POINTS or DT_AT_MAX_KEYS
 * reached). A record already present is not added again.
 */
int val_at_add_anchor(struct val_at *at, const struct wire_rr *rr);

/* Adds every anchor of ta as val_at_add_anchor does. Returns 0 or its
 * first error. */
int val_at_add_anchors(struct val_at *at, const struct val_anchors *ta);

/* Whether tp has a trusted (VALID or MISSING) key. */
bool val_at_point_trusted(const struct val_at_point *tp);

/*
 * Adds the trust anchors of at to ta: the VALID and MISSING keys of every
 * point (DNSKEY records; DS records for anchors not yet seen as DNSKEY).
 * A point whose keys were all revoked adds nothing: no anchor covers it
 * any more. Returns the number of records added, or val_anchors_add()'s
 * error.
 */
int val_at_anchors(const struct val_at *at, struct val_anchors *ta);

/* The earliest next_query of the points that have a trusted key (0 when
 * none has one: nothing is to be asked). A point without one (every key
 * revoked: deleted, RFC 5011 §5) is not asked again and its next_query is
 * 0. */
int64_t val_at_next_query(const struct val_at *at);

/*
 * The state file. Lines end with LF (a CR before it is ignored); blank
 * lines and lines starting with '#' are comments. The first other line is
 * "dnstrust-autotrust 1". Then, for each trust point:
 *
 *   point ZONE last-query=T last-success=T next-query=T retry=S failures=N
 *   key STATE tag=N first-seen=T changed=T hold-until=T count=N RECORD
 *
 * one "point" line followed by one "key" line per key. Times T are
 * seconds since 1970-01-01 UTC (0: never), S seconds; STATE is a word of
 * val_at_state_name(); RECORD is the key's DNSKEY (or DS) record in
 * presentation form on the rest of the line, owned by ZONE, class IN;
 * tag is its key tag and must agree with it. Fields come in this order
 * and no other.
 */

/*
 * Parses a state file's text (len octets, not NUL-terminated) named name
 * in messages. On success writes *ret and returns 0. On error writes
 * "name:line: message" to err (errlen octets, NUL-terminated when errlen
 * > 0) and returns DT_ESYNTAX (the text), DT_ELIMIT (over
 * DT_AT_FILE_MAXSIZE, DT_AT_LINE_MAXLEN, DT_AT_MAX_POINTS or
 * DT_AT_MAX_KEYS) or -ENOMEM; *ret is untouched. Allocates a working copy
 * of struct val_at for the call.
 */
int val_at_parse(const char *text, size_t len, const char *name,
		 struct val_at *ret, char *err, size_t errlen);

/*
 * Writes at as a state file that val_at_parse reads back to an equal
 * value, with comments giving the next query of each point as a date.
 * Returns the length the full text needs (as snprintf: at most len - 1
 * octets written and NUL-terminated; buf may be NULL when len is 0).
 */
size_t val_at_format(const struct val_at *at, char *buf, size_t len);

#endif
