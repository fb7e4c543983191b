/* SPDX-License-Identifier: MIT */
/*
 * Administrative operations beyond version, status, flush and reload
 * (docs/PROTOCOL.md §5): statistics and their reset, the log threshold,
 * flushing bogus or negative answers. Class CH, type TXT, under
 * dnstrust., like the others; admin.c dispatches to them.
 */
#ifndef DT_DAEMON_ADMIN_OPS_H
#define DT_DAEMON_ADMIN_OPS_H

#include <stdbool.h>
#include <stdint.h>

struct answer;
struct qinfo;
struct wire_builder;
struct worker;

/* Adds one TXT record to the answer: q's name, class CH, the text of fmt
 * as one character-string (cut at 255 octets). */
__attribute__((format(printf, 3, 4))) void
admin_txt_line(struct wire_builder *b, const struct qinfo *q, const char *fmt,
	       ...);

/* True when q names an operation only root or the daemon's user may ask
 * for (reset.statistics., LEVEL.log-level., flush-bogus.,
 * flush-negative.). */
bool admin_ops_privileged(const struct qinfo *q);

/* Answers q when it names one of these operations: TXT lines appended to
 * b (whose question is written), *ret_rcode set. Returns false, touching
 * nothing, when q names none of them. */
bool admin_ops_answer(struct worker *w, const struct qinfo *q,
		      struct wire_builder *b, uint16_t *ret_rcode);

/* Notes a finished resolution of qname/qtype (task.c, once per
 * resolution, beside the per-status counters): counted by Extended DNS
 * Error and by time taken (ms), and shown to dnstrust monitor when one
 * runs. Thread-safe. */
void admin_ops_finished(struct worker *w, const uint8_t *qname, uint16_t qtype,
			const struct answer *a, int64_t ms);

/* Notes a question answered from the answer cache (server.c), for
 * dnstrust monitor; costs one atomic load when none runs. */
void admin_ops_cache_hit(struct worker *w, const struct qinfo *q);

#endif
