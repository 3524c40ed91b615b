// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "core/ktap.h"
#include "util/strbuf.h"

/* ------------------------------------------------------------ helpers */

/* Events as text, one per line: "DONE 1 suite/case fail". */
struct recorder {
	struct strbuf log;
	size_t done_top; /* DONE events of top-level tests */
};

static void record(void *userdata, const struct ktap_event *ev)
{
	struct recorder *rec = userdata;
	static const char *const names[] = {
		[KTAP_EV_DOC_START] = "DOC",
		[KTAP_EV_TEST_START] = "START",
		[KTAP_EV_TEST_DONE] = "DONE",
		[KTAP_EV_BAIL_OUT] = "BAIL",
	};

	strbuf_addf(&rec->log, "%s", names[ev->type]);
	if (ev->test) {
		strbuf_addf(&rec->log, " %u ", ev->test->depth);
		ktap_test_path(ev->test, &rec->log);
		if (ev->type == KTAP_EV_TEST_DONE)
			strbuf_addf(&rec->log, " %s",
				    ktap_status_name(ev->test->status));
		if (ev->type == KTAP_EV_TEST_DONE && ev->test->depth == 1)
			rec->done_top++;
	}
	if (ev->reason)
		strbuf_addf(&rec->log, " '%s'", ev->reason);
	strbuf_addch(&rec->log, '\n');
}

static struct ktap *parse_with(const char *text,
			       const struct ktap_limits *lim,
			       struct recorder *rec, bool finish)
{
	struct ktap *k = ktap_new(lim, rec ? record : NULL, rec);

	assert_non_null(k);
	assert_true(ktap_feed_text(k, text, strlen(text)) >= 0);
	if (finish)
		assert_int_equal(ktap_finish(k), 0);
	return k;
}

static struct ktap *parse(const char *text)
{
	return parse_with(text, NULL, NULL, true);
}

static const struct ktap_test *find(const struct ktap *k, const char *path)
{
	const struct ktap_test *t = ktap_test_find(ktap_root(k), path);

	if (!t)
		fail_msg("no test '%s'", path);
	return t;
}

static void assert_test(const struct ktap *k, const char *path,
			enum ktap_status st, unsigned long number)
{
	const struct ktap_test *t = find(k, path);

	if (t->status != st)
		fail_msg("%s: status %s, expected %s", path,
			 ktap_status_name(t->status), ktap_status_name(st));
	assert_int_equal(t->number, number);
}

static void assert_totals(const struct ktap_test *t, size_t pass,
			  size_t failed, size_t skip, size_t xfail,
			  size_t errors)
{
	struct ktap_totals tot;

	ktap_test_totals(t, &tot);
	assert_int_equal(tot.passed, pass);
	assert_int_equal(tot.failed, failed);
	assert_int_equal(tot.skipped, skip);
	assert_int_equal(tot.xfailed, xfail);
	assert_int_equal(tot.errors, errors);
	assert_int_equal(tot.pending, 0);
}

static void read_data(const char *name, struct strbuf *sb)
{
	_cleanup_free_ char *path = NULL;

	assert_true(asprintf(&path, "%s/ktap/%s", TEST_DATA, name) > 0);
	if (strbuf_read_file(sb, path, 16 << 20) < 0)
		fail_msg("cannot read %s", path);
}

/* ------------------------------------------------------------ basics */

static void test_flat(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..3\n"
					      "ok 1 first\n"
					      "not ok 2 second\n"
					      "ok 3 third one\n");
	const struct ktap_test *root = ktap_root(k);
	const struct ktap_stats *st = ktap_get_stats(k);

	assert_int_equal(root->n_children, 3);
	assert_true(root->plan_seen);
	assert_int_equal(root->plan, 3);
	assert_test(k, "first", KTAP_PASS, 1);
	assert_test(k, "second", KTAP_FAIL, 2);
	assert_test(k, "third one", KTAP_PASS, 3);
	assert_true(find(k, "first")->ok);
	assert_false(find(k, "second")->ok);
	assert_int_equal(find(k, "second")->line, 4);
	assert_totals(root, 2, 1, 0, 0, 0);
	assert_int_equal(root->status, KTAP_FAIL);
	assert_int_equal(st->lines, 5);
	assert_int_equal(st->ktap_lines, 5);
	assert_int_equal(st->unrelated, 0);
	assert_int_equal(st->documents, 1);
	assert_true(st->complete);
	assert_int_equal(st->misnumbered, 0);
}

static void test_tap_versions_and_dash(void **state)
{
	_cleanup_ktap_ struct ktap *k13 = parse("TAP version 13\n1..2\n"
						"ok 1 - with dash\n"
						"ok - no number\n");
	_cleanup_ktap_ struct ktap *k14 = parse("TAP version 14\n"
						"ok\nnot ok\n1..2\n");

	assert_test(k13, "with dash", KTAP_PASS, 1);
	assert_test(k13, "no number", KTAP_PASS, 2);
	assert_true(ktap_get_stats(k13)->complete);
	/* No names, implied numbers, trailing plan (TAP allows it). */
	assert_int_equal(ktap_root(k14)->n_children, 2);
	assert_int_equal(ktap_root(k14)->children[1]->number, 2);
	assert_int_equal(ktap_root(k14)->children[1]->status, KTAP_FAIL);
	assert_string_equal(ktap_root(k14)->children[1]->name, "");
	assert_true(ktap_get_stats(k14)->complete);
	assert_int_equal(ktap_get_stats(k14)->misnumbered, 0);
}

