/* SPDX-License-Identifier: MIT */
/*
 * Tests for src/crypto against the RFC example vectors in
 * $DT_PEER/rfc-vectors (RFC 4035 App. A/B, RFC 5155 App. A/B, RFC 5702,
 * RFC 6605, RFC 8080) and RFC 4034 §5.4: every RRSIG verifies, tampered
 * signatures, data and keys fail, DS digests and key tags match, NSEC3
 * hashes match, malformed and unsupported keys are refused with their
 * codes. The signed data is assembled here (RFC 4034 §3.1.8.1) with the
 * canonical-form functions of src/wire.
 *
 * OpenSSL is used directly only to sign fresh ECDSA signatures with the
 * RFC 6605 private key, to reach the DER edge cases (r or s with a
 * leading zero octet) that a fixed vector cannot.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "crypto/crypto.h"
#include "tap.h"
#include "vectors.h"
#include "wire/base.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- records read from a vector file (vectors.h) --- */

static int zone_load_text(const char *text, struct vec_recs *z)
{
	vec_recs_init(z);
	return vec_recs_text(z, text);
}

/* --- RRSIG fields and signed data (RFC 4034 §3.1, §3.1.8.1) --- */

#define RRSIG_FIXED 18 /* type covered .. key tag */

struct sig {
	uint16_t covered;
	uint8_t alg;
	uint8_t labels;
	uint32_t orig_ttl;
	uint16_t tag;
	const uint8_t *signer;
	size_t prefix_len; /* RDATA up to the end of the signer name */
	const uint8_t *sig;
	size_t siglen;
};

static int sig_parse(const struct wire_rr *rrsig, struct sig *s)
{
	int nlen;

	if (rrsig->rdlen < RRSIG_FIXED + 1)
		return DT_ETRUNC;
	nlen = wire_dname_check(rrsig->rdata + RRSIG_FIXED,
				rrsig->rdata + rrsig->rdlen);
	if (nlen < 0)
		return nlen;
	s->covered = wire_get16(rrsig->rdata);
	s->alg = rrsig->rdata[2];
	s->labels = rrsig->rdata[3];
	s->orig_ttl = wire_get32(rrsig->rdata + 4);
	s->tag = wire_get16(rrsig->rdata + 16);
	s->signer = rrsig->rdata + RRSIG_FIXED;
	s->prefix_len = RRSIG_FIXED + (size_t)nlen;
	s->sig = rrsig->rdata + s->prefix_len;
	s->siglen = rrsig->rdlen - s->prefix_len;
	return 0;
}

/* The signed data in one buffer, and the same cut into chunks: the RRSIG
 * prefix, then one chunk per canonical record. */
struct signed_data {
	uint8_t *buf;
	size_t len;
	struct crypto_chunk *chunks;
	size_t nchunks;
};

static void signed_free(struct signed_data *sd)
{
	free(sd->buf);
	free(sd->chunks);
	memset(sd, 0, sizeof(*sd));
}

/* Finds the records the RRSIG covers in z and builds the signed data.
 * Returns the number of records in the RRset (0: none found). */
static size_t build_signed(const struct vec_recs *z, const struct wire_rr *rrsig,
			   const struct sig *s, struct signed_data *sd)
{
	uint8_t wild[DT_NAME_MAXLEN];
	const uint8_t *override = NULL;
	struct wire_rr *set;
	uint8_t **canon;
	size_t n = 0, total, cap = s->prefix_len, off;

	set = calloc(z->n, sizeof(*set));
	canon = calloc(z->n, sizeof(*canon));
	if (!set || !canon)
		abort();
	for (size_t i = 0; i < z->n; i++) {
		const struct wire_rr *r = &z->rr[i];

		if (r->type != s->covered || r->rclass != rrsig->rclass ||
		    !wire_dname_equal(r->owner, rrsig->owner))
			continue;
		canon[n] = malloc(r->rdlen ? r->rdlen : 1);
		if (!canon[n])
			abort();
		memcpy(canon[n], r->rdata, r->rdlen);
		wire_rdata_canonicalize(r->type, canon[n], r->rdlen);
		set[n] = (struct wire_rr){.owner = r->owner,
					  .type = r->type,
					  .rclass = r->rclass,
					  .ttl = r->ttl,
					  .rdlen = r->rdlen,
					  .rdata = canon[n]};
		cap += DT_NAME_MAXLEN + 10 + r->rdlen;
		n++;
	}
	/* RFC 4034 §3.1.8.1: a wildcard expansion is signed as "*." plus the
	 * RRSIG's labels rightmost labels of the owner. */
	if (s->labels < wire_dname_labels(rrsig->owner)) {
		if (wire_dname_wildcard_of(
			    wild,
			    wire_dname_ancestor(rrsig->owner, s->labels)) < 0)
			abort();
		override = wild;
	}
	total = n;
	n = wire_rrset_canon_sort(set, n);

	sd->buf = malloc(cap);
	sd->chunks = calloc(n + 1, sizeof(*sd->chunks));
	if (!sd->buf || !sd->chunks)
		abort();
	memcpy(sd->buf, rrsig->rdata, s->prefix_len);
	wire_dname_tolower(sd->buf + RRSIG_FIXED);
	sd->chunks[0] = (struct crypto_chunk){sd->buf, s->prefix_len};
	off = s->prefix_len;
	for (size_t i = 0; i < n; i++) {
		int w = wire_rr_canon_write(&set[i], override, s->orig_ttl,
					    sd->buf + off, cap - off);
		if (w < 0)
			abort();
		sd->chunks[i + 1] =
			(struct crypto_chunk){sd->buf + off, (size_t)w};
		off += (size_t)w;
	}
	sd->len = off;
	sd->nchunks = n + 1;
	for (size_t i = 0; i < total; i++)
		free(canon[i]);
	free(canon);
	free(set);
	return n;
}

/* --- parsed keys of a zone --- */

struct keyring {
	const struct wire_rr *rec[16];
	struct crypto_key *key[16];
	size_t n;
};

static void keyring_free(struct keyring *kr)
{
	for (size_t i = 0; i < kr->n; i++)
		crypto_key_free(kr->key[i]);
	kr->n = 0;
}

