/* SPDX-License-Identifier: MIT */
/*
 * src/upstream/capab.c: observations in, verdicts and the auto-mode
 * judgement out. Silence is never "no"; each way a resolver can fail a
 * validator has its reason; what is remembered (EDNS off, TCP first)
 * follows the observations; responses teach what they show; a new list
 * of servers forgets everything; events say when a verdict changed and
 * when a network that failed everything answers again; the judgement is
 * settled only when recursive or when a "yes" has been through the
 * probe's every step.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "upstream/capab.h"
#include "wire/msg.h"
#include "tap.h"

static unsigned events, nevents;

static void on_event(void *arg, unsigned ev)
{
	(void)arg;
	events |= ev;
	nevents++;
}

static struct up_server server(const char *addr)
{
	struct up_server s;

	memset(&s, 0, sizeof(s));
	if (up_server_parse(addr, &s) != 0)
		diag("bad address %s", addr);
	return s;
}

static struct up_server A, B, C;

static void set(struct capab *c, size_t n)
{
	struct up_conf conf;
	const struct up_server *all[] = {&A, &B, &C};

	memset(&conf, 0, sizeof(conf));
	for (size_t i = 0; i < n; i++)
		conf.ns[i] = *all[i];
	conf.nns = n;
	capab_set_servers(c, &conf);
	events = nevents = 0;
}

static struct capab_view view(struct capab *c, const struct up_server *s)
{
	struct capab_view v[DT_UP_MAXNS], none;

	size_t n = capab_list(c, v, DT_UP_MAXNS);
	for (size_t i = 0; i < n; i++)
		if (up_server_equal(&v[i].server, s))
			return v[i];
	memset(&none, 0, sizeof(none));
	snprintf(none.reason, sizeof(none.reason), "(absent)");
	return none;
}

static void verdict_check(struct capab *c, const struct up_server *s,
			  const char *want, const char *why, const char *what)
{
	struct capab_view v = view(c, s);
	const char *reason = v.reason;

	is_str(capab_tri_name(v.dnssec), want, "%s: verdict", what);
	is_str(reason, why, "%s: reason", what);
}

#define verdict_is(c, s, want, why, what)                                      \
	verdict_check((c), &(s), (want), (why), (what))

static void obs(struct capab *c, const struct up_server *s, size_t n, ...)
{
	va_list ap;

	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		capab_observe(c, s, (enum capab_obs)va_arg(ap, int));
	va_end(ap);
}

static void silence_is_not_no(struct capab *c)
{
	set(c, 2);
	verdict_is(c, A, "unknown", "not asked yet", "fresh server");
	is_int(capab_mode(c, NULL), CAPAB_MODE_UNDECIDED,
	       "no verdict: the mode stays as it is");
	obs(c, &A, 1, CAPAB_UNREACHABLE);
	verdict_is(c, A, "unknown", "unreachable",
		   "never answered, one timeout");
	obs(c, &B, 3, CAPAB_UNREACHABLE, CAPAB_UNREACHABLE, CAPAB_UNREACHABLE);
	verdict_is(c, B, "unknown", "unreachable", "never answers");
	is_int(capab_mode(c, NULL), CAPAB_MODE_UNDECIDED,
	       "every server silent: undecided, never recursive");
	obs(c, &A, 1, CAPAB_ANSWER);
	verdict_is(c, A, "unknown", "no DNSSEC answer seen yet",
		   "answers, nothing about DNSSEC yet");
	ok(events & CAPAB_EV_RECOVERED,
	   "every server unreachable, then one answers: recovered event");
}

static void reasons(struct capab *c)
{
	static const struct {
		enum capab_obs o1, o2;
		const char *reason;
	} t[] = {
		{CAPAB_EDNS_FORMERR, CAPAB_ANSWER, "FORMERR to EDNS"},
		{CAPAB_EDNS_IGNORED, CAPAB_ANSWER, "ignores EDNS"},
		{CAPAB_RRSIG_STRIPPED, CAPAB_ANSWER, "strips RRSIG with DO=1"},
		{CAPAB_AD_STRIPPED, CAPAB_ANSWER, "sets AD without RRSIG"},
		{CAPAB_DS_SERVFAIL, CAPAB_RRSIG_OK, "SERVFAIL to DS"},
		{CAPAB_DS_NXDOMAIN, CAPAB_RRSIG_OK, "NXDOMAIN to DS"},
		{CAPAB_DS_REFUSED, CAPAB_RRSIG_OK, "REFUSED to DS"},
		{CAPAB_TRUNCATED, CAPAB_TCP_FAIL,
		 "truncates at 512 and refuses TCP"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		set(c, 1);
		obs(c, &A, 3, CAPAB_ANSWER, t[i].o1, t[i].o2);
		verdict_is(c, A, "no", t[i].reason, t[i].reason);
		ok(events & CAPAB_EV_VERDICT, "%s: verdict event", t[i].reason);
		is_int(capab_mode(c, NULL), CAPAB_MODE_RECURSIVE,
		       "%s, alone: recursive", t[i].reason);
	}
	set(c, 1);
	obs(c, &A, 4, CAPAB_ANSWER, CAPAB_TRUNCATED, CAPAB_TCP_FAIL,
	    CAPAB_BIG_OK);
	ok(view(c, &A).dnssec != CAPAB_NO,
	   "TCP fails but 1232-octet UDP answers come: not \"no\"");
	set(c, 1);
	obs(c, &A, 3, CAPAB_ANSWER, CAPAB_RRSIG_OK, CAPAB_DS_OK);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1", "signed answers");
	obs(c, &A, 1, CAPAB_RRSIG_STRIPPED);
	verdict_is(c, A, "no", "strips RRSIG with DO=1",
		   "yes, then stripped: the last observation counts");
	obs(c, &A, 1, CAPAB_RRSIG_OK);
	verdict_is(c, A, "no", "strips RRSIG with DO=1",
		   "signed again: still no (held until a probe)");
	ok(view(c, &A).held, "  and the view says it is held");
	obs(c, &A, 1, CAPAB_PROBED);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "a probe through all its steps finds it signed: yes");
	obs(c, &A, 2, CAPAB_RRSIG_STRIPPED, CAPAB_RRSIG_OK);
	verdict_is(c, A, "no", "strips RRSIG with DO=1",
		   "stripped then signed between probes: no (an on-path "
		   "party cannot flip it with the traffic)");
	obs(c, &A, 2, CAPAB_DS_SERVFAIL, CAPAB_PROBED);
	verdict_is(c, A, "no", "SERVFAIL to DS",
		   "a probe that finds a fault keeps it held");
	obs(c, &A, 2, CAPAB_DS_OK, CAPAB_PROBED);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "a clean probe ends the hold");
}

/* The hostile networks of issue 28: each reaches "no" with its reason. */
static void hostile(struct capab *c)
{
	static const struct {
		enum capab_obs obs;
		const char *reason;
	} t[] = {
		{CAPAB_ROOTKEY_NODATA, "no data to the root DNSKEY"},
		{CAPAB_ROOTKEY_NXDOMAIN, "NXDOMAIN to the root DNSKEY"},
		{CAPAB_DO_CLEARED, "clears DO in replies"},
		{CAPAB_DS_EMPTY, "DS without data or denial"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		set(c, 1);
		obs(c, &A, 2, CAPAB_ANSWER, t[i].obs);
		verdict_is(c, A, "no", t[i].reason, t[i].reason);
		is_int(capab_mode(c, NULL), CAPAB_MODE_RECURSIVE,
		       "%s: recursive", t[i].reason);
		ok(capab_settled(c), "%s: settled", t[i].reason);
	}
	set(c, 1);
	obs(c, &A, 2, CAPAB_ANSWER, CAPAB_RRSIG_OK);
	capab_portal(c, &A, "192.0.2.99");
	ok(view(c, &A).portal, "a portal is seen in the view");
	verdict_is(c, A, "no",
		   "captive portal (answers rewritten to 192.0.2.99)",
		   "a portal that passes DNSKEY and DS signed: no, with its "
		   "address");
	is_int(capab_mode(c, NULL), CAPAB_MODE_RECURSIVE,
	       "a portal: recursive");
	ok(capab_settled(c), "a portal: settled");
	obs(c, &A, 2, CAPAB_RRSIG_OK, CAPAB_NXD_OK);
	ok(!view(c, &A).portal, "a real NXDOMAIN later: no portal");
	verdict_is(c, A, "no", "captive portal (answers rewritten)",
		   "the portal's no is held until a probe goes through");
	obs(c, &A, 1, CAPAB_PROBED);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "signed on, a clean probe: yes");
	capab_portal(c, &A, NULL);
	obs(c, &A, 2, CAPAB_NXD_OK, CAPAB_RRSIG_OK);
	verdict_is(c, A, "no", "captive portal (answers rewritten)",
		   "a portal again, then signed answers between probes: "
		   "still no");
	capab_portal(c, &A, "2001:db8::99");
	obs(c, &A, 1, CAPAB_PROBED);
	verdict_is(c, A, "no",
		   "captive portal (answers rewritten to 2001:db8::99)",
		   "a probe that meets the portal again: no");
	set(c, 1);
	obs(c, &A, 4, CAPAB_ANSWER, CAPAB_RRSIG_OK, CAPAB_DO_CLEARED,
	    CAPAB_PROBED);
	verdict_is(c, A, "no", "clears DO in replies",
		   "DO cleared with RRSIGs seen before: no");
	obs(c, &A, 2, CAPAB_RRSIG_OK, CAPAB_PROBED);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "signed again, and a clean probe: yes");
	set(c, 1);
	obs(c, &A, 3, CAPAB_ANSWER, CAPAB_ROOTKEY_NODATA, CAPAB_RRSIG_OK);
	obs(c, &A, 1, CAPAB_PROBED);
	verdict_is(c, A, "no", "no data to the root DNSKEY",
		   "a signed DS does not make up for the root's DNSKEY");
	obs(c, &A, 2, CAPAB_ROOTKEY_OK, CAPAB_PROBED);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "the root's DNSKEY answered, clean probe: yes");
}