static void test_directives(void **state)
{
	_cleanup_ktap_ struct ktap *k =
		parse("KTAP version 1\n"
		      "1..10\n"
		      "ok 1 a # SKIP necessary dependency unavailable\n"
		      "not ok 2 b # skip lower case\n"
		      "ok 3 c # SKIPPED: long form\n"
		      "not ok 4 d # TODO not written yet\n"
		      "ok 5 e # XFAIL\n"
		      "not ok 6 f # TIMEOUT 30 seconds\n"
		      "not ok 7 g # ERROR cannot allocate\n"
		      "ok 8 check return code # rcode=0\n"
		      "ok 9 skipper#SKIP\n"
		      "ok 10 name \\# not a directive\n");

	assert_test(k, "a", KTAP_SKIP, 1);
	assert_int_equal(find(k, "a")->directive, KTAP_DIR_SKIP);
	assert_string_equal(find(k, "a")->reason,
			    "necessary dependency unavailable");
	assert_test(k, "b", KTAP_SKIP, 2);
	assert_false(find(k, "b")->ok);
	assert_string_equal(find(k, "b")->reason, "lower case");
	assert_test(k, "c", KTAP_SKIP, 3);
	assert_string_equal(find(k, "c")->reason, "long form");
	assert_test(k, "d", KTAP_XFAIL, 4);
	assert_int_equal(find(k, "d")->directive, KTAP_DIR_TODO);
	assert_test(k, "e", KTAP_XFAIL, 5);
	assert_null(find(k, "e")->reason);
	assert_test(k, "f", KTAP_FAIL, 6);
	assert_int_equal(find(k, "f")->directive, KTAP_DIR_TIMEOUT);
	assert_string_equal(find(k, "f")->reason, "30 seconds");
	assert_test(k, "g", KTAP_ERROR, 7);
	/* Unknown directive: falls back to ok, text is diagnostic data. */
	assert_test(k, "check return code", KTAP_PASS, 8);
	assert_int_equal(find(k, "check return code")->n_diags, 1);
	assert_string_equal(find(k, "check return code")->diags[0],
			    "rcode=0");
	assert_null(find(k, "check return code")->reason);
	/* '#' inside a word is part of the name; "\#" is escaped. */
	assert_test(k, "skipper#SKIP", KTAP_PASS, 9);
	assert_test(k, "name # not a directive", KTAP_PASS, 10);
	assert_totals(ktap_root(k), 3, 1, 3, 2, 1);
	assert_int_equal(ktap_root(k)->status, KTAP_ERROR);
	assert_string_equal(ktap_directive_name(KTAP_DIR_TIMEOUT), "TIMEOUT");
}

static void test_diagnostics(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "# before the plan\n"
					      "1..2\n"
					      "# about one\n"
					      "#   indented text\n"
					      "ok 1 one\n"
					      "#\n"
					      "not ok 2 two\n"
					      "# trailing\n");
	const struct ktap_test *one = find(k, "one"), *two = find(k, "two");
	const struct ktap_test *root = ktap_root(k);

	assert_int_equal(one->n_diags, 2);
	assert_string_equal(one->diags[0], "about one");
	assert_string_equal(one->diags[1], "indented text");
	assert_int_equal(two->n_diags, 1);
	assert_string_equal(two->diags[0], "");
	/* In the header, or with nothing after: the document's own. */
	assert_int_equal(root->n_diags, 2);
	assert_string_equal(root->diags[0], "before the plan");
	assert_string_equal(root->diags[1], "trailing");
}

static void test_nested_kunit(void **state)
{
	/* What lib/kunit/test.c prints, parameterised case included. */
	struct recorder rec = { STRBUF_INIT, 0 };
	_cleanup_ktap_ struct ktap *k = parse_with(
		"KTAP version 1\n"
		"1..2\n"
		"    KTAP version 1\n"
		"    # Subtest: suite-a\n"
		"    # module: mod_a\n"
		"    1..3\n"
		"    ok 1 case_one\n"
		"    # case_two: EXPECTATION FAILED at lib/a.c:12\n"
		"    Expected x == 2, but\n"
		"        x == 1 (0x1)\n"
		"    not ok 2 case_two\n"
		"        KTAP version 1\n"
		"        # Subtest: case_param\n"
		"        ok 1 param-0\n"
		"        ok 2 param-1 # SKIP not today\n"
		"    # case_param: pass:1 fail:0 skip:1 total:2\n"
		"    ok 3 case_param\n"
		"# suite-a: pass:2 fail:1 skip:0 total:3\n"
		"# Totals: pass:2 fail:1 skip:1 total:4\n"
		"not ok 1 suite-a\n"
		"    KTAP version 1\n"
		"    # Subtest: suite-b\n"
		"    1..1\n"
		"    ok 1 only\n"
		"ok 2 suite-b\n",
		NULL, &rec, true);
	const struct ktap_test *a = find(k, "suite-a");
	const struct ktap_test *two = find(k, "suite-a/case_two");

	assert_test(k, "suite-a", KTAP_FAIL, 1);
	assert_int_equal(a->n_children, 3);
	assert_true(a->plan_seen);
	assert_int_equal(a->plan, 3);
	assert_int_equal(a->depth, 1);
	assert_test(k, "suite-a/case_one", KTAP_PASS, 1);
	assert_test(k, "suite-a/case_two", KTAP_FAIL, 2);
	assert_int_equal(two->depth, 2);
	/* The assertion report, continuation lines included. */
	assert_int_equal(two->n_diags, 3);
	assert_string_equal(two->diags[0],
			    "case_two: EXPECTATION FAILED at lib/a.c:12");
	assert_string_equal(two->diags[1], "Expected x == 2, but");
	assert_string_equal(two->diags[2], "    x == 1 (0x1)");
	assert_test(k, "suite-a/case_param", KTAP_PASS, 3);
	assert_false(find(k, "suite-a/case_param")->plan_seen);
	assert_test(k, "suite-a/case_param/param-0", KTAP_PASS, 1);
	assert_test(k, "suite-a/case_param/param-1", KTAP_SKIP, 2);
	assert_int_equal(find(k, "suite-a/case_param/param-1")->depth, 3);
	assert_string_equal(find(k, "suite-a/case_param")->diags[0],
			    "case_param: pass:1 fail:0 skip:1 total:2");
	/* Module attribute, then the suite's stats lines. */
	assert_int_equal(a->n_diags, 3);
	assert_string_equal(a->diags[0], "module: mod_a");
	assert_string_equal(a->diags[2], "Totals: pass:2 fail:1 skip:1 total:4");
	assert_test(k, "suite-b/only", KTAP_PASS, 1);
	/* Leaves, like KUnit's own "Totals". */
	assert_totals(a, 2, 1, 1, 0, 0);
	assert_totals(ktap_root(k), 3, 1, 1, 0, 0);
	assert_true(ktap_get_stats(k)->complete);
	assert_int_equal(ktap_get_stats(k)->unrelated, 0);
	assert_int_equal(rec.done_top, 2);
	assert_string_equal(rec.log.buf,
			    "DOC\n"
			    "START 1 suite-a\n"
			    "DONE 2 suite-a/case_one pass\n"
			    "DONE 2 suite-a/case_two fail\n"
			    "START 2 suite-a/case_param\n"
			    "DONE 3 suite-a/case_param/param-0 pass\n"
			    "DONE 3 suite-a/case_param/param-1 skip\n"
			    "DONE 2 suite-a/case_param pass\n"
			    "DONE 1 suite-a fail\n"
			    "START 1 suite-b\n"
			    "DONE 2 suite-b/only pass\n"
			    "DONE 1 suite-b pass\n");
	strbuf_release(&rec.log);
}

