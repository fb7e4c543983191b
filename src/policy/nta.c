/* SPDX-License-Identifier: MIT */
/*
 * Runtime negative trust anchors: an immutable set swapped on each
 * change, saved to a file (one "DOMAIN UNTIL" line each, UNTIL in
 * seconds since the epoch, 0 for no end), read back at start-up.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/log.h"
#include "policy/nta.h"
#include "wire/dname.h"

/* A line of the file: a name in text form and a number. */
#define NTA_LINE_MAXLEN (DT_NAME_TEXT_MAXLEN + 32)

struct nta_set {
	struct nta_set *next_retired;
	int64_t retired; /* wall clock when replaced */
	size_t n;
	struct cfg_nta nta[];
};

struct nta_rt {
	struct nta_set *current; /* atomic; NULL: none */
	struct nta_set *retired; /* under lock */
	pthread_mutex_t lock;	 /* writers: add, remove */
	char path[PATH_MAX];	 /* "": in memory only */
};

/* An empty set with room for NTA_RUNTIME_MAX entries. */
static struct nta_set *set_new(void)
{
	return calloc(1, sizeof(struct nta_set) +
				 NTA_RUNTIME_MAX * sizeof(struct cfg_nta));
}

bool nta_in_force(const struct cfg_nta *n, int64_t now)
{
	return !n->until || now < n->until;
}

const struct cfg_nta *nta_closest(const struct cfg_nta *list, size_t n,
				  const uint8_t *name, int64_t now,
				  const struct cfg_nta *best)
{
	for (size_t i = 0; i < n; i++) {
		const struct cfg_nta *a = &list[i];

		if (!nta_in_force(a, now) ||
		    !wire_dname_is_subdomain(name, a->name))
			continue;
		if (!best ||
		    wire_dname_labels(a->name) > wire_dname_labels(best->name))
			best = a;
	}
	return best;
}

/* Publishes s as the current set (lock held); the old one is retired,
 * and sets retired long enough ago are freed. */
static void publish(struct nta_rt *rt, struct nta_set *s, int64_t now)
{
	struct nta_set *old =
		__atomic_exchange_n(&rt->current, s, __ATOMIC_ACQ_REL);
	struct nta_set **pp = &rt->retired;

	if (old) {
		old->retired = now;
		old->next_retired = rt->retired;
		rt->retired = old;
	}
	while (*pp) {
		struct nta_set *r = *pp;

		if (now - r->retired >= NTA_RETIRE_SECONDS) {
			*pp = r->next_retired;
			free(r);
		} else {
			pp = &r->next_retired;
		}
	}
}

struct nta_rt *nta_rt_new(const char *path)
{
	struct nta_rt *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	if (path && (size_t)snprintf(rt->path, sizeof(rt->path), "%s", path) >=
			    sizeof(rt->path)) {
		free(rt);
		return NULL;
	}
	pthread_mutex_init(&rt->lock, NULL);
	return rt;
}

void nta_rt_free(struct nta_rt *rt)
{
	if (!rt)
		return;
	while (rt->retired) {
		struct nta_set *r = rt->retired;

		rt->retired = r->next_retired;
		free(r);
	}
	free(rt->current);
	pthread_mutex_destroy(&rt->lock);
	free(rt);
}

const char *nta_rt_path(const struct nta_rt *rt)
{
	return rt->path;
}

/* One "DOMAIN UNTIL" line into *ret. */
static int parse_line(const char *line, struct cfg_nta *ret)
{
	char name[DT_NAME_TEXT_MAXLEN];
	long long until;
	struct cfg_nta n;

	if (sscanf(line, "%1023s %lld", name, &until) != 2 || until < 0 ||
	    wire_dname_from_str(name, strlen(name), NULL, n.name) < 0)
		return -1;
	wire_dname_tolower(n.name);
	n.until = until;
	*ret = n;
	return 0;
}

static void load(struct nta_rt *rt, int64_t now, bool again);

void nta_rt_load(struct nta_rt *rt)
{
	load(rt, 0, false);
}

void nta_rt_reload(struct nta_rt *rt, int64_t now)
{
	load(rt, now, true);
}

/* Reads the file and publishes what it holds (again: a missing file is
 * an empty set, published). */
