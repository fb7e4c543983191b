/* SPDX-License-Identifier: MIT */
/*
 * dnstrust query: questions to dnstrustd (one name, one or more types; -x
 * for the reverse name of an address), each answer as dig shows it with
 * the trust status and reason, optionally the chain of trust re-validated
 * offline (see dnstrust(1)). With --json, one object per question, in an
 * array when there are several.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "cli/trace.h"
#include "common/errcode.h"
#include "wire/dname.h"
#include "wire/reverse.h"
#include "wire/rr.h"

/* Types asked in one run: each is a round trip to the daemon; more are
 * better asked by a loop in the shell. */
#define QUERY_MAXTYPES 16
/* Room for why a question is refused: the message and the word quoted. */
#define QUERY_WHY_MAXLEN (DT_NAME_TEXT_MAXLEN + 128)

struct query_opts {
	const char *name;
	const char *typed;   /* the name as typed, when IDN made name */
	const char *reverse; /* -x ADDR */
	char rname[WIRE_REVERSE_MAXLEN];
	char aname[DT_NAME_TEXT_MAXLEN]; /* the ASCII form of an IDN */
	uint16_t types[QUERY_MAXTYPES];
	size_t ntypes;
	unsigned flags;
	bool json, trace, in_process;
	const char *socket;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dnstrust query NAME [TYPE...] [--json] [--trace] "
		"[--cd] [--dnssec]\n"
		"                      [--require-secure] [--socket PATH] "
		"[--in-process]\n"
		"       dnstrust query -x ADDR [TYPE...] [options]\n"
		"TYPE is a mnemonic (A, AAAA, MX, HTTPS, TLSA...) or "
		"TYPEnnn; default A,\n"
		"PTR with -x (the reverse name of an IPv4 or IPv6 "
		"address). At most %d types.\n",
		QUERY_MAXTYPES);
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
		{"in-process", no_argument, NULL, 'P'},
		{"reverse", required_argument, NULL, 'x'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "x:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = true; break;
		case 'T': o->trace = true; break;
		case 'c': o->flags |= DT_FLAG_RETURN_BOGUS; break;
		case 'd': o->flags |= DT_FLAG_DNSSEC; break;
		case 'r': o->flags |= DT_FLAG_REQUIRE_SECURE; break;
		case 's': o->socket = optarg; break;
		case 'P': o->in_process = true; break;
		case 'x': o->reverse = optarg; break;
		case 'h': return -2;
		default: return -1;
		}
	}
	return optind;
}

static const char *name_err_text(int err)
{
	switch (err) {
	case DT_ELABEL: return "a label is longer than 63 octets";
	case DT_ENAMELEN: return "the name is longer than 255 octets";
	default: return "an empty label or a bad escape";
	}
}

/* The name asked: NAME, or the reverse name of -x ADDR. */
static int parse_name(int argc, char **argv, int *first, struct query_opts *o,
		      char why[QUERY_WHY_MAXLEN])
{
	uint8_t name[DT_NAME_MAXLEN];
	int r;

	if (o->reverse) {
		if (wire_reverse_name(o->reverse, o->rname, sizeof(o->rname)) <
		    0) {
			snprintf(why, QUERY_WHY_MAXLEN,
				 "bad address '%s': -x takes an IPv4 or IPv6 "
				 "address",
				 o->reverse);
			return -1;
		}
		o->name = o->rname;
		return 0;
	}
	if (*first >= argc) {
		snprintf(why, QUERY_WHY_MAXLEN,
			 "a NAME (or -x ADDR) is needed");
		return -1;
	}
	o->name = argv[(*first)++];
	r = cli_idn_to_ascii(o->name, o->aname, sizeof(o->aname), why,
			     QUERY_WHY_MAXLEN);
	if (r < 0)
		return -1;
	if (r > 0) {
		o->typed = o->name;
		o->name = o->aname;
	}
	r = wire_dname_from_str(o->name, strlen(o->name), (const uint8_t *)"",
				name);
	if (r < 0) {
		snprintf(why, QUERY_WHY_MAXLEN, "bad name '%.*s': %s",
			 DT_NAME_TEXT_MAXLEN, o->name, name_err_text(r));
		return -1;
	}
	return 0;
}

/* NAME (or -x ADDR) and the types. Returns 0, or -1 with why filled. */
static int parse_question(int argc, char **argv, int first,
			  struct query_opts *o, char why[QUERY_WHY_MAXLEN])
{
	if (parse_name(argc, argv, &first, o, why) < 0)
		return -1;
	for (; first < argc; first++) {
		const char *t = argv[first];

		if (o->ntypes == QUERY_MAXTYPES) {
			snprintf(why, QUERY_WHY_MAXLEN,
				 "more than %d types in one query",
				 QUERY_MAXTYPES);
			return -1;
		}
		if (wire_type_from_str(t, strlen(t), &o->types[o->ntypes]) <
		    0) {
			snprintf(why, QUERY_WHY_MAXLEN,
				 "bad type '%.64s': a mnemonic (A, AAAA, MX, "
				 "HTTPS...) or TYPEnnn",
				 t);
			return -1;
		}
		o->ntypes++;
	}
	if (o->ntypes == 0)
		o->types[o->ntypes++] =
			o->reverse ? WIRE_TYPE_PTR : WIRE_TYPE_A;
	return 0;
}

