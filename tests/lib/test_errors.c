/* SPDX-License-Identifier: MIT */
/*
 * The public error codes of include/dnstrust.h: none in the range of
 * -errno values (-1..-4095), all distinct, each named by dt_error_str().
 * Built against the shared library, as a program would use it.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <dnstrust.h>

#include "tap.h"

/* The largest errno the kernel returns as -errno (include/linux/err.h). */
#define ERRNO_MAX 4095

static const int codes[] = {
	DT_ERR_UNAVAILABLE, DT_ERR_UNTRUSTED, DT_ERR_TIMEOUT,
	DT_ERR_NOT_SECURE,  DT_ERR_BOGUS,     DT_ERR_INVALID,
	DT_ERR_NOMEM,	    DT_ERR_PROTOCOL,  DT_ERR_NODATA,
	DT_ERR_NXDOMAIN,    DT_ERR_SERVFAIL,
};
#define NCODES (sizeof(codes) / sizeof(codes[0]))

/* Whether e is in codes[]. The switch has no default: -Wswitch (-Wall,
 * -Werror) fails the build when enum dt_error gains a code not listed
 * here, so the checks below cover every code. */
static bool listed(enum dt_error e)
{
	switch (e) {
	case DT_OK: return false;
	case DT_ERR_UNAVAILABLE:
	case DT_ERR_UNTRUSTED:
	case DT_ERR_TIMEOUT:
	case DT_ERR_NOT_SECURE:
	case DT_ERR_BOGUS:
	case DT_ERR_INVALID:
	case DT_ERR_NOMEM:
	case DT_ERR_PROTOCOL:
	case DT_ERR_NODATA:
	case DT_ERR_NXDOMAIN:
	case DT_ERR_SERVFAIL: break;
	}
	for (size_t i = 0; i < NCODES; i++) {
		if (codes[i] == (int)e)
			return true;
	}
	return false;
}

int main(void)
{
	size_t in_errno = 0, unnamed = 0, dup = 0, unlisted = 0;
	int errno_named = 0;

	for (size_t i = 0; i < NCODES; i++) {
		if (codes[i] >= -ERRNO_MAX && codes[i] <= -1) {
			in_errno++;
			diag("code %d is in -1..-%d", codes[i], ERRNO_MAX);
		}
		if (strcmp(dt_error_str(codes[i]), "unknown error") == 0)
			unnamed++;
		if (!listed((enum dt_error)codes[i]))
			unlisted++;
		for (size_t j = 0; j < i; j++)
			dup += codes[j] == codes[i];
	}
	is_int(in_errno, 0, "no DT_ERR_* value in -1..-%d (-errno)", ERRNO_MAX);
	is_int(dup, 0, "the %zu DT_ERR_* values are distinct", NCODES);
	is_int(unnamed, 0, "dt_error_str() names each");
	is_int(unlisted, 0, "each is a code of enum dt_error");
	/* dt_error_str() knows no code in the errno range either: a -errno
	 * passed to it is not mistaken for a DT_ERR_* code. */
	for (int e = 1; e <= ERRNO_MAX; e++)
		errno_named += strcmp(dt_error_str(-e), "unknown error") != 0;
	is_int(errno_named, 0, "dt_error_str(-errno) is never a DT_ERR_* text");
	is_int(DT_ERR_UNAVAILABLE, -10001, "DT_ERR_UNAVAILABLE is -10001");
	is_int(DT_ERR_SERVFAIL, -10011, "DT_ERR_SERVFAIL is -10011");
	ok(DT_EAI_UNAVAILABLE != DT_EAI_NOT_SECURE &&
		   DT_EAI_UNAVAILABLE < -105 && DT_EAI_NOT_SECURE < -105,
	   "DT_EAI_* below glibc's EAI_* codes (-1..-11, -100..-105)");
	return done_testing();
}
