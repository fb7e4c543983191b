/* SPDX-License-Identifier: MIT */
/*
 * dnstrust status, flush and reload: the daemon's administrative names
 * (docs/PROTOCOL.md §5), class CH, type TXT.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "common/protocol.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* dnstrust reload asks for the verdict this often, for this long (a
 * reload reads a few small files: well under a second). */
#define CLI_RELOAD_POLL_MS 50
#define CLI_RELOAD_WAIT_MS 30000

/* flush --bogus and flush --negative (docs/PROTOCOL.md §5). */
#define ADMIN_FLUSH_BOGUS "flush-bogus.dnstrust."
#define ADMIN_FLUSH_NEGATIVE "flush-negative.dnstrust."

static const struct option admin_longopts[] = {
	{"json", no_argument, NULL, CLI_OPT_JSON},
	{"reset", no_argument, NULL, CLI_OPT_RESET},
	{"bogus", no_argument, NULL, 'b'},
	{"negative", no_argument, NULL, 'n'},
	{"until", required_argument, NULL, CLI_OPT_UNTIL},
	{"count", required_argument, NULL, CLI_OPT_COUNT},
	{"socket", required_argument, NULL, 's'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* Takes option c (a CLI_OPT_* bit, or 'b' or 'n'). Returns 0 or -1. */
static int admin_opt(int c, unsigned accept, struct cli_admin_opts *o)
{
	char *end;

	if (c == 'b' || c == 'n') {
		if (!(accept & CLI_OPT_FLUSH) || o->bogus || o->negative)
			return -1; /* one of them */
		*(c == 'b' ? &o->bogus : &o->negative) = true;
		return 0;
	}
	if (!(accept & (unsigned)c))
		return -1;
	switch (c) {
	case CLI_OPT_JSON: o->json = true; break;
	case CLI_OPT_RESET: o->reset = true; break;
	case CLI_OPT_UNTIL: o->until = optarg; break;
	case CLI_OPT_COUNT:
		o->count = strtol(optarg, &end, 10);
		if (*end || end == optarg || o->count <= 0) {
			fprintf(stderr,
				"dnstrust: --count takes a whole number of 1 "
				"or more, not '%s'\n",
				optarg);
			return -1;
		}
		break;
	}
	return 0;
}

int cli_admin_opts(int argc, char **argv, unsigned accept,
		   struct cli_admin_opts *o)
{
	int c;

	*o = (struct cli_admin_opts){0};
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", admin_longopts, NULL)) != -1) {
		if (c == 'h')
			return -2;
		if (c == 's')
			o->socket = optarg;
		else if (c == '?' || admin_opt(c, accept, o) < 0)
			return -1;
	}
	return optind;
}

int cli_admin_ask(struct cli_daemon *d, const char *cmd, const char *name,
		  struct cli_txt *ret)
{
	int r = cli_txt_get(d, name, ret), code;

	if (r < 0)
		return cli_err_report(d, cmd, r);
	if (ret->rcode == WIRE_RCODE_NOERROR)
		return 0;
	code = cli_admin_refused(cmd, ret);
	cli_txt_free(ret);
	return code;
}

/* --- status --- */

static bool is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n < 19 && s[n] == '\0';
}

/* The key of a key=value line (length), or 0 when there is no '='. */
static size_t key_len(const char *line)
{
	const char *eq = strchr(line, '=');

	return eq ? (size_t)(eq - line) : 0;
}

static bool same_key(const char *a, const char *b)
{
	size_t n = key_len(a);

	return n && n == key_len(b) && strncmp(a, b, n) == 0;
}

/* Keys that may appear several times are always arrays in JSON. */
static bool is_list_key(const char *line, const struct cli_txt *t)
{
	size_t count = 0;

	if (strncmp(line, "upstream=", 9) == 0 ||
	    strncmp(line, "route=", 6) == 0 ||
	    strncmp(line, "trust-anchor=", 13) == 0)
		return true;
	for (size_t i = 0; i < t->n; i++)
		count += same_key(line, t->line[i]);
	return count > 1;
}

static void json_value(const char *v)
{
	if (is_number(v))
		printf("%s", v);
	else
		cli_json_str(stdout, v);
}

