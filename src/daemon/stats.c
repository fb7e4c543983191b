/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/stats.h"
#include "validator/sigcache.h"

static void add_resolver(const struct worker *w, struct wstats *s)
{
	if (!w->rsv)
		return;
	const struct rsv_stats *r = rsv_stats(w->rsv);
#define ADD(to, from) \
	s->to += __atomic_load_n(&r->from, __ATOMIC_RELAXED)
	ADD(joined, joined);
	ADD(secure, secure);
	ADD(insecure, insecure);
	ADD(bogus, bogus);
	ADD(indeterminate, indeterminate);
	ADD(servfail_upstream, servfail_upstream);
	ADD(retried, retried);
	ADD(refused, overload);
#undef ADD
	struct val_sigcache_stats sc;
	rsv_sigcache_stats(w->rsv, &sc);
	s->sig_verified += sc.misses;
	s->sig_cached += sc.hits;
}

void stats_sum(struct daemon *d, struct wstats *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < d->nworkers; i++) {
		const uint64_t *src = (const uint64_t *)&d->workers[i].stats;
		uint64_t *dst = (uint64_t *)s;
		for (size_t k = 0; k < sizeof(*s) / sizeof(uint64_t); k++)
			dst[k] += __atomic_load_n(&src[k], __ATOMIC_RELAXED);
		add_resolver(&d->workers[i], s);
	}
}

uint64_t stats_under_way(struct daemon *d)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < d->nworkers; i++)
		if (d->workers[i].rsv)
			n += __atomic_load_n(&rsv_stats(d->workers[i].rsv)->tasks,
					     __ATOMIC_RELAXED);
	return n;
}
