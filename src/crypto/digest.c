/* SPDX-License-Identifier: MIT */
#include <openssl/err.h>
#include <openssl/evp.h>

#include "common/errcode.h"
#include "crypto/internal.h"

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
