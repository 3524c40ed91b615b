// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/groupverdict.h"
#include "util/strbuf.h"

/*
 * Candidate records in the shape `bootproof run` writes (docs/run.md),
 * reduced to the members the verdict reads.
 */
#define CAND(id, kind, groups)                                                 \
	"\"candidate\": { \"id\": \"" id "\", \"arch\": \"x86_64\", "          \
	"\"kind\": \"" kind "\", \"base_groups\": [\"demo-base\"], "           \
	"\"groups\": " groups " }"

#define OPT(name, group, status, reason)                                       \
	"{ \"option\": \"" name "\", \"group\": \"" group "\", "               \
	"\"status\": \"" status "\", \"reason\": " reason " }"

#define CONFIG_OK(opts)                                                        \
	"\"config\": { \"result\": \"pass\", \"error\": null, \"options\": "   \
	"[" opts "] }"

#define BUILD_OK "\"build\": { \"result\": \"pass\", \"first_error\": null }"

static json_object *parse(const char *s)
{
	json_object *o = json_tokener_parse(s);

	if (!o)
		fail_msg("bad test JSON: %s", s);
	return o;
}

static const char *str(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static json_object *decide(const char *boots, const char *group,
			   const char *const *sc, size_t n)
{
	json_object *b = parse(boots), *gv;
	struct groupverdict_group g = {
		.name = group,
		.arch = "x86_64",
		.scenarios = sc,
		.n_scenarios = n,
	};

	gv = groupverdict_decide(b, &g);
	json_object_put(b);
	assert_non_null(gv);
	return gv;
}

static void expect(json_object *gv, const char *verdict, const char *stage,
		   const char *reason_part)
{
	enum groupverdict v;

	assert_string_equal(str(gv, "verdict"), verdict);
	assert_int_equal(groupverdict_of(gv, &v), 0);
	assert_string_equal(groupverdict_name(v), verdict);
	if (stage)
		assert_string_equal(str(gv, "stage"), stage);
	else
		assert_null(str(gv, "stage"));
	if (!strstr(str(gv, "reason"), reason_part))
		fail_msg("reason '%s' lacks '%s'", str(gv, "reason"),
			 reason_part);
}

static const char *const bpf_sc[] = { "bpf", "boot" };

static void test_pass(void **state)
{
	json_object *gv = decide(
		"[ { " CAND("x86_64-demo-bpf", "each", "[\"demo-bpf\"]") ", "
		CONFIG_OK(OPT("BPF_SYSCALL", "demo-bpf", "kept", "null") ","
			  OPT("PRINTK", "demo-base", "absent", "\"x\"")) ", "
		BUILD_OK ", \"verdict\": \"BOOTED\", \"scenarios\": ["
		"{ \"name\": \"boot\", \"result\": \"pass\", \"reason\": null },"
		"{ \"name\": \"bpf\", \"result\": \"pass\", \"reason\": null } ] } ]",
		"demo-bpf", bpf_sc, 2);

	/* the base group's dropped option is not this group's business */
	expect(gv, "PASS", NULL, "1 option kept, booted; passed: bpf, boot");
	assert_string_equal(str(gv, "candidate"), "x86_64-demo-bpf");
	assert_string_equal(str(gv, "group"), "demo-bpf");
	assert_string_equal(str(gv, "arch"), "x86_64");
	json_object_put(gv);
}

static void test_each_preferred_over_all(void **state)
{
	json_object *gv = decide(
		"[ { " CAND("x86_64-all", "all", "[\"a\",\"demo-bpf\"]") ", "
		CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"PANIC\", "
		"\"reason\": \"Kernel panic\" },"
		"  { " CAND("x86_64-demo-bpf", "each", "[\"demo-bpf\"]") ", "
		CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"BOOTED\", "
		"\"scenarios\": [ { \"name\": \"bpf\", \"result\": \"pass\" },"
		"{ \"name\": \"boot\", \"result\": \"pass\" } ] } ]",
		"demo-bpf", bpf_sc, 2);

	expect(gv, "PASS", NULL, "booted");
	assert_string_equal(str(gv, "candidate"), "x86_64-demo-bpf");
	json_object_put(gv);

	/* with only "all", its panic decides */
	gv = decide("[ { " CAND("x86_64-all", "all", "[\"a\",\"demo-bpf\"]") ", "
		    CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"PANIC\", "
		    "\"reason\": \"Kernel panic - not syncing: VFS\" } ]",
		    "demo-bpf", bpf_sc, 2);
	expect(gv, "FAIL", "boot", "PANIC: Kernel panic - not syncing: VFS");
	assert_string_equal(str(gv, "candidate"), "x86_64-all");
	json_object_put(gv);
}

/* A FAIL carries its candidate's reproducer; other verdicts none. */
static void test_fail_names_its_reproducer(void **state)
{
	static const char *const sc[] = { "boot" };
	const char *boots =
		"[ { \"candidate\": { \"id\": \"x86_64-b\", "
		"\"arch\": \"x86_64\", \"kind\": \"each\", "
		"\"groups\": [\"b\"], \"reproduce\": "
		"\"bootproof run --group '/a b/b.config'\" }, "
		CONFIG_OK("") ", \"build\": { \"result\": \"%s\", "
		"\"first_error\": \"x.c:1:2: error: y\" }, "
		"\"verdict\": %s, \"scenarios\": [ { \"name\": \"boot\", "
		"\"result\": \"pass\" } ] } ]";
	_cleanup_strbuf_ struct strbuf b = STRBUF_INIT;
	json_object *gv;

	strbuf_addf(&b, boots, "fail", "null");
	gv = decide(b.buf, "b", sc, 1);
	expect(gv, "FAIL", "build", "x.c:1:2: error: y");
	assert_string_equal(str(gv, "reproduce"),
			    "bootproof run --group '/a b/b.config'");
	json_object_put(gv);

	strbuf_reset(&b);
	strbuf_addf(&b, boots, "pass", "\"BOOTED\"");
	gv = decide(b.buf, "b", sc, 1);
	expect(gv, "PASS", NULL, "booted");
	assert_null(str(gv, "reproduce"));
	json_object_put(gv);

	gv = groupverdict_skip("b", "i386", NULL, "no such group");
	assert_null(str(gv, "reproduce"));
	json_object_put(gv);
}

static void test_partial_and_skip_for_dropped(void **state)
{
	static const char *const sc[] = { "bpf", "boot" };
	const char *boots =
		"[ { " CAND("x86_64-all", "all", "[\"demo-bpf\"]") ", "
		CONFIG_OK(OPT("BPF_SYSCALL", "demo-bpf", "kept", "null") ","
			  OPT("BPF_JIT", "demo-bpf", "absent",
			      "\"unmet dependency: depends on HAVE_EBPF_JIT (HAVE_EBPF_JIT=n)\"")) ", "
		BUILD_OK ", \"verdict\": \"BOOTED\", \"scenarios\": ["
		"{ \"name\": \"bpf\", \"result\": \"%s\", \"reason\": %s },"
		"{ \"name\": \"boot\", \"result\": \"pass\" } ] } ]";
	_cleanup_strbuf_ struct strbuf b = STRBUF_INIT;
	json_object *gv, *d, *s;

	strbuf_addf(&b, boots, "pass", "null");
	gv = decide(b.buf, "demo-bpf", sc, 2);
	expect(gv, "PARTIAL", NULL,
	       "1 of 2 options dropped: CONFIG_BPF_JIT (unmet dependency: "
	       "depends on HAVE_EBPF_JIT (HAVE_EBPF_JIT=n))");
	json_object_object_get_ex(gv, "dropped", &d);
	assert_int_equal(json_object_array_length(d), 1);
	assert_string_equal(str(json_object_array_get_idx(d, 0), "option"),
			    "BPF_JIT");
	json_object_put(gv);

	/* the scenario needs the dropped option: SKIP for that reason */
	strbuf_reset(&b);
	strbuf_addf(&b, boots, "skip",
		    "\"CONFIG_BPF_JIT not set (no bpf_int_jit_compile in "
		    "/proc/kallsyms)\"");
	gv = decide(b.buf, "demo-bpf", sc, 2);
	expect(gv, "SKIP", "scenario",
	       "nothing proved it: bpf skipped (CONFIG_BPF_JIT was dropped: "
	       "unmet dependency");
	json_object_object_get_ex(gv, "scenarios", &s);
	assert_string_equal(str(json_object_array_get_idx(s, 0), "result"),
			    "skip");
	assert_non_null(strstr(str(json_object_array_get_idx(s, 0), "reason"),
			       "(guest: CONFIG_BPF_JIT not set"));
	json_object_put(gv);

	/* a skip for something that was not dropped keeps its reason */
	strbuf_reset(&b);
	strbuf_addf(&b, boots, "skip", "\"CONFIG_NET not set\"");
	gv = decide(b.buf, "demo-bpf", sc, 2);
	expect(gv, "SKIP", "scenario", "bpf skipped (CONFIG_NET not set)");
	json_object_put(gv);
}

static void test_scenario_fail_and_error(void **state)
{
	static const char *const sc[] = { "userfaultfd", "boot" };
	json_object *gv = decide(
		"[ { " CAND("x86_64-u", "each", "[\"u\"]") ", " CONFIG_OK("") ", "
		BUILD_OK ", \"verdict\": \"BOOTED\", \"scenarios\": ["
		"{ \"name\": \"boot\", \"result\": \"pass\" },"
		"{ \"name\": \"userfaultfd\", \"result\": \"fail\", "
		"\"reason\": \"minor_fault\" } ] } ]",
		"u", sc, 2);

	expect(gv, "FAIL", "scenario", "scenario userfaultfd failed: minor_fault");
	json_object_put(gv);

	/* asked for, never reported */
	gv = decide("[ { " CAND("x86_64-u", "each", "[\"u\"]") ", "
		    CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"BOOTED\", "
		    "\"scenarios\": [ { \"name\": \"boot\", \"result\": "
		    "\"pass\" } ] } ]",
		    "u", sc, 2);
	expect(gv, "FAIL", "scenario", "scenario userfaultfd gave no result");
	json_object_put(gv);
}

static void test_stages(void **state)
{
	static const char *const sc[] = { "boot" };
	json_object *gv;

	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", \"config\": "
		    "{ \"result\": \"fail\", \"error\": \"make olddefconfig: "
		    "exit status 2\" }, \"build\": null, \"verdict\": null } ]",
		    "g", sc, 1);
	expect(gv, "FAIL", "config", "config stage failed: make olddefconfig");
	json_object_put(gv);

	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    CONFIG_OK("") ", \"build\": { \"result\": \"fail\", "
		    "\"reason\": \"make bzImage: exit status 2\", "
		    "\"first_error\": \"init/main.c:1:2: error: boom\" }, "
		    "\"verdict\": null },"
		    " { " CAND("x86_64-base", "base", "[]") ", " CONFIG_OK("") ", "
		    BUILD_OK ", \"verdict\": \"BOOTED\" } ]",
		    "g", sc, 1);
	expect(gv, "FAIL", "build", "build failed: init/main.c:1:2: error: boom");
	assert_null(strstr(str(gv, "reason"), "base alone"));
	json_object_put(gv);

	/* the base alone panics too: said */
	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"HUNG\", "
		    "\"reason\": \"no output for 300 s\" },"
		    " { " CAND("x86_64-base", "base", "[]") ", " CONFIG_OK("") ", "
		    BUILD_OK ", \"verdict\": \"PANIC\" } ]",
		    "g", sc, 1);
	expect(gv, "FAIL", "boot",
	       "HUNG: no output for 300 s (the base alone fails too: "
	       "x86_64-base)");
	json_object_put(gv);

	/* the host's fault is not the group's */
	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"INFRA\", "
		    "\"reason\": \"libvirtd unreachable\" } ]",
		    "g", sc, 1);
	expect(gv, "SKIP", "boot", "infrastructure, INFRA: libvirtd unreachable");
	json_object_put(gv);

	/* interrupted: build cancelled, boot never started */
	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    CONFIG_OK("") ", \"build\": { \"result\": \"skip\", "
		    "\"reason\": \"interrupted\" }, \"verdict\": null } ]",
		    "g", sc, 1);
	expect(gv, "SKIP", "build", "not built: interrupted");
	json_object_put(gv);
	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    "\"config\": null, \"build\": null, \"verdict\": null } ]",
		    "g", sc, 1);
	expect(gv, "SKIP", "config", "did not run");
	json_object_put(gv);
	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    CONFIG_OK("") ", " BUILD_OK ", \"verdict\": \"INCOMPLETE\" } ]",
		    "g", sc, 1);
	expect(gv, "SKIP", "boot", "did not finish");
	json_object_put(gv);

	/* a group that only names boot is proved by it */
	gv = decide("[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "
		    CONFIG_OK(OPT("X", "g", "kept", "null")) ", " BUILD_OK ", "
		    "\"verdict\": \"BOOTED\", \"scenarios\": [ { \"name\": "
		    "\"boot\", \"result\": \"pass\" } ] } ]",
		    "g", sc, 1);
	expect(gv, "PASS", NULL, "1 option kept, booted; passed: boot");
	json_object_put(gv);
}

