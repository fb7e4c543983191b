/* SPDX-License-Identifier: MIT */
/*
 * One request walks through "slots": attempts rounds over its servers,
 * one try per slot. A try is a UDP exchange on a fresh connected socket;
 * within its slot it may become a TCP exchange (TC=1) or a second UDP
 * exchange without EDNS (FORMERR or NOTIMP to EDNS), each with a fresh
 * timeout. A timeout, an unusable RCODE, a socket error or a flood of
 * unmatched packets moves to the next slot; past the last one the request
 * ends with an error, delivered from a 0 ms timer so that no callback
 * ever runs inside up_query().
 *
 * UDP sockets are bound to a source port drawn from 1024-65535 (limits.h,
 * DT_UP_PORT_MIN). TCP connections are counted process-wide, in all and
 * per server; a try over the cap (DT_UP_TCP_MAX, DT_UP_TCP_PER_SERVER)
 * waits on its client's queue, its timer running, until one closes.
 *
 * A server with an authentication name (up_conf.tls_name) is asked over
 * DNS over TLS only (RFC 7858): every try is a TCP try whose connection
 * first completes a TLS handshake with the certificate checked (tls.h);
 * one that fails is a failed try, as a refused connection is.
 *
 * Every callback path ends by either waiting again or handing the request
 * to deliver()/end(); after deliver() the request (and possibly the
 * client, freed by the caller's callback) is gone, so nothing touches
 * them afterwards.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "common/loop.h"
#include "upstream/capab.h"
#include "upstream/tls.h"
#include "upstream/transport.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* A query with its TCP length prefix. */
#define QUERY_MAX (2 + DT_QUERY_MAXLEN)

struct penalty {
	struct up_server server;
	int64_t until; /* loop_now_ms() when it ends */
};

/* The cookies of one server (RFC 7873). */
#define COOKIE_OPT	  10
#define COOKIE_CLIENT	  8
#define COOKIE_SERVER_MIN 8
#define COOKIE_SERVER_MAX 32

struct cookie {
	struct up_server server;
	uint8_t client[COOKIE_CLIENT];
	uint8_t srv[COOKIE_SERVER_MAX];
	uint8_t srvlen; /* 0: none learnt yet */
	int64_t used;	/* ms; 0: slot free */
};

/* One server's counters; used is set (release) once server is written. */
struct srv_slot {
	bool used;
	struct up_server_stats st;
};

struct up_client {
	struct loop *loop;
	struct up_conf conf;
	unsigned rotate_next; /* first server of the next query */
	struct up_req *reqs;  /* pending, doubly linked */
	struct penalty *pen;  /* servers that timed out lately */
	size_t npen;
	size_t cappen;
	struct up_stats stats;
	struct capab *capab; /* fed with what the servers do, or NULL */
	bool capab_apply;    /* and its remembered behaviour followed */
	struct srv_slot srv[UP_STATS_SERVERS];
	struct cookie *cookies;	      /* DT_UP_COOKIES_MAX, or NULL */
	struct up_req *tcpq;	      /* waiting for a TCP connection */
	struct loop_timer tcpq_timer; /* looks at them again */
	uint8_t rnd[64]; /* getrandom() output not used yet */
	size_t rnd_left;
	uint8_t rx[DT_MSG_MAXLEN]; /* UDP receive buffer */
	struct up_tls *tls;	   /* made at the first TLS try */
	char *tls_ca;		   /* up_client_set_tls_ca(), or NULL */
	char tls_why[DT_UP_TLS_WHY_LEN]; /* the last TLS failure */
};

struct up_req {
	struct up_client *c;
	struct up_req *prev, *next;
	up_done_fn *cb;
	void *arg;
	wire_dname_storage_t qname;
	wire_dname_storage_t sent; /* qname as sent (UP_Q_CASE) */
	uint16_t qtype, qclass;
	unsigned qflags;		   /* UP_Q_* */
	bool case_echoed;		   /* the response checked echoed it */
	uint8_t cookie[COOKIE_CLIENT];	   /* the client cookie sent */
	bool cookie_sent;
	struct up_server ns[DT_UP_MAXNS]; /* in the order tried */
	char tls_name[DT_UP_MAXNS][DT_UP_TLS_NAME_MAX]; /* of ns[i]; "":
							   plain DNS */
	size_t nns;
	unsigned timeout_ms;
	size_t slot, nslots; /* slot % nns is the server */
	bool no_edns;	     /* this slot's server refused EDNS */
	bool edns_formerr;   /* it did so in this slot (not remembered) */
	bool own_conf;	     /* asks the client's servers (not split DNS) */
	bool ending;	     /* end() called: only its timer is left */
	bool failed;	     /* some try failed otherwise than by timeout */
	int last_rcode;
	int err;    /* the error end() delivers */
	bool in_cb; /* its callback is running: up_cancel no-op */
	bool tcp_held;	 /* a TCP connection counted (tcp_take) */
	bool tcp_queued; /* on c->tcpq, waiting for one */
	bool tcp_first;	 /* what tcp_start was told, for the wait */
	struct up_req *qprev, *qnext; /* on c->tcpq */

	/* The try under way. */
	int fd;
	bool tcp;
	bool io_on; /* io registered with the loop */
	struct loop_io io;
	struct loop_timer timer;
	uint16_t id;
	unsigned bad;		  /* unmatched packets in this try */
	uint8_t query[QUERY_MAX]; /* 2-octet length, then the message */
	size_t qlen;		  /* of the message */
	size_t woff;		  /* TCP: octets of query[] written */
	int64_t try_ms;		  /* loop_now_ms() when the try began */
	uint8_t lenbuf[2];	  /* TCP: the response's length prefix */
	size_t rgot;		  /* TCP: octets read, prefix included */
	uint8_t *rbuf;		  /* TCP: the response */
	size_t rlen;
	struct up_tls_sess *tls;  /* TLS: the session of the try */
	bool tls_ready;		  /* TLS: its handshake is done */
};

