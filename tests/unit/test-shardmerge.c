// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/shardmerge on hand-made shard documents: what makes shards one run
 * (and each way they do not, with its message), the merged document
 * (records from their owners in the plan's order, group verdicts
 * recomputed, shards, build order, start), the merged exit code.  The
 * matrix's own shards and their merge: test-matrix.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/shardmerge.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

/* A candidate's record: base or each (group g), booted with scenario
 * result res, or a stub another shard runs (res NULL). */
static json_object *rec(const char *id, const char *kind, const char *g,
			const char *res)
{
	char buf[1024];

	if (!res)
		snprintf(buf, sizeof(buf),
			 "{\"candidate\":{\"id\":\"%s\",\"arch\":\"x86_64\","
			 "\"kind\":\"%s\",\"groups\":[%s%s%s]},\"config\":null,"
			 "\"build\":null,\"verdict\":null,\"reason\":\"run by "
			 "another shard\",\"scenarios\":[]}",
			 id, kind, g ? "\"" : "", g ? g : "", g ? "\"" : "");
	else
		snprintf(buf, sizeof(buf),
			 "{\"candidate\":{\"id\":\"%s\",\"arch\":\"x86_64\","
			 "\"kind\":\"%s\",\"groups\":[%s%s%s]},\"config\":"
			 "{\"result\":\"pass\",\"options\":[]},\"build\":"
			 "{\"result\":\"pass\",\"config_hash\":\"h-%s\"},"
			 "\"verdict\":\"BOOTED\",\"reason\":null,\"scenarios\":"
			 "[{\"name\":\"boot\",\"result\":\"pass\"},{\"name\":"
			 "\"bpf\",\"result\":\"%s\"}]}",
			 id, kind, g ? "\"" : "", g ? g : "", g ? "\"" : "", id,
			 res);
	return json_tokener_parse(buf);
}

/* Shard k of 2 of plan {base, each bpf}: base in 1, x86_64-bpf in 2. */
static json_object *shard_doc(unsigned k, const char *bpf_result)
{
	json_object *d = json_tokener_parse(
		"{\"schema\":\"bootproof-run/1\",\"command\":\"run\","
		"\"host\":{\"hostname\":\"h\"},\"complete\":true,\"exit_code\":0,"
		"\"plan\":{\"name\":\"t\",\"arches\":[\"x86_64\"],\"groups\":"
		"[\"bpf\"],\"group_scenarios\":{\"x86_64\":{\"bpf\":[\"bpf\"]}},"
		"\"scenarios\":null,\"ksrc\":\"/src/linux\",\"release\":"
		"\"6.12.118\"},\"shard\":{\"index\":1,\"count\":2,\"by\":"
		"\"order\",\"split\":[{\"id\":\"x86_64-base\",\"shard\":1},"
		"{\"id\":\"x86_64-bpf\",\"shard\":2}]},\"costs\":[],"
		"\"resumed\":[\"x\"]}");
	json_object *boots = json_object_new_array();
	char t[32];

	json_object_object_add(jsonx_get(d, "shard"), "index",
			       json_object_new_int((int)k));
	snprintf(t, sizeof(t), "2026-12-0%uT00:00:00Z", 5 - k);
	json_object_object_add(d, "started", jsonx_new_str(t));
	json_object_array_add(boots, rec("x86_64-base", "base", NULL,
					 k == 1 ? "skip" : NULL));
	json_object_array_add(boots, rec("x86_64-bpf", "each", "bpf",
					 k == 2 ? bpf_result : NULL));
	json_object_object_add(d, "boots", boots);
	json_object_object_add(d, "build_order",
			       json_tokener_parse(k == 1 ? "[\"x86_64-base\"]"
							 : "[\"x86_64-bpf\"]"));
	return d;
}

static json_object *docs[3];
static struct shardmerge_input in[3];

static int setup(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		docs[i] = shard_doc(i == 1 ? 1 : 2, "pass");
		in[i] = (struct shardmerge_input){ i == 0 ? "s2" : i == 1 ? "s1"
								       : "s2b",
						   docs[i] };
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 3; i++)
		json_object_put(docs[i]);
	return 0;
}

static void expect_refused(size_t n, const char *msg)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(shardmerge_check(in, n, &err), -EINVAL);
	if (!strstr(err.buf, msg))
		fail_msg("'%s' lacks '%s'", err.buf, msg);
	strbuf_release(&err);
}

