// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/runread.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

/* The smallest valid run.json; cases below change one thing in it. */
#define MIN_HEAD "{\"schema\":\"bootproof-run/1\",\"run_id\":\"r\","     \
		 "\"command\":\"boot\",\"started\":\"2026-12-03T08:00:00Z\"," \
		 "\"complete\":true"

static int parse(const char *name, const char *text, json_object **ret,
		 struct strbuf *err)
{
	strbuf_reset(err);
	return runread_parse(name, text, strlen(text), ret, err);
}

static json_object *load(const char *rel)
{
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	json_object *doc = NULL;
	int r;

	assert_true(asprintf(&path, "%s/runs/%s", TEST_DATA, rel) > 0);
	assert_true(strbuf_read_file(&buf, path, 0) > 0);
	r = runread_parse(path, buf.buf, buf.len, &doc, &err);
	if (r < 0)
		fail_msg("%s", err.buf);
	return doc;
}

/* Every recorded run parses, and what the readers need is there. */
static void test_recorded_runs(void **state)
{
	json_object *d;
	_cleanup_strbuf_ struct strbuf key = STRBUF_INIT;

	d = load("boot-debian61/run.json");
	assert_false(runread_is_matrix(d));
	assert_int_equal(jsonx_len(d, "boots"), 1);
	assert_string_equal(jsonx_str(jsonx_at(d, "boots", 0), "verdict"),
			    "BOOTED");
	assert_string_equal(jsonx_str(jsonx_get(jsonx_at(d, "boots", 0),
						    "files"), "console"),
			    "console.log");
	runread_boot_key(d, 0, &key);
	assert_string_equal(key.buf, "x86_64");
	json_object_put(d);

	d = load("boot-debian61-crash/run.json");
	assert_string_equal(jsonx_str(jsonx_at(d, "boots", 0), "verdict"),
			    "PANIC");
	assert_int_equal(jsonx_len(jsonx_at(d, "boots", 0), "problems"), 1);
	json_object_put(d);

	d = load("boot-debian61-hostile-cmdline/run.json");
	assert_non_null(strstr(jsonx_str(jsonx_at(d, "boots", 0), "cmdline"),
			       "<script>alert(1)</script>"));
	json_object_put(d);

	d = load("matrix-synthetic/run.json");
	assert_true(runread_is_matrix(d));
	assert_int_equal(jsonx_len(d, "groups"), 8);
	runread_boot_key(d, 3, &key);
	assert_string_equal(key.buf, "x86_64-demo-userfaultfd");
	assert_null(jsonx_str(jsonx_at(d, "boots", 3), "verdict"));
	json_object_put(d);

	d = load("matrix-hostile-synthetic/run.json");
	assert_true(runread_is_matrix(d));
	json_object_put(d);
}

struct bad_case {
	const char *text;
	int err;
	const char *msg; /* the whole message */
};

