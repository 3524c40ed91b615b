// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/rundiff.h"
#include "core/runread.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static json_object *load(const char *run)
{
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	json_object *doc = NULL;

	assert_true(asprintf(&path, "%s/runs/%s/run.json", TEST_DATA, run) > 0);
	assert_true(strbuf_read_file(&buf, path, 0) > 0);
	if (runread_parse(path, buf.buf, buf.len, &doc, &err) < 0)
		fail_msg("%s", err.buf);
	return doc;
}

/* Edits of run B keep it valid: checked after each test's edits. */
static void revalidate(json_object *doc)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

	if (runread_validate("edited", doc, &err) < 0)
		fail_msg("%s", err.buf);
}

static json_object *group_of(json_object *run, const char *g, const char *a)
{
	for (size_t i = 0; i < jsonx_len(run, "groups"); i++) {
		json_object *e = jsonx_at(run, "groups", i);
		if (!strcmp(jsonx_str(e, "group"), g) &&
		    !strcmp(jsonx_str(e, "arch"), a))
			return e;
	}
	fail_msg("no group %s/%s", g, a);
	return NULL;
}

static json_object *boot_of(json_object *run, const char *id)
{
	for (size_t i = 0; i < jsonx_len(run, "boots"); i++) {
		json_object *b = jsonx_at(run, "boots", i);
		if (!strcmp(jsonx_str(jsonx_get(b, "candidate"), "id"), id))
			return b;
	}
	fail_msg("no candidate %s", id);
	return NULL;
}

static void set_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

static struct rundiff *diff(json_object *a, json_object *b)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct rundiff *d = NULL;

	revalidate(a);
	revalidate(b);
	if (rundiff_compare(a, "A", b, "B", &d, &err) < 0)
		fail_msg("%s", err.buf);
	return d;
}

/* The item (what, key), or a failure listing what there is. */
static const struct rundiff_item *item(const struct rundiff *d,
				       const char *what, const char *key)
{
	_cleanup_strbuf_ struct strbuf all = STRBUF_INIT;

	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->items[i].what, what) &&
		    !strcmp(d->items[i].key, key))
			return &d->items[i];
	rundiff_format_text(d, &all);
	fail_msg("no %s %s in:\n%s", what, key, all.buf);
	return NULL;
}

static void assert_item(const struct rundiff *d, enum rundiff_class cls,
			const char *what, const char *key, const char *from,
			const char *to, const char *detail)
{
	const struct rundiff_item *it = item(d, what, key);

	assert_int_equal(it->cls, cls);
	if (from)
		assert_string_equal(it->from, from);
	else
		assert_null(it->from);
	if (to)
		assert_string_equal(it->to, to);
	else
		assert_null(it->to);
	if (detail)
		assert_string_equal(it->detail, detail);
	else
		assert_null(it->detail);
}

static void test_unchanged(void **state)
{
	static const char *const runs[] = {
		"matrix-synthetic", "boot-debian61", "boot-debian61-crash",
		"matrix-hostile-synthetic",
	};

	for (size_t i = 0; i < ELEMENTSOF(runs); i++) {
		json_object *a = load(runs[i]), *b = load(runs[i]);
		struct rundiff *d = diff(a, b);
		_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

		assert_int_equal(d->n, 0);
		rundiff_format_text(d, &t);
		assert_string_equal(t.buf,
				    "no change in group verdicts, stages, "
				    "scenarios, kernel problems or options\n"
				    "0 regressions, 0 fixes, 0 other changes\n");
		rundiff_free(d);
		json_object_put(a);
		json_object_put(b);
	}
}

