// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/bootprep.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootproof.h"
#include "core/bootargs.h"
#include "core/recjson.h"
#include "engine/lavaemit.h"
#include "engine/report.h"
#include "util/interrupt.h"
#include "util/jsonx.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/strbuf.h"

static bool file_ok(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* "<dir of kernel>/<prefix><release>" if it exists. */
static char *beside(const char *kernel, const char *prefix, const char *rel)
{
	_cleanup_free_ char *k = strdup(kernel);
	_cleanup_free_ char *name = NULL;
	char *p;

	if (!k || asprintf(&name, "%s%s", prefix, rel) < 0)
		return NULL;
	p = path_join(dirname(k), name);
	if (file_ok(p))
		return p;
	free(p);
	return NULL;
}

/* A kernel inside a build tree: <tree>/arch/x86/boot/bzImage. */
static char *in_tree(const char *kernel, const char *rel)
{
	_cleanup_free_ char *real = realpath(kernel, NULL);
	char *p, *s;

	if (!real || !(s = strstr(real, "/arch/x86/boot/bzImage")) || s[22])
		return NULL;
	*s = '\0';
	p = path_join(real, rel);
	if (file_ok(p))
		return p;
	free(p);
	return NULL;
}

/* The first bytes of a file, for a look at its kind; -errno. */
static ssize_t read_head(const char *path, unsigned char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, n);
	if (r < 0)
		r = -errno;
	close(fd);
	return r;
}

/* The kernel: a real x86 bzImage for the arch asked for. */
static int prep_kernel(const struct bootprep_args *a, struct bootprep *p)
{
	_cleanup_strbuf_ struct strbuf head = STRBUF_INIT;
	struct bzimage_info *bi = &p->kernel;
	int e;

	e = strbuf_read_file(&head, a->kernel, 256 << 20);
	if (e < 0) {
		log_error_errno(e, "--kernel %s", a->kernel);
		return -EINVAL;
	}
	if (bzimage_inspect(head.buf, head.len, bi) < 0) {
		log_error("--kernel %s: not an x86 kernel image (no bzImage "
			  "boot header)", a->kernel);
		return -EINVAL;
	}
	if (head.len < bi->min_size) {
		log_error("--kernel %s: cut off: %zu bytes, its boot header "
			  "says at least %llu",
			  a->kernel, head.len, bi->min_size);
		return -EINVAL;
	}
	if (a->arch) {
		if (bp_arch_parse(a->arch, &p->req.arch) < 0) {
			log_error("--arch %s: unknown (x86_64 or i386)", a->arch);
			return -EINVAL;
		}
		if (p->req.arch == BP_ARCH_I386 && bi->is_64bit) {
			log_error("--kernel %s is a 64-bit kernel (%s); it cannot "
				  "boot as --arch i386", a->kernel, bi->release);
			return -EINVAL;
		}
	} else {
		p->req.arch = bi->is_64bit ? BP_ARCH_X86_64 : BP_ARCH_I386;
	}
	p->kernel_abs = realpath(a->kernel, NULL);
	return 0;
}

static int prep_config(const char *config, char **ret)
{
	_cleanup_strbuf_ struct strbuf cfg = STRBUF_INIT, msg = STRBUF_INIT;
	int e;

	if (!file_ok(config)) {
		log_error("--config %s: no such file", config);
		return -EINVAL;
	}
	e = strbuf_read_file(&cfg, config, 8 << 20);
	if (e < 0) {
		log_error_errno(e, "--config %s", config);
		return -EINVAL;
	}
	if (bootargs_check_config(config, cfg.buf, cfg.len, &msg) < 0) {
		log_error("%s", msg.buf);
		return -EINVAL;
	}
	*ret = strdup(config);
	return 0;
}

static int prep_vmlinux(const char *vmlinux, enum bp_arch arch, char **ret)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	unsigned char eh[64];
	ssize_t n;

	if (!file_ok(vmlinux)) {
		log_error("--vmlinux %s: no such file", vmlinux);
		return -EINVAL;
	}
	n = read_head(vmlinux, eh, sizeof(eh));
	if (n < 0) {
		log_error_errno((int)n, "--vmlinux %s", vmlinux);
		return -EINVAL;
	}
	if (bootargs_check_vmlinux(vmlinux, eh, (size_t)n, arch, &msg) < 0) {
		log_error("%s", msg.buf);
		return -EINVAL;
	}
	*ret = strdup(vmlinux);
	return 0;
}

