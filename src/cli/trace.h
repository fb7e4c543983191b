/* SPDX-License-Identifier: MIT */
/*
 * dnstrust query --trace: the chain of trust of an answer, fetched through
 * dnstrustd (the answer with its RRSIGs and proofs, then the DS and DNSKEY
 * RRsets of every zone from the trust anchor down, with CD=1 so that bogus
 * data comes too) and validated again offline with src/validator's bag
 * and the daemon's own trust anchors (anchors.dnstrust.).
 *
 *   trace_fetch.c  what is asked and collected
 *   trace.c        the offline validation; facts about keys, DS and RRSIGs
 *   trace_text.c   the chain printed as delv +vtrace shows it
 *   trace_json.c   the same as JSON
 */
#ifndef DT_CLI_TRACE_H
#define DT_CLI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/arena.h"
#include "common/limits.h"
#include "dnstrust.h"
#include "validator/response.h"

struct cli_answer;
struct cli_daemon;
struct val_anchors;
struct val_bag;
struct wire_msg;

/* One question asked for the trace, and the daemon's answer. */
struct trace_fetch {
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	enum dt_status status; /* the daemon's verdict */
	int rcode;
	struct wire_msg *msg;
};

struct cli_trace {
	int64_t now;		   /* the time validated at */
	struct trace_fetch *fetch; /* [0]: the question itself */
	size_t nfetch, capfetch;
	struct wire_rr *pool; /* every answer and authority record
				 fetched, once each */
	size_t npool, cappool;
	struct val_anchors *ta;
	char **anchor_text; /* anchors.dnstrust., as received */
	size_t nanchor_text;
	bool incomplete; /* CLI_TRACE_MAXNAMES reached */
	/* The offline validation. */
	struct arena arena;
	struct val_bag *bag;
	struct val_rrset *sets; /* the pool as RRsets */
	size_t nsets;
	bool validated;	  /* res holds a verdict */
	const char *note; /* why there is none */
	struct val_result res;
	char **step; /* the validator's trace lines */
	size_t nstep;
};

/* Asks the daemon for the trust anchors, the question (DO, CD) and the DS
 * and DNSKEY RRsets above it into t. Returns 0 or a libdnstrust error. */
int trace_fetch_all(struct cli_daemon *d, const struct cli_answer *a,
		    struct cli_trace *t);

/* Frees what trace_fetch_all collected. */
void trace_fetch_free(struct cli_trace *t);

/*
 * Fetches and validates offline. Returns 0 and *ret (free with
 * cli_trace_free), or a libdnstrust error.
 */
int cli_trace_run(struct cli_daemon *d, const struct cli_answer *a,
		  struct cli_trace **ret);

void cli_trace_free(struct cli_trace *t);

void cli_trace_print_text(const struct cli_trace *t, const struct cli_answer *a,
			  FILE *f);

/* The trace as one JSON object (no member name before it). */
void cli_trace_print_json(const struct cli_trace *t, const struct cli_answer *a,
			  FILE *f);

/* --- facts for printing (trace.c) --- */

/* An RRSIG's fields, its times expanded around t->now (RFC 4034 §3.1.5
 * serial arithmetic). */
struct trace_sig {
	uint16_t covered;
	uint8_t alg;
	uint16_t tag;
	const uint8_t *signer;
	int64_t inception, expiration;
	const char *timing; /* NULL when valid now, else "expired" or
			       "not yet valid" */
	const char *role;   /* the signing key in the pool: "KSK", "ZSK",
			       "revoked", or NULL when absent */
};

void trace_sig_info(const struct cli_trace *t, const struct wire_rr *sig,
		    struct trace_sig *ret);

/* "KSK" (SEP bit), "ZSK", "revoked" for DNSKEY RDATA. */
const char *trace_dnskey_role(const uint8_t *rdata);

/* The DNSKEY of the pool that a DS (owned by zone) designates: returns 1
 * and its tag, 0 when none matches, < 0 when the digest type is not
 * supported. */
int trace_ds_match(const struct cli_trace *t, const uint8_t *zone,
		   const struct wire_rr *ds, uint16_t *ret_tag);

/* The pool's RRset of this owner and type, or NULL. */
const struct val_rrset *trace_rrset(const struct cli_trace *t,
				    const uint8_t *owner, uint16_t type);

/* The key sets the offline validation built, from the anchor down. */
size_t trace_zones(const struct cli_trace *t,
		   const struct val_keyset *const **ret);

/* The daemon's status for a fetched question, or DT_STATUS_NONE when it
 * was not asked. */
enum dt_status trace_daemon_status(const struct cli_trace *t,
				   const uint8_t *name, uint16_t type);

/* The offline status, mapped to libdnstrust's enum. */
enum dt_status trace_offline_status(const struct cli_trace *t);

#endif
