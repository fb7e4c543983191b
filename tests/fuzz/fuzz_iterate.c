/* SPDX-License-Identifier: MIT */
/*
 * Property fuzz target for the iterator's reading of authoritative
 * responses (src/iterator/iter_msg.c): it_classify, it_child_apex,
 * it_addr_from_rr and it_assemble on messages from servers not trusted.
 *
 * Input: when octet 0 has its top bit set, the rest is a root hints
 * file for it_hints_parse (src/iterator/iter_hints.c): either 1 to
 * DT_IT_HINTS_MAX addresses or an error with a message. Otherwise
 * octet 0 picks the question type, octet 1 how many labels of
 * qname the zone keeps (the zone asked is always qname or an ancestor of
 * it, as in the iterator), octet 2 the length of qname in wire form,
 * then qname, then up to MAX_STEPS messages, each a 16-bit big-endian
 * length and that many octets.
 *
 * The properties, each an abort() when broken:
 *   - a referral's child zone is strictly below the zone, at or above
 *     qname (strictly above for DS); it has 1 to DT_IT_NS_MAX NS names,
 *     at most DT_IT_ADDRS_MAX addresses, each an IPv4 or IPv6 address
 *     on port 53;
 *   - a CNAME step names a target other than qname;
 *   - a child apex is strictly below the zone and at or above qname;
 *   - it_addr_from_rr accepts exactly A and AAAA of class IN with
 *     RDATA of 4 and 16 octets;
 *   - a priming response read (it_prime_read, iter_prime.c) gives 1 to
 *     DT_IT_HINTS_MAX addresses on port 53 and a TTL within
 *     DT_IT_PRIME_TTL_MIN..MAX; one refused leaves its outputs alone and
 *     says why;
 *   - the response assembled from the messages that parse either does
 *     not fit or parses again, asks qname/qtype, carries the last
 *     step's RCODE, RA, every answer record of every step and an OPT
 *     record with DO.
 *
 * The seeds (corpus/iterate/) are small messages written octet by octet
 * in the shapes the iterator meets: referrals from the root and a TLD
 * with glue in and out of bailiwick, referrals up and sideways, answers,
 * CNAME steps and a CNAME loop, NXDOMAIN and NODATA with SOA, a child
 * apex shown by SOA, a DS referral to the name itself, SERVFAIL.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "iterator/iter_msg.h"
#include "iterator/iter_prime.h"
#include "iterator/iterate.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_STEPS 8

static const uint16_t qtypes[8] = {
	WIRE_TYPE_A,   WIRE_TYPE_AAAA,	 WIRE_TYPE_NS,	 WIRE_TYPE_DS,
	WIRE_TYPE_SOA, WIRE_TYPE_DNSKEY, WIRE_TYPE_CNAME, WIRE_TYPE_TXT,
};

static uint8_t out[DT_MSG_MAXLEN];

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_iterate: %s\n", why);
	abort();
}

static bool below(const uint8_t *name, const uint8_t *ancestor)
{
	return wire_dname_is_subdomain(name, ancestor) &&
	       !wire_dname_equal(name, ancestor);
}

static void check_server(const struct up_server *s)
{
	if (s->addr.ss_family == AF_INET) {
		const struct sockaddr_in *sin =
			(const struct sockaddr_in *)&s->addr;
		if (s->addrlen != sizeof(*sin) || sin->sin_port != htons(53))
			fail("IPv4 address malformed");
	} else if (s->addr.ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 =
			(const struct sockaddr_in6 *)&s->addr;
		if (s->addrlen != sizeof(*sin6) ||
		    sin6->sin6_port != htons(53))
			fail("IPv6 address malformed");
	} else {
		fail("address of no family");
	}
}

static void check_addrs(const struct wire_msg *m)
{
	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		for (size_t i = 0; i < m->count[s]; i++) {
			const struct wire_rr *rr = &m->sec[s][i];
			struct up_server srv;
			bool want = rr->rclass == WIRE_CLASS_IN &&
				    ((rr->type == WIRE_TYPE_A &&
				      rr->rdlen == 4) ||
				     (rr->type == WIRE_TYPE_AAAA &&
				      rr->rdlen == 16));

			memset(&srv, 0xA5, sizeof(srv));
			if (it_addr_from_rr(rr, &srv) != want)
				fail("it_addr_from_rr accepts the wrong records");
			if (want)
				check_server(&srv);
		}
}

static void check_prime(const struct wire_msg *m)
{
	static struct it_hints h;
	const char *why = NULL;
	uint32_t ttl = 7;
	int r;

	memset(&h, 0, sizeof(h));
	r = it_prime_read(m, &h, &ttl, &why);
	if (r == 0) {
		if (why || h.n == 0 || h.n > DT_IT_HINTS_MAX ||
		    ttl < DT_IT_PRIME_TTL_MIN || ttl > DT_IT_PRIME_TTL_MAX)
			fail("priming response read out of range");
		for (size_t i = 0; i < h.n; i++)
			check_server(&h.addr[i]);
	} else if (r != DT_EUPSTREAM || !why || h.n != 0 || ttl != 7) {
		fail("priming response refused without a reason, or written");
	}
}

static void check_step(const struct wire_msg *m, const uint8_t *zone,
		       const uint8_t *qname, uint16_t qtype)
{
	static struct it_referral ref;
	uint8_t next[DT_NAME_MAXLEN];
	const uint8_t *apex;
	uint32_t ttl;

	memset(&ref, 0, sizeof(ref));
	switch (it_classify(m, zone, qname, qtype, next, &ref)) {
	case IT_REFERRAL:
		if (wire_dname_check(ref.zone, ref.zone + DT_NAME_MAXLEN) < 0 ||
		    !below(ref.zone, zone) ||
		    !wire_dname_is_subdomain(qname, ref.zone))
			fail("referral outside the zone or not above qname");
		if (qtype == WIRE_TYPE_DS && wire_dname_equal(ref.zone, qname))
			fail("DS referral to qname itself");
		if (ref.nns == 0 || ref.nns > DT_IT_NS_MAX ||
		    ref.naddr > DT_IT_ADDRS_MAX)
			fail("referral counts out of range");
		for (size_t i = 0; i < ref.nns; i++)
			if (wire_dname_check(ref.ns[i],
					     ref.ns[i] + DT_NAME_MAXLEN) < 0)
				fail("bad NS name");
		for (size_t i = 0; i < ref.naddr; i++)
			check_server(&ref.addr[i]);
		break;
	case IT_CNAME:
		if (wire_dname_check(next, next + DT_NAME_MAXLEN) < 0 ||
		    wire_dname_equal(next, qname))
			fail("CNAME step to no name or to qname");
		break;
	case IT_FINAL:
	case IT_LAME:
		break;
	default:
		fail("unknown kind");
	}
	if ((apex = it_child_apex(m, zone, qname, &ttl)) &&
	    (!below(apex, zone) || !wire_dname_is_subdomain(qname, apex)))
		fail("child apex outside the zone or not above qname");
	check_addrs(m);
	check_prime(m);
}

/* The RRSIGs of m's additional section over an RRset of its answer
 * section: the assembled answer takes them too (iter_msg.c). */
