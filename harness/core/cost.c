// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void cost_sample_of(const double *v, size_t n, struct cost_sample *ret)
{
	double s[COST_MAX_SAMPLES];
	size_t k = 0;

	*ret = (struct cost_sample){ 0 };
	for (size_t i = 0; v && i < n && k < COST_MAX_SAMPLES; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	if (!k)
		return;
	qsort(s, k, sizeof(*s), cmp_double);
	ret->n = k;
	ret->min = s[0];
	ret->max = s[k - 1];
	ret->median = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
}

double cost_spread(const struct cost_sample *s)
{
	return s->n ? s->max - s->min : 0;
}

static const char *const change_names[] = {
	[COST_NONE] = "none", [COST_MORE] = "more", [COST_LESS] = "less",
	[COST_UNKNOWN] = "unknown",
};

const char *cost_change_name(enum cost_change c)
{
	return ENUM_NAME(change_names, c, "?");
}

enum cost_change cost_compare(const struct cost_sample *b,
			      const struct cost_sample *g, double *ret_delta,
			      double *ret_spread)
{
	double d, sb = cost_spread(b), sg = cost_spread(g);
	double spread = sb > sg ? sb : sg;

	*ret_delta = 0;
	*ret_spread = spread;
	if (!b->n || !g->n)
		return COST_UNKNOWN;
	d = g->median - b->median;
	*ret_delta = d;
	if (fabs(d) <= spread)
		return COST_NONE;
	return d > 0 ? COST_MORE : COST_LESS;
}

bool cost_spread_known(const struct cost_sample *b,
		       const struct cost_sample *g)
{
	return b->n >= 2 && g->n >= 2;
}

bool cost_build_clean(const struct cost_build *b, double *ret_cpu,
		      double *ret_error)
{
	long kept = 0, priced;
	double per;

	if (b->cpu_seconds < 0 || b->objects <= 0)
		return false;
	if (!b->from_clean) {
		if (b->objects_compiled < 0)
			return false;
		kept = b->objects - b->objects_compiled;
		if (kept < 0)
			kept = 0;
		if (kept * 100 > b->objects * COST_KEPT_MAX_PERCENT)
			return false;
	}
	priced = kept + (b->ccache_hits > 0 ? b->ccache_hits : 0);
	per = 0;
	if (priced > 0) {
		if (b->ccache_misses > 0)
			per = b->cpu_seconds / (double)b->ccache_misses;
		else if (b->ccache_hits < 0 && b->objects_compiled > 0)
			per = b->cpu_seconds / (double)b->objects_compiled;
		else
			return false;
	}
	*ret_cpu = b->cpu_seconds + (double)priced * per;
	*ret_error = (double)priced * per;
	return true;
}

static const char *const how_names[] = {
	[COST_CPU_MEASURED] = "measured",
	[COST_CPU_ESTIMATED] = "estimated",
	[COST_CPU_UNKNOWN] = "unknown",
};

const char *cost_cpu_how_name(enum cost_cpu_how h)
{
	return ENUM_NAME(how_names, h, "?");
}

void cost_cpu_of(const struct cost_build *b, const struct cost_build *g,
		 struct cost_cpu *ret)
{
	long dobj, compiled;
	double cb, eb, cg, eg, rate_i;

	*ret = (struct cost_cpu){ .how = COST_CPU_UNKNOWN, .error = -1 };
	if (!cost_build_clean(b, &cb, &eb) || g->objects < 0)
		return;
	ret->base = cb;
	/* The group's own measure only from an empty tree: two kept trees'
	 * builds hours apart differ by the host as much as by the group. */
	if (g->from_clean && cost_build_clean(g, &cg, &eg)) {
		ret->difference = true;
		/* A kept tree's build is never a measure: its host tools
		 * were built before it. */
		ret->how = eb == 0 && eg == 0 && b->from_clean
				   ? COST_CPU_MEASURED
				   : COST_CPU_ESTIMATED;
		ret->group = cg;
		ret->delta = cg - cb;
		ret->error = eb + eg;
		return;
	}
	dobj = g->objects - b->objects;
	ret->how = COST_CPU_ESTIMATED;
	ret->rate = cb / (double)b->objects;
	ret->delta = (double)dobj * ret->rate;
	ret->group = cb + ret->delta;
	compiled = g->objects_compiled - (g->ccache_hits > 0 ? g->ccache_hits : 0);
	if (g->after_base && compiled > 0 &&
	    g->cpu_seconds >= 0) {
		rate_i = g->cpu_seconds / (double)compiled;
		ret->error = fabs((double)dobj) *
			     (fabs(ret->rate - rate_i) + eb / (double)b->objects);
	}
}

const char *cost_cpu_unknown_why(const struct cost_build *b,
				 const struct cost_build *g)
{
	double cpu, error;

	if (b->objects <= 0 || b->cpu_seconds < 0)
		return "the base's build has no count of its objects (built "
		       "before bootproof counted them, or the count failed)";
	if (!b->from_clean && b->objects_compiled < 0)
		return "the base's build was not from clean and has no count "
		       "of the objects it compiled";
	if (!b->from_clean &&
	    (b->objects - b->objects_compiled) * 100 >
		    b->objects * COST_KEPT_MAX_PERCENT)
		return "the base's build was not from clean: its O= tree kept "
		       "more than a tenth of its objects, too many to price; "
		       "build it once on an empty tree, e.g. with a fresh "
		       "BOOTPROOF_CACHE";
	if (!cost_build_clean(b, &cpu, &error))
		return "the base's build had ccache hits or kept objects but "
		       "no ccache miss: nothing to price them by";
	if (g->objects < 0)
		return "the group's build has no count of its objects";
	return NULL;
}

static bool is_set(const struct kconfig_option *o)
{
	return o && o->kind != KCONFIG_NO;
}

static bool requested_has(const char *name, const char *const *req, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *r = req[i];

		if (!strncmp(r, "CONFIG_", 7))
			r += 7;
		if (!strcmp(r, name))
			return true;
	}
	return false;
}

void cost_config_of(const struct kconfig *base, const struct kconfig *group,
		    const char *const *requested, size_t n_requested,
		    struct cost_config *ret)
{
	*ret = (struct cost_config){ 0 };
	for (size_t i = 0; group && i < kconfig_count(group); i++) {
		const struct kconfig_option *g = kconfig_at(group, i);
		const struct kconfig_option *b = base ? kconfig_find(base, g->name)
						      : NULL;

		if (!is_set(g))
			continue;
		if (!is_set(b)) {
			ret->on++;
			if (requested_has(g->name, requested, n_requested))
				ret->direct++;
			else
				ret->implied++;
		} else if (!kconfig_value_equal(b, g)) {
			ret->changed++;
		}
	}
	for (size_t i = 0; base && i < kconfig_count(base); i++) {
		const struct kconfig_option *b = kconfig_at(base, i);

		if (is_set(b) && !is_set(group ? kconfig_find(group, b->name)
					       : NULL))
			ret->off++;
	}
}
