/* SPDX-License-Identifier: MIT */
/*
 * The table: one entry per resolv.conf server, each property the last
 * observation of it, the verdict computed from them. Kept small (at most
 * DT_UP_MAXNS servers), so every call walks it under the one mutex.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upstream/capab.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* The largest response a server must deliver over UDP without EDNS. */
#define PLAIN_UDP_MAX 512

struct entry {
	struct up_server server;
	enum capab_tri edns, rrsig, ds, tcp, big;
	bool ever_answered;
	bool ad_strip;	       /* the last RRSIG_STRIPPED had AD=1 */
	bool edns_ignored;     /* edns NO: answered without OPT */
	bool probed;	       /* CAPAB_PROBED seen */
	bool do_cleared;       /* the last key answer had DO=0 */
	bool portal;	       /* CAPAB_NXD_ANSWERED since the last probe
				  that found a real NXDOMAIN */
	char portal_addr[INET6_ADDRSTRLEN]; /* what it answered with */
	enum capab_tri rootkey; /* the root's DNSKEY RRset answered */
	bool rootkey_nx;       /* rootkey NO: NXDOMAIN (else no data) */
	bool held;	       /* judged "no": stays so until a probe */
	const char *held_reason; /* finds nothing wrong; the first reason */
	enum capab_obs ds_obs; /* the last DS failure */
	unsigned fails;	       /* tries unanswered since the last answer */
	unsigned truncs;       /* TC=1 since the last big UDP answer */
	unsigned formerrs;     /* FORMERR to EDNS since the last OPT seen */
};

struct capab {
	pthread_mutex_t mu;
	capab_event_fn *cb;
	void *arg;
	struct entry e[DT_UP_MAXNS];
	size_t n;
};

const char *capab_tri_name(enum capab_tri t)
{
	switch (t) {
	case CAPAB_YES: return "yes";
	case CAPAB_NO: return "no";
	default: return "unknown";
	}
}

struct capab *capab_new(capab_event_fn *cb, void *arg)
{
	struct capab *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	pthread_mutex_init(&c->mu, NULL);
	c->cb = cb;
	c->arg = arg;
	return c;
}

void capab_free(struct capab *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->mu);
	free(c);
}

void capab_set_servers(struct capab *c, const struct up_conf *conf)
{
	pthread_mutex_lock(&c->mu);
	memset(c->e, 0, sizeof(c->e));
	c->n = conf->nns < DT_UP_MAXNS ? conf->nns : DT_UP_MAXNS;
	for (size_t i = 0; i < c->n; i++)
		c->e[i].server = conf->ns[i];
	pthread_mutex_unlock(&c->mu);
}

static struct entry *find(struct capab *c, const struct up_server *s)
{
	for (size_t i = 0; i < c->n; i++)
		if (up_server_equal(&c->e[i].server, s))
			return &c->e[i];
	return NULL;
}

/* --- the verdict --- */

/* Unanswered tries before a server that answered before is unreachable
 * (one lost datagram is not an outage); one for a server never heard. */
#define FAILS_UNREACHABLE 2
/* FORMERRs to EDNS in a row that turn EDNS off for a server that has
 * answered with EDNS before (one stray or forged FORMERR does not). */
#define FORMERRS_EDNS_OFF 2
/* Truncated responses, without a UDP response above 512 octets since,
 * after which a server is asked over TCP at once. */
#define TRUNCS_TCP_FIRST 2

static enum capab_tri alive(const struct entry *e)
{
	if (e->fails >= FAILS_UNREACHABLE ||
	    (e->fails > 0 && !e->ever_answered))
		return CAPAB_NO;
	return e->ever_answered ? CAPAB_YES : CAPAB_UNKNOWN;
}

static const char *ds_reason(enum capab_obs obs)
{
	switch (obs) {
	case CAPAB_DS_NXDOMAIN: return "NXDOMAIN to DS";
	case CAPAB_DS_REFUSED: return "REFUSED to DS";
	case CAPAB_DS_EMPTY: return "DS without data or denial";
	default: return "SERVFAIL to DS";
	}
}