/* Real boots of the same kernel: clean, then a sysrq-c panic. */
static void test_real_boot_regression_and_fix(void **state)
{
	json_object *clean = load("boot-debian61");
	json_object *crash = load("boot-debian61-crash");
	struct rundiff *d = diff(clean, crash);

	assert_int_equal(d->n_regressions, 2);
	assert_int_equal(d->n_fixes, 0);
	assert_item(d, RUNDIFF_REGRESSION, "boot", "x86_64", "BOOTED", "PANIC",
		    "Kernel panic - not syncing: sysrq triggered crash");
	assert_item(d, RUNDIFF_REGRESSION, "problem", "x86_64/67ed89291e102ea2",
		    NULL, "new",
		    "PANIC: Kernel panic - not syncing: sysrq triggered crash");
	/* Scenarios only one run ran are noted, never regressions. */
	assert_item(d, RUNDIFF_NOTE, "scenario", "x86_64/mm", "pass", NULL,
		    "not run in B");
	assert_item(d, RUNDIFF_NOTE, "scenario", "x86_64/crash", NULL, "error",
		    "only in B");
	rundiff_free(d);

	d = diff(crash, clean);
	assert_int_equal(d->n_regressions, 0);
	assert_int_equal(d->n_fixes, 2);
	assert_item(d, RUNDIFF_FIX, "boot", "x86_64", "PANIC", "BOOTED",
		    "Kernel panic - not syncing: sysrq triggered crash");
	assert_item(d, RUNDIFF_FIX, "problem", "x86_64/67ed89291e102ea2",
		    "present", "gone",
		    "PANIC: Kernel panic - not syncing: sysrq triggered crash");
	rundiff_free(d);
	json_object_put(clean);
	json_object_put(crash);
}

