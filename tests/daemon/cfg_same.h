/* SPDX-License-Identifier: MIT */
/*
 * Whether two parsed configurations are equal, field by field (padding
 * and the octets after a string's NUL do not count). Shared by the unit
 * test and the fuzz target of src/policy/config.c.
 */
#ifndef DT_TESTS_CFG_SAME_H
#define DT_TESTS_CFG_SAME_H

#include <stdbool.h>
#include <string.h>

#include "policy/config.h"
#include "wire/dname.h"

static inline bool cfg_same(const struct cfg *a, const struct cfg *b)
{
	if (strcmp(a->socket, b->socket) != 0 ||
	    strcmp(a->resolv_conf, b->resolv_conf) != 0 ||
	    a->upstream_source != b->upstream_source ||
	    strcmp(a->stub_resolv_conf, b->stub_resolv_conf) != 0 ||
	    strcmp(a->tls_ca, b->tls_ca) != 0 ||
	    !up_conf_equal(&a->upstream, &b->upstream) ||
	    !up_conf_equal(&a->fallback, &b->fallback) ||
	    strcmp(a->trust_anchor_file, b->trust_anchor_file) != 0 ||
	    a->resolution != b->resolution ||
	    strcmp(a->root_hints, b->root_hints) != 0 ||
	    strcmp(a->auto_trust_anchor_file, b->auto_trust_anchor_file) != 0 ||
	    a->auto_trust_add_holddown != b->auto_trust_add_holddown ||
	    a->auto_trust_remove_holddown != b->auto_trust_remove_holddown ||
	    strcmp(a->user, b->user) != 0 || a->nlisten != b->nlisten ||
	    a->cache_size != b->cache_size || a->threads != b->threads ||
	    a->log_level != b->log_level ||
	    a->query_timeout_ms != b->query_timeout_ms ||
	    a->nsec3_max_iterations != b->nsec3_max_iterations ||
	    a->clock_skew != b->clock_skew ||
	    a->max_cache_ttl != b->max_cache_ttl ||
	    a->bogus_ttl != b->bogus_ttl ||
	    a->max_conns_per_user != b->max_conns_per_user ||
	    a->ratelimit != b->ratelimit || a->nallow != b->nallow ||
	    a->max_conns_per_address != b->max_conns_per_address ||
	    strcmp(a->hotspot_group, b->hotspot_group) != 0 ||
	    a->nprivate != b->nprivate ||
	    a->no_private_defaults != b->no_private_defaults)
		return false;
	for (size_t i = 0; i < a->nprivate; i++)
		if (!wire_dname_equal(a->private_domain[i], b->private_domain[i]))
			return false;
	for (size_t i = 0; i < a->nallow; i++)
		if (a->allow[i].family != b->allow[i].family ||
		    a->allow[i].prefix != b->allow[i].prefix ||
		    memcmp(a->allow[i].addr, b->allow[i].addr, 16) != 0)
			return false;
	for (size_t i = 0; i < a->nlisten; i++) {
		if (!up_server_equal(&a->listen[i], &b->listen[i]))
			return false;
	}
	if (a->mode != b->mode || a->insecure_reject != b->insecure_reject ||
	    a->nnta != b->nnta || a->nrequire != b->nrequire ||
	    a->ndomain != b->ndomain)
		return false;
	for (size_t i = 0; i < a->nnta; i++)
		if (!wire_dname_equal(a->nta[i].name, b->nta[i].name) ||
		    a->nta[i].until != b->nta[i].until)
			return false;
	for (size_t i = 0; i < a->nrequire; i++)
		if (!wire_dname_equal(a->require_secure[i], b->require_secure[i]))
			return false;
	for (size_t i = 0; i < a->ndomain; i++) {
		const struct cfg_domain *x = &a->domain[i], *y = &b->domain[i];
		if (!wire_dname_equal(x->name, y->name) || x->nns != y->nns ||
		    x->novalidate != y->novalidate)
			return false;
		for (size_t j = 0; j < x->nns; j++)
			if (!up_server_equal(&x->ns[j], &y->ns[j]))
				return false;
	}
	return true;
}

#endif
