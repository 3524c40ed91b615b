// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof report RUN_DIR
 *
 * (Re)write RUN_DIR/report.html from RUN_DIR/run.json and print its path.
 * Exit 0 written, 2 not a run directory or run.json invalid, 3 the page
 * could not be written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "bootproof.h"
#include "engine/report.h"
#include "util/log.h"

static void usage(FILE *f)
{
	fputs("usage: bootproof report RUN_DIR\n"
	      "  (Re)write RUN_DIR/report.html from RUN_DIR/run.json and print\n"
	      "  its path.  RUN_DIR may also be the run.json itself.\n"
	      "exit: 0 written, 2 not a run directory or invalid run.json,\n"
	      "      3 the page could not be written\n",
	      f);
}

int verb_report(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	_cleanup_free_ char *dir = NULL, *path = NULL;
	json_object *doc = NULL;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return BP_EXIT_OK;
		default:
			usage(stderr);
			return BP_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		log_error("report: expected one RUN_DIR");
		usage(stderr);
		return BP_EXIT_USAGE;
	}
	r = report_load_run(argv[optind], &dir, &doc);
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
