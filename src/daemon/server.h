/* SPDX-License-Identifier: MIT */
/*
 * The client side of a worker: listeners, connections, questions.
 */
#ifndef DT_DAEMON_SERVER_H
#define DT_DAEMON_SERVER_H

#include "daemon/daemon.h"

/* Registers the daemon's listening sockets in w's loop, with w's own UDP
 * sockets udp_fds (one per listen address). Returns 0 or -errno. */
int server_attach(struct worker *w, const int *udp_fds);

/* Stops listening, ends every question and closes every connection. */
void server_detach(struct worker *w);

/* Sends a reply of len octets to the waiter's client and frees it. */
void waiter_reply(struct waiter *wt, const uint8_t *msg, size_t len);

/* Frees a waiter that will not be answered (connection gone). */
void waiter_free(struct waiter *wt);

#endif