/* One member: a key met for the first time, with all its values. */
static void json_member(const struct cli_txt *t, size_t i, bool *first)
{
	const char *line = t->line[i];
	size_t n = key_len(line);
	bool list = is_list_key(line, t);

	for (size_t k = 0; k < i; k++)
		if (same_key(line, t->line[k]))
			return;
	printf("%s\"%.*s\":%s", *first ? "" : ",", (int)n, line,
	       list ? "[" : "");
	*first = false;
	for (size_t k = i, m = 0; k < t->n; k++) {
		if (!same_key(line, t->line[k]))
			continue;
		printf("%s", m++ ? "," : "");
		json_value(t->line[k] + n + 1);
		if (!list)
			break;
	}
	printf("%s", list ? "]" : "");
}

/* One "upstream-dnssec=ADDR key=value... reason=TEXT" line as an object:
 * "address", each key, and "reason" (the rest of the line). */
static void json_upstream(const char *v)
{
	const char *reason = strstr(v, " reason=");
	size_t end = reason ? (size_t)(reason - v) : strlen(v);
	size_t n = strcspn(v, " ");
	char word[128];

	snprintf(word, sizeof(word), "%.*s", (int)n, v);
	printf("{\"address\":");
	cli_json_str(stdout, word);
	for (size_t i = n; i < end;) {
		size_t k = strcspn(v + i + 1, " "), eq;

		snprintf(word, sizeof(word), "%.*s",
			 (int)(i + 1 + k <= end ? k : end - i - 1), v + i + 1);
		i += 1 + k;
		eq = strcspn(word, "=");
		if (!word[eq])
			continue;
		word[eq] = '\0';
		printf(",");
		cli_json_str(stdout, word);
		printf(":");
		cli_json_str(stdout, word + eq + 1);
	}
	if (reason) {
		printf(",\"reason\":");
		cli_json_str(stdout, reason + 8);
	}
	printf("}");
}

static const char UPSTREAM_DNSSEC[] = "upstream-dnssec=";

static bool is_upstream_dnssec(const char *line)
{
	return strncmp(line, UPSTREAM_DNSSEC, sizeof(UPSTREAM_DNSSEC) - 1) ==
	       0;
}

/* "upstreams": what each resolv.conf server can do. */
static void json_upstreams(const struct cli_txt *t)
{
	size_t m = 0;

	printf(",\"upstreams\":[");
	for (size_t i = 0; i < t->n; i++) {
		if (!is_upstream_dnssec(t->line[i]))
			continue;
		printf("%s", m++ ? "," : "");
		json_upstream(t->line[i] + sizeof(UPSTREAM_DNSSEC) - 1);
	}
	printf("]");
}

static void status_json(const struct cli_daemon *d, const struct cli_txt *t,
			int err)
{
	bool first = true;

	printf("{\"socket\":");
	cli_json_str(stdout, d->socket);
	printf(",\"reachable\":%s,\"trusted\":%s",
	       err == 0 || err == DT_ERR_UNTRUSTED ? "true" : "false",
	       err == 0 ? "true" : "false");
	if (err) {
		printf(",\"error\":");
		cli_json_str(stdout, dt_error_str(err));
		printf("}\n");
		return;
	}
	for (size_t i = 0; i < t->n; i++)
		if (strncmp(t->line[i], "resolution=", 11) == 0) {
			printf(",\"resolution\":");
			cli_json_str(stdout, t->line[i] + 11);
		}
	printf(",\"status\":{");
	for (size_t i = 0; i < t->n; i++) {
		/* resolution is at the top, once; so are the upstreams. */
		if (key_len(t->line[i]) && !is_upstream_dnssec(t->line[i]) &&
		    strncmp(t->line[i], "resolution=", 11) != 0)
			json_member(t, i, &first);
	}
	printf("}");
	json_upstreams(t);
	printf("}\n");
}

static void status_text(const struct cli_daemon *d, const struct cli_txt *t)
{
	printf("%-20s reachable and trusted at %s\n", "daemon:", d->socket);
	for (size_t i = 0; i < t->n; i++) {
		size_t n = key_len(t->line[i]);
		if (!n) {
			printf("%s\n", t->line[i]);
			continue;
		}
		printf("%.*s:%*s %s\n", (int)n, t->line[i],
		       n < 19 ? (int)(19 - n) : 0, "", t->line[i] + n + 1);
	}
}

