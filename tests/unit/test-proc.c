// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proc adapter against real, tiny programs (sh, cat, env, sleep from
 * coreutils): they cost milliseconds, and a fake could not show that a
 * process group is really killed or that a full pipe does not deadlock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters/proc.h"

#define RESULT(r) _cleanup_(proc_result_release) struct proc_result r = PROC_RESULT_INIT

static void test_capture_and_status(void **state)
{
	const char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct proc_cmd cmd = { .argv = argv };
	_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(r.exited);
	assert_int_equal(r.exit_status, 3);
	assert_false(r.timed_out);
	assert_false(proc_result_ok(&r));
	assert_string_equal(r.out.buf, "out\n");
	assert_string_equal(r.err.buf, "err\n");
	proc_result_describe(&r, 0, &d);
	assert_string_equal(d.buf, "exit status 3");
}

static void test_signal(void **state)
{
	const char *argv[] = { "sh", "-c", "kill -SEGV $$", NULL };
	struct proc_cmd cmd = { .argv = argv };
	_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_false(r.exited);
	assert_int_equal(r.term_signal, SIGSEGV);
	proc_result_describe(&r, 0, &d);
	assert_string_equal(d.buf, "killed by signal 11 (Segmentation fault)");
}

static void test_stdin_binary(void **state)
{
	static const char data[] = "hello\0world\n";
	const char *argv[] = { "cat", NULL };
	struct proc_cmd cmd = { .argv = argv, .stdin_data = data,
				.stdin_len = sizeof(data) - 1 };
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(proc_result_ok(&r));
	assert_int_equal(r.out.len, sizeof(data) - 1);
	assert_memory_equal(r.out.buf, data, sizeof(data) - 1);
}

static void test_bounded_capture_no_deadlock(void **state)
{
	/* 4 MiB through cat: more than any pipe buffer both ways. */
	size_t n = 4u << 20;
	_cleanup_free_ char *data = malloc(n);
	const char *argv[] = { "cat", NULL };
	struct proc_cmd cmd = { .argv = argv, .stdin_len = n, .out_max = 1000,
				.timeout_ms = 20000 };
	RESULT(r);

	assert_non_null(data);
	memset(data, 'x', n);
	cmd.stdin_data = data;
	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(proc_result_ok(&r));
	assert_int_equal(r.out.len, 1000);
	assert_true(r.out_truncated);
	assert_false(r.err_truncated);
}

static void test_stdin_not_read(void **state)
{
	/* The child exits without reading: we must not die of SIGPIPE. */
	size_t n = 1u << 20;
	_cleanup_free_ char *data = calloc(1, n);
	const char *argv[] = { "true", NULL };
	struct proc_cmd cmd = { .argv = argv, .stdin_data = data,
				.stdin_len = n };
	RESULT(r);

	assert_non_null(data);
	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(proc_result_ok(&r));
}

static void test_clean_env(void **state)
{
	const char *argv[] = { "env", NULL };
	const char *env[] = { "FOO=bar baz", NULL };
	struct proc_cmd cmd = { .argv = argv, .env = env };
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	RESULT(r);

	setenv("BP_TEST_SECRET", "leak", 1);
	assert_int_equal(proc_run(&cmd, &r), 0);
	strbuf_addf(&want, "PATH=%s\nLC_ALL=C\nFOO=bar baz\n", getenv("PATH"));
	assert_string_equal(r.out.buf, want.buf);

	/* An explicit LC_ALL replaces ours. */
	const char *env2[] = { "LC_ALL=POSIX", NULL };
	RESULT(r2);

	cmd.env = env2;
	assert_int_equal(proc_run(&cmd, &r2), 0);
	assert_null(strstr(r2.out.buf, "LC_ALL=C"));
	assert_non_null(strstr(r2.out.buf, "LC_ALL=POSIX\n"));
	unsetenv("BP_TEST_SECRET");
}

