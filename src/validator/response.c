/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "validator/denial.h"
#include "validator/response.h"
#include "validator/sig.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* SOA RRsets of an authority section remembered (more are not used). */
#define SOA_SEEN_MAX 4

struct walk {
	struct val_ctx *ctx;
	const struct val_response *resp;
	const struct val_keysource *src;
	struct val_result *res;
	struct arena arena;
	struct val_rrset *ans, *auth;
	size_t nans, nauth;
	/* Denial records of the authority section that verified, for one
	 * zone at a time (docs/DESIGN.md, "Every proof from its own zone"):
	 * gathered again when a name of the chain lies in another zone. */
	bool denial_done;
	const uint8_t *denial_zone;	/* the signer they were gathered for */
	struct val_rrset *nsec, *nsec3;
	size_t nnsec, nnsec3;
	struct val_verdict denial_fail; /* weakest failed candidate proof */
	bool denial_fail_signed;	/* it is bogus, and signed by a zone
					   whose keys are secure */
	bool proofs_used;		/* nsec/nsec3 are in the used list */
	struct soa_seen {		/* SOA RRsets verified, with verdict */
		const struct val_rrset *set;
		uint32_t ttl;
		struct val_verdict v;
	} soa[SOA_SEEN_MAX];
	size_t nsoa;
	bool need;			/* stopped for want of keys */
};

static void need_keys(struct walk *w, const uint8_t *zone)
{
	w->need = true;
	w->res->kind = VAL_KIND_NEED_KEYS;
	wire_dname_copy(w->res->need_zone, zone);
}

static void fold(struct walk *w, const struct val_verdict *v, uint32_t ttl)
{
	val_verdict_weakest(&w->res->verdict, v);
	if (ttl < w->res->ttl)
		w->res->ttl = ttl;
}

bool val_used_holds(const struct val_used *u, const struct wire_rr *first,
		    const struct wire_rr *rr)
{
	uint16_t t = rr->type;

	if (t == WIRE_TYPE_RRSIG && u->type != WIRE_TYPE_RRSIG)
		t = rr->rdlen >= 2 ? val_rrsig_covered(rr) : 0;
	return t == u->type && rr->rclass == u->rclass &&
	       wire_dname_equal(rr->owner, first->owner);
}

/* Appends set to the used list (cut at VAL_USED_MAX, see response.h). */
static void use(struct walk *w, const struct val_rrset *set,
		enum val_role role, uint32_t ttl)
{
	struct val_result *res = w->res;
	const struct wire_rr *base = w->resp->answer;
	uint8_t sec = WIRE_SEC_ANSWER;

	if (set->n == 0 || res->nused >= VAL_USED_MAX)
		return;
	if (role == VAL_ROLE_PROOF || role == VAL_ROLE_SOA) {
		base = w->resp->authority;
		sec = WIRE_SEC_AUTHORITY;
	}
	size_t first = (size_t)(set->rrs[0] - base);
	for (size_t i = 0; i < res->nused; i++) {
		/* An RRset met twice (a DNAME the chain passes through
		 * again) is shown once, where it was first used. */
		if (res->used[i].section == sec &&
		    res->used[i].type == set->type && res->used[i].first == first)
			return;
	}
	res->used[res->nused++] = (struct val_used){
		.section = sec,
		.role = (uint8_t)role,
		.type = set->type,
		.rclass = set->rclass,
		.ttl = ttl,
		.first = first,
	};
}

/* Data without RRSIGs: insecure only where the zone is insecure. */
static void verify_unsigned(struct walk *w, const struct val_rrset *set,
			    struct val_verdict *v)
{
	char name[DT_NAME_TEXT_MAXLEN + 16], zone[DT_NAME_TEXT_MAXLEN];
	const struct val_keyset *ks = w->src->name_keys(w->src->arg, set->owner);

	if (!ks) {
		need_keys(w, set->owner);
		return;
	}
	if (ks->verdict.status != VAL_SECURE) {
		*v = ks->verdict;
		return;
	}
	wire_dname_to_str(ks->zone, zone, sizeof(zone));
	val_verdict_set(v, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING, "resp-unsigned",
			"no RRSIG over %s in the signed zone %s",
			val_rrset_name(set->owner, set->type, name,
				       sizeof(name)),
			zone);
}

/* Verifies one RRset with the keys of its signer. */
static int verify_set(struct walk *w, const struct val_rrset *set,
		      struct val_sig_info *info, struct val_verdict *v)
{
	char name[DT_NAME_TEXT_MAXLEN + 16], zone[DT_NAME_TEXT_MAXLEN];

	info->wildcard = false;
	info->ttl = set->ttl;
	if (set->nsigs == 0) {
		verify_unsigned(w, set, v);
		return 0;
	}
	/* The first RRSIG whose signer can be the owner's zone decides which
	 * keys to use: an RRSIG by an unrelated signer placed first must not
	 * hide a valid one. */
	const uint8_t *signer = val_rrsig_signer(set->sigs[0]);
	for (size_t i = 0; i < set->nsigs; i++) {
		if (wire_dname_is_subdomain(set->owner,
					    val_rrsig_signer(set->sigs[i]))) {
			signer = val_rrsig_signer(set->sigs[i]);
			break;
		}
	}
	if (!wire_dname_is_subdomain(set->owner, signer)) {
		wire_dname_to_str(signer, zone, sizeof(zone));
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"resp-signer-not-ancestor",
				"RRSIG over %s names signer %s, not an "
				"ancestor of the owner",
				val_rrset_name(set->owner, set->type, name,
					       sizeof(name)),
				zone);
		return 0;
	}
	const struct val_keyset *ks = w->src->zone_keys(w->src->arg, signer);
	if (!ks) {
		need_keys(w, signer);
		return 0;
	}
	if (ks->verdict.status != VAL_SECURE) {
		*v = ks->verdict;
		return 0;
	}
	return val_rrset_verify(w->ctx, set, ks, info, v);
}

