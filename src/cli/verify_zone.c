/* SPDX-License-Identifier: MIT */
/*
 * dnstrust verify --zone: checks a whole signed zone, as ldns-verify-zone
 * does (see dnstrust(1)). The apex DNSKEY RRset is authenticated from
 * trust anchors or, without them, from the zone's own SEP keys; then the
 * signature of every authoritative RRset and the NSEC or NSEC3 chain are
 * checked. Every problem is one line "error: owner/type: reason [tag]".
 *
 * Records are sorted once into canonical order (RFC 4034 §6.1); names
 * below a zone cut then follow the cut, and the ancestors of a name that
 * exist come before it, so every later pass is one walk over that order:
 * the whole check is n log n in the size of the zone.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/key.h"
#include "crypto/nsec3.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "validator/val.h"
#include "wire/base.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"
#include "wire/zone.h"

/* One zone file is read whole and kept in memory; the zone reader already
 * refuses files over 1 GiB, so the arena needs no cap of its own. */
#define ZONE_ARENA_MAX (SIZE_MAX / 2)
/* First allocation of a growing array (records, names). */
#define ZONE_VEC_MIN 1024
/* Largest type bitmap: 256 windows of 2 + 32 octets. */
#define ZONE_BITMAP_MAX (256 * 34)
/* The opt-out bit of the NSEC3 flags field (RFC 5155 §3.1.2.1). */
#define NSEC3_FLAG_OPTOUT 0x01
/* Offset of the salt in NSEC3 and NSEC3PARAM RDATA (RFC 5155 §3.2). */
#define NSEC3_SALT_OFF 5

/* What a name is to the zone, decided in one pass over canonical order. */
enum zkind {
	ZK_DATA,	/* authoritative name */
	ZK_APEX,
	ZK_CUT,		/* delegation point: only DS and NSEC are signed */
	ZK_OCCLUDED,	/* below a cut or a DNAME: glue, not checked */
	ZK_NSEC3,	/* an NSEC3 owner, <hash>.<apex> */
	ZK_OUTSIDE,	/* not at or below the apex */
};

struct zname {
	const uint8_t *owner;
	size_t first, end;	/* its records: sorted[first..end) */
	uint8_t kind;		/* enum zkind */
	bool ns, ds, dname, nsec3, other; /* types present (nsec3: NSEC3 or
					     its RRSIG; other: anything else) */
};

/* A name the denial chain accounts for, in canonical order: the
 * authoritative names and, for NSEC3, the empty non-terminals. */
struct dnode {
	const uint8_t *name;
	const struct zname *zn;	/* NULL for an empty non-terminal */
	bool optional;		/* an insecure delegation, or an empty
				   non-terminal leading only to such: may
				   be left out of an opt-out chain */
	uint8_t hash[CRYPTO_NSEC3_HASHLEN];
};

struct zone {
	struct arena arena;
	uint8_t apex[DT_NAME_MAXLEN];
	struct wire_rr *rr;
	size_t n, cap;
	const struct wire_rr **sorted;
	struct zname *names;
	size_t nnames;
	const struct zname *apex_name;	/* NULL when the apex has no record */
	struct dnode *nodes;
	size_t nnodes, capnodes;
	uint16_t *types;		/* scratch for one name's types */
};

/* What is known about the zone's keys. */
struct zkeys {
	struct val_keyset ks;
	bool built;		/* ks holds keys to free */
	bool anchored;
	bool unauthenticated;	/* ks: the DNSKEY RRset's own zone keys,
				   after it failed to authenticate */
	struct val_verdict verdict;
	char how[256];
};

struct zcheck {
	struct zone z;
	struct zkeys keys;
	int64_t now;
	bool json;
	size_t errors, verified;
};

/* --- output --- */

static void owner_str(const uint8_t *owner, char buf[DT_NAME_TEXT_MAXLEN])
{
	if (wire_dname_to_str(owner, buf, DT_NAME_TEXT_MAXLEN) < 0)
		snprintf(buf, DT_NAME_TEXT_MAXLEN, "?");
}

static void json_error(const struct zcheck *c, const char *owner,
		       const char *type, uint16_t ede, const char *tag,
		       const char *reason)
{
	printf("%s{\"owner\":", c->errors ? "," : "");
	cli_json_str(stdout, owner);
	printf(",\"type\":\"%s\",\"reason\":", type);
	cli_json_str(stdout, reason);
	printf(",\"tag\":");
	cli_json_str(stdout, tag);
	if (ede != VAL_EDE_NONE)
		printf(",\"ede\":%u}", ede);
	else
		printf(",\"ede\":null}");
}

/* Reports one problem: "error: owner/type: reason [tag]". */
__attribute__((format(printf, 6, 7))) static void
zerror(struct zcheck *c, const uint8_t *owner, uint16_t type, uint16_t ede,
       const char *tag, const char *fmt, ...)
{
	char name[DT_NAME_TEXT_MAXLEN], ty[16], reason[VAL_REASON_MAXLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	owner_str(owner, name);
	wire_type_to_str(type, ty);
	if (c->json)
		json_error(c, name, ty, ede, tag, reason);
	else
		printf("error: %s/%s: %s [%s]\n", name, ty, reason, tag);
	c->errors++;
}

/* --- reading --- */

/* Makes room for one more element of size octets in an arena array.
 * The old block stays in the arena: doubling wastes at most as much as
 * the array holds. */
static void *vec_reserve(struct arena *a, void *v, size_t n, size_t *cap,
			 size_t size)
{
	size_t ncap = *cap ? 2 * *cap : ZONE_VEC_MIN;
	void *nv;

	if (n < *cap)
		return v;
	if (ncap > SIZE_MAX / 2 / size)
		return NULL;
	nv = arena_alloc(a, ncap * size);
	if (!nv)
		return NULL;
	if (n)
		memcpy(nv, v, n * size);
	*cap = ncap;
	return nv;
}

/* Copies a record into the zone. Consecutive records of one owner (the
 * usual layout of a zone file) share one copy of the name. */
static int zone_add(struct zone *z, const struct wire_rr *rr)
{
	size_t olen = wire_dname_len(rr->owner);
	struct wire_rr *v = vec_reserve(&z->arena, z->rr, z->n, &z->cap,
					sizeof(*v));
	const uint8_t *owner, *rdata;

	if (!v)
		return -ENOMEM;
	z->rr = v;
	owner = z->n ? v[z->n - 1].owner : NULL;
	if (!owner || wire_dname_len(owner) != olen ||
	    memcmp(owner, rr->owner, olen) != 0)
		owner = arena_memdup(&z->arena, rr->owner, olen);
	rdata = arena_memdup(&z->arena, rr->rdata, rr->rdlen);
	if (!owner || !rdata)
		return -ENOMEM;
	v[z->n] = *rr;
	v[z->n].owner = owner;
	v[z->n].rdata = rdata;
	z->n++;
	return 0;
}

/* Reads one zone file. Prints why on failure. */
static int zone_read(struct zone *z, const char *path, const char *origin)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	int r = wire_zreader_open(path, origin, 3600, &zr);

	if (r < 0) {
		fprintf(stderr, "dnstrust verify: %s: %s\n", path,
			errcode_str(r));
		return r;
	}
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		if ((r = zone_add(z, &rr)) < 0)
			break;
	}
	if (r < 0)
		fprintf(stderr, "dnstrust verify: %s\n",
			r == -ENOMEM ? "out of memory" : wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r;
}

