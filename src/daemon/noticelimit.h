/* SPDX-License-Identifier: MIT */
/*
 * Notices limited per subject (an upstream server, or the auto-mode
 * judgement: a zeroed struct up_server): at most DT_UP_NOTICE_BURST in a window
 * of DT_UP_NOTICE_WINDOW_MS that starts with a subject's first notice; the ones
 * past that are held back (counted, not logged), and the count is handed out
 * once the window has ended, for one summary line. Only the log is limited:
 * callers keep their state exact. Pure: the time is an argument, nothing is
 * logged here; one thread (the main loop's).
 */
#ifndef DT_DAEMON_NOTICELIMIT_H
#define DT_DAEMON_NOTICELIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

/* Subjects tracked: the resolv.conf servers and the judgement. */
#define NOTICELIMIT_SUBJECTS (DT_UP_MAXNS + 1)

struct noticelimit_slot {
	bool used;
	struct up_server subject;
	int64_t start;	    /* the window's (ms) */
	int64_t last;	    /* the last notice's, logged or not (ms) */
	unsigned logged;    /* in this window */
	unsigned held;	    /* not logged, since held_since */
	int64_t held_since; /* the first of them (ms) */
};

/* Zeroed: nothing known (a static or calloc'd one is ready). */
struct noticelimit {
	struct noticelimit_slot s[NOTICELIMIT_SUBJECTS];
};

/*
 * A notice about subject at now (ms, monotonic): true when it may be
 * logged. When notices of subject were held back in a window that has
 * ended, *ret_held is their count and *ret_secs the seconds from the
 * first of them to now (to log as a summary before this one); otherwise
 * *ret_held is 0. A subject not seen before takes a free slot, or the
 * one least recently noticed (its held count is lost).
 */
bool noticelimit_take(struct noticelimit *l, const struct up_server *subject,
		      int64_t now, unsigned *ret_held, unsigned *ret_secs);

/* When (ms) the first window holding notices back ends (for a timer), or
 * -1 when none does. */
int64_t noticelimit_due(const struct noticelimit *l);

/*
 * A subject whose window ended by now with notices held back: true with
 * it in *ret_subject, their count and seconds as noticelimit_take's; its
 * held count is cleared and a new window starts. Call until false.
 */
bool noticelimit_flush(struct noticelimit *l, int64_t now,
		       struct up_server *ret_subject, unsigned *ret_held,
		       unsigned *ret_secs);

#endif
