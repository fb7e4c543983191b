/* SPDX-License-Identifier: MIT */
/*
 * A minimal TAP (Test Anything Protocol) producer for the unit tests.
 * Each check prints "ok N - what" or "not ok N - what"; done_testing()
 * prints the plan and returns the exit status.
 */
#ifndef DT_TESTS_TAP_H
#define DT_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3))) static inline int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

#define is_int(got, want, ...)                                               \
	do {                                                                 \
		long long g_ = (long long)(got), w_ = (long long)(want);     \
		if (!tap_ok(g_ == w_, __VA_ARGS__))                          \
			printf("#   got %lld, want %lld (%s:%d)\n", g_, w_,  \
			       __FILE__, __LINE__);                          \
	} while (0)

#define is_str(got, want, ...)                                               \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (!tap_ok(g_ && w_ && strcmp(g_, w_) == 0, __VA_ARGS__))   \
			printf("#   got \"%s\", want \"%s\" (%s:%d)\n",      \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)",       \
			       __FILE__, __LINE__);                          \
	} while (0)

#define is_mem(got, gotlen, want, wantlen, ...)                              \
	tap_ok((size_t)(gotlen) == (size_t)(wantlen) &&                      \
		       memcmp((got), (want), (size_t)(wantlen)) == 0,        \
	       __VA_ARGS__)

__attribute__((format(printf, 1, 2))) static inline void
diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
