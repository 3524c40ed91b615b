// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/bisectrun with fake stages behind struct matrix_stage_ops: a
 * failing `bootproof run` is made first (through the matrix with the same
 * fakes), then bisected.  The fakes decide from the options the
 * candidate's groups request, as a kernel would from its .config: BREAK=y
 * breaks the build with one first error, OTHER=y with another, PAIR_A and
 * PAIR_B together panic the boot, FLAKY panics only the first time, INFRA
 * makes the host fail.  Checked: the steps (each a run directory with the
 * step's fragment as its group), the culprit lines and their reproducer,
 * the status and exit code when it cannot be narrowed, and the record.
 * The real stages run in tests/matrix/run-bisect.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/matrixrec.h"
#include "core/plan.h"
#include "engine/bisectrun.h"
#include "engine/matrix.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

struct fake {
	unsigned builds, boots, flaky_boots;
	bool infra_on_pair;
};

static char tmp[64];
static char *datadir, *results, *cache, *ksrc;

static void put(const char *path, const char *text)
{
	_cleanup_free_ char *copy = strdup(path);

	*strrchr(copy, '/') = '\0';
	assert_int_equal(mkdir_p(copy, 0755), 0);
	assert_int_equal(write_file_atomic(path, text, strlen(text), 0644), 0);
}

/* Does one of the candidate's own groups request name=y? */
static bool wants(const struct matrix_stage *st, const char *name)
{
	for (size_t i = st->cand->n_base; i < st->cand->n_groups; i++) {
		const struct kconfig_option *o =
			kconfig_find(st->cand->groups[i]->options, name);

		if (o && o->kind == KCONFIG_YES)
			return true;
	}
	return false;
}

static unsigned fake_config(void *ud, const struct matrix_stage *st,
			    json_object **ret)
{
	_cleanup_free_ char *cfg = path_join(st->dir, "config");
	json_object *j = json_object_new_object();

	json_object *opts = json_object_new_array();
	/* TESTS depends on KGDB, as in Kconfig: without it, it is dropped */
	bool tests_dropped = wants(st, "TESTS") && !wants(st, "KGDB");

	put(cfg, "CONFIG_X=y\n");
	if (tests_dropped) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "option", jsonx_new_str("TESTS"));
		json_object_object_add(o, "status", jsonx_new_str("absent"));
		/* the name the config stage records (matrixrec) */
		json_object_object_add(o, "reason_kind",
				       jsonx_new_str(matrixrec_reason_kind(
					       EXPLAIN_DEPENDS)));
		json_object_object_add(o, "reason",
				       jsonx_new_str("unmet dependency: depends "
						     "on KGDB (KGDB=n)"));
		json_object_array_add(opts, o);
	}
	json_object_object_add(j, "result", jsonx_new_str("pass"));
	json_object_object_add(j, "dropped",
			       json_object_new_int(tests_dropped));
	json_object_object_add(j, "options", opts);
	*ret = j;
	return 0;
}

static unsigned fake_build(void *ud, const struct matrix_stage *st,
			   json_object **ret)
{
	struct fake *f = ud;
	json_object *j = json_object_new_object(), *a;
	_cleanup_free_ char *bz = path_join(st->dir, "bzImage");

	f->builds++;
	if (wants(st, "BREAK") || wants(st, "OTHER")) {
		json_object_object_add(j, "result", jsonx_new_str("fail"));
		json_object_object_add(j, "reason", jsonx_new_str("make failed"));
		json_object_object_add(j, "first_error",
				       jsonx_new_str(wants(st, "BREAK")
							     ? "arch/x86/include/asm/boot.h:19:3: error: #error"
							     : "kernel/fork.c:1:1: error: other"));
		*ret = j;
		return 0;
	}
	put(bz, "kernel");
	a = json_object_new_object();
	json_object_object_add(a, "bzImage", jsonx_new_str(bz));
	json_object_object_add(a, "vmlinux", jsonx_new_str(bz));
	json_object_object_add(j, "result", jsonx_new_str("pass"));
	json_object_object_add(j, "artifacts", a);
	*ret = j;
	return 0;
}

