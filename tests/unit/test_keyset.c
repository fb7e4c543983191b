/* SPDX-License-Identifier: MIT */
/*
 * Key sets (src/validator/keyset.c): a DNSKEY RRset authenticated from DS
 * records (RFC 4035 §5.2, RFC 4509 §3, RFC 6840 §5.2) or from DNSKEY trust
 * anchors.
 *
 * The RFC 6605 and RFC 8080 files hold a DNSKEY and its DS but no RRSIG
 * over the DNSKEY RRset; those are made here with the RFCs' private keys
 * (OpenSSL signs; the canonical form comes from src/wire). The RFC 4035
 * App. A zone has a signed DNSKEY RRset (KSK 9465, ZSK 38519, alg 5) and no
 * DS; its DS records are computed here with crypto_ds_digest().
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/alg.h"
#include "crypto/ds.h"
#include "crypto/key.h"
#include "validator/keyset.h"
#include "validator/sig.h"
#include "wire/base.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

#include "tap.h"
#include "vectors.h"

#define F4035 "rfc4035-appendix-A-signed-zone.zone"
#define F6605 "rfc6605-section6.1-ecdsap256sha256.zone"

/* A window around T0 for the signatures made here. */
#define T0    1282262400 /* 2010-08-20, inside RFC 6605's own window */
#define T_INC (T0 - 86400)
#define T_EXP (T0 + 86400)

/* --- records of the vector files (vectors.h), owned by an arena --- */

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
	c.rdata = memcpy(xalloc(a, rr->rdlen), rr->rdata, rr->rdlen);
	return c;
}

/* Appends the records of text (absolute names) to z. */
static void recs_text(struct vec_recs *z, const char *text)
{
	if (vec_recs_text(z, text) < 0)
		abort();
}

static const uint8_t *dn(const char *s)
{
	static wire_dname_storage_t buf[8];
	static unsigned next;
	uint8_t *out = buf[next++ % 8];

	if (wire_dname_from_str(s, strlen(s), NULL, out) < 0)
		abort();
	return out;
}

/* The idx-th record of the type in z, or NULL. */
static const struct wire_rr *nth(const struct vec_recs *z, uint16_t type,
				 size_t idx)
{
	for (size_t i = 0; i < z->n; i++) {
		if (z->rr[i].type == type && idx-- == 0)
			return &z->rr[i];
	}
	return NULL;
}

/* The first record of type in z whose RDATA starts with key tag tag
 * (DS, RRSIG: at offset 16) or has key tag tag (DNSKEY). */
static const struct wire_rr *by_tag(const struct vec_recs *z, uint16_t type,
				    uint16_t tag)
{
	for (size_t i = 0; i < z->n; i++) {
		const struct wire_rr *rr = &z->rr[i];
		uint16_t t;
		if (rr->type != type)
			continue;
		if (type == WIRE_TYPE_DNSKEY)
			t = wire_keytag(rr->rdata, rr->rdlen);
		else if (type == WIRE_TYPE_RRSIG)
			t = (uint16_t)(rr->rdata[16] << 8 | rr->rdata[17]);
		else
			t = (uint16_t)(rr->rdata[0] << 8 | rr->rdata[1]);
		if (t == tag)
			return rr;
	}
	return NULL;
}

/* --- a DNSKEY RRset with chosen RRSIGs --- */

struct kset {
	struct val_rrset set;
	const struct wire_rr *rrs[32];
	const struct wire_rr *sigs[32];
};

static void kset_init(struct kset *k, const uint8_t *owner)
{
	memset(k, 0, sizeof(*k));
	k->set.owner = owner;
	k->set.type = WIRE_TYPE_DNSKEY;
	k->set.rclass = WIRE_CLASS_IN;
	k->set.ttl = UINT32_MAX;
	k->set.rrs = k->rrs;
	k->set.sigs = k->sigs;
}

static void kset_add(struct kset *k, const struct wire_rr *rr)
{
	if (rr->type == WIRE_TYPE_RRSIG) {
		k->sigs[k->set.nsigs++] = rr;
		return;
	}
	k->rrs[k->set.n++] = rr;
	if (rr->ttl < k->set.ttl)
		k->set.ttl = rr->ttl;
}

/* Every DNSKEY of z, and the RRSIGs over them except those in skip. */
static void kset_from(struct kset *k, const struct vec_recs *z, uint16_t skip)
{
	kset_init(k, nth(z, WIRE_TYPE_DNSKEY, 0)->owner);
	for (size_t i = 0; i < z->n; i++) {
		const struct wire_rr *rr = &z->rr[i];
		if (rr->type == WIRE_TYPE_DNSKEY)
			kset_add(k, rr);
		else if (rr->type == WIRE_TYPE_RRSIG && rr->rdata[0] == 0 &&
			 rr->rdata[1] == WIRE_TYPE_DNSKEY &&
			 by_tag(z, WIRE_TYPE_RRSIG, skip) != rr)
			kset_add(k, rr);
	}
}

/* --- signing with the RFCs' private keys --- */