static int push_set(struct walk *w, struct val_rrset **list, size_t *n,
		    const struct val_rrset *set)
{
	struct val_rrset *nl = arena_alloc(&w->arena, (*n + 1) * sizeof(*nl));

	if (!nl)
		return -ENOMEM;
	if (*n)
		memcpy(nl, *list, *n * sizeof(*nl));
	nl[(*n)++] = *set;
	*list = nl;
	return 0;
}

static void remember_soa(struct walk *w, const struct val_rrset *s,
			 const struct val_verdict *v,
			 const struct val_sig_info *info)
{
	if (w->nsoa == SOA_SEEN_MAX)
		return;
	w->soa[w->nsoa++] = (struct soa_seen){
		.set = s,
		.ttl = v->status == VAL_SECURE ? info->ttl : s->ttl,
		.v = *v,
	};
}

/*
 * The zone whose proofs speak for name: the deepest signer of an NSEC or
 * NSEC3 RRset of the authority section that is name or above it (above
 * it only, for name's DS, which the parent holds; the root, which has no
 * parent, answers for its own DS). The order of the
 * records plays no part, so that proofs of another zone added to a
 * response (a parent's opt-out span beside a closer anchor's NSEC)
 * cannot take the place of the right ones; a parent's opt-out span alone
 * never makes a name below a closer anchor insecure (below_anchor()).
 */
static const uint8_t *denial_zone_for(const struct walk *w,
				      const uint8_t *name)
{
	bool ds = w->resp->qtype == WIRE_TYPE_DS &&
		  wire_dname_equal(name, w->resp->qname);
	const uint8_t *best = NULL;

	for (size_t i = 0; i < w->nauth; i++) {
		const struct val_rrset *s = &w->auth[i];
		if (!s->n || !s->nsigs || (s->type != WIRE_TYPE_NSEC &&
					   s->type != WIRE_TYPE_NSEC3))
			continue;
		const uint8_t *sg = val_rrsig_signer(s->sigs[0]);
		if (!wire_dname_is_subdomain(name, sg) ||
		    (ds && name[0] && wire_dname_equal(name, sg)))
			continue; /* the root is its own parent */
		if (!best || wire_dname_labels(sg) > wire_dname_labels(best))
			best = sg;
	}
	return best;
}

/*
 * Whether the SOA RRset s can be the SOA of a negative answer about
 * name: owned at name or above it (above it only for name's DS, which
 * the parent holds; the root's DS is the root's own). Any other SOA is another zone's and is not looked
 * at: it is not verified (no keys are fetched for it) and its status
 * never reaches the verdict.
 */
static bool soa_for(const struct walk *w, const struct val_rrset *s,
		    const uint8_t *name)
{
	bool ds = w->resp->qtype == WIRE_TYPE_DS &&
		  wire_dname_equal(name, w->resp->qname);

	return wire_dname_is_subdomain(name, s->owner) &&
	       !(ds && name[0] && wire_dname_equal(name, s->owner));
}

static bool soa_seen(const struct walk *w, const struct val_rrset *s)
{
	for (size_t i = 0; i < w->nsoa; i++)
		if (w->soa[i].set == s)
			return true;
	return false;
}

/* Verifies the SOA RRsets that can speak for name and were not verified
 * for an earlier name of the chain: they are shown and bound the TTL
 * (use_soa), they prove nothing. */
static int gather_soa(struct walk *w, const uint8_t *name)
{
	struct val_sig_info info;
	struct val_verdict v;
	int r;

	for (size_t i = 0; i < w->nauth && !w->need; i++) {
		const struct val_rrset *s = &w->auth[i];
		if (s->n == 0 || s->type != WIRE_TYPE_SOA ||
		    !soa_for(w, s, name) || soa_seen(w, s))
			continue;
		if ((r = verify_set(w, s, &info, &v)) < 0)
			return r;
		if (!w->need)
			remember_soa(w, s, &v, &info);
	}
	return 0;
}

/* A candidate proof that verified, but as a wildcard expansion: an NSEC
 * or NSEC3 synthesised from a wildcard proves nothing about the names it
 * seems to span (RFC 4035 §5.3.4 and §5.4, RFC 5155 §8.1; CVE-2017-15105). */
static void wildcard_proof(struct walk *w, const struct val_rrset *s)
{
	char name[DT_NAME_TEXT_MAXLEN + 16];
	struct val_verdict v;

	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
			"resp-denial-wildcard",
			"%s is expanded from a wildcard: it proves nothing",
			val_rrset_name(s->owner, s->type, name, sizeof(name)));
	val_verdict_weakest(&w->denial_fail, &v);
	w->denial_fail_signed = true;
}

/* An NSEC or NSEC3 without RRSIGs is never a proof; in a signed zone its
 * absence of signatures is the reason given (EDE 10). */
static void unsigned_proof(struct walk *w, const struct val_rrset *s)
{
	char name[DT_NAME_TEXT_MAXLEN + 16];
	struct val_verdict v;

	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING,
			"resp-denial-unsigned", "no RRSIG over %s",
			val_rrset_name(s->owner, s->type, name, sizeof(name)));
	if (w->denial_fail.status == VAL_SECURE)
		w->denial_fail = v;
}

