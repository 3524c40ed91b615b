// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/lockfile: a lock held by another open file description (as another
 * run holds it) makes LOCKFILE_NOWAIT say -EWOULDBLOCK and a waiting take
 * wait until it goes; release by the _cleanup_ destructor; the flags.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/lockfile.h"
#include "util/paths.h"

static char tmp[64];
static char *lock;

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-lockfile-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	lock = path_join(tmp, "x.lock");
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	free(lock);
	return 0;
}

static bool held_elsewhere(void)
{
	int fd = lockfile_take(lock, LOCKFILE_NOWAIT, NULL);

	if (fd == -EWOULDBLOCK)
		return true;
	assert_true(fd >= 0);
	lockfile_release(&fd);
	return false;
}

static void test_take_release(void **state)
{
	{
		_cleanup_lockfile_ int fd = lockfile_take(lock, 0, NULL);

		assert_true(fd >= 0);
		assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		assert_true(held_elsewhere());
	}
	/* Released at the end of the scope. */
	assert_false(held_elsewhere());
	{
		int fd = -1;

		lockfile_release(&fd);	/* accepts -1 */
		assert_int_equal(fd, -1);
	}
}

static void test_flags(void **state)
{
	_cleanup_free_ char *none = path_join(tmp, "none.lock");
	_cleanup_free_ char *link = path_join(tmp, "link.lock");

	assert_int_equal(lockfile_take(none, LOCKFILE_NOCREATE, NULL), -ENOENT);
	assert_int_equal(access(none, F_OK), -1);
	assert_int_equal(symlink(lock, link), 0);
	assert_int_equal(lockfile_take(link, LOCKFILE_NOFOLLOW, NULL), -ELOOP);
}

/* A child holds the lock for a while; the parent's take waits for it. */
static void test_waits(void **state)
{
	int go[2];
	char c;
	pid_t pid;
	int fd, st;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int l = lockfile_take(lock, 0, NULL);

		if (write(go[1], "x", 1) != 1 || l < 0)
			_exit(1);
		usleep(300 * 1000);
		_exit(0);	/* the lock goes with the process */
	}
	assert_int_equal(read(go[0], &c, 1), 1);
	assert_true(held_elsewhere());
	fd = lockfile_take(lock, 0, NULL);
	assert_true(fd >= 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	lockfile_release(&fd);
	close(go[0]);
	close(go[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_release),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_waits),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
