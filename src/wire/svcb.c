/* SPDX-License-Identifier: MIT */
/*
 * SvcParams (RFC 9460): key names, layout, and value conversion between
 * wire and presentation form. The zone reader hands values in after the
 * zone-file unescaping of RFC 1035 §5.1; the value-list escapes of RFC
 * 9460 Appendix A.1 ("\," and "\\" inside alpn) are handled here.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/base.h"
#include "wire/bytes.h"
#include "wire/svcb.h"

/* Octets of an IPv4 and an IPv6 address in a hint. */
#define V4_LEN 4
#define V6_LEN 16
/* Longest address text accepted in a hint (IPv6 with an IPv4 tail). */
#define ADDR_TEXT_MAXLEN 64
/* Keys in one mandatory list read from text: far more than are defined,
 * each listed key must also be present in the record. */
#define MANDATORY_MAXKEYS 64

static const char *const key_names[] = {
	[WIRE_SVC_MANDATORY] = "mandatory",
	[WIRE_SVC_ALPN] = "alpn",
	[WIRE_SVC_NO_DEFAULT_ALPN] = "no-default-alpn",
	[WIRE_SVC_PORT] = "port",
	[WIRE_SVC_IPV4HINT] = "ipv4hint",
	[WIRE_SVC_ECH] = "ech",
	[WIRE_SVC_IPV6HINT] = "ipv6hint",
	[WIRE_SVC_DOHPATH] = "dohpath",
	[WIRE_SVC_OHTTP] = "ohttp",
};

#define NKEYS (sizeof(key_names) / sizeof(key_names[0]))

const char *wire_svc_key_to_str(uint16_t key, char buf[16])
{
	if (key < NKEYS)
		snprintf(buf, 16, "%s", key_names[key]);
	else
		snprintf(buf, 16, "key%u", (unsigned)key);
	return buf;
}

int wire_svc_key_from_str(const char *s, size_t len, uint16_t *ret_key)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		if (strlen(key_names[i]) == len &&
		    memcmp(key_names[i], s, len) == 0) {
			*ret_key = (uint16_t)i;
			return 0;
		}
	}
	if (len < 4 || len > 8 || memcmp(s, "key", 3) != 0 ||
	    (s[3] == '0' && len > 4))
		return DT_ESYNTAX;
	for (i = 3; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return DT_ESYNTAX;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	if (v >= WIRE_SVC_INVALID)
		return DT_ERANGE;
	*ret_key = (uint16_t)v;
	return 0;
}

int wire_svcparams_check(const uint8_t *p, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		if (len - pos < 4 || len - pos - 4 < wire_get16(p + pos + 2))
			return DT_ETRUNC;
		pos += 4 + (size_t)wire_get16(p + pos + 2);
	}
	return 0;
}

/* --- value checks --- */

static bool alpn_ok(const uint8_t *v, size_t len)
{
	size_t pos = 0;

	if (len == 0)
		return false;
	while (pos < len) {
		if (v[pos] == 0 || len - pos - 1 < v[pos])
			return false;
		pos += 1 + (size_t)v[pos];
	}
	return true;
}

static bool mandatory_ok(const uint8_t *v, size_t len)
{
	if (len == 0 || len % 2)
		return false;
	for (size_t i = 0; i < len; i += 2) {
		uint16_t k = wire_get16(v + i);

		if (k == WIRE_SVC_MANDATORY || k == WIRE_SVC_INVALID ||
		    (i > 0 && k <= wire_get16(v + i - 2)))
			return false;
	}
	return true;
}

int wire_svc_value_ok(uint16_t key, const uint8_t *val, size_t len)
{
	switch (key) {
	case WIRE_SVC_MANDATORY: return mandatory_ok(val, len);
	case WIRE_SVC_ALPN: return alpn_ok(val, len);
	case WIRE_SVC_NO_DEFAULT_ALPN:
	case WIRE_SVC_OHTTP: return len == 0;
	case WIRE_SVC_PORT: return len == 2;
	case WIRE_SVC_IPV4HINT: return len > 0 && len % V4_LEN == 0;
	case WIRE_SVC_ECH: return len > 0;
	case WIRE_SVC_IPV6HINT: return len > 0 && len % V6_LEN == 0;
	case WIRE_SVC_DOHPATH: return len > 0;
	default: return true;
	}
}

