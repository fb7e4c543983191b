/* SPDX-License-Identifier: MIT */
/*
 * RRset signature verification (RFC 4035 §5.3).
 *
 * One call looks at the RRSIGs of one RRset in order. Each RRSIG goes
 * through the cheap checks first (signer, fields, a usable key, the
 * validity period) and only then costs a verification per candidate key,
 * charged to the RRset and to the question (a verification the context's
 * cache of successes answers is charged too). When no RRSIG verifies, the
 * verdict is that of the RRSIG that got furthest through the checks (a
 * bad signature by a known key says more than a leftover RRSIG by a key
 * that was rolled out); the first one wins among equals.
 *
 * Scratch memory (canonical copies of the records, the signed data) comes
 * from a local arena freed on return; the caller's records are never
 * modified.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/alg.h"
#include "crypto/key.h"
#include "crypto/verify.h"
#include "validator/sig.h"
#include "validator/sigcache.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* RRSIG RDATA (RFC 4034 §3.1): fixed fields, then the signer's name, then
 * the signature. */
#define RRSIG_OFF_ALG	 2
#define RRSIG_OFF_LABELS 3
#define RRSIG_OFF_OTTL	 4
#define RRSIG_OFF_EXP	 8
#define RRSIG_OFF_INC	 12
#define RRSIG_OFF_TAG	 16
#define RRSIG_OFF_SIGNER 18

#define DNSKEY_PROTOCOL 3

/* How far an RRSIG got before it failed; the furthest one is reported. */
enum sig_rank {
	RANK_NONE = -1,
	RANK_SIGNER = 0, /* by another zone: skipped */
	RANK_FIELDS,	 /* malformed, or does not fit the RRset */
	RANK_NOKEY,	 /* no usable key with its tag and algorithm */
	RANK_TIME,	 /* outside its validity period */
	RANK_CRYPTO,	 /* verified, and failed */
};

/* What try_rrsig() tells the loop over RRSIGs. */
enum sig_step {
	STEP_NEXT,   /* this RRSIG failed; try the next */
	STEP_SECURE, /* it verified */
	STEP_STOP,   /* a limit was reached: the verdict is final */
};

/* The fields of one RRSIG. */
struct rrsig {
	const struct wire_rr *rr;
	uint16_t covered;
	uint8_t alg;
	uint8_t labels;
	uint32_t orig_ttl;
	uint32_t exp;
	uint32_t inc;
	uint16_t tag;
	const uint8_t *signer;
	size_t prefix_len; /* RDATA up to the end of the signer's name */
	const uint8_t *sig;
	size_t siglen;
};

/* The state of one val_rrset_verify() call. */
struct sig_run {
	struct val_ctx *ctx;
	const struct val_rrset *set;
	const struct val_keyset *ks;
	char name[DT_NAME_TEXT_MAXLEN + 16]; /* "www.example.com/A" */
	unsigned used;			     /* verifications for this RRset */
	struct arena arena;
	/* The records in canonical form and order, made on first need. */
	struct wire_rr *canon;
	size_t ncanon;
	/* The signed records for one (labels, original TTL) pair. */
	uint8_t *data;
	size_t datalen;
	size_t datacap;
	int data_labels;
	uint32_t data_ottl;
	/* The furthest failure so far. */
	enum sig_rank rank;
	struct val_verdict fail;
	/* RFC 5011 §2.1 revocation check: only revoked keys are usable. */
	bool revocation;
};

/* --- names and times for reasons --- */

const char *val_rrset_name(const uint8_t *owner, uint16_t type, char *buf,
			   size_t buflen)
{
	char name[DT_NAME_TEXT_MAXLEN], tname[16];
	int len = wire_dname_to_str(owner, name, sizeof(name));

	/* "www.example.com/A", but "./DNSKEY" for the root. */
	if (len < 0)
		strcpy(name, "?");
	else if (len > 1 && name[len - 1] == '.')
		name[len - 1] = '\0';
	if (buflen)
		snprintf(buf, buflen, "%s/%s", name,
			 wire_type_to_str(type, tname));
	return buf;
}