static void test_kunit_param_messages(void **state)
{
	/*
	 * KUnit prints a parameterised case's messages at the case's level
	 * (4 spaces) between its parameters' results (8 spaces).
	 */
	_cleanup_ktap_ struct ktap *k = parse(
		"KTAP version 1\n"
		"1..1\n"
		"    KTAP version 1\n"
		"    # Subtest: suite\n"
		"    1..1\n"
		"        KTAP version 1\n"
		"        # Subtest: case\n"
		"    # case: initializing\n"
		"        ok 1 param-0\n"
		"    # case: EXPECTATION FAILED at lib/x.c:10\n"
		"    Expected a == b, but\n"
		"        a == 1\n"
		"        not ok 2 param-1\n"
		"        ok 3 param-2\n"
		"    # case.speed: slow\n"
		"    # case: pass:2 fail:1 skip:0 total:3\n"
		"    not ok 1 case\n"
		"not ok 1 suite\n");
	const struct ktap_test *p1 = find(k, "suite/case/param-1");
	const struct ktap_test *c = find(k, "suite/case");

	assert_int_equal(c->n_children, 3);
	/* Right after the parameters' header, and less indented. */
	assert_int_equal(find(k, "suite/case/param-0")->n_diags, 1);
	assert_string_equal(find(k, "suite/case/param-0")->diags[0],
			    "case: initializing");
	assert_test(k, "suite/case/param-1", KTAP_FAIL, 2);
	assert_int_equal(p1->n_diags, 3);
	assert_string_equal(p1->diags[0],
			    "case: EXPECTATION FAILED at lib/x.c:10");
	assert_string_equal(p1->diags[2], "    a == 1");
	assert_test(k, "suite/case/param-2", KTAP_PASS, 3);
	assert_test(k, "suite/case", KTAP_FAIL, 1);
	assert_int_equal(c->n_diags, 2);
	assert_string_equal(c->diags[0], "case.speed: slow");
	assert_int_equal(ktap_get_stats(k)->incomplete, 0);
	assert_true(ktap_get_stats(k)->complete);
	assert_totals(ktap_root(k), 2, 1, 0, 0, 0);
}

static void test_tap14_subtests(void **state)
{
	/* "# Subtest:" at the parent's level, and inside the child block. */
	_cleanup_ktap_ struct ktap *k = parse("TAP version 14\n"
					      "1..2\n"
					      "# Subtest: foo.tap\n"
					      "    1..2\n"
					      "    ok 1\n"
					      "    ok 2 - this passed\n"
					      "ok 1 - foo.tap\n"
					      "    # Subtest: bar.tap\n"
					      "    1..1\n"
					      "    not ok 1 - bar is bar\n"
					      "not ok 2 - bar.tap\n");

	assert_test(k, "foo.tap", KTAP_PASS, 1);
	assert_int_equal(find(k, "foo.tap")->n_children, 2);
	assert_test(k, "foo.tap/this passed", KTAP_PASS, 2);
	assert_test(k, "bar.tap/bar is bar", KTAP_FAIL, 1);
	assert_test(k, "bar.tap", KTAP_FAIL, 2);
	assert_true(ktap_get_stats(k)->complete);
}

static void test_two_space_indent_and_headerless(void **state)
{
	/* Nesting is by indentation of any width; a block may lack a
	 * header. */
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..1\n"
					      "  1..2\n"
					      "  ok 1 x\n"
					      "      ok 1 deep\n"
					      "  ok 2 y\n"
					      "ok 1 parent\n");

	assert_test(k, "parent", KTAP_PASS, 1);
	assert_test(k, "parent/x", KTAP_PASS, 1);
	assert_test(k, "parent/y/deep", KTAP_PASS, 1);
	assert_test(k, "parent/y", KTAP_PASS, 2);
	assert_true(ktap_get_stats(k)->complete);
}

static void test_numbering(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..4\n"
					      "ok 2 b\n"
					      "ok 1 a\n"
					      "ok 4 d\n");
	const struct ktap_test *root = ktap_root(k);
	const struct ktap_stats *st = ktap_get_stats(k);

	/* Kept as printed, in output order. */
	assert_test(k, "b", KTAP_PASS, 2);
	assert_test(k, "a", KTAP_PASS, 1);
	assert_string_equal(root->children[0]->name, "b");
	assert_int_equal(st->misnumbered, 3);
	/* 3 never reported: a placeholder after the others. */
	assert_int_equal(root->n_children, 4);
	assert_int_equal(root->children[3]->number, 3);
	assert_int_equal(root->children[3]->status, KTAP_ERROR);
	assert_string_equal(root->children[3]->name, "");
	assert_string_equal(root->children[3]->reason, "missing");
	assert_true(root->children[3]->incomplete);
	assert_int_equal(st->missing, 1);
	assert_false(st->complete);
	assert_true(root->incomplete);
	assert_int_equal(root->status, KTAP_ERROR);
}

static void test_extra_and_duplicate_plan(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..1\n"
					      "1..5\n"
					      "ok 1 a\n"
					      "ok 2 b\n");
	const struct ktap_stats *st = ktap_get_stats(k);

	assert_int_equal(ktap_root(k)->plan, 1);
	assert_int_equal(st->malformed, 1);
	assert_int_equal(st->extra, 1);
	assert_int_equal(st->missing, 0);
	assert_int_equal(st->lines, st->ktap_lines + st->unrelated +
					    st->malformed);
}

