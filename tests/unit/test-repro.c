// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/repro: shell quoting, the exact text (tests/matrix/run-bisect.sh
 * runs a recorded reproducer through sh) and the one-candidate command
 * line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "core/repro.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

static void quoted(const char *in, const char *want)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	repro_quote(&sb, in);
	assert_string_equal(sb.buf, want);
}

static void test_quote(void **state)
{
	/* plain words stay as they are */
	quoted("tinyconfig+kvm_guest.config", "tinyconfig+kvm_guest.config");
	quoted("/var/cache/bootproof/src/linux-6.12", "/var/cache/bootproof/src/linux-6.12");
	quoted("--arch=x86_64,i386@%:", "--arch=x86_64,i386@%:");
	/* anything a shell would touch is single-quoted */
	quoted("", "''");
	quoted("/home/me/my groups/a.config", "'/home/me/my groups/a.config'");
	quoted("a;rm -rf /", "'a;rm -rf /'");
	quoted("$(reboot)`id`", "'$(reboot)`id`'");
	quoted("~/x", "'~/x'");
	quoted("*.config", "'*.config'");
	quoted("a\"b\\c", "'a\"b\\c'");
	quoted("two\nlines\t", "'two\nlines\t'");
	quoted("!x&y|z<w>v(u)", "'!x&y|z<w>v(u)'");
	/* a single quote closes, escapes and reopens */
	quoted("it's", "'it'\\''s'");
	quoted("'", "''\\'''");
	/* bytes past ASCII are quoted, never changed */
	quoted("gr\xc3\xbcn", "'gr\xc3\xbcn'");
}

static void test_command(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const char *bg[] = { "/src/scenarios/groups/x86_64/demo-base.config" };
	const char *gs[] = { "/tmp/my dir/it's.config", "/tmp/b$x.config" };
	struct repro_run r = {
		.plan = "/src/scenarios/plans/test-fail.plan",
		.arch = "x86_64",
		.base = "tinyconfig+kvm_guest.config",
		.base_groups = bg, .n_base_groups = 1,
		.groups = gs, .n_groups = 2,
		.candidates = "all",
		.accel = "tcg",
		.ksrc = "/var/cache/bootproof/src/linux source",
	};

	repro_command(&r, &sb);
	assert_string_equal(sb.buf,
		"bootproof run /src/scenarios/plans/test-fail.plan "
		"--arch x86_64 --base tinyconfig+kvm_guest.config "
		"--base-group /src/scenarios/groups/x86_64/demo-base.config "
		"--group '/tmp/my dir/it'\\''s.config' "
		"--group '/tmp/b$x.config' --candidates all --accel tcg "
		"--ksrc '/var/cache/bootproof/src/linux source'");

	/* the base alone: no group, defaults left out */
	strbuf_reset(&sb);
	r.plan = "-odd.plan";
	r.n_base_groups = r.n_groups = 0;
	r.candidates = "base";
	r.accel = r.ksrc = NULL;
	r.base = "/configs/my base.config";
	repro_command(&r, &sb);
	assert_string_equal(sb.buf,
		"bootproof run ./-odd.plan --arch x86_64 "
		"--base '/configs/my base.config' --candidates base");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