static void test_not_in_plan_or_arch(void **state)
{
	static const char *const sc[] = { "kgdb", "boot" };
	static const char plan_text[] =
		"arch x86_64\nbase tinyconfig\nscenarios boot\n";
	_cleanup_plan_ struct plan *plan = NULL;
	json_object *b = parse(
		"[ { " CAND("x86_64-k", "each", "[\"k\"]") ", " CONFIG_OK("") ", "
		BUILD_OK ", \"verdict\": \"BOOTED\", \"scenarios\": ["
		"{ \"name\": \"boot\", \"result\": \"pass\" } ] } ]");
	struct groupverdict_group g = {
		.name = "k", .arch = "x86_64", .scenarios = sc, .n_scenarios = 2,
	};
	json_object *gv;

	assert_int_equal(plan_parse("t.plan", plan_text, sizeof(plan_text) - 1,
				    &plan, NULL), 0);
	g.plan = plan;
	gv = groupverdict_decide(b, &g);

	expect(gv, "SKIP", "scenario",
	       "nothing proved it: kgdb skipped (not in the plan's scenarios)");
	json_object_put(gv);

	g.arch = "i386";
	gv = groupverdict_decide(b, &g);
	expect(gv, "SKIP", NULL, "no candidate of the plan has k on i386");
	assert_null(str(gv, "candidate"));
	json_object_put(gv);
	gv = groupverdict_decide(NULL, &g);
	expect(gv, "SKIP", NULL, "no candidate");
	json_object_put(gv);
	json_object_put(b);

	gv = groupverdict_skip("drivers", "x86_64", NULL, "no x86_64 group");
	expect(gv, "SKIP", NULL, "no x86_64 group");
	json_object_put(gv);
}

