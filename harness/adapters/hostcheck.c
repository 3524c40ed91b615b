// SPDX-License-Identifier: GPL-2.0-or-later
#include "adapters/hostcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <guestfs.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "adapters/proc.h"
#include "core/arch.h"
#include "core/virtcaps.h"
#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"

#define QEMU_FIX "apt-get install -y qemu-system-x86"

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The first line of buf (without the newline), into sb. */
static void first_line(const char *buf, size_t len, struct strbuf *sb)
{
	const char *nl = memchr(buf, '\n', len);

	strbuf_add(sb, buf, nl ? (size_t)(nl - buf) : len);
	strbuf_trim(sb);
}

/* The first line mentioning "error", else the first non-empty line. */
static void error_line(const struct strbuf *err, struct strbuf *sb)
{
	const char *s = err->buf, *end = err->buf + err->len;
	const char *first = NULL;
	size_t first_n = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

		strbuf_add(&line, s, n);
		strbuf_trim(&line);
		if (line.len && strstr(line.buf, "error")) {
			strbuf_addstr(sb, line.buf);
			return;
		}
		if (line.len && !first) {
			first = s;
			first_n = n;
		}
		s = nl ? nl + 1 : end;
	}
	if (first) {
		strbuf_add(sb, first, first_n);
		strbuf_trim(sb);
	}
}

/* ------------------------------------------------------------- qemu */

static void check_qemu(const char *binary, const char *name, bool required,
		       struct check_list *out)
{
	const char *argv[] = { binary, "--version", NULL };
	struct proc_cmd cmd = {
		.argv = argv,
		.timeout_ms = 10000,
		.out_max = 4096,
		.err_max = 4096,
	};
	_cleanup_(proc_result_release) struct proc_result r = PROC_RESULT_INIT;
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	int e;

	e = proc_find_program(binary, &path);
	if (e < 0) {
		check_list_add(out, name, CHECK_FAIL, required, QEMU_FIX,
			       "%s: not found in PATH", binary);
		return;
	}
	e = proc_run(&cmd, &r);
	if (e < 0) {
		check_list_add(out, name, CHECK_FAIL, required, QEMU_FIX,
			       "%s: cannot run: %s", path, strerror(-e));
		return;
	}
	if (!proc_result_ok(&r)) {
		proc_result_describe(&r, cmd.timeout_ms, &line);
		strbuf_addstr(&line, ": ");
		error_line(&r.err, &line);
		check_list_add(out, name, CHECK_FAIL, required, QEMU_FIX,
			       "%s --version: %s", path, line.buf);
		return;
	}
	first_line(r.out.buf, r.out.len, &line);
	check_list_add(out, name, CHECK_OK, required, NULL, "%s (%s)",
		       line.len ? line.buf : "version unknown", path);
}

/* ---------------------------------------------------------- libvirt */

static void quiet_errors(void *opaque, virErrorPtr err)
{
	/* Errors are fetched with virGetLastErrorMessage and reported once. */
}

static pthread_once_t vir_once = PTHREAD_ONCE_INIT;

static void vir_init(void)
{
	virInitialize();
	virSetErrorFunc(NULL, quiet_errors);
}

DEFINE_TRIVIAL_CLEANUP_FUNC(virConnectPtr, virConnectClose)

static void version_str(unsigned long v, struct strbuf *sb)
{
	strbuf_addf(sb, "%lu.%lu.%lu", v / 1000000, v / 1000 % 1000, v % 1000);
}

/* No host part after "://" (qemu:///system, qemu+unix:///...). */
static bool uri_is_local(const char *uri)
{
	const char *s = strstr(uri, "://");

	return s && s[3] == '/';
}

static void libvirt_fix(const char *uri, struct strbuf *fix)
{
	if (!strcmp(uri, "qemu:///system")) {
		if (access("/usr/sbin/libvirtd", X_OK) < 0)
			strbuf_addstr(fix, "apt-get install -y libvirt-daemon-system, then: ");
		strbuf_addstr(fix, "make setup (as root; it runs: mkdir -p /var/log/libvirt && libvirtd -d)");
	} else {
		strbuf_addf(fix, "virsh -c '%s' version  (check the URI and that its daemon runs; the default is qemu:///system)",
			    uri);
	}
}

