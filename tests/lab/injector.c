/* SPDX-License-Identifier: MIT */
/*
 * An upstream that lies: a UDP and TCP proxy on loopback in front of an
 * honest resolver that passes its answers on, changed case by case (-c:
 * records added, never removed) or at random (-m). For
 * tests/lab/injector.sh and tests/load/mutate.sh.
 *
 * usage: injector -l ADDR -u UPSTREAM [-p PORT] [-c CONTROL]
 *                 [-m PERCENT] [-s SEED] [-S STATS] [-L LOG]
 *
 *   -c CONTROL  a file holding "KIND NAME [TYPE]": answers to questions
 *               for NAME (of any type, or of TYPE) get that change
 *               (a case of cases[] or any kind of kinds[] below); read
 *               again for every answer, absent or empty: no change
 *   -m PERCENT  change that share of all answers at random, each with one
 *               of the kinds below that applies to it
 *   -S STATS    rewritten every 256 answers and at the end: "answers N
 *               mutated M", then "kind NAME COUNT" for each kind
 *   -L LOG      one line per changed answer: "KIND NAME TYPE"
 *
 * The 37 kinds of change of -m (kinds[]):
 *    1 rcode             RCODE set to NOERROR, SERVFAIL, NXDOMAIN or REFUSED
 *    2 duplicate         a record of any section twice
 *    3 owner-case        a copy of a record, its owner's case inverted
 *    4 rdata-octet       a copy of a record, its last RDATA octet changed
 *    5 drop-rrsigs       every RRSIG removed
 *  6-20 the cases of -c  cname-beside, cname-before, dname-beside,
 *                        dname-nocname, mid-chain, offchain, split,
 *                        case-variant, other-class, wrong-type,
 *                        auth-ns-glue, nx-answer, nodata-answer, rcode-nx,
 *                        rcode-nx-cname (cases[])
 *   21 foreign-soa       a negative answer, or a DS answer made NXDOMAIN or
 *                        NODATA, given another lab zone's signed SOA (its
 *                        own proof removed or kept)
 *   22 foreign-nsec      the same with another zone's signed SOA and NSEC
 *   23 foreign-nsec3     the same with another zone's signed SOA and NSEC3
 *   24 foreign-unsigned  the same with another zone's SOA, NSEC and NSEC3
 *                        without their RRSIGs
 *   25 replay-name       any answer replaced by a genuine denial (RCODE and
 *                        authority section) for another name of its zone
 *   26 replay-zone       the same with a denial from another zone
 *   27 wild-nsec         the NSEC of a wildcard owner re-owned under the
 *                        wildcard, its RRSIG kept: at the name asked
 *                        (NODATA) or at "0." below the wildcard's parent
 *                        (NXDOMAIN)
 *   28 wild-noproof      a wildcard-expanded answer without the NSEC or
 *                        NSEC3 proving that no closer name exists
 *   29 dname-strip-cname a DNAME answer without its synthesised CNAME
 *   30 dname-alter-cname the synthesised CNAME pointing at another signed
 *                        or unsigned name (the target's data kept or not)
 *   31 chain-nxdomain    a CNAME or DNAME chain whose target's records are
 *                        removed and RCODE set to NXDOMAIN (at random with a
 *                        genuine denial's authority section from the pool)
 *   32 chain-nodata      the same, RCODE NOERROR
 *   33 optout-strip      the RRSIGs of opt-out NSEC3 records removed
 *   34 denial-unsigned   a negative answer's authority RRSIGs removed
 *   35 forge-unsigned    the answer replaced by an unsigned forged record
 *                        of the type asked (NOERROR)
 *   36 ds-child-nodata   a DS answer made NODATA with the child zone's own
 *                        signed SOA and NSEC or NSEC3
 *   37 strip-authority   a negative answer without its authority section
 *
 * Kinds 21-27, 31, 32 and 36 take genuine records from a pool: the last
 * SEEN_MAX answers that carried an SOA, NSEC or NSEC3 in their authority
 * section, each with the zone it speaks for.
 *
 * Injected data is always recognisable: the name evil.plain., A 6.6.6.6,
 * AAAA 2001:db8:666::6, TXT "evil", TLSA/SSHFP data of 0xee octets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"
#include "wire/zone.h"

#define MAX_PENDING 512
#define MAX_RR	    512
#define POOL	    65536
#define TIMEOUT_MS  4000

/* --- the message being rewritten --- */

struct out {
	uint16_t flags;
	struct wire_rr rr[3][MAX_RR];
	size_t n[3];
	uint8_t pool[POOL];
	size_t used;
};

static void *pool_put(struct out *o, const void *p, size_t len)
{
	uint8_t *d;

	if (o->used + len > POOL)
		return NULL;
	d = o->pool + o->used;
	memcpy(d, p, len);
	o->used += len;
	return d;
}

/* Inserts rr (its owner and RDATA copied) at pos of section s (-1: at the
 * end). */
static void add_rr(struct out *o, int s, long pos, const struct wire_rr *rr)
{
	struct wire_rr c = *rr;
	size_t n = o->n[s];

	if (n == MAX_RR)
		return;
	c.owner = pool_put(o, rr->owner, wire_dname_len(rr->owner));
	c.rdata = pool_put(o, rr->rdata, rr->rdlen ? rr->rdlen : 1);
	if (!c.owner || !c.rdata)
		return;
	if (pos < 0 || (size_t)pos > n)
		pos = (long)n;
	memmove(&o->rr[s][pos + 1], &o->rr[s][pos],
		(n - (size_t)pos) * sizeof(c));
	o->rr[s][pos] = c;
	o->n[s]++;
}

static void out_from(struct out *o, const struct wire_msg *m)
{
	o->flags = m->hdr.flags;
	o->used = 0;
	for (int s = 0; s < 3; s++) {
		o->n[s] = 0;
		for (size_t i = 0; i < m->count[s] && i < MAX_RR; i++)
			o->rr[s][o->n[s]++] = m->sec[s][i];
	}
}

