/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge: `bootproof merge OUT SHARD_DIR...` (docs/scale-out.md): the run
 * directories of the shards of one plan (`bootproof run --shard K/N`) put
 * together as one run directory OUT, as if one `bootproof run` had run
 * every candidate: each candidate's directory copied from the shard that
 * ran it, the run.json core/shardmerge makes of the shards' (group
 * verdicts recomputed from the candidates' records), the costs
 * (engine/costs) from the copied final .configs, then junit.xml and
 * report.html.  Shards that do not make one run (core/shardmerge_check)
 * are refused before anything is written.
 */
#ifndef BP_ENGINE_MERGE_H
#define BP_ENGINE_MERGE_H

#include <stddef.h>

#include "engine/runrec.h"

struct merge_opts {
	const char *out;		/* the run directory to make; must not
					 * exist (its parent is made) */
	const char *const *shards;	/* run directories (or their run.json) */
	size_t n_shards;
	int argc;			/* recorded in run.json */
	char **argv;
};

/*
 * Merge.  Logs what goes wrong, once.  Returns the exit code (enum
 * bp_exit): 2 for shards that do not make one run or an OUT that exists,
 * 3 when OUT could not be written (then nothing of it is left), else the
 * merged run's (core/shardmerge_exit_code).  *ret gets the merged run
 * (the caller frees it with run_free) whenever OUT was written, else NULL;
 * *ret_report the path of its report.html (malloc'd) or NULL.
 */
int merge_run(const struct merge_opts *o, struct run **ret,
	      char **ret_report);

#endif
