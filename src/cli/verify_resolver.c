/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "cli/verify_resolver.h"
#include "common/errcode.h"
#include "policy/config.h"
#include "resolver/resolver.h"
#include "resolver/state.h"
#include "validator/anchor.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* Questions the core asks at most before the run is cut short (it
 * stops itself well before: DT_DMN_FETCHES_PER_TASK). */
#define VR_MAX_FETCHES 256

struct vr_fetch {
	struct rsv_fetch *f;
	uint8_t name[DT_NAME_MAXLEN];
	uint16_t type;
};

struct vr {
	const uint8_t *qname;
	uint16_t qtype, qclass, rcode;
	const struct wire_rr *ans, *auth, *rrs;
	size_t nans, nauth, n;
	struct vr_fetch queue[VR_MAX_FETCHES];
	size_t head, tail;
	struct vr_verdict *ret;
	bool done;
	bool closing;		/* rsv_free() hands back what is left */
};

static int fetch(void *arg, struct rsv_fetch *f, const uint8_t *name,
		 uint16_t type, const struct up_conf *servers, void **handle)
{
	struct vr *v = arg;

	(void)servers;
	if (v->tail == VR_MAX_FETCHES)
		return -ENOMEM;
	struct vr_fetch *q = &v->queue[v->tail++];
	q->f = f;
	q->type = type;
	wire_dname_copy(q->name, name);
	*handle = q;
	v->ret->fetches++;
	return 0;
}

static void answered(void *arg, struct rsv_waiter *list,
		     const struct rsv_done *d)
{
	struct vr *v = arg;
	const struct answer *a = d->a;

	(void)list;
	if (v->closing)
		return;
	v->done = true;
	v->ret->status = a->status;
	v->ret->ede = a->ede;
	snprintf(v->ret->tag, sizeof(v->ret->tag), "%s", a->tag ? a->tag : "");
	snprintf(v->ret->reason, sizeof(v->ret->reason), "%s", a->reason);
}

static bool is_denial(const struct wire_rr *rr)
{
	return rr->type == WIRE_TYPE_NSEC || rr->type == WIRE_TYPE_NSEC3 ||
	       val_rrsig_covers(rr, WIRE_TYPE_NSEC) || val_rrsig_covers(rr, WIRE_TYPE_NSEC3);
}

/* The signer of the denial records (NSEC/NSEC3 RRSIGs) that is the
 * deepest proper ancestor of name: the zone that would deny its DS. */
static const uint8_t *denying_zone(const struct vr *v, const uint8_t *name)
{
	const uint8_t *best = NULL;

	for (size_t i = 0; i < v->n; i++) {
		const struct wire_rr *rr = &v->rrs[i];
		if (!(val_rrsig_covers(rr, WIRE_TYPE_NSEC) || val_rrsig_covers(rr, WIRE_TYPE_NSEC3)))
			continue;
		const uint8_t *s = val_rrsig_signer(rr);
		if (wire_dname_equal(s, name) ||
		    !wire_dname_is_subdomain(name, s))
			continue;
		if (!best || wire_dname_labels(s) > wire_dname_labels(best))
			best = s;
	}
	return best;
}

/* The records at (name, type) with their RRSIGs; for a DS question
 * without them, the denial records of the zone above. Returns the
 * message length, or 0 when the input holds nothing to answer with. */
static size_t respond(const struct vr *v, const struct vr_fetch *q,
		      uint8_t *buf, size_t cap)
{
	struct wire_builder b;
	size_t nrec = 0;

	wire_build_init(&b, buf, cap, 1,
			WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA);
	wire_build_question(&b, q->name, q->type, WIRE_CLASS_IN);
	for (size_t i = 0; i < v->n; i++) {
		const struct wire_rr *rr = &v->rrs[i];
		if (wire_dname_equal(rr->owner, q->name) &&
		    (rr->type == q->type || val_rrsig_covers(rr, q->type)) &&
		    wire_build_rr(&b, WIRE_SEC_ANSWER, rr) == 0)
			nrec++;
	}
	const uint8_t *zone =
		nrec || q->type != WIRE_TYPE_DS ? NULL : denying_zone(v, q->name);
	for (size_t i = 0; zone && i < v->n; i++) {
		const struct wire_rr *rr = &v->rrs[i];
		const struct wire_rr *sig = rr;
		if (!is_denial(rr))
			continue;
		/* An NSEC/NSEC3 record goes with its zone's signatures. */
		if (rr->type != WIRE_TYPE_RRSIG) {
			bool mine = false;
			for (size_t k = 0; k < v->n && !mine; k++)
				mine = val_rrsig_covers(&v->rrs[k], rr->type) &&
				       wire_dname_equal(v->rrs[k].owner,
							rr->owner) &&
				       wire_dname_equal(val_rrsig_signer(&v->rrs[k]),
							zone);
			if (!mine)
				continue;
		} else if (!wire_dname_equal(val_rrsig_signer(sig), zone)) {
			continue;
		}
		if (wire_build_rr(&b, WIRE_SEC_AUTHORITY, rr) == 0)
			nrec++;
	}
	return nrec ? wire_build_finish(&b) : 0;
}