/* A question the command refuses, as JSON on stdout with --json. */
static void print_json_usage(const char *why)
{
	printf("{\"error\":{\"code\":null,\"unavailable\":false,"
	       "\"usage\":true,\"message\":");
	cli_json_str(stdout, why);
	printf("},\"exit\":%d}\n", CLI_EXIT_USAGE);
}

static void print_json_error(const struct query_opts *o, uint16_t type, int err,
			     int code)
{
	char ty[16];

	printf("{\"question\":{\"name\":");
	cli_json_str(stdout, o->name);
	printf(",\"class\":\"IN\",\"type\":\"%s\"},\"error\":{\"code\":%d,"
	       "\"unavailable\":%s,\"usage\":false,\"message\":",
	       wire_type_to_str(type, ty), err,
	       cli_err_unavailable(err) ? "true" : "false");
	cli_json_str(stdout, dt_error_str(err));
	printf("},\"exit\":%d}", code);
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
	printf("}");
}

/* One question: prints its answer (or its error) and returns its exit
 * code; *ret_stop is set when the daemon cannot be asked again. */
static int run_one(struct cli_daemon *d, const struct query_opts *o,
		   uint16_t type, bool *ret_stop)
{
	struct cli_trace *t = NULL;
	struct cli_answer a;
	int r = cli_answer_get(d, o->name, WIRE_CLASS_IN, type, o->flags, &a);
	int code;

	if (r == 0 && o->trace && (r = cli_trace_run(d, &a, &t)) < 0)
		cli_answer_free(&a);
	if (r < 0) {
		code = cli_err_report(d, "query", r);
		if (o->json)
			print_json_error(o, type, r, code);
		*ret_stop = cli_err_unavailable(r);
		return code;
	}
	print_answer(o, &a, t);
	code = cli_answer_exit(&a);
	cli_trace_free(t);
	cli_answer_free(&a);
	return code;
}

/*
 * The exit code of several questions: the worst, in the order one answer
 * ranks them (cli_answer_exit): bogus, indeterminate, input, not found,
 * insecure, secure. "Unavailable" and usage errors end the run.
 */
static int worse(int a, int b)
{
	static const int rank[] = {CLI_EXIT_BOGUS,    CLI_EXIT_INDETERMINATE,
				   CLI_EXIT_INPUT,    CLI_EXIT_NOT_FOUND,
				   CLI_EXIT_INSECURE, CLI_EXIT_SECURE};

	for (size_t i = 0; i < sizeof(rank) / sizeof(rank[0]); i++)
		if (a == rank[i] || b == rank[i])
			return rank[i];
	return a > b ? a : b;
}

static int run(struct cli_daemon *d, const struct query_opts *o)
{
	bool many = o->ntypes > 1, stop = false;
	int code = CLI_EXIT_SECURE;

	if (o->json && many)
		printf("[");
	for (size_t i = 0; i < o->ntypes && !stop; i++) {
		if (o->json && i)
			printf(",");
		int r = run_one(d, o, o->types[i], &stop);

		code = stop || r == CLI_EXIT_USAGE ? r : worse(code, r);
		stop = stop || r == CLI_EXIT_USAGE;
	}
	if (o->json)
		printf(many ? "]\n" : "\n");
	return code;
}

int cmd_query(int argc, char **argv)
{
	struct query_opts o = {0};
	struct cli_daemon d;
	int first = parse_opts(argc, argv, &o);

	if (first == -2) {
		usage(stdout);
		cli_options_help(stdout, "reverse json trace cd dnssec "
					 "require-secure socket in-process");
		return 0;
	}
	if (first < 0) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	char why[QUERY_WHY_MAXLEN];
	if (parse_question(argc, argv, first, &o, why) < 0) {
		fprintf(stderr, "dnstrust query: %s\n", why);
		if (o.json)
			print_json_usage(why);
		else
			usage(stderr);
		return CLI_EXIT_USAGE;
	}
	int r = cli_daemon_open(&d, o.socket);
	if (r)
		return r;
	if (o.in_process)
		cli_daemon_in_process(&d);
	if (o.typed && !o.json)
		printf(";; %s (%s)\n", o.typed, o.name);
	r = run(&d, &o);
	cli_daemon_close(&d);
	return r;
}
