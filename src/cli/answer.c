/* SPDX-License-Identifier: MIT */
/*
 * The answer to one question as dnstrust query shows it: what the daemon
 * said to the question as asked, and, when that withholds the records,
 * the status and reason learnt by asking again with CD=1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "wire/msg.h"

/* Copies what the answer says into a. Returns 0 or DT_ERR_NOMEM /
 * DT_ERR_PROTOCOL (the daemon's message does not parse). */
static int take_result(struct cli_answer *a, const dt_result_t *res)
{
	const char *text = NULL;
	size_t len;
	int err;

	a->rcode = dt_result_rcode(res);
	a->status = dt_result_status(res);
	a->ede = dt_result_ede(res, &text);
	snprintf(a->ede_text, sizeof(a->ede_text), "%s", text ? text : "");
	a->cached = dt_result_cached(res);
	const uint8_t *wire = dt_result_wire(res, &len);
	a->msg = wire_msg_parse(wire, len, WIRE_PARSE_TRUNC_OK, &err);
	if (!a->msg)
		return err == -ENOMEM ? DT_ERR_NOMEM : DT_ERR_PROTOCOL;
	return 0;
}

/* The question asked again with CD=1 and without --require-secure, to say
 * why the first answer was withheld. */
static int explain(struct cli_daemon *d, struct cli_answer *a)
{
	unsigned flags = (a->flags & DT_FLAG_DNSSEC) | DT_FLAG_RETURN_BOGUS;
	dt_result_t *res;
	int r = dt_query(d->ctx, a->qname, a->qclass, a->qtype, flags, &res);

	if (r < 0)
		return r;
	r = take_result(a, res);
	dt_result_free(res);
	return r;
}

static void set_withheld(struct cli_answer *a, enum dt_status first)
{
	if (a->status == DT_STATUS_NONE)
		a->status = first;
	if (a->status == DT_STATUS_BOGUS &&
	    !(a->flags & DT_FLAG_RETURN_BOGUS)) {
		/* Protocol §3: without CD a bogus answer is SERVFAIL. */
		a->rcode = WIRE_RCODE_SERVFAIL;
		a->withheld = "the answer is bogus; --cd shows the data";
	} else {
		a->withheld = "the answer is not secure (--require-secure)";
	}
}

int cli_answer_get(struct cli_daemon *d, const char *qname, uint16_t qclass,
		   uint16_t qtype, unsigned flags, struct cli_answer *ret)
{
	struct cli_answer a = {
		.qclass = qclass, .qtype = qtype, .flags = flags, .ede = -1};
	dt_result_t *res;
	int r;

	snprintf(a.qname, sizeof(a.qname), "%s", qname);
	a.in_process = d->in_process;
	r = dt_query(d->ctx, qname, qclass, qtype, flags, &res);
	if (r == 0) {
		r = take_result(&a, res);
		dt_result_free(res);
	} else if (r == DT_ERR_BOGUS || r == DT_ERR_NOT_SECURE) {
		enum dt_status first = dt_last_status();
		a.err = r;
		r = explain(d, &a);
		if (r == 0 || !cli_err_unavailable(r)) {
			r = 0;
			set_withheld(&a, first);
		}
	}
	if (r < 0) {
		cli_answer_free(&a);
		return r;
	}
	*ret = a;
	return 0;
}

void cli_answer_free(struct cli_answer *a)
{
	wire_msg_free(a->msg);
	a->msg = NULL;
}

/* True when the answer section holds a record of the type asked (the end
 * of a CNAME chain included). */
static bool has_qtype(const struct wire_msg *m, uint16_t qtype)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		if (m->sec[WIRE_SEC_ANSWER][i].type == qtype)
			return true;
	}
	return false;
}

const char *cli_answer_result(const struct cli_answer *a)
{
	if (a->rcode == WIRE_RCODE_NXDOMAIN)
		return "nxdomain";
	if (a->rcode != WIRE_RCODE_NOERROR || !a->msg)
		return "error";
	return has_qtype(a->msg, a->qtype) ? "answer" : "nodata";
}

int cli_answer_exit(const struct cli_answer *a)
{
	const char *result = cli_answer_result(a);

	if (a->status == DT_STATUS_BOGUS)
		return CLI_EXIT_BOGUS;
	if (a->status == DT_STATUS_INDETERMINATE ||
	    a->status == DT_STATUS_UNVALIDATED)
		return CLI_EXIT_INDETERMINATE;
	if (a->rcode == WIRE_RCODE_REFUSED || a->rcode == WIRE_RCODE_NOTIMP ||
	    a->rcode == WIRE_RCODE_FORMERR)
		return CLI_EXIT_INPUT;
	if (strcmp(result, "error") == 0)
		return CLI_EXIT_INDETERMINATE;
	if (strcmp(result, "answer") != 0)
		return CLI_EXIT_NOT_FOUND;
	return cli_exit_of_status(a->status);
}
