// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/virt.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "util/clock.h"
#include "util/log.h"

/* After the guest stopped, wait at most this long for the console stream
 * to deliver what is still in flight (2 s lost the panic or power-off
 * lines of a guest twice on a loaded host: CRASHED instead of PANIC). */
#define DRAIN_GRACE_MS 5000
/* How long a console may take to reach its end once its guest is gone. */
#define STREAM_EOF_GRACE_MS 3000
/* After SIGKILL, how long to wait for the orphaned QEMU to be gone. */
#define KILL_WAIT_MS 5000
/* After the guest shut down and its console ended, how long QEMU may take
 * to exit before the guest's end is left to libvirt's stop event. */
#define QEMU_EXIT_WAIT_MS 250

struct guest {
	virConnectPtr conn;
	virDomainPtr dom;
	virStreamPtr st;
	int lifecycle_cb;
	bool stream_cb;
	bool stream_done;	/* EOF, hang-up or error on the console */
	bool stream_eof;	/* ... really seen, not assumed after a drain */
	bool destroyed_by_us;
	bool lost;		/* libvirtd went away: it cannot destroy the guest */
	bool shutdown_seen;	/* libvirt said the guest shut down (or reset) */
	bool exit_checked;	/* ... and whether its QEMU exited was looked at */
	bool qemu_exited;	/* its QEMU is gone: nothing left to destroy */
	char name[256];		/* the domain's name */
	pid_t qemu_pid;		/* the guest's QEMU, 0 while unknown */

	enum guest_state state;		/* as last reported */
	enum guest_state pending;	/* seen, not reported yet */
	bool pending_set;
	char reason[256];

	struct strbuf out;	/* bytes of this poll */
	bool timer_fired;
};

static const char *const guest_state_names[] = {
	[GUEST_RUNNING] = "running", [GUEST_SHUTOFF] = "shut off",
	[GUEST_CRASHED] = "crashed (pvpanic)",
	[GUEST_FAILED] = "QEMU failed", [GUEST_DESTROYED] = "destroyed",
	[GUEST_LOST] = "libvirt connection lost",
};

const char *guest_state_name(enum guest_state s)
{
	return ENUM_NAME(guest_state_names, s, "unknown");
}

/* libvirt's default error handler prints to stderr; we report once. */
static void quiet_errors(void *ud, virErrorPtr e)
{
}

static int event_loop_ready(void)
{
	static int done;

	if (!done) {
		if (virInitialize() < 0 || virEventRegisterDefaultImpl() < 0)
			return -EIO;
		virSetErrorFunc(NULL, quiet_errors);
		done = 1;
	}
	return 0;
}

static void set_pending(struct guest *g, enum guest_state s, const char *why)
{
	if (g->pending_set && g->pending != GUEST_RUNNING)
		return; /* the first reason is the real one */
	g->pending = s;
	g->pending_set = true;
	snprintf(g->reason, sizeof(g->reason), "%s", why);
}

static int on_lifecycle(virConnectPtr conn, virDomainPtr dom, int event,
			int detail, void *opaque)
{
	struct guest *g = opaque;

	switch (event) {
	case VIR_DOMAIN_EVENT_SHUTDOWN:
		g->shutdown_seen = true;
		break;
	case VIR_DOMAIN_EVENT_CRASHED:
		set_pending(g, GUEST_CRASHED,
			    detail == VIR_DOMAIN_EVENT_CRASHED_PANICKED
				    ? "guest reported a panic (pvpanic)"
				    : "guest crashed");
		break;
	case VIR_DOMAIN_EVENT_STOPPED:
		switch (detail) {
		case VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN:
			set_pending(g, GUEST_SHUTOFF, "guest shut down");
			break;
		case VIR_DOMAIN_EVENT_STOPPED_CRASHED:
			set_pending(g, GUEST_CRASHED, "guest crashed");
			break;
		case VIR_DOMAIN_EVENT_STOPPED_FAILED:
			set_pending(g, GUEST_FAILED,
				    "QEMU or libvirt failed while running");
			break;
		case VIR_DOMAIN_EVENT_STOPPED_DESTROYED:
			set_pending(g, GUEST_DESTROYED,
				    g->destroyed_by_us
					    ? "destroyed by bootproof"
					    : "destroyed from outside bootproof "
					      "(or QEMU was killed)");
			break;
		default:
			set_pending(g, GUEST_DESTROYED, "guest stopped");
		}
		break;
	default:
		break;
	}
	return 0;
}

