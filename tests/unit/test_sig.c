/* SPDX-License-Identifier: MIT */
/*
 * RRset verification (src/validator/sig.c) against the RFC example
 * vectors in $DT_PEER/rfc-vectors: every signed RRset of RFC 4035 App. A
 * (alg 5), RFC 5155 App. A (alg 7), RFC 5702 (8, 10), RFC 6605 (13, 14)
 * and RFC 8080 (15, 16; the corrected RRSIGs) is secure inside its
 * validity period, expired or not yet valid outside it (skew included),
 * bogus once a bit of a signature or of the data flips, and still secure
 * when the owner's case changes. Then the RFC 4035 B.6 wildcard
 * expansion, every failure path with its tag and EDE, TTL clamping, the
 * work limits (KeyTrap, CVE-2023-50387), the cache of verifications
 * (sigcache.c: a repeated verification costs no crypto, anything changed
 * never hits, the limits charge hits alike) and the formatting helpers.
 *
 * Key sets are made by hand here (every DNSKEY of a file, parsed), so
 * that these tests do not depend on keyset.c.
 */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/key.h"
#include "crypto/verify.h"
#include "validator/sig.h"
#include "validator/sigcache.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

#include "tap.h"
#include "vectors.h"

#define SKEW	     DT_VAL_SKEW
#define RRSIG_SIGNER 18

#define F4035 "rfc4035-appendix-A-signed-zone.zone"
#define F5155 "rfc5155-appendix-A-nsec3-zone.zone"
#define F6605 "rfc6605-section6.1-ecdsap256sha256.zone"
#define F8080 "rfc8080-section6.1-ed25519-example1.zone"

/* --- records read from vector files (vectors.h), and their RRsets --- */

struct recs {
	struct vec_recs v;
	struct val_rrset *sets;
	size_t nsets;
};

static void *xalloc(struct arena *a, size_t len)
{
	void *p = arena_alloc(a, len ? len : 1);

	if (!p)
		abort();
	return p;
}

static struct wire_rr rr_copy(struct arena *a, const struct wire_rr *rr)
{
	struct wire_rr c = *rr;
	size_t olen = wire_dname_len(rr->owner);

	c.owner = memcpy(xalloc(a, olen), rr->owner, olen);
	c.rdata = rr->rdlen ? memcpy(xalloc(a, rr->rdlen), rr->rdata, rr->rdlen)
			    : xalloc(a, 1);
	return c;
}

/* Writable RDATA of a record this file allocated. */
static uint8_t *wr(const struct wire_rr *rr)
{
	return (uint8_t *)rr->rdata;
}

/* The RRsets of z's records, read with status r: 0 or a code. */
static int recs_collect(struct recs *z, int r)
{
	z->sets = NULL;
	z->nsets = 0;
	if (r < 0)
		return r;
	r = val_rrsets_collect(z->v.rr, z->v.n, &z->v.a, &z->sets);
	if (r < 0)
		return r;
	z->nsets = (size_t)r;
	return 0;
}

static int recs_file(struct recs *z, const char *file)
{
	return recs_collect(z, vec_recs_file(&z->v, file));
}

static int recs_text(struct recs *z, const char *text)
{
	vec_recs_init(&z->v);
	return recs_collect(z, vec_recs_text(&z->v, text));
}

static void recs_free(struct recs *z)
{
	vec_recs_free(&z->v);
	z->sets = NULL;
	z->nsets = 0;
}

/* A name from text, in one of a few rotating buffers. */
static const uint8_t *dn(const char *s)
{
	static wire_dname_storage_t buf[8];
	static unsigned next;
	uint8_t *out = buf[next++ % 8];

	if (wire_dname_from_str(s, strlen(s), NULL, out) < 0)
		abort();
	return out;
}

static const struct val_rrset *find_set(const struct recs *z, const char *owner,
					uint16_t type)
{
	for (size_t i = 0; i < z->nsets; i++) {
		if (z->sets[i].type == type &&
		    wire_dname_equal(z->sets[i].owner, dn(owner)))
			return &z->sets[i];
	}
	return NULL;
}

/* --- key sets made by hand: every DNSKEY of the records --- */

static void hand_keyset(struct val_keyset *ks, const struct recs *z)
{
	memset(ks, 0, sizeof(*ks));
	val_verdict_secure(&ks->verdict);
	ks->keys = calloc(z->v.n + 1, sizeof(*ks->keys));
	if (!ks->keys)
		abort();
	for (size_t i = 0; i < z->v.n; i++) {
		const struct wire_rr *rr = &z->v.rr[i];
		if (rr->type != WIRE_TYPE_DNSKEY)
			continue;
		if (crypto_key_new(rr->rdata, rr->rdlen, &ks->keys[ks->nkeys]) <
		    0)
			abort();
		ks->nkeys++;
		wire_dname_copy(ks->zone, rr->owner);
	}
	ks->ttl = 3600;
}

/* A key set of one DNSKEY RDATA given as text, n copies. */
static void keyset_of(struct val_keyset *ks, const char *zone,
		      const uint8_t *rdata, size_t rdlen, size_t n)
{
	memset(ks, 0, sizeof(*ks));
	val_verdict_secure(&ks->verdict);
	wire_dname_copy(ks->zone, dn(zone));
	ks->keys = calloc(n + 1, sizeof(*ks->keys));
	if (!ks->keys)
		abort();
	for (; ks->nkeys < n; ks->nkeys++) {
		if (crypto_key_new(rdata, rdlen, &ks->keys[ks->nkeys]) < 0)
			abort();
	}
}

/* --- RRSIG fields --- */

static uint32_t sig_exp(const struct wire_rr *sig)
{
	return wire_get32(sig->rdata + 8);
}

static uint32_t sig_inc(const struct wire_rr *sig)
{
	return wire_get32(sig->rdata + 12);
}

static size_t sig_off(const struct wire_rr *sig)
{
	return RRSIG_SIGNER + wire_dname_len(sig->rdata + RRSIG_SIGNER);
}

/* A copy of sig whose signer's name is signer. */
static struct wire_rr sig_with_signer(struct arena *a,
				      const struct wire_rr *sig,
				      const uint8_t *signer)
{
	size_t off = sig_off(sig), slen = wire_dname_len(signer);
	size_t len = RRSIG_SIGNER + slen + (sig->rdlen - off);
	uint8_t *rd = xalloc(a, len);
	struct wire_rr c = *sig;

	memcpy(rd, sig->rdata, RRSIG_SIGNER);
	memcpy(rd + RRSIG_SIGNER, signer, slen);
	memcpy(rd + RRSIG_SIGNER + slen, sig->rdata + off, sig->rdlen - off);
	c.rdata = rd;
	c.rdlen = (uint16_t)len;
	return c;
}

/* --- RRsets made by hand --- */

struct hset {
	struct val_rrset set;
	const struct wire_rr *rrs[64];
	const struct wire_rr *sigs[64];
};

static void hset_init(struct hset *h, const struct val_rrset *like)
{
	memset(h, 0, sizeof(*h));
	h->set = *like;
	h->set.rrs = h->rrs;
	h->set.sigs = h->sigs;
	h->set.n = h->set.nsigs = 0;
}

