/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/protocol.h"
#include "daemon/admin_ops.h"
#include "daemon/daemon.h"
#include "daemon/hotspot.h"
#include "resolver/resolver.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* Portal evidence: the last few failed A answers, and how long one
 * suspicion lasts without new evidence. */
#define PORTAL_SEEN	 16
#define PORTAL_WINDOW_MS (120 * 1000)
/* Names whose failed answers carry one address (or came back without
 * the keys to check them) before a portal is suspected: one forged name
 * is an attack or a broken zone, three look like a portal. */
#define PORTAL_NAMES 3

#define NO_GROUP ((gid_t)-1)

struct portal_seen {
	uint64_t name; /* hash of the name */
	uint32_t addr; /* the A answer, network order; 0:
			  no keys could be had */
	int64_t at_ms;
};

struct hotspot {
	int64_t until_ms;	 /* atomic: monotonic ms of its end,
				    0 when off */
	int64_t until_wall;	 /* atomic: the same, wall clock s */
	gid_t group;		 /* atomic: hotspot-group, or NO_GROUP */
	struct loop_timer timer; /* the main loop's: the end */
	pthread_mutex_t mu;	 /* for the portal evidence: */
	struct portal_seen seen[PORTAL_SEEN];
	size_t next;
	int64_t suspected_ms; /* last evidence; 0: none */
	char reason[160];
};

/* --- the sign-on --- */

/* Drops what may have come from the portal: every cache entry not
 * validated as secure. */
static size_t flush_unproven(struct daemon *d)
{
	return source_drop_unproven(d->cache);
}

static void end(struct daemon *d, const char *why)
{
	struct hotspot *h = d->hotspot;

	if (!__atomic_exchange_n(&h->until_ms, 0, __ATOMIC_ACQ_REL))
		return;
	__atomic_store_n(&h->until_wall, 0, __ATOMIC_RELAXED);
	size_t n = flush_unproven(d);
	log_notice("hotspot sign-on ended (%s): every answer is validated "
		   "again; %zu cache entries not validated as secure dropped",
		   why, n);
}

static void timer_fired(struct loop_timer *t)
{
	struct daemon *d = t->arg;
	int64_t until =
		__atomic_load_n(&d->hotspot->until_ms, __ATOMIC_ACQUIRE);

	if (!until)
		return;
	if (loop_now_ms(d->loop) < until) {
		loop_timer_start(d->loop, t, until - loop_now_ms(d->loop));
		return;
	}
	end(d, "time is up");
}

/* On the main loop: (re)arms the end. */
static void arm(void *arg)
{
	struct daemon *d = arg;
	struct hotspot *h = d->hotspot;
	int64_t until = __atomic_load_n(&h->until_ms, __ATOMIC_ACQUIRE);

	if (until)
		loop_timer_start(d->loop, &h->timer,
				 until > loop_now_ms(d->loop)
					 ? until - loop_now_ms(d->loop)
					 : 0);
}

static void start(struct worker *w, unsigned minutes)
{
	struct daemon *d = w->d;
	struct hotspot *h = d->hotspot;
	int64_t ms = (int64_t)minutes * 60 * 1000;

	__atomic_store_n(&h->until_wall, worker_wallclock(w) + ms / 1000,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&h->until_ms, loop_now_ms(w->loop) + ms,
			 __ATOMIC_RELEASE);
	/* The failures cached before would outlive the start by
	 * bogus-ttl, and a cached proof that the portal's name does not
	 * exist would keep it from being asked. */
	size_t n = source_drop_unproven_negative(d->cache);
	if (loop_post(d->loop, arm, d) < 0)
		log_warn("hotspot: the end cannot be timed; it ends at the "
			 "next question after it");
	log_notice("hotspot sign-on for %u minute%s: answers that cannot "
		   "be proven and are not shown to be in a signed zone are "
		   "returned unvalidated; %zu cache entries not validated as "
		   "secure or negative dropped",
		   minutes, minutes == 1 ? "" : "s", n);
}

uint32_t hotspot_left(struct worker *w)
{
	struct hotspot *h = w->d->hotspot;
	int64_t until = h ? __atomic_load_n(&h->until_ms, __ATOMIC_ACQUIRE) : 0;
	int64_t now = loop_now_ms(w->loop);

	if (!until || now >= until)
		return 0; /* the timer ends it, and flushes */
	return (uint32_t)((until - now + 999) / 1000);
}

