/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "crypto/internal.h"
#include "crypto/key.h"
#include "wire/bytes.h"
#include "wire/rr.h"

/* DNSKEY RDATA: flags (2), protocol (1), algorithm (1), public key. */
#define DNSKEY_HDRLEN	4
#define DNSKEY_PROTOCOL 3

/* An RFC 3110 public key cut into its two numbers. */
struct rsa_pub {
	const uint8_t *e;
	size_t elen;
	const uint8_t *n; /* leading zero octets skipped */
	size_t nlen;
};

/* Imports parameters as a public key of the given OpenSSL type. */
static int pkey_fromdata(const char *type, OSSL_PARAM *params,
			 EVP_PKEY **ret_pkey)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	EVP_PKEY *pkey = NULL;
	int ok;

	if (!ctx)
		return DT_ECRYPTO;
	ok = EVP_PKEY_fromdata_init(ctx) == 1 &&
	     EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1;
	EVP_PKEY_CTX_free(ctx);
	if (!ok)
		return DT_EKEY;
	*ret_pkey = pkey;
	return 0;
}

/* Splits RFC 3110 key data: exponent length (1 octet, or 0 and 2 octets),
 * exponent, modulus. */
static int rsa_split(const uint8_t *p, size_t len, struct rsa_pub *ret)
{
	size_t hdr = 1, elen;

	if (len < 1)
		return DT_EKEY;
	elen = p[0];
	if (elen == 0) {
		if (len < 3)
			return DT_EKEY;
		elen = wire_get16(p + 1);
		hdr = 3;
	}
	if (elen == 0 || elen >= len - hdr)
		return DT_EKEY; /* no exponent, or nothing left for n */
	ret->e = p + hdr;
	ret->elen = elen;
	ret->n = p + hdr + elen;
	ret->nlen = len - hdr - elen;
	while (ret->nlen > 0 && ret->n[0] == 0) {
		ret->n++;
		ret->nlen--;
	}
	return 0;
}

static unsigned rsa_bits(const struct rsa_pub *pub)
{
	unsigned top = pub->n[0], bits = 0;

	while (top) {
		bits++;
		top >>= 1;
	}
	return (unsigned)(pub->nlen - 1) * 8 + bits;
}

/* Sanity of the numbers before OpenSSL sees them: RFC 3110 forbids
 * leading zeros; an even modulus or exponent, or e = 1, is no RSA key. */
static int rsa_check(const struct rsa_pub *pub)
{
	unsigned bits;

	if (pub->e[0] == 0 || pub->nlen == 0)
		return DT_EKEY;
	if (pub->elen > DT_RSA_EXP_MAXLEN)
		return DT_EKEYSIZE;
	if (!(pub->e[pub->elen - 1] & 1) || (pub->elen == 1 && pub->e[0] == 1))
		return DT_EKEY;
	if (!(pub->n[pub->nlen - 1] & 1))
		return DT_EKEY;
	bits = rsa_bits(pub);
	if (bits < DT_RSA_MIN_BITS || bits > DT_RSA_MAX_BITS)
		return DT_EKEYSIZE;
	return 0;
}

static int rsa_import(const struct rsa_pub *pub, EVP_PKEY **ret_pkey)
{
	BIGNUM *n = BN_bin2bn(pub->n, (int)pub->nlen, NULL);
	BIGNUM *e = BN_bin2bn(pub->e, (int)pub->elen, NULL);
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	int r = DT_ECRYPTO;

	if (n && e && bld &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		params = OSSL_PARAM_BLD_to_param(bld);
	if (params)
		r = pkey_fromdata("RSA", params, ret_pkey);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(e);
	BN_free(n);
	return r;
}

static int key_rsa(struct crypto_key *key, const uint8_t *p, size_t len)
{
	struct rsa_pub pub;
	int r;

	r = rsa_split(p, len, &pub);
	if (r == 0)
		r = rsa_check(&pub);
	if (r == 0)
		r = rsa_import(&pub, &key->pkey);
	if (r < 0)
		return r;
	key->bits = (uint16_t)rsa_bits(&pub);
	key->siglen = (uint16_t)pub.nlen;
	return 0;
}

/* RFC 6605 §4: the key is X | Y; OpenSSL wants the SEC 1 uncompressed
 * point 0x04 | X | Y, and refuses a point not on the curve. */
static int key_ecdsa(struct crypto_key *key, const uint8_t *p, size_t len)
{
	const struct crypto_alg_desc *d = key->desc;
	uint8_t point[1 + 96];
	OSSL_PARAM params[3];

	if (len != d->keylen)
		return DT_EKEY;
	point[0] = 0x04;
	memcpy(point + 1, p, len);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						     (char *)d->group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
						      point, 1 + len);
	params[2] = OSSL_PARAM_construct_end();
	key->bits = d->bits;
	key->siglen = d->siglen;
	return pkey_fromdata(d->keytype, params, &key->pkey);
}

/* RFC 8080 §3: the raw public key. Its decoding as a point is left to
 * verification time, where a bad point just fails to verify. */
static int key_eddsa(struct crypto_key *key, const uint8_t *p, size_t len)
{
	const struct crypto_alg_desc *d = key->desc;

	if (len != d->keylen)
		return DT_EKEY;
	key->pkey =
		EVP_PKEY_new_raw_public_key_ex(NULL, d->keytype, NULL, p, len);
	if (!key->pkey)
		return DT_ECRYPTO;
	key->bits = d->bits;
	key->siglen = d->siglen;
	return 0;
}

