/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <openssl/evp.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "crypto/alg.h"
#include "crypto/ds.h"
#include "crypto/internal.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/rr.h"

/* DS RDATA: key tag (2), algorithm (1), digest type (1), digest. */
#define DS_HDRLEN     4
#define DNSKEY_HDRLEN 4

static const char *ds_mdname(uint8_t type)
{
	switch (type) {
	case CRYPTO_DS_SHA1: return "SHA1";
	case CRYPTO_DS_SHA256: return "SHA256";
	case CRYPTO_DS_SHA384: return "SHA384";
	default: return NULL;
	}
}

int crypto_ds_digest(const uint8_t *owner, const uint8_t *rdata, size_t rdlen,
		     uint8_t digest_type, uint8_t *out, size_t outcap)
{
	const char *mdname = ds_mdname(digest_type);
	unsigned len = crypto_ds_digest_len(digest_type);
	uint8_t digest[EVP_MAX_MD_SIZE];
	wire_dname_storage_t lname;
	size_t namelen;
	EVP_MD_CTX *ctx;
	EVP_MD *md;
	int r = DT_ECRYPTO;

	if (!mdname || !len)
		return DT_EUNSUPPORTED;
	if (outcap < len)
		return DT_ESPACE;
	namelen = wire_dname_copy(lname, owner);
	wire_dname_tolower(lname);

	md = EVP_MD_fetch(NULL, mdname, NULL);
	ctx = EVP_MD_CTX_new();
	if (md && ctx)
		r = crypto_hash2(ctx, md, lname, namelen, rdata, rdlen, digest);
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	if (r < 0)
		return r;
	memcpy(out, digest, len);
	return (int)len;
}

int crypto_ds_match(const uint8_t *owner, const uint8_t *dnskey,
		    size_t dnskey_len, const uint8_t *ds, size_t ds_len)
{
	uint8_t digest[DT_DS_DIGEST_MAXLEN];
	unsigned len;
	int r;

	if (dnskey_len < DNSKEY_HDRLEN || ds_len < DS_HDRLEN)
		return DT_ETRUNC;
	len = crypto_ds_digest_len(ds[3]);
	if (!len)
		return DT_EUNSUPPORTED;
	if (wire_get16(ds) != wire_keytag(dnskey, dnskey_len) ||
	    ds[2] != dnskey[3] || ds_len - DS_HDRLEN != len)
		return 0;
	r = crypto_ds_digest(owner, dnskey, dnskey_len, ds[3], digest,
			     sizeof(digest));
	if (r < 0)
		return r;
	return memcmp(digest, ds + DS_HDRLEN, len) == 0;
}
