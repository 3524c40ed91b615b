/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refreshstage: `bootproof config --refresh`, the audit of a defconfig
 * refresh.  Does a new version of a defconfig give the same final .config as
 * the old one, and what does each line that differs between them do?
 *
 *   1. each side's final .config made by the config stage
 *      (engine/configstage: the in-tree target for a defconfig of
 *      arch/x86/configs/, else merge_config.sh on the file; then
 *      olddefconfig syncconfig), in <odir>/old and <odir>/new;
 *   2. the two defconfigs and the two results compared (core/refresh);
 *   3. the tree's own Kconfig asked, against each final .config, why every
 *      symbol involved has its value (the bp-kconfig-explain helper's "why"
 *      query, through configstage_explain());
 *   4. every differing line classified (core/refresh).
 *
 * Callers of the same odir serialise on <odir>/.bootproof-refresh.lock.
 */
#ifndef BP_REFRESHSTAGE_H
#define BP_REFRESHSTAGE_H

#include "core/explain.h"
#include "core/kconfig.h"
#include "core/refresh.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

struct refreshstage_opts {
	const char *ksrc;	/* a checked tree, absolute (ksrc_resolve) */
	const char *arch;	/* "x86_64" or "i386" */
	/*
	 * Each a defconfig of the tree ("x86_64_defconfig", "defconfig": the
	 * arch's own) or a path to a defconfig file (anything with a '/').
	 */
	const char *old, *new;
	const char *odir;	/* absolute; old/ and new/ are made in it */
	const char *cache;	/* where the compiled helper is kept */
	const char *datadir;	/* has harness/kconfig-explain/ */
};

struct refreshstage_side {
	char *file;		/* the defconfig file read (absolute) */
	char *final_config;	/* <odir>/<side>/.config */
	struct kconfig *def;	/* the defconfig's lines */
	struct kconfig *final;	/* the final .config */
	struct explain_result *why; /* the helper's answers, or NULL */
};

struct refreshstage_result {
	char *release;		/* the tree's release, "6.12.118" */
	struct refreshstage_side old, new;
	struct refresh_result *refresh;	/* classified */
	/* Why the lines are not explained (the helper failed), or NULL. */
	char *explain_error;
};

/*
 * Run the audit.  Returns 0 with the result in *ret (results that differ
 * are a result, not an error), or:
 *   -EINVAL  bad input: an unknown in-tree defconfig, a missing or
 *            malformed defconfig file (err: "file:line: ..."), a bad arch
 *   other    infrastructure: make or merge_config.sh failed, I/O errors
 * A helper that cannot be built or run is not fatal: the lines are then
 * classified without Kconfig's reasons and explain_error says why.
 */
int refreshstage_run(const struct refreshstage_opts *o,
		     struct refreshstage_result **ret, struct strbuf *err);

void refreshstage_result_free(struct refreshstage_result *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct refreshstage_result *,
			    refreshstage_result_free)
#define _cleanup_refreshstage_result_ _cleanup_(refreshstage_result_freep)

#endif
