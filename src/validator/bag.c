/* SPDX-License-Identifier: MIT */
/*
 * An offline record source for the chain-of-trust walk (walk.h): the
 * records of `dnstrust verify`'s input, answering the walk's DS and
 * DNSKEY questions as an upstream would, from what the input holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "validator/bag.h"
#include "validator/keyset.h"
#include "validator/walk.h"
#include "wire/dname.h"
#include "wire/msg.h"

struct val_bag {
	struct walk walk;
	struct arena arena;
	struct val_rrset *sets;
	size_t nsets;
	struct val_keyset **ks;	/* built so far, in order */
	size_t nks, capks;
	struct val_work work;	/* shared by every key set and denial */
};

static const struct walk_source bag_source;

struct val_bag *val_bag_new(const struct val_ctx *ctx,
			    const struct val_anchors *ta,
			    const struct wire_rr *rrs, size_t n)
{
	struct val_bag *bag = calloc(1, sizeof(*bag));
	struct walk_source src = bag_source;
	struct val_ctx tmpl = *ctx;

	if (!bag)
		return NULL;
	val_work_init(&bag->work);
	arena_init(&bag->arena, 0);
	int r = val_rrsets_collect(rrs, n, &bag->arena, &bag->sets);
	if (r < 0) {
		val_bag_free(bag);
		return NULL;
	}
	bag->nsets = (size_t)r;
	src.arg = bag;
	tmpl.work = &bag->work;
	walk_init(&bag->walk, &src, ta, &tmpl);
	return bag;
}

void val_bag_free(struct val_bag *bag)
{
	if (!bag)
		return;
	for (size_t i = 0; i < bag->nks; i++) {
		val_keyset_free(bag->ks[i]);
		free(bag->ks[i]);
	}
	free(bag->ks);
	arena_free(&bag->arena);
	free(bag);
}

void val_bag_keysource(struct val_bag *bag, struct val_keysource *src)
{
	walk_keysource(&bag->walk, src);
}

size_t val_bag_keysets(const struct val_bag *bag,
		       const struct val_keyset *const **ret_sets)
{
	*ret_sets = (const struct val_keyset *const *)bag->ks;
	return bag->nks;
}

/* --- the walk's key-set store --- */

static const struct val_keyset *keys_get(void *arg, const uint8_t *zone)
{
	struct val_bag *bag = arg;

	for (size_t i = 0; i < bag->nks; i++)
		if (wire_dname_equal(bag->ks[i]->zone, zone))
			return bag->ks[i];
	return NULL;
}

/* Everything is kept for the bag's life: one input, one moment. */
static const struct val_keyset *keys_put(void *arg, struct val_keyset *ks,
					 bool cacheable)
{
	struct val_bag *bag = arg;
	struct val_keyset *copy = malloc(sizeof(*copy));

	(void)cacheable;
	if (copy && bag->nks == bag->capks) {
		size_t cap = bag->capks ? 2 * bag->capks : 8;
		struct val_keyset **nk = realloc(bag->ks, cap * sizeof(*nk));
		if (!nk) {
			free(copy);
			copy = NULL;
		} else {
			bag->ks = nk;
			bag->capks = cap;
		}
	}
	if (!copy) {
		val_keyset_free(ks);
		return NULL;
	}
	*copy = *ks;
	bag->ks[bag->nks++] = copy;
	return copy;
}

/* --- the walk's questions, answered from the input --- */

/* Copies the records (and RRSIGs) of n sets into one array. */
static size_t flatten(struct val_bag *bag, const struct val_rrset *const *sets,
		      size_t n, const struct wire_rr **ret)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		total += sets[i]->n + sets[i]->nsigs;
	struct wire_rr *out = arena_alloc(&bag->arena,
					  (total ? total : 1) * sizeof(*out));
	if (!out)
		return 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < sets[i]->n; j++)
			out[k++] = *sets[i]->rrs[j];
		for (size_t j = 0; j < sets[i]->nsigs; j++)
			out[k++] = *sets[i]->sigs[j];
	}
	*ret = out;
	return k;
}

static bool is_denial(const struct val_rrset *s)
{
	return (s->type == WIRE_TYPE_NSEC || s->type == WIRE_TYPE_NSEC3) &&
	       s->nsigs && s->n;
}

/* The NSEC/NSEC3 RRsets signed by the deepest proper ancestor of name
 * that signs any: what an upstream would send to deny its DS. */
static size_t denial_sets(struct val_bag *bag, const uint8_t *name,
			  const struct val_rrset ***ret)
{
	const uint8_t *best = NULL;
	size_t n = 0;

	for (size_t i = 0; i < bag->nsets; i++) {
		const struct val_rrset *s = &bag->sets[i];
		if (!is_denial(s))
			continue;
		const uint8_t *signer = val_rrsig_signer(s->sigs[0]);
		if (wire_dname_equal(signer, name) ||
		    !wire_dname_is_subdomain(name, signer))
			continue;
		if (!best || wire_dname_labels(signer) > wire_dname_labels(best))
			best = signer;
	}
	if (!best)
		return 0;
	const struct val_rrset **out =
		arena_alloc(&bag->arena, bag->nsets * sizeof(*out));
	if (!out)
		return 0;
	for (size_t i = 0; i < bag->nsets; i++) {
		const struct val_rrset *s = &bag->sets[i];
		if (is_denial(s) &&
		    wire_dname_equal(best, val_rrsig_signer(s->sigs[0])))
			out[n++] = s;
	}
	*ret = out;
	return n;
}

/*
 * A DNSKEY question: the DNSKEY RRset of the input. A DS question: the
 * DS RRset, or else the proofs the input holds, as a tentative answer
 * (they may be about other names).
 */
static enum walk_got response(void *arg, const uint8_t *name, uint16_t type,
			      struct val_response *resp, bool *tentative,
			      int *err)
{
	struct val_bag *bag = arg;
	const struct val_rrset *set =
		val_rrset_find(bag->sets, bag->nsets, name, type);
	const struct val_rrset **sets = &set;
	size_t n = set ? 1 : 0;

	*err = 0;
	resp->rcode = WIRE_RCODE_NOERROR;
	if (set) {
		resp->nanswer = flatten(bag, sets, 1, &resp->answer);
		return resp->nanswer ? WALK_GOT : WALK_FAILED;
	}
	if (type != WIRE_TYPE_DS || !(n = denial_sets(bag, name, &sets)))
		return WALK_ABSENT;
	*tentative = true;
	resp->nauthority = flatten(bag, sets, n, &resp->authority);
	if (!resp->nauthority) {
		*err = -ENOMEM;
		return WALK_FAILED;
	}
	return WALK_GOT;
}

/* True when the input shows name to be a zone (or claims so). */
static bool is_cut(void *arg, const uint8_t *name)
{
	const struct val_bag *bag = arg;

	for (size_t i = 0; i < bag->nsets; i++) {
		const struct val_rrset *s = &bag->sets[i];
		if ((s->type == WIRE_TYPE_DNSKEY || s->type == WIRE_TYPE_DS) &&
		    s->n && wire_dname_equal(s->owner, name))
			return true;
		for (size_t j = 0; j < s->nsigs; j++) {
			if (wire_dname_equal(name, val_rrsig_signer(s->sigs[j])))
				return true;
		}
	}
	return false;
}

static const struct walk_source bag_source = {
	.response = response,
	.is_cut = is_cut,
	.keys_get = keys_get,
	.keys_put = keys_put,
};
