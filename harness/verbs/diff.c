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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bootproof.h"
#include "core/rundiff.h"
#include "core/runread.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "engine/report.h"

static void usage(FILE *f)
{
	fputs("usage: bootproof diff RUN_A RUN_B [--json]\n"
	      "  What regressed and what was fixed from run A (the baseline) to\n"
	      "  run B.  RUN_A and RUN_B are run directories (or their run.json).\n"
	      "  --json   print the differences as JSON on stdout\n"
	      "exit: 0 nothing regressed, 1 something regressed, 2 bad input\n",
	      f);
}

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
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	_cleanup_free_ char *dir_a = NULL, *dir_b = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	json_object *a = NULL, *b = NULL;
	struct rundiff *d = NULL;
	bool json = false;
	int c, r, code;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", lo, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return BP_EXIT_OK;
		default:
			usage(stderr);
			return BP_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		log_error("diff: expected two runs, RUN_A RUN_B");
		usage(stderr);
		return BP_EXIT_USAGE;
	}
	r = report_load_run(argv[optind], &dir_a, &a);
	if (r >= 0)
		r = report_load_run(argv[optind + 1], &dir_b, &b);
	if (r < 0) {
		json_object_put(a);
		return r == -ENOMEM ? BP_EXIT_INFRA : BP_EXIT_USAGE;
	}
	r = rundiff_compare(a, argv[optind], b, argv[optind + 1], &d, &err);
	if (r < 0) {
		if (r == -ENOMEM)
			log_error_errno(r, "diff");
		else
			log_error("%s", err.buf);
		json_object_put(a);
		json_object_put(b);
		return r == -ENOMEM ? BP_EXIT_INFRA : BP_EXIT_USAGE;
	}
	code = d->n_regressions ? BP_EXIT_FAIL : BP_EXIT_OK;
	if (json) {
		json_object *o = rundiff_to_json(d);

		if (!o) {
			code = BP_EXIT_INFRA;
		} else {
			json_object_object_add(o, "a", side(argv[optind], dir_a, a));
			json_object_object_add(o, "b",
					       side(argv[optind + 1], dir_b, b));
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
