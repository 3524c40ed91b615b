// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/lavalog on logs recorded from real lava-run jobs (tests/data/lava/,
 * README.md there has the commands): each LAVA outcome maps to the
 * verdict docs/lava.md promises, and the console a job's log carries goes
 * through the console chain to the same KTAP results as the local boot of
 * the same kernel (all-local-console.log).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bootlog.h"
#include "core/lavalog.h"
#include "core/yamljson.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static void load(const char *name, struct strbuf *sb)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/lava/%s", TEST_DATA, name);
	assert_true(strbuf_read_file(sb, path, 64 << 20) > 0);
}

struct judged {
	struct lavalog l;
	struct bootlog *bl;
	enum boot_end end;
	char why[512];
	struct verdict v;
};

static void judge(const char *name, struct judged *j)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct bootlog_context ctx = { .expect_agent = true };

	load(name, &sb);
	j->bl = bootlog_new(NULL, NULL);
	assert_non_null(j->bl);
	assert_int_equal(lavalog_read(&j->l, sb.buf, sb.len, j->bl, &err), 0);
	bootlog_finish(j->bl);
	lavalog_end(&j->l, j->bl, &j->end, j->why, sizeof(j->why));
	ctx.end = j->end;
	ctx.end_reason = j->why;
	bootlog_decide(j->bl, &ctx, &j->v);
}

static void judged_done(struct judged *j)
{
	bootlog_free(j->bl);
	lavalog_done(&j->l);
}

static void expect(const char *name, enum boot_end end, enum boot_verdict v,
		   const char *reason_has)
{
	struct judged j;

	judge(name, &j);
	if (j.end != end || j.v.verdict != v)
		fail_msg("%s: end %s verdict %s (%s), want %s %s", name,
			 boot_end_name(j.end), boot_verdict_name(j.v.verdict),
			 j.v.reason, boot_end_name(end), boot_verdict_name(v));
	if (reason_has && !strstr(j.v.reason, reason_has) && !strstr(j.why, reason_has))
		fail_msg("%s: '%s' / '%s' lacks '%s'", name, j.v.reason, j.why,
			 reason_has);
	judged_done(&j);
}

static void test_outcomes(void **state)
{
	/* The job passed: the monitor saw the power-off. */
	expect("all-booted.log", BOOT_END_STOPPED, VERDICT_BOOTED, NULL);
	/* The same log as a LAVA server keeps it ("- " lines). */
	expect("all-booted.server.yaml", BOOT_END_STOPPED, VERDICT_BOOTED, NULL);
	/* sysrq-c: QEMU ended (-no-reboot), LAVA says Infrastructure
	 * "Connection closed": the panic decides. */
	expect("crash-panic.log", BOOT_END_STOPPED, VERDICT_PANIC,
	       "sysrq triggered crash");
	/* A 404 at LAVA's validation: nothing booted, never the kernel's. */
	expect("kernel-404.log", BOOT_END_INFRA, VERDICT_INFRA, "(404)");
	/* The agent hung: the monitor timed out. */
	expect("hang-timeout.log", BOOT_END_TIMEOUT, VERDICT_HUNG, NULL);
	/* A panic on a QEMU that did not end on it: LAVA timed out. */
	expect("panic-timeout.log", BOOT_END_TIMEOUT, VERDICT_PANIC,
	       "sysrq triggered crash");
	/* Cancelled mid-boot, no panic: no verdict of the kernel's. */
	expect("cancelled.log", BOOT_END_INTERRUPTED, VERDICT_INCOMPLETE,
	       "cancelled");
}

/* The root's tests and their children: "name=status;..." */
static void ktap_summary(const struct bootlog *bl, struct strbuf *sb)
{
	const struct ktap_test *root = ktap_root(bootlog_ktap(bl));

	for (size_t i = 0; i < root->n_children; i++) {
		const struct ktap_test *t = root->children[i];

		strbuf_addf(sb, "%s=%s(", t->name, ktap_status_name(t->status));
		for (size_t k = 0; k < t->n_children; k++)
			strbuf_addf(sb, "%s=%s,", t->children[k]->name,
				    ktap_status_name(t->children[k]->status));
		strbuf_addstr(sb, ");");
	}
}

static void test_same_as_local(void **state)
{
	_cleanup_strbuf_ struct strbuf local = STRBUF_INIT, a = STRBUF_INIT,
				       b = STRBUF_INIT;
	struct bootlog *bl = bootlog_new(NULL, NULL);
	struct bootlog_context ctx = { .expect_agent = true };
	struct verdict v;
	struct judged j;

	load("all-local-console.log", &local);
	assert_int_equal(bootlog_feed(bl, local.buf, local.len), 0);
	bootlog_finish(bl);
	ctx.end = bootlog_recorded_end(bl);
	bootlog_decide(bl, &ctx, &v);
	judge("all-booted.log", &j);
	assert_int_equal(v.verdict, j.v.verdict);
	ktap_summary(bl, &a);
	ktap_summary(j.bl, &b);
	assert_string_equal(a.buf, b.buf);
	assert_non_null(strstr(a.buf, "boot=pass(kernel=pass,"));
	assert_non_null(strstr(a.buf, "kgdb=skip("));
	/* The same banner, the same problems (none). */
	assert_string_equal(console_banner(bootlog_console(bl)),
			    console_banner(bootlog_console(j.bl)));
	assert_int_equal(console_n_problems(bootlog_console(j.bl)), 0);
	bootlog_free(bl);
	judged_done(&j);
}

