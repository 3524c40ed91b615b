// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroups: cgroup v2 controllers enabled through cgroup.subtree_control, a
 * process moved into a group, pids.max stopping a fork with EAGAIN,
 * memory.max enforced by the OOM killer (counted in memory.events), a
 * group frozen and thawed through cgroup.freeze; user, mount and PID
 * namespaces; PSI files readable.  Groups are made directly under the
 * root (no internal-process constraint there) and removed afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"

#define CG "/sys/fs/cgroup"
#define CGROUP2_SUPER_MAGIC 0x63677270

static char *cg_file(char *buf, size_t n, const char *group, const char *file)
{
	snprintf(buf, n, CG "/%s%s%s", group, file ? "/" : "",
		 file ? file : "");
	return buf;
}

static int cg_write(const char *group, const char *file, const char *val)
{
	char path[256];

	return write_file(cg_file(path, sizeof(path), group, file), val);
}

static long cg_read(const char *group, const char *file, char *buf, size_t n)
{
	char path[256];

	return read_line(cg_file(path, sizeof(path), group, file), buf, n);
}

static int cg_keyed(const char *group, const char *file, const char *key,
		    long *ret)
{
	char path[256];

	return read_keyed(cg_file(path, sizeof(path), group, file), key, ret);
}

/* Kill what is left in a group and remove it. */
static void cg_remove(const char *group)
{
	char path[256], procs[4096];

	if (!path_exists(cg_file(path, sizeof(path), group, NULL)))
		return;
	cg_write(group, "cgroup.freeze", "0");
	cg_write(group, "cgroup.kill", "1");
	if (cg_read(group, "cgroup.procs", procs, sizeof(procs)) > 0)
		for (char *p = procs; *p;) {
			long pid = strtol(p, &p, 10);

			if (pid > 0)
				kill((pid_t)pid, SIGKILL);
			p += strspn(p, "\n");
			if (!pid)
				break;
		}
	for (int i = 0; i < 200; i++) {
		if (rmdir(path) == 0 || errno == ENOENT)
			return;
		sleep_ms(10);
	}
}

static int cg_make(const char *group)
{
	char path[256];

	cg_remove(group);
	if (mkdir(cg_file(path, sizeof(path), group, NULL), 0755) < 0)
		return -errno;
	return 0;
}

static int cg_move(const char *group, pid_t pid)
{
	char s[32];

	snprintf(s, sizeof(s), "%d", (int)pid);
	return cg_write(group, "cgroup.procs", s);
}

static bool cgroup2_ready(struct tctx *t, enum check_result *ret)
{
	char fs[8192];

	if (fs_magic(CG) == CGROUP2_SUPER_MAGIC)
		return true;
	if (read_file("/proc/filesystems", fs, sizeof(fs)) > 0 &&
	    !strstr(fs, "\tcgroup2\n"))
		*ret = skip(t, "CONFIG_CGROUPS not set (no cgroup2 in "
			       "/proc/filesystems)");
	else
		*ret = fail(t, "cgroup2 not mounted on " CG);
	return false;
}

/* ---------------------------------------------------------- controllers */

static const struct {
	const char *name, *cfg, *ksym;
} ctrls[] = {
	{ "memory", "MEMCG", "mem_cgroup_from_task" },
	{ "pids", "CGROUP_PIDS", "pids_cgrp_subsys" },
	{ "cpu", "CGROUP_SCHED", "cpu_cgrp_subsys" },
};

enum ctrl_state { CTRL_UNKNOWN, CTRL_ON, CTRL_MISSING, CTRL_BROKEN };
static enum ctrl_state ctrl_state[ELEMENTSOF(ctrls)];
static char ctrl_why[ELEMENTSOF(ctrls)][KTAPFMT_REASON_MAX];

static bool word_in(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += wl)
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[wl] == ' ' || p[wl] == '\n' || p[wl] == '\0'))
			return true;
	return false;
}

