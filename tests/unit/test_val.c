/* SPDX-License-Identifier: MIT */
/*
 * The validator's shared types (src/validator/val.c): status order and
 * names, verdicts, limits and contexts, trace lines, grouping records into
 * RRsets, key-set release; and the per-query arena (src/common/arena.c)
 * they rely on: alignment, growth, the cap, release.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/errcode.h"
#include "crypto/key.h"
#include "validator/val.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

#include "tap.h"

static const uint8_t *dn(const char *s)
{
	static wire_dname_storage_t buf[8];
	static unsigned next;
	uint8_t *out = buf[next++ % 8];

	if (wire_dname_from_str(s, strlen(s), NULL, out) < 0)
		abort();
	return out;
}

static void test_status(void)
{
	ok(VAL_BOGUS < VAL_INDETERMINATE && VAL_INDETERMINATE < VAL_INSECURE &&
		   VAL_INSECURE < VAL_SECURE,
	   "status order: bogus < indeterminate < insecure < secure");
	is_str(val_status_name(VAL_SECURE), "secure", "name: secure");
	is_str(val_status_name(VAL_INSECURE), "insecure", "name: insecure");
	is_str(val_status_name(VAL_BOGUS), "bogus", "name: bogus");
	is_str(val_status_name(VAL_INDETERMINATE), "indeterminate",
	       "name: indeterminate");
	is_str(val_status_name((enum val_status)42), "unknown",
	       "name: out of range");
}

static void test_verdict(void)
{
	struct val_verdict v, acc, link;
	char longtext[1000];

	val_verdict_set(&v, VAL_BOGUS, WIRE_EDE_SIGNATURE_EXPIRED,
			"sig-expired", "RRSIG over %s/%s expired", "x", "A");
	ok(v.status == VAL_BOGUS && v.ede == 7 && !strcmp(v.tag, "sig-expired"),
	   "verdict_set: status, EDE and tag");
	is_str(v.reason, "RRSIG over x/A expired", "verdict_set: reason");

	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	val_verdict_set(&v, VAL_BOGUS, 6, "t", "%s", longtext);
	is_int(strlen(v.reason), VAL_REASON_MAXLEN - 1,
	       "verdict_set: long reason cut to fit");

	val_verdict_secure(&v);
	ok(v.status == VAL_SECURE && v.ede == VAL_EDE_NONE &&
		   v.reason[0] == '\0' && v.tag && !strcmp(v.tag, "secure"),
	   "verdict_secure: secure, no EDE, empty reason");

	val_verdict_secure(&acc);
	val_verdict_set(&link, VAL_INSECURE, VAL_EDE_NONE, "ins", "unsigned");
	val_verdict_weakest(&acc, &link);
	ok(acc.status == VAL_INSECURE && !strcmp(acc.tag, "ins"),
	   "weakest: secure + insecure -> insecure");
	val_verdict_set(&link, VAL_BOGUS, 6, "bog", "bad");
	val_verdict_weakest(&acc, &link);
	ok(acc.status == VAL_BOGUS && !strcmp(acc.reason, "bad"),
	   "weakest: insecure + bogus -> bogus, with its reason");
	val_verdict_set(&link, VAL_INSECURE, VAL_EDE_NONE, "ins2", "other");
	val_verdict_weakest(&acc, &link);
	ok(acc.status == VAL_BOGUS && !strcmp(acc.tag, "bog"),
	   "weakest: bogus stays bogus");
	val_verdict_set(&link, VAL_BOGUS, 9, "bog2", "second");
	val_verdict_weakest(&acc, &link);
	ok(!strcmp(acc.tag, "bog") && acc.ede == 6,
	   "weakest: among equals the first is kept");
	val_verdict_set(&acc, VAL_INSECURE, VAL_EDE_NONE, "i", "i");
	val_verdict_set(&link, VAL_INDETERMINATE, 5, "ind", "no anchor");
	val_verdict_weakest(&acc, &link);
	ok(acc.status == VAL_INDETERMINATE && acc.ede == 5,
	   "weakest: insecure + indeterminate -> indeterminate");
}

struct trace_rec {
	int calls;
	char last[256];
};

static void trace_fn(void *arg, const char *line)
{
	struct trace_rec *t = arg;

	t->calls++;
	snprintf(t->last, sizeof(t->last), "%s", line);
}

static void test_ctx(void)
{
	struct val_limits lim;
	struct val_ctx ctx;
	struct trace_rec t = {0};

	val_limits_default(&lim);
	ok(lim.sigs_per_rrset == DT_VAL_SIGS_PER_RRSET &&
		   lim.crypto_per_query == DT_VAL_CRYPTO_PER_QUERY &&
		   lim.keys_per_tag == DT_VAL_KEYS_PER_TAG &&
		   lim.rrsigs_per_rrset == DT_VAL_RRSIGS_PER_RRSET &&
		   lim.rrs_per_rrset == DT_VAL_RRS_PER_RRSET &&
		   lim.nsec3_iterations == DT_VAL_NSEC3_ITERATIONS &&
		   lim.nsec3_hashes_per_query ==
			   DT_VAL_NSEC3_HASHES_PER_QUERY &&
		   lim.chain_max == DT_VAL_CHAIN_MAX && lim.skew == DT_VAL_SKEW,
	   "limits_default: every limit from limits.h");

	memset(&ctx, 0xFF, sizeof(ctx));
	val_ctx_init(&ctx, 1234, NULL);
	ok(ctx.now == 1234 && ctx.crypto_used == 0 &&
		   ctx.nsec3_hashes_used == 0 && ctx.trace == NULL &&
		   ctx.lim.skew == DT_VAL_SKEW,
	   "ctx_init: time, defaults, nothing spent, no trace");
	lim.skew = 7;
	lim.crypto_per_query = 3;
	val_ctx_init(&ctx, -5, &lim);
	ok(ctx.now == -5 && ctx.lim.skew == 7 && ctx.lim.crypto_per_query == 3,
	   "ctx_init: the caller's limits");

	val_trace(&ctx, "nobody listens %d", 1);
	ctx.trace = trace_fn;
	ctx.trace_arg = &t;
	val_trace(&ctx, "zone %s: %s", "example.", "secure");
	ok(t.calls == 1 && !strcmp(t.last, "zone example.: secure"),
	   "trace: one formatted line to the callback");
}

/* --- grouping records into RRsets --- */

