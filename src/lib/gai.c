/* SPDX-License-Identifier: MIT */
/*
 * dt_getaddrinfo: getaddrinfo(3)'s contract with the addresses from
 * dnstrustd. In order: the hints are checked, AI_ADDRCONFIG narrows the
 * families, then the node is answered by the first of: none (AI_PASSIVE's
 * wildcard or the loopback), a numeric address, /etc/hosts, dnstrustd (A
 * and AAAA asked at once on one connection). Bogus answers fail the whole
 * call (EAI_FAIL): an attacker must not be able to choose which of two
 * answers an application sees.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/limits.h"
#include "lib/internal.h"
#include "wire/dname.h"
#include "wire/msg.h"

#define AI_KNOWN                                                               \
	(AI_PASSIVE | AI_CANONNAME | AI_NUMERICHOST | AI_NUMERICSERV |         \
	 AI_ADDRCONFIG | AI_V4MAPPED | AI_ALL)

/* A request being answered. */
struct gai {
	dt_ctx_t *ctx;
	struct dtlib_settings set;
	const char *node;
	int flags; /* AI_* */
	int family;
	unsigned dtflags; /* DT_FLAG_* */
	struct dtlib_addrs addrs;
	char canon[DTLIB_CANON_MAX];
	bool has_canon;
	bool consulted; /* status holds an answer's status */
	bool sort;	/* families to be ordered (order()) */
	enum dt_status status;
};

/* How one answer ended, when it did not end the call. */
enum outcome { OUT_ADDRS, OUT_NODATA, OUT_NONAME, OUT_AGAIN, OUT_FAIL };

static int check_request(const char *node, const char *service,
			 const struct addrinfo *h, unsigned dtflags)
{
	if ((h->ai_flags & ~AI_KNOWN) || (dtflags & ~DTLIB_FLAGS_ALL) ||
	    ((h->ai_flags & AI_CANONNAME) && !node))
		return EAI_BADFLAGS;
	if (!node && !service)
		return EAI_NONAME;
	if (h->ai_family != AF_UNSPEC && h->ai_family != AF_INET &&
	    h->ai_family != AF_INET6)
		return EAI_FAMILY;
	return 0;
}

static void note_family(const struct sockaddr *sa, bool *v4, bool *v6)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		*v4 |= (ntohl(in->sin_addr.s_addr) >> 24) != 127;
	} else if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a =
			&((const struct sockaddr_in6 *)sa)->sin6_addr;
		*v6 |= !IN6_IS_ADDR_LOOPBACK(a) && !IN6_IS_ADDR_LINKLOCAL(a);
	}
}

/* Whether the host has an IPv4 and an IPv6 address other than loopback
 * (and IPv6 link-local) ones: AI_ADDRCONFIG's test. */
static void host_families(const struct dtlib_settings *s, bool *v4, bool *v6)
{
	struct ifaddrs *ifa;

	if (s->net.v4 >= 0 && s->net.v6 >= 0) {
		*v4 = s->net.v4;
		*v6 = s->net.v6;
		return;
	}
	*v4 = *v6 = false;
	if (getifaddrs(&ifa)) {
		*v4 = *v6 = true; /* unknown: no narrowing */
		return;
	}
	for (struct ifaddrs *i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr)
			note_family(i->ifa_addr, v4, v6);
	freeifaddrs(ifa);
}

static int addrconfig(struct gai *g)
{
	bool v4, v6;

	if (!(g->flags & AI_ADDRCONFIG))
		return 0;
	host_families(&g->set, &v4, &v6);
	if (g->family == AF_UNSPEC) {
		if (v4 != v6)
			g->family = v4 ? AF_INET : AF_INET6;
		return 0;
	}
	if ((g->family == AF_INET && !v4) || (g->family == AF_INET6 && !v6))
		return EAI_NONAME;
	return 0;
}

static void map4(struct dtlib_addr *a)
{
	uint8_t v4[4];

	memcpy(v4, a->a, 4);
	memset(a->a, 0, 10);
	a->a[10] = a->a[11] = 0xff;
	memcpy(a->a + 12, v4, 4);
	a->family = AF_INET6;
}

static int add(struct gai *g, int family, const void *addr, uint32_t scope)
{
	return dtlib_addrs_add(&g->addrs, family, addr, scope) ? EAI_MEMORY : 0;
}

/* No node: the wildcard addresses (AI_PASSIVE) or the loopback ones, in
 * glibc's order. */