int64_t val_time_abs(uint32_t t, int64_t now)
{
	uint32_t diff = t - (uint32_t)now;

	/* RFC 1982: within 2^31 - 1 ahead is later, anything else earlier. */
	if (diff < 0x80000000u)
		return now + (int64_t)diff;
	return now - (int64_t)(0x100000000ull - diff);
}

const char *val_time_str(uint32_t t, int64_t now, char *buf, size_t buflen)
{
	int64_t at = val_time_abs(t, now);
	time_t tt = (time_t)at;
	struct tm tm;

	if (!buflen)
		return buf;
	if ((int64_t)tt != at || !gmtime_r(&tt, &tm) ||
	    strftime(buf, buflen, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, buflen, "@%lld", (long long)at);
	return buf;
}

/* --- verdicts --- */

/* Appends printf-formatted text to v's reason (cut to fit). */
__attribute__((format(printf, 2, 3))) static void
reason_append(struct val_verdict *v, const char *fmt, ...)
{
	size_t len = strlen(v->reason);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->reason + len, sizeof(v->reason) - len, fmt, ap);
	va_end(ap);
}

/* Keeps f as the failure to report when it got further than the last. */
static void run_fail(struct sig_run *run, enum sig_rank rank,
		     const struct val_verdict *f)
{
	if (rank > run->rank) {
		run->rank = rank;
		run->fail = *f;
	}
}

/* ", unsupported" after the algorithm number where that explains it. */
static const char *alg_note(uint8_t alg)
{
	return crypto_alg_supported(alg) ? "" : ", unsupported";
}

/* --- RRSIG fields and the checks of RFC 4035 §5.3.1 --- */

static int rrsig_parse(const struct wire_rr *rr, struct rrsig *s)
{
	const uint8_t *end = rr->rdata + rr->rdlen;
	int nlen;

	if (rr->rdlen <= RRSIG_OFF_SIGNER)
		return DT_ETRUNC;
	nlen = wire_dname_check(rr->rdata + RRSIG_OFF_SIGNER, end);
	if (nlen < 0)
		return nlen;
	s->rr = rr;
	s->covered = wire_get16(rr->rdata);
	s->alg = rr->rdata[RRSIG_OFF_ALG];
	s->labels = rr->rdata[RRSIG_OFF_LABELS];
	s->orig_ttl = wire_get32(rr->rdata + RRSIG_OFF_OTTL);
	s->exp = wire_get32(rr->rdata + RRSIG_OFF_EXP);
	s->inc = wire_get32(rr->rdata + RRSIG_OFF_INC);
	s->tag = wire_get16(rr->rdata + RRSIG_OFF_TAG);
	s->signer = rr->rdata + RRSIG_OFF_SIGNER;
	s->prefix_len = RRSIG_OFF_SIGNER + (size_t)nlen;
	s->sig = rr->rdata + s->prefix_len;
	s->siglen = rr->rdlen - s->prefix_len;
	return s->siglen ? 0 : DT_ETRUNC;
}

/* Labels of the owner as RFC 4034 §3.1.3 counts them: a leading "*" is
 * not counted. */
static int owner_labels(const uint8_t *owner)
{
	int n = wire_dname_labels(owner);

	return wire_dname_is_wildcard(owner) ? n - 1 : n;
}

/* Owner, class and type covered must be the RRset's (val_rrsets_collect
 * guarantees it; a hand-made RRset may not). */
static bool rrsig_fits_set(struct sig_run *run, const struct rrsig *s)
{
	const struct val_rrset *set = run->set;
	struct val_verdict f;
	char tname[16], cname[16];

	if (s->covered != set->type ||
	    !wire_dname_equal(s->rr->owner, set->owner)) {
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-not-this-set",
				"RRSIG attached to %s covers another RRset "
				"(type %s)",
				run->name, wire_type_to_str(s->covered, tname));
		run_fail(run, RANK_FIELDS, &f);
		return false;
	}
	if (s->rr->rclass != set->rclass) {
		val_verdict_set(
			&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "sig-class",
			"RRSIG over %s has class %s, not the RRset's",
			run->name, wire_class_to_str(s->rr->rclass, cname));
		run_fail(run, RANK_FIELDS, &f);
		return false;
	}
	return true;
}

