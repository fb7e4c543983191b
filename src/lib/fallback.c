/* SPDX-License-Identifier: MIT */
/*
 * The opt-in fallback: when dnstrustd cannot be reached and the caller
 * chose it (dt_ctx_set_fallback), the question goes to the nameservers of
 * /etc/resolv.conf through libresolv (res_nsend), as any program's would.
 * Nothing in the answer about trust is believed: the AD bit is cleared,
 * EDE and the status option are ignored, and the status is
 * DT_STATUS_UNVALIDATED.
 */
#include <errno.h>
#include <netinet/in.h>
#include <resolv.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "lib/internal.h"
#include "wire/msg.h"

/* Our query (RD, CD and DO as asked, EDNS, no status option: this is
 * not the daemon) sent with res_nsend, which takes the nameservers and
 * options of resolv.conf and retries over TCP when truncated. */
static int fallback_send(res_state st, struct dtlib_q *q, uint8_t *ans,
			 size_t anscap)
{
	uint8_t query[DT_QUERY_MAXLEN];
	int len;

	q->id = dtlib_new_id();
	len = dtlib_query_build(q, false, query, sizeof(query));
	if (len < DT_MSG_HDRLEN)
		return -1;
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
	return dtlib_answer_take(q, m, true);
}
