// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kgdb, guest half.  Handshake with the host (docs/scenarios.md):
 *   1. the guest points kgdboc at bootproof.kgdb=PORT and prints
 *      "# kgdb: ready port=PORT wait=S";
 *   2. the host connects to that serial port and sends any byte (gdb's
 *      own first "+" will do);
 *   3. on that byte, within S seconds (bootproof.kgdb_wait), the guest
 *      flushes the port, prints "# kgdb: entering debugger (sysrq-g)" and
 *      writes g to /proc/sysrq-trigger: the kernel stops in kgdb until the
 *      host's gdb continues or detaches;
 *   4. the write returns: "# kgdb: resumed after N.N s".
 * No byte within S seconds: the guest never enters the debugger, so it can
 * never hang waiting for a host that is not there.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <termios.h>
#include <unistd.h>

#include "agent.h"

#define KGDBOC "/sys/module/kgdboc/parameters/kgdboc"
#define KGDBTS "/sys/module/kgdbts/parameters/kgdbts"
#define KGDBTS_MARK "bootproof-agent: kgdbts begins"
/* The kernel's own kgdb self-test, verbose, without the kernel_clone and
 * sys_open tests (they finish in a thread after the write returns). */
#define KGDBTS_CONFIG "V1"

static bool configured, attached;

/* The kernel log from the last line containing MARK on (NULL: none). */
static char *klog_since(const char *mark)
{
	int size = klogctl(10, NULL, 0), len;
	char *log, *from = NULL;

	if (size <= 0)
		size = 1 << 20;
	log = malloc((size_t)size + 1);
	if (!log)
		return NULL;
	len = klogctl(3, log, size);
	if (len < 0) {
		free(log);
		return NULL;
	}
	log[len] = '\0';
	for (char *p = log; (p = strstr(p, mark)); p++)
		from = p;
	if (!from) {
		free(log);
		errno = ENOENT;
		return NULL;
	}
	memmove(log, from, strlen(from) + 1);
	return log;
}

/*
 * CONFIG_KGDB_TESTS: kgdbts registers itself as the kgdb I/O driver and
 * plays a scripted gdb against the kernel's own stub (breakpoints, hardware
 * watchpoints when the arch has them, single-stepping, a bad memory read).
 * Written at run time to its parameter, as kgdbts= on the command line
 * would at boot, and before kgdboc is configured: only one kgdb I/O driver
 * can be registered at a time.  Every failure is a "kgdbts: ERROR" line
 * (and a WARNING, which the host counts as a kernel problem).
 */
static enum check_result check_kgdbts(struct tctx *t)
{
	_cleanup_free_ char *log = NULL;
	const char *p, *first = NULL;
	char failed[256] = "";
	size_t first_len = 0;
	unsigned ran = 0;
	double start;
	int r;

	if (!path_exists(KGDBTS))
		return skip(t, "CONFIG_KGDB_TESTS not set (no " KGDBTS ")");
	write_file("/dev/kmsg", KGDBTS_MARK "\n");
	start = now_s();
	r = write_file(KGDBTS, KGDBTS_CONFIG);
	log = klog_since(KGDBTS_MARK);
	if (!log)
		return fail(t, "the kernel log does not hold kgdbts' run (%s)",
			    errno == ENOENT ? "its start mark is gone" :
					      errname(errno));
	for (p = log; (p = strstr(p, "kgdbts:RUN ")); p++)
		if (strncmp(p, "kgdbts:RUN singlestep [", 23))	/* progress */
			ran++;
	/* The tests that failed ("kgdbts: ERROR NAME test failed"), and the
	 * first error line of any kind, which says why. */
	for (p = log; (p = strstr(p, "kgdbts: ")); p++) {
		const char *m = p + strlen("kgdbts: ");
		size_t n = strcspn(m, "\n");
		char name[64];
		int end = 0;

		if (strncmp(m, "ERROR", 5) && strncmp(m, "BP mismatch", 11) &&
		    strncmp(m, "SingleStep failed", 17) &&
		    strncmp(m, "failed", 6))
			continue;
		if (!first)
			first = m, first_len = n > 120 ? 120 : n;
		if (sscanf(m, "ERROR %63s test failed%n", name, &end) == 1 &&
		    end > 0 &&
		    strlen(failed) + strlen(name) + 3 < sizeof(failed))
			snprintf(failed + strlen(failed),
				 sizeof(failed) - strlen(failed), "%s%s",
				 failed[0] ? ", " : "", name);
	}
	if (first)
		return fail(t, "failed: %s; first error: %.*s",
			    failed[0] ? failed : "(no test named)",
			    (int)first_len, first);
	if (r < 0)
		return fail(t, "writing %s to " KGDBTS ": %s", KGDBTS_CONFIG,
			    errname(r));
	if (ran == 0)
		return fail(t, "kgdbts ran no test (no 'kgdbts:RUN' in the "
			       "kernel log)");
	diag(t, "kgdbts=%s: %u tests in %.1f s, no error%s", KGDBTS_CONFIG,
	     ran, now_s() - start,
	     strstr(log, "kgdbts:RUN hw breakpoint test") ?
		     " (hardware breakpoints included)" : "");
	return CHECK_PASS;
}

static enum check_result check_kgdboc(struct tctx *t)
{
	char val[64];
	int r;

