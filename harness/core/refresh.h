/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * refresh: does a new version of a defconfig ("a refresh") give the same
 * final .config as the old one, and what does each of its changed lines do?
 *
 * In: the two defconfig files and the two final .config files Kconfig made
 * from them (struct kconfig sets, core/kconfig), then the answers of the
 * tree's own Kconfig to "why" queries (core/explain) about the symbols
 * involved, asked once against each final .config.  Out:
 *
 *  - every option whose final value differs (an absent bool/tristate is n,
 *    so "# CONFIG_X is not set" against no line at all is no difference);
 *  - every line that differs between the two defconfigs (lines compared by
 *    symbol and value as Kconfig reads them, so "CONFIG_X=n" equals "# CONFIG_X
 *    is not set"): added, removed, changed value, or only moved (the same
 *    line at another position: the lines kept in place are the longest
 *    common subsequence of the two files' symbol orders);
 *  - for each such line: no effect, with the cause and the symbols
 *    responsible (the default gives the same value, selected by X, implied
 *    by X, depends on something off, no prompt, the choice picks the same
 *    member, symbol gone from the tree, only moved), or changes the result,
 *    with the options it changes: its own and the knock-on ones, found by
 *    following the rules of each changed option (its defaults, depends,
 *    selects, implies, choice) to changed options until a changed line is
 *    reached.
 *
 * Use: refresh_compare(), then refresh_queries() for the helper's stdin,
 * then refresh_classify() with its answers (NULL when the helper failed:
 * lines are then only split by whether their own symbol changed).
 *
 * Pure module: no I/O, never logs; allocation failure aborts (util/xalloc).
 */
#ifndef BP_REFRESH_H
#define BP_REFRESH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/explain.h"
#include "core/kconfig.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

/* How a line differs between the old and the new defconfig. */
enum refresh_change {
	REFRESH_ADDED,		/* only in the new file */
	REFRESH_REMOVED,	/* only in the old file */
	REFRESH_CHANGED,	/* in both, another value */
	REFRESH_MOVED,		/* in both, same value, another position */
	REFRESH_CHANGE_MAX,
};
/* "added", "removed", "changed", "moved"; "?" out of range. */
const char *refresh_change_name(enum refresh_change c);

/* What a differing line does to the final .config, and why. */
enum refresh_cause {
	REFRESH_CAUSE_RESULT,	/* changes the result */
	REFRESH_CAUSE_MOVED,	/* no effect: only moved */
	REFRESH_CAUSE_GONE,	/* no effect: the tree has no such symbol */
	REFRESH_CAUSE_DEFAULT,	/* no effect: the default gives the value */
	REFRESH_CAUSE_SELECTED,	/* no effect: selected by others */
	REFRESH_CAUSE_IMPLIED,	/* no effect: implied by others */
	REFRESH_CAUSE_DEPENDS,	/* no effect: depends on something off */
	REFRESH_CAUSE_NOPROMPT,	/* no effect: no prompt, a line cannot set it */
	REFRESH_CAUSE_CHOICE,	/* no effect: the choice picks the same */
	REFRESH_CAUSE_UNEXPLAINED, /* no effect, Kconfig's rules say no why */
	REFRESH_CAUSE_MAX,
};
/*
 * Stable names for JSON: "changes result", "moved", "gone", "default",
 * "selected", "implied", "depends", "noprompt", "choice", "unexplained";
 * "?" out of range.
 */
const char *refresh_cause_name(enum refresh_cause c);

/* One option whose final value differs. */
struct refresh_diff {
	const char *name;
	/* The final definitions (owned by the final sets), NULL: absent. */
	const struct kconfig_option *old, *new;
	/* The differing lines that explain it (indexes into lines[]). */
	size_t *lines;
	size_t n_lines;
	/*
	 * A knock-on change: the changed option it follows (NULL when its
	 * own line changed, or when nothing explains it) and the rule of this
	 * option that names that one (EXPLAIN_RULE_DEFAULT, _SELECT, ...).
	 */
	const char *via;
	enum explain_rule_kind via_rule;
};

/* One line that differs between the two defconfigs. */
struct refresh_line {
	enum refresh_change change;
	const char *name;
	/* The lines (owned by the defconfig sets, with file:line), NULL when
	 * the file has none. */
	const struct kconfig_option *old, *new;
	enum refresh_cause cause;
	bool effect;		/* cause == REFRESH_CAUSE_RESULT */
	char *reason;		/* one line of text (owned) */
	/* The symbols the reason names: selectors, impliers, the failing
	 * terms of a dependency, the default's symbols (owned strings). */
	char **symbols;
	size_t n_symbols;
	/* effect: the options it changes, its own first when it changed
	 * (indexes into diffs[]). */
	size_t *changes;
	size_t n_changes;
};

struct refresh_result {
	struct refresh_diff *diffs;	/* in the new final's order, then
					 * those only the old final has */
	size_t n_diffs;
	struct refresh_line *lines;	/* in the old file's order, then the
					 * added ones in the new file's */
	size_t n_lines;
	size_t n_effect;	/* lines that change the result */
	size_t n_unexplained_diffs; /* diffs no line explains */
	bool classified;	/* refresh_classify() had the helper's answers */
};

/*
 * Compare: the differing options of old_final and new_final, the differing
 * lines of old_def and new_def.  Every line starts as REFRESH_CAUSE_
 * UNEXPLAINED (or MOVED) with no reason until refresh_classify().  The
 * result borrows from the four sets: free it first.  Returns 0, -EINVAL
 * when an argument is NULL.
 */
int refresh_compare(const struct kconfig *old_def, const struct kconfig *new_def,
		    const struct kconfig *old_final,
		    const struct kconfig *new_final,
		    struct refresh_result **ret);

/*
 * The "why" queries (explain_query_why) the classification needs, appended
 * to sb: each differing line's symbol (but the moved ones) and each
 * differing option, once, in that order.  Returns how many.
 */
size_t refresh_queries(const struct refresh_result *r, struct strbuf *sb);

/*
 * Classify every line with the helper's answers to refresh_queries(), run
 * against the old final .config (why_old) and the new one (why_new); a
 * symbol missing from an answer is treated as unexplained.  With NULL
 * answers, a line whose own symbol's value differs changes the result and
 * every other line (but a moved one) is unexplained; then no knock-on
 * change is found.  Sets reasons, causes, changes, diff attribution and the
 * counts.  Call once.
 */
void refresh_classify(struct refresh_result *r,
		      const struct explain_result *why_old,
		      const struct explain_result *why_new);

/* The value as a .config has it (y, m, n, "text", 123); NULL, an option
 * the .config does not have, is "n". */
void refresh_format_value(struct strbuf *sb, const struct kconfig_option *o);

void refresh_result_free(struct refresh_result *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct refresh_result *, refresh_result_free)
#define _cleanup_refresh_result_ _cleanup_(refresh_result_freep)

#endif
