/* SPDX-License-Identifier: MIT */
/*
 * Shared by the subcommands of the dnstrust command.
 */
#ifndef DT_CLI_CLI_H
#define DT_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "validator/val.h"

/* Exit status of every subcommand, documented in dnstrust(1). verify and
 * query use them all; status, flush and reload use 0, 64 and 69. */
enum cli_exit {
	CLI_EXIT_SECURE = 0,
	CLI_EXIT_INSECURE = 1,
	CLI_EXIT_BOGUS = 2,
	CLI_EXIT_INDETERMINATE = 3,
	CLI_EXIT_INPUT = 4,	   /* unreadable or malformed input; a
				      question the daemon refuses */
	CLI_EXIT_NOT_FOUND = 5,	   /* NXDOMAIN or NODATA, secure or insecure */
	CLI_EXIT_USAGE = 64,	   /* EX_USAGE */
	CLI_EXIT_UNAVAILABLE = 69, /* EX_UNAVAILABLE: dnstrustd unreachable,
				      silent, or not a trusted peer */
	CLI_EXIT_REFUSED = 77,	   /* EX_NOPERM: the daemon refused an
				      administrative request (not root nor
				      the daemon's user) */
};

/*
 * Names dnstrust query --trace asks the daemon about (DS, and DNSKEY at
 * zone cuts): every name from the trust anchor down to each name of the
 * answer. A chain of DT_VAL_CHAIN_MAX (12) CNAMEs between 10-label names
 * has 130; more than 256 distinct names is no answer worth tracing, and
 * each costs a round trip.
 */
#define CLI_TRACE_MAXNAMES 256

/* An "options:" block on f, one line each for the options named in names
 * (space-separated words among reverse, trace, cd, dnssec, trace-after,
 * require-secure, zone, anchor, time, resolver, question, rcode, until,
 * minutes, done, status, resolv-conf, nsswitch, config, json, socket,
 * count, reset, bogus, negative), then -h. */
void cli_options_help(FILE *f, const char *names);

/* A name typed with letters beyond ASCII in the form DNS asks for:
 * IDNA2008 with the UTS #46 mapping, non-transitional (libidn2), e.g.
 * "bücher.example" -> "xn--bcher-kva.example". An ASCII name is copied
 * as it is (escapes, underscores and all). Returns 1 when converted, 0
 * when copied, or -1 with the reason in why. */
int cli_idn_to_ascii(const char *name, char *ret, size_t retlen, char *why,
		     size_t whylen);

/* Checks that name is a domain name in presentation form, and that extra
 * more octets (labels the command adds in front) still fit. Returns 0, or
 * prints "dnstrust CMD: bad WHAT 'NAME': " and which limit was hit (63
 * octets a label, 255 a name) and returns -1. */
int cli_name_check(const char *cmd, const char *what, const char *name,
		   size_t extra);

/* Writes s as a JSON string literal (quotes and escapes included). */
void cli_json_str(FILE *f, const char *s);

/* Parses YYYYMMDDHHMMSS (UTC) or decimal seconds since the epoch. */
int cli_parse_time(const char *s, int64_t *ret);

/* Writes t (seconds since the epoch) as 2026-11-30T00:00:00Z into buf (at
 * least 24 octets). Returns buf. */
const char *cli_time_str(int64_t t, char buf[24]);

/* The subcommands: argv[0] is the subcommand's name; each returns the exit
 * status of the command. */
int cmd_verify(int argc, char **argv);
int cmd_stub(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_flush(int argc, char **argv);
int cmd_reload(int argc, char **argv);
int cmd_tlsa(int argc, char **argv);
int cmd_sshfp(int argc, char **argv);
int cmd_statistics(int argc, char **argv);
int cmd_log_level(int argc, char **argv);
int cmd_nta(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_hotspot(int argc, char **argv);

struct cli_txt;
/* Says on stderr that dnstrustd answered an administrative name with an
 * error, and returns the exit code: CLI_EXIT_REFUSED when it was refused
 * to this user (REFUSED with EDE 18), else CLI_EXIT_UNAVAILABLE. */
int cli_admin_refused(const char *cmd, const struct cli_txt *t);

struct cli_daemon;
/* Asks the administrative name for command cmd: 0 and *ret when the
 * daemon answered NOERROR, else the exit code after saying why on
 * stderr (cli_err_report, cli_admin_refused). */
int cli_admin_ask(struct cli_daemon *d, const char *cmd, const char *name,
		  struct cli_txt *ret);

/* The options of the administrative commands (status, statistics,
 * log-level, monitor, nta, flush, reload): --socket PATH and --help
 * (-h) for all, the others only for the commands that name them in
 * `accept`. */
enum cli_admin_opt {
	CLI_OPT_JSON = 1u << 0,	 /* --json */
	CLI_OPT_RESET = 1u << 1, /* --reset (statistics) */
	CLI_OPT_FLUSH = 1u << 2, /* --bogus or --negative (flush) */
	CLI_OPT_UNTIL = 1u << 3, /* --until WHEN (nta) */
	CLI_OPT_COUNT = 1u << 4, /* --count N, N > 0 (monitor) */
};

struct cli_admin_opts {
	bool json, reset, bogus, negative;
	long count;	   /* --count; 0 when not given */
	const char *until; /* --until, unparsed */
	const char *socket;
};

/* Parses the options of argv (from argv[1]) into *o, zeroed first.
 * Returns the index of the first operand, -1 on an option not in accept
 * (or a bad --count, or both --bogus and --negative), -2 for --help. */
int cli_admin_opts(int argc, char **argv, unsigned accept,
		   struct cli_admin_opts *o);

/* The exit status of a verdict (verify and verify --zone). */
int cli_exit_code(enum val_status s);

/* dnstrust verify --zone: checks a whole signed zone. */
int cli_verify_zone(const char *origin, const char *const *anchor_files,
		    int nanchors, int64_t now, bool json, int nfiles,
		    char **files);

#endif