/* A copy of set whose records and RRSIGs are copies too (arena a). */
static void hset_copy(struct hset *h, const struct val_rrset *set,
		      struct arena *a)
{
	hset_init(h, set);
	for (size_t i = 0; i < set->n; i++) {
		struct wire_rr *c = xalloc(a, sizeof(*c));
		*c = rr_copy(a, set->rrs[i]);
		h->rrs[h->set.n++] = c;
	}
	for (size_t i = 0; i < set->nsigs; i++) {
		struct wire_rr *c = xalloc(a, sizeof(*c));
		*c = rr_copy(a, set->sigs[i]);
		h->sigs[h->set.nsigs++] = c;
	}
	h->set.owner = h->rrs[0] ? h->rrs[0]->owner : set->owner;
}

static void hset_add_sig(struct hset *h, struct arena *a,
			 const struct wire_rr *sig)
{
	struct wire_rr *c = xalloc(a, sizeof(*c));

	*c = *sig;
	h->sigs[h->set.nsigs++] = c;
}

/* --- running the verification --- */

struct outcome {
	int ret;
	struct val_verdict v;
	struct val_sig_info info;
	unsigned crypto_used;
};

static struct outcome verify_in(struct val_sigcache *cache,
				const struct val_rrset *set,
				const struct val_keyset *ks, int64_t now,
				const struct val_limits *lim)
{
	struct outcome o;
	struct val_ctx ctx;

	memset(&o, 0, sizeof(o));
	val_ctx_init(&ctx, now, lim);
	ctx.sigcache = cache;
	o.ret = val_rrset_verify(&ctx, set, ks, &o.info, &o.v);
	o.crypto_used = ctx.crypto_used;
	return o;
}

static struct outcome verify_lim(const struct val_rrset *set,
				 const struct val_keyset *ks, int64_t now,
				 const struct val_limits *lim)
{
	return verify_in(NULL, set, ks, now, lim);
}

static struct outcome verify(const struct val_rrset *set,
			     const struct val_keyset *ks, int64_t now)
{
	return verify_lim(set, ks, now, NULL);
}

static bool is_secure(const struct outcome *o)
{
	return o->ret == 0 && o->v.status == VAL_SECURE &&
	       o->v.ede == VAL_EDE_NONE;
}

static bool is_bogus(const struct outcome *o, uint16_t ede, const char *tag)
{
	return o->ret == 0 && o->v.status == VAL_BOGUS && o->v.ede == ede &&
	       o->v.tag && strcmp(o->v.tag, tag) == 0;
}

/* Flips one bit of every RRSIG's signature. */
static void tamper_sigs(struct hset *h)
{
	for (size_t i = 0; i < h->set.nsigs; i++) {
		const struct wire_rr *s = h->sigs[i];
		size_t off = sig_off(s);
		wr(s)[off + (s->rdlen - off) / 2] ^= 0x01;
	}
}

/* Flips a bit of the first record's RDATA where the result still passes
 * the RDATA checks. Returns false when no such bit was found. */
static bool tamper_rdata(struct hset *h)
{
	const struct wire_rr *rr = h->rrs[0];

	for (size_t i = rr->rdlen; i-- > 0;) {
		wr(rr)[i] ^= 0x01;
		if (wire_rdata_check(rr->type, rr->rdata, rr->rdlen) == 0)
			return true;
		wr(rr)[i] ^= 0x01;
	}
	return false;
}

static void upper_name(uint8_t *name)
{
	for (size_t i = 0; name[i]; i += 1 + name[i]) {
		for (size_t k = 1; k <= name[i]; k++) {
			if (name[i + k] >= 'a' && name[i + k] <= 'z')
				name[i + k] -= 'a' - 'A';
		}
	}
}

/* Uppercases the owner of every record and RRSIG, and the signer. */
static void upper_owner(struct hset *h)
{
	for (size_t i = 0; i < h->set.n; i++)
		upper_name((uint8_t *)h->rrs[i]->owner);
	for (size_t i = 0; i < h->set.nsigs; i++) {
		upper_name((uint8_t *)h->sigs[i]->owner);
		upper_name(wr(h->sigs[i]) + RRSIG_SIGNER);
	}
}

/* --- every signed RRset of a vector file --- */

struct vector {
	const char *file;
	size_t sets; /* signed RRsets expected */
};

static const struct vector vectors[] = {
	{F4035, 26},
	{F5155, 30},
	{"rfc5702-section6.1-rsasha256.zone", 1},
	{"rfc5702-section6.2-rsasha512.zone", 1},
	{F6605, 1},
	{"rfc6605-section6.2-ecdsap384sha384.zone", 1},
	{F8080, 1},
	{"rfc8080-section6.1-ed25519-example2.zone", 1},
	{"rfc8080-section6.2-ed448-example1.zone", 1},
	{"rfc8080-section6.2-ed448-example2.zone", 1},
};

struct tally {
	size_t sets, secure, expired, not_yet, edges, bad_sig, bad_rdata, upper;
};

static void report(const char *what, const struct val_rrset *set,
		   const struct outcome *o)
{
	char name[DT_NAME_TEXT_MAXLEN + 16];

	diag("%s: %s -> %s %u [%s] %s", what,
	     val_rrset_name(set->owner, set->type, name, sizeof(name)),
	     val_status_name(o->v.status), o->v.ede, o->v.tag ? o->v.tag : "",
	     o->v.reason);
}

static void check_times(const struct val_rrset *set,
			const struct val_keyset *ks, int64_t expires,
			struct tally *t)
{
	int64_t inc = sig_inc(set->sigs[0]), exp = sig_exp(set->sigs[0]);
	struct outcome o;

	o = verify(set, ks, expires + SKEW + 1);
	if (is_bogus(&o, WIRE_EDE_SIGNATURE_EXPIRED, "sig-expired"))
		t->expired++;
	else
		report("after expiration", set, &o);
	o = verify(set, ks, inc - SKEW - 1);
	if (is_bogus(&o, WIRE_EDE_SIGNATURE_NOT_YET_VALID, "sig-not-yet-valid"))
		t->not_yet++;
	else
		report("before inception", set, &o);
	/* The edges of the window, skew included, are still valid. */
	struct outcome a = verify(set, ks, exp + SKEW);
	struct outcome b = verify(set, ks, inc - SKEW);
	if (is_secure(&a) && is_secure(&b) && a.info.ttl == 0)
		t->edges++;
	else
		report("window edges", set, is_secure(&a) ? &b : &a);
}

static void check_tampered(const struct val_rrset *set,
			   const struct val_keyset *ks, int64_t now,
			   struct tally *t)
{
	struct arena a;
	struct hset h;
	struct outcome o;

