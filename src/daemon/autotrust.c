/* SPDX-License-Identifier: MIT */
/*
 * RFC 5011 in dnstrustd (autotrust.h): the state file on disk, and the
 * refresh that runs on the main thread.
 *
 * A refresh reads the file, asks the upstream (the main loop's own
 * client, with resolv.conf's servers) for the DNSKEY RRset of every
 * trust point that is due, feeds each answer to val_at_update() at the
 * daemon's wall clock (-T shifts it, for tests), logs every change of a
 * key's state, writes the file back (a temporary file in the same
 * directory, fsync, rename, fsync of the directory) and, when the trusted
 * keys changed, asks for a reload: the workers then get the new anchors
 * and the caches are dropped, as for an edited trust-anchor-file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "common/file.h"
#include "common/log.h"
#include "daemon/autotrust.h"
#include "daemon/daemon.h"
#include "upstream/transport.h"
#include "validator/anchor.h"
#include "validator/autotrust.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* The longest sleep between two looks at the file: the wall clock may
 * jump (suspend, a corrected clock) while the loop's monotonic one does
 * not, so the due times are checked again at least hourly. */
#define AT_WAKE_MAX_MS (3600 * 1000)
/* After the file could not be read: try again in an hour. */
#define AT_BROKEN_RETRY_MS (3600 * 1000)

struct autotrust;

/* One DNSKEY query under way. */
struct at_query {
	struct autotrust *a;
	size_t point;
	struct up_req *req;
};

struct autotrust {
	struct daemon *d;
	struct up_client *up;
	struct loop_timer timer;
	char path[PATH_MAX]; /* the state file of the refresh */
	struct val_at *at;   /* its state while queries are out */
	struct at_query q[DT_AT_MAX_POINTS];
	size_t pending;
	bool trust_changed;
};

/* --- the file --- */

/* Reads and parses the state file. Returns 0, -ENOENT when it does not
 * exist, or an error with the message in err. */
static int state_read(const char *path, struct val_at *at, char *err,
		      size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int r = file_read_path(path, DT_AT_FILE_MAXSIZE, &buf, &len);

	if (r == -ENOENT)
		return r;
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, errcode_str(r));
		return r;
	}
	r = val_at_parse(buf, len, path, at, err, errlen);
	free(buf);
	return r;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Makes the directory entry of a rename durable. */
static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Writes text to path atomically: a new file beside it, flushed to disk,
 * renamed over it. Returns 0 or -errno. */
static int write_atomic(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX + 16];
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write_all(fd, text, len);
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	sync_dir(path);
	return 0;
}

/* Formats at and writes it to path. Returns 0 or -errno. */
static int state_write(const char *path, const struct val_at *at)
{
	size_t n = val_at_format(at, NULL, 0);
	char *text = malloc(n + 1);
	int r;

	if (!text)
		return -ENOMEM;
	val_at_format(at, text, n + 1);
	r = write_atomic(path, text, n);
	free(text);
	return r;
}

/* The first state: the configured anchors, every one VALID, to be asked
 * for at once; not written. Returns 0 or an error with the message in
 * err. */
static int state_seed(const struct cfg *cfg, struct val_at *at, char *err,
		      size_t errlen)
{
	struct val_anchors *ta = val_anchors_new();
	const char *from = cfg->trust_anchor_file[0] ? cfg->trust_anchor_file
						     : "built-in root anchors";
	int r;

	if (!ta)
		return -ENOMEM;
	if (cfg->trust_anchor_file[0])
		r = val_anchors_load(ta, cfg->trust_anchor_file, err, errlen);
	else
		r = val_anchors_add_root(ta);
	memset(at, 0, sizeof(*at));
	if (r == 0)
		r = val_at_add_anchors(at, ta);
	if (r == 0 && at->npoints == 0)
		r = DT_ECONFIG;
	val_anchors_free(ta);
	if (r < 0 && !(err[0] && cfg->trust_anchor_file[0]))
		snprintf(err, errlen, "%.400s: %s", from,
			 r == DT_ECONFIG ? "no DS or DNSKEY record"
					 : errcode_str(r));
	return r;
}

