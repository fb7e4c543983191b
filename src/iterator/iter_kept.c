/* SPDX-License-Identifier: MIT */
/*
 * Responses kept by the iterator (iter_kept.h).
 */
#include <stdlib.h>
#include <string.h>

#include "iterator/iter_kept.h"
#include "wire/dname.h"

void it_kept_clear(struct it_kept *e)
{
	free(e->msg);
	memset(e, 0, sizeof(*e));
}

void it_kept_clear_all(struct it_kept *tab, size_t n)
{
	for (size_t i = 0; tab && i < n; i++)
		it_kept_clear(&tab[i]);
}

void it_kept_forget(struct it_kept *tab, size_t n,
		    const struct up_server *from)
{
	for (size_t i = 0; i < n; i++)
		if (tab[i].msg && up_server_equal(&tab[i].from, from))
			it_kept_clear(&tab[i]);
}

static bool same_key(const struct it_kept *e, const uint8_t *name,
		     uint16_t type)
{
	return e->type == type && wire_dname_equal(e->name, name);
}

int it_kept_put(struct it_kept *tab, size_t n, const uint8_t *name,
		uint16_t type, const uint8_t *msg, size_t len, int64_t now,
		int64_t expires, const struct up_server *from)
{
	size_t pick = 0;
	uint8_t *copy;

	if (!n || !(copy = malloc(len ? len : 1)))
		return -1;
	memcpy(copy, msg, len);
	for (size_t i = 0; i < n; i++) {
		if (!tab[i].msg || same_key(&tab[i], name, type)) {
			pick = i;
			break;
		}
		if (tab[i].expires < tab[pick].expires)
			pick = i;
	}
	struct it_kept *e = &tab[pick];
	it_kept_clear(e);
	wire_dname_copy(e->name, name);
	wire_dname_tolower(e->name);
	e->type = type;
	e->stored = now;
	e->expires = expires;
	e->from = *from;
	e->msg = copy;
	e->len = len;
	return (int)pick;
}

bool it_kept_live(struct it_kept *e, int64_t now)
{
	if (!e->msg)
		return false;
	if (e->expires > now)
		return true;
	it_kept_clear(e);
	return false;
}

struct it_kept *it_kept_find(struct it_kept *tab, size_t n,
			     const uint8_t *name, uint16_t type, int64_t now)
{
	for (size_t i = 0; i < n; i++)
		if (it_kept_live(&tab[i], now) && same_key(&tab[i], name, type))
			return &tab[i];
	return NULL;
}

uint32_t it_kept_age(const struct it_kept *e, int64_t now)
{
	return now > e->stored ? (uint32_t)((now - e->stored) / 1000) : 0;
}
