/* SPDX-License-Identifier: MIT */
/*
 * Property fuzz target for what the capability table learns of a
 * resolv.conf server (src/upstream/capab.c): a sequence of responses
 * (capab_learn_response) and observations (capab_observe) fed to a table
 * of one to three servers, the table read after each.
 *
 * Input: octet 0 gives the number of servers (1 + octet % 3), then
 * operations. An operation octet op with the top bit set is an
 * observation: server op & 3 (3 is a server not in the table), the
 * observation the next octet % CAPAB_OBS_COUNT. Otherwise it is a response: server
 * op & 3, question type (op >> 2) & 7 of a table, EDNS sent when op &
 * 0x20, over TCP when op & 0x40, then a 16-bit big-endian length and
 * the message.
 *
 * The properties, each an abort() when broken:
 *   - every verdict (and every property) is yes, no or unknown, and its
 *     reason a NUL-terminated string;
 *   - a server not answering is "unknown", never "no"; "yes" only with
 *     RRSIGs seen;
 *   - capab_edns_off and capab_tcp_first agree with the list;
 *   - the change callback says CAPAB_EV_VERDICT exactly when a verdict
 *     changed, and nothing changes for a server not in the table;
 *   - capab_mode agrees with the verdicts;
 *   - capab_settled agrees with them too (recursive, or a "yes" the
 *     probe went through), and CAPAB_EV_SETTLED comes exactly when it
 *     turned true.
 *
 * The seeds (corpus/capab/) are small messages written octet by octet
 * for the behaviours judged: a validating server, RRSIGs stripped, AD
 * without RRSIG, EDNS ignored or answered FORMERR, unreachable then
 * answering, truncation and TCP, big UDP answers, DS failures, a server
 * not in the table, a response that does not parse; no data or NXDOMAIN
 * for the root DNSKEY, DO cleared and an empty DS, a portal answering the
 * name that does not exist, a "no" held against signed answers until a
 * clean probe.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upstream/capab.h"
#include "wire/rr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OPS 256

static const uint16_t qtypes[8] = {
	WIRE_TYPE_A,	  WIRE_TYPE_AAAA, WIRE_TYPE_DS,	 WIRE_TYPE_DNSKEY,
	WIRE_TYPE_DNSKEY, WIRE_TYPE_DS,	  WIRE_TYPE_SOA, WIRE_TYPE_TXT,
};

static unsigned events;
static unsigned calls;

static void on_event(void *arg, unsigned ev)
{
	(void)arg;
	events |= ev;
	calls++;
}

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_capab: %s\n", why);
	abort();
}

static void server_at(struct up_server *s, unsigned i)
{
	memset(s, 0, sizeof(*s));
	if (i == 2) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&s->addr;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(53);
		sin6->sin6_addr.s6_addr[15] = 1;
		s->addrlen = sizeof(*sin6);
	} else {
		struct sockaddr_in *sin = (struct sockaddr_in *)&s->addr;
		sin->sin_family = AF_INET;
		sin->sin_port = htons(53);
		/* 3 is 127.0.0.9: never in the table */
		sin->sin_addr.s_addr = htonl(0x7F000001 + (i == 3 ? 8 : i));
		s->addrlen = sizeof(*sin);
	}
}

static bool tri_ok(enum capab_tri t)
{
	return t == CAPAB_YES || t == CAPAB_NO || t == CAPAB_UNKNOWN;
}

static bool str_ok(const char *s)
{
	return s && strnlen(s, 200) < 200;
}

