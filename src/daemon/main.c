/* SPDX-License-Identifier: MIT */
/*
 * dnstrustd: start-up, workers, signals and reloads.
 *
 *   dnstrustd [-c FILE] [-f] [-n] [-T SECONDS] | --version | --help
 *
 * -f stays in the foreground and logs to stderr; -n checks the
 * configuration (and what start-up checks: anchors, user), prints it and
 * exits; -T shifts the daemon's clock (for tests of signature validity
 * and RFC 5011 timers only).
 *
 * Start-up logs to stderr until the daemon is ready: without -f the
 * starting process waits for the detached one's verdict and exits with
 * it, so every start-up error is seen where the daemon was started. Then
 * readiness goes to the service manager ($NOTIFY_SOCKET, sd_notify(3)).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache.h"
#include "common/errcode.h"
#include "common/log.h"
#include "crypto/alg.h"
#include "daemon/autotrust.h"
#include "daemon/check.h"
#include "daemon/failing.h"
#include "daemon/hotspot.h"
#include "daemon/notify.h"
#include "daemon/privs.h"
#include "daemon/ratelimit.h"
#include "daemon/resolve.h"
#include "daemon/server.h"
#include "daemon/state.h"
#include "daemon/stub.h"
#include "daemon/stats.h"
#include "daemon/upstreams.h"
#include "drive/iter_net.h"
#include "policy/nta.h"
#include "policy/route.h"
#include "upstream/transport.h"
#include "upstream/source.h"
#include "upstream/watch.h"
#include "validator/anchor.h"
#include "wire/dname.h"

/* --- upstream configuration --- */

static bool same_addr(const struct up_server *a, const struct up_server *b)
{
	return a->addrlen == b->addrlen &&
	       memcmp(&a->addr, &b->addr, a->addrlen) == 0;
}

static void resolv_trouble(struct daemon *d, const char *why);

/* How messages name the source: "resolv-conf PATH" as older versions
 * said, "upstream-source KIND PATH" for the other kinds. */
static const char *source_label(const struct daemon *d)
{
	switch (d->source_kind) {
	case UP_SOURCE_NETWORKMANAGER:
		return "upstream-source networkmanager";
	case UP_SOURCE_RESOLVED:
		return "upstream-source resolved";
	case UP_SOURCE_RESOLVCONF:
		return "upstream-source resolvconf";
	case UP_SOURCE_NETWORKD:
		return "upstream-source networkd";
	default:
		return "resolv-conf";
	}
}

/* resolv.conf not watched: read again every DAEMON_RESOLV_RETRY_MS, and
 * watching tried again then. */
static void watch_failed(struct daemon *d)
{
	char msg[DAEMON_WARNING_LEN];

	snprintf(msg, sizeof(msg),
		 "%.31s %.100s: cannot watch for changes (%.40s); read "
		 "again every %d s",
		 source_label(d), d->source_path, strerror(errno),
		 DAEMON_RESOLV_RETRY_MS / 1000);
	resolv_trouble(d, msg);
}

/* Sets one of the status lines kept under reload_lock; true when it
 * changed. */
static bool set_status_line(struct daemon *d, char line[DAEMON_WARNING_LEN],
			    const char *text)
{
	bool changed;

	pthread_mutex_lock(&d->reload_lock);
	changed = strcmp(line, text) != 0;
	snprintf(line, DAEMON_WARNING_LEN, "%s", text);
	pthread_mutex_unlock(&d->reload_lock);
	return changed;
}

/* Why resolv.conf cannot be read or watched ("" once it can): logged
 * when it changes, shown by status, and while there is a reason the file
 * is read again every DAEMON_RESOLV_RETRY_MS. */
static void resolv_trouble(struct daemon *d, const char *why)
{
	bool changed = set_status_line(d, d->resolv_warning, why);

	if (changed && why[0])
		log_warn("%s", why);
	else if (changed)
		log_notice("%s is readable and watched again", d->source_path);
	if (why[0] && d->resolv_retry.cb)
		loop_timer_start(d->loop, &d->resolv_retry,
				 DAEMON_RESOLV_RETRY_MS);
}

/* The upstream source in use: the configured one, or what auto finds
 * now (at start and at each reload). Returns true when it changed. */
static bool source_pick(struct daemon *d)
{
	const struct cfg *cfg = &d->st->cfg;
	enum up_source_kind k = cfg->upstream_source;
	const char *path = cfg->resolv_conf;
	bool changed;

	if (k == UP_SOURCE_AUTO) {
		const char *cand[UP_SOURCE_NKINDS];

		for (int i = 0; i < UP_SOURCE_NKINDS; i++)
			cand[i] = up_source_default_path(i);
		k = up_source_auto(cand);
		path = up_source_default_path(k);
	}
	pthread_mutex_lock(&d->reload_lock);
	changed = k != d->source_kind || strcmp(path, d->source_path) != 0;
	d->source_kind = k;
	snprintf(d->source_path, sizeof(d->source_path), "%s", path);
	pthread_mutex_unlock(&d->reload_lock);
	if (changed)
		log_notice("upstream source: %s %s%s", up_source_kind_name(k),
			   path,
			   cfg->upstream_source == UP_SOURCE_AUTO ? " (auto)"
								   : "");
	return changed;
}

