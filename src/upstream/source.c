/* SPDX-License-Identifier: MIT */
/*
 * The sources of source.h. NetworkManager's and systemd-resolved's files
 * are resolv.conf text like any other; only their place differs. A
 * resolvconf directory holds one file per interface (the hook shipped in
 * data/ writes them, named so that their order is resolvconf's interface
 * order): each is parsed as a resolv.conf, then they are merged.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/errcode.h"
#include "upstream/source.h"
#include "wire/dname.h"

static const char *const kind_names[] = {
	[UP_SOURCE_FILE] = "file",
	[UP_SOURCE_NETWORKMANAGER] = "networkmanager",
	[UP_SOURCE_RESOLVED] = "resolved",
	[UP_SOURCE_RESOLVCONF] = "resolvconf",
	[UP_SOURCE_AUTO] = "auto",
};

static const char *const default_paths[] = {
	[UP_SOURCE_FILE] = UP_SOURCE_FILE_PATH,
	[UP_SOURCE_NETWORKMANAGER] = UP_SOURCE_NM_PATH,
	[UP_SOURCE_RESOLVED] = UP_SOURCE_RESOLVED_PATH,
	[UP_SOURCE_RESOLVCONF] = UP_SOURCE_RESOLVCONF_DIR,
	[UP_SOURCE_AUTO] = NULL,
};

/* auto's order: the most specific first (per interface), the file every
 * program reads last. */
static const enum up_source_kind auto_order[UP_SOURCE_NKINDS] = {
	UP_SOURCE_RESOLVCONF, UP_SOURCE_NETWORKMANAGER, UP_SOURCE_RESOLVED,
	UP_SOURCE_FILE};

const char *up_source_kind_name(enum up_source_kind k)
{
	return (unsigned)k <= UP_SOURCE_AUTO ? kind_names[k] : "?";
}

int up_source_kind_parse(const char *name)
{
	for (int k = 0; k <= UP_SOURCE_AUTO; k++)
		if (strcmp(kind_names[k], name) == 0)
			return k;
	return -1;
}

const char *up_source_default_path(enum up_source_kind k)
{
	return (unsigned)k <= UP_SOURCE_AUTO ? default_paths[k] : NULL;
}

/* An interface file: a regular file (or a link to one) not hidden, so
 * that a hook's temporary ".name" files are never read half-written. */
static bool iface_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (name[0] == '.' ||
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
		    sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted interface file names (at most DT_UP_MAXIFACES, allocated in
 * names[], freed by the caller). Returns their number or -errno. */
static int iface_names(const char *dir, char *names[DT_UP_MAXIFACES])
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL && n < DT_UP_MAXIFACES) {
		if (!iface_file(dir, de->d_name))
			continue;
		if (!(names[n] = strdup(de->d_name))) {
			while (n--)
				free(names[n]);
			closedir(d);
			return -ENOMEM;
		}
		n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), name_cmp);
	return n;
}

enum up_source_kind up_source_auto(const char *const path[UP_SOURCE_NKINDS])
{
	for (size_t i = 0; i < UP_SOURCE_NKINDS; i++) {
		enum up_source_kind k = auto_order[i];
		char *names[DT_UP_MAXIFACES];
		struct stat st;
		int n;

		if (!path[k] || stat(path[k], &st) != 0)
			continue;
		if (k != UP_SOURCE_RESOLVCONF)
			return k;
		n = iface_names(path[k], names);
		for (int j = 0; j < n; j++)
			free(names[j]);
		if (n > 0)
			return k;
	}
	return UP_SOURCE_FILE;
}

/* --- merging a directory's files --- */

static void merge_servers(struct up_conf *to, const struct up_conf *from)
{
	if (from->defaulted)
		return;
	for (size_t i = 0; i < from->nns && to->nns < DT_UP_MAXNS; i++) {
		bool dup = false;

		for (size_t j = 0; j < to->nns; j++)
			dup |= up_server_equal(&to->ns[j], &from->ns[i]);
		if (!dup)
			to->ns[to->nns++] = from->ns[i];
	}
}

static bool has_search(const struct up_conf *c, const uint8_t *name)
{
	for (size_t i = 0; i < c->nsearch; i++)
		if (wire_dname_equal(up_conf_search(c, i), name))
			return true;
	return false;
}

static void merge_search(struct up_conf *to, const struct up_conf *from)
{
	for (size_t i = 0; i < from->nsearch; i++) {
		const uint8_t *name = up_conf_search(from, i);
		size_t len = wire_dname_len(name);

		if (to->nsearch == DT_UP_MAXSEARCH ||
		    to->searchlen + len > sizeof(to->search))
			return;
		if (has_search(to, name))
			continue;
		memcpy(to->search + to->searchlen, name, len);
		to->searchlen += len;
		to->nsearch++;
	}
}

static void merge(struct up_source_data *d)
{
	struct up_conf *c = &d->conf;

	memset(c, 0, sizeof(*c));
	c->timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
	c->attempts = DT_UP_ATTEMPTS_DEFAULT;
	for (size_t i = 0; i < d->niface; i++) {
		const struct up_conf *f = &d->iface[i].conf;

		if (i == 0) {
			c->timeout_ms = f->timeout_ms;
			c->attempts = f->attempts;
			c->rotate = f->rotate;
		}
		c->skipped += f->skipped;
		merge_servers(c, f);
		merge_search(c, f);
	}
}

static int load_dir(const char *dir, struct up_source_data *ret)
{
	char *names[DT_UP_MAXIFACES];
	int n = iface_names(dir, names);
	size_t k = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct up_iface *f = &ret->iface[k];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (up_conf_load(path, &f->conf) == 0) {
			snprintf(f->name, sizeof(f->name), "%s", names[i]);
			k++;
		}
		free(names[i]);
	}
	ret->niface = k;
	merge(ret);
	return 0;
}

int up_source_load(enum up_source_kind k, const char *path,
		   struct up_source_data *ret)
{
	struct up_source_data *d = malloc(sizeof(*d));
	int r;

	if (!d)
		return -ENOMEM;
	memset(d, 0, sizeof(*d));
	if (k == UP_SOURCE_RESOLVCONF)
		r = load_dir(path, d);
	else
		r = up_conf_load(path, &d->conf);
	if (r == 0)
		*ret = *d;
	free(d);
	return r;
}
