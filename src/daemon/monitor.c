/* SPDX-License-Identifier: MIT */
/*
 * The ring of answered questions behind dnstrust monitor.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/limits.h"
#include "daemon/monitor.h"
#include "wire/dname.h"
#include "wire/rr.h"

struct event {
	uint64_t seq; /* 0: empty */
	int64_t wall_ms;
	int64_t ms;
	int ede;
	uint16_t qtype;
	bool cached;
	char status[16];
	char name[MONITOR_NAME_MAXLEN + 4];
};

static struct event ring[MONITOR_RING];
static uint64_t next_seq = 1; /* under lock */
static int64_t active_until;  /* atomic, monotonic ms */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

bool monitor_active(int64_t now_ms)
{
	return now_ms < __atomic_load_n(&active_until, __ATOMIC_RELAXED);
}

void monitor_note(const uint8_t *qname, uint16_t qtype, const char *status,
		  int ede, int64_t ms, bool cached, int64_t wall_ms)
{
	char text[DT_NAME_TEXT_MAXLEN];
	struct event e = {.wall_ms = wall_ms,
			  .ms = ms,
			  .ede = ede,
			  .qtype = qtype,
			  .cached = cached};

	wire_dname_to_str(qname, text, sizeof(text));
	size_t len = strlen(text);

	if (len > MONITOR_NAME_MAXLEN) {
		memcpy(e.name, text, MONITOR_NAME_MAXLEN);
		memcpy(e.name + MONITOR_NAME_MAXLEN, "...", 4);
	} else {
		memcpy(e.name, text, len + 1);
	}
	snprintf(e.status, sizeof(e.status), "%s", status);
	pthread_mutex_lock(&lock);
	e.seq = next_seq++;
	ring[e.seq % MONITOR_RING] = e;
	pthread_mutex_unlock(&lock);
}

static void emit_event(const struct event *e,
		       void (*emit)(const char *line, void *arg), void *arg)
{
	char line[512], tbuf[16], ede[16] = "-";

	if (e->ede >= 0)
		snprintf(ede, sizeof(ede), "%d", e->ede);
	snprintf(line, sizeof(line),
		 "q seq=%llu t=%lld name=%s type=%s status=%s ede=%s ms=%lld "
		 "cached=%d",
		 (unsigned long long)e->seq, (long long)e->wall_ms, e->name,
		 wire_type_to_str(e->qtype, tbuf), e->status, ede,
		 (long long)e->ms, e->cached ? 1 : 0);
	emit(line, arg);
}

uint64_t monitor_events(uint64_t from, int64_t now_ms,
			void (*emit)(const char *line, void *arg), void *arg)
{
	static struct event copy[MONITOR_BATCH];
	static pthread_mutex_t copy_lock = PTHREAD_MUTEX_INITIALIZER;
	uint64_t next, first, n = 0;
	char line[64];

	__atomic_store_n(&active_until, now_ms + MONITOR_IDLE_MS,
			 __ATOMIC_RELAXED);
	pthread_mutex_lock(&copy_lock);
	pthread_mutex_lock(&lock);
	next = next_seq;
	if (from > next) /* the daemon restarted since: start again */
		from = 0;
	first = from && next - from > MONITOR_RING ? next - MONITOR_RING : from;
	for (uint64_t s = first; from && s < next && n < MONITOR_BATCH; s++)
		copy[n++] = ring[s % MONITOR_RING];
	pthread_mutex_unlock(&lock);
	if (first > from) {
		snprintf(line, sizeof(line), "missed=%llu",
			 (unsigned long long)(first - from));
		emit(line, arg);
	}
	for (uint64_t i = 0; i < n; i++)
		emit_event(&copy[i], emit, arg);
	pthread_mutex_unlock(&copy_lock);
	return from ? first + n : next;
}
