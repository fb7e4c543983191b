/* SPDX-License-Identifier: MIT */
/*
 * libdnstrust's insides, shared by the files of src/lib and by its unit
 * tests; nothing here is exported from libdnstrust.so (see
 * libdnstrust.map). Internal names start with dtlib_.
 *
 * ctx.c       contexts, the default context, the pool of idle connections
 * conn.c      the Unix socket: connect, peer check, framed I/O with a
 *             deadline
 * exchange.c  questions asked on one connection (pipelined), answers
 *             matched and checked, the reconnect, the fallback's hook
 * fallback.c  the opt-in fallback through libresolv
 * result.c    dt_result_t: one allocation
 * query.c     dt_query, dt_res_query, dt_trust_available, statuses, errors
 * keys.c      dt_tlsa, dt_sshfp
 * chain.c     the one chain of an answer; clean.c every answer cut to it
 * gai.c       dt_getaddrinfo; gai_serv.c services, gai_list.c the list,
 *             hosts.c /etc/hosts
 * mode.c      dt_ctx_set_mode and the in-process engine's hook (src/inproc):
 *             the only file that reaches the engine, so that a program
 *             that never asks for in-process mode (the NSS module) links
 *             neither the engine nor libcrypto
 */
#ifndef DT_LIB_INTERNAL_H
#define DT_LIB_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

#include "common/limits.h"
#include "dnstrust.h"

struct wire_msg;

/* --- limits of the library --- */

/* Default time for one answer (the header promises 5000 ms), and the
 * largest a caller may set (ten minutes: anything longer is a hang). */
#define DTLIB_TIMEOUT_DEFAULT_MS 5000
#define DTLIB_TIMEOUT_MAX_MS	 600000
/* Idle connections a context keeps for reuse: a threaded program asking
 * from a few threads at once reuses them; more would only sit open until
 * the daemon closes them (after 30 s idle, DT_DMN_IDLE_MS). */
#define DTLIB_POOL_MAX 4
/* Questions asked at once on one connection: A and AAAA. The daemon reads
 * up to 64 pending questions per connection (DT_DMN_MAX_PENDING). */
#define DTLIB_MAX_QUESTIONS 2
/* While the daemon's accept queue is full, a non-blocking connect to a
 * Unix socket fails with EAGAIN and cannot be waited for: it is retried
 * after a pause, until the deadline. The pause starts at the first value
 * and doubles up to the second, each drawn at random between half and
 * all of it: thousands of clients retrying every 2 ms kept the daemon
 * from the CPU it needed to empty the queue (10,000 at once through NSS
 * on 2 cores: most timed out). */
#define DTLIB_CONNECT_RETRY_MS 2
#define DTLIB_CONNECT_RETRY_MAX_MS 100
/* What a stream query's OPT record advertises: a stream carries whole
 * messages (RFC 7766 §8), so the largest. */
#define DTLIB_EDNS_SIZE 65535
/* Room for a test's hosts file path (the real one is /etc/hosts), and
 * for the path of dnstrust.conf given to the in-process engine. */
#define DTLIB_PATH_MAX 256
/* The in-process engine's cache by default: a program's few names, with
 * their keys, fit many times over (the daemon's default is 64 MiB for
 * the whole host). */
#define DTLIB_CACHE_DEFAULT (4u * 1024 * 1024)
/* The environment variable naming dnstrust.conf for the in-process
 * engine (when dt_ctx_set_config named none); ignored in a setuid or
 * setgid program (secure_getenv). */
#define DTLIB_ENV_CONF "DNSTRUST_CONF"
/* The daemon's state directory as the in-process engine reads it (its
 * runtime negative trust anchors), when not /var/lib/dnstrust. */
#define DTLIB_ENV_STATE "DNSTRUST_STATE_DIRECTORY"

#define DTLIB_HOSTS_PATH "/etc/hosts"

/* DT_FLAG_* bits dt_query knows. */
#define DTLIB_FLAGS_ALL                                                        \
	(DT_FLAG_REQUIRE_SECURE | DT_FLAG_RETURN_BOGUS | DT_FLAG_DNSSEC)

/* --- contexts (ctx.c) --- */

/* What dt_getaddrinfo knows of the host's network: whether it has IPv4
 * and IPv6 addresses (AI_ADDRCONFIG) and whether IPv6 addresses go first.
 * -1 means "look" (the interfaces, a route); tests fix them. */
struct dtlib_netview {
	int v4, v6, v6_first;
};

struct dtlib_engine;
struct dtlib_engine_ops;
struct dtlib_q;

/* A copy of a context's settings, taken at the start of a call so that a
 * setter running in another thread changes nothing half-way. */
