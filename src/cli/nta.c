/* SPDX-License-Identifier: MIT */
/*
 * dnstrust nta add|remove|list: negative trust anchors set at run time
 * (RFC 7646), kept by dnstrustd across restarts (docs/PROTOCOL.md §5).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define NTA_LIST   "nta.dnstrust."
#define NTA_ADD	   "nta-add.dnstrust."
#define NTA_REMOVE "nta-remove.dnstrust."

/* Seconds in the units of a duration (--until 12h). */
static const struct {
	char unit;
	int64_t secs;
} units[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}, {'w', 604800}};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrust nta add DOMAIN [--until WHEN] [--json] "
		"[--socket PATH]\n"
		"       dnstrust nta remove DOMAIN [--json] [--socket PATH]\n"
		"       dnstrust nta list [--json] [--socket PATH]\n"
		"WHEN is YYYY-MM-DD (00:00 UTC), YYYYMMDDHHMMSS (UTC), or "
		"a duration: 30m, 12h, 2d, 1w.\n");
}

/* A duration "12h" into seconds, or -1. */
static int64_t duration(const char *s)
{
	char *end;
	long long n = strtoll(s, &end, 10);

	if (end == s || n <= 0 || n > 100000 || end[0] == '\0' || end[1])
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i].unit == end[0])
			return n * units[i].secs;
	return -1;
}

/* --until WHEN into seconds since the epoch. Returns 0 or -1. */
static int parse_until(const char *s, int64_t *ret)
{
	int64_t d = duration(s);
	char compact[16];
	int y, m, day;

	if (d > 0) {
		*ret = (int64_t)time(NULL) + d;
		return 0;
	}
	if (strlen(s) == 10 && sscanf(s, "%4d-%2d-%2d", &y, &m, &day) == 3) {
		snprintf(compact, sizeof(compact), "%04d%02d%02d000000", y, m,
			 day);
		return cli_parse_time(compact, ret);
	}
	return strlen(s) == 14 ? cli_parse_time(s, ret) : -1;
}

/* DOMAIN in text form, checked and fully qualified, into buf. */
static int domain_text(const char *arg, char *buf, size_t len)
{
	uint8_t wire[DT_NAME_MAXLEN];

	if (wire_dname_from_str(arg, strlen(arg), (const uint8_t *)"", wire) <
		    0 ||
	    wire[0] == 0)
		return -1;
	return wire_dname_to_str(wire, buf, len) < 0 ? -1 : 0;
}

static const char *when_str(long long until, char buf[24])
{
	return until ? cli_time_str(until, buf) : "no end";
}

/* The exit code of what the daemon said to add or remove. */
static int change_code(const struct cli_txt *t, bool add)
{
	if (cli_txt_value(t, "error"))
		return CLI_EXIT_INPUT;
	if (!add && cli_txt_value(t, "removed") &&
	    strtol(cli_txt_value(t, "removed"), NULL, 10) == 0)
		return CLI_EXIT_NOT_FOUND;
	return 0;
}

static void json_str_or_null(const char *s)
{
	if (s)
		cli_json_str(stdout, s);
	else
		printf("null");
}

/* {"domain":...,"action":"add","until":N|null,"error":...,
 * "warning":...,"exit":N}. Returns the exit code. */
static int report_json(const struct cli_txt *t, const char *domain, bool add)
{
	int code = change_code(t, add);
	long long u = 0;

	for (size_t i = 0; i < t->n; i++)
		if (sscanf(t->line[i], "nta=%*s until=%lld", &u) == 1)
			break;
	printf("{\"domain\":");
	cli_json_str(stdout, domain);
	printf(",\"action\":\"%s\"", add ? "add" : "remove");
	if (add && u)
		printf(",\"until\":%lld", u);
	else if (add)
		printf(",\"until\":null");
	printf(",\"error\":");
	json_str_or_null(cli_txt_value(t, "error"));
	printf(",\"warning\":");
	json_str_or_null(cli_txt_value(t, "warning"));
	printf(",\"exit\":%d}\n", code);
	return code;
}

