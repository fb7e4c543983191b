/* SPDX-License-Identifier: MIT */
/*
 * src/upstream/source.c: the kinds by name and their well-known paths;
 * auto's order (resolvconf directory with an interface file,
 * NetworkManager, systemd-resolved, the file) on a temporary tree; a
 * resolvconf directory merged in name order, servers each once and at
 * most three, search lists one after the other, hidden files and
 * directories ignored, a file without a nameserver adding none; a
 * missing source an error.
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

static void test_kinds(void)
{
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
	ok(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0,
	   "the temporary tree removed");
	return done_testing();
}