static void test_errors_name_file_and_member(void **state)
{
	static const struct bad_case cases[] = {
		{ "", -EINVAL, "r/run.json: empty, not a run.json" },
		{ " \n\t", -EINVAL, "r/run.json: empty, not a run.json" },
		{ "{\"schema\": ", -EINVAL,
		  "r/run.json:1:12: not valid JSON: unexpected end of file" },
		{ "{\n  \"schema\": x\n}", -EINVAL,
		  "r/run.json:2:13: not valid JSON: unexpected character" },
		{ MIN_HEAD ",\"boots\":[]} trailing", -EINVAL,
		  "r/run.json:1:120: not valid JSON: data after the end of the "
		  "document" },
		{ "[1,2]", -EINVAL,
		  "r/run.json: not a run.json: expected a JSON object, got an "
		  "array" },
		{ "{\"boots\":[]}", -EINVAL,
		  "r/run.json: not a run.json: no \"schema\" member" },
		{ "{\"schema\":\"bootproof-run/2\"}", -EPROTONOSUPPORT,
		  "r/run.json: schema: 'bootproof-run/2' is not supported (this "
		  "bootproof reads bootproof-run/1)" },
		{ "{\"schema\":\"junit\"}", -EINVAL,
		  "r/run.json: schema: 'junit' is not supported (this "
		  "bootproof reads bootproof-run/1)" },
		{ "{\"schema\":\"bootproof-run/1\",\"command\":\"boot\","
		  "\"started\":\"s\",\"complete\":true,\"boots\":[]}",
		  -EINVAL, "r/run.json: run_id: missing" },
		{ MIN_HEAD "}", -EINVAL, "r/run.json: boots: missing" },
		{ MIN_HEAD ",\"boots\":{}}", -EINVAL,
		  "r/run.json: boots: expected an array, got an object" },
		{ MIN_HEAD ",\"boots\":[7]}", -EINVAL,
		  "r/run.json: boots[0]: expected an object, got a number" },
		{ MIN_HEAD ",\"boots\":[{\"verdict\":3}]}", -EINVAL,
		  "r/run.json: boots[0].verdict: expected a string or null, got "
		  "a number" },
		{ MIN_HEAD ",\"boots\":[{\"verdict\":\"OK\"}]}", -EINVAL,
		  "r/run.json: boots[0].verdict: 'OK' is not one of BOOTED, "
		  "PANIC, PROBLEMS, HUNG, CRASHED, INFRA, INCOMPLETE, RUNNING or "
		  "null" },
		{ MIN_HEAD ",\"boots\":[{},{\"scenarios\":[{\"name\":\"bpf\","
			   "\"result\":\"pass\"},{\"name\":\"mm\",\"result\":"
			   "\"passed\"}]}]}",
		  -EINVAL,
		  "r/run.json: boots[1].scenarios[1].result: 'passed' is not one "
		  "of pass, fail, skip, error, pending" },
		{ MIN_HEAD ",\"boots\":[{\"problems\":[{\"kind\":\"OOPS\"}]}]}",
		  -EINVAL, "r/run.json: boots[0].problems[0].title: missing" },
		{ MIN_HEAD ",\"boots\":[{\"files\":{\"console\":\"/etc/passwd\"}}]}",
		  -EINVAL,
		  "r/run.json: boots[0].files.console: '/etc/passwd' is not a "
		  "relative path inside the run directory" },
		{ MIN_HEAD ",\"boots\":[{\"files\":{\"console\":\"a/../../x\"}}]}",
		  -EINVAL,
		  "r/run.json: boots[0].files.console: 'a/../../x' is not a "
		  "relative path inside the run directory" },
		{ MIN_HEAD ",\"boots\":[{\"files\":{\"kgdb\":\"javascript:alert(1)\"}}]}",
		  -EINVAL,
		  "r/run.json: boots[0].files.kgdb: 'javascript:alert(1)' is not "
		  "a relative path inside the run directory" },
		{ MIN_HEAD ",\"boots\":[{\"files\":{\"console\":1}}]}", -EINVAL,
		  "r/run.json: boots[0].files.console: expected a string or "
		  "null, got a number" },
		{ MIN_HEAD ",\"boots\":[{\"build\":{\"result\":\"pass\","
			   "\"log\":\"../../etc/shadow\"}}]}",
		  -EINVAL,
		  "r/run.json: boots[0].build.log: '../../etc/shadow' is not a "
		  "relative path inside the run directory" },
		{ MIN_HEAD ",\"boots\":[{\"config\":{\"result\":\"pass\","
			   "\"options\":[{\"option\":\"X\",\"status\":\"gone\"}]}}]}",
		  -EINVAL,
		  "r/run.json: boots[0].config.options[0].status: 'gone' is not "
		  "one of kept, changed, absent, demoted" },
		{ MIN_HEAD ",\"boots\":[{\"candidate\":{\"arch\":\"x86_64\"}}]}",
		  -EINVAL, "r/run.json: boots[0].candidate.id: missing" },
		{ MIN_HEAD ",\"boots\":[],\"groups\":[{\"group\":\"g\",\"arch\":"
			   "\"i386\",\"verdict\":\"PASS\"},{\"group\":\"g\","
			   "\"arch\":\"x86_64\",\"verdict\":\"GREEN\"}]}",
		  -EINVAL,
		  "r/run.json: groups[1].verdict: 'GREEN' is not one of PASS, "
		  "PARTIAL, FAIL, SKIP" },
		{ MIN_HEAD ",\"boots\":[],\"plan\":{\"arches\":[\"x86_64\",2]}}",
		  -EINVAL,
		  "r/run.json: plan.arches[1]: expected a string, got a number" },
		{ MIN_HEAD ",\"exit_code\":\"0\",\"boots\":[]}", -EINVAL,
		  "r/run.json: exit_code: expected an integer or null, got a "
		  "string" },
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		json_object *doc = NULL;
		int r = parse("r/run.json", cases[i].text, &doc, &err);

		if (r != cases[i].err || strcmp(err.buf, cases[i].msg))
			fail_msg("case %zu: got %d '%s', want %d '%s'", i, r,
				 err.buf, cases[i].err, cases[i].msg);
		assert_null(doc);
	}
}