/* A captive portal's reason; the view adds the address (reason_text). */
static const char portal_reason[] = "captive portal (answers rewritten)";

/* The order decides which reason shows when several apply: silence
 * first (it says nothing of DNSSEC), then the cause nearest the wire.
 * A portal comes before the content of answers: what it rewrites is
 * every answer, whatever the keys show. */
static enum capab_tri judge_now(const struct entry *e, const char **reason)
{
	if (alive(e) == CAPAB_NO) {
		*reason = "unreachable";
		return CAPAB_UNKNOWN;
	}
	if (e->edns == CAPAB_NO) {
		*reason = e->edns_ignored ? "ignores EDNS" : "FORMERR to EDNS";
		return CAPAB_NO;
	}
	if (e->tcp == CAPAB_NO && e->big != CAPAB_YES && e->truncs > 0) {
		*reason = "truncates at 512 and refuses TCP";
		return CAPAB_NO;
	}
	if (e->portal) {
		*reason = portal_reason;
		return CAPAB_NO;
	}
	if (e->rootkey == CAPAB_NO) {
		*reason = e->rootkey_nx ? "NXDOMAIN to the root DNSKEY"
					: "no data to the root DNSKEY";
		return CAPAB_NO;
	}
	if (e->rrsig == CAPAB_NO) {
		*reason = e->ad_strip ? "sets AD without RRSIG"
				      : "strips RRSIG with DO=1";
		return CAPAB_NO;
	}
	if (e->do_cleared) {
		*reason = "clears DO in replies";
		return CAPAB_NO;
	}
	if (e->ds == CAPAB_NO) {
		*reason = ds_reason(e->ds_obs);
		return CAPAB_NO;
	}
	if (e->rrsig == CAPAB_YES) {
		*reason = "returns RRSIG with DO=1";
		return CAPAB_YES;
	}
	*reason = e->ever_answered ? "no DNSSEC answer seen yet"
				   : "not asked yet";
	return CAPAB_UNKNOWN;
}

/* judge_now, and a held "no" kept (its first reason) while the server
 * answers: the hysteresis rule of capab.h. */
static enum capab_tri judge(const struct entry *e, const char **reason)
{
	enum capab_tri v = judge_now(e, reason);

	if (e->held && v != CAPAB_NO && alive(e) != CAPAB_NO) {
		*reason = e->held_reason;
		return CAPAB_NO;
	}
	return v;
}

/* Whether what makes e "no" is the DNSSEC content of its answers (what
 * an on-path party rewrites at will), not the transport (EDNS, TCP),
 * whose own counts decide. */
static bool content_fault(const struct entry *e)
{
	return e->portal || e->rootkey == CAPAB_NO || e->do_cleared ||
	       e->rrsig == CAPAB_NO || e->ds == CAPAB_NO;
}

/* After observations: a "no" for the content of answers is held; a
 * probe through all its steps that finds nothing wrong ends the hold. */
static void hold(struct entry *e, bool probed)
{
	const char *reason;
	enum capab_tri v = judge_now(e, &reason);

	if (v == CAPAB_NO && !e->held && content_fault(e)) {
		e->held = true;
		e->held_reason = reason;
	} else if (v == CAPAB_YES && probed) {
		e->held = false;
	}
}

static enum capab_tri verdict(const struct entry *e)
{
	const char *reason;

	return judge(e, &reason);
}

static bool all_unreachable(const struct capab *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (alive(&c->e[i]) != CAPAB_NO)
			return false;
	return c->n > 0;
}

/* The servers judged yes, judged no, and judged yes with the probe
 * through (the mutex held): what capab_mode and capab_settled read. */
struct counts {
	size_t yes, no, probed_yes;
};

static struct counts count(const struct capab *c)
{
	struct counts k = {0, 0, 0};

