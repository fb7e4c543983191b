/* SPDX-License-Identifier: MIT */
#include "common/errcode.h"
#include "wire/base.h"

static const char b64_alpha[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b32_alpha[] = "0123456789abcdefghijklmnopqrstuv";
static const char hex_lower[] = "0123456789abcdef";
static const char hex_upper[] = "0123456789ABCDEF";

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static int b32_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'v')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'V')
		return c - 'A' + 10;
	return -1;
}

int wire_hex_decode(const char *in, size_t inlen, uint8_t *out, size_t outcap)
{
	if (inlen % 2)
		return DT_EBASE64;
	if (inlen / 2 > outcap)
		return DT_ESPACE;
	for (size_t i = 0; i < inlen; i += 2) {
		int hi = hex_value(in[i]), lo = hex_value(in[i + 1]);
		if (hi < 0 || lo < 0)
			return DT_EBASE64;
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return (int)(inlen / 2);
}

/* Number of '=' at the end of a base64 text (0..2), or -1 if malformed. */
static int b64_padding(const char *in, size_t inlen)
{
	int pad = 0;

	while (pad < (int)inlen && in[inlen - 1 - (size_t)pad] == '=')
		pad++;
	return pad > 2 ? -1 : pad;
}

int wire_b64_decode(const char *in, size_t inlen, uint8_t *out, size_t outcap)
{
	int pad = b64_padding(in, inlen);
	size_t n = 0;
	uint32_t acc = 0;
	int bits = 0;

	if (inlen % 4 || pad < 0)
		return DT_EBASE64;
	if (inlen / 4 * 3 - (size_t)pad > outcap)
		return DT_ESPACE;
	for (size_t i = 0; i < inlen - (size_t)pad; i++) {
		int v = b64_value(in[i]);
		if (v < 0)
			return DT_EBASE64;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	/* Leftover bits must be zero (RFC 4648 §3.5: canonical encoding). */
	if (acc & ((1u << bits) - 1))
		return DT_EBASE64;
	return (int)n;
}

int wire_b32hex_decode(const char *in, size_t inlen, uint8_t *out,
		       size_t outcap)
{
	size_t n = 0;
	uint32_t acc = 0;
	int bits = 0;

	/* Unpadded lengths that leave no whole octet are impossible. */
	switch (inlen % 8) {
	case 1: case 3: case 6:
		return DT_EBASE64;
	}
	if (inlen * 5 / 8 > outcap)
		return DT_ESPACE;
	for (size_t i = 0; i < inlen; i++) {
		int v = b32_value(in[i]);
		if (v < 0)
			return DT_EBASE64;
		acc = acc << 5 | (uint32_t)v;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (uint8_t)(acc >> bits);
		}
		acc &= (1u << bits) - 1;
	}
	if (acc)
		return DT_EBASE64;
	return (int)n;
}

static int hex_encode(const uint8_t *in, size_t inlen, char *out,
		      size_t outcap, const char *alpha)
{
	if (WIRE_HEX_LEN(inlen) + 1 > outcap)
		return DT_ESPACE;
	for (size_t i = 0; i < inlen; i++) {
		out[2 * i] = alpha[in[i] >> 4];
		out[2 * i + 1] = alpha[in[i] & 0xF];
	}
	out[2 * inlen] = '\0';
	return (int)(2 * inlen);
}

int wire_hex_encode(const uint8_t *in, size_t inlen, char *out, size_t outcap)
{
	return hex_encode(in, inlen, out, outcap, hex_lower);
}

int wire_hex_encode_upper(const uint8_t *in, size_t inlen, char *out,
			  size_t outcap)
{
	return hex_encode(in, inlen, out, outcap, hex_upper);
}

int wire_b64_encode(const uint8_t *in, size_t inlen, char *out, size_t outcap)
{
	size_t n = 0, i = 0;

	if (WIRE_B64_LEN(inlen) + 1 > outcap)
		return DT_ESPACE;
	for (; i + 3 <= inlen; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 |
			     in[i + 2];
		out[n++] = b64_alpha[v >> 18];
		out[n++] = b64_alpha[(v >> 12) & 63];
		out[n++] = b64_alpha[(v >> 6) & 63];
		out[n++] = b64_alpha[v & 63];
	}
	if (i < inlen) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < inlen)
			v |= (uint32_t)in[i + 1] << 8;
		out[n++] = b64_alpha[v >> 18];
		out[n++] = b64_alpha[(v >> 12) & 63];
		out[n++] = i + 1 < inlen ? b64_alpha[(v >> 6) & 63] : '=';
		out[n++] = '=';
	}
	out[n] = '\0';
	return (int)n;
}

int wire_b32hex_encode(const uint8_t *in, size_t inlen, char *out,
		       size_t outcap)
{
	size_t n = 0;
	uint32_t acc = 0;
	int bits = 0;

	if (WIRE_B32_LEN(inlen) + 1 > outcap)
		return DT_ESPACE;
	for (size_t i = 0; i < inlen; i++) {
		acc = (acc << 8 | in[i]) & 0xFFF;
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[n++] = b32_alpha[(acc >> bits) & 31];
		}
	}
	if (bits)
		out[n++] = b32_alpha[(acc << (5 - bits)) & 31];
	out[n] = '\0';
	return (int)n;
}