/* The first state, written to the file. */
static int state_create(const struct cfg *cfg, struct val_at *at, char *err,
			size_t errlen)
{
	const char *from = cfg->trust_anchor_file[0] ? cfg->trust_anchor_file
						     : "built-in root anchors";
	int r = state_seed(cfg, at, err, errlen);

	if (r < 0)
		return r;
	r = state_write(cfg->auto_trust_anchor_file, at);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", cfg->auto_trust_anchor_file,
			 strerror(-r));
		return r;
	}
	log_notice("%s: RFC 5011 state made from %s",
		   cfg->auto_trust_anchor_file, from);
	return 0;
}

int autotrust_anchors(const struct cfg *cfg, struct val_anchors *ta, char *desc,
		      size_t desclen, char *err, size_t errlen)
{
	const char *path = cfg->auto_trust_anchor_file;
	struct val_at *at = malloc(sizeof(*at));
	int r;

	err[0] = '\0';
	if (!at)
		return -ENOMEM;
	r = state_read(path, at, err, errlen);
	if (r == -ENOENT)
		r = state_create(cfg, at, err, errlen);
	if (r == 0) {
		r = val_at_anchors(at, ta);
		if (r < 0)
			snprintf(err, errlen, "%s: %s", path, errcode_str(r));
	}
	if (r == 0)
		log_err("%s: no trusted key (every one revoked, RFC 5011 §5): "
			"nothing validates until a new anchor is configured",
			path);
	if (r >= 0)
		snprintf(desc, desclen, "%s (RFC 5011, %d keys trusted)", path,
			 r);
	free(at);
	return r < 0 ? r : 0;
}

/* The directory of path, which must exist for the file to be made. */
static int state_dir_check(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return 0;
	slash[slash == dir] = '\0';
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	snprintf(err, errlen, "%.400s: directory %.400s is missing", path,
		 dir);
	return -ENOENT;
}

int autotrust_check(const struct cfg *cfg, struct val_anchors *ta, char *err,
		    size_t errlen)
{
	const char *path = cfg->auto_trust_anchor_file;
	struct val_at *at = malloc(sizeof(*at));
	int r;

	err[0] = '\0';
	if (!at)
		return -ENOMEM;
	r = state_read(path, at, err, errlen);
	if (r == -ENOENT) {
		r = state_dir_check(path, err, errlen);
		if (r == 0)
			r = state_seed(cfg, at, err, errlen);
	}
	if (r == 0)
		r = val_at_anchors(at, ta);
	if (r < 0 && !err[0])
		snprintf(err, errlen, "%s: %s", path, errcode_str(r));
	free(at);
	return r < 0 ? r : 0;
}

/* --- logging what changed --- */