	arena_init(&a, 0);
	hset_copy(&h, set, &a);
	tamper_sigs(&h);
	o = verify(&h.set, ks, now);
	if (is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad"))
		t->bad_sig++;
	else
		report("signature bit flipped", set, &o);

	hset_copy(&h, set, &a);
	if (tamper_rdata(&h)) {
		o = verify(&h.set, ks, now);
		if (is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad"))
			t->bad_rdata++;
		else
			report("RDATA bit flipped", set, &o);
	}

	hset_copy(&h, set, &a);
	upper_owner(&h);
	o = verify(&h.set, ks, now);
	if (is_secure(&o))
		t->upper++;
	else
		report("owner uppercased", set, &o);
	arena_free(&a);
}

static void test_vector(const struct vector *vec)
{
	int64_t now, expires;
	struct val_keyset ks;
	struct tally t = {0};
	struct recs z;

	vec_times(vec->file, &now, &expires);
	if (recs_file(&z, vec->file) < 0 || !now) {
		ok(0, "%s: loaded", vec->file);
		recs_free(&z);
		return;
	}
	hand_keyset(&ks, &z);
	for (size_t i = 0; i < z.nsets; i++) {
		const struct val_rrset *set = &z.sets[i];
		if (!set->n || !set->nsigs)
			continue;
		t.sets++;
		struct outcome o = verify(set, &ks, now);
		if (is_secure(&o) && o.info.sig)
			t.secure++;
		else
			report("at VALIDATE-AT", set, &o);
		check_times(set, &ks, expires, &t);
		check_tampered(set, &ks, now, &t);
	}
	is_int(t.sets, vec->sets, "%s: %zu signed RRsets", vec->file,
	       vec->sets);
	is_int(t.secure, t.sets, "%s: all secure at VALIDATE-AT", vec->file);
	is_int(t.expired, t.sets,
	       "%s: all bogus, EDE 7, at EXPIRES-AT + skew + 1", vec->file);
	is_int(t.not_yet, t.sets,
	       "%s: all bogus, EDE 8, before inception - skew", vec->file);
	is_int(t.edges, t.sets,
	       "%s: all secure at expiration + skew (TTL 0) and inception - "
	       "skew",
	       vec->file);
	is_int(t.bad_sig, t.sets, "%s: all bogus with a signature bit flipped",
	       vec->file);
	ok(t.bad_rdata == t.sets,
	   "%s: all bogus with an RDATA bit flipped (%zu/%zu)", vec->file,
	   t.bad_rdata, t.sets);
	is_int(t.upper, t.sets, "%s: all secure with the owner uppercased",
	       vec->file);
	val_keyset_free(&ks);
	recs_free(&z);
}

/* RFC 8080's RRSIGs as printed do not verify: they are kept in the files
 * as ";BAD(RFC as printed) <record>" comment lines. */
static void test_rfc8080_printed(void)
{
	static const char *files[] = {
		F8080,
		"rfc8080-section6.1-ed25519-example2.zone",
		"rfc8080-section6.2-ed448-example1.zone",
		"rfc8080-section6.2-ed448-example2.zone",
	};

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		FILE *fp = fopen(vec_path(files[f]), "r");
		char line[1024], *bad = NULL;
		struct recs z, b;
		struct val_keyset ks;
		int64_t now, expires;

		while (fp && fgets(line, sizeof(line), fp)) {
			if ((bad = strstr(line, ";BAD(RFC as printed) ")))
				break;
		}
		if (fp)
			fclose(fp);
		vec_times(files[f], &now, &expires);
		if (!bad || recs_file(&z, files[f]) < 0 ||
		    recs_text(&b, bad + strlen(";BAD(RFC as printed) ")) < 0) {
			ok(0, "%s: printed RRSIG read", files[f]);
			continue;
		}
		hand_keyset(&ks, &z);
		struct hset h;
		hset_init(&h, find_set(&z, "example.com.", WIRE_TYPE_MX));
		h.rrs[h.set.n++] =
			find_set(&z, "example.com.", WIRE_TYPE_MX)->rrs[0];
		h.sigs[h.set.nsigs++] = &b.v.rr[0];
		struct outcome o = verify(&h.set, &ks, now);
		ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad"),
		   "%s: the RRSIG printed in RFC 8080 is bogus", files[f]);
		val_keyset_free(&ks);
		recs_free(&b);
		recs_free(&z);
	}
}

/* --- RFC 4035 B.6: wildcard expansion --- */

/* The records of one "; ===== RFC 4035 <id>" block of a response file. */
static int block_recs(struct recs *z, const char *file, const char *id)
{
	FILE *fp = fopen(vec_path(file), "r");
	char line[4096], *text = NULL;
	size_t len = 0;
	bool in = false;
	int r = -1;

	while (fp && fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "; =====", 7) == 0) {
			if (in)
				break;
			in = strstr(line, id) != NULL;
			continue;
		}
		if (!in)
			continue;
		text = realloc(text, len + strlen(line) + 1);
		if (!text)
			abort();
		memcpy(text + len, line, strlen(line) + 1);
		len += strlen(line);
	}
	if (fp)
		fclose(fp);
	if (text)
		r = recs_text(z, text);
	free(text);
	return r;
}

/* Renames the records and RRSIGs of h to a name of the same length. */
static void set_owner(struct hset *h, const char *name)
{
	const uint8_t *owner = dn(name);
	size_t len = wire_dname_len(owner);

	if (len != wire_dname_len(h->set.owner))
		abort();
	for (size_t i = 0; i < h->set.n; i++)
		memcpy((uint8_t *)h->rrs[i]->owner, owner, len);
	for (size_t i = 0; i < h->set.nsigs; i++)
		memcpy((uint8_t *)h->sigs[i]->owner, owner, len);
}

static void test_wildcard(void)
{
	struct recs zone, b6;
	struct val_keyset ks;
	int64_t now, expires;
	struct outcome o;

	vec_times(F4035, &now, &expires);
	if (recs_file(&zone, F4035) < 0 ||
	    block_recs(&b6, "rfc4035-appendix-B-responses.txt", "B.6.") < 0) {
		ok(0, "RFC 4035 B.6 read");
		return;
	}
	hand_keyset(&ks, &zone);
	const struct val_rrset *mx =
		find_set(&b6, "a.z.w.example.", WIRE_TYPE_MX);
	ok(mx && mx->n == 1 && mx->nsigs == 1, "B.6: a.z.w.example/MX found");
	if (!mx)
		goto out;
	o = verify(mx, &ks, now);
	ok(is_secure(&o), "B.6: wildcard expansion a.z.w.example/MX secure");
	ok(o.info.wildcard, "B.6: info.wildcard set (labels 2 < 4)");
	ok(wire_dname_equal(o.info.closest_encloser, dn("w.example.")),
	   "B.6: closest encloser w.example.");
	ok(o.info.sig == mx->sigs[0], "B.6: info.sig is the RRSIG");
	is_int(o.info.ttl, 3600, "B.6: TTL 3600");

	size_t secure = 0, signed_sets = 0;
	for (size_t i = 0; i < b6.nsets; i++) {
		if (!b6.sets[i].n || !b6.sets[i].nsigs)
			continue;
		signed_sets++;
		o = verify(&b6.sets[i], &ks, now);
		secure += is_secure(&o);
	}
	is_int(signed_sets, 5, "B.6: 5 signed RRsets in the response");
	is_int(secure, signed_sets, "B.6: all secure");

	/* Any name under w.example with that many labels expands the same
	 * wildcard; one under another parent does not. */
	struct arena a;
	struct hset h;
	arena_init(&a, 0);
	hset_copy(&h, mx, &a);
	set_owner(&h, "b.y.w.example.");
	o = verify(&h.set, &ks, now);
	ok(is_secure(&o) && o.info.wildcard,
	   "wildcard: b.y.w.example/MX from the same RRSIG is secure");
	set_owner(&h, "b.y.x.example.");
	o = verify(&h.set, &ks, now);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad"),
	   "wildcard: b.y.x.example/MX (source *.x.example) is bogus");

	/* The wildcard itself, asked for by name, is no expansion. */
	const struct val_rrset *w =
		find_set(&zone, "*.w.example.", WIRE_TYPE_MX);
	o = verify(w, &ks, now);
	ok(is_secure(&o) && !o.info.wildcard,
	   "*.w.example/MX itself: secure, not an expansion");
	arena_free(&a);
out:
	val_keyset_free(&ks);
	recs_free(&b6);
	recs_free(&zone);
}

/* --- failure paths, one by one, on the RFC 6605 P-256 example --- */

