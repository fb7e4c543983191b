/* SPDX-License-Identifier: MIT */
/* The table of questions under way that every worker sees (xwait.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cache/siphash.h"
#include "daemon/xwait.h"
#include "wire/bytes.h"
#include "wire/dname.h"

struct xw_table *xw_new(void)
{
	struct xw_table *t = calloc(1, sizeof(*t));
	uint64_t seed[2];

	if (!t || getrandom(seed, sizeof(seed), 0) != sizeof(seed)) {
		free(t);
		return NULL;
	}
	pthread_mutex_init(&t->mu, NULL);
	t->k0 = seed[0];
	t->k1 = seed[1];
	return t;
}

void xw_free(struct xw_table *t)
{
	if (!t)
		return;
	while (t->all)
		xw_join_free(t, t->all);
	for (size_t b = 0; b < XW_BUCKETS; b++) {
		while (t->b[b]) {
			struct xw_entry *e = t->b[b];
			t->b[b] = e->next;
			free(e);
		}
	}
	pthread_mutex_destroy(&t->mu);
	free(t);
}

struct xw_entry **xw_slot(struct xw_table *t, const uint8_t *lname,
			  uint16_t type, uint16_t qclass)
{
	uint8_t key[4 + DT_NAME_MAXLEN];
	size_t len = wire_dname_len(lname);

	wire_put16(key, type);
	wire_put16(key + 2, qclass);
	memcpy(key + 4, lname, len);
	struct xw_entry **p =
		&t->b[cache_siphash13(t->k0, t->k1, key, 4 + len) % XW_BUCKETS];
	while (*p && !((*p)->type == type && (*p)->qclass == qclass &&
		       wire_dname_equal((*p)->name, lname)))
		p = &(*p)->next;
	return p;
}

void *xw_own(struct xw_entry **slot, size_t size, const uint8_t *lname,
	     uint16_t type, uint16_t qclass)
{
	struct xw_entry *e = calloc(1, size);

	if (!e)
		return NULL;
	wire_dname_copy(e->name, lname);
	e->type = type;
	e->qclass = qclass;
	*slot = e;
	return e;
}

void *xw_join(struct xw_table *t, struct xw_entry *e, size_t size)
{
	struct xw_join *j = calloc(1, size);

	if (!j)
		return NULL;
	j->e = e;
	j->next = e->joiners;
	e->joiners = j;
	e->njoiners++;
	j->all_next = t->all;
	if (t->all)
		t->all->all_prev = j;
	t->all = j;
	return j;
}

struct xw_join *xw_take(struct xw_entry **slot)
{
	struct xw_entry *e = *slot;
	struct xw_join *list = e->joiners;

	*slot = e->next;
	e->joiners = NULL;
	e->njoiners = 0;
	for (struct xw_join *j = list; j; j = j->next)
		j->e = NULL;
	return list;
}

bool xw_set_msg(struct xw_join *j, const uint8_t *msg, size_t len)
{
	j->msg = malloc(len ? len : 1);
	j->len = j->msg ? len : 0;
	if (j->msg)
		memcpy(j->msg, msg, len);
	return j->msg != NULL;
}

void xw_unwait(struct xw_join *j)
{
	for (struct xw_join **p = &j->e->joiners; *p; p = &(*p)->next) {
		if (*p == j) {
			*p = j->next;
			j->e->njoiners--;
			break;
		}
	}
	j->e = NULL;
}

void xw_join_free(struct xw_table *t, struct xw_join *j)
{
	if (j->all_prev)
		j->all_prev->all_next = j->all_next;
	else
		t->all = j->all_next;
	if (j->all_next)
		j->all_next->all_prev = j->all_prev;
	free(j->msg);
	free(j);
}
