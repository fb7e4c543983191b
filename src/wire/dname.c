/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "common/errcode.h"
#include "wire/dname.h"

static inline uint8_t lower(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

int wire_dname_check(const uint8_t *name, const uint8_t *end)
{
	const uint8_t *p = name;

	while (p < end) {
		uint8_t l = *p;
		if (l == 0) {
			return (int)(p - name + 1);
		}
		if ((l & 0xC0) == 0xC0)
			return DT_EPTR;
		if (l > DT_LABEL_MAXLEN)
			return DT_ELABEL;
		if (p - name + 1 + l + 1 > DT_NAME_MAXLEN)
			return DT_ENAMELEN;
		p += 1 + l;
	}
	return DT_ETRUNC;
}

int wire_dname_unpack(const uint8_t *msg, size_t msglen, size_t *pos,
		      uint8_t out[DT_NAME_MAXLEN])
{
	size_t p = *pos, next = 0, len = 0, floor = *pos;
	int ptrs = 0;

	for (;;) {
		if (p >= msglen)
			return DT_ETRUNC;
		uint8_t l = msg[p];
		if ((l & 0xC0) == 0xC0) {
			if (p + 1 >= msglen)
				return DT_ETRUNC;
			size_t target = ((size_t)(l & 0x3F) << 8) | msg[p + 1];
			/* Strictly backwards from where the current run of
			 * labels started: no loops, no forward references. */
			if (target < DT_MSG_HDRLEN || target >= floor)
				return DT_EPTR;
			if (++ptrs > DT_NAME_MAXPTRS)
				return DT_EPTRLIMIT;
			if (!next)
				next = p + 2;
			p = floor = target;
			continue;
		}
		if (l & 0xC0) /* 0x40 and 0x80: extended label types, obsolete */
			return DT_EMALF;
		if (len + 1 + l > DT_NAME_MAXLEN ||
		    (l != 0 && len + 1 + l + 1 > DT_NAME_MAXLEN))
			return DT_ENAMELEN;
		if (p + 1 + l > msglen)
			return DT_ETRUNC;
		memcpy(out + len, msg + p, 1 + (size_t)l);
		len += 1 + (size_t)l;
		p += 1 + (size_t)l;
		if (l == 0)
			break;
	}
	*pos = next ? next : p;
	return (int)len;
}

size_t wire_dname_len(const uint8_t *name)
{
	const uint8_t *p = name;

	while (*p)
		p += 1 + *p;
	return (size_t)(p - name) + 1;
}

int wire_dname_labels(const uint8_t *name)
{
	int n = 0;

	for (; *name; name += 1 + *name)
		n++;
	return n;
}

bool wire_dname_is_wildcard(const uint8_t *name)
{
	return name[0] == 1 && name[1] == '*';
}

bool wire_dname_is_root(const uint8_t *name)
{
	return name[0] == 0;
}

const uint8_t *wire_dname_parent(const uint8_t *name)
{
	return *name ? name + 1 + *name : NULL;
}

const uint8_t *wire_dname_ancestor(const uint8_t *name, int labels)
{
	int n = wire_dname_labels(name);

	if (labels < 0 || labels > n)
		return NULL;
	for (; n > labels; n--)
		name += 1 + *name;
	return name;
}

static bool label_equal(const uint8_t *a, const uint8_t *b)
{
	if (a[0] != b[0])
		return false;
	for (int i = 1; i <= a[0]; i++) {
		if (lower(a[i]) != lower(b[i]))
			return false;
	}
	return true;
}

bool wire_dname_equal(const uint8_t *a, const uint8_t *b)
{
	for (;;) {
		if (!label_equal(a, b))
			return false;
		if (*a == 0)
			return true;
		a += 1 + *a;
		b += 1 + *b;
	}
}

/* Fills labels[] with pointers to each label, leftmost first. */
static int label_index(const uint8_t *name,
		       const uint8_t *labels[DT_NAME_MAXLABELS])
{
	int n = 0;

	for (; *name; name += 1 + *name)
		labels[n++] = name;
	return n;
}

static int label_canon_cmp(const uint8_t *a, const uint8_t *b)
{
	int la = a[0], lb = b[0], m = la < lb ? la : lb;

	for (int i = 1; i <= m; i++) {
		int d = (int)lower(a[i]) - (int)lower(b[i]);
		if (d)
			return d;
	}
	return la - lb;
}

int wire_dname_canon_cmp(const uint8_t *a, const uint8_t *b)
{
	const uint8_t *la[DT_NAME_MAXLABELS], *lb[DT_NAME_MAXLABELS];
	int na = label_index(a, la), nb = label_index(b, lb);

	/* RFC 4034 §6.1: compare label by label from the rightmost. */
	while (na > 0 && nb > 0) {
		int d = label_canon_cmp(la[--na], lb[--nb]);
		if (d)
			return d;
	}
	return na - nb;
}

bool wire_dname_is_subdomain(const uint8_t *name, const uint8_t *ancestor)
{
	int n = wire_dname_labels(name), m = wire_dname_labels(ancestor);

	if (n < m)
		return false;
	return wire_dname_equal(wire_dname_ancestor(name, m), ancestor);
}

int wire_dname_common_labels(const uint8_t *a, const uint8_t *b)
{
	const uint8_t *la[DT_NAME_MAXLABELS], *lb[DT_NAME_MAXLABELS];
	int na = label_index(a, la), nb = label_index(b, lb), common = 0;

	while (na > 0 && nb > 0 && label_equal(la[--na], lb[--nb]))
		common++;
	return common;
}

void wire_dname_tolower(uint8_t *name)
{
	while (*name) {
		uint8_t l = *name++;
		for (uint8_t i = 0; i < l; i++, name++)
			*name = lower(*name);
	}
}

size_t wire_dname_copy(uint8_t out[DT_NAME_MAXLEN], const uint8_t *name)
{
	size_t len = wire_dname_len(name);

	memmove(out, name, len);
	return len;
}

int wire_dname_wildcard_of(uint8_t out[DT_NAME_MAXLEN], const uint8_t *name)
{
	size_t len = wire_dname_len(name);

	if (len + 2 > DT_NAME_MAXLEN)
		return DT_ENAMELEN;
	memmove(out + 2, name, len);
	out[0] = 1;
	out[1] = '*';
	return (int)len + 2;
}

/* Reads one escaped character at str[*i] (after the backslash). */
static int parse_escape(const char *str, size_t len, size_t *i, uint8_t *c)
{
	if (*i >= len)
		return DT_ESYNTAX;
	if (str[*i] >= '0' && str[*i] <= '9') {
		if (*i + 3 > len)
			return DT_ESYNTAX;
		unsigned v = 0;
		for (int k = 0; k < 3; k++) {
			char d = str[*i + k];
			if (d < '0' || d > '9')
				return DT_ESYNTAX;
			v = v * 10 + (unsigned)(d - '0');
		}
		if (v > 255)
			return DT_ESYNTAX;
		*c = (uint8_t)v;
		*i += 3;
		return 0;
	}
	*c = (uint8_t)str[(*i)++];
	return 0;
}

/* Closes the label that started at out[lstart]; an empty label is only
 * allowed as the whole name ("."). */
static int close_label(uint8_t *out, size_t lstart, size_t len)
{
	size_t l = len - lstart - 1;

	if (l == 0)
		return DT_ESYNTAX;
	if (l > DT_LABEL_MAXLEN)
		return DT_ELABEL;
	out[lstart] = (uint8_t)l;
	return 0;
}

static int append_origin(uint8_t *buf, size_t len, const uint8_t *origin)
{
	if (!origin)
		return DT_ERELATIVE;
	size_t olen = wire_dname_len(origin);
	if (len + olen > DT_NAME_MAXLEN)
		return DT_ENAMELEN;
	memcpy(buf + len, origin, olen);
	return (int)(len + olen);
}

int wire_dname_from_str(const char *str, size_t len, const uint8_t *origin,
			uint8_t out[DT_NAME_MAXLEN])
{
	uint8_t buf[DT_NAME_MAXLEN + 1];
	size_t n = 0, lstart = 0, i = 0;
	int r;

	if (len == 0)
		return DT_ESYNTAX;
	if (len == 1 && str[0] == '.') {
		out[0] = 0;
		return 1;
	}
	if (len == 1 && str[0] == '@') {
		if (!origin)
			return DT_ERELATIVE;
		return (int)wire_dname_copy(out, origin);
	}
	n = 1;
	while (i < len) {
		uint8_t c = (uint8_t)str[i++];
		if (c == '.') {
			if ((r = close_label(buf, lstart, n)) < 0)
				return r;
			if (i == len) {
				if (n + 1 > DT_NAME_MAXLEN)
					return DT_ENAMELEN;
				buf[n++] = 0;
				memcpy(out, buf, n);
				return (int)n;
			}
			lstart = n++;
			continue;
		}
		if (c == '\\' && (r = parse_escape(str, len, &i, &c)) < 0)
			return r;
		if (n - lstart - 1 >= DT_LABEL_MAXLEN)
			return DT_ELABEL;
		if (n >= DT_NAME_MAXLEN)
			return DT_ENAMELEN;
		buf[n++] = c;
	}
	if ((r = close_label(buf, lstart, n)) < 0)
		return r;
	if ((r = append_origin(buf, n, origin)) < 0)
		return r;
	memcpy(out, buf, (size_t)r);
	return r;
}

static bool needs_backslash(uint8_t c)
{
	return c == '.' || c == '\\' || c == '"' || c == '(' || c == ')' ||
	       c == ';' || c == '@' || c == '$' || c == ' ';
}

int wire_dname_to_str(const uint8_t *name, char *buf, size_t buflen)
{
	size_t n = 0;

	if (wire_dname_is_root(name)) {
		if (buflen < 2)
			return DT_ESPACE;
		memcpy(buf, ".", 2);
		return 1;
	}
	for (; *name; name += 1 + *name) {
		for (int i = 1; i <= name[0]; i++) {
			uint8_t c = name[i];
			if (n + 5 > buflen)
				return DT_ESPACE;
			if (needs_backslash(c)) {
				buf[n++] = '\\';
				buf[n++] = (char)c;
			} else if (c < 0x21 || c > 0x7e) {
				buf[n++] = '\\';
				buf[n++] = (char)('0' + c / 100);
				buf[n++] = (char)('0' + c / 10 % 10);
				buf[n++] = (char)('0' + c % 10);
			} else {
				buf[n++] = (char)c;
			}
		}
		if (n + 2 > buflen)
			return DT_ESPACE;
		buf[n++] = '.';
	}
	buf[n] = '\0';
	return (int)n;
}
