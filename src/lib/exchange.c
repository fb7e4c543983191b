/* SPDX-License-Identifier: MIT */
/*
 * Questions to the daemon and its answers: the queries (always with EDNS
 * and the status option), several sent at once on one connection, the
 * answers read as they come (in any order), matched by ID and question,
 * and checked against docs/PROTOCOL.md before anything in them is
 * believed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/protocol.h"
#include "lib/internal.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

static _Thread_local uint16_t id_next;
static _Thread_local bool id_seeded;

/* IDs only match answers to questions on our own trusted connection,
 * where nobody can spoof; distinct and varied is all they need to be. */
uint16_t dtlib_new_id(void)
{
	if (!id_seeded) {
		uint16_t v;
		if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
			v = (uint16_t)(dtlib_now_ms() ^ gettid());
		id_next = v;
		id_seeded = true;
	}
	return id_next++;
}

int dtlib_query_build(const struct dtlib_q *q, bool status_opt, uint8_t *buf,
		      size_t cap)
{
	struct wire_builder b;
	uint8_t opt[8], version = DT_PROTO_VERSION;
	size_t olen = 0;
	/* AD=1 asks for the AD bit whatever DO says (RFC 6840 §5.7, §5.8). */
	uint16_t flags = WIRE_FLAG_RD | WIRE_FLAG_AD;
	uint16_t edns = (q->flags & DT_FLAG_DNSSEC) ? WIRE_EDNS_DO : 0;

	if (q->flags & DT_FLAG_RETURN_BOGUS)
		flags |= WIRE_FLAG_CD;
	if (status_opt && wire_opt_put(opt, sizeof(opt), &olen,
				       DT_PROTO_OPT_STATUS, &version, 1))
		return DT_ERR_INVALID;
	/* The daemon's stream carries any size; a nameserver is asked over
	 * UDP first, where 1232 avoids fragments (DNS flag day 2020). */
	if (wire_build_init(&b, buf, cap, q->id, flags) ||
	    wire_build_question(&b, q->qname, q->qtype, q->qclass) ||
	    wire_build_opt(&b,
			   status_opt ? DTLIB_EDNS_SIZE : DT_UP_EDNS_BUFSIZE, 0,
			   0, edns, opt, olen))
		return DT_ERR_INVALID;
	return (int)wire_build_finish(&b);
}

void dtlib_answer_clear(struct dtlib_answer *a)
{
	wire_msg_free(a->msg);
	memset(a, 0, sizeof(*a));
	a->ede = -1;
}

void dtlib_qs_clear(struct dtlib_q *qs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dtlib_answer_clear(&qs[i].ans);
}

/* The status option: VERSION 1, STATUS 0..5, FLAGS. Absent (an
 * administrative answer), the AD bit alone speaks. */
static int read_status(const struct wire_msg *m, struct dtlib_answer *a)
{
	size_t pos = 0;
	uint16_t code, len;
	const uint8_t *data;
	bool ad = m->hdr.flags & WIRE_FLAG_AD;

	a->status = ad ? DT_STATUS_SECURE : DT_STATUS_NONE;
	while (wire_edns_opt_next(&m->edns, &pos, &code, &data, &len) == 1) {
		if (code != DT_PROTO_OPT_STATUS)
			continue;
		if (len != DT_PROTO_OPT_STATUS_LEN ||
		    data[0] != DT_PROTO_VERSION ||
		    data[1] > DT_PROTO_STATUS_UNVALIDATED)
			return DT_ERR_PROTOCOL;
		/* enum dt_status numbers 0..5 as the protocol does (5: a
		 * hotspot sign-on's unvalidated answer) */
		a->status = (enum dt_status)data[1];
		a->pflags = wire_get16(data + 2);
		break;
	}
	/* AD=1 if and only if secure (PROTOCOL.md §3). */
	if (ad != (a->status == DT_STATUS_SECURE))
		return DT_ERR_PROTOCOL;
	return 0;
}

static int read_ede(const struct wire_msg *m, struct dtlib_answer *a)
{
	uint16_t code;
	const char *text;
	size_t len;
	int r = wire_edns_ede(&m->edns, &code, &text, &len);

	if (r < 0)
		return DT_ERR_PROTOCOL;
	if (r == 1) {
		a->ede = code;
		a->ede_text = text;
		a->ede_len = len;
	}
	return 0;
}

