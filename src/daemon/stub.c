/* SPDX-License-Identifier: MIT */
/*
 * stub.h's resolv.conf: made from the configuration and the upstream
 * source as last read, rewritten whenever that changes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "common/limits.h"
#include "daemon/stub.h"
#include "policy/config.h"
#include "upstream/resolvconf.h"
#include "wire/dname.h"

/* The stub file: a nameserver, an options line and DT_UP_MAXSEARCH names
 * of at most 253 characters; 4 KiB holds it with room to spare. */
#define STUB_TEXT_MAX 4096

/* The first loopback listener on port 53: the one resolv.conf can name. */
static const struct up_server *stub_listener(const struct cfg *cfg)
{
	for (size_t i = 0; i < cfg->nlisten; i++) {
		const struct sockaddr *sa = (const void *)&cfg->listen[i].addr;
		const struct sockaddr_in *sin = (const void *)sa;

		if (cfg_addr_loopback(sa) && ntohs(sin->sin_port) == 53)
			return &cfg->listen[i];
	}
	return NULL;
}

/* Appends a, then b (NULL: nothing) at off; returns the new offset,
 * past len when it did not fit. */
static size_t append(char *buf, size_t len, size_t off, const char *a,
		     const char *b)
{
	int n = snprintf(off < len ? buf + off : NULL, off < len ? len - off : 0,
			 "%s%s", a, b ? b : "");

	return off + (n > 0 ? (size_t)n : 0);
}

int stub_text(const struct cfg *cfg, const struct up_conf *uc, char *buf,
	      size_t len)
{
	const struct up_server *l = stub_listener(cfg);
	char addr[80], name[DT_NAME_TEXT_MAXLEN];
	size_t off = 0;

	if (!l)
		return -EADDRNOTAVAIL;
	up_server_str(l, addr, sizeof(addr));
	off = append(buf, len, off,
		     "# Written by dnstrustd (stub-resolv-conf): programs that "
		     "read this file\n# ask dnstrustd, which validates with "
		     "DNSSEC. See dnstrust.conf(5).\n",
		     NULL);
	off = append(buf, len, off, "nameserver ", addr);
	off = append(buf, len, off, "\noptions edns0 trust-ad\n", NULL);
	for (size_t i = 0; i < uc->nsearch; i++) {
		int k = wire_dname_to_str(up_conf_search(uc, i), name,
					  sizeof(name));

		/* glibc reads "name." as "name": the dot is left out, as
		 * DHCP clients write it. */
		if (k > 1)
			name[k - 1] = '\0';
		off = append(buf, len, off, i ? " " : "search ", name);
	}
	if (uc->nsearch)
		off = append(buf, len, off, "\n", NULL);
	if (off >= len)
		return -ENOSPC;
	return (int)off;
}

/* Whether path already holds exactly text. */
static bool same_content(const char *path, const char *text, size_t len)
{
	char *old;
	size_t olen;
	bool same;

	if (file_read_path(path, STUB_TEXT_MAX, &old, &olen) < 0)
		return false;
	same = olen == len && memcmp(old, text, len) == 0;
	free(old);
	return same;
}

static int write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		text += n;
		len -= (size_t)n;
	}
	return fsync(fd) < 0 ? -errno : 0;
}

static int replace(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX];
	int fd, r;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0)
		return -errno;
	r = write_all(fd, text, len);
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	close(fd);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

int stub_write(const struct cfg *cfg, const struct up_conf *uc)
{
	char text[STUB_TEXT_MAX];
	int n;

	if (!cfg->stub_resolv_conf[0])
		return 0;
	n = stub_text(cfg, uc, text, sizeof(text));
	if (n < 0)
		return n;
	if (same_content(cfg->stub_resolv_conf, text, (size_t)n))
		return 0;
	return replace(cfg->stub_resolv_conf, text, (size_t)n);
}
