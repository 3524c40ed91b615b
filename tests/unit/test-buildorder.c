// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "core/buildorder.h"
#include "core/kconfig.h"
#include "util/strbuf.h"

static struct kconfig *cfg(const char *text)
{
	struct kconfig *kc = NULL;
	struct kconfig_error err = KCONFIG_ERROR_INIT;

	assert_int_equal(kconfig_new(&kc), 0);
	assert_true(kconfig_parse(kc, "t", text, strlen(text), &err) >= 0);
	kconfig_error_done(&err);
	return kc;
}

static void test_global_options(void **state)
{
	(void)state;
	assert_true(buildorder_global_option("UBSAN"));
	assert_true(buildorder_global_option("UBSAN_BOUNDS"));
	assert_true(buildorder_global_option("KASAN_GENERIC"));
	assert_true(buildorder_global_option("FUNCTION_TRACER"));
	assert_true(buildorder_global_option("DEBUG_INFO_DWARF5"));
	assert_true(buildorder_global_option("SMP"));
	assert_true(buildorder_global_option("PREEMPT_DYNAMIC"));
	/* exact names are not prefixes */
	assert_false(buildorder_global_option("SMPX"));
	assert_false(buildorder_global_option("FUNCTION_TRACER_X"));
	assert_false(buildorder_global_option("BPF_SYSCALL"));
	assert_false(buildorder_global_option("KGDB_TESTS"));
	assert_false(buildorder_global_option(""));
	assert_false(buildorder_global_option(NULL));
}

static void test_signature(void **state)
{
	struct kconfig *a = cfg("CONFIG_FOO=y\nCONFIG_UBSAN=y\n"
				"# CONFIG_KASAN is not set\nCONFIG_SMP=y\n"
				"CONFIG_NR_CPUS=64\n");
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	buildorder_signature(a, &sb);
	assert_string_equal(sb.buf, "CONFIG_UBSAN=y CONFIG_SMP=y CONFIG_NR_CPUS=64");
	strbuf_release(&sb);
	kconfig_free(a);
}

static void test_distance(void **state)
{
	struct kconfig *a = cfg("CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\n"
				"CONFIG_N=4\n");
	struct kconfig *b = cfg("CONFIG_A=y\nCONFIG_B=y\nCONFIG_N=4\n"
				"CONFIG_D=y\n");
	struct kconfig *c = cfg("CONFIG_A=y\nCONFIG_B=m\nCONFIG_N=4\n");

	(void)state;
	/* B differs, D only in b; C is n on one side, absent on the other */
	assert_int_equal(buildorder_distance(a, b), 2);
	assert_int_equal(buildorder_distance(b, a), 2);
	assert_int_equal(buildorder_distance(a, c), 0);
	assert_int_equal(buildorder_distance(a, a), 0);
	kconfig_free(a);
	kconfig_free(b);
	kconfig_free(c);
}

/* The shape of a seed matrix: base, groups that add drivers, a group that
 * turns a sanitizer on, and all. */
static void test_flag_groups_together(void **state)
{
	struct kconfig *base = cfg("CONFIG_SMP=y\nCONFIG_A=y\n");
	struct kconfig *g1 = cfg("CONFIG_SMP=y\nCONFIG_A=y\nCONFIG_X=y\n");
	struct kconfig *dbg = cfg("CONFIG_SMP=y\nCONFIG_A=y\nCONFIG_UBSAN=y\n"
				  "CONFIG_KGDB=y\n");
	struct kconfig *g2 = cfg("CONFIG_SMP=y\nCONFIG_A=y\nCONFIG_Y=y\n"
				 "CONFIG_Z=y\n");
	struct kconfig *all = cfg("CONFIG_SMP=y\nCONFIG_A=y\nCONFIG_X=y\n"
				  "CONFIG_UBSAN=y\nCONFIG_KGDB=y\nCONFIG_Y=y\n"
				  "CONFIG_Z=y\n");
	const struct buildorder_item it[] = {
		{ "x86_64", base, true }, { "x86_64", g1, false },
		{ "x86_64", dbg, false }, { "x86_64", g2, false },
		{ "x86_64", all, false },
	};
	size_t order[5];

	(void)state;
	buildorder_plan(it, 5, order);
	/* base, then its class nearest first (g1: 1 away, g2: 2), then the
	 * UBSAN class: dbg (plan order on a tie), then all */
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 3);
	assert_int_equal(order[3], 2);
	assert_int_equal(order[4], 4);
	kconfig_free(base);
	kconfig_free(g1);
	kconfig_free(dbg);
	kconfig_free(g2);
	kconfig_free(all);
}

