/* SPDX-License-Identifier: MIT */
/*
 * A question walks down from the closest zone cut it knows (the root
 * hints when it knows none): one query at a time to one server of the
 * current zone, chosen by RTT. A referral moves it down, a CNAME to
 * another name starts the walk again for the target, a final response
 * ends it. Servers that time out or answer unusably are left for the
 * zone's others; when a zone has no address left, its NS names are
 * looked up by a nested question (a "sub" request, whose callback
 * continues the parent). Every end is marked and the driver woken
 * (it_env.wake): the callbacks run from it_deliver(), never inside
 * it_query() or it_recv(). No socket, timer or clock here: queries go
 * out through it_env.send, and each entry point is given the time.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "iterator/iter_dname.h"
#include "iterator/iter_kept.h"
#include "iterator/iter_msg.h"
#include "iterator/iter_nxd.h"
#include "iterator/iter_prime.h"
#include "iterator/iter_wild.h"
#include "iterator/iterate.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* A zone cut: its NS names and the addresses known for them. */
struct zone {
	uint8_t name[DT_NAME_MAXLEN]; /* lower case */
	uint8_t ns[DT_IT_NS_MAX][DT_NAME_MAXLEN];
	size_t nns;
	struct up_server addr[DT_IT_ADDRS_MAX];
	size_t naddr;
	bool has_ds; /* the referral to it carried a signed DS RRset */
};

struct zone_ent {
	bool used;
	int64_t expires; /* ms */
	int64_t used_ms; /* last looked up */
	struct zone z;
};

struct srv_ent {
	bool used;
	struct up_server addr;
	unsigned srtt_ms;
	int64_t lame_until;
	int64_t used_ms;
	unsigned silent;      /* queries in a row without any answer */
	int64_t silent_since; /* the first of them timed out (ms) */
	int64_t probe_at;     /* dead (DT_IT_DEAD_TIMEOUTS): asked again,
				 one probe, no sooner than this (ms); 0:
				 alive */
	int64_t backoff_ms;   /* dead: the wait before its next probe */
	int64_t dead_since;   /* found dead (ms) */
	bool echoes_case;     /* its last response echoed the question's
				 random case (0x20) */
};

/* A stub zone (it_add_stub): servers given, never asked for. */
struct stub {
	uint8_t name[DT_NAME_MAXLEN]; /* lower case */
	struct up_server addr[DT_IT_ADDRS_MAX];
	size_t naddr;
};

/* A response kept for a question not asked yet: the DS RRset that came
 * with a referral (it_referral_ds), or a DNSKEY RRset asked beside a
 * question (it_set_keys_ahead). */
struct iterator {
	struct it_env env;
	int64_t now; /* of the call under way (ms) */
	struct it_hints hints;
	struct stub stubs[DT_IT_STUBS_MAX];
	size_t nstubs;
	size_t nending;		 /* requests ended, not delivered yet */
	struct it_prime *prime;	 /* the root's servers (RFC 8109) */
	uint16_t port;		 /* tests: every server's port (it_set_port) */
	bool no_qmin;		 /* it_set_qmin(false) */
	bool loopback_ok;	 /* the hints are loopback (a lab): so may
				    servers below be */
	struct it_req *reqs;	 /* pending, top-level and nested */
	struct it_lookup lookup; /* NS addresses, validated (optional) */
	struct zone_ent *zones;
	struct srv_ent *srvs;
	struct it_kept *ds;   /* DT_IT_DS_MAX, by zone; mark: lent once
				 to a CNAME chain's step (ds_answer()),
				 not yet taken by its own DS question */
	struct it_kept *keys; /* DT_IT_KEYS_MAX, by zone */
	it_keys_fn *keys_fn; /* it_set_keys_ahead (NULL: none asked) */
	void *keys_arg;
	struct it_nxd *nxd;	/* NXDOMAIN cuts (RFC 8020) */
	struct it_dname *dname; /* DNAME RRsets (RFC 6672 §3.2) */
	struct it_wild *wild;	/* wildcard expansions (RFC 8198 §5.4) */
	struct it_stats stats;
	bool root_ok;		    /* atomic */
	uint64_t rnd;		    /* xorshift64* state, never 0 */
	uint8_t out[DT_MSG_MAXLEN]; /* the response being delivered */
};

#define MAX_STEPS (DT_IT_CNAME_MAX + 1)

struct it_req {
	struct iterator *it;
	struct it_req *prev, *next;
	struct it_req *parent; /* NS-address lookups: whom it serves */
	struct it_req *top;    /* the question the budget is charged to */
	struct it_req *sub;    /* the NS-address lookup under way */
	up_done_fn *cb;
	void *arg;
	uint8_t qname[DT_NAME_MAXLEN];
	uint16_t qtype;
	uint8_t cur[DT_NAME_MAXLEN]; /* asked now: qname or a CNAME target */
	unsigned depth;		     /* NS-address nesting */
	unsigned nest;		     /* it_query_nest's */
	void *lk;		     /* it->lookup's under way */
	uint16_t lk_type;
	unsigned lookups; /* it->lookup's started */
	unsigned queries; /* top only: charged by all below */
	unsigned cuts;	  /* top only: referrals followed by all below, each
			     one more query allowed, DT_IT_REFERRALS_MAX at
			     most */
	unsigned referrals, links;
	bool ahead;	     /* a DNSKEY or DS asked beside a question:
				nobody waits on it yet (ahead()) */
	unsigned aheads;     /* top only: such questions started */
	bool unsigned_below; /* a referral without DS was followed: no
				DNSKEY is asked ahead below it */
	/* the zone asked now */
	struct zone z;
	uint32_t tried;	     /* bit i: z.addr[i] asked in this zone */
	size_t ns_next;	     /* z.ns[] looked up so far */
	bool ns_aaaa;	     /* z.ns[ns_next - 1] had no A: AAAA next */
	size_t ns_fam_next;  /* in-zone z.ns[] looked up for the address
				family no glue gave (lookup_ns) */
	bool z_malformed;    /* a server of z sent what does not parse */
	bool z_answered;     /* a server of z answered at all */
	bool z_servfail;     /* one answered SERVFAIL */
	int64_t z_start;     /* when z was first asked (ms) */
	unsigned rounds;     /* rounds over z's servers */
	unsigned z_timeouts; /* tries of z's servers without an answer */
	/* QNAME minimisation (RFC 9156, relaxed) */
	unsigned qmin_labels;	     /* labels of the next minimised name */
	unsigned qmin_count;	     /* minimised queries sent */
	bool qmin_off;		     /* a server did not cope: full names */
	uint8_t ask[DT_NAME_MAXLEN]; /* the query under way */
	uint16_t ask_type;
	bool minimised; /* ask is a minimised query */
	void *up;	/* the driver's handle of the query under way */
	struct it_io io;
	size_t srv; /* z.addr index asked */
	int64_t sent_ms;
	/* responses of the steps so far (raw copies) */
	uint8_t *step[MAX_STEPS];
	size_t steplen[MAX_STEPS];
	uint8_t stepzone[MAX_STEPS][DT_NAME_MAXLEN]; /* whose server sent it */
	size_t nsteps;
	struct up_server last_server;
	/* a DNSSEC-lame server's response in r's zone: the answer when no
	 * other server of the zone gives one */
	uint8_t *lame_msg;
	size_t lame_len;
	struct up_server lame_from;
	/* the end */
	bool ending; /* waits for it_deliver */
	int err;
	bool in_cb;
	bool prime_wait; /* held until the root is primed */
	bool beside;	 /* asked a hint while the root was primed */
};

#define STAT(it, f) __atomic_fetch_add(&(it)->stats.f, 1, __ATOMIC_RELAXED)

/* --- randomness (server exploration only; IDs and ports are the
 * driver's): xorshift64*, seeded by the caller --- */

static unsigned rnd(struct iterator *it)
{
	it->rnd ^= it->rnd >> 12;
	it->rnd ^= it->rnd << 25;
	it->rnd ^= it->rnd >> 27;
	return (unsigned)((it->rnd * 0x2545F4914F6CDD1DULL) >> 48);
}

/* --- servers: RTT and lameness --- */

static struct srv_ent *srv_get(struct iterator *it, const struct up_server *a)
{
	struct srv_ent *lru = &it->srvs[0];

