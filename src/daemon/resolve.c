/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "common/log.h"
#include "daemon/admin_ops.h"
#include "daemon/daemon.h"
#include "drive/fetch_net.h"
#include "daemon/hotspot.h"
#include "drive/ns_lookup.h"
#include "daemon/resolve.h"
#include "daemon/share.h"
#include "daemon/upstreams.h"
#include "daemon/xwait.h"
#include "policy/policy.h"
#include "policy/route.h"
#include "resolver/render.h"
#include "iterator/iter_msg.h"
#include "iterator/iterate.h"
#include "upstream/capab.h"
#include "upstream/transport.h"
#include "wire/dname.h"
#include "wire/msg.h"

static void clock_of(const struct worker *w, struct rsv_clock *c)
{
	c->mono_ms = loop_now_ms(w->loop);
	c->wall = worker_wallclock(w);
}

/* --- the core's fetches, through the worker's upstream client --- */

/*
 * Fetches are shared between workers: a worker whose core wants (name,
 * type) while another worker has the same query under way does not send
 * it; it is a joiner of that fetch, and the owner posts it a copy of the
 * response (or of the failure) when it comes. The table of fetches
 * under way is the daemon's, behind one mutex, touched only when a fetch
 * starts and ends. Questions to a domain rule's own servers (split DNS)
 * are not shared.
 *
 * Every joiner is on the table's list of joiners until freed, under the
 * mutex: by its delivery (after answering its core), by its cancel
 * (before it was handed a response, or once the owner gave up), or by
 * resolve_daemon_free() for a delivery that a stopped loop never ran.
 */
enum {
	XF_WAITING,   /* on its fetch's list */
	XF_POSTED,    /* its delivery is posted to its worker's loop */
	XF_CANCELLED, /* posted, then cancelled: the delivery frees it */
	XF_ORPHAN,    /* the owner gave up (shutdown): its cancel frees it */
};

/* A joiner (xwait.h); the table's entries are bare struct xw_entry (the
 * class is always IN). */
struct xjoin {
	struct xw_join j; /* first: the table's */
	struct worker *w;
	struct rsv_fetch *f;
	int state;
	int err; /* the delivery, with j.msg */
	char from[DT_FETCH_FROM_LEN];
};

/* The table's slot for (name, type) IN: name in lower case. */
static struct xw_entry **xslot(struct xw_table *t, const uint8_t *name,
			       uint16_t type)
{
	return xw_slot(t, name, type, WIRE_CLASS_IN);
}

static void deliver(void *arg)
{
	struct xjoin *j = arg;
	struct xw_table *t = j->w->d->xfetch;
	struct rsv_clock now;

	if (j->state == XF_POSTED) {
		clock_of(j->w, &now);
		rsv_fetch_done(j->f, j->err, j->j.msg, j->j.len, j->from,
			       &now);
	}
	pthread_mutex_lock(&t->mu);
	xw_join_free(t, &j->j);
	pthread_mutex_unlock(&t->mu);
}

/*
 * The owner's answer (or failure) to every joiner, through its loop; with
 * posting false (the owner gives up at shutdown), none is answered and
 * each is left to its own cancel. x is taken off the table and freed.
 */
static void end_shared(struct worker *w, struct xw_entry *x, bool posting,
		       int err, const uint8_t *msg, size_t len,
		       const char *from)
{
	struct xw_table *t = w->d->xfetch;
	struct xw_join *list;

	pthread_mutex_lock(&t->mu);
	list = xw_take(xslot(t, x->name, x->type));
	for (struct xw_join *xj = list; xj; xj = xj->next) {
		struct xjoin *j = (struct xjoin *)xj;

		j->state = posting ? XF_POSTED : XF_ORPHAN;
		j->err = err;
		if (posting && !err && !xw_set_msg(xj, msg, len))
			j->err = -ENOMEM;
		snprintf(j->from, sizeof(j->from), "%s", from);
	}
	pthread_mutex_unlock(&t->mu);
	free(x);
	while (posting && list) {
		struct xjoin *j = (struct xjoin *)list;
		list = list->next;
		/* A loop that stopped leaves it to resolve_daemon_free(). */
		(void)loop_post(j->w->loop, deliver, j);
	}
}

/* fetch_net's shared_end: the fetch this worker owns on the table
 * ended (posting) or was cancelled. */
static void shared_end(void *arg, void *share, bool posting, int err,
		       const uint8_t *msg, size_t len, const char *from)
{
	end_shared(arg, share, posting, err, msg, len, from);
}

/* Joins a fetch another worker has under way: returns the joiner, or
 * NULL when there is none (then *x is the new entry, or NULL when out of
 * memory). */