static size_t sigs_elsewhere(const struct wire_msg *m)
{
	size_t k = 0;

	for (size_t i = 0; i < m->count[WIRE_SEC_ADDITIONAL]; i++) {
		const struct wire_rr *sig = &m->sec[WIRE_SEC_ADDITIONAL][i];
		if (sig->type != WIRE_TYPE_RRSIG || sig->rdlen < 2)
			continue;
		uint16_t t = (uint16_t)(sig->rdata[0] << 8 | sig->rdata[1]);
		for (size_t j = 0; t && j < m->count[WIRE_SEC_ANSWER]; j++) {
			const struct wire_rr *a = &m->sec[WIRE_SEC_ANSWER][j];
			if (a->type == t && a->rclass == sig->rclass &&
			    wire_dname_equal(a->owner, sig->owner)) {
				k++;
				break;
			}
		}
	}
	return k;
}

/* The answer records of step s that no earlier step's answer section
 * holds (RFC 2181 §5: a record two servers sent is one record; a DNAME
 * passed through twice is given once). */
static size_t new_answers(const struct wire_msg *const *steps, size_t s)
{
	size_t k = 0;

	for (size_t i = 0; i < steps[s]->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &steps[s]->sec[WIRE_SEC_ANSWER][i];
		bool seen = false;
		for (size_t t = 0; t < s && !seen; t++)
			for (size_t j = 0;
			     j < steps[t]->count[WIRE_SEC_ANSWER] && !seen; j++) {
				const struct wire_rr *o =
					&steps[t]->sec[WIRE_SEC_ANSWER][j];
				seen = o->type == rr->type &&
				       o->rclass == rr->rclass &&
				       o->rdlen == rr->rdlen &&
				       wire_dname_equal(o->owner, rr->owner) &&
				       memcmp(o->rdata, rr->rdata, rr->rdlen) == 0;
			}
		k += !seen;
	}
	return k;
}

