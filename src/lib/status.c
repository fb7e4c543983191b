/* SPDX-License-Identifier: MIT */
/*
 * Error and status texts, the per-thread last status, and the order of
 * statuses used when one result rests on several answers.
 */
#include "lib/internal.h"

static _Thread_local enum dt_status last_status;
static _Thread_local int last_mode;

enum dt_status dt_last_status(void)
{
	return last_status;
}

void dtlib_set_last_status(enum dt_status st)
{
	last_status = st;
}

int dt_last_mode(void)
{
	return last_mode;
}

void dtlib_set_last_mode(int mode)
{
	last_mode = mode;
}

const char *dt_error_str(int err)
{
	switch (err) {
	case DT_OK: return "success";
	case DT_ERR_UNAVAILABLE: return "dnstrustd is not reachable";
	case DT_ERR_UNTRUSTED:
		return "the socket's peer is not the trusted daemon";
	case DT_ERR_TIMEOUT: return "no answer from dnstrustd in time";
	case DT_ERR_NOT_SECURE: return "the answer is not secure";
	case DT_ERR_BOGUS:
		return "the answer is bogus (DNSSEC validation failed)";
	case DT_ERR_INVALID: return "invalid argument";
	case DT_ERR_NOMEM: return "out of memory";
	case DT_ERR_PROTOCOL: return "dnstrustd's answer made no sense";
	case DT_ERR_NODATA: return "no records of the type asked";
	case DT_ERR_NXDOMAIN: return "the name does not exist";
	case DT_ERR_SERVFAIL: return "dnstrustd could not get an answer";
	}
	return "unknown error";
}

const char *dt_status_str(enum dt_status status)
{
	switch (status) {
	case DT_STATUS_SECURE: return "secure";
	case DT_STATUS_INSECURE: return "insecure";
	case DT_STATUS_BOGUS: return "bogus";
	case DT_STATUS_INDETERMINATE: return "indeterminate";
	case DT_STATUS_UNVALIDATED: return "unvalidated";
	case DT_STATUS_NONE: break;
	}
	return "none";
}

static int rank(enum dt_status st)
{
	switch (st) {
	case DT_STATUS_SECURE: return 0;
	case DT_STATUS_INSECURE: return 1;
	case DT_STATUS_UNVALIDATED: return 2;
	case DT_STATUS_NONE: return 3;
	case DT_STATUS_INDETERMINATE: return 4;
	case DT_STATUS_BOGUS: break;
	}
	return 5;
}

enum dt_status dtlib_status_worst(enum dt_status a, enum dt_status b)
{
	return rank(a) >= rank(b) ? a : b;
}
