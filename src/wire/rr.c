/* SPDX-License-Identifier: MIT */
/*
 * Resource records: type and class mnemonics, RDATA layouts and the walks
 * they drive (check, unpack, canonical form), canonical RRset order, key
 * tags and NSEC/NSEC3 type bitmaps. Nothing here allocates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/loc.h"
#include "wire/rr.h"
#include "wire/svcb.h"

/* RFC 8976 §2.2.4: a ZONEMD digest MUST NOT be shorter than 12 octets. */
#define ZONEMD_DIGEST_MINLEN 12
/* RFC 2874 §3.1.1: the A6 prefix length is 0..128 bits. */
#define A6_PREFIX_MAXBITS 128

/* --- mnemonics --- */

struct mnemonic {
	uint16_t value;
	const char *name; /* uppercase */
};

static const struct mnemonic type_names[] = {
	{WIRE_TYPE_A, "A"},
	{WIRE_TYPE_NS, "NS"},
	{WIRE_TYPE_MD, "MD"},
	{WIRE_TYPE_MF, "MF"},
	{WIRE_TYPE_CNAME, "CNAME"},
	{WIRE_TYPE_SOA, "SOA"},
	{WIRE_TYPE_MB, "MB"},
	{WIRE_TYPE_MG, "MG"},
	{WIRE_TYPE_MR, "MR"},
	{WIRE_TYPE_NULL, "NULL"},
	{WIRE_TYPE_PTR, "PTR"},
	{WIRE_TYPE_HINFO, "HINFO"},
	{WIRE_TYPE_MINFO, "MINFO"},
	{WIRE_TYPE_MX, "MX"},
	{WIRE_TYPE_TXT, "TXT"},
	{WIRE_TYPE_RP, "RP"},
	{WIRE_TYPE_AFSDB, "AFSDB"},
	{WIRE_TYPE_RT, "RT"},
	{WIRE_TYPE_SIG, "SIG"},
	{WIRE_TYPE_PX, "PX"},
	{WIRE_TYPE_AAAA, "AAAA"},
	{WIRE_TYPE_LOC, "LOC"},
	{WIRE_TYPE_NXT, "NXT"},
	{WIRE_TYPE_SRV, "SRV"},
	{WIRE_TYPE_NAPTR, "NAPTR"},
	{WIRE_TYPE_KX, "KX"},
	{WIRE_TYPE_A6, "A6"},
	{WIRE_TYPE_DNAME, "DNAME"},
	{WIRE_TYPE_OPT, "OPT"},
	{WIRE_TYPE_DS, "DS"},
	{WIRE_TYPE_SSHFP, "SSHFP"},
	{WIRE_TYPE_RRSIG, "RRSIG"},
	{WIRE_TYPE_NSEC, "NSEC"},
	{WIRE_TYPE_DNSKEY, "DNSKEY"},
	{WIRE_TYPE_NSEC3, "NSEC3"},
	{WIRE_TYPE_NSEC3PARAM, "NSEC3PARAM"},
	{WIRE_TYPE_TLSA, "TLSA"},
	{WIRE_TYPE_SMIMEA, "SMIMEA"},
	{WIRE_TYPE_CDS, "CDS"},
	{WIRE_TYPE_CDNSKEY, "CDNSKEY"},
	{WIRE_TYPE_OPENPGPKEY, "OPENPGPKEY"},
	{WIRE_TYPE_CSYNC, "CSYNC"},
	{WIRE_TYPE_ZONEMD, "ZONEMD"},
	{WIRE_TYPE_SVCB, "SVCB"},
	{WIRE_TYPE_HTTPS, "HTTPS"},
	{WIRE_TYPE_TKEY, "TKEY"},
	{WIRE_TYPE_TSIG, "TSIG"},
	{WIRE_TYPE_IXFR, "IXFR"},
	{WIRE_TYPE_AXFR, "AXFR"},
	{WIRE_TYPE_ANY, "ANY"},
	{WIRE_TYPE_URI, "URI"},
	{WIRE_TYPE_CAA, "CAA"},
};

