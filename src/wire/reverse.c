/* SPDX-License-Identifier: MIT */
/*
 * Reverse-mapping names of IPv4 and IPv6 addresses.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/reverse.h"

static int reverse_v4(const unsigned char a[4], char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "%u.%u.%u.%u.in-addr.arpa.", a[3], a[2],
			 a[1], a[0]);

	return n < 0 || (size_t)n >= cap ? DT_ESPACE : n;
}

/* Nibbles from the last (least significant) to the first. */
static int reverse_v6(const unsigned char a[16], char *buf, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	const char *tail = "ip6.arpa.";
	size_t n = 0;

	if (cap < WIRE_REVERSE_MAXLEN)
		return DT_ESPACE;
	for (int i = 15; i >= 0; i--) {
		buf[n++] = hex[a[i] & 0xf];
		buf[n++] = '.';
		buf[n++] = hex[a[i] >> 4];
		buf[n++] = '.';
	}
	memcpy(buf + n, tail, strlen(tail) + 1);
	return (int)(n + strlen(tail));
}

int wire_reverse_name(const char *addr, char *buf, size_t cap)
{
	unsigned char a[16];

	if (inet_pton(AF_INET, addr, a) == 1)
		return reverse_v4(a, buf, cap);
	if (inet_pton(AF_INET6, addr, a) == 1)
		return reverse_v6(a, buf, cap);
	return DT_ESYNTAX;
}