/* Parses every DNSKEY of z; each must parse. */
static void keyring_load(struct keyring *kr, const struct vec_recs *z,
			 const char *file)
{
	for (size_t i = 0; i < z->n && kr->n < ARRAY_SIZE(kr->key); i++) {
		struct crypto_key *key = NULL;
		int r;

		if (z->rr[i].type != WIRE_TYPE_DNSKEY)
			continue;
		r = crypto_key_new(z->rr[i].rdata, z->rr[i].rdlen, &key);
		is_int(r, 0, "%s: DNSKEY %u parses (%s)", file,
		       wire_keytag(z->rr[i].rdata, z->rr[i].rdlen),
		       errcode_str(r));
		if (r < 0)
			continue;
		kr->rec[kr->n] = &z->rr[i];
		kr->key[kr->n++] = key;
	}
}

static struct crypto_key *keyring_find(const struct keyring *kr,
				       const uint8_t *owner, uint16_t tag,
				       uint8_t alg)
{
	for (size_t i = 0; i < kr->n; i++)
		if (crypto_key_tag(kr->key[i]) == tag &&
		    crypto_key_alg(kr->key[i]) == alg &&
		    wire_dname_equal(kr->rec[i]->owner, owner))
			return kr->key[i];
	return NULL;
}

/* --- the vectors --- */

struct vector {
	const char *file;
	const char *keyfile; /* where the DNSKEYs are; NULL: file */
	uint16_t tags[2];    /* documented key tags */
	int nsig;	     /* RRSIG records in the file */
	int nds;	     /* DS records whose DNSKEY is in the file */
};

static const struct vector vectors[] = {
	{"rfc4035-appendix-A-signed-zone.zone", NULL, {38519, 9465}, 27, 0},
	{"rfc4035-appendix-B-responses.txt",
	 "rfc4035-appendix-A-signed-zone.zone",
	 {38519, 9465},
	 23,
	 0},
	{"rfc5155-appendix-A-nsec3-zone.zone", NULL, {40430, 12708}, 30, 0},
	{"rfc5155-appendix-B-responses.txt",
	 "rfc5155-appendix-A-nsec3-zone.zone",
	 {40430, 12708},
	 21,
	 0},
	{"rfc5702-section6.1-rsasha256.zone", NULL, {9033, 9033}, 1, 0},
	{"rfc5702-section6.2-rsasha512.zone", NULL, {3740, 3740}, 1, 0},
	{"rfc6605-section6.1-ecdsap256sha256.zone", NULL, {55648, 55648}, 1, 1},
	{"rfc6605-section6.2-ecdsap384sha384.zone", NULL, {10771, 10771}, 1, 1},
	{"rfc8080-section6.1-ed25519-example1.zone", NULL, {3613, 3613}, 1, 1},
	{"rfc8080-section6.1-ed25519-example2.zone",
	 NULL,
	 {35217, 35217},
	 1,
	 1},
	{"rfc8080-section6.2-ed448-example1.zone", NULL, {9713, 9713}, 1, 1},
	{"rfc8080-section6.2-ed448-example2.zone", NULL, {38353, 38353}, 1, 1},
};

/* Offset of a public-key octet in the middle of the key material (for
 * RSA: of the modulus, so the key still parses). */
static size_t key_mid(const uint8_t *rdata, size_t rdlen)
{
	size_t hdr = 1, elen;

	if (rdata[3] != CRYPTO_ALG_RSASHA1 &&
	    rdata[3] != CRYPTO_ALG_RSASHA1_NSEC3_SHA1 &&
	    rdata[3] != CRYPTO_ALG_RSASHA256 &&
	    rdata[3] != CRYPTO_ALG_RSASHA512)
		return 4 + (rdlen - 4) / 2;
	elen = rdata[4];
	if (elen == 0) {
		elen = wire_get16(rdata + 5);
		hdr = 3;
	}
	return 4 + hdr + elen + (rdlen - 4 - hdr - elen) / 2;
}

static bool is_ecdsa(uint8_t alg)
{
	return alg == CRYPTO_ALG_ECDSAP256SHA256 ||
	       alg == CRYPTO_ALG_ECDSAP384SHA384;
}

/* One bit flipped in the signature, in the data, in the key: each fails. */
static void tamper(const char *file, const struct crypto_key *key,
		   const struct signed_data *sd, const struct sig *s)
{
	uint8_t *sig = malloc(s->siglen), *data = malloc(sd->len), *kd;
	struct crypto_key *bad = NULL;
	const uint8_t *rdata;
	size_t rdlen;
	int r;

	if (!sig || !data)
		abort();
	memcpy(sig, s->sig, s->siglen);
	sig[s->siglen / 2] ^= 0x01;
	is_int(crypto_verify(key, sd->buf, sd->len, sig, s->siglen), DT_EBADSIG,
	       "%s: signature with one bit flipped fails", file);

	memcpy(data, sd->buf, sd->len);
	data[sd->len - 1] ^= 0x40;
	is_int(crypto_verify(key, data, sd->len, s->sig, s->siglen), DT_EBADSIG,
	       "%s: data with one bit flipped fails", file);

	rdata = crypto_key_rdata(key, &rdlen);
	kd = malloc(rdlen);
	if (!kd)
		abort();
	memcpy(kd, rdata, rdlen);
	kd[key_mid(kd, rdlen)] ^= 0x10;
	r = crypto_key_new(kd, rdlen, &bad);
	if (is_ecdsa(kd[3])) {
		/* X or Y changed: the point leaves the curve. */
		is_int(r, DT_EKEY,
		       "%s: key with one bit flipped is refused "
		       "(point not on the curve)",
		       file);
	} else {
		is_int(r, 0, "%s: key with one bit flipped still parses", file);
		if (r == 0)
			is_int(crypto_verify(bad, sd->buf, sd->len, s->sig,
					     s->siglen),
			       DT_EBADSIG, "%s: key with one bit flipped fails",
			       file);
	}
	crypto_key_free(bad);
	free(kd);
	free(data);
	free(sig);
}

