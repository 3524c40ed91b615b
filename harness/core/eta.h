/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * eta: how long the rest of a matrix run will take, from what the build
 * cache measured.  Pure: the remaining steps and the measured times in,
 * seconds out.
 *
 * A remaining candidate costs a build and a boot.  A build the cache
 * holds costs nothing.  Another one costs, when it changes the options
 * that recompile every object (core/buildorder) or is the first of its
 * arch, the longest build the cache measured for that tree and arch (a
 * from-clean build, or near one); otherwise the median of them
 * (incremental and from-clean builds together: an overestimate for a
 * small change).  A boot costs the median of the run's boots so far, or
 * the default until one is measured.  The method is said with the
 * figure: it is an estimate, never a promise.
 */
#ifndef BP_ETA_H
#define BP_ETA_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

struct eta_step {
	bool cached;	/* its .config is built already */
	bool full;	/* recompiles every object (or first of its arch) */
	bool boots;	/* it will boot (a build that fails does not, but
			 * that is not known before) */
};

/* Seconds left, or a negative number when no build time is known yet and
 * some build is not cached.  builds: wall seconds of the cached builds of
 * this tree and arch; boots: of this run's boots.  When method is not
 * NULL, one line saying how the figure was made is appended. */
double eta_seconds(const struct eta_step *steps, size_t n,
		   const double *builds, size_t n_builds, const double *boots,
		   size_t n_boots, double default_boot, struct strbuf *method);

/* "1 h 05 min", "12 min", "40 s" */
void eta_format(double seconds, struct strbuf *sb);

/* The median of v[0..n) (v is sorted in place); 0 for n == 0. */
double eta_median(double *v, size_t n);

#endif
