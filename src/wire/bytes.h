/* SPDX-License-Identifier: MIT */
/*
 * 16- and 32-bit integers in network byte order (RFC 1035 §2.3.2), read
 * from and written to octets with no alignment assumed. The caller has
 * checked that the octets are there.
 */
#ifndef DT_WIRE_BYTES_H
#define DT_WIRE_BYTES_H

#include <stdint.h>

static inline uint16_t wire_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t wire_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void wire_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void wire_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
