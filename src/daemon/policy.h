/* SPDX-License-Identifier: MIT */
/*
 * Policy of dnstrust.conf applied to names: negative trust anchors
 * (RFC 7646), require-secure, and per-domain rules (split DNS upstreams,
 * validate no). Lookups are linear over at most DT_CFG_MAX_POLICY
 * entries; the deepest matching domain wins.
 */
#ifndef DT_DAEMON_POLICY_H
#define DT_DAEMON_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/config.h"

/* The negative trust anchor in force for name at wall-clock time now
 * (at or above name, not expired), or NULL: the deepest among those of
 * dnstrust.conf and those added at run time (daemon/nta.h). */
const struct cfg_nta *policy_nta(const struct cfg *c, const uint8_t *name,
				 int64_t now);

/* The require-secure domain at or above name, or NULL. */
const uint8_t *policy_require_secure(const struct cfg *c,
				     const uint8_t *name);

/* The deepest domain rule at or above name, or NULL; with upstream_only,
 * only rules that name upstreams count. */
const struct cfg_domain *policy_domain(const struct cfg *c,
				       const uint8_t *name,
				       bool upstream_only);

/* Whether the policy keys of a and b differ (reload drops the caches
 * then: answers were decided under the old policy). */
bool policy_changed(const struct cfg *a, const struct cfg *b);

/* "2026-12-04" for an NTA's end, or "no end". */
void policy_date(int64_t t, char *buf, size_t len);

#endif
