/* SPDX-License-Identifier: MIT */
/*
 * A fake dnstrustd for tests/nss/test_nss.c: a thread serving the client
 * protocol (docs/PROTOCOL.md: two-octet framing, the status option, EDE)
 * on a Unix socket, answering from a fixed table of questions. Nothing
 * here validates: the table says what the status of each answer is.
 */
#ifndef DT_TESTS_NSS_FAKE_DAEMON_H
#define DT_TESTS_NSS_FAKE_DAEMON_H

#include <stdbool.h>
#include <stdint.h>

/* One record: data is an address for A and AAAA, a name for any other
 * type (text, no escapes; any octet but '.' may be in a label). rclass 0
 * is IN; section 0 the answer, 1 the authority, 2 the additional. */
struct fake_rr {
	const char *owner;
	uint16_t type;
	uint32_t ttl;
	const char *data;
	uint16_t rclass;
	uint8_t section;
};

/* What to answer to qname/qtype (qtype 0: every type). rcode and status
 * (1 secure, 2 insecure, 3 bogus, 4 indeterminate) go into the header
 * and the status option; ede >= 0 adds an Extended DNS Error; silent
 * never answers. rr ends with a record whose owner is NULL. */
struct fake_answer {
	const char *qname;
	uint16_t qtype;
	int rcode;
	int status;
	int ede;
	bool silent;
	const struct fake_rr *rr;
};

/* Starts the thread on a new socket in a new temporary directory, with
 * the table (ending with a NULL qname; anything not in it is a secure
 * NXDOMAIN). Returns the socket path (static storage) or NULL. */
const char *fake_daemon_start(const struct fake_answer *table);

/* Questions received so far, answered or not. */
unsigned fake_daemon_questions(void);

/* Connections accepted so far. */
unsigned fake_daemon_connections(void);

/* A restart: every connection closed, the socket made again at the same
 * path (the thread goes on). Returns 0 or -1. */
int fake_daemon_restart(void);

/* The two halves of a restart: the thread stopped, every connection
 * closed, the socket removed (its path free for another); then made
 * again at the path, served again. resume returns 0 or -1. */
void fake_daemon_pause(void);
int fake_daemon_resume(void);

/* The next question read is not answered: its connection is closed, as
 * by a daemon that exits just as the question arrives. */
void fake_daemon_hangup_next(void);

/* Stops the thread and removes the socket and its directory. */
void fake_daemon_stop(void);

#endif
