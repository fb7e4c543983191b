/* SPDX-License-Identifier: MIT */
/*
 * Domain names in uncompressed wire form: length-prefixed labels ending in
 * the root label (a zero octet). Storage for one name is a
 * wire_dname_storage_t; no function here allocates.
 *
 * Only wire_dname_check() and wire_dname_unpack() accept untrusted data;
 * every other function requires a name that one of them accepted (or that
 * wire_dname_from_str() produced).
 */
#ifndef DT_WIRE_DNAME_H
#define DT_WIRE_DNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"

typedef uint8_t wire_dname_storage_t[DT_NAME_MAXLEN];

/* Checks an uncompressed name starting at name and ending no later than
 * end. Returns its wire length (1..255) or DT_ETRUNC, DT_ELABEL,
 * DT_ENAMELEN, DT_EPTR (a compression pointer: not allowed here). */
int wire_dname_check(const uint8_t *name, const uint8_t *end);

/* Reads a possibly compressed name at msg[*pos], msg being a whole DNS
 * message of msglen octets. Pointers must point strictly backwards from
 * where they were found and never into the 12-octet header; at most
 * DT_NAME_MAXPTRS are followed. On success writes the uncompressed name
 * to out, advances *pos past the name's encoding in the message and
 * returns the name's length; on failure leaves *pos and out unspecified
 * and returns DT_ETRUNC, DT_ENAMELEN, DT_EPTR, DT_EPTRLIMIT, or DT_EMALF
 * for a length octet of 0x40-0xBF (the obsolete extended label types: no
 * label is longer than 63, so these are never lengths). */
int wire_dname_unpack(const uint8_t *msg, size_t msglen, size_t *pos,
		      uint8_t out[DT_NAME_MAXLEN]);

/* Wire length of a checked name, root label included. */
size_t wire_dname_len(const uint8_t *name);

/* Number of labels, the root label not counted ("." is 0, "a.b." is 2). */
int wire_dname_labels(const uint8_t *name);

/* True when the first label is the single octet '*' (RFC 4592). */
bool wire_dname_is_wildcard(const uint8_t *name);

/* True for the root name ".". */
bool wire_dname_is_root(const uint8_t *name);

/* The name one label up, pointing into name itself; NULL for the root. */
const uint8_t *wire_dname_parent(const uint8_t *name);

/* The ancestor with the given number of labels, pointing into name itself;
 * NULL when name has fewer labels than asked for. */
const uint8_t *wire_dname_ancestor(const uint8_t *name, int labels);

/* Case-insensitive (ASCII only, RFC 4343) equality. */
bool wire_dname_equal(const uint8_t *a, const uint8_t *b);

/* Canonical order of RFC 4034 §6.1: <0, 0 or >0. */
int wire_dname_canon_cmp(const uint8_t *a, const uint8_t *b);

/* True when name is ancestor itself or lies below it. */
bool wire_dname_is_subdomain(const uint8_t *name, const uint8_t *ancestor);

/* Number of rightmost labels the two names have in common
 * (case-insensitive); the root label is not counted. */
int wire_dname_common_labels(const uint8_t *a, const uint8_t *b);

/* Lowercases ASCII letters in place (RFC 4034 §6.2). */
void wire_dname_tolower(uint8_t *name);

/* Copies a checked name into out and returns its length. */
size_t wire_dname_copy(uint8_t out[DT_NAME_MAXLEN], const uint8_t *name);

/* Builds the name "*.<name>" in out (RFC 4592). Returns its length or
 * DT_ENAMELEN when it would not fit in 255 octets. */
int wire_dname_wildcard_of(uint8_t out[DT_NAME_MAXLEN], const uint8_t *name);

/* Parses a name in presentation form: len characters of str (not
 * NUL-terminated), with \c and \DDD escapes (RFC 1035 §5.1). A name not
 * ending in an unescaped dot is relative and gets origin appended; "@"
 * alone is origin itself. origin may be NULL, then a relative name fails
 * with DT_ERELATIVE. Returns the wire length, or DT_ESYNTAX (bad escape,
 * empty label), DT_ELABEL, DT_ENAMELEN, DT_ERELATIVE. out is written only
 * on success. */
int wire_dname_from_str(const char *str, size_t len, const uint8_t *origin,
			uint8_t out[DT_NAME_MAXLEN]);

/* Writes a checked name in presentation form, fully qualified (trailing
 * dot), escaping '.', '\\', '"', '(', ')', ';', '@', '$' and space with a
 * backslash and other octets outside 0x21..0x7e as \DDD. Returns the
 * string length, or DT_ESPACE when buflen (NUL included) is too small;
 * DT_NAME_TEXT_MAXLEN is always enough. */
int wire_dname_to_str(const uint8_t *name, char *buf, size_t buflen);

#endif