/* Domain capabilities of one guest arch, for virt types kvm and qemu. */
static void check_domcaps(virConnectPtr conn, const char *arch, bool required,
			  bool qemu_driver, struct check_list *out)
{
	static const char *const types[] = { "qemu", "kvm" };
	_cleanup_strbuf_ struct strbuf name = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf detail = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf fix = STRBUF_INIT;
	char first_err[512] = "";
	bool any = false;

	strbuf_addf(&name, "libvirt-%s", arch);
	for (size_t i = 0; i < ELEMENTSOF(types); i++) {
		_cleanup_free_ char *xml = virConnectGetDomainCapabilities(
			conn, NULL, arch, NULL, types[i], 0);
		const char *m = xml ? NULL : virGetLastErrorMessage();

		any |= xml != NULL;
		if (!m)
			m = "unknown error";
		/* The same refusal for both (a driver without domain
		 * capabilities): say it once. */
		if (i && !xml && !any && !strcmp(m, first_err)) {
			strbuf_reset(&detail);
			strbuf_addf(&detail, "virttypes qemu and kvm: no (%s)", m);
			break;
		}
		strbuf_addf(&detail, "%svirttype %s: ", i ? "; " : "",
			    types[i]);
		if (xml) {
			strbuf_addstr(&detail, "yes");
		} else {
			strbuf_addf(&detail, "no (%s)", m);
			if (!i)
				snprintf(first_err, sizeof(first_err), "%s", m);
		}
	}
	if (!any) {
		if (qemu_driver)
			strbuf_addf(&fix, "%s, then restart libvirtd", QEMU_FIX);
		else
			strbuf_addstr(&fix, "bootproof boots through libvirt's QEMU driver: --connect qemu:///system");
	}
	check_list_add(out, name.buf, any ? CHECK_OK : CHECK_FAIL, required,
		       any ? NULL : fix.buf, "%s guests: %s", arch, detail.buf);
}

/* "+64055" is a numeric id, anything else a name. */
static int resolve_user(const char *s, uid_t *ret_uid, struct strbuf *name)
{
	char buf[4096];
	struct passwd pw, *res = NULL;

	if (s[0] == '+') {
		char *end;
		unsigned long v = strtoul(s + 1, &end, 10);

		if (*end || end == s + 1)
			return -EINVAL;
		*ret_uid = (uid_t)v;
		if (getpwuid_r(*ret_uid, &pw, buf, sizeof(buf), &res) == 0 && res)
			strbuf_addstr(name, res->pw_name);
		else
			strbuf_addf(name, "uid %lu", v);
		return 0;
	}
	if (getpwnam_r(s, &pw, buf, sizeof(buf), &res) != 0 || !res)
		return -ENOENT;
	*ret_uid = res->pw_uid;
	strbuf_addstr(name, s);
	return 0;
}

static int resolve_group(const char *s, gid_t *ret_gid)
{
	char buf[4096];
	struct group gr, *res = NULL;

	if (s[0] == '+') {
		char *end;
		unsigned long v = strtoul(s + 1, &end, 10);

		if (*end || end == s + 1)
			return -EINVAL;
		*ret_gid = (gid_t)v;
		return 0;
	}
	if (getgrnam_r(s, &gr, buf, sizeof(buf), &res) != 0 || !res)
		return -ENOENT;
	*ret_gid = res->gr_gid;
	return 0;
}

#define QEMU_USER_FIX                                                          \
	"set user = \"libvirt-qemu\" and group = \"libvirt-qemu\" in "         \
	"/etc/libvirt/qemu.conf, then restart libvirtd"

static void check_qemu_user(virConnectPtr conn, const char *uri,
			    struct check_list *out,
			    struct hostcheck_libvirt_info *info)
{
	_cleanup_free_ char *caps = virConnectGetCapabilities(conn);
	_cleanup_free_ char *user = NULL;
	_cleanup_free_ char *group = NULL;
	_cleanup_strbuf_ struct strbuf name = STRBUF_INIT;
	uid_t uid;
	gid_t gid;
	int e;

