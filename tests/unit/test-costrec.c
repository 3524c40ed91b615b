// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * costrec: run.json's "costs" from boot records (synthetic ones for every
 * branch; the real cost run in tests/data/runs/cost-x86_64 against its
 * recorded costs), the samples of repeated boots, and the text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/costrec.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static json_object *parse(const char *s)
{
	json_object *j = json_tokener_parse(s);

	assert_non_null(j);
	return j;
}

/* A candidate's record: kind, group, the build's measure, boot times. */
static json_object *rec(const char *kind, const char *group, const char *hash,
			const char *measure, const char *boot)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb,
		    "{ \"candidate\": { \"id\": \"x86_64-%s\", \"arch\": "
		    "\"x86_64\", \"kind\": \"%s\", \"groups\": [\"demo-base\"%s%s%s] },"
		    " \"config\": { \"result\": \"pass\", \"final_config\": "
		    "\"x86_64-%s/config\", \"options\": [ { \"option\": "
		    "\"BPF_SYSCALL\", \"group\": \"%s\" }, { \"option\": "
		    "\"EXT4_FS\", \"group\": \"demo-base\" } ] },"
		    " \"build\": { \"result\": \"pass\", \"config_hash\": \"%s\","
		    " \"measure\": %s }, \"accel\": \"tcg\", %s }",
		    group ? group : "base", kind, group ? ", \"" : "", group ? group : "",
		    group ? "\"" : "", group ? group : "base", group ? group : "",
		    hash, measure, boot);
	return parse(sb.buf);
}

static const char base_measure[] =
	"{ \"objects\": 1000, \"objects_compiled\": 1000, \"from_clean\": true,"
	"  \"previous_config\": null, \"cpu_seconds\": 500.0,"
	"  \"ccache\": { \"hits\": 0, \"misses\": 990, \"other\": 10 },"
	"  \"bzimage_bytes\": 1000000, \"vmlinux\": { \"text\": 5000000, "
	"  \"data\": 700000, \"bss\": 300000 },"
	"  \"modules\": { \"count\": 0, \"bytes\": 0 } }";
static const char group_measure[] =
	"{ \"objects\": 1100, \"objects_compiled\": 120, \"from_clean\": false,"
	"  \"previous_config\": \"BASEHASH\", \"cpu_seconds\": 72.0,"
	"  \"ccache\": { \"hits\": 0, \"misses\": 120, \"other\": 0 },"
	"  \"bzimage_bytes\": 1100000, \"vmlinux\": { \"text\": 5200000, "
	"  \"data\": 700000, \"bss\": 290000 },"
	"  \"modules\": { \"count\": 2, \"bytes\": 40960 } }";
static const char base_boot[] =
	"\"verdict\": \"BOOTED\", \"time_to_init_s\": 2.0, \"image_bytes\": 100,"
	"\"samples\": { \"n\": 3, \"time_to_init_s\": [2.0, 2.2, 1.9],"
	" \"time_to_agent_end_s\": [10, 11, 10.5],"
	" \"kernel_available_kb\": [100000, 100000, 100000],"
	" \"agent_memavailable_kb\": [90000, 90100, 89900] }";
static const char group_boot[] =
	"\"verdict\": \"BOOTED\", \"time_to_init_s\": 2.1, \"image_bytes\": 200,"
	"\"samples\": { \"n\": 3, \"time_to_init_s\": [2.1, 2.0, 2.3],"
	" \"time_to_agent_end_s\": [14, 14.5, 13.9],"
	" \"kernel_available_kb\": [99000, 99000, 99000],"
	" \"agent_memavailable_kb\": [89000, 89000, null] }";

struct cfg_calls {
	int n;
	char requested[256];
	int result;
};

static int fake_config(void *ud, const char *base_rel, const char *cand_rel,
		       const char *const *requested, size_t n,
		       struct cost_config *ret)
{
	struct cfg_calls *c = ud;

	c->n++;
	assert_string_equal(base_rel, "x86_64-base/config");
	assert_string_equal(cand_rel, "x86_64-demo-bpf/config");
	c->requested[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strncat(c->requested, requested[i],
			sizeof(c->requested) - strlen(c->requested) - 2);
		strncat(c->requested, " ", 2);
	}
	*ret = (struct cost_config){ .on = 12, .direct = 1, .implied = 11,
				     .off = 0, .changed = 2 };
	return c->result;
}

static double num(json_object *o, const char *key)
{
	double v = NAN;

	if (!jsonx_num(o, key, &v))
		fail_msg("%s: no number", key);
	return v;
}