static void test_merge(void **state)
{
	char *argv[] = { (char *)"merge", (char *)"out", (char *)"s2",
			 (char *)"s1" };
	size_t *owner = NULL;
	json_object *m, *g;
	bool complete = false;

	(void)state;
	assert_int_equal(shardmerge_check(in, 2, NULL), 0);
	m = shardmerge_doc(in, 2, "out", 4, argv, &owner);
	/* the plan's order, each from its owner (s1 is in[1]) */
	assert_int_equal(owner[0], 1);
	assert_int_equal(owner[1], 0);
	assert_string_equal(jsonx_str(jsonx_get(jsonx_at(m, "boots", 0), "build"),
				      "config_hash"),
			    "h-x86_64-base");
	assert_string_equal(jsonx_str(jsonx_get(jsonx_at(m, "boots", 1), "build"),
				      "config_hash"),
			    "h-x86_64-bpf");
	/* recomputed from the records: bpf PASS, decided by its own */
	g = jsonx_at(m, "groups", 0);
	assert_string_equal(jsonx_str(g, "verdict"), "PASS");
	assert_string_equal(jsonx_str(g, "candidate"), "x86_64-bpf");
	assert_string_equal(json_object_to_json_string_ext(
				    jsonx_get(m, "build_order"), JSON_C_TO_STRING_PLAIN),
			    "[\"x86_64-base\",\"x86_64-bpf\"]");
	assert_string_equal(jsonx_str(m, "run_id"), "out");
	assert_string_equal(jsonx_str(m, "started"), "2026-12-03T00:00:00Z");
	assert_int_equal(jsonx_len(m, "argv"), 4);
	assert_int_equal(jsonx_len(m, "shards"), 2);
	assert_string_equal(jsonx_str(jsonx_at(m, "shards", 0), "dir"), "s1");
	assert_string_equal(jsonx_str(jsonx_at(m, "shards", 1), "hostname"), "h");
	assert_null(jsonx_get(m, "shard"));
	assert_null(jsonx_get(m, "costs"));
	assert_null(jsonx_get(m, "resumed"));
	assert_false(jsonx_bool(m, "complete", true));
	assert_int_equal(shardmerge_exit_code(in, 2, m, &complete), 0);
	assert_true(complete);
	json_object_put(m);
	free(owner);

	/* bpf failing in shard 2: the merged run fails */
	json_object_object_add(jsonx_at(jsonx_at(docs[0], "boots", 1), "scenarios", 1),
			       "result", jsonx_new_str("fail"));
	m = shardmerge_doc(in, 2, "out", 4, argv, &owner);
	assert_string_equal(jsonx_str(jsonx_at(m, "groups", 0), "verdict"), "FAIL");
	assert_int_equal(shardmerge_exit_code(in, 2, m, &complete), 1);
	/* a shard that did not finish; one that met infrastructure */
	json_object_object_add(docs[0], "exit_code", json_object_new_int(3));
	assert_int_equal(shardmerge_exit_code(in, 2, m, &complete), 3);
	json_object_object_add(docs[1], "exit_code", json_object_new_int(2));
	assert_int_equal(shardmerge_exit_code(in, 2, m, &complete), 2);
	json_object_object_add(docs[1], "complete", json_object_new_boolean(0));
	assert_int_equal(shardmerge_exit_code(in, 2, m, &complete), 130);
	assert_false(complete);
	json_object_put(m);
	free(owner);
}

static void test_refused(void **state)
{
	json_object *plan, *v;

	(void)state;
	expect_refused(0, "no shard to merge");
	expect_refused(1, "shard 1/2 is missing: nobody ran its candidates "
			  "(x86_64-base)");
	in[1] = in[2];	/* s2 and s2b */
	expect_refused(2, "s2 and s2b are both shard 2/2: their candidates "
			  "would be merged twice");
	teardown(state);
	setup(state);

	plan = jsonx_get(docs[1], "plan");
	json_object_object_add(plan, "ksrc", jsonx_new_str("/other/linux"));
	expect_refused(2, "s1 ran on another kernel tree: /other/linux "
			  "(Linux 6.12.118) where s2 has /src/linux");
	json_object_object_add(plan, "ksrc", jsonx_new_str("/src/linux"));
	json_object_object_add(plan, "release", jsonx_new_str("6.12.119"));
	expect_refused(2, "another kernel tree");
	json_object_object_add(plan, "release", jsonx_new_str("6.12.118"));
	json_object_object_add(plan, "groups", json_tokener_parse("[\"mm\"]"));
	expect_refused(2, "s1 ran another plan: its \"groups\" differs from "
			  "s2's ([\"mm\"] against [\"bpf\"])");
	json_object_object_add(plan, "groups", json_tokener_parse("[\"bpf\"]"));
	json_object_object_add(plan, "extra", json_object_new_int(1));
	expect_refused(2, "its \"extra\" differs");
	json_object_object_del(plan, "extra");
	assert_int_equal(shardmerge_check(in, 2, NULL), 0);

	v = jsonx_get(docs[1], "shard");
	json_object_object_add(v, "count", json_object_new_int(3));
	expect_refused(2, "s1 is shard 1/3 and s2 shard 2/2: the shards of one "
			  "run have the same N");
	json_object_object_add(v, "count", json_object_new_int(2));
	json_object_object_add(json_object_array_get_idx(jsonx_get(v, "split"), 1),
			       "shard", json_object_new_int(1));
	expect_refused(2, "s1 split the candidates otherwise than s2 "
			  "(x86_64-bpf: shard 1 in the one, 2 in the other): "
			  "--shard-by cost");
	json_object_object_add(json_object_array_get_idx(jsonx_get(v, "split"), 1),
			       "shard", json_object_new_int(2));
	json_object_object_add(json_object_array_get_idx(jsonx_get(v, "split"), 1),
			       "id", jsonx_new_str("x86_64-mm"));
	json_object_array_add(jsonx_get(docs[1], "boots"),
			      rec("x86_64-mm", "each", "mm", NULL));
	expect_refused(2, "s1 and s2 list other candidates (x86_64-mm against "
			  "x86_64-bpf)");
	teardown(state);
	setup(state);

	json_object_array_del_idx(jsonx_get(docs[1], "boots"), 1, 1);
	expect_refused(2, "s1/run.json: no record of candidate x86_64-bpf");
	json_object_object_add(docs[1], "command", jsonx_new_str("boot"));
	expect_refused(2, "s1 is not a `bootproof run` (command boot)");
	json_object_object_add(docs[0], "shard", NULL);
	expect_refused(1, "s2 is not a shard: no \"shard\" member");
	teardown(state);
	setup(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
