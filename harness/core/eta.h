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
	unsigned options_on; /* its .config's options set y or m (0: unknown) */
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

/*
 * Before any build of a tree and arch is measured (a fresh machine), a
 * guess: a build costs, from clean, ETA_CPU_S_PER_OPTION seconds of CPU for
 * each option its .config sets, spread over jobs CPUs.  Measured on this
 * project's machines (2 cores, gcc 12, Linux 6.12.118, ccache in depend
 * mode, cold) as make's wall time times its -j: the demo's x86_64-all,
 * 682 options, 227 s at -j2, and i386-all, 634 options, 221 s (run
 * 20261207-154956-demo-a95794).  Every build
 * is counted as from clean (an upper bound for incremental ones).  Returns
 * seconds, or a negative number when a build to do has options_on 0; a
 * line saying how is appended to method when not NULL.
 */
#define ETA_CPU_S_PER_OPTION 0.68
double eta_guess_seconds(const struct eta_step *steps, size_t n,
			 unsigned jobs, const double *boots, size_t n_boots,
			 double default_boot, struct strbuf *method);

/* "1 h 05 min", "12 min", "40 s" */
void eta_format(double seconds, struct strbuf *sb);

/* The median of v[0..n) (v is sorted in place); 0 for n == 0. */
double eta_median(double *v, size_t n);

#endif
