/* SPDX-License-Identifier: MIT */
/*
 * The chain of trust as text, in the spirit of delv +vtrace: each zone
 * from the trust anchor down with its DS and DNSKEY key tags and
 * algorithms, which key signed what and when the signatures are valid,
 * the answer's signatures, the validator's steps, and both verdicts.
 */
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "cli/trace.h"
#include "validator/anchor.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define IND "    "

static void print_sig(const struct cli_trace *t, const struct wire_rr *sig,
		      FILE *f)
{
	char signer[DT_NAME_TEXT_MAXLEN], ty[16], from[24], to[24];
	struct trace_sig s;

	trace_sig_info(t, sig, &s);
	wire_dname_to_str(s.signer, signer, sizeof(signer));
	fprintf(f,
		IND "RRSIG %s by %s key %u (%s) alg %u, valid %s to %s%s%s\n",
		wire_type_to_str(s.covered, ty), signer, s.tag,
		s.role ? s.role : "not in the DNSKEY set", s.alg,
		cli_time_str(s.inception, from), cli_time_str(s.expiration, to),
		s.timing ? ": " : "", s.timing ? s.timing : "");
}

static void print_sigs(const struct cli_trace *t, const struct val_rrset *set,
		       FILE *f)
{
	char ty[16];

	if (set->nsigs == 0)
		fprintf(f, IND "%s unsigned\n",
			wire_type_to_str(set->type, ty));
	for (size_t i = 0; i < set->nsigs; i++)
		print_sig(t, set->sigs[i], f);
}

static void print_ds(const struct cli_trace *t, const uint8_t *zone,
		     const struct wire_rr *ds, const char *what, FILE *f)
{
	uint16_t tag;
	int m = trace_ds_match(t, zone, ds, &tag);

	fprintf(f, IND "%s %u alg %u digest %u -> ", what,
		wire_get16(ds->rdata), ds->rdata[2], ds->rdata[3]);
	if (m == 1)
		fprintf(f, "DNSKEY %u\n", tag);
	else if (m == 0)
		fprintf(f, "no DNSKEY matches\n");
	else
		fprintf(f, "digest type not supported\n");
}

static void print_zone_ds(const struct cli_trace *t, const uint8_t *zone,
			  FILE *f)
{
	const struct val_anchor_zone *az = val_anchors_find(t->ta, zone);
	const struct val_rrset *ds = trace_rrset(t, zone, WIRE_TYPE_DS);

	if (az && wire_dname_equal(az->zone, zone)) {
		for (size_t i = 0; i < az->nds; i++)
			print_ds(t, zone, &az->ds[i], "trust anchor DS", f);
		for (size_t i = 0; i < az->ndnskey; i++)
			fprintf(f, IND "trust anchor DNSKEY %u alg %u\n",
				wire_keytag(az->dnskey[i].rdata,
					    az->dnskey[i].rdlen),
				az->dnskey[i].rdata[3]);
		return;
	}
	if (!ds) {
		fprintf(f, IND "DS: none\n");
		return;
	}
	for (size_t i = 0; i < ds->n; i++)
		print_ds(t, zone, ds->rrs[i], "DS", f);
	print_sigs(t, ds, f);
}

static void print_zone_keys(const struct cli_trace *t, const uint8_t *zone,
			    FILE *f)
{
	const struct val_rrset *keys = trace_rrset(t, zone, WIRE_TYPE_DNSKEY);

	if (!keys) {
		fprintf(f, IND "DNSKEY: none\n");
		return;
	}
	fprintf(f, IND "DNSKEY");
	for (size_t i = 0; i < keys->n; i++) {
		const struct wire_rr *k = keys->rrs[i];
		fprintf(f, "%s %u alg %u %s", i ? "," : "",
			wire_keytag(k->rdata, k->rdlen), k->rdata[3],
			trace_dnskey_role(k->rdata));
	}
	fprintf(f, "\n");
	print_sigs(t, keys, f);
}

static void print_daemon(const struct cli_trace *t, const uint8_t *zone,
			 FILE *f)
{
	enum dt_status ds = trace_daemon_status(t, zone, WIRE_TYPE_DS);
	enum dt_status keys = trace_daemon_status(t, zone, WIRE_TYPE_DNSKEY);

	fprintf(f, IND "dnstrustd:");
	if (ds != DT_STATUS_NONE)
		fprintf(f, " DS %s%s", dt_status_str(ds),
			keys != DT_STATUS_NONE ? "," : "");
	if (keys != DT_STATUS_NONE)
		fprintf(f, " DNSKEY %s", dt_status_str(keys));
	fprintf(f, "\n");
}

