/* SPDX-License-Identifier: MIT */
/*
 * A fake dnstrustd on a Unix socket, for the NSS module's unit test.
 */
#include "fake_daemon.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_CONNS  64
#define MAX_MSG	   65535
#define OPT_STATUS 65101
#define OPT_EDE	   15

struct conn {
	int fd;
	size_t len;
	uint8_t buf[2 + MAX_MSG];
};

static const struct fake_answer *table;
static char dir[32], path[64];
static int lfd = -1, stop_pipe[2] = {-1, -1};
static pthread_t thread;
static atomic_uint questions, connections;
static atomic_bool hangup_next;
static struct conn conns[MAX_CONNS];

/* --- building an answer --- */

struct out {
	uint8_t *p;
	size_t len, cap;
	bool bad;
};

static void put(struct out *o, const void *data, size_t n)
{
	if (o->len + n > o->cap) {
		o->bad = true;
		return;
	}
	memcpy(o->p + o->len, data, n);
	o->len += n;
}

static void put16(struct out *o, unsigned v)
{
	uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};

	put(o, b, 2);
}

static void put32(struct out *o, uint32_t v)
{
	put16(o, v >> 16);
	put16(o, v & 0xffff);
}

/* A name in text (labels split at '.', final dot optional) in wire form. */
static void put_name(struct out *o, const char *text)
{
	while (*text != '\0') {
		size_t n = strcspn(text, ".");
		uint8_t len = (uint8_t)n;

		put(o, &len, 1);
		put(o, text, n);
		text += n;
		if (*text == '.')
			text++;
	}
	put(o, "", 1);
}

static void put_rr(struct out *o, const struct fake_rr *rr)
{
	uint8_t addr[16];
	size_t mark;

	put_name(o, rr->owner);
	put16(o, rr->type);
	put16(o, rr->rclass ? rr->rclass : 1);
	put32(o, rr->ttl);
	if (rr->type == 1 || rr->type == 28) {
		int af = rr->type == 1 ? AF_INET : AF_INET6;

		inet_pton(af, rr->data, addr);
		put16(o, af == AF_INET ? 4 : 16);
		put(o, addr, af == AF_INET ? 4 : 16);
		return;
	}
	mark = o->len;
	put16(o, 0);
	put_name(o, rr->data);
	if (!o->bad) {
		o->p[mark] = (uint8_t)((o->len - mark - 2) >> 8);
		o->p[mark + 1] = (uint8_t)(o->len - mark - 2);
	}
}

static void put_opt(struct out *o, const struct fake_answer *a)
{
	static const char reason[] = "fake daemon says bogus";
	size_t ede_len = a->ede >= 0 ? 4 + 2 + sizeof(reason) - 1 : 0;

	put(o, "", 1);
	put16(o, 41);
	put16(o, 1232);
	put32(o, 0);
	put16(o, 8 + ede_len);
	put16(o, OPT_STATUS);
	put16(o, 4);
	put(o, (uint8_t[]){1, (uint8_t)a->status, 0, 0}, 4);
	if (a->ede >= 0) {
		put16(o, OPT_EDE);
		put16(o, 2 + sizeof(reason) - 1);
		put16(o, (unsigned)a->ede);
		put(o, reason, sizeof(reason) - 1);
	}
}

/* --- reading a question --- */

/* The question's name as lower-case text without the final dot, its
 * type, and where the question ends. */
static int parse_question(const uint8_t *m, size_t len, char *name,
			  uint16_t *qtype, size_t *qend)
{
	size_t i = 12, o = 0;

	if (len < 12)
		return -1;
	while (i < len && m[i] != 0) {
		if (m[i] > 63 || i + 1 + m[i] > len)
			return -1;
		if (o)
			name[o++] = '.';
		for (size_t k = 1; k <= m[i]; k++)
			name[o++] = (char)tolower(m[i + k]);
		i += 1 + m[i];
	}
	name[o] = '\0';
	if (i + 5 > len)
		return -1;
	*qtype = (uint16_t)(m[i + 1] << 8 | m[i + 2]);
	*qend = i + 5;
	return 0;
}

static const struct fake_answer *find(const char *name, uint16_t qtype)
{
	for (const struct fake_answer *a = table; a->qname != NULL; a++)
		if (strcmp(a->qname, name) == 0 &&
		    (a->qtype == 0 || a->qtype == qtype))
			return a;
	return NULL;
}

