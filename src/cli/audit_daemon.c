/* SPDX-License-Identifier: MIT */
/*
 * dnstrustd as applications reach it: its socket and the directory that
 * holds it (docs/PROTOCOL.md §1: socket 0666, directory 0755 owned by
 * root or the daemon's user), the peer serving it (root or the daemon's
 * user, as every client checks), and what the daemon says of itself.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/audit.h"
#include "cli/client.h"
#include "common/protocol.h"
#include "wire/msg.h"
#include "wire/rr.h"

#define AREA_SOCKET "socket"
#define AREA_DAEMON "dnstrustd"

/* Time allowed for each of the audit's questions to the daemon. */
#define AUDIT_DAEMON_TIMEOUT_MS 5000

static const char *user_name(uid_t uid, char buf[64])
{
	struct passwd *pw = getpwuid(uid);

	snprintf(buf, 64, "%s", pw ? pw->pw_name : "no user");
	return buf;
}

static bool trusted_uid(const struct audit_daemon *d, uid_t uid)
{
	return uid == 0 || (d->has_uid && uid == d->uid);
}

/* The directory: whoever can write there can put a socket of their own
 * in the daemon's place. */
static void check_dir(const struct audit_daemon *d, struct audit_report *rep)
{
	char copy[PATH_MAX], who[64];
	const char *dir;
	struct stat st;

	snprintf(copy, sizeof(copy), "%s", d->socket);
	dir = dirname(copy);
	if (stat(dir, &st) != 0)
		return;
	if (!trusted_uid(d, st.st_uid)) {
		audit_add(rep, AUDIT_CRITICAL, "sock-dir-owner", AREA_SOCKET,
			  "%s is owned by uid %u (%s), neither root nor the "
			  "daemon's user: that user could replace the socket",
			  dir, (unsigned)st.st_uid, user_name(st.st_uid, who));
		audit_fix(rep, "chown root:root %s", dir);
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		audit_add(rep, AUDIT_CRITICAL, "sock-dir-mode", AREA_SOCKET,
			  "%s has mode %04o: %s could replace the socket with "
			  "one of their own",
			  dir, (unsigned)(st.st_mode & 07777),
			  st.st_mode & S_IWOTH ? "any user" : "its group");
		audit_fix(rep, "chmod 755 %s", dir);
	}
}

/* The socket node. Returns false when there is no socket to ask. */
static bool check_node(const struct audit_daemon *d, struct audit_report *rep)
{
	struct stat st;

	if (lstat(d->socket, &st) != 0) {
		audit_add(rep, AUDIT_CRITICAL, "daemon-down", AREA_DAEMON,
			  "no socket at %s (%s): dnstrustd is not running; "
			  "applications get errors, or unvalidated data where "
			  "a fallback lets them",
			  d->socket, strerror(errno));
		audit_fix(rep, "start dnstrustd (systemctl start dnstrustd)");
		return false;
	}
	if (!S_ISSOCK(st.st_mode)) {
		audit_add(rep, AUDIT_CRITICAL, "sock-not-socket", AREA_SOCKET,
			  "%s is not a socket: dnstrustd cannot be reached",
			  d->socket);
		audit_fix(rep, "rm %s; then restart dnstrustd", d->socket);
		return false;
	}
	if ((st.st_mode & 0666) != 0666) {
		audit_add(
			rep, AUDIT_WARNING, "sock-mode", AREA_SOCKET,
			"%s has mode %04o, not 0666: other users cannot reach "
			"dnstrustd, and their lookups fail",
			d->socket, (unsigned)(st.st_mode & 07777));
		audit_fix(rep, "chmod 666 %s (dnstrustd sets it at start)",
			  d->socket);
	}
	return true;
}

/* The credentials of whoever serves the socket, by connecting once. */
static int peer_of(const char *path, struct ucred *ret)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	socklen_t len = sizeof(*ret);
	int fd, r = 0;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ret, &len) != 0)
		r = -errno;
	close(fd);
	return r;
}

