/* SPDX-License-Identifier: MIT */
/*
 * The RFC 5011 state file (its format is in autotrust.h): a strict,
 * bounded line parser whose every error is "name:line: message", and the
 * writer whose output it reads back. The record at the end of a key line
 * goes through the zone reader of src/wire, so keys are written and read
 * exactly as anchor files and dig show them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errcode.h"
#include "crypto/key.h"
#include "validator/autotrust.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

#define AT_MAGIC   "dnstrust-autotrust"
#define AT_VERSION 1
/* A time past 9999-12-31 is a damaged file, not a date. */
#define AT_TIME_MAX 253402300799LL
/* Words before the record on a key line; words on a point line. */
#define KEY_WORDS   7
#define POINT_WORDS 7
/* Octets of a word repeated in an error message. */
#define SHOW_MAX 40

/* --- parsing --- */

struct at_parse {
	const char *name;
	unsigned line;
	char *err;
	size_t errlen;
	struct val_at *at;
	struct val_at_point *tp; /* the point key lines belong to */
	bool versioned;		 /* the "dnstrust-autotrust 1" line was read */
	char buf[DT_AT_LINE_MAXLEN + 1];
	/* The line split into words (NUL-terminated in buf); rest is where
	 * the word after the first KEY_WORDS starts, in the original text. */
	const char *word[KEY_WORDS + 1];
	size_t nword;
	const char *rest;
	size_t restlen;
};

static int fail(struct at_parse *p, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct at_parse *p, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return code;
	if (p->line)
		n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, p->line);
	else
		n = snprintf(p->err, p->errlen, "%s: ", p->name);
	if (n < 0 || (size_t)n >= p->errlen)
		return code;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

/* A word as shown in messages, cut after SHOW_MAX octets. */
static const char *show(const char *w, char buf[SHOW_MAX + 4])
{
	size_t n = strlen(w);

	if (n <= SHOW_MAX)
		return w;
	memcpy(buf, w, SHOW_MAX);
	memcpy(buf + SHOW_MAX, "...", 4);
	return buf;
}

/* Copies one line into p->buf and splits its first KEY_WORDS words; what
 * follows is p->rest. Control characters other than tab are refused. */
static int split(struct at_parse *p, const char *s, size_t len)
{
	char *b = p->buf;
	size_t i = 0;

	for (size_t j = 0; j < len; j++) {
		unsigned char ch = (unsigned char)s[j];
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return fail(p, DT_ESYNTAX, "control character 0x%02x",
				    ch);
	}
	memcpy(b, s, len);
	b[len] = '\0';
	p->nword = 0;
	p->rest = NULL;
	p->restlen = 0;
	while (i < len) {
		while (i < len && (b[i] == ' ' || b[i] == '\t'))
			i++;
		if (i == len)
			break;
		if (p->nword == KEY_WORDS) {
			p->rest = s + i;
			p->restlen = len - i;
			break;
		}
		p->word[p->nword++] = b + i;
		/* A backslash escapes the next character ("\ " in a name). */
		while (i < len && b[i] != ' ' && b[i] != '\t')
			i += b[i] == '\\' && i + 1 < len ? 2 : 1;
		b[i++] = '\0';
	}
	return 0;
}

/* "key=N" with 0 <= N <= max into *ret. */
static int field(struct at_parse *p, size_t idx, const char *key, long long max,
		 int64_t *ret)
{
	const char *w = p->word[idx], *d;
	size_t klen = strlen(key);
	long long v = 0;
	char sh[SHOW_MAX + 4];

	if (strncmp(w, key, klen) != 0 || w[klen] != '=')
		return fail(p, DT_ESYNTAX, "expected %s=NUMBER, found '%s'",
			    key, show(w, sh));
	d = w + klen + 1;
	if (!*d)
		return fail(p, DT_ESYNTAX, "%s: no number", key);
	for (; *d; d++) {
		if (*d < '0' || *d > '9')
			return fail(p, DT_ESYNTAX, "%s: '%s' is not a number",
				    key, show(w + klen + 1, sh));
		if (v > (max - (*d - '0')) / 10)
			return fail(p, DT_ESYNTAX, "%s: above %lld", key, max);
		v = v * 10 + (*d - '0');
	}
	*ret = v;
	return 0;
}

static int version_line(struct at_parse *p)
{
	char sh[SHOW_MAX + 4];

	if (p->nword != 2 || strcmp(p->word[0], AT_MAGIC) != 0)
		return fail(p, DT_ESYNTAX,
			    "not a dnstrust RFC 5011 state file: the first "
			    "line must be '%s %d'",
			    AT_MAGIC, AT_VERSION);
	if (strcmp(p->word[1], "1") != 0)
		return fail(p, DT_ESYNTAX,
			    "version '%s' is not supported (%d "
			    "is)",
			    show(p->word[1], sh), AT_VERSION);
	p->versioned = true;
	return 0;
}

