/* SPDX-License-Identifier: MIT */
/*
 * dnstrustd's side of RFC 5011 (auto-trust-anchor-file): the state file
 * read for the anchors of each configuration state, and, on the main
 * thread, a timer that asks for each trust point's DNSKEY RRset when
 * due, runs the state machine of src/validator/autotrust.c, rewrites the
 * file atomically and reloads when the trusted keys changed.
 *
 * The file is the only copy of the state: each refresh reads it, updates
 * it and writes it back, and each reload takes its anchors from it. A
 * write that fails loses nothing that matters: the next refresh sees the
 * same keys again (a pending key's hold-down then starts later, which is
 * the safe direction).
 */
#ifndef DT_DAEMON_AUTOTRUST_H
#define DT_DAEMON_AUTOTRUST_H

#include <stddef.h>

struct cfg;
struct daemon;
struct val_anchors;

/*
 * Adds the trusted keys of cfg->auto_trust_anchor_file to ta. When the
 * file does not exist it is made from cfg->trust_anchor_file (or the
 * built-in root anchors) first. Writes a description of the source to
 * desc. A file whose keys were all revoked adds nothing and is not an
 * error (RFC 5011 §5: nothing below validates any more; logged). Returns
 * 0, or an error with "file:line: message" or "file: reason" in err.
 */
int autotrust_anchors(const struct cfg *cfg, struct val_anchors *ta, char *desc,
		      size_t desclen, char *err, size_t errlen);

/* What autotrust_anchors() would add to ta, for dnstrustd -n: the file
 * is read, or when it does not exist, its directory checked and its first
 * state made from the configured anchors; nothing is written. Returns 0
 * or an error with the message in err. */
int autotrust_check(const struct cfg *cfg, struct val_anchors *ta, char *err,
		    size_t errlen);

/* Starts the refresh timer on d's (main) loop; the first refresh runs at
 * once. Returns 0 or -ENOMEM. */
int autotrust_start(struct daemon *d);

/* After a reload: a new or removed auto-trust-anchor-file is taken into
 * account at once (queries under way for the old one are dropped). */
void autotrust_reload(struct daemon *d);

/* Cancels queries and frees (before the main loop is freed). */
void autotrust_stop(struct daemon *d);

#endif
