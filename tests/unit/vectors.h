/* SPDX-License-Identifier: MIT */
/*
 * The RFC example vectors (tests/data/rfc-vectors) for the unit tests:
 * found under $DT_PEER (meson sets it; "." otherwise), their records read
 * with the zone reader of src/wire into owned copies, and what their
 * comments say (VALIDATE-AT, EXPIRES-AT). Failures are printed as TAP
 * diagnostics ("# ...").
 */
#ifndef DT_TESTS_VECTORS_H
#define DT_TESTS_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "wire/rr.h"

/* Records whose owner names and RDATA are copies held by the arena. */
struct vec_recs {
	struct arena a;
	struct wire_rr *rr;
	size_t n, cap;
};

/* $DT_PEER/rfc-vectors. */
const char *vec_dir(void);
/* The path of a file of vec_dir(), in a static buffer (valid until the
 * next call). */
const char *vec_path(const char *file);

/* An empty set of records. */
void vec_recs_init(struct vec_recs *z);
/* Frees the records; z is then as after vec_recs_init(). */
void vec_recs_free(struct vec_recs *z);
/* Appends a copy of rr (aborts when out of memory). */
void vec_recs_push(struct vec_recs *z, const struct wire_rr *rr);
/* Every record of a vector file (default TTL 3600) into z, initialised
 * here. Returns the number read, or a negative DT_E* code (diagnosed); z
 * is to be freed either way. */
int vec_recs_file(struct vec_recs *z, const char *file);
/* The records of text (absolute names, default TTL 3600) appended to z
 * (initialised). Returns the number added or a negative code (diagnosed). */
int vec_recs_text(struct vec_recs *z, const char *text);

/* A whole vector file, NUL-terminated (the caller frees it), or NULL. */
char *vec_file_text(const char *file);
/* The "; VALIDATE-AT: <unix>   EXPIRES-AT: <unix>" line of a vector file;
 * both 0 when it has none. */
void vec_times(const char *file, int64_t *validate, int64_t *expires);

#endif