static int kill_orphan(struct guest *g);

static void on_close(virConnectPtr conn, int reason, void *opaque)
{
	struct guest *g = opaque;
	char why[256];
	int r;

	g->lost = true;
	/* Without libvirtd nobody destroys the guest when we go (its
	 * AUTODESTROY died with the daemon's side of the connection), and
	 * a restarted libvirtd would adopt it: end its QEMU ourselves. */
	r = kill_orphan(g);
	snprintf(why, sizeof(why), "%s; %s",
		 reason == VIR_CONNECT_CLOSE_REASON_EOF
			 ? "libvirtd closed the connection (stopped?)"
			 : "the connection to libvirtd broke",
		 r == 0 ? "bootproof ended the guest's QEMU itself"
			: r == -ESRCH ? "the guest's QEMU is gone"
				      : "the guest's QEMU could not be ended");
	set_pending(g, GUEST_LOST, why);
	g->stream_done = true;
}

static void on_stream(virStreamPtr st, int events, void *opaque)
{
	struct guest *g = opaque;
	char buf[16384];

	if (events & VIR_STREAM_EVENT_READABLE) {
		for (;;) {
			int n = virStreamRecv(st, buf, sizeof(buf));
			if (n > 0) {
				strbuf_add(&g->out, buf, (size_t)n);
				continue;
			}
			if (n == 0 || n == -1)
				g->stream_done = g->stream_eof = true;
			break; /* -2: would block */
		}
	}
	if (events & (VIR_STREAM_EVENT_HANGUP | VIR_STREAM_EVENT_ERROR))
		g->stream_done = g->stream_eof = true;
	if (g->stream_done && g->stream_cb) {
		virStreamEventRemoveCallback(st);
		g->stream_cb = false;
	}
}

static void on_timer(int timer, void *opaque)
{
	struct guest *g = opaque;

	g->timer_fired = true;
}

static void add_libvirt_error(struct strbuf *err)
{
	const char *m = virGetLastErrorMessage();

	if (err)
		strbuf_addstr(err, m && *m ? m : "unknown libvirt error");
}

/* ------------------------------------------------ the QEMU process */

/* Is pid the QEMU of domain name?  libvirt starts it with
 * "-name guest=NAME,..." (a comma in NAME doubled). */
static bool is_qemu_of(pid_t pid, const char *name)
{
	_cleanup_strbuf_ struct strbuf cmd = STRBUF_INIT;
	char path[64], want[300];
	size_t wl;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (strbuf_read_file(&cmd, path, 1 << 20) <= 0)
		return false;
	wl = (size_t)snprintf(want, sizeof(want), "guest=%s", name);
	if (wl >= sizeof(want))
		return false;
	for (size_t off = 0; off < cmd.len; off += strlen(cmd.buf + off) + 1) {
		const char *a = cmd.buf + off;
		if (!strncmp(a, want, wl) && (a[wl] == ',' || !a[wl]))
			return true;
	}
	return false;
}

/* /proc/PID/FILE into sb: > 0 when something was read. */
static long read_proc(pid_t pid, const char *file, struct strbuf *sb)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	return strbuf_read_file(sb, path, 1 << 16);
}

/* A zombie has ended: it only waits for its parent. */
static bool is_running(pid_t pid)
{
	_cleanup_strbuf_ struct strbuf st = STRBUF_INIT;
	const char *p;

	if (read_proc(pid, "stat", &st) <= 0)
		return false;
	p = strrchr(st.buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/*
 * The QEMU of domain name: the pid file libvirt's system instance keeps,
 * else a look through /proc (any URI, any user).  0 when not found.
 */
static pid_t find_qemu(const char *name)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	char path[512];

	snprintf(path, sizeof(path), "/run/libvirt/qemu/%s.pid", name);
	if (strbuf_read_file(&sb, path, 64) > 0) {
		long v = strtol(sb.buf, NULL, 10);
		if (v > 0 && is_qemu_of((pid_t)v, name))
			return (pid_t)v;
	}
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (v > 0 && !*end && is_qemu_of((pid_t)v, name))
			return (pid_t)v;
	}
	return 0;
}

/* The user QEMU runs as: -errno when it cannot be read. */
static long qemu_uid(pid_t pid)
{
	_cleanup_strbuf_ struct strbuf st = STRBUF_INIT;
	const char *p;

	if (read_proc(pid, "status", &st) <= 0)
		return -ENOENT;
	p = strstr(st.buf, "\nUid:");
	if (!p)
		return -EIO;
	return strtol(p + 5, NULL, 10); /* the real uid */
}

/*
 * End the guest's QEMU without libvirt: SIGKILL, then wait until it is
 * gone.  0 when it was killed, -ESRCH when there was none (any more), or
 * -errno (-EPERM: QEMU runs as another user and we are not root).
 */
static int kill_orphan(struct guest *g)
{
	long long end;

	if (!g->name[0])
		return -ESRCH;
	if (!g->qemu_pid || !is_qemu_of(g->qemu_pid, g->name))
		g->qemu_pid = find_qemu(g->name);
	if (!g->qemu_pid || !is_running(g->qemu_pid))
		return -ESRCH;
	if (kill(g->qemu_pid, SIGKILL) < 0)
		return errno == ESRCH ? -ESRCH : -errno;
	end = clock_mono_ms() + KILL_WAIT_MS;
	while (is_running(g->qemu_pid) && is_qemu_of(g->qemu_pid, g->name) &&
	       clock_mono_ms() < end)
		usleep(20 * 1000);
	log_debug("killed QEMU %d of %s (libvirtd gone)", (int)g->qemu_pid,
		  g->name);
	return 0;
}

static void guest_free(struct guest *g);

static int guest_start(const char *uri, const char *xml, struct guest **ret,
		       struct strbuf *err)
{
	struct guest *g;
	int r;

	r = event_loop_ready();
	if (r < 0) {
		if (err)
			strbuf_addstr(err, "cannot initialise libvirt");
		return r;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	strbuf_init(&g->out, 0);
	g->lifecycle_cb = -1;
	g->state = GUEST_RUNNING;

	g->conn = virConnectOpen(uri);
	if (!g->conn) {
		virErrorPtr le = virGetLastError();
		/* Nothing listens on the daemon's socket. */
		bool no_daemon = le && le->domain == VIR_FROM_RPC &&
				 le->code == VIR_ERR_SYSTEM_ERROR;

		if (err)
			strbuf_addf(err, "cannot connect to libvirt at %s: ",
				    uri);
		add_libvirt_error(err);
		if (err && no_daemon)
			strbuf_addstr(err, " (is libvirtd running? make setup "
				      "starts it; bootproof doctor checks "
				      "the host)");
		guest_free(g);
		return -ECONNREFUSED;
	}
	virConnectRegisterCloseCallback(g->conn, on_close, g, NULL);
	/* A libvirtd that stops answering (deadlocked) closes the
	 * connection after about 15 s instead of hanging every call. */
	virConnectSetKeepAlive(g->conn, 5, 3);

	g->dom = virDomainCreateXML(g->conn, xml,
				    VIR_DOMAIN_START_PAUSED |
					    VIR_DOMAIN_START_AUTODESTROY);
	if (!g->dom) {
		if (err)
			strbuf_addstr(err, "libvirt could not create the guest: ");
		add_libvirt_error(err);
		guest_free(g);
		return -EIO;
	}
	{
		const char *n = virDomainGetName(g->dom);
		long uid;

		snprintf(g->name, sizeof(g->name), "%s", n ? n : "");
		g->qemu_pid = g->name[0] ? find_qemu(g->name) : 0;
		/* The kernel under test is untrusted: never let it run in a
		 * QEMU with root's privileges (libvirt's qemu.conf user). */
		uid = g->qemu_pid ? qemu_uid(g->qemu_pid) : -ESRCH;
		if (uid == 0) {
			if (err)
				strbuf_addf(err,
					    "QEMU of %s runs as root (libvirt's "
					    "qemu.conf user = \"root\"?): bootproof "
					    "does not run an untrusted kernel "
					    "with root's privileges",
					    g->name);
			guest_free(g);
			return -EPERM;
		}
		if (!g->qemu_pid)
			log_debug("QEMU of %s not found in /proc", g->name);
	}
	g->lifecycle_cb = virConnectDomainEventRegisterAny(
		g->conn, g->dom, VIR_DOMAIN_EVENT_ID_LIFECYCLE,
		VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle), g, NULL);

