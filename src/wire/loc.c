/* SPDX-License-Identifier: MIT */
/*
 * LOC RDATA (RFC 1876 §2, §3) to and from presentation form. Latitude and
 * longitude are thousandths of an arc second offset by 2^31; altitude is
 * centimetres above a base 100,000 m below the WGS 84 spheroid; sizes and
 * precisions are centimetres as a mantissa and a power of ten, one digit
 * each.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/errcode.h"
#include "wire/bytes.h"
#include "wire/loc.h"

/* Thousandths of an arc second in a degree and in a minute. */
#define MAS_PER_DEG 3600000u
#define MAS_PER_MIN 60000u
/* The 2^31 offset of latitude and longitude (RFC 1876 §2). */
#define LOC_EQUATOR 0x80000000u
/* Altitude base: 100,000 m below the spheroid, in centimetres. */
#define LOC_ALT_BASE 10000000u
/* Largest size or precision, 9e9 cm (RFC 1876 §3: 90000000.00m). */
#define LOC_PREC_MAXCM 9000000000ull
/* Defaults of RFC 1876 §3: size 1m, horizontal 10000m, vertical 10m. */
#define LOC_DEF_SIZE 0x12
#define LOC_DEF_HPRE 0x16
#define LOC_DEF_VPRE 0x13
/* Fields of the text form: 3+1 per coordinate, altitude, 3 precisions. */
#define LOC_MAXFIELDS 12
/* Characters of one numeric field. */
#define LOC_FIELD_MAXLEN 16

/* A precision the text form spells: digits 0..9, and a zero mantissa only
 * with a zero exponent (0e5 and 0e0 would both be "0m"). */
static bool prec_ok(uint8_t b)
{
	return (b >> 4) <= 9 && (b & 0xf) <= 9 && (b >> 4 || !(b & 0xf));
}

/* --- wire to text --- */

/* "%u %u %u.%03u %c" of a coordinate in milliseconds of arc. */
static int coord_to_str(uint32_t raw, uint32_t maxdeg, const char *hemi,
			char *buf, size_t cap)
{
	uint32_t v = raw >= LOC_EQUATOR ? raw - LOC_EQUATOR : LOC_EQUATOR - raw;

	if (v > maxdeg * MAS_PER_DEG)
		return DT_ERDATA;
	return snprintf(buf, cap, "%u %u %u.%03u %c", v / MAS_PER_DEG,
			v % MAS_PER_DEG / MAS_PER_MIN, v % MAS_PER_MIN / 1000,
			v % 1000, hemi[raw >= LOC_EQUATOR ? 0 : 1]);
}

/* A size or precision: whole metres, or "0.DDm" below one metre. */
static void prec_to_str(uint8_t b, char buf[24])
{
	unsigned long long v = b >> 4;
	unsigned e = b & 0xf;

	if (e >= 2) {
		for (; e > 2; e--)
			v *= 10;
		snprintf(buf, 24, "%llum", v);
	} else {
		snprintf(buf, 24, "0.%02llum", e ? v * 10 : v);
	}
}

int wire_loc_to_str(const uint8_t *rdata, size_t rdlen, char *buf, size_t cap)
{
	char lat[48], lon[48], size[24], hp[24], vp[24];
	uint32_t la, lo, alt;
	long long cm;
	int n;

	if (rdlen != WIRE_LOC_LEN || rdata[0] != 0 || !prec_ok(rdata[1]) ||
	    !prec_ok(rdata[2]) || !prec_ok(rdata[3]))
		return DT_ERDATA;
	la = wire_get32(rdata + 4);
	lo = wire_get32(rdata + 8);
	if (coord_to_str(la, 90, "NS", lat, sizeof(lat)) < 0 ||
	    coord_to_str(lo, 180, "EW", lon, sizeof(lon)) < 0)
		return DT_ERDATA;
	alt = wire_get32(rdata + 12);
	cm = (long long)alt - LOC_ALT_BASE;
	prec_to_str(rdata[1], size);
	prec_to_str(rdata[2], hp);
	prec_to_str(rdata[3], vp);
	n = snprintf(buf, cap, "%s %s %s%llu.%02llum %s %s %s", lat, lon,
		     cm < 0 ? "-" : "", (cm < 0 ? -cm : cm) / 100,
		     (cm < 0 ? -cm : cm) % 100, size, hp, vp);
	return n < 0 || (size_t)n >= cap ? DT_ESPACE : n;
}

/* --- text to wire --- */

struct field {
	const char *s;
	size_t len;
};

/* Splits s at blanks into at most LOC_MAXFIELDS fields. */
static int split(const char *s, size_t len, struct field f[LOC_MAXFIELDS])
{
	size_t n = 0, i = 0;

	while (i < len) {
		size_t start;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len)
			break;
		if (n == LOC_MAXFIELDS)
			return DT_ESYNTAX;
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		f[n++] = (struct field){s + start, i - start};
	}
	return (int)n;
}

