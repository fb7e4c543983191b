/* SPDX-License-Identifier: MIT */
/*
 * Binary-to-text encodings used by presentation format: hex (RFC 4648 §8),
 * base64 (RFC 4648 §4) and base32hex without padding (RFC 4648 §7, as used
 * by NSEC3, RFC 5155 §3.3). Decoders skip no whitespace: the caller passes
 * exactly the characters to decode. Nothing here allocates.
 */
#ifndef DT_WIRE_BASE_H
#define DT_WIRE_BASE_H

#include <stddef.h>
#include <stdint.h>

/* Each decoder returns the number of octets written to out, DT_EBASE64 on
 * a bad character, bad length or bad padding, or DT_ESPACE when outcap is
 * too small. Hex and base32hex accept both cases. */
int wire_hex_decode(const char *in, size_t inlen, uint8_t *out, size_t outcap);
int wire_b64_decode(const char *in, size_t inlen, uint8_t *out, size_t outcap);
int wire_b32hex_decode(const char *in, size_t inlen, uint8_t *out,
		       size_t outcap);

/* Each encoder writes a NUL-terminated string and returns its length, or
 * DT_ESPACE when outcap (NUL included) is too small. Hex and base32hex are
 * written in lowercase (the form dig and ldns print for NSEC3; DS digests
 * are printed in uppercase by wire_hex_encode_upper). */
int wire_hex_encode(const uint8_t *in, size_t inlen, char *out, size_t outcap);
int wire_hex_encode_upper(const uint8_t *in, size_t inlen, char *out,
			  size_t outcap);
int wire_b64_encode(const uint8_t *in, size_t inlen, char *out, size_t outcap);
int wire_b32hex_encode(const uint8_t *in, size_t inlen, char *out,
		       size_t outcap);

/* Text length each encoder needs for inlen octets, NUL not included. */
#define WIRE_HEX_LEN(n) ((n) * 2)
#define WIRE_B64_LEN(n) ((((n) + 2) / 3) * 4)
#define WIRE_B32_LEN(n) (((n) * 8 + 4) / 5)

#endif
