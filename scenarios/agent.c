// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof-agent main: as PID 1 in a guest, set the system up, run the
 * scenarios, save dmesg, power off; never exit (the kernel would panic).
 * Run by hand (not PID 1) it only runs scenarios that leave the machine
 * alone, prints KTAP on stdout and exits 0 (all passed or skipped) or 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../harness/util/exitcode.h"
#include "agent.h"

const struct agent_params *agent_params;
bool agent_is_pid1;

#define AGENT_VERSION "1"

static char setup_notes[4][KTAPFMT_LINE_MAX];
static unsigned n_setup_notes;

__attribute__((format(printf, 1, 2)))
static void setup_note(const char *fmt, ...)
{
	va_list ap;

	if (n_setup_notes >= ELEMENTSOF(setup_notes))
		return;
	va_start(ap, fmt);
	vsnprintf(setup_notes[n_setup_notes++], KTAPFMT_LINE_MAX, fmt, ap);
	va_end(ap);
}

int netif_up(const char *ifname)
{
	/* any socket takes the interface ioctls: AF_UNIX where the kernel
	 * has no INET (the demo's), AF_INET where it has no AF_UNIX */
	_cleanup_close_ int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;

	if (s < 0)
		s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	if (ifr.ifr_flags & IFF_UP)
		return 0;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		return -errno;
	return 0;
}

/* Is path a mount point (a different device than its parent)? */
static bool is_mountpoint(const char *path)
{
	char parent[256];
	struct stat a, b;

	snprintf(parent, sizeof(parent), "%s/..", path);
	if (stat(path, &a) < 0 || stat(parent, &b) < 0)
		return false;
	return a.st_dev != b.st_dev || a.st_ino == b.st_ino;
}

static const struct {
	const char *src, *dir, *type;
	unsigned long flags;
} mounts[] = {
	{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC },
	{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC },
	{ "devtmpfs", "/dev", "devtmpfs", MS_NOSUID },
	{ "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV },
	{ "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV },
	{ "cgroup2", "/sys/fs/cgroup", "cgroup2", MS_NOSUID | MS_NODEV },
	{ "bpf", "/sys/fs/bpf", "bpf", MS_NOSUID | MS_NODEV },
	{ "tracefs", "/sys/kernel/tracing", "tracefs", MS_NOSUID | MS_NODEV },
	{ "debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV },
	{ "securityfs", "/sys/kernel/security", "securityfs",
	  MS_NOSUID | MS_NODEV },
};

static void mount_all(void)
{
	char done[512] = "", had[512] = "", failed[768] = "";

	for (size_t i = 0; i < ELEMENTSOF(mounts); i++) {
		char *list;
		size_t used;
		int e = 0;

		if (is_mountpoint(mounts[i].dir)) {
			list = had;
		} else {
			/* Sysfs directories cannot be created: their absence
			 * says the kernel lacks the file system. */
			if (mkdir(mounts[i].dir, 0755) < 0 && errno != EEXIST)
				e = strncmp(mounts[i].dir, "/sys/", 5) ? errno
								       : ENOENT;
			if (!e && mount(mounts[i].src, mounts[i].dir,
					mounts[i].type, mounts[i].flags,
					NULL) < 0)
				e = errno;
			list = e ? failed : done;
		}
		used = strlen(list);
		if (e)
			snprintf(list + used, 768 - used, "%s%s (%s: %s)",
				 used ? " " : "", mounts[i].type,
				 mounts[i].dir, errname(e));
		else
			snprintf(list + used, 512 - used, "%s%s",
				 used ? " " : "", mounts[i].type);
	}
	setup_note("mounted: %s; already mounted: %s; not mounted: %s",
		   done[0] ? done : "-", had[0] ? had : "-",
		   failed[0] ? failed : "-");
}

static void open_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		/* Keep what the kernel gave us, if anything. */
		if (fcntl(1, F_GETFD) >= 0)
			agent_out_fd = 1;
		return;
	}
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	agent_out_fd = 1;
}

static void pid1_setup(void)
{
	struct statvfs sv;

	umask(022);
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/", 1);
	/* /dev first so that the console can be opened for what follows. */
	if (!is_mountpoint("/dev")) {
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, NULL);
	}
	open_console();
	mount_all();
	if (statvfs("/", &sv) == 0 && (sv.f_flag & ST_RDONLY)) {
		if (mount(NULL, "/", NULL, MS_REMOUNT, NULL) < 0)
			setup_note("root is read-only and cannot be "
				   "remounted read-write: %s; dmesg will not "
				   "be saved", errname(errno));
		else
			setup_note("root remounted read-write");
	}
	if (netif_up("lo") < 0)
		setup_note("cannot bring lo up: %s", errname(errno));
}

/* How long a full channel may stay full before the log goes to disk. */
#define CHANNEL_WAIT_MS 2000