	for (size_t i = 0; i < c->n; i++) {
		enum capab_tri v = verdict(&c->e[i]);

		k.yes += v == CAPAB_YES;
		k.no += v == CAPAB_NO;
		k.probed_yes += v == CAPAB_YES && c->e[i].probed;
	}
	return k;
}

/* capab_settled under the mutex. */
static bool settled(const struct capab *c)
{
	struct counts k = count(c);

	return k.probed_yes || (!k.yes && k.no);
}

/* --- observations --- */

static void apply(struct entry *e, enum capab_obs obs)
{
	switch (obs) {
	case CAPAB_ANSWER:
		e->ever_answered = true;
		e->fails = 0;
		break;
	case CAPAB_UNREACHABLE: e->fails++; break;
	case CAPAB_EDNS_OK:
		e->edns = CAPAB_YES;
		e->formerrs = 0;
		break;
	case CAPAB_EDNS_FORMERR:
	case CAPAB_EDNS_IGNORED:
		if (++e->formerrs < FORMERRS_EDNS_OFF && e->edns == CAPAB_YES)
			break;
		e->edns = CAPAB_NO;
		e->edns_ignored = obs == CAPAB_EDNS_IGNORED;
		break;
	case CAPAB_RRSIG_OK:
		e->rrsig = CAPAB_YES;
		e->do_cleared = false; /* RRSIGs came: DO was honoured */
		break;
	case CAPAB_RRSIG_STRIPPED:
	case CAPAB_AD_STRIPPED:
		e->rrsig = CAPAB_NO;
		e->ad_strip = obs == CAPAB_AD_STRIPPED;
		break;
	case CAPAB_DS_OK: e->ds = CAPAB_YES; break;
	case CAPAB_DS_SERVFAIL:
	case CAPAB_DS_NXDOMAIN:
	case CAPAB_DS_REFUSED:
	case CAPAB_DS_EMPTY:
		e->ds = CAPAB_NO;
		e->ds_obs = obs;
		break;
	case CAPAB_TRUNCATED: e->truncs++; break;
	case CAPAB_BIG_OK:
		e->big = CAPAB_YES;
		e->truncs = 0;
		break;
	case CAPAB_TCP_OK: e->tcp = CAPAB_YES; break;
	case CAPAB_TCP_FAIL: e->tcp = CAPAB_NO; break;
	case CAPAB_PROBED: e->probed = true; break;
	case CAPAB_ROOTKEY_NODATA:
	case CAPAB_ROOTKEY_NXDOMAIN:
		e->rootkey = CAPAB_NO;
		e->rootkey_nx = obs == CAPAB_ROOTKEY_NXDOMAIN;
		break;
	case CAPAB_DO_CLEARED: e->do_cleared = true; break;
	case CAPAB_NXD_ANSWERED: e->portal = true; break;
	case CAPAB_NXD_OK:
		e->portal = false;
		e->portal_addr[0] = '\0';
		break;
	case CAPAB_ROOTKEY_OK: e->rootkey = CAPAB_YES; break;
	case CAPAB_OBS_COUNT: break;
	}
}

/* Applies observations to s under the mutex (addr, when not NULL, the
 * address a portal answered with), then tells the callback. */
static void observe_addr(struct capab *c, const struct up_server *s,
			 const enum capab_obs *obs, size_t n, const char *addr)
{
	unsigned ev = 0;

	pthread_mutex_lock(&c->mu);
	struct entry *e = find(c, s);
	if (e && addr)
		snprintf(e->portal_addr, sizeof(e->portal_addr), "%s", addr);
	if (e) {
		enum capab_tri before = verdict(e);
		bool down = all_unreachable(c), was_settled = settled(c);
		bool was_portal = e->portal;

		bool probed = false;
		for (size_t i = 0; i < n; i++) {
			apply(e, obs[i]);
			probed |= obs[i] == CAPAB_PROBED;
		}
		hold(e, probed);
		if (verdict(e) != before)
			ev |= CAPAB_EV_VERDICT;
		if (e->portal && !was_portal)
			ev |= CAPAB_EV_PORTAL;
		if (!was_settled && settled(c))
			ev |= CAPAB_EV_SETTLED;
		if (down && !all_unreachable(c))
			ev |= CAPAB_EV_RECOVERED;
	}
	pthread_mutex_unlock(&c->mu);
	if (ev && c->cb)
		c->cb(c->arg, ev);
}

