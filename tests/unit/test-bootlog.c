// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console -> KTAP -> verdict chain (core/bootlog) and its two callers.
 *
 * Boot and triage must judge a console log the same way.  For every golden
 * log in tests/data/console/ and tests/data/boot/ (real recordings, see
 * the README.md there), this runs
 *   - the boot path: engine/boot's boot_run with the fake domain ops
 *     (tests/unit/support/fake_domain.c) replaying the log in 977-byte
 *     chunks, the guest then shutting off when the log shows a power-off,
 *     halt or reboot, else running on until a 1 s timeout (so that both
 *     sides have the same end: a recorded log that just stops counts as
 *     a timeout);
 *   - the triage path: `bootproof triage --json LOG` (verb_triage, its
 *     stdout captured), which reads the file 64 KiB at a time;
 * and asserts the same verdict (and, for a guest that stopped, the same
 * reason), the same problems (kind, signature, line), the same milestones
 * and the same KTAP result.  Whatever either side does differently with
 * the parsers (feeding the kernel's timestamped lines to KTAP, other KTAP
 * limits, another verdict input) shows up here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bootproof.h"
#include "boot_fixture.h"
#include "core/bootlog.h"
#include "core/recjson.h"
#include "engine/boot.h"
#include "fake_domain.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

static struct boot_fixture fx;

static int setup(void **state)
{
	return boot_fixture_setup(&fx, "bootlog");
}

static int teardown(void **state)
{
	boot_fixture_teardown(&fx);
	return 0;
}

/* `bootproof triage --json path`: its exit code, *ret its one log. */
static int triage_json(const char *path, json_object **ret)
{
	_cleanup_free_ char *out = path_join(fx.dir, "triage.json");
	char *argv[] = { "triage", "--json", (char *)path, NULL };
	json_object *root;
	int fd, saved, rc;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	close(fd);
	rc = verb_triage(3, argv);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	root = json_object_from_file(out);
	assert_non_null(root);
	assert_int_equal(jsonx_len(root, "logs"), 1);
	*ret = json_object_get(jsonx_at(root, "logs", 0));
	json_object_put(root);
	return rc;
}

static bool milestone_seen(json_object *log, const char *name)
{
	for (size_t i = 0; i < jsonx_len(log, "milestones"); i++)
		if (!strcmp(jsonx_str(jsonx_at(log, "milestones", i), "name"),
			    name))
			return true;
	return false;
}

static const char *json_text(json_object *o)
{
	return o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)
		 : "null";
}

static void same_member(const char *log, json_object *boot, json_object *tri,
			const char *key)
{
	_cleanup_free_ char *b = strdup(json_text(jsonx_get(boot, key)));

	if (strcmp(b, json_text(jsonx_get(tri, key))))
		fail_msg("%s: %s differs: boot %s, triage %s", log, key, b,
			 json_text(jsonx_get(tri, key)));
}

static void same_problems(const char *log, json_object *boot, json_object *tri)
{
	static const char *const keys[] = { "kind", "signature", "line" };
	size_t n = jsonx_len(tri, "problems");

	if (jsonx_len(boot, "problems") != n)
		fail_msg("%s: boot found %zu problems, triage %zu", log,
			 jsonx_len(boot, "problems"), n);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
			const char *b = jsonx_text(jsonx_at(boot, "problems", i),
						   keys[k]);
			const char *t = jsonx_text(jsonx_at(tri, "problems", i),
						   keys[k]);
			if (!b || !t || strcmp(b, t))
				fail_msg("%s: problem %zu %s: boot %s, triage %s",
					 log, i + 1, keys[k], b ? b : "-",
					 t ? t : "-");
		}
}

/* Triage shows no "ktap" when the log had none; boot's record always
 * has one. */
static void same_ktap(const char *log, json_object *boot, json_object *tri)
{
	json_object *bk = jsonx_get(boot, "ktap"), *tk = jsonx_get(tri, "ktap");
	_cleanup_free_ char *b = strdup(json_text(bk));

	if (!tk) {
		if (strcmp(jsonx_text(bk, "documents"), "0"))
			fail_msg("%s: boot read KTAP, triage none: %s", log, b);
		return;
	}
	if (strcmp(b, json_text(tk)))
		fail_msg("%s: KTAP differs:\n boot   %s\n triage %s", log, b,
			 json_text(tk));
}