static bool own_listener(const struct cfg *cfg, const struct up_server *s)
{
	for (size_t j = 0; j < cfg->nlisten; j++)
		if (same_addr(s, &cfg->listen[j]))
			return true;
	return false;
}

/* Our own loopback listeners taken out of uc: asking ourselves would
 * loop (a source that lists the stub, e.g. stub mode's own file). Said
 * in the log and in status while it lasts. */
static void drop_own_listeners(struct daemon *d, struct up_conf *uc)
{
	const struct cfg *cfg = &d->st->cfg;
	char msg[DAEMON_WARNING_LEN] = "", a[80];
	size_t k = 0;

	for (size_t i = 0; i < uc->nns; i++) {
		if (!own_listener(cfg, &uc->ns[i])) {
			uc->ns[k++] = uc->ns[i];
			continue;
		}
		up_server_str(&uc->ns[i], a, sizeof(a));
		snprintf(msg, sizeof(msg),
			 "%.31s %.90s lists dnstrustd's own "
			 "listener %.46s: skipped (it would ask itself)",
			 source_label(d), d->source_path, a);
	}
	uc->nns = k;
	if (set_status_line(d, d->loop_warning, msg) && msg[0])
		log_warn("%s", msg);
}

/* Our own listeners taken out of the routes' servers too; a route left
 * without one is dropped. */
static void drop_own_routed(const struct cfg *cfg, struct policy_routes *rt)
{
	size_t k = 0;

	for (size_t i = 0; i < rt->n; i++) {
		struct up_conf *s = &rt->r[i].servers;
		size_t m = 0;

		for (size_t j = 0; j < s->nns; j++)
			if (!own_listener(cfg, &s->ns[j]))
				s->ns[m++] = s->ns[j];
		s->nns = m;
		if (m)
			rt->r[k++] = rt->r[i];
	}
	rt->n = k;
}

/* The upstream source as an up_conf, our own listeners taken out (the
 * upstream lines in place of its servers, when there are any), and the
 * routes learnt from its interfaces into *rt (none with upstream lines:
 * the administrator chose where questions go; rt NULL: not learnt, out
 * of memory). */
static void read_resolv_conf(struct daemon *d, struct up_conf *uc,
			     struct policy_routes *rt)
{
	struct up_source_data *data = malloc(sizeof(*data));
	int r = data ? up_source_load(d->source_kind, d->source_path, data)
		     : -ENOMEM;

	if (rt) {
		rt->n = 0;
		rt->dropped = 0;
	}
	if (r < 0) {
		char msg[DAEMON_WARNING_LEN];
		snprintf(msg, sizeof(msg),
			 "%.31s %.100s: %.30s; no upstream from it "
			 "until it is readable (read again every %d s)",
			 source_label(d), d->source_path, errcode_str(r),
			 DAEMON_RESOLV_RETRY_MS / 1000);
		resolv_trouble(d, msg);
		memset(uc, 0, sizeof(*uc));
		uc->timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
		uc->attempts = DT_UP_ATTEMPTS_DEFAULT;
		cfg_upstream_over(&d->st->cfg, uc);
		free(data);
		return;
	}
	if (d->watch)
		resolv_trouble(d, "");
	*uc = data->conf;
	if (rt && !d->st->cfg.upstream.nns) {
		policy_routes_learn(data, rt);
		drop_own_routed(&d->st->cfg, rt);
	}
	free(data);
	drop_own_listeners(d, uc);
	cfg_upstream_over(&d->st->cfg, uc);
}

/* Stub mode: stub-resolv-conf follows the source's search list. */
static void stub_update(struct daemon *d)
{
	const struct cfg *cfg = &d->st->cfg;
	char msg[DAEMON_WARNING_LEN] = "";
	int r = stub_write(cfg, &d->upconf);

	if (r < 0)
		snprintf(msg, sizeof(msg),
			 "stub-resolv-conf %.150s: cannot be written (%s)",
			 cfg->stub_resolv_conf, strerror(-r));
	if (set_status_line(d, d->stub_warning, msg) && msg[0])
		log_warn("%s", msg);
}

