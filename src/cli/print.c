/* SPDX-License-Identifier: MIT */
/*
 * An answer printed as dig prints one (header, flags, sections, records in
 * presentation form) with what dnstrustd adds: the trust status, the
 * cache, the Extended DNS Error; or as JSON members.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/client.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

static const char *const section_name[WIRE_SEC_COUNT] = {"ANSWER", "AUTHORITY",
							 "ADDITIONAL"};
static const char *const section_key[WIRE_SEC_COUNT] = {"answer", "authority",
							"additional"};

const char *cli_rcode_str(int rcode, char buf[16])
{
	static const char *const names[] = {"NOERROR",	"FORMERR", "SERVFAIL",
					    "NXDOMAIN", "NOTIMP",  "REFUSED"};

	if (rcode >= 0 && rcode < 6)
		return names[rcode];
	snprintf(buf, 16, "RCODE%d", rcode);
	return buf;
}

/* Records shown in a section: none when withheld. */
static size_t shown(const struct cli_answer *a, int sec)
{
	return a->msg && !a->withheld ? a->msg->count[sec] : 0;
}

/* The question's name: the one the daemon echoed, else as given. */
static const char *question_name(const struct cli_answer *a,
				 char buf[DT_NAME_TEXT_MAXLEN])
{
	if (a->msg && a->msg->has_question &&
	    wire_dname_to_str(a->msg->qname, buf, DT_NAME_TEXT_MAXLEN) > 0)
		return buf;
	return a->qname;
}

static void print_flags(const struct cli_answer *a, FILE *f)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} fl[] = {{WIRE_FLAG_QR, "qr"}, {WIRE_FLAG_AA, "aa"},
		  {WIRE_FLAG_TC, "tc"}, {WIRE_FLAG_RD, "rd"},
		  {WIRE_FLAG_RA, "ra"}, {WIRE_FLAG_AD, "ad"},
		  {WIRE_FLAG_CD, "cd"}};
	uint16_t flags = a->msg ? a->msg->hdr.flags : WIRE_FLAG_QR;

	/* Withheld: show the flags of the answer to the question asked, not
	 * of the one asked again with CD=1 to explain it. */
	if (a->withheld)
		flags &= (uint16_t)~WIRE_FLAG_AD;
	if (a->withheld && !(a->flags & DT_FLAG_RETURN_BOGUS))
		flags &= (uint16_t)~WIRE_FLAG_CD;
	fprintf(f, ";; flags:");
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		if (flags & fl[i].bit)
			fprintf(f, " %s", fl[i].name);
	}
	fprintf(f, "; QUERY: 1, ANSWER: %zu, AUTHORITY: %zu, ADDITIONAL: %zu\n",
		shown(a, WIRE_SEC_ANSWER), shown(a, WIRE_SEC_AUTHORITY),
		shown(a, WIRE_SEC_ADDITIONAL));
}

static const char *status_text(enum dt_status s, bool in_process)
{
	switch (s) {
	case DT_STATUS_SECURE:
		return in_process ? "secure, validated in-process"
				  : "secure, validated by dnstrustd";
	case DT_STATUS_INSECURE: return "insecure, provably unsigned";
	case DT_STATUS_BOGUS: return "bogus";
	case DT_STATUS_INDETERMINATE: return "indeterminate";
	case DT_STATUS_UNVALIDATED: return "unvalidated";
	default: return "not validated";
	}
}

static void print_trust(const struct cli_answer *a, FILE *f)
{
	fprintf(f, ";; DNSSEC: %s; %s\n",
		status_text(a->status, a->in_process),
		a->in_process ? (a->cached ? "answered from the in-process cache"
					   : "not from the in-process cache")
		: a->cached   ? "answered from the daemon's cache"
			      : "not from the daemon's cache");
	if (a->ede >= 0)
		fprintf(f, ";; EDE: %d (%s): %s\n", a->ede,
			wire_ede_name((uint16_t)a->ede), a->ede_text);
	if (a->withheld)
		fprintf(f, ";; WITHHELD: %s\n", a->withheld);
}

