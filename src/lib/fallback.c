/* SPDX-License-Identifier: MIT */
/*
 * The opt-in fallback: when dnstrustd cannot be reached and the caller
 * chose it (dt_ctx_set_fallback), the question goes to the nameservers of
 * /etc/resolv.conf through libresolv, as any program's would. Nothing in
 * the answer about trust is believed: the AD bit is cleared, EDE and the
 * status option ignored, and the status is DT_STATUS_UNVALIDATED.
 */
#include <errno.h>
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "lib/internal.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* A query res_nmkquery makes: header, name, type, class, and an OPT
 * record when DO is asked for. */
#define FALLBACK_QUERY_MAXLEN 512

static int fallback_send(res_state st, const struct dtlib_q *q, uint8_t *ans,
			 size_t anscap)
{
	char name[DT_NAME_TEXT_MAXLEN];
	uint8_t query[FALLBACK_QUERY_MAXLEN];
	int len;

	if (wire_dname_to_str(q->qname, name, sizeof(name)) < 0)
		return -1;
	if (q->flags & DT_FLAG_DNSSEC)
		st->options |= RES_USE_EDNS0 | RES_USE_DNSSEC;
	len = res_nmkquery(st, QUERY, name, q->qclass, q->qtype, NULL, 0, NULL,
			   query, sizeof(query));
	if (len < DT_MSG_HDRLEN)
		return -1;
	if (q->flags & DT_FLAG_RETURN_BOGUS)
		query[3] |= WIRE_FLAG_CD;
	return res_nsend(st, query, len, ans, (int)anscap);
}

int dtlib_fallback_ask(struct dtlib_q *q)
{
	struct __res_state st;
	struct wire_msg *m;
	uint8_t *ans;
	int len, err;

	memset(&st, 0, sizeof(st));
	if (res_ninit(&st))
		return DT_ERR_UNAVAILABLE;
	ans = malloc(DT_MSG_MAXLEN);
	if (!ans) {
		res_nclose(&st);
		return DT_ERR_NOMEM;
	}
	len = fallback_send(&st, q, ans, DT_MSG_MAXLEN);
	res_nclose(&st);
	if (len < DT_MSG_HDRLEN) {
		free(ans);
		return DT_ERR_UNAVAILABLE;
	}
	ans[3] &= (uint8_t)~WIRE_FLAG_AD;
	m = wire_msg_parse(ans, (size_t)len, WIRE_PARSE_TRUNC_OK, &err);
	free(ans);
	if (!m)
		return err == -ENOMEM ? DT_ERR_NOMEM : DT_ERR_PROTOCOL;
	err = dtlib_answer_take(q, m, true);
	if (err)
		wire_msg_free(m);
	return err;
}