struct signer {
	EVP_PKEY *pk;
	uint8_t alg;
	uint16_t tag;
	const uint8_t *zone;
};

/* "PrivateKey: <base64>" from a vector file's comments. */
static int private_key(const char *file, uint8_t *out, size_t outcap)
{
	FILE *f = fopen(vec_path(file), "r");
	char line[512];
	int r = -1;

	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "PrivateKey:");
		if (!p)
			continue;
		p += strlen("PrivateKey:");
		while (*p == ' ')
			p++;
		r = wire_b64_decode(p, strcspn(p, " \r\n"), out, outcap);
		break;
	}
	if (f)
		fclose(f);
	return r;
}

static EVP_PKEY *ec_keypair(const char *group, const uint8_t *priv, size_t plen,
			    const uint8_t *pub, size_t publen)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	BIGNUM *d = BN_bin2bn(priv, (int)plen, NULL);
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pk = NULL;
	uint8_t point[97];

	point[0] = 0x04;
	memcpy(point + 1, pub, publen);
	if (bld && d &&
	    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
					    group, 0) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
					     point, publen + 1))
		params = OSSL_PARAM_BLD_to_param(bld);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &pk, EVP_PKEY_KEYPAIR, params) != 1)
		pk = NULL;
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	BN_free(d);
	return pk;
}

/* The signer for the DNSKEY dnskey whose private key is in file. */
static bool signer_load(struct signer *s, const char *file,
			const struct wire_rr *dnskey)
{
	uint8_t priv[64];
	int len = private_key(file, priv, sizeof(priv));

	s->alg = dnskey->rdata[3];
	s->tag = wire_keytag(dnskey->rdata, dnskey->rdlen);
	s->zone = dnskey->owner;
	s->pk = NULL;
	if (len <= 0)
		return false;
	if (s->alg == CRYPTO_ALG_ECDSAP256SHA256 ||
	    s->alg == CRYPTO_ALG_ECDSAP384SHA384)
		s->pk = ec_keypair(s->alg == 13 ? "P-256" : "P-384", priv,
				   (size_t)len, dnskey->rdata + 4,
				   dnskey->rdlen - 4u);
	else
		s->pk = EVP_PKEY_new_raw_private_key(
			s->alg == CRYPTO_ALG_ED25519 ? EVP_PKEY_ED25519
						     : EVP_PKEY_ED448,
			NULL, priv, (size_t)len);
	return s->pk != NULL;
}

/* Signs msg; writes the DNSSEC form (r | s, or the EdDSA signature). */
static int sign(const struct signer *s, const uint8_t *msg, size_t len,
		uint8_t *out)
{
	bool ec = s->alg == 13 || s->alg == 14;
	size_t half = s->alg == 13 ? 32 : 48, outlen = 256;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t der[256];
	const unsigned char *p = der;
	const BIGNUM *r, *sv;
	ECDSA_SIG *es = NULL;
	int ret = -1;

	if (!ctx ||
	    EVP_DigestSignInit_ex(
		    ctx, NULL, ec ? (s->alg == 13 ? "SHA256" : "SHA384") : NULL,
		    NULL, NULL, s->pk, NULL) != 1)
		goto out;
	if (!ec) {
		if (EVP_DigestSign(ctx, out, &outlen, msg, len) == 1)
			ret = (int)outlen;
		goto out;
	}
	outlen = sizeof(der);
	if (EVP_DigestSign(ctx, der, &outlen, msg, len) == 1)
		es = d2i_ECDSA_SIG(NULL, &p, (long)outlen);
	if (es) {
		ECDSA_SIG_get0(es, &r, &sv);
		if (BN_bn2binpad(r, out, (int)half) == (int)half &&
		    BN_bn2binpad(sv, out + half, (int)half) == (int)half)
			ret = (int)(2 * half);
	}
out:
	ECDSA_SIG_free(es);
	EVP_MD_CTX_free(ctx);
	return ret;
}

static uint8_t *put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return p + 2;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	return put16(put16(p, (uint16_t)(v >> 16)), (uint16_t)v);
}

/* An RRSIG by s over the DNSKEY records of k (RFC 4034 §3.1.8.1). */
static struct wire_rr make_rrsig(struct arena *a, const struct signer *s,
				 const struct kset *k, uint32_t orig_ttl,
				 uint32_t inc, uint32_t exp)
{
	size_t zlen = wire_dname_len(s->zone), cap = 18 + zlen, len;
	struct wire_rr canon[32], rr;
	uint8_t *buf, *p;

	for (size_t i = 0; i < k->set.n; i++) {
		canon[i] = *k->rrs[i];
		cap += wire_dname_len(k->set.owner) + 10 + canon[i].rdlen;
	}
	size_t n = wire_rrset_canon_sort(canon, k->set.n);
	buf = xalloc(a, cap + 128);
	p = put16(buf, WIRE_TYPE_DNSKEY);
	*p++ = s->alg;
	*p++ = (uint8_t)wire_dname_labels(k->set.owner);
	p = put32(put32(put32(p, orig_ttl), exp), inc);
	p = put16(p, s->tag);
	memcpy(p, s->zone, zlen);
	wire_dname_tolower(p);
	len = 18 + zlen;
	uint8_t *data = xalloc(a, cap);
	memcpy(data, buf, len);
	for (size_t i = 0; i < n; i++) {
		int w = wire_rr_canon_write(&canon[i], NULL, orig_ttl,
					    data + len, cap - len);
		if (w < 0)
			abort();
		len += (size_t)w;
	}
	int slen = sign(s, data, len, buf + 18 + zlen);
	if (slen < 0)
		abort();
	rr = (struct wire_rr){.owner = k->set.owner,
			      .type = WIRE_TYPE_RRSIG,
			      .rclass = WIRE_CLASS_IN,
			      .ttl = orig_ttl,
			      .rdlen = (uint16_t)(18 + zlen + (size_t)slen),
			      .rdata = buf};
	return rr;
}

