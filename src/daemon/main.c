/* SPDX-License-Identifier: MIT */
/*
 * dnstrustd: start-up, workers, signals and reloads.
 *
 *   dnstrustd [-c FILE] [-f] [-n] [-T SECONDS]
 *
 * -f stays in the foreground and logs to stderr; -n checks the
 * configuration, prints it and exits; -T shifts the daemon's clock (for
 * tests of signature validity and RFC 5011 timers only).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache.h"
#include "common/errcode.h"
#include "daemon/autotrust.h"
#include "daemon/log.h"
#include "daemon/policy.h"
#include "daemon/privs.h"
#include "daemon/server.h"
#include "upstream/transport.h"
#include "upstream/watch.h"
#include "validator/anchor.h"
#include "wire/dname.h"

/* --- state --- */

struct dstate *dstate_get(struct dstate *st)
{
	__atomic_fetch_add(&st->refs, 1, __ATOMIC_RELAXED);
	return st;
}

void dstate_put(struct dstate *st)
{
	if (!st || __atomic_sub_fetch(&st->refs, 1, __ATOMIC_ACQ_REL))
		return;
	val_anchors_free(st->ta);
	free(st);
}

/* Split DNS: each domain rule's servers as a transport configuration
 * (glibc's timeout and attempts), and the negative trust anchors already
 * expired, logged. */
static void split_confs(struct dstate *st, int64_t offset)
{
	struct timespec now;
	char txt[DT_NAME_TEXT_MAXLEN], date[16];

	for (size_t i = 0; i < st->cfg.ndomain; i++) {
		const struct cfg_domain *d = &st->cfg.domain[i];
		struct up_conf *uc = &st->split[i];
		memset(uc, 0, sizeof(*uc));
		for (size_t j = 0; j < d->nns; j++)
			uc->ns[uc->nns++] = d->ns[j];
		uc->timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
		uc->attempts = DT_UP_ATTEMPTS_DEFAULT;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	now.tv_sec += offset;
	for (size_t i = 0; i < st->cfg.nnta; i++) {
		const struct cfg_nta *n = &st->cfg.nta[i];
		if (!n->until || now.tv_sec < n->until)
			continue;
		wire_dname_to_str(n->name, txt, sizeof(txt));
		policy_date(n->until, date, sizeof(date));
		log_warn("negative-trust-anchor %s expired on %s: ignored", txt,
			 date);
	}
}

static struct dstate *dstate_load(const struct cfg *cfg, int64_t offset)
{
	struct dstate *st = calloc(1, sizeof(*st));
	char err[512];
	int r;

	if (!st)
		return NULL;
	st->refs = 1;
	st->cfg = *cfg;
	val_limits_default(&st->lim);
	st->lim.nsec3_iterations = cfg->nsec3_max_iterations;
	st->lim.skew = cfg->clock_skew;
	split_confs(st, offset);
	st->ta = val_anchors_new();
	if (!st->ta) {
		free(st);
		return NULL;
	}
	if (cfg->auto_trust_anchor_file[0]) {
		r = autotrust_anchors(cfg, st->ta, st->ta_desc,
				      sizeof(st->ta_desc), err, sizeof(err));
	} else if (cfg->trust_anchor_file[0]) {
		r = val_anchors_load(st->ta, cfg->trust_anchor_file, err,
				     sizeof(err));
		if (r == 0 && val_anchors_count(st->ta) == 0) {
			snprintf(err, sizeof(err), "%.400s: no DS or DNSKEY record",
				 cfg->trust_anchor_file);
			r = DT_ECONFIG;
		}
		snprintf(st->ta_desc, sizeof(st->ta_desc), "%s",
			 cfg->trust_anchor_file);
	} else {
		r = val_anchors_add_root(st->ta);
		snprintf(err, sizeof(err), "built-in root anchors: %s",
			 dt_strerror(r));
		snprintf(st->ta_desc, sizeof(st->ta_desc),
			 "built-in IANA root KSKs (20326, 38696)");
	}
	if (r < 0) {
		log_err("trust anchors: %s", err);
		dstate_put(st);
		return NULL;
	}
	return st;
}

int64_t worker_wallclock(const struct worker *w)
{
	return loop_wallclock(w->loop);
}

/* --- upstream configuration --- */

static bool same_addr(const struct up_server *a, const struct up_server *b)
{
	return a->addrlen == b->addrlen &&
	       memcmp(&a->addr, &b->addr, a->addrlen) == 0;
}

/* resolv.conf with our own loopback listeners taken out: asking ourselves
 * would loop. */
static void read_resolv_conf(struct daemon *d, struct up_conf *uc)
{
	const struct cfg *cfg = &d->st->cfg;
	int r = up_conf_load(cfg->resolv_conf, uc);

	if (r < 0) {
		log_warn("%s: %s; no upstream until it is readable",
			 cfg->resolv_conf, strerror(-r));
		memset(uc, 0, sizeof(*uc));
		uc->timeout_ms = DT_UP_TIMEOUT_DEFAULT_MS;
		uc->attempts = DT_UP_ATTEMPTS_DEFAULT;
		return;
	}
	size_t k = 0;
	for (size_t i = 0; i < uc->nns; i++) {
		bool self = false;
		for (size_t j = 0; j < cfg->nlisten; j++)
			self |= same_addr(&uc->ns[i], &cfg->listen[j]);
		if (self)
			log_warn("%s lists dnstrustd's own listener; skipped",
				 cfg->resolv_conf);
		else
			uc->ns[k++] = uc->ns[i];
	}
	uc->nns = k;
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
	struct dstate *st;
};

static void adopt(void *arg)
{
	struct conf_post *p = arg;

	up_client_set_conf(p->w->up, &p->uc);
	if (p->st) {
		dstate_put(p->w->st);
		p->w->st = p->st;
	}
	free(p);
}

/* Hands the upstreams (and a new state, when st) to every worker. */
static void publish(struct daemon *d, struct dstate *st)
{
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct conf_post *p = calloc(1, sizeof(*p));
		if (!p)
			continue;
		p->w = &d->workers[i];
		p->uc = d->upconf;
		p->st = st ? dstate_get(st) : NULL;
		if (loop_post(d->workers[i].loop, adopt, p) < 0) {
			dstate_put(p->st);
			free(p);
		}
	}
}

