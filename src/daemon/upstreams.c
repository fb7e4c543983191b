/* SPDX-License-Identifier: MIT */
/*
 * The table's events come from the workers' threads (and the probes');
 * they are gathered in an atomic mask and handled on the main loop, one
 * post for any number of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/upstreams.h"
#include "upstream/capab.h"
#include "upstream/probe.h"
#include "upstream/transport.h"

struct upstreams {
	struct capab *capab;
	struct up_probe *probe;
	unsigned events;		     /* atomic: not yet handled */
	bool recursive;			     /* atomic: the judgement */
	struct capab_view seen[DT_UP_MAXNS]; /* as last logged */
	size_t nseen;
};

static void on_events(void *arg);

/* Any thread: gathers events, posts their handling once. */
static void capab_event(void *arg, unsigned events)
{
	struct daemon *d = arg;

	if (__atomic_fetch_or(&d->ups->events, events, __ATOMIC_ACQ_REL) == 0)
		(void)loop_post(d->loop, on_events, d);
}

int upstreams_init(struct daemon *d)
{
	struct upstreams *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	d->ups = u;
	u->capab = capab_new(capab_event, d);
	u->probe = u->capab ? up_probe_new(d->loop, u->capab) : NULL;
	if (!u->probe)
		return -ENOMEM;
	capab_set_servers(u->capab, &d->upconf);
	up_probe_set_conf(u->probe, &d->upconf);
	return 0;
}

void upstreams_free(struct daemon *d)
{
	struct upstreams *u = d->ups;

	if (!u)
		return;
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
	up_probe_set_conf(u->probe, &d->upconf);
	u->nseen = 0;
	upstreams_changed_verdict(d);
}

size_t upstreams_list(struct daemon *d, struct capab_view *out, size_t cap)
{
	return capab_list(d->ups->capab, out, cap);
}

bool upstreams_recursive(struct daemon *d)
{
	return __atomic_load_n(&d->ups->recursive, __ATOMIC_RELAXED);
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

/* A notice for each server whose verdict or reason changed. */
static void log_changes(struct upstreams *u)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(u->capab, v, DT_UP_MAXNS);

	for (size_t i = 0; i < n; i++) {
		const struct capab_view *o = seen_of(u, &v[i].server);
		char a[80];

		if (o && o->dnssec == v[i].dnssec &&
		    strcmp(o->reason, v[i].reason) == 0)
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
	bool rec = u->recursive;
	char why[400];

	if (m == CAPAB_MODE_RECURSIVE && !rec) {
		why_not(u, why, sizeof(why));
		log_notice("upstream judgement: recursive: %s (%s)", reason,
			   why);
	} else if (m == CAPAB_MODE_FORWARD && rec) {
		snprintf(why, sizeof(why), "%s", reason);
		log_notice("upstream judgement: forward: %s", why);
	} else {
		return;
	}
	__atomic_store_n(&u->recursive, m == CAPAB_MODE_RECURSIVE,
			 __ATOMIC_RELAXED);
	if (d->set_recursing)
		d->set_recursing(d, m == CAPAB_MODE_RECURSIVE, why);
}

static void on_events(void *arg)
{
	struct daemon *d = arg;
	struct upstreams *u = d->ups;
	unsigned ev = __atomic_exchange_n(&u->events, 0, __ATOMIC_ACQ_REL);

	if (ev & CAPAB_EV_RECOVERED) {
		size_t n = rsv_drop_unproven(d->cache);

		log_notice("upstreams answer again: %zu cached entries not "
			   "validated as secure dropped",
			   n);
	}
	if (ev & CAPAB_EV_VERDICT) {
		log_changes(u);
		upstreams_changed_verdict(d);
		up_probe_kick(u->probe);
	}
}

void upstreams_apply(struct daemon *d)
{
	bool rec = upstreams_recursive(d);

	if (d->set_recursing)
		d->set_recursing(d, rec,
				 rec ? "no upstream can do DNSSEC"
				     : "the upstreams' verdicts");
}
