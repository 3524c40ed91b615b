// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/boot.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../scenarios/contract.h"
#include "adapters/gdb.h"
#include "adapters/proc.h"
#include "core/agentchan.h"
#include "core/bootlog.h"
#include "core/bootrec.h"
#include "core/console.h"
#include "core/gdbout.h"
#include "core/ktap.h"
#include "core/recjson.h"
#include "util/clock.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/lockfile.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/strbuf.h"

#define POLL_MS 200
/* After a panic message, how long the guest may take to end by itself
 * (panic=-1 reboots at once; a kernel told panic=0 would sit forever). */
#define PANIC_GRACE_MS 10000
/* The host half of kgdb: gdb's whole session. */
#define GDB_TIMEOUT_MS 60000
#define MAX_SCENARIOS 32
/* console.log keeps at most this much of what the guest printed. */
#define CONSOLE_LOG_MAX (64 << 20)
/* What is read of the agent's channel file: the boot scenario's line and
 * the kernel's log (a log buffer is at most 32 MiB, LOG_BUF_SHIFT 25). */
#define CHANNEL_READ_MAX (40 << 20)
/* Least time between two records handed to on_update. */
#define UPDATE_MIN_MS 1000

struct session {
	const struct boot_request *req;
	struct bootlog *bl;		/* console -> KTAP -> verdict chain */
	const struct console *con;	/* bl's parsers */
	const struct ktap *ktap;
	FILE *log;
	uint64_t log_bytes;	/* printed by the guest so far */
	bool log_cut;		/* console.log reached CONSOLE_LOG_MAX */
	char *log_path;
	int stage_lock;		/* flock on <stage_dir>.lock while we run */
	bool stage_ended;	/* stage_end() ran */
	long long t0, t_init, t_done, panic_at, last_update;
	bool updated;
	/* kgdb */
	int kgdb_port;
	bool kgdb_wanted, kgdb_ready, kgdb_poked, kgdb_go, kgdb_ran;
	int kgdb_err;
	struct gdbout gdb;
	struct kgdb_check kgdb_check;
	bool kgdb_ok;
	char *kgdb_file;
	/* the agent's virtio-serial channel, a file in the stage directory */
	char *channel_path;	/* NULL: not attached as a file */
	bool channel_read;	/* read after the guest ended */
	long long channel_bytes;	/* without the kernel's log */
	bool channel_line;	/* the agent's line arrived */
	char *channel_file;	/* its copy in run_dir (file name), or NULL */
	/* the kernel's log the agent sent over it (core/agentchan) */
	char *dmesg_file;	/* in run_dir (file name), or NULL */
	long long dmesg_bytes, dmesg_announced;	/* announced: -1 none */
	bool dmesg_complete;	/* agentchan_dmesg_complete() */
	/* scenarios asked for */
	char *scen_buf;
	const char *scen[MAX_SCENARIOS];
	size_t n_scen;
	/* domain */
	struct guest *g;
	enum boot_end end;
	char end_reason[512];
	bool qemu_crashed;	/* QEMU stopped by itself (not destroyed) */
	char *cmdline;
	char *xml;
	unsigned timeout_s, heavy;
	char started[32];
	double host_load;	/* the host's 1-minute load at the start; < 0: unknown */
	struct timeline tl;	/* where the time went (run.json "timeline") */
	char *serial_log;	/* QEMU's own log of ttyS0 (stage dir) */
	size_t readback_bytes;	/* console bytes taken from it */
};

