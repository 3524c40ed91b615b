/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost: the arithmetic of what an option group costs against its base
 * (pure: numbers in, numbers out; docs/cost.md says what each figure
 * means).
 *
 *  - samples: the median of a few measures (boot times), their spread
 *    (max - min), and a difference that is "none" when it is inside the
 *    spread of either side;
 *  - the CPU time of a build from clean, measured when both builds were
 *    from clean without a ccache hit, else estimated from the base's CPU
 *    per object, with the error that estimate carries;
 *  - config: which options the group turned on directly and which came
 *    with them.
 */
#ifndef BP_COST_H
#define BP_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/kconfig.h"

/* Samples kept per figure: more boots than this are not asked for. */
#define COST_MAX_SAMPLES 64

/* A measured figure: n samples (0: none). */
struct cost_sample {
	size_t n;
	double median, min, max;
};

/* The samples of v (n values, NaN ones skipped, at most
 * COST_MAX_SAMPLES used): median (the mean of the middle two for an even
 * count), min, max.  n 0 gives a zero struct. */
void cost_sample_of(const double *v, size_t n, struct cost_sample *ret);

/* max - min (0 for one sample or none). */
double cost_spread(const struct cost_sample *s);

enum cost_change {
	COST_NONE,	/* |delta| within the spread */
	COST_MORE,	/* the group's is larger beyond the spread */
	COST_LESS,	/* smaller beyond the spread */
	COST_UNKNOWN,	/* a side has no sample */
};

/* "none", "more", "less", "unknown". */
const char *cost_change_name(enum cost_change c);

/*
 * The group's figure g against the base's b: *ret_delta = median(g) -
 * median(b), *ret_spread = the larger of the two spreads; NONE when
 * |delta| <= spread.  With one sample a side the spread is 0 (nothing
 * says how noisy it is: a caller says so, see cost_spread_known).
 */
enum cost_change cost_compare(const struct cost_sample *b,
			      const struct cost_sample *g, double *ret_delta,
			      double *ret_spread);

/* Both sides have at least two samples, so a spread was seen. */
bool cost_spread_known(const struct cost_sample *b,
		       const struct cost_sample *g);

/* One build's measure, as buildmeasure recorded it (-1: unknown). */
struct cost_build {
	long objects;
	long objects_compiled;
	double cpu_seconds;	/* < 0: unknown */
	bool from_clean;
	long ccache_hits;	/* -1: no ccache log */
	long ccache_misses;	/* -1: no ccache log */
	bool after_base;	/* the tree held the base before it */
};

/*
 * A build is a from-clean measure when it started from an empty O= tree,
 * or from a kept tree it recompiled all but a few of its objects in
 * (objects(b) - objects_compiled(b) <= COST_KEPT_MAX_PERCENT % of
 * objects(b): a tree left by an unlike config, where a change in a core
 * header or the compiler flags made nearly everything stale), with its
 * objects and CPU known.  ccache may still have hit (a cold cache hits
 * when one build compiles the same thing twice, 14 times in 1454 for the
 * demo base): *ret_cpu is its CPU with each hit and each kept object
 * counted at the build's CPU per miss (without a ccache log: per object
 * compiled), and *ret_error that correction (0 when nothing was
 * priced).  A kept tree's host tools (scripts/, objtool) were not
 * rebuilt and are not priced.  False when it is no such measure (or
 * something to price without a miss to price it by).
 */
#define COST_KEPT_MAX_PERCENT 10
bool cost_build_clean(const struct cost_build *b, double *ret_cpu,
		      double *ret_error);

enum cost_cpu_how {
	COST_CPU_MEASURED,	/* both from an empty tree: delta of the two */
	COST_CPU_ESTIMATED,	/* the base's CPU per object x the objects */
	COST_CPU_UNKNOWN,	/* no from-clean base to go by */
};

/* "measured", "estimated", "unknown". */
const char *cost_cpu_how_name(enum cost_cpu_how h);

struct cost_cpu {
	enum cost_cpu_how how;
	double base, group;	/* from-clean CPU seconds of each */
	double delta;		/* group - base */
	/* ESTIMATED: the error of delta, from the CPU per object the
	 * group's own incremental build after the base measured; < 0 when
	 * that build cannot tell (not after the base, ccache hits, nothing
	 * compiled). */
	double error;
	double rate;		/* ESTIMATED: the base's seconds per object */
	bool difference;	/* delta: group - base, both measured */
};

/*
 * The from-clean CPU time of base and group, and its difference:
 * MEASURED when both builds were from an empty tree without a ccache
 * hit; ESTIMATED when the base's was a from-clean measure
 * (cost_build_clean): with the group's from an empty tree too, the
 * difference of the two (hits and kept objects priced; error the two
 * corrections; difference set),
 * else group = base + (objects(g) - objects(b)) x rate, rate = cpu(b) /
 * objects(b), and error = |objects(g) - objects(b)| x (|rate - rate_i| +
 * correction(b) / objects(b)) with rate_i the CPU per object the group's
 * incremental build after the base compiled (its objects compiled less
 * its ccache hits); error < 0 when that build cannot tell.  Else
 * UNKNOWN.
 */
void cost_cpu_of(const struct cost_build *b, const struct cost_build *g,
		 struct cost_cpu *ret);

/* Why cost_cpu_of says UNKNOWN for these builds (a static sentence), or
 * NULL when it does not. */
const char *cost_cpu_unknown_why(const struct cost_build *b,
				 const struct cost_build *g);

/* Options a group's final .config has against the base's. */
struct cost_config {
	size_t on;	/* set (y, m or a value) in the group's, not the base's */
	size_t direct;	/* of on: requested by the group's fragment */
	size_t implied;	/* of on: selected or defaulted by those */
	size_t off;	/* set in the base's, not in the group's */
	size_t changed;	/* set in both, another value */
};

/*
 * Compare the final .configs (an option set to n counts as not set);
 * requested are the names the group's fragment asked for (without
 * CONFIG_).  Never fails.
 */
void cost_config_of(const struct kconfig *base, const struct kconfig *group,
		    const char *const *requested, size_t n_requested,
		    struct cost_config *ret);

#endif
