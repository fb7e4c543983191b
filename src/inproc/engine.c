/* SPDX-License-Identifier: MIT */
/*
 * The in-process engine (inproc.h): a daemon worker's glue
 * (daemon/resolve.c) cut down to one loop run on the caller's thread.
 * The core's fetches go out through the workers' own fetch driver
 * (drive/fetch_net.h); its answers are rendered for the waiting
 * questions, which inproc_ask() waits for.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cache/cache.h"
#include "common/errcode.h"
#include "common/log.h"
#include "common/loop.h"
#include "common/protocol.h"
#include "crypto/alg.h"
#include "drive/fetch_net.h"
#include "drive/iter_net.h"
#include "drive/ns_lookup.h"
#include "inproc/inproc.h"
#include "inproc/state.h"
#include "resolver/render.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "iterator/iter_msg.h"
#include "iterator/iterate.h"
#include "policy/nta.h"
#include "policy/route.h"
#include "upstream/capab.h"
#include "upstream/probe.h"
#include "upstream/source.h"
#include "upstream/transport.h"
#include "validator/anchor.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* Algorithms warmed in idle time: the anchors' and the two most used. */
#define ENGINE_WARM_ALGS 8

struct inproc {
	struct loop *loop;
	struct up_client *up;
	struct fetch_net *fn;		/* the core's fetches over up and it */
	struct cache *cache;
	struct resolver *rsv;
	struct dstate *st;
	/* resolution recursive: the iterator over its own client */
	struct up_client *itup;
	struct it_net *itnet;
	struct iterator *it;
	/* resolution auto: what resolv.conf's servers can do (capab.h),
	 * learnt by the probe and by the forwarded traffic */
	struct capab *capab;
	struct up_probe *probe;
	struct loop_timer kick;		/* a verdict changed (0 ms) */
	int64_t judge_until;		/* servers set: questions wait for
					   the judgement until then */
	int64_t settle_until;		/* servers set: a forwarded fetch that
					   failed waits for the judgement to
					   settle until then (fetch_net.h) */
	bool judging;			/* inside judge_wait()'s loop */
	bool it_failed;			/* auto: the iterator could not be
					   built (root-hints): forward */
	/* negative trust anchors of `dnstrust nta add`, from the daemon's
	 * file, read again when it changes */
	struct nta_rt *nta;
	uint64_t nta_sig;	/* path_sig() of its file when read */
	struct up_conf uc;
	/* where the servers come from: dnstrust.conf's upstream-source
	 * (auto resolved as dnstrustd resolves it), read again when it
	 * changed (source_check) */
	enum up_source_kind src_kind;
	char src_path[PATH_MAX];
	uint64_t src_sig;	/* path_sig() when it was read */
	int64_t src_looked_ms;	/* auto or a directory: last looked at */
	struct policy_routes *routes; /* learnt from its interfaces */
	struct loop_timer deadline;	/* the caller's time is up */
	struct loop_timer qtimeout;	/* query-timeout: SERVFAIL */
	struct iwaiter *ws;		/* the call's questions */
	size_t nws;
	size_t waiting;		/* questions of the call under way not
				   answered yet */
	bool running;		/* inside loop_run() */
	/* OpenSSL's one-time set-up, done while the loop waits for the
	 * network (warm_idle): the digests, then these algorithms */
	uint8_t warm[ENGINE_WARM_ALGS];
	size_t nwarm;
	size_t warm_next;	/* 0: OpenSSL's start-up next, 1: the
				   digests, i: warm[i - 2] */
};

/* A question of inproc_ask(), waiting in the core. */
struct iwaiter {
	struct rsv_waiter rw;	/* first: answered() gets it back */
	struct inproc_q *q;
	bool done;
};

static void clock_of(const struct inproc *e, struct rsv_clock *c)
{
	c->mono_ms = loop_now_ms(e->loop);
	c->wall = loop_wallclock(e->loop);
}

static int recursion_start(struct inproc *e, char *err, size_t errlen);
static struct iterator *iterator(void *arg);

/* Whether public names go to the iterator: resolution recursive, or
 * auto with every judged resolv.conf server unable to do DNSSEC (the
 * iterator then built, once: a process on a network that can do DNSSEC
 * never pays for it). */
