/* SPDX-License-Identifier: MIT */
/*
 * Private to src/crypto: the algorithm descriptors and the layout of a
 * parsed key. No file outside src/crypto includes this (nor OpenSSL).
 */
#ifndef DT_CRYPTO_INTERNAL_H
#define DT_CRYPTO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

enum crypto_kind {
	CRYPTO_KIND_RSA = 1,   /* RFC 3110 key, PKCS #1 v1.5 signature */
	CRYPTO_KIND_ECDSA,     /* RFC 6605: raw X | Y key, raw r | s sig */
	CRYPTO_KIND_EDDSA,     /* RFC 8080: raw key and sig, one-shot only */
	CRYPTO_KIND_UNCHECKED, /* crypto_key_new_unchecked(): tests only */
};

/* How one supported algorithm maps onto OpenSSL. */
struct crypto_alg_desc {
	uint8_t alg;
	uint8_t kind;	     /* enum crypto_kind */
	uint8_t keylen;	     /* public key octets (ECDSA, EdDSA); 0: RSA */
	uint8_t siglen;	     /* signature octets (ECDSA, EdDSA); 0: RSA */
	uint16_t bits;	     /* key size (ECDSA, EdDSA); 0: RSA */
	const char *name;    /* IANA mnemonic */
	const char *keytype; /* OpenSSL key type name */
	const char *group;   /* EC group name, or NULL */
	const char *mdname;  /* digest name, or NULL for EdDSA */
};

/* The descriptor of a supported algorithm, or NULL. */
const struct crypto_alg_desc *crypto_alg_desc(uint8_t alg);

/*
 * A parsed DNSKEY: never changed after crypto_key_new() returns, so any
 * number of threads may verify with it at once (each verification makes
 * its own EVP_MD_CTX; EVP_PKEY is reference-counted and read-only here).
 * The struct and a copy of the DNSKEY RDATA are one allocation; the
 * EVP_PKEY and the template context are OpenSSL's.
 *
 * vtmpl (RSA and ECDSA): an EVP_MD_CTX on which EVP_DigestVerifyInit_ex()
 * was done once, with the key and its digest. A verification copies it
 * (EVP_MD_CTX_copy_ex() reads its source only, through a const pointer,
 * which openssl-threads(7) makes safe to share) instead of initialising a
 * context from scratch: that fetches the digest and the signature
 * algorithm by name and sets up the provider's context each time, about a
 * fifth of an RSA-2048 verification. NULL when the initialisation failed
 * (a policy forbidding SHA-1): verification then initialises each time
 * and reports the failure as before.
 */
struct crypto_key {
	const struct crypto_alg_desc *desc;
	EVP_PKEY *pkey;
	EVP_MD_CTX *vtmpl;
	uint16_t flags;
	uint16_t tag;
	uint16_t bits;	 /* modulus or curve size */
	uint16_t siglen; /* exact signature length in octets */
	uint16_t rdlen;
	uint8_t rdata[]; /* the DNSKEY RDATA, as given */
};

/* Writes md(a | b) to out, reusing ctx (digest.c). Either part may be
 * empty. Returns 0 or DT_ECRYPTO. */
int crypto_hash2(EVP_MD_CTX *ctx, const EVP_MD *md, const uint8_t *a,
		 size_t alen, const uint8_t *b, size_t blen, uint8_t *out);

#endif