static void test_not_found(void **state)
{
	const char *missing[] = { "bootproof-no-such-program", NULL };
	const char *notexec[] = { "/etc/passwd", NULL };
	const char *dir[] = { "/usr", NULL };
	const char *pwd[] = { "pwd", NULL };
	struct proc_cmd cmd = { .argv = missing };
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), -ENOENT);
	cmd.argv = notexec;
	assert_int_equal(proc_run(&cmd, &r), -EACCES);
	cmd.argv = dir;
	assert_int_equal(proc_run(&cmd, &r), -EACCES);
	/* exec's own failure (here chdir) comes back as -errno, too. */
	cmd.argv = pwd;
	cmd.cwd = "/nonexistent/dir";
	assert_int_equal(proc_run(&cmd, &r), -ENOENT);
	cmd.argv = NULL;
	assert_int_equal(proc_run(&cmd, &r), -EINVAL);
}

static void test_cwd(void **state)
{
	const char *argv[] = { "pwd", NULL };
	struct proc_cmd cmd = { .argv = argv, .cwd = "/usr/share" };
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_string_equal(r.out.buf, "/usr/share\n");
}

static bool pid_alive(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;
	bool alive;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	/* A zombie waiting for its (new) parent to reap it is dead. */
	alive = fgets(buf, sizeof(buf), f) && !strstr(buf, ") Z ");
	fclose(f);
	return alive;
}

static void test_timeout_kills_group(void **state)
{
	/* The grandchild holds stdout open: only killing the group ends it. */
	const char *argv[] = { "sh", "-c", "sleep 30 & echo $!; wait", NULL };
	struct proc_cmd cmd = { .argv = argv, .timeout_ms = 300 };
	_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;
	pid_t grandchild;
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.term_signal, SIGTERM);
	assert_true(r.elapsed_ms >= 300);
	assert_true(r.elapsed_ms < 3000);
	grandchild = (pid_t)atoi(r.out.buf);
	assert_true(grandchild > 0);
	for (int i = 0; i < 50 && pid_alive(grandchild); i++)
		usleep(20000);
	assert_false(pid_alive(grandchild));
	proc_result_describe(&r, cmd.timeout_ms, &d);
	assert_string_equal(d.buf, "timed out after 0.3 s");
}

struct seen {
	struct strbuf out, err;
	volatile sig_atomic_t *cancel;
};

static void on_output(void *ud, int stream, const char *buf, size_t n)
{
	struct seen *s = ud;

	strbuf_add(stream == 1 ? &s->out : &s->err, buf, n);
	if (s->cancel && strstr(s->out.buf, "ready"))
		*s->cancel = 1;
}

static void test_on_output_sees_everything(void **state)
{
	/* 20000 bytes on stdout, more than the capture keeps */
	const char *argv[] = { "sh", "-c",
			       "i=0; while [ $i -lt 2000 ]; do echo 123456789; "
			       "i=$((i+1)); done; echo e >&2",
			       NULL };
	struct seen s = { STRBUF_INIT, STRBUF_INIT, NULL };
	struct proc_cmd cmd = { .argv = argv, .out_max = 10,
				.on_output = on_output, .ud = &s };
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(proc_result_ok(&r));
	assert_int_equal(r.out.len, 10);
	assert_true(r.out_truncated);
	assert_int_equal(s.out.len, 20000);
	assert_memory_equal(s.out.buf, r.out.buf, 10);
	assert_string_equal(s.err.buf, "e\n");
	strbuf_release(&s.out);
	strbuf_release(&s.err);
}