	for (size_t i = 0; i < DT_IT_SERVERS_MAX; i++) {
		struct srv_ent *s = &it->srvs[i];

		if (s->used && up_server_equal(&s->addr, a)) {
			s->used_ms = it->now;
			return s;
		}
		if (!s->used || (lru->used && s->used_ms < lru->used_ms))
			lru = s;
	}
	memset(lru, 0, sizeof(*lru));
	lru->used = true;
	lru->addr = *a;
	lru->srtt_ms = DT_IT_RTT_UNKNOWN_MS;
	lru->used_ms = it->now;
	return lru;
}

static void srv_rtt(struct srv_ent *s, int64_t rtt)
{
	if (rtt < 1)
		rtt = 1;
	s->srtt_ms = (unsigned)((7 * (int64_t)s->srtt_ms + rtt) / 8);
}

/* Whether s is taken as dead now: its next probe is not due yet. */
static bool srv_dead(const struct srv_ent *s, int64_t now)
{
	return s->probe_at > now;
}

/* No answer: the server looks slower, so that others go first; silent
 * DT_IT_DEAD_TIMEOUTS times in a row over at least DT_IT_DEAD_SPAN_MS,
 * it is dead until its probe, DT_IT_DEAD_MIN_MS later; each probe
 * without an answer doubles the wait, up to DT_IT_DEAD_MAX_MS. */
static void srv_timeout(struct iterator *it, struct srv_ent *s, int64_t sent_ms)
{
	unsigned t = s->srtt_ms * 2 + 100;

	s->srtt_ms =
		t > 10 * DT_IT_TIMEOUT_MAX_MS ? 10 * DT_IT_TIMEOUT_MAX_MS : t;
	if (s->silent == 0)
		s->silent_since = it->now;
	if (s->silent < UINT_MAX)
		s->silent++;
	/* A query sent before it was found dead says nothing new. */
	if (s->probe_at && sent_ms < s->dead_since)
		return;
	if (s->probe_at) { /* its probe: the back-off doubles */
		s->backoff_ms = s->backoff_ms * 2 > DT_IT_DEAD_MAX_MS
					? DT_IT_DEAD_MAX_MS
					: s->backoff_ms * 2;
	} else if (s->silent >= DT_IT_DEAD_TIMEOUTS &&
		   it->now - s->silent_since >= DT_IT_DEAD_SPAN_MS) {
		s->backoff_ms = DT_IT_DEAD_MIN_MS;
		s->dead_since = it->now;
	} else {
		return;
	}
	s->probe_at = it->now + s->backoff_ms;
}

/* Any answer, even a refusal: the server is alive. */
static void srv_alive(struct srv_ent *s)
{
	s->silent = 0;
	s->probe_at = 0;
	s->backoff_ms = 0;
}

/* A query goes to s: when it is the probe of a dead server, the next
 * probe waits another back-off (one probe at a time, however many
 * questions want the server). */
static void srv_sent(struct iterator *it, struct srv_ent *s)
{
	if (s->probe_at)
		s->probe_at = it->now + s->backoff_ms;
}

static void srv_lame(struct iterator *it, struct srv_ent *s)
{
	s->lame_until = it->now + DT_IT_LAME_MS;
	STAT(it, lame);
}

void it_distrust(struct iterator *it, const char *server,
		 void (*fmt)(const struct up_server *s, char *buf, size_t len),
		 int64_t now)
{
	char name[INET6_ADDRSTRLEN + IF_NAMESIZE + 16];

	it->now = now;
	for (size_t i = 0; i < DT_IT_SERVERS_MAX; i++) {
		struct srv_ent *s = &it->srvs[i];
		if (!s->used)
			continue;
		fmt(&s->addr, name, sizeof(name));
		if (strcmp(name, server) != 0)
			continue;
		srv_lame(it, s);
		it_nxd_forget(it->nxd, &s->addr);
		it_dname_forget(it->dname, &s->addr);
		it_wild_forget(it->wild, &s->addr);
	}
	/* Nor are the DNSKEY responses it sent beside questions used. */
	for (size_t i = 0; i < DT_IT_KEYS_MAX; i++) {
		struct it_kept *e = &it->keys[i];
		if (!e->msg)
			continue;
		fmt(&e->from, name, sizeof(name));
		if (strcmp(name, server) == 0)
			it_kept_clear(e);
	}
}

static unsigned timeout_of(const struct srv_ent *s)
{
	unsigned t = 3 * s->srtt_ms;

	if (t < DT_IT_TIMEOUT_MIN_MS)
		t = DT_IT_TIMEOUT_MIN_MS;
	return t > DT_IT_TIMEOUT_MAX_MS ? DT_IT_TIMEOUT_MAX_MS : t;
}

/* The server of r's zone to ask next: not asked yet in this zone, not
 * dead (silent, its probe not due), not lame unless lame is true, the
 * fastest or now and then a random one. Returns its index or -1. */
static int choose(struct it_req *r, bool lame)
{
	struct iterator *it = r->it;
	int64_t now = it->now;
	int cand[DT_IT_ADDRS_MAX], ncand = 0;

	for (int pass = 0; pass < (lame ? 2 : 1) && ncand == 0; pass++)
		for (size_t i = 0; i < r->z.naddr; i++) {
			struct srv_ent *s = srv_get(it, &r->z.addr[i]);

			if (!(r->tried & (1u << i)) && !srv_dead(s, now) &&
			    (pass == 1 || s->lame_until <= now))
				cand[ncand++] = (int)i;
		}
	if (ncand == 0)
		return -1;
	if (ncand > 1 && rnd(it) % DT_IT_EXPLORE == 0)
		return cand[rnd(it) % (unsigned)ncand];
	int best = cand[0];
	unsigned best_rtt = srv_get(it, &r->z.addr[best])->srtt_ms;
	for (int k = 1; k < ncand; k++) {
		unsigned t = srv_get(it, &r->z.addr[cand[k]])->srtt_ms;
		if (t < best_rtt) {
			best = cand[k];
			best_rtt = t;
		}
	}
	return best;
}

/* --- addresses never asked (do-not-query) --- */

/* Whether a server's address learnt from the network (glue, a lookup,
 * priming) may be asked: never an unspecified, multicast or broadcast
 * one; a loopback one only when the hints are loopback themselves (a
 * test world on 127.0.0.0/8), since a public delegation to 127.0.0.1
 * or ::1 points the resolver at the host's own services. */
static bool addr_usable(const struct iterator *it, const struct up_server *a)
{
	switch (it_addr_kind(a)) {
	case IT_ADDR_SERVER: return true;
	case IT_ADDR_LOOPBACK: return it->loopback_ok;
	case IT_ADDR_NEVER: break;
	}
	return false;
}

static bool hints_loopback(const struct it_hints *h)
{
	for (size_t i = 0; i < h->n; i++)
		if (it_addr_kind(&h->addr[i]) == IT_ADDR_LOOPBACK)
			return true;
	return false;
}

/* --- zone cuts --- */

static void zone_root(struct iterator *it, struct zone *z)
{
	const struct it_hints *h =
		it_prime_servers(it->prime, &it->hints, it->now);

	memset(z, 0, sizeof(*z));
	z->name[0] = 0;
	/* More addresses than a zone holds: start at a random one. */
	size_t off = h->n ? rnd(it) % h->n : 0;
	for (size_t i = 0; i < h->n && z->naddr < DT_IT_ADDRS_MAX; i++) {
		const struct up_server *a = &h->addr[(off + i) % h->n];

		if (h == &it->hints || addr_usable(it, a))
			z->addr[z->naddr++] = *a;
	}
	if (z->naddr == 0 && h != &it->hints) {
		/* Priming named no address that may be asked. */
		h = &it->hints;
		for (size_t i = 0; i < h->n && i < DT_IT_ADDRS_MAX; i++)
			z->addr[z->naddr++] = h->addr[i];
	}
}

static struct zone_ent *zone_lookup(struct iterator *it, const uint8_t *name)
{
	int64_t now = it->now;

	for (size_t i = 0; i < DT_IT_ZONES_MAX; i++) {
		struct zone_ent *e = &it->zones[i];

		if (e->used && e->expires > now &&
		    wire_dname_equal(e->z.name, name))
			return e;
	}
	return NULL;
}

