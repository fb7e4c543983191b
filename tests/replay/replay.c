/* SPDX-License-Identifier: MIT */
/*
 * replay FILE...: runs each .rpl scenario against the resolver core
 * (src/resolver) with a scripted upstream and a frozen clock. Prints
 * "PASS file" or "FAIL file: step N: why" per scenario and ends with
 * "N passed, N failed"; exits 0 only when none failed. -t adds each
 * scenario's run time.
 *
 * Fetches are queued by rsv_env.fetch and answered after each QUERY
 * step, in order, from the first entry that matches among the ranges in
 * force at that step (one upstream plays the forwarder of every range);
 * a fetch no entry matches times out (DT_ETIMEOUT).
 */
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache/cache.h"
#include "common/errcode.h"
#include "policy/nta.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "rpl.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

/* Before any val-override-date: 2026-01-01 00:00:00 UTC. */
#define REPLAY_DEFAULT_DATE  1767225600
#define REPLAY_MONO_START_MS 1000000
/* A question that causes more fetches than this is a loop. */
#define REPLAY_MAX_FETCHES 2000
#define REPLAY_CACHE_BYTES (8u * 1024 * 1024)
#define REPLAY_UPSTREAM	   "192.0.2.53"

struct pending {
	struct rsv_fetch *f;
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	bool cancelled;
	unsigned round; /* 1: asked when the question came */
	bool split; /* servers given (split DNS) */
	struct up_conf servers;
};

struct query {
	struct rsv_waiter wt; /* first: the waiter is the query */
	struct query *next;
};

struct reply {
	uint8_t *buf; /* NULL: the question got no answer */
	size_t len;
	long step;
	struct reply *next;
};

struct run {
	const struct rpl_scenario *sc;
	struct resolver *r;
	struct rsv_clock now;
	long step;
	struct pending *q; /* fetches queued */
	size_t nq, head, capq;
	unsigned long fetches;
	unsigned round, rounds; /* of the fetch being answered; the most */
	struct query *queries;
	struct reply *replies, **rtail;
	bool oom;
	bool trace;
	uint8_t buf[DT_MSG_MAXLEN];
};

static int env_fetch(void *arg, struct rsv_fetch *f, const uint8_t *name,
		     uint16_t type, const struct up_conf *servers,
		     void **handle)
{
	struct run *run = arg;
	struct pending *p;

	(void)servers; /* one scripted upstream plays every server */
	if (run->nq == run->capq) {
		size_t cap = run->capq ? run->capq * 2 : 64;
		struct pending *nq = realloc(run->q, cap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		run->q = nq;
		run->capq = cap;
	}
	p = &run->q[run->nq];
	p->f = f;
	wire_dname_copy(p->name, name);
	p->type = type;
	p->cancelled = false;
	p->round = run->round + 1;
	if (p->round > run->rounds)
		run->rounds = p->round;
	p->split = servers != NULL;
	if (servers)
		p->servers = *servers;
	*handle = (void *)(uintptr_t)++run->nq;
	run->fetches++;
	return 0;
}

static void env_cancel(void *arg, void *handle)
{
	struct run *run = arg;
	size_t i = (uintptr_t)handle;

	if (i >= 1 && i <= run->nq)
		run->q[i - 1].cancelled = true;
}

static void push_reply(struct run *run, const uint8_t *msg, size_t len)
{
	struct reply *rp = calloc(1, sizeof(*rp));

	if (!rp) {
		run->oom = true;
		return;
	}
	rp->step = run->step;
	if (msg) {
		rp->buf = malloc(len);
		if (!rp->buf) {
			free(rp);
			run->oom = true;
			return;
		}
		memcpy(rp->buf, msg, len);
		rp->len = len;
	}
	*run->rtail = rp;
	run->rtail = &rp->next;
}

static void env_answered(void *arg, struct rsv_waiter *waiters,
			 const struct rsv_done *d)
{
	struct run *run = arg;

	for (struct rsv_waiter *w = waiters, *wn; w; w = wn) {
		size_t len = answer_render(d->a, &w->q, 0, run->buf,
					   sizeof(run->buf));

		wn = w->next;
		push_reply(run, run->buf, len);
	}
}

/* REPLAY_TRACE=1 in the environment: each fetch and the entry that
 * answers it, on stderr. */
static void trace(const uint8_t *name, uint16_t type, int tcp,
		  const struct rpl_entry *hit)
{
	char n[DT_NAME_TEXT_MAXLEN], t[16];

	if (wire_dname_to_str(name, n, sizeof(n)) < 0)
		snprintf(n, sizeof(n), "?");
	fprintf(stderr, "  fetch %s %s%s: ", n, wire_type_to_str(type, t),
		tcp ? " (TCP)" : "");
	if (hit)
		fprintf(stderr, "entry of line %u\n", hit->line);
	else
		fprintf(stderr, "no entry, timeout\n");
}

/* With REPLAY_TRACE: the reply a CHECK_ANSWER looks at. */
static void trace_reply(const uint8_t *msg, size_t len)
{
	static const char *const names[] = {"ANSWER", "AUTHORITY",
					    "ADDITIONAL"};
	struct wire_msg *m;
	uint16_t code;
	const char *text;
	size_t tl;
	int err;
	char *t;

	m = wire_msg_parse(msg, len, 0, &err);
	if (!m) {
		fprintf(stderr, "  reply: does not parse (%s)\n",
			errcode_str(err));
		return;
	}
	fprintf(stderr, "  reply: rcode %u flags 0x%04x\n", m->rcode,
		m->hdr.flags);
	if (m->edns.present && wire_edns_ede(&m->edns, &code, &text, &tl) == 1)
		fprintf(stderr, "  EDE %u: %.*s\n", code, (int)tl, text);
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			size_t n = WIRE_RR_TEXT_MAXLEN(rr->rdlen);

			t = malloc(n);
			if (t && wire_rr_to_str(rr, t, n) >= 0)
				fprintf(stderr, "  %s %.200s\n", names[s], t);
			free(t);
		}
	}
	wire_msg_free(m);
}

