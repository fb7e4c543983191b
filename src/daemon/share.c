/* SPDX-License-Identifier: MIT */
/*
 * Client questions shared between workers (share.h).
 *
 * The table maps (name, type, class) to the worker whose core resolves
 * it (the owner) and the clients of other workers waiting for it (the
 * joiners). A worker claims a question before its core takes it; the
 * claim ends when the core answers it (share_answered) or cannot take it
 * (share_abort). The owner then renders each joiner's reply (its own ID,
 * case, flags and EDNS) from the one validated answer, and posts it to
 * the joiner's loop; a client of another worker thus sees exactly what
 * a client of the owner sees.
 *
 * Every joiner is on the table's list until freed, under the mutex: by
 * its delivery, by its detach while still waiting, by its worker's
 * shutdown while still waiting, or by share_free() for a delivery that
 * a stopped loop never ran. A joiner holds a copy of its question, so
 * the owner never reads another worker's waiter.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cache/siphash.h"
#include "common/limits.h"
#include "daemon/daemon.h"
#include "daemon/share.h"
#include "resolver/resolver.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define SQ_BUCKETS 1024

static __thread uint8_t rbuf[DT_MSG_MAXLEN]; /* replies being rendered */

enum {
	SJ_WAITING,	/* on its question's list */
	SJ_POSTED,	/* its delivery is posted to its worker's loop */
	SJ_CANCELLED,	/* posted, then detached: the delivery frees it */
};

struct squestion;

struct share_join {
	struct share_join *next;	/* on its question's list */
	struct share_join *all_prev, *all_next; /* on the table's list */
	struct squestion *sq;		/* while SJ_WAITING */
	struct worker *w;
	struct waiter *wt;
	struct qinfo q;			/* what the reply must echo */
	int state;
	uint8_t *msg;			/* the reply, once posted */
	size_t len;
};

struct squestion {
	struct squestion *next;
	uint8_t name[DT_NAME_MAXLEN];	/* lower case */
	uint16_t type, qclass;
	struct worker *owner;
	int64_t claimed_ms;		/* the owner's loop clock */
	struct share_join *joiners;
	unsigned njoiners;
};

struct share {
	pthread_mutex_t mu;
	uint64_t k0, k1;
	struct squestion *b[SQ_BUCKETS];
	struct share_join *all;
};

static struct squestion **slot(struct share *s, const uint8_t *lname,
			       uint16_t type, uint16_t qclass)
{
	uint8_t key[4 + DT_NAME_MAXLEN];
	size_t len = wire_dname_len(lname);

	wire_put16(key, type);
	wire_put16(key + 2, qclass);
	memcpy(key + 4, lname, len);
	struct squestion **p = &s->b[cache_siphash13(s->k0, s->k1, key,
						     4 + len) %
				     SQ_BUCKETS];
	while (*p && !((*p)->type == type && (*p)->qclass == qclass &&
		       wire_dname_equal((*p)->name, lname)))
		p = &(*p)->next;
	return p;
}

/* Frees a joiner (the mutex held). */
static void join_free(struct share *s, struct share_join *j)
{
	if (j->all_prev)
		j->all_prev->all_next = j->all_next;
	else
		s->all = j->all_next;
	if (j->all_next)
		j->all_next->all_prev = j->all_prev;
	free(j->msg);
	free(j);
}

/* Takes j off its question's list (the mutex held). */
static void unlink_waiting(struct share_join *j)
{
	for (struct share_join **p = &j->sq->joiners; *p; p = &(*p)->next) {
		if (*p == j) {
			*p = j->next;
			j->sq->njoiners--;
			break;
		}
	}
	j->sq = NULL;
}

int share_init(struct daemon *d)
{
	struct share *s = calloc(1, sizeof(*s));
	uint64_t seed[2];

	if (!s || getrandom(seed, sizeof(seed), 0) != sizeof(seed)) {
		free(s);
		return -ENOMEM;
	}
	pthread_mutex_init(&s->mu, NULL);
	s->k0 = seed[0];
	s->k1 = seed[1];
	d->share = s;
	return 0;
}

void share_free(struct daemon *d)
{
	struct share *s = d->share;

	if (!s)
		return;
	while (s->all)
		join_free(s, s->all);
	for (size_t b = 0; b < SQ_BUCKETS; b++) {
		while (s->b[b]) {
			struct squestion *sq = s->b[b];
			s->b[b] = sq->next;
			free(sq);
		}
	}
	pthread_mutex_destroy(&s->mu);
	free(s);
	d->share = NULL;
}

enum share_role share_join(struct worker *w, struct waiter *wt)
{
	struct share *s = w->d->share;
	uint8_t lname[DT_NAME_MAXLEN];
	int64_t now = loop_now_ms(w->loop);
	enum share_role role = SHARE_LOCAL;

	if (!s || wt->rw.nest)
		return SHARE_LOCAL;
	wire_dname_copy(lname, wt->rw.q.qname);
	wire_dname_tolower(lname);
	pthread_mutex_lock(&s->mu);
	struct squestion **p = slot(s, lname, wt->rw.q.qtype, wt->rw.q.qclass);
	struct squestion *sq = *p;
	if (sq && sq->owner != w &&
	    now - sq->claimed_ms < (int64_t)w->st->cfg.query_timeout_ms &&
	    sq->njoiners < DT_DMN_WAITERS_PER_TASK) {
		/* Another worker's: wait for its answer. (A claim older than
		 * a question may wait, or one with too many waiting, is
		 * left alone: this worker's core takes the question.) */
		struct share_join *j = calloc(1, sizeof(*j));
		if (j) {
			j->sq = sq;
			j->w = w;
			j->wt = wt;
			j->q = wt->rw.q;
			j->next = sq->joiners;
			sq->joiners = j;
			sq->njoiners++;
			j->all_next = s->all;
			if (s->all)
				s->all->all_prev = j;
			s->all = j;
			wt->sj = j;
			role = SHARE_JOINED;
		}
	} else if (!sq && (sq = calloc(1, sizeof(*sq)))) {
		wire_dname_copy(sq->name, lname);
		sq->type = wt->rw.q.qtype;
		sq->qclass = wt->rw.q.qclass;
		sq->owner = w;
		sq->claimed_ms = now;
		*p = sq;
		role = SHARE_CLAIMED;
	}
	pthread_mutex_unlock(&s->mu);
	if (role == SHARE_JOINED) {
		STAT_INC(w, joined);
		STAT_INC(w, joined_workers);
	}
	return role;
}

