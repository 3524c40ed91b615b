// SPDX-License-Identifier: GPL-2.0-or-later
/* bootproof: verb dispatch (git.c style: a static table of verbs). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bootproof.h"
#include "util/log.h"

struct verb {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct verb verbs[] = {
	{ "doctor", verb_doctor, "check that this host can boot guests" },
	{ "boot", verb_boot, "boot a kernel under libvirt, run scenarios, verdict" },
	{ "triage", verb_triage, "read recorded console logs, report problems" },
	{ "image", verb_image, "build or find the guest disk image for an arch" },
	{ "report", verb_report, "write report.html of a run directory" },
	{ "diff", verb_diff, "what regressed and what was fixed between two runs" },
	{ "config", verb_config, "make a .config from a base and groups, explain drops" },
	{ "groups", verb_groups, "list the option groups" },
	{ "run", verb_run, "the matrix: a plan's candidates through config, build, boot" },
	{ "merge", verb_merge, "put the shards of a run (run --shard K/N) together" },
	{ "bisect", verb_bisect, "narrow a failing candidate to the option lines that break it" },
	{ "kcidb", verb_kcidb, "a run as a KernelCI KCIDB document" },
	{ "cost", verb_cost, "what each option group of a run costs against the base" },
	{ "lava-results", verb_lava_results, "read a finished LAVA job back into its run" },
};

static void usage(FILE *f)
{
	fputs("usage: bootproof <verb> [options]\n\nverbs:\n", f);
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
	fputs("\n'bootproof <verb> --help' describes a verb; docs/ has more.\n",
	      f);
}

int main(int argc, char **argv)
{
	/* A write to a socket or pipe whose reader went away must be an
	 * EPIPE we handle, never a silent death: libvirt's client writes its
	 * next call on a connection libvirtd has closed (a restarted daemon,
	 * or its keepalive after bootproof was stopped), and the run would
	 * end without a word or a record.  Children get SIGPIPE back
	 * (adapters/proc.c resets every signal before exec). */
	signal(SIGPIPE, SIG_IGN);
	log_setup();
	if (argc < 2) {
		usage(stderr);
		return BP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return BP_EXIT_OK;
	}
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		if (!strcmp(argv[1], verbs[i].name))
			return verbs[i].fn(argc - 1, argv + 1);
	log_error("unknown verb '%s'", argv[1]);
	usage(stderr);
	return BP_EXIT_USAGE;
}