/* Starts the denial records afresh for the zone that speaks for name. */
static void denial_reset(struct walk *w, const uint8_t *zone)
{
	w->denial_done = true;
	w->denial_zone = zone;
	w->nsec = w->nsec3 = NULL;
	w->nnsec = w->nnsec3 = 0;
	w->proofs_used = false;
	w->denial_fail_signed = false;
	val_verdict_secure(&w->denial_fail);
}

/*
 * Verifies the NSEC and NSEC3 RRsets of the zone that speaks for name:
 * signed by that zone's keys, not expanded from a wildcard. Unsigned ones
 * and other zones' are never candidates: no record moves a verdict
 * towards insecure by being unsigned (the zone of name decides that,
 * denial_missing). Once per zone along the chain.
 */
static int gather_denial(struct walk *w, const uint8_t *name)
{
	struct val_sig_info info;
	struct val_verdict v;
	int r;

	if ((r = gather_soa(w, name)) < 0 || w->need)
		return r;
	const uint8_t *zone = denial_zone_for(w, name);
	if (w->denial_done &&
	    (zone == w->denial_zone ||
	     (zone && w->denial_zone && wire_dname_equal(zone, w->denial_zone))))
		return 0;
	denial_reset(w, zone);
	for (size_t i = 0; i < w->nauth && !w->need; i++) {
		const struct val_rrset *s = &w->auth[i];
		if (s->n == 0 ||
		    (s->type != WIRE_TYPE_NSEC && s->type != WIRE_TYPE_NSEC3))
			continue;
		if (!s->nsigs) {
			unsigned_proof(w, s);
			continue;
		}
		if (!zone ||
		    !wire_dname_equal(zone, val_rrsig_signer(s->sigs[0])))
			continue; /* not this zone's proof */
		if ((r = verify_set(w, s, &info, &v)) < 0)
			return r;
		if (w->need)
			return 0;
		if (v.status != VAL_SECURE) {
			val_verdict_weakest(&w->denial_fail, &v);
			const struct val_keyset *ks = w->src->zone_keys(
				w->src->arg, zone);
			w->denial_fail_signed |= v.status == VAL_BOGUS && ks &&
						 ks->verdict.status ==
							 VAL_SECURE;
			continue;
		}
		if (info.wildcard) {
			wildcard_proof(w, s);
			continue;
		}
		struct val_rrset copy = *s;
		copy.ttl = info.ttl;
		r = s->type == WIRE_TYPE_NSEC
			    ? push_set(w, &w->nsec, &w->nnsec, &copy)
			    : push_set(w, &w->nsec3, &w->nnsec3, &copy);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Puts the verified proofs on the used list, once. */
static void use_proofs(struct walk *w)
{
	if (w->proofs_used)
		return;
	w->proofs_used = true;
	for (size_t i = 0; i < w->nnsec; i++)
		use(w, &w->nsec[i], VAL_ROLE_PROOF, w->nsec[i].ttl);
	for (size_t i = 0; i < w->nnsec3; i++)
		use(w, &w->nsec3[i], VAL_ROLE_PROOF, w->nsec3[i].ttl);
}

/* The SOA MINIMUM field (RFC 2308 §5 bounds a negative answer's TTL). */
static uint32_t soa_minimum(const struct val_rrset *s)
{
	const struct wire_rr *rr = s->rrs[0];

	if (rr->rdlen < 20)
		return 0;
	return wire_get32(rr->rdata + rr->rdlen - 4);
}

/*
 * The SOA of a negative answer for name: the deepest at or above name,
 * shown only when it is at least as strong as the verdict; it bounds the
 * TTL, and without one the answer's TTL is 0. An SOA of name's signed
 * zone whose signatures fail (or are missing) makes an otherwise secure
 * answer bogus: the zone signed it, so the response was altered on the
 * way, and the peers fail such a response whole (Unbound checks every
 * RRset of the authority section, RFC 4035 §5.3; Deckard's
 * val_bogus_nodata).
 */
static void use_soa(struct walk *w, const uint8_t *name)
{
	const struct soa_seen *best = NULL;

	for (size_t i = 0; i < w->nsoa; i++) {
		const struct soa_seen *s = &w->soa[i];
		if (s->v.status == VAL_BOGUS &&
		    w->res->verdict.status == VAL_SECURE &&
		    soa_for(w, s->set, name)) {
			fold(w, &s->v, 0);
			return;
		}
	}
	for (size_t i = 0; i < w->nsoa; i++) {
		const struct soa_seen *s = &w->soa[i];
		if (!soa_for(w, s->set, name) || s->set->n != 1 ||
		    s->v.status < w->res->verdict.status)
			continue;
		if (!best || wire_dname_labels(s->set->owner) >
				     wire_dname_labels(best->set->owner))
			best = s;
	}
	if (!best) {
		w->res->ttl = 0; /* RFC 2308 §5: not cached without an SOA */
		return;
	}
	uint32_t min = soa_minimum(best->set);
	uint32_t ttl = min < best->ttl ? min : best->ttl;
	use(w, best->set, VAL_ROLE_SOA, ttl);
	if (ttl < w->res->ttl)
		w->res->ttl = ttl;
}

static uint32_t denial_ttl(const struct walk *w)
{
	uint32_t ttl = UINT32_MAX;

	for (size_t i = 0; i < w->nnsec; i++)
		ttl = w->nsec[i].ttl < ttl ? w->nsec[i].ttl : ttl;
	for (size_t i = 0; i < w->nnsec3; i++)
		ttl = w->nsec3[i].ttl < ttl ? w->nsec3[i].ttl : ttl;
	return ttl;
}

/*
 * No usable signed denial: the zone of name decides, never the records
 * that failed. Not secure: the zone's own verdict (an insecure zone's
 * denial needs no proof). Secure: bogus, with the reason of the best
 * candidate proof that failed (a bad signature, a wildcard expansion)
 * when there was one.
 */
static void denial_missing(struct walk *w, const uint8_t *name,
			   const char *what)
{
	char txt[DT_NAME_TEXT_MAXLEN], zone[DT_NAME_TEXT_MAXLEN];
	struct val_verdict v;

	if (w->denial_fail.status == VAL_BOGUS && w->denial_fail_signed) {
		/* A proof of the right zone, checked with its secure keys,
		 * failed: bogus, whatever lies below. */
		fold(w, &w->denial_fail, 0);
		return;
	}
	/* The DS RRset of name is its parent's (the root's is its own): the
	 * parent's zone decides whether its absence needed a proof. */
	const uint8_t *holder = w->resp->qtype == WIRE_TYPE_DS && name[0] &&
					wire_dname_equal(name, w->resp->qname)
				? wire_dname_parent(name)
				: name;
	const struct val_keyset *ks = w->src->name_keys(w->src->arg, holder);
	if (!ks) {
		need_keys(w, holder);
		return;
	}
	if (ks->verdict.status != VAL_SECURE) {
		fold(w, &ks->verdict, ks->ttl);
		return;
	}
	if (w->denial_fail.status < VAL_INSECURE) {
		fold(w, &w->denial_fail, 0);
		return;
	}
	for (size_t i = 0; i < w->nsoa; i++) {
		/* The SOA of name's zone without a valid signature says why
		 * (EDE 10 when unsigned). */
		if (w->soa[i].v.status == VAL_BOGUS &&
		    soa_for(w, w->soa[i].set, name)) {
			fold(w, &w->soa[i].v, 0);
			return;
		}
	}
	wire_dname_to_str(name, txt, sizeof(txt));
	wire_dname_to_str(ks->zone, zone, sizeof(zone));
	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_NSEC_MISSING, "resp-no-denial",
			"no signed NSEC or NSEC3 records prove %s for %s in "
			"the signed zone %s",
			what, txt, zone);
	fold(w, &v, 0);
}

/* True when the verified denial records can speak for name. */
static bool denial_usable(const struct walk *w, const uint8_t *name)
{
	return (w->nnsec || w->nnsec3) &&
	       wire_dname_is_subdomain(name, w->denial_zone);
}

/*
 * Whether the verified denial records prove that at, a name of the
 * denial zone, is a delegation without DS (RFC 4035 §5.2: read as the
 * parent's answer to "at DS"). Returns 1 when they do, 0 when not, or a
 * negative code.
 */
static int delegation_unsigned(struct walk *w, const uint8_t *at)
{
	struct val_denial_info info = {0};
	struct val_verdict ds;
	int r = w->nnsec ? val_nsec_nodata(w->ctx, w->nsec, w->nnsec,
					   w->denial_zone, at, WIRE_TYPE_DS,
					   &info, &ds)
			 : val_nsec3_nodata(w->ctx, w->nsec3, w->nnsec3,
					    w->denial_zone, at, WIRE_TYPE_DS,
					    &info, &ds);

	if (r < 0)
		return r;
	return ds.status == VAL_SECURE && info.delegation;
}

/*
 * The delegation a failed denial of name ran into: name itself
 * (nsec-nodata-referral, nsec3-nodata-referral) or an ancestor of it
 * (nsec-ancestor-cut, nsec3-ce-delegation: name lies below a zone cut
 * the same records show). Writes the deepest one the verified records
 * prove to have no DS to *ret (NULL when none). Returns 0 or a negative
 * code.
 */
static int unsigned_cut(struct walk *w, const uint8_t *name,
			const struct val_verdict *v, const uint8_t **ret)
{
	static const char *const below[] = {"nsec-ancestor-cut",
					    "nsec3-ce-delegation"};
	int labels = wire_dname_labels(name), top = labels;

	*ret = NULL;
	if (v->status != VAL_BOGUS || !v->tag || !w->denial_zone)
		return 0;
	for (size_t i = 0; i < sizeof(below) / sizeof(below[0]); i++)
		if (strcmp(v->tag, below[i]) == 0)
			top = wire_dname_labels(w->denial_zone) + 1;
	if (top == labels && strcmp(v->tag, "nsec-nodata-referral") != 0 &&
	    strcmp(v->tag, "nsec3-nodata-referral") != 0)
		return 0;
	for (int l = labels; l >= top; l--) {
		const uint8_t *at = wire_dname_ancestor(name, l);
		int r = delegation_unsigned(w, at);
		if (r != 0) {
			*ret = r > 0 ? at : NULL;
			return r < 0 ? r : 0;
		}
	}
	return 0;
}

/*
 * A NODATA or NXDOMAIN "proven" by the parent's NSEC or NSEC3 at a
 * delegation (NS, no SOA), at name or at an ancestor of it, cannot deny
 * data of the child (RFC 4035 §5.4), but when the child is unsigned
 * nothing of it can be proven anyway: the answer is then insecure, when
 * the same verified records prove that the delegation has no DS (RFC 4035
 * §5.2; a CNAME into an unsigned child of the alias's zone, whose
 * negative answer comes from the child: val_cnametonsec), or as insecure
 * as the zone holding name, which name_keys() establishes from the DS
 * response on its own. Returns 1 when that decided the verdict (folded),
 * 0 when v stands, or a negative code; sets w->need when the keys are not
 * there yet.
 */
static int referral_below_insecure(struct walk *w, const uint8_t *name,
				   const struct val_verdict *v)
{
	const uint8_t *cut;
	struct val_verdict ds;
	char txt[DT_NAME_TEXT_MAXLEN];
	int r = unsigned_cut(w, name, v, &cut);

	if (r < 0)
		return r;
	if (cut) {
		wire_dname_to_str(cut, txt, sizeof(txt));
		val_verdict_set(&ds, VAL_INSECURE, VAL_EDE_NONE,
				"resp-insecure-referral",
				"the negative answer comes from the child side "
				"of %s, an insecure delegation (NS, no DS, "
				"proven): not validated",
				txt);
		fold(w, &ds, denial_ttl(w));
		use_proofs(w);
		return 1;
	}
	if (v->status != VAL_BOGUS || !v->tag ||
	    (strcmp(v->tag, "nsec-nodata-referral") != 0 &&
	     strcmp(v->tag, "nsec3-nodata-referral") != 0))
		return 0;
	const struct val_keyset *ks = w->src->name_keys(w->src->arg, name);
	if (!ks) {
		need_keys(w, name);
		return 0;
	}
	if (ks->verdict.status == VAL_SECURE)
		return 0;
	fold(w, &ks->verdict, ks->ttl);
	return 1;
}

/*
 * Whether a trust anchor lies below the zone of the denial records and at
 * or above name (for name's own DS: above it). That zone's records can
 * still prove, with its keys, that name does not exist, but never that
 * it is insecure (an opt-out span over the anchor's zone): the anchor
 * says the zone is signed, and only its own records speak for it.
 */
static bool below_anchor(const struct walk *w, const uint8_t *name)
{
	bool ds = w->resp->qtype == WIRE_TYPE_DS && name[0] &&
		  wire_dname_equal(name, w->resp->qname);
	const uint8_t *ta;

	if (!w->src->anchor || !w->denial_zone)
		return false;
	ta = w->src->anchor(w->src->arg, ds ? wire_dname_parent(name) : name);
	return ta && wire_dname_is_subdomain(ta, w->denial_zone) &&
	       !wire_dname_equal(ta, w->denial_zone);
}

/* Checks the gathered proofs for NXDOMAIN (nx) or NODATA of name. */
static int check_denial(struct walk *w, const uint8_t *name, bool nx,
			struct val_verdict *v)
{
	const uint16_t qt = w->resp->qtype;

	if (w->nnsec)
		return nx ? val_nsec_nxdomain(w->ctx, w->nsec, w->nnsec,
					      w->denial_zone, name, v)
			  : val_nsec_nodata(w->ctx, w->nsec, w->nnsec,
					    w->denial_zone, name, qt,
					    &w->res->denial, v);
	return nx ? val_nsec3_nxdomain(w->ctx, w->nsec3, w->nnsec3,
				       w->denial_zone, name, v)
		  : val_nsec3_nodata(w->ctx, w->nsec3, w->nnsec3,
				     w->denial_zone, name, qt, &w->res->denial,
				     v);
}

/*
 * An NXDOMAIN whose verified proofs show that name exists (an NSEC or
 * NSEC3 of name itself, or an NSEC showing it an empty non-terminal):
 * the RCODE is false, but when the same records prove NODATA for the
 * question's type, that is what the zone says, and the answer is that
 * NODATA (as Unbound answers a server that sends NXDOMAIN for an empty
 * non-terminal). Nothing else is accepted: a name the proofs show to
 * hold the type stays bogus. Returns 1 when *v was replaced, 0 when not,
 * or a negative code.
 */
static int nx_exists(struct walk *w, const uint8_t *name,
		     struct val_verdict *v)
{
	static const char *const exists[] = {"nsec-nx-ent",
					     "nsec-nx-qname-exists",
					     "nsec3-nx-qname-exists"};
	struct val_verdict nd;
	bool match = false;
	int r;

	for (size_t i = 0; i < sizeof(exists) / sizeof(exists[0]); i++)
		match |= v->tag && strcmp(v->tag, exists[i]) == 0;
	if (v->status != VAL_BOGUS || !match)
		return 0;
	if ((r = check_denial(w, name, false, &nd)) < 0)
		return r;
	if (nd.status != VAL_SECURE) {
		memset(&w->res->denial, 0, sizeof(w->res->denial));
		return 0;
	}
	w->res->kind = VAL_KIND_NODATA;
	*v = nd;
	return 1;
}

static int prove_negative(struct walk *w, const uint8_t *name, bool nx)
{
	struct val_verdict v;
	int r;

	if ((r = gather_denial(w, name)) < 0 || w->need)
		return r;
	w->res->kind = nx ? VAL_KIND_NXDOMAIN : VAL_KIND_NODATA;
	if (!denial_usable(w, name)) {
		denial_missing(w, name, nx ? "NXDOMAIN" : "NODATA");
		if (!w->need)
			use_soa(w, name);
		return 0;
	}
	if ((r = check_denial(w, name, nx, &v)) < 0 ||
	    (nx && (r = nx_exists(w, name, &v)) < 0))
		return r;
	if (v.status == VAL_INSECURE && below_anchor(w, name)) {
		denial_missing(w, name, nx ? "NXDOMAIN" : "NODATA");
		if (!w->need)
			use_soa(w, name);
		return 0;
	}
	if ((r = referral_below_insecure(w, name, &v)) < 0)
		return r;
	if (r > 0 && !w->need) {
		use_soa(w, name);
		return 0;
	}
	if (w->need)
		return 0;
	fold(w, &v, denial_ttl(w));
	use_proofs(w);
	use_soa(w, name);
	return 0;
}

static int prove_wildcard(struct walk *w, const uint8_t *name,
			  const uint8_t *ce)
{
	struct val_verdict v;
	int r;

	if ((r = gather_denial(w, name)) < 0 || w->need)
		return r;
	if (!denial_usable(w, name)) {
		denial_missing(w, name, "the wildcard expansion");
		/* A secure zone without the proof: denial_missing said
		 * bogus; an insecure one cannot have signed the answer. */
		return 0;
	}
	if (w->nnsec)
		r = val_nsec_wildcard(w->ctx, w->nsec, w->nnsec,
				      w->denial_zone, name, ce, &v);
	else
		r = val_nsec3_wildcard(w->ctx, w->nsec3, w->nnsec3,
				       w->denial_zone, name, ce, &v);
	if (r < 0)
		return r;
	fold(w, &v, denial_ttl(w));
	use_proofs(w);
	return 0;
}

/* An RRset that may continue the chain, with its verification. */
struct cand {
	const struct val_rrset *set;
	struct val_sig_info info;
	struct val_verdict v;
};

/* A CNAME or DNAME RRset has one record (RFC 2181 §10.1; a DNAME gives
 * one substitution, RFC 6672 §2.2): two targets cannot both be right. */
static bool singleton_ok(const struct val_rrset *set, struct val_verdict *v)
{
	char name[DT_NAME_TEXT_MAXLEN + 16];

	if ((set->type != WIRE_TYPE_CNAME && set->type != WIRE_TYPE_DNAME) ||
	    set->n == 1)
		return true;
	val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
			"resp-alias-not-single",
			"%s holds %zu records; an alias has exactly one",
			val_rrset_name(set->owner, set->type, name,
				       sizeof(name)),
			set->n);
	return false;
}

