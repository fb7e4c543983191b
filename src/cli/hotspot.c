/* SPDX-License-Identifier: MIT */
/*
 * dnstrust hotspot [--minutes N] | --done | --status: a bounded sign-on
 * at a captive portal (docs/PROTOCOL.md §5, hotspot.dnstrust.).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "common/limits.h"
#include "common/protocol.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrust hotspot [--minutes N] [--socket PATH]\n"
		"       dnstrust hotspot --done [--socket PATH]\n"
		"       dnstrust hotspot --status [--socket PATH]\n"
		"For N minutes (default %d, at most %d) names not shown to be "
		"signed are\nanswered unvalidated, so that a captive portal can "
		"be reached; --done ends it.\n",
		DT_DMN_HOTSPOT_DEFAULT_MIN, DT_DMN_HOTSPOT_MAX_MIN);
}

static void print(const struct cli_txt *t)
{
	for (size_t i = 0; i < t->n; i++)
		printf("%s\n", t->line[i]);
}

int cmd_hotspot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"minutes", required_argument, NULL, 'm'},
		{"done", no_argument, NULL, 'd'},
		{"status", no_argument, NULL, 'S'},
		{"socket", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *socket = NULL;
	long minutes = DT_DMN_HOTSPOT_DEFAULT_MIN;
	bool done = false, status = false, has_minutes = false;
	char name[64], *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			minutes = strtol(optarg, &end, 10);
			if (*end || end == optarg || minutes < 1 ||
			    minutes > DT_DMN_HOTSPOT_MAX_MIN) {
				fprintf(stderr,
					"dnstrust hotspot: --minutes takes 1 "
					"to %d\n",
					DT_DMN_HOTSPOT_MAX_MIN);
				return CLI_EXIT_USAGE;
			}
			has_minutes = true;
			break;
		case 'd': done = true; break;
		case 'S': status = true; break;
		case 's': socket = optarg; break;
		case 'h':
			usage(stdout);
			cli_options_help(stdout, "minutes done status socket");
			return 0;
		default: usage(stderr); return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc || done + status + has_minutes > 1) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (status)
		snprintf(name, sizeof(name), "%s", DT_PROTO_ADMIN_HOTSPOT);
	else if (done)
		snprintf(name, sizeof(name), "done.%s", DT_PROTO_ADMIN_HOTSPOT);
	else
		snprintf(name, sizeof(name), "%ld.%s", minutes,
			 DT_PROTO_ADMIN_HOTSPOT);

	struct cli_daemon d;
	struct cli_txt t;
	int r = cli_daemon_open(&d, socket);
	if (r == 0 && (r = cli_admin_ask(&d, "hotspot", name, &t)) == 0) {
		print(&t);
		cli_txt_free(&t);
	}
	cli_daemon_close(&d);
	return r;
}