	g->st = virStreamNew(g->conn, VIR_STREAM_NONBLOCK);
	if (!g->st ||
	    virDomainOpenConsole(g->dom, "serial0", g->st,
				 VIR_DOMAIN_CONSOLE_FORCE) < 0 ||
	    virStreamEventAddCallback(g->st,
				      VIR_STREAM_EVENT_READABLE |
					      VIR_STREAM_EVENT_HANGUP |
					      VIR_STREAM_EVENT_ERROR,
				      on_stream, g, NULL) < 0) {
		if (err)
			strbuf_addstr(err, "cannot attach to the guest's "
					   "serial console: ");
		add_libvirt_error(err);
		guest_free(g);
		return -EIO;
	}
	g->stream_cb = true;

	if (virDomainResume(g->dom) < 0) {
		if (err)
			strbuf_addstr(err, "cannot start the guest's CPUs: ");
		add_libvirt_error(err);
		guest_free(g);
		return -EIO;
	}
	*ret = g;
	return 0;
}

/* Run libvirt's event loop until cond() or timeout_ms passed. */
static void run_loop(struct guest *g, int timeout_ms,
		     bool (*cond)(struct guest *g))
{
	int t;

	g->timer_fired = false;
	t = virEventAddTimeout(timeout_ms > 0 ? timeout_ms : 0, on_timer, g,
			       NULL);
	while (!cond(g) && !g->timer_fired && t >= 0)
		if (virEventRunDefaultImpl() < 0)
			break;
	if (t >= 0)
		virEventRemoveTimeout(t);
}

/* The guest shut down and its console ended: whether its QEMU exited is
 * to be looked at. */
static bool shutdown_ended(const struct guest *g)
{
	return g->shutdown_seen && g->stream_eof && !g->pending_set &&
	       !g->exit_checked;
}

static bool has_news(struct guest *g)
{
	return g->out.len || (g->pending_set && g->stream_done) ||
	       shutdown_ended(g);
}

/*
 * A guest that shut down (libvirt's SHUTDOWN event: a power-off, or a
 * reset the domain turns into its end) ends with its QEMU.  libvirt 9.0
 * reports the stop only after a check of that QEMU (virProcessKill-
 * PainfullyDelay), which finds the exiting process not yet reaped and
 * sleeps 200 ms before it looks again: every boot would wait for that.
 * So once the console has ended and the guest's QEMU is gone (or a
 * zombie), the guest is shut off here, and libvirtd finishes its own
 * clean-up of the domain by itself (.state_files say when it is done:
 * the engine leaves the guest's files until then).  Without the QEMU's
 * pid (another host, another user) the stop event is waited for.
 */
static void check_qemu_exit(struct guest *g)
{
	long long end = clock_mono_ms() + QEMU_EXIT_WAIT_MS;

	g->exit_checked = true;
	if (!g->qemu_pid)
		return;
	while (is_running(g->qemu_pid) && clock_mono_ms() < end)
		usleep(2 * 1000);
	if (is_running(g->qemu_pid))
		return;
	g->qemu_exited = true;
	set_pending(g, GUEST_SHUTOFF, "guest shut down");
}

static bool stream_finished(struct guest *g)
{
	return g->stream_done || g->out.len;
}

