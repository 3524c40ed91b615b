/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runprep: `bootproof run` from the user's request to the matrix.
 *
 * Finds the plan (a file, or a name in scenarios/plans/ of the data
 * directory), takes what --resume's run.json recorded for what is not
 * given, applies --base, --base-group, --candidates, --arch and --group, resolves the kernel tree (unpacking
 * the default tarball once into the cache), chooses the accelerator and
 * the libvirt URI (engine/guesthost), runs the matrix (engine/matrix) and
 * writes the run's report.html (engine/report).
 */
#ifndef BP_ENGINE_RUNPREP_H
#define BP_ENGINE_RUNPREP_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/matrix.h"

/* What the user asked for.  Everything is borrowed; NULL: the default. */
struct lavaemit_opts;

struct runprep_args {
	const char *plan;	/* NULL: the resumed run's, else "demo" */
	const char *const *arches; /* --arch: replace the plan's */
	size_t n_arches;
	const char *const *groups; /* --group: replace the plan's */
	size_t n_groups;
	const char *base;	/* --base: replaces every arch's */
	const char *const *base_groups; /* --base-group: replace the plan's */
	size_t n_base_groups;
	const char *const *candidates; /* --candidates: replace the plan's */
	size_t n_candidates;
	const char *ksrc;	/* NULL: the resumed run's, else the current
			 * directory when it is a kernel tree, else the
			 * tarball */
	const char *results;	/* where run directories go (required) */
	const char *resume;	/* a run directory to continue */
	const char *accel;	/* "auto", "kvm", "tcg" (required) */
	const char *uri;	/* NULL: guesthost_uri() */
	unsigned jobs;		/* make -j; 0: the CPU count */
	unsigned retries;	/* engine/boot.h: boot_request.retries */
	unsigned boots;		/* boots per candidate; 0: the plan's */
	unsigned parallel;	/* arches at once (core/archjobs); 0: auto */
	bool rebuild;		/* build even what the cache has */
	/* Not NULL: LAVA jobs instead of boots (matrix.h: matrix_opts.lava) */
	const struct lavaemit_opts *lava;
	const char *const *distcc; /* --distcc: replace the plan's hosts */
	size_t n_distcc;
	const char *shard;	/* --shard K/N, or NULL (the resumed run's) */
	const char *shard_by;	/* --shard-by cost|order, or NULL: cost */
	bool quiet;		/* no progress on stderr (--json) */
	int argc;		/* recorded in run.json */
	char **argv;
};

/* The plan (with what a replaces), the kernel tree and its release, and
 * the shard to run. */
struct runprep_loaded {
	struct plan *plan;
	char *ksrc;
	char *release;
	char *distcc_hosts;	/* the plan's distcc farm (DISTCC_HOSTS), or
				 * NULL */
	unsigned distcc_slots;
	bool sharded;		/* shard and shard_by are set */
	struct shard_spec shard;
	enum shard_by shard_by;
};

/*
 * Load what a run of a needs, without running it: the plan file (a->plan,
 * else the one the run directory a->resume recorded, else demo), with the
 * lists and tree a->resume recorded for what a does not give, then a's
 * replacements; the kernel tree resolved (the default tarball unpacked
 * once); --shard and --shard-by checked (a resumed shard keeps its own:
 * another --shard is bad input).  Logs what goes wrong, once.  Returns
 * BP_EXIT_OK with *ret filled
 * (release with runprep_loaded_done), or the exit code.
 */
int runprep_load(const struct runprep_args *a, const char *datadir,
		 const char *cache, struct runprep_loaded *ret);
void runprep_loaded_done(struct runprep_loaded *l);

/*
 * Run it.  Logs what goes wrong, once.  Returns the exit code (BP_EXIT_*).
 * ret->run is the run when one was opened (the caller prints from it and
 * frees it with run_free), else NULL; then *ret_report is the path of its
 * report.html, or of its run.json when the page could not be written
 * (malloc'd).
 */
int runprep_run(const struct runprep_args *a, struct matrix_outcome *ret,
		char **ret_report);

#endif
