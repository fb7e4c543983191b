/* SPDX-License-Identifier: MIT */
/*
 * Administrative questions: class CH, type TXT, under dnstrust. (like
 * version.bind). version and status are for any local client (the Unix
 * socket and loopback: server.c refuses the others); flush and reload
 * only for root or the daemon's user on the Unix socket (SO_PEERCRED).
 * Over UDP an answer larger than the client's payload size is truncated.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cache/cache.h"
#include "common/protocol.h"
#include "daemon/admin.h"
#include "daemon/admin_ops.h"
#include "daemon/daemon.h"
#include "daemon/hotspot.h"
#include "policy/nta.h"
#include "daemon/stats.h"
#include "daemon/upstreams.h"
#include "policy/policy.h"
#include "policy/route.h"
#include "resolver/render.h"
#include "upstream/capab.h"
#include "upstream/transport.h"
#include "validator/anchor.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"
#include "wire/zone.h"

#ifndef DT_VERSION
#define DT_VERSION "0.1.0"
#endif

/* A TXT answer under construction: one character-string per line. */
struct txt {
	struct wire_builder b;
	const struct qinfo *q;
	bool cut;			/* a record did not fit */
};

__attribute__((format(printf, 2, 3))) static void line(struct txt *t,
						       const char *fmt, ...)
{
	uint8_t rdata[256];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf((char *)rdata + 1, sizeof(rdata) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > 255)
		n = 255;
	rdata[0] = (uint8_t)n;
	struct wire_rr rr = {
		.owner = t->q->qname,
		.type = WIRE_TYPE_TXT,
		.rclass = WIRE_CLASS_CH,
		.ttl = 0,
		.rdlen = (uint16_t)(n + 1),
		.rdata = rdata,
	};
	if (wire_build_rr(&t->b, WIRE_SEC_ANSWER, &rr) < 0)
		t->cut = true;
}

/* One TXT record holding text of any length, as consecutive
 * character-strings of at most 255 octets (readers concatenate them). */
static void long_line(struct txt *t, const char *text)
{
	uint8_t rdata[2048];
	size_t len = strlen(text), off = 0, w = 0;

	while (off < len && w + 256 <= sizeof(rdata)) {
		size_t n = len - off > 255 ? 255 : len - off;
		rdata[w] = (uint8_t)n;
		memcpy(rdata + w + 1, text + off, n);
		w += 1 + n;
		off += n;
	}
	struct wire_rr rr = {
		.owner = t->q->qname,
		.type = WIRE_TYPE_TXT,
		.rclass = WIRE_CLASS_CH,
		.rdlen = (uint16_t)w,
		.rdata = rdata,
	};
	if (wire_build_rr(&t->b, WIRE_SEC_ANSWER, &rr) < 0)
		t->cut = true;
}

static bool name_is(const struct qinfo *q, const char *text)
{
	uint8_t name[DT_NAME_MAXLEN];

	if (wire_dname_from_str(text, strlen(text), NULL, name) < 0)
		return false;
	return wire_dname_equal(q->qname, name);
}

static void status_anchors(struct txt *t, const struct dstate *st)
{
	size_t n = val_anchors_count(st->ta);

	for (size_t i = 0; i < n; i++) {
		const struct val_anchor_zone *az = val_anchors_get(st->ta, i);
		char zone[DT_NAME_TEXT_MAXLEN], tags[128] = "";
		size_t off = 0;
		for (size_t k = 0; k < az->nds && off < sizeof(tags) - 8; k++)
			off += (size_t)snprintf(tags + off, sizeof(tags) - off,
						" DS:%u/%u",
						wire_get16(az->ds[k].rdata),
						az->ds[k].rdata[2]);
		for (size_t k = 0; k < az->ndnskey && off < sizeof(tags) - 8;
		     k++)
			off += (size_t)snprintf(
				tags + off, sizeof(tags) - off, " DNSKEY:%u/%u",
				wire_keytag(az->dnskey[k].rdata,
					    az->dnskey[k].rdlen),
				az->dnskey[k].rdata[3]);
		wire_dname_to_str(az->zone, zone, sizeof(zone));
		line(t, "trust-anchor=%s%s", zone, tags);
	}
}