static void observe_many(struct capab *c, const struct up_server *s,
			 const enum capab_obs *obs, size_t n)
{
	observe_addr(c, s, obs, n, NULL);
}

void capab_observe(struct capab *c, const struct up_server *s,
		   enum capab_obs obs)
{
	observe_many(c, s, &obs, 1);
}

void capab_portal(struct capab *c, const struct up_server *s, const char *addr)
{
	enum capab_obs obs = CAPAB_NXD_ANSWERED;

	observe_addr(c, s, &obs, 1, addr ? addr : "");
}

/* Whether the answer section holds qtype's RRset at the question's name,
 * and whether an RRSIG covering it came along. */
static void rrset_signed(const struct wire_msg *m, bool *ret_set, bool *ret_sig)
{
	*ret_set = *ret_sig = false;
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (!wire_dname_equal(rr->owner, m->qname))
			continue;
		if (rr->type == m->qtype)
			*ret_set = true;
		else if (rr->type == WIRE_TYPE_RRSIG && rr->rdlen >= 2 &&
			 wire_get16(rr->rdata) == m->qtype)
			*ret_sig = true;
	}
}

static bool edns_known(struct capab *c, const struct up_server *s)
{
	pthread_mutex_lock(&c->mu);
	struct entry *e = find(c, s);
	bool known = !e || e->edns == CAPAB_YES;
	pthread_mutex_unlock(&c->mu);
	return known;
}

void capab_learn_response(struct capab *c, const struct up_server *s,
			  uint16_t qtype, const uint8_t *msg, size_t len,
			  bool edns_sent, bool tcp)
{
	enum capab_obs obs[7];
	size_t n = 0;
	int err;
	struct wire_msg *m = NULL;
	bool keys = qtype == WIRE_TYPE_DNSKEY || qtype == WIRE_TYPE_DS;

	/* Parsed again only when it can teach something: most responses
	 * come from servers whose EDNS is known, to other questions. */
	if (edns_sent && (keys || !edns_known(c, s)))
		m = wire_msg_parse(msg, len, WIRE_PARSE_TRUNC_OK, &err);

	obs[n++] = CAPAB_ANSWER;
	if (tcp)
		obs[n++] = CAPAB_TCP_OK;
	else if (len > PLAIN_UDP_MAX)
		obs[n++] = CAPAB_BIG_OK;
	/* A bare answer counts against EDNS only for the keys: a portal or
	 * a router makes up answers to other questions without OPT while
	 * it forwards the rest with it. */
	if (m && edns_sent && m->edns.present)
		obs[n++] = CAPAB_EDNS_OK;
	else if (m && edns_sent && keys)
		obs[n++] = CAPAB_EDNS_IGNORED;
	if (m && edns_sent && m->edns.present && m->has_question &&
	    m->qtype == qtype && keys && qtype == WIRE_TYPE_DNSKEY &&
	    m->qname[0] == 0 && m->rcode == WIRE_RCODE_NXDOMAIN)
		obs[n++] = CAPAB_ROOTKEY_NXDOMAIN;
	if (m && edns_sent && m->edns.present && m->has_question &&
	    m->qtype == qtype && m->rcode == WIRE_RCODE_NOERROR && keys) {
		bool set, sig;

		rrset_signed(m, &set, &sig);
		if (set && qtype == WIRE_TYPE_DNSKEY && m->qname[0] == 0)
			obs[n++] = CAPAB_ROOTKEY_OK;
		if (set && sig)
			obs[n++] = CAPAB_RRSIG_OK;
		else if (set)
			obs[n++] = (m->hdr.flags & WIRE_FLAG_AD)
					   ? CAPAB_AD_STRIPPED
					   : CAPAB_RRSIG_STRIPPED;
		else if (qtype == WIRE_TYPE_DNSKEY && m->qname[0] == 0)
			obs[n++] = CAPAB_ROOTKEY_NODATA;
	}
	/* After RRSIG_OK, which clears it. DO is checked where the probe
	 * asks (the root's DNSKEY, a top-level DS): a router's own answers
	 * for its local names may come without it and say nothing of what
	 * it forwards. */
	if (m && edns_sent && m->edns.present && m->has_question &&
	    m->qtype == qtype && keys && wire_dname_labels(m->qname) <= 1 &&
	    !(m->edns.flags & WIRE_EDNS_DO))
		obs[n++] = CAPAB_DO_CLEARED;
	wire_msg_free(m);
	observe_many(c, s, obs, n);
}

