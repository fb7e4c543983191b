/* SPDX-License-Identifier: MIT */
/*
 * The resolver core's record source for the chain-of-trust walk
 * (validator/walk.h): DS and DNSKEY responses fetched by the task or kept
 * from earlier questions ('Q' cache entries), key sets from the key cache
 * ('K'), DS probes ('P'), and negative trust anchors. A response not had
 * yet is noted as wanted: the task fetches it and validates again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "common/log.h"
#include "policy/policy.h"
#include "resolver/task.h"
#include "validator/anchor.h"
#include "validator/keyset.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

void source_response(const struct wire_msg *msg, const uint8_t *qname,
		     uint16_t qtype, struct val_response *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->qname = qname;
	ret->qtype = qtype;
	ret->qclass = WIRE_CLASS_IN;
	ret->rcode = msg->rcode;
	ret->answer = msg->sec[WIRE_SEC_ANSWER];
	ret->nanswer = msg->count[WIRE_SEC_ANSWER];
	ret->authority = msg->sec[WIRE_SEC_AUTHORITY];
	ret->nauthority = msg->count[WIRE_SEC_AUTHORITY];
	ret->additional = msg->sec[WIRE_SEC_ADDITIONAL];
	ret->nadditional = msg->count[WIRE_SEC_ADDITIONAL];
}

/* --- cached upstream responses ('Q' entries) --- */

/*
 * A raw DS or DNSKEY response, kept for the key source of later
 * questions only once a key set or a DS verdict was built from it, for no
 * longer than what was validated (a failed one at most bogus-ttl), and
 * with that status, so that a change of upstreams can drop what did not
 * validate as secure.
 */
struct rawmsg {
	enum val_status status;
	size_t len;
	uint8_t data[];
};

/* The smallest TTL of a response's answer and authority records; for a
 * negative answer, RFC 2308 §5's SOA minimum too. */
static uint32_t response_ttl(const struct wire_msg *m)
{
	uint32_t ttl = UINT32_MAX;

	for (int s = WIRE_SEC_ANSWER; s <= WIRE_SEC_AUTHORITY; s++) {
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			uint32_t v = rr->ttl;
			if (rr->type == WIRE_TYPE_SOA && rr->rdlen >= 20) {
				const uint8_t *p = rr->rdata + rr->rdlen - 4;
				uint32_t min = wire_get32(p);
				v = min < v ? min : v;
			}
			ttl = v < ttl ? v : ttl;
		}
	}
	return ttl == UINT32_MAX ? 0 : ttl;
}

static uint32_t keep_ttl(const struct rsv_task *t, const struct wire_msg *m,
			 const struct val_verdict *v, uint32_t ttl)
{
	const struct cfg *cfg = &t->st->cfg;
	uint32_t rttl = response_ttl(m);

	if (v->status == VAL_BOGUS || v->status == VAL_INDETERMINATE)
		ttl = ttl < cfg->bogus_ttl ? ttl : cfg->bogus_ttl;
	ttl = ttl < rttl ? ttl : rttl;
	return ttl < cfg->max_cache_ttl ? ttl : cfg->max_cache_ttl;
}

/* The walk validated the response to (name, type): keep it as a 'Q'
 * entry, once, unless it was read from one. */
static void validated(void *arg, const uint8_t *name, uint16_t type,
		      const struct val_verdict *v, uint32_t ttl)
{
	struct rsv_task *t = arg;
	struct rsv_fetched *f = source_fetched_find(t, name, type);
	uint8_t key[DT_CACHE_KEY_MAXLEN];

	if (!f || !f->msg || f->kept)
		return;
	f->kept = true;
	const struct wire_msg *m = f->msg;
	if (m->rcode != WIRE_RCODE_NOERROR && m->rcode != WIRE_RCODE_NXDOMAIN)
		return;
	if (!(ttl = keep_ttl(t, m, v, ttl)))
		return;
	struct rawmsg *r = malloc(sizeof(*r) + m->rawlen);
	if (!r)
		return;
	r->status = v->status;
	r->len = m->rawlen;
	memcpy(r->data, m->raw, m->rawlen);
	size_t klen = answer_key('Q', name, type, WIRE_CLASS_IN, key);
	cache_put(t->r->cache, key, klen, r, sizeof(*r) + r->len,
		  t->mono + ttl, free);
}

