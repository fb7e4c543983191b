/* SPDX-License-Identifier: MIT */
/*
 * The table's events come from the workers' threads (and the probes');
 * they are gathered in an atomic mask and handled on the main loop, one
 * post for any number of them. Their notices are limited per server
 * (noticelimit.h): a flapping server is summed up, not logged per flip.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "common/log.h"
#include "daemon/daemon.h"
#include "daemon/noticelimit.h"
#include "daemon/upstreams.h"
#include "policy/route.h"
#include "upstream/capab.h"
#include "upstream/probe.h"
#include "upstream/transport.h"
#include "wire/dname.h"

struct upstreams {
	struct capab *capab;
	struct up_probe *probe;
	unsigned events;		     /* atomic: not yet handled */
	bool recursive;			     /* atomic: the judgement */
	struct capab_view seen[DT_UP_MAXNS]; /* as last noticed */
	size_t nseen;
	struct daemon *d;
	struct noticelimit lim;	     /* notices per server, judgement */
	struct loop_timer lim_timer; /* the next summary of held ones */
	int64_t judge_until;	     /* atomic: upstreams_judging_until */
	bool probe_off;		     /* the probe asks nobody (resolution
					recursive) */
	bool probe_set;		     /* probe_off is what it was given */
};

static void on_events(void *arg);
static void on_lim_timer(struct loop_timer *t);

/* Any thread: gathers events, posts their handling once. */
static void capab_event(void *arg, unsigned events)
{
	struct daemon *d = arg;

	if (__atomic_fetch_or(&d->ups->events, events, __ATOMIC_ACQ_REL) == 0)
		(void)loop_post(d->loop, on_events, d);
}

/* The servers were just set: fetches wait for a verdict a moment. */
static void judge_from_now(struct upstreams *u)
{
	__atomic_store_n(&u->judge_until,
			 loop_now_ms(u->d->loop) + DT_UP_JUDGE_WAIT_MS,
			 __ATOMIC_RELAXED);
}

/* A verdict is in (or the wait is over): the workers send what waited. */
static void judged(struct daemon *d)
{
	__atomic_store_n(&d->ups->judge_until, 0, __ATOMIC_RELAXED);
	if (d->judged)
		d->judged(d);
}

int64_t upstreams_judging_until(struct daemon *d)
{
	return d->ups ? __atomic_load_n(&d->ups->judge_until, __ATOMIC_RELAXED)
		      : 0;
}

/* The servers the probe asks: none while resolution is configured
 * recursive (their judgement is not used, and a hostile network learns
 * nothing from our questions to it). */
static void probe_servers(struct daemon *d)
{
	static const struct up_conf none;
	bool rec = __atomic_load_n(&d->resolution, __ATOMIC_RELAXED) ==
		   CFG_RES_RECURSIVE;

	if (rec == d->ups->probe_off && d->ups->probe_set)
		return;
	d->ups->probe_off = rec;
	d->ups->probe_set = true;
	up_probe_set_conf(d->ups->probe, rec ? &none : &d->upconf);
}

int upstreams_init(struct daemon *d)
{
	struct upstreams *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	d->ups = u;
	u->d = d;
	u->lim_timer.cb = on_lim_timer;
	u->lim_timer.arg = u;
	u->capab = capab_new(capab_event, d);
	u->probe = u->capab ? up_probe_new(d->loop, u->capab) : NULL;
	if (!u->probe)
		return -ENOMEM;
	capab_set_servers(u->capab, &d->upconf);
	if (d->st && up_probe_set_tls_ca(u->probe, d->st->cfg.tls_ca) < 0)
		return -ENOMEM;
	probe_servers(d);
	judge_from_now(u);
	return 0;
}

void upstreams_free(struct daemon *d)
{
	struct upstreams *u = d->ups;

	if (!u)
		return;
	loop_timer_stop(d->loop, &u->lim_timer);
	up_probe_free(u->probe);
	capab_free(u->capab);
	free(u);
	d->ups = NULL;
}

void upstreams_attach(struct worker *w)
{
	up_client_set_capab(w->up, w->d->ups->capab, true);
}

void upstreams_set_conf(struct daemon *d)
{
	struct upstreams *u = d->ups;

	capab_set_servers(u->capab, &d->upconf);
	u->probe_set = false;
	probe_servers(d);
	judge_from_now(u);
	u->nseen = 0;
	upstreams_changed_verdict(d);
}

