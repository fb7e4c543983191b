/* SPDX-License-Identifier: MIT */
/*
 * src/common/file.c: whole files up to a limit, with the limit, read
 * errors and open errors told apart.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/file.h"
#include "tap.h"

static char path[] = "/tmp/dt_test_file_XXXXXX";

static void write_n(size_t n)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	size_t done = 0;

	while (fd >= 0 && done < n) {
		char block[4096];
		size_t k = n - done < sizeof(block) ? n - done : sizeof(block);

		memset(block, 'a' + (int)(done / sizeof(block)) % 26, k);
		if (write(fd, block, k) != (ssize_t)k)
			break;
		done += k;
	}
	if (fd >= 0)
		close(fd);
	ok(done == n, "file of %zu octets written", n);
}

static void test_sizes(void)
{
	char *buf = NULL;
	size_t len = 7;

	write_n(0);
	is_int(file_read_path(path, 100, &buf, &len), 0, "empty file");
	ok(buf && len == 0 && buf[0] == '\0', "empty buffer, NUL-terminated");
	free(buf);

	write_n(100);
	buf = NULL;
	is_int(file_read_path(path, 100, &buf, &len), 0, "exactly the limit");
	ok(buf && len == 100 && buf[99] == 'a' && buf[100] == '\0',
	   "all of it, NUL after");
	free(buf);

	write_n(101);
	buf = NULL;
	len = 7;
	is_int(file_read_path(path, 100, &buf, &len), DT_ETOOBIG,
	       "one octet over: DT_ETOOBIG");
	ok(buf == NULL && len == 7, "outputs untouched on failure");

	/* larger than the first allocation: the buffer grows */
	write_n(3 * 4096 + 17);
	is_int(file_read_path(path, 1 << 20, &buf, &len), 0, "12 KiB file");
	ok(buf && len == 3 * 4096 + 17 && buf[4096] == 'b' &&
		   buf[3 * 4096 + 16] == 'd',
	   "every block in place");
	free(buf);
}

/* Not a regular file: no size known in advance. */
static void test_pipe(void)
{
	int p[2];
	char *buf = NULL;
	size_t len = 0;

	if (pipe(p) < 0) {
		ok(0, "pipe");
		return;
	}
	ok(write(p[1], "0123456789", 10) == 10, "pipe written");
	close(p[1]);
	is_int(file_read_fd(p[0], 9, &buf, &len), DT_ETOOBIG,
	       "pipe over the limit: DT_ETOOBIG");
	close(p[0]);
	if (pipe(p) < 0)
		return;
	ok(write(p[1], "0123456789", 10) == 10, "pipe written again");
	close(p[1]);
	is_int(file_read_fd(p[0], 10, &buf, &len), 0, "pipe at the limit");
	ok(buf && len == 10 && memcmp(buf, "0123456789", 10) == 0,
	   "its octets");
	free(buf);
	close(p[0]);
}

static void test_errors(void)
{
	char *buf = NULL;
	size_t len = 0;
	int fd;

	is_int(file_read_path("/nonexistent/x", 100, &buf, &len), -ENOENT,
	       "missing: -ENOENT (from open)");
	is_int(file_read_path("/", 100, &buf, &len), -EISDIR,
	       "a directory: -EISDIR (from read), not an empty file");
	fd = open(path, O_WRONLY);
	is_int(file_read_fd(fd, 1 << 20, &buf, &len), -EBADF,
	       "a descriptor not open for reading: -EBADF");
	if (fd >= 0)
		close(fd);
	ok(buf == NULL, "nothing returned");
	/* a sparse file claiming 1 GiB is refused from its size, unread */
	fd = open(path, O_WRONLY);
	ok(fd >= 0 && ftruncate(fd, (off_t)1 << 30) == 0, "sparse 1 GiB");
	if (fd >= 0)
		close(fd);
	is_int(file_read_path(path, 1 << 20, &buf, &len), DT_ETOOBIG,
	       "sparse file over the limit: DT_ETOOBIG");
	is_str(errcode_str(DT_ETOOBIG), "file larger than its limit",
	       "errcode_str names it");
}

int main(void)
{
	int fd = mkstemp(path);

	ok(fd >= 0, "temporary file");
	if (fd >= 0)
		close(fd);
	test_sizes();
	test_pipe();
	test_errors();
	unlink(path);
	return done_testing();
}