static int evaluate(struct walk *w, struct cand *c)
{
	c->info.wildcard = false;
	c->info.ttl = c->set->ttl;
	if (!singleton_ok(c->set, &c->v))
		return 0;
	return verify_set(w, c->set, &c->info, &c->v);
}

static uint32_t cand_ttl(const struct cand *c)
{
	return c->v.status == VAL_SECURE ? c->info.ttl : c->set->ttl;
}

/* Takes an evaluated RRset into the chain: its verdict, the used list,
 * and its wildcard proof if it was expanded. */
static int take(struct walk *w, const struct cand *c, enum val_role role)
{
	char name[DT_NAME_TEXT_MAXLEN + 16];
	bool wild = c->v.status == VAL_SECURE && c->info.wildcard;
	size_t at = w->res->nused;

	fold(w, &c->v, cand_ttl(c));
	use(w, c->set, role, cand_ttl(c));
	if (role == VAL_ROLE_LINK && c->v.status == VAL_SECURE && !wild &&
	    w->res->nused > at)
		w->res->used[at].link_secure = true;
	val_trace(w->ctx, "%s %s%s",
		  val_rrset_name(c->set->owner, c->set->type, name,
				 sizeof(name)),
		  val_status_name(c->v.status),
		  wild ? " (expanded from a wildcard)" : "");
	if (wild)
		return prove_wildcard(w, c->set->owner,
				      c->info.closest_encloser);
	return 0;
}

