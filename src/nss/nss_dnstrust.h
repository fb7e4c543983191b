/* SPDX-License-Identifier: MIT */
/*
 * libnss_dnstrust.so.2: glibc's "hosts" database answered by dnstrustd.
 * These are the only symbols the shared object exports
 * (nss_dnstrust.map); glibc finds them by name when nsswitch.conf lists
 * "dnstrust". Every function follows glibc's NSS contract:
 *
 * - the result (hostent, gaih_addrtuple list) and everything it points to
 *   live in the caller's buffer (buflen octets, any alignment); nothing is
 *   allocated that outlives the call, and the result is written only on
 *   success;
 * - a buffer too small gives NSS_STATUS_TRYAGAIN with *errnop ERANGE and
 *   *h_errnop NETDB_INTERNAL, and glibc calls again with a larger one;
 * - any other failure sets *errnop and *h_errnop as the table in
 *   src/nss/ask.h (and nss_dnstrust(8)) says: bogus is NOTFOUND with
 *   NO_RECOVERY, an unreachable daemon UNAVAIL;
 * - ttlp (may be NULL) gets the smallest TTL of the records used, CNAMEs
 *   included; canonp (may be NULL) the canonical name, in the buffer.
 *
 * Names are asked as given, as absolute names (a final dot is implied): no
 * search list, since resolv.conf is not trusted. The canonical name is the
 * end of the CNAME chain; the aliases are the names the chain went
 * through. Only host names (letters, digits, '-', '_') are handed to
 * applications: a PTR target or alias that is not one is left out.
 *
 * Thread-safe; each call asks dnstrustd one question (two for
 * gethostbyname4_r, A and AAAA sent together), blocking up to
 * DTNSS_TIMEOUT_MS, on a connection the process keeps for the next
 * lookups (src/nss/ask.h).
 */
#ifndef DT_NSS_NSS_DNSTRUST_H
#define DT_NSS_NSS_DNSTRUST_H

#include <netdb.h>
#include <nss.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* getaddrinfo's entry: A and AAAA of name as a gaih_addrtuple list, the
 * first tuple naming the canonical name. When *pat is not NULL glibc
 * passes its own first tuple, which is filled and linked to the rest. A
 * bogus answer for either type fails the lookup. */
enum nss_status _nss_dnstrust_gethostbyname4_r(const char *name,
					       struct gaih_addrtuple **pat,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop,
					       int32_t *ttlp);

/* Addresses of one family (AF_INET: A, AF_INET6: AAAA) as a hostent. */
enum nss_status _nss_dnstrust_gethostbyname3_r(const char *name, int af,
					       struct hostent *host,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop,
					       int32_t *ttlp, char **canonp);

enum nss_status _nss_dnstrust_gethostbyname2_r(const char *name, int af,
					       struct hostent *host,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop);

/* AF_INET only, as glibc's own sources. */
enum nss_status _nss_dnstrust_gethostbyname_r(const char *name,
					      struct hostent *host,
					      char *buffer, size_t buflen,
					      int *errnop, int *h_errnop);

/* PTR of addr (len octets: 4 for AF_INET, 16 for AF_INET6) under
 * in-addr.arpa. or ip6.arpa.: h_name is the first PTR target, h_aliases
 * the others, h_addr_list the address asked. */
enum nss_status _nss_dnstrust_gethostbyaddr2_r(const void *addr, socklen_t len,
					       int af, struct hostent *host,
					       char *buffer, size_t buflen,
					       int *errnop, int *h_errnop,
					       int32_t *ttlp);

enum nss_status _nss_dnstrust_gethostbyaddr_r(const void *addr, socklen_t len,
					      int af, struct hostent *host,
					      char *buffer, size_t buflen,
					      int *errnop, int *h_errnop);

#endif