/* --- penalties: servers that timed out are tried last for a while --- */

static struct penalty *penalty_find(struct up_client *c,
				    const struct up_server *s)
{
	for (size_t i = 0; i < c->npen; i++) {
		if (up_server_equal(&c->pen[i].server, s))
			return &c->pen[i];
	}
	return NULL;
}

static bool penalised(struct up_client *c, const struct up_server *s)
{
	struct penalty *p = penalty_find(c, s);

	return p && p->until > loop_now_ms(c->loop);
}

static void penalty_clear(struct up_client *c, const struct up_server *s)
{
	struct penalty *p = penalty_find(c, s);

	if (p)
		*p = c->pen[--c->npen];
}

static void penalty_prune(struct up_client *c)
{
	int64_t now = loop_now_ms(c->loop);

	for (size_t i = 0; i < c->npen;) {
		if (c->pen[i].until <= now)
			c->pen[i] = c->pen[--c->npen];
		else
			i++;
	}
}

/* Out of memory only loses the reordering, never a query. */
static void penalty_add(struct up_client *c, const struct up_server *s)
{
	struct penalty *p;

	penalty_prune(c);
	p = penalty_find(c, s);
	if (!p && c->npen == c->cappen) {
		size_t cap = c->cappen ? 2 * c->cappen : 4;
		struct penalty *np = realloc(c->pen, cap * sizeof(*np));

		if (!np)
			return;
		c->pen = np;
		c->cappen = cap;
	}
	if (!p) {
		p = &c->pen[c->npen++];
		p->server = *s;
	}
	p->until = loop_now_ms(c->loop) + DT_UP_PENALTY_MS;
}

void up_client_distrust(struct up_client *c, const char *server)
{
	const struct up_conf *conf = &c->conf;
	char name[INET6_ADDRSTRLEN + IF_NAMESIZE + 16]; /* "[a%if]:port" */

	for (size_t i = 0; i < conf->nns && i < DT_UP_MAXNS; i++) {
		up_server_str(&conf->ns[i], name, sizeof(name));
		if (strcmp(name, server) == 0)
			penalty_add(c, &conf->ns[i]);
	}
}

/* Rotation first, then servers under penalty moved behind the others. */
static void order_servers(struct up_client *c, const struct up_conf *conf,
			  struct up_req *r)
{
	size_t n = conf->nns < DT_UP_MAXNS ? conf->nns : DT_UP_MAXNS;
	size_t start = 0, k = 0;

	if (n == 0)
		return;
	if (conf->rotate)
		start = c->rotate_next++ % n;
	for (int late = 0; late < 2; late++) {
		for (size_t i = 0; i < n; i++) {
			size_t at = (start + i) % n;
			const struct up_server *s = &conf->ns[at];

			if (penalised(c, s) != (late == 1))
				continue;
			memcpy(r->tls_name[k], conf->tls_name[at],
			       sizeof(r->tls_name[k]));
			r->ns[k++] = *s;
		}
	}
	r->nns = n;
}

/* --- TCP connections: counted process-wide, in all and per server --- */

/* A server has an entry only while it has connections open, so
 * DT_UP_TCP_MAX entries are enough. */
static struct {
	pthread_mutex_t mu;
	unsigned total;
	struct {
		struct up_server server;
		unsigned n;
	} srv[DT_UP_TCP_MAX];
} tcp_count = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* Counts a connection to s; false when the cap is reached. */
static bool tcp_take(const struct up_server *s)
{
	bool ok = false;
	size_t i, free_slot = DT_UP_TCP_MAX;

	pthread_mutex_lock(&tcp_count.mu);
	for (i = 0; i < DT_UP_TCP_MAX; i++) {
		if (!tcp_count.srv[i].n) {
			if (free_slot == DT_UP_TCP_MAX)
				free_slot = i;
		} else if (up_server_equal(&tcp_count.srv[i].server, s)) {
			break;
		}
	}
	if (tcp_count.total < DT_UP_TCP_MAX) {
		if (i == DT_UP_TCP_MAX && free_slot < DT_UP_TCP_MAX) {
			i = free_slot;
			tcp_count.srv[i].server = *s;
		}
		if (i < DT_UP_TCP_MAX &&
		    tcp_count.srv[i].n < DT_UP_TCP_PER_SERVER) {
			tcp_count.srv[i].n++;
			tcp_count.total++;
			ok = true;
		}
	}
	pthread_mutex_unlock(&tcp_count.mu);
	return ok;
}

static void tcp_give(const struct up_server *s)
{
	pthread_mutex_lock(&tcp_count.mu);
	for (size_t i = 0; i < DT_UP_TCP_MAX; i++) {
		if (tcp_count.srv[i].n &&
		    up_server_equal(&tcp_count.srv[i].server, s)) {
			tcp_count.srv[i].n--;
			tcp_count.total--;
			break;
		}
	}
	pthread_mutex_unlock(&tcp_count.mu);
}

unsigned up_tcp_open(void)
{
	unsigned n;

	pthread_mutex_lock(&tcp_count.mu);
	n = tcp_count.total;
	pthread_mutex_unlock(&tcp_count.mu);
	return n;
}

/* --- the query --- */

static int rand16(struct up_client *c, uint16_t *ret)
{
	if (c->rnd_left < 2) {
		ssize_t n = getrandom(c->rnd, sizeof(c->rnd), 0);

		if (n < 0)
			return -errno;
		if ((size_t)n != sizeof(c->rnd))
			return -EAGAIN;
		c->rnd_left = sizeof(c->rnd);
	}
	c->rnd_left -= 2;
	*ret = wire_get16(c->rnd + c->rnd_left);
	return 0;
}

/* --- DNS cookies --- */

static const struct up_server *cur_server(const struct up_req *r);

/* The cookies of server s: found, else a slot (free or the least
 * recently used) with a new random client cookie; NULL when out of
 * memory or randomness. */
static struct cookie *cookie_get(struct up_client *c, const struct up_server *s)
{
	struct cookie *e;
	uint16_t v;