static void log_event(const char *zone, const struct val_at_event *e)
{
	char when[32];
	time_t t = (time_t)e->hold_until;
	struct tm tm;

	if (e->from_ds && e->to == VAL_AT_VALID)
		log_notice(
			"trust anchor %s: DS %u is DNSKEY %u (alg %u), VALID",
			zone, e->tag, e->tag, e->alg);
	else if (e->from_ds)
		log_notice("trust anchor %s: DS %u (alg %u) designates no key "
			   "of the validated DNSKEY RRset: dropped",
			   zone, e->tag, e->alg);
	else if (e->to == VAL_AT_ADDPEND && gmtime_r(&t, &tm) &&
		 strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		log_notice("trust anchor %s: key %u (alg %u) %s -> ADDPEND: "
			   "trusted from %s if still published",
			   zone, e->tag, e->alg, val_at_state_name(e->from),
			   when);
	else if (e->tag != e->prev_tag)
		log_notice("trust anchor %s: key %u (alg %u) %s -> %s; its "
			   "tag is now %u",
			   zone, e->prev_tag, e->alg,
			   val_at_state_name(e->from), val_at_state_name(e->to),
			   e->tag);
	else
		log_notice("trust anchor %s: key %u (alg %u) %s -> %s", zone,
			   e->tag, e->alg, val_at_state_name(e->from),
			   val_at_state_name(e->to));
}

static void log_result(const uint8_t *name, const struct val_at_result *res)
{
	char zone[DT_NAME_TEXT_MAXLEN];

	wire_dname_to_str(name, zone, sizeof(zone));
	for (size_t i = 0; i < res->nevents; i++)
		log_event(zone, &res->events[i]);
	if (res->verdict.status != VAL_SECURE)
		log_warn(
			"trust anchor %s: DNSKEY RRset not validated: %s (%s); "
			"new keys are not taken from it",
			zone, res->verdict.reason, res->verdict.tag);
	if (res->ignored)
		log_warn("trust anchor %s: %zu new keys not followed (table "
			 "full or key too large)",
			 zone, res->ignored);
	if (res->deleted)
		log_err("trust anchor %s: its last trusted key was revoked "
			"(RFC 5011 §5): nothing below it validates until a new "
			"anchor is configured",
			zone);
}

/* --- refresh --- */

static void arm(struct autotrust *a, int64_t ms)
{
	if (ms < 0)
		ms = 0;
	if (ms > AT_WAKE_MAX_MS)
		ms = AT_WAKE_MAX_MS;
	loop_timer_start(a->d->loop, &a->timer, ms);
}

/* The DNSKEY RRset of zone in the answer section of a response. */
static const struct val_rrset *
answer_keys(const struct wire_msg *m, const uint8_t *zone, struct arena *ar)
{
	struct val_rrset *sets;
	int n = val_rrsets_collect(m->sec[WIRE_SEC_ANSWER],
				   m->count[WIRE_SEC_ANSWER], ar, &sets);

	if (n <= 0)
		return NULL;
	return val_rrset_find(sets, (size_t)n, zone, WIRE_TYPE_DNSKEY);
}

/* One answer (or failure) for one point: the state machine. */
static void update(struct autotrust *a, struct val_at_point *tp,
		   const struct up_answer *ans)
{
	const struct dstate *st = a->d->st;
	int64_t now = loop_wallclock(a->d->loop);
	struct val_at_policy pol = {
		.add_holddown = st->cfg.auto_trust_add_holddown,
		.remove_holddown = st->cfg.auto_trust_remove_holddown,
	};
	struct val_at_result res;
	struct val_ctx ctx;
	struct arena ar;
	int perr;
	struct wire_msg *m = wire_msg_parse(ans->msg, ans->len, 0, &perr);

	arena_init(&ar, 0);
	val_ctx_init(&ctx, now, &st->lim);
	int r = val_at_update(
		&ctx, tp, m ? answer_keys(m, tp->zone, &ar) : NULL, &pol, &res);
	arena_free(&ar);
	wire_msg_free(m);
	if (r < 0) {
		log_err("trust anchor update: %s", errcode_str(r));
		return;
	}
	log_result(tp->zone, &res);
	a->trust_changed |= res.trust_changed;
}

/* Every answer is in: write, reload if needed, sleep until the next. */
static void finish(struct autotrust *a)
{
	int64_t now = loop_wallclock(a->d->loop);
	int r = state_write(a->path, a->at);

	if (r < 0)
		log_err("%s: cannot write the RFC 5011 state: %s; the changes "
			"will be seen again at the next query",
			a->path, strerror(-r));
	else if (a->trust_changed) {
		log_notice("%s: the trusted keys changed: reloading", a->path);
		daemon_request_reload(a->d);
	}
	int64_t next = val_at_next_query(a->at);
	arm(a, next ? (next - now) * 1000 : AT_WAKE_MAX_MS);
	free(a->at);
	a->at = NULL;
	a->trust_changed = false;
}

static void answered(void *arg, int err, const struct up_answer *ans,
		     int last_rcode)
{
	struct at_query *q = arg;
	struct autotrust *a = q->a;
	struct val_at_point *tp = &a->at->points[q->point];
	char zone[DT_NAME_TEXT_MAXLEN];

	q->req = NULL;
	if (err || !ans) {
		char rcode[32] = "";
		if (last_rcode == UP_RCODE_MALFORMED)
			snprintf(rcode, sizeof(rcode),
				 " (a malformed response)");
		else if (last_rcode >= 0)
			snprintf(rcode, sizeof(rcode), " (last RCODE %d)",
				 last_rcode);
		wire_dname_to_str(tp->zone, zone, sizeof(zone));
		log_warn("trust anchor %s: DNSKEY query failed: %s%s", zone,
			 errcode_str(err ? err : DT_EUPSTREAM), rcode);
		val_at_failed(tp, loop_wallclock(a->d->loop));
	} else {
		update(a, tp, ans);
	}
	if (--a->pending == 0)
		finish(a);
}

/* Sends the queries of the points that are due. */
static void ask(struct autotrust *a, int64_t now)
{
	up_client_set_conf(a->up, &a->d->upconf);
	(void)up_client_set_tls_ca(a->up, a->d->st->cfg.tls_ca);
	for (size_t i = 0; i < a->at->npoints; i++) {
		struct val_at_point *tp = &a->at->points[i];
		/* deleted (every key revoked, RFC 5011 §5): never asked */
		if (tp->next_query > now || !val_at_point_trusted(tp))
			continue;
		a->q[i] = (struct at_query){.a = a, .point = i};
		a->q[i].req = up_query(a->up, tp->zone, WIRE_TYPE_DNSKEY,
				       WIRE_CLASS_IN, NULL, answered, &a->q[i]);
		if (a->q[i].req)
			a->pending++;
		else
			val_at_failed(tp, now);
	}
}

static void refresh(struct loop_timer *t)
{
	struct autotrust *a = t->arg;
	const struct cfg *cfg = &a->d->st->cfg;
	int64_t now = loop_wallclock(a->d->loop);
	char err[512];
	int r;

	if (a->pending || !cfg->auto_trust_anchor_file[0])
		return;
	snprintf(a->path, sizeof(a->path), "%s", cfg->auto_trust_anchor_file);
	a->at = malloc(sizeof(*a->at));
	r = a->at ? state_read(a->path, a->at, err, sizeof(err)) : -ENOMEM;
	if (r < 0) {
		if (r == -ENOENT)
			snprintf(err, sizeof(err), "%.400s: gone", a->path);
		log_err("RFC 5011 refresh: %s; trying again in an hour",
			r == -ENOMEM ? "out of memory" : err);
		free(a->at);
		a->at = NULL;
		arm(a, AT_BROKEN_RETRY_MS);
		return;
	}
	ask(a, now);
	if (a->pending == 0)
		finish(a);
}

/* --- life cycle --- */

int autotrust_start(struct daemon *d)
{
	struct autotrust *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->d = d;
	a->up = up_client_new(d->loop);
	if (!a->up) {
		free(a);
		return -ENOMEM;
	}
	a->timer.cb = refresh;
	a->timer.arg = a;
	d->autotrust = a;
	if (d->st->cfg.auto_trust_anchor_file[0])
		arm(a, 0);
	return 0;
}

static void cancel(struct autotrust *a)
{
	for (size_t i = 0; i < DT_AT_MAX_POINTS; i++) {
		up_cancel(a->q[i].req);
		a->q[i].req = NULL;
	}
	a->pending = 0;
	free(a->at);
	a->at = NULL;
	a->trust_changed = false;
}

void autotrust_reload(struct daemon *d)
{
	struct autotrust *a = d->autotrust;
	const char *path = d->st->cfg.auto_trust_anchor_file;

	if (!a || strcmp(path, a->path) == 0)
		return;
	cancel(a);
	snprintf(a->path, sizeof(a->path), "%s", path);
	loop_timer_stop(d->loop, &a->timer);
	if (path[0])
		arm(a, 0);
}

void autotrust_stop(struct daemon *d)
{
	struct autotrust *a = d->autotrust;

	if (!a)
		return;
	cancel(a);
	loop_timer_stop(d->loop, &a->timer);
	up_client_free(a->up);
	free(a);
	d->autotrust = NULL;
}
