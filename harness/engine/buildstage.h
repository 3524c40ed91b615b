/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * buildstage: build a kernel from a final .config, or find it built.
 *
 * Artifacts are keyed by the sha256 of the final .config, per kernel tree:
 *
 *	<cache>/kernels/<release>-<tree>/<sha256>/
 *		bzImage vmlinux System.map config build.log build.json
 *		modules/lib/modules/<kernelrelease>/	(CONFIG_MODULES=y only)
 *
 * where <tree> is the first 8 hex digits of the sha256 of the tree's path
 * (as configstage_default_odir).  The directory is made under a temporary
 * name and renamed into place with its build.json: one that exists is
 * complete, and an identical .config is never built twice: the next
 * request finds it ("reused").  A build that failed with an error the log
 * names (a compiler, linker or tool error: the same .config fails the same
 * way) is kept too, as config, build.log and a build.json saying "fail",
 * and found again as a failure; a cancelled build, a timeout or a make
 * that could not run are not kept.  opts->rebuild ignores what is there.
 * For a tree the user names, build.json also records the tree's state
 * (opts->src_state): a record of another state is not reused, so an
 * edited file is always built.
 *
 * A build happens in one out-of-tree directory per tree and arch,
 *
 *	<cache>/build/<release>-<tree>/<arch>/obj
 *
 * reused by every candidate, so Kbuild rebuilds only what a changed option
 * touches: the .config is copied in, then
 *
 *	make -C KSRC O=OBJ ARCH=A CC="ccache gcc" -jN olddefconfig
 *	make -C KSRC O=OBJ ARCH=A CC="ccache gcc" -jN bzImage [modules]
 *	[make ... modules_install INSTALL_MOD_PATH=<tmp>/modules]
 *
 * with CCACHE_DIR=<cache>/ccache (plain gcc when ccache is missing) and N
 * the number of CPUs this process may use.  With a distcc farm
 * (opts->distcc_hosts) the compiles go to its hosts: ccache hands its
 * misses to distcc (CCACHE_PREFIX=distcc; CC="distcc gcc" without
 * ccache), DISTCC_HOSTS is the farm, DISTCC_DIR=<cache>/distcc, and N the
 * farm's slots; the build log's first note names the farm, build.json
 * and the result record it ("distcc").  The artifacts are the same
 * kernel (keyed by the .config as ever), and CPU time counts only what
 * ran here (preprocessing, linking), not the hosts' compiles.  Builders of the same OBJ
 * serialise on <cache>/build/<release>-<tree>/<arch>/.lock.  Every line
 * make prints goes to the build log as it arrives.
 *
 * Subprocesses go through adapters/proc (argv, never a shell).
 */
#ifndef BP_BUILDSTAGE_H
#define BP_BUILDSTAGE_H

#include <signal.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "core/builderr.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

struct buildstage_opts {
	const char *ksrc;	/* a checked kernel tree (ksrc_resolve) */
	const char *release;	/* its release (ksrc_release) */
	const char *arch;	/* "x86_64" or "i386" */
	const char *config;	/* the final .config to build */
	const char *cache;	/* bp_cache_dir() */
	const char *log;	/* the build log to write (replaced) */
	unsigned jobs;		/* 0: the CPUs we may run on (with distcc:
				 * distcc_slots) */
	/* A distcc farm (core/distcc): the DISTCC_HOSTS value and the sum
	 * of its limits; NULL: compile here. */
	const char *distcc_hosts;
	unsigned distcc_slots;
	/* Set by a signal handler: make is stopped, result CANCELLED. */
	volatile sig_atomic_t *cancel;
	bool rebuild;		/* build even when the .config was built */
	/* A tree the user names (engine/ksrc: ksrc_state's files): a build
	 * is reused only when made from this state, else rebuilt (Kbuild
	 * recompiles what changed) and replaced.  NULL: a tree that never
	 * changes (bootproof's unpack), the .config alone decides. */
	const char *src_state;
	/* A .config to have built in the O= tree before this one (when the
	 * tree holds another), so that this build's measure is an
	 * incremental build after it: the matrix gives an "each"
	 * candidate its base's.  NULL: whatever the tree holds. */
	const char *after;
	/* Each complete line make prints (without '\n'), for progress. */
	void (*on_line)(void *ud, const char *line);
	void *ud;
};

