/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <string.h>

#include <openssl/crypto.h>

#include "crypto/alg.h"
#include "common/limits.h"
#include "crypto/ds.h"
#include "crypto/internal.h"
#include "crypto/key.h"
#include "crypto/verify.h"

/*
 * One public key per algorithm kind, made of well-known values: the
 * generator of each NIST curve (a point on the curve, the public key of
 * the private key 1), the encoded Ed25519 base point, any Ed448 octets
 * (decoded only when a signature is checked) and an odd 2048-bit RSA
 * modulus with exponent 65537 (RSA verification never checks that the
 * modulus is a product of primes). No signature of this data verifies
 * under them: the point is only to go through OpenSSL's paths once.
 */
static const uint8_t p256_g[64] = {
	0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6,
	0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb,
	0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96, 0x4f,
	0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a,
	0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e,
	0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
};

static const uint8_t p384_g[96] = {
	0xaa, 0x87, 0xca, 0x22, 0xbe, 0x8b, 0x05, 0x37, 0x8e, 0xb1, 0xc7,
	0x1e, 0xf3, 0x20, 0xad, 0x74, 0x6e, 0x1d, 0x3b, 0x62, 0x8b, 0xa7,
	0x9b, 0x98, 0x59, 0xf7, 0x41, 0xe0, 0x82, 0x54, 0x2a, 0x38, 0x55,
	0x02, 0xf2, 0x5d, 0xbf, 0x55, 0x29, 0x6c, 0x3a, 0x54, 0x5e, 0x38,
	0x72, 0x76, 0x0a, 0xb7, 0x36, 0x17, 0xde, 0x4a, 0x96, 0x26, 0x2c,
	0x6f, 0x5d, 0x9e, 0x98, 0xbf, 0x92, 0x92, 0xdc, 0x29, 0xf8, 0xf4,
	0x1d, 0xbd, 0x28, 0x9a, 0x14, 0x7c, 0xe9, 0xda, 0x31, 0x13, 0xb5,
	0xf0, 0xb8, 0xc0, 0x0a, 0x60, 0xb1, 0xce, 0x1d, 0x7e, 0x81, 0x9d,
	0x7a, 0x43, 0x1d, 0x7c, 0x90, 0xea, 0x0e, 0x5f,
};

/* The DNSKEY RDATA of the warm-up key of alg into buf; its length, or 0
 * for an algorithm without one. */
static size_t warm_key(uint8_t alg, uint8_t *buf)
{
	const struct crypto_alg_desc *d = crypto_alg_desc(alg);
	size_t len = 4;

	if (!d)
		return 0;
	buf[0] = 0x01; /* flags 256: a zone key */
	buf[1] = 0x00;
	buf[2] = 3;
	buf[3] = alg;
	switch (d->kind) {
	case CRYPTO_KIND_RSA:
		buf[len++] = 3;
		buf[len++] = 0x01;
		buf[len++] = 0x00;
		buf[len++] = 0x01;
		memset(buf + len, 0xc5, 256);
		len += 256;
		break;
	case CRYPTO_KIND_ECDSA:
		memcpy(buf + len, d->keylen == 64 ? p256_g : p384_g,
		       d->keylen);
		len += d->keylen;
		break;
	case CRYPTO_KIND_EDDSA:
		memset(buf + len, 0x66, d->keylen);
		buf[len] = 0x58;
		len += d->keylen;
		break;
	default:
		return 0;
	}
	return len;
}

bool crypto_warm_alg(uint8_t alg)
{
	static const uint8_t data[] = "dnstrust warm-up";
	uint8_t rdata[4 + 4 + 256], sig[512];
	size_t len = warm_key(alg, rdata), siglen;
	struct crypto_key *key;
	bool refused;

	if (!len || crypto_key_new(rdata, len, &key) != 0)
		return false;
	memset(sig, 0x01, sizeof(sig));
	siglen = key->siglen ? key->siglen : 256;
	/* Fails: no signature verifies; only the path matters. */
	refused = crypto_verify(key, data, sizeof(data), sig, siglen) != 0;
	crypto_key_free(key);
	return refused;
}

void crypto_warm_init(void)
{
	/* What the first use of libcrypto does anyway (its configuration
	 * file read), done now. */
	(void)OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL);
}

void crypto_warm_digests(void)
{
	static const uint8_t root[1] = {0}, rdata[4] = {1, 1, 3, 8};
	static const uint8_t types[] = {CRYPTO_DS_SHA256, CRYPTO_DS_SHA1,
					CRYPTO_DS_SHA384};
	uint8_t out[DT_DS_DIGEST_MAXLEN];

	/* A failure here is met again, and reported, where it matters. */
	for (size_t i = 0; i < sizeof(types); i++)
		if (crypto_ds_digest(root, rdata, sizeof(rdata), types[i], out,
				     sizeof(out)) < 0)
			continue;
}

unsigned crypto_warm_up(void)
{
	unsigned n = 0;

	crypto_warm_init();
	crypto_warm_digests();
	for (unsigned alg = 1; alg < 256; alg++)
		n += crypto_warm_alg((uint8_t)alg);
	return n;
}
