/* SPDX-License-Identifier: MIT */
/*
 * What dnstrustd checks before it serves, beyond the syntax of
 * dnstrust.conf (config.c): the trust anchors read and usable, and the
 * user it is to run as. Start-up, reloads and `dnstrustd -n` use the same
 * functions, so -n refuses what a start would refuse.
 */
#ifndef DT_DAEMON_CHECK_H
#define DT_DAEMON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

struct cfg;
struct val_anchors;

/*
 * Adds cfg's trust anchors to ta: auto-trust-anchor-file (made from the
 * configured anchors when missing, unless dry), else trust-anchor-file,
 * else the built-in root KSKs. Every zone must have a key this build can
 * validate with (a supported algorithm, and a supported digest for a DS).
 * Writes a description of the source to desc. Returns 0, or an error with
 * the reason ("file:line: ..." when it has one) in err.
 */
int check_anchors(const struct cfg *cfg, struct val_anchors *ta, bool dry,
		  char *desc, size_t desclen, char *err, size_t errlen);

/* The user of cfg exists (when set). Returns 0 or -1 with the reason in
 * err. */
int check_user(const struct cfg *cfg, char *err, size_t errlen);

/* Everything start-up checks, without binding or writing: for
 * dnstrustd -n. Returns 0 or -1 with the reason in err. */
int check_startup(const struct cfg *cfg, char *err, size_t errlen);

#endif