static void test_crash_midway(void **state)
{
	/* The kernel died in the middle of suite-b's second case. */
	struct recorder rec = { STRBUF_INIT, 0 };
	_cleanup_ktap_ struct ktap *k = parse_with(
		"KTAP version 1\n"
		"1..3\n"
		"    KTAP version 1\n"
		"    # Subtest: suite-a\n"
		"    1..1\n"
		"    ok 1 a1\n"
		"ok 1 suite-a\n"
		"    KTAP version 1\n"
		"    # Subtest: suite-b\n"
		"    1..3\n"
		"    ok 1 b1\n"
		"BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
		"Kernel panic - not syncing: Fatal exception\n",
		NULL, &rec, false);
	const struct ktap_test *root = ktap_root(k);
	const struct ktap_test *b;
	const struct ktap_stats *st = ktap_get_stats(k);

	/* Live view before the end: suite-b is running. */
	b = find(k, "suite-b");
	assert_int_equal(b->status, KTAP_PENDING);
	assert_int_equal(rec.done_top, 1);

	assert_int_equal(ktap_finish(k), 0);
	assert_int_equal(ktap_finish(k), 0); /* idempotent */
	assert_int_equal(b->status, KTAP_ERROR);
	assert_true(b->incomplete);
	assert_false(b->has_result);
	assert_string_equal(b->reason, "no result line");
	assert_int_equal(b->n_children, 3);
	assert_test(k, "suite-b/b1", KTAP_PASS, 1);
	assert_int_equal(b->children[1]->number, 2);
	assert_string_equal(b->children[1]->reason, "missing");
	assert_int_equal(b->children[2]->number, 3);
	/* suite 3 never started. */
	assert_int_equal(root->n_children, 3);
	assert_int_equal(root->children[2]->number, 3);
	assert_int_equal(root->children[2]->status, KTAP_ERROR);
	assert_int_equal(st->missing, 3);
	assert_int_equal(st->incomplete, 1);
	assert_int_equal(st->unrelated, 2);
	assert_false(st->complete);
	assert_int_equal(root->status, KTAP_ERROR);
	assert_totals(root, 2, 0, 0, 0, 3);
	/* The consumer learnt about every top-level test. */
	assert_int_equal(rec.done_top, 3);
	assert_non_null(strstr(rec.log.buf,
			       "DONE 2 suite-b/ error\n"
			       "DONE 2 suite-b/ error\n"
			       "DONE 1 suite-b error\n"
			       "DONE 1  error\n"));
	assert_int_equal(ktap_feed_line(k, "ok 4 late", 9), -EINVAL);
	strbuf_release(&rec.log);
}

static void test_sibling_without_result(void **state)
{
	/* A subtest block starts while the previous one got no result. */
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..2\n"
					      "    KTAP version 1\n"
					      "    # Subtest: lost\n"
					      "    1..1\n"
					      "    ok 1 x\n"
					      "    KTAP version 1\n"
					      "    # Subtest: next\n"
					      "    1..1\n"
					      "    ok 1 y\n"
					      "ok 2 next\n");

	assert_test(k, "lost", KTAP_ERROR, 1);
	assert_true(find(k, "lost")->incomplete);
	assert_test(k, "lost/x", KTAP_PASS, 1);
	assert_test(k, "next", KTAP_PASS, 2);
	assert_int_equal(ktap_get_stats(k)->incomplete, 1);
	assert_false(ktap_get_stats(k)->complete);
}

static void test_bail_out(void **state)
{
	struct recorder rec = { STRBUF_INIT, 0 };
	_cleanup_ktap_ struct ktap *k = parse_with("TAP version 13\n"
						   "1..3\n"
						   "ok 1 a\n"
						   "Bail out! no disk\n"
						   "ok 2 b\n",
						   NULL, &rec, true);
	const struct ktap_stats *st = ktap_get_stats(k);

	assert_true(st->bailed_out);
	assert_string_equal(st->bail_reason, "no disk");
	/* Lines after a bail out are outside any document. */
	assert_int_equal(st->unrelated, 1);
	assert_int_equal(st->missing, 2);
	assert_int_equal(ktap_root(k)->status, KTAP_ERROR);
	assert_false(st->complete);
	assert_non_null(strstr(rec.log.buf, "BAIL 'no disk'\n"));
	strbuf_release(&rec.log);
}

static void test_unrelated_and_prefixes(void **state)
{
	_cleanup_ktap_ struct ktap *k =
		parse("[    0.000000] Linux version 6.12.0 (gcc)\n"
		      "ok 1 not yet a document\n"
		      "# neither\n"
		      "<6>[    0.912345] KTAP version 1\n"
		      "[    0.912346][    T1] 1..2\n"
		      "[    0.912400] random: crng init done\r\n"
		      "[    0.912401]     KTAP version 1\n"
		      "[    0.912402]     # Subtest: s\n"
		      "[    0.912403] ACPI: something unrelated\n"
		      "[    0.912404]     1..1\n"
		      " ? some_function+0x12/0x40\n"
		      "[    0.912405]     ok 1 c\n"
		      "okay, not a result\n"
		      "[    0.912406] ok 1 s\n"
		      "[    0.912407] ok 2 t   \t\r\n"
		      "[    1.000000] Run /init as init process\n");
	const struct ktap_stats *st = ktap_get_stats(k);

	assert_test(k, "s/c", KTAP_PASS, 1);
	assert_test(k, "s", KTAP_PASS, 1);
	assert_test(k, "t", KTAP_PASS, 2);
	assert_int_equal(st->lines, 16);
	assert_int_equal(st->ktap_lines, 8);
	assert_int_equal(st->unrelated, 8);
	assert_true(st->complete);
}

static void test_yaml(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("TAP version 13\n"
					      "1..2\n"
					      "not ok 1 - first line valid\n"
					      "  ---\n"
					      "  message: 'First line invalid'\n"
					      "  data:\n"
					      "    got: 'Flirble'\n"
					      "  ...\n"
					      "ok 2 - rest\n");
	const struct ktap_test *t = find(k, "first line valid");

	assert_int_equal(t->n_diags, 3);
	assert_string_equal(t->diags[0], "  message: 'First line invalid'");
	assert_string_equal(t->diags[2], "    got: 'Flirble'");
	assert_test(k, "rest", KTAP_PASS, 2);
	assert_int_equal(ktap_get_stats(k)->unrelated, 0);
	assert_true(ktap_get_stats(k)->complete);
}

static void test_multiple_documents(void **state)
{
	/* Built-in tests, then a module's: numbering restarts. */
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..1\n"
					      "ok 1 builtin\n"
					      "some kernel message\n"
					      "KTAP version 1\n"
					      "1..2\n"
					      "ok 1 mod1\n"
					      "ok 2 mod2\n");
	const struct ktap_test *root = ktap_root(k);

	assert_int_equal(ktap_get_stats(k)->documents, 2);
	assert_int_equal(root->n_children, 3);
	assert_int_equal(root->plan, 3);
	assert_test(k, "mod1", KTAP_PASS, 1);
	assert_int_equal(ktap_get_stats(k)->misnumbered, 0);
	assert_true(ktap_get_stats(k)->complete);
}