static bool addr_is(const struct rpl_addr *a, const struct up_server *ns)
{
	const struct sockaddr_storage *ss = &ns->addr;

	if (a->family != ss->ss_family)
		return false;
	if (a->family == AF_INET)
		return memcmp(a->a, &((const struct sockaddr_in *)ss)->sin_addr,
			      4) == 0;
	return memcmp(a->a, &((const struct sockaddr_in6 *)ss)->sin6_addr,
		      16) == 0;
}

static bool addr_in(const struct rpl_addr *a, const struct up_conf *servers)
{
	for (size_t i = 0; i < servers->nns; i++)
		if (addr_is(a, &servers->ns[i]))
			return true;
	return false;
}

/* Whether range r plays one of servers (a split DNS upstream), or with
 * servers NULL the default upstream: a range without ADDRESS, or with one
 * that no `domain ... upstream` of the configuration names. */
static bool range_serves(const struct rpl_scenario *sc,
			 const struct rpl_range *r,
			 const struct up_conf *servers)
{
	if (!r->naddr)
		return true;
	for (size_t i = 0; i < r->naddr; i++) {
		bool split = false;

		if (servers) {
			if (addr_in(&r->addr[i], servers))
				return true;
			continue;
		}
		for (size_t d = 0; d < sc->cfg.ndomain && !split; d++) {
			struct up_conf c = {.nns = sc->cfg.domain[d].nns};

			memcpy(c.ns, sc->cfg.domain[d].ns, sizeof(c.ns));
			split = addr_in(&r->addr[i], &c);
		}
		if (!split)
			return true;
	}
	return false;
}

/* The first entry in force that answers (name, type) for these servers;
 * a TC reply is retried over TCP as the transport does. */
static int upstream_answer(struct run *run, const struct pending *p,
			   uint8_t *out, size_t cap)
{
	const uint8_t *name = p->name;
	uint16_t type = p->type;

	for (int tcp = 0; tcp < 2; tcp++) {
		const struct rpl_entry *hit = NULL;
		int len;

		for (const struct rpl_range *r = run->sc->ranges; r && !hit;
		     r = r->next) {
			if (run->step < r->first || run->step > r->last ||
			    !range_serves(run->sc, r,
					  p->split ? &p->servers : NULL))
				continue;
			for (const struct rpl_entry *e = r->entries; e && !hit;
			     e = e->next)
				if (rpl_entry_matches(e, name, type, tcp))
					hit = e;
		}
		if (run->trace)
			trace(name, type, tcp, hit);
		if (!hit)
			return DT_ETIMEOUT;
		len = rpl_entry_reply(hit, name, type, out, cap);
		if (len < 0)
			return DT_EUPSTREAM;
		if (hit->hex || !(hit->flags & WIRE_FLAG_TC))
			return len;
	}
	return DT_ETIMEOUT;
}