static void test_records(void **state)
{
	_cleanup_strbuf_ struct strbuf job = STRBUF_INIT, srv = STRBUF_INIT;
	json_object *def = NULL, *img;
	struct judged j, s;
	size_t monitor = 0;
	char mbuf[16];

	judge("all-booted.log", &j);
	judge("all-booted.server.yaml", &s);
	/* One console, whichever form the log came in. */
	assert_int_equal(j.l.console.len, s.l.console.len);
	assert_memory_equal(j.l.console.buf, s.l.console.buf, j.l.console.len);
	assert_int_equal(j.l.not_records, 0);
	assert_string_equal(j.l.dispatcher, "2023.01");
	assert_false(lavalog_kvm(&j.l));
	/* Recorded when the job said -machine pc. */
	assert_string_equal(lavalog_machine(&j.l, mbuf, sizeof(mbuf)), "pc");
	assert_non_null(strstr(j.l.qemu_command, " -no-reboot "));
	assert_string_equal(j.l.job_result, "pass");
	assert_null(j.l.error_type);
	/* ShellLogger's \" undone: the kernel's own quotes. */
	assert_non_null(strstr(j.l.console.buf, "use \"pci=nocrs\" and report"));
	/* The times: QEMU started, then init, then the agent's end. */
	assert_true(j.l.t_first > 1.7e9);
	assert_true(j.l.t_qemu >= j.l.t_first);
	assert_true(j.l.t_init > j.l.t_qemu);
	assert_true(j.l.t_done > j.l.t_init);
	assert_true(j.l.t_last >= j.l.t_done);
	/* Every KTAP result line is one LAVA test case of the monitor. */
	for (size_t i = 0; i < json_object_array_length(j.l.cases); i++) {
		json_object *c = json_object_array_get_idx(j.l.cases, i);

		if (!strcmp(jsonx_str(c, "definition"), "bootproof"))
			monitor++;
	}
	assert_int_equal(monitor, 33);
	/* LAVA checked the kernel it downloaded: the job's sha256. */
	load("all-booted.job.yaml", &job);
	assert_int_equal(yamljson_parse(job.buf, job.len, &def, NULL), 0);
	img = json_object_array_get_idx(jsonx_get(def, "actions"), 0);
	img = jsonx_get(jsonx_get(jsonx_get(img, "deploy"), "images"), "kernel");
	assert_string_equal(lavalog_download_sha256(&j.l, "kernel"),
			    jsonx_str(img, "sha256sum"));
	assert_null(lavalog_download_sha256(&j.l, "ramdisk"));
	json_object_put(def);
	judged_done(&j);
	judged_done(&s);
}

static void test_not_a_log(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	static const char text[] = "Linux version 6.12\nnot a record\n{broken\n";
	struct lavalog l;

	assert_int_equal(lavalog_read(&l, text, strlen(text), NULL, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "not a LAVA job log"));
	lavalog_done(&l);
	/* A log cut before the job's result: the end is a timeout. */
	{
		static const char cut[] =
			"{\"dt\": \"2026-12-06T03:50:41.447069\", \"lvl\": "
			"\"target\", \"msg\": \"[    0.1] Linux version 6.12.118\"}\n"
			"garbage line\n";
		struct bootlog *bl = bootlog_new(NULL, NULL);
		enum boot_end end;
		char why[256];

		assert_int_equal(lavalog_read(&l, cut, strlen(cut), bl, NULL), 0);
		assert_int_equal(l.records, 1);
		assert_int_equal(l.not_records, 1);
		bootlog_finish(bl);
		lavalog_end(&l, bl, &end, why, sizeof(why));
		assert_int_equal(end, BOOT_END_TIMEOUT);
		assert_non_null(strstr(why, "log ends"));
		bootlog_free(bl);
		lavalog_done(&l);
	}
}

static void test_time(void **state)
{
	assert_true(lavalog_time("2026-12-06T03:50:34.045526") - 1796529034.045526 <
			    1e-6 &&
		    lavalog_time("2026-12-06T03:50:34.045526") - 1796529034.045526 >
			    -1e-6);
	assert_true(lavalog_time("2026-12-06T03:50:34") == 1796529034.0);
	assert_true(lavalog_time("yesterday") < 0);
	assert_true(lavalog_time(NULL) < 0);
}

/* The machine of a QEMU command: the last -machine, its type. */
static void test_machine(void **state)
{
	static const struct {
		const char *cmd, *want;
	} t[] = {
		{ "qemu-system-x86_64 -m 1024 -machine q35 -smp 2", "q35" },
		{ "qemu -machine pc,usb=off -smp 2", "pc" },
		{ "qemu -machine type=q35,accel=tcg", "q35" },
		{ "qemu -machine pc -machine q35", "q35" },
		{ "qemu -m 1024 -smp 2", NULL },
		{ "qemu -machine ", NULL },
		{ "qemu -machine pc-q35-7.2-a-very-long-machine-name", NULL },
		{ NULL, NULL },
	};
	char buf[16];

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct lavalog l = { .qemu_command = (char *)t[i].cmd };
		const char *got = lavalog_machine(&l, buf, sizeof(buf));

		if (t[i].want)
			assert_string_equal(got, t[i].want);
		else
			assert_null(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_same_as_local),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_not_a_log),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