/* The stub zone of exactly name as a zone, or false. */
static bool stub_get(struct iterator *it, const uint8_t *name, struct zone *ret)
{
	for (size_t i = 0; i < it->nstubs; i++) {
		const struct stub *st = &it->stubs[i];

		if (!wire_dname_equal(st->name, name))
			continue;
		memset(ret, 0, sizeof(*ret));
		wire_dname_copy(ret->name, st->name);
		memcpy(ret->addr, st->addr, st->naddr * sizeof(st->addr[0]));
		ret->naddr = st->naddr;
		return true;
	}
	return false;
}

/* The closest zone cut known at or above name (strictly above when
 * above), the root hints at worst. */
static void zone_closest(struct iterator *it, const uint8_t *name, bool above,
			 struct zone *ret)
{
	const uint8_t *n = name;

	if (above && !wire_dname_is_root(n))
		n = wire_dname_parent(n);
	for (;;) {
		if (stub_get(it, n, ret))
			return;
		struct zone_ent *e =
			wire_dname_is_root(n) ? NULL : zone_lookup(it, n);
		if (e && e->z.naddr + e->z.nns > 0) {
			e->used_ms = it->now;
			*ret = e->z;
			return;
		}
		if (wire_dname_is_root(n))
			break;
		n = wire_dname_parent(n);
	}
	zone_root(it, ret);
}

static void zone_store(struct iterator *it, const struct zone *z, uint32_t ttl)
{
	int64_t now = it->now;
	struct zone_ent *e = zone_lookup(it, z->name);

	if (!e) {
		e = &it->zones[0];
		for (size_t i = 0; i < DT_IT_ZONES_MAX; i++) {
			struct zone_ent *x = &it->zones[i];
			if (!x->used || x->expires <= now) {
				e = x;
				break;
			}
			if (x->used_ms < e->used_ms)
				e = x;
		}
	}
	if (ttl > DT_IT_ZONE_TTL_MAX)
		ttl = DT_IT_ZONE_TTL_MAX;
	e->used = true;
	e->expires = now + (int64_t)ttl * 1000;
	e->used_ms = now;
	e->z = *z;
}

/* An address learnt for a zone's NS name: in r's zone and the cache. */
static void zone_add_addr(struct it_req *r, const struct up_server *a)
{
	struct zone_ent *e = zone_lookup(r->it, r->z.name);

	if (!addr_usable(r->it, a))
		return;
	for (size_t i = 0; i < r->z.naddr; i++)
		if (up_server_equal(&r->z.addr[i], a))
			return;
	if (r->z.naddr == DT_IT_ADDRS_MAX)
		return;
	r->z.addr[r->z.naddr++] = *a;
	if (e && e->z.naddr < DT_IT_ADDRS_MAX)
		e->z.addr[e->z.naddr++] = *a;
}

/* A new zone for r: nothing asked of it yet. */
static void zone_reset(struct it_req *r)
{
	r->tried = 0;
	r->ns_next = 0;
	r->ns_aaaa = false;
	r->ns_fam_next = 0;
	r->z_malformed = false;
	r->z_answered = false;
	r->z_servfail = false;
	r->z_start = r->it->now;
	r->rounds = 1;
	r->z_timeouts = 0;
	r->beside = false;
	r->qmin_labels = (unsigned)wire_dname_labels(r->z.name) + 1;
	free(r->lame_msg);
	r->lame_msg = NULL;
}

static void keys_ahead(struct it_req *r);

/* Sets r's zone: the closest known for r->cur. */
static void zone_start(struct it_req *r)
{
	zone_closest(r->it, r->cur, r->qtype == WIRE_TYPE_DS, &r->z);
	zone_reset(r);
	keys_ahead(r);
}

/* What to ask r's zone: the name one label below the zone (then the
 * next) with type A while that is above r->cur (RFC 9156: A rather than
 * NS, which some servers mishandle), else the question itself. */
static void choose_ask(struct it_req *r)
{
	unsigned labels = (unsigned)wire_dname_labels(r->cur);

	r->minimised = !r->qmin_off && !r->it->no_qmin &&
		       r->qmin_labels < labels &&
		       r->qmin_count < DT_IT_QMIN_MAX;
	if (r->minimised) {
		wire_dname_copy(r->ask, wire_dname_ancestor(
						r->cur, (int)r->qmin_labels));
		r->ask_type = WIRE_TYPE_A;
		r->qmin_count++;
	} else {
		wire_dname_copy(r->ask, r->cur);
		r->ask_type = r->qtype;
	}
}

/* A server did not cope with a minimised query: ask it the full name. */
static void qmin_fallback(struct it_req *r)
{
	r->qmin_off = true;
	r->tried &= ~(1u << r->srv);
}

/* --- requests --- */

static struct it_req *req_new(struct iterator *it, const uint8_t *qname,
			      uint16_t qtype, up_done_fn *cb, void *arg)
{
	struct it_req *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->it = it;
	r->top = r;
	r->cb = cb;
	r->arg = arg;
	r->qtype = qtype;
	wire_dname_copy(r->qname, qname);
	wire_dname_copy(r->cur, qname);
	r->next = it->reqs;
	if (it->reqs)
		it->reqs->prev = r;
	it->reqs = r;
	return r;
}

static void unlink_req(struct it_req *r)
{
	struct iterator *it = r->it;

	if (r->prev)
		r->prev->next = r->next;
	else
		it->reqs = r->next;
	if (r->next)
		r->next->prev = r->prev;
	r->prev = r->next = NULL;
}

static void req_free(struct it_req *r)
{
	for (size_t i = 0; i < r->nsteps; i++)
		free(r->step[i]);
	free(r->lame_msg);
	free(r);
}

/* Hands err (0: the steps' response) to the caller from it_deliver(). */
static void end(struct it_req *r, int err)
{
	r->err = err;
	r->ending = true;
	r->it->nending++;
	r->it->env.wake(r->it->env.arg);
}

static int assemble(struct it_req *r, size_t *ret_len)
{
	struct wire_msg *m[MAX_STEPS] = {0};
	const uint8_t *zones[MAX_STEPS];
	int err = 0, len = 0;

	for (size_t i = 0; i < r->nsteps && err == 0; i++)
		if (!(m[i] = wire_msg_parse(r->step[i], r->steplen[i], 0,
					    &err)))
			err = err ? err : -ENOMEM;
	for (size_t i = 0; i < r->nsteps; i++)
		zones[i] = r->stepzone[i];
	if (err == 0)
		len = it_assemble((const struct wire_msg *const *)m, zones,
				  r->nsteps, r->qname, r->qtype, r->it->out,
				  sizeof(r->it->out));
	for (size_t i = 0; i < r->nsteps; i++)
		wire_msg_free(m[i]);
	if (err < 0 || len < 0)
		return err < 0 ? err : len;
	*ret_len = (size_t)len;
	return 0;
}

static void ahead_end(struct it_req *r);

static void on_end(struct it_req *r)
{
	struct up_answer ans = {.server = &r->last_server};
	int err = r->err;

	if (err == 0 && r->nsteps == 0)
		err = DT_EUPSTREAM;
	if (err == 0 && assemble(r, &ans.len) < 0)
		err = DT_EUPSTREAM;
	ans.msg = r->it->out;
	r->ending = false;
	r->it->nending--;
	unlink_req(r);
	if (!r->cb) {
		ahead_end(r);
		req_free(r);
		return;
	}
	r->in_cb = true;
	r->cb(r->arg, err, err ? NULL : &ans, -1);
	req_free(r);
}

/* --- the walk --- */

static void step(struct it_req *r);
static int keep_step(struct it_req *r, const struct up_answer *ans);
static bool ds_answer(struct it_req *r, bool chain);

static void on_answer(void *arg, int err, const struct up_answer *ans,
		      int last_rcode, int64_t now);

/* Why nothing is left to ask in r's zone. */
static int no_server(struct it_req *r)
{
	struct iterator *it = r->it;

	/* A server that answered SERVFAIL failed while we talked to it
	 * (RFC 8914 EDE 23, Network Error, as Unbound says); one that sent
	 * what does not parse is broken (EDE 0, Other); refusals only:
	 * nothing reachable would answer (EDE 22). */
	if (r->z_answered)
		return r->z_servfail	? DT_EUPSTREAM
		       : r->z_malformed ? DT_EBADANSWER
					: DT_ENOAUTH;
	if (!wire_dname_is_root(r->z.name))
		return DT_ETIMEOUT;
	__atomic_store_n(&it->root_ok, false, __ATOMIC_RELAXED);
	if (!r->parent)
		STAT(it, root_unreachable);
	return DT_ENETBLOCKED;
}

