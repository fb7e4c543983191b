/* SPDX-License-Identifier: MIT */
/*
 * src/upstream/transport.c over real sockets on loopback: tiny fake
 * nameservers on 127.0.4.x, run by a thread of this test, each told how
 * to misbehave (answer, stay silent, SERVFAIL, refuse EDNS, truncate,
 * send spoofed packets before the answer, flood). Every fake answers
 * A 192.0.2.N over UDP and A 198.51.100.N over TCP, N being its number,
 * so the test sees who answered and how. Also: the source ports the
 * client draws, and its cap on TCP connections against a server that
 * truncates over UDP and never answers over TCP. 0x20: whether the case
 * was echoed, strict mode dropping a response in another case, and the
 * question handed back in the case asked.
 */
#include <errno.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "common/loop.h"
#include "upstream/capab.h"
#include "upstream/transport.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "tap.h"

/* --- fake nameservers --- */

enum behave {
	B_ANSWER,
	B_UPPER, /* answers with the question in upper case */
	B_SILENT,
	B_SERVFAIL,
	B_REFUSED,
	B_FORMERR_EDNS, /* FORMERR to EDNS queries, answers the others */
	B_BARE_EDNS,	/* the same with a bare header (no question) */
	B_FORMERR_ALL,	/* FORMERR to every query */
	B_TC,		/* TC=1 over UDP, the answer over TCP */
	B_SPOOF,	/* junk and near-misses, then the answer */
	B_FLOOD,	/* 100 packets with wrong IDs, no answer */
	B_TC_HANG,	/* TC=1 over UDP; TCP connections accepted, held
			   open, never read */
	B_TC_TCP,	/* TC=1 over UDP and over TCP */
	B_COOKIE,	/* answers with the client cookie and a server one */
	B_COOKIE_BAD,	/* answers with a client cookie not the query's */
	B_MALFORMED,	/* answers with an A record of 5 octets */
};

enum { NFAKE = 4 };

struct fake {
	int n; /* 1..NFAKE: 127.0.4.n, answers x.x.x.n */
	int udp, tcp;
	struct sockaddr_in addr;
	_Atomic int mode;
	_Atomic int udp_queries, tcp_queries, edns_queries;
	_Atomic int last_flags, last_do, last_bufsize, last_port;
	_Atomic int last_cookie;  /* the query's COOKIE length, -1: none */
	uint8_t client_cookie[8]; /* the last query's */
};

static struct fake fakes[NFAKE];

/* The source port of every UDP query (test_ports). */
enum { MAXPORTS = 1024 };
static _Atomic int nports;
static uint16_t seen_ports[MAXPORTS];

/* Connections B_TC_HANG holds. */
enum { MAXHELD = 600 };
static int held[MAXHELD];
static int nheld;
static atomic_int fakes_stop;
static pthread_t fake_thread;

struct reply {
	uint16_t id;
	uint16_t flags; /* besides QR and the query's RD/CD */
	bool question;
	const uint8_t *qname; /* the question's name; NULL: the query's */
	uint8_t addr[4];      /* the A record; addr[0] == 0: none */
	const uint8_t *opt;   /* EDNS options of the reply */
	size_t optlen;
	bool bad_rdata; /* the A record's RDATA one octet too long */
};

static size_t build_reply(const struct wire_msg *q, const struct reply *r,
			  uint8_t *out, size_t cap)
{
	struct wire_builder b;
	const uint8_t *qname = r->qname ? r->qname : q->qname;
	uint8_t five[5] = {r->addr[0], r->addr[1], r->addr[2], r->addr[3], 0};
	struct wire_rr rr = {
		.owner = qname,
		.type = WIRE_TYPE_A,
		.rclass = WIRE_CLASS_IN,
		.ttl = 60,
		.rdlen = r->bad_rdata ? 5 : 4,
		.rdata = r->bad_rdata ? five : r->addr,
	};

	wire_build_init(
		&b, out, cap, r->id,
		(uint16_t)(WIRE_FLAG_QR | WIRE_FLAG_RA | r->flags |
			   (q->hdr.flags & (WIRE_FLAG_RD | WIRE_FLAG_CD))));
	if (r->question)
		wire_build_question(&b, qname, q->qtype, q->qclass);
	if (r->question && r->addr[0])
		wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	if (r->question && q->edns.present)
		wire_build_opt(&b, 1232, 0, 0, q->edns.flags, r->opt,
			       r->optlen);
	return wire_build_finish(&b);
}

static void send_reply(int fd, const struct sockaddr_in *to,
		       const struct wire_msg *q, const struct reply *r)
{
	uint8_t out[1024];
	size_t len = build_reply(q, r, out, sizeof(out));

	sendto(fd, out, len, 0, (const struct sockaddr *)to, sizeof(*to));
}

static void udp_spoof(struct fake *f, const struct sockaddr_in *to,
		      const struct wire_msg *q)
{
	static const uint8_t other[] = "\7example\3org";
	struct reply r = {.id = (uint16_t)(q->hdr.id + 1),
			  .question = true,
			  .addr = {203, 0, 113, 66}};

	send_reply(f->udp, to, q, &r); /* wrong ID */
	r.id = q->hdr.id;
	r.qname = other;
	send_reply(f->udp, to, q, &r); /* wrong question */
	r.qname = NULL;
	r.flags = 0x0800; /* opcode IQUERY */
	send_reply(f->udp, to, q, &r);
	sendto(f->udp, "junk!", 5, 0, (const struct sockaddr *)to,
	       sizeof(*to)); /* not DNS at all */
	r.flags = 0;
	r.addr[0] = 0;
	r.question = false;
	send_reply(f->udp, to, q, &r); /* NOERROR, no question */
}

/* The query's COOKIE option: its length (client cookie to client),
 * -1 without one. */
static int query_cookie(const struct wire_msg *q, uint8_t *client)
{
	const uint8_t *data;
	uint16_t code, len;
	size_t pos = 0;

	while (wire_edns_opt_next(&q->edns, &pos, &code, &data, &len) == 1) {
		if (code != 10)
			continue;
		if (len >= 8)
			memcpy(client, data, 8);
		return len;
	}
	return -1;
}

/* The reply's COOKIE option: the client cookie, then the server's. */
static uint8_t cookie_reply[4 + 16];