/* The first field of /proc/loadavg; -1 when it cannot be read. */
static double host_load_1min(void)
{
	FILE *f = fopen("/proc/loadavg", "re");
	double v = -1;

	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void iso_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void progress(struct session *s, const char *fmt, ...) _printf_(2, 3);
static void progress(struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->req->quiet)
		return;
	fprintf(stderr, "bootproof: [%6.1fs] %s%s", (clock_mono_ms() - s->t0) / 1000.0,
		s->req->prefix && *s->req->prefix ? s->req->prefix : "",
		s->req->prefix && *s->req->prefix ? " " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The next phase of the boot's timeline begins now. */
static void phase(struct session *s, const char *name)
{
	timeline_begin(&s->tl, name, clock_mono_ms());
}

static bool wants(const struct session *s, const char *name)
{
	for (size_t i = 0; i < s->n_scen; i++)
		if (!strcmp(s->scen[i], name))
			return true;
	return false;
}

/* ------------------------------------------------------------ events */

static void on_line(const struct console_line *l, bool agent, void *ud)
{
	struct session *s = ud;
	const char *t = l->text;

	/* The kernel's own words start the line (a kernel message printed
	 * mid-line is split off by the console parser); a quote of them in
	 * the agent's output is not a panic. */
	if (!s->panic_at && !strncmp(t, "Kernel panic - not syncing", 26))
		s->panic_at = clock_mono_ms();
	if (agent && s->t_done < 0 && bootlog_agent_said_done(s->bl)) {
		s->t_done = clock_mono_ms();
		phase(s, "power-off");
	}
	/* Only the agent's lines (bootlog.h) say the agent is ready. */
	if (agent && s->kgdb_wanted && strstr(t, BP_KGDB_READY))
		s->kgdb_ready = true;
	if (s->kgdb_ready && !s->kgdb_ran) {
		static const char *const marks[] = BP_KGDB_ENTERED_MARKS;

		for (size_t i = 0; i < ELEMENTSOF(marks) && !s->kgdb_go; i++)
			s->kgdb_go = strstr(t, marks[i]) != NULL;
	}
}

static void on_milestone(const struct console_milestone_event *ev, void *ud)
{
	struct session *s = ud;

	if (ev->milestone == CONSOLE_MS_INIT_STARTED && s->t_init < 0)
		s->t_init = clock_mono_ms();
	/* Each reached once a boot (console.h); the timeline's phases are
	 * named after what they wait for. */
	switch (ev->milestone) {
	case CONSOLE_MS_KERNEL_BANNER:
		phase(s, "kernel");
		break;
	case CONSOLE_MS_INIT_STARTED:
		phase(s, s->req->initrd ? "initrd" : "init");
		break;
	case CONSOLE_MS_KTAP_START:
		phase(s, "agent");
		break;
	default:
		break;
	}
	progress(s, "%s", console_milestone_name(ev->milestone));
	s->updated = true;
}

static void on_problem(const struct console_problem *p, void *ud)
{
	struct session *s = ud;

	progress(s, "kernel problem %s: %s", console_problem_kind_name(p->kind),
		 p->title);
	s->updated = true;
}

static void on_ktap(const struct ktap_event *ev, void *ud)
{
	struct session *s = ud;
	char name[TIMELINE_NAME_MAX];

	if (ev->type == KTAP_EV_TEST_START && ev->test->depth == 1 &&
	    ev->test->name) {
		snprintf(name, sizeof(name), "scenario %s", ev->test->name);
		phase(s, name);
	}
	if (ev->type == KTAP_EV_TEST_DONE && ev->test->depth == 1) {
		/* A scenario named only by its result line: the time since
		 * the last phase began was its. */
		snprintf(name, sizeof(name), "scenario %s",
			 ev->test->name ? ev->test->name : "?");
		if (s->t_done < 0 && timeline_open(&s->tl) &&
		    strcmp(timeline_open(&s->tl), name))
			timeline_rename(&s->tl, name);
		if (s->t_done < 0)
			phase(s, "agent");
		progress(s, "scenario %s: %s%s%s", ev->test->name,
			 ktap_status_name(ev->test->status),
			 ev->test->reason ? ": " : "",
			 ev->test->reason ? ev->test->reason : "");
		s->updated = true;
	}
}

/* ------------------------------------------------------------ record */

static json_object *kgdb_json(const struct session *s)
{
	json_object *o = json_object_new_object(), *bt;

	json_object_object_add(o, "port", json_object_new_int(s->kgdb_port));
	json_object_object_add(o, "ran", json_object_new_boolean(s->kgdb_ran));
	if (!s->kgdb_ran)
		return o;
	if (s->kgdb_err)
		recjson_add_str(o, "error", strerror(-s->kgdb_err));
	json_object_object_add(o, "connected",
			       json_object_new_boolean(s->kgdb_check.connected));
	json_object_object_add(o, "stop_in_kgdb",
			       json_object_new_boolean(s->kgdb_check.stop_in_kgdb));
	json_object_object_add(o, "via_sysrq",
			       json_object_new_boolean(s->kgdb_check.via_sysrq));
	json_object_object_add(o, "banner_matches",
			       json_object_new_boolean(s->kgdb_check.banner_matches));
	json_object_object_add(o, "detached",
			       json_object_new_boolean(s->kgdb_check.detached));
	recjson_add_str(o, "banner", s->gdb.have_banner ? s->gdb.banner : NULL);
	bt = json_object_new_array();
	for (size_t i = 0; i < s->gdb.n_frames; i++)
		json_object_array_add(bt, json_object_new_string(s->gdb.frames[i]));
	json_object_object_add(o, "backtrace", bt);
	recjson_add_str(o, "reason", s->kgdb_check.reason[0] ? s->kgdb_check.reason
							    : NULL);
	recjson_add_str(o, "transcript", s->kgdb_file);
	return o;
}

/* The host half of the boot scenario's virtio_channel check. */
static json_object *channel_json(const struct session *s)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object();

	json_object_object_add(c, "bytes", json_object_new_int64(s->channel_bytes));
	json_object_object_add(c, "agent_line",
			       json_object_new_boolean(s->channel_line));
	recjson_add_str(c, "file", s->channel_file);
	json_object_object_add(o, "channel", c);
	return o;
}

/* The guest's virtio_channel check passed (it wrote its line, or found
 * the host side closed, which a file behind the channel never is), but
 * the line is not in the file. */
static bool channel_unproven(const struct session *s, const struct ktap_test *t)
{
	for (size_t i = 0; i < t->n_children; i++)
		if (!strcmp(t->children[i]->name, "virtio_channel"))
			return t->children[i]->status == KTAP_PASS &&
			       !s->channel_line;
	return false;
}

/*
 * One scenario's result: the guest's KTAP (core/bootrec), combined with the
 * host halves of kgdb (gdb's session) and of the boot scenario's
 * virtio_channel check (what arrived in the channel's file).  Returns true
 * when it counts as a failure.
 */
static bool scenario_json(const struct session *s, const char *name,
			  bool final, json_object **ret)
{
	struct bootrec_scenario sc;
	const struct ktap_test *t;
	json_object *host = NULL;

	bootrec_scenario_of(s->bl, name, final, &sc);
	t = sc.test;
	if (!strcmp(name, "kgdb") && s->kgdb_wanted) {
		if (s->kgdb_ran && !s->kgdb_ok && strcmp(sc.result, "skip")) {
			sc.result = "fail";
			sc.reason = s->kgdb_check.reason[0] ? s->kgdb_check.reason
							    : "gdb session failed";
		} else if (final && !s->kgdb_ran && !strcmp(sc.result, "pass")) {
			sc.result = "fail";
			sc.reason = "the guest passed but the host debugger never "
				    "attached";
		}
		host = kgdb_json(s);
	} else if (!strcmp(name, "boot") && s->channel_read && t) {
		if (channel_unproven(s, t) && strcmp(sc.result, "error")) {
			sc.result = "fail";
			sc.reason = "virtio_channel: the agent's line did not "
				    "reach the host";
		}
		host = channel_json(s);
	} else if (!strcmp(name, "kgdb") && !s->req->vmlinux && t &&
		   t->status == KTAP_SKIP) {
		host = json_object_new_object();
		recjson_add_str(host, "skipped", "no vmlinux given (--vmlinux): "
						 "nothing for gdb to debug with");
	}
	return bootrec_scenario_json(name, &sc, host, ret);
}

static json_object *build_record(struct session *s, const struct verdict *v,
				 size_t *ret_failed)
{
	const struct boot_request *r = s->req;
	json_object *sc, *files, *rec;
	size_t failed = 0;
	char buf[64];
	struct bootrec br = {
		.name = r->name,
		.arch = bp_arch_name(r->arch),
		.accel = bp_accel_name(r->accel),
		.accel_reason = r->accel_reason,
		.machine = DOMXML_MACHINE,
		.kernel = r->kernel,
		.initrd = r->initrd,
		.vmlinux = r->vmlinux,
		.config = r->config,
		.image = r->image,
		.cmdline = s->cmdline,
		.timeout_s = s->timeout_s,
		.heavy = s->heavy,
		.started = s->started,
		.host_load = s->host_load,
		.elapsed_s = (clock_mono_ms() - s->t0) / 1000.0,
		.time_to_init_s = s->t_init >= 0 ? (s->t_init - s->t0) / 1000.0 : -1,
		.time_to_agent_end_s =
			s->t_done >= 0 ? (s->t_done - s->t0) / 1000.0 : -1,
		.verdict = v,
		.end = s->end,
		.end_reason = s->end_reason,
		.allowed = r->allowed,
		.n_allowed = r->n_allowed,
		.timeline = timeline_json(&s->tl),
	};

	sc = json_object_new_array();
	for (size_t i = 0; r->image && i < s->n_scen; i++) {
		json_object *one;
		if (scenario_json(s, s->scen[i], v != NULL, &one))
			failed++;
		json_object_array_add(sc, one);
	}
	br.scenarios = sc;
	files = json_object_new_object();
	snprintf(buf, sizeof(buf), "%sconsole.log", r->prefix ? r->prefix : "");
	recjson_add_str(files, "console", buf);
	snprintf(buf, sizeof(buf), "%sdomain.xml", r->prefix ? r->prefix : "");
	recjson_add_str(files, "domain_xml", buf);
	if (s->kgdb_file)
		recjson_add_str(files, "kgdb", s->kgdb_file);
	if (s->channel_file)
		recjson_add_str(files, "channel", s->channel_file);
	if (s->dmesg_file)
		recjson_add_str(files, "dmesg", s->dmesg_file);
	br.files = files;
	if (ret_failed)
		*ret_failed = failed;
	rec = bootrec_build(s->bl, &br);
	if (rec && s->dmesg_announced >= 0) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "bytes",
				       json_object_new_int64(s->dmesg_bytes));
		json_object_object_add(d, "announced",
				       json_object_new_int64(s->dmesg_announced));
		json_object_object_add(d, "complete",
				       json_object_new_boolean(s->dmesg_complete));
		json_object_object_add(rec, "dmesg", d);
	}
	return rec;
}

