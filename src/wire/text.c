/* SPDX-License-Identifier: MIT */
/*
 * Record writer: presentation format of records and RDATA (RFC 1035 §5.1,
 * RFC 3597 §5), in the form ldns and dig print.
 *
 * One walker over the field layout of wire_rdesc_get() writes every known
 * type. Whatever has no faithful text form (an unknown type, RDATA failing
 * its type's checks, an empty digest or key, a bitmap with empty windows)
 * is written as "\# len hex", so that the reader always gets the same wire
 * data back from what is written here.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/base.h"
#include "wire/dname.h"
#include "wire/loc.h"
#include "wire/rr.h"
#include "wire/svcb.h"
#include "wire/zone.h"

/* Seconds in a day, for RRSIG times. */
#define SECS_PER_DAY 86400u

/* Text appended to a caller's buffer; the first error sticks. */
struct sbuf {
	char *buf;
	size_t cap; /* NUL included */
	size_t len;
	int err;
};

/* RDATA still to be written. */
struct rdcur {
	const uint8_t *p;
	const uint8_t *end;
};

/* Returned by a field writer when the field has no text form that reads
 * back to the same octets; the caller then writes "\# len hex". */
#define NO_TEXT 1

static void sb_init(struct sbuf *sb, char *buf, size_t cap)
{
	sb->buf = buf;
	sb->cap = cap;
	sb->len = 0;
	sb->err = cap ? 0 : DT_ESPACE;
	if (cap)
		buf[0] = '\0';
}

static void sb_truncate(struct sbuf *sb, size_t len)
{
	if (sb->err)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

static void sb_putn(struct sbuf *sb, const char *s, size_t n)
{
	if (sb->err)
		return;
	if (n >= sb->cap - sb->len) {
		sb->err = DT_ESPACE;
		return;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb_truncate(sb, sb->len + n);
}

static void sb_putc(struct sbuf *sb, char c)
{
	sb_putn(sb, &c, 1);
}

static void sb_puts(struct sbuf *sb, const char *s)
{
	sb_putn(sb, s, strlen(s));
}

__attribute__((format(printf, 2, 3))) static void
sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sb->cap - sb->len) {
		sb->buf[sb->len] = '\0';
		sb->err = DT_ESPACE;
		return;
	}
	sb->len += (size_t)n;
}

/* Accounts for what an encoder wrote at the end of the buffer: its return
 * value ret is a length or DT_ESPACE. */
static void sb_commit(struct sbuf *sb, int ret)
{
	if (sb->err)
		return;
	if (ret < 0) {
		sb->buf[sb->len] = '\0';
		sb->err = DT_ESPACE;
		return;
	}
	sb->len += (size_t)ret;
}

static char *sb_tail(struct sbuf *sb)
{
	return sb->buf + sb->len;
}

static size_t sb_room(const struct sbuf *sb)
{
	return sb->err ? 0 : sb->cap - sb->len;
}

static void sb_hex(struct sbuf *sb, const uint8_t *p, size_t n, bool upper)
{
	if (sb->err)
		return;
	if (upper)
		sb_commit(sb, wire_hex_encode_upper(p, n, sb_tail(sb),
						    sb_room(sb)));
	else
		sb_commit(sb, wire_hex_encode(p, n, sb_tail(sb), sb_room(sb)));
}

/* --- reading the RDATA cursor --- */

static bool cur_need(const struct rdcur *c, size_t n)
{
	return (size_t)(c->end - c->p) >= n;
}

static size_t cur_left(const struct rdcur *c)
{
	return (size_t)(c->end - c->p);
}

static uint32_t cur_get(struct rdcur *c, size_t n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | *c->p++;
	return v;
}

/* --- field writers: 0, NO_TEXT, or a negative code for bad RDATA --- */

static int wr_name(struct sbuf *sb, struct rdcur *c)
{
	int n = wire_dname_check(c->p, c->end);

	if (n < 0)
		return n;
	if (!sb->err)
		sb_commit(sb,
			  wire_dname_to_str(c->p, sb_tail(sb), sb_room(sb)));
	c->p += n;
	return 0;
}

static int wr_uint(struct sbuf *sb, struct rdcur *c, size_t n)
{
	if (!cur_need(c, n))
		return DT_ETRUNC;
	sb_printf(sb, "%lu", (unsigned long)cur_get(c, n));
	return 0;
}

static int wr_u8(struct sbuf *sb, struct rdcur *c)
{
	return wr_uint(sb, c, 1);
}

static int wr_u16(struct sbuf *sb, struct rdcur *c)
{
	return wr_uint(sb, c, 2);
}

static int wr_u32(struct sbuf *sb, struct rdcur *c)
{
	return wr_uint(sb, c, 4);
}