static void test_valid_minimal_and_unknown_members(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *doc = NULL;

	assert_int_equal(parse("x", MIN_HEAD ",\"boots\":[]}", &doc, &err), 0);
	assert_non_null(doc);
	assert_false(runread_is_matrix(doc));
	json_object_put(doc);
	/* Members the readers do not know are the writers' business. */
	doc = NULL;
	assert_int_equal(parse("x", MIN_HEAD ",\"boots\":[{\"verdict\":null,"
					     "\"new_member\":[1,{}]}],"
					     "\"future\":{\"a\":1}}",
			       &doc, &err), 0);
	json_object_put(doc);
	/* Deep KTAP nesting (past json-c's default depth of 32). */
	{
		_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;
		strbuf_addstr(&t, MIN_HEAD ",\"boots\":[{\"scenarios\":[{\"name\":"
				  "\"s\",\"result\":\"pass\",\"checks\":[");
		for (int i = 0; i < 40; i++)
			strbuf_addstr(&t, "{\"name\":\"t\",\"status\":\"pass\","
					  "\"subtests\":[");
		for (int i = 0; i < 40; i++)
			strbuf_addstr(&t, "]}");
		strbuf_addstr(&t, "]}]}]}");
		doc = NULL;
		assert_int_equal(parse("x", t.buf, &doc, &err), 0);
		json_object_put(doc);
	}
}

static void test_boot_keys(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, key = STRBUF_INIT;
	json_object *doc = NULL;

	assert_int_equal(
		parse("x",
		      MIN_HEAD ",\"boots\":[{\"arch\":\"x86_64\"},"
			       "{\"arch\":\"x86_64\"},{\"arch\":\"i386\"},{},"
			       "{\"arch\":\"x86_64\",\"candidate\":{\"id\":"
			       "\"x86_64-bpf\"}},{\"arch\":\"x86_64\"}]}",
		      &doc, &err),
		0);
	runread_boot_key(doc, 0, &key);
	assert_string_equal(key.buf, "x86_64");
	runread_boot_key(doc, 1, &key);
	assert_string_equal(key.buf, "x86_64#2");
	runread_boot_key(doc, 2, &key);
	assert_string_equal(key.buf, "i386");
	runread_boot_key(doc, 3, &key);
	assert_string_equal(key.buf, "boot");
	runread_boot_key(doc, 4, &key);
	assert_string_equal(key.buf, "x86_64-bpf");
	runread_boot_key(doc, 5, &key);
	assert_string_equal(key.buf, "x86_64#3");
	json_object_put(doc);
}

static void test_accessors_tolerate_wrong_types(void **state)
{
	json_object *o = json_tokener_parse(
		"{\"s\":\"v\",\"n\":null,\"i\":3,\"d\":1.5,\"a\":[1,2],"
		"\"b\":true}");
	double x = -1;

	assert_string_equal(jsonx_str(o, "s"), "v");
	assert_null(jsonx_str(o, "n"));
	assert_null(jsonx_str(o, "i"));
	assert_null(jsonx_str(o, "missing"));
	assert_null(jsonx_str(NULL, "s"));
	assert_true(jsonx_num(o, "i", &x));
	assert_true(x == 3.0);
	assert_true(jsonx_num(o, "d", &x));
	assert_true(x == 1.5);
	assert_false(jsonx_num(o, "s", &x));
	assert_int_equal(jsonx_len(o, "a"), 2);
	assert_int_equal(jsonx_len(o, "s"), 0);
	assert_null(jsonx_at(o, "a", 2));
	assert_true(jsonx_bool(o, "b", false));
	assert_true(jsonx_bool(o, "s", true));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_runs),
		cmocka_unit_test(test_errors_name_file_and_member),
		cmocka_unit_test(test_valid_minimal_and_unknown_members),
		cmocka_unit_test(test_boot_keys),
		cmocka_unit_test(test_accessors_tolerate_wrong_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