/* A group whose kernel now panics: FAIL at boot, all levels listed. */
static void test_matrix_regression(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *g = group_of(b, "demo-bpf", "x86_64");
	json_object *boot = boot_of(b, "x86_64-demo-bpf");
	json_object *problem = json_tokener_parse(
		"{\"kind\":\"BUG\",\"title\":\"BUG: kernel NULL pointer "
		"dereference, address: 0000000000000008\",\"signature\":"
		"\"0123456789abcdef\",\"allowed\":false}");
	struct rundiff *d;
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

	set_str(g, "verdict", "FAIL");
	set_str(g, "stage", "boot");
	set_str(g, "reason", "PANIC: Kernel panic - not syncing: Fatal exception");
	set_str(boot, "verdict", "PANIC");
	set_str(boot, "reason", "Kernel panic - not syncing: Fatal exception");
	set_str(jsonx_at(boot, "scenarios", 1), "result", "error");
	set_str(jsonx_at(boot, "scenarios", 1), "reason",
		"no result: the guest crashed");
	json_object_array_add(jsonx_get(boot, "problems"), problem);

	d = diff(a, b);
	assert_int_equal(d->n_regressions, 4);
	assert_int_equal(d->n_fixes, 0);
	assert_int_equal(d->n_notes, 0);
	assert_item(d, RUNDIFF_REGRESSION, "group", "demo-bpf/x86_64", "PASS",
		    "FAIL",
		    "boot: PANIC: Kernel panic - not syncing: Fatal exception");
	assert_item(d, RUNDIFF_REGRESSION, "boot", "x86_64-demo-bpf", "BOOTED",
		    "PANIC", "Kernel panic - not syncing: Fatal exception");
	assert_item(d, RUNDIFF_REGRESSION, "scenario", "x86_64-demo-bpf/bpf",
		    "pass", "error", "no result: the guest crashed");
	assert_item(d, RUNDIFF_REGRESSION, "problem",
		    "x86_64-demo-bpf/0123456789abcdef", NULL, "new",
		    "BUG: BUG: kernel NULL pointer dereference, address: "
		    "0000000000000008");
	/* Regressions first, in the text too. */
	rundiff_format_text(d, &t);
	assert_true(!strncmp(t.buf, "regressions (4):\n  group     "
				    "demo-bpf/x86_64: PASS -> FAIL  (boot: PANIC: "
				    "Kernel panic - not syncing: Fatal exception)\n",
			     90));
	assert_non_null(strstr(t.buf, "\n4 regressions, 0 fixes, 0 other "
				      "changes\n"));
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

/* The build failure of x86_64-demo-userfaultfd fixed in B. */
static void test_matrix_fix(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *g = group_of(b, "demo-userfaultfd", "x86_64");
	json_object *boot = boot_of(b, "x86_64-demo-userfaultfd");
	json_object *ref = boot_of(b, "x86_64-demo-bpf");
	struct rundiff *d;

	set_str(g, "verdict", "PASS");
	set_str(g, "stage", NULL);
	set_str(g, "reason", "options kept, kernel built and booted");
	set_str(jsonx_get(boot, "build"), "result", "pass");
	set_str(jsonx_get(boot, "build"), "first_error", NULL);
	set_str(boot, "verdict", "BOOTED");
	json_object_object_add(boot, "scenarios",
			       json_object_get(jsonx_get(ref, "scenarios")));

	d = diff(a, b);
	assert_int_equal(d->n_regressions, 0);
	assert_int_equal(d->n_fixes, 2);
	assert_item(d, RUNDIFF_FIX, "group", "demo-userfaultfd/x86_64", "FAIL",
		    "PASS",
		    "was build: mm/userfaultfd.c:1711:9: error: implicit "
		    "declaration of function 'uffd_wp_range'");
	assert_item(d, RUNDIFF_FIX, "build", "x86_64-demo-userfaultfd", "fail",
		    "pass", NULL);
	/* Not booted before: a note, not a fix of a kernel failure. */
	assert_item(d, RUNDIFF_NOTE, "boot", "x86_64-demo-userfaultfd",
		    "not booted", "BOOTED", "not booted: the build failed");
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

/* PASS -> PARTIAL is noted with the options, and so is the option. */
static void test_partial_is_noted_with_options(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *g = group_of(b, "demo-bpf", "i386");
	json_object *boot = boot_of(b, "i386-demo-bpf");
	json_object *opt = jsonx_at(jsonx_get(boot, "config"), "options", 1);
	struct rundiff *d;

	set_str(g, "verdict", "PARTIAL");
	json_object_array_add(jsonx_get(g, "dropped"),
			      json_tokener_parse("{\"option\":\"BPF_JIT\","
						 "\"reason\":\"unmet dependency: "
						 "depends on HAVE_EBPF_JIT "
						 "(HAVE_EBPF_JIT=n)\"}"));
	set_str(opt, "status", "absent");
	set_str(opt, "final", NULL);
	set_str(opt, "reason", "unmet dependency: depends on HAVE_EBPF_JIT "
			       "(HAVE_EBPF_JIT=n)");
	set_str(jsonx_get(boot, "config"), "result", "partial");

	d = diff(a, b);
	assert_int_equal(d->n_regressions, 0);
	assert_int_equal(d->n_fixes, 0);
	assert_item(d, RUNDIFF_NOTE, "group", "demo-bpf/i386", "PASS",
		    "PARTIAL",
		    "dropped: BPF_JIT (unmet dependency: depends on "
		    "HAVE_EBPF_JIT (HAVE_EBPF_JIT=n))");
	assert_item(d, RUNDIFF_NOTE, "option", "i386-demo-bpf/BPF_JIT", "kept",
		    "absent",
		    "unmet dependency: depends on HAVE_EBPF_JIT (HAVE_EBPF_JIT=n)");
	assert_item(d, RUNDIFF_NOTE, "config", "i386-demo-bpf", "pass",
		    "partial", NULL);
	rundiff_free(d);

	/* And back: now kept. */
	d = diff(b, a);
	assert_int_equal(d->n_regressions + d->n_fixes, 0);
	assert_item(d, RUNDIFF_NOTE, "group", "demo-bpf/i386", "PARTIAL",
		    "PASS",
		    "now kept: BPF_JIT (unmet dependency: depends on "
		    "HAVE_EBPF_JIT (HAVE_EBPF_JIT=n))");
	assert_item(d, RUNDIFF_NOTE, "option", "i386-demo-bpf/BPF_JIT",
		    "absent", "kept", "now kept");
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

/* A new problem by signature; an allowed one is only a note; one that
 * only changed its line (same signature) is no change. */
static void test_new_problem(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *boot = boot_of(b, "i386-demo-cgroups");
	json_object *kgdb = boot_of(b, "x86_64-demo-kgdb");
	struct rundiff *d;

	json_object_array_add(
		jsonx_get(boot, "problems"),
		json_tokener_parse("{\"kind\":\"WARNING\",\"title\":\"WARNING: "
				   "CPU: 1 PID: 97 at mm/page_alloc.c:4420\","
				   "\"signature\":\"aaaabbbbccccdddd\"}"));
	json_object_array_add(
		jsonx_get(boot, "problems"),
		json_tokener_parse("{\"kind\":\"UBSAN\",\"title\":\"UBSAN: "
				   "shift-out-of-bounds in kernel/x.c:1:2\","
				   "\"signature\":\"1111222233334444\","
				   "\"allowed\":true}"));
	json_object_object_add(jsonx_at(kgdb, "problems", 0), "line",
			       json_object_new_int(999));

	d = diff(a, b);
	assert_int_equal(d->n_regressions, 1);
	assert_int_equal(d->n_notes, 1);
	assert_int_equal(d->n, 2);
	assert_item(d, RUNDIFF_REGRESSION, "problem",
		    "i386-demo-cgroups/aaaabbbbccccdddd", NULL, "new",
		    "WARNING: WARNING: CPU: 1 PID: 97 at mm/page_alloc.c:4420");
	assert_item(d, RUNDIFF_NOTE, "problem",
		    "i386-demo-cgroups/1111222233334444", NULL, "new",
		    "UBSAN: UBSAN: shift-out-of-bounds in kernel/x.c:1:2");
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

/* The same kind and title with another signature (the same problem
 * reached through another path) is the same problem; the same title
 * under another kind is not. */
static void test_problem_matched_by_title(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *ba = boot_of(a, "i386-demo-cgroups");
	json_object *bb = boot_of(b, "i386-demo-cgroups");
	struct rundiff *d;

	json_object_array_add(
		jsonx_get(ba, "problems"),
		json_tokener_parse("{\"kind\":\"LOCKDEP\",\"title\":"
				   "\"possible deadlock in foo_lock\","
				   "\"signature\":\"aaaabbbbccccdddd\"}"));
	json_object_array_add(
		jsonx_get(bb, "problems"),
		json_tokener_parse("{\"kind\":\"LOCKDEP\",\"title\":"
				   "\"possible deadlock in foo_lock\","
				   "\"signature\":\"1111222233334444\"}"));
	d = diff(a, b);
	assert_int_equal(d->n, 0);
	rundiff_free(d);

	set_str(jsonx_at(bb, "problems", jsonx_len(bb, "problems") - 1),
		"kind", "WARNING");
	d = diff(a, b);
	assert_int_equal(d->n_regressions, 1);
	assert_int_equal(d->n_fixes, 1);
	assert_item(d, RUNDIFF_REGRESSION, "problem",
		    "i386-demo-cgroups/1111222233334444", NULL, "new",
		    "WARNING: possible deadlock in foo_lock");
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

/* A kernel that no longer builds has not fixed its panic. */
static void test_no_problem_fix_without_a_boot(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *boot = boot_of(b, "x86_64-demo-kgdb");
	json_object *g = group_of(b, "demo-kgdb", "x86_64");
	struct rundiff *d;

	set_str(jsonx_get(boot, "build"), "result", "fail");
	set_str(jsonx_get(boot, "build"), "first_error",
		"kernel/debug/gdbstub.c:10:1: error: expected ';'");
	set_str(boot, "verdict", NULL);
	json_object_object_add(boot, "problems", json_object_new_array());
	json_object_object_add(boot, "scenarios", json_object_new_array());
	set_str(g, "stage", "build");
	set_str(g, "reason", "kernel/debug/gdbstub.c:10:1: error: expected ';'");

	d = diff(a, b);
	assert_int_equal(d->n_fixes, 0);
	assert_item(d, RUNDIFF_REGRESSION, "build", "x86_64-demo-kgdb", "pass",
		    "fail", "kernel/debug/gdbstub.c:10:1: error: expected ';'");
	assert_item(d, RUNDIFF_NOTE, "boot", "x86_64-demo-kgdb", "PANIC",
		    "not booted", "Kernel panic - not syncing: Attempted to "
				  "kill init! exitcode=0x0000000b");
	/* Still FAIL, at another stage. */
	assert_item(d, RUNDIFF_NOTE, "group", "demo-kgdb/x86_64", "FAIL", "FAIL",
		    "build: kernel/debug/gdbstub.c:10:1: error: expected ';'");
	assert_int_equal(d->n_regressions, 1);
	rundiff_free(d);
	json_object_put(b);

	/* A boot cut short before its panic: not a fix either. */
	b = load("matrix-synthetic");
	boot = boot_of(b, "x86_64-demo-kgdb");
	set_str(boot, "verdict", "INCOMPLETE");
	set_str(boot, "reason", "interrupted");
	json_object_object_add(boot, "problems", json_object_new_array());
	d = diff(a, b);
	assert_int_equal(d->n_fixes, 0);
	assert_int_equal(d->n_regressions, 0);
	assert_item(d, RUNDIFF_NOTE, "boot", "x86_64-demo-kgdb", "PANIC",
		    "INCOMPLETE", "interrupted");
	assert_int_equal(d->n, 1);
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

static void test_groups_and_candidates_in_one_run_only(void **state)
{
	json_object *a = load("matrix-synthetic"), *b = load("matrix-synthetic");
	json_object *groups = jsonx_get(b, "groups");
	json_object *boots = jsonx_get(b, "boots");
	struct rundiff *d;

	/* B lost demo-kgdb/i386 and its candidate; B is incomplete. */
	for (size_t i = 0; i < json_object_array_length(groups); i++)
		if (!strcmp(jsonx_str(json_object_array_get_idx(groups, i),
					"candidate"), "i386-demo-kgdb"))
			json_object_array_del_idx(groups, i, 1);
	json_object_array_del_idx(boots, json_object_array_length(boots) - 1, 1);
	json_object_object_add(b, "complete", json_object_new_boolean(false));

	d = diff(a, b);
	assert_int_equal(d->n_regressions + d->n_fixes, 0);
	assert_item(d, RUNDIFF_NOTE, "run", "B", "complete", "INCOMPLETE",
		    "B was interrupted: what it lacks is not a regression");
	assert_item(d, RUNDIFF_NOTE, "group", "demo-kgdb/i386", "FAIL", NULL,
		    "not in B");
	assert_item(d, RUNDIFF_NOTE, "candidate", "i386-demo-kgdb", "BOOTED",
		    NULL, "not in B");
	rundiff_free(d);

	d = diff(b, a);
	assert_item(d, RUNDIFF_NOTE, "group", "demo-kgdb/i386", NULL, "FAIL",
		    "only in B");
	assert_item(d, RUNDIFF_NOTE, "candidate", "i386-demo-kgdb", NULL,
		    "BOOTED", "only in B");
	assert_item(d, RUNDIFF_NOTE, "run", "A", "complete", "INCOMPLETE",
		    "A was interrupted: what it lacks is not compared");
	rundiff_free(d);
	json_object_put(a);
	json_object_put(b);
}

static void test_incompatible(void **state)
{
	json_object *m = load("matrix-synthetic"), *b = load("boot-debian61");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct rundiff *d = NULL;

	assert_int_equal(rundiff_compare(m, "runs/A", b, "runs/B", &d, &err),
			 -EINVAL);
	assert_null(d);
	assert_string_equal(err.buf,
			    "runs/A is a matrix run (bootproof run) and runs/B "
			    "a single boot (bootproof boot): they cannot be "
			    "compared");
	/* Another version of the format does not get as far. */
	json_object_object_add(b, "schema",
			       json_object_new_string("bootproof-run/2"));
	strbuf_reset(&err);
	assert_int_equal(runread_validate("runs/B/run.json", b, &err),
			 -EPROTONOSUPPORT);
	assert_string_equal(err.buf, "runs/B/run.json: schema: "
				     "'bootproof-run/2' is not supported (this "
				     "bootproof reads bootproof-run/1)");
	json_object_put(m);
	json_object_put(b);
}

static void test_json(void **state)
{
	json_object *clean = load("boot-debian61");
	json_object *crash = load("boot-debian61-crash");
	struct rundiff *d = diff(clean, crash);
	json_object *j = rundiff_to_json(d), *reg, *e, *v;

	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "regressions", &reg));
	assert_int_equal(json_object_array_length(reg), 2);
	e = json_object_array_get_idx(reg, 0);
	assert_string_equal(jsonx_str(e, "what"), "boot");
	assert_string_equal(jsonx_str(e, "key"), "x86_64");
	assert_string_equal(jsonx_str(e, "from"), "BOOTED");
	assert_string_equal(jsonx_str(e, "to"), "PANIC");
	assert_true(json_object_object_get_ex(j, "fixes", &v));
	assert_int_equal(json_object_array_length(v), 0);
	assert_true(json_object_object_get_ex(j, "counts", &v));
	assert_true(json_object_object_get_ex(v, "regressions", &e));
	assert_int_equal(json_object_get_int(e), 2);
	json_object_put(j);
	rundiff_free(d);
	json_object_put(clean);
	json_object_put(crash);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_real_boot_regression_and_fix),
		cmocka_unit_test(test_matrix_regression),
		cmocka_unit_test(test_matrix_fix),
		cmocka_unit_test(test_partial_is_noted_with_options),
		cmocka_unit_test(test_new_problem),
		cmocka_unit_test(test_problem_matched_by_title),
		cmocka_unit_test(test_no_problem_fix_without_a_boot),
		cmocka_unit_test(test_groups_and_candidates_in_one_run_only),
		cmocka_unit_test(test_incompatible),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
