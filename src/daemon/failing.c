/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "daemon/failing.h"

#define RING (FAILING_MINUTES + 1)

bool failing_sample(struct failing *f, uint64_t good, uint64_t bogus,
		    uint64_t *ret_bogus)
{
	unsigned last = (f->next + RING - 1) % RING;
	unsigned oldest;

	if (f->n && (good < f->good[last] || bogus < f->bogus[last]))
		memset(f, 0, sizeof(*f));
	f->good[f->next] = good;
	f->bogus[f->next] = bogus;
	f->next = (f->next + 1) % RING;
	if (f->n < RING)
		f->n++;
	if (f->n < RING)
		return false;
	oldest = f->next; /* the ring is full: the slot written next */
	for (unsigned i = 0; i < FAILING_MINUTES; i++) {
		unsigned a = (oldest + i) % RING, b = (a + 1) % RING;
		if (f->good[b] != f->good[a] || f->bogus[b] == f->bogus[a])
			return false;
	}
	*ret_bogus = bogus - f->bogus[oldest];
	return true;
}