/* o's member at a dotted path. */
static json_object *at(json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o;
	     k = strtok_r(NULL, ".", &save))
		o = jsonx_get(o, k);
	return o;
}

static double get(json_object *o, const char *path)
{
	const char *dot = strrchr(path, '.');
	char parent[256];

	if (!dot)
		return num(o, path);
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - path), path);
	return num(at(o, parent), dot + 1);
}

static json_object *run_of(json_object *b, json_object *g)
{
	json_object *run = json_object_new_object(), *boots = json_object_new_array();

	json_object_array_add(boots, b);
	json_object_array_add(boots, g);
	json_object_object_add(run, "boots", boots);
	return run;
}

static void test_costs(void **state)
{
	json_object *run = run_of(rec("base", NULL, "BASEHASH", base_measure, base_boot),
				  rec("each", "demo-bpf", "G", group_measure, group_boot));
	struct cfg_calls calls = { 0 };
	json_object *costs = costrec_run(run, fake_config, &calls), *c;
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	assert_int_equal(json_object_array_length(costs), 1);
	c = json_object_array_get_idx(costs, 0);
	assert_string_equal(jsonx_str(c, "group"), "demo-bpf");
	assert_string_equal(jsonx_str(c, "candidate"), "x86_64-demo-bpf");
	assert_string_equal(jsonx_str(c, "base"), "x86_64-base");
	assert_null(jsonx_get(c, "why"));
	/* build: exact objects, the estimate and its error (cost.h) */
	assert_true(get(c, "build.objects.delta") == 100);
	assert_string_equal(jsonx_str(at(c, "build.cpu_from_clean"), "how"),
			    "estimated");
	assert_true(fabs(get(c, "build.cpu_from_clean.delta") - 50) < 1e-6);
	assert_true(fabs(get(c, "build.cpu_from_clean.error") - 10) < 1e-6);
	assert_true(get(c, "build.incremental.cpu_seconds") == 72);
	assert_true(jsonx_bool(at(c, "build.incremental"), "after_base", false));
	/* size */
	assert_true(get(c, "size.bzimage_bytes.delta") == 100000);
	assert_true(get(c, "size.text.delta") == 200000);
	assert_true(get(c, "size.bss.delta") == -10000);
	assert_true(get(c, "size.modules.delta") == 2);
	assert_true(get(c, "size.modules_bytes.delta") == 40960);
	assert_true(get(c, "size.image_bytes.delta") == 100);
	/* boot: init inside the spread, the agent's end beyond it, memory
	 * down (a null sample skipped) */
	assert_string_equal(jsonx_str(at(c, "boot.time_to_init_s"), "change"),
			    "none");
	assert_true(fabs(get(c, "boot.time_to_init_s.spread") - 0.3) < 1e-6);
	assert_string_equal(jsonx_str(at(c, "boot.time_to_agent_end_s"), "change"),
			    "more");
	assert_true(fabs(get(c, "boot.time_to_agent_end_s.delta") - 3.5) < 1e-6);
	assert_string_equal(jsonx_str(at(c, "boot.kernel_available_kb"), "change"),
			    "less");
	assert_true(get(c, "boot.agent_memavailable_kb.group.n") == 2);
	assert_true(jsonx_bool(at(c, "boot.time_to_init_s"), "spread_known", false));
	/* config: the group's own requested options only */
	assert_int_equal(calls.n, 1);
	assert_string_equal(calls.requested, "BPF_SYSCALL ");
	assert_true(get(c, "config.on") == 12 && get(c, "config.implied") == 11);
	costrec_text(costs, &text);
	assert_non_null(strstr(text.buf, "x86_64 demo-bpf  (x86_64-demo-bpf "
					 "against x86_64-base)"));
	assert_non_null(strstr(text.buf, "objects      +100 (1000 -> 1100)"));
	assert_non_null(strstr(text.buf, "+50 s estimated ±10 s (base 500 s "
					 "from clean)"));
	assert_non_null(strstr(text.buf, "72 s of CPU after the base, 120 "
					 "objects compiled, 0 ccache hits"));
	assert_non_null(strstr(text.buf, "to init      none (+0.1 s, inside "
					 "the spread of 0.3 s)"));
	assert_non_null(strstr(text.buf, "agent end    +3.5 s; median 10.5 -> "
					 "14.0 s, spread 1.0 s, 3/3 boots"));
	assert_non_null(strstr(text.buf, "12 options on: 1 directly, 11 came "
					 "with them"));
	json_object_put(costs);
	/* the config callback failing: config null */
	calls.result = -ENOENT;
	costs = costrec_run(run, fake_config, &calls);
	assert_null(jsonx_get(json_object_array_get_idx(costs, 0), "config"));
	json_object_put(costs);
	costs = costrec_run(run, NULL, NULL);
	assert_null(jsonx_get(json_object_array_get_idx(costs, 0), "config"));
	json_object_put(costs);
	json_object_put(run);
}

