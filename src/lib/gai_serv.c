/* SPDX-License-Identifier: MIT */
/*
 * The service half of getaddrinfo: which socket types and protocols a
 * request covers, and the port of each (a number, or a name looked up in
 * /etc/services with getservbyname_r).
 *
 * Without a socket type or protocol in the hints, a request covers TCP
 * streams, UDP datagrams and raw sockets; raw sockets only when no
 * service is named (a raw socket has no ports to look up). Hints with
 * a socket type or protocol get the first entry that fits them.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/internal.h"

struct proto_ent {
	int socktype;
	int protocol;	  /* 0 with a raw socket: any */
	const char *name; /* in /etc/services; NULL: no services */
	bool by_default;  /* covered when the hints name none */
};

static const struct proto_ent protos[] = {
	{SOCK_STREAM, IPPROTO_TCP, "tcp", true},
	{SOCK_DGRAM, IPPROTO_UDP, "udp", true},
	{SOCK_STREAM, IPPROTO_SCTP, "sctp", false},
	{SOCK_SEQPACKET, IPPROTO_SCTP, "sctp", false},
	{SOCK_RAW, 0, NULL, true},
};

#define NPROTOS (sizeof(protos) / sizeof(protos[0]))

/* Room for one servent's strings (glibc's own lookups use 1024). */
#define SERV_BUFLEN 1024

static bool matches(const struct proto_ent *p, const struct addrinfo *h)
{
	if (!h->ai_socktype && !h->ai_protocol)
		return p->by_default;
	if (h->ai_socktype && h->ai_socktype != p->socktype)
		return false;
	return !h->ai_protocol || p->socktype == SOCK_RAW ||
	       h->ai_protocol == p->protocol;
}

/* A decimal port: 1 and *ret, 0 when not numeric, -1 when too large. */
static int numeric_port(const char *s, uint16_t *ret)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v > 0xffff)
		return -1;
	*ret = (uint16_t)v;
	return 1;
}

static int named_port(const char *service, const char *proto, uint16_t *ret)
{
	struct servent se, *found = NULL;
	char buf[SERV_BUFLEN];

	if (getservbyname_r(service, proto, &se, buf, sizeof(buf), &found) ||
	    !found)
		return 0;
	*ret = ntohs((uint16_t)found->s_port);
	return 1;
}

int dtlib_gai_ports(const char *service, const struct addrinfo *hints,
		    struct dtlib_port *ret)
{
	bool explicit = hints->ai_socktype || hints->ai_protocol;
	uint16_t port = 0;
	int numeric = 0, n = 0, candidates = 0;

	switch (hints->ai_socktype) {
	case 0:
	case SOCK_STREAM:
	case SOCK_DGRAM:
	case SOCK_SEQPACKET:
	case SOCK_RAW: break;
	default: return EAI_SOCKTYPE;
	}
	if (service) {
		numeric = numeric_port(service, &port);
		if (numeric < 0)
			return EAI_SERVICE;
		if (!numeric && (hints->ai_flags & AI_NUMERICSERV))
			return EAI_NONAME;
	}
	for (size_t i = 0; i < NPROTOS; i++) {
		const struct proto_ent *p = &protos[i];
		if (!matches(p, hints))
			continue;
		candidates++;
		if (service && !p->name) {
			if (explicit)
				return EAI_SERVICE;
			if (!numeric)
				continue;
		}
		struct dtlib_port *r = &ret[n];
		r->socktype = p->socktype;
		r->protocol = p->socktype == SOCK_RAW ? hints->ai_protocol
						      : p->protocol;
		r->port = port;
		if (service && !numeric &&
		    !named_port(service, p->name, &r->port))
			continue;
		n++;
		if (explicit)
			break;
	}
	if (!candidates)
		return hints->ai_socktype ? EAI_SOCKTYPE : EAI_SERVICE;
	return n ? n : EAI_SERVICE;
}
