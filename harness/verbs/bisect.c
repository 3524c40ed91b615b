// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof bisect RUN_DIR [--candidate ID] [--results DIR] [--max-steps N]
 *     [--accel MODE] [--connect URI] [--jobs N] [--retries N] [--json]
 *
 * A failing candidate of a matrix run narrowed to the option lines that
 * make it fail, every step a real config, build and boot
 * (docs/bisect.md).
 */
#include <stdio.h>

#include "bootproof.h"
#include "core/bisect.h"
#include "engine/bisectrun.h"
#include "util/exitcode.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/opts.h"

static const char bisect_synopsis[] = "bootproof bisect RUN_DIR [options]";
static const char bisect_intro[] =
	"RUN_DIR is a `bootproof run` directory with a failed candidate.";
static const char bisect_epilog[] =
	"exit: 1 narrowed (or the failure cannot be: base fails, flaky, step\n"
	"      limit); 0 the candidate did not fail again; 2 bad input;\n"
	"      3 infrastructure; 130 interrupted";

static void print_lines(json_object *set)
{
	json_object *opts = jsonx_get(set, "options");

	for (size_t i = 0; i < json_object_array_length(opts); i++) {
		json_object *o = json_object_array_get_idx(opts, i);

		printf("  %s    (%s, group %s)\n", jsonx_str(o, "text"),
		       jsonx_str(o, "source"), jsonx_str(o, "group") ?: "?");
	}
}

static void summary(const struct run *run)
{
	json_object *bi = jsonx_get(run->doc, "bisect");
	json_object *c = jsonx_get(bi, "culprit");
	json_object *n = jsonx_get(bi, "narrowed");

	printf("%s of %s: %s\n",
	       jsonx_str(jsonx_get(bi, "source"), "candidate") ?: "?",
	       jsonx_str(jsonx_get(bi, "source"), "run_id") ?: "?",
	       jsonx_str(jsonx_get(bi, "target"), "text") ?: "?");
	printf("%s: %s (%s steps)\n", jsonx_str(bi, "status") ?: "?",
	       jsonx_str(bi, "reason") ?: "", jsonx_text(bi, "steps_run") ?: "?");
	if (c) {
		printf("culprit%s:\n", jsonx_bool(bi, "interaction", false)
					       ? " (these lines fail only together)"
					       : "");
		print_lines(c);
		{
			_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

			bisect_needs_text(c, &sb);
			if (sb.len)
				printf("%s", sb.buf);
		}
		printf("reproduce: %s\n", jsonx_str(c, "reproduce") ?: "?");
	} else if (n) {
		printf("narrowed so far to:\n");
		print_lines(n);
	}
	printf("results: %s/\nreport: %s/report.html\n", run->dir, run->dir);
}

int verb_bisect(int argc, char **argv)
{
	const char *candidate = NULL, *results = "results", *accel = NULL;
	const char *uri = NULL;
	unsigned jobs = 0, retries = 1, max_steps = 64;
	bool json = false;
	struct run *run = NULL;
	const struct opt table[] = {
		OPT_STRING(0, "candidate", &candidate, "ID",
			   "the candidate to narrow (default: the first that\n"
			   "failed, not the base alone)"),
		OPT_STRING(0, "results", &results, "DIR",
			   "where the bisection's directory goes (default:\n"
			   "results)"),
		OPT_UINT(0, "max-steps", &max_steps, "N", "steps", 0, 10000,
			 "stop after N steps (default 64; 0: no limit)"),
		OPT_STRING(0, "accel", &accel, "auto|kvm|tcg",
			   "accelerator (default: the failing run's)"),
		OPT_STRING(0, "connect", &uri, "URI",
			   "libvirt URI (default: $LIBVIRT_DEFAULT_URI or\n"
			   "qemu:///system)"),
		OPT_UINT(0, "jobs", &jobs, "N", "jobs", 1, 1024,
			 "make -jN (default: the CPU count)"),
		OPT_UINT(0, "retries", &retries, "N", "retries", 0, 10,
			 "boot again, up to N times, when QEMU dies by itself\n"
			 "(default 1)"),
		OPT_FLAG(0, "json", &json, "print run.json on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "bisect",
		.synopsis = bisect_synopsis,
		.intro = bisect_intro,
		.epilog = bisect_epilog,
		.opts = table,
		.max_args = 1,
	};
	int c = opts_parse(&cmd, argc, argv), code;

	if (c < 0)
		return opts_exit_code(c);
	if (c >= argc) {
		log_error("bisect: which run? (bootproof bisect RUN_DIR)");
		return BP_EXIT_USAGE;
	}
	{
		struct bisectrun_opts o = {
			.run_dir = argv[c],
			.candidate = candidate,
			.results = results,
			.accel = accel,
			.uri = uri,
			.jobs = jobs,
			.retries = retries,
			.max_steps = max_steps,
			.quiet = json,
			.argc = argc,
			.argv = argv,
		};

		code = bisectrun_run(&o, &run);
	}
	if (!run)
		return code;
	if (json)
		puts(json_object_to_json_string_ext(
			run->doc, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		summary(run);
	if (code == BP_EXIT_INTERRUPTED)
		log_info("interrupted: the steps so far are in %s", run->dir);
	run_free(run);
	return code;
}