static void log_upstreams(const struct up_conf *uc, const char *what)
{
	char list[256] = "";
	size_t off = 0;

	for (size_t i = 0; i < uc->nns && off < sizeof(list) - 1; i++) {
		char a[80];
		up_server_str(&uc->ns[i], a, sizeof(a));
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
					i ? " " : "", a);
	}
	log_notice("%s: upstreams %s", what, uc->nns ? list : "(none)");
}

struct conf_post {
	struct worker *w;
	struct up_conf uc;
	struct policy_routes *routes; /* the worker's new copy */
	struct dstate *st;
	bool new_hints; /* root-hints changed at a reload */
	struct it_hints hints;
};

static void adopt(void *arg)
{
	struct conf_post *p = arg;

	up_client_set_conf(p->w->up, &p->uc);
	if (p->routes) {
		free(p->w->routes);
		p->w->routes = p->routes;
	}
	if (p->st)
		(void)up_client_set_tls_ca(p->w->up, p->st->cfg.tls_ca);
	if (p->st) {
		dstate_put(p->w->st);
		p->w->st = p->st;
		resolve_set_state(p->w);
	}
	if (p->new_hints && p->w->it)
		it_set_hints(p->w->it, &p->hints, loop_now_ms(p->w->loop));
	free(p);
}

/* A worker's own copy of the routes (NULL when out of memory: it keeps
 * its old one). */
static struct policy_routes *routes_copy(const struct policy_routes *rt)
{
	struct policy_routes *c = malloc(sizeof(*c));

	if (c)
		*c = *rt;
	return c;
}

/* The routes just learnt (*rt) in force: each change said in the log.
 * Returns whether they changed. */
static bool routes_set(struct daemon *d, const struct policy_routes *rt)
{
	if (policy_routes_equal(d->routes, rt) &&
	    d->routes->dropped == rt->dropped)
		return false;
	upstreams_log_routes(d->routes, rt, d->source_path);
	*d->routes = *rt;
	return true;
}

/* Hands the upstreams (and a new state, when st) to every worker. */
static void publish(struct daemon *d, struct dstate *st,
		    const struct it_hints *hints)
{
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct conf_post *p = calloc(1, sizeof(*p));
		if (!p)
			continue;
		p->w = &d->workers[i];
		p->uc = d->upconf;
		p->routes = routes_copy(d->routes);
		p->st = st ? dstate_get(st) : NULL;
		if (hints) {
			p->new_hints = true;
			p->hints = *hints;
		}
		if (loop_post(d->workers[i].loop, adopt, p) < 0) {
			dstate_put(p->st);
			free(p->routes);
			free(p);
		}
	}
}

/* Whether the nameservers are the same (options aside), in any order. */
static bool same_servers(const struct up_conf *a, const struct up_conf *b)
{
	if (a->nns != b->nns)
		return false;
	for (size_t i = 0; i < a->nns; i++) {
		size_t k = 0;
		while (k < b->nns && !up_server_equal(&a->ns[i], &b->ns[k]))
			k++;
		if (k == b->nns)
			return false;
	}
	return true;
}

/* What the old servers told us and did not validate as secure
 * (negative, insecure, indeterminate answers, key sets and raw responses)
 * may be their doing: after a change of servers (or of the search list,
 * which makes names private), ask again. */
static void forget_unproven(struct daemon *d, const struct up_conf *old)
{
	/* A new search list changes which names are private. */
	if (same_servers(old, &d->upconf) &&
	    old->searchlen == d->upconf.searchlen &&
	    memcmp(old->search, d->upconf.search, old->searchlen) == 0)
		return;
	size_t n = source_drop_unproven(d->cache);

	log_info("upstreams changed: %zu cached entries not validated as "
		 "secure dropped",
		 n);
}

/* The routes changed: what was learnt through the old ones, unproven,
 * is asked again of the new servers. */
static void forget_routed(struct daemon *d)
{
	size_t n = source_drop_unproven(d->cache);

	log_info("routes changed: %zu cached entries not validated as "
		 "secure dropped",
		 n);
}

static void resolv_changed(void *arg);

static void resolv_retry(struct loop_timer *t)
{
	struct daemon *d = t->arg;
	int err = 0;

	if (!d->watch) {
		d->watch = up_watch_new(d->loop, d->source_path,
					resolv_changed, d);
		err = errno;
	}
	resolv_changed(d);
	if (!d->watch) {
		errno = err;
		watch_failed(d);
	}
}

static void resolv_changed(void *arg)
{
	struct daemon *d = arg;
	struct policy_routes *rt = malloc(sizeof(*rt));
	struct up_conf uc;

	if (!rt) {
		log_err("%s: out of memory; read again later", d->source_path);
		return;
	}
	read_resolv_conf(d, &uc, rt);
	bool routes_changed = routes_set(d, rt);
	free(rt);
	if (up_conf_equal(&uc, &d->upconf)) {
		if (routes_changed) {
			publish(d, NULL, NULL);
			forget_routed(d);
		}
		return;
	}
	struct up_conf old = d->upconf;
	d->upconf = uc;
	log_upstreams(&uc, d->source_path);
	stub_update(d);
	publish(d, NULL, NULL);
	forget_unproven(d, &old);
	if (routes_changed)
		forget_routed(d);
	if (!same_servers(&old, &d->upconf))
		upstreams_set_conf(d);
}

