/* SPDX-License-Identifier: MIT */
/*
 * replay FILE...: runs each .rpl scenario against the resolver core
 * (src/resolver) with a scripted upstream and a frozen clock. Prints
 * "PASS file" or "FAIL file: step N: why" per scenario and ends with
 * "N passed, N failed"; exits 0 only when none failed. -t adds each
 * scenario's run time.
 *
 * Fetches are queued by rsv_env.fetch and answered after each QUERY
 * step, in order. A scenario of a forwarder (a forward-zone, or no
 * server named at all) has them answered from the first entry that
 * matches among the ranges in force at that step (one upstream plays
 * the forwarder of every range); a fetch no entry matches times out
 * (DT_ETIMEOUT). A scenario of a recursive resolver (a stub-zone, root
 * hints given by stub-addr, or a range that plays a root server) has
 * them resolved by the iterator core (src/iterator) from those hints:
 * each query it sends to a server is answered from the ranges whose
 * ADDRESS is that server (or that name none), as that server would.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "cache/cache.h"
#include "common/arena.h"
#include "common/errcode.h"
#include "iterator/iterate.h"
#include "policy/nta.h"
#include "resolver/render.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "rpl.h"
#include "rpl_at.h"
#include "validator/anchor.h"
#include "validator/autotrust.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

/* Before any val-override-date: 2026-01-01 00:00:00 UTC. */
#define REPLAY_DEFAULT_DATE  1767225600
#define REPLAY_MONO_START_MS 1000000
/* A question that causes more fetches than this is a loop. */
#define REPLAY_MAX_FETCHES 2000
/* Queries of the iterator core to servers, likewise. */
#define REPLAY_MAX_AUTHQUERIES 20000
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
	struct it_req *ireq; /* resolved by the iterator core */
};

/* A query of the iterator core to its server(s), not answered yet. */
struct authq {
	struct it_io *io;
	struct up_conf conf;
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	bool cancelled;
	unsigned round; /* 1: sent when the question came */
};

/* The fetch an iterated question answers (by index: run->q moves). */
struct ifetch {
	struct run *run;
	size_t idx;
	struct ifetch *next;
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
	/* recursion (NULL it: a forwarder's scenario) */
	struct iterator *it;
	struct authq *aq;
	size_t naq, aqhead, capaq;
	bool woken; /* it_deliver is due */
	struct ifetch *ifx;
	unsigned long authqueries;
	/* round trips to servers: the round of the query being answered
	 * (or of the one whose answer ended the questions delivered), of
	 * the latest that ended a question, the most of the last QUERY */
	unsigned aq_round, wake_round, aq_rounds;
	struct up_server answered_by;
	/* RFC 5011 (a scenario with an AUTOTRUST_FILE; NULL at: none) */
	struct val_at *at;
	struct val_at_policy pol;
	int64_t at_base; /* testbound's time 0 on the wall clock */
	struct rpl_vars vars;
	struct cache *cache;
	struct dstate *st;	  /* the state in force */
	struct val_anchors *base; /* the scenario's own trust-anchor lines */
	struct nta_rt *nta;
	bool *out_used; /* per step: a CHECK_OUT_QUERY or REPLY step that
			   a query sent has taken */
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
	p->ireq = NULL;
	*handle = (void *)(uintptr_t)++run->nq;
	run->fetches++;
	return 0;
}