/* A modules directory of release rel with its modules.dep, or NULL. */
static char *moddir_at(const char *base, const char *rel)
{
	_cleanup_free_ char *dep = NULL;
	char *dir = NULL;

	if (!rel || !*rel || strchr(rel, '/') ||
	    asprintf(&dir, "%s/lib/modules/%s", base, rel) < 0)
		return NULL;
	dep = path_join(dir, "modules.dep");
	if (file_ok(dep))
		return dir;
	free(dir);
	return NULL;
}

/* The kernel's modules: <dir>/../lib/modules/<release> of a kernel in a
 * boot/ directory (/boot, an unpacked package), else this host's. */
static char *find_moddir(const char *kernel, const char *rel)
{
	_cleanup_free_ char *real = realpath(kernel, NULL);
	char *slash, *d;

	if (real && (slash = strrchr(real, '/'))) {
		*slash = '\0';
		slash = strrchr(real, '/');
		if (slash && !strcmp(slash, "/boot")) {
			*slash = '\0';
			d = moddir_at(real, rel);
			if (d)
				return d;
		}
	}
	return moddir_at("", rel);
}

/* What lies beside the kernel, as in /boot or a build tree; for a modular
 * kernel booted with the agent, bootproof's own initramfs (prep_image)
 * unless --initrd names one. */
static int prep_files(const struct bootprep_args *a, struct bootprep *p,
		      bool with_agent)
{
	const char *rel = p->kernel.release;
	int e;

	if (a->initrd) {
		if (!file_ok(a->initrd)) {
			log_error("--initrd %s: no such file", a->initrd);
			return -EINVAL;
		}
		p->initrd = strdup(a->initrd);
	} else if (with_agent && (p->modules = find_moddir(a->kernel, rel))) {
		p->own_initrd = true;
	} else {
		p->initrd = beside(a->kernel, "initrd.img-", rel);
	}
	if (!p->modules && p->initrd)
		p->modules = find_moddir(a->kernel, rel);
	if (a->config) {
		e = prep_config(a->config, &p->config);
		if (e < 0)
			return e;
	} else if (!(p->config = beside(a->kernel, "config-", rel))) {
		p->config = in_tree(a->kernel, ".config");
	}
	if (a->vmlinux)
		return prep_vmlinux(a->vmlinux, p->req.arch, &p->vmlinux);
	p->vmlinux = in_tree(a->kernel, "vmlinux");
	return 0;
}

static int prep_allow(const struct bootprep_args *a, struct bootprep *p)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	char *save = NULL;
	size_t n = 0;

	if (!a->allow)
		return 0;
	if (bootargs_check_allow(a->allow, &msg) < 0) {
		log_error("%s", msg.buf);
		return -EINVAL;
	}
	p->allow_buf = strdup(a->allow);
	if (!p->allow_buf)
		return -ENOMEM;
	for (char *t = strtok_r(p->allow_buf, ",", &save);
	     t && n < ELEMENTSOF(p->allowed); t = strtok_r(NULL, ",", &save))
		p->allowed[n++] = t;
	p->req.allowed = p->allowed;
	p->req.n_allowed = n;
	return 0;
}

/* The root image with the agent (and the kernel's modules when it has
 * them where a distro keeps them), and bootproof's initramfs when the
 * kernel boots with it. */
static int prep_image(struct bootprep *p)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct image_request ir = {
		.arch = p->req.arch,
		.modules = p->modules,
	};
	struct image_result ird = { .path = NULL };
	int e = image_ensure(&ir, &p->image);

	if (e < 0 || !p->own_initrd)
		return e;
	e = image_initramfs_ensure(&ir, &ird, &err);
	if (e < 0) {
		log_error("%s", err.buf);
		return e;
	}
	log_debug("initramfs %s (%s, %llu bytes)", ird.path,
		  ird.cached ? "cached" : "written",
		  (unsigned long long)ird.size);
	p->initrd = TAKE_PTR(ird.path);
	image_result_done(&ird);
	return 0;
}

