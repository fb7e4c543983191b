/* SPDX-License-Identifier: MIT */
/*
 * The tables of responses an iterator core keeps for later questions
 * (DS RRsets from referrals and DNSKEY responses asked ahead, iterate.c;
 * NXDOMAIN cuts, iter_nxd.h; DNAME and CNAME RRsets, iter_dname.h;
 * wildcard expansions, iter_wild.h): fixed arrays of entries, scanned,
 * each a copy of a message with the server that sent it, keyed by a
 * name and a type; a full table gives up the entry that expires first.
 */
#ifndef DT_ITERATOR_ITER_KEPT_H
#define DT_ITERATOR_ITER_KEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

struct it_kept {
	uint8_t name[DT_NAME_MAXLEN]; /* lower case */
	uint16_t type;		      /* with name, the key (0 in a table
					 of one type) */
	bool mark;		      /* the table owner's flag */
	int64_t stored;		      /* ms */
	int64_t expires;	      /* ms */
	struct up_server from;	      /* the server that sent it */
	uint8_t *msg;		      /* malloc'd; NULL: unused */
	size_t len;
};

/* Empties e (its message freed). */
void it_kept_clear(struct it_kept *e);

/* Empties the n entries of tab. */
void it_kept_clear_all(struct it_kept *tab, size_t n);

/* Empties the entries of tab (n) that server from sent. */
void it_kept_forget(struct it_kept *tab, size_t n,
		    const struct up_server *from);

/*
 * Keeps a copy of msg (len octets) from server from as the entry of
 * (name, type), stored at now and expiring at expires (ms): the entry
 * of that key, else an unused one, else the one that expires first, is
 * replaced. Returns its index, or -1 without memory (tab unchanged).
 */
int it_kept_put(struct it_kept *tab, size_t n, const uint8_t *name,
		uint16_t type, const uint8_t *msg, size_t len, int64_t now,
		int64_t expires, const struct up_server *from);

/* Whether e holds a response at now (ms); an expired one is emptied. */
bool it_kept_live(struct it_kept *e, int64_t now);

/* The live entry of (name, type) in tab (n) at now, or NULL. */
struct it_kept *it_kept_find(struct it_kept *tab, size_t n,
			     const uint8_t *name, uint16_t type, int64_t now);

/* How long e has been kept at now, in whole seconds (the amount its
 * records' TTLs are lowered by when it is given out). */
uint32_t it_kept_age(const struct it_kept *e, int64_t now);

#endif
