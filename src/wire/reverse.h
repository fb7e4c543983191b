/* SPDX-License-Identifier: MIT */
/*
 * Reverse-mapping names: the PTR owner of an address, under in-addr.arpa
 * (RFC 1035 §3.5) for IPv4 and ip6.arpa (RFC 3596 §2.5) for IPv6.
 * Nothing here allocates.
 */
#ifndef DT_WIRE_REVERSE_H
#define DT_WIRE_REVERSE_H

#include <stddef.h>

/* Buffer for the longest reverse name: 32 nibbles with their dots,
 * "ip6.arpa." and the NUL. */
#define WIRE_REVERSE_MAXLEN 74

/* Writes the reverse name of addr (IPv4 dotted quad or IPv6 text, as
 * inet_pton(3) reads them) to buf, fully qualified and NUL terminated:
 * "1.2.0.192.in-addr.arpa." or 32 nibbles then "ip6.arpa.". Returns the
 * length, DT_ESYNTAX when addr is no address, or DT_ESPACE. */
int wire_reverse_name(const char *addr, char *buf, size_t cap);

#endif
