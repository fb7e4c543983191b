/* SPDX-License-Identifier: MIT */
/*
 * dnstrust audit: can DNSSEC results reaching this host's applications be
 * trusted? Looks at resolv.conf, nsswitch.conf's hosts line, the daemon's
 * configuration, its socket and the daemon itself; prints a verdict and
 * every finding with its fix (dnstrust(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "cli/audit.h"
#include "cli/cli.h"
#include "common/errcode.h"
#include "common/file.h"
#include "policy/config.h"

#define NSSWITCH_PATH "/etc/nsswitch.conf"
#define RESOLV_PATH   "/etc/resolv.conf"

struct audit_opts {
	bool json;
	const char *resolv;
	const char *nsswitch;
	const char *config; /* NULL: the default path, which may be
			       absent */
	const char *socket; /* NULL: the configuration's */
};

static void usage(FILE *f)
{
	fprintf(f, "usage: dnstrust audit [--json] [--resolv-conf PATH] "
		   "[--nsswitch PATH]\n"
		   "                      [--config PATH] [--socket PATH]\n"
		   "Can DNSSEC results reaching this host's applications be "
		   "trusted? Exit 0: yes,\n"
		   "1: no (a CRITICAL finding), 64: usage.\n");
}

/* Returns 0, CLI_EXIT_USAGE, or -1 for --help. */
static int parse_opts(int argc, char **argv, struct audit_opts *o)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"resolv-conf", required_argument, NULL, 'r'},
		{"nsswitch", required_argument, NULL, 'n'},
		{"config", required_argument, NULL, 'c'},
		{"socket", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = true; break;
		case 'r': o->resolv = optarg; break;
		case 'n': o->nsswitch = optarg; break;
		case 'c': o->config = optarg; break;
		case 's': o->socket = optarg; break;
		case 'h': return -1;
		default: return CLI_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "dnstrust audit: unexpected argument '%s'\n",
			argv[optind]);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* --- the daemon's configuration --- */

/* Loads it; a file the daemon would refuse is a finding, and then the
 * defaults stand in for it. */
static void load_config(const char *path, struct cfg *c,
			struct audit_report *rep)
{
	char err[512];
	const char *p = path ? path : CFG_DEFAULT_PATH;

	if (cfg_load(p, path != NULL, c, err, sizeof(err)) == 0)
		return;
	cfg_default(c);
	audit_add(rep, AUDIT_CRITICAL, "cfg-error", "dnstrust.conf",
		  "dnstrustd refuses its configuration, and would not start "
		  "or reload with it: %s",
		  err);
	audit_fix(rep, "correct %s (dnstrustd -n -c %s checks it)", p, p);
}

static void daemon_user(const struct cfg *c, struct audit_daemon *d,
			struct audit_report *rep)
{
	struct passwd *pw;

	d->user = c->user;
	if (!c->user[0])
		return;
	if ((pw = getpwnam(c->user))) {
		d->uid = pw->pw_uid;
		d->has_uid = true;
		return;
	}
	audit_add(rep, AUDIT_WARNING, "cfg-user", "dnstrust.conf",
		  "user %s does not exist: dnstrustd would not start", c->user);
	audit_fix(rep, "useradd --system --no-create-home %s", c->user);
}

/* Whether two paths name the same file (by their real paths). */
static bool same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (!realpath(a, ra) || !realpath(b, rb))
		return strcmp(a, b) == 0;
	return strcmp(ra, rb) == 0;
}

/* --- the host's files --- */

static void audit_resolv(const char *path, const struct cfg *c,
			 struct audit_report *rep)
{
	struct audit_resolv_ctx ctx = {
		.path = path,
		.listen = c->listen,
		.nlisten = c->nlisten,
		.daemon_reads_it = same_file(c->resolv_conf, path),
	};
	char *text;
	size_t len;
	int r = audit_resolv_file(path, rep, &text, &len);

	if (r >= 0)
		audit_resolv_text(text, len, &ctx, rep);
	free(text);
}

static void audit_nss(const char *path, struct audit_report *rep)
{
	char *text = NULL;
	size_t len = 0;
	int r = file_read_path(path, AUDIT_NSS_MAXSIZE, &text, &len);

	if (r < 0 && r != -ENOENT && r != -EACCES) {
		audit_add(rep, AUDIT_CRITICAL, "nss-unreadable",
			  "nsswitch.conf",
			  "%s cannot be read (%s): not audited", path,
			  r == DT_ETOOBIG ? "larger than 1 MiB" : strerror(-r));
		return;
	}
	audit_nsswitch(text, len, path, rep);
	free(text);
}