/* Reads and checks the table; returns the number of servers listed. */
static size_t read_table(struct capab *c, const struct up_server *srv,
			 size_t nns, struct capab_view *v)
{
	size_t n = capab_list(c, v, DT_UP_MAXNS), yes = 0, no = 0, probed = 0;
	const char *reason = NULL, *name;
	enum capab_mode mode;

	if (n != nns)
		fail("list length differs from the servers set");
	for (size_t i = 0; i < n; i++) {
		if (!tri_ok(v[i].dnssec) || !tri_ok(v[i].alive) ||
		    !tri_ok(v[i].edns) || !tri_ok(v[i].rrsig) ||
		    !tri_ok(v[i].ds) || !tri_ok(v[i].tcp) || !tri_ok(v[i].big))
			fail("a value not yes, no or unknown");
		if (!str_ok(v[i].reason) || v[i].reason[0] == '\0')
			fail("reason missing or not terminated");
		name = capab_tri_name(v[i].dnssec);
		if (!str_ok(name) || (strcmp(name, "yes") != 0 &&
				      strcmp(name, "no") != 0 &&
				      strcmp(name, "unknown") != 0))
			fail("verdict name");
		if (v[i].alive == CAPAB_NO && v[i].dnssec != CAPAB_UNKNOWN)
			fail("a silent server judged");
		if (v[i].dnssec == CAPAB_YES && v[i].rrsig != CAPAB_YES)
			fail("yes without RRSIGs seen");
		if (v[i].edns_off != (v[i].edns == CAPAB_NO))
			fail("edns_off differs from edns");
		if (capab_edns_off(c, &srv[i]) != v[i].edns_off ||
		    capab_tcp_first(c, &srv[i]) != v[i].tcp_first)
			fail("edns_off or tcp_first differ from the list");
		yes += v[i].dnssec == CAPAB_YES;
		no += v[i].dnssec == CAPAB_NO;
		probed += v[i].dnssec == CAPAB_YES && v[i].probed;
	}
	if (capab_edns_off(c, &srv[3]) || capab_tcp_first(c, &srv[3]))
		fail("behaviour remembered for a server not in the table");
	mode = capab_mode(c, &reason);
	if (!str_ok(reason) ||
	    mode != (yes  ? CAPAB_MODE_FORWARD
		     : no ? CAPAB_MODE_RECURSIVE
			  : CAPAB_MODE_UNDECIDED))
		fail("mode differs from the verdicts");
	if (capab_settled(c) != (probed > 0 || (!yes && no > 0)))
		fail("settled differs from the verdicts");
	return n;
}

static bool same(const struct capab_view *a, const struct capab_view *b,
		 size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].dnssec != b[i].dnssec || a[i].alive != b[i].alive ||
		    a[i].edns != b[i].edns || a[i].rrsig != b[i].rrsig ||
		    a[i].ds != b[i].ds || a[i].tcp != b[i].tcp ||
		    a[i].big != b[i].big || a[i].edns_off != b[i].edns_off ||
		    a[i].tcp_first != b[i].tcp_first ||
		    a[i].probed != b[i].probed ||
		    strcmp(a[i].reason, b[i].reason) != 0)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capab_view before[DT_UP_MAXNS], after[DT_UP_MAXNS];
	struct up_server srv[4];
	struct up_conf conf;
	struct capab *c;
	size_t pos = 1, nns;
	bool was_settled, now_settled;

	if (size < 1)
		return 0;
	if (!(c = capab_new(on_event, NULL)))
		abort();
	memset(&conf, 0, sizeof(conf));
	nns = 1 + data[0] % 3;
	for (unsigned i = 0; i < 4; i++)
		server_at(&srv[i], i);
	for (size_t i = 0; i < nns; i++)
		conf.ns[i] = srv[i];
	conf.nns = nns;
	capab_set_servers(c, &conf);
	read_table(c, srv, nns, before);
	was_settled = capab_settled(c);
	for (int ops = 0; ops < MAX_OPS && pos < size; ops++) {
		uint8_t op = data[pos++];
		unsigned who = op & 3;
		bool changed = false;

		events = calls = 0;
		if (op & 0x80) {
			if (pos >= size)
				break;
			capab_observe(c, &srv[who],
				      (enum capab_obs)(data[pos++] %
						       CAPAB_OBS_COUNT));
		} else {
			size_t len;

			if (size - pos < 2)
				break;
			len = (size_t)data[pos] << 8 | data[pos + 1];
			pos += 2;
			if (len > size - pos)
				len = size - pos;
			capab_learn_response(c, &srv[who],
					     qtypes[(op >> 2) & 7], data + pos,
					     len, op & 0x20, op & 0x40);
			pos += len;
		}
		read_table(c, srv, nns, after);
		for (size_t i = 0; i < nns; i++)
			changed |= after[i].dnssec != before[i].dnssec;
		if (changed != !!(events & CAPAB_EV_VERDICT))
			fail("verdict change and callback disagree");
		now_settled = capab_settled(c);
		if ((!was_settled && now_settled) !=
		    !!(events & CAPAB_EV_SETTLED))
			fail("settling and callback disagree");
		was_settled = now_settled;
		if (who == 3 && (calls || !same(before, after, nns)))
			fail("a server not in the table changed the table");
		memcpy(before, after, sizeof(before));
	}
	capab_free(c);
	return 0;
}