struct recs {
	struct wire_rr rr[32];
	uint8_t owner[32][DT_NAME_MAXLEN];
	uint8_t rdata[32][256];
	size_t n;
};

static void recs_text(struct recs *z, const char *text)
{
	struct wire_zreader *zr =
		wire_zreader_new(text, strlen(text), NULL, 3600, "text");
	struct wire_rr rr;

	z->n = 0;
	while (zr && wire_zreader_next(zr, &rr) == 1) {
		wire_dname_copy(z->owner[z->n], rr.owner);
		memcpy(z->rdata[z->n], rr.rdata, rr.rdlen);
		z->rr[z->n] = rr;
		z->rr[z->n].owner = z->owner[z->n];
		z->rr[z->n].rdata = z->rdata[z->n];
		z->n++;
	}
	if (!zr || wire_zreader_error(zr)[0])
		abort();
	wire_zreader_free(zr);
}

static const char mixed[] =
	/* 0 */ "a.example. 300 IN RRSIG A 8 2 300 20300101000000 "
		"20000101000000 1 example. AAAA\n"
		/* 1 */ "a.example. 300 IN A 192.0.2.1\n"
		/* 2 */ "A.EXAMPLE. 100 IN A 192.0.2.2\n"
		/* 3 */ "a.example. 300 IN AAAA 2001:db8::1\n"
		/* 4 */ "a.example. 300 CH A 192.0.2.3\n"
		/* 5 */ "b.example. 300 IN RRSIG TXT 8 2 300 20300101000000 "
		"20000101000000 1 example. AAAA\n"
		/* 6 */ "a.example. 300 IN RRSIG AAAA 8 2 300 20300101000000 "
		"20000101000000 1 example. AAAA\n"
		/* 7 */ "a.example. 300 IN RRSIG A 8 2 300 20300101000000 "
		"20000101000000 2 example. AAAA\n"
		/* 8 */ "b.example. 300 IN TXT \"t\"\n"
		/* 9 */ "c.example. 300 IN RRSIG MX 8 2 300 20300101000000 "
		"20000101000000 1 example. AAAA\n";