static int no_node(struct gai *g)
{
	static const uint8_t any4[4], lo4[4] = {127, 0, 0, 1};
	bool passive = g->flags & AI_PASSIVE;
	int err = 0;

	if (g->family != AF_INET6 && passive)
		err = add(g, AF_INET, any4, 0);
	if (!err && g->family != AF_INET)
		err = add(g, AF_INET6,
			  passive ? in6addr_any.s6_addr
				  : in6addr_loopback.s6_addr,
			  0);
	if (!err && g->family != AF_INET6 && !passive)
		err = add(g, AF_INET, lo4, 0);
	return err;
}

/* An IPv6 address with an optional %scope (interface name or number). */
static bool parse6(const char *node, struct dtlib_addr *ret)
{
	char text[INET6_ADDRSTRLEN];
	const char *pct = strchr(node, '%');
	size_t len = pct ? (size_t)(pct - node) : strlen(node);

	if (len >= sizeof(text))
		return false;
	memcpy(text, node, len);
	text[len] = '\0';
	if (inet_pton(AF_INET6, text, ret->a) != 1)
		return false;
	ret->family = AF_INET6;
	ret->scope = 0;
	if (pct) {
		char *end;
		unsigned long v = strtoul(pct + 1, &end, 10);
		if (pct[1] && !*end && v <= 0xffffffffUL)
			ret->scope = (uint32_t)v;
		else if (!(ret->scope = if_nametoindex(pct + 1)))
			return false;
	}
	return true;
}

/* A numeric node: 1 done, 0 not numeric, or an EAI_* code. IPv4 in any
 * form inet_aton takes ("127.1" too), as glibc. */
static int numeric(struct gai *g)
{
	struct dtlib_addr a = {0};
	struct in_addr in;

	if (strpbrk(g->node, " \t\n\r\f\v"))
		return 0;
	if (inet_aton(g->node, &in)) {
		a.family = AF_INET;
		memcpy(a.a, &in, 4);
	} else if (!parse6(g->node, &a)) {
		return 0;
	}
	if (a.family == AF_INET && g->family == AF_INET6) {
		if (!(g->flags & AI_V4MAPPED))
			return EAI_ADDRFAMILY;
		map4(&a);
	}
	if (a.family == AF_INET6 && g->family == AF_INET)
		return EAI_ADDRFAMILY;
	snprintf(g->canon, sizeof(g->canon), "%s", g->node);
	g->has_canon = true;
	return add(g, a.family, a.a, a.scope) ? EAI_MEMORY : 1;
}

/* AF_INET6 with AI_V4MAPPED: IPv6 addresses, then the IPv4 ones mapped
 * when there were no IPv6 ones or AI_ALL asks for both. */
static int keep_mapped(struct gai *g)
{
	struct dtlib_addrs *as = &g->addrs;
	struct dtlib_addr *v = malloc(as->n * sizeof(*v));
	size_t n6 = 0, k = 0;

	if (!v)
		return EAI_MEMORY;
	for (size_t i = 0; i < as->n; i++)
		if (as->v[i].family == AF_INET6)
			v[n6++] = as->v[i];
	k = n6;
	for (size_t i = 0; i < as->n && (!n6 || (g->flags & AI_ALL)); i++)
		if (as->v[i].family == AF_INET) {
			v[k] = as->v[i];
			map4(&v[k++]);
		}
	free(as->v);
	as->v = v;
	as->n = as->cap = k;
	return 0;
}

/* /etc/hosts first, as glibc's "files" source: 1 found, 0 not, or an
 * EAI_* code. */
static int from_hosts(struct gai *g)
{
	bool mapped = g->family == AF_INET6 && (g->flags & AI_V4MAPPED);
	int r = dtlib_hosts_lookup(g->set.hosts, g->node,
				   g->family != AF_INET6 || mapped,
				   g->family != AF_INET, &g->addrs, g->canon);

	if (r <= 0)
		return r ? EAI_MEMORY : 0;
	if (mapped && keep_mapped(g))
		return EAI_MEMORY;
	g->has_canon = true;
	g->sort = true;
	return 1;
}

static int transport_eai(int err)
{
	switch (err) {
	case DT_ERR_UNAVAILABLE: return DT_EAI_UNAVAILABLE;
	case DT_ERR_TIMEOUT: return EAI_AGAIN;
	case DT_ERR_NOMEM: return EAI_MEMORY;
	}
	return EAI_FAIL; /* an untrusted peer, an answer making no sense */
}

