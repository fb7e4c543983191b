/* SPDX-License-Identifier: MIT */
/*
 * The module's context, its questions, and their outcomes in glibc's
 * terms.
 */
#include "nss/ask.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stddef.h>

#include "common/protocol.h"
#include "lib/internal.h"
#include "nss/answer.h"

#define RCODE_NOERROR  0
#define RCODE_SERVFAIL 2
#define RCODE_NXDOMAIN 3

/* The module's settings; only dtnss_test_settings changes them. */
static const char *ctx_socket = DT_PROTO_SOCKET;
static unsigned ctx_timeout_ms = DTNSS_TIMEOUT_MS;
static uid_t ctx_daemon_uid = (uid_t)-1;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;

/* The settings into the context. Failures cannot happen with the values
 * above (a path that fits, a timeout in range); a context left with
 * libdnstrust's defaults would still be the same socket, root only. */
static void ctx_apply(dt_ctx_t *ctx)
{
	(void)dt_ctx_set_socket(ctx, ctx_socket);
	(void)dt_ctx_set_timeout(ctx, ctx_timeout_ms);
	if (ctx_daemon_uid == (uid_t)-1)
		dtlib_ctx_trust_root_only(ctx);
	else
		(void)dt_ctx_set_daemon_uid(ctx, ctx_daemon_uid);
}

static void ctx_setup(void)
{
	ctx_apply(dt_ctx_default());
}

dt_ctx_t *dtnss_ctx(void)
{
	pthread_once(&ctx_once, ctx_setup);
	return dt_ctx_default();
}

void dtnss_test_settings(const char *socket, unsigned timeout_ms,
			 uid_t daemon_uid)
{
	pthread_once(&ctx_once, ctx_setup);
	ctx_socket = socket;
	ctx_timeout_ms = timeout_ms;
	ctx_daemon_uid = daemon_uid;
	ctx_apply(dt_ctx_default());
}

enum nss_status dtnss_fail(enum nss_status status, int err, int herr,
			   int *errnop, int *h_errnop)
{
	*errnop = err;
	*h_errnop = herr;
	return status;
}

static enum nss_status map_answer(const dt_result_t *res, int *errnop,
				  int *h_errnop)
{
	enum dt_status st = dt_result_status(res);

	if (st == DT_STATUS_BOGUS)
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY,
				  errnop, h_errnop);
	/* Unvalidated: a hotspot sign-on the administrator asked for (or
	 * the opt-in fallback); the application gets the data, as it would
	 * from glibc's own resolver. */
	if (st != DT_STATUS_SECURE && st != DT_STATUS_INSECURE &&
	    st != DT_STATUS_UNVALIDATED)
		return dtnss_fail(NSS_STATUS_TRYAGAIN, EAGAIN, TRY_AGAIN,
				  errnop, h_errnop);
	switch (dt_result_rcode(res)) {
	case RCODE_NOERROR: return NSS_STATUS_SUCCESS;
	case RCODE_NXDOMAIN:
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND,
				  errnop, h_errnop);
	case RCODE_SERVFAIL:
		return dtnss_fail(NSS_STATUS_TRYAGAIN, EAGAIN, TRY_AGAIN,
				  errnop, h_errnop);
	default:
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY,
				  errnop, h_errnop);
	}
}

enum nss_status dtnss_map(int rc, const dt_result_t *res, int *errnop,
			  int *h_errnop)
{
	switch (rc) {
	case DT_OK: return map_answer(res, errnop, h_errnop);
	case DT_ERR_BOGUS:
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_RECOVERY,
				  errnop, h_errnop);
	case DT_ERR_NXDOMAIN:
	case DT_ERR_INVALID:
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, HOST_NOT_FOUND,
				  errnop, h_errnop);
	case DT_ERR_NODATA:
		return dtnss_fail(NSS_STATUS_NOTFOUND, ENOENT, NO_DATA, errnop,
				  h_errnop);
	case DT_ERR_SERVFAIL:
	case DT_ERR_TIMEOUT:
		return dtnss_fail(NSS_STATUS_TRYAGAIN, EAGAIN, TRY_AGAIN,
				  errnop, h_errnop);
	case DT_ERR_UNAVAILABLE:
		return dtnss_fail(NSS_STATUS_UNAVAIL, ENOENT, TRY_AGAIN, errnop,
				  h_errnop);
	case DT_ERR_UNTRUSTED:
		return dtnss_fail(NSS_STATUS_UNAVAIL, EACCES, NO_RECOVERY,
				  errnop, h_errnop);
	case DT_ERR_NOMEM:
		return dtnss_fail(NSS_STATUS_TRYAGAIN, ENOMEM, NETDB_INTERNAL,
				  errnop, h_errnop);
	default: /* DT_ERR_PROTOCOL, and whatever a later library adds */
		return dtnss_fail(NSS_STATUS_TRYAGAIN, EPROTO, NO_RECOVERY,
				  errnop, h_errnop);
	}
}

/* A failure's status into r; SUCCESS and the result otherwise. */
static void reply_set(struct dtnss_reply *r, int rc, dt_result_t *res)
{
	r->res = NULL;
	r->err = 0;
	r->herr = 0;
	r->st = dtnss_map(rc, res, &r->err, &r->herr);
	if (r->st == NSS_STATUS_SUCCESS)
		r->res = res;
	else if (res != NULL)
		dt_result_free(res);
}

enum nss_status dtnss_ask(const char *name, uint16_t type, dt_result_t **ret,
			  int *errnop, int *h_errnop)
{
	dt_result_t *res = NULL;
	struct dtnss_reply r;
	int rc;

	rc = dt_query(dtnss_ctx(), name, DTNSS_CLASS_IN, type, 0, &res);
	reply_set(&r, rc, res);
	if (r.st != NSS_STATUS_SUCCESS)
		return dtnss_fail(r.st, r.err, r.herr, errnop, h_errnop);
	*ret = r.res;
	return r.st;
}

void dtnss_ask_both(const char *name, struct dtnss_reply *v4,
		    struct dtnss_reply *v6)
{
	static const uint16_t types[2] = {DTNSS_TYPE_A, DTNSS_TYPE_AAAA};
	dt_result_t *res[2];
	int rc[2];

	dtlib_query_each(dtnss_ctx(), name, DTNSS_CLASS_IN, types, 2, 0, rc,
			 res);
	reply_set(v4, rc[0], res[0]);
	reply_set(v6, rc[1], res[1]);
}
