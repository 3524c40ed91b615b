// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof boot --kernel PATH [--arch A] [--initrd PATH] [--vmlinux PATH]
 *     [--config PATH] [--cmdline ARGS] [--scenarios LIST] [--accel MODE]
 *     [--timeout S] [--allow KINDS] [--results DIR] [--connect URI] [--json]
 *
 * Boot any x86 kernel under libvirt with the bootproof agent as init and
 * report the verdict and each scenario's result.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/accel.h"
#include "adapters/image_guestfs.h"
#include "bootproof.h"
#include "core/bootargs.h"
#include "core/bzimage.h"
#include "core/recjson.h"
#include "engine/boot.h"
#include "engine/runrec.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/paths.h"
#include "util/strbuf.h"
#include "verbs/report.h"

struct bopts {
	const char *kernel, *initrd, *vmlinux, *config, *cmdline;
	const char *scenarios, *accel, *results, *uri, *arch;
	const char *allow;
	unsigned timeout, memory, cpus;
	bool json;
};

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

static void summary(json_object *rec, const char *dir)
{
	json_object *sc, *v;
	const char *verdict = "?", *reason = "";
	double el = 0, init = -1;

	if (json_object_object_get_ex(rec, "verdict", &v))
		verdict = json_object_get_string(v);
	if (json_object_object_get_ex(rec, "reason", &v) && v)
		reason = json_object_get_string(v);
	if (json_object_object_get_ex(rec, "elapsed_s", &v))
		el = json_object_get_double(v);
	if (json_object_object_get_ex(rec, "time_to_init_s", &v) && v)
		init = json_object_get_double(v);
	json_object_object_get_ex(rec, "accel", &v);
	printf("verdict: %s (%s) after %.1fs", verdict, reason, el);
	if (init >= 0)
		printf(", init after %.1fs", init);
	printf(" [%s]\n", v ? json_object_get_string(v) : "?");
	if (json_object_object_get_ex(rec, "scenarios", &sc))
		for (size_t i = 0; i < json_object_array_length(sc); i++) {
			json_object *s = json_object_array_get_idx(sc, i), *n, *r, *why;
			json_object_object_get_ex(s, "name", &n);
			json_object_object_get_ex(s, "result", &r);
			json_object_object_get_ex(s, "reason", &why);
			printf("  %-12s %-5s %s\n", json_object_get_string(n),
			       json_object_get_string(r),
			       why ? json_object_get_string(why) : "");
		}
	printf("results: %s/\n", dir);
}

/* The options into o: the index of the first positional argument, or a
 * negative value for opts_exit_code(). */
