/* SPDX-License-Identifier: MIT */
/*
 * One target per server, walking its steps (DNSKEY, NXDOMAIN, DS) one
 * query at a time through the probe's own upstream client, which feeds
 * the capab table without following what it remembers. One timer starts
 * the probes that are due.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/errcode.h"
#include "common/limits.h"
#include "common/loop.h"
#include "upstream/capab.h"
#include "upstream/probe.h"
#include "upstream/transport.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

enum step {
	STEP_IDLE,
	STEP_DNSKEY, /* . DNSKEY */
	STEP_NXD,    /* RANDOM. A, for the NSEC of the NXDOMAIN */
	STEP_DS,     /* TLD. DS */
};

struct up_probe;

struct target {
	struct up_probe *p;
	size_t idx;	    /* in the table (and capab's) */
	struct up_conf one; /* the server alone, one try */
	enum step step;
	struct up_req *req;
	int64_t next; /* loop ms of the next probe; 0: none */
	unsigned backoff_ms;
	wire_dname_storage_t tld;
};

struct up_probe {
	struct loop *loop;
	struct capab *capab;
	struct up_client *client;
	struct target t[DT_UP_MAXNS];
	size_t n;
	struct loop_timer timer;
};

static void on_timer(struct loop_timer *tm);

struct up_probe *up_probe_new(struct loop *loop, struct capab *capab)
{
	struct up_probe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->client = up_client_new(loop);
	if (!p->client) {
		free(p);
		return NULL;
	}
	up_client_set_capab(p->client, capab, false);
	p->loop = loop;
	p->capab = capab;
	p->timer.cb = on_timer;
	p->timer.arg = p;
	return p;
}

static void cancel_all(struct up_probe *p)
{
	for (size_t i = 0; i < p->n; i++) {
		up_cancel(p->t[i].req);
		p->t[i].req = NULL;
		p->t[i].step = STEP_IDLE;
	}
}

void up_probe_free(struct up_probe *p)
{
	if (!p)
		return;
	cancel_all(p);
	loop_timer_stop(p->loop, &p->timer);
	up_client_free(p->client);
	free(p);
}

/* The timer at the earliest planned probe. */
static void arm(struct up_probe *p)
{
	int64_t first = 0, now = loop_now_ms(p->loop);

	for (size_t i = 0; i < p->n; i++) {
		const struct target *t = &p->t[i];

		if (t->step == STEP_IDLE && t->next &&
		    (!first || t->next < first))
			first = t->next;
	}
	loop_timer_stop(p->loop, &p->timer);
	if (first)
		loop_timer_start(p->loop, &p->timer,
				 first > now ? first - now : 0);
}

/* --- after a probe: when the next --- */

static bool view_at(struct up_probe *p, size_t idx, struct capab_view *ret)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(p->capab, v, DT_UP_MAXNS);

	if (idx >= n)
		return false;
	*ret = v[idx];
	return true;
}

static bool all_down(struct up_probe *p)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = capab_list(p->capab, v, DT_UP_MAXNS);

	for (size_t i = 0; i < n; i++)
		if (v[i].alive != CAPAB_NO)
			return false;
	return n > 0;
}

static void plan(struct target *t)
{
	struct up_probe *p = t->p;
	struct capab_view v;
	int64_t now = loop_now_ms(p->loop);

	if (!view_at(p, t->idx, &v) || v.dnssec == CAPAB_YES) {
		/* The back-off is kept (reset only with the servers): a
		 * server that turns "no" again is probed no sooner, so an
		 * on-path party flipping its behaviour flips the judgement
		 * back ever more rarely, at most every 5 min. */
		t->next = 0;
		return;
	}
	if (v.alive == CAPAB_NO && all_down(p)) {
		t->next = now + DT_UP_PROBE_DOWN_MS;
		return;
	}
	t->next = now + t->backoff_ms;
	t->backoff_ms = t->backoff_ms * 2 > DT_UP_PROBE_BACKOFF_MAX_MS
				? DT_UP_PROBE_BACKOFF_MAX_MS
				: t->backoff_ms * 2;
}

static void finish(struct target *t)
{
	capab_observe(t->p->capab, &t->one.ns[0], CAPAB_PROBED);
	t->step = STEP_IDLE;
	t->req = NULL;
	plan(t);
	arm(t->p);
}

/* --- the steps --- */