struct p256 {
	struct recs z;
	struct val_keyset ks;
	const struct val_rrset *a; /* www.example.net/A */
	const struct wire_rr *key; /* the DNSKEY */
	int64_t now;
	struct arena arena;
};

static bool p256_load(struct p256 *p)
{
	int64_t expires;

	vec_times(F6605, &p->now, &expires);
	if (recs_file(&p->z, F6605) < 0)
		return false;
	hand_keyset(&p->ks, &p->z);
	p->a = find_set(&p->z, "www.example.net.", WIRE_TYPE_A);
	p->key = find_set(&p->z, "example.net.", WIRE_TYPE_DNSKEY)->rrs[0];
	arena_init(&p->arena, 0);
	return p->a != NULL;
}

static void p256_free(struct p256 *p)
{
	val_keyset_free(&p->ks);
	recs_free(&p->z);
	arena_free(&p->arena);
}

static void test_reasons(struct p256 *p)
{
	struct val_keyset ks;
	struct outcome o;
	struct hset h;

	hset_init(&h, p->a);
	h.rrs[h.set.n++] = p->a->rrs[0];
	o = verify(&h.set, &p->ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_RRSIGS_MISSING, "sig-none"),
	   "no RRSIG: bogus EDE 10 [sig-none]");
	is_str(o.v.reason, "no RRSIG over www.example.net/A",
	       "no RRSIG: reason");
	is_int(o.crypto_used, 0, "no RRSIG: no verification charged");

	o = verify(p->a, &p->ks, sig_exp(p->a->sigs[0]) + SKEW + 1);
	is_str(o.v.reason,
	       "RRSIG over www.example.net/A by key 55648 (alg 13) expired "
	       "2010-09-09T10:04:39Z",
	       "expired: reason names RRset, key, algorithm and time");
	is_int(o.crypto_used, 0, "expired: no verification charged");
	o = verify(p->a, &p->ks, sig_inc(p->a->sigs[0]) - SKEW - 1);
	is_str(o.v.reason,
	       "RRSIG over www.example.net/A by key 55648 (alg 13) is not "
	       "valid before 2010-08-12T10:04:39Z",
	       "not yet valid: reason");

	keyset_of(&ks, "net.", p->key->rdata, p->key->rdlen, 1);
	o = verify(p->a, &ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_RRSIGS_MISSING, "sig-signer"),
	   "signer is not the key set's zone: EDE 10 [sig-signer]");
	is_str(o.v.reason,
	       "RRSIG over www.example.net/A: signer example.net. is not the "
	       "zone net.",
	       "signer: reason");
	val_keyset_free(&ks);

	keyset_of(&ks, "example.net.", p->key->rdata, p->key->rdlen, 0);
	o = verify(p->a, &ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_DNSKEY_MISSING, "sig-no-key"),
	   "no key with the tag: EDE 9 [sig-no-key]");
	is_str(o.v.reason,
	       "RRSIG over www.example.net/A by key 55648 (alg 13): zone "
	       "example.net. has no such DNSKEY",
	       "no key: reason");
	val_keyset_free(&ks);

	o = verify(p->a, &p->ks, p->now);
	ok(is_secure(&o) && o.crypto_used == 1,
	   "the untouched RRset: secure with one verification");
	is_str(o.v.tag, "secure", "secure: tag");
	is_str(o.v.reason, "", "secure: empty reason");

	struct val_keyset bogus_ks;
	struct val_verdict bv;
	val_verdict_set(&bv, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "test-ks",
			"keys are bogus");
	memset(&bogus_ks, 0, sizeof(bogus_ks));
	bogus_ks.verdict = bv;
	o = verify(p->a, &bogus_ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_DNSKEY_MISSING, "test-ks") &&
		   o.crypto_used == 0,
	   "a key set that is not secure: its verdict, nothing verified");
}

/* A copy of the A RRset's RRSIG with edit applied to its RDATA. */
static struct outcome with_edited_sig(struct p256 *p,
				      void (*edit)(uint8_t *rd, size_t len),
				      const struct val_keyset *ks)
{
	struct wire_rr sig = rr_copy(&p->arena, p->a->sigs[0]);
	struct hset h;

	edit(wr(&sig), sig.rdlen);
	hset_init(&h, p->a);
	h.rrs[h.set.n++] = p->a->rrs[0];
	hset_add_sig(&h, &p->arena, &sig);
	return verify(&h.set, ks ? ks : &p->ks, p->now);
}

static void edit_labels(uint8_t *rd, size_t len)
{
	(void)len;
	rd[3] = 4; /* www.example.net has 3 */
}

static void edit_alg(uint8_t *rd, size_t len)
{
	(void)len;
	rd[2] = 253;
}

static void edit_swap_times(uint8_t *rd, size_t len)
{
	uint8_t t[4];

	(void)len;
	memcpy(t, rd + 8, 4);
	memcpy(rd + 8, rd + 12, 4);
	memcpy(rd + 12, t, 4);
}

static void edit_covered(uint8_t *rd, size_t len)
{
	(void)len;
	wire_put16(rd, WIRE_TYPE_MX);
}

static uint16_t edit_tag_value;
static void edit_tag(uint8_t *rd, size_t len)
{
	(void)len;
	wire_put16(rd + 16, edit_tag_value);
}

static void edit_orig_ttl(uint8_t *rd, size_t len)
{
	(void)len;
	rd[7] ^= 1; /* signed data, so the signature fails */
}

/* A DNSKEY like the P-256 one with other flags, and an RRSIG whose key tag
 * names it: the flags are then the only obstacle. */
static struct outcome with_flags(struct p256 *p, uint16_t flags)
{
	uint8_t rd[256];
	struct val_keyset ks;

	memcpy(rd, p->key->rdata, p->key->rdlen);
	wire_put16(rd, flags);
	keyset_of(&ks, "example.net.", rd, p->key->rdlen, 1);
	edit_tag_value = wire_keytag(rd, p->key->rdlen);
	struct outcome o = with_edited_sig(p, edit_tag, &ks);
	val_keyset_free(&ks);
	return o;
}

