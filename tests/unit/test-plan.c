// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/plan.h"
#include "util/strbuf.h"

static int parse_file(const char *path, struct plan **ret, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	assert_true(strbuf_read_file(&sb, path, 0) >= 0);
	return plan_parse(path, sb.buf, sb.len, ret, err);
}

static int parse_data(const char *name, struct plan **ret, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/plan/%s", TEST_DATA, name);
	return parse_file(p.buf, ret, err);
}

static int parse_str(const char *s, struct plan **ret, struct strbuf *err)
{
	return plan_parse("x.plan", s, strlen(s), ret, err);
}

static void test_good(void **state)
{
	_cleanup_plan_ struct plan *p = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(parse_data("good.plan", &p, &err), 0);
	assert_string_equal(p->name, "good-one");
	assert_int_equal(p->n_arches, 2);
	assert_string_equal(p->arches[0], "x86_64");
	assert_string_equal(p->arches[1], "i386");
	/* the arch's own base wins over the plain one */
	assert_string_equal(plan_base(p, "x86_64")->value,
			    "tinyconfig+kvm_guest.config");
	assert_string_equal(plan_base(p, "i386")->value, "i386_defconfig");
	assert_int_equal(plan_base(p, "i386")->line, 5);
	assert_int_equal(p->n_base_groups, 1);
	assert_string_equal(p->base_groups[0].value, "demo-base");
	assert_null(p->base_groups[0].arch);
	assert_int_equal(p->n_groups, 4);
	assert_string_equal(p->groups[1].value, "demo-cgroups");
	assert_int_equal(p->groups[1].line, 7);
	assert_string_equal(p->groups[2].value,
			    "../groups/x86_64/test-panic.config");
	assert_string_equal(p->groups[2].arch, "x86_64");
	assert_true(plan_item_for(&p->groups[2], "x86_64"));
	assert_false(plan_item_for(&p->groups[2], "i386"));
	assert_string_equal(p->groups[3].value, "drivers");
	assert_string_equal(p->groups[3].arch, "i386");
	assert_true(plan_item_for(&p->groups[0], "i386"));
	assert_int_equal(p->candidates, PLAN_CAND_BASE | PLAN_CAND_ALL);
	assert_int_equal(p->n_scenarios, 3);
	assert_true(plan_allows_scenario(p, "cgroups"));
	assert_false(plan_allows_scenario(p, "kgdb"));
	assert_int_equal(p->timeout_s, 600);
}

static void test_defaults(void **state)
{
	_cleanup_plan_ struct plan *p = NULL;

	assert_int_equal(parse_data("minimal.plan", &p, NULL), 0);
	assert_string_equal(p->name, "minimal");	/* from the file */
	assert_int_equal(p->candidates,
			 PLAN_CAND_BASE | PLAN_CAND_EACH | PLAN_CAND_ALL);
	assert_null(p->scenarios);
	assert_true(plan_allows_scenario(p, "kgdb"));
	assert_int_equal(p->timeout_s, 0);
	assert_int_equal(p->n_groups, 0);
}

struct bad {
	const char *file;
	const char *message;
};

static void test_errors_name_file_and_line(void **state)
{
	static const struct bad bad[] = {
		{ "no-arch.plan", "/plan/no-arch.plan: no 'arch' line" },
		{ "no-base-i386.plan", "/plan/no-base-i386.plan: no 'base' for i386" },
		{ "bad-scenario.plan", "/plan/bad-scenario.plan:4: unknown scenario 'network'" },
		{ "bad-candidates.plan", "/plan/bad-candidates.plan:3: unknown candidates 'every'" },
		{ "bad-key.plan", "/plan/bad-key.plan:4: unknown directive 'grup'" },
		{ "bad-arch.plan", "/plan/bad-arch.plan:1: unknown arch 'arm64'" },
		{ "bad-group.plan", "/plan/bad-group.plan:3: group: 'Bad_Name' is neither" },
		{ "bad-timeout.plan", "/plan/bad-timeout.plan:3: timeout: expected seconds" },
		{ "twice-arch.plan", "/plan/twice-arch.plan:2: arch given twice (first at line 1)" },
		{ "bad-base.plan", "/plan/bad-base.plan:2: base: expected one base" },
		{ "bad-prefix.plan", "/plan/bad-prefix.plan:3: unknown arch 'riscv' before ':'" },
	};

	for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
		_cleanup_plan_ struct plan *p = NULL;
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		assert_int_equal(parse_data(bad[i].file, &p, &err), -EINVAL);
		assert_null(p);
		if (!strstr(err.buf, bad[i].message))
			fail_msg("%s: got '%s', expected '%s'", bad[i].file,
				 err.buf, bad[i].message);
		/* the path as given comes first */
		assert_non_null(strstr(err.buf, TEST_DATA));
	}
}

