/* SPDX-License-Identifier: MIT */
/*
 * Policy of dnstrust.conf applied to names: negative trust anchors
 * (RFC 7646), require-secure, and per-domain rules (split DNS upstreams,
 * validate no). Lookups are linear over at most DT_CFG_MAX_POLICY
 * entries; the deepest matching domain wins.
 */
#ifndef DT_POLICY_POLICY_H
#define DT_POLICY_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/config.h"

struct nta_rt;

/* The negative trust anchor in force for name at wall-clock time now
 * (at or above name, not expired), or NULL: the deepest among those of
 * dnstrust.conf and those added at run time, rt (policy/nta.h; NULL:
 * none). */
const struct cfg_nta *policy_nta(const struct cfg *c, const struct nta_rt *rt,
				 const uint8_t *name, int64_t now);

/* The require-secure domain at or above name, or NULL. */
const uint8_t *policy_require_secure(const struct cfg *c,
				     const uint8_t *name);

/* The deepest domain rule at or above name, or NULL; with upstream_only,
 * only rules that name upstreams count. */
const struct cfg_domain *policy_domain(const struct cfg *c,
				       const uint8_t *name,
				       bool upstream_only);

/* Where a private name comes from (policy_private). */
enum policy_private_src {
	POLICY_PRIVATE_NONE = 0,
	POLICY_PRIVATE_BUILTIN,		/* the built-in list */
	POLICY_PRIVATE_CONFIG,		/* a private-domain line */
	POLICY_PRIVATE_SEARCH,		/* resolv.conf's search list (the
					   network's word, not the admin's) */
};

/*
 * The private domain at or above name (wire form, lower case or not),
 * or NULL: the deepest among the private-domain lines, the built-in
 * list (unless no-private-defaults) and the search list of uc (may be
 * NULL). *ret_src (may be NULL) says where it came from; written only
 * when a domain is returned. The resolver core asks rsv_private_domain
 * instead, which counts a search name only once proven unsigned; names
 * private by that are the local network's: asked of resolv.conf's
 * servers, and insecure rather than bogus when they cannot be proven
 * (docs/DESIGN.md).
 */
const uint8_t *policy_private_domain(const struct cfg *c,
				     const struct up_conf *uc,
				     const uint8_t *name,
				     enum policy_private_src *ret_src);

/* Whether name is at or below a private domain (policy_private_domain). */
bool policy_private(const struct cfg *c, const struct up_conf *uc,
		    const uint8_t *name);

/*
 * The deepest name of uc's search list or routing-only domains (uc may
 * be NULL) at or above name, or NULL. A search name is the network's word, not the administrator's:
 * it makes names private only once the public tree proves it unsigned or
 * absent (rsv_private_domain, docs/DESIGN.md "Search suffixes").
 */
const uint8_t *policy_search_domain(const struct up_conf *uc,
				    const uint8_t *name);

/* The built-in private domains, in presentation form (status, docs,
 * tests). */
extern const char *const policy_private_builtin[];
extern const size_t policy_private_nbuiltin;

/* Whether the policy keys of a and b differ (reload drops the caches
 * then: answers were decided under the old policy). */
bool policy_changed(const struct cfg *a, const struct cfg *b);

/* "2026-12-04" for an NTA's end, or "no end". */
void policy_date(int64_t t, char *buf, size_t len);

#endif