static void test_fields(struct p256 *p)
{
	struct outcome o;

	o = with_edited_sig(p, edit_labels, NULL);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-labels"),
	   "labels above the owner's: EDE 6 [sig-labels]");
	is_str(o.v.reason,
	       "RRSIG over www.example.net/A by key 55648 (alg 13) has labels "
	       "4, more than the owner's 3",
	       "labels: reason");

	o = with_edited_sig(p, edit_alg, NULL);
	ok(is_bogus(&o, WIRE_EDE_DNSKEY_MISSING, "sig-no-key") &&
		   strstr(o.v.reason, "(alg 253, unsupported)"),
	   "RRSIG of an unsupported algorithm: EDE 9, says unsupported");

	o = with_edited_sig(p, edit_swap_times, NULL);
	ok(is_bogus(&o, WIRE_EDE_SIGNATURE_EXPIRED_BEFORE_VALID,
		    "sig-inverted"),
	   "inception after expiration: EDE 25 [sig-inverted]");
	is_str(o.v.reason,
	       "RRSIG over www.example.net/A by key 55648 (alg 13): inception "
	       "2010-09-09T10:04:39Z is after expiration 2010-08-12T10:04:39Z",
	       "inverted: reason");

	o = with_edited_sig(p, edit_covered, NULL);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-not-this-set"),
	   "RRSIG covering MX attached to the A RRset: [sig-not-this-set]");

	o = with_edited_sig(p, edit_orig_ttl, NULL);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad"),
	   "original TTL changed: signature fails");
	is_str(o.v.reason,
	       "signature over www.example.net/A by key 55648 (alg 13) does "
	       "not verify",
	       "bad signature: reason");

	o = with_flags(p, 0x0001);
	ok(is_bogus(&o, WIRE_EDE_NO_ZONE_KEY_BIT, "sig-key-not-zone"),
	   "key without the Zone Key flag: EDE 11 [sig-key-not-zone]");
	is_int(o.crypto_used, 0, "non-zone key: never used");
	o = with_flags(p, 0x0181);
	ok(is_bogus(&o, WIRE_EDE_DNSKEY_MISSING, "sig-key-revoked"),
	   "revoked key: EDE 9 [sig-key-revoked]");
	is_int(o.crypto_used, 0, "revoked key: never used");

	/* Malformed RDATA, class, signer case, owner outside the zone. */
	struct wire_rr sig = rr_copy(&p->arena, p->a->sigs[0]);
	struct hset h;
	hset_init(&h, p->a);
	h.rrs[h.set.n++] = p->a->rrs[0];
	sig.rdlen = 12;
	hset_add_sig(&h, &p->arena, &sig);
	o = verify(&h.set, &p->ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-malformed"),
	   "RRSIG RDATA cut short: [sig-malformed]");

	sig = rr_copy(&p->arena, p->a->sigs[0]);
	sig.rclass = WIRE_CLASS_CH;
	hset_init(&h, p->a);
	h.rrs[h.set.n++] = p->a->rrs[0];
	hset_add_sig(&h, &p->arena, &sig);
	o = verify(&h.set, &p->ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-class"),
	   "RRSIG of class CH over an IN RRset: [sig-class]");

	sig = sig_with_signer(&p->arena, p->a->sigs[0], dn("EXAMPLE.Net."));
	hset_init(&h, p->a);
	h.rrs[h.set.n++] = p->a->rrs[0];
	hset_add_sig(&h, &p->arena, &sig);
	o = verify(&h.set, &p->ks, p->now);
	ok(is_secure(&o), "signer name in uppercase: still secure");

	struct wire_rr rr = rr_copy(&p->arena, p->a->rrs[0]);
	rr.owner = arena_memdup(&p->arena, dn("www.example.org."), 18);
	sig = rr_copy(&p->arena, p->a->sigs[0]);
	sig.owner = rr.owner;
	hset_init(&h, p->a);
	h.set.owner = rr.owner;
	h.rrs[h.set.n++] = &rr;
	hset_add_sig(&h, &p->arena, &sig);
	o = verify(&h.set, &p->ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-outside-zone"),
	   "owner outside the signer's zone: [sig-outside-zone]");
}

/* A RRSIG-only set, too many records, the order of failures. */
static void test_set_checks(struct p256 *p)
{
	struct val_limits lim;
	struct outcome o;
	struct hset h;

	hset_init(&h, p->a);
	h.sigs[h.set.nsigs++] = p->a->sigs[0];
	o = verify(&h.set, &p->ks, p->now);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-no-data"),
	   "RRSIG without its RRset: [sig-no-data]");

	/* Records in another order, duplicated, with other TTLs and owner
	 * case: the same canonical RRset. */
	struct recs ns;
	if (recs_file(&ns, F4035) < 0)
		return;
	struct val_keyset ks;
	int64_t now, expires;
	vec_times(F4035, &now, &expires);
	hand_keyset(&ks, &ns);
	const struct val_rrset *set = find_set(&ns, "example.", WIRE_TYPE_NS);
	hset_init(&h, set);
	h.rrs[h.set.n++] = set->rrs[1];
	h.rrs[h.set.n++] = set->rrs[0];
	h.rrs[h.set.n++] = set->rrs[1];
	h.sigs[h.set.nsigs++] = set->sigs[0];
	o = verify(&h.set, &ks, now);
	ok(is_secure(&o), "NS RRset reversed with a duplicate: secure");

	val_limits_default(&lim);
	lim.rrs_per_rrset = 2;
	o = verify_lim(&h.set, &ks, now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-too-many-rrs") &&
		   strstr(o.v.reason, "3 records, over the limit of 2"),
	   "3 records over a limit of 2: [sig-too-many-rrs]");

	/* Records of the caller are not modified (canonical copies only). */
	struct arena a;
	arena_init(&a, 0);
	struct hset up;
	hset_copy(&up, set, &a);
	upper_owner(&up);
	for (size_t i = 0; i < up.set.n; i++)
		upper_name(wr(up.rrs[i]));
	uint8_t before[2][64];
	for (size_t i = 0; i < 2; i++)
		memcpy(before[i], up.rrs[i]->rdata, up.rrs[i]->rdlen);
	o = verify(&up.set, &ks, now);
	ok(is_secure(&o), "NS RRset with uppercase owner and RDATA names: "
			  "secure");
	ok(memcmp(before[0], up.rrs[0]->rdata, up.rrs[0]->rdlen) == 0 &&
		   memcmp(before[1], up.rrs[1]->rdata, up.rrs[1]->rdlen) == 0 &&
		   up.rrs[0]->owner[1] == 'E',
	   "the caller's records are left as they were");

	/* TTLs: min(RRset TTL, original TTL, time to expiration). */
	set = find_set(&ns, "example.", WIRE_TYPE_MX);
	hset_copy(&h, set, &a);
	h.set.ttl = 86400;
	o = verify(&h.set, &ks, now);
	ok(is_secure(&o) && o.info.ttl == 3600,
	   "TTL: RRset TTL 86400 clamped to original TTL 3600 (got %u)",
	   o.info.ttl);
	h.set.ttl = 60;
	o = verify(&h.set, &ks, now);
	ok(is_secure(&o) && o.info.ttl == 60, "TTL: RRset TTL 60 kept");
	o = verify(&h.set, &ks, (int64_t)sig_exp(set->sigs[0]) - 25);
	ok(is_secure(&o) && o.info.ttl == 25,
	   "TTL: 25 s before expiration, TTL 25 (got %u)", o.info.ttl);
	o = verify(&h.set, &ks, (int64_t)sig_exp(set->sigs[0]) + 10);
	ok(is_secure(&o) && o.info.ttl == 0,
	   "TTL: 10 s after expiration (within skew), TTL 0");
	lim.skew = 0;
	lim.rrs_per_rrset = 100;
	o = verify_lim(&h.set, &ks, (int64_t)sig_exp(set->sigs[0]) + 1, &lim);
	ok(is_bogus(&o, WIRE_EDE_SIGNATURE_EXPIRED, "sig-expired"),
	   "skew 0: one second after expiration is expired");
	o = verify_lim(&h.set, &ks, (int64_t)sig_exp(set->sigs[0]), &lim);
	ok(is_secure(&o), "skew 0: the expiration second itself is valid");

	/* The furthest failure is reported: an RRSIG by an unknown key
	 * beside an expired one by a known key says "expired". */
	struct wire_rr other = rr_copy(&a, set->sigs[0]);
	wire_put16(wr(&other) + 16, 1);
	for (int order = 0; order < 2; order++) {
		hset_copy(&h, set, &a);
		h.set.nsigs = 0;
		if (order == 0)
			hset_add_sig(&h, &a, &other);
		hset_add_sig(&h, &a, set->sigs[0]);
		if (order == 1)
			hset_add_sig(&h, &a, &other);
		o = verify(&h.set, &ks, sig_exp(set->sigs[0]) + SKEW + 1);
		ok(is_bogus(&o, WIRE_EDE_SIGNATURE_EXPIRED, "sig-expired"),
		   "unknown key + expired known key (%s first): EDE 7",
		   order ? "expired" : "unknown");
		o = verify(&h.set, &ks, now);
		ok(is_secure(&o), "unknown key + valid known key: secure");
	}
	arena_free(&a);
	val_keyset_free(&ks);
	recs_free(&ns);
}

