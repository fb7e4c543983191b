/* SPDX-License-Identifier: MIT */
/*
 * SipHash-1-3 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * with one compression and three finalisation rounds): a keyed hash, so
 * that whoever chooses the names a cache holds cannot choose which bucket
 * or shard they fall into without knowing the key.
 */
#ifndef DT_CACHE_SIPHASH_H
#define DT_CACHE_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of len octets at data under the 128-bit key (k0, k1), k0 being
 * the key's first eight octets read little-endian. Pure; no allocation. */
uint64_t cache_siphash13(uint64_t k0, uint64_t k1, const void *data,
			 size_t len);

#endif
