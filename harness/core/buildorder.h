/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * buildorder: the order in which `bootproof run` builds its candidates.
 *
 * A matrix builds every candidate of an arch in one kept out-of-tree
 * directory (engine/buildstage), so Kbuild recompiles only the objects
 * whose command line or CONFIG_ dependencies changed since the previous
 * build.  Some options change the compiler's or objtool's command line
 * for every object (sanitizers, function tracing, debug info, stack
 * protection, mitigations...): switching them on or off recompiles the
 * whole tree.  This module orders the builds so that candidates sharing
 * those options are built one after another, and inside such a class
 * each next candidate is the one whose final .config is nearest to the
 * one just built.  Pure: final configs in, a permutation out.
 *
 * The order (per arch, in the plan's arch order):
 *  1. candidates are put in classes by the values of the options that
 *     change every object's command line (buildorder_global_option);
 *  2. the base candidate's class first (the first candidate's when the
 *     plan has no base), then the other classes, nearest first: fewest
 *     global options differing from the class just built, ties in plan
 *     order;
 *  3. inside a class, the base first (or the candidate nearest to the one
 *     built before), then greedily the nearest remaining: fewest symbols
 *     whose final value differs, ties in plan order;
 *  4. candidates without a final .config (their config stage failed; they
 *     build nothing) keep their plan order, after the others of the arch.
 */
#ifndef BP_BUILDORDER_H
#define BP_BUILDORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/kconfig.h"
#include "util/strbuf.h"

struct buildorder_item {
	const char *arch;		/* builds of one arch share a tree */
	const struct kconfig *config;	/* final .config; NULL: none */
	bool base;			/* the plan's base candidate */
};

/* Fill order[0..n) with the indexes of items in build order.  Always a
 * permutation of 0..n-1; deterministic for the same input. */
void buildorder_plan(const struct buildorder_item *items, size_t n,
		     size_t *order);

/* Whether CONFIG_<name> (without the prefix) changes the command line of
 * every object the kernel compiles, as far as the table in buildorder.c
 * knows. */
bool buildorder_global_option(const char *name);

/* The global options of config with their values, "UBSAN=y KASAN=n ...",
 * in config order, appended to sb: what puts a candidate in its class.
 * Options that are absent count as "n" and are not written. */
void buildorder_signature(const struct kconfig *config, struct strbuf *sb);

/* Symbols whose final values differ between a and b (one of them absent
 * counts when the other's value is not n). */
size_t buildorder_distance(const struct kconfig *a, const struct kconfig *b);

#endif