static void test_line_forms(void **state)
{
	_cleanup_plan_ struct plan *p = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	/* comments anywhere, CRLF, tabs, "ARCH:" glued or apart, no final
	 * newline */
	assert_int_equal(parse_str("#c\r\n\tarch\ti386 # x\r\n"
				   "i386 : base tinyconfig\r\n"
				   "i386:group a b#c\n"
				   "group ./x.config",
				   &p, &err),
			 -EINVAL);
	/* "i386 :" is not a prefix: 'i386' is not a directive */
	assert_non_null(strstr(err.buf, "x.plan:3: unknown directive 'i386'"));
	plan_free(p);
	p = NULL;
	assert_int_equal(parse_str("#c\r\n\tarch\ti386 # x\r\n"
				   "i386: base tinyconfig\r\n"
				   "i386:group a b#c\n"
				   "group ./x.config",
				   &p, &err),
			 0);
	assert_string_equal(p->name, "x");
	assert_int_equal(p->n_groups, 3);
	assert_string_equal(p->groups[1].value, "b");
	assert_string_equal(p->groups[1].arch, "i386");
	assert_string_equal(p->groups[2].value, "./x.config");
	assert_null(p->groups[2].arch);
	assert_int_equal(p->groups[2].line, 5);
}

static void test_boots(void **state)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "boots 0\n", "x.plan:3: boots: expected a count (1..20), got '0'" },
		{ "boots 21\n", "x.plan:3: boots: expected a count (1..20), got '21'" },
		{ "boots -1\n", "x.plan:3: boots: expected a count" },
		{ "boots\n", "x.plan:3: 'boots' needs a value" },
		{ "boots 2 3\n", "x.plan:3: boots: expected a count" },
		{ "boots 3\nboots 3\n", "x.plan:4: boots given twice (first at line 3)" },
		{ "x86_64: boots 3\n", "x.plan:3: 'boots' cannot be given per arch" },
	};
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct plan *p = NULL;

	assert_int_equal(parse_str("arch x86_64\nbase t\n", &p, &err), 0);
	assert_int_equal(p->boots, 0);
	plan_free(p);
	p = NULL;
	assert_int_equal(parse_str("arch x86_64\nbase t\nboots 5 # median\n",
				   &p, &err), 0);
	assert_int_equal(p->boots, 5);
	plan_free(p);
	p = NULL;
	for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

		strbuf_reset(&err);
		strbuf_addf(&text, "arch x86_64\nbase t\n%s", bad[i].line);
		assert_int_equal(parse_str(text.buf, &p, &err), -EINVAL);
		if (!strstr(err.buf, bad[i].err))
			fail_msg("%s: got '%s'", bad[i].line, err.buf);
	}
}

