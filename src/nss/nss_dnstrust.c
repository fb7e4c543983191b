/* SPDX-License-Identifier: MIT */
/*
 * The forward lookups of libnss_dnstrust.so.2: gethostbyname4_r (for
 * getaddrinfo), gethostbyname3_r and its older forms.
 */
#include "nss/nss_dnstrust.h"

#include <errno.h>
#include <stdalign.h>
#include <string.h>

#include "nss/answer.h"
#include "nss/ask.h"
#include "nss/name.h"
#include "nss/pack.h"

#ifdef NSS_DECLARE_MODULE_FUNCTIONS
/* glibc's own declarations: the compiler checks ours against them. */
NSS_DECLARE_MODULE_FUNCTIONS(dnstrust)
#endif

/* One family's answer for one name. */
struct lookup {
	dt_result_t *res;
	struct dtnss_chain chain;
	size_t naddr;
	const char *canon; /* owner of the first address, or NULL */
	uint32_t ttl;	   /* smallest TTL of the chain and addresses */
	int af;
};

static void lookup_free(struct lookup *l)
{
	if (l->res != NULL)
		dt_result_free(l->res);
	l->res = NULL;
}

static enum nss_status erange(int *errnop, int *h_errnop)
{
	return dtnss_fail(NSS_STATUS_TRYAGAIN, ERANGE, NETDB_INTERNAL, errnop,
			  h_errnop);
}

static enum nss_status no_data(int *errnop, int *h_errnop)
{
	return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_DATA, errnop,
			  h_errnop);
}

static void put_ttl(int32_t *ttlp, uint32_t ttl)
{
	if (ttlp != NULL)
		*ttlp = ttl > INT32_MAX ? INT32_MAX : (int32_t)ttl;
}

/* The addresses of family af at the end of name's CNAME chain, from the
 * reply to its question (whose result *ret takes, or frees). */
static enum nss_status lookup_take(struct dtnss_reply *r, const uint8_t *qname,
				   int af, struct lookup *ret, int *errnop,
				   int *h_errnop)
{
	uint16_t type = af == AF_INET ? DTNSS_TYPE_A : DTNSS_TYPE_AAAA;
	struct lookup l = {.af = af, .res = r->res};
	size_t pos = 0;
	dt_rr_t rr;

	r->res = NULL;
	if (r->st != NSS_STATUS_SUCCESS)
		return dtnss_fail(r->st, r->err, r->herr, errnop, h_errnop);
	if (dtnss_chain_follow(l.res, qname, type, &l.chain) < 0)
		goto unusable;
	l.ttl = l.chain.ttl;
	while (dtnss_addr_next(l.res, &l.chain, af, &pos, &rr)) {
		if (l.naddr++ == 0)
			l.canon = rr.owner;
		if (rr.ttl < l.ttl)
			l.ttl = rr.ttl;
	}
	if (l.canon != NULL && !dtnss_text_is_host(l.canon))
		goto unusable;
	*ret = l;
	return NSS_STATUS_SUCCESS;
unusable:
	lookup_free(&l);
	return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY, errnop,
			  h_errnop);
}

/* One family: its question alone. */
static enum nss_status lookup(const char *name, const uint8_t *qname, int af,
			      struct lookup *ret, int *errnop, int *h_errnop)
{
	struct dtnss_reply r = {.st = NSS_STATUS_SUCCESS};

	r.st = dtnss_ask(name, af == AF_INET ? DTNSS_TYPE_A : DTNSS_TYPE_AAAA,
			 &r.res, &r.err, &r.herr);
	return lookup_take(&r, qname, af, ret, errnop, h_errnop);
}

/* Checks name, into qname (wire form). */
static enum nss_status start(const char *name, uint8_t *qname, int *errnop,
			     int *h_errnop)
{
	if (name == NULL || dtnss_name_from_text(name, qname) < 0)
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND,
				  errnop, h_errnop);
	return NSS_STATUS_SUCCESS;
}

/* --- getaddrinfo: gethostbyname4_r --- */

/* Both families, asked together on one connection. The A answer is
 * judged first: when it fails (no such name, bogus, daemon down or
 * slow) the lookup fails as it says, whatever AAAA got. A bogus AAAA
 * fails the lookup too; any other AAAA failure (a timeout, say) leaves
 * the A addresses rather than failing a name that has some. */
static enum nss_status lookup_both(const char *name, const uint8_t *qname,
				   struct lookup *v4, struct lookup *v6,
				   int *errnop, int *h_errnop)
{
	struct dtnss_reply r4, r6;
	enum nss_status st;
	int e6, h6;

	dtnss_ask_both(name, &r4, &r6);
	st = lookup_take(&r4, qname, AF_INET, v4, errnop, h_errnop);
	if (st != NSS_STATUS_SUCCESS) {
		if (r6.res != NULL)
			dt_result_free(r6.res);
		return st;
	}
	st = lookup_take(&r6, qname, AF_INET6, v6, &e6, &h6);
	if (st == NSS_STATUS_SUCCESS)
		return st;
	if (h6 == NO_RECOVERY || v4->naddr == 0) {
		lookup_free(v4);
		return dtnss_fail(st, e6, h6, errnop, h_errnop);
	}
	*v6 = (struct lookup){.af = AF_INET6, .ttl = UINT32_MAX};
	return NSS_STATUS_SUCCESS;
}

