/* SPDX-License-Identifier: MIT */
/*
 * A small signed zone for the tests of the used list (test_response.c,
 * test_render.c) and the render fuzz target: secure.test., ECDSA P-256,
 * NSEC, signed with ldns-signzone (-i 20260101000000 -e 20360101000000)
 * over this source:
 *
 *   @ SOA ns host 1 7200 3600 1209600 300    @ NS ns    ns A 192.0.2.53
 *   www A 192.0.2.1    www TXT "genuine"     two A 192.0.2.3, 192.0.2.4
 *   alias CNAME www    sub DNAME other       www.other A 192.0.2.2
 *   _443._tcp.www TLSA 3 1 1 0102...1f20
 *
 * The trust anchor is the KSK (tag 29102); FIXTURE_NOW lies inside the
 * signatures' validity. Records are one per line, tab-separated, so that
 * fixture_select() can pick RRsets out of it.
 */
#ifndef DT_TESTS_RESPONSE_FIXTURE_H
#define DT_TESTS_RESPONSE_FIXTURE_H

/* 2026-06-01T00:00:00Z */
#define FIXTURE_NOW 1780272000

static const char fixture_anchor[] =
	"secure.test. IN DNSKEY 257 3 13 EmyjAvbYlvOVoc+hzTBzrGpoOqbv7Dla4AIhh2ZUXQJbN+i5dqn9+ghUDOf0AWfraAn0WIxuQLc1mU49uI1hYw==\n";