/* --- canonical order and RRsets --- */

/* The type a record groups under: an RRSIG groups with what it covers. */
static uint16_t group_type(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG ? val_rrsig_covered(rr) : rr->type;
}

static int cmp_u16(uint16_t a, uint16_t b)
{
	return a < b ? -1 : a > b;
}

/* Owner in canonical order, then type, class, data before RRSIGs, and
 * file order last (qsort is not stable). */
static int rr_cmp(const void *pa, const void *pb)
{
	const struct wire_rr *a = *(const struct wire_rr *const *)pa;
	const struct wire_rr *b = *(const struct wire_rr *const *)pb;
	int d = a->owner == b->owner ? 0
				     : wire_dname_canon_cmp(a->owner, b->owner);

	if (!d)
		d = cmp_u16(group_type(a), group_type(b));
	if (!d)
		d = cmp_u16(a->rclass, b->rclass);
	if (!d)
		d = (a->type == WIRE_TYPE_RRSIG) - (b->type == WIRE_TYPE_RRSIG);
	if (!d)
		d = a < b ? -1 : a > b;
	return d;
}

static int zone_sort(struct zone *z)
{
	z->sorted = arena_alloc(&z->arena, (z->n + 1) * sizeof(*z->sorted));
	if (!z->sorted)
		return -ENOMEM;
	for (size_t i = 0; i < z->n; i++)
		z->sorted[i] = &z->rr[i];
	qsort(z->sorted, z->n, sizeof(*z->sorted), rr_cmp);
	return 0;
}

static bool same_owner(const uint8_t *a, const uint8_t *b)
{
	return a == b || wire_dname_equal(a, b);
}

/* Groups the sorted records by owner; sizes the scratch type list. */
static int zone_index(struct zone *z)
{
	size_t most = 0;

	z->names = arena_alloc(&z->arena, (z->n + 1) * sizeof(*z->names));
	if (!z->names)
		return -ENOMEM;
	for (size_t i = 0; i < z->n; i++) {
		struct zname *last = z->nnames ? &z->names[z->nnames - 1] : NULL;
		if (last && same_owner(last->owner, z->sorted[i]->owner)) {
			last->end = i + 1;
			continue;
		}
		z->names[z->nnames++] = (struct zname){
			.owner = z->sorted[i]->owner, .first = i, .end = i + 1};
	}
	for (size_t i = 0; i < z->nnames; i++) {
		if (z->names[i].end - z->names[i].first > most)
			most = z->names[i].end - z->names[i].first;
	}
	z->types = arena_alloc(&z->arena, (most + 3) * sizeof(*z->types));
	return z->types ? 0 : -ENOMEM;
}

/* Whether sorted[i] is within zn and belongs to set, as one of its
 * records (sig false) or one of its RRSIGs (sig true). */
static bool in_set(const struct zone *z, const struct zname *zn, size_t i,
		   const struct val_rrset *set, bool sig)
{
	const struct wire_rr *rr;

	if (i >= zn->end)
		return false;
	rr = z->sorted[i];
	return (rr->type == WIRE_TYPE_RRSIG) == sig &&
	       group_type(rr) == set->type && rr->rclass == set->rclass;
}

/* The RRset starting at sorted[*pos] within zn: its records, then the
 * RRSIGs covering its type (the sort put them there). Advances *pos past
 * both. An RRSIG without records forms an RRset with n = 0. */
static void next_rrset(const struct zone *z, const struct zname *zn,
		       size_t *pos, struct val_rrset *set)
{
	const struct wire_rr *r0 = z->sorted[*pos];
	size_t i = *pos;

	*set = (struct val_rrset){.owner = zn->owner,
				  .type = group_type(r0),
				  .rclass = r0->rclass,
				  .ttl = UINT32_MAX,
				  .rrs = &z->sorted[i]};
	for (; in_set(z, zn, i, set, false); i++) {
		if (z->sorted[i]->ttl < set->ttl)
			set->ttl = z->sorted[i]->ttl;
	}
	set->n = i - *pos;
	set->sigs = &z->sorted[i];
	while (in_set(z, zn, i, set, true))
		i++;
	set->nsigs = (size_t)(&z->sorted[i] - set->sigs);
	if (set->n == 0)
		set->ttl = 0;
	*pos = i;
}

/* Finds the RRset of type at zn (with records or only RRSIGs). */
static bool find_rrset(const struct zone *z, const struct zname *zn,
		       uint16_t type, struct val_rrset *set)
{
	for (size_t pos = zn->first; pos < zn->end;) {
		next_rrset(z, zn, &pos, set);
		if (set->type == type)
			return true;
	}
	return false;
}

/* --- what each name is --- */

static void name_types(const struct zone *z, struct zname *zn)
{
	for (size_t i = zn->first; i < zn->end; i++) {
		switch (z->sorted[i]->type) {
		case WIRE_TYPE_RRSIG:
			/* An orphan RRSIG(NSEC3) still marks an NSEC3 owner. */
			if (group_type(z->sorted[i]) == WIRE_TYPE_NSEC3)
				zn->nsec3 = true;
			else
				zn->other = true;
			break;
		case WIRE_TYPE_NSEC3: zn->nsec3 = true; break;
		case WIRE_TYPE_NS: zn->ns = zn->other = true; break;
		case WIRE_TYPE_DS: zn->ds = zn->other = true; break;
		case WIRE_TYPE_DNAME: zn->dname = zn->other = true; break;
		default: zn->other = true; break;
		}
	}
}