/* Verifies one RRSIG both ways; returns 0 when both are valid. */
static int verify_both(const struct crypto_key *key,
		       const struct signed_data *sd, const struct sig *s)
{
	int r1 = crypto_verify(key, sd->buf, sd->len, s->sig, s->siglen);
	int r2 =
		crypto_verifyv(key, sd->chunks, sd->nchunks, s->sig, s->siglen);

	if (r1 != r2)
		diag("crypto_verify %d != crypto_verifyv %d", r1, r2);
	return r1 ? r1 : r2;
}

/* The RFC 8080 signatures as printed, kept as ";BAD(...)" comments. */
static void test_bad_lines(const char *file, const struct vec_recs *z,
			   const struct keyring *kr)
{
	char *text = vec_file_text(file), *p;
	int found = 0;

	if (!text)
		return;
	for (p = strstr(text, "BAD(RFC as printed) "); p;
	     p = strstr(p, "BAD(RFC as printed) ")) {
		struct vec_recs bad = {0};
		struct signed_data sd = {0};
		struct crypto_key *key;
		char *eol;
		struct sig s;

		p += strlen("BAD(RFC as printed) ");
		eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		if (zone_load_text(p, &bad) != 1 ||
		    bad.rr[0].type != WIRE_TYPE_RRSIG ||
		    sig_parse(&bad.rr[0], &s) < 0) {
			ok(0, "%s: BAD line reads as one RRSIG", file);
			vec_recs_free(&bad);
			break;
		}
		key = keyring_find(kr, s.signer, s.tag, s.alg);
		build_signed(z, &bad.rr[0], &s, &sd);
		ok(key != NULL, "%s: BAD line's key is present", file);
		if (key)
			is_int(verify_both(key, &sd, &s), DT_EBADSIG,
			       "%s: RFC-printed signature fails", file);
		signed_free(&sd);
		vec_recs_free(&bad);
		found++;
		p = eol ? eol + 1 : p + strlen(p);
	}
	if (strstr(file, "rfc8080"))
		is_int(found, 1, "%s: one RFC-printed (broken) RRSIG", file);
	free(text);
}

static void test_ds(const char *file, const struct vector *v,
		    const struct vec_recs *z, const struct keyring *kr)
{
	int matched = 0;

	for (size_t i = 0; i < z->n; i++) {
		const struct wire_rr *ds = &z->rr[i];
		uint8_t digest[DT_DS_DIGEST_MAXLEN];
		size_t rdlen;
		const uint8_t *rdata;
		struct crypto_key *key;
		int r;

		if (ds->type != WIRE_TYPE_DS || ds->rdlen < 4)
			continue;
		key = keyring_find(kr, ds->owner, wire_get16(ds->rdata),
				   ds->rdata[2]);
		if (!key) {
			diag("%s: DS %u: its DNSKEY is not in the RFC", file,
			     wire_get16(ds->rdata));
			continue;
		}
		rdata = crypto_key_rdata(key, &rdlen);
		is_int(crypto_ds_match(ds->owner, rdata, rdlen, ds->rdata,
				       ds->rdlen),
		       1, "%s: DS %u type %u matches its DNSKEY", file,
		       wire_get16(ds->rdata), ds->rdata[3]);
		r = crypto_ds_digest(ds->owner, rdata, rdlen, ds->rdata[3],
				     digest, sizeof(digest));
		if (r > 0)
			is_mem(digest, (size_t)r, ds->rdata + 4, ds->rdlen - 4u,
			       "%s: DS digest type %u computed equal", file,
			       ds->rdata[3]);
		else
			ok(0, "%s: DS digest: %s", file, errcode_str(r));
		matched++;
	}
	is_int(matched, v->nds, "%s: DS records checked", file);
}

static void test_vector(const struct vector *v)
{
	struct vec_recs z = {0}, kz = {0};
	struct keyring kr = {0};
	int nsig = 0, good = 0, tampered = 0;

	if (vec_recs_file(&z, v->file) <= 0 ||
	    (v->keyfile && vec_recs_file(&kz, v->keyfile) <= 0)) {
		ok(0, "%s: read", v->file);
		vec_recs_free(&z);
		vec_recs_free(&kz);
		return;
	}
	keyring_load(&kr, v->keyfile ? &kz : &z, v->file);
	ok(kr.n > 0, "%s: has keys", v->file);
	for (size_t i = 0; i < kr.n; i++) {
		const struct wire_rr *k = kr.rec[i];

		is_int(crypto_key_tag(kr.key[i]),
		       wire_keytag(k->rdata, k->rdlen),
		       "%s: key tag agrees with wire_keytag", v->file);
		ok(crypto_key_tag(kr.key[i]) == v->tags[0] ||
			   crypto_key_tag(kr.key[i]) == v->tags[1],
		   "%s: key tag %u is a documented one", v->file,
		   crypto_key_tag(kr.key[i]));
	}

	for (size_t i = 0; i < z.n; i++) {
		struct signed_data sd = {0};
		struct crypto_key *key;
		struct sig s;
		char tbuf[16];
		int r;

		if (z.rr[i].type != WIRE_TYPE_RRSIG)
			continue;
		nsig++;
		if (sig_parse(&z.rr[i], &s) < 0) {
			ok(0, "%s: RRSIG %d parses", v->file, nsig);
			continue;
		}
		key = keyring_find(&kr, s.signer, s.tag, s.alg);
		if (!build_signed(&z, &z.rr[i], &s, &sd) || !key) {
			ok(0, "%s: RRSIG %s: RRset and key found", v->file,
			   wire_type_to_str(s.covered, tbuf));
			signed_free(&sd);
			continue;
		}
		r = verify_both(key, &sd, &s);
		if (r == 0)
			good++;
		else
			diag("%s: RRSIG %s tag %u: %s", v->file,
			     wire_type_to_str(s.covered, tbuf), s.tag,
			     errcode_str(r));
		if (!tampered) {
			tamper(v->file, key, &sd, &s);
			tampered = 1;
		}
		signed_free(&sd);
	}
	is_int(nsig, v->nsig, "%s: RRSIG records read", v->file);
	if (kr.n &&
	    (crypto_key_alg(kr.key[0]) == CRYPTO_ALG_RSASHA1 ||
	     crypto_key_alg(kr.key[0]) == CRYPTO_ALG_RSASHA1_NSEC3_SHA1))
		ok(good > 0,
		   "%s: this OpenSSL (%s) verifies RSA/SHA-1 "
		   "signatures",
		   v->file, OpenSSL_version(OPENSSL_VERSION));
	is_int(good, nsig, "%s: every RRSIG verifies (%s, %d of them)", v->file,
	       crypto_alg_name(kr.n ? crypto_key_alg(kr.key[0]) : 0), nsig);

	test_ds(v->file, v, &z, &kr);
	test_bad_lines(v->file, &z, &kr);
	keyring_free(&kr);
	vec_recs_free(&z);
	vec_recs_free(&kz);
}

