/* SPDX-License-Identifier: MIT */
/*
 * Resource records: type and class numbers and mnemonics, the record view
 * shared by the message parser and the presentation reader, RDATA layouts,
 * DNSSEC canonical form and ordering (RFC 4034 §6), key tags (RFC 4034
 * App. B) and NSEC/NSEC3 type bitmaps (RFC 4034 §4.1.2).
 */
#ifndef DT_WIRE_RR_H
#define DT_WIRE_RR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"

enum wire_type {
	WIRE_TYPE_A = 1,
	WIRE_TYPE_NS = 2,
	WIRE_TYPE_MD = 3,
	WIRE_TYPE_MF = 4,
	WIRE_TYPE_CNAME = 5,
	WIRE_TYPE_SOA = 6,
	WIRE_TYPE_MB = 7,
	WIRE_TYPE_MG = 8,
	WIRE_TYPE_MR = 9,
	WIRE_TYPE_NULL = 10,
	WIRE_TYPE_PTR = 12,
	WIRE_TYPE_HINFO = 13,
	WIRE_TYPE_MINFO = 14,
	WIRE_TYPE_MX = 15,
	WIRE_TYPE_TXT = 16,
	WIRE_TYPE_RP = 17,
	WIRE_TYPE_AFSDB = 18,
	WIRE_TYPE_RT = 21,
	WIRE_TYPE_SIG = 24,
	WIRE_TYPE_PX = 26,
	WIRE_TYPE_AAAA = 28,
	WIRE_TYPE_LOC = 29,
	WIRE_TYPE_NXT = 30,
	WIRE_TYPE_SRV = 33,
	WIRE_TYPE_NAPTR = 35,
	WIRE_TYPE_KX = 36,
	WIRE_TYPE_A6 = 38,
	WIRE_TYPE_DNAME = 39,
	WIRE_TYPE_OPT = 41,
	WIRE_TYPE_DS = 43,
	WIRE_TYPE_SSHFP = 44,
	WIRE_TYPE_RRSIG = 46,
	WIRE_TYPE_NSEC = 47,
	WIRE_TYPE_DNSKEY = 48,
	WIRE_TYPE_NSEC3 = 50,
	WIRE_TYPE_NSEC3PARAM = 51,
	WIRE_TYPE_TLSA = 52,
	WIRE_TYPE_SMIMEA = 53,
	WIRE_TYPE_CDS = 59,
	WIRE_TYPE_CDNSKEY = 60,
	WIRE_TYPE_OPENPGPKEY = 61,
	WIRE_TYPE_CSYNC = 62,
	WIRE_TYPE_ZONEMD = 63,
	WIRE_TYPE_SVCB = 64,
	WIRE_TYPE_HTTPS = 65,
	WIRE_TYPE_TKEY = 249,
	WIRE_TYPE_TSIG = 250,
	WIRE_TYPE_IXFR = 251,
	WIRE_TYPE_AXFR = 252,
	WIRE_TYPE_ANY = 255,
	WIRE_TYPE_URI = 256,
	WIRE_TYPE_CAA = 257,
};

enum wire_class {
	WIRE_CLASS_IN = 1,
	WIRE_CLASS_CH = 3,
	WIRE_CLASS_HS = 4,
	WIRE_CLASS_NONE = 254,
	WIRE_CLASS_ANY = 255,
};

/*
 * One record. Owner and RDATA are uncompressed wire form; names inside
 * RDATA are uncompressed too. The pointers belong to whoever produced the
 * record (a parsed message, a zone reader): the view owns nothing.
 */
struct wire_rr {
	const uint8_t *owner;
	uint16_t type;
	uint16_t rclass;
	uint32_t ttl;
	uint16_t rdlen;
	const uint8_t *rdata;
};

/* Mnemonic of a type ("A", "NSEC3") or "TYPEnnn" (RFC 3597 §5) written to
 * buf (at least 16 octets). Returns buf. */
