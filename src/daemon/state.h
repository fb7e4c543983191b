/* SPDX-License-Identifier: MIT */
/*
 * The daemon's state lifecycle: a state (resolver/state.h) built from a
 * configuration and the anchor files it names, and whether a new one
 * trusts what the old one did.
 */
#ifndef DT_DAEMON_STATE_H
#define DT_DAEMON_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolver/state.h"

/* A state for cfg, its anchors loaded, with the runtime negative trust
 * anchors nta (the daemon's; offset: the -T clock shift, for logging
 * negative trust anchors already expired); NULL with the reason in err. */
struct dstate *state_load(const struct cfg *cfg, struct nta_rt *nta,
			  int64_t offset, char *err, size_t errlen);

/* The runtime negative trust anchors, read from negative-trust-anchors
 * in the state directory ($STATE_DIRECTORY, as systemd's
 * StateDirectory= sets it, the first of a colon-separated list; else
 * /var/lib/dnstrust). NULL when out of memory. */
struct nta_rt *state_nta_load(void);

/* The path of that file into buf; -ENAMETOOLONG when it does not fit. */
int state_nta_path(char *buf, size_t len);

/* Whether a and b trust the same keys (same anchor records, same order),
 * under the same limits and policy: else what was validated under one
 * is not to be trusted under the other. */
bool state_same_trust(const struct dstate *a, const struct dstate *b);

#endif
