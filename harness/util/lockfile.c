// SPDX-License-Identifier: GPL-2.0-or-later
#include "util/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

int lockfile_take(const char *path, unsigned flags,
		  volatile sig_atomic_t *cancel)
{
	int oflags = O_RDWR | O_CLOEXEC;
	int fd, e;

	if (flags & LOCKFILE_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	if (!(flags & LOCKFILE_NOCREATE))
		oflags |= O_CREAT;
	fd = open(path, oflags, 0644);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX | (flags & LOCKFILE_NOWAIT ? LOCK_NB : 0)) < 0) {
		if (errno == EINTR && !(cancel && *cancel))
			continue;
		e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

void lockfile_release(int *fd)
{
	if (*fd < 0)
		return;
	flock(*fd, LOCK_UN);
	close(*fd);
	*fd = -1;
}