static void test_find(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..3\n"
					      "    # Subtest: bpf\n"
					      "    1..2\n"
					      "    ok 1 map\n"
					      "    ok 2 map_update\n"
					      "ok 1 bpf\n"
					      "ok 2 a/b\n"
					      "    1..1\n"
					      "    ok 1 c\n"
					      "ok 3 a\n");
	const struct ktap_test *root = ktap_root(k);
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	assert_string_equal(find(k, "bpf/map_update")->name, "map_update");
	assert_ptr_equal(ktap_test_find(root, ""), root);
	assert_null(ktap_test_find(root, "bpf/map_upd"));
	assert_null(ktap_test_find(root, "bpf/map_update/x"));
	assert_null(ktap_test_find(root, "nope"));
	assert_null(ktap_test_find(NULL, "bpf"));
	/* A name with '/' and a prefix of it as a name. */
	assert_int_equal(find(k, "a/b")->number, 2);
	assert_string_equal(find(k, "a/c")->name, "c");
	ktap_test_path(find(k, "bpf/map"), &sb);
	assert_string_equal(sb.buf, "bpf/map");
}

/* A path ending in '/' names a test whose name ends so, not its parent
 * (found by fuzzing: tests/fuzz/regress/ktap/find-trailing-slash). */
static void test_find_trailing_slash(void **state)
{
	_cleanup_ktap_ struct ktap *k = parse("KTAP version 1\n"
					      "1..2\n"
					      "ok 1 boot\n"
					      "ok 2 boot/\n");
	const struct ktap_test *root = ktap_root(k);

	assert_int_equal(ktap_test_find(root, "boot/")->number, 2);
	assert_int_equal(ktap_test_find(root, "boot")->number, 1);
	assert_null(ktap_test_find(root, "bpf/"));
}

/* ------------------------------------------------------------ hostile */

static void test_no_ktap_and_header_only(void **state)
{
	_cleanup_ktap_ struct ktap *none = parse("Linux version 6.12\n"
						 "reboot: Power down\n");
	_cleanup_ktap_ struct ktap *hdr = parse("KTAP version 1\n");
	_cleanup_ktap_ struct ktap *empty = parse("");

	assert_int_equal(ktap_get_stats(none)->documents, 0);
	assert_int_equal(ktap_get_stats(none)->unrelated, 2);
	assert_false(ktap_get_stats(none)->complete);
	assert_int_equal(ktap_root(none)->status, KTAP_SKIP);
	assert_string_equal(ktap_root(none)->reason, "no KTAP output");

	assert_int_equal(ktap_get_stats(hdr)->documents, 1);
	assert_true(ktap_root(hdr)->incomplete);
	assert_false(ktap_get_stats(hdr)->complete);
	assert_int_equal(ktap_root(hdr)->status, KTAP_ERROR);

	assert_int_equal(ktap_get_stats(empty)->lines, 0);
	assert_false(ktap_get_stats(empty)->complete);
}

/*
 * The kernel writes its messages to the serial console between any two
 * bytes of the agent's: a message spliced into the agent's version line
 * (as seen in a CI run of tests/integration/agent-distro.sh) leaves the
 * plan as the first line the parser recognises.  It starts the document,
 * so nothing after it is lost; so does a plan with no version line at all.
 */
static void test_plan_without_version(void **state)
{
	_cleanup_ktap_ struct ktap *spliced = parse(
		"KTAP ver[    9.987521] random: crng init done\n"
		"sion 1\n"
		"1..2\n"
		"    KTAP version 1\n"
		"    1..1\n"
		"    ok 1 inner\n"
		"ok 1 a\n"
		"ok 2 b # SKIP not here\n");
	_cleanup_ktap_ struct ktap *bare = parse("1..1\nnot ok 1 c\n");

	assert_int_equal(ktap_get_stats(spliced)->documents, 1);
	assert_true(ktap_get_stats(spliced)->complete);
	assert_int_equal(ktap_root(spliced)->status, KTAP_PASS);
	assert_test(spliced, "a", KTAP_PASS, 1);
	assert_test(spliced, "a/inner", KTAP_PASS, 1);
	assert_test(spliced, "b", KTAP_SKIP, 2);
	assert_totals(ktap_root(spliced), 1, 0, 1, 0, 0);

	assert_int_equal(ktap_get_stats(bare)->documents, 1);
	assert_test(bare, "c", KTAP_FAIL, 1);
	assert_int_equal(ktap_root(bare)->status, KTAP_FAIL);
}

static void test_plan_zero_and_bad_plans(void **state)
{
	_cleanup_ktap_ struct ktap *zero = parse("KTAP version 1\n1..0\n");
	_cleanup_ktap_ struct ktap *skip =
		parse("TAP version 13\n1..0 # SKIP no tests here\n");
	_cleanup_ktap_ struct ktap *bad = parse("KTAP version 1\n"
						"1..\n"
						"1..x\n"
						"1..3junk\n"
						"1..99999999999999999999999\n"
						"ok 1 a\n");

	assert_true(ktap_get_stats(zero)->complete);
	assert_int_equal(ktap_root(zero)->n_children, 0);
	assert_int_equal(ktap_root(zero)->status, KTAP_SKIP);
	assert_true(ktap_get_stats(skip)->complete);
	assert_int_equal(ktap_root(skip)->directive, KTAP_DIR_SKIP);
	assert_string_equal(ktap_root(skip)->reason, "no tests here");

	assert_int_equal(ktap_get_stats(bad)->malformed, 4);
	assert_false(ktap_root(bad)->plan_seen);
	assert_test(bad, "a", KTAP_PASS, 1);
	assert_true(ktap_get_stats(bad)->complete);
}

static void test_huge_numbers(void **state)
{
	struct ktap_limits lim = { .max_tests = 100 };
	_cleanup_ktap_ struct ktap *k =
		parse_with("KTAP version 1\n"
			   "1..18446744073709551615\n"
			   "ok 99999999999999999999999999 overflow\n"
			   "ok 18446744073709551615 max\n",
			   &lim, NULL, true);
	const struct ktap_test *root = ktap_root(k);
	const struct ktap_stats *st = ktap_get_stats(k);

	assert_int_equal(root->plan, ULONG_MAX);
	/* An overflowing number is taken as absent: implied 1. */
	assert_test(k, "overflow", KTAP_PASS, 1);
	assert_test(k, "max", KTAP_PASS, ULONG_MAX);
	assert_int_equal(st->misnumbered, 2);
	/* Counted exactly, kept within max_tests. */
	assert_int_equal(st->missing, ULONG_MAX - 2);
	assert_int_equal(root->n_children, 100);
	assert_int_equal(root->children[2]->number, 2);
	assert_int_equal(root->children[99]->number, 99);
}

