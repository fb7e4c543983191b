/* SPDX-License-Identifier: MIT */
/*
 * The chain-of-trust walk, written once: from a trust anchor down to the
 * zone that signs (or holds) a name, through DS and DNSKEY RRsets and
 * proofs of insecure delegations, with its depth limits. It is the key
 * source of val_response_validate() (response.h) for everybody:
 * `dnstrust verify` gives it the records of its input (bag.h), the
 * resolver core its caches and its fetches (src/resolver). Only where the
 * records come from, and where the key sets it builds go, differ: the
 * verdict, EDE and tag for the same records are the same by construction.
 *
 * The walk asks its source for a response to (name, DS) or (name,
 * DNSKEY). A source that does not have it yet says so (the resolver
 * fetches it, and validation runs again from the start); one that never
 * will (offline input without it) says it is absent.
 */
#ifndef DT_VALIDATOR_WALK_H
#define DT_VALIDATOR_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "common/limits.h"
#include "validator/response.h"

struct val_anchors;

enum walk_got {
	WALK_GOT,	/* *resp is the response */
	WALK_PENDING,	/* not had yet: the source will get it (the walk
			   gives up this run, the validator needs keys) */
	WALK_FAILED,	/* cannot be had now: *err says why */
	WALK_ABSENT,	/* the source has none and never will */
};

/* What a DS response for a name below a secure zone proved. */
enum walk_probe {
	WALK_PROBE_NOT_CUT = 1,	/* no delegation there (same zone) */
	WALK_PROBE_NXDOMAIN = 2,	/* the name does not exist */
};

struct walk_source {
	void *arg;
	/*
	 * The response to (name, type DS or DNSKEY), as the validator reads
	 * it; its records stay valid until the walk ends. *tentative set
	 * (offline sources) means a DS response that is only a guess: when
	 * it does not validate as a proof about name, name is taken as not
	 * being a zone cut, as with WALK_ABSENT.
	 */
	enum walk_got (*response)(void *arg, const uint8_t *name,
				  uint16_t type, struct val_response *resp,
				  bool *tentative, int *err);
	/* Optional: whether a zone begins at name as far as the source can
	 * tell without a DS response (offline: a DNSKEY RRset, a DS RRset
	 * or a signer there). Asked when the DS response is absent. */
	bool (*is_cut)(void *arg, const uint8_t *name);
	/* The key set of zone built before (by this walk or an earlier
	 * one), or NULL. */
	const struct val_keyset *(*keys_get)(void *arg, const uint8_t *zone);
	/* Keeps a new key set, taking *ks's contents (freeing them on
	 * failure); cacheable is false for what holds only for this walk
	 * (failed fetches, spent budgets, negative trust anchors). Returns
	 * the kept key set (valid until the walk ends) or NULL when out of
	 * memory. */
	const struct val_keyset *(*keys_put)(void *arg, struct val_keyset *ks,
					     bool cacheable);
	/* Optional: remembered DS probes. */
	bool (*probe_get)(void *arg, const uint8_t *name, enum walk_probe *p);
	void (*probe_put)(void *arg, const uint8_t *name, enum walk_probe p,
			  uint32_t ttl);
	/* Optional: the response to (name, type) was validated with v,
	 * good for ttl seconds. */
	void (*validated)(void *arg, const uint8_t *name, uint16_t type,
			  const struct val_verdict *v, uint32_t ttl);
	/* Optional: the response to "name DS" was validated, with res (whose
	 * used list points into that response). */
	void (*ds_validated)(void *arg, const uint8_t *name,
			     const struct val_result *res);
	/* Optional: a negative trust anchor at or above name: returns its
	 * name and sets *v (insecure), or NULL. */
	const uint8_t *(*exempt)(void *arg, const uint8_t *name,
				 struct val_verdict *v);
};

struct walk {
	struct walk_source src;
	const struct val_anchors *ta;
	struct val_ctx tmpl;		/* time, limits, trace, shared work */
	unsigned depth;			/* zone_keys recursion */
	/* names whose DS response is being validated, innermost last: the
	 * walk to a name stops above them, as their DS lives in the
	 * parent */
	const uint8_t *probing[DT_VAL_DS_PROOF_NEST_MAX];
	unsigned nprobing;
	int fail_err;			/* the last WALK_FAILED's error */
	bool exempted;			/* a negative trust anchor applied */
};

/* A walk over src from the anchors ta; every key set and DS proof is
 * checked with a fresh budget from tmpl (its time, limits, trace and
 * shared work). */
void walk_init(struct walk *w, const struct walk_source *src,
	       const struct val_anchors *ta, const struct val_ctx *tmpl);

/* The walk as the validator's key source. */
void walk_keysource(struct walk *w, struct val_keysource *ks);

/*
 * The Extended DNS Error (RFC 8914) of a fetch that failed with err:
 * 22 No Reachable Authority when the servers did not answer, or answered
 * none usably (DT_ETIMEOUT, DT_ENOSERVER, DT_ENOAUTH); 0 Other when a
 * recursion limit was reached (DT_ERECURSION: a loop or a chain too
 * long, no fault of the network) or the servers' responses did not
 * parse (DT_EBADANSWER); 23 Network Error otherwise (no root
 * server answered at all, or the upstream resolver failed).
 */
int walk_fetch_ede(int err);

#endif