static int guest_poll(struct guest *g, int timeout_ms, struct guest_event *ret)
{
	strbuf_reset(&g->out);
	run_loop(g, timeout_ms, has_news);
	if (!g->out.len && shutdown_ended(g))
		check_qemu_exit(g);

	/* Stopped but the console still open: let it drain a little. */
	if (!g->out.len && g->pending_set && !g->stream_done) {
		long long end = clock_mono_ms() + DRAIN_GRACE_MS;
		while (!g->out.len && !g->stream_done && clock_mono_ms() < end)
			run_loop(g, (int)(end - clock_mono_ms()), stream_finished);
		g->stream_done = g->stream_done || !g->out.len;
	}

	ret->data = g->out.buf;
	ret->len = g->out.len;
	ret->state_changed = 0;
	if (!g->out.len && g->pending_set && g->pending != g->state) {
		g->state = g->pending;
		ret->state_changed = 1;
	}
	ret->state = g->state;
	ret->reason = g->state == GUEST_RUNNING ? NULL : g->reason;
	return 0;
}

static int guest_destroy(struct guest *g)
{
	int active, r;

	if (!g || !g->dom || g->qemu_exited)
		return 0;
	/* libvirtd is gone (or does not answer): QEMU is ours to end. */
	if (g->lost || virConnectIsAlive(g->conn) != 1) {
		r = kill_orphan(g);
		return r == -ESRCH ? 0 : r;
	}
	active = virDomainIsActive(g->dom);
	if (active == 0)
		return 0;
	g->destroyed_by_us = true;
	if (virDomainDestroy(g->dom) < 0) {
		/* It may have stopped meanwhile. */
		if (virDomainIsActive(g->dom) == 0)
			return 0;
		r = kill_orphan(g);
		return r == -ESRCH ? 0 : r;
	}
	return 0;
}

static bool stream_ended(struct guest *g)
{
	return g->stream_eof || g->lost;
}

/*
 * The guest first, then its console.  libvirt 9.0's daemon deadlocks when
 * a client aborts a console stream while the domain is being torn down
 * (virStreamAbort holds the stream and waits for the chrdev lock,
 * virChrdevFree in the QEMU-stopped handler holds that and waits for the
 * stream): seen with two boots at once, every libvirt client hung.  So the
 * stream is aborted only when it is still open after the guest is gone and
 * the console had time to reach its end; normally the console's EOF has
 * closed the daemon's side and there is nothing to abort.
 */
static void guest_free(struct guest *g)
{
	if (!g)
		return;
	if (g->dom)
		guest_destroy(g);
	if (g->st) {
		if (g->stream_cb && !g->stream_eof && !g->lost)
			run_loop(g, STREAM_EOF_GRACE_MS, stream_ended);
		if (g->stream_cb)
			virStreamEventRemoveCallback(g->st);
		if (!g->stream_eof && !g->lost)
			virStreamAbort(g->st);
		virStreamFree(g->st);
	}
	if (g->dom) {
		if (g->lifecycle_cb >= 0)
			virConnectDomainEventDeregisterAny(g->conn,
							   g->lifecycle_cb);
		virDomainFree(g->dom);
	}
	if (g->conn) {
		virConnectUnregisterCloseCallback(g->conn, on_close);
		virConnectClose(g->conn);
	}
	strbuf_release(&g->out);
	free(g);
}

/*
 * libvirtd keeps <name>.xml and <name>.pid in its run directory while a
 * domain is active, and removes them last when it stops one, after it
 * restored the owners of the domain's files (qemuProcessStop): the
 * system instance's, or a session's under XDG_RUNTIME_DIR.
 */
static size_t guest_state_files(const char *name, char (*files)[PATH_MAX],
				size_t max)
{
	static const char *const ext[] = { "xml", "pid" };
	const char *rt = getenv("XDG_RUNTIME_DIR");
	size_t n = 0;

	for (size_t i = 0; i < ELEMENTSOF(ext); i++) {
		if (n < max)
			snprintf(files[n++], PATH_MAX, "/run/libvirt/qemu/%s.%s",
				 name, ext[i]);
		if (rt && *rt && n < max)
			snprintf(files[n++], PATH_MAX,
				 "%s/libvirt/qemu/run/%s.%s", rt, name, ext[i]);
	}
	return n;
}

const struct domain_ops virt_domain_ops = {
	.start = guest_start,
	.poll = guest_poll,
	.destroy = guest_destroy,
	.free = guest_free,
	.state_files = guest_state_files,
};