/* The same kernel booted again (samples): a later boot that failed
 * fails the group, a later boot that booted says the failure comes and
 * goes; the host's fault and an interrupted boot are not the kernel's. */
static void test_samples(void **state)
{
	static const char *const sc[] = { "boot" };
	json_object *gv;

#define SAMPLED(first, verdicts)                                               \
	"[ { " CAND("x86_64-g", "each", "[\"g\"]") ", "                        \
	CONFIG_OK(OPT("X", "g", "kept", "null")) ", " BUILD_OK ", "            \
	"\"verdict\": \"" first "\", \"reason\": \"why\", \"scenarios\": "    \
	"[ { \"name\": \"boot\", \"result\": \"pass\" } ], "                 \
	"\"samples\": { \"n\": 3, \"verdicts\": " verdicts ", "               \
	"\"consoles\": [\"g/console.log\", \"g/boot2-console.log\", "         \
	"\"g/boot3-console.log\"] } } ]"

	gv = decide(SAMPLED("BOOTED", "[\"BOOTED\", \"HUNG\", \"BOOTED\"]"),
		    "g", sc, 1);
	expect(gv, "FAIL", "boot",
	       "boot 2 of 3: HUNG (g/boot2-console.log); the first boot "
	       "BOOTED: it fails intermittently");
	json_object_put(gv);
	gv = decide(SAMPLED("BOOTED", "[\"BOOTED\", \"INFRA\", null]"),
		    "g", sc, 1);
	expect(gv, "PASS", NULL, "booted; passed: boot");
	json_object_put(gv);
	gv = decide(SAMPLED("BOOTED", "[\"BOOTED\", \"BOOTED\", \"BOOTED\"]"),
		    "g", sc, 1);
	expect(gv, "PASS", NULL, "booted; passed: boot");
	json_object_put(gv);
	gv = decide(SAMPLED("PANIC", "[\"PANIC\", \"PANIC\", \"BOOTED\"]"),
		    "g", sc, 1);
	expect(gv, "FAIL", "boot",
	       "PANIC: why; boot 3 of 3 BOOTED: it fails intermittently");
	json_object_put(gv);
	gv = decide(SAMPLED("PANIC", "[\"PANIC\", \"BOOTED\", \"BOOTED\"]"),
		    "g", sc, 1);
	expect(gv, "FAIL", "boot", "; boots 2, 3 of 3 BOOTED");
	json_object_put(gv);
	gv = decide(SAMPLED("PANIC", "[\"PANIC\", \"PANIC\", \"PANIC\"]"),
		    "g", sc, 1);
	expect(gv, "FAIL", "boot", "PANIC: why");
	assert_null(strstr(str(gv, "reason"), "intermittently"));
	json_object_put(gv);
#undef SAMPLED
}

static void test_names(void **state)
{
	enum groupverdict v;
	json_object *o = parse("{ \"verdict\": \"MAYBE\" }");

	assert_int_equal(groupverdict_of(o, &v), -EINVAL);
	json_object_put(o);
	assert_string_equal(groupverdict_name(GROUPVERDICT_PARTIAL), "PARTIAL");
	assert_string_equal(groupverdict_name((enum groupverdict)9), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_each_preferred_over_all),
		cmocka_unit_test(test_fail_names_its_reproducer),
		cmocka_unit_test(test_partial_and_skip_for_dropped),
		cmocka_unit_test(test_scenario_fail_and_error),
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_not_in_plan_or_arch),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