/* Nearest inside a class follows the last one built, not the base. */
static void test_nearest_chain(void **state)
{
	struct kconfig *base = cfg("CONFIG_A=y\n");
	struct kconfig *far = cfg("CONFIG_A=y\nCONFIG_P=y\nCONFIG_Q=y\n"
				  "CONFIG_R=y\n");
	struct kconfig *mid = cfg("CONFIG_A=y\nCONFIG_P=y\nCONFIG_Q=y\n");
	struct kconfig *near = cfg("CONFIG_A=y\nCONFIG_P=y\n");
	const struct buildorder_item it[] = {
		{ "x86_64", far, false }, { "x86_64", mid, false },
		{ "x86_64", base, true }, { "x86_64", near, false },
	};
	size_t order[4];

	(void)state;
	buildorder_plan(it, 4, order);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 1);
	assert_int_equal(order[3], 0);
	kconfig_free(base);
	kconfig_free(far);
	kconfig_free(mid);
	kconfig_free(near);
}

/* Arches stay together in the order they first appear; candidates
 * without a final config come last in their arch, in plan order. */
static void test_arches_and_missing(void **state)
{
	struct kconfig *a = cfg("CONFIG_A=y\n");
	struct kconfig *b = cfg("CONFIG_A=y\nCONFIG_KASAN=y\n");
	const struct buildorder_item it[] = {
		{ "i386", NULL, false },    { "x86_64", a, true },
		{ "i386", b, false },       { "x86_64", NULL, false },
		{ "i386", a, true },        { "x86_64", b, false },
	};
	size_t order[6];

	(void)state;
	buildorder_plan(it, 6, order);
	assert_int_equal(order[0], 4);	/* i386 base */
	assert_int_equal(order[1], 2);
	assert_int_equal(order[2], 0);	/* i386 without config */
	assert_int_equal(order[3], 1);	/* x86_64 base */
	assert_int_equal(order[4], 5);
	assert_int_equal(order[5], 3);
	kconfig_free(a);
	kconfig_free(b);
}

/* Without a base, the first candidate with a config starts; the classes
 * follow by how many global options differ. */
static void test_no_base(void **state)
{
	struct kconfig *u = cfg("CONFIG_UBSAN=y\nCONFIG_KASAN=y\n");
	struct kconfig *p = cfg("CONFIG_A=y\n");
	struct kconfig *k = cfg("CONFIG_KASAN=y\n");
	const struct buildorder_item it[] = {
		{ "x86_64", p, false }, { "x86_64", u, false },
		{ "x86_64", k, false },
	};
	size_t order[3];

	(void)state;
	buildorder_plan(it, 3, order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);	/* one global option away */
	assert_int_equal(order[2], 1);
	kconfig_free(u);
	kconfig_free(p);
	kconfig_free(k);
}

static void test_empty(void **state)
{
	size_t order[1] = { 7 };

	(void)state;
	buildorder_plan(NULL, 0, order);
	assert_int_equal(order[0], 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global_options),
		cmocka_unit_test(test_signature),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_flag_groups_together),
		cmocka_unit_test(test_nearest_chain),
		cmocka_unit_test(test_arches_and_missing),
		cmocka_unit_test(test_no_base),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
