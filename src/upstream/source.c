/* SPDX-License-Identifier: MIT */
/*
 * The sources of source.h. NetworkManager's and systemd-resolved's files
 * are resolv.conf text like any other; only their place differs. A
 * resolvconf directory holds one file per interface (the hook shipped in
 * data/ writes them, named so that their order is resolvconf's interface
 * order): each is parsed as a resolv.conf, then they are merged.
 * systemd-networkd's directory holds one state file per link, named by
 * its index ("This is private data. Do not parse.", says its first line;
 * its DNS=, DOMAINS=, ROUTE_DOMAINS= and DNS_DEFAULT_ROUTE= lines have
 * kept their meaning since systemd 219 and are what networkctl shows):
 * each is read into the same up_conf, then merged the same way.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/errcode.h"
#include "common/file.h"
#include "upstream/source.h"
#include "wire/dname.h"

static const char *const kind_names[] = {
	[UP_SOURCE_FILE] = "file",
	[UP_SOURCE_NETWORKMANAGER] = "networkmanager",
	[UP_SOURCE_RESOLVED] = "resolved",
	[UP_SOURCE_RESOLVCONF] = "resolvconf",
	[UP_SOURCE_NETWORKD] = "networkd",
	[UP_SOURCE_AUTO] = "auto",
};

static const char *const default_paths[] = {
	[UP_SOURCE_FILE] = UP_SOURCE_FILE_PATH,
	[UP_SOURCE_NETWORKMANAGER] = UP_SOURCE_NM_PATH,
	[UP_SOURCE_RESOLVED] = UP_SOURCE_RESOLVED_PATH,
	[UP_SOURCE_RESOLVCONF] = UP_SOURCE_RESOLVCONF_DIR,
	[UP_SOURCE_NETWORKD] = UP_SOURCE_NETWORKD_DIR,
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

static void merge_names(struct up_conf *to, const struct up_conf *from)
{
	for (size_t i = 0; i < from->nsearch; i++)
		if (!up_names_add(to->search, sizeof(to->search), &to->nsearch,
				  &to->searchlen, up_conf_search(from, i)))
			break;
	for (size_t i = 0; i < from->nroute; i++)
		if (!up_names_add(to->route, sizeof(to->route), &to->nroute,
				  &to->routelen, up_conf_route(from, i)))
			break;
}

bool up_iface_default_route(const struct up_iface *f)
{
	return f->default_route >= 0 ? f->default_route != 0
				     : f->conf.nroute == 0;
}

/* Whether one interface with servers is a default route: if none is,
 * every interface's servers are used (no name is left without one). */
static bool any_default(const struct up_source_data *d)
{
	for (size_t i = 0; i < d->niface; i++)
		if (!d->iface[i].conf.defaulted &&
		    up_iface_default_route(&d->iface[i]))
			return true;
	return false;
}

static void merge(struct up_source_data *d)
{
	struct up_conf *c = &d->conf;
	bool some_default = any_default(d);

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
		if (!some_default || up_iface_default_route(&d->iface[i]))
			merge_servers(c, f);
		merge_names(c, f);
	}
}

/* --- systemd-networkd's link state files --- */

/* The next word of [*s, e) (separated by spaces), or NULL. */
static const char *next_word(const char **s, const char *e, size_t *len)
{
	const char *w;

	while (*s < e && **s == ' ')
		(*s)++;
	for (w = *s; *s < e && **s != ' '; (*s)++)
		;
	*len = (size_t)(*s - w);
	return *len ? w : NULL;
}

/* DNS=: addresses, perhaps "ADDR:PORT", "[ADDR]:PORT", "%IFINDEX" or
 * "#NAME" (systemd 246 and later); only plain addresses and ports are
 * understood, the rest skipped and counted. */