/* --- limits: KeyTrap (CVE-2023-50387) and the RRSIG cap --- */

/* n RRSIGs like the A RRset's, bad ones with a distinct flipped bit each
 * (bad[i] false keeps RRSIG i valid). */
static void keytrap_set(struct p256 *p, struct hset *h, const bool *bad,
			size_t n)
{
	hset_init(h, p->a);
	h->rrs[h->set.n++] = p->a->rrs[0];
	for (size_t i = 0; i < n; i++) {
		struct wire_rr sig = rr_copy(&p->arena, p->a->sigs[0]);
		size_t off = sig_off(&sig);
		if (bad[i])
			wr(&sig)[off + i % (sig.rdlen - off)] ^=
				(uint8_t)(1u << (i % 8));
		hset_add_sig(h, &p->arena, &sig);
	}
}

static void test_keytrap(struct p256 *p)
{
	bool bad[20];
	struct val_keyset ks;
	struct val_limits lim;
	struct outcome o;
	struct hset h;

	/* 20 keys with one tag (the same key, 20 times) and 20 RRSIGs with
	 * that tag that all fail. */
	keyset_of(&ks, "example.net.", p->key->rdata, p->key->rdlen, 20);
	for (size_t i = 0; i < 20; i++)
		bad[i] = true;
	keytrap_set(p, &h, bad, 20);
	val_limits_default(&lim);
	lim.rrsigs_per_rrset = 20;
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-limit-rrset"),
	   "KeyTrap: 20 colliding keys x 20 bad RRSIGs: EDE 6 "
	   "[sig-limit-rrset]");
	is_int(o.crypto_used, DT_VAL_SIGS_PER_RRSET,
	       "KeyTrap: exactly sigs_per_rrset verifications");
	ok(strstr(o.v.reason, "per RRset"),
	   "KeyTrap: reason names the limit: "
	   "%s",
	   o.v.reason);

	lim.crypto_per_query = 5;
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-limit-query") &&
		   strstr(o.v.reason, "per question"),
	   "KeyTrap: question budget 5: EDE 6 [sig-limit-query]");
	is_int(o.crypto_used, 5, "KeyTrap: question budget never exceeded");

	/* A budget already spent by earlier RRsets of the question. */
	struct val_ctx ctx;
	struct val_verdict v;
	val_ctx_init(&ctx, p->now, NULL);
	ctx.crypto_used = ctx.lim.crypto_per_query;
	int r = val_rrset_verify(&ctx, p->a, &p->ks, NULL, &v);
	ok(r == 0 && v.status == VAL_BOGUS && !strcmp(v.tag, "sig-limit-query"),
	   "spent question budget: even a good RRset is not verified");
	is_int(ctx.crypto_used, ctx.lim.crypto_per_query,
	       "spent question budget: nothing more charged");

	/* Keys per tag: one bad RRSIG tries 4 of the 20 keys. */
	lim.crypto_per_query = 100;
	lim.sigs_per_rrset = 100;
	keytrap_set(p, &h, bad, 1);
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad") &&
		   o.crypto_used == DT_VAL_KEYS_PER_TAG &&
		   strstr(o.v.reason, "16 more keys with that tag not tried"),
	   "keys_per_tag: %u of 20 colliding keys tried: %s",
	   DT_VAL_KEYS_PER_TAG, o.v.reason);

	/* A good RRSIG after two bad ones: within the budget, secure; once
	 * the budget is gone, bogus. */
	bad[2] = false;
	keytrap_set(p, &h, bad, 3);
	val_limits_default(&lim);
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-limit-rrset") &&
		   o.crypto_used == 8,
	   "2 x 4 failed attempts use the RRset budget of 8: good RRSIG "
	   "not reached");
	lim.sigs_per_rrset = 9;
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_secure(&o) && o.crypto_used == 9,
	   "with a budget of 9 the good RRSIG verifies (9 charged)");

	/* RRSIGs beyond rrsigs_per_rrset are not looked at. */
	lim.rrsigs_per_rrset = 2;
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad") &&
		   strstr(o.v.reason, "1 more RRSIGs not examined (limit 2)"),
	   "rrsigs_per_rrset 2: the third RRSIG is not examined: %s",
	   o.v.reason);
	lim.rrsigs_per_rrset = 0;
	o = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_RRSIGS_MISSING, "sig-none-examined") &&
		   o.crypto_used == 0,
	   "rrsigs_per_rrset 0: nothing examined");
	val_keyset_free(&ks);
}

/* --- the cache of verifications (sigcache.c) --- */

/* Cryptographic operations c made (misses) and spared (hits) since the
 * last call. */
struct cstat {
	uint64_t hits, misses;
};

static struct cstat cache_delta(const struct val_sigcache *c,
				struct val_sigcache_stats *last)
{
	struct val_sigcache_stats now;
	struct cstat d;

	val_sigcache_stats(c, &now);
	d.hits = now.hits - last->hits;
	d.misses = now.misses - last->misses;
	*last = now;
	return d;
}

/* The RRset through the cache at verdict level: repeated, tampered,
 * renamed, out of time. */
static void test_cache_rrset(struct p256 *p, struct val_sigcache *c)
{
	struct val_sigcache_stats last = {0, 0};
	struct outcome o;
	struct cstat d;
	struct hset h;

	o = verify_in(c, p->a, &p->ks, p->now, NULL);
	d = cache_delta(c, &last);
	ok(is_secure(&o) && o.crypto_used == 1 && d.misses == 1 && d.hits == 0,
	   "cache: first verification made (1 miss, 0 hits)");
	o = verify_in(c, p->a, &p->ks, p->now, NULL);
	d = cache_delta(c, &last);
	ok(is_secure(&o) && d.misses == 0 && d.hits == 1,
	   "cache: the same RRSIG, RRset and key again: secure, no crypto "
	   "(0 misses, 1 hit)");
	is_int(o.crypto_used, 1, "cache: a hit is charged to the budget");

	hset_copy(&h, p->a, &p->arena);
	tamper_sigs(&h);
	for (int i = 0; i < 2; i++) {
		o = verify_in(c, &h.set, &p->ks, p->now, NULL);
		d = cache_delta(c, &last);
		ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad") &&
			   d.misses == 1 && d.hits == 0,
		   "cache: one bit of the signature flipped: bogus, verified "
		   "(%s time; failures are not kept)",
		   i ? "second" : "first");
	}

	hset_copy(&h, p->a, &p->arena);
	ok(tamper_rdata(&h), "cache: a bit of the A record flipped");
	o = verify_in(c, &h.set, &p->ks, p->now, NULL);
	d = cache_delta(c, &last);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad") && d.misses == 1 &&
		   d.hits == 0,
	   "cache: changed RRset, same RRSIG: bogus, no hit");

	/* Other fields of the RRSIG are signed data too: the original TTL. */
	struct wire_rr sig = rr_copy(&p->arena, p->a->sigs[0]);
	edit_orig_ttl(wr(&sig), sig.rdlen);
	hset_init(&h, p->a);
	h.rrs[h.set.n++] = p->a->rrs[0];
	hset_add_sig(&h, &p->arena, &sig);
	o = verify_in(c, &h.set, &p->ks, p->now, NULL);
	d = cache_delta(c, &last);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-bad") && d.hits == 0,
	   "cache: original TTL changed in the RRSIG: bogus, no hit");

	/* Canonical form: the owner's case does not change the signed
	 * data, so the upper-cased copy is the same verification. */
	hset_copy(&h, p->a, &p->arena);
	upper_owner(&h);
	o = verify_in(c, &h.set, &p->ks, p->now, NULL);
	d = cache_delta(c, &last);
	ok(is_secure(&o) && d.hits == 1 && d.misses == 0,
	   "cache: WWW.EXAMPLE.NET/A (canonical data unchanged): a hit");

	/* Time is checked before the cache is asked. */
	o = verify_in(c, p->a, &p->ks, sig_exp(p->a->sigs[0]) + SKEW + 1,
		      NULL);
	d = cache_delta(c, &last);
	ok(is_bogus(&o, WIRE_EDE_SIGNATURE_EXPIRED, "sig-expired") &&
		   d.hits == 0 && d.misses == 0 && o.crypto_used == 0,
	   "cache: a cached signature past its expiration: expired, the "
	   "cache not asked");
	o = verify_in(c, p->a, &p->ks, sig_inc(p->a->sigs[0]) - SKEW - 1,
		      NULL);
	ok(is_bogus(&o, WIRE_EDE_SIGNATURE_NOT_YET_VALID, "sig-not-yet-valid"),
	   "cache: a cached signature before its inception: not yet valid");
}