static void compare_one(const char *dir, const char *name)
{
	_cleanup_free_ char *d = path_join(TEST_DATA, dir);
	_cleanup_free_ char *path = path_join(d, name);
	struct fake_domain f = { .log = path };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-bootlog");
	struct boot_outcome o;
	json_object *tri = NULL;
	const char *ks;
	int rc = triage_json(path, &tri);

	assert_true(rc == BP_EXIT_OK || rc == BP_EXIT_FAIL);
	if (milestone_seen(tri, "POWER_OFF") || milestone_seen(tri, "HALT") ||
	    milestone_seen(tri, "REBOOT")) {
		f.end = GUEST_SHUTOFF;
	} else {
		f.end = GUEST_RUNNING;
		r.timeout_s = 1;
	}
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_true(f.bytes > 0);
	same_member(name, o.record, tri, "verdict");
	if (f.end == GUEST_SHUTOFF)
		same_member(name, o.record, tri, "reason");
	same_member(name, o.record, tri, "last_milestone");
	same_member(name, o.record, tri, "milestones");
	same_problems(name, o.record, tri);
	same_ktap(name, o.record, tri);
	/* Triage's exit code follows the same verdict and KTAP result. */
	ks = jsonx_str(jsonx_get(tri, "ktap"), "status");
	assert_int_equal(rc, o.verdict == VERDICT_BOOTED &&
				     (!ks || !strcmp(ks, "pass") ||
				      !strcmp(ks, "skip"))
			     ? BP_EXIT_OK
			     : BP_EXIT_FAIL);
	json_object_put(o.record);
	json_object_put(tri);
	free(f.xml);
}

static size_t compare_dir(const char *dir)
{
	_cleanup_free_ char *d = path_join(TEST_DATA, dir);
	struct dirent **ents;
	int n = scandir(d, &ents, NULL, alphasort);
	size_t done = 0;

	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(ents[i]->d_name);

		if (len > 4 && !strcmp(ents[i]->d_name + len - 4, ".log")) {
			compare_one(dir, ents[i]->d_name);
			done++;
		}
		free(ents[i]);
	}
	free(ents);
	return done;
}

static void test_golden_console_logs(void **state)
{
	assert_true(compare_dir("console") >= 30);
}

static void test_golden_boot_logs(void **state)
{
	assert_true(compare_dir("boot") >= 4);
}

/*
 * The rule itself: a line with a printk timestamp is the kernel's, never
 * KTAP, however it is chunked; the agent's lines are.
 */
static void test_kernel_ktap_not_counted(void **state)
{
	static const char log[] =
		"[    1.000000] Linux version 6.12.0 (x@y) #1\r\n"
		"[    2.000000] KTAP version 1\r\n"
		"[    2.000001] 1..1\r\n"
		"[    2.000002] not ok 1 kernel_suite\r\n"
		"KTAP version 1\r\n"
		"1..1\r\n"
		"ok 1 boot\r\n"
		"# bootproof-agent: done\r\n"
		"[    3.000000] reboot: Power down\r\n";
	_cleanup_bootlog_ struct bootlog *b = bootlog_new(NULL, NULL);
	const struct ktap_test *root;
	struct ktap_totals tot;
	struct verdict_problem vp[CONSOLE_MAX_PROBLEMS];
	struct verdict_input in;
	struct bootlog_context ctx = { .expect_agent = true };

	assert_non_null(b);
	for (size_t i = 0; i < sizeof(log) - 1; i += 7)
		assert_int_equal(bootlog_feed(b, log + i,
					      sizeof(log) - 1 - i < 7
						      ? sizeof(log) - 1 - i
						      : 7),
				 0);
	assert_int_equal(bootlog_finish(b), 0);
	root = ktap_root(bootlog_ktap(b));
	assert_int_equal(ktap_get_stats(bootlog_ktap(b))->documents, 1);
	assert_int_equal(root->n_children, 1);
	assert_string_equal(root->children[0]->name, "boot");
	assert_false(bootlog_ktap_failed(b, &tot));
	assert_int_equal(tot.passed, 1);
	assert_true(bootlog_agent_said_done(b));
	assert_true(bootlog_is_console(b));
	assert_int_equal(bootlog_recorded_end(b), BOOT_END_STOPPED);
	ctx.end = bootlog_recorded_end(b);
	bootlog_verdict_input(b, &ctx, vp, &in);
	assert_true(in.banner && in.powered_off && in.agent_done);
	assert_false(in.init_started);
	assert_string_equal(in.last_milestone, "POWER_OFF");
}