static void test_collect(void)
{
	static struct recs z;
	struct val_rrset *sets;
	struct arena a;

	recs_text(&z, mixed);
	arena_init(&a, 0);
	int n = val_rrsets_collect(z.rr, z.n, &a, &sets);
	is_int(n, 5, "collect: 5 RRsets (a/A, a/AAAA, a/A CH, b/TXT, c/MX)");
	if (n != 5)
		goto out;
	ok(sets[0].type == WIRE_TYPE_A && sets[0].rclass == WIRE_CLASS_IN &&
		   sets[0].n == 2 && sets[0].nsigs == 2,
	   "collect: a/A: 2 records (owner case ignored), 2 RRSIGs");
	ok(sets[0].rrs[0] == &z.rr[1] && sets[0].rrs[1] == &z.rr[2] &&
		   sets[0].sigs[0] == &z.rr[0] && sets[0].sigs[1] == &z.rr[7],
	   "collect: records and RRSIGs in input order");
	is_int(sets[0].ttl, 100, "collect: TTL is the smallest record TTL");
	ok(sets[0].owner == z.rr[0].owner,
	   "collect: first appearance (an RRSIG) names the RRset");
	ok(sets[1].type == WIRE_TYPE_AAAA && sets[1].n == 1 &&
		   sets[1].nsigs == 1 && sets[1].sigs[0] == &z.rr[6],
	   "collect: a/AAAA with its RRSIG");
	ok(sets[2].type == WIRE_TYPE_A && sets[2].rclass == WIRE_CLASS_CH &&
		   sets[2].n == 1 && sets[2].nsigs == 0,
	   "collect: CH A is its own RRset");
	ok(sets[3].type == WIRE_TYPE_TXT && sets[3].n == 1 &&
		   sets[3].nsigs == 1 && sets[3].sigs[0] == &z.rr[5] &&
		   sets[3].ttl == 300,
	   "collect: b/TXT whose RRSIG came first");
	ok(sets[4].type == WIRE_TYPE_MX && sets[4].n == 0 &&
		   sets[4].nsigs == 1 && sets[4].ttl == 0 &&
		   wire_dname_equal(sets[4].owner, dn("c.example.")),
	   "collect: RRSIG without data forms an RRset with n = 0, TTL 0");
out:
	is_int(val_rrsig_covered(&z.rr[5]), WIRE_TYPE_TXT,
	       "rrsig_covered: TXT");
	n = val_rrsets_collect(z.rr, 0, &a, &sets);
	is_int(n, 0, "collect: no records, no RRsets");
	arena_free(&a);

	/* Not enough memory: -ENOMEM, nothing else. */
	arena_init(&a, 64);
	n = val_rrsets_collect(z.rr, z.n, &a, &sets);
	is_int(n, -ENOMEM, "collect: arena cap reached -> -ENOMEM");
	arena_free(&a);
}

/* Many RRsets, their records interleaved (a response an attacker shaped):
 * each RRset still whole, in order of first appearance. */
static void test_collect_many(void)
{
	static struct wire_rr rr[4000];
	static uint8_t names[1000][32];
	struct val_rrset *sets;
	struct arena a;
	bool good = true;

	for (int i = 0; i < 1000; i++) {
		char t[32];
		snprintf(t, sizeof(t), "N%d.example.", i);
		wire_dname_from_str(t, strlen(t), NULL, names[i]);
	}
	for (int i = 0; i < 4000; i++)
		rr[i] = (struct wire_rr){.owner = names[(i * 7) % 1000],
					 .type = WIRE_TYPE_A,
					 .rclass = WIRE_CLASS_IN,
					 .ttl = (uint32_t)(4000 - i)};
	arena_init(&a, 0);
	int n = val_rrsets_collect(rr, 4000, &a, &sets);
	is_int(n, 1000, "collect: 4,000 records interleaved: 1,000 RRsets");
	for (int k = 0; k < n && good; k++) {
		good = sets[k].owner == names[(k * 7) % 1000] &&
		       sets[k].n == 4 && sets[k].rrs[0] == &rr[k] &&
		       sets[k].rrs[3] == &rr[k + 3000] &&
		       sets[k].ttl == (uint32_t)(4000 - (k + 3000));
	}
	ok(good, "collect: each whole, in input order, first appearance first");
	arena_free(&a);
}