/* The route of rt for the same domain as r, or NULL. */
static const struct policy_route *same_route(const struct policy_routes *rt,
					     const struct policy_route *r)
{
	for (size_t i = 0; i < rt->n; i++)
		if (wire_dname_equal(rt->r[i].name, r->name))
			return &rt->r[i];
	return NULL;
}

void upstreams_log_routes(const struct policy_routes *was,
			  const struct policy_routes *now, const char *source)
{
	char text[DT_NAME_TEXT_MAXLEN + DT_UP_MAXNS * 80 + NAME_MAX + 8];

	for (size_t i = 0; i < was->n; i++) {
		if (same_route(now, &was->r[i]))
			continue;
		policy_route_str(&was->r[i], text, sizeof(text));
		log_notice("%s: route gone: %s", source, text);
	}
	for (size_t i = 0; i < now->n; i++) {
		const struct policy_route *o = same_route(was, &now->r[i]);

		if (o && up_conf_equal(&o->servers, &now->r[i].servers))
			continue;
		policy_route_str(&now->r[i], text, sizeof(text));
		log_notice("%s: route learnt: %s", source, text);
	}
	if (now->dropped && now->dropped != was->dropped)
		log_warn("%s: %u domains not routed (at most %d routes)",
			 source, now->dropped, DT_UP_MAXROUTES);
}

size_t upstreams_list(struct daemon *d, struct capab_view *out, size_t cap)
{
	return capab_list(d->ups->capab, out, cap);
}

bool upstreams_recursive(struct daemon *d)
{
	return __atomic_load_n(&d->ups->recursive, __ATOMIC_RELAXED);
}

struct capab *upstreams_capab(struct daemon *d)
{
	return d->ups->capab;
}

/* --- notices --- */

static const struct capab_view *seen_of(const struct upstreams *u,
					const struct up_server *s)
{
	for (size_t i = 0; i < u->nseen; i++)
		if (up_server_equal(&u->seen[i].server, s))
			return &u->seen[i];
	return NULL;
}

static const struct up_server judgement_subject; /* zeroed */

/* "N verdict changes of ADDR not logged in the last M s; now ..." */
static void log_held(struct upstreams *u, const struct up_server *s,
		     unsigned held, unsigned secs)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(u->capab, v, DT_UP_MAXNS);
	const char *reason;
	char a[80];

	if (s->addr.ss_family == AF_UNSPEC) {
		enum capab_mode m = capab_mode(u->capab, &reason);
		log_notice("%u upstream judgement changes not logged in the "
			   "last %u s; now %s",
			   held, secs,
			   m == CAPAB_MODE_RECURSIVE ? "recursive"
			   : m == CAPAB_MODE_FORWARD ? "forward"
						     : "undecided");
		return;
	}
	up_server_str(s, a, sizeof(a));
	for (size_t i = 0; i < n; i++)
		if (up_server_equal(&v[i].server, s)) {
			log_notice("%u verdict changes of upstream %s not "
				   "logged in the last %u s; now dnssec %s "
				   "(%s)",
				   held, a, secs, capab_tri_name(v[i].dnssec),
				   v[i].reason);
			return;
		}
	log_notice("%u verdict changes of upstream %s not logged in the "
		   "last %u s",
		   held, a, secs);
}

/* Whether a notice about s may be logged now (after the summary of
 * those held back, when due); the timer is set for the next summary. */
static bool may_log(struct upstreams *u, const struct up_server *s)
{
	struct loop *loop = u->d->loop;
	unsigned held, secs;
	bool ok = noticelimit_take(&u->lim, s, loop_now_ms(loop), &held, &secs);
	int64_t due = noticelimit_due(&u->lim);

	if (held)
		log_held(u, s, held, secs);
	if (due >= 0)
		loop_timer_start(loop, &u->lim_timer, due - loop_now_ms(loop));
	return ok;
}

/* A window holding notices back ended: their summaries. */
static void on_lim_timer(struct loop_timer *t)
{
	struct upstreams *u = t->arg;
	struct loop *loop = u->d->loop;
	struct up_server s;
	unsigned held, secs;
	int64_t due;

	while (noticelimit_flush(&u->lim, loop_now_ms(loop), &s, &held, &secs))
		log_held(u, &s, held, secs);
	if ((due = noticelimit_due(&u->lim)) >= 0)
		loop_timer_start(loop, t, due - loop_now_ms(loop));
}