static void test_distcc(void **state)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "distcc\n", "x.plan:3: 'distcc' needs a value" },
		{ "distcc b1 u@b2\n", "x.plan:3: distcc: 'u@b2': ssh hosts are not "
				   "supported" },
		{ "distcc b1/0\n", "x.plan:3: distcc: 'b1/0': the limit after '/'" },
		{ "i386: distcc b1\n", "x.plan:3: 'distcc' cannot be given per arch" },
	};
	const char *args[] = { "10.0.0.1/2" }, *badargs[] = { "b1,cpp" };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct plan *p = NULL;

	assert_int_equal(parse_str("arch x86_64\nbase t\n", &p, &err), 0);
	assert_int_equal(p->n_distcc, 0);
	plan_free(p);
	p = NULL;
	assert_int_equal(parse_str("arch x86_64\nbase t\ndistcc b1/2 b2:4000\n"
				   "distcc localhost # here too\n", &p, &err), 0);
	assert_int_equal(p->n_distcc, 3);
	assert_string_equal(p->distcc[0], "b1/2");
	assert_string_equal(p->distcc[1], "b2:4000");
	assert_string_equal(p->distcc[2], "localhost");
	assert_false(p->distcc_from_args);
	assert_int_equal(plan_set_distcc(p, badargs, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--distcc 'b1,cpp': the only option is ,lzo"));
	assert_int_equal(p->n_distcc, 3);	/* unchanged */
	assert_int_equal(plan_set_distcc(p, args, 1, &err), 0);
	assert_int_equal(p->n_distcc, 1);
	assert_string_equal(p->distcc[0], "10.0.0.1/2");
	assert_true(p->distcc_from_args);
	plan_free(p);
	p = NULL;
	for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

		strbuf_reset(&err);
		strbuf_addf(&text, "arch x86_64 i386\nbase t\n%s", bad[i].line);
		assert_int_equal(parse_str(text.buf, &p, &err), -EINVAL);
		if (!strstr(err.buf, bad[i].err))
			fail_msg("%s: got '%s'", bad[i].line, err.buf);
	}
}

static void test_per_arch_restrictions(void **state)
{
	_cleanup_plan_ struct plan *p = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	assert_int_equal(parse_str("x86_64: arch x86_64\n", &p, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "x.plan:1: 'arch' cannot be given per arch"));
	assert_int_equal(parse_str("arch x86_64\nbase t\nx86_64: timeout 3\n",
				   &p, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "x.plan:3: 'timeout' cannot"));
	assert_int_equal(parse_str("arch x86_64\nbase t\nx86_64:\n", &p, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "x.plan:3: 'x86_64:' with no directive"));
	assert_int_equal(parse_str("arch x86_64\nbase\n", &p, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "x.plan:2: 'base' needs a value"));
	assert_int_equal(parse_str("arch x86_64\nbase t\n\0group x\n", &p, &err),
			 0); /* strlen stops at the NUL */
	plan_free(p);
	p = NULL;
	assert_int_equal(plan_parse("x.plan", "arch x86_64\nbase t\0\n", 20, &p,
				    &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "x.plan:2: NUL byte"));
}