static void test_vectors(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(vectors); i++)
		test_vector(&vectors[i]);
}

/* --- RFC 4034 §5.4: the DS example (SHA-1, RSASHA1 key 60485) --- */

static const char rfc4034_key[] =
	"AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxe"
	"YCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2"
	"wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==";

static void test_rfc4034_ds(void)
{
	uint8_t rdata[4 + 256], owner[DT_NAME_MAXLEN], digest[48], ds[4 + 20];
	static const char *want = "2BB183AF5F22588179A53B0A98631FAD1A292118";
	char hex[2 * 48 + 1];
	struct crypto_key *key = NULL;
	int klen, r;

	rdata[0] = 0x01;
	rdata[1] = 0x00;
	rdata[2] = 3;
	rdata[3] = CRYPTO_ALG_RSASHA1;
	klen = wire_b64_decode(rfc4034_key, strlen(rfc4034_key), rdata + 4,
			       sizeof(rdata) - 4);
	ok(klen > 0, "RFC 4034 5.4: key decodes");
	if (klen <= 0)
		return;
	/* Mixed case: the digest is over the lowercased owner. */
	wire_dname_from_str("DSKEY.Example.COM.", 18, NULL, owner);
	r = crypto_key_new(rdata, 4 + (size_t)klen, &key);
	is_int(r, 0, "RFC 4034 5.4: RSASHA1 key parses");
	if (key) {
		is_int(crypto_key_tag(key), 60485, "RFC 4034 5.4: key tag");
		is_int(crypto_key_bits(key), 1024, "RFC 4034 5.4: 1024 bits");
		is_int(crypto_key_flags(key), 256, "RFC 4034 5.4: flags");
	}
	r = crypto_ds_digest(owner, rdata, 4 + (size_t)klen, CRYPTO_DS_SHA1,
			     digest, sizeof(digest));
	is_int(r, 20, "RFC 4034 5.4: SHA-1 digest length");
	wire_hex_encode_upper(digest, 20, hex, sizeof(hex));
	is_str(hex, want, "RFC 4034 5.4: SHA-1 DS digest");

	ds[0] = 60485 >> 8;
	ds[1] = 60485 & 0xff;
	ds[2] = CRYPTO_ALG_RSASHA1;
	ds[3] = CRYPTO_DS_SHA1;
	wire_hex_decode(want, 40, ds + 4, 20);
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, sizeof(ds)),
	       1, "RFC 4034 5.4: DS matches");
	ds[4 + 19] ^= 1;
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, sizeof(ds)),
	       0, "DS with a flipped digest bit does not match");
	ds[4 + 19] ^= 1;
	ds[1] ^= 1;
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, sizeof(ds)),
	       0, "DS with another key tag does not match");
	ds[1] ^= 1;
	ds[2] = CRYPTO_ALG_RSASHA256;
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, sizeof(ds)),
	       0, "DS with another algorithm does not match");
	ds[2] = CRYPTO_ALG_RSASHA1;
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, 4 + 19), 0,
	       "DS with a short digest does not match");
	ds[3] = CRYPTO_DS_GOST;
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, sizeof(ds)),
	       DT_EUNSUPPORTED, "DS digest type 3 (GOST) is unsupported");
	is_int(crypto_ds_match(owner, rdata, 4 + (size_t)klen, ds, 3),
	       DT_ETRUNC, "DS RDATA of 3 octets is truncated");
	is_int(crypto_ds_digest(owner, rdata, 4 + (size_t)klen,
				CRYPTO_DS_SHA256, digest, 31),
	       DT_ESPACE, "DS digest into too small a buffer");
	is_int(crypto_ds_digest(owner, rdata, 4 + (size_t)klen, 0, digest,
				sizeof(digest)),
	       DT_EUNSUPPORTED, "DS digest type 0 is unsupported");
	crypto_key_free(key);
}

/* --- NSEC3 hashes (RFC 5155 App. A and B comments) --- */

/* Checks every "H(name) = hash" comment of a file; returns how many. */
static int check_hash_comments(const char *file)
{
	static const uint8_t salt[] = {0xaa, 0xbb, 0xcc, 0xdd};
	char *text = vec_file_text(file), *p;
	int n = 0;

	if (!text) {
		ok(0, "%s: readable", file);
		return 0;
	}
	for (p = strstr(text, "H("); p; p = strstr(p, "H(")) {
		uint8_t name[DT_NAME_MAXLEN], hash[CRYPTO_NSEC3_HASHLEN];
		char *end = strchr(p, ')'), *eq, want[64], got[64];
		int nlen, r;

		if (!end)
			break;
		eq = strchr(end, '=');
		if (!eq || sscanf(eq + 1, " %63[0-9a-v]", want) != 1) {
			p = end;
			continue;
		}
		/* Names in the comments have no trailing dot: relative to
		 * the root. */
		nlen = wire_dname_from_str(p + 2, (size_t)(end - p - 2),
					   (const uint8_t *)"", name);
		r = crypto_nsec3_hash(name, CRYPTO_NSEC3_SHA1, 12, salt,
				      sizeof(salt), hash);
		wire_b32hex_encode(hash, sizeof(hash), got, sizeof(got));
		is_str(got, want, "%s: H(%.*s)", file, (int)(end - p - 2),
		       p + 2);
		is_int(r,
		       (int)crypto_nsec3_cost(12, sizeof(salt), (size_t)nlen),
		       "%s: H(%.*s) reports its cost", file, (int)(end - p - 2),
		       p + 2);
		n++;
		p = eq;
	}
	free(text);
	return n;
}