/* True when the laid-out SvcParams have key. */
static bool has_key(const uint8_t *p, size_t len, uint16_t key)
{
	for (size_t pos = 0; pos < len;
	     pos += 4 + (size_t)wire_get16(p + pos + 2))
		if (wire_get16(p + pos) == key)
			return true;
	return false;
}

/* RFC 9460 §8: every key that mandatory lists is present. */
static bool mandatory_present(const uint8_t *p, size_t len, const uint8_t *m,
			      size_t mlen)
{
	for (size_t i = 0; i < mlen; i += 2)
		if (!has_key(p, len, wire_get16(m + i)))
			return false;
	return true;
}

int wire_svcparams_canonical(const uint8_t *p, size_t len)
{
	size_t pos = 0;
	long prev = -1;

	if (wire_svcparams_check(p, len) < 0)
		return false;
	while (pos < len) {
		uint16_t key = wire_get16(p + pos),
			 vlen = wire_get16(p + pos + 2);
		const uint8_t *v = p + pos + 4;

		if ((long)key <= prev || key == WIRE_SVC_INVALID ||
		    !wire_svc_value_ok(key, v, vlen) ||
		    (key == WIRE_SVC_MANDATORY &&
		     !mandatory_present(p, len, v, vlen)))
			return false;
		prev = key;
		pos += 4 + (size_t)vlen;
	}
	return true;
}

/* --- presentation to wire --- */

struct obuf {
	uint8_t *p;
	size_t cap;
	size_t len;
	int err;
};

static void ob_put(struct obuf *o, const void *src, size_t n)
{
	if (o->err)
		return;
	if (n > o->cap - o->len) {
		o->err = DT_ESPACE;
		return;
	}
	memcpy(o->p + o->len, src, n);
	o->len += n;
}

static void ob_put16(struct obuf *o, uint16_t v)
{
	uint8_t be[2];

	wire_put16(be, v);
	ob_put(o, be, 2);
}

static int ob_done(const struct obuf *o)
{
	return o->err ? o->err : (int)o->len;
}

/* Next item of a comma-separated list without escapes: [*pos, ret). */
static size_t item_end(const uint8_t *in, size_t inlen, size_t pos)
{
	while (pos < inlen && in[pos] != ',')
		pos++;
	return pos;
}

/* RFC 9460 App. A.1 value-list: items separated by ',', where "\," and
 * "\\" (any "\c") stand for the character itself. */
static int alpn_from_text(const uint8_t *in, size_t inlen, struct obuf *o)
{
	size_t pos = 0;

	if (inlen == 0)
		return DT_ESYNTAX;
	while (pos <= inlen) {
		uint8_t id[255];
		size_t n = 0;

		for (; pos < inlen && in[pos] != ','; pos++) {
			if (in[pos] == '\\' && pos + 1 < inlen)
				pos++;
			if (n == sizeof(id))
				return DT_ERANGE;
			id[n++] = in[pos];
		}
		if (n == 0)
			return DT_ESYNTAX;
		ob_put(o, (uint8_t[]){(uint8_t)n}, 1);
		ob_put(o, id, n);
		pos++; /* the ',' or past the end */
	}
	return ob_done(o);
}

static int mandatory_from_text(const uint8_t *in, size_t inlen, struct obuf *o)
{
	uint16_t keys[MANDATORY_MAXKEYS];
	size_t n = 0, pos = 0;

	while (pos <= inlen) {
		size_t end = item_end(in, inlen, pos), i;
		uint16_t k;
		int ret = wire_svc_key_from_str((const char *)in + pos,
						end - pos, &k);

		if (ret < 0)
			return ret;
		if (k == WIRE_SVC_MANDATORY || n == MANDATORY_MAXKEYS)
			return DT_ESYNTAX;
		/* insertion into sorted order; a repeated key is an error */
		for (i = n; i > 0 && keys[i - 1] > k; i--)
			keys[i] = keys[i - 1];
		if (i > 0 && keys[i - 1] == k)
			return DT_ESYNTAX;
		keys[i] = k;
		n++;
		pos = end + 1;
	}
	for (size_t i = 0; i < n; i++)
		ob_put16(o, keys[i]);
	return ob_done(o);
}

