// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/verdict.h"

static const struct verdict_input clean = {
	.end = BOOT_END_STOPPED,
	.any_output = true,
	.banner = true,
	.init_started = true,
	.powered_off = true,
	.last_milestone = "POWER_OFF",
	.agent_done = true,
	.expect_agent = true,
	.timeout_s = 300,
};

/* What a record's verdict name says of the boot: each name of the enum,
 * the record-only RUNNING, none. */
static void test_verdict_names(void **state)
{
	static const struct {
		const char *v;
		bool cut, kernel;
	} t[] = {
		{ "BOOTED", false, true },   { "PANIC", false, true },
		{ "PROBLEMS", false, true }, { "HUNG", false, true },
		{ "CRASHED", false, true },  { "INFRA", false, false },
		{ "INCOMPLETE", true, false }, { VERDICT_RUNNING_NAME, true, false },
		{ NULL, true, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (verdict_name_cut(t[i].v) != t[i].cut ||
		    verdict_name_kernel(t[i].v) != t[i].kernel)
			fail_msg("%s: cut %d kernel %d", t[i].v ? t[i].v : "(none)",
				 verdict_name_cut(t[i].v),
				 verdict_name_kernel(t[i].v));
	}
	/* the enum has no name the table leaves out */
	for (int v = 0; v <= VERDICT_INCOMPLETE; v++) {
		bool found = false;

		for (size_t i = 0; i + 1 < sizeof(t) / sizeof(t[0]); i++)
			found |= !strcmp(t[i].v, boot_verdict_name(v));
		assert_true(found);
	}
}

static void test_booted(void **state)
{
	struct verdict v;

	verdict_decide(&clean, &v);
	assert_int_equal(v.verdict, VERDICT_BOOTED);
	assert_string_equal(boot_verdict_name(v.verdict), "BOOTED");
}

static void test_panic_outranks_end(void **state)
{
	const struct verdict_problem p[] = {
		{ "WARNING", "WARNING in foo", "WARNING: CPU: 0 PID: 1 at foo" },
		{ "PANIC", "kernel panic: sysrq triggered crash",
		  "Kernel panic - not syncing: sysrq triggered crash" },
	};
	struct verdict_input in = clean;
	struct verdict v;

	in.problems = p;
	in.n_problems = 2;
	for (int e = BOOT_END_STOPPED; e <= BOOT_END_INFRA; e++) {
		in.end = (enum boot_end)e;
		verdict_decide(&in, &v);
		assert_int_equal(v.verdict, VERDICT_PANIC);
		/* a panic's reason is the kernel's own line */
		assert_string_equal(v.reason, p[1].header);
	}
	in.end = BOOT_END_INTERRUPTED;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_INCOMPLETE);
}

static void test_pvpanic_without_message(void **state)
{
	struct verdict_input in = clean;
	struct verdict v;

	in.end = BOOT_END_PANIC_EVENT;
	in.last_milestone = "INIT_STARTED";
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_PANIC);
	assert_non_null(strstr(v.reason, "INIT_STARTED"));
}

static void test_problems_and_allow(void **state)
{
	const struct verdict_problem p[] = {
		{ "WARNING", "WARNING in lkdtm_WARNING",
		  "WARNING: CPU: 1 PID: 77 at lkdtm_WARNING+0x8/0xb" },
		{ "UBSAN", "UBSAN: array-index-out-of-bounds in lkdtm_ARRAY_BOUNDS",
		  "UBSAN: array-index-out-of-bounds in x.c:3:4" },
	};
	const char *const allow_warn[] = { "warn" };
	const char *const allow_both[] = { "WARN", "ubsan" };
	const char *const allow_all[] = { "all" };
	struct verdict_input in = clean;
	struct verdict v;

	in.problems = p;
	in.n_problems = 2;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_PROBLEMS);
	assert_int_equal(v.n_failing_problems, 2);
	assert_non_null(strstr(v.reason, "2 kernel problems"));
	/* other problems are named by their title, not their first line */
	assert_non_null(strstr(v.reason, "first: WARNING in lkdtm_WARNING"));
	assert_null(strstr(v.reason, "PID"));

	in.allowed = allow_warn;
	in.n_allowed = 1;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_PROBLEMS);
	assert_int_equal(v.n_failing_problems, 1);
	assert_non_null(strstr(v.reason, "UBSAN"));

	in.allowed = allow_both;
	in.n_allowed = 2;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_BOOTED);

	in.allowed = allow_all;
	in.n_allowed = 1;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_BOOTED);
	assert_false(verdict_kind_allowed("PANIC", allow_all, 1));
}