enum buildstage_status {
	BUILDSTAGE_PASS,	/* built now */
	BUILDSTAGE_REUSED,	/* found built */
	BUILDSTAGE_FAIL,	/* make failed (now or before): reason, error */
	BUILDSTAGE_CANCELLED,	/* *cancel was set */
};

struct buildstage_result {
	enum buildstage_status status;
	bool reused;		/* REUSED, or a FAIL found recorded */
	char hash[65];		/* sha256 of the .config, hex */
	char *reason;		/* one line; NULL for PASS / REUSED */
	struct builderr error;	/* FAIL: the first error, when found */
	double seconds;		/* this stage, reusing included */
	double built_seconds;	/* the build that made the artifacts */
	double cpu_seconds;	/* CPU time (user + system) of that build's
				 * processes: what it costs on an idle machine
				 * whatever the load was */
	char *built;		/* when (ISO 8601 UTC), REUSED / FAIL */
	char *dir;		/* the artifact directory */
	/* Paths in dir (NULL unless PASS/REUSED); modules is
	 * dir/modules/lib/modules/<kernelrelease> or NULL. */
	char *bzimage, *vmlinux, *system_map, *config, *modules;
	char *kernelrelease;	/* "6.12.118" (from `make kernelrelease`) */
	/* What the build cost and made (engine/buildmeasure.h: the
	 * "measure" member), when it passed; kept in build.json and read
	 * back when reused; NULL for builds recorded before it. */
	json_object *measure;
	char *distcc;		/* the farm this build compiled on (DISTCC_HOSTS),
				 * NULL: here; for REUSED / FAIL, the farm of
				 * the build that made them */
};

/* "pass", "reused", "fail", "skip" (cancelled) as in run.json. */
const char *buildstage_status_name(enum buildstage_status s);

/*
 * Build (or find).  Returns 0 with *ret filled whenever there is a result
 * (a failed or cancelled build included), -errno when the stage could not
 * run at all (cache not writable, make not found...) with a message in err.
 */
int buildstage_run(const struct buildstage_opts *o,
		   struct buildstage_result *ret, struct strbuf *err);

/* Free what a result owns; accepts a zeroed result. */
void buildstage_result_done(struct buildstage_result *r);

/* <cache>/build/<release>-<tree>/<arch>/<leaf>; malloc'd or NULL. */
char *buildstage_workdir(const char *cache, const char *ksrc,
			 const char *release, const char *arch,
			 const char *leaf);

/* "<release>-<tree>" into buf (n bytes): <tree> is the first 8 hex digits
 * of the sha256 of the tree's path.  0 or -ENOMEM. */
int buildstage_tree_key(const char *ksrc, const char *release, char *buf,
			size_t n);

/* What the cache measured: the wall seconds of every build of this tree
 * and arch that passed, in *ret (malloc'd, *ret_n of them; none: NULL, 0).
 * For the run's ETA (core/eta). */
void buildstage_history(const char *cache, const char *ksrc,
			const char *release, const char *arch, double **ret,
			size_t *ret_n);

/* The wall seconds the cache's build of this final .config took (pass or
 * a recorded failure) in *ret: 0, or -ENOENT when the cache has none. */
int buildstage_measured(const char *cache, const char *ksrc,
			const char *release, const char *config, double *ret);

/* Whether the cache holds a build (pass or a recorded failure) of this
 * final .config for this tree: the build stage would reuse it. */
bool buildstage_have(const char *cache, const char *ksrc, const char *release,
		     const char *config);

#endif