	if (!caps) {
		check_list_add(out, "qemu-user", CHECK_WARN, false, NULL,
			       "cannot read libvirt's capabilities: %s",
			       virGetLastErrorMessage());
		return;
	}
	if (!info->qemu_driver) {
		check_list_add(out, "qemu-user", CHECK_WARN, false,
			       "--connect qemu:///system",
			       "%s is not libvirt's QEMU driver: no QEMU user to check",
			       uri);
		return;
	}
	e = virtcaps_dac_label(caps, strlen(caps), "qemu", &user, &group);
	if (e == -ENOENT)
		e = virtcaps_dac_label(caps, strlen(caps), "kvm", &user, &group);
	if (e == -ENOENT) {
		check_list_add(out, "qemu-user", CHECK_WARN, false, QEMU_USER_FIX,
			       "libvirt reports no DAC security model: QEMU may run as root");
		return;
	}
	if (e < 0) {
		check_list_add(out, "qemu-user", CHECK_WARN, false, NULL,
			       "cannot read the DAC label from libvirt's capabilities: %s",
			       strerror(-e));
		return;
	}
	if (!uri_is_local(uri)) {
		check_list_add(out, "qemu-user", CHECK_OK, false, NULL,
			       "QEMU runs as %s:%s on the remote host", user,
			       group);
		return;
	}
	if (resolve_user(user, &uid, &name) < 0 ||
	    resolve_group(group, &gid) < 0) {
		check_list_add(out, "qemu-user", CHECK_WARN, false, QEMU_USER_FIX,
			       "QEMU's user %s:%s (from libvirt's DAC label) is unknown here",
			       user, group);
		return;
	}
	info->have_qemu_ids = true;
	info->qemu_uid = uid;
	info->qemu_gid = gid;
	if (uid == 0) {
		check_list_add(out, "qemu-user", CHECK_WARN, false, QEMU_USER_FIX,
			       "QEMU runs as root (qemu.conf user): a guest escaping QEMU owns the host");
		return;
	}
	check_list_add(out, "qemu-user", CHECK_OK, false, NULL,
		       "QEMU runs as %s (uid %u, gid %u), unprivileged: guests' files are staged in the cache directory",
		       name.buf, (unsigned)uid, (unsigned)gid);
}

static void check_libvirt(const char *uri_in, struct check_list *out,
			  struct hostcheck_libvirt_info *info)
{
	const char *uri = uri_in;
	_cleanup_(virConnectClosep) virConnectPtr conn = NULL;
	_cleanup_strbuf_ struct strbuf fix = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf ver = STRBUF_INIT;
	_cleanup_free_ char *canon = NULL;
	unsigned long lib = 0, hv = 0;
	const char *type;

	*info = (struct hostcheck_libvirt_info){ 0 };
	if (!uri || !*uri)
		uri = getenv("LIBVIRT_DEFAULT_URI");
	if (!uri || !*uri)
		uri = HOSTCHECK_DEFAULT_URI;
	pthread_once(&vir_once, vir_init);

	conn = virConnectOpenAuth(uri, virConnectAuthPtrDefault, 0);
	if (!conn) {
		const char *m = virGetLastErrorMessage();

		libvirt_fix(uri, &fix);
		check_list_add(out, "libvirt", CHECK_FAIL, true, fix.buf,
			       "cannot connect to %s: %s", uri,
			       m ? m : "unknown error");
		return;
	}
	info->connected = true;
	type = virConnectGetType(conn);
	info->qemu_driver = type && !strcmp(type, "QEMU");
	canon = virConnectGetURI(conn);
	strbuf_addstr(&ver, "libvirt ");
	if (virConnectGetLibVersion(conn, &lib) == 0)
		version_str(lib, &ver);
	else
		strbuf_addstr(&ver, "?");
	strbuf_addf(&ver, ", %s ", type ? type : "hypervisor");
	if (virConnectGetVersion(conn, &hv) == 0 && hv)
		version_str(hv, &ver);
	else
		strbuf_addstr(&ver, "?");
	check_list_add(out, "libvirt", CHECK_OK, true, NULL,
		       "connected to %s (%s)", canon ? canon : uri, ver.buf);
	check_domcaps(conn, bp_arch_info(BP_ARCH_X86_64)->libvirt_arch, true,
		      info->qemu_driver, out);
	check_domcaps(conn, bp_arch_info(BP_ARCH_I386)->libvirt_arch, false,
		      info->qemu_driver, out);
	check_qemu_user(conn, canon ? canon : uri, out, info);
}

