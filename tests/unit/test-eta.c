// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "core/eta.h"
#include "util/strbuf.h"

static void test_format(void **state)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
		{ -3, "0 s" },	   { 0, "0 s" },	  { 59.4, "59 s" },
		{ 59.6, "1 min" }, { 89, "1 min" },	  { 90, "2 min" },
		{ 3569, "59 min" }, { 3570, "1 h 00 min" }, { 3900, "1 h 05 min" },
		{ 7 * 3600 + 59 * 60 + 40, "8 h 00 min" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		eta_format(cases[i].s, &sb);
		assert_string_equal(sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

static void test_median(void **state)
{
	double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };

	(void)state;
	assert_true(eta_median(a, 3) == 3);
	assert_true(eta_median(b, 4) == 2.5);
	assert_true(eta_median(NULL, 0) == 0);
}

/* A seed-like rest of a run: the base cached, two incremental builds, a
 * sanitizer group that recompiles everything, all booting. */
static void test_estimate(void **state)
{
	const struct eta_step steps[] = {
		{ .cached = true, .boots = true },
		{ .boots = true },
		{ .boots = true },
		{ .full = true, .boots = true },
	};
	const double builds[] = { 1200, 100, 300 };	/* median 300, max 1200 */
	const double boots[] = { 50, 70 };		/* median 60 */
	struct strbuf m = STRBUF_INIT;
	double t;

	(void)state;
	t = eta_seconds(steps, 4, builds, 3, boots, 2, 90, &m);
	assert_true(t == 2 * 300 + 1200 + 4 * 60);
	assert_non_null(strstr(m.buf, "1 full build at 20 min"));
	assert_non_null(strstr(m.buf, "2 incremental at 5 min"));
	assert_non_null(strstr(m.buf, "of 3 cached builds"));
	assert_non_null(strstr(m.buf, "1 cached, 4 boots at 1 min"));
	assert_non_null(strstr(m.buf, "median of this run's boots"));
	strbuf_release(&m);

	/* no boot measured: the default */
	t = eta_seconds(steps, 4, builds, 3, NULL, 0, 90, NULL);
	assert_true(t == 2 * 300 + 1200 + 4 * 90);
}

static void test_no_history(void **state)
{
	const struct eta_step todo[] = { { .full = true, .boots = true } };
	const struct eta_step done[] = { { .cached = true, .boots = true } };
	struct strbuf m = STRBUF_INIT;

	(void)state;
	/* a build to do and nothing measured: no figure */
	assert_true(eta_seconds(todo, 1, NULL, 0, NULL, 0, 90, &m) < 0);
	assert_non_null(strstr(m.buf, "no estimate: 1 build to do"));
	strbuf_release(&m);
	/* everything cached: only the boot */
	assert_true(eta_seconds(done, 1, NULL, 0, NULL, 0, 90, NULL) == 90);
	/* nothing left */
	assert_true(eta_seconds(NULL, 0, NULL, 0, NULL, 0, 90, NULL) == 0);
}

/* A fresh machine: the options of what is to build, over the CPUs. */
static void test_guess(void **state)
{
	const struct eta_step steps[] = {
		{ .options_on = 770, .full = true, .boots = true },
		{ .options_on = 1000, .boots = true },
		{ .options_on = 500, .cached = true, .boots = true },
	};
	const struct eta_step unknown[] = { { .boots = true } };
	const double boots[] = { 20, 40, 30 };
	struct strbuf m = STRBUF_INIT;
	double t;

	(void)state;
	t = eta_guess_seconds(steps, 3, 2, NULL, 0, 60, &m);
	assert_true(t > 1770 * ETA_CPU_S_PER_OPTION / 2 + 3 * 60 - 0.01 &&
		    t < 1770 * ETA_CPU_S_PER_OPTION / 2 + 3 * 60 + 0.01);
	assert_non_null(strstr(m.buf, "2 builds guessed at 10 min (1770 "
				      "options set, 0.68 s of CPU each, on 2 "
				      "CPUs"));
	assert_non_null(strstr(m.buf, "3 boots at 1 min (default"));
	strbuf_release(&m);
	/* boots measured: their median; jobs 0 counts as one CPU */
	t = eta_guess_seconds(steps, 1, 0, boots, 3, 60, NULL);
	assert_true(t > 770 * ETA_CPU_S_PER_OPTION + 30 - 0.01 &&
		    t < 770 * ETA_CPU_S_PER_OPTION + 30 + 0.01);
	/* a build whose options are unknown: no figure */
	assert_true(eta_guess_seconds(unknown, 1, 2, NULL, 0, 60, &m) < 0);
	assert_non_null(strstr(m.buf, "no estimate"));
	strbuf_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_no_history),
		cmocka_unit_test(test_guess),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
