/* SPDX-License-Identifier: MIT */
/*
 * Zone-file reader (RFC 1035 §5, RFC 2308 §4 $TTL, RFC 3597 §5 "\#").
 *
 * Two stages. The lexer cuts the text into logical records: tokens
 * (bare or quoted, escapes kept) up to the end of a line outside
 * parentheses, each token with its line number. The parser reads owner,
 * TTL, class and type, then walks the type's field layout from
 * wire_rdesc_get() once, with one parser per field kind, so that no type
 * has code of its own. "\# len hex" is accepted for every type and the
 * result is checked with wire_rdata_check().
 *
 * Errors stop the reader; the message is "file:line: what (near 'token')".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/errcode.h"
#include "common/file.h"
#include "common/limits.h"
#include "wire/base.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/loc.h"
#include "wire/rr.h"
#include "wire/svcb.h"
#include "wire/zone.h"

/* Error message: file name, line, reason and a clipped token. */
#define ZR_ERR_MAXLEN 512
/* Characters of the offending token quoted in an error message. */
#define ZR_NEAR_MAXLEN 40
/* RFC 1035 §3.3: a <character-string> is at most 255 octets. */
#define ZR_CHARSTR_MAXLEN 255
/* RFC 5155 §3.2: salt and hash lengths are one octet. */
#define ZR_U8LEN_MAX 255
/* Characters in YYYYMMDDHHmmSS (RFC 4034 §3.2). */
#define ZR_DATE_LEN 14
/* SvcParams in one SVCB or HTTPS record read from text: RFC 9460 and its
 * successors define 9 keys, and each may appear once. */
#define ZR_SVC_MAXPARAMS 64

struct ztok {
	const char *s; /* escapes kept; quotes removed */
	size_t len;
	unsigned line;
	bool quoted;
};

struct wire_zreader {
	char *text;
	size_t len;
	size_t pos;    /* next character to lex */
	unsigned line; /* line of text[pos] */
	char *fname;

	int err; /* sticky: 0 or the error every later call returns */
	unsigned err_line;
	unsigned rec_line;
	char errmsg[ZR_ERR_MAXLEN];

	bool has_origin;
	bool has_owner;
	bool has_dollar_ttl;
	uint8_t origin[DT_NAME_MAXLEN];
	uint8_t owner[DT_NAME_MAXLEN];
	uint32_t dollar_ttl;
	uint32_t default_ttl;
	uint16_t last_class;
	bool lax; /* wire_zreader_set_lax() */

	/* the logical record being read */
	bool blank_owner;
	struct ztok *toks;
	size_t ntoks;
	size_t tokcap;
	char *scratch; /* concatenated tokens of hex and base64 fields */
	size_t scratchcap;
	uint16_t types[DT_ZONE_MAXTOKENS];
	uint8_t rdata[DT_RDATA_MAXLEN];
};

/* Parser state for one record: the tokens not consumed yet. */
struct zcur {
	struct wire_zreader *zr;
	const struct ztok *tok;
	const struct ztok *end;
	uint16_t type;
	size_t rdlen;
	char tname[16];
};

/* --- errors --- */

/* Copies at most ZR_NEAR_MAXLEN characters, non-printables as '?'. */
static void clip_near(char *out, size_t outlen, const char *s, size_t len)
{
	size_t n = len < ZR_NEAR_MAXLEN ? len : ZR_NEAR_MAXLEN;
	size_t i;

	for (i = 0; i < n && i + 4 < outlen; i++)
		out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (n < len && i + 4 < outlen) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = '\0';
}