static void test_hung(void **state)
{
	struct verdict_input in = clean;
	struct verdict v;

	in.end = BOOT_END_TIMEOUT;
	in.powered_off = false;
	in.agent_done = false;
	in.last_milestone = "KTAP_START";
	in.timeout_s = 42;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_HUNG);
	assert_string_equal(v.reason,
			    "no end within 42s; last milestone: KTAP_START");

	in.any_output = false;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_HUNG);
	assert_string_equal(v.reason, "no console output in 42s");
}

static void test_crashed(void **state)
{
	struct verdict_input in = clean;
	struct verdict v;

	/* Reset without any message (triple fault). */
	in.powered_off = false;
	in.agent_done = false;
	in.last_milestone = "KERNEL_BANNER";
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_CRASHED);
	assert_non_null(strstr(v.reason, "KERNEL_BANNER"));

	/* Powered off, but the agent never finished. */
	in = clean;
	in.agent_done = false;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_CRASHED);
	assert_non_null(strstr(v.reason, "before the agent finished"));

	/* A kernel without ACPI: the agent finished, said it ends by a
	 * reboot, and the kernel restarted: a clean end. */
	in = clean;
	in.powered_off = false;
	in.rebooted = true;
	in.agent_reboots = true;
	in.last_milestone = "REBOOT";
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_BOOTED);
	assert_string_equal(v.reason,
			    "init ran, agent finished, clean reboot (no ACPI)");
	/* The same reboot unannounced is a crash... */
	in.agent_reboots = false;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_CRASHED);
	assert_string_equal(v.reason,
			    "the guest rebooted after the agent finished, "
			    "which announced no reboot (no power-off); "
			    "last milestone: REBOOT");
	/* ...and so is an announced one before the agent's end. */
	in.agent_reboots = true;
	in.agent_done = false;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_CRASHED);
	assert_non_null(strstr(v.reason, "rebooted before it finished"));
	/* A problem on the way out still counts. */
	in = clean;
	in.powered_off = false;
	in.rebooted = true;
	in.agent_reboots = true;
	in.problems = &(struct verdict_problem){ .kind = "WARNING",
						 .title = "WARNING in x" };
	in.n_problems = 1;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_PROBLEMS);
	in = clean;
	in.agent_done = false;

	/* Without an agent a clean power-off is enough. */
	in.expect_agent = false;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_BOOTED);

	in = clean;
	in.end = BOOT_END_QEMU_FAILED;
	in.end_reason = "QEMU was killed";
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_INFRA);
	assert_non_null(strstr(v.reason, "QEMU was killed"));

	in = clean;
	in.any_output = false;
	in.powered_off = false;
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_CRASHED);
	assert_non_null(strstr(v.reason, "without any console output"));
}

static void test_infra(void **state)
{
	struct verdict_input in = clean;
	struct verdict v;

	in.end = BOOT_END_INFRA;
	in.end_reason = "libvirtd closed the connection (stopped?)";
	verdict_decide(&in, &v);
	assert_int_equal(v.verdict, VERDICT_INFRA);
	assert_string_equal(v.reason, in.end_reason);
}

static void test_names(void **state)
{
	enum boot_verdict v;

	assert_int_equal(boot_verdict_from_string("hung", &v), 0);
	assert_int_equal(v, VERDICT_HUNG);
	assert_int_equal(boot_verdict_from_string("nope", &v), -EINVAL);
	assert_string_equal(boot_verdict_name((enum boot_verdict)99),
			    "UNKNOWN");
	assert_string_equal(boot_end_name(BOOT_END_TIMEOUT), "timeout");
}

static bool enabled_in(const char *name, void *ud)
{
	for (const char *const *p = ud; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

static void test_timeout_scaling(void **state)
{
	const char *const none[] = { NULL };
	const char *const two[] = { "UBSAN", "KFENCE", "EXT4_FS", NULL };
	const char *const many[] = { "UBSAN", "KFENCE", "KASAN", "LOCKDEP",
				     "PROVE_LOCKING", NULL };
	unsigned n;

	assert_int_equal(verdict_boot_timeout(false, NULL, NULL, &n), 300);
	assert_int_equal(n, 0);
	assert_int_equal(verdict_boot_timeout(true, enabled_in, (void *)none,
					      &n), 90);
	assert_int_equal(verdict_boot_timeout(false, enabled_in, (void *)two,
					      &n), 675);
	assert_int_equal(n, 2);
	assert_int_equal(verdict_boot_timeout(false, enabled_in, (void *)many,
					      &n), 1200);
	assert_int_equal(n, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_booted),
		cmocka_unit_test(test_panic_outranks_end),
		cmocka_unit_test(test_pvpanic_without_message),
		cmocka_unit_test(test_problems_and_allow),
		cmocka_unit_test(test_hung),
		cmocka_unit_test(test_crashed),
		cmocka_unit_test(test_infra),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_timeout_scaling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