/* The source changed at a reload: watch the new one. */
static void rewatch(struct daemon *d)
{
	up_watch_free(d->watch);
	d->watch = up_watch_new(d->loop, d->source_path, resolv_changed, d);
	if (!d->watch)
		watch_failed(d);
}

static bool true_pred(const uint8_t *key, size_t klen, void *arg)
{
	(void)key;
	(void)klen;
	(void)arg;
	return true;
}

static int load_hints(const struct cfg *cfg, struct it_hints *ret, char *err,
		      size_t errlen);
static void warnings_renew(struct daemon *d);

/* A new configuration and anchors; a bad file keeps the old: -1 with
 * the reason in err. */
static int reload_apply(struct daemon *d, char *err, size_t errlen)
{
	struct cfg cfg;

	if (cfg_load(d->conf_path, d->conf_must_exist, &cfg, err, errlen) < 0)
		return -1;
	struct dstate *st =
		state_load(&cfg, d->nta, d->time_offset, err, errlen);
	if (!st)
		return -1;
	if (strcmp(cfg.socket, d->st->cfg.socket) != 0 ||
	    cfg.nlisten != d->st->cfg.nlisten ||
	    cfg.threads != d->st->cfg.threads)
		log_warn("reload: socket, listen and threads take effect at "
			 "the next start");
	/* New root hints are read now: a file that does not load refuses
	 * the reload, as a bad anchor file does. */
	bool new_hints = strcmp(cfg.root_hints, d->st->cfg.root_hints) != 0;
	struct it_hints hints;
	if (new_hints && load_hints(&cfg, &hints, err, errlen) < 0) {
		dstate_put(st);
		return -1;
	}
	log_set_level((int)cfg.log_level);
	cache_set_max(d->cache, cfg.cache_size);
	/* Keys and answers validated under other anchors or limits are not
	 * to be trusted under the new ones. */
	if (!state_same_trust(st, d->st)) {
		size_t n = cache_remove_if(d->cache, true_pred, NULL);
		log_notice("reload: trust anchors, limits or policy changed; "
			   "%zu cache entries dropped",
			   n);
	}
	dstate_put(d->st);
	d->st = st;
	warnings_renew(d);
	hotspot_set_group(d, cfg.hotspot_group);
	resolve_set_mode(d, cfg.resolution);
	upstreams_apply(d);
	struct up_conf old = d->upconf;
	struct policy_routes *rt = malloc(sizeof(*rt));
	if (source_pick(d))
		rewatch(d);
	read_resolv_conf(d, &d->upconf, rt);
	bool routes_changed = rt && routes_set(d, rt);
	free(rt);
	log_upstreams(&d->upconf, "reload");
	stub_update(d);
	if (new_hints) {
		d->hints = hints;
		log_notice("reload: root hints from %s",
			   cfg.root_hints[0] ? cfg.root_hints
					     : "built-in (IANA)");
	}
	publish(d, st, new_hints ? &hints : NULL);
	forget_unproven(d, &old);
	if (routes_changed)
		forget_routed(d);
	if (!same_servers(&old, &d->upconf))
		upstreams_set_conf(d);
	__atomic_fetch_add(&d->reloads, 1, __ATOMIC_RELAXED);
	log_notice("configuration reloaded from %s", d->conf_path);
	autotrust_reload(d);
	return 0;
}

/* RELOADING=1 with the time systemd 253 and later want beside it. */
static void notify_reloading(void)
{
	struct timespec ts;
	char state[64];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(state, sizeof(state), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 (unsigned long long)ts.tv_sec * 1000000u +
			 (unsigned long long)ts.tv_nsec / 1000u);
	notify_send(state);
}

/* SIGHUP, or dnstrust reload: the verdict is kept for the status of
 * `dnstrust reload` (admin.c), and told to the service manager. */
static void reload(struct daemon *d)
{
	unsigned asked = __atomic_load_n(&d->reload_asked, __ATOMIC_ACQUIRE);
	char err[512] = "";

	notify_reloading();
	if (reload_apply(d, err, sizeof(err)) < 0)
		log_err("reload: %s; keeping the running configuration", err);
	else
		err[0] = '\0';
	pthread_mutex_lock(&d->reload_lock);
	d->reload_done = asked;
	snprintf(d->reload_error, sizeof(d->reload_error), "%s", err);
	pthread_mutex_unlock(&d->reload_lock);
	notify_send("READY=1");
}

