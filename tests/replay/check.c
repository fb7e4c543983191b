/* SPDX-License-Identifier: MIT */
/*
 * The scripted upstream (which entry answers a fetch, and the reply it
 * makes) and the comparison of a client reply with a CHECK_ANSWER entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpl.h"
#include "wire/dname.h"
#include "wire/zone.h"

bool rpl_entry_matches(const struct rpl_entry *e, const uint8_t *name,
		       uint16_t type, bool tcp)
{
	if ((e->match & RPL_M_TCP) && !tcp)
		return false;
	if ((e->match & RPL_M_UDP) && tcp)
		return false;
	if ((e->match & RPL_M_QTYPE) && (!e->has_q || e->qtype != type))
		return false;
	if (e->match & RPL_M_SUBDOMAIN)
		return e->has_q && wire_dname_is_subdomain(name, e->qname);
	if ((e->match & RPL_M_QNAME) &&
	    (!e->has_q || !wire_dname_equal(name, e->qname)))
		return false;
	return true;
}

int rpl_entry_reply(const struct rpl_entry *e, const uint8_t *name,
		    uint16_t type, uint8_t *buf, size_t cap)
{
	struct wire_builder b;
	int ret;

	if (e->hex) {
		if (e->hexlen > cap)
			return -1;
		memcpy(buf, e->hex, e->hexlen);
		return (int)e->hexlen;
	}
	ret = wire_build_init(&b, buf, cap, 0, (uint16_t)(e->flags | e->rcode));
	if (ret < 0)
		return ret;
	if (e->copy_query || !e->has_q)
		ret = wire_build_question(&b, name, type, WIRE_CLASS_IN);
	else
		ret = wire_build_question(&b, e->qname, e->qtype, e->qclass);
	for (int s = 0; ret == 0 && s < WIRE_SEC_COUNT; s++)
		for (size_t i = 0; ret == 0 && i < e->n[s]; i++)
			ret = wire_build_rr(&b, (enum wire_section)s,
					    &e->sec[s][i]);
	/* An upstream asked with DO answers with EDNS and DO. */
	if (ret == 0)
		ret = wire_build_opt(&b, 4096, 0, 0, WIRE_EDNS_DO, NULL, 0);
	if (ret < 0)
		return ret;
	return (int)wire_build_finish(&b);
}

/* ---- comparison ---- */

static bool rdata_equal(const struct wire_rr *a, const struct wire_rr *b)
{
	static uint8_t ca[DT_RDATA_MAXLEN], cb[DT_RDATA_MAXLEN];

	if (a->rdlen != b->rdlen)
		return false;
	memcpy(ca, a->rdata, a->rdlen);
	memcpy(cb, b->rdata, b->rdlen);
	wire_rdata_canonicalize(a->type, ca, a->rdlen);
	wire_rdata_canonicalize(b->type, cb, b->rdlen);
	return memcmp(ca, cb, a->rdlen) == 0;
}

static bool rr_equal(const struct wire_rr *a, const struct wire_rr *b, bool ttl)
{
	return a->type == b->type && a->rclass == b->rclass &&
	       (!ttl || a->ttl == b->ttl) &&
	       wire_dname_equal(a->owner, b->owner) && rdata_equal(a, b);
}

static void rr_text(const struct wire_rr *rr, char *out, size_t outlen)
{
	size_t n = WIRE_RR_TEXT_MAXLEN(rr->rdlen);
	char *t = malloc(n);

	if (!t || wire_rr_to_str(rr, t, n) < 0)
		snprintf(out, outlen, "(a record)");
	else
		snprintf(out, outlen, "%s", t);
	free(t);
}

static const char *const sec_names[] = {"answer", "authority", "additional"};

/* The two lists as multisets: each expected record used once. */
static int cmp_section(int s, const struct wire_rr *want, size_t nwant,
		       const struct wire_rr *got, size_t ngot, bool ttl,
		       char *why, size_t whylen)
{
	bool *used = calloc(ngot + 1, sizeof(*used));
	char text[256];
	int ret = 0;

	if (!used) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < nwant && ret == 0; i++) {
		size_t j;

		for (j = 0; j < ngot; j++)
			if (!used[j] && rr_equal(&want[i], &got[j], ttl))
				break;
		if (j == ngot) {
			rr_text(&want[i], text, sizeof(text));
			snprintf(why, whylen, "%s: missing %s", sec_names[s],
				 text);
			ret = -1;
		} else {
			used[j] = true;
		}
	}
	for (size_t j = 0; j < ngot && ret == 0; j++)
		if (!used[j]) {
			rr_text(&got[j], text, sizeof(text));
			snprintf(why, whylen, "%s: unexpected %s", sec_names[s],
				 text);
			ret = -1;
		}
	free(used);
	return ret;
}

static const char *rcode_str(unsigned rc, char buf[16])
{
	static const char *const names[] = {"NOERROR",	"FORMERR", "SERVFAIL",
					    "NXDOMAIN", "NOTIMP",  "REFUSED"};

	if (rc < 6)
		return names[rc];
	snprintf(buf, 16, "RCODE%u", rc);
	return buf;
}

