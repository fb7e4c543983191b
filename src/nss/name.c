/* SPDX-License-Identifier: MIT */
/*
 * Domain names inside the NSS module: presentation to wire form, checks,
 * comparison, host names and reverse-mapping names.
 */
#include "nss/name.h"

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static uint8_t lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool host_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* One octet of presentation text at *p, escapes decoded; -1 when bad. */
static int text_octet(const char **p)
{
	const char *s = *p;
	int v;

	if (s[0] != '\\') {
		*p = s + 1;
		return (uint8_t)s[0];
	}
	if (s[1] == '\0')
		return -1;
	if (!digit(s[1])) {
		*p = s + 2;
		return (uint8_t)s[1];
	}
	if (!digit(s[2]) || !digit(s[3]))
		return -1;
	v = (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	*p = s + 4;
	return v > 255 ? -1 : v;
}

int dtnss_name_from_text(const char *text, uint8_t out[DT_NAME_MAXLEN])
{
	size_t len = 1, lab = 0; /* lab: the current label's length octet */
	const char *p = text;
	int c;

	if (strcmp(text, ".") == 0) {
		out[0] = 0;
		return 1;
	}
	out[0] = 0;
	while (*p != '\0') {
		if (*p == '.') {
			if (out[lab] == 0 || len >= DT_NAME_MAXLEN)
				return -1; /* empty label, or too long */
			lab = len;
			out[len++] = 0;
			p++;
			continue;
		}
		if ((c = text_octet(&p)) < 0 || out[lab] == DT_LABEL_MAXLEN ||
		    len >= DT_NAME_MAXLEN)
			return -1;
		out[len++] = (uint8_t)c;
		out[lab]++;
	}
	if (out[lab] == 0)
		return lab == 0 ? -1 : (int)len; /* "" is not a name */
	if (len >= DT_NAME_MAXLEN)
		return -1;
	out[len++] = 0;
	return (int)len;
}

int dtnss_name_check(const uint8_t *p, size_t len)
{
	size_t i = 0;

	while (i < len && i < DT_NAME_MAXLEN) {
		if (p[i] == 0)
			return (int)i + 1;
		if (p[i] > DT_LABEL_MAXLEN)
			return -1; /* compression or an unknown label type */
		i += 1 + p[i];
	}
	return -1;
}

bool dtnss_name_equal(const uint8_t *a, const uint8_t *b)
{
	/* Length octets are below 64, so lower() leaves them alone. */
	for (size_t n; *a == *b; a += n + 1, b += n + 1) {
		if ((n = *a) == 0)
			return true;
		for (size_t i = 1; i <= n; i++)
			if (lower(a[i]) != lower(b[i]))
				return false;
	}
	return false;
}

bool dtnss_owner_is(const char *text, const uint8_t *want)
{
	uint8_t wire[DT_NAME_MAXLEN];

	return dtnss_name_from_text(text, wire) > 0 &&
	       dtnss_name_equal(wire, want);
}

bool dtnss_text_is_host(const char *text)
{
	size_t lab = 0;

	if (*text == '\0' || strcmp(text, ".") == 0)
		return false;
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '.') {
			if (lab == 0)
				return false;
			lab = 0;
		} else if (host_char((uint8_t)*p)) {
			lab++;
		} else {
			return false;
		}
	}
	return true;
}

int dtnss_name_to_host(const uint8_t *name, char *out, size_t len)
{
	size_t o = 0;

	if (name[0] == 0)
		return -1;
	for (const uint8_t *p = name; *p != 0; p += 1 + *p) {
		if (o + (p != name) + *p + 1 > len) /* dot, label, NUL */
			return -1;
		if (p != name)
			out[o++] = '.';
		for (size_t i = 1; i <= *p; i++) {
			if (!host_char(p[i]))
				return -1;
			out[o++] = (char)p[i];
		}
	}
	out[o] = '\0';
	return (int)o;
}

void dtnss_reverse_name(int af, const uint8_t *addr,
			char out[DTNSS_REVERSE_MAXLEN])
{
	static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};
	static const char hex[] = "0123456789abcdef";
	char *o = out;

	if (af == AF_INET6 && memcmp(addr, mapped, sizeof(mapped)) == 0) {
		af = AF_INET;
		addr += sizeof(mapped);
	}
	if (af == AF_INET) {
		snprintf(out, DTNSS_REVERSE_MAXLEN, "%u.%u.%u.%u.in-addr.arpa.",
			 addr[3], addr[2], addr[1], addr[0]);
		return;
	}
	for (int i = 15; i >= 0; i--) {
		*o++ = hex[addr[i] & 0xf];
		*o++ = '.';
		*o++ = hex[addr[i] >> 4];
		*o++ = '.';
	}
	memcpy(o, "ip6.arpa.", sizeof("ip6.arpa."));
}