static bool recursing(struct inproc *e)
{
	if (!e->capab)
		return e->it != NULL;
	if (capab_mode(e->capab, NULL) != CAPAB_MODE_RECURSIVE)
		return false;
	return iterator(e) != NULL;
}

/* --- the core's fetches, through the driver dnstrustd's workers use
 * (drive/fetch_net.h) --- */

static int resolution(void *arg)
{
	const struct inproc *e = arg;

	return e->st->cfg.resolution;
}

static bool recursing_hook(void *arg)
{
	return recursing(arg);
}

/* resolution auto: every judged resolv.conf server unable to do DNSSEC. */
static bool judged_recursive(void *arg)
{
	const struct inproc *e = arg;

	return e->capab &&
	       capab_mode(e->capab, NULL) == CAPAB_MODE_RECURSIVE;
}

/* The iterator, built the first time a fetch goes to it (recursing, or
 * auto's last attempt of a question from the root). */
static struct iterator *iterator(void *arg)
{
	struct inproc *e = arg;
	char err[256];

	if (!e->it && !e->it_failed &&
	    recursion_start(e, err, sizeof(err)) < 0)
		e->it_failed = true; /* root-hints unusable: forward */
	return e->it;
}

/* While recursing, private names (a DS: its parent's) still go to
 * resolv.conf's servers, as daemon/resolve.c decides. */
static bool to_network(void *arg, const uint8_t *name, uint16_t type)
{
	struct inproc *e = arg;

	if (type == WIRE_TYPE_DS && name[0])
		name += 1 + name[0];
	return rsv_private_domain(e->cache, e->st, &e->uc, name,
				  loop_now_ms(e->loop) / 1000, NULL) != NULL;
}

/* resolution auto: the first call waits only for the probe's first
 * verdict (judge_wait); a forwarded fetch that failed before the
 * judgement settled (a server that answers the root's DNSKEY with its
 * RRSIG and SERVFAIL to DS: "yes", then "no" after the DS step) waits for
 * it, within DT_UP_JUDGE_WAIT_MS of the servers being set, and is asked
 * from the root if it turned recursive. */
static int64_t failed_hold_until(void *arg)
{
	struct inproc *e = arg;

	if (!e->capab || capab_settled(e->capab))
		return 0;
	return e->settle_until;
}

static const struct up_conf *fallback(void *arg)
{
	const struct inproc *e = arg;

	return &e->st->cfg.fallback;
}

static int fetch(void *arg, struct rsv_fetch *f, const uint8_t *name,
		 uint16_t type, const struct up_conf *servers, void **handle)
{
	struct inproc *e = arg;

	return fn_fetch(e->fn, f, name, type, servers, NULL, handle);
}

static void fetch_cancel(void *arg, void *handle)
{
	struct inproc *e = arg;

	fn_cancel(e->fn, handle);
}

static void distrust(void *arg, const char *from)
{
	struct inproc *e = arg;

	up_client_distrust(e->up, from);
	if (e->it)
		it_distrust(e->it, from, up_server_str, loop_now_ms(e->loop));
}

static const struct up_conf *network(void *arg)
{
	struct inproc *e = arg;

	return up_client_conf(e->up);
}

/* The address of a name server without glue, asked of the core itself
 * while recursing, as a daemon worker asks it (drive/ns_lookup.h). */
static void *ns_start(void *arg, const uint8_t *name, uint16_t type,
		      unsigned nest, it_addrs_fn *cb, void *cbarg)
{
	struct inproc *e = arg;
	struct rsv_clock now;

	clock_of(e, &now);
	return ns_lookup_start(e->loop, e->rsv, &now, name, type, nest, cb,
			       cbarg);
}

static void ns_cancel(void *arg, void *handle)
{
	(void)arg;
	ns_lookup_cancel(handle);
}

static void answered(void *arg, struct rsv_waiter *list,
		     const struct rsv_done *d)
{
	struct inproc *e = arg;

	while (list) {
		struct iwaiter *w = (struct iwaiter *)list;

		list = list->next;
		if (w->rw.nest) {
			/* Scratch for the rendering, only while it lasts
			 * (none: the lookup gets no address). */
			uint8_t *buf = malloc(DT_MSG_MAXLEN);
			ns_lookup_answered(&w->rw, d->a, buf, DT_MSG_MAXLEN);
			free(buf);
			continue;
		}
		w->q->rlen = answer_render(d->a, &w->rw.q, 0, w->q->reply,
					   w->q->cap);
		w->done = true;
		if (e->waiting && --e->waiting == 0 && e->running)
			loop_stop(e->loop);
	}
}