/* Prints what the daemon said; returns the exit code. */
static int report(const struct cli_txt *t, const char *domain, bool add)
{
	const char *err = cli_txt_value(t, "error"), *warn = cli_txt_value(t, "warning");
	char when[24];

	if (err) {
		fprintf(stderr, "dnstrust nta: %s\n", err);
		return CLI_EXIT_INPUT;
	}
	if (!add && cli_txt_value(t, "removed") &&
	    strtol(cli_txt_value(t, "removed"), NULL, 10) == 0) {
		fprintf(stderr,
			"dnstrust nta: no negative trust anchor for %s was "
			"added at run time\n",
			domain);
		return CLI_EXIT_NOT_FOUND;
	}
	for (size_t i = 0; add && i < t->n; i++) {
		long long u;
		if (sscanf(t->line[i], "nta=%*s until=%lld", &u) == 1)
			printf("negative trust anchor %s until %s: answers at "
			       "and below it are not validated\n",
			       domain, when_str(u, when));
	}
	if (!add)
		printf("negative trust anchor %s removed: answers at and "
		       "below it are validated again\n",
		       domain);
	if (warn)
		fprintf(stderr, "dnstrust nta: warning: %s\n", warn);
	return 0;
}

static int nta_change(struct cli_daemon *d, const char *arg,
		      const struct cli_admin_opts *o, bool add)
{
	char domain[DT_NAME_TEXT_MAXLEN], name[DT_NAME_TEXT_MAXLEN + 64];
	struct cli_txt t;
	int64_t until = 0;
	int r;

	if (domain_text(arg, domain, sizeof(domain)) < 0) {
		fprintf(stderr,
			"dnstrust nta: bad domain '%s' (a name, not "
			"the root)\n",
			arg);
		return CLI_EXIT_USAGE;
	}
	if (o->until && (!add || parse_until(o->until, &until) < 0)) {
		fprintf(stderr, "dnstrust nta: bad --until '%s'\n", o->until);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (add)
		snprintf(name, sizeof(name), "%lld.%s%s", (long long)until,
			 domain, NTA_ADD);
	else
		snprintf(name, sizeof(name), "%s%s", domain, NTA_REMOVE);
	r = cli_admin_ask(d, "nta", name, &t);
	if (r)
		return r;
	r = o->json ? report_json(&t, domain, add) : report(&t, domain, add);
	cli_txt_free(&t);
	return r;
}

static void list_json(const struct cli_txt *t)
{
	bool first = true;

	printf("{\"nta\":[");
	for (size_t i = 0; i < t->n; i++) {
		char domain[DT_NAME_TEXT_MAXLEN], source[16];
		long long until;

		if (sscanf(t->line[i], "nta=%1023s until=%lld source=%15s",
			   domain, &until, source) != 3)
			continue;
		printf("%s{\"domain\":", first ? "" : ",");
		cli_json_str(stdout, domain);
		if (until)
			printf(",\"until\":%lld", until);
		else
			printf(",\"until\":null");
		printf(",\"source\":\"%s\"}", source);
		first = false;
	}
	printf("],\"file\":");
	cli_json_str(stdout, cli_txt_value(t, "file") ? cli_txt_value(t, "file") : "");
	printf("}\n");
}

static void list_text(const struct cli_txt *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		char domain[DT_NAME_TEXT_MAXLEN], source[16], when[24];
		long long until;

		if (sscanf(t->line[i], "nta=%1023s until=%lld source=%15s",
			   domain, &until, source) != 3)
			continue;
		printf("%-40s until %-20s (%s)\n", domain,
		       when_str(until, when),
		       strcmp(source, "config") == 0 ? "dnstrust.conf"
						     : "dnstrust nta add");
		n++;
	}
	if (!n)
		printf("no negative trust anchor: every answer is validated\n");
}

int cmd_nta(int argc, char **argv)
{
	struct cli_admin_opts o;
	struct cli_daemon d;
	struct cli_txt t;
	int first = cli_admin_opts(argc, argv, CLI_OPT_JSON | CLI_OPT_UNTIL,
				   &o),
	    r;
	const char *verb = first >= 0 && first < argc ? argv[first] : "";
	bool add = strcmp(verb, "add") == 0, rm = strcmp(verb, "remove") == 0,
	     list = strcmp(verb, "list") == 0;

	if (first == -2) {
		usage(stdout);
		cli_options_help(stdout, "until json socket");
		return 0;
	}
	if (first < 0 || (!add && !rm && !list) ||
	    argc - first != (list ? 1 : 2) || (o.until && !add)) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	r = cli_daemon_open(&d, o.socket);
	if (r)
		return r;
	if (!list) {
		r = nta_change(&d, argv[first + 1], &o, add);
	} else if ((r = cli_admin_ask(&d, "nta", NTA_LIST, &t)) == 0) {
		if (o.json)
			list_json(&t);
		else
			list_text(&t);
		cli_txt_free(&t);
	}
	cli_daemon_close(&d);
	return r;
}