/* Type 0 is reserved (RFC 6895 §3.1) and "TYPE0" is refused on input. */
static int wr_type(struct sbuf *sb, struct rdcur *c)
{
	char tbuf[16];
	uint16_t type;

	if (!cur_need(c, 2))
		return DT_ETRUNC;
	type = (uint16_t)cur_get(c, 2);
	if (type == 0)
		return NO_TEXT;
	sb_puts(sb, wire_type_to_str(type, tbuf));
	return 0;
}

/*
 * Proleptic Gregorian date of a day count since 1970-01-01 (the
 * civil_from_days algorithm of H. Hinnant, for non-negative counts only).
 * Pure arithmetic: no gmtime(), no time zone, no locale.
 */
static void civil_from_days(uint32_t days, unsigned *ret_y, unsigned *ret_m,
			    unsigned *ret_d)
{
	uint32_t z = days + 719468;
	uint32_t era = z / 146097;
	uint32_t doe = z - era * 146097;
	uint32_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	uint32_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	uint32_t mp = (5 * doy + 2) / 153;
	unsigned m = mp < 10 ? mp + 3 : mp - 9;

	*ret_d = doy - (153 * mp + 2) / 5 + 1;
	*ret_m = m;
	*ret_y = yoe + era * 400 + (m <= 2);
}

/* RFC 4034 §3.2: YYYYMMDDHHmmSS in UTC. The field is serial arithmetic
 * (§3.1.5); the octets are simply read as seconds since 1970, which the
 * reader turns back into the same number. */
static int wr_time(struct sbuf *sb, struct rdcur *c)
{
	uint32_t t, secs;
	unsigned y, mo, d;

	if (!cur_need(c, 4))
		return DT_ETRUNC;
	t = cur_get(c, 4);
	civil_from_days(t / SECS_PER_DAY, &y, &mo, &d);
	secs = t % SECS_PER_DAY;
	sb_printf(sb, "%04u%02u%02u%02u%02u%02u", y, mo, d,
		  (unsigned)(secs / 3600), (unsigned)(secs / 60 % 60),
		  (unsigned)(secs % 60));
	return 0;
}

static int wr_a(struct sbuf *sb, struct rdcur *c)
{
	if (!cur_need(c, 4))
		return DT_ETRUNC;
	sb_printf(sb, "%u.%u.%u.%u", c->p[0], c->p[1], c->p[2], c->p[3]);
	c->p += 4;
	return 0;
}

static int wr_aaaa(struct sbuf *sb, struct rdcur *c)
{
	char abuf[INET6_ADDRSTRLEN];

	if (!cur_need(c, 16))
		return DT_ETRUNC;
	if (!inet_ntop(AF_INET6, c->p, abuf, sizeof(abuf)))
		return DT_ERDATA;
	sb_puts(sb, abuf);
	c->p += 16;
	return 0;
}

/* n octets in quotes: '"' and '\' escaped with a backslash, octets
 * outside printable ASCII as \DDD (RFC 1035 §5.1). */
static void quoted_octets(struct sbuf *sb, struct rdcur *c, size_t n)
{
	sb_putc(sb, '"');
	for (; n > 0; n--, c->p++) {
		uint8_t o = *c->p;

		if (o == '"' || o == '\\')
			sb_printf(sb, "\\%c", o);
		else if (o < 0x20 || o > 0x7e)
			sb_printf(sb, "\\%03u", o);
		else
			sb_putc(sb, (char)o);
	}
	sb_putc(sb, '"');
}

/* A <character-string>: a length octet and that many octets. */
static int wr_charstr(struct sbuf *sb, struct rdcur *c)
{
	size_t n;

	if (!cur_need(c, 1) || !cur_need(c, 1 + (size_t)c->p[0]))
		return DT_ETRUNC;
	n = *c->p++;
	quoted_octets(sb, c, n);
	return 0;
}

/* The rest of the RDATA as one quoted string, possibly "". */
static int wr_text(struct sbuf *sb, struct rdcur *c)
{
	quoted_octets(sb, c, cur_left(c));
	return 0;
}

static bool is_alnum(uint8_t o)
{
	return (o >= '0' && o <= '9') || (o >= 'a' && o <= 'z') ||
	       (o >= 'A' && o <= 'Z');
}

/* A CAA tag, bare: only letters and digits read back (RFC 8659 §4.1). */
static int wr_tag(struct sbuf *sb, struct rdcur *c)
{
	size_t n;

	if (!cur_need(c, 1) || !cur_need(c, 1 + (size_t)c->p[0]))
		return DT_ETRUNC;
	n = *c->p++;
	if (n == 0)
		return NO_TEXT;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum(c->p[i]))
			return NO_TEXT;
	sb_putn(sb, (const char *)c->p, n);
	c->p += n;
	return 0;
}