static const char fixture_zone[] =
	"secure.test.\t3600\tIN\tSOA\tns.secure.test. host.secure.test. 1 7200 3600 1209600 300\n"
	"secure.test.\t3600\tIN\tRRSIG\tSOA 13 2 3600 20360101000000 20260101000000 12458 secure.test. 43it6dWKzx+28pLLajJMSZT+yPyvQ5a8rvLcRUJoCFaoAk82VVQ2H1JKt+yhX4cZXxf7k70Ltj/NYscZBfZ13w==\n"
	"secure.test.\t3600\tIN\tNS\tns.secure.test.\n"
	"secure.test.\t3600\tIN\tRRSIG\tNS 13 2 3600 20360101000000 20260101000000 12458 secure.test. BspD0sq7kNQMBzpToS50zZycfvn1gcSJY4KhjcAGme8PQFUrnp5rVQd8q82ocW855pEOdnXpUyiWZrTKcO+ukw==\n"
	"secure.test.\t3600\tIN\tDNSKEY\t256 3 13 8m3ANqlp2e1Wo12HsOsfmigFmW8skCnH1skRy3RQagN+McctAMyLToW7fVyyHU1J9PJ8tfUuXlWRQjhDJ2UJKw==\n"
	"secure.test.\t3600\tIN\tDNSKEY\t257 3 13 EmyjAvbYlvOVoc+hzTBzrGpoOqbv7Dla4AIhh2ZUXQJbN+i5dqn9+ghUDOf0AWfraAn0WIxuQLc1mU49uI1hYw==\n"
	"secure.test.\t3600\tIN\tRRSIG\tDNSKEY 13 2 3600 20360101000000 20260101000000 29102 secure.test. C3G315byrWBZzrooBQcS9ObIABTREs6svNOEnVpyK1QbWFMNK+mWYdu2lsOhljUOXGDMtuhZA35yt2x+5AXdMg==\n"
	"secure.test.\t300\tIN\tNSEC\talias.secure.test. NS SOA RRSIG NSEC DNSKEY\n"
	"secure.test.\t300\tIN\tRRSIG\tNSEC 13 2 300 20360101000000 20260101000000 12458 secure.test. T9bVHQ9DCzIGXCdebzVhyluIzId943FoRSh+NSsZnAlGf6GNi13FRb9ytlK8ygDAkfwRNaEaVppxtmYno9246w==\n"
	"alias.secure.test.\t3600\tIN\tCNAME\twww.secure.test.\n"
	"alias.secure.test.\t3600\tIN\tRRSIG\tCNAME 13 3 3600 20360101000000 20260101000000 12458 secure.test. qyKfWmUkuMQRIsklXnukz3hZr02tITdELiK5m6FwLugrQ+LBcsBLAGen/6fS3TOMWioCT2R18nFWMR3tVTAE9g==\n"
	"alias.secure.test.\t300\tIN\tNSEC\tns.secure.test. CNAME RRSIG NSEC\n"
	"alias.secure.test.\t300\tIN\tRRSIG\tNSEC 13 3 300 20360101000000 20260101000000 12458 secure.test. EfrfzxBtNHaW5gd7SfX0PGusD2kkyI7Vlra7+rnJtkx0k1Z4ZGacIVEuEpaTaK6VEPbmDPlIZCYEr/vlEDWCAQ==\n"
	"ns.secure.test.\t3600\tIN\tA\t192.0.2.53\n"
	"ns.secure.test.\t3600\tIN\tRRSIG\tA 13 3 3600 20360101000000 20260101000000 12458 secure.test. OWYXV2Ql/msb3l8QgzLMmSHPkIIwVbd7Cp+oXE5BM7MnxUgvACe1OO8xYqBM/1hRmct5Y8n8PiO+OWYHypq6fA==\n"
	"ns.secure.test.\t300\tIN\tNSEC\twww.other.secure.test. A RRSIG NSEC\n"
	"ns.secure.test.\t300\tIN\tRRSIG\tNSEC 13 3 300 20360101000000 20260101000000 12458 secure.test. q2jWuJzquYhKBMOWwNYcB9IDUkKOgVlSpUkUQIrJmtSHzfRDFHMjubA7nQJJf2wNAd30goTFnp5vLAjdDFSNVA==\n"
	"www.other.secure.test.\t3600\tIN\tA\t192.0.2.2\n"
	"www.other.secure.test.\t3600\tIN\tRRSIG\tA 13 4 3600 20360101000000 20260101000000 12458 secure.test. Lh2Zkvits+OOuq7p/FEllWXzn6K2p8VxTyalffFsygme3R+5spnhq1a1GHI7rpzUMzP2vSLTQpTLwcf9E8T/Vg==\n"
	"www.other.secure.test.\t300\tIN\tNSEC\tsub.secure.test. A RRSIG NSEC\n"
	"www.other.secure.test.\t300\tIN\tRRSIG\tNSEC 13 4 300 20360101000000 20260101000000 12458 secure.test. frCSUCZCj7yI0L7O44z6ZJ5HXh+2L8s7+ngYE4NBvabGlFhIK/OUeowClhIEVq42AxP6HBEfs+5VsMkqoPIcbg==\n"
	"sub.secure.test.\t3600\tIN\tDNAME\tother.secure.test.\n"
	"sub.secure.test.\t3600\tIN\tRRSIG\tDNAME 13 3 3600 20360101000000 20260101000000 12458 secure.test. QEEWvt015n1B3PfveXUmiVZTrFOdhVHIrkyuMqet/cVbxc2f90U29zbhLGIcxEFN4ZQXyftBhVqVJl4HA+MA3Q==\n"
	"sub.secure.test.\t300\tIN\tNSEC\ttwo.secure.test. DNAME RRSIG NSEC\n"
	"sub.secure.test.\t300\tIN\tRRSIG\tNSEC 13 3 300 20360101000000 20260101000000 12458 secure.test. pl9TPu56dSDLhquZsup6AwTqJI36PPpvx988VkiuG8Fe4UHSAzdDhTkzpedIoUsBq3qvTw6QHIn8615A6ZkPag==\n"
	"two.secure.test.\t3600\tIN\tA\t192.0.2.3\n"
	"two.secure.test.\t3600\tIN\tA\t192.0.2.4\n"
	"two.secure.test.\t3600\tIN\tRRSIG\tA 13 3 3600 20360101000000 20260101000000 12458 secure.test. op6NF1th7vZI7ENYQQDXJQpP6/80Y+s3EEWuiEKCrUHPYL2eMeL82W2U4E1pjWw/pkqzGYSyadoTGBOEtTtFXw==\n"
	"two.secure.test.\t300\tIN\tNSEC\twww.secure.test. A RRSIG NSEC\n"
	"two.secure.test.\t300\tIN\tRRSIG\tNSEC 13 3 300 20360101000000 20260101000000 12458 secure.test. 2susalFzIW5s58XqsDREnBrdRd/iHNsshzbJE3+sts6WaQG5NiF2Ypm2bIK3wjxo30Cjh15cI8G5cffjKAviLw==\n"
	"www.secure.test.\t3600\tIN\tA\t192.0.2.1\n"
	"www.secure.test.\t3600\tIN\tRRSIG\tA 13 3 3600 20360101000000 20260101000000 12458 secure.test. yQa2JhCAdtFntHSRoaOeZ9rEhfngV7ZdBVOuuPqhC1JLxcyN6p/y18GvqSLVSOeUeoVc40uStNFQW1P8A43AoA==\n"
	"www.secure.test.\t3600\tIN\tTXT\t\"genuine\"\n"
	"www.secure.test.\t3600\tIN\tRRSIG\tTXT 13 3 3600 20360101000000 20260101000000 12458 secure.test. AATb+Wwf+ZqfabmJ/Kw/5NnnsYh7DF28zSh8AGUIL2PhC0iEsE4Xu7kAnbZje28DBPxxEJQXmBQwDWHR1rW4FA==\n"
	"www.secure.test.\t300\tIN\tNSEC\t_443._tcp.www.secure.test. A TXT RRSIG NSEC\n"
	"www.secure.test.\t300\tIN\tRRSIG\tNSEC 13 3 300 20360101000000 20260101000000 12458 secure.test. S4k33SGl9OExqzXGjEhmglsmiUobGNf3I4HLbBRtFP9MZiITdNgXE7i2co42h+wkZ0e+IOhPxSA+OVFn4aLXMQ==\n"
	"_443._tcp.www.secure.test.\t3600\tIN\tTLSA\t3 1 1 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20\n"
	"_443._tcp.www.secure.test.\t3600\tIN\tRRSIG\tTLSA 13 5 3600 20360101000000 20260101000000 12458 secure.test. nxtO2nsyetdX3Y5bIX7jiWvzBFmdrLhQ47WRoBYTYDwarD6gNtJ4scgp9LTBqI9YldN/KD039YtuqT4ci1jUOg==\n"
	"_443._tcp.www.secure.test.\t300\tIN\tNSEC\tsecure.test. RRSIG NSEC TLSA\n"
	"_443._tcp.www.secure.test.\t300\tIN\tRRSIG\tNSEC 13 5 300 20360101000000 20260101000000 12458 secure.test. OLaKZAJE2Q767ZO8ckyJtqJa8L4bOuIO3DE4h5CBSPE52v8+wrSbHziXjhUqx49FJAF0vJlEsqJSsENmtT2E1w==\n";

