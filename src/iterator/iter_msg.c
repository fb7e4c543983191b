/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "common/errcode.h"
#include "iterator/iter_msg.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* --- classifying --- */

#define DT_RCODE_YXDOMAIN 6 /* RFC 2136 */

static const struct wire_rr *find(const struct wire_msg *m,
				  enum wire_section sec, const uint8_t *owner,
				  uint16_t type)
{
	for (size_t i = 0; i < m->count[sec]; i++) {
		const struct wire_rr *rr = &m->sec[sec][i];

		if (rr->type == type && rr->rclass == WIRE_CLASS_IN &&
		    (!owner || wire_dname_equal(rr->owner, owner)))
			return rr;
	}
	return NULL;
}

/* Records of qtype at owner in the answer section: any type for ANY. */
static bool has_data(const struct wire_msg *m, const uint8_t *owner,
		     uint16_t qtype)
{
	if (qtype != WIRE_TYPE_ANY)
		return find(m, WIRE_SEC_ANSWER, owner, qtype) != NULL;
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (rr->rclass == WIRE_CLASS_IN &&
		    rr->type != WIRE_TYPE_CNAME &&
		    wire_dname_equal(rr->owner, owner))
			return true;
	}
	return false;
}

/* Follows the CNAME chain from qname through the answer section while it
 * stays in zone (RFC 2181 §5.4.1: a server's word on names outside its
 * zone is not taken): writes where it ends to end and returns whether
 * data of qtype is there. */
static bool follow_chain(const struct wire_msg *m, const uint8_t *zone,
			 const uint8_t *qname, uint16_t qtype,
			 uint8_t end[DT_NAME_MAXLEN])
{
	const struct wire_rr *rr;

	wire_dname_copy(end, qname);
	for (int links = 0; links <= DT_IT_CNAME_MAX; links++) {
		if (!wire_dname_is_subdomain(end, zone))
			return false;
		if (has_data(m, end, qtype))
			return true;
		rr = find(m, WIRE_SEC_ANSWER, end, WIRE_TYPE_CNAME);
		if (!rr ||
		    wire_dname_check(rr->rdata, rr->rdata + rr->rdlen) < 0)
			return false;
		wire_dname_copy(end, rr->rdata);
	}
	return false;
}

bool it_addr_from_rr(const struct wire_rr *rr, struct up_server *ret)
{
	struct up_server s;

	memset(&s, 0, sizeof(s));
	if (rr->rclass != WIRE_CLASS_IN)
		return false;
	if (rr->type == WIRE_TYPE_A && rr->rdlen == 4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&s.addr;
		sin->sin_family = AF_INET;
		sin->sin_port = htons(53);
		memcpy(&sin->sin_addr, rr->rdata, 4);
		s.addrlen = sizeof(*sin);
	} else if (rr->type == WIRE_TYPE_AAAA && rr->rdlen == 16) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&s.addr;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(53);
		memcpy(&sin6->sin6_addr, rr->rdata, 16);
		s.addrlen = sizeof(*sin6);
	} else {
		return false;
	}
	*ret = s;
	return true;
}

static enum it_addr_kind v4_kind(const uint8_t *b)
{
	if (b[0] == 0 || b[0] >= 224) /* this network; multicast, reserved,
					 broadcast */
		return IT_ADDR_NEVER;
	return b[0] == 127 ? IT_ADDR_LOOPBACK : IT_ADDR_SERVER;
}

enum it_addr_kind it_addr_kind(const struct up_server *a)
{
	if (a->addr.ss_family == AF_INET) {
		const struct sockaddr_in *sin =
			(const struct sockaddr_in *)&a->addr;

		return v4_kind((const uint8_t *)&sin->sin_addr);
	}
	if (a->addr.ss_family != AF_INET6)
		return IT_ADDR_NEVER;
	const struct in6_addr *in6 =
		&((const struct sockaddr_in6 *)&a->addr)->sin6_addr;
	if (IN6_IS_ADDR_V4MAPPED(in6))
		return v4_kind(in6->s6_addr + 12);
	if (IN6_IS_ADDR_UNSPECIFIED(in6) || IN6_IS_ADDR_MULTICAST(in6))
		return IT_ADDR_NEVER;
	return IN6_IS_ADDR_LOOPBACK(in6) ? IT_ADDR_LOOPBACK : IT_ADDR_SERVER;
}

