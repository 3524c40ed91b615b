// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof boot --kernel PATH [--arch A] [--initrd PATH] [--vmlinux PATH]
 *     [--config PATH] [--cmdline ARGS] [--scenarios LIST] [--accel MODE]
 *     [--timeout S] [--retries N] [--allow KINDS] [--results DIR] [--connect URI] [--json]
 *     [--verbose]
 *
 * Boot any x86 kernel under libvirt with the bootproof agent as init and
 * report the verdict and each scenario's result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootproof.h"
#include "core/timeline.h"
#include "engine/bootprep.h"
#include "engine/lavaemit.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/opts.h"

struct bopts {
	const char *kernel, *initrd, *vmlinux, *config, *cmdline;
	const char *scenarios, *accel, *results, *uri, *arch;
	const char *allow, *lava_out, *lava_url;
	unsigned timeout, memory, cpus, retries;
	bool json, verbose;
};

/* Each kernel problem by its title, and what the agent said of kmemleak
 * and lockdep when it said lockdep was off or kmemleak did not scan. */
static void print_problems(json_object *rec)
{
	json_object *ps, *d, *k;

	if (json_object_object_get_ex(rec, "problems", &ps))
		for (size_t i = 0; i < json_object_array_length(ps); i++) {
			json_object *p = json_object_array_get_idx(ps, i);

			printf("  problem %s: %s (console line %s)%s\n",
			       jsonx_str(p, "kind"), jsonx_str(p, "title"),
			       json_object_get_string(jsonx_get(p, "line")),
			       jsonx_bool(p, "allowed", false) ? " allowed" : "");
		}
	if (!json_object_object_get_ex(rec, "debug", &d) || !d)
		return;
	if ((jsonx_str(d, "lockdep") && !strcmp(jsonx_str(d, "lockdep"), "off")) ||
	    jsonx_get(d, "lockdep_off_line"))
		printf("  lockdep: turned itself off after a report; later "
		       "locking problems were not checked\n");
	if (json_object_object_get_ex(d, "kmemleak", &k) && k &&
	    jsonx_str(k, "no_scan"))
		printf("  kmemleak: no scan (%s)\n", jsonx_str(k, "no_scan"));
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
	if (json_object_object_get_ex(rec, "earlier_attempts", &v))
		printf("attempts: %zu (QEMU died by itself in the first %zu: "
		       "console.attempt*.log)\n",
		       json_object_array_length(v) + 1, json_object_array_length(v));
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
	print_problems(rec);
	printf("results: %s/\n", dir);
}

static void print_timeline(json_object *rec)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	if (timeline_format(jsonx_get(rec, "timeline"), &sb) == 0)
		fputs(sb.buf, stdout);
	else
		puts("timeline: none recorded");
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
		OPT_UINT(0, "retries", &o->retries, "N", "retries", 0, 10,
			 "boot again, up to N times, when QEMU dies by\n"
			 "itself (default 1; the earlier attempts are kept)"),
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
		OPT_STRING(0, "lava-out", &o->lava_out, "DIR",
			   "do not boot here: write a LAVA job and the files\n"
			   "it downloads into DIR (docs/lava.md)"),
		OPT_STRING(0, "lava-url", &o->lava_url, "URL",
			   "the URL DIR is served at (with --lava-out)"),
		OPT_FLAG(0, "json", &o->json, "print run.json on stdout"),
		OPT_FLAG(0, "verbose", &o->verbose,
			 "also print where the time went (run.json's\n"
			 "timeline: each phase and its seconds)"),
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
			   .accel = "auto", .results = "results",
			   .retries = 1 };
	_cleanup_(bootprep_done) struct bootprep p = { 0 };
	json_object *record = NULL;
	struct run *run = NULL;
	const char *why = NULL;
	int c, e;

	c = parse_options(&o, argc, argv);
	if (c < 0)
		return opts_exit_code(c);
	if (!o.lava_out != !o.lava_url) {
		log_error("--lava-out and --lava-url go together");
		return BP_EXIT_USAGE;
	}
	if (o.lava_url && !lavaemit_url_ok(o.lava_url, &why)) {
		log_error("--lava-url %s: %s", o.lava_url, why);
		return BP_EXIT_USAGE;
	}
	if (o.lava_out && !strcmp(o.scenarios, "none")) {
		log_error("--lava-out: a LAVA job reports through the agent; "
			  "--scenarios none has none");
		return BP_EXIT_USAGE;
	}

	{
		struct bootprep_args a = {
			.kernel = o.kernel, .arch = o.arch, .initrd = o.initrd,
			.config = o.config, .vmlinux = o.vmlinux,
			.cmdline = o.cmdline, .scenarios = o.scenarios,
			.accel = o.accel, .uri = o.uri, .allow = o.allow,
			.timeout_s = o.timeout, .memory_mib = o.memory,
			.vcpus = o.cpus, .retries = o.retries,
		};

		e = bootprep_prepare(&a, &p);
	}
	if (e < 0)
		return e == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	if (o.lava_out) {
		const struct lavaemit_opts lo = { .out = o.lava_out,
						  .url = o.lava_url };

		c = bootprep_lava(&p, &lo, o.results, argc, argv, &run, &record);
		if (!run)
			return c;
		if (o.json)
			puts(json_object_to_json_string_ext(
				run->doc, JSON_C_TO_STRING_PRETTY |
						  JSON_C_TO_STRING_NOSLASHESCAPE));
		else if (c == BP_EXIT_OK)
			printf("LAVA job: %s\nresults: %s/ (waiting for the "
			       "job: bootproof lava-results)\n",
			       jsonx_str(jsonx_get(record, "lava"), "job"),
			       run->dir);
		run_free(run);
		return c;
	}
	c = bootprep_boot(&p, o.results, argc, argv, o.json, &run, &record);
	if (c < 0)
		return BP_EXIT_INFRA;
	if (o.json)
		puts(json_object_to_json_string_ext(
			run->doc, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		summary(record, run->dir);
	if (o.verbose && !o.json)
		print_timeline(record);
	run_free(run);
	return c;
}
