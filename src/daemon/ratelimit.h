/* SPDX-License-Identifier: MIT */
/*
 * Remote client addresses (allow-remote): the questions per second each
 * may ask, and the connections each may hold. A source is an address
 * (IPv4) or a /64 (IPv6), which one host can own whole. Both tables are
 * fixed in size and hashed with a secret key, so that a flood from many
 * sources costs no memory and one source cannot be made to collide with
 * another at will. One pair of tables serves every worker (it has its
 * own lock): the kernel spreads a client's datagrams over the workers'
 * SO_REUSEPORT sockets by source port, and its connections over the
 * workers that accept them; tables per worker would let it ask rate
 * times the workers.
 */
#ifndef DT_DAEMON_RATELIMIT_H
#define DT_DAEMON_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct ratelimit;

/* Tables of DT_DMN_RATE_SLOTS buckets and DT_DMN_REMOTE_CONN_SETS x
 * DT_DMN_REMOTE_CONN_WAYS connection counts with a random key, or NULL
 * (out of memory). Free with ratelimit_free (NULL allowed). */
struct ratelimit *ratelimit_new(void);
void ratelimit_free(struct ratelimit *rl);

/* Takes a token for one question from addr at now_ms (monotonic; any
 * thread) when addr's bucket has one (a bucket holds rate tokens and
 * gains rate a second) and returns 0; else takes nothing and returns the
 * milliseconds (at least 1) until a token is there. */
int64_t ratelimit_wait(struct ratelimit *rl, const struct sockaddr *addr,
		       unsigned rate, int64_t now_ms);

/* ratelimit_wait() for a question that is dropped when over the rate:
 * true when a token was taken. */
bool ratelimit_take(struct ratelimit *rl, const struct sockaddr *addr,
		    unsigned rate, int64_t now_ms);

/* Counts one more connection from addr if it holds fewer than limit and
 * its set of the table has room (a set full of other sources' counts:
 * over the limit too); true if counted. Each true is matched by one
 * ratelimit_conn_put() with an address of the same source. */
bool ratelimit_conn_take(struct ratelimit *rl, const struct sockaddr *addr,
			 unsigned limit);
void ratelimit_conn_put(struct ratelimit *rl, const struct sockaddr *addr);

#endif