/*
 * A decimal "D[.F]" with at most maxfrac fractional digits, scaled by
 * 10^maxfrac into *ret. A trailing 'm' is allowed when unit is true.
 */
static int parse_fixed(struct field f, unsigned maxfrac, bool unit,
		       unsigned long long *ret)
{
	unsigned long long v = 0;
	unsigned frac = 0;
	bool dot = false, digits = false;
	size_t len = f.len;

	if (unit && len > 0 && f.s[len - 1] == 'm')
		len--;
	if (len == 0 || len > LOC_FIELD_MAXLEN)
		return DT_ESYNTAX;
	for (size_t i = 0; i < len; i++) {
		char c = f.s[i];

		if (c == '.' && !dot) {
			dot = true;
		} else if (c >= '0' && c <= '9') {
			if (dot && ++frac > maxfrac)
				return DT_ESYNTAX;
			v = v * 10 + (unsigned)(c - '0');
			digits = true;
		} else {
			return DT_ESYNTAX;
		}
	}
	if (!digits)
		return DT_ESYNTAX;
	for (; frac < maxfrac; frac++)
		v *= 10;
	*ret = v;
	return 0;
}

static bool is_hemi(struct field f, const char *hemi)
{
	return f.len == 1 && (f.s[0] == hemi[0] || f.s[0] == hemi[1]);
}

/* deg [min [sec]] H, starting at f[*i]; writes the RFC 1876 value. */
static int coord_from(const struct field *f, int n, int *i, uint32_t maxdeg,
		      const char *hemi, uint32_t *ret)
{
	unsigned long long part[3] = {0, 0, 0}, v;
	int k, ret_err;

	for (k = 0; k < 3 && *i < n && !is_hemi(f[*i], hemi); k++, (*i)++) {
		ret_err = parse_fixed(f[*i], k == 2 ? 3 : 0, false, &part[k]);
		if (ret_err < 0)
			return ret_err;
	}
	if (k == 0 || *i == n || !is_hemi(f[*i], hemi))
		return DT_ESYNTAX;
	if (part[0] > maxdeg || part[1] > 59 || part[2] > 59999)
		return DT_ERANGE;
	v = part[0] * MAS_PER_DEG + part[1] * MAS_PER_MIN + part[2];
	if (v > maxdeg * MAS_PER_DEG)
		return DT_ERANGE;
	*ret = f[*i].s[0] == hemi[0] ? LOC_EQUATOR + (uint32_t)v
				     : LOC_EQUATOR - (uint32_t)v;
	(*i)++;
	return 0;
}

static int alt_from(struct field f, uint32_t *ret)
{
	unsigned long long v;
	bool neg = f.len > 0 && f.s[0] == '-';
	int err;

	if (neg) {
		f.s++;
		f.len--;
	}
	err = parse_fixed(f, 2, true, &v);
	if (err < 0)
		return err;
	if (neg ? v > LOC_ALT_BASE : v > UINT32_MAX - LOC_ALT_BASE)
		return DT_ERANGE;
	*ret = neg ? LOC_ALT_BASE - (uint32_t)v : LOC_ALT_BASE + (uint32_t)v;
	return 0;
}

static int prec_from(struct field f, uint8_t *ret)
{
	unsigned long long cm;
	unsigned e = 0;
	int err = parse_fixed(f, 2, true, &cm);

	if (err < 0)
		return err;
	if (cm > LOC_PREC_MAXCM)
		return DT_ERANGE;
	for (; cm >= 10; cm /= 10)
		e++;
	*ret = (uint8_t)(cm << 4 | e);
	return 0;
}

int wire_loc_from_str(const char *s, size_t len, uint8_t out[WIRE_LOC_LEN])
{
	struct field f[LOC_MAXFIELDS];
	uint8_t prec[3] = {LOC_DEF_SIZE, LOC_DEF_HPRE, LOC_DEF_VPRE};
	uint32_t lat = 0, lon = 0, alt = 0;
	int n = split(s, len, f), i = 0, err;

	if (n < 0)
		return n;
	err = coord_from(f, n, &i, 90, "NS", &lat);
	if (err == 0)
		err = coord_from(f, n, &i, 180, "EW", &lon);
	if (err == 0)
		err = i < n ? alt_from(f[i++], &alt) : DT_ESYNTAX;
	for (int k = 0; err == 0 && k < 3 && i < n; k++)
		err = prec_from(f[i++], &prec[k]);
	if (err == 0 && i < n)
		err = DT_ESYNTAX;
	if (err < 0)
		return err;
	out[0] = 0;
	memcpy(out + 1, prec, 3);
	wire_put32(out + 4, lat);
	wire_put32(out + 8, lon);
	wire_put32(out + 12, alt);
	return WIRE_LOC_LEN;
}