/* Signer: the key set's zone (else skipped), and the owner within it. */
static bool rrsig_signer_ok(struct sig_run *run, const struct rrsig *s)
{
	char signer[DT_NAME_TEXT_MAXLEN], zone[DT_NAME_TEXT_MAXLEN];
	struct val_verdict f;

	if (wire_dname_equal(s->signer, run->ks->zone) &&
	    wire_dname_is_subdomain(run->set->owner, s->signer))
		return true;
	wire_dname_to_str(s->signer, signer, sizeof(signer));
	wire_dname_to_str(run->ks->zone, zone, sizeof(zone));
	if (!wire_dname_equal(s->signer, run->ks->zone)) {
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING,
				"sig-signer",
				"RRSIG over %s: signer %s is not the zone %s",
				run->name, signer, zone);
		run_fail(run, RANK_SIGNER, &f);
		return false;
	}
	val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
			"sig-outside-zone",
			"RRSIG over %s: the owner is not in the signer's zone "
			"%s",
			run->name, signer);
	run_fail(run, RANK_FIELDS, &f);
	return false;
}

static bool rrsig_labels_ok(struct sig_run *run, const struct rrsig *s)
{
	int have = owner_labels(run->set->owner);
	struct val_verdict f;

	if (s->labels <= have)
		return true;
	val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "sig-labels",
			"RRSIG over %s by key %u (alg %u) has labels %u, more "
			"than the owner's %d",
			run->name, s->tag, s->alg, s->labels, have);
	run_fail(run, RANK_FIELDS, &f);
	return false;
}

/* Validity period with the allowed skew (RFC 4035 §5.3.1, RFC 1982). */
static bool rrsig_time_ok(struct sig_run *run, const struct rrsig *s)
{
	int64_t now = run->ctx->now, skew = run->ctx->lim.skew;
	int64_t inc = val_time_abs(s->inc, now);
	int64_t exp = val_time_abs(s->exp, now);
	char t1[32], t2[32];
	struct val_verdict f;

	/* Tests only (val_ctx.test_sig_time_any). */
	if (run->ctx->test_sig_time_any)
		return true;
	val_time_str(s->inc, now, t1, sizeof(t1));
	val_time_str(s->exp, now, t2, sizeof(t2));
	if (inc > exp)
		val_verdict_set(
			&f, VAL_BOGUS, WIRE_EDE_SIGNATURE_EXPIRED_BEFORE_VALID,
			"sig-inverted",
			"RRSIG over %s by key %u (alg %u): inception %s "
			"is after expiration %s",
			run->name, s->tag, s->alg, t1, t2);
	else if (exp < now - skew)
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_SIGNATURE_EXPIRED,
				"sig-expired",
				"RRSIG over %s by key %u (alg %u) expired %s",
				run->name, s->tag, s->alg, t2);
	else if (inc > now + skew)
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_SIGNATURE_NOT_YET_VALID,
				"sig-not-yet-valid",
				"RRSIG over %s by key %u (alg %u) is not valid "
				"before %s",
				run->name, s->tag, s->alg, t1);
	else
		return true;
	run_fail(run, RANK_TIME, &f);
	return false;
}

/* --- keys --- */

static bool key_matches(const struct crypto_key *key, const struct rrsig *s)
{
	return crypto_key_tag(key) == s->tag && crypto_key_alg(key) == s->alg;
}

/* RFC 4034 §2.1.1, §2.1.2, RFC 5011 §2.1: a zone key, not revoked
 * (revoked, and only then, for a revocation check), protocol 3. */
