/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/notify.h"

int notify_send(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t len;

	if (!path || !path[0])
		return 0;
	len = strlen(path);
	/* '/' for a path, '@' for Linux's abstract namespace. */
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa.sun_path))
		return -EINVAL;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ssize_t n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
			   (const struct sockaddr *)&sa,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len));
	int r = n < 0 ? -errno : 1;
	close(fd);
	return r;
}

/* The first descriptor the service manager passes (SD_LISTEN_FDS_START). */
#define NOTIFY_FDS_START 3
/* More than a few passed sockets would be a misconfigured unit. */
#define NOTIFY_FDS_MAX 16

static bool is_unix_listener(int fd)
{
	int domain = 0, type = 0, listening = 0;
	socklen_t len = sizeof(int);

	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 &&
	       getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 &&
	       getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) ==
		       0 &&
	       domain == AF_UNIX && type == SOCK_STREAM && listening;
}

int notify_listen_unix(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	int found = -1;

	if (!pid || !fds || strtol(pid, NULL, 10) != (long)getpid())
		return -1;
	long n = strtol(fds, NULL, 10);
	for (int fd = NOTIFY_FDS_START;
	     n > 0 && n <= NOTIFY_FDS_MAX && fd < NOTIFY_FDS_START + n; fd++) {
		if (found < 0 && is_unix_listener(fd)) {
			found = fd;
			fcntl(fd, F_SETFD, FD_CLOEXEC);
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		} else {
			fcntl(fd, F_SETFD, FD_CLOEXEC);
		}
	}
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return found;
}
