// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/strbuf.h"

static void test_add_and_detach(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char *s;
	size_t n;

	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "Linux ");
	strbuf_addf(&sb, "version %d.%d", 6, 12);
	strbuf_addch(&sb, '!');
	assert_string_equal(sb.buf, "Linux version 6.12!");
	assert_int_equal(sb.len, 19);
	s = strbuf_detach(&sb, &n);
	assert_int_equal(n, 19);
	assert_string_equal(s, "Linux version 6.12!");
	assert_string_equal(sb.buf, "");
	free(s);
}

static void test_embedded_nul_and_growth(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < 10000; i++)
		strbuf_add(&sb, "a\0b", 3);
	assert_int_equal(sb.len, 30000);
	assert_int_equal(sb.buf[1], '\0');
	assert_int_equal(sb.buf[30000], '\0');
	strbuf_setlen(&sb, 2);
	assert_string_equal(sb.buf, "a");
}

static void test_long_format(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char big[5000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "<%s>", big);
	assert_int_equal(sb.len, sizeof(big) + 1);
	assert_int_equal(sb.buf[0], '<');
	assert_int_equal(sb.buf[sb.len - 1], '>');
}

static void test_trim(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, " \t value \r\n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "value");
	strbuf_reset(&sb);
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "");
}

static void test_read_file(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&sb, "/nonexistent/x", 0), -ENOENT);
	assert_true(strbuf_read_file(&sb, "/proc/self/stat", 0) > 0);
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, "/proc/self/stat", 3), -EFBIG);
	assert_int_equal(sb.len, 0);
}

/* The message replaces what err held, the code comes back, NULL is fine. */
static void test_fail(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	strbuf_addstr(&err, "an earlier message");
	assert_int_equal(strbuf_fail(&err, -EINVAL, "%s:%u: bad", "f.plan", 3u),
			 -EINVAL);
	assert_string_equal(err.buf, "f.plan:3: bad");
	assert_int_equal(strbuf_fail(NULL, -EIO, "nobody reads %d", 1), -EIO);
}

static void test_fail_at(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	strbuf_addstr(&err, "an earlier message");
	assert_int_equal(strbuf_fail_at(&err, -EINVAL, "demo.plan", 3,
					"unknown arch '%s'", "arm64"),
			 -EINVAL);
	assert_string_equal(err.buf, "demo.plan:3: unknown arch 'arm64'");
	/* Line 0: the whole file is at fault. */
	assert_int_equal(strbuf_fail_at(&err, -ENOENT, "demo.plan", 0,
					"no 'arch' line"),
			 -ENOENT);
	assert_string_equal(err.buf, "demo.plan: no 'arch' line");
	assert_int_equal(strbuf_fail_at(NULL, -EINVAL, "f", 1, "x"), -EINVAL);
}

/* A broken invariant is a BUG(): file:line and the message, then abort. */
static void test_bug_on_bad_setlen(void **state)
{
	int pipefd[2], st = 0;
	char msg[256] = { 0 };
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct strbuf sb = STRBUF_INIT;

		dup2(pipefd[1], 2);
		strbuf_addstr(&sb, "abc");
		strbuf_setlen(&sb, sb.alloc + 10);
		_exit(0);
	}
	close(pipefd[1]);
	/* stderr is unbuffered: the message may come in several writes. */
	for (size_t got = 0; got < sizeof(msg) - 1; got += (size_t)n) {
		n = read(pipefd[0], msg + got, sizeof(msg) - 1 - got);
		if (n <= 0)
			break;
	}
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGABRT);
	assert_non_null(strstr(msg, "bootproof: BUG: harness/util/strbuf.c:"));
	assert_non_null(strstr(msg, ": strbuf_setlen(74) beyond its 64 bytes\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_and_detach),
		cmocka_unit_test(test_embedded_nul_and_growth),
		cmocka_unit_test(test_long_format),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_fail_at),
		cmocka_unit_test(test_bug_on_bad_setlen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