static void print_zone(const struct cli_trace *t, const struct val_keyset *ks,
		       bool *failed, FILE *f)
{
	char zone[DT_NAME_TEXT_MAXLEN];
	bool fails = ks->verdict.status == VAL_BOGUS && !*failed;

	wire_dname_to_str(ks->zone, zone, sizeof(zone));
	fprintf(f, "zone %s: %s", zone, val_status_name(ks->verdict.status));
	if (ks->verdict.reason[0])
		fprintf(f, ": %s [%s]", ks->verdict.reason, ks->verdict.tag);
	fprintf(f, "%s\n", fails ? "  <-- fails here" : "");
	*failed |= fails;
	print_zone_ds(t, ks->zone, f);
	print_zone_keys(t, ks->zone, f);
	print_daemon(t, ks->zone, f);
}

/* The RRsets of one section of the answer and their signatures. */
static void print_section(const struct cli_trace *t, int sec, FILE *f)
{
	const struct wire_msg *m = t->fetch[0].msg;
	char owner[DT_NAME_TEXT_MAXLEN], ty[16];
	struct val_rrset *sets;
	struct arena a;

	arena_init(&a, 0);
	int n = val_rrsets_collect(m->sec[sec], m->count[sec], &a, &sets);
	for (int i = 0; i < n; i++) {
		uint16_t type = sets[i].n ? sets[i].type
					  : val_rrsig_covered(sets[i].sigs[0]);
		wire_dname_to_str(sets[i].owner, owner, sizeof(owner));
		fprintf(f, "%s %s %s%s\n",
			sec == WIRE_SEC_ANSWER ? "answer" : "authority", owner,
			wire_type_to_str(type, ty),
			sets[i].n ? "" : " (signatures without data)");
		print_sigs(t, &sets[i], f);
	}
	arena_free(&a);
}

static void print_steps(const struct cli_trace *t, FILE *f)
{
	fprintf(f, "validator steps:\n");
	for (size_t i = 0; i < t->nstep; i++)
		fprintf(f, IND "%s\n", t->step[i]);
}

static void print_verdicts(const struct cli_trace *t,
			   const struct cli_answer *a, FILE *f)
{
	enum dt_status off = trace_offline_status(t);
	const struct val_verdict *v = &t->res.verdict;

	if (!t->validated) {
		fprintf(f, "not validated offline: %s\n", t->note);
		return;
	}
	fprintf(f, "verdict of dnstrustd: %s", dt_status_str(a->status));
	if (a->ede >= 0)
		fprintf(f, ", EDE %d (%s)", a->ede,
			wire_ede_name((uint16_t)a->ede));
	fprintf(f, "\n");
	fprintf(f, "verdict offline:      %s", dt_status_str(off));
	if (v->ede != VAL_EDE_NONE)
		fprintf(f, ", EDE %u (%s)", v->ede, wire_ede_name(v->ede));
	fprintf(f, "\n");
	if (v->status != VAL_SECURE && v->reason[0])
		fprintf(f, "%s: %s [%s]\n",
			v->status == VAL_INSECURE ? "insecure because"
						  : "failing step",
			v->reason, v->tag);
	if (off != a->status)
		fprintf(f,
			"NOTE: the two verdicts differ: dnstrustd says %s, "
			"the offline validation %s (the daemon may have "
			"other limits or anchors, or the data changed "
			"between questions)\n",
			dt_status_str(a->status), dt_status_str(off));
	else
		fprintf(f, "the two verdicts agree\n");
}

void cli_trace_print_text(const struct cli_trace *t, const struct cli_answer *a,
			  FILE *f)
{
	const struct val_keyset *const *zones;
	size_t nz = trace_zones(t, &zones);
	bool failed = false;
	char now[24];

	fprintf(f,
		";; CHAIN OF TRUST: %zu questions to dnstrustd (DO, CD), "
		"validated again here at %s\n",
		t->nfetch + 1, cli_time_str(t->now, now));
	for (size_t i = 0; i < t->nanchor_text; i++)
		fprintf(f, "trust anchor: %s\n", t->anchor_text[i]);
	if (t->incomplete)
		fprintf(f,
			"(incomplete: more than %d names above the answer)\n",
			CLI_TRACE_MAXNAMES);
	for (size_t i = 0; i < nz; i++)
		print_zone(t, zones[i], &failed, f);
	print_section(t, WIRE_SEC_ANSWER, f);
	print_section(t, WIRE_SEC_AUTHORITY, f);
	print_steps(t, f);
	print_verdicts(t, a, f);
}
