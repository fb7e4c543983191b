/* SPDX-License-Identifier: MIT */
/*
 * Serving clients: the Unix socket and the optional loopback TCP
 * listeners (DNS messages with a two-octet length, RFC 7766), and the
 * UDP listeners. Each question is checked, answered from the cache or
 * handed to a task, and answered within query-timeout in every case.
 * A client that sends garbage gets FORMERR or its connection closed; the
 * worker goes on serving the others.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/log.h"
#include "common/protocol.h"
#include "daemon/admin.h"
#include "daemon/admin_ops.h"
#include "daemon/hotspot.h"
#include "daemon/ratelimit.h"
#include "daemon/resolve.h"
#include "daemon/server.h"
#include "resolver/render.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* What a connection's timer waits for. */
enum conn_wait {
	CONN_WAIT_NONE,		/* questions pending: their deadlines */
	CONN_WAIT_IDLE,		/* nothing asked, nothing owed */
	CONN_WAIT_FRAME,	/* a frame begun and not finished */
	CONN_WAIT_WRITE,	/* replies the client does not read */
};

/* A client connection on a stream socket. */
struct conn {
	struct conn *next, *prev;
	struct worker *w;
	struct loop_io io;
	struct loop_timer timer;	/* idle, frame or write stall */
	struct loop_timer resume;	/* frames left when pending was full */
	struct loop_timer throttle;	/* a remote client over its rate: its
					   next token */
	enum conn_wait wait;		/* what timer is armed for */
	bool admin;			/* peer may flush and reload */
	bool hotspot;			/* peer may sign on (hotspot.h) */
	bool limited;			/* counted against its user's limit */
	bool reject;			/* over a limit: every question is
					   answered SERVFAIL, EDE 14 */
	bool remote;			/* TCP from another than loopback */
	bool addr_counted;		/* counted against its address's
					   limit (until freed) */
	bool throttled;			/* over its rate: not read until
					   throttle fires */
	bool corked;			/* in conn_frames: replies queued,
					   sent together at its end */
	bool closed;
	unsigned refs;			/* 1 while open + 1 per waiter + 1
					   while an event is handled */
	unsigned pending;		/* questions not yet answered */
	struct user_conns *user;	/* its user's entry while counted
					   (until freed: questions under way
					   still count) */
	size_t inlen;
	uint8_t *in;			/* 2 + DT_MSG_MAXLEN octets */
	uint8_t *out;			/* framed replies not yet written */
	size_t outlen, outoff, outcap;
	size_t stall_mark;		/* octets written when the write-stall
					   timer was last armed */
	struct sockaddr_storage peer;	/* a remote client's address */
};

static void conn_update(struct conn *c);

/* --- connections per user --- */

/*
 * Open connections per peer user, for the whole daemon (the workers
 * accept from the same socket): one user cannot take every connection
 * and leave the others' resolvers "unavailable". TCP clients have no
 * user; loopback ones share one entry, CONN_UID_TCP, and remote ones
 * (allow-remote) another, CONN_UID_REMOTE, so that remote clients cannot
 * take the local ones' connections; within that pool each remote address
 * holds at most max-connections-per-address (ratelimit.h counts them).
 * Root and the daemon's own user are not counted.
 */
#define CONN_UID_TCP ((uid_t)-2)
#define CONN_UID_REMOTE ((uid_t)-3)

static pthread_mutex_t users_lock = PTHREAD_MUTEX_INITIALIZER;
static struct user_conns {
	uid_t uid;
	unsigned n;			/* 0: free entry */
	unsigned pending;		/* their questions under way (atomic) */
} users[DT_DMN_MAX_USERS];

/* Counts one more connection of uid if it stays within limit; returns its
 * entry, valid until the matching user_put(), or NULL. */
static struct user_conns *user_take(uid_t uid, unsigned limit)
{
	struct user_conns *free_slot = NULL, *u = NULL;
	bool ok = false;

	pthread_mutex_lock(&users_lock);
	for (size_t i = 0; i < DT_DMN_MAX_USERS && !u; i++) {
		if (users[i].n && users[i].uid == uid)
			u = &users[i];
		else if (!users[i].n && !free_slot)
			free_slot = &users[i];
	}
	if (!u && free_slot) {
		u = free_slot;
		u->uid = uid;
	}
	if (u && u->n < limit) {
		u->n++;
		ok = true;
	}
	pthread_mutex_unlock(&users_lock);
	return ok ? u : NULL;
}

static void user_put(struct user_conns *u)
{
	pthread_mutex_lock(&users_lock);
	u->n--;
	pthread_mutex_unlock(&users_lock);
}

/* Counts one more question under way for u, if within
 * DT_DMN_QUESTIONS_PER_USER. */