	if (!c->cookies &&
	    !(c->cookies = calloc(DT_UP_COOKIES_MAX, sizeof(*c->cookies))))
		return NULL;
	e = &c->cookies[0];
	for (size_t i = 0; i < DT_UP_COOKIES_MAX; i++) {
		struct cookie *x = &c->cookies[i];

		if (x->used && up_server_equal(&x->server, s)) {
			x->used = loop_now_ms(c->loop) | 1;
			return x;
		}
		if (x->used < e->used)
			e = x;
	}
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < COOKIE_CLIENT; i += 2) {
		if (rand16(c, &v) < 0)
			return NULL;
		wire_put16(e->client + i, v);
	}
	e->server = *s;
	e->used = loop_now_ms(c->loop) | 1;
	return e;
}

/* The COOKIE option for r's server into opt (4 + 8 + 32 octets at
 * most); its length, 0 when none goes. */
static size_t cookie_opt(struct up_req *r, uint8_t *opt)
{
	struct cookie *e;
	size_t len;

	r->cookie_sent = false;
	if (!(r->qflags & UP_Q_COOKIE) || r->no_edns ||
	    !(e = cookie_get(r->c, cur_server(r))))
		return 0;
	len = COOKIE_CLIENT + e->srvlen;
	wire_put16(opt, COOKIE_OPT);
	wire_put16(opt + 2, (uint16_t)len);
	memcpy(opt + 4, e->client, COOKIE_CLIENT);
	memcpy(opt + 4 + COOKIE_CLIENT, e->srv, e->srvlen);
	memcpy(r->cookie, e->client, COOKIE_CLIENT);
	r->cookie_sent = true;
	return 4 + len;
}

/* A response's COOKIE option: false when its client cookie is not the
 * one r sent (a forgery); a server cookie in it is kept for the next
 * query. */
static bool cookie_check(struct up_req *r, const struct wire_msg *m)
{
	const uint8_t *data;
	uint16_t code, len;
	size_t pos = 0;
	struct cookie *e;

	if (!r->cookie_sent)
		return true;
	while (wire_edns_opt_next(&m->edns, &pos, &code, &data, &len) == 1) {
		if (code != COOKIE_OPT)
			continue;
		if (len < COOKIE_CLIENT ||
		    memcmp(data, r->cookie, COOKIE_CLIENT) != 0)
			return false;
		len -= COOKIE_CLIENT;
		if (len >= COOKIE_SERVER_MIN && len <= COOKIE_SERVER_MAX &&
		    (e = cookie_get(r->c, cur_server(r))) &&
		    memcmp(e->client, r->cookie, COOKIE_CLIENT) == 0) {
			memcpy(e->srv, data + COOKIE_CLIENT, len);
			e->srvlen = (uint8_t)len;
		}
		return true;
	}
	return true;
}

/* r->sent: r->qname with each letter's case random (UP_Q_CASE), else
 * as given. */
static int case_randomise(struct up_req *r)
{
	uint8_t *p = r->sent;
	uint16_t bits = 0;
	unsigned nbits = 0;
	int err;

	memcpy(r->sent, r->qname, sizeof(r->sent));
	if (!(r->qflags & UP_Q_CASE))
		return 0;
	while (*p) {
		uint8_t len = *p++;

		for (uint8_t i = 0; i < len; i++, p++) {
			uint8_t lower = (uint8_t)(*p | 0x20);

			if (lower < 'a' || lower > 'z')
				continue;
			if (nbits == 0) {
				if ((err = rand16(r->c, &bits)) < 0)
					return err;
				nbits = 16;
			}
			*p = (bits & 1) ? (uint8_t)(lower & ~0x20) : lower;
			bits >>= 1;
			nbits--;
		}
	}
	return 0;
}

/* A new ID and the query with it: RD (unless UP_Q_NORD), CD, and unless the server refused
 * it, EDNS with DO and our buffer size. */
static int build_query(struct up_req *r)
{
	struct wire_builder b;
	int err = rand16(r->c, &r->id);
	uint16_t flags = WIRE_FLAG_CD;
	uint8_t opt[4 + COOKIE_CLIENT + COOKIE_SERVER_MAX];
	size_t optlen = 0;

	if (err == 0)
		err = case_randomise(r);
	if (err == 0)
		optlen = cookie_opt(r, opt);

	if (!(r->qflags & UP_Q_NORD))
		flags |= WIRE_FLAG_RD;
	if (err == 0)
		err = wire_build_init(&b, r->query + 2, sizeof(r->query) - 2,
				      r->id, flags);
	if (err == 0)
		err = wire_build_question(&b, r->sent, r->qtype, r->qclass);
	if (err == 0 && !r->no_edns)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     optlen ? opt : NULL, optlen);
	if (err < 0)
		return err;
	r->qlen = wire_build_finish(&b);
	wire_put16(r->query, (uint16_t)r->qlen);
	return 0;
}

static const struct up_server *cur_server(const struct up_req *r)
{
	return &r->ns[r->slot % r->nns];
}

/* The current server's authentication name, or NULL: plain DNS. */
static const char *cur_tls(const struct up_req *r)
{
	const char *name = r->tls_name[r->slot % r->nns];

	return name[0] ? name : NULL;
}

static void observe(struct up_req *r, enum capab_obs obs)
{
	if (r->c->capab)
		capab_observe(r->c->capab, cur_server(r), obs);
}

/* --- matching what comes back --- */

enum verdict {
	V_DROP,	   /* not the response to this try */
	V_ANSWER,  /* a checked response; its RCODE decides */
	V_TC,	   /* truncated over UDP: ask over TCP */
	V_REFUSAL, /* FORMERR or NOTIMP without a question */
	V_TC_TCP,  /* truncated over TCP: no answer (RFC 7766 §5: a
		      server sends the whole answer over TCP) */
	V_MALFORMED, /* the response to this try, by its header and
			question, that does not parse */
};