int bootprep_prepare(const struct bootprep_args *a, struct bootprep *ret)
{
	_cleanup_strbuf_ struct strbuf msg = STRBUF_INIT;
	bool with_agent;
	int e;

	*ret = (struct bootprep){ 0 };
	timeline_init(&ret->timeline, clock_mono_ms());
	timeline_begin(&ret->timeline, "check", clock_mono_ms());
	with_agent = strcmp(a->scenarios, "none") != 0;
	e = prep_kernel(a, ret);
	if (e >= 0)
		e = prep_files(a, ret, with_agent);
	if (e >= 0)
		e = prep_allow(a, ret);
	if (e < 0)
		return e;
	if (bootargs_check_scenarios(a->scenarios, &msg) < 0) {
		log_error("%s", msg.buf);
		return -EINVAL;
	}

	timeline_begin(&ret->timeline, "accelerator", clock_mono_ms());
	e = guesthost_accel(a->accel, NULL, &ret->req.accel, ret->accel_reason,
			    sizeof(ret->accel_reason));
	if (e < 0) {
		log_error("%s", ret->accel_reason);
		return e;
	}
	ret->req.uri = guesthost_uri(a->uri);

	if (with_agent) {
		timeline_begin(&ret->timeline, "image", clock_mono_ms());
		e = prep_image(ret);
		if (e < 0)
			return e;
	}
	ret->req.accel_reason = ret->accel_reason;
	ret->req.kernel = ret->kernel_abs ? ret->kernel_abs : a->kernel;
	ret->req.initrd = ret->initrd;
	ret->req.vmlinux = ret->vmlinux;
	ret->req.config = ret->config;
	ret->req.image = with_agent ? ret->image.path : NULL;
	ret->req.scenarios = with_agent ? a->scenarios : NULL;
	ret->req.cmdline_extra = a->cmdline;
	ret->req.timeout_s = a->timeout_s;
	ret->req.retries = a->retries;
	ret->req.memory_mib = a->memory_mib;
	ret->req.vcpus = a->vcpus;
	return 0;
}

void bootprep_done(struct bootprep *p)
{
	free(p->kernel_abs);
	free(p->initrd);
	free(p->config);
	free(p->vmlinux);
	free(p->modules);
	free(p->allow_buf);
	image_result_done(&p->image);
	*p = (struct bootprep){ 0 };
}

static void on_update(void *ud, json_object *rec)
{
	static int last_err;
	struct run *run = ud;
	int e;

	run_set_boot(run, 0, json_object_get(rec));
	e = run_save(run);
	/* Once per kind of failure, not once a second. */
	if (e < 0 && e != last_err)
		log_warn_errno(e, "cannot save %s/run.json (the previous one "
				  "stays)", run->dir);
	last_err = e;
}

/* The run's host record, its domain name and staging directory. */
static void boot_setup(struct bootprep *p, struct run *run, char **ret_name,
		       char **ret_stage)
{
	_cleanup_free_ char *cache = bp_cache_dir(), *runs = NULL;
	json_object *host;

	json_object_object_get_ex(run->doc, "host", &host);
	recjson_add_str(host, "accel", bp_accel_name(p->req.accel));
	recjson_add_str(host, "accel_reason", p->accel_reason);
	recjson_add_str(host, "libvirt_uri", p->req.uri);
	if (asprintf(ret_name, "bootproof-%s", run->id) < 0)
		*ret_name = NULL;
	runs = path_join(cache, "runs");
	*ret_stage = path_join(runs, *ret_name);
}

