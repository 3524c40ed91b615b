// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/builderr.h"
#include "util/strbuf.h"

struct expect {
	const char *log;	/* tests/data/build/<log> */
	enum builderr_kind kind;
	const char *file_suffix; /* NULL: no file */
	unsigned line, col;
	size_t log_line;
	const char *text_part;
};

/* Real logs (README.md in tests/data/build says how each was recorded). */
static const struct expect logs[] = {
	{ "ld-undefined-g.log", BUILDERR_LINKER, "/kernel/undef.c", 4, 0, 3,
	  "undefined reference to `missing_symbol'" },
	{ "ld-undefined.log", BUILDERR_LINKER, "undef.c", 0, 0, 3,
	  "undef.c:(.text+0x5): undefined reference to `missing_symbol'" },
	{ "gcc-fatal-header.log", BUILDERR_COMPILER, "kernel/header.c", 1, 10, 2,
	  "fatal error: linux/not-there.h: No such file or directory" },
	{ "as-error.log", BUILDERR_COMPILER, "kernel/bad.S", 3, 0, 3,
	  "Error: number of operands mismatch for `movq'" },
	{ "gcc-driver.log", BUILDERR_TOOL, NULL, 0, 0, 1,
	  "gcc: error: unrecognized command-line option" },
	/* -j2: make's and cc1's lines around it, nine errors after it */
	{ "kernel-frame-warn.log", BUILDERR_COMPILER,
	  "/arch/x86/mm/pat/set_memory.c", 1450, 1, 34,
	  "error: the frame size of 32 bytes is larger than 16 bytes "
	  "[-Werror=frame-larger-than=]" },
};

static void test_recorded_logs(void **state)
{
	for (size_t i = 0; i < ELEMENTSOF(logs); i++) {
		const struct expect *x = &logs[i];
		_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf log = STRBUF_INIT;
		struct builderr e;

		strbuf_addf(&path, "%s/build/%s", TEST_DATA, x->log);
		if (strbuf_read_file(&log, path.buf, 0) < 0)
			fail_msg("%s: cannot read", path.buf);
		assert_int_equal(builderr_find(log.buf, log.len, &e), 1);
		if (e.kind != x->kind || !strstr(e.text, x->text_part))
			fail_msg("%s: got %s '%s'", x->log,
				 builderr_kind_name(e.kind), e.text);
		if (x->file_suffix) {
			size_t n = strlen(e.file), m = strlen(x->file_suffix);

			assert_true(n >= m);
			assert_string_equal(e.file + n - m, x->file_suffix);
			assert_int_equal(e.line, x->line);
			assert_int_equal(e.col, x->col);
		}
		if (x->log_line)
			assert_int_equal(e.log_line, x->log_line);
		/* the line as printed: the log has it */
		assert_non_null(strstr(log.buf, e.text));
		builderr_done(&e);
		assert_null(e.text);
	}
}

static void find(const char *log, struct builderr *e)
{
	assert_int_equal(builderr_find(log, strlen(log), e), 1);
}

/* A make line printed before the diagnostic (parallel make) does not
 * hide it; the first diagnostic wins over a later one. */
static void test_tiers(void **state)
{
	struct builderr e;

	find("  CC      a.o\n"
	     "make[2]: *** [scripts/Makefile.build:229: b.o] Error 1\n"
	     "cc1: some warnings being treated as errors\n"
	     "b.c:7:1: error: first\r\n"
	     "c.c:9:2: error: second\n",
	     &e);
	assert_int_equal(e.kind, BUILDERR_COMPILER);
	assert_string_equal(e.text, "b.c:7:1: error: first");
	assert_string_equal(e.file, "b.c");
	assert_int_equal(e.line, 7);
	assert_int_equal(e.col, 1);
	assert_int_equal(e.log_line, 4);
	builderr_done(&e);

	find("make[1]: *** No rule to make target 'x.bin', needed by 'y'.  "
	     "Stop.\nmake: *** [Makefile:2: all] Error 2\n",
	     &e);
	assert_int_equal(e.kind, BUILDERR_MAKE);
	assert_int_equal(e.log_line, 1);
	assert_null(e.file);
	builderr_done(&e);

	find("ERROR: modpost: \"foo\" [drivers/x.ko] undefined!\n"
	     "make[2]: *** [scripts/Makefile.modpost:145: Module.symvers] "
	     "Error 1\n",
	     &e);
	assert_int_equal(e.kind, BUILDERR_TOOL);
	assert_string_equal(e.text,
			    "ERROR: modpost: \"foo\" [drivers/x.ko] undefined!");
	builderr_done(&e);
}

static void test_linker_forms(void **state)
{
	struct builderr e;

	find("ld: vmlinux.o: in function `start':\n"
	     "ld.lld: error: undefined symbol: foo\n",
	     &e);
	assert_int_equal(e.kind, BUILDERR_LINKER);
	assert_int_equal(e.log_line, 2);
	builderr_done(&e);

	find("x86_64-linux-gnu-ld: cannot find -lfoo\n", &e);
	assert_int_equal(e.kind, BUILDERR_LINKER);
	builderr_done(&e);

	find("ld: a.o: in function `f':\n"
	     "a.c:(.text+0x1): multiple definition of `g'; b.o:b.c:(.text+0x0): "
	     "first defined here\n",
	     &e);
	assert_int_equal(e.kind, BUILDERR_LINKER);
	assert_string_equal(e.file, "a.c");
	assert_int_equal(e.line, 0);
	builderr_done(&e);
}

static void test_nothing(void **state)
{
	struct builderr e;
	const char *ok = "  CC      init/main.o\n  LD      vmlinux\n"
			 "warning: the frame size is fine\n"
			 "Kernel: arch/x86/boot/bzImage is ready  (#1)\n";

	assert_int_equal(builderr_find(ok, strlen(ok), &e), 0);
	assert_int_equal(e.kind, BUILDERR_NONE);
	assert_null(e.text);
	assert_int_equal(builderr_find("", 0, &e), 0);
	builderr_done(&e);
	/* a warning that mentions -Werror is not an error */
	find("a.c:1:2: warning: unused [-Werror=unused]\nb.c:3: error: x\n", &e);
	assert_int_equal(e.line, 3);
	builderr_done(&e);
	assert_string_equal(builderr_kind_name(BUILDERR_MAKE), "make");
	assert_string_equal(builderr_kind_name(BUILDERR_NONE), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_logs),
		cmocka_unit_test(test_tiers),
		cmocka_unit_test(test_linker_forms),
		cmocka_unit_test(test_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