static int point_line(struct at_parse *p)
{
	uint8_t zone[DT_NAME_MAXLEN];
	int64_t v[5];
	static const char *const keys[] = {"last-query", "last-success",
					   "next-query", "retry", "failures"};
	static const long long max[] = {AT_TIME_MAX, AT_TIME_MAX, AT_TIME_MAX,
					86400, UINT32_MAX};
	char sh[SHOW_MAX + 4];
	int r;

	if (p->nword != POINT_WORDS || p->rest)
		return fail(p, DT_ESYNTAX,
			    "a point line is 'point ZONE last-query=T "
			    "last-success=T next-query=T retry=S failures=N'");
	r = wire_dname_from_str(p->word[1], strlen(p->word[1]), NULL, zone);
	if (r < 0)
		return fail(p, DT_ESYNTAX,
			    "'%s' is not an absolute domain name",
			    show(p->word[1], sh));
	wire_dname_tolower(zone);
	for (size_t i = 0; i < 5; i++) {
		r = field(p, i + 2, keys[i], max[i], &v[i]);
		if (r < 0)
			return r;
	}
	if (v[3] < 3600)
		return fail(p, DT_ESYNTAX, "retry: below 3600 (RFC 5011 §2.3)");
	for (size_t i = 0; i < p->at->npoints; i++) {
		if (wire_dname_equal(p->at->points[i].zone, zone))
			return fail(p, DT_ESYNTAX, "trust point %s given twice",
				    show(p->word[1], sh));
	}
	if (p->at->npoints == DT_AT_MAX_POINTS)
		return fail(p, DT_ELIMIT, "more than %d trust points",
			    DT_AT_MAX_POINTS);
	p->tp = &p->at->points[p->at->npoints++];
	memset(p->tp, 0, sizeof(*p->tp));
	wire_dname_copy(p->tp->zone, zone);
	p->tp->last_query = v[0];
	p->tp->last_success = v[1];
	p->tp->next_query = v[2];
	p->tp->retry = (uint32_t)v[3];
	p->tp->failures = (uint32_t)v[4];
	return 0;
}

static int state_parse(struct at_parse *p, const char *w,
		       enum val_at_state *ret)
{
	char sh[SHOW_MAX + 4];

	for (int s = VAL_AT_START; s <= VAL_AT_REMOVED; s++) {
		if (strcmp(w, val_at_state_name((enum val_at_state)s)) == 0) {
			*ret = (enum val_at_state)s;
			return 0;
		}
	}
	return fail(p, DT_ESYNTAX,
		    "'%s' is not a state (START, ADDPEND, VALID, MISSING, "
		    "REVOKED, REMOVED)",
		    show(w, sh));
}

/* The zone reader's message without its "name:1: " prefix. */
static const char *reader_msg(const char *msg, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(msg, name, n) == 0 && msg[n] == ':') {
		const char *s = strchr(msg + n + 1, ':');
		if (s && s[1] == ' ')
			return s + 2;
	}
	return msg;
}

/* Checks the record of a key line against its point and state. */
static int record_check(struct at_parse *p, const struct wire_rr *rr,
			enum val_at_state state)
{
	char tname[16], owner[DT_NAME_TEXT_MAXLEN];

	if (rr->type != WIRE_TYPE_DNSKEY && rr->type != WIRE_TYPE_DS)
		return fail(p, DT_ESYNTAX,
			    "a %s record is not a key (DNSKEY or DS expected)",
			    wire_type_to_str(rr->type, tname));
	if (rr->rclass != WIRE_CLASS_IN)
		return fail(p, DT_ESYNTAX, "class %s: keys are class IN",
			    wire_class_to_str(rr->rclass, tname));
	if (!wire_dname_equal(rr->owner, p->tp->zone)) {
		wire_dname_to_str(rr->owner, owner, sizeof(owner));
		return fail(p, DT_ESYNTAX,
			    "%.200s is not the trust point's name", owner);
	}
	if (rr->rdlen > DT_AT_KEY_MAXLEN)
		return fail(p, DT_ELIMIT,
			    "a key of %u octets, over the limit of %d",
			    rr->rdlen, DT_AT_KEY_MAXLEN);
	if (rr->rdlen < 4 ||
	    (rr->type == WIRE_TYPE_DNSKEY && rr->rdata[2] != 3))
		return fail(p, DT_ESYNTAX, "not a usable key (protocol 3)");
	if (rr->type == WIRE_TYPE_DS && state != VAL_AT_VALID)
		return fail(p, DT_ESYNTAX,
			    "a DS record is a configured anchor: VALID only");
	return 0;
}