/* The walk proved with signed NSEC records that name has no DS (a
 * referral's proof of an unsigned delegation among them, which has no
 * SOA and is not kept as a response, RFC 2308 §5): the records join the
 * kept NSEC records of the parent's zone (nsec.c), so that the question
 * `name DS` is answered from them (RFC 8198), validated again there. */
static void ds_validated(void *arg, const uint8_t *name,
			 const struct val_result *res)
{
	struct rsv_task *t = arg;
	struct rsv_fetched *f = source_fetched_find(t, name, WIRE_TYPE_DS);

	if (f && f->msg && res->verdict.status == VAL_SECURE &&
	    res->kind == VAL_KIND_NODATA)
		nsec_learn_proof(t->r, f->msg, res, t->mono);
}

/* --- CNAME and DNAME RRsets kept from answers --- */

static struct wire_msg *response_cached(struct rsv_task *t,
					const uint8_t *name, uint16_t type);

/* Whether rr, an RRSIG, was made for a wildcard (RFC 4035 §5.3.2: fewer
 * labels than its owner has). */
static bool sig_expanded(const struct wire_rr *rr)
{
	int labels = wire_dname_labels(rr->owner);

	if (wire_dname_is_wildcard(rr->owner))
		labels--;
	return rr->rdlen < 4 || rr->rdata[3] < labels;
}

/* Keeps the RRset of u (a CNAME or DNAME link of a's chain, with its
 * RRSIGs) as the response to `owner TYPE` ('Q' entry, secure). */
static void alias_keep(struct rsv_task *t, const struct answer *a,
		       const struct val_used *u)
{
	const struct wire_rr *recs = a->msg->sec[WIRE_SEC_ANSWER];
	const struct wire_rr *first = &recs[u->first];
	uint8_t *buf = t->r->nsec_buf, key[DT_CACHE_KEY_MAXLEN];
	uint32_t ttl = u->ttl < t->st->cfg.max_cache_ttl
			       ? u->ttl
			       : t->st->cfg.max_cache_ttl;
	struct wire_builder b;
	int err;

	if (!ttl)
		return;
	err = wire_build_init(&b, buf, sizeof(t->r->nsec_buf), 0,
			      WIRE_FLAG_QR | WIRE_FLAG_RA);
	if (err == 0)
		err = wire_build_question(&b, first->owner, u->type,
					  WIRE_CLASS_IN);
	for (size_t i = 0; err == 0 && i < a->msg->count[WIRE_SEC_ANSWER];
	     i++) {
		if (!val_used_holds(u, first, &recs[i]))
			continue;
		if (recs[i].type == WIRE_TYPE_RRSIG && sig_expanded(&recs[i]))
			return; /* its wildcard proof is not kept with it */
		err = wire_build_rr(&b, WIRE_SEC_ANSWER, &recs[i]);
	}
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	if (err < 0)
		return;
	size_t len = wire_build_finish(&b);
	struct rawmsg *r = malloc(sizeof(*r) + len);
	if (!r)
		return;
	r->status = VAL_SECURE;
	r->len = len;
	memcpy(r->data, buf, len);
	size_t klen = answer_key('Q', first->owner, u->type, WIRE_CLASS_IN,
				 key);
	cache_put(t->r->cache, key, klen, r, sizeof(*r) + len, t->mono + ttl,
		  free);
}

