/* SPDX-License-Identifier: MIT */
/*
 * The reverse lookups of libnss_dnstrust.so.2: gethostbyaddr2_r and
 * gethostbyaddr_r, PTR records under in-addr.arpa. and ip6.arpa.
 */
#include <errno.h>
#include <string.h>

#include "nss/answer.h"
#include "nss/ask.h"
#include "nss/name.h"
#include "nss/nss_dnstrust.h"
#include "nss/pack.h"

/* The next PTR target at the chain's end that is a host name, as text. */
static bool ptr_next(const dt_result_t *res, const struct dtnss_chain *c,
		     size_t *pos, char host[DT_NAME_MAXLEN], uint32_t *ttl)
{
	dt_rr_t rr;

	while (dtnss_chain_next(res, c, DTNSS_TYPE_PTR, pos, &rr)) {
		if (dtnss_name_check(rr.rdata, rr.rdlen) != (int)rr.rdlen ||
		    dtnss_name_to_host(rr.rdata, host, DT_NAME_MAXLEN) < 0)
			continue;
		if (rr.ttl < *ttl)
			*ttl = rr.ttl;
		return true;
	}
	return false;
}

/* h_name is the first target, h_aliases the others. */
static enum nss_status ptr_pack(const dt_result_t *res,
				const struct dtnss_chain *c, size_t n, int af,
				const uint8_t *addr, struct hostent *host,
				struct dtnss_buf *b, int *errnop, int *h_errnop)
{
	char target[DT_NAME_MAXLEN], *name;
	struct dtnss_host h;
	uint32_t ttl = UINT32_MAX;
	size_t pos = 0;

	if (dtnss_host_init(&h, b, af, n - 1, 1) < 0 ||
	    dtnss_host_addr(&h, 0, addr) < 0)
		return dtnss_fail(NSS_STATUS_TRYAGAIN, ERANGE, NETDB_INTERNAL,
				  errnop, h_errnop);
	ptr_next(res, c, &pos, target, &ttl);
	name = dtnss_buf_host(b, target);
	for (size_t i = 0; i + 1 < n && ptr_next(res, c, &pos, target, &ttl);
	     i++)
		dtnss_host_alias(&h, i, target);
	if (b->full)
		return dtnss_fail(NSS_STATUS_TRYAGAIN, ERANGE, NETDB_INTERNAL,
				  errnop, h_errnop);
	dtnss_host_commit(&h, name, host);
	return NSS_STATUS_SUCCESS;
}

static enum nss_status ptr_answer(const dt_result_t *res, const uint8_t *qname,
				  int af, const uint8_t *addr,
				  struct hostent *host, char *buffer,
				  size_t buflen, int *errnop, int *h_errnop,
				  int32_t *ttlp)
{
	char target[DT_NAME_MAXLEN];
	struct dtnss_chain c;
	struct dtnss_buf b;
	size_t n = 0, pos = 0;
	uint32_t ttl;
	enum nss_status st;

	if (dtnss_chain_follow(res, qname, DTNSS_TYPE_PTR, &c) < 0)
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY,
				  errnop, h_errnop);
	ttl = c.ttl;
	while (ptr_next(res, &c, &pos, target, &ttl))
		n++;
	if (n == 0)
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_DATA, errnop,
				  h_errnop);
	dtnss_buf_init(&b, buffer, buflen);
	st = ptr_pack(res, &c, n, af, addr, host, &b, errnop, h_errnop);
	if (st == NSS_STATUS_SUCCESS && ttlp != NULL)
		*ttlp = ttl > INT32_MAX ? INT32_MAX : (int32_t)ttl;
	return st;
}

enum nss_status _nss_dnstrust_gethostbyaddr2_r(const void *addr, socklen_t len,
					       int af, struct hostent *host,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop,
					       int32_t *ttlp)
{
	char rname[DTNSS_REVERSE_MAXLEN];
	uint8_t qname[DT_NAME_MAXLEN];
	dt_result_t *res;
	enum nss_status st;
	socklen_t want = af == AF_INET ? 4 : af == AF_INET6 ? 16 : 0;

	if (want == 0 || len < want || addr == NULL)
		return dtnss_fail(NSS_STATUS_UNAVAIL, EAFNOSUPPORT,
				  NETDB_INTERNAL, errnop, h_errnop);
	dtnss_reverse_name(af, addr, rname);
	dtnss_name_from_text(rname, qname); /* always a name */
	if ((st = dtnss_ask(rname, DTNSS_TYPE_PTR, &res, errnop, h_errnop)) !=
	    NSS_STATUS_SUCCESS)
		return st;
	st = ptr_answer(res, qname, af, addr, host, buffer, buflen, errnop,
			h_errnop, ttlp);
	dt_result_free(res);
	return st;
}

enum nss_status _nss_dnstrust_gethostbyaddr_r(const void *addr, socklen_t len,
					      int af, struct hostent *host,
					      char *buffer, size_t buflen,
					      int *errnop, int *h_errnop)
{
	return _nss_dnstrust_gethostbyaddr2_r(addr, len, af, host, buffer,
					      buflen, errnop, h_errnop, NULL);
}