static void resolv_changed(void *arg)
{
	struct daemon *d = arg;
	struct up_conf uc;

	read_resolv_conf(d, &uc);
	if (up_conf_equal(&uc, &d->upconf))
		return;
	d->upconf = uc;
	log_upstreams(&uc, d->st->cfg.resolv_conf);
	publish(d, NULL);
}

static bool rrs_equal(const struct wire_rr *a, const struct wire_rr *b,
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].rdlen != b[i].rdlen ||
		    memcmp(a[i].rdata, b[i].rdata, a[i].rdlen) != 0)
			return false;
	return true;
}

/* Whether two states trust the same keys (same records, same order). */
static bool anchors_equal(const struct dstate *a, const struct dstate *b)
{
	size_t n = val_anchors_count(a->ta);

	if (n != val_anchors_count(b->ta))
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct val_anchor_zone *x = val_anchors_get(a->ta, i);
		const struct val_anchor_zone *y = val_anchors_get(b->ta, i);
		if (!wire_dname_equal(x->zone, y->zone) || x->nds != y->nds ||
		    x->ndnskey != y->ndnskey ||
		    !rrs_equal(x->ds, y->ds, x->nds) ||
		    !rrs_equal(x->dnskey, y->dnskey, x->ndnskey))
			return false;
	}
	return true;
}

static bool true_pred(const uint8_t *key, size_t klen, void *arg)
{
	(void)key;
	(void)klen;
	(void)arg;
	return true;
}

/* SIGHUP: a new configuration and anchors; a bad file keeps the old. */
static void reload(struct daemon *d)
{
	char err[512];
	struct cfg cfg;

	if (cfg_load(d->conf_path, d->conf_must_exist, &cfg, err,
		     sizeof(err)) < 0) {
		log_err("reload: %s; keeping the running configuration", err);
		return;
	}
	struct dstate *st = dstate_load(&cfg, d->time_offset);
	if (!st) {
		log_err("reload: keeping the running configuration");
		return;
	}
	if (strcmp(cfg.socket, d->st->cfg.socket) != 0 ||
	    cfg.nlisten != d->st->cfg.nlisten || cfg.threads != d->st->cfg.threads)
		log_warn("reload: socket, listen and threads take effect at "
			 "the next start");
	log_set_level((int)cfg.log_level);
	cache_set_max(d->cache, cfg.cache_size);
	/* Keys and answers validated under other anchors or limits are not
	 * to be trusted under the new ones. */
	if (!anchors_equal(st, d->st) ||
	    memcmp(&st->lim, &d->st->lim, sizeof(st->lim)) != 0 ||
	    policy_changed(&st->cfg, &d->st->cfg)) {
		size_t n = cache_remove_if(d->cache, true_pred, NULL);
		log_notice("reload: trust anchors, limits or policy changed; "
			   "%zu cache entries dropped",
			   n);
	}
	dstate_put(d->st);
	d->st = st;
	read_resolv_conf(d, &d->upconf);
	log_upstreams(&d->upconf, "reload");
	publish(d, st);
	__atomic_fetch_add(&d->reloads, 1, __ATOMIC_RELAXED);
	log_notice("configuration reloaded from %s", d->conf_path);
	autotrust_reload(d);
}

static void reload_post(void *arg)
{
	reload(arg);
}

