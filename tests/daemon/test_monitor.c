/* SPDX-License-Identifier: MIT */
/*
 * The ring behind dnstrust monitor (src/daemon/monitor.c): idle until
 * asked, events numbered from the position given, batches, overwritten
 * events counted as missed, a number from a restarted daemon.
 */
#include <stdlib.h>

#include "daemon/monitor.h"
#include "tap.h"
#include "wire/dname.h"

struct got {
	int events, missed_lines;
	char first[512], last[512], missed[64];
};

static void collect(const char *line, void *arg)
{
	struct got *g = arg;

	if (strncmp(line, "missed=", 7) == 0) {
		g->missed_lines++;
		snprintf(g->missed, sizeof(g->missed), "%s", line);
		return;
	}
	if (!g->events++)
		snprintf(g->first, sizeof(g->first), "%s", line);
	snprintf(g->last, sizeof(g->last), "%s", line);
}

static void note(int i)
{
	uint8_t name[DT_NAME_MAXLEN];
	char text[64];

	snprintf(text, sizeof(text), "q%d.example.", i);
	wire_dname_from_str(text, strlen(text), NULL, name);
	monitor_note(name, 1, i % 2 ? "secure" : "bogus", i % 2 ? -1 : 7, i,
		     i % 3 == 0, 1800000000000LL + i);
}

int main(void)
{
	struct got g = {0};
	uint64_t from;

	ok(!monitor_active(1000), "idle before any monitor asked");
	from = monitor_events(0, 1000, collect, &g);
	is_int(from, 1, "the first position");
	is_int(g.events, 0, "no events without a position");
	ok(monitor_active(1000 + MONITOR_IDLE_MS - 1), "active after asking");
	ok(!monitor_active(1000 + MONITOR_IDLE_MS), "idle 5 s later");

	note(1);
	note(2);
	memset(&g, 0, sizeof(g));
	from = monitor_events(from, 2000, collect, &g);
	is_int(g.events, 2, "two events");
	is_str(g.first,
	       "q seq=1 t=1800000000001 name=q1.example. type=A "
	       "status=secure ede=- ms=1 cached=0",
	       "the first, as the protocol spells it");
	is_str(g.last,
	       "q seq=2 t=1800000000002 name=q2.example. type=A "
	       "status=bogus ede=7 ms=2 cached=0",
	       "the second, with its EDE");
	is_int(from, 3, "next from 3");

	for (int i = 3; i < 3 + MONITOR_BATCH + 10; i++)
		note(i);
	memset(&g, 0, sizeof(g));
	from = monitor_events(from, 3000, collect, &g);
	is_int(g.events, MONITOR_BATCH, "a batch at most");
	is_int(g.missed_lines, 0, "nothing missed");
	memset(&g, 0, sizeof(g));
	from = monitor_events(from, 3000, collect, &g);
	is_int(g.events, 10, "the rest next time");

	for (int i = 0; i < MONITOR_RING + 50; i++)
		note(1000 + i);
	memset(&g, 0, sizeof(g));
	from = monitor_events(from, 4000, collect, &g);
	is_str(g.missed, "missed=50", "overwritten events are counted");
	is_int(g.events, MONITOR_BATCH, "then the oldest kept");

	memset(&g, 0, sizeof(g));
	uint64_t again = monitor_events(from + 100000, 5000, collect, &g);
	is_int(g.events, 0, "a number from a restarted daemon: no events");
	ok(again < from + 100000, "but the current position");
	return done_testing();
}