static int answer(const uint8_t *q, size_t qlen, uint8_t *resp, size_t cap)
{
	static const struct fake_rr none[] = {{NULL, 0, 0, NULL}};
	struct fake_answer nx = {"", 0, 3, 1, -1, false, none};
	const struct fake_answer *a;
	struct out o = {resp, 0, cap, false};
	char name[1024];
	uint16_t qtype;
	size_t qend, n = 0, count[3] = {0, 0, 0};

	if (parse_question(q, qlen, name, &qtype, &qend) < 0)
		return -1;
	if ((a = find(name, qtype)) == NULL)
		a = &nx;
	atomic_fetch_add(&questions, 1);
	if (a->silent)
		return 0;
	while (a->rr[n].owner != NULL)
		count[a->rr[n++].section % 3]++;
	put(&o, q, 2); /* ID */
	put16(&o, 0x8080 | (q[2] & 0x01) << 8 | (q[3] & 0x10) |
			  (a->status == 1 ? 0x20 : 0) | (unsigned)a->rcode);
	put16(&o, 1);
	put16(&o, count[0]);
	put16(&o, count[1]);
	put16(&o, count[2] + 1);
	put(&o, q + 12, qend - 12);
	for (unsigned s = 0; s < 3; s++)
		for (size_t i = 0; i < n; i++)
			if (a->rr[i].section % 3 == s)
				put_rr(&o, &a->rr[i]);
	put_opt(&o, a);
	return o.bad ? -1 : (int)o.len;
}

/* --- the socket --- */

static void conn_close(struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	c->len = 0;
}

static void conn_read(struct conn *c)
{
	static uint8_t resp[2 + MAX_MSG];
	ssize_t r = read(c->fd, c->buf + c->len, sizeof(c->buf) - c->len);
	size_t mlen;
	int n;

	if (r <= 0) {
		conn_close(c);
		return;
	}
	c->len += (size_t)r;
	if (atomic_exchange(&hangup_next, false)) {
		conn_close(c);
		return;
	}
	while (c->len >= 2 &&
	       c->len >= 2 + (mlen = c->buf[0] << 8 | c->buf[1])) {
		n = answer(c->buf + 2, mlen, resp + 2, MAX_MSG);
		if (n > 0) {
			resp[0] = (uint8_t)(n >> 8);
			resp[1] = (uint8_t)n;
			if (write(c->fd, resp, (size_t)n + 2) != n + 2) {
				conn_close(c);
				return;
			}
		}
		memmove(c->buf, c->buf + 2 + mlen, c->len - 2 - mlen);
		c->len -= 2 + mlen;
	}
}

static void accept_one(void)
{
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0)
		return;
	atomic_fetch_add(&connections, 1);
	for (size_t i = 0; i < MAX_CONNS; i++)
		if (conns[i].fd < 0) {
			conns[i].fd = fd;
			conns[i].len = 0;
			return;
		}
	close(fd);
}

static void *serve(void *arg)
{
	struct pollfd p[2 + MAX_CONNS];

	(void)arg;
	for (;;) {
		p[0] = (struct pollfd){.fd = stop_pipe[0], .events = POLLIN};
		p[1] = (struct pollfd){.fd = lfd, .events = POLLIN};
		for (size_t i = 0; i < MAX_CONNS; i++)
			p[2 + i] = (struct pollfd){.fd = conns[i].fd,
						   .events = POLLIN};
		if (poll(p, 2 + MAX_CONNS, -1) < 0)
			continue;
		if (p[0].revents)
			return NULL;
		if (p[1].revents)
			accept_one();
		for (size_t i = 0; i < MAX_CONNS; i++)
			if (conns[i].fd >= 0 && p[2 + i].revents)
				conn_read(&conns[i]);
	}
}

/* The listening socket at path, and the thread serving it. */
static int serve_start(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	for (size_t i = 0; i < MAX_CONNS; i++)
		conns[i].fd = -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if ((lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, 16) < 0 || pipe(stop_pipe) < 0 ||
	    pthread_create(&thread, NULL, serve, NULL) != 0)
		return -1;
	return 0;
}

static void serve_stop(void)
{
	if (write(stop_pipe[1], "", 1) == 1)
		pthread_join(thread, NULL);
	for (size_t i = 0; i < MAX_CONNS; i++)
		if (conns[i].fd >= 0)
			conn_close(&conns[i]);
	close(lfd);
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	unlink(path);
}

const char *fake_daemon_start(const struct fake_answer *t)
{
	table = t;
	snprintf(dir, sizeof(dir), "/tmp/dt-nss-test.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/socket", dir);
	return serve_start() == 0 ? path : NULL;
}

unsigned fake_daemon_questions(void)
{
	return atomic_load(&questions);
}

unsigned fake_daemon_connections(void)
{
	return atomic_load(&connections);
}

int fake_daemon_restart(void)
{
	serve_stop();
	return serve_start();
}

void fake_daemon_pause(void)
{
	serve_stop();
}

int fake_daemon_resume(void)
{
	return serve_start();
}

void fake_daemon_hangup_next(void)
{
	atomic_store(&hangup_next, true);
}

void fake_daemon_stop(void)
{
	serve_stop();
	rmdir(dir);
}
