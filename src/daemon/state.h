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

/* A state for cfg, its anchors loaded (offset: the -T clock shift, for
 * logging negative trust anchors already expired); NULL with the reason
 * in err. */
struct dstate *state_load(const struct cfg *cfg, int64_t offset, char *err,
			  size_t errlen);

/* Whether a and b trust the same keys (same anchor records, same order),
 * under the same limits and policy: else what was validated under one
 * is not to be trusted under the other. */
bool state_same_trust(const struct dstate *a, const struct dstate *b);

#endif
