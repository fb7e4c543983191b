/* SPDX-License-Identifier: MIT */
/*
 * Statistics, the log threshold and selective flushes for the dnstrust
 * command. The per-EDE counters and the reset baseline are process-wide,
 * like the log threshold: one daemon per process.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache/cache.h"
#include "common/errcode.h"
#include "common/log.h"
#include "daemon/admin_ops.h"
#include "daemon/daemon.h"
#include "daemon/monitor.h"
#include "daemon/stats.h"
#include "policy/nta.h"
#include "policy/policy.h"
#include "upstream/transport.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* Administrative names of these operations (docs/PROTOCOL.md §5). */
#define OPS_STATISTICS	   "statistics.dnstrust."
#define OPS_RESET	   "reset.statistics.dnstrust."
#define OPS_LOG_LEVEL	   "log-level.dnstrust."
#define OPS_FLUSH_BOGUS	   "flush-bogus.dnstrust."
#define OPS_FLUSH_NEGATIVE "flush-negative.dnstrust."
#define OPS_MONITOR	   "monitor.dnstrust." /* [FROM.]monitor. */
#define OPS_NTA		   "nta.dnstrust."
#define OPS_NTA_ADD	   "nta-add.dnstrust."	  /* UNTIL.DOMAIN.nta-add. */
#define OPS_NTA_REMOVE	   "nta-remove.dnstrust." /* DOMAIN.nta-remove. */

/* EDE codes counted one by one (RFC 8914 and its registry go to 30 so
 * far); higher codes share the last counter. */
#define OPS_EDE_MAX 63

/* Time to resolve, in buckets of powers of two: up to 1 ms, 2 ms, ...,
 * 2^16 ms (65 s, beyond any query-timeout), and more. */
#define OPS_LAT_BUCKETS 18

/* Counters summed over the workers, the per-EDE ones and the times. */
struct ops_counts {
	struct wstats w;
	uint64_t ede[OPS_EDE_MAX + 2]; /* [OPS_EDE_MAX + 1]: no EDE */
	uint64_t lat[OPS_LAT_BUCKETS];
};

/* Per upstream server, the workers' clients merged. */
struct ops_upstreams {
	size_t n;
	struct up_server_stats s[UP_STATS_SERVERS];
};

static uint64_t ede_count[OPS_EDE_MAX + 2];
static uint64_t lat_count[OPS_LAT_BUCKETS];
static pthread_mutex_t base_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ops_counts base; /* what reset.statistics. saw */
static struct ops_upstreams base_up;
static int64_t base_time; /* when (wall clock), 0: start-up */

static size_t lat_bucket(int64_t ms)
{
	size_t i = 0;

	while (i < OPS_LAT_BUCKETS - 1 && ms > ((int64_t)1 << i))
		i++;
	return i;
}

/* "secure"..., "servfail" for an answer no upstream gave, or
 * "unvalidated" (a hotspot sign-on's). */
static const char *status_word(const struct answer *a)
{
	if (a->unvalidated)
		return "unvalidated";
	if (a->status == VAL_INDETERMINATE && a->upstream_fail)
		return "servfail";
	return val_status_name(a->status);
}

/* Wall clock in ms, from a worker's loop. */
static int64_t wall_ms(const struct worker *w)
{
	return worker_wallclock(w) * 1000 + loop_now_ms(w->loop) % 1000;
}

void admin_ops_finished(struct worker *w, const uint8_t *qname, uint16_t qtype,
			const struct answer *a, int64_t ms)
{
	size_t i = a->ede == VAL_EDE_NONE ? OPS_EDE_MAX + 1
		   : a->ede > OPS_EDE_MAX ? OPS_EDE_MAX
					  : a->ede;

	__atomic_fetch_add(&ede_count[i], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&lat_count[lat_bucket(ms)], 1, __ATOMIC_RELAXED);
	if (monitor_active(loop_now_ms(w->loop)))
		monitor_note(qname, qtype, status_word(a),
			     a->ede == VAL_EDE_NONE ? -1 : a->ede, ms, false,
			     wall_ms(w));
}

