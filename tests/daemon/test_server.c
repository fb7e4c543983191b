/* SPDX-License-Identifier: MIT */
/*
 * src/daemon/server.c on its own: a worker's loop serving a Unix socket
 * in a thread, with resolution, the cache and the admin names replaced by
 * fakes (below), and clients in the main thread. Framing (frames split at
 * every octet, pipelined, too short), the output cap counting cached
 * answers, and connections closed by clients while answers are queued or
 * questions are under way (the use after free of conn_event: run it under
 * ASan).
 *
 * The fakes are in fake_server.c.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../tap.h"
#include "fake_server.h"
#include "wire/dname.h"
#include "wire/msg.h"

/* --- clients --- */

static char path[108];

static int client(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct timeval tv = {.tv_sec = 3};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

/* A framed query for name, type A, ID id, into buf; returns its length. */
static size_t frame(uint16_t id, const char *name, uint8_t *buf)
{
	uint8_t q[DT_NAME_MAXLEN];
	struct wire_builder b;

	wire_dname_from_str(name, strlen(name), NULL, q);
	wire_build_init(&b, buf + 2, 512, id, 0x0100);
	wire_build_question(&b, q, 1, 1);
	size_t len = wire_build_finish(&b);
	buf[0] = (uint8_t)(len >> 8);
	buf[1] = (uint8_t)len;
	return 2 + len;
}

/* Reads n framed replies; returns how many came (IDs into ids, when not
 * NULL), stopping at end of stream or after 3 s of silence. */
static size_t replies(int fd, size_t n, uint16_t *ids)
{
	static uint8_t buf[2 + DT_MSG_MAXLEN];
	size_t got = 0;

	while (got < n) {
		uint8_t hdr[2];
		if (recv(fd, hdr, 2, MSG_WAITALL) != 2)
			break;
		size_t len = (size_t)hdr[0] << 8 | hdr[1];
		if (recv(fd, buf, len, MSG_WAITALL) != (ssize_t)len)
			break;
		if (ids)
			ids[got] = (uint16_t)(buf[0] << 8 | buf[1]);
		got++;
	}
	return got;
}

/* Whether the daemon closed fd (end of stream within 3 s). */
static bool closed_by_server(int fd)
{
	uint8_t b[512];
	ssize_t n;

	while ((n = recv(fd, b, sizeof(b), 0)) > 0)
		;
	return n == 0 || (n < 0 && errno == ECONNRESET);
}

/* --- tests --- */

static void test_framing(void)
{
	uint8_t buf[4 * 600];
	uint16_t ids[4];
	size_t len = 0;
	int fd = client();

	ok(fd >= 0, "a client connects");
	for (uint16_t i = 0; i < 4; i++)
		len += frame(i + 1, "www.example.", buf + len);
	/* One octet at a time: every split of a frame. */
	for (size_t i = 0; i < len; i++) {
		if (send(fd, buf + i, 1, 0) != 1)
			break;
		if (i % 7 == 0)
			usleep(200);
	}
	is_int(replies(fd, 4, ids), 4, "4 frames sent an octet at a time: 4 "
				      "replies");
	ok(ids[0] == 1 && ids[3] == 4, "in order, IDs kept");
	send(fd, buf, len, 0);
	is_int(replies(fd, 4, NULL), 4, "4 frames in one write: 4 replies");
	len = frame(9, "a.slow.", buf);
	len += frame(10, "www.example.", buf + len);
	send(fd, buf, len, 0);
	is_int(replies(fd, 2, ids), 2, "a slow and a cached question: both");
	ok(ids[0] == 10 && ids[1] == 9, "the cached one first");
	uint8_t shortframe[2 + 11] = {0, 11};
	send(fd, shortframe, sizeof(shortframe), 0);
	ok(closed_by_server(fd), "a frame shorter than a header: closed");
	close(fd);
}

/* Answers from the cache are counted against the output cap before each
 * frame: a client that does not read is not read either. */
static void test_output_cap(void)
{
	static uint8_t buf[1000 * 32];
	size_t len = 0;
	int fd = client();

	for (uint16_t i = 0; i < 1000; i++)
		len += frame(i, "x.big.", buf + len);
	unsigned before = __atomic_load_n(&fake_cache_calls, __ATOMIC_RELAXED);
	ok(send(fd, buf, len, 0) == (ssize_t)len, "1,000 questions for a "
						 "4,000-octet answer sent");
	usleep(300 * 1000);
	unsigned taken = __atomic_load_n(&fake_cache_calls, __ATOMIC_RELAXED) -
			 before;
	/* The cap (128 KiB) plus what the kernel's socket buffers took. */
	ok(taken < 200, "not reading: %u questions taken of 1,000", taken);
	is_int(replies(fd, 1000, NULL), 1000,
	       "reading: every one answered in the end");
	close(fd);
}

/* Connections closed by the client with answers queued, with questions
 * under way, or both: nothing is used after it is freed (ASan), and the
 * worker goes on. */
static void test_close_unread(void)
{
	static uint8_t buf[2000 * 32];

	for (int round = 0; round < 20; round++) {
		size_t len = 0;
		int fd = client();
		for (uint16_t i = 0; i < 2000; i++)
			len += frame(i, i % 50 == 0 ? "x.slow." : "x.big.",
				     buf + len);
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		size_t off = 0;
		while (off < len && poll(&p, 1, 100) == 1) {
			ssize_t n = send(fd, buf + off, len - off,
					 MSG_DONTWAIT);
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		usleep(round % 2 ? 60 * 1000 : 1000);
		close(fd);
	}
	usleep(200 * 1000);
	int fd = client();
	size_t len = frame(7, "www.example.", buf);
	send(fd, buf, len, 0);
	is_int(replies(fd, 1, NULL), 1,
	       "20 clients gone with answers unread: the worker still serves");
	close(fd);
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* Out of file descriptors: accepting pauses instead of spinning on the
 * readable listener, and resumes when descriptors are back. */
static void test_emfile(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct timeval tv = {.tv_sec = 3};
	struct rlimit old, low;
	uint8_t buf[64];
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	int lowest = dup(0);

	close(lowest);
	getrlimit(RLIMIT_NOFILE, &old);
	low = old;
	low.rlim_cur = (rlim_t)lowest;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	ok(setrlimit(RLIMIT_NOFILE, &low) == 0 &&
		   connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0,
	   "no descriptor left, and a client connects");
	double cpu = cpu_seconds();
	usleep(500 * 1000);
	cpu = cpu_seconds() - cpu;
	ok(cpu < 0.2, "half a second unable to accept: %.3f s of CPU, no spin",
	   cpu);
	setrlimit(RLIMIT_NOFILE, &old);
	size_t len = frame(3, "www.example.", buf);
	send(fd, buf, len, 0);
	is_int(replies(fd, 1, NULL), 1, "descriptors back: it is served");
	close(fd);
}

int main(void)
{
	const char *p = fake_serve();
	if (!p) {
		ok(0, "a worker serves a socket");
		return done_testing();
	}
	snprintf(path, sizeof(path), "%s", p);
	test_framing();
	test_output_cap();
	test_close_unread();
	test_emfile();
	fake_stop();
	return done_testing();
}
