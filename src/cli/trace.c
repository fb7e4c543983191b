/* SPDX-License-Identifier: MIT */
/*
 * dnstrust query --trace: the offline validation of what was fetched, and
 * the facts the printers show about keys, DS records and signatures.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "cli/trace.h"
#include "crypto/ds.h"
#include "crypto/key.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* The validator's trace callback: one line per step, kept in order. */
static void step_line(void *arg, const char *line)
{
	struct cli_trace *t = arg;
	char **ns = realloc(t->step, (t->nstep + 1) * sizeof(*ns));

	if (!ns)
		return;
	t->step = ns;
	if ((t->step[t->nstep] = strdup(line)) != NULL)
		t->nstep++;
}

/* The question as the validator takes it, from the answer fetched. */
static void response_of(const struct trace_fetch *f, struct val_response *r)
{
	const struct wire_msg *m = f->msg;

	memset(r, 0, sizeof(*r));
	r->qname = f->name;
	r->qtype = f->type;
	r->qclass = WIRE_CLASS_IN;
	r->rcode = m->rcode;
	r->answer = m->sec[WIRE_SEC_ANSWER];
	r->nanswer = m->count[WIRE_SEC_ANSWER];
	r->authority = m->sec[WIRE_SEC_AUTHORITY];
	r->nauthority = m->count[WIRE_SEC_AUTHORITY];
}

static int validate(struct cli_trace *t)
{
	const struct trace_fetch *f = &t->fetch[0];
	struct val_keysource src;
	struct val_response resp;
	struct val_ctx ctx;

	if (f->rcode != WIRE_RCODE_NOERROR && f->rcode != WIRE_RCODE_NXDOMAIN) {
		t->note = "the daemon had no answer to validate (its RCODE is "
			  "neither NOERROR nor NXDOMAIN)";
		return 0;
	}
	if (val_anchors_count(t->ta) == 0) {
		t->note = "the daemon reported no trust anchors";
		return 0;
	}
	val_ctx_init(&ctx, t->now, NULL);
	ctx.trace = step_line;
	ctx.trace_arg = t;
	if (!(t->bag = val_bag_new(&ctx, t->ta, t->pool, t->npool)))
		return DT_ERR_NOMEM;
	val_bag_keysource(t->bag, &src);
	response_of(f, &resp);
	if (val_response_validate(&ctx, &resp, &src, &t->res) < 0)
		return DT_ERR_NOMEM;
	if (t->res.kind == VAL_KIND_NEED_KEYS)
		t->res.verdict.status = VAL_INDETERMINATE;
	t->validated = true;
	return 0;
}

int cli_trace_run(struct cli_daemon *d, const struct cli_answer *a,
		  struct cli_trace **ret)
{
	struct cli_trace *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return DT_ERR_NOMEM;
	t->now = (int64_t)time(NULL);
	arena_init(&t->arena, 0);
	r = trace_fetch_all(d, a, t);
	if (r == 0) {
		int n = val_rrsets_collect(t->pool, t->npool, &t->arena,
					   &t->sets);
		r = n < 0 ? DT_ERR_NOMEM : 0;
		t->nsets = n < 0 ? 0 : (size_t)n;
	}
	if (r == 0)
		r = validate(t);
	if (r < 0) {
		cli_trace_free(t);
		return r;
	}
	*ret = t;
	return 0;
}

void cli_trace_free(struct cli_trace *t)
{
	if (!t)
		return;
	val_bag_free(t->bag);
	trace_fetch_free(t);
	arena_free(&t->arena);
	for (size_t i = 0; i < t->nstep; i++)
		free(t->step[i]);
	free(t->step);
	free(t);
}

/* --- facts --- */

/* A 32-bit RRSIG time as the time nearest to now (serial arithmetic). */
static int64_t expand_time(uint32_t t32, int64_t now)
{
	return now + (int32_t)(t32 - (uint32_t)now);
}

const char *trace_dnskey_role(const uint8_t *rdata)
{
	uint16_t flags = wire_get16(rdata);

	if (flags & CRYPTO_KEY_FLAG_REVOKE)
		return "revoked";
	return flags & CRYPTO_KEY_FLAG_SEP ? "KSK" : "ZSK";
}

/* The role of the key with this tag and algorithm in zone's DNSKEY RRset
 * of the pool, or NULL when it has none. */
static const char *key_role(const struct cli_trace *t, const uint8_t *zone,
			    uint16_t tag, uint8_t alg)
{
	const struct val_rrset *keys = trace_rrset(t, zone, WIRE_TYPE_DNSKEY);

	for (size_t i = 0; keys && i < keys->n; i++) {
		const struct wire_rr *k = keys->rrs[i];
		if (k->rdlen >= 4 && k->rdata[3] == alg &&
		    wire_keytag(k->rdata, k->rdlen) == tag)
			return trace_dnskey_role(k->rdata);
	}
	return NULL;
}

void trace_sig_info(const struct cli_trace *t, const struct wire_rr *sig,
		    struct trace_sig *ret)
{
	const uint8_t *p = sig->rdata;
	struct val_limits lim;

	val_limits_default(&lim);
	ret->covered = wire_get16(p);
	ret->alg = p[2];
	ret->expiration = expand_time(wire_get32(p + 8), t->now);
	ret->inception = expand_time(wire_get32(p + 12), t->now);
	ret->tag = wire_get16(p + 16);
	ret->signer = p + 18;
	ret->timing = NULL;
	if (t->now > ret->expiration + lim.skew)
		ret->timing = "expired";
	else if (t->now < ret->inception - (int64_t)lim.skew)
		ret->timing = "not yet valid";
	ret->role = key_role(t, ret->signer, ret->tag, ret->alg);
}

int trace_ds_match(const struct cli_trace *t, const uint8_t *zone,
		   const struct wire_rr *ds, uint16_t *ret_tag)
{
	const struct val_rrset *keys = trace_rrset(t, zone, WIRE_TYPE_DNSKEY);

	for (size_t i = 0; keys && i < keys->n; i++) {
		const struct wire_rr *k = keys->rrs[i];
		int r = crypto_ds_match(zone, k->rdata, k->rdlen, ds->rdata,
					ds->rdlen);
		if (r < 0)
			return r;
		if (r == 1) {
			*ret_tag = wire_keytag(k->rdata, k->rdlen);
			return 1;
		}
	}
	return 0;
}

const struct val_rrset *trace_rrset(const struct cli_trace *t,
				    const uint8_t *owner, uint16_t type)
{
	return val_rrset_find(t->sets, t->nsets, owner, type);
}

size_t trace_zones(const struct cli_trace *t,
		   const struct val_keyset *const **ret)
{
	if (!t->bag) {
		*ret = NULL;
		return 0;
	}
	return val_bag_keysets(t->bag, ret);
}

enum dt_status trace_daemon_status(const struct cli_trace *t,
				   const uint8_t *name, uint16_t type)
{
	for (size_t i = 0; i < t->nfetch; i++) {
		if (t->fetch[i].type == type &&
		    wire_dname_equal(t->fetch[i].name, name))
			return t->fetch[i].status;
	}
	return DT_STATUS_NONE;
}

enum dt_status trace_offline_status(const struct cli_trace *t)
{
	if (!t->validated)
		return DT_STATUS_NONE;
	switch (t->res.verdict.status) {
	case VAL_SECURE: return DT_STATUS_SECURE;
	case VAL_INSECURE: return DT_STATUS_INSECURE;
	case VAL_BOGUS: return DT_STATUS_BOGUS;
	default: return DT_STATUS_INDETERMINATE;
	}
}
