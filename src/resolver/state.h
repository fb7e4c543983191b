/* SPDX-License-Identifier: MIT */
/*
 * What the configuration and the trust anchors say: immutable and
 * reference-counted. A reload builds a new state; questions under way
 * finish with the one they started with.
 */
#ifndef DT_RESOLVER_STATE_H
#define DT_RESOLVER_STATE_H

#include <limits.h>
#include <stdint.h>

#include "policy/config.h"
#include "upstream/resolvconf.h"
#include "validator/val.h"

struct nta_rt;
struct val_anchors;

struct dstate {
	unsigned refs;			/* atomic */
	struct cfg cfg;
	struct val_anchors *ta;
	struct val_limits lim;
	struct up_conf split[DT_CFG_MAX_POLICY]; /* cfg.domain[i]'s servers,
						    when it names any */
	char ta_desc[PATH_MAX + 64];	/* the file, or "built-in IANA root KSKs..." */
	/* Tests only (tests/replay's fake-sha1 / fake-dsa): val_ctx's
	 * test_fake_sig. False from dstate_new(); no configuration key sets
	 * it (tests/replay/fake_sig_scope.sh checks). */
	bool test_fake_sig;
	/* Tests only (tests/replay's val-override-date -1): val_ctx's
	 * test_sig_time_any, likewise. */
	bool test_sig_time_any;
	struct nta_rt *nta;		/* negative trust anchors added at run
					   time (policy/nta.h): the owner's
					   (the daemon's, or a test's), which
					   outlives the state; NULL: none */
};

/* A state of one reference for cfg (copied) and the anchors ta (taken,
 * also when NULL is returned), described as desc. NULL when out of
 * memory. */
struct dstate *dstate_new(const struct cfg *cfg, struct val_anchors *ta,
			  const char *desc);

/* dstate_new in two steps, for a caller that writes the configuration
 * in place (cfg_load_zeroed: no copy, and only the pages it writes are
 * touched): a zero state of one reference (NULL when out of memory),
 * whose cfg the caller fills; then the rest made from that cfg, with
 * the anchors ta (taken) described as desc. A state dropped between
 * the two goes with dstate_put. */
struct dstate *dstate_alloc(void);
void dstate_finish(struct dstate *st, struct val_anchors *ta,
		   const char *desc);

struct dstate *dstate_get(struct dstate *st);
void dstate_put(struct dstate *st);

#endif