static void kset_sign(struct kset *k, struct arena *a, const struct signer *s)
{
	struct wire_rr *sig = xalloc(a, sizeof(*sig));

	*sig = make_rrsig(a, s, k, 3600, T_INC, T_EXP);
	kset_add(k, sig);
}

/* --- DS records --- */

/* A DS for dnskey with the given digest type, computed (or, with
 * wrong, with one bit of the digest flipped). */
static struct wire_rr make_ds(struct arena *a, const struct wire_rr *dnskey,
			      uint8_t type, bool wrong)
{
	uint8_t *rd = xalloc(a, 4 + DT_DS_DIGEST_MAXLEN);
	int len = crypto_ds_digest(dnskey->owner, dnskey->rdata, dnskey->rdlen,
				   type, rd + 4, DT_DS_DIGEST_MAXLEN);

	if (len < 0) { /* unsupported type: any 32 octets */
		memset(rd + 4, 0x5a, 32);
		len = 32;
	}
	put16(rd, wire_keytag(dnskey->rdata, dnskey->rdlen));
	rd[2] = dnskey->rdata[3];
	rd[3] = type;
	if (wrong)
		rd[4 + len / 2] ^= 0x01;
	return (struct wire_rr){.owner = dnskey->owner,
				.type = WIRE_TYPE_DS,
				.rclass = WIRE_CLASS_IN,
				.ttl = 3600,
				.rdlen = (uint16_t)(4 + len),
				.rdata = rd};
}

/* --- running --- */

struct result {
	int ret;
	struct val_keyset ks;
	unsigned crypto_used;
};

static struct result from_ds_lim(const struct val_rrset *dnskeys,
				 const struct wire_rr *ds, size_t nds,
				 uint32_t ds_ttl, int64_t now,
				 const struct val_limits *lim)
{
	const struct wire_rr *ptrs[16];
	struct result res;
	struct val_ctx ctx;

	for (size_t i = 0; i < nds; i++)
		ptrs[i] = &ds[i];
	memset(&res, 0, sizeof(res));
	val_ctx_init(&ctx, now, lim);
	res.ret = val_keyset_from_ds(&ctx, dnskeys ? dnskeys->owner : dn("."),
				     dnskeys, ptrs, nds, ds_ttl, &res.ks);
	res.crypto_used = ctx.crypto_used;
	return res;
}

static struct result from_ds(const struct val_rrset *dnskeys,
			     const struct wire_rr *ds, size_t nds,
			     uint32_t ds_ttl, int64_t now)
{
	return from_ds_lim(dnskeys, ds, nds, ds_ttl, now, NULL);
}

static struct result from_anchor(const struct val_rrset *dnskeys,
				 const struct wire_rr *const *anchors, size_t n,
				 int64_t now)
{
	struct result res;
	struct val_ctx ctx;

	memset(&res, 0, sizeof(res));
	val_ctx_init(&ctx, now, NULL);
	res.ret = val_keyset_from_dnskey_anchor(&ctx, dnskeys->owner, dnskeys,
						anchors, n, &res.ks);
	res.crypto_used = ctx.crypto_used;
	return res;
}

static bool secure(const struct result *r, size_t nkeys)
{
	if (r->ret == 0 && r->ks.verdict.status == VAL_SECURE &&
	    r->ks.nkeys == nkeys)
		return true;
	diag("got %s %u [%s] %s, %zu keys",
	     val_status_name(r->ks.verdict.status), r->ks.verdict.ede,
	     r->ks.verdict.tag ? r->ks.verdict.tag : "", r->ks.verdict.reason,
	     r->ks.nkeys);
	return false;
}

static bool outcome(const struct result *r, enum val_status st, uint16_t ede,
		    const char *tag)
{
	const struct val_verdict *v = &r->ks.verdict;

	if (r->ret == 0 && v->status == st && v->ede == ede && v->tag &&
	    strcmp(v->tag, tag) == 0 && r->ks.nkeys == 0)
		return true;
	diag("got %s %u [%s] %s", val_status_name(v->status), v->ede,
	     v->tag ? v->tag : "", v->reason);
	return false;
}