/* A "done" line the kernel printed does not finish the agent. */
static void test_kernel_done_line_ignored(void **state)
{
	static const char log[] = "[    1.000000] # bootproof-agent: done\n"
				  "some text\n";
	_cleanup_bootlog_ struct bootlog *b = bootlog_new(NULL, NULL);

	assert_int_equal(bootlog_feed(b, log, sizeof(log) - 1), 0);
	assert_int_equal(bootlog_finish(b), 0);
	assert_false(bootlog_agent_said_done(b));
	assert_int_equal(bootlog_recorded_end(b), BOOT_END_TIMEOUT);
	assert_true(bootlog_is_console(b)); /* a printk timestamp */
	assert_int_equal(bootlog_feed(b, "x", 1), -EINVAL);
}

/* The kernel's Memory: line (a real one, tests/data/console/
 * arm64-boot.log) and the agent's MemAvailable note; the first of each
 * counts, a kernel line quoting the note and malformed ones do not. */
static void test_memory(void **state)
{
	static const char log[] =
		"[    0.158525] Memory: 246712K/262144K available (3520K kernel "
		"code, 728K rwdata, 1108K rodata, 384K init, 387K bss, 14440K "
		"reserved, 0K cma-reserved)\n"
		"[    0.200000] Memory: 1K/2K available\n"
		"[    1.000000] # bootproof-agent: memavailable: 5 kB\n"
		"# bootproof-agent: memavailable: 212340 kB\r\n"
		"# bootproof-agent: memavailable: 7 kB\n";
	static const char bad[] =
		"[    0.1] Memory: 12K/x available\n"
		"[    0.2] Memory: 12K/13K free\n"
		"Memory: 246712K/262144K available\n"	/* no timestamp: not the kernel's */
		"# bootproof-agent: memavailable: 12 MB\n"
		"# bootproof-agent: memavailable: kB\n";
	_cleanup_bootlog_ struct bootlog *b = bootlog_new(NULL, NULL);
	_cleanup_bootlog_ struct bootlog *x = bootlog_new(NULL, NULL);
	const struct bootlog_memory *m;

	assert_int_equal(bootlog_feed(b, log, sizeof(log) - 1), 0);
	assert_int_equal(bootlog_finish(b), 0);
	m = bootlog_memory(b);
	assert_int_equal(m->kernel_available_kb, 246712);
	assert_int_equal(m->kernel_total_kb, 262144);
	assert_int_equal(m->agent_memavailable_kb, 212340);
	assert_int_equal(bootlog_feed(x, bad, sizeof(bad) - 1), 0);
	assert_int_equal(bootlog_finish(x), 0);
	m = bootlog_memory(x);
	assert_int_equal(m->kernel_available_kb, -1);
	assert_int_equal(m->kernel_total_kb, -1);
	assert_int_equal(m->agent_memavailable_kb, -1);
}