static void deliver(void *arg)
{
	struct share_join *j = arg;
	struct share *s = j->w->d->share;
	struct waiter *wt = NULL;

	pthread_mutex_lock(&s->mu);
	if (j->state == SJ_POSTED) {
		wt = j->wt;
		wt->sj = NULL;
		/* The reply stays j's until it is sent. */
	}
	pthread_mutex_unlock(&s->mu);
	if (wt && j->msg)
		j->w->reply(wt, j->msg, j->len);
	else if (wt) /* no memory for its reply */
		j->w->reply(wt, rbuf,
			    rsv_error(&j->q, WIRE_RCODE_SERVFAIL,
				      WIRE_EDE_OTHER, "out of memory", rbuf,
				      sizeof(rbuf)));
	pthread_mutex_lock(&s->mu);
	join_free(s, j);
	pthread_mutex_unlock(&s->mu);
}

/*
 * Ends w's claim on (lname, type, qclass), if w holds one: every joiner
 * gets a reply rendered by render(arg, q, buf, cap), posted to its loop.
 */
static void end_claim(struct worker *w, const uint8_t *lname, uint16_t type,
		      uint16_t qclass,
		      size_t (*render)(const void *arg, const struct qinfo *q,
				       uint8_t *buf, size_t cap),
		      const void *arg)
{
	struct share *s = w->d->share;
	struct share_join *list = NULL;

	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	struct squestion **p = slot(s, lname, type, qclass);
	struct squestion *sq = *p;
	if (sq && sq->owner == w) {
		*p = sq->next;
		list = sq->joiners;
		for (struct share_join *j = list; j; j = j->next) {
			size_t len = render(arg, &j->q, rbuf, sizeof(rbuf));
			j->state = SJ_POSTED;
			j->sq = NULL;
			j->msg = malloc(len ? len : 1);
			j->len = j->msg ? len : 0;
			if (j->msg)
				memcpy(j->msg, rbuf, len);
		}
		free(sq);
	}
	pthread_mutex_unlock(&s->mu);
	/* Nobody frees a posted joiner but its delivery (or share_free). */
	while (list) {
		struct share_join *j = list;
		list = j->next;
		(void)loop_post(j->w->loop, deliver, j);
	}
}

static size_t render_answer(const void *arg, const struct qinfo *q,
			    uint8_t *buf, size_t cap)
{
	return rsv_render(arg, q, 0, buf, cap);
}

void share_answered(struct worker *w, const struct rsv_done *d)
{
	if (d->nest == 0)
		end_claim(w, d->qname, d->qtype, d->qclass, render_answer,
			  d->a);
}

struct failure {
	uint16_t ede;
	const char *text;
};

static size_t render_failure(const void *arg, const struct qinfo *q,
			     uint8_t *buf, size_t cap)
{
	const struct failure *f = arg;

	return rsv_error(q, WIRE_RCODE_SERVFAIL, f->ede, f->text, buf, cap);
}

void share_abort(struct worker *w, const struct qinfo *q, uint16_t ede,
		 const char *text)
{
	uint8_t lname[DT_NAME_MAXLEN];
	struct failure f = {ede, text};

	wire_dname_copy(lname, q->qname);
	wire_dname_tolower(lname);
	end_claim(w, lname, q->qtype, q->qclass, render_failure, &f);
}

bool share_detach(struct waiter *wt)
{
	struct share_join *j = wt->sj;

	if (!j)
		return false;
	struct share *s = wt->w->d->share;
	pthread_mutex_lock(&s->mu);
	if (j->state == SJ_WAITING) {
		unlink_waiting(j);
		join_free(s, j);
	} else {
		j->state = SJ_CANCELLED; /* its delivery frees it */
	}
	wt->sj = NULL;
	pthread_mutex_unlock(&s->mu);
	return true;
}

void share_shutdown(struct worker *w)
{
	struct share *s = w->d->share;

	if (!s)
		return;
	/* Its claims: its core has answered them all already (rsv_free).
	 * Left are its clients waiting for other workers' answers: they are
	 * answered here, under the mutex (w->reply never takes it). */
	pthread_mutex_lock(&s->mu);
	for (struct share_join *j = s->all, *n; j; j = n) {
		n = j->all_next;
		if (j->w != w || j->state == SJ_CANCELLED)
			continue;
		struct waiter *wt = j->wt;
		wt->sj = NULL;
		if (j->state == SJ_WAITING) {
			unlink_waiting(j);
			join_free(s, j);
		} else {
			j->state = SJ_CANCELLED; /* its delivery frees it */
		}
		w->reply(wt, rbuf,
			 rsv_error(&wt->rw.q, WIRE_RCODE_SERVFAIL,
				   WIRE_EDE_OTHER, "dnstrustd is stopping",
				   rbuf, sizeof(rbuf)));
	}
	pthread_mutex_unlock(&s->mu);
}