static bool key_usable(const struct sig_run *run, const struct crypto_key *key)
{
	uint16_t flags = crypto_key_flags(key);
	bool revoked = flags & CRYPTO_KEY_FLAG_REVOKE;
	size_t len;
	const uint8_t *rdata = crypto_key_rdata(key, &len);

	return (flags & CRYPTO_KEY_FLAG_ZONE) && revoked == run->revocation &&
	       len > 2 && rdata[2] == DNSKEY_PROTOCOL;
}

/* Records why no key could check s: the keys with its tag and algorithm
 * lack the Zone Key flag, are revoked, or do not exist. */
static void fail_no_key(struct sig_run *run, const struct rrsig *s,
			unsigned nonzone, unsigned revoked)
{
	char zone[DT_NAME_TEXT_MAXLEN];
	struct val_verdict f;

	wire_dname_to_str(run->ks->zone, zone, sizeof(zone));
	if (nonzone)
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_NO_ZONE_KEY_BIT,
				"sig-key-not-zone",
				"RRSIG over %s by key %u (alg %u): that DNSKEY "
				"lacks the Zone Key flag",
				run->name, s->tag, s->alg);
	else if (revoked)
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
				"sig-key-revoked",
				"RRSIG over %s by key %u (alg %u): that DNSKEY "
				"is revoked (RFC 5011)",
				run->name, s->tag, s->alg);
	else
		val_verdict_set(
			&f, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "sig-no-key",
			"RRSIG over %s by key %u (alg %u%s): zone %s "
			"has no such DNSKEY",
			run->name, s->tag, s->alg, alg_note(s->alg), zone);
	run_fail(run, RANK_NOKEY, &f);
}

/* Counts the usable keys for s; without one, records why. */
static unsigned rrsig_count_keys(struct sig_run *run, const struct rrsig *s)
{
	const struct val_keyset *ks = run->ks;
	unsigned usable = 0, nonzone = 0, revoked = 0;

	for (size_t i = 0; i < ks->nkeys; i++) {
		const struct crypto_key *key = ks->keys[i];
		uint16_t flags = crypto_key_flags(key);
		if (!key_matches(key, s))
			continue;
		if (key_usable(run, key))
			usable++;
		else if (!(flags & CRYPTO_KEY_FLAG_ZONE))
			nonzone++;
		else if (flags & CRYPTO_KEY_FLAG_REVOKE)
			revoked++;
	}
	if (!usable)
		fail_no_key(run, s, nonzone, revoked);
	return usable;
}

/* --- signed data (RFC 4034 §3.1.8.1, §6) --- */

/* Canonical copies of the records, sorted, duplicates removed. */
static int canon_records(struct sig_run *run)
{
	const struct val_rrset *set = run->set;
	struct wire_rr *c = arena_alloc(&run->arena, set->n * sizeof(*c));

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < set->n; i++) {
		uint8_t *rdata = arena_memdup(&run->arena, set->rrs[i]->rdata,
					      set->rrs[i]->rdlen);
		if (!rdata)
			return -ENOMEM;
		wire_rdata_canonicalize(set->type, rdata, set->rrs[i]->rdlen);
		c[i] = *set->rrs[i];
		c[i].rdata = rdata;
	}
	run->canon = c;
	run->ncanon = wire_rrset_canon_sort(c, set->n);
	return 0;
}

/* Size of the signed records, owner written in full each time: the
 * wildcard owner "*.<labels>" is never longer than the owner itself. */
static size_t data_size(const struct sig_run *run)
{
	size_t olen = wire_dname_len(run->set->owner), total = 0;

	for (size_t i = 0; i < run->ncanon; i++)
		total += olen + 10 + run->canon[i].rdlen;
	return total;
}

/* The owner the signer signed: the owner itself, or for a wildcard
 * expansion "*." and the rightmost labels (RFC 4035 §5.3.2). */
