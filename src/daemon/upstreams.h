/* SPDX-License-Identifier: MIT */
/*
 * What dnstrustd knows of its resolv.conf servers and what it makes of
 * it: the capability table (upstream/capab.h) the workers' clients feed,
 * the probes (upstream/probe.h) on the main thread, the notices when a
 * server's verdict changes (at most DT_UP_NOTICE_BURST per server and
 * window, the rest summed up in one line: noticelimit.h), and the auto-mode
 * judgement: resolve from the root when every server with a verdict cannot do
 * DNSSEC (and one has a verdict), forward again as soon as one can. The
 * judgement is handed to daemon.set_recursing (resolve_set_recursing, which
 * follows it with resolution auto only).
 *
 * Roaming: when the servers change, everything learnt of the old ones
 * is forgotten; when every server was unreachable and one answers again,
 * what the cache holds without a secure validation (the failures of the
 * outage among it) is dropped, so that names resolve at once.
 */
#ifndef DT_DAEMON_UPSTREAMS_H
#define DT_DAEMON_UPSTREAMS_H

#include <stdbool.h>
#include <stddef.h>

struct capab;
struct capab_view;
struct daemon;
struct policy_routes;
struct worker;

/* Before the workers: the table and the probes for d->upconf (probing
 * starts when the main loop runs). Returns 0 or -ENOMEM. */
int upstreams_init(struct daemon *d);

/* After the workers stopped (NULL parts allowed). */
void upstreams_free(struct daemon *d);

/* A worker's client feeds the table and follows what it remembers. */
void upstreams_attach(struct worker *w);

/* d->upconf's servers changed (main thread): start afresh with them. */
void upstreams_set_conf(struct daemon *d);

/* Runs the judgement over the table (main thread): logs and hands a
 * change of mode to d->set_recursing. */
void upstreams_changed_verdict(struct daemon *d);

/* Hands the judgement in force to d->set_recursing again (main thread):
 * after the configuration changed to resolution auto. */
void upstreams_apply(struct daemon *d);

/* The split-DNS routes learnt from source (its path, for the log)
 * changed from was to now: a notice for each route gone, each new or
 * changed one, and for domains past DT_UP_MAXROUTES (main thread). */
void upstreams_log_routes(const struct policy_routes *was,
			  const struct policy_routes *now, const char *source);

/* Copies the table (any thread); returns the number of servers. */
size_t upstreams_list(struct daemon *d, struct capab_view *out, size_t cap);

/* The judgement in force: resolve from the root (any thread). */
bool upstreams_recursive(struct daemon *d);

/* The capability table (tests feed it observations). */
struct capab *upstreams_capab(struct daemon *d);

/* Any thread: the monotonic ms until which fetches wait for the
 * judgement on the servers set last to settle (capab_settled;
 * DT_UP_JUDGE_WAIT_MS after they were set), or 0 once it has. */
int64_t upstreams_judging_until(struct daemon *d);

#endif
