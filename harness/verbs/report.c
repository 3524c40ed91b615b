// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof report RUN_DIR
 *
 * (Re)write RUN_DIR/report.html from RUN_DIR/run.json and print its path.
 * Exit 0 written, 2 not a run directory or run.json invalid, 3 the page
 * could not be written.
 */
#include <errno.h>
#include <stdio.h>

#include "bootproof.h"
#include "engine/report.h"
#include "util/log.h"
#include "util/opts.h"

static const struct opt report_opts[] = { OPT_END() };
static const struct opts_cmd report_cmd = {
	.name = "report",
	.synopsis = "bootproof report RUN_DIR",
	.intro = "(Re)write RUN_DIR/report.html from RUN_DIR/run.json and "
		 "print its path.\nRUN_DIR may also be the run.json itself.",
	.epilog = "exit: 0 written, 2 not a run directory or invalid "
		  "run.json,\n      3 the page could not be written",
	.opts = report_opts,
	.max_args = 1,
};

int verb_report(int argc, char **argv)
{
	_cleanup_free_ char *dir = NULL, *path = NULL;
	json_object *doc = NULL;
	int argi, r;

	argi = opts_parse(&report_cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (argi == argc) {
		log_error("report: expected one RUN_DIR");
		opts_usage(&report_cmd, stderr);
		return BP_EXIT_USAGE;
	}
	r = report_load_run(argv[argi], &dir, &doc);
	if (r == -ENOMEM)
		return BP_EXIT_INFRA;
	if (r < 0)
		return BP_EXIT_USAGE;
	r = report_write_page(dir, doc, &path);
	json_object_put(doc);
	if (r < 0) {
		log_error_errno(r, "cannot write %s/report.html", dir);
		return BP_EXIT_INFRA;
	}
	puts(path);
	return BP_EXIT_OK;
}