struct dtlib_settings {
	char socket[sizeof(((struct sockaddr_un *)0)->sun_path)];
	unsigned timeout_ms;
	uid_t daemon_uid; /* besides root; (uid_t)-1 when none */
	bool fallback;
	char hosts[DTLIB_PATH_MAX];
	struct dtlib_netview net;
	unsigned gen; /* bumped when socket or uid change */
	int mode; /* DT_MODE_* */
	/* NULL until dt_ctx_set_mode: daemon mode only (mode.c) */
	const struct dtlib_engine_ops *eng_ops;
	char conf[DTLIB_PATH_MAX]; /* for the engine; "" when not set */
	size_t cache_size;
	unsigned egen; /* bumped when conf or cache_size change */
};

/* The in-process engine's hook (mode.c), set by dt_ctx_set_mode. */
struct dtlib_engine_ops {
	/* Asks the n questions of qs in-process (as ask_daemon does the
	 * daemon). Returns 0 or a DT_ERR_* code. */
	int (*ask)(dt_ctx_t *ctx, const struct dtlib_settings *s,
		   struct dtlib_q *qs, size_t n);
	/* Frees ctx's engine (dt_ctx_free). */
	void (*free)(dt_ctx_t *ctx);
};

/* An idle connection, and what its descriptor was when kept: a program
 * may close descriptors it does not know of (closefrom, a daemon's
 * start) and get the number again for a file of its own, which must never
 * be written to, nor closed. */
struct dtlib_idle {
	int fd;
	unsigned gen;
	dev_t dev;
	ino_t ino;
};

struct dt_ctx {
	pthread_mutex_t lock;
	struct dtlib_settings set;
	pid_t pool_pid; /* the process the idle connections are for */
	size_t nidle;
	struct dtlib_idle idle[DTLIB_POOL_MAX];
	bool is_default;
	struct dtlib_engine *eng; /* built on first use (mode.c) */
};

/* ctx itself, or the default context for NULL (never NULL). */
dt_ctx_t *dtlib_ctx(dt_ctx_t *ctx);
void dtlib_ctx_settings(dt_ctx_t *ctx, struct dtlib_settings *ret);

/* An idle connection made under the settings of generation gen, or -1.
 * Only a descriptor that is still the socket kept is handed out; one the
 * program closed (or reused) is forgotten, not closed. In a child of
 * fork() the parent's connections are dropped first (the default
 * context's at once, by a pthread_atfork handler; any other's here, by
 * the pid). */
int dtlib_pool_take(dt_ctx_t *ctx, unsigned gen);
/* Keeps fd for reuse, or closes it (pool full, settings changed). */
void dtlib_pool_give(dt_ctx_t *ctx, int fd, unsigned gen);

/* For tests only: trust root alone again (undoes dt_ctx_set_daemon_uid). */
void dtlib_ctx_trust_root_only(dt_ctx_t *ctx);

/* For tests only: another hosts file (0 or DT_ERR_INVALID), and a fixed
 * view of the host's network (struct dtlib_netview). */
int dtlib_ctx_set_hosts(dt_ctx_t *ctx, const char *path);
void dtlib_ctx_set_netview(dt_ctx_t *ctx, int v4, int v6, int v6_first);

/* --- the socket (conn.c) --- */

/* Milliseconds of a monotonic clock. */
int64_t dtlib_now_ms(void);

/* Connects to the daemon's socket before the deadline and checks the peer
 * (root or s->daemon_uid). Returns a non-blocking, close-on-exec fd, or
 * DT_ERR_UNAVAILABLE, DT_ERR_UNTRUSTED, DT_ERR_TIMEOUT. */
int dtlib_connect(const struct dtlib_settings *s, int64_t deadline);

/* Writes len octets before the deadline, without SIGPIPE. Returns 0,
 * DT_ERR_UNAVAILABLE (the peer closed) or DT_ERR_TIMEOUT. */
int dtlib_send_all(int fd, const uint8_t *buf, size_t len, int64_t deadline);

/* Reads what is there (at most cap octets), waiting until the deadline
 * for the first octet. Returns the count, 0 at end of stream,
 * DT_ERR_UNAVAILABLE (reset) or DT_ERR_TIMEOUT. */
ssize_t dtlib_recv_some(int fd, uint8_t *buf, size_t cap, int64_t deadline);

/* True when an idle connection is still usable: nothing to read (a
 * closed or chatty peer makes it unusable). */
bool dtlib_conn_idle_ok(int fd);

/* --- questions and answers (exchange.c) --- */

