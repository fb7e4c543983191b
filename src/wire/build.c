/* SPDX-License-Identifier: MIT */
/*
 * DNS message builder (RFC 1035 §4.1) with name compression (§4.1.4),
 * the EDNS(0) OPT record (RFC 6891 §6.1) and Extended DNS Errors
 * (RFC 8914).
 *
 * Compression: the start of every label written in a compressible place
 * (the question, owners, WIRE_F_NAME_C fields) is remembered in b->ctab
 * while the table has room and the offset fits a 14-bit pointer. A name
 * about to be written is compared with the name at each remembered offset
 * (walking the message, following pointers) label by label from the root
 * up, ASCII case folded; the longest common suffix becomes a pointer. The
 * work per name is bounded: DT_COMPRESS_MAXNAMES walks of at most
 * DT_NAME_MAXLABELS labels and DT_NAME_MAXPTRS pointers each.
 *
 * Records come from the parser or the zone reader, which checked them;
 * RDATA is still walked within its length, and whatever does not follow
 * the layout is copied as it is.
 */
#include <string.h>

#include "common/errcode.h"
#include "wire/bytes.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/rr.h"

/* Octets of TYPE, CLASS, TTL and RDLENGTH after a record's owner. */
#define RR_FIXEDLEN 10
/* Octets of OPTION-CODE and OPTION-LENGTH before an option's data. */
#define OPT_HDRLEN 4
/* The two top bits of a compression pointer (RFC 1035 §4.1.4). */
#define PTR_MARK 0xC0

static bool room(const struct wire_builder *b, size_t n)
{
	return b->cap - b->len >= n;
}

static int put_bytes(struct wire_builder *b, const void *src, size_t n)
{
	if (!room(b, n))
		return DT_ESPACE;
	if (n)
		memcpy(b->buf + b->len, src, n);
	b->len += n;
	return 0;
}

static uint8_t fold(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 'a' - 'A') : c;
}

/* Labels a and b (length octet first) equal, ASCII case folded. */
static bool label_eq(const uint8_t *a, const uint8_t *b)
{
	if (a[0] != b[0])
		return false;
	for (unsigned i = 1; i <= a[0]; i++)
		if (fold(a[i]) != fold(b[i]))
			return false;
	return true;
}

/* Offsets of the labels of a checked, uncompressed name within it.
 * Returns their number, the root label not counted. */
static int name_labels(const uint8_t *name, uint8_t off[DT_NAME_MAXLABELS])
{
	unsigned i = 0;
	int n = 0;

	while (name[i] != 0 && n < DT_NAME_MAXLABELS) {
		off[n++] = (uint8_t)i;
		i += 1u + name[i];
	}
	return n;
}

/* Offsets in the message of the labels of the name written at off,
 * following pointers. Returns their number, or -1 when the walk leaves
 * the message or loops (never for a message built here). */
static int msg_labels(const struct wire_builder *b, size_t off,
		      uint16_t pos[DT_NAME_MAXLABELS])
{
	int n = 0, hops = 0;

	while (off < b->len) {
		uint8_t c = b->buf[off];
		size_t next;

		if (c == 0)
			return n;
		if ((c & PTR_MARK) == PTR_MARK) {
			if (off + 1 >= b->len || ++hops > DT_NAME_MAXPTRS)
				return -1;
			next = (size_t)(c & ~PTR_MARK) << 8 | b->buf[off + 1];
			if (next >= off)
				return -1;
			off = next;
			continue;
		}
		if (c > DT_LABEL_MAXLEN || n == DT_NAME_MAXLABELS ||
		    b->len - off <= c)
			return -1;
		pos[n++] = (uint16_t)off;
		off += 1u + c;
	}
	return -1;
}

/* Longest suffix of name (nl labels at noff) already in the message at a
 * place a pointer can reach. Returns its number of labels (0: none) and
 * writes where it starts. */
static int find_suffix(const struct wire_builder *b, const uint8_t *name,
		       const uint8_t *noff, int nl, uint16_t *ret_target)
{
	uint16_t moff[DT_NAME_MAXLABELS];
	int best = 0;

	for (size_t i = 0; i < b->nctab && best < nl; i++) {
		int ml = msg_labels(b, b->ctab[i], moff);
		int m = 0;

		while (m < ml && m < nl &&
		       label_eq(b->buf + moff[ml - 1 - m],
				name + noff[nl - 1 - m]))
			m++;
		while (m > best && moff[ml - m] > DT_COMPRESS_MAXOFF)
			m--;
		if (m > best) {
			best = m;
			*ret_target = moff[ml - m];
		}
	}
	return best;
}

/* Remembers the first n labels of a name about to be written at b->len. */
static void remember(struct wire_builder *b, const uint8_t *noff, int n)
{
	for (int i = 0; i < n && b->nctab < DT_COMPRESS_MAXNAMES; i++) {
		size_t off = b->len + noff[i];

		if (off > DT_COMPRESS_MAXOFF)
			break;
		b->ctab[b->nctab++] = (uint16_t)off;
	}
}