static size_t out_build(const struct out *o, const struct wire_msg *m,
			uint8_t *buf, size_t cap)
{
	struct wire_builder b;
	bool full = false;

	wire_build_init(&b, buf, cap, m->hdr.id, o->flags);
	wire_build_question(&b, m->qname, m->qtype, m->qclass);
	for (int s = 0; s < 3 && !full; s++)
		for (size_t i = 0; i < o->n[s] && !full; i++)
			full = wire_build_rr(&b, s, &o->rr[s][i]) != 0;
	if (m->edns.present)
		wire_build_opt(&b, m->edns.udp_size, m->edns.ext_rcode,
			       m->edns.version, m->edns.flags, m->edns.opts,
			       m->edns.optlen);
	if (full)
		wire_build_set_flags(&b, WIRE_FLAG_TC, 0);
	return wire_build_finish(&b);
}

/* --- injected records, from zone-file text --- */

static const char ee[] =
	"EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE";

/* Evil RDATA of type (text); types without a form get TXT. */
static const char *evil_data(uint16_t type, const char **tname)
{
	static char buf[160];

	*tname = "TXT";
	switch (type) {
	case WIRE_TYPE_A: *tname = "A"; return "6.6.6.6";
	case WIRE_TYPE_AAAA: *tname = "AAAA"; return "2001:db8:666::6";
	case WIRE_TYPE_MX: *tname = "MX"; return "10 evil.plain.";
	case WIRE_TYPE_NS: *tname = "NS"; return "ns.evil.plain.";
	case WIRE_TYPE_TLSA:
		*tname = "TLSA";
		snprintf(buf, sizeof(buf), "3 1 1 %s", ee);
		return buf;
	case WIRE_TYPE_SSHFP:
		*tname = "SSHFP";
		snprintf(buf, sizeof(buf), "4 2 %s", ee);
		return buf;
	}
	return "\"evil\"";
}

/* The template t with {Q} (the name asked), {U} (it in upper case), {P}
 * (it without its last two labels), {T} (the type), {D} (evil data of
 * that type) replaced, into buf. */
static void expand(const char *t, const char *q, uint16_t type, char *buf,
		   size_t cap)
{
	char up[1100], pre[1100];
	const char *tn, *d = evil_data(type, &tn);
	size_t o = 0, ql = strlen(q);

	for (size_t i = 0; i <= ql && i < sizeof(up); i++)
		up[i] = (q[i] >= 'a' && q[i] <= 'z') ? q[i] - 32 : q[i];
	snprintf(pre, sizeof(pre), "%s", q);
	for (int dots = 0, i = (int)ql - 2; i >= 0; i--)
		if (pre[i] == '.' && ++dots == 2) {
			pre[i] = '\0';
			break;
		}
	for (; *t && o + 1 < cap; t++) {
		const char *r = NULL;
		if (t[0] == '{' && t[1] && t[2] == '}') {
			r = t[1] == 'Q'	  ? q
			    : t[1] == 'U' ? up
			    : t[1] == 'P' ? pre
			    : t[1] == 'T' ? tn
			    : t[1] == 'D' ? d
					  : NULL;
		}
		if (r) {
			o += (size_t)snprintf(buf + o, cap - o, "%s", r);
			if (o >= cap)
				o = cap - 1;
			t += 2;
		} else {
			buf[o++] = *t;
		}
	}
	buf[o] = '\0';
}

/* Adds the records of template t at pos of section s. skip_type: leave
 * out records of this type (0: none). */
static void inject(struct out *o, const struct wire_msg *m, int s, long pos,
		   const char *t, uint16_t skip_type)
{
	char q[1100], text[4096];
	struct wire_zreader *zr;
	struct wire_rr rr;

	if (!t)
		return;
	wire_dname_to_str(m->qname, q, sizeof(q));
	expand(t, q, m->qtype, text, sizeof(text));
	zr = wire_zreader_new(text, strlen(text), ".", 300, "inject");
	while (zr && wire_zreader_next(zr, &rr) == 1) {
		if (skip_type && rr.type == skip_type)
			continue;
		add_rr(o, s, pos, &rr);
		if (pos >= 0)
			pos++;
	}
	if (zr && wire_zreader_error(zr)[0])
		fprintf(stderr, "injector: %s\n", wire_zreader_error(zr));
	wire_zreader_free(zr);
}

/* --- the cases --- */

enum when { ALWAYS, NXDOMAIN_ONLY, NODATA_ONLY };

struct icase {
	const char *name;
	enum when when;
	long pos;	/* where in the answer: -1 end, 0 first, 2 mid */
	const char *an; /* zone-file templates per section */
	const char *ns;
	const char *ar;
	int rcode;	 /* -1: keep */
	bool skip_qtype; /* the answer's own type left out */
};

#define EVIL_CNAME "{Q} 300 IN CNAME evil.plain.\nevil.plain. 300 IN {T} {D}\n"

