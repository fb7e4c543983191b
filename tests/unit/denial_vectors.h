/* SPDX-License-Identifier: MIT */
/*
 * Test helpers shared by test_nsec.c and test_nsec3.c: reading the RFC
 * example files (blocks, sections, records) and checking verdicts.
 * Include after defining RESP_FILE, ZONE_FILE and NOW.
 */
#ifndef DT_TESTS_DENIAL_VECTORS_H
#define DT_TESTS_DENIAL_VECTORS_H

/* --- test helpers: vector files, blocks, sections, records --- */

/* Records read from text, owned, grouped into RRsets. */
struct recs {
	struct wire_rr *rr;
	size_t n;
	struct arena arena;
	struct val_rrset *sets;
	size_t nsets;
};

static const char *vector_path(const char *file)
{
	static char path[4096];
	const char *peer = getenv("DT_PEER");

	snprintf(path, sizeof(path), "%s/rfc-vectors/%s", peer ? peer : ".",
		 file);
	return path;
}

/* The whole file as a NUL-terminated string (caller frees), or NULL. */
static char *file_text(const char *file)
{
	FILE *f = fopen(vector_path(file), "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1))) {
		if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		} else {
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static char *dup_range(const char *s, const char *e)
{
	char *out = malloc((size_t)(e - s) + 1);

	if (!out)
		abort();
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return out;
}

/* Start of the line after p (or the terminating NUL). */
static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* The block of a response file whose "; ===== RFC nnnn <id>" header
 * line contains id (e.g. "B.2."), up to the next "; =====" line. */
static char *block_text(const char *file, const char *id)
{
	char *all = file_text(file), *out = NULL;
	const char *p, *e;

	if (!all)
		return NULL;
	for (p = all; *p; p = next_line(p)) {
		const char *eol = next_line(p);
		if (strncmp(p, "; =====", 7) != 0)
			continue;
		char *line = dup_range(p, eol);
		bool hit = strstr(line, id) != NULL;
		free(line);
		if (hit)
			break;
	}
	if (*p) {
		for (e = next_line(p); *e && strncmp(e, "; =====", 7) != 0;
		     e = next_line(e))
			;
		out = dup_range(p, e);
	}
	free(all);
	return out;
}

static bool is_section_marker(const char *p)
{
	return strncmp(p, ";; Answer", 9) == 0 ||
	       strncmp(p, ";; Authority", 12) == 0 ||
	       strncmp(p, ";; Additional", 13) == 0;
}

/* The lines of one section (";; Authority"...) of a block. */
static char *section_text(const char *block, const char *marker)
{
	const char *p, *e;

	for (p = block; *p && strncmp(p, marker, strlen(marker)) != 0;
	     p = next_line(p))
		;
	if (!*p)
		return NULL;
	p = next_line(p);
	for (e = p; *e && !is_section_marker(e); e = next_line(e))
		;
	return dup_range(p, e);
}

/* Copy of s with every line starting with prefix removed. */
static char *drop_lines(const char *s, const char *prefix)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		abort();
	for (const char *p = s; *p;) {
		const char *e = next_line(p);
		if (strncmp(p, prefix, strlen(prefix)) != 0) {
			memcpy(o, p, (size_t)(e - p));
			o += e - p;
		}
		p = e;
	}
	*o = '\0';
	return out;
}

/* Copy of s with every occurrence of from replaced by to. */
static char *replace(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	char *out, *o;

	for (const char *p = s; (p = strstr(p, from)); p += fl)
		n++;
	out = malloc(strlen(s) + n * tl + 1);
	if (!out)
		abort();
	o = out;
	for (const char *p = s;;) {
		const char *m = strstr(p, from);
		if (!m) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(m - p));
		o += m - p;
		memcpy(o, to, tl);
		o += tl;
		p = m + fl;
	}
	return out;
}