static struct xjoin *join_or_own(struct worker *w, struct rsv_fetch *f,
				 const uint8_t *name, uint16_t type,
				 struct xw_entry **x)
{
	struct xw_table *t = w->d->xfetch;
	uint8_t lname[DT_NAME_MAXLEN];
	struct xjoin *j = NULL;

	*x = NULL;
	wire_dname_copy(lname, name);
	wire_dname_tolower(lname);
	pthread_mutex_lock(&t->mu);
	struct xw_entry **slot = xslot(t, lname, type);
	if (*slot) {
		if ((j = xw_join(t, *slot, sizeof(*j)))) {
			j->w = w;
			j->f = f;
			j->state = XF_WAITING;
		}
	} else {
		*x = xw_own(slot, sizeof(**x), lname, type, WIRE_CLASS_IN);
	}
	pthread_mutex_unlock(&t->mu);
	return j;
}

/* A handle is fetch_net's (this worker sends) or, tagged by its low bit, a
 * joiner of another worker's fetch. */
#define JOIN_TAG 1u

/*
 * Whether a fetch goes to the resolv.conf servers even while recursing:
 * private names (rsv_private_domain: private-domain lines, built-in
 * names, and search suffixes the public tree proves unsigned or absent;
 * for a DS, the name's parent, which holds it; a search suffix that is a
 * signed public zone sends nothing to the network, name-server addresses
 * included), and
 * during a hotspot sign-on every question but DS and DNSKEY (the portal
 * is on the network and answers names the public DNS does not have; the
 * chain is still fetched from the root when it can be, so that a signed
 * name stays proven signed and its forged answer stays bogus).
 */
static bool resolve_to_network(struct worker *w, const uint8_t *name,
			       uint16_t type)
{
	if (type != WIRE_TYPE_DS && type != WIRE_TYPE_DNSKEY &&
	    hotspot_left(w))
		return true;
	/* A DS is the parent's: lan. DS is the root's to deny. */
	if (type == WIRE_TYPE_DS && name[0])
		name += 1 + name[0];
	return rsv_private_domain(w->d->cache, w->st,
				  up_client_conf(w->up), name,
				  loop_now_ms(w->loop) / 1000, NULL) != NULL;
}

/*
 * With resolution auto, fetches for the resolv.conf servers wait, for at
 * most DT_UP_JUDGE_WAIT_MS after those servers were set, for the probe's
 * judgement to settle (capab_settled: recursive, or a "yes" the probe
 * has finished checking, its DS step included): a network whose
 * resolver strips what validation needs would otherwise give the first
 * questions bogus answers, cached for bogus-ttl, before the judgement
 * sends them to the root; a "yes" that the DS step is about to take back
 * would let a fetch meet that failure first. Private names go to the
 * network at once (fetch_net.c only holds public ones). Returns the end
 * of the wait, or 0.
 */
static int64_t hold_until(void *arg)
{
	struct worker *w = arg;

	if (!w->d->ups ||
	    __atomic_load_n(&w->d->resolution, __ATOMIC_RELAXED) !=
		    CFG_RES_AUTO ||
	    __atomic_load_n(&w->d->recursing, __ATOMIC_RELAXED) ||
	    capab_settled(upstreams_capab(w->d)))
		return 0;
	return upstreams_judging_until(w->d);
}

static void release_posted(void *arg)
{
	struct worker *w = arg;

	if (w->rsv)
		fn_release(w->fn);
}

void resolve_judged(struct daemon *d)
{
	for (unsigned i = 0; d->workers && i < d->nworkers; i++)
		(void)loop_post(d->workers[i].loop, release_posted,
				&d->workers[i]);
}

static int resolution(void *arg)
{
	struct worker *w = arg;

	return __atomic_load_n(&w->d->resolution, __ATOMIC_RELAXED);
}

static bool recursing(void *arg)
{
	struct worker *w = arg;

	return __atomic_load_n(&w->d->recursing, __ATOMIC_RELAXED);
}

/* The judgement of resolv.conf's servers, which the main loop hands to
 * resolve_set_recursing a moment later. */
static bool judged_recursive(void *arg)
{
	struct worker *w = arg;

	return w->d->ups &&
	       capab_mode(upstreams_capab(w->d), NULL) == CAPAB_MODE_RECURSIVE;
}

static struct iterator *iterator(void *arg)
{
	struct worker *w = arg;

	return w->it;
}

static bool to_network(void *arg, const uint8_t *name, uint16_t type)
{
	return resolve_to_network(arg, name, type);
}

static const struct up_conf *fallback(void *arg)
{
	struct worker *w = arg;

	return &w->st->cfg.fallback;
}

static void fallback_sent(void *arg)
{
	struct worker *w = arg;

	STAT_INC(w, fallback);
}