static void reload_post(void *arg)
{
	reload(arg);
}

/* --- sockets --- */

/* The Unix socket passed by systemd (dnstrustd.socket), or -1. It stays
 * systemd's: the daemon never removes it. */
static int inherited_socket(struct daemon *d, const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int fd = notify_listen_unix();

	if (fd < 0)
		return -1;
	d->unix_inherited = true;
	memset(&sa, 0, sizeof(sa));
	if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0 &&
	    strncmp(sa.sun_path, path, sizeof(sa.sun_path)) != 0)
		log_warn("socket %s configured, but the service manager passed "
			 "%.108s: serving that one",
			 path, sa.sun_path);
	return fd;
}

static int inet_socket(const struct up_server *s, int type)
{
	int fd = socket(s->addr.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);
	int one = 1;
	char a[80];

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (type == SOCK_DGRAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&s->addr, s->addrlen) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 128) < 0)) {
		up_server_str(s, a, sizeof(a));
		log_err("listen %s: %s", a, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* --- workers --- */

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	loop_run(w->loop);
	/* Nothing is freed while another worker may still read it (a
	 * status query sums every worker's counters): each worker takes
	 * its part down once every loop has stopped. */
	pthread_barrier_wait(&w->d->loops_stopped);
	server_detach(w);
	return NULL;
}

/* The iterator's notices (root priming), on the worker's thread. */
static void iterator_notice(void *arg, const char *text)
{
	const struct worker *w = arg;

	log_info("worker %u: %s", w->id, text);
}

static int worker_init(struct daemon *d, struct worker *w, unsigned id)
{
	w->d = d;
	w->id = id;
	w->st = dstate_get(d->st);
	w->loop = loop_new();
	if (!w->loop)
		return -1;
	loop_set_wallclock_offset(w->loop, d->time_offset);
	w->up = up_client_new(w->loop);
	if (!w->up)
		return -1;
	up_client_set_conf(w->up, &d->upconf);
	if (!(w->routes = routes_copy(d->routes)))
		return -1;
	if (up_client_set_tls_ca(w->up, d->st->cfg.tls_ca) < 0)
		return -1;
	w->itup = up_client_new(w->loop);
	if (!w->itup || !(w->itnet = it_net_new(w->loop, w->itup, &d->hints)))
		return -1;
	w->it = it_net_core(w->itnet);
	it_set_notice(w->it, iterator_notice, w);
	upstreams_attach(w);
	if (resolve_init(w) < 0)
		return -1;
	return server_attach(w, d->udp_fd + (size_t)id * d->nudp) < 0 ? -1 : 0;
}

static void stop_worker(void *arg)
{
	loop_stop(((struct worker *)arg)->loop);
}

/* --- signals --- */

struct sigs {
	struct loop_io io;
	struct daemon *d;
};

static void signal_event(struct loop_io *io, uint32_t ev)
{
	struct sigs *s = io->arg;
	struct signalfd_siginfo si;

	(void)ev;
	while (read(io->fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			reload(s->d);
		} else {
			log_notice("signal %u: stopping", si.ssi_signo);
			loop_stop(s->d->loop);
		}
	}
}

/* --- start-up --- */

static unsigned nthreads(const struct cfg *cfg)
{
	long n = cfg->threads ? (long)cfg->threads
			      : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

static int open_listeners(struct daemon *d)
{
	const struct cfg *cfg = &d->st->cfg;

	d->unix_fd = inherited_socket(d, cfg->socket);
	if (d->unix_fd < 0)
		d->unix_fd = privs_unix_listen(cfg->socket);
	if (d->unix_fd < 0)
		return -1;
	for (size_t i = 0; i < cfg->nlisten; i++) {
		d->tcp_fd[i] = inet_socket(&cfg->listen[i], SOCK_STREAM);
		if (d->tcp_fd[i] < 0)
			return -1;
		d->ntcp++;
	}
	/* One UDP socket per worker and address (SO_REUSEPORT): the kernel
	 * spreads datagrams over the workers. Bound now, before privileges
	 * go. */
	d->nudp = cfg->nlisten;
	d->udp_fd = calloc((size_t)d->nworkers * d->nudp + 1, sizeof(int));
	if (!d->udp_fd)
		return -1;
	for (size_t i = 0; i < (size_t)d->nworkers * d->nudp; i++)
		if ((d->udp_fd[i] = inet_socket(&cfg->listen[i % d->nudp],
						SOCK_DGRAM)) < 0)
			return -1;
	return 0;
}

static int start_workers(struct daemon *d)
{
	/* OpenSSL's one-time set-up now, not in the first questions. */
	log_debug("crypto: %u algorithms warmed up", crypto_warm_up());
	d->workers = calloc(d->nworkers, sizeof(*d->workers));
	if (!d->workers || resolve_daemon_init(d) < 0 || hotspot_init(d) < 0)
		return -1;
	for (unsigned i = 0; i < d->nworkers; i++)
		if (worker_init(d, &d->workers[i], i) < 0)
			return -1;
	if (pthread_barrier_init(&d->loops_stopped, NULL, d->nworkers) != 0)
		return -1;
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct worker *w = &d->workers[i];
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
			return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrustd [-c FILE] [-f] [-n] [-T SECONDS]\n"
		"       dnstrustd --version | --help\n"
		"  -c FILE     configuration (default " CFG_DEFAULT_PATH ")\n"
		"  -f          stay in the foreground, log to stderr\n"
		"  -n          check the configuration, anchors and user; "
		"print it\n"
		"  -T SECONDS  shift the clock (tests only)\n"
		"See dnstrustd(8) and dnstrust.conf(5).\n");
}

struct opts {
	char conf[PATH_MAX];
	bool foreground, check;
	int64_t offset;
};

/* -T: a whole number of seconds, possibly negative, nothing else. */
static int parse_offset(const char *s, int64_t *ret)
{
	char *end;

	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr,
			"dnstrustd: -T %s: not a number of seconds (e.g. "
			"-T 86400 or -T -3600)\n",
			s);
		return -1;
	}
	*ret = v;
	return 0;
}

