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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "bootproof.h"
#include "engine/bootprep.h"
#include "util/log.h"

static void usage(FILE *f)
{
	fputs("usage: bootproof boot --kernel PATH [options]\n"
	      "  --arch x86_64|i386     guest architecture (default: from the kernel)\n"
	      "  --initrd PATH          initramfs (default: initrd.img-<release> beside\n"
	      "                         the kernel, as in /boot)\n"
	      "  --config PATH          the kernel's .config (default: config-<release>\n"
	      "                         beside it, or .config of its build tree)\n"
	      "  --vmlinux PATH         vmlinux with symbols, for the kgdb scenario\n"
	      "  --cmdline ARGS         appended to the kernel command line\n"
	      "  --scenarios LIST       boot,bpf,cgroups,userfaultfd,mm,kgdb (default:\n"
	      "                         boot,bpf,cgroups,userfaultfd,mm,kgdb); 'none'\n"
	      "                         boots without a root disk or agent\n"
	      "  --accel auto|kvm|tcg   (default auto: KVM only when a probe guest runs)\n"
	      "  --timeout S            whole-boot limit (default: by accelerator and\n"
	      "                         debug options in the config)\n"
	      "  --allow KINDS          kernel problems that do not fail: warn,ubsan,...\n"
	      "  --results DIR          where run directories go (default: results)\n"
	      "  --connect URI          libvirt URI (default: $LIBVIRT_DEFAULT_URI or\n"
	      "                         qemu:///system)\n"
	      "  --memory MIB --cpus N  guest size (default 1024, 2)\n"
	      "  --json                 print run.json on stdout\n"
	      "exit: 0 passed, 1 kernel or scenario failure, 2 bad input,\n"
	      "      3 infrastructure, 130 interrupted\n",
	      f);
}

struct bopts {
	const char *kernel, *initrd, *vmlinux, *config, *cmdline;
	const char *scenarios, *accel, *results, *uri, *arch;
	const char *allow;
	unsigned timeout, memory, cpus;
	bool json;
};

static int parse_uint(const char *opt, const char *s, unsigned *ret)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || v > 1000000) {
		log_error("%s: '%s' is not a number", opt, s);
		return -EINVAL;
	}
	*ret = (unsigned)v;
	return 0;
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

int verb_boot(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "arch", required_argument, NULL, 'a' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "config", required_argument, NULL, 'c' },
		{ "cmdline", required_argument, NULL, 'C' },
		{ "scenarios", required_argument, NULL, 's' },
		{ "accel", required_argument, NULL, 'A' },
		{ "timeout", required_argument, NULL, 't' },
		{ "allow", required_argument, NULL, 'w' },
		{ "results", required_argument, NULL, 'r' },
		{ "connect", required_argument, NULL, 'u' },
		{ "memory", required_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct bopts o = { .scenarios = "boot,bpf,cgroups,userfaultfd,mm,kgdb",
			   .accel = "auto", .results = "results" };
	_cleanup_(bootprep_done) struct bootprep p = { 0 };
	json_object *record = NULL;
	struct run *run = NULL;
	int c, e;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'k': o.kernel = optarg; break;
		case 'a': o.arch = optarg; break;
		case 'i': o.initrd = optarg; break;
		case 'v': o.vmlinux = optarg; break;
		case 'c': o.config = optarg; break;
		case 'C': o.cmdline = optarg; break;
		case 's': o.scenarios = optarg; break;
		case 'A': o.accel = optarg; break;
		case 'w': o.allow = optarg; break;
		case 'r': o.results = optarg; break;
		case 'u': o.uri = optarg; break;
		case 'j': o.json = true; break;
		case 't':
			if (parse_uint("--timeout", optarg, &o.timeout) < 0)
				return BP_EXIT_USAGE;
			break;
		case 'm':
			if (parse_uint("--memory", optarg, &o.memory) < 0)
				return BP_EXIT_USAGE;
			break;
		case 'p':
			if (parse_uint("--cpus", optarg, &o.cpus) < 0)
				return BP_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return BP_EXIT_OK;
		default:
			usage(stderr);
			return BP_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		log_error("boot: unexpected argument '%s'", argv[optind]);
		return BP_EXIT_USAGE;
	}
	if (!o.kernel) {
		log_error("boot: --kernel PATH is required");
		usage(stderr);
		return BP_EXIT_USAGE;
	}

	{
		struct bootprep_args a = {
			.kernel = o.kernel, .arch = o.arch, .initrd = o.initrd,
			.config = o.config, .vmlinux = o.vmlinux,
			.cmdline = o.cmdline, .scenarios = o.scenarios,
			.accel = o.accel, .uri = o.uri, .allow = o.allow,
			.timeout_s = o.timeout, .memory_mib = o.memory,
			.vcpus = o.cpus,
		};

		e = bootprep_prepare(&a, &p);
	}
	if (e < 0)
		return e == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	c = bootprep_boot(&p, o.results, argc, argv, o.json, &run, &record);
	if (c < 0)
		return BP_EXIT_INFRA;
	if (o.json)
		puts(json_object_to_json_string_ext(
			run->doc, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		summary(record, run->dir);
	run_free(run);
	return c;
}
