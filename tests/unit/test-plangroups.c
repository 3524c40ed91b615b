// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plan's groups loaded per arch (engine/plangroups), on a data directory
 * of its own: a group one arch lacks is left out of that arch; a group no
 * arch of the plan has is bad input naming the plan's file:line; with
 * --arch (plan_set_arches) a group of the file for an arch left out is
 * not bad input, a group no arch of the file has still is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/plan.h"
#include "engine/plangroups.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"

static char tmp[64];

static void put(const char *rel, const char *text)
{
	_cleanup_free_ char *p = path_join(tmp, rel);
	_cleanup_free_ char *dir = path_join(tmp, "scenarios/groups/x86_64");
	_cleanup_free_ char *dir32 = path_join(tmp, "scenarios/groups/i386");

	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(mkdir_p(dir32, 0755), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text), 0644), 0);
}

/* A group file with the header lines group_parse asks for. */
#define GROUP(name, arch)                                                    \
	"# group: " name "\n# arch: " arch "\n# scenarios: boot\n"          \
	"# from: test\n# summary: a test group\nCONFIG_A=y\n"

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-plangroups-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	put("scenarios/groups/x86_64/both.config", GROUP("both", "x86_64"));
	put("scenarios/groups/i386/both.config", GROUP("both", "i386"));
	put("scenarios/groups/i386/only32.config", GROUP("only32", "i386"));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(tmp);
	return 0;
}

static struct plan *plan_of(const char *text)
{
	struct plan *p = NULL;

	assert_int_equal(plan_parse("t.plan", text, strlen(text), &p, NULL), 0);
	return p;
}

/* The groups of arch a as loaded, comma-separated, into sb. */
static const char *groups_of(const struct plangroups *pg, size_t a,
			     struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < pg->arches[a].n_groups; i++)
		strbuf_addf(sb, "%s%s", i ? "," : "",
			    pg->arches[a].groups[i]->name);
	return sb->buf;
}

static void test_arch_lacks_group(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(
		"arch x86_64 i386\nbase tinyconfig\ngroup both only32\n"
		"candidates each\n");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct plangroups pg = { 0 };

	(void)state;
	if (plangroups_load(p, tmp, &pg, &err))
		fail_msg("%s", err.buf);
	assert_int_equal(pg.n_arches, 2);
	assert_string_equal(groups_of(&pg, 0, &sb), "both");
	assert_string_equal(groups_of(&pg, 1, &sb), "both,only32");
	assert_int_equal(pg.n_names, 2);
	plangroups_done(&pg);
}

static void test_no_arch_has_group(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(
		"arch x86_64 i386\nbase tinyconfig\ngroup both\n"
		"group typo\ncandidates each\n");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct plangroups pg = { 0 };

	(void)state;
	assert_int_equal(plangroups_load(p, tmp, &pg, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "t.plan:4: group typo: no such group"));
	plangroups_done(&pg);
}

/* --arch x86_64 on a plan with an i386-only group: x86_64 runs without
 * it (as in the whole plan), not bad input. */
static void test_arch_option_leaves_out(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(
		"arch x86_64 i386\nbase tinyconfig\ngroup both only32\n"
		"candidates each\n");
	const char *x86[] = { "x86_64" };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	struct plangroups pg = { 0 };

	(void)state;
	assert_int_equal(plan_set_arches(p, x86, 1, &err), 0);
	assert_int_equal(p->n_file_arches, 2);
	assert_int_equal(plangroups_load(p, tmp, &pg, &err), 0);
	assert_int_equal(pg.n_arches, 1);
	assert_string_equal(groups_of(&pg, 0, &sb), "both");
	plangroups_done(&pg);
	/* replaced twice: the file's arches are still the file's */
	assert_int_equal(plan_set_arches(p, x86, 1, &err), 0);
	assert_int_equal(p->n_file_arches, 2);
	assert_string_equal(p->file_arches[1], "i386");
}

/* ... but a group of the file no arch of the file has is still bad
 * input, and so is a --group no arch run has. */
static void test_arch_option_typo(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(
		"arch x86_64 i386\nbase tinyconfig\ngroup both typo\n"
		"candidates each\n");
	const char *x86[] = { "x86_64" }, *g[] = { "only32" };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct plangroups pg = { 0 };

	(void)state;
	assert_int_equal(plan_set_arches(p, x86, 1, &err), 0);
	assert_int_equal(plangroups_load(p, tmp, &pg, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "t.plan:3: group typo"));
	plangroups_done(&pg);
	strbuf_reset(&err);
	assert_int_equal(plan_set_groups(p, g, 1, &err), 0);
	pg = (struct plangroups){ 0 };
	assert_int_equal(plangroups_load(p, tmp, &pg, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "--group only32: no such group"));
	plangroups_done(&pg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arch_lacks_group),
		cmocka_unit_test(test_no_arch_has_group),
		cmocka_unit_test(test_arch_option_leaves_out),
		cmocka_unit_test(test_arch_option_typo),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
