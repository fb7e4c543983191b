/* SPDX-License-Identifier: MIT */
/*
 * The service manager's protocols, without libsystemd: readiness
 * (sd_notify(3): one datagram of "KEY=VALUE" lines to the Unix socket
 * named by $NOTIFY_SOCKET) and socket activation (sd_listen_fds(3):
 * listening sockets from descriptor 3 on, $LISTEN_FDS of them, when
 * $LISTEN_PID is this process). Nothing happens when the variables are
 * unset.
 */
#ifndef DT_DAEMON_NOTIFY_H
#define DT_DAEMON_NOTIFY_H

/* Sends state (e.g. "READY=1\nSTATUS=...") to $NOTIFY_SOCKET. Returns 1
 * when sent, 0 when there is no such socket, -errno on failure. */
int notify_send(const char *state);

/* The listening Unix stream socket passed by the service manager, made
 * non-blocking and close-on-exec, or -1 when none was passed. The
 * variables are removed from the environment. */
int notify_listen_unix(void);

#endif