static void test_deep_nesting(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct ktap_limits lim = { .max_depth = 8 };
	_cleanup_ktap_ struct ktap *k = NULL;
	const struct ktap_test *t;
	unsigned levels = 0;

	strbuf_addstr(&sb, "KTAP version 1\n1..1\n");
	for (int i = 1; i <= 200; i++)
		strbuf_addf(&sb, "%*sKTAP version 1\n%*s1..1\n", i * 2, "",
			    i * 2, "");
	for (int i = 200; i >= 1; i--)
		strbuf_addf(&sb, "%*sok 1 level%d\n", i * 2, "", i);
	strbuf_addstr(&sb, "ok 1 top\n");
	k = parse_with(sb.buf, &lim, NULL, true);

	for (t = find(k, "top"); t->n_children; t = t->children[0])
		levels++;
	/* The root block and 7 nested ones. */
	assert_int_equal(levels, 7);
	assert_int_equal(ktap_get_stats(k)->dropped_tests, 193);
	assert_test(k, "top", KTAP_PASS, 1);
	assert_int_equal(find(k, "top")->children[0]->status, KTAP_PASS);
}

static void test_limits(void **state)
{
	struct ktap_limits lim = {
		.max_line = 64,
		.max_name = 8,
		.max_tests = 5,
		.max_diags = 2,
		.max_diag_bytes = 1000,
	};
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_ktap_ struct ktap *k = NULL;
	const struct ktap_stats *st;

	strbuf_addstr(&sb, "KTAP version 1\n1..10\n");
	strbuf_addstr(&sb, "# d1\n# d2\n# d3\n");
	strbuf_addstr(&sb, "ok 1 a_very_long_test_name\n");
	for (int i = 2; i <= 10; i++)
		strbuf_addf(&sb, "ok %d t%d\n", i, i);
	strbuf_addstr(&sb, "# ");
	for (int i = 0; i < 100; i++)
		strbuf_addstr(&sb, "xyz");
	strbuf_addch(&sb, '\n');
	k = parse_with(sb.buf, &lim, NULL, true);
	st = ktap_get_stats(k);

	assert_int_equal(ktap_root(k)->n_children, 5);
	assert_int_equal(st->dropped_tests, 5);
	/* Dropped results are not reported missing as well. */
	assert_int_equal(st->missing, 0);
	assert_string_equal(ktap_root(k)->children[0]->name, "a_very_l");
	assert_int_equal(ktap_root(k)->children[0]->n_diags, 2);
	assert_int_equal(ktap_root(k)->children[0]->dropped_diags, 1);
	assert_int_equal(st->dropped_diags, 1);
	/* The 302-byte line was cut to 64: 62 bytes of diagnostic. */
	assert_int_equal(ktap_root(k)->n_diags, 1);
	assert_int_equal(strlen(ktap_root(k)->diags[0]), 62);
	assert_int_equal(st->truncated, 2);
}

static void test_diag_byte_budget(void **state)
{
	struct ktap_limits lim = { .max_diag_bytes = 100, .max_diags = 1000 };
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_ktap_ struct ktap *k = NULL;

	strbuf_addstr(&sb, "KTAP version 1\n1..1\n");
	for (int i = 0; i < 50; i++)
		strbuf_addstr(&sb, "# 123456789\n"); /* 10 bytes kept each */
	strbuf_addstr(&sb, "ok 1 a\n");
	k = parse_with(sb.buf, &lim, NULL, true);
	assert_int_equal(find(k, "a")->n_diags, 10);
	assert_int_equal(ktap_get_stats(k)->dropped_diags, 40);
}

static void test_unterminated_yaml(void **state)
{
	/* A "---" that never ends must not swallow the rest. */
	_cleanup_ktap_ struct ktap *k = parse("TAP version 13\n"
					      "1..2\n"
					      "not ok 1 a\n"
					      "---\n"
					      "garbage: 1\n"
					      "ok 2 b\n");

	assert_test(k, "b", KTAP_PASS, 2);
	assert_int_equal(find(k, "a")->n_diags, 1);
	assert_true(ktap_get_stats(k)->complete);
}

static void test_garbage(void **state)
{
	_cleanup_ktap_ struct ktap *k = ktap_new(NULL, NULL, NULL);
	const struct ktap_stats *st;
	unsigned seed = 12345;
	char line[300];

	assert_non_null(k);
	assert_int_equal(ktap_feed_line(k, "KTAP version 1", 14), 1);
	for (int i = 0; i < 20000; i++) {
		size_t n = (seed = seed * 1103515245 + 12345) % sizeof(line);

		for (size_t j = 0; j < n; j++) {
			seed = seed * 1103515245 + 12345;
			line[j] = (char)(seed >> 16);
		}
		/* Sprinkle KTAP-ish starts and indentation in. */
		if (i % 7 == 0 && n > 8)
			memcpy(line, i % 2 ? "not ok " : "    ok ", 7);
		if (i % 11 == 0 && n > 4)
			memcpy(line, "1..", 3);
		assert_true(ktap_feed_line(k, line, n) >= 0);
	}
	assert_int_equal(ktap_finish(k), 0);
	st = ktap_get_stats(k);
	assert_int_equal(st->lines, 20001);
	assert_int_equal(st->lines,
			 st->ktap_lines + st->unrelated + st->malformed);
	assert_int_equal(ktap_feed_line(NULL, "x", 1), -EINVAL);
	assert_int_equal(ktap_feed_line(k, NULL, 1), -EINVAL);
}

static void test_embedded_nul(void **state)
{
	_cleanup_ktap_ struct ktap *k = ktap_new(NULL, NULL, NULL);

	assert_int_equal(ktap_feed_line(k, "KTAP version 1", 14), 1);
	assert_int_equal(ktap_feed_line(k, "ok 1 a\0b", 8), 1);
	assert_int_equal(ktap_finish(k), 0);
	assert_string_equal(ktap_root(k)->children[0]->name, "a");
}

/* ------------------------------------------------------------ golden */

/* kunit.py's JSON has no XFAIL: a TODO/XFAIL "ok" is PASS, else FAIL. */
static const char *kunit_status(const struct ktap_test *t)
{
	switch (t->status) {
	case KTAP_PASS:
		return "PASS";
	case KTAP_SKIP:
		return "SKIP";
	case KTAP_ERROR:
		return "ERROR";
	case KTAP_XFAIL:
		return t->ok ? "PASS" : "FAIL";
	default:
		return "FAIL";
	}
}

