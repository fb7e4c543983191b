/* SPDX-License-Identifier: MIT */
/*
 * Trust anchors, grouped by zone. Each zone is its own allocation, so the
 * pointers val_anchors_find() and val_anchors_get() return stay valid
 * while more anchors are added; each record owns a copy of its RDATA and
 * points at its zone's name as owner.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "validator/anchor.h"
#include "wire/dname.h"
#include "wire/zone.h"

struct val_anchors {
	struct val_anchor_zone **zones;
	size_t n;
};

/*
 * The IANA root trust anchors (https://data.iana.org/root-anchors/
 * root-anchors.xml): KSK-2017 (key tag 20326) and KSK-2024 (key tag
 * 38696), both RSASHA256 with SHA-256 digests.
 */
static const char root_anchors[] =
	". IN DS 20326 8 2 "
	"E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D\n"
	". IN DS 38696 8 2 "
	"683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16\n";

/* The TTL given to anchors read without one; anchors do not expire, the
 * value only fills the field. */
#define ANCHOR_TTL 172800

struct val_anchors *val_anchors_new(void)
{
	return calloc(1, sizeof(struct val_anchors));
}

static void free_rrs(struct wire_rr *rrs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((void *)rrs[i].rdata);
	free(rrs);
}

void val_anchors_free(struct val_anchors *ta)
{
	if (!ta)
		return;
	for (size_t i = 0; i < ta->n; i++) {
		free_rrs(ta->zones[i]->ds, ta->zones[i]->nds);
		free_rrs(ta->zones[i]->dnskey, ta->zones[i]->ndnskey);
		free(ta->zones[i]);
	}
	free(ta->zones);
	free(ta);
}

/* --- adding --- */

/* What val_anchors_add() accepts; returns 0 or the error it returns. */
static int anchor_check(const struct wire_rr *rr)
{
	if (rr->type != WIRE_TYPE_DS && rr->type != WIRE_TYPE_DNSKEY)
		return DT_ETYPE;
	if (rr->rclass != WIRE_CLASS_IN)
		return DT_ERDATA;
	return wire_rdata_check(rr->type, rr->rdata, rr->rdlen);
}

static struct val_anchor_zone *zone_get(const struct val_anchors *ta,
					const uint8_t *zone)
{
	for (size_t i = 0; i < ta->n; i++) {
		if (wire_dname_equal(ta->zones[i]->zone, zone))
			return ta->zones[i];
	}
	return NULL;
}

/* A new, empty zone appended to ta, or NULL when out of memory. */
static struct val_anchor_zone *zone_add(struct val_anchors *ta,
					const uint8_t *zone)
{
	struct val_anchor_zone **nz =
		realloc(ta->zones, (ta->n + 1) * sizeof(*nz));
	struct val_anchor_zone *az;

	if (!nz)
		return NULL;
	ta->zones = nz;
	az = calloc(1, sizeof(*az));
	if (!az)
		return NULL;
	wire_dname_copy(az->zone, zone);
	wire_dname_tolower(az->zone);
	ta->zones[ta->n++] = az;
	return az;
}

static bool rr_present(const struct wire_rr *rrs, size_t n,
		       const struct wire_rr *rr)
{
	for (size_t i = 0; i < n; i++) {
		if (rrs[i].rdlen == rr->rdlen &&
		    memcmp(rrs[i].rdata, rr->rdata, rr->rdlen) == 0)
			return true;
	}
	return false;
}

/* Appends a copy of rr to a zone's list. Returns 0 or -ENOMEM. */
static int rr_append(struct val_anchor_zone *az, struct wire_rr **list,
		     size_t *n, const struct wire_rr *rr)
{
	uint8_t *rdata = malloc(rr->rdlen ? rr->rdlen : 1);
	struct wire_rr *nl;

	if (!rdata)
		return -ENOMEM;
	nl = realloc(*list, (*n + 1) * sizeof(*nl));
	if (!nl) {
		free(rdata);
		return -ENOMEM;
	}
	memcpy(rdata, rr->rdata, rr->rdlen);
	nl[*n] = (struct wire_rr){
		.owner = az->zone,
		.type = rr->type,
		.rclass = rr->rclass,
		.ttl = rr->ttl,
		.rdlen = rr->rdlen,
		.rdata = rdata,
	};
	*list = nl;
	(*n)++;
	return 0;
}

