/* SPDX-License-Identifier: MIT */
/*
 * The resolver core (src/resolver/resolver.h) on its own: no sockets, no
 * threads, no clock. The upstream is this file: each fetch the core asks
 * for is queued, and answered from the signed fixture zone
 * (tests/unit/response_fixture.h) as an authoritative server would, or
 * failed, or answered with junk, as each test says. Checked: verdicts
 * and replies, the fetches made (shared, joined, cached), the typed
 * failures, the per-question limits, detaching, negative trust anchors,
 * state changes and shutdown.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/response_fixture.h"
#include "cache/cache.h"
#include "common/errcode.h"
#include "policy/config.h"
#include "policy/nta.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "tap.h"
#include "upstream/resolvconf.h"
#include "validator/anchor.h"
#include "validator/val.h"
#include "wire/dname.h"
#include "wire/msg.h"

static struct fx_rrs zone;
/* The network's own records (a router's names, a portal's forgeries):
 * where one matches a question, only these are answered. */
static struct fx_rrs extra;
static struct up_conf network_conf;	/* env.network's resolv.conf */
static uint32_t hotspot_left;		/* env.hotspot's answer */

/* --- the scripted upstream --- */

enum mode {
	SERVE,		/* the fixture's records */
	FAIL,		/* fetch fails with fail_err */
	REFUSE,		/* RCODE REFUSED */
	HUGE,		/* thousands of records beside the answer */
};

struct pending {
	struct rsv_fetch *f;
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
	bool cancelled;
};

static struct pending queue[64];
static size_t nqueue, nfetched, ncancelled;
static enum mode mode;
static uint16_t mode_type;	/* the mode applies to this type only (0:
				   every type) */
static int fail_err;
static size_t fetched_dnskey;

static int fetch(void *arg, struct rsv_fetch *f, const uint8_t *name,
		 uint16_t type, const struct up_conf *servers, void **handle)
{
	(void)arg;
	(void)servers;
	if (nqueue == 64)
		return -ENOMEM;
	struct pending *p = &queue[nqueue++];
	p->f = f;
	p->type = type;
	p->cancelled = false;
	wire_dname_copy(p->name, name);
	*handle = p;
	nfetched++;
	if (type == WIRE_TYPE_DNSKEY)
		fetched_dnskey++;
	return 0;
}

static void fetch_cancel(void *arg, void *handle)
{
	(void)arg;
	((struct pending *)handle)->cancelled = true;
	ncancelled++;
}

/* A response to (name, type) from the fixture zone: the RRset and its
 * RRSIGs, or an empty NOERROR. */
static size_t respond(const struct pending *p, uint8_t *buf, size_t cap,
		      enum mode m)
{
	struct wire_builder b;

	wire_build_init(&b, buf, cap, 1,
			WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA |
				(m == REFUSE ? WIRE_RCODE_REFUSED : 0));
	wire_build_question(&b, p->name, p->type, WIRE_CLASS_IN);
	const struct fx_rrs *src = &zone;
	for (size_t i = 0; i < extra.n; i++)
		if (wire_dname_equal(extra.rr[i].owner, p->name) &&
		    extra.rr[i].type == p->type)
			src = &extra;
	for (size_t i = 0; m != REFUSE && i < src->n; i++) {
		const struct wire_rr *rr = &src->rr[i];
		if (wire_dname_equal(rr->owner, p->name) &&
		    (rr->type == p->type || val_rrsig_covers(rr, p->type)))
			wire_build_rr(&b, WIRE_SEC_ANSWER, rr);
	}
	/* Junk an answer carries beside it: many small records, which a
	 * parsed message holds at several times their wire size. */
	for (unsigned i = 0; m == HUGE && i < 4000; i++) {
		uint8_t rdata[4] = {192, 0, 2, (uint8_t)i};
		struct wire_rr rr = {
			.owner = p->name,
			.type = WIRE_TYPE_A,
			.rclass = WIRE_CLASS_IN,
			.ttl = 60,
			.rdlen = 4,
			.rdata = rdata,
		};
		if (wire_build_rr(&b, WIRE_SEC_ADDITIONAL, &rr) < 0)
			break;
	}
	return wire_build_finish(&b);
}

static struct rsv_clock now = {.mono_ms = 1000000, .wall = FIXTURE_NOW};

