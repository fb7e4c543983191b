/* SPDX-License-Identifier: MIT */
/*
 * Root priming (RFC 8109), for the iterator (iterate.c): a `. NS` query
 * (RD=0, EDNS 1232, DO=1) to up to DT_IT_PRIME_TRIES hint addresses in
 * turn; the root's NS RRset of the answer and the A/AAAA records of
 * those names from the additional section become the root's servers
 * until the TTL (bounded by DT_IT_PRIME_TTL_MIN/MAX) runs out. One
 * priming exchange at a time, told once to the iterator when it ends;
 * meanwhile a question asks one hint address as a root server (as
 * Knot Resolver does; RFC 8109 section 3 asks for priming, not that
 * the first questions wait for it) and waits for the priming before
 * asking the root again. A failed
 * priming leaves the hints in use and is tried again after a back-off
 * (DT_IT_PRIME_RETRY_MIN_MS doubling to DT_IT_PRIME_RETRY_MAX_MS).
 */
#ifndef DT_ITERATOR_ITER_PRIME_H
#define DT_ITERATOR_ITER_PRIME_H

#include <stdbool.h>
#include <stdint.h>

#include "iterator/iterate.h"

struct wire_msg;
struct it_prime;

/*
 * Reads a priming response m: RCODE NOERROR with AA, an NS RRset of the
 * root in the answer section, and the A and AAAA records of its names
 * (no others) in the additional section. Returns 0 with the addresses
 * (at most DT_IT_HINTS_MAX, port 53) in *ret and the smallest TTL of the
 * records used, bounded by DT_IT_PRIME_TTL_MIN/MAX, in *ret_ttl; or
 * DT_EUPSTREAM with a static reason in *ret_why (outputs untouched).
 * Pure: no I/O.
 */
int it_prime_read(const struct wire_msg *m, struct it_hints *ret,
		  uint32_t *ret_ttl, const char **ret_why);

/*
 * How a priming exchange ended, told to the iterator: err 0 (primed),
 * DT_ETIMEOUT (no hint address answered), DT_EUPSTREAM (answered, but
 * nothing usable) or -ENOMEM; started: when it was sent (ms); now: the
 * time of the call.
 */
typedef void it_prime_done_fn(void *arg, int err, int64_t started, int64_t now);

/* A primer sending through env (not owned, not copied: the iterator's);
 * done runs from it_recv() or it_prime_deliver(), never from inside
 * another it_prime_* call. NULL when out of memory. */
struct it_prime *it_prime_new(const struct it_env *env, it_prime_done_fn *done,
			      void *arg);

/* A restart that could not be sent (it_prime_forget) is told to done
 * now (the iterator calls this from it_deliver). */
void it_prime_deliver(struct it_prime *p, int64_t now);

/* Cancels a priming under way (done does not run) and frees; NULL is a
 * no-op. */
void it_prime_free(struct it_prime *p);

/* Where the notices go (NULL: nowhere): a failure, once until priming
 * works again, and the first success after start or after a failure. */
void it_prime_set_notice(struct it_prime *p, it_notice_fn *fn, void *arg);

/* Tests: priming queries go to this port instead of 53 (0: 53). */
void it_prime_set_port(struct it_prime *p, uint16_t port);

/*
 * Whether a priming exchange is under way (at time now) for a question
 * about to ask the root's servers, starting one (to hints, from the
 * address of index pick modulo their number) when the primed servers
 * are missing or expired and no back-off runs; done runs when it ends.
 * False: the root's servers are it_prime_servers().
 */
bool it_prime_hold(struct it_prime *p, const struct it_hints *hints,
		   int64_t now, unsigned pick);

/* The root's servers to use at now: the primed ones while they last,
 * else hints. */
const struct it_hints *it_prime_servers(const struct it_prime *p,
					const struct it_hints *hints,
					int64_t now);

/* The hints changed (to hints): the primed servers and the back-off are
 * forgotten; a priming under way starts again on the new hints. */
void it_prime_forget(struct it_prime *p, const struct it_hints *hints,
		     int64_t now);

/* Whether the root's servers in use now come from a priming response.
 * Another thread may call this. */
bool it_prime_primed(const struct it_prime *p);

#endif