/*
 * The log over the agent's channel (contract.h, BP_CHANNEL_DMESG).  The
 * first write is the test of a host side: with none connected (a pty
 * nobody opened) it cannot go, and nothing has been announced yet.
 * 0, -ENOENT without the channel, -ENOTCONN without a host side, or what
 * failed after the header (the host then finds the log short).
 */
static int send_dmesg(const char *buf, size_t len)
{
	char port[256], dev[300], head[64];
	_cleanup_close_ int fd = -1;
	int n, r;

	if (!virtio_port_find(BP_CHANNEL_NAME, port, sizeof(port)))
		return -ENOENT;
	snprintf(dev, sizeof(dev), "/dev/%s", port);
	fd = open(dev, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(head, sizeof(head), "%s%zu\n", BP_CHANNEL_DMESG, len);
	r = (int)write(fd, head, (size_t)n);
	if (r < 0)
		return errno == EAGAIN ? -ENOTCONN : -errno;
	if (r != n)
		return -EIO;
	return write_fd_all(fd, buf, len, CHANNEL_WAIT_MS);
}

static int write_dmesg_file(const char *buf, size_t len)
{
	_cleanup_close_ int fd = open(BP_DMESG_FILE ".tmp",
				      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				      0644);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || fsync(fd) < 0 ||
	    rename(BP_DMESG_FILE ".tmp", BP_DMESG_FILE) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/* The kernel's log, as dmesg(1) prints it, to the host: over the channel,
 * else to a file on the root. */
static void save_dmesg(void)
{
	_cleanup_free_ char *buf = NULL;
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	int len, r, w;
	size_t out = 0;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (len < 0) {
		out_note("dmesg not saved: klogctl: %s", errname(errno));
		return;
	}
	/* Drop the "<6>" priority prefixes, as dmesg(1) prints it. */
	for (int i = 0; i < len;) {
		int start = i;

		if (buf[i] == '<') {
			int j = i + 1;

			while (j < len && buf[j] >= '0' && buf[j] <= '9')
				j++;
			if (j < len && buf[j] == '>' && j > i + 1)
				start = j + 1;
		}
		i = start;
		while (i < len && buf[i] != '\n')
			i++;
		if (i < len)
			i++;
		memmove(buf + out, buf + start, (size_t)(i - start));
		out += (size_t)(i - start);
	}
	r = send_dmesg(buf, out);
	if (r == 0) {
		out_note("dmesg sent over %s (%zu bytes)", BP_CHANNEL_NAME,
			 out);
		return;
	}
	if (r != -ENOENT && r != -ENOTCONN)
		out_note("dmesg over %s failed: %s (the host has part of it)",
			 BP_CHANNEL_NAME, errname(-r));
	if ((w = write_dmesg_file(buf, out)) < 0) {
		out_note("dmesg not saved to %s: %s", BP_DMESG_FILE,
			 errname(-w));
		return;
	}
	out_note("dmesg saved to %s (%zu bytes; %s)", BP_DMESG_FILE, out,
		 r == -ENOENT ? "no channel " BP_CHANNEL_NAME
			      : "nobody reads the channel");
}

static void run_shell(void)
{
	char *argv[] = { "/bin/busybox", "sh", NULL };
	pid_t pid;
	int st;

	if (!path_exists(argv[0])) {
		out_note("bootproof.shell: no /bin/busybox");
		return;
	}
	out_note("bootproof.shell=1: starting /bin/busybox sh; exit it to "
		 "power off");
	pid = fork();
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setsid();
		ioctl(0, TIOCSCTTY, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
}

/*
 * Power off; a kernel that cannot (no ACPI, or acpi=off: nothing in
 * /sys/firmware/acpi) would turn RB_POWER_OFF into a halt that never
 * returns and the guest would idle until the host's timeout, so it
 * reboots instead: the host's domain ends on reboot (on_reboot=destroy,
 * core/domxml), as it does on power-off.
 */
__attribute__((noreturn))
static void power_off(void)
{
	sync();
	if (!path_exists("/sys/firmware/acpi")) {
		out_note(BP_AGENT_REBOOT);
		reboot(RB_AUTOBOOT);
		out_note("reboot(RB_AUTOBOOT): %s; trying RB_POWER_OFF",
			 errname(errno));
	}
	reboot(RB_POWER_OFF);
	out_note("reboot(RB_POWER_OFF): %s; trying RB_HALT_SYSTEM",
		 errname(errno));
	reboot(RB_HALT_SYSTEM);
	out_note("reboot(RB_HALT_SYSTEM): %s; trying RB_AUTOBOOT",
		 errname(errno));
	reboot(RB_AUTOBOOT);
	out_note("reboot(RB_AUTOBOOT): %s; idling forever", errname(errno));
	for (;;)
		pause();
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bootproof-agent [--cmdline STRING] [--list]\n"
		"As PID 1 (init=/bootproof/agent) it reads /proc/cmdline, "
		"runs the scenarios\nand powers off.  Run by hand it runs "
		"only scenarios that leave the machine\nalone and prints "
		"KTAP on stdout.  See docs/scenarios.md.\n");
}

static void list_scenarios(void)
{
	for (size_t i = 0; scenarios[i]; i++)
		printf("%-12s %s%s\n", scenarios[i]->name,
		       scenarios[i]->summary,
		       scenario_test_only(scenarios[i]) ? " (test-only)" : "");
}

int main(int argc, char **argv)
{
	static struct agent_params params;
	const struct scenario *run[AGENT_MAX_SCENARIOS * 2];
	const char *names[AGENT_MAX_SCENARIOS * 2];
	const char *cmdline_arg = NULL;
	char cmdline[4096] = "";
	unsigned n = 0, npass = 0, nfail = 0, nskip = 0;
	struct utsname u;
	long memavail_kb = 0;
	bool have_memavail = false;

	agent_is_pid1 = getpid() == 1;
	if (agent_is_pid1 && !strcmp(argv[0], BP_INITRAMFS_INIT)) {
		initramfs_switch_root(argv);
		return 1;
	}
	if (agent_is_pid1) {
		pid1_setup();
		/* Before the scenarios take any: what the kernel left. */
		have_memavail = read_keyed("/proc/meminfo", "MemAvailable",
					   &memavail_kb) == 0;
	} else {
		static const struct option opts[] = {
			{ "cmdline", required_argument, NULL, 'c' },
			{ "list", no_argument, NULL, 'l' },
			{ "help", no_argument, NULL, 'h' },
			{ NULL, 0, NULL, 0 },
		};
		int c;

		while ((c = getopt_long(argc, argv, "c:lh", opts, NULL)) != -1) {
			switch (c) {
			case 'c':
				cmdline_arg = optarg;
				break;
			case 'l':
				list_scenarios();
				return BP_EXIT_OK;
			case 'h':
				usage(stdout);
				return BP_EXIT_OK;
			default:
				usage(stderr);
				return BP_EXIT_USAGE;
			}
		}
		if (optind < argc) {
			usage(stderr);
			return BP_EXIT_USAGE;
		}
	}

	agent_params_init(&params);
	if (cmdline_arg)
		snprintf(cmdline, sizeof(cmdline), "%s", cmdline_arg);
	else if (read_line("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		setup_note("cannot read /proc/cmdline: %s; using defaults",
			   errname(errno));
	agent_params_parse(&params, cmdline);
	agent_params = &params;

	for (unsigned i = 0; i < params.n_scenarios; i++) {
		const char *name = params.scenarios[i];

		if (!strcmp(name, BP_SCENARIOS_ALL)) {
			for (size_t j = 0; scenarios[j]; j++) {
				if (scenario_test_only(scenarios[j]) ||
				    n >= ELEMENTSOF(run))
					continue;
				run[n] = scenarios[j];
				names[n++] = scenarios[j]->name;
			}
		} else if (n < ELEMENTSOF(run)) {
			run[n] = scenario_find(name);
			names[n++] = name;
		}
	}

	out_line(0, "KTAP version 1");
	out_line(0, "1..%u", n);
	if (uname(&u) == 0)
		out_note("version %s, kernel %s %s, %s", AGENT_VERSION,
			 u.release, u.machine,
			 agent_is_pid1 ? "running as init" : "not init");
	if (have_memavail)
		out_note(BP_AGENT_MEMAVAILABLE "%ld kB", memavail_kb);
	for (unsigned i = 0; i < n_setup_notes; i++)
		out_note("%s", setup_notes[i]);
	for (unsigned i = 0; i < params.n_problems; i++)
		out_note("%s", params.problems[i]);
	if (kconfig_load() == 0)
		out_note("kernel config from %s", kconfig_source());
	else
		out_note("no kernel config (/proc/config.gz or "
			 "/boot/config-%s): skip reasons come from "
			 "/proc/kallsyms and errno", u.release);
	if (agent_is_pid1)
		modules_load_needed();

	for (unsigned i = 0; i < n; i++) {
		enum check_result r;

		if (!run[i])
			r = scenario_unknown(names[i], i + 1);
		else
			r = scenario_run(run[i], i + 1, &params);
		if (r == CHECK_PASS)
			npass++;
		else if (r == CHECK_FAIL)
			nfail++;
		else
			nskip++;
	}
	out_note("%u passed, %u failed, %u skipped", npass, nfail, nskip);
	if (!agent_is_pid1) {
		out_note(BP_AGENT_DONE);
		return nfail ? BP_EXIT_FAIL : BP_EXIT_OK;
	}
	debug_state_report();
	save_dmesg();
	if (params.shell)
		run_shell();
	out_note(BP_AGENT_DONE);
	power_off();
}