static void udp_query(struct fake *f)
{
	uint8_t buf[4096];
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	ssize_t n = recvfrom(f->udp, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &fl);
	struct wire_msg *q;
	struct reply r = {.question = true, .addr = {192, 0, 2, (uint8_t)f->n}};
	uint8_t upper[DT_NAME_MAXLEN];
	int err, mode = f->mode;

	if (n <= 0 || !(q = wire_msg_parse(buf, (size_t)n, 0, &err)))
		return;
	f->udp_queries++;
	f->edns_queries += q->edns.present;
	f->last_flags = q->hdr.flags;
	f->last_do = q->edns.present && (q->edns.flags & WIRE_EDNS_DO);
	f->last_bufsize = q->edns.present ? q->edns.udp_size : 0;
	f->last_port = ntohs(from.sin_port);
	if (nports < MAXPORTS)
		seen_ports[nports++] = ntohs(from.sin_port);
	r.id = q->hdr.id;
	f->last_cookie = query_cookie(q, f->client_cookie);
	switch (mode) {
	case B_SILENT: break;
	case B_COOKIE:
	case B_COOKIE_BAD:
		r.opt = cookie_reply;
		r.optlen = sizeof(cookie_reply);
		wire_put16(cookie_reply, 10);
		wire_put16(cookie_reply + 2, 16);
		memcpy(cookie_reply + 4, f->client_cookie, 8);
		memcpy(cookie_reply + 12, "servcook", 8);
		if (mode == B_COOKIE_BAD)
			cookie_reply[4] ^= 0xff;
		send_reply(f->udp, &from, q, &r);
		break;
	case B_UPPER:
		wire_dname_copy(upper, q->qname);
		for (size_t i = 0; i < wire_dname_len(upper); i++)
			if (upper[i] >= 'a' && upper[i] <= 'z')
				upper[i] -= 32;
		r.qname = upper;
		send_reply(f->udp, &from, q, &r);
		break;
	case B_SERVFAIL:
	case B_REFUSED:
	case B_FORMERR_ALL:
		r.flags = mode == B_SERVFAIL ? 2 : mode == B_REFUSED ? 5 : 1;
		r.addr[0] = 0;
		send_reply(f->udp, &from, q, &r);
		break;
	case B_FORMERR_EDNS:
	case B_BARE_EDNS:
		if (q->edns.present) {
			r.flags = WIRE_RCODE_FORMERR;
			r.addr[0] = 0;
			r.question = mode == B_FORMERR_EDNS;
		}
		send_reply(f->udp, &from, q, &r);
		break;
	case B_TC:
	case B_TC_HANG:
	case B_TC_TCP:
		r.flags = WIRE_FLAG_TC;
		r.addr[0] = 0;
		send_reply(f->udp, &from, q, &r);
		break;
	case B_SPOOF:
		udp_spoof(f, &from, q);
		send_reply(f->udp, &from, q, &r);
		break;
	case B_MALFORMED:
		r.bad_rdata = true;
		send_reply(f->udp, &from, q, &r);
		break;
	case B_FLOOD:
		r.id = (uint16_t)(q->hdr.id ^ 0x5555);
		for (int i = 0; i < 100; i++)
			send_reply(f->udp, &from, q, &r);
		break;
	default: send_reply(f->udp, &from, q, &r);
	}
	wire_msg_free(q);
}

static bool read_full(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, 0);

		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* One TCP exchange; the reply goes out in two pieces 30 ms apart, so the
 * client sees a partial read. */
static void tcp_query(struct fake *f)
{
	int fd = accept(f->tcp, NULL, NULL);
	struct timeval tv = {2, 0};
	struct timespec pause = {0, 30 * 1000 * 1000};
	uint8_t len[2], buf[4096], out[1026];
	struct reply r = {.question = true,
			  .addr = {198, 51, 100, (uint8_t)f->n}};
	struct wire_msg *q = NULL;
	size_t n;
	int err;

	if (fd < 0)
		return;
	if (f->mode == B_TC_HANG) {
		if (nheld < MAXHELD)
			held[nheld++] = fd;
		else
			close(fd);
		return;
	}
	if (f->mode == B_TC_TCP)
		r = (struct reply){.question = true, .flags = WIRE_FLAG_TC};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (read_full(fd, len, 2) && read_full(fd, buf, wire_get16(len)))
		q = wire_msg_parse(buf, wire_get16(len), 0, &err);
	if (q) {
		f->tcp_queries++;
		r.id = q->hdr.id;
		n = build_reply(q, &r, out + 2, sizeof(out) - 2);
		out[0] = (uint8_t)(n >> 8);
		out[1] = (uint8_t)n;
		send(fd, out, 7, MSG_NOSIGNAL);
		nanosleep(&pause, NULL);
		send(fd, out + 7, n + 2 - 7, MSG_NOSIGNAL);
		wire_msg_free(q);
	}
	close(fd);
}

static void *fake_main(void *arg)
{
	struct pollfd p[2 * NFAKE];

	(void)arg;
	for (int i = 0; i < NFAKE; i++) {
		p[2 * i] =
			(struct pollfd){.fd = fakes[i].udp, .events = POLLIN};
		p[2 * i + 1] =
			(struct pollfd){.fd = fakes[i].tcp, .events = POLLIN};
	}
	while (!fakes_stop) {
		if (poll(p, 2 * NFAKE, 20) <= 0)
			continue;
		for (int i = 0; i < NFAKE; i++) {
			if (p[2 * i].revents & POLLIN)
				udp_query(&fakes[i]);
			if (p[2 * i + 1].revents & POLLIN)
				tcp_query(&fakes[i]);
		}
	}
	return NULL;
}

/* UDP and TCP on 127.0.4.n, on one port the kernel picks. */
static bool fake_open(struct fake *f, int n)
{
	for (int tries = 0; tries < 20; tries++) {
		socklen_t al = sizeof(f->addr);

		f->n = n;
		memset(&f->addr, 0, sizeof(f->addr));
		f->addr.sin_family = AF_INET;
		f->addr.sin_addr.s_addr = htonl(0x7F000400u | (unsigned)n);
		f->udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		f->tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (bind(f->udp, (struct sockaddr *)&f->addr, al) == 0 &&
		    getsockname(f->udp, (struct sockaddr *)&f->addr, &al) ==
			    0 &&
		    bind(f->tcp, (struct sockaddr *)&f->addr, al) == 0 &&
		    listen(f->tcp, 16) == 0)
			return true;
		close(f->udp);
		close(f->tcp);
	}
	return false;
}

