// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/cost.h"
#include "core/kconfig.h"

static void test_sample(void **state)
{
	static const double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
	const double with_nan[] = { NAN, 5, NAN, 1 };
	double many[COST_MAX_SAMPLES + 10];
	struct cost_sample s;

	cost_sample_of(odd, 3, &s);
	assert_int_equal(s.n, 3);
	assert_true(s.median == 2 && s.min == 1 && s.max == 3);
	assert_true(cost_spread(&s) == 2);
	cost_sample_of(even, 4, &s);
	assert_true(s.median == 2.5 && s.min == 1 && s.max == 4);
	cost_sample_of(with_nan, 4, &s);
	assert_int_equal(s.n, 2);
	assert_true(s.median == 3);
	cost_sample_of(odd, 1, &s);
	assert_true(s.n == 1 && s.median == 3 && cost_spread(&s) == 0);
	cost_sample_of(NULL, 5, &s);
	assert_int_equal(s.n, 0);
	assert_true(cost_spread(&s) == 0);
	cost_sample_of(odd, 0, &s);
	assert_int_equal(s.n, 0);
	for (size_t i = 0; i < ELEMENTSOF(many); i++)
		many[i] = (double)i;
	cost_sample_of(many, ELEMENTSOF(many), &s);
	assert_int_equal(s.n, COST_MAX_SAMPLES);
	assert_true(s.max == COST_MAX_SAMPLES - 1);
}

static struct cost_sample sample(double lo, double med, double hi, size_t n)
{
	return (struct cost_sample){ .n = n, .median = med, .min = lo,
				     .max = hi };
}

static void test_compare(void **state)
{
	struct cost_sample b = sample(1.0, 1.2, 1.5, 3), g;
	struct cost_sample none = { 0 };
	double d, sp;

	/* inside the spread (0.5 of the base) */
	g = sample(1.3, 1.6, 1.7, 3);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_NONE);
	assert_true(fabs(d - 0.4) < 1e-9 && fabs(sp - 0.5) < 1e-9);
	/* exactly the spread is still none */
	g = sample(1.7, 1.7, 1.7, 3);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_NONE);
	/* beyond it, either way; the larger spread counts */
	g = sample(2.0, 2.5, 2.6, 3);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_MORE);
	assert_true(fabs(sp - 0.6) < 1e-9);
	g = sample(0.1, 0.2, 0.3, 3);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_LESS);
	assert_true(d < 0);
	/* a wide group spread swallows the difference */
	g = sample(0.5, 2.0, 3.0, 3);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_NONE);
	/* one boot each: spread 0, any difference counts, and it is not known */
	b = sample(1, 1, 1, 1);
	g = sample(1.1, 1.1, 1.1, 1);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_MORE);
	assert_false(cost_spread_known(&b, &g));
	g = sample(1, 1, 1, 1);
	assert_int_equal(cost_compare(&b, &g, &d, &sp), COST_NONE);
	/* no sample */
	assert_int_equal(cost_compare(&none, &g, &d, &sp), COST_UNKNOWN);
	assert_int_equal(cost_compare(&g, &none, &d, &sp), COST_UNKNOWN);
	assert_true(d == 0);
	b = sample(1, 1, 2, 2);
	g = sample(1, 1, 2, 2);
	assert_true(cost_spread_known(&b, &g));
	assert_string_equal(cost_change_name(COST_NONE), "none");
	assert_string_equal(cost_change_name(COST_MORE), "more");
	assert_string_equal(cost_change_name(COST_LESS), "less");
	assert_string_equal(cost_change_name(COST_UNKNOWN), "unknown");
	assert_string_equal(cost_change_name((enum cost_change)99), "?");
}