static int hints_from_text(int af, const uint8_t *in, size_t inlen,
			   struct obuf *o)
{
	size_t pos = 0;

	while (pos <= inlen) {
		size_t end = item_end(in, inlen, pos);
		char text[ADDR_TEXT_MAXLEN];
		uint8_t addr[V6_LEN];

		if (end - pos == 0 || end - pos >= sizeof(text))
			return DT_ESYNTAX;
		memcpy(text, in + pos, end - pos);
		text[end - pos] = '\0';
		if (inet_pton(af, text, addr) != 1)
			return DT_ESYNTAX;
		ob_put(o, addr, af == AF_INET ? V4_LEN : V6_LEN);
		pos = end + 1;
	}
	return ob_done(o);
}

static int port_from_text(const uint8_t *in, size_t inlen, struct obuf *o)
{
	uint32_t v = 0;

	if (inlen == 0 || inlen > 5)
		return DT_ESYNTAX;
	for (size_t i = 0; i < inlen; i++) {
		if (in[i] < '0' || in[i] > '9')
			return DT_ESYNTAX;
		v = v * 10 + (uint32_t)(in[i] - '0');
	}
	if (v > UINT16_MAX)
		return DT_ERANGE;
	ob_put16(o, (uint16_t)v);
	return ob_done(o);
}

static int ech_from_text(const uint8_t *in, size_t inlen, struct obuf *o)
{
	int n;

	if (inlen == 0)
		return DT_ESYNTAX;
	n = wire_b64_decode((const char *)in, inlen, o->p, o->cap);
	return n < 0 ? n : (n == 0 ? DT_EBASE64 : n);
}

int wire_svc_value_from_text(uint16_t key, const uint8_t *in, size_t inlen,
			     uint8_t *out, size_t outcap)
{
	struct obuf o = {out, outcap, 0, 0};

	switch (key) {
	case WIRE_SVC_MANDATORY: return mandatory_from_text(in, inlen, &o);
	case WIRE_SVC_ALPN: return alpn_from_text(in, inlen, &o);
	case WIRE_SVC_NO_DEFAULT_ALPN:
	case WIRE_SVC_OHTTP: return inlen == 0 ? 0 : DT_ESYNTAX;
	case WIRE_SVC_PORT: return port_from_text(in, inlen, &o);
	case WIRE_SVC_IPV4HINT: return hints_from_text(AF_INET, in, inlen, &o);
	case WIRE_SVC_ECH: return ech_from_text(in, inlen, &o);
	case WIRE_SVC_IPV6HINT: return hints_from_text(AF_INET6, in, inlen, &o);
	case WIRE_SVC_DOHPATH:
		if (inlen == 0)
			return DT_ESYNTAX;
		ob_put(&o, in, inlen);
		return ob_done(&o);
	default: ob_put(&o, in, inlen); return ob_done(&o);
	}
}

/* --- wire to presentation --- */

struct tbuf {
	char *s;
	size_t cap; /* NUL included */
	size_t len;
	int err;
};