/* A notice for each server whose verdict or reason changed (as many as
 * noticelimit allows; u->seen follows every change). */
static void log_changes(struct upstreams *u)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(u->capab, v, DT_UP_MAXNS);

	for (size_t i = 0; i < n; i++) {
		const struct capab_view *o = seen_of(u, &v[i].server);
		char a[80];

		if ((o && o->dnssec == v[i].dnssec &&
		     strcmp(o->reason, v[i].reason) == 0) ||
		    !may_log(u, &v[i].server))
			continue;
		up_server_str(&v[i].server, a, sizeof(a));
		log_notice("upstream %s: dnssec %s (%s)%s%s", a,
			   capab_tri_name(v[i].dnssec), v[i].reason,
			   v[i].edns_off ? "; asked without EDNS" : "",
			   v[i].tcp_first ? "; asked over TCP" : "");
	}
	memcpy(u->seen, v, n * sizeof(v[0]));
	u->nseen = n;
}

/* "ADDR: reason, ADDR: reason" of the servers that cannot. */
static void why_not(struct upstreams *u, char *buf, size_t len)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(u->capab, v, DT_UP_MAXNS), off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		char a[80];

		if (v[i].dnssec != CAPAB_NO)
			continue;
		up_server_str(&v[i].server, a, sizeof(a));
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s",
					off ? ", " : "", a, v[i].reason);
	}
}

void upstreams_changed_verdict(struct daemon *d)
{
	struct upstreams *u = d->ups;
	const char *reason;
	enum capab_mode m = capab_mode(u->capab, &reason);
	bool rec = u->recursive, told;
	char why[400];

	if ((m == CAPAB_MODE_RECURSIVE) == rec || m == CAPAB_MODE_UNDECIDED)
		return;
	if ((told = may_log(u, &judgement_subject)) && !rec) {
		why_not(u, why, sizeof(why));
		log_notice("upstream judgement: recursive: %s (%s)", reason,
			   why);
	} else if (told) {
		snprintf(why, sizeof(why), "%s", reason);
		log_notice("upstream judgement: forward: %s", why);
	}
	__atomic_store_n(&u->recursive, m == CAPAB_MODE_RECURSIVE,
			 __ATOMIC_RELAXED);
	if (d->set_recursing)
		d->set_recursing(d, m == CAPAB_MODE_RECURSIVE,
				 told ? why : NULL);
}

/* A server that answered the probe's name that does not exist. */
static void log_portal(struct upstreams *u)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(u->capab, v, DT_UP_MAXNS);
	char a[80];

	for (size_t i = 0; i < n; i++) {
		if (!v[i].portal)
			continue;
		up_server_str(&v[i].server, a, sizeof(a));
		log_notice("upstream %s answers names that do not exist with "
			   "addresses: a captive portal is suspected (status "
			   "portal=); once signed on, it is probed again",
			   a);
	}
}

static void on_events(void *arg)
{
	struct daemon *d = arg;
	struct upstreams *u = d->ups;
	unsigned ev = __atomic_exchange_n(&u->events, 0, __ATOMIC_ACQ_REL);

	if (ev & CAPAB_EV_RECOVERED) {
		size_t n = source_drop_unproven(d->cache);

		log_notice("upstreams answer again: %zu cached entries not "
			   "validated as secure dropped",
			   n);
	}
	if (ev & CAPAB_EV_PORTAL)
		log_portal(u);
	if (ev & CAPAB_EV_VERDICT) {
		log_changes(u);
		upstreams_changed_verdict(d);
		up_probe_kick(u->probe);
	}
	if ((ev & (CAPAB_EV_VERDICT | CAPAB_EV_SETTLED)) && u->judge_until &&
	    capab_settled(u->capab))
		judged(d);
}

void upstreams_apply(struct daemon *d)
{
	bool rec = upstreams_recursive(d);

	if (d->st)
		(void)up_probe_set_tls_ca(d->ups->probe, d->st->cfg.tls_ca);
	probe_servers(d);
	if (d->set_recursing)
		d->set_recursing(d, rec,
				 rec ? "no upstream can do DNSSEC"
				     : "the upstreams' verdicts");
}
