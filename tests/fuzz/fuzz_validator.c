/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: arbitrary messages into the validator, with a fixed trust
 * anchor (the RFC 4035 Appendix A KSK of "example.") and a fixed time
 * inside that zone's signature window. The message's records, plus the
 * zone's signed DNSKEY RRset, form the offline key source; the question
 * and RCODE are the message's. The verdict must be one of the four
 * statuses; crashes, leaks and sanitizer reports are the findings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/errcode.h"
#include "validator/anchor.h"
#include "validator/bag.h"
#include "validator/response.h"
#include "wire/dname.h"
#include "wire/msg.h"
#include "wire/zone.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 2004-04-20, inside the RFC 4035 example signatures' window. */
#define FUZZ_NOW 1082419200

static const char keys_text[] =
	"example. 3600 IN DNSKEY 256 3 5 AQOy1bZVvpPqhg4j7EJoM9rI3ZmyEx2OzDBVrZy/lvI5CQePxXHZS4i8dANH4DX3tbHol61ek8EFMcsGXxKciJFHyhl94C+NwILQdzsUlSFovBZsyl/NX6yEbtw/xN9ZNcrbYvgjjZ/UVPZIySFNsgEYvh0z2542lzMKR4Dh8uZffQ==\n"
	"example. 3600 IN DNSKEY 257 3 5 AQOeX7+baTmvpVHb2CcLnL1dMRWbuscRvHXlLnXwDzvqp4tZVKp1sZMepFb8MvxhhW3y/0QZsyCjczGJ1qk8vJe52iOhInKROVLRwxGpMfzPRLMlGybr51bOV/1se0ODacj3DomyB4QB5gKTYot/K9alk5/j8vfd4jWCWD+E1Sze0Q==\n"
	"example. 3600 IN RRSIG DNSKEY 5 1 3600 20040509183619 20040409183619 9465 example. ZxgauAuIj+k1YoVEOSlZfx41fcmKzTFHoweZxYnz99JVQZJ33wFS0Q0jcP7VXKkaElXk9nYJXevO/7nAbo88iWsMkSpSR6jWzYYKwfrBI/L9hjYmyVO9m6FjQ7uwM4dCP/bIuV/DKqOAK9NYNC3AHfvCV1Tp4VKDqxqG7R5tTVM=\n"
	"example. 3600 IN RRSIG DNSKEY 5 1 3600 20040509183619 20040409183619 38519 example. eGL0s90glUqcOmloo/2y+bSzyEfKVOQViD9ZDNhLz/Yn9CQZlDVRJffACQDAUhXpU/oP34ribKBpysRXosczFrKqS5Oa0bzMOfXCXup9qHApeFIku28Vqfr8Nt7cigZLxjK+u0Ws/4lIRjKk7z5OXogYVaFzHKillDt3HRxHIZM=\n";

static const char anchor_text[] = "example. 3600 IN DNSKEY 257 3 5 AQOeX7+baTmvpVHb2CcLnL1dMRWbuscRvHXlLnXwDzvqp4tZVKp1sZMepFb8MvxhhW3y/0QZsyCjczGJ1qk8vJe52iOhInKROVLRwxGpMfzPRLMlGybr51bOV/1se0ODacj3DomyB4QB5gKTYot/K9alk5/j8vfd4jWCWD+E1Sze0Q==\n";

/* Records of a zone text, copied into one array (read once). */
struct fixed {
	struct wire_rr *rr;
	size_t n;
};

static void load_text(const char *text, struct fixed *out)
{
	struct wire_zreader *zr =
		wire_zreader_new(text, strlen(text), ".", 3600, "fixed");
	struct wire_rr rr;

	if (!zr)
		abort();
	while (wire_zreader_next(zr, &rr) > 0) {
		struct wire_rr *nr = realloc(out->rr, (out->n + 1) * sizeof(*nr));
		size_t olen = wire_dname_len(rr.owner);
		uint8_t *mem = malloc(olen + rr.rdlen + 1);
		if (!nr || !mem)
			abort();
		memcpy(mem, rr.owner, olen);
		memcpy(mem + olen, rr.rdata, rr.rdlen);
		out->rr = nr;
		out->rr[out->n] = rr;
		out->rr[out->n].owner = mem;
		out->rr[out->n].rdata = mem + olen;
		out->n++;
	}
	if (wire_zreader_error(zr)[0])
		abort();
	wire_zreader_free(zr);
}

static struct val_anchors *fixed_anchors(void)
{
	static struct val_anchors *ta;
	struct fixed a = {0};

	if (ta)
		return ta;
	load_text(anchor_text, &a);
	ta = val_anchors_new();
	if (!ta || a.n != 1 || val_anchors_add(ta, &a.rr[0]) < 0)
		abort();
	free((void *)a.rr[0].owner);
	free(a.rr);
	return ta;
}

static const struct fixed *fixed_keys(void)
{
	static struct fixed keys;

	if (!keys.rr)
		load_text(keys_text, &keys);
	return &keys;
}

static void validate(const struct wire_msg *m)
{
	const struct fixed *keys = fixed_keys();
	size_t total = keys->n;
	struct val_keysource src;
	struct val_result res;
	struct val_ctx ctx;

	for (int s = 0; s < WIRE_SEC_COUNT; s++)
		total += m->count[s];
	struct wire_rr *all = malloc(total * sizeof(*all));
	if (!all)
		abort();
	size_t n = 0;
	for (int s = 0; s < WIRE_SEC_COUNT; s++) {
		memcpy(all + n, m->sec[s], m->count[s] * sizeof(*all));
		n += m->count[s];
	}
	memcpy(all + n, keys->rr, keys->n * sizeof(*all));
	val_ctx_init(&ctx, FUZZ_NOW, NULL);
	struct val_bag *bag = val_bag_new(&ctx, fixed_anchors(), all, total);
	if (!bag)
		abort();
	val_bag_keysource(bag, &src);
	struct val_response resp = {
		.qname = m->qname,
		.qtype = m->qtype,
		.qclass = m->qclass,
		.rcode = m->rcode,
		.answer = m->sec[WIRE_SEC_ANSWER],
		.nanswer = m->count[WIRE_SEC_ANSWER],
		.authority = m->sec[WIRE_SEC_AUTHORITY],
		.nauthority = m->count[WIRE_SEC_AUTHORITY],
	};
	if (val_response_validate(&ctx, &resp, &src, &res) == 0 &&
	    res.verdict.status > VAL_SECURE)
		abort();
	if (ctx.crypto_used > ctx.lim.crypto_per_query ||
	    ctx.nsec3_hashes_used > ctx.lim.nsec3_hashes_per_query)
		abort();
	val_bag_free(bag);
	free(all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int err;
	struct wire_msg *m = wire_msg_parse(data, size, 0, &err);

	if (!m)
		return 0;
	if (m->has_question)
		validate(m);
	wire_msg_free(m);
	return 0;
}