/* A negative trust anchor added by dnstrust nta add, in force: its end to
 * the second (UTC), as it was given. */
static void status_nta_rt(const struct cfg_nta *n, void *arg)
{
	struct txt *t = arg;
	char name[DT_NAME_TEXT_MAXLEN], end[32] = "no end";
	time_t tt = (time_t)n->until;
	struct tm tm;

	if (n->until && gmtime_r(&tt, &tm))
		strftime(end, sizeof(end), "%Y-%m-%dT%H:%M:%SZ", &tm);
	wire_dname_to_str(n->name, name, sizeof(name));
	line(t, "negative-trust-anchor=%s until=%s runtime active", name, end);
}

static void status_policy(struct txt *t, const struct cfg *c,
			  const struct nta_rt *rt, int64_t now)
{
	char name[DT_NAME_TEXT_MAXLEN], date[16];

	line(t, "mode=%s", c->mode == CFG_MODE_PERMISSIVE ? "permissive"
							  : "enforce");
	line(t, "insecure=%s", c->insecure_reject ? "reject" : "accept");
	for (size_t i = 0; i < c->nnta; i++) {
		const struct cfg_nta *n = &c->nta[i];
		wire_dname_to_str(n->name, name, sizeof(name));
		policy_date(n->until, date, sizeof(date));
		line(t, "negative-trust-anchor=%s until=%s %s", name, date,
		     n->until && now >= n->until ? "expired" : "active");
	}
	if (rt)
		nta_rt_foreach(rt, now, status_nta_rt, t);
	for (size_t i = 0; i < c->nrequire; i++) {
		wire_dname_to_str(c->require_secure[i], name, sizeof(name));
		line(t, "require-secure=%s", name);
	}
	for (size_t i = 0; i < c->ndomain; i++) {
		const struct cfg_domain *d = &c->domain[i];
		char list[200] = "";
		size_t off = 0;
		for (size_t j = 0; j < d->nns && off < sizeof(list) - 1; j++) {
			char a[80];
			up_server_str(&d->ns[j], a, sizeof(a));
			off += (size_t)snprintf(list + off, sizeof(list) - off,
						" %s", a);
		}
		wire_dname_to_str(d->name, name, sizeof(name));
		line(t, "domain=%s%s%s%s", name, d->nns ? " upstream" : "",
		     list, d->novalidate ? " validate=no" : "");
	}
	for (size_t i = 0; i < c->nprivate; i++) {
		wire_dname_to_str(c->private_domain[i], name, sizeof(name));
		line(t, "private-domain=%s", name);
	}
	line(t, "private-defaults=%s", c->no_private_defaults ? "no" : "yes");
}

/* What works, but not as the configuration's author may think, and why
 * resolv.conf cannot be read or watched: warning= lines. */
static void status_warnings(struct txt *t, struct daemon *d)
{
	pthread_mutex_lock(&d->reload_lock);
	for (unsigned i = 0; i < d->nwarnings; i++)
		line(t, "warning=%s", d->warning[i]);
	if (d->resolv_warning[0])
		line(t, "warning=%s", d->resolv_warning);
	if (d->loop_warning[0])
		line(t, "warning=%s", d->loop_warning);
	if (d->stub_warning[0])
		line(t, "warning=%s", d->stub_warning);
	line(t, "validation=%s", d->validation[0] ? d->validation : "ok");
	pthread_mutex_unlock(&d->reload_lock);
}

/* The verdict of the last reload: "ID ok" or "ID refused: REASON", ID
 * the last request it covered (dnstrust reload waits for its own). */