/* A server sent what made an answer bogus: tried last for a while. */
static void distrust(void *arg, const char *from)
{
	struct worker *w = arg;

	if (w->up)
		up_client_distrust(w->up, from);
	if (w->it)
		it_distrust(w->it, from, up_server_str, loop_now_ms(w->loop));
}

static int fetch(void *arg, struct rsv_fetch *f, const uint8_t *name,
		 uint16_t type, const struct up_conf *servers, void **handle)
{
	struct worker *w = arg;
	struct xw_entry *x = NULL;

	/* Only client questions' fetches are shared between workers: a
	 * nested question's (an NS address) is joined only within its
	 * worker, by rsv_waiter's rule. */
	if (!servers && w->d->xfetch && rsv_fetch_nest(f) == 0 &&
	    rsv_fetch_attempt(f) == 0) {
		struct xjoin *j = join_or_own(w, f, name, type, &x);
		if (j) {
			*handle = (void *)((uintptr_t)j | JOIN_TAG);
			return 0;
		}
	}
	if (fn_fetch(w->fn, f, name, type, servers, x, handle) < 0) {
		if (x)
			end_shared(w, x, true, -ENOMEM, NULL, 0, "");
		return -ENOMEM;
	}
	STAT_INC(w, upstream); /* sent: shared fetches are not counted */
	return 0;
}

static void cancel_joiner(struct worker *w, struct xjoin *j)
{
	struct xw_table *t = w->d->xfetch;

	pthread_mutex_lock(&t->mu);
	switch (j->state) {
	case XF_WAITING:
		xw_unwait(&j->j);
		xw_join_free(t, &j->j);
		break;
	case XF_ORPHAN: xw_join_free(t, &j->j); break;
	default: j->state = XF_CANCELLED; /* its delivery frees it */
	}
	pthread_mutex_unlock(&t->mu);
}

static void fetch_cancel(void *arg, void *handle)
{
	struct worker *w = arg;

	if ((uintptr_t)handle & JOIN_TAG) {
		cancel_joiner(w, (struct xjoin *)((uintptr_t)handle &
						  ~(uintptr_t)JOIN_TAG));
		return;
	}
	fn_cancel(w->fn, handle);
}

int resolve_daemon_init(struct daemon *d)
{
	if (!(d->xfetch = xw_new()))
		return -ENOMEM;
	return share_init(d);
}

void resolve_daemon_free(struct daemon *d)
{
	share_free(d);
	/* The workers have stopped: what is left are fetches and
	 * deliveries that never ended. */
	xw_free(d->xfetch);
	d->xfetch = NULL;
}

/* --- the mode --- */

void resolve_set_recursing(struct daemon *d, bool on, const char *why)
{
	if (__atomic_load_n(&d->resolution, __ATOMIC_RELAXED) != CFG_RES_AUTO)
		return;
	if (__atomic_exchange_n(&d->recursing, on, __ATOMIC_SEQ_CST) == on ||
	    !why)
		return;
	log_notice("resolution: %s (%s)",
		   on ? "recursive, from the root servers"
		      : "forward, to the resolv.conf servers",
		   why);
}

void resolve_set_mode(struct daemon *d, int resolution)
{
	bool on;

	__atomic_store_n(&d->resolution, resolution, __ATOMIC_RELAXED);
	if (resolution == CFG_RES_AUTO)
		return;
	on = resolution == CFG_RES_RECURSIVE;
	if (__atomic_exchange_n(&d->recursing, on, __ATOMIC_SEQ_CST) != on)
		log_notice("resolution: %s (resolution %s)",
			   on ? "recursive, from the root servers"
			      : "forward, to the resolv.conf servers",
			   cfg_resolution_name(resolution));
}

/* --- the addresses of name servers without glue (ns_lookup.h) --- */

static void *ns_start(void *arg, const uint8_t *name, uint16_t type,
		      unsigned nest, it_addrs_fn *cb, void *cbarg)
{
	struct worker *w = arg;
	struct rsv_clock now;

	clock_of(w, &now);
	return ns_lookup_start(w->loop, w->rsv, &now, name, type, nest, cb,
			       cbarg);
}

static void ns_cancel(void *arg, void *handle)
{
	(void)arg;
	ns_lookup_cancel(handle);
}

/* --- the core's answers, to the waiting clients --- */