/* Answers every queued fetch (and those they lead to) until none is
 * left; returns how many were answered. */
static size_t serve(void)
{
	static uint8_t buf[DT_MSG_MAXLEN];
	size_t n = 0;

	while (nqueue) {
		struct pending p = queue[0];
		memmove(queue, queue + 1, --nqueue * sizeof(*queue));
		if (p.cancelled)
			continue;
		n++;
		enum mode m = mode_type && mode_type != p.type ? SERVE : mode;
		if (m == FAIL) {
			rsv_fetch_done(p.f, fail_err, NULL, 0, "test", &now);
			continue;
		}
		size_t len = respond(&p, buf, sizeof(buf), m);
		rsv_fetch_done(p.f, 0, buf, len, "test", &now);
	}
	return n;
}

/* --- clients --- */

struct client {
	struct rsv_waiter rw;	/* first: the waiter is the client */
	bool answered;
	enum val_status status;
	const char *tag;
	bool upstream_fail, nta, unvalidated;
	uint16_t rcode;		/* of the rendered reply */
	uint16_t ede;
	bool ad;
	size_t nanswer;
};

static size_t nanswered_calls, nobody_calls, handed, handed_attached;

static void answered(void *arg, struct rsv_waiter *list,
		     const struct rsv_done *d)
{
	static uint8_t buf[DT_MSG_MAXLEN];

	(void)arg;
	nanswered_calls++;
	if (!list)
		nobody_calls++;
	while (list) {
		struct client *c = (struct client *)list;
		list = list->next;
		handed++;
		handed_attached += c->rw.task != NULL;
		c->answered = true;
		c->status = d->a->status;
		c->tag = d->a->tag;
		c->upstream_fail = d->a->upstream_fail;
		c->nta = d->a->nta;
		c->unvalidated = d->a->unvalidated;
		c->ede = d->a->ede;
		size_t len = answer_render(d->a, &c->rw.q, 0, buf, sizeof(buf));
		int err;
		struct wire_msg *m = wire_msg_parse(buf, len, 0, &err);
		if (m) {
			c->rcode = m->rcode;
			c->ad = m->hdr.flags & WIRE_FLAG_AD;
			c->nanswer = m->count[WIRE_SEC_ANSWER];
			wire_msg_free(m);
		}
	}
}

static void client_init(struct client *c, const char *name, uint16_t type)
{
	memset(c, 0, sizeof(*c));
	wire_dname_from_str(name, strlen(name), NULL, c->rw.q.qname);
	c->rw.q.qtype = type;
	c->rw.q.qclass = WIRE_CLASS_IN;
	c->rw.q.id = 4242;
	c->rw.q.flags = WIRE_FLAG_RD | WIRE_FLAG_AD;
	c->rw.q.edns = true;
	c->rw.q.do_bit = true;
	c->rw.q.udp_size = 1232;
}

/* --- set-up --- */

/* The runtime negative trust anchors every state is given: the test's
 * own, in memory (never the host's file). */
static struct nta_rt *runtime_nta;

static struct dstate *state(const char *conf)
{
	struct dstate *st;
	struct cfg cfg;
	struct fx_rrs a = {0};
	char err[256];

	cfg_default(&cfg);
	if (conf && cfg_parse(conf, strlen(conf), "test", &cfg, err,
			      sizeof(err)) < 0) {
		diag("%s", err);
		return NULL;
	}
	struct val_anchors *ta = val_anchors_new();
	if (!ta || fx_load(fixture_anchor, &a) < 0 ||
	    val_anchors_add(ta, &a.rr[0]) < 0) {
		val_anchors_free(ta);
		fx_free(&a);
		return NULL;
	}
	fx_free(&a);
	st = dstate_new(&cfg, ta, "fixture anchor");
	if (st)
		st->nta = runtime_nta;
	return st;
}

static struct cache *cache;
/* The built-in private domains take test. (the fixture's TLD) as the
 * network's: the other tests run without them. */
static bool with_private_defaults;

static const struct up_conf *network(void *arg)
{
	(void)arg;
	return &network_conf;
}

static uint32_t hotspot(void *arg)
{
	(void)arg;
	return hotspot_left;
}

