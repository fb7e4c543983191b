/* SPDX-License-Identifier: MIT */
/*
 * A cheap probe of each resolv.conf server, fed to a capab table: the
 * root's DNSKEY RRset with DO=1 (EDNS, RRSIGs, a DNSKEY answer, a
 * response above 512 octets hence TC and TCP), then a random label under
 * the root to learn a top-level domain from the NSEC record of the
 * NXDOMAIN, then that domain's DS (a DS query for a zone that exists).
 * No name is built in: the TLD comes from the root's own answer.
 *
 * Every server is probed at once when the servers are set; after a probe
 * a server whose verdict is not "yes" is probed again with exponential
 * back-off (DT_UP_PROBE_BACKOFF_*), and every DT_UP_PROBE_DOWN_MS while
 * every server is unreachable (so that a network coming back is noticed
 * within a second, even when every question is answered from the cache).
 * Runs on one loop (the main thread's).
 */
#ifndef DT_UPSTREAM_PROBE_H
#define DT_UPSTREAM_PROBE_H

struct capab;
struct loop;
struct up_conf;
struct up_probe;

/* A prober on loop feeding capab (both outlive it). NULL when out of
 * memory. Freed, its queries cancelled, by up_probe_free (NULL allowed). */
struct up_probe *up_probe_new(struct loop *loop, struct capab *capab);
void up_probe_free(struct up_probe *p);

/* The servers to probe (resolv.conf's, in the order of capab's table):
 * probes under way are cancelled, and every server is probed at once. */
void up_probe_set_conf(struct up_probe *p, const struct up_conf *conf);

/* A verdict changed: a server that is not "yes" and has no probe
 * planned gets one after its back-off. */
void up_probe_kick(struct up_probe *p);

/* The certificates TLS servers are checked against (transport.h,
 * up_client_set_tls_ca). */
int up_probe_set_tls_ca(struct up_probe *p, const char *path);

#endif
