// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof diff RUN_A RUN_B [--json]
 *
 * What regressed and what was fixed from run A (the baseline) to run B:
 * group verdicts, stages, boot verdicts, scenarios, kernel problems and
 * requested options (core/rundiff has the rules).  Exit 0 nothing
 * regressed, 1 something did, 2 bad input (not a run directory, invalid
 * run.json, runs of different kinds).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bootproof.h"
#include "core/rundiff.h"
#include "core/runread.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/strbuf.h"
#include "engine/report.h"

static json_object *side(const char *arg, const char *dir, json_object *doc)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(arg));
	json_object_object_add(o, "dir", json_object_new_string(dir));
	json_object_object_add(
		o, "run_id", json_object_new_string(jsonx_str(doc, "run_id")));
	json_object_object_add(o, "complete",
			       json_object_new_boolean(
				       jsonx_bool(doc, "complete", false)));
	return o;
}

int verb_diff(int argc, char **argv)
{
	_cleanup_free_ char *dir_a = NULL, *dir_b = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	json_object *a = NULL, *b = NULL;
	struct rundiff *d = NULL;
	bool json = false;
	int argi, r, code;
	const struct opt table[] = {
		OPT_FLAG('j', "json", &json,
			 "print the differences as JSON on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "diff",
		.synopsis = "bootproof diff RUN_A RUN_B [--json]",
		.intro = "What regressed and what was fixed from run A (the "
			 "baseline) to\nrun B.  RUN_A and RUN_B are run "
			 "directories (or their run.json).",
		.epilog = "exit: 0 nothing regressed, 1 something regressed, 2 "
			  "bad input",
		.opts = table,
		.max_args = 2,
	};

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (argc - argi != 2) {
		log_error("diff: expected two runs, RUN_A RUN_B");
		opts_usage(&cmd, stderr);
		return BP_EXIT_USAGE;
	}
	r = report_load_run(argv[argi], &dir_a, &a);
	if (r >= 0)
		r = report_load_run(argv[argi + 1], &dir_b, &b);
	if (r < 0) {
		json_object_put(a);
		return r == -ENOMEM ? BP_EXIT_INFRA : BP_EXIT_USAGE;
	}
	r = rundiff_compare(a, argv[argi], b, argv[argi + 1], &d, &err);
	if (r < 0) {
		log_error("%s", err.buf);
		json_object_put(a);
		json_object_put(b);
		return BP_EXIT_USAGE;
	}
	code = d->n_regressions ? BP_EXIT_FAIL : BP_EXIT_OK;
	if (json) {
		json_object *o = rundiff_to_json(d);

		if (!o) {
			code = BP_EXIT_INFRA;
		} else {
			json_object_object_add(o, "a", side(argv[argi], dir_a, a));
			json_object_object_add(o, "b",
					       side(argv[argi + 1], dir_b, b));
			puts(json_object_to_json_string_ext(
				o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		}
	} else {
		strbuf_addf(&out, "A: %s%s\nB: %s%s\n", jsonx_str(a, "run_id"),
			    jsonx_bool(a, "complete", false) ? ""
							       : " (INCOMPLETE)",
			    jsonx_str(b, "run_id"),
			    jsonx_bool(b, "complete", false) ? ""
							       : " (INCOMPLETE)");
		rundiff_format_text(d, &out);
		fputs(out.buf, stdout);
	}
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
	return code;
}