static void test_command_line_overrides(void **state)
{
	_cleanup_plan_ struct plan *p = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	const char *arches[] = { "i386" }, *bad[] = { "sparc" };
	const char *groups[] = { "bpf", "/tmp/mine.config" };
	const char *badg[] = { "BPF" };

	assert_int_equal(parse_data("good.plan", &p, &err), 0);
	assert_int_equal(plan_set_arches(p, bad, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--arch: unknown arch 'sparc'"));
	assert_int_equal(p->n_arches, 2);	/* unchanged */
	assert_int_equal(plan_set_arches(p, arches, 1, &err), 0);
	assert_int_equal(p->n_arches, 1);
	assert_string_equal(p->arches[0], "i386");
	assert_int_equal(plan_set_groups(p, badg, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--group: 'BPF' is neither"));
	assert_int_equal(p->n_groups, 4);
	assert_int_equal(plan_set_groups(p, groups, 2, &err), 0);
	assert_int_equal(p->n_groups, 2);
	assert_null(p->groups[1].arch);
	assert_string_equal(p->groups[1].value, "/tmp/mine.config");

	/* an arch the plan has no base for */
	plan_free(p);
	p = NULL;
	assert_int_equal(parse_str("arch x86_64\nx86_64: base t\n", &p, &err), 0);
	assert_int_equal(plan_set_arches(p, arches, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "x.plan: no 'base' for i386"));
}

/* The plans the project ships parse. */
/* --base, --base-group and --candidates: what a reproducer says. */
static void test_base_and_candidates_overrides(void **state)
{
	_cleanup_plan_ struct plan *p = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	const char *arches[] = { "i386" };
	const char *bg[] = { "/src/my base/demo-base.config", "extra" };
	const char *badg[] = { "Base" };
	const char *each[] = { "each" }, *two[] = { "base", "all" };
	const char *badk[] = { "most" };

	/* an arch without a base of its own gets the one given */
	assert_int_equal(parse_str("arch x86_64\nx86_64: base t\n"
				   "base-group demo-base\ncandidates all\n",
				   &p, &err), 0);
	assert_false(p->base_from_args || p->base_groups_from_args ||
		     p->candidates_from_args);
	assert_int_equal(plan_set_base(p, "", &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--base: an empty base"));
	assert_int_equal(plan_set_base(p, "tinyconfig+kvm_guest.config", &err),
			 0);
	assert_true(p->base_from_args);
	assert_string_equal(plan_base(p, "x86_64")->value,
			    "tinyconfig+kvm_guest.config");
	assert_int_equal(plan_set_arches(p, arches, 1, &err), 0);
	assert_string_equal(plan_base(p, "i386")->value,
			    "tinyconfig+kvm_guest.config");

	assert_int_equal(plan_set_base_groups(p, badg, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--base-group: 'Base' is neither"));
	assert_int_equal(p->n_base_groups, 1);	/* unchanged */
	assert_int_equal(plan_set_base_groups(p, bg, 2, &err), 0);
	assert_int_equal(p->n_base_groups, 2);
	assert_string_equal(p->base_groups[0].value,
			    "/src/my base/demo-base.config");
	assert_null(p->base_groups[1].arch);
	/* none at all is a replacement too */
	assert_int_equal(plan_set_base_groups(p, NULL, 0, &err), 0);
	assert_int_equal(p->n_base_groups, 0);
	assert_true(p->base_groups_from_args);

	assert_int_equal(plan_set_candidates(p, badk, 1, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--candidates: unknown candidates "
					"'most'"));
	assert_int_equal(plan_set_candidates(p, NULL, 0, &err), -EINVAL);
	assert_int_equal(p->candidates, PLAN_CAND_ALL);	/* unchanged */
	assert_int_equal(plan_set_candidates(p, each, 1, &err), 0);
	assert_int_equal(p->candidates, PLAN_CAND_EACH);
	assert_int_equal(plan_set_candidates(p, two, 2, &err), 0);
	assert_int_equal(p->candidates, PLAN_CAND_BASE | PLAN_CAND_ALL);
	assert_true(p->candidates_from_args);
}

static void test_shipped_plans(void **state)
{
	static const char *const plans[] = { "demo", "seed-x86", "test-fail",
					     "test-bisect" };

	for (size_t i = 0; i < ELEMENTSOF(plans); i++) {
		_cleanup_plan_ struct plan *p = NULL;
		_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		strbuf_addf(&path, "%s/../../scenarios/plans/%s.plan", TEST_DATA,
			    plans[i]);
		if (parse_file(path.buf, &p, &err) < 0)
			fail_msg("%s", err.buf);
		assert_string_equal(p->name, plans[i]);
	}
	{
		_cleanup_plan_ struct plan *p = NULL;
		_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/../../scenarios/plans/demo.plan",
			    TEST_DATA);
		assert_int_equal(parse_file(path.buf, &p, NULL), 0);
		assert_int_equal(p->candidates, PLAN_CAND_ALL);
		assert_int_equal(p->n_groups, 4);
		assert_int_equal(p->n_arches, 2);
	}
}

static void test_kind_names(void **state)
{
	assert_string_equal(plan_candidate_kind_name(PLAN_CAND_BASE), "base");
	assert_string_equal(plan_candidate_kind_name(PLAN_CAND_EACH), "each");
	assert_string_equal(plan_candidate_kind_name(PLAN_CAND_ALL), "all");
	assert_null(plan_candidate_kind_name(PLAN_CAND_ALL | PLAN_CAND_BASE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_line_forms),
		cmocka_unit_test(test_per_arch_restrictions),
		cmocka_unit_test(test_boots),
		cmocka_unit_test(test_distcc),
		cmocka_unit_test(test_command_line_overrides),
		cmocka_unit_test(test_base_and_candidates_overrides),
		cmocka_unit_test(test_shipped_plans),
		cmocka_unit_test(test_kind_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