static bool has_tag(const struct val_keyset *ks, uint16_t tag)
{
	for (size_t i = 0; i < ks->nkeys; i++) {
		if (crypto_key_tag(ks->keys[i]) == tag)
			return true;
	}
	return false;
}

/* --- RFC 6605 and RFC 8080: DS in the file, DNSKEY RRset signed here --- */

static void test_rfc_ds(void)
{
	static const char *files[] = {
		F6605,
		"rfc6605-section6.2-ecdsap384sha384.zone",
		"rfc8080-section6.1-ed25519-example1.zone",
		"rfc8080-section6.1-ed25519-example2.zone",
		"rfc8080-section6.2-ed448-example1.zone",
		"rfc8080-section6.2-ed448-example2.zone",
	};

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct vec_recs z;
		struct signer s;
		struct kset k;
		struct result r;

		if (vec_recs_file(&z, files[f]) < 0 ||
		    !signer_load(&s, files[f], nth(&z, WIRE_TYPE_DNSKEY, 0))) {
			ok(0, "%s: key and private key loaded", files[f]);
			vec_recs_free(&z);
			continue;
		}
		kset_init(&k, nth(&z, WIRE_TYPE_DNSKEY, 0)->owner);
		kset_add(&k, nth(&z, WIRE_TYPE_DNSKEY, 0));
		kset_sign(&k, &z.a, &s);
		r = from_ds(&k.set, nth(&z, WIRE_TYPE_DS, 0), 1, 1800, T0);
		ok(secure(&r, 1) && crypto_key_tag(r.ks.keys[0]) == s.tag,
		   "%s: DS from the RFC -> secure key set with key %u",
		   files[f], s.tag);
		is_int(r.ks.ttl, 1800, "%s: TTL capped by the DS TTL",
		       files[f]);
		ok(wire_dname_equal(r.ks.zone, k.set.owner) &&
			   r.crypto_used == 1,
		   "%s: zone name set, one verification", files[f]);
		val_keyset_free(&r.ks);

		/* The same DNSKEY RRset, unsigned. */
		k.set.nsigs = 0;
		r = from_ds(&k.set, nth(&z, WIRE_TYPE_DS, 0), 1, 1800, T0);
		ok(outcome(&r, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING, "sig-none"),
		   "%s: unsigned DNSKEY RRset -> bogus EDE 10", files[f]);
		EVP_PKEY_free(s.pk);
		vec_recs_free(&z);
	}
}

/* --- RFC 4035 App. A: the signed DNSKEY RRset, DS computed --- */

struct z4035 {
	struct vec_recs z;
	struct kset k;
	const struct wire_rr *ksk, *zsk;
	int64_t now;
};

static bool load_4035(struct z4035 *t)
{
	if (vec_recs_file(&t->z, F4035) < 0)
		return false;
	t->ksk = by_tag(&t->z, WIRE_TYPE_DNSKEY, 9465);
	t->zsk = by_tag(&t->z, WIRE_TYPE_DNSKEY, 38519);
	kset_from(&t->k, &t->z, 0);
	t->now = 1082419200;
	return t->ksk && t->zsk && t->k.set.n == 2 && t->k.set.nsigs == 2;
}

static void test_4035_ds(struct z4035 *t)
{
	struct arena *a = &t->z.a;
	struct wire_rr ds[4];
	struct result r;

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, false);
	r = from_ds(&t->k.set, ds, 1, UINT32_MAX, t->now);
	ok(secure(&r, 2) && has_tag(&r.ks, 9465) && has_tag(&r.ks, 38519),
	   "RFC 4035: SHA-256 DS of KSK 9465 -> secure, keys 9465 and 38519");
	is_int(r.ks.ttl, 3600, "RFC 4035: key set TTL 3600");
	ok(r.ks.verdict.ede == VAL_EDE_NONE &&
		   !strcmp(r.ks.verdict.tag, "secure"),
	   "RFC 4035: secure verdict without EDE");

	/* The key set verifies the zone's data. */
	size_t good = 0, total = 0;
	struct val_rrset *sets;
	int nsets = val_rrsets_collect(t->z.rr, t->z.n, &t->z.a, &sets);
	for (int i = 0; i < nsets; i++) {
		struct val_verdict v;
		struct val_ctx ctx;
		if (!sets[i].n || !sets[i].nsigs)
			continue;
		total++;
		val_ctx_init(&ctx, t->now, NULL);
		if (val_rrset_verify(&ctx, &sets[i], &r.ks, NULL, &v) == 0 &&
		    v.status == VAL_SECURE)
			good++;
	}
	ok(total == 26 && good == total,
	   "RFC 4035: the key set verifies all %zu signed RRsets", total);
	val_keyset_free(&r.ks);

	r = from_ds(&t->k.set, ds, 1, 100, t->now);
	is_int(r.ks.ttl, 100, "RFC 4035: DS TTL 100 caps the key set TTL");
	val_keyset_free(&r.ks);
	r = from_ds(&t->k.set, ds, 1, 3600, (int64_t)1084127779 - 50);
	is_int(r.ks.ttl, 50, "RFC 4035: 50 s before the RRSIGs expire, TTL 50");
	val_keyset_free(&r.ks);

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA1, false);
	r = from_ds(&t->k.set, ds, 1, 3600, t->now);
	ok(secure(&r, 2), "RFC 4035: SHA-1 DS alone -> secure");
	val_keyset_free(&r.ks);

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA384, false);
	r = from_ds(&t->k.set, ds, 1, 3600, t->now);
	ok(secure(&r, 2), "RFC 4035: SHA-384 DS -> secure");
	val_keyset_free(&r.ks);

	ds[0] = make_ds(a, t->zsk, CRYPTO_DS_SHA256, false);
	r = from_ds(&t->k.set, ds, 1, 3600, t->now);
	ok(secure(&r, 2), "RFC 4035: DS of the ZSK (which signs the DNSKEY "
			  "RRset too) -> secure");
	val_keyset_free(&r.ks);

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, true);
	r = from_ds(&t->k.set, ds, 1, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-no-match"),
	   "RFC 4035: DS with a wrong digest -> bogus EDE 9 [ks-no-match]");
	is_str(r.ks.verdict.reason,
	       "no DNSKEY of example. matches its DS (9465/5/2)",
	       "RFC 4035: wrong digest: reason lists the DS");
	is_int(r.crypto_used, 0, "RFC 4035: wrong digest: nothing verified");
	is_int(r.ks.ttl, 0, "RFC 4035: bogus key set has TTL 0");
	val_keyset_free(&r.ks);
}

