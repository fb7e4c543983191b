/* SPDX-License-Identifier: MIT */
/*
 * The resolver core's fetches over the network (fetch_net.h): one
 * driver for dnstrustd's workers (resolve.c) and libdnstrust's
 * in-process engine (src/inproc/engine.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "common/loop.h"
#include "drive/fetch_net.h"
#include "iterator/iterate.h"
#include "policy/config.h"
#include "resolver/resolver.h"
#include "upstream/transport.h"
#include "wire/dname.h"
#include "wire/msg.h"

struct fetch_net {
	struct loop *loop;
	struct up_client *up;
	struct fn_env env;
	struct fnreq *held;		/* fetches waiting for the judgement */
	struct loop_timer held_timer;	/* their wait's end */
};

struct fnreq {
	struct fetch_net *n;
	struct rsv_fetch *f;
	struct up_req *req;
	struct it_req *ireq;		/* iterated instead */
	void *share;			/* shared_end's, or NULL */
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	bool network;			/* to resolv.conf's servers, and not
					   a private name: may be iterated */
	bool public;			/* network was set at the start: a
					   failure may go to the
					   fallback-upstream servers */
	struct fnreq *hnext;		/* on n->held while waiting for the
					   upstream judgement */
	bool held;
	bool failed_held;		/* held once after a failure */
	int err;			/* that failure */
};

static bool auto_mode(const struct fetch_net *n)
{
	return n->env.resolution(n->env.arg) == CFG_RES_AUTO;
}

static void fetch_done(void *arg, int err, const struct up_answer *ans,
		       int last_rcode);

/* Asks fr of the iterator (built if it must be). False without one, or
 * when out of memory. */
static bool to_iterator(struct fnreq *fr)
{
	struct fetch_net *n = fr->n;
	struct iterator *it = n->env.iterator(n->env.arg);

	if (!it)
		return false;
	fr->ireq = it_query_nest(it, loop_now_ms(n->loop), fr->name, fr->type,
				 rsv_fetch_nest(fr->f), fetch_done, fr);
	return fr->ireq != NULL;
}

/*
 * With resolution auto, a forwarded response may be the one that shows
 * every resolv.conf server unable to do DNSSEC (transport.c feeds capab
 * before this callback; recursing() may follow a moment later).
 * Validated, it would make good data bogus (stripped RRSIGs, an answer
 * asked without EDNS): it is asked again from the root instead, so that
 * the first questions on such a network get the same verdicts as the
 * later ones. True when it was.
 */
static bool refetch_iterated(struct fnreq *fr)
{
	struct fetch_net *n = fr->n;

	if (!fr->req || !fr->network || !auto_mode(n) ||
	    !n->env.judged_recursive(n->env.arg))
		return false;
	fr->network = false;
	fr->req = NULL;
	return to_iterator(fr);
}

/*
 * A public name's fetch that neither the network's servers nor recursion
 * answered goes, once, to the fallback-upstream servers (DNS over TLS,
 * chosen by the administrator). Their answer is validated as any other.
 * Private names never leave the network. True when it was sent.
 */
static bool refetch_fallback(struct fnreq *fr)
{
	struct fetch_net *n = fr->n;
	const struct up_conf *fb;

	if (!fr->public)
		return false;
	fb = n->env.fallback(n->env.arg);
	if (!fb || !fb->nns)
		return false;
	fr->public = false;
	fr->network = false; /* its answer is not asked again from the root */
	fr->ireq = NULL;
	fr->req = up_query_ex(n->up, fr->name, fr->type, WIRE_CLASS_IN, fb,
			      UP_Q_TCP, fetch_done, fr);
	if (fr->req && n->env.fallback_sent)
		n->env.fallback_sent(n->env.arg);
	return fr->req != NULL;
}

/*
 * During a hotspot sign-on, a DS or DNSKEY that recursion could not get
 * (a portal lets no query out but to itself, and a portal is a "no" that
 * makes resolution auto recurse) is asked of the network's servers, as
 * a forwarder asks it: validated the same, so that a signed name stays
 * proven signed and the portal's forgery of it bogus, instead of
 * unvalidated for want of a chain. True when it was sent.
 */
static bool refetch_network(struct fnreq *fr)
{
	struct fetch_net *n = fr->n;

	if (!fr->ireq || !fr->network ||
	    (fr->type != WIRE_TYPE_DS && fr->type != WIRE_TYPE_DNSKEY) ||
	    !n->env.signing_on || !n->env.signing_on(n->env.arg))
		return false;
	fr->network = false; /* once; its answer is not asked again */
	fr->ireq = NULL;
	fr->req = up_query_ex(n->up, fr->name, fr->type, WIRE_CLASS_IN, NULL,
			      rsv_fetch_attempt(fr->f) ? UP_Q_TCP : 0,
			      fetch_done, fr);
	return fr->req != NULL;
}

/* Puts fr on n->held until until (loop milliseconds), the timer set. */
static void hold(struct fnreq *fr, int64_t until)
{
	struct fetch_net *n = fr->n;

	fr->held = true;
	fr->hnext = n->held;
	n->held = fr;
	if (!n->held_timer.heap_index)
		loop_timer_start(n->loop, &n->held_timer,
				 until - loop_now_ms(n->loop));
}

/*
 * failed_hold_until: a forwarded public fetch that failed before the
 * judgement of resolv.conf's servers settled waits for it, once (the
 * in-process engine's first call waits only for the probe's first
 * verdict). True when it was held.
 */