static void env_cancel(void *arg, void *handle)
{
	struct run *run = arg;
	size_t i = (uintptr_t)handle;

	if (i >= 1 && i <= run->nq) {
		run->q[i - 1].cancelled = true;
		it_cancel(run->q[i - 1].ireq);
		run->q[i - 1].ireq = NULL;
	}
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
static void server_name(const struct up_server *s, char *out, size_t cap);

static void trace(const uint8_t *name, uint16_t type, int tcp,
		  const struct up_server *to, const struct rpl_entry *hit)
{
	char n[DT_NAME_TEXT_MAXLEN], t[16], a[64] = "";

	if (wire_dname_to_str(name, n, sizeof(n)) < 0)
		snprintf(n, sizeof(n), "?");
	if (to)
		server_name(to, a, sizeof(a));
	fprintf(stderr, "  fetch %s %s%s%s%s: ", n, wire_type_to_str(type, t),
		tcp ? " (TCP)" : "", to ? " to " : "", a);
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

/* Which ranges may answer: those serving the default upstreams or a
 * split-DNS rule's (servers), or those playing one server (addr). */
struct who {
	const struct up_conf *servers;
	const struct up_server *addr;
};

static bool range_answers(const struct rpl_scenario *sc,
			  const struct rpl_range *r, const struct who *w);

/* The first entry in force, of the ranges w allows, that answers (name,
 * type); a TC reply is retried over TCP as the transport does (*tcp
 * says which answered). The length, DT_ETIMEOUT when no entry matches,
 * DT_EUPSTREAM when the entry cannot be built. */
/*
 * testbound's CHECK_OUT_QUERY and REPLY steps: a query no range answers
 * that the next CHECK_OUT_QUERY step still to come matches gets the
 * entry of the REPLY step after it, and both steps are marked taken
 * (the steps themselves then check that they were). Returns the reply's
 * length, or DT_ETIMEOUT when there is none.
 */
static int out_reply(struct run *run, const uint8_t *name, uint16_t type,
		     uint8_t *out, size_t cap)
{
	const struct rpl_scenario *sc = run->sc;
	size_t i = 0, k;
	int len;

	while (i < sc->nsteps && (sc->steps[i].n <= run->step ||
				  sc->steps[i].kind != RPL_CHECK_OUT ||
				  run->out_used[i]))
		i++;
	if (i == sc->nsteps || !sc->steps[i].e ||
	    !rpl_entry_matches(sc->steps[i].e, name, type, false))
		return DT_ETIMEOUT;
	for (k = i + 1; k < sc->nsteps && sc->steps[k].kind != RPL_REPLY; k++)
		;
	if (k == sc->nsteps || !sc->steps[k].e || run->out_used[k])
		return DT_ETIMEOUT;
	len = rpl_entry_reply(sc->steps[k].e, name, type, out, cap);
	if (len < 0)
		return DT_EUPSTREAM;
	run->out_used[i] = run->out_used[k] = true;
	return len;
}

/* The first entry answering (name, type) over t (TCP) in a range of
 * w's in force at step at. */
static const struct rpl_entry *range_hit(const struct run *run,
					 const struct who *w, long at,
					 const uint8_t *name, uint16_t type,
					 int t)
{
	for (const struct rpl_range *r = run->sc->ranges; r; r = r->next) {
		if (at < r->first || at > r->last ||
		    !range_answers(run->sc, r, w))
			continue;
		for (const struct rpl_entry *e = r->entries; e; e = e->next)
			if (rpl_entry_matches(e, name, type, t))
				return e;
	}
	return NULL;
}

/*
 * testbound leaves a query that no range answers pending, and answers
 * it at a later step from the ranges in force then. The steps before
 * the next CHECK_ANSWER (NOTHING, TIME_PASSES ...) are such later
 * moments: the first of them whose ranges answer the query does. NULL
 * when none does (the query times out, as before).
 */
static const struct rpl_entry *later_hit(const struct run *run,
					 const struct who *w,
					 const uint8_t *name, uint16_t type)
{
	const struct rpl_scenario *sc = run->sc;
	const struct rpl_entry *hit;

	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct rpl_step *st = &sc->steps[i];

		if (st->n <= run->step)
			continue;
		if (st->kind == RPL_CHECK_ANSWER || st->kind == RPL_QUERY)
			break;
		if ((hit = range_hit(run, w, st->n, name, type, 0)))
			return hit;
	}
	return NULL;
}

static int entry_answer(struct run *run, const struct who *w,
			const uint8_t *name, uint16_t type, uint8_t *out,
			size_t cap, bool *tcp)
{
	for (int t = 0; t < 2; t++) {
		const struct rpl_entry *hit =
			range_hit(run, w, run->step, name, type, t);
		int len;

		if (!hit && t == 0)
			hit = later_hit(run, w, name, type);
		if (!hit && t == 0 && run->out_used &&
		    (len = out_reply(run, name, type, out, cap)) !=
			    DT_ETIMEOUT) {
			if (run->trace)
				fprintf(stderr, "  fetch: a REPLY step\n");
			*tcp = false;
			return len;
		}
		if (run->trace)
			trace(name, type, t, w->addr, hit);
		if (!hit)
			return DT_ETIMEOUT;
		len = rpl_entry_reply(hit, name, type, out, cap);
		if (len < 0)
			return DT_EUPSTREAM;
		*tcp = t;
		if (hit->hex || !(hit->flags & WIRE_FLAG_TC))
			return len;
	}
	return DT_ETIMEOUT;
}

/* The first entry in force that answers (name, type) for these servers;
 * a TC reply is retried over TCP as the transport does. */
static int upstream_answer(struct run *run, const struct pending *p,
			   uint8_t *out, size_t cap)
{
	struct who w = {.servers = p->split ? &p->servers : NULL};
	bool tcp;

	return entry_answer(run, &w, p->name, p->type, out, cap, &tcp);
}

/* --- recursion: the iterator core's queries, each to its server --- */

/* Whether range r plays server a (a range without ADDRESS plays all). */
static bool range_plays(const struct rpl_range *r, const struct up_server *a)
{
	if (!r->naddr)
		return true;
	for (size_t i = 0; i < r->naddr; i++)
		if (addr_is(&r->addr[i], a))
			return true;
	return false;
}

/* The reply of server a to (name, type): the first entry in force of
 * the ranges that play it; a TC reply is retried over TCP (*tcp). The
 * length, or DT_ETIMEOUT when no entry matches. */
static int server_answer(struct run *run, const struct up_server *a,
			 const uint8_t *name, uint16_t type, uint8_t *out,
			 size_t cap, bool *tcp)
{
	struct who w = {.addr = a};

	return entry_answer(run, &w, name, type, out, cap, tcp);
}

static bool range_answers(const struct rpl_scenario *sc,
			  const struct rpl_range *r, const struct who *w)
{
	return w->addr ? range_plays(r, w->addr)
		       : range_serves(sc, r, w->servers);
}

/* Whether the transport would try the next server after this RCODE
 * (transport.h): SERVFAIL, REFUSED, NOTIMP, FORMERR. */
static bool rcode_next(int rcode)
{
	return rcode == WIRE_RCODE_SERVFAIL || rcode == WIRE_RCODE_REFUSED ||
	       rcode == WIRE_RCODE_NOTIMP || rcode == WIRE_RCODE_FORMERR;
}

/* Answers one query of the core as the transport would: its servers in
 * turn until one gives a usable response. */
static void auth_answer(struct run *run, const struct authq *a)
{
	static uint8_t msg[DT_MSG_MAXLEN];
	int err = DT_ETIMEOUT, last_rcode = -1;

	run->aq_round = a->round;
	for (size_t i = 0; i < a->conf.nns; i++) {
		bool tcp = false;
		int len = server_answer(run, &a->conf.ns[i], a->name, a->type,
					msg, sizeof(msg), &tcp);
		int rcode;

		run->authqueries++;
		if (len == DT_ETIMEOUT)
			continue;
		if (len < 12) {
			err = DT_EUPSTREAM;
			last_rcode = WIRE_RCODE_FORMERR;
			continue;
		}
		rcode = msg[3] & 0x0f;
		if (rcode_next(rcode)) {
			err = DT_EUPSTREAM;
			last_rcode = rcode;
			continue;
		}
		run->answered_by = a->conf.ns[i];
		struct up_answer ans = {.msg = msg,
					.len = (size_t)len,
					.server = &run->answered_by,
					.tcp = tcp};
		it_recv(a->io, 0, &ans, rcode, run->now.mono_ms);
		return;
	}
	it_recv(a->io, err, NULL, last_rcode, run->now.mono_ms);
}

static void *it_send(void *arg, const struct it_send *q, struct it_io *io)
{
	struct run *run = arg;
	struct authq *a;

	if (run->naq == run->capaq) {
		size_t cap = run->capaq ? run->capaq * 2 : 64;
		struct authq *na = realloc(run->aq, cap * sizeof(*na));

		if (!na)
			return NULL;
		run->aq = na;
		run->capaq = cap;
	}
	a = &run->aq[run->naq];
	memset(a, 0, sizeof(*a));
	a->io = io;
	a->conf = *q->conf;
	wire_dname_copy(a->name, q->name);
	a->type = q->type;
	a->round = run->aq_round + 1;
	if (a->round > run->aq_rounds)
		run->aq_rounds = a->round;
	return (void *)(uintptr_t)++run->naq;
}

static void it_unsend(void *arg, void *handle)
{
	struct run *run = arg;
	size_t i = (uintptr_t)handle;

	if (i >= 1 && i <= run->naq)
		run->aq[i - 1].cancelled = true;
}

static void it_wake(void *arg)
{
	struct run *run = arg;

	run->woken = true;
	if (run->aq_round > run->wake_round)
		run->wake_round = run->aq_round;
}

static void server_name(const struct up_server *s, char *out, size_t cap)
{
	const struct sockaddr_storage *ss = &s->addr;
	const void *a =
		ss->ss_family == AF_INET
			? (const void *)&((const struct sockaddr_in *)ss)
				  ->sin_addr
			: (const void *)&((const struct sockaddr_in6 *)ss)
				  ->sin6_addr;

	if (!inet_ntop(ss->ss_family, a, out, (socklen_t)cap))
		snprintf(out, cap, "?");
}

/* The resolver core asks again and names a server that sent bad data:
 * the iterator asks the zone's other servers first (as the daemon's
 * does). */
static void env_distrust(void *arg, const char *from)
{
	struct run *run = arg;

	if (run->trace)
		fprintf(stderr, "  distrust %s\n", from);
	if (run->it)
		it_distrust(run->it, from, server_name, run->now.mono_ms);
}

/* The end of an iterated fetch: its response to the resolver core. */
static void it_fetched(void *arg, int err, const struct up_answer *ans,
		       int last_rcode)
{
	struct ifetch *x = arg;
	struct run *run = x->run;
	struct pending *p = &run->q[x->idx];
	char from[DT_FETCH_FROM_LEN] = REPLAY_UPSTREAM;

	(void)last_rcode;
	p->ireq = NULL;
	if (p->cancelled)
		return;
	run->round = p->round;
	if (err) {
		rsv_fetch_done(p->f, err, NULL, 0, from, &run->now);
		return;
	}
	server_name(ans->server, from, sizeof(from));
	rsv_fetch_done(p->f, 0, ans->msg, ans->len, from, &run->now);
}

/* Starts the iterated question of fetch idx. */
static int iterate_fetch(struct run *run, size_t idx)
{
	struct ifetch *x = calloc(1, sizeof(*x));
	struct pending *p = &run->q[idx];

	if (!x)
		return -ENOMEM;
	x->run = run;
	x->idx = idx;
	x->next = run->ifx;
	run->ifx = x;
	p->ireq = it_query_nest(run->it, run->now.mono_ms, p->name, p->type,
				rsv_fetch_nest(p->f), it_fetched, x);
	return p->ireq ? 0 : -ENOMEM;
}

/* Answers one fetch of the forwarder's scenario. */
static void forward_fetch(struct run *run, const struct pending *p)
{
	static uint8_t msg[DT_MSG_MAXLEN];
	int len = upstream_answer(run, p, msg, sizeof(msg));

	run->round = p->round;
	if (len < 0)
		rsv_fetch_done(p->f, len, NULL, 0, REPLAY_UPSTREAM, &run->now);
	else
		rsv_fetch_done(p->f, 0, msg, (size_t)len, REPLAY_UPSTREAM,
			       &run->now);
}

/* Runs until nothing is left to do: the resolver's fetches, the core's
 * queries to servers, the core's ends. */
static int drain(struct run *run, char *why, size_t whylen)
{
	for (;;) {
		if (run->fetches > REPLAY_MAX_FETCHES ||
		    run->authqueries > REPLAY_MAX_AUTHQUERIES) {
			snprintf(why, whylen,
				 "more than %d fetches or %d "
				 "queries to servers",
				 REPLAY_MAX_FETCHES, REPLAY_MAX_AUTHQUERIES);
			return -1;
		}
		if (run->head < run->nq) {
			size_t idx = run->head++;
			struct pending p = run->q[idx];

			if (p.cancelled)
				continue;
			if (run->it && !p.split) {
				if (iterate_fetch(run, idx) < 0) {
					snprintf(why, whylen, "out of memory");
					return -1;
				}
				continue;
			}
			forward_fetch(run, &p);
			continue;
		}
		if (run->aqhead < run->naq) {
			struct authq a = run->aq[run->aqhead++];

			if (!a.cancelled)
				auth_answer(run, &a);
			continue;
		}
		if (run->woken) {
			run->woken = false;
			run->aq_round = run->wake_round;
			run->wake_round = 0;
			it_deliver(run->it, run->now.mono_ms);
			continue;
		}
		return 0;
	}
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
	/* AD in a query asks for the AD bit without DO (RFC 6840 §5.8). */
	q->flags = e->flags & (WIRE_FLAG_RD | WIRE_FLAG_CD | WIRE_FLAG_AD);
	q->edns = true;
	q->do_bit = e->do_bit;
	q->udp_size = (e->match & RPL_M_TCP) ? 0 : 4096;
	wire_dname_copy(q->qname, e->qname);
	q->qtype = e->qtype;
	q->qclass = e->qclass;
	return 0;
}

/*
 * A question of another class than IN never reaches the resolver core:
 * dnstrustd's listener (src/daemon/server.c) answers class CH from its
 * administrative names (admin.c: under dnstrust. and version.bind,
 * which no peer scenario asks; any other CH name is REFUSED, "unknown
 * administrative name") and refuses the other classes. The runner gives
 * the listener's answer, so that a CH question is never resolved as IN.
 * Returns its length in run->buf, or 0 for class IN.
 */
static size_t answer_class(struct run *run, const struct qinfo *q)
{
	if (q->qclass == WIRE_CLASS_IN)
		return 0;
	return render_error(q, WIRE_RCODE_REFUSED, WIRE_EDE_NOT_SUPPORTED,
			    q->qclass == WIRE_CLASS_CH
				    ? "unknown administrative name"
				    : "only class IN is resolved",
			    run->buf, sizeof(run->buf));
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
	run->aq_round = run->wake_round = run->aq_rounds = 0;
	if ((len = answer_class(run, &qr->wt.q))) {
		push_reply(run, run->buf, len);
		return 0;
	}
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
		ret = rpl_check(st->e, rp->buf, rp->len, run->sc->peer, why,
				whylen);
	}
	free(rp->buf);
	free(rp);
	return ret;
}