/* The "enabled" column of /proc/cgroups: 1, 0, or -1 when not listed. */
static int proc_cgroups_enabled(const char *name)
{
	char buf[4096];

	if (read_file("/proc/cgroups", buf, sizeof(buf)) < 0)
		return -1;
	for (char *l = buf; l && *l;) {
		char n[32];
		int h, c, e;

		if (sscanf(l, "%31s %d %d %d", n, &h, &c, &e) == 4 &&
		    !strcmp(n, name))
			return e;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return -1;
}

static enum check_result check_controllers(struct tctx *t)
{
	char avail[512], sub[512], child[512], val[64];
	enum check_result r = CHECK_PASS;
	unsigned nbroken = 0;

	if (!cgroup2_ready(t, &r))
		return r;
	if (cg_read("", "cgroup.controllers", avail, sizeof(avail)) < 0)
		return fail(t, CG "/cgroup.controllers: %s", errname(errno));
	diag(t, "root cgroup.controllers: %s", avail);
	for (size_t i = 0; i < ELEMENTSOF(ctrls); i++) {
		char plus[40];
		int e, w;

		if (!word_in(avail, ctrls[i].name)) {
			e = proc_cgroups_enabled(ctrls[i].name);
			if (e == 0) {
				ctrl_state[i] = CTRL_BROKEN;
				snprintf(ctrl_why[i], KTAPFMT_REASON_MAX,
					 "%s controller disabled at boot "
					 "(/proc/cgroups enabled=0: "
					 "cgroup_disable=%s?)",
					 ctrls[i].name, ctrls[i].name);
			} else if (feature_missing(ctrls[i].cfg,
						   ctrls[i].ksym, 0, NULL,
						   ctrl_why[i],
						   KTAPFMT_REASON_MAX)) {
				ctrl_state[i] = CTRL_MISSING;
			} else {
				ctrl_state[i] = CTRL_BROKEN;
				snprintf(ctrl_why[i], KTAPFMT_REASON_MAX,
					 "%s controller not in "
					 CG "/cgroup.controllers",
					 ctrls[i].name);
			}
			diag(t, "%s", ctrl_why[i]);
			if (ctrl_state[i] == CTRL_BROKEN)
				nbroken++;
			continue;
		}
		snprintf(plus, sizeof(plus), "+%s", ctrls[i].name);
		w = cg_write("", "cgroup.subtree_control", plus);
		if (w < 0) {
			ctrl_state[i] = CTRL_BROKEN;
			snprintf(ctrl_why[i], KTAPFMT_REASON_MAX,
				 "writing %s to cgroup.subtree_control: %s",
				 plus, errname(w));
			diag(t, "%s", ctrl_why[i]);
			nbroken++;
			continue;
		}
		ctrl_state[i] = CTRL_ON;
	}
	if (cg_read("", "cgroup.subtree_control", sub, sizeof(sub)) < 0)
		return fail(t, "reading cgroup.subtree_control: %s",
			    errname(errno));
	if (cg_make("bp-ctl") < 0)
		return fail(t, "mkdir " CG "/bp-ctl: %s", errname(errno));
	if (cg_read("bp-ctl", "cgroup.controllers", child, sizeof(child)) < 0)
		child[0] = '\0';
	for (size_t i = 0; i < ELEMENTSOF(ctrls); i++) {
		if (ctrl_state[i] != CTRL_ON)
			continue;
		if (!word_in(sub, ctrls[i].name) ||
		    !word_in(child, ctrls[i].name)) {
			ctrl_state[i] = CTRL_BROKEN;
			snprintf(ctrl_why[i], KTAPFMT_REASON_MAX,
				 "%s enabled but not offered to a child "
				 "group (subtree_control: %.80s; child: "
				 "%.80s)", ctrls[i].name, sub, child);
			diag(t, "%s", ctrl_why[i]);
			nbroken++;
		}
	}
	/* The cpu controller's files work in the child. */
	if (ctrl_state[2] == CTRL_ON) {
		if (cg_write("bp-ctl", "cpu.weight", "50") < 0 ||
		    cg_read("bp-ctl", "cpu.weight", val, sizeof(val)) < 0 ||
		    strcmp(val, "50")) {
			diag(t, "cpu.weight did not take 50");
			nbroken++;
		}
	}
	cg_remove("bp-ctl");
	diag(t, "subtree_control: %s", sub);
	if (nbroken)
		return fail(t, "%u controller(s) unusable", nbroken);
	return CHECK_PASS;
}

/* Controller i usable?  Otherwise the result for a check that needs it. */
static bool need_ctrl(struct tctx *t, size_t i, enum check_result *ret)
{
	if (!cgroup2_ready(t, ret))
		return false;
	switch (ctrl_state[i]) {
	case CTRL_ON:
		return true;
	case CTRL_MISSING:
		*ret = skip(t, "%s", ctrl_why[i]);
		return false;
	case CTRL_BROKEN:
		*ret = fail(t, "%s", ctrl_why[i]);
		return false;
	default:
		*ret = fail(t, "controllers check did not run");
		return false;
	}
}

/* ---------------------------------------------------------- processes */

static int sleeper(void *arg)
{
	for (;;)
		pause();
	return 0;
}

static void reap_kill(pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	if (wait_timeout(pid, &st, 5000) < 0)
		waitpid(pid, &st, WNOHANG);
}

static enum check_result check_move_process(struct tctx *t)
{
	enum check_result r = CHECK_PASS;
	char path[64], buf[256], procs[256];
	pid_t pid;
	int e;

	if (!cgroup2_ready(t, &r))
		return r;
	e = cg_make("bp-move");
	if (e < 0)
		return fail(t, "mkdir " CG "/bp-move: %s", errname(e));
	pid = fork_fn(sleeper, NULL);
	if (pid < 0)
		return fail(t, "fork: %s", errname(errno));
	e = cg_move("bp-move", pid);
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	if (e < 0)
		r = fail(t, "writing pid %d to bp-move/cgroup.procs: %s",
			 (int)pid, errname(e));
	else if (read_line(path, buf, sizeof(buf)) < 0)
		r = fail(t, "%s: %s", path, errname(errno));
	else if (strcmp(buf, "0::/bp-move") != 0)
		r = fail(t, "%s says '%s', expected '0::/bp-move'", path, buf);
	else if (cg_read("bp-move", "cgroup.procs", procs, sizeof(procs)) < 0 ||
		 atoi(procs) != pid)
		r = fail(t, "bp-move/cgroup.procs lists '%s', expected %d",
			 procs, (int)pid);
	reap_kill(pid);
	cg_remove("bp-move");
	return r;
}

/* In a group with pids.max=1: fork must fail with EAGAIN. */
static int fork_in_limit(void *arg)
{
	int *sync = arg;
	char c;
	pid_t pid;

	if (read(sync[0], &c, 1) != 1)
		return 3;
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		return 1;
	}
	return errno == EAGAIN ? 0 : 2;
}