/* The question itself: the input's response. */
static size_t respond_main(const struct vr *v, uint8_t *buf, size_t cap)
{
	struct wire_builder b;

	wire_build_init(&b, buf, cap, 1,
			WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA |
				(v->rcode & 0xf));
	wire_build_question(&b, v->qname, v->qtype, v->qclass);
	for (size_t i = 0; i < v->nans; i++)
		wire_build_rr(&b, WIRE_SEC_ANSWER, &v->ans[i]);
	for (size_t i = 0; i < v->nauth; i++)
		wire_build_rr(&b, WIRE_SEC_AUTHORITY, &v->auth[i]);
	return wire_build_finish(&b);
}

static struct val_anchors *anchors_copy(const struct val_anchors *ta)
{
	struct val_anchors *c = val_anchors_new();

	for (size_t i = 0; c && i < val_anchors_count(ta); i++) {
		const struct val_anchor_zone *az = val_anchors_get(ta, i);
		for (size_t k = 0; k < az->nds + az->ndnskey; k++) {
			struct wire_rr rr = k < az->nds ? az->ds[k]
							: az->dnskey[k - az->nds];
			rr.owner = az->zone;
			if (val_anchors_add(c, &rr) < 0) {
				val_anchors_free(c);
				return NULL;
			}
		}
	}
	return c;
}

/* Answers queued fetches until the question is answered. */
static void serve(struct vr *v, const struct rsv_clock *now)
{
	static uint8_t buf[DT_MSG_MAXLEN];

	while (v->head < v->tail && !v->done) {
		struct vr_fetch *q = &v->queue[v->head++];
		size_t len;
		if (q->type == v->qtype && wire_dname_equal(q->name, v->qname))
			len = respond_main(v, buf, sizeof(buf));
		else
			len = respond(v, q, buf, sizeof(buf));
		rsv_fetch_done(q->f, len ? 0 : DT_EABSENT, buf, len, "input",
			       now);
	}
}

int verify_resolver(const struct val_anchors *ta, int64_t now,
		    const uint8_t *qname, uint16_t qtype, uint16_t qclass,
		    uint16_t rcode, const struct wire_rr *ans, size_t nans,
		    const struct wire_rr *auth, size_t nauth,
		    const struct wire_rr *rrs, size_t n,
		    struct vr_verdict *ret)
{
	struct vr *v = calloc(1, sizeof(*v));
	struct rsv_env env = {.fetch = fetch, .answered = answered};
	struct rsv_clock clock = {.mono_ms = 1000, .wall = now};
	struct rsv_waiter wt = {0};
	struct cache *c = cache_new(64 << 20);
	struct val_anchors *copy = anchors_copy(ta);
	struct resolver *r = NULL;
	struct dstate *st = NULL;
	struct cfg cfg;
	int rc = -ENOMEM;

	memset(ret, 0, sizeof(*ret));
	cfg_default(&cfg);
	if (!v || !c || !copy || !(st = dstate_new(&cfg, copy, "input")))
		goto out;
	copy = NULL;
	env.arg = v;
	if (!(r = rsv_new(c, &env)))
		goto out;
	rsv_set_state(r, st);
	v->qname = qname;
	v->qtype = qtype;
	v->qclass = qclass;
	v->rcode = rcode;
	v->ans = ans;
	v->nans = nans;
	v->auth = auth;
	v->nauth = nauth;
	v->rrs = rrs;
	v->n = n;
	v->ret = ret;
	wire_dname_copy(wt.q.qname, qname);
	wt.q.qtype = qtype;
	wt.q.qclass = qclass;
	wt.q.edns = wt.q.do_bit = true;
	if ((rc = rsv_submit(r, &wt, &clock)) < 0)
		goto out;
	serve(v, &clock);
	if (!v->done) {
		ret->status = VAL_INDETERMINATE;
		ret->ede = VAL_EDE_NONE;
		snprintf(ret->tag, sizeof(ret->tag), "unfinished");
	}
	rc = 0;
out:
	if (v)
		v->closing = true;
	rsv_free(r);
	dstate_put(st);
	val_anchors_free(copy);
	cache_free(c);
	free(v);
	return rc;
}
