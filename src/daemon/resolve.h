/* SPDX-License-Identifier: MIT */
/*
 * A worker's resolver (src/resolver) in its event loop: the resolver
 * core's fetches go to the worker's upstream client, its answers to the
 * waiting clients (through worker.reply, server.c's waiter_reply).
 * server.c knows resolution only through these calls.
 */
#ifndef DT_DAEMON_RESOLVE_H
#define DT_DAEMON_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct daemon;
struct qinfo;
struct waiter;
struct worker;

/* The daemon's table of fetches shared between workers: made before the
 * workers' resolvers (0 or -ENOMEM), freed after the workers stopped. */
int resolve_daemon_init(struct daemon *d);
void resolve_daemon_free(struct daemon *d);

/* Makes the worker's resolver, on the worker's state. Returns 0 or
 * -ENOMEM. */
int resolve_init(struct worker *w);

/* The state new questions use changed (w->st). */
void resolve_set_state(struct worker *w);

/* Answers q from the answer cache when it can: returns the reply's
 * length in buf, or 0. */
size_t resolve_cached(struct worker *w, const struct qinfo *q, uint8_t *buf,
		      size_t cap);

/* Starts or joins the resolution of wt's question; wt is answered
 * (waiter_reply) when it is done, or at once when too many are under
 * way (SERVFAIL, EDE 14). */
void resolve_submit(struct worker *w, struct waiter *wt);

/* Detaches a waiter from its question (deadline passed, client gone). */
void resolve_detach(struct waiter *wt);

/*
 * Resolution mode in auto (resolution auto): on, fetches go to the
 * workers' iterators (recursion from the root); off, to the resolv.conf
 * servers. Logged at notice with why when it changes (not logged when
 * why is NULL: upstreams.c limits these notices). Ignored when the
 * configuration fixes the mode (forward or recursive). Any thread.
 */
void resolve_set_recursing(struct daemon *d, bool on, const char *why);

/* Applies the configuration's resolution mode (start, reload): forward
 * → off, recursive → on, auto → left as it is (off at start). */
void resolve_set_mode(struct daemon *d, int resolution);

/* Any thread: the upstream judgement is in (upstreams.c, through
 * daemon.judged); every worker sends the fetches that waited for it. */
void resolve_judged(struct daemon *d);

/* Ends every question and fetch of the worker (shutdown). */
void resolve_shutdown(struct worker *w);

#endif
