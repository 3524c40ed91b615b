/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run a program and capture what it says (after git's run-command.h and
 * libvirt's vircommand).
 *
 *   const char *argv[] = { "qemu-system-x86_64", "--version", NULL };
 *   struct proc_cmd cmd = { .argv = argv, .timeout_ms = 5000 };
 *   _cleanup_(proc_result_release) struct proc_result r = PROC_RESULT_INIT;
 *   int e = proc_run(&cmd, &r);
 *
 * - argv is executed directly (execve), never through a shell.  argv[0]
 *   without a '/' is looked up in $PATH before the fork, so a missing
 *   program is -ENOENT from proc_run, not an exit status 127.
 * - The child gets a clean environment: PATH (the caller's, or a default),
 *   LC_ALL=C, and nothing else but cmd->env ("NAME=value" strings).
 * - stdin is cmd->stdin_data (or /dev/null); stdout and stderr are captured
 *   into the result, each bounded by its max (the rest is read and
 *   dropped, the *_truncated flag set), so a chatty child cannot block.
 * - The child leads a new process group.  On timeout the whole group gets
 *   SIGTERM, then SIGKILL after kill_grace_ms, and timed_out is set.
 * - Safe to call from several threads at once (nothing but async-signal-
 *   safe calls between fork and exec; no process-wide signal changes).
 *
 * Dry run (libvirt's virCommandSetDryRun): proc_set_dry_run(fn, opaque)
 * makes every proc_run call fn instead of forking, so a unit test sees the
 * argv of a caller and hands back a canned result.
 */
#ifndef BP_PROC_H
#define BP_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <limits.h>
#include <stddef.h>

#include "util/strbuf.h"

struct proc_cmd {
	const char *const *argv;	/* NULL-terminated, argv[0] required */
	const char *const *env;		/* extra "NAME=value", NULL-terminated */
	const char *cwd;		/* NULL: inherit */
	const char *stdin_data;		/* NULL: /dev/null */
	size_t stdin_len;
	size_t out_max;			/* 0: PROC_OUT_MAX_DEFAULT */
	size_t err_max;			/* 0: PROC_OUT_MAX_DEFAULT */
	unsigned timeout_ms;		/* 0: no timeout */
	unsigned kill_grace_ms;		/* 0: PROC_KILL_GRACE_DEFAULT */
	/*
	 * When *cancel becomes non-zero (a signal handler sets it), the
	 * child's group is ended as on a timeout and ret->cancelled is set.
	 */
	volatile sig_atomic_t *cancel;
	/*
	 * Called with every chunk of output as it arrives (stream 1 or 2),
	 * whatever the capture bounds keep: a live log.  NULL: none.
	 */
	void (*on_output)(void *ud, int stream, const char *buf, size_t n);
	void *ud;
};

#define PROC_OUT_MAX_DEFAULT (1024 * 1024)
#define PROC_KILL_GRACE_DEFAULT 500

struct proc_result {
	bool exited;		/* exited normally: exit_status is valid */
	int exit_status;
	int term_signal;	/* killed by this signal, else 0 */
	bool timed_out;		/* we killed it because of the timeout */
	bool cancelled;		/* we killed it because *cmd->cancel was set */
	struct strbuf out, err;	/* captured stdout / stderr (owned) */
	bool out_truncated, err_truncated;
	long elapsed_ms;
};

#define PROC_RESULT_INIT                                                       \
	{ .out = STRBUF_INIT, .err = STRBUF_INIT }

/*
 * Run cmd to completion (or timeout).  ret must be initialised
 * (PROC_RESULT_INIT); it is filled whenever the child was started, even
 * when it then failed or timed out: that is a result, not an error.
 * Returns 0, or -errno when the child could not be started at all
 * (-ENOENT: program not found, -EACCES, -EINVAL: no argv, ...).
 */
int proc_run(const struct proc_cmd *cmd, struct proc_result *ret);

/* True when the child exited by itself with status 0. */
static inline bool proc_result_ok(const struct proc_result *r)
{
	return r->exited && r->exit_status == 0 && !r->timed_out &&
	       !r->cancelled;
}

/* Free the captured output and reset to PROC_RESULT_INIT. */
void proc_result_release(struct proc_result *r);

/*
 * Dry-run hook.  fn gets the command and an initialised result to fill,
 * and returns what proc_run should return.  NULL restores real runs.
 * Process-global: meant for single-threaded unit tests.
 */
typedef int (*proc_dry_run_fn)(const struct proc_cmd *cmd,
			       struct proc_result *ret, void *opaque);
void proc_set_dry_run(proc_dry_run_fn fn, void *opaque);

/*
 * Remove the flat directory dir (its files, then itself) and then the
 * file last, in a process of its own, as soon as none of the n_wait files
 * wait[] exists (looked at every 20 ms, for at most timeout_ms; after
 * that nothing is removed).  The caller does not wait for it: it is
 * forked twice (nobody has to reap it), has /dev/null for its standard
 * streams and no other descriptor, and does only what is safe after a
 * fork of a process with threads.  0, or -errno when it could not start.
 */
int proc_remove_when_gone(const char *dir, const char *last,
			  char (*wait)[PATH_MAX], size_t n_wait,
			  unsigned timeout_ms);

/*
 * Find an executable in $PATH (or check a path containing '/').
 * Returns a malloc'd path in *ret_path, or -ENOENT / -EACCES / -EINVAL.
 */
int proc_find_program(const char *name, char **ret_path);

/*
 * Describe how a finished child ended, for messages: "exit status 3",
 * "killed by signal 6 (Aborted)", "timed out after 3.0 s".  Appends to sb.
 */
void proc_result_describe(const struct proc_result *r, unsigned timeout_ms,
			  struct strbuf *sb);

#endif
