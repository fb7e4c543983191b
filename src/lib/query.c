/* SPDX-License-Identifier: MIT */
/*
 * One question to the daemon: dt_query and its verdict, dt_res_query
 * (res_query's contract), dt_trust_available (the one bit).
 */
#include <netdb.h>
#include <string.h>

#include "common/protocol.h"
#include "lib/internal.h"
#include "wire/dname.h"
#include "wire/msg.h"

int dtlib_name(const char *text, uint8_t out[255])
{
	static const uint8_t root[1] = {0};
	int len;

	if (!text)
		return DT_ERR_INVALID;
	len = wire_dname_from_str(text, strlen(text), root, out);
	return len < 0 ? DT_ERR_INVALID : len;
}

int dtlib_answer_records(const struct wire_msg *m, const uint8_t *qname,
			 uint16_t type,
			 int (*fn)(const uint8_t *rdata, uint16_t rdlen,
				   void *arg),
			 void *arg, const uint8_t **ret_owner)
{
	const struct wire_rr *an = m->sec[WIRE_SEC_ANSWER];
	struct dtlib_chain c;
	int found = 0, err;

	if ((err = dtlib_chain_walk(m, qname, type, &c)) < 0)
		return err;
	for (size_t i = c.start; i < m->count[WIRE_SEC_ANSWER]; i++) {
		if (!dtlib_chain_final(&c, m, type, i))
			continue;
		int r = fn ? fn(an[i].rdata, an[i].rdlen, arg) : 0;
		if (r < 0)
			return r;
		found++;
	}
	if (ret_owner)
		*ret_owner = c.end;
	return found;
}

/* What dt_query makes of an answer, by its flags. */
static int verdict(const struct dtlib_answer *a, unsigned flags)
{
	dtlib_set_last_status(a->status);
	if (a->status == DT_STATUS_BOGUS && !(flags & DT_FLAG_RETURN_BOGUS))
		return DT_ERR_BOGUS;
	if ((flags & DT_FLAG_REQUIRE_SECURE) && a->status != DT_STATUS_SECURE)
		return DT_ERR_NOT_SECURE;
	return 0;
}

/* Asks one question of ctx; on success q->ans holds the answer. */
static int ask_one(dt_ctx_t *ctx, struct dtlib_q *q, unsigned how)
{
	struct dtlib_settings s;

	ctx = dtlib_ctx(ctx);
	dtlib_ctx_settings(ctx, &s);
	return dtlib_exchange(ctx, &s, q, 1, how);
}

int dt_query(dt_ctx_t *ctx, const char *name, uint16_t rclass, uint16_t type,
	     unsigned flags, dt_result_t **ret)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct dtlib_q q = {
		.qname = qname,
		.qtype = type,
		.qclass = rclass,
		.flags = flags,
	};
	int err;

	dtlib_set_last_status(DT_STATUS_NONE);
	if (!ret || !rclass || !type || (flags & ~DTLIB_FLAGS_ALL) ||
	    dtlib_name(name, qname) < 0)
		return DT_ERR_INVALID;
	err = ask_one(ctx, &q, 0);
	if (err)
		return err;
	err = verdict(&q.ans, flags);
	if (!err)
		err = dtlib_result_new(&q.ans, ret);
	dtlib_answer_clear(&q.ans);
	return err;
}

void dtlib_query_each(dt_ctx_t *ctx, const char *name, uint16_t rclass,
		      const uint16_t *types, size_t n, unsigned flags, int *rcs,
		      dt_result_t **rets)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct dtlib_q qs[DTLIB_MAX_QUESTIONS];
	struct dtlib_settings s;
	int err;

	for (size_t i = 0; i < n; i++) {
		rcs[i] = DT_ERR_INVALID;
		rets[i] = NULL;
	}
	dtlib_set_last_status(DT_STATUS_NONE);
	if (n < 1 || n > DTLIB_MAX_QUESTIONS || !rclass ||
	    (flags & ~DTLIB_FLAGS_ALL) || dtlib_name(name, qname) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!types[i])
			return;
		qs[i] = (struct dtlib_q){.qname = qname,
					 .qtype = types[i],
					 .qclass = rclass,
					 .flags = flags,
					 .ans.ede = -1};
	}
	ctx = dtlib_ctx(ctx);
	dtlib_ctx_settings(ctx, &s);
	err = dtlib_exchange(ctx, &s, qs, n, DTLIB_KEEP_ANSWERED);
	for (size_t i = 0; i < n; i++) {
		if (!qs[i].ans.msg) {
			rcs[i] = err ? err : DT_ERR_PROTOCOL;
			continue;
		}
		rcs[i] = verdict(&qs[i].ans, flags);
		if (!rcs[i])
			rcs[i] = dtlib_result_new(&qs[i].ans, &rets[i]);
	}
	dtlib_qs_clear(qs, n);
}