static void add_glue(const struct wire_msg *m, const uint8_t *zone,
		     struct it_referral *ref)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_ADDITIONAL]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ADDITIONAL][i];
		bool named = false;

		if (ref->naddr == DT_IT_ADDRS_MAX)
			return;
		if (rr->rclass != WIRE_CLASS_IN ||
		    !wire_dname_is_subdomain(rr->owner, zone))
			continue;
		for (size_t k = 0; k < ref->nns && !named; k++)
			named = wire_dname_equal(rr->owner, ref->ns[k]);
		if (!named)
			continue;
		if (!it_addr_from_rr(rr, &ref->addr[ref->naddr]))
			continue;
		ref->naddr++;
	}
}

enum ref_verdict {
	REF_NONE, /* no NS RRset, or one that may not be followed */
	REF_DOWN, /* a referral to follow: *ref */
	REF_SELF, /* DS: a referral to qname itself, the parent's answer */
};

/* The referral of a response without answers, when it is one that may be
 * followed from zone for qname/qtype. */
static enum ref_verdict referral(const struct wire_msg *m, const uint8_t *zone,
				 const uint8_t *qname, uint16_t qtype,
				 struct it_referral *ref)
{
	const struct wire_rr *ns =
		find(m, WIRE_SEC_AUTHORITY, NULL, WIRE_TYPE_NS);
	const uint8_t *owner;

	if (!ns)
		return REF_NONE;
	owner = ns->owner;
	if (wire_dname_equal(owner, zone) ||
	    !wire_dname_is_subdomain(owner, zone) ||
	    !wire_dname_is_subdomain(qname, owner))
		return REF_NONE;
	if (qtype == WIRE_TYPE_DS && wire_dname_equal(owner, qname))
		return REF_SELF;
	memset(ref, 0, sizeof(*ref));
	wire_dname_copy(ref->zone, owner);
	ref->ttl = UINT32_MAX;
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (rr->type != WIRE_TYPE_NS || rr->rclass != WIRE_CLASS_IN ||
		    !wire_dname_equal(rr->owner, owner) ||
		    wire_dname_check(rr->rdata, rr->rdata + rr->rdlen) < 0)
			continue;
		if (rr->ttl < ref->ttl)
			ref->ttl = rr->ttl;
		if (ref->nns < DT_IT_NS_MAX)
			wire_dname_copy(ref->ns[ref->nns++], rr->rdata);
	}
	add_glue(m, zone, ref);
	return ref->nns > 0 ? REF_DOWN : REF_NONE;
}

enum it_kind it_classify(const struct wire_msg *m, const uint8_t *zone,
			 const uint8_t *qname, uint16_t qtype,
			 uint8_t ret_next[DT_NAME_MAXLEN],
			 struct it_referral *ret_ref)
{
	bool aa = m->hdr.flags & WIRE_FLAG_AA;
	bool soa = find(m, WIRE_SEC_AUTHORITY, NULL, WIRE_TYPE_SOA) != NULL;
	uint8_t end[DT_NAME_MAXLEN];

	/* YXDOMAIN: a DNAME substitution too long for a name (RFC 6672
	 * §2.2), the server's final word. */
	if (m->rcode == DT_RCODE_YXDOMAIN)
		return IT_FINAL;
	if (m->rcode != WIRE_RCODE_NOERROR && m->rcode != WIRE_RCODE_NXDOMAIN)
		return IT_LAME;
	if (m->count[WIRE_SEC_ANSWER] > 0) {
		/* NXDOMAIN applies to the chain's last name (RFC 2308
		 * §2.1, RFC 6604 §3): with data of the type asked there,
		 * the response contradicts itself, and neither its RCODE
		 * nor its records can be taken. */
		if (follow_chain(m, zone, qname, qtype, end))
			return m->rcode == WIRE_RCODE_NXDOMAIN &&
					       qtype != WIRE_TYPE_CNAME
				       ? IT_LAME
				       : IT_FINAL;
		if (wire_dname_equal(end, qname))
			/* Records, none about the name asked. */
			return m->rcode == WIRE_RCODE_NXDOMAIN ? IT_FINAL
							       : IT_LAME;
		/* The target is proven absent, unless it is outside the
		 * zone: then neither the RCODE nor the records about it
		 * are this server's to give, and its own servers are asked.
		 * So it is when the NODATA's own NSEC at the target lists
		 * the type: the negative part contradicts itself, and the
		 * target is asked for itself. */
		if (wire_dname_is_subdomain(end, zone) &&
		    (m->rcode == WIRE_RCODE_NXDOMAIN ||
		     (soa && !it_nsec_has_type(m, end, qtype))))
			return IT_FINAL;
		wire_dname_copy(ret_next, end);
		return IT_CNAME;
	}
	if (m->rcode == WIRE_RCODE_NXDOMAIN || soa)
		return IT_FINAL;
	/* A referral down is one whatever its AA bit (servers that host
	 * parent and child may set it). */
	switch (referral(m, zone, qname, qtype, ret_ref)) {
	case REF_DOWN: return IT_REFERRAL;
	case REF_SELF: return IT_FINAL;
	default: break;
	}
	/* NODATA without SOA: authoritative, or RFC 2308 §2.2 type 3 (no
	 * NS either: nothing says the server is not the zone's). An NS
	 * RRset (a referral up, sideways or to the server's own zone)
	 * without AA is lame. */
	if (aa || !find(m, WIRE_SEC_AUTHORITY, NULL, WIRE_TYPE_NS))
		return IT_FINAL;
	return IT_LAME;
}

