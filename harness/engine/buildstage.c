// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/buildstage.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "adapters/proc.h"
#include "engine/buildmeasure.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/lockfile.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define BUILD_TIMEOUT_MS (6u * 3600u * 1000u)
#define LOG_READ_MAX (64u << 20)

static const char *const buildstage_status_names[] = {
	[BUILDSTAGE_PASS] = "pass", [BUILDSTAGE_REUSED] = "reused",
	[BUILDSTAGE_FAIL] = "fail", [BUILDSTAGE_CANCELLED] = "skip",
};

const char *buildstage_status_name(enum buildstage_status s)
{
	return ENUM_NAME(buildstage_status_names, s, "?");
}

/* The artifact paths (and when they were built), freed and cleared. */
static void clear_paths(struct buildstage_result *r)
{
	char **paths[] = { &r->bzimage, &r->vmlinux, &r->system_map,
			   &r->config, &r->modules, &r->kernelrelease,
			   &r->built };

	for (size_t i = 0; i < ELEMENTSOF(paths); i++) {
		free(*paths[i]);
		*paths[i] = NULL;
	}
}

void buildstage_result_done(struct buildstage_result *r)
{
	free(r->reason);
	builderr_done(&r->error);
	free(r->dir);
	free(r->distcc);
	clear_paths(r);
	json_object_put(r->measure);
	*r = (struct buildstage_result){ 0 };
}


static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int buildstage_tree_key(const char *ksrc, const char *release, char *buf,
			size_t n)
{
	char hex[SHA256_HEX_LEN + 1];
	int r = sha256_hex(ksrc, strlen(ksrc), hex);

	if (r < 0)
		return r;
	snprintf(buf, n, "%s-%.8s", release, hex);
	return 0;
}

char *buildstage_workdir(const char *cache, const char *ksrc,
			 const char *release, const char *arch,
			 const char *leaf)
{
	char key[160];
	char *p = NULL;

	if (buildstage_tree_key(ksrc, release, key, sizeof(key)) < 0 ||
	    asprintf(&p, "%s/build/%s/%s%s%s", cache, key, arch,
		     leaf ? "/" : "", leaf ? leaf : "") < 0)
		return NULL;
	return p;
}

static char *kernels_dir(const struct buildstage_opts *o)
{
	char key[160];
	char *p = NULL;

	if (buildstage_tree_key(o->ksrc, o->release, key, sizeof(key)) < 0 ||
	    asprintf(&p, "%s/kernels/%s", o->cache, key) < 0)
		return NULL;
	return p;
}

static unsigned cpus(void);

/* make's -j: asked for, else the farm's slots, else the CPUs. */
static unsigned build_jobs(const struct buildstage_opts *o)
{
	if (o->jobs)
		return o->jobs;
	if (o->distcc_hosts && o->distcc_slots)
		return o->distcc_slots;
	return cpus();
}

/* CC for make: "ccache gcc" (ccache passes misses to distcc through
 * CCACHE_PREFIX), "distcc gcc" without ccache, else "gcc". */
static const char *compiler(const struct buildstage_opts *o)
{
	_cleanup_free_ char *ccache = NULL;

	if (proc_find_program("ccache", &ccache) == 0)
		return "ccache gcc";
	return o->distcc_hosts ? "distcc gcc" : "gcc";
}

static unsigned cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* ------------------------------------------------------------ artifacts */


static char *jdup(json_object *j, const char *k)
{
	const char *s = jsonx_str(j, k);

	return s ? strdup(s) : NULL;
}

/*
 * What a complete artifact directory holds: a build (REUSED, its paths) or
 * a failure (FAIL, its error).  False when dir is not complete, or was
 * built from another state of the tree than src_state (when not NULL).
 */
static bool load_record(const char *dir, const char *src_state,
			struct buildstage_result *r)
{
	_cleanup_free_ char *meta = path_join(dir, "build.json");
	json_object *j, *v;
	const char *res;