static void answered(void *arg, struct rsv_waiter *list,
		     const struct rsv_done *d)
{
	struct worker *w = arg;
	bool client = false;

	/* The monitor and the latency and EDE statistics are the clients'
	 * questions: not the core's own lookups of name servers' addresses
	 * (nest > 0), unless a client's question joined one. */
	for (const struct rsv_waiter *rw = list; rw && !client; rw = rw->next)
		client = rw->nest == 0;
	if (client)
		admin_ops_finished(w, d->qname, d->qtype, d->a,
				   d->elapsed_ms);
	hotspot_note(w, d->qname, d->qtype, d->a);
	share_answered(w, d);
	while (list) {
		struct rsv_waiter *rw = list;

		list = list->next;
		if (rw->nest) {
			ns_lookup_answered(rw, d->a, w->render_buf,
					   sizeof(w->render_buf));
			continue;
		}
		struct waiter *wt = (struct waiter *)((char *)rw -
						      offsetof(struct waiter,
							       rw));
		size_t len = answer_render(d->a, &wt->rw.q, 0, w->render_buf,
					   sizeof(w->render_buf));
		w->reply(wt, w->render_buf, len);
	}
}

static const struct up_conf *network(void *arg)
{
	struct worker *w = arg;

	return up_client_conf(w->up);
}

/* The servers of the route learnt for (name, type), or NULL. */
static const struct up_conf *route(void *arg, const uint8_t *name,
				   uint16_t type)
{
	struct worker *w = arg;
	const struct policy_route *r = policy_route_find(w->routes, name, type);

	return r ? &r->servers : NULL;
}

static uint32_t hotspot(void *arg)
{
	return hotspot_left(arg);
}

/* fetch_net's signing_on: a hotspot sign-on is under way. */
static bool signing_on(void *arg)
{
	return hotspot_left(arg) != 0;
}

/* Whether questions go to the resolv.conf servers now (iterated()). */
static bool forwarding(void *arg)
{
	struct worker *w = arg;

	return !w->it || !__atomic_load_n(&w->d->recursing, __ATOMIC_RELAXED);
}

/* Whether the iterator asks zone's DNSKEY beside a question about
 * qname (it_set_keys_ahead). */
static bool keys_ahead(void *arg, const uint8_t *zone, const uint8_t *qname,
		       int64_t now_ms)
{
	struct worker *w = arg;
	struct rsv_clock now;

	(void)now_ms;
	clock_of(w, &now);
	return rsv_keys_ahead(w->rsv, zone, qname, &now);
}

int resolve_init(struct worker *w)
{
	struct rsv_env env = {
		.arg = w,
		.fetch = fetch,
		.distrust = distrust,
		.fetch_cancel = fetch_cancel,
		.answered = answered,
		.network = network,
		.route = route,
		.hotspot = hotspot,
		.forwarding = forwarding,
	};

	const struct fn_env fenv = {
		.arg = w,
		.resolution = resolution,
		.recursing = recursing,
		.judged_recursive = judged_recursive,
		.iterator = iterator,
		.to_network = to_network,
		.fallback = fallback,
		.hold_until = hold_until,
		.shared_end = shared_end,
		.signing_on = signing_on,
		.fallback_sent = fallback_sent,
	};

	if (!(w->fn = fn_new(w->loop, w->up, &fenv)))
		return -ENOMEM;
	w->rsv = rsv_new(w->d->cache, &env);
	if (!w->rsv) {
		fn_free(w->fn);
		w->fn = NULL;
		return -ENOMEM;
	}
	rsv_set_state(w->rsv, w->st);
	if (w->it) {
		struct it_lookup lk = {
			.start = ns_start, .cancel = ns_cancel, .arg = w};
		it_set_lookup(w->it, &lk);
		it_set_keys_ahead(w->it, keys_ahead, w);
	}
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
	return answer_cached(w->rsv, q, &now, out, cap);
}

void resolve_submit(struct worker *w, struct waiter *wt)
{
	struct rsv_clock now;

	enum share_role role = share_join(w, wt);
	if (role == SHARE_JOINED)
		return;
	clock_of(w, &now);
	int r = rsv_submit(w->rsv, &wt->rw, &now);
	if (r == 0)
		return;
	uint16_t ede = r == -ENOMEM ? WIRE_EDE_OTHER : WIRE_EDE_NOT_READY;
	const char *text = r == -ENOMEM ? "out of memory"
					: "too many questions under way";
	if (role == SHARE_CLAIMED)
		share_abort(w, &wt->rw.q, ede, text);
	w->reply(wt, w->render_buf,
		 render_error(&wt->rw.q, WIRE_RCODE_SERVFAIL, ede, text,
			      w->render_buf, sizeof(w->render_buf)));
}

void resolve_detach(struct waiter *wt)
{
	if (!share_detach(wt))
		rsv_detach(&wt->rw);
}

/* Questions under way are answered SERVFAIL ("shutdown"). */
void resolve_shutdown(struct worker *w)
{
	if (!w->rsv)
		return;
	rsv_free(w->rsv); /* cancels the held fetches too, and answers
			     the questions w shares with other workers */
	fn_free(w->fn);
	w->fn = NULL;
	w->rsv = NULL;
	share_shutdown(w);
}
