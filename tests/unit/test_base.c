/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "common/errcode.h"
#include "tap.h"
#include "wire/base.h"

typedef int (*enc_fn)(const uint8_t *, size_t, char *, size_t);
typedef int (*dec_fn)(const char *, size_t, uint8_t *, size_t);

static void vector(const char *what, enc_fn enc, dec_fn dec, const char *bin,
		   const char *text)
{
	char out[128];
	uint8_t back[128];
	size_t blen = strlen(bin), tlen = strlen(text);

	is_int(enc((const uint8_t *)bin, blen, out, sizeof(out)), tlen,
	       "%s encode \"%s\" length", what, bin);
	is_str(out, text, "%s encode \"%s\"", what, bin);
	is_int(dec(text, tlen, back, sizeof(back)), blen, "%s decode \"%s\"",
	       what, text);
	ok(memcmp(back, bin, blen) == 0, "%s decode \"%s\" content", what,
	   text);
}

/* RFC 4648 §10 test vectors. */
static void test_vectors(void)
{
	static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba",
					 "foobar"};
	static const char *const b64[] = {"",	  "Zg==",     "Zm8=",
					  "Zm9v", "Zm9vYg==", "Zm9vYmE=",
					  "Zm9vYmFy"};
	/* base32hex without padding, lowercase (RFC 5155 presentation). */
	static const char *const b32[] = {"",	   "co",       "cpng",
					  "cpnmu", "cpnmuog",  "cpnmuoj1",
					  "cpnmuoj1e8"};
	static const char *const hex[] = {"",	      "66",	    "666f",
					  "666f6f",   "666f6f62",   "666f6f6261",
					  "666f6f626172"};

	for (int i = 0; i < 7; i++) {
		vector("base64", wire_b64_encode, wire_b64_decode, in[i],
		       b64[i]);
		vector("base32hex", wire_b32hex_encode, wire_b32hex_decode,
		       in[i], b32[i]);
		vector("hex", wire_hex_encode, wire_hex_decode, in[i], hex[i]);
	}
	char out[32];
	wire_hex_encode_upper((const uint8_t *)"\xab\x01", 2, out, sizeof(out));
	is_str(out, "AB01", "hex upper");
}

static void test_errors(void)
{
	uint8_t out[64];

	is_int(wire_b64_decode("Zg=", 3, out, 64), DT_EBASE64,
	       "base64 length not multiple of 4");
	is_int(wire_b64_decode("Z===", 4, out, 64), DT_EBASE64,
	       "base64 three pad characters");
	is_int(wire_b64_decode("Zm=v", 4, out, 64), DT_EBASE64,
	       "base64 pad in the middle");
	is_int(wire_b64_decode("Zh==", 4, out, 64), DT_EBASE64,
	       "base64 non-zero leftover bits");
	is_int(wire_b64_decode("Zm9 ", 4, out, 64), DT_EBASE64,
	       "base64 space is not skipped");
	is_int(wire_b64_decode("Zm9vYmFy", 8, out, 5), DT_ESPACE,
	       "base64 output too small");
	is_int(wire_b64_decode("Zm9vYg==", 8, out, 4), 4,
	       "base64 output exactly fits");

	is_int(wire_hex_decode("abc", 3, out, 64), DT_EBASE64, "hex odd length");
	is_int(wire_hex_decode("zz", 2, out, 64), DT_EBASE64, "hex bad digit");
	is_int(wire_hex_decode("AbCd", 4, out, 64), 2, "hex mixed case");
	is_int(wire_hex_decode("abcd", 4, out, 1), DT_ESPACE, "hex too small");

	is_int(wire_b32hex_decode("c", 1, out, 64), DT_EBASE64,
	       "base32hex impossible length 1");
	is_int(wire_b32hex_decode("cpn", 3, out, 64), DT_EBASE64,
	       "base32hex impossible length 3");
	is_int(wire_b32hex_decode("cw", 2, out, 64), DT_EBASE64,
	       "base32hex letter past v");
	is_int(wire_b32hex_decode("cp", 2, out, 64), DT_EBASE64,
	       "base32hex non-zero leftover bits");
	is_int(wire_b32hex_decode("CPNG", 4, out, 64), 2,
	       "base32hex uppercase accepted");

	char small[4];
	is_int(wire_b64_encode((const uint8_t *)"foo", 3, small, 4), DT_ESPACE,
	       "base64 encode needs room for NUL");
	is_int(wire_hex_encode((const uint8_t *)"ab", 2, small, 4), DT_ESPACE,
	       "hex encode needs room for NUL");
	is_int(wire_b32hex_encode((const uint8_t *)"fo", 2, small, 4),
	       DT_ESPACE, "base32hex encode needs room for NUL");
}

/* Every octet value survives each encoding. */
static void test_all_octets(void)
{
	uint8_t in[256], back[256];
	char text[1024];

	for (int i = 0; i < 256; i++)
		in[i] = (uint8_t)i;
	for (size_t n = 0; n <= 256; n += 37) {
		int good = 1, r;
		r = wire_b64_encode(in, n, text, sizeof(text));
		good &= wire_b64_decode(text, (size_t)r, back, 256) == (int)n &&
			!memcmp(in, back, n);
		r = wire_b32hex_encode(in, n, text, sizeof(text));
		good &= r == (int)WIRE_B32_LEN(n);
		good &= wire_b32hex_decode(text, (size_t)r, back, 256) ==
				(int)n && !memcmp(in, back, n);
		r = wire_hex_encode(in, n, text, sizeof(text));
		good &= wire_hex_decode(text, (size_t)r, back, 256) == (int)n &&
			!memcmp(in, back, n);
		ok(good, "all encodings round trip %zu octets", n);
	}
	/* A SHA-1 sized NSEC3 hash is 32 characters. */
	is_int(WIRE_B32_LEN(20), 32, "20 octets are 32 base32hex characters");
}

int main(void)
{
	test_vectors();
	test_errors();
	test_all_octets();
	return done_testing();
}