	if (!is_file(meta) || !(j = json_object_from_file(meta)))
		return false;
	if (src_state && strcmp(jsonx_str(j, "source_state") ?: "", src_state)) {
		json_object_put(j);
		return false;
	}
	/* Called again after a build published its record: what the build
	 * set (kernelrelease) is replaced by the record's. */
	clear_paths(r);
	res = jsonx_str(j, "result");
	if (json_object_object_get_ex(j, "seconds", &v))
		r->built_seconds = json_object_get_double(v);
	if (json_object_object_get_ex(j, "cpu_seconds", &v))
		r->cpu_seconds = json_object_get_double(v);
	r->built = jdup(j, "built");
	r->kernelrelease = jdup(j, "kernelrelease");
	free(r->distcc);
	r->distcc = jdup(j, "distcc");
	json_object_put(r->measure);
	r->measure = json_object_get(jsonx_get(j, "measure"));
	if (res && !strcmp(res, "fail")) {
		json_object *e = NULL;

		r->config = path_join(dir, "config");
		r->reason = jdup(j, "reason");
		if (json_object_object_get_ex(j, "first_error", &e) && e &&
		    jsonx_str(e, "text")) {
			r->error.text = jdup(e, "text");
			r->error.file = jdup(e, "file");
			if (json_object_object_get_ex(e, "line", &v))
				r->error.line = (unsigned)json_object_get_int(v);
			if (json_object_object_get_ex(e, "col", &v))
				r->error.col = (unsigned)json_object_get_int(v);
			if (json_object_object_get_ex(e, "log_line", &v))
				r->error.log_line =
					(size_t)json_object_get_int64(v);
			r->error.kind = BUILDERR_TOOL;
			for (int k = BUILDERR_COMPILER; k <= BUILDERR_MAKE; k++)
				if (jsonx_str(e, "kind") &&
				    !strcmp(jsonx_str(e, "kind"),
					    builderr_kind_name((enum builderr_kind)k)))
					r->error.kind = (enum builderr_kind)k;
		}
		json_object_put(j);
		r->status = BUILDSTAGE_FAIL;
		r->reused = true;
		return true;
	}
	json_object_put(j);
	r->bzimage = path_join(dir, "bzImage");
	r->vmlinux = path_join(dir, "vmlinux");
	r->system_map = path_join(dir, "System.map");
	r->config = path_join(dir, "config");
	if (r->kernelrelease) {
		char *m = NULL;

		if (asprintf(&m, "%s/modules/lib/modules/%s", dir,
			     r->kernelrelease) >= 0 &&
		    access(m, R_OK) == 0)
			r->modules = m;
		else
			free(m);
	}
	if (!is_file(r->bzimage) || !is_file(r->vmlinux) ||
	    !is_file(r->config)) {
		clear_paths(r);
		return false;
	}
	r->status = BUILDSTAGE_REUSED;
	r->reused = true;
	return true;
}

/* ------------------------------------------------------------ make */

struct logger {
	FILE *f;
	const struct buildstage_opts *o;
	const char *ccache_log;	/* CCACHE_STATSLOG, or NULL */
	struct strbuf part[2];	/* unfinished line per stream */
};

static void on_output(void *ud, int stream, const char *buf, size_t n)
{
	struct logger *lg = ud;
	struct strbuf *p = &lg->part[stream == 2];

	if (lg->f) {
		fwrite(buf, 1, n, lg->f);
		fflush(lg->f);
	}
	if (!lg->o->on_line)
		return;
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (p->len < 4096)
				strbuf_addch(p, buf[i]);
			continue;
		}
		lg->o->on_line(lg->o->ud, p->buf);
		strbuf_reset(p);
	}
}

static void log_note(struct logger *lg, const char *fmt, ...) _printf_(2, 3);
static void log_note(struct logger *lg, const char *fmt, ...)
{
	va_list ap;

	if (!lg->f)
		return;
	fputs("bootproof: ", lg->f);
	va_start(ap, fmt);
	vfprintf(lg->f, fmt, ap);
	va_end(ap);
	fputc('\n', lg->f);
	fflush(lg->f);
}

/*
 * make -C KSRC O=OBJ ARCH=A CC=.. -jN targets...  Returns 0 when it ran
 * (res says how it ended), -errno when it could not start.
 */