static unsigned fake_boot(void *ud, const struct matrix_stage *st,
			  json_object **ret)
{
	struct fake *f = ud;
	json_object *j = json_object_new_object(), *sc = json_object_new_array();
	json_object *s = json_object_new_object(), *probs = json_object_new_array();
	bool pair = (wants(st, "PAIR_A") && wants(st, "PAIR_B")) ||
		    (wants(st, "TESTS") && wants(st, "KGDB"));
	bool flaky = wants(st, "FLAKY") && f->flaky_boots++ == 0;
	bool infra = wants(st, "INFRA") || (pair && f->infra_on_pair);
	const char *v = infra ? "INFRA" : pair || flaky ? "PANIC" : "BOOTED";

	f->boots++;
	if (pair || flaky) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "kind", jsonx_new_str("PANIC"));
		json_object_object_add(p, "title", jsonx_new_str("Kernel panic - not syncing: pair"));
		json_object_object_add(p, "signature", jsonx_new_str("5ea1ed0ff1ce"));
		json_object_array_add(probs, p);
	}
	json_object_object_add(s, "name", jsonx_new_str("boot"));
	json_object_object_add(s, "result", jsonx_new_str("pass"));
	json_object_array_add(sc, s);
	json_object_object_add(j, "name", jsonx_new_str(st->cand->name));
	json_object_object_add(j, "verdict", jsonx_new_str(v));
	json_object_object_add(j, "reason", jsonx_new_str(infra ? "libvirt lost" : NULL));
	json_object_object_add(j, "problems", probs);
	json_object_object_add(j, "scenarios", sc);
	json_object_object_add(j, "complete", json_object_new_boolean(1));
	*ret = j;
	return infra ? MATRIX_STAGE_INFRA : 0;
}

static const struct matrix_stage_ops fake_ops = {
	.config = fake_config,
	.build = fake_build,
	.boot = fake_boot,
};

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-bisectrun-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	datadir = path_join(tmp, "data");
	results = path_join(tmp, "results");
	cache = path_join(tmp, "cache");
	ksrc = path_join(tmp, "linux");
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	free(datadir);
	free(results);
	free(cache);
	free(ksrc);
	return 0;
}

/* A group file under the data directory, its options given. */
static void group(const char *name, const char *options)
{
	_cleanup_free_ char *p = NULL, *text = NULL;

	assert_true(asprintf(&p, "%s/scenarios/groups/x86_64/%s.config",
			     datadir, name) > 0);
	assert_true(asprintf(&text, "# group: %s\n# arch: x86_64\n"
			     "# scenarios: boot\n# from: test\n%s", name,
			     options) > 0);
	put(p, text);
}

/* The failing run: the plan's groups through the matrix; its directory. */
static char *failing_run(const char *groups, struct fake *f)
{
	_cleanup_free_ char *plan_path = path_join(datadir, "scenarios/plans/t.plan");
	_cleanup_free_ char *mk = path_join(ksrc, "Makefile");
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	_cleanup_plan_ struct plan *p = NULL;
	static volatile sig_atomic_t intr;
	struct matrix_outcome out;
	char *dir;

	static const char *const tree[] = {
		"Kconfig", "arch/x86/Kconfig", "scripts/kconfig/Makefile",
		"scripts/kconfig/merge_config.sh", "arch/x86/configs/x",
	};

	put(mk, "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n");
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++) {
		_cleanup_free_ char *t = path_join(ksrc, tree[i]);

		put(t, "");
	}
	group("demo-base", "CONFIG_PRINTK=y\n");
	strbuf_addf(&text, "name t\narch x86_64\nbase tinyconfig\n"
		    "base-group demo-base\ngroup %s\ncandidates each all\n",
		    groups);
	put(plan_path, text.buf);
	assert_int_equal(plan_parse(plan_path, text.buf, text.len, &p, &err), 0);
	{
		struct matrix_opts o = {
			.plan = p, .datadir = datadir, .cache = cache,
			.ksrc = ksrc, .release = "6.12.0", .results = results,
			.uri = "test:///default", .quiet = true,
			.interrupted = &intr, .stages = &fake_ops,
			.stages_ud = f,
		};

		if (matrix_run(&o, &out, &err) < 0)
			fail_msg("matrix_run: %s", err.buf);
	}
	/* (an "all" candidate may fail while every group's own passes) */
	assert_true(out.exit_code == BP_EXIT_FAIL ||
		    out.exit_code == BP_EXIT_OK);
	dir = strdup(out.run->dir);
	run_free(out.run);
	return dir;
}

static int bisect(const char *run_dir, const char *cand, struct fake *f,
		  unsigned max_steps, struct run **ret)
{
	struct bisectrun_opts o = {
		.run_dir = run_dir,
		.candidate = cand,
		.results = results,
		.accel = "tcg",
		.uri = "test:///default",
		.max_steps = max_steps,
		.quiet = true,
		.stages = &fake_ops,
		.stages_ud = f,
		.datadir = datadir,
		.cache = cache,
	};

	return bisectrun_run(&o, ret);
}

