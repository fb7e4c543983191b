/* SPDX-License-Identifier: MIT */
/*
 * dnstrust audit: can DNSSEC results reaching this host's applications be
 * trusted? A report is a list of findings, each a severity, the area it
 * is about, a message, the fix (the exact lines to write) and a short
 * unique id that leads back to one line of code.
 *
 * The checks of what the host's files say (nsswitch.conf's hosts line,
 * resolv.conf's text, the daemon's status lines) are pure functions over
 * text, with the unit test tests/cli/test_audit.c and the fuzz target
 * tests/fuzz/fuzz_nsswitch.c; the checks that look at the file system and
 * ask the daemon are in audit_files.c and audit_daemon.c.
 */
#ifndef DT_CLI_AUDIT_H
#define DT_CLI_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct up_server;

/* Exit status of dnstrust audit (dnstrust(1)); 64 is CLI_EXIT_USAGE. */
enum audit_exit {
	AUDIT_EXIT_TRUSTED = 0,	  /* no CRITICAL finding */
	AUDIT_EXIT_UNTRUSTED = 1, /* at least one CRITICAL finding */
};

/* Ordered: a report's verdict is its worst finding. */
enum audit_severity {
	AUDIT_OK = 0,
	AUDIT_INFO = 1,
	AUDIT_WARNING = 2,
	AUDIT_CRITICAL = 3,
};

/* A host yields about twenty findings; each negative trust anchor of the
 * daemon adds one (DT_CFG_MAX_POLICY, 128, at most). 192 holds both; past
 * it findings are counted as dropped, and a dropped one may be critical,
 * so the verdict takes them into account. */
#define AUDIT_MAX_FINDINGS 192
/* A message quotes at most a hosts line or a path; longer ones are cut. */
#define AUDIT_MESSAGE_MAX 640
/* A fix is one or two lines to write. */
#define AUDIT_FIX_MAX 320
/* nsswitch.conf is read whole; 1 MiB is far past any real one. */
#define AUDIT_NSS_MAXSIZE (1024 * 1024)
/* Sources of one hosts line: real ones have at most six; a line with
 * more than 64 is reported as one that cannot be audited. */
#define AUDIT_NSS_MAX_SOURCES 64
/* A source's name as shown (module names are short: "mdns4_minimal"). */
#define AUDIT_NSS_NAME_MAX 32

struct audit_finding {
	enum audit_severity severity;
	const char *id;	  /* static: "nss-notfound"... */
	const char *area; /* static: "nsswitch.conf"... */
	char message[AUDIT_MESSAGE_MAX];
	char fix[AUDIT_FIX_MAX]; /* "" when there is nothing to do */
};

struct audit_report {
	struct audit_finding f[AUDIT_MAX_FINDINGS];
	size_t n;
	size_t dropped; /* findings past AUDIT_MAX_FINDINGS */
	enum audit_severity dropped_worst;
	bool last_dropped; /* the last audit_add was dropped */
};

/* --- the report (audit_report.c) --- */

/* Adds a finding with its message (printf format) and no fix yet. Text
 * that does not fit is cut. Never fails: past AUDIT_MAX_FINDINGS the
 * finding is counted as dropped. */
__attribute__((format(printf, 5, 6))) void
audit_add(struct audit_report *rep, enum audit_severity sev, const char *id,
	  const char *area, const char *fmt, ...);

/* Sets the fix of the finding added last (printf format); nothing when
 * that one was dropped. */
__attribute__((format(printf, 2, 3))) void audit_fix(struct audit_report *rep,
						     const char *fmt, ...);

/* The worst severity in the report (dropped findings included);
 * AUDIT_OK when it is empty. */
enum audit_severity audit_worst(const struct audit_report *rep);

/* Findings of a severity. */
size_t audit_count(const struct audit_report *rep, enum audit_severity sev);

/* The first finding with this id, or NULL. */
const struct audit_finding *audit_find(const struct audit_report *rep,
				       const char *id);

/*
 * The order to show the findings in (indexes into rep->f, rep->n of
 * them): first those with a fix, in the order to apply them so that no
 * step breaks name resolution (dnstrust.conf and its user, the socket,
 * the daemon, resolv.conf, then nsswitch.conf: applications are sent to
 * dnstrustd only once it answers), each area worst first; then the
 * findings without a fix, worst first.
 */
void audit_order(const struct audit_report *rep, size_t *idx);

/* "OK", "INFO", "WARNING", "CRITICAL". */
const char *audit_severity_str(enum audit_severity sev);