/*
 * Compare our tree with the JSON kunit.py wrote for the same log: groups
 * are tests with subtests, test_cases the leaves, each in order.
 */
static void compare_kunit_json(const struct ktap_test *t, json_object *group,
			       const char *where, size_t *n_cases)
{
	json_object *groups, *cases;
	size_t gi = 0, ci = 0;

	assert_true(json_object_object_get_ex(group, "sub_groups", &groups));
	assert_true(json_object_object_get_ex(group, "test_cases", &cases));
	for (size_t i = 0; i < t->n_children; i++) {
		const struct ktap_test *c = t->children[i];
		json_object *o, *name;

		if (c->n_children) {
			if (gi >= json_object_array_length(groups))
				fail_msg("%s: group '%s' not in kunit.py", where,
					 c->name);
			o = json_object_array_get_idx(groups, gi++);
			assert_true(json_object_object_get_ex(o, "name", &name));
			if (strcmp(json_object_get_string(name), c->name))
				fail_msg("%s: group '%s', kunit.py '%s'", where,
					 c->name, json_object_get_string(name));
			compare_kunit_json(c, o, c->name, n_cases);
		} else {
			json_object *st;

			if (ci >= json_object_array_length(cases))
				fail_msg("%s: case '%s' not in kunit.py", where,
					 c->name);
			o = json_object_array_get_idx(cases, ci++);
			assert_true(json_object_object_get_ex(o, "name", &name));
			assert_true(json_object_object_get_ex(o, "status", &st));
			if (strcmp(json_object_get_string(name), c->name) ||
			    strcmp(json_object_get_string(st), kunit_status(c)))
				fail_msg("%s: case '%s' %s, kunit.py '%s' %s",
					 where, c->name, kunit_status(c),
					 json_object_get_string(name),
					 json_object_get_string(st));
			(*n_cases)++;
		}
	}
	if (gi != json_object_array_length(groups) ||
	    ci != json_object_array_length(cases))
		fail_msg("%s: kunit.py has more groups or cases", where);
}

/* Compare k's tree with tests/data/ktap/NAME.kunit.json. */
static void compare_with_kunit_py(const struct ktap *k, const char *name,
				  size_t *n_cases)
{
	_cleanup_strbuf_ struct strbuf js = STRBUF_INIT;
	_cleanup_free_ char *jsname = NULL;
	json_object *o;

	assert_true(asprintf(&jsname, "%s.kunit.json", name) > 0);
	read_data(jsname, &js);
	o = json_tokener_parse(js.buf);
	assert_non_null(o);
	*n_cases = 0;
	compare_kunit_json(ktap_root(k), o, name, n_cases);
	json_object_put(o);
}

/* Parse tests/data/ktap/NAME.log, compare with NAME.kunit.json. */
static struct ktap *golden(const char *name, size_t *n_cases)
{
	_cleanup_strbuf_ struct strbuf log = STRBUF_INIT;
	_cleanup_free_ char *logname = NULL;
	struct ktap *k;

	assert_true(asprintf(&logname, "%s.log", name) > 0);
	read_data(logname, &log);
	k = parse(log.buf);
	compare_with_kunit_py(k, name, n_cases);
	return k;
}

static void test_golden_ktap_rst(void **state)
{
	size_t n;
	_cleanup_ktap_ struct ktap *k1 = golden("ktap-rst-nested", &n);
	_cleanup_ktap_ struct ktap *k2 = NULL, *k3 = NULL;
	const struct ktap_test *t;

	/* "An example of a test with two nested subtests" */
	assert_int_equal(n, 2);
	assert_test(k1, "example", KTAP_FAIL, 1);
	assert_string_equal(find(k1, "example")->diags[0], "example failed");
	assert_test(k1, "example/test_2", KTAP_FAIL, 2);
	assert_true(ktap_get_stats(k1)->complete);

	/* "multiple levels of nested testing" */
	k2 = golden("ktap-rst-multilevel", &n);
	assert_int_equal(n, 4);
	assert_test(k2, "example_test_1/test_3/test_1", KTAP_FAIL, 1);
	assert_test(k2, "example_test_1/test_4", KTAP_SKIP, 2);
	assert_test(k2, "example_test_2", KTAP_PASS, 2);
	assert_true(ktap_get_stats(k2)->complete);

	/* "Example KTAP output", checked against the prose under it. */
	k3 = golden("ktap-rst-example", &n);
	assert_int_equal(n, 6);
	t = find(k3, "main_test");
	assert_int_equal(t->status, KTAP_FAIL);
	assert_int_equal(t->n_children, 3);
	assert_test(k3, "main_test/example_test_1", KTAP_PASS, 1);
	assert_test(k3, "main_test/example_test_1/test_1", KTAP_PASS, 1);
	assert_string_equal(find(k3, "main_test/example_test_1/test_1")->diags[0],
			    "test_1: initializing test_1");
	assert_test(k3, "main_test/example_test_2", KTAP_PASS, 2);
	assert_test(k3, "main_test/example_test_2/test_1", KTAP_SKIP, 1);
	assert_string_equal(find(k3, "main_test/example_test_2/test_1")->reason,
			    "test_1 skipped");
	assert_test(k3, "main_test/example_test_2/test_2", KTAP_PASS, 2);
	assert_test(k3, "main_test/example_test_3", KTAP_FAIL, 3);
	assert_test(k3, "main_test/example_test_3/test_1", KTAP_PASS, 1);
	assert_test(k3, "main_test/example_test_3/test_2", KTAP_FAIL, 2);
	assert_string_equal(find(k3, "main_test/example_test_3/test_2")->diags[0],
			    "test_2: FAIL");
	assert_test(k3, "main_test/example_test_3/test_3", KTAP_SKIP, 3);
	assert_totals(ktap_root(k3), 3, 1, 2, 0, 0);
	assert_true(ktap_get_stats(k3)->complete);
}

/*
 * KUnit prints its own counts before each suite's result line:
 * "# Totals: pass:P fail:F skip:S total:T" (leaves, parameters included;
 * only when T > 1).  Check ours against them.
 */
