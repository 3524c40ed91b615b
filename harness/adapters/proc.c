// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/xalloc.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static proc_dry_run_fn dry_run_fn;
static void *dry_run_opaque;

void proc_set_dry_run(proc_dry_run_fn fn, void *opaque)
{
	dry_run_fn = fn;
	dry_run_opaque = opaque;
}

void proc_result_release(struct proc_result *r)
{
	strbuf_release(&r->out);
	strbuf_release(&r->err);
	*r = (struct proc_result)PROC_RESULT_INIT;
}

static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EACCES;
	if (access(path, X_OK) < 0)
		return -errno;
	return 0;
}

int proc_find_program(const char *name, char **ret_path)
{
	const char *path;
	int best = -ENOENT;

	if (!name || !*name)
		return -EINVAL;
	if (strchr(name, '/')) {
		int r = check_exec(name);

		if (r < 0)
			return r;
		*ret_path = xstrdup(name);
		return 0;
	}
	path = getenv("PATH");
	if (!path || !*path)
		path = DEFAULT_PATH;
	while (*path) {
		size_t n = strcspn(path, ":");
		_cleanup_free_ char *dir = xstrndup(path, n);
		_cleanup_free_ char *cand = NULL;
		int r;

		path += n + (path[n] == ':');
		if (!*dir)
			continue;
		cand = path_join(dir, name);
		r = check_exec(cand);
		if (r == 0) {
			*ret_path = TAKE_PTR(cand);
			return 0;
		}
		if (r == -EACCES)
			best = r;
	}
	return best;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static bool env_has(const char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return true;
	return false;
}

/* The child's environment: PATH, LC_ALL=C and the explicit ones. */
static char **build_env(const char *const *extra, struct strbuf *path_var)
{
	size_t n = 0, i = 0;
	const char *p = getenv("PATH");
	char **envp;

	for (const char *const *e = extra; e && *e; e++)
		n++;
	envp = xcalloc(n + 3, sizeof(*envp));
	if (!env_has(extra, "PATH")) {
		strbuf_addf(path_var, "PATH=%s", p && *p ? p : DEFAULT_PATH);
		envp[i++] = path_var->buf;
	}
	if (!env_has(extra, "LC_ALL"))
		envp[i++] = (char *)"LC_ALL=C";
	for (const char *const *e = extra; e && *e; e++)
		envp[i++] = (char *)*e;
	envp[i] = NULL;
	return envp;
}

static void close_pair(int fds[2])
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

/*
 * In the child, between fork and exec: async-signal-safe calls only, as
 * other threads of the parent may hold the malloc or stdio locks.
 */
static _noreturn_ void child_exec(const char *path, char *const *argv,
				  char *const *envp, const char *cwd,
				  int in_fd, int out_fd, int err_fd,
				  int notify_fd)
{
	sigset_t none;
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int e;

	setpgid(0, 0);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		goto fail;
	/* Whatever else is open (other threads' pipes, libraries' fds) must
	 * not leak into the child: close on exec, keeping notify_fd usable. */
	syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */);
	if (cwd && chdir(cwd) < 0)
		goto fail;
	execve(path, argv, envp);
fail:
	e = errno;
	if (write(notify_fd, &e, sizeof(e)) < 0) {
		/* nothing more we can do */
	}
	_exit(127);
}

struct sink {
	int *fd;
	struct strbuf *sb;
	size_t max;
	bool *truncated;
	const struct proc_cmd *cmd;
	int stream;
};

