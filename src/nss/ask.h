/* SPDX-License-Identifier: MIT */
/*
 * One question from the NSS module to dnstrustd, and what its outcome
 * means to glibc: an enum nss_status with errno and h_errno. The mapping
 * (docs/nss_dnstrust.8 has it as a table):
 *
 *   secure or insecure, NOERROR   SUCCESS (NOTFOUND, NO_DATA, ENOENT when
 *                                 no record of the type is there)
 *   secure or insecure, NXDOMAIN  NOTFOUND   HOST_NOT_FOUND  ENOENT
 *   bogus                         NOTFOUND   NO_RECOVERY     ENOENT
 *   indeterminate, SERVFAIL       TRYAGAIN   TRY_AGAIN       EAGAIN
 *   no answer within the timeout  TRYAGAIN   TRY_AGAIN       EAGAIN
 *   daemon unreachable            UNAVAIL    TRY_AGAIN       ENOENT
 *   daemon untrusted (impostor)   UNAVAIL    NO_RECOVERY     EACCES
 *   not a domain name             NOTFOUND   HOST_NOT_FOUND  ENOENT
 *   out of memory                 TRYAGAIN   NETDB_INTERNAL  ENOMEM
 *   answer makes no sense, other
 *   RCODEs                        TRYAGAIN or NOTFOUND, NO_RECOVERY
 *
 * Only "the daemon is not there" is UNAVAIL, the status an nsswitch.conf
 * action [!UNAVAIL=return] lets fall through to another source; a slow,
 * failing or confused daemon is not a reason to skip validation, so a
 * timeout is TRYAGAIN (an attacker who delays upstream answers must not
 * be able to turn on the fallback).
 */
#ifndef DT_NSS_ASK_H
#define DT_NSS_ASK_H

#include <nss.h>
#include <stdint.h>
#include <sys/types.h>

#include <dnstrust.h>

/* Time allowed for one answer. dnstrustd answers every question within
 * its query-timeout (default 5 s, SERVFAIL when upstreams are silent);
 * 2 s more lets that SERVFAIL arrive instead of a client-side timeout. */
#define DTNSS_TIMEOUT_MS 7000

/*
 * The module's context: one per process, made on first use (the default
 * context of the module's own copy of libdnstrust, static storage, so
 * it cannot fail to exist): the socket DT_PROTO_SOCKET (fixed at build
 * time, never taken from the environment), DTNSS_TIMEOUT_MS, a daemon
 * trusted when root. Its connections are kept between lookups and
 * shared by the threads (up to DTLIB_POOL_MAX idle ones): each was
 * checked (SO_PEERCRED) when made; one the daemon closed (a restart, its
 * idle timeout) is replaced, a lookup never fails for it; one the
 * program closed or reused the number of is forgotten, never written to
 * or closed; a child of fork() makes its own; the library's destructor
 * closes them when the module is unloaded.
 */
dt_ctx_t *dtnss_ctx(void);

/*
 * The test hook: tests/nss/test_nss.c links the module's objects and
 * points the module's context at its fake daemon (socket), with another
 * timeout and another trusted uid ((uid_t)-1: root only); connections
 * made before are not reused. Not thread-safe, not exported by the
 * shared object, so nothing outside the tests can call it.
 */
void dtnss_test_settings(const char *socket, unsigned timeout_ms,
			 uid_t daemon_uid);

/* Sets *errnop and *h_errnop and returns status. */
enum nss_status dtnss_fail(enum nss_status status, int err, int herr,
			   int *errnop, int *h_errnop);

/* The NSS outcome of a dt_query return value and result (the table
 * above); SUCCESS leaves *errnop and *h_errnop alone. */
enum nss_status dtnss_map(int rc, const dt_result_t *res, int *errnop,
			  int *h_errnop);

/*
 * Asks dnstrustd, through the module's context, name (presentation form),
 * class IN, type type. Returns NSS_STATUS_SUCCESS and the result in *ret
 * (a NOERROR answer, secure or insecure; the caller frees it), or another
 * status with *errnop and *h_errnop set.
 */
enum nss_status dtnss_ask(const char *name, uint16_t type, dt_result_t **ret,
			  int *errnop, int *h_errnop);

/* The outcome of one question: st SUCCESS and res (the caller frees
 * it), or another status with err and herr (res NULL). */
struct dtnss_reply {
	enum nss_status st;
	int err, herr;
	dt_result_t *res;
};

/*
 * Asks A and AAAA of name together, on one connection (pipelined), and
 * gives each its outcome as dtnss_ask would have. When the exchange
 * fails part-way (the daemon gone, the timeout), an answer that came
 * before keeps its outcome and the other gets the failure's.
 */
void dtnss_ask_both(const char *name, struct dtnss_reply *v4,
		    struct dtnss_reply *v6);

#endif
