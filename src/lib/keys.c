/* SPDX-License-Identifier: MIT */
/*
 * Key material from DNS, returned only when the daemon validated it as
 * secure: TLSA (RFC 6698) and SSHFP (RFC 4255). Each set is one
 * allocation: the set, its array, and the octets the array points to.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/limits.h"
#include "lib/internal.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* Asks for name/type and keeps the answer only when it is secure and has
 * records of the type. */
static int ask_secure(dt_ctx_t *ctx, const uint8_t *qname, uint16_t type,
		      struct dtlib_q *q)
{
	struct dtlib_settings s;
	const struct wire_msg *m;
	int err;

	*q = (struct dtlib_q){
		.qname = qname, .qtype = type, .qclass = WIRE_CLASS_IN};
	ctx = dtlib_ctx(ctx);
	dtlib_ctx_settings(ctx, &s);
	err = dtlib_exchange(ctx, &s, q, 1, 0);
	if (err)
		return err;
	m = q->ans.msg;
	dtlib_set_last_status(q->ans.status);
	if (q->ans.status == DT_STATUS_BOGUS)
		err = DT_ERR_BOGUS;
	else if (m->rcode == WIRE_RCODE_SERVFAIL)
		err = DT_ERR_SERVFAIL;
	else if (q->ans.status != DT_STATUS_SECURE)
		err = DT_ERR_NOT_SECURE;
	else if (m->rcode == WIRE_RCODE_NXDOMAIN)
		err = DT_ERR_NXDOMAIN;
	else if (m->rcode != WIRE_RCODE_NOERROR)
		err = DT_ERR_SERVFAIL;
	else if (dtlib_answer_records(m, qname, type, NULL, NULL, NULL) == 0)
		err = DT_ERR_NODATA;
	if (err)
		dtlib_answer_clear(&q->ans);
	return err;
}

/* Counting, then filling: the records' fixed octets are skip long, the
 * rest is the data the set points to. */
struct collect {
	size_t skip;	 /* fixed octets before the data */
	size_t n, bytes; /* counted */
	uint8_t *p;	 /* filling: where data goes */
	void (*fill)(struct collect *c, const uint8_t *rdata, uint16_t len);
	void *arr;
};

static int collect_rr(const uint8_t *rdata, uint16_t rdlen, void *arg)
{
	struct collect *c = arg;

	if (rdlen <= c->skip)
		return 0; /* checked by the parser: cannot happen */
	if (c->fill) {
		c->fill(c, rdata, rdlen);
		memcpy(c->p, rdata + c->skip, rdlen - c->skip);
		c->p += rdlen - c->skip;
	}
	c->n++;
	c->bytes += rdlen - c->skip;
	return 0;
}

static void fill_tlsa(struct collect *c, const uint8_t *rd, uint16_t len)
{
	dt_tlsa_t *t = (dt_tlsa_t *)c->arr + c->n;

	t->usage = rd[0];
	t->selector = rd[1];
	t->matching_type = rd[2];
	t->len = len - c->skip;
	t->data = c->p;
}

static void fill_sshfp(struct collect *c, const uint8_t *rd, uint16_t len)
{
	dt_sshfp_t *t = (dt_sshfp_t *)c->arr + c->n;

	t->algorithm = rd[0];
	t->fp_type = rd[1];
	t->len = len - c->skip;
	t->fingerprint = c->p;
}

/* One block: head (the set), n elements of elsize, then the data. */
static void *collect_all(const struct dtlib_q *q, struct collect *c,
			 size_t headsize, size_t elsize)
{
	size_t n, bytes;
	uint8_t *block;
	void (*fill)(struct collect *, const uint8_t *, uint16_t) = c->fill;

	c->fill = NULL;
	dtlib_answer_records(q->ans.msg, q->qname, q->qtype, collect_rr, c,
			     NULL);
	n = c->n;
	bytes = c->bytes;
	block = calloc(1, headsize + n * elsize + bytes);
	if (!block)
		return NULL;
	c->arr = block + headsize;
	c->p = block + headsize + n * elsize;
	c->n = c->bytes = 0;
	c->fill = fill;
	dtlib_answer_records(q->ans.msg, q->qname, q->qtype, collect_rr, c,
			     NULL);
	return block;
}

/* The head of a set, rounded up so that its array is aligned. */
#define HEAD_SIZE(T, E) ((sizeof(T) + alignof(E) - 1) / alignof(E) * alignof(E))

int dt_tlsa(dt_ctx_t *ctx, const char *host, uint16_t port, const char *proto,
	    dt_tlsa_set_t **ret)
{
	char text[DT_NAME_TEXT_MAXLEN + 32];
	uint8_t qname[DT_NAME_MAXLEN];
	struct collect c = {.skip = 3, .fill = fill_tlsa};
	struct dtlib_q q;
	dt_tlsa_set_t *set;
	int err;

	dtlib_set_last_status(DT_STATUS_NONE);
	if (!host || !proto || !ret ||
	    (strcmp(proto, "tcp") && strcmp(proto, "udp") &&
	     strcmp(proto, "sctp")))
		return DT_ERR_INVALID;
	snprintf(text, sizeof(text), "_%u._%s.%s", port, proto,
		 strcmp(host, ".") ? host : "");
	if (dtlib_name(text, qname) < 0 ||
	    wire_dname_to_str(qname, text, sizeof(text)) < 0 ||
	    strlen(text) >= sizeof(set->name))
		return DT_ERR_INVALID;
	err = ask_secure(ctx, qname, WIRE_TYPE_TLSA, &q);
	if (err)
		return err;
	set = collect_all(&q, &c, HEAD_SIZE(dt_tlsa_set_t, dt_tlsa_t),
			  sizeof(dt_tlsa_t));
	dtlib_answer_clear(&q.ans);
	if (!set)
		return DT_ERR_NOMEM;
	set->n = c.n;
	set->rr = c.arr;
	memcpy(set->name, text, strlen(text) + 1); /* fits: checked */
	*ret = set;
	return 0;
}

void dt_tlsa_free(dt_tlsa_set_t *set)
{
	free(set);
}

int dt_sshfp(dt_ctx_t *ctx, const char *host, dt_sshfp_set_t **ret)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct collect c = {.skip = 2, .fill = fill_sshfp};
	struct dtlib_q q;
	dt_sshfp_set_t *set;
	int err;

	dtlib_set_last_status(DT_STATUS_NONE);
	if (!ret || dtlib_name(host, qname) < 0)
		return DT_ERR_INVALID;
	err = ask_secure(ctx, qname, WIRE_TYPE_SSHFP, &q);
	if (err)
		return err;
	set = collect_all(&q, &c, HEAD_SIZE(dt_sshfp_set_t, dt_sshfp_t),
			  sizeof(dt_sshfp_t));
	dtlib_answer_clear(&q.ans);
	if (!set)
		return DT_ERR_NOMEM;
	set->n = c.n;
	set->rr = c.arr;
	*ret = set;
	return 0;
}

void dt_sshfp_free(dt_sshfp_set_t *set)
{
	free(set);
}