const uint8_t *it_child_apex(const struct wire_msg *m, const uint8_t *zone,
			     const uint8_t *qname, uint32_t *ret_ttl)
{
	const struct wire_rr *soa =
		find(m, WIRE_SEC_AUTHORITY, NULL, WIRE_TYPE_SOA);

	if (!soa || !(m->hdr.flags & WIRE_FLAG_AA) ||
	    wire_dname_equal(soa->owner, zone) ||
	    !wire_dname_is_subdomain(soa->owner, zone) ||
	    !wire_dname_is_subdomain(qname, soa->owner))
		return NULL;
	*ret_ttl = soa->ttl;
	return soa->owner;
}

/* --- assembling --- */

static uint16_t rrsig_covered(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG && rr->rdlen >= 2
		       ? wire_get16(rr->rdata)
		       : 0;
}

static bool is_denial(const struct wire_rr *rr)
{
	uint16_t t = rr->type == WIRE_TYPE_RRSIG ? rrsig_covered(rr) : rr->type;

	return t == WIRE_TYPE_NSEC || t == WIRE_TYPE_NSEC3;
}

/* Whether rr may be taken from the response of a server of zone (NULL:
 * any). */
static bool in_zone(const struct wire_rr *rr, const uint8_t *zone)
{
	return !zone || wire_dname_is_subdomain(rr->owner, zone);
}

/* Whether the answer section of m has an RRset (not an RRSIG) that the
 * RRSIG rr covers. */
static bool covers_answer(const struct wire_msg *m, const struct wire_rr *rr)
{
	uint16_t t = rrsig_covered(rr);

	for (size_t i = 0; t && i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *a = &m->sec[WIRE_SEC_ANSWER][i];
		if (a->type == t && a->rclass == rr->rclass &&
		    wire_dname_equal(a->owner, rr->owner))
			return true;
	}
	return false;
}

/* The RRSIGs a server put in the additional section over RRsets of its
 * answer section (some do; a signature proves what it proves wherever it
 * sits, and Unbound takes them too): moved to the answer beside them. */
static int answer_sigs_elsewhere(struct wire_builder *b,
				 const struct wire_msg *m, const uint8_t *zone)
{
	int err = 0;

	for (size_t i = 0; i < m->count[WIRE_SEC_ADDITIONAL] && err == 0;
	     i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ADDITIONAL][i];
		if (rr->type == WIRE_TYPE_RRSIG && in_zone(rr, zone) &&
		    covers_answer(m, rr))
			err = wire_build_rr(b, WIRE_SEC_ANSWER, rr);
	}
	return err;
}

/* Whether two records are the same record (RFC 2181 §5: an RRset holds
 * no duplicates). */
static bool same_rr(const struct wire_rr *a, const struct wire_rr *b)
{
	return a->type == b->type && a->rclass == b->rclass &&
	       a->rdlen == b->rdlen && wire_dname_equal(a->owner, b->owner) &&
	       memcmp(a->rdata, b->rdata, a->rdlen) == 0;
}