static void maybe_update(struct session *s)
{
	json_object *rec;
	long long t = clock_mono_ms();

	/* At most one record a second: a guest printing results as fast as
	 * it can must not have the whole record rebuilt and saved for every
	 * poll. */
	if (!s->updated || !s->req->on_update ||
	    (s->last_update && t - s->last_update < UPDATE_MIN_MS))
		return;
	s->last_update = t;
	s->updated = false;
	rec = build_record(s, NULL, NULL);
	s->req->on_update(s->req->ud, rec);
	json_object_put(rec);
}

/* ------------------------------------------------------------ setup */

char *boot_cmdline(const struct boot_request *req, int kgdb_port)
{
	struct strbuf sb = STRBUF_INIT;

	/* printk.time=1: the engine tells kernel messages from the agent's
	 * lines by their timestamp (a kernel cannot fake agent output). */
	strbuf_addstr(&sb, "console=ttyS0,115200 panic=-1 printk.time=1");
	if (req->image) {
		strbuf_addf(&sb, " root=" BP_ROOT_DEV " rw init=" BP_AGENT_PATH
				 " psi=1"
				 " " BP_PARAM_SCENARIOS "=%s"
				 " " BP_PARAM_TIMEOUT "=%u",
			    req->scenarios ? req->scenarios : "boot",
			    req->scenario_timeout_s ? req->scenario_timeout_s
						    : 120);
		if (kgdb_port > 0)
			strbuf_addstr(&sb, " nokaslr"
					   " " BP_PARAM_KGDB "=" BP_KGDB_TTY
					   " " BP_PARAM_KGDB_WAIT "=60");
	}
	if (req->cmdline_extra && *req->cmdline_extra)
		strbuf_addf(&sb, " %s", req->cmdline_extra);
	return strbuf_detach(&sb, NULL);
}

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	if (fd < 0)
		return -errno;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port > 0 ? port : -EADDRNOTAVAIL;
}

/* How many of libvirt's files say it holds a domain (domain_ops). */
#define STATE_FILES_MAX 4
/* How long a stage waits for libvirt to let go of its domain. */
#define RELEASE_WAIT_MS 30000

/* The files that say libvirt still holds the domain called name
 * (domain_ops.state_files): how many. */