static void ns_looked_up(void *arg, int err, const struct up_answer *ans,
			 int last_rcode)
{
	/* From on_end(), inside it_deliver(): it->now is that call's. */
	struct it_req *r = arg;
	struct wire_msg *m;
	int e;

	size_t had = r->z.naddr;
	bool was_a = r->sub->qtype == WIRE_TYPE_A;

	(void)last_rcode;
	r->sub = NULL;
	if (!err && (m = wire_msg_parse(ans->msg, ans->len, 0, &e))) {
		for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
			struct up_server a;
			if (it_addr_from_rr(&m->sec[WIRE_SEC_ANSWER][i], &a))
				zone_add_addr(r, &a);
		}
		wire_msg_free(m);
	}
	r->ns_aaaa = was_a && r->z.naddr == had;
	step(r);
}

/* The validated addresses of the NS name looked up (it->lookup). */
static void ns_validated(void *arg, const struct up_server *addrs, size_t n,
			 int64_t now)
{
	struct it_req *r = arg;
	size_t had = r->z.naddr;

	r->it->now = now;
	r->lk = NULL;
	for (size_t i = 0; i < n; i++)
		zone_add_addr(r, &addrs[i]);
	r->ns_aaaa = r->lk_type == WIRE_TYPE_A && r->z.naddr == had;
	step(r);
}

/* The address family none of r's zone's addresses is of (AAAA when
 * all are IPv4, A when all are IPv6), or 0 (both, or none). */
static uint16_t missing_family(const struct it_req *r)
{
	bool v4 = false, v6 = false;

	for (size_t i = 0; i < r->z.naddr; i++) {
		v4 |= r->z.addr[i].addr.ss_family == AF_INET;
		v6 |= r->z.addr[i].addr.ss_family == AF_INET6;
	}
	return v4 && !v6   ? WIRE_TYPE_AAAA
	       : v6 && !v4 ? WIRE_TYPE_A
			   : 0;
}

/* Starts the lookup of ns's address of type for r: through it->lookup
 * when set (a question of its own, validated), else by a nested request
 * of this iterator. Returns 1 when started, 0 when the hook declined
 * (try the next name), -1 when out of memory. */
static int start_lookup(struct it_req *r, const uint8_t *ns, uint16_t type)
{
	struct iterator *it = r->it;
	struct it_req *s;

	if (it->lookup.start) {
		r->lookups++;
		r->lk_type = type;
		r->lk = it->lookup.start(it->lookup.arg, ns, type, r->nest + 1,
					 ns_validated, r);
		return r->lk ? 1 : 0;
	}
	s = req_new(it, ns, type, ns_looked_up, r);
	if (!s)
		return -1;
	s->parent = r;
	s->top = r->top;
	s->depth = r->depth + 1;
	r->sub = s;
	zone_start(s);
	step(s);
	return 1;
}

/* Whether one more lookup may start under r (depth and count). */
static bool lookup_allowed(const struct it_req *r)
{
	return r->it->lookup.start ? r->nest < DT_IT_NS_DEPTH_MAX &&
					     r->lookups < DT_IT_NS_LOOKUPS_MAX
				   : r->depth < DT_IT_NS_DEPTH_MAX;
}

/*
 * No address of r's zone is left to ask but lame ones (a server that
 * sent bogus data or refused), and no NS name outside the zone is left
 * to look up: the zone's own NS names are looked up for the address
 * family their glue did not give (a parent whose IPv4 server lies may
 * have an honest IPv6 one that no referral named), as Unbound does once
 * it has blacklisted the addresses it had. The lookup asks the zone's
 * lame servers as a last resort, and what it finds is validated
 * (it->lookup) before it is used. Never for the name and type r itself
 * asks; each name once per zone. Returns whether a lookup was started.
 */
static bool lookup_ns_family(struct it_req *r)
{
	struct iterator *it = r->it;
	uint16_t type = missing_family(r);
	bool lame = false;

	for (size_t i = 0; i < r->z.naddr; i++)
		lame |= srv_get(it, &r->z.addr[i])->lame_until > it->now;
	if (!type || !lame || r->ahead)
		return false;
	while (r->ns_fam_next < r->z.nns && lookup_allowed(r)) {
		const uint8_t *ns = r->z.ns[r->ns_fam_next++];
		int started;

		if (!wire_dname_is_subdomain(ns, r->z.name) ||
		    (r->qtype == type && wire_dname_equal(ns, r->qname)))
			continue;
		started = start_lookup(r, ns, type);
		if (started)
			return started > 0;
	}
	return false;
}

/* Looks up the address of the next NS name of r's zone that can be
 * looked up (not below the zone itself: without glue it cannot be
 * reached): A, then AAAA when A gave none. Through it->lookup when set
 * (a question of its own, validated), else by a nested request of this
 * iterator. Returns false when none is left. */
static bool lookup_ns(struct it_req *r)
{
	if (r->ahead)
		return false; /* asked only of the addresses at hand */
	while ((r->ns_aaaa || r->ns_next < r->z.nns) && lookup_allowed(r)) {
		uint16_t type = r->ns_aaaa ? WIRE_TYPE_AAAA : WIRE_TYPE_A;
		const uint8_t *ns = r->ns_aaaa ? r->z.ns[r->ns_next - 1]
					       : r->z.ns[r->ns_next++];
		int started;

		r->ns_aaaa = false;
		if (wire_dname_is_subdomain(ns, r->z.name))
			continue;
		started = start_lookup(r, ns, type);
		if (started)
			return started > 0;
	}
	return false;
}

static void set_port(struct up_server *s, uint16_t port)
{
	if (s->addr.ss_family == AF_INET)
		((struct sockaddr_in *)&s->addr)->sin_port = htons(port);
	else if (s->addr.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&s->addr)->sin6_port = htons(port);
}

/* Whether r is about to ask the root's servers for the first time. */
static bool root_unasked(const struct it_req *r)
{
	return wire_dname_is_root(r->z.name) && r->tried == 0 &&
	       !r->z_answered && r->z_timeouts == 0 && r->rounds == 1;
}

/* Whether r waits for the root's priming (on_primed() goes on): the
 * first query of a question to the root goes to a hint address beside
 * the priming query, which saves a cold start a round trip; a second
 * one (the hint timed out, refused, was lame) waits for the priming's
 * end, then asks the servers it names (the hints when it failed), with
 * the time the zone took so far kept. So a question sends at most one
 * query to the hints while priming runs. */
static bool prime_hold(struct it_req *r)
{
	struct iterator *it = r->it;
	int64_t start = r->z_start;
	unsigned timeouts = r->z_timeouts;

	if (!wire_dname_is_root(r->z.name) || (!r->beside && !root_unasked(r)))
		return false;
	if (it_prime_hold(it->prime, &it->hints, it->now, rnd(it))) {
		if (root_unasked(r)) {
			r->beside = true;
			return false;
		}
		r->prime_wait = true;
		return true;
	}
	if (r->beside) {
		zone_start(r);
		r->z_start = start;
		r->z_timeouts = timeouts;
	}
	return false;
}

/* r's name is at or below a name proven absent (iter_nxd.h): its
 * response, for r's question, is the last step. Returns true when r
 * ended so. */
static bool nxd_answer(struct it_req *r)
{
	struct iterator *it = r->it;
	struct up_server from;
	struct up_answer ans = {.server = &from, .msg = it->out};

	ans.len = it_nxd_answer(it->nxd, r->cur, r->qtype, r->z.name, it->now,
				it->out, sizeof(it->out), &from);
	if (!ans.len)
		return false;
	STAT(it, nxdomain_cut);
	end(r, keep_step(r, &ans));
	return true;
}

static void on_kind(struct it_req *r, struct srv_ent *s, enum it_kind kind,
		    const struct up_answer *ans, const uint8_t *next,
		    const struct it_referral *ref);