/* Whether the response's question is the query's: the name equal
 * ignoring case, and with UP_Q_CASE_STRICT in the case sent too
 * (*echoed: whether it came back in the case sent). */
static bool question_matches(const struct up_req *r, uint8_t *pkt, size_t len,
			     bool *echoed)
{
	wire_dname_storage_t name;
	size_t pos = DT_MSG_HDRLEN;
	int nlen;

	if (wire_dname_unpack(pkt, len, &pos, name) < 0 || len - pos < 4)
		return false;
	nlen = wire_dname_check(name, name + sizeof(name));
	*echoed = nlen > 0 && memcmp(name, r->sent, (size_t)nlen) == 0;
	if ((r->qflags & UP_Q_CASE_STRICT) && !*echoed)
		return false;
	if (!wire_dname_equal(name, r->qname) ||
	    wire_get16(pkt + pos) != r->qtype ||
	    wire_get16(pkt + pos + 2) != r->qclass)
		return false;
	/* 0x20 leaves no trace: the question, and the owner names that
	 * point to it, in the case of the name asked (when the question's
	 * name is written out, as it always is). */
	if ((r->qflags & UP_Q_CASE) && pos - DT_MSG_HDRLEN == (size_t)nlen)
		memcpy(pkt + DT_MSG_HDRLEN, r->qname, (size_t)nlen);
	return true;
}

/* Servers that do not know EDNS (or another part of the query) may
 * answer FORMERR or NOTIMP with the bare header: such a response serves
 * only to decide to move on, never as an answer. */
static bool bare_refusal(uint16_t flags, uint16_t qdcount)
{
	unsigned rcode = WIRE_RCODE(flags);

	return qdcount == 0 &&
	       (rcode == WIRE_RCODE_FORMERR || rcode == WIRE_RCODE_NOTIMP);
}

static enum verdict check(struct up_req *r, uint8_t *pkt, size_t len,
			  int *ret_rcode)
{
	uint16_t flags, qd;
	struct wire_msg *msg;
	int err;

	if (len < DT_MSG_HDRLEN || wire_get16(pkt) != r->id)
		return V_DROP;
	flags = wire_get16(pkt + 2);
	qd = wire_get16(pkt + 4);
	if (!(flags & WIRE_FLAG_QR) || WIRE_OPCODE(flags) != WIRE_OPCODE_QUERY)
		return V_DROP;
	if (bare_refusal(flags, qd)) {
		*ret_rcode = WIRE_RCODE(flags);
		return V_REFUSAL;
	}
	if (qd != 1 || !question_matches(r, pkt, len, &r->case_echoed))
		return V_DROP;
	if (flags & WIRE_FLAG_TC)
		return r->tcp ? V_TC_TCP : V_TC;
	msg = wire_msg_parse(pkt, len, WIRE_PARSE_TRUNC_OK, &err);
	if (!msg)
		return err == -ENOMEM ? V_DROP : V_MALFORMED;
	if (!cookie_check(r, msg)) {
		wire_msg_free(msg);
		return V_DROP;
	}
	*ret_rcode = msg->rcode;
	wire_msg_free(msg);
	return V_ANSWER;
}

/* --- tries --- */

static void on_udp(struct loop_io *io, uint32_t revents);
static void on_tcp(struct loop_io *io, uint32_t revents);
static void on_timeout(struct loop_timer *t);
static void on_end(struct loop_timer *t);
static void server_failed(struct up_req *r);

static void tcpq_remove(struct up_req *r)
{
	if (r->qprev)
		r->qprev->qnext = r->qnext;
	else
		r->c->tcpq = r->qnext;
	if (r->qnext)
		r->qnext->qprev = r->qprev;
	r->qprev = r->qnext = NULL;
	r->tcp_queued = false;
}

/* Ends the try under way: socket, io and timer, its place in the TCP
 * queue or its counted connection (the queue is looked at again at
 * once); keeps a TCP response. */
static void try_stop(struct up_req *r)
{
	struct up_client *c = r->c;

	loop_timer_stop(c->loop, &r->timer);
	if (r->io_on)
		loop_io_del(c->loop, &r->io);
	r->io_on = false;
	up_tls_sess_free(r->tls);
	r->tls = NULL;
	r->tls_ready = false;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->tcp_queued)
		tcpq_remove(r);
	if (r->tcp_held) {
		r->tcp_held = false;
		tcp_give(cur_server(r));
		if (c->tcpq)
			loop_timer_start(c->loop, &c->tcpq_timer, 0);
	}
}

static void try_close(struct up_req *r)
{
	try_stop(r);
	free(r->rbuf);
	r->rbuf = NULL;
}

/* A source port drawn uniformly from DT_UP_PORT_MIN-65535. */
static int rand_port(struct up_client *c, uint16_t *port)
{
	int err;

	*port = 0;
	do {
		err = rand16(c, port);
	} while (err == 0 && *port < DT_UP_PORT_MIN);
	return err;
}

/* Binds the UDP socket fd of family to a port of our drawing (limits.h:
 * DT_UP_PORT_MIN), the wildcard address; after DT_UP_PORT_TRIES ports in
 * use, leaves the choice to the kernel (connect binds one). */
static int bind_port(struct up_client *c, int fd, int family)
{
	struct sockaddr_storage ss;
	socklen_t len;
	uint16_t port;
	int err;

	for (int i = 0; i < DT_UP_PORT_TRIES; i++) {
		if ((err = rand_port(c, &port)) < 0)
			return err;
		memset(&ss, 0, sizeof(ss));
		if (family == AF_INET6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
			a->sin6_family = AF_INET6;
			a->sin6_port = htons(port);
			len = sizeof(*a);
		} else {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;
			a->sin_family = AF_INET;
			a->sin_port = htons(port);
			len = sizeof(*a);
		}
		if (bind(fd, (struct sockaddr *)&ss, len) == 0)
			return 0;
		if (errno != EADDRINUSE)
			return -errno;
	}
	c->stats.port_fallback++;
	return 0;
}

