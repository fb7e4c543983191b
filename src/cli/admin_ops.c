/* SPDX-License-Identifier: MIT */
/*
 * dnstrust statistics and dnstrust log-level: administrative names of
 * dnstrustd (docs/PROTOCOL.md §5), class CH, type TXT.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "wire/msg.h"

/* The names these commands ask (docs/PROTOCOL.md §5). */
#define OPS_STATISTICS "statistics.dnstrust."
#define OPS_RESET      "reset.statistics.dnstrust."
#define OPS_LOG_LEVEL  "log-level.dnstrust."

int cli_admin_refused(const char *cmd, const struct cli_txt *t)
{
	char rc[16];

	fprintf(stderr, "dnstrust %s: dnstrustd answered %s", cmd,
		cli_rcode_str(t->rcode, rc));
	if (t->ede >= 0)
		fprintf(stderr, ", EDE %d (%s): %s", t->ede,
			wire_ede_name((uint16_t)t->ede), t->ede_text);
	fprintf(stderr, "\n");
	if (t->rcode == WIRE_RCODE_REFUSED && t->ede == WIRE_EDE_PROHIBITED) {
		fprintf(stderr,
			"dnstrust %s: only root%s the daemon's user%s "
			"may do this\n",
			cmd, strcmp(cmd, "hotspot") ? " or" : ",",
			strcmp(cmd, "hotspot") ? ""
					       : " or a member of hotspot-group");
		return CLI_EXIT_REFUSED;
	}
	return CLI_EXIT_UNAVAILABLE;
}

/* "ede-7=3": the code, or -1 for another key. */
static int ede_code(const char *line)
{
	char *end;
	long code;

	if (strncmp(line, "ede-", 4) != 0 || line[4] < '0' || line[4] > '9')
		return -1;
	code = strtol(line + 4, &end, 10);
	return *end == '=' && code <= 65535 ? (int)code : -1;
}

/* "upstream=ADDR tries=N answers=N timeouts=N errors=N avg-ms=N". */
struct upstream_line {
	char addr[80];
	unsigned long long tries, answers, timeouts, errors, avg_ms;
};

static bool parse_upstream(const char *line, struct upstream_line *u)
{
	return sscanf(line,
		      "upstream=%79s tries=%llu answers=%llu timeouts=%llu "
		      "errors=%llu avg-ms=%llu",
		      u->addr, &u->tries, &u->answers, &u->timeouts, &u->errors,
		      &u->avg_ms) == 6;
}

static void statistics_text(const struct cli_txt *t)
{
	const char *since = cli_txt_value(t, "since");
	char when[24];

	if (since)
		printf("%-24s %s (%s seconds)\n",
		       "since:", cli_time_str(strtoll(since, NULL, 10), when),
		       cli_txt_value(t, "seconds") ? cli_txt_value(t, "seconds") : "?");
	for (size_t i = 0; i < t->n; i++) {
		const char *l = t->line[i], *eq = strchr(l, '=');
		int ede = ede_code(l);
		char label[96];

		struct upstream_line u;

		if (!eq || strncmp(l, "since=", 6) == 0 ||
		    strncmp(l, "seconds=", 8) == 0)
			continue;
		if (parse_upstream(l, &u)) {
			snprintf(label, sizeof(label), "upstream %s:", u.addr);
			printf("%-24s %llu tries, %llu answers, %llu timeouts, "
			       "%llu errors, %llu ms average\n",
			       label, u.tries, u.answers, u.timeouts, u.errors,
			       u.avg_ms);
			continue;
		}
		if (ede >= 0)
			snprintf(label, sizeof(label), "EDE %d (%s):", ede,
				 wire_ede_name((uint16_t)ede));
		else
			snprintf(label, sizeof(label), "%.*s:", (int)(eq - l),
				 l);
		printf("%-24s %s\n", label, eq + 1);
	}
}

static void json_number_or_str(const char *v)
{
	size_t n = strspn(v, "0123456789");

	if (n > 0 && n < 20 && v[n] == '\0')
		printf("%s", v);
	else
		cli_json_str(stdout, v);
}

