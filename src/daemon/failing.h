/* SPDX-License-Identifier: MIT */
/*
 * Whether validation fails on everything: sampled once a minute from the
 * workers' counters, the window is failing when each of its minutes saw
 * bogus answers and no other (none secure, none insecure): the
 * mark of a trust anchor that does not match the network's root, or of a
 * clock far off (every signature expired or not yet valid). Pure: the
 * counters are arguments; one thread (the main loop's).
 */
#ifndef DT_DAEMON_FAILING_H
#define DT_DAEMON_FAILING_H

#include <stdbool.h>
#include <stdint.h>

/* The window, in one-minute samples: long enough that a few bogus names
 * (an attack, a broken zone) among quiet minutes do not count, short
 * enough to be told while someone is looking. */
#define FAILING_MINUTES 5
/* How often the counters are sampled. */
#define FAILING_SAMPLE_MS 60000

/* Zeroed: no sample yet. */
struct failing {
	uint64_t good[FAILING_MINUTES + 1];  /* secure + insecure, cumulative */
	uint64_t bogus[FAILING_MINUTES + 1]; /* cumulative */
	unsigned n;			     /* samples taken, up to the ring */
	unsigned next;			     /* the slot the next one goes to */
};

/*
 * Takes one sample of the cumulative counters good (secure and insecure
 * answers) and bogus. Returns true when each of the last FAILING_MINUTES
 * minutes saw bogus answers and no other; *ret_bogus is then their
 * number.
 * Counters that went down (statistics reset) start the window again.
 */
bool failing_sample(struct failing *f, uint64_t good, uint64_t bogus,
		    uint64_t *ret_bogus);

#endif