static void tb_putn(struct tbuf *t, const char *s, size_t n)
{
	if (t->err)
		return;
	if (n >= t->cap - t->len) {
		t->err = DT_ESPACE;
		return;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static void tb_puts(struct tbuf *t, const char *s)
{
	tb_putn(t, s, strlen(s));
}

/* One octet inside a quoted string: '"' and '\' escaped, non-printable
 * octets as \DDD (RFC 1035 §5.1). In a value list, ',' and '\' need a
 * second level of escaping (RFC 9460 App. A.1), "\\," and "\\\\". */
static void tb_octet(struct tbuf *t, uint8_t o, bool in_list)
{
	char esc[8];

	if (in_list && (o == ',' || o == '\\')) {
		tb_puts(t, o == ',' ? "\\\\," : "\\\\\\\\");
	} else if (o == '"' || o == '\\') {
		snprintf(esc, sizeof(esc), "\\%c", o);
		tb_puts(t, esc);
	} else if (o < 0x20 || o > 0x7e) {
		snprintf(esc, sizeof(esc), "\\%03u", o);
		tb_puts(t, esc);
	} else {
		tb_putn(t, (const char *)&o, 1);
	}
}

static void quoted_to_str(struct tbuf *t, const uint8_t *v, size_t len)
{
	tb_putn(t, "\"", 1);
	for (size_t i = 0; i < len; i++)
		tb_octet(t, v[i], false);
	tb_putn(t, "\"", 1);
}

static void alpn_to_str(struct tbuf *t, const uint8_t *v, size_t len)
{
	size_t pos = 0;

	tb_putn(t, "\"", 1);
	while (pos < len) {
		size_t n = v[pos++];

		if (pos > 1)
			tb_putn(t, ",", 1);
		for (; n > 0; n--)
			tb_octet(t, v[pos++], true);
	}
	tb_putn(t, "\"", 1);
}

static void mandatory_to_str(struct tbuf *t, const uint8_t *v, size_t len)
{
	char kbuf[16];

	for (size_t i = 0; i < len; i += 2) {
		if (i)
			tb_putn(t, ",", 1);
		tb_puts(t, wire_svc_key_to_str(wire_get16(v + i), kbuf));
	}
}

static void hints_to_str(struct tbuf *t, int af, const uint8_t *v, size_t len)
{
	size_t step = af == AF_INET ? V4_LEN : V6_LEN;
	char abuf[INET6_ADDRSTRLEN];

	for (size_t i = 0; i < len; i += step) {
		if (i)
			tb_putn(t, ",", 1);
		if (!inet_ntop(af, v + i, abuf, sizeof(abuf)))
			t->err = DT_ERDATA;
		else
			tb_puts(t, abuf);
	}
}

static void port_to_str(struct tbuf *t, const uint8_t *v)
{
	char num[8];

	snprintf(num, sizeof(num), "%u", (unsigned)wire_get16(v));
	tb_puts(t, num);
}

static void ech_to_str(struct tbuf *t, const uint8_t *v, size_t len)
{
	int n;

	if (t->err)
		return;
	n = wire_b64_encode(v, len, t->s + t->len, t->cap - t->len);
	if (n < 0)
		t->err = n;
	else
		t->len += (size_t)n;
}

static void value_to_str(struct tbuf *t, uint16_t key, const uint8_t *v,
			 size_t len)
{
	switch (key) {
	case WIRE_SVC_MANDATORY: mandatory_to_str(t, v, len); break;
	case WIRE_SVC_ALPN: alpn_to_str(t, v, len); break;
	case WIRE_SVC_PORT: port_to_str(t, v); break;
	case WIRE_SVC_IPV4HINT: hints_to_str(t, AF_INET, v, len); break;
	case WIRE_SVC_ECH: ech_to_str(t, v, len); break;
	case WIRE_SVC_IPV6HINT: hints_to_str(t, AF_INET6, v, len); break;
	default: quoted_to_str(t, v, len); break;
	}
}

int wire_svc_param_to_str(uint16_t key, const uint8_t *val, size_t len,
			  char *buf, size_t cap)
{
	struct tbuf t = {buf, cap, 0, cap ? 0 : DT_ESPACE};
	char kbuf[16];

	if (!wire_svc_value_ok(key, val, len) || key == WIRE_SVC_INVALID)
		return DT_ERDATA;
	if (cap)
		buf[0] = '\0';
	tb_puts(&t, wire_svc_key_to_str(key, kbuf));
	if (len > 0) {
		tb_putn(&t, "=", 1);
		value_to_str(&t, key, val, len);
	}
	return t.err ? t.err : (int)t.len;
}
