// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof lava-results RUN --log FILE [--job FILE] [--tests FILE]
 *                        [--candidate ID] [--json]
 *
 * A finished LAVA job read back into the run that sent it (engine/lavaread;
 * docs/lava.md): the record that waited for LAVA gets its verdict, problems
 * and scenario results from the job's console, as a local boot would have.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "bootproof.h"
#include "engine/lavaread.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/opts.h"
#include "util/strbuf.h"

int verb_lava_results(int argc, char **argv)
{
	struct lavaread_opts o = { 0 };
	bool json = false;
	const struct opt table[] = {
		OPT_STRING_REQUIRED(0, "log", &o.log, "FILE",
				    "the job's log: lava-run's stderr, or a LAVA\n"
				    "server's api/v0.2/jobs/<id>/logs/"),
		OPT_STRING(0, "job", &o.job, "FILE",
			   "the job definition bootproof wrote, or the\n"
			   "server's api/v0.2/jobs/<id>/ JSON: which\n"
			   "candidate (its metadata)"),
		OPT_STRING(0, "tests", &o.tests, "FILE",
			   "the server's api/v0.2/jobs/<id>/tests/ JSON, kept\n"
			   "in the record beside LAVA's own test cases"),
		OPT_STRING(0, "candidate", &o.candidate, "ID",
			   "the candidate the job is for (default: from\n"
			   "--job, or the run's only record)"),
		OPT_FLAG(0, "json", &json, "print the record on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "lava-results",
		.synopsis = "bootproof lava-results RUN --log FILE [options]",
		.intro = "Read a finished LAVA job back into the run (a run\n"
			 "directory) that wrote it with --lava-out: the same\n"
			 "verdict, problems and scenario results as a local boot\n"
			 "(docs/lava.md).",
		.epilog = "exit: as the run's: 0 passed, 1 a kernel or scenario "
			  "failure,\n      2 bad input, 3 infrastructure (LAVA's "
			  "own failures)",
		.opts = table,
		.max_args = 1,
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *doc = NULL, *rec = NULL, *sc;
	int argi, r, code = 0;

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (argi >= argc) {
		log_error("lava-results: expected a run directory");
		return BP_EXIT_USAGE;
	}
	o.run = argv[argi];
	r = lavaread_run(&o, &doc, &rec, &code, &err);
	if (r < 0) {
		log_error("lava-results: %s", err.buf);
		return r == -EINVAL || r == -ENOENT ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	if (json) {
		puts(json_object_to_json_string_ext(
			rec, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		printf("%s: %s (%s)\n", jsonx_str(rec, "name"),
		       jsonx_str(rec, "verdict"), jsonx_str(rec, "reason"));
		sc = jsonx_get(rec, "scenarios");
		for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
			json_object *s = json_object_array_get_idx(sc, i);

			printf("  %-12s %-5s %s\n", jsonx_str(s, "name"),
			       jsonx_str(s, "result"),
			       jsonx_str(s, "reason") ? jsonx_str(s, "reason") : "");
		}
	}
	json_object_put(doc);
	return code;
}