static enum check_result check_pids_max(struct tctx *t)
{
	enum check_result r = CHECK_PASS;
	int sync[2], st = 0, e;
	long events = 0;
	pid_t pid;
	char sb[64];

	if (!need_ctrl(t, 1, &r))
		return r;
	e = cg_make("bp-pids");
	if (e < 0)
		return fail(t, "mkdir bp-pids: %s", errname(e));
	if (pipe(sync) < 0)
		return fail(t, "pipe: %s", errname(errno));
	pid = fork_fn(fork_in_limit, sync);
	if (pid < 0)
		return fail(t, "fork: %s", errname(errno));
	if ((e = cg_move("bp-pids", pid)) < 0)
		r = fail(t, "moving into bp-pids: %s", errname(e));
	else if ((e = cg_write("bp-pids", "pids.max", "1")) < 0)
		r = fail(t, "pids.max=1: %s", errname(e));
	if (write(sync[1], "g", 1) != 1 && r == CHECK_PASS)
		r = fail(t, "sync: %s", errname(errno));
	close(sync[0]);
	close(sync[1]);
	if (wait_timeout(pid, &st, 10000) < 0) {
		reap_kill(pid);
		cg_remove("bp-pids");
		return fail(t, "the forking process did not finish");
	}
	if (r == CHECK_PASS) {
		if (!WIFEXITED(st) || WEXITSTATUS(st) == 1)
			r = fail(t, "fork in a group with pids.max=1 "
				    "succeeded (%s)",
				 status_str(st, sb, sizeof(sb)));
		else if (WEXITSTATUS(st) != 0)
			r = fail(t, "fork failed but not with EAGAIN (%s)",
				 status_str(st, sb, sizeof(sb)));
		else if (cg_keyed("bp-pids", "pids.events", "max", &events) < 0 ||
			 events < 1)
			r = fail(t, "pids.events max=%ld, expected >= 1",
				 events);
		else
			diag(t, "fork refused with EAGAIN, pids.events max=%ld",
			     events);
	}
	cg_remove("bp-pids");
	return r;
}

