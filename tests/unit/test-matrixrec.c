// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * matrixrec_regroup: a matrix run's group verdicts decided again from
 * run.json alone.  On the records of real runs (tests/data/lava/README.md):
 * the demo's x86_64-all candidate booted here (matrix-local.run.json) and
 * the same kernel sent to LAVA and read back (matrix-lava.run.json):
 * deciding again gives each run's own groups; a record changed gives the
 * groups that change says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/matrixrec.h"
#include "util/jsonx.h"

static json_object *load(const char *name)
{
	char path[512];
	json_object *j;

	snprintf(path, sizeof(path), "%s/lava/%s", TEST_DATA, name);
	j = json_object_from_file(path);
	assert_non_null(j);
	return j;
}

static const char *verdict_of(json_object *groups, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(groups); i++) {
		json_object *g = json_object_array_get_idx(groups, i);

		if (!strcmp(jsonx_str(g, "group"), name))
			return jsonx_str(g, "verdict");
	}
	return NULL;
}

static void same_groups(const char *file)
{
	json_object *doc = load(file), *again = matrixrec_regroup(doc);

	assert_non_null(again);
	assert_string_equal(json_object_to_json_string(again),
			    json_object_to_json_string(jsonx_get(doc, "groups")));
	json_object_put(again);
	json_object_put(doc);
}

static void test_same(void **state)
{
	same_groups("matrix-local.run.json");
	same_groups("matrix-lava.run.json");
}

static void test_changed(void **state)
{
	json_object *doc = load("matrix-local.run.json"), *again, *sc;
	json_object *rec = json_object_array_get_idx(jsonx_get(doc, "boots"), 0);

	assert_string_equal(verdict_of(jsonx_get(doc, "groups"), "demo-kgdb"), "PASS");
	sc = jsonx_get(rec, "scenarios");
	for (size_t i = 0; i < json_object_array_length(sc); i++) {
		json_object *s = json_object_array_get_idx(sc, i);

		if (!strcmp(jsonx_str(s, "name"), "kgdb"))
			json_object_object_add(s, "result", json_object_new_string("fail"));
	}
	again = matrixrec_regroup(doc);
	assert_string_equal(verdict_of(again, "demo-kgdb"), "FAIL");
	assert_string_equal(verdict_of(again, "demo-bpf"), "PASS");
	json_object_put(again);
	/* Written before the plan kept its groups' scenarios: nothing. */
	json_object_object_del(jsonx_get(doc, "plan"), "group_scenarios");
	assert_null(matrixrec_regroup(doc));
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_changed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