static void status_reload(struct txt *t, struct daemon *d)
{
	char text[600];

	pthread_mutex_lock(&d->reload_lock);
	snprintf(text, sizeof(text), "last-reload=%u %s%s", d->reload_done,
		 d->reload_error[0] ? "refused: " : "ok", d->reload_error);
	pthread_mutex_unlock(&d->reload_lock);
	long_line(t, text);
}

/* What each resolv.conf server can do, and the auto judgement. */
static void status_capab(struct txt *t, struct daemon *d)
{
	struct capab_view v[DT_UP_MAXNS];
	size_t n = upstreams_list(d, v, DT_UP_MAXNS);

	for (size_t i = 0; i < n; i++) {
		char a[80];

		up_server_str(&v[i].server, a, sizeof(a));
		line(t,
		     "upstream-dnssec=%s dnssec=%s edns=%s rrsig=%s ds=%s "
		     "tcp=%s large=%s asked=%s%s reason=%s",
		     a, capab_tri_name(v[i].dnssec), capab_tri_name(v[i].edns),
		     capab_tri_name(v[i].rrsig), capab_tri_name(v[i].ds),
		     capab_tri_name(v[i].tcp), capab_tri_name(v[i].big),
		     v[i].edns_off ? "no-edns" : "edns",
		     v[i].tcp_first ? ",tcp" : ",udp", v[i].reason);
	}
	if (__atomic_load_n(&d->resolution, __ATOMIC_RELAXED) ==
	    CFG_RES_RECURSIVE)
		line(t, "upstream-judgement=not-used (resolution recursive: "
			"the resolv.conf servers are not probed)");
	else
		line(t, "upstream-judgement=%s",
		     upstreams_recursive(d) ? "recursive" : "forward");
}

/* The split-DNS routes learnt from the upstream source, one line each:
 * "route=corp.example 192.0.2.1 (tun0)". */
static void status_routes(struct txt *t, const struct policy_routes *rt)
{
	char text[8 + DT_NAME_TEXT_MAXLEN + DT_UP_MAXNS * 80 + NAME_MAX + 4];

	for (size_t i = 0; rt && i < rt->n; i++) {
		memcpy(text, "route=", 6);
		policy_route_str(&rt->r[i], text + 6, sizeof(text) - 6);
		long_line(t, text);
	}
	if (rt && rt->dropped)
		line(t, "routes-dropped=%u (at most %d routes)", rt->dropped,
		     DT_UP_MAXROUTES);
}

/* Where records come from, and how recursion from the root fares. */
static void status_resolution(struct txt *t, struct worker *w)
{
	struct daemon *d = w->d;
	struct it_stats sum = {0}, one;
	bool reachable = true, primed = false;

	line(t, "resolution=%s",
	     __atomic_load_n(&d->recursing, __ATOMIC_RELAXED) ? "recursive"
							      : "forward");
	line(t, "resolution-config=%s",
	     cfg_resolution_name(
		     __atomic_load_n(&d->resolution, __ATOMIC_RELAXED)));
	line(t, "root-hints=%s", w->st->cfg.root_hints[0]
					 ? w->st->cfg.root_hints
					 : "built-in (IANA)");
	for (unsigned i = 0; i < d->nworkers; i++) {
		if (!d->workers[i].it)
			continue;
		it_get_stats(d->workers[i].it, &one);
		reachable &= it_root_reachable(d->workers[i].it);
		primed |= it_root_primed(d->workers[i].it);
		it_stats_add(&sum, &one);
	}
	line(t, "root-reachable=%s",
	     reachable ? "yes"
		       : "no (the network blocks queries to authoritative "
			 "servers: no root server answers)");
	line(t, "root-primed=%s", primed ? "yes" : "no");
	line(t, "iterator-questions=%llu", (unsigned long long)sum.questions);
	line(t, "iterator-queries=%llu", (unsigned long long)sum.queries);
	line(t, "iterator-referrals=%llu", (unsigned long long)sum.referrals);
	line(t, "iterator-timeouts=%llu", (unsigned long long)sum.timeouts);
	line(t, "iterator-lame=%llu", (unsigned long long)sum.lame);
	line(t, "iterator-root-unreachable=%llu",
	     (unsigned long long)sum.root_unreachable);
	line(t, "iterator-ds-from-referral=%llu",
	     (unsigned long long)sum.ds_from_referral);
	line(t, "iterator-keys-ahead=%llu", (unsigned long long)sum.keys_ahead);
	line(t, "iterator-keys-from-ahead=%llu",
	     (unsigned long long)sum.keys_from_ahead);
	line(t, "iterator-nxdomain-cut=%llu",
	     (unsigned long long)sum.nxdomain_cut);
	line(t, "iterator-dname-synth=%llu",
	     (unsigned long long)sum.dname_synth);
	line(t, "iterator-dnssec-lame=%llu",
	     (unsigned long long)sum.dnssec_lame);
	line(t, "iterator-wild-synth=%llu", (unsigned long long)sum.wild_synth);
}

