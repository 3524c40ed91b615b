// SPDX-License-Identifier: GPL-2.0-or-later
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "paths.h"
#include "strbuf.h"
#include "xalloc.h"

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int open_tmp_beside(const char *path, unsigned mode, char **ret_tmp)
{
	_cleanup_free_ char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, mode) < 0) {
		int e = errno;
		close(fd);
		unlink(tmp);
		return -e;
	}
	*ret_tmp = TAKE_PTR(tmp);
	return fd;
}

static int finish_tmp(int fd, char *tmp, const char *path, int r)
{
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	free(tmp);
	return r;
}

int write_file_atomic(const char *path, const void *data, size_t len,
		      unsigned mode)
{
	char *tmp = NULL;
	int fd = open_tmp_beside(path, mode, &tmp);

	if (fd < 0)
		return fd;
	return finish_tmp(fd, tmp, path, write_all(fd, data, len));
}

int open_regular(const char *path, struct stat *ret_st)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (ret_st)
		*ret_st = st;
	return TAKE_FD(fd);
}

int copy_file_atomic(const char *src, const char *dst, unsigned mode)
{
	_cleanup_close_ int in = open_regular(src, NULL);
	char *tmp = NULL;
	char buf[65536];
	int fd, r = 0;

	if (in < 0)
		return in;
	fd = open_tmp_beside(dst, mode, &tmp);
	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		r = write_all(fd, buf, (size_t)n);
		if (r < 0)
			break;
	}
	return finish_tmp(fd, tmp, dst, r);
}

int copy_tree(const char *src, const char *dst)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (lstat(src, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return copy_file_atomic(src, dst, st.st_mode & 07777);
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(src, target, sizeof(target) - 1);

		if (n < 0)
			return -errno;
		target[n] = '\0';
		return symlink(target, dst) < 0 ? -errno : 0;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (mkdir(dst, st.st_mode & 07777) < 0)
		return -errno;
	d = opendir(src);
	if (!d)
		return -errno;
	while (r >= 0 && (de = readdir(d))) {
		_cleanup_free_ char *s = NULL, *t = NULL;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		s = path_join(src, de->d_name);
		t = path_join(dst, de->d_name);
		r = copy_tree(s, t);
	}
	closedir(d);
	return r;
}

int rm_rf(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		_cleanup_free_ char *p = NULL;
		int q;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = path_join(path, de->d_name);
		q = rm_rf(p);
		if (q < 0 && r == 0)
			r = q;
	}
	closedir(d);
	if (rmdir(path) < 0 && errno != ENOENT && r == 0)
		r = -errno;
	return r;
}

bool any_path_exists(char (*paths)[PATH_MAX], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (access(paths[i], F_OK) == 0)
			return true;
	return false;
}
