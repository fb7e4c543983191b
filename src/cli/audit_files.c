/* SPDX-License-Identifier: MIT */
/*
 * resolv.conf on disk: who may write it (and so redirect every query and
 * turn on trust-ad), and whether another tool owns it through a link.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/audit.h"
#include "common/errcode.h"
#include "common/file.h"
#include "common/limits.h"

#define AREA "resolv.conf"

/* Tools that keep resolv.conf as a link into their own directory, and
 * the system user some of them write it as. */
static const struct {
	const char *prefix;
	const char *tool;
	const char *user; /* NULL: root */
} managers[] = {
	{"/run/systemd/resolve/", "systemd-resolved", "systemd-resolve"},
	{"/run/NetworkManager/", "NetworkManager", NULL},
	{"/run/resolvconf/", "resolvconf", NULL},
	{"/etc/resolvconf/run/", "resolvconf", NULL},
	{"/run/connman/", "ConnMan", NULL},
};

static const char *user_name(uid_t uid, char buf[64])
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, 64, "%s", pw->pw_name);
	else
		snprintf(buf, 64, "no user");
	return buf;
}

static int manager_of(const char *target)
{
	for (size_t i = 0; i < sizeof(managers) / sizeof(*managers); i++)
		if (strncmp(target, managers[i].prefix,
			    strlen(managers[i].prefix)) == 0)
			return (int)i;
	return -1;
}

/* root, or the system user of the tool that manages the file. */
static bool owner_ok(uid_t uid, int manager)
{
	struct passwd *pw;

	if (uid == 0)
		return true;
	if (manager < 0 || !managers[manager].user)
		return false;
	pw = getpwnam(managers[manager].user);
	return pw && pw->pw_uid == uid;
}

static void check_link(const char *path, const char *target, int manager,
		       struct audit_report *rep)
{
	if (!target) {
		audit_add(rep, AUDIT_INFO, "rc-dangling", AREA,
			  "%s is a link to a file that does not exist", path);
	} else if (manager >= 0) {
		audit_add(
			rep, AUDIT_INFO, "rc-managed", AREA,
			"%s is a link to %s, managed by %s: it rewrites the "
			"file when networks change; dnstrustd follows it live "
			"and takes it as transport only",
			path, target, managers[manager].tool);
		audit_fix(rep,
			  "nothing; to change what it says, configure "
			  "%s, not the file",
			  managers[manager].tool);
	} else {
		audit_add(rep, AUDIT_INFO, "rc-link", AREA,
			  "%s is a link to %s", path, target);
	}
}

/* What a writer of a file could do, and the ids of the findings. */
struct owner_check {
	const char *area;
	const char *id_owner, *id_mode;
	const char *risk;
};

static const struct owner_check resolv_check = {
	.area = AREA,
	.id_owner = "rc-owner",
	.id_mode = "rc-mode",
	.risk = "send every query elsewhere and turn on options trust-ad",
};

static const struct owner_check admin_check = {
	.area = "dnstrust.conf",
	.id_owner = "cfg-owner",
	.id_mode = "cfg-mode",
	.risk = "decide what dnstrustd trusts",
};

/* A file only root (or its manager's user) may write. */
static void check_owner(const char *shown, const struct stat *st, int manager,
			const struct owner_check *oc, struct audit_report *rep)
{
	char who[64];

	if (!owner_ok(st->st_uid, manager)) {
		audit_add(rep, AUDIT_CRITICAL, oc->id_owner, oc->area,
			  "%s is owned by uid %u (%s): that user can %s", shown,
			  (unsigned)st->st_uid, user_name(st->st_uid, who),
			  oc->risk);
		audit_fix(rep, "chown root:root %s", shown);
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		audit_add(rep, AUDIT_CRITICAL, oc->id_mode, oc->area,
			  "%s has mode %04o: %s can %s", shown,
			  (unsigned)(st->st_mode & 07777),
			  st->st_mode & S_IWOTH ? "any user" : "its group",
			  oc->risk);
		audit_fix(rep, "chmod 644 %s", shown);
	}
}

void audit_admin_file(const char *path, struct audit_report *rep)
{
	struct stat st;

	if (stat(path, &st) == 0)
		check_owner(path, &st, -1, &admin_check, rep);
}

/* Its directory: whoever may write there may replace the file. A sticky
 * directory keeps others from replacing a file they do not own. */
static void check_dir(const char *file, int manager, struct audit_report *rep)
{
	char copy[PATH_MAX], who[64];
	struct stat st;
	const char *dir;

	snprintf(copy, sizeof(copy), "%s", file);
	dir = dirname(copy);
	if (stat(dir, &st) != 0)
		return;
	if (!owner_ok(st.st_uid, manager)) {
		audit_add(rep, AUDIT_CRITICAL, "rc-dir-owner", AREA,
			  "%s, the directory of %s, is owned by uid %u (%s), "
			  "who can replace the file",
			  dir, file, (unsigned)st.st_uid,
			  user_name(st.st_uid, who));
		audit_fix(rep, "chown root:root %s", dir);
	} else if ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
		   !(st.st_mode & S_ISVTX)) {
		audit_add(rep, AUDIT_CRITICAL, "rc-dir-mode", AREA,
			  "%s, the directory of %s, has mode %04o: others can "
			  "replace the file",
			  dir, file, (unsigned)(st.st_mode & 07777));
		audit_fix(rep, "chmod 755 %s", dir);
	}
}

static int read_text(const char *path, struct audit_report *rep,
		     char **ret_text, size_t *ret_len)
{
	int r = file_read_path(path, DT_UP_CONF_MAXSIZE, ret_text, ret_len);

	if (r == 0)
		return 0;
	if (r == -ENOENT)
		return 1;
	audit_add(rep, AUDIT_WARNING, "rc-unreadable", AREA,
		  "%s cannot be read (%s): its nameservers and options were "
		  "not checked",
		  path,
		  r == DT_ETOOBIG ? "larger than resolv.conf ever is"
				  : strerror(-r));
	return -1;
}

int audit_resolv_file(const char *path, struct audit_report *rep,
		      char **ret_text, size_t *ret_len)
{
	char target[PATH_MAX];
	bool have_target;
	struct stat st;
	int manager = -1;

	*ret_text = NULL;
	*ret_len = 0;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 1;
		audit_add(rep, AUDIT_WARNING, "rc-unreadable", AREA,
			  "%s cannot be examined: %s", path, strerror(errno));
		return -1;
	}
	have_target = realpath(path, target) != NULL;
	if (S_ISLNK(st.st_mode)) {
		manager = have_target ? manager_of(target) : -1;
		check_link(path, have_target ? target : NULL, manager, rep);
	}
	if (!have_target)
		return 1;
	if (stat(target, &st) != 0)
		return read_text(target, rep, ret_text, ret_len);
	check_owner(target, &st, manager, &resolv_check, rep);
	check_dir(target, manager, rep);
	return read_text(target, rep, ret_text, ret_len);
}