/* The configuration's path made absolute: the daemon leaves its working
 * directory, and reloads read the file again. */
static int set_conf_path(struct opts *o, const char *path)
{
	char cwd[PATH_MAX];
	int n;

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		n = snprintf(o->conf, sizeof(o->conf), "%s", path);
	else
		n = snprintf(o->conf, sizeof(o->conf), "%s/%s", cwd, path);
	if (n < 0 || (size_t)n >= sizeof(o->conf)) {
		fprintf(stderr, "dnstrustd: -c %s: path too long\n", path);
		return -1;
	}
	return 0;
}

/* Returns 0 to run, 1 when done (--help, --version), -1 on bad usage. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;

	snprintf(o->conf, sizeof(o->conf), "%s", CFG_DEFAULT_PATH);
	while ((c = getopt_long(argc, argv, "c:fnT:hV", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'c':
			if (set_conf_path(o, optarg) < 0)
				return -1;
			break;
		case 'f': o->foreground = true; break;
		case 'n': o->check = true; break;
		case 'T':
			if (parse_offset(optarg, &o->offset) < 0)
				return -1;
			break;
		case 'h': usage(stdout); return 1;
		case 'V': printf("dnstrustd %s\n", DT_VERSION); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "dnstrustd: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return -1;
	}
	return 0;
}

static void shutdown_all(struct daemon *d)
{
	for (unsigned i = 0; i < d->nworkers; i++)
		loop_post(d->workers[i].loop, stop_worker, &d->workers[i]);
	for (unsigned i = 0; i < d->nworkers; i++)
		pthread_join(d->workers[i].thread, NULL);
	pthread_barrier_destroy(&d->loops_stopped);
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct worker *w = &d->workers[i];
		up_client_free(w->up);
		it_net_free(w->itnet);
		up_client_free(w->itup);
		loop_free(w->loop);
		dstate_put(w->st);
		free(w->routes);
	}
	free(d->workers);
	free(d->routes);
	free(d->udp_fd);
	up_watch_free(d->watch);
	free(d->failing);
	close(d->unix_fd);
	for (size_t i = 0; i < d->ntcp; i++)
		close(d->tcp_fd[i]);
	if (!d->unix_inherited)
		unlink(d->st->cfg.socket);
	autotrust_stop(d);
	resolve_daemon_free(d);
	upstreams_free(d);
	hotspot_free(d);
	ratelimit_free(d->rate);
	cache_free(d->cache);
	dstate_put(d->st);
	nta_rt_free(d->nta);
	loop_free(d->loop);
}

/* Without -f: the process detaches, and the starting one waits for the
 * verdict (one octet on a pipe, 0 when ready; nothing when the daemon
 * died) to exit with it. Returns the pipe's write end in the detached
 * process, -1 on failure. */
static int detach(void)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid > 0) {
		char c = 1;
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(c == 0 ? 0 : 1);
	}
	close(p[0]);
	setsid();
	if (chdir("/") < 0)
		return -1;
	return p[1];
}

/* Ready: the starting process exits 0, logging goes to syslog and the
 * standard streams to /dev/null. */
static void detached_ready(int fd, int level)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	log_setup(false, level);
	if (write(fd, "", 1) < 0)
		log_warn("telling the starting process: %s", strerror(errno));
	close(fd);
	if (null < 0)
		return;
	dup2(null, STDIN_FILENO);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	if (null > STDERR_FILENO)
		close(null);
}

