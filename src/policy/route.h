/* SPDX-License-Identifier: MIT */
/*
 * Split-DNS routes learnt from the interfaces of the upstream source
 * (VPN split DNS): each interface's search and routing-only domains send
 * the questions at or below them to that interface's servers, as
 * systemd-resolved routes them. A learnt route is routing only, never
 * policy: what its servers send is validated as any answer is, and its
 * names are private (softened to insecure) only by the search-suffix
 * rule (rsv_private_domain: once the public tree proves the domain
 * unsigned or absent). A domain … upstream line of dnstrust.conf wins
 * over every learnt route.
 */
#ifndef DT_POLICY_ROUTE_H
#define DT_POLICY_ROUTE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

struct up_source_data;

/* One learnt route. */
struct policy_route {
	uint8_t name[DT_NAME_MAXLEN];	/* wire form, lower case */
	char iface[NAME_MAX + 1];	/* the interface that named it (the
					   first of several) */
	struct up_conf servers;		/* where its questions go: the
					   servers of every interface that
					   names it, at most DT_UP_MAXNS */
};

struct policy_routes {
	struct policy_route r[DT_UP_MAXROUTES];
	size_t n;
	unsigned dropped;		/* domains past DT_UP_MAXROUTES */
};

/*
 * The routes of the interfaces of d (up_source_data of a resolvconf or
 * networkd directory; none for the other kinds) into *ret: one per
 * domain named by an interface with servers (its search list and its
 * routing-only domains), in the order met, the servers of every
 * interface naming it; a route whose servers are those the other names
 * go to anyway (d->conf's, the same set) is left out: it would change
 * nothing. At most DT_UP_MAXROUTES; those past it are counted in
 * ret->dropped. Allocates nothing.
 */
void policy_routes_learn(const struct up_source_data *d,
			 struct policy_routes *ret);

/*
 * The route of a question: the deepest route at or above name; for a DS,
 * at or above name's parent, which holds it (the DS of corp.example. is
 * the public example. zone's: asked where example. is, so that a
 * domain's absence from the public tree is proven by the public tree).
 * NULL when none (rt may be NULL).
 */
const struct policy_route *policy_route_find(const struct policy_routes *rt,
					     const uint8_t *name,
					     uint16_t type);

/* Whether a and b route the same names to the same servers. */
bool policy_routes_equal(const struct policy_routes *a,
			 const struct policy_routes *b);

/* "corp.example. 192.0.2.1 192.0.2.2 (tun0)": for status and the log;
 * writes at most len octets (NUL included). */
void policy_route_str(const struct policy_route *r, char *buf, size_t len);

#endif