static struct resolver *fresh(const char *conf)
{
	struct rsv_env env = {
		.fetch = fetch,
		.fetch_cancel = fetch_cancel,
		.answered = answered,
		.network = network,
		.hotspot = hotspot,
	};
	char text[1024];
	snprintf(text, sizeof(text), "%s%s",
		 with_private_defaults ? "" : "no-private-defaults\n",
		 conf ? conf : "");
	struct dstate *st = state(text);

	cache_free(cache);
	cache = cache_new(16 << 20);
	struct resolver *r = cache && st ? rsv_new(cache, &env) : NULL;
	if (r)
		rsv_set_state(r, st);
	dstate_put(st);
	nqueue = nfetched = ncancelled = fetched_dnskey = 0;
	nanswered_calls = nobody_calls = 0;
	mode = SERVE;
	mode_type = 0;
	return r;
}

static int ask(struct resolver *r, struct client *c, const char *name,
	       uint16_t type)
{
	client_init(c, name, type);
	return rsv_submit(r, &c->rw, &now);
}

/* --- tests --- */

static void test_secure(void)
{
	struct resolver *r = fresh(NULL);
	struct client c;
	static uint8_t buf[DT_MSG_MAXLEN];

	is_int(ask(r, &c, "www.secure.test.", WIRE_TYPE_A), 0, "submitted");
	ok(!c.answered && c.rw.task, "waits for the upstream");
	is_int(rsv_tasks(r), 1, "one task");
	is_int(rsv_fetches(r), 1, "one fetch: the question");
	is_int(serve(), 2, "then the zone's DNSKEY RRset: two fetches");
	ok(c.answered, "answered");
	is_int(c.status, VAL_SECURE, "secure");
	is_int(c.rcode, WIRE_RCODE_NOERROR, "NOERROR");
	ok(c.ad, "AD set");
	is_int(c.nanswer, 2, "the A RRset and its RRSIG");
	is_int(rsv_tasks(r), 0, "no task left");
	is_int(nanswered_calls, 1, "answered() once");

	struct qinfo q = c.rw.q;
	size_t len = answer_cached(r, &q, &now, buf, sizeof(buf));
	ok(len > DT_MSG_HDRLEN, "asked again: answered from the cache");
	is_int(nfetched, 2, "without a fetch");
	/* A cached answer's TTLs age with the monotonic clock. */
	struct rsv_clock later = now;
	later.mono_ms += 100 * 1000;
	int err;
	len = answer_cached(r, &q, &later, buf, sizeof(buf));
	struct wire_msg *m = wire_msg_parse(buf, len, 0, &err);
	ok(m && m->count[WIRE_SEC_ANSWER] &&
		   m->sec[WIRE_SEC_ANSWER][0].ttl == 3600 - 100,
	   "100 s later the TTL is 100 s less");
	wire_msg_free(m);
	/* The key set is cached: another name of the zone costs one
	 * fetch. */
	ask(r, &c, "two.secure.test.", WIRE_TYPE_A);
	is_int(serve(), 1, "another name of the zone: one fetch, keys cached");
	is_int(c.status, VAL_SECURE, "secure");
	const struct rsv_stats *s = rsv_stats(r);
	is_int(s->secure, 2, "two secure verdicts counted");
	is_int(s->upstream, 3, "three upstream queries counted");
	rsv_free(r);
}

static void test_sharing(void)
{
	struct resolver *r = fresh(NULL);
	struct client a, b, c;

	ask(r, &a, "www.secure.test.", WIRE_TYPE_A);
	ask(r, &b, "WWW.Secure.Test.", WIRE_TYPE_A);
	ask(r, &c, "alias.secure.test.", WIRE_TYPE_CNAME);
	is_int(rsv_tasks(r), 2, "the same question in other case joins");
	is_int(rsv_stats(r)->joined, 1, "counted as joined");
	serve();
	ok(a.answered && b.answered && c.answered, "all three answered");
	is_int(a.status, VAL_SECURE, "secure (first)");
	is_int(b.status, VAL_SECURE, "secure (joined)");
	is_int(c.status, VAL_SECURE, "secure (CNAME)");
	is_int(fetched_dnskey, 1, "the DNSKEY fetch shared by both tasks");
	is_int(nfetched, 3, "three fetches in all");
	is_int(nanswered_calls, 2, "answered() once per task");
	rsv_free(r);
}