static void test_nsec3(void)
{
	static const uint8_t salt[] = {0xaa, 0xbb, 0xcc, 0xdd};
	uint8_t name[DT_NAME_MAXLEN], hash[20], hash2[20];
	char got[64];
	int r;

	is_int(check_hash_comments("rfc5155-appendix-A-nsec3-zone.zone"), 12,
	       "RFC 5155 A: 12 hashed names listed and checked");
	is_int(check_hash_comments("rfc5155-appendix-B-responses.txt"), 9,
	       "RFC 5155 B: 9 hash comments checked");

	/* Case does not matter (RFC 5155 §5: the name is lowercased). */
	wire_dname_from_str("ExAmPlE.", 8, NULL, name);
	r = crypto_nsec3_hash(name, 1, 12, salt, 4, hash);
	wire_b32hex_encode(hash, 20, got, sizeof(got));
	is_str(got, "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom",
	       "H(ExAmPlE.) "
	       "equals H(example.)");
	ok(name[1] == 'E', "caller's name left as it was");

	/* RFC 9276 parameters: no salt, no extra iteration: SHA-1 of the
	 * wire name (value computed with Python's hashlib). */
	r = crypto_nsec3_hash(name, 1, 0, NULL, 0, hash);
	wire_b32hex_encode(hash, 20, got, sizeof(got));
	is_str(got, "3msev9usmd4br9s97v51r2tdvmr9iqo1",
	       "H(example.), "
	       "0 iterations, no salt");
	is_int(r, 1, "0 iterations, 9-octet name: one SHA-1 block");

	/* Cost: blocks(name + salt) + iterations * blocks(20 + salt). */
	is_int(crypto_nsec3_cost(0, 0, 9), 1, "cost: one block");
	is_int(crypto_nsec3_cost(0, 0, 55), 1, "cost: 55 octets fit a block");
	is_int(crypto_nsec3_cost(0, 0, 56), 2, "cost: 56 octets need two");
	is_int(crypto_nsec3_cost(12, 4, 9), 13, "cost: RFC 5155 example");
	is_int(crypto_nsec3_cost(150, 255, 255), 9 + 150 * 5,
	       "cost: longest salt and name");
	is_int(crypto_nsec3_cost(65535, 255, 255), 9 + 65535ull * 5,
	       "cost: 16-bit iterations do not overflow");

	/* Limits. */
	r = crypto_nsec3_hash(name, 1, DT_NSEC3_MAX_ITERATIONS, salt, 4, hash2);
	is_int(r, (int)crypto_nsec3_cost(DT_NSEC3_MAX_ITERATIONS, 4, 9),
	       "iterations at the hard cap are hashed");
	memcpy(hash2, hash, sizeof(hash));
	is_int(crypto_nsec3_hash(name, 1, DT_NSEC3_MAX_ITERATIONS + 1, salt, 4,
				 hash2),
	       DT_ELIMIT, "iterations above the hard cap are refused");
	ok(memcmp(hash2, hash, sizeof(hash)) == 0, "out untouched on error");
	is_int(crypto_nsec3_hash(name, 2, 0, NULL, 0, hash2), DT_EUNSUPPORTED,
	       "NSEC3 hash algorithm 2 is unsupported");
	is_int(crypto_nsec3_hash(name, 1, 0, salt, 256, hash2), DT_ERANGE,
	       "salt of 256 octets is refused");
}

/* --- algorithms --- */

static void test_algorithms(void)
{
	static const uint8_t yes[] = {5, 7, 8, 10, 13, 14, 15, 16};
	static const uint8_t no[] = {0,	 1,  2,	 3,   4,   6,	9,
				     11, 12, 17, 252, 253, 254, 255};
	uint8_t rdata[4 + 64] = {0x01, 0x01, 3, 0};
	struct crypto_key *key = NULL;

	for (size_t i = 0; i < sizeof(yes); i++)
		ok(crypto_alg_supported(yes[i]), "algorithm %u (%s) supported",
		   yes[i], crypto_alg_name(yes[i]));
	for (size_t i = 0; i < sizeof(no); i++) {
		ok(!crypto_alg_supported(no[i]),
		   "algorithm %u (%s) unsupported", no[i],
		   crypto_alg_name(no[i]));
		rdata[3] = no[i];
		is_int(crypto_key_new(rdata, sizeof(rdata), &key),
		       DT_EUNSUPPORTED, "DNSKEY of algorithm %u: unsupported",
		       no[i]);
	}
	is_str(crypto_alg_name(12), "ECC-GOST", "name of algorithm 12");
	is_str(crypto_alg_name(200), "unknown", "name of algorithm 200");
	ok(crypto_ds_digest_supported(1) && crypto_ds_digest_supported(2) &&
		   crypto_ds_digest_supported(4),
	   "DS digest types 1, 2, 4 supported");
	ok(!crypto_ds_digest_supported(0) && !crypto_ds_digest_supported(3) &&
		   !crypto_ds_digest_supported(5) &&
		   !crypto_ds_digest_supported(255),
	   "DS digest types 0, 3, 5, 255 unsupported");
	is_int(crypto_ds_digest_len(4), 48, "SHA-384 digest is 48 octets");
	ok(key == NULL, "ret_key untouched on failure");
}

/* --- malformed keys --- */

/* Makes DNSKEY RDATA: flags 256, protocol 3, alg, then key octets. */
static size_t mk_key(uint8_t *out, uint8_t alg, const uint8_t *key, size_t len)
{
	out[0] = 0x01;
	out[1] = 0x00;
	out[2] = 3;
	out[3] = alg;
	memcpy(out + 4, key, len);
	return 4 + len;
}

/* An RSA key: exponent e (elen octets) with a given length form, and an
 * odd modulus of nbits bits. */
static size_t mk_rsa(uint8_t *out, bool long_form, const uint8_t *e,
		     size_t elen, unsigned nbits)
{
	uint8_t k[3 + 16 + 1024];
	size_t p = 0, nlen = (nbits + 7) / 8;

	if (long_form) {
		k[p++] = 0;
		k[p++] = (uint8_t)(elen >> 8);
		k[p++] = (uint8_t)elen;
	} else {
		k[p++] = (uint8_t)elen;
	}
	memcpy(k + p, e, elen);
	p += elen;
	/* 0xa5 filler; the top octet keeps only its low bits and gets its
	 * highest one set, so that the modulus has exactly nbits bits. */
	memset(k + p, 0xa5, nlen);
	k[p] &= (uint8_t)(0xff >> (8 * nlen - nbits));
	k[p] |= (uint8_t)(1u << ((nbits - 1) % 8));
	k[p + nlen - 1] |= 1;
	p += nlen;
	return mk_key(out, CRYPTO_ALG_RSASHA256, k, p);
}

