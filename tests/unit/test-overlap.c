// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/overlap: the --overlap rule (asked for, then auto from the host's
 * CPUs, make's -j, a distcc farm, LAVA), its record, the wall-vs-stages
 * line of the summary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/overlap.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static void test_parse(void **state)
{
	enum overlap_mode m = OVERLAP_OFF;

	(void)state;
	assert_int_equal(overlap_mode_parse("auto", &m), 0);
	assert_int_equal(m, OVERLAP_AUTO);
	assert_int_equal(overlap_mode_parse("on", &m), 0);
	assert_int_equal(m, OVERLAP_ON);
	assert_int_equal(overlap_mode_parse("off", &m), 0);
	assert_int_equal(m, OVERLAP_OFF);
	assert_int_equal(overlap_mode_parse("yes", &m), -EINVAL);
	assert_int_equal(overlap_mode_parse("", &m), -EINVAL);
	assert_int_equal(overlap_mode_parse(NULL, &m), -EINVAL);
	assert_int_equal(m, OVERLAP_OFF);
	assert_string_equal(overlap_mode_name(OVERLAP_AUTO), "auto");
	assert_string_equal(overlap_mode_name(OVERLAP_OFF), "off");
}

static void test_rule(void **state)
{
	static const struct {
		enum overlap_mode mode;
		struct overlap_host h;
		bool want;
		const char *why;	/* a part of the reason */
	} cases[] = {
		/* asked for wins over the host */
		{ OVERLAP_ON, { 1, 0, 0, true }, true, "--overlap on" },
		{ OVERLAP_ON, { 2, 0, 0, false }, true, "--overlap on" },
		{ OVERLAP_OFF, { 64, 0, 0, true }, false, "--overlap off" },
		/* auto */
		{ OVERLAP_AUTO, { 2, 0, 0, true }, false, "2 CPUs, all of them make's (-j2)" },
		{ OVERLAP_AUTO, { 3, 3, 0, true }, false, "3 CPUs, all of them make's (-j3)" },
		{ OVERLAP_AUTO, { 2, 4, 0, true }, false, "(-j4)" },
		{ OVERLAP_AUTO, { 4, 0, 0, true }, true, "4 CPUs" },
		{ OVERLAP_AUTO, { 16, 16, 0, true }, true, "16 CPUs" },
		{ OVERLAP_AUTO, { 2, 1, 0, true }, true, "make -j1 leaves 1" },
		{ OVERLAP_AUTO, { 3, 1, 0, true }, true, "make -j1 leaves 2" },
		{ OVERLAP_AUTO, { 1, 0, 0, true }, false, "one CPU" },
		{ OVERLAP_AUTO, { 0, 0, 0, true }, false, "one CPU" },
		{ OVERLAP_AUTO, { 2, 0, 24, true }, true, "distcc" },
		{ OVERLAP_AUTO, { 1, 0, 24, true }, false, "one CPU" },
		{ OVERLAP_AUTO, { 16, 0, 0, false }, false, "LAVA" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		bool got = overlap_decide(cases[i].mode, &cases[i].h, &why);

		if (got != cases[i].want || !strstr(why.buf, cases[i].why))
			fail_msg("case %zu: %d '%s', want %d with '%s'", i, got,
				 why.buf, cases[i].want, cases[i].why);
		/* the reason is optional */
		assert_int_equal(overlap_decide(cases[i].mode, &cases[i].h,
						NULL), got);
	}
}

static void test_record(void **state)
{
	const struct overlap_host h = { 4, 3, 0, true };
	json_object *j = overlap_record(OVERLAP_AUTO, &h, true, "make -j3 ...");

	(void)state;
	assert_string_equal(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
			    "{\"mode\":\"auto\",\"used\":true,\"reason\":"
			    "\"make -j3 ...\",\"cpus\":4,\"jobs\":3}");
	json_object_put(j);
}

static void test_times(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	(void)state;
	overlap_times_format(720, 1080, &sb);
	assert_string_equal(sb.buf, "12 min of wall time for 18 min of stages "
			    "(1.50x)");
	strbuf_reset(&sb);
	overlap_times_format(40, 0, &sb);
	assert_string_equal(sb.buf, "");
	overlap_times_format(0, 10, &sb);
	assert_string_equal(sb.buf, "");
}

/* run.json's "times" from the records: configs, builds not reused and
 * first boots summed; the builds from clean on their own; the line. */
static void test_times_record(void **state)
{
	static const char boots[] =
		"[{\"config\":{\"seconds\":20},\"build\":{\"result\":\"pass\","
		"\"seconds\":400,\"measure\":{\"from_clean\":true}},"
		"\"elapsed_s\":10},"
		"{\"config\":{\"seconds\":25},\"build\":{\"result\":\"pass\","
		"\"seconds\":350,\"measure\":{\"from_clean\":true}},"
		"\"elapsed_s\":8.5},"
		/* reused: its build took no time in this run */
		"{\"config\":{\"seconds\":1},\"build\":{\"result\":\"reused\","
		"\"reused\":true,\"seconds\":900},\"elapsed_s\":7},"
		/* an incremental build; a failed one counts its time */
		"{\"build\":{\"result\":\"pass\",\"seconds\":60,"
		"\"measure\":{\"from_clean\":false}}},"
		"{\"build\":{\"result\":\"fail\",\"seconds\":5}},"
		/* skipped: nothing */
		"{\"build\":{\"result\":\"skip\",\"seconds\":3}}]";
	json_object *b = json_tokener_parse(boots), *t;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	double v;

	(void)state;
	assert_non_null(b);
	t = overlap_times_record(b, 600);
	assert_true(jsonx_num(t, "stages_s", &v));
	assert_float_equal(v, 20 + 400 + 10 + 25 + 350 + 8.5 + 1 + 7 + 60 + 5,
			   1e-9);
	assert_true(jsonx_num(t, "from_clean_builds_s", &v));
	assert_float_equal(v, 750, 1e-9);
	assert_int_equal(json_object_get_int(jsonx_get(t, "from_clean_builds")), 2);
	overlap_times_line(t, &sb);
	assert_string_equal(sb.buf, "the run: 10 min of wall time for 15 min "
				    "of stages (1.48x); the 2 builds from "
				    "clean alone took 13 min");
	json_object_put(t);
	strbuf_setlen(&sb, 0);
	overlap_times_line(NULL, &sb);
	assert_string_equal(sb.buf, "");
	t = overlap_times_record(NULL, 5);
	overlap_times_line(t, &sb);
	assert_string_equal(sb.buf, "");	/* no stage */
	json_object_put(t);
	json_object_put(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_times_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