static void test_cpu(void **state)
{
	struct cost_build b = { .objects = 1000, .objects_compiled = 1000,
				.cpu_seconds = 500, .from_clean = true,
				.ccache_hits = 0, .ccache_misses = 1000 };
	struct cost_build g = { .objects = 1100, .objects_compiled = 120,
				.cpu_seconds = 72, .from_clean = false,
				.ccache_hits = 0, .ccache_misses = 120,
				.after_base = true };
	struct cost_cpu c;
	double v, e;

	/* estimated: 100 more objects at 0.5 s; the incremental build did
	 * 0.6 s per object, so the error is 100 x 0.1 */
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_ESTIMATED);
	assert_true(fabs(c.delta - 50) < 1e-9);
	assert_true(fabs(c.group - 550) < 1e-9);
	assert_true(fabs(c.rate - 0.5) < 1e-9);
	assert_true(fabs(c.error - 10) < 1e-9);
	/* fewer objects: a negative delta, the error by the absolute count */
	g.objects = 900;
	cost_cpu_of(&b, &g, &c);
	assert_true(fabs(c.delta + 50) < 1e-9 && fabs(c.error - 10) < 1e-9);
	g.objects = 1100;
	/* the incremental's hits are not compiled objects: 72 s / 96 */
	g.ccache_hits = 24;
	cost_cpu_of(&b, &g, &c);
	assert_true(fabs(c.error - 100 * (0.75 - 0.5)) < 1e-9);
	/* without ccache (no log) every object compiled counts */
	g.ccache_hits = -1;
	cost_cpu_of(&b, &g, &c);
	assert_true(fabs(c.error - 10) < 1e-9);
	g.ccache_hits = 0;
	/* the incremental cannot tell: not after the base, nothing compiled */
	g.after_base = false;
	cost_cpu_of(&b, &g, &c);
	assert_true(c.how == COST_CPU_ESTIMATED && c.error < 0);
	g.after_base = true;
	g.objects_compiled = 0;
	cost_cpu_of(&b, &g, &c);
	assert_true(c.error < 0);
	g.objects_compiled = 120;
	/* both from clean without hits: measured */
	g.from_clean = true;
	g.cpu_seconds = 560;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_MEASURED);
	assert_true(fabs(c.delta - 60) < 1e-9 && c.error == 0);
	/* a from-clean group with ccache hits: its hits priced at its CPU
	 * per miss, the correction is the error */
	g.ccache_hits = 7;
	g.ccache_misses = 1120;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_ESTIMATED);
	assert_true(fabs(c.group - (560 + 3.5)) < 1e-9);
	assert_true(fabs(c.error - 3.5) < 1e-9);
	assert_true(cost_build_clean(&g, &v, &e) && fabs(e - 3.5) < 1e-9);
	/* without ccache (no log) a clean build is clean */
	g.ccache_hits = -1;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_MEASURED);
	g.ccache_hits = 0;
	g.from_clean = false;
	g.cpu_seconds = 72;
	/* the base with hits (a cold cache hits on duplicates): priced */
	b.ccache_hits = 10;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_ESTIMATED);
	assert_true(fabs(c.base - 505) < 1e-9);
	assert_true(fabs(c.rate - 0.505) < 1e-9);
	assert_true(fabs(c.error - 100 * (fabs(0.505 - 0.6) + 5.0 / 1000)) < 1e-9);
	/* hits and no miss: nothing to price them by */
	b.ccache_misses = 0;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_UNKNOWN);
	assert_non_null(strstr(cost_cpu_unknown_why(&b, &g), "no ccache miss"));
	b.ccache_hits = 0;
	b.ccache_misses = 1000;
	/* the base not clean with a fifth of its objects kept, or without a
	 * count of what it compiled, or unknown objects: unknown */
	b.from_clean = false;
	b.objects_compiled = 800;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_UNKNOWN);
	assert_non_null(strstr(cost_cpu_unknown_why(&b, &g),
			       "kept more than a tenth"));
	b.objects_compiled = -1;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_UNKNOWN);
	assert_non_null(strstr(cost_cpu_unknown_why(&b, &g),
			       "no count of the objects it compiled"));
	b.objects_compiled = 1000;
	b.from_clean = true;
	b.objects = -1;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_UNKNOWN);
	assert_non_null(strstr(cost_cpu_unknown_why(&b, &g), "no count"));
	b.objects = 1000;
	g.objects = -1;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_UNKNOWN);
	assert_non_null(strstr(cost_cpu_unknown_why(&b, &g), "group's"));
	g.objects = 1100;
	assert_null(cost_cpu_unknown_why(&b, &g));
	assert_string_equal(cost_cpu_how_name(COST_CPU_MEASURED), "measured");
	assert_string_equal(cost_cpu_how_name(COST_CPU_ESTIMATED), "estimated");
	assert_string_equal(cost_cpu_how_name(COST_CPU_UNKNOWN), "unknown");
}

/* A kept O= tree where nearly every object was recompiled prices the
 * kept objects like ccache hits, at the build's CPU per miss. */