/* Read what is there; returns false at EOF or error. */
static bool sink_read(struct sink *s)
{
	char buf[65536];
	ssize_t n = read(*s->fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	if (s->cmd->on_output)
		s->cmd->on_output(s->cmd->ud, s->stream, buf, (size_t)n);
	size_t room = s->sb->len < s->max ? s->max - s->sb->len : 0;
	size_t take = (size_t)n < room ? (size_t)n : room;

	if (take)
		strbuf_add(s->sb, buf, take);
	if (take < (size_t)n)
		*s->truncated = true;
	return true;
}

static void fill_status(struct proc_result *r, int st)
{
	if (WIFEXITED(st)) {
		r->exited = true;
		r->exit_status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->term_signal = WTERMSIG(st);
	}
}

/*
 * One run of proc_run, in the steps of libvirt's virCommandRun: prepare
 * (program, environment, pipes), spawn, pump the pipes until the child
 * ends (with the timeout and cancel escalation), reap.
 */
struct child {
	const struct proc_cmd *cmd;
	struct proc_result *ret;
	char *path;			/* the program, found in $PATH */
	char **envp;
	struct strbuf path_var;		/* "PATH=..." that envp points into */
	int in_p[2], out_p[2], err_p[2], notify[2];
	int null_fd;
	sigset_t pipe_set, old_mask;
	bool mask_changed;
	size_t in_off;			/* stdin_data written so far */
	struct sink sinks[2];
	pid_t pid;
	long start, deadline, kill_at, give_up_at;
	unsigned grace;
	bool reaped, sent_kill;
};

/* The program, its environment and the pipes; 0 or -errno. */
static int child_prepare(struct child *c)
{
	const struct proc_cmd *cmd = c->cmd;
	int r;

	r = proc_find_program(cmd->argv[0], &c->path);
	if (r < 0)
		return r;
	c->envp = build_env(cmd->env, &c->path_var);
	if (cmd->stdin_data) {
		if (pipe2(c->in_p, O_CLOEXEC) < 0)
			return -errno;
	} else {
		c->null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (c->null_fd < 0)
			return -errno;
	}
	if (pipe2(c->out_p, O_CLOEXEC) < 0 || pipe2(c->err_p, O_CLOEXEC) < 0 ||
	    pipe2(c->notify, O_CLOEXEC) < 0)
		return -errno;
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Fork and exec; 0 once the program runs, or exec's -errno (the child
 * then reaped). */
static int child_spawn(struct child *c)
{
	const struct proc_cmd *cmd = c->cmd;
	int child_errno = 0;
	ssize_t n;

	c->start = now_ms();
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0)
		child_exec(c->path, (char *const *)cmd->argv, c->envp, cmd->cwd,
			   cmd->stdin_data ? c->in_p[0] : c->null_fd,
			   c->out_p[1], c->err_p[1], c->notify[1]);

	/* Also here, so that a kill(-pid) right away cannot miss. */
	setpgid(c->pid, c->pid);
	close_fd(&c->notify[1]);
	close_fd(&c->in_p[0]);
	close_fd(&c->out_p[1]);
	close_fd(&c->err_p[1]);

	/* EOF: exec succeeded (close-on-exec); an int: exec's errno. */
	do
		n = read(c->notify[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close_fd(&c->notify[0]);
	if (n == (ssize_t)sizeof(child_errno)) {
		int st = 0;

		while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
			;
		return -child_errno;
	}
	return 0;
}

/* Ready the pump: stdin non-blocking without SIGPIPE, bounds, deadline. */
static void child_pump_setup(struct child *c)
{
	const struct proc_cmd *cmd = c->cmd;

	if (cmd->stdin_data) {
		/* A child that does not read its stdin must not kill us. */
		sigemptyset(&c->pipe_set);
		sigaddset(&c->pipe_set, SIGPIPE);
		pthread_sigmask(SIG_BLOCK, &c->pipe_set, &c->old_mask);
		c->mask_changed = true;
		fcntl(c->in_p[1], F_SETFL,
		      fcntl(c->in_p[1], F_GETFL) | O_NONBLOCK);
		if (cmd->stdin_len == 0)
			close_fd(&c->in_p[1]);
	}
	if (cmd->out_max)
		c->sinks[0].max = cmd->out_max;
	if (cmd->err_max)
		c->sinks[1].max = cmd->err_max;
	c->grace = cmd->kill_grace_ms ? cmd->kill_grace_ms
				      : PROC_KILL_GRACE_DEFAULT;
	c->deadline = cmd->timeout_ms ? c->start + (long)cmd->timeout_ms
				      : LONG_MAX;
}

/* SIGTERM to the group on cancel or timeout, SIGKILL after the grace. */
static void child_escalate(struct child *c, long now)
{
	const struct proc_cmd *cmd = c->cmd;
	struct proc_result *ret = c->ret;

	if (!ret->timed_out && !ret->cancelled && cmd->cancel && *cmd->cancel) {
		ret->cancelled = true;
		kill(-c->pid, SIGTERM);
		c->kill_at = now + c->grace;
	}
	if (!ret->timed_out && !ret->cancelled && now >= c->deadline) {
		ret->timed_out = true;
		kill(-c->pid, SIGTERM);
		c->kill_at = now + c->grace;
	}
	if ((ret->timed_out || ret->cancelled) && !c->sent_kill &&
	    now >= c->kill_at) {
		kill(-c->pid, SIGKILL);
		c->sent_kill = true;
		c->give_up_at = now + c->grace;
	}
}

/* How long poll may sleep: until the deadline or the SIGKILL, 100 ms at
 * most. */
static long child_wait_ms(const struct child *c, long now)
{
	const struct proc_result *ret = c->ret;
	long wait = 100;

	if (!ret->timed_out && c->deadline - now < wait)
		wait = c->deadline - now;
	if ((ret->timed_out || ret->cancelled) && !c->sent_kill &&
	    c->kill_at - now < wait)
		wait = c->kill_at - now;
	return wait < 0 ? 0 : wait;
}

/* stdin is writable (or broken): write what the child takes. */
static void child_feed(struct child *c, short revents)
{
	const struct proc_cmd *cmd = c->cmd;
	bool done = revents & (POLLERR | POLLHUP);

	if (!done && (revents & POLLOUT)) {
		ssize_t n = write(c->in_p[1], cmd->stdin_data + c->in_off,
				  cmd->stdin_len - c->in_off);

		if (n > 0)
			c->in_off += (size_t)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR)
			done = true;
	}
	if (done || c->in_off >= cmd->stdin_len)
		close_fd(&c->in_p[1]);
}

/* Until the child is reaped and its pipes are closed; 0 or -errno when
 * poll fails (the child then killed and reaped). */
static int child_pump(struct child *c)
{
	for (;;) {
		struct pollfd pfd[3];
		struct sink *which[3];
		int nfds = 0, st = 0, r;
		long now, wait;

		if (!c->reaped) {
			pid_t w = waitpid(c->pid, &st, WNOHANG);

			if (w == c->pid) {
				c->reaped = true;
				fill_status(c->ret, st);
			} else if (w < 0 && errno == ECHILD) {
				c->reaped = true; /* reaped elsewhere: unknown */
			}
		}
		for (int i = 0; i < 2; i++)
			if (*c->sinks[i].fd >= 0) {
				pfd[nfds] = (struct pollfd){ *c->sinks[i].fd,
							     POLLIN, 0 };
				which[nfds++] = &c->sinks[i];
			}
		if (c->in_p[1] >= 0) {
			pfd[nfds] = (struct pollfd){ c->in_p[1], POLLOUT, 0 };
			which[nfds++] = NULL;
		}
		if (c->reaped && nfds == 0)
			return 0;

		now = now_ms();
		child_escalate(c, now);
		/* Killed, yet a pipe stays open: a process that left our group
		 * holds it.  Stop listening to it. */
		if (c->sent_kill && c->reaped && now >= c->give_up_at)
			return 0;

		wait = child_wait_ms(c, now);
		if (nfds == 0) {
			/* Only waiting for the child to end. */
			struct timespec ts = { 0, (wait < 10 ? wait : 10) * 1000000L };
			nanosleep(&ts, NULL);
			continue;
		}
		r = poll(pfd, (nfds_t)nfds, (int)wait);
		if (r < 0 && errno != EINTR) {
			int e = -errno;

			kill(-c->pid, SIGKILL);
			while (!c->reaped && waitpid(c->pid, &st, 0) < 0 &&
			       errno == EINTR)
				;
			return e;
		}
		for (int i = 0; r > 0 && i < nfds; i++) {
			if (!pfd[i].revents)
				continue;
			if (!which[i])
				child_feed(c, pfd[i].revents);
			else if (!sink_read(which[i]))
				close_fd(which[i]->fd);
		}
	}
}

/* A child still running after its pipes closed (a stray holder) ends. */
static void child_reap(struct child *c)
{
	int st = 0;

	if (c->reaped)
		return;
	kill(-c->pid, SIGKILL);
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	fill_status(c->ret, st);
}

static void child_done(struct child *c)
{
	if (c->mask_changed) {
		sigset_t pending;
		struct timespec zero = { 0, 0 };

		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE))
			sigtimedwait(&c->pipe_set, NULL, &zero);
		pthread_sigmask(SIG_SETMASK, &c->old_mask, NULL);
	}
	close_pair(c->in_p);
	close_pair(c->out_p);
	close_pair(c->err_p);
	close_pair(c->notify);
	close_fd(&c->null_fd);
	free(c->path);
	free(c->envp);
	strbuf_release(&c->path_var);
}