static int cmp_ede(const struct rpl_entry *e, const struct wire_msg *m,
		   char *why, size_t whylen)
{
	uint16_t code = 0;
	const char *text;
	size_t tl;
	int has = m->edns.present ? wire_edns_ede(&m->edns, &code, &text, &tl)
				  : 0;

	if (e->ede == RPL_EDE_ABSENT && has == 1) {
		snprintf(why, whylen, "EDE %u, expected none", code);
		return -1;
	}
	if (e->ede != RPL_EDE_ABSENT && has != 1) {
		snprintf(why, whylen, "no EDE, expected %d", e->ede);
		return -1;
	}
	if (e->ede != RPL_EDE_ABSENT && code != e->ede) {
		snprintf(why, whylen, "EDE %u (%.*s), expected %d", code,
			 (int)(tl > 80 ? 80 : tl), text, e->ede);
		return -1;
	}
	return 0;
}

/* Appends the reply's EDE, which says why it failed, to why. */
static void ede_note(const struct wire_msg *m, char *why, size_t whylen)
{
	uint16_t code;
	const char *text;
	size_t tl, n = strlen(why);

	if (m->edns.present &&
	    wire_edns_ede(&m->edns, &code, &text, &tl) == 1 && n < whylen)
		snprintf(why + n, whylen - n, " (EDE %u: %.*s)", code,
			 (int)(tl > 160 ? 160 : tl), text);
}

/* The header flags a peer's `flags` compares (the RCODE aside). */
#define PEER_FLAGS                                                          \
	(WIRE_FLAG_QR | WIRE_FLAG_AA | WIRE_FLAG_TC | WIRE_FLAG_RD |        \
	 WIRE_FLAG_RA | WIRE_FLAG_AD | WIRE_FLAG_CD)

/*
 * What a CHECK_ANSWER compares. dnstrust's rule: the RCODE, the AD flag
 * and the answer section (`sections` adds the other two). A peer's entry
 * whose MATCH line does not say `all` is compared as its harness compares
 * it: only what the line names (Deckard's rcode, flags, answer,
 * authority, additional).
 */
struct what {
	bool rcode, ad, flags, sec[WIRE_SEC_COUNT];
};

static struct what compared(const struct rpl_entry *e, bool peer)
{
	bool more = e->match & RPL_M_SECTIONS;
	struct what w = {.rcode = true, .ad = true,
			 .sec = {true, more, more}};

	if (!peer || (e->match & RPL_M_ALL))
		return w;
	w.rcode = e->match & RPL_M_RCODE;
	w.ad = w.flags = e->match & RPL_M_FLAGS;
	w.sec[0] = e->match & RPL_M_ANSWER;
	w.sec[1] = more || (e->match & RPL_M_AUTHORITY);
	w.sec[2] = more || (e->match & RPL_M_ADDITIONAL);
	return w;
}

static int cmp_msg(const struct rpl_entry *e, const struct wire_msg *m,
		   bool peer, char *why, size_t whylen)
{
	struct what w = compared(e, peer);
	bool ttl = e->match & RPL_M_TTL;
	char b1[16], b2[16];

	if (e->match & RPL_M_NOTHING)
		return 0;
	if (w.rcode && m->rcode != e->rcode) {
		snprintf(why, whylen, "rcode %s, expected %s",
			 rcode_str(m->rcode, b1), rcode_str(e->rcode, b2));
		ede_note(m, why, whylen);
		return -1;
	}
	if (w.ad && (m->hdr.flags & WIRE_FLAG_AD) != (e->flags & WIRE_FLAG_AD)) {
		snprintf(why, whylen, "AD %s, expected %s",
			 (m->hdr.flags & WIRE_FLAG_AD) ? "set" : "clear",
			 (e->flags & WIRE_FLAG_AD) ? "set" : "clear");
		return -1;
	}
	if (w.flags &&
	    (m->hdr.flags & PEER_FLAGS) != (e->flags & PEER_FLAGS)) {
		snprintf(why, whylen, "flags 0x%04x, expected 0x%04x",
			 (unsigned)(m->hdr.flags & PEER_FLAGS),
			 (unsigned)(e->flags & PEER_FLAGS));
		return -1;
	}
	if ((e->match & RPL_M_EDE) && cmp_ede(e, m, why, whylen) < 0)
		return -1;
	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		if (w.sec[s] &&
		    cmp_section(s, e->sec[s], e->n[s], m->sec[s], m->count[s],
				ttl, why, whylen) < 0)
			return -1;
	return 0;
}

int rpl_check(const struct rpl_entry *e, const uint8_t *reply, size_t len,
	      bool peer, char *why, size_t whylen)
{
	struct wire_msg *m;
	int err = 0, ret;

	m = wire_msg_parse(reply, len, 0, &err);
	if (!m) {
		snprintf(why, whylen, "reply does not parse (%d)", err);
		return -1;
	}
	ret = cmp_msg(e, m, peer, why, whylen);
	wire_msg_free(m);
	return ret;
}
