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
#include <stdint.h>

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

/* A warning's size at most: two paths cut at 300 octets, or a domain
 * name, and the text around them (status.dnstrust. cuts it to a TXT
 * string's 255). */
#define CHECK_WARN_MAX 2048
/* The files and directories checked for the daemon's user: the
 * configuration, the upstream source, the directory of stub-resolv-conf,
 * trust-anchor-file, root-hints, tls-ca, the directories of
 * auto-trust-anchor-file and of the runtime NTAs. */
#define CHECK_NEEDS_MAX 7

typedef void (*check_warn_fn)(const char *msg, void *arg);

/*
 * What works, but not as the configuration's author may expect, each
 * told to warn as one line: a trust-anchor-file ignored because the
 * RFC 5011 state exists, a missing resolv-conf, a negative trust anchor
 * whose end is past (now: wall clock), and (when running as root) the
 * files the daemon's user will not be able to read, or directories to
 * write in, once root is given up (found by a child process that becomes
 * that user). conf_path: the configuration file; nta_path: the file of
 * the runtime negative trust anchors (its directory must be writable).
 */
void check_warnings(const struct cfg *cfg, const char *conf_path,
		    const char *nta_path, int64_t now, check_warn_fn warn,
		    void *arg);

#endif
