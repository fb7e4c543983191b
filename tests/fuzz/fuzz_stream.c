/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the framing of stream clients in src/daemon/server.c,
 * served by a worker with resolution faked (tests/daemon/fake_server.c):
 * the input is what one client writes on the socket, in chunks whose
 * sizes come from its first octet, reading what comes back all along;
 * then it stops writing. Besides memory errors it checks that the
 * connection ends within 2 s of the client's end of stream and that what
 * came back is whole frames, each a reply of at least a header with QR
 * set, no more replies than frames were written. A violation aborts.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fake_server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *why)
{
	fprintf(stderr, "fuzz_stream: %s\n", why);
	abort();
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Frames the input holds a length for: replies can be no more. */
static size_t frames_in(const uint8_t *p, size_t n)
{
	size_t count = 0;

	while (n >= 2) {
		size_t len = (size_t)p[0] << 8 | p[1];
		count++;
		if (n - 2 < len)
			break;
		p += 2 + len;
		n -= 2 + len;
	}
	return count;
}

/* Checks the replies read so far; keeps an incomplete last frame. */
static void check_replies(uint8_t *buf, size_t *len, size_t *nreplies)
{
	size_t off = 0;

	while (*len - off >= 2) {
		size_t flen = (size_t)buf[off] << 8 | buf[off + 1];
		if (*len - off - 2 < flen)
			break;
		if (flen < 12 || !(buf[off + 4] & 0x80))
			fail("a reply that is not a DNS response");
		(*nreplies)++;
		off += 2 + flen;
	}
	memmove(buf, buf + off, *len - off);
	*len -= off;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *path;
	static uint8_t in[4 * 65536];
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t chunk, off = 0, inlen = 0, nreplies = 0;
	bool shut = false;

	if (!path && !(path = fake_serve()))
		fail("no server");
	if (size < 1)
		return 0;
	chunk = data[0] ? data[0] : 65536;
	data++;
	size--;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0 || (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 &&
		       errno != EINPROGRESS))
		fail("cannot connect");
	int64_t deadline = 0;
	for (;;) {
		struct pollfd p = {.fd = fd,
				   .events = POLLIN | (shut ? 0 : POLLOUT)};
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			fail("poll");
		if (p.revents & POLLOUT) {
			size_t n = size - off < chunk ? size - off : chunk;
			ssize_t w = n ? send(fd, data + off, n, MSG_NOSIGNAL)
				      : 0;
			if (w > 0)
				off += (size_t)w;
			if (off == size || (w < 0 && errno != EAGAIN)) {
				shutdown(fd, SHUT_WR);
				shut = true;
				deadline = now_ms() + 2000;
			}
		}
		if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t r = recv(fd, in + inlen, sizeof(in) - inlen, 0);
			if (r == 0 || (r < 0 && errno != EAGAIN))
				break;
			if (r > 0) {
				inlen += (size_t)r;
				check_replies(in, &inlen, &nreplies);
			}
		}
		if (shut && now_ms() > deadline)
			fail("the connection outlived its client's end of "
			     "stream by 2 s");
	}
	close(fd);
	if (nreplies > frames_in(data, size))
		fail("more replies than frames");
	return 0;
}
