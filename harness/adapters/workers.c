// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/workers.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int workers_start(int (*fn)(void *ud), void *ud, pid_t *ret)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(fn(ud) & 0xff);
	*ret = pid;
	return 0;
}

int workers_reap(const pid_t *pids, size_t n, size_t *ret_i, bool *ret_ok,
		 char *why, size_t why_len)
{
	for (size_t i = 0; i < n; i++) {
		int st;
		pid_t p;

		if (pids[i] <= 0)
			continue;
		p = waitpid(pids[i], &st, WNOHANG);
		if (p < 0)
			return -errno;
		if (p == 0)
			continue;
		*ret_i = i;
		*ret_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (why && why_len) {
			if (WIFEXITED(st))
				snprintf(why, why_len, "exited with %d",
					 WEXITSTATUS(st));
			else if (WIFSIGNALED(st))
				snprintf(why, why_len,
					 "was killed by signal %d (%s)",
					 WTERMSIG(st), strsignal(WTERMSIG(st)));
			else
				snprintf(why, why_len, "ended (status 0x%x)",
					 st);
		}
		return 1;
	}
	return 0;
}

int workers_signal(pid_t pid, int sig)
{
	return pid > 0 && kill(pid, sig) < 0 ? -errno : 0;
}