static const struct icase cases[] = {
	{"cname-beside", ALWAYS, -1, EVIL_CNAME, NULL, NULL, -1, false},
	{"cname-before", ALWAYS, 0, EVIL_CNAME, NULL, NULL, -1, false},
	{"dname-beside", ALWAYS, -1,
	 "secure.lab. 300 IN DNAME evil.plain.\n"
	 "{Q} 300 IN CNAME {P}.evil.plain.\n{P}.evil.plain. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"dname-nocname", ALWAYS, -1,
	 "secure.lab. 300 IN DNAME evil.plain.\n"
	 "{P}.evil.plain. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"mid-chain", ALWAYS, 2,
	 "cname.secure.lab. 300 IN CNAME evil.plain.\n"
	 "evil.plain. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"offchain", ALWAYS, -1,
	 "evil.plain. 300 IN {T} {D}\nmail.secure.lab. 300 IN {T} {D}\n"
	 "ent.secure.lab. 300 IN {T} {D}\n",
	 NULL, NULL, -1, false},
	{"split", ALWAYS, -1, "{Q} 60 IN {T} {D}\n", NULL, NULL, -1, false},
	{"case-variant", ALWAYS, -1,
	 "{U} 300 IN {T} {D}\n{U} 300 IN CNAME evil.plain.\n", NULL, NULL, -1,
	 false},
	{"other-class", ALWAYS, -1,
	 "{Q} 300 CH CNAME evil.plain.\n{Q} 300 CH TXT \"evil\"\n"
	 "{Q} 300 HS CNAME evil.plain.\nevil.plain. 300 CH TXT \"evil\"\n",
	 NULL, NULL, -1, false},
	{"wrong-type", ALWAYS, -1,
	 "{Q} 300 IN TXT \"evil\"\n{Q} 300 IN MX 10 evil.plain.\n"
	 "{Q} 300 IN A 6.6.6.6\n{Q} 300 IN AAAA 2001:db8:666::6\n"
	 "{Q} 300 IN NS ns.evil.plain.\n{Q} 300 IN PTR evil.plain.\n",
	 NULL, NULL, -1, true},
	{"auth-ns-glue", ALWAYS, -1, NULL,
	 "secure.lab. 300 IN NS ns.evil.plain.\n{Q} 300 IN {T} {D}\n",
	 "ns.evil.plain. 300 IN A 6.6.6.6\n"
	 "ns.evil.plain. 300 IN AAAA 2001:db8:666::6\n{Q} 300 IN {T} {D}\n",
	 -1, false},
	{"nx-answer", NXDOMAIN_ONLY, -1, "{Q} 300 IN {T} {D}\n" EVIL_CNAME,
	 NULL, NULL, -1, false},
	{"nodata-answer", NODATA_ONLY, -1, "{Q} 300 IN {T} {D}\n", NULL, NULL,
	 -1, false},
	{"rcode-nx", ALWAYS, -1, NULL, NULL, NULL, WIRE_RCODE_NXDOMAIN, false},
	{"rcode-nx-cname", ALWAYS, -1, EVIL_CNAME, NULL, NULL,
	 WIRE_RCODE_NXDOMAIN, false},
};

static bool applies(const struct icase *c, const struct wire_msg *m)
{
	switch (c->when) {
	case NXDOMAIN_ONLY: return m->rcode == WIRE_RCODE_NXDOMAIN;
	case NODATA_ONLY:
		return m->rcode == WIRE_RCODE_NOERROR &&
		       m->count[WIRE_SEC_ANSWER] == 0;
	default: return true;
	}
}

static void apply_case(struct out *o, const struct wire_msg *m,
		       const struct icase *c)
{
	uint16_t skip = c->skip_qtype ? m->qtype : 0;

	if (!applies(c, m))
		return;
	inject(o, m, WIRE_SEC_ANSWER, c->pos, c->an, skip);
	inject(o, m, WIRE_SEC_AUTHORITY, -1, c->ns, skip);
	inject(o, m, WIRE_SEC_ADDITIONAL, -1, c->ar, skip);
	if (c->rcode >= 0)
		o->flags = (uint16_t)((o->flags & ~0xf) | c->rcode);
}

/* --- random mutation --- */

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void drop_sigs(struct out *o)
{
	for (int s = 0; s < 3; s++) {
		size_t k = 0;
		for (size_t i = 0; i < o->n[s]; i++)
			if (o->rr[s][i].type != WIRE_TYPE_RRSIG)
				o->rr[s][k++] = o->rr[s][i];
		o->n[s] = k;
	}
}

/* --- the pool of genuine answers, kept to be replayed --- */

/*
 * The last SEEN_MAX genuine answers that carry a proof in their authority
 * section (SOA, NSEC or NSEC3), each with the zone it speaks for: the
 * mutations below take records of another zone, another name or a
 * wildcard from them. Bounded: the oldest goes when a new one comes.
 */
#define SEEN_MAX 256

enum {
	S_SOA = 1,
	S_NSEC = 2,
	S_NSEC3 = 4,
	S_WILD = 8, /* an NSEC owned by a wildcard */
	S_NEG = 16, /* NXDOMAIN or NODATA */
};

struct seen {
	struct wire_msg *m;
	const uint8_t *zone;
	unsigned flags;
};

static struct seen seen[SEEN_MAX];
static size_t seen_next;

static uint16_t covered(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG && rr->rdlen >= 18
		       ? wire_get16(rr->rdata)
		       : 0;
}

/* The RRSIG's signer, or NULL. */
static const uint8_t *signer(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_RRSIG && rr->rdlen > 18 ? rr->rdata + 18
							     : NULL;
}

static bool is_negative(const struct wire_msg *m)
{
	return m->rcode == WIRE_RCODE_NXDOMAIN ||
	       (m->rcode == WIRE_RCODE_NOERROR &&
		m->count[WIRE_SEC_ANSWER] == 0);
}

/* The zone an answer speaks for: its SOA's owner, else the signer of its
 * first RRSIG (authority, then answer); NULL for an unsigned answer. */
static const uint8_t *msg_zone(const struct wire_msg *m)
{
	const int order[2] = {WIRE_SEC_AUTHORITY, WIRE_SEC_ANSWER};

	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++)
		if (m->sec[WIRE_SEC_AUTHORITY][i].type == WIRE_TYPE_SOA)
			return m->sec[WIRE_SEC_AUTHORITY][i].owner;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < m->count[order[k]]; i++)
			if (signer(&m->sec[order[k]][i]))
				return signer(&m->sec[order[k]][i]);
	return NULL;
}

/* Keeps m in the pool when it has a proof; returns true when it took
 * m (the pool frees it later). */
static bool seen_keep(struct wire_msg *m)
{
	unsigned f = is_negative(m) ? S_NEG : 0;
	struct seen *e;

	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];
		f |= rr->type == WIRE_TYPE_SOA	   ? S_SOA
		     : rr->type == WIRE_TYPE_NSEC3 ? S_NSEC3
		     : rr->type == WIRE_TYPE_NSEC
			     ? S_NSEC | (wire_dname_is_wildcard(rr->owner)
						 ? S_WILD
						 : 0)
			     : 0;
	}
	if (!(f & (S_SOA | S_NSEC | S_NSEC3)) || !msg_zone(m))
		return false;
	e = &seen[seen_next++ % SEEN_MAX];
	wire_msg_free(e->m);
	*e = (struct seen){m, msg_zone(m), f};
	return true;
}