static const struct mnemonic class_names[] = {
	{WIRE_CLASS_IN, "IN"},	 {WIRE_CLASS_CH, "CH"},
	{WIRE_CLASS_HS, "HS"},	 {WIRE_CLASS_NONE, "NONE"},
	{WIRE_CLASS_ANY, "ANY"},
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *mnemonic_name(const struct mnemonic *tab, size_t n,
				 uint16_t value)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i].value == value)
			return tab[i].name;
	return NULL;
}

static const char *value_to_str(const struct mnemonic *tab, size_t n,
				const char *prefix, uint16_t value,
				char buf[16])
{
	const char *name = mnemonic_name(tab, n, value);

	if (name)
		snprintf(buf, 16, "%s", name);
	else
		snprintf(buf, 16, "%s%u", prefix, (unsigned int)value);
	return buf;
}

static char ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* True when the len characters of s spell upper, ignoring ASCII case. */
static bool ascii_case_eq(const char *s, size_t len, const char *upper)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (upper[i] == '\0' || ascii_upper(s[i]) != upper[i])
			return false;
	return upper[len] == '\0';
}

/*
 * Parses the generic form <prefix><decimal> of RFC 3597 §5: digits only,
 * at least one, value 1..65535. Value 0 is reserved for types and classes
 * alike (RFC 6895 §3.1, §3.2) and names no RRset, so it is refused.
 */
static int parse_generic(const char *s, size_t len, const char *prefix,
			 uint16_t *ret_value)
{
	size_t plen = strlen(prefix), i;
	uint32_t value = 0;

	if (len <= plen || !ascii_case_eq(s, plen, prefix))
		return DT_ETYPE;
	for (i = plen; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return DT_ETYPE;
		value = value * 10 + (uint32_t)(s[i] - '0');
		if (value > UINT16_MAX)
			return DT_ETYPE;
	}
	if (value == 0)
		return DT_ETYPE;
	*ret_value = (uint16_t)value;
	return 0;
}

static int value_from_str(const struct mnemonic *tab, size_t n,
			  const char *prefix, const char *str, size_t len,
			  uint16_t *ret_value)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (ascii_case_eq(str, len, tab[i].name)) {
			*ret_value = tab[i].value;
			return 0;
		}
	}
	return parse_generic(str, len, prefix, ret_value);
}

const char *wire_type_to_str(uint16_t type, char buf[16])
{
	return value_to_str(type_names, ARRAY_SIZE(type_names), "TYPE", type,
			    buf);
}

int wire_type_from_str(const char *str, size_t len, uint16_t *ret_type)
{
	return value_from_str(type_names, ARRAY_SIZE(type_names), "TYPE", str,
			      len, ret_type);
}

const char *wire_class_to_str(uint16_t rclass, char buf[16])
{
	return value_to_str(class_names, ARRAY_SIZE(class_names), "CLASS",
			    rclass, buf);
}

int wire_class_from_str(const char *str, size_t len, uint16_t *ret_class)
{
	return value_from_str(class_names, ARRAY_SIZE(class_names), "CLASS",
			      str, len, ret_class);
}

/* --- RDATA layouts --- */

/* Short names for the table only. */
#define NC  WIRE_F_NAME_C
#define NL  WIRE_F_NAME_L
#define U8  WIRE_F_U8
#define ALG WIRE_F_ALG
#define U16 WIRE_F_U16
#define U32 WIRE_F_U32
#define TTL WIRE_F_TTL

