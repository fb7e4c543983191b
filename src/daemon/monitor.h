/* SPDX-License-Identifier: MIT */
/*
 * dnstrust monitor's view of the questions answered: a ring of the last
 * MONITOR_RING events (name, type, status, EDE, time taken, from the
 * cache or not), filled only while a monitor has asked within
 * MONITOR_IDLE_MS, so that an unwatched daemon pays one atomic load per
 * question. Process-wide; thread-safe.
 */
#ifndef DT_DAEMON_MONITOR_H
#define DT_DAEMON_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

/* Events kept: a monitor polling every 200 ms misses none below 2,500
 * questions a second. */
#define MONITOR_RING 512
/* Events in one answer: about 170 octets each in a TXT record, so that
 * an answer stays well within a 64 KiB message. */
#define MONITOR_BATCH 200
/* A monitor that has not asked for this long is gone. */
#define MONITOR_IDLE_MS 5000
/* Characters of a name kept in an event (longer ones are cut, marked
 * with "..."). */
#define MONITOR_NAME_MAXLEN 200

/* True while a monitor runs (now_ms: monotonic). */
bool monitor_active(int64_t now_ms);

/* Records one answered question. wall_ms: wall clock; status: "secure",
 * "insecure", "bogus", "indeterminate"; ede: -1 for none. */
void monitor_note(const uint8_t *qname, uint16_t qtype, const char *status,
		  int ede, int64_t ms, bool cached, int64_t wall_ms);

/* Calls emit with one line per event numbered from on (0: none, only
 * the current position): "q seq=N t=WALLMS name=NAME type=TYPE status=S
 * ede=E ms=MS cached=0|1"; first "missed=K" when events were overwritten
 * before they were asked for. At most MONITOR_BATCH events. Marks the
 * monitor active. Returns the number to ask from next time. */
uint64_t monitor_events(uint64_t from, int64_t now_ms,
			void (*emit)(const char *line, void *arg), void *arg);

#endif
