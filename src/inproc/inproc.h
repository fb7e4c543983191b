/* SPDX-License-Identifier: MIT */
/*
 * The in-process engine of libdnstrust (DT_MODE_INPROCESS): dnstrustd's
 * resolver core, validator, cache and policy inside the calling process,
 * for programs that cannot reach the daemon's socket (a container
 * without /run/dnstrust, a sandbox, early boot).
 *
 * Its answers are the daemon's by construction: a query (as libdnstrust
 * sends it to the daemon: EDNS and the status option of
 * docs/PROTOCOL.md) goes through the same core as a daemon worker's
 * client question (resolver/resolver.h), and the reply is rendered by
 * the same code (answer_render), with the same status, EDE and reason.
 *
 * One engine is one event loop (common/loop.h), one upstream client over
 * the servers of the process's own resolv.conf (the resolv-conf key of
 * dnstrust.conf; with `resolution recursive`, the iterator from the root
 * hints over a second client, as a daemon worker has it; with `auto`,
 * the same iterator and the daemon's probe of the resolv.conf servers,
 * recursing when none can do DNSSEC), a bounded
 * cache, one resolver core and one state
 * (dnstrust.conf when readable, else the defaults; the anchors of
 * auto-trust-anchor-file when readable, else trust-anchor-file, else the
 * built-in root KSKs; the negative trust anchors of dnstrust.conf and,
 * when readable, those of the daemon's runtime file). It
 * starts no thread and touches no signal: inproc_ask() runs the loop on
 * the caller's thread until its answers are rendered or the time is up.
 * An engine is not thread-safe: its owner serialises the calls.
 */
#ifndef DT_INPROC_INPROC_H
#define DT_INPROC_INPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct inproc;

/* What to build an engine from. */
struct inproc_opts {
	const char *conf;	/* dnstrust.conf; NULL: the default path,
				   whose absence means the defaults */
	size_t cache_size;	/* octets (at least DT_CACHE_MINSIZE) */
	const char *state_dir;	/* the daemon's state directory, whose
				   negative-trust-anchors file (`dnstrust
				   nta add`) applies when readable; NULL:
				   /var/lib/dnstrust */
};

/*
 * A new engine, or NULL with the reason in err: dnstrust.conf (when
 * named, or present at the default path) refused, trust anchors that
 * cannot be read, out of memory, no event loop. Every socket it opens is
 * close-on-exec.
 */
struct inproc *inproc_new(const struct inproc_opts *o, char *err,
			  size_t errlen);

/* Frees the engine: questions under way end, sockets close. Only in the
 * process that made it (after fork() the child's copy is abandoned). */
void inproc_free(struct inproc *e);

/* One question and the room for its reply. */
struct inproc_q {
	const uint8_t *query;	/* a DNS query with one question */
	size_t qlen;
	uint8_t *reply;		/* cap octets, at least DT_MSG_MAXLEN */
	size_t cap;
	size_t rlen;		/* out: the reply's length; 0 when the
				   time ran out first */
};

/*
 * Answers the n questions of qs (resolved together) as dnstrustd would
 * answer them on its Unix socket; runs the engine's loop until every
 * reply is written or timeout_ms has passed. resolv.conf is looked at
 * first (stat) and read again when it changed. As in the daemon, a
 * question still unanswered after dnstrust.conf's query-timeout is answered
 * SERVFAIL, EDE 22 ("no answer within N ms"). A question left without
 * reply keeps resolving in the engine (its answer fills the cache) until
 * a later call runs the loop. Returns 0 when every question has its
 * reply, DT_ETIMEOUT otherwise, DT_EMALF for a query that is not one.
 */
int inproc_ask(struct inproc *e, struct inproc_q *qs, size_t n,
	       int64_t timeout_ms);

/* Where the engine's trust anchors come from ("built-in IANA root KSKs
 * (20326, 38696)", a file). */
const char *inproc_anchors(const struct inproc *e);

#endif
