/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shardmerge: the run.json documents of the shards of one plan (`bootproof
 * run --shard K/N`, core/shard) put together as the run.json of one run
 * (`bootproof merge`, docs/scale-out.md).  Pure: json-c documents in, a
 * new document out; the caller copies the candidates' files.
 *
 * Shards belong together when each is a `bootproof run` with a "shard"
 * member, all have the same "plan" member (its groups, bases, scenarios
 * and kernel tree: ksrc and release are members of it), the same N and the
 * same split (which candidate each shard runs), and every K of 1..N comes
 * exactly once.
 */
#ifndef BP_SHARDMERGE_H
#define BP_SHARDMERGE_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

/* One shard: its directory (for messages and the record) and run.json
 * (borrowed). */
struct shardmerge_input {
	const char *dir;
	json_object *doc;
};

/*
 * Do in[0..n) make one run?  Returns 0, or -EINVAL with one line in err
 * naming the shard directories and what is wrong: not a shard, another
 * plan, another kernel tree, another N or split, a shard given twice, a
 * shard missing (and which candidates nobody ran).
 */
int shardmerge_check(const struct shardmerge_input *in, size_t n,
		     struct strbuf *err);

/*
 * The merged run.json (a new object) of shards that passed the check: the
 * first shard's members (schema, command, host, plan), then
 *   run_id	 run_id;
 *   argv	 argv[0..argc);
 *   started	 the earliest shard's; finished, exit_code null and
 *		 complete false (the caller closes the run);
 *   shards	 [ { index, count, run_id, dir, hostname, started, finished,
 *		   exit_code, complete } ] in shard order;
 *   boots	 every candidate's record from the shard that ran it, in the
 *		 plan's order;
 *   groups	 recomputed from those records (matrixrec_groups_recorded);
 *   build_order the shards' build orders, one after the other;
 * and no "shard", "costs" or "resumed" member.  *ret_owner (malloc'd, one
 * per boot) gets the index in `in` of the shard each boot comes from.
 */
json_object *shardmerge_doc(const struct shardmerge_input *in, size_t n,
			    const char *run_id, int argc, char **argv,
			    size_t **ret_owner);

/*
 * The merged run's exit code (enum bp_exit) and whether it is complete:
 * a shard that did not complete makes it incomplete and 130 (interrupted);
 * else a shard's bad input (2), else infrastructure (3), else 1 when the
 * recomputed groups fail (matrixrec_run_failed), else 0.
 */
int shardmerge_exit_code(const struct shardmerge_input *in, size_t n,
			 json_object *merged, bool *ret_complete);

#endif