/*
 * Chooses among the candidates at one name: the first that validates as
 * secure, else the strongest, ties to the earlier (response.h). Later
 * candidates are not verified once one is secure. Writes the index taken,
 * or -1 when there is none, to *ret.
 */
static int pick(struct walk *w, struct cand *c, int n, int *ret)
{
	int best = -1, r;

	for (int i = 0; i < n; i++) {
		if (!c[i].set)
			continue;
		if ((r = evaluate(w, &c[i])) < 0 || w->need)
			return r;
		if (best < 0 || c[i].v.status > c[best].v.status)
			best = i;
		if (c[i].v.status == VAL_SECURE)
			break;
	}
	*ret = best;
	return 0;
}

/*
 * The RRset of the queried type was taken as secure beside a CNAME at
 * the same name (RFC 2181 §10.1: one of them should not be there). When
 * the CNAME comes first in the answer section and is secure too, the
 * zone signed both and the CNAME is taken, as Unbound's scrubber keeps
 * the first RRset at a name (val_cnameother): either reading is the
 * zone's own, so neither is weaker than the other.
 */
static int earlier_cname(struct walk *w, struct cand *c, int *k)
{
	int r;

	if (!c[2].set || c[0].v.status != VAL_SECURE ||
	    c[2].set->rrs[0] >= c[0].set->rrs[0])
		return 0;
	if ((r = evaluate(w, &c[2])) < 0 || w->need)
		return r;
	if (c[2].v.status == VAL_SECURE)
		*k = 2;
	return 0;
}