#define MEM_LIMIT (32L << 20)
#define MEM_ALLOC (128L << 20)

static int allocate_in_group(void *arg)
{
	char *p;

	if (cg_write("bp-mem", "cgroup.procs", "0") < 0)
		return 3;
	p = mmap(NULL, MEM_ALLOC, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 2;
	for (long i = 0; i < MEM_ALLOC; i += 4096)
		p[i] = 1;
	return 0;
}

static enum check_result check_memory_max(struct tctx *t)
{
	enum check_result r = CHECK_PASS;
	char lim[32], sb[64];
	long oom_kill = 0, peak = -1;
	struct kmsg_window kw;
	unsigned kproblems;
	pid_t pid;
	int e, st = 0;

	if (!need_ctrl(t, 0, &r))
		return r;
	e = cg_make("bp-mem");
	if (e < 0)
		return fail(t, "mkdir bp-mem: %s", errname(e));
	snprintf(lim, sizeof(lim), "%ld", MEM_LIMIT);
	if ((e = cg_write("bp-mem", "memory.max", lim)) < 0) {
		cg_remove("bp-mem");
		return fail(t, "memory.max=%s: %s", lim, errname(e));
	}
	/* No swap in the guest, but never let it rescue the allocation. */
	cg_write("bp-mem", "memory.swap.max", "0");
	/* KERN_WARNING and below stay off the console: the OOM report. */
	kmsg_quiet_begin(&kw, 4);
	pid = fork_fn(allocate_in_group, NULL);
	if (pid < 0) {
		kmsg_quiet_end(&kw, t);
		return fail(t, "fork: %s", errname(errno));
	}
	if (wait_timeout(pid, &st, 60000) < 0) {
		reap_kill(pid);
		kmsg_quiet_end(&kw, t);
		cg_remove("bp-mem");
		return fail(t, "the allocating process neither finished nor "
			       "was killed within 60 s");
	}
	/* Let the OOM killer's last lines reach the log. */
	sleep_ms(200);
	kproblems = kmsg_quiet_end(&kw, t);
	cg_keyed("bp-mem", "memory.events", "oom_kill", &oom_kill);
	{
		char path[128];

		if (read_long(cg_file(path, sizeof(path), "bp-mem",
				      "memory.peak"), &peak) < 0)
			peak = -1;
	}
	if (kproblems)
		r = fail(t, "%u kernel problem line(s) logged during the OOM "
			    "kill", kproblems);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		r = fail(t, "touched %ld MiB in a group with memory.max=%ld "
			    "MiB and was not killed", MEM_ALLOC >> 20,
			 MEM_LIMIT >> 20);
	else if (WIFEXITED(st))
		r = fail(t, "the allocating process failed (%s)",
			 status_str(st, sb, sizeof(sb)));
	else if (WTERMSIG(st) != SIGKILL)
		r = fail(t, "the allocating process was %s, expected the OOM "
			    "killer's SIGKILL", status_str(st, sb, sizeof(sb)));
	else if (oom_kill < 1)
		r = fail(t, "killed, but memory.events oom_kill=%ld",
			 oom_kill);
	else
		diag(t, "%ld MiB allocation OOM-killed at memory.max=%ld MiB, "
			"oom_kill=%ld, memory.peak=%ld", MEM_ALLOC >> 20,
		     MEM_LIMIT >> 20, oom_kill, peak);
	cg_remove("bp-mem");
	return r;
}

static int ticker(void *arg)
{
	volatile unsigned long *count = arg;

	for (;;) {
		(*count)++;
		sleep_ms(1);
	}
	return 0;
}

/* Wait for "frozen <want>" in cgroup.events. */
static bool wait_frozen(const char *group, long want, unsigned ms)
{
	double end = now_s() + ms / 1000.0;
	long v;

	do {
		if (cg_keyed(group, "cgroup.events", "frozen", &v) == 0 &&
		    v == want)
			return true;
		sleep_ms(20);
	} while (now_s() < end);
	return false;
}

/* How long a new or thawed process may take to (run and) tick. */
#define THAW_TICK_S 5

static enum check_result check_freeze(struct tctx *t)
{
	enum check_result r = CHECK_PASS;
	volatile unsigned long *count;
	unsigned long a, b;
	double start;
	pid_t pid;
	int e;

	if (!cgroup2_ready(t, &r))
		return r;
	e = cg_make("bp-freeze");
	if (e < 0)
		return fail(t, "mkdir bp-freeze: %s", errname(e));
	if (!path_exists(CG "/bp-freeze/cgroup.freeze")) {
		cg_remove("bp-freeze");
		return skip(t, "no cgroup.freeze (kernel before 5.2)");
	}
	count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED)
		return fail(t, "mmap: %s", errname(errno));
	pid = fork_fn(ticker, (void *)count);
	if (pid < 0)
		return fail(t, "fork: %s", errname(errno));
	if ((e = cg_move("bp-freeze", pid)) < 0) {
		r = fail(t, "moving into bp-freeze: %s", errname(e));
		goto out;
	}
	/* The new process has to be scheduled first: on a loaded TCG guest
	 * that can take a while. */
	a = *count;
	start = now_s();
	while (*count == a && now_s() - start < THAW_TICK_S)
		sleep_ms(20);
	if (*count == a) {
		r = fail(t, "the ticking process has not ticked in %u s",
			 THAW_TICK_S);
		goto out;
	}
	if ((e = cg_write("bp-freeze", "cgroup.freeze", "1")) < 0) {
		r = fail(t, "cgroup.freeze=1: %s", errname(e));
		goto out;
	}
	if (!wait_frozen("bp-freeze", 1, 10000)) {
		r = fail(t, "cgroup.events never said frozen 1");
		goto out;
	}
	a = *count;
	sleep_ms(500);
	b = *count;
	if (a != b) {
		r = fail(t, "frozen, but the process ticked %lu times in "
			    "500 ms", b - a);
		goto out;
	}
	if ((e = cg_write("bp-freeze", "cgroup.freeze", "0")) < 0) {
		r = fail(t, "cgroup.freeze=0: %s", errname(e));
		goto out;
	}
	if (!wait_frozen("bp-freeze", 0, 10000)) {
		r = fail(t, "cgroup.events never said frozen 0 after thaw");
		goto out;
	}
	/* A thawed task runs again at its next wake-up: give a guest under
	 * TCG time, and say how long it took. */
	start = now_s();
	while (*count == b && now_s() - start < THAW_TICK_S)
		sleep_ms(20);
	if (*count == b)
		r = fail(t, "thawed, but the process has not ticked in %u s",
			 THAW_TICK_S);
	else
		diag(t, "frozen for 500 ms without a tick, ticking again "
			"%.2f s after thaw", now_s() - start);
out:
	reap_kill(pid);
	cg_remove("bp-freeze");
	munmap((void *)count, 4096);
	return r;
}

