/* SPDX-License-Identifier: MIT */
/*
 * Reading a whole file into memory, up to a limit: configuration,
 * resolv.conf, trust anchor state, zone files.
 */
#ifndef DT_COMMON_FILE_H
#define DT_COMMON_FILE_H

#include <stddef.h>

/*
 * Reads fd from its current offset to its end into a new buffer
 * (*ret_buf, freed by the caller with free()) of *ret_len octets, followed
 * by a NUL that *ret_len does not count. fd is left open. Returns 0,
 * DT_ETOOBIG when there are more than max octets, -ENOMEM, or the -errno
 * of the failed read(2) (-EISDIR for a directory, -EIO...): a file that
 * cannot be read whole is never taken for a shorter one. Nothing is
 * written to ret_buf or ret_len on failure. max is a limit of
 * common/limits.h, far below SIZE_MAX / 2.
 */
int file_read_fd(int fd, size_t max, char **ret_buf, size_t *ret_len)
	__attribute__((warn_unused_result, nonnull));

/*
 * Opens path read-only and reads it as file_read_fd() does. Returns as
 * file_read_fd(), or the -errno of open(2) (-ENOENT, -EACCES...): errors
 * that only opening gives. A caller that must tell "cannot open" from
 * "cannot read" apart in every case opens the file itself and calls
 * file_read_fd().
 */
int file_read_path(const char *path, size_t max, char **ret_buf,
		   size_t *ret_len)
	__attribute__((warn_unused_result, nonnull));

#endif