enum zone_rel {
	Z_OTHER, /* another zone than m's */
	Z_SAME,	 /* m's zone, another question name */
	Z_CHILD, /* the zone at m's question name (a DS question's child) */
	Z_ABOVE, /* a zone at or above m's question name */
	Z_ANY,
};

static bool rel_ok(const struct seen *e, const struct wire_msg *m,
		   enum zone_rel rel)
{
	const uint8_t *z = msg_zone(m);

	switch (rel) {
	case Z_OTHER: return !z || !wire_dname_equal(z, e->zone);
	case Z_SAME:
		return z && wire_dname_equal(z, e->zone) &&
		       !wire_dname_equal(m->qname, e->m->qname);
	case Z_CHILD: return wire_dname_equal(m->qname, e->zone);
	case Z_ABOVE: return wire_dname_is_subdomain(m->qname, e->zone);
	default: return true;
	}
}

/* A random kept answer with all of want's flags in relation rel to m. */
static const struct seen *seen_pick(const struct wire_msg *m, unsigned want,
				    enum zone_rel rel)
{
	size_t start = rnd(SEEN_MAX);

	for (size_t i = 0; i < SEEN_MAX; i++) {
		const struct seen *e = &seen[(start + i) % SEEN_MAX];
		if (e->m && (e->flags & want) == want && rel_ok(e, m, rel))
			return e;
	}
	return NULL;
}

/* --- rewriting helpers --- */

static void clear_section(struct out *o, int s)
{
	o->n[s] = 0;
}

static void set_rcode(struct out *o, unsigned rcode)
{
	o->flags = (uint16_t)((o->flags & ~0xf) | rcode);
}

/* Drops the records of section s of type t and the RRSIGs covering t. */
static size_t drop_type(struct out *o, int s, uint16_t t)
{
	size_t k = 0, n = o->n[s];

	for (size_t i = 0; i < n; i++)
		if (o->rr[s][i].type != t && covered(&o->rr[s][i]) != t)
			o->rr[s][k++] = o->rr[s][i];
	o->n[s] = k;
	return n - k;
}

/* Drops the RRSIGs of section s covering t. */
static size_t drop_sigs_of(struct out *o, int s, uint16_t t)
{
	size_t k = 0, n = o->n[s];

	for (size_t i = 0; i < n; i++)
		if (covered(&o->rr[s][i]) != t)
			o->rr[s][k++] = o->rr[s][i];
	o->n[s] = k;
	return n - k;
}

static bool type_in(uint16_t t, const uint16_t *types)
{
	for (; *types; types++)
		if (*types == t)
			return true;
	return false;
}

/* Copies the authority records of src whose type is in types (0-ended)
 * into o's authority section, their RRSIGs with them when sigs. */
static void copy_proof(struct out *o, const struct wire_msg *src,
		       const uint16_t *types, bool sigs)
{
	for (size_t i = 0; i < src->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &src->sec[WIRE_SEC_AUTHORITY][i];
		if (type_in(rr->type, types) ||
		    (sigs && type_in(covered(rr), types)))
			add_rr(o, WIRE_SEC_AUTHORITY, -1, rr);
	}
}

static bool has_type(const struct wire_msg *m, int s, uint16_t t)
{
	for (size_t i = 0; i < m->count[s]; i++)
		if (m->sec[s][i].type == t)
			return true;
	return false;
}

/* A positive answer made a denial: no answer records, NXDOMAIN or
 * NODATA at random. */
static void make_negative(struct out *o)
{
	clear_section(o, WIRE_SEC_ANSWER);
	set_rcode(o, rnd(2) ? WIRE_RCODE_NXDOMAIN : WIRE_RCODE_NOERROR);
}

/* --- the kinds of change --- */

static const uint16_t t_soa[] = {WIRE_TYPE_SOA, 0};
static const uint16_t t_nsec[] = {WIRE_TYPE_SOA, WIRE_TYPE_NSEC, 0};
static const uint16_t t_nsec3[] = {WIRE_TYPE_SOA, WIRE_TYPE_NSEC3, 0};
static const uint16_t t_proof[] = {WIRE_TYPE_SOA, WIRE_TYPE_NSEC,
				   WIRE_TYPE_NSEC3, 0};

static bool k_rcode(struct out *o, const struct wire_msg *m, int arg)
{
	static const uint16_t rcodes[] = {0, 2, 3, 5};

	(void)m;
	(void)arg;
	set_rcode(o, rcodes[rnd(4)]);
	return true;
}

/* arg 0: a plain duplicate, 1: owner case changed, 2: last RDATA octet
 * changed. */
static bool k_copy(struct out *o, const struct wire_msg *m, int arg)
{
	size_t s = rnd(3), n = o->n[s];
	uint8_t owner[DT_NAME_MAXLEN], rd[65535];
	struct wire_rr rr;

	(void)m;
	if (!n)
		return false;
	rr = o->rr[s][rnd((uint32_t)n)];
	if (arg == 2 && (!rr.rdlen || rr.type == WIRE_TYPE_RRSIG))
		return false;
	wire_dname_copy(owner, rr.owner);
	for (size_t i = 1; arg == 1 && owner[i]; i++)
		owner[i] ^= (owner[i] | 0x20) >= 'a' && (owner[i] | 0x20) <= 'z'
				    ? 0x20
				    : 0;
	memcpy(rd, rr.rdata, rr.rdlen);
	if (arg == 2)
		rd[rr.rdlen - 1] ^= 0x66;
	rr.owner = owner;
	rr.rdata = rd;
	add_rr(o, (int)s, (long)rnd((uint32_t)n + 1), &rr);
	return true;
}

static bool k_drop_sigs(struct out *o, const struct wire_msg *m, int arg)
{
	(void)m;
	(void)arg;
	drop_sigs(o);
	return true;
}