void daemon_request_reload(struct daemon *d)
{
	loop_post(d->loop, reload_post, d);
}

/* --- sockets --- */

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
	server_detach(w);
	return NULL;
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
	long n = cfg->threads ? (long)cfg->threads : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

static int open_listeners(struct daemon *d)
{
	const struct cfg *cfg = &d->st->cfg;

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
	d->workers = calloc(d->nworkers, sizeof(*d->workers));
	if (!d->workers)
		return -1;
	for (unsigned i = 0; i < d->nworkers; i++)
		if (worker_init(d, &d->workers[i], i) < 0)
			return -1;
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct worker *w = &d->workers[i];
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
			return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: dnstrustd [-c FILE] [-f] [-n] [-T SECONDS]\n");
}

struct opts {
	const char *conf;
	bool foreground, check;
	int64_t offset;
};

static int parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	o->conf = CFG_DEFAULT_PATH;
	while ((c = getopt(argc, argv, "c:fnT:h")) != -1) {
		switch (c) {
		case 'c': o->conf = optarg; break;
		case 'f': o->foreground = true; break;
		case 'n': o->check = true; break;
		case 'T': o->offset = strtoll(optarg, NULL, 10); break;
		default: usage(); return -1;
		}
	}
	return optind == argc ? 0 : (usage(), -1);
}

static void shutdown_all(struct daemon *d)
{
	for (unsigned i = 0; i < d->nworkers; i++)
		loop_post(d->workers[i].loop, stop_worker, &d->workers[i]);
	for (unsigned i = 0; i < d->nworkers; i++)
		pthread_join(d->workers[i].thread, NULL);
	for (unsigned i = 0; i < d->nworkers; i++) {
		struct worker *w = &d->workers[i];
		up_client_free(w->up);
		loop_free(w->loop);
		dstate_put(w->st);
	}
	free(d->workers);
	free(d->udp_fd);
	up_watch_free(d->watch);
	close(d->unix_fd);
	for (size_t i = 0; i < d->ntcp; i++)
		close(d->tcp_fd[i]);
	unlink(d->st->cfg.socket);
	autotrust_stop(d);
	cache_free(d->cache);
	dstate_put(d->st);
	loop_free(d->loop);
}

int main(int argc, char **argv)
{
	static struct daemon d;
	struct opts o = {0};
	struct cfg cfg;
	char err[512];

	if (parse_args(argc, argv, &o) < 0)
		return 64;
	snprintf(d.conf_path, sizeof(d.conf_path), "%s", o.conf);
	d.conf_must_exist = strcmp(o.conf, CFG_DEFAULT_PATH) != 0;
	if (cfg_load(o.conf, d.conf_must_exist, &cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "dnstrustd: %s\n", err);
		return 1;
	}
	if (o.check) {
		static char text[1 << 16];
		cfg_format(&cfg, text, sizeof(text));
		fputs(text, stdout);
		return 0;
	}
	log_setup(o.foreground, (int)cfg.log_level);
	d.time_offset = o.offset;
	d.st = dstate_load(&cfg, o.offset);
	d.cache = d.st ? cache_new(cfg.cache_size) : NULL;
	d.loop = d.cache ? loop_new() : NULL;
	if (!d.loop)
		return 1;
	loop_set_wallclock_offset(d.loop, o.offset);
	d.started = loop_wallclock(d.loop);
	read_resolv_conf(&d, &d.upconf);
	log_upstreams(&d.upconf, cfg.resolv_conf);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	d.nworkers = nthreads(&cfg);
	privs_raise_nofile();
	if (open_listeners(&d) < 0 || privs_drop(cfg.user, &d.admin_uid) < 0)
		return 1;
	if (!o.foreground && daemon(0, 0) < 0) {
		log_err("daemon: %s", strerror(errno));
		return 1;
	}
	if (start_workers(&d) < 0) {
		log_err("starting workers failed");
		return 1;
	}
	struct sigs sg = {.d = &d, .io = {.cb = signal_event}};
	sg.io.arg = &sg;
	sigdelset(&set, SIGPIPE);
	int sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0 || loop_io_add(d.loop, &sg.io, sfd, LOOP_READ) < 0)
		return 1;
	d.watch = up_watch_new(d.loop, cfg.resolv_conf, resolv_changed, &d);
	if (!d.watch)
		log_warn("%s: cannot watch for changes: %s", cfg.resolv_conf,
			 strerror(errno));
	log_notice("dnstrustd %s started: socket %s, %u workers, anchors: %s",
		   "0.1.0", cfg.socket, d.nworkers, d.st->ta_desc);
	if (autotrust_start(&d) < 0)
		return 1;
	loop_run(d.loop);
	loop_io_del(d.loop, &sg.io);
	close(sfd);
	shutdown_all(&d);
	log_notice("stopped");
	return 0;
}