/* r's name is below a DNAME kept, or owns a CNAME kept (iter_dname.h):
 * the DNAME and the CNAME synthesised from it, or the CNAME, are a step,
 * and the walk goes on with the target (a question of type CNAME ends
 * there: the CNAME is its answer). Returns true when r went on so. */
static bool dname_answer(struct it_req *r)
{
	struct iterator *it = r->it;
	uint8_t next[DT_NAME_MAXLEN];
	struct up_server from;
	struct up_answer ans = {.server = &from, .msg = it->out};

	ans.len = it_dname_answer(it->dname, r->cur, r->qtype, r->z.name,
				  it->now, it->out, sizeof(it->out), next,
				  &from);
	if (!ans.len)
		return false;
	STAT(it, dname_synth);
	if (r->qtype == WIRE_TYPE_CNAME)
		end(r, keep_step(r, &ans));
	else
		on_kind(r, NULL, IT_CNAME, &ans, next, NULL);
	return true;
}

/* r's name is below a wildcard whose expansion is kept (iter_wild.h):
 * the expansion for r's name is a step, final or a CNAME to follow.
 * Returns true when r ended or went on so. */
static bool wild_answer(struct it_req *r)
{
	struct iterator *it = r->it;
	uint8_t next[DT_NAME_MAXLEN];
	struct up_server from;
	struct up_answer ans = {.server = &from, .msg = it->out};
	uint16_t type;

	ans.len = it_wild_answer(it->wild, r->cur, r->qtype, r->z.name,
				 it->now, it->out, sizeof(it->out), &from,
				 &type, next);
	if (!ans.len)
		return false;
	STAT(it, wild_synth);
	if (type == WIRE_TYPE_CNAME && r->qtype != WIRE_TYPE_CNAME && next[0])
		on_kind(r, NULL, IT_CNAME, &ans, next, NULL);
	else
		end(r, keep_step(r, &ans));
	return true;
}

/* Nothing is left to ask in r's zone: a DNSSEC-lame server's response
 * kept is the answer (the validator judges it), else r fails. */
static void end_zone(struct it_req *r)
{
	struct up_answer ans = {.server = &r->lame_from};

	if (!r->lame_msg) {
		end(r, no_server(r));
		return;
	}
	ans.msg = r->lame_msg;
	ans.len = r->lame_len;
	end(r, keep_step(r, &ans));
}

static void step(struct it_req *r)
{
	struct iterator *it = r->it;
	struct up_conf conf = {.nns = 1, .attempts = 1};
	struct srv_ent *s;
	unsigned budget = r->top->ahead ? DT_IT_KEYS_AHEAD_QUERIES
					: DT_IT_QUERIES_MAX + r->top->cuts;
	int i;

	if (r->top->queries >= budget) {
		end(r, DT_ERECURSION);
		return;
	}
	if (nxd_answer(r) || dname_answer(r) || wild_answer(r))
		return;
	/* A DS question that a CNAME led to another name: the DS RRset a
	 * referral carried for it answers as for a question of its own. */
	if (r->qtype == WIRE_TYPE_DS && r->nsteps && ds_answer(r, true))
		return;
	if (prime_hold(r))
		return;
	int64_t waited = it->now - r->z_start;
	if (!r->z_answered && r->z_timeouts && waited >= DT_IT_ZONE_WAIT_MS) {
		end_zone(r);
		return;
	}
	/* The addresses of NS names without glue before a lame server:
	 * a server that sent bogus data or refused is asked again only
	 * when the zone has no other. */
	i = choose(r, false);
	if (i < 0 && !r->sub && !r->lk && (lookup_ns(r) || lookup_ns_family(r)))
		return;
	if (i < 0)
		i = choose(r, true);
	if (i < 0 && r->z.naddr && !r->z_answered &&
	    r->rounds < DT_IT_ROUNDS_MAX) {
		/* Another round: a datagram lost, a server that stalled. */
		r->rounds++;
		r->tried = 0;
		i = choose(r, true);
	}
	if (i < 0) {
		end_zone(r);
		return;
	}
	s = srv_get(it, &r->z.addr[i]);
	choose_ask(r);
	conf.ns[0] = r->z.addr[i];
	if (it->port)
		set_port(&conf.ns[0], it->port);
	conf.timeout_ms = timeout_of(s);
	if (!r->z_answered && conf.timeout_ms > DT_IT_ZONE_WAIT_MS - waited)
		conf.timeout_ms = (unsigned)(DT_IT_ZONE_WAIT_MS - waited);
	if (conf.timeout_ms < DT_IT_TIMEOUT_MIN_MS)
		conf.timeout_ms = DT_IT_TIMEOUT_MIN_MS;
	r->tried |= 1u << i;
	r->srv = (size_t)i;
	r->sent_ms = it->now;
	r->top->queries++;
	STAT(it, queries);
	srv_sent(it, s);
	struct it_send q = {.name = r->ask,
			    .type = r->ask_type,
			    .conf = &conf,
			    .case_strict = s->echoes_case};
	r->io.fn = on_answer;
	r->io.arg = r;
	r->up = it->env.send(it->env.arg, &q, &r->io);
	if (!r->up)
		end(r, -ENOMEM);
}

static int keep_step(struct it_req *r, const struct up_answer *ans)
{
	uint8_t *copy;

	if (r->nsteps == MAX_STEPS || !(copy = malloc(ans->len)))
		return r->nsteps == MAX_STEPS ? DT_ERECURSION : -ENOMEM;
	memcpy(copy, ans->msg, ans->len);
	wire_dname_copy(r->stepzone[r->nsteps], r->z.name);
	r->step[r->nsteps] = copy;
	r->steplen[r->nsteps++] = ans->len;
	r->last_server = *ans->server;
	return 0;
}

static void follow_referral(struct it_req *r, const struct it_referral *ref)
{
	struct zone *z = &r->z;

	STAT(r->it, referrals);
	memset(z, 0, sizeof(*z));
	wire_dname_copy(z->name, ref->zone);
	wire_dname_tolower(z->name);
	for (size_t i = 0; i < ref->nns; i++) {
		wire_dname_copy(z->ns[i], ref->ns[i]);
		wire_dname_tolower(z->ns[i]);
	}
	z->nns = ref->nns;
	z->has_ds = ref->has_ds;
	for (size_t i = 0; i < ref->naddr; i++)
		if (addr_usable(r->it, &ref->addr[i]))
			z->addr[z->naddr++] = ref->addr[i];
	zone_store(r->it, z, ref->ttl);
	zone_reset(r);
}

/* --- responses kept for questions to come (iter_kept.h) --- */

/* Keeps the DS RRset of zone that m, a referral from server from,
 * carries: a later `zone DS` question is answered from it. Returns
 * whether m carries one (not a proof that there is none). */
static bool ds_learn(struct iterator *it, const struct wire_msg *m,
		     const uint8_t *zone, const struct up_server *from)
{
	uint32_t ttl = 0;
	int len;
	bool ds = false;

	len = it_referral_ds(m, zone, it->out, sizeof(it->out), &ttl);
	if (len <= 0)
		return false;
	if (ttl > DT_IT_ZONE_TTL_MAX)
		ttl = DT_IT_ZONE_TTL_MAX;
	it_kept_put(it->ds, DT_IT_DS_MAX, zone, 0, it->out, (size_t)len,
		    it->now, it->now + (int64_t)ttl * 1000, from);
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] && !ds; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		ds = rr->type == WIRE_TYPE_DS &&
		     wire_dname_equal(rr->owner, zone);
	}
	return ds;
}

/* The DS response kept for zone, or NULL. */
static struct it_kept *ds_lookup(struct iterator *it, const uint8_t *zone)
{
	return it_kept_find(it->ds, DT_IT_DS_MAX, zone, 0, it->now);
}

/* --- the DNSKEY (and DS) of each zone, asked with the question --- */

/* The kept responses of qtype (DS or DNSKEY) and their number. */
static struct it_kept *kept_of(struct iterator *it, uint16_t qtype, size_t *n)
{
	*n = qtype == WIRE_TYPE_DS ? DT_IT_DS_MAX : DT_IT_KEYS_MAX;
	return qtype == WIRE_TYPE_DS ? it->ds : it->keys;
}

/* The question for (name, qtype) that ahead() started and nobody has
 * taken yet, or NULL. */