static void deadline_passed(struct loop_timer *t)
{
	struct inproc *e = t->arg;

	loop_stop(e->loop);
}

/* query-timeout passed: what is not answered yet gets the daemon's
 * answer to a question that took that long (daemon/server.c,
 * waiter_deadline): SERVFAIL, EDE 22. */
static void qtimeout_passed(struct loop_timer *t)
{
	struct inproc *e = t->arg;
	char text[64];

	snprintf(text, sizeof(text), "no answer within %u ms",
		 e->st->cfg.query_timeout_ms);
	for (size_t i = 0; i < e->nws; i++) {
		struct iwaiter *w = &e->ws[i];
		if (w->done)
			continue;
		rsv_detach(&w->rw);
		w->q->rlen = render_error(&w->rw.q, WIRE_RCODE_SERVFAIL,
					  WIRE_EDE_NO_REACHABLE_AUTHORITY, text,
					  w->q->reply, w->q->cap);
		w->done = true;
	}
	e->waiting = 0;
	loop_stop(e->loop);
}

/* Whether sources of kind k are directories of interface files. */
static bool source_is_dir(enum up_source_kind k)
{
	return k == UP_SOURCE_RESOLVCONF || k == UP_SOURCE_NETWORKD;
}

/* The upstream source to read: the configured one, or what auto finds
 * now (dnstrustd's rule, daemon/main.c's source_pick). */
static void source_pick(struct inproc *e)
{
	const struct cfg *cfg = &e->st->cfg;

	e->src_kind = cfg->upstream_source;
	if (e->src_kind == UP_SOURCE_AUTO) {
		const char *cand[UP_SOURCE_NKINDS];

		for (int i = 0; i < UP_SOURCE_NKINDS; i++)
			cand[i] = up_source_default_path(i);
		e->src_kind = up_source_auto(cand);
		snprintf(e->src_path, sizeof(e->src_path), "%s",
			 up_source_default_path(e->src_kind));
	} else {
		snprintf(e->src_path, sizeof(e->src_path), "%s",
			 cfg->resolv_conf);
	}
}

static uint64_t sig_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t sig_stat(uint64_t h, const struct stat *st)
{
	h = sig_mix(h, (uint64_t)st->st_ino);
	h = sig_mix(h, (uint64_t)st->st_size);
	h = sig_mix(h, (uint64_t)st->st_mtim.tv_sec);
	return sig_mix(h, (uint64_t)st->st_mtim.tv_nsec);
}

/*
 * What a file looks like on disk, as one number: its identity, size and
 * time of change; for a directory (resolvconf's, networkd's upstream
 * source) those of the directory and of each file in it that
 * up_source_load reads (not starting with '.'), so that a file rewritten
 * in place is seen too. 0 when the path cannot be looked at. A file
 * read again when it changed (the upstream source, the runtime NTAs)
 * keeps the number it had when read.
 */
static uint64_t path_sig(const char *path)
{
	struct stat st;
	uint64_t h;
	DIR *dir;
	struct dirent *de;

	if (stat(path, &st) < 0)
		return 0;
	h = sig_stat(1, &st);
	if (!S_ISDIR(st.st_mode) || !(dir = opendir(path)))
		return h;
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(dir), de->d_name, &st, 0) < 0)
			continue;
		h = sig_stat(h, &st);
	}
	closedir(dir);
	return h;
}

/*
 * The servers from the source, dnstrust.conf's upstream lines in their
 * place when it has any (cfg_upstream_over, as dnstrustd), and the
 * split-DNS routes learnt from the source's interfaces (a resolvconf or
 * networkd directory; none with upstream lines: the administrator chose
 * where questions go), as dnstrustd learns them. A source that cannot
 * be read gives no servers (every fetch fails: SERVFAIL,
 * upstream-unreachable; the upstream lines still apply). A file
 * source is read straight into the engine's up_conf, and the routes'
 * table (some 70 KiB) exists only for a directory source: a process
 * pays for neither otherwise.
 */