/* Records the sticky error and its message; returns err. */
__attribute__((format(printf, 6, 7))) static int
zr_fail_at(struct wire_zreader *zr, int err, unsigned line, const char *near,
	   size_t nearlen, const char *fmt, ...)
{
	char what[256], clip[ZR_NEAR_MAXLEN + 4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	clip_near(clip, sizeof(clip), near, nearlen);
	snprintf(zr->errmsg, sizeof(zr->errmsg), "%s:%u: %s (near '%s')",
		 zr->fname, line, what, clip);
	zr->err = err;
	zr->err_line = line;
	return err;
}

#define zr_fail(zr, err, tok, ...)                                             \
	zr_fail_at((zr), (err), (tok)->line, (tok)->s, (tok)->len, __VA_ARGS__)

/* --- lexer --- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool ends_bare(char c)
{
	return is_blank(c) || c == '\n' || c == ';' || c == '(' || c == ')' ||
	       c == '"';
}

static int lex_fail_here(struct wire_zreader *zr, int err, const char *what)
{
	const char *s = zr->text + zr->pos;
	const char *nl = memchr(s, '\n', zr->len - zr->pos);
	size_t n = nl ? (size_t)(nl - s) : zr->len - zr->pos;

	return zr_fail_at(zr, err, zr->line, s, n, "%s", what);
}

static int lex_push(struct wire_zreader *zr, const char *s, size_t len,
		    bool quoted)
{
	struct ztok *t;

	if (len > DT_ZONE_TOKEN_MAXLEN)
		return zr_fail_at(zr, DT_ELIMIT, zr->line, s, len,
				  "token longer than %d characters",
				  DT_ZONE_TOKEN_MAXLEN);
	if (zr->ntoks == DT_ZONE_MAXTOKENS)
		return zr_fail_at(zr, DT_ELIMIT, zr->line, s, len,
				  "more than %d tokens in one record",
				  DT_ZONE_MAXTOKENS);
	if (zr->ntoks &&
	    (size_t)(s + len - zr->toks[0].s) > DT_ZONE_RECORD_MAXLEN)
		return zr_fail_at(zr, DT_ELIMIT, zr->line, s, len,
				  "record longer than %d characters",
				  DT_ZONE_RECORD_MAXLEN);
	if (zr->ntoks == zr->tokcap) {
		size_t cap = zr->tokcap ? zr->tokcap * 2 : 64;
		struct ztok *nt = realloc(zr->toks, cap * sizeof(*nt));

		if (!nt)
			return zr_fail_at(zr, -ENOMEM, zr->line, s, len,
					  "out of memory");
		zr->toks = nt;
		zr->tokcap = cap;
	}
	t = &zr->toks[zr->ntoks++];
	*t = (struct ztok){s, len, zr->line, quoted};
	return 0;
}

/* Checks the character after a backslash at text[p]. */
static int lex_escape_ok(struct wire_zreader *zr, size_t p)
{
	if (p == zr->len || zr->text[p] == '\n')
		return lex_fail_here(zr, DT_ESYNTAX,
				     "backslash at end of line");
	if (zr->text[p] == '\0')
		return lex_fail_here(zr, DT_ESYNTAX, "NUL character");
	return 0;
}

static int lex_bare(struct wire_zreader *zr)
{
	const char *t = zr->text;
	size_t start = zr->pos, p = start;

	while (p < zr->len && !ends_bare(t[p])) {
		if (t[p] == '\0')
			return lex_fail_here(zr, DT_ESYNTAX, "NUL character");
		if (t[p] == '\\' && lex_escape_ok(zr, ++p) < 0)
			return zr->err;
		p++;
	}
	zr->pos = p;
	return lex_push(zr, t + start, p - start, false);
}

static int lex_quoted(struct wire_zreader *zr)
{
	const char *t = zr->text;
	size_t start = zr->pos + 1, p = start;

	while (p < zr->len && t[p] != '"') {
		if (t[p] == '\n')
			return lex_fail_here(
				zr, DT_ESYNTAX,
				"quoted string not closed on its line");
		if (t[p] == '\0')
			return lex_fail_here(zr, DT_ESYNTAX, "NUL character");
		if (t[p] == '\\' && lex_escape_ok(zr, ++p) < 0)
			return zr->err;
		p++;
	}
	if (p >= zr->len)
		return lex_fail_here(zr, DT_ESYNTAX,
				     "quoted string not closed");
	zr->pos = p + 1;
	return lex_push(zr, t + start, p - start, true);
}

static void lex_comment(struct wire_zreader *zr)
{
	const char *nl = memchr(zr->text + zr->pos, '\n', zr->len - zr->pos);

	zr->pos = nl ? (size_t)(nl - zr->text) : zr->len;
}

/* Handles '(' and ')': one level only, as RFC 1035 §5.1 describes. */
static int lex_paren(struct wire_zreader *zr, unsigned *open_line)
{
	char c = zr->text[zr->pos];

	if (c == '(' && *open_line)
		return lex_fail_here(zr, DT_ESYNTAX, "nested '('");
	if (c == ')' && !*open_line)
		return lex_fail_here(zr, DT_ESYNTAX, "')' without '('");
	*open_line = c == '(' ? zr->line : 0;
	zr->pos++;
	return 0;
}

/* Reads the tokens of one logical line: up to a newline outside
 * parentheses, or the end of the text. */
static int lex_logical_line(struct wire_zreader *zr)
{
	unsigned open_line = 0;
	int ret = 0;

	while (zr->pos < zr->len && ret == 0) {
		char c = zr->text[zr->pos];

		if (c == '\n') {
			zr->line++;
			zr->pos++;
			if (!open_line)
				return 0;
		} else if (is_blank(c)) {
			zr->pos++;
		} else if (c == ';') {
			lex_comment(zr);
		} else if (c == '(' || c == ')') {
			ret = lex_paren(zr, &open_line);
		} else if (c == '"') {
			ret = lex_quoted(zr);
		} else {
			ret = lex_bare(zr);
		}
	}
	if (ret == 0 && open_line)
		return zr_fail_at(zr, DT_ESYNTAX, open_line, "(", 1,
				  "'(' not closed before the end of the text");
	return ret;
}

/* Returns 1 with the next non-empty logical line in zr->toks, 0 at the
 * end of the text, or an error. */
static int lex_record(struct wire_zreader *zr)
{
	while (zr->pos < zr->len) {
		int ret;

		zr->ntoks = 0;
		zr->blank_owner = is_blank(zr->text[zr->pos]);
		ret = lex_logical_line(zr);
		if (ret < 0)
			return ret;
		if (zr->ntoks)
			return 1;
	}
	return 0;
}

/* --- numbers, times, addresses --- */

static bool is_alnum(uint8_t o)
{
	return (o >= '0' && o <= '9') || (o >= 'a' && o <= 'z') ||
	       (o >= 'A' && o <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal number of at most max; DT_ESYNTAX or DT_ERANGE. */
static int parse_uint(const char *s, size_t len, uint32_t max, uint32_t *ret)
{
	uint64_t v = 0;

	if (len == 0)
		return DT_ESYNTAX;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return DT_ESYNTAX;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > max)
			return DT_ERANGE;
	}
	*ret = (uint32_t)v;
	return 0;
}

static uint32_t ttl_unit(char c)
{
	switch (c) {
	case 'w':
	case 'W': return 604800;
	case 'd':
	case 'D': return 86400;
	case 'h':
	case 'H': return 3600;
	case 'm':
	case 'M': return 60;
	case 's':
	case 'S': return 1;
	}
	return 0;
}

/* A TTL: plain seconds, or number-unit pairs such as 1w2d3h4m5s (the
 * BIND syntax; a trailing number without a unit is refused there too). */
static int parse_ttl(const char *s, size_t len, uint32_t *ret)
{
	uint64_t total = 0, num = 0;
	bool digits = false, units = false;

	for (size_t i = 0; i < len; i++) {
		uint32_t mult = ttl_unit(s[i]);

		if (is_digit(s[i])) {
			num = num * 10 + (uint64_t)(s[i] - '0');
			if (num > UINT32_MAX)
				return DT_ERANGE;
			digits = true;
			continue;
		}
		if (!mult || !digits)
			return DT_ESYNTAX;
		total += num * mult;
		if (total > UINT32_MAX)
			return DT_ERANGE;
		num = 0;
		digits = false;
		units = true;
	}
	if (digits == units)
		return DT_ESYNTAX; /* empty, or digits left after a unit */
	*ret = (uint32_t)(units ? total : num);
	return 0;
}

/* Days from 1970-01-01 to a proleptic Gregorian date, year >= 1970 (the
 * days_from_civil algorithm of H. Hinnant): no timegm(), no time zone. */
static uint64_t days_from_civil(uint32_t y, uint32_t m, uint32_t d)
{
	uint32_t era, yoe, doy, doe;

	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (uint64_t)era * 146097 + doe - 719468;
}

static uint32_t days_in_month(uint32_t y, uint32_t m)
{
	static const uint8_t mdays[12] = {31, 28, 31, 30, 31, 30,
					  31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return mdays[m - 1] + (m == 2 && leap);
}

static uint32_t date_part(const char *s, size_t n)
{
	uint32_t v = 0;

	while (n--)
		v = v * 10 + (uint32_t)(*s++ - '0');
	return v;
}

/* RFC 4034 §3.2: YYYYMMDDHHmmSS (UTC, 1970-01-01 to 2106-02-07, the
 * range of the 32-bit field), or seconds since 1970 as a decimal number. */
static int parse_time(const char *s, size_t len, uint32_t *ret)
{
	uint32_t y, mo, d, h, mi, sec;
	uint64_t t;

	if (len != ZR_DATE_LEN)
		return parse_uint(s, len, UINT32_MAX, ret);
	for (size_t i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return DT_ESYNTAX;
	y = date_part(s, 4);
	mo = date_part(s + 4, 2);
	d = date_part(s + 6, 2);
	h = date_part(s + 8, 2);
	mi = date_part(s + 10, 2);
	sec = date_part(s + 12, 2);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 ||
	    d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59)
		return DT_ERANGE;
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	if (t > UINT32_MAX)
		return DT_ERANGE;
	*ret = (uint32_t)t;
	return 0;
}

/* Dotted quad as inet_pton() takes it: exactly four decimal parts of
 * 0..255, no leading zeros, nothing else. */
static int parse_ipv4(const char *s, size_t len, uint8_t out[4])
{
	unsigned part = 0, v = 0;
	bool digit = false;

	for (size_t i = 0; i < len; i++) {
		if (is_digit(s[i])) {
			if (digit && v == 0)
				return DT_ESYNTAX;
			v = v * 10 + (unsigned)(s[i] - '0');
			if (v > 255)
				return DT_ESYNTAX;
			digit = true;
		} else if (s[i] == '.' && digit && part < 3) {
			out[part++] = (uint8_t)v;
			v = 0;
			digit = false;
		} else {
			return DT_ESYNTAX;
		}
	}
	if (!digit || part != 3)
		return DT_ESYNTAX;
	out[3] = (uint8_t)v;
	return 0;
}

static int parse_ipv6(const char *s, size_t len, uint8_t out[16])
{
	char buf[INET6_ADDRSTRLEN];

	if (len >= sizeof(buf))
		return DT_ESYNTAX;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return inet_pton(AF_INET6, buf, out) == 1 ? 0 : DT_ESYNTAX;
}

/* --- tokens --- */

static bool tok_is(const struct ztok *t, const char *word)
{
	return !t->quoted && t->len == strlen(word) &&
	       strncasecmp(t->s, word, t->len) == 0;
}

static const char *name_err_text(int err)
{
	switch (err) {
	case DT_ERELATIVE: return "relative name and no $ORIGIN";
	case DT_ELABEL: return "label longer than 63 octets";
	case DT_ENAMELEN: return "name longer than 255 octets";
	}
	return "bad name (escape or empty label)";
}

static int parse_name_tok(struct wire_zreader *zr, const struct ztok *t,
			  const char *what, uint8_t out[DT_NAME_MAXLEN])
{
	int ret;

	if (t->quoted)
		return zr_fail(zr, DT_ESYNTAX, t, "quoted %s", what);
	ret = wire_dname_from_str(t->s, t->len,
				  zr->has_origin ? zr->origin : NULL, out);
	if (ret < 0)
		return zr_fail(zr, ret, t, "%s: %s", what, name_err_text(ret));
	return ret;
}

/* Resolves \c and \DDD of a token into at most cap octets at out. */
static int unescape_to(struct wire_zreader *zr, const struct ztok *t,
		       uint8_t *out, size_t cap, size_t *ret_len)
{
	size_t n = 0;

	for (size_t i = 0; i < t->len; i++) {
		unsigned v = (uint8_t)t->s[i];

		if (v == '\\' && i + 1 < t->len && is_digit(t->s[i + 1])) {
			if (i + 3 >= t->len || !is_digit(t->s[i + 2]) ||
			    !is_digit(t->s[i + 3]))
				return zr_fail(zr, DT_ESYNTAX, t,
					       "\\DDD needs three digits");
			v = date_part(t->s + i + 1, 3);
			if (v > 255)
				return zr_fail(zr, DT_ERANGE, t,
					       "\\DDD escape above 255");
			i += 3;
		} else if (v == '\\' && i + 1 < t->len) {
			v = (uint8_t)t->s[++i];
		}
		if (n == cap && cap == ZR_CHARSTR_MAXLEN)
			return zr_fail(zr, DT_ERANGE, t,
				       "character-string longer than %d octets",
				       ZR_CHARSTR_MAXLEN);
		if (n == cap)
			return zr_fail(zr, DT_ELIMIT, t,
				       "string longer than the %zu octets left "
				       "in the RDATA",
				       cap);
		out[n++] = (uint8_t)v;
	}
	*ret_len = n;
	return 0;
}

/* A <character-string> token (RFC 1035 §3.3: at most 255 octets). */
static int unescape(struct wire_zreader *zr, const struct ztok *t,
		    uint8_t out[ZR_CHARSTR_MAXLEN], size_t *ret_len)
{
	return unescape_to(zr, t, out, ZR_CHARSTR_MAXLEN, ret_len);
}

/* --- RDATA fields: one parser per enum wire_field --- */

static const struct ztok *last_tok(const struct zcur *c)
{
	return &c->zr->toks[c->zr->ntoks - 1];
}

static int next_tok(struct zcur *c, const struct ztok **ret)
{
	if (c->tok == c->end)
		return zr_fail(c->zr, DT_ETRUNC, last_tok(c),
			       "too few fields for %s", c->tname);
	*ret = c->tok++;
	return 0;
}

/* Takes the next token, which must not be quoted. */
static int next_bare(struct zcur *c, const struct ztok **ret)
{
	int err = next_tok(c, ret);

	if (err == 0 && (*ret)->quoted)
		return zr_fail(c->zr, DT_ESYNTAX, *ret,
			       "quoted string not allowed here in %s",
			       c->tname);
	return err;
}

static int rd_put(struct zcur *c, const struct ztok *t, const void *p, size_t n)
{
	if (n > DT_RDATA_MAXLEN - c->rdlen)
		return zr_fail(c->zr, DT_ELIMIT, t,
			       "RDATA of %s longer than %d octets", c->tname,
			       DT_RDATA_MAXLEN);
	memcpy(c->zr->rdata + c->rdlen, p, n);
	c->rdlen += n;
	return 0;
}

static int rd_put_uint(struct zcur *c, const struct ztok *t, uint32_t v,
		       size_t n)
{
	uint8_t be[4];

	for (size_t i = 0; i < n; i++)
		be[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	return rd_put(c, t, be, n);
}

static int rd_name(struct zcur *c)
{
	uint8_t name[DT_NAME_MAXLEN];
	const struct ztok *t = NULL;
	int ret = next_tok(c, &t);

	if (ret == 0)
		ret = parse_name_tok(c->zr, t, "name in RDATA", name);
	return ret < 0 ? ret : rd_put(c, t, name, (size_t)ret);
}

static int rd_uint(struct zcur *c, size_t n)
{
	uint32_t max = n == 4 ? UINT32_MAX : (1u << (8 * n)) - 1, v;
	const struct ztok *t = NULL;
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	ret = parse_uint(t->s, t->len, max, &v);
	if (ret < 0)
		return zr_fail(c->zr, ret, t, "bad number for %s (0..%lu)",
			       c->tname, (unsigned long)max);
	return rd_put_uint(c, t, v, n);
}

static int rd_u8(struct zcur *c)
{
	return rd_uint(c, 1);
}

/* The DNSSEC algorithm mnemonics of RFC 4034 App. A.1 and the RFCs that
 * added algorithms since (5155, 5702, 5933, 6605, 8080). */
static const struct {
	const char *name;
	uint8_t num;
} alg_names[] = {
	{"RSAMD5", 1},	       {"DH", 2},
	{"DSA", 3},	       {"RSASHA1", 5},
	{"DSA-NSEC3-SHA1", 6}, {"RSASHA1-NSEC3-SHA1", 7},
	{"RSASHA256", 8},      {"RSASHA512", 10},
	{"ECC-GOST", 12},      {"ECDSAP256SHA256", 13},
	{"ECDSAP384SHA384", 14}, {"ED25519", 15},
	{"ED448", 16},	       {"INDIRECT", 252},
	{"PRIVATEDNS", 253},   {"PRIVATEOID", 254},
};

/* An algorithm field: a number, or a mnemonic (case-insensitive). */
static int rd_alg(struct zcur *c)
{
	const struct ztok *t = NULL;
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < sizeof(alg_names) / sizeof(alg_names[0]); i++) {
		const char *n = alg_names[i].name;
		if (strlen(n) == t->len && strncasecmp(n, t->s, t->len) == 0)
			return rd_put_uint(c, t, alg_names[i].num, 1);
	}
	c->tok--; /* a number, read as any 8-bit field */
	return rd_uint(c, 1);
}

static int rd_u16(struct zcur *c)
{
	return rd_uint(c, 2);
}

static int rd_u32(struct zcur *c)
{
	return rd_uint(c, 4);
}

static int rd_ttl(struct zcur *c)
{
	const struct ztok *t = NULL;
	uint32_t v;
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	ret = parse_ttl(t->s, t->len, &v);
	if (ret < 0)
		return zr_fail(c->zr, ret, t, "bad TTL in %s", c->tname);
	return rd_put_uint(c, t, v, 4);
}

static int rd_type(struct zcur *c)
{
	const struct ztok *t = NULL;
	uint16_t v;
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	if (wire_type_from_str(t->s, t->len, &v) < 0)
		return zr_fail(c->zr, DT_ETYPE, t, "unknown type in %s",
			       c->tname);
	return rd_put_uint(c, t, v, 2);
}

static int rd_time(struct zcur *c)
{
	const struct ztok *t = NULL;
	uint32_t v;
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	ret = parse_time(t->s, t->len, &v);
	if (ret < 0)
		return zr_fail(c->zr, ret, t,
			       "bad time in %s (YYYYMMDDHHmmSS or seconds)",
			       c->tname);
	return rd_put_uint(c, t, v, 4);
}

static int rd_a(struct zcur *c)
{
	const struct ztok *t = NULL;
	uint8_t a[4];
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	if (parse_ipv4(t->s, t->len, a) < 0)
		return zr_fail(c->zr, DT_ESYNTAX, t, "bad IPv4 address in %s",
			       c->tname);
	return rd_put(c, t, a, sizeof(a));
}

static int rd_aaaa(struct zcur *c)
{
	const struct ztok *t = NULL;
	uint8_t a[16];
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	if (parse_ipv6(t->s, t->len, a) < 0)
		return zr_fail(c->zr, DT_ESYNTAX, t, "bad IPv6 address in %s",
			       c->tname);
	return rd_put(c, t, a, sizeof(a));
}

static int rd_charstr(struct zcur *c)
{
	uint8_t s[1 + ZR_CHARSTR_MAXLEN];
	const struct ztok *t = NULL;
	size_t n = 0;
	int ret = next_tok(c, &t);

	if (ret == 0)
		ret = unescape(c->zr, t, s + 1, &n);
	if (ret < 0)
		return ret;
	s[0] = (uint8_t)n;
	return rd_put(c, t, s, n + 1);
}

static int rd_charstrs(struct zcur *c)
{
	int ret = rd_charstr(c);

	while (ret == 0 && c->tok < c->end)
		ret = rd_charstr(c);
	return ret;
}

typedef int (*decoder)(const char *in, size_t inlen, uint8_t *out,
		       size_t outcap);

/* Decodes one token into a one-octet length and the octets (SALT, HASH). */
static int rd_lenbytes(struct zcur *c, const struct ztok *t, decoder dec,
		       const char *what)
{
	uint8_t buf[1 + ZR_U8LEN_MAX];
	int n = dec(t->s, t->len, buf + 1, ZR_U8LEN_MAX);

	if (n == DT_ESPACE)
		return zr_fail(c->zr, DT_ERANGE, t,
			       "%s in %s longer than %d octets", what, c->tname,
			       ZR_U8LEN_MAX);
	if (n <= 0)
		return zr_fail(c->zr, DT_EBASE64, t, "bad %s in %s", what,
			       c->tname);
	buf[0] = (uint8_t)n;
	return rd_put(c, t, buf, (size_t)n + 1);
}

static int rd_salt(struct zcur *c)
{
	const struct ztok *t = NULL;
	int ret = next_bare(c, &t);

	if (ret < 0)
		return ret;
	if (t->len == 1 && t->s[0] == '-')
		return rd_put(c, t, "", 1);
	return rd_lenbytes(c, t, wire_hex_decode, "hex salt");
}

static int rd_hash(struct zcur *c)
{
	const struct ztok *t = NULL;
	int ret = next_bare(c, &t);

	return ret < 0 ? ret
		       : rd_lenbytes(c, t, wire_b32hex_decode,
				     "base32hex hash");
}

/* Makes zr->scratch hold at least n octets. */
static int scratch_reserve(struct zcur *c, const struct ztok *t, size_t n)
{
	char *ns;

	if (n <= c->zr->scratchcap)
		return 0;
	ns = realloc(c->zr->scratch, n);
	if (!ns)
		return zr_fail(c->zr, -ENOMEM, t, "out of memory");
	c->zr->scratch = ns;
	c->zr->scratchcap = n;
	return 0;
}

/* Concatenates the remaining tokens (at least one) into zr->scratch, with
 * sep between them when it is not NUL: tools split base64 and hex over
 * several tokens at any character. */
static int concat_rest(struct zcur *c, char sep, const struct ztok **ret_first,
		       size_t *ret_len)
{
	const struct ztok *t = NULL;
	size_t total = 0;
	int ret = next_bare(c, ret_first);

	if (ret < 0)
		return ret;
	for (t = *ret_first; t < c->end; t++) {
		if (t->quoted)
			return zr_fail(c->zr, DT_ESYNTAX, t,
				       "quoted string not allowed here in %s",
				       c->tname);
		total += t->len + 1;
	}
	ret = scratch_reserve(c, *ret_first, total);
	if (ret < 0)
		return ret;
	total = 0;
	for (t = *ret_first; t < c->end; t++) {
		if (sep && t > *ret_first)
			c->zr->scratch[total++] = sep;
		memcpy(c->zr->scratch + total, t->s, t->len);
		total += t->len;
	}
	c->tok = c->end;
	*ret_len = total;
	return 0;
}

/* Decodes the rest of the record into the rest of the RDATA. */
static int rd_rest(struct zcur *c, decoder dec, const char *what)
{
	const struct ztok *first = NULL;
	size_t len = 0;
	int n = concat_rest(c, '\0', &first, &len);

	if (n < 0)
		return n;
	n = dec(c->zr->scratch, len, c->zr->rdata + c->rdlen,
		DT_RDATA_MAXLEN - c->rdlen);
	if (n == DT_ESPACE)
		return zr_fail(c->zr, DT_ELIMIT, first,
			       "RDATA of %s longer than %d octets", c->tname,
			       DT_RDATA_MAXLEN);
	if (n < 0)
		return zr_fail(c->zr, DT_EBASE64, first, "bad %s in %s", what,
			       c->tname);
	c->rdlen += (size_t)n;
	return 0;
}

static int rd_hex(struct zcur *c)
{
	return rd_rest(c, wire_hex_decode, "hex");
}

/* wire_zreader_set_lax(): the padding is what the last quantum needs,
 * whatever the text has ("UNUSABLE==" reads as "UNUSABLE", "AAA" as
 * "AAA="), as ldns and Python read them. */
static int b64_decode_lax(const char *in, size_t inlen, uint8_t *out,
			  size_t outcap)
{
	size_t pad = 0, base;
	char *t;
	int n;

	while (pad < inlen && in[inlen - 1 - pad] == '=')
		pad++;
	base = inlen - pad;
	if (base % 4 == 1)
		return DT_EBASE64;
	t = malloc(base + 3);
	if (!t)
		return -ENOMEM;
	memcpy(t, in, base);
	while (base % 4)
		t[base++] = '=';
	n = wire_b64_decode(t, base, out, outcap);
	free(t);
	return n;
}

static int rd_b64(struct zcur *c)
{
	return rd_rest(c, c->zr->lax ? b64_decode_lax : wire_b64_decode,
		       "base64");
}

/* A list of type mnemonics, possibly empty (RFC 4034 §4.2, RFC 5155 §3.3). */
static int rd_bitmap(struct zcur *c)
{
	struct wire_zreader *zr = c->zr;
	const struct ztok *first = c->tok;
	size_t n = 0;
	int len;

	for (; c->tok < c->end; c->tok++) {
		if (c->tok->quoted ||
		    wire_type_from_str(c->tok->s, c->tok->len, &zr->types[n]))
			return zr_fail(zr, DT_ETYPE, c->tok,
				       "unknown type in the bitmap of %s",
				       c->tname);
		n++;
	}
	len = wire_bitmap_build(zr->types, n, zr->rdata + c->rdlen,
				DT_RDATA_MAXLEN - c->rdlen);
	if (len < 0)
		return zr_fail(zr, DT_ELIMIT, n ? first : last_tok(c),
			       "RDATA of %s longer than %d octets", c->tname,
			       DT_RDATA_MAXLEN);
	c->rdlen += (size_t)len;
	return 0;
}

/* A CAA tag: one bare word of letters and digits (RFC 8659 §4.1). */
static int rd_tag(struct zcur *c)
{
	uint8_t s[1 + ZR_CHARSTR_MAXLEN];
	const struct ztok *t = NULL;
	size_t n = 0;
	int ret = next_bare(c, &t);

	if (ret == 0)
		ret = unescape(c->zr, t, s + 1, &n);
	if (ret < 0)
		return ret;
	for (size_t i = 1; i <= n; i++)
		if (!is_alnum(s[i]))
			n = 0;
	if (n == 0)
		return zr_fail(c->zr, DT_ESYNTAX, t,
			       "the tag of %s is letters and digits", c->tname);
	s[0] = (uint8_t)n;
	return rd_put(c, t, s, n + 1);
}

/* The rest of the RDATA as one string, quoted or not, possibly empty. */
static int rd_text(struct zcur *c)
{
	const struct ztok *t = NULL;
	size_t n = 0;
	int ret = next_tok(c, &t);

	if (ret == 0)
		ret = unescape_to(c->zr, t, c->zr->rdata + c->rdlen,
				  DT_RDATA_MAXLEN - c->rdlen, &n);
	if (ret < 0)
		return ret;
	c->rdlen += n;
	return 0;
}

static int rd_loc(struct zcur *c)
{
	const struct ztok *first = NULL;
	uint8_t loc[WIRE_LOC_LEN];
	size_t len = 0;
	int ret = concat_rest(c, ' ', &first, &len);

	if (ret < 0)
		return ret;
	ret = wire_loc_from_str(c->zr->scratch, len, loc);
	if (ret < 0)
		return zr_fail(c->zr, ret, first,
			       ret == DT_ERANGE ? "LOC value out of range"
						: "bad LOC: d1 [m1 [s1]] N|S d2 "
						  "[m2 [s2]] E|W alt[m] "
						  "[siz[m] [hp[m] [vp[m]]]]");
	return rd_put(c, first, loc, sizeof(loc));
}

/* One SvcParam read from text, already written at rdata[off]. */
struct svcparam {
	uint16_t key;
	size_t off;
	size_t len; /* key, length and value */
	const struct ztok *t;
};

/* Reads the key of "key", "key=value" or key= "quoted value" and leaves
 * the value, freed of its zone-file escapes, in zr->scratch. */
static int svc_param_text(struct zcur *c, const struct ztok *t,
			  uint16_t *ret_key, size_t *ret_vlen)
{
	const char *eq = memchr(t->s, '=', t->len);
	size_t klen = eq ? (size_t)(eq - t->s) : t->len;
	struct ztok v = {t->s, 0, t->line, false};
	int ret = wire_svc_key_from_str(t->s, klen, ret_key);

	if (ret < 0)
		return zr_fail(c->zr, ret, t,
			       ret == DT_ERANGE ? "key65535 is reserved"
						: "unknown SvcParamKey in %s",
			       c->tname);
	if (eq)
		v = (struct ztok){eq + 1, t->len - klen - 1, t->line, false};
	if (eq && v.len == 0 && c->tok < c->end && c->tok->quoted)
		v = *c->tok++;
	ret = scratch_reserve(c, t, DT_RDATA_MAXLEN);
	if (ret == 0)
		ret = unescape_to(c->zr, &v, (uint8_t *)c->zr->scratch,
				  DT_RDATA_MAXLEN, ret_vlen);
	return ret;
}

/* True when the parameter token spells its key as keyNNNNN: its value is
 * then the wire value itself (RFC 9460 §2.1), whatever the key. */
static bool svc_key_generic(const struct ztok *t)
{
	return t->len > 3 && memcmp(t->s, "key", 3) == 0 && is_digit(t->s[3]);
}

/* Writes one SvcParam at the end of the RDATA. */
static int svc_param_put(struct zcur *c, const struct ztok *t, uint16_t key,
			 size_t vlen, struct svcparam *ret)
{
	uint8_t *at = c->zr->rdata + c->rdlen;
	size_t room = DT_RDATA_MAXLEN - c->rdlen;
	char kbuf[16];
	int len;

	if (room < 4 || (svc_key_generic(t) && vlen > room - 4))
		len = DT_ESPACE;
	else if (svc_key_generic(t))
		len = (int)vlen;
	else
		len = wire_svc_value_from_text(
			key, (const uint8_t *)c->zr->scratch, vlen, at + 4,
			room - 4);
	if (len > 0 && svc_key_generic(t))
		memcpy(at + 4, c->zr->scratch, vlen);
	if (len == DT_ESPACE)
		return zr_fail(c->zr, DT_ELIMIT, t,
			       "RDATA of %s longer than %d octets", c->tname,
			       DT_RDATA_MAXLEN);
	if (len < 0 || !wire_svc_value_ok(key, at + 4, (size_t)len))
		return zr_fail(c->zr, len < 0 ? len : DT_ERDATA, t,
			       "bad value for %s in %s",
			       wire_svc_key_to_str(key, kbuf), c->tname);
	wire_put16(at, key);
	wire_put16(at + 2, (uint16_t)len);
	*ret = (struct svcparam){key, c->rdlen, 4 + (size_t)len, t};
	c->rdlen += 4 + (size_t)len;
	return 0;
}

static const struct svcparam *svc_find(const struct svcparam *p, size_t n,
				       uint16_t key)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].key == key)
			return &p[i];
	return NULL;
}

