// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each scenario runs in a forked child (its own process group) that prints
 * its nested KTAP lines itself and tells the parent, over a pipe, which
 * check it is in and how each ended.  The parent enforces the time limit,
 * reaps (as PID 1 it also reaps orphans), and prints the top-level result;
 * when the child crashed or was killed it prints the lines the child could
 * not, so the nested plan is always complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"

#define SCENARIO_REF(id) &scenario_##id,

const struct scenario *const scenarios[] = {
	BP_SCENARIOS(SCENARIO_REF) NULL,
};

static const struct scenario *const test_scenarios[] = {
	BP_TEST_SCENARIOS(SCENARIO_REF) NULL,
};

bool scenario_test_only(const struct scenario *sc)
{
	for (size_t i = 0; test_scenarios[i]; i++)
		if (test_scenarios[i] == sc)
			return true;
	return false;
}

const struct scenario *scenario_find(const char *name)
{
	for (size_t i = 0; scenarios[i]; i++)
		if (!strcmp(scenarios[i]->name, name))
			return scenarios[i];
	return NULL;
}

enum check_result scenario_unknown(const char *name, unsigned num)
{
	char known[512] = "";

	for (size_t i = 0; scenarios[i]; i++) {
		size_t used = strlen(known);

		snprintf(known + used, sizeof(known) - used, "%s%s",
			 used ? ", " : "", scenarios[i]->name);
	}
	out_line(0, "# %s: unknown scenario (known: %s)", name, known);
	out_line(0, "not ok %u %s # ERROR unknown scenario", num, name);
	return CHECK_FAIL;
}

enum msg_type {
	MSG_MISSING = 1,	/* text: why the whole scenario is skipped */
	MSG_HEADER,		/* nested header and plan printed */
	MSG_BEGIN,		/* idx: check started */
	MSG_END,		/* idx, result: check finished and printed */
};

/* Small enough for an atomic pipe write. */
struct sc_msg {
	uint32_t type;
	uint32_t idx;
	int32_t result;
	char text[KTAPFMT_REASON_MAX - 12];
};

static void send_msg(int fd, uint32_t type, uint32_t idx, int32_t result,
		     const char *text)
{
	struct sc_msg m = { .type = type, .idx = idx, .result = result };

	if (text)
		snprintf(m.text, sizeof(m.text), "%s", text);
	while (write(fd, &m, sizeof(m)) < 0 && errno == EINTR)
		;
}

static const char *result_directive(enum check_result r)
{
	return r == CHECK_SKIP ? "SKIP" : NULL;
}

__attribute__((noreturn))
static void child_main(const struct scenario *sc, int wfd, pid_t parent)
{
	sigset_t all;
	char reason[KTAPFMT_REASON_MAX];

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	setpgid(0, 0);
	/* Run by hand, the agent may be killed: take the scenario along. */
	if (!agent_is_pid1) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
	}
	reason[0] = '\0';
	if (sc->missing && sc->missing(reason, sizeof(reason))) {
		send_msg(wfd, MSG_MISSING, 0, CHECK_SKIP, reason);
		_exit(0);
	}
	out_line(SUB, "KTAP version 1");
	out_line(SUB, "# Subtest: %s", sc->name);
	out_line(SUB, "1..%zu", sc->n_checks);
	send_msg(wfd, MSG_HEADER, 0, 0, NULL);
	for (size_t i = 0; i < sc->n_checks; i++) {
		struct tctx t = {
			.scenario = sc->name,
			.name = sc->checks[i].name,
			.num = (unsigned)i + 1,
		};
		char line[KTAPFMT_LINE_MAX];
		enum check_result r;
		size_t len;

		send_msg(wfd, MSG_BEGIN, (uint32_t)i, 0, NULL);
		r = sc->checks[i].run(&t);
		len = ktapfmt_result(line, sizeof(line), SUB, r != CHECK_FAIL,
				      t.num, t.name, result_directive(r),
				      t.skip_reason);
		out_line(0, "%.*s", (int)len - 1, line);
		send_msg(wfd, MSG_END, (uint32_t)i, r, t.skip_reason);
	}
	_exit(0);
}

/* SIGCHLD as a file descriptor, so one poll() waits for the child's
 * messages and its exit.  A kernel without signalfd (CONFIG_SIGNALFD is
 * off in tinyconfig) leaves it at -1: supervise() then polls for the
 * child's exit every SIGCHLD_POLL_MS instead. */
static int sigchld_fd = -1;
static bool sigchld_ready;
#define SIGCHLD_POLL_MS 20

static int sigchld_setup(void)
{
	sigset_t s;

	if (sigchld_ready)
		return 0;
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &s, NULL) < 0)
		return -errno;
	sigchld_fd = signalfd(-1, &s, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigchld_fd < 0 && errno != ENOSYS)
		return -errno;
	sigchld_ready = true;
	return 0;
}

/* First field of /proc/sys/kernel/printk, or -1. */
static int read_console_level(void)
{
	long v;

	return read_long("/proc/sys/kernel/printk", &v) == 0 ? (int)v : -1;
}

