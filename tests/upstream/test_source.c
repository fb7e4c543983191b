/* SPDX-License-Identifier: MIT */
/*
 * src/upstream/source.c: the kinds by name and their well-known paths;
 * auto's order (resolvconf directory with an interface file,
 * NetworkManager, systemd-resolved, the file) on a temporary tree; a
 * resolvconf directory merged in name order, servers each once and at
 * most three, search lists one after the other, hidden files and
 * directories ignored, a file without a nameserver adding none; a
 * missing source an error. systemd-networkd's link state files: DNS=
 * (ports, IPv6, and the forms not understood skipped), DOMAINS=,
 * ROUTE_DOMAINS=, DNS_DEFAULT_ROUTE=; a link that is not a default
 * route adds no server to the merged list; a link without servers left
 * out.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "upstream/source.h"
#include "wire/dname.h"
#include "tap.h"

static char root[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *path_of(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", root, name);
	return buf[i];
}

/* "a b c": the servers, as text. */
static const char *servers(const struct up_conf *c)
{
	static char buf[256];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nns; i++) {
		char a[80];

		up_server_str(&c->ns[i], a, sizeof(a));
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					i ? " " : "", a);
	}
	return buf;
}

static const char *search(const struct up_conf *c)
{
	static char buf[512];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nsearch; i++) {
		char n[DT_NAME_TEXT_MAXLEN];

		wire_dname_to_str(up_conf_search(c, i), n, sizeof(n));
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					i ? " " : "", n);
	}
	return buf;
}

static const char *routes(const struct up_conf *c)
{
	static char buf[512];
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->nroute; i++) {
		char n[DT_NAME_TEXT_MAXLEN];

		wire_dname_to_str(up_conf_route(c, i), n, sizeof(n));
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					i ? " " : "", n);
	}
	return buf;
}

static void test_kinds(void)
{
	is_int(up_source_kind_parse("networkd"), UP_SOURCE_NETWORKD,
	       "networkd parsed");
	is_str(up_source_default_path(UP_SOURCE_NETWORKD),
	       "/run/systemd/netif/links", "networkd's link directory");
	is_str(up_source_kind_name(UP_SOURCE_NETWORKMANAGER), "networkmanager",
	       "networkmanager by name");
	is_int(up_source_kind_parse("resolved"), UP_SOURCE_RESOLVED,
	       "resolved parsed");
	is_int(up_source_kind_parse("auto"), UP_SOURCE_AUTO, "auto parsed");
	is_int(up_source_kind_parse("dhcp"), -1, "an unknown kind");
	is_str(up_source_default_path(UP_SOURCE_NETWORKMANAGER),
	       "/run/NetworkManager/no-stub-resolv.conf", "NetworkManager's");
	is_str(up_source_default_path(UP_SOURCE_RESOLVED),
	       "/run/systemd/resolve/resolv.conf", "systemd-resolved's");
	is_str(up_source_default_path(UP_SOURCE_RESOLVCONF),
	       "/run/dnstrust/interfaces", "the resolvconf directory");
	ok(up_source_default_path(UP_SOURCE_AUTO) == NULL, "auto: no path");
}

static void test_auto(void)
{
	const char *cand[UP_SOURCE_NKINDS] = {
		[UP_SOURCE_FILE] = path_of("resolv.conf"),
		[UP_SOURCE_NETWORKMANAGER] = path_of("nm.conf"),
		[UP_SOURCE_RESOLVED] = path_of("resolved.conf"),
		[UP_SOURCE_RESOLVCONF] = path_of("ifaces"),
	};

	is_int(up_source_auto(cand), UP_SOURCE_FILE,
	       "nothing exists: the file (watched until it appears)");
	put("resolv.conf", "nameserver 192.0.2.1\n");
	is_int(up_source_auto(cand), UP_SOURCE_FILE, "only the file");
	put("resolved.conf", "nameserver 192.0.2.2\n");
	is_int(up_source_auto(cand), UP_SOURCE_RESOLVED,
	       "systemd-resolved's before the file");
	put("nm.conf", "nameserver 192.0.2.3\n");
	is_int(up_source_auto(cand), UP_SOURCE_NETWORKMANAGER,
	       "NetworkManager's before systemd-resolved's");
	mkdir(path_of("ifaces"), 0755);
	put("ifaces/.tmp", "nameserver 192.0.2.9\n");
	is_int(up_source_auto(cand), UP_SOURCE_NETWORKMANAGER,
	       "a resolvconf directory with only a hidden file: skipped");
	put("ifaces/01-eth0", "nameserver 192.0.2.4\n");
	is_int(up_source_auto(cand), UP_SOURCE_RESOLVCONF,
	       "a resolvconf directory with an interface file: first");
	cand[UP_SOURCE_RESOLVCONF] = NULL;
	is_int(up_source_auto(cand), UP_SOURCE_NETWORKMANAGER,
	       "a NULL path is skipped");
}