/* --- who may --- */

void hotspot_set_group(struct daemon *d, const char *group)
{
	gid_t gid = NO_GROUP;

	if (group && group[0]) {
		struct group gr, *res = NULL;
		char buf[4096];
		int e = getgrnam_r(group, &gr, buf, sizeof(buf), &res);
		if (e || !res)
			log_warn("hotspot-group %s: %s; only root and the "
				 "daemon's user may run dnstrust hotspot",
				 group, e ? strerror(e) : "no such group");
		else
			gid = res->gr_gid;
	}
	__atomic_store_n(&d->hotspot->group, gid, __ATOMIC_RELAXED);
}

bool hotspot_peer_allowed(struct daemon *d, uid_t uid, gid_t gid)
{
	gid_t g = d->hotspot ? __atomic_load_n(&d->hotspot->group,
					       __ATOMIC_RELAXED)
			     : NO_GROUP;

	return uid == 0 || uid == d->admin_uid || (g != NO_GROUP && gid == g);
}

/* --- the administrative names --- */

/* Whether q is hotspot.dnstrust. (labels 0) or one label below it. */
static bool is_hotspot(const struct qinfo *q, int below)
{
	uint8_t name[DT_NAME_MAXLEN];
	const char *text = DT_PROTO_ADMIN_HOTSPOT;

	return wire_dname_from_str(text, strlen(text), NULL, name) > 0 &&
	       wire_dname_labels(q->qname) == wire_dname_labels(name) + below &&
	       wire_dname_is_subdomain(q->qname, name);
}

/* The first label of q as text. */
static void first_label(const struct qinfo *q, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", q->qname[0], (const char *)q->qname + 1);
}

bool hotspot_privileged(const struct qinfo *q)
{
	return is_hotspot(q, 1);
}

static void time_text(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void hotspot_status(struct worker *w, char *hs, size_t hslen, char *portal,
		    size_t portallen)
{
	struct hotspot *h = w->d->hotspot;
	uint32_t left = hotspot_left(w);
	char until[32];

	if (!left && __atomic_load_n(&h->until_ms, __ATOMIC_ACQUIRE))
		end(w->d, "time is up"); /* the timer is late */

	if (left) {
		time_text(__atomic_load_n(&h->until_wall, __ATOMIC_RELAXED),
			  until, sizeof(until));
		snprintf(hs, hslen, "hotspot=until-%s left=%u", until,
			 (unsigned)left);
	} else {
		snprintf(hs, hslen, "hotspot=off");
	}
	pthread_mutex_lock(&h->mu);
	if (h->suspected_ms &&
	    loop_now_ms(w->loop) - h->suspected_ms < PORTAL_WINDOW_MS)
		snprintf(portal, portallen, "portal=suspected reason=%s",
			 h->reason);
	else
		snprintf(portal, portallen, "portal=none");
	pthread_mutex_unlock(&h->mu);
}

bool hotspot_answer(struct worker *w, const struct qinfo *q,
		    struct wire_builder *b, uint16_t *ret_rcode)
{
	char label[64], hs[128], portal[256], *end_p;

	if (!is_hotspot(q, 0) && !is_hotspot(q, 1))
		return false;
	*ret_rcode = WIRE_RCODE_NOERROR;
	if (is_hotspot(q, 1)) {
		first_label(q, label, sizeof(label));
		unsigned long m = strtoul(label, &end_p, 10);
		if (strcmp(label, "done") == 0) {
			end(w->d, "dnstrust hotspot --done");
		} else if (*end_p || end_p == label || m < 1 ||
			   m > DT_DMN_HOTSPOT_MAX_MIN) {
			admin_txt_line(b, q,
				       "error=minutes must be 1 to %d, or done",
				       DT_DMN_HOTSPOT_MAX_MIN);
			*ret_rcode = WIRE_RCODE_REFUSED;
			return true;
		} else {
			start(w, (unsigned)m);
		}
	}
	hotspot_status(w, hs, sizeof(hs), portal, sizeof(portal));
	admin_txt_line(b, q, "%s", hs);
	admin_txt_line(b, q, "%s", portal);
	return true;
}

/* --- portal detection --- */

static uint64_t name_hash(const uint8_t *name)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	size_t len = wire_dname_len(name);

	for (size_t i = 0; i < len; i++) {
		uint8_t c = name[i];
		h = (h ^ (c >= 'A' && c <= 'Z' ? c + 32u : c)) *
		    1099511628211ull;
	}
	return h;
}

