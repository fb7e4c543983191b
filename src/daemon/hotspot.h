/* SPDX-License-Identifier: MIT */
/*
 * Hotspot sign-on (`dnstrust hotspot`) and captive portal detection.
 *
 * A captive portal answers names with its own address until the user
 * signs on; validation rightly fails those answers, and the user cannot
 * reach the portal. For a bounded time asked for by root, the daemon's
 * user or the hotspot-group, answers that cannot be proven and that no
 * signed zone below the root is shown to hold are returned marked
 * unvalidated (resolver.h, env.hotspot); they are never cached, and the
 * end of the sign-on (dnstrust hotspot --done, or the time running out)
 * drops every cache entry not validated as secure, the portal's among
 * them.
 *
 * A portal is suspected when the network's A answers fail validation
 * and carry one address for several names, or come back while the keys
 * to validate them cannot be had; status.dnstrust. says so, and the log
 * (notice) suggests dnstrust hotspot.
 */
#ifndef DT_DAEMON_HOTSPOT_H
#define DT_DAEMON_HOTSPOT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct answer;
struct daemon;
struct qinfo;
struct wire_builder;
struct worker;

/* Makes d's hotspot state (0 or -ENOMEM); freed by hotspot_free(). */
int hotspot_init(struct daemon *d);
void hotspot_free(struct daemon *d);

/* Looks up hotspot-group (empty: none) as a group id for the peer check;
 * an unknown group is logged and then nobody but root and the daemon's
 * user may sign on. Main thread, at start and reload. */
void hotspot_set_group(struct daemon *d, const char *group);

/* Whether a Unix socket peer of uid and group gid (its primary group,
 * or, with uid (uid_t)-1, one of its supplementary groups) may start and
 * end a hotspot sign-on: root, the daemon's user, the hotspot-group. */
bool hotspot_peer_allowed(struct daemon *d, uid_t uid, gid_t gid);

/* Seconds left of the sign-on, 0 when none (any thread). */
uint32_t hotspot_left(struct worker *w);

/* Whether q names a hotspot operation that needs the right to sign on
 * (MINUTES.hotspot.dnstrust., done.hotspot.dnstrust.). */
bool hotspot_privileged(const struct qinfo *q);

/* Answers hotspot.dnstrust. and the names below it (docs/PROTOCOL.md
 * §5): TXT lines appended to b, *ret_rcode set. Returns false, touching
 * nothing, when q names none of them. */
bool hotspot_answer(struct worker *w, const struct qinfo *q,
		    struct wire_builder *b, uint16_t *ret_rcode);

/* The status lines: "hotspot=until-TIME left=S" or "hotspot=off", and
 * "portal=suspected reason=..." or "portal=none", into hs and portal. */
void hotspot_status(struct worker *w, char *hs, size_t hslen, char *portal,
		    size_t portallen);

/* Looks at a finished resolution for signs of a captive portal
 * (thread-safe). */
void hotspot_note(struct worker *w, const uint8_t *qname, uint16_t qtype,
		  const struct answer *a);

#endif