static void judgement(struct capab *c)
{
	const char *why;

	set(c, 3);
	obs(c, &A, 2, CAPAB_ANSWER, CAPAB_RRSIG_STRIPPED);
	is_int(capab_mode(c, &why), CAPAB_MODE_RECURSIVE,
	       "one no, two unknown: recursive");
	is_str(why, "no upstream can do DNSSEC", "its reason");
	obs(c, &B, 2, CAPAB_ANSWER, CAPAB_RRSIG_OK);
	is_int(capab_mode(c, &why), CAPAB_MODE_FORWARD,
	       "one yes beside a no: forward");
	is_str(why, "an upstream can do DNSSEC", "its reason");
	obs(c, &B, 2, CAPAB_UNREACHABLE, CAPAB_UNREACHABLE);
	verdict_is(c, B, "unknown", "unreachable",
		   "a yes server times out twice");
	is_int(capab_mode(c, NULL), CAPAB_MODE_RECURSIVE,
	       "the yes one unreachable, the other no: recursive");
	obs(c, &B, 1, CAPAB_ANSWER);
	is_int(capab_mode(c, NULL), CAPAB_MODE_FORWARD,
	       "it answers again: forward at once");
	set(c, 2);
	obs(c, &A, 2, CAPAB_ANSWER, CAPAB_RRSIG_OK);
	obs(c, &A, 1, CAPAB_UNREACHABLE);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "one lost datagram does not make a server unreachable");
	obs(c, &C, 2, CAPAB_ANSWER, CAPAB_RRSIG_STRIPPED);
	verdict_is(c, C, "unknown", "(absent)",
		   "a server not in the table (split DNS) is ignored");
}