static void test_branches(void **state)
{
	json_object *b = rec("base", NULL, "BASEHASH", base_measure, base_boot);
	json_object *g = rec("each", "demo-bpf", "G", group_measure, group_boot);
	json_object *run = run_of(b, g), *costs, *c;
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	/* measured: the group from clean too; after another build */
	json_object_object_add(at(g, "build.measure"), "from_clean",
			       json_object_new_boolean(1));
	json_object_object_add(at(g, "build.measure"), "cpu_seconds",
			       json_object_new_double(560));
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_string_equal(jsonx_str(at(c, "build.cpu_from_clean"), "how"),
			    "measured");
	assert_true(get(c, "build.cpu_from_clean.delta") == 60);
	assert_null(jsonx_get(at(c, "build"), "incremental"));
	json_object_put(costs);
	/* the base from a kept tree it recompiled every object in: priced
	 * as from clean, so estimated (a kept tree's host tools are not) */
	json_object_object_add(at(b, "build.measure"), "from_clean",
			       json_object_new_boolean(0));
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_string_equal(jsonx_str(at(c, "build.cpu_from_clean"), "how"),
			    "estimated");
	assert_true(get(c, "build.cpu_from_clean.delta") == 60);
	assert_non_null(strstr(jsonx_str(at(c, "build.cpu_from_clean"), "method"),
			       "kept objects"));
	json_object_put(costs);
	/* the base not from clean, a fifth of its objects kept: unknown;
	 * boots under other accelerators */
	json_object_object_add(at(b, "build.measure"), "objects_compiled",
			       json_object_new_int(800));
	json_object_object_add(g, "accel", json_object_new_string("kvm"));
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_string_equal(jsonx_str(at(c, "build.cpu_from_clean"), "how"),
			    "unknown");
	assert_null(jsonx_get(at(c, "build.cpu_from_clean"), "delta"));
	assert_null(jsonx_get(c, "boot"));
	assert_string_equal(jsonx_str(c, "boot_why"),
			    "the two booted under different accelerators");
	costrec_text(costs, &text);
	assert_non_null(strstr(text.buf, "boot    not compared: the two booted "
					 "under different accelerators"));
	json_object_put(costs);
	/* the same accelerator, other machines: a record without "machine"
	 * is of the pc machine (written before the field) */
	json_object_object_add(g, "accel", json_object_new_string(
						  jsonx_str(b, "accel")));
	json_object_object_add(g, "machine", json_object_new_string("q35"));
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_null(jsonx_get(c, "boot"));
	assert_string_equal(jsonx_str(c, "boot_why"),
			    "the two booted on different QEMU machines");
	json_object_put(costs);
	json_object_object_add(b, "machine", json_object_new_string("q35"));
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_non_null(jsonx_get(c, "boot"));
	assert_null(jsonx_get(c, "boot_why"));
	/* no loads recorded: no line for them */
	strbuf_reset(&text);
	costrec_text(costs, &text);
	assert_null(strstr(text.buf, "host load"));
	json_object_put(costs);
	/* the host's load at each side's first boot, said beside the times */
	json_object_object_add(b, "host_load", json_object_new_double(3.9));
	json_object_object_add(g, "host_load", json_object_new_double(1.1));
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_true(get(c, "boot.host_load.base") == 3.9);
	assert_true(get(c, "boot.host_load.group") == 1.1);
	strbuf_reset(&text);
	costrec_text(costs, &text);
	assert_non_null(strstr(text.buf, "          host load    base 3.9, "
					 "group 1.1 (1-minute load"));
	json_object_put(costs);
	/* the group's build failed */
	json_object_object_add(at(g, "build"), "result",
			       json_object_new_string("fail"));
	json_object_object_add(g, "verdict", NULL);
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_string_equal(jsonx_str(c, "why"),
			    "the group's candidate did not build");
	assert_null(jsonx_get(c, "build"));
	assert_string_equal(jsonx_str(c, "boot_why"), "a candidate did not boot");
	json_object_put(costs);
	/* no base candidate: nothing; text says so */
	json_object_array_del_idx(jsonx_get(run, "boots"), 0, 1);
	costs = costrec_run(run, NULL, NULL);
	assert_int_equal(json_object_array_length(costs), 0);
	strbuf_reset(&text);
	costrec_text(costs, &text);
	assert_non_null(strstr(text.buf, "no group costs"));
	json_object_put(costs);
	json_object_put(run);
	costs = costrec_run(NULL, NULL, NULL);
	assert_int_equal(json_object_array_length(costs), 0);
	json_object_put(costs);
}

