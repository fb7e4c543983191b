/* SPDX-License-Identifier: MIT */
/*
 * Shared by the subcommands of the dnstrust command.
 */
#ifndef DT_CLI_CLI_H
#define DT_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status of `dnstrust verify` (and later of `dnstrust query`),
 * documented in dnstrust(1). */
enum cli_exit {
	CLI_EXIT_SECURE = 0,
	CLI_EXIT_INSECURE = 1,
	CLI_EXIT_BOGUS = 2,
	CLI_EXIT_INDETERMINATE = 3,
	CLI_EXIT_INPUT = 4,	/* unreadable or malformed input */
	CLI_EXIT_USAGE = 64,	/* EX_USAGE */
};

/* Writes s as a JSON string literal (quotes and escapes included). */
void cli_json_str(FILE *f, const char *s);

/* Parses YYYYMMDDHHMMSS (UTC) or decimal seconds since the epoch. */
int cli_parse_time(const char *s, int64_t *ret);

int cmd_verify(int argc, char **argv);

/* dnstrust verify --zone: checks a whole signed zone. */
int cli_verify_zone(const char *origin, const char *const *anchor_files,
		    int nanchors, int64_t now, bool json, int nfiles,
		    char **files);

#endif