static int try_key(const uint8_t *rdata, size_t rdlen, unsigned *ret_bits)
{
	struct crypto_key *key = NULL;
	int r = crypto_key_new(rdata, rdlen, &key);

	if (r == 0 && ret_bits)
		*ret_bits = crypto_key_bits(key);
	crypto_key_free(key);
	return r;
}

static void test_malformed_keys(void)
{
	static const uint8_t e3[] = {0x01, 0x00, 0x01};
	static const uint8_t e_even[] = {0x01, 0x00, 0x02};
	static const uint8_t e_one[] = {0x01};
	static const uint8_t e_lz[] = {0x00, 0x01, 0x00, 0x01};
	static const uint8_t e9[] = {1, 0, 0, 0, 0, 0, 0, 0, 1};
	static const uint8_t e8[] = {1, 0, 0, 0, 0, 0, 0, 1};
	uint8_t rd[4 + 3 + 16 + 1024], k[128];
	unsigned bits = 0;
	size_t n;

	n = mk_rsa(rd, false, e3, 3, 1024);
	is_int(try_key(rd, n, &bits), 0, "RSA 1024, e=65537 parses");
	is_int(bits, 1024, "RSA 1024 bits reported");
	n = mk_rsa(rd, true, e3, 3, 1024);
	is_int(try_key(rd, n, NULL), 0, "RSA 3-octet exponent length form");
	n = mk_rsa(rd, false, e3, 3, 512);
	is_int(try_key(rd, n, &bits), 0, "RSA 512 bits: smallest accepted");
	n = mk_rsa(rd, false, e3, 3, 511);
	is_int(try_key(rd, n, NULL), DT_EKEYSIZE, "RSA 511 bits: too small");
	n = mk_rsa(rd, false, e3, 3, 4096);
	is_int(try_key(rd, n, &bits), 0, "RSA 4096 bits: largest accepted");
	is_int(bits, 4096, "RSA 4096 bits reported");
	n = mk_rsa(rd, false, e3, 3, 4097);
	is_int(try_key(rd, n, NULL), DT_EKEYSIZE, "RSA 4097 bits: too large");
	n = mk_rsa(rd, false, e8, 8, 1024);
	is_int(try_key(rd, n, NULL), 0, "RSA 8-octet exponent accepted");
	n = mk_rsa(rd, false, e9, 9, 1024);
	is_int(try_key(rd, n, NULL), DT_EKEYSIZE,
	       "RSA 9-octet exponent: too long");
	n = mk_rsa(rd, false, e_even, 3, 1024);
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA even exponent refused");
	n = mk_rsa(rd, false, e_one, 1, 1024);
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA exponent 1 refused");
	n = mk_rsa(rd, false, e_lz, 4, 1024);
	is_int(try_key(rd, n, NULL), DT_EKEY,
	       "RSA exponent with a leading zero refused");
	n = mk_rsa(rd, false, e3, 3, 1024);
	rd[n - 1] &= 0xfe;
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA even modulus refused");

	/* Exponent length past the end: 1-octet and 3-octet forms. */
	n = mk_key(rd, CRYPTO_ALG_RSASHA256, (const uint8_t[]){3, 1, 0}, 3);
	is_int(try_key(rd, n, NULL), DT_EKEY,
	       "RSA exponent length running past the end");
	n = mk_key(rd, CRYPTO_ALG_RSASHA256, (const uint8_t[]){0, 1}, 2);
	is_int(try_key(rd, n, NULL), DT_EKEY,
	       "RSA 3-octet exponent length truncated");
	n = mk_key(rd, CRYPTO_ALG_RSASHA256,
		   (const uint8_t[]){0, 0x01, 0x00, 1, 0, 1}, 6);
	is_int(try_key(rd, n, NULL), DT_EKEY,
	       "RSA 3-octet exponent length of 256 past the end");
	n = mk_key(rd, CRYPTO_ALG_RSASHA256, (const uint8_t[]){3, 1, 0, 1}, 4);
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA zero-length modulus");
	n = mk_key(rd, CRYPTO_ALG_RSASHA256,
		   (const uint8_t[]){0, 0, 0, 1, 0, 1}, 6);
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA zero-length exponent");
	n = mk_key(rd, CRYPTO_ALG_RSASHA256, k, 0);
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA empty public key");
	n = mk_rsa(rd, false, e3, 3, 1024);
	memset(rd + 4 + 1 + 3, 0, 128);
	is_int(try_key(rd, n, NULL), DT_EKEY, "RSA all-zero modulus");

	/* ECDSA and EdDSA: exact lengths. */
	memset(k, 0x11, sizeof(k));
	n = mk_key(rd, CRYPTO_ALG_ECDSAP256SHA256, k, 63);
	is_int(try_key(rd, n, NULL), DT_EKEY, "ECDSA P-256 key of 63 octets");
	n = mk_key(rd, CRYPTO_ALG_ECDSAP256SHA256, k, 65);
	is_int(try_key(rd, n, NULL), DT_EKEY, "ECDSA P-256 key of 65 octets");
	n = mk_key(rd, CRYPTO_ALG_ECDSAP256SHA256, k, 64);
	is_int(try_key(rd, n, NULL), DT_EKEY,
	       "ECDSA P-256 point not on the curve");
	n = mk_key(rd, CRYPTO_ALG_ECDSAP384SHA384, k, 64);
	is_int(try_key(rd, n, NULL), DT_EKEY, "ECDSA P-384 key of 64 octets");
	n = mk_key(rd, CRYPTO_ALG_ED25519, k, 31);
	is_int(try_key(rd, n, NULL), DT_EKEY, "Ed25519 key of 31 octets");
	n = mk_key(rd, CRYPTO_ALG_ED25519, k, 33);
	is_int(try_key(rd, n, NULL), DT_EKEY, "Ed25519 key of 33 octets");
	n = mk_key(rd, CRYPTO_ALG_ED448, k, 56);
	is_int(try_key(rd, n, NULL), DT_EKEY, "Ed448 key of 56 octets");
	n = mk_key(rd, CRYPTO_ALG_ED448, k, 57);
	is_int(try_key(rd, n, &bits), 0, "Ed448 key of 57 octets parses");
	is_int(bits, 456, "Ed448 key size reported as 456");

	/* DNSKEY header. */
	n = mk_key(rd, CRYPTO_ALG_ED25519, k, 32);
	rd[2] = 2;
	is_int(try_key(rd, n, NULL), DT_EKEY, "protocol 2 refused");
	is_int(try_key(rd, 3, NULL), DT_ETRUNC, "RDATA of 3 octets");
}