static void tuples_fill(struct gaih_addrtuple *t, const struct lookup *l,
			size_t *i, size_t total)
{
	size_t pos = 0;
	dt_rr_t rr;

	while (dtnss_addr_next(l->res, &l->chain, l->af, &pos, &rr)) {
		memset(&t[*i], 0, sizeof(t[*i]));
		t[*i].family = l->af;
		memcpy(t[*i].addr, rr.rdata, rr.rdlen);
		t[*i].next = *i + 1 < total ? &t[*i + 1] : NULL;
		(*i)++;
	}
}

static enum nss_status tuples_pack(const struct lookup *v4,
				   const struct lookup *v6,
				   struct gaih_addrtuple **pat, char *buffer,
				   size_t buflen, int *errnop, int *h_errnop)
{
	size_t total = v4->naddr + v6->naddr, i = 0;
	struct gaih_addrtuple *t;
	struct dtnss_buf b;
	char *canon;

	dtnss_buf_init(&b, buffer, buflen);
	t = dtnss_buf_take(&b, total * sizeof(*t),
			   alignof(struct gaih_addrtuple));
	canon = dtnss_buf_host(&b, v4->naddr ? v4->canon : v6->canon);
	if (b.full)
		return erange(errnop, h_errnop);
	tuples_fill(t, v4, &i, total);
	tuples_fill(t, v6, &i, total);
	t[0].name = canon;
	if (*pat != NULL)
		**pat = t[0]; /* glibc's own first tuple */
	else
		*pat = t;
	return NSS_STATUS_SUCCESS;
}

enum nss_status _nss_dnstrust_gethostbyname4_r(const char *name,
					       struct gaih_addrtuple **pat,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop,
					       int32_t *ttlp)
{
	struct lookup v4 = {0}, v6 = {0};
	uint8_t qname[DT_NAME_MAXLEN];
	enum nss_status st;

	if ((st = start(name, qname, errnop, h_errnop)) != NSS_STATUS_SUCCESS ||
	    (st = lookup_both(name, qname, &v4, &v6, errnop, h_errnop)) !=
		    NSS_STATUS_SUCCESS)
		return st;
	if (v4.naddr + v6.naddr == 0)
		st = no_data(errnop, h_errnop);
	else
		st = tuples_pack(&v4, &v6, pat, buffer, buflen, errnop,
				 h_errnop);
	if (st == NSS_STATUS_SUCCESS)
		put_ttl(ttlp, v4.ttl < v6.ttl ? v4.ttl : v6.ttl);
	lookup_free(&v4);
	lookup_free(&v6);
	return st;
}

/* --- one family: gethostbyname3_r and older --- */

static size_t host_aliases(const struct dtnss_chain *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nalias; i++)
		n += dtnss_text_is_host(c->alias[i]);
	return n;
}

static enum nss_status hostent_pack(const struct lookup *l,
				    struct hostent *host, char *buffer,
				    size_t buflen, int *errnop, int *h_errnop)
{
	struct dtnss_buf b;
	struct dtnss_host h;
	size_t pos = 0, n = 0;
	dt_rr_t rr;
	char *name;

	dtnss_buf_init(&b, buffer, buflen);
	if (dtnss_host_init(&h, &b, l->af, host_aliases(&l->chain), l->naddr) <
	    0)
		return erange(errnop, h_errnop);
	for (size_t i = 0; i < l->chain.nalias; i++)
		if (dtnss_text_is_host(l->chain.alias[i]))
			dtnss_host_alias(&h, n++, l->chain.alias[i]);
	for (size_t i = 0; dtnss_addr_next(l->res, &l->chain, l->af, &pos, &rr);
	     i++)
		dtnss_host_addr(&h, i, rr.rdata);
	name = dtnss_buf_host(&b, l->canon);
	if (b.full)
		return erange(errnop, h_errnop);
	dtnss_host_commit(&h, name, host);
	return NSS_STATUS_SUCCESS;
}

enum nss_status _nss_dnstrust_gethostbyname3_r(const char *name, int af,
					       struct hostent *host,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop,
					       int32_t *ttlp, char **canonp)
{
	uint8_t qname[DT_NAME_MAXLEN];
	struct lookup l = {0};
	enum nss_status st;

	if (af != AF_INET && af != AF_INET6)
		return dtnss_fail(NSS_STATUS_UNAVAIL, EAFNOSUPPORT,
				  NETDB_INTERNAL, errnop, h_errnop);
	if ((st = start(name, qname, errnop, h_errnop)) != NSS_STATUS_SUCCESS ||
	    (st = lookup(name, qname, af, &l, errnop, h_errnop)) !=
		    NSS_STATUS_SUCCESS)
		return st;
	if (l.naddr == 0)
		st = no_data(errnop, h_errnop);
	else
		st = hostent_pack(&l, host, buffer, buflen, errnop, h_errnop);
	if (st == NSS_STATUS_SUCCESS) {
		put_ttl(ttlp, l.ttl);
		if (canonp != NULL)
			*canonp = host->h_name;
	}
	lookup_free(&l);
	return st;
}

enum nss_status _nss_dnstrust_gethostbyname2_r(const char *name, int af,
					       struct hostent *host,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop)
{
	return _nss_dnstrust_gethostbyname3_r(name, af, host, buffer, buflen,
					      errnop, h_errnop, NULL, NULL);
}

enum nss_status _nss_dnstrust_gethostbyname_r(const char *name,
					      struct hostent *host,
					      char *buffer, size_t buflen,
					      int *errnop, int *h_errnop)
{
	return _nss_dnstrust_gethostbyname3_r(name, AF_INET, host, buffer,
					      buflen, errnop, h_errnop, NULL,
					      NULL);
}