static void print_rr(const struct wire_rr *rr, FILE *f)
{
	size_t cap = WIRE_RR_TEXT_MAXLEN(rr->rdlen);
	char *buf = malloc(cap);

	if (buf && wire_rr_to_str(rr, buf, cap) >= 0)
		fprintf(f, "%s\n", buf);
	free(buf);
}

void cli_answer_print_text(const struct cli_answer *a, FILE *f)
{
	char name[DT_NAME_TEXT_MAXLEN], rc[16], cl[16], ty[16];

	fprintf(f, ";; ->>HEADER<<- opcode: QUERY, status: %s, id: %u\n",
		cli_rcode_str(a->rcode, rc), a->msg ? a->msg->hdr.id : 0);
	print_flags(a, f);
	print_trust(a, f);
	fprintf(f, "\n;; QUESTION SECTION:\n;%s\t\t%s\t%s\n",
		question_name(a, name), wire_class_to_str(a->qclass, cl),
		wire_type_to_str(a->qtype, ty));
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		if (!shown(a, s))
			continue;
		fprintf(f, "\n;; %s SECTION:\n", section_name[s]);
		for (size_t i = 0; i < a->msg->count[s]; i++)
			print_rr(&a->msg->sec[s][i], f);
	}
	fprintf(f, "\n");
}

static void json_rr(const struct wire_rr *rr, FILE *f)
{
	size_t cap = WIRE_RR_TEXT_MAXLEN(rr->rdlen);
	char name[DT_NAME_TEXT_MAXLEN], cl[16], ty[16];
	char *rdata = malloc(cap);

	wire_dname_to_str(rr->owner, name, sizeof(name));
	fprintf(f, "{\"name\":");
	cli_json_str(f, name);
	fprintf(f, ",\"ttl\":%u,\"class\":\"%s\",\"type\":\"%s\",\"rdata\":",
		rr->ttl, wire_class_to_str(rr->rclass, cl),
		wire_type_to_str(rr->type, ty));
	if (rdata &&
	    wire_rdata_to_str(rr->type, rr->rdata, rr->rdlen, rdata, cap) >= 0)
		cli_json_str(f, rdata);
	else
		fprintf(f, "null");
	fprintf(f, "}");
	free(rdata);
}

static void json_section(const struct cli_answer *a, int s, FILE *f)
{
	fprintf(f, ",\"%s\":[", section_key[s]);
	for (size_t i = 0; i < shown(a, s); i++) {
		if (i)
			fprintf(f, ",");
		json_rr(&a->msg->sec[s][i], f);
	}
	fprintf(f, "]");
}

static void json_ede(const struct cli_answer *a, FILE *f)
{
	if (a->ede < 0) {
		fprintf(f, ",\"ede\":null");
		return;
	}
	fprintf(f, ",\"ede\":{\"code\":%d,\"name\":", a->ede);
	cli_json_str(f, wire_ede_name((uint16_t)a->ede));
	fprintf(f, ",\"text\":");
	cli_json_str(f, a->ede_text);
	fprintf(f, "}");
}

void cli_answer_print_json(const struct cli_answer *a, FILE *f)
{
	char name[DT_NAME_TEXT_MAXLEN], rc[16], cl[16], ty[16];
	bool ad = a->msg && !a->withheld && (a->msg->hdr.flags & WIRE_FLAG_AD);

	fprintf(f, "\"question\":{\"name\":");
	cli_json_str(f, question_name(a, name));
	fprintf(f, ",\"class\":\"%s\",\"type\":\"%s\"}",
		wire_class_to_str(a->qclass, cl),
		wire_type_to_str(a->qtype, ty));
	fprintf(f, ",\"rcode\":\"%s\",\"status\":\"%s\",\"result\":\"%s\"",
		cli_rcode_str(a->rcode, rc), dt_status_str(a->status),
		cli_answer_result(a));
	fprintf(f, ",\"ad\":%s,\"cached\":%s", ad ? "true" : "false",
		a->cached ? "true" : "false");
	json_ede(a, f);
	fprintf(f, ",\"withheld\":");
	if (a->withheld)
		cli_json_str(f, a->withheld);
	else
		fprintf(f, "null");
	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		json_section(a, s, f);
	fprintf(f, ",\"exit\":%d", cli_answer_exit(a));
}
