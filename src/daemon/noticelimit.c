/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <sys/socket.h>

#include "daemon/noticelimit.h"

/* Servers by address; the judgement's zeroed subject is itself. */
static bool same(const struct up_server *a, const struct up_server *b)
{
	if (a->addr.ss_family == AF_UNSPEC)
		return b->addr.ss_family == AF_UNSPEC;
	return up_server_equal(a, b);
}

static struct noticelimit_slot *
slot_of(struct noticelimit *l, const struct up_server *subject, int64_t now)
{
	struct noticelimit_slot *lru = &l->s[0];

	for (size_t i = 0; i < NOTICELIMIT_SUBJECTS; i++) {
		struct noticelimit_slot *s = &l->s[i];

		if (s->used && same(&s->subject, subject))
			return s;
		if (!s->used || (lru->used && s->last < lru->last))
			lru = s;
	}
	memset(lru, 0, sizeof(*lru));
	lru->used = true;
	lru->subject = *subject;
	lru->start = now;
	return lru;
}

static bool ended(const struct noticelimit_slot *s, int64_t now)
{
	return now - s->start >= DT_UP_NOTICE_WINDOW_MS;
}

/* Hands out the held count of s and starts a new window at now. */
static void restart(struct noticelimit_slot *s, int64_t now, unsigned *ret_held,
		    unsigned *ret_secs)
{
	*ret_held = s->held;
	*ret_secs =
		s->held ? (unsigned)((now - s->held_since + 999) / 1000) : 0;
	s->held = 0;
	s->logged = 0;
	s->start = now;
}

bool noticelimit_take(struct noticelimit *l, const struct up_server *subject,
		      int64_t now, unsigned *ret_held, unsigned *ret_secs)
{
	struct noticelimit_slot *s = slot_of(l, subject, now);

	*ret_held = 0;
	*ret_secs = 0;
	if (ended(s, now))
		restart(s, now, ret_held, ret_secs);
	s->last = now;
	if (s->logged < DT_UP_NOTICE_BURST) {
		s->logged++;
		return true;
	}
	if (s->held++ == 0)
		s->held_since = now;
	return false;
}

int64_t noticelimit_due(const struct noticelimit *l)
{
	int64_t due = -1;

	for (size_t i = 0; i < NOTICELIMIT_SUBJECTS; i++) {
		const struct noticelimit_slot *s = &l->s[i];
		int64_t end = s->start + DT_UP_NOTICE_WINDOW_MS;

		if (s->used && s->held && (due < 0 || end < due))
			due = end;
	}
	return due;
}

bool noticelimit_flush(struct noticelimit *l, int64_t now,
		       struct up_server *ret_subject, unsigned *ret_held,
		       unsigned *ret_secs)
{
	for (size_t i = 0; i < NOTICELIMIT_SUBJECTS; i++) {
		struct noticelimit_slot *s = &l->s[i];

		if (!s->used || !s->held || !ended(s, now))
			continue;
		*ret_subject = s->subject;
		restart(s, now, ret_held, ret_secs);
		return true;
	}
	return false;
}
