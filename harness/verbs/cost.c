// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof cost RUN_DIR [--json]
 *
 * What each option group of a matrix run costs against its base: build
 * (objects, CPU from clean, the incremental build), size, boot and config
 * (docs/cost.md).  Computed from the run's records and final .configs,
 * so it reads runs recorded before run.json had "costs" too.
 */
#include <errno.h>
#include <stdio.h>

#include "bootproof.h"
#include "core/costrec.h"
#include "core/runread.h"
#include "engine/costs.h"
#include "engine/report.h"
#include "util/log.h"
#include "util/opts.h"

int verb_cost(int argc, char **argv)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	json_object *doc = NULL, *costs;
	bool json = false;
	const struct opt table[] = {
		OPT_FLAG(0, "json", &json, "print the costs as JSON (run.json's "
					   "\"costs\")"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "cost",
		.synopsis = "bootproof cost RUN_DIR [--json]",
		.intro = "What each option group of a `bootproof run` costs "
			 "against the base:\nbuild, size, boot and config "
			 "(docs/cost.md).  RUN_DIR may be its run.json.",
		.epilog = "exit: 0 printed; 2 not a run directory, an invalid "
			  "run.json, or a run\n      without \"each\" candidates "
			  "beside a base candidate; 3 out of memory",
		.opts = table,
		.max_args = 1,
	};
	int argi, r;

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (argi == argc) {
		log_error("cost: expected one RUN_DIR");
		opts_usage(&cmd, stderr);
		return BP_EXIT_USAGE;
	}
	r = report_load_run(argv[argi], &dir, &doc);
	if (r == -ENOMEM)
		return BP_EXIT_INFRA;
	if (r < 0)
		return BP_EXIT_USAGE;
	if (!runread_is_matrix(doc)) {
		log_error("cost: %s: a single boot (bootproof boot), not a "
			  "matrix run: nothing to compare", dir);
		json_object_put(doc);
		return BP_EXIT_USAGE;
	}
	costs = costs_of_run(dir, doc);
	json_object_put(doc);
	if (!json_object_array_length(costs)) {
		log_error("cost: %s: no \"each\" candidate with a base candidate "
			  "of its arch (a plan with 'candidates base each' has "
			  "them)", dir);
		json_object_put(costs);
		return BP_EXIT_USAGE;
	}
	if (json) {
		puts(json_object_to_json_string_ext(
			costs, JSON_C_TO_STRING_PRETTY |
				       JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		costrec_text(costs, &out);
		fputs(out.buf, stdout);
	}
	json_object_put(costs);
	return BP_EXIT_OK;
}