/* Without the daemon: whether a program could validate in-process
 * (DT_MODE_INPROCESS: dnstrust.conf and the anchors readable; nothing is
 * sent to the network to learn it). */
static void status_in_process(struct cli_daemon *d)
{
	dt_ctx_set_mode(d->ctx, DT_MODE_INPROCESS);
	if (dt_trust_available(d->ctx) &&
	    dt_last_mode() == DT_MODE_INPROCESS)
		printf("in-process: available (dnstrust query --in-process, "
		       "DT_MODE_INPROCESS or DT_MODE_AUTO)\n");
	else
		printf("in-process: unavailable (dnstrust.conf or the trust "
		       "anchors cannot be read)\n");
}

int cmd_status(int argc, char **argv)
{
	struct cli_admin_opts o;
	struct cli_daemon d;
	struct cli_txt t;
	int first = cli_admin_opts(argc, argv, CLI_OPT_JSON, &o);

	if (first == -2 || first < 0 || first != argc) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust status [--json] [--socket PATH]\n");
		if (first == -2)
			cli_options_help(stdout, "json socket");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	int r = cli_daemon_open(&d, o.socket);
	if (r)
		return r;
	int err = cli_txt_get(&d, DT_PROTO_ADMIN_STATUS, &t);
	if (err == 0 && t.rcode != WIRE_RCODE_NOERROR) {
		cli_txt_free(&t);
		err = DT_ERR_PROTOCOL;
	}
	if (o.json)
		status_json(&d, &t, err);
	if (err == 0 && !o.json)
		status_text(&d, &t);
	r = err ? cli_err_report(&d, "status", err) : 0;
	if (err == 0)
		cli_txt_free(&t);
	if (cli_err_unavailable(err) && !o.json)
		status_in_process(&d);
	cli_daemon_close(&d);
	return r;
}

/* --- flush and reload --- */

/* NAME.flush.dnstrust. (flush.dnstrust. for the root) into buf. Returns 0
 * or -1 for a bad or too long name. */
static int flush_name(const char *name, char *buf, size_t len)
{
	uint8_t wire[DT_NAME_MAXLEN];
	char text[DT_NAME_TEXT_MAXLEN];

	if (!name || strcmp(name, ".") == 0) {
		snprintf(buf, len, "%s", DT_PROTO_ADMIN_FLUSH);
		return 0;
	}
	if (wire_dname_from_str(name, strlen(name), (const uint8_t *)"", wire) <
		    0 ||
	    wire_dname_to_str(wire, text, sizeof(text)) < 0)
		return -1;
	snprintf(buf, len, "%s%s", text, DT_PROTO_ADMIN_FLUSH);
	return wire_dname_from_str(buf, strlen(buf), NULL, wire) < 0 ? -1 : 0;
}

static void print_flushed(const struct cli_txt *t)
{
	for (size_t i = 0; i < t->n; i++) {
		unsigned long long n;
		char below[DT_NAME_TEXT_MAXLEN], kind[16];
		if (sscanf(t->line[i], "flushed=%llu below=%1023s", &n,
			   below) == 2)
			printf("flushed %llu cache entr%s at and below %s\n", n,
			       n == 1 ? "y" : "ies", below);
		else if (sscanf(t->line[i], "flushed=%llu kind=%15s", &n,
				kind) == 2)
			printf("flushed %llu %s answer%s\n", n, kind,
			       n == 1 ? "" : "s");
		else
			printf("%s\n", t->line[i]);
	}
}

int cmd_flush(int argc, char **argv)
{
	struct cli_admin_opts o;
	char name[DT_NAME_TEXT_MAXLEN + 32];
	struct cli_daemon d;
	struct cli_txt t;
	int first = cli_admin_opts(argc, argv, CLI_OPT_FLUSH, &o);
	const char *kind = o.bogus	? ADMIN_FLUSH_BOGUS
			   : o.negative ? ADMIN_FLUSH_NEGATIVE
					: NULL;

	/* NAME.flush.dnstrust.: 15 octets more than NAME. */
	if (first >= 0 && argc - first == 1 &&
	    cli_name_check("flush", "name", argv[first], 15) < 0)
		return CLI_EXIT_USAGE;
	if (first < 0 || argc - first > 1 || (kind && argc > first) ||
	    flush_name(argc > first ? argv[first] : NULL, name, sizeof(name)) <
		    0) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust flush [NAME | --bogus | --negative] "
			"[--socket PATH]\n");
		if (first == -2)
			cli_options_help(stdout, "bogus negative socket");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	if (kind)
		snprintf(name, sizeof(name), "%s", kind);
	int r = cli_daemon_open(&d, o.socket);
	if (r == 0 && (r = cli_admin_ask(&d, "flush", name, &t)) == 0) {
		print_flushed(&t);
		cli_txt_free(&t);
	}
	cli_daemon_close(&d);
	return r;
}

