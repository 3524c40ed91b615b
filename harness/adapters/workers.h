/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workers: this process forked into worker processes that each run a
 * function and exit, and their ends reaped without blocking (the matrix's
 * arches at once, engine/matrix).  The one place besides proc that makes
 * processes: a worker runs bootproof's own code, not a program.
 *
 * A worker inherits everything; it must not return into the caller's
 * stack: workers_start runs fn and then _exit()s with fn's return value.
 * Flush stdio before starting one (its buffers would be written twice).
 */
#ifndef BP_WORKERS_H
#define BP_WORKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Start a worker running fn(ud) (its exit code: fn's return, 0-255).
 * 0 with *ret its pid, or -errno (no worker). */
int workers_start(int (*fn)(void *ud), void *ud, pid_t *ret);

/* One worker of pids[0..n) that ended (a pid <= 0 is skipped): 1 with
 * *ret_i its index, *ret_ok whether it exited 0 and why (when not NULL) a
 * sentence of how it ended ("exited with 3", "was killed by signal 9");
 * 0 when none has ended yet; -errno when waiting failed. */
int workers_reap(const pid_t *pids, size_t n, size_t *ret_i, bool *ret_ok,
		 char *why, size_t why_len);

/* Send sig to a worker (0, or -errno). */
int workers_signal(pid_t pid, int sig);

#endif
