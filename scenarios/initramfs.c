// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof's own initramfs, its only program: the agent started as
 * BP_INITRAMFS_INIT.  A distro's initramfs spends seconds under TCG in udev
 * and shell scripts; this loads the few modules the root needs, waits for
 * the root disk and hands over, as switch_root(8) does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "agent.h"
#include "cmdline.h"

/* How long the root disk may take to appear after its driver loaded. */
#define ROOT_WAIT_MS 20000

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), BP_INITRAMFS_NOTE);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* The kernel opened /dev/console as fds 0-2 for us. */
	dprintf(2, "%s\n", line);
}

static void load_modules(void)
{
	static char list[16384];
	char dir[sizeof(((struct utsname *)0)->release) + 16];
	char failed[1024];
	struct utsname u;
	unsigned n;

	if (read_file(BP_INITRAMFS_MODULES, list, sizeof(list)) < 0 ||
	    uname(&u) < 0) {
		note("no %s: loading no modules", BP_INITRAMFS_MODULES);
		return;
	}
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	n = modules_load_list(dir, list, failed, sizeof(failed));
	note("%u modules loaded%s%s", n, failed[0] ? "; failed: " : "",
	     failed);
}

static int wait_for(const char *dev)
{
	for (unsigned waited = 0; waited < ROOT_WAIT_MS; waited += 10) {
		if (access(dev, F_OK) == 0)
			return 0;
		sleep_ms(10);
	}
	return -ENOENT;
}

void initramfs_switch_root(char **argv)
{
	static struct agent_params p;
	char cmdline[4096];
	double t0 = now_s();

	mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL);
	agent_params_init(&p);
	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0)
		agent_params_parse(&p, cmdline);
	if (!p.root[0] || !p.init[0]) {
		note("the kernel command line has no root= or init=");
		return;
	}
	load_modules();
	if (wait_for(p.root) < 0) {
		note("%s did not appear in %u s", p.root, ROOT_WAIT_MS / 1000);
		return;
	}
	if (mount(p.root, "/root", "ext4", 0, NULL) < 0) {
		note("cannot mount %s on /root: %s", p.root, errname(errno));
		return;
	}
	/* The agent mounts what it needs itself, /dev included when it is
	 * not there; devtmpfs moves along with its nodes. */
	if (mount("/dev", "/root/dev", NULL, MS_MOVE, NULL) < 0)
		umount2("/dev", MNT_DETACH);
	umount2("/proc", MNT_DETACH);
	note("%s mounted in %.2f s; running %s", p.root, now_s() - t0, p.init);
	if (chdir("/root") < 0 || mount(".", "/", NULL, MS_MOVE, NULL) < 0 ||
	    chroot(".") < 0 || chdir("/") < 0) {
		note("cannot make /root the root: %s", errname(errno));
		return;
	}
	argv[0] = p.init;
	execv(p.init, argv);
	note("cannot run %s: %s", p.init, errname(errno));
}