static void statistics_json(const struct cli_txt *t)
{
	bool first = true, first_ede = true;

	printf("{\"statistics\":{");
	for (size_t i = 0; i < t->n; i++) {
		const char *l = t->line[i], *eq = strchr(l, '=');

		if (!eq || ede_code(l) >= 0 || strncmp(l, "upstream=", 9) == 0)
			continue;
		printf("%s\"%.*s\":", first ? "" : ",", (int)(eq - l), l);
		json_number_or_str(eq + 1);
		first = false;
	}
	printf("%s\"ede\":[", first ? "" : ",");
	for (size_t i = 0; i < t->n; i++) {
		int ede = ede_code(t->line[i]);

		if (ede < 0)
			continue;
		printf("%s{\"code\":%d,\"name\":", first_ede ? "" : ",", ede);
		cli_json_str(stdout, wire_ede_name((uint16_t)ede));
		printf(",\"count\":%s}", strchr(t->line[i], '=') + 1);
		first_ede = false;
	}
	printf("],\"upstreams\":[");
	first = true;
	for (size_t i = 0; i < t->n; i++) {
		struct upstream_line u;

		if (!parse_upstream(t->line[i], &u))
			continue;
		printf("%s{\"server\":", first ? "" : ",");
		cli_json_str(stdout, u.addr);
		printf(",\"tries\":%llu,\"answers\":%llu,\"timeouts\":%llu,"
		       "\"errors\":%llu,\"avg-ms\":%llu}",
		       u.tries, u.answers, u.timeouts, u.errors, u.avg_ms);
		first = false;
	}
	printf("]}}\n");
}

int cmd_statistics(int argc, char **argv)
{
	struct cli_admin_opts o;
	struct cli_daemon d;
	struct cli_txt t;
	int first =
		cli_admin_opts(argc, argv, CLI_OPT_JSON | CLI_OPT_RESET, &o);

	if (first < 0 || first != argc) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust statistics [--reset] [--json] "
			"[--socket PATH]\n");
		if (first == -2)
			cli_options_help(stdout, "reset json socket");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	int r = cli_daemon_open(&d, o.socket);
	if (r == 0 &&
	    (r = cli_admin_ask(&d, "statistics",
			       o.reset ? OPS_RESET : OPS_STATISTICS, &t)) == 0) {
		if (o.json)
			statistics_json(&t);
		else
			statistics_text(&t);
		cli_txt_free(&t);
	}
	cli_daemon_close(&d);
	return r;
}

int cmd_log_level(int argc, char **argv)
{
	static const char *const levels[] = {"error", "warning", "notice",
					     "info", "debug"};
	char name[64];
	struct cli_admin_opts o;
	struct cli_daemon d;
	struct cli_txt t;
	int first = cli_admin_opts(argc, argv, CLI_OPT_JSON, &o);
	bool known = first == argc;

	for (size_t i = 0; first >= 0 && first + 1 == argc &&
			   i < sizeof(levels) / sizeof(levels[0]);
	     i++)
		known = known || strcmp(argv[first], levels[i]) == 0;
	if (first >= 0 && argc - first > 1)
		fprintf(stderr, "dnstrust log-level: one level at most\n");
	else if (first >= 0 && !known)
		fprintf(stderr,
			"dnstrust log-level: unknown level '%s': error, "
			"warning, notice, info or debug\n",
			argv[first]);
	if (first < 0 || argc - first > 1 || !known) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust log-level [error|warning|notice|info|"
			"debug] [--json] [--socket PATH]\n");
		if (first == -2)
			cli_options_help(stdout, "json socket");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	if (first < argc)
		snprintf(name, sizeof(name), "%s.%s", argv[first],
			 OPS_LOG_LEVEL);
	else
		snprintf(name, sizeof(name), "%s", OPS_LOG_LEVEL);
	int r = cli_daemon_open(&d, o.socket);
	if (r == 0 && (r = cli_admin_ask(&d, "log-level", name, &t)) == 0) {
		const char *level = cli_txt_value(&t, "log-level");

		if (o.json) {
			printf("{\"log-level\":");
			cli_json_str(stdout, level ? level : "");
			printf(",\"set\":%s}\n",
			       first < argc ? "true" : "false");
		} else {
			printf("log-level %s%s\n", level ? level : "?",
			       first < argc ? " (until the next reload)" : "");
		}
		cli_txt_free(&t);
	}
	cli_daemon_close(&d);
	return r;
}
