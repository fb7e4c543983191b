/* SPDX-License-Identifier: MIT */
/*
 * Types shared by every part of the validator: the four-valued status of
 * RFC 4033 §5, the verdict (status + Extended DNS Error + reason, always
 * produced together), the work limits and the per-question budget, RRsets
 * as the validator sees them, and validated key sets.
 *
 * The validator is pure: records, trust anchors and the time come in as
 * arguments; nothing reads a clock, a file or the network.
 */
#ifndef DT_VALIDATOR_VAL_H
#define DT_VALIDATOR_VAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "wire/rr.h"

struct arena;
struct crypto_key;
struct val_sigcache;

/*
 * Ordered from weakest to strongest, so that the status of a chain is the
 * minimum of its links' (a CNAME chain with one insecure link is insecure;
 * one bogus link makes it bogus).
 */
enum val_status {
	VAL_BOGUS = 0,		/* should be signed, and is not validly */
	VAL_INDETERMINATE = 1,	/* no trust anchor covers it, or the data to
				   decide could not be had */
	VAL_INSECURE = 2,	/* provably unsigned (RFC 4033 §5) */
	VAL_SECURE = 3,		/* validated from a trust anchor */
};

/* "secure", "insecure", "bogus", "indeterminate". */
const char *val_status_name(enum val_status status);

#define VAL_REASON_MAXLEN 320
#define VAL_EDE_NONE 0xFFFF

/*
 * A verdict. tag is a short, unique, static string naming the place in
 * the code that decided ("sig-expired"), so a user's report leads back to
 * one line; reason is what a person can act on ("RRSIG over
 * www.example.com/A by key 12345 (alg 13) expired 2026-11-30T00:00:00Z").
 * ede is an RFC 8914 INFO-CODE or VAL_EDE_NONE (secure answers carry none).
 */
struct val_verdict {
	enum val_status status;
	uint16_t ede;
	const char *tag;
	char reason[VAL_REASON_MAXLEN];
	bool budget;	/* decided because this question's work budget was
			   spent: says nothing about the data, never cached
			   for another question */
};

/* Sets all four fields at once; reason is printf-formatted (cut to fit). */
__attribute__((format(printf, 5, 6))) void
val_verdict_set(struct val_verdict *v, enum val_status status, uint16_t ede,
		const char *tag, const char *fmt, ...);

/* Sets v to secure with no EDE and an empty reason. */
void val_verdict_secure(struct val_verdict *v);

/* Folds link into acc: acc becomes link when link is weaker (by status).
 * For the chain of trust and CNAME/DNAME chains. */
void val_verdict_weakest(struct val_verdict *acc,
			 const struct val_verdict *link);

/*
 * Work limits (defaults in src/common/limits.h, each with its reason; the
 * daemon's configuration may change them).
 */
struct val_limits {
	unsigned sigs_per_rrset;    /* signature verifications per RRset,
				       key-tag collisions included */
	unsigned crypto_per_query;  /* signature verifications per question */
	unsigned keys_per_tag;	    /* candidate keys tried for one RRSIG */
	unsigned rrsigs_per_rrset;  /* RRSIGs looked at per RRset */
	unsigned rrs_per_rrset;	    /* records in one RRset */
	unsigned nsec3_iterations;  /* above: insecure, EDE 27 (RFC 9276) */
	unsigned nsec3_hashes_per_query; /* NSEC3 hash computations */
	unsigned chain_max;	    /* CNAME/DNAME links per answer */
	uint32_t skew;		    /* seconds of clock skew allowed on each
				       side of an RRSIG validity period */
};

/* The defaults from limits.h. */
void val_limits_default(struct val_limits *lim);

/*
 * Per-question context: the time, the limits and what has been spent of
 * them. One per question; not shared between threads.
 */