static void test_cancel_kills_group(void **state)
{
	/* Cancelled as soon as it says "ready" (as a signal handler would
	 * set the flag); the grandchild must die with it. */
	const char *argv[] = { "sh", "-c", "sleep 30 & echo $!; echo ready; wait",
			       NULL };
	volatile sig_atomic_t cancel = 0;
	struct seen s = { STRBUF_INIT, STRBUF_INIT, &cancel };
	struct proc_cmd cmd = { .argv = argv, .timeout_ms = 20000,
				.cancel = &cancel, .on_output = on_output,
				.ud = &s };
	_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;
	pid_t grandchild;
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(r.cancelled);
	assert_false(r.timed_out);
	assert_false(proc_result_ok(&r));
	assert_int_equal(r.term_signal, SIGTERM);
	assert_true(r.elapsed_ms < 5000);
	grandchild = (pid_t)atoi(r.out.buf);
	assert_true(grandchild > 0);
	for (int i = 0; i < 50 && pid_alive(grandchild); i++)
		usleep(20000);
	assert_false(pid_alive(grandchild));
	proc_result_describe(&r, cmd.timeout_ms, &d);
	assert_string_equal(d.buf, "cancelled (interrupted)");
	strbuf_release(&s.out);
	strbuf_release(&s.err);
}

static void test_timeout_sigkill(void **state)
{
	/* SIGTERM ignored (and inherited as ignored by sleep): SIGKILL. */
	const char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
	struct proc_cmd cmd = { .argv = argv, .timeout_ms = 200,
				.kill_grace_ms = 200 };
	RESULT(r);

	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.term_signal, SIGKILL);
	assert_true(r.elapsed_ms >= 400);
	assert_true(r.elapsed_ms < 3000);
}

struct par {
	int n;
	bool ok;
};

static void *par_run(void *arg)
{
	struct par *p = arg;
	char script[64];
	const char *argv[] = { "sh", "-c", script, NULL };
	struct proc_cmd cmd = { .argv = argv, .timeout_ms = 10000 };
	char want[16];
	RESULT(r);

	snprintf(script, sizeof(script), "sleep 0.3; echo %d", p->n);
	snprintf(want, sizeof(want), "%d\n", p->n);
	p->ok = proc_run(&cmd, &r) == 0 && proc_result_ok(&r) &&
		!strcmp(r.out.buf, want);
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t th[4];
	struct par p[4];
	RESULT(r);
	const char *argv[] = { "true", NULL };
	struct proc_cmd cmd = { .argv = argv };

	for (int i = 0; i < 4; i++) {
		p[i] = (struct par){ .n = i };
		assert_int_equal(pthread_create(&th[i], NULL, par_run, &p[i]), 0);
	}
	/* Meanwhile, in this thread too. */
	assert_int_equal(proc_run(&cmd, &r), 0);
	assert_true(proc_result_ok(&r));
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_true(p[i].ok);
	}
}

static int dry(const struct proc_cmd *cmd, struct proc_result *ret,
	       void *opaque)
{
	int *calls = opaque;

	(*calls)++;
	assert_string_equal(cmd->argv[0], "qemu-system-x86_64");
	assert_string_equal(cmd->argv[1], "--version");
	ret->exited = true;
	strbuf_addstr(&ret->out, "QEMU emulator version 0.0.1\n");
	return 0;
}

static void test_dry_run(void **state)
{
	const char *argv[] = { "qemu-system-x86_64", "--version", NULL };
	struct proc_cmd cmd = { .argv = argv };
	int calls = 0;
	RESULT(r);

	proc_set_dry_run(dry, &calls);
	assert_int_equal(proc_run(&cmd, &r), 0);
	proc_set_dry_run(NULL, NULL);
	assert_int_equal(calls, 1);
	assert_true(proc_result_ok(&r));
	assert_string_equal(r.out.buf, "QEMU emulator version 0.0.1\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_and_status),
		cmocka_unit_test(test_signal),
		cmocka_unit_test(test_stdin_binary),
		cmocka_unit_test(test_bounded_capture_no_deadlock),
		cmocka_unit_test(test_stdin_not_read),
		cmocka_unit_test(test_clean_env),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_cwd),
		cmocka_unit_test(test_timeout_kills_group),
		cmocka_unit_test(test_timeout_sigkill),
		cmocka_unit_test(test_on_output_sees_everything),
		cmocka_unit_test(test_cancel_kills_group),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_dry_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
