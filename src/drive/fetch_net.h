/* SPDX-License-Identifier: MIT */
/*
 * The resolver core's fetches (rsv_env.fetch) driven over the network:
 * to resolv.conf's servers or a domain rule's through the upstream
 * client, to the iterator while recursing, and, with resolution auto,
 * the last attempt of a question asked again from the root
 * (DT_RSV_RETRY_MAX); an attempt after the first over TCP (a network
 * that answered nothing is asked once more there); a forwarded response
 * that arrives once the judgement turned recursive asked again from the
 * root; a public name that neither the network nor recursion answered
 * asked once of the fallback-upstream servers; during a hotspot
 * sign-on, a DS or DNSKEY recursion could not get asked of the
 * network's servers. One driver per loop:
 * each of dnstrustd's workers (resolve.c) and libdnstrust's in-process
 * engine (src/inproc) has one; what differs between them comes through
 * the hooks of struct fn_env.
 */
#ifndef DT_DAEMON_FETCH_NET_H
#define DT_DAEMON_FETCH_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iterator;
struct loop;
struct rsv_fetch;
struct up_client;
struct up_conf;
struct fetch_net;

struct fn_env {
	void *arg;
	/* The resolution setting now (enum cfg_resolution). */
	int (*resolution)(void *arg);
	/* Whether public names go to the iterator now. */
	bool (*recursing)(void *arg);
	/* resolution auto: whether resolv.conf's servers are judged unable
	 * to do DNSSEC now (which recursing() may follow a moment later). */
	bool (*judged_recursive)(void *arg);
	/* The iterator, built if it must be; NULL when there is none. Asked
	 * only when a fetch is to go to it. */
	struct iterator *(*iterator)(void *arg);
	/* Whether (name, type) goes to resolv.conf's servers even while
	 * recursing: private names, and what else the caller keeps on the
	 * network. Neither iterated nor sent to the fallback servers. */
	bool (*to_network)(void *arg, const uint8_t *name, uint16_t type);
	/* The fallback-upstream servers (none: nns 0, or NULL). */
	const struct up_conf *(*fallback)(void *arg);
	/* Optional. A public fetch waits until the returned time (loop
	 * milliseconds; 0: it does not wait) for the judgement of
	 * resolv.conf's servers; fn_release() sends what waits. */
	int64_t (*hold_until)(void *arg);
	/* Optional. A public fetch forwarded to resolv.conf's servers that
	 * failed waits, once, until the returned time (0: it does not
	 * wait) for the judgement of those servers, which may turn
	 * recursive (a server that passed the probe's first step and
	 * fails DS questions): fn_release() then sends it again, from the
	 * root when the judgement turned recursive. */
	int64_t (*failed_hold_until)(void *arg);
	/* Optional. The fetch's end, for the share given to fn_fetch():
	 * posting false when it was cancelled. */
	void (*shared_end)(void *arg, void *share, bool posting, int err,
			   const uint8_t *msg, size_t len, const char *from);
	/* Optional. Whether a hotspot sign-on is under way: a DS or
	 * DNSKEY that recursion could not get is then asked of
	 * resolv.conf's servers, once. */
	bool (*signing_on)(void *arg);
	/* Optional. A fetch went to the fallback servers. */
	void (*fallback_sent)(void *arg);
};

/* A driver on loop asking up (not owned), with env (copied). NULL when
 * out of memory. */
struct fetch_net *fn_new(struct loop *loop, struct up_client *up,
			 const struct fn_env *env);

/* Frees n: its fetches must have been cancelled (rsv_free does). */
void fn_free(struct fetch_net *n);

/* rsv_env.fetch: sends (name, type) for f, or holds it (hold_until).
 * share (may be NULL) is handed to shared_end when the fetch ends.
 * Returns 0 with *handle set, or -ENOMEM (shared_end not called). */
int fn_fetch(struct fetch_net *n, struct rsv_fetch *f, const uint8_t *name,
	     uint16_t type, const struct up_conf *servers, void *share,
	     void **handle);

/* rsv_env.fetch_cancel for a handle of fn_fetch(). */
void fn_cancel(struct fetch_net *n, void *handle);

/* The judgement is in, or the wait is over: what waits is sent (again). */
void fn_release(struct fetch_net *n);

#endif