static void notify_ready(const struct daemon *d)
{
	char state[256];

	snprintf(state, sizeof(state),
		 "READY=1\nMAINPID=%d\nSTATUS=answering on %.150s, %u workers",
		 (int)getpid(), d->st->cfg.socket, d->nworkers);
	notify_send(state);
}

/* The root hints of cfg (root-hints, or the built-in ones). Returns 0,
 * or -1 with the reason in err. */
static int load_hints(const struct cfg *cfg, struct it_hints *ret, char *err,
		      size_t errlen)
{
	if (!cfg->root_hints[0]) {
		it_hints_builtin(ret);
		return 0;
	}
	return it_hints_load(cfg->root_hints, ret, err, errlen) < 0 ? -1 : 0;
}

/* Once a minute: whether every answer has been bogus for FAILING_MINUTES
 * minutes (a trust anchor that does not match the network's root, a
 * clock far off): a warning in the log when it begins, a notice when it
 * ends, status' validation= line meanwhile. */
static void failing_check(struct loop_timer *t)
{
	struct daemon *d = t->arg;
	struct wstats s;
	uint64_t nbogus = 0;
	char text[DAEMON_WARNING_LEN] = "ok";
	bool was;

	stats_sum(d, &s);
	if (failing_sample(d->failing, s.secure + s.insecure, s.bogus,
			   &nbogus))
		snprintf(text, sizeof(text),
			 "failing: every answer of the last %d minutes was "
			 "bogus (%llu), none secure or insecure: the trust "
			 "anchor may not match the network's root, or the "
			 "clock is off",
			 FAILING_MINUTES, (unsigned long long)nbogus);
	pthread_mutex_lock(&d->reload_lock);
	was = strcmp(d->validation, "ok") != 0;
	snprintf(d->validation, sizeof(d->validation), "%s", text);
	pthread_mutex_unlock(&d->reload_lock);
	if (!was && strcmp(text, "ok") != 0)
		log_warn("validation %s", text);
	else if (was && strcmp(text, "ok") == 0)
		log_notice("validation works again: answers other than bogus");
	loop_timer_start(d->loop, t, FAILING_SAMPLE_MS);
}

/* dnstrustd -n: the file, then what start-up checks; the configuration in
 * effect on stdout. */
static void warn_stderr(const char *msg, void *arg)
{
	int *n = arg;

	fprintf(stderr, "dnstrustd: warning: %s\n", msg);
	(*n)++;
}

static int check_only(const struct cfg *cfg, const char *conf_path)
{
	static char text[1 << 16];
	struct it_hints hints;
	char err[512];
	int nwarn = 0;

	if (check_startup(cfg, err, sizeof(err)) < 0 ||
	    load_hints(cfg, &hints, err, sizeof(err)) < 0) {
		fprintf(stderr, "dnstrustd: %s\n", err);
		fprintf(stderr, "dnstrustd: configuration refused\n");
		return 1;
	}
	cfg_format(cfg, text, sizeof(text));
	fputs(text, stdout);
	fflush(stdout);
	char nta_path[PATH_MAX];
	if (state_nta_path(nta_path, sizeof(nta_path)) < 0)
		nta_path[0] = 0;
	check_warnings(cfg, conf_path, nta_path, (int64_t)time(NULL),
		       warn_stderr, &nwarn);
	if (nwarn)
		fprintf(stderr, "dnstrustd: configuration OK, %d warning%s\n",
			nwarn, nwarn == 1 ? "" : "s");
	else
		fprintf(stderr, "dnstrustd: configuration OK\n");
	return 0;
}

/* A warning of check_warnings: logged, and kept for status. */
static void warn_keep(const char *msg, void *arg)
{
	struct daemon *d = arg;

	log_warn("%s", msg);
	pthread_mutex_lock(&d->reload_lock);
	if (d->nwarnings < DAEMON_WARNINGS_MAX)
		snprintf(d->warning[d->nwarnings++], DAEMON_WARNING_LEN, "%s",
			 msg);
	pthread_mutex_unlock(&d->reload_lock);
}

/* The configuration's warnings again (at start, at a reload). */
static void warnings_renew(struct daemon *d)
{
	pthread_mutex_lock(&d->reload_lock);
	d->nwarnings = 0;
	pthread_mutex_unlock(&d->reload_lock);
	check_warnings(&d->st->cfg, d->conf_path,
		       d->nta ? nta_rt_path(d->nta) : "",
		       (int64_t)time(NULL) + d->time_offset, warn_keep, d);
}

/* A start-up failure after the sockets: the socket made goes (never
 * another daemon's: unix_fd is -1 then). Returns main's exit status. */
static int start_failed(struct daemon *d)
{
	if (d->unix_fd >= 0 && !d->unix_inherited)
		unlink(d->st->cfg.socket);
	return 1;
}

