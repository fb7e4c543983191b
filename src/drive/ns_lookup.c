/* SPDX-License-Identifier: MIT */
/*
 * The addresses of name servers without glue, asked of a resolver core
 * (ns_lookup.h).
 */
#include <stdlib.h>

#include "common/log.h"
#include "common/loop.h"
#include "drive/ns_lookup.h"
#include "iterator/iter_msg.h"
#include "resolver/render.h"
#include "resolver/resolver.h"
#include "wire/dname.h"
#include "wire/msg.h"

struct nslookup {
	struct rsv_waiter rw; /* first: nest > 0 is how answered() knows it */
	struct loop *loop;
	it_addrs_fn *cb;
	void *cbarg;
	struct loop_timer deliver;
	struct up_server addr[DT_IT_ADDRS_MAX];
	size_t naddr;
};

static void deliver(struct loop_timer *t)
{
	struct nslookup *nl = t->arg;

	nl->cb(nl->cbarg, nl->addr, nl->naddr, loop_now_ms(nl->loop));
	free(nl);
}

/* The addresses of the rendered answer reply (len octets) for nl. */
static void take_addrs(struct nslookup *nl, const uint8_t *reply, size_t len)
{
	struct wire_msg *m;
	int e;

	if (!len || !(m = wire_msg_parse(reply, len, 0, &e)))
		return;
	for (size_t i = 0;
	     i < m->count[WIRE_SEC_ANSWER] && nl->naddr < DT_IT_ADDRS_MAX; i++)
		if (it_addr_from_rr(&m->sec[WIRE_SEC_ANSWER][i],
				    &nl->addr[nl->naddr]))
			nl->naddr++;
	wire_msg_free(m);
}

/* A fresh proven answer in the cache answers the lookup without a
 * question of its own: cb runs from the loop, as after one. */
static bool from_cache(struct nslookup *nl, struct resolver *r,
		       const struct rsv_clock *now, const uint8_t *name,
		       uint16_t type)
{
	uint8_t *buf = r ? malloc(DT_MSG_MAXLEN) : NULL;
	size_t len = buf ? rsv_proven_cached(r, name, type, now, buf,
					     DT_MSG_MAXLEN)
			 : 0;

	take_addrs(nl, buf, len);
	free(buf);
	if (!len)
		return false;
	loop_timer_start(nl->loop, &nl->deliver, 0);
	return true;
}

void *ns_lookup_start(struct loop *loop, struct resolver *r,
		      const struct rsv_clock *now, const uint8_t *name,
		      uint16_t type, unsigned nest, it_addrs_fn *cb,
		      void *cbarg)
{
	struct nslookup *nl = calloc(1, sizeof(*nl));

	if (!nl)
		return NULL;
	nl->loop = loop;
	nl->cb = cb;
	nl->cbarg = cbarg;
	nl->deliver.cb = deliver;
	nl->deliver.arg = nl;
	nl->rw.nest = nest;
	nl->rw.q.edns = true;
	nl->rw.q.qtype = type;
	nl->rw.q.qclass = WIRE_CLASS_IN;
	wire_dname_copy(nl->rw.q.qname, name);
	if (from_cache(nl, r, now, name, type))
		return nl;
	if (!r || rsv_submit(r, &nl->rw, now) != 0) {
		free(nl);
		return NULL;
	}
	return nl;
}

void ns_lookup_cancel(void *handle)
{
	struct nslookup *nl = handle;

	rsv_detach(&nl->rw);
	loop_timer_stop(nl->loop, &nl->deliver);
	free(nl);
}

/* The addresses of a, when it is proven (secure) or proven unsigned. */
void ns_lookup_answered(struct rsv_waiter *rw, const struct answer *a,
			uint8_t *buf, size_t cap)
{
	struct nslookup *nl = (struct nslookup *)rw;

	if (answer_proven(a) && buf)
		take_addrs(nl, buf, answer_render(a, &nl->rw.q, 0, buf, cap));
	else if (a->status == VAL_BOGUS && log_enabled(LOG_INFO)) {
		char txt[DT_NAME_TEXT_MAXLEN];
		wire_dname_to_str(nl->rw.q.qname, txt, sizeof(txt));
		log_info("name server %s: address bogus, not asked (%s)", txt,
			 a->reason);
	}
	loop_timer_start(nl->loop, &nl->deliver, 0);
}
