// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/archjobs: --parallel's parsing, the rule of auto (one arch, one
 * CPU, a distcc farm, memory), a number asked for, the assignment of
 * arches to workers and run.json's record.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/archjobs.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static void test_parse(void **state)
{
	unsigned n = 7;

	(void)state;
	assert_int_equal(archjobs_parse("auto", &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(archjobs_parse("1", &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(archjobs_parse("4", &n), 0);
	assert_int_equal(n, 4);
	n = 7;
	assert_int_equal(archjobs_parse("5", &n), -EINVAL);
	assert_int_equal(archjobs_parse("0", &n), -EINVAL);
	assert_int_equal(archjobs_parse("-1", &n), -EINVAL);
	assert_int_equal(archjobs_parse("2x", &n), -EINVAL);
	assert_int_equal(archjobs_parse(" 2", &n), -EINVAL);
	assert_int_equal(archjobs_parse("", &n), -EINVAL);
	assert_int_equal(archjobs_parse(NULL, &n), -EINVAL);
	assert_int_equal(n, 7);
}

static unsigned decide(unsigned asked, unsigned cpus, unsigned long mem_mb,
		       unsigned distcc, size_t arches, const char *why)
{
	const struct archjobs_host h = { cpus, mem_mb, distcc, arches };
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	unsigned n = archjobs_decide(asked, &h, &sb);

	assert_string_equal(sb.buf, why);
	return n;
}

static void test_auto(void **state)
{
	(void)state;
	/* this machine: 2 CPUs, 24 GiB, both arches: measured no faster */
	assert_int_equal(decide(0, 2, 24 * 1024, 0, 2,
				"2 CPUs: make -j2 fills them, a second build "
				"would only take turns"),
			 1);
	assert_int_equal(decide(0, 4, 24 * 1024, 0, 2,
				"2 arches on 4 CPUs: each arch's build fills "
				"the CPUs the other's leaves idle"),
			 2);
	assert_int_equal(decide(0, 2, 24 * 1024, 0, 1, "one arch to build"), 1);
	assert_int_equal(decide(0, 1, 24 * 1024, 0, 2,
				"1 CPU: make -j1 fills it, a second build "
				"would only take turns"),
			 1);
	assert_int_equal(decide(0, 8, 24 * 1024, 4, 2,
				"a distcc farm compiles: make's -j already "
				"fills it"),
			 1);
	/* memory: 3 GiB a worker */
	assert_int_equal(decide(0, 8, 4096, 0, 2,
				"4096 MiB of memory holds 1 worker (3072 MiB "
				"each)"),
			 1);
	assert_int_equal(decide(0, 8, 1024, 0, 2,
				"1024 MiB of memory holds 1 worker (3072 MiB "
				"each)"),
			 1);
	assert_int_equal(decide(0, 8, 9216, 0, 4,
				"9216 MiB of memory holds 3 workers (3072 MiB "
				"each)"),
			 3);
	/* unknown memory does not limit; never more than ARCHJOBS_MAX */
	assert_int_equal(decide(0, 64, 0, 0, 9,
				"9 arches on 64 CPUs: each arch's build fills "
				"the CPUs the other's leaves idle"),
			 ARCHJOBS_MAX);
}

static void test_asked(void **state)
{
	(void)state;
	assert_int_equal(decide(2, 1, 512, 4, 2, "asked for (--parallel 2)"), 2);
	assert_int_equal(decide(1, 8, 0, 0, 2, "asked for (--parallel 1)"), 1);
	assert_int_equal(decide(4, 8, 0, 0, 2,
				"asked for (--parallel 4): one worker per arch "
				"at most"),
			 2);
}

static void test_assign_record(void **state)
{
	unsigned w[5];
	const struct archjobs_host h = { 2, 24 * 1024, 0, 2 };
	json_object *j;

	(void)state;
	archjobs_assign(5, 2, w);
	assert_int_equal(w[0], 0);
	assert_int_equal(w[1], 1);
	assert_int_equal(w[2], 0);
	assert_int_equal(w[3], 1);
	assert_int_equal(w[4], 0);
	archjobs_assign(3, 1, w);
	assert_int_equal(w[0] + w[1] + w[2], 0);
	j = archjobs_record(0, 2, &h, "why");
	assert_string_equal(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN),
			    "{\"asked\":\"auto\",\"workers\":2,\"reason\":\"why\","
			    "\"cpus\":2}");
	json_object_put(j);
	j = archjobs_record(3, 2, &h, NULL);
	assert_int_equal(json_object_get_int(jsonx_get(j, "asked")), 3);
	assert_null(jsonx_str(j, "reason"));
	json_object_put(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_asked),
		cmocka_unit_test(test_assign_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
