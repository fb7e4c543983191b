/* SPDX-License-Identifier: MIT */
/*
 * src/daemon/failing.c: every answer bogus for FAILING_MINUTES minutes is
 * failing; one secure or insecure answer, a quiet minute, too few
 * samples, or counters reset are not.
 */
#include <string.h>

#include "../tap.h"
#include "daemon/failing.h"

/* Samples a minute apart: good and bogus grow by dg and db each time, n
 * times. Returns the last verdict; *bogus its count. */
static bool run(struct failing *f, uint64_t *good, uint64_t *bad, int n,
		uint64_t dg, uint64_t db, uint64_t *bogus)
{
	bool r = false;

	for (int i = 0; i < n; i++) {
		*good += dg;
		*bad += db;
		r = failing_sample(f, *good, *bad, bogus);
	}
	return r;
}

int main(void)
{
	struct failing f;
	uint64_t good = 100, bad = 3, nb = 0;
	bool r;

	memset(&f, 0, sizeof(f));
	ok(!run(&f, &good, &bad, FAILING_MINUTES, 0, 7, &nb),
	   "%d samples: not yet a whole window", FAILING_MINUTES);
	r = run(&f, &good, &bad, 1, 0, 7, &nb);
	ok(r && nb == 7 * FAILING_MINUTES,
	   "a whole window of bogus answers only: failing, %llu bogus",
	   (unsigned long long)nb);
	ok(!run(&f, &good, &bad, 1, 1, 7, &nb),
	   "one secure answer in the window: not failing");
	ok(!run(&f, &good, &bad, FAILING_MINUTES - 1, 0, 7, &nb),
	   "while that answer is in the window: not failing");
	ok(run(&f, &good, &bad, 1, 0, 7, &nb),
	   "once it has left the window: failing again");
	ok(!run(&f, &good, &bad, FAILING_MINUTES + 1, 0, 0, &nb),
	   "a quiet window (no answer at all): not failing");
	ok(!run(&f, &good, &bad, 1, 0, 7, &nb),
	   "bogus again after quiet minutes: not yet");
	ok(!run(&f, &good, &bad, FAILING_MINUTES - 2, 0, 7, &nb),
	   "a quiet minute still in the window: not failing");
	good = 0;
	bad = 0;
	ok(!run(&f, &good, &bad, FAILING_MINUTES, 0, 7, &nb),
	   "counters reset (statistics --reset): the window starts again");
	ok(run(&f, &good, &bad, 1, 0, 7, &nb), "and fills again");
	return done_testing();
}