static size_t state_files(const struct domain_ops *ops, const char *name,
			  char (*files)[PATH_MAX])
{
	return ops->state_files && name
		       ? ops->state_files(name, files, STATE_FILES_MAX)
		       : 0;
}

static bool held(const struct domain_ops *ops, const char *name)
{
	char files[STATE_FILES_MAX][PATH_MAX];

	return any_path_exists(files, state_files(ops, name, files));
}

/*
 * A staging directory lives as long as its run holds <dir>.lock (flock).
 * A run killed with SIGKILL cannot remove its directory (kernel, initrd,
 * overlay: tens of MiB): the next run removes every directory beside its
 * own whose lock nobody holds.  A directory without a lock file is left
 * alone: it may belong to a run between creating its lock and locking it,
 * and so is one whose domain libvirt still holds (domain_ops.state_files;
 * the directory is named after its domain): stage_end() leaves those.
 */
static void sweep_stale_stages(const char *parent, const struct domain_ops *ops)
{
	_cleanup_closedir_ DIR *d = opendir(parent);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		_cleanup_free_ char *lock = NULL, *dir = NULL;
		_cleanup_lockfile_ int fd = -1;

		if (n <= 5 || strcmp(de->d_name + n - 5, ".lock"))
			continue;
		lock = path_join(parent, de->d_name);
		fd = lockfile_take(lock, LOCKFILE_NOFOLLOW | LOCKFILE_NOCREATE |
					 LOCKFILE_NOWAIT, NULL);
		if (fd < 0)
			continue;
		dir = strndup(lock, strlen(lock) - 5);
		if (dir && strrchr(dir, '/') && held(ops, strrchr(dir, '/') + 1))
			continue;
		if (dir && rm_rf(dir) == 0) {
			unlink(lock);
			log_debug("removed %s (left by a run that was killed)",
				  dir);
		}
	}
}

static int stage_lock(struct session *s, struct strbuf *err)
{
	const char *dir = s->req->stage_dir;
	_cleanup_free_ char *parent = strdup(dir), *lock = NULL;
	char *slash;
	int e;

	if (!parent || asprintf(&lock, "%s.lock", dir) < 0)
		return -ENOMEM;
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = '\0';
	e = mkdir_p(parent, 0755);
	if (e < 0) {
		strbuf_addf(err, "cannot create %s: %s", parent, strerror(-e));
		return e;
	}
	sweep_stale_stages(parent, s->req->ops);
	s->stage_lock = lockfile_take(lock, LOCKFILE_NOFOLLOW,
				      s->req->interrupted);
	if (s->stage_lock < 0) {
		e = s->stage_lock;
		strbuf_addf(err, "cannot lock %s: %s", lock, strerror(-e));
		return e;
	}
	return 0;
}

static void stage_unlock(struct session *s)
{
	_cleanup_free_ char *lock = NULL;

	if (s->stage_lock < 0)
		return;
	if (asprintf(&lock, "%s.lock", s->req->stage_dir) >= 0)
		unlink(lock);
	lockfile_release(&s->stage_lock);
}

/*
 * After the guest: its staged files go, and when libvirt still holds its
 * domain (a guest that shut down is reported ended before libvirtd has
 * restored the owners of its files, virt.c) they go as soon as libvirt
 * let go of it, without the boot waiting for that
 * (proc_remove_when_gone).
 */
static void stage_end(struct session *s)
{
	const struct boot_request *r = s->req;
	char files[STATE_FILES_MAX][PATH_MAX];
	size_t nf;

	if (s->stage_ended)
		return;
	s->stage_ended = true;
	nf = state_files(r->ops, r->name, files);
	if (s->stage_lock >= 0 && any_path_exists(files, nf)) {
		_cleanup_free_ char *lock = NULL;

		lockfile_release(&s->stage_lock);
		/* The lock file goes last: a stage that was not removed (libvirt
		 * held it past RELEASE_WAIT_MS, the process was killed) is the
		 * next boot's sweep's. */
		if (asprintf(&lock, "%s.lock", r->stage_dir) < 0 ||
		    proc_remove_when_gone(r->stage_dir, lock, files, nf,
					  RELEASE_WAIT_MS) < 0)
			log_debug("%s stays for a later boot's sweep",
				  r->stage_dir);
		return;
	}
	rm_rf(r->stage_dir);
	stage_unlock(s);
}

static int stage_files(struct session *s, char **ret_kernel,
		       char **ret_initrd, char **ret_disk, struct strbuf *err)
{
	const struct boot_request *r = s->req;
	_cleanup_free_ char *k = path_join(r->stage_dir, "vmlinuz");
	_cleanup_free_ char *i = NULL, *d = NULL;
	int e;

	e = stage_lock(s, err);
	if (e < 0)
		return e;
	e = mkdir_p(r->stage_dir, 0755);
	if (e < 0) {
		strbuf_addf(err, "cannot create %s: %s", r->stage_dir, strerror(-e));
		return e;
	}
	e = copy_file_atomic(r->kernel, k, 0644);
	if (e < 0) {
		strbuf_addf(err, "cannot stage kernel %s: %s", r->kernel,
			    strerror(-e));
		return e;
	}
	if (r->initrd) {
		i = path_join(r->stage_dir, "initrd.img");
		e = copy_file_atomic(r->initrd, i, 0644);
		if (e < 0) {
			strbuf_addf(err, "cannot stage initrd %s: %s", r->initrd,
				    strerror(-e));
			return e;
		}
	}
	if (r->image) {
		_cleanup_(proc_result_release) struct proc_result pr = PROC_RESULT_INIT;
		const char *argv[] = { "qemu-img", "create", "-q", "-f", "qcow2",
				       "-F", "raw", "-b", r->image, NULL, NULL };
		struct proc_cmd cmd = { .argv = argv, .timeout_ms = 30000 };

		d = path_join(r->stage_dir, "root.qcow2");
		argv[9] = d;
		e = proc_run(&cmd, &pr);
		if (e < 0 || !proc_result_ok(&pr)) {
			strbuf_addf(err, "qemu-img could not create the overlay "
					 "%s over %s: ",
				    d, r->image);
			if (e < 0)
				strbuf_addstr(err, strerror(-e));
			else
				strbuf_add(err, pr.err.buf, pr.err.len);
			strbuf_rtrim(err);
			return e < 0 ? e : -EIO;
		}
		chmod(d, 0644);
	}
	*ret_kernel = TAKE_PTR(k);
	*ret_initrd = TAKE_PTR(i);
	*ret_disk = TAKE_PTR(d);
	return 0;
}