static void status(struct txt *t, struct worker *w)
{
	struct daemon *d = w->d;
	const struct up_conf *uc = up_client_conf(w->up);
	struct cache_stats cs;
	struct wstats s;

	line(t, "version=%s", DT_VERSION);
	line(t, "protocol=%d", DT_PROTO_VERSION);
	line(t, "uptime=%lld", (long long)(worker_wallclock(w) - d->started));
	line(t, "workers=%u", d->nworkers);
	pthread_mutex_lock(&d->reload_lock);
	line(t, "upstream-source=%s %s", up_source_kind_name(d->source_kind),
	     d->source_path);
	line(t, "resolv-conf=%s", d->source_path);
	if (w->st->cfg.stub_resolv_conf[0])
		line(t, "stub-resolv-conf=%s", w->st->cfg.stub_resolv_conf);
	pthread_mutex_unlock(&d->reload_lock);
	for (size_t i = 0; i < uc->nns; i++) {
		char a[80];
		up_server_str(&uc->ns[i], a, sizeof(a));
		if (uc->tls_name[i][0])
			line(t, "upstream=%s tls %s", a, uc->tls_name[i]);
		else
			line(t, "upstream=%s", a);
	}
	const struct up_conf *fb = &w->st->cfg.fallback;
	for (size_t i = 0; i < fb->nns; i++) {
		char a[80];
		up_server_str(&fb->ns[i], a, sizeof(a));
		line(t, "fallback-upstream=%s tls %s", a, fb->tls_name[i]);
	}
	if (up_client_tls_error(w->up)[0]) {
		char e[24 + DT_UP_TLS_WHY_LEN];
		snprintf(e, sizeof(e), "upstream-tls-error=%s",
			 up_client_tls_error(w->up));
		long_line(t, e);
	}
	line(t, "upstream-options=timeout:%u attempts:%u%s%s",
	     uc->timeout_ms / 1000, uc->attempts, uc->rotate ? " rotate" : "",
	     uc->defaulted ? " (no nameserver line: 127.0.0.1)" : "");
	if (uc->nsearch) {
		/* Names of the list are private once proven unsigned
		 * (rsv_private_domain). */
		char list[8 + DT_UP_MAXSEARCH * DT_NAME_TEXT_MAXLEN] = "search=";
		size_t off = strlen(list);
		for (size_t i = 0; i < uc->nsearch && off < sizeof(list); i++) {
			char n[DT_NAME_TEXT_MAXLEN];
			wire_dname_to_str(up_conf_search(uc, i), n, sizeof(n));
			off += (size_t)snprintf(list + off, sizeof(list) - off,
						"%s%s", i ? " " : "", n);
		}
		long_line(t, list);
	}
	status_routes(t, w->routes);
	status_resolution(t, w);
	status_capab(t, d);
	line(t, "trust-anchor-source=%s", w->st->ta_desc);
	status_anchors(t, w->st);
	status_policy(t, &w->st->cfg, w->st->nta, worker_wallclock(w));
	cache_stats(d->cache, &cs);
	line(t, "cache-bytes=%zu", cs.bytes);
	line(t, "cache-max-bytes=%zu", cs.max_bytes);
	line(t, "cache-entries=%zu", cs.entries);
	line(t, "cache-evictions=%llu", (unsigned long long)cs.evictions);
	stats_sum(d, &s);
	line(t, "queries=%llu", (unsigned long long)s.queries);
	line(t, "cache-hits=%llu", (unsigned long long)s.cache_hits);
	line(t, "joined=%llu", (unsigned long long)s.joined);
	line(t, "joined-across-workers=%llu",
	     (unsigned long long)s.joined_workers);
	line(t, "questions-under-way=%llu",
	     (unsigned long long)stats_under_way(d));
	line(t, "upstream-queries=%llu", (unsigned long long)s.upstream);
	line(t, "fallback-queries=%llu", (unsigned long long)s.fallback);
	line(t, "secure=%llu", (unsigned long long)s.secure);
	line(t, "insecure=%llu", (unsigned long long)s.insecure);
	line(t, "bogus=%llu", (unsigned long long)s.bogus);
	line(t, "indeterminate=%llu", (unsigned long long)s.indeterminate);
	line(t, "upstream-failures=%llu",
	     (unsigned long long)s.servfail_upstream);
	line(t, "retried=%llu", (unsigned long long)s.retried);
	line(t, "timeouts=%llu", (unsigned long long)s.timeouts);
	line(t, "formerr=%llu", (unsigned long long)s.formerr);
	line(t, "refused=%llu", (unsigned long long)s.refused);
	line(t, "signature-verifications=%llu",
	     (unsigned long long)s.sig_verified);
	line(t, "signature-verifications-cached=%llu",
	     (unsigned long long)s.sig_cached);
	line(t, "reloads=%u", __atomic_load_n(&d->reloads, __ATOMIC_RELAXED));
	status_reload(t, d);
	status_warnings(t, d);
	char hs[128], portal[256];
	hotspot_status(w, hs, sizeof(hs), portal, sizeof(portal));
	line(t, "%s", hs);
	line(t, "%s", portal);
}