static void check_assembled(const struct wire_msg *const *steps, size_t n,
			    const uint8_t *qname, uint16_t qtype)
{
	size_t answers = 0;
	struct wire_msg *a;
	int len, err;

	len = it_assemble(steps, NULL, n, qname, qtype, out, sizeof(out));
	if (len == DT_ESPACE)
		return;
	if (len < 0)
		fail("it_assemble failed other than for space");
	if ((size_t)len > sizeof(out))
		fail("it_assemble wrote past its buffer");
	a = wire_msg_parse(out, (size_t)len, 0, &err);
	if (!a)
		fail("assembled response does not parse");
	for (size_t s = 0; s < n; s++)
		answers += new_answers(steps, s) + sigs_elsewhere(steps[s]);
	if (!a->has_question || !wire_dname_equal(a->qname, qname) ||
	    a->qtype != qtype || a->qclass != WIRE_CLASS_IN)
		fail("assembled response asks another question");
	if ((a->rcode & 0xF) != (steps[n - 1]->rcode & 0xF) ||
	    !(a->hdr.flags & WIRE_FLAG_QR) || !(a->hdr.flags & WIRE_FLAG_RA))
		fail("assembled header wrong");
	if (a->count[WIRE_SEC_ANSWER] != answers)
		fail("assembled answer count differs from the steps'");
	if (a->count[WIRE_SEC_AUTHORITY] <
	    steps[n - 1]->count[WIRE_SEC_AUTHORITY])
		fail("last step's authority section lost");
	if (!a->edns.present || !(a->edns.flags & WIRE_EDNS_DO))
		fail("assembled response without OPT and DO");
	wire_msg_free(a);
}

static void check_hints(const uint8_t *data, size_t size)
{
	struct it_hints h;
	char err[256];
	int r;

	memset(&h, 0, sizeof(h));
	memset(err, 'x', sizeof(err));
	r = it_hints_parse((const char *)data, size, "hints", &h, err,
			   sizeof(err));
	if (r == 0) {
		if (h.n == 0 || h.n > DT_IT_HINTS_MAX)
			fail("hints accepted with no or too many addresses");
		for (size_t i = 0; i < h.n; i++)
			check_server(&h.addr[i]);
	} else if (r > 0 || h.n != 0 || !memchr(err, '\0', sizeof(err)) ||
		   err[0] == '\0') {
		fail("hints refused without a message, or written");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_msg *steps[MAX_STEPS];
	const uint8_t *qname, *zone;
	uint16_t qtype;
	size_t pos, n = 0, qlen;
	int labels;

	if (size >= 1 && (data[0] & 0x80)) {
		check_hints(data + 1, size - 1);
		return 0;
	}
	if (size < 3)
		return 0;
	qtype = qtypes[data[0] & 7];
	qlen = data[2];
	if (size < 3 + qlen || qlen == 0 ||
	    wire_dname_check(data + 3, data + 3 + qlen) != (int)qlen)
		return 0;
	qname = data + 3;
	labels = wire_dname_labels(qname);
	zone = wire_dname_ancestor(qname, data[1] % (labels + 1));
	if (!zone)
		fail("no ancestor");
	pos = 3 + qlen;
	while (n < MAX_STEPS && size - pos >= 2) {
		size_t len = (size_t)data[pos] << 8 | data[pos + 1];
		int err;

		pos += 2;
		if (len > size - pos)
			len = size - pos;
		steps[n] = wire_msg_parse(data + pos, len, 0, &err);
		pos += len;
		if (!steps[n])
			continue;
		check_step(steps[n], zone, qname, qtype);
		n++;
	}
	if (n > 0)
		check_assembled((const struct wire_msg *const *)steps, n,
				qname, qtype);
	for (size_t i = 0; i < n; i++)
		wire_msg_free(steps[i]);
	return 0;
}