int proc_run(const struct proc_cmd *cmd, struct proc_result *ret)
{
	_cleanup_(child_done) struct child c = {
		.cmd = cmd,
		.ret = ret,
		.path_var = STRBUF_INIT,
		.in_p = { -1, -1 },
		.out_p = { -1, -1 },
		.err_p = { -1, -1 },
		.notify = { -1, -1 },
		.null_fd = -1,
	};
	int r;

	if (!cmd || !cmd->argv || !cmd->argv[0])
		return -EINVAL;
	if (dry_run_fn)
		return dry_run_fn(cmd, ret, dry_run_opaque);
	c.sinks[0] = (struct sink){ &c.out_p[0], &ret->out,
				    PROC_OUT_MAX_DEFAULT, &ret->out_truncated,
				    cmd, 1 };
	c.sinks[1] = (struct sink){ &c.err_p[0], &ret->err,
				    PROC_OUT_MAX_DEFAULT, &ret->err_truncated,
				    cmd, 2 };

	r = child_prepare(&c);
	if (r >= 0)
		r = child_spawn(&c);
	if (r < 0)
		return r;
	child_pump_setup(&c);
	r = child_pump(&c);
	if (r < 0)
		return r;
	child_reap(&c);
	ret->elapsed_ms = now_ms() - c.start;
	return 0;
}