static int drain(struct run *run, char *why, size_t whylen)
{
	static uint8_t msg[DT_MSG_MAXLEN];

	while (run->head < run->nq) {
		struct pending p = run->q[run->head++];
		int len;

		if (p.cancelled)
			continue;
		if (run->fetches > REPLAY_MAX_FETCHES) {
			snprintf(why, whylen, "more than %d fetches",
				 REPLAY_MAX_FETCHES);
			return -1;
		}
		len = upstream_answer(run, &p, msg, sizeof(msg));
		run->round = p.round;
		if (len < 0)
			rsv_fetch_done(p.f, len, NULL, 0, REPLAY_UPSTREAM,
				       &run->now);
		else
			rsv_fetch_done(p.f, 0, msg, (size_t)len,
				       REPLAY_UPSTREAM, &run->now);
	}
	return 0;
}

static int make_qinfo(const struct rpl_entry *e, long step, struct qinfo *q,
		      char *why, size_t whylen)
{
	if (!e || !e->has_q) {
		snprintf(why, whylen, "QUERY without a question");
		return -1;
	}
	memset(q, 0, sizeof(*q));
	q->id = (uint16_t)step;
	q->flags = e->flags & (WIRE_FLAG_RD | WIRE_FLAG_CD);
	q->edns = true;
	q->do_bit = e->do_bit;
	q->udp_size = (e->match & RPL_M_TCP) ? 0 : 4096;
	wire_dname_copy(q->qname, e->qname);
	q->qtype = e->qtype;
	q->qclass = e->qclass;
	return 0;
}

static int step_query(struct run *run, const struct rpl_step *st, char *why,
		      size_t whylen)
{
	struct reply **before = run->rtail;
	struct query *qr;
	size_t len;
	int ret;

	qr = calloc(1, sizeof(*qr));
	if (!qr) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	qr->next = run->queries;
	run->queries = qr;
	if (make_qinfo(st->e, st->n, &qr->wt.q, why, whylen) < 0)
		return -1;
	run->round = run->rounds = 0;
	len = answer_cached(run->r, &qr->wt.q, &run->now, run->buf,
			    sizeof(run->buf));
	if (len) {
		push_reply(run, run->buf, len);
		/* A hit may start a prefetch: its fetches are answered
		 * now, as an upstream would while the client reads. */
		return drain(run, why, whylen);
	}
	ret = rsv_submit(run->r, &qr->wt, &run->now);
	if (ret < 0) {
		snprintf(why, whylen, "rsv_submit: %s", errcode_str(ret));
		return -1;
	}
	if (drain(run, why, whylen) < 0)
		return -1;
	if (run->rtail == before && qr->wt.task) {
		rsv_detach(&qr->wt);
		push_reply(run, NULL, 0);
	}
	return 0;
}

static int step_check(struct run *run, const struct rpl_step *st, char *why,
		      size_t whylen)
{
	struct reply *rp = run->replies;
	int ret;

	if (!st->e) {
		snprintf(why, whylen, "CHECK_ANSWER without an entry");
		return -1;
	}
	if (!rp) {
		snprintf(why, whylen, "no reply to check");
		return -1;
	}
	run->replies = rp->next;
	if (!run->replies)
		run->rtail = &run->replies;
	if (!rp->buf) {
		snprintf(why, whylen, "the question of step %ld got no answer",
			 rp->step);
		ret = -1;
	} else {
		if (run->trace)
			trace_reply(rp->buf, rp->len);
		ret = rpl_check(st->e, rp->buf, rp->len, why, whylen);
	}
	free(rp->buf);
	free(rp);
	return ret;
}

static int run_step(struct run *run, const struct rpl_step *st, char *why,
		    size_t whylen)
{
	run->step = st->n;
	switch (st->kind) {
	case RPL_QUERY: return step_query(run, st, why, whylen);
	case RPL_CHECK_ANSWER: return step_check(run, st, why, whylen);
	case RPL_TIME_PASSES:
		run->now.wall += st->arg;
		run->now.mono_ms += st->arg * 1000;
		return 0;
	case RPL_CHECK_FETCHES:
		if (run->fetches == (unsigned long)st->arg)
			return 0;
		snprintf(why, whylen, "%lu upstream queries, expected %ld",
			 run->fetches, st->arg);
		return -1;
	case RPL_CHECK_ROUNDS:
		if (run->rounds == (unsigned long)st->arg)
			return 0;
		snprintf(why, whylen, "%u upstream round trips, expected %ld",
			 run->rounds, st->arg);
		return -1;
	case RPL_UNSUPPORTED: break;
	}
	snprintf(why, whylen, "%s: not supported", st->name);
	return -1;
}