struct adder {
	struct gai *g;
	uint16_t qtype;
};

static int add_rdata(const uint8_t *rdata, uint16_t rdlen, void *arg)
{
	struct adder *ad = arg;
	struct dtlib_addr a = {0};

	if (rdlen != (ad->qtype == WIRE_TYPE_A ? 4 : 16))
		return 0; /* checked by the parser: cannot happen */
	a.family = ad->qtype == WIRE_TYPE_A ? AF_INET : AF_INET6;
	memcpy(a.a, rdata, rdlen);
	if (a.family == AF_INET && ad->g->family == AF_INET6)
		map4(&a);
	return add(ad->g, a.family, a.a, 0);
}

/* The canonical name: where the CNAME chain ends, without the final dot
 * (as glibc gives it). */
static void set_canon(struct gai *g, const uint8_t *owner)
{
	int len = wire_dname_to_str(owner, g->canon, sizeof(g->canon));

	if (len > 1 && g->canon[len - 1] == '.')
		g->canon[len - 1] = '\0';
	g->has_canon = len > 0;
}

/* One answer: its status joins the call's; 0 and *out, or an EAI_* code
 * that ends the call. */
static int judge(struct gai *g, const struct dtlib_q *q, enum outcome *out)
{
	const struct dtlib_answer *a = &q->ans;
	struct adder ad = {.g = g, .qtype = q->qtype};
	const uint8_t *owner;
	int n;

	g->status = g->consulted ? dtlib_status_worst(g->status, a->status)
				 : a->status;
	g->consulted = true;
	if (a->status == DT_STATUS_BOGUS &&
	    !(g->dtflags & DT_FLAG_RETURN_BOGUS))
		return EAI_FAIL;
	if ((g->dtflags & DT_FLAG_REQUIRE_SECURE) &&
	    a->status != DT_STATUS_SECURE)
		return DT_EAI_NOT_SECURE;
	switch (a->msg->rcode) {
	case WIRE_RCODE_NOERROR: break;
	case WIRE_RCODE_NXDOMAIN: *out = OUT_NONAME; return 0;
	case WIRE_RCODE_SERVFAIL: *out = OUT_AGAIN; return 0;
	default: *out = OUT_FAIL; return 0;
	}
	n = dtlib_answer_records(a->msg, q->qname, q->qtype, add_rdata, &ad,
				 &owner);
	if (n < 0)
		return n;
	*out = n ? OUT_ADDRS : OUT_NODATA;
	if (n && !g->has_canon)
		set_canon(g, owner);
	return 0;
}

/* Asks the questions, judges the answers. */
static int ask(struct gai *g, struct dtlib_q *qs, size_t n, enum outcome *outs)
{
	int err = dtlib_exchange(g->ctx, &g->set, qs, n, 0);

	if (err)
		return transport_eai(err);
	for (size_t i = 0; i < n && !err; i++)
		err = judge(g, &qs[i], &outs[i]);
	dtlib_qs_clear(qs, n);
	return err;
}

/* No addresses: the error the answers add up to. */
static int no_addresses(const enum outcome *outs, size_t n)
{
	static const struct {
		enum outcome out;
		int eai;
	} order[] = {
		{OUT_AGAIN, EAI_AGAIN},
		{OUT_FAIL, EAI_FAIL},
		{OUT_NODATA, EAI_NODATA},
	};

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (size_t i = 0; i < n; i++)
			if (outs[i] == order[k].out)
				return order[k].eai;
	return EAI_NONAME;
}

static int from_dns(struct gai *g)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct dtlib_q qs[DTLIB_MAX_QUESTIONS + 1] = {0};
	enum outcome outs[DTLIB_MAX_QUESTIONS + 1];
	bool mapped = g->family == AF_INET6 && (g->flags & AI_V4MAPPED);
	size_t n = 0;
	int err;

	if (dtlib_name(g->node, qname) < 0)
		return EAI_NONAME;
	for (size_t i = 0; i < DTLIB_MAX_QUESTIONS + 1; i++)
		qs[i] = (struct dtlib_q){.qname = qname,
					 .qclass = WIRE_CLASS_IN,
					 .flags = g->dtflags,
					 .ans.ede = -1};
	if (g->family != AF_INET)
		qs[n++].qtype = WIRE_TYPE_AAAA;
	if (g->family != AF_INET6 || (mapped && (g->flags & AI_ALL)))
		qs[n++].qtype = WIRE_TYPE_A;
	err = ask(g, qs, n, outs);
	if (!err && mapped && !g->addrs.n && !(g->flags & AI_ALL)) {
		qs[n].qtype = WIRE_TYPE_A;
		err = ask(g, &qs[n], 1, &outs[n]);
		n++;
	}
	g->sort = true;
	if (err || g->addrs.n)
		return err;
	return no_addresses(outs, n);
}

