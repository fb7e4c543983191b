/* SPDX-License-Identifier: MIT */
/*
 * LOC records (RFC 1876), version 0: 16 octets of version, size,
 * horizontal and vertical precision, latitude, longitude and altitude, and
 * their presentation form
 *   d1 [m1 [s1]] {N|S} d2 [m2 [s2]] {E|W} alt[m] [siz[m] [hp[m] [vp[m]]]]
 * written the way dig prints it ("52 22 23.000 N 4 53 32.000 E -2.00m
 * 1m 10000m 10m"). Nothing here allocates.
 */
#ifndef DT_WIRE_LOC_H
#define DT_WIRE_LOC_H

#include <stddef.h>
#include <stdint.h>

/* Octets of version 0 LOC RDATA. */
#define WIRE_LOC_LEN 16

/* Writes LOC RDATA in presentation form (NUL terminated). Returns the
 * length, DT_ESPACE, or DT_ERDATA when the RDATA has no text form: a
 * version other than 0, another length, a precision digit above 9 (or a
 * zero mantissa with a non-zero exponent), a latitude beyond 90° or a
 * longitude beyond 180°. */
int wire_loc_to_str(const uint8_t *rdata, size_t rdlen, char *buf, size_t cap);

/* Parses the presentation form (fields separated by blanks) into
 * out[WIRE_LOC_LEN]. Returns WIRE_LOC_LEN, DT_ESYNTAX or DT_ERANGE. The
 * precisions are rounded down to the one-digit mantissa RFC 1876 keeps. */
int wire_loc_from_str(const char *s, size_t len, uint8_t out[WIRE_LOC_LEN]);

#endif