static void test_keyset_free(void)
{
	static const char key[] =
		"example. IN DNSKEY 257 3 13 GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTme"
		"exv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==\n";
	static struct recs z;
	struct val_keyset ks;

	recs_text(&z, key);
	memset(&ks, 0, sizeof(ks));
	ks.keys = calloc(2, sizeof(*ks.keys));
	if (!ks.keys ||
	    crypto_key_new(z.rr[0].rdata, z.rr[0].rdlen, &ks.keys[0]) < 0 ||
	    crypto_key_new(z.rr[0].rdata, z.rr[0].rdlen, &ks.keys[1]) < 0)
		abort();
	ks.nkeys = 2;
	val_keyset_free(&ks);
	ok(ks.keys == NULL && ks.nkeys == 0,
	   "keyset_free: keys freed, set emptied (ASan checks the rest)");
	val_keyset_free(&ks);
	val_keyset_free(NULL);
	ok(1, "keyset_free: twice and on NULL is harmless");
}

/* --- the arena --- */

static void test_arena(void)
{
	struct arena a;
	bool aligned = true;
	size_t sizes[] = {1, 3, 7, 8, 13, 33, 100, 1000, 5};

	arena_init(&a, 0);
	ok(a.chunk == NULL && a.total == 0 && a.cap == DT_ARENA_MAXSIZE,
	   "init: empty, allocates nothing, cap 0 means the default");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *p = arena_alloc(&a, sizes[i]);
		aligned &= p && ((uintptr_t)p % alignof(max_align_t)) == 0;
		if (p)
			memset(p, 0xAB, sizes[i]);
	}
	ok(aligned, "alloc: every block aligned for max_align_t");
	is_int(a.total, DT_ARENA_CHUNK, "alloc: small blocks share a chunk");

	void *big = arena_alloc(&a, 3 * DT_ARENA_CHUNK);
	ok(big && ((uintptr_t)big % alignof(max_align_t)) == 0,
	   "alloc: a block larger than a chunk gets its own");
	is_int(a.total, 4 * DT_ARENA_CHUNK, "alloc: total counts it");
	memset(big, 0, 3 * DT_ARENA_CHUNK);

	char *s = arena_memdup(&a, "hello", 6);
	ok(s && !strcmp(s, "hello"), "memdup copies");
	ok(arena_memdup(&a, "", 0) != NULL, "memdup of 0 octets: not NULL");
	ok(arena_alloc(&a, SIZE_MAX) == NULL, "alloc SIZE_MAX: NULL");
	ok(arena_alloc(&a, SIZE_MAX / 2 + 1) == NULL,
	   "alloc over half the address space: NULL");

	arena_free(&a);
	ok(a.chunk == NULL && a.total == 0 && a.used == 0, "free: empty again");
	ok(arena_alloc(&a, 10) != NULL, "free: usable again");
	arena_free(&a);

	arena_init(&a, 20000);
	ok(arena_alloc(&a, 100) != NULL, "cap 20000: first chunk fits");
	ok(arena_alloc(&a, DT_ARENA_CHUNK) == NULL,
	   "cap 20000: a second chunk would pass the cap: NULL");
	ok(arena_alloc(&a, 1000) != NULL,
	   "cap 20000: still room in the current chunk");
	ok(a.total <= 20000, "cap 20000: total never above the cap");
	arena_free(&a);

	arena_init(&a, 100);
	ok(arena_alloc(&a, 1) == NULL,
	   "cap below a chunk: nothing can be allocated");
	arena_free(&a);
}

int main(void)
{
	test_status();
	test_verdict();
	test_ctx();
	test_collect();
	test_collect_many();
	test_keyset_free();
	test_arena();
	return done_testing();
}
