/* SPDX-License-Identifier: MIT */
/*
 * Root hints: where recursion starts. The built-in ones are the root
 * servers' addresses of IANA's named.root (https://www.internic.net/
 * domain/named.root, "last update: May 28, 2024", related root zone
 * version 2024052801; B-ROOT's addresses as renumbered in November 2023).
 * A hints file (root-hints) is read with the zone-file reader.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "common/file.h"
#include "upstream/iter_msg.h"
#include "upstream/iterate.h"
#include "wire/dname.h"
#include "wire/zone.h"

/* A.ROOT-SERVERS.NET .. M.ROOT-SERVERS.NET, IPv4 then IPv6. */
static const char *const iana_root[][2] = {
	{"198.41.0.4", "2001:503:ba3e::2:30"},	 /* A, Verisign */
	{"170.247.170.2", "2801:1b8:10::b"},	 /* B, USC-ISI */
	{"192.33.4.12", "2001:500:2::c"},	 /* C, Cogent */
	{"199.7.91.13", "2001:500:2d::d"},	 /* D, University of Maryland */
	{"192.203.230.10", "2001:500:a8::e"},	 /* E, NASA Ames */
	{"192.5.5.241", "2001:500:2f::f"},	 /* F, ISC */
	{"192.112.36.4", "2001:500:12::d0d"},	 /* G, US DoD */
	{"198.97.190.53", "2001:500:1::53"},	 /* H, US Army Research Lab */
	{"192.36.148.17", "2001:7fe::53"},	 /* I, Netnod */
	{"192.58.128.30", "2001:503:c27::2:30"}, /* J, Verisign */
	{"193.0.14.129", "2001:7fd::1"},	 /* K, RIPE NCC */
	{"199.7.83.42", "2001:500:9f::42"},	 /* L, ICANN */
	{"202.12.27.33", "2001:dc3::35"},	 /* M, WIDE */
};

void it_hints_builtin(struct it_hints *ret)
{
	struct it_hints h = {0};

	for (size_t fam = 0; fam < 2; fam++)
		for (size_t i = 0; i < sizeof(iana_root) / sizeof(iana_root[0]);
		     i++)
			if (up_server_parse(iana_root[i][fam], &h.addr[h.n]) ==
			    0)
				h.n++;
	*ret = h;
}

/* The NS names of the root in the text, then the addresses of those. */
struct hints_read {
	uint8_t ns[DT_IT_HINTS_MAX][DT_NAME_MAXLEN];
	size_t nns;
	struct {
		uint8_t owner[DT_NAME_MAXLEN];
		struct up_server addr;
	} a[DT_IT_HINTS_MAX * 2];
	size_t na;
};

static void take(struct hints_read *h, const struct wire_rr *rr)
{
	if (rr->type == WIRE_TYPE_NS && wire_dname_is_root(rr->owner) &&
	    h->nns < DT_IT_HINTS_MAX) {
		wire_dname_copy(h->ns[h->nns], rr->rdata);
		wire_dname_tolower(h->ns[h->nns++]);
	} else if (h->na < sizeof(h->a) / sizeof(h->a[0]) &&
		   it_addr_from_rr(rr, &h->a[h->na].addr)) {
		wire_dname_copy(h->a[h->na].owner, rr->owner);
		wire_dname_tolower(h->a[h->na++].owner);
	}
}

int it_hints_parse(const char *text, size_t len, const char *name,
		   struct it_hints *ret, char *err, size_t errlen)
{
	struct wire_zreader *zr =
		wire_zreader_new(text, len, ".", 3600000, name);
	struct hints_read *h = calloc(1, sizeof(*h));
	struct it_hints out = {0};
	struct wire_rr rr;
	int r = -ENOMEM;

	if (!zr || !h)
		goto done;
	while ((r = wire_zreader_next(zr, &rr)) == 1)
		take(h, &rr);
	if (r < 0) {
		snprintf(err, errlen, "%s", wire_zreader_error(zr));
		goto done;
	}
	for (size_t i = 0; i < h->na && out.n < DT_IT_HINTS_MAX; i++)
		for (size_t k = 0; k < h->nns; k++)
			if (wire_dname_equal(h->a[i].owner, h->ns[k])) {
				out.addr[out.n++] = h->a[i].addr;
				break;
			}
	if (out.n == 0) {
		snprintf(err, errlen,
			 "%s: no address of a root server (. NS records and "
			 "their A or AAAA records)",
			 name);
		r = DT_ESYNTAX;
		goto done;
	}
	*ret = out;
	r = 0;
done:
	if (r == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	wire_zreader_free(zr);
	free(h);
	return r;
}

int it_hints_load(const char *path, struct it_hints *ret, char *err,
		  size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int r = file_read_path(path, DT_ZONE_FILE_MAXSIZE, &text, &len);

	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, errcode_str(r));
		return r;
	}
	r = it_hints_parse(text, len, path, ret, err, errlen);
	free(text);
	return r;
}