/* Writes a checked, uncompressed name, compressed when asked to. */
static int put_name(struct wire_builder *b, const uint8_t *name,
		    bool compress)
{
	uint8_t noff[DT_NAME_MAXLABELS];
	uint16_t target = 0;
	int nl = name_labels(name, noff), m = 0;
	size_t lit;

	if (compress)
		m = find_suffix(b, name, noff, nl, &target);
	lit = m ? noff[nl - m] : wire_dname_len(name);
	if (!room(b, lit + (m ? 2 : 0)))
		return DT_ESPACE;
	if (compress)
		remember(b, noff, nl - m);
	memcpy(b->buf + b->len, name, lit);
	b->len += lit;
	if (m) {
		wire_put16(b->buf + b->len, (uint16_t)(PTR_MARK << 8 | target));
		b->len += 2;
	}
	return 0;
}

/* Octets of the RDATA field of the given kind at p, or -1 when it does not
 * fit before end. */
static long field_len(uint8_t kind, const uint8_t *p, const uint8_t *end)
{
	size_t rest = (size_t)(end - p), n;
	int ret;

	switch (kind) {
	case WIRE_F_NAME_C:
	case WIRE_F_NAME_L:
	case WIRE_F_NAME:
		ret = wire_dname_check(p, end);
		if (ret < 0)
			return -1;
		n = (size_t)ret;
		break;
	case WIRE_F_U8:
	case WIRE_F_ALG:
		n = 1;
		break;
	case WIRE_F_U16:
	case WIRE_F_TYPE:
		n = 2;
		break;
	case WIRE_F_U32:
	case WIRE_F_TTL:
	case WIRE_F_TIME:
	case WIRE_F_A:
		n = 4;
		break;
	case WIRE_F_AAAA:
		n = 16;
		break;
	case WIRE_F_CHARSTR:
	case WIRE_F_SALT:
	case WIRE_F_HASH:
		n = rest ? 1u + p[0] : 1u;
		break;
	default: /* HEX, B64, BITMAP, CHARSTRS: the rest of the RDATA */
		n = rest;
		break;
	}
	return n <= rest ? (long)n : -1;
}

static bool has_name_c(const struct wire_rdesc *d)
{
	for (int i = 0; d && i < WIRE_RDESC_MAXFIELDS; i++) {
		if (d->fields[i] == WIRE_F_END)
			break;
		if (d->fields[i] == WIRE_F_NAME_C)
			return true;
	}
	return false;
}

/* Writes RDATA, compressing the names of WIRE_F_NAME_C fields. */
static int put_rdata(struct wire_builder *b, const struct wire_rr *rr)
{
	const struct wire_rdesc *d = wire_rdesc_get(rr->type);
	const uint8_t *p = rr->rdata, *end;
	int ret;

	if (rr->rdlen == 0)
		return 0;
	end = p + rr->rdlen;
	if (!has_name_c(d))
		return put_bytes(b, p, rr->rdlen);
	for (int i = 0; i < WIRE_RDESC_MAXFIELDS && p < end; i++) {
		uint8_t kind = d->fields[i];
		long n = field_len(kind, p, end);

		if (kind == WIRE_F_END || n < 0)
			break;
		if (kind == WIRE_F_NAME_C)
			ret = put_name(b, p, true);
		else
			ret = put_bytes(b, p, (size_t)n);
		if (ret < 0)
			return ret;
		p += n;
	}
	return put_bytes(b, p, (size_t)(end - p));
}

int wire_build_init(struct wire_builder *b, uint8_t *buf, size_t cap,
		    uint16_t id, uint16_t flags)
{
	if (cap < DT_MSG_HDRLEN)
		return DT_ESPACE;
	memset(b, 0, sizeof(*b));
	b->buf = buf;
	b->cap = cap < DT_MSG_MAXLEN ? cap : DT_MSG_MAXLEN;
	b->section = -1;
	memset(buf, 0, DT_MSG_HDRLEN);
	wire_put16(buf, id);
	wire_put16(buf + 2, flags);
	b->len = DT_MSG_HDRLEN;
	return 0;
}

void wire_build_set_flags(struct wire_builder *b, uint16_t set,
			  uint16_t clear)
{
	uint16_t flags = wire_get16(b->buf + 2);

	wire_put16(b->buf + 2, (uint16_t)((flags & ~clear) | set));
}

int wire_build_question(struct wire_builder *b, const uint8_t *qname,
			uint16_t qtype, uint16_t qclass)
{
	size_t len = b->len, nctab = b->nctab;
	int ret;

	if (b->section != -1)
		return DT_ESECTION;
	if (b->count[0])
		return DT_EQDCOUNT;
	ret = put_name(b, qname, true);
	if (ret == 0 && !room(b, 4))
		ret = DT_ESPACE;
	if (ret < 0) {
		b->len = len;
		b->nctab = nctab;
		return ret;
	}
	wire_put16(b->buf + b->len, qtype);
	wire_put16(b->buf + b->len + 2, qclass);
	b->len += 4;
	b->count[0] = 1;
	return 0;
}