static bool config_enabled(const char *name, void *ud)
{
	const struct strbuf *cfg = ud;
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "\nCONFIG_%s=", name);
	p = strstr(cfg->buf, key);
	if (!p && !strncmp(cfg->buf, key + 1, strlen(key + 1)))
		p = cfg->buf - 1;
	if (!p)
		return false;
	p += strlen(key);
	return *p == 'y' || *p == 'm';
}

unsigned boot_timeout(const struct boot_request *req, enum bp_accel accel,
		      unsigned *ret_heavy)
{
	_cleanup_strbuf_ struct strbuf cfg = STRBUF_INIT;
	unsigned heavy = 0, t = req->timeout_s;

	if (!t) {
		if (req->config &&
		    strbuf_read_file(&cfg, req->config, 8 << 20) < 0)
			strbuf_reset(&cfg);
		t = verdict_boot_timeout(accel == BP_ACCEL_KVM,
					 cfg.len ? config_enabled : NULL, &cfg,
					 &heavy);
	}
	if (ret_heavy)
		*ret_heavy = heavy;
	return t;
}

/* ------------------------------------------------------------ the run */

static void run_kgdb(struct session *s)
{
	_cleanup_strbuf_ struct strbuf tr = STRBUF_INIT;
	long long t = clock_mono_ms();
	char name[64];
	_cleanup_free_ char *path = NULL;

	s->kgdb_go = false;
	s->kgdb_ran = true;
	progress(s, "kgdb: attaching gdb to 127.0.0.1:%d", s->kgdb_port);
	/* Let the kernel settle in the debugger loop. */
	usleep(300 * 1000);
	s->kgdb_err = gdb_kgdb_session(s->req->vmlinux, s->kgdb_port,
				       GDB_TIMEOUT_MS, &tr, &s->gdb);
	s->kgdb_ok = !s->kgdb_err &&
		     kgdb_check_judge(&s->gdb, console_banner(s->con),
				      &s->kgdb_check);
	if (s->kgdb_err && !s->kgdb_check.reason[0])
		snprintf(s->kgdb_check.reason, sizeof(s->kgdb_check.reason),
			 "gdb: %s", strerror(-s->kgdb_err));
	snprintf(name, sizeof(name), "%skgdb-gdb.txt",
		 s->req->prefix ? s->req->prefix : "");
	path = path_join(s->req->run_dir, name);
	if (write_file_atomic(path, tr.buf, tr.len, 0644) == 0)
		s->kgdb_file = strdup(name);
	progress(s, "kgdb: %s (%.1fs)",
		 s->kgdb_ok ? "backtrace and banner checked, detached"
			    : s->kgdb_check.reason,
		 (clock_mono_ms() - t) / 1000.0);
	s->updated = true;
}

/*
 * The kgdb handshake (docs/scenarios.md): the guest enters the debugger
 * only once the host has shown it is there, so that it can never hang
 * forever.  One byte on the kgdb serial port is that sign ('+', which kgdb
 * ignores); QEMU's socket takes one client at a time, so close at once.
 */
static void kgdb_poke(struct session *s)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd;

	s->kgdb_poked = true;
	a.sin_port = htons((uint16_t)s->kgdb_port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    write(fd, "+", 1) == 1)
		progress(s, "kgdb: guest ready, told it the debugger is here");
	else
		progress(s, "kgdb: cannot reach the kgdb port %d: %s",
			 s->kgdb_port, strerror(errno));
	close(fd);
}

static void end_from_state(struct session *s, const struct guest_event *ev)
{
	switch (ev->state) {
	case GUEST_SHUTOFF:
		s->end = BOOT_END_STOPPED;
		break;
	case GUEST_CRASHED:
		s->end = BOOT_END_PANIC_EVENT;
		break;
	case GUEST_LOST:
		s->end = BOOT_END_INFRA;
		break;
	case GUEST_FAILED:
		s->qemu_crashed = true;
		s->end = BOOT_END_QEMU_FAILED;
		break;
	case GUEST_DESTROYED:
	default:
		s->end = BOOT_END_QEMU_FAILED;
		break;
	}
	snprintf(s->end_reason, sizeof(s->end_reason), "%s",
		 ev->reason ? ev->reason : guest_state_name(ev->state));
}

/*
 * Console bytes: to the parsers, and to console.log up to CONSOLE_LOG_MAX
 * (a guest that floods its console must not fill the results disk: the
 * log says where it was cut).  -errno when console.log cannot be written:
 * the end is then INFRA (a boot nobody can read is not worth going on
 * with).
 */