static size_t check_kunit_totals(const struct ktap *k)
{
	const struct ktap_test *root = ktap_root(k);
	size_t checked = 0;

	for (size_t i = 0; i < root->n_children; i++) {
		const struct ktap_test *s = root->children[i];
		struct ktap_totals tot;

		ktap_test_totals(s, &tot);
		for (size_t j = 0; j < s->n_diags; j++) {
			unsigned long p, f, sk, total;

			if (sscanf(s->diags[j],
				   "Totals: pass:%lu fail:%lu skip:%lu total:%lu",
				   &p, &f, &sk, &total) != 4)
				continue;
			if (tot.passed != p || tot.failed != f ||
			    tot.skipped != sk ||
			    tot.passed + tot.failed + tot.skipped +
					    tot.errors != total)
				fail_msg("%s: ours %zu/%zu/%zu/%zu, KUnit %s",
					 s->name, tot.passed, tot.failed,
					 tot.skipped, tot.errors, s->diags[j]);
			checked++;
		}
	}
	return checked;
}

static void check_case_messages(const struct ktap_test *t)
{
	for (size_t i = 0; i < t->n_diags; i++) {
		const char *d = t->diags[i];
		const struct ktap_test *case_;
		size_t n;

		if (t->depth < 2 || strstr(d, ": pass:"))
			continue;
		/* Its case: the test itself, or its parent for a parameter.
		 * "case: message" or an attribute, "case.speed: slow". */
		case_ = t->n_children || t->depth == 2 ? t : t->parent;
		n = strlen(case_->name);
		if (strncmp(d, case_->name, n) || (d[n] != ':' && d[n] != '.'))
			fail_msg("'%s' attached to '%s'", d, t->name);
		/* A parameterised case's messages come from a parameter's run;
		 * only its attributes and stats are its own. */
		if (t->n_children && d[n] == ':')
			fail_msg("'%s' attached to '%s', not a parameter", d,
				 t->name);
	}
	for (size_t i = 0; i < t->n_children; i++)
		check_case_messages(t->children[i]);
}

static void test_golden_kunit(void **state)
{
	size_t n;
	_cleanup_ktap_ struct ktap *k = golden("kunit-x86_64", &n);
	const struct ktap_stats *st = ktap_get_stats(k);
	const struct ktap_test *root = ktap_root(k);

	assert_true(n > 20);
	assert_int_equal(st->documents, 1);
	assert_true(st->complete);
	assert_true(root->plan_seen);
	assert_int_equal(root->n_children, root->plan);
	/* A real console: kernel messages all around the results. */
	assert_true(st->unrelated > 50);
	assert_true(check_kunit_totals(k) >= 2);
	/*
	 * Each case's own "# case: ..." messages, parameters included, are
	 * attached to it (KUnit prints them at the case level, 4 spaces).
	 */
	check_case_messages(root);
}

static void test_golden_kunit_cut(void **state)
{
	/*
	 * The same log cut off right after the first result of the second
	 * suite, as if the guest had died there; record.sh cut it the same
	 * way for kunit.py.
	 */
	_cleanup_strbuf_ struct strbuf log = STRBUF_INIT;
	_cleanup_ktap_ struct ktap *full = NULL, *cut = NULL;
	struct recorder rec = { STRBUF_INIT, 0 };
	const struct ktap_test *fs, *s, *root;
	struct ktap_totals tot;
	const char *p;
	size_t nl = 0, n;

	read_data("kunit-x86_64.log", &log);
	full = parse(log.buf);
	assert_true(ktap_root(full)->n_children >= 3);
	fs = ktap_root(full)->children[1];
	assert_true(fs->n_children >= 2);
	for (p = log.buf; nl < fs->children[0]->line; p++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		nl++;
	}
	cut = ktap_new(NULL, record, &rec);
	assert_non_null(cut);
	assert_true(ktap_feed_text(cut, log.buf, (size_t)(p - log.buf)) > 0);
	assert_int_equal(rec.done_top, 1);
	assert_int_equal(ktap_finish(cut), 0);
	root = ktap_root(cut);

	assert_false(ktap_get_stats(cut)->complete);
	assert_int_equal(root->status, KTAP_ERROR);
	s = root->children[1];
	assert_string_equal(s->name, fs->name);
	assert_int_equal(s->status, KTAP_ERROR);
	assert_true(s->incomplete);
	assert_string_equal(s->reason, "no result line");
	assert_int_equal(s->children[0]->status, fs->children[0]->status);
	/* Every planned test is accounted for, as missing if need be. */
	assert_int_equal(s->n_children, s->plan);
	assert_int_equal(s->children[1]->status, KTAP_ERROR);
	assert_string_equal(s->children[1]->reason, "missing");
	assert_int_equal(root->n_children, ktap_root(full)->plan);
	assert_int_equal(ktap_get_stats(cut)->missing,
			 (ktap_root(full)->plan - 2) + (s->plan - 1));
	assert_int_equal(ktap_get_stats(cut)->incomplete, 1);
	/* And the live consumer heard of each top-level test. */
	assert_int_equal(rec.done_top, root->n_children);
	/* kunit.py: the same tree, crashed tests as ERROR. */
	compare_with_kunit_py(cut, "kunit-x86_64-cut", &n);
	ktap_test_totals(root, &tot);
	assert_int_equal(n, tot.passed + tot.skipped + tot.errors);
	assert_int_equal(tot.errors, ktap_get_stats(cut)->missing);
	strbuf_release(&rec.log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_tap_versions_and_dash),
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_diagnostics),
		cmocka_unit_test(test_nested_kunit),
		cmocka_unit_test(test_kunit_param_messages),
		cmocka_unit_test(test_tap14_subtests),
		cmocka_unit_test(test_two_space_indent_and_headerless),
		cmocka_unit_test(test_numbering),
		cmocka_unit_test(test_extra_and_duplicate_plan),
		cmocka_unit_test(test_crash_midway),
		cmocka_unit_test(test_sibling_without_result),
		cmocka_unit_test(test_bail_out),
		cmocka_unit_test(test_unrelated_and_prefixes),
		cmocka_unit_test(test_yaml),
		cmocka_unit_test(test_multiple_documents),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_find_trailing_slash),
		cmocka_unit_test(test_no_ktap_and_header_only),
		cmocka_unit_test(test_plan_zero_and_bad_plans),
		cmocka_unit_test(test_huge_numbers),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_diag_byte_budget),
		cmocka_unit_test(test_unterminated_yaml),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_plan_without_version),
		cmocka_unit_test(test_golden_ktap_rst),
		cmocka_unit_test(test_golden_kunit),
		cmocka_unit_test(test_golden_kunit_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
