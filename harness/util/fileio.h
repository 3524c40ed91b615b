/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small file helpers.  All return 0 (or a count) or -errno. */
#ifndef BP_FILEIO_H
#define BP_FILEIO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Write data to path atomically: a temporary file in the same directory,
 * fsync, rename.  A reader (or a crash at any moment) sees the previous
 * complete file or the new complete one, never a truncated one.  On
 * failure (e.g. -ENOSPC) the temporary file is removed and the previous
 * file is untouched.
 */
int write_file_atomic(const char *path, const void *data, size_t len,
		      unsigned mode);

/* Copy a file (regular files only) to dst with mode; dst replaced
 * atomically. */
int copy_file_atomic(const char *src, const char *dst, unsigned mode);

/* Open a regular file read-only (close-on-exec, no controlling tty): the
 * descriptor, -EINVAL for anything but a regular file, or -errno.  *ret_st
 * (may be NULL) gets its stat. */
struct stat;
int open_regular(const char *path, struct stat *ret_st);

/* Copy the tree src to dst, which must not exist: directories, regular
 * files (their modes kept) and symbolic links as links; anything else is
 * left out.  On failure what was copied stays (the caller removes dst). */
int copy_tree(const char *src, const char *dst);

/* Remove a directory tree (no symlink following).  Missing is fine. */
int rm_rf(const char *path);
/* One of the n paths exists (access(2) only: safe after a fork). */
bool any_path_exists(char (*paths)[PATH_MAX], size_t n);

#endif