/* Whether the point already holds this key (the REVOKE bit aside). */
static bool key_dup(const struct val_at_point *tp, const struct wire_rr *rr)
{
	for (size_t i = 0; i < tp->nkeys; i++) {
		const struct val_at_key *k = &tp->keys[i];
		if (k->type != rr->type || k->rdlen != rr->rdlen)
			continue;
		if (rr->type == WIRE_TYPE_DS
			    ? memcmp(k->rdata, rr->rdata, rr->rdlen) == 0
			    : k->rdata[0] == rr->rdata[0] &&
				      (k->rdata[1] | CRYPTO_KEY_FLAG_REVOKE) ==
					      (rr->rdata[1] |
					       CRYPTO_KEY_FLAG_REVOKE) &&
				      memcmp(k->rdata + 2, rr->rdata + 2,
					     rr->rdlen - 2u) == 0)
			return true;
	}
	return false;
}

/* Reads the record at the end of a key line into k. */
static int key_record(struct at_parse *p, struct val_at_key *k,
		      enum val_at_state state)
{
	struct wire_zreader *zr =
		wire_zreader_new(p->rest, p->restlen, NULL, 0, p->name);
	struct wire_rr rr;
	int r;

	if (!zr)
		return fail(p, -ENOMEM, "out of memory");
	r = wire_zreader_next(zr, &rr);
	if (r == 0)
		r = fail(p, DT_ESYNTAX, "no DNSKEY or DS record");
	else if (r < 0)
		r = fail(p, r == -ENOMEM ? r : DT_ESYNTAX, "%s",
			 reader_msg(wire_zreader_error(zr), p->name));
	else if ((r = record_check(p, &rr, state)) == 0 && key_dup(p->tp, &rr))
		r = fail(p, DT_ESYNTAX, "this key is given twice");
	if (r == 0) {
		k->type = rr.type;
		k->ttl = rr.ttl;
		k->rdlen = rr.rdlen;
		memcpy(k->rdata, rr.rdata, rr.rdlen);
		r = wire_zreader_next(zr, &rr) == 0
			    ? 0
			    : fail(p, DT_ESYNTAX, "more than one record");
	}
	wire_zreader_free(zr);
	return r;
}

static int key_line(struct at_parse *p)
{
	static const char *const keys[] = {"tag", "first-seen", "changed",
					   "hold-until", "count"};
	static const long long max[] = {65535, AT_TIME_MAX, AT_TIME_MAX,
					AT_TIME_MAX, UINT32_MAX};
	struct val_at_key *k;
	enum val_at_state state = VAL_AT_START;
	int64_t v[5] = {0};
	int r;

	if (!p->tp)
		return fail(p, DT_ESYNTAX, "a key line before any point line");
	if (p->nword != KEY_WORDS || !p->rest)
		return fail(p, DT_ESYNTAX,
			    "a key line is 'key STATE tag=N first-seen=T "
			    "changed=T hold-until=T count=N RECORD'");
	r = state_parse(p, p->word[1], &state);
	for (size_t i = 0; i < 5 && r == 0; i++)
		r = field(p, i + 2, keys[i], max[i], &v[i]);
	if (r < 0)
		return r;
	if (p->tp->nkeys == DT_AT_MAX_KEYS)
		return fail(p, DT_ELIMIT,
			    "more than %d keys for one trust "
			    "point",
			    DT_AT_MAX_KEYS);
	k = &p->tp->keys[p->tp->nkeys];
	memset(k, 0, sizeof(*k));
	r = key_record(p, k, state);
	if (r < 0)
		return r;
	uint16_t tag = val_at_key_tag(k);
	if (tag != v[0])
		return fail(p, DT_ESYNTAX, "tag=%lld, but the key's tag is %u",
			    (long long)v[0], tag);
	k->state = state;
	k->first_seen = v[1];
	k->changed = v[2];
	k->hold_until = v[3];
	k->count = (uint32_t)v[4];
	p->tp->nkeys++;
	return 0;
}

