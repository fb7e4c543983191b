/* SPDX-License-Identifier: MIT */
/*
 * A table of questions under way that every worker sees, behind one
 * mutex: what resolve.c (fetches) and share.c (client questions) keep.
 * An entry is one question (its name in lower case, type and class),
 * found through SipHash with a random key; its joiners are the waits of
 * other workers for it. Every joiner is also on the table's list until
 * it is freed, so that xw_free frees what a stopped loop never
 * delivered.
 *
 * The users embed struct xw_entry and struct xw_join as the first member
 * of their own structures (allocated here, zeroed, freed with free()),
 * and keep their own states. Every call but xw_new and xw_free is made
 * with the table's mutex held.
 */
#ifndef DT_DAEMON_XWAIT_H
#define DT_DAEMON_XWAIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"

#define XW_BUCKETS 1024

struct xw_join;

struct xw_entry {
	struct xw_entry *next;	      /* in its bucket */
	uint8_t name[DT_NAME_MAXLEN]; /* lower case */
	uint16_t type, qclass;
	struct xw_join *joiners;
	unsigned njoiners;
};

struct xw_join {
	struct xw_join *next;		     /* on its entry's list */
	struct xw_join *all_prev, *all_next; /* on the table's list */
	struct xw_entry *e;		     /* while it waits */
	uint8_t *msg;			     /* its delivery, freed with it */
	size_t len;
};

struct xw_table {
	pthread_mutex_t mu;
	uint64_t k0, k1;
	struct xw_entry *b[XW_BUCKETS];
	struct xw_join *all;
};

/* A new empty table; NULL when out of memory or randomness. */
struct xw_table *xw_new(void);
/* Frees t with every entry and joiner left (NULL allowed); the workers
 * have stopped. */
void xw_free(struct xw_table *t);

/* Where the entry for (lname, type, qclass) is, or goes: *slot is NULL
 * when there is none. */
struct xw_entry **xw_slot(struct xw_table *t, const uint8_t *lname,
			  uint16_t type, uint16_t qclass);
/* A new entry of size octets (at least struct xw_entry) for the
 * question, put at slot (from xw_slot, empty). NULL when out of memory. */
void *xw_own(struct xw_entry **slot, size_t size, const uint8_t *lname,
	     uint16_t type, uint16_t qclass);
/* A new joiner of size octets (at least struct xw_join) waiting for e,
 * on e's list and the table's. NULL when out of memory. */
void *xw_join(struct xw_table *t, struct xw_entry *e, size_t size);
/* Takes the entry at slot off the table and returns its joiners, each no
 * longer waiting (on the table's list still); the entry is the caller's
 * to free. */
struct xw_join *xw_take(struct xw_entry **slot);
/* Gives j (taken) a copy of the len octets at msg as its delivery.
 * False when out of memory: then j has none. */
bool xw_set_msg(struct xw_join *j, const uint8_t *msg, size_t len);
/* Takes j, still waiting, off its entry's list. */
void xw_unwait(struct xw_join *j);
/* Frees j and its delivery, off the table's list. */
void xw_join_free(struct xw_table *t, struct xw_join *j);

#endif
