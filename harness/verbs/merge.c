// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootproof merge OUT SHARD_DIR... [--json]
 *
 * The run directories of the shards of one plan (`bootproof run --shard
 * K/N`) put together as the one run directory OUT: candidates' records
 * and files, group verdicts recomputed, report.html, junit.xml
 * (docs/scale-out.md).
 */
#include <stdio.h>

#include "bootproof.h"
#include "engine/merge.h"
#include "util/log.h"
#include "util/opts.h"
#include "verbs/run_summary.h"

int verb_merge(int argc, char **argv)
{
	_cleanup_free_ char *report = NULL;
	struct run *run = NULL;
	bool json = false;
	const struct opt table[] = {
		OPT_FLAG(0, "json", &json, "print the merged run.json on stdout"),
		OPT_END(),
	};
	const struct opts_cmd cmd = {
		.name = "merge",
		.synopsis = "bootproof merge OUT SHARD_DIR... [--json]",
		.intro = "Put the run directories of the shards of one plan "
			 "(bootproof run --shard K/N,\none per K of 1..N) "
			 "together as the run directory OUT (new): each\n"
			 "candidate from the shard that ran it, the group "
			 "verdicts recomputed,\nreport.html and junit.xml.",
		.epilog = "exit: as bootproof run's for the merged run (0 every "
			  "group PASS, PARTIAL\n      or SKIP, 1 a group "
			  "FAILed); 2 shards of other plans, trees or\n"
			  "      splits, a shard twice or missing, OUT exists; "
			  "3 OUT not written",
		.opts = table,
		.max_args = -1,
	};
	int argi, code;

	argi = opts_parse(&cmd, argc, argv);
	if (argi < 0)
		return opts_exit_code(argi);
	if (argc - argi < 2) {
		log_error("merge: expected OUT and at least one SHARD_DIR");
		opts_usage(&cmd, stderr);
		return BP_EXIT_USAGE;
	}
	{
		const struct merge_opts o = {
			.out = argv[argi],
			.shards = (const char *const *)argv + argi + 1,
			.n_shards = (size_t)(argc - argi - 1),
			.argc = argc,
			.argv = argv,
		};

		code = merge_run(&o, &run, &report);
	}
	if (!run)
		return code;
	if (json)
		puts(json_object_to_json_string_ext(
			run->doc, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		run_summary_print(run, report);
	run_free(run);
	return code;
}