/* The agent's kmemleak and lockdep notes, the kernel's lines ignored. */
static void test_debug_notes(void **state)
{
	static const char log[] =
		"# bootproof-agent: kmemleak: leaks 3\r\n"
		"# bootproof-agent: lockdep: off (debug_locks 0: it stopped)\n"
		"[    1.000000] # bootproof-agent: kmemleak: leaks 9\n"
		"[    1.000001] # bootproof-agent: lockdep: on\n"
		"[    1.000002] INFO: lockdep is turned off.\n";
	static const char failed[] =
		"# bootproof-agent: kmemleak: no scan: EBUSY (disabled)\n"
		"# bootproof-agent: lockdep: on\n";
	_cleanup_bootlog_ struct bootlog *b = bootlog_new(NULL, NULL);
	_cleanup_bootlog_ struct bootlog *f = bootlog_new(NULL, NULL);
	_cleanup_bootlog_ struct bootlog *none = bootlog_new(NULL, NULL);
	const struct bootlog_debug *d;
	json_object *j, *k;

	assert_int_equal(bootlog_feed(b, log, sizeof(log) - 1), 0);
	assert_int_equal(bootlog_finish(b), 0);
	d = bootlog_debug(b);
	assert_true(d->kmemleak_scanned);
	assert_int_equal(d->kmemleak_leaks, 3);
	assert_string_equal(d->kmemleak_no_scan, "");
	assert_int_equal(d->lockdep, BOOTLOG_LOCKDEP_OFF);
	assert_string_equal(bootlog_lockdep_name(d->lockdep), "off");
	j = recjson_debug(b);
	assert_string_equal(jsonx_str(j, "lockdep"), "off");
	assert_int_equal(json_object_get_int(jsonx_get(j, "lockdep_off_line")),
			 5);
	k = jsonx_get(j, "kmemleak");
	assert_int_equal(json_object_get_int(jsonx_get(k, "leaks")), 3);
	assert_int_equal(json_object_get_int(jsonx_get(k, "reported")), 0);
	json_object_put(j);

	assert_int_equal(bootlog_feed(f, failed, sizeof(failed) - 1), 0);
	assert_int_equal(bootlog_finish(f), 0);
	d = bootlog_debug(f);
	assert_false(d->kmemleak_scanned);
	assert_string_equal(d->kmemleak_no_scan, "EBUSY (disabled)");
	assert_int_equal(d->lockdep, BOOTLOG_LOCKDEP_ON);

	assert_int_equal(bootlog_finish(none), 0);
	d = bootlog_debug(none);
	assert_false(d->kmemleak_scanned);
	assert_int_equal(d->lockdep, BOOTLOG_LOCKDEP_UNKNOWN);
	assert_null(bootlog_lockdep_name(d->lockdep));
	j = recjson_debug(none);
	assert_null(jsonx_get(j, "lockdep_off_line"));
	assert_null(jsonx_get(j, "kmemleak"));
	json_object_put(j);
}

/* The agent's debug notes as a real debug kernel printed them
 * (tests/data/console/x86_64-dbg-agent.log: the kernel's kmemleak test
 * module and a lockdep splat before the agent ran as init): the agent's
 * count of leaks equals the kmemleak reports the console found, and
 * lockdep is off after its report. */
static void test_debug_notes_recorded(void **state)
{
	_cleanup_free_ char *d = path_join(TEST_DATA, "console");
	_cleanup_free_ char *path = path_join(d, "x86_64-dbg-agent.log");
	_cleanup_bootlog_ struct bootlog *b = bootlog_new(NULL, NULL);
	const struct bootlog_debug *dbg;
	const struct console *c;
	unsigned leaks = 0, lockdep = 0;
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		assert_int_equal(bootlog_feed(b, buf, n), 0);
	fclose(f);
	assert_int_equal(bootlog_finish(b), 0);
	dbg = bootlog_debug(b);
	assert_true(dbg->kmemleak_scanned);
	assert_int_equal(dbg->kmemleak_leaks, 13);
	assert_int_equal(dbg->lockdep, BOOTLOG_LOCKDEP_OFF);
	c = bootlog_console(b);
	for (size_t i = 0; i < console_n_problems(c); i++) {
		const struct console_problem *p = console_problem(c, i);

		leaks += p->kind == CONSOLE_KMEMLEAK;
		lockdep += p->kind == CONSOLE_LOCKDEP;
	}
	assert_int_equal(leaks, dbg->kmemleak_leaks);
	assert_int_equal(lockdep, 1);
	assert_true(bootlog_agent_said_done(b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_ktap_not_counted),
		cmocka_unit_test(test_kernel_done_line_ignored),
		cmocka_unit_test(test_debug_notes),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_debug_notes_recorded),
		cmocka_unit_test_setup_teardown(test_golden_console_logs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_golden_boot_logs, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
