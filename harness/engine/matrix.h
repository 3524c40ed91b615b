/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrix: the candidates of a plan, each through config -> build -> boot,
 * and a verdict per option group and arch (docs/run.md).
 *
 * Candidates per arch (as the plan's "candidates" line allows): the base
 * alone ("<arch>-base"), the base plus each group ("<arch>-<group>"), the
 * base plus every group ("<arch>-all"; left out when it would equal the
 * only "each" candidate).  The base is the plan's base target(s) plus its
 * base groups.  A candidate's boot runs the scenarios of all its groups
 * (and boot), as far as the plan lets them run; the kgdb scenario gets the
 * candidate's vmlinux.
 *
 * Stages of one candidate:
 *   config  engine/configstage in <cache>/build/<release>-<tree>/<arch>/config,
 *           the final .config copied to <run>/<candidate>/config;
 *   build   engine/buildstage (artifacts reused by .config hash), log in
 *           <run>/<candidate>/build.log;
 *   boot    engine/boot with the root image of the arch (and the kernel's
 *           modules when it has any), files in <run>/<candidate>/.
 * run.json is saved after every stage and every boot update; the group
 * verdicts (core/groupverdict) are recomputed each time.
 *
 * Resume: with opts->resume the run directory's run.json is read back and
 * completed: a candidate's config stage is reused when it has a result and
 * its final .config is in the run directory, its build when it failed or
 * its artifacts still exist, its boot when it has a verdict other than
 * INCOMPLETE, RUNNING or INFRA; everything else runs.
 *
 * Shards: with opts->shard only the candidates core/shard gives that
 * shard run (their configs, builds in core/buildorder's order among them,
 * boots); the expected cost of a candidate is what the build cache
 * measured for its .config when the config cache holds that .config (the
 * wall seconds of its build), plus its boots.  `bootproof merge`
 * (engine/merge) puts the shards' run directories together.
 *
 * Interrupts: when *opts->interrupted becomes non-zero, make is stopped,
 * the boot engine destroys its guest, nothing new starts, and the run is
 * closed with "complete": false and exit code 130.
 */
#ifndef BP_MATRIX_H
#define BP_MATRIX_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>

#include "adapters/virt.h"
#include "core/domxml.h"
#include "core/matrixrec.h"
#include "core/plan.h"
#include "core/shard.h"
#include "engine/runrec.h"
#include "util/strbuf.h"

/*
 * The stages of one candidate, behind a table so a test can drive the
 * matrix with fakes (the real ones: configstage, buildstage, boot).
 *
 * Each stage gets the candidate and its record so far (borrowed: the
 * build reads its "config", the boot its "build"'s artifacts), and returns
 * MATRIX_STAGE_* flags with *ret set to what it recorded (a new object
 * the matrix takes) or left NULL when it recorded nothing (interrupted, or
 * a boot that could not start: the record stays as it was).  config and
 * build return the record's "config" / "build" member, boot the whole
 * boot record (the matrix keeps the candidate, config and build members).
 * The matrix decides what runs next: a config "fail" stops the candidate,
 * a build other than "pass" / "reused" stops its boot.
 */
enum {
	MATRIX_STAGE_BAD_INPUT = 1 << 0,	/* exit code 2 */
	MATRIX_STAGE_INFRA = 1 << 1,		/* exit code 3 */
};

struct matrix_stage {
	const struct matrixrec_cand *cand;
	const char *dir;		/* <run>/<id>, exists */
	json_object *rec;		/* its record so far (borrowed) */
};

struct matrix_stage_ops {
	unsigned (*config)(void *ud, const struct matrix_stage *st,
			   json_object **ret);
	unsigned (*build)(void *ud, const struct matrix_stage *st,
			  json_object **ret);
	unsigned (*boot)(void *ud, const struct matrix_stage *st,
			 json_object **ret);
};

struct lavaemit_opts;

#define MATRIX_PARALLEL_AUTO UINT_MAX

struct matrix_opts {
	const struct plan *plan;
	const char *datadir;	/* bp_data_dir(): scenarios/groups/ */
	const char *cache;	/* bp_cache_dir() */
	const char *ksrc;	/* resolved kernel tree */
	const char *release;	/* its release */
	const char *results;	/* where a new run directory goes */
	const char *resume;	/* a run directory to continue, or NULL */
	enum bp_accel accel;
	const char *accel_reason;
	const char *uri;	/* libvirt URI */
	int argc;		/* recorded in run.json */
	char **argv;
	bool quiet;		/* no progress on stderr (--json) */
	unsigned jobs;		/* make -j; 0: the CPU count, or the farm's
				 * slots */
	/* Builds compile on this distcc farm (engine/buildstage): the
	 * DISTCC_HOSTS value and its slots; NULL: here.  Recorded as the
	 * host's "distcc". */
	const char *distcc_hosts;
	unsigned distcc_slots;
	unsigned retries;	/* boots whose QEMU died by itself: tries again */
	/* Boots per candidate (its times become medians, docs/cost.md);
	 * 0: the plan's "boots", else 1. */
	unsigned boots;
	bool rebuild;		/* build even what the cache has */
	/* Run only this shard of the candidates (core/shard), split by
	 * shard_by; NULL: all of them.  The others stay stubs whose reason
	 * names the shard that runs them; run.json gets the "shard"
	 * member.  A resumed shard keeps the split its run.json recorded. */
	const struct shard_spec *shard;
	enum shard_by shard_by;
	/* The arches built and booted at once (core/archjobs), each worker
	 * a process of its own that writes <run>/.worker-<k>.json, folded
	 * into run.json whenever one of them changed: MATRIX_PARALLEL_AUTO
	 * decides from the host, N asks for N workers; 0: this process runs
	 * every candidate. */
	unsigned parallel;
	volatile sig_atomic_t *interrupted;
	const struct domain_ops *ops;	/* NULL: libvirt */
	/* Not NULL: no boot here; each candidate that built gets a LAVA
	 * job and its files in lava->out instead (engine/lavaemit), its
	 * record waiting for `bootproof lava-results`. */
	const struct lavaemit_opts *lava;
	const struct matrix_stage_ops *stages;	/* NULL: the real ones */
	void *stages_ud;		/* given to stages */
};

struct matrix_outcome {
	int exit_code;		/* enum bp_exit */
	struct run *run;	/* the run (caller frees with run_free), or
				 * NULL when none was opened */
};

/*
 * Run the plan.  Returns 0 with *ret filled when the matrix ran (whatever
 * its results: ret->exit_code), or -errno before any run directory exists:
 * -EINVAL / -ENOENT bad input (a group that does not exist for any arch of
 * the plan, a malformed group file, a resume directory that is not a
 * matrix run), others infrastructure; err says what.
 */
int matrix_run(const struct matrix_opts *o, struct matrix_outcome *ret,
	       struct strbuf *err);

#endif