void source_alias_learn(struct rsv_task *t, const struct answer *a)
{
	if (!a->msg)
		return;
	for (size_t i = 0; i < a->nused; i++) {
		const struct val_used *u = &a->used[i];
		if (u->role == VAL_ROLE_LINK && u->section == WIRE_SEC_ANSWER &&
		    (u->type == WIRE_TYPE_CNAME || u->type == WIRE_TYPE_DNAME) &&
		    (a->status == VAL_SECURE || u->link_secure))
			alias_keep(t, a, u);
	}
}

/* name with its suffix owner replaced by target (RFC 6672 §2.2), into
 * out; false when the result is longer than a name may be. */
static bool substitute(const uint8_t *name, const uint8_t *owner,
		       const uint8_t *target, uint8_t out[DT_NAME_MAXLEN])
{
	size_t prefix = wire_dname_len(name) - wire_dname_len(owner);
	size_t tlen = wire_dname_len(target);

	if (prefix + tlen > DT_NAME_MAXLEN)
		return false;
	memcpy(out, name, prefix);
	memcpy(out + prefix, target, tlen);
	return true;
}

/* The deepest DNAME kept (source_alias_learn) at a proper ancestor of
 * name below the root: its 'Q' entry, or NULL. */
static struct wire_msg *kept_dname(struct rsv_task *t, const uint8_t *name)
{
	struct wire_msg *m;

	for (int l = wire_dname_labels(name) - 1; l >= 1; l--)
		if ((m = response_cached(t, wire_dname_ancestor(name, l),
					 WIRE_TYPE_DNAME)))
			return m;
	return NULL;
}

static const struct wire_rr *first_dname(const struct wire_msg *m)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++)
		if (m->sec[WIRE_SEC_ANSWER][i].type == WIRE_TYPE_DNAME)
			return &m->sec[WIRE_SEC_ANSWER][i];
	return NULL;
}

/*
 * The response kept DNAMEs give for (qname, qtype), in buf: at each name
 * of the chain the deepest DNAME kept above it, its RRset with its RRSIGs
 * (once, however often the chain passes through it: RFC 6672 §3) and the
 * CNAME it synthesises (§3.4), until a name below no kept DNAME or
 * DT_VAL_CHAIN_MAX links; with qtype CNAME the first CNAME is the
 * answer. 0 when no DNAME kept is above qname.
 */
static size_t dname_response(struct rsv_task *t, const uint8_t *qname,
			     uint16_t qtype, uint8_t *buf, size_t cap)
{
	uint8_t names[DT_VAL_CHAIN_MAX + 1][DT_NAME_MAXLEN];
	struct wire_msg *held[DT_VAL_CHAIN_MAX];
	size_t hops = 0;
	struct wire_builder b;
	int err = wire_build_init(&b, buf, cap, 0, WIRE_FLAG_QR | WIRE_FLAG_RA);

	if (err == 0)
		err = wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	wire_dname_copy(names[0], qname);
	while (err == 0 && hops < DT_VAL_CHAIN_MAX) {
		struct wire_msg *m = kept_dname(t, names[hops]);
		const struct wire_rr *dn = m ? first_dname(m) : NULL;
		bool seen = false;

		if (!dn || !substitute(names[hops], dn->owner, dn->rdata,
				       names[hops + 1])) {
			wire_msg_free(m);
			break;
		}
		for (size_t i = 0; i < hops; i++)
			seen |= wire_dname_equal(first_dname(held[i])->owner,
						 dn->owner);
		for (size_t i = 0; !seen && err == 0 &&
				   i < m->count[WIRE_SEC_ANSWER];
		     i++)
			err = wire_build_rr(&b, WIRE_SEC_ANSWER,
					    &m->sec[WIRE_SEC_ANSWER][i]);
		struct wire_rr cname = {
			.owner = names[hops],
			.type = WIRE_TYPE_CNAME,
			.rclass = WIRE_CLASS_IN,
			.ttl = dn->ttl,
			.rdlen = (uint16_t)wire_dname_len(names[hops + 1]),
			.rdata = names[hops + 1],
		};
		if (err == 0)
			err = wire_build_rr(&b, WIRE_SEC_ANSWER, &cname);
		held[hops++] = m;
		if (qtype == WIRE_TYPE_CNAME)
			break;
	}
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	for (size_t i = 0; i < hops; i++)
		wire_msg_free(held[i]);
	return err < 0 || !hops ? 0 : wire_build_finish(&b);
}

struct wire_msg *source_alias_synthesize(struct rsv_task *t)
{
	const struct cfg *cfg = &t->st->cfg;
	int err;

	if (t->qtype == WIRE_TYPE_DS || t->qclass != WIRE_CLASS_IN ||
	    policy_nta(cfg, t->st->nta, t->qname, t->now) ||
	    policy_domain(cfg, t->qname, false))
		return NULL;
	size_t len = dname_response(t, t->qname, t->qtype, t->r->nsec_buf,
				    sizeof(t->r->nsec_buf));
	return len ? wire_msg_parse(t->r->nsec_buf, len, 0, &err) : NULL;
}

/* After a change of upstreams: whether a cache entry was learnt without
 * a secure validation ('W' entries are renderings of 'V' ones; 'P'
 * probes come from secure DS proofs only). */
static bool unproven(const uint8_t *key, size_t klen, void *val, void *arg)
{
	(void)klen;
	(void)arg;
	switch (key[0]) {
	case 'V': return ((const struct answer *)val)->status != VAL_SECURE;
	case 'W': return true;
	case 'K':
		return ((const struct val_keyset *)val)->verdict.status !=
		       VAL_SECURE;
	case 'Q': return ((const struct rawmsg *)val)->status != VAL_SECURE;
	default: return false;
	}
}

size_t source_drop_unproven(struct cache *c)
{
	return cache_remove_if_val(c, unproven, NULL);
}

/* Whether a cache entry is unproven, or a negative answer or response
 * (NXDOMAIN, or NOERROR without answer records), secure or not. */
static bool unproven_or_negative(const uint8_t *key, size_t klen, void *val,
				 void *arg)
{
	if (unproven(key, klen, val, arg))
		return true;
	if (key[0] == 'V') {
		const struct answer *a = val;
		return a->rcode == WIRE_RCODE_NXDOMAIN ||
		       (a->msg && a->msg->count[WIRE_SEC_ANSWER] == 0);
	}
	if (key[0] == 'Q') {
		const struct rawmsg *r = val;
		return r->len >= DT_MSG_HDRLEN &&
		       ((r->data[3] & 0xF) == WIRE_RCODE_NXDOMAIN ||
			wire_get16(r->data + 6) == 0);
	}
	return false;
}

size_t source_drop_unproven_negative(struct cache *c)
{
	return cache_remove_if_val(c, unproven_or_negative, NULL);
}

/* --- search suffixes: private only when proven unsigned --- */

/* The status of the key set the cache holds for zone, or -1. */
static int cached_keys_status(struct cache *c, const uint8_t *zone,
			      int64_t mono)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen =
		answer_key('K', zone, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN, key);
	struct cache_ref ref;
	int st;

	if (!cache_get(c, key, klen, mono, &ref))
		return -1;
	st = (int)((const struct val_keyset *)ref.val)->verdict.status;
	cache_unref(c, &ref);
	return st;
}

/* Whether the cache holds a DS probe of name that proved it absent. */
static bool cached_nxdomain(struct cache *c, const uint8_t *name,
			    int64_t mono)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('P', name, WIRE_TYPE_DS, WIRE_CLASS_IN, key);
	struct cache_ref ref;
	bool nx;

	if (!cache_get(c, key, klen, mono, &ref))
		return false;
	nx = (enum walk_probe)(uintptr_t)ref.val == WALK_PROBE_NXDOMAIN;
	cache_unref(c, &ref);
	return nx;
}

/*
 * Key sets and probes enter the cache only from the walk down from a
 * trust anchor (keys_put, probe_put; those of negative trust anchors and
 * of policy exemptions stay with their task): an insecure key set there
 * rests on a validated denial of the DS at or above its zone, an
 * NXDOMAIN probe on a validated denial of the name. Neither can be made
 * up by whoever relays the responses.
 */
bool rsv_search_proven(struct cache *c, const struct dstate *st,
		       const uint8_t *suffix, int64_t mono)
{
	if (!st->ta || !val_anchors_find(st->ta, suffix))
		return true;
	for (int n = wire_dname_labels(suffix); n > 0; n--) {
		const uint8_t *a = wire_dname_ancestor(suffix, n);
		if (cached_keys_status(c, a, mono) == VAL_INSECURE ||
		    cached_nxdomain(c, a, mono))
			return true;
	}
	return false;
}

const uint8_t *rsv_private_domain(struct cache *c, const struct dstate *st,
				  const struct up_conf *uc,
				  const uint8_t *name, int64_t mono,
				  enum policy_private_src *src)
{
	enum policy_private_src asrc = POLICY_PRIVATE_NONE;
	const uint8_t *admin = policy_private_domain(&st->cfg, NULL, name,
						     &asrc);
	const uint8_t *search = policy_search_domain(uc, name);

	if (search && (!admin || wire_dname_labels(search) >
					 wire_dname_labels(admin)) &&
	    rsv_search_proven(c, st, search, mono)) {
		if (src)
			*src = POLICY_PRIVATE_SEARCH;
		return search;
	}
	if (admin && src)
		*src = asrc;
	return admin;
}

static struct wire_msg *response_cached(struct rsv_task *t,
					const uint8_t *name, uint16_t type)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('Q', name, type, WIRE_CLASS_IN, key);
	struct cache_ref ref;
	int err;

	if (!cache_get(t->r->cache, key, klen, t->mono, &ref))
		return NULL;
	const struct rawmsg *r = ref.val;
	if (t->attempt && r->status != VAL_SECURE) {
		/* Asked again: what did not validate is fetched anew. */
		cache_unref(t->r->cache, &ref);
		return NULL;
	}
	struct wire_msg *m = wire_msg_parse(r->data, r->len, 0, &err);
	cache_unref(t->r->cache, &ref);
	/* A CNAME or DNAME RRset kept from an answer (source_alias_learn)
	 * carries the TTL left to it. */
	int64_t left = ref.expire - t->mono;
	for (size_t i = 0; m && (type == WIRE_TYPE_CNAME ||
				 type == WIRE_TYPE_DNAME) &&
			   i < m->count[WIRE_SEC_ANSWER];
	     i++) {
		struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		if ((int64_t)rr->ttl > left)
			rr->ttl = left > 0 ? (uint32_t)left : 0;
	}
	return m;
}

/* --- fetched responses of a task --- */

struct rsv_fetched *source_fetched_find(struct rsv_task *t, const uint8_t *name,
					uint16_t type)
{
	for (size_t i = 0; i < t->nf; i++)
		if (t->f[i].type == type && wire_dname_equal(t->f[i].name, name))
			return &t->f[i];
	return NULL;
}

/* What a parsed message holds in memory: its records with their names and
 * RDATA decompressed, and the raw copy. */
static size_t msg_bytes(const struct wire_msg *m)
{
	size_t n = sizeof(*m) + m->rawlen;

	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		for (size_t i = 0; i < m->count[s]; i++)
			n += sizeof(struct wire_rr) +
			     wire_dname_len(m->sec[s][i].owner) +
			     m->sec[s][i].rdlen;
	return n;
}

int source_fetched_replace(struct rsv_task *t, struct rsv_fetched *f,
			   struct wire_msg *msg)
{
	size_t old = f->msg ? msg_bytes(f->msg) : 0;
	size_t bytes = msg_bytes(msg);

	if (t->bytes - old + bytes > t->r->bytes_max) {
		wire_msg_free(msg);
		return DT_ELIMIT;
	}
	t->bytes = t->bytes - old + bytes;
	wire_msg_free(f->msg);
	f->msg = msg;
	f->err = 0;
	return 0;
}

int source_fetched_add(struct rsv_task *t, const uint8_t *name, uint16_t type,
		       struct wire_msg *msg, int err, const char *from)
{
	int r = 0;

	if (msg) {
		size_t bytes = msg_bytes(msg);
		if (t->bytes + bytes > t->r->bytes_max) {
			wire_msg_free(msg);
			msg = NULL;
			err = r = DT_ELIMIT;
		} else {
			t->bytes += bytes;
		}
	}
	if (t->nf == t->capf) {
		size_t cap = t->capf ? 2 * t->capf : 4;
		struct rsv_fetched *n = realloc(t->f, cap * sizeof(*n));
		if (!n) {
			wire_msg_free(msg);
			return -ENOMEM;
		}
		t->f = n;
		t->capf = cap;
	}
	struct rsv_fetched *f = &t->f[t->nf++];
	wire_dname_copy(f->name, name);
	f->type = type;
	f->msg = msg;
	f->err = err;
	f->kept = false;
	snprintf(f->from, sizeof(f->from), "%s", from);
	return r;
}

const struct wire_msg *source_task_fetched(struct rsv_task *t,
					   const uint8_t *name, uint16_t type,
					   int *err)
{
	const struct rsv_fetched *f = source_fetched_find(t, name, type);

	*err = 0;
	if (f) {
		*err = f->err;
		return f->msg;
	}
	struct wire_msg *m = response_cached(t, name, type);
	int r = m ? source_fetched_add(t, name, type, m, 0, "cache") : -ENOENT;
	if (r == 0) {
		t->f[t->nf - 1].kept = true;
		return m;
	}
	if (r == DT_ELIMIT || r == -ENOMEM) {
		*err = r;
		return NULL;
	}
	if (!t->want) {
		t->want = true;
		wire_dname_copy(t->want_name, name);
		t->want_type = type;
	}
	return NULL;
}

static enum walk_got response(void *arg, const uint8_t *name, uint16_t type,
			      struct val_response *resp, bool *tentative,
			      int *err)
{
	struct rsv_task *t = arg;
	const struct wire_msg *m = source_task_fetched(t, name, type, err);

	*tentative = false;
	if (!m && *err == DT_EABSENT)
		return WALK_ABSENT;
	if (!m)
		return *err ? WALK_FAILED : WALK_PENDING;
	source_response(m, name, type, resp);
	return WALK_GOT;
}

/* --- key sets: the key cache ('K'), or the task's own --- */

static void keyset_destroy(void *p)
{
	val_keyset_free(p);
	free(p);
}

static bool hold_ref(struct rsv_task *t, struct cache_ref *ref)
{
	if (t->nrefs == t->caprefs) {
		size_t cap = t->caprefs ? 2 * t->caprefs : 8;
		struct cache_ref *n = realloc(t->refs, cap * sizeof(*n));
		if (!n)
			return false;
		t->refs = n;
		t->caprefs = cap;
	}
	t->refs[t->nrefs++] = *ref;
	return true;
}

/* The key set of zone: the task's own, else the key cache's; with
 * any_status false (a retry's walk asking), a cached one only when
 * secure. */