static void load(struct nta_rt *rt, int64_t now, bool again)
{
	const char *path = rt->path;
	FILE *f = path[0] ? fopen(path, "r") : NULL;
	bool missing = !f && errno == ENOENT;
	char line[NTA_LINE_MAXLEN];
	struct nta_set *s;
	unsigned lineno = 0;

	if (!path[0])
		return;
	s = set_new();
	if (missing && s && again) {
		pthread_mutex_lock(&rt->lock);
		publish(rt, s, now);
		pthread_mutex_unlock(&rt->lock);
		return;
	}
	if (!f || !s) {
		if (f || !missing)
			log_warn("%s: %s: runtime negative trust anchors not "
				 "restored",
				 path, strerror(errno));
		if (f)
			fclose(f);
		free(s);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (s->n == NTA_RUNTIME_MAX) {
			log_warn("%s:%u: more than %d negative trust anchors; "
				 "the rest ignored",
				 path, lineno, NTA_RUNTIME_MAX);
			break;
		}
		if (parse_line(line, &s->nta[s->n]) < 0)
			log_warn("%s:%u: not DOMAIN UNTIL; ignored", path,
				 lineno);
		else
			s->n++;
	}
	/* A read error is not the end of the file: nothing is restored,
	 * with a warning, rather than part of the set without one. */
	if (ferror(f)) {
		log_warn("%s: read error: runtime negative trust anchors not "
			 "restored",
			 path);
		fclose(f);
		free(s);
		return;
	}
	fclose(f);
	if (s->n)
		log_notice("%s: %zu runtime negative trust anchor%s restored",
			   path, s->n, s->n == 1 ? "" : "s");
	pthread_mutex_lock(&rt->lock);
	publish(rt, s, now);
	pthread_mutex_unlock(&rt->lock);
}

/* Writes the set to a new file and renames it over the old one (none
 * for a set in memory only). */
static int save(const struct nta_rt *rt, const struct nta_set *s)
{
	char tmp[PATH_MAX + 8], name[DT_NAME_TEXT_MAXLEN];
	const char *path = rt->path;
	FILE *f;
	int err = 0;

	if (!path[0])
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, "# dnstrustd: negative trust anchors added by dnstrust nta "
		   "add (DOMAIN UNTIL, seconds since 1970, 0: no end)\n");
	for (size_t i = 0; i < s->n; i++) {
		wire_dname_to_str(s->nta[i].name, name, sizeof(name));
		fprintf(f, "%s %lld\n", name, (long long)s->nta[i].until);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		err = -errno;
	if (fclose(f) != 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) != 0)
		err = -errno;
	if (err) {
		unlink(tmp);
		log_err("%s: %s: runtime negative trust anchors not saved",
			path, strerror(-err));
	}
	return err;
}

static struct nta_set *get(const struct nta_rt *rt)
{
	return rt ? __atomic_load_n(&rt->current, __ATOMIC_ACQUIRE) : NULL;
}

const struct cfg_nta *nta_rt_find(const struct nta_rt *rt, const uint8_t *name,
				  int64_t now)
{
	const struct nta_set *s = get(rt);

	return s ? nta_closest(s->nta, s->n, name, now, NULL) : NULL;
}

/* A copy of the current set without name and without the entries no
 * longer in force (lock held). NULL when out of memory. */
static struct nta_set *copy_without(const struct nta_rt *rt,
				    const uint8_t *name, int64_t now,
				    bool *ret_found)
{
	const struct nta_set *s = get(rt);
	struct nta_set *c = set_new();

	*ret_found = false;
	for (size_t i = 0; c && s && i < s->n; i++) {
		if (wire_dname_equal(s->nta[i].name, name))
			*ret_found = true;
		else if (nta_in_force(&s->nta[i], now))
			c->nta[c->n++] = s->nta[i];
	}
	return c;
}

/* Replaces the set with a copy without name and without the entries no
 * longer in force, plus, when add is not NULL, *add; saves it. Returns
 * whether name was there, DT_ELIMIT (nothing changed) or -ENOMEM. */
static int change(struct nta_rt *rt, const uint8_t *name,
		  const struct cfg_nta *add, int64_t now, int *ret_save_err)
{
	struct nta_set *c;
	bool found;
	int r;

	pthread_mutex_lock(&rt->lock);
	c = copy_without(rt, name, now, &found);
	r = !c ? -ENOMEM : add && c->n == NTA_RUNTIME_MAX ? DT_ELIMIT : found;
	if (r < 0) {
		pthread_mutex_unlock(&rt->lock);
		free(c);
		return r;
	}
	if (add)
		c->nta[c->n++] = *add;
	*ret_save_err = save(rt, c);
	publish(rt, c, now);
	pthread_mutex_unlock(&rt->lock);
	return r;
}

int nta_rt_add(struct nta_rt *rt, const uint8_t *name, int64_t until,
	       int64_t now, int *ret_save_err)
{
	struct cfg_nta n = {.until = until};
	int r;

	wire_dname_copy(n.name, name);
	wire_dname_tolower(n.name);
	r = change(rt, n.name, &n, now, ret_save_err);
	return r < 0 ? r : 0;
}

int nta_rt_remove(struct nta_rt *rt, const uint8_t *name, int64_t now,
		  int *ret_save_err)
{
	return change(rt, name, NULL, now, ret_save_err);
}

void nta_rt_foreach(const struct nta_rt *rt, int64_t now,
		    void (*fn)(const struct cfg_nta *n, void *arg), void *arg)
{
	const struct nta_set *s = get(rt);

	for (size_t i = 0; s && i < s->n; i++)
		if (nta_in_force(&s->nta[i], now))
			fn(&s->nta[i], arg);
}