/* The scenario's state, with nta as its runtime negative trust anchors
 * (the runner's own, never a file of the host). */
static struct dstate *make_state(struct rpl_scenario *sc, struct nta_rt *nta)
{
	struct val_anchors *ta = sc->ta;
	struct dstate *st;

	sc->ta = NULL; /* taken by dstate_new */
	st = dstate_new(&sc->cfg, ta, "replay");
	if (st)
		st->nta = nta;
	return st;
}

static void run_free(struct run *run)
{
	if (run->r)
		rsv_free(run->r);
	for (struct query *q = run->queries, *qn; q; q = qn) {
		qn = q->next;
		free(q);
	}
	for (struct reply *rp = run->replies, *rn; rp; rp = rn) {
		rn = rp->next;
		free(rp->buf);
		free(rp);
	}
	free(run->q);
}

/* Runs the steps; returns 0 or -1 with "step N: why". */
static int run_scenario(struct rpl_scenario *sc, char *why, size_t whylen)
{
	static const struct rsv_env env_tmpl = {
		.fetch = env_fetch,
		.fetch_cancel = env_cancel,
		.answered = env_answered,
	};
	struct rsv_env env = env_tmpl;
	struct run *run = calloc(1, sizeof(*run));
	struct cache *c = NULL;
	struct dstate *st = NULL;
	struct nta_rt *nta = nta_rt_new(NULL); /* empty, in memory only */
	char msg[400] = "";
	long failed_step = -1;

	if (!run) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	run->sc = sc;
	run->rtail = &run->replies;
	run->trace = getenv("REPLAY_TRACE") != NULL;
	run->now.wall = sc->has_date ? sc->date : REPLAY_DEFAULT_DATE;
	run->now.mono_ms = REPLAY_MONO_START_MS;
	env.arg = run;
	c = cache_new(REPLAY_CACHE_BYTES);
	st = nta ? make_state(sc, nta) : NULL;
	if (c && st)
		run->r = rsv_new(c, &env);
	if (!run->r) {
		snprintf(msg, sizeof(msg), "out of memory");
	} else {
		rsv_set_state(run->r, st);
		for (size_t i = 0; i < sc->nsteps && !msg[0]; i++) {
			if (run_step(run, &sc->steps[i], msg, sizeof(msg)) < 0)
				failed_step = sc->steps[i].n;
			else if (run->oom)
				snprintf(msg, sizeof(msg), "out of memory");
		}
	}
	run_free(run);
	free(run);
	if (st)
		dstate_put(st);
	if (c)
		cache_free(c);
	nta_rt_free(nta);
	if (!msg[0])
		return 0;
	if (failed_step >= 0)
		snprintf(why, whylen, "step %ld: %s", failed_step, msg);
	else
		snprintf(why, whylen, "%s", msg);
	return -1;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int run_file(const char *path, bool timing)
{
	struct rpl_scenario *sc = NULL;
	char why[512] = "";
	struct timespec t0;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = rpl_load(path, &sc, why, sizeof(why));
	if (ret == 0 && sc->unsupported[0]) {
		snprintf(why, sizeof(why), "%s: not supported",
			 sc->unsupported);
		ret = -1;
	}
	if (ret == 0)
		ret = run_scenario(sc, why, sizeof(why));
	rpl_free(sc);
	if (ret == 0)
		printf("PASS %s", path);
	else
		printf("FAIL %s: %s", path, why);
	if (timing)
		printf(" (%.1f ms)", ms_since(&t0));
	printf("\n");
	fflush(stdout);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned passed = 0, failed = 0;
	bool timing = false;
	int i = 1;

	if (i < argc && strcmp(argv[i], "-t") == 0) {
		timing = true;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: replay [-t] FILE...\n");
		return 2;
	}
	for (; i < argc; i++) {
		if (run_file(argv[i], timing) == 0)
			passed++;
		else
			failed++;
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
