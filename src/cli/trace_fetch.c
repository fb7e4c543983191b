/* SPDX-License-Identifier: MIT */
/*
 * What dnstrust query --trace asks the daemon: its trust anchors, the
 * question with DO and CD, then for every name from the trust anchor down
 * to each name of the answer its DS RRset (or the proof that it has
 * none), and the DNSKEY RRset of every zone cut and signer met. Every
 * answer and authority record received goes into one pool, once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "cli/trace.h"
#include "common/protocol.h"
#include "validator/anchor.h"
#include "validator/val.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

/* Names whose DS is to be asked, in the order met (top-down per name). */
struct names {
	uint8_t (*name)[DT_NAME_MAXLEN];
	size_t n;
};

static bool same_rr(const struct wire_rr *a, const struct wire_rr *b)
{
	return a->type == b->type && a->rclass == b->rclass &&
	       a->rdlen == b->rdlen && wire_dname_equal(a->owner, b->owner) &&
	       memcmp(a->rdata, b->rdata, a->rdlen) == 0;
}

/* Adds a record unless the pool has it: the same RRSIG twice would be
 * tried twice and spend the validator's budget. */
static int pool_add(struct cli_trace *t, const struct wire_rr *rr)
{
	for (size_t i = 0; i < t->npool; i++) {
		if (same_rr(&t->pool[i], rr))
			return 0;
	}
	if (t->npool == t->cappool) {
		size_t cap = t->cappool ? 2 * t->cappool : 64;
		struct wire_rr *np = realloc(t->pool, cap * sizeof(*np));
		if (!np)
			return DT_ERR_NOMEM;
		t->pool = np;
		t->cappool = cap;
	}
	t->pool[t->npool++] = *rr;
	return 0;
}

