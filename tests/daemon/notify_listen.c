/* SPDX-License-Identifier: MIT */
/*
 * A service manager's end of sd_notify(3), for tests/daemon/startup.sh:
 * binds a datagram socket at PATH and prints every line of every message
 * it receives, one per line. A READY=1 line gets " socket-ready" or
 * " socket-missing" appended: whether the daemon's SOCKET accepted a
 * connection at that moment (readiness must come after the socket).
 *
 *   notify_listen PATH SOCKET
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int accepts(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int r;

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return 0;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	r = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return r;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char msg[4096];

	if (argc != 3 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: notify_listen PATH SOCKET\n");
		return 64;
	}
	memcpy(sa.sun_path, argv[1], strlen(argv[1]) + 1);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	unlink(argv[1]);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("notify_listen");
		return 1;
	}
	for (;;) {
		ssize_t n = recv(fd, msg, sizeof(msg) - 1, 0);
		if (n < 0)
			return 1;
		msg[n] = '\0';
		char *save = NULL;
		for (char *l = strtok_r(msg, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			if (strcmp(l, "READY=1") == 0)
				printf("%s %s\n", l,
				       accepts(argv[2]) ? "socket-ready"
							: "socket-missing");
			else
				printf("%s\n", l);
		}
		fflush(stdout);
	}
}