#define MAX_CHECKS 64

struct run_state {
	const struct scenario *sc;
	bool missing, header;
	char missing_reason[KTAPFMT_REASON_MAX];
	int cur;		/* check begun and not ended, or -1 */
	unsigned ended;		/* checks that reported their end */
	enum check_result res[MAX_CHECKS];
	/* "check: reason; ..." of the checks that skipped, for a scenario
	 * whose every check skipped. */
	char skips[KTAPFMT_REASON_MAX];
};

static void handle_msg(struct run_state *st, const struct sc_msg *m)
{
	switch (m->type) {
	case MSG_MISSING:
		st->missing = true;
		snprintf(st->missing_reason, sizeof(st->missing_reason), "%s",
			 m->text);
		break;
	case MSG_HEADER:
		st->header = true;
		break;
	case MSG_BEGIN:
		st->cur = (int)m->idx;
		break;
	case MSG_END:
		if (m->idx < MAX_CHECKS)
			st->res[m->idx] = (enum check_result)m->result;
		if (m->result == CHECK_SKIP && st->sc &&
		    m->idx < st->sc->n_checks) {
			size_t used = strlen(st->skips);

			snprintf(st->skips + used, sizeof(st->skips) - used,
				 "%s%s: %s", used ? "; " : "",
				 st->sc->checks[m->idx].name,
				 m->text[0] ? m->text : "skipped");
		}
		st->ended = m->idx + 1;
		st->cur = -1;
		break;
	}
}

static void drain(int fd, struct run_state *st)
{
	struct sc_msg m;

	while (read(fd, &m, sizeof(m)) == (ssize_t)sizeof(m))
		handle_msg(st, &m);
}

/*
 * Reap whatever exited; returns true when pid was among them (status
 * stored).  As PID 1 this also reaps orphans of earlier scenarios.
 */
static bool reap(pid_t pid, int *status)
{
	bool found = false;
	pid_t r;
	int s;

	while ((r = waitpid(-1, &s, WNOHANG)) > 0) {
		if (r == pid) {
			*status = s;
			found = true;
		}
	}
	return found;
}

/* How one scenario child ended, as the parent saw it. */
struct child_end {
	pid_t pid;
	int status;
	bool done;		/* reaped: status is valid */
	bool timed_out;
	unsigned limit;		/* seconds, 0: none */
};

/*
 * Fork the scenario's child with a pipe back to us.  0 with *ret_pid and
 * *ret_fd (the read end, non-blocking), or -errno with nothing left open.
 */
static int spawn(const struct scenario *sc, pid_t *ret_pid, int *ret_fd)
{
	int pfd[2], r;
	pid_t pid, parent;

	r = sigchld_setup();
	if (r < 0)
		return r;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return r;
	}
	if (pid == 0) {
		close(pfd[0]);
		child_main(sc, pfd[1], parent);
	}
	/* Both sides set the group: no race with a kill below. */
	setpgid(pid, pid);
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	*ret_pid = pid;
	*ret_fd = pfd[0];
	return 0;
}

/*
 * Follow the child's messages until it exits or its time is up, then make
 * sure nothing of the scenario is left running (its whole process group
 * is killed either way).
 */
static void supervise(int fd, double start, struct run_state *st,
		      struct child_end *e)
{
	double deadline = start + e->limit;

	while (!e->done) {
		struct pollfd fds[2] = {
			{ .fd = sigchld_fd, .events = POLLIN },
			{ .fd = fd, .events = POLLIN },
		};
		int ms = -1;

		if (e->limit) {
			double left = deadline - now_s();

			if (left <= 0) {
				e->timed_out = true;
				break;
			}
			ms = (int)(left * 1000) + 1;
		}
		if (sigchld_fd < 0 && (ms < 0 || ms > SIGCHLD_POLL_MS))
			ms = SIGCHLD_POLL_MS;
		if (poll(fds, 2, ms) < 0 && errno != EINTR)
			break;
		if (fds[1].revents & POLLIN)
			drain(fd, st);
		if (fds[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sigchld_fd, &si, sizeof(si)) > 0)
				;
		}
		/* Also catches a SIGCHLD merged with an earlier one. */
		e->done = reap(e->pid, &e->status);
		if (fds[1].revents & POLLHUP && !(fds[1].revents & POLLIN) &&
		    !e->done) {
			/* Pipe closed but child alive: keep waiting on it. */
			sleep_ms(10);
		}
	}
	if (!e->done) {
		int ignored;

		kill(-e->pid, SIGKILL);
		kill(e->pid, SIGKILL);
		e->done = wait_timeout(e->pid, &e->status, 10000) == 0;
		reap(-1, &ignored);
	} else {
		/* Leftovers of the scenario in its process group. */
		kill(-e->pid, SIGKILL);
	}
	drain(fd, st);
}