/* ------------------------------------------------------- libguestfs */

struct hostcheck_guestfs {
	pid_t pid;
	int fd;
	bool force_tcg;
	long start_ms;
};

/*
 * In the forked child: launch an appliance, write one line
 * "ok|fail<TAB>detail\n" to fd.  The parent was single-threaded when it
 * forked, so the whole library is usable here.
 */
static _noreturn_ void guestfs_child(int fd, bool force_tcg)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	char *settings[] = { (char *)"force_tcg", NULL };
	const char *setdesc = force_tcg ? "settings force_tcg" : "no settings";
	long start = now_ms();
	guestfs_h *g;
	int null_fd = open("/dev/null", O_WRONLY);

	/* Nothing in here may reach our stdout (--json lives there). */
	if (null_fd >= 0)
		dup2(null_fd, 1);
	g = guestfs_create_flags(GUESTFS_CREATE_NO_ENVIRONMENT);
	if (!g) {
		strbuf_addstr(&msg, "fail\tguestfs_create failed (out of memory?)\n");
		goto out;
	}
	guestfs_set_error_handler(g, NULL, NULL);
	if (guestfs_set_backend(g, "direct") < 0 ||
	    (force_tcg && guestfs_set_backend_settings(g, settings) < 0) ||
	    guestfs_add_drive_scratch(g, 16 * 1024 * 1024, -1) < 0 ||
	    guestfs_launch(g) < 0) {
		const char *m = guestfs_last_error(g);
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		char *boiler;

		/* One line (the protocol's), without the generic advice
		 * libguestfs appends; GUESTFS_FIX gives ours. */
		strbuf_addstr(&why, m ? m : "unknown error");
		for (size_t i = 0; i < why.len; i++)
			if (why.buf[i] == '\n' || why.buf[i] == '\t')
				why.buf[i] = ' ';
		boiler = strstr(why.buf, "This usually means");
		if (boiler && boiler > why.buf)
			strbuf_setlen(&why, (size_t)(boiler - why.buf));
		strbuf_rtrim(&why);
		strbuf_addf(&msg, "fail\tlibguestfs (backend direct, %s) did not launch: %s\n",
			    setdesc, why.buf);
	} else {
		struct guestfs_version *v = guestfs_version(g);
		long ms = now_ms() - start;

		strbuf_addf(&msg, "ok\tappliance launched in %ld.%ld s with backend direct, %s",
			    ms / 1000, ms % 1000 / 100, setdesc);
		if (v)
			strbuf_addf(&msg, " (libguestfs %lld.%lld.%lld)",
				    (long long)v->major, (long long)v->minor,
				    (long long)v->release);
		strbuf_addch(&msg, '\n');
		guestfs_free_version(v);
		guestfs_shutdown(g);
	}
	guestfs_close(g);
out:
	for (size_t off = 0; off < msg.len;) {
		ssize_t n = write(fd, msg.buf + off, msg.len - off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	_exit(0);
}

static int guestfs_start(bool force_tcg, struct hostcheck_guestfs **ret)
{
	struct hostcheck_guestfs *job;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		close(p[0]);
		/* Our own group, so a timeout can kill it whole; and gone
		 * with us when we are interrupted (the terminal's SIGINT
		 * reaches only the foreground group). */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			_exit(0);
		guestfs_child(p[1], force_tcg);
	}
	setpgid(pid, pid);
	close(p[1]);
	job = calloc(1, sizeof(*job));
	if (!job) {
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(p[0]);
		return -ENOMEM;
	}
	*job = (struct hostcheck_guestfs){
		.pid = pid,
		.fd = p[0],
		.force_tcg = force_tcg,
		.start_ms = now_ms(),
	};
	*ret = job;
	return 0;
}