static void fakes_reset(void)
{
	while (nheld > 0)
		close(held[--nheld]);
	for (int i = 0; i < NFAKE; i++) {
		fakes[i].mode = B_ANSWER;
		fakes[i].udp_queries = fakes[i].tcp_queries = 0;
		fakes[i].edns_queries = 0;
	}
}

/* --- the client side --- */

static struct loop *L;

struct result {
	bool done;
	int calls;
	int err;
	int last_rcode;
	uint8_t a[4];
	bool tcp, no_edns, case_echoed;
	bool as_asked; /* the question's name byte for byte as asked */
	int server; /* the fake that answered, 0 if none */
	bool question_ok;
	int64_t end_ms;
};

static const uint8_t QNAME[] = "\3www\7example\3com";

/* The fake a server address belongs to. */
static int fake_of(const struct up_server *s)
{
	for (int i = 0; i < NFAKE; i++) {
		if (memcmp(&s->addr, &fakes[i].addr, sizeof(fakes[i].addr)) ==
		    0)
			return i + 1;
	}
	return 0;
}

static void record(struct result *res, int err, const struct up_answer *ans,
		   int last_rcode)
{
	struct wire_msg *m;
	int perr;

	res->done = true;
	res->calls++;
	res->err = err;
	res->last_rcode = last_rcode;
	res->end_ms = loop_now_ms(L);
	if (!ans)
		return;
	res->tcp = ans->tcp;
	res->no_edns = ans->no_edns;
	res->case_echoed = ans->case_echoed;
	res->server = fake_of(ans->server);
	m = wire_msg_parse(ans->msg, ans->len, 0, &perr);
	if (!m)
		return;
	res->question_ok = m->has_question;
	res->as_asked = m->has_question &&
			memcmp(m->qname, QNAME, sizeof(QNAME)) == 0 &&
			m->count[WIRE_SEC_ANSWER] == 1 &&
			memcmp(m->sec[WIRE_SEC_ANSWER]->owner, QNAME,
			       sizeof(QNAME)) == 0;
	if (m->count[WIRE_SEC_ANSWER] == 1 &&
	    m->sec[WIRE_SEC_ANSWER]->rdlen == 4)
		memcpy(res->a, m->sec[WIRE_SEC_ANSWER]->rdata, 4);
	wire_msg_free(m);
}

static void done_stop(void *arg, int err, const struct up_answer *ans,
		      int last_rcode)
{
	record(arg, err, ans, last_rcode);
	loop_stop(L);
}

static void done_nostop(void *arg, int err, const struct up_answer *ans,
			int last_rcode)
{
	record(arg, err, ans, last_rcode);
}

static void stop_cb(struct loop_timer *t)
{
	(void)t;
	loop_stop(L);
}

static void run_for(int64_t ms)
{
	struct loop_timer t = {.cb = stop_cb};

	loop_timer_start(L, &t, ms);
	loop_run(L);
	loop_timer_stop(L, &t);
}

/* A conf with the given fakes (1-based numbers; 9 is 127.0.4.9 where
 * nothing listens), timeout_ms 200, attempts 1 unless said. */
static struct up_conf conf_of(int n, const int *which, unsigned attempts)
{
	struct up_conf c = {.timeout_ms = 200, .attempts = attempts};

	for (int i = 0; i < n; i++) {
		if (which[i] == 9) {
			struct sockaddr_in *s = (void *)&c.ns[i].addr;

			*s = fakes[0].addr;
			s->sin_addr.s_addr = htonl(0x7F000409u);
			c.ns[i].addrlen = sizeof(*s);
			continue;
		}
		memcpy(&c.ns[i].addr, &fakes[which[i] - 1].addr,
		       sizeof(fakes[0].addr));
		c.ns[i].addrlen = sizeof(fakes[0].addr);
	}
	c.nns = (size_t)n;
	return c;
}

/* Asks once with its own client and waits (at most 5 s). */
static struct result ask_with(struct up_client *c, const struct up_conf *conf,
			      int64_t *elapsed)
{
	struct result res = {0};
	int64_t t0 = loop_now_ms(L);

	up_client_set_conf(c, conf);
	if (!up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL, done_stop,
		      &res))
		return res;
	ok(!res.done, "callback not run inside up_query");
	run_for(5000);
	if (elapsed)
		*elapsed = res.end_ms - t0;
	return res;
}

static struct result ask(const struct up_conf *conf, int64_t *elapsed,
			 struct up_stats *stats)
{
	struct up_client *c = up_client_new(L);
	struct result res = ask_with(c, conf, elapsed);

	if (stats)
		up_client_stats(c, stats);
	up_client_free(c);
	return res;
}

/* ask() with up_query_ex()'s flags. */
static struct result ask_flags(const struct up_conf *conf, unsigned flags)
{
	struct up_client *c = up_client_new(L);
	struct result res = {0};

	if (up_query_ex(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, conf, flags,
			done_stop, &res))
		run_for(5000);
	up_client_free(c);
	return res;
}

