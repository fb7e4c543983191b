/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "crypto/key.h"
#include "validator/val.h"
#include "wire/bytes.h"
#include "wire/dname.h"

const char *val_status_name(enum val_status status)
{
	switch (status) {
	case VAL_SECURE: return "secure";
	case VAL_INSECURE: return "insecure";
	case VAL_BOGUS: return "bogus";
	case VAL_INDETERMINATE: return "indeterminate";
	}
	return "unknown";
}

void val_verdict_set(struct val_verdict *v, enum val_status status,
		     uint16_t ede, const char *tag, const char *fmt, ...)
{
	va_list ap;

	v->status = status;
	v->ede = ede;
	v->tag = tag;
	v->budget = false;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

void val_verdict_secure(struct val_verdict *v)
{
	v->status = VAL_SECURE;
	v->ede = VAL_EDE_NONE;
	v->tag = "secure";
	v->reason[0] = '\0';
	v->budget = false;
}

void val_verdict_weakest(struct val_verdict *acc,
			 const struct val_verdict *link)
{
	if (link->status < acc->status)
		*acc = *link;
}

void val_work_init(struct val_work *w)
{
	w->crypto = 0;
	w->crypto_max = DT_VAL_CRYPTO_PER_ANSWER;
	w->hashes = 0;
	w->hashes_max = DT_VAL_NSEC3_HASHES_PER_ANSWER;
	w->ds_checks = 0;
	w->ds_checks_max = DT_VAL_DS_CHECKS_PER_ANSWER;
}

void val_limits_default(struct val_limits *lim)
{
	lim->sigs_per_rrset = DT_VAL_SIGS_PER_RRSET;
	lim->crypto_per_query = DT_VAL_CRYPTO_PER_QUERY;
	lim->keys_per_tag = DT_VAL_KEYS_PER_TAG;
	lim->rrsigs_per_rrset = DT_VAL_RRSIGS_PER_RRSET;
	lim->rrs_per_rrset = DT_VAL_RRS_PER_RRSET;
	lim->nsec3_iterations = DT_VAL_NSEC3_ITERATIONS;
	lim->nsec3_hashes_per_query = DT_VAL_NSEC3_HASHES_PER_QUERY;
	lim->chain_max = DT_VAL_CHAIN_MAX;
	lim->skew = DT_VAL_SKEW;
}

void val_ctx_init(struct val_ctx *ctx, int64_t now,
		  const struct val_limits *lim)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->now = now;
	if (lim)
		ctx->lim = *lim;
	else
		val_limits_default(&ctx->lim);
}

void val_trace(const struct val_ctx *ctx, const char *fmt, ...)
{
	char line[2 * VAL_REASON_MAXLEN];
	va_list ap;

	if (!ctx->trace)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ctx->trace(ctx->trace_arg, line);
}

uint16_t val_rrsig_covered(const struct wire_rr *sig)
{
	return wire_get16(sig->rdata);
}

bool val_rrsig_covers(const struct wire_rr *rr, uint16_t type)
{
	return rr->type == WIRE_TYPE_RRSIG && val_rrsig_covered(rr) == type;
}

/* Offset of the signer name in RRSIG RDATA (RFC 4034 §3.1). */
#define RRSIG_SIGNER_OFF 18

const uint8_t *val_rrsig_signer(const struct wire_rr *sig)
{
	return sig->rdata + RRSIG_SIGNER_OFF;
}

const struct val_rrset *val_rrset_find(const struct val_rrset *sets, size_t n,
				       const uint8_t *owner, uint16_t type)
{
	for (size_t i = 0; i < n; i++) {
		if (sets[i].type == type && sets[i].n > 0 &&
		    wire_dname_equal(sets[i].owner, owner))
			return &sets[i];
	}
	return NULL;
}

/* The type a record groups under: an RRSIG groups with what it covers. */
static uint16_t group_type(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG ? val_rrsig_covered(rr) : rr->type;
}

