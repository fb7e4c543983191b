/* SPDX-License-Identifier: MIT */
/*
 * The caller's buffer of an NSS function: everything a struct hostent or
 * a gaih_addrtuple list points to is carved out of it, aligned, and
 * nothing is written past its end. When it is too small the builder
 * notes it and the module answers ERANGE, so glibc retries with a larger
 * one. The buffer's contents are scratch until the function succeeds.
 */
#ifndef DT_NSS_PACK_H
#define DT_NSS_PACK_H

#include <netdb.h>
#include <nss.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dtnss_buf {
	char *p;     /* next free octet */
	size_t left; /* octets left */
	bool full;   /* an allocation did not fit */
};

void dtnss_buf_init(struct dtnss_buf *b, char *buffer, size_t buflen);

/* size octets aligned to align (a power of two), or NULL (and b->full)
 * when they do not fit. */
void *dtnss_buf_take(struct dtnss_buf *b, size_t size, size_t align);

/* A copy of a host name (dtnss_text_is_host: no escapes) without its
 * final dot, or NULL. */
char *dtnss_buf_host(struct dtnss_buf *b, const char *text);

/*
 * A hostent under construction: its pointer arrays come first (nalias
 * and naddr entries, each NULL-terminated), then the addresses and names.
 */
struct dtnss_host {
	struct dtnss_buf *buf;
	char **alias;
	char **addr;
	size_t nalias, naddr;
	int af;
};

/* Carves the arrays out of buf. Returns 0, or -1 when full. */
int dtnss_host_init(struct dtnss_host *h, struct dtnss_buf *buf, int af,
		    size_t nalias, size_t naddr);

/* The i-th alias (a host name, final dot dropped) and the i-th
 * address (4 or 16 octets as af). Return 0, or -1 when full. */
int dtnss_host_alias(struct dtnss_host *h, size_t i, const char *text);
int dtnss_host_addr(struct dtnss_host *h, size_t i, const uint8_t *addr);

/* Fills *ret (name a copy already in the buffer). */
void dtnss_host_commit(const struct dtnss_host *h, char *name,
		       struct hostent *ret);

#endif
