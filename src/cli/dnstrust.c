/* SPDX-License-Identifier: MIT */
/*
 * dnstrust: the administrator's command (see dnstrust(1)).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: dnstrust COMMAND [ARGS]\n"
		   "commands:\n"
		   "  verify   validate records offline (dnstrust verify "
		   "--help)\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "verify") == 0)
		return cmd_verify(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "dnstrust: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