static void read_source(struct inproc *e)
{
	struct up_source_data *data = NULL;
	int r;

	e->src_sig = path_sig(e->src_path);
	if (e->routes) {
		e->routes->n = 0;
		e->routes->dropped = 0;
	}
	if (!source_is_dir(e->src_kind)) {
		r = up_conf_load(e->src_path, &e->uc);
	} else {
		data = malloc(sizeof(*data));
		r = data ? up_source_load(e->src_kind, e->src_path, data)
			 : -ENOMEM;
		if (r == 0) {
			e->uc = data->conf;
			if (!e->routes)
				e->routes = calloc(1, sizeof(*e->routes));
			if (e->routes && !e->st->cfg.upstream.nns)
				policy_routes_learn(data, e->routes);
		}
		free(data);
	}
	if (r < 0) {
		memset(&e->uc, 0, sizeof(e->uc));
		e->uc.timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
		e->uc.attempts = DT_UP_ATTEMPTS_DEFAULT;
	}
	cfg_upstream_over(&e->st->cfg, &e->uc);
}

/* The servers of the route learnt for (name, type), or NULL. */
static const struct up_conf *route(void *arg, const uint8_t *name,
				   uint16_t type)
{
	struct inproc *e = arg;
	const struct policy_route *r = policy_route_find(e->routes, name, type);

	return r ? &r->servers : NULL;
}

static void nta_drop(const struct cfg_nta *n, void *arg)
{
	struct inproc *e = arg;

	answer_drop_below(e->cache, n->name);
}

/*
 * At each call: the daemon's file of runtime negative trust anchors
 * (`dnstrust nta add`) read again when it was replaced or changed, as
 * resolv.conf is; what the cache holds below an anchor that came or
 * went is dropped, as the daemon drops it. A file that cannot be read
 * leaves the set as it was; a file that is gone empties it.
 */
static void nta_check(struct inproc *e)
{
	int64_t now = loop_wallclock(e->loop);
	uint64_t sig = path_sig(nta_rt_path(e->nta));

	if (sig == e->nta_sig)
		return;
	e->nta_sig = sig;
	nta_rt_foreach(e->nta, now, nta_drop, e);
	nta_rt_reload(e->nta, now);
	nta_rt_foreach(e->nta, now, nta_drop, e);
}

/* resolution auto: resolv.conf's servers are (newly) the ones to judge:
 * what was learnt is forgotten, each is probed at once, and questions
 * wait for the judgement for at most DT_UP_JUDGE_WAIT_MS (judge_wait). */
static void judge_servers(struct inproc *e)
{
	capab_set_servers(e->capab, &e->uc);
	up_probe_set_conf(e->probe, &e->uc);
	e->judge_until = loop_now_ms(e->loop) + DT_UP_JUDGE_WAIT_MS;
	e->settle_until = e->judge_until;
}

/* A verdict changed (on this thread, from inside the loop): a server
 * that is not "yes" is probed again after its back-off, and a call
 * waiting for the judgement goes on once it is settled. */
static void capab_event(void *arg, unsigned events)
{
	struct inproc *e = arg;

	(void)events;
	loop_timer_start(e->loop, &e->kick, 0);
}

/* Whether a call may go on: some server has a verdict (the probe's
 * first step, the root's DNSKEY with DO=1, gives one), or the judgement
 * is settled. */
static bool judged(struct inproc *e)
{
	return capab_settled(e->capab) ||
	       capab_mode(e->capab, NULL) != CAPAB_MODE_UNDECIDED;
}

static void kick_probe(struct loop_timer *t)
{
	struct inproc *e = t->arg;

	up_probe_kick(e->probe);
	if (e->fn && capab_settled(e->capab))
		fn_release(e->fn); /* failures that waited for it */
	if (e->judging && judged(e))
		loop_stop(e->loop);
}

/*
 * With resolution auto, the first call after the servers were set waits
 * (within its own time) until a server has a verdict (judged()) or
 * DT_UP_JUDGE_WAIT_MS passed: on a network whose resolver strips what
 * validation needs, the probe's first step says "no" and the first
 * answers are validated from the root, not cached as bogus. A reduced
 * form of the daemon's wait (fetch_net.c's must_wait with resolve.c's
 * hold_until, which also waits for the DS step after a "yes"): one
 * round trip, not three, for a cold first answer; a "yes" that the DS
 * step or the traffic later takes back turns the fetches under way to
 * the root
 * (refetch_iterated), a fetch that failed before the judgement settled
 * waits for it (failed_hold_until), and an answer found bogus meanwhile
 * is asked again by the core, then of the iterator. Returns the
 * milliseconds spent.
 */
