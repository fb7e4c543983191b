/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD helper for tests/cli/verify_attacks.sh: counts the signature
 * verifications a process asks OpenSSL for, so that a test sees the work
 * an attack really caused rather than what the validator says it did.
 *
 * Interposes EVP_DigestVerifyFinal (RSA, ECDSA) and EVP_DigestVerify
 * (EdDSA, one shot), and EVP_DigestInit_ex2 / EVP_DigestInit_ex to count
 * SHA-1 digests started (NSEC3 hashing: iterations + 1 per name), passes
 * each call on to libcrypto, and at exit writes "verify N" and "sha1 N"
 * to the file named by DT_COUNT_FILE. A call made from inside a counted
 * verification (EVP_DigestVerify may finish with EVP_DigestVerifyFinal,
 * and digests inside it are the signature's) is not counted again.
 * Single-threaded use only.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>

typedef int (*final_fn)(EVP_MD_CTX *, const unsigned char *, size_t);
typedef int (*oneshot_fn)(EVP_MD_CTX *, const unsigned char *, size_t,
			  const unsigned char *, size_t);
typedef int (*init2_fn)(EVP_MD_CTX *, const EVP_MD *, const OSSL_PARAM *);
typedef int (*init_fn)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);

static unsigned long count, sha1;
static int depth;

static void *next_symbol(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p) {
		fprintf(stderr, "count_verify: %s not found\n", name);
		abort();
	}
	return p;
}

int EVP_DigestVerifyFinal(EVP_MD_CTX *ctx, const unsigned char *sig,
			  size_t siglen)
{
	static final_fn real;
	int r;

	if (!real)
		*(void **)&real = next_symbol("EVP_DigestVerifyFinal");
	if (depth++ == 0)
		count++;
	r = real(ctx, sig, siglen);
	depth--;
	return r;
}

int EVP_DigestVerify(EVP_MD_CTX *ctx, const unsigned char *sig, size_t siglen,
		     const unsigned char *tbs, size_t tbslen)
{
	static oneshot_fn real;
	int r;

	if (!real)
		*(void **)&real = next_symbol("EVP_DigestVerify");
	if (depth++ == 0)
		count++;
	r = real(ctx, sig, siglen, tbs, tbslen);
	depth--;
	return r;
}

static void count_sha1(const EVP_MD *type)
{
	if (depth == 0 && type && EVP_MD_is_a(type, "SHA1"))
		sha1++;
}

int EVP_DigestInit_ex2(EVP_MD_CTX *ctx, const EVP_MD *type,
		       const OSSL_PARAM params[])
{
	static init2_fn real;

	if (!real)
		*(void **)&real = next_symbol("EVP_DigestInit_ex2");
	count_sha1(type);
	return real(ctx, type, params);
}

int EVP_DigestInit_ex(EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl)
{
	static init_fn real;

	if (!real)
		*(void **)&real = next_symbol("EVP_DigestInit_ex");
	count_sha1(type);
	return real(ctx, type, impl);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("DT_COUNT_FILE");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "verify %lu\nsha1 %lu\n", count, sha1);
	fclose(f);
}
