/* SPDX-License-Identifier: MIT */
/*
 * Stub mode (stub-resolv-conf): a resolv.conf that sends every program
 * reading it (Go's resolver, c-ares, dig, containers) to dnstrustd's
 * loopback listener, so that they too get validated answers. It names
 * the first listen address on loopback port 53, asks for the AD bit
 * (options edns0 trust-ad: glibc 2.31 and later clear AD otherwise),
 * and copies the upstream source's search list. /etc/resolv.conf is made
 * a link to it by `dnstrust stub enable` (dnstrust(1)); the daemon never
 * writes /etc itself.
 */
#ifndef DT_DAEMON_STUB_H
#define DT_DAEMON_STUB_H

#include <stddef.h>

struct cfg;
struct up_conf;

/* The file's text for cfg's listener and uc's search list into buf (len
 * octets, NUL-terminated). Returns the length, or -ENOSPC when it does
 * not fit, or -EADDRNOTAVAIL without a loopback listener on port 53. */
int stub_text(const struct cfg *cfg, const struct up_conf *uc, char *buf,
	      size_t len);

/* Writes cfg->stub_resolv_conf (when set) for uc: a temporary file in
 * the same directory, mode 0644, flushed, then renamed over it, so that
 * a reader sees the old file or the new one, never a part. Unchanged
 * content is not written again. Returns 0 or -errno. */
int stub_write(const struct cfg *cfg, const struct up_conf *uc);

#endif
