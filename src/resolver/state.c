/* SPDX-License-Identifier: MIT */
/*
 * The state questions run under (state.h): configuration, trust anchors,
 * limits, split-DNS servers and the runtime negative trust anchors, made
 * once and shared by reference count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolver/state.h"
#include "validator/anchor.h"

/* The chunk copy_sparse() looks at: a page. */
#define STATE_COPY_CHUNK 4096

/*
 * Copies len octets of src into dst, which is zero (calloc), leaving out
 * the chunks that are zero in src: a struct cfg is mostly room for rules
 * not written, and pages never written stay out of the resident set (a
 * process that validates in-process keeps one state per context).
 */
static void copy_sparse(void *dst, const void *src, size_t len)
{
	const uint8_t *s = src;
	uint8_t *d = dst;

	for (size_t off = 0, n; off < len; off += n) {
		n = len - off < STATE_COPY_CHUNK ? len - off : STATE_COPY_CHUNK;
		if (s[off] || memcmp(s + off, s + off + 1, n - 1))
			memcpy(d + off, s + off, n);
	}
}

struct dstate *dstate_alloc(void)
{
	struct dstate *st = calloc(1, sizeof(*st));

	if (st)
		st->refs = 1;
	return st;
}

void dstate_finish(struct dstate *st, struct val_anchors *ta,
		   const char *desc)
{
	const struct cfg *cfg = &st->cfg;

	st->ta = ta;
	val_limits_default(&st->lim);
	st->lim.nsec3_iterations = cfg->nsec3_max_iterations;
	st->lim.skew = cfg->clock_skew;
	for (size_t i = 0; i < cfg->ndomain; i++) {
		const struct cfg_domain *d = &cfg->domain[i];
		struct up_conf *uc = &st->split[i];
		for (size_t j = 0; j < d->nns; j++)
			uc->ns[uc->nns++] = d->ns[j];
		uc->timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
		uc->attempts = DT_UP_ATTEMPTS_DEFAULT;
	}
	snprintf(st->ta_desc, sizeof(st->ta_desc), "%s", desc ? desc : "");
}

struct dstate *dstate_new(const struct cfg *cfg, struct val_anchors *ta,
			  const char *desc)
{
	struct dstate *st = dstate_alloc();

	if (!st) {
		val_anchors_free(ta);
		return NULL;
	}
	copy_sparse(&st->cfg, cfg, sizeof(*cfg));
	dstate_finish(st, ta, desc);
	return st;
}

struct dstate *dstate_get(struct dstate *st)
{
	__atomic_fetch_add(&st->refs, 1, __ATOMIC_RELAXED);
	return st;
}

void dstate_put(struct dstate *st)
{
	if (!st || __atomic_sub_fetch(&st->refs, 1, __ATOMIC_ACQ_REL))
		return;
	val_anchors_free(st->ta);
	free(st);
}