/* The deepest DNAME whose owner is a proper ancestor of name. */
static const struct val_rrset *find_dname(const struct walk *w,
					  const uint8_t *name)
{
	const struct val_rrset *best = NULL;

	for (size_t i = 0; i < w->nans; i++) {
		const struct val_rrset *s = &w->ans[i];
		if (s->type != WIRE_TYPE_DNAME || s->n == 0 ||
		    wire_dname_equal(s->owner, name) ||
		    !wire_dname_is_subdomain(name, s->owner))
			continue;
		if (!best || wire_dname_labels(s->owner) >
				     wire_dname_labels(best->owner))
			best = s;
	}
	return best;
}

/* RFC 6672 §2.2: the name with the DNAME owner replaced by its target. */
static int dname_substitute(const uint8_t *name, const struct val_rrset *dn,
			    uint8_t out[DT_NAME_MAXLEN])
{
	size_t prefix = wire_dname_len(name) - wire_dname_len(dn->owner);
	const uint8_t *target = dn->rrs[0]->rdata;
	size_t tlen = wire_dname_len(target);

	if (prefix + tlen > DT_NAME_MAXLEN)
		return DT_ENAMELEN;
	memmove(out, name, prefix);
	memcpy(out + prefix, target, tlen);
	return 0;
}