int val_anchors_add(struct val_anchors *ta, const struct wire_rr *rr)
{
	bool ds = rr->type == WIRE_TYPE_DS;
	bool created = false;
	int r = anchor_check(rr);

	if (r < 0)
		return r;
	struct val_anchor_zone *az = zone_get(ta, rr->owner);
	if (!az) {
		az = zone_add(ta, rr->owner);
		if (!az)
			return -ENOMEM;
		created = true;
	}
	if (rr_present(ds ? az->ds : az->dnskey, ds ? az->nds : az->ndnskey,
		       rr))
		return 0;
	r = rr_append(az, ds ? &az->ds : &az->dnskey,
		      ds ? &az->nds : &az->ndnskey, rr);
	if (r < 0 && created) {
		/* No zone without records: it would be an anchor for nothing.
		 */
		free(ta->zones[--ta->n]);
	}
	return r;
}

/* --- reading presentation format --- */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Explains why anchor_check() refused rr read at fname:line. */
static void explain(const struct wire_rr *rr, int code, const char *fname,
		    unsigned line, char *err, size_t errlen)
{
	char buf[16];

	if (code == DT_ETYPE)
		set_err(err, errlen,
			"%s:%u: a %s record is not a trust anchor (DS or "
			"DNSKEY expected)",
			fname, line, wire_type_to_str(rr->type, buf));
	else if (rr->rclass != WIRE_CLASS_IN)
		set_err(err, errlen,
			"%s:%u: class %s: trust anchors are class IN", fname,
			line, wire_class_to_str(rr->rclass, buf));
	else
		set_err(err, errlen, "%s:%u: %s", fname, line,
			errcode_str(code));
}

/* Adds every DS and DNSKEY record zr yields; RRSIGs (as dig +dnssec
 * prints them next to a DNSKEY RRset) are skipped. Frees zr. */
static int read_anchors(struct val_anchors *ta, struct wire_zreader *zr,
			const char *fname, char *err, size_t errlen)
{
	struct wire_rr rr;
	int r;

	set_err(err, errlen, "%s", "");
	while ((r = wire_zreader_next(zr, &rr)) == 1) {
		if (rr.type == WIRE_TYPE_RRSIG)
			continue;
		r = val_anchors_add(ta, &rr);
		if (r < 0) {
			explain(&rr, r, fname, wire_zreader_line(zr), err,
				errlen);
			break;
		}
	}
	if (r < 0 && !(err && errlen && err[0]))
		set_err(err, errlen, "%s", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r;
}

int val_anchors_load(struct val_anchors *ta, const char *path, char *err,
		     size_t errlen)
{
	struct wire_zreader *zr;
	int r = wire_zreader_open(path, ".", ANCHOR_TTL, &zr);

	if (r < 0) {
		set_err(err, errlen, "%s: %s", path, errcode_str(r));
		return r;
	}
	return read_anchors(ta, zr, path, err, errlen);
}

int val_anchors_add_root(struct val_anchors *ta)
{
	struct wire_zreader *zr =
		wire_zreader_new(root_anchors, sizeof(root_anchors) - 1, ".",
				 ANCHOR_TTL, "built-in root anchors");

	if (!zr)
		return -ENOMEM;
	return read_anchors(ta, zr, "built-in root anchors", NULL, 0);
}

/* --- looking up --- */

const struct val_anchor_zone *val_anchors_find(const struct val_anchors *ta,
					       const uint8_t *name)
{
	const struct val_anchor_zone *best = NULL;
	int best_labels = -1;

	for (size_t i = 0; i < ta->n; i++) {
		const struct val_anchor_zone *az = ta->zones[i];
		int labels = wire_dname_labels(az->zone);
		if (labels > best_labels &&
		    wire_dname_is_subdomain(name, az->zone)) {
			best = az;
			best_labels = labels;
		}
	}
	return best;
}

size_t val_anchors_count(const struct val_anchors *ta)
{
	return ta->n;
}

const struct val_anchor_zone *val_anchors_get(const struct val_anchors *ta,
					      size_t i)
{
	return i < ta->n ? ta->zones[i] : NULL;
}