static bool k_case(struct out *o, const struct wire_msg *m, int arg)
{
	if (!applies(&cases[arg], m))
		return false;
	apply_case(o, m, &cases[arg]);
	return true;
}

/* A negative answer, or a DS answer made one, given the SOA (arg S_SOA),
 * NSEC or NSEC3 of another zone, signed, kept from an earlier answer;
 * the genuine proof removed or kept. */
static bool k_foreign(struct out *o, const struct wire_msg *m, int arg)
{
	const struct seen *e;

	if (!is_negative(m) && m->qtype != WIRE_TYPE_DS)
		return false;
	if (!(e = seen_pick(m, (unsigned)arg | S_SOA, Z_OTHER)))
		return false;
	if (!is_negative(m))
		make_negative(o);
	if (rnd(2))
		clear_section(o, WIRE_SEC_AUTHORITY);
	copy_proof(o, e->m,
		   arg == S_SOA	   ? t_soa
		   : arg == S_NSEC ? t_nsec
				   : t_nsec3,
		   true);
	return true;
}

/* The same with another zone's SOA and NSEC or NSEC3 without their
 * RRSIGs. */
static bool k_foreign_unsigned(struct out *o, const struct wire_msg *m, int arg)
{
	const struct seen *e;

	(void)arg;
	if (!is_negative(m) && m->qtype != WIRE_TYPE_DS)
		return false;
	if (!(e = seen_pick(m, S_SOA, Z_OTHER)))
		return false;
	if (!is_negative(m))
		make_negative(o);
	clear_section(o, WIRE_SEC_AUTHORITY);
	copy_proof(o, e->m, t_proof, false);
	return true;
}

/* Any answer replaced by the authority section and RCODE of a genuine
 * denial for another name of the same zone (arg Z_SAME) or of another
 * zone (Z_OTHER). */
static bool k_replay(struct out *o, const struct wire_msg *m, int arg)
{
	const struct seen *e = seen_pick(m, S_NEG, (enum zone_rel)arg);

	if (!e)
		return false;
	clear_section(o, WIRE_SEC_ANSWER);
	clear_section(o, WIRE_SEC_AUTHORITY);
	copy_proof(o, e->m, t_proof, true);
	set_rcode(o, e->m->rcode);
	return true;
}

/* The wildcard NSEC of a genuine answer re-owned under the wildcard, its
 * RRSIG (with the wildcard's label count) kept: at the name asked (a
 * NODATA) or at "0." under the wildcard's parent, which sorts before
 * every name under it the lab asks (an NXDOMAIN). */
static bool k_wild_nsec(struct out *o, const struct wire_msg *m, int arg)
{
	const struct seen *e = seen_pick(m, S_WILD, Z_ABOVE);
	const struct wire_msg *s = e ? e->m : NULL;
	uint8_t zero[DT_NAME_MAXLEN + 2] = {1, '0'};
	const uint8_t *parent = NULL, *owner;
	bool nx = rnd(2);

	(void)arg;
	for (size_t i = 0; s && i < s->count[WIRE_SEC_AUTHORITY]; i++)
		if (s->sec[WIRE_SEC_AUTHORITY][i].type == WIRE_TYPE_NSEC &&
		    wire_dname_is_wildcard(s->sec[WIRE_SEC_AUTHORITY][i].owner))
			parent = wire_dname_parent(
				s->sec[WIRE_SEC_AUTHORITY][i].owner);
	if (!parent || wire_dname_equal(m->qname, parent) ||
	    !wire_dname_is_subdomain(m->qname, parent) ||
	    wire_dname_len(parent) + 2 > DT_NAME_MAXLEN)
		return false;
	wire_dname_copy(zero + 2, parent);
	owner = nx ? zero : m->qname;
	clear_section(o, WIRE_SEC_ANSWER);
	clear_section(o, WIRE_SEC_AUTHORITY);
	copy_proof(o, s, t_soa, true);
	for (size_t i = 0; i < s->count[WIRE_SEC_AUTHORITY]; i++) {
		struct wire_rr rr = s->sec[WIRE_SEC_AUTHORITY][i];
		if (!wire_dname_is_wildcard(rr.owner) ||
		    (rr.type != WIRE_TYPE_NSEC &&
		     covered(&rr) != WIRE_TYPE_NSEC))
			continue;
		rr.owner = owner;
		add_rr(o, WIRE_SEC_AUTHORITY, -1, &rr);
	}
	set_rcode(o, nx ? WIRE_RCODE_NXDOMAIN : WIRE_RCODE_NOERROR);
	return true;
}

/* A wildcard-expanded answer (an RRSIG with fewer labels than its
 * owner) without the NSEC or NSEC3 that proves no closer name. */
static bool k_wild_noproof(struct out *o, const struct wire_msg *m, int arg)
{
	bool expanded = false;

	(void)arg;
	for (size_t i = 0; i < m->count[WIRE_SEC_ANSWER]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_ANSWER][i];
		if (signer(rr) && rr->rdata[3] < wire_dname_labels(rr->owner))
			expanded = true;
	}
	if (!expanded || (!has_type(m, WIRE_SEC_AUTHORITY, WIRE_TYPE_NSEC) &&
			  !has_type(m, WIRE_SEC_AUTHORITY, WIRE_TYPE_NSEC3)))
		return false;
	drop_type(o, WIRE_SEC_AUTHORITY, WIRE_TYPE_NSEC);
	drop_type(o, WIRE_SEC_AUTHORITY, WIRE_TYPE_NSEC3);
	return true;
}

/* A DNAME answer with its synthesised CNAME removed (arg 0) or pointing
 * elsewhere (arg 1: another signed name, the target's data kept or
 * removed). */