static struct it_req *ahead_find(struct iterator *it, const uint8_t *name,
				 uint16_t qtype)
{
	for (struct it_req *q = it->reqs; q; q = q->next)
		if (q->ahead && q->qtype == qtype &&
		    wire_dname_equal(q->qname, name))
			return q;
	return NULL;
}

/* Whether (name, qtype) is asked by a question under way, or its
 * response kept. */
static bool ahead_known(struct iterator *it, const uint8_t *name,
			uint16_t qtype)
{
	size_t n;
	struct it_kept *tab = kept_of(it, qtype, &n);

	for (struct it_req *q = it->reqs; q; q = q->next)
		if (q->qtype == qtype && wire_dname_equal(q->qname, name))
			return true;
	return it_kept_find(tab, n, name, 0, it->now) != NULL;
}

/*
 * Asks name's qtype (DNSKEY, or DS) of the servers of z beside r's
 * question, at the same moment, when the caller wants it (it->keys_fn:
 * the chain of trust of r's question will need it and the caches cannot
 * prove it), so that the chain walk finds it when the answer is in
 * instead of asking it then. Not below a referral without DS (the cut is
 * unsigned or the proof bogus: no key of its is used), not for a zone
 * without addresses, nor twice; charged to r's question, at most
 * DT_IT_KEYS_AHEAD_MAX of them.
 */
static void ahead(struct it_req *r, const struct zone *z, const uint8_t *name,
		  uint16_t qtype)
{
	struct iterator *it = r->it;
	struct it_req *top = r->top, *a;

	if (!it->keys_fn || r->ahead || r->parent || r->unsigned_below ||
	    !z->naddr || top->aheads >= DT_IT_KEYS_AHEAD_MAX ||
	    top->queries + 1 >= DT_IT_QUERIES_MAX + top->cuts ||
	    (r->qtype == qtype && wire_dname_equal(r->cur, name)) ||
	    ahead_known(it, name, qtype) ||
	    !it->keys_fn(it->keys_arg, name, r->cur, it->now))
		return;
	if (!(a = req_new(it, name, qtype, NULL, NULL)))
		return;
	a->ahead = true;
	a->z = *z;
	zone_reset(a);
	top->aheads++;
	top->queries++;
	STAT(it, keys_ahead);
	step(a);
}

/* r is about to ask its zone's servers: their zone's DNSKEY with it. */
static void keys_ahead(struct it_req *r)
{
	ahead(r, &r->z, r->z.name, WIRE_TYPE_DNSKEY);
}

/* The end of a question nobody took: its response is kept for the
 * chain walk's question (ds_answer(), keys_answer()). */
static void ahead_end(struct it_req *r)
{
	size_t len, n;
	struct it_kept *tab = kept_of(r->it, r->qtype, &n);

	if (r->err == 0 && r->nsteps && assemble(r, &len) == 0)
		it_kept_put(tab, n, r->qname, 0, r->it->out, len, r->it->now,
			    r->it->now + DT_IT_KEYS_KEEP_MS, &r->last_server);
}

/* The response to a minimised query that is not a referral: the name
 * exists and is no zone cut, so one more label is asked; NXDOMAIN (which
 * broken servers give for empty non-terminals), an NSEC showing a DNAME
 * at the name (no name below it exists: the DNAME answers for them) or
 * an unusable response sends the full name instead. */
static void on_minimised(struct it_req *r, const struct wire_msg *m,
			 enum it_kind kind)
{
	const uint8_t *apex;
	uint32_t ttl;

	/* Parent and child on the same servers: remember the child's cut
	 * with them, so that later questions (its DS, its names) start
	 * there instead of minimising through the parent again. */
	if ((apex = it_child_apex(m, r->z.name, r->ask, &ttl))) {
		struct zone child = r->z;
		wire_dname_copy(child.name, apex);
		wire_dname_tolower(child.name);
		child.has_ds = false; /* no referral said */
		zone_store(r->it, &child, ttl);
		/* Its DS and DNSKEY with the next query, of the same
		 * servers: no referral brings them. */
		ahead(r, &r->z, child.name, WIRE_TYPE_DS);
		ahead(r, &child, child.name, WIRE_TYPE_DNSKEY);
	}
	if (kind == IT_LAME || m->rcode == WIRE_RCODE_NXDOMAIN ||
	    it_nsec_has_type(m, r->ask, WIRE_TYPE_DNAME)) {
		qmin_fallback(r);
	} else {
		r->qmin_labels++;
		r->tried &= ~(1u << r->srv);
	}
	step(r);
}

/* What a response of a server of r's zone makes r do next. */
static void on_kind(struct it_req *r, struct srv_ent *s, enum it_kind kind,
		    const struct up_answer *ans, const uint8_t *next,
		    const struct it_referral *ref)
{
	int err;

	switch (kind) {
	case IT_FINAL: end(r, keep_step(r, ans)); break;
	case IT_CNAME:
		if ((err = keep_step(r, ans)) < 0 ||
		    ++r->links > DT_IT_CNAME_MAX) {
			end(r, err < 0 ? err : DT_ERECURSION);
			break;
		}
		wire_dname_copy(r->cur, next);
		r->unsigned_below = false;
		zone_start(r); /* step(): its DS may have come already */
		step(r);
		break;
	case IT_REFERRAL:
		if (++r->referrals > DT_IT_REFERRALS_MAX) {
			end(r, DT_ERECURSION);
			break;
		}
		if (r->top->cuts < DT_IT_REFERRALS_MAX)
			r->top->cuts++;
		follow_referral(r, ref);
		keys_ahead(r);
		step(r);
		break;
	case IT_LAME:
		srv_lame(r->it, s);
		step(r);
		break;
	}
}

/*
 * A DS question answered by a referral to its own name that carries the
 * DS RRset (a server answering from the parent side as if asked for the
 * child): the DS RRset is the parent's answer, taken as the response
 * it_referral_ds() writes, DS in the answer section, and validated like
 * any. Returns true when r ended so.
 */
static bool ds_self_referral(struct it_req *r, const struct wire_msg *m,
			     const struct up_answer *ans)
{
	struct up_answer a;
	bool cut = false, ds = false;
	uint32_t ttl;
	int len;

	if (r->ask_type != WIRE_TYPE_DS || m->count[WIRE_SEC_ANSWER])
		return false;
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (!wire_dname_equal(rr->owner, r->ask))
			continue;
		cut |= rr->type == WIRE_TYPE_NS;
		ds |= rr->type == WIRE_TYPE_DS;
	}
	if (!cut || !ds)
		return false;
	len = it_referral_ds(m, r->ask, r->it->out, sizeof(r->it->out), &ttl);
	if (len <= 0)
		return false;
	a = (struct up_answer){
		.msg = r->it->out, .len = (size_t)len, .server = ans->server};
	end(r, keep_step(r, &a));
	return true;
}

/* Whether a server of r's zone other than those asked may yet be asked:
 * an address not tried and not dead, or an NS name to look up. */
static bool other_server_left(const struct it_req *r)
{
	struct iterator *it = r->it;

	for (size_t i = 0; i < r->z.naddr; i++)
		if (!(r->tried & (1u << i)) &&
		    !srv_dead(srv_get(it, &r->z.addr[i]), it->now))
			return true;
	if (r->ns_aaaa)
		return true;
	for (size_t k = r->ns_next; k < r->z.nns; k++)
		if (!wire_dname_is_subdomain(r->z.ns[k], r->z.name))
			return true;
	return false;
}

/*
 * A DNSSEC-lame server: an answer (or a NODATA, NXDOMAIN) without any
 * RRSIG from a server of a zone whose referral carried a signed DS
 * RRset, to a query with DO. The zone is signed, so the response cannot
 * be validated; it is left for the zone's other servers while any is
 * left to ask (Unbound's iterator does the same), else handed on, and
 * the validator judges it. Not when its SOA shows the answer comes from
 * a child zone the same server serves (an unsigned child is no fault).
 * The server is not marked lame: it may serve such a child, and only
 * this question's other servers are tried first.
 */
static bool dnssec_lame(const struct it_req *r, const struct wire_msg *m,
			enum it_kind kind)
{
	uint32_t ttl;