/* An NSEC3 owner is a child of the apex holding only NSEC3 records. */
static bool is_nsec3_owner(const struct zone *z, const struct zname *zn)
{
	const uint8_t *parent = wire_dname_parent(zn->owner);

	return zn->nsec3 && !zn->other && parent &&
	       wire_dname_equal(parent, z->apex);
}

/* One pass in canonical order: the names below a cut (or a DNAME, RFC
 * 6672 §2.4) follow it directly, so one remembered cut suffices. */
static void zone_classify(struct zone *z)
{
	const uint8_t *cut = NULL;

	for (size_t i = 0; i < z->nnames; i++) {
		struct zname *zn = &z->names[i];
		name_types(z, zn);
		if (!wire_dname_is_subdomain(zn->owner, z->apex)) {
			zn->kind = ZK_OUTSIDE;
		} else if (cut && wire_dname_is_subdomain(zn->owner, cut)) {
			zn->kind = ZK_OCCLUDED;
		} else if (wire_dname_equal(zn->owner, z->apex)) {
			zn->kind = ZK_APEX;
			z->apex_name = zn;
		} else if (zn->ns) {
			zn->kind = ZK_CUT;
			cut = zn->owner;
		} else {
			zn->kind = is_nsec3_owner(z, zn) ? ZK_NSEC3 : ZK_DATA;
			cut = zn->dname ? zn->owner : NULL;
		}
	}
}

/* Whether an RRset of type at a name of this kind must be signed. */
static bool is_signed(uint8_t kind, uint16_t type)
{
	switch (kind) {
	case ZK_APEX: return type != WIRE_TYPE_DS; /* the parent's */
	case ZK_CUT: return type == WIRE_TYPE_DS || type == WIRE_TYPE_NSEC;
	case ZK_DATA:
	case ZK_NSEC3: return true;
	}
	return false;
}

/* --- the names the denial chain must hold --- */

static struct dnode *node_add(struct zone *z, const uint8_t *name,
			      const struct zname *zn, bool optional)
{
	struct dnode *v = vec_reserve(&z->arena, z->nodes, z->nnodes,
				      &z->capnodes, sizeof(*v));

	if (!v)
		return NULL;
	z->nodes = v;
	v[z->nnodes] = (struct dnode){
		.name = name, .zn = zn, .optional = optional};
	return &v[z->nnodes++];
}

/* Open empty non-terminals: the ancestors of the current name. */
struct ent_stack {
	size_t idx[DT_NAME_MAXLABELS];
	int depth;
};

/* Adds the empty non-terminals above name. An existing ancestor of name
 * comes before it in canonical order with only its descendants between,
 * so it is an ancestor of prev too: the ancestors of name with more
 * labels than name shares with prev are exactly the new non-terminals
 * (RFC 5155 §7.1). They are added parents first, as they sort. */
static int add_ents(struct zone *z, const uint8_t *prev, const uint8_t *name,
		    struct ent_stack *st)
{
	int labels = wire_dname_labels(name);

	for (int l = wire_dname_common_labels(prev, name) + 1; l < labels;
	     l++) {
		if (!node_add(z, wire_dname_ancestor(name, l), NULL, true))
			return -ENOMEM;
		if (st->depth < DT_NAME_MAXLABELS)
			st->idx[st->depth++] = z->nnodes - 1;
	}
	return 0;
}

/* A name that must have its NSEC3 makes its non-terminals needed too.
 * Needed entries are the bottom of the stack, so stop at the first. */
static void ents_needed(struct zone *z, struct ent_stack *st)
{
	for (int k = st->depth; k-- > 0 && z->nodes[st->idx[k]].optional;)
		z->nodes[st->idx[k]].optional = false;
}

static int zone_nodes(struct zone *z)
{
	struct ent_stack st = {.depth = 0};
	const uint8_t *prev = NULL;

	for (size_t i = 0; i < z->nnames; i++) {
		const struct zname *zn = &z->names[i];
		if (zn->kind != ZK_APEX && zn->kind != ZK_DATA &&
		    zn->kind != ZK_CUT)
			continue;
		while (st.depth > 0 &&
		       !wire_dname_is_subdomain(
			       zn->owner, z->nodes[st.idx[st.depth - 1]].name))
			st.depth--;
		if (prev && add_ents(z, prev, zn->owner, &st) < 0)
			return -ENOMEM;
		bool optional = zn->kind == ZK_CUT && !zn->ds;
		if (!node_add(z, zn->owner, zn, optional))
			return -ENOMEM;
		if (!optional)
			ents_needed(z, &st);
		prev = zn->owner;
	}
	return 0;
}

static int zone_load(struct zone *z, const char *origin, int nfiles,
		     char **files)
{
	char text[DT_NAME_TEXT_MAXLEN];
	int r = 0;

	owner_str(z->apex, text);
	for (int i = 0; i < nfiles && r >= 0; i++)
		r = zone_read(z, files[i], text);
	if (r < 0)
		return r;
	if ((r = zone_sort(z)) < 0 || (r = zone_index(z)) < 0)
		goto oom;
	zone_classify(z);
	if ((r = zone_nodes(z)) < 0)
		goto oom;
	return 0;
oom:
	fprintf(stderr, "dnstrust verify: %s: out of memory\n", origin);
	return r;
}

/* --- keys --- */

static uint16_t dnskey_flags(const struct wire_rr *rr)
{
	return wire_get16(rr->rdata);
}

/* Appends printf-formatted text to how the keys were got (cut to fit). */
__attribute__((format(printf, 2, 3))) static void
how_add(struct zkeys *k, const char *fmt, ...)
{
	size_t len = strlen(k->how);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->how + len, sizeof(k->how) - len, fmt, ap);
	va_end(ap);
}

/* Appends "tag/alg, ..." of DNSKEY records (ds false) or DS records. */
static void how_keys(struct zkeys *k, const struct wire_rr *const *rrs,
		     size_t n, bool ds)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *rd = rrs[i]->rdata;
		unsigned tag =
			ds ? wire_get16(rd) : wire_keytag(rd, rrs[i]->rdlen);
		how_add(k, "%s%u/%u", i ? ", " : "", tag, ds ? rd[2] : rd[3]);
	}
	how_add(k, ")");
}