static void on_answer(void *arg, int err, const struct up_answer *ans,
		      int last_rcode);

static void ask(struct target *t, enum step step, const uint8_t *name,
		uint16_t type)
{
	t->step = step;
	t->req = up_query(t->p->client, name, type, WIRE_CLASS_IN, &t->one,
			  on_answer, t);
	if (!t->req)
		finish(t);
}

static void ask_random(struct target *t)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t rnd[8], name[1 + 2 * sizeof(rnd) + 1 + 1];

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		finish(t);
		return;
	}
	name[0] = 1 + 2 * sizeof(rnd);
	name[1] = 'x';
	for (size_t i = 0; i < sizeof(rnd); i++) {
		name[2 + 2 * i] = (uint8_t)hex[rnd[i] >> 4];
		name[3 + 2 * i] = (uint8_t)hex[rnd[i] & 15];
	}
	name[sizeof(name) - 1] = 0;
	ask(t, STEP_NXD, name, WIRE_TYPE_A);
}

/* Whether the random name, which does not exist, was answered with
 * records: a captive portal, or a resolver that rewrites NXDOMAIN. */
static bool answered(const struct up_answer *ans)
{
	return ans->len >= DT_MSG_HDRLEN && (ans->msg[3] & 0xF) == 0 &&
	       wire_get16(ans->msg + 6) > 0;
}

/* The first address (A or AAAA) of the answer section, as text in out
 * (INET6_ADDRSTRLEN octets); empty when there is none. */
static void answer_addr(const struct up_answer *ans, char *out)
{
	int err;
	struct wire_msg *m = wire_msg_parse(ans->msg, ans->len, 0, &err);

	out[0] = '\0';
	for (size_t i = 0; m && !out[0] && i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if ((rr->type == WIRE_TYPE_A && rr->rdlen == 4) ||
		    (rr->type == WIRE_TYPE_AAAA && rr->rdlen == 16))
			inet_ntop(rr->type == WIRE_TYPE_A ? AF_INET : AF_INET6,
				  rr->rdata, out, INET6_ADDRSTRLEN);
	}
	wire_msg_free(m);
}

/* The NXDOMAIN step: a name that does not exist answered with records
 * is a captive portal (capab's "no"), a real NXDOMAIN clears it. */
static void nxd_result(struct target *t, const struct up_answer *ans)
{
	char addr[INET6_ADDRSTRLEN];

	if (!answered(ans)) {
		capab_observe(t->p->capab, &t->one.ns[0], CAPAB_NXD_OK);
		return;
	}
	answer_addr(ans, addr);
	capab_portal(t->p->capab, &t->one.ns[0], addr);
}

static bool one_label(const uint8_t *name)
{
	return name[0] > 0 && name[1 + name[0]] == 0;
}

/* A top-level name from the NSEC records of an NXDOMAIN under the root:
 * the owner or the next name of a covering NSEC. */
static bool tld_from(const struct up_answer *ans, uint8_t *ret)
{
	int err;
	bool found = false;
	struct wire_msg *m = wire_msg_parse(ans->msg, ans->len, 0, &err);

	for (size_t i = 0; m && !found && i < m->count[WIRE_SEC_AUTHORITY];
	     i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (rr->type != WIRE_TYPE_NSEC)
			continue;
		if (one_label(rr->owner)) {
			wire_dname_copy(ret, rr->owner);
			found = true;
		} else if (wire_dname_check(rr->rdata, rr->rdata + rr->rdlen) >
				   0 &&
			   one_label(rr->rdata)) {
			wire_dname_copy(ret, rr->rdata);
			found = true;
		}
	}
	wire_msg_free(m);
	return found;
}

/* Whether a NOERROR response holds a DS RRset in its answer or a
 * denial (NSEC or NSEC3) in its authority section: a resolver that
 * strips DNSSEC records answers a zone's DS with neither. */
static bool ds_or_denial(const struct up_answer *ans)
{
	int err;
	bool found = false;
	struct wire_msg *m = wire_msg_parse(ans->msg, ans->len, 0, &err);

	for (size_t i = 0; m && !found && i < m->count[WIRE_SEC_ANSWER]; i++)
		found = m->sec[WIRE_SEC_ANSWER][i].type == WIRE_TYPE_DS;
	for (size_t i = 0; m && !found && i < m->count[WIRE_SEC_AUTHORITY];
	     i++) {
		uint16_t type = m->sec[WIRE_SEC_AUTHORITY][i].type;
		found = type == WIRE_TYPE_NSEC || type == WIRE_TYPE_NSEC3;
	}
	wire_msg_free(m);
	return found;
}