static int pool_add_msg(struct cli_trace *t, const struct wire_msg *m)
{
	for (int s = WIRE_SEC_ANSWER; s <= WIRE_SEC_AUTHORITY; s++) {
		for (size_t i = 0; i < m->count[s]; i++) {
			int r = pool_add(t, &m->sec[s][i]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static bool fetched(const struct cli_trace *t, const uint8_t *name,
		    uint16_t type)
{
	for (size_t i = 0; i < t->nfetch; i++) {
		if (t->fetch[i].type == type &&
		    wire_dname_equal(t->fetch[i].name, name))
			return true;
	}
	return false;
}

static int fetch_slot(struct cli_trace *t, struct trace_fetch **ret)
{
	if (t->nfetch == t->capfetch) {
		size_t cap = t->capfetch ? 2 * t->capfetch : 16;
		struct trace_fetch *nf = realloc(t->fetch, cap * sizeof(*nf));
		if (!nf)
			return DT_ERR_NOMEM;
		t->fetch = nf;
		t->capfetch = cap;
	}
	*ret = &t->fetch[t->nfetch];
	memset(*ret, 0, sizeof(**ret));
	return 0;
}

/* Asks name/type with DO and CD; keeps the answer and pools its records.
 * A question asked before is not asked again. */
static int fetch(struct cli_daemon *d, struct cli_trace *t, const uint8_t *name,
		 uint16_t type)
{
	char text[DT_NAME_TEXT_MAXLEN];
	struct trace_fetch *f;
	dt_result_t *res;
	size_t len;
	int r, err;

	if (fetched(t, name, type))
		return 0;
	if ((r = fetch_slot(t, &f)) < 0)
		return r;
	wire_dname_to_str(name, text, sizeof(text));
	r = dt_query(d->ctx, text, WIRE_CLASS_IN, type,
		     DT_FLAG_DNSSEC | DT_FLAG_RETURN_BOGUS, &res);
	if (r < 0)
		return r;
	wire_dname_copy(f->name, name);
	f->type = type;
	f->status = dt_result_status(res);
	f->rcode = dt_result_rcode(res);
	const uint8_t *wire = dt_result_wire(res, &len);
	f->msg = wire_msg_parse(wire, len, WIRE_PARSE_TRUNC_OK, &err);
	dt_result_free(res);
	if (!f->msg)
		return err == -ENOMEM ? DT_ERR_NOMEM : DT_ERR_PROTOCOL;
	t->nfetch++;
	return pool_add_msg(t, f->msg);
}

/* --- the trust anchors --- */

static int anchor_add_text(struct cli_trace *t, const char *text)
{
	struct wire_zreader *zr = wire_zreader_new(
		text, strlen(text), ".", 3600, DT_PROTO_ADMIN_ANCHORS);
	struct wire_rr rr;
	int r;

	if (!zr)
		return DT_ERR_NOMEM;
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		if (val_anchors_add(t->ta, &rr) < 0) {
			r = -1;
			break;
		}
	}
	wire_zreader_free(zr);
	return r < 0 ? DT_ERR_PROTOCOL : 0;
}

static int fetch_anchors(struct cli_daemon *d, struct cli_trace *t)
{
	struct cli_txt txt;
	int r = cli_txt_get(d, DT_PROTO_ADMIN_ANCHORS, &txt);

	if (r < 0)
		return r;
	if (!(t->ta = val_anchors_new())) {
		cli_txt_free(&txt);
		return DT_ERR_NOMEM;
	}
	for (size_t i = 0; i < txt.n && r == 0; i++)
		r = anchor_add_text(t, txt.line[i]);
	/* The lines are kept for printing; the struct's array is taken. */
	t->anchor_text = txt.line;
	t->nanchor_text = txt.n;
	return r;
}

/* --- the names above the answer --- */

static void names_add(struct names *ns, struct cli_trace *t,
		      const uint8_t *name)
{
	for (size_t i = 0; i < ns->n; i++) {
		if (wire_dname_equal(ns->name[i], name))
			return;
	}
	if (ns->n == CLI_TRACE_MAXNAMES) {
		t->incomplete = true;
		return;
	}
	wire_dname_copy(ns->name[ns->n++], name);
}

/* Every name below the anchor zone down to name itself. */
static void names_add_above(struct names *ns, struct cli_trace *t,
			    const uint8_t *name)
{
	const struct val_anchor_zone *az = val_anchors_find(t->ta, name);
	int top = az ? wire_dname_labels(az->zone) : 0;

	for (int l = top + 1; l <= wire_dname_labels(name); l++)
		names_add(ns, t, wire_dname_ancestor(name, l));
}

/* The names a record brings in: its owner, a CNAME's target, an RRSIG's
 * signer. */
static void names_of_rr(struct names *ns, struct cli_trace *t,
			const struct wire_rr *rr, bool answer)
{
	if (answer)
		names_add_above(ns, t, rr->owner);
	if (answer && rr->type == WIRE_TYPE_CNAME)
		names_add_above(ns, t, rr->rdata);
	if (rr->type == WIRE_TYPE_RRSIG)
		names_add_above(ns, t, val_rrsig_signer(rr));
}

static void names_of_answer(struct names *ns, struct cli_trace *t)
{
	const struct wire_msg *m = t->fetch[0].msg;

	names_add_above(ns, t, t->fetch[0].name);
	for (int s = WIRE_SEC_ANSWER; s <= WIRE_SEC_AUTHORITY; s++) {
		for (size_t i = 0; i < m->count[s]; i++)
			names_of_rr(ns, t, &m->sec[s][i], s == WIRE_SEC_ANSWER);
	}
}

/* True when the answer to name/DS holds DS records at name: a signed zone
 * cut (or the claim of one), whose DNSKEY RRset is needed too. */
static bool has_ds(const struct cli_trace *t, const uint8_t *name)
{
	for (size_t i = 0; i < t->npool; i++) {
		if (t->pool[i].type == WIRE_TYPE_DS &&
		    wire_dname_equal(t->pool[i].owner, name))
			return true;
	}
	return false;
}

/* DNSKEY of every signer in the pool (zones the DS walk did not show as
 * cuts, e.g. when the DS RRset is missing). */
static int fetch_signer_keys(struct cli_daemon *d, struct cli_trace *t)
{
	int r = 0;

	for (size_t i = 0; i < t->npool && r == 0; i++) {
		if (t->pool[i].type == WIRE_TYPE_RRSIG)
			r = fetch(d, t, val_rrsig_signer(&t->pool[i]),
				  WIRE_TYPE_DNSKEY);
	}
	return r;
}

static int fetch_chain(struct cli_daemon *d, struct cli_trace *t)
{
	struct names ns = {.name = calloc(CLI_TRACE_MAXNAMES, DT_NAME_MAXLEN)};
	const struct val_anchor_zone *az =
		val_anchors_find(t->ta, t->fetch[0].name);
	int r = ns.name ? 0 : DT_ERR_NOMEM;

	if (r == 0 && az)
		r = fetch(d, t, az->zone, WIRE_TYPE_DNSKEY);
	if (r == 0)
		names_of_answer(&ns, t);
	for (size_t i = 0; i < ns.n && r == 0; i++) {
		r = fetch(d, t, ns.name[i], WIRE_TYPE_DS);
		if (r == 0 && has_ds(t, ns.name[i]))
			r = fetch(d, t, ns.name[i], WIRE_TYPE_DNSKEY);
	}
	if (r == 0)
		r = fetch_signer_keys(d, t);
	free(ns.name);
	return r;
}

int trace_fetch_all(struct cli_daemon *d, const struct cli_answer *a,
		    struct cli_trace *t)
{
	uint8_t qname[DT_NAME_MAXLEN];
	int r = fetch_anchors(d, t);

	if (r < 0)
		return r;
	if (wire_dname_from_str(a->qname, strlen(a->qname), (const uint8_t *)"",
				qname) < 0)
		return DT_ERR_INVALID;
	if ((r = fetch(d, t, qname, a->qtype)) < 0)
		return r;
	if (t->nfetch == 0)
		return DT_ERR_PROTOCOL;
	return fetch_chain(d, t);
}

void trace_fetch_free(struct cli_trace *t)
{
	for (size_t i = 0; i < t->nfetch; i++)
		wire_msg_free(t->fetch[i].msg);
	free(t->fetch);
	free(t->pool);
	for (size_t i = 0; i < t->nanchor_text; i++)
		free(t->anchor_text[i]);
	free(t->anchor_text);
	val_anchors_free(t->ta);
}