static bool is_a(const struct result *r, int a, int b, int c, int d)
{
	return r->a[0] == a && r->a[1] == b && r->a[2] == c && r->a[3] == d;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/* --- tests --- */

static void test_answer(void)
{
	int one[] = {1};
	struct up_conf conf = conf_of(1, one, 1);
	struct up_stats st;
	struct result r;
	int ports[5], same = 1;

	fakes_reset();
	r = ask(&conf, NULL, &st);
	ok(r.calls == 1 && r.err == 0, "answered (err %d)", r.err);
	ok(is_a(&r, 192, 0, 2, 1), "the answer of 127.0.4.1");
	ok(r.server == 1 && !r.tcp && !r.no_edns, "over UDP, with EDNS");
	is_int(r.last_rcode, -1, "no failing RCODE seen");
	ok((fakes[0].last_flags & (WIRE_FLAG_RD | WIRE_FLAG_CD)) ==
		   (WIRE_FLAG_RD | WIRE_FLAG_CD),
	   "the query had RD=1 CD=1");
	ok(fakes[0].last_do && fakes[0].last_bufsize == DT_UP_EDNS_BUFSIZE,
	   "EDNS with DO=1 and a %d-octet buffer", DT_UP_EDNS_BUFSIZE);
	ok(st.queries == 1 && st.tries == 1 && st.timeouts == 0 &&
		   st.dropped == 0 && st.failed == 0 && st.tcp == 0,
	   "stats: one query, one try");
	for (int i = 0; i < 5; i++) {
		ask(&conf, NULL, NULL);
		ports[i] = fakes[0].last_port;
		same &= ports[i] == ports[0];
	}
	ok(!same, "a new source port per query (%d %d %d %d %d)", ports[0],
	   ports[1], ports[2], ports[3], ports[4]);

	fakes[0].mode = B_UPPER;
	r = ask(&conf, NULL, NULL);
	ok(r.err == 0 && is_a(&r, 192, 0, 2, 1),
	   "question in another case: accepted");

	/* 0x20: the question's letters in random case (13 letters: all
	 * upper by chance once in 8192 runs). */
	r = ask_flags(&conf, UP_Q_CASE);
	ok(r.err == 0 && !r.case_echoed,
	   "0x20, a server that does not echo the case: answered, "
	   "case_echoed false");
	r = ask_flags(&conf, UP_Q_CASE | UP_Q_CASE_STRICT);
	ok(r.err == DT_ETIMEOUT && !r.server,
	   "0x20 strict: its response is dropped as forged (%s)",
	   errcode_str(r.err));
	fakes[0].mode = B_ANSWER;
	r = ask_flags(&conf, UP_Q_CASE);
	ok(r.err == 0 && r.case_echoed,
	   "0x20, a server that echoes: case_echoed true");
	r = ask_flags(&conf, UP_Q_CASE | UP_Q_CASE_STRICT);
	ok(r.err == 0 && r.case_echoed && is_a(&r, 192, 0, 2, 1),
	   "0x20 strict, a server that echoes: answered");
	ok(r.as_asked,
	   "the question and the answer's owner handed back as asked");

	/* DNS cookies (RFC 7873), one client: the first query carries the
	 * client cookie alone, the next the server's too; a response with
	 * another client cookie is dropped as forged. */
	struct up_client *c = up_client_new(L);
	struct result r2 = {0};
	r = ask_flags(&conf, 0);
	is_int(fakes[0].last_cookie, -1, "no cookie without UP_Q_COOKIE");
	fakes[0].mode = B_COOKIE;
	memset(&r, 0, sizeof(r));
	if (up_query_ex(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, &conf,
			UP_Q_COOKIE, done_stop, &r))
		run_for(5000);
	ok(r.err == 0 && fakes[0].last_cookie == 8,
	   "cookie: 8 octets of client cookie first (%d)",
	   fakes[0].last_cookie);
	uint8_t first[8];
	memcpy(first, fakes[0].client_cookie, 8);
	if (up_query_ex(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, &conf,
			UP_Q_COOKIE, done_stop, &r2))
		run_for(5000);
	ok(r2.err == 0 && fakes[0].last_cookie == 16 &&
		   memcmp(first, fakes[0].client_cookie, 8) == 0,
	   "then the same client cookie with the server's (%d octets)",
	   fakes[0].last_cookie);
	fakes[0].mode = B_COOKIE_BAD;
	memset(&r2, 0, sizeof(r2));
	if (up_query_ex(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, &conf,
			UP_Q_COOKIE, done_stop, &r2))
		run_for(5000);
	ok(r2.err == DT_ETIMEOUT,
	   "a response with another client cookie: dropped (%s)",
	   errcode_str(r2.err));
	up_client_free(c);
	fakes[0].mode = B_ANSWER;
}

static void test_spoof(void)
{
	int one[] = {1};
	struct up_conf conf = conf_of(1, one, 1);
	struct up_stats st;
	struct result r;

	fakes_reset();
	fakes[0].mode = B_SPOOF;
	r = ask(&conf, NULL, &st);
	ok(r.err == 0 && is_a(&r, 192, 0, 2, 1),
	   "spoofed packets first, then the answer: the answer taken");
	is_int(st.dropped, 5,
	       "wrong ID, wrong question, wrong opcode, junk, "
	       "no question: 5 dropped");
	is_int(st.tries, 1, "within the same try");
}

static void test_tc(void)
{
	int two[] = {2};
	struct up_conf conf = conf_of(1, two, 1);
	struct up_stats st;
	struct result r;

	fakes_reset();
	fakes[1].mode = B_TC;
	r = ask(&conf, NULL, &st);
	ok(r.err == 0 && r.tcp && is_a(&r, 198, 51, 100, 2),
	   "TC=1: asked again over TCP, answer taken from TCP");
	ok(fakes[1].udp_queries == 1 && fakes[1].tcp_queries == 1,
	   "one UDP and one TCP query");
	ok(st.tcp == 1 && st.tries == 2, "stats: one TCP fallback, two tries");
	ok(fakes[1].last_do, "EDNS kept for TCP (DO=1 seen on UDP)");
}

static void test_timeout_failover(void)
{
	int order[] = {3, 1};
	struct up_conf conf = conf_of(2, order, 1);
	struct up_client *c = up_client_new(L);
	struct up_stats st;
	struct result r;
	int64_t el;

	fakes_reset();
	fakes[2].mode = B_SILENT;
	r = ask_with(c, &conf, &el);
	ok(r.err == 0 && r.server == 1,
	   "first server silent: answer from the second");
	ok(el >= 200 && el < 400, "after one timeout (%lld ms)", (long long)el);
	up_client_stats(c, &st);
	ok(st.timeouts == 1 && st.tries == 2, "stats: one timeout, two tries");

	r = ask_with(c, &conf, &el);
	ok(r.err == 0 && r.server == 1 && el < 150,
	   "the silent server is tried last for a while (%lld ms)",
	   (long long)el);
	is_int(fakes[2].udp_queries, 1, "and was not asked again");
	up_client_free(c);
}

static void test_rcode_failover(void)
{
	int order[] = {1, 2};
	struct up_conf conf = conf_of(2, order, 1);
	struct up_stats st;
	struct result r;

	fakes_reset();
	fakes[0].mode = B_SERVFAIL;
	r = ask(&conf, NULL, &st);
	ok(r.err == 0 && r.server == 2, "SERVFAIL: answer from the next");
	is_int(r.last_rcode, 2, "last_rcode SERVFAIL");
	is_int(st.timeouts, 0, "no timeout involved");
	fakes[0].mode = B_REFUSED;
	r = ask(&conf, NULL, NULL);
	ok(r.err == 0 && r.server == 2 && r.last_rcode == 5,
	   "REFUSED: answer from the next");

	fakes_reset();
	fakes[0].mode = B_SERVFAIL;
	fakes[1].mode = B_REFUSED;
	conf.attempts = 2;
	r = ask(&conf, NULL, &st);
	is_int(r.err, DT_EUPSTREAM, "every server fails: DT_EUPSTREAM");
	is_int(r.last_rcode, 5, "with the last RCODE");
	ok(fakes[0].udp_queries == 2 && fakes[1].udp_queries == 2,
	   "each asked once per round");
	is_int(st.failed, 1, "stats: one failed request");
}

/* A response that is the query's (ID, question) but does not parse: the
 * server failed, the next is asked at once. */
static void test_malformed_failover(void)
{
	int order[] = {1, 2};
	struct up_conf conf = conf_of(2, order, 1);
	struct up_stats st;
	struct result r;

	fakes_reset();
	fakes[0].mode = B_MALFORMED;
	r = ask(&conf, NULL, &st);
	ok(r.err == 0 && r.server == 2,
	   "a response that does not parse: answer from the next");
	is_int(st.timeouts, 0, "no timeout waited for");
	is_int(st.malformed, 1, "stats: one malformed response");
	is_int(fakes[0].udp_queries, 1, "the broken server asked once");

	fakes_reset();
	fakes[0].mode = B_MALFORMED;
	fakes[1].mode = B_MALFORMED;
	r = ask(&conf, NULL, NULL);
	is_int(r.err, DT_EUPSTREAM, "every response malformed: DT_EUPSTREAM");
	is_int(r.last_rcode, UP_RCODE_MALFORMED,
	       "last_rcode UP_RCODE_MALFORMED");
}

static void test_no_edns(void)
{
	int one[] = {1};
	struct up_conf conf = conf_of(1, one, 1);
	struct result r;

	fakes_reset();
	fakes[0].mode = B_FORMERR_EDNS;
	r = ask(&conf, NULL, NULL);
	ok(r.err == 0 && r.no_edns && is_a(&r, 192, 0, 2, 1),
	   "FORMERR to EDNS: asked again without, answer flagged no_edns");
	ok(fakes[0].udp_queries == 2 && fakes[0].edns_queries == 1,
	   "once with EDNS, once without");
	is_int(r.last_rcode, 1, "the FORMERR is reported in last_rcode");

	fakes_reset();
	fakes[0].mode = B_BARE_EDNS;
	r = ask(&conf, NULL, NULL);
	ok(r.err == 0 && r.no_edns,
	   "FORMERR without a question: retried without EDNS too");

	fakes_reset();
	fakes[0].mode = B_FORMERR_ALL;
	int order[] = {1, 2};
	conf = conf_of(2, order, 1);
	r = ask(&conf, NULL, NULL);
	ok(r.err == 0 && r.server == 2 && !r.no_edns,
	   "FORMERR with and without EDNS: the next server, asked with EDNS");
	ok(fakes[0].udp_queries == 2 && fakes[0].edns_queries == 1 &&
		   fakes[1].edns_queries == 1,
	   "first server: once with, once without; second: with");
}

static const char *verdict_of(struct capab *cb, const struct up_conf *conf)
{
	static char reason[DT_CAPAB_REASON_LEN];
	struct capab_view v[DT_UP_MAXNS];

	if (capab_list(cb, v, DT_UP_MAXNS) < 1 ||
	    !up_server_equal(&v[0].server, &conf->ns[0]))
		return "(absent)";
	snprintf(reason, sizeof(reason), "%s", v[0].reason);
	return reason;
}

/* What the table learns from the exchanges, and what the client then
 * does: no EDNS to a FORMERR server, TCP at once to a truncating one;
 * a client that feeds without applying (the probe's) asks as before. */
static void test_capab(void)
{
	int one[] = {1}, two[] = {2}, none[] = {9};
	struct up_conf conf = conf_of(1, one, 1);
	struct capab *cb = capab_new(NULL, NULL);
	struct up_client *c = up_client_new(L);
	struct result r;

	up_client_set_capab(c, cb, true);
	capab_set_servers(cb, &conf);
	fakes_reset();
	fakes[0].mode = B_FORMERR_EDNS;
	r = ask_with(c, &conf, NULL);
	ok(r.err == 0 && r.no_edns, "FORMERR to EDNS: answered without");
	is_str(verdict_of(cb, &conf), "FORMERR to EDNS", "the table knows");
	for (int i = 0; i < 3; i++)
		r = ask_with(c, &conf, NULL);
	ok(r.err == 0 && r.no_edns, "later questions answered without EDNS");
	ok(fakes[0].udp_queries == 5 && fakes[0].edns_queries == 1,
	   "four questions, one FORMERR: EDNS asked once (%d UDP, %d EDNS)",
	   (int)fakes[0].udp_queries, (int)fakes[0].edns_queries);
	up_client_set_capab(c, cb, false);
	r = ask_with(c, &conf, NULL);
	ok(fakes[0].edns_queries == 2,
	   "a client that does not apply the table asks with EDNS again");

	conf = conf_of(1, two, 1);
	capab_set_servers(cb, &conf);
	up_client_set_capab(c, cb, true);
	fakes_reset();
	fakes[1].mode = B_TC;
	for (int i = 0; i < 3; i++)
		r = ask_with(c, &conf, NULL);
	ok(r.err == 0 && r.tcp, "a truncating server answers over TCP");
	ok(fakes[1].udp_queries == 2 && fakes[1].tcp_queries == 3,
	   "truncated twice: the third question over TCP at once "
	   "(%d UDP, %d TCP)",
	   (int)fakes[1].udp_queries, (int)fakes[1].tcp_queries);

	conf = conf_of(1, none, 1);
	capab_set_servers(cb, &conf);
	r = ask_with(c, &conf, NULL);
	is_str(verdict_of(cb, &conf), "unreachable",
	       "refused by ICMP: unreachable, not \"no\"");
	up_client_free(c);
	capab_free(cb);
}

/* New servers: a question under way whose server left moves to them at
 * once instead of waiting out its timeout. */
static void test_move(void)
{
	int three[] = {3}, two[] = {2};
	struct up_conf old = conf_of(1, three, 1), new = conf_of(1, two, 1);
	struct up_client *c = up_client_new(L);
	struct result r = {0}, split = {0};
	int64_t t0;

	fakes_reset();
	fakes[2].mode = B_SILENT;
	old.timeout_ms = 3000;
	up_client_set_conf(c, &old);
	t0 = loop_now_ms(L);
	up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL, done_nostop, &r);
	up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, &old, done_nostop,
		 &split);
	run_for(100);
	up_client_set_conf(c, &new);
	run_for(500);
	ok(r.done && r.err == 0 && r.server == 2,
	   "the question under way was answered by the new server");
	ok(r.done && r.end_ms - t0 < 1000,
	   "within %lld ms, not the old server's 3 s",
	   (long long)(r.end_ms - t0));
	ok(!split.done, "a split-DNS question keeps its own servers");
	up_client_free(c);
}