/* Whether an IPv6 address can be reached from here at all (RFC 6724
 * rule 1, "avoid unusable destinations", for a whole family). */
static bool v6_routable(const struct dtlib_addr *a)
{
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(9),
		.sin6_scope_id = a->scope,
	};
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	memcpy(&sa.sin6_addr, a->a, 16);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

/* Both families found: IPv6 first when reachable (RFC 6724's default
 * precedence), else IPv4 first; the answers' order within a family. */
static void order(struct gai *g)
{
	struct dtlib_addrs *as = &g->addrs;
	const struct dtlib_addr *first6 = NULL;
	bool has4 = false, v6first;
	struct dtlib_addr *sorted;
	size_t k = 0;

	for (size_t i = 0; i < as->n; i++) {
		if (as->v[i].family == AF_INET6 && !first6)
			first6 = &as->v[i];
		has4 |= as->v[i].family == AF_INET;
	}
	if (!first6 || !has4)
		return;
	v6first = g->set.net.v6_first >= 0 ? g->set.net.v6_first
					   : v6_routable(first6);
	sorted = malloc(as->n * sizeof(*sorted));
	if (!sorted)
		return; /* the answers' order then */
	for (int pass = 0; pass < 2; pass++) {
		int fam = (pass == 0) == v6first ? AF_INET6 : AF_INET;
		for (size_t i = 0; i < as->n; i++)
			if (as->v[i].family == fam)
				sorted[k++] = as->v[i];
	}
	free(as->v);
	as->v = sorted;
	as->cap = as->n;
}

static int find_addresses(struct gai *g)
{
	int r;

	if (!g->node)
		return no_node(g);
	r = numeric(g);
	if (r)
		return r < 0 ? r : 0;
	if (g->flags & AI_NUMERICHOST)
		return EAI_NONAME;
	r = from_hosts(g);
	if (r)
		return r < 0 ? r : 0;
	return from_dns(g);
}

int dt_getaddrinfo_ex(dt_ctx_t *ctx, const char *node, const char *service,
		      const struct addrinfo *hints, unsigned flags,
		      struct addrinfo **res, enum dt_status *status)
{
	/* glibc's defaults without hints */
	static const struct addrinfo dflt = {
		.ai_flags = AI_V4MAPPED | AI_ADDRCONFIG,
	};
	struct dtlib_port ports[DTLIB_MAX_PORTS];
	struct gai g = {0};
	int nports, err;

	dtlib_set_last_status(DT_STATUS_NONE);
	if (!res) {
		errno = EINVAL;
		return EAI_SYSTEM;
	}
	hints = hints ? hints : &dflt;
	err = check_request(node, service, hints, flags);
	if (err)
		return err;
	nports = dtlib_gai_ports(service, hints, ports);
	if (nports < 0)
		return nports;
	g.ctx = dtlib_ctx(ctx);
	dtlib_ctx_settings(g.ctx, &g.set);
	g.node = node;
	g.flags = hints->ai_flags;
	g.family = hints->ai_family;
	g.dtflags = flags;
	err = addrconfig(&g);
	if (!err)
		err = find_addresses(&g);
	if (!err) {
		if (g.sort)
			order(&g);
		err = dtlib_gai_list(&g.addrs, ports, (size_t)nports, g.flags,
				     (g.flags & AI_CANONNAME) && g.has_canon
					     ? g.canon
					     : NULL,
				     res);
	}
	dtlib_set_last_status(g.status);
	if (!err && status)
		*status = g.status;
	dtlib_addrs_free(&g.addrs);
	return err;
}

int dt_getaddrinfo(const char *node, const char *service,
		   const struct addrinfo *hints, struct addrinfo **res)
{
	return dt_getaddrinfo_ex(NULL, node, service, hints, 0, res, NULL);
}

const char *dt_gai_strerror(int err)
{
	switch (err) {
	case DT_EAI_UNAVAILABLE: return "dnstrustd is not reachable";
	case DT_EAI_NOT_SECURE:
		return "the address records are not secure (DNSSEC)";
	}
	return gai_strerror(err);
}
