/* SPDX-License-Identifier: MIT */
/*
 * The daemon's counters, summed over its workers: each worker's own
 * (server.c) and its resolver core's (resolver.h).
 */
#ifndef DT_DAEMON_STATS_H
#define DT_DAEMON_STATS_H

struct daemon;
struct wstats;

/* Sums every worker's counters into *s (thread-safe). */
void stats_sum(struct daemon *d, struct wstats *s);

/* Questions under way now in every worker's resolver, nested ones (the
 * addresses of name servers without glue) included. */
uint64_t stats_under_way(struct daemon *d);

#endif
