/* SPDX-License-Identifier: MIT */
/*
 * DNS messages (RFC 1035 §4): a parser that checks everything once against
 * the message's end and yields uncompressed records, and a builder that
 * compresses names and handles running out of room. EDNS(0) (RFC 6891)
 * and its options, Extended DNS Errors (RFC 8914) among them.
 */
#ifndef DT_WIRE_MSG_H
#define DT_WIRE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "wire/rr.h"

/* Header flag bits (second 16-bit word of the header). */
#define WIRE_FLAG_QR 0x8000
#define WIRE_FLAG_AA 0x0400
#define WIRE_FLAG_TC 0x0200
#define WIRE_FLAG_RD 0x0100
#define WIRE_FLAG_RA 0x0080
#define WIRE_FLAG_Z 0x0040
#define WIRE_FLAG_AD 0x0020
#define WIRE_FLAG_CD 0x0010
#define WIRE_OPCODE(flags) (((flags) >> 11) & 0xF)
#define WIRE_RCODE(flags) ((flags) & 0xF)

/* EDNS flags (the low 16 bits of the OPT TTL). */
#define WIRE_EDNS_DO 0x8000

enum wire_rcode {
	WIRE_RCODE_NOERROR = 0,
	WIRE_RCODE_FORMERR = 1,
	WIRE_RCODE_SERVFAIL = 2,
	WIRE_RCODE_NXDOMAIN = 3,
	WIRE_RCODE_NOTIMP = 4,
	WIRE_RCODE_REFUSED = 5,
	WIRE_RCODE_YXDOMAIN = 6,	/* RFC 6672 §2.2: DNAME substitution
					   too long */
	WIRE_RCODE_BADVERS = 16,
};

enum wire_opcode {
	WIRE_OPCODE_QUERY = 0,
	WIRE_OPCODE_NOTIFY = 4,
	WIRE_OPCODE_UPDATE = 5,
};

/* EDNS option codes we handle (IANA registry). */
enum wire_optcode {
	WIRE_OPT_NSID = 3,
	WIRE_OPT_CLIENT_SUBNET = 8,
	WIRE_OPT_COOKIE = 10,
	WIRE_OPT_PADDING = 12,
	WIRE_OPT_EDE = 15,
};

/* RFC 8914 §4 INFO-CODEs. */
enum wire_ede {
	WIRE_EDE_OTHER = 0,
	WIRE_EDE_UNSUPPORTED_DNSKEY_ALG = 1,
	WIRE_EDE_UNSUPPORTED_DS_DIGEST = 2,
	WIRE_EDE_STALE_ANSWER = 3,
	WIRE_EDE_FORGED_ANSWER = 4,
	WIRE_EDE_DNSSEC_INDETERMINATE = 5,
	WIRE_EDE_DNSSEC_BOGUS = 6,
	WIRE_EDE_SIGNATURE_EXPIRED = 7,
	WIRE_EDE_SIGNATURE_NOT_YET_VALID = 8,
	WIRE_EDE_DNSKEY_MISSING = 9,
	WIRE_EDE_RRSIGS_MISSING = 10,
	WIRE_EDE_NO_ZONE_KEY_BIT = 11,
	WIRE_EDE_NSEC_MISSING = 12,
	WIRE_EDE_CACHED_ERROR = 13,
	WIRE_EDE_NOT_READY = 14,
	WIRE_EDE_BLOCKED = 15,
	WIRE_EDE_CENSORED = 16,
	WIRE_EDE_FILTERED = 17,
	WIRE_EDE_PROHIBITED = 18,
	WIRE_EDE_STALE_NXDOMAIN = 19,
	WIRE_EDE_NOT_AUTHORITATIVE = 20,
	WIRE_EDE_NOT_SUPPORTED = 21,
	WIRE_EDE_NO_REACHABLE_AUTHORITY = 22,
	WIRE_EDE_NETWORK_ERROR = 23,
	WIRE_EDE_INVALID_DATA = 24,
	WIRE_EDE_SIGNATURE_EXPIRED_BEFORE_VALID = 25,
	WIRE_EDE_TOO_EARLY = 26,
	WIRE_EDE_UNSUPPORTED_NSEC3_ITERATIONS = 27,
};

/* The RFC 8914 name of an INFO-CODE ("DNSSEC Bogus"); "Unknown" for a
 * code without one. Static string. */
const char *wire_ede_name(uint16_t code);

enum wire_section {
	WIRE_SEC_ANSWER = 0,
	WIRE_SEC_AUTHORITY = 1,
	WIRE_SEC_ADDITIONAL = 2,
	WIRE_SEC_COUNT = 3,
};

struct wire_hdr {
	uint16_t id;
	uint16_t flags;
	uint16_t qdcount;
	uint16_t ancount;
	uint16_t nscount;
	uint16_t arcount;
};

struct wire_edns {
	bool present;
	uint16_t udp_size;  /* the OPT record's CLASS */
	uint8_t ext_rcode;  /* upper 8 bits of the 12-bit RCODE */
	uint8_t version;
	uint16_t flags;	    /* WIRE_EDNS_DO, ... */
	const uint8_t *opts; /* option TLVs, checked; NULL when optlen is 0 */
	uint16_t optlen;
};

/*
 * A parsed message: one allocation holding this struct, the records and
 * their uncompressed owners and RDATA, and a copy of the raw message.
 * Freed by wire_msg_free().
 */