struct val_ctx {
	int64_t now;		/* seconds since the epoch, UTC */
	struct val_limits lim;
	unsigned crypto_used;
	unsigned nsec3_hashes_used;
	/* Optional: receives one line per step of the chain of trust (for
	 * `dnstrust verify` and `dnstrust query --trace`); NULL for none. */
	void (*trace)(void *arg, const char *line);
	void *trace_arg;
	/* Optional: work shared by every context of one answer (the answer
	 * and each key set and DS denial of its chain of trust), charged on
	 * top of the per-context budgets above; NULL for none. */
	struct val_work *work;
	/* Optional: successful signature verifications remembered across
	 * questions (sigcache.h), used by this thread only while the
	 * context is; NULL for none. */
	struct val_sigcache *sigcache;
	/* Tests only: the replay runner's fake-sha1 / fake-dsa. Signatures
	 * of algorithms 3, 5, 6 and 7 are taken as valid without crypto,
	 * and their keys without decoding (crypto_key_new_unchecked). Set
	 * from resolver/state.h's dstate.test_fake_sig, which no
	 * configuration key sets (tests/replay/fake_sig_scope.sh checks). */
	bool test_fake_sig;
	/* Tests only: the replay runner's `val-override-date: -1`, which
	 * in Unbound's testbound means signatures are taken whatever their
	 * inception and expiration. Set from dstate.test_sig_time_any, like
	 * test_fake_sig (fake_sig_scope.sh checks both). */
	bool test_sig_time_any;
};

/* Work of one answer across contexts (see val_ctx.work). */
struct val_work {
	unsigned crypto, crypto_max;	/* signature verifications */
	unsigned hashes, hashes_max;	/* NSEC3 hash computations */
	unsigned ds_checks, ds_checks_max; /* DS responses taken up by the
					      chain-of-trust walk */
};

/* A budget of DT_VAL_CRYPTO_PER_ANSWER, DT_VAL_NSEC3_HASHES_PER_ANSWER
 * and DT_VAL_DS_CHECKS_PER_ANSWER. */
void val_work_init(struct val_work *w);

/* Sends a printf-formatted line to ctx->trace, if set. */
__attribute__((format(printf, 2, 3))) void
val_trace(const struct val_ctx *ctx, const char *fmt, ...);

/* Starts a question's context; lim NULL means the defaults. */
void val_ctx_init(struct val_ctx *ctx, int64_t now,
		  const struct val_limits *lim);

/*
 * An RRset as the validator sees it: records with equal owner, class and
 * type, and the RRSIGs that cover that type at that owner. The pointers
 * point into whoever holds the records (a parsed message, a zone reader's
 * copy); the arrays themselves usually live in a per-query arena.
 */
struct val_rrset {
	const uint8_t *owner;
	uint16_t type;
	uint16_t rclass;
	uint32_t ttl;		/* smallest TTL of the records */
	const struct wire_rr **rrs;
	size_t n;
	const struct wire_rr **sigs;
	size_t nsigs;
};

/*
 * Groups n records into RRsets, attaching each RRSIG to the RRset of the
 * type it covers (an RRSIG whose RRset is absent forms an RRset of its own
 * with n = 0, so that "signature without data" can be seen). Order of the
 * result follows first appearance. Arrays come from the arena. Returns
 * the number of RRsets (written to *ret_sets) or -ENOMEM.
 */
int val_rrsets_collect(const struct wire_rr *rrs, size_t n, struct arena *a,
		       struct val_rrset **ret_sets);

/* The type an RRSIG covers (its first two octets; rdlen >= 18 checked by
 * wire_rdata_check). */
uint16_t val_rrsig_covered(const struct wire_rr *sig);

/* Whether a checked record is an RRSIG covering type. */
bool val_rrsig_covers(const struct wire_rr *rr, uint16_t type);

/* The signer name of a checked RRSIG (RFC 4034 §3.1.7), inside its RDATA. */
const uint8_t *val_rrsig_signer(const struct wire_rr *sig);

/* The RRset of n sets with this owner and type that holds records (not
 * only RRSIGs), or NULL. */
const struct val_rrset *val_rrset_find(const struct val_rrset *sets, size_t n,
				       const uint8_t *owner, uint16_t type);

/*
 * A key set: what is known about one zone's DNSKEYs.
 *   secure:  keys are the zone's validated DNSKEYs (zone keys, not
 *            revoked), fit to validate the zone's data;
 *   insecure: the zone is provably unsigned (no supported DS, or a proven
 *            insecure delegation above it); keys is empty;
 *   bogus / indeterminate: the keys could not be validated; verdict says
 *            why, and data of the zone inherits that status.
 * The key objects are owned by the set; val_keyset_free() frees them.
 * A key set is immutable once built and may be shared between threads.
 */
struct val_keyset {
	uint8_t zone[DT_NAME_MAXLEN];
	struct val_verdict verdict;	/* status lives in verdict.status */
	struct crypto_key **keys;
	size_t nkeys;
	uint32_t ttl;			/* how long it may be cached */
};

void val_keyset_free(struct val_keyset *ks);

#endif