/* Every trust anchor record in presentation form (for `dnstrust query
 * --trace`, which re-validates offline with the daemon's anchors). */
static void anchors(struct txt *t, const struct dstate *st)
{
	size_t n = val_anchors_count(st->ta);
	char text[1800];

	for (size_t i = 0; i < n; i++) {
		const struct val_anchor_zone *az = val_anchors_get(st->ta, i);
		for (size_t k = 0; k < az->nds; k++)
			if (wire_rr_to_str(&az->ds[k], text, sizeof(text)) > 0)
				long_line(t, text);
		for (size_t k = 0; k < az->ndnskey; k++)
			if (wire_rr_to_str(&az->dnskey[k], text,
					   sizeof(text)) > 0)
				long_line(t, text);
	}
}

static void flush(struct txt *t, struct worker *w)
{
	uint8_t top[DT_NAME_MAXLEN];
	int labels = wire_dname_labels(t->q->qname) - 2;
	size_t n;

	/* NAME.flush.dnstrust. → NAME; flush.dnstrust. → the root. */
	wire_dname_copy(top, wire_dname_ancestor(t->q->qname, 0));
	if (labels > 0) {
		uint8_t tmp[DT_NAME_MAXLEN];
		size_t len = 0;
		const uint8_t *p = t->q->qname;
		for (int i = 0; i < labels; i++) {
			memcpy(tmp + len, p, 1u + p[0]);
			len += 1u + p[0];
			p += 1u + p[0];
		}
		tmp[len] = 0;
		wire_dname_copy(top, tmp);
	}
	wire_dname_tolower(top);
	n = answer_drop_below(w->d->cache, top);
	char txt[DT_NAME_TEXT_MAXLEN];
	wire_dname_to_str(top, txt, sizeof(txt));
	line(t, "flushed=%zu below=%s", n, txt);
}