static int64_t judge_wait(struct inproc *e, int64_t timeout_ms)
{
	int64_t start = loop_now_ms(e->loop), wait;

	if (!e->capab || !e->judge_until)
		return 0;
	wait = e->judge_until - start;
	if (wait > 0 && !judged(e)) {
		loop_timer_start(e->loop, &e->deadline,
				 wait < timeout_ms ? wait : timeout_ms);
		e->judging = true;
		(void)loop_run(e->loop);
		e->judging = false;
		loop_timer_stop(e->loop, &e->deadline);
	}
	if (judged(e) || loop_now_ms(e->loop) >= e->judge_until)
		e->judge_until = 0;
	return loop_now_ms(e->loop) - start;
}

/*
 * At each call: the upstream source replaced or changed since it was
 * read (a new network, a container's resolv.conf rewritten, a VPN's
 * interface file) is read again, as the daemon's watch does; a file is
 * looked at (stat) on every call, a directory and auto's choice at most
 * once a second (DT_INPROC_SOURCE_LOOK_MS: each is several system
 * calls). When the servers or the routes changed, what was not
 * validated as secure is dropped from the cache (the daemon's rule,
 * source_drop_unproven).
 */
static void source_check(struct inproc *e)
{
	struct up_conf old = e->uc;
	struct policy_routes *was = NULL;
	enum up_source_kind kind = e->src_kind;
	char path[PATH_MAX];
	int64_t now = loop_now_ms(e->loop);
	bool routes_changed;

	if (e->st->cfg.upstream_source == UP_SOURCE_AUTO ||
	    source_is_dir(kind)) {
		if (now - e->src_looked_ms < DT_INPROC_SOURCE_LOOK_MS)
			return;
		e->src_looked_ms = now;
	}
	snprintf(path, sizeof(path), "%s", e->src_path);
	source_pick(e);
	if (kind == e->src_kind && !strcmp(path, e->src_path) &&
	    path_sig(e->src_path) == e->src_sig)
		return;
	if (e->routes && (was = malloc(sizeof(*was))) != NULL)
		*was = *e->routes;
	read_source(e);
	if (!e->routes)
		routes_changed = false;
	else if (was)
		routes_changed = !policy_routes_equal(was, e->routes) ||
				 was->dropped != e->routes->dropped;
	else /* the table is new (or could not be compared) */
		routes_changed = e->routes->n > 0;
	free(was);
	if (up_conf_equal(&old, &e->uc) && !routes_changed)
		return;
	up_client_set_conf(e->up, &e->uc);
	source_drop_unproven(e->cache);
	if (e->capab && !up_conf_equal(&old, &e->uc))
		judge_servers(e);
}

/* Whether the iterator asks zone's DNSKEY beside a question about
 * qname (it_set_keys_ahead), as dnstrustd's workers do. */
static bool keys_ahead(void *arg, const uint8_t *zone, const uint8_t *qname,
		       int64_t now_ms)
{
	struct inproc *e = arg;
	struct rsv_clock now;

	(void)now_ms;
	clock_of(e, &now);
	return e->rsv && rsv_keys_ahead(e->rsv, zone, qname, &now);
}

/* resolution recursive: the iterator from the configured root hints
 * (the built-in ones without root-hints), over a client of its own, its
 * name-server addresses asked of the core. */
static int recursion_start(struct inproc *e, char *err, size_t errlen)
{
	struct it_hints hints;
	struct it_lookup lk = {.start = ns_start, .cancel = ns_cancel,
			       .arg = e};

	if (!e->st->cfg.root_hints[0])
		it_hints_builtin(&hints);
	else if (it_hints_load(e->st->cfg.root_hints, &hints, err, errlen) <
		 0)
		return -1;
	snprintf(err, errlen, "%s", errcode_str(-ENOMEM));
	if (!(e->itup = up_client_new(e->loop)) ||
	    !(e->itnet = it_net_new(e->loop, e->itup, &hints)))
		return -1;
	e->it = it_net_core(e->itnet);
	it_set_lookup(e->it, &lk);
	it_set_keys_ahead(e->it, keys_ahead, e);
	return 0;
}

/* resolution auto: the probe of resolv.conf's servers and the table it
 * feeds, as dnstrustd's (daemon/upstreams.c), run by the engine's loop
 * during calls; the engine's client feeds the table too and follows
 * what it remembers (no EDNS, TCP at once). */