/* Opens a connected socket to the current server and registers it. */
static int try_open(struct up_req *r, int type, uint32_t events,
		    void (*cb)(struct loop_io *, uint32_t))
{
	const struct up_server *s = cur_server(r);
	const struct sockaddr *sa = (const struct sockaddr *)&s->addr;
	int err;

	r->fd = socket(sa->sa_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (r->fd < 0)
		return -errno;
	if (type == SOCK_DGRAM &&
	    (err = bind_port(r->c, r->fd, sa->sa_family)) < 0)
		return err;
	err = connect(r->fd, sa, s->addrlen);
	if (err != 0 && errno != EINPROGRESS)
		return -errno;
	r->io.cb = cb;
	err = loop_io_add(r->c->loop, &r->io, r->fd, events);
	if (err < 0)
		return err;
	r->io_on = true;
	r->timer.cb = on_timeout;
	loop_timer_start(r->c->loop, &r->timer, r->timeout_ms);
	return 0;
}

/* The counters of the server of the try under way, or NULL when every
 * slot holds another server. Only the client's thread writes. */
static struct up_server_stats *srv_stats(struct up_req *r)
{
	const struct up_server *s = cur_server(r);

	for (size_t i = 0; i < UP_STATS_SERVERS; i++) {
		struct srv_slot *slot = &r->c->srv[i];

		if (!__atomic_load_n(&slot->used, __ATOMIC_ACQUIRE)) {
			slot->st.server = *s;
			__atomic_store_n(&slot->used, true, __ATOMIC_RELEASE);
			return &slot->st;
		}
		if (slot->st.server.addrlen == s->addrlen &&
		    memcmp(&slot->st.server.addr, &s->addr, s->addrlen) == 0)
			return &slot->st;
	}
	return NULL;
}

static void srv_count(struct up_req *r, size_t field_off, uint64_t n)
{
	struct up_server_stats *st = srv_stats(r);

	if (st)
		__atomic_fetch_add((uint64_t *)((char *)st + field_off), n,
				   __ATOMIC_RELAXED);
}

#define SRV_COUNT(r, field, n)                                                 \
	srv_count((r), offsetof(struct up_server_stats, field), (n))

size_t up_client_server_stats(const struct up_client *c,
			      struct up_server_stats *out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < UP_STATS_SERVERS && n < cap; i++) {
		const struct srv_slot *slot = &c->srv[i];

		if (!__atomic_load_n(&slot->used, __ATOMIC_ACQUIRE))
			break;
		out[n].server = slot->st.server;
		out[n].tries =
			__atomic_load_n(&slot->st.tries, __ATOMIC_RELAXED);
		out[n].answers =
			__atomic_load_n(&slot->st.answers, __ATOMIC_RELAXED);
		out[n].timeouts =
			__atomic_load_n(&slot->st.timeouts, __ATOMIC_RELAXED);
		out[n].errors =
			__atomic_load_n(&slot->st.errors, __ATOMIC_RELAXED);
		out[n].rtt_ms =
			__atomic_load_n(&slot->st.rtt_ms, __ATOMIC_RELAXED);
		n++;
	}
	return n;
}

static int udp_start(struct up_req *r)
{
	int err;

	r->tcp = false;
	r->bad = 0;
	err = build_query(r);
	if (err == 0)
		err = try_open(r, SOCK_DGRAM, LOOP_READ, on_udp);
	if (err == 0 && send(r->fd, r->query + 2, r->qlen, 0) < 0)
		err = -errno;
	if (err < 0) {
		try_close(r);
	} else {
		r->c->stats.tries++;
		r->try_ms = loop_now_ms(r->c->loop);
		SRV_COUNT(r, tries, 1);
	}
	return err;
}

/* The connection of a TCP try, counted (tcp_take) already. */
static int tcp_connect(struct up_req *r, bool first)
{
	int err;

	err = build_query(r);
	if (err == 0)
		err = try_open(r, SOCK_STREAM, LOOP_WRITE, on_tcp);
	if (err < 0) {
		try_close(r);
		return err;
	}
	r->c->stats.tries++; /* per server: the UDP try it follows */
	if (first) {
		r->try_ms = loop_now_ms(r->c->loop);
		SRV_COUNT(r, tries, 1);
	}
	return 0;
}

/* first: TCP at once, a try of its own (not after TC=1 over UDP). Over
 * the cap of connections, the try waits on the client's queue, for at
 * most its timeout (which ends it as an unanswered try would). */
static int tcp_start(struct up_req *r, bool first)
{
	struct up_client *c = r->c;

	r->tcp = true;
	r->woff = 0;
	r->rgot = 0;
	c->stats.tcp++;
	if (tcp_take(cur_server(r))) {
		r->tcp_held = true;
		return tcp_connect(r, first);
	}
	c->stats.tcp_queued++;
	r->tcp_first = first;
	r->tcp_queued = true;
	r->qprev = NULL;
	r->qnext = c->tcpq;
	if (c->tcpq)
		c->tcpq->qprev = r;
	c->tcpq = r;
	r->timer.cb = on_timeout;
	loop_timer_start(c->loop, &r->timer, r->timeout_ms);
	if (!c->tcpq_timer.heap_index)
		loop_timer_start(c->loop, &c->tcpq_timer,
				 DT_UP_TCP_QUEUE_POLL_MS);
	return 0;
}

/* Starts the queued tries that now get a connection, the longest
 * waiting first; looks again later while any is left. */
static void tcpq_run(struct loop_timer *t)
{
	struct up_client *c = t->arg;
	struct up_req *r = c->tcpq, *prev;

	while (r && r->qnext)
		r = r->qnext;
	for (; r; r = prev) {
		prev = r->qprev;
		if (!tcp_take(cur_server(r)))
			continue;
		tcpq_remove(r);
		r->tcp_held = true;
		loop_timer_stop(c->loop, &r->timer);
		if (tcp_connect(r, r->tcp_first) < 0)
			server_failed(r);
	}
	if (c->tcpq && !c->tcpq_timer.heap_index)
		loop_timer_start(c->loop, &c->tcpq_timer,
				 DT_UP_TCP_QUEUE_POLL_MS);
}