/* The start-up hold waits for capab_settled: a "yes" from the first
 * step (DNSKEY with RRSIG) is not settled until the probe has gone
 * through the DS step too, which may take it back. */
static void settling(struct capab *c)
{
	set(c, 2);
	ok(!capab_settled(c), "fresh: not settled");
	obs(c, &A, 2, CAPAB_ANSWER, CAPAB_RRSIG_OK);
	is_int(capab_mode(c, NULL), CAPAB_MODE_FORWARD,
	       "a first-step yes: forward");
	ok(!capab_settled(c), "but not settled while the probe goes on");
	ok(!(events & CAPAB_EV_SETTLED), "no settled event yet");
	events = 0;
	obs(c, &A, 1, CAPAB_DS_SERVFAIL);
	ok(capab_settled(c) && capab_mode(c, NULL) == CAPAB_MODE_RECURSIVE,
	   "the DS step takes the yes back: recursive, settled");
	ok(events & CAPAB_EV_SETTLED, "with a settled event");
	ok(events & CAPAB_EV_VERDICT, "and a verdict event");
	obs(c, &A, 1, CAPAB_PROBED);
	ok(capab_settled(c), "the probe's end changes nothing then");

	set(c, 2);
	obs(c, &A, 3, CAPAB_ANSWER, CAPAB_RRSIG_OK, CAPAB_DS_OK);
	ok(!capab_settled(c), "yes, DS answered, the probe not over");
	events = nevents = 0;
	obs(c, &A, 1, CAPAB_PROBED);
	ok(capab_settled(c), "the probe over: settled");
	is_int(events, CAPAB_EV_SETTLED,
	       "the settled event alone (no verdict changed)");
	ok(view(c, &A).probed, "the list shows it probed");
	events = 0;
	obs(c, &A, 1, CAPAB_PROBED);
	is_int(events, 0, "probed again: no new event");

	set(c, 2);
	obs(c, &A, 2, CAPAB_ANSWER, CAPAB_RRSIG_STRIPPED);
	obs(c, &B, 2, CAPAB_ANSWER, CAPAB_RRSIG_OK);
	ok(!capab_settled(c),
	   "a no beside an unprobed yes: forward, not settled");
	obs(c, &B, 1, CAPAB_PROBED);
	ok(capab_settled(c), "the yes probed: settled");
	set(c, 2);
	ok(!capab_settled(c) && !view(c, &A).probed,
	   "new servers: probed forgotten, not settled");

	set(c, 1);
	obs(c, &A, 2, CAPAB_UNREACHABLE, CAPAB_PROBED);
	ok(!capab_settled(c),
	   "silent to the probe: not settled (the hold's time decides)");
}