/* The DNSKEYs trusted without anchors: the SEP keys (flags 257), or, in a
 * zone without one, every zone key. Returns how many. */
static size_t self_anchors(const struct val_rrset *set,
			   const struct wire_rr **ptrs)
{
	size_t n = 0;

	for (size_t i = 0; i < set->n; i++) {
		if (dnskey_flags(set->rrs[i]) == 257)
			ptrs[n++] = set->rrs[i];
	}
	for (size_t i = 0; n == 0 && i < set->n; i++) {
		uint16_t f = dnskey_flags(set->rrs[i]);
		if ((f & CRYPTO_KEY_FLAG_ZONE) && !(f & CRYPTO_KEY_FLAG_REVOKE))
			ptrs[n++] = set->rrs[i];
	}
	return n;
}

static int keys_self(struct zcheck *c, const struct val_rrset *set)
{
	const struct wire_rr **ptrs =
		arena_alloc(&c->z.arena, (set->n + 1) * sizeof(*ptrs));
	struct val_ctx ctx;
	size_t n;

	if (!ptrs)
		return -ENOMEM;
	n = self_anchors(set, ptrs);
	how_add(&c->keys, "self-signed, not anchored");
	if (n == 0) {
		val_verdict_set(&c->keys.verdict, VAL_BOGUS,
				WIRE_EDE_NO_ZONE_KEY_BIT, "zone-no-zone-key",
				"the DNSKEY RRset holds no zone key");
		return 0;
	}
	if (dnskey_flags(ptrs[0]) == 257)
		how_add(&c->keys, " (SEP key%s ", n == 1 ? "" : "s");
	else
		how_add(&c->keys, " (no SEP key; zone key%s ", n == 1 ? "" : "s");
	how_keys(&c->keys, ptrs, n, false);
	val_ctx_init(&ctx, c->now, NULL);
	if (val_keyset_from_dnskey_anchor(&ctx, c->z.apex, set, ptrs, n,
					  &c->keys.ks) < 0)
		return -ENOMEM;
	c->keys.built = true;
	c->keys.verdict = c->keys.ks.verdict;
	return 0;
}

/* Authenticates the DNSKEY RRset from the anchors of the apex: its DS
 * anchors when it has any, else its DNSKEY anchors. */
static int keys_from_anchor(struct zcheck *c, const struct val_rrset *set,
			    const struct val_anchor_zone *az)
{
	bool ds = az->nds > 0;
	size_t n = ds ? az->nds : az->ndnskey;
	const struct wire_rr **ptrs =
		arena_alloc(&c->z.arena, (n + 1) * sizeof(*ptrs));
	struct val_ctx ctx;
	int r;

	if (!ptrs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		ptrs[i] = ds ? &az->ds[i] : &az->dnskey[i];
	how_add(&c->keys, "anchored (%s trust anchor%s ", ds ? "DS" : "DNSKEY",
		n == 1 ? "" : "s");
	how_keys(&c->keys, ptrs, n, ds);
	c->keys.anchored = true;
	val_ctx_init(&ctx, c->now, NULL);
	if (ds)
		r = val_keyset_from_ds(&ctx, c->z.apex, set, ptrs, n,
				       UINT32_MAX, &c->keys.ks);
	else
		r = val_keyset_from_dnskey_anchor(&ctx, c->z.apex, set, ptrs, n,
						  &c->keys.ks);
	if (r < 0)
		return r;
	c->keys.built = true;
	c->keys.verdict = c->keys.ks.verdict;
	return 0;
}

/* Loads the anchor files and uses the anchors of the apex. A failure to
 * read them is reported and returned as DT_ESYNTAX. */
static int keys_anchored(struct zcheck *c, const struct val_rrset *set,
			 const char *const *files, int nfiles)
{
	struct val_anchors *ta = val_anchors_new();
	const struct val_anchor_zone *az;
	char err[512], apex[DT_NAME_TEXT_MAXLEN];
	int r = 0;

	if (!ta)
		return -ENOMEM;
	for (int i = 0; i < nfiles && r >= 0; i++) {
		err[0] = '\0';
		r = val_anchors_load(ta, files[i], err, sizeof(err));
		if (r < 0)
			fprintf(stderr, "dnstrust verify: %s\n",
				err[0] ? err : errcode_str(r));
	}
	if (r < 0) {
		val_anchors_free(ta);
		return r == -ENOMEM ? r : DT_ESYNTAX;
	}
	az = val_anchors_find(ta, c->z.apex);
	if (az && wire_dname_equal(az->zone, c->z.apex)) {
		r = keys_from_anchor(c, set, az);
	} else {
		owner_str(c->z.apex, apex);
		how_add(&c->keys, "not anchored");
		val_verdict_set(&c->keys.verdict, VAL_INDETERMINATE,
				WIRE_EDE_DNSSEC_INDETERMINATE, "zone-no-anchor",
				"no trust anchor for %s in the anchor files",
				apex);
	}
	val_anchors_free(ta);
	return r;
}

/* After the DNSKEY RRset failed to authenticate, its own zone keys still
 * tell which other RRsets are broken: the zone stays bogus, and the
 * report lists every problem instead of only the first. */
static int keys_unauthenticated(struct zcheck *c, const struct val_rrset *set)
{
	struct crypto_key **keys = calloc(set->n + 1, sizeof(*keys));
	size_t n = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < set->n; i++) {
		const struct wire_rr *rr = set->rrs[i];
		uint16_t f = dnskey_flags(rr);
		if (!(f & CRYPTO_KEY_FLAG_ZONE) || (f & CRYPTO_KEY_FLAG_REVOKE))
			continue;
		int r = crypto_key_new(rr->rdata, rr->rdlen, &keys[n]);
		if (r == -ENOMEM)
			break;
		n += r == 0;
	}
	if (c->keys.built)
		val_keyset_free(&c->keys.ks);
	memset(&c->keys.ks, 0, sizeof(c->keys.ks));
	wire_dname_copy(c->keys.ks.zone, c->z.apex);
	val_verdict_secure(&c->keys.ks.verdict);
	c->keys.ks.keys = keys;
	c->keys.ks.nkeys = n;
	c->keys.ks.ttl = set->ttl;
	c->keys.built = true;
	c->keys.unauthenticated = true;
	return 0;
}