static bool user_question_take(struct user_conns *u)
{
	unsigned n = __atomic_add_fetch(&u->pending, 1, __ATOMIC_RELAXED);

	if (n <= DT_DMN_QUESTIONS_PER_USER)
		return true;
	__atomic_sub_fetch(&u->pending, 1, __ATOMIC_RELAXED);
	return false;
}

/* --- remote clients --- */

/* The rates and connection counts of remote addresses: one table for all
 * the workers (a client's datagrams reach several of them: SO_REUSEPORT
 * hashes the source port), made at the first remote client. NULL: out of
 * memory. */
static struct ratelimit *remote_table(struct worker *w)
{
	struct ratelimit *rl, *none = NULL;

	rl = __atomic_load_n(&w->d->rate, __ATOMIC_ACQUIRE);
	if (rl)
		return rl;
	if (!(rl = ratelimit_new()))
		return NULL;
	if (!__atomic_compare_exchange_n(&w->d->rate, &none, rl, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		ratelimit_free(rl);
		rl = none;
	}
	return rl;
}

/* --- connections --- */

static void conn_unref(struct conn *c)
{
	if (--c->refs)
		return;
	if (c->user)
		user_put(c->user);
	if (c->addr_counted)
		ratelimit_conn_put(c->w->d->rate,
				   (const struct sockaddr *)&c->peer);
	free(c->in);
	free(c->out);
	free(c);
}

static void conn_close(struct conn *c)
{
	struct worker *w = c->w;

	if (c->closed)
		return;
	c->closed = true;
	loop_io_del(w->loop, &c->io);
	loop_timer_stop(w->loop, &c->timer);
	loop_timer_stop(w->loop, &c->resume);
	loop_timer_stop(w->loop, &c->throttle);
	close(c->io.fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		w->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	if (c->reject)
		w->nrejecting--;
	else
		w->nconns--;
	if (c->limited)
		w->nlimited--;
	conn_unref(c);
}

static size_t conn_queued(const struct conn *c)
{
	return c->outlen - c->outoff;
}

/* Whether the input buffer starts with a whole frame. */
static bool conn_has_frame(const struct conn *c)
{
	return c->inlen >= 2 &&
	       c->inlen - 2 >= wire_get16(c->in);
}

/* Whether another question may be taken: room for its answer among the
 * pending ones and in the output (cache hits count too), and a remote
 * client within its rate. */
static bool conn_may_take(const struct conn *c)
{
	return !c->throttled && c->pending < DT_DMN_MAX_PENDING &&
	       conn_queued(c) < DT_DMN_MAX_OUTBUF;
}

static void conn_flush(struct conn *c)
{
	bool could_take = conn_may_take(c);

	while (c->outoff < c->outlen) {
		ssize_t n = send(c->io.fd, c->out + c->outoff,
				 c->outlen - c->outoff, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			conn_close(c);
			return;
		}
		c->outoff += (size_t)n;
	}
	if (c->outoff == c->outlen) {
		c->outoff = c->outlen = 0;
		c->stall_mark = 0;
	}
	/* Frames held back while the output was full are taken up from the
	 * loop, not from inside this call (a reply may be on its way out of
	 * a waiter). */
	if (!could_take && conn_may_take(c) && conn_has_frame(c))
		loop_timer_start(c->w->loop, &c->resume, 0);
	conn_update(c);
}

static int conn_queue(struct conn *c, const uint8_t *msg, size_t len)
{
	if (c->outoff && c->outlen + 2 + len > c->outcap) {
		memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
		c->outlen -= c->outoff;
		c->stall_mark -= c->stall_mark < c->outoff ? c->stall_mark
							   : c->outoff;
		c->outoff = 0;
	}
	if (c->outlen + 2 + len > c->outcap) {
		size_t cap = c->outcap ? c->outcap : 4096;
		while (cap < c->outlen + 2 + len)
			cap *= 2;
		uint8_t *n = realloc(c->out, cap);
		if (!n)
			return -ENOMEM;
		c->out = n;
		c->outcap = cap;
	}
	wire_put16(c->out + c->outlen, (uint16_t)len);
	memcpy(c->out + c->outlen + 2, msg, len);
	c->outlen += 2 + len;
	return 0;
}

static void conn_reply(struct conn *c, const uint8_t *msg, size_t len)
{
	if (c->closed)
		return;
	/* Answers to questions taken before the output filled up can still
	 * come; a client that reads none of them loses its connection
	 * rather than pin memory. */
	if (conn_queued(c) + 2 + len > DT_DMN_MAX_OUTBUF_HARD ||
	    conn_queue(c, msg, len) < 0) {
		conn_close(c);
		return;
	}
	if (!c->corked)
		conn_flush(c);
}

static int64_t conn_wait_ms(enum conn_wait wait)
{
	switch (wait) {
	case CONN_WAIT_IDLE: return DT_DMN_IDLE_MS;
	case CONN_WAIT_FRAME: return DT_DMN_FRAME_MS;
	case CONN_WAIT_WRITE: return DT_DMN_WRITE_STALL_MS;
	default: return 0;
	}
}

/* The timer a connection needs: the write stall while replies wait (re-armed
 * as the client reads), the frame timeout while a frame is incomplete,
 * idleness when nothing is asked or owed. */
static void conn_timer(struct conn *c)
{
	enum conn_wait want = CONN_WAIT_NONE;

	if (c->reject) { /* one short life, whatever it does */
		if (c->wait == CONN_WAIT_NONE) {
			c->wait = CONN_WAIT_IDLE;
			loop_timer_start(c->w->loop, &c->timer,
					 DT_DMN_REJECT_MS);
		}
		return;
	}
	if (conn_queued(c))
		want = CONN_WAIT_WRITE;
	else if (c->inlen && !conn_has_frame(c))
		want = CONN_WAIT_FRAME;
	else if (!c->pending && !c->inlen)
		want = CONN_WAIT_IDLE;
	if (want == CONN_WAIT_WRITE && c->wait == want &&
	    c->outoff >= c->stall_mark + DT_DMN_WRITE_PROGRESS)
		c->wait = CONN_WAIT_NONE; /* the client reads: re-armed */
	if (want == c->wait)
		return;
	c->wait = want;
	if (want == CONN_WAIT_NONE) {
		loop_timer_stop(c->w->loop, &c->timer);
		return;
	}
	if (want == CONN_WAIT_WRITE)
		c->stall_mark = c->outoff;
	loop_timer_start(c->w->loop, &c->timer, conn_wait_ms(want));
}

/* Reads while the client has room for more questions and our output is
 * not piling up (backpressure); writes while there is output. */
static void conn_update(struct conn *c)
{
	if (c->closed)
		return;
	uint32_t ev = 0;
	if (conn_may_take(c) && c->inlen < 2 + DT_MSG_MAXLEN)
		ev |= LOOP_READ;
	if (conn_queued(c))
		ev |= LOOP_WRITE;
	if (ev != c->io.events)
		loop_io_mod(c->w->loop, &c->io, ev);
	conn_timer(c);
}

/* --- waiters --- */

static void waiter_deadline(struct loop_timer *t)
{
	struct waiter *wt = t->arg;
	char text[64];

	resolve_detach(wt);
	STAT_INC(wt->w, timeouts);
	snprintf(text, sizeof(text), "no answer within %u ms",
		 wt->w->st->cfg.query_timeout_ms);
	waiter_reply(wt, wt->w->reply_buf,
		     render_error(&wt->rw.q, WIRE_RCODE_SERVFAIL,
				  WIRE_EDE_NO_REACHABLE_AUTHORITY, text,
				  wt->w->reply_buf, sizeof(wt->w->reply_buf)));
}

static struct waiter *waiter_new(struct worker *w, const struct qinfo *q)
{
	struct waiter *wt = calloc(1, sizeof(*wt));

	if (!wt)
		return NULL;
	wt->w = w;
	wt->rw.q = *q;
	wt->udp_fd = -1;
	wt->deadline.cb = waiter_deadline;
	wt->deadline.arg = wt;
	w->nwaiters++;
	return wt;
}

void waiter_free(struct waiter *wt)
{
	loop_timer_stop(wt->w->loop, &wt->deadline);
	wt->w->nwaiters--;
	struct conn *c = wt->conn;
	if (c) {
		if (c->user)
			__atomic_sub_fetch(&c->user->pending, 1,
					   __ATOMIC_RELAXED);
		/* Frames held back while the connection was at its limit
		 * are taken up from the loop, not from inside this call. */
		bool could_take = conn_may_take(c);
		c->pending--;
		if (!could_take && conn_may_take(c) && !c->closed &&
		    conn_has_frame(c))
			loop_timer_start(c->w->loop, &c->resume, 0);
		conn_update(c);
		conn_unref(c);
	}
	free(wt);
}

void waiter_reply(struct waiter *wt, const uint8_t *msg, size_t len)
{
	if (wt->conn) {
		conn_reply(wt->conn, msg, len);
	} else if (wt->udp_fd >= 0) {
		sendto(wt->udp_fd, msg, len, MSG_DONTWAIT,
		       (struct sockaddr *)&wt->peer, wt->peerlen);
	}
	waiter_free(wt);
}

/* --- UDP batches --- */

/* Datagrams taken per recvmmsg(), replies sent per sendmmsg(). */
#define UDP_BATCH 16

/*
 * The datagrams of one recvmmsg() on a UDP listener and the replies to
 * them, which go out together in one sendmmsg() once every datagram is
 * handled: two system calls for a batch of cached answers instead of two
 * per answer. One per worker thread, allocated on first use (about 1 MiB
 * of address space; only the pages datagrams touch become resident).
 * A reply longer than a reply slot (a client's UDP size is at most
 * DT_UP_EDNS_BUFSIZE; only administrative answers can be longer) is
 * sent at once, as all replies were before.
 */
struct udp_batch {
	struct mmsghdr in[UDP_BATCH];
	struct iovec in_iov[UDP_BATCH];
	struct sockaddr_storage peer[UDP_BATCH];
	struct mmsghdr out[UDP_BATCH];
	struct iovec out_iov[UDP_BATCH];
	unsigned nout;
	uint8_t reply[UDP_BATCH][DT_UP_EDNS_BUFSIZE];
	uint8_t pkt[UDP_BATCH][DT_MSG_MAXLEN];
};

static __thread struct udp_batch *udp_batch;

/* Sends the queued replies. One that cannot go (a full socket buffer, an
 * unreachable peer) is dropped and the others still go, as with one
 * sendto() each. */
static void udp_flush(struct udp_batch *b, int fd)
{
	unsigned off = 0;

	while (off < b->nout) {
		int n = sendmmsg(fd, b->out + off, b->nout - off, MSG_DONTWAIT);
		off += n > 0 ? (unsigned)n : 1;
	}
	b->nout = 0;
}

/* --- questions --- */

/* Where the reply to a question goes. */
struct origin {
	struct conn *conn;
	int udp_fd;
	const struct sockaddr_storage *peer;
	socklen_t peerlen;
	struct udp_batch *batch;	/* replies queued here when set */
	bool remote;			/* the client is not on loopback */
};

static void send_now(struct worker *w, const struct origin *o,
		     const uint8_t *msg, size_t len)
{
	struct udp_batch *b = o->batch;

	(void)w;
	if (o->conn) {
		conn_reply(o->conn, msg, len);
	} else if (b && len <= DT_UP_EDNS_BUFSIZE) {
		if (b->nout == UDP_BATCH)
			udp_flush(b, o->udp_fd);
		unsigned i = b->nout++;
		memcpy(b->reply[i], msg, len);
		b->out_iov[i] = (struct iovec){.iov_base = b->reply[i],
					       .iov_len = len};
		b->out[i].msg_hdr = (struct msghdr){
			.msg_name = (void *)o->peer,
			.msg_namelen = o->peerlen,
			.msg_iov = &b->out_iov[i],
			.msg_iovlen = 1,
		};
	} else {
		sendto(o->udp_fd, msg, len, MSG_DONTWAIT,
		       (const struct sockaddr *)o->peer, o->peerlen);
	}
}

/* A reply for a message that could not be parsed: the header's ID, no
 * question (RFC 1035 §4.1.1: FORMERR). */
static void reply_formerr(struct worker *w, const struct origin *o,
			  const uint8_t *pkt, bool udp)
{
	struct qinfo q = {0};

	STAT_INC(w, formerr);
	q.id = wire_get16(pkt);
	q.flags = wire_get16(pkt + 2);
	q.udp_size = udp ? 512 : 0;
	send_now(w, o, w->reply_buf,
		 render_error(&q, WIRE_RCODE_FORMERR, VAL_EDE_NONE, NULL,
			      w->reply_buf, sizeof(w->reply_buf)));
}

static void resolve(struct worker *w, const struct origin *o,
		    const struct qinfo *q)
{
	size_t len = resolve_cached(w, q, w->reply_buf, sizeof(w->reply_buf));

	if (len) {
		STAT_INC(w, cache_hits);
		admin_ops_cache_hit(w, q);
		send_now(w, o, w->reply_buf, len);
		return;
	}
	/* Questions under way: bounded per worker (each holds a waiter until
	 * its answer or query-timeout) and per user of the socket, so that
	 * slow names asked by one cannot take the others' turn. */
	const char *busy = NULL;
	if (w->nwaiters >= DT_DMN_MAX_WAITERS)
		busy = "too many questions under way";
	else if (o->conn && o->conn->user &&
		 !user_question_take(o->conn->user))
		busy = "too many questions under way from this user";
	if (busy) {
		STAT_INC(w, refused);
		send_now(w, o, w->reply_buf,
			 render_error(q, WIRE_RCODE_SERVFAIL,
				      WIRE_EDE_NOT_READY, busy, w->reply_buf,
				      sizeof(w->reply_buf)));
		return;
	}
	struct waiter *wt = waiter_new(w, q);
	if (!wt) {
		if (o->conn && o->conn->user)
			__atomic_sub_fetch(&o->conn->user->pending, 1,
					   __ATOMIC_RELAXED);
		send_now(w, o, w->reply_buf,
			 render_error(q, WIRE_RCODE_SERVFAIL, WIRE_EDE_OTHER,
				      "out of memory", w->reply_buf,
				      sizeof(w->reply_buf)));
		return;
	}
	if (o->conn) {
		wt->conn = o->conn;
		o->conn->refs++;
		o->conn->pending++;
	} else {
		wt->udp_fd = o->udp_fd;
		memcpy(&wt->peer, o->peer, o->peerlen);
		wt->peerlen = o->peerlen;
	}
	loop_timer_start(w->loop, &wt->deadline, w->st->cfg.query_timeout_ms);
	resolve_submit(w, wt);
}

/* A datagram from another address than loopback: from a network of
 * allow-remote, and within its rate; dropped otherwise (an answer would
 * serve a reflection). */
static bool remote_admit(struct worker *w, const struct sockaddr_storage *peer)
{
	const struct cfg *cfg = &w->st->cfg;
	struct ratelimit *rl;

	if (!cfg_nets_match(cfg->allow, cfg->nallow,
			    (const struct sockaddr *)peer))
		return false;
	if (!(rl = remote_table(w)))
		return false;
	if (!ratelimit_take(rl, (const struct sockaddr *)peer,
			    cfg->ratelimit, loop_now_ms(w->loop))) {
		STAT_INC(w, refused);
		return false;
	}
	return true;
}

static void handle(struct worker *w, const struct origin *o,
		   const uint8_t *pkt, size_t len, bool admin, bool hotspot)
{
	bool udp = o->conn == NULL;
	struct qinfo q;
	int err;

	if (len < DT_MSG_HDRLEN || (pkt[2] & 0x80))
		return; /* not a query: nothing sensible to answer */
	if (udp && o->remote && !remote_admit(w, o->peer))
		return;
	struct wire_msg *m = wire_msg_parse(pkt, len, 0, &err);
	if (!m || !m->has_question) {
		wire_msg_free(m);
		reply_formerr(w, o, pkt, udp);
		return;
	}
	STAT_INC(w, queries);
	qinfo_from_msg(&q, m, udp, admin, hotspot);
	unsigned opcode = WIRE_OPCODE(m->hdr.flags);
	wire_msg_free(m);
	uint16_t rcode = WIRE_RCODE_NOERROR;
	const char *why = NULL;
	if (o->conn && o->conn->reject) {
		STAT_INC(w, refused);
		send_now(w, o, w->reply_buf,
			 render_error(&q, WIRE_RCODE_SERVFAIL,
				      WIRE_EDE_NOT_READY,
				      "too many connections; try again",
				      w->reply_buf, sizeof(w->reply_buf)));
		return;
	}
	if (opcode != WIRE_OPCODE_QUERY) {
		rcode = WIRE_RCODE_NOTIMP;
	} else if (q.qclass == WIRE_CLASS_CH && o->remote) {
		rcode = WIRE_RCODE_REFUSED;
		why = "administrative names are for local clients";
		STAT_INC(w, refused);
	} else if (q.qclass == WIRE_CLASS_CH) {
		send_now(w, o, w->reply_buf,
			 admin_answer(w, &q, w->reply_buf,
				      sizeof(w->reply_buf)));
		return;
	} else if (q.qclass != WIRE_CLASS_IN) {
		rcode = WIRE_RCODE_REFUSED;
		why = "only class IN is resolved";
	} else if (qinfo_type_unsupported(q.qtype)) {
		rcode = WIRE_RCODE_NOTIMP;
		why = "query type not supported";
	}
	if (rcode != WIRE_RCODE_NOERROR) {
		uint16_t ede = !why ? VAL_EDE_NONE
			       : q.qclass == WIRE_CLASS_CH ? WIRE_EDE_PROHIBITED
							   : WIRE_EDE_NOT_SUPPORTED;
		send_now(w, o, w->reply_buf,
			 render_error(&q, rcode, ede, why, w->reply_buf,
				      sizeof(w->reply_buf)));
		return;
	}
	resolve(w, o, &q);
}

/* --- stream connections --- */

static void conn_timeout(struct loop_timer *t)
{
	conn_close(t->arg);
}

/*
 * A question from a remote client takes a token of its address, from the
 * bucket its datagrams use too. Without one, the connection is not read
 * until a token is due (a timer): the stream cannot be spoofed, and a
 * question dropped from it would leave the client waiting, so the client
 * is slowed to its rate and nothing it asked is lost.
 */
static bool conn_rate_take(struct conn *c)
{
	struct worker *w = c->w;
	struct ratelimit *rl = remote_table(w);
	int64_t wait = 1000; /* out of memory: try again in a second */

	if (rl)
		wait = ratelimit_wait(rl, (const struct sockaddr *)&c->peer,
				      w->st->cfg.ratelimit,
				      loop_now_ms(w->loop));
	if (!wait)
		return true;
	c->throttled = true;
	loop_timer_start(w->loop, &c->throttle, wait);
	return false;
}

/* Handles every complete frame in the input buffer while the connection
 * may take questions. */
static void conn_frames(struct conn *c)
{
	size_t off = 0;
	struct origin o = {.conn = c, .udp_fd = -1, .remote = c->remote};

	c->refs++;
	/* The answers found at once (cache hits: a client's A and AAAA
	 * sent together) leave in one send, so that the client wakes once
	 * for them, not once per answer. */
	c->corked = true;
	while (!c->closed && c->inlen - off >= 2 && conn_may_take(c)) {
		size_t len = wire_get16(c->in + off);
		if (len < DT_MSG_HDRLEN) {
			conn_close(c); /* not DNS: stop listening to it */
			break;
		}
		if (c->inlen - off - 2 < len)
			break;
		if (c->remote && !conn_rate_take(c))
			break;
		handle(c->w, &o, c->in + off + 2, len, c->admin, c->hotspot);
		off += 2 + len;
	}
	if (!c->closed && off) {
		memmove(c->in, c->in + off, c->inlen - off);
		c->inlen -= off;
		if (c->wait == CONN_WAIT_FRAME)
			c->wait = CONN_WAIT_NONE; /* a new frame: its own time */
	}
	c->corked = false;
	if (!c->closed && c->outoff < c->outlen)
		conn_flush(c);
	conn_update(c);
	conn_unref(c);
}

static void conn_resume(struct loop_timer *t)
{
	struct conn *c = t->arg;

	if (!c->closed)
		conn_frames(c);
}

/* A token is due: the frames held back are taken up, and reading goes on
 * (conn_frames' conn_update). */
static void conn_unthrottle(struct loop_timer *t)
{
	struct conn *c = t->arg;

	c->throttled = false;
	if (!c->closed)
		conn_frames(c);
}

static void conn_io(struct conn *c, uint32_t ev)
{
	size_t room = 2 + DT_MSG_MAXLEN - c->inlen;

	if (ev & LOOP_WRITE)
		conn_flush(c);
	if (c->closed || !(ev & (LOOP_READ | LOOP_ERROR)) || !room)
		return;
	ssize_t n = recv(c->io.fd, c->in + c->inlen, room, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		conn_close(c);
		return;
	}
	if (n > 0) {
		c->inlen += (size_t)n;
		conn_frames(c);
	}
}

/* The event holds a reference: a failed write closes the connection,
 * and the waiters' references may be all that kept it. */
static void conn_event(struct loop_io *io, uint32_t ev)
{
	struct conn *c = io->arg;

	c->refs++;
	conn_io(c, ev);
	conn_unref(c);
}

/* How an accepted connection is to be served. */
struct peer {
	uid_t uid;		/* CONN_UID_TCP or CONN_UID_REMOTE for TCP
				   clients */
	bool admin;		/* may flush and reload */
	bool hotspot;		/* may sign on (hotspot.h) */
	bool exempt;		/* root or the daemon's user: never limited */
	bool remote;		/* TCP from another than loopback */
	struct sockaddr_storage addr;	/* a remote peer's address */
};

/* Counts a remote client's connection against its address's limit; false
 * when over it (or out of memory). */
static bool conn_addr_take(struct worker *w, const struct peer *p)
{
	struct ratelimit *rl = remote_table(w);

	return rl && ratelimit_conn_take(rl, (const struct sockaddr *)&p->addr,
					 w->st->cfg.max_conns_per_address);
}

static void conn_new(struct worker *w, int fd, const struct peer *p)
{
	struct user_conns *user = NULL;
	bool limited = false, reject = false, addr_counted = false;

	if (!p->exempt) {
		unsigned per_user = w->st->cfg.max_conns_per_user;
		reject = w->nlimited >= DT_DMN_MAX_CONNS ||
			 (p->remote && !(addr_counted = conn_addr_take(w, p))) ||
			 !(user = user_take(p->uid, per_user));
		limited = !reject;
	}
	if (reject && addr_counted) {
		ratelimit_conn_put(w->d->rate, (const struct sockaddr *)&p->addr);
		addr_counted = false;
	}
	if (reject && w->nrejecting >= DT_DMN_MAX_REJECTING) {
		close(fd); /* past every limit: nothing better to do */
		return;
	}
	struct conn *c = calloc(1, sizeof(*c));
	if (c)
		c->in = malloc(2 + DT_MSG_MAXLEN);
	if (!c || !c->in) {
		if (c)
			free(c->in);
		free(c);
		if (user)
			user_put(user);
		if (addr_counted)
			ratelimit_conn_put(w->d->rate,
					   (const struct sockaddr *)&p->addr);
		close(fd);
		return;
	}
	c->w = w;
	c->admin = p->admin;
	c->hotspot = p->hotspot;
	c->user = user;
	c->limited = limited;
	c->reject = reject;
	c->remote = p->remote;
	c->addr_counted = addr_counted;
	if (p->remote)
		c->peer = p->addr;
	c->refs = 1;
	c->io.cb = conn_event;
	c->io.arg = c;
	c->timer.cb = conn_timeout;
	c->timer.arg = c;
	c->resume.cb = conn_resume;
	c->resume.arg = c;
	c->throttle.cb = conn_unthrottle;
	c->throttle.arg = c;
	if (loop_io_add(w->loop, &c->io, fd, LOOP_READ) < 0) {
		conn_unref(c); /* frees c, with its user's and address's
				  counts */
		close(fd);
		return;
	}
	c->next = w->conns;
	if (w->conns)
		w->conns->prev = c;
	w->conns = c;
	if (reject)
		w->nrejecting++;
	else
		w->nconns++;
	if (limited)
		w->nlimited++;
	conn_update(c);
}

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59 /* Linux 4.13 */
#endif

/* Whether the peer may sign on (hotspot.h): by its uid or primary group
 * (SO_PEERCRED), or one of its supplementary groups (SO_PEERGROUPS; a
 * peer in more than DT_DMN_PEER_GROUPS groups, which the kernel then
 * does not give, is judged by its primary group alone). */
static bool peer_hotspot(struct worker *w, int fd, const struct ucred *cr)
{
	gid_t groups[DT_DMN_PEER_GROUPS];
	socklen_t len = sizeof(groups);

	if (hotspot_peer_allowed(w->d, cr->uid, cr->gid))
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
		return false;
	for (size_t i = 0; i < len / sizeof(gid_t) && i < DT_DMN_PEER_GROUPS;
	     i++)
		if (hotspot_peer_allowed(w->d, (uid_t)-1, groups[i]))
			return true;
	return false;
}

/* Who is on the other end (SO_PEERCRED on the Unix socket): root and the
 * daemon's own user may use administrative names and are never limited. */
static void peer_of(struct worker *w, int fd, bool is_unix, struct peer *p)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	*p = (struct peer){.uid = CONN_UID_TCP};
	if (!is_unix)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0) {
		p->uid = (uid_t)-1;
		return;
	}
	p->uid = cr.uid;
	p->admin = p->exempt = cr.uid == 0 || cr.uid == w->d->admin_uid;
	p->hotspot = peer_hotspot(w, fd, &cr);
}