static void test_4509(struct z4035 *t)
{
	struct arena *a = &t->z.a;
	struct wire_rr ds[4];
	struct result r;

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA1, true);
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, false);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(secure(&r, 2), "RFC 4509: SHA-1 DS wrong + SHA-256 DS right for "
			  "the same key -> secure");
	val_keyset_free(&r.ks);

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA1, false);
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, true);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-no-match"),
	   "RFC 4509: SHA-256 DS wrong + SHA-1 DS right -> bogus (SHA-1 "
	   "ignored)");
	val_keyset_free(&r.ks);

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_SHA1, false);
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA384, true);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-no-match"),
	   "RFC 4509: SHA-384 DS wrong + SHA-1 DS right -> bogus");
	val_keyset_free(&r.ks);

	/* The rule is per key: a SHA-1 DS for one key stays usable when the
	 * SHA-256 DS is for another. */
	ds[0] = make_ds(a, t->zsk, CRYPTO_DS_SHA1, false);
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, true);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(secure(&r, 2), "RFC 4509 per key: SHA-1 DS of 38519 right + "
			  "SHA-256 DS of 9465 wrong -> secure");
	val_keyset_free(&r.ks);

	/* A GOST DS (unsupported) for the key does not hide its SHA-1 DS. */
	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_GOST, false);
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA1, false);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(secure(&r, 2), "GOST DS + SHA-1 DS right -> secure");
	val_keyset_free(&r.ks);
}

static void test_unsupported(struct z4035 *t)
{
	struct arena *a = &t->z.a;
	struct wire_rr ds[4];
	struct result r;

	ds[0] = make_ds(a, t->ksk, CRYPTO_DS_GOST, false);
	r = from_ds(&t->k.set, ds, 1, 1234, t->now);
	ok(outcome(&r, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_DS_DIGEST,
		   "ks-ds-digest-unsupported"),
	   "only a GOST DS -> insecure EDE 2");
	is_int(r.ks.ttl, 1234, "insecure key set: TTL of the DS");
	is_int(r.crypto_used, 0, "insecure: nothing verified");
	ok(strstr(r.ks.verdict.reason, "9465/5/3") != NULL,
	   "GOST: reason lists the DS: %s", r.ks.verdict.reason);
	val_keyset_free(&r.ks);

	/* A fake key of algorithm 253 in the RRset and a DS for it. */
	struct vec_recs fake;
	vec_recs_init(&fake);
	recs_text(&fake, "example. 3600 IN DNSKEY 257 3 253 "
			 "BWZha2VrZXlkYXRhZm9yYWxnMjUz\n");
	struct kset k = t->k;
	k.set.rrs = k.rrs;
	k.set.sigs = k.sigs;
	kset_add(&k, &fake.rr[0]);
	ds[0] = make_ds(a, &fake.rr[0], CRYPTO_DS_SHA256, false);
	r = from_ds(&k.set, ds, 1, 3600, t->now);
	ok(outcome(&r, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_DNSKEY_ALG,
		   "ks-ds-alg-unsupported"),
	   "only a DS of algorithm 253 -> insecure EDE 1");
	val_keyset_free(&r.ks);

	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_GOST, false);
	r = from_ds(&k.set, ds, 2, 3600, t->now);
	ok(outcome(&r, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_DS_DIGEST,
		   "ks-ds-digest-unsupported"),
	   "alg 253 DS + GOST DS of a supported algorithm -> insecure EDE 2");
	val_keyset_free(&r.ks);

	/* Unsupported DS beside a usable one: the usable one decides. */
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, false);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(secure(&r, 2), "alg 253 DS + good SHA-256 DS -> secure");
	val_keyset_free(&r.ks);
	ds[1] = make_ds(a, t->ksk, CRYPTO_DS_SHA256, true);
	r = from_ds(&t->k.set, ds, 2, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-no-match"),
	   "alg 253 DS + wrong SHA-256 DS -> bogus, not insecure");
	val_keyset_free(&r.ks);
	vec_recs_free(&fake);
}