/*
 * Sorted by type. Types absent here are opaque (RFC 3597), among them NULL
 * and TSIG/TKEY (no layout to check), NXT and A6 (layouts the field kinds
 * cannot express; their names are still lowercased in canonical form, see
 * canonicalize_opaque()).
 *
 * SIG has the RRSIG layout (RFC 2535 §4.1, RFC 2931 for SIG(0)); RFC 3597
 * §4 asks for its signer name to be decompressed on input.
 *
 * The layouts of LOC, SVCB, HTTPS, URI and CAA are checked only as far as
 * the octets go (a LOC of another version, SvcParams out of order, a CAA
 * tag with a hyphen all pass): a response carrying one is not refused for
 * it, and the writer prints what has no faithful text form as "\#".
 * SVCB and HTTPS target names are never compressed (RFC 9460 §2.2) and
 * keep their case in canonical form (not in RFC 4034 §6.2's list).
 */
static const struct wire_rdesc rdescs[] = {
	{WIRE_TYPE_A, "A", {WIRE_F_A}},
	{WIRE_TYPE_NS, "NS", {NC}},
	{WIRE_TYPE_MD, "MD", {NC}},
	{WIRE_TYPE_MF, "MF", {NC}},
	{WIRE_TYPE_CNAME, "CNAME", {NC}},
	{WIRE_TYPE_SOA, "SOA", {NC, NC, U32, TTL, TTL, TTL, TTL}},
	{WIRE_TYPE_MB, "MB", {NC}},
	{WIRE_TYPE_MG, "MG", {NC}},
	{WIRE_TYPE_MR, "MR", {NC}},
	{WIRE_TYPE_PTR, "PTR", {NC}},
	{WIRE_TYPE_HINFO, "HINFO", {WIRE_F_CHARSTR, WIRE_F_CHARSTR}},
	{WIRE_TYPE_MINFO, "MINFO", {NC, NC}},
	{WIRE_TYPE_MX, "MX", {U16, NC}},
	{WIRE_TYPE_TXT, "TXT", {WIRE_F_CHARSTRS}},
	{WIRE_TYPE_RP, "RP", {NL, NL}},
	{WIRE_TYPE_AFSDB, "AFSDB", {U16, NL}},
	{WIRE_TYPE_RT, "RT", {U16, NL}},
	{WIRE_TYPE_SIG,
	 "SIG",
	 {WIRE_F_TYPE, ALG, U8, TTL, WIRE_F_TIME, WIRE_F_TIME, U16, NL,
	  WIRE_F_B64}},
	{WIRE_TYPE_PX, "PX", {U16, NL, NL}},
	{WIRE_TYPE_AAAA, "AAAA", {WIRE_F_AAAA}},
	{WIRE_TYPE_LOC, "LOC", {WIRE_F_LOC}},
	{WIRE_TYPE_SRV, "SRV", {U16, U16, U16, NL}},
	{WIRE_TYPE_NAPTR,
	 "NAPTR",
	 {U16, U16, WIRE_F_CHARSTR, WIRE_F_CHARSTR, WIRE_F_CHARSTR, NL}},
	{WIRE_TYPE_KX, "KX", {U16, NL}},
	{WIRE_TYPE_DNAME, "DNAME", {NL}},
	{WIRE_TYPE_DS, "DS", {U16, ALG, U8, WIRE_F_HEX}},
	{WIRE_TYPE_SSHFP, "SSHFP", {U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_RRSIG,
	 "RRSIG",
	 {WIRE_F_TYPE, ALG, U8, TTL, WIRE_F_TIME, WIRE_F_TIME, U16, NL,
	  WIRE_F_B64}},
	{WIRE_TYPE_NSEC, "NSEC", {WIRE_F_NAME, WIRE_F_BITMAP}},
	{WIRE_TYPE_DNSKEY, "DNSKEY", {U16, U8, ALG, WIRE_F_B64}},
	{WIRE_TYPE_NSEC3,
	 "NSEC3",
	 {U8, U8, U16, WIRE_F_SALT, WIRE_F_HASH, WIRE_F_BITMAP}},
	{WIRE_TYPE_NSEC3PARAM, "NSEC3PARAM", {U8, U8, U16, WIRE_F_SALT}},
	{WIRE_TYPE_TLSA, "TLSA", {U8, U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_SMIMEA, "SMIMEA", {U8, U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_CDS, "CDS", {U16, ALG, U8, WIRE_F_HEX}},
	{WIRE_TYPE_CDNSKEY, "CDNSKEY", {U16, U8, ALG, WIRE_F_B64}},
	{WIRE_TYPE_OPENPGPKEY, "OPENPGPKEY", {WIRE_F_B64}},
	{WIRE_TYPE_CSYNC, "CSYNC", {U32, U16, WIRE_F_BITMAP}},
	{WIRE_TYPE_ZONEMD, "ZONEMD", {U32, U8, U8, WIRE_F_HEX}},
	{WIRE_TYPE_SVCB, "SVCB", {U16, WIRE_F_NAME, WIRE_F_SVCPARAMS}},
	{WIRE_TYPE_HTTPS, "HTTPS", {U16, WIRE_F_NAME, WIRE_F_SVCPARAMS}},
	{WIRE_TYPE_URI, "URI", {U16, U16, WIRE_F_TEXT}},
	{WIRE_TYPE_CAA, "CAA", {U8, WIRE_F_TAG, WIRE_F_TEXT}},
};

#undef NC
#undef NL
#undef U8
#undef U16
#undef U32
#undef TTL

const struct wire_rdesc *wire_rdesc_get(uint16_t type)
{
	size_t lo = 0, hi = ARRAY_SIZE(rdescs);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rdescs[mid].type == type)
			return &rdescs[mid];
		if (rdescs[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool field_is_name(uint8_t f)
{
	return f == WIRE_F_NAME_C || f == WIRE_F_NAME_L || f == WIRE_F_NAME;
}

/* Field kinds of d, WIRE_F_END at index WIRE_RDESC_MAXFIELDS. */
static uint8_t field_at(const struct wire_rdesc *d, size_t i)
{
	return i < WIRE_RDESC_MAXFIELDS ? d->fields[i] : WIRE_F_END;
}

/*
 * Least octets of a final HEX or B64 field. No type using them has a
 * presentation form for an empty digest, key, signature or fingerprint
 * (RFC 8078 §4 spells the "delete" CDS and CDNSKEY with one zero octet for
 * that reason), so an empty one is malformed RDATA: this includes a DNSKEY
 * without key material, which no algorithm defines and which could only
 * fail later in the crypto layer.
 */
static size_t rest_minlen(uint16_t type)
{
	return type == WIRE_TYPE_ZONEMD ? ZONEMD_DIGEST_MINLEN : 1;
}

/* Octets of TXT-style character-strings from p up to end (at least one). */
static int charstrs_len(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q = p;

	do {
		if ((size_t)(end - q) < 1u + q[0])
			return DT_ETRUNC;
		q += 1u + q[0];
	} while (q < end);
	return (int)(q - p);
}

/*
 * Octets taken by the field of kind f (not a name) at p, at or before end,
 * the end of RDATA no longer than DT_RDATA_MAXLEN. Only the layout is
 * checked here, not the content.
 */
static int field_len(uint8_t f, const uint8_t *p, const uint8_t *end)
{
	size_t avail = (size_t)(end - p), need;

	switch (f) {
	case WIRE_F_U8:
	case WIRE_F_ALG: need = 1; break;
	case WIRE_F_U16:
	case WIRE_F_TYPE: need = 2; break;
	case WIRE_F_U32:
	case WIRE_F_TTL:
	case WIRE_F_TIME:
	case WIRE_F_A: need = 4; break;
	case WIRE_F_AAAA: need = 16; break;
	case WIRE_F_CHARSTR:
	case WIRE_F_SALT:
	case WIRE_F_HASH:
	case WIRE_F_TAG:
		if (avail < 1)
			return DT_ETRUNC;
		need = 1u + p[0];
		break;
	case WIRE_F_CHARSTRS:
		return avail < 1 ? DT_ETRUNC : charstrs_len(p, end);
	case WIRE_F_LOC:
		/* RFC 1876 §2: other versions have other layouts */
		if (avail < 1)
			return DT_ETRUNC;
		if (p[0] != 0)
			return (int)avail;
		need = WIRE_LOC_LEN;
		break;
	case WIRE_F_SVCPARAMS:
		return wire_svcparams_check(p, avail) < 0 ? DT_ETRUNC
							  : (int)avail;
	case WIRE_F_HEX:
	case WIRE_F_B64:
	case WIRE_F_BITMAP:
	case WIRE_F_TEXT: return (int)avail;
	default: return DT_ERDATA;
	}
	return need <= avail ? (int)need : DT_ETRUNC;
}

/* Checks the content of a non-name field of len octets at p. */
static int field_content_check(uint16_t type, uint8_t f, const uint8_t *p,
			       size_t len)
{
	switch (f) {
	case WIRE_F_HASH:
		/* RFC 5155 §3.2: the next hashed owner name is a hash. */
		return p[0] == 0 ? DT_ERDATA : 0;
	case WIRE_F_HEX:
	case WIRE_F_B64: return len < rest_minlen(type) ? DT_ERDATA : 0;
	case WIRE_F_BITMAP: return wire_bitmap_check(p, len);
	default: return 0;
	}
}

/* Checks one field at p; returns its length or an error. */
static int field_check(uint16_t type, uint8_t f, const uint8_t *p,
		       const uint8_t *end)
{
	int len, ret;

	if (field_is_name(f))
		return wire_dname_check(p, end);
	len = field_len(f, p, end);
	if (len < 0)
		return len;
	ret = field_content_check(type, f, p, (size_t)len);
	return ret < 0 ? ret : len;
}

/* Stands in for a NULL rdata pointer of zero length (no NULL arithmetic). */
static const uint8_t empty_rdata[1];

int wire_rdata_check(uint16_t type, const uint8_t *rdata, size_t rdlen)
{
	const struct wire_rdesc *d = wire_rdesc_get(type);
	const uint8_t *p, *end;
	uint8_t f;
	size_t i;

	if (!d)
		return 0;
	if (rdlen > DT_RDATA_MAXLEN)
		return DT_ERDATA;
	p = rdlen ? rdata : empty_rdata;
	end = p + rdlen;
	for (i = 0; (f = field_at(d, i)) != WIRE_F_END; i++) {
		int len = field_check(type, f, p, end);

		if (len < 0)
			return len;
		p += len;
	}
	return p == end ? 0 : DT_ETRAIL;
}

/* --- unpacking from a message --- */

struct unpack {
	const uint8_t *msg;
	size_t pos; /* next octet to read in msg */
	size_t end; /* end of the RDATA in msg */
	uint8_t *out;
	size_t outcap;
	size_t outlen;
};

static int unpack_emit(struct unpack *u, const uint8_t *src, size_t len)
{
	if (len > DT_RDATA_MAXLEN - u->outlen)
		return DT_ERDATA;
	if (len > u->outcap - u->outlen)
		return DT_ESPACE;
	memcpy(u->out + u->outlen, src, len);
	u->outlen += len;
	return 0;
}

/*
 * A name that may be compressed. The message is cut at the end of the
 * RDATA: pointers only go backwards, so a legal name never needs octets
 * past it, and a name running past RDLENGTH fails as truncated.
 */
static int unpack_cname(struct unpack *u)
{
	wire_dname_storage_t name;
	size_t pos = u->pos;
	int len;

	if (pos >= u->end)
		return DT_ETRUNC;
	len = wire_dname_unpack(u->msg, u->end, &pos, name);
	if (len < 0)
		return len;
	u->pos = pos;
	return unpack_emit(u, name, (size_t)len);
}

static int unpack_field(struct unpack *u, uint8_t f)
{
	const uint8_t *p = u->msg + u->pos, *end = u->msg + u->end;
	int len;

	if (f == WIRE_F_NAME_C || f == WIRE_F_NAME_L)
		return unpack_cname(u);
	if (f == WIRE_F_NAME)
		len = wire_dname_check(p, end);
	else
		len = field_len(f, p, end);
	if (len < 0)
		return len;
	u->pos += (size_t)len;
	return unpack_emit(u, p, (size_t)len);
}

static int unpack_opaque(const uint8_t *rdata, size_t rdlen, uint8_t *out,
			 size_t outcap)
{
	if (rdlen > DT_RDATA_MAXLEN)
		return DT_ERDATA;
	if (rdlen > outcap)
		return DT_ESPACE;
	if (rdlen)
		memcpy(out, rdata, rdlen);
	return (int)rdlen;
}

int wire_rdata_unpack(uint16_t type, const uint8_t *msg, size_t msglen,
		      size_t pos, size_t rdlen, uint8_t *out, size_t outcap)
{
	const struct wire_rdesc *d = wire_rdesc_get(type);
	struct unpack u;
	uint8_t f;
	size_t i;
	int ret;

	if (pos > msglen || rdlen > msglen - pos)
		return DT_ETRUNC;
	if (!d)
		return unpack_opaque(msg + pos, rdlen, out, outcap);
	if (rdlen > DT_RDATA_MAXLEN)
		return DT_ERDATA;
	u = (struct unpack){.msg = msg,
			    .pos = pos,
			    .end = pos + rdlen,
			    .out = out,
			    .outcap = outcap};
	for (i = 0; (f = field_at(d, i)) != WIRE_F_END; i++) {
		ret = unpack_field(&u, f);
		if (ret < 0)
			return ret;
	}
	if (u.pos != u.end)
		return DT_ETRAIL;
	ret = wire_rdata_check(type, out, u.outlen);
	return ret < 0 ? ret : (int)u.outlen;
}

/* --- canonical form (RFC 4034 §6) --- */

/* Lowercases the name at p if it is well-formed before end. */
static void lowercase_name_at(uint8_t *p, const uint8_t *end)
{
	if (p < end && wire_dname_check(p, end) > 0)
		wire_dname_tolower(p);
}

/*
 * NXT and A6 are opaque here but on the RFC 4034 §6.2 list; their RDATA
 * was never checked, so every step is bounds-checked.
 */
static void canonicalize_opaque(uint16_t type, uint8_t *rdata, size_t rdlen)
{
	uint8_t *end = rdata + rdlen;
	size_t suffix;

	if (type == WIRE_TYPE_NXT) {
		/* RFC 2535 §5.2: next domain name, then a bitmap. */
		lowercase_name_at(rdata, end);
	} else if (type == WIRE_TYPE_A6 && rdlen > 0) {
		/* RFC 2874 §3.1.1: prefix length, address suffix of
		 * (128 - prefix length) bits rounded up to octets, then the
		 * prefix name when the prefix length is not 0. */
		if (rdata[0] == 0 || rdata[0] > A6_PREFIX_MAXBITS)
			return;
		suffix = (A6_PREFIX_MAXBITS - rdata[0] + 7u) / 8u;
		if (suffix < rdlen - 1)
			lowercase_name_at(rdata + 1 + suffix, end);
	}
}

void wire_rdata_canonicalize(uint16_t type, uint8_t *rdata, size_t rdlen)
{
	const struct wire_rdesc *d = wire_rdesc_get(type);
	uint8_t *p, *end;
	uint8_t f;
	size_t i;
	int len;

	if (rdlen == 0 || rdlen > DT_RDATA_MAXLEN)
		return;
	if (!d) {
		canonicalize_opaque(type, rdata, rdlen);
		return;
	}
	p = rdata;
	end = rdata + rdlen;
	for (i = 0; (f = field_at(d, i)) != WIRE_F_END && p < end; i++) {
		if (field_is_name(f))
			len = wire_dname_check(p, end);
		else
			len = field_len(f, p, end);
		if (len < 0)
			return; /* not checked RDATA: leave the rest alone */
		/* RFC 6840 §5.1: the NSEC next name keeps its case. */
		if (f == WIRE_F_NAME_C || f == WIRE_F_NAME_L)
			wire_dname_tolower(p);
		p += len;
	}
}

int wire_rr_canon_write(const struct wire_rr *rr, const uint8_t *owner_override,
			uint32_t orig_ttl, uint8_t *out, size_t outcap)
{
	const uint8_t *owner = owner_override ? owner_override : rr->owner;
	size_t olen = wire_dname_len(owner);
	size_t total = olen + 10 + rr->rdlen;
	uint8_t *p;

	if (total > outcap)
		return DT_ESPACE;
	memcpy(out, owner, olen);
	wire_dname_tolower(out);
	p = out + olen;
	wire_put16(p, rr->type);
	wire_put16(p + 2, rr->rclass);
	wire_put32(p + 4, orig_ttl);
	wire_put16(p + 8, rr->rdlen);
	p += 10;
	if (rr->rdlen) {
		memcpy(p, rr->rdata, rr->rdlen);
		wire_rdata_canonicalize(rr->type, p, rr->rdlen);
	}
	return (int)total;
}

int wire_rdata_canon_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
			 size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int ret = n ? memcmp(a, b, n) : 0;

	if (ret)
		return ret;
	return (alen > blen) - (alen < blen);
}

static int rr_rdata_cmp(const void *a, const void *b)
{
	const struct wire_rr *x = a, *y = b;

	return wire_rdata_canon_cmp(x->rdata, x->rdlen, y->rdata, y->rdlen);
}

size_t wire_rrset_canon_sort(struct wire_rr *rrs, size_t n)
{
	size_t i, kept;

	if (n < 2)
		return n;
	qsort(rrs, n, sizeof(*rrs), rr_rdata_cmp);
	for (i = 1, kept = 1; i < n; i++) {
		if (rr_rdata_cmp(&rrs[kept - 1], &rrs[i]) == 0)
			continue;
		rrs[kept++] = rrs[i];
	}
	return kept;
}

/* --- key tags (RFC 4034 App. B) --- */

/* RFC 4034 App. B.1: RSA/MD5, the one algorithm with another tag rule. */
#define DNSKEY_ALG_RSAMD5 1

/*
 * The accumulator cannot overflow: RDATA of at most 65535 octets adds up
 * to less than 32768 * 0xff00 + 32768 * 0xff < 2^32.
 */
uint16_t wire_keytag(const uint8_t *rdata, size_t rdlen)
{
	uint32_t ac = 0;
	size_t i;

	if (rdlen < 4)
		return 0;
	/* Bits 8..23 of the modulus, which ends the key (RFC 3110 §2). With
	 * fewer than 3 key octets the flags and protocol octets take part,
	 * as in the reference code; such a key never verifies anyway. */
	if (rdata[3] == DNSKEY_ALG_RSAMD5)
		return wire_get16(rdata + rdlen - 3);
	for (i = 0; i < rdlen; i++)
		ac += (i & 1) ? rdata[i] : (uint32_t)rdata[i] << 8;
	ac += (ac >> 16) & 0xFFFF;
	return (uint16_t)(ac & 0xFFFF);
}

/* --- type bitmaps (RFC 4034 §4.1.2) --- */

int wire_bitmap_check(const uint8_t *bm, size_t len)
{
	size_t pos = 0;
	int prev = -1;

	while (pos < len) {
		uint8_t win, wlen;

		if (len - pos < 2)
			return DT_EBITMAP;
		win = bm[pos];
		wlen = bm[pos + 1];
		if ((int)win <= prev || wlen == 0 ||
		    wlen > DT_BITMAP_MAXWINDOWLEN || wlen > len - pos - 2)
			return DT_EBITMAP;
		prev = win;
		pos += 2u + wlen;
	}
	return 0;
}

bool wire_bitmap_has(const uint8_t *bm, size_t len, uint16_t type)
{
	uint8_t win = (uint8_t)(type >> 8), bit = (uint8_t)type;
	size_t pos = 0;

	while (pos + 2 <= len) {
		uint8_t wlen = bm[pos + 1];

		if (bm[pos] == win)
			return bit / 8u < wlen && pos + 2 + bit / 8u < len &&
			       (bm[pos + 2 + bit / 8u] & (0x80u >> (bit % 8u)));
		if (bm[pos] > win)
			return false;
		pos += 2u + wlen;
	}
	return false;
}

bool wire_bitmap_any(const uint8_t *bm, size_t len)
{
	size_t pos = 0;

	while (pos + 2 <= len) {
		size_t end = pos + 2u + bm[pos + 1];
		for (size_t i = pos + 2; i < end && i < len; i++)
			if (bm[i])
				return true;
		pos = end;
	}
	return false;
}

/* Fills block with the bits of window win; returns its length (0: empty). */
static size_t bitmap_window(const uint16_t *types, size_t n, uint8_t win,
			    uint8_t block[DT_BITMAP_MAXWINDOWLEN])
{
	size_t i, len = 0;

	memset(block, 0, DT_BITMAP_MAXWINDOWLEN);
	for (i = 0; i < n; i++) {
		uint8_t bit = (uint8_t)types[i];

		if (types[i] >> 8 != win)
			continue;
		block[bit / 8u] |= (uint8_t)(0x80u >> (bit % 8u));
		if (bit / 8u + 1 > len)
			len = bit / 8u + 1;
	}
	return len;
}

/* Marks in present[] (one bit per window) the windows types use. */
static void bitmap_windows(const uint16_t *types, size_t n, uint8_t present[32])
{
	size_t i;

	memset(present, 0, 32);
	for (i = 0; i < n; i++) {
		uint8_t win = (uint8_t)(types[i] >> 8);

		present[win / 8u] |= (uint8_t)(0x80u >> (win % 8u));
	}
}

static bool window_present(const uint8_t present[32], unsigned int win)
{
	return present[win / 8u] & (0x80u >> (win % 8u));
}

/* Writes the bitmap to out when out is not NULL; returns its length. */
static size_t bitmap_emit(const uint16_t *types, size_t n,
			  const uint8_t present[32], uint8_t *out)
{
	uint8_t block[DT_BITMAP_MAXWINDOWLEN];
	size_t total = 0, wlen;
	unsigned int win;

	for (win = 0; win < 256; win++) {
		if (!window_present(present, win))
			continue;
		wlen = bitmap_window(types, n, (uint8_t)win, block);
		if (out) {
			out[total] = (uint8_t)win;
			out[total + 1] = (uint8_t)wlen;
			memcpy(out + total + 2, block, wlen);
		}
		total += 2 + wlen;
	}
	return total;
}

int wire_bitmap_build(const uint16_t *types, size_t n, uint8_t *out,
		      size_t outcap)
{
	uint8_t present[32];
	size_t len;

	bitmap_windows(types, n, present);
	len = bitmap_emit(types, n, present, NULL);
	if (len > outcap)
		return DT_ESPACE;
	return (int)bitmap_emit(types, n, present, out);
}

/* Calls fn for the types of one window block of wlen octets. */
static int foreach_window(uint8_t win, const uint8_t *block, size_t wlen,
			  int (*fn)(uint16_t type, void *arg), void *arg)
{
	unsigned int i, bit;
	int ret;

	for (i = 0; i < wlen; i++) {
		for (bit = 0; bit < 8; bit++) {
			if (!(block[i] & (0x80u >> bit)))
				continue;
			ret = fn((uint16_t)(win << 8 | (i * 8 + bit)), arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int wire_bitmap_foreach(const uint8_t *bm, size_t len,
			int (*fn)(uint16_t type, void *arg), void *arg)
{
	size_t pos = 0, wlen;
	int ret;

	while (len - pos >= 2) {
		wlen = bm[pos + 1];
		if (wlen > len - pos - 2)
			wlen = len - pos - 2;
		ret = foreach_window(bm[pos], bm + pos + 2, wlen, fn, arg);
		if (ret)
			return ret;
		pos += 2 + wlen;
	}
	return 0;
}