/* A slot's first try, as the server's remembered behaviour wants it. */
static int slot_start(struct up_req *r)
{
	struct capab *cb = r->c->capab_apply ? r->c->capab : NULL;
	const struct up_server *s = cur_server(r);

	if (cb && !r->no_edns && capab_edns_off(cb, s))
		r->no_edns = true;
	if ((r->qflags & UP_Q_TCP) || cur_tls(r) ||
	    (cb && capab_tcp_first(cb, s)))
		return tcp_start(r, true);
	return udp_start(r);
}

/* Hands the error to the caller from a 0 ms timer. */
static void end(struct up_req *r, int err)
{
	try_close(r);
	r->err = err;
	r->ending = true;
	r->timer.cb = on_end;
	loop_timer_start(r->c->loop, &r->timer, 0);
}

/* Starts a try at the current slot, or at the next ones when a socket
 * cannot even be opened; ends the request past the last slot. */
static void run(struct up_req *r)
{
	while (r->slot < r->nslots) {
		if (slot_start(r) == 0)
			return;
		r->failed = true;
		r->slot++;
		r->no_edns = false;
		r->edns_formerr = false;
	}
	end(r, r->failed ? DT_EUPSTREAM : DT_ETIMEOUT);
}

static void next_slot(struct up_req *r)
{
	try_close(r);
	r->slot++;
	r->no_edns = false;
	r->edns_formerr = false;
	run(r);
}

static void server_failed(struct up_req *r)
{
	if (r->tcp)
		observe(r, CAPAB_TCP_FAIL);
	SRV_COUNT(r, errors, 1);
	r->failed = true;
	next_slot(r);
}

static void rcode_failed(struct up_req *r, int rcode)
{
	SRV_COUNT(r, errors, 1);
	observe(r, CAPAB_ANSWER);
	r->last_rcode = rcode;
	r->failed = true;
	if ((rcode == WIRE_RCODE_FORMERR || rcode == WIRE_RCODE_NOTIMP) &&
	    !r->no_edns) {
		try_close(r);
		r->no_edns = true;
		r->edns_formerr = true;
		run(r);
		return;
	}
	next_slot(r);
}

static void unlink_req(struct up_req *r)
{
	struct up_client *c = r->c;

	if (r->prev)
		r->prev->next = r->next;
	else
		c->reqs = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->prev = r->next = NULL;
}

static void req_free(struct up_req *r)
{
	free(r->rbuf);
	free(r);
}

/* The answer goes to the caller; r is freed after its callback, which may
 * free the client too (only the request is touched afterwards). */
static void deliver(struct up_req *r, const uint8_t *msg, size_t len)
{
	struct up_answer ans = {
		.msg = msg,
		.len = len,
		.server = cur_server(r),
		.tcp = r->tcp,
		.no_edns = r->no_edns,
		.case_echoed = (r->qflags & UP_Q_CASE) && r->case_echoed,
	};

	penalty_clear(r->c, ans.server);
	if (r->c->capab && r->edns_formerr)
		capab_observe(r->c->capab, ans.server, CAPAB_EDNS_FORMERR);
	if (r->c->capab)
		capab_learn_response(r->c->capab, ans.server, r->qtype, msg,
				     len, !r->no_edns, r->tcp);
	SRV_COUNT(r, answers, 1);
	SRV_COUNT(r, rtt_ms, (uint64_t)(loop_now_ms(r->c->loop) - r->try_ms));
	try_stop(r);
	unlink_req(r);
	r->in_cb = true;
	r->cb(r->arg, 0, &ans, r->last_rcode);
	req_free(r);
}

static void on_response(struct up_req *r, const uint8_t *pkt, size_t len,
			enum verdict v, int rcode)
{
	if (v == V_TC) {
		observe(r, CAPAB_TRUNCATED);
		try_close(r);
		if (tcp_start(r, false) < 0)
			server_failed(r);
		return;
	}
	if (v == V_TC_TCP) {
		/* Taken as a failed try, never as the records it has (an
		 * empty NOERROR would pass for a denial). */
		r->c->stats.truncated_tcp++;
		SRV_COUNT(r, errors, 1);
		r->failed = true;
		next_slot(r);
		return;
	}
	if (v == V_MALFORMED) {
		/* A broken server, taken as one that failed: the next
		 * server at once rather than this one's timeout. Whoever
		 * could forge it could forge a REFUSED. */
		r->c->stats.malformed++;
		SRV_COUNT(r, errors, 1);
		r->last_rcode = UP_RCODE_MALFORMED;
		r->failed = true;
		next_slot(r);
		return;
	}
	if (v == V_REFUSAL || rcode == WIRE_RCODE_FORMERR ||
	    rcode == WIRE_RCODE_NOTIMP || rcode == WIRE_RCODE_SERVFAIL ||
	    rcode == WIRE_RCODE_REFUSED) {
		rcode_failed(r, rcode);
		return;
	}
	deliver(r, pkt, len);
}

static void on_udp(struct loop_io *io, uint32_t revents)
{
	struct up_req *r = io->arg;
	uint8_t *rx = r->c->rx;

	(void)revents;
	for (;;) {
		ssize_t n = recv(r->fd, rx, sizeof(r->c->rx), 0);
		enum verdict v;
		int rcode = -1;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0) {
			/* ECONNREFUSED: an ICMP error, nothing listens. */
			observe(r, CAPAB_UNREACHABLE);
			server_failed(r);
			return;
		}
		v = check(r, rx, (size_t)n, &rcode);
		if (v != V_DROP) {
			on_response(r, rx, (size_t)n, v, rcode);
			return;
		}
		r->c->stats.dropped++;
		if (++r->bad >= DT_UP_MAX_BAD_PACKETS) {
			server_failed(r);
			return;
		}
	}
}