/* The RRset key of two records compared: class, grouped type, owner in
 * canonical order (case ignored). */
static int key_cmp(const struct wire_rr *a, const struct wire_rr *b)
{
	uint16_t ta = group_type(a), tb = group_type(b);

	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (a->rclass != b->rclass)
		return a->rclass < b->rclass ? -1 : 1;
	return wire_dname_canon_cmp(a->owner, b->owner);
}

/* Record positions by RRset key, then by position. */
static int position_cmp(const void *x, const void *y, void *arg)
{
	const struct wire_rr *rrs = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = key_cmp(&rrs[i], &rrs[j]);

	if (c)
		return c;
	return i < j ? -1 : i > j;
}

/* Which RRset each record belongs to (which[i]), RRsets numbered in order
 * of first appearance, with their owner, type, class and counts filled.
 * A sort of the positions, not a search of the RRsets per record: O(n log
 * n) whatever a response holds (thousands of RRsets of one record each
 * would otherwise cost millions of comparisons, and every re-validation
 * pays it again). Returns the number of RRsets or -ENOMEM. */
static int index_sets(const struct wire_rr *rrs, size_t n, struct arena *a,
		      struct val_rrset *sets, size_t *which)
{
	size_t *ord = arena_alloc(a, (n ? n : 1) * sizeof(*ord));
	size_t *rank = arena_alloc(a, (n ? n : 1) * sizeof(*rank));
	size_t ngroups = 0, nsets = 0;

	if (!ord || !rank)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), position_cmp, (void *)rrs);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || key_cmp(&rrs[ord[i - 1]], &rrs[ord[i]]) != 0)
			rank[ngroups++] = SIZE_MAX;
		which[ord[i]] = ngroups - 1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t *k = &rank[which[i]];
		if (*k == SIZE_MAX) {
			*k = nsets++;
			sets[*k] = (struct val_rrset){
				.owner = rrs[i].owner,
				.type = group_type(&rrs[i]),
				.rclass = rrs[i].rclass,
				.ttl = UINT32_MAX,
			};
		}
		which[i] = *k;
		struct val_rrset *s = &sets[*k];
		if (rrs[i].type == WIRE_TYPE_RRSIG) {
			s->nsigs++;
		} else {
			s->n++;
			if (rrs[i].ttl < s->ttl)
				s->ttl = rrs[i].ttl;
		}
	}
	return (int)nsets;
}

int val_rrsets_collect(const struct wire_rr *rrs, size_t n, struct arena *a,
		       struct val_rrset **ret_sets)
{
	struct val_rrset *sets = arena_alloc(a, (n ? n : 1) * sizeof(*sets));
	size_t *which = arena_alloc(a, (n ? n : 1) * sizeof(*which));

	if (!sets || !which)
		return -ENOMEM;
	int r = index_sets(rrs, n, a, sets, which);
	if (r < 0)
		return r;
	size_t nsets = (size_t)r;
	for (size_t k = 0; k < nsets; k++) {
		sets[k].rrs = arena_alloc(a, (sets[k].n + 1) * sizeof(void *));
		sets[k].sigs =
			arena_alloc(a, (sets[k].nsigs + 1) * sizeof(void *));
		if (!sets[k].rrs || !sets[k].sigs)
			return -ENOMEM;
		if (sets[k].n == 0)
			sets[k].ttl = 0;
		sets[k].n = sets[k].nsigs = 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct val_rrset *s = &sets[which[i]];
		if (rrs[i].type == WIRE_TYPE_RRSIG)
			s->sigs[s->nsigs++] = &rrs[i];
		else
			s->rrs[s->n++] = &rrs[i];
	}
	*ret_sets = sets;
	return (int)nsets;
}

void val_keyset_free(struct val_keyset *ks)
{
	if (!ks)
		return;
	for (size_t i = 0; i < ks->nkeys; i++)
		crypto_key_free(ks->keys[i]);
	free(ks->keys);
	ks->keys = NULL;
	ks->nkeys = 0;
}
