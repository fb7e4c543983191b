/* SPDX-License-Identifier: MIT */
/*
 * A region allocator for per-query scratch memory: allocations are never
 * freed one by one; the whole arena is freed (or reset) at once. Memory
 * comes from malloc in chunks; a cap bounds what one arena may hold.
 */
#ifndef DT_COMMON_ARENA_H
#define DT_COMMON_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunk; /* current chunk, linked to older ones */
	size_t used;		   /* octets used in the current chunk */
	size_t total;		   /* octets obtained from malloc so far */
	size_t cap;		   /* limit on total; 0 means DT_ARENA_MAXSIZE */
};

/* Initialises an empty arena (allocates nothing yet). */
void arena_init(struct arena *a, size_t cap);

/* Returns size octets aligned for any type, or NULL when out of memory or
 * over the arena's cap. The memory lives until arena_free(). */
void *arena_alloc(struct arena *a, size_t size);

/* Copies len octets into the arena; NULL as arena_alloc. */
void *arena_memdup(struct arena *a, const void *src, size_t len);

/* Frees everything the arena holds; the arena is then empty and usable
 * again (there is no separate reset). */
void arena_free(struct arena *a);

#endif
