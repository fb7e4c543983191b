/* SPDX-License-Identifier: MIT */
/*
 * RFC 5011 steps of Unbound's scenarios: testbound's ${...} macros (for
 * ASSIGN, TIME_PASSES EVAL and the state files), the reading of Unbound's
 * trust-anchor state file (AUTOTRUST_FILE, CHECK_AUTOTRUST), and the
 * comparison of its meaning with dnstrust's state of the trust point
 * (tests/replay/peer/README gives the mapping).
 */
#ifndef DT_TESTS_REPLAY_RPL_AT_H
#define DT_TESTS_REPLAY_RPL_AT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/autotrust.h"

/* ASSIGN variables of one scenario. */
#define RPL_MAX_VARS 64
struct rpl_vars {
	struct {
		char name[32];
		char value[64];
	} v[RPL_MAX_VARS];
	size_t n;
	int64_t now;	 /* ${time} */
	int64_t timeout; /* ${timeout}: seconds to the next timer */
};

/* Sets name to value. Returns 0 or -1 (table full). */
int rpl_var_set(struct rpl_vars *vars, const char *name, const char *value);

/* Expands every ${...} of in into out (cap octets) as testbound does:
 * time, timeout, $variables, left-to-right + - * / on integers, ctime N,
 * range LOW VALUE HIGH (an error when VALUE is outside). Returns 0, or -1
 * with why. */
int rpl_expand(const struct rpl_vars *vars, const char *in, char *out,
	       size_t cap, char *why, size_t whylen);

/* One key line of Unbound's file. */
struct rpl_ub_key {
	uint16_t type; /* DNSKEY or DS */
	uint32_t ttl;
	uint16_t rdlen;
	uint8_t rdata[DT_AT_KEY_MAXLEN];
	bool has_state; /* ;;state=N given (else: a configured anchor) */
	int state;	/* Unbound's numbers, those of enum val_at_state */
	long count;
	int64_t lastchange;
};

/* Unbound's state file of one trust point, as it means it. */
struct rpl_ub_point {
	uint8_t zone[DT_NAME_MAXLEN]; /* of ;;id: or of the records */
	bool revoked;		      /* ;;REVOKED: every key revoked */
	bool has_id;		      /* the ;; header lines are there */
	int64_t last_queried, last_success, next_probe;
	long query_failed, query_interval, retry_time;
	struct rpl_ub_key keys[DT_AT_MAX_KEYS];
	size_t nkeys;
};

/* Reads Unbound's file text (macros expanded already): the trust point
 * its ;;id: line or its records name (the name of AUTOTRUST_FILE and
 * CHECK_AUTOTRUST is the file's, not always the zone's). Records other
 * than DNSKEY and DS (RRSIGs kept beside them) are skipped. Returns 0,
 * or -1 with why. */
int rpl_ub_parse(const char *text, struct rpl_ub_point *ret, char *why,
		 size_t whylen);

/* Makes dnstrust's trust point from Unbound's file: its keys with their
 * states (records without a state are configured anchors, VALID), the
 * add hold-down of an ADDPEND key counted from its lastchange. Returns 0,
 * or -1 with why. */
int rpl_ub_to_point(const struct rpl_ub_point *ub, struct val_at *at,
		    const struct val_at_policy *pol, char *why, size_t whylen);

/* Compares what Unbound's file means with dnstrust's point tp. Returns
 * 0, or -1 with the first difference in why. */
int rpl_ub_compare(const struct rpl_ub_point *ub, const struct val_at_point *tp,
		   char *why, size_t whylen);

#endif
