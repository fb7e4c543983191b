/* SPDX-License-Identifier: MIT */
/*
 * Carving results out of the caller's buffer.
 */
#include "nss/pack.h"

#include <stdalign.h>
#include <string.h>
#include <sys/socket.h>

void dtnss_buf_init(struct dtnss_buf *b, char *buffer, size_t buflen)
{
	b->p = buffer;
	b->left = buffer ? buflen : 0;
	b->full = false;
}

void *dtnss_buf_take(struct dtnss_buf *b, size_t size, size_t align)
{
	size_t pad = (align - ((uintptr_t)b->p & (align - 1))) & (align - 1);
	void *ret;

	if (b->full || pad > b->left || size > b->left - pad) {
		b->full = true;
		return NULL;
	}
	ret = b->p + pad;
	b->p += pad + size;
	b->left -= pad + size;
	return ret;
}

char *dtnss_buf_host(struct dtnss_buf *b, const char *text)
{
	size_t len = strlen(text);
	char *ret;

	if (len > 1 && text[len - 1] == '.')
		len--;
	if ((ret = dtnss_buf_take(b, len + 1, 1)) == NULL)
		return NULL;
	memcpy(ret, text, len);
	ret[len] = '\0';
	return ret;
}

int dtnss_host_init(struct dtnss_host *h, struct dtnss_buf *buf, int af,
		    size_t nalias, size_t naddr)
{
	h->buf = buf;
	h->af = af;
	h->nalias = nalias;
	h->naddr = naddr;
	h->alias = dtnss_buf_take(buf, (nalias + 1) * sizeof(char *),
				  alignof(char *));
	h->addr = dtnss_buf_take(buf, (naddr + 1) * sizeof(char *),
				 alignof(char *));
	if (h->alias == NULL || h->addr == NULL)
		return -1;
	h->alias[nalias] = NULL;
	h->addr[naddr] = NULL;
	return 0;
}

int dtnss_host_alias(struct dtnss_host *h, size_t i, const char *text)
{
	return (h->alias[i] = dtnss_buf_host(h->buf, text)) ? 0 : -1;
}

int dtnss_host_addr(struct dtnss_host *h, size_t i, const uint8_t *addr)
{
	size_t len = h->af == AF_INET ? 4 : 16;

	/* In hostent an address is a char array; align it for callers that
	 * cast it to struct in_addr or in6_addr. */
	if ((h->addr[i] = dtnss_buf_take(h->buf, len, alignof(uint32_t))) ==
	    NULL)
		return -1;
	memcpy(h->addr[i], addr, len);
	return 0;
}

void dtnss_host_commit(const struct dtnss_host *h, char *name,
		       struct hostent *ret)
{
	ret->h_name = name;
	ret->h_aliases = h->alias;
	ret->h_addrtype = h->af;
	ret->h_length = h->af == AF_INET ? 4 : 16;
	ret->h_addr_list = h->addr;
}