/* A nested question (rsv_waiter.nest) joins only tasks and fetches of
 * its own nesting or deeper; shallower ones join it. */
static void test_nesting(void)
{
	struct resolver *r = fresh(NULL);
	struct client a, b, c, d;

	ask(r, &a, "www.secure.test.", WIRE_TYPE_A);
	client_init(&b, "www.secure.test.", WIRE_TYPE_A);
	b.rw.nest = 1;
	is_int(rsv_submit(r, &b.rw, &now), 0, "a nested question is taken");
	is_int(rsv_tasks(r), 2, "it does not join the client's task");
	is_int(nqueue, 2, "nor its fetch: one fetch each");
	is_int(rsv_fetch_nest(queue[0].f), 0, "the client's fetch: nest 0");
	is_int(rsv_fetch_nest(queue[1].f), 1, "the nested one's: nest 1");
	client_init(&c, "www.secure.test.", WIRE_TYPE_A);
	c.rw.nest = 2;
	rsv_submit(r, &c.rw, &now);
	is_int(rsv_tasks(r), 3, "nest 2 joins neither");
	ask(r, &d, "www.secure.test.", WIRE_TYPE_A);
	is_int(rsv_tasks(r), 3, "a client's question joins a task");
	serve();
	ok(a.answered && b.answered && c.answered && d.answered,
	   "all four answered");
	ok(a.status == VAL_SECURE && b.status == VAL_SECURE &&
		   c.status == VAL_SECURE && d.status == VAL_SECURE,
	   "all secure");
	is_int(rsv_tasks(r) + rsv_fetches(r), 0, "nothing left under way");

	/* The other way round: a nested task first, a client joins it. */
	r = (rsv_free(r), fresh(NULL));
	client_init(&b, "www.secure.test.", WIRE_TYPE_A);
	b.rw.nest = 1;
	rsv_submit(r, &b.rw, &now);
	ask(r, &a, "www.secure.test.", WIRE_TYPE_A);
	is_int(rsv_tasks(r), 1, "a client joins a nested task");
	serve();
	ok(a.answered && b.answered && a.status == VAL_SECURE,
	   "both answered, secure");
	rsv_free(r);
}

static void test_failures(void)
{
	struct resolver *r = fresh(NULL);
	struct client c;

	mode = FAIL;
	fail_err = DT_ETIMEOUT;
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_int(c.rcode, WIRE_RCODE_SERVFAIL, "timeout: SERVFAIL");
	is_str(c.tag, "upstream-unreachable", "tag upstream-unreachable");
	is_int(c.ede, WIRE_EDE_NO_REACHABLE_AUTHORITY, "EDE 22");
	ok(c.upstream_fail, "an upstream failure");

	r = (rsv_free(r), fresh(NULL));
	mode = FAIL;
	fail_err = DT_EUPSTREAM;
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_str(c.tag, "upstream-failed", "unusable answers: upstream-failed");
	is_int(c.ede, WIRE_EDE_NETWORK_ERROR, "EDE 23");

	r = (rsv_free(r), fresh(NULL));
	mode = REFUSE;
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_str(c.tag, "upstream-rcode", "REFUSED: upstream-rcode");
	is_int(c.rcode, WIRE_RCODE_SERVFAIL, "SERVFAIL");

	/* The answer came, its keys could not be had. */
	r = (rsv_free(r), fresh(NULL));
	mode = FAIL;
	mode_type = WIRE_TYPE_DNSKEY;
	fail_err = DT_ETIMEOUT;
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_int(c.status, VAL_INDETERMINATE, "keys unavailable: indeterminate");
	is_str(c.tag, "keys-fetch-failed", "tag keys-fetch-failed");
	ok(c.upstream_fail, "counted as an upstream failure");
	is_int(c.rcode, WIRE_RCODE_SERVFAIL, "SERVFAIL");
	is_int(rsv_stats(r)->servfail_upstream, 1, "counted once");
	rsv_free(r);
}

