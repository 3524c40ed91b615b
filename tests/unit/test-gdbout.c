// SPDX-License-Identifier: GPL-2.0-or-later
/* gdbout on real gdb transcripts (tests/data/gdb/, see its README). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gdbout.h"
#include "util/strbuf.h"

#define BANNER_612 "Linux version 6.12.118 (root@vm) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 Thu Dec  3 09:27:02 UTC 2026"

static void load(struct strbuf *sb, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/gdb/%s", TEST_DATA, name);
	assert_true(strbuf_read_file(sb, p, 0) > 0);
}

static void test_real_session(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct gdbout g;
	struct kgdb_check c;

	load(&sb, "kgdb-6.12-x86_64-nodebuginfo.txt");
	gdbout_parse(sb.buf, sb.len, &g);
	assert_true(g.connected);
	assert_true(g.detached);
	assert_true(g.n_frames >= 2);
	assert_string_equal(g.frames[0], "kgdb_breakpoint");
	assert_string_equal(g.frames[1], "__handle_sysrq");
	assert_true(g.have_banner);
	assert_string_equal(g.banner, BANNER_612);
	assert_true(kgdb_check_judge(&g, BANNER_612 "  \r\n", &c));
	assert_string_equal(c.reason, "");
	assert_true(c.stop_in_kgdb && c.via_sysrq && c.banner_matches);
}

/* The same session judged against another kernel's banner. */
static void test_banner_mismatch(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct gdbout g;
	struct kgdb_check c;

	load(&sb, "kgdb-6.12-x86_64-nodebuginfo.txt");
	gdbout_parse(sb.buf, sb.len, &g);
	assert_false(kgdb_check_judge(&g, "Linux version 6.1.0-57-amd64 (x)", &c));
	assert_false(c.banner_matches);
	assert_non_null(strstr(c.reason, "differs from the console's"));
	assert_false(kgdb_check_judge(&g, NULL, &c));
}

/* Variants of the real transcript with one part missing. */
static void test_missing_parts(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct gdbout g;
	struct kgdb_check c;
	char *p;

	load(&sb, "kgdb-6.12-x86_64-nodebuginfo.txt");
	/* No sysrq frame: a stop that did not come from sysrq-g. */
	p = strstr(sb.buf, "__handle_sysrq");
	assert_non_null(p);
	memcpy(p, "do_idle_loop__", 14);
	gdbout_parse(sb.buf, sb.len, &g);
	assert_false(kgdb_check_judge(&g, BANNER_612, &c));
	assert_false(c.via_sysrq);
	assert_non_null(strstr(c.reason, "sysrq"));

	/* Not detached. */
	strbuf_reset(&sb);
	load(&sb, "kgdb-6.12-x86_64-nodebuginfo.txt");
	p = strstr(sb.buf, "[Inferior 1");
	assert_non_null(p);
	strbuf_setlen(&sb, (size_t)(p - sb.buf));
	gdbout_parse(sb.buf, sb.len, &g);
	assert_false(kgdb_check_judge(&g, BANNER_612, &c));
	assert_non_null(strstr(c.reason, "detach"));
}

static void test_no_connection(void **state)
{
	const char *t = "127.0.0.1:1: Connection refused.\n"
			"No stack.\n"
			"No symbol table is loaded.\n";
	struct gdbout g;
	struct kgdb_check c;

	gdbout_parse(t, strlen(t), &g);
	assert_false(g.connected);
	assert_int_equal(g.n_frames, 0);
	assert_false(kgdb_check_judge(&g, BANNER_612, &c));
	assert_non_null(strstr(c.reason, "could not connect"));
	gdbout_parse("", 0, &g);
	assert_false(g.connected);
}

/* With debug info gdb prints arguments and sources; names still come out,
 * and escapes in the banner are undone. */
static void test_debuginfo_format(void **state)
{
	const char *t =
		"Remote debugging using 127.0.0.1:4000\n"
		"#0  kgdb_breakpoint () at kernel/debug/debug_core.c:1222\n"
		"#1  0xffffffff8113a in sysrq_handle_dbg (key=<optimized out>) at kernel/debug/debug_core.c:980\n"
		"#2  0xffffffff81234 in __handle_sysrq (key=103, check_mask=false) at drivers/tty/sysrq.c:612\n"
		"0xffffffff82000100 <linux_banner>:\t\"Linux version 6.12 \\\"q\\\" \\\\x\\n\"\n"
		"Detaching from program: vmlinux, Remote target\n";
	struct gdbout g;

	gdbout_parse(t, strlen(t), &g);
	assert_int_equal(g.n_frames, 3);
	assert_string_equal(g.frames[1], "sysrq_handle_dbg");
	assert_string_equal(g.frames[2], "__handle_sysrq");
	assert_string_equal(g.banner, "Linux version 6.12 \"q\" \\x");
	assert_true(g.detached);
}

/* The same with DWARF: arguments, sources, inlined frames without an
 * address. */
static void test_real_session_debuginfo(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct gdbout g;

	load(&sb, "kgdb-6.12-x86_64-debuginfo.txt");
	gdbout_parse(sb.buf, sb.len, &g);
	assert_true(g.connected);
	assert_true(g.detached);
	assert_string_equal(g.frames[0], "kgdb_breakpoint");
	assert_string_equal(g.frames[1], "__handle_sysrq");
	assert_string_equal(g.frames[2], "write_sysrq_trigger");
	assert_string_equal(g.frames[3], "pde_write");
	assert_string_equal(g.frames[4], "proc_reg_write");
	assert_true(g.have_banner);
	assert_non_null(strstr(g.banner, "Linux version 6.12.118"));
}

/* i386 with DWARF: a 32-bit SMP guest, entered through SYSENTER; judged
 * against the banner the console printed (the same as gdb read back). */
static void test_real_session_i386(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct kgdb_check c;
	struct gdbout g;

	load(&sb, "kgdb-6.12-i386-debuginfo.txt");
	gdbout_parse(sb.buf, sb.len, &g);
	assert_true(g.connected);
	assert_true(g.detached);
	assert_string_equal(g.frames[0], "kgdb_breakpoint");
	assert_string_equal(g.frames[1], "__handle_sysrq");
	assert_string_equal(g.frames[7], "do_syscall_32_irqs_on");
	assert_string_equal(g.frames[10], "entry_SYSENTER_32");
	assert_true(g.have_banner);
	assert_true(kgdb_check_judge(&g, g.banner, &c));
	assert_true(c.stop_in_kgdb && c.via_sysrq && c.banner_matches);
	assert_false(kgdb_check_judge(&g, BANNER_612, &c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_session),
		cmocka_unit_test(test_real_session_debuginfo),
		cmocka_unit_test(test_real_session_i386),
		cmocka_unit_test(test_banner_mismatch),
		cmocka_unit_test(test_missing_parts),
		cmocka_unit_test(test_no_connection),
		cmocka_unit_test(test_debuginfo_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