static int wr_loc(struct sbuf *sb, struct rdcur *c)
{
	int n;

	if (sb->err)
		return 0;
	n = wire_loc_to_str(c->p, cur_left(c), sb_tail(sb), sb_room(sb));
	if (n == DT_ERDATA)
		return NO_TEXT;
	sb_commit(sb, n);
	c->p = c->end;
	return 0;
}

/* SvcParams, one space before each: none for an AliasMode record with
 * no parameters (RFC 9460 §2.4.2). */
static int wr_svcparams(struct sbuf *sb, struct rdcur *c)
{
	bool first = true;

	if (!wire_svcparams_canonical(c->p, cur_left(c)))
		return NO_TEXT;
	while (cur_left(c) && !sb->err) {
		uint16_t key = (uint16_t)cur_get(c, 2);
		size_t len = cur_get(c, 2);

		if (!first)
			sb_putc(sb, ' ');
		first = false;
		if (!sb->err)
			sb_commit(sb, wire_svc_param_to_str(key, c->p, len,
							    sb_tail(sb),
							    sb_room(sb)));
		c->p += len;
	}
	c->p = c->end;
	return 0;
}

static int wr_charstrs(struct sbuf *sb, struct rdcur *c)
{
	if (!cur_left(c))
		return NO_TEXT;
	while (cur_left(c)) {
		int ret = wr_charstr(sb, c);

		if (ret)
			return ret;
		if (cur_left(c))
			sb_putc(sb, ' ');
	}
	return 0;
}

static int wr_salt(struct sbuf *sb, struct rdcur *c)
{
	size_t n;

	if (!cur_need(c, 1) || !cur_need(c, 1 + (size_t)c->p[0]))
		return DT_ETRUNC;
	n = *c->p++;
	if (n == 0)
		sb_putc(sb, '-');
	else
		sb_hex(sb, c->p, n, false);
	c->p += n;
	return 0;
}

static int wr_hash(struct sbuf *sb, struct rdcur *c)
{
	size_t n;

	if (!cur_need(c, 1) || !cur_need(c, 1 + (size_t)c->p[0]))
		return DT_ETRUNC;
	n = *c->p++;
	if (n == 0)
		return NO_TEXT;
	if (!sb->err)
		sb_commit(sb, wire_b32hex_encode(c->p, n, sb_tail(sb),
						 sb_room(sb)));
	c->p += n;
	return 0;
}

/* Digests (DS, TLSA, SSHFP...) in uppercase hex, as BIND and RFC 4034
 * §5.3 print them. Empty would be no token at all. */
static int wr_hex(struct sbuf *sb, struct rdcur *c)
{
	if (!cur_left(c))
		return NO_TEXT;
	sb_hex(sb, c->p, cur_left(c), true);
	c->p = c->end;
	return 0;
}

static int wr_b64(struct sbuf *sb, struct rdcur *c)
{
	if (!cur_left(c))
		return NO_TEXT;
	if (!sb->err)
		sb_commit(sb, wire_b64_encode(c->p, cur_left(c), sb_tail(sb),
					      sb_room(sb)));
	c->p = c->end;
	return 0;
}

/* True when a checked bitmap is in the only form a type list reads back
 * as: no window ends in a zero octet (RFC 4034 §4.1.2 requires that;
 * it also rules out empty windows), and type 0 (which has no mnemonic
 * the reader takes) is absent. */
static bool bitmap_is_canonical(const uint8_t *bm, size_t len)
{
	size_t pos = 0;

	while (pos + 2 <= len) {
		size_t wlen = bm[pos + 1];

		if (wlen == 0 || pos + 2 + wlen > len ||
		    bm[pos + 1 + wlen] == 0)
			return false;
		pos += 2 + wlen;
	}
	return pos == len && !(len > 2 && bm[0] == 0 && (bm[2] & 0x80));
}

struct typelist {
	struct sbuf *sb;
	bool first;
};

static int wr_bitmap_type(uint16_t type, void *arg)
{
	struct typelist *tl = arg;
	char tbuf[16];

	if (!tl->first)
		sb_putc(tl->sb, ' ');
	tl->first = false;
	sb_puts(tl->sb, wire_type_to_str(type, tbuf));
	return tl->sb->err;
}

static int wr_bitmap(struct sbuf *sb, struct rdcur *c)
{
	struct typelist tl = {sb, true};
	size_t len = cur_left(c);

	if (wire_bitmap_check(c->p, len) < 0)
		return DT_EBITMAP;
	if (!bitmap_is_canonical(c->p, len))
		return NO_TEXT;
	wire_bitmap_foreach(c->p, len, wr_bitmap_type, &tl);
	c->p = c->end;
	return 0;
}