const char *wire_type_to_str(uint16_t type, char buf[16]);
/* Parses a type mnemonic (case-insensitive) or TYPEnnn (decimal digits
 * only, 1..65535; TYPE0 is refused: type 0 is reserved, RFC 6895 §3.1).
 * Returns 0 and writes *ret_type, or DT_ETYPE. */
int wire_type_from_str(const char *str, size_t len, uint16_t *ret_type);
/* The same for classes: "IN", "CH", "HS", "NONE", "ANY" or CLASSnnn
 * (CLASS0 refused likewise, RFC 6895 §3.2). */
const char *wire_class_to_str(uint16_t rclass, char buf[16]);
int wire_class_from_str(const char *str, size_t len, uint16_t *ret_class);

/*
 * RDATA layout. Each known type is described by a list of fields; the
 * same description drives the checks, name decompression, canonical form
 * and presentation format.
 */
enum wire_field {
	WIRE_F_END = 0,
	WIRE_F_NAME_C,	 /* name, compressible (RFC 1035 types), lowercased
			    in canonical form */
	WIRE_F_NAME_L,	 /* name, never compressed on output but decompressed
			    on input (RFC 3597 §4), lowercased in canonical
			    form (RFC 4034 §6.2, RFC 6840 §5.1) */
	WIRE_F_NAME,	 /* name, not compressed, case kept (NSEC next name) */
	WIRE_F_U8,
	WIRE_F_ALG,	 /* 8-bit DNSSEC algorithm number; text also accepts
			    its mnemonic (RFC 4034 App. A.1), written as
			    the number */
	WIRE_F_U16,
	WIRE_F_U32,
	WIRE_F_TTL,	 /* 32-bit period, text accepts units (1h30m) */
	WIRE_F_TYPE,	 /* 16-bit type, text is a type mnemonic */
	WIRE_F_TIME,	 /* 32-bit time, text YYYYMMDDHHmmSS (RFC 4034 §3.2) */
	WIRE_F_A,	 /* 4 octets, dotted quad */
	WIRE_F_AAAA,	 /* 16 octets, RFC 4291 text */
	WIRE_F_CHARSTR,	 /* one <character-string> */
	WIRE_F_CHARSTRS, /* one or more character-strings up to the end */
	WIRE_F_SALT,	 /* u8 length + octets, text hex or "-" */
	WIRE_F_HASH,	 /* u8 length + octets, text base32hex (NSEC3) */
	WIRE_F_HEX,	 /* rest of RDATA, text hex; never empty in checked
			    RDATA (ZONEMD: at least 12 octets) */
	WIRE_F_B64,	 /* rest of RDATA, text base64; never empty in
			    checked RDATA */
	WIRE_F_BITMAP,	 /* rest of RDATA, type bitmap, text type list */
	WIRE_F_TAG,	 /* u8 length + octets, text one bare word (CAA
			    tag: letters and digits, RFC 8659 §4.1) */
	WIRE_F_TEXT,	 /* rest of RDATA, possibly empty, text one quoted
			    string (CAA value, URI target) */
	WIRE_F_LOC,	 /* rest of RDATA, 16 octets when the version octet
			    is 0, text RFC 1876 §3 (wire/loc.h) */
	WIRE_F_SVCPARAMS, /* rest of RDATA, SvcParams, text key=value list
			     (RFC 9460 §2.1, wire/svcb.h) */
};

#define WIRE_RDESC_MAXFIELDS 10

struct wire_rdesc {
	uint16_t type;
	const char *name;
	uint8_t fields[WIRE_RDESC_MAXFIELDS]; /* enum wire_field, WIRE_F_END
						 terminated */
};

/* Layout of a type, or NULL for a type handled as opaque (RFC 3597). */
const struct wire_rdesc *wire_rdesc_get(uint16_t type);

/* Checks uncompressed RDATA against its type's layout: fixed sizes, names
 * well-formed and uncompressed, bitmaps valid, nothing left over. Unknown
 * types are opaque and always pass. Returns 0 or DT_ERDATA, DT_ETRUNC,
 * DT_EBITMAP, DT_ETRAIL and the name errors. */