	if (!path_exists(KGDBOC))
		return skip(t, "CONFIG_KGDB_SERIAL_CONSOLE not set (no "
			       KGDBOC ")");
	r = write_file(KGDBOC, agent_params->kgdb_port);
	if (r < 0)
		return fail(t, "writing %s to " KGDBOC ": %s",
			    agent_params->kgdb_port, errname(r));
	if (read_line(KGDBOC, val, sizeof(val)) < 0)
		return fail(t, "reading " KGDBOC ": %s", errname(errno));
	if (strcmp(val, agent_params->kgdb_port) != 0)
		return fail(t, KGDBOC " reads '%s' after writing '%s'", val,
			    agent_params->kgdb_port);
	configured = true;
	return CHECK_PASS;
}

static enum check_result check_host_debugger(struct tctx *t)
{
	char dev[64], buf[256];
	_cleanup_close_ int fd = -1;
	struct termios tio;
	struct pollfd p;
	double start;
	int r;

	if (!configured)
		return skip(t, "kgdboc not configured");
	snprintf(dev, sizeof(dev), "/dev/%s", agent_params->kgdb_port);
	fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(t, "open %s: %s", dev, errname(errno));
	if (tcgetattr(fd, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	tcflush(fd, TCIFLUSH);
	/* The line the host waits for: exactly this text. */
	out_line(SUB, BP_KGDB_READY " port=%s wait=%u",
		 agent_params->kgdb_port, agent_params->kgdb_wait_s);
	start = now_s();
	p.fd = fd;
	p.events = POLLIN;
	r = poll(&p, 1, (int)agent_params->kgdb_wait_s * 1000);
	if (r <= 0)
		return fail(t, "no byte from the host debugger on %s within "
			       "%u s (bootproof.kgdb_wait): not entering kgdb",
			    dev, agent_params->kgdb_wait_s);
	/* Whatever the host sent first is not for kgdb: drop it. */
	sleep_ms(200);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	tcflush(fd, TCIOFLUSH);
	diag(t, "host debugger present on %s after %.1f s", dev,
	     now_s() - start);
	attached = true;
	return CHECK_PASS;
}

/* Did the kernel log that it entered kgdb after our sysrq-g? */
static bool kernel_entered(char *why, size_t n)
{
	/* Only what follows the last sysrq-g. */
	_cleanup_free_ char *last = klog_since("sysrq: DEBUG");

	if (!last) {
		snprintf(why, n, "no 'sysrq: DEBUG' in the kernel log%s%s",
			 errno == ENOENT ? "" : ": ",
			 errno == ENOENT ? "" : errname(errno));
		return false;
	}
	if (strstr(last, "ERROR: No KGDB I/O module available")) {
		snprintf(why, n, "kernel: No KGDB I/O module available");
		return false;
	}
	{
		static const char *const marks[] = BP_KGDB_ENTERED_MARKS;

		for (size_t i = 0; i < ELEMENTSOF(marks); i++)
			if (strstr(last, marks[i]))
				return true;
	}
	/* kdb prints its entry to the consoles only, not to the log: the
	 * host saw it there and its gdb session is the proof (the host fails
	 * the scenario when gdb did not get the stop). */
	if (path_exists("/sys/module/kdb")) {
		snprintf(why, n, "kdb is the front end: its entry is on the "
			 "console, not in the kernel log");
		return true;
	}
	snprintf(why, n, "no 'Entering KGDB' in the kernel log after "
		 "sysrq: DEBUG");
	return false;
}

static enum check_result check_resumed(struct tctx *t)
{
	char why[160] = "";
	double start, took;
	int r;

	if (!attached)
		return skip(t, "no host debugger: kgdb not entered");
	out_line(SUB, "# kgdb: entering debugger (sysrq-g)");
	start = now_s();
	r = write_file("/proc/sysrq-trigger", "g");
	took = now_s() - start;
	if (r < 0)
		return fail(t, "write g to /proc/sysrq-trigger: %s",
			    errname(r));
	out_line(SUB, "# kgdb: resumed after %.1f s", took);
	if (!kernel_entered(why, sizeof(why)))
		return fail(t, "%s", why);
	if (why[0])
		diag(t, "%s", why);
	return CHECK_PASS;
}

static const struct check kgdb_checks[] = {
	CHECK(kgdbts), CHECK(kgdboc), CHECK(host_debugger), CHECK(resumed),
};

static bool kgdb_missing(char *reason, size_t n)
{
	if (feature_missing("KGDB", "kgdb_breakpoint", 0, NULL, reason, n))
		return true;
	if (!path_exists("/proc/sysrq-trigger")) {
		snprintf(reason, n, "CONFIG_MAGIC_SYSRQ not set (no "
			 "/proc/sysrq-trigger)");
		return true;
	}
	if (!agent_params->kgdb_port[0]) {
		snprintf(reason, n, "no host debugger expected "
			 "(no bootproof.kgdb= on the command line)");
		return true;
	}
	return false;
}

/* kgdbts single-steps 1000 times, each a debug exception: slow under TCG. */
#define KGDBTS_TIME 60

static unsigned kgdb_extra(const struct agent_params *p)
{
	return p->kgdb_wait_s + KGDBTS_TIME;
}

SCENARIO_DEFINE(kgdb,
	.summary = "kgdboc on a serial port, enter kgdb with sysrq-g, resume "
		   "after the host debugger",
	.flags = SC_GUEST_ONLY,
	.missing = kgdb_missing,
	.extra_time = kgdb_extra);