	return kind == IT_FINAL && !r->minimised && r->z.has_ds &&
	       !it_has_rrsig(m) &&
	       !it_child_apex(m, r->z.name, r->ask, &ttl) &&
	       other_server_left(r);
}

/* Keeps ans, a DNSSEC-lame server's response, for end_zone(). Returns
 * false when out of memory (it is taken as it is then). */
static bool keep_lame(struct it_req *r, const struct up_answer *ans)
{
	uint8_t *copy = malloc(ans->len);

	if (!copy)
		return false;
	memcpy(copy, ans->msg, ans->len);
	free(r->lame_msg);
	r->lame_msg = copy;
	r->lame_len = ans->len;
	r->lame_from = *ans->server;
	return true;
}

/* A chain whose data at its end is unsigned in a signed zone
 * (it_unsigned_tail): the chain up to there is a step, and its end is
 * asked for itself. Returns true when r went on so. */
static bool unsigned_tail(struct it_req *r, struct srv_ent *s,
			  const struct wire_msg *m, const struct up_answer *ans)
{
	uint8_t end[DT_NAME_MAXLEN];
	struct up_answer cut = *ans;
	int len = it_unsigned_tail(m, r->z.name, r->ask, r->ask_type, end,
				   r->it->out, sizeof(r->it->out));

	if (len <= 0)
		return false;
	cut.msg = r->it->out;
	cut.len = (size_t)len;
	on_kind(r, s, IT_CNAME, &cut, end, NULL);
	return true;
}

/* One response of a server of r's zone. */
static void on_response(struct it_req *r, struct srv_ent *s,
			const struct up_answer *ans)
{
	uint8_t next[DT_NAME_MAXLEN];
	struct it_referral *ref = malloc(sizeof(*ref));
	struct wire_msg *m;
	enum it_kind kind;
	int err = 0;

	m = ref ? wire_msg_parse(ans->msg, ans->len, 0, &err) : NULL;
	if (!ref || !m) {
		free(ref);
		if (err == -ENOMEM || !ref) {
			end(r, -ENOMEM);
			return;
		}
		r->z_malformed = true;
		srv_lame(r->it, s);
		step(r);
		return;
	}
	kind = it_classify(m, r->z.name, r->ask, r->ask_type, next, ref);
	if (m->rcode == WIRE_RCODE_SERVFAIL)
		r->z_servfail = true;
	if (kind == IT_REFERRAL)
		ref->has_ds = it_referral_signed(m, ref->zone);
	if (dnssec_lame(r, m, kind) && keep_lame(r, ans)) {
		STAT(r->it, dnssec_lame);
		step(r); /* r->tried has it: the others first */
		goto out;
	}
	if ((kind == IT_FINAL || r->minimised) && s->lame_until <= r->it->now)
		it_nxd_learn(r->it->nxd, m, r->ask, r->z.name, ans->server,
			     r->it->now);
	if ((kind == IT_FINAL || kind == IT_CNAME) && !r->minimised &&
	    s->lame_until <= r->it->now) {
		it_dname_learn(r->it->dname, m, r->z.name, ans->server,
			       r->it->now);
		it_wild_learn(r->it->wild, m, r->z.name, ans->server,
			      r->it->now);
	}
	if (kind == IT_REFERRAL && !ds_learn(r->it, m, ref->zone, ans->server))
		r->unsigned_below = true;
	if (kind == IT_FINAL && !r->minimised && unsigned_tail(r, s, m, ans))
		goto out;
	if (kind != IT_FINAL || !ds_self_referral(r, m, ans)) {
		if (r->minimised && kind != IT_REFERRAL)
			on_minimised(r, m, kind);
		else
			on_kind(r, s, kind, ans, next, ref);
	}
out:
	wire_msg_free(m);
	free(ref);
}

static void on_answer(void *arg, int err, const struct up_answer *ans,
		      int last_rcode, int64_t now)
{
	struct it_req *r = arg;
	struct iterator *it = r->it;
	struct srv_ent *s;

	it->now = now;
	s = srv_get(it, &r->z.addr[r->srv]);
	r->up = NULL;
	if (err == -ENOMEM) {
		end(r, err);
		return;
	}
	if (err && last_rcode < 0) { /* no answer: timeout, unreachable */
		STAT(it, timeouts);
		r->z_timeouts++;
		srv_timeout(it, s, r->sent_ms);
		/* Perhaps it stopped echoing the case (another instance
		 * of an anycast address): the next query takes any. */
		s->echoes_case = false;
		step(r);
		return;
	}
	/* Any answer, even a refusal: the network lets queries through. */
	srv_alive(s);
	r->z_answered = true;
	__atomic_store_n(&it->root_ok, true, __ATOMIC_RELAXED);
	if (err) {
		if (last_rcode == WIRE_RCODE_SERVFAIL)
			r->z_servfail = true;
		if (last_rcode == UP_RCODE_MALFORMED)
			r->z_malformed = true;
		if (r->minimised)
			qmin_fallback(r);
		else
			srv_lame(it, s);
		step(r);
		return;
	}
	srv_rtt(s, it->now - r->sent_ms);
	s->echoes_case = ans->case_echoed;
	on_response(r, s, ans);
}

/* The priming exchange ended: the questions it held go on, from the
 * primed servers or the hints; when no hint address answered, with the
 * time it took counted against the root's DT_IT_ZONE_WAIT_MS. */
static void on_primed(void *arg, int err, int64_t started, int64_t now)
{
	struct iterator *it = arg;

	it->now = now;
	if (err != -ENOMEM)
		STAT(it, queries);
	if (err == DT_ETIMEOUT)
		STAT(it, timeouts);
	else if (err != -ENOMEM)
		__atomic_store_n(&it->root_ok, true, __ATOMIC_RELAXED);
	for (struct it_req *r = it->reqs; r; r = r->next) {
		if (!r->prime_wait)
			continue;
		r->prime_wait = false;
		zone_start(r);
		if (err == DT_ETIMEOUT) {
			r->z_start = started;
			r->z_timeouts = 1;
		}
		step(r);
	}
}

/* --- the interface --- */

struct iterator *it_new(const struct it_env *env, const struct it_hints *hints,
			uint64_t seed)
{
	struct iterator *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->env = *env;
	it->zones = calloc(DT_IT_ZONES_MAX, sizeof(*it->zones));
	it->srvs = calloc(DT_IT_SERVERS_MAX, sizeof(*it->srvs));
	it->ds = calloc(DT_IT_DS_MAX, sizeof(*it->ds));
	it->keys = calloc(DT_IT_KEYS_MAX, sizeof(*it->keys));
	it->nxd = it_nxd_new();
	it->dname = it_dname_new();
	it->wild = it_wild_new();
	it->prime = it_prime_new(&it->env, on_primed, it);
	if (!it->zones || !it->srvs || !it->ds || !it->keys || !it->nxd ||
	    !it->dname || !it->wild || !it->prime) {
		it_free(it);
		return NULL;
	}
	it->rnd = seed ? seed : 0x9E3779B97F4A7C15ULL;
	it->hints = *hints;
	it->loopback_ok = hints_loopback(hints);
	it->root_ok = true;
	return it;
}

void it_free(struct iterator *it)
{
	if (!it)
		return;
	while (it->reqs) {
		struct it_req *r = it->reqs;
		while (r->parent)
			r = r->parent;
		it_cancel(r);
	}
	it_prime_free(it->prime);
	it_kept_clear_all(it->ds, DT_IT_DS_MAX);
	it_kept_clear_all(it->keys, DT_IT_KEYS_MAX);
	free(it->ds);
	free(it->keys);
	it_nxd_free(it->nxd);
	it_dname_free(it->dname);
	it_wild_free(it->wild);
	free(it->zones);
	free(it->srvs);
	free(it);
}

void it_set_port(struct iterator *it, uint16_t port)
{
	it->port = port;
	it_prime_set_port(it->prime, port);
}

void it_set_qmin(struct iterator *it, bool on)
{
	it->no_qmin = !on;
}

void it_set_notice(struct iterator *it, it_notice_fn *fn, void *arg)
{
	it_prime_set_notice(it->prime, fn, arg);
}

