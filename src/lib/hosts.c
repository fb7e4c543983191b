/* SPDX-License-Identifier: MIT */
/*
 * /etc/hosts, read as glibc's "files" source reads it for getaddrinfo:
 * one entry per line, an address then the canonical name then aliases,
 * blanks between, '#' to the end of the line a comment; a name matches
 * the canonical name or an alias without regard to case; every matching
 * line contributes its address, in file order. The file is read on every
 * lookup, as glibc does, so an edit takes effect at once.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "lib/internal.h"

int dtlib_addrs_add(struct dtlib_addrs *as, int family, const void *addr,
		    uint32_t scope)
{
	struct dtlib_addr *a;

	if (as->n == as->cap) {
		size_t cap = as->cap ? 2 * as->cap : 8;
		a = realloc(as->v, cap * sizeof(*a));
		if (!a)
			return DT_ERR_NOMEM;
		as->v = a;
		as->cap = cap;
	}
	a = &as->v[as->n++];
	memset(a, 0, sizeof(*a));
	a->family = family;
	memcpy(a->a, addr, family == AF_INET ? 4 : 16);
	a->scope = scope;
	return 0;
}

void dtlib_addrs_free(struct dtlib_addrs *as)
{
	free(as->v);
	memset(as, 0, sizeof(*as));
}

/* The tokens of one line: the address, and the first name (canonical)
 * when any name on the line is name. */
static bool line_names(char *line, const char *name, char **ret_addr,
		       char **ret_canon)
{
	static const char blanks[] = " \t\r\n\f\v";
	char *save, *addr, *canon, *tok;

	line[strcspn(line, "#")] = '\0';
	addr = strtok_r(line, blanks, &save);
	canon = addr ? strtok_r(NULL, blanks, &save) : NULL;
	for (tok = canon; tok; tok = strtok_r(NULL, blanks, &save))
		if (strcasecmp(tok, name) == 0) {
			*ret_addr = addr;
			*ret_canon = canon;
			return true;
		}
	return false;
}

/* Adds the line's address when its family is wanted: 1 added, 0 not. */
static int line_addr(const char *text, bool want4, bool want6,
		     struct dtlib_addrs *ret)
{
	uint8_t a[16];
	int family = strchr(text, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(family, text, a) != 1)
		return 0;
	if ((family == AF_INET && !want4) || (family == AF_INET6 && !want6))
		return 0;
	return dtlib_addrs_add(ret, family, a, 0) ? DT_ERR_NOMEM : 1;
}

int dtlib_hosts_lookup(const char *path, const char *name, bool want4,
		       bool want6, struct dtlib_addrs *ret, char *canon)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, *addr, *cname;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (!line_names(line, name, &addr, &cname))
			continue;
		int r = line_addr(addr, want4, want6, ret);
		if (r < 0) {
			found = r;
			break;
		}
		if (r > 0 && !found) {
			snprintf(canon, DTLIB_CANON_MAX, "%s", cname);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}