/* Every check reported its end: the scenario's own result. */
static enum check_result report_completed(const struct scenario *sc,
					  unsigned num,
					  const struct run_state *st,
					  double start)
{
	unsigned nfail = 0, nskip = 0;
	char failed[512] = "";

	for (size_t i = 0; i < sc->n_checks && i < MAX_CHECKS; i++) {
		if (st->res[i] == CHECK_FAIL) {
			size_t used = strlen(failed);

			nfail++;
			snprintf(failed + used, sizeof(failed) - used, "%s%s",
				 used ? ", " : "", sc->checks[i].name);
		} else if (st->res[i] == CHECK_SKIP) {
			nskip++;
		}
	}
	if (nfail) {
		out_line(0, "# %s: %u of %zu checks failed: %s", sc->name,
			 nfail, sc->n_checks, failed);
		out_line(0, "not ok %u %s", num, sc->name);
		return CHECK_FAIL;
	}
	out_line(0, "# %s: %zu checks, %u skipped, %.1f s", sc->name,
		 sc->n_checks, nskip, now_s() - start);
	if (nskip == sc->n_checks) {
		out_line(0, "ok %u %s # SKIP all checks skipped: %s", num,
			 sc->name, st->skips);
		return CHECK_SKIP;
	}
	out_line(0, "ok %u %s", num, sc->name);
	return CHECK_PASS;
}

/*
 * Crashed, killed, timed out, or ended without reporting all: print the
 * nested lines the child could not (the plan stays complete) and fail.
 */
static enum check_result report_ended_early(const struct scenario *sc,
					    unsigned num,
					    const struct run_state *st,
					    const struct child_end *e)
{
	const char *directive = e->timed_out ? "TIMEOUT" : "ERROR";
	char what[160], why[160], sbuf[64];

	if (e->timed_out)
		snprintf(what, sizeof(what), "timed out after %u s", e->limit);
	else if (!e->done)
		snprintf(what, sizeof(what), "could not be waited for");
	else
		snprintf(what, sizeof(what), "%s",
			 status_str(e->status, sbuf, sizeof(sbuf)));
	/* The directive's data: "TIMEOUT 60 s", "ERROR killed by SIGSEGV". */
	if (e->timed_out)
		snprintf(why, sizeof(why), "%u s", e->limit);
	else
		snprintf(why, sizeof(why), "%s", what);
	for (size_t i = st->ended; st->header && i < sc->n_checks; i++) {
		bool cur = (int)i == st->cur;
		char line[KTAPFMT_LINE_MAX];
		size_t len;

		len = ktapfmt_result(line, sizeof(line), SUB, !cur,
				     (unsigned)i + 1, sc->checks[i].name,
				     cur ? directive : "SKIP",
				     cur ? why : "not run: scenario ended early");
		out_line(0, "%.*s", (int)len - 1, line);
	}
	if (st->cur >= 0)
		out_line(0, "# %s: %s in check %s", sc->name, what,
			 sc->checks[st->cur].name);
	else
		out_line(0, "# %s: %s (%u of %zu checks reported)", sc->name,
			 what, st->ended, sc->n_checks);
	if (!e->done)
		out_line(0, "# %s: process %d did not exit after SIGKILL",
			 sc->name, (int)e->pid);
	out_line(0, "not ok %u %s # %s %s", num, sc->name, directive, why);
	return CHECK_FAIL;
}

enum check_result scenario_run(const struct scenario *sc, unsigned num,
			       const struct agent_params *p)
{
	struct run_state st = { .sc = sc, .cur = -1 };
	struct child_end e = { .pid = -1 };
	double start = now_s();
	int fd = -1, r, console_level;
	bool exited_ok;

	if ((sc->flags & SC_GUEST_ONLY) && !agent_is_pid1) {
		out_line(0, "ok %u %s # SKIP not PID 1: refusing to change "
			 "the kernel state of a machine that is not a test "
			 "guest", num, sc->name);
		return CHECK_SKIP;
	}
	if (!(sc->flags & SC_NO_LIMIT))
		e.limit = p->timeout_s + (sc->extra_time ? sc->extra_time(p) : 0);
	/* A check may lower the console log level (kmsg.c); a killed one
	 * cannot put it back. */
	console_level = read_console_level();
	r = spawn(sc, &e.pid, &fd);
	if (r < 0) {
		out_line(0, "not ok %u %s # ERROR agent: cannot start the "
			 "scenario: %s", num, sc->name, errname(r));
		return CHECK_FAIL;
	}
	supervise(fd, start, &st, &e);
	close(fd);
	if (console_level > 0 && read_console_level() != console_level)
		klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL,
			console_level);

	exited_ok = !e.timed_out && e.done && WIFEXITED(e.status) &&
		    WEXITSTATUS(e.status) == 0;
	if (exited_ok && st.missing) {
		out_line(0, "ok %u %s # SKIP %s", num, sc->name,
			 st.missing_reason);
		return CHECK_SKIP;
	}
	if (exited_ok && st.header && st.ended == sc->n_checks)
		return report_completed(sc, num, &st, start);
	return report_ended_early(sc, num, &st, &e);
}