/* The verification template of RSA and ECDSA keys (see internal.h).
 * Returns 0 (also when OpenSSL refuses: vtmpl stays NULL) or -ENOMEM. */
static int key_template(struct crypto_key *key)
{
	if (key->desc->kind == CRYPTO_KIND_EDDSA)
		return 0;
	key->vtmpl = EVP_MD_CTX_new();
	if (!key->vtmpl)
		return -ENOMEM;
	if (EVP_DigestVerifyInit_ex(key->vtmpl, NULL, key->desc->mdname, NULL,
				    NULL, key->pkey, NULL) != 1) {
		ERR_clear_error();
		EVP_MD_CTX_free(key->vtmpl);
		key->vtmpl = NULL;
	}
	return 0;
}

static int key_import(struct crypto_key *key)
{
	const uint8_t *p = key->rdata + DNSKEY_HDRLEN;
	size_t len = key->rdlen - DNSKEY_HDRLEN;

	switch (key->desc->kind) {
	case CRYPTO_KIND_RSA: return key_rsa(key, p, len);
	case CRYPTO_KIND_ECDSA: return key_ecdsa(key, p, len);
	default: return key_eddsa(key, p, len);
	}
}

/* The checks every DNSKEY RDATA passes before its algorithm is looked
 * at: length and protocol. */
static int key_header(const uint8_t *rdata, size_t rdlen)
{
	if (rdlen < DNSKEY_HDRLEN)
		return DT_ETRUNC;
	if (rdlen > DT_RDATA_MAXLEN)
		return DT_ERDATA;
	if (rdata[2] != DNSKEY_PROTOCOL)
		return DT_EKEY;
	return 0;
}

/* A key object holding a copy of rdata, its flags and tag, of desc's
 * algorithm; nothing imported yet. NULL when out of memory. */
static struct crypto_key *key_alloc(const uint8_t *rdata, size_t rdlen,
				    const struct crypto_alg_desc *desc)
{
	struct crypto_key *key = calloc(1, sizeof(*key) + rdlen);

	if (!key)
		return NULL;
	key->desc = desc;
	key->flags = wire_get16(rdata);
	key->tag = wire_keytag(rdata, rdlen);
	key->rdlen = (uint16_t)rdlen;
	memcpy(key->rdata, rdata, rdlen);
	return key;
}

int crypto_key_new(const uint8_t *rdata, size_t rdlen,
		   struct crypto_key **ret_key)
{
	const struct crypto_alg_desc *desc;
	struct crypto_key *key;
	int r;

	if ((r = key_header(rdata, rdlen)) < 0)
		return r;
	desc = crypto_alg_desc(rdata[3]);
	if (!desc)
		return DT_EUNSUPPORTED;
	if (!(key = key_alloc(rdata, rdlen, desc)))
		return -ENOMEM;
	r = key_import(key);
	if (r == 0)
		r = key_template(key);
	if (r < 0) {
		ERR_clear_error();
		EVP_PKEY_free(key->pkey);
		free(key);
		return r;
	}
	*ret_key = key;
	return 0;
}

/* Descriptors of the keys of crypto_key_new_unchecked(): no kind the
 * verifier knows. */
static const struct crypto_alg_desc unchecked_desc[] = {
	{.alg = 3, .kind = CRYPTO_KIND_UNCHECKED, .name = "DSA"},
	{.alg = 5, .kind = CRYPTO_KIND_UNCHECKED, .name = "RSASHA1"},
	{.alg = 6, .kind = CRYPTO_KIND_UNCHECKED, .name = "DSA-NSEC3-SHA1"},
	{.alg = 7, .kind = CRYPTO_KIND_UNCHECKED, .name = "RSASHA1-NSEC3-SHA1"},
};

#define UNCHECKED_N (sizeof(unchecked_desc) / sizeof(unchecked_desc[0]))

bool crypto_alg_fakeable(uint8_t alg)
{
	return alg == 3 || alg == 5 || alg == 6 || alg == 7;
}

int crypto_key_new_unchecked(const uint8_t *rdata, size_t rdlen,
			     struct crypto_key **ret_key)
{
	const struct crypto_alg_desc *desc = NULL;
	struct crypto_key *key;
	int r;

	if ((r = key_header(rdata, rdlen)) < 0)
		return r;
	if (!crypto_alg_fakeable(rdata[3]))
		return DT_EUNSUPPORTED;
	for (size_t i = 0; i < UNCHECKED_N; i++)
		if (unchecked_desc[i].alg == rdata[3])
			desc = &unchecked_desc[i];
	if (!(key = key_alloc(rdata, rdlen, desc)))
		return -ENOMEM;
	*ret_key = key;
	return 0;
}

void crypto_key_free(struct crypto_key *key)
{
	if (!key)
		return;
	EVP_MD_CTX_free(key->vtmpl);
	EVP_PKEY_free(key->pkey);
	free(key);
}

uint16_t crypto_key_tag(const struct crypto_key *key)
{
	return key->tag;
}

uint8_t crypto_key_alg(const struct crypto_key *key)
{
	return key->desc->alg;
}

uint16_t crypto_key_flags(const struct crypto_key *key)
{
	return key->flags;
}

unsigned crypto_key_bits(const struct crypto_key *key)
{
	return key->bits;
}

const uint8_t *crypto_key_rdata(const struct crypto_key *key, size_t *ret_len)
{
	*ret_len = key->rdlen;
	return key->rdata;
}
