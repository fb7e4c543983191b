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
#include <stdlib.h>

#include "common/limits.h"
#include "daemon/daemon.h"
#include "daemon/share.h"
#include "daemon/xwait.h"
#include "resolver/resolver.h"
#include "wire/dname.h"
#include "wire/msg.h"

enum {
	SJ_WAITING,   /* on its question's list */
	SJ_POSTED,    /* its delivery is posted to its worker's loop */
	SJ_CANCELLED, /* posted, then detached: the delivery frees it */
};

struct share_join {
	struct xw_join j; /* first: the table's */
	struct worker *w;
	struct waiter *wt;
	struct qinfo q; /* what the reply must echo */
	int state;
};

struct squestion {
	struct xw_entry e; /* first: the table's */
	struct worker *owner;
	int64_t claimed_ms; /* the owner's loop clock */
};

int share_init(struct daemon *d)
{
	d->share = xw_new();
	return d->share ? 0 : -ENOMEM;
}

void share_free(struct daemon *d)
{
	xw_free(d->share);
	d->share = NULL;
}

enum share_role share_join(struct worker *w, struct waiter *wt)
{
	struct xw_table *s = w->d->share;
	uint8_t lname[DT_NAME_MAXLEN];
	int64_t now = loop_now_ms(w->loop);
	enum share_role role = SHARE_LOCAL;

	if (!s || wt->rw.nest)
		return SHARE_LOCAL;
	wire_dname_copy(lname, wt->rw.q.qname);
	wire_dname_tolower(lname);
	pthread_mutex_lock(&s->mu);
	struct xw_entry **p =
		xw_slot(s, lname, wt->rw.q.qtype, wt->rw.q.qclass);
	struct squestion *sq = (struct squestion *)*p;
	if (sq && sq->owner != w &&
	    now - sq->claimed_ms < (int64_t)w->st->cfg.query_timeout_ms &&
	    sq->e.njoiners < DT_DMN_WAITERS_PER_TASK) {
		/* Another worker's: wait for its answer. (A claim older than
		 * a question may wait, or one with too many waiting, is
		 * left alone: this worker's core takes the question.) */
		struct share_join *j = xw_join(s, &sq->e, sizeof(*j));
		if (j) {
			j->w = w;
			j->wt = wt;
			j->q = wt->rw.q;
			j->state = SJ_WAITING;
			wt->sj = j;
			role = SHARE_JOINED;
		}
	} else if (!sq && (sq = xw_own(p, sizeof(*sq), lname, wt->rw.q.qtype,
				       wt->rw.q.qclass))) {
		sq->owner = w;
		sq->claimed_ms = now;
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
	struct xw_table *s = j->w->d->share;
	struct waiter *wt = NULL;

	pthread_mutex_lock(&s->mu);
	if (j->state == SJ_POSTED) {
		wt = j->wt;
		wt->sj = NULL;
		/* The reply stays j's until it is sent. */
	}
	pthread_mutex_unlock(&s->mu);
	if (wt && j->j.msg)
		j->w->reply(wt, j->j.msg, j->j.len);
	else if (wt) /* no memory for its reply */
		j->w->reply(wt, j->w->share_buf,
			    answer_error(&j->q, WIRE_RCODE_SERVFAIL,
					 WIRE_EDE_OTHER, "out of memory",
					 j->w->share_buf,
					 sizeof(j->w->share_buf)));
	pthread_mutex_lock(&s->mu);
	xw_join_free(s, &j->j);
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
	struct xw_table *s = w->d->share;
	struct xw_join *list = NULL;

	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	struct xw_entry **p = xw_slot(s, lname, type, qclass);
	struct squestion *sq = (struct squestion *)*p;
	if (sq && sq->owner == w) {
		list = xw_take(p);
		for (struct xw_join *xj = list; xj; xj = xj->next) {
			struct share_join *j = (struct share_join *)xj;
			size_t len = render(arg, &j->q, w->share_buf,
					    sizeof(w->share_buf));
			j->state = SJ_POSTED;
			/* Without memory, deliver() says so. */
			(void)xw_set_msg(xj, w->share_buf, len);
		}
		free(sq);
	}
	pthread_mutex_unlock(&s->mu);
	/* Nobody frees a posted joiner but its delivery (or share_free). */
	while (list) {
		struct share_join *j = (struct share_join *)list;
		list = list->next;
		(void)loop_post(j->w->loop, deliver, j);
	}
}

static size_t render_answer(const void *arg, const struct qinfo *q,
			    uint8_t *buf, size_t cap)
{
	return answer_render(arg, q, 0, buf, cap);
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

	return answer_error(q, WIRE_RCODE_SERVFAIL, f->ede, f->text, buf, cap);
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
	struct xw_table *s = wt->w->d->share;
	pthread_mutex_lock(&s->mu);
	if (j->state == SJ_WAITING) {
		xw_unwait(&j->j);
		xw_join_free(s, &j->j);
	} else {
		j->state = SJ_CANCELLED; /* its delivery frees it */
	}
	wt->sj = NULL;
	pthread_mutex_unlock(&s->mu);
	return true;
}

void share_shutdown(struct worker *w)
{
	struct xw_table *s = w->d->share;

	if (!s)
		return;
	/* Its claims: its core has answered them all already (rsv_free).
	 * Left are its clients waiting for other workers' answers: they are
	 * answered here, under the mutex (w->reply never takes it). */
	pthread_mutex_lock(&s->mu);
	for (struct xw_join *xj = s->all, *n; xj; xj = n) {
		struct share_join *j = (struct share_join *)xj;
		n = xj->all_next;
		if (j->w != w || j->state == SJ_CANCELLED)
			continue;
		struct waiter *wt = j->wt;
		wt->sj = NULL;
		if (j->state == SJ_WAITING) {
			xw_unwait(xj);
			xw_join_free(s, xj);
		} else {
			j->state = SJ_CANCELLED; /* its delivery frees it */
		}
		w->reply(wt, w->share_buf,
			 answer_error(&wt->rw.q, WIRE_RCODE_SERVFAIL,
				      WIRE_EDE_OTHER, "dnstrustd is stopping",
				      w->share_buf, sizeof(w->share_buf)));
	}
	pthread_mutex_unlock(&s->mu);
}