static void accept_resume(struct loop_timer *t)
{
	struct worker *w = t->arg;

	loop_io_mod(w->loop, &w->unix_io, LOOP_READ);
	for (size_t i = 0; i < w->d->ntcp; i++)
		loop_io_mod(w->loop, &w->tcp_io[i], LOOP_READ);
}

/* Out of file descriptors (or kernel memory): the pending connection
 * cannot be taken, and the listener would stay readable and spin the
 * loop. Stop accepting for a while; connections closing make room. */
static void accept_pause(struct worker *w, int err)
{
	int64_t now = loop_now_ms(w->loop);

	loop_io_mod(w->loop, &w->unix_io, 0);
	for (size_t i = 0; i < w->d->ntcp; i++)
		loop_io_mod(w->loop, &w->tcp_io[i], 0);
	w->accept_timer.cb = accept_resume;
	w->accept_timer.arg = w;
	loop_timer_start(w->loop, &w->accept_timer, DT_DMN_ACCEPT_PAUSE_MS);
	if (now - w->accept_logged >= 60000 || !w->accept_logged) {
		w->accept_logged = now;
		log_warn("accept: %s; not accepting for %d ms", strerror(err),
			 DT_DMN_ACCEPT_PAUSE_MS);
	}
}

static void accept_event(struct loop_io *io, uint32_t ev)
{
	struct worker *w = io->arg;
	bool is_unix = io == &w->unix_io;
	struct peer p;

	(void)ev;
	for (int i = 0; i < 16; i++) {
		struct sockaddr_storage sa;
		socklen_t salen = sizeof(sa);
		int fd = accept4(io->fd, (struct sockaddr *)&sa, &salen,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM)
				accept_pause(w, errno);
			else if (errno != EAGAIN && errno != EINTR &&
				 errno != ECONNABORTED)
				log_warn("accept: %s", strerror(errno));
			return;
		}
		peer_of(w, fd, is_unix, &p);
		if (!is_unix && !cfg_addr_loopback((struct sockaddr *)&sa)) {
			const struct cfg *cfg = &w->st->cfg;
			if (!cfg_nets_match(cfg->allow, cfg->nallow,
					    (struct sockaddr *)&sa)) {
				close(fd);
				continue;
			}
			p.remote = true;
			p.uid = CONN_UID_REMOTE;
			p.addr = sa;
		}
		conn_new(w, fd, &p);
	}
}