static void test_not_signed(struct z4035 *t)
{
	struct arena *a = &t->z.a;
	struct wire_rr ds = make_ds(a, t->ksk, CRYPTO_DS_SHA256, false);
	struct result r;
	struct kset k;

	kset_from(&k, &t->z, 9465);
	r = from_ds(&k.set, &ds, 1, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
		   "ks-not-signed-by-trusted"),
	   "KSK's RRSIG dropped: bogus EDE 9 [ks-not-signed-by-trusted]");
	is_str(r.ks.verdict.reason,
	       "the DNSKEY RRset of example. has no RRSIG by a key its DS "
	       "designates (9465/5)",
	       "KSK's RRSIG dropped: reason");
	val_keyset_free(&r.ks);

	k.set.nsigs = 0;
	r = from_ds(&k.set, &ds, 1, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_RRSIGS_MISSING, "sig-none"),
	   "no RRSIG at all: bogus EDE 10 [sig-none]");
	val_keyset_free(&r.ks);

	r = from_ds(&t->k.set, &ds, 1, 3600, 1084127779 + DT_VAL_SKEW + 1);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_SIGNATURE_EXPIRED, "sig-expired"),
	   "expired DNSKEY RRSIGs: bogus EDE 7");
	val_keyset_free(&r.ks);

	/* Flipped signature of the KSK's RRSIG. */
	struct wire_rr bad = rr_copy(a, by_tag(&t->z, WIRE_TYPE_RRSIG, 9465));
	((uint8_t *)bad.rdata)[bad.rdlen - 5] ^= 0x10;
	kset_from(&k, &t->z, 9465);
	kset_add(&k, &bad);
	r = from_ds(&k.set, &ds, 1, 3600, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "sig-bad"),
	   "KSK's RRSIG does not verify: bogus EDE 6 [sig-bad]");
	val_keyset_free(&r.ks);
}

static void test_shape(struct z4035 *t)
{
	struct wire_rr ds = make_ds(&t->z.a, t->ksk, CRYPTO_DS_SHA256, false);
	const struct wire_rr *pds = &ds;
	struct val_limits lim;
	struct val_ctx ctx;
	struct result r;
	struct kset k;

	val_ctx_init(&ctx, t->now, NULL);
	memset(&r, 0, sizeof(r));
	r.ret = val_keyset_from_ds(&ctx, dn("example."), NULL, &pds, 1, 3600,
				   &r.ks);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-no-dnskey"),
	   "no DNSKEY RRset: bogus EDE 9 [ks-no-dnskey]");
	r.ret = val_keyset_from_ds(&ctx, dn("example.org."), &t->k.set, &pds, 1,
				   3600, &r.ks);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "ks-wrong-rrset"),
	   "DNSKEY RRset of another owner: [ks-wrong-rrset]");
	r.ret = val_keyset_from_ds(&ctx, dn("example."), &t->k.set, &pds, 0,
				   3600, &r.ks);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "ks-no-ds"),
	   "no DS records: bogus [ks-no-ds]");

	val_limits_default(&lim);
	lim.rrs_per_rrset = 1;
	r = from_ds_lim(&t->k.set, &ds, 1, 3600, t->now, &lim);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "ks-too-many-dnskeys"),
	   "2 DNSKEYs over a limit of 1: [ks-too-many-dnskeys]");

	/* 20 bad RRSIGs by the KSK ahead of the good ones: the budget
	 * holds. */
	kset_init(&k, t->k.set.owner);
	kset_add(&k, t->ksk);
	kset_add(&k, t->zsk);
	for (int i = 0; i < 20; i++) {
		struct wire_rr *bad = xalloc(&t->z.a, sizeof(*bad));
		*bad = rr_copy(&t->z.a, by_tag(&t->z, WIRE_TYPE_RRSIG, 9465));
		((uint8_t *)bad->rdata)[bad->rdlen - 1 - i] ^= 0x04;
		kset_add(&k, bad);
	}
	kset_add(&k, by_tag(&t->z, WIRE_TYPE_RRSIG, 9465));
	lim.rrs_per_rrset = 100;
	lim.rrsigs_per_rrset = 32;
	r = from_ds_lim(&k.set, &ds, 1, 3600, t->now, &lim);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "sig-limit-rrset") &&
		   r.crypto_used == DT_VAL_SIGS_PER_RRSET,
	   "20 bad KSK RRSIGs: stops at the RRset limit (%u verifications)",
	   r.crypto_used);

	struct val_keyset ks;
	struct val_verdict v;
	val_verdict_set(&v, VAL_INSECURE, VAL_EDE_NONE, "test-insecure",
			"proven unsigned");
	memset(&ks, 0xA5, sizeof(ks));
	val_keyset_from_verdict(&ks, dn("Example.ORG."), &v, 77);
	ok(ks.verdict.status == VAL_INSECURE && ks.keys == NULL &&
		   ks.nkeys == 0 && ks.ttl == 77 &&
		   !strcmp(ks.verdict.tag, "test-insecure") &&
		   !strcmp(ks.verdict.reason, "proven unsigned") &&
		   wire_dname_equal(ks.zone, dn("example.org.")),
	   "val_keyset_from_verdict: zone, verdict, TTL, no keys");
	val_keyset_free(&ks);
	ok(ks.keys == NULL && ks.nkeys == 0, "val_keyset_free on no keys");
}

