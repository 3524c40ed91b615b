/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * configstage: make a kernel .config from a base and option groups with the
 * kernel's own tooling, then say what became of every requested option and
 * why each one that did not survive was dropped.
 *
 *   1. make -C KSRC O=ODIR ARCH=A <base target>...   (in-tree base), then
 *   2. scripts/kconfig/merge_config.sh -m -O ODIR <.config or base file>
 *      <group fragments, in order>
 *   3. make -C KSRC O=ODIR ARCH=A olddefconfig syncconfig
 *   4. every group option checked against ODIR/.config (core/kconfig);
 *      every base line too, for stale ones
 *   5. each option that did not survive explained: by bootproof when a later
 *      fragment overrode it, else by the bp-kconfig-explain helper compiled
 *      against the objects in ODIR/scripts/kconfig/ and the tree's headers (cached in
 *      <cache>/kconfig-explain/<hash>/), run with the environment Kconfig
 *      saw (ODIR/include/config/auto.conf.cmd), so the tree's own Kconfig
 *      evaluates every dependency.
 *
 * All subprocesses go through adapters/proc (argv, never a shell).  Callers
 * of the same ODIR serialise on ODIR/.bootproof-config.lock.
 */
#ifndef BP_CONFIGSTAGE_H
#define BP_CONFIGSTAGE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/explain.h"
#include "core/groups.h"
#include "core/kconfig.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

struct configstage_opts {
	const char *ksrc;	/* a checked tree, absolute (ksrc_resolve) */
	const char *arch;	/* "x86_64" or "i386" */
	/*
	 * In-tree targets joined by '+' ("x86_64_defconfig",
	 * "tinyconfig+kvm_guest.config"; the first must make a whole config:
	 * defconfig, tinyconfig, all{no,yes,mod,def}config or a
	 * <name>_defconfig of arch/x86/configs/), or a path to a config file
	 * (anything with a '/': "./my.config").
	 */
	const char *base;
	struct group *const *groups;	/* borrowed, merged in this order */
	size_t n_groups;
	const char *odir;	/* the O= directory, absolute (created) */
	const char *cache;	/* where the compiled helper is kept */
	const char *datadir;	/* has harness/kconfig-explain/ (bp_data_dir) */
	/* Make the .config only: steps 4 and 5 are skipped (no options in
	 * the result, no helper run). */
	bool make_only;
	/* Set by a signal handler: the running make, script or helper is
	 * stopped and the stage returns -EINTR.  NULL: never. */
	volatile sig_atomic_t *cancel;
};

/* What became of one requested option, or of one line of the base. */
struct configstage_option {
	const struct group *group;	/* NULL: a line of the base config */
	/* The request, with file:line (owned by the group or the result). */
	const struct kconfig_option *requested;
	/* The final definition (owned by the result), NULL when absent. */
	const struct kconfig_option *final;
	enum kconfig_verdict verdict;	/* from kconfig_verify() */
	bool kept;
	/*
	 * When !kept: why.  For a base line kind is EXPLAIN_STALE_BASE and
	 * cause the underlying kind; otherwise cause == kind.
	 */
	enum explain_kind kind, cause;
	char *reason;			/* one line of text (owned), NULL if kept */
	/* The helper's record for this symbol, or NULL. */
	const struct explain_symbol *detail;
	/* EXPLAIN_OVERRIDDEN: the later definition that won. */
	const struct kconfig_option *overridden_by;
};

struct configstage_result {
	char *final_config;	/* <odir>/.config */
	char *release;		/* the tree's release, "6.12.118" */
	char **base_files;	/* the base's config files, in order */
	size_t n_base_files;
	/* Group options (in group order, each in its file's order), then
	 * the base's stale lines. */
	struct configstage_option *opts;
	size_t n_opts;
	size_t n_dropped;	/* group options not kept */
	size_t n_stale;		/* stale base lines */
	/* Why explanations are missing (helper failed), or NULL. */
	char *explain_error;
	/* Owned sets the options point into. */
	struct kconfig *final;
	struct kconfig *base;
	struct kconfig *merged;
	struct explain_result *explain;
};

/*
 * Run the stage.  Returns 0 with the result in *ret (dropped options are a
 * result, not an error), or:
 *   -EINVAL  bad input: unknown base, unreadable or malformed base file,
 *            a group not for this arch, a path merge_config.sh cannot take;
 *            err says which (file:line for a malformed file)
 *   -EINTR   o->cancel was set: the running command was stopped
 *   other    infrastructure: make or merge_config.sh failed (err has the
 *            command and the tail of its output), I/O errors
 * A helper that cannot be built or run is not fatal: the options it would
 * have explained get EXPLAIN_UNEXPLAINED and explain_error says why.
 */
int configstage_run(const struct configstage_opts *o,
		    struct configstage_result **ret, struct strbuf *err);

/*
 * Ask the bp-kconfig-explain helper (core/explain.h: queries written with
 * explain_query_*()) about the .config of o->odir, a directory
 * configstage_run() made with the same opts: the helper is compiled (or
 * reused from the cache) as for the stage's own explanations and run with
 * the environment its syncconfig recorded.  Serialised with the stage on
 * the directory's lock.  Returns 0 with the answers in *ret, one symbol
 * per query, or -errno with err saying what failed (-EPROTO: malformed
 * answers or fewer than asked).
 */
int configstage_explain(const struct configstage_opts *o, const char *queries,
			size_t len, size_t n_queries,
			struct explain_result **ret, struct strbuf *err);

void configstage_result_free(struct configstage_result *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct configstage_result *, configstage_result_free)
#define _cleanup_configstage_result_ _cleanup_(configstage_result_freep)

/*
 * The default O= directory of the config verb for a tree and arch:
 * <cache>/config/<release>-<hash of the tree's path>/<arch>.  Returns a
 * malloc'd path or NULL.
 */
char *configstage_default_odir(const char *cache, const char *ksrc,
			       const char *release, const char *arch);

/*
 * A group named on a command line: a name (group_name_valid, no '/', not
 * ending in .config) is <datadir>/scenarios/groups/<arch>/<name>.config,
 * parsed strictly; anything else is a path to a fragment file, parsed
 * leniently (see core/groups.h).  group->file is made absolute.
 * Returns 0, -ENOENT for an unknown name or a missing file (err lists the
 * known groups), -EINVAL for a malformed file (err: "file:line: ..."),
 * other -errno.
 */
int configstage_load_group(const char *datadir, const char *arch,
			   const char *arg, struct group **ret,
			   struct strbuf *err);

/*
 * Every group of arch in <datadir>/scenarios/groups/<arch>/, sorted by name.
 * Returns the count (>= 0) with a malloc'd array in *ret (free with
 * configstage_groups_free), -EINVAL when one is malformed, -errno.
 */
int configstage_list_groups(const char *datadir, const char *arch,
			    struct group ***ret, struct strbuf *err);
void configstage_groups_free(struct group **g, size_t n);

#endif