/* Waits for the readiness a TLS call asked for. */
static int tls_wait(struct up_req *r, enum up_tls_want want)
{
	return loop_io_mod(r->c->loop, &r->io,
			   want == UP_TLS_WANT_READ ? LOOP_READ : LOOP_WRITE);
}

/* TLS: the session on the connected socket, then its handshake. Returns
 * 1 when done, 0 (wait) or -errno. */
static int tls_start(struct up_req *r)
{
	struct up_client *c = r->c;
	enum up_tls_want want;
	char why[DT_UP_TLS_WHY_LEN / 2];
	int err;

	if (!c->tls && !(c->tls = up_tls_new(c->tls_ca, &err))) {
		c->stats.tls_failed++;
		snprintf(c->tls_why, sizeof(c->tls_why),
			 "tls-ca %.120s: %s", c->tls_ca ? c->tls_ca : "(system)",
			 err == -ENOMEM ? "out of memory"
					: "no certificate could be loaded");
		return err;
	}
	if (!r->tls && !(r->tls = up_tls_sess_new(c->tls, r->fd, cur_tls(r))))
		return -ENOMEM;
	err = up_tls_handshake(r->tls, &want, why, sizeof(why));
	if (err == UP_TLS_AGAIN)
		return tls_wait(r, want);
	if (err < 0) {
		char a[80];
		c->stats.tls_failed++;
		up_server_str(cur_server(r), a, sizeof(a));
		snprintf(c->tls_why, sizeof(c->tls_why), "%s (%.60s): %s", a,
			 cur_tls(r), why);
		return err;
	}
	r->tls_ready = true;
	return 1;
}

