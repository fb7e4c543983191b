/* SPDX-License-Identifier: MIT */
/*
 * The daemon's Unix socket: a non-blocking connect, the peer check, and
 * I/O bounded by a deadline. Nothing here raises SIGPIPE.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/internal.h"

int64_t dtlib_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int left_ms(int64_t deadline)
{
	int64_t left = deadline - dtlib_now_ms();

	return left < 0 ? 0 : left > 0x7fffffff ? 0x7fffffff : (int)left;
}

/* Waits for events on fd until the deadline: 1 ready, 0 timed out. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd p = {.fd = fd, .events = events};

	for (;;) {
		int n = poll(&p, 1, left_ms(deadline));
		if (n > 0)
			return 1;
		if (n == 0)
			return 0;
		if (errno != EINTR)
			return 0;
	}
}

static void pause_ms(int ms)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)ms * 1000000};

	nanosleep(&ts, NULL);
}

/* The next pause before connecting again: random in [max/2, max], max
 * doubling from DTLIB_CONNECT_RETRY_MS to DTLIB_CONNECT_RETRY_MAX_MS
 * (xorshift on a seed of the caller's; no quality needed, only spread). */
static int backoff_ms(int *max, uint32_t *seed)
{
	int ms;

	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	ms = *max / 2 + (int)(*seed % (uint32_t)(*max / 2 + 1));
	if (*max < DTLIB_CONNECT_RETRY_MAX_MS)
		*max = *max * 2 > DTLIB_CONNECT_RETRY_MAX_MS
			       ? DTLIB_CONNECT_RETRY_MAX_MS
			       : *max * 2;
	return ms < 1 ? 1 : ms;
}

/* connect() until it succeeds, fails for good, or the deadline passes. */
static int connect_until(int fd, const struct sockaddr_un *sa, int64_t deadline)
{
	int max = DTLIB_CONNECT_RETRY_MS;
	uint32_t seed = (uint32_t)dtlib_now_ms() * 2654435761u ^
			(uint32_t)(uintptr_t)&max ^ (uint32_t)fd;

	for (;;) {
		if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
			return 0;
		switch (errno) {
		case EINTR: continue;
		case EAGAIN: /* the accept queue is full: no way to wait */
			if (dtlib_now_ms() >= deadline)
				return DT_ERR_TIMEOUT;
			pause_ms(backoff_ms(&max, &seed));
			continue;
		case EINPROGRESS: {
			int err = 0;
			socklen_t len = sizeof(err);
			if (!wait_fd(fd, POLLOUT, deadline))
				return DT_ERR_TIMEOUT;
			if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) ||
			    err)
				return DT_ERR_UNAVAILABLE;
			return 0;
		}
		default: /* ENOENT, ECONNREFUSED, EACCES... */
			return DT_ERR_UNAVAILABLE;
		}
	}
}

/* SO_PEERCRED: the credentials of whoever called listen() on the socket.
 * Root or the daemon's configured user; anyone else could have put a
 * socket of their own at the path. */
static int peer_check(int fd, const struct dtlib_settings *s)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    len != sizeof(cred))
		return DT_ERR_UNTRUSTED;
	if (cred.uid == 0 ||
	    (s->daemon_uid != (uid_t)-1 && cred.uid == s->daemon_uid))
		return 0;
	return DT_ERR_UNTRUSTED;
}

int dtlib_connect(const struct dtlib_settings *s, int64_t deadline)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd, err;

	memcpy(sa.sun_path, s->socket, sizeof(sa.sun_path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return DT_ERR_UNAVAILABLE;
	err = connect_until(fd, &sa, deadline);
	if (err == 0)
		err = peer_check(fd, s);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int dtlib_send_all(int fd, const uint8_t *buf, size_t len, int64_t deadline)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = send(fd, buf + off, len - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (!wait_fd(fd, POLLOUT, deadline))
				return DT_ERR_TIMEOUT;
			continue;
		}
		return DT_ERR_UNAVAILABLE; /* EPIPE, ECONNRESET */
	}
	return 0;
}

ssize_t dtlib_recv_some(int fd, uint8_t *buf, size_t cap, int64_t deadline)
{
	for (;;) {
		ssize_t n = recv(fd, buf, cap, 0);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return DT_ERR_UNAVAILABLE;
		if (!wait_fd(fd, POLLIN, deadline))
			return DT_ERR_TIMEOUT;
	}
}

bool dtlib_conn_idle_ok(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, 0) == 0;
}
