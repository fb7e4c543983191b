/* SPDX-License-Identifier: MIT */
/*
 * Domain names inside the NSS module. libdnstrust hands owners over in
 * presentation form and RDATA in wire form; the module compares them in
 * wire form (so any escaping convention compares right), gives
 * applications host names only, and builds the names of reverse lookups.
 * No allocation; every output buffer is the caller's.
 */
#ifndef DT_NSS_NAME_H
#define DT_NSS_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"

/* Longest reverse-mapping name: 32 nibbles "x." + "ip6.arpa." + NUL. */
#define DTNSS_REVERSE_MAXLEN (32 * 2 + 9 + 1)

/*
 * Converts a name in presentation form (final dot optional, \X and \DDD
 * escapes) into wire form in out. Returns the wire length, or -1 when
 * text is not a name (empty label, label over 63 or name over 255
 * octets, bad escape). out is scratch on failure.
 */
int dtnss_name_from_text(const char *text, uint8_t out[DT_NAME_MAXLEN]);

/*
 * Length of the uncompressed wire name at the start of p (len octets), or
 * -1 when it does not end within len, uses compression or breaks a limit.
 */
int dtnss_name_check(const uint8_t *p, size_t len);

/* Whether two checked wire names are equal, ASCII case ignored. */
bool dtnss_name_equal(const uint8_t *a, const uint8_t *b);

/*
 * Whether the presentation-form owner text names the wire name want.
 * False also when text is not a name.
 */
bool dtnss_owner_is(const char *text, const uint8_t *want);

/*
 * Whether text (presentation form) is a host name an application may be
 * given as is: labels of letters, digits, '-' and '_' only, so no escape,
 * space or shell character reaches a caller. The root "." is not.
 */
bool dtnss_text_is_host(const char *text);

/*
 * Writes the checked wire name as a host name without the final dot into
 * out (len octets). Returns the text length, or -1 when a label holds
 * anything but letters, digits, '-' and '_', when it is the root or when
 * len is too small (DT_NAME_MAXLEN always suffices).
 */
int dtnss_name_to_host(const uint8_t *name, char *out, size_t len);

/*
 * The reverse-mapping name of an address (RFC 1035 §3.5 in-addr.arpa.,
 * RFC 3596 §2.5 ip6.arpa.) into out (at least DTNSS_REVERSE_MAXLEN
 * octets). An IPv4-mapped IPv6 address is looked up in in-addr.arpa.,
 * as glibc's dns source does. af is AF_INET (4 octets) or AF_INET6 (16).
 */
void dtnss_reverse_name(int af, const uint8_t *addr,
			char out[DTNSS_REVERSE_MAXLEN]);

#endif