static int judge_start(struct inproc *e)
{
	e->kick.cb = kick_probe;
	e->kick.arg = e;
	if (!(e->capab = capab_new(capab_event, e)) ||
	    !(e->probe = up_probe_new(e->loop, e->capab)) ||
	    up_probe_set_tls_ca(e->probe, e->st->cfg.tls_ca) < 0)
		return -1;
	up_client_set_capab(e->up, e->capab, true);
	judge_servers(e);
	return 0;
}

/* The runtime negative trust anchors: the file NTA_STATE_FILE of the
 * daemon's state directory (dir, or NTA_STATE_DIR), read now and at
 * every call that finds it changed. Returns 0 or -1 (out of memory, a
 * name too long). */
static int nta_start(struct inproc *e, const char *dir)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s",
			     dir && *dir ? dir : NTA_STATE_DIR,
			     NTA_STATE_FILE) >= sizeof(path) ||
	    !(e->nta = nta_rt_new(path)))
		return -1;
	e->st->nta = e->nta;
	nta_check(e);
	return 0;
}

/* Whether questions go to resolv.conf's servers now: the chain of trust
 * is then asked with the question (rsv_env.forwarding, one round trip). */
static bool forwarding(void *arg)
{
	return !recursing(arg);
}

/* Whether warm-up steps are left (none without an anchored zone). */
static bool warm_left(const struct inproc *e)
{
	return e->nwarm && e->warm_next < e->nwarm + 2;
}

/*
 * A process's first validation pays OpenSSL's start-up (its
 * configuration, the provider's tables, each key type's methods): a few
 * milliseconds a daemon spends once at its start (crypto_warm_up). The
 * engine does it in steps while its loop would sleep waiting for the
 * network (loop_set_idle), so that the first answer does not wait for
 * it: OpenSSL's start-up, the digests, then the algorithms of the trust
 * anchors, then RSA/SHA-256 and ECDSA P-256. Only once a call's
 * questions are out (inproc_ask): while the first call waits for the
 * probe's verdict (judge_wait), a step would hold back the questions
 * themselves.
 */
static bool warm_idle(void *arg)
{
	struct inproc *e = arg;

	if (e->warm_next == 0)
		crypto_warm_init();
	else if (e->warm_next == 1)
		crypto_warm_digests();
	else
		(void)crypto_warm_alg(e->warm[e->warm_next - 2]);
	e->warm_next++;
	return warm_left(e);
}

static void warm_add(struct inproc *e, uint8_t alg)
{
	for (size_t i = 0; i < e->nwarm; i++)
		if (e->warm[i] == alg)
			return;
	if (e->nwarm < ENGINE_WARM_ALGS)
		e->warm[e->nwarm++] = alg;
}

/* The warm-up list, when some zone is anchored (nothing to validate
 * otherwise). */
static void warm_start(struct inproc *e)
{
	size_t n = val_anchors_count(e->st->ta);

	for (size_t i = 0; i < n; i++) {
		const struct val_anchor_zone *z = val_anchors_get(e->st->ta, i);

		for (size_t j = 0; j < z->nds; j++)
			if (z->ds[j].rdlen > 2)
				warm_add(e, z->ds[j].rdata[2]);
		for (size_t j = 0; j < z->ndnskey; j++)
			if (z->dnskey[j].rdlen > 3)
				warm_add(e, z->dnskey[j].rdata[3]);
	}
	if (!n)
		return;
	warm_add(e, 8);	 /* RSASHA256 */
	warm_add(e, 13); /* ECDSAP256SHA256 */
}