int dtlib_answer_take(struct dtlib_q *q, struct wire_msg *m, bool fallback)
{
	struct dtlib_answer a = {.ede = -1};
	int refused;

	if (!(m->hdr.flags & WIRE_FLAG_QR) ||
	    WIRE_OPCODE(m->hdr.flags) != WIRE_OPCODE_QUERY ||
	    !m->has_question || m->qtype != q->qtype ||
	    m->qclass != q->qclass || !wire_dname_equal(m->qname, q->qname) ||
	    (!fallback && read_status(m, &a))) {
		wire_msg_free(m);
		return DT_ERR_PROTOCOL;
	}
	refused = dtlib_answer_clean(&m, q->qname, q->qtype);
	if (refused < 0) {
		wire_msg_free(m);
		return refused;
	}
	a.msg = m;
	if (fallback && !refused) {
		/* Nothing the nameserver says about trust counts. */
		a.status = DT_STATUS_UNVALIDATED;
	} else if (read_status(m, &a) || read_ede(m, &a)) {
		wire_msg_free(m);
		return DT_ERR_PROTOCOL;
	}
	q->ans = a;
	return 0;
}

/* Received octets not yet used: a small buffer on the stack that grows
 * on the heap for a large answer. */
struct rbuf {
	uint8_t *p;
	size_t len, cap;
	uint8_t small[4096];
};

static int rbuf_reserve(struct rbuf *r, size_t need)
{
	uint8_t *p;

	if (need <= r->cap)
		return 0;
	p = malloc(need);
	if (!p)
		return DT_ERR_NOMEM;
	memcpy(p, r->p, r->len);
	if (r->p != r->small)
		free(r->p);
	r->p = p;
	r->cap = need;
	return 0;
}

static void rbuf_consume(struct rbuf *r, size_t n)
{
	memmove(r->p, r->p + n, r->len - n);
	r->len -= n;
}

/* One complete frame at the front of r: the answer to one of qs. */
static int take_frame(struct rbuf *r, size_t flen, struct dtlib_q *qs, size_t n)
{
	const uint8_t *f = r->p + 2;
	uint16_t id = wire_get16(f);
	struct dtlib_q *q = NULL;
	struct wire_msg *m;
	int err;

	for (size_t i = 0; i < n; i++)
		if (qs[i].id == id && !qs[i].ans.msg)
			q = &qs[i];
	if (!q)
		return DT_ERR_PROTOCOL;
	m = wire_msg_parse(f, flen, WIRE_PARSE_TRUNC_OK, &err);
	if (!m)
		return err == -ENOMEM ? DT_ERR_NOMEM : DT_ERR_PROTOCOL;
	err = dtlib_answer_take(q, m, false);
	rbuf_consume(r, 2 + flen);
	return err;
}

/* Reads until every question has its answer. *got_any tells whether the
 * daemon said anything at all (a pooled connection it had closed says
 * nothing and can be replaced). */
static int read_answers(int fd, struct rbuf *r, struct dtlib_q *qs, size_t n,
			int64_t deadline, bool *got_any)
{
	size_t answered = 0;

	while (answered < n) {
		if (r->len >= 2) {
			size_t flen = wire_get16(r->p);
			if (flen < DT_MSG_HDRLEN)
				return DT_ERR_PROTOCOL;
			if (r->len >= 2 + flen) {
				int err = take_frame(r, flen, qs, n);
				if (err)
					return err;
				answered++;
				continue;
			}
			if (rbuf_reserve(r, 2 + flen))
				return DT_ERR_NOMEM;
		}
		ssize_t got = dtlib_recv_some(fd, r->p + r->len,
					      r->cap - r->len, deadline);
		if (got < 0)
			return (int)got;
		if (got == 0) /* closed: mid-frame, the frame was cut */
			return r->len ? DT_ERR_PROTOCOL : DT_ERR_UNAVAILABLE;
		*got_any = true;
		r->len += (size_t)got;
	}
	return 0;
}