int wire_rdata_check(uint16_t type, const uint8_t *rdata, size_t rdlen);

/* Reads the RDATA of rdlen octets at msg[pos] of a whole message,
 * decompressing the names the type allows to be compressed (RFC 3597 §4),
 * and writes uncompressed RDATA to out. The result is also checked as
 * wire_rdata_check() does. Returns the uncompressed length or an error
 * (DT_ESPACE when outcap is too small; DT_RDATA_MAXLEN is always enough
 * since longer results are refused with DT_ERDATA; DT_ETRUNC when the
 * RDATA runs past msglen or a name's encoding past rdlen). out may be
 * partly written on failure. */
int wire_rdata_unpack(uint16_t type, const uint8_t *msg, size_t msglen,
		      size_t pos, size_t rdlen, uint8_t *out, size_t outcap);

/* Converts checked, uncompressed RDATA to DNSSEC canonical form in place
 * (RFC 4034 §6.2 as updated by RFC 6840 §5.1: names lowercased for NS, MD,
 * MF, CNAME, SOA, MB, MG, MR, PTR, MINFO, MX, RP, AFSDB, RT, SIG, PX, NXT,
 * NAPTR, KX, SRV, DNAME, A6, RRSIG; not NSEC). The length never changes. */
void wire_rdata_canonicalize(uint16_t type, uint8_t *rdata, size_t rdlen);

/* Writes the canonical wire form of one record as signed by RFC 4034
 * §6.2/§3.1.8.1: lowercased owner (or owner_override when not NULL, for
 * wildcard reconstruction), type, class, orig_ttl, RDLENGTH and canonical
 * RDATA. Returns the length written or DT_ESPACE. */
int wire_rr_canon_write(const struct wire_rr *rr, const uint8_t *owner_override,
			uint32_t orig_ttl, uint8_t *out, size_t outcap);

/* Compares the RDATA of two records of the same type in canonical order
 * (RFC 4034 §6.3: canonical RDATA as left-justified unsigned octet
 * sequences, a shorter prefix sorting first). RDATA must already be
 * canonical. */
int wire_rdata_canon_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
			 size_t blen);

/* Sorts an RRset (records with equal owner, class and type, RDATA already
 * canonical) into canonical order and removes duplicate RDATA (RFC 4034
 * §6.3). Returns the new count. */
size_t wire_rrset_canon_sort(struct wire_rr *rrs, size_t n);

/* Key tag of DNSKEY RDATA (RFC 4034 App. B, including the algorithm 1
 * special case of App. B.1). rdlen must be 4..DT_RDATA_MAXLEN (0 is
 * returned below 4). */
uint16_t wire_keytag(const uint8_t *rdata, size_t rdlen);

/* Checks a type bitmap (RFC 4034 §4.1.2): windows in strictly increasing
 * order, each with a length of 1 to 32 octets, nothing truncated. An
 * empty bitmap (no windows) is valid. Returns 0 or DT_EBITMAP. */
int wire_bitmap_check(const uint8_t *bm, size_t len);

/* True when a checked bitmap has the type's bit set. */
bool wire_bitmap_has(const uint8_t *bm, size_t len, uint16_t type);

/* True when a checked bitmap has any type's bit set. */
bool wire_bitmap_any(const uint8_t *bm, size_t len);

/* Builds a bitmap from n types (any order, duplicates allowed). Returns
 * its length or DT_ESPACE; 8704 octets (256 windows of 34) always fit. */
int wire_bitmap_build(const uint16_t *types, size_t n, uint8_t *out,
		      size_t outcap);

/* Calls fn for each type present in a checked bitmap, in increasing
 * order; stops early and returns fn's value when it is non-zero. */
int wire_bitmap_foreach(const uint8_t *bm, size_t len,
			int (*fn)(uint16_t type, void *arg), void *arg);

#endif
