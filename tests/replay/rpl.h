/* SPDX-License-Identifier: MIT */
/*
 * Replay scenarios: the .rpl format of Unbound's testbound (config part up
 * to CONFIG_END, then SCENARIO_BEGIN, RANGE blocks of canned upstream
 * answers and STEP events), read into memory. docs/TESTING.md describes
 * the subset understood and the keywords added for dnstrust.
 */
#ifndef DT_TESTS_REPLAY_RPL_H
#define DT_TESTS_REPLAY_RPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "policy/config.h"
#include "wire/msg.h"
#include "wire/rr.h"

struct val_anchors;

/* MATCH keywords. */
enum {
	RPL_M_OPCODE = 1 << 0,
	RPL_M_QTYPE = 1 << 1,
	RPL_M_QNAME = 1 << 2,
	RPL_M_SUBDOMAIN = 1 << 3,
	RPL_M_TCP = 1 << 4,	 /* answers only the TCP retry */
	RPL_M_UDP = 1 << 5,	 /* answers only over UDP */
	RPL_M_SECTIONS = 1 << 6, /* check: authority, additional too */
	RPL_M_TTL = 1 << 7,	 /* check: TTLs compared */
	RPL_M_EDE = 1 << 8,	 /* check: the EDE code (ede= or noede) */
	RPL_M_NOTHING = 1 << 9,	 /* a MATCH line naming nothing: a check
				    that any reply passes, as testbound's */
	/* What a peer's MATCH line names (rpl_check with peer): its
	 * harness compares only these, unless the line says all. */
	RPL_M_ALL = 1 << 10,
	RPL_M_RCODE = 1 << 11,
	RPL_M_FLAGS = 1 << 12,
	RPL_M_ANSWER = 1 << 13,
	RPL_M_AUTHORITY = 1 << 14,
	RPL_M_ADDITIONAL = 1 << 15,
};

#define RPL_EDE_ABSENT (-1)

/* One ENTRY_BEGIN ... ENTRY_END. Records own their owner and RDATA. */
struct rpl_entry {
	unsigned line;
	unsigned match;
	int ede; /* with RPL_M_EDE: code or RPL_EDE_ABSENT */
	bool copy_id, copy_query;
	uint16_t flags; /* header bits of REPLY */
	uint16_t rcode;
	bool do_bit;
	bool has_q;
	uint8_t qname[DT_NAME_MAXLEN];
	uint16_t qtype, qclass;
	struct wire_rr *sec[WIRE_SEC_COUNT];
	size_t n[WIRE_SEC_COUNT];
	uint8_t *hex; /* HEX_ANSWER_BEGIN: the raw reply */
	size_t hexlen;
	struct rpl_entry *next;
};

/* ADDRESS lines of a range: Unbound's scenarios give a server of many
 * names (a root server and a TLD's, say) up to a dozen. */
#define RPL_MAX_ADDRS 32

/* An ADDRESS of a range: the upstream server it plays. */
struct rpl_addr {
	int family; /* AF_INET or AF_INET6 */
	uint8_t a[16];
};

/* A stub-zone or forward-zone clause: its name and addresses. */
#define RPL_MAX_ZONES	   16
#define RPL_MAX_ZONE_ADDRS 16
struct rpl_zone {
	uint8_t name[DT_NAME_MAXLEN];
	struct rpl_addr addr[RPL_MAX_ZONE_ADDRS];
	size_t naddr;
	bool forward; /* forward-zone (else stub-zone) */
};

struct rpl_range {
	long first, last;
	struct rpl_addr addr[RPL_MAX_ADDRS];
	size_t naddr;
	struct rpl_entry *entries;
	struct rpl_range *next;
};

enum rpl_step_kind {
	RPL_QUERY,
	RPL_CHECK_ANSWER,
	RPL_TIME_PASSES,
	RPL_CHECK_FETCHES, /* upstream queries so far, in total */
	RPL_CHECK_ROUNDS,  /* upstream round trips of the last QUERY: its
			      fetches (recursing: its queries to servers)
			      in generations, each made once an answer of
			      the one before came in */
	RPL_NOOP,   /* TRAFFIC, NOTHING: nothing to do without a network */
	RPL_ASSIGN, /* ASSIGN var = ${...} (testbound's macros) */
	RPL_CHECK_AUTOTRUST, /* the RFC 5011 state of a trust point against
				the Unbound state file that follows */
	RPL_CHECK_OUT,	     /* CHECK_OUT_QUERY: a query to a server the
				entry matches was sent */
	RPL_REPLY,	     /* REPLY: the answer to the query of the
				CHECK_OUT_QUERY before it */
	RPL_UNSUPPORTED,
};

struct rpl_step {
	long n;
	unsigned line;
	enum rpl_step_kind kind;
	char name[32]; /* as written, for messages */
	long arg;      /* ELAPSE seconds, fetch count */
	char *text;    /* TIME_PASSES EVAL and ASSIGN: the expression;
			  CHECK_AUTOTRUST: the FILE_BEGIN body */
	char var[32];  /* ASSIGN: the variable */
	uint8_t zone[DT_NAME_MAXLEN]; /* CHECK_AUTOTRUST */
	struct rpl_entry *e;
};

/* An AUTOTRUST_FILE: the initial contents of a trust point's RFC 5011
 * state file, as Unbound writes it (or just its anchors' records). */
#define RPL_MAX_AUTOTRUST 4
struct rpl_autotrust {
	uint8_t zone[DT_NAME_MAXLEN];
	char *text;
	size_t len;
};

struct rpl_scenario {
	const char *file;
	char title[256];
	struct cfg cfg;
	struct val_anchors *ta;
	bool has_date;
	int64_t date; /* val-override-date, epoch seconds */
	struct rpl_range *ranges;
	struct rpl_step *steps;
	size_t nsteps;
	bool peer; /* a peer's scenario (replay -p): its MATCH lines as its
		      harness reads them, no built-in private domains */
	char unsupported[128]; /* a config feature we cannot run */
	struct rpl_zone zones[RPL_MAX_ZONES]; /* stub- and forward-zones */
	size_t nzones;
	/* fake-sha1 / fake-dsa: signatures of algorithms 3, 5, 6 and 7
	 * pass unchecked (the runner's state only, never the product's) */
	bool fake_sig;
	bool sig_time_any; /* val-override-date: -1 (dates not checked) */
	bool no_qmin; /* qname-minimisation: no */
	struct rpl_autotrust at[RPL_MAX_AUTOTRUST];
	size_t nat;
};

/* Reads the scenario in path. Returns 0 and *ret (free with
 * rpl_free), or -1 with "line N: why" in err. */
int rpl_load(const char *path, struct rpl_scenario **ret, char *err,
	     size_t errlen);
void rpl_free(struct rpl_scenario *sc);

/* Builds the upstream reply of range entry e to a question for (name,
 * type, IN) into buf (DT_MSG_MAXLEN). Returns its length or a negative
 * code. */
int rpl_entry_reply(const struct rpl_entry *e, const uint8_t *name,
		    uint16_t type, uint8_t *buf, size_t cap);

/* Whether range entry e answers (name, type) over tcp or UDP. */
bool rpl_entry_matches(const struct rpl_entry *e, const uint8_t *name,
		       uint16_t type, bool tcp);

/* Compares a reply to a CHECK_ANSWER entry. Returns 0, or -1 with the
 * first difference in why. */
int rpl_check(const struct rpl_entry *e, const uint8_t *reply, size_t len,
	      bool peer, char *why, size_t whylen);

#endif
