/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repro: the one command line that builds and boots one candidate of a
 * matrix run again, and shell quoting for any command line we print
 * (docs/results.md, "reproduce").
 *
 *	bootproof run /src/scenarios/plans/test-fail.plan --arch x86_64
 *	    --base tinyconfig+kvm_guest.config
 *	    --base-group /src/scenarios/groups/x86_64/demo-base.config
 *	    --group '/home/me/my groups/break.config' --candidates each
 *	    --accel tcg --ksrc /var/cache/bootproof/src/linux-source-6.12
 *
 * The plan file is kept for what only it says (its name, its scenarios
 * line, its boot timeout); everything that makes the candidate's kernel is
 * on the command line and replaces the plan's: the arch, the base, every
 * base group and group as the file that was read, which candidate kind
 * (so that nothing else is built) and the kernel tree.  Paths are used as
 * given: the caller makes them absolute.
 *
 * Pure module: strings in, a strbuf out, no I/O.
 */
#ifndef BP_REPRO_H
#define BP_REPRO_H

#include <stddef.h>

#include "util/strbuf.h"

struct repro_run {
	const char *plan;	/* the plan file, or NULL */
	const char *arch;
	const char *base;
	const char *const *base_groups;	/* fragment files (or names) */
	size_t n_base_groups;
	const char *const *groups;
	size_t n_groups;
	const char *candidates;	/* "base", "each" or "all" */
	const char *accel;	/* "kvm", "tcg", or NULL: the default */
	const char *ksrc;	/* NULL: the default tree */
};

/* Append "bootproof run ..." for r to out, every word quoted as needed. */
void repro_command(const struct repro_run *r, struct strbuf *out);

/*
 * Append s as one word for a POSIX shell: as it is when it is made only of
 * characters no shell treats specially ([A-Za-z0-9] and -_./=:,+@%), else
 * in single quotes (a ' inside becomes '\'').  An empty s becomes ''.
 */
void repro_quote(struct strbuf *out, const char *s);

#endif