static void test_limits(void)
{
	struct resolver *r = fresh(NULL);
	struct client c, many[DT_DMN_WAITERS_PER_TASK];

	rsv_set_task_limits(r, 1, DT_DMN_BYTES_PER_TASK);
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_str(c.tag, "limit-fetches", "one fetch allowed, two needed: "
				       "limit-fetches");
	is_int(c.ede, WIRE_EDE_OTHER, "EDE 0");
	ok(!c.upstream_fail, "not an upstream failure");

	/* Per question: the parsed responses' memory. The answer fits, the
	 * DNSKEY response with 4,000 records beside it does not. */
	r = (rsv_free(r), fresh(NULL));
	rsv_set_task_limits(r, DT_DMN_FETCHES_PER_TASK, 200 * 1024);
	mode = HUGE;
	mode_type = WIRE_TYPE_DNSKEY;
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_str(c.tag, "limit-bytes", "past the byte cap: limit-bytes");
	is_int(c.rcode, WIRE_RCODE_SERVFAIL, "SERVFAIL");
	r = (rsv_free(r), fresh(NULL));
	mode = HUGE;
	mode_type = WIRE_TYPE_DNSKEY;
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_int(c.status, VAL_SECURE, "the same under the default cap: secure");

	/* Waiters per question. */
	r = (rsv_free(r), fresh(NULL));
	int rc = 0;
	for (size_t i = 0; i < DT_DMN_WAITERS_PER_TASK; i++)
		rc |= ask(r, &many[i], "www.secure.test.", WIRE_TYPE_A);
	is_int(rc, 0, "%d waiters on one question", DT_DMN_WAITERS_PER_TASK);
	is_int(ask(r, &c, "www.secure.test.", WIRE_TYPE_A), DT_ELIMIT,
	       "one more: DT_ELIMIT");
	is_int(rsv_stats(r)->overload, 1, "counted as overload");
	serve();
	size_t n = 0;
	for (size_t i = 0; i < DT_DMN_WAITERS_PER_TASK; i++)
		n += many[i].answered && many[i].status == VAL_SECURE;
	is_int(n, DT_DMN_WAITERS_PER_TASK, "every waiter answered secure");
	rsv_free(r);
}

static void test_detach(void)
{
	struct resolver *r = fresh(NULL);
	struct client c;
	static uint8_t buf[DT_MSG_MAXLEN];

	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	rsv_detach(&c.rw);
	ok(!c.rw.task, "detached");
	serve();
	ok(!c.answered, "a detached waiter is not answered");
	is_int(nobody_calls, 1, "answered() told nobody waits");
	ok(answer_cached(r, &c.rw.q, &now, buf, sizeof(buf)) > 0,
	   "the answer still fills the cache");
	rsv_free(r);
}

static void test_nta(void)
{
	struct resolver *r =
		fresh("negative-trust-anchor secure.test until 2099-01-01\n");
	struct client c;

	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_int(c.status, VAL_INSECURE, "under a negative trust anchor: "
				       "insecure");
	ok(c.nta, "marked");
	is_str(c.tag, "policy-nta", "tag policy-nta");
	ok(!c.ad, "no AD");
	is_int(fetched_dnskey, 0, "no key fetched");
	rsv_free(r);

	/* one added at run time: the set handed in through the state */
	int save_err = -1;
	is_int(nta_rt_add(runtime_nta, (const uint8_t *)"\6secure\4test", 0, 0,
			  &save_err),
	       0, "a runtime negative trust anchor added");
	is_int(save_err, 0, "nothing to save: the set has no file");
	r = fresh(NULL);
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	ok(c.status == VAL_INSECURE && c.nta,
	   "under a runtime negative trust anchor: insecure (%s)", c.tag);
	rsv_free(r);
	is_int(nta_rt_remove(runtime_nta, (const uint8_t *)"\6secure\4test", 0,
			     &save_err),
	       1, "and removed");
	r = fresh(NULL);
	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	is_int(c.status, VAL_SECURE, "then secure again");
	rsv_free(r);
}

static void test_state_and_shutdown(void)
{
	struct resolver *r = fresh(NULL);
	struct client a, b;

	ask(r, &a, "www.secure.test.", WIRE_TYPE_A);
	/* A reload: new questions use the new state, this one its own. */
	struct dstate *st = state("bogus-ttl 5\n");
	rsv_set_state(r, st);
	is_int(st->refs, 2, "the resolver holds the new state");
	dstate_put(st);
	serve();
	is_int(a.status, VAL_SECURE, "the question under way finished");

	ask(r, &a, "two.secure.test.", WIRE_TYPE_A);
	ask(r, &b, "alias.secure.test.", WIRE_TYPE_CNAME);
	size_t queued = nqueue;
	rsv_free(r);
	is_int(ncancelled, queued, "shutdown cancels every fetch");
	ok(a.answered && b.answered, "and hands every waiter back");
	is_str(a.tag, "shutdown", "tagged shutdown");
	is_int(a.rcode, WIRE_RCODE_SERVFAIL, "SERVFAIL");
	nqueue = 0;
}