/* --- nsswitch.conf (audit_nsswitch.c) --- */

/* The outcomes of an NSS module, as in nsswitch.conf's [STATUS=ACTION]. */
enum audit_nss_status {
	AUDIT_NSS_SUCCESS = 0,
	AUDIT_NSS_NOTFOUND = 1,
	AUDIT_NSS_UNAVAIL = 2,
	AUDIT_NSS_TRYAGAIN = 3,
	AUDIT_NSS_NSTATUS = 4,
};

enum audit_nss_kind {
	AUDIT_NSS_LOCAL = 0,	   /* files, myhostname...: the host itself */
	AUDIT_NSS_DNSTRUST = 1,	   /* the first dnstrust of the line */
	AUDIT_NSS_UNVALIDATED = 2, /* dns, resolve, mdns4 (its mdns.allow
				      may list any domain), and anything
				      not known to be local */
	AUDIT_NSS_LINKLOCAL = 3,   /* mdns*_minimal: .local names only, by
				      multicast DNS, which DNSSEC does not
				      cover */
};

struct audit_nss_source {
	char name[AUDIT_NSS_NAME_MAX]; /* cut when longer */
	enum audit_nss_kind kind;
	bool stop[AUDIT_NSS_NSTATUS]; /* action RETURN for the status;
					 false: CONTINUE or MERGE */
};

/* A hosts line's sources, as glibc 2.33 and later read the line. */
struct audit_nss_line {
	struct audit_nss_source src[AUDIT_NSS_MAX_SOURCES];
	size_t n;
	bool too_many;	   /* more than AUDIT_NSS_MAX_SOURCES */
	bool syntax_error; /* a bad [STATUS=ACTION]: glibc refuses the
			      whole file and every lookup fails */
	bool cut;	   /* a '[' where a source was expected: glibc
			      ignores the rest of the line */
	bool comment;	   /* a '#' in the line: a source to glibc */
};

/* Parses the sources of a hosts line (the text after "hosts:", len
 * octets, need not be NUL-terminated; a NUL octet ends it). */
void audit_nss_parse(const char *text, size_t len, struct audit_nss_line *ret);

/* Checks nsswitch.conf's text (len octets; NULL when the file does not
 * exist or cannot be read, then glibc uses its built-in hosts line) and
 * adds its findings. path names the file in messages. */
void audit_nsswitch(const char *text, size_t len, const char *path,
		    struct audit_report *rep);

/* --- resolv.conf (audit_resolv.c) --- */

/* What is known about the daemon when resolv.conf's text is checked. */
struct audit_resolv_ctx {
	const char *path;		/* the file, for messages */
	const struct up_server *listen; /* dnstrustd's listeners */
	size_t nlisten;
	bool daemon_reads_it; /* the daemon's resolv-conf is this
				 file: its upstreams */
};

/* Checks resolv.conf's text (len octets; NULL when missing): its
 * nameservers, options trust-ad. */
void audit_resolv_text(const char *text, size_t len,
		       const struct audit_resolv_ctx *ctx,
		       struct audit_report *rep);

/* --- the daemon's status.dnstrust. lines (audit_status.c) --- */

/* Checks the TXT lines of status.dnstrust.: trust anchors, mode,
 * negative trust anchors, upstreams. */
void audit_status(char *const *line, size_t n, struct audit_report *rep);

/* --- the file system (audit_files.c) --- */

/* resolv.conf's owner, modes, directory and whether it is a link managed
 * by another tool. Returns 0 with its text in *ret_text (malloc'd,
 * NUL-terminated, *ret_len octets); 1 when it does not exist (glibc's
 * defaults apply); -1 when it cannot be read (a finding says so). */
int audit_resolv_file(const char *path, struct audit_report *rep,
		      char **ret_text, size_t *ret_len);

/* A file of the daemon's (dnstrust.conf, trust anchors): only root may
 * write it, since it decides what is trusted. Nothing when it does not
 * exist. */
void audit_admin_file(const char *path, struct audit_report *rep);

/* --- the command (audit.c, audit_daemon.c) --- */

/* The daemon as the audit sees it: from its configuration. */
struct audit_daemon {
	const char *socket; /* the socket path */
	const char *user;   /* the config's user; NULL or "": none */
	uid_t uid;	    /* its uid, when has_uid */
	bool has_uid;
};

/* The socket, its directory, the peer and the daemon's status. */
void audit_daemon(const struct audit_daemon *d, struct audit_report *rep);

int cmd_audit(int argc, char **argv);

#endif