static json_object *bi(const struct run *r)
{
	return jsonx_get(r->doc, "bisect");
}

/* "CONFIG_A=y CONFIG_B=y" of a culprit or narrowed set. */
static void texts(json_object *set, struct strbuf *sb)
{
	json_object *o = jsonx_get(set, "options");

	for (size_t i = 0; i < json_object_array_length(o); i++)
		strbuf_addf(sb, "%s%s", i ? " " : "",
			    jsonx_str(json_object_array_get_idx(o, i), "text"));
}

static const char nine[] =
	"CONFIG_H1=y\nCONFIG_H2=y\nCONFIG_H3=y\nCONFIG_H4=y\nCONFIG_BREAK=y\n"
	"CONFIG_H5=y\nCONFIG_H6=y\nCONFIG_H7=y\nCONFIG_H8=y\n";

static void test_one_line_breaks_the_build(void **state)
{
	struct fake f = { 0 };
	_cleanup_free_ char *src = NULL;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_free_ char *culprit = NULL;
	struct run *r = NULL;
	json_object *b, *c, *steps;

	group("nine", nine);
	src = failing_run("nine", &f);
	assert_int_equal(bisect(src, NULL, &f, 0, &r), BP_EXIT_FAIL);
	assert_non_null(r);
	b = bi(r);
	assert_string_equal(jsonx_str(b, "status"), "found");
	assert_string_equal(jsonx_str(jsonx_get(b, "source"), "candidate"),
			    "x86_64-nine");
	assert_string_equal(jsonx_str(jsonx_get(b, "target"), "stage"), "build");
	c = jsonx_get(b, "culprit");
	assert_non_null(c);
	texts(c, &sb);
	assert_string_equal(sb.buf, "CONFIG_BREAK=y");
	assert_non_null(strstr(jsonx_str(json_object_array_get_idx(
						 jsonx_get(c, "options"), 0),
					 "source"),
			       "nine.config:9"));
	assert_false(jsonx_bool(b, "interaction", true));
	/* base, full, 4 halvings, the confirmation */
	steps = jsonx_get(b, "steps");
	assert_int_equal(json_object_array_length(steps), 7);
	assert_string_equal(jsonx_str(json_object_array_get_idx(steps, 0), "kind"), "base");
	assert_string_equal(jsonx_str(json_object_array_get_idx(steps, 0), "outcome"), "pass");
	assert_null(jsonx_str(json_object_array_get_idx(steps, 0), "fragment"));
	assert_string_equal(jsonx_str(json_object_array_get_idx(steps, 1), "outcome"), "fail-same");
	assert_string_equal(jsonx_str(json_object_array_get_idx(steps, 6), "kind"), "confirm");
	assert_string_equal(jsonx_str(json_object_array_get_idx(steps, 6), "fragment"),
			    "culprit.config");
	/* each step ran as its own run with the step's fragment */
	for (size_t i = 0; i < 7; i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		_cleanup_free_ char *rj = NULL;

		assert_true(asprintf(&rj, "%s/%s/run.json", r->dir,
				     jsonx_str(s, "run")) > 0);
		assert_int_equal(access(rj, R_OK), 0);
		assert_non_null(jsonx_str(s, "reproduce"));
	}
	/* the culprit's fragment and the command that runs it alone */
	culprit = path_join(r->dir, "culprit.config");
	assert_int_equal(access(culprit, R_OK), 0);
	assert_non_null(strstr(jsonx_str(c, "reproduce"), culprit));
	assert_non_null(strstr(jsonx_str(c, "reproduce"), "--candidates each"));
	assert_non_null(strstr(jsonx_str(c, "reproduce"),
			       "/scenarios/groups/x86_64/demo-base.config"));
	assert_true(jsonx_bool(r->doc, "complete", false));
	{
		_cleanup_free_ char *html = path_join(r->dir, "report.html");
		_cleanup_strbuf_ struct strbuf page = STRBUF_INIT;

		assert_true(strbuf_read_file(&page, html, 1 << 20) > 0);
		assert_non_null(strstr(page.buf, "CONFIG_BREAK=y"));
		assert_non_null(strstr(page.buf, "Culprit"));
	}
	run_free(r);
}

/* PAIR_A and PAIR_B panic only together, in two groups of an "all"
 * candidate; OTHER breaks the build another way: a pass here. */
