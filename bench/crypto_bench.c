/* SPDX-License-Identifier: MIT */
/*
 * RRset verifications per second through val_rrset_verify(), the path
 * every answer takes: RRSIG checks, canonical form and order of the
 * records, signed data, then src/crypto and OpenSSL.
 *
 * For each signed zone file given: the ZSK (the DNSKEY without the SEP
 * flag) is parsed once, as the key cache will keep it; the A RRset with
 * the most records is the RRset verified. Each verification is one
 * question's (a fresh val_ctx, so no budget runs out), and must be secure.
 * Also timed: crypto_key_new() of that DNSKEY, to show what parsing once
 * saves. Rates are per second of CPU time.
 *
 * usage: crypto_bench [-s SECONDS | -n COUNT] ZONEFILE...
 * prints one line per file:
 *   alg NAME bits N verify/s R keyparse/s P rrs K datalen D
 * With -n, exactly COUNT verifications per file and no key-parse timing
 * (keyparse/s 0): for `perf stat`, whose instruction counts do not move
 * with the machine's load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/arena.h"
#include "crypto/alg.h"
#include "crypto/key.h"
#include "validator/sig.h"
#include "validator/val.h"
#include "wire/dname.h"
#include "wire/rr.h"
#include "wire/zone.h"

struct input {
	struct arena arena;
	struct wire_rr *rr;
	size_t n, cap;
};

/* CPU time of the process, as `openssl speed` counts by default (user
 * time), so that other load on the machine does not skew the ratio. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int read_zone(const char *path, struct input *in)
{
	struct wire_zreader *zr;
	struct wire_rr rr;
	int r = wire_zreader_open(path, NULL, 3600, &zr);

	if (r < 0) {
		fprintf(stderr, "crypto_bench: %s: cannot read (%d)\n", path, r);
		return -1;
	}
	while ((r = wire_zreader_next(zr, &rr)) > 0) {
		if (in->n == in->cap) {
			size_t cap = in->cap ? 2 * in->cap : 64;
			struct wire_rr *nr = realloc(in->rr, cap * sizeof(*nr));
			if (!nr) {
				r = -ENOMEM;
				break;
			}
			in->rr = nr;
			in->cap = cap;
		}
		rr.owner = arena_memdup(&in->arena, rr.owner,
					wire_dname_len(rr.owner));
		rr.rdata = arena_memdup(&in->arena, rr.rdata, rr.rdlen);
		if (!rr.owner || !rr.rdata) {
			r = -ENOMEM;
			break;
		}
		in->rr[in->n++] = rr;
	}
	if (r < 0)
		fprintf(stderr, "crypto_bench: %s\n", wire_zreader_error(zr));
	wire_zreader_free(zr);
	return r < 0 ? -1 : 0;
}

/* The ZSK: a zone key without the SEP flag. */
static const struct wire_rr *find_zsk(const struct input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		const struct wire_rr *rr = &in->rr[i];
		if (rr->type == WIRE_TYPE_DNSKEY && rr->rdlen > 4 &&
		    (rr->rdata[0] << 8 | rr->rdata[1]) == CRYPTO_KEY_FLAG_ZONE)
			return rr;
	}
	return NULL;
}

static const struct val_rrset *find_set(const struct val_rrset *sets,
					size_t n)
{
	const struct val_rrset *best = NULL;

	for (size_t i = 0; i < n; i++) {
		if (sets[i].type == WIRE_TYPE_A && sets[i].nsigs &&
		    (!best || sets[i].n > best->n))
			best = &sets[i];
	}
	return best;
}

/* Key parses per second of rr, for about a tenth of the time given. */
static double parse_rate(const struct wire_rr *rr, double seconds)
{
	double t0 = now_s(), t;
	unsigned long count = 0;

	do {
		for (int i = 0; i < 16; i++) {
			struct crypto_key *k;
			if (crypto_key_new(rr->rdata, rr->rdlen, &k) < 0)
				return 0;
			crypto_key_free(k);
		}
		count += 16;
		t = now_s() - t0;
	} while (t < seconds / 10);
	return (double)count / t;
}

static int bench_file(const char *path, double seconds, unsigned long fixed)
{
	struct input in = {.rr = NULL};
	struct val_rrset *sets;
	struct crypto_key *key = NULL;
	int ret = -1;

	arena_init(&in.arena, 0);
	if (read_zone(path, &in) < 0)
		goto out;
	int nsets = val_rrsets_collect(in.rr, in.n, &in.arena, &sets);
	const struct wire_rr *zsk = find_zsk(&in);
	const struct val_rrset *set =
		nsets > 0 ? find_set(sets, (size_t)nsets) : NULL;
	if (!zsk || !set || crypto_key_new(zsk->rdata, zsk->rdlen, &key) < 0) {
		fprintf(stderr, "crypto_bench: %s: no usable ZSK or signed A "
				"RRset\n",
			path);
		goto out;
	}

	struct val_keyset ks = {.nkeys = 1, .keys = &key, .ttl = 0};
	wire_dname_copy(ks.zone, zsk->owner);
	val_verdict_secure(&ks.verdict);

	struct val_ctx ctx;
	struct val_verdict v;
	int64_t when = (int64_t)time(NULL);
	val_ctx_init(&ctx, when, NULL);
	if (val_rrset_verify(&ctx, set, &ks, NULL, &v) < 0 ||
	    v.status != VAL_SECURE) {
		fprintf(stderr, "crypto_bench: %s: the RRset does not verify: "
				"%s [%s]\n",
			path, v.reason, v.tag);
		goto out;
	}

	size_t datalen = 0;
	for (size_t i = 0; i < set->n; i++)
		datalen += wire_dname_len(set->owner) + 10 + set->rrs[i]->rdlen;

	unsigned long count = 0;
	double t0 = now_s(), t;
	do {
		for (int i = 0; i < 32; i++) {
			val_ctx_init(&ctx, when, NULL);
			if (val_rrset_verify(&ctx, set, &ks, NULL, &v) < 0 ||
			    v.status != VAL_SECURE)
				goto out;
		}
		count += 32;
		t = now_s() - t0;
	} while (fixed ? count < fixed : t < seconds);

	printf("alg %u %s bits %u verify/s %.0f keyparse/s %.0f rrs %zu "
	       "datalen %zu\n",
	       crypto_key_alg(key), crypto_alg_name(crypto_key_alg(key)),
	       crypto_key_bits(key), (double)count / t,
	       fixed ? 0 : parse_rate(zsk, seconds), set->n, datalen);
	ret = 0;
out:
	crypto_key_free(key);
	free(in.rr);
	arena_free(&in.arena);
	return ret;
}

int main(int argc, char **argv)
{
	double seconds = 3;
	unsigned long fixed = 0;
	int c, ret = 0;

	while ((c = getopt(argc, argv, "s:n:")) != -1) {
		if (c == 's')
			seconds = atof(optarg);
		else if (c == 'n')
			fixed = strtoul(optarg, NULL, 10);
		else
			goto usage;
	}
	if (optind >= argc || seconds <= 0)
		goto usage;
	for (int i = optind; i < argc; i++) {
		if (bench_file(argv[i], seconds, fixed) < 0)
			ret = 1;
	}
	return ret;
usage:
	fprintf(stderr, "usage: crypto_bench [-s SECONDS | -n COUNT] "
			"ZONEFILE...\n");
	return 64;
}
