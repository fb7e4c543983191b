/* SPDX-License-Identifier: MIT */
/*
 * Negative trust anchors added at run time (`dnstrust nta add`, RFC 7646):
 * besides those of dnstrust.conf, kept across restarts in a file (the
 * daemon's is negative-trust-anchors in its state directory).
 *
 * An object the daemon makes at start (nta_rt_new, nta_rt_load) and
 * hands to the resolver core through its state (struct dstate); a test
 * makes its own, empty or filled with nta_rt_add, with no file. Readers
 * (policy_nta(), on every question) take no lock: the set is an
 * immutable array replaced whole on each change, and a replaced array is
 * freed only NTA_RETIRE_SECONDS later (or by nta_rt_free), so that a
 * question under way may keep the entry it found.
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
/* Where dnstrustd keeps the set when $STATE_DIRECTORY is not set (the
 * package's tmpfiles.d creates the directory), and the file's name in
 * it; libdnstrust's in-process engine reads the same file. */
#define NTA_STATE_DIR  "/var/lib/dnstrust"
#define NTA_STATE_FILE "negative-trust-anchors"
/* How long a replaced set is kept: far longer than any question lives
 * (query-timeout is seconds). */
#define NTA_RETIRE_SECONDS 3600

/* Whether n is in force at now (wall clock): no end, or its end still
 * ahead. */
bool nta_in_force(const struct cfg_nta *n, int64_t now);

/* The deepest of best (may be NULL) and the n anchors of list that are in
 * force at now and at or above name; on a tie, best. */
const struct cfg_nta *nta_closest(const struct cfg_nta *list, size_t n,
				  const uint8_t *name, int64_t now,
				  const struct cfg_nta *best);

struct nta_rt;

/* An empty set kept in the file path (copied), or in memory only when
 * path is NULL. NULL when out of memory or path is too long. */
struct nta_rt *nta_rt_new(const char *path);

/* Frees rt (NULL: nothing); no reader may use it any more. */
void nta_rt_free(struct nta_rt *rt);

/* Reads the file into rt (once, before readers start; nothing without a
 * file). A missing file is an empty set; malformed lines are skipped,
 * and a file that cannot be read restores nothing, with a warning. */
void nta_rt_load(struct nta_rt *rt);

/* Reads the file again into rt, readers running (a reader of the file,
 * not its writer: libdnstrust's in-process engine): a set read replaces
 * the current one, a missing file empties it, a file that cannot be
 * read changes nothing. now: the wall clock, for retiring old sets. */
void nta_rt_reload(struct nta_rt *rt, int64_t now);

/* The most specific runtime NTA at or above name still in force at now
 * (wall clock), or NULL (also when rt is NULL). */
const struct cfg_nta *nta_rt_find(const struct nta_rt *rt, const uint8_t *name,
				  int64_t now);

/* Adds (or replaces the end of) the NTA for name (wire form), in force
 * until until (0: no end), and saves the set. Returns 0, DT_ELIMIT when
 * NTA_RUNTIME_MAX are in force, or -ENOMEM. *ret_save_err is 0 or the
 * -errno of writing the file (the NTA then applies until the daemon
 * stops). */
int nta_rt_add(struct nta_rt *rt, const uint8_t *name, int64_t until,
	       int64_t now, int *ret_save_err);

/* Removes the runtime NTA for name and saves the set. Returns 1 when
 * there was one, 0 when not, -ENOMEM; *ret_save_err as for add. */
int nta_rt_remove(struct nta_rt *rt, const uint8_t *name, int64_t now,
		  int *ret_save_err);

/* Calls fn for each runtime NTA in force at now. */
void nta_rt_foreach(const struct nta_rt *rt, int64_t now,
		    void (*fn)(const struct cfg_nta *n, void *arg), void *arg);

/* The file the set is kept in ("" when in memory only). */
const char *nta_rt_path(const struct nta_rt *rt);

#endif