static void chain_too_long(struct walk *w)
{
	struct val_verdict v;

	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "resp-chain-limit",
			"CNAME/DNAME chain longer than %u links",
			w->ctx->lim.chain_max);
	fold(w, &v, 0);
}

static void dname_bogus(struct walk *w, const char *tag, const char *why)
{
	struct val_verdict v;

	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, tag, "%s", why);
	fold(w, &v, 0);
}

/*
 * The CNAME at cur beside a DNAME must be there and be the one
 * synthesised from it (RFC 6672 §2.2, §3.4: a server answering through a
 * DNAME includes it; §5.3.1: unsigned, so it is checked against the
 * DNAME, which is what was validated). It is shown with the DNAME's TTL.
 * A missing one is bogus rather than invented: a client that follows
 * CNAMEs (the library, a stub) would otherwise read the answer as "no
 * data" at the question's name, signed.
 */
static bool check_synth(struct walk *w, const struct cand *dn,
			const uint8_t *cur, const uint8_t *next)
{
	const struct val_rrset *cn =
		val_rrset_find(w->ans, w->nans, cur, WIRE_TYPE_CNAME);

	if (!cn) {
		dname_bogus(w, "resp-dname-no-cname",
			    "a DNAME answer without the CNAME synthesised "
			    "from it");
		return false;
	}
	if (cn->n != 1 || !wire_dname_equal(cn->rrs[0]->rdata, next)) {
		dname_bogus(w, "resp-dname-cname-mismatch",
			    "CNAME synthesised from a DNAME points elsewhere "
			    "than the DNAME says");
		return false;
	}
	use(w, cn, VAL_ROLE_SYNTH, cand_ttl(dn));
	return true;
}

/* Follows a DNAME at cur. Returns 1 when the chain goes on. */
static int follow_dname(struct walk *w, const struct cand *dn,
			uint8_t cur[DT_NAME_MAXLEN])
{
	uint8_t next[DT_NAME_MAXLEN];
	int r;

	if (dn->v.status == VAL_SECURE && dn->info.wildcard) {
		/* RFC 4592 §4.4, RFC 6672 §3.3: a DNAME at a wildcard is
		 * not expanded; a "wildcard-expanded" one is forged. */
		dname_bogus(w, "resp-dname-wildcard",
			    "a DNAME expanded from a wildcard");
		return 0;
	}
	if ((r = take(w, dn, VAL_ROLE_LINK)) < 0 || w->need)
		return r;
	if (dname_substitute(cur, dn->set, next) < 0) {
		/* RFC 6672 §2.2: the answer is YXDOMAIN, proven by the
		 * validated DNAME itself. */
		w->res->kind = VAL_KIND_YXDOMAIN;
		return 0;
	}
	if (!check_synth(w, dn, cur, next))
		return 0;
	wire_dname_copy(cur, next);
	/* With qtype CNAME the synthesised CNAME is the answer. */
	return w->resp->qtype == WIRE_TYPE_CNAME ? 0 : 1;
}

/* Validates the RRsets at cur for qtype ANY: each is part of the answer.
 * Returns 1 when there was one (or keys are wanted), 0 when none. */
static int verify_any(struct walk *w, const uint8_t *cur)
{
	int r, found = 0;

	for (size_t i = 0; i < w->nans; i++) {
		struct cand c = {.set = &w->ans[i]};
		if (c.set->n == 0 || !wire_dname_equal(c.set->owner, cur))
			continue;
		found = 1;
		if ((r = evaluate(w, &c)) < 0)
			return r;
		if (w->need)
			return 1;
		if ((r = take(w, &c, VAL_ROLE_FINAL)) < 0)
			return r;
		if (w->need)
			return 1;
	}
	return found;
}

/*
 * qtype RRSIG: every RRSIG at cur is the answer. RRSIGs are not signed
 * themselves (RFC 4034 §3, RFC 4035 §2.2), so there is nothing to
 * validate: insecure, the records as received; a client gets no AD
 * (Unbound and Knot Resolver answer the same). Returns 1 when there was
 * one.
 */
static int verify_rrsig_query(struct walk *w, const uint8_t *cur)
{
	struct val_result *res = w->res;
	struct val_verdict v;
	char txt[DT_NAME_TEXT_MAXLEN];

	for (size_t i = 0; i < w->resp->nanswer; i++) {
		const struct wire_rr *rr = &w->resp->answer[i];
		if (rr->type != WIRE_TYPE_RRSIG ||
		    rr->rclass != w->resp->qclass ||
		    !wire_dname_equal(rr->owner, cur))
			continue;
		wire_dname_to_str(cur, txt, sizeof(txt));
		val_verdict_set(&v, VAL_INSECURE, VAL_EDE_NONE,
				"resp-qtype-rrsig",
				"the RRSIG records of %s: signatures are not "
				"signed, returned unvalidated",
				txt);
		fold(w, &v, rr->ttl);
		if (res->nused < VAL_USED_MAX)
			res->used[res->nused++] = (struct val_used){
				.section = WIRE_SEC_ANSWER,
				.role = VAL_ROLE_FINAL,
				.type = WIRE_TYPE_RRSIG,
				.rclass = rr->rclass,
				.ttl = rr->ttl,
				.first = i,
			};
		return 1;
	}
	return 0;
}

/* Takes the link chosen at cur. Returns 1 to go on, 0 when done. */
static int take_link(struct walk *w, struct cand *c, bool dname,
		     uint8_t cur[DT_NAME_MAXLEN])
{
	int r;

	if (w->res->links >= w->ctx->lim.chain_max) {
		chain_too_long(w);
		return 0;
	}
	w->res->links++;
	if (dname)
		return follow_dname(w, c, cur);
	if ((r = take(w, c, VAL_ROLE_LINK)) < 0 || w->need)
		return r;
	wire_dname_copy(cur, c->set->rrs[0]->rdata);
	return 1;
}

