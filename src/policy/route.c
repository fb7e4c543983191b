/* SPDX-License-Identifier: MIT */
/*
 * The routes of route.h: learnt at each reading of the upstream source
 * (the main thread), looked up by the workers in their own copy. The
 * table is small (DT_UP_MAXROUTES) and read linearly.
 */
#include <stdio.h>
#include <string.h>

#include "policy/route.h"
#include "upstream/source.h"
#include "wire/dname.h"
#include "wire/rr.h"

static struct policy_route *route_of(struct policy_routes *rt,
				     const uint8_t *name)
{
	for (size_t i = 0; i < rt->n; i++)
		if (wire_dname_equal(rt->r[i].name, name))
			return &rt->r[i];
	return NULL;
}

static void add_servers(struct up_conf *to, const struct up_conf *from)
{
	for (size_t i = 0; i < from->nns && to->nns < DT_UP_MAXNS; i++) {
		bool dup = false;

		for (size_t j = 0; j < to->nns; j++)
			dup |= up_server_equal(&to->ns[j], &from->ns[i]);
		if (!dup)
			to->ns[to->nns++] = from->ns[i];
	}
}

/* name, named by interface f: a new route, or f's servers added to the
 * route another interface made for it. */
static void learn_one(struct policy_routes *rt, const struct up_iface *f,
		      const uint8_t *name)
{
	struct policy_route *r = route_of(rt, name);

	if (!r && rt->n == DT_UP_MAXROUTES) {
		rt->dropped++;
		return;
	}
	if (!r) {
		r = &rt->r[rt->n++];
		memset(r, 0, sizeof(*r));
		wire_dname_copy(r->name, name);
		snprintf(r->iface, sizeof(r->iface), "%s", f->name);
		r->servers.timeout_ms = f->conf.timeout_ms;
		r->servers.attempts = f->conf.attempts;
	}
	add_servers(&r->servers, &f->conf);
}

/* Whether a and b hold the same servers, in any order. */
static bool same_set(const struct up_conf *a, const struct up_conf *b)
{
	if (a->nns != b->nns)
		return false;
	for (size_t i = 0; i < a->nns; i++) {
		bool found = false;

		for (size_t j = 0; j < b->nns; j++)
			found |= up_server_equal(&a->ns[i], &b->ns[j]);
		if (!found)
			return false;
	}
	return true;
}

/* Routes that change nothing taken out, the order kept. */
static void drop_idle(struct policy_routes *rt, const struct up_conf *dflt)
{
	size_t k = 0;

	for (size_t i = 0; i < rt->n; i++)
		if (!same_set(&rt->r[i].servers, dflt))
			rt->r[k++] = rt->r[i];
	rt->n = k;
}

void policy_routes_learn(const struct up_source_data *d,
			 struct policy_routes *ret)
{
	ret->n = 0;
	ret->dropped = 0;
	for (size_t i = 0; i < d->niface; i++) {
		const struct up_iface *f = &d->iface[i];

		if (f->conf.defaulted || !f->conf.nns)
			continue;
		for (size_t j = 0; j < f->conf.nsearch; j++)
			learn_one(ret, f, up_conf_search(&f->conf, j));
		for (size_t j = 0; j < f->conf.nroute; j++)
			learn_one(ret, f, up_conf_route(&f->conf, j));
	}
	drop_idle(ret, &d->conf);
}

const struct policy_route *policy_route_find(const struct policy_routes *rt,
					     const uint8_t *name, uint16_t type)
{
	const struct policy_route *best = NULL;

	if (!rt || !rt->n)
		return NULL;
	if (type == WIRE_TYPE_DS && name[0])
		name += 1 + name[0];
	for (size_t i = 0; i < rt->n; i++) {
		const struct policy_route *r = &rt->r[i];

		if (wire_dname_is_subdomain(name, r->name) &&
		    (!best || wire_dname_labels(r->name) >
				      wire_dname_labels(best->name)))
			best = r;
	}
	return best;
}

bool policy_routes_equal(const struct policy_routes *a,
			 const struct policy_routes *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct policy_route *x = &a->r[i], *y = &b->r[i];

		if (!wire_dname_equal(x->name, y->name) ||
		    strcmp(x->iface, y->iface) != 0 ||
		    !up_conf_equal(&x->servers, &y->servers))
			return false;
	}
	return true;
}

void policy_route_str(const struct policy_route *r, char *buf, size_t len)
{
	char name[DT_NAME_TEXT_MAXLEN];
	size_t off;

	wire_dname_to_str(r->name, name, sizeof(name));
	off = (size_t)snprintf(buf, len, "%s", name);
	for (size_t i = 0; i < r->servers.nns && off < len; i++) {
		char a[80];

		up_server_str(&r->servers.ns[i], a, sizeof(a));
		off += (size_t)snprintf(buf + off, len - off, " %s", a);
	}
	if (off < len)
		snprintf(buf + off, len - off, " (%s)", r->iface);
}
