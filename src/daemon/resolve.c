/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/errcode.h"
#include "daemon/admin_ops.h"
#include "daemon/daemon.h"
#include "daemon/resolve.h"
#include "resolver/render.h"
#include "upstream/transport.h"
#include "wire/msg.h"

static __thread uint8_t buf[DT_MSG_MAXLEN];

static void clock_of(const struct worker *w, struct rsv_clock *c)
{
	c->mono_ms = loop_now_ms(w->loop);
	c->wall = worker_wallclock(w);
}

/* --- the core's fetches, through the worker's upstream client --- */

struct wfetch {
	struct worker *w;
	struct rsv_fetch *f;
	struct up_req *req;
};

static void fetch_done(void *arg, int err, const struct up_answer *ans,
		       int last_rcode)
{
	struct wfetch *wf = arg;
	struct rsv_clock now;
	char from[DT_FETCH_FROM_LEN] = "upstream";

	(void)last_rcode;
	clock_of(wf->w, &now);
	if (!err && ans && ans->server)
		up_server_str(ans->server, from, sizeof(from));
	struct rsv_fetch *f = wf->f;
	free(wf);
	rsv_fetch_done(f, err, err ? NULL : ans->msg, err ? 0 : ans->len, from,
		       &now);
}

static int fetch(void *arg, struct rsv_fetch *f, const uint8_t *name,
		 uint16_t type, const struct up_conf *servers, void **handle)
{
	struct worker *w = arg;
	struct wfetch *wf = malloc(sizeof(*wf));

	if (!wf)
		return -ENOMEM;
	wf->w = w;
	wf->f = f;
	wf->req = up_query(w->up, name, type, WIRE_CLASS_IN, servers,
			   fetch_done, wf);
	if (!wf->req) {
		free(wf);
		return -ENOMEM;
	}
	*handle = wf;
	return 0;
}

static void fetch_cancel(void *arg, void *handle)
{
	struct wfetch *wf = handle;

	(void)arg;
	up_cancel(wf->req);
	free(wf);
}

/* --- the core's answers, to the waiting clients --- */

static void answered(void *arg, struct rsv_waiter *list,
		     const struct rsv_done *d)
{
	struct worker *w = arg;

	admin_ops_finished(w, d->qname, d->qtype, d->a, d->elapsed_ms);
	while (list) {
		struct waiter *wt = (struct waiter *)((char *)list -
						      offsetof(struct waiter,
							       rw));
		list = list->next;
		size_t len = rsv_render(d->a, &wt->rw.q, 0, buf, sizeof(buf));
		w->reply(wt, buf, len);
	}
}

int resolve_init(struct worker *w)
{
	struct rsv_env env = {
		.arg = w,
		.fetch = fetch,
		.fetch_cancel = fetch_cancel,
		.answered = answered,
	};

	w->rsv = rsv_new(w->d->cache, &env);
	if (!w->rsv)
		return -ENOMEM;
	rsv_set_state(w->rsv, w->st);
	return 0;
}

void resolve_set_state(struct worker *w)
{
	if (w->rsv)
		rsv_set_state(w->rsv, w->st);
}

size_t resolve_cached(struct worker *w, const struct qinfo *q, uint8_t *out,
		      size_t cap)
{
	struct rsv_clock now;

	clock_of(w, &now);
	return rsv_cached(w->rsv, q, &now, out, cap);
}

void resolve_submit(struct worker *w, struct waiter *wt)
{
	struct rsv_clock now;

	clock_of(w, &now);
	int r = rsv_submit(w->rsv, &wt->rw, &now);
	if (r == 0)
		return;
	w->reply(wt, buf,
		 reply_error(&wt->rw.q, WIRE_RCODE_SERVFAIL,
			     r == -ENOMEM ? WIRE_EDE_OTHER : WIRE_EDE_NOT_READY,
			     r == -ENOMEM ? "out of memory"
					  : "too many questions under way",
			     buf, sizeof(buf)));
}

void resolve_detach(struct waiter *wt)
{
	rsv_detach(&wt->rw);
}

/* Questions under way are answered SERVFAIL ("shutdown"). */
void resolve_shutdown(struct worker *w)
{
	if (!w->rsv)
		return;
	rsv_free(w->rsv);
	w->rsv = NULL;
}