static const struct val_keyset *keys_lookup(struct rsv_task *t,
					    const uint8_t *zone,
					    bool any_status)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen =
		answer_key('K', zone, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN, key);
	struct cache_ref ref;

	for (size_t i = 0; i < t->nlocal; i++)
		if (wire_dname_equal(t->local[i]->zone, zone))
			return t->local[i];
	if (!cache_get(t->r->cache, key, klen, t->mono, &ref))
		return NULL;
	if (!any_status &&
	    ((const struct val_keyset *)ref.val)->verdict.status != VAL_SECURE) {
		/* Asked again: a key set that did not validate is built
		 * anew from fresh responses (and replaces this one). */
		cache_unref(t->r->cache, &ref);
		return NULL;
	}
	if (!hold_ref(t, &ref)) {
		cache_unref(t->r->cache, &ref);
		return NULL;
	}
	return ref.val;
}

static const struct val_keyset *keys_get(void *arg, const uint8_t *zone)
{
	struct rsv_task *t = arg;

	return keys_lookup(t, zone, t->attempt == 0);
}

const uint8_t *source_signed_zone(struct rsv_task *t, const uint8_t *name)
{
	for (int n = wire_dname_labels(name); n > 0; n--) {
		const uint8_t *z = wire_dname_ancestor(name, n);
		const struct val_keyset *ks = keys_get(t, z);
		if (ks && ks->verdict.status == VAL_SECURE)
			return z;
	}
	return NULL;
}

void source_release(struct rsv_task *t)
{
	for (size_t i = 0; i < t->nrefs; i++)
		cache_unref(t->r->cache, &t->refs[i]);
	t->nrefs = 0;
	for (size_t i = 0; i < t->nlocal; i++)
		keyset_destroy(t->local[i]);
	t->nlocal = 0;
}

static size_t keyset_cost(const struct val_keyset *ks)
{
	/* A parsed public key holds the OpenSSL object and its numbers:
	 * about 1 KiB for RSA-2048, less for elliptic curves. */
	return sizeof(*ks) + ks->nkeys * 1024;
}

static const struct val_keyset *keep_local(struct rsv_task *t,
					   struct val_keyset *copy)
{
	if (t->nlocal == t->caplocal) {
		size_t cap = t->caplocal ? 2 * t->caplocal : 4;
		struct val_keyset **n = realloc(t->local, cap * sizeof(*n));
		if (!n) {
			keyset_destroy(copy);
			return NULL;
		}
		t->local = n;
		t->caplocal = cap;
	}
	t->local[t->nlocal++] = copy;
	return copy;
}

/* Key sets with a TTL go to the key cache (bogus ones for bogus-ttl);
 * others stay with the task. */
static const struct val_keyset *keys_put(void *arg, struct val_keyset *ks,
					 bool cacheable)
{
	struct rsv_task *t = arg;
	struct val_keyset *copy = malloc(sizeof(*copy));
	const struct cfg *cfg = &t->st->cfg;
	char zone[DT_NAME_TEXT_MAXLEN];

	if (!copy) {
		val_keyset_free(ks);
		return NULL;
	}
	*copy = *ks;
	if (log_enabled(LOG_DEBUG)) {
		wire_dname_to_str(copy->zone, zone, sizeof(zone));
		log_debug("keys %s: %s%s%s", zone,
			  val_status_name(copy->verdict.status),
			  copy->verdict.reason[0] ? ": " : "",
			  copy->verdict.reason);
	}
	uint32_t ttl = copy->ttl;
	if (copy->verdict.status == VAL_BOGUS ||
	    copy->verdict.status == VAL_INDETERMINATE)
		ttl = cfg->bogus_ttl;
	if (ttl > cfg->max_cache_ttl)
		ttl = cfg->max_cache_ttl;
	if (!cacheable || ttl == 0)
		return keep_local(t, copy);
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('K', copy->zone, WIRE_TYPE_DNSKEY,
				 WIRE_CLASS_IN, key);
	if (cache_put(t->r->cache, key, klen, copy, keyset_cost(copy),
		      t->mono + ttl, keyset_destroy) < 0)
		return NULL;
	return keys_lookup(t, copy->zone, true);
}

