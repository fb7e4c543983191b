/* SPDX-License-Identifier: MIT */
/*
 * Reverse-mapping names (src/wire/reverse.c), compared with what
 * dig -x asks.
 */
#include "common/errcode.h"
#include "tap.h"
#include "wire/reverse.h"

static char out[WIRE_REVERSE_MAXLEN];

static const char *rev(const char *addr)
{
	int n = wire_reverse_name(addr, out, sizeof(out));

	if (n < 0)
		snprintf(out, sizeof(out), "ERR %d", n);
	else if ((size_t)n != strlen(out))
		snprintf(out, sizeof(out), "BAD LENGTH %d", n);
	return out;
}

int main(void)
{
	char small[20];

	is_str(rev("192.0.2.1"), "1.2.0.192.in-addr.arpa.", "IPv4");
	is_str(rev("10.0.0.255"), "255.0.0.10.in-addr.arpa.", "IPv4, 255");
	is_str(rev("2001:db8::567:89ab"),
	       "b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0."
	       "2.ip6.arpa.",
	       "IPv6 (RFC 3596 §2.5's example)");
	is_str(rev("::ffff:192.0.2.1"),
	       "1.0.2.0.0.0.0.c.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
	       "0.ip6.arpa.",
	       "IPv4-mapped IPv6 stays under ip6.arpa");
	is_int((int)strlen(rev("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")),
	       WIRE_REVERSE_MAXLEN - 1, "the longest name fits the buffer");
	is_str(rev("192.0.2"), "ERR -993", "three octets: not an address");
	is_int(wire_reverse_name("example.com", out, sizeof(out)), DT_ESYNTAX,
	       "a name is not an address");
	is_int(wire_reverse_name("192.0.2.300", out, sizeof(out)), DT_ESYNTAX,
	       "octet above 255");
	is_int(wire_reverse_name("2001:db8::1", small, sizeof(small)),
	       DT_ESPACE, "IPv6 into a small buffer");
	is_int(wire_reverse_name("192.0.2.1", small, 10), DT_ESPACE,
	       "IPv4 into a small buffer");
	return done_testing();
}