static const uint8_t *signed_owner(const struct sig_run *run,
				   const struct rrsig *s,
				   uint8_t out[DT_NAME_MAXLEN])
{
	const uint8_t *owner = run->set->owner;

	if (s->labels >= owner_labels(owner))
		return owner;
	if (wire_dname_wildcard_of(out, wire_dname_ancestor(owner, s->labels)) <
	    0)
		return owner; /* cannot happen: it is shorter than owner */
	return out;
}

/* Fills run->data with the records as signed under s. */
static int build_data(struct sig_run *run, const struct rrsig *s)
{
	wire_dname_storage_t wild;
	const uint8_t *owner = signed_owner(run, s, wild);
	size_t len = 0;

	if (run->data && run->data_labels == s->labels &&
	    run->data_ottl == s->orig_ttl)
		return 0;
	if (!run->data) {
		run->datacap = data_size(run);
		run->data = arena_alloc(&run->arena, run->datacap);
		if (!run->data)
			return -ENOMEM;
	}
	for (size_t i = 0; i < run->ncanon; i++) {
		int r = wire_rr_canon_write(&run->canon[i], owner, s->orig_ttl,
					    run->data + len,
					    run->datacap - len);
		if (r < 0)
			return r;
		len += (size_t)r;
	}
	run->datalen = len;
	run->data_labels = s->labels;
	run->data_ottl = s->orig_ttl;
	return 0;
}

/* Makes the signed records for s, within the size limit. Returns 0, 1 when
 * the data is too large (failure recorded) or -ENOMEM. */
static int prepare_data(struct sig_run *run, const struct rrsig *s)
{
	struct val_verdict f;

	if (!run->canon && canon_records(run) < 0)
		return -ENOMEM;
	size_t need = s->prefix_len + data_size(run);
	/* One bound for every algorithm: see DT_EDDSA_DATA_MAXLEN. */
	if (need > DT_EDDSA_DATA_MAXLEN) {
		val_verdict_set(
			&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
			"sig-data-too-large",
			"RRSIG over %s: %zu octets of signed data, over "
			"the limit of %u",
			run->name, need, (unsigned)DT_EDDSA_DATA_MAXLEN);
		run_fail(run, RANK_CRYPTO, &f);
		return 1;
	}
	/* build_data() sized its buffer: DT_ESPACE cannot happen. */
	return build_data(run, s) < 0 ? -ENOMEM : 0;
}

/* --- verification within the budget --- */

/* Stops with EDE 6 when the next verification would exceed a limit. */
static bool budget_left(struct sig_run *run)
{
	const struct val_limits *lim = &run->ctx->lim;

	if (run->used >= lim->sigs_per_rrset)
		val_verdict_set(&run->fail, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-limit-rrset",
				"%s: limit of %u signature verifications per "
				"RRset reached (key-tag collisions count)",
				run->name, lim->sigs_per_rrset);
	else if (run->ctx->crypto_used >= lim->crypto_per_query)
		val_verdict_set(&run->fail, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-limit-query",
				"%s: limit of %u signature verifications per "
				"question reached",
				run->name, lim->crypto_per_query);
	else if (run->ctx->work &&
		 run->ctx->work->crypto >= run->ctx->work->crypto_max)
		val_verdict_set(&run->fail, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-limit-answer",
				"%s: limit of %u signature verifications for the "
				"answer and its chain of trust reached",
				run->name, run->ctx->work->crypto_max);
	else
		return true;
	/* Per RRset, the limit is a property of the data (the same every
	 * time); per question or answer, of this question's budget. */
	run->fail.budget = run->used < lim->sigs_per_rrset;
	return false;
}

/* One verification of s with key, charged. Returns 0 (valid), 1
 * (failure recorded) or -ENOMEM. untried counts the keys with the same
 * tag left out by the keys_per_tag limit, for the reason. */
