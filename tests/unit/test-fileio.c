// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"

static char dir[] = "/tmp/bp-test-fileio-XXXXXX";

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	return rm_rf(dir);
}

static int count_entries(const char *d)
{
	DIR *dd = opendir(d);
	struct dirent *de;
	int n = 0;

	while (dd && (de = readdir(dd)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	if (dd)
		closedir(dd);
	return n;
}

static void test_atomic_write_replaces(void **state)
{
	_cleanup_free_ char *p = path_join(dir, "run.json");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct stat st;

	assert_int_equal(write_file_atomic(p, "first", 5, 0644), 0);
	assert_int_equal(write_file_atomic(p, "second!", 7, 0600), 0);
	assert_true(strbuf_read_file(&sb, p, 0) == 7);
	assert_string_equal(sb.buf, "second!");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* No temporary file left behind. */
	assert_int_equal(count_entries(dir), 1);
}

static void test_failure_keeps_previous(void **state)
{
	_cleanup_free_ char *p = path_join(dir, "nodir/run.json");
	_cleanup_free_ char *sub = path_join(dir, "ro");
	_cleanup_free_ char *q = path_join(sub, "x");

	assert_int_equal(write_file_atomic(p, "x", 1, 0644), -ENOENT);
	/* A target that is a directory: rename fails, tmp removed. */
	assert_int_equal(mkdir_p(q, 0755), 0);
	assert_true(write_file_atomic(q, "x", 1, 0644) < 0);
	assert_int_equal(count_entries(sub), 1);
}

static void test_copy_and_rm(void **state)
{
	_cleanup_free_ char *a = path_join(dir, "a");
	_cleanup_free_ char *b = path_join(dir, "deep/er/b");
	_cleanup_free_ char *deep = path_join(dir, "deep");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char big[200000];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	assert_int_equal(write_file_atomic(a, big, sizeof(big), 0644), 0);
	assert_int_equal(mkdir_p(deep, 0755), 0);
	assert_int_equal(mkdir_p(deep, 0755), 0);
	_cleanup_free_ char *er = path_join(dir, "deep/er");
	assert_int_equal(mkdir_p(er, 0755), 0);
	assert_int_equal(copy_file_atomic(a, b, 0644), 0);
	assert_int_equal(strbuf_read_file(&sb, b, 0), sizeof(big));
	assert_memory_equal(sb.buf, big, sizeof(big));
	assert_int_equal(copy_file_atomic(dir, b, 0644), -EINVAL);
	assert_int_equal(copy_file_atomic("/nonexistent", b, 0644), -ENOENT);
	assert_int_equal(rm_rf(deep), 0);
	assert_int_equal(rm_rf(deep), 0);
	assert_int_equal(access(deep, F_OK), -1);
}

static void test_path_stem(void **state)
{
	_cleanup_free_ char *a = path_stem("scenarios/groups/x86_64/kvm-host.config",
					   ".config");
	_cleanup_free_ char *b = path_stem("demo.plan", ".plan");
	_cleanup_free_ char *c = path_stem("dir/.plan", ".plan");
	_cleanup_free_ char *d = path_stem("dir/notes.txt", ".plan");
	_cleanup_free_ char *e = path_stem("dir/", ".plan");

	assert_string_equal(a, "kvm-host");
	assert_string_equal(b, "demo");
	/* Nothing but the suffix: kept as it is. */
	assert_string_equal(c, ".plan");
	assert_string_equal(d, "notes.txt");
	assert_string_equal(e, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomic_write_replaces),
		cmocka_unit_test(test_failure_keeps_previous),
		cmocka_unit_test(test_copy_and_rm),
		cmocka_unit_test(test_path_stem),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
