/* SPDX-License-Identifier: MIT */
/*
 * Questions per second of remote client addresses (allow-remote): a
 * token bucket per address (IPv4) or /64 (IPv6), in a fixed table hashed
 * with a secret key, so that a flood from many sources costs no memory
 * and one source cannot be made to collide with another at will. One
 * table serves every worker (it has its own lock): the kernel spreads a
 * client's datagrams over the workers' SO_REUSEPORT sockets by source
 * port, and buckets per worker would let it ask rate times the workers.
 */
#ifndef DT_DAEMON_RATELIMIT_H
#define DT_DAEMON_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct ratelimit;

/* A table of DT_DMN_RATE_SLOTS buckets with a random key, or NULL (out of
 * memory). Free with ratelimit_free (NULL allowed). */
struct ratelimit *ratelimit_new(void);
void ratelimit_free(struct ratelimit *rl);

/* Takes a token for one question from addr at now_ms (monotonic; any
 * thread): true
 * when addr asked at most rate questions in the last second (a burst of
 * rate is allowed), false when the question is to be dropped. */
bool ratelimit_take(struct ratelimit *rl, const struct sockaddr *addr,
		    unsigned rate, int64_t now_ms);

#endif