static int make(const struct buildstage_opts *o, struct logger *lg,
		const char *obj, const char *cc, const char *const *targets,
		const char *extra, struct proc_result *res)
{
	_cleanup_free_ char *odir = NULL, *arch = NULL, *ccv = NULL;
	_cleanup_free_ char *jobs = NULL, *ccache_dir = NULL, *stats = NULL;
	_cleanup_free_ char *dhosts = NULL, *ddir = NULL;
	const char *argv[16];
	const char *env[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	size_t n = 0, e = 0;

	if (asprintf(&odir, "O=%s", obj) < 0 ||
	    asprintf(&arch, "ARCH=%s", o->arch) < 0 ||
	    asprintf(&ccv, "CC=%s", cc) < 0 ||
	    asprintf(&jobs, "-j%u", build_jobs(o)) < 0 ||
	    asprintf(&ccache_dir, "CCACHE_DIR=%s/ccache", o->cache) < 0)
		return -ENOMEM;
	env[e++] = ccache_dir;
	if (lg->ccache_log) {
		if (asprintf(&stats, "CCACHE_STATSLOG=%s", lg->ccache_log) < 0)
			return -ENOMEM;
		env[e++] = stats;
	}
	if (o->distcc_hosts) {
		if (asprintf(&dhosts, "DISTCC_HOSTS=%s", o->distcc_hosts) < 0 ||
		    asprintf(&ddir, "DISTCC_DIR=%s/distcc", o->cache) < 0)
			return -ENOMEM;
		env[e++] = dhosts;
		env[e++] = ddir;
		/* ccache hands what it does not have to distcc */
		env[e++] = "CCACHE_PREFIX=distcc";
	} else {
		/* ccache's depend mode: the hash from the source and the
		 * headers Kbuild's -MMD lists, no preprocessor run of its own.
		 * Measured on the demo's x86_64 kernel from clean, make -j2
		 * (2026-12-07): no ccache 222 s, ccache's default mode with an
		 * empty cache 328 s (1.48x: every object preprocessed twice),
		 * depend mode 239 s. */
		env[e++] = "CCACHE_DEPEND=1";
	}
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = o->ksrc;
	argv[n++] = odir;
	argv[n++] = arch;
	argv[n++] = ccv;
	argv[n++] = jobs;
	if (extra)
		argv[n++] = extra;
	for (size_t i = 0; targets[i] && n < ELEMENTSOF(argv) - 1; i++)
		argv[n++] = targets[i];
	argv[n] = NULL;
	{
		_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;

		for (size_t i = 0; argv[i]; i++)
			strbuf_addf(&line, "%s%s", i ? " " : "", argv[i]);
		log_note(lg, "%s", line.buf);
	}
	struct proc_cmd cmd = {
		.argv = argv,
		.env = env,
		.out_max = 1, /* the log has it all */
		.err_max = 1,
		.timeout_ms = BUILD_TIMEOUT_MS,
		.cancel = o->cancel,
		.on_output = on_output,
		.ud = lg,
	};
	return proc_run(&cmd, res);
}

static bool config_has_modules(const char *path)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 16u << 20) < 0)
		return false;
	return !strncmp(sb.buf, "CONFIG_MODULES=y\n", 17) ||
	       strstr(sb.buf, "\nCONFIG_MODULES=y\n");
}

/* Another builder may hold it (another run, a bisection, a shell): say so,
 * then wait, unless cancelled meanwhile. */
static int lock_dir(const char *dir, volatile sig_atomic_t *cancel, int *ret,
		    struct strbuf *err)
{
	_cleanup_free_ char *p = path_join(dir, ".lock");
	int fd = lockfile_take(p, LOCKFILE_NOWAIT, cancel);

	if (fd == -EWOULDBLOCK) {
		log_info("%s: another build in this tree and arch holds %s; "
			 "waiting for it", dir, p);
		fd = lockfile_take(p, 0, cancel);
	}

	if (fd < 0)
		return strbuf_fail(err, fd, "%s: %s", p, strerror(-fd));
	*ret = fd;
	return 0;
}