static void test_dir(void)
{
	struct up_source_data d;

	mkdir(path_of("dir"), 0755);
	put("dir/02-wlan0", "nameserver 192.0.2.2\nnameserver 192.0.2.1\n"
			    "search home.lan corp.example\n"
			    "options timeout:9\n");
	put("dir/01-tun0", "nameserver 192.0.2.1\nsearch corp.example\n"
			   "options timeout:3 attempts:1\n");
	put("dir/03-eth0", "search only.example\n");
	put("dir/04-eth1", "nameserver 192.0.2.3\nnameserver 192.0.2.4\n");
	put("dir/.05-new", "nameserver 192.0.2.5\n");
	mkdir(path_of("dir/06-subdir"), 0755);
	if (!ok(up_source_load(UP_SOURCE_RESOLVCONF, path_of("dir"), &d) == 0,
		"a resolvconf directory loads"))
		return;
	is_int(d.niface, 4, "four interface files (hidden and directory "
			    "left out)");
	is_str(d.iface[0].name, "01-tun0", "in the order of their names");
	is_str(servers(&d.conf), "192.0.2.1 192.0.2.2 192.0.2.3",
	       "servers in order, each once, at most three");
	is_str(search(&d.conf), "corp.example. home.lan. only.example.",
	       "search lists one after the other, each once");
	is_int(d.conf.timeout_ms, 3000, "the first file's options");
	is_int(d.conf.attempts, 1, "the first file's attempts");
	ok(d.iface[2].conf.defaulted, "a file without nameserver: "
				      "defaulted on its own...");
	ok(!strstr(servers(&d.conf), "127.0.0.1"),
	   "...and adds no 127.0.0.1 to the list");

	mkdir(path_of("empty"), 0755);
	put("empty/01-eth0", "search x.example\n");
	if (ok(up_source_load(UP_SOURCE_RESOLVCONF, path_of("empty"), &d) == 0,
	       "a directory without a nameserver loads"))
		is_int(d.conf.nns, 0, "and gives no server, not 127.0.0.1");
	is_int(up_source_load(UP_SOURCE_RESOLVCONF, path_of("none"), &d),
	       -ENOENT, "a missing directory: -ENOENT");
	put("nm2.conf", "# Generated by NetworkManager\nsearch lan\n"
			"nameserver 192.0.2.7\n");
	if (ok(up_source_load(UP_SOURCE_NETWORKMANAGER, path_of("nm2.conf"),
			      &d) == 0,
	       "NetworkManager's file loads"))
		is_str(servers(&d.conf), "192.0.2.7", "as a resolv.conf");
}

static void test_networkd(void)
{
	struct up_source_data d;

	mkdir(path_of("links"), 0755);
	put("links/2", "# This is private data. Do not parse.\n"
		       "ADMIN_STATE=configured\nOPER_STATE=routable\n"
		       "DNS=192.0.2.53 192.0.2.9#dns.example 2001:db8::53 "
		       "[2001:db8::54]:5353 192.0.2.1 192.0.2.2\n"
		       "NTP=\nDOMAINS=Home.Lan\nROUTE_DOMAINS=\n"
		       "LLMNR=yes\n");
	put("links/5", "DNS=10.8.0.1\nDOMAINS=\n"
		       "ROUTE_DOMAINS=corp.example internal.example\n");
	put("links/7", "OPER_STATE=carrier\nDOMAINS=nowhere.example\n");
	put("links/9", "DNS=10.9.0.1\nROUTE_DOMAINS=lab.example\n"
		       "DNS_DEFAULT_ROUTE=yes\n");
	if (!ok(up_source_load(UP_SOURCE_NETWORKD, path_of("links"), &d) == 0,
		"a networkd link directory loads"))
		return;
	is_int(d.niface, 3, "three links with servers (one without left "
			    "out)");
	is_str(d.iface[0].name, "2", "named by their index");
	is_str(servers(&d.iface[0].conf),
	       "192.0.2.53 2001:db8::53 [2001:db8::54]:5353",
	       "DNS=: addresses and ports, at most three");
	is_int(d.iface[0].conf.skipped, 1, "ADDR#NAME skipped and counted");
	is_str(search(&d.iface[0].conf), "home.lan.", "DOMAINS=, lower case");
	is_str(routes(&d.iface[1].conf), "corp.example. internal.example.",
	       "ROUTE_DOMAINS=");
	ok(up_iface_default_route(&d.iface[0]), "a link without routing-only "
						"domains is a default route");
	ok(!up_iface_default_route(&d.iface[1]), "one with them is not");
	ok(up_iface_default_route(&d.iface[2]),
	   "unless DNS_DEFAULT_ROUTE=yes says so");
	is_str(servers(&d.conf), "192.0.2.53 2001:db8::53 [2001:db8::54]:5353",
	       "merged: the default routes' servers only (10.8.0.1 not)");
	is_str(search(&d.conf), "home.lan.", "merged search list");
	is_str(routes(&d.conf), "corp.example. internal.example. lab.example.",
	       "merged routing-only domains (not searched)");
	put("links/2", "DNS=192.0.2.53\nDNS_DEFAULT_ROUTE=no\n");
	put("links/9", "DNS=10.9.0.1\nROUTE_DOMAINS=lab.example\n");
	if (ok(up_source_load(UP_SOURCE_NETWORKD, path_of("links"), &d) == 0,
	       "loads again"))
		is_str(servers(&d.conf), "192.0.2.53 10.8.0.1 10.9.0.1",
		       "no default route at all: every link's servers");
	put("links/9", "DNS=10.9.0.1\nROUTE_DOMAINS=lab.example .\n");
	if (ok(up_source_load(UP_SOURCE_NETWORKD, path_of("links"), &d) == 0,
	       "loads again") &&
	    ok(d.niface == 3, "three links")) {
		ok(up_iface_default_route(&d.iface[2]),
		   "ROUTE_DOMAINS with the root (~.): a default route");
		is_str(routes(&d.iface[2].conf), "lab.example.",
		       "the root itself is no route");
	}
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/dt-source.XXXXXX");
	if (!mkdtemp(root))
		return 1;
	test_kinds();
	test_auto();
	test_dir();
	test_networkd();
	ok(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0,
	   "the temporary tree removed");
	return done_testing();
}
