// SPDX-License-Identifier: GPL-2.0-or-later
/* core/timeline: phases begun and ended at given times, their JSON and
 * the text `bootproof boot --verbose` prints of it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/timeline.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static void test_phases(void **state)
{
	struct timeline tl;
	json_object *j, *p;
	double d;

	timeline_init(&tl, 1000);
	assert_null(timeline_open(&tl));
	timeline_begin(&tl, "stage", 1100);
	timeline_begin(&tl, "start", 1350);
	assert_string_equal(timeline_open(&tl), "start");
	timeline_begin(&tl, "agent", 2000);
	/* learnt at its end: the agent's time was the boot scenario's */
	timeline_rename(&tl, "scenario boot");
	timeline_begin(&tl, "agent", 2500);
	/* a clock read before the phase began does not make it negative */
	timeline_begin(&tl, "power-off", 2400);
	timeline_end(&tl, 4000);
	assert_null(timeline_open(&tl));
	timeline_end(&tl, 5000);	/* nothing open: no change */
	assert_int_equal(tl.n, 5);
	assert_int_equal(timeline_ms(&tl, "stage"), 250);
	assert_int_equal(timeline_ms(&tl, "scenario boot"), 500);
	assert_int_equal(timeline_ms(&tl, "agent"), 0);
	assert_int_equal(timeline_ms(&tl, "power-off"), 1500);
	assert_int_equal(timeline_ms(&tl, "nothing"), 0);

	j = timeline_json(&tl);
	assert_int_equal(jsonx_len(j, "phases"), 5);
	p = jsonx_at(j, "phases", 0);
	assert_string_equal(jsonx_str(p, "phase"), "stage");
	assert_string_equal(jsonx_text(p, "start_s"), "0.100");
	assert_string_equal(jsonx_text(p, "seconds"), "0.250");
	p = jsonx_at(j, "phases", 2);
	assert_string_equal(jsonx_str(p, "phase"), "scenario boot");
	assert_true(jsonx_num(j, "total_s", &d));
	assert_string_equal(jsonx_text(j, "total_s"), "3.000");
	assert_string_equal(jsonx_text(j, "dropped"), "0");
	json_object_put(j);
}

static void test_open(void **state)
{
	struct timeline tl;
	json_object *j;
	char longname[100];

	timeline_init(&tl, 0);
	j = timeline_json(&tl);
	assert_int_equal(jsonx_len(j, "phases"), 0);
	assert_string_equal(jsonx_text(j, "total_s"), "0.000");
	json_object_put(j);

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	timeline_begin(&tl, longname, 10);
	assert_int_equal(strlen(timeline_open(&tl)), TIMELINE_NAME_MAX - 1);
	/* still running: the open phase and the total are null */
	j = timeline_json(&tl);
	assert_null(jsonx_get(jsonx_at(j, "phases", 0), "seconds"));
	assert_null(jsonx_get(j, "total_s"));
	json_object_put(j);
}

static void test_full(void **state)
{
	struct timeline tl;
	json_object *j;

	timeline_init(&tl, 0);
	for (int i = 0; i < TIMELINE_MAX + 5; i++)
		timeline_begin(&tl, i < TIMELINE_MAX - 1 ? "a" : "last", i * 10);
	timeline_end(&tl, 1000);
	assert_int_equal(tl.n, TIMELINE_MAX);
	assert_int_equal(tl.dropped, 5);
	/* the last phase kept grew to the end */
	assert_int_equal(timeline_ms(&tl, "last"), 1000 - (TIMELINE_MAX - 1) * 10);
	/* closed and full: a new phase reopens the last one */
	timeline_begin(&tl, "more", 2000);
	assert_string_equal(timeline_open(&tl), "last");
	assert_int_equal(tl.dropped, 6);
	timeline_end(&tl, 2500);
	j = timeline_json(&tl);
	assert_string_equal(jsonx_text(j, "dropped"), "6");
	assert_string_equal(jsonx_text(j, "total_s"), "2.500");
	json_object_put(j);
}

static void test_format(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct timeline tl;
	json_object *j;

	timeline_init(&tl, 0);
	timeline_begin(&tl, "start", 0);
	timeline_begin(&tl, "kernel", 1000);
	timeline_end(&tl, 4000);
	j = timeline_json(&tl);
	assert_int_equal(timeline_format(j, &sb), 0);
	assert_string_equal(sb.buf,
			    "timeline (wall clock):\n"
			    "     start   seconds  share  phase\n"
			    "     0.00s     1.00s  25.0%  start\n"
			    "     1.00s     3.00s  75.0%  kernel\n"
			    "  total        4.00s\n");
	json_object_put(j);

	/* a record still running: the open phase has no seconds yet */
	strbuf_reset(&sb);
	timeline_begin(&tl, "teardown", 4000);
	j = timeline_json(&tl);
	assert_int_equal(timeline_format(j, &sb), 0);
	assert_non_null(strstr(sb.buf, "     4.00s   (open)      -  teardown\n"
				       "  total    (not finished)\n"));
	json_object_put(j);

	/* not a timeline: nothing printed */
	strbuf_reset(&sb);
	assert_int_equal(timeline_format(NULL, &sb), -EINVAL);
	j = json_tokener_parse("{\"phases\": [{\"seconds\": 1}]}");
	assert_int_equal(timeline_format(j, &sb), -EINVAL);
	json_object_put(j);
	j = json_tokener_parse("{\"phases\": 3}");
	assert_int_equal(timeline_format(j, &sb), -EINVAL);
	json_object_put(j);
	assert_int_equal(sb.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
