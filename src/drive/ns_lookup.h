/* SPDX-License-Identifier: MIT */
/*
 * The addresses of name servers without glue, asked of a resolver core
 * while recursing (the iterator's it_lookup): each is a question of its
 * own to the core, answered, validated and cached like a client's, so
 * that a forged address for a name in a signed zone is bogus and never
 * asked. Only the addresses of a secure or insecure answer are used, and
 * they are handed to the iterator from a 0 ms timer: never from inside
 * the core, which may be answering from inside rsv_submit(). Shared by
 * dnstrustd's workers (resolve.c) and libdnstrust's in-process engine
 * (src/inproc).
 */
#ifndef DT_DAEMON_NS_LOOKUP_H
#define DT_DAEMON_NS_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "iterator/iterate.h"

struct answer;
struct loop;
struct resolver;
struct rsv_clock;
struct rsv_waiter;

/* Asks (name, type) of r as a waiter of nesting nest; cb(cbarg, ...)
 * gets the addresses on loop. The handle, or NULL without memory or
 * when the core refuses the question. */
void *ns_lookup_start(struct loop *loop, struct resolver *r,
		      const struct rsv_clock *now, const uint8_t *name,
		      uint16_t type, unsigned nest, it_addrs_fn *cb,
		      void *cbarg);

/* Detaches the question and frees the handle; cb never runs. */
void ns_lookup_cancel(void *handle);

/* For the core's answered(): rw, a waiter with nest > 0, is a lookup;
 * takes the addresses of a (rendered into buf, cap octets of scratch;
 * none when buf is NULL) and schedules their delivery. */
void ns_lookup_answered(struct rsv_waiter *rw, const struct answer *a,
			uint8_t *buf, size_t cap);

#endif
