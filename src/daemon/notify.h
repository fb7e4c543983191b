/* SPDX-License-Identifier: MIT */
/*
 * The service manager's readiness protocol (sd_notify(3)): one datagram of
 * "KEY=VALUE" lines to the Unix socket named by $NOTIFY_SOCKET, without
 * libsystemd. Nothing happens when the variable is unset.
 */
#ifndef DT_DAEMON_NOTIFY_H
#define DT_DAEMON_NOTIFY_H

/* Sends state (e.g. "READY=1\nSTATUS=...") to $NOTIFY_SOCKET. Returns 1
 * when sent, 0 when there is no such socket, -errno on failure. */
int notify_send(const char *state);

#endif
