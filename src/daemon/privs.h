/* SPDX-License-Identifier: MIT */
/*
 * What dnstrustd does as root before it serves anyone: the file limit
 * raised, the Unix socket created, then root given up for good.
 */
#ifndef DT_DAEMON_PRIVS_H
#define DT_DAEMON_PRIVS_H

#include <sys/types.h>

/* The user run as when `user` is not written, and the one used in its
 * place, with a notice, where the system has no such user. */
#define PRIVS_DEFAULT_USER "_dnstrust"
#define PRIVS_FALLBACK_USER "nobody"

/* Raises RLIMIT_NOFILE to at least DT_DMN_NOFILE (the hard limit too, when
 * root). Logs, never fails: the daemon runs with what it has. */
void privs_raise_nofile(void);

/*
 * Creates, binds and listens on the Unix socket at path, mode 0666 by the
 * umask it is created under (never chmod-ed by path). Its directory is
 * made if missing and must belong to root (or to the user running) and be
 * writable by no one else: it is fixed through a descriptor if not.
 * A stale socket is replaced; a live one (another daemon) is an error.
 * Returns the listening descriptor, or -1 (logged).
 */
int privs_unix_listen(const char *path);

/*
 * Becomes the daemon's user: user, or PRIVS_DEFAULT_USER when empty
 * (PRIVS_FALLBACK_USER, with a notice, where that does not exist); "root"
 * stays root. Supplementary groups are dropped, every capability is
 * dropped (bounding set included) and no_new_privs is set. Started by
 * another user than root, the daemon stays that user (an explicit other
 * user is then an error). *ret_uid is the uid run as. Returns 0 or -1
 * (logged).
 */
int privs_drop(const char *user, uid_t *ret_uid);

#endif