/* --- UDP --- */

/* One datagram at a time, when no batch could be allocated. */
static void udp_event_single(struct worker *w, int fd)
{
	uint8_t *pkt = w->udp_pkt;

	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);
		ssize_t n = recvfrom(fd, pkt, sizeof(w->udp_pkt), MSG_DONTWAIT,
				     (struct sockaddr *)&peer, &plen);
		if (n < 0)
			return;
		struct origin o = {
			.udp_fd = fd, .peer = &peer, .peerlen = plen,
			.remote = !cfg_addr_loopback((struct sockaddr *)&peer),
		};
		handle(w, &o, pkt, (size_t)n, false, false);
	}
}

/* Up to 64 datagrams per event, as UDP_BATCH-sized batches; the loop
 * comes back while the socket stays readable. */
static void udp_event(struct loop_io *io, uint32_t ev)
{
	struct worker *w = io->arg;
	struct udp_batch *b = udp_batch;

	(void)ev;
	if (!b && !(b = udp_batch = calloc(1, sizeof(*b)))) {
		udp_event_single(w, io->fd);
		return;
	}
	for (int round = 0; round < 64 / UDP_BATCH; round++) {
		for (unsigned i = 0; i < UDP_BATCH; i++) {
			b->in_iov[i] = (struct iovec){.iov_base = b->pkt[i],
						      .iov_len = DT_MSG_MAXLEN};
			b->in[i].msg_hdr = (struct msghdr){
				.msg_name = &b->peer[i],
				.msg_namelen = sizeof(b->peer[i]),
				.msg_iov = &b->in_iov[i],
				.msg_iovlen = 1,
			};
		}
		int n = recvmmsg(io->fd, b->in, UDP_BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			return;
		for (int i = 0; i < n; i++) {
			struct origin o = {
				.udp_fd = io->fd,
				.peer = &b->peer[i],
				.peerlen = b->in[i].msg_hdr.msg_namelen,
				.batch = b,
				.remote = !cfg_addr_loopback(
					(struct sockaddr *)&b->peer[i]),
			};
			handle(w, &o, b->pkt[i], b->in[i].msg_len, false,
			       false);
		}
		udp_flush(b, io->fd);
		if (n < UDP_BATCH)
			return; /* drained: epoll says when more come */
	}
}

/* --- a worker's listeners --- */

int server_attach(struct worker *w, const int *udp_fds)
{
	struct daemon *d = w->d;
	int r;

	w->reply = waiter_reply;
	w->unix_io.cb = accept_event;
	w->unix_io.arg = w;
	if ((r = loop_io_add(w->loop, &w->unix_io, d->unix_fd, LOOP_READ)) < 0)
		return r;
	for (size_t i = 0; i < d->ntcp; i++) {
		w->tcp_io[i].cb = accept_event;
		w->tcp_io[i].arg = w;
		r = loop_io_add(w->loop, &w->tcp_io[i], d->tcp_fd[i],
				LOOP_READ);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < d->nudp; i++) {
		w->udp_io[i].cb = udp_event;
		w->udp_io[i].arg = w;
		r = loop_io_add(w->loop, &w->udp_io[i], udp_fds[i], LOOP_READ);
		if (r < 0)
			return r;
	}
	return 0;
}

void server_detach(struct worker *w)
{
	struct daemon *d = w->d;

	/* First the questions under way, answered SERVFAIL while the UDP
	 * sockets are still open to carry their replies. */
	resolve_shutdown(w);
	loop_timer_stop(w->loop, &w->accept_timer);
	loop_io_del(w->loop, &w->unix_io);
	for (size_t i = 0; i < d->ntcp; i++)
		loop_io_del(w->loop, &w->tcp_io[i]);
	for (size_t i = 0; i < d->nudp; i++) {
		loop_io_del(w->loop, &w->udp_io[i]);
		close(w->udp_io[i].fd);
	}
	free(udp_batch);
	udp_batch = NULL;
	while (w->conns)
		conn_close(w->conns);
}