static void remembered(struct capab *c)
{
	set(c, 2);
	ok(!capab_edns_off(c, &A), "EDNS on by default");
	obs(c, &A, 2, CAPAB_EDNS_FORMERR, CAPAB_ANSWER);
	ok(capab_edns_off(c, &A), "FORMERR to EDNS: EDNS off for it");
	ok(!capab_edns_off(c, &B), "not for the other server");
	obs(c, &A, 1, CAPAB_EDNS_OK);
	ok(!capab_edns_off(c, &A), "answers with EDNS again: on");
	obs(c, &A, 1, CAPAB_EDNS_FORMERR);
	ok(!capab_edns_off(c, &A),
	   "known to do EDNS: one stray FORMERR leaves EDNS on");
	verdict_is(c, A, "unknown", "no DNSSEC answer seen yet",
		   "  and is no verdict");
	obs(c, &A, 1, CAPAB_EDNS_FORMERR);
	ok(capab_edns_off(c, &A), "a second in a row turns it off");
	obs(c, &B, 3, CAPAB_ANSWER, CAPAB_TRUNCATED, CAPAB_TCP_OK);
	ok(!capab_tcp_first(c, &B), "one truncation: UDP first still");
	obs(c, &B, 2, CAPAB_TRUNCATED, CAPAB_TCP_OK);
	ok(capab_tcp_first(c, &B), "truncates again, TCP works: TCP first");
	obs(c, &B, 1, CAPAB_BIG_OK);
	ok(!capab_tcp_first(c, &B), "a large UDP answer: UDP first again");
	obs(c, &A, 1, CAPAB_RRSIG_OK);
	set(c, 2);
	verdict_is(c, A, "unknown", "not asked yet",
		   "new servers: everything forgotten, same address too");
	ok(!capab_edns_off(c, &A), "EDNS on again after the change");
}

/* --- responses --- */

