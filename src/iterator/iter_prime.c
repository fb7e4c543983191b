/* SPDX-License-Identifier: MIT */
/*
 * The priming exchange is one query (it_env.send) to a few hint addresses
 * (the transport moves to the next one on a timeout, REFUSED or
 * SERVFAIL); its end is told to the iterator, which resumes the
 * questions it held. The hint addresses are chosen at random, so that a
 * dead root server is not asked first by every start.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "iterator/iter_msg.h"
#include "iterator/iter_prime.h"
#include "wire/dname.h"
#include "wire/msg.h"

struct it_prime {
	const struct it_env *env;
	struct it_io io;
	it_prime_done_fn *done;
	void *arg;
	it_notice_fn *notice;
	void *notice_arg;
	uint16_t port;
	void *req;	 /* the priming exchange under way (driver's) */
	int64_t started; /* when it was sent (ms) */
	struct it_hints root;
	int64_t expires;  /* root is used until (ms); 0: not primed */
	int64_t retry_at; /* after a failure: no priming before */
	int64_t backoff_ms;
	bool told_fail;	     /* a failure was logged, no success since */
	bool told_ok;	     /* a success was logged, no failure since */
	bool primed;	     /* atomic: for it_prime_primed() */
	bool restart_failed; /* a restart that could not be sent */
};

/* --- reading the response --- */

static bool named(const uint8_t (*ns)[DT_NAME_MAXLEN], size_t nns,
		  const uint8_t *owner)
{
	for (size_t i = 0; i < nns; i++)
		if (wire_dname_equal(ns[i], owner))
			return true;
	return false;
}

static void add_addr(struct it_hints *h, const struct up_server *a)
{
	for (size_t i = 0; i < h->n; i++)
		if (up_server_equal(&h->addr[i], a))
			return;
	if (h->n < DT_IT_HINTS_MAX)
		h->addr[h->n++] = *a;
}

int it_prime_read(const struct wire_msg *m, struct it_hints *ret,
		  uint32_t *ret_ttl, const char **ret_why)
{
	uint8_t ns[DT_IT_HINTS_MAX][DT_NAME_MAXLEN];
	struct it_hints h = {0};
	uint32_t ttl = UINT32_MAX;
	size_t nns = 0;

	*ret_why = NULL;
	if (m->rcode != WIRE_RCODE_NOERROR)
		*ret_why = "the response's RCODE is not NOERROR";
	else if (!(m->hdr.flags & WIRE_FLAG_AA))
		*ret_why = "the response is not authoritative (AA=0)";
	for (size_t i = 0; !*ret_why && i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (rr->type != WIRE_TYPE_NS || rr->rclass != WIRE_CLASS_IN ||
		    !wire_dname_is_root(rr->owner) ||
		    wire_dname_check(rr->rdata, rr->rdata + rr->rdlen) < 0 ||
		    nns == DT_IT_HINTS_MAX)
			continue;
		wire_dname_copy(ns[nns++], rr->rdata);
		ttl = rr->ttl < ttl ? rr->ttl : ttl;
	}
	if (!*ret_why && nns == 0)
		*ret_why = "no NS RRset of the root in the answer";
	for (size_t i = 0; !*ret_why && i < m->count[WIRE_SEC_ADDITIONAL];
	     i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ADDITIONAL][i];
		struct up_server a;

		if (!named((const uint8_t(*)[DT_NAME_MAXLEN])ns, nns,
			   rr->owner) ||
		    !it_addr_from_rr(rr, &a))
			continue;
		add_addr(&h, &a);
		ttl = rr->ttl < ttl ? rr->ttl : ttl;
	}
	if (!*ret_why && h.n == 0)
		*ret_why = "no address of the root's NS names in the "
			   "additional section";
	if (*ret_why)
		return DT_EUPSTREAM;
	if (ttl < DT_IT_PRIME_TTL_MIN)
		ttl = DT_IT_PRIME_TTL_MIN;
	*ret_ttl = ttl > DT_IT_PRIME_TTL_MAX ? DT_IT_PRIME_TTL_MAX : ttl;
	*ret = h;
	return 0;
}

/* --- the exchange --- */

