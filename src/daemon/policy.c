/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/nta.h"
#include "daemon/policy.h"
#include "wire/dname.h"

const struct cfg_nta *policy_nta(const struct cfg *c, const uint8_t *name,
				 int64_t now)
{
	/* those added by dnstrust nta add first: the closest one wins */
	const struct cfg_nta *best = nta_rt_find(name, now);

	for (size_t i = 0; i < c->nnta; i++) {
		const struct cfg_nta *n = &c->nta[i];
		if ((n->until && now >= n->until) ||
		    !wire_dname_is_subdomain(name, n->name))
			continue;
		if (!best ||
		    wire_dname_labels(n->name) > wire_dname_labels(best->name))
			best = n;
	}
	return best;
}

const uint8_t *policy_require_secure(const struct cfg *c, const uint8_t *name)
{
	for (size_t i = 0; i < c->nrequire; i++)
		if (wire_dname_is_subdomain(name, c->require_secure[i]))
			return c->require_secure[i];
	return NULL;
}

const struct cfg_domain *policy_domain(const struct cfg *c,
				       const uint8_t *name, bool upstream_only)
{
	const struct cfg_domain *best = NULL;

	for (size_t i = 0; i < c->ndomain; i++) {
		const struct cfg_domain *d = &c->domain[i];
		if ((upstream_only && !d->nns) ||
		    !wire_dname_is_subdomain(name, d->name))
			continue;
		if (!best ||
		    wire_dname_labels(d->name) > wire_dname_labels(best->name))
			best = d;
	}
	return best;
}

bool policy_changed(const struct cfg *a, const struct cfg *b)
{
	size_t off = offsetof(struct cfg, mode);

	return memcmp((const char *)a + off, (const char *)b + off,
		      sizeof(*a) - off) != 0;
}

void policy_date(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t) {
		snprintf(buf, len, "no end");
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d", &tm);
}
