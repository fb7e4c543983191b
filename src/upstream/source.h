/* SPDX-License-Identifier: MIT */
/*
 * Where the network's nameservers come from (dnstrust.conf's
 * upstream-source): a resolv.conf-format file (a DHCP client's, or
 * /etc/resolv.conf itself), NetworkManager's file without its stub
 * (no-stub-resolv.conf), systemd-resolved's list of the real servers, a
 * directory of resolvconf's per-interface files (written by the hook
 * dnstrust ships for resolvconf and openresolv), systemd-networkd's
 * per-link state files, or the first of these that exists (auto; never
 * networkd). Whatever the source, what comes out is one up_conf, as from
 * one resolv.conf; the per-interface sources also give each interface's
 * own servers and domains (up_iface), from which policy/route.h learns
 * split-DNS routes.
 */
#ifndef DT_UPSTREAM_SOURCE_H
#define DT_UPSTREAM_SOURCE_H

#include <limits.h>
#include <stddef.h>

#include "common/limits.h"
#include "upstream/resolvconf.h"

enum up_source_kind {
	UP_SOURCE_FILE = 0,	  /* a resolv.conf-format file */
	UP_SOURCE_NETWORKMANAGER, /* NetworkManager's no-stub file */
	UP_SOURCE_RESOLVED,	  /* systemd-resolved's (and networkd's)
				     servers */
	UP_SOURCE_RESOLVCONF,	  /* a directory of per-interface files */
	UP_SOURCE_NETWORKD,	  /* systemd-networkd's per-link state
				     files */
	UP_SOURCE_AUTO,		  /* the first of the first four that
				     exists */
};
/* The kinds auto chooses from (the first four): networkd's directory
 * exists wherever networkd runs, even when another program manages the
 * links and gives systemd-resolved their servers over D-Bus, which those
 * files do not show; it is used only when named. */
#define UP_SOURCE_NKINDS 4

/* The well-known places (auto looks at them in this order: resolvconf,
 * NetworkManager, systemd-resolved, /etc/resolv.conf). */
#define UP_SOURCE_RESOLVCONF_DIR "/run/dnstrust/interfaces"
#define UP_SOURCE_NM_PATH "/run/NetworkManager/no-stub-resolv.conf"
#define UP_SOURCE_RESOLVED_PATH "/run/systemd/resolve/resolv.conf"
#define UP_SOURCE_FILE_PATH "/etc/resolv.conf"
#define UP_SOURCE_NETWORKD_DIR "/run/systemd/netif/links"

/* One interface's file of a resolvconf or networkd directory. */
struct up_iface {
	char name[NAME_MAX + 1]; /* the file's name (networkd: the link's
				    index) */
	struct up_conf conf;	 /* its servers and search domains (which
				    also route); conf.defaulted when it
				    lists no nameserver. conf.route: its
				    routing-only domains (networkd's
				    ROUTE_DOMAINS, "~name") */
	int default_route;	 /* networkd's DNS_DEFAULT_ROUTE: 1 yes,
				    0 no, -1 not said (then: yes unless it
				    has routing-only domains, as
				    systemd-resolved decides) */
};

/* A systemd-networkd link state file's text (len octets, no NUL
 * needed) into *f, its name not set: DNS= servers (plain addresses,
 * "ADDR:PORT", "[ADDR]:PORT"; the rest skipped and counted), DOMAINS=
 * search names, ROUTE_DOMAINS= routing-only names ("~." making the link
 * a default route), DNS_DEFAULT_ROUTE=; other lines ignored. Never
 * fails: what it cannot read it leaves out. */
void up_netif_parse(const char *text, size_t len, struct up_iface *f);

/* Whether names under no interface's domain may go to f's servers. */
bool up_iface_default_route(const struct up_iface *f);

/* What a source holds: the servers and search list to use (conf), and,
 * for a resolvconf or networkd directory, each interface's own. */
struct up_source_data {
	struct up_conf conf;
	struct up_iface iface[DT_UP_MAXIFACES];
	size_t niface;
};

/* "file", "networkmanager", "resolved", "resolvconf" or "auto". */
const char *up_source_kind_name(enum up_source_kind k);

/* The kind named so; -1 when none is. */
int up_source_kind_parse(const char *name);

/* The well-known path of a kind (NULL for auto). */
const char *up_source_default_path(enum up_source_kind k);

/*
 * auto: the index of the first kind whose path (path[kind], NULL to skip
 * it) exists, in the order resolvconf, networkmanager, resolved, file; a
 * resolvconf directory counts only with at least one interface file in
 * it. Returns UP_SOURCE_FILE when none exists (its path is then
 * watched until it appears).
 */
enum up_source_kind up_source_auto(const char *const path[UP_SOURCE_NKINDS]);

/*
 * Reads the source of kind k (not auto) at path into *ret. A resolvconf
 * or networkd directory's files (regular files whose names do not start
 * with '.', in the order of their names, at most DT_UP_MAXIFACES; a
 * networkd file's DNS=, DOMAINS=, ROUTE_DOMAINS= and DNS_DEFAULT_ROUTE=
 * lines, a link without DNS= servers left out) are merged: the
 * nameservers of the interfaces that are a default route
 * (up_iface_default_route; of all when none is) in order, duplicates
 * once, at most DT_UP_MAXNS; every interface's search list one after the
 * other, and its routing-only domains (conf.route), duplicates once; the
 * options of the first file. A directory without a nameserver gives no
 * server (nns 0), never glibc's 127.0.0.1. Returns 0, or -errno (*ret
 * untouched). Allocates nothing that outlives the call.
 */
int up_source_load(enum up_source_kind k, const char *path,
		   struct up_source_data *ret);

#endif
