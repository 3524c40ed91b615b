/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * groupverdict: the verdict of one option group on one arch, from the
 * candidates' records of a matrix run (pure).
 *
 * Input: the "boots" array of a matrix run.json (docs/results.md,
 * docs/run.md): each a BOOT record extended with "candidate", "config" and
 * "build", or a stub with "verdict": null when the candidate never booted.
 * Output: a GROUP_VERDICT object
 *
 *	{ group, arch, verdict: PASS|PARTIAL|FAIL|SKIP,
 *	  stage: config|build|boot|scenario|null, reason, candidate,
 *	  dropped: [ { option, reason } ],
 *	  scenarios: [ { name, result, reason } ],
 *	  reproduce }
 *
 * The deciding candidate is the one with the group alone ("each"), else
 * one with all groups ("all"), else any that has it.  Then, in order:
 *   - no such candidate: SKIP (the plan or arch excludes the group);
 *   - config stage not run: SKIP/config with the record's reason (a
 *     candidate another shard runs), else "run interrupted";
 *   - config stage failed: FAIL/config; build failed: FAIL/build with the
 *     first error; the boot's verdict is not BOOTED: FAIL/boot with the
 *     verdict and its reason (INFRA is the host's fault: SKIP/boot; a stage
 *     not run or not finished because the run was interrupted: SKIP; a
 *     boot sent to LAVA whose results were not read back yet: SKIP,
 *     "waiting for LAVA"); a first boot that BOOTED with a later boot of
 *     its samples (the same kernel booted again) that did not (INFRA,
 *     INCOMPLETE and unsaid verdicts aside): FAIL/boot naming that boot
 *     and its console, "it fails intermittently"; a failed first boot
 *     whose later boots BOOTED says which;
 *   - a scenario of the group failed or gave no result: FAIL/scenario;
 *   - none of the group's own scenarios ("boot" counts only for a group
 *     that names nothing else) passed: SKIP/scenario;
 *   - some options dropped: PARTIAL, naming them and why;
 *   - else PASS.
 * A scenario that skipped because the kernel lacks CONFIG_X, where X is a
 * dropped option of the group, is a skip whose reason says X was dropped
 * and why.  A scenario the plan does not run is a skip "not in the plan".
 * For a build or boot FAIL of a candidate with groups, when the base-alone
 * candidate of the same arch failed the same way the reason says so.
 * A FAIL's "reproduce" is its candidate's (candidate.reproduce: the one
 * command that builds and boots it alone again); null otherwise.
 *
 * Pure module: json-c objects in and out, no I/O, never logs.
 */
#ifndef BP_GROUPVERDICT_H
#define BP_GROUPVERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/plan.h"

enum groupverdict {
	GROUPVERDICT_PASS,
	GROUPVERDICT_PARTIAL,
	GROUPVERDICT_FAIL,
	GROUPVERDICT_SKIP,
};

struct groupverdict_group {
	const char *name;
	const char *arch;
	const char *const *scenarios;	/* the group's, in its order */
	size_t n_scenarios;
	/* The plan: its scenarios line limits what runs (NULL: not
	 * restricted). */
	const struct plan *plan;
};

/* A new GROUP_VERDICT (owned by the caller), NULL on allocation failure.
 * boots may be NULL (no candidate). */
json_object *groupverdict_decide(json_object *boots,
				 const struct groupverdict_group *g);

/* A SKIP decided outside the records (no group file for this arch...). */
json_object *groupverdict_skip(const char *group, const char *arch,
			       const char *stage, const char *reason);

/* "PASS", "PARTIAL", "FAIL", "SKIP". */
const char *groupverdict_name(enum groupverdict v);
/* The verdict of a GROUP_VERDICT object; -EINVAL when it has none. */
int groupverdict_of(json_object *gv, enum groupverdict *ret);

#endif