/* An answer checked against the protocol. */
struct dtlib_answer {
	struct wire_msg *msg; /* owned; NULL when no answer */
	enum dt_status status;
	int ede;	      /* INFO-CODE, -1 when none */
	const char *ede_text; /* into msg, not NUL-terminated */
	size_t ede_len;
	uint16_t pflags; /* the status option's FLAGS */
};

struct dtlib_q {
	const uint8_t *qname; /* wire form */
	uint16_t qtype, qclass;
	unsigned flags; /* DT_FLAG_DNSSEC, DT_FLAG_RETURN_BOGUS */
	uint16_t id;	/* set by dtlib_exchange */
	struct dtlib_answer ans;
};

/* dtlib_exchange's how. */
enum {
	DTLIB_NO_FALLBACK = 1 << 0, /* the daemon or nothing */
	/* On an error, the answers that did arrive (checked, as always)
	 * stay in their qs[i].ans; the others have no message. */
	DTLIB_KEEP_ANSWERED = 1 << 1,
};

/* Asks n questions (1..DTLIB_MAX_QUESTIONS) on one connection of ctx,
 * pipelined, and fills every qs[i].ans. A connection from the pool that
 * turns out closed is replaced once. When the daemon is unreachable and
 * s->fallback is set (and how allows), the fallback answers instead.
 * Returns 0 (all answered) or DT_ERR_UNAVAILABLE, DT_ERR_UNTRUSTED,
 * DT_ERR_TIMEOUT, DT_ERR_PROTOCOL, DT_ERR_NOMEM; on error no answer is
 * kept, unless how has DTLIB_KEEP_ANSWERED. */
int dtlib_exchange(dt_ctx_t *ctx, const struct dtlib_settings *s,
		   struct dtlib_q *qs, size_t n, unsigned how);

/* Builds the query of q into buf (cap octets): RD, CD for
 * DT_FLAG_RETURN_BOGUS, an OPT record with DO for DT_FLAG_DNSSEC and,
 * with status_opt, the status option. Returns its length or
 * DT_ERR_INVALID. */
int dtlib_query_build(const struct dtlib_q *q, bool status_opt, uint8_t *buf,
		      size_t cap);

/* A query ID (per-thread sequence from a random start). */
uint16_t dtlib_new_id(void);

/* Checks a parsed answer to q, cuts it to its chain (dtlib_answer_clean)
 * and takes ownership of msg (freed on error). fallback: the answer did
 * not come from the daemon. Returns 0, DT_ERR_PROTOCOL or DT_ERR_NOMEM. */
int dtlib_answer_take(struct dtlib_q *q, struct wire_msg *msg, bool fallback);

void dtlib_answer_clear(struct dtlib_answer *a);
void dtlib_qs_clear(struct dtlib_q *qs, size_t n);

/* The opt-in fallback (fallback.c): asks the nameservers of
 * /etc/resolv.conf through libresolv and fills q->ans, status
 * DT_STATUS_UNVALIDATED, AD cleared. Returns 0, DT_ERR_UNAVAILABLE (no
 * answer), DT_ERR_PROTOCOL, DT_ERR_NOMEM. */
int dtlib_fallback_ask(struct dtlib_q *q);

/* --- results (result.c, query.c) --- */

/* A dt_result_t made from an answer (which keeps its message). */
int dtlib_result_new(const struct dtlib_answer *a, dt_result_t **ret);

/* For the NSS module (which links the static library): dt_query for each
 * of n types (1..DTLIB_MAX_QUESTIONS) of one name, class and flags, the
 * questions asked together on one connection. rcs[i] is what dt_query
 * would have returned for types[i] and rets[i] its result (NULL unless
 * rcs[i] is 0; the caller frees it). A question left unanswered by a
 * failed exchange gets the exchange's error, one answered before it its
 * own outcome. */
void dtlib_query_each(dt_ctx_t *ctx, const char *name, uint16_t rclass,
		      const uint16_t *types, size_t n, unsigned flags, int *rcs,
		      dt_result_t **rets);

/* The per-thread status of dt_last_status(), and mode of dt_last_mode()
 * (0: no answer). */
void dtlib_set_last_status(enum dt_status st);
void dtlib_set_last_mode(int mode);

/* Parses a presentation-form name (relative names are made absolute).
 * Returns its wire length or DT_ERR_INVALID. */
int dtlib_name(const char *text, uint8_t out[255]);

/* Ordering of statuses from most to least trusted, for combining
 * answers: secure, insecure, unvalidated, indeterminate, bogus. */
enum dt_status dtlib_status_worst(enum dt_status a, enum dt_status b);

/* --- the chain of an answer (chain.c, clean.c) --- */