/* --- RFC 5011: the trust points of AUTOTRUST_FILE, probed as time
 * passes, with the validator-level state machine (val_at_update) as
 * dnstrustd's refresh runs it --- */

/* The scenario's own anchors with the trusted keys of run->at. */
static struct val_anchors *at_anchors(const struct run *run)
{
	struct val_anchors *ta = val_anchors_new();
	size_t n = run->base ? val_anchors_count(run->base) : 0;
	int r = 0;

	for (size_t i = 0; ta && r >= 0 && i < n; i++) {
		const struct val_anchor_zone *az =
			val_anchors_get(run->base, i);

		for (size_t j = 0; r >= 0 && j < az->nds; j++)
			r = val_anchors_add(ta, &az->ds[j]);
		for (size_t j = 0; r >= 0 && j < az->ndnskey; j++)
			r = val_anchors_add(ta, &az->dnskey[j]);
	}
	if (ta && (r < 0 || val_at_anchors(run->at, ta) < 0)) {
		val_anchors_free(ta);
		return NULL;
	}
	return ta;
}

static bool any_key(const uint8_t *key, size_t klen, void *arg)
{
	(void)key;
	(void)klen;
	(void)arg;
	return true;
}

/* The resolver's state with the anchors of now, as dnstrustd's reload
 * after the trusted keys changed makes it (the cache dropped too). */
