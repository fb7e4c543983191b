/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "crypto/key.h"
#include "validator/val.h"
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
	return (uint16_t)(sig->rdata[0] << 8 | sig->rdata[1]);
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

static bool same_set(const struct val_rrset *s, const struct wire_rr *rr)
{
	return s->type == group_type(rr) && s->rclass == rr->rclass &&
	       wire_dname_equal(s->owner, rr->owner);
}

/* Counts, per RRset, records and RRSIGs; fills owner/type/class. */
static size_t index_sets(const struct wire_rr *rrs, size_t n,
			 struct val_rrset *sets, size_t *which)
{
	size_t nsets = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k;
		for (k = 0; k < nsets && !same_set(&sets[k], &rrs[i]); k++)
			;
		if (k == nsets) {
			sets[k] = (struct val_rrset){
				.owner = rrs[i].owner,
				.type = group_type(&rrs[i]),
				.rclass = rrs[i].rclass,
				.ttl = UINT32_MAX,
			};
			nsets++;
		}
		which[i] = k;
		if (rrs[i].type == WIRE_TYPE_RRSIG) {
			sets[k].nsigs++;
		} else {
			sets[k].n++;
			if (rrs[i].ttl < sets[k].ttl)
				sets[k].ttl = rrs[i].ttl;
		}
	}
	return nsets;
}

int val_rrsets_collect(const struct wire_rr *rrs, size_t n, struct arena *a,
		       struct val_rrset **ret_sets)
{
	struct val_rrset *sets = arena_alloc(a, (n ? n : 1) * sizeof(*sets));
	size_t *which = arena_alloc(a, (n ? n : 1) * sizeof(*which));

	if (!sets || !which)
		return -ENOMEM;
	size_t nsets = index_sets(rrs, n, sets, which);
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