/* --- RFC 5702 key in the RFC 3110 3-octet exponent-length form --- */

static void test_rsa_long_form(void)
{
	struct vec_recs z = {0};
	struct signed_data sd = {0};
	struct crypto_key *key = NULL;
	uint8_t rd[1024];
	const struct wire_rr *dk = NULL, *rs = NULL;
	struct sig s;
	size_t n;

	if (vec_recs_file(&z, "rfc5702-section6.1-rsasha256.zone") <= 0) {
		ok(0, "RFC 5702 6.1 read");
		return;
	}
	for (size_t i = 0; i < z.n; i++) {
		if (z.rr[i].type == WIRE_TYPE_DNSKEY)
			dk = &z.rr[i];
		if (z.rr[i].type == WIRE_TYPE_RRSIG)
			rs = &z.rr[i];
	}
	if (!dk || !rs || dk->rdata[4] != 3 || sig_parse(rs, &s) < 0) {
		ok(0, "RFC 5702 6.1 DNSKEY (e of 3 octets) and RRSIG");
		vec_recs_free(&z);
		return;
	}
	/* 03 e e e n... becomes 00 00 03 e e e n... */
	memcpy(rd, dk->rdata, 4);
	rd[4] = 0;
	rd[5] = 0;
	memcpy(rd + 6, dk->rdata + 4, dk->rdlen - 4u);
	n = dk->rdlen + 2u;
	is_int(crypto_key_new(rd, n, &key), 0,
	       "RFC 5702 key rewritten with 3-octet exponent length parses");
	build_signed(&z, rs, &s, &sd);
	if (key) {
		is_int(crypto_key_bits(key), 512,
		       "RFC 5702 6.1 key is 512 bits");
		is_int(crypto_verify(key, sd.buf, sd.len, s.sig, s.siglen), 0,
		       "... and verifies the RFC 5702 signature");
		is_int(crypto_verify(key, sd.buf, sd.len, s.sig, s.siglen - 1),
		       DT_EBADSIG, "RSA signature one octet short fails");
	}
	crypto_key_free(key);
	signed_free(&sd);
	vec_recs_free(&z);
}

/* --- ECDSA DER conversion edge cases, with fresh signatures --- */

/* The RFC 6605 6.1 private key, as an OpenSSL key pair. */
static EVP_PKEY *p256_private(const uint8_t *pub, size_t publen)
{
	static const char priv_b64[] =
		"GU6SnQ/Ou+xC5RumuIUIuJZteXT2z0O/ok1s38Et6mQ=";
	uint8_t priv[32], point[65];
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	EVP_PKEY *pk = NULL;
	BIGNUM *d;

	if (wire_b64_decode(priv_b64, strlen(priv_b64), priv, sizeof(priv)) !=
		    32 ||
	    publen != 64)
		abort();
	d = BN_bin2bn(priv, 32, NULL);
	point[0] = 0x04;
	memcpy(point + 1, pub, 64);
	if (bld && d &&
	    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
					    "P-256", 0) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
					     point, sizeof(point)))
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

/* Signs msg and writes the RFC 6605 form r | s (64 octets). */
static int p256_sign(EVP_PKEY *pk, const uint8_t *msg, size_t len,
		     uint8_t raw[64])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t der[80];
	size_t derlen = sizeof(der);
	const unsigned char *p = der;
	ECDSA_SIG *sig = NULL;
	const BIGNUM *r, *s;
	int ret = -1;

	if (ctx &&
	    EVP_DigestSignInit_ex(ctx, NULL, "SHA256", NULL, NULL, pk, NULL) ==
		    1 &&
	    EVP_DigestSign(ctx, der, &derlen, msg, len) == 1)
		sig = d2i_ECDSA_SIG(NULL, &p, (long)derlen);
	if (sig) {
		ECDSA_SIG_get0(sig, &r, &s);
		if (BN_bn2binpad(r, raw, 32) == 32 &&
		    BN_bn2binpad(s, raw + 32, 32) == 32)
			ret = 0;
	}
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(ctx);
	return ret;
}