static void test_all_timeout(void)
{
	int order[] = {3, 4};
	struct up_conf conf = conf_of(2, order, 2);
	struct up_stats st;
	struct result r;
	int64_t el;

	fakes_reset();
	fakes[2].mode = fakes[3].mode = B_SILENT;
	r = ask(&conf, &el, &st);
	is_int(r.err, DT_ETIMEOUT, "every try timed out: DT_ETIMEOUT");
	ok(el >= 800 && el < 1100,
	   "within attempts x servers x timeout = 800 ms (%lld ms)",
	   (long long)el);
	ok(fakes[2].udp_queries == 2 && fakes[3].udp_queries == 2,
	   "each server asked twice");
	ok(st.timeouts == 4 && st.failed == 1, "stats: four timeouts");
	is_int(r.last_rcode, -1, "no RCODE seen");
}

static void test_refused_port(void)
{
	int order[] = {9};
	struct up_conf conf = conf_of(1, order, 1);
	struct result r;
	int64_t el;

	r = ask(&conf, &el, NULL);
	is_int(r.err, DT_EUPSTREAM, "nothing listens: DT_EUPSTREAM");
	ok(el < 150, "at once, from the ICMP error (%lld ms)", (long long)el);
	is_int(r.last_rcode, -1, "no RCODE");

	int order2[] = {9, 2};
	conf = conf_of(2, order2, 1);
	fakes_reset();
	r = ask(&conf, &el, NULL);
	ok(r.err == 0 && r.server == 2 && el < 150,
	   "then the next server, at once");
}

