/* SPDX-License-Identifier: MIT */
/*
 * Client questions shared between workers. Each worker has a resolver
 * core of its own (resolve.c); a question that another worker is
 * resolving already is not resolved a second time: the client waits for
 * the other worker's answer, rendered for it there and posted to its
 * own worker's loop, which sends it. One validation per question under
 * way, however the kernel spreads the clients over the workers.
 */
#ifndef DT_DAEMON_SHARE_H
#define DT_DAEMON_SHARE_H

#include <stdbool.h>
#include <stdint.h>

struct daemon;
struct qinfo;
struct rsv_done;
struct waiter;
struct worker;

/* The daemon's table of questions under way: 0 or -ENOMEM. Freed after
 * the workers stopped. */
int share_init(struct daemon *d);
void share_free(struct daemon *d);

enum share_role {
	SHARE_LOCAL,	/* w's core takes it (w resolves it already, or
			   it cannot be shared now) */
	SHARE_CLAIMED,	/* w's core takes it, and w now owns the question
			   until share_answered() or share_abort(): the
			   other workers' clients join it */
	SHARE_JOINED,	/* another worker resolves it: wt waits for its
			   answer, delivered by w->reply in w's loop (or
			   leaves with share_detach) */
};

/* Before w's core takes wt's question: who answers it. */
enum share_role share_join(struct worker *w, struct waiter *wt);

/* w's core finished a question (d): when w owns it, its answer goes to
 * every worker that joined it. */
void share_answered(struct worker *w, const struct rsv_done *d);

/* w's core could not take q, which w claimed: the clients that joined
 * it get the same error (SERVFAIL with ede and text). */
void share_abort(struct worker *w, const struct qinfo *q, uint16_t ede,
		 const char *text);

/* wt leaves the question it joined (deadline, client gone). False when
 * it had not joined one of another worker. */
bool share_detach(struct waiter *wt);

/* w stops: its clients waiting for other workers' answers get SERVFAIL
 * ("shutdown"); their deliveries, if posted, will find them gone. */
void share_shutdown(struct worker *w);

#endif
