// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenarios that exist to test the harness and the agent's runner, never
 * part of "all" (contract.h: BP_TEST_SCENARIOS):
 *   crash    sysrq-c: the kernel must panic (the harness reports PANIC)
 *   hang     never finishes, no time limit (the harness reports HUNG)
 *   timeout  a check that never finishes within bootproof.timeout (the
 *            agent reports TIMEOUT and goes on)
 *   segv     a check that crashes (the agent reports ERROR and goes on)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

static enum check_result check_sysrq_c(struct tctx *t)
{
	int r;

	if (!path_exists("/proc/sysrq-trigger"))
		return skip(t, "CONFIG_MAGIC_SYSRQ not set "
			       "(no /proc/sysrq-trigger)");
	out_line(SUB, "# crash: writing c to /proc/sysrq-trigger: the "
		      "kernel must panic now");
	sync();
	r = write_file("/proc/sysrq-trigger", "c");
	if (r < 0)
		return fail(t, "write c to /proc/sysrq-trigger: %s",
			    errname(r));
	return fail(t, "the kernel survived sysrq-c");
}

static const struct check crash_checks[] = {
	CHECK(sysrq_c),
};

SCENARIO_DEFINE(crash,
	.summary = "panic the kernel with sysrq-c",
	.flags = SC_GUEST_ONLY);

static enum check_result check_forever(struct tctx *t)
{
	out_line(SUB, "# hang: the agent stops here on purpose, without "
		      "a time limit");
	for (;;)
		pause();
	return CHECK_FAIL;
}

static const struct check hang_checks[] = {
	CHECK(forever),
};

SCENARIO_DEFINE(hang,
	.summary = "never finish (the harness must report HUNG)",
	.flags = SC_NO_LIMIT);

static enum check_result check_ok(struct tctx *t)
{
	return CHECK_PASS;
}

static enum check_result check_sleep(struct tctx *t)
{
	diag(t, "sleeping past bootproof.timeout=%u", agent_params->timeout_s);
	for (;;)
		pause();
	return CHECK_FAIL;
}

static const struct check timeout_checks[] = {
	{ "before", check_ok }, CHECK(sleep), { "after", check_ok },
};

SCENARIO_DEFINE(timeout,
	.summary = "a check that exceeds the time limit");

/* Not visible to the optimiser: the load below is a real fault. */
static int *volatile null_ptr;

static enum check_result check_null_deref(struct tctx *t)
{
	diag(t, "reading address 0");
	return *(volatile int *)null_ptr == 0 ? CHECK_FAIL : CHECK_PASS;
}

static const struct check segv_checks[] = {
	{ "before", check_ok }, CHECK(null_deref), { "after", check_ok },
};

SCENARIO_DEFINE(segv,
	.summary = "a check that crashes with SIGSEGV");