static void test_rotate(void)
{
	int order[] = {1, 2, 3};
	struct up_conf conf = conf_of(3, order, 1);
	struct up_client *c = up_client_new(L);
	int seen[4];
	struct result r;

	fakes_reset();
	conf.rotate = true;
	for (int i = 0; i < 4; i++) {
		r = ask_with(c, &conf, NULL);
		seen[i] = r.server;
	}
	ok(seen[0] == 1 && seen[1] == 2 && seen[2] == 3 && seen[3] == 1,
	   "rotate: each query starts one further (%d %d %d %d)", seen[0],
	   seen[1], seen[2], seen[3]);
	conf.rotate = false;
	for (int i = 0; i < 3; i++) {
		r = ask_with(c, &conf, NULL);
		seen[i] = r.server;
	}
	ok(seen[0] == 1 && seen[1] == 1 && seen[2] == 1,
	   "without rotate: always the first");
	ok(up_client_conf(c)->nns == 3 && !up_client_conf(c)->rotate,
	   "up_client_conf gives the conf in use");
	up_client_free(c);
}

static void test_flood(void)
{
	int order[] = {1, 2};
	struct up_conf conf = conf_of(2, order, 1);
	struct up_stats st;
	struct result r;
	int64_t el;

	fakes_reset();
	fakes[0].mode = B_FLOOD;
	conf.timeout_ms = 2000;
	r = ask(&conf, &el, &st);
	ok(r.err == 0 && r.server == 2,
	   "a flood of unmatched packets: the next server answers");
	is_int(st.dropped, DT_UP_MAX_BAD_PACKETS,
	       "after DT_UP_MAX_BAD_PACKETS dropped");
	ok(el < 1000, "without waiting for the timeout (%lld ms)",
	   (long long)el);
}

struct cancel_ctx {
	struct loop_timer t;
	struct up_req *req;
};

static void cancel_cb(struct loop_timer *t)
{
	struct cancel_ctx *x = t->arg;

	up_cancel(x->req);
}

static void test_cancel(void)
{
	int order[] = {3};
	struct up_conf conf = conf_of(1, order, 1);
	struct up_client *c = up_client_new(L);
	struct cancel_ctx x = {.t.cb = cancel_cb};
	struct result res[3] = {0};
	int fds = count_fds();

	fakes_reset();
	fakes[2].mode = B_SILENT;
	up_client_set_conf(c, &conf);
	x.t.arg = &x;
	x.req = up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL,
			 done_nostop, &res[0]);
	ok(count_fds() == fds + 1, "a socket for the try");
	loop_timer_start(L, &x.t, 50);
	run_for(400);
	ok(!res[0].done, "cancelled: the callback never ran");
	is_int(count_fds(), fds, "its socket closed");

	/* Cancelling the no-server error before it is delivered. */
	conf.nns = 0;
	up_client_set_conf(c, &conf);
	x.req = up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL,
			 done_nostop, &res[1]);
	up_cancel(x.req);
	run_for(20);
	ok(!res[1].done, "a pending error cancelled: no callback");

	/* Freeing the client cancels what is pending. */
	conf = conf_of(1, order, 1);
	up_client_set_conf(c, &conf);
	up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL, done_nostop,
		 &res[2]);
	up_query(c, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL, done_nostop,
		 &res[2]);
	up_client_free(c);
	run_for(300);
	ok(!res[2].done, "up_client_free: pending callbacks never run");
	is_int(count_fds(), fds, "and their sockets are closed");
	up_cancel(NULL);
	ok(1, "up_cancel(NULL) is a no-op");
}

