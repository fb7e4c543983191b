/* SPDX-License-Identifier: MIT */
/*
 * dnstrustd's shared structures. One process: a main thread (signals,
 * resolv.conf watching, reloads) and N workers, each with its own event
 * loop, upstream client, listeners (the Unix socket and TCP listeners are
 * shared with EPOLLEXCLUSIVE; UDP listeners are one SO_REUSEPORT socket
 * per worker), connections and questions. The caches are shared by all.
 *
 * Configuration and trust anchors live in an immutable, reference-counted
 * state; a reload builds a new one and hands it to every worker, while
 * questions under way finish with the state they started with.
 */
#ifndef DT_DAEMON_DAEMON_H
#define DT_DAEMON_DAEMON_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "common/limits.h"
#include "common/loop.h"
#include "policy/config.h"
#include "resolver/answer.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "iterator/iterate.h"
#include "upstream/resolvconf.h"
#include "upstream/source.h"
#include "validator/val.h"

struct autotrust;
struct nta_rt;
struct policy_routes;
struct hotspot;
struct cache;
struct iterator;
struct it_net;
struct up_client;
struct upstreams;
struct val_anchors;
struct val_used;
struct wire_msg;
struct conn;
struct ratelimit;
struct waiter;
struct xw_table;
struct share_join;

/* Counters, per worker, added with relaxed atomics so that a status
 * query on another worker reads them safely. */
struct wstats {
	uint64_t queries;		/* client questions */
	uint64_t cache_hits;		/* answered from the answer cache */
	uint64_t joined;		/* joined a question under way */
	uint64_t joined_workers;	/* ... of another worker (share.c) */
	uint64_t upstream;		/* upstream queries started */
	uint64_t fallback;		/* fetches sent on to the
					   fallback-upstream servers */
	uint64_t secure, insecure, bogus, indeterminate;
	uint64_t servfail_upstream;	/* no usable upstream answer */
	uint64_t retried;		/* resolutions asked again (bogus,
					   malformed, unusable RCODE) */
	uint64_t timeouts;		/* answered at query-timeout */
	uint64_t formerr;		/* malformed client messages */
	uint64_t refused;		/* admin queries refused, overload */
	uint64_t sig_verified;		/* signature verifications made */
	uint64_t sig_cached;		/* ... answered by the resolver's
					   cache of verifications */
};

/* Warnings kept for status.dnstrust.: check_warnings' kinds, each of
 * them per file or NTA at most; more are logged only. */
#define DAEMON_WARNINGS_MAX 16
/* A kept warning's length: one TXT string (255 octets) with "warning=". */
#define DAEMON_WARNING_LEN 240
/* How often resolv.conf is read again while it cannot be read or watched:
 * soon enough for a network change, rare enough to cost nothing. */
#define DAEMON_RESOLV_RETRY_MS 30000

#define STAT_INC(w, field) \
	__atomic_fetch_add(&(w)->stats.field, 1, __ATOMIC_RELAXED)

struct worker {
	struct daemon *d;
	unsigned id;
	pthread_t thread;
	struct loop *loop;
	struct up_client *up;
	struct up_client *itup;		/* the iterator's (its own counters) */
	struct it_net *itnet;		/* the iterator's driver over itup */
	struct iterator *it;		/* recursion from the root (itnet's
					   core) */
	struct dstate *st;		/* the state new questions use */
	struct policy_routes *routes;	/* the split-DNS routes learnt from
					   the upstream source, as last
					   handed over (NULL: none) */
	/* listeners */
	struct loop_io unix_io;
	struct loop_io tcp_io[DT_CFG_MAX_LISTEN];
	struct loop_io udp_io[DT_CFG_MAX_LISTEN];
	struct resolver *rsv;		/* questions under way (resolve.h) */
	struct fetch_net *fn;		/* its fetches' driver (resolve.c) */
	/* answers a waiting client (server.c's waiter_reply) */
	void (*reply)(struct waiter *wt, const uint8_t *msg, size_t len);
	size_t nwaiters;		/* client questions waiting (server.c) */
	struct conn *conns;		/* open client connections */
	size_t nconns;
	size_t nlimited;		/* of them, counted per user */
	size_t nrejecting;		/* over a limit, answered EDE 14 */
	struct loop_timer accept_timer;	/* accepting paused (EMFILE) */
	int64_t accept_logged;		/* when that was last logged */
	struct wstats stats;
	/* Scratch for one message at a time on the worker's thread
	 * (DT_MSG_MAXLEN: the largest DNS message), one per module, since a
	 * module hands its message to another's function (w->reply):
	 * server.c's replies of its own (errors, cached answers, admin) */
	uint8_t reply_buf[DT_MSG_MAXLEN];
	/* server.c: a datagram read when no batch could be allocated */
	uint8_t udp_pkt[DT_MSG_MAXLEN];
	/* resolve.c: answers rendered for the worker's waiters */
	uint8_t render_buf[DT_MSG_MAXLEN];
	/* share.c: replies rendered for other workers' joiners */
	uint8_t share_buf[DT_MSG_MAXLEN];
};

