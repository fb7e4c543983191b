/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "crypto/internal.h"
#include "crypto/verify.h"

/* DER of ECDSA-Sig-Value (RFC 3279 §2.2.3) for 48-octet r and s:
 * SEQUENCE header 2 + two INTEGERs of at most 2 + 1 + 48. Below 128, so
 * every length fits in one octet. */
#define ECDSA_DER_MAXLEN (2 + 2 * (2 + 1 + 48))

/* Writes one unsigned big-endian number as a minimal DER INTEGER. */
static size_t der_uint(uint8_t *out, const uint8_t *v, size_t len)
{
	size_t pad;

	while (len > 1 && v[0] == 0) {
		v++;
		len--;
	}
	pad = (v[0] & 0x80) ? 1 : 0;
	out[0] = 0x02;
	out[1] = (uint8_t)(len + pad);
	out[2] = 0; /* the pad, or overwritten by v */
	memcpy(out + 2 + pad, v, len);
	return 2 + pad + len;
}

/* RFC 6605 §4: r | s, each half of the signature, to DER for OpenSSL. */
static size_t ecdsa_sig_to_der(const uint8_t *sig, size_t siglen,
			       uint8_t out[ECDSA_DER_MAXLEN])
{
	size_t half = siglen / 2, n;

	n = der_uint(out + 2, sig, half);
	n += der_uint(out + 2 + n, sig + half, half);
	out[0] = 0x30;
	out[1] = (uint8_t)n;
	return 2 + n;
}

/* OpenSSL's verdict to ours. Anything but a clean "no" is not about the
 * data; the error queue is cleared so that it never grows. */
static int verdict(int ok)
{
	if (ok == 1)
		return 0;
	ERR_clear_error();
	return ok == 0 ? DT_EBADSIG : DT_ECRYPTO;
}

/* RSA and ECDSA: hash the chunks as they come, then check. The context
 * is a copy of the key's template when it has one (see internal.h). */
static int verify_stream(const struct crypto_key *key,
			 const struct crypto_chunk *chunks, size_t n,
			 const uint8_t *sig, size_t siglen)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = -1;

	if (!ctx)
		return -ENOMEM;
	if (key->vtmpl ? EVP_MD_CTX_copy_ex(ctx, key->vtmpl) != 1
		       : EVP_DigestVerifyInit_ex(ctx, NULL, key->desc->mdname,
						 NULL, NULL, key->pkey,
						 NULL) != 1)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (chunks[i].len && EVP_DigestVerifyUpdate(ctx, chunks[i].data,
							    chunks[i].len) != 1)
			goto out;
	ok = EVP_DigestVerifyFinal(ctx, sig, siglen);
out:
	EVP_MD_CTX_free(ctx);
	return verdict(ok);
}

/* Total length of the chunks, or DT_ELIMIT beyond the EdDSA cap. */
static int chunks_len(const struct crypto_chunk *chunks, size_t n,
		      size_t *ret_len)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		if (chunks[i].len > DT_EDDSA_DATA_MAXLEN - total)
			return DT_ELIMIT;
		total += chunks[i].len;
	}
	*ret_len = total;
	return 0;
}

static int verify_eddsa(const struct crypto_key *key, const uint8_t *data,
			size_t len, const uint8_t *sig, size_t siglen)
{
	static const uint8_t empty[1];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = -1;

	if (!ctx)
		return -ENOMEM;
	if (EVP_DigestVerifyInit_ex(ctx, NULL, NULL, NULL, NULL, key->pkey,
				    NULL) == 1)
		ok = EVP_DigestVerify(ctx, sig, siglen, data ? data : empty,
				      len);
	EVP_MD_CTX_free(ctx);
	return verdict(ok);
}

/* EdDSA: OpenSSL 3.0 verifies in one shot only, so gather the chunks. */
static int verify_eddsa_chunks(const struct crypto_key *key,
			       const struct crypto_chunk *chunks, size_t n,
			       const uint8_t *sig, size_t siglen)
{
	uint8_t *buf, *p;
	size_t total;
	int r;

	r = chunks_len(chunks, n, &total);
	if (r < 0)
		return r;
	if (n == 1)
		return verify_eddsa(key, chunks[0].data, total, sig, siglen);
	buf = malloc(total ? total : 1);
	if (!buf)
		return -ENOMEM;
	p = buf;
	for (size_t i = 0; i < n; i++) {
		if (chunks[i].len)
			memcpy(p, chunks[i].data, chunks[i].len);
		p += chunks[i].len;
	}
	r = verify_eddsa(key, buf, total, sig, siglen);
	free(buf);
	return r;
}

int crypto_verifyv(const struct crypto_key *key,
		   const struct crypto_chunk *chunks, size_t n,
		   const uint8_t *sig, size_t siglen)
{
	uint8_t der[ECDSA_DER_MAXLEN];
	size_t derlen;

	if (key->desc->kind == CRYPTO_KIND_UNCHECKED)
		return DT_EUNSUPPORTED;
	if (siglen != key->siglen)
		return DT_EBADSIG;
	switch (key->desc->kind) {
	case CRYPTO_KIND_RSA: return verify_stream(key, chunks, n, sig, siglen);
	case CRYPTO_KIND_ECDSA:
		derlen = ecdsa_sig_to_der(sig, siglen, der);
		return verify_stream(key, chunks, n, der, derlen);
	default: return verify_eddsa_chunks(key, chunks, n, sig, siglen);
	}
}

int crypto_verify(const struct crypto_key *key, const uint8_t *data, size_t len,
		  const uint8_t *sig, size_t siglen)
{
	struct crypto_chunk chunk = {data, len};

	return crypto_verifyv(key, &chunk, 1, sig, siglen);
}