static void test_pair_across_groups(void **state)
{
	struct fake f = { 0 };
	_cleanup_free_ char *src = NULL;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct run *r = NULL;
	json_object *b;

	group("ga", "CONFIG_H1=y\nCONFIG_PAIR_A=y\nCONFIG_H2=y\n");
	group("gb", "CONFIG_H3=y\n");
	group("gc", "CONFIG_H4=y\nCONFIG_H5=y\nCONFIG_PAIR_B=y\n");
	src = failing_run("ga gb gc", &f);
	assert_int_equal(bisect(src, "x86_64-all", &f, 0, &r), BP_EXIT_FAIL);
	b = bi(r);
	assert_string_equal(jsonx_str(b, "status"), "found");
	assert_string_equal(jsonx_str(jsonx_get(b, "target"), "stage"), "boot");
	texts(jsonx_get(b, "culprit"), &sb);
	assert_string_equal(sb.buf, "CONFIG_PAIR_A=y CONFIG_PAIR_B=y");
	assert_true(jsonx_bool(b, "interaction", false));
	run_free(r);
}

/* A line that only builds with another line of the group (TESTS depends
 * on KGDB): the culprit is both, and it says which needs which, from the
 * step that ran TESTS without KGDB and had it dropped. */
static void test_culprit_needs(void **state)
{
	struct fake f = { 0 };
	_cleanup_free_ char *src = NULL;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct run *r = NULL;
	json_object *b, *n;

	group("ga", "CONFIG_H1=y\nCONFIG_KGDB=y\nCONFIG_H2=y\nCONFIG_TESTS=y\n"
		    "CONFIG_H3=y\n");
	src = failing_run("ga", &f);
	assert_int_equal(bisect(src, "x86_64-ga", &f, 0, &r), BP_EXIT_FAIL);
	b = bi(r);
	assert_string_equal(jsonx_str(b, "status"), "found");
	texts(jsonx_get(b, "culprit"), &sb);
	assert_string_equal(sb.buf, "CONFIG_KGDB=y CONFIG_TESTS=y");
	n = jsonx_get(jsonx_get(b, "culprit"), "needs");
	assert_string_equal(json_object_to_json_string_ext(n, JSON_C_TO_STRING_PLAIN),
			    "[{\"line\":3,\"needs\":[1],\"reason\":"
			    "\"unmet dependency: depends on KGDB (KGDB=n)\"}]");
	run_free(r);
}

static void test_cannot_narrow(void **state)
{
	struct fake f = { 0 };
	char *src;
	struct run *r = NULL;

	/* the host fails in a step: stopped, no culprit */
	group("pairs", "CONFIG_PAIR_A=y\nCONFIG_H1=y\nCONFIG_PAIR_B=y\n");
	src = failing_run("pairs", &f);
	f.infra_on_pair = true;
	assert_int_equal(bisect(src, "x86_64-pairs", &f, 0, &r), BP_EXIT_INFRA);
	assert_string_equal(jsonx_str(bi(r), "status"), "infra");
	assert_null(jsonx_get(bi(r), "culprit"));
	run_free(r);
	r = NULL;
	free(src);

	/* intermittent: panicked once, never again */
	f = (struct fake){ 0 };
	group("flaky", "CONFIG_FLAKY=y\nCONFIG_H1=y\n");
	src = failing_run("flaky", &f);
	assert_int_equal(bisect(src, "x86_64-flaky", &f, 0, &r), BP_EXIT_OK);
	assert_string_equal(jsonx_str(bi(r), "status"), "not-reproduced");
	assert_null(jsonx_get(bi(r), "culprit"));
	run_free(r);
	r = NULL;

	/* bad input: no such candidate, one that passed, the base */
	assert_int_equal(bisect(src, "x86_64-nothere", &f, 0, &r), BP_EXIT_USAGE);
	assert_null(r);
	assert_int_equal(bisect(tmp, NULL, &f, 0, &r), BP_EXIT_USAGE);
	free(src);

	/* the step limit */
	f = (struct fake){ 0 };
	group("nine", nine);
	src = failing_run("nine", &f);
	assert_int_equal(bisect(src, "x86_64-nine", &f, 3, &r), BP_EXIT_FAIL);
	assert_string_equal(jsonx_str(bi(r), "status"), "step-limit");
	assert_null(jsonx_get(bi(r), "culprit"));
	assert_non_null(jsonx_get(bi(r), "narrowed"));
	run_free(r);
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_line_breaks_the_build),
		cmocka_unit_test(test_pair_across_groups),
		cmocka_unit_test(test_culprit_needs),
		cmocka_unit_test(test_cannot_narrow),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