static void test_cpu_kept(void **state)
{
	struct cost_build b = { .objects = 1000, .objects_compiled = 950,
				.cpu_seconds = 500, .from_clean = false,
				.ccache_hits = 10, .ccache_misses = 1000 };
	struct cost_build g = b;
	struct cost_cpu c;
	double v, e;

	(void)state;
	/* 50 kept and 10 hits at 0.5 s per miss */
	assert_true(cost_build_clean(&b, &v, &e));
	assert_true(fabs(v - 530) < 1e-9 && fabs(e - 30) < 1e-9);
	/* every object recompiled, no hit: its CPU as it is */
	b.objects_compiled = 1000;
	b.ccache_hits = 0;
	assert_true(cost_build_clean(&b, &v, &e));
	assert_true(fabs(v - 500) < 1e-9 && e == 0);
	/* more compiled than the archive holds (objects left out of
	 * vmlinux): nothing kept */
	b.objects_compiled = 1010;
	assert_true(cost_build_clean(&b, &v, &e) && e == 0);
	/* the bound: a tenth kept still prices, one more does not */
	b.objects_compiled = 900;
	assert_true(cost_build_clean(&b, &v, &e) && fabs(e - 50) < 1e-9);
	b.objects_compiled = 899;
	assert_false(cost_build_clean(&b, &v, &e));
	/* without a ccache log: per object compiled */
	b.objects_compiled = 950;
	b.cpu_seconds = 475;
	b.ccache_hits = -1;
	b.ccache_misses = -1;
	assert_true(cost_build_clean(&b, &v, &e));
	assert_true(fabs(v - 500) < 1e-9 && fabs(e - 25) < 1e-9);
	/* a ccache log without a miss: nothing to price kept objects by */
	b.ccache_hits = 0;
	b.ccache_misses = 0;
	assert_false(cost_build_clean(&b, &v, &e));
	b.ccache_misses = 950;
	/* the base kept, the group from clean: estimated (never measured)
	 * as their difference, the corrections the error */
	b.cpu_seconds = 500;
	b.ccache_misses = 1000;
	g.objects = 1100;
	g.objects_compiled = 1100;
	g.from_clean = true;
	g.cpu_seconds = 560;
	g.ccache_hits = 10;
	g.ccache_misses = 1120;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_ESTIMATED);
	assert_true(c.difference);
	assert_true(fabs(c.base - 525) < 1e-9);
	assert_true(fabs(c.group - 565) < 1e-9);
	assert_true(fabs(c.delta - 40) < 1e-9 && fabs(c.error - 30) < 1e-9);
	assert_null(cost_cpu_unknown_why(&b, &g));
	/* both kept: the group is priced by the base's CPU per object (two
	 * kept trees' builds hours apart differ by the host) */
	g.from_clean = false;
	g.objects_compiled = 1080;
	cost_cpu_of(&b, &g, &c);
	assert_int_equal(c.how, COST_CPU_ESTIMATED);
	assert_false(c.difference);
	assert_true(fabs(c.rate - 0.525) < 1e-9);
	assert_true(fabs(c.delta - 100 * 0.525) < 1e-9);
}

static struct kconfig *parse(const char *text)
{
	struct kconfig *kc;

	assert_int_equal(kconfig_new(&kc), 0);
	assert_true(kconfig_parse(kc, "t", text, strlen(text), NULL) >= 0);
	return kc;
}

static void test_config(void **state)
{
	_cleanup_kconfig_ struct kconfig *b = parse(
		"CONFIG_A=y\n"
		"CONFIG_B=y\n"
		"# CONFIG_BPF_SYSCALL is not set\n"
		"CONFIG_NR=8\n"
		"CONFIG_GONE=y\n"
		"CONFIG_S=\"x\"\n");
	_cleanup_kconfig_ struct kconfig *g = parse(
		"CONFIG_A=y\n"
		"CONFIG_B=m\n"			/* changed */
		"CONFIG_BPF_SYSCALL=y\n"	/* on, requested */
		"CONFIG_BPF_JIT=y\n"		/* on, requested */
		"CONFIG_BPF=y\n"		/* on, selected */
		"CONFIG_NET_X=y\n"		/* on, defaulted */
		"CONFIG_NR=8\n"
		"# CONFIG_GONE is not set\n"	/* off */
		"CONFIG_S=\"x\"\n"
		"# CONFIG_NEVER is not set\n");
	static const char *const req[] = { "BPF_SYSCALL", "CONFIG_BPF_JIT",
					   "NOT_THERE" };
	struct cost_config c;

	cost_config_of(b, g, req, ELEMENTSOF(req), &c);
	assert_int_equal(c.on, 4);
	assert_int_equal(c.direct, 2);
	assert_int_equal(c.implied, 2);
	assert_int_equal(c.off, 1);
	assert_int_equal(c.changed, 1);
	/* the same config: nothing */
	cost_config_of(b, b, NULL, 0, &c);
	assert_true(!c.on && !c.direct && !c.implied && !c.off && !c.changed);
	/* against nothing: every set option is on, none requested */
	cost_config_of(NULL, g, NULL, 0, &c);
	assert_int_equal(c.on, 8);
	assert_int_equal(c.implied, 8);
	cost_config_of(b, NULL, NULL, 0, &c);
	assert_int_equal(c.off, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_cpu_kept),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