static void test_no_server(void)
{
	struct up_conf conf = {.timeout_ms = 200, .attempts = 1};
	struct up_stats st;
	struct result r;

	r = ask(&conf, NULL, &st);
	ok(r.calls == 1 && r.err == DT_ENOSERVER,
	   "no nameserver: DT_ENOSERVER, from the loop");
	ok(st.failed == 1 && st.tries == 0, "stats: failed, nothing sent");

	struct up_client *c = up_client_new(L);
	struct result bad = {0};
	static const uint8_t badname[] = "\100aaaa";

	up_query(c, badname, WIRE_TYPE_A, WIRE_CLASS_IN, &conf, done_stop,
		 &bad);
	run_for(1000);
	ok(bad.calls == 1 && bad.err == DT_ELABEL,
	   "a malformed qname: its error, from the loop");
	up_client_free(c);
}

/* Many requests at once, on one client; the client's conf versus
 * per-query servers (split DNS). */
static void test_parallel(void)
{
	enum { N = 30 };
	int order[] = {1}, other[] = {2};
	struct up_conf conf = conf_of(1, order, 1);
	struct up_conf split = conf_of(1, other, 1);
	struct up_client *c = up_client_new(L);
	struct result res[N];
	uint8_t names[N][32];
	int good = 0;

	fakes_reset();
	memset(res, 0, sizeof(res));
	up_client_set_conf(c, &conf);
	for (int i = 0; i < N; i++) {
		int len = snprintf((char *)names[i] + 1, 30, "q%d", i);

		names[i][0] = (uint8_t)len;
		memcpy(names[i] + 1 + len, "\7example\0", 9);
		up_query(c, names[i], WIRE_TYPE_A, WIRE_CLASS_IN,
			 i % 2 ? &split : NULL, done_nostop, &res[i]);
	}
	run_for(500);
	for (int i = 0; i < N; i++)
		good += res[i].calls == 1 && res[i].err == 0 &&
			res[i].server == (i % 2 ? 2 : 1);
	is_int(good, N, "%d requests at once, each answered by its servers", N);
	up_client_free(c);
}

/* Sends n questions (names q0.example. ...) at once on c and runs the
 * loop until every one is done or ms have passed. */
static void burst(struct up_client *c, struct result *res, int n, int64_t ms)
{
	static uint8_t names[600][32];
	int64_t end = loop_now_ms(L) + ms;

	for (int i = 0; i < n; i++) {
		int len = snprintf((char *)names[i] + 1, 30, "q%d", i);

		names[i][0] = (uint8_t)len;
		memcpy(names[i] + 1 + len, "\7example\0", 9);
		memset(&res[i], 0, sizeof(res[i]));
		up_query(c, names[i], WIRE_TYPE_A, WIRE_CLASS_IN, NULL,
			 done_nostop, &res[i]);
	}
	for (;;) {
		int done = 0;
		for (int i = 0; i < n; i++)
			done += res[i].calls;
		if (done == n || loop_now_ms(L) >= end)
			break;
		run_for(20);
	}
}

