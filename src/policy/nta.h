/* SPDX-License-Identifier: MIT */
/*
 * Negative trust anchors added at run time (`dnstrust nta add`, RFC 7646):
 * besides those of dnstrust.conf, kept across restarts in the file
 * negative-trust-anchors of the state directory ($STATE_DIRECTORY, as
 * systemd's StateDirectory= sets it, else /var/lib/dnstrust).
 *
 * Process-wide, like the log threshold. Readers (policy_nta(), on every
 * question) take no lock: the set is an immutable array replaced whole
 * on each change, and a replaced array is freed only NTA_RETIRE_SECONDS
 * later, so that a question under way may keep the entry it found.
 */
#ifndef DT_POLICY_NTA_H
#define DT_POLICY_NTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/config.h"

/* Runtime negative trust anchors at once: each is a zone an operator
 * chose to stop validating, by hand; more is a mistake or a script run
 * amok. */
#define NTA_RUNTIME_MAX 64
/* How long a replaced set is kept: far longer than any question lives
 * (query-timeout is seconds). */
#define NTA_RETIRE_SECONDS 3600

/* The most specific runtime NTA at or above name still in force at now
 * (wall clock), or NULL. Reads the file on the first call. */
const struct cfg_nta *nta_rt_find(const uint8_t *name, int64_t now);

/* Adds (or replaces the end of) the NTA for name (wire form), in force
 * until until (0: no end), and saves the set. Returns 0, DT_ELIMIT when
 * NTA_RUNTIME_MAX are in force, or -ENOMEM. *ret_save_err is 0 or the
 * -errno of writing the file (the NTA then applies until the daemon
 * stops). */
int nta_rt_add(const uint8_t *name, int64_t until, int64_t now,
	       int *ret_save_err);

/* Removes the runtime NTA for name and saves the set. Returns 1 when
 * there was one, 0 when not, -ENOMEM; *ret_save_err as for add. */
int nta_rt_remove(const uint8_t *name, int64_t now, int *ret_save_err);

/* Calls fn for each runtime NTA in force at now. */
void nta_rt_foreach(int64_t now, void (*fn)(const struct cfg_nta *n, void *arg),
		    void *arg);

/* The file the set is kept in. */
const char *nta_rt_path(void);

#endif
