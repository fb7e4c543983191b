/* SPDX-License-Identifier: MIT */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/limits.h"

struct arena_chunk {
	struct arena_chunk *prev;
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

#define ALIGN (alignof(max_align_t))

void arena_init(struct arena *a, size_t cap)
{
	a->chunk = NULL;
	a->used = 0;
	a->total = 0;
	a->cap = cap ? cap : DT_ARENA_MAXSIZE;
}

static struct arena_chunk *arena_grow(struct arena *a, size_t size)
{
	size_t want = size > DT_ARENA_CHUNK ? size : DT_ARENA_CHUNK;

	if (want > a->cap - a->total || a->total > a->cap)
		return NULL;
	struct arena_chunk *c = malloc(sizeof(*c) + want);
	if (!c)
		return NULL;
	c->prev = a->chunk;
	c->size = want;
	a->chunk = c;
	a->used = 0;
	a->total += want;
	return c;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size_t off = (a->used + ALIGN - 1) & ~(ALIGN - 1);

	if (size > SIZE_MAX / 2)
		return NULL;
	if (!a->chunk || off > a->chunk->size || size > a->chunk->size - off) {
		if (!arena_grow(a, size))
			return NULL;
		off = 0;
	}
	a->used = off + size;
	return a->chunk->data + off;
}

void *arena_memdup(struct arena *a, const void *src, size_t len)
{
	void *p = arena_alloc(a, len ? len : 1);

	if (p && len)
		memcpy(p, src, len);
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->chunk;

	while (c) {
		struct arena_chunk *prev = c->prev;
		free(c);
		c = prev;
	}
	a->chunk = NULL;
	a->used = 0;
	a->total = 0;
}