static void ds_result(struct target *t, int err, const struct up_answer *ans,
		      int last_rcode)
{
	struct capab *c = t->p->capab;
	const struct up_server *s = &t->one.ns[0];
	uint16_t rcode = ans && ans->len >= DT_MSG_HDRLEN
				 ? (uint16_t)(ans->msg[3] & 0xF)
				 : 0;

	if (!err && rcode == WIRE_RCODE_NXDOMAIN)
		capab_observe(c, s, CAPAB_DS_NXDOMAIN);
	else if (!err && !ds_or_denial(ans))
		capab_observe(c, s, CAPAB_DS_EMPTY);
	else if (!err)
		capab_observe(c, s, CAPAB_DS_OK);
	else if (last_rcode == WIRE_RCODE_SERVFAIL)
		capab_observe(c, s, CAPAB_DS_SERVFAIL);
	else if (last_rcode == WIRE_RCODE_REFUSED ||
		 last_rcode == WIRE_RCODE_NOTIMP)
		capab_observe(c, s, CAPAB_DS_REFUSED);
}

static void on_answer(void *arg, int err, const struct up_answer *ans,
		      int last_rcode)
{
	struct target *t = arg;

	t->req = NULL;
	switch (t->step) {
	case STEP_DNSKEY:
		/* Without EDNS nothing more can be learnt: each probe of a
		 * server that refuses EDNS costs it one FORMERR. */
		if (err || ans->no_edns)
			break;
		ask_random(t);
		return;
	case STEP_NXD:
		if (!err)
			nxd_result(t, ans);
		if (err || !tld_from(ans, t->tld))
			break;
		ask(t, STEP_DS, t->tld, WIRE_TYPE_DS);
		return;
	case STEP_DS: ds_result(t, err, ans, last_rcode); break;
	case STEP_IDLE: break;
	}
	finish(t);
}

static void start(struct target *t)
{
	static const uint8_t root[1] = {0};

	t->next = 0;
	ask(t, STEP_DNSKEY, root, WIRE_TYPE_DNSKEY);
}

static void on_timer(struct loop_timer *tm)
{
	struct up_probe *p = tm->arg;
	int64_t now = loop_now_ms(p->loop);

	for (size_t i = 0; i < p->n; i++) {
		struct target *t = &p->t[i];

		if (t->step == STEP_IDLE && t->next && t->next <= now)
			start(t);
	}
	arm(p);
}

void up_probe_set_conf(struct up_probe *p, const struct up_conf *conf)
{
	unsigned timeout =
		conf->timeout_ms ? conf->timeout_ms : DT_UP_TIMEOUT_DEFAULT_MS;

	cancel_all(p);
	if (timeout > DT_UP_PROBE_TIMEOUT_MS)
		timeout = DT_UP_PROBE_TIMEOUT_MS;
	p->n = conf->nns < DT_UP_MAXNS ? conf->nns : DT_UP_MAXNS;
	for (size_t i = 0; i < p->n; i++) {
		struct target *t = &p->t[i];

		memset(t, 0, sizeof(*t));
		t->p = p;
		t->idx = i;
		t->one.ns[0] = conf->ns[i];
		memcpy(t->one.tls_name[0], conf->tls_name[i],
		       sizeof(t->one.tls_name[0]));
		t->one.nns = 1;
		t->one.timeout_ms = timeout;
		t->one.attempts = 1;
		t->backoff_ms = DT_UP_PROBE_BACKOFF_MIN_MS;
		t->next = loop_now_ms(p->loop);
	}
	arm(p);
}

int up_probe_set_tls_ca(struct up_probe *p, const char *path)
{
	return up_client_set_tls_ca(p->client, path);
}

void up_probe_kick(struct up_probe *p)
{
	int64_t now = loop_now_ms(p->loop);

	for (size_t i = 0; i < p->n; i++) {
		struct target *t = &p->t[i];
		struct capab_view v;

		if (t->step != STEP_IDLE || t->next || !view_at(p, i, &v) ||
		    v.dnssec == CAPAB_YES)
			continue;
		t->next = now + t->backoff_ms;
	}
	arm(p);
}
