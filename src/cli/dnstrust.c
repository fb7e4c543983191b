/* SPDX-License-Identifier: MIT */
/*
 * dnstrust: the administrator's command (see dnstrust(1)).
 */
#include <stdio.h>
#include <string.h>

#include "cli/audit.h"
#include "cli/cli.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"query", cmd_query,
	 "ask dnstrustd; records, status, reason, "
	 "--trace for the chain of trust"},
	{"status", cmd_status,
	 "is dnstrustd there; its upstreams, anchors, "
	 "cache and counters"},
	{"tlsa", cmd_tlsa, "the TLSA records of HOST PORT, only if secure"},
	{"sshfp", cmd_sshfp, "the SSHFP records of HOST, only if secure"},
	{"statistics", cmd_statistics,
	 "counters by status and EDE since start or --reset"},
	{"flush", cmd_flush,
	 "empty the daemon's caches (at and below NAME, "
	 "--bogus, --negative)"},
	{"log-level", cmd_log_level, "show or set the daemon's log level"},
	{"monitor", cmd_monitor,
	 "a live line per question: status, EDE, time, cache"},
	{"nta", cmd_nta,
	 "add, remove or list negative trust anchors at run time"},
	{"reload", cmd_reload, "make the daemon read its files again"},
	{"hotspot", cmd_hotspot,
	 "sign on at a captive portal: names not shown to be signed "
	 "answered unvalidated for a few minutes (--done ends it)"},
	{"audit", cmd_audit,
	 "can DNSSEC results reaching applications be trusted?"},
	{"verify", cmd_verify, "validate records offline, without the daemon"},
	{"stub", cmd_stub,
	 "stub mode: /etc/resolv.conf names dnstrustd (enable, disable, "
	 "status)"},
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrust COMMAND [ARGS]   (dnstrust COMMAND --help)\n"
		"       dnstrust --version | --help\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "See dnstrust(1).\n");
}

static int version(void)
{
	printf("dnstrust %s\n", DT_VERSION);
	return 0;
}

/* The options every subcommand has, taken before its own parsing (up to
 * "--"): --version answers at once; -h is its --help. Returns 1 when
 * answered. */
static int common_opts(int argc, char **argv)
{
	static char help[] = "--help";

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--version") == 0)
			return version() + 1;
		if (strcmp(argv[i], "-h") == 0)
			argv[i] = help;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		if (common_opts(argc - 1, argv + 1))
			return 0;
		return commands[i].run(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0)
		return version();
	fprintf(stderr, "dnstrust: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