static int verify_one(struct sig_run *run, const struct rrsig *s,
		      const struct crypto_key *key, unsigned untried)
{
	uint8_t prefix[RRSIG_OFF_SIGNER + DT_NAME_MAXLEN];
	struct val_verdict f;

	memcpy(prefix, s->rr->rdata, s->prefix_len);
	wire_dname_tolower(prefix + RRSIG_OFF_SIGNER);
	struct crypto_chunk chunks[2] = {
		{prefix, s->prefix_len},
		{run->data, run->datalen},
	};
	/* Charged whether or not the cache answers: every limit then bounds
	 * the same work as without a cache (verdicts, reasons and the limit
	 * tests do not depend on what an earlier question left in it), and
	 * a hit costs a SHA-256 over the same data instead. */
	run->used++;
	run->ctx->crypto_used++;
	if (run->ctx->work)
		run->ctx->work->crypto++;
	/* Tests only (val_ctx.test_fake_sig): taken unchecked. */
	if (run->ctx->test_fake_sig && crypto_alg_fakeable(s->alg))
		return 0;
	int r = val_sigcache_verify(run->ctx->sigcache, key, chunks, 2, s->sig,
				    s->siglen);
	if (r == 0 || r == -ENOMEM)
		return r;
	if (r == DT_EBADSIG)
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "sig-bad",
				"signature over %s by key %u (alg %u) does "
				"not verify",
				run->name, s->tag, s->alg);
	else
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-crypto-failed",
				"signature over %s by key %u (alg %u) could "
				"not be checked: %s",
				run->name, s->tag, s->alg, errcode_str(r));
	if (untried)
		reason_append(&f,
			      " (%u more keys with that tag not tried, "
			      "limit %u)",
			      untried, run->ctx->lim.keys_per_tag);
	run_fail(run, RANK_CRYPTO, &f);
	return 1;
}

static void fill_info(const struct sig_run *run, const struct rrsig *s,
		      struct val_sig_info *info)
{
	const uint8_t *owner = run->set->owner;
	int64_t left = val_time_abs(s->exp, run->ctx->now) - run->ctx->now;
	uint32_t ttl = run->set->ttl;

	if (s->orig_ttl < ttl)
		ttl = s->orig_ttl;
	if (left < 0)
		left = 0; /* expired, but within the skew */
	if (run->ctx->test_sig_time_any)
		left = INT64_MAX;
	if (left < (int64_t)ttl)
		ttl = (uint32_t)left;
	info->sig = s->rr;
	info->ttl = ttl;
	info->wildcard = s->labels < owner_labels(owner);
	if (info->wildcard)
		wire_dname_copy(info->closest_encloser,
				wire_dname_ancestor(owner, s->labels));
	else
		info->closest_encloser[0] = 0; /* the root: unused */
}

/* Tries the usable keys with s's tag and algorithm, at most
 * keys_per_tag of them. */
static int verify_keys(struct sig_run *run, const struct rrsig *s,
		       unsigned usable)
{
	const struct val_keyset *ks = run->ks;
	unsigned tried = 0, cap = run->ctx->lim.keys_per_tag;
	unsigned untried = usable > cap ? usable - cap : 0;

	for (size_t i = 0; i < ks->nkeys && tried < cap; i++) {
		const struct crypto_key *key = ks->keys[i];
		if (!key_matches(key, s) || !key_usable(run, key))
			continue;
		if (!budget_left(run))
			return STEP_STOP;
		tried++;
		int r = verify_one(run, s, key, untried);
		if (r <= 0)
			return r < 0 ? r : STEP_SECURE;
	}
	return STEP_NEXT;
}

/* One RRSIG: the checks, then the verifications. Returns a step or
 * -ENOMEM. */
static int try_rrsig(struct sig_run *run, const struct wire_rr *rr,
		     struct val_sig_info *info)
{
	struct val_verdict f;
	struct rrsig s;

