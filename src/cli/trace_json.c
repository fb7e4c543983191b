/* SPDX-License-Identifier: MIT */
/*
 * The chain of trust as one JSON object (see dnstrust(1), --trace
 * --json): the anchors, each zone with its DS and DNSKEY records and
 * their signatures, the answer's RRsets and signatures, the validator's
 * steps, and both verdicts.
 */
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "cli/trace.h"
#include "validator/anchor.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

static void json_name(const uint8_t *name, FILE *f)
{
	char text[DT_NAME_TEXT_MAXLEN];

	wire_dname_to_str(name, text, sizeof(text));
	cli_json_str(f, text);
}

static void json_status(enum dt_status s, FILE *f)
{
	cli_json_str(f, dt_status_str(s));
}

static void json_sig(const struct cli_trace *t, const struct wire_rr *sig,
		     FILE *f)
{
	char ty[16], from[24], to[24];
	struct trace_sig s;

	trace_sig_info(t, sig, &s);
	fprintf(f, "{\"covers\":\"%s\",\"signer\":",
		wire_type_to_str(s.covered, ty));
	json_name(s.signer, f);
	fprintf(f, ",\"key_tag\":%u,\"algorithm\":%u,\"key_role\":", s.tag,
		s.alg);
	if (s.role)
		cli_json_str(f, s.role);
	else
		fprintf(f, "null");
	fprintf(f,
		",\"inception\":\"%s\",\"expiration\":\"%s\","
		"\"valid_now\":%s}",
		cli_time_str(s.inception, from), cli_time_str(s.expiration, to),
		s.timing ? "false" : "true");
}

static void json_sigs(const struct cli_trace *t, const struct val_rrset *set,
		      FILE *f)
{
	fprintf(f, "[");
	for (size_t i = 0; set && i < set->nsigs; i++) {
		if (i)
			fprintf(f, ",");
		json_sig(t, set->sigs[i], f);
	}
	fprintf(f, "]");
}

static void json_ds(const struct cli_trace *t, const uint8_t *zone,
		    const struct wire_rr *ds, bool anchor, FILE *f)
{
	uint16_t tag;
	int m = trace_ds_match(t, zone, ds, &tag);

	fprintf(f,
		"{\"key_tag\":%u,\"algorithm\":%u,\"digest_type\":%u,"
		"\"anchor\":%s,\"matches\":",
		wire_get16(ds->rdata), ds->rdata[2], ds->rdata[3],
		anchor ? "true" : "false");
	if (m == 1)
		fprintf(f, "%u}", tag);
	else
		fprintf(f, "null}");
}

static void json_zone_ds(const struct cli_trace *t, const uint8_t *zone,
			 FILE *f)
{
	const struct val_anchor_zone *az = val_anchors_find(t->ta, zone);
	const struct val_rrset *ds = trace_rrset(t, zone, WIRE_TYPE_DS);
	bool anchor = az && wire_dname_equal(az->zone, zone);
	size_t k = 0;

	fprintf(f, ",\"anchor\":%s,\"ds\":[", anchor ? "true" : "false");
	for (size_t i = 0; anchor && i < az->nds; i++, k++) {
		fprintf(f, "%s", k ? "," : "");
		json_ds(t, zone, &az->ds[i], true, f);
	}
	for (size_t i = 0; !anchor && ds && i < ds->n; i++, k++) {
		fprintf(f, "%s", k ? "," : "");
		json_ds(t, zone, ds->rrs[i], false, f);
	}
	fprintf(f, "],\"ds_rrsigs\":");
	json_sigs(t, anchor ? NULL : ds, f);
}

static void json_zone_keys(const struct cli_trace *t, const uint8_t *zone,
			   FILE *f)
{
	const struct val_rrset *keys = trace_rrset(t, zone, WIRE_TYPE_DNSKEY);

	fprintf(f, ",\"dnskeys\":[");
	for (size_t i = 0; keys && i < keys->n; i++) {
		const struct wire_rr *k = keys->rrs[i];
		fprintf(f,
			"%s{\"key_tag\":%u,\"algorithm\":%u,\"flags\":%u,"
			"\"role\":\"%s\"}",
			i ? "," : "", wire_keytag(k->rdata, k->rdlen),
			k->rdata[3], wire_get16(k->rdata),
			trace_dnskey_role(k->rdata));
	}
	fprintf(f, "],\"dnskey_rrsigs\":");
	json_sigs(t, keys, f);
}

