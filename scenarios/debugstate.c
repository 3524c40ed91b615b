// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After the scenarios: what the kernel's own debug checkers found, for a
 * kernel that has them (contract.h, BP_AGENT_KMEMLEAK_* and
 * BP_AGENT_LOCKDEP_*).
 *
 * kmemleak reports a leak only when asked to scan (or by its own thread,
 * every ten minutes: longer than a boot).  Its verbose parameter makes the
 * scan print each leak as a kernel message, so the host's console parser
 * sees them as it sees every other report; the note only says how many.
 * It takes two scans to report a leak (the first records checksums), and
 * a scan reports only objects older than kmemleak's minimum age
 * (MSECS_MIN_AGE in mm/kmemleak.c, 5 s): without a wait between the two, a
 * leak made by the last scenario, or just before the agent started, would
 * go unreported.
 * A scan reads all of memory: under TCG it can take a while, so it runs
 * in a child with a time limit (kmemleak stops a scan when the writing
 * task gets a fatal signal).
 *
 * lockdep turns itself off after its first report: debug_locks in
 * /proc/lockdep_stats says whether it was still watching at the end.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "agent.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"
#define KMEMLEAK_VERBOSE "/sys/module/kmemleak/parameters/verbose"
#define LOCKDEP_STATS "/proc/lockdep_stats"
#define SCAN_TIMEOUT_MS (120 * 1000)
/* kmemleak's MSECS_MIN_AGE, and a second for jiffies and clock slack. */
#define KMEMLEAK_MIN_AGE_MS (5 * 1000)
#define SCAN_GAP_MS (KMEMLEAK_MIN_AGE_MS + 1000)

static int scan_child(void *unused)
{
	int r = write_file(KMEMLEAK, "scan");

	return r < 0 ? -r : 0;
}

/* Ask for one scan; 0 or -errno (-ETIMEDOUT when it took too long). */
static int kmemleak_scan(void)
{
	int status;
	pid_t pid = fork_fn(scan_child, NULL);
	int r;

	if (pid < 0)
		return -errno;
	r = wait_timeout(pid, &status, SCAN_TIMEOUT_MS);
	if (r < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return r;
	}
	if (!WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

/* "unreferenced object" entries in the kmemleak file. */
static unsigned count_leaks(void)
{
	static char buf[1 << 20];
	unsigned n = 0;

	if (read_file(KMEMLEAK, buf, sizeof(buf)) < 0)
		return 0;
	for (const char *p = buf; (p = strstr(p, "unreferenced object"));
	     p++)
		n++;
	return n;
}

static void report_kmemleak(void)
{
	int r;

	if (!path_exists(KMEMLEAK))
		return;
	r = write_file(KMEMLEAK_VERBOSE, "1");
	if (r < 0) {
		out_note(BP_AGENT_KMEMLEAK_NO_SCAN "cannot set %s: %s",
			 KMEMLEAK_VERBOSE, errname(-r));
		return;
	}
	/* The first scan only records each object's checksum: an object
	 * that changed since the last scan (and at the first scan every one
	 * has) is not reported, so a leak shows at the second, once it is
	 * older than the minimum age. */
	r = kmemleak_scan();
	if (r == 0) {
		sleep_ms(SCAN_GAP_MS);
		r = kmemleak_scan();
	}
	if (r < 0) {
		out_note(BP_AGENT_KMEMLEAK_NO_SCAN "%s%s", errname(-r),
			 r == -EBUSY || r == -EPERM ?
				 " (kmemleak is disabled)" : "");
		return;
	}
	out_note(BP_AGENT_KMEMLEAK_LEAKS "%u", count_leaks());
}

static void report_lockdep(void)
{
	long on;

	if (read_keyed(LOCKDEP_STATS, "debug_locks", &on) < 0)
		return;
	if (on)
		out_note(BP_AGENT_LOCKDEP_ON);
	else
		out_note(BP_AGENT_LOCKDEP_OFF " (debug_locks 0: it stopped "
			 "checking after a report)");
}

void debug_state_report(void)
{
	report_kmemleak();
	report_lockdep();
}