/* The chain from the question's name, as the daemon ordered it: each
 * CNAME followed (with the DNAME it was synthesized from, or NULL), its
 * end, and the index of the first answer record after the last link
 * (records of the type asked count only from there). Pointers are into
 * the message. */
struct dtlib_chain {
	const struct wire_rr *link[DT_VAL_CHAIN_MAX];
	const struct wire_rr *dname[DT_VAL_CHAIN_MAX];
	size_t nlinks;
	const uint8_t *end;
	size_t start;
	size_t nfinal; /* records of the type at the end */
};

/* Whether a record of type answers qtype (ANY: any type of data). */
bool dtlib_type_matches(uint16_t type, uint16_t qtype);

/* Walks m's answer section from qname (records of m's question class
 * only) and writes the chain to *ret. Returns 0, or DT_ERR_BOGUS when
 * the section has two readings: two CNAMEs at one owner, a CNAME beside
 * records of qtype, a CNAME that is not its DNAME's synthesis, records of
 * qtype at the end before the last link, a loop, more than
 * DT_VAL_CHAIN_MAX links, RCODE NXDOMAIN beside records of qtype at the
 * end. */
int dtlib_chain_walk(const struct wire_msg *m, const uint8_t *qname,
		     uint16_t qtype, struct dtlib_chain *ret);

/* Whether answer record i is one of the chain's final records. */
bool dtlib_chain_final(const struct dtlib_chain *c, const struct wire_msg *m,
		       uint16_t qtype, size_t i);

/* Whether answer record i belongs to the chain: a link, its DNAME, a
 * final record, or an RRSIG over one of their RRsets. */
bool dtlib_chain_keeps(const struct dtlib_chain *c, const struct wire_msg *m,
		       uint16_t qtype, size_t i);

/* Replaces *msg by a message holding only its chain (see clean.c).
 * Returns 0, 1 when the answer was refused (the new message is SERVFAIL,
 * status bogus, EDE 6), DT_ERR_PROTOCOL or DT_ERR_NOMEM (*msg
 * untouched). */
int dtlib_answer_clean(struct wire_msg **msg, const uint8_t *qname,
		       uint16_t qtype);

/* The final records of the answer's chain from qname: calls fn for each
 * record of type at its end, in order. Returns the number of records, a
 * negative fn value, or DT_ERR_BOGUS (two readings); *ret_owner (may be
 * NULL) gets the end of the chain (into the message). */
int dtlib_answer_records(const struct wire_msg *m, const uint8_t *qname,
			 uint16_t type,
			 int (*fn)(const uint8_t *rdata, uint16_t rdlen,
				   void *arg),
			 void *arg, const uint8_t **ret_owner);

/* --- /etc/hosts (hosts.c) --- */

struct dtlib_addr {
	int family; /* AF_INET or AF_INET6 */
	uint8_t a[16];
	uint32_t scope; /* sin6_scope_id */
};

/* A growing array of addresses. */
struct dtlib_addrs {
	struct dtlib_addr *v;
	size_t n, cap;
};

int dtlib_addrs_add(struct dtlib_addrs *as, int family, const void *addr,
		    uint32_t scope);
void dtlib_addrs_free(struct dtlib_addrs *as);

/* Looks name up in a hosts file as glibc's "files" source does: every
 * line naming it (canonical name or alias, case-insensitively) gives its
 * address when of a family in want4/want6. canon (DTLIB_CANON_MAX octets)
 * gets the canonical name of the first such line. Returns 1 when found,
 * 0 when not (or the file is missing), DT_ERR_NOMEM. */
#define DTLIB_CANON_MAX 1025
int dtlib_hosts_lookup(const char *path, const char *name, bool want4,
		       bool want6, struct dtlib_addrs *ret, char *canon);

/* --- services (gai_serv.c) --- */

struct dtlib_port {
	int socktype;
	int protocol;
	uint16_t port; /* host order */
};

/* The socket types, protocols and ports of an addrinfo request: up to
 * DTLIB_MAX_PORTS. Returns the count or a negative EAI_* code. */
#define DTLIB_MAX_PORTS 5
int dtlib_gai_ports(const char *service, const struct addrinfo *hints,
		    struct dtlib_port *ret);

/* --- the addrinfo list (gai_list.c) --- */

/* One allocation holding every addrinfo of addrs x ports and the
 * canonical name. Returns 0 or EAI_MEMORY. */
int dtlib_gai_list(const struct dtlib_addrs *addrs,
		   const struct dtlib_port *ports, size_t nports, int flags,
		   const char *canon, struct addrinfo **ret);

#endif