static void test_unproven(void)
{
	struct resolver *r = fresh(NULL);
	struct client c;
	static uint8_t buf[DT_MSG_MAXLEN];

	ask(r, &c, "www.secure.test.", WIRE_TYPE_A);
	serve();
	mode = FAIL;
	fail_err = DT_ETIMEOUT;
	ask(r, &c, "nope.secure.test.", WIRE_TYPE_A);
	serve();
	struct client s;
	client_init(&s, "www.secure.test.", WIRE_TYPE_A);
	size_t dropped = source_drop_unproven(cache);
	ok(dropped >= 1, "a change of upstreams drops what was not secure "
			 "(%zu entries)",
	   dropped);
	ok(answer_cached(r, &s.rw.q, &now, buf, sizeof(buf)) > 0,
	   "the secure answer stays");
	ok(answer_cached(r, &c.rw.q, &now, buf, sizeof(buf)) == 0,
	   "the failure is gone");
	rsv_free(r);
}

/* The network's records for the tests of private names and hotspots. */
static void network_records(const char *text)
{
	fx_free(&extra);
	memset(&extra, 0, sizeof(extra));
	if (text && fx_load(text, &extra) < 0) {
		diag("bad extra records");
		abort();
	}
}

/* Asks name/A and serves it to the end. */
static void resolve(struct resolver *r, struct client *c, const char *name)
{
	ask(r, c, name, WIRE_TYPE_A);
	serve();
}

static void test_private(void)
{
	with_private_defaults = true;
	struct resolver *r = fresh(NULL);
	struct client c;
	static uint8_t buf[DT_MSG_MAXLEN];

	network_records("router.lan. 300 IN A 192.168.1.1\n"
			"nas.home.example. 300 IN A 192.168.1.2\n"
			"pc.dhcp.secure.test. 300 IN A 192.168.1.3\n"
			"host.corp.secure.test. 300 IN A 10.1.2.3\n"
			"forged.secure.test. 300 IN A 203.0.113.66\n");
	up_conf_parse("search home.example dhcp.secure.test\n", 38,
		      &network_conf);
	resolve(r, &c, "router.lan.");
	is_int(c.status, VAL_INSECURE, "router.lan (built-in lan.): insecure");
	is_str(c.tag, "private-domain", "tag private-domain");
	ok(c.rcode == WIRE_RCODE_NOERROR && c.nanswer == 1 && !c.ad,
	   "the router's address, NOERROR, no AD (%zu records)", c.nanswer);
	ok(answer_cached(r, &c.rw.q, &now, buf, sizeof(buf)) > 0,
	   "cached like an insecure answer");
	resolve(r, &c, "nas.home.example.");
	is_int(c.status, VAL_INSECURE,
	       "resolv.conf search home.example, no signed zone: insecure");
	is_str(c.tag, "private-domain", "tag private-domain");
	resolve(r, &c, "pc.dhcp.secure.test.");
	ok(c.status == VAL_BOGUS && c.rcode == WIRE_RCODE_SERVFAIL,
	   "resolv.conf search inside the signed secure.test.: still bogus "
	   "(the network's word does not soften a signed zone)");
	resolve(r, &c, "www.secure.test.");
	ok(c.status == VAL_SECURE && c.ad, "a signed name stays secure");
	resolve(r, &c, "forged.secure.test.");
	ok(c.status == VAL_BOGUS && c.rcode == WIRE_RCODE_SERVFAIL,
	   "a forged name of a signed zone, not private: bogus");
	rsv_free(r);

	r = fresh("private-domain corp.secure.test\n"
		  "private-domain secure.test\n");
	resolve(r, &c, "host.corp.secure.test.");
	is_int(c.status, VAL_INSECURE,
	       "private-domain corp.secure.test (below the signed zone, "
	       "no zone of its own): insecure");
	ok(c.nanswer == 1 && !c.ad, "its address, no AD");
	resolve(r, &c, "forged.secure.test.");
	ok(c.status == VAL_BOGUS && c.rcode == WIRE_RCODE_SERVFAIL,
	   "private-domain secure.test, itself signed: a forgery stays bogus");
	resolve(r, &c, "www.secure.test.");
	ok(c.status == VAL_SECURE && c.ad,
	   "private-domain secure.test: signed data stays secure");
	rsv_free(r);

	with_private_defaults = false;
	r = fresh(NULL);
	up_conf_parse("", 0, &network_conf);
	resolve(r, &c, "router.lan.");
	ok(c.status != VAL_INSECURE && c.rcode == WIRE_RCODE_SERVFAIL,
	   "no-private-defaults: router.lan fails (%s)", c.tag);
	rsv_free(r);

	with_private_defaults = true;
	r = fresh("require-secure lan\n");
	resolve(r, &c, "router.lan.");
	ok(c.status != VAL_INSECURE && c.rcode == WIRE_RCODE_SERVFAIL &&
		   strcmp(c.tag, "private-domain") != 0,
	   "require-secure lan wins over private: fails (%s)", c.tag);
	rsv_free(r);

	r = fresh("negative-trust-anchor lan\n");
	resolve(r, &c, "router.lan.");
	ok(c.status == VAL_INSECURE && c.nta,
	   "a negative trust anchor takes precedence (%s)", c.tag);
	rsv_free(r);
	network_records(NULL);
	with_private_defaults = false;
}