size_t admin_answer(struct worker *w, const struct qinfo *q, uint8_t *buf,
		    size_t cap)
{
	uint8_t zone[DT_NAME_MAXLEN], flushname[DT_NAME_MAXLEN];
	struct txt t = {.q = q};
	uint16_t rcode = WIRE_RCODE_NOERROR;

	wire_dname_from_str(DT_PROTO_ADMIN_ZONE, strlen(DT_PROTO_ADMIN_ZONE),
			    NULL, zone);
	wire_dname_from_str(DT_PROTO_ADMIN_FLUSH, strlen(DT_PROTO_ADMIN_FLUSH),
			    NULL, flushname);
	bool ours = wire_dname_is_subdomain(q->qname, zone) ||
		    name_is(q, "version.bind.");
	if (!ours || (q->qtype != WIRE_TYPE_TXT && q->qtype != 255))
		return render_error(q, WIRE_RCODE_REFUSED,
				    WIRE_EDE_NOT_SUPPORTED,
				    "unknown administrative name", buf, cap);
	if (hotspot_privileged(q) && !q->hotspot) {
		STAT_INC(w, refused);
		return render_error(q, WIRE_RCODE_REFUSED, WIRE_EDE_PROHIBITED,
				    "needs root, the daemon's user or the "
				    "hotspot-group on the Unix socket",
				    buf, cap);
	}
	bool privileged = wire_dname_is_subdomain(q->qname, flushname) ||
			  name_is(q, DT_PROTO_ADMIN_RELOAD) ||
			  admin_ops_privileged(q);
	if (privileged && !q->admin) {
		STAT_INC(w, refused);
		return render_error(q, WIRE_RCODE_REFUSED, WIRE_EDE_PROHIBITED,
				    "needs root or the daemon's user on the "
				    "Unix socket",
				    buf, cap);
	}
	/* Over UDP the answer fits the client's payload size (RFC 6891
	 * §7), or is truncated: no amplification. 64 octets are kept for
	 * the OPT record. */
	size_t lim = q->udp_size && q->udp_size < cap ? q->udp_size : cap;
	wire_build_init(&t.b, buf, lim,
			q->id, WIRE_FLAG_QR | WIRE_FLAG_AA |
				       (q->flags & WIRE_FLAG_RD));
	t.b.cap = lim - 64;
	wire_build_question(&t.b, q->qname, q->qtype, q->qclass);
	if (name_is(q, DT_PROTO_ADMIN_VERSION) || name_is(q, "version.bind."))
		line(&t, "dnstrustd %s", DT_VERSION);
	else if (name_is(q, DT_PROTO_ADMIN_STATUS))
		status(&t, w);
	else if (name_is(q, DT_PROTO_ADMIN_ANCHORS))
		anchors(&t, w->st);
	else if (wire_dname_is_subdomain(q->qname, flushname))
		flush(&t, w);
	else if (name_is(q, DT_PROTO_ADMIN_RELOAD)) {
		unsigned id = __atomic_add_fetch(&w->d->reload_asked, 1,
						 __ATOMIC_RELEASE);
		daemon_request_reload(w->d);
		line(&t, "reload=requested id=%u", id);
	} else if (!admin_ops_answer(w, q, &t.b, &rcode) &&
		   !hotspot_answer(w, q, &t.b, &rcode))
		rcode = WIRE_RCODE_NXDOMAIN;
	if (t.cut && q->udp_size) {
		/* No partial list: TC and the question alone, the client asks
		 * again over TCP. */
		wire_build_init(&t.b, buf, lim,
				q->id, WIRE_FLAG_QR | WIRE_FLAG_AA |
					       WIRE_FLAG_TC |
					       (q->flags & WIRE_FLAG_RD));
		wire_build_question(&t.b, q->qname, q->qtype, q->qclass);
	}
	wire_build_set_flags(&t.b, rcode, 0);
	t.b.cap = lim;
	if (q->edns)
		wire_build_opt(&t.b, DT_UP_EDNS_BUFSIZE, 0, 0, 0, NULL, 0);
	return wire_build_finish(&t.b);
}
