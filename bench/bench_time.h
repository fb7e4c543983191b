/* SPDX-License-Identifier: MIT */
/*
 * What the benchmark programs share: the monotonic clock in microseconds
 * and the comparison qsort() needs to sort times.
 */
#ifndef DT_BENCH_TIME_H
#define DT_BENCH_TIME_H

#include <time.h>

static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* For qsort() over doubles, ascending. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif
