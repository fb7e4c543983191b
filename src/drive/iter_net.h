/* SPDX-License-Identifier: MIT */
/*
 * The iterator core (iterator/iterate.h) driven over the network: its
 * queries go out through the transport (up_query_ex with RD=0: UDP, TCP
 * after TC=1, EDNS 1232 with DO=1, FORMERR -> no EDNS, random ID and
 * port), its answers and their time come from the event loop, and its
 * ends are delivered from a 0 ms timer. What dnstrustd runs per worker.
 */
#ifndef DT_UPSTREAM_ITER_NET_H
#define DT_UPSTREAM_ITER_NET_H

#include <stdint.h>

#include "iterator/iterate.h"

struct loop;
struct up_client;
struct it_net;

/* A core on loop sending through up (not owned: the caller frees it
 * after it_net_free), starting from hints (copied), its exploration
 * seeded from getrandom(). NULL when out of memory. */
struct it_net *it_net_new(struct loop *loop, struct up_client *up,
			  const struct it_hints *hints);

/* The core (it_query, it_cancel, ... with loop_now_ms() for the time). */
struct iterator *it_net_core(struct it_net *n);

/* Frees the core (its questions' callbacks do not run) and the driver. */
void it_net_free(struct it_net *n);

#endif