static bool k_dname_cname(struct out *o, const struct wire_msg *m, int arg)
{
	static const char *const other[] = {"\3www\6secure\3lab",
					    "\3www\5nsec3\3lab",
					    "\3www\10insecure\3lab"};
	const uint8_t *to = (const uint8_t *)other[rnd(3)];

	if (!has_type(m, WIRE_SEC_ANSWER, WIRE_TYPE_DNAME) ||
	    !has_type(m, WIRE_SEC_ANSWER, WIRE_TYPE_CNAME))
		return false;
	if (arg == 0) {
		drop_type(o, WIRE_SEC_ANSWER, WIRE_TYPE_CNAME);
		return true;
	}
	for (size_t i = 0; i < o->n[WIRE_SEC_ANSWER]; i++) {
		struct wire_rr *rr = &o->rr[WIRE_SEC_ANSWER][i];
		if (rr->type == WIRE_TYPE_CNAME) {
			rr->rdata = to;
			rr->rdlen = (uint16_t)wire_dname_len(to);
		}
	}
	if (rnd(2) && m->qtype != WIRE_TYPE_CNAME)
		drop_type(o, WIRE_SEC_ANSWER, m->qtype);
	return true;
}

/* A CNAME or DNAME chain whose end is made NXDOMAIN (arg 3) or NODATA
 * (arg 0): the target's records removed, the chain kept, and at random
 * the authority section of a genuine denial from the pool. */
static bool k_chain_end(struct out *o, const struct wire_msg *m, int arg)
{
	const struct seen *e = rnd(2) ? seen_pick(m, S_NEG, Z_ANY) : NULL;

	if (!has_type(m, WIRE_SEC_ANSWER, WIRE_TYPE_CNAME) &&
	    !has_type(m, WIRE_SEC_ANSWER, WIRE_TYPE_DNAME))
		return false;
	if (m->qtype != WIRE_TYPE_CNAME && m->qtype != WIRE_TYPE_DNAME)
		drop_type(o, WIRE_SEC_ANSWER, m->qtype);
	if (e) {
		clear_section(o, WIRE_SEC_AUTHORITY);
		copy_proof(o, e->m, t_proof, true);
	}
	set_rcode(o, (unsigned)arg);
	return true;
}

/* The RRSIGs of opt-out NSEC3 records (flags bit 0) removed. */
static bool k_optout_strip(struct out *o, const struct wire_msg *m, int arg)
{
	bool optout = false;

	(void)arg;
	for (size_t i = 0; i < m->count[WIRE_SEC_AUTHORITY]; i++) {
		const struct wire_rr *rr = &m->sec[WIRE_SEC_AUTHORITY][i];
		if (rr->type == WIRE_TYPE_NSEC3 && rr->rdlen > 2 &&
		    (rr->rdata[1] & 1))
			optout = true;
	}
	return optout && drop_sigs_of(o, WIRE_SEC_AUTHORITY, WIRE_TYPE_NSEC3);
}

/* A negative answer's proof with every RRSIG of the authority section
 * removed. */
static bool k_denial_unsigned(struct out *o, const struct wire_msg *m, int arg)
{
	(void)arg;
	return is_negative(m) &&
	       drop_type(o, WIRE_SEC_AUTHORITY, WIRE_TYPE_RRSIG);
}

/* The answer replaced by an unsigned forged record of the type asked (an
 * NXDOMAIN made NOERROR). */
static bool k_forge_unsigned(struct out *o, const struct wire_msg *m, int arg)
{
	(void)arg;
	if (m->qtype == WIRE_TYPE_RRSIG || m->qtype == WIRE_TYPE_ANY)
		return false;
	clear_section(o, WIRE_SEC_ANSWER);
	if (rnd(2))
		clear_section(o, WIRE_SEC_AUTHORITY);
	inject(o, m, WIRE_SEC_ANSWER, -1, "{Q} 300 IN {T} {D}\n", 0);
	set_rcode(o, WIRE_RCODE_NOERROR);
	return true;
}

/* A DS answer made NODATA with the child's own signed SOA and NSEC or
 * NSEC3 (the wrong side of the cut). */
static bool k_ds_child(struct out *o, const struct wire_msg *m, int arg)
{
	const struct seen *e;

	(void)arg;
	if (m->qtype != WIRE_TYPE_DS || !(e = seen_pick(m, S_SOA, Z_CHILD)))
		return false;
	clear_section(o, WIRE_SEC_ANSWER);
	clear_section(o, WIRE_SEC_AUTHORITY);
	copy_proof(o, e->m, t_proof, true);
	set_rcode(o, WIRE_RCODE_NOERROR);
	return true;
}

/* A negative answer without its authority section. */
static bool k_strip_auth(struct out *o, const struct wire_msg *m, int arg)
{
	(void)arg;
	if (!is_negative(m) || !o->n[WIRE_SEC_AUTHORITY])
		return false;
	clear_section(o, WIRE_SEC_AUTHORITY);
	return true;
}

struct kind {
	const char *name;
	bool (*fn)(struct out *o, const struct wire_msg *m, int arg);
	int arg;
};