static int one_line(struct at_parse *p, const char *s, size_t len)
{
	char sh[SHOW_MAX + 4];
	int r;

	if (len && s[len - 1] == '\r')
		len--;
	if (len > DT_AT_LINE_MAXLEN)
		return fail(p, DT_ELIMIT, "line longer than %d characters",
			    DT_AT_LINE_MAXLEN);
	r = split(p, s, len);
	if (r < 0 || p->nword == 0 || p->word[0][0] == '#')
		return r;
	if (!p->versioned)
		return version_line(p);
	if (strcmp(p->word[0], "point") == 0)
		return point_line(p);
	if (strcmp(p->word[0], "key") == 0)
		return key_line(p);
	return fail(p, DT_ESYNTAX,
		    "'%s': a line is a comment, 'point' or 'key'",
		    show(p->word[0], sh));
}

static int parse_all(struct at_parse *p, const char *text, size_t len)
{
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		p->line++;
		int r = one_line(p, s, (size_t)(e - s));
		if (r < 0)
			return r;
		s = nl ? nl + 1 : end;
	}
	if (!p->versioned) {
		p->line = 0;
		return fail(p, DT_ESYNTAX, "empty: no '%s %d' line", AT_MAGIC,
			    AT_VERSION);
	}
	return 0;
}

int val_at_parse(const char *text, size_t len, const char *name,
		 struct val_at *ret, char *err, size_t errlen)
{
	struct at_parse *p = calloc(1, sizeof(*p));
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!p || !(p->at = calloc(1, sizeof(*p->at)))) {
		free(p);
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	p->name = name;
	p->err = err;
	p->errlen = errlen;
	if (len > DT_AT_FILE_MAXSIZE)
		r = fail(p, DT_ELIMIT, "larger than %d octets",
			 DT_AT_FILE_MAXSIZE);
	else
		r = parse_all(p, text, len);
	if (r == 0)
		*ret = *p->at;
	free(p->at);
	free(p);
	return r;
}

/* --- writing --- */

/* Text being written, with snprintf's semantics. */
struct at_out {
	char *buf;
	size_t len; /* size of buf */
	size_t pos; /* octets the full text needs so far */
};

static void out(struct at_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct at_out *o, const char *fmt, ...)
{
	size_t room = o->pos < o->len ? o->len - o->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

/* "2026-12-03T04:15:00Z", or "never" for 0. */
static const char *date(int64_t t, char buf[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t == 0)
		return "never";
	if ((int64_t)tt != t || !gmtime_r(&tt, &tm) ||
	    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, 32, "@%lld", (long long)t);
	return buf;
}

static void out_key(struct at_out *o, const struct val_at_point *tp,
		    const struct val_at_key *k)
{
	struct wire_rr rr = val_at_key_rr(tp, k);
	char text[DT_AT_LINE_MAXLEN];
	uint16_t tag = val_at_key_tag(k);

	/* The limits make every key fit (limits.h, DT_AT_LINE_MAXLEN). */
	if (wire_rr_to_str(&rr, text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "(unwritable)");
	out(o,
	    "key %s tag=%u first-seen=%lld changed=%lld hold-until=%lld "
	    "count=%u %s\n",
	    val_at_state_name(k->state), tag, (long long)k->first_seen,
	    (long long)k->changed, (long long)k->hold_until, k->count, text);
}

static void out_point(struct at_out *o, const struct val_at_point *tp)
{
	char zone[DT_NAME_TEXT_MAXLEN], d1[32], d2[32];

	wire_dname_to_str(tp->zone, zone, sizeof(zone));
	out(o, "\n# %s: last validated %s, next query %s\n", zone,
	    date(tp->last_success, d1),
	    tp->next_query ? date(tp->next_query, d2) : "at once");
	out(o,
	    "point %s last-query=%lld last-success=%lld next-query=%lld "
	    "retry=%u failures=%u\n",
	    zone, (long long)tp->last_query, (long long)tp->last_success,
	    (long long)tp->next_query, tp->retry, tp->failures);
	for (size_t i = 0; i < tp->nkeys; i++)
		out_key(o, tp, &tp->keys[i]);
}

size_t val_at_format(const struct val_at *at, char *buf, size_t len)
{
	struct at_out o = {.buf = buf, .len = len};

	if (buf && len)
		buf[0] = '\0';
	out(&o,
	    "# dnstrust: RFC 5011 trust-anchor state "
	    "(auto-trust-anchor-file, dnstrust.conf(5)).\n"
	    "# Written by dnstrustd; change it only while dnstrustd is "
	    "stopped.\n"
	    "# Times are seconds since 1970-01-01 UTC, 0 for never.\n"
	    "%s %d\n",
	    AT_MAGIC, AT_VERSION);
	for (size_t i = 0; i < at->npoints; i++)
		out_point(&o, &at->points[i]);
	return o.pos;
}
