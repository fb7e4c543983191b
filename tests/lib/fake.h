/* SPDX-License-Identifier: MIT */
/*
 * A fake dnstrustd for libdnstrust's unit tests: a thread serving the
 * socket protocol on a Unix socket, with answers crafted per name (the
 * first label picks the case; see fake.c), including broken ones.
 */
#ifndef DT_TESTS_LIB_FAKE_H
#define DT_TESTS_LIB_FAKE_H

#include <stdbool.h>
#include <stdint.h>

struct fake;

/* What the fake saw: connections accepted, questions read, and the last
 * question's header flags, EDNS flags and status option (-1 when absent,
 * else its length; version is its first octet). */
struct fake_seen {
	unsigned accepts;
	unsigned questions;
	uint16_t flags;
	uint16_t edns_flags;
	int status_opt_len;
	int status_opt_version;
};

/* Listens on path and serves from a thread. NULL on failure. */
struct fake *fake_start(const char *path);
void fake_stop(struct fake *f);

void fake_seen(struct fake *f, struct fake_seen *ret);

/* Each connection answers one question; the next one on the same
 * connection closes it unanswered (a daemon that went away between two
 * calls). */
void fake_one_per_conn(struct fake *f, bool on);

/* Serves on path in the calling thread until killed (for a child that
 * changed its uid first). */
int fake_serve_forever(const char *path);

#endif