static void test_anchor(struct z4035 *t)
{
	const struct wire_rr *anchors[4];
	struct vec_recs extra;
	struct result r;
	struct kset k;

	anchors[0] = t->ksk;
	r = from_anchor(&t->k.set, anchors, 1, t->now);
	ok(secure(&r, 2) && r.ks.ttl == 3600,
	   "DNSKEY anchor 9465 -> secure, 2 keys, TTL 3600");
	val_keyset_free(&r.ks);

	anchors[0] = t->zsk;
	r = from_anchor(&t->k.set, anchors, 1, t->now);
	ok(secure(&r, 2), "DNSKEY anchor 38519 (signs the RRset too) -> "
			  "secure");
	val_keyset_free(&r.ks);

	vec_recs_init(&extra);
	recs_text(&extra,
		  /* The P-256 key of RFC 6605: not in this zone. */
		  "example. 3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwa"
		  "ubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA"
		  "==\n"
		  "example. 3600 IN DNSKEY 257 3 253 BWZha2VrZXk=\n"
		  "example. 3600 IN DS 9465 5 2 AABB\n");
	anchors[0] = &extra.rr[0];
	r = from_anchor(&t->k.set, anchors, 1, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-no-match"),
	   "anchor not in the DNSKEY RRset -> bogus EDE 9");
	is_str(r.ks.verdict.reason,
	       "no DNSKEY of example. matches a trust anchor",
	       "anchor not in the RRset: reason");
	val_keyset_free(&r.ks);

	anchors[0] = &extra.rr[1];
	r = from_anchor(&t->k.set, anchors, 1, t->now);
	ok(outcome(&r, VAL_INSECURE, WIRE_EDE_UNSUPPORTED_DNSKEY_ALG,
		   "ks-anchor-alg-unsupported") &&
		   r.ks.ttl == UINT32_MAX,
	   "only an anchor of algorithm 253 -> insecure EDE 1");
	val_keyset_free(&r.ks);

	anchors[0] = &extra.rr[2];
	r = from_anchor(&t->k.set, anchors, 1, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSSEC_BOGUS, "ks-no-anchor"),
	   "a DS given as DNSKEY anchor -> bogus [ks-no-anchor]");
	val_keyset_free(&r.ks);

	/* The KSK as anchor, but revoked there (RFC 5011). */
	struct wire_rr rev = rr_copy(&extra.a, t->ksk);
	((uint8_t *)rev.rdata)[1] |= 0x80;
	anchors[0] = &rev;
	r = from_anchor(&t->k.set, anchors, 1, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
		   "ks-anchor-unusable"),
	   "revoked anchor -> bogus EDE 9 [ks-anchor-unusable]");
	val_keyset_free(&r.ks);
	anchors[1] = t->ksk;
	r = from_anchor(&t->k.set, anchors, 2, t->now);
	ok(secure(&r, 2), "revoked anchor beside the live one -> secure");
	val_keyset_free(&r.ks);

	anchors[0] = t->ksk;
	kset_from(&k, &t->z, 9465);
	r = from_anchor(&k.set, anchors, 1, t->now);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
		   "ks-not-signed-by-trusted") &&
		   strstr(r.ks.verdict.reason, "trust anchor (9465/5)"),
	   "anchor's RRSIG dropped -> bogus: %s", r.ks.verdict.reason);
	val_keyset_free(&r.ks);
	vec_recs_free(&extra);
}

/* --- what the final key set holds: a DNSKEY RRset signed here --- */