/* --- DS probes ('P') and negative trust anchors --- */

static bool probe_get(void *arg, const uint8_t *name, enum walk_probe *ret)
{
	struct rsv_task *t = arg;
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('P', name, WIRE_TYPE_DS, WIRE_CLASS_IN, key);
	struct cache_ref ref;

	if (!cache_get(t->r->cache, key, klen, t->mono, &ref))
		return false;
	*ret = (enum walk_probe)(uintptr_t)ref.val;
	cache_unref(t->r->cache, &ref);
	return true;
}

bool source_response_kept(struct rsv_task *t, const uint8_t *name,
			  uint16_t type)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('Q', name, type, WIRE_CLASS_IN, key);
	struct cache_ref ref;

	if (!cache_get(t->r->cache, key, klen, t->mono, &ref))
		return false;
	cache_unref(t->r->cache, &ref);
	return true;
}

enum source_cut source_cut_cached(struct cache *c, const uint8_t *name,
				  int64_t mono)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen =
		answer_key('K', name, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN, key);
	struct cache_ref ref;
	enum walk_probe p;

	if (cache_get(c, key, klen, mono, &ref)) {
		bool secure = ((const struct val_keyset *)ref.val)
				      ->verdict.status == VAL_SECURE;
		cache_unref(c, &ref);
		return secure ? SOURCE_CUT_KEYS : SOURCE_CUT_NOTHING_BELOW;
	}
	klen = answer_key('P', name, WIRE_TYPE_DS, WIRE_CLASS_IN, key);
	if (!cache_get(c, key, klen, mono, &ref))
		return SOURCE_CUT_UNKNOWN;
	p = (enum walk_probe)(uintptr_t)ref.val;
	cache_unref(c, &ref);
	return p == WALK_PROBE_NXDOMAIN ? SOURCE_CUT_NOTHING_BELOW
					: SOURCE_CUT_NOT_A_CUT;
}

enum source_cut source_cut_known(struct rsv_task *t, const uint8_t *name)
{
	return source_cut_cached(t->r->cache, name, t->mono);
}

static void probe_put(void *arg, const uint8_t *name, enum walk_probe p,
		      uint32_t ttl)
{
	struct rsv_task *t = arg;
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	size_t klen = answer_key('P', name, WIRE_TYPE_DS, WIRE_CLASS_IN, key);

	if (ttl > t->st->cfg.max_cache_ttl)
		ttl = t->st->cfg.max_cache_ttl;
	if (ttl)
		cache_put(t->r->cache, key, klen, (void *)(uintptr_t)p, 0,
			  t->mono + ttl, NULL);
}

/* A zone at or below a negative trust anchor is treated as unsigned
 * (RFC 7646); the anchor may expire or be removed, so the walk keeps
 * that key set to itself. */
static const uint8_t *exempt(void *arg, const uint8_t *name,
			     struct val_verdict *v)
{
	struct rsv_task *t = arg;
	const struct cfg_nta *nta =
		policy_nta(&t->st->cfg, t->st->nta, name, t->now);
	char txt[DT_NAME_TEXT_MAXLEN], date[16];

	if (!nta)
		return NULL;
	t->nta = nta;
	wire_dname_to_str(nta->name, txt, sizeof(txt));
	policy_date(nta->until, date, sizeof(date));
	val_verdict_set(v, VAL_INSECURE, VAL_EDE_NONE, "policy-nta",
			"negative trust anchor %s (until %s): not validated",
			txt, date);
	return nta->name;
}

void source_init(struct rsv_task *t, struct walk_source *src)
{
	memset(src, 0, sizeof(*src));
	src->arg = t;
	src->response = response;
	src->keys_get = keys_get;
	src->keys_put = keys_put;
	src->probe_get = probe_get;
	src->probe_put = probe_put;
	src->validated = validated;
	src->ds_validated = ds_validated;
	src->exempt = exempt;
}