void proc_result_describe(const struct proc_result *r, unsigned timeout_ms,
			  struct strbuf *sb)
{
	if (r->timed_out)
		strbuf_addf(sb, "timed out after %u.%u s", timeout_ms / 1000,
			    timeout_ms % 1000 / 100);
	else if (r->cancelled)
		strbuf_addstr(sb, "cancelled (interrupted)");
	else if (r->term_signal)
		strbuf_addf(sb, "killed by signal %d (%s)", r->term_signal,
			    strsignal(r->term_signal));
	else if (r->exited)
		strbuf_addf(sb, "exit status %d", r->exit_status);
	else
		strbuf_addstr(sb, "ended in an unknown way");
}

int proc_remove_when_gone(const char *dir, const char *last,
			  char (*wait)[PATH_MAX], size_t n_wait,
			  unsigned timeout_ms)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	char paths[16][PATH_MAX], lastp[PATH_MAX];
	size_t np = 0;
	struct dirent *de;
	pid_t pid;

	/* Everything that allocates comes before the fork. */
	while (d && (de = readdir(d)) && np < ELEMENTSOF(paths))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			snprintf(paths[np++], PATH_MAX, "%s/%s", dir, de->d_name);
	snprintf(lastp, sizeof(lastp), "%s", last ? last : "");
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return 0;
	}
	if (fork() != 0)
		_exit(0);
	setsid();
	{
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		syscall(SYS_close_range, 3, ~0U, 0);
	}
	for (unsigned waited = 0;
	     any_path_exists(wait, n_wait) && waited < timeout_ms; waited += 20) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (!any_path_exists(wait, n_wait)) {
		for (size_t i = 0; i < np; i++)
			unlink(paths[i]);
		if (rmdir(dir) == 0 && lastp[0])
			unlink(lastp);
	}
	_exit(0);
}