static void test_hotspot(void)
{
	struct resolver *r = fresh(NULL);
	struct client c;
	static uint8_t buf[DT_MSG_MAXLEN];

	network_records("portal.example. 0 IN A 192.0.2.99\n"
			"www.secure.test. 60 IN A 192.0.2.99\n");
	up_conf_parse("", 0, &network_conf);
	resolve(r, &c, "portal.example.");
	ok(c.rcode == WIRE_RCODE_SERVFAIL && !c.unvalidated,
	   "before the sign-on: the portal's name fails (%s)", c.tag);
	hotspot_left = 300;
	source_drop_unproven(cache); /* as dnstrustd does at its start */
	resolve(r, &c, "portal.example.");
	ok(c.unvalidated && c.rcode == WIRE_RCODE_NOERROR && c.nanswer == 1 &&
		   !c.ad,
	   "during it: the portal's address, unvalidated, no AD");
	is_str(c.tag, "hotspot-unvalidated", "tag hotspot-unvalidated");
	ok(answer_cached(r, &c.rw.q, &now, buf, sizeof(buf)) == 0,
	   "an unvalidated answer is not cached");
	resolve(r, &c, "portal.example.");
	ok(c.unvalidated && nfetched > 0, "asked again: asked again, "
					   "unvalidated again");
	/* Its chain is fetched and signed: secure.test.'s keys are shown. */
	resolve(r, &c, "www.secure.test.");
	ok(c.status == VAL_BOGUS && c.rcode == WIRE_RCODE_SERVFAIL &&
		   !c.unvalidated,
	   "a forged answer for a signed name stays SERVFAIL");
	network_records(NULL);
	resolve(r, &c, "two.secure.test.");
	ok(c.status == VAL_SECURE && c.ad, "signed names stay validated");
	hotspot_left = 0;
	network_records("portal.example. 0 IN A 192.0.2.99\n");
	resolve(r, &c, "portal.example.");
	ok(c.rcode == WIRE_RCODE_SERVFAIL && !c.unvalidated,
	   "after it: the portal's name fails again");
	network_records(NULL);
	rsv_free(r);
}

int main(void)
{
	runtime_nta = nta_rt_new(NULL);
	if (!runtime_nta || fx_load(fixture_zone, &zone) < 0)
		return 1;
	test_secure();
	test_sharing();
	test_nesting();
	test_failures();
	test_limits();
	test_detach();
	test_nta();
	test_state_and_shutdown();
	test_unproven();
	test_private();
	test_hotspot();
	ok(handed > DT_DMN_WAITERS_PER_TASK && !handed_attached,
	   "every waiter handed back (%zu) was detached", handed);
	cache_free(cache);
	fx_free(&zone);
	nta_rt_free(runtime_nta);
	return done_testing();
}
