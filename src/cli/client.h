/* SPDX-License-Identifier: MIT */
/*
 * The subcommands that ask dnstrustd (query, status, tlsa, sshfp, flush,
 * reload): one libdnstrust context per run, libdnstrust's errors turned
 * into messages and exit codes, administrative TXT answers read as lines,
 * and the answer to one question as the command shows it.
 */
#ifndef DT_CLI_CLIENT_H
#define DT_CLI_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dnstrust.h"

struct wire_msg;

/* The daemon as this run reaches it. */
struct cli_daemon {
	dt_ctx_t *ctx;
	const char *socket; /* the path asked (for messages) */
	bool in_process;    /* --in-process: DT_MODE_INPROCESS */
};

/*
 * Opens a context on socket (NULL: the default path). Returns 0, or
 * prints why and returns CLI_EXIT_USAGE (path too long) or
 * CLI_EXIT_INPUT (out of memory).
 */
int cli_daemon_open(struct cli_daemon *d, const char *socket);

/* The context answers in-process (--in-process): DT_MODE_INPROCESS. */
void cli_daemon_in_process(struct cli_daemon *d);

void cli_daemon_close(struct cli_daemon *d);

/* True for the errors that mean "no trusted daemon answered": the socket
 * is absent or refused, its peer is not trusted, it did not answer in
 * time, or its answer made no sense. */
bool cli_err_unavailable(int err);

/* Prints "dnstrust CMD: ..." for a libdnstrust error to stderr and returns
 * the exit code it stands for. */
int cli_err_report(const struct cli_daemon *d, const char *cmd, int err);

/* The exit code of a trust status alone (secure 0, insecure 1, bogus 2,
 * anything else 3). */
int cli_exit_of_status(enum dt_status status);

/* The answer to an administrative name: its TXT lines (each record's
 * character-strings joined), RCODE and EDE. */
struct cli_txt {
	char **line;
	size_t n;
	int rcode;
	int ede; /* -1: none */
	char ede_text[256];
};

/* Asks for name in class CH, type TXT. Returns 0 and fills *ret (free with
 * cli_txt_free), or a libdnstrust error. */
int cli_txt_get(struct cli_daemon *d, const char *name, struct cli_txt *ret);

void cli_txt_free(struct cli_txt *t);

/* The value of key in t's key=value lines, or NULL. */
const char *cli_txt_value(const struct cli_txt *t, const char *key);

/* The character-strings of TXT RDATA joined into a new NUL-terminated
 * string (NULL when out of memory). */
char *cli_txt_join(const uint8_t *rdata, size_t len);

/*
 * The answer to one question as the command shows it. When the daemon's
 * answer to the question as asked withholds the records (bogus without
 * --cd, anything but secure with --require-secure), the question is
 * asked again with CD=1 to learn the status and the reason, and the
 * records are not shown.
 */
struct cli_answer {
	char qname[1024]; /* presentation form, as given */
	uint16_t qclass, qtype;
	unsigned flags; /* DT_FLAG_* of the question as asked */
	int err;	/* libdnstrust's answer to it: 0,
			   DT_ERR_BOGUS or DT_ERR_NOT_SECURE */
	int rcode;	/* as the daemon answered the question asked */
	enum dt_status status;
	int ede; /* -1: none */
	char ede_text[256];
	bool cached;
	bool in_process; /* answered in this process, not by dnstrustd */
	struct wire_msg *msg; /* the answer received, NULL when none */
	const char *withheld; /* why the records are not shown, or NULL */
};

/*
 * Asks qname (presentation form) with DT_FLAG_* flags. Returns 0 and
 * fills *ret (free with cli_answer_free), or a libdnstrust error
 * (unavailable, untrusted, timeout, invalid, out of memory, protocol).
 */
int cli_answer_get(struct cli_daemon *d, const char *qname, uint16_t qclass,
		   uint16_t qtype, unsigned flags, struct cli_answer *ret);

void cli_answer_free(struct cli_answer *a);

/* What the answer says about the question: "answer", "nxdomain", "nodata"
 * (the name exists without records of the type), or "error" (no usable
 * answer: SERVFAIL, REFUSED...). */
const char *cli_answer_result(const struct cli_answer *a);

/* The exit code of an answer: bogus 2 and indeterminate 3 first, then
 * not found 5 (NXDOMAIN, NODATA), then secure 0 or insecure 1; a question
 * the daemon refused (REFUSED, NOTIMP, FORMERR) is an input error. */
int cli_answer_exit(const struct cli_answer *a);

/* dig-like text: header, flags, the trust status, cache, EDE, and the
 * sections (unless withheld). */
void cli_answer_print_text(const struct cli_answer *a, FILE *f);

/* The answer's JSON members, without the enclosing braces (the caller
 * may add more). */
void cli_answer_print_json(const struct cli_answer *a, FILE *f);

/* "NOERROR", "SERVFAIL"... or "RCODEnn". Static or in buf. */
const char *cli_rcode_str(int rcode, char buf[16]);

#endif