static const struct kind kinds[] = {
	{"rcode", k_rcode, 0},
	{"duplicate", k_copy, 0},
	{"owner-case", k_copy, 1},
	{"rdata-octet", k_copy, 2},
	{"drop-rrsigs", k_drop_sigs, 0},
	{"cname-beside", k_case, 0},
	{"cname-before", k_case, 1},
	{"dname-beside", k_case, 2},
	{"dname-nocname", k_case, 3},
	{"mid-chain", k_case, 4},
	{"offchain", k_case, 5},
	{"split", k_case, 6},
	{"case-variant", k_case, 7},
	{"other-class", k_case, 8},
	{"wrong-type", k_case, 9},
	{"auth-ns-glue", k_case, 10},
	{"nx-answer", k_case, 11},
	{"nodata-answer", k_case, 12},
	{"rcode-nx", k_case, 13},
	{"rcode-nx-cname", k_case, 14},
	{"foreign-soa", k_foreign, S_SOA},
	{"foreign-nsec", k_foreign, S_NSEC},
	{"foreign-nsec3", k_foreign, S_NSEC3},
	{"foreign-unsigned", k_foreign_unsigned, 0},
	{"replay-name", k_replay, Z_SAME},
	{"replay-zone", k_replay, Z_OTHER},
	{"wild-nsec", k_wild_nsec, 0},
	{"wild-noproof", k_wild_noproof, 0},
	{"dname-strip-cname", k_dname_cname, 0},
	{"dname-alter-cname", k_dname_cname, 1},
	{"chain-nxdomain", k_chain_end, WIRE_RCODE_NXDOMAIN},
	{"chain-nodata", k_chain_end, WIRE_RCODE_NOERROR},
	{"optout-strip", k_optout_strip, 0},
	{"denial-unsigned", k_denial_unsigned, 0},
	{"forge-unsigned", k_forge_unsigned, 0},
	{"ds-child-nodata", k_ds_child, 0},
	{"strip-authority", k_strip_auth, 0},
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The kind (a case of cases[] or any other) the control file names for
 * m's question ("KIND NAME" or "KIND NAME TYPE"), or -1. */
static long control_kind(const char *path, const struct wire_msg *m)
{
	char line[1200], cname[64], target[1100], type[32];
	uint8_t t[DT_NAME_MAXLEN];
	FILE *f = path ? fopen(path, "r") : NULL;
	bool got = f && fgets(line, sizeof(line), f);
	uint16_t qtype;
	int fields =
		got ? sscanf(line, "%63s %1099s %31s", cname, target, type) : 0;

	if (f)
		fclose(f);
	if (fields < 2 ||
	    wire_dname_from_str(target, strlen(target), NULL, t) < 0 ||
	    !wire_dname_equal(t, m->qname))
		return -1;
	if (fields == 3 && (wire_type_from_str(type, strlen(type), &qtype) ||
			    qtype != m->qtype))
		return -1;
	for (size_t k = 0; k < NKINDS; k++)
		if (!strcmp(kinds[k].name, cname))
			return (long)k;
	return -1;
}

static unsigned long kind_count[NKINDS];

/* One kind of change that applies to m, chosen at random (a few tries,
 * then a duplicate); returns its index. */
static size_t mutate(struct out *o, const struct wire_msg *m)
{
	for (int tries = 0; tries < 12; tries++) {
		size_t k = rnd(NKINDS);
		if (kinds[k].fn(o, m, kinds[k].arg))
			return k;
	}
	k_rcode(o, m, 0);
	return 0;
}

/* --- the proxy --- */

struct proxy {
	const char *control, *stats;
	FILE *log; /* one line per mutated answer: KIND NAME TYPE */
	unsigned percent;
	unsigned long answers, mutated;
	struct sockaddr_in up;
	int ufd, tfd;
};

static void write_stats(const struct proxy *p)
{
	FILE *f;
	char tmp[1100];

	if (!p->stats)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", p->stats);
	if ((f = fopen(tmp, "w"))) {
		fprintf(f, "answers %lu mutated %lu\n", p->answers, p->mutated);
		for (size_t k = 0; k < NKINDS; k++)
			fprintf(f, "kind %s %lu\n", kinds[k].name,
				kind_count[k]);
		fclose(f);
		rename(tmp, p->stats);
	}
}

static void log_kind(struct proxy *p, const struct wire_msg *m, size_t k)
{
	char name[1100], type[16];

	kind_count[k]++;
	if (!p->log)
		return;
	wire_dname_to_str(m->qname, name, sizeof(name));
	fprintf(p->log, "%s %s %s\n", kinds[k].name, name,
		wire_type_to_str(m->qtype, type));
}

/* The upstream's answer rewritten into out; returns its length (the
 * answer as it was when it does not parse). */
static size_t rewrite(struct proxy *p, const uint8_t *in, size_t len,
		      uint8_t *buf, size_t cap)
{
	static struct out o;
	struct wire_msg *m;
	long k;
	int err;

	p->answers++;
	m = wire_msg_parse(in, len, WIRE_PARSE_TRUNC_OK, &err);
	if (!m || !m->has_question) {
		wire_msg_free(m);
		memcpy(buf, in, len < cap ? len : cap);
		return len < cap ? len : cap;
	}
	out_from(&o, m);
	if ((k = control_kind(p->control, m)) >= 0) {
		if (kinds[k].fn(&o, m, kinds[k].arg))
			log_kind(p, m, (size_t)k);
	} else if (p->percent && rnd(100) < p->percent && ++p->mutated)
		log_kind(p, m, mutate(&o, m));
	len = out_build(&o, m, buf, cap);
	if (!(p->percent || p->control) || !seen_keep(m))
		wire_msg_free(m);
	if (p->answers % 256 == 0)
		write_stats(p);
	return len;
}

static volatile sig_atomic_t stopping;

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A question on its way to the upstream. */
struct pending {
	int fd; /* -1: free */
	struct sockaddr_in from;
	size_t cap; /* what the client's EDNS allows */
	int64_t deadline;
};

static struct pending pend[MAX_PENDING];

/* The UDP size a query allows: its OPT record's, at least 512. */
static size_t query_cap(const uint8_t *q, size_t len)
{
	int err;
	struct wire_msg *m = wire_msg_parse(q, len, 0, &err);
	size_t cap = 512;

	if (m && m->edns.present && m->edns.udp_size > 512)
		cap = m->edns.udp_size;
	wire_msg_free(m);
	return cap;
}

static void udp_query(struct proxy *p)
{
	uint8_t q[65535];
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	ssize_t n = recvfrom(p->ufd, q, sizeof(q), 0, (void *)&from, &fl);
	size_t i = 0;

	if (n < 12)
		return;
	while (i < MAX_PENDING && pend[i].fd >= 0)
		i++;
	if (i == MAX_PENDING)
		return; /* full: the client retries */
	pend[i].fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (pend[i].fd < 0)
		return;
	if (connect(pend[i].fd, (void *)&p->up, sizeof(p->up)) ||
	    send(pend[i].fd, q, (size_t)n, 0) != n) {
		close(pend[i].fd);
		pend[i].fd = -1;
		return;
	}
	pend[i].from = from;
	pend[i].cap = query_cap(q, (size_t)n);
	pend[i].deadline = now_ms() + TIMEOUT_MS;
}

static void udp_answer(struct proxy *p, struct pending *x)
{
	static uint8_t in[65535], out[65535];
	ssize_t n = recv(x->fd, in, sizeof(in), 0);

	if (n >= 12) {
		size_t len = rewrite(p, in, (size_t)n, out, x->cap);
		sendto(p->ufd, out, len, 0, (void *)&x->from, sizeof(x->from));
	}
	close(x->fd);
	x->fd = -1;
}

/* --- TCP: one connection at a time, each question asked upstream over
 * TCP in turn (rare: answers too large for UDP) --- */

static int io_all(int fd, uint8_t *p, size_t len, bool rd)
{
	while (len) {
		struct pollfd pf = {fd, rd ? POLLIN : POLLOUT, 0};
		ssize_t n;
		if (poll(&pf, 1, TIMEOUT_MS) != 1)
			return -1;
		n = rd ? recv(fd, p, len, 0) : send(fd, p, len, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int frame_read(int fd, uint8_t *buf, size_t *len)
{
	uint8_t l[2];

	if (io_all(fd, l, 2, true))
		return -1;
	*len = (size_t)(l[0] << 8 | l[1]);
	return io_all(fd, buf, *len, true);
}

static int frame_write(int fd, const uint8_t *buf, size_t len)
{
	uint8_t l[2] = {(uint8_t)(len >> 8), (uint8_t)len};

	if (io_all(fd, l, 2, false))
		return -1;
	return io_all(fd, (uint8_t *)buf, len, false);
}

/* One question over TCP to the upstream; returns the answer's length. */
static ssize_t tcp_ask(struct proxy *p, const uint8_t *q, size_t qlen,
		       uint8_t *ans)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	size_t len = 0;
	int err = fd < 0 || connect(fd, (void *)&p->up, sizeof(p->up)) ||
		  frame_write(fd, q, qlen) || frame_read(fd, ans, &len);

	if (fd >= 0)
		close(fd);
	return err ? -1 : (ssize_t)len;
}

static void tcp_client(struct proxy *p)
{
	static uint8_t q[65535], in[65535], out[65535];
	int fd = accept4(p->tfd, NULL, NULL, SOCK_CLOEXEC);
	size_t qlen;
	ssize_t n;

	if (fd < 0)
		return;
	while (!frame_read(fd, q, &qlen) && (n = tcp_ask(p, q, qlen, in)) >= 12)
		if (frame_write(fd, out,
				rewrite(p, in, (size_t)n, out, sizeof(out))))
			break;
	close(fd);
}

/* --- main --- */

static int listen_on(const struct sockaddr_in *a, int type)
{
	int one = 1, fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const void *)a, sizeof(*a)) ||
	    (type == SOCK_STREAM && listen(fd, 64))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void expire(void)
{
	int64_t now = now_ms();

	for (size_t i = 0; i < MAX_PENDING; i++)
		if (pend[i].fd >= 0 && pend[i].deadline < now) {
			close(pend[i].fd);
			pend[i].fd = -1;
		}
}

static void serve(struct proxy *p)
{
	struct pollfd pf[2 + MAX_PENDING];
	size_t map[MAX_PENDING];

	while (!stopping) {
		nfds_t n = 2;
		pf[0] = (struct pollfd){p->ufd, POLLIN, 0};
		pf[1] = (struct pollfd){p->tfd, POLLIN, 0};
		for (size_t i = 0; i < MAX_PENDING; i++)
			if (pend[i].fd >= 0) {
				map[n - 2] = i;
				pf[n++] =
					(struct pollfd){pend[i].fd, POLLIN, 0};
			}
		if (poll(pf, n, 200) < 0 && errno != EINTR)
			break;
		for (nfds_t k = 2; k < n; k++)
			if (pf[k].revents)
				udp_answer(p, &pend[map[k - 2]]);
		if (pf[0].revents & POLLIN)
			udp_query(p);
		if (pf[1].revents & POLLIN)
			tcp_client(p);
		expire();
	}
}

static int addr(const char *text, uint16_t port, struct sockaddr_in *ret)
{
	*ret = (struct sockaddr_in){.sin_family = AF_INET,
				    .sin_port = htons(port)};
	return inet_pton(AF_INET, text, &ret->sin_addr) == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct proxy p = {.ufd = -1, .tfd = -1};
	const char *listen_addr = NULL, *up = NULL;
	unsigned port = 53;
	struct sockaddr_in la;
	int opt;

	while ((opt = getopt(argc, argv, "l:u:p:c:m:s:S:L:")) != -1) {
		switch (opt) {
		case 'l': listen_addr = optarg; break;
		case 'u': up = optarg; break;
		case 'p': port = (unsigned)atoi(optarg); break;
		case 'c': p.control = optarg; break;
		case 'm': p.percent = (unsigned)atoi(optarg); break;
		case 's':
			rng ^= strtoull(optarg, NULL, 10) * 2654435761u;
			break;
		case 'S': p.stats = optarg; break;
		case 'L':
			if (!(p.log = fopen(optarg, "w"))) {
				perror("injector: -L");
				return 1;
			}
			setvbuf(p.log, NULL, _IOLBF, 0);
			break;
		default: return 2;
		}
	}
	if (!listen_addr || !up || addr(listen_addr, (uint16_t)port, &la) ||
	    addr(up, 53, &p.up)) {
		fprintf(stderr, "usage: injector -l ADDR -u UPSTREAM [-p PORT] "
				"[-c CONTROL] [-m PERCENT] [-s SEED] "
				"[-S STATS] [-L LOG]\n");
		return 2;
	}
	p.ufd = listen_on(&la, SOCK_DGRAM);
	p.tfd = listen_on(&la, SOCK_STREAM);
	if (p.ufd < 0 || p.tfd < 0) {
		perror("injector: bind");
		return 1;
	}
	for (size_t i = 0; i < MAX_PENDING; i++)
		pend[i].fd = -1;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "injector: listening on %s@%u\n", listen_addr, port);
	serve(&p);
	write_stats(&p);
	return 0;
}