static int at_restate(struct run *run)
{
	struct val_anchors *ta = at_anchors(run);
	struct dstate *st;

	if (!ta)
		return -ENOMEM;
	st = dstate_new(&run->sc->cfg, ta, "replay");
	if (!st)
		return -ENOMEM;
	st->test_fake_sig = run->sc->fake_sig;
	st->test_sig_time_any = run->sc->sig_time_any;
	st->nta = run->nta;
	rsv_set_state(run->r, st);
	if (run->st)
		dstate_put(run->st);
	run->st = st;
	cache_remove_if(run->cache, any_key, NULL);
	return 0;
}

/* Times of Unbound's file (testbound's clock) on the runner's wall
 * clock; 0 (never) stays. */
static int64_t at_wall(const struct run *run, int64_t t)
{
	return t ? t + run->at_base : 0;
}

static void ub_shift(const struct run *run, struct rpl_ub_point *ub)
{
	ub->last_queried = at_wall(run, ub->last_queried);
	ub->last_success = at_wall(run, ub->last_success);
	ub->next_probe = at_wall(run, ub->next_probe);
	for (size_t i = 0; i < ub->nkeys; i++)
		if (ub->keys[i].has_state)
			ub->keys[i].lastchange =
				at_wall(run, ub->keys[i].lastchange);
}

