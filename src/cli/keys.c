/* SPDX-License-Identifier: MIT */
/*
 * dnstrust tlsa and sshfp: key material through libdnstrust, which
 * returns it only when secure. Only secure records reach standard output;
 * a refusal is explained on standard error from the answer asked again
 * with CD=1 (status, RCODE, Extended DNS Error).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

static int parse_opts(int argc, char **argv, const char **socket,
		      bool *in_process)
{
	static const struct option longopts[] = {
		{"socket", required_argument, NULL, 's'},
		{"in-process", no_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's': *socket = optarg; break;
		case 'P': *in_process = true; break;
		case 'h': return -2;
		default: return -1;
		}
	}
	return optind;
}

static void print_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02X", p[i]);
}

static const char *why_not(const struct cli_answer *a)
{
	const char *result = cli_answer_result(a);

	switch (a->status) {
	case DT_STATUS_BOGUS: return "the answer is bogus";
	case DT_STATUS_INSECURE:
		return "the answer is insecure (provably unsigned): unsigned "
		       "key material is never used";
	case DT_STATUS_SECURE:
		if (strcmp(result, "nxdomain") == 0)
			return "the name does not exist (proven)";
		if (strcmp(result, "nodata") == 0)
			return "the name has no records of this type (proven)";
		return "the answer changed while it was asked";
	default: return "the answer could not be validated";
	}
}

/* Explains why name/type gave no secure records; returns the exit code. */
static int refusal(struct cli_daemon *d, const char *cmd, const char *name,
		   uint16_t type, int err)
{
	struct cli_answer a;
	char ty[16], rc[16];

	if (cli_err_unavailable(err) || err == DT_ERR_NOMEM ||
	    err == DT_ERR_INVALID)
		return cli_err_report(d, cmd, err);
	int r = cli_answer_get(d, name, WIRE_CLASS_IN, type,
			       DT_FLAG_RETURN_BOGUS, &a);
	if (r < 0)
		return cli_err_report(d, cmd, r);
	fprintf(stderr,
		"dnstrust %s: refused: no secure %s records for %s: "
		"%s\n",
		cmd, wire_type_to_str(type, ty), name, why_not(&a));
	fprintf(stderr, "dnstrust %s: status %s, %s", cmd,
		dt_status_str(a.status), cli_rcode_str(a.rcode, rc));
	if (a.ede >= 0)
		fprintf(stderr, ", EDE %d (%s): %s", a.ede,
			wire_ede_name((uint16_t)a.ede), a.ede_text);
	fprintf(stderr, "\n");
	/* An unsigned denial proves nothing: the status comes first. */
	int code = a.status == DT_STATUS_SECURE ? cli_answer_exit(&a)
						: cli_exit_of_status(a.status);
	cli_answer_free(&a);
	return code == CLI_EXIT_SECURE ? CLI_EXIT_INDETERMINATE : code;
}

/* --- tlsa --- */

static int parse_port(const char *s, uint16_t *ret)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s < '0' || *s > '9' || *end || v < 1 || v > 65535)
		return -1;
	*ret = (uint16_t)v;
	return 0;
}

static void print_tlsa(const dt_tlsa_set_t *set, const char *by)
{
	for (size_t i = 0; i < set->n; i++) {
		const dt_tlsa_t *t = &set->rr[i];
		printf("%s\tTLSA\t%u %u %u ", set->name, t->usage, t->selector,
		       t->matching_type);
		print_hex(t->data, t->len);
		printf("\n");
	}
	printf(";; secure: %zu TLSA record%s validated %s\n", set->n,
	       set->n == 1 ? "" : "s", by);
}