/* res_query's h_errno for an answer that is not a usable one, or 0. */
static int res_herrno(const struct dtlib_answer *a)
{
	const struct wire_msg *m = a->msg;

	if (a->status == DT_STATUS_BOGUS)
		return NO_RECOVERY;
	switch (m->rcode) {
	case WIRE_RCODE_NOERROR: return m->hdr.ancount ? 0 : NO_DATA;
	case WIRE_RCODE_NXDOMAIN: return HOST_NOT_FOUND;
	case WIRE_RCODE_SERVFAIL: return TRY_AGAIN;
	}
	return NO_RECOVERY;
}

int dt_res_query(const char *dname, int rclass, int type, unsigned char *answer,
		 int anslen)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct dtlib_q q = {.qname = qname};
	int err, herr, n;

	dtlib_set_last_status(DT_STATUS_NONE);
	if (!answer || anslen < DT_MSG_HDRLEN || rclass <= 0 ||
	    rclass > 0xffff || type <= 0 || type > 0xffff ||
	    dtlib_name(dname, qname) < 0) {
		h_errno = NO_RECOVERY;
		return -1;
	}
	q.qclass = (uint16_t)rclass;
	q.qtype = (uint16_t)type;
	err = ask_one(NULL, &q, 0);
	if (err) {
		h_errno = err == DT_ERR_UNAVAILABLE || err == DT_ERR_TIMEOUT
				  ? TRY_AGAIN
				  : NO_RECOVERY;
		return -1;
	}
	dtlib_set_last_status(q.ans.status);
	/* As res_query, the answer is copied even when it says no; cut to
	 * anslen, it has TC set. */
	n = q.ans.msg->rawlen < (size_t)anslen ? (int)q.ans.msg->rawlen
					       : anslen;
	memcpy(answer, q.ans.msg->raw, (size_t)n);
	if ((size_t)n < q.ans.msg->rawlen)
		answer[2] |= WIRE_FLAG_TC >> 8;
	herr = res_herrno(&q.ans);
	dtlib_answer_clear(&q.ans);
	if (herr) {
		h_errno = herr;
		return -1;
	}
	return n;
}

/* A TXT answer whose first string names the daemon, or the in-process
 * engine ("dnstrust in-process", src/inproc). */
static int names_daemon(const uint8_t *rdata, uint16_t rdlen, void *arg)
{
	static const char *const want[] = {"dnstrustd",
					   "dnstrust in-process"};

	(void)arg;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		size_t wl = strlen(want[i]);
		if (rdlen >= 1 + wl && rdata[0] >= wl &&
		    !memcmp(rdata + 1, want[i], wl))
			return -1; /* found: stop */
	}
	return 0;
}

int dt_trust_available(dt_ctx_t *ctx)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct dtlib_q q = {
		.qname = qname,
		.qtype = WIRE_TYPE_TXT,
		.qclass = WIRE_CLASS_CH,
	};
	int yes;

	dtlib_set_last_status(DT_STATUS_NONE);
	if (dtlib_name(DT_PROTO_ADMIN_VERSION, qname) < 0 ||
	    ask_one(ctx, &q, DTLIB_NO_FALLBACK))
		return 0;
	yes = q.ans.msg->rcode == WIRE_RCODE_NOERROR &&
	      dtlib_answer_records(q.ans.msg, qname, WIRE_TYPE_TXT,
				   names_daemon, NULL, NULL) < 0;
	dtlib_answer_clear(&q.ans);
	return yes;
}