/* Whether rr is in the answer taken from a step before step s: a DNAME
 * the chain passes through twice is sent by both servers' answers, and
 * is one RRset of one record. */
static bool answered_before(const struct wire_msg *const *steps,
			    const uint8_t *const *zones, size_t s,
			    const struct wire_rr *rr)
{
	for (size_t t = 0; t < s; t++)
		for (size_t i = 0; i < steps[t]->count[WIRE_SEC_ANSWER]; i++) {
			const struct wire_rr *o =
				&steps[t]->sec[WIRE_SEC_ANSWER][i];
			if (in_zone(o, zones ? zones[t] : NULL) &&
			    same_rr(o, rr))
				return true;
		}
	return false;
}

int it_assemble(const struct wire_msg *const *steps,
		const uint8_t *const *zones, size_t n, const uint8_t *qname,
		uint16_t qtype, uint8_t *out, size_t cap)
{
	const struct wire_msg *last = steps[n - 1];
	const uint8_t *lzone = zones ? zones[n - 1] : NULL;
	struct wire_builder b;
	int err;

	err = wire_build_init(&b, out, cap, 0,
			      WIRE_FLAG_QR | WIRE_FLAG_RA |
				      (last->rcode & 0xF));
	if (err == 0)
		err = wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	for (size_t s = 0; s < n && err == 0; s++) {
		for (size_t i = 0;
		     i < steps[s]->count[WIRE_SEC_ANSWER] && err == 0; i++)
			if (in_zone(&steps[s]->sec[WIRE_SEC_ANSWER][i],
				    zones ? zones[s] : NULL) &&
			    !answered_before(steps, zones, s,
					     &steps[s]->sec[WIRE_SEC_ANSWER][i]))
				err = wire_build_rr(
					&b, WIRE_SEC_ANSWER,
					&steps[s]->sec[WIRE_SEC_ANSWER][i]);
		if (err == 0)
			err = answer_sigs_elsewhere(&b, steps[s],
						    zones ? zones[s] : NULL);
	}
	for (size_t s = 0; s + 1 < n && err == 0; s++)
		for (size_t i = 0;
		     i < steps[s]->count[WIRE_SEC_AUTHORITY] && err == 0; i++) {
			const struct wire_rr *rr =
				&steps[s]->sec[WIRE_SEC_AUTHORITY][i];
			if (is_denial(rr) &&
			    in_zone(rr, zones ? zones[s] : NULL))
				err = wire_build_rr(&b, WIRE_SEC_AUTHORITY, rr);
		}
	for (size_t i = 0; i < last->count[WIRE_SEC_AUTHORITY] && err == 0; i++)
		if (in_zone(&last->sec[WIRE_SEC_AUTHORITY][i], lzone))
			err = wire_build_rr(&b, WIRE_SEC_AUTHORITY,
					    &last->sec[WIRE_SEC_AUTHORITY][i]);
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	if (err < 0)
		return err;
	return (int)wire_build_finish(&b);
}

/* A DS record of zone, or an RRSIG over one (class IN). */
static bool ds_of(const struct wire_rr *rr, const uint8_t *zone)
{
	uint16_t t = rr->type == WIRE_TYPE_RRSIG ? rrsig_covered(rr) : rr->type;

	return t == WIRE_TYPE_DS && rr->rclass == WIRE_CLASS_IN &&
	       wire_dname_equal(rr->owner, zone);
}

/* Whether m's authority section has a DS record of zone; the smallest
 * TTL of the records taken (DS of zone, or NSEC/NSEC3 when none) in
 * *ttl. */
static bool referral_has_ds(const struct wire_msg *m, const uint8_t *zone,
			    uint32_t *ttl)
{
	uint32_t ds_ttl = UINT32_MAX, nsec_ttl = UINT32_MAX;
	bool ds = false;

	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (rr->type == WIRE_TYPE_DS && ds_of(rr, zone)) {
			ds = true;
			if (rr->ttl < ds_ttl)
				ds_ttl = rr->ttl;
		} else if (rr->type != WIRE_TYPE_RRSIG && is_denial(rr) &&
			   rr->ttl < nsec_ttl) {
			nsec_ttl = rr->ttl;
		}
	}
	*ttl = ds ? ds_ttl : nsec_ttl;
	return ds;
}