void admin_ops_cache_hit(struct worker *w, const struct qinfo *q)
{
	uint8_t key[DT_CACHE_KEY_MAXLEN];
	struct cache_ref ref;
	size_t klen;

	if (!monitor_active(loop_now_ms(w->loop)))
		return;
	klen = answer_key('V', q->qname, q->qtype, q->qclass, key);
	if (!cache_get(w->d->cache, key, klen, worker_now(w), &ref))
		return;
	const struct answer *a = ref.val;
	monitor_note(q->qname, q->qtype, status_word(a),
		     a->ede == VAL_EDE_NONE ? -1 : a->ede, 0, true, wall_ms(w));
	cache_unref(w->d->cache, &ref);
}

/* --- TXT lines --- */

void admin_txt_line(struct wire_builder *b, const struct qinfo *q,
		    const char *fmt, ...)
{
	uint8_t rdata[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf((char *)rdata + 1, sizeof(rdata) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	rdata[0] = (uint8_t)(n > 255 ? 255 : n);
	struct wire_rr rr = {.owner = q->qname,
			     .type = WIRE_TYPE_TXT,
			     .rclass = WIRE_CLASS_CH,
			     .rdlen = (uint16_t)(rdata[0] + 1),
			     .rdata = rdata};
	wire_build_rr(b, WIRE_SEC_ANSWER, &rr);
}

static bool name_is(const struct qinfo *q, const char *text)
{
	uint8_t name[DT_NAME_MAXLEN];

	return wire_dname_from_str(text, strlen(text), NULL, name) > 0 &&
	       wire_dname_equal(q->qname, name);
}

/* LEVEL.log-level.dnstrust.: one label above the operation's name. */
static bool is_log_level_set(const struct qinfo *q)
{
	uint8_t name[DT_NAME_MAXLEN];

	return wire_dname_from_str(OPS_LOG_LEVEL, strlen(OPS_LOG_LEVEL), NULL,
				   name) > 0 &&
	       wire_dname_labels(q->qname) == wire_dname_labels(name) + 1 &&
	       wire_dname_is_subdomain(q->qname, name);
}

/* True when q is strictly below the operation's name op. */
static bool is_below(const struct qinfo *q, const char *op)
{
	uint8_t name[DT_NAME_MAXLEN];

	return wire_dname_from_str(op, strlen(op), NULL, name) > 0 &&
	       wire_dname_labels(q->qname) > wire_dname_labels(name) &&
	       wire_dname_is_subdomain(q->qname, name);
}

bool admin_ops_privileged(const struct qinfo *q)
{
	return name_is(q, OPS_RESET) || is_log_level_set(q) ||
	       name_is(q, OPS_MONITOR) || is_below(q, OPS_MONITOR) ||
	       name_is(q, OPS_FLUSH_BOGUS) || name_is(q, OPS_FLUSH_NEGATIVE) ||
	       is_below(q, OPS_NTA_ADD) || is_below(q, OPS_NTA_REMOVE);
}

/* --- statistics --- */

static void counts_now(struct daemon *d, struct ops_counts *c)
{
	memset(c, 0, sizeof(*c));
	stats_sum(d, &c->w);
	for (size_t i = 0; i < OPS_EDE_MAX + 2; i++)
		c->ede[i] = __atomic_load_n(&ede_count[i], __ATOMIC_RELAXED);
	for (size_t i = 0; i < OPS_LAT_BUCKETS; i++)
		c->lat[i] = __atomic_load_n(&lat_count[i], __ATOMIC_RELAXED);
}

/* The bucket bound (ms) below which pct percent of the times fall; -1
 * for none counted, 0 for "more than 2^16". */
static long long percentile(const struct ops_counts *c, unsigned pct)
{
	uint64_t total = 0, sum = 0;

	for (size_t i = 0; i < OPS_LAT_BUCKETS; i++)
		total += c->lat[i];
	if (!total)
		return -1;
	for (size_t i = 0; i < OPS_LAT_BUCKETS; i++) {
		sum += c->lat[i];
		if (sum * 100 >= total * pct)
			return i == OPS_LAT_BUCKETS - 1 ? 0 : 1LL << i;
	}
	return 0;
}

static void latency_lines(struct wire_builder *b, const struct qinfo *q,
			  const struct ops_counts *c)
{
	static const unsigned pcts[] = {50, 90, 99};
	uint64_t total = 0;

	for (size_t i = 0; i < OPS_LAT_BUCKETS; i++)
		total += c->lat[i];
	admin_txt_line(b, q, "resolutions=%llu", (unsigned long long)total);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		long long p = percentile(c, pcts[i]);

		if (p > 0)
			admin_txt_line(b, q, "latency-p%u-ms=%lld", pcts[i], p);
		else if (p == 0)
			admin_txt_line(b, q, "latency-p%u-ms=more than %lld",
				       pcts[i], 1LL << (OPS_LAT_BUCKETS - 2));
	}
}

static struct up_server_stats *up_find(struct ops_upstreams *u,
				       const struct up_server *srv)
{
	for (size_t i = 0; i < u->n; i++)
		if (u->s[i].server.addrlen == srv->addrlen &&
		    memcmp(&u->s[i].server.addr, &srv->addr, srv->addrlen) == 0)
			return &u->s[i];
	return NULL;
}

static void upstreams_now(struct daemon *d, struct ops_upstreams *u)
{
	struct up_server_stats one[UP_STATS_SERVERS];

	u->n = 0;
	for (unsigned i = 0; i < d->nworkers; i++) {
		size_t n = up_client_server_stats(d->workers[i].up, one,
						  UP_STATS_SERVERS);

		for (size_t k = 0; k < n; k++) {
			struct up_server_stats *m = up_find(u, &one[k].server);

			if (!m && u->n == UP_STATS_SERVERS)
				continue;
			if (!m) {
				m = &u->s[u->n++];
				memset(m, 0, sizeof(*m));
				m->server = one[k].server;
			}
			m->tries += one[k].tries;
			m->answers += one[k].answers;
			m->timeouts += one[k].timeouts;
			m->errors += one[k].errors;
			m->rtt_ms += one[k].rtt_ms;
		}
	}
}

/* u minus the baseline b, server by server. */
static void upstreams_since(struct ops_upstreams *u,
			    const struct ops_upstreams *b)
{
	for (size_t i = 0; i < b->n; i++) {
		struct up_server_stats *m = up_find(u, &b->s[i].server);
		const struct up_server_stats *o = &b->s[i];

		if (!m)
			continue;
		m->tries -= m->tries >= o->tries ? o->tries : m->tries;
		m->answers -=
			m->answers >= o->answers ? o->answers : m->answers;
		m->timeouts -=
			m->timeouts >= o->timeouts ? o->timeouts : m->timeouts;
		m->errors -= m->errors >= o->errors ? o->errors : m->errors;
		m->rtt_ms -= m->rtt_ms >= o->rtt_ms ? o->rtt_ms : m->rtt_ms;
	}
}

static void upstream_lines(struct wire_builder *b, const struct qinfo *q,
			   const struct ops_upstreams *u)
{
	for (size_t i = 0; i < u->n; i++) {
		const struct up_server_stats *st = &u->s[i];
		char addr[80];

		up_server_str(&st->server, addr, sizeof(addr));
		admin_txt_line(
			b, q,
			"upstream=%s tries=%llu answers=%llu timeouts=%llu "
			"errors=%llu avg-ms=%llu",
			addr, (unsigned long long)st->tries,
			(unsigned long long)st->answers,
			(unsigned long long)st->timeouts,
			(unsigned long long)st->errors,
			(unsigned long long)(st->answers
						     ? st->rtt_ms / st->answers
						     : 0));
	}
}

/* c minus the baseline, counter by counter. */
static void counts_since(struct ops_counts *c, const struct ops_counts *b)
{
	uint64_t *x = (uint64_t *)c;
	const uint64_t *y = (const uint64_t *)b;

	for (size_t k = 0; k < sizeof(*c) / sizeof(uint64_t); k++)
		x[k] = x[k] >= y[k] ? x[k] - y[k] : 0;
}

static void statistics(struct worker *w, const struct qinfo *q,
		       struct wire_builder *b, bool reset)
{
	struct ops_counts c, now;
	struct ops_upstreams up, up_now;
	struct cache_stats cs;
	int64_t since;

	counts_now(w->d, &now);
	upstreams_now(w->d, &up_now);
	pthread_mutex_lock(&base_lock);
	c = now;
	counts_since(&c, &base);
	up = up_now;
	upstreams_since(&up, &base_up);
	since = base_time ? base_time : w->d->started;
	if (reset) {
		base = now;
		base_up = up_now;
		base_time = worker_wallclock(w);
	}
	pthread_mutex_unlock(&base_lock);

	admin_txt_line(b, q, "since=%lld", (long long)since);
	admin_txt_line(b, q, "seconds=%lld",
		       (long long)(worker_wallclock(w) - since));
	admin_txt_line(b, q, "queries=%llu", (unsigned long long)c.w.queries);
	admin_txt_line(b, q, "cache-hits=%llu",
		       (unsigned long long)c.w.cache_hits);
	admin_txt_line(b, q, "joined=%llu", (unsigned long long)c.w.joined);
	admin_txt_line(b, q, "joined-across-workers=%llu",
		       (unsigned long long)c.w.joined_workers);
	admin_txt_line(b, q, "upstream-queries=%llu",
		       (unsigned long long)c.w.upstream);
	admin_txt_line(b, q, "fallback-queries=%llu",
		       (unsigned long long)c.w.fallback);
	admin_txt_line(b, q, "secure=%llu", (unsigned long long)c.w.secure);
	admin_txt_line(b, q, "insecure=%llu", (unsigned long long)c.w.insecure);
	admin_txt_line(b, q, "bogus=%llu", (unsigned long long)c.w.bogus);
	admin_txt_line(b, q, "indeterminate=%llu",
		       (unsigned long long)c.w.indeterminate);
	admin_txt_line(b, q, "upstream-failures=%llu",
		       (unsigned long long)c.w.servfail_upstream);
	admin_txt_line(b, q, "retried=%llu", (unsigned long long)c.w.retried);
	admin_txt_line(b, q, "timeouts=%llu", (unsigned long long)c.w.timeouts);
	admin_txt_line(b, q, "formerr=%llu", (unsigned long long)c.w.formerr);
	admin_txt_line(b, q, "refused=%llu", (unsigned long long)c.w.refused);
	latency_lines(b, q, &c);
	admin_txt_line(b, q, "ede-none=%llu",
		       (unsigned long long)c.ede[OPS_EDE_MAX + 1]);
	for (unsigned i = 0; i <= OPS_EDE_MAX; i++)
		if (c.ede[i])
			admin_txt_line(b, q, "ede-%u=%llu", i,
				       (unsigned long long)c.ede[i]);
	upstream_lines(b, q, &up);
	cache_stats(w->d->cache, &cs);
	admin_txt_line(b, q, "cache-entries=%zu", cs.entries);
	admin_txt_line(b, q, "cache-bytes=%zu", cs.bytes);
	if (reset)
		admin_txt_line(b, q, "reset=done");
}

/* --- log level --- */

static const struct {
	const char *name;
	int prio;
} levels[] = {
	{"error", LOG_ERR}, {"warning", LOG_WARNING}, {"notice", LOG_NOTICE},
	{"info", LOG_INFO}, {"debug", LOG_DEBUG},
};

#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static const char *level_name(void)
{
	for (size_t i = NLEVELS; i-- > 0;)
		if (log_enabled(levels[i].prio))
			return levels[i].name;
	return "error";
}

static void log_level(const struct qinfo *q, struct wire_builder *b,
		      uint16_t *ret_rcode)
{
	const uint8_t *label = q->qname;

	if (is_log_level_set(q)) {
		size_t i;

		for (i = 0; i < NLEVELS; i++)
			if (strlen(levels[i].name) == label[0] &&
			    strncasecmp(levels[i].name, (const char *)label + 1,
					label[0]) == 0)
				break;
		if (i == NLEVELS) {
			*ret_rcode = WIRE_RCODE_REFUSED;
			admin_txt_line(b, q,
				       "error=unknown level (error, warning, "
				       "notice, info, debug)");
			return;
		}
		log_set_level(levels[i].prio);
		log_notice("log-level %s, set by dnstrust log-level",
			   levels[i].name);
	}
	admin_txt_line(b, q, "log-level=%s", level_name());
}

/* --- flush of bogus or negative answers --- */

/* Cached answers only (kind 'V'): key sets and upstream responses are
 * kept, they are data, not verdicts. */
static bool is_answer_key(const uint8_t *key, size_t klen)
{
	return klen > 0 && key[0] == 'V';
}

static bool answer_bogus(const uint8_t *key, size_t klen, void *val, void *arg)
{
	const struct answer *a = val;

	(void)arg;
	return is_answer_key(key, klen) && a->status == VAL_BOGUS;
}

/* NXDOMAIN, or NOERROR without records in the answer section (NODATA). */
static bool answer_negative(const uint8_t *key, size_t klen, void *val,
			    void *arg)
{
	const struct answer *a = val;

	(void)arg;
	if (!is_answer_key(key, klen))
		return false;
	if (a->rcode == WIRE_RCODE_NXDOMAIN)
		return true;
	return a->rcode == WIRE_RCODE_NOERROR && a->msg &&
	       a->msg->count[WIRE_SEC_ANSWER] == 0;
}

/* Rendered replies ('W'): each is a rendering of a 'V' answer. */
static bool is_rendered_key(const uint8_t *key, size_t klen, void *arg)
{
	(void)arg;
	return klen > 0 && key[0] == 'W';
}

/* Drops the answers of one kind, then every rendered reply: a rendering
 * carries no verdict to select by, and the answers that remain are
 * rendered again on their next use. */
static void flush_kind(struct worker *w, const struct qinfo *q,
		       struct wire_builder *b, bool bogus)
{
	size_t n = cache_remove_if_val(
		w->d->cache, bogus ? answer_bogus : answer_negative, NULL);

	if (n)
		cache_remove_if(w->d->cache, is_rendered_key, NULL);
	admin_txt_line(b, q, "flushed=%zu kind=%s", n,
		       bogus ? "bogus" : "negative");
}

/* --- runtime negative trust anchors --- */

/* The first nlabels labels of name, as a name of their own. */
static void head_labels(const uint8_t *name, int nlabels,
			uint8_t out[DT_NAME_MAXLEN])
{
	size_t len = 0;

	for (int i = 0; i < nlabels; i++) {
		memcpy(out + len, name + len, 1u + name[len]);
		len += 1u + name[len];
	}
	out[len] = 0;
}

/* What q names before the operation op (its labels above op's). */
static void operand(const struct qinfo *q, const char *op,
		    uint8_t out[DT_NAME_MAXLEN])
{
	uint8_t name[DT_NAME_MAXLEN];

	wire_dname_from_str(op, strlen(op), NULL, name);
	head_labels(q->qname,
		    wire_dname_labels(q->qname) - wire_dname_labels(name), out);
	wire_dname_tolower(out);
}

struct nta_list {
	struct wire_builder *b;
	const struct qinfo *q;
};

static void nta_line(const struct cfg_nta *n, void *arg)
{
	struct nta_list *l = arg;
	char name[DT_NAME_TEXT_MAXLEN];

	wire_dname_to_str(n->name, name, sizeof(name));
	admin_txt_line(l->b, l->q, "nta=%s until=%lld source=runtime", name,
		       (long long)n->until);
}

static void nta_list(struct worker *w, const struct qinfo *q,
		     struct wire_builder *b)
{
	const struct cfg *c = &w->st->cfg;
	struct nta_list l = {b, q};
	int64_t now = worker_wallclock(w);
	char name[DT_NAME_TEXT_MAXLEN];

	nta_rt_foreach(w->d->nta, now, nta_line, &l);
	for (size_t i = 0; i < c->nnta; i++) {
		if (!nta_in_force(&c->nta[i], now))
			continue;
		wire_dname_to_str(c->nta[i].name, name, sizeof(name));
		admin_txt_line(b, q, "nta=%s until=%lld source=config", name,
			       (long long)c->nta[i].until);
	}
	admin_txt_line(b, q, "file=%s", nta_rt_path(w->d->nta));
}

/* UNTIL.DOMAIN.nta-add.dnstrust.: UNTIL is seconds since the epoch, 0
 * for no end. */
static void nta_add(struct worker *w, const struct qinfo *q,
		    struct wire_builder *b)
{
	uint8_t arg[DT_NAME_MAXLEN];
	char name[DT_NAME_TEXT_MAXLEN], *end;
	int64_t now = worker_wallclock(w);
	long long until;
	int err, save_err = 0;

	operand(q, OPS_NTA_ADD, arg);
	if (arg[0] == 0 || arg[1 + arg[0]] == 0) {
		admin_txt_line(b, q,
			       "error=UNTIL.DOMAIN.%s, DOMAIN not the root",
			       OPS_NTA_ADD);
		return;
	}
	char digits[64];
	snprintf(digits, sizeof(digits), "%.*s", arg[0], (const char *)arg + 1);
	until = strtoll(digits, &end, 10);
	if (*end || end == digits || until < 0 || (until && until <= now)) {
		admin_txt_line(b, q,
			       "error=bad end time '%s' (seconds since 1970 in "
			       "the future, or 0)",
			       digits);
		return;
	}
	const uint8_t *domain = arg + 1 + arg[0];
	wire_dname_to_str(domain, name, sizeof(name));
	err = nta_rt_add(w->d->nta, domain, until, now, &save_err);
	if (err < 0) {
		admin_txt_line(b, q, "error=%s",
			       err == DT_ELIMIT ? "too many negative trust "
						  "anchors (64): remove some"
						: "out of memory");
		return;
	}
	answer_drop_below(w->d->cache, domain);
	log_notice("negative trust anchor %s added by dnstrust nta add, "
		   "until %lld%s",
		   name, until, save_err ? " (not saved)" : "");
	admin_txt_line(b, q, "nta=%s until=%lld saved=%s", name, until,
		       save_err ? "no" : "yes");
	if (save_err)
		admin_txt_line(b, q, "warning=not saved to %s: %s",
			       nta_rt_path(w->d->nta), strerror(-save_err));
}

static void nta_remove(struct worker *w, const struct qinfo *q,
		       struct wire_builder *b)
{
	uint8_t domain[DT_NAME_MAXLEN];
	char name[DT_NAME_TEXT_MAXLEN];
	int r, save_err = 0;

	operand(q, OPS_NTA_REMOVE, domain);
	wire_dname_to_str(domain, name, sizeof(name));
	r = nta_rt_remove(w->d->nta, domain, worker_wallclock(w), &save_err);
	if (r < 0) {
		admin_txt_line(b, q, "error=out of memory");
		return;
	}
	if (r > 0) {
		answer_drop_below(w->d->cache, domain);
		log_notice("negative trust anchor %s removed by dnstrust nta "
			   "remove",
			   name);
	}
	admin_txt_line(b, q, "removed=%d nta=%s", r, name);
	if (save_err)
		admin_txt_line(b, q, "warning=not saved to %s: %s",
			       nta_rt_path(w->d->nta), strerror(-save_err));
}

/* --- monitor --- */

struct mon_emit {
	struct wire_builder *b;
	const struct qinfo *q;
};

static void mon_line(const char *text, void *arg)
{
	struct mon_emit *m = arg;

	admin_txt_line(m->b, m->q, "%s", text);
}

/* FROM.monitor.dnstrust.: the questions answered from number FROM on;
 * monitor.dnstrust.: only the number to start from. */
static void monitor(struct worker *w, const struct qinfo *q,
		    struct wire_builder *b)
{
	struct mon_emit m = {b, q};
	unsigned long long from = 0;
	uint64_t next;

	if (is_below(q, OPS_MONITOR)) {
		char digits[64], *end;

		snprintf(digits, sizeof(digits), "%.*s", q->qname[0],
			 (const char *)q->qname + 1);
		from = strtoull(digits, &end, 10);
		if (*end || end == digits)
			from = 0;
	}
	next = monitor_events(from, loop_now_ms(w->loop), mon_line, &m);
	admin_txt_line(b, q, "next=%llu", (unsigned long long)next);
}

bool admin_ops_answer(struct worker *w, const struct qinfo *q,
		      struct wire_builder *b, uint16_t *ret_rcode)
{
	*ret_rcode = WIRE_RCODE_NOERROR;
	if (name_is(q, OPS_STATISTICS) || name_is(q, OPS_RESET))
		statistics(w, q, b, name_is(q, OPS_RESET));
	else if (name_is(q, OPS_LOG_LEVEL) || is_log_level_set(q))
		log_level(q, b, ret_rcode);
	else if (name_is(q, OPS_FLUSH_BOGUS) || name_is(q, OPS_FLUSH_NEGATIVE))
		flush_kind(w, q, b, name_is(q, OPS_FLUSH_BOGUS));
	else if (name_is(q, OPS_MONITOR) || is_below(q, OPS_MONITOR))
		monitor(w, q, b);
	else if (name_is(q, OPS_NTA))
		nta_list(w, q, b);
	else if (is_below(q, OPS_NTA_ADD))
		nta_add(w, q, b);
	else if (is_below(q, OPS_NTA_REMOVE))
		nta_remove(w, q, b);
	else
		return false;
	return true;
}
