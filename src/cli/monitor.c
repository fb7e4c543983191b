/* SPDX-License-Identifier: MIT */
/*
 * dnstrust monitor: a live line per question dnstrustd answers (name,
 * type, status, EDE, time taken, from the cache or not), by asking
 * SEQ.monitor.dnstrust. every MONITOR_POLL_MS (docs/PROTOCOL.md §5).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "wire/msg.h"

/* How often the daemon is asked: well within its MONITOR_IDLE_MS (5 s),
 * and 2,500 questions a second before its ring of 512 overflows. */
#define MONITOR_POLL_MS 200

struct event {
	unsigned long long seq;
	long long t, ms;
	char name[1100], type[16], status[16], ede[16];
	int cached;
};

static bool parse_event(const char *line, struct event *e)
{
	return sscanf(line,
		      "q seq=%llu t=%lld name=%1099s type=%15s status=%15s "
		      "ede=%15s ms=%lld cached=%d",
		      &e->seq, &e->t, e->name, e->type, e->status, e->ede,
		      &e->ms, &e->cached) == 8;
}

static void print_event(const struct event *e, bool json)
{
	char when[24];
	int ede = strcmp(e->ede, "-") ? atoi(e->ede) : -1;
	time_t secs = (time_t)(e->t / 1000);
	struct tm tm;

	gmtime_r(&secs, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (json) {
		printf("{\"time\":%lld.%03lld,\"name\":", e->t / 1000,
		       e->t % 1000);
		cli_json_str(stdout, e->name);
		printf(",\"type\":\"%s\",\"status\":\"%s\",\"ede\":", e->type,
		       e->status);
		if (ede >= 0) {
			printf("{\"code\":%d,\"name\":", ede);
			cli_json_str(stdout, wire_ede_name((uint16_t)ede));
			printf("}");
		} else {
			printf("null");
		}
		printf(",\"ms\":%lld,\"cached\":%s}\n", e->ms,
		       e->cached ? "true" : "false");
		return;
	}
	printf("%s.%03lldZ %-13s %s %s", when, e->t % 1000, e->status, e->name,
	       e->type);
	if (ede >= 0)
		printf(" EDE %d (%s)", ede, wire_ede_name((uint16_t)ede));
	if (e->cached)
		printf(", from the cache\n");
	else
		printf(", %lld ms\n", e->ms);
}

/* Prints the events of one answer; returns the number to ask from next
 * (0 when the answer says none), counting the questions shown. */
static unsigned long long show(const struct cli_txt *t,
			       const struct cli_admin_opts *o, long *shown)
{
	unsigned long long next = 0, missed;

	for (size_t i = 0; i < t->n; i++) {
		struct event e;

		if (o->count && *shown >= o->count)
			break;
		if (parse_event(t->line[i], &e)) {
			print_event(&e, o->json);
			(*shown)++;
			next = e.seq + 1;
		} else if (sscanf(t->line[i], "missed=%llu", &missed) == 1) {
			fprintf(stderr,
				"dnstrust monitor: %llu questions missed\n",
				missed);
		} else {
			sscanf(t->line[i], "next=%llu", &next);
		}
	}
	fflush(stdout);
	return next;
}

/* Asks FROM.monitor.dnstrust. (monitor.dnstrust. when from is 0). */
static int ask(struct cli_daemon *d, unsigned long long from,
	       struct cli_txt *ret)
{
	char name[64];

	if (from)
		snprintf(name, sizeof(name), "%llu.monitor.dnstrust.", from);
	else
		snprintf(name, sizeof(name), "monitor.dnstrust.");
	return cli_admin_ask(d, "monitor", name, ret);
}

int cmd_monitor(int argc, char **argv)
{
	struct timespec poll = {0, MONITOR_POLL_MS * 1000000L};
	struct cli_admin_opts o;
	unsigned long long from = 0, next;
	struct cli_daemon d;
	struct cli_txt t;
	long shown = 0;
	int first = cli_admin_opts(argc, argv, CLI_OPT_JSON | CLI_OPT_COUNT,
				   &o),
	    r;

	if (first < 0 || first != argc) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust monitor [--json] [--count N] "
			"[--socket PATH]\n");
		if (first == -2)
			cli_options_help(stdout, "json count socket");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	r = cli_daemon_open(&d, o.socket);
	while (r == 0 && (!o.count || shown < o.count)) {
		if ((r = ask(&d, from, &t)) != 0)
			break;
		next = show(&t, &o, &shown);
		cli_txt_free(&t);
		if (next)
			from = next;
		if (!o.count || shown < o.count)
			nanosleep(&poll, NULL);
	}
	cli_daemon_close(&d);
	return r;
}