/* Sends up to len octets: the count, -EAGAIN (waiting set up) or -errno. */
static ssize_t stream_send(struct up_req *r, const uint8_t *buf, size_t len)
{
	enum up_tls_want want;
	ssize_t n;

	if (r->tls) {
		n = up_tls_write(r->tls, buf, len, &want);
		if (n == UP_TLS_AGAIN) {
			int err = tls_wait(r, want);
			return err < 0 ? err : -EAGAIN;
		}
		return n;
	}
	do {
		n = send(r->fd, buf, len, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return n;
}

/* Reads up to len octets: the count, 0 at the end of the stream, -EAGAIN
 * (waiting set up) or -errno. */
static ssize_t stream_recv(struct up_req *r, uint8_t *buf, size_t len)
{
	enum up_tls_want want;
	ssize_t n;

	if (r->tls) {
		n = up_tls_read(r->tls, buf, len, &want);
		if (n == UP_TLS_AGAIN) {
			int err = tls_wait(r, want);
			return err < 0 ? err : -EAGAIN;
		}
		return n;
	}
	do {
		n = recv(r->fd, buf, len, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return n;
}

/* TCP: connection check, the TLS handshake for a TLS server, then the
 * framed query, possibly in pieces. Returns 0 (wait) or -errno. */
static int tcp_send(struct up_req *r)
{
	size_t total = r->qlen + 2;

	if (r->woff == 0 && !r->tls) {
		int soerr = 0;
		socklen_t sl = sizeof(soerr);

		if (getsockopt(r->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0)
			return -errno;
		if (soerr)
			return -soerr;
	}
	if (cur_tls(r) && !r->tls_ready) {
		int ret = tls_start(r);
		if (ret <= 0)
			return ret;
	}
	while (r->woff < total) {
		ssize_t n = stream_send(r, r->query + r->woff, total - r->woff);

		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return (int)n;
		r->woff += (size_t)n;
	}
	return loop_io_mod(r->c->loop, &r->io, LOOP_READ);
}

/* Reads into buf[got..want); returns 1 when complete, 0 to wait, -errno
 * (-ECONNRESET for an early end of stream). */
static int tcp_read(struct up_req *r, uint8_t *buf, size_t *got, size_t want)
{
	while (*got < want) {
		ssize_t n = stream_recv(r, buf + *got, want - *got);

		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return (int)n;
		if (n == 0)
			return -ECONNRESET;
		*got += (size_t)n;
	}
	return 1;
}

/* TCP: the length prefix, then the response. Returns 0 (wait), -errno,
 * or 1 when the response was handled (r may be gone). */
static int tcp_recv(struct up_req *r)
{
	size_t got;
	int ret, rcode = -1;
	enum verdict v;

	if (r->rgot < 2) {
		ret = tcp_read(r, r->lenbuf, &r->rgot, 2);
		if (ret <= 0)
			return ret;
		r->rlen = wire_get16(r->lenbuf);
		r->rbuf = malloc(r->rlen ? r->rlen : 1);
		if (!r->rbuf)
			return -ENOMEM;
	}
	got = r->rgot - 2;
	ret = tcp_read(r, r->rbuf, &got, r->rlen);
	r->rgot = got + 2;
	if (ret <= 0)
		return ret;
	v = check(r, r->rbuf, r->rlen, &rcode);
	if (v == V_DROP) {
		r->c->stats.dropped++;
		return -EPROTO;
	}
	on_response(r, r->rbuf, r->rlen, v, rcode);
	return 1;
}

static void on_tcp(struct loop_io *io, uint32_t revents)
{
	struct up_req *r = io->arg;
	int ret;

	(void)revents;
	if (r->woff < r->qlen + 2)
		ret = tcp_send(r);
	else
		ret = tcp_recv(r);
	if (ret < 0)
		server_failed(r);
}

static void on_timeout(struct loop_timer *t)
{
	struct up_req *r = t->arg;

	r->c->stats.timeouts++;
	if (r->tcp_queued) {
		/* Our own cap, not the server's doing. */
		next_slot(r);
		return;
	}
	SRV_COUNT(r, timeouts, 1);
	observe(r, r->tcp ? CAPAB_TCP_FAIL : CAPAB_UNREACHABLE);
	penalty_add(r->c, cur_server(r));
	next_slot(r);
}

static void on_end(struct loop_timer *t)
{
	struct up_req *r = t->arg;

	unlink_req(r);
	r->c->stats.failed++;
	r->in_cb = true;
	r->cb(r->arg, r->err, NULL, r->last_rcode);
	req_free(r);
}

/* --- the client --- */

struct up_client *up_client_new(struct loop *loop)
{
	struct up_client *c = calloc(1, sizeof(*c));

	if (c) {
		c->loop = loop;
		c->tcpq_timer.cb = tcpq_run;
		c->tcpq_timer.arg = c;
	}
	return c;
}

void up_client_free(struct up_client *c)
{
	if (!c)
		return;
	while (c->reqs)
		up_cancel(c->reqs);
	loop_timer_stop(c->loop, &c->tcpq_timer);
	up_tls_free(c->tls);
	free(c->tls_ca);
	free(c->pen);
	free(c->cookies);
	free(c);
}

static bool conf_has(const struct up_conf *conf, const struct up_server *s)
{
	for (size_t i = 0; i < conf->nns; i++)
		if (up_server_equal(&conf->ns[i], s))
			return true;
	return false;
}

/* Whether the servers of a and b differ (order and options aside). */
static bool servers_differ(const struct up_conf *a, const struct up_conf *b)
{
	if (a->nns != b->nns)
		return true;
	for (size_t i = 0; i < a->nns; i++)
		if (!conf_has(b, &a->ns[i]))
			return true;
	return false;
}

static void set_timing(struct up_req *r, const struct up_conf *conf);

/* A request on the client's servers whose current server left them
 * starts again on the new ones, its time and tries afresh. */
static void restart(struct up_req *r)
{
	struct up_client *c = r->c;

	try_close(r);
	r->slot = 0;
	r->no_edns = false;
	r->edns_formerr = false;
	r->failed = false;
	r->last_rcode = -1;
	r->nns = 0;
	order_servers(c, &c->conf, r);
	if (r->nns == 0) {
		end(r, DT_ENOSERVER);
		return;
	}
	set_timing(r, &c->conf);
	run(r);
}

void up_client_set_conf(struct up_client *c, const struct up_conf *conf)
{
	bool moved = servers_differ(&c->conf, conf);

	c->conf = *conf;
	if (!moved)
		return;
	c->npen = 0; /* what the old network's servers did is past */
	for (struct up_req *r = c->reqs; r; r = r->next)
		if (r->own_conf && !r->ending && !r->in_cb &&
		    !conf_has(conf, cur_server(r)))
			restart(r);
}

int up_client_set_tls_ca(struct up_client *c, const char *path)
{
	char *copy = NULL;

	if (path && path[0] && !(copy = strdup(path)))
		return -ENOMEM;
	free(c->tls_ca);
	c->tls_ca = copy;
	/* A session under way keeps its own reference to the old
	 * settings (SSL_new), so they may go now. */
	up_tls_free(c->tls);
	c->tls = NULL;
	return 0;
}

const char *up_client_tls_error(const struct up_client *c)
{
	return c->tls_why;
}

void up_client_set_capab(struct up_client *c, struct capab *capab, bool apply)
{
	c->capab = capab;
	c->capab_apply = apply;
}

const struct up_conf *up_client_conf(const struct up_client *c)
{
	return &c->conf;
}

void up_client_stats(const struct up_client *c, struct up_stats *ret)
{
	*ret = c->stats;
}

static struct up_req *req_new(struct up_client *c, up_done_fn *cb, void *arg)
{
	struct up_req *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->c = c;
	r->cb = cb;
	r->arg = arg;
	r->fd = -1;
	r->last_rcode = -1;
	r->io.arg = r;
	r->timer.arg = r;
	r->next = c->reqs;
	if (c->reqs)
		c->reqs->prev = r;
	c->reqs = r;
	c->stats.queries++;
	return r;
}

/* The conf's timing, 0 meaning glibc's default. */
static void set_timing(struct up_req *r, const struct up_conf *conf)
{
	unsigned attempts = conf->attempts;

	if (attempts == 0)
		attempts = DT_UP_ATTEMPTS_DEFAULT;
	if (attempts > DT_UP_ATTEMPTS_MAX)
		attempts = DT_UP_ATTEMPTS_MAX;
	r->timeout_ms =
		conf->timeout_ms ? conf->timeout_ms : DT_UP_TIMEOUT_DEFAULT_MS;
	if (r->timeout_ms > DT_UP_TIMEOUT_MAX_MS)
		r->timeout_ms = DT_UP_TIMEOUT_MAX_MS;
	r->nslots = attempts * r->nns;
}

struct up_req *up_query(struct up_client *c, const uint8_t *qname,
			uint16_t qtype, uint16_t qclass,
			const struct up_conf *servers, up_done_fn *cb,
			void *arg)
{
	return up_query_ex(c, qname, qtype, qclass, servers, 0, cb, arg);
}

struct up_req *up_query_ex(struct up_client *c, const uint8_t *qname,
			   uint16_t qtype, uint16_t qclass,
			   const struct up_conf *servers, unsigned flags,
			   up_done_fn *cb, void *arg)
{
	const struct up_conf *conf = servers ? servers : &c->conf;
	struct up_req *r = req_new(c, cb, arg);
	int len;

	if (!r)
		return NULL;
	r->qflags = flags;
	r->qtype = qtype;
	r->qclass = qclass;
	len = wire_dname_check(qname, qname + DT_NAME_MAXLEN);
	if (len < 0) {
		end(r, len);
		return r;
	}
	memcpy(r->qname, qname, (size_t)len);
	r->own_conf = servers == NULL;
	order_servers(c, conf, r);
	if (r->nns == 0) {
		end(r, DT_ENOSERVER);
		return r;
	}
	set_timing(r, conf);
	run(r);
	return r;
}

void up_cancel(struct up_req *r)
{
	if (!r || r->in_cb)
		return;
	try_close(r);
	unlink_req(r);
	req_free(r);
}