int bootprep_boot(struct bootprep *p, const char *results, int argc,
		  char **argv, bool quiet, struct run **ret_run,
		  json_object **ret_record)
{
	_cleanup_free_ char *name = NULL, *stage = NULL;
	struct run *run = NULL;
	struct boot_outcome out;
	int c, e;

	timeline_begin(&p->timeline, "run directory", clock_mono_ms());
	e = run_open(results, bp_arch_name(p->req.arch), "boot", argc, argv,
		     &run);
	if (e < 0)
		return log_error_errno(e, "cannot create a run directory "
					  "under %s", results);
	boot_setup(p, run, &name, &stage);
	if (!quiet)
		log_info("run %s: %s %s kernel %s, %s", run->id,
			 bp_arch_name(p->req.arch),
			 p->kernel.is_64bit ? "64-bit" : "32-bit",
			 p->kernel.release, p->accel_reason);

	p->req.name = name;
	p->req.run_dir = run->dir;
	p->req.prefix = "";
	p->req.stage_dir = stage;
	p->req.interrupted = interrupt_catch();
	p->req.quiet = quiet;
	p->req.on_update = on_update;
	p->req.ud = run;
	p->req.timeline = &p->timeline;
	e = boot_run(&p->req, &out);
	if (e < 0) {
		log_error_errno(e, "boot");
		run_close(run, BP_EXIT_INFRA, false);
		run_free(run);
		return e;
	}
	run_set_boot(run, 0, out.record);
	e = run_close(run, out.exit_code, out.verdict != VERDICT_INCOMPLETE);
	if (e < 0)
		log_error_errno(e, "infrastructure: cannot write the results "
				   "in %s", run->dir);
	else
		report_write(run->dir, NULL);
	if (out.verdict == VERDICT_INFRA) {
		json_object *r;
		json_object_object_get_ex(out.record, "reason", &r);
		log_error("infrastructure: %s", r ? json_object_get_string(r) : "?");
	}
	c = out.exit_code;
	/* Results that could not be kept are the host's failure, whatever
	 * the kernel did. */
	if (e < 0 && c != BP_EXIT_INTERRUPTED)
		c = BP_EXIT_INFRA;
	*ret_run = run;
	*ret_record = out.record;
	return c;
}

int bootprep_lava(struct bootprep *p, const struct lavaemit_opts *lo,
		  const char *results, int argc, char **argv,
		  struct run **ret_run, json_object **ret_record)
{
	_cleanup_free_ char *name = NULL, *stage = NULL, *job_name = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct run *run = NULL;
	json_object *rec, *k, *lava = NULL;
	int e, c;

	e = run_open(results, bp_arch_name(p->req.arch), "boot", argc, argv,
		     &run);
	if (e < 0)
		return log_error_errno(e, "cannot create a run directory "
					  "under %s", results);
	boot_setup(p, run, &name, &stage);
	p->req.name = name;
	if (asprintf(&job_name, "bootproof %s", run->id) < 0)
		abort();
	{
		const struct lavajob_meta meta[] = {
			{ "bootproof.run", run->id },
			{ "bootproof.record", name },
			{ "bootproof.arch", bp_arch_name(p->req.arch) },
			{ "bootproof.kernel", p->kernel.release },
			{ "bootproof.scenarios", p->req.scenarios },
		};

		e = lavaemit_job(lo, run->id, job_name, &p->req, meta,
				 ELEMENTSOF(meta), &lava, &err);
	}
	if (e < 0) {
		log_error("%s", err.buf);
		run_close(run, e == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA, false);
		run_free(run);
		return e == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	rec = json_object_new_object();
	recjson_add_str(rec, "name", name);
	recjson_add_str(rec, "arch", bp_arch_name(p->req.arch));
	k = json_object_new_object();
	recjson_add_str(k, "path", p->req.kernel);
	recjson_add_str(k, "initrd", p->req.initrd);
	recjson_add_str(k, "vmlinux", p->req.vmlinux);
	recjson_add_str(k, "config", p->req.config);
	json_object_object_add(rec, "kernel", k);
	recjson_add_str(rec, "image", p->req.image);
	recjson_add_str(rec, "cmdline", jsonx_str(lava, "cmdline"));
	json_object_object_add(rec, "verdict", NULL);
	strbuf_addf(&why, "sent to LAVA: %s", jsonx_str(lava, "job"));
	recjson_add_str(rec, "reason", why.buf);
	json_object_object_add(rec, "scenarios", json_object_new_array());
	json_object_object_add(rec, "complete", json_object_new_boolean(0));
	json_object_object_add(rec, "lava", lava);
	run_set_boot(run, 0, rec);
	e = run_close(run, BP_EXIT_OK, true);
	c = BP_EXIT_OK;
	if (e < 0) {
		log_error_errno(e, "infrastructure: cannot write the results "
				   "in %s", run->dir);
		c = BP_EXIT_INFRA;
	} else {
		report_write(run->dir, NULL);
	}
	*ret_run = run;
	*ret_record = rec;
	return c;
}