/* One step of the chain at cur. Returns 1 to go on, 0 when done. */
static int chain_step(struct walk *w, uint8_t cur[DT_NAME_MAXLEN])
{
	const uint16_t qt = w->resp->qtype;
	struct cand c[3];
	int r, k = -1;

	memset(c, 0, sizeof(c));
	if (qt == WIRE_TYPE_RRSIG && verify_rrsig_query(w, cur))
		return 0;
	if (qt == WIRE_TYPE_ANY) {
		if ((r = verify_any(w, cur)) != 0)
			return r < 0 ? r : 0;
	} else {
		c[0].set = val_rrset_find(w->ans, w->nans, cur, qt);
	}
	c[1].set = find_dname(w, cur);
	if (qt != WIRE_TYPE_CNAME)
		c[2].set = val_rrset_find(w->ans, w->nans, cur, WIRE_TYPE_CNAME);
	if ((r = pick(w, c, 3, &k)) < 0 || w->need)
		return r;
	if (k == 0 && (r = earlier_cname(w, c, &k)) < 0)
		return r;
	if (w->need)
		return 0;
	if (k < 0) {
		r = prove_negative(w, cur,
				   w->resp->rcode == WIRE_RCODE_NXDOMAIN);
		return r < 0 ? r : 0;
	}
	if (k == 0) {
		r = take(w, &c[0], VAL_ROLE_FINAL);
		return r < 0 ? r : 0;
	}
	return take_link(w, &c[k], k == 1, cur);
}

/* Leaves out RRsets of another class than the question's: they are never
 * part of its answer (RFC 2181 §5: an RRset is one name, class and
 * type). */
static size_t keep_class(struct val_rrset *sets, size_t n, uint16_t qclass)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (sets[i].rclass == qclass)
			sets[k++] = sets[i];
	return k;
}

/*
 * Gives each RRset of sets that has no RRSIG beside it the RRSIGs of the
 * additional section that cover it (same owner, class and covered type):
 * a signature is checked against the RRset's keys wherever it was placed
 * (RFC 4035 §3.1.1 asks servers for the same section; Unbound takes them
 * from anywhere too). Records stay where they are: the used list names
 * RRsets in the answer and authority sections only.
 */
static int adopt_sigs(struct walk *w, struct val_rrset *sets, size_t n)
{
	const struct val_response *r = w->resp;

	for (size_t k = 0; k < n && r->nadditional; k++) {
		struct val_rrset *s = &sets[k];
		size_t m = 0;
		if (s->nsigs || !s->n)
			continue;
		for (size_t i = 0; i < r->nadditional; i++)
			m += val_rrsig_covers(&r->additional[i], s->type) &&
			     r->additional[i].rclass == s->rclass &&
			     wire_dname_equal(r->additional[i].owner, s->owner);
		if (!m)
			continue;
		const struct wire_rr **sigs =
			arena_alloc(&w->arena, m * sizeof(*sigs));
		if (!sigs)
			return -ENOMEM;
		for (size_t i = 0; i < r->nadditional; i++)
			if (val_rrsig_covers(&r->additional[i], s->type) &&
			    r->additional[i].rclass == s->rclass &&
			    wire_dname_equal(r->additional[i].owner, s->owner))
				sigs[s->nsigs++] = &r->additional[i];
		s->sigs = sigs;
	}
	return 0;
}

static int walk_init(struct walk *w, struct val_ctx *ctx,
		     const struct val_response *resp,
		     const struct val_keysource *src, struct val_result *ret)
{
	int n;

	memset(w, 0, sizeof(*w));
	w->ctx = ctx;
	w->resp = resp;
	w->src = src;
	w->res = ret;
	arena_init(&w->arena, 0);
	n = val_rrsets_collect(resp->answer, resp->nanswer, &w->arena, &w->ans);
	if (n < 0)
		return n;
	w->nans = keep_class(w->ans, (size_t)n, resp->qclass);
	n = val_rrsets_collect(resp->authority, resp->nauthority, &w->arena,
			       &w->auth);
	if (n < 0)
		return n;
	w->nauth = keep_class(w->auth, (size_t)n, resp->qclass);
	if ((n = adopt_sigs(w, w->ans, w->nans)) < 0)
		return n;
	return adopt_sigs(w, w->auth, w->nauth);
}

int val_response_validate(struct val_ctx *ctx, const struct val_response *resp,
			  const struct val_keysource *src,
			  struct val_result *ret)
{
	uint8_t cur[DT_NAME_MAXLEN];
	struct walk w;
	int r;

	memset(ret, 0, sizeof(*ret));
	val_verdict_secure(&ret->verdict);
	ret->kind = VAL_KIND_ANSWER;
	ret->ttl = UINT32_MAX;
	if ((r = walk_init(&w, ctx, resp, src, ret)) < 0)
		goto out;
	wire_dname_copy(cur, resp->qname);
	while ((r = chain_step(&w, cur)) > 0 && !w.need)
		;
	wire_dname_copy(ret->final_name, cur);
	if (ret->ttl == UINT32_MAX)
		ret->ttl = 0;
	ret->rcode = ret->kind == VAL_KIND_NXDOMAIN   ? WIRE_RCODE_NXDOMAIN
		     : ret->kind == VAL_KIND_YXDOMAIN ? WIRE_RCODE_YXDOMAIN
						      : WIRE_RCODE_NOERROR;
out:
	arena_free(&w.arena);
	return r < 0 ? r : 0;
}