/* The first A record of the answer section, network order; 0: none. */
static uint32_t first_a(const struct answer *a)
{
	const struct wire_msg *m = a->msg;
	uint32_t v;

	for (size_t i = 0; m && i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		if (rr->type == WIRE_TYPE_A && rr->rdlen == 4) {
			memcpy(&v, rr->rdata, 4);
			return v ? v : 1;
		}
	}
	return 0;
}

/* Names among the evidence with addr (0: those without keys), distinct
 * by their hash, seen since from. (h->mu held.) */
static size_t count_names(const struct hotspot *h, uint32_t addr, int64_t from)
{
	uint64_t names[PORTAL_SEEN];
	size_t n = 0;

	for (size_t i = 0; i < PORTAL_SEEN; i++) {
		const struct portal_seen *s = &h->seen[i];
		bool dup = false;
		if (!s->at_ms || s->at_ms < from || s->addr != addr)
			continue;
		for (size_t k = 0; k < n; k++)
			dup |= names[k] == s->name;
		if (!dup)
			names[n++] = s->name;
	}
	return n;
}

void hotspot_note(struct worker *w, const uint8_t *qname, uint16_t qtype,
		  const struct answer *a)
{
	struct hotspot *h = w->d->hotspot;
	uint32_t addr;
	bool nokeys;

	if (!h || qtype != WIRE_TYPE_A || a->unvalidated ||
	    (a->status != VAL_BOGUS && a->status != VAL_INDETERMINATE) ||
	    !(addr = first_a(a)))
		return;
	/* An A answer that came back while what validates it could not. */
	nokeys = a->status == VAL_INDETERMINATE && a->upstream_fail;
	int64_t now = loop_now_ms(w->loop);
	pthread_mutex_lock(&h->mu);
	struct portal_seen *s = &h->seen[h->next++ % PORTAL_SEEN];
	s->name = name_hash(qname);
	s->addr = nokeys ? 0 : addr;
	s->at_ms = now;
	size_t n = count_names(h, s->addr, now - PORTAL_WINDOW_MS);
	bool fresh =
		!h->suspected_ms || now - h->suspected_ms >= PORTAL_WINDOW_MS;
	if (n >= PORTAL_NAMES) {
		char ip[INET_ADDRSTRLEN] = "";
		inet_ntop(AF_INET, &addr, ip, sizeof(ip));
		if (nokeys)
			snprintf(h->reason, sizeof(h->reason),
				 "A answers for %zu names come back while the "
				 "keys to validate them cannot be had",
				 n);
		else
			snprintf(h->reason, sizeof(h->reason),
				 "bogus A answers for %zu names carry one "
				 "address, %s",
				 n, ip);
		h->suspected_ms = now;
	}
	char reason[sizeof(h->reason)];
	snprintf(reason, sizeof(reason), "%s", h->reason);
	pthread_mutex_unlock(&h->mu);
	if (n >= PORTAL_NAMES && fresh)
		log_notice("a captive portal is suspected: %s; to sign on, "
			   "dnstrust hotspot lets names not shown to be "
			   "signed through, unvalidated, for a few minutes",
			   reason);
}

/* --- life --- */

int hotspot_init(struct daemon *d)
{
	struct hotspot *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	pthread_mutex_init(&h->mu, NULL);
	h->group = NO_GROUP;
	h->timer.cb = timer_fired;
	h->timer.arg = d;
	d->hotspot = h;
	return 0;
}

void hotspot_free(struct daemon *d)
{
	struct hotspot *h = d->hotspot;

	if (!h)
		return;
	if (d->loop)
		loop_timer_stop(d->loop, &h->timer);
	pthread_mutex_destroy(&h->mu);
	free(h);
	d->hotspot = NULL;
}