static int keys_build(struct zcheck *c, const char *const *files, int nfiles)
{
	struct val_rrset set;
	int r;

	if (!c->z.apex_name ||
	    !find_rrset(&c->z, c->z.apex_name, WIRE_TYPE_DNSKEY, &set) ||
	    set.n == 0) {
		how_add(&c->keys, "none");
		val_verdict_set(&c->keys.verdict, VAL_INDETERMINATE,
				WIRE_EDE_DNSKEY_MISSING, "zone-no-dnskey",
				"the zone has no DNSKEY RRset at its apex");
		return 0;
	}
	r = nfiles ? keys_anchored(c, &set, files, nfiles)
		   : keys_self(c, &set);
	if (r < 0 || c->keys.verdict.status != VAL_BOGUS)
		return r;
	return keys_unauthenticated(c, &set);
}

static void keys_print_json(const struct zcheck *c)
{
	const struct zkeys *k = &c->keys;

	printf("\"keys\":{\"how\":");
	cli_json_str(stdout, k->how);
	printf(",\"anchored\":%s,\"status\":\"%s\",\"unauthenticated\":%s,"
	       "\"reason\":",
	       k->anchored ? "true" : "false",
	       val_status_name(k->verdict.status),
	       k->unauthenticated ? "true" : "false");
	cli_json_str(stdout, k->verdict.reason);
	printf(",\"tag\":");
	cli_json_str(stdout, k->verdict.tag ? k->verdict.tag : "");
	printf(",\"keys\":[");
	for (size_t i = 0; k->built && i < k->ks.nkeys; i++)
		printf("%s{\"tag\":%u,\"alg\":%u,\"flags\":%u}", i ? "," : "",
		       crypto_key_tag(k->ks.keys[i]),
		       crypto_key_alg(k->ks.keys[i]),
		       crypto_key_flags(k->ks.keys[i]));
	printf("]}");
}

static void keys_print(const struct zcheck *c)
{
	const struct zkeys *k = &c->keys;
	char apex[DT_NAME_TEXT_MAXLEN];

	owner_str(c->z.apex, apex);
	if (c->json) {
		printf("{\"zone\":");
		cli_json_str(stdout, apex);
		printf(",");
		keys_print_json(c);
		printf(",\"errors\":[");
		return;
	}
	printf("keys: %s; DNSKEY RRset %s", k->how,
	       val_status_name(k->verdict.status));
	if (k->unauthenticated)
		printf("; RRsets checked with its unauthenticated zone keys");
	else if (k->verdict.status != VAL_SECURE)
		printf(": %s [%s]", k->verdict.reason, k->verdict.tag);
	printf("\n");
}

/* --- signatures --- */

static int verify_set(struct zcheck *c, const struct val_rrset *set)
{
	struct val_verdict v;
	struct val_ctx ctx;

	/* Each RRset is a question of its own: a fresh budget. */
	val_ctx_init(&ctx, c->now, NULL);
	if (val_rrset_verify(&ctx, set, &c->keys.ks, NULL, &v) < 0)
		return -ENOMEM;
	if (v.status == VAL_SECURE)
		c->verified++;
	else
		zerror(c, set->owner, set->type, v.ede, v.tag, "%s", v.reason);
	return 0;
}