/* The signed data of the A RRset (RFC 4034 §3.1.8.1) in two chunks. */
static bool a_signed_data(struct p256 *p, uint8_t *buf, size_t cap,
			  struct crypto_chunk chunks[2])
{
	const struct wire_rr *sig = p->a->sigs[0];
	int r = wire_rr_canon_write(p->a->rrs[0], NULL,
				    wire_get32(sig->rdata + 4), buf, cap);

	chunks[0] = (struct crypto_chunk){sig->rdata, sig_off(sig)};
	chunks[1] = (struct crypto_chunk){buf, r > 0 ? (size_t)r : 0};
	return r > 0 && p->a->n == 1;
}

/* The cache's own interface: the key is part of what is remembered. */
static void test_cache_key(struct p256 *p, struct val_sigcache *c)
{
	struct val_sigcache_stats last;
	struct crypto_chunk chunks[2];
	struct crypto_key *other = NULL, *p384 = NULL;
	const struct wire_rr *sig = p->a->sigs[0];
	const uint8_t *sigb = sig->rdata + sig_off(sig);
	size_t siglen = sig->rdlen - sig_off(sig);
	uint8_t buf[512], rd[512];
	struct cstat d;
	struct recs z;

	val_sigcache_stats(c, &last);
	if (!a_signed_data(p, buf, sizeof(buf), chunks) ||
	    p->key->rdlen > sizeof(rd)) {
		ok(0, "cache: the A RRset's signed data made");
		return;
	}
	ok(val_sigcache_verify(c, p->ks.keys[0], chunks, 2, sigb, siglen) ==
			   0 &&
		   cache_delta(c, &last).hits == 1,
	   "cache interface: the A RRset's verification is a hit");

	/* The same public key with other flags (REVOKE set): the
	 * cryptography says yes, but it is another DNSKEY RDATA, so it is
	 * verified, not found. */
	memcpy(rd, p->key->rdata, p->key->rdlen);
	rd[1] |= 0x80;
	ok(crypto_key_new(rd, p->key->rdlen, &other) == 0,
	   "cache interface: the key with REVOKE set parsed");
	if (other) {
		int r = val_sigcache_verify(c, other, chunks, 2, sigb, siglen);
		d = cache_delta(c, &last);
		ok(r == 0 && d.misses == 1 && d.hits == 0,
		   "cache interface: same public key, other DNSKEY RDATA: "
		   "verified (miss), valid");
	}
	crypto_key_free(other);

	/* Another key altogether (RFC 6605's P-384 key). */
	if (recs_file(&z, "rfc6605-section6.2-ecdsap384sha384.zone") == 0) {
		for (size_t i = 0; i < z.v.n && !p384; i++)
			if (z.v.rr[i].type == WIRE_TYPE_DNSKEY &&
			    crypto_key_new(z.v.rr[i].rdata, z.v.rr[i].rdlen,
					   &p384) < 0)
				p384 = NULL;
		recs_free(&z);
	}
	ok(p384, "cache interface: the P-384 key parsed");
	if (p384) {
		int r = val_sigcache_verify(c, p384, chunks, 2, sigb, siglen);
		d = cache_delta(c, &last);
		ok(r == DT_EBADSIG && d.misses == 1 && d.hits == 0,
		   "cache interface: another key over the same data and "
		   "signature: verified and bad");
	}
	crypto_key_free(p384);

	/* Where the signed data is cut into chunks does not matter (it is
	 * one message), but a different message never hits. */
	struct crypto_chunk one[2] = {
		{chunks[0].data, chunks[0].len - 1},
		{NULL, 0},
	};
	int r = val_sigcache_verify(c, p->ks.keys[0], one, 1, sigb, siglen);
	d = cache_delta(c, &last);
	ok(r == DT_EBADSIG && d.hits == 0,
	   "cache interface: signed data one octet short: bad, no hit");
	ok(val_sigcache_verify(NULL, p->ks.keys[0], chunks, 2, sigb, siglen) ==
		   0,
	   "cache interface: no cache is plain crypto_verifyv()");
	val_sigcache_stats(NULL, &last);
	ok(last.hits == 0 && last.misses == 0,
	   "cache interface: no cache, no counters");
}

/* The limits bound the same work with the cache as without. */
static void test_cache_limits(struct p256 *p, struct val_sigcache *c)
{
	struct val_sigcache_stats last;
	struct val_keyset ks;
	struct val_limits lim;
	struct outcome o, plain;
	bool bad[20];
	struct hset h;

	keyset_of(&ks, "example.net.", p->key->rdata, p->key->rdlen, 20);
	for (size_t i = 0; i < 20; i++)
		bad[i] = true;
	keytrap_set(p, &h, bad, 20);
	val_limits_default(&lim);
	lim.rrsigs_per_rrset = 20;
	val_sigcache_stats(c, &last);
	for (int i = 0; i < 2; i++) {
		o = verify_in(c, &h.set, &ks, p->now, &lim);
		struct cstat d = cache_delta(c, &last);
		ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-limit-rrset") &&
			   o.crypto_used == DT_VAL_SIGS_PER_RRSET &&
			   d.misses == DT_VAL_SIGS_PER_RRSET && d.hits == 0,
		   "cache: KeyTrap %s: %u verifications made, none kept",
		   i ? "again" : "once", DT_VAL_SIGS_PER_RRSET);
	}

	/* Two bad RRSIGs then the good one (cached by now): the RRset
	 * budget of 8 is spent before it, as without a cache; 9 reach it,
	 * the hit charged as the ninth. */
	bad[2] = false;
	keytrap_set(p, &h, bad, 3);
	val_limits_default(&lim);
	o = verify_in(c, &h.set, &ks, p->now, &lim);
	plain = verify_lim(&h.set, &ks, p->now, &lim);
	ok(is_bogus(&o, WIRE_EDE_DNSSEC_BOGUS, "sig-limit-rrset") &&
		   o.crypto_used == 8 && plain.crypto_used == 8 &&
		   !strcmp(o.v.reason, plain.v.reason),
	   "cache: a cached good RRSIG behind 8 failures: the same limit "
	   "verdict as without the cache");
	lim.sigs_per_rrset = 9;
	val_sigcache_stats(c, &last);
	o = verify_in(c, &h.set, &ks, p->now, &lim);
	struct cstat d = cache_delta(c, &last);
	ok(is_secure(&o) && o.crypto_used == 9 && d.hits == 1 && d.misses == 8,
	   "cache: budget 9: secure, 9 charged (8 made, 1 hit)");
	val_keyset_free(&ks);

	struct val_ctx ctx;
	struct val_verdict v;
	val_ctx_init(&ctx, p->now, NULL);
	ctx.sigcache = c;
	ctx.crypto_used = ctx.lim.crypto_per_query;
	int r = val_rrset_verify(&ctx, p->a, &p->ks, NULL, &v);
	ok(r == 0 && v.status == VAL_BOGUS && !strcmp(v.tag, "sig-limit-query"),
	   "cache: spent question budget: a cached RRset is not verified "
	   "either");
	struct val_work w;
	val_work_init(&w);
	val_ctx_init(&ctx, p->now, NULL);
	ctx.sigcache = c;
	ctx.work = &w;
	w.crypto = w.crypto_max;
	r = val_rrset_verify(&ctx, p->a, &p->ks, NULL, &v);
	ok(r == 0 && v.status == VAL_BOGUS &&
		   !strcmp(v.tag, "sig-limit-answer"),
	   "cache: spent answer budget: bogus [sig-limit-answer]");
}

