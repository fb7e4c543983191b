/* SPDX-License-Identifier: MIT */
/*
 * Privileges: what needs root is done first (the file limit, the
 * listening sockets), then the daemon becomes an unprivileged user with
 * no capability left and no way to gain one (no_new_privs), so that the
 * parsers of untrusted data never run as root. The sockets were made by
 * root: SO_PEERCRED still shows uid 0 to clients afterwards.
 * Capabilities are set with the capset(2) and prctl(2) system calls
 * directly; no library is needed.
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/limits.h"
#include "common/log.h"
#include "daemon/privs.h"

/* --- the file limit --- */

void privs_raise_nofile(void)
{
	struct rlimit rl, want;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= DT_DMN_NOFILE)
		return;
	want.rlim_cur = DT_DMN_NOFILE;
	want.rlim_max = rl.rlim_max > DT_DMN_NOFILE ? rl.rlim_max
						    : DT_DMN_NOFILE;
	if (setrlimit(RLIMIT_NOFILE, &want) == 0)
		return;
	/* Not allowed past the hard limit (no CAP_SYS_RESOURCE): up to it. */
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	getrlimit(RLIMIT_NOFILE, &rl);
	log_notice("open files limited to %llu (wanted %d): clients may be "
		 "turned away early",
		 (unsigned long long)rl.rlim_cur, DT_DMN_NOFILE);
}

/* --- the Unix socket --- */

/* The socket's directory: made if missing (0755, whatever the umask);
 * owned by root (or the user running) and writable by no one else, so
 * that nobody can put a socket of their own in our place. An existing
 * directory is checked, never changed (it may be /tmp). */
static int socket_dir(const char *dir)
{
	uid_t me = geteuid();
	struct stat st;
	mode_t old = umask(022);
	int r = mkdir(dir, 0755);

	umask(old);
	if (r < 0 && errno != EEXIST) {
		log_err("mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	if (lstat(dir, &st) < 0) {
		log_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || (st.st_uid != 0 && st.st_uid != me) ||
	    (st.st_mode & 022)) {
		log_err("%s must be a directory of root's that no one else may "
			"write to (mode 0755): it is uid %u, mode %04o",
			dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

/* Whether a daemon answers at sa. */
static bool socket_live(const struct sockaddr_un *sa)
{
	int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool live = probe >= 0 &&
		    connect(probe, (const struct sockaddr *)sa, sizeof(*sa)) == 0;

	if (probe >= 0)
		close(probe);
	return live;
}

/* Binds fd to tmp under umask 0111 (a socket 0666: every user may ask)
 * and listens; then renames tmp to sa, so that the socket appears only
 * when it accepts connections. */
static int bind_listen(int fd, const struct sockaddr_un *tmp,
		       const struct sockaddr_un *sa)
{
	mode_t old = umask(0111);
	int r = bind(fd, (const struct sockaddr *)tmp, sizeof(*tmp));

	umask(old);
	if (r < 0 || listen(fd, SOMAXCONN) < 0 ||
	    rename(tmp->sun_path, sa->sun_path) < 0)
		return -1;
	return 0;
}

int privs_unix_listen(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char dir[sizeof(sa.sun_path)];
	struct stat st;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_err("socket %s: path too long", path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	memcpy(dir, path, strlen(path) + 1);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (socket_dir(dir) < 0)
			return -1;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			log_err("%s exists and is not a socket", path);
			return -1;
		}
		if (socket_live(&sa)) {
			log_err("%s: another dnstrustd is running", path);
			return -1;
		}
		/* A stale one: the new socket is renamed over it. */
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_err("socket: %s", strerror(errno));
		return -1;
	}
	struct sockaddr_un tmp = sa;
	int n = snprintf(tmp.sun_path, sizeof(tmp.sun_path), "%s.%d", path,
			 (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp.sun_path))
		tmp = sa;
	unlink(tmp.sun_path);
	if (bind_listen(fd, &tmp, &sa) < 0) {
		log_err("socket %s: %s", path, strerror(errno));
		unlink(tmp.sun_path);
		close(fd);
		return -1;
	}
	return fd;
}

/* --- the user --- */

/* Every capability out of the bounding set (needs CAP_SETPCAP, which
 * root has; where it is missing, as in some containers, the set stays as
 * it is and no_new_privs still keeps it out of reach) and the ambient set
 * emptied: nothing executed later can gain one. */
static void drop_bounding_set(void)
{
	for (unsigned long cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno == EINVAL)
			break; /* past the kernel's last capability */
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
}

/* The permitted, effective and inheritable sets emptied (already so after
 * setuid() to another user than root; root keeps its uid, not its
 * powers). */
static int clear_capabilities(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &h, data) < 0) {
		log_err("dropping capabilities: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The user to become: the one written, or the default one. */
static struct passwd *target_user(const char *user)
{
	struct passwd *pw;

	if (user[0]) {
		if (!(pw = getpwnam(user)))
			log_err("user %s: no such user", user);
		return pw;
	}
	if ((pw = getpwnam(PRIVS_DEFAULT_USER)))
		return pw;
	pw = getpwnam(PRIVS_FALLBACK_USER);
	if (pw)
		log_notice("user %s does not exist: running as %s (create "
			   "%s, or write `user`)",
			   PRIVS_DEFAULT_USER, PRIVS_FALLBACK_USER,
			   PRIVS_DEFAULT_USER);
	else
		log_err("neither %s nor %s exists: write `user` (`user root` "
			"to stay root)",
			PRIVS_DEFAULT_USER, PRIVS_FALLBACK_USER);
	return pw;
}

static int become(const struct passwd *pw)
{
	if (setgroups(0, NULL) < 0 || setgid(pw->pw_gid) < 0 ||
	    setuid(pw->pw_uid) < 0) {
		log_err("dropping privileges to %s: %s", pw->pw_name,
			strerror(errno));
		return -1;
	}
	if (pw->pw_uid != 0 && setuid(0) == 0) { /* a saved root uid */
		log_err("dropping privileges: root could be regained");
		return -1;
	}
	return 0;
}

int privs_drop(const char *user, uid_t *ret_uid)
{
	uid_t uid = getuid();

	if (uid != 0) {
		if (user[0] && strcmp(user, "root") != 0) {
			struct passwd *pw = getpwnam(user);
			if (!pw || pw->pw_uid != uid) {
				log_err("user %s: started as uid %u, cannot "
					"become another user",
					user, (unsigned)uid);
				return -1;
			}
		}
		log_info("running as uid %u, as started", (unsigned)uid);
	} else if (strcmp(user, "root") == 0) {
		log_notice("running as root (`user root`), without "
			   "capabilities");
	} else {
		struct passwd *pw = target_user(user);
		if (!pw)
			return -1;
		char name[64];
		snprintf(name, sizeof(name), "%s", pw->pw_name);
		uid = pw->pw_uid;
		drop_bounding_set();
		if (become(pw) < 0)
			return -1;
		log_info("running as %s (uid %u)", name, (unsigned)uid);
	}
	if (uid == 0)
		drop_bounding_set();
	if (clear_capabilities() < 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		log_err("no_new_privs: %s", strerror(errno));
		return -1;
	}
	*ret_uid = uid;
	return 0;
}
