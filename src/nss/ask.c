/* SPDX-License-Identifier: MIT */
/*
 * The module's context, its questions, and their outcomes in glibc's
 * terms.
 */
#include "nss/ask.h"

#include <errno.h>
#include <netdb.h>
#include <stddef.h>

#include "common/protocol.h"
#include "nss/answer.h"

#define RCODE_NOERROR  0
#define RCODE_SERVFAIL 2
#define RCODE_NXDOMAIN 3

/* What every context gets; only dtnss_test_settings changes them. */
static const char *ctx_socket = DT_PROTO_SOCKET;
static unsigned ctx_timeout_ms = DTNSS_TIMEOUT_MS;
static uid_t ctx_daemon_uid = (uid_t)-1;

dt_ctx_t *dtnss_ctx_new(void)
{
	dt_ctx_t *ctx;

	if (dt_ctx_new(&ctx) != 0)
		return NULL;
	/* The build-time path even if libdnstrust's default ever moved. */
	if (dt_ctx_set_socket(ctx, ctx_socket) != 0 ||
	    dt_ctx_set_timeout(ctx, ctx_timeout_ms) != 0 ||
	    (ctx_daemon_uid != (uid_t)-1 &&
	     dt_ctx_set_daemon_uid(ctx, ctx_daemon_uid) != 0)) {
		dt_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

void dtnss_test_settings(const char *socket, unsigned timeout_ms,
			 uid_t daemon_uid)
{
	ctx_socket = socket;
	ctx_timeout_ms = timeout_ms;
	ctx_daemon_uid = daemon_uid;
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
	if (st != DT_STATUS_SECURE && st != DT_STATUS_INSECURE)
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

enum nss_status dtnss_ask(dt_ctx_t *ctx, const char *name, uint16_t type,
			  dt_result_t **ret, int *errnop, int *h_errnop)
{
	dt_result_t *res = NULL;
	enum nss_status st;
	int rc;

	rc = dt_query(ctx, name, DTNSS_CLASS_IN, type, 0, &res);
	st = dtnss_map(rc, res, errnop, h_errnop);
	if (st != NSS_STATUS_SUCCESS) {
		if (res != NULL)
			dt_result_free(res);
		return st;
	}
	*ret = res;
	return st;
}
