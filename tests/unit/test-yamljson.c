// SPDX-License-Identifier: GPL-2.0-or-later
/* core/yamljson: what LAVA writes (flow mappings of double-quoted
 * strings, block documents) as json-c objects; what is not YAML refused
 * with where. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/yamljson.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static json_object *parse(const char *text)
{
	json_object *j = NULL;

	assert_int_equal(yamljson_parse(text, strlen(text), &j, NULL), 0);
	return j;
}

static void test_log_record(void **state)
{
	json_object *j = parse("{\"dt\": \"2026-12-06T03:50:41.447069\", \"lvl\": "
			       "\"target\", \"msg\": \"[    0.6] use \\\\\\\"pci=nocrs"
			       "\\\\\\\" \\u00e9\\t\\x41\"}");

	assert_string_equal(jsonx_str(j, "lvl"), "target");
	/* YAML's escapes decoded; the dispatcher's \" stays \" (one level) */
	assert_string_equal(jsonx_str(j, "msg"),
			    "[    0.6] use \\\"pci=nocrs\\\" \xc3\xa9\tA");
	json_object_put(j);
	j = parse("{\"lvl\": \"results\", \"msg\": {\"case\": \"job\", \"extra\": "
		  "{\"label\": \"kernel\"}, \"n\": 3}}");
	assert_string_equal(jsonx_str(jsonx_get(jsonx_get(j, "msg"), "extra"),
				      "label"), "kernel");
	/* Scalars stay strings: no YAML typing. */
	assert_string_equal(jsonx_str(jsonx_get(j, "msg"), "n"), "3");
	json_object_put(j);
}

static void test_document(void **state)
{
	json_object *j = parse("job_name: 'a: b'\nmetadata:\n  k: no\n  e:\n  n: ~\n"
			       "actions:\n- deploy: {to: tmpfs}\n- boot:\n    method: qemu\n");

	assert_string_equal(jsonx_str(j, "job_name"), "a: b");
	assert_string_equal(jsonx_str(jsonx_get(j, "metadata"), "k"), "no");
	assert_true(json_object_object_get_ex(jsonx_get(j, "metadata"), "e", NULL));
	assert_null(jsonx_get(jsonx_get(j, "metadata"), "e"));
	assert_null(jsonx_get(jsonx_get(j, "metadata"), "n"));
	assert_int_equal(json_object_array_length(jsonx_get(j, "actions")), 2);
	assert_string_equal(jsonx_str(jsonx_get(json_object_array_get_idx(
							jsonx_get(j, "actions"), 1),
						"boot"), "method"), "qemu");
	json_object_put(j);
	j = parse("- {\"a\": \"1\"}\n- {\"a\": \"2\"}\n");
	assert_int_equal(json_object_array_length(j), 2);
	json_object_put(j);
}

static void test_refused(void **state)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *j = NULL;
	static const char bad[] = "a: b\n  c: [d\n";
	static const char alias[] = "a: &x 1\nb: *x\n";
	char deep[400];

	assert_int_equal(yamljson_parse(bad, strlen(bad), &j, &err), -EINVAL);
	assert_null(j);
	assert_non_null(strstr(err.buf, "line "));
	strbuf_reset(&err);
	assert_int_equal(yamljson_parse(alias, strlen(alias), &j, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "aliases"));
	assert_int_equal(yamljson_parse("", 0, &j, NULL), -EINVAL);
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	strbuf_reset(&err);
	assert_int_equal(yamljson_parse(deep, strlen(deep), &j, &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_record),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