static void test_ecdsa_der(void)
{
	static const char pub_b64[] =
		"GojIhhXUN/"
		"u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+"
		"e+MAnLr+Wi9xMWyQLc8NAA==";
	uint8_t pub[64], rd[4 + 64], raw[64], msg[8];
	struct crypto_key *key = NULL;
	int r_short = 0, s_short = 0, r_high = 0, bad = 0, signs = 0;
	EVP_PKEY *pk;

	if (wire_b64_decode(pub_b64, strlen(pub_b64), pub, sizeof(pub)) != 64)
		abort();
	pk = p256_private(pub, sizeof(pub));
	ok(pk != NULL, "RFC 6605 P-256 private key loads");
	if (!pk)
		return;
	is_int(crypto_key_new(rd, mk_key(rd, 13, pub, 64), &key), 0,
	       "RFC 6605 P-256 public key parses");
	if (!key) {
		EVP_PKEY_free(pk);
		return;
	}
	/* r or s below 2^247, whose minimal DER INTEGER is shorter than 32
	 * octets (a leading zero octet stripped, none added back), comes
	 * once in 512 signatures; go on until both have been seen. */
	for (uint32_t i = 0; i < 50000 && (r_short < 1 || s_short < 1); i++) {
		memcpy(msg, &i, sizeof(i));
		memcpy(msg + 4, "dnst", 4);
		if (p256_sign(pk, msg, sizeof(msg), raw) < 0) {
			bad++;
			break;
		}
		signs++;
		r_short += raw[0] == 0 && raw[1] < 0x80;
		s_short += raw[32] == 0 && raw[33] < 0x80;
		r_high += (raw[0] & 0x80) != 0;
		if (crypto_verify(key, msg, sizeof(msg), raw, 64) != 0) {
			diag("signature %u failed: r[0]=%02x s[0]=%02x", i,
			     raw[0], raw[32]);
			bad++;
		}
	}
	is_int(bad, 0, "%d fresh P-256 signatures all verify", signs);
	ok(r_short >= 1 && s_short >= 1,
	   "... including %d with r and %d with s below 2^247", r_short,
	   s_short);
	ok(r_high > 0, "... and %d with the top bit of r set", r_high);

	memset(raw, 0, 32);
	is_int(crypto_verify(key, msg, sizeof(msg), raw, 64), DT_EBADSIG,
	       "ECDSA signature with r = 0 fails");
	memset(raw, 0xff, 64);
	is_int(crypto_verify(key, msg, sizeof(msg), raw, 64), DT_EBADSIG,
	       "ECDSA signature with r, s above the order fails");
	is_int(crypto_verify(key, msg, sizeof(msg), raw, 63), DT_EBADSIG,
	       "ECDSA signature of 63 octets fails");
	is_int(crypto_verify(key, msg, sizeof(msg), raw, 0), DT_EBADSIG,
	       "empty signature fails");
	crypto_key_free(key);
	EVP_PKEY_free(pk);
}

/* --- EdDSA gathering and several threads sharing one key --- */

struct shared {
	const struct crypto_key *key;
	struct signed_data sd;
	struct sig s;
};

static void *verify_loop(void *arg)
{
	struct shared *sh = arg;
	intptr_t bad = 0;

	for (int i = 0; i < 200; i++) {
		if (crypto_verifyv(sh->key, sh->sd.chunks, sh->sd.nchunks,
				   sh->s.sig, sh->s.siglen) != 0)
			bad++;
		if (crypto_verify(sh->key, sh->sd.buf, sh->sd.len - 1,
				  sh->s.sig, sh->s.siglen) != DT_EBADSIG)
			bad++;
	}
	return (void *)bad;
}

/* Loads the single RRSIG of a small vector with its key. */
static int load_single(const char *file, struct vec_recs *z, struct keyring *kr,
		       struct shared *sh)
{
	if (vec_recs_file(z, file) <= 0)
		return -1;
	keyring_load(kr, z, file);
	for (size_t i = 0; i < z->n; i++) {
		if (z->rr[i].type != WIRE_TYPE_RRSIG ||
		    sig_parse(&z->rr[i], &sh->s) < 0)
			continue;
		sh->key = keyring_find(kr, sh->s.signer, sh->s.tag, sh->s.alg);
		build_signed(z, &z->rr[i], &sh->s, &sh->sd);
		return sh->key ? 0 : -1;
	}
	return -1;
}

static void test_threads(void)
{
	static const char *files[] = {
		"rfc5702-section6.2-rsasha512.zone",
		"rfc6605-section6.2-ecdsap384sha384.zone",
		"rfc8080-section6.1-ed25519-example1.zone",
		"rfc8080-section6.2-ed448-example2.zone",
	};
	struct vec_recs z[4] = {0};
	struct keyring kr[4] = {0};
	struct shared sh[4] = {0};
	pthread_t th[8];
	intptr_t bad = 0;
	int started = 0;

	for (int i = 0; i < 4; i++)
		if (load_single(files[i], &z[i], &kr[i], &sh[i]) < 0)
			ok(0, "%s loads", files[i]);
	for (int i = 0; i < 8; i++) {
		if (!sh[i % 4].key)
			continue;
		if (pthread_create(&th[started], NULL, verify_loop,
				   &sh[i % 4]) == 0)
			started++;
	}
	for (int i = 0; i < started; i++) {
		void *ret;

		pthread_join(th[i], &ret);
		bad += (intptr_t)ret;
	}
	is_int(started, 8, "8 threads started, two per key");
	is_int(bad, 0, "threads sharing keys: every verdict right");

	/* EdDSA over chunks: empty chunks and a NULL one change nothing. */
	if (sh[2].key) {
		struct crypto_chunk c[4] = {
			{NULL, 0},
			{sh[2].sd.buf, 10},
			{sh[2].sd.buf + 10, 0},
			{sh[2].sd.buf + 10, sh[2].sd.len - 10},
		};
		is_int(crypto_verifyv(sh[2].key, c, 4, sh[2].s.sig,
				      sh[2].s.siglen),
		       0, "Ed25519 over split and empty chunks verifies");
		is_int(crypto_verifyv(sh[2].key, c, 3, sh[2].s.sig,
				      sh[2].s.siglen),
		       DT_EBADSIG, "Ed25519 over a prefix of the data fails");
		is_int(crypto_verify(sh[2].key, sh[2].sd.buf, sh[2].sd.len,
				     sh[2].s.sig, 63),
		       DT_EBADSIG, "Ed25519 signature of 63 octets fails");
	}
	for (int i = 0; i < 4; i++) {
		signed_free(&sh[i].sd);
		keyring_free(&kr[i]);
		vec_recs_free(&z[i]);
	}
}

/* crypto_warm_up(): a key of every supported algorithm imports (the
 * curve generators are points on their curves) and refuses a junk
 * signature. */
static void test_warm_up(void)
{
	unsigned supported = 0;

	for (unsigned alg = 1; alg < 256; alg++)
		supported += crypto_alg_supported((uint8_t)alg);
	is_int(crypto_warm_up(), supported,
	       "warm-up: every supported algorithm's key imported, and its "
	       "junk signature refused");
	is_int(supported, 8, "eight algorithms supported");
}

int main(void)
{
	test_warm_up();
	test_algorithms();
	test_vectors();
	test_rfc4034_ds();
	test_nsec3();
	test_malformed_keys();
	test_rsa_long_form();
	test_ecdsa_der();
	test_threads();
	return done_testing();
}