bool capab_edns_off(struct capab *c, const struct up_server *s)
{
	pthread_mutex_lock(&c->mu);
	struct entry *e = find(c, s);
	bool off = e && e->edns == CAPAB_NO;
	pthread_mutex_unlock(&c->mu);
	return off;
}

static bool tcp_first(const struct entry *e)
{
	return e->truncs >= TRUNCS_TCP_FIRST && e->big != CAPAB_YES &&
	       e->tcp == CAPAB_YES;
}

bool capab_tcp_first(struct capab *c, const struct up_server *s)
{
	pthread_mutex_lock(&c->mu);
	struct entry *e = find(c, s);
	bool first = e && tcp_first(e);
	pthread_mutex_unlock(&c->mu);
	return first;
}

/* --- reading the table --- */

/* The reason as a view shows it: a portal's with its address. */
static void reason_text(const struct entry *e, const char *reason, char *out,
			size_t len)
{
	if (reason == portal_reason && e->portal_addr[0])
		snprintf(out, len, "captive portal (answers rewritten to %s)",
			 e->portal_addr);
	else
		snprintf(out, len, "%s", reason);
}

static void view_of(const struct entry *e, struct capab_view *v)
{
	const char *reason;

	v->server = e->server;
	v->alive = alive(e);
	v->edns = e->edns;
	v->rrsig = e->rrsig;
	v->ds = e->ds;
	v->tcp = e->tcp;
	v->big = e->big;
	v->edns_off = e->edns == CAPAB_NO;
	v->tcp_first = tcp_first(e);
	v->probed = e->probed;
	v->portal = e->portal;
	v->held = e->held && judge_now(e, &reason) != CAPAB_NO &&
		  alive(e) != CAPAB_NO;
	v->dnssec = judge(e, &reason);
	reason_text(e, reason, v->reason, sizeof(v->reason));
}

size_t capab_list(struct capab *c, struct capab_view *out, size_t cap)
{
	size_t n;

	pthread_mutex_lock(&c->mu);
	n = c->n < cap ? c->n : cap;
	for (size_t i = 0; i < n; i++)
		view_of(&c->e[i], &out[i]);
	pthread_mutex_unlock(&c->mu);
	return n;
}

enum capab_mode capab_mode(struct capab *c, const char **ret_reason)
{
	const char *reason = "no upstream has a verdict yet";

	pthread_mutex_lock(&c->mu);
	struct counts k = count(c);
	pthread_mutex_unlock(&c->mu);
	if (k.yes)
		reason = "an upstream can do DNSSEC";
	else if (k.no)
		reason = "no upstream can do DNSSEC";
	if (ret_reason)
		*ret_reason = reason;
	if (k.yes)
		return CAPAB_MODE_FORWARD;
	return k.no ? CAPAB_MODE_RECURSIVE : CAPAB_MODE_UNDECIDED;
}

bool capab_settled(struct capab *c)
{
	pthread_mutex_lock(&c->mu);
	bool s = settled(c);
	pthread_mutex_unlock(&c->mu);
	return s;
}