static void json_zone(const struct cli_trace *t, const struct val_keyset *ks,
		      FILE *f)
{
	fprintf(f, "{\"zone\":");
	json_name(ks->zone, f);
	fprintf(f, ",\"status\":\"%s\",\"reason\":",
		val_status_name(ks->verdict.status));
	cli_json_str(f, ks->verdict.reason);
	fprintf(f, ",\"tag\":");
	cli_json_str(f, ks->verdict.tag ? ks->verdict.tag : "");
	json_zone_ds(t, ks->zone, f);
	json_zone_keys(t, ks->zone, f);
	fprintf(f, ",\"daemon\":{\"ds\":");
	json_status(trace_daemon_status(t, ks->zone, WIRE_TYPE_DS), f);
	fprintf(f, ",\"dnskey\":");
	json_status(trace_daemon_status(t, ks->zone, WIRE_TYPE_DNSKEY), f);
	fprintf(f, "}}");
}

static void json_section(const struct cli_trace *t, int sec, size_t *k, FILE *f)
{
	const struct wire_msg *m = t->fetch[0].msg;
	struct val_rrset *sets;
	struct arena a;
	char ty[16];

	arena_init(&a, 0);
	int n = val_rrsets_collect(m->sec[sec], m->count[sec], &a, &sets);
	for (int i = 0; i < n; i++, (*k)++) {
		uint16_t type = sets[i].n ? sets[i].type
					  : val_rrsig_covered(sets[i].sigs[0]);
		fprintf(f, "%s{\"section\":\"%s\",\"owner\":", *k ? "," : "",
			sec == WIRE_SEC_ANSWER ? "answer" : "authority");
		json_name(sets[i].owner, f);
		fprintf(f, ",\"type\":\"%s\",\"records\":%zu,\"rrsigs\":",
			wire_type_to_str(type, ty), sets[i].n);
		json_sigs(t, &sets[i], f);
		fprintf(f, "}");
	}
	arena_free(&a);
}

static void json_strings(char *const *s, size_t n, FILE *f)
{
	fprintf(f, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			fprintf(f, ",");
		cli_json_str(f, s[i]);
	}
	fprintf(f, "]");
}

static void json_offline(const struct cli_trace *t, FILE *f)
{
	const struct val_verdict *v = &t->res.verdict;

	if (!t->validated) {
		fprintf(f, ",\"offline\":null,\"note\":");
		cli_json_str(f, t->note);
		return;
	}
	fprintf(f, ",\"offline\":{\"status\":");
	json_status(trace_offline_status(t), f);
	if (v->ede != VAL_EDE_NONE)
		fprintf(f, ",\"ede\":%u", v->ede);
	else
		fprintf(f, ",\"ede\":null");
	fprintf(f, ",\"reason\":");
	cli_json_str(f, v->reason);
	fprintf(f, ",\"tag\":");
	cli_json_str(f, v->tag ? v->tag : "");
	fprintf(f, "},\"note\":null");
}

void cli_trace_print_json(const struct cli_trace *t, const struct cli_answer *a,
			  FILE *f)
{
	const struct val_keyset *const *zones;
	size_t nz = trace_zones(t, &zones), k = 0;
	char now[24];

	fprintf(f,
		"{\"time\":\"%s\",\"questions\":%zu,\"incomplete\":%s,"
		"\"anchors\":",
		cli_time_str(t->now, now), t->nfetch + 1,
		t->incomplete ? "true" : "false");
	json_strings(t->anchor_text, t->nanchor_text, f);
	fprintf(f, ",\"zones\":[");
	for (size_t i = 0; i < nz; i++) {
		if (i)
			fprintf(f, ",");
		json_zone(t, zones[i], f);
	}
	fprintf(f, "],\"rrsets\":[");
	json_section(t, WIRE_SEC_ANSWER, &k, f);
	json_section(t, WIRE_SEC_AUTHORITY, &k, f);
	fprintf(f, "],\"steps\":");
	json_strings(t->step, t->nstep, f);
	fprintf(f, ",\"daemon\":{\"status\":");
	json_status(a->status, f);
	fprintf(f, ",\"ede\":");
	if (a->ede >= 0)
		fprintf(f, "%d}", a->ede);
	else
		fprintf(f, "null}");
	json_offline(t, f);
	fprintf(f, ",\"agree\":%s}",
		t->validated && trace_offline_status(t) == a->status ? "true"
								     : "false");
}