void it_set_hints(struct iterator *it, const struct it_hints *hints,
		  int64_t now)
{
	it->now = now;
	it->hints = *hints;
	it->loopback_ok = hints_loopback(hints);
	memset(it->zones, 0, DT_IT_ZONES_MAX * sizeof(*it->zones));
	it_kept_clear_all(it->ds, DT_IT_DS_MAX);
	it_kept_clear_all(it->keys, DT_IT_KEYS_MAX);
	it_nxd_clear(it->nxd);
	it_dname_clear(it->dname);
	it_wild_clear(it->wild);
	it_prime_forget(it->prime, hints, now);
}

void it_set_lookup(struct iterator *it, const struct it_lookup *lookup)
{
	if (lookup)
		it->lookup = *lookup;
	else
		memset(&it->lookup, 0, sizeof(it->lookup));
}

void it_set_keys_ahead(struct iterator *it, it_keys_fn *fn, void *arg)
{
	it->keys_fn = fn;
	it->keys_arg = arg;
}

/* A DS question whose RRset came with the referral to its zone: answered
 * from it, without a query (one question fewer per cut). Used once: the
 * records are not validated here, so a forged referral's DS weighs no
 * more than one forged answer to the DS question would (the resolver
 * core caches the verdict, not this). A step of a CNAME chain (chain)
 * leaves it once for the DS question of its own that the validator's
 * chain of trust asks next (the same records, checked the same way); a
 * second such step takes it. */
static bool ds_answer(struct it_req *r, bool chain)
{
	struct it_kept *e = ds_lookup(r->it, r->cur);
	struct up_answer ans;
	int err;

	if (!e)
		return false;
	ans = (struct up_answer){
		.msg = e->msg, .len = e->len, .server = &e->from};
	STAT(r->it, ds_from_referral);
	err = keep_step(r, &ans);
	if (chain && !e->mark)
		e->mark = true;
	else
		it_kept_clear(e);
	end(r, err);
	return true;
}

/* A DNSKEY or DS question asked beside an earlier question (ahead()):
 * joined to that question while it is under way (it then has a caller,
 * and all of a question's budget), or for a DNSKEY answered from its
 * kept response, used once as a DS from a referral is (a kept DS is
 * ds_answer()'s). Returns the request, or NULL when there is neither. */
static struct it_req *ahead_take(struct iterator *it, const uint8_t *qname,
				 uint16_t qtype, unsigned nest, up_done_fn *cb,
				 void *arg)
{
	struct it_req *r = ahead_find(it, qname, qtype);
	struct it_kept *e =
		r || qtype != WIRE_TYPE_DNSKEY
			? NULL
			: it_kept_find(it->keys, DT_IT_KEYS_MAX, qname, 0,
				       it->now);
	struct up_answer ans;

	if (r) {
		r->ahead = false;
	} else if (e && (r = req_new(it, qname, qtype, cb, arg))) {
		ans = (struct up_answer){
			.msg = e->msg, .len = e->len, .server = &e->from};
		end(r, keep_step(r, &ans));
		it_kept_clear(e);
	}
	if (!r)
		return NULL;
	r->cb = cb;
	r->arg = arg;
	r->nest = nest;
	STAT(it, questions);
	STAT(it, keys_from_ahead);
	return r;
}

int it_add_stub(struct iterator *it, const uint8_t *name,
		const struct up_server *addrs, size_t n)
{
	struct stub *st;

	if (it->nstubs == DT_IT_STUBS_MAX)
		return DT_ELIMIT;
	st = &it->stubs[it->nstubs++];
	wire_dname_copy(st->name, name);
	wire_dname_tolower(st->name);
	st->naddr = n < DT_IT_ADDRS_MAX ? n : DT_IT_ADDRS_MAX;
	memcpy(st->addr, addrs, st->naddr * sizeof(addrs[0]));
	return 0;
}

void it_recv(struct it_io *io, int err, const struct up_answer *ans,
	     int last_rcode, int64_t now)
{
	io->fn(io->arg, err, ans, last_rcode, now);
}

void it_deliver(struct iterator *it, int64_t now)
{
	it->now = now;
	it_prime_deliver(it->prime, now);
	while (it->nending) {
		struct it_req *r = it->reqs;

		while (r && !r->ending)
			r = r->next;
		if (!r)
			break;
		on_end(r);
	}
}

struct it_req *it_query(struct iterator *it, int64_t now, const uint8_t *qname,
			uint16_t qtype, up_done_fn *cb, void *arg)
{
	return it_query_nest(it, now, qname, qtype, 0, cb, arg);
}

struct it_req *it_query_nest(struct iterator *it, int64_t now,
			     const uint8_t *qname, uint16_t qtype,
			     unsigned nest, up_done_fn *cb, void *arg)
{
	struct it_req *r;
	int len = wire_dname_check(qname, qname + DT_NAME_MAXLEN);

	it->now = now;
	if (len < 0)
		qname = (const uint8_t *)""; /* ends below with the error */
	else if ((qtype == WIRE_TYPE_DNSKEY || qtype == WIRE_TYPE_DS) &&
		 (r = ahead_take(it, qname, qtype, nest, cb, arg)))
		return r;
	if (!(r = req_new(it, qname, qtype, cb, arg)))
		return NULL;
	r->nest = nest;
	STAT(it, questions);
	if (len < 0) {
		end(r, len);
		return r;
	}
	wire_dname_tolower(r->cur);
	if (qtype == WIRE_TYPE_DS && ds_answer(r, false))
		return r;
	zone_start(r);
	step(r);
	return r;
}

void it_cancel(struct it_req *r)
{
	if (!r || r->in_cb)
		return;
	if (r->sub)
		it_cancel(r->sub);
	if (r->lk)
		r->it->lookup.cancel(r->it->lookup.arg, r->lk);
	if (r->up)
		r->it->env.cancel(r->it->env.arg, r->up);
	if (r->ending)
		r->it->nending--;
	unlink_req(r);
	req_free(r);
}

void it_get_stats(const struct iterator *it, struct it_stats *ret)
{
	ret->questions =
		__atomic_load_n(&it->stats.questions, __ATOMIC_RELAXED);
	ret->queries = __atomic_load_n(&it->stats.queries, __ATOMIC_RELAXED);
	ret->referrals =
		__atomic_load_n(&it->stats.referrals, __ATOMIC_RELAXED);
	ret->timeouts = __atomic_load_n(&it->stats.timeouts, __ATOMIC_RELAXED);
	ret->lame = __atomic_load_n(&it->stats.lame, __ATOMIC_RELAXED);
	ret->root_unreachable =
		__atomic_load_n(&it->stats.root_unreachable, __ATOMIC_RELAXED);
	ret->ds_from_referral =
		__atomic_load_n(&it->stats.ds_from_referral, __ATOMIC_RELAXED);
	ret->keys_ahead =
		__atomic_load_n(&it->stats.keys_ahead, __ATOMIC_RELAXED);
	ret->keys_from_ahead =
		__atomic_load_n(&it->stats.keys_from_ahead, __ATOMIC_RELAXED);
	ret->nxdomain_cut =
		__atomic_load_n(&it->stats.nxdomain_cut, __ATOMIC_RELAXED);
	ret->dname_synth =
		__atomic_load_n(&it->stats.dname_synth, __ATOMIC_RELAXED);
	ret->dnssec_lame =
		__atomic_load_n(&it->stats.dnssec_lame, __ATOMIC_RELAXED);
	ret->wild_synth =
		__atomic_load_n(&it->stats.wild_synth, __ATOMIC_RELAXED);
}

void it_stats_add(struct it_stats *sum, const struct it_stats *one)
{
	sum->questions += one->questions;
	sum->queries += one->queries;
	sum->referrals += one->referrals;
	sum->timeouts += one->timeouts;
	sum->lame += one->lame;
	sum->root_unreachable += one->root_unreachable;
	sum->ds_from_referral += one->ds_from_referral;
	sum->keys_ahead += one->keys_ahead;
	sum->keys_from_ahead += one->keys_from_ahead;
	sum->nxdomain_cut += one->nxdomain_cut;
	sum->dname_synth += one->dname_synth;
	sum->dnssec_lame += one->dnssec_lame;
	sum->wild_synth += one->wild_synth;
}

bool it_root_reachable(const struct iterator *it)
{
	return __atomic_load_n(&it->root_ok, __ATOMIC_RELAXED);
}

bool it_root_primed(const struct iterator *it)
{
	return it_prime_primed(it->prime);
}
