/* SPDX-License-Identifier: MIT */
/*
 * The RFC example vectors for the unit tests (vectors.h).
 */
#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/dname.h"
#include "wire/zone.h"

#define VEC_TTL 3600 /* the default TTL of the vector files' readers */

const char *vec_dir(void)
{
	static char dir[4096];
	const char *peer = getenv("DT_PEER");

	snprintf(dir, sizeof(dir), "%s/rfc-vectors", peer ? peer : ".");
	return dir;
}

const char *vec_path(const char *file)
{
	static char path[8192];

	snprintf(path, sizeof(path), "%s/%s", vec_dir(), file);
	return path;
}

void vec_recs_init(struct vec_recs *z)
{
	memset(z, 0, sizeof(*z));
	arena_init(&z->a, 0);
}

void vec_recs_free(struct vec_recs *z)
{
	free(z->rr);
	arena_free(&z->a);
	vec_recs_init(z);
}

static void *copy(struct arena *a, const void *p, size_t len)
{
	void *c = arena_alloc(a, len ? len : 1);

	if (!c)
		abort();
	return len ? memcpy(c, p, len) : c;
}

void vec_recs_push(struct vec_recs *z, const struct wire_rr *rr)
{
	struct wire_rr *c;

	if (z->n == z->cap) {
		z->cap = z->cap ? 2 * z->cap : 64;
		z->rr = realloc(z->rr, z->cap * sizeof(*z->rr));
		if (!z->rr)
			abort();
	}
	c = &z->rr[z->n++];
	*c = *rr;
	c->owner = copy(&z->a, rr->owner, wire_dname_len(rr->owner));
	c->rdata = copy(&z->a, rr->rdata, rr->rdlen);
}

/* Every record of zr appended to z, zr freed: the count or a code. */
static int recs_read(struct vec_recs *z, struct wire_zreader *zr)
{
	struct wire_rr rr;
	int n = 0, r;

	while ((r = wire_zreader_next(zr, &rr)) == 1) {
		vec_recs_push(z, &rr);
		n++;
	}
	if (r < 0)
		printf("# %s\n", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r < 0 ? r : n;
}

int vec_recs_file(struct vec_recs *z, const char *file)
{
	struct wire_zreader *zr;
	int r;

	vec_recs_init(z);
	r = wire_zreader_open(vec_path(file), NULL, VEC_TTL, &zr);
	if (r < 0) {
		printf("# %s: %s\n", vec_path(file), errcode_str(r));
		return r;
	}
	return recs_read(z, zr);
}

int vec_recs_text(struct vec_recs *z, const char *text)
{
	struct wire_zreader *zr =
		wire_zreader_new(text, strlen(text), NULL, VEC_TTL, "text");

	if (!zr)
		abort();
	return recs_read(z, zr);
}

char *vec_file_text(const char *file)
{
	FILE *f = fopen(vec_path(file), "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	if (ferror(f)) {
		printf("# %s: read error\n", vec_path(file));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

void vec_times(const char *file, int64_t *validate, int64_t *expires)
{
	FILE *f = fopen(vec_path(file), "r");
	char line[512];
	long long v = 0, e = 0;

	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "VALIDATE-AT:");
		if (p && sscanf(p, "VALIDATE-AT: %lld EXPIRES-AT: %lld", &v,
				&e) == 2)
			break;
	}
	if (f)
		fclose(f);
	*validate = v;
	*expires = e;
}