int cmd_tlsa(int argc, char **argv)
{
	const char *socket = NULL, *proto = "tcp";
	char name[DT_NAME_TEXT_MAXLEN + 32];
	struct cli_daemon d;
	dt_tlsa_set_t *set;
	uint16_t port;
	bool in_process = false;
	int first = parse_opts(argc, argv, &socket, &in_process),
	    n = argc - first;

	if (first >= 0 && n == 3)
		proto = argv[first + 2];
	if (first >= 0 && (n < 2 || n > 3))
		fprintf(stderr, "dnstrust tlsa: %s\n",
			n < 2 ? "a HOST and a PORT are needed"
			      : "too many arguments");
	else if (first >= 0 && parse_port(argv[first + 1], &port) < 0)
		fprintf(stderr,
			"dnstrust tlsa: bad port '%s': a number from 1 to "
			"65535\n",
			argv[first + 1]);
	else if (first >= 0 && strcmp(proto, "tcp") && strcmp(proto, "udp"))
		fprintf(stderr,
			"dnstrust tlsa: bad protocol '%s': tcp or udp\n",
			proto);
	if (first < 0 || n < 2 || n > 3 ||
	    parse_port(argv[first + 1], &port) < 0 ||
	    (strcmp(proto, "tcp") && strcmp(proto, "udp"))) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust tlsa HOST PORT [tcp|udp] "
			"[--socket PATH] [--in-process]\n");
		if (first == -2)
			cli_options_help(stdout, "socket in-process");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	/* _PORT._PROTO. in front: 12 octets at most. */
	if (cli_name_check("tlsa", "host", argv[first], 12) < 0)
		return CLI_EXIT_USAGE;
	int r = cli_daemon_open(&d, socket);
	if (r)
		return r;
	if (in_process)
		cli_daemon_in_process(&d);
	r = dt_tlsa(d.ctx, argv[first], port, proto, &set);
	if (r == 0) {
		print_tlsa(set, in_process ? "in-process" : "by dnstrustd");
		dt_tlsa_free(set);
	} else {
		snprintf(name, sizeof(name), "_%u._%s.%s", port, proto,
			 argv[first]);
		r = refusal(&d, "tlsa", name, WIRE_TYPE_TLSA, r);
	}
	cli_daemon_close(&d);
	return r;
}

/* --- sshfp --- */

static void print_sshfp(const char *host, const dt_sshfp_set_t *set,
			const char *by)
{
	size_t len = strlen(host);

	for (size_t i = 0; i < set->n; i++) {
		const dt_sshfp_t *s = &set->rr[i];
		printf("%s%s\tSSHFP\t%u %u ", host,
		       len && host[len - 1] == '.' ? "" : ".", s->algorithm,
		       s->fp_type);
		print_hex(s->fingerprint, s->len);
		printf("\n");
	}
	printf(";; secure: %zu SSHFP record%s validated %s\n", set->n,
	       set->n == 1 ? "" : "s", by);
}

int cmd_sshfp(int argc, char **argv)
{
	const char *socket = NULL;
	struct cli_daemon d;
	dt_sshfp_set_t *set;
	bool in_process = false;
	int first = parse_opts(argc, argv, &socket, &in_process);

	if (first < 0 || argc - first != 1) {
		fprintf(first == -2 ? stdout : stderr,
			"usage: dnstrust sshfp HOST [--socket PATH] "
			"[--in-process]\n");
		if (first == -2)
			cli_options_help(stdout, "socket in-process");
		return first == -2 ? 0 : CLI_EXIT_USAGE;
	}
	if (cli_name_check("sshfp", "host", argv[first], 0) < 0)
		return CLI_EXIT_USAGE;
	int r = cli_daemon_open(&d, socket);
	if (r)
		return r;
	if (in_process)
		cli_daemon_in_process(&d);
	r = dt_sshfp(d.ctx, argv[first], &set);
	if (r == 0) {
		print_sshfp(argv[first], set,
			    in_process ? "in-process" : "by dnstrustd");
		dt_sshfp_free(set);
	} else {
		r = refusal(&d, "sshfp", argv[first], WIRE_TYPE_SSHFP, r);
	}
	cli_daemon_close(&d);
	return r;
}