/* --- output --- */

static void print_text(const struct audit_report *rep, const size_t *idx)
{
	bool trusted = audit_worst(rep) < AUDIT_CRITICAL;

	printf("results reaching applications %s (%zu critical, %zu "
	       "warning, %zu info, %zu ok)\n",
	       trusted ? "can be trusted" : "cannot be trusted",
	       audit_count(rep, AUDIT_CRITICAL),
	       audit_count(rep, AUDIT_WARNING), audit_count(rep, AUDIT_INFO),
	       audit_count(rep, AUDIT_OK));
	for (size_t k = 0; k < rep->n; k++) {
		const struct audit_finding *f = &rep->f[idx[k]];
		printf("\n%s %s [%s]\n  %s\n  fix: %s\n",
		       audit_severity_str(f->severity), f->area, f->id,
		       f->message, f->fix[0] ? f->fix : "none needed");
	}
	if (rep->dropped)
		printf("\n%zu more findings not shown (worst: %s)\n",
		       rep->dropped, audit_severity_str(rep->dropped_worst));
}

static void print_json(const struct audit_report *rep, const size_t *idx)
{
	printf("{\"trusted\": %s, \"findings\": [",
	       audit_worst(rep) < AUDIT_CRITICAL ? "true" : "false");
	for (size_t k = 0; k < rep->n; k++) {
		const struct audit_finding *f = &rep->f[idx[k]];
		printf("%s\n  {\"severity\": \"%s\", \"area\": ", k ? "," : "",
		       audit_severity_str(f->severity));
		cli_json_str(stdout, f->area);
		printf(", \"id\": ");
		cli_json_str(stdout, f->id);
		printf(", \"message\": ");
		cli_json_str(stdout, f->message);
		printf(", \"fix\": ");
		cli_json_str(stdout, f->fix);
		printf("}");
	}
	printf("\n]");
	if (rep->dropped)
		printf(", \"dropped\": %zu, \"dropped_worst\": \"%s\"",
		       rep->dropped, audit_severity_str(rep->dropped_worst));
	printf("}\n");
}

/* --- the command --- */

static void run(const struct audit_opts *o, struct cfg *c,
		struct audit_report *rep)
{
	struct audit_daemon d = {0};

	load_config(o->config, c, rep);
	audit_admin_file(o->config ? o->config : CFG_DEFAULT_PATH, rep);
	if (c->trust_anchor_file[0])
		audit_admin_file(c->trust_anchor_file, rep);
	daemon_user(c, &d, rep);
	d.socket = o->socket ? o->socket : c->socket;
	audit_resolv(o->resolv ? o->resolv : RESOLV_PATH, c, rep);
	audit_nss(o->nsswitch ? o->nsswitch : NSSWITCH_PATH, rep);
	audit_daemon(&d, rep);
}

int cmd_audit(int argc, char **argv)
{
	struct audit_opts o = {0};
	struct audit_report *rep;
	struct cfg *c;
	size_t *idx;
	int r = parse_opts(argc, argv, &o);

	if (r) {
		usage(r < 0 ? stdout : stderr);
		if (r < 0)
			cli_options_help(stdout, "json resolv-conf nsswitch "
						 "config socket");
		return r < 0 ? 0 : r;
	}
	rep = calloc(1, sizeof(*rep));
	c = calloc(1, sizeof(*c));
	idx = calloc(AUDIT_MAX_FINDINGS, sizeof(*idx));
	if (!rep || !c || !idx) {
		fprintf(stderr, "dnstrust audit: out of memory\n");
		free(rep);
		free(c);
		free(idx);
		return AUDIT_EXIT_UNTRUSTED;
	}
	run(&o, c, rep);
	audit_order(rep, idx);
	if (o.json)
		print_json(rep, idx);
	else
		print_text(rep, idx);
	r = audit_worst(rep) == AUDIT_CRITICAL ? AUDIT_EXIT_UNTRUSTED
					       : AUDIT_EXIT_TRUSTED;
	free(rep);
	free(c);
	free(idx);
	return r;
}
