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
#include "daemon/config.h"
#include "upstream/resolvconf.h"
#include "validator/val.h"

struct autotrust;
struct cache;
struct up_client;
struct val_anchors;
struct val_used;
struct wire_msg;
struct task;
struct conn;
struct ratelimit;

/* What the configuration and the trust anchors say; immutable. */
struct dstate {
	unsigned refs;			/* atomic */
	struct cfg cfg;
	struct val_anchors *ta;
	struct val_limits lim;
	struct up_conf split[DT_CFG_MAX_POLICY]; /* cfg.domain[i]'s servers,
						    when it names any */
	char ta_desc[PATH_MAX + 64];	/* the file, or "built-in IANA root KSKs..." */
};

struct dstate *dstate_get(struct dstate *st);
void dstate_put(struct dstate *st);

/* Counters, per worker, added with relaxed atomics so that a status
 * query on another worker reads them safely. */
struct wstats {
	uint64_t queries;		/* client questions */
	uint64_t cache_hits;		/* answered from the answer cache */
	uint64_t joined;		/* joined a question under way */
	uint64_t upstream;		/* upstream queries started */
	uint64_t secure, insecure, bogus, indeterminate;
	uint64_t servfail_upstream;	/* no usable upstream answer */
	uint64_t timeouts;		/* answered at query-timeout */
	uint64_t formerr;		/* malformed client messages */
	uint64_t refused;		/* admin queries refused, overload */
};

#define STAT_INC(w, field) \
	__atomic_fetch_add(&(w)->stats.field, 1, __ATOMIC_RELAXED)

struct worker {
	struct daemon *d;
	unsigned id;
	pthread_t thread;
	struct loop *loop;
	struct up_client *up;
	struct dstate *st;		/* the state new questions use */
	/* listeners */
	struct loop_io unix_io;
	struct loop_io tcp_io[DT_CFG_MAX_LISTEN];
	struct loop_io udp_io[DT_CFG_MAX_LISTEN];
	/* questions being resolved and upstream queries in flight, hashed
	 * by name and type (identical ones are shared) */
	struct task **tasks;
	struct wfetch **fetches;
	size_t ntasks, nfetches;
	size_t nwaiters;		/* client questions waiting (server.c) */
	struct conn *conns;		/* open client connections */
	size_t nconns;
	size_t nlimited;		/* of them, counted per user */
	size_t nrejecting;		/* over a limit, answered EDE 14 */
	struct loop_timer accept_timer;	/* accepting paused (EMFILE) */
	int64_t accept_logged;		/* when that was last logged */
	struct ratelimit *rate;		/* remote clients' rates, made at the
					   first remote question */
	struct wstats stats;
};

struct daemon {
	struct loop *loop;		/* the main thread's */
	struct cache *cache;
	struct dstate *st;		/* owned by the main thread */
	char conf_path[PATH_MAX];
	bool conf_must_exist;
	struct up_conf upconf;		/* resolv.conf as last read */
	struct up_watch *watch;
	struct worker *workers;
	unsigned nworkers;
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
};

/* --- client questions (server.c, reply.c) --- */

/* What the reply to a client question must echo or honour. */
struct qinfo {
	uint16_t id;
	uint16_t flags;			/* RD and CD are echoed */
	bool edns;
	bool do_bit;
	bool want_status;		/* the status option was in the query */
	uint16_t udp_size;		/* 0 on streams */
	uint8_t qname[DT_NAME_MAXLEN];	/* as sent (case kept) */
	uint16_t qtype, qclass;
	bool admin;			/* peer may use administrative names */
};

/* A client question waiting for an answer. */
struct waiter {
	struct waiter *next;
	struct task *task;
	struct worker *w;
	struct conn *conn;		/* stream clients (referenced) */
	int udp_fd;			/* UDP clients: -1 for streams */
	struct sockaddr_storage peer;
	socklen_t peerlen;
	struct qinfo q;
	struct loop_timer deadline;
};

/* Sends a reply of len octets to the waiter's client and frees it. */
void waiter_reply(struct waiter *wt, const uint8_t *msg, size_t len);

/* Frees a waiter that will not be answered (connection gone). */
void waiter_free(struct waiter *wt);

/* --- answers (reply.c) --- */

/* A validated result, as kept in the answer cache; immutable. */
struct answer {
	enum val_status status;
	uint16_t ede;			/* VAL_EDE_NONE when none */
	uint16_t rcode;			/* the proven one (val_result.rcode),
					   or SERVFAIL */
	bool upstream_fail;		/* no usable upstream answer */
	bool nta;			/* a negative trust anchor applied */
	bool permissive;		/* bogus, returned by mode permissive */
	bool policy_pass;		/* domain validate no: data returned */
	uint32_t ttl;
	int64_t stored;			/* monotonic seconds */
	const char *tag;
	char reason[VAL_REASON_MAXLEN];
	struct wire_msg *msg;		/* the upstream response, or NULL */
	struct val_used *used;		/* the validator's used list: the
					   only records of msg a client
					   sees (render.h); malloc'd */
	size_t nused;
};

void answer_free(void *answer);

/* Renders the reply to q from a, aged by age seconds, into buf (cap
 * octets, at least DT_MSG_MAXLEN). cached sets the status option's flag.
 * Returns the length. */
size_t reply_render(const struct answer *a, const struct qinfo *q,
		    int64_t age, bool cached, uint8_t *buf, size_t cap);

/* Renders a reply without answer data: rcode, and an EDE when ede is not
 * VAL_EDE_NONE (text may be NULL). Returns the length. */
size_t reply_error(const struct qinfo *q, uint16_t rcode, uint16_t ede,
		   const char *text, uint8_t *buf, size_t cap);

/* Answers q from the answer cache if it can: returns true when the reply
 * was written to buf (*len set). */
bool reply_from_cache(struct worker *w, const struct qinfo *q, uint8_t *buf,
		      size_t cap, size_t *len);

/* Stores a in the answer cache (takes it). */
void answer_store(struct worker *w, const uint8_t *qname, uint16_t qtype,
		  uint16_t qclass, struct answer *a);

/* Cache key of kind ('V' answers, 'K' key sets, 'P' DS probes, 'Q'
 * upstream responses) for a name (lower-cased in the key), type and
 * class. Returns the key length. */
size_t cache_key(uint8_t kind, const uint8_t *name, uint16_t type,
		 uint16_t qclass, uint8_t *key);

/* --- resolution (task.c, keys.c) --- */

/* Starts or joins the resolution of wt's question. */
void task_submit(struct worker *w, struct waiter *wt);

/* Detaches a waiter from its task (deadline passed, connection gone). */
void task_detach(struct waiter *wt);

/* Cancels every task and fetch of a worker (shutdown). */
void task_shutdown(struct worker *w);

/* --- admin (admin.c) --- */

/* Answers a CH-class question. Returns the reply length. */
size_t admin_answer(struct worker *w, const struct qinfo *q, uint8_t *buf,
		    size_t cap);

/* Monotonic seconds of a worker's loop. */
static inline int64_t worker_now(const struct worker *w)
{
	return loop_now_ms(w->loop) / 1000;
}

/* Wall clock of a worker's loop, with the daemon's offset (-T). */
int64_t worker_wallclock(const struct worker *w);

/* Asks the main thread to reload (SIGHUP's work). */
void daemon_request_reload(struct daemon *d);

#endif