static int take(struct session *s, const char *data, size_t len)
{
	size_t keep = len;
	int e;

	bootlog_feed(s->bl, data, len);
	if (s->log_bytes + keep > CONSOLE_LOG_MAX)
		keep = s->log_bytes < CONSOLE_LOG_MAX
			       ? CONSOLE_LOG_MAX - s->log_bytes
			       : 0;
	s->log_bytes += len;
	errno = 0;
	if ((keep && fwrite(data, 1, keep, s->log) != keep) ||
	    (keep < len && !s->log_cut &&
	     fprintf(s->log, "\n[bootproof: console log cut at %d MiB; the "
			     "guest went on printing]\n",
		     CONSOLE_LOG_MAX >> 20) < 0) ||
	    fflush(s->log) != 0) {
		e = errno ? errno : EIO;
		s->end = BOOT_END_INFRA;
		snprintf(s->end_reason, sizeof(s->end_reason),
			 "cannot write %s: %s", s->log_path, strerror(e));
		return -e;
	}
	if (keep < len)
		s->log_cut = true;
	return 0;
}

/*
 * After the guest: what QEMU wrote to ttyS0 beyond what the console
 * stream delivered.  libvirt's stream can lose its last bytes when QEMU
 * goes while the host is loaded (seen: a clean boot without its "reboot:
 * Power down" became CRASHED); QEMU's own log of the same serial port
 * (<log file> in the domain XML) has every byte, so the missing end is
 * read from there and goes the same way.
 */
static void readback(struct session *s)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	off_t at = (off_t)s->log_bytes;
	size_t want, got = 0;

	if (!s->serial_log)
		return;
	fd = open(s->serial_log, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= at)
		return;
	want = (size_t)(st.st_size - at);
	if (want > CONSOLE_LOG_MAX)
		want = CONSOLE_LOG_MAX;
	buf = malloc(want);
	if (!buf)
		return;
	while (got < want) {
		ssize_t k = pread(fd, buf + got, want - got, at + (off_t)got);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (!got)
		return;
	s->readback_bytes = got;
	progress(s, "console: %zu bytes the stream did not deliver read back "
		    "from QEMU's log of ttyS0", got);
	(void)take(s, buf, got);
}

static void follow(struct session *s)
{
	const struct domain_ops *ops = s->req->ops;
	long long deadline = s->t0 + (long long)s->timeout_s * 1000;

	for (;;) {
		struct guest_event ev;
		long long t = clock_mono_ms();
		int e;

		if (s->req->interrupted && *s->req->interrupted) {
			ops->destroy(s->g);
			s->end = BOOT_END_INTERRUPTED;
			snprintf(s->end_reason, sizeof(s->end_reason),
				 "interrupted by a signal");
			return;
		}
		if (t >= deadline) {
			ops->destroy(s->g);
			s->end = BOOT_END_TIMEOUT;
			snprintf(s->end_reason, sizeof(s->end_reason),
				 "still running after %us: destroyed",
				 s->timeout_s);
			return;
		}
		if (s->panic_at && t - s->panic_at > PANIC_GRACE_MS) {
			ops->destroy(s->g);
			s->end = BOOT_END_STOPPED;
			snprintf(s->end_reason, sizeof(s->end_reason),
				 "destroyed %ds after the kernel panicked",
				 PANIC_GRACE_MS / 1000);
			return;
		}
		e = ops->poll(s->g, POLL_MS, &ev);
		if (e < 0) {
			ops->destroy(s->g);
			s->end = BOOT_END_INFRA;
			snprintf(s->end_reason, sizeof(s->end_reason),
				 "reading the guest failed: %s", strerror(-e));
			return;
		}
		if (ev.len && take(s, ev.data, ev.len) < 0) {
			ops->destroy(s->g);
			return;
		}
		if (ev.state_changed) {
			end_from_state(s, &ev);
			return;
		}
		if (s->kgdb_ready && !s->kgdb_poked)
			kgdb_poke(s);
		if (s->kgdb_go && !s->kgdb_ran) {
			long long t1 = clock_mono_ms();
			run_kgdb(s);
			/* The guest stood still meanwhile. */
			deadline += clock_mono_ms() - t1;
		}
		maybe_update(s);
	}
}

static void parse_scenarios(struct session *s)
{
	char *save = NULL;

	s->scen_buf = strdup(s->req->scenarios ? s->req->scenarios : "boot");
	for (char *t = strtok_r(s->scen_buf, ",", &save);
	     t && s->n_scen < MAX_SCENARIOS; t = strtok_r(NULL, ",", &save))
		if (*t)
			s->scen[s->n_scen++] = t;
}

static void finish(struct session *s, enum boot_end forced, const char *why,
		   struct boot_outcome *ret)
{
	struct bootlog_context ctx;
	struct verdict v;
	size_t failed = 0;

	if (why) {
		s->end = forced;
		snprintf(s->end_reason, sizeof(s->end_reason), "%s", why);
	}
	ctx = (struct bootlog_context){
		.end = s->end,
		.end_reason = s->end_reason,
		.expect_agent = s->req->image != NULL,
		.timeout_s = s->timeout_s,
		.allowed = s->req->allowed,
		.n_allowed = s->req->n_allowed,
	};
	bootlog_finish(s->bl);
	bootlog_decide(s->bl, &ctx, &v);
	timeline_end(&s->tl, clock_mono_ms());

	ret->verdict = v.verdict;
	ret->retryable = s->qemu_crashed && v.verdict == VERDICT_INFRA;
	ret->record = build_record(s, &v, &failed);
	ret->scenarios_failed = failed;
	ret->exit_code = bootrec_exit_code(v.verdict, failed);
	progress(s, "verdict %s: %s", boot_verdict_name(v.verdict), v.reason);
}