struct inproc *inproc_new(const struct inproc_opts *o, char *err,
			  size_t errlen)
{
	struct inproc *e = calloc(1, sizeof(*e));
	const struct rsv_env env = {
		.arg = e,
		.fetch = fetch,
		.fetch_cancel = fetch_cancel,
		.answered = answered,
		.network = network,
		.route = route,
		.distrust = distrust,
		.forwarding = forwarding,
	};
	const struct fn_env fenv = {
		.arg = e,
		.resolution = resolution,
		.recursing = recursing_hook,
		.judged_recursive = judged_recursive,
		.iterator = iterator,
		.to_network = to_network,
		.fallback = fallback,
		.failed_hold_until = failed_hold_until,
	};

	bool quiet = log_thread_quiet(true);

	if (!e) {
		snprintf(err, errlen, "%s", errcode_str(-ENOMEM));
		log_thread_quiet(quiet);
		return NULL;
	}
	e->st = inproc_state_load(o->conf, err, errlen);
	if (!e->st)
		goto fail;
	snprintf(err, errlen, "%s", errcode_str(-ENOMEM));
	source_pick(e);
	e->src_looked_ms = INT64_MIN / 2;
	read_source(e);
	if (!(e->cache = cache_new(o->cache_size)) ||
	    !(e->loop = loop_new()) || !(e->up = up_client_new(e->loop)) ||
	    !(e->fn = fn_new(e->loop, e->up, &fenv)) ||
	    !(e->rsv = rsv_new(e->cache, &env)) ||
	    up_client_set_tls_ca(e->up, e->st->cfg.tls_ca) < 0)
		goto fail;
	up_client_set_conf(e->up, &e->uc);
	if (nta_start(e, o->state_dir) < 0)
		goto fail;
	rsv_set_state(e->rsv, e->st);
	if (e->st->cfg.resolution == CFG_RES_RECURSIVE &&
	    recursion_start(e, err, errlen) < 0)
		goto fail;
	snprintf(err, errlen, "%s", errcode_str(-ENOMEM));
	if (e->st->cfg.resolution == CFG_RES_AUTO && judge_start(e) < 0)
		goto fail;
	warm_start(e);
	e->deadline.cb = deadline_passed;
	e->deadline.arg = e;
	e->qtimeout.cb = qtimeout_passed;
	e->qtimeout.arg = e;
	err[0] = '\0';
	log_thread_quiet(quiet);
	return e;
fail:
	inproc_free(e);
	log_thread_quiet(quiet);
	return NULL;
}

void inproc_free(struct inproc *e)
{
	bool quiet;

	if (!e)
		return;
	quiet = log_thread_quiet(true);
	if (e->rsv)
		rsv_free(e->rsv);
	fn_free(e->fn);
	if (e->itnet)
		it_net_free(e->itnet);
	up_client_free(e->itup);
	up_probe_free(e->probe);
	up_client_free(e->up);
	capab_free(e->capab);
	if (e->loop) {
		loop_timer_stop(e->loop, &e->kick);
		loop_timer_stop(e->loop, &e->deadline);
		loop_timer_stop(e->loop, &e->qtimeout);
		loop_free(e->loop);
	}
	cache_free(e->cache);
	if (e->st)
		dstate_put(e->st);
	nta_rt_free(e->nta);
	free(e->routes);
	free(e);
	log_thread_quiet(quiet);
}

const char *inproc_anchors(const struct inproc *e)
{
	return e->st->ta_desc;
}

/* The one administrative name the engine knows, version.dnstrust. TXT
 * (what dt_trust_available asks): "dnstrust in-process VERSION". Every
 * other is the daemon's (REFUSED). */
static size_t admin_reply(const struct qinfo *q, uint8_t *buf, size_t cap)
{
	static const char text[] = "dnstrust in-process " DT_VERSION;
	uint8_t version[DT_NAME_MAXLEN], rdata[1 + sizeof(text)];
	struct wire_builder b;
	struct wire_rr rr = {
		.owner = q->qname,
		.type = WIRE_TYPE_TXT,
		.rclass = WIRE_CLASS_CH,
		.rdlen = sizeof(text), /* length octet and text */
		.rdata = rdata,
	};

	rdata[0] = sizeof(text) - 1;
	memcpy(rdata + 1, text, sizeof(text) - 1);
	if (wire_dname_from_str(DT_PROTO_ADMIN_VERSION,
				strlen(DT_PROTO_ADMIN_VERSION), NULL,
				version) < 0 ||
	    !wire_dname_equal(q->qname, version) || q->qtype != WIRE_TYPE_TXT)
		return render_error(q, WIRE_RCODE_REFUSED,
				    WIRE_EDE_NOT_SUPPORTED,
				    "administrative names are the daemon's",
				    buf, cap);
	if (wire_build_init(&b, buf, cap, q->id,
			    WIRE_FLAG_QR | WIRE_FLAG_AA |
				    (q->flags & WIRE_FLAG_RD)) ||
	    wire_build_question(&b, q->qname, q->qtype, q->qclass) ||
	    wire_build_rr(&b, WIRE_SEC_ANSWER, &rr) ||
	    (q->edns && wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, 0, NULL,
				       0)))
		return 0;
	return wire_build_finish(&b);
}