static void nd_servers(struct up_conf *c, const char *s, const char *e)
{
	const char *w;
	size_t len;

	while ((w = next_word(&s, e, &len)) != NULL) {
		char text[80], *colon;
		struct up_server sv;

		if (c->nns == DT_UP_MAXNS)
			return;
		if (len >= sizeof(text)) {
			c->skipped++;
			continue;
		}
		memcpy(text, w, len);
		text[len] = '\0';
		if (strchr(text, '#') || strchr(text, '%')) {
			c->skipped++;
			continue;
		}
		colon = strrchr(text, ':');
		if (text[0] == '[' && colon && colon[-1] == ']') {
			memmove(text, text + 1, len);
			colon = strrchr(text, ':');
			colon[-1] = '@';
			memmove(colon, colon + 1, strlen(colon));
		} else if (colon && strchr(text, ':') == colon) {
			*colon = '@';
		}
		if (up_server_parse(text, &sv) == 0)
			c->ns[c->nns++] = sv;
		else
			c->skipped++;
	}
}

/* DOMAINS= or ROUTE_DOMAINS=: names, into buf (an up_conf's search or
 * route list). Returns whether the root was among them (networkd's "~.":
 * the link is a default route). */
static bool nd_names(uint8_t *buf, size_t cap, size_t *n, size_t *blen,
		     const char *s, const char *e)
{
	bool root = false;
	const char *w;
	size_t len;

	while ((w = next_word(&s, e, &len)) != NULL) {
		uint8_t name[DT_NAME_MAXLEN];
		int l = wire_dname_from_str(w, len, (const uint8_t *)"", name);

		root |= l == 1;
		if (l <= 1)
			continue;
		wire_dname_tolower(name);
		if (!up_names_add(buf, cap, n, blen, name))
			break;
	}
	return root;
}

/* One KEY=VALUE line of a link state file. */
static void nd_line(struct up_iface *f, const char *s, const char *e)
{
	struct up_conf *c = &f->conf;
	const char *eq = memchr(s, '=', (size_t)(e - s));
	size_t klen;

	if (!eq)
		return;
	klen = (size_t)(eq - s);
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(s, k, klen) == 0)
	if (KEY("DNS"))
		nd_servers(c, eq + 1, e);
	else if (KEY("DOMAINS"))
		nd_names(c->search, sizeof(c->search), &c->nsearch,
			 &c->searchlen, eq + 1, e);
	else if (KEY("ROUTE_DOMAINS") &&
		 nd_names(c->route, sizeof(c->route), &c->nroute, &c->routelen,
			  eq + 1, e) &&
		 f->default_route < 0)
		f->default_route = 1;
	else if (KEY("DNS_DEFAULT_ROUTE"))
		f->default_route = e - eq == 4 && memcmp(eq + 1, "yes", 3) == 0;
#undef KEY
}

void up_netif_parse(const char *text, size_t len, struct up_iface *f)
{
	memset(f, 0, sizeof(*f));
	f->conf.timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
	f->conf.attempts = DT_UP_ATTEMPTS_DEFAULT;
	f->default_route = -1;
	for (const char *s = text, *e = text + len; s < e;) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *end = nl ? nl : e;

		nd_line(f, s, end);
		s = nl ? nl + 1 : e;
	}
	f->conf.defaulted = f->conf.nns == 0;
}

/* Reads a link state file into *f (its name not set). */
static int nd_load(const char *path, struct up_iface *f)
{
	char *text;
	size_t len;
	int r = file_read_path(path, DT_UP_CONF_MAXSIZE, &text, &len);

	if (r < 0)
		return r;
	up_netif_parse(text, len, f);
	free(text);
	return 0;
}

/* One interface file of the directory, by the kind's reading; a networkd
 * link without servers is left out (-ENOENT): its domains route
 * nowhere. */
static int load_iface(enum up_source_kind k, const char *path,
		      struct up_iface *f)
{
	int r;

	if (k != UP_SOURCE_NETWORKD) {
		r = up_conf_load(path, &f->conf);
		f->default_route = -1;
		return r;
	}
	r = nd_load(path, f);
	return r == 0 && f->conf.defaulted ? -ENOENT : r;
}

static int load_dir(enum up_source_kind kind, const char *dir,
		    struct up_source_data *ret)
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
		if (load_iface(kind, path, f) == 0) {
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
	if (k == UP_SOURCE_RESOLVCONF || k == UP_SOURCE_NETWORKD)
		r = load_dir(k, path, d);
	else
		r = up_conf_load(path, &d->conf);
	if (r == 0)
		*ret = *d;
	free(d);
	return r;
}