bool it_referral_signed(const struct wire_msg *m, const uint8_t *zone)
{
	bool ds = false, sig = false;

	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (!ds_of(rr, zone))
			continue;
		if (rr->type == WIRE_TYPE_RRSIG)
			sig = true;
		else
			ds = true;
	}
	return ds && sig;
}

bool it_nsec_has_type(const struct wire_msg *m, const uint8_t *name,
		      uint16_t type)
{
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];
		size_t next;

		if (rr->type != WIRE_TYPE_NSEC ||
		    !wire_dname_equal(rr->owner, name))
			continue;
		next = wire_dname_len(rr->rdata);
		if (next <= rr->rdlen &&
		    wire_bitmap_has(rr->rdata + next, rr->rdlen - next,
				    type))
			return true;
	}
	return false;
}

/* Whether the data at end is unsigned while a zone at or above end
 * signed another RRset of m's answer. */
static bool tail_unsigned(const struct wire_msg *m, const uint8_t *end,
			  uint16_t qtype)
{
	bool signed_above = false;

	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		const uint8_t *signer;

		if (rr->type != WIRE_TYPE_RRSIG)
			continue;
		if (wire_dname_equal(rr->owner, end) &&
		    rrsig_covered(rr) == qtype)
			return false;
		/* The signer's name follows 18 octets of fixed fields
		 * (RFC 4034 §3.1). */
		signer = rr->rdata + 18;
		if (rr->rdlen > 18 &&
		    wire_dname_check(signer, rr->rdata + rr->rdlen) > 0 &&
		    wire_dname_is_subdomain(end, signer))
			signed_above = true;
	}
	return signed_above;
}

int it_unsigned_tail(const struct wire_msg *m, const uint8_t *zone,
		     const uint8_t *qname, uint16_t qtype,
		     uint8_t ret_end[DT_NAME_MAXLEN], uint8_t *out, size_t cap)
{
	uint8_t end[DT_NAME_MAXLEN];
	struct wire_builder b;
	int err;

	if (m->rcode != WIRE_RCODE_NOERROR || qtype == WIRE_TYPE_RRSIG ||
	    !follow_chain(m, zone, qname, qtype, end) ||
	    wire_dname_equal(end, qname) || !tail_unsigned(m, end, qtype))
		return 0;
	err = wire_build_init(&b, out, cap, 0,
			      m->hdr.flags & (WIRE_FLAG_QR | WIRE_FLAG_AA));
	if (err == 0)
		err = wire_build_question(&b, qname, qtype, WIRE_CLASS_IN);
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER] && err == 0; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];

		if (!wire_dname_equal(rr->owner, end))
			err = wire_build_rr(&b, WIRE_SEC_ANSWER, rr);
	}
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	if (err < 0)
		return 0;
	wire_dname_copy(ret_end, end);
	return (int)wire_build_finish(&b);
}

bool it_has_rrsig(const struct wire_msg *m)
{
	for (int sec = WIRE_SEC_ANSWER; sec <= WIRE_SEC_AUTHORITY; sec++)
		for (size_t i = 0; i < m->count[sec]; i++)
			if (m->sec[sec][i].type == WIRE_TYPE_RRSIG)
				return true;
	return false;
}

int it_referral_ds(const struct wire_msg *m, const uint8_t *zone, uint8_t *out,
		   size_t cap, uint32_t *ret_ttl)
{
	struct wire_builder b;
	uint32_t ttl;
	bool ds = referral_has_ds(m, zone, &ttl);
	int err;

	if (!ds && ttl == UINT32_MAX)
		return 0;
	err = wire_build_init(&b, out, cap, 0,
			      WIRE_FLAG_QR | WIRE_FLAG_AA | WIRE_RCODE_NOERROR);
	if (err == 0)
		err = wire_build_question(&b, zone, WIRE_TYPE_DS,
					  WIRE_CLASS_IN);
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY] && err == 0; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];

		if (ds && ds_of(rr, zone))
			err = wire_build_rr(&b, WIRE_SEC_ANSWER, rr);
		else if (!ds && is_denial(rr))
			err = wire_build_rr(&b, WIRE_SEC_AUTHORITY, rr);
	}
	if (err == 0)
		err = wire_build_opt(&b, DT_UP_EDNS_BUFSIZE, 0, 0, WIRE_EDNS_DO,
				     NULL, 0);
	if (err < 0)
		return err;
	*ret_ttl = ttl;
	return (int)wire_build_finish(&b);
}
