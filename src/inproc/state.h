/* SPDX-License-Identifier: MIT */
/*
 * The in-process engine's state (resolver/state.h) from dnstrust.conf
 * and the trust anchors, read only.
 */
#ifndef DT_INPROC_STATE_H
#define DT_INPROC_STATE_H

#include <stddef.h>

struct dstate;

/*
 * A state of one reference: conf (NULL: /etc/dnstrust/dnstrust.conf,
 * whose absence means the defaults) and its anchors: those of
 * auto-trust-anchor-file when the file is readable, else
 * trust-anchor-file, else the built-in root KSKs. NULL with the reason
 * in err when the configuration is refused or the anchors cannot be
 * read.
 */
struct dstate *inproc_state_load(const char *conf, char *err, size_t errlen);

#endif