static void recs_add(struct recs *rs, const struct wire_rr *rr)
{
	struct wire_rr *c;
	uint8_t *owner = malloc(DT_NAME_MAXLEN);
	uint8_t *rdata = malloc(rr->rdlen ? rr->rdlen : 1);

	rs->rr = realloc(rs->rr, (rs->n + 1) * sizeof(*rs->rr));
	if (!rs->rr || !owner || !rdata)
		abort();
	wire_dname_copy(owner, rr->owner);
	memcpy(rdata, rr->rdata, rr->rdlen);
	c = &rs->rr[rs->n++];
	*c = *rr;
	c->owner = owner;
	c->rdata = rdata;
}

static int recs_group(struct recs *rs)
{
	int r;

	arena_init(&rs->arena, 0);
	r = val_rrsets_collect(rs->rr, rs->n, &rs->arena, &rs->sets);
	if (r < 0)
		return r;
	rs->nsets = (size_t)r;
	return 0;
}

static int recs_read(struct wire_zreader *zr, struct recs *rs)
{
	struct wire_rr rr;
	int r;

	memset(rs, 0, sizeof(*rs));
	while ((r = wire_zreader_next(zr, &rr)) == 1)
		recs_add(rs, &rr);
	if (r < 0)
		diag("%s", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r < 0 ? r : recs_group(rs);
}

/* Reads zone text (origin "example.", $TTL 3600) into grouped RRsets. */
static int recs_from_text(const char *text, struct recs *rs)
{
	struct wire_zreader *zr;

	zr = wire_zreader_new(text, strlen(text), "example.", 3600, "text");
	if (!zr)
		abort();
	return recs_read(zr, rs);
}

static int recs_from_file(const char *file, struct recs *rs)
{
	struct wire_zreader *zr;
	int r = wire_zreader_open(vector_path(file), NULL, 3600, &zr);

	if (r < 0) {
		diag("%s: %s", vector_path(file), errcode_str(r));
		return r;
	}
	return recs_read(zr, rs);
}

static void recs_free(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free((void *)rs->rr[i].owner);
		free((void *)rs->rr[i].rdata);
	}
	free(rs->rr);
	arena_free(&rs->arena);
	memset(rs, 0, sizeof(*rs));
}

/*
 * The authority section of a response block, after an optional edit:
 * lines starting with drop removed, then from replaced by to, then extra
 * lines put first. Returns 0 or a negative code (a failed test).
 */
static int load_auth_x(const char *id, const char *drop, const char *from,
		       const char *to, const char *extra, struct recs *rs)
{
	char *block = block_text(RESP_FILE, id), *sec, *t;
	int r;

	if (!block) {
		ok(0, "block %s in %s", id, vector_path(RESP_FILE));
		return -1;
	}
	sec = section_text(block, ";; Authority");
	free(block);
	if (!sec) {
		ok(0, "authority section of %s", id);
		return -1;
	}
	if (drop) {
		t = drop_lines(sec, drop);
		free(sec);
		sec = t;
	}
	if (from) {
		t = replace(sec, from, to);
		free(sec);
		sec = t;
	}
	if (extra) {
		t = malloc(strlen(extra) + strlen(sec) + 2);
		if (!t)
			abort();
		sprintf(t, "%s\n%s", extra, sec);
		free(sec);
		sec = t;
	}
	r = recs_from_text(sec, rs);
	free(sec);
	if (r < 0)
		ok(0, "records of %s: %s", id, errcode_str(r));
	return r;
}

static int load_auth(const char *id, const char *drop, const char *from,
		     const char *to, struct recs *rs)
{
	return load_auth_x(id, drop, from, to, NULL, rs);
}

static const uint8_t *N(const char *text)
{
	/* A ring of buffers so that a call may take several names. */
	static uint8_t ring[8][DT_NAME_MAXLEN];
	static unsigned next;
	uint8_t *out = ring[next++ % 8];

	if (wire_dname_from_str(text, strlen(text), NULL, out) < 0)
		abort();
	return out;
}

static void check(const struct val_verdict *v, enum val_status status,
		  uint16_t ede, const char *tag, const char *what)
{
	is_int(v->status, status, "%s: %s", what, val_status_name(status));
	is_int(v->ede, ede, "%s: EDE %u", what, (unsigned)ede);
	is_str(v->tag, tag, "%s: tag %s", what, tag);
	if (v->reason[0])
		diag("  reason: %s", v->reason);
}

#endif