static int parse_options(struct bopts *o, int argc, char **argv)
{
	const struct opt table[] = {
		OPT_STRING_REQUIRED(0, "kernel", &o->kernel, "PATH",
				    "the kernel image (an x86 bzImage)"),
		OPT_STRING(0, "arch", &o->arch, "x86_64|i386",
			   "guest architecture (default: from the kernel)"),
		OPT_STRING(0, "initrd", &o->initrd, "PATH",
			   "initramfs (default: initrd.img-<release> beside\n"
			   "the kernel, as in /boot)"),
		OPT_STRING(0, "config", &o->config, "PATH",
			   "the kernel's .config (default: config-<release>\n"
			   "beside it, or .config of its build tree)"),
		OPT_STRING(0, "vmlinux", &o->vmlinux, "PATH",
			   "vmlinux with symbols, for the kgdb scenario"),
		OPT_STRING(0, "cmdline", &o->cmdline, "ARGS",
			   "appended to the kernel command line"),
		OPT_STRING(0, "scenarios", &o->scenarios, "LIST",
			   "boot,bpf,cgroups,userfaultfd,mm,kgdb (default:\n"
			   "boot,bpf,cgroups,userfaultfd,mm,kgdb); 'none'\n"
			   "boots without a root disk or agent"),
		OPT_STRING(0, "accel", &o->accel, "auto|kvm|tcg",
			   "accelerator (default auto: KVM only when a probe\n"
			   "guest runs)"),
		OPT_UINT(0, "timeout", &o->timeout, "S", "seconds", 0, 1000000,
			 "whole-boot limit (default: by accelerator and\n"
			 "debug options in the config)"),
		OPT_STRING(0, "allow", &o->allow, "KINDS",
			   "kernel problems that do not fail: warn,ubsan,..."),
		OPT_STRING(0, "results", &o->results, "DIR",
			   "where run directories go (default: results)"),
		OPT_STRING(0, "connect", &o->uri, "URI",
			   "libvirt URI (default: $LIBVIRT_DEFAULT_URI or\n"
			   "qemu:///system)"),
		OPT_UINT(0, "memory", &o->memory, "MIB", "MiB", 0, 1000000,
			 "guest memory (default 1024)"),
		OPT_UINT(0, "cpus", &o->cpus, "N", "CPUs", 0, 1000000,
			 "guest CPUs (default 2)"),
		OPT_FLAG(0, "json", &o->json, "print run.json on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "boot",
		.synopsis = "bootproof boot --kernel PATH [options]",
		.intro = "Boot an x86 kernel under libvirt with the bootproof "
			 "agent as init and\nreport the verdict and each "
			 "scenario's result.",
		.epilog = "exit: 0 passed, 1 kernel or scenario failure, 2 bad "
			  "input,\n      3 infrastructure, 130 interrupted",
		.opts = table,
		.max_args = 0,
	};

	return opts_parse(&cmd, argc, argv);
}

int verb_boot(int argc, char **argv)
{
	struct bopts o = { .scenarios = "boot,bpf,cgroups,userfaultfd,mm,kgdb",
			   .accel = "auto", .results = "results" };
	_cleanup_free_ char *initrd = NULL, *config = NULL, *vmlinux = NULL;
	_cleanup_free_ char *modules = NULL, *cache = NULL, *stage = NULL;
	_cleanup_free_ char *allow_buf = NULL, *name = NULL, *kernel_abs = NULL;
	_cleanup_strbuf_ struct strbuf head = STRBUF_INIT, msg = STRBUF_INIT;
	_cleanup_(image_result_done) struct image_result img = { 0 };
	const char *allowed[32];
	size_t n_allowed = 0;
	struct bzimage_info bi;
	enum guest_arch arch;
	enum guest_accel accel = GUEST_ACCEL_TCG;
	char accel_reason[512] = "";
	struct run *run = NULL;
	struct boot_outcome out;
	volatile sig_atomic_t *interrupted;
	bool with_agent;
	int c, e;

	c = parse_options(&o, argc, argv);
	if (c < 0)
		return opts_exit_code(c);

	/* The kernel: a real x86 bzImage for the arch asked for. */
	e = strbuf_read_file(&head, o.kernel, 256 << 20);
	if (e < 0) {
		log_error_errno(e, "--kernel %s", o.kernel);
		return BP_EXIT_USAGE;
	}
	if (bzimage_inspect(head.buf, head.len, &bi) < 0) {
		log_error("--kernel %s: not an x86 kernel image (no bzImage "
			  "boot header)", o.kernel);
		return BP_EXIT_USAGE;
	}
	if (head.len < bi.min_size) {
		log_error("--kernel %s: cut off: %zu bytes, its boot header "
			  "says at least %llu",
			  o.kernel, head.len, bi.min_size);
		return BP_EXIT_USAGE;
	}
	if (o.arch) {
		if (guest_arch_from_string(o.arch, &arch) < 0) {
			log_error("--arch %s: unknown (x86_64 or i386)", o.arch);
			return BP_EXIT_USAGE;
		}
		if (arch == GUEST_ARCH_I386 && bi.is_64bit) {
			log_error("--kernel %s is a 64-bit kernel (%s); it cannot "
				  "boot as --arch i386", o.kernel, bi.release);
			return BP_EXIT_USAGE;
		}
	} else {
		arch = bi.is_64bit ? GUEST_ARCH_X86_64 : GUEST_ARCH_I386;
	}
	kernel_abs = realpath(o.kernel, NULL);

	/* What lies beside it, as in /boot or a build tree. */
	if (o.initrd) {
		if (!file_ok(o.initrd)) {
			log_error("--initrd %s: no such file", o.initrd);
			return BP_EXIT_USAGE;
		}
		initrd = strdup(o.initrd);
	} else {
		initrd = beside(o.kernel, "initrd.img-", bi.release);
	}
	if (o.config) {
		_cleanup_strbuf_ struct strbuf cfg = STRBUF_INIT;

		if (!file_ok(o.config)) {
			log_error("--config %s: no such file", o.config);
			return BP_EXIT_USAGE;
		}
		e = strbuf_read_file(&cfg, o.config, 8 << 20);
		if (e < 0) {
			log_error_errno(e, "--config %s", o.config);
			return BP_EXIT_USAGE;
		}
		if (bootargs_check_config(o.config, cfg.buf, cfg.len, &msg) < 0) {
			log_error("%s", msg.buf);
			return BP_EXIT_USAGE;
		}
		config = strdup(o.config);
	} else if (!(config = beside(o.kernel, "config-", bi.release))) {
		config = in_tree(o.kernel, ".config");
	}
	if (o.vmlinux) {
		unsigned char eh[64];
		ssize_t n;

		if (!file_ok(o.vmlinux)) {
			log_error("--vmlinux %s: no such file", o.vmlinux);
			return BP_EXIT_USAGE;
		}
		n = read_head(o.vmlinux, eh, sizeof(eh));
		if (n < 0) {
			log_error_errno((int)n, "--vmlinux %s", o.vmlinux);
			return BP_EXIT_USAGE;
		}
		if (bootargs_check_vmlinux(o.vmlinux, eh, (size_t)n,
					   arch == GUEST_ARCH_X86_64, &msg) < 0) {
			log_error("%s", msg.buf);
			return BP_EXIT_USAGE;
		}
		vmlinux = strdup(o.vmlinux);
	} else {
		vmlinux = in_tree(o.kernel, "vmlinux");
	}
	if (o.allow) {
		char *save = NULL;

		if (bootargs_check_allow(o.allow, &msg) < 0) {
			log_error("%s", msg.buf);
			return BP_EXIT_USAGE;
		}
		allow_buf = strdup(o.allow);
		for (char *t = strtok_r(allow_buf, ",", &save);
		     t && n_allowed < ELEMENTSOF(allowed);
		     t = strtok_r(NULL, ",", &save))
			allowed[n_allowed++] = t;
	}
	if (bootargs_check_scenarios(o.scenarios, &msg) < 0) {
		log_error("%s", msg.buf);
		return BP_EXIT_USAGE;
	}
	with_agent = strcmp(o.scenarios, "none") != 0;

	/* The accelerator: KVM only when a probe guest really ran. */
	if (!strcmp(o.accel, "tcg")) {
		accel = GUEST_ACCEL_TCG;
		snprintf(accel_reason, sizeof(accel_reason), "TCG requested");
	} else if (!strcmp(o.accel, "kvm") || !strcmp(o.accel, "auto")) {
		struct accel_probe p;
		struct accel_probe_opts po = { 0 };

		accel_probe_kvm(&po, &p);
		if (p.usable) {
			accel = GUEST_ACCEL_KVM;
			snprintf(accel_reason, sizeof(accel_reason),
				 "KVM probe guest ran in %ld ms", p.elapsed_ms);
		} else if (!strcmp(o.accel, "kvm")) {
			log_error("--accel kvm: KVM unusable: %s", p.reason);
			return BP_EXIT_INFRA;
		} else {
			snprintf(accel_reason, sizeof(accel_reason),
				 "KVM unusable: %s; using TCG", p.reason);
		}
	} else {
		log_error("--accel %s: expected auto, kvm or tcg", o.accel);
		return BP_EXIT_USAGE;
	}
	if (!o.uri)
		o.uri = getenv("LIBVIRT_DEFAULT_URI");
	if (!o.uri || !*o.uri)
		o.uri = "qemu:///system";

	/* The root image with the agent (and the kernel's modules when it
	 * has them where a distro keeps them). */
	if (with_agent) {
		struct image_request ir = {
			.arch = arch == GUEST_ARCH_I386 ? IMAGE_ARCH_I386
							: IMAGE_ARCH_X86_64,
		};
		char md[300];

		snprintf(md, sizeof(md), "/lib/modules/%s", bi.release);
		if (initrd && access(md, R_OK) == 0)
			modules = strdup(md);
		ir.modules = modules;
		e = image_ensure(&ir, &img);
		if (e == -EINVAL)
			return BP_EXIT_USAGE;
		if (e < 0)
			return BP_EXIT_INFRA;
	}

	e = run_open(o.results, guest_arch_name(arch), "boot", argc, argv, &run);
	if (e < 0) {
		log_error_errno(e, "cannot create a run directory under %s",
				o.results);
		return BP_EXIT_INFRA;
	}
	{
		json_object *host;
		json_object_object_get_ex(run->doc, "host", &host);
		recjson_add_str(host, "accel", guest_accel_name(accel));
		recjson_add_str(host, "accel_reason", accel_reason);
		recjson_add_str(host, "libvirt_uri", o.uri);
	}
	cache = bp_cache_dir();
	if (asprintf(&name, "bootproof-%s", run->id) < 0)
		name = NULL;
	stage = path_join(cache, "runs");
	{
		char *s2 = path_join(stage, name);
		free(stage);
		stage = s2;
	}
	if (!o.json)
		log_info("run %s: %s %s kernel %s, %s", run->id,
			 guest_arch_name(arch), bi.is_64bit ? "64-bit" : "32-bit",
			 bi.release, accel_reason);

	interrupted = interrupt_catch();

	{
		struct boot_request req = {
			.name = name,
			.arch = arch,
			.accel = accel,
			.accel_reason = accel_reason,
			.uri = o.uri,
			.kernel = kernel_abs ? kernel_abs : o.kernel,
			.initrd = initrd,
			.vmlinux = vmlinux,
			.config = config,
			.image = with_agent ? img.path : NULL,
			.scenarios = with_agent ? o.scenarios : NULL,
			.cmdline_extra = o.cmdline,
			.timeout_s = o.timeout,
			.allowed = allowed,
			.n_allowed = n_allowed,
			.memory_mib = o.memory,
			.vcpus = o.cpus,
			.run_dir = run->dir,
			.prefix = "",
			.stage_dir = stage,
			.interrupted = interrupted,
			.quiet = o.json,
			.on_update = on_update,
			.ud = run,
		};

		e = boot_run(&req, &out);
	}
	if (e < 0) {
		log_error_errno(e, "boot");
		run_close(run, BP_EXIT_INFRA, false);
		run_free(run);
		return BP_EXIT_INFRA;
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
	if (o.json)
		puts(json_object_to_json_string_ext(
			run->doc, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		summary(out.record, run->dir);
	c = out.exit_code;
	/* Results that could not be kept are the host's failure, whatever
	 * the kernel did. */
	if (e < 0 && c != 130)
		c = BP_EXIT_INFRA;
	run_free(run);
	return c;
}