#define GUESTFS_FIX "LIBGUESTFS_BACKEND=direct libguestfs-test-tool  (shows why the appliance does not start)"

static void guestfs_finish(struct hostcheck_guestfs *job, unsigned timeout_ms,
			   struct check_list *out)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	bool timed_out = false;
	int st = 0;

	if (!job) {
		check_list_add(out, "libguestfs", CHECK_FAIL, false, GUESTFS_FIX,
			       "libguestfs: could not start the launch check");
		return;
	}
	/* Up to the newline, not EOF: libguestfs's recovery process, forked
	 * in the child, holds the pipe open for a while after. */
	while (!memchr(msg.buf, '\n', msg.len)) {
		long left = job->start_ms + (long)timeout_ms - now_ms();
		struct pollfd pfd = { job->fd, POLLIN, 0 };
		char buf[4096];
		ssize_t n;
		int r;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		r = poll(&pfd, 1, (int)left);
		if (r <= 0)
			continue;
		n = read(job->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&msg, buf, (size_t)n);
	}
	if (timed_out) {
		/* libguestfs's recovery process kills QEMU once its parent,
		 * the child here, is gone. */
		kill(-job->pid, SIGTERM);
		usleep(300 * 1000);
		kill(-job->pid, SIGKILL);
	}
	while (waitpid(job->pid, &st, 0) < 0 && errno == EINTR)
		;
	close(job->fd);

	if (timed_out) {
		check_list_add(out, "libguestfs", CHECK_FAIL, false, GUESTFS_FIX,
			       "libguestfs (backend direct, %s) did not launch in %u s",
			       job->force_tcg ? "settings force_tcg" : "no settings",
			       timeout_ms / 1000);
	} else if (!strncmp(msg.buf, "ok\t", 3)) {
		strbuf_rtrim(&msg);
		check_list_add(out, "libguestfs", CHECK_OK, false, NULL, "%s",
			       msg.buf + 3);
	} else if (!strncmp(msg.buf, "fail\t", 5)) {
		strbuf_rtrim(&msg);
		check_list_add(out, "libguestfs", CHECK_FAIL, false, GUESTFS_FIX,
			       "%s", msg.buf + 5);
	} else {
		check_list_add(out, "libguestfs", CHECK_FAIL, false, GUESTFS_FIX,
			       "libguestfs: the launch check died (%s %d)",
			       WIFSIGNALED(st) ? "signal" : "exit status",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
	free(job);
}

/* ---------------------------------------------------- kernel source */

#define KSRC_FIX "apt-get install -y linux-source-6.12"
#define KSRC_ARG_FIX                                                           \
	"give --ksrc an unpacked kernel tree or a linux-source tarball; or: "  \
	KSRC_FIX

/* "VERSION = 6" ... from a kernel's top Makefile: "6.12.118". */
static bool makefile_version(const char *dir, struct strbuf *ver)
{
	_cleanup_free_ char *mk = path_join(dir, "Makefile");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	static const char *const keys[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL" };

	if (strbuf_read_file(&sb, mk, 1 << 20) < 0)
		return false;
	for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
		const char *s = sb.buf;
		bool found = false;

		while ((s = strstr(s, keys[k]))) {
			const char *p = s + strlen(keys[k]);

			if ((s == sb.buf || s[-1] == '\n') &&
			    !strncmp(p, " = ", 3)) {
				size_t n = strcspn(p + 3, "\n");

				strbuf_addf(ver, "%s%.*s", k ? "." : "", (int)n,
					    p + 3);
				found = true;
				break;
			}
			s = p;
		}
		if (!found)
			return false;
	}
	return true;
}

DEFINE_TRIVIAL_CLEANUP_FUNC(struct archive *, archive_read_free)

static void check_ksrc(const char *path_in, struct check_list *out)
{
	const char *path = path_in ? path_in : HOSTCHECK_DEFAULT_KSRC;
	_cleanup_strbuf_ struct strbuf ver = STRBUF_INIT;
	struct stat st;

	if (stat(path, &st) < 0) {
		int e = errno;

		/* The unpacked tree, when someone unpacked it in place. */
		if (!path_in && stat("/usr/src/linux-source-6.12", &st) == 0 &&
		    S_ISDIR(st.st_mode)) {
			check_ksrc("/usr/src/linux-source-6.12", out);
			return;
		}
		check_list_add(out, "kernel-source", CHECK_FAIL, false,
			       path_in ? KSRC_ARG_FIX : KSRC_FIX,
			       "%s: %s", path, strerror(e));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		if (!makefile_version(path, &ver)) {
			check_list_add(out, "kernel-source", CHECK_FAIL, false,
				       path_in ? KSRC_ARG_FIX : KSRC_FIX,
				       "%s: not a kernel source tree (no Makefile with VERSION/PATCHLEVEL/SUBLEVEL)",
				       path);
			return;
		}
		check_list_add(out, "kernel-source", CHECK_OK, false, NULL,
			       "%s: Linux %s source tree", path, ver.buf);
		return;
	}

	/* A tarball: its first entry says what it holds (cheap to read). */
	_cleanup_(archive_read_freep) struct archive *a = archive_read_new();
	struct archive_entry *ent;
	int r;

	if (!a) {
		check_list_add(out, "kernel-source", CHECK_FAIL, false, NULL,
			       "%s: out of memory", path);
		return;
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	r = archive_read_open_filename(a, path, 65536);
	if (r == ARCHIVE_OK)
		r = archive_read_next_header(a, &ent);
	if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
		check_list_add(out, "kernel-source", CHECK_FAIL, false,
			       path_in ? KSRC_ARG_FIX : KSRC_FIX,
			       "%s: not a readable tarball: %s", path,
			       archive_error_string(a) ? archive_error_string(a)
						       : "unknown error");
		return;
	}
	{
		const char *name = archive_entry_pathname(ent);
		size_t n = name ? strcspn(name, "/") : 0;

		check_list_add(out, "kernel-source", CHECK_OK, false, NULL,
			       "%s: %s tarball, %lld MiB, tree %.*s/", path,
			       archive_filter_name(a, 0), (long long)(st.st_size >> 20),
			       (int)n, name ? name : "?");
	}
}

/* --------------------------------------------------------- compiler */

static const char hello_c[] =
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"bootproof hello %d\\n\", (int)(sizeof(void *) * 8));\n"
	"\treturn 0;\n"
	"}\n";

/* Compile hello.c in dir; true on success, else the reason in why. */
static bool compile_static(const char *cc, const char *dir, const char *m,
			   const char *exe, struct strbuf *why)
{
	const char *argv[] = { cc, "-static", m, "-O0", "-o", exe, "hello.c",
			       NULL };
	struct proc_cmd cmd = {
		.argv = argv,
		.cwd = dir,
		.timeout_ms = 60000,
		.out_max = 16384,
		.err_max = 16384,
	};
	_cleanup_(proc_result_release) struct proc_result r = PROC_RESULT_INIT;
	int e = proc_run(&cmd, &r);

	if (e < 0) {
		strbuf_addf(why, "%s: %s", cc, strerror(-e));
		return false;
	}
	if (proc_result_ok(&r))
		return true;
	strbuf_addf(why, "%s -static %s: ", cc, m);
	error_line(&r.err, why);
	if (!r.err.len)
		proc_result_describe(&r, cmd.timeout_ms, why);
	return false;
}

static void check_compiler(const char *cc_in, struct check_list *out)
{
	const char *cc = cc_in ? cc_in : "cc";
	const char *tmp = getenv("TMPDIR");
	_cleanup_free_ char *dir = NULL;
	_cleanup_free_ char *src = NULL;
	_cleanup_free_ char *exe = NULL;
	_cleanup_strbuf_ struct strbuf ver = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf why64 = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf why32 = STRBUF_INIT;
	bool ok64, ok32;
	int e;

	{
		const char *argv[] = { cc, "--version", NULL };
		struct proc_cmd cmd = { .argv = argv, .timeout_ms = 10000,
					.out_max = 4096, .err_max = 4096 };
		_cleanup_(proc_result_release) struct proc_result r =
			PROC_RESULT_INIT;

		e = proc_run(&cmd, &r);
		if (e < 0) {
			const char *fix = "apt-get install -y build-essential gcc-multilib";

			check_list_add(out, "cc-x86_64", CHECK_FAIL, false, fix,
				       "%s: %s", cc, strerror(-e));
			check_list_add(out, "cc-i386", CHECK_FAIL, false, fix,
				       "%s: %s", cc, strerror(-e));
			return;
		}
		first_line(r.out.buf, r.out.len, &ver);
	}

	dir = path_join(tmp && *tmp ? tmp : "/tmp", "bootproof-cc-XXXXXX");
	if (!mkdtemp(dir)) {
		e = errno;
		check_list_add(out, "cc-x86_64", CHECK_FAIL, false,
			       "export TMPDIR=<a writable directory>",
			       "cannot create a temporary directory %s: %s",
			       dir, strerror(e));
		return;
	}
	src = path_join(dir, "hello.c");
	e = write_file_atomic(src, hello_c, sizeof(hello_c) - 1, 0644);
	if (e < 0) {
		check_list_add(out, "cc-x86_64", CHECK_FAIL, false,
			       "export TMPDIR=<a writable directory>",
			       "cannot write %s: %s", src, strerror(-e));
		rm_rf(dir);
		return;
	}

	ok64 = compile_static(cc, dir, bp_arch_info(BP_ARCH_X86_64)->cc_flag,
			      "hello64", &why64);
	ok32 = compile_static(cc, dir, bp_arch_info(BP_ARCH_I386)->cc_flag,
			      "hello32", &why32);
	if (ok64) {
		const char *argv[] = { "./hello64", NULL };
		struct proc_cmd cmd = { .argv = argv, .cwd = dir,
					.timeout_ms = 10000, .out_max = 4096,
					.err_max = 4096 };
		_cleanup_(proc_result_release) struct proc_result r =
			PROC_RESULT_INIT;

		exe = path_join(dir, "hello64");
		argv[0] = exe;
		e = proc_run(&cmd, &r);
		if (e < 0 || !proc_result_ok(&r) ||
		    strcmp(r.out.buf, "bootproof hello 64\n")) {
			ok64 = false;
			strbuf_addstr(&why64, "the static 64-bit program links but does not run: ");
			if (e < 0)
				strbuf_addstr(&why64, strerror(-e));
			else
				proc_result_describe(&r, cmd.timeout_ms, &why64);
		}
	}
	rm_rf(dir);

	if (ok64)
		check_list_add(out, "cc-x86_64", CHECK_OK, false, NULL,
			       "a static x86_64 program links and runs (%s: %s)",
			       cc, ver.len ? ver.buf : "version unknown");
	else
		check_list_add(out, "cc-x86_64", CHECK_FAIL, false,
			       "apt-get install -y build-essential", "%s",
			       why64.buf);
	if (ok32)
		check_list_add(out, "cc-i386", CHECK_OK, false, NULL,
			       "a static i386 program links (%s -m32)", cc);
	else
		check_list_add(out, "cc-i386", CHECK_FAIL, false,
			       "apt-get install -y gcc-multilib", "%s",
			       why32.buf);
}

/* ------------------------------------------------------------ cache */

/* May uid/gid search (x) the directory st describes? */
static bool may_search(const struct stat *st, uid_t uid, gid_t gid)
{
	if (uid == 0)
		return true;
	if (st->st_uid == uid)
		return st->st_mode & S_IXUSR;
	if (st->st_gid == gid)
		return st->st_mode & S_IXGRP;
	return st->st_mode & S_IXOTH;
}

/* The first directory on the way to path that uid/gid cannot enter. */
static bool unreachable_component(const char *path, uid_t uid, gid_t gid,
				  struct strbuf *ret)
{
	_cleanup_free_ char *p = strdup(path);

	if (!p)
		return false;
	for (char *s = p + 1;; s++) {
		bool end = !*s;
		struct stat st;

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
		    !may_search(&st, uid, gid)) {
			strbuf_addf(ret, "%s (mode %04o)", p,
				    (unsigned)(st.st_mode & 07777));
			return true;
		}
		if (end)
			return false;
		*s = '/';
	}
}