static void impostor(const struct audit_daemon *d, struct audit_report *rep)
{
	struct ucred peer;
	char who[64];

	if (peer_of(d->socket, &peer) == 0)
		audit_add(rep, AUDIT_CRITICAL, "daemon-impostor", AREA_DAEMON,
			  "%s is served by uid %u (%s, pid %d), neither root "
			  "nor the daemon's user%s%s: an impostor; clients "
			  "refuse it",
			  d->socket, (unsigned)peer.uid,
			  user_name(peer.uid, who), (int)peer.pid,
			  d->has_uid ? " " : "", d->has_uid ? d->user : "");
	else
		audit_add(rep, AUDIT_CRITICAL, "daemon-impostor", AREA_DAEMON,
			  "%s is served by a process that is neither root nor "
			  "the daemon's user: an impostor; clients refuse it",
			  d->socket);
	audit_fix(rep,
		  "stop that process, remove %s, start dnstrustd; "
		  "check who can write its directory",
		  d->socket);
}

static void unreachable(const struct audit_daemon *d, int err,
			struct audit_report *rep)
{
	if (err == DT_ERR_UNTRUSTED) {
		impostor(d, rep);
		return;
	}
	audit_add(rep, AUDIT_CRITICAL, "daemon-down", AREA_DAEMON,
		  "dnstrustd does not answer on %s (%s): applications get "
		  "errors, or unvalidated data where a fallback lets them",
		  d->socket, dt_error_str(err));
	audit_fix(rep, "start dnstrustd (systemctl start dnstrustd); its log "
		       "says why it stopped");
}

/* Asks status.dnstrust. and checks what it says. */
static void ask_status(struct cli_daemon *cd, const struct audit_daemon *d,
		       struct audit_report *rep)
{
	struct cli_txt t;
	struct ucred peer;
	char who[64];
	int r = cli_txt_get(cd, DT_PROTO_ADMIN_STATUS, &t);

	if (r < 0) {
		unreachable(d, r, rep);
		return;
	}
	if (peer_of(d->socket, &peer) == 0)
		audit_add(rep, AUDIT_OK, "daemon-ok", AREA_DAEMON,
			  "dnstrustd answers on %s as uid %u (%s), a trusted "
			  "peer",
			  d->socket, (unsigned)peer.uid,
			  user_name(peer.uid, who));
	if (t.rcode != WIRE_RCODE_NOERROR) {
		audit_add(rep, AUDIT_WARNING, "daemon-status", AREA_DAEMON,
			  "dnstrustd answered %s with RCODE %d: its anchors "
			  "and mode were not checked",
			  DT_PROTO_ADMIN_STATUS, t.rcode);
	} else {
		audit_status(t.line, t.n, rep);
	}
	cli_txt_free(&t);
}

void audit_daemon(const struct audit_daemon *d, struct audit_report *rep)
{
	struct cli_daemon cd = {.socket = d->socket};

	check_dir(d, rep);
	if (!check_node(d, rep))
		return;
	if (dt_ctx_new(&cd.ctx) < 0) {
		audit_add(rep, AUDIT_CRITICAL, "daemon-error", AREA_DAEMON,
			  "out of memory");
		return;
	}
	if (dt_ctx_set_socket(cd.ctx, d->socket) < 0 ||
	    dt_ctx_set_timeout(cd.ctx, AUDIT_DAEMON_TIMEOUT_MS) < 0 ||
	    (d->has_uid && dt_ctx_set_daemon_uid(cd.ctx, d->uid) < 0)) {
		audit_add(rep, AUDIT_CRITICAL, "daemon-error", AREA_DAEMON,
			  "%s cannot be used as a socket path", d->socket);
	} else if (!dt_trust_available(cd.ctx)) {
		/* The status question tells why: absent, impostor, silent. */
		ask_status(&cd, d, rep);
		if (!audit_find(rep, "daemon-down") &&
		    !audit_find(rep, "daemon-impostor"))
			audit_add(rep, AUDIT_CRITICAL, "daemon-down",
				  AREA_DAEMON,
				  "dnstrustd on %s does not answer "
				  "version.dnstrust. as dnstrustd should",
				  d->socket);
	} else {
		ask_status(&cd, d, rep);
	}
	dt_ctx_free(cd.ctx);
}