static size_t response(uint8_t *buf, uint16_t qtype, uint16_t flags,
		       bool with_rrset, bool with_sig, bool with_opt,
		       size_t pad)
{
	static const uint8_t root[1] = {0};
	uint8_t key[4 + 32 + 600] = {1, 1, 3, 13};
	uint8_t sig[18 + 1 + 64] = {0};
	struct wire_builder b;
	struct wire_rr rr = {.owner = root,
			     .type = qtype,
			     .rclass = 1,
			     .ttl = 3600,
			     .rdlen = (uint16_t)(4 + 32 + pad),
			     .rdata = key};

	sig[0] = (uint8_t)(qtype >> 8);
	sig[1] = (uint8_t)qtype;
	sig[2] = 13;
	wire_build_init(&b, buf, DT_MSG_MAXLEN, 1,
			(uint16_t)(WIRE_FLAG_QR | WIRE_FLAG_RD | flags));
	wire_build_question(&b, root, qtype, 1);
	if (qtype == WIRE_TYPE_DS) {
		key[0] = 0x4f;
		key[1] = 0x66;
		key[2] = 13;
		key[3] = 2;
		rr.rdlen = 4 + 32;
	}
	if (with_rrset)
		wire_build_rr(&b, WIRE_SEC_ANSWER, &rr);
	if (with_sig) {
		struct wire_rr s = rr;

		s.type = WIRE_TYPE_RRSIG;
		s.rdata = sig;
		s.rdlen = sizeof(sig);
		wire_build_rr(&b, WIRE_SEC_ANSWER, &s);
	}
	if (with_opt)
		wire_build_opt(&b, 1232, 0, 0, WIRE_EDNS_DO, NULL, 0);
	return wire_build_finish(&b);
}

static void learning(struct capab *c)
{
	uint8_t buf[DT_MSG_MAXLEN];
	size_t len;
	struct capab_view v;

	set(c, 1);
	len = response(buf, WIRE_TYPE_DNSKEY, 0, true, false, false, 0);
	capab_learn_response(c, &A, WIRE_TYPE_A, buf, len, true, false);
	capab_learn_response(c, &A, WIRE_TYPE_A, buf, len, true, false);
	verdict_is(c, A, "unknown", "no DNSSEC answer seen yet",
		   "bare answers to other questions (a portal's A) are not "
		   "held against EDNS");
	len = response(buf, WIRE_TYPE_DNSKEY, 0, true, true, true, 0);
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, true, false);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "DNSKEY with RRSIG and OPT");
	v = view(c, &A);
	is_str(capab_tri_name(v.edns), "yes", "and EDNS yes");
	is_str(capab_tri_name(v.big), "unknown", "small: size unknown");
	len = response(buf, WIRE_TYPE_DNSKEY, WIRE_FLAG_AD, true, false, true,
		       0);
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, true, false);
	verdict_is(c, A, "no", "sets AD without RRSIG",
		   "DNSKEY without RRSIG, AD=1");
	len = response(buf, WIRE_TYPE_DS, 0, true, false, true, 0);
	capab_learn_response(c, &A, WIRE_TYPE_DS, buf, len, true, false);
	verdict_is(c, A, "no", "strips RRSIG with DO=1",
		   "DS without RRSIG, AD=0");
	len = response(buf, WIRE_TYPE_DS, 0, false, false, true, 0);
	capab_learn_response(c, &A, WIRE_TYPE_DS, buf, len, true, false);
	verdict_is(c, A, "no", "strips RRSIG with DO=1",
		   "NODATA for DS proves nothing either way");
	len = response(buf, WIRE_TYPE_DNSKEY, 0, true, true, true, 600);
	ok(len > 512, "a %zu-octet response", len);
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, true, false);
	capab_observe(c, &A, CAPAB_PROBED);
	v = view(c, &A);
	is_str(capab_tri_name(v.dnssec), "yes",
	       "signed again, and probed: yes");
	is_str(capab_tri_name(v.big), "yes", "over 512 octets by UDP: large");
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, true, true);
	is_str(capab_tri_name(view(c, &A).tcp), "yes", "over TCP: tcp yes");
	len = response(buf, WIRE_TYPE_DNSKEY, 0, true, false, true, 0);
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, false, false);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "no RRSIG to a query without EDNS teaches nothing");
	len = response(buf, WIRE_TYPE_DNSKEY, 0, true, false, false, 0);
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, true, false);
	verdict_is(c, A, "yes", "returns RRSIG with DO=1",
		   "one bare answer to EDNS from a server known to do EDNS");
	capab_learn_response(c, &A, WIRE_TYPE_DNSKEY, buf, len, true, false);
	verdict_is(c, A, "no", "ignores EDNS", "a second in a row");
}

int main(void)
{
	struct capab *c = capab_new(on_event, NULL);

	A = server("127.0.4.1");
	B = server("127.0.4.2");
	C = server("192.0.2.3@5353");
	if (!c)
		return 1;
	silence_is_not_no(c);
	reasons(c);
	hostile(c);
	judgement(c);
	settling(c);
	remembered(c);
	learning(c);
	capab_free(c);
	return done_testing();
}