/* One attempt on connection fd: send every question, read every answer.
 * Returns 0 or an error; *retry is set when a reused connection turned
 * out closed before the daemon said anything. */
static int attempt(int fd, bool reused, struct dtlib_q *qs, size_t n,
		   int64_t deadline, bool *retry, bool *clean)
{
	uint8_t out[DTLIB_MAX_QUESTIONS * (2 + DT_QUERY_MAXLEN)] = {0};
	size_t olen = 0;
	struct rbuf r = {.cap = sizeof(r.small)};
	bool got_any = false;
	int err;

	r.p = r.small;
	for (size_t i = 0; i < n; i++) {
		int len;
		qs[i].id = dtlib_new_id();
		len = dtlib_query_build(&qs[i], true, out + olen + 2,
					DT_QUERY_MAXLEN);
		if (len < 0)
			return len;
		wire_put16(out + olen, (uint16_t)len);
		olen += 2 + (size_t)len;
	}
	err = dtlib_send_all(fd, out, olen, deadline);
	if (!err)
		err = read_answers(fd, &r, qs, n, deadline, &got_any);
	*retry = reused && err == DT_ERR_UNAVAILABLE && !got_any;
	*clean = !err && r.len == 0;
	if (r.p != r.small)
		free(r.p);
	return err;
}

static int ask_daemon(dt_ctx_t *ctx, const struct dtlib_settings *s,
		      struct dtlib_q *qs, size_t n)
{
	int64_t deadline = dtlib_now_ms() + s->timeout_ms;
	int fd = dtlib_pool_take(ctx, s->gen);
	bool reused = fd >= 0, retry, clean;
	int err;

	for (;;) {
		if (fd < 0) {
			fd = dtlib_connect(s, deadline);
			if (fd < 0)
				return fd;
		}
		err = attempt(fd, reused, qs, n, deadline, &retry, &clean);
		if (!err && clean) {
			dtlib_pool_give(ctx, fd, s->gen);
			return 0;
		}
		/* An error or stray octets: this connection is done with (an
		 * answer may still arrive on it and must not reach a later
		 * question). */
		close(fd);
		if (!retry)
			return err;
		dtlib_qs_clear(qs, n);
		fd = -1;
		reused = false;
	}
}

/*
 * The daemon, or the in-process engine (mode.c): DT_MODE_INPROCESS asks
 * the engine alone; DT_MODE_AUTO the daemon, and the engine when the
 * daemon's socket cannot be reached or its peer is not trusted. The mode
 * that answered is left for dt_last_mode().
 */
static int ask(dt_ctx_t *ctx, const struct dtlib_settings *s,
	       struct dtlib_q *qs, size_t n)
{
	const struct dtlib_engine_ops *eng = s->eng_ops;
	int err;

	dtlib_set_last_mode(0);
	if (s->mode != DT_MODE_INPROCESS || !eng) {
		err = ask_daemon(ctx, s, qs, n);
		if (!err)
			dtlib_set_last_mode(DT_MODE_DAEMON);
		if (s->mode != DT_MODE_AUTO || !eng ||
		    (err != DT_ERR_UNAVAILABLE && err != DT_ERR_UNTRUSTED))
			return err;
		dtlib_qs_clear(qs, n);
	}
	err = eng->ask(ctx, s, qs, n);
	if (!err)
		dtlib_set_last_mode(DT_MODE_INPROCESS);
	return err;
}

int dtlib_exchange(dt_ctx_t *ctx, const struct dtlib_settings *s,
		   struct dtlib_q *qs, size_t n, unsigned how)
{
	int err;

	for (size_t i = 0; i < n; i++)
		dtlib_answer_clear(&qs[i].ans);
	err = ask(ctx, s, qs, n);
	if (err == DT_ERR_UNAVAILABLE && s->fallback &&
	    !(how & DTLIB_NO_FALLBACK)) {
		dtlib_qs_clear(qs, n);
		err = 0;
		for (size_t i = 0; i < n && !err; i++)
			err = dtlib_fallback_ask(&qs[i]);
	}
	if (err && !(how & DTLIB_KEEP_ANSWERED))
		dtlib_qs_clear(qs, n);
	return err;
}
