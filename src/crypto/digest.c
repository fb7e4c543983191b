/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "common/errcode.h"
#include "crypto/internal.h"
#include "crypto/verify.h"

int crypto_hash2(EVP_MD_CTX *ctx, const EVP_MD *md, const uint8_t *a,
		 size_t alen, const uint8_t *b, size_t blen, uint8_t *out)
{
	if (EVP_DigestInit_ex2(ctx, md, NULL) == 1 &&
	    (alen == 0 || EVP_DigestUpdate(ctx, a, alen) == 1) &&
	    (blen == 0 || EVP_DigestUpdate(ctx, b, blen) == 1) &&
	    EVP_DigestFinal_ex(ctx, out, NULL) == 1)
		return 0;
	ERR_clear_error();
	return DT_ECRYPTO;
}

int crypto_sha256v(const struct crypto_chunk *chunks, size_t n,
		   uint8_t out[CRYPTO_SHA256_LEN])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t h[EVP_MAX_MD_SIZE];
	int ok;

	if (!ctx)
		return -ENOMEM;
	ok = EVP_DigestInit_ex2(ctx, EVP_sha256(), NULL) == 1;
	for (size_t i = 0; ok && i < n; i++)
		ok = !chunks[i].len ||
		     EVP_DigestUpdate(ctx, chunks[i].data, chunks[i].len) == 1;
	ok = ok && EVP_DigestFinal_ex(ctx, h, NULL) == 1;
	EVP_MD_CTX_free(ctx);
	if (!ok) {
		ERR_clear_error();
		return DT_ECRYPTO;
	}
	memcpy(out, h, CRYPTO_SHA256_LEN);
	return 0;
}