struct wire_msg {
	struct wire_hdr hdr;
	bool has_question;
	const uint8_t *qname;	/* uncompressed; NULL without question */
	uint16_t qtype;
	uint16_t qclass;
	uint16_t rcode;		/* 12-bit RCODE, EDNS extension applied */
	struct wire_edns edns;	/* the OPT record is not among the records */
	bool truncated;		/* TC=1 and records were missing at the end
				   (only with WIRE_PARSE_TRUNC_OK) */
	struct wire_rr *sec[WIRE_SEC_COUNT];
	size_t count[WIRE_SEC_COUNT];
	const uint8_t *raw;	/* copy of the message as received */
	size_t rawlen;
};

/* Parser flags. */
enum {
	/* A message with TC=1 whose records stop early at a record boundary
	 * is accepted: the counts become what was present and msg->truncated
	 * is set. Without the flag such a message is DT_ETRUNC. */
	WIRE_PARSE_TRUNC_OK = 1 << 0,
};

/* Parses a whole message of len octets. Checks: header present; at most
 * one question; every name (compression pointers strictly backwards, never
 * into the header, at most DT_NAME_MAXPTRS per name); every RDATA against
 * its type's layout (wire_rdata_unpack); at most one OPT record, in the
 * additional section, owned by the root, with well-formed options; nothing
 * after the last record. Returns a new message, or NULL with *ret_err set
 * (DT_ETRUNC, DT_EMALF, DT_EQDCOUNT, DT_EOPT, DT_ETRAIL, name and RDATA
 * errors, -ENOMEM). */
struct wire_msg *wire_msg_parse(const uint8_t *pkt, size_t len,
				unsigned flags, int *ret_err);

/* Frees a message from wire_msg_parse(); NULL is allowed. */
void wire_msg_free(struct wire_msg *msg);

/* Iterates over EDNS options: *pos starts at 0. Returns 1 and writes the
 * option's code, data and length, 0 at the end. Options were checked by
 * the parser, so no errors remain. */
int wire_edns_opt_next(const struct wire_edns *edns, size_t *pos,
		       uint16_t *ret_code, const uint8_t **ret_data,
		       uint16_t *ret_len);

/* Finds the first EDE option (RFC 8914) in a parsed message. Returns 1 and
 * writes the INFO-CODE and EXTRA-TEXT (not NUL-terminated, may be empty)
 * when present, 0 when absent, DT_EOPT when the option is shorter than 2
 * octets. */
int wire_edns_ede(const struct wire_edns *edns, uint16_t *ret_code,
		  const char **ret_text, size_t *ret_textlen);

/*
 * The builder writes into a caller-supplied buffer: header, question, then
 * records section by section in order, then optionally the OPT record,
 * then wire_build_finish(). A record that does not fit is rolled back and
 * DT_ESPACE returned; the message so far stays valid and the caller
 * decides whether to set TC (wire_build_set_flags) or to stop.
 */
struct wire_builder {
	uint8_t *buf;
	size_t cap;
	size_t len;
	uint16_t count[4];	/* qd, an, ns, ar */
	int section;		/* last section written to, -1 = question */
	uint16_t ctab[DT_COMPRESS_MAXNAMES]; /* offsets of names written */
	size_t nctab;
};

/* Starts a message with the given id and flags (RCODE in the low 4 bits)
 * in buf of cap octets (at most DT_MSG_MAXLEN used). Returns 0 or
 * DT_ESPACE when cap is below 12. */
int wire_build_init(struct wire_builder *b, uint8_t *buf, size_t cap,
		    uint16_t id, uint16_t flags);

/* Sets or clears header flag bits of the message being built. */
void wire_build_set_flags(struct wire_builder *b, uint16_t set,
			  uint16_t clear);

/* Adds the question (at most one, before any record). */
int wire_build_question(struct wire_builder *b, const uint8_t *qname,
			uint16_t qtype, uint16_t qclass);

/* Appends a record to a section; sections must come in order (answer,
 * authority, additional), otherwise DT_ESECTION. Names are compressed
 * where the type allows (owners always; RDATA names of WIRE_F_NAME_C
 * fields). Returns 0 or DT_ESPACE (nothing written). */
int wire_build_rr(struct wire_builder *b, enum wire_section sec,
		  const struct wire_rr *rr);

/* Appends the OPT record to the additional section. opts are option TLVs
 * already encoded (see wire_opt_put). ext_rcode is the upper 8 bits of
 * the RCODE. Returns 0 or DT_ESPACE. */
int wire_build_opt(struct wire_builder *b, uint16_t udp_size,
		   uint8_t ext_rcode, uint8_t version, uint16_t flags,
		   const uint8_t *opts, size_t optlen);

/* Writes the section counts into the header. Returns the message length. */
size_t wire_build_finish(struct wire_builder *b);

/* Appends one option TLV to buf (cap octets, *len used so far). Returns 0
 * or DT_ESPACE. */
int wire_opt_put(uint8_t *buf, size_t cap, size_t *len, uint16_t code,
		 const uint8_t *data, size_t dlen);

/* Appends an EDE option (RFC 8914) with INFO-CODE and EXTRA-TEXT (text may
 * be NULL; longer than DT_EDE_TEXT_MAXLEN is cut at a UTF-8 boundary).
 * Returns 0 or DT_ESPACE. */
int wire_opt_put_ede(uint8_t *buf, size_t cap, size_t *len, uint16_t code,
		     const char *text);

#endif