static void check_cache(const struct hostcheck_libvirt_info *lv,
			struct check_list *out)
{
	_cleanup_free_ char *dir = bp_cache_dir();
	_cleanup_free_ char *anc = NULL;
	_cleanup_strbuf_ struct strbuf fix = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf bad = STRBUF_INIT;
	struct stat st;
	bool exists;

	if (!dir) {
		check_list_add(out, "cache", CHECK_FAIL, false, NULL,
			       "out of memory");
		return;
	}
	exists = stat(dir, &st) == 0;
	if (exists && !S_ISDIR(st.st_mode)) {
		strbuf_addf(&fix, "rm '%s', or export BOOTPROOF_CACHE=<a directory>",
			    dir);
		check_list_add(out, "cache", CHECK_FAIL, false, fix.buf,
			       "cache directory %s is not a directory", dir);
		return;
	}
	/* Not there yet: what counts is whether it can be created. */
	anc = strdup(dir);
	if (!anc) {
		check_list_add(out, "cache", CHECK_FAIL, false, NULL,
			       "out of memory");
		return;
	}
	while (!exists) {
		char *slash = strrchr(anc, '/');

		if (!slash)
			break;
		if (slash == anc) {
			anc[1] = '\0'; /* "/" */
			break;
		}
		*slash = '\0';
		exists = stat(anc, &st) == 0;
	}
	if (access(anc, W_OK | X_OK) < 0) {
		int e = errno;

		strbuf_addf(&fix, "mkdir -p '%s' && chown %u '%s'  (or export BOOTPROOF_CACHE=<a writable directory>)",
			    dir, (unsigned)geteuid(), dir);
		check_list_add(out, "cache", CHECK_FAIL, false, fix.buf,
			       "cache directory %s: %s is not writable: %s",
			       dir, anc, strerror(e));
		return;
	}
	if (lv && lv->have_qemu_ids &&
	    unreachable_component(anc, lv->qemu_uid, lv->qemu_gid, &bad)) {
		strbuf_addf(&fix, "chmod o+x '%.*s'  (or export BOOTPROOF_CACHE=<a directory under /var/cache>)",
			    (int)strcspn(bad.buf, " "), bad.buf);
		check_list_add(out, "cache", CHECK_WARN, false, fix.buf,
			       "cache directory %s is usable by us, but QEMU's user (uid %u) cannot enter %s",
			       dir, (unsigned)lv->qemu_uid, bad.buf);
		return;
	}
	if (strcmp(anc, dir))
		check_list_add(out, "cache", CHECK_OK, false, NULL,
			       "cache directory %s (not created yet; %s is writable)",
			       dir, anc);
	else
		check_list_add(out, "cache", CHECK_OK, false, NULL,
			       "cache directory %s is writable%s", dir,
			       lv && lv->have_qemu_ids ? " and reachable by QEMU's user" : "");
}

/* ------------------------------------------------------------- ops */

const struct hostcheck_ops hostcheck_real_ops = {
	.qemu = check_qemu,
	.libvirt = check_libvirt,
	.probe_kvm = accel_probe_kvm,
	.probe_tcg = accel_probe_tcg,
	.guestfs_start = guestfs_start,
	.guestfs_finish = guestfs_finish,
	.ksrc = check_ksrc,
	.compiler = check_compiler,
	.cache = check_cache,
};