/* A key with p's public key and the given flags (its own DNSKEY RDATA,
 * so its own entries), or NULL. */
static struct crypto_key *key_with_flags(struct p256 *p, uint16_t flags)
{
	struct crypto_key *k = NULL;
	uint8_t rd[512];

	if (p->key->rdlen > sizeof(rd))
		return NULL;
	memcpy(rd, p->key->rdata, p->key->rdlen);
	wire_put16(rd, flags);
	return crypto_key_new(rd, p->key->rdlen, &k) == 0 ? k : NULL;
}

/* Failures take no room; successes past the table's size push older
 * entries out (bounded memory), which are then verified again. */
static void test_cache_evict(struct p256 *p, struct val_sigcache *c)
{
	size_t n = DT_VAL_SIGCACHE_SETS * DT_VAL_SIGCACHE_WAYS * 4, i;
	struct val_sigcache_stats last;
	struct crypto_chunk chunks[2];
	const struct wire_rr *sig = p->a->sigs[0];
	const uint8_t *sigb = sig->rdata + sig_off(sig);
	size_t siglen = sig->rdlen - sig_off(sig);
	uint8_t buf[512];
	struct cstat d;
	int r = 0;

	if (!a_signed_data(p, buf, sizeof(buf), chunks)) {
		ok(0, "cache: the A RRset's signed data made");
		return;
	}
	val_sigcache_stats(c, &last);
	for (i = 0; i < n; i++) {
		uint64_t extra = i;
		struct crypto_chunk ch[2] = {chunks[0], {&extra, sizeof(extra)}};
		if (val_sigcache_verify(c, p->ks.keys[0], ch, 2, sigb,
					siglen) != DT_EBADSIG)
			break;
	}
	d = cache_delta(c, &last);
	ok(d.misses == n && d.hits == 0,
	   "cache: %zu bad verifications all made, none found", n);
	ok(val_sigcache_verify(c, p->ks.keys[0], chunks, 2, sigb, siglen) == 0 &&
		   cache_delta(c, &last).hits == 1,
	   "cache: failures take no room: the good entry is still there");

	/* Good verifications of other entries: the same public key under
	 * other flags (another DNSKEY RDATA each), a table's worth at a
	 * time, until the A RRset's entry is pushed out (each look that
	 * finds it makes it the newest of its set again). */
	size_t batch = DT_VAL_SIGCACHE_SETS * DT_VAL_SIGCACHE_WAYS;
	for (i = 0; i < n && r == 0; i++) {
		struct crypto_key *k = key_with_flags(p, (uint16_t)(0x0100 + i));
		r = k ? val_sigcache_verify(c, k, chunks, 2, sigb, siglen) : -1;
		crypto_key_free(k);
		if (r == 0 && i % batch == batch - 1) {
			val_sigcache_stats(c, &last);
			r = val_sigcache_verify(c, p->ks.keys[0], chunks, 2,
						sigb, siglen);
			if (r == 0 && cache_delta(c, &last).misses == 1)
				break;
		}
	}
	ok(r == 0 && i < n,
	   "cache: after %zu other good entries the first was pushed out, "
	   "and verified again: valid",
	   i + 1);
	r = val_sigcache_verify(c, p->ks.keys[0], chunks, 2, sigb, siglen);
	ok(r == 0 && cache_delta(c, &last).hits == 1,
	   "cache: verified again, it is kept again");
}

static void test_cache(struct p256 *p)
{
	struct val_sigcache *c = val_sigcache_new();

	ok(c, "cache: made");
	if (!c)
		return;
	test_cache_rrset(p, c);
	test_cache_key(p, c);
	test_cache_limits(p, c);
	test_cache_evict(p, c);
	val_sigcache_free(c);
}

/* --- helpers for reasons --- */

static void test_format(void)
{
	char buf[DT_NAME_TEXT_MAXLEN + 16], small[5];

	is_str(val_rrset_name(dn("www.example.com."), WIRE_TYPE_A, buf,
			      sizeof(buf)),
	       "www.example.com/A", "rrset name: no trailing dot");
	is_str(val_rrset_name(dn("."), WIRE_TYPE_DNSKEY, buf, sizeof(buf)),
	       "./DNSKEY", "rrset name: root");
	is_str(val_rrset_name(dn("a\\.b.example."), 65280, buf, sizeof(buf)),
	       "a\\.b.example/TYPE65280", "rrset name: escapes, unknown type");
	is_str(val_rrset_name(dn("www.example.com."), WIRE_TYPE_A, small,
			      sizeof(small)),
	       "www.", "rrset name: cut to the buffer");

	is_int(val_time_abs(1084127779u, 1082419200), 1084127779,
	       "time: later in the same era");
	is_int(val_time_abs(0x10, 0x100000005LL), 0x100000010LL,
	       "time: after the 2106 wrap, small values are ahead");
	is_int(val_time_abs(0xFFFFFFF0u, 0x100000005LL), 0xFFFFFFF0LL,
	       "time: after the 2106 wrap, large values are behind");
	is_int(val_time_abs(0x80000000u, 0), -0x80000000LL,
	       "time: exactly 2^31 away counts as the past");
	is_int(val_time_abs(0x7FFFFFFFu, 0), 0x7FFFFFFFLL,
	       "time: 2^31 - 1 ahead is the future");
	is_str(val_time_str(1084127779u, 1082419200, buf, 24),
	       "2004-05-09T18:36:19Z", "time string: RFC 4035 expiration");
	is_str(val_time_str(5, 0x100000000LL + 10, buf, 24),
	       "2106-02-07T06:28:21Z", "time string: after the 2106 wrap");
}

int main(void)
{
	struct p256 p;

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		test_vector(&vectors[i]);
	test_rfc8080_printed();
	test_wildcard();
	if (p256_load(&p)) {
		test_reasons(&p);
		test_fields(&p);
		test_set_checks(&p);
		test_keytrap(&p);
		test_cache(&p);
		p256_free(&p);
	} else {
		ok(0, "RFC 6605 P-256 example loaded");
	}
	test_format();
	return done_testing();
}
