// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "agent.h"

#define SYSLOG_ACTION_CONSOLE_LEVEL 8

void kmsg_quiet_begin(struct kmsg_window *w, int console_level)
{
	char buf[64];

	w->saved_level = -1;
	w->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->fd >= 0)
		lseek(w->fd, 0, SEEK_END);
	/* /proc/sys/kernel/printk: "console default minimum boot-default". */
	if (read_line("/proc/sys/kernel/printk", buf, sizeof(buf)) > 0) {
		long cur = strtol(buf, NULL, 10);

		if (cur > console_level &&
		    klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL,
			    console_level) == 0)
			w->saved_level = cur;
	}
}

/* Messages that mean something went wrong in the kernel. */
static const char *const problem_marks[] = {
	"WARNING:", "BUG:", "Oops", "general protection fault",
	"kernel BUG at", "Kernel panic", "UBSAN:", "KASAN:", "KFENCE:",
	"soft lockup", "hard LOCKUP", "blocked for more than",
	"detected stalls", "self-detected stall",
};

unsigned kmsg_quiet_end(struct kmsg_window *w, struct tctx *t)
{
	unsigned problems = 0, lines = 0;

	if (w->saved_level >= 0)
		klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL,
			(int)w->saved_level);
	if (w->fd < 0)
		return 0;
	for (;;) {
		char rec[8192], *msg;
		ssize_t r = read(w->fd, rec, sizeof(rec) - 1);

		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		lines++;
		for (size_t i = 0; i < ELEMENTSOF(problem_marks); i++) {
			if (!strstr(msg, problem_marks[i]))
				continue;
			if (problems++ < 8)
				diag(t, "kernel: %s", msg);
			break;
		}
	}
	close(w->fd);
	w->fd = -1;
	diag(t, "console quieted to errors during the expected OOM kill: "
		"%u kernel log lines (saved with the whole log at the end), %u "
		"problem lines", lines, problems);
	return problems;
}