/* --- records from text --- */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "wire/dname.h"
#include "wire/zone.h"

struct fx_rrs {
	struct wire_rr *rr;
	size_t n;
};

/* Appends the records of a zone text to out (each record's owner and
 * RDATA in one allocation). Returns 0, or -1 on a reader error. */
static inline int fx_load(const char *text, struct fx_rrs *out)
{
	struct wire_zreader *zr =
		wire_zreader_new(text, strlen(text), ".", 3600, "fixture");
	struct wire_rr rr;
	int r;

	if (!zr)
		return -1;
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		struct wire_rr *nr =
			realloc(out->rr, (out->n + 1) * sizeof(*nr));
		size_t olen = wire_dname_len(rr.owner);
		uint8_t *mem = malloc(olen + rr.rdlen + 1);
		if (!nr || !mem) {
			free(mem);
			if (nr)
				out->rr = nr;
			wire_zreader_free(zr);
			return -1;
		}
		memcpy(mem, rr.owner, olen);
		memcpy(mem + olen, rr.rdata, rr.rdlen);
		out->rr = nr;
		out->rr[out->n] = rr;
		out->rr[out->n].owner = mem;
		out->rr[out->n].rdata = mem + olen;
		out->n++;
	}
	r = r < 0 || wire_zreader_error(zr)[0] ? -1 : 0;
	wire_zreader_free(zr);
	return r;
}

static inline void fx_free(struct fx_rrs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free((void *)r->rr[i].owner);
	free(r->rr);
	r->rr = NULL;
	r->n = 0;
}

/* Appends to buf (cap octets) the lines of fixture_zone owned by owner
 * whose type is type, with the RRSIGs covering type. */
static inline void fx_select(char *buf, size_t cap, const char *owner,
			     const char *type)
{
	const char *p = fixture_zone;
	size_t olen = strlen(owner), tlen = strlen(type);

	while (*p) {
		const char *end = strchr(p, '\n');
		const char *f = p;
		size_t len = (size_t)(end - p) + 1;
		/* owner \t ttl \t class \t type \t rdata */
		const char *t = f;
		for (int i = 0; i < 3 && t; i++)
			t = strchr(t, '\t') ? strchr(t, '\t') + 1 : NULL;
		bool mine = strncmp(f, owner, olen) == 0 && f[olen] == '\t' && t;
		bool rtype = t && strncmp(t, type, tlen) == 0 && t[tlen] == '\t';
		bool sig = t && strncmp(t, "RRSIG\t", 6) == 0 &&
			   strncmp(t + 6, type, tlen) == 0 && t[6 + tlen] == ' ';
		if (mine && (rtype || sig) && strlen(buf) + len < cap)
			strncat(buf, p, len);
		p = end + 1;
	}
}

#endif