/* Unbound's file text of a step or AUTOTRUST_FILE, read for what it
 * means; NULL with why. */
static struct rpl_ub_point *ub_read(struct run *run, const char *text,
				    char *why, size_t whylen)
{
	size_t cap = (text ? strlen(text) : 0) * 2 + 4096;
	char *x = malloc(cap);
	struct rpl_ub_point *ub = malloc(sizeof(*ub));

	if (!x || !ub) {
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	if (rpl_expand(&run->vars, text ? text : "", x, cap, why, whylen) < 0 ||
	    rpl_ub_parse(x, ub, why, whylen) < 0)
		goto fail;
	free(x);
	ub_shift(run, ub);
	return ub;
fail:
	free(x);
	free(ub);
	return NULL;
}

/* The trust points of the scenario's AUTOTRUST_FILEs. */
static int at_load(struct run *run, char *why, size_t whylen)
{
	const struct rpl_scenario *sc = run->sc;

	run->at = calloc(1, sizeof(*run->at));
	if (!run->at) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	run->pol.add_holddown = sc->cfg.auto_trust_add_holddown;
	run->pol.remove_holddown = sc->cfg.auto_trust_remove_holddown;
	for (size_t i = 0; i < sc->nat; i++) {
		struct rpl_ub_point *ub =
			ub_read(run, sc->at[i].text, why, whylen);
		int r;

		if (!ub)
			return -1;
		r = rpl_ub_to_point(ub, run->at, &run->pol, why, whylen);
		free(ub);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* One DNSKEY answer (NULL: the query failed) through the state machine,
 * at the wall clock. */
static int at_update(struct run *run, struct val_at_point *tp,
		     const uint8_t *msg, size_t len)
{
	const struct val_rrset *set = NULL;
	struct val_at_result res;
	struct wire_msg *m = NULL;
	struct val_ctx ctx;
	struct arena ar;
	int perr, r;

	if (!msg) {
		val_at_failed(tp, run->now.wall);
		return 0;
	}
	m = wire_msg_parse(msg, len, 0, &perr);
	arena_init(&ar, 0);
	if (m) {
		struct val_rrset *sets;
		int n = val_rrsets_collect(m->sec[WIRE_SEC_ANSWER],
					   m->count[WIRE_SEC_ANSWER], &ar,
					   &sets);

		if (n > 0)
			set = val_rrset_find(sets, (size_t)n, tp->zone,
					     WIRE_TYPE_DNSKEY);
	}
	val_ctx_init(&ctx, run->now.wall, &run->st->lim);
	ctx.test_fake_sig = run->sc->fake_sig;
	ctx.test_sig_time_any = run->sc->sig_time_any;
	r = val_at_update(&ctx, tp, set, &run->pol, &res);
	arena_free(&ar);
	wire_msg_free(m);
	if (r < 0)
		return r;
	if (run->trace)
		fprintf(stderr, "  autotrust: %s, %zu changes\n",
			res.verdict.status == VAL_SECURE ? "validated"
							 : res.verdict.reason,
			res.nevents);
	return res.trust_changed ? at_restate(run) : 0;
}

struct at_probe {
	bool done;
	uint8_t *msg;
	size_t len;
};

static void at_probe_done(void *arg, int err, const struct up_answer *ans,
			  int last_rcode)
{
	struct at_probe *pr = arg;

	(void)last_rcode;
	pr->done = true;
	if (err || !ans)
		return;
	pr->msg = malloc(ans->len);
	if (pr->msg) {
		memcpy(pr->msg, ans->msg, ans->len);
		pr->len = ans->len;
	}
}

/* The active refresh of one point (RFC 5011 §2.3): its DNSKEY RRset
 * asked as dnstrustd asks it, answered from the scenario's ranges. */
static int at_probe(struct run *run, struct val_at_point *tp, char *why,
		    size_t whylen)
{
	static uint8_t msg[DT_MSG_MAXLEN];
	struct at_probe pr = {0};
	int r;

	if (run->trace)
		fprintf(stderr, "  autotrust probe\n");
	if (run->it) {
		if (!it_query(run->it, run->now.mono_ms, tp->zone,
			      WIRE_TYPE_DNSKEY, at_probe_done, &pr)) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		if (drain(run, why, whylen) < 0)
			return -1;
	} else {
		struct who w = {0};
		bool tcp;
		int len = entry_answer(run, &w, tp->zone, WIRE_TYPE_DNSKEY, msg,
				       sizeof(msg), &tcp);

		pr.done = true;
		if (len >= 0 && (pr.msg = malloc((size_t)len))) {
			memcpy(pr.msg, msg, (size_t)len);
			pr.len = (size_t)len;
		}
	}
	r = at_update(run, tp, pr.msg, pr.len);
	free(pr.msg);
	if (r < 0) {
		snprintf(why, whylen, "autotrust: %s", errcode_str(r));
		return -1;
	}
	return 0;
}

/* The points whose refresh is due, each asked once (timers fire as
 * time passes, as in testbound), those with a trusted key only, as
 * dnstrustd asks them. */
static int at_due(struct run *run, char *why, size_t whylen)
{
	for (size_t i = 0; run->at && i < run->at->npoints; i++)
		if (val_at_point_trusted(&run->at->points[i]) &&
		    run->at->points[i].next_query <= run->now.wall &&
		    at_probe(run, &run->at->points[i], why, whylen) < 0)
			return -1;
	return 0;
}

/* ${time} and ${timeout} of testbound now: the seconds to the next
 * refresh. */
static void at_vars(struct run *run)
{
	int64_t next = run->at ? val_at_next_query(run->at) : 0;

	run->vars.now = run->now.wall - run->at_base;
	run->vars.timeout = next > run->now.wall ? next - run->now.wall : 0;
}

static int step_time(struct run *run, const struct rpl_step *st, char *why,
		     size_t whylen)
{
	long arg = st->arg;

	if (st->text) {
		char v[256];

		at_vars(run);
		if (rpl_expand(&run->vars, st->text, v, sizeof(v), why,
			       whylen) < 0)
			return -1;
		arg = strtol(v, NULL, 10);
	}
	run->now.wall += arg;
	run->now.mono_ms += (int64_t)arg * 1000;
	return at_due(run, why, whylen);
}

static int step_assign(struct run *run, const struct rpl_step *st, char *why,
		       size_t whylen)
{
	char v[256];

	at_vars(run);
	if (rpl_expand(&run->vars, st->text, v, sizeof(v), why, whylen) < 0)
		return -1;
	if (rpl_var_set(&run->vars, st->var, v) < 0) {
		snprintf(why, whylen, "too many variables");
		return -1;
	}
	return 0;
}

static int step_check_at(struct run *run, const struct rpl_step *st, char *why,
			 size_t whylen)
{
	const struct val_at_point *tp = NULL;
	struct rpl_ub_point *ub;
	int r = -1;

	at_vars(run);
	ub = ub_read(run, st->text, why, whylen);
	if (!ub)
		return -1;
	for (size_t i = 0; run->at && i < run->at->npoints; i++)
		if (wire_dname_equal(run->at->points[i].zone, ub->zone))
			tp = &run->at->points[i];
	if (!tp)
		snprintf(why, whylen, "CHECK_AUTOTRUST: no such trust point");
	else
		r = rpl_ub_compare(ub, tp, why, whylen);
	free(ub);
	return r;
}

static int run_step(struct run *run, const struct rpl_step *st, char *why,
		    size_t whylen)
{
	run->step = st->n;
	switch (st->kind) {
	case RPL_QUERY: return step_query(run, st, why, whylen);
	case RPL_CHECK_ANSWER: return step_check(run, st, why, whylen);
	case RPL_TIME_PASSES: return step_time(run, st, why, whylen);
	case RPL_ASSIGN: return step_assign(run, st, why, whylen);
	case RPL_CHECK_AUTOTRUST: return step_check_at(run, st, why, whylen);
	case RPL_CHECK_FETCHES:
		if (run->fetches == (unsigned long)st->arg)
			return 0;
		snprintf(why, whylen, "%lu upstream queries, expected %ld",
			 run->fetches, st->arg);
		return -1;
	case RPL_CHECK_ROUNDS: {
		/* Recursing, the round trips to authoritative servers. */
		unsigned n = run->it ? run->aq_rounds : run->rounds;

		if (n == (unsigned long)st->arg)
			return 0;
		snprintf(why, whylen, "%u upstream round trips, expected %ld",
			 n, st->arg);
		return -1;
	}
	case RPL_NOOP: return 0;
	case RPL_CHECK_OUT:
	case RPL_REPLY:
		if (run->out_used && run->out_used[st - run->sc->steps])
			return 0;
		snprintf(why, whylen, "%s: no query to a server matched it",
			 st->name);
		return -1;
	case RPL_UNSUPPORTED: break;
	}
	snprintf(why, whylen, "%s: not supported", st->name);
	return -1;
}

static void to_server(const struct rpl_addr *a, struct up_server *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ret->addr;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(53);
		memcpy(&sin->sin_addr, a->a, 4);
		ret->addrlen = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ret->addr;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(53);
		memcpy(&sin6->sin6_addr, a->a, 16);
		ret->addrlen = sizeof(*sin6);
	}
}

/* Whether some range of sc plays server a. */
static bool played(const struct rpl_scenario *sc, const struct up_server *a)
{
	for (const struct rpl_range *r = sc->ranges; r; r = r->next)
		for (size_t i = 0; i < r->naddr; i++)
			if (addr_is(&r->addr[i], a))
				return true;
	return false;
}

/*
 * The root hints of a recursive resolver's scenario: the root's stub
 * zone, else the IANA root servers that some range plays. False for a
 * forwarder's scenario (a forward-zone, or neither hints nor a stub
 * zone).
 */
static bool scenario_hints(const struct rpl_scenario *sc, struct it_hints *ret)
{
	struct it_hints all;
	bool stubs = false;

	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < sc->nzones; i++) {
		const struct rpl_zone *z = &sc->zones[i];

		if (z->forward && wire_dname_is_root(z->name))
			return false;
		if (z->forward)
			continue; /* split DNS (rpl.c forward_below_root) */
		stubs = true;
		if (!wire_dname_is_root(z->name))
			continue;
		for (size_t k = 0; k < z->naddr && ret->n < DT_IT_HINTS_MAX;
		     k++)
			to_server(&z->addr[k], &ret->addr[ret->n++]);
	}
	if (ret->n)
		return true;
	it_hints_builtin(&all);
	for (size_t i = 0; i < all.n; i++)
		if (played(sc, &all.addr[i]))
			ret->addr[ret->n++] = all.addr[i];
	if (ret->n)
		return true;
	*ret = all;
	return stubs;
}

/* The DNSKEY of each zone asked with the question, as dnstrustd's. */
static bool keys_ahead(void *arg, const uint8_t *zone, const uint8_t *qname,
		       int64_t now_ms)
{
	struct run *run = arg;

	(void)now_ms;
	return run->r && rsv_keys_ahead(run->r, zone, qname, &run->now);
}

/* The iterator core of a recursive resolver's scenario, with its stub
 * zones; NULL for a forwarder's (or out of memory: *oom). */
static struct iterator *make_iterator(struct run *run, bool *oom)
{
	static const struct it_env env_tmpl = {
		.send = it_send, .cancel = it_unsend, .wake = it_wake};
	const struct rpl_scenario *sc = run->sc;
	struct it_env env = env_tmpl;
	struct it_hints h;
	struct iterator *it;

	*oom = false;
	if (!scenario_hints(sc, &h))
		return NULL;
	env.arg = run;
	if (!(it = it_new(&env, &h, 1))) {
		*oom = true;
		return NULL;
	}
	it_set_qmin(it, !sc->no_qmin);
	it_set_keys_ahead(it, keys_ahead, run);
	for (size_t i = 0; i < sc->nzones; i++) {
		const struct rpl_zone *z = &sc->zones[i];
		struct up_server a[RPL_MAX_ZONE_ADDRS];

		if (wire_dname_is_root(z->name) || !z->naddr)
			continue;
		for (size_t k = 0; k < z->naddr; k++)
			to_server(&z->addr[k], &a[k]);
		it_add_stub(it, z->name, a, z->naddr);
	}
	return it;
}

/* The scenario's state, with nta as its runtime negative trust anchors
 * (the runner's own, never a file of the host). */
static struct dstate *make_state(struct rpl_scenario *sc, struct nta_rt *nta)
{
	struct val_anchors *ta = sc->ta;
	struct dstate *st;

	sc->ta = NULL; /* taken by dstate_new */
	st = dstate_new(&sc->cfg, ta, "replay");
	if (st) {
		st->test_fake_sig = sc->fake_sig;
		st->test_sig_time_any = sc->sig_time_any;
		st->nta = nta;
	}
	return st;
}

static void run_free(struct run *run)
{
	if (run->r)
		rsv_free(run->r);
	it_free(run->it);
	for (struct ifetch *x = run->ifx, *xn; x; x = xn) {
		xn = x->next;
		free(x);
	}
	free(run->aq);
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
	free(run->at);
	free(run->out_used);
	val_anchors_free(run->base);
}

/* A forwarder's scenario (no iterator core) forwards. */
static bool env_forwarding(void *arg)
{
	const struct run *run = arg;

	return !run->it;
}

/* Runs the steps; returns 0 or -1 with "step N: why". */
static int run_scenario(struct rpl_scenario *sc, char *why, size_t whylen)
{
	static const struct rsv_env env_tmpl = {
		.fetch = env_fetch,
		.distrust = env_distrust,
		.fetch_cancel = env_cancel,
		.answered = env_answered,
		.forwarding = env_forwarding,
	};
	struct rsv_env env = env_tmpl;
	struct run *run = calloc(1, sizeof(*run));
	struct cache *c = NULL;
	struct dstate *st = NULL;
	struct nta_rt *nta = nta_rt_new(NULL); /* empty, in memory only */
	char msg[400] = "";
	long failed_step = -1;
	bool oom = false;

	if (!run) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	run->sc = sc;
	run->out_used = calloc(sc->nsteps ? sc->nsteps : 1, sizeof(bool));
	run->rtail = &run->replies;
	run->trace = getenv("REPLAY_TRACE") != NULL;
	if (getenv("REPLAY_DEBUG")) /* the core's own log, for a person */
		log_setup(true, LOG_DEBUG);
	run->now.wall = sc->has_date ? sc->date : REPLAY_DEFAULT_DATE;
	/* RFC 5011 scenarios count time from testbound's 0 */
	if (sc->nat && !sc->has_date)
		run->now.wall = 0;
	run->at_base = run->now.wall;
	run->now.mono_ms = REPLAY_MONO_START_MS;
	env.arg = run;
	c = cache_new(REPLAY_CACHE_BYTES);
	run->cache = c;
	run->nta = nta;
	if (sc->nat) {
		run->base = sc->ta; /* the trust-anchor lines */
		sc->ta = NULL;
		if (at_load(run, msg, sizeof(msg)) < 0)
			oom = true;
	} else {
		st = nta ? make_state(sc, nta) : NULL;
	}
	if (!oom)
		run->it = make_iterator(run, &oom);
	if (c && nta && (st || sc->nat) && !oom)
		run->r = rsv_new(c, &env);
	if (!run->r) {
		if (!msg[0])
			snprintf(msg, sizeof(msg), "out of memory");
	} else if (!st && at_restate(run) < 0) {
		snprintf(msg, sizeof(msg), "out of memory");
	} else {
		if (st)
			rsv_set_state(run->r, st);
		for (size_t i = 0; i < sc->nsteps && !msg[0]; i++) {
			if (run_step(run, &sc->steps[i], msg, sizeof(msg)) < 0)
				failed_step = sc->steps[i].n;
			else if (run->oom)
				snprintf(msg, sizeof(msg), "out of memory");
		}
	}
	if (run->st)
		dstate_put(run->st);
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

static int run_file(const char *path, bool timing, bool peer)
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
	/* The peers' harnesses know no private domains (dnstrust.conf(5)
	 * private-domain): a peer's scenario is played with the scenario's
	 * configuration only, as its anchors are the only anchors. */
	if (ret == 0 && peer) {
		sc->peer = true;
		sc->cfg.no_private_defaults = true;
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
	bool timing = false, peer = false;
	int i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "-t") == 0)
			timing = true;
		else if (strcmp(argv[i], "-p") == 0)
			peer = true;
		else
			break;
	}
	if (i >= argc || argv[i][0] == '-') {
		fprintf(stderr, "usage: replay [-t] [-p] FILE...\n"
				"  -t  time each scenario\n"
				"  -p  a peer's scenarios (no built-in private "
				"domains)\n");
		return 2;
	}
	for (; i < argc; i++) {
		if (run_file(argv[i], timing, peer) == 0)
			passed++;
		else
			failed++;
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