struct daemon {
	struct loop *loop;		/* the main thread's */
	struct cache *cache;
	struct dstate *st;		/* owned by the main thread */
	struct nta_rt *nta;		/* runtime negative trust anchors, for
					   every state (policy/nta.h) */
	char conf_path[PATH_MAX];
	bool conf_must_exist;
	struct up_conf upconf;		/* resolv.conf as last read */
	struct policy_routes *routes;	/* learnt from it (policy/route.h;
					   never NULL once started) */
	enum up_source_kind source_kind; /* the upstream source in use (auto
					    chosen: upstream/source.h) */
	char source_path[PATH_MAX];
	struct up_watch *watch;
	struct worker *workers;
	unsigned nworkers;
	pthread_barrier_t loops_stopped;	/* every worker's loop ended:
						   they may free their parts */
	int unix_fd;
	bool unix_inherited;		/* passed by systemd: never removed */
	int tcp_fd[DT_CFG_MAX_LISTEN];
	size_t ntcp;
	size_t nudp;			/* UDP listeners, per worker */
	int *udp_fd;			/* nworkers x nudp sockets */
	uid_t admin_uid;		/* the daemon's user (0 when root) */
	int64_t started;		/* wall clock */
	int64_t time_offset;		/* -T: seconds added to the clock */
	struct autotrust *autotrust;	/* RFC 5011 refresh (autotrust.c) */
	unsigned reloads;
	/* dnstrust reload's verdict (main.c's reload, admin.c's status) */
	unsigned reload_asked;		/* atomic: reload requests so far */
	pthread_mutex_t reload_lock;	/* for the two below */
	unsigned reload_done;		/* reload_asked when the last reload
					   began */
	char reload_error[512];		/* why it was refused; "" if taken */
	/* What works, but not as the configuration's author may think
	 * (check_warnings, at start and at each reload), and why resolv.conf
	 * could not be read or watched: status.dnstrust.'s warning= lines
	 * (under reload_lock). */
	char warning[DAEMON_WARNINGS_MAX][DAEMON_WARNING_LEN];
	unsigned nwarnings;
	char resolv_warning[DAEMON_WARNING_LEN];
	char loop_warning[DAEMON_WARNING_LEN];	/* the source lists our own
						   listener (skipped) */
	char stub_warning[DAEMON_WARNING_LEN];	/* stub-resolv-conf cannot
						   be written */
	struct loop_timer resolv_retry;	/* reads resolv.conf again while it
					   is unreadable or not watched */
	struct failing *failing;	/* every answer bogus for minutes?
					   (failing.c; main thread) */
	struct loop_timer failing_sample;
	char validation[DAEMON_WARNING_LEN]; /* status' validation= line,
						"ok" or why failing (under
						reload_lock) */
	void (*reload)(void *d);	/* the main thread's reload (main.c),
					   posted to its loop */
	struct xw_table *xfetch;	/* fetches shared between workers
					   (resolve.c) */
	struct xw_table *share;		/* questions shared between workers
					   (share.c) */
	struct upstreams *ups;		/* what each upstream can do, and the
					   auto judgement (upstreams.c) */
	/* Where the auto judgement goes (main thread): on, resolve from
	 * the root; off, forward; why says so (NULL: acted on without a
	 * notice, the notices being limited). NULL: nobody acts on it. */
	void (*set_recursing)(struct daemon *d, bool on, const char *why);
	/* The upstream judgement is in: the workers send the fetches that
	 * waited for it (resolve_judged; NULL in tests) */
	void (*judged)(struct daemon *d);
	struct hotspot *hotspot;	/* sign-on and portal (hotspot.c) */
	struct ratelimit *rate;		/* remote clients' rates, shared by
					   the workers; made (atomically) at
					   the first remote question */
	struct it_hints hints;		/* root hints, read at start */
	int resolution;			/* atomic: enum cfg_resolution in
					   force (config, at start and
					   reload) */
	bool recursing;			/* atomic: fetches go to the
					   iterator, not the resolv.conf
					   servers (resolve_set_recursing) */
};

/* --- client questions (server.c) --- */

/* A client question waiting for an answer. */
struct waiter {
	struct rsv_waiter rw;		/* the question, on its task */
	struct worker *w;
	struct conn *conn;		/* stream clients (referenced) */
	int udp_fd;			/* UDP clients: -1 for streams */
	struct sockaddr_storage peer;
	socklen_t peerlen;
	struct loop_timer deadline;
	struct share_join *sj;		/* waiting for another worker's
					   answer (share.c) */
};

/* Monotonic seconds of a worker's loop. */
static inline int64_t worker_now(const struct worker *w)
{
	return loop_now_ms(w->loop) / 1000;
}

/* Wall clock of a worker's loop, with the daemon's offset (-T). */
static inline int64_t worker_wallclock(const struct worker *w)
{
	return loop_wallclock(w->loop);
}

/* Asks the main thread to reload (SIGHUP's work). */
static inline void daemon_request_reload(struct daemon *d)
{
	loop_post(d->loop, d->reload, d);
}

#endif