/* ---------------------------------------------------------- namespaces */

struct ns_result {
	int err;		/* errno of the failing step, 0 */
	char step[48];
	long v1, v2;
};

static struct ns_result *ns_shared(void)
{
	struct ns_result *res = mmap(NULL, sizeof(*res),
				     PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (res == MAP_FAILED)
		return NULL;
	memset(res, 0, sizeof(*res));
	return res;
}

static int ns_fail(struct ns_result *res, const char *step)
{
	res->err = errno;
	snprintf(res->step, sizeof(res->step), "%s", step);
	return 1;
}

struct ns_arg {
	struct ns_result *res;
	int to_parent[2], to_child[2];
};

static int userns_child(void *arg)
{
	struct ns_arg *a = arg;
	struct stat st;
	char c;

	if (unshare(CLONE_NEWUSER) < 0)
		ns_fail(a->res, "unshare(CLONE_NEWUSER)");
	if (write(a->to_parent[1], "u", 1) != 1 || a->res->err)
		return 1;
	if (read(a->to_child[0], &c, 1) != 1)
		return 1;
	a->res->v1 = (long)getuid();
	if (stat("/", &st) < 0)
		return ns_fail(a->res, "stat /");
	a->res->v2 = (long)st.st_uid;
	return 0;
}

static enum check_result ns_wait(struct tctx *t, pid_t pid, struct ns_arg *a,
				 const char *cfg, const char *ksym)
{
	char reason[KTAPFMT_REASON_MAX], sb[64];
	int st;

	if (wait_timeout(pid, &st, 10000) < 0) {
		reap_kill(pid);
		return fail(t, "namespace child did not finish");
	}
	if (a->res->err) {
		if (feature_missing(cfg, ksym, a->res->err, a->res->step,
				    reason, sizeof(reason)))
			return skip(t, "%s", reason);
		return fail(t, "%s: %s", a->res->step, errname(a->res->err));
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return fail(t, "namespace child: %s",
			    status_str(st, sb, sizeof(sb)));
	return CHECK_PASS;
}

static enum check_result check_userns(struct tctx *t)
{
	struct ns_arg a = { .res = ns_shared() };
	enum check_result r;
	char path[64], c;
	pid_t pid;
	int e = 0;

	if (!a.res || pipe(a.to_parent) < 0 || pipe(a.to_child) < 0)
		return fail(t, "setup: %s", errname(errno));
	pid = fork_fn(userns_child, &a);
	if (pid < 0)
		return fail(t, "fork: %s", errname(errno));
	if (read(a.to_parent[0], &c, 1) == 1 && !a.res->err) {
		/* Root outside becomes uid/gid 1000 inside. */
		snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
		e = write_file(path, "1000 0 1");
		snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
		if (!e)
			e = write_file(path, "1000 0 1");
	}
	if (write(a.to_child[1], "m", 1) != 1)
		e = e ? e : -errno;
	r = ns_wait(t, pid, &a, "USER_NS", "create_user_ns");
	if (r != CHECK_PASS)
		return r;
	if (e < 0)
		return fail(t, "writing uid_map/gid_map: %s", errname(e));
	if (a.res->v1 != 1000)
		return fail(t, "uid inside is %ld, expected 1000 (uid_map "
			       "\"1000 0 1\")", a.res->v1);
	if (a.res->v2 != 1000)
		return fail(t, "/ (owned by root outside) is owned by %ld "
			       "inside, expected 1000", a.res->v2);
	diag(t, "root outside is uid 1000 inside, and so is the owner of /");
	return CHECK_PASS;
}

#define MNT_DIR "/tmp/bp-mntns"

static int mntns_child(void *arg)
{
	struct ns_arg *a = arg;
	char c;
	int fd;

	if (unshare(CLONE_NEWNS) < 0)
		ns_fail(a->res, "unshare(CLONE_NEWNS)");
	else if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		ns_fail(a->res, "mount --make-rprivate /");
	else if (mount("tmpfs", MNT_DIR, "tmpfs", 0, "size=1m") < 0)
		ns_fail(a->res, "mount tmpfs " MNT_DIR);
	else if ((fd = open(MNT_DIR "/inside", O_CREAT | O_WRONLY, 0644)) < 0)
		ns_fail(a->res, "create " MNT_DIR "/inside");
	else
		close(fd);
	if (write(a->to_parent[1], "u", 1) != 1 || a->res->err)
		return 1;
	if (read(a->to_child[0], &c, 1) != 1)
		return 1;
	a->res->v1 = path_exists(MNT_DIR "/inside");
	return 0;
}

static enum check_result check_mountns(struct tctx *t)
{
	struct ns_arg a = { .res = ns_shared() };
	static char mi[65536];
	enum check_result r;
	char path[64], c;
	bool seen_outside = true, in_child = false, in_self = true;
	pid_t pid;

	if (!a.res || pipe(a.to_parent) < 0 || pipe(a.to_child) < 0)
		return fail(t, "setup: %s", errname(errno));
	if (mkdir(MNT_DIR, 0755) < 0 && errno != EEXIST)
		return fail(t, "mkdir " MNT_DIR ": %s", errname(errno));
	pid = fork_fn(mntns_child, &a);
	if (pid < 0)
		return fail(t, "fork: %s", errname(errno));
	if (read(a.to_parent[0], &c, 1) == 1 && !a.res->err) {
		seen_outside = path_exists(MNT_DIR "/inside");
		snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
		in_child = read_file(path, mi, sizeof(mi)) > 0 &&
			   strstr(mi, " " MNT_DIR " ");
		in_self = read_file("/proc/self/mountinfo", mi, sizeof(mi)) > 0 &&
			  strstr(mi, " " MNT_DIR " ");
	}
	if (write(a.to_child[1], "m", 1) != 1)
		return fail(t, "sync: %s", errname(errno));
	r = ns_wait(t, pid, &a, NULL, NULL);
	rmdir(MNT_DIR);
	if (r != CHECK_PASS)
		return r;
	if (!a.res->v1)
		return fail(t, "the child does not see its own mount");
	if (seen_outside || in_self)
		return fail(t, "the child's tmpfs on " MNT_DIR " is visible "
			       "outside its mount namespace");
	if (!in_child)
		return fail(t, "/proc/<child>/mountinfo lacks " MNT_DIR);
	diag(t, "tmpfs on " MNT_DIR " visible inside only");
	return CHECK_PASS;
}

static int pidns_child(void *arg)
{
	struct ns_arg *a = arg;
	pid_t pid;
	int st;

	if (unshare(CLONE_NEWPID) < 0)
		return ns_fail(a->res, "unshare(CLONE_NEWPID)");
	pid = fork();
	if (pid < 0)
		return ns_fail(a->res, "fork in the new PID namespace");
	if (pid == 0) {
		a->res->v1 = (long)getpid();
		a->res->v2 = (long)getppid();
		_exit(0);
	}
	if (waitpid(pid, &st, 0) < 0)
		return ns_fail(a->res, "waitpid");
	return pid == 1 ? 1 : 0;
}

static enum check_result check_pidns(struct tctx *t)
{
	struct ns_arg a = { .res = ns_shared() };
	enum check_result r;
	pid_t pid;

	if (!a.res)
		return fail(t, "setup: %s", errname(errno));
	a.res->v1 = a.res->v2 = -1;
	pid = fork_fn(pidns_child, &a);
	if (pid < 0)
		return fail(t, "fork: %s", errname(errno));
	r = ns_wait(t, pid, &a, "PID_NS", "copy_pid_ns");
	if (r != CHECK_PASS)
		return r;
	if (a.res->v1 != 1 || a.res->v2 != 0)
		return fail(t, "first process of the new PID namespace has "
			       "pid %ld ppid %ld, expected 1 and 0",
			    a.res->v1, a.res->v2);
	diag(t, "first process in the new namespace is pid 1 (ppid 0)");
	return CHECK_PASS;
}

/* ---------------------------------------------------------- PSI */

static enum check_result check_psi(struct tctx *t)
{
	static const char *const res[] = { "cpu", "memory", "io" };
	char reason[KTAPFMT_REASON_MAX], buf[512], cmdline[4096] = "";

	read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	if (!path_exists("/proc/pressure")) {
		if (feature_missing("PSI", "psi_task_change", 0, NULL, reason,
				    sizeof(reason)))
			return skip(t, "%s", reason);
		return fail(t, "no /proc/pressure although PSI is built in: "
			       "disabled at boot (CONFIG_PSI_DEFAULT_DISABLED "
			       "needs psi=1; command line %s psi=1)",
			    strstr(cmdline, "psi=1") ? "has" : "lacks");
	}
	for (size_t i = 0; i < ELEMENTSOF(res); i++) {
		char path[64];
		long r;

		snprintf(path, sizeof(path), "/proc/pressure/%s", res[i]);
		r = read_file(path, buf, sizeof(buf));
		if (r == -EOPNOTSUPP)
			return fail(t, "%s: EOPNOTSUPP: PSI disabled at boot "
				       "(needs psi=1)", path);
		if (r < 0)
			return fail(t, "%s: %s", path, errname((int)r));
		if (strncmp(buf, "some avg10=", 11) != 0)
			return fail(t, "%s does not start with 'some avg10=': "
				       "%.60s", path, buf);
		if (i == 0)
			diag(t, "%s: %.*s", path, (int)strcspn(buf, "\n"),
			     buf);
	}
	return CHECK_PASS;
}

static const struct check cgroups_checks[] = {
	CHECK(controllers), CHECK(move_process), CHECK(pids_max),
	CHECK(memory_max), CHECK(freeze), CHECK(userns), CHECK(mountns),
	CHECK(pidns), CHECK(psi),
};

SCENARIO_DEFINE(cgroups,
	.summary = "cgroup v2 controllers, pids/memory limits, freezer; "
		   "user/mount/PID namespaces; PSI",
	.flags = SC_GUEST_ONLY);