static void tell(struct it_prime *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tell(struct it_prime *p, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	if (!p->notice)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	p->notice(p->notice_arg, text);
}

static void primed(struct it_prime *p, const struct it_hints *root,
		   uint32_t ttl, int64_t now)
{
	p->root = *root;
	p->expires = now + (int64_t)ttl * 1000;
	p->backoff_ms = 0;
	p->retry_at = 0;
	__atomic_store_n(&p->primed, true, __ATOMIC_RELAXED);
	if (!p->told_ok)
		tell(p,
		     "root primed: %zu address%s of the root's servers, "
		     "for %u s",
		     root->n, root->n == 1 ? "" : "es", (unsigned)ttl);
	p->told_ok = true;
	p->told_fail = false;
}

static void failed(struct it_prime *p, const char *why, int64_t now)
{
	if (p->backoff_ms < DT_IT_PRIME_RETRY_MIN_MS)
		p->backoff_ms = DT_IT_PRIME_RETRY_MIN_MS;
	else if (p->backoff_ms < DT_IT_PRIME_RETRY_MAX_MS / 2)
		p->backoff_ms *= 2;
	else
		p->backoff_ms = DT_IT_PRIME_RETRY_MAX_MS;
	p->retry_at = now + p->backoff_ms;
	/* The old primed servers are not kept past their TTL. */
	p->expires = 0;
	__atomic_store_n(&p->primed, false, __ATOMIC_RELAXED);
	if (!p->told_fail)
		tell(p,
		     "root priming failed: %s; the root hints are used as "
		     "the root's servers, priming again in %lld s",
		     why, (long long)(p->backoff_ms / 1000));
	p->told_fail = true;
	p->told_ok = false;
}

static void on_answer(void *arg, int err, const struct up_answer *ans,
		      int last_rcode, int64_t now)
{
	struct it_prime *p = arg;
	struct wire_msg *m = NULL;
	const char *why = "no hint address answered";
	struct it_hints root;
	uint32_t ttl = 0;
	int res = DT_ETIMEOUT, e = 0;

	p->req = NULL;
	if (err == 0 && (m = wire_msg_parse(ans->msg, ans->len, 0, &e))) {
		res = it_prime_read(m, &root, &ttl, &why);
	} else if (err == 0 || err == -ENOMEM) {
		res = err == -ENOMEM || e == -ENOMEM ? -ENOMEM : DT_EUPSTREAM;
		why = res == -ENOMEM ? "out of memory"
				     : "the response does not parse";
	} else if (last_rcode >= 0) {
		res = DT_EUPSTREAM;
		why = "the hint addresses refused or failed the query";
	}
	if (res == 0)
		primed(p, &root, ttl, now);
	else
		failed(p, why, now);
	wire_msg_free(m);
	p->done(p->arg, res, p->started, now);
}

static void set_port(struct up_server *s, uint16_t port)
{
	if (s->addr.ss_family == AF_INET)
		((struct sockaddr_in *)&s->addr)->sin_port = htons(port);
	else if (s->addr.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&s->addr)->sin6_port = htons(port);
}

/* Sends the priming query to up to DT_IT_PRIME_TRIES hint addresses,
 * from a random one on. */
static bool send_prime(struct it_prime *p, const struct it_hints *hints,
		       int64_t now, unsigned pick)
{
	struct up_conf conf = {.attempts = 1,
			       .timeout_ms = DT_IT_PRIME_TIMEOUT_MS};
	size_t off = hints->n ? pick % hints->n : 0;
	struct it_send q = {.name = (const uint8_t *)"",
			    .type = WIRE_TYPE_NS,
			    .conf = &conf};

	for (size_t i = 0; i < hints->n && conf.nns < DT_IT_PRIME_TRIES; i++) {
		conf.ns[conf.nns] = hints->addr[(off + i) % hints->n];
		if (p->port)
			set_port(&conf.ns[conf.nns], p->port);
		conf.nns++;
	}
	if (conf.nns == 0)
		return false;
	p->started = now;
	p->io.fn = on_answer;
	p->io.arg = p;
	p->req = p->env->send(p->env->arg, &q, &p->io);
	return p->req != NULL;
}

/* A restart after new hints could not be sent: the held questions go
 * on with the hints. */
void it_prime_deliver(struct it_prime *p, int64_t now)
{
	if (!p->restart_failed)
		return;
	p->restart_failed = false;
	failed(p, "out of memory", now);
	p->done(p->arg, -ENOMEM, p->started, now);
}

/* --- the interface --- */

struct it_prime *it_prime_new(const struct it_env *env, it_prime_done_fn *done,
			      void *arg)
{
	struct it_prime *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->env = env;
	p->done = done;
	p->arg = arg;
	return p;
}

static void cancel_req(struct it_prime *p)
{
	if (p->req)
		p->env->cancel(p->env->arg, p->req);
	p->req = NULL;
}

void it_prime_free(struct it_prime *p)
{
	if (!p)
		return;
	cancel_req(p);
	free(p);
}

void it_prime_set_notice(struct it_prime *p, it_notice_fn *fn, void *arg)
{
	p->notice = fn;
	p->notice_arg = arg;
}

void it_prime_set_port(struct it_prime *p, uint16_t port)
{
	p->port = port;
}

bool it_prime_hold(struct it_prime *p, const struct it_hints *hints,
		   int64_t now, unsigned pick)
{
	if (p->req || p->restart_failed)
		return true;
	if ((p->expires && now < p->expires) || now < p->retry_at)
		return false;
	if (send_prime(p, hints, now, pick))
		return true;
	failed(p, hints->n ? "out of memory" : "no hint address", now);
	return false;
}

const struct it_hints *it_prime_servers(const struct it_prime *p,
					const struct it_hints *hints,
					int64_t now)
{
	if (p->expires && now < p->expires)
		return &p->root;
	return hints;
}

void it_prime_forget(struct it_prime *p, const struct it_hints *hints,
		     int64_t now)
{
	bool under_way = p->req != NULL;

	cancel_req(p);
	p->expires = 0;
	p->retry_at = 0;
	p->backoff_ms = 0;
	p->told_ok = false;
	p->told_fail = false;
	__atomic_store_n(&p->primed, false, __ATOMIC_RELAXED);
	if (under_way && !send_prime(p, hints, now, 0)) {
		p->restart_failed = true;
		p->env->wake(p->env->arg);
	}
}

bool it_prime_primed(const struct it_prime *p)
{
	return __atomic_load_n(&p->primed, __ATOMIC_RELAXED);
}