/* Sockets, privileges, detaching (when ret_ready_fd: the pipe's end to
 * write the verdict on) and workers. Returns 0 or -1. */
static int start_serving(struct daemon *d, int *ret_ready_fd)
{
	privs_raise_nofile();
	if (open_listeners(d) < 0 ||
	    privs_drop(d->st->cfg.user, &d->admin_uid) < 0)
		return -1;
	if (ret_ready_fd && (*ret_ready_fd = detach()) < 0) {
		log_err("detaching: %s", strerror(errno));
		return -1;
	}
	if (start_workers(d) < 0) {
		log_err("starting workers failed");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct daemon d;
	struct opts o = {0};
	struct cfg cfg;
	char err[512];
	int r = parse_args(argc, argv, &o);

	if (r)
		return r < 0 ? 64 : 0;
	snprintf(d.conf_path, sizeof(d.conf_path), "%s", o.conf);
	d.conf_must_exist = strcmp(o.conf, CFG_DEFAULT_PATH) != 0;
	if (cfg_load(o.conf, d.conf_must_exist, &cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "dnstrustd: %s\n", err);
		if (o.check)
			fprintf(stderr, "dnstrustd: configuration refused\n");
		return 1;
	}
	if (o.check)
		return check_only(&cfg, o.conf);
	log_setup(true, (int)cfg.log_level);
	pthread_mutex_init(&d.reload_lock, NULL);
	d.time_offset = o.offset;
	d.reload = reload_post;
	d.unix_fd = -1;
	d.nta = state_nta_load();
	if (!d.nta)
		return 1;
	d.st = state_load(&cfg, d.nta, o.offset, err, sizeof(err));
	if (!d.st)
		log_err("trust anchors: %s", err);
	d.cache = d.st ? cache_new(cfg.cache_size) : NULL;
	d.loop = d.cache ? loop_new() : NULL;
	if (!d.loop)
		return 1;
	loop_set_wallclock_offset(d.loop, o.offset);
	d.started = loop_wallclock(d.loop);
	warnings_renew(&d);
	source_pick(&d);
	d.routes = calloc(1, sizeof(*d.routes));
	struct policy_routes *rt = malloc(sizeof(*rt));
	if (!d.routes || !rt)
		return 1;
	read_resolv_conf(&d, &d.upconf, rt);
	routes_set(&d, rt);
	free(rt);
	log_upstreams(&d.upconf, d.source_path);
	stub_update(&d);
	d.set_recursing = resolve_set_recursing;
	d.judged = resolve_judged;
	if (upstreams_init(&d) < 0)
		return 1;
	if (load_hints(&cfg, &d.hints, err, sizeof(err)) < 0) {
		log_err("root-hints: %s", err);
		return 1;
	}
	resolve_set_mode(&d, cfg.resolution);
	upstreams_apply(&d);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	d.nworkers = nthreads(&cfg);
	int ready_fd = -1;
	if (start_serving(&d, o.foreground ? NULL : &ready_fd) < 0)
		return start_failed(&d);
	struct sigs sg = {.d = &d, .io = {.cb = signal_event}};
	sg.io.arg = &sg;
	sigdelset(&set, SIGPIPE);
	int sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0 || loop_io_add(d.loop, &sg.io, sfd, LOOP_READ) < 0)
		return start_failed(&d);
	snprintf(d.validation, sizeof(d.validation), "ok");
	d.failing = calloc(1, sizeof(*d.failing));
	if (d.failing) {
		d.failing_sample.cb = failing_check;
		d.failing_sample.arg = &d;
		loop_timer_start(d.loop, &d.failing_sample, FAILING_SAMPLE_MS);
	}
	d.resolv_retry.cb = resolv_retry;
	d.resolv_retry.arg = &d;
	d.watch = up_watch_new(d.loop, d.source_path, resolv_changed, &d);
	if (!d.watch)
		watch_failed(&d);
	else if (d.resolv_warning[0])
		loop_timer_start(d.loop, &d.resolv_retry,
				 DAEMON_RESOLV_RETRY_MS);
	if (autotrust_start(&d) < 0)
		return start_failed(&d);
	hotspot_set_group(&d, cfg.hotspot_group);
	log_notice("dnstrustd %s started: socket %s, %u workers, anchors: %s",
		   DT_VERSION, cfg.socket, d.nworkers, d.st->ta_desc);
	if (ready_fd >= 0)
		detached_ready(ready_fd, (int)cfg.log_level);
	notify_ready(&d);
	loop_run(d.loop);
	notify_send("STOPPING=1");
	loop_io_del(d.loop, &sg.io);
	close(sfd);
	shutdown_all(&d);
	log_notice("stopped");
	return 0;
}
