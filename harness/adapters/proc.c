// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/paths.h"

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
		char *p;

		if (r < 0)
			return r;
		p = strdup(name);
		if (!p)
			return -ENOMEM;
		*ret_path = p;
		return 0;
	}
	path = getenv("PATH");
	if (!path || !*path)
		path = DEFAULT_PATH;
	while (*path) {
		size_t n = strcspn(path, ":");
		_cleanup_free_ char *dir = strndup(path, n);
		_cleanup_free_ char *cand = NULL;
		int r;

		if (!dir)
			return -ENOMEM;
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
	envp = calloc(n + 3, sizeof(*envp));
	if (!envp)
		return NULL;
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

int proc_run(const struct proc_cmd *cmd, struct proc_result *ret)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ char **envp = NULL;
	_cleanup_strbuf_ struct strbuf path_var = STRBUF_INIT;
	int in_p[2] = { -1, -1 }, out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 };
	int notify[2] = { -1, -1 };
	_cleanup_close_ int null_fd = -1;
	sigset_t pipe_set, old_mask;
	bool mask_changed = false;
	size_t in_off = 0;
	long start, deadline, kill_at = 0, give_up_at = 0;
	unsigned grace;
	bool reaped = false, sent_kill = false;
	pid_t pid;
	int r, e;
	struct sink sinks[2] = {
		{ &out_p[0], &ret->out, PROC_OUT_MAX_DEFAULT,
		  &ret->out_truncated, cmd, 1 },
		{ &err_p[0], &ret->err, PROC_OUT_MAX_DEFAULT,
		  &ret->err_truncated, cmd, 2 },
	};

	if (!cmd || !cmd->argv || !cmd->argv[0])
		return -EINVAL;
	if (dry_run_fn)
		return dry_run_fn(cmd, ret, dry_run_opaque);

	r = proc_find_program(cmd->argv[0], &path);
	if (r < 0)
		return r;
	envp = build_env(cmd->env, &path_var);
	if (!envp)
		return -ENOMEM;

	if (cmd->stdin_data) {
		if (pipe2(in_p, O_CLOEXEC) < 0)
			return -errno;
	} else {
		null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null_fd < 0)
			return -errno;
	}
	if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(notify, O_CLOEXEC) < 0) {
		e = -errno;
		goto fail;
	}

	start = now_ms();
	pid = fork();
	if (pid < 0) {
		e = -errno;
		goto fail;
	}
	if (pid == 0)
		child_exec(path, (char *const *)cmd->argv, envp, cmd->cwd,
			   cmd->stdin_data ? in_p[0] : null_fd, out_p[1],
			   err_p[1], notify[1]);

	/* Also here, so that a kill(-pid) right away cannot miss. */
	setpgid(pid, pid);
	close(notify[1]);
	notify[1] = -1;
	if (in_p[0] >= 0) {
		close(in_p[0]);
		in_p[0] = -1;
	}
	close(out_p[1]);
	out_p[1] = -1;
	close(err_p[1]);
	err_p[1] = -1;

	/* EOF: exec succeeded (close-on-exec); an int: exec's errno. */
	{
		int child_errno = 0;
		ssize_t n;

		do
			n = read(notify[0], &child_errno, sizeof(child_errno));
		while (n < 0 && errno == EINTR);
		close(notify[0]);
		notify[0] = -1;
		if (n == (ssize_t)sizeof(child_errno)) {
			int st = 0;

			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			e = -child_errno;
			goto fail;
		}
	}

	if (cmd->stdin_data) {
		/* A child that does not read its stdin must not kill us. */
		sigemptyset(&pipe_set);
		sigaddset(&pipe_set, SIGPIPE);
		pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
		mask_changed = true;
		fcntl(in_p[1], F_SETFL, fcntl(in_p[1], F_GETFL) | O_NONBLOCK);
		if (cmd->stdin_len == 0) {
			close(in_p[1]);
			in_p[1] = -1;
		}
	}

	if (cmd->out_max)
		sinks[0].max = cmd->out_max;
	if (cmd->err_max)
		sinks[1].max = cmd->err_max;
	grace = cmd->kill_grace_ms ? cmd->kill_grace_ms : PROC_KILL_GRACE_DEFAULT;
	deadline = cmd->timeout_ms ? start + (long)cmd->timeout_ms : LONG_MAX;

	for (;;) {
		struct pollfd pfd[3];
		struct sink *which[3];
		int nfds = 0, st = 0;
		long now, wait;

		if (!reaped) {
			pid_t w = waitpid(pid, &st, WNOHANG);

			if (w == pid) {
				reaped = true;
				fill_status(ret, st);
			} else if (w < 0 && errno == ECHILD) {
				reaped = true; /* reaped elsewhere: unknown */
			}
		}
		for (int i = 0; i < 2; i++)
			if (*sinks[i].fd >= 0) {
				pfd[nfds] = (struct pollfd){ *sinks[i].fd, POLLIN, 0 };
				which[nfds++] = &sinks[i];
			}
		if (in_p[1] >= 0) {
			pfd[nfds] = (struct pollfd){ in_p[1], POLLOUT, 0 };
			which[nfds++] = NULL;
		}
		if (reaped && nfds == 0)
			break;

		now = now_ms();
		if (!ret->timed_out && !ret->cancelled && cmd->cancel &&
		    *cmd->cancel) {
			ret->cancelled = true;
			kill(-pid, SIGTERM);
			kill_at = now + grace;
		}
		if (!ret->timed_out && !ret->cancelled && now >= deadline) {
			ret->timed_out = true;
			kill(-pid, SIGTERM);
			kill_at = now + grace;
		}
		if ((ret->timed_out || ret->cancelled) && !sent_kill &&
		    now >= kill_at) {
			kill(-pid, SIGKILL);
			sent_kill = true;
			give_up_at = now + grace;
		}
		/* Killed, yet a pipe stays open: a process that left our group
		 * holds it.  Stop listening to it. */
		if (sent_kill && reaped && now >= give_up_at)
			break;

		wait = 100;
		if (!ret->timed_out && deadline - now < wait)
			wait = deadline - now;
		if ((ret->timed_out || ret->cancelled) && !sent_kill &&
		    kill_at - now < wait)
			wait = kill_at - now;
		if (wait < 0)
			wait = 0;
		if (nfds == 0) {
			/* Only waiting for the child to end. */
			struct timespec ts = { 0, (wait < 10 ? wait : 10) * 1000000L };
			nanosleep(&ts, NULL);
			continue;
		}
		r = poll(pfd, (nfds_t)nfds, (int)wait);
		if (r < 0 && errno != EINTR) {
			e = -errno;
			kill(-pid, SIGKILL);
			while (!reaped && waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			goto fail;
		}
		for (int i = 0; r > 0 && i < nfds; i++) {
			if (!pfd[i].revents)
				continue;
			if (which[i]) {
				if (!sink_read(which[i])) {
					close(*which[i]->fd);
					*which[i]->fd = -1;
				}
				continue;
			}
			bool done = pfd[i].revents & (POLLERR | POLLHUP);

			if (!done && (pfd[i].revents & POLLOUT)) {
				ssize_t n = write(in_p[1], cmd->stdin_data + in_off,
						  cmd->stdin_len - in_off);

				if (n > 0)
					in_off += (size_t)n;
				else if (n < 0 && errno != EAGAIN && errno != EINTR)
					done = true;
			}
			if (done || in_off >= cmd->stdin_len) {
				close(in_p[1]);
				in_p[1] = -1;
			}
		}
	}
	if (!reaped) {
		int st = 0;

		kill(-pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		fill_status(ret, st);
	}
	ret->elapsed_ms = now_ms() - start;
	e = 0;
fail:
	if (mask_changed) {
		sigset_t pending;
		struct timespec zero = { 0, 0 };

		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE))
			sigtimedwait(&pipe_set, NULL, &zero);
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	}
	close_pair(in_p);
	close_pair(out_p);
	close_pair(err_p);
	close_pair(notify);
	return e;
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
