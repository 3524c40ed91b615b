/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockfile: an exclusive flock(2) on a lock file, the one way bootproof
 * keeps two runs (or a run and its own resumed self) out of the same work
 * directory.  The lock lives as long as the descriptor: a run killed with
 * SIGKILL releases it too.
 *
 *   _cleanup_lockfile_ int lock = -1;
 *   lock = lockfile_take(path, 0, interrupted);
 *   if (lock < 0) return lock;
 */
#ifndef BP_LOCKFILE_H
#define BP_LOCKFILE_H

#include <signal.h>

enum {
	LOCKFILE_NOFOLLOW = 1 << 0,	/* the lock file is not a symlink */
	LOCKFILE_NOCREATE = 1 << 1,	/* a missing lock file is -ENOENT */
	LOCKFILE_NOWAIT = 1 << 2,	/* held elsewhere: -EWOULDBLOCK */
};

/*
 * Open path (created 0644 unless LOCKFILE_NOCREATE) and lock it, waiting
 * for whoever holds it.  A signal interrupting the wait is retried unless
 * *cancel (may be NULL) became non-zero: then -EINTR.  Returns the locked
 * descriptor (close-on-exec; the caller releases it with lockfile_release)
 * or -errno.
 */
int lockfile_take(const char *path, unsigned flags,
		  volatile sig_atomic_t *cancel);

/* Unlock and close *fd, then set it to -1.  Accepts -1: a _cleanup_
 * destructor. */
void lockfile_release(int *fd);
#define _cleanup_lockfile_ __attribute__((cleanup(lockfile_release)))

#endif