/* A failed make: the first error from the log, one line of reason. */
static void failed(struct buildstage_result *ret, const char *what,
		   const struct proc_result *pr, const char *log)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	ret->status = BUILDSTAGE_FAIL;
	strbuf_addf(&sb, "make %s: ", what);
	proc_result_describe(pr, BUILD_TIMEOUT_MS, &sb);
	if (strbuf_read_file(&text, log, LOG_READ_MAX) >= 0 &&
	    builderr_find(text.buf, text.len, &ret->error) > 0)
		strbuf_addf(&sb, ": %s error at log line %zu",
			    builderr_kind_name(ret->error.kind),
			    ret->error.log_line);
	ret->reason = strbuf_detach(&sb, NULL);
}

static int copy_in(const char *src, const char *dir, const char *name,
		   struct strbuf *err)
{
	_cleanup_free_ char *dst = path_join(dir, name);
	int r = copy_file_atomic(src, dst, 0644);

	if (r < 0)
		return strbuf_fail(err, r, "cannot copy %s to %s: %s", src, dst,
			    strerror(-r));
	return 0;
}

/*
 * Put the outcome into the cache: tmp (holding modules/ when there are
 * modules) gets the artifacts of obj (a pass) or the .config (a failure),
 * the log and build.json, and is renamed to ret->dir.
 */
static int publish(const struct buildstage_opts *o, const char *obj,
		   const char *tmp, bool modules, struct buildstage_result *ret,
		   struct strbuf *err)
{
	static const char *const from[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" },
		{ "vmlinux", "vmlinux" },
		{ "System.map", "System.map" },
	};
	bool pass = ret->status == BUILDSTAGE_PASS;
	_cleanup_free_ char *meta = path_join(tmp, "build.json");
	json_object *j = json_object_new_object();
	char created[32];
	time_t t = time(NULL);
	struct tm tm;
	int r = 0;