/* Keep len bytes as <prefix>NAME in the run directory: the file name, or
 * NULL when it could not be written. */
static char *keep_file(const struct session *s, const char *what,
		       const void *buf, size_t len)
{
	const struct boot_request *r = s->req;
	_cleanup_free_ char *path = NULL;
	char name[64];

	snprintf(name, sizeof(name), "%s%s", r->prefix ? r->prefix : "", what);
	path = path_join(r->run_dir, name);
	if (!path || write_file_atomic(path, buf, len, 0644) < 0)
		return NULL;
	return strdup(name);
}

/*
 * After the guest: what it wrote to the agent's channel (QEMU's file
 * chardev in the stage directory, the first CHANNEL_READ_MAX bytes): the
 * kernel's log it carries is kept as <prefix>dmesg.txt, the rest as
 * <prefix>channel.log in the run directory.  A file QEMU never created
 * is an empty channel.
 */
static void read_channel(struct session *s)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	struct agentchan c;
	struct strbuf rest = STRBUF_INIT;
	struct stat st;
	size_t n = 0, want;

	if (!s->channel_path)
		return;
	s->channel_read = true;
	fd = open(s->channel_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	want = st.st_size < CHANNEL_READ_MAX ? (size_t)st.st_size
					      : CHANNEL_READ_MAX;
	buf = malloc(want + 1);
	if (!buf)
		return;
	while (n < want) {
		ssize_t k = read(fd, buf + n, want - n);
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	agentchan_split(buf, n, &c);
	strbuf_add(&rest, c.before, c.before_len);
	if (c.after_len)
		strbuf_add(&rest, c.after, c.after_len);
	s->channel_bytes = (long long)rest.len;
	s->channel_line = rest.len &&
			  memmem(rest.buf, rest.len, BP_CHANNEL_LINE,
				 strlen(BP_CHANNEL_LINE)) != NULL;
	if (rest.len)
		s->channel_file = keep_file(s, "channel.log", rest.buf, rest.len);
	strbuf_release(&rest);
	s->dmesg_announced = c.dmesg_announced;
	if (c.dmesg) {
		s->dmesg_bytes = (long long)c.dmesg_len;
		s->dmesg_file = keep_file(s, "dmesg.txt", c.dmesg, c.dmesg_len);
		s->dmesg_complete = agentchan_dmesg_complete(&c);
		if (!s->dmesg_complete)
			progress(s, "the kernel's log is short: %zu of %lld "
				    "bytes arrived over the channel",
				 c.dmesg_len, c.dmesg_announced);
	}
}

/* The firmware of a direct kernel boot: the arch's fast one when the host
 * has it, else NULL (QEMU's default, SeaBIOS). */
static const char *firmware_of(enum bp_arch arch)
{
	const struct bp_arch_info *a = bp_arch_info(arch);

	if (!a || !a->fast_firmware || access(a->fast_firmware, R_OK) < 0)
		return NULL;
	return a->fast_firmware;
}

/*
 * Define and start the guest of the staged files: its command line and
 * domain XML (kept in the run directory), then the domain; a kgdb port
 * another run took between our probe and QEMU's bind is chosen again.
 * 0, or -errno with err saying what failed (the boot is then INFRA).
 */
static int start_guest(struct session *s, const char *kernel,
		       const char *initrd, const char *disk, struct strbuf *err)
{
	const struct boot_request *req = s->req;
	const char *firmware = firmware_of(req->arch);
	char name[64];
	int e = -EINVAL;

	snprintf(name, sizeof(name), "%sdomain.xml",
		 req->prefix ? req->prefix : "");
	for (int attempt = 0; attempt < 3; attempt++) {
		_cleanup_free_ char *xml_path = path_join(req->run_dir, name);
		struct domxml_spec spec = {
			.name = req->name,
			.arch = req->arch,
			.accel = req->accel,
			.memory_mib = req->memory_mib,
			.vcpus = req->vcpus,
			.kernel = kernel,
			.initrd = initrd,
			.firmware = firmware,
			.disk = disk,
			.channel_file = s->channel_path,
			.serial_log = s->serial_log,
		};

		if (s->kgdb_wanted) {
			s->kgdb_port = free_port();
			if (s->kgdb_port < 0)
				s->kgdb_port = 0;
		}
		free(s->cmdline);
		free(s->xml);
		s->xml = NULL;
		s->cmdline = boot_cmdline(req, s->kgdb_port);
		spec.cmdline = s->cmdline;
		spec.kgdb_port = s->kgdb_port;
		e = domxml_build(&spec, &s->xml);
		if (e < 0) {
			strbuf_addf(err, "cannot build the domain XML: %s",
				    strerror(-e));
			return e;
		}
		e = write_file_atomic(xml_path, s->xml, strlen(s->xml), 0644);
		if (e < 0) {
			strbuf_addf(err, "cannot write %s: %s", xml_path,
				    strerror(-e));
			return e;
		}
		strbuf_reset(err);
		progress(s, "starting %s guest %s (%s)", bp_arch_name(req->arch),
			 req->name, bp_accel_name(req->accel));
		phase(s, "start");
		e = req->ops->start(req->uri, s->xml, &s->g, err);
		if (e == 0)
			return 0;
		/* Another run took the kgdb port between our probe and
		 * QEMU's bind: try another. */
		if (!s->kgdb_port || !strstr(err->buf, "in use"))
			return e;
	}
	return e;
}

static int boot_attempt(const struct boot_request *req_in,
			struct boot_outcome *ret)
{
	struct boot_request req = *req_in;
	struct session s = { .req = &req, .t_init = -1, .t_done = -1,
			     .stage_lock = -1, .dmesg_announced = -1 };
	static const struct bootlog_ops bops = {
		.on_line = on_line,
		.on_milestone = on_milestone,
		.on_problem = on_problem,
		.on_ktap = on_ktap,
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *kernel = NULL, *initrd = NULL, *disk = NULL;
	char name[64];
	int e;

	memset(ret, 0, sizeof(*ret));
	if (!req.ops)
		req.ops = &virt_domain_ops;
	s.t0 = clock_mono_ms();
	if (req.timeline)
		s.tl = *req.timeline;
	else
		timeline_init(&s.tl, s.t0);
	phase(&s, "stage");
	iso_now(s.started, sizeof(s.started));
	s.host_load = host_load_1min();
	s.bl = bootlog_new(&bops, &s);
	if (!s.bl)
		return -ENOMEM;
	s.con = bootlog_console(s.bl);
	s.ktap = bootlog_ktap(s.bl);
	parse_scenarios(&s);

	s.timeout_s = boot_timeout(&req, req.accel, &s.heavy);

	snprintf(name, sizeof(name), "%sconsole.log", req.prefix ? req.prefix : "");
	s.log_path = path_join(req.run_dir, name);
	s.log = fopen(s.log_path, "we");
	if (!s.log) {
		e = -errno;
		strbuf_addf(&err, "cannot write %s: %s", s.log_path, strerror(-e));
		finish(&s, BOOT_END_INFRA, err.buf, ret);
		goto out;
	}

	s.kgdb_wanted = req.image && wants(&s, "kgdb") && req.vmlinux;
	e = stage_files(&s, &kernel, &initrd, &disk, &err);
	if (e < 0) {
		finish(&s, BOOT_END_INFRA, err.buf, ret);
		goto out;
	}
	/* Only the agent writes there, one line (docs/boot.md). */
	if (req.image)
		s.channel_path = path_join(req.stage_dir, "channel.log");
	s.serial_log = path_join(req.stage_dir, "serial.log");

	phase(&s, "define");
	e = start_guest(&s, kernel, initrd, disk, &err);
	if (e < 0) {
		finish(&s, BOOT_END_INFRA, err.buf, ret);
		goto out;
	}
	s.t0 = clock_mono_ms();
	/* Until the kernel's first line: the firmware, and the kernel's
	 * own start before its serial console is up. */
	phase(&s, "firmware");
	follow(&s);
	/* The guest has ended: what is left is ours. */
	phase(&s, "teardown");
	if (s.end != BOOT_END_INFRA)
		readback(&s);
	read_channel(&s);
	req.ops->free(s.g);
	s.g = NULL;
	stage_end(&s);
	timeline_end(&s.tl, clock_mono_ms());
	finish(&s, s.end, NULL, ret);
out:
	if (s.g)
		req.ops->free(s.g);
	if (s.log)
		fclose(s.log);
	stage_end(&s);
	bootlog_free(s.bl);
	free(s.scen_buf);
	free(s.cmdline);
	free(s.xml);
	free(s.kgdb_file);
	free(s.channel_path);
	free(s.serial_log);
	free(s.channel_file);
	free(s.dmesg_file);
	free(s.log_path);
	return ret->record ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------ retries */

struct retry {
	const struct boot_request *req;
	json_object *earlier;	/* records of the attempts before this one */
};

/* Every record handed on carries the attempts before it. */
static void retry_update(void *ud, json_object *record)
{
	struct retry *rt = ud;

	if (json_object_array_length(rt->earlier))
		json_object_object_add(record, "earlier_attempts",
				       json_object_get(rt->earlier));
	rt->req->on_update(rt->req->ud, record);
}

/*
 * An attempt QEMU ended by crashing is kept: its console log renamed to
 * <prefix>console.attemptN.log, its record (pointing at that file) put in
 * rt->earlier.
 */
static void keep_attempt(struct retry *rt, json_object *record, size_t n)
{
	const struct boot_request *r = rt->req;
	const char *pre = r->prefix ? r->prefix : "";
	char from[64], to[64];
	_cleanup_free_ char *src = NULL, *dst = NULL;
	json_object *files;

	snprintf(from, sizeof(from), "%sconsole.log", pre);
	snprintf(to, sizeof(to), "%sconsole.attempt%zu.log", pre, n);
	src = path_join(r->run_dir, from);
	dst = path_join(r->run_dir, to);
	if (rename(src, dst) == 0 &&
	    json_object_object_get_ex(record, "files", &files))
		recjson_add_str(files, "console", to);
	json_object_array_add(rt->earlier, record);
}

int boot_run(const struct boot_request *req, struct boot_outcome *ret)
{
	struct boot_request one = *req;
	struct retry rt = { .req = req, .earlier = json_object_new_array() };
	int e;

	if (!rt.earlier)
		return -ENOMEM;
	if (req->on_update) {
		one.on_update = retry_update;
		one.ud = &rt;
	}
	for (unsigned attempt = 1;; attempt++) {
		e = boot_attempt(&one, ret);
		if (e < 0 || !ret->retryable || attempt > req->retries ||
		    (req->interrupted && *req->interrupted))
			break;
		if (!req->quiet)
			log_info("[%s] QEMU died by itself (%s): trying again, "
				 "attempt %u of %u",
				 req->name, jsonx_text(ret->record, "reason"),
				 attempt + 1, req->retries + 1);
		keep_attempt(&rt, ret->record, attempt);
		ret->record = NULL;
	}
	if (ret->record && json_object_array_length(rt.earlier))
		json_object_object_add(ret->record, "earlier_attempts",
				       json_object_get(rt.earlier));
	json_object_put(rt.earlier);
	return e;
}