typedef int (*field_writer)(struct sbuf *sb, struct rdcur *c);

static const field_writer field_writers[] = {
	[WIRE_F_NAME_C] = wr_name,	 [WIRE_F_NAME_L] = wr_name,
	[WIRE_F_NAME] = wr_name,	 [WIRE_F_U8] = wr_u8,
	[WIRE_F_ALG] = wr_u8,
	[WIRE_F_U16] = wr_u16,		 [WIRE_F_U32] = wr_u32,
	[WIRE_F_TTL] = wr_u32,		 [WIRE_F_TYPE] = wr_type,
	[WIRE_F_TIME] = wr_time,	 [WIRE_F_A] = wr_a,
	[WIRE_F_AAAA] = wr_aaaa,	 [WIRE_F_CHARSTR] = wr_charstr,
	[WIRE_F_CHARSTRS] = wr_charstrs, [WIRE_F_SALT] = wr_salt,
	[WIRE_F_HASH] = wr_hash,	 [WIRE_F_HEX] = wr_hex,
	[WIRE_F_B64] = wr_b64,		 [WIRE_F_BITMAP] = wr_bitmap,
	[WIRE_F_TAG] = wr_tag,		 [WIRE_F_TEXT] = wr_text,
	[WIRE_F_LOC] = wr_loc,		 [WIRE_F_SVCPARAMS] = wr_svcparams,
};

static field_writer field_writer_get(uint8_t field)
{
	if (field >= sizeof(field_writers) / sizeof(field_writers[0]))
		return NULL;
	return field_writers[field];
}

/* Writes RDATA field by field, one space between fields. Returns 0, or
 * non-zero when the RDATA needs the generic form (sb->err aside). */
static int fields_to_str(struct sbuf *sb, const struct wire_rdesc *d,
			 const uint8_t *rdata, size_t rdlen)
{
	struct rdcur c = {rdata, rdata + rdlen};

	for (size_t i = 0; i < WIRE_RDESC_MAXFIELDS && d->fields[i]; i++) {
		field_writer wr = field_writer_get(d->fields[i]);
		size_t mark = sb->len, body;
		int ret;

		if (!wr)
			return DT_ERDATA;
		if (i > 0)
			sb_putc(sb, ' ');
		body = sb->len;
		ret = wr(sb, &c);
		if (ret || sb->err)
			return ret;
		/* an empty bitmap writes nothing: drop its separator */
		if (sb->len == body)
			sb_truncate(sb, mark);
	}
	return c.p == c.end ? 0 : DT_ETRAIL;
}

/* RFC 3597 §5: "\# len hex", "\# 0" for empty RDATA. */
static void generic_to_str(struct sbuf *sb, const uint8_t *rdata, size_t rdlen)
{
	sb_printf(sb, "\\# %zu", rdlen);
	if (rdlen) {
		sb_putc(sb, ' ');
		sb_hex(sb, rdata, rdlen, false);
	}
}

int wire_rdata_to_str(uint16_t type, const uint8_t *rdata, size_t rdlen,
		      char *buf, size_t buflen)
{
	const struct wire_rdesc *d = wire_rdesc_get(type);
	struct sbuf sb;

	if (rdlen > DT_RDATA_MAXLEN)
		return DT_ERDATA;
	sb_init(&sb, buf, buflen);
	if (sb.err)
		return sb.err;
	if (d && wire_rdata_check(type, rdata, rdlen) == 0) {
		int ret = fields_to_str(&sb, d, rdata, rdlen);

		if (sb.err)
			return sb.err;
		if (ret == 0)
			return (int)sb.len;
		sb_truncate(&sb, 0);
	}
	generic_to_str(&sb, rdata, rdlen);
	return sb.err ? sb.err : (int)sb.len;
}

int wire_rr_to_str(const struct wire_rr *rr, char *buf, size_t buflen)
{
	char tbuf[16], cbuf[16];
	struct sbuf sb;
	int ret;

	sb_init(&sb, buf, buflen);
	if (!sb.err)
		sb_commit(&sb, wire_dname_to_str(rr->owner, sb_tail(&sb),
						 sb_room(&sb)));
	sb_printf(&sb, "\t%lu\t%s\t%s\t", (unsigned long)rr->ttl,
		  wire_class_to_str(rr->rclass, cbuf),
		  wire_type_to_str(rr->type, tbuf));
	if (sb.err)
		return sb.err;
	ret = wire_rdata_to_str(rr->type, rr->rdata, rr->rdlen, sb_tail(&sb),
				sb_room(&sb));
	if (ret < 0)
		return ret;
	return (int)(sb.len + (size_t)ret);
}
