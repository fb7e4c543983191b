/* SPDX-License-Identifier: MIT */
/*
 * Statistics, the log threshold and selective flushes for the dnstrust
 * command. The per-EDE counters and the reset baseline are process-wide,
 * like the log threshold: one daemon per process.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cache/cache.h"
#include "daemon/admin_ops.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* Administrative names of these operations (docs/PROTOCOL.md §5). */
#define OPS_STATISTICS	   "statistics.dnstrust."
#define OPS_RESET	   "reset.statistics.dnstrust."
#define OPS_LOG_LEVEL	   "log-level.dnstrust."
#define OPS_FLUSH_BOGUS	   "flush-bogus.dnstrust."
#define OPS_FLUSH_NEGATIVE "flush-negative.dnstrust."

/* EDE codes counted one by one (RFC 8914 and its registry go to 30 so
 * far); higher codes share the last counter. */
#define OPS_EDE_MAX 63

/* Counters summed over the workers, and the per-EDE ones. */
struct ops_counts {
	struct wstats w;
	uint64_t ede[OPS_EDE_MAX + 2]; /* [OPS_EDE_MAX + 1]: no EDE */
};

static uint64_t ede_count[OPS_EDE_MAX + 2];
static pthread_mutex_t base_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ops_counts base; /* what reset.statistics. saw */
static int64_t base_time;      /* when (wall clock), 0: start-up */

void admin_ops_count(const struct answer *a)
{
	size_t i = a->ede == VAL_EDE_NONE ? OPS_EDE_MAX + 1
		   : a->ede > OPS_EDE_MAX ? OPS_EDE_MAX
					  : a->ede;

	__atomic_fetch_add(&ede_count[i], 1, __ATOMIC_RELAXED);
}

/* --- TXT lines --- */

__attribute__((format(printf, 3, 4))) static void
line(struct wire_builder *b, const struct qinfo *q, const char *fmt, ...)
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

bool admin_ops_privileged(const struct qinfo *q)
{
	return name_is(q, OPS_RESET) || is_log_level_set(q) ||
	       name_is(q, OPS_FLUSH_BOGUS) || name_is(q, OPS_FLUSH_NEGATIVE);
}

/* --- statistics --- */

static void counts_now(struct daemon *d, struct ops_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < d->nworkers; i++) {
		const uint64_t *src = (const uint64_t *)&d->workers[i].stats;
		uint64_t *dst = (uint64_t *)&c->w;

		for (size_t k = 0; k < sizeof(c->w) / sizeof(uint64_t); k++)
			dst[k] += __atomic_load_n(&src[k], __ATOMIC_RELAXED);
	}
	for (size_t i = 0; i < OPS_EDE_MAX + 2; i++)
		c->ede[i] = __atomic_load_n(&ede_count[i], __ATOMIC_RELAXED);
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
	struct cache_stats cs;
	int64_t since;

	counts_now(w->d, &now);
	pthread_mutex_lock(&base_lock);
	c = now;
	counts_since(&c, &base);
	since = base_time ? base_time : w->d->started;
	if (reset) {
		base = now;
		base_time = worker_wallclock(w);
	}
	pthread_mutex_unlock(&base_lock);

	line(b, q, "since=%lld", (long long)since);
	line(b, q, "seconds=%lld", (long long)(worker_wallclock(w) - since));
	line(b, q, "queries=%llu", (unsigned long long)c.w.queries);
	line(b, q, "cache-hits=%llu", (unsigned long long)c.w.cache_hits);
	line(b, q, "joined=%llu", (unsigned long long)c.w.joined);
	line(b, q, "upstream-queries=%llu", (unsigned long long)c.w.upstream);
	line(b, q, "secure=%llu", (unsigned long long)c.w.secure);
	line(b, q, "insecure=%llu", (unsigned long long)c.w.insecure);
	line(b, q, "bogus=%llu", (unsigned long long)c.w.bogus);
	line(b, q, "indeterminate=%llu", (unsigned long long)c.w.indeterminate);
	line(b, q, "upstream-failures=%llu",
	     (unsigned long long)c.w.servfail_upstream);
	line(b, q, "timeouts=%llu", (unsigned long long)c.w.timeouts);
	line(b, q, "formerr=%llu", (unsigned long long)c.w.formerr);
	line(b, q, "refused=%llu", (unsigned long long)c.w.refused);
	line(b, q, "ede-none=%llu", (unsigned long long)c.ede[OPS_EDE_MAX + 1]);
	for (unsigned i = 0; i <= OPS_EDE_MAX; i++)
		if (c.ede[i])
			line(b, q, "ede-%u=%llu", i,
			     (unsigned long long)c.ede[i]);
	cache_stats(w->d->cache, &cs);
	line(b, q, "cache-entries=%zu", cs.entries);
	line(b, q, "cache-bytes=%zu", cs.bytes);
	if (reset)
		line(b, q, "reset=done");
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
			line(b, q,
			     "error=unknown level (error, warning, "
			     "notice, info, debug)");
			return;
		}
		log_set_level(levels[i].prio);
		log_notice("log-level %s, set by dnstrust log-level",
			   levels[i].name);
	}
	line(b, q, "log-level=%s", level_name());
}

/* --- flush of bogus or negative answers --- */

/* Cached answers only (kind 'V'): key sets and upstream responses are
 * kept, they are data, not verdicts. */
static bool is_answer_key(const uint8_t *key, size_t klen)
{
	return klen > 0 && key[0] == 'V';
}

static bool answer_bogus(const uint8_t *key, size_t klen, const void *val,
			 void *arg)
{
	const struct answer *a = val;

	(void)arg;
	return is_answer_key(key, klen) && a->status == VAL_BOGUS;
}

/* NXDOMAIN, or NOERROR without records in the answer section (NODATA). */
static bool answer_negative(const uint8_t *key, size_t klen, const void *val,
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
	line(b, q, "flushed=%zu kind=%s", n, bogus ? "bogus" : "negative");
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
	else
		return false;
	return true;
}