static int cmp_port(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The daemon's own draw of UDP source ports, over the whole of
 * 1024-65535: among 500, some far below the kernel's ephemeral range
 * (32768-60999 by default) and some above it, nearly all distinct. */
static void test_ports(void)
{
	enum { N = 500, BATCH = 100 };
	int one[] = {1};
	struct up_conf conf = conf_of(1, one, 1);
	struct up_client *c = up_client_new(L);
	static struct result res[BATCH];
	int answered = 0, distinct = 1;
	struct up_stats st;

	fakes_reset();
	nports = 0;
	conf.timeout_ms = 2000;
	up_client_set_conf(c, &conf);
	for (int b = 0; b < N / BATCH; b++) {
		burst(c, res, BATCH, 3000);
		for (int i = 0; i < BATCH; i++)
			answered += res[i].calls == 1 && res[i].err == 0;
	}
	up_client_stats(c, &st);
	up_client_free(c);
	is_int(answered, N, "%d questions answered", N);
	int n = nports;
	qsort(seen_ports, (size_t)n, sizeof(seen_ports[0]), cmp_port);
	for (int i = 1; i < n; i++)
		distinct += seen_ports[i] != seen_ports[i - 1];
	diag("%d source ports: %d distinct, %u-%u", n, distinct,
	     n ? seen_ports[0] : 0, n ? seen_ports[n - 1] : 0);
	ok(n == N && seen_ports[0] >= DT_UP_PORT_MIN,
	   "every source port at or above %d", DT_UP_PORT_MIN);
	ok(n == N && seen_ports[0] < 10000 && seen_ports[n - 1] > 61000,
	   "below 10000 and above 61000 among them (%u, %u): not the "
	   "kernel's range", n ? seen_ports[0] : 0, n ? seen_ports[n - 1] : 0);
	ok(distinct >= 490, "%d of %d distinct (about 498 expected)",
	   distinct, n);
	is_int((int)st.port_fallback, 0, "no port left to the kernel");
}

/* The connections open to fake n (its address as the remote end, in
 * /proc/net/tcp: ESTABLISHED or SYN_SENT): the client's. */
static int tcp_conns_to(int n)
{
	FILE *f = fopen("/proc/self/net/tcp", "r");
	char line[256];
	int count = 0;
	char want[32];

	if (!f)
		return -1;
	/* The kernel prints the address as the number its four octets make
	 * in host order, the port in host order. */
	snprintf(want, sizeof(want), "%08X:%04X",
		 (unsigned)fakes[n - 1].addr.sin_addr.s_addr,
		 (unsigned)ntohs(fakes[n - 1].addr.sin_port));
	while (fgets(line, sizeof(line), f)) {
		char local[32], rem[32];
		unsigned st;
		if (sscanf(line, " %*d: %31s %31s %x", local, rem, &st) == 3 &&
		    strcmp(rem, want) == 0 && (st == 1 || st == 2))
			count++;
	}
	fclose(f);
	return count;
}

/* A server that truncates over UDP and never answers over TCP: a burst
 * of questions holds at most DT_UP_TCP_PER_SERVER connections to it (the
 * rest wait), each question ends within its timeout, and none is left
 * open. Then a truncating server that does answer over TCP: the queue
 * drains, every question answered. */
static void test_tcp_cap(void)
{
	enum { N = 200 };
	int three[] = {3}, two[] = {2};
	struct up_conf conf = conf_of(1, three, 1);
	struct up_client *c = up_client_new(L);
	static struct result res[N];
	struct up_stats st;
	int failed = 0, answered = 0, most = 0;

	fakes_reset();
	fakes[2].mode = B_TC_HANG;
	conf.timeout_ms = 1000;
	up_client_set_conf(c, &conf);
	burst(c, res, N, 300);
	int open = tcp_conns_to(3);
	diag("after 300 ms: %d TCP connections to the hanging server, "
	     "%u counted", open, up_tcp_open());
	ok(open > 0 && open <= DT_UP_TCP_PER_SERVER,
	   "%d questions, TC then a silent TCP server: %d connections open "
	   "(cap %d per server)", N, open, DT_UP_TCP_PER_SERVER);
	is_int((int)up_tcp_open(), open, "the count agrees");
	burst(c, res, 0, 0);
	for (int64_t end = loop_now_ms(L) + 4000; loop_now_ms(L) < end;) {
		int done = 0;
		for (int i = 0; i < N; i++)
			done += res[i].calls;
		if (done == N)
			break;
		run_for(50);
	}
	for (int i = 0; i < N; i++)
		failed += res[i].calls == 1 && res[i].err != 0;
	up_client_stats(c, &st);
	is_int(failed, N, "every question failed within its timeout");
	ok(st.tcp_queued >= N - DT_UP_TCP_PER_SERVER,
	   "%llu waited for a connection", (unsigned long long)st.tcp_queued);
	run_for(50);
	ok(tcp_conns_to(3) == 0 && up_tcp_open() == 0,
	   "no connection left open (%d, %u counted)", tcp_conns_to(3),
	   up_tcp_open());

	conf = conf_of(1, two, 1);
	conf.timeout_ms = 3000;
	fakes[1].mode = B_TC;
	up_client_set_conf(c, &conf);
	memset(&st, 0, sizeof(st));
	burst(c, res, 40, 0);
	for (int64_t end = loop_now_ms(L) + 4000; loop_now_ms(L) < end;) {
		int done = 0;
		int now = (int)up_tcp_open();
		most = now > most ? now : most;
		for (int i = 0; i < 40; i++)
			done += res[i].calls;
		if (done == 40)
			break;
		run_for(10);
	}
	for (int i = 0; i < 40; i++)
		answered += res[i].calls == 1 && res[i].err == 0 && res[i].tcp;
	is_int(answered, 40, "a truncating server that answers over TCP: "
			     "40 of 40 answered through the queue");
	ok(most <= DT_UP_TCP_PER_SERVER, "at most %d connections at once "
					 "(%d seen)", DT_UP_TCP_PER_SERVER,
	   most);
	up_client_free(c);
	fakes_reset();
}

/* TC=1 over TCP is no answer (RFC 7766 §5): a failed try, never the
 * empty NOERROR it carries. */
static void test_tc_tcp(void)
{
	int four[] = {4};
	struct up_conf conf = conf_of(1, four, 1);
	struct up_stats st;
	struct result r;

	fakes_reset();
	fakes[3].mode = B_TC_TCP;
	r = ask(&conf, NULL, &st);
	ok(r.calls == 1 && r.err != 0, "TC=1 over TCP: the request fails "
				       "(err %d)", r.err);
	ok(st.truncated_tcp == 1, "counted as truncated over TCP");
	fakes_reset();
}

/* A callback that frees the client, and one that asks again. */
static struct up_client *victim;

static void free_client_cb(void *arg, int err, const struct up_answer *ans,
			   int last_rcode)
{
	record(arg, err, ans, last_rcode);
	up_client_free(victim);
	victim = NULL;
}

static struct result chained;

static void again_cb(void *arg, int err, const struct up_answer *ans,
		     int last_rcode)
{
	record(arg, err, ans, last_rcode);
	up_query(victim, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL, done_stop,
		 &chained);
}

static struct up_req *self_req;

static void cancel_self_cb(void *arg, int err, const struct up_answer *ans,
			   int last_rcode)
{
	record(arg, err, ans, last_rcode);
	up_cancel(self_req);
	loop_stop(L);
}

static void test_callbacks(void)
{
	int order[] = {1};
	struct up_conf conf = conf_of(1, order, 1);
	struct result r1 = {0}, r2 = {0}, r3 = {0};

	fakes_reset();
	victim = up_client_new(L);
	up_client_set_conf(victim, &conf);
	up_query(victim, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL,
		 free_client_cb, &r1);
	up_query(victim, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL,
		 free_client_cb, &r2);
	run_for(300);
	ok(r1.calls + r2.calls == 1,
	   "a callback freed the client: the other request never completed");

	victim = up_client_new(L);
	up_client_set_conf(victim, &conf);
	up_query(victim, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL, again_cb,
		 &r3);
	memset(&chained, 0, sizeof(chained));
	run_for(2000);
	ok(r3.calls == 1 && chained.calls == 1 && chained.err == 0,
	   "a new query from inside a callback");

	memset(&r3, 0, sizeof(r3));
	self_req = up_query(victim, QNAME, WIRE_TYPE_A, WIRE_CLASS_IN, NULL,
			    cancel_self_cb, &r3);
	run_for(2000);
	ok(r3.calls == 1 && r3.err == 0,
	   "up_cancel of a request from its own callback: a no-op");
	up_client_free(victim);
}

int main(void)
{
	int ok_open = 1;

	for (int i = 0; i < NFAKE; i++)
		ok_open &= fake_open(&fakes[i], i + 1);
	L = loop_new();
	if (!ok(ok_open && L, "fake nameservers on 127.0.4.1-%d", NFAKE))
		return done_testing();
	pthread_create(&fake_thread, NULL, fake_main, NULL);
	test_answer();
	test_spoof();
	test_tc();
	test_timeout_failover();
	test_rcode_failover();
	test_malformed_failover();
	test_no_edns();
	test_capab();
	test_move();
	test_all_timeout();
	test_refused_port();
	test_rotate();
	test_flood();
	test_cancel();
	test_no_server();
	test_parallel();
	test_ports();
	test_tcp_cap();
	test_tc_tcp();
	test_callbacks();
	fakes_stop = 1;
	pthread_join(fake_thread, NULL);
	for (int i = 0; i < NFAKE; i++) {
		close(fakes[i].udp);
		close(fakes[i].tcp);
	}
	loop_free(L);
	return done_testing();
}