/* A boot that did not run to its end (HUNG: its agent end is the
 * timeout) is no sample of the boot's figures; PROBLEMS ran to its end. */
static const char group_boot_hung[] =
	"\"verdict\": \"BOOTED\", \"time_to_init_s\": 2.1, \"image_bytes\": 200,"
	"\"samples\": { \"n\": 3, \"time_to_init_s\": [2.1, 2.0, 2.3],"
	" \"time_to_agent_end_s\": [14, 400, 14.5],"
	" \"kernel_available_kb\": [99000, 99000, 99000],"
	" \"agent_memavailable_kb\": [89000, 89000, 89000],"
	" \"verdicts\": [\"BOOTED\", \"HUNG\", \"PROBLEMS\"] }";

static void test_sample_verdicts(void **state)
{
	json_object *b = rec("base", NULL, "BASEHASH", base_measure, base_boot);
	json_object *g = rec("each", "demo-bpf", "G", group_measure,
			     group_boot_hung);
	json_object *run = run_of(b, g), *costs, *c;

	(void)state;
	costs = costrec_run(run, NULL, NULL);
	c = json_object_array_get_idx(costs, 0);
	assert_true(get(c, "boot.time_to_agent_end_s.group.n") == 2);
	assert_true(fabs(get(c, "boot.time_to_agent_end_s.group.median") -
			 14.25) < 1e-6);
	assert_true(get(c, "boot.time_to_agent_end_s.group.max") == 14.5);
	/* the base's samples say no verdicts (written before they did):
	 * all count */
	assert_true(get(c, "boot.time_to_agent_end_s.base.n") == 3);
	json_object_put(costs);
	json_object_put(run);
}

static void test_samples(void **state)
{
	json_object *first = parse(
		"{ \"verdict\": \"BOOTED\", \"time_to_init_s\": 2.5,"
		"  \"kernel_time_to_init_s\": 1.0, \"time_to_agent_end_s\": 9.0,"
		"  \"memory\": { \"kernel_available_kb\": 1000,"
		"  \"agent_memavailable_kb\": 900 },"
		"  \"files\": { \"console\": \"x/console.log\" } }");
	json_object *again[2] = {
		parse("{ \"verdict\": \"BOOTED\", \"time_to_init_s\": 2.0,"
		      "  \"memory\": { \"kernel_available_kb\": 1000 },"
		      "  \"files\": { \"console\": \"x/boot2-console.log\" } }"),
		parse("{ \"verdict\": \"HUNG\", \"time_to_init_s\": null }"),
	};
	json_object *s;

	costrec_samples(first, again, 2);
	s = jsonx_get(first, "samples");
	assert_true(get(s, "n") == 3);
	assert_string_equal(json_object_to_json_string_ext(
				    jsonx_get(s, "time_to_init_s"),
				    JSON_C_TO_STRING_PLAIN),
			    "[2.5,2.0,null]");
	assert_string_equal(json_object_to_json_string_ext(
				    jsonx_get(s, "agent_memavailable_kb"),
				    JSON_C_TO_STRING_PLAIN),
			    "[900,null,null]");
	assert_string_equal(json_object_to_json_string_ext(
				    jsonx_get(s, "verdicts"), JSON_C_TO_STRING_PLAIN),
			    "[\"BOOTED\",\"BOOTED\",\"HUNG\"]");
	assert_string_equal(json_object_get_string(jsonx_at(s, "consoles", 1)),
			    "x/boot2-console.log");
	json_object_put(first);
	json_object_put(again[0]);
	json_object_put(again[1]);
	/* no repeats: samples of one */
	first = parse("{ \"time_to_init_s\": 1 }");
	costrec_samples(first, NULL, 0);
	assert_true(get(jsonx_get(first, "samples"), "n") == 1);
	json_object_put(first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_costs),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_sample_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
