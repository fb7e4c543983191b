/* SPDX-License-Identifier: MIT */
/*
 * dnstrust query: one question to dnstrustd, its answer as dig shows it
 * with the trust status and reason, optionally the chain of trust
 * re-validated offline (see dnstrust(1)).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "cli/trace.h"
#include "wire/dname.h"
#include "wire/rr.h"

struct query_opts {
	const char *name;
	uint16_t type;
	unsigned flags;
	bool json, trace;
	const char *socket;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: dnstrust query NAME [TYPE] [--json] [--trace] "
		   "[--cd] [--dnssec]\n"
		   "                      [--require-secure] [--socket PATH]\n"
		   "TYPE is a mnemonic (A, AAAA, MX, TLSA...) or TYPEnnn; "
		   "default A.\n");
}

static int parse_opts(int argc, char **argv, struct query_opts *o)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"trace", no_argument, NULL, 'T'},
		{"cd", no_argument, NULL, 'c'},
		{"dnssec", no_argument, NULL, 'd'},
		{"require-secure", no_argument, NULL, 'r'},
		{"socket", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = true; break;
		case 'T': o->trace = true; break;
		case 'c': o->flags |= DT_FLAG_RETURN_BOGUS; break;
		case 'd': o->flags |= DT_FLAG_DNSSEC; break;
		case 'r': o->flags |= DT_FLAG_REQUIRE_SECURE; break;
		case 's': o->socket = optarg; break;
		case 'h': return -2;
		default: return -1;
		}
	}
	return optind;
}

/* NAME and TYPE. Returns 0 or prints why and returns -1. */
static int parse_question(int argc, char **argv, int first,
			  struct query_opts *o)
{
	uint8_t name[DT_NAME_MAXLEN];

	if (argc - first < 1 || argc - first > 2)
		return -1;
	o->name = argv[first];
	if (wire_dname_from_str(o->name, strlen(o->name), (const uint8_t *)"",
				name) < 0) {
		fprintf(stderr, "dnstrust query: bad name '%s'\n", o->name);
		return -1;
	}
	o->type = WIRE_TYPE_A;
	if (argc - first == 2 &&
	    wire_type_from_str(argv[first + 1], strlen(argv[first + 1]),
			       &o->type) < 0) {
		fprintf(stderr, "dnstrust query: bad type '%s'\n",
			argv[first + 1]);
		return -1;
	}
	return 0;
}

static void print_json_error(const struct query_opts *o, int err)
{
	char ty[16];

	printf("{\"question\":{\"name\":");
	cli_json_str(stdout, o->name);
	printf(",\"class\":\"IN\",\"type\":\"%s\"},\"error\":{\"code\":%d,"
	       "\"unavailable\":%s,\"message\":",
	       wire_type_to_str(o->type, ty), err,
	       cli_err_unavailable(err) ? "true" : "false");
	cli_json_str(stdout, dt_error_str(err));
	printf("}}\n");
}

static void print_answer(const struct query_opts *o, const struct cli_answer *a,
			 const struct cli_trace *t)
{
	if (!o->json) {
		cli_answer_print_text(a, stdout);
		if (t)
			cli_trace_print_text(t, a, stdout);
		return;
	}
	printf("{");
	cli_answer_print_json(a, stdout);
	if (t) {
		printf(",\"trace\":");
		cli_trace_print_json(t, a, stdout);
	}
	printf("}\n");
}

static int run(struct cli_daemon *d, const struct query_opts *o)
{
	struct cli_trace *t = NULL;
	struct cli_answer a;
	int r = cli_answer_get(d, o->name, WIRE_CLASS_IN, o->type, o->flags,
			       &a);

	if (r == 0 && o->trace && (r = cli_trace_run(d, &a, &t)) < 0)
		cli_answer_free(&a);
	if (r < 0) {
		if (o->json)
			print_json_error(o, r);
		return cli_err_report(d, "query", r);
	}
	print_answer(o, &a, t);
	int code = cli_answer_exit(&a);
	cli_trace_free(t);
	cli_answer_free(&a);
	return code;
}

int cmd_query(int argc, char **argv)
{
	struct query_opts o = {0};
	struct cli_daemon d;
	int first = parse_opts(argc, argv, &o);

	if (first == -2) {
		usage(stdout);
		return 0;
	}
	if (first < 0 || parse_question(argc, argv, first, &o) < 0) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	int r = cli_daemon_open(&d, o.socket);
	if (r)
		return r;
	r = run(&d, &o);
	cli_daemon_close(&d);
	return r;
}