/* The id of the reload the daemon took on, from "reload=requested id=N";
 * 0 when it did not say. */
static unsigned reload_id(const struct cli_txt *t)
{
	unsigned id = 0;

	for (size_t i = 0; i < t->n; i++)
		if (sscanf(t->line[i], "reload=requested id=%u", &id) == 1)
			return id;
	return 0;
}

/* How the reload covering request id went: 1 done ("last-reload=N ok"
 * or "... refused: REASON" with N >= id; *ret_reason set, NULL when it
 * was taken), 0 not yet, or a libdnstrust error. */
static int reload_verdict(struct cli_daemon *d, unsigned id,
			  char *reason, size_t len, const char **ret_reason)
{
	struct cli_txt t;
	int r = cli_txt_get(d, DT_PROTO_ADMIN_STATUS, &t), done = 0;

	if (r < 0)
		return r;
	for (size_t i = 0; i < t.n && !done; i++) {
		unsigned n;
		int off = 0;
		if (sscanf(t.line[i], "last-reload=%u %n", &n, &off) != 1 ||
		    !off || (int)(n - id) < 0)
			continue;
		const char *v = t.line[i] + off;
		done = 1;
		*ret_reason = NULL;
		if (strncmp(v, "refused: ", 9) == 0) {
			snprintf(reason, len, "%s", v + 9);
			*ret_reason = reason;
		}
	}
	cli_txt_free(&t);
	return done;
}

/* Polls the daemon's status until the reload of id is done. Returns the
 * exit code. */
static int reload_wait(struct cli_daemon *d, unsigned id)
{
	struct timespec pause = {0, CLI_RELOAD_POLL_MS * 1000000L};
	char reason[1024];
	const char *why = NULL;

	for (int i = 0; i < CLI_RELOAD_WAIT_MS / CLI_RELOAD_POLL_MS; i++) {
		int r = reload_verdict(d, id, reason, sizeof(reason), &why);
		if (r < 0)
			return cli_err_report(d, "reload", r);
		if (r > 0 && why) {
			fprintf(stderr,
				"dnstrust reload: refused, dnstrustd keeps "
				"its running configuration: %s\n",
				why);
			return CLI_EXIT_INPUT;
		}
		if (r > 0) {
			printf("reloaded: dnstrustd read dnstrust.conf, its "
			       "trust anchors and resolv.conf again\n");
			return 0;
		}
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "dnstrust reload: no verdict from dnstrustd within "
			"%d s\n", CLI_RELOAD_WAIT_MS / 1000);
	return CLI_EXIT_UNAVAILABLE;
}

int cmd_reload(int argc, char **argv)
{
	struct cli_admin_opts o;
	struct cli_daemon d;
	struct cli_txt t;
	int first = cli_admin_opts(argc, argv, 0, &o);

	if (first < 0 || first != argc) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust reload [--socket PATH]\n"
			"Makes dnstrustd read its configuration, trust anchors "
			"and resolv.conf again,\nwaits for its verdict, and "
			"fails with the reason if it refused the files.\n");
		if (first == -2)
			cli_options_help(stdout, "socket");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	int r = cli_daemon_open(&d, o.socket);
	if (r == 0 && (r = cli_admin_ask(&d, "reload", DT_PROTO_ADMIN_RELOAD,
					 &t)) == 0) {
		unsigned id = reload_id(&t);
		cli_txt_free(&t);
		if (id)
			r = reload_wait(&d, id);
		else
			printf("reload requested: dnstrustd reads "
			       "dnstrust.conf, its trust anchors and "
			       "resolv.conf again\n");
	}
	cli_daemon_close(&d);
	return r;
}