static bool hold_failed(struct fnreq *fr, int err)
{
	struct fetch_net *n = fr->n;
	int64_t until;

	if (!fr->req || !fr->network || fr->failed_held ||
	    !n->env.failed_hold_until)
		return false;
	until = n->env.failed_hold_until(n->env.arg);
	if (!until || loop_now_ms(n->loop) >= until)
		return false;
	fr->req = NULL;
	fr->failed_held = true;
	fr->err = err;
	hold(fr, until);
	return true;
}

static void fetch_done(void *arg, int err, const struct up_answer *ans,
		       int last_rcode)
{
	struct fnreq *fr = arg;
	struct fetch_net *n = fr->n;
	struct rsv_fetch *f = fr->f;
	struct rsv_clock now;
	char from[DT_FETCH_FROM_LEN] = "upstream";

	(void)last_rcode;
	if (refetch_iterated(fr))
		return;
	if (err && hold_failed(fr, err))
		return;
	if (err && refetch_network(fr))
		return;
	if (err && refetch_fallback(fr))
		return;
	now.mono_ms = loop_now_ms(n->loop);
	now.wall = loop_wallclock(n->loop);
	if (!err && ans && ans->server)
		up_server_str(ans->server, from, sizeof(from));
	if (fr->share)
		n->env.shared_end(n->env.arg, fr->share, true, err,
				  err ? NULL : ans->msg, err ? 0 : ans->len,
				  from);
	free(fr);
	rsv_fetch_done(f, err, err ? NULL : ans->msg, err ? 0 : ans->len, from,
		       &now);
}

/*
 * Whether fr goes to the iterator rather than upstream: while recursing,
 * and, with resolution auto, for the last attempt of a question asked
 * again (DT_RSV_RETRY_MAX): what the network's servers sent twice was
 * bogus or unusable, so the root is asked before failing.
 */
static bool iterated(const struct fetch_net *n, const struct fnreq *fr)
{
	if (!fr->network)
		return false;
	if (n->env.recursing(n->env.arg))
		return true;
	return rsv_fetch_attempt(fr->f) >= DT_RSV_RETRY_MAX && auto_mode(n);
}

/* Sends fr: to the iterator when iterated(), else upstream (servers: a
 * domain rule's, NULL: resolv.conf's); an attempt after the first over
 * TCP, where an off-path forger cannot reach (resolver.h). False when
 * out of memory. */
static bool send_fetch(struct fetch_net *n, struct fnreq *fr,
		       const struct up_conf *servers)
{
	if (iterated(n, fr) && to_iterator(fr))
		return true;
	fr->req = up_query_ex(n->up, fr->name, fr->type, WIRE_CLASS_IN,
			      servers,
			      rsv_fetch_attempt(fr->f) ? UP_Q_TCP : 0,
			      fetch_done, fr);
	return fr->req != NULL;
}

/* Whether fr waits for the judgement of resolv.conf's servers (until
 * *until): only public names, only while the caller says so. */
static bool must_wait(struct fetch_net *n, const struct fnreq *fr,
		      int64_t *until)
{
	if (!fr->network || !n->env.hold_until)
		return false;
	*until = n->env.hold_until(n->env.arg);
	return *until && loop_now_ms(n->loop) < *until;
}

void fn_release(struct fetch_net *n)
{
	struct fnreq *list = n->held;

	n->held = NULL;
	loop_timer_stop(n->loop, &n->held_timer);
	while (list) {
		struct fnreq *fr = list;
		list = fr->hnext;
		fr->held = false;
		fr->hnext = NULL;
		/* A failure held for the judgement is asked from the root
		 * when it turned recursive, else it stands. */
		if (fr->failed_held && !iterated(n, fr))
			fetch_done(fr, fr->err, NULL, -1);
		else if (!send_fetch(n, fr, NULL))
			fetch_done(fr, -ENOMEM, NULL, -1);
	}
}

static void held_expired(struct loop_timer *t)
{
	fn_release(t->arg);
}

int fn_fetch(struct fetch_net *n, struct rsv_fetch *f, const uint8_t *name,
	     uint16_t type, const struct up_conf *servers, void *share,
	     void **handle)
{
	struct fnreq *fr = calloc(1, sizeof(*fr));
	int64_t until;

	if (!fr)
		return -ENOMEM;
	fr->n = n;
	fr->f = f;
	fr->share = share;
	wire_dname_copy(fr->name, name);
	fr->type = type;
	fr->network = !servers && !n->env.to_network(n->env.arg, name, type);
	fr->public = fr->network;
	if (must_wait(n, fr, &until))
		hold(fr, until);
	else if (!send_fetch(n, fr, servers)) {
		free(fr);
		return -ENOMEM;
	}
	*handle = fr;
	return 0;
}

void fn_cancel(struct fetch_net *n, void *handle)
{
	struct fnreq *fr = handle;

	if (fr->held) {
		for (struct fnreq **p = &n->held; *p; p = &(*p)->hnext) {
			if (*p == fr) {
				*p = fr->hnext;
				break;
			}
		}
	}
	up_cancel(fr->req);
	it_cancel(fr->ireq);
	if (fr->share) /* shutdown: its joiners are left to their own */
		n->env.shared_end(n->env.arg, fr->share, false, DT_ETIMEOUT,
				  NULL, 0, "");
	free(fr);
}

struct fetch_net *fn_new(struct loop *loop, struct up_client *up,
			 const struct fn_env *env)
{
	struct fetch_net *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->loop = loop;
	n->up = up;
	n->env = *env;
	n->held_timer.cb = held_expired;
	n->held_timer.arg = n;
	return n;
}

void fn_free(struct fetch_net *n)
{
	if (!n)
		return;
	loop_timer_stop(n->loop, &n->held_timer);
	free(n);
}
