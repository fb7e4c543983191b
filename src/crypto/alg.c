/* SPDX-License-Identifier: MIT */
#include <stddef.h>

#include "crypto/alg.h"
#include "crypto/internal.h"

/* The single place where an algorithm is enabled; see alg.h for why each
 * is here. Key and signature octets: RFC 6605 §4, RFC 8080 §3; key bits as
 * RFC 8624 §3.1 and DNSViz report them (Ed448: 456). */
static const struct crypto_alg_desc crypto_algs[] = {
	{
		.alg = CRYPTO_ALG_RSASHA1,
		.kind = CRYPTO_KIND_RSA,
		.name = "RSASHA1",
		.keytype = "RSA",
		.mdname = "SHA1",
	},
	{
		.alg = CRYPTO_ALG_RSASHA1_NSEC3_SHA1,
		.kind = CRYPTO_KIND_RSA,
		.name = "RSASHA1-NSEC3-SHA1",
		.keytype = "RSA",
		.mdname = "SHA1",
	},
	{
		.alg = CRYPTO_ALG_RSASHA256,
		.kind = CRYPTO_KIND_RSA,
		.name = "RSASHA256",
		.keytype = "RSA",
		.mdname = "SHA256",
	},
	{
		.alg = CRYPTO_ALG_RSASHA512,
		.kind = CRYPTO_KIND_RSA,
		.name = "RSASHA512",
		.keytype = "RSA",
		.mdname = "SHA512",
	},
	{
		.alg = CRYPTO_ALG_ECDSAP256SHA256,
		.kind = CRYPTO_KIND_ECDSA,
		.keylen = 64,
		.siglen = 64,
		.bits = 256,
		.name = "ECDSAP256SHA256",
		.keytype = "EC",
		.group = "P-256",
		.mdname = "SHA256",
	},
	{
		.alg = CRYPTO_ALG_ECDSAP384SHA384,
		.kind = CRYPTO_KIND_ECDSA,
		.keylen = 96,
		.siglen = 96,
		.bits = 384,
		.name = "ECDSAP384SHA384",
		.keytype = "EC",
		.group = "P-384",
		.mdname = "SHA384",
	},
	{
		.alg = CRYPTO_ALG_ED25519,
		.kind = CRYPTO_KIND_EDDSA,
		.keylen = 32,
		.siglen = 64,
		.bits = 256,
		.name = "ED25519",
		.keytype = "ED25519",
	},
	{
		.alg = CRYPTO_ALG_ED448,
		.kind = CRYPTO_KIND_EDDSA,
		.keylen = 57,
		.siglen = 114,
		.bits = 456,
		.name = "ED448",
		.keytype = "ED448",
	},
};

/* Mnemonics of algorithms we know of but do not implement. */
static const struct {
	uint8_t alg;
	const char *name;
} crypto_alg_other[] = {
	{CRYPTO_ALG_RSAMD5, "RSAMD5"},
	{CRYPTO_ALG_DSA, "DSA"},
	{CRYPTO_ALG_DSA_NSEC3_SHA1, "DSA-NSEC3-SHA1"},
	{CRYPTO_ALG_ECC_GOST, "ECC-GOST"},
	{CRYPTO_ALG_PRIVATEDNS, "PRIVATEDNS"},
	{CRYPTO_ALG_PRIVATEOID, "PRIVATEOID"},
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct crypto_alg_desc *crypto_alg_desc(uint8_t alg)
{
	for (size_t i = 0; i < ARRAY_SIZE(crypto_algs); i++)
		if (crypto_algs[i].alg == alg)
			return &crypto_algs[i];
	return NULL;
}

bool crypto_alg_supported(uint8_t alg)
{
	return crypto_alg_desc(alg) != NULL;
}

const char *crypto_alg_name(uint8_t alg)
{
	const struct crypto_alg_desc *d = crypto_alg_desc(alg);

	if (d)
		return d->name;
	for (size_t i = 0; i < ARRAY_SIZE(crypto_alg_other); i++)
		if (crypto_alg_other[i].alg == alg)
			return crypto_alg_other[i].name;
	return "unknown";
}

unsigned crypto_ds_digest_len(uint8_t type)
{
	switch (type) {
	case CRYPTO_DS_SHA1: return 20;
	case CRYPTO_DS_SHA256: return 32;
	case CRYPTO_DS_SHA384: return 48;
	default: return 0;
	}
}

bool crypto_ds_digest_supported(uint8_t type)
{
	return crypto_ds_digest_len(type) != 0;
}