	if (rrsig_parse(rr, &s) < 0) {
		val_verdict_set(&f, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-malformed", "RRSIG over %s is malformed",
				run->name);
		run_fail(run, RANK_FIELDS, &f);
		return STEP_NEXT;
	}
	if (!rrsig_fits_set(run, &s) || !rrsig_signer_ok(run, &s) ||
	    !rrsig_labels_ok(run, &s))
		return STEP_NEXT;
	unsigned usable = rrsig_count_keys(run, &s);
	if (!usable || !rrsig_time_ok(run, &s))
		return STEP_NEXT;
	if (!budget_left(run))
		return STEP_STOP;
	int r = prepare_data(run, &s);
	if (r != 0)
		return r < 0 ? r : STEP_NEXT;
	r = verify_keys(run, &s, usable);
	if (r == STEP_SECURE && info)
		fill_info(run, &s, info);
	return r;
}

/* --- the RRset --- */

/* Checks that need no RRSIG; false with *v written when one fails. */
static bool set_checks(const struct sig_run *run, struct val_verdict *v)
{
	const struct val_rrset *set = run->set;

	if (set->nsigs == 0)
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING,
				"sig-none", "no RRSIG over %s", run->name);
	else if (set->n == 0)
		val_verdict_set(
			v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "sig-no-data",
			"RRSIG over %s without the RRset itself", run->name);
	else if (set->n > run->ctx->lim.rrs_per_rrset)
		val_verdict_set(v, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS,
				"sig-too-many-rrs",
				"%s has %zu records, over the limit of %u per "
				"RRset",
				run->name, set->n, run->ctx->lim.rrs_per_rrset);
	else
		return true;
	return false;
}

static void run_cleanup(struct sig_run *run)
{
	arena_free(&run->arena);
}

static void run_init(struct sig_run *run, struct val_ctx *ctx,
		     const struct val_rrset *set, const struct val_keyset *ks)
{
	memset(run, 0, sizeof(*run));
	run->ctx = ctx;
	run->set = set;
	run->ks = ks;
	run->rank = RANK_NONE;
	run->data_labels = -1;
	arena_init(&run->arena, 0);
	val_rrset_name(set->owner, set->type, run->name, sizeof(run->name));
}

static int verify_rrset(struct val_ctx *ctx, const struct val_rrset *set,
			const struct val_keyset *ks, bool revocation,
			struct val_sig_info *info, struct val_verdict *v)
{
	struct sig_run run __attribute__((cleanup(run_cleanup)));
	size_t nsigs = set->nsigs;
	int step = STEP_NEXT;

	run_init(&run, ctx, set, ks);
	run.revocation = revocation;
	if (ks->verdict.status != VAL_SECURE) {
		*v = ks->verdict;
		return 0;
	}
	if (!set_checks(&run, v))
		return 0;
	if (nsigs > ctx->lim.rrsigs_per_rrset)
		nsigs = ctx->lim.rrsigs_per_rrset;
	for (size_t i = 0; i < nsigs && step == STEP_NEXT; i++) {
		step = try_rrsig(&run, set->sigs[i], info);
		if (step < 0)
			return step;
	}
	if (step == STEP_SECURE) {
		val_verdict_secure(v);
		return 0;
	}
	if (run.rank == RANK_NONE && step == STEP_NEXT)
		val_verdict_set(&run.fail, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING,
				"sig-none-examined",
				"no RRSIG over %s examined (limit %u)",
				run.name, ctx->lim.rrsigs_per_rrset);
	*v = run.fail;
	if (step == STEP_NEXT && nsigs < set->nsigs)
		reason_append(v, "; %zu more RRSIGs not examined (limit %u)",
			      set->nsigs - nsigs, ctx->lim.rrsigs_per_rrset);
	return 0;
}

int val_rrset_verify(struct val_ctx *ctx, const struct val_rrset *set,
		     const struct val_keyset *ks, struct val_sig_info *info,
		     struct val_verdict *v)
{
	return verify_rrset(ctx, set, ks, false, info, v);
}

int val_rrset_verify_revocation(struct val_ctx *ctx,
				const struct val_rrset *set,
				const struct val_keyset *ks,
				struct val_verdict *v)
{
	return verify_rrset(ctx, set, ks, true, NULL, v);
}