	for (size_t i = 0; pass && i < ELEMENTSOF(from) && r >= 0; i++) {
		_cleanup_free_ char *src = path_join(obj, from[i][0]);

		r = copy_in(src, tmp, from[i][1], err);
	}
	if (r >= 0)
		r = copy_in(o->config, tmp, "config", err);
	if (r >= 0)
		r = copy_in(o->log, tmp, "build.log", err);
	if (r < 0) {
		json_object_put(j);
		return r;
	}
	gmtime_r(&t, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(j, "result",
			       json_object_new_string(pass ? "pass" : "fail"));
	json_object_object_add(j, "config_hash",
			       json_object_new_string(ret->hash));
	json_object_object_add(j, "arch", json_object_new_string(o->arch));
	json_object_object_add(j, "ksrc", json_object_new_string(o->ksrc));
	if (o->src_state)
		json_object_object_add(j, "source_state",
				       json_object_new_string(o->src_state));
	json_object_object_add(j, "release", json_object_new_string(o->release));
	json_object_object_add(j, "kernelrelease",
			       ret->kernelrelease
				       ? json_object_new_string(ret->kernelrelease)
				       : NULL);
	json_object_object_add(j, "modules", json_object_new_boolean(modules));
	json_object_object_add(j, "seconds", json_object_new_double(ret->seconds));
	json_object_object_add(j, "cpu_seconds",
			       json_object_new_double(ret->cpu_seconds));
	json_object_object_add(j, "built", json_object_new_string(created));
	json_object_object_add(j, "distcc", o->distcc_hosts
						    ? json_object_new_string(o->distcc_hosts)
						    : NULL);
	if (ret->measure)
		json_object_object_add(j, "measure",
				       json_object_get(ret->measure));
	if (!pass) {
		json_object *e = json_object_new_object();

		json_object_object_add(j, "reason",
				       json_object_new_string(ret->reason));
		json_object_object_add(e, "kind", json_object_new_string(
			builderr_kind_name(ret->error.kind)));
		json_object_object_add(e, "text",
				       json_object_new_string(ret->error.text));
		json_object_object_add(e, "file",
				       ret->error.file
					       ? json_object_new_string(ret->error.file)
					       : NULL);
		json_object_object_add(e, "line",
				       json_object_new_int((int)ret->error.line));
		json_object_object_add(e, "col",
				       json_object_new_int((int)ret->error.col));
		json_object_object_add(e, "log_line", json_object_new_int64(
			(int64_t)ret->error.log_line));
		json_object_object_add(j, "first_error", e);
	}
	{
		const char *s = json_object_to_json_string_ext(
			j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

		r = write_file_atomic(meta, s, strlen(s), 0644);
	}
	json_object_put(j);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", meta, strerror(-r));
	/* Rebuilt: on demand, or from another state of a user's tree. */
	if (o->rebuild || o->src_state)
		rm_rf(ret->dir);
	/* EEXIST/ENOTEMPTY: another identical build got there first. */
	if (rename(tmp, ret->dir) < 0 && errno != EEXIST && errno != ENOTEMPTY)
		return strbuf_fail(err, -errno, "cannot rename %s to %s: %s", tmp,
			    ret->dir, strerror(errno));
	return 0;
}

/* The steps of a build; ret->status says how it ended when it returns 0. */
/*
 * make's targets for each step, at file scope: a compound literal written
 * inside the `if (modules)` below would die with that statement, and the
 * loop that runs the steps comes after it (that was a crash after every
 * build of a config with modules).
 */
static const char *const t_olddefconfig[] = { "olddefconfig", NULL };
static const char *const t_bzimage[] = { "bzImage", NULL };
static const char *const t_bzimage_modules[] = { "bzImage", "modules", NULL };
static const char *const t_modules_install[] = { "modules_install", NULL };

/*
 * Before a candidate's build, its starting point: opts->after built in the
 * O= tree (a make of that .config, published nowhere), unless the tree
 * holds it already.  A failure or an interruption only leaves the tree
 * holding something else, which the measure then says.  Returns the CPU
 * seconds it took (0 when nothing was done).
 */
static double restore_after(const struct buildstage_opts *o, const char *obj,
			    struct logger *lg)
{
	_cleanup_(proc_result_release) struct proc_result pr = PROC_RESULT_INIT;
	_cleanup_free_ char *objcfg = path_join(obj, ".config");
	_cleanup_free_ char *last = path_join(obj, BUILDMEASURE_LAST_CONFIG);
	_cleanup_strbuf_ struct strbuf held = STRBUF_INIT;
	const char *cc = compiler(o);
	const char *const *targets;
	double cpu0 = clock_children_cpu_s();
	char want[65];
	const char *lg_ccache = lg->ccache_log;

	if (!o->after || sha256_file_hex(o->after, want) < 0)
		return 0;
	targets = config_has_modules(o->after) ? t_bzimage_modules : t_bzimage;
	if (strbuf_read_file(&held, last, 256) > 0) {
		strbuf_trim(&held);
		if (!strcmp(held.buf, want))
			return 0;
	}
	log_note(lg, "first the starting point: %s (sha256 %s) built in %s, "
		 "so that this build is an incremental one after it", o->after,
		 want, obj);
	if (copy_file_atomic(o->after, objcfg, 0644) < 0)
		return 0;
	lg->ccache_log = NULL;
	if (make(o, lg, obj, cc, t_olddefconfig, NULL, &pr) == 0 &&
	    proc_result_ok(&pr) && !pr.cancelled) {
		proc_result_release(&pr);
		if (make(o, lg, obj, cc, targets, NULL, &pr) == 0 &&
		    proc_result_ok(&pr) && !pr.cancelled)
			buildmeasure_mark(obj, want);
	}
	lg->ccache_log = lg_ccache;
	log_note(lg, "starting point done (%.1f s of CPU); now the candidate",
		 clock_children_cpu_s() - cpu0);
	return clock_children_cpu_s() - cpu0;
}

static int build(const struct buildstage_opts *o, const char *obj,
		 const char *tmp, struct logger *lg, bool *ret_modules,
		 struct buildstage_result *ret, struct strbuf *err)
{
	_cleanup_(proc_result_release) struct proc_result pr = PROC_RESULT_INIT;
	_cleanup_free_ char *objcfg = NULL;
	const char *cc = compiler(o);
	_cleanup_free_ char *mp = NULL, *krel = NULL;
	_cleanup_strbuf_ struct strbuf kr = STRBUF_INIT;
	struct step {
		const char *what;
		const char *const *targets;
		const char *extra;
	} steps[3];
	size_t n = 0;
	bool modules, same;
	char h2[65];
	int r;

	if (strncmp(cc, "ccache ", 7))
		log_note(lg, "ccache not found: building without it");
	if (o->distcc_hosts)
		log_note(lg, "compiling on the distcc farm %s (make -j%u%s)",
			 o->distcc_hosts, build_jobs(o),
			 strncmp(cc, "ccache ", 7) ? ""
						    : "; ccache first, its "
						      "misses through distcc");
	objcfg = path_join(obj, ".config");
	/*
	 * The tree's .config is this one already (the developer's loop: the
	 * same candidate again after an edit): left as it is.  A copy would
	 * make it newer than include/config/auto.conf, and make would run
	 * Kconfig again for nothing, as olddefconfig would (it ran on these
	 * bytes when they were put there, or make's syncconfig does).
	 */
	same = sha256_file_hex(objcfg, h2) == 0 && !strcmp(h2, ret->hash);
	if (!same) {
		r = copy_file_atomic(o->config, objcfg, 0644);
		if (r < 0)
			return strbuf_fail(err, r, "cannot copy %s to %s: %s",
					   o->config, objcfg, strerror(-r));
	}
	log_note(lg, "building %s (.config sha256 %s) in %s%s", o->config,
		 ret->hash, obj,
		 same ? " (its .config already: no olddefconfig)" : "");
	modules = config_has_modules(objcfg);
	*ret_modules = modules;
	if (asprintf(&mp, "INSTALL_MOD_PATH=%s/modules", tmp) < 0)
		return -ENOMEM;
	if (!same)
		steps[n++] = (struct step){ "olddefconfig", t_olddefconfig,
					    NULL };
	steps[n++] = modules
		? (struct step){ "bzImage modules", t_bzimage_modules, NULL }
		: (struct step){ "bzImage", t_bzimage, NULL };
	if (modules)
		steps[n++] = (struct step){ "modules_install", t_modules_install,
					    mp };
	for (size_t i = 0; i < n; i++) {
		proc_result_release(&pr);
		r = make(o, lg, obj, cc, steps[i].targets, steps[i].extra, &pr);
		if (r < 0)
			return strbuf_fail(err, r, "cannot run make: %s", strerror(-r));
		if (pr.cancelled) {
			ret->status = BUILDSTAGE_CANCELLED;
			ret->reason = strdup("interrupted");
			return 0;
		}
		if (!proc_result_ok(&pr)) {
			failed(ret, steps[i].what, &pr, o->log);
			return 0;
		}
		if (!same && i == 0 && sha256_file_hex(objcfg, h2) == 0 &&
		    strcmp(h2, ret->hash))
			log_note(lg, "olddefconfig changed the .config (sha256 "
				 "%s); the artifacts stay keyed by the "
				 "requested one", h2);
	}
	krel = path_join(obj, "include/config/kernel.release");
	if (strbuf_read_file(&kr, krel, 4096) > 0) {
		strbuf_trim(&kr);
		ret->kernelrelease = strbuf_detach(&kr, NULL);
	}
	ret->status = BUILDSTAGE_PASS;
	return 0;
}

/* The measure of a build that passed, from the O= tree and the artifacts
 * still there (the modules already installed in tmp). */
static void measure(const char *obj, const char *tmp,
		    struct buildstage_result *ret, struct buildmeasure *bm)
{
	_cleanup_free_ char *bz = path_join(obj, "arch/x86/boot/bzImage");
	_cleanup_free_ char *vm = path_join(obj, "vmlinux");
	_cleanup_free_ char *mods = NULL;

	buildmeasure_after(obj, ret->hash, ret->cpu_seconds, bm);
	if (ret->kernelrelease &&
	    asprintf(&mods, "%s/modules/lib/modules/%s", tmp,
		     ret->kernelrelease) < 0)
		mods = NULL;
	buildmeasure_sizes(bz, vm, mods && access(mods, R_OK) == 0 ? mods : NULL,
			   bm);
	json_object_put(ret->measure);
	ret->measure = buildmeasure_json(bm);
}

int buildstage_run(const struct buildstage_opts *o,
		   struct buildstage_result *ret, struct strbuf *err)
{
	_cleanup_free_ char *kdir = NULL, *ws = NULL, *obj = NULL;
	_cleanup_free_ char *tmp = NULL, *bl = NULL, *ccache_log = NULL;
	_cleanup_lockfile_ int lock = -1;
	struct buildmeasure bm;
	double restored;
	struct logger lg = { .o = o, .part = { STRBUF_INIT, STRBUF_INIT } };
	bool modules = false;
	double t0 = clock_mono_s(), cpu0 = clock_children_cpu_s();
	int r;

	*ret = (struct buildstage_result){ 0 };
	if (o->distcc_hosts) {
		_cleanup_free_ char *d = NULL;

		_cleanup_free_ char *ddir = path_join(o->cache, "distcc");

		if (proc_find_program("distcc", &d) < 0)
			return strbuf_fail(err, -ENOENT, "distcc farm %s: no distcc "
					   "program (make setup installs it)",
					   o->distcc_hosts);
		/* distcc keeps its locks and state there, and makes no
		 * parent */
		r = mkdir_p(ddir, 0755);
		if (r < 0)
			return strbuf_fail(err, r, "%s: %s", ddir, strerror(-r));
	}
	r = sha256_file_hex(o->config, ret->hash);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", o->config, strerror(-r));
	kdir = kernels_dir(o);
	ws = buildstage_workdir(o->cache, o->ksrc, o->release, o->arch, NULL);
	if (!kdir || !ws)
		return -ENOMEM;
	ret->dir = path_join(kdir, ret->hash);
	obj = path_join(ws, "obj");
	r = mkdir_p(obj, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", obj, strerror(-r));
	r = mkdir_p(kdir, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", kdir, strerror(-r));

	/* Built before (perhaps by whoever held the lock)?  Then only its
	 * log is copied. */
	if (!o->rebuild && load_record(ret->dir, o->src_state, ret))
		goto reused;
	r = lock_dir(ws, o->cancel, &lock, err);
	if (r == -EINTR) {
		ret->status = BUILDSTAGE_CANCELLED;
		ret->reason = strdup("interrupted");
		return 0;
	}
	if (r < 0)
		return r;
	if (!o->rebuild && load_record(ret->dir, o->src_state, ret))
		goto reused;

	if (asprintf(&tmp, "%s/.tmp-%s-%d", kdir, ret->hash, (int)getpid()) < 0)
		return -ENOMEM;
	rm_rf(tmp);
	r = mkdir_p(tmp, 0755);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", tmp, strerror(-r));
	lg.f = fopen(o->log, "we");
	if (!lg.f) {
		r = strbuf_fail(err, -errno, "%s: %s", o->log, strerror(errno));
		goto out;
	}
	ccache_log = buildmeasure_ccache_log(obj);
	restored = restore_after(o, obj, &lg);
	cpu0 = clock_children_cpu_s();
	buildmeasure_before(obj, &bm);
	bm.restore_cpu_seconds = restored;
	lg.ccache_log = ccache_log;
	r = build(o, obj, tmp, &lg, &modules, ret, err);
	ret->seconds = clock_mono_s() - t0;
	ret->cpu_seconds = clock_children_cpu_s() - cpu0;
	if (r < 0 || ret->status != BUILDSTAGE_PASS)
		buildmeasure_mark(obj, ret->hash);
	if (r < 0 || ret->status == BUILDSTAGE_CANCELLED)
		goto out;
	if (ret->status == BUILDSTAGE_PASS) {
		measure(obj, tmp, ret, &bm);
		log_note(&lg, "built in %.1f s (%.1f s of CPU), %ld objects, "
			 "%ld of them compiled now%s", ret->seconds,
			 ret->cpu_seconds, bm.objects, bm.objects_compiled,
			 bm.from_clean ? " (from clean)" : "");
	}
	fclose(lg.f);
	lg.f = NULL;
	/* A failure is kept only when the log says what failed. */
	if (ret->status == BUILDSTAGE_PASS ||
	    (ret->status == BUILDSTAGE_FAIL && ret->error.text)) {
		r = publish(o, obj, tmp, modules, ret, err);
		if (r < 0)
			goto out;
	}
	if (ret->status == BUILDSTAGE_PASS) {
		double secs = ret->seconds, cpu = ret->cpu_seconds;

		if (!load_record(ret->dir, o->src_state, ret)) {
			r = strbuf_fail(err, -EIO, "%s: incomplete after the build",
				 ret->dir);
			goto out;
		}
		ret->status = BUILDSTAGE_PASS;
		ret->reused = false;
		ret->seconds = secs;
		ret->cpu_seconds = cpu;
	}
	r = 0;
out:
	if (lg.f)
		fclose(lg.f);
	strbuf_release(&lg.part[0]);
	strbuf_release(&lg.part[1]);
	rm_rf(tmp);
	return r;

reused:
	ret->seconds = clock_mono_s() - t0;
	bl = path_join(ret->dir, "build.log");
	r = copy_file_atomic(bl, o->log, 0644);
	if (r < 0)
		return strbuf_fail(err, r, "cannot copy %s to %s: %s", bl, o->log,
			    strerror(-r));
	return 0;
}

/* ------------------------------------------------------------ history */

void buildstage_history(const char *cache, const char *ksrc,
			const char *release, const char *arch, double **ret,
			size_t *ret_n)
{
	struct buildstage_opts o = { .cache = cache, .ksrc = ksrc,
				     .release = release };
	_cleanup_free_ char *kdir = kernels_dir(&o);
	DIR *d = kdir ? opendir(kdir) : NULL;
	struct dirent *e;

	*ret = NULL;
	*ret_n = 0;
	while (d && (e = readdir(d))) {
		_cleanup_free_ char *sub = NULL, *meta = NULL;
		json_object *j, *v;

		if (e->d_name[0] == '.')
			continue;
		sub = path_join(kdir, e->d_name);
		meta = path_join(sub, "build.json");
		if (!is_file(meta) || !(j = json_object_from_file(meta)))
			continue;
		if (!strcmp(jsonx_str(j, "result") ?: "", "pass") &&
		    !strcmp(jsonx_str(j, "arch") ?: "", arch) &&
		    json_object_object_get_ex(j, "seconds", &v)) {
			*ret = xrealloc(*ret, (*ret_n + 1) * sizeof(**ret));
			(*ret)[(*ret_n)++] = json_object_get_double(v);
		}
		json_object_put(j);
	}
	if (d)
		closedir(d);
}

bool buildstage_have(const char *cache, const char *ksrc, const char *release,
		     const char *config)
{
	struct buildstage_opts o = { .cache = cache, .ksrc = ksrc,
				     .release = release };
	_cleanup_free_ char *kdir = kernels_dir(&o), *sub = NULL, *meta = NULL;
	char hash[SHA256_HEX_LEN + 1];

	if (!kdir || sha256_file_hex(config, hash) < 0)
		return false;
	sub = path_join(kdir, hash);
	meta = path_join(sub, "build.json");
	return is_file(meta);
}

int buildstage_measured(const char *cache, const char *ksrc,
			const char *release, const char *config, double *ret)
{
	struct buildstage_opts o = { .cache = cache, .ksrc = ksrc,
				     .release = release };
	_cleanup_free_ char *kdir = kernels_dir(&o), *sub = NULL, *meta = NULL;
	char hash[SHA256_HEX_LEN + 1];
	json_object *j;
	bool ok;

	if (!kdir || sha256_file_hex(config, hash) < 0)
		return -ENOENT;
	sub = path_join(kdir, hash);
	meta = path_join(sub, "build.json");
	if (!is_file(meta) || !(j = json_object_from_file(meta)))
		return -ENOENT;
	ok = jsonx_num(j, "seconds", ret);
	json_object_put(j);
	return ok ? 0 : -ENOENT;
}