/*
 * The first step of one question, as dnstrustd's server takes it
 * (daemon/server.c): the administrative class, classes and types it does
 * not resolve, the answer cache, else a waiter submitted to the core.
 * Returns 0, or DT_EMALF for a query that is not one.
 */
static int start(struct inproc *e, struct iwaiter *w)
{
	struct inproc_q *q = w->q;
	struct rsv_clock now;
	struct wire_msg *m;
	int err;

	m = wire_msg_parse(q->query, q->qlen, 0, &err);
	if (!m || !m->has_question || (m->hdr.flags & WIRE_FLAG_QR)) {
		wire_msg_free(m);
		return DT_EMALF;
	}
	qinfo_from_msg(&w->rw.q, m, false, false, false);
	wire_msg_free(m);
	const struct qinfo *qi = &w->rw.q;
	if (qi->qclass == WIRE_CLASS_CH) {
		q->rlen = admin_reply(qi, q->reply, q->cap);
	} else if (qi->qclass != WIRE_CLASS_IN) {
		q->rlen = render_error(qi, WIRE_RCODE_REFUSED,
				       WIRE_EDE_NOT_SUPPORTED,
				       "only class IN is resolved", q->reply,
				       q->cap);
	} else if (qinfo_type_unsupported(qi->qtype)) {
		q->rlen = render_error(qi, WIRE_RCODE_NOTIMP,
				       WIRE_EDE_NOT_SUPPORTED,
				       "query type not supported", q->reply,
				       q->cap);
	} else {
		clock_of(e, &now);
		q->rlen = answer_cached(e->rsv, qi, &now, q->reply, q->cap);
		if (q->rlen)
			goto done;
		e->waiting++;
		int r = rsv_submit(e->rsv, &w->rw, &now);
		if (r == 0)
			return 0; /* answered() says when (maybe already) */
		e->waiting--;
		q->rlen = render_error(
			qi, WIRE_RCODE_SERVFAIL,
			r == -ENOMEM ? WIRE_EDE_OTHER : WIRE_EDE_NOT_READY,
			r == -ENOMEM ? "out of memory"
				     : "too many questions under way",
			q->reply, q->cap);
	}
done:
	w->done = true;
	return 0;
}

int inproc_ask(struct inproc *e, struct inproc_q *qs, size_t n,
	       int64_t timeout_ms)
{
	struct iwaiter *ws = calloc(n, sizeof(*ws));
	bool quiet;
	int err = 0;

	if (!ws)
		return -ENOMEM;
	quiet = log_thread_quiet(true);
	loop_update(e->loop);
	source_check(e);
	nta_check(e);
	timeout_ms -= judge_wait(e, timeout_ms);
	if (timeout_ms < 0)
		timeout_ms = 0;
	e->waiting = 0;
	for (size_t i = 0; i < n && !err; i++) {
		ws[i].q = &qs[i];
		qs[i].rlen = 0;
		err = start(e, &ws[i]);
	}
	if (!err && e->waiting) {
		if (warm_left(e))
			loop_set_idle(e->loop, warm_idle, e);
		e->ws = ws;
		e->nws = n;
		loop_timer_start(e->loop, &e->deadline, timeout_ms);
		loop_timer_start(e->loop, &e->qtimeout,
				 e->st->cfg.query_timeout_ms);
		e->running = true;
		err = loop_run(e->loop);
		e->running = false;
		loop_timer_stop(e->loop, &e->deadline);
		loop_timer_stop(e->loop, &e->qtimeout);
		e->ws = NULL;
		e->nws = 0;
	}
	/* The warm-up runs only while a call's questions are out. */
	loop_set_idle(e->loop, NULL, NULL);
	/* Questions still under way go on without a waiter (their answers
	 * fill the cache when a later call runs the loop). */
	for (size_t i = 0; i < n; i++) {
		if (ws[i].done)
			continue;
		if (ws[i].rw.task)
			rsv_detach(&ws[i].rw);
		if (!err)
			err = DT_ETIMEOUT;
	}
	e->waiting = 0;
	log_thread_quiet(quiet);
	free(ws);
	return err;
}
