/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <openssl/evp.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "crypto/internal.h"
#include "crypto/nsec3.h"
#include "wire/dname.h"

/* RFC 5155 §3.2: the salt length is one octet. */
#define NSEC3_SALT_MAXLEN 255

/* SHA-1 blocks for a message of n octets: the padding adds one 0x80 octet
 * and an 8-octet length, rounded up to 64 octets. */
static uint64_t sha1_blocks(size_t n)
{
	return (uint64_t)(n + 8) / 64 + 1;
}

uint64_t crypto_nsec3_cost(unsigned iterations, size_t saltlen, size_t namelen)
{
	return sha1_blocks(namelen + saltlen) +
	       (uint64_t)iterations *
		       sha1_blocks(CRYPTO_NSEC3_HASHLEN + saltlen);
}

static int nsec3_iterate(EVP_MD_CTX *ctx, const EVP_MD *md, const uint8_t *name,
			 size_t namelen, unsigned iterations,
			 const uint8_t *salt, size_t saltlen,
			 uint8_t out[CRYPTO_NSEC3_HASHLEN])
{
	uint8_t h[EVP_MAX_MD_SIZE];
	int r;

	r = crypto_hash2(ctx, md, name, namelen, salt, saltlen, h);
	for (unsigned i = 0; r == 0 && i < iterations; i++)
		r = crypto_hash2(ctx, md, h, CRYPTO_NSEC3_HASHLEN, salt,
				 saltlen, h);
	if (r == 0)
		memcpy(out, h, CRYPTO_NSEC3_HASHLEN);
	return r;
}

int crypto_nsec3_hash(const uint8_t *name, uint8_t hash_alg,
		      unsigned iterations, const uint8_t *salt, size_t saltlen,
		      uint8_t out[CRYPTO_NSEC3_HASHLEN])
{
	wire_dname_storage_t lname;
	size_t namelen;
	EVP_MD_CTX *ctx;
	EVP_MD *md;
	int r = DT_ECRYPTO;

	if (hash_alg != CRYPTO_NSEC3_SHA1)
		return DT_EUNSUPPORTED;
	if (iterations > DT_NSEC3_MAX_ITERATIONS)
		return DT_ELIMIT;
	if (saltlen > NSEC3_SALT_MAXLEN)
		return DT_ERANGE;
	namelen = wire_dname_copy(lname, name);
	wire_dname_tolower(lname);

	md = EVP_MD_fetch(NULL, "SHA1", NULL);
	ctx = EVP_MD_CTX_new();
	if (md && ctx)
		r = nsec3_iterate(ctx, md, lname, namelen, iterations, salt,
				  saltlen, out);
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	if (r < 0)
		return r;
	return (int)crypto_nsec3_cost(iterations, saltlen, namelen);
}