static int verify_name(struct zcheck *c, const struct zname *zn)
{
	struct val_rrset set;

	for (size_t pos = zn->first; pos < zn->end;) {
		next_rrset(&c->z, zn, &pos, &set);
		if (!is_signed(zn->kind, set.type))
			continue;
		/* The key set came from the apex DNSKEY RRset: reported. */
		if (zn->kind == ZK_APEX && set.type == WIRE_TYPE_DNSKEY) {
			c->verified += !c->keys.unauthenticated;
			continue;
		}
		if (set.n == 0) {
			zerror(c, set.owner, set.type, WIRE_EDE_DNSSEC_BOGUS,
			       "zone-rrsig-orphan",
			       "RRSIG covering a type that is not present");
			continue;
		}
		if (verify_set(c, &set) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int verify_all(struct zcheck *c)
{
	for (size_t i = 0; i < c->z.nnames; i++) {
		if (verify_name(c, &c->z.names[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* --- structure --- */

static void check_names(struct zcheck *c)
{
	struct val_rrset set;
	char apex[DT_NAME_TEXT_MAXLEN];

	owner_str(c->z.apex, apex);
	if (!c->z.apex_name ||
	    !find_rrset(&c->z, c->z.apex_name, WIRE_TYPE_SOA, &set) ||
	    set.n != 1)
		zerror(c, c->z.apex, WIRE_TYPE_SOA, WIRE_EDE_INVALID_DATA,
		       "zone-soa", "the apex must hold exactly one SOA record");
	for (size_t i = 0; i < c->z.nnames; i++) {
		const struct zname *zn = &c->z.names[i];
		if (zn->kind == ZK_OUTSIDE)
			zerror(c, zn->owner, c->z.sorted[zn->first]->type,
			       WIRE_EDE_INVALID_DATA, "zone-outside",
			       "name outside the zone %s", apex);
	}
}

/* The types whose bit the NSEC or NSEC3 of zn must set: those present
 * (at a cut only NS and DS; the apex's DS is the parent's), plus NSEC for
 * NSEC, plus RRSIG when something there is signed. */
static size_t expected_types(const struct zone *z, const struct zname *zn,
			     bool nsec3, uint16_t *t)
{
	struct val_rrset set;
	bool sig = !nsec3;
	size_t n = 0;

	if (!nsec3)
		t[n++] = WIRE_TYPE_NSEC;
	for (size_t pos = zn ? zn->first : 0; zn && pos < zn->end;) {
		next_rrset(z, zn, &pos, &set);
		if (set.n == 0 || set.type == WIRE_TYPE_NSEC ||
		    (zn->kind == ZK_CUT && set.type != WIRE_TYPE_NS &&
		     set.type != WIRE_TYPE_DS) ||
		    (zn->kind == ZK_APEX && set.type == WIRE_TYPE_DS))
			continue;
		t[n++] = set.type;
		sig = sig || is_signed(zn->kind, set.type);
	}
	if (sig)
		t[n++] = WIRE_TYPE_RRSIG;
	return n;
}

struct tlist {
	char *buf;
	size_t len, cap;
};

static int tlist_add(uint16_t type, void *arg)
{
	struct tlist *l = arg;
	char ty[16];
	int w;

	if (l->len >= l->cap)
		return 1;
	w = snprintf(l->buf + l->len, l->cap - l->len, "%s%s",
		     l->len ? " " : "", wire_type_to_str(type, ty));
	l->len += w > 0 ? (size_t)w : 0;
	return 0;
}

/* The types of a bitmap as text ("A RRSIG NSEC"), "no type" if none. */
static void types_str(const uint8_t *bm, size_t len, char *buf, size_t cap)
{
	struct tlist l = {.buf = buf, .cap = cap};

	buf[0] = '\0';
	wire_bitmap_foreach(bm, len, tlist_add, &l);
	if (!buf[0])
		snprintf(buf, cap, "no type");
}

/* Compares the bitmap of the NSEC or NSEC3 record rr (for the name zn,
 * NULL for an empty non-terminal) with the types present. */
static void check_bitmap(struct zcheck *c, const struct wire_rr *rr,
			 const uint8_t *bm, size_t bmlen,
			 const struct zname *zn)
{
	bool nsec3 = rr->type == WIRE_TYPE_NSEC3;
	size_t nt = expected_types(&c->z, zn, nsec3, c->z.types);
	uint8_t want[ZONE_BITMAP_MAX];
	char have_s[140], want_s[140];
	int wl = wire_bitmap_build(c->z.types, nt, want, sizeof(want));

	if (wl == (int)bmlen && memcmp(want, bm, bmlen) == 0)
		return;
	types_str(bm, bmlen, have_s, sizeof(have_s));
	types_str(want, wl > 0 ? (size_t)wl : 0, want_s, sizeof(want_s));
	if (strcmp(have_s, want_s) == 0)
		zerror(c, rr->owner, rr->type, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-bitmap-form",
		       "type bitmap is not in minimal form (RFC 4034 §4.1.2)");
	else
		zerror(c, rr->owner, rr->type, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-bitmap", "type bitmap lists %s; the name has %s",
		       have_s, want_s);
}

/* --- NSEC --- */

/* The NSEC of zn must exist once, point to next and list its types. */
static void check_nsec(struct zcheck *c, const struct zname *zn,
		       const uint8_t *next)
{
	char want[DT_NAME_TEXT_MAXLEN], have[DT_NAME_TEXT_MAXLEN];
	const struct wire_rr *rr;
	struct val_rrset set;
	size_t nlen;

	if (!find_rrset(&c->z, zn, WIRE_TYPE_NSEC, &set) || set.n == 0) {
		zerror(c, zn->owner, WIRE_TYPE_NSEC, WIRE_EDE_NSEC_MISSING,
		       "zone-nsec-missing", "no NSEC record at this name");
		return;
	}
	if (set.n > 1)
		zerror(c, zn->owner, WIRE_TYPE_NSEC, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-nsec-multiple", "%zu NSEC records at one name",
		       set.n);
	rr = set.rrs[0];
	nlen = wire_dname_len(rr->rdata);
	if (!wire_dname_equal(rr->rdata, next)) {
		owner_str(rr->rdata, have);
		owner_str(next, want);
		zerror(c, zn->owner, WIRE_TYPE_NSEC, WIRE_EDE_NSEC_MISSING,
		       "zone-nsec-next", "next name is %s, expected %s", have,
		       want);
	}
	check_bitmap(c, rr, rr->rdata + nlen, rr->rdlen - nlen, zn);
}

/* Walks the authoritative names in canonical order: each NSEC must name
 * the following one, and the last the apex (a closed loop). */
static void check_nsec_chain(struct zcheck *c)
{
	const struct zname *prev = NULL;
	struct val_rrset set;

	for (size_t i = 0; i < c->z.nnodes; i++) {
		if (!c->z.nodes[i].zn)
			continue;
		if (prev)
			check_nsec(c, prev, c->z.nodes[i].name);
		prev = c->z.nodes[i].zn;
	}
	if (prev)
		check_nsec(c, prev, c->z.apex);
	for (size_t i = 0; i < c->z.nnames; i++) {
		const struct zname *zn = &c->z.names[i];
		if (zn->kind == ZK_OCCLUDED &&
		    find_rrset(&c->z, zn, WIRE_TYPE_NSEC, &set) && set.n)
			zerror(c, zn->owner, WIRE_TYPE_NSEC,
			       WIRE_EDE_DNSSEC_BOGUS, "zone-nsec-occluded",
			       "NSEC below a delegation point");
	}
}

/* --- NSEC3 --- */

/* NSEC3 and NSEC3PARAM RDATA fields (RFC 5155 §3.2, §4.2). */
struct n3rdata {
	uint8_t alg, flags;
	uint16_t iter;
	uint8_t saltlen;
	const uint8_t *salt;
	uint8_t hashlen;	/* NSEC3 only from here on */
	const uint8_t *next;
	const uint8_t *bm;
	size_t bmlen;
};

/* Reads fields of RDATA the zone reader checked against its layout. */
static void n3_parse(const struct wire_rr *rr, struct n3rdata *d)
{
	const uint8_t *p = rr->rdata;

	memset(d, 0, sizeof(*d));
	d->alg = p[0];
	d->flags = p[1];
	d->iter = wire_get16(p + 2);
	d->saltlen = p[4];
	d->salt = p + NSEC3_SALT_OFF;
	if (rr->type != WIRE_TYPE_NSEC3)
		return;
	d->hashlen = p[NSEC3_SALT_OFF + d->saltlen];
	d->next = p + NSEC3_SALT_OFF + d->saltlen + 1;
	d->bm = d->next + d->hashlen;
	d->bmlen = rr->rdlen - (size_t)(d->bm - p);
}

static bool n3_same_params(const struct n3rdata *a, const struct n3rdata *b)
{
	return a->alg == b->alg && a->iter == b->iter &&
	       a->saltlen == b->saltlen &&
	       memcmp(a->salt, b->salt, a->saltlen) == 0;
}

/* One NSEC3 of the chain. */
struct n3 {
	uint8_t hash[CRYPTO_NSEC3_HASHLEN];
	const struct wire_rr *rr;
	struct n3rdata d;
	bool used;
};

struct n3chain {
	struct n3rdata param;
	struct n3 *e;
	size_t n;
};

static const struct wire_rr *first_nsec3(const struct zone *z)
{
	for (size_t i = 0; i < z->nnames; i++) {
		const struct zname *zn = &z->names[i];
		if (zn->kind == ZK_NSEC3 &&
		    z->sorted[zn->first]->type == WIRE_TYPE_NSEC3)
			return z->sorted[zn->first];
	}
	return NULL;
}

/* The chain's parameters: NSEC3PARAM's, or failing that (an error) the
 * first NSEC3's. False when there is no usable set. */
static bool n3_params(struct zcheck *c, struct n3rdata *p)
{
	const struct wire_rr *rr = NULL;
	struct val_rrset set;

	if (c->z.apex_name &&
	    find_rrset(&c->z, c->z.apex_name, WIRE_TYPE_NSEC3PARAM, &set) &&
	    set.n > 0)
		rr = set.rrs[0];
	if (!rr) {
		zerror(c, c->z.apex, WIRE_TYPE_NSEC3PARAM, WIRE_EDE_NSEC_MISSING,
		       "zone-nsec3param-missing",
		       "NSEC3 records but no NSEC3PARAM at the apex");
		rr = first_nsec3(&c->z);
	}
	if (!rr)
		return false;
	n3_parse(rr, p);
	if (p->alg != CRYPTO_NSEC3_SHA1) {
		zerror(c, rr->owner, rr->type, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-nsec3-alg", "unsupported NSEC3 hash algorithm %u",
		       p->alg);
		return false;
	}
	if (p->iter > DT_NSEC3_MAX_ITERATIONS) {
		zerror(c, rr->owner, rr->type,
		       WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS,
		       "zone-nsec3-iterations",
		       "%u NSEC3 iterations, more than %u: chain not checked",
		       p->iter, DT_NSEC3_MAX_ITERATIONS);
		return false;
	}
	return true;
}

/* Reads one NSEC3 owner into e; false (reported) when it is unusable. */
static bool n3_entry(struct zcheck *c, const struct zname *zn,
		     const struct n3rdata *param, struct n3 *e)
{
	uint8_t hash[64];
	struct val_rrset set;

	if (!find_rrset(&c->z, zn, WIRE_TYPE_NSEC3, &set) || set.n == 0)
		return false;
	if (set.n > 1)
		zerror(c, zn->owner, WIRE_TYPE_NSEC3, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-nsec3-multiple", "%zu NSEC3 records at one name",
		       set.n);
	e->rr = set.rrs[0];
	e->used = false;
	n3_parse(e->rr, &e->d);
	if (wire_b32hex_decode((const char *)zn->owner + 1, zn->owner[0], hash,
			       sizeof(hash)) != CRYPTO_NSEC3_HASHLEN ||
	    e->d.hashlen != CRYPTO_NSEC3_HASHLEN) {
		zerror(c, zn->owner, WIRE_TYPE_NSEC3, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-nsec3-owner",
		       "owner or next hashed owner is not a SHA-1 hash in "
		       "base32hex");
		return false;
	}
	if (!n3_same_params(&e->d, param))
		zerror(c, zn->owner, WIRE_TYPE_NSEC3, WIRE_EDE_DNSSEC_BOGUS,
		       "zone-nsec3-params",
		       "hash algorithm, iterations or salt differ from the "
		       "NSEC3PARAM's");
	memcpy(e->hash, hash, sizeof(e->hash));
	return true;
}

/* The NSEC3 records, in hash order: their owners' first labels have one
 * length (32 characters), so canonical order is the order of the
 * base32hex text, which is the order of the hashes (RFC 4648 §7). */
static int n3_collect(struct zcheck *c, struct n3chain *ch)
{
	size_t n = 0;

	for (size_t i = 0; i < c->z.nnames; i++)
		n += c->z.names[i].kind == ZK_NSEC3;
	ch->e = arena_alloc(&c->z.arena, (n + 1) * sizeof(*ch->e));
	if (!ch->e)
		return -ENOMEM;
	ch->n = 0;
	for (size_t i = 0; i < c->z.nnames; i++) {
		const struct zname *zn = &c->z.names[i];
		if (zn->kind == ZK_NSEC3 &&
		    n3_entry(c, zn, &ch->param, &ch->e[ch->n]))
			ch->n++;
	}
	return 0;
}

static void hash_str(const uint8_t *h, char buf[40])
{
	if (wire_b32hex_encode(h, CRYPTO_NSEC3_HASHLEN, buf, 40) < 0)
		snprintf(buf, 40, "?");
}

/* Each NSEC3 must point to the next in hash order, the last to the
 * first: the chain is ordered and closed. */
static void n3_check_links(struct zcheck *c, const struct n3chain *ch)
{
	char have[40], want[40];

	for (size_t i = 0; i < ch->n; i++) {
		const struct n3 *e = &ch->e[i];
		const uint8_t *next = ch->e[(i + 1) % ch->n].hash;
		if (memcmp(e->d.next, next, CRYPTO_NSEC3_HASHLEN) == 0)
			continue;
		hash_str(e->d.next, have);
		hash_str(next, want);
		zerror(c, e->rr->owner, WIRE_TYPE_NSEC3, WIRE_EDE_NSEC_MISSING,
		       "zone-nsec3-next", "next hashed owner is %s, expected %s",
		       have, want);
	}
}

static int node_hash_cmp(const void *pa, const void *pb)
{
	const struct dnode *a = *(const struct dnode *const *)pa;
	const struct dnode *b = *(const struct dnode *const *)pb;

	return memcmp(a->hash, b->hash, CRYPTO_NSEC3_HASHLEN);
}

/* Hashes every name of the chain; returns them sorted by hash. */
static int n3_hash_nodes(struct zcheck *c, const struct n3rdata *p,
			 struct dnode ***ret)
{
	struct dnode **v =
		arena_alloc(&c->z.arena, (c->z.nnodes + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->z.nnodes; i++) {
		struct dnode *d = &c->z.nodes[i];
		int r = crypto_nsec3_hash(d->name, p->alg, p->iter, p->salt,
					  p->saltlen, d->hash);
		if (r < 0)
			return r;
		v[i] = d;
	}
	qsort(v, c->z.nnodes, sizeof(*v), node_hash_cmp);
	*ret = v;
	return 0;
}

/* A name without its NSEC3: allowed only for an insecure delegation (or
 * a non-terminal leading only to such) in an opt-out span. */
static void n3_missing(struct zcheck *c, const struct dnode *d,
		       const struct n3 *cover)
{
	char h[40];

	if (d->optional && cover && (cover->d.flags & NSEC3_FLAG_OPTOUT))
		return;
	hash_str(d->hash, h);
	zerror(c, d->name, WIRE_TYPE_NSEC3, WIRE_EDE_NSEC_MISSING,
	       "zone-nsec3-missing", "no NSEC3 with hashed owner %s%s", h,
	       d->optional ? ", and no opt-out NSEC3 covers it" : "");
}

/* Merges the names and the NSEC3 records, both in hash order. */
static void n3_match(struct zcheck *c, struct n3chain *ch,
		     struct dnode *const *v)
{
	size_t j = 0;

	for (size_t k = 0; k < c->z.nnodes; k++) {
		const struct dnode *d = v[k];
		while (j < ch->n &&
		       memcmp(ch->e[j].hash, d->hash, CRYPTO_NSEC3_HASHLEN) < 0)
			j++;
		if (j < ch->n &&
		    memcmp(ch->e[j].hash, d->hash, CRYPTO_NSEC3_HASHLEN) == 0) {
			ch->e[j].used = true;
			check_bitmap(c, ch->e[j].rr, ch->e[j].d.bm,
				     ch->e[j].d.bmlen, d->zn);
			continue;
		}
		n3_missing(c, d, ch->n ? &ch->e[j ? j - 1 : ch->n - 1] : NULL);
	}
	for (size_t i = 0; i < ch->n; i++) {
		if (!ch->e[i].used)
			zerror(c, ch->e[i].rr->owner, WIRE_TYPE_NSEC3,
			       WIRE_EDE_DNSSEC_BOGUS, "zone-nsec3-orphan",
			       "NSEC3 matches no authoritative name of the "
			       "zone");
	}
}

static int check_nsec3_chain(struct zcheck *c)
{
	struct n3chain ch = {.n = 0};
	struct dnode **v;
	int r;

	if (!n3_params(c, &ch.param))
		return 0;
	if ((r = n3_collect(c, &ch)) < 0)
		return r;
	n3_check_links(c, &ch);
	if ((r = n3_hash_nodes(c, &ch.param, &v)) < 0)
		return r;
	n3_match(c, &ch, v);
	return 0;
}

static bool zone_uses_nsec3(const struct zone *z)
{
	struct val_rrset set;

	if (z->apex_name &&
	    find_rrset(z, z->apex_name, WIRE_TYPE_NSEC3PARAM, &set))
		return true;
	return first_nsec3(z) != NULL;
}

/* --- the whole check --- */

static enum val_status final_status(const struct zcheck *c)
{
	enum val_status s = c->keys.verdict.status;

	if (s == VAL_INSECURE || s == VAL_INDETERMINATE)
		return s;
	return c->errors ? VAL_BOGUS : VAL_SECURE;
}

static void print_summary(const struct zcheck *c, enum val_status s)
{
	char apex[DT_NAME_TEXT_MAXLEN];

	if (c->json) {
		printf("],\"rrsets_verified\":%zu,\"error_count\":%zu,"
		       "\"status\":\"%s\"}\n",
		       c->verified, c->errors, val_status_name(s));
		return;
	}
	owner_str(c->z.apex, apex);
	printf("zone %s: %zu RRsets verified, %zu error%s, status: %s\n", apex,
	       c->verified, c->errors, c->errors == 1 ? "" : "s",
	       val_status_name(s));
}

/* Everything after the keys; returns -ENOMEM or 0. */
static int check_zone(struct zcheck *c)
{
	const struct zkeys *k = &c->keys;

	if (k->verdict.status == VAL_BOGUS)
		zerror(c, c->z.apex, WIRE_TYPE_DNSKEY, k->verdict.ede,
		       k->verdict.tag, "%s", k->verdict.reason);
	if (k->verdict.status == VAL_INSECURE ||
	    k->verdict.status == VAL_INDETERMINATE)
		return 0;
	check_names(c);
	/* Without a single usable key every RRset would fail alike. */
	if (c->keys.ks.nkeys > 0 && verify_all(c) < 0)
		return -ENOMEM;
	if (!zone_uses_nsec3(&c->z)) {
		check_nsec_chain(c);
		return 0;
	}
	return check_nsec3_chain(c);
}

static int run(struct zcheck *c, const char *origin,
	       const char *const *anchor_files, int nanchors, int nfiles,
	       char **files)
{
	enum val_status s;
	int r = zone_load(&c->z, origin, nfiles, files);

	if (r < 0)
		return CLI_EXIT_INPUT;
	r = keys_build(c, anchor_files, nanchors);
	if (r < 0) {
		if (r == -ENOMEM)
			fprintf(stderr, "dnstrust verify: out of memory\n");
		return CLI_EXIT_INPUT;
	}
	keys_print(c);
	if (check_zone(c) < 0) {
		fflush(stdout);
		fprintf(stderr, "dnstrust verify: %s: out of memory\n", origin);
		return CLI_EXIT_INPUT;
	}
	s = final_status(c);
	print_summary(c, s);
	return cli_exit_code(s);
}

int cli_verify_zone(const char *origin, const char *const *anchor_files,
		    int nanchors, int64_t now, bool json, int nfiles,
		    char **files)
{
	struct zcheck *c = calloc(1, sizeof(*c));
	int code;

	if (!c) {
		fprintf(stderr, "dnstrust verify: out of memory\n");
		return CLI_EXIT_INPUT;
	}
	if (nfiles != 1) {
		fprintf(stderr, "dnstrust verify: --zone takes one zone file\n");
		free(c);
		return CLI_EXIT_USAGE;
	}
	if (cli_name_check("verify", "zone origin", origin, 0) < 0 ||
	    wire_dname_from_str(origin, strlen(origin), (const uint8_t *)"",
				c->z.apex) < 0) {
		free(c);
		return CLI_EXIT_USAGE;
	}
	arena_init(&c->z.arena, ZONE_ARENA_MAX);
	c->now = now;
	c->json = json;
	code = run(c, origin, anchor_files, nanchors, nfiles, files);
	if (c->keys.built)
		val_keyset_free(&c->keys.ks);
	arena_free(&c->z.arena);
	free(c);
	return code;
}