/* RFC 9460 §8: every key listed in mandatory is present. */
static int svc_check_mandatory(struct zcur *c, const struct svcparam *p,
			       size_t n)
{
	const struct svcparam *m = svc_find(p, n, WIRE_SVC_MANDATORY);
	char kbuf[16];

	for (size_t i = 4; m && i < m->len; i += 2) {
		const uint8_t *k = c->zr->rdata + m->off + i;
		uint16_t key = wire_get16(k);

		if (!svc_find(p, n, key))
			return zr_fail(c->zr, DT_ERDATA, m->t,
				       "mandatory lists %s, absent from %s",
				       wire_svc_key_to_str(key, kbuf),
				       c->tname);
	}
	return 0;
}

/* Sorts the n SvcParams written from rdata[base] by key (RFC 9460 §2.2:
 * strictly increasing on the wire; any order in text). */
static int svc_sort(struct zcur *c, struct svcparam *p, size_t n, size_t base)
{
	size_t i, j, out = 0;
	char kbuf[16];
	int ret;

	for (i = 1; i < n; i++) {
		struct svcparam x = p[i];

		for (j = i; j > 0 && p[j - 1].key > x.key; j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
	for (i = 1; i < n; i++)
		if (p[i].key == p[i - 1].key)
			return zr_fail(c->zr, DT_ESYNTAX, p[i].t,
				       "%s given twice in %s",
				       wire_svc_key_to_str(p[i].key, kbuf),
				       c->tname);
	ret = scratch_reserve(c, p[0].t, c->rdlen - base);
	for (i = 0; ret == 0 && i < n; i++) {
		memcpy(c->zr->scratch + out, c->zr->rdata + p[i].off,
		       p[i].len);
		p[i].off = base + out;
		out += p[i].len;
	}
	if (ret == 0)
		memcpy(c->zr->rdata + base, c->zr->scratch, out);
	return ret;
}

/* SvcParams of SVCB and HTTPS, "key=value" in any order (RFC 9460 §2.1). */
static int rd_svcparams(struct zcur *c)
{
	struct svcparam p[ZR_SVC_MAXPARAMS];
	size_t n = 0, base = c->rdlen, vlen = 0;
	uint16_t key = 0;
	int ret = 0;

	while (ret == 0 && c->tok < c->end) {
		const struct ztok *t = NULL;

		ret = next_bare(c, &t);
		if (ret == 0 && n == ZR_SVC_MAXPARAMS)
			ret = zr_fail(c->zr, DT_ELIMIT, t,
				      "more than %d SvcParams in %s",
				      ZR_SVC_MAXPARAMS, c->tname);
		if (ret == 0)
			ret = svc_param_text(c, t, &key, &vlen);
		if (ret == 0)
			ret = svc_param_put(c, t, key, vlen, &p[n++]);
	}
	if (ret == 0 && n > 1)
		ret = svc_sort(c, p, n, base);
	if (ret == 0)
		ret = svc_check_mandatory(c, p, n);
	return ret;
}

typedef int (*field_parser)(struct zcur *c);

static const field_parser field_parsers[] = {
	[WIRE_F_NAME_C] = rd_name,	 [WIRE_F_NAME_L] = rd_name,
	[WIRE_F_NAME] = rd_name,	 [WIRE_F_U8] = rd_u8,
	[WIRE_F_ALG] = rd_alg,
	[WIRE_F_U16] = rd_u16,		 [WIRE_F_U32] = rd_u32,
	[WIRE_F_TTL] = rd_ttl,		 [WIRE_F_TYPE] = rd_type,
	[WIRE_F_TIME] = rd_time,	 [WIRE_F_A] = rd_a,
	[WIRE_F_AAAA] = rd_aaaa,	 [WIRE_F_CHARSTR] = rd_charstr,
	[WIRE_F_CHARSTRS] = rd_charstrs, [WIRE_F_SALT] = rd_salt,
	[WIRE_F_HASH] = rd_hash,	 [WIRE_F_HEX] = rd_hex,
	[WIRE_F_B64] = rd_b64,		 [WIRE_F_BITMAP] = rd_bitmap,
	[WIRE_F_TAG] = rd_tag,		 [WIRE_F_TEXT] = rd_text,
	[WIRE_F_LOC] = rd_loc,		 [WIRE_F_SVCPARAMS] = rd_svcparams,
};

static int rd_fields(struct zcur *c, const struct wire_rdesc *d)
{
	for (size_t i = 0; i < WIRE_RDESC_MAXFIELDS && d->fields[i]; i++) {
		uint8_t f = d->fields[i];
		int ret;

		if (f >= sizeof(field_parsers) / sizeof(field_parsers[0]) ||
		    !field_parsers[f])
			return zr_fail(c->zr, DT_ERDATA, last_tok(c),
				       "no text form for a field of %s",
				       c->tname);
		ret = field_parsers[f](c);
		if (ret < 0)
			return ret;
	}
	if (c->tok < c->end)
		return zr_fail(c->zr, DT_ETRAIL, c->tok,
			       "too many fields for %s", c->tname);
	return 0;
}

/* RFC 3597 §5: "\# len hex", hex possibly split over several tokens. */
static int rd_generic(struct zcur *c)
{
	const struct ztok *t = NULL;
	uint32_t want;
	int ret;

	c->tok++; /* the "\#" */
	ret = next_bare(c, &t);
	if (ret < 0)
		return ret;
	ret = parse_uint(t->s, t->len, DT_RDATA_MAXLEN, &want);
	if (ret < 0)
		return zr_fail(c->zr, ret, t, "bad RDATA length after \\#");
	if (c->tok < c->end) {
		ret = rd_rest(c, wire_hex_decode, "hex");
		if (ret < 0)
			return ret;
	}
	if (c->rdlen != want)
		return zr_fail(c->zr, DT_ERDATA, t,
			       "\\# says %lu octets but the hex has %zu",
			       (unsigned long)want, c->rdlen);
	return 0;
}

static int parse_rdata(struct zcur *c)
{
	const struct wire_rdesc *d;
	int ret;

	if (c->tok < c->end && tok_is(c->tok, "\\#")) {
		ret = rd_generic(c);
		if (ret == 0 && c->zr->lax)
			return 0; /* as sent: wire_zreader_set_lax() */
	} else {
		d = wire_rdesc_get(c->type);
		if (!d)
			return zr_fail(
				c->zr, DT_ESYNTAX,
				c->tok < c->end ? c->tok : last_tok(c),
				"no text form known for %s: use \\# (RFC 3597)",
				c->tname);
		ret = rd_fields(c, d);
	}
	if (ret < 0)
		return ret;
	ret = wire_rdata_check(c->type, c->zr->rdata, c->rdlen);
	if (ret < 0)
		return zr_fail(c->zr, ret, last_tok(c),
			       "RDATA not valid for %s: %s", c->tname,
			       errcode_str(ret));
	return 0;
}

/* --- records and directives --- */

static int parse_owner(struct zcur *c, uint8_t owner[DT_NAME_MAXLEN])
{
	struct wire_zreader *zr = c->zr;

	if (zr->blank_owner) {
		if (!zr->has_owner)
			return zr_fail(zr, DT_ESYNTAX, c->tok,
				       "no owner: the first record starts with "
				       "a blank");
		memcpy(owner, zr->owner, wire_dname_len(zr->owner));
		return 0;
	}
	return parse_name_tok(zr, c->tok++, "owner", owner);
}

/* Optional TTL and class, in either order (RFC 1035 §5.1). */
static int parse_ttl_class(struct zcur *c, uint32_t *ttl, uint16_t *rclass)
{
	struct wire_zreader *zr = c->zr;
	bool have_ttl = false, have_class = false;

	for (; c->tok < c->end && !c->tok->quoted; c->tok++) {
		const struct ztok *t = c->tok;
		int ret;

		if (!have_class && !wire_class_from_str(t->s, t->len, rclass)) {
			have_class = true;
		} else if (!have_ttl && is_digit(t->s[0])) {
			ret = parse_ttl(t->s, t->len, ttl);
			if (ret < 0)
				return zr_fail(zr, ret, t, "bad TTL");
			have_ttl = true;
		} else {
			break;
		}
	}
	if (!have_class)
		*rclass = zr->last_class;
	if (!have_ttl)
		*ttl = zr->has_dollar_ttl ? zr->dollar_ttl : zr->default_ttl;
	return 0;
}

static int parse_type(struct zcur *c)
{
	const struct ztok *t = c->tok < c->end ? c->tok : last_tok(c);

	if (c->tok == c->end)
		return zr_fail(c->zr, DT_ESYNTAX, t, "type missing");
	if (t->quoted || wire_type_from_str(t->s, t->len, &c->type) < 0)
		return zr_fail(c->zr, DT_ETYPE, t, "unknown type");
	wire_type_to_str(c->type, c->tname);
	c->tok++;
	return 0;
}

static int parse_record(struct wire_zreader *zr, struct wire_rr *rr)
{
	struct zcur c = {
		.zr = zr, .tok = zr->toks, .end = zr->toks + zr->ntoks};
	uint8_t owner[DT_NAME_MAXLEN];
	uint32_t ttl = 0;
	uint16_t rclass = 0;
	int ret = parse_owner(&c, owner);

	if (ret >= 0)
		ret = parse_ttl_class(&c, &ttl, &rclass);
	if (ret >= 0)
		ret = parse_type(&c);
	if (ret >= 0)
		ret = parse_rdata(&c);
	if (ret < 0)
		return ret;
	memcpy(zr->owner, owner, wire_dname_len(owner));
	zr->has_owner = true;
	zr->last_class = rclass;
	*rr = (struct wire_rr){.owner = zr->owner,
			       .type = c.type,
			       .rclass = rclass,
			       .ttl = ttl,
			       .rdlen = (uint16_t)c.rdlen,
			       .rdata = zr->rdata};
	return 1;
}

static int dir_origin(struct wire_zreader *zr)
{
	uint8_t origin[DT_NAME_MAXLEN];
	int ret;

	if (zr->ntoks != 2)
		return zr_fail(zr, DT_ESYNTAX, &zr->toks[0],
			       "$ORIGIN takes one name");
	ret = parse_name_tok(zr, &zr->toks[1], "$ORIGIN", origin);
	if (ret < 0)
		return ret;
	memcpy(zr->origin, origin, (size_t)ret);
	zr->has_origin = true;
	return 0;
}

static int dir_ttl(struct wire_zreader *zr)
{
	const struct ztok *t = &zr->toks[1];
	int ret;

	if (zr->ntoks != 2)
		return zr_fail(zr, DT_ESYNTAX, &zr->toks[0],
			       "$TTL takes one TTL");
	ret = t->quoted ? DT_ESYNTAX : parse_ttl(t->s, t->len, &zr->dollar_ttl);
	if (ret < 0)
		return zr_fail(zr, ret, t, "bad TTL in $TTL");
	zr->has_dollar_ttl = true;
	return 0;
}

static bool is_directive(const struct wire_zreader *zr)
{
	const struct ztok *t = &zr->toks[0];

	return !zr->blank_owner && !t->quoted && t->len && t->s[0] == '$';
}

static int do_directive(struct wire_zreader *zr)
{
	const struct ztok *t = &zr->toks[0];

	if (tok_is(t, "$ORIGIN"))
		return dir_origin(zr);
	if (tok_is(t, "$TTL"))
		return dir_ttl(zr);
	if (tok_is(t, "$INCLUDE"))
		return zr_fail(
			zr, DT_ESYNTAX, t,
			"$INCLUDE refused: the text must be self-contained");
	return zr_fail(zr, DT_ESYNTAX, t, "unknown directive");
}

/* --- public interface --- */

static struct wire_zreader *zr_alloc(const char *origin, uint32_t default_ttl,
				     const char *fname)
{
	struct wire_zreader *zr = calloc(1, sizeof(*zr));

	if (!zr)
		return NULL;
	zr->fname = strdup(fname ? fname : "<text>");
	if (!zr->fname) {
		free(zr);
		return NULL;
	}
	zr->line = 1;
	zr->default_ttl = default_ttl;
	zr->last_class = WIRE_CLASS_IN;
	if (origin) {
		int ret = wire_dname_from_str(origin, strlen(origin), NULL,
					      zr->origin);

		if (ret < 0)
			zr_fail_at(zr, ret, 0, origin, strlen(origin),
				   "bad origin: %s", name_err_text(ret));
		zr->has_origin = ret > 0;
	}
	return zr;
}

struct wire_zreader *wire_zreader_new(const char *text, size_t len,
				      const char *origin, uint32_t default_ttl,
				      const char *fname)
{
	struct wire_zreader *zr = zr_alloc(origin, default_ttl, fname);

	if (!zr)
		return NULL;
	zr->text = malloc(len + 1);
	if (!zr->text) {
		wire_zreader_free(zr);
		return NULL;
	}
	if (len)
		memcpy(zr->text, text, len);
	zr->text[len] = '\0';
	zr->len = len;
	return zr;
}

int wire_zreader_open(const char *path, const char *origin,
		      uint32_t default_ttl, struct wire_zreader **ret_zr)
{
	struct wire_zreader *zr;
	char *buf;
	size_t len;
	int ret = file_read_path(path, DT_ZONE_FILE_MAXSIZE, &buf, &len);

	if (ret < 0)
		return ret;
	zr = zr_alloc(origin, default_ttl, path);
	if (!zr) {
		free(buf);
		return -ENOMEM;
	}
	zr->text = buf;
	zr->len = len;
	*ret_zr = zr;
	return 0;
}

int wire_zreader_next(struct wire_zreader *zr, struct wire_rr *rr)
{
	int ret;

	while (!zr->err) {
		ret = lex_record(zr);
		if (ret <= 0)
			return ret;
		zr->rec_line = zr->toks[0].line;
		if (!is_directive(zr))
			return parse_record(zr, rr);
		if (do_directive(zr) < 0)
			break;
	}
	return zr->err;
}

const char *wire_zreader_error(const struct wire_zreader *zr)
{
	return zr->err ? zr->errmsg : "";
}

unsigned wire_zreader_line(const struct wire_zreader *zr)
{
	return zr->err ? zr->err_line : zr->rec_line;
}

void wire_zreader_set_lax(struct wire_zreader *zr)
{
	zr->lax = true;
}

void wire_zreader_free(struct wire_zreader *zr)
{
	if (!zr)
		return;
	free(zr->text);
	free(zr->fname);
	free(zr->toks);
	free(zr->scratch);
	free(zr);
}