static const char mixed_keys[] =
	/* 0: the RFC 6605 KSK, tag 55648 */
	"example.net. 3600 IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvT"
	"meexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==\n"
	/* 1: an Ed25519 zone key (RFC 8080 example 2's key, flags 256) */
	"example.net. 3600 IN DNSKEY 256 3 15 zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/r"
	"YnE9xHIEijs=\n"
	/* 2: the same key without the Zone Key flag */
	"example.net. 3600 IN DNSKEY 0 3 15 zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/rYn"
	"E9xHIEijs=\n"
	/* 3: the KSK, revoked */
	"example.net. 3600 IN DNSKEY 385 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvT"
	"meexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==\n"
	/* 4: algorithm 253 */
	"example.net. 3600 IN DNSKEY 256 3 253 BWZha2VrZXk=\n"
	/* 5: a P-256 key of the wrong length */
	"example.net. 3600 IN DNSKEY 257 3 13 AAAA\n"
	/* 6: the RFC 5702 RSA/SHA-256 zone key, tag 9033 */
	"example.net. 3600 IN DNSKEY 256 3 8 AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7"
	"jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk=\n"
	/* 7: key 1 again */
	"example.net. 3600 IN DNSKEY 256 3 15 zPnZ/QwEe7S8C5SPz2OfS5RR40ATk2/r"
	"YnE9xHIEijs=\n";

static void test_mixed(void)
{
	struct vec_recs z, f;
	struct signer s;
	struct kset k;
	struct result r;
	struct wire_rr ds;

	vec_recs_init(&z);
	recs_text(&z, mixed_keys);
	if (vec_recs_file(&f, F6605) < 0 || !signer_load(&s, F6605, &z.rr[0])) {
		ok(0, "RFC 6605 private key loaded");
		vec_recs_free(&f);
		vec_recs_free(&z);
		return;
	}
	kset_init(&k, z.rr[0].owner);
	for (size_t i = 0; i < z.n; i++)
		kset_add(&k, &z.rr[i]);
	kset_sign(&k, &z.a, &s);

	r = from_ds(&k.set, nth(&f, WIRE_TYPE_DS, 0), 1, 3600, T0);
	ok(secure(&r, 3), "mixed RRset: secure with 3 keys");
	ok(has_tag(&r.ks, 55648) && has_tag(&r.ks, 9033) &&
		   has_tag(&r.ks, wire_keytag(z.rr[1].rdata, z.rr[1].rdlen)),
	   "mixed RRset: KSK, Ed25519 and RSA zone keys kept; non-zone, "
	   "revoked, alg 253, malformed and duplicate left out");
	val_keyset_free(&r.ks);

	ds = make_ds(&z.a, &z.rr[3], CRYPTO_DS_SHA256, false);
	r = from_ds(&k.set, &ds, 1, 3600, T0);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING, "ks-match-revoked"),
	   "DS of the revoked key only -> bogus [ks-match-revoked]");
	val_keyset_free(&r.ks);

	ds = make_ds(&z.a, &z.rr[2], CRYPTO_DS_SHA256, false);
	r = from_ds(&k.set, &ds, 1, 3600, T0);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_NO_ZONE_KEY_BIT,
		   "ks-match-not-zone-key"),
	   "DS of the non-zone key only -> bogus EDE 11");
	val_keyset_free(&r.ks);

	ds = make_ds(&z.a, &z.rr[5], CRYPTO_DS_SHA256, false);
	r = from_ds(&k.set, &ds, 1, 3600, T0);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
		   "ks-match-unusable") &&
		   strstr(r.ks.verdict.reason, "cannot be used"),
	   "DS of the malformed key only -> bogus: %s", r.ks.verdict.reason);
	val_keyset_free(&r.ks);

	/* Anchors: the KSK and the Ed25519 key (which did not sign). */
	const struct wire_rr *anchors[2] = {&z.rr[1], &z.rr[0]};
	r = from_anchor(&k.set, anchors, 2, T0);
	ok(secure(&r, 3), "mixed RRset from anchors: secure with 3 keys");
	val_keyset_free(&r.ks);
	r = from_anchor(&k.set, anchors, 1, T0);
	ok(outcome(&r, VAL_BOGUS, WIRE_EDE_DNSKEY_MISSING,
		   "ks-not-signed-by-trusted"),
	   "anchor on a key that did not sign -> bogus");
	val_keyset_free(&r.ks);

	/* TTL: the RRSIG's original TTL is 3600; records say 7200. */
	k.set.ttl = 7200;
	r = from_ds(&k.set, nth(&f, WIRE_TYPE_DS, 0), 1, UINT32_MAX, T0);
	is_int(r.ks.ttl, 3600, "TTL: RRset 7200, original 3600 -> 3600");
	val_keyset_free(&r.ks);
	r = from_ds(&k.set, nth(&f, WIRE_TYPE_DS, 0), 1, UINT32_MAX,
		    T_EXP - 99);
	is_int(r.ks.ttl, 99, "TTL: 99 s before expiration -> 99");
	val_keyset_free(&r.ks);

	EVP_PKEY_free(s.pk);
	vec_recs_free(&f);
	vec_recs_free(&z);
}

int main(void)
{
	struct z4035 t;

	test_rfc_ds();
	if (load_4035(&t)) {
		test_4035_ds(&t);
		test_4509(&t);
		test_unsupported(&t);
		test_not_signed(&t);
		test_shape(&t);
		test_anchor(&t);
	} else {
		ok(0, "RFC 4035 zone loaded");
	}
	vec_recs_free(&t.z);
	test_mixed();
	return done_testing();
}