/* Owner, TYPE, CLASS, TTL and RDATA of a record; RDLENGTH at the end. */
static int put_rr(struct wire_builder *b, const struct wire_rr *rr)
{
	size_t rdstart;
	int ret;

	ret = put_name(b, rr->owner, true);
	if (ret < 0)
		return ret;
	if (!room(b, RR_FIXEDLEN))
		return DT_ESPACE;
	wire_put16(b->buf + b->len, rr->type);
	wire_put16(b->buf + b->len + 2, rr->rclass);
	wire_put32(b->buf + b->len + 4, rr->ttl);
	b->len += RR_FIXEDLEN;
	rdstart = b->len;
	ret = put_rdata(b, rr);
	if (ret < 0)
		return ret;
	/* Compression only shrinks RDATA, so this fits in 16 bits. */
	wire_put16(b->buf + rdstart - 2, (uint16_t)(b->len - rdstart));
	return 0;
}

int wire_build_rr(struct wire_builder *b, enum wire_section sec,
		  const struct wire_rr *rr)
{
	size_t len = b->len, nctab = b->nctab;
	int ret;

	if ((unsigned)sec >= WIRE_SEC_COUNT || (int)sec < b->section)
		return DT_ESECTION;
	ret = put_rr(b, rr);
	if (ret < 0) {
		b->len = len;
		b->nctab = nctab;
		return ret;
	}
	b->count[1 + sec]++;
	b->section = (int)sec;
	return 0;
}

int wire_build_opt(struct wire_builder *b, uint16_t udp_size,
		   uint8_t ext_rcode, uint8_t version, uint16_t flags,
		   const uint8_t *opts, size_t optlen)
{
	uint8_t *p;

	/* After the OPT record, b->section is WIRE_SEC_COUNT: nothing but
	 * wire_build_finish() may follow. */
	if (b->section == WIRE_SEC_COUNT)
		return DT_ESECTION;
	if (optlen > DT_RDATA_MAXLEN || !room(b, 1 + RR_FIXEDLEN + optlen))
		return DT_ESPACE;
	p = b->buf + b->len;
	p[0] = 0;
	wire_put16(p + 1, WIRE_TYPE_OPT);
	wire_put16(p + 3, udp_size);
	wire_put32(p + 5,
		   (uint32_t)ext_rcode << 24 | (uint32_t)version << 16 | flags);
	wire_put16(p + 9, (uint16_t)optlen);
	if (optlen)
		memcpy(p + 1 + RR_FIXEDLEN, opts, optlen);
	b->len += 1 + RR_FIXEDLEN + optlen;
	b->count[3]++;
	b->section = WIRE_SEC_COUNT;
	return 0;
}

size_t wire_build_finish(struct wire_builder *b)
{
	for (int i = 0; i < 4; i++)
		wire_put16(b->buf + 4 + 2 * i, b->count[i]);
	return b->len;
}

int wire_opt_put(uint8_t *buf, size_t cap, size_t *len, uint16_t code,
		 const uint8_t *data, size_t dlen)
{
	if (*len > cap || dlen > UINT16_MAX ||
	    cap - *len < OPT_HDRLEN + dlen)
		return DT_ESPACE;
	wire_put16(buf + *len, code);
	wire_put16(buf + *len + 2, (uint16_t)dlen);
	if (dlen)
		memcpy(buf + *len + OPT_HDRLEN, data, dlen);
	*len += OPT_HDRLEN + dlen;
	return 0;
}

/* Length of text cut to at most DT_EDE_TEXT_MAXLEN octets without
 * splitting a UTF-8 sequence: a cut never lands on a continuation octet. */
static size_t ede_text_len(const char *text)
{
	size_t n;

	if (!text)
		return 0;
	n = strnlen(text, DT_EDE_TEXT_MAXLEN + 1);
	if (n <= DT_EDE_TEXT_MAXLEN)
		return n;
	n = DT_EDE_TEXT_MAXLEN;
	while (n > 0 && ((uint8_t)text[n] & 0xC0) == 0x80)
		n--;
	return n;
}

int wire_opt_put_ede(uint8_t *buf, size_t cap, size_t *len, uint16_t code,
		     const char *text)
{
	size_t tlen = ede_text_len(text);

	if (*len > cap || cap - *len < OPT_HDRLEN + 2 + tlen)
		return DT_ESPACE;
	wire_put16(buf + *len, WIRE_OPT_EDE);
	wire_put16(buf + *len + 2, (uint16_t)(2 + tlen));
	wire_put16(buf + *len + 4, code);
	if (tlen)
		memcpy(buf + *len + OPT_HDRLEN + 2, text, tlen);
	*len += OPT_HDRLEN + 2 + tlen;
	return 0;
}
