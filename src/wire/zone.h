/* SPDX-License-Identifier: MIT */
/*
 * Presentation format (RFC 1035 §5, RFC 3597 §5): a reader for zone-file
 * text (master files as written by ldns-signzone and dnssec-signzone,
 * trust-anchor files, the record lines dig prints) and a writer for
 * records.
 *
 * The reader understands $ORIGIN, $TTL, $INCLUDE is refused (a trust
 * anchor file must not pull in other files), blank owners (the previous
 * record's owner), optional TTL and class in either order, parentheses
 * spanning lines, ';' comments, quoted strings, \c and \DDD escapes,
 * relative names, '@', and "\# len hex" for any type. Errors carry the
 * file name and line number.
 */
#ifndef DT_WIRE_ZONE_H
#define DT_WIRE_ZONE_H

#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "wire/rr.h"

struct wire_zreader;

/* Creates a reader over len octets of text (copied: the caller may free
 * text after this returns). origin (presentation form, may be NULL) is the
 * initial $ORIGIN; default_ttl the TTL of records before any $TTL (RFC
 * 2308 says a zone must set one; 3600 is what ldns assumes). fname names
 * the text in error messages. Returns NULL only when out of memory. */
struct wire_zreader *wire_zreader_new(const char *text, size_t len,
				      const char *origin, uint32_t default_ttl,
				      const char *fname);

/* Reads a whole file into a new reader. Returns 0 and *ret_zr, or -errno
 * (the file could not be opened or read, as file_read_path()) or DT_ETOOBIG
 * (larger than DT_ZONE_FILE_MAXSIZE). */
int wire_zreader_open(const char *path, const char *origin,
		      uint32_t default_ttl, struct wire_zreader **ret_zr);

/* For players of recorded servers (the replay runner), which must send
 * what a scenario's server sent, malformed or not: "\# len hex" RDATA is
 * taken as it is, not checked against its type's layout, and base64
 * with more '=' than its length needs is read up to its padding, as
 * Python's base64 module (Deckard's) reads it. Never for zone files,
 * anchors or configuration. */
void wire_zreader_set_lax(struct wire_zreader *zr);

/* Reads the next record. Returns 1 and fills *rr, whose pointers stay
 * valid until the next call or wire_zreader_free(); 0 at the end of the
 * text; a negative code on error, after which wire_zreader_error() says
 * where and why. An error stops the reader: later calls repeat it. */
int wire_zreader_next(struct wire_zreader *zr, struct wire_rr *rr);

/* "file:line: message" for the last error; "" when none. */
const char *wire_zreader_error(const struct wire_zreader *zr);

/* Line number where the record last returned (or the error) started. */
unsigned wire_zreader_line(const struct wire_zreader *zr);

void wire_zreader_free(struct wire_zreader *zr);

/* Writes RDATA in presentation form (the form ldns and dig print: DS
 * digests in uppercase hex, base64 unbroken, NSEC3 hashes in lowercase
 * base32hex, RRSIG times as YYYYMMDDHHmmSS). Unknown types, and RDATA that
 * fails its type's checks, are written as "\# len hex". Returns the string
 * length or DT_ESPACE. */
int wire_rdata_to_str(uint16_t type, const uint8_t *rdata, size_t rdlen,
		      char *buf, size_t buflen);

/* Writes a whole record as one line without newline:
 * "owner<TAB>ttl<TAB>class<TAB>type<TAB>rdata". Returns the string length
 * or DT_ESPACE. */
int wire_rr_to_str(const struct wire_rr *rr, char *buf, size_t buflen);

/* Text length that always suffices for wire_rr_to_str() of a record whose
 * RDATA is rdlen octets: the worst case is a type bitmap, where one octet
 * can name 8 types of up to 11 characters each. */
#define WIRE_RR_TEXT_MAXLEN(rdlen) \
	(2 * DT_NAME_TEXT_MAXLEN + 128 + 90 * (size_t)(rdlen))

#endif
