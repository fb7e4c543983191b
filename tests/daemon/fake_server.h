/* SPDX-License-Identifier: MIT */
/*
 * server.c serving a socket with resolution faked (fake_server.c).
 */
#ifndef DT_TESTS_FAKE_SERVER_H
#define DT_TESTS_FAKE_SERVER_H

/* Questions answered from the (fake) cache so far; read atomically. */
extern unsigned fake_cache_calls;

/* Starts a worker serving a new Unix socket from a thread; returns the
 * socket's path, or NULL. Once per process. */
const char *fake_serve(void);

/* Stops the worker, frees everything and removes the socket. */
void fake_stop(void);

#endif
