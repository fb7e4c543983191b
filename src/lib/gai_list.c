/* SPDX-License-Identifier: MIT */
/*
 * The list dt_getaddrinfo returns: one allocation holding every addrinfo,
 * its socket address and the canonical name, freed by one
 * dt_freeaddrinfo.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "lib/internal.h"

struct gai_slot {
	struct addrinfo ai; /* first: a struct addrinfo * is a slot */
	union {
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} sa;
	size_t index; /* in the block, to find its start */
};

static void fill_sa(struct gai_slot *s, const struct dtlib_addr *a,
		    uint16_t port)
{
	if (a->family == AF_INET) {
		s->sa.in.sin_family = AF_INET;
		s->sa.in.sin_port = htons(port);
		memcpy(&s->sa.in.sin_addr, a->a, 4);
		s->ai.ai_addrlen = sizeof(s->sa.in);
	} else {
		s->sa.in6.sin6_family = AF_INET6;
		s->sa.in6.sin6_port = htons(port);
		memcpy(&s->sa.in6.sin6_addr, a->a, 16);
		s->sa.in6.sin6_scope_id = a->scope;
		s->ai.ai_addrlen = sizeof(s->sa.in6);
	}
	s->ai.ai_family = a->family;
	s->ai.ai_addr = (struct sockaddr *)&s->sa;
}

int dtlib_gai_list(const struct dtlib_addrs *addrs,
		   const struct dtlib_port *ports, size_t nports, int flags,
		   const char *canon, struct addrinfo **ret)
{
	size_t n = addrs->n * nports, clen = canon ? strlen(canon) + 1 : 0;
	struct gai_slot *slots;
	size_t k = 0;

	slots = calloc(1, n * sizeof(*slots) + clen);
	if (!slots)
		return EAI_MEMORY;
	for (size_t i = 0; i < addrs->n; i++)
		for (size_t j = 0; j < nports; j++, k++) {
			struct gai_slot *s = &slots[k];
			s->index = k;
			s->ai.ai_flags = flags;
			s->ai.ai_socktype = ports[j].socktype;
			s->ai.ai_protocol = ports[j].protocol;
			fill_sa(s, &addrs->v[i], ports[j].port);
			s->ai.ai_next = k + 1 < n ? &slots[k + 1].ai : NULL;
		}
	if (canon) {
		char *c = (char *)(slots + n);
		memcpy(c, canon, clen);
		slots[0].ai.ai_canonname = c;
	}
	*ret = &slots[0].ai;
	return 0;
}

void dt_freeaddrinfo(struct addrinfo *res)
{
	struct gai_slot *s = (struct gai_slot *)res;

	if (s)
		free(s - s->index);
}
