// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/eta.h"

#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/xalloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double eta_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* median of a copy, so the caller's order stays */
static double median_of(const double *v, size_t n)
{
	double *c, m;

	if (!n)
		return 0;
	c = xrealloc(NULL, n * sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	m = eta_median(c, n);
	free(c);
	return m;
}

/* The end of a method line: "1 min (median of this run's boots)". */
static void boot_method(struct strbuf *method, double boot, size_t n_boots)
{
	eta_format(boot, method);
	strbuf_addf(method, " (%s)", n_boots ? "median of this run's boots"
					     : "default until one is measured");
}

double eta_seconds(const struct eta_step *steps, size_t n,
		   const double *builds, size_t n_builds, const double *boots,
		   size_t n_boots, double default_boot, struct strbuf *method)
{
	double full = 0, incr = median_of(builds, n_builds);
	double boot = n_boots ? median_of(boots, n_boots) : default_boot;
	double t = 0;
	size_t n_full = 0, n_incr = 0, n_cached = 0, n_boot = 0;

	for (size_t i = 0; i < n_builds; i++)
		if (builds[i] > full)
			full = builds[i];
	for (size_t i = 0; i < n; i++) {
		if (steps[i].cached)
			n_cached++;
		else if (steps[i].full)
			n_full++;
		else
			n_incr++;
		if (steps[i].boots)
			n_boot++;
	}
	if ((n_full || n_incr) && !n_builds) {
		if (method)
			strbuf_addf(method, "no estimate: %zu build%s to do and "
				    "no build of this tree and arch measured yet",
				    n_full + n_incr, n_full + n_incr == 1 ? "" : "s");
		return -1;
	}
	t = (double)n_full * full + (double)n_incr * incr + (double)n_boot * boot;
	if (method) {
		_cleanup_strbuf_ struct strbuf f = STRBUF_INIT;

		strbuf_addf(method, "%zu full build%s at ", n_full,
			    n_full == 1 ? "" : "s");
		eta_format(full, &f);
		strbuf_addf(method, "%s, %zu incremental at ", f.buf, n_incr);
		strbuf_setlen(&f, 0);
		eta_format(incr, &f);
		strbuf_addf(method, "%s (the longest and the median of %zu "
			    "cached build%s), %zu cached, %zu boot%s at ",
			    f.buf, n_builds, n_builds == 1 ? "" : "s", n_cached,
			    n_boot, n_boot == 1 ? "" : "s");
		boot_method(method, boot, n_boots);
	}
	return t;
}

double eta_guess_seconds(const struct eta_step *steps, size_t n,
			 unsigned jobs, const double *boots, size_t n_boots,
			 double default_boot, struct strbuf *method)
{
	double boot = n_boots ? median_of(boots, n_boots) : default_boot;
	double cpu = 0, t;
	size_t n_build = 0, n_boot = 0;
	unsigned long options = 0;

	if (!jobs)
		jobs = 1;
	for (size_t i = 0; i < n; i++) {
		if (steps[i].boots)
			n_boot++;
		if (steps[i].cached)
			continue;
		if (!steps[i].options_on) {
			if (method)
				strbuf_addstr(method, "no estimate: a build to "
					      "do whose options are not known");
			return -1;
		}
		n_build++;
		options += steps[i].options_on;
		cpu += ETA_CPU_S_PER_OPTION * steps[i].options_on;
	}
	t = cpu / jobs + (double)n_boot * boot;
	if (method) {
		_cleanup_strbuf_ struct strbuf f = STRBUF_INIT;

		eta_format(cpu / jobs, &f);
		strbuf_addf(method, "%zu build%s guessed at %s (%lu options set, "
			    "%.2f s of CPU each, on %u CPU%s; nothing of this "
			    "tree and arch built here yet), %zu boot%s at ",
			    n_build, n_build == 1 ? "" : "s", f.buf, options,
			    ETA_CPU_S_PER_OPTION, jobs, jobs == 1 ? "" : "s",
			    n_boot, n_boot == 1 ? "" : "s");
		boot_method(method, boot, n_boots);
	}
	return t;
}

void eta_format(double seconds, struct strbuf *sb)
{
	long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
	long min = (s + 30) / 60;

	if (s < 60)
		strbuf_addf(sb, "%ld s", s);
	else if (min < 60)
		strbuf_addf(sb, "%ld min", min);
	else
		strbuf_addf(sb, "%ld h %02ld min", min / 60, min % 60);
}
