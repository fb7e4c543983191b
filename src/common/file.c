/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/errcode.h"
#include "common/file.h"

/* First allocation when the size is unknown (pipes, /proc). */
#define FIRST_CAP 4096

/* The octets left in fd when it is a regular file, else -1. */
static int64_t left_in_file(int fd)
{
	struct stat st;
	off_t at;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	at = lseek(fd, 0, SEEK_CUR);
	return at < 0 || at > st.st_size ? -1 : (int64_t)(st.st_size - at);
}

/* Room for what is left when it is known (a hint only: the file may change
 * while it is read), else FIRST_CAP; never over max + 1, the octet that
 * shows the file to be too big. */
static size_t first_cap(int64_t left, size_t max)
{
	size_t cap = FIRST_CAP;

	if (left > 0 && (uint64_t)left < SIZE_MAX - 1)
		cap = (size_t)left + 1;
	return cap > max ? max + 1 : cap;
}

/* Grows *buf to hold at least one more octet, within max + 1. */
static int grow(char **buf, size_t *cap, size_t max)
{
	size_t ncap = *cap > (max + 1) / 2 ? max + 1 : *cap * 2;
	char *nb = realloc(*buf, ncap + 1);

	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

/* Reads into buf (cap octets, growing) until the end or max + 1 octets.
 * Returns the length or -errno. */
static ssize_t read_to_end(int fd, char **buf, size_t cap, size_t max)
{
	size_t len = 0;

	for (;;) {
		if (len == cap && cap > max)
			return (ssize_t)len; /* max + 1: too big */
		if (len == cap && grow(buf, &cap, max) < 0)
			return -ENOMEM;
		ssize_t n = read(fd, *buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return (ssize_t)len;
		len += (size_t)n;
	}
}

int file_read_fd(int fd, size_t max, char **ret_buf, size_t *ret_len)
{
	int64_t left = left_in_file(fd);
	size_t cap = first_cap(left, max);
	char *buf;
	ssize_t n;

	/* A regular file known too big is refused unread (a sparse file may
	 * claim any size). */
	if (left >= 0 && (uint64_t)left > max)
		return DT_ETOOBIG;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	n = read_to_end(fd, &buf, cap, max);
	if (n >= 0 && (size_t)n > max)
		n = DT_ETOOBIG;
	if (n < 0) {
		free(buf);
		return (int)n;
	}
	buf[n] = '\0';
	*ret_buf = buf;
	*ret_len = (size_t)n;
	return 0;
}

int file_read_path(const char *path, size_t max, char **ret_buf,
		   size_t *ret_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	int r;

	if (fd < 0)
		return -errno;
	r = file_read_fd(fd, max, ret_buf, ret_len);
	close(fd);
	return r;
}
