// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The matrix with fake stages behind its ops table: the order of the
 * stages (config, build, boot per candidate, the base first), a failed
 * stage (recorded with its reason, the candidate's later stages not run,
 * the other candidates going on), resume of an interrupted run (recorded
 * stages not done again, their results kept), and the group verdicts
 * computed from the candidates' records.  The fakes write what the real
 * stages leave in the run directory (the .config, the kernel images), so
 * resume sees the same files.  The real stages run in tests/matrix/.
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

#include "core/plan.h"
#include "engine/matrix.h"
#include "engine/merge.h"
#include "util/sha256.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

struct fake {
	struct strbuf calls;	/* "<id>:<stage> " for every stage run */
	const char *fail_build;	/* this candidate's build fails */
	const char *fail_config;	/* this candidate's config fails */
	const char *fail_scenario;	/* this scenario fails in every boot */
	const char *interrupt_in;	/* this candidate's build is cut short */
	const char *samples_cut_in;	/* its boots again (samples) are */
	volatile sig_atomic_t *intr;
	char *art;		/* where the fake kernels go */
};

static char tmp[64];
static char *datadir, *results;

static void put(const char *path, const char *text)
{
	_cleanup_free_ char *copy = strdup(path);

	*strrchr(copy, '/') = '\0';
	assert_int_equal(mkdir_p(copy, 0755), 0);
	assert_int_equal(write_file_atomic(path, text, strlen(text), 0644), 0);
}

static void put_group_of(const char *arch, const char *name,
			 const char *scenario)
{
	_cleanup_free_ char *p = NULL, *text = NULL;

	assert_true(asprintf(&p, "%s/scenarios/groups/%s/%s.config",
			     datadir, arch, name) > 0);
	assert_true(asprintf(&text, "# group: %s\n# arch: %s\n"
			     "# scenarios: %s\n# from: test\n"
			     "CONFIG_%s=y\n", name, arch, scenario,
			     !strcmp(name, "alpha") ? "ALPHA" : "BETA") > 0);
	put(p, text);
}

static void put_group(const char *name, const char *scenario)
{
	put_group_of("x86_64", name, scenario);
}

static void called(struct fake *f, const struct matrix_stage *st,
		   const char *stage)
{
	strbuf_addf(&f->calls, "%s:%s ", st->cand->id, stage);
}

static bool is(const char *id, const char *want)
{
	return want && !strcmp(id, want);
}

static unsigned fake_config(void *ud, const struct matrix_stage *st,
			    json_object **ret)
{
	struct fake *f = ud;
	_cleanup_free_ char *cfg = path_join(st->dir, "config");
	json_object *j = json_object_new_object();

	called(f, st, "config");
	if (is(st->cand->id, f->fail_config)) {
		json_object_object_add(j, "result", jsonx_new_str("fail"));
		json_object_object_add(j, "error", jsonx_new_str("bad base"));
		json_object_object_add(j, "options", json_object_new_array());
		*ret = j;
		return MATRIX_STAGE_BAD_INPUT;
	}
	/* alpha turns on a sanitizer: it recompiles every object, so the
	 * matrix builds it after beta (core/buildorder) */
	put(cfg, is(st->cand->id, "x86_64-alpha") ? "CONFIG_X=y\nCONFIG_UBSAN=y\n"
						   : "CONFIG_X=y\n");
	json_object_object_add(j, "result", jsonx_new_str("pass"));
	json_object_object_add(j, "dropped", json_object_new_int(0));
	json_object_object_add(j, "options", json_object_new_array());
	*ret = j;
	return 0;
}

static unsigned fake_build(void *ud, const struct matrix_stage *st,
			   json_object **ret)
{
	struct fake *f = ud;
	json_object *j = json_object_new_object(), *a;
	_cleanup_free_ char *dir = path_join(f->art, st->cand->id);
	_cleanup_free_ char *bz = path_join(dir, "bzImage");
	_cleanup_free_ char *vm = path_join(dir, "vmlinux");

	called(f, st, "build");
	/* The build reads the config stage's record. */
	assert_string_equal(jsonx_str(jsonx_get(st->rec, "config"), "result"),
			    "pass");
	if (is(st->cand->id, f->interrupt_in)) {
		*f->intr = 1;
		json_object_object_add(j, "result", jsonx_new_str("skip"));
		json_object_object_add(j, "reason", jsonx_new_str("interrupted"));
		*ret = j;
		return 0;
	}
	if (is(st->cand->id, f->fail_build)) {
		json_object_object_add(j, "result", jsonx_new_str("fail"));
		json_object_object_add(j, "reason",
				       jsonx_new_str("make bzImage failed"));
		json_object_object_add(j, "first_error",
				       jsonx_new_str("kernel/fork.c:1: error: boom"));
		*ret = j;
		return 0;
	}
	put(bz, "kernel");
	put(vm, "elf");
	{
		_cleanup_free_ char *cfg = path_join(st->dir, "config");
		char h[SHA256_HEX_LEN + 1];

		assert_int_equal(sha256_file_hex(cfg, h), 0);
		json_object_object_add(j, "config_hash", jsonx_new_str(h));
	}
	a = json_object_new_object();
	json_object_object_add(a, "bzImage", jsonx_new_str(bz));
	json_object_object_add(a, "vmlinux", jsonx_new_str(vm));
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
	_cleanup_free_ char *names = strdup(st->cand->scenarios);
	char *save = NULL;

	called(f, st, "boot");
	/* The boot gets the build's artifacts. */
	assert_non_null(jsonx_str(jsonx_get(jsonx_get(st->rec, "build"),
					    "artifacts"), "bzImage"));
	for (char *n = strtok_r(names, ",", &save); n;
	     n = strtok_r(NULL, ",", &save)) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "name", jsonx_new_str(n));
		json_object_object_add(s, "result",
				       jsonx_new_str(is(n, f->fail_scenario)
							     ? "fail" : "pass"));
		json_object_array_add(sc, s);
	}
	json_object_object_add(j, "name", jsonx_new_str(st->cand->name));
	json_object_object_add(j, "verdict", jsonx_new_str("BOOTED"));
	json_object_object_add(j, "reason", NULL);
	json_object_object_add(j, "scenarios", sc);
	json_object_object_add(j, "complete", json_object_new_boolean(1));
	if (is(st->cand->id, f->samples_cut_in)) {
		/* interrupted during its second boot (engine/bootsamples) */
		json_object *smp = json_object_new_object();
		json_object *v = json_object_new_array();

		json_object_array_add(v, jsonx_new_str("BOOTED"));
		json_object_array_add(v, jsonx_new_str("INCOMPLETE"));
		json_object_object_add(smp, "n", json_object_new_int(2));
		json_object_object_add(smp, "verdicts", v);
		json_object_object_add(j, "samples", smp);
		*f->intr = 1;
	}
	*ret = j;
	return 0;
}

static const struct matrix_stage_ops fake_ops = {
	.config = fake_config,
	.build = fake_build,
	.boot = fake_boot,
};

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-matrix-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	datadir = path_join(tmp, "data");
	results = path_join(tmp, "results");
	put_group("alpha", "bpf");
	put_group("beta", "cgroups");
	put_group_of("i386", "alpha", "bpf");
	put_group_of("i386", "beta", "cgroups");
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	free(datadir);
	free(results);
	return 0;
}

static struct plan *plan_of(const char *text)
{
	struct plan *p = NULL;

	assert_int_equal(plan_parse("t.plan", text, strlen(text), &p, NULL), 0);
	return p;
}

/* Run shard (NULL: all) of the plan with the fakes; resume: a run
 * directory or NULL. */
static void run_with(struct plan *p, struct fake *f, const char *resume,
		     const struct shard_spec *shard, unsigned parallel,
		     struct matrix_outcome *out)
{
	static volatile sig_atomic_t intr;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *cache = path_join(tmp, "cache");
	struct matrix_opts o = {
		.plan = p,
		.datadir = datadir,
		.cache = cache,
		.ksrc = "/nonexistent/linux",
		.release = "6.12.0",
		.results = results,
		.resume = resume,
		.uri = "test:///default",
		.quiet = true,
		.interrupted = &intr,
		.stages = &fake_ops,
		.stages_ud = f,
		.shard = shard,
		.shard_by = SHARD_BY_COST,
		.parallel = parallel,
	};

	intr = 0;
	f->intr = &intr;
	if (!f->art)
		f->art = path_join(tmp, "art");
	if (matrix_run(&o, out, &err) < 0)
		fail_msg("matrix_run: %s", err.buf);
	assert_non_null(out->run);
}

static void run_shard(struct plan *p, struct fake *f, const char *resume,
		      const struct shard_spec *shard, struct matrix_outcome *out)
{
	run_with(p, f, resume, shard, 0, out);
}

static void run(struct plan *p, struct fake *f, const char *resume,
		struct matrix_outcome *out)
{
	run_shard(p, f, resume, NULL, out);
}

static void fake_done(struct fake *f)
{
	strbuf_release(&f->calls);
	free(f->art);
}

static json_object *boot_of(const struct run *r, const char *id)
{
	for (size_t i = 0; i < json_object_array_length(r->boots); i++) {
		json_object *b = json_object_array_get_idx(r->boots, i);

		if (!strcmp(jsonx_str(jsonx_get(b, "candidate"), "id"), id))
			return b;
	}
	fail_msg("no record of %s", id);
	return NULL;
}

static json_object *group_of(const struct run *r, const char *name)
{
	json_object *g = jsonx_get(r->doc, "groups");

	for (size_t i = 0; i < json_object_array_length(g); i++) {
		json_object *v = json_object_array_get_idx(g, i);

		if (!strcmp(jsonx_str(v, "group"), name))
			return v;
	}
	fail_msg("no verdict for %s", name);
	return NULL;
}

/* The verdict of group name is verdict, decided at stage (NULL: any). */
static json_object *expect_group(const struct run *r, const char *name,
				 const char *verdict, const char *stage)
{
	json_object *gv = group_of(r, name);

	assert_string_equal(jsonx_str(gv, "verdict"), verdict);
	if (stage)
		assert_string_equal(jsonx_str(gv, "stage"), stage);
	return gv;
}

static const char *const plan_text =
	"name t\narch x86_64\nbase tinyconfig\ngroup alpha beta\n"
	"candidates base each\n";

static void test_stage_order(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan_text);
	struct fake f = { .calls = STRBUF_INIT };
	struct matrix_outcome out;

	run(p, &f, NULL, &out);
	/* Every config first, then the builds in core/buildorder's order. */
	assert_string_equal(f.calls.buf,
			    "x86_64-base:config x86_64-alpha:config "
			    "x86_64-beta:config "
			    "x86_64-base:build x86_64-base:boot "
			    "x86_64-beta:build x86_64-beta:boot "
			    "x86_64-alpha:build x86_64-alpha:boot ");
	assert_string_equal(json_object_to_json_string_ext(
				    jsonx_get(out.run->doc, "build_order"),
				    JSON_C_TO_STRING_PLAIN),
			    "[\"x86_64-base\",\"x86_64-beta\",\"x86_64-alpha\"]");
	assert_int_equal(out.exit_code, 0);
	/* The boot record replaced the stub, the stages' members kept. */
	assert_string_equal(jsonx_str(boot_of(out.run, "x86_64-alpha"),
				      "verdict"), "BOOTED");
	assert_string_equal(jsonx_str(jsonx_get(boot_of(out.run, "x86_64-alpha"),
						"build"), "result"), "pass");
	assert_string_equal(jsonx_str(jsonx_get(boot_of(out.run, "x86_64-alpha"),
						"candidate"), "kind"), "each");
	assert_true(json_object_get_boolean(jsonx_get(out.run->doc, "complete")));
	run_free(out.run);
	fake_done(&f);
}

static void test_failed_build(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan_text);
	struct fake f = { .calls = STRBUF_INIT, .fail_build = "x86_64-alpha" };
	struct matrix_outcome out;
	json_object *b, *gv;

	run(p, &f, NULL, &out);
	/* No boot for alpha; beta still runs. */
	assert_null(strstr(f.calls.buf, "x86_64-alpha:boot"));
	assert_non_null(strstr(f.calls.buf, "x86_64-beta:boot"));
	b = boot_of(out.run, "x86_64-alpha");
	assert_null(jsonx_str(b, "verdict"));
	assert_string_equal(jsonx_str(jsonx_get(b, "build"), "result"), "fail");
	gv = expect_group(out.run, "alpha", "FAIL", "build");
	assert_non_null(strstr(jsonx_str(gv, "reason"), "kernel/fork.c:1"));
	/* The FAIL names the command that runs alpha's candidate alone:
	 * every file absolute, the kind asked for, the tree. */
	{
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
		const char *rep = jsonx_str(gv, "reproduce");

		strbuf_addf(&want, "--arch x86_64 --base tinyconfig "
			    "--group %s/scenarios/groups/x86_64/alpha.config "
			    "--candidates each --accel tcg "
			    "--ksrc /nonexistent/linux", datadir);
		assert_non_null(rep);
		if (!strstr(rep, want.buf))
			fail_msg("reproduce '%s' lacks '%s'", rep, want.buf);
		assert_string_equal(rep, jsonx_str(jsonx_get(b, "candidate"),
						   "reproduce"));
	}
	gv = expect_group(out.run, "beta", "PASS", NULL);
	assert_null(jsonx_str(gv, "reproduce"));
	assert_int_equal(out.exit_code, 1);
	run_free(out.run);
	fake_done(&f);
}

static void test_failed_config(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan_text);
	struct fake f = { .calls = STRBUF_INIT, .fail_config = "x86_64-beta" };
	struct matrix_outcome out;

	run(p, &f, NULL, &out);
	assert_null(strstr(f.calls.buf, "x86_64-beta:build"));
	assert_non_null(strstr(f.calls.buf, "x86_64-alpha:boot"));
	expect_group(out.run, "beta", "FAIL", "config");
	/* The stage said bad input: exit 2 whatever the verdicts. */
	assert_int_equal(out.exit_code, 2);
	run_free(out.run);
	fake_done(&f);
}

static void test_resume(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan_text);
	struct fake f = { .calls = STRBUF_INIT, .interrupt_in = "x86_64-alpha" };
	struct fake g = { .calls = STRBUF_INIT };
	struct matrix_outcome out, again;
	_cleanup_free_ char *dir = NULL;

	run(p, &f, NULL, &out);
	assert_int_equal(out.exit_code, 130);
	assert_false(json_object_get_boolean(jsonx_get(out.run->doc, "complete")));
	/* Nothing new started after the interrupt (alpha builds last). */
	assert_string_equal(f.calls.buf + strlen(f.calls.buf) -
				    strlen("x86_64-beta:boot x86_64-alpha:build "),
			    "x86_64-beta:boot x86_64-alpha:build ");
	dir = strdup(out.run->dir);
	run_free(out.run);

	run(p, &g, dir, &again);
	/* The base and beta are whole (kept), alpha's config too: its build
	 * again and its boot. */
	assert_string_equal(g.calls.buf,
			    "x86_64-alpha:build x86_64-alpha:boot ");
	assert_string_equal(again.run->dir, dir);
	assert_string_equal(jsonx_str(boot_of(again.run, "x86_64-base"),
				      "verdict"), "BOOTED");
	assert_string_equal(jsonx_str(boot_of(again.run, "x86_64-alpha"),
				      "verdict"), "BOOTED");
	assert_int_equal(json_object_array_length(jsonx_get(again.run->doc,
							    "resumed")), 1);
	assert_true(json_object_get_boolean(jsonx_get(again.run->doc,
						      "complete")));
	assert_int_equal(again.exit_code, 0);
	run_free(again.run);

	/* Resumed again, complete: nothing runs. */
	strbuf_reset(&g.calls);
	run(p, &g, dir, &again);
	assert_string_equal(g.calls.buf, "");
	assert_int_equal(again.exit_code, 0);
	run_free(again.run);
	fake_done(&f);
	fake_done(&g);
}

static void test_group_verdicts(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan_text);
	struct fake f = { .calls = STRBUF_INIT, .fail_scenario = "cgroups" };
	struct matrix_outcome out;
	json_object *gv;

	run(p, &f, NULL, &out);
	assert_int_equal(json_object_array_length(jsonx_get(out.run->doc,
							    "groups")), 2);
	gv = expect_group(out.run, "alpha", "PASS", NULL);
	assert_string_equal(jsonx_str(gv, "candidate"), "x86_64-alpha");
	gv = expect_group(out.run, "beta", "FAIL", "scenario");
	assert_non_null(strstr(jsonx_str(gv, "reason"), "scenario cgroups failed"));
	assert_int_equal(out.exit_code, 1);
	run_free(out.run);
	fake_done(&f);
}

/* bootproof merge of shard directories into OUT: its exit code; the
 * merged run in *ret when one was written. */
static int merge(const char *out, const char *const *dirs, size_t n,
		 struct run **ret)
{
	char *argv[] = { (char *)"merge", NULL };
	const struct merge_opts o = {
		.out = out, .shards = dirs, .n_shards = n, .argc = 1, .argv = argv,
	};
	_cleanup_free_ char *report = NULL;

	return merge_run(&o, ret, &report);
}

/* What must be equal between a merged run and one run of every
 * candidate: the group verdicts whole; per candidate its identity, the
 * hash of its .config, its verdict and scenario results. */
static void expect_same_run(const struct run *a, const struct run *b)
{
	assert_true(json_object_equal(jsonx_get(a->doc, "groups"),
				      jsonx_get(b->doc, "groups")));
	assert_int_equal(json_object_array_length(a->boots),
			 json_object_array_length(b->boots));
	for (size_t i = 0; i < json_object_array_length(a->boots); i++) {
		json_object *x = json_object_array_get_idx(a->boots, i);
		json_object *y = json_object_array_get_idx(b->boots, i);
		static const char *const same[] = { "candidate", "verdict",
						    "scenarios" };

		for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
			if (!json_object_equal(jsonx_get(x, same[k]),
					       jsonx_get(y, same[k])))
				fail_msg("boot %zu: %s differs", i, same[k]);
		assert_non_null(jsonx_str(jsonx_get(x, "build"), "config_hash"));
		assert_string_equal(jsonx_str(jsonx_get(x, "build"), "config_hash"),
				    jsonx_str(jsonx_get(y, "build"), "config_hash"));
	}
	assert_true(json_object_equal(jsonx_get(jsonx_get(a->doc, "plan"),
						"group_scenarios"),
				      jsonx_get(jsonx_get(b->doc, "plan"),
						"group_scenarios")));
}

static const char *const plan4_text =
	"name t\narch x86_64\nbase tinyconfig\ngroup alpha beta\n"
	"candidates base each all\n";

static void test_shards_merged(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan4_text);
	struct fake f = { .calls = STRBUF_INIT, .fail_scenario = "cgroups" };
	struct fake f1 = { .calls = STRBUF_INIT, .fail_scenario = "cgroups" };
	struct fake f2 = { .calls = STRBUF_INIT, .fail_scenario = "cgroups" };
	const struct shard_spec s1 = { 1, 2 }, s2 = { 2, 2 };
	struct matrix_outcome all, o1, o2;
	_cleanup_free_ char *out = path_join(tmp, "merged");
	const char *dirs[2];
	struct run *merged = NULL;
	json_object *gv;

	run(p, &f, NULL, &all);
	assert_int_equal(all.exit_code, 1);	/* beta's cgroups fails */
	run_shard(p, &f1, NULL, &s1, &o1);
	run_shard(p, &f2, NULL, &s2, &o2);
	/* No cost known (the fakes fill no cache): the plan's order, halves. */
	assert_string_equal(jsonx_str(jsonx_get(o1.run->doc, "shard"), "by"),
			    "order");
	assert_string_equal(f1.calls.buf,
			    "x86_64-base:config x86_64-alpha:config "
			    "x86_64-base:build x86_64-base:boot "
			    "x86_64-alpha:build x86_64-alpha:boot ");
	assert_string_equal(f2.calls.buf,
			    "x86_64-beta:config x86_64-all:config "
			    "x86_64-beta:build x86_64-beta:boot "
			    "x86_64-all:build x86_64-all:boot ");
	/* A shard records every candidate; the others' groups are SKIP with
	 * the shard that runs them. */
	assert_int_equal(json_object_array_length(o1.run->boots), 4);
	gv = expect_group(o1.run, "beta", "SKIP", "config");
	assert_string_equal(jsonx_str(gv, "reason"),
			    "run by shard 2/2 (bootproof merge puts the shards "
			    "together)");
	expect_group(o1.run, "alpha", "PASS", NULL);
	assert_int_equal(o1.exit_code, 0);
	expect_group(o2.run, "beta", "FAIL", "scenario");
	assert_int_equal(o2.exit_code, 1);
	assert_string_equal(json_object_to_json_string_ext(
				    jsonx_get(o2.run->doc, "build_order"),
				    JSON_C_TO_STRING_PLAIN),
			    "[\"x86_64-beta\",\"x86_64-all\"]");

	/* Merged (given in any order): the same as the run of all. */
	dirs[0] = o2.run->dir;
	dirs[1] = o1.run->dir;
	assert_int_equal(merge(out, dirs, 2, &merged), 1);
	assert_non_null(merged);
	expect_same_run(merged, all.run);
	assert_true(json_object_get_boolean(jsonx_get(merged->doc, "complete")));
	assert_int_equal(json_object_get_int(jsonx_get(merged->doc, "exit_code")), 1);
	assert_null(jsonx_get(merged->doc, "shard"));
	assert_int_equal(jsonx_len(merged->doc, "shards"), 2);
	assert_string_equal(jsonx_str(jsonx_at(merged->doc, "shards", 0), "run_id"),
			    o1.run->id);
	assert_string_equal(jsonx_str(merged->doc, "run_id"), "merged");
	/* each candidate's files came from the shard that ran it; junit.xml
	 * and report.html were written */
	{
		static const char *const files[] = {
			"x86_64-base/config", "x86_64-alpha/config",
			"x86_64-beta/config", "x86_64-all/config", "junit.xml",
			"report.html", "run.json",
		};

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			_cleanup_free_ char *fp = path_join(out, files[i]);

			if (access(fp, R_OK) < 0)
				fail_msg("merged run lacks %s", files[i]);
		}
	}
	run_free(merged);

	/* What is refused, exit 2, nothing written. */
	{
		_cleanup_free_ char *out2 = path_join(tmp, "merged2");
		const char *one[] = { o1.run->dir };
		const char *twice[] = { o1.run->dir, o1.run->dir };
		const char *unsharded[] = { all.run->dir, o2.run->dir };

		merged = NULL;
		assert_int_equal(merge(out, dirs, 2, &merged), 2);	/* exists */
		assert_int_equal(merge(out2, one, 1, &merged), 2);	/* 2/2 missing */
		assert_int_equal(merge(out2, twice, 2, &merged), 2);
		assert_int_equal(merge(out2, unsharded, 2, &merged), 2);
		assert_null(merged);
		assert_int_equal(access(out2, F_OK), -1);
	}
	run_free(all.run);
	run_free(o1.run);
	run_free(o2.run);
	fake_done(&f);
	fake_done(&f1);
	fake_done(&f2);
}

/* A resumed shard keeps its recorded split and runs only its own. */
/* A candidate interrupted while booted again for its samples is booted
 * again on resume: its boot is not whole. */
static void test_resume_samples(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan_text);
	struct fake f = { .calls = STRBUF_INIT, .samples_cut_in = "x86_64-beta" };
	struct fake g = { .calls = STRBUF_INIT };
	struct matrix_outcome out, again;
	_cleanup_free_ char *dir = NULL;

	run(p, &f, NULL, &out);
	assert_int_equal(out.exit_code, 130);
	dir = strdup(out.run->dir);
	run_free(out.run);
	run(p, &g, dir, &again);
	assert_non_null(strstr(g.calls.buf, "x86_64-beta:boot "));
	assert_null(strstr(g.calls.buf, "x86_64-beta:build "));
	assert_null(strstr(g.calls.buf, "x86_64-base:boot "));
	assert_null(jsonx_get(boot_of(again.run, "x86_64-beta"), "samples"));
	run_free(again.run);
	fake_done(&f);
	fake_done(&g);
}

static void test_shard_resume(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan4_text);
	struct fake f = { .calls = STRBUF_INIT, .interrupt_in = "x86_64-all" };
	struct fake g = { .calls = STRBUF_INIT };
	const struct shard_spec s2 = { 2, 2 };
	struct matrix_outcome out, again;
	_cleanup_free_ char *dir = NULL;

	run_shard(p, &f, NULL, &s2, &out);
	assert_int_equal(out.exit_code, 130);
	dir = strdup(out.run->dir);
	run_free(out.run);
	run_shard(p, &g, dir, &s2, &again);
	assert_string_equal(g.calls.buf, "x86_64-all:build x86_64-all:boot ");
	assert_int_equal(again.exit_code, 0);
	assert_int_equal(shard_of(jsonx_get(again.run->doc, "shard"), "x86_64-base"),
			 1);
	run_free(again.run);
	fake_done(&f);
	fake_done(&g);
}

static const char *const plan2_text =
	"name t\narch x86_64 i386\nbase tinyconfig\ngroup alpha beta\n"
	"candidates base each\n";

/* No .worker-*.json left in the run directory. */
static void expect_no_worker_files(const struct run *r)
{
	for (unsigned w = 1; w <= 4; w++) {
		char name[32];
		_cleanup_free_ char *fp = NULL;

		snprintf(name, sizeof(name), ".worker-%u.json", w);
		fp = path_join(r->dir, name);
		if (access(fp, F_OK) == 0)
			fail_msg("%s left behind", name);
	}
}

/* Two arches at once, a worker process each: the same records and group
 * verdicts as one process, the configs here and the builds and boots in
 * the workers (the parent's fakes saw none of them). */
static void test_parallel(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan2_text);
	struct fake f = { .calls = STRBUF_INIT, .fail_scenario = "cgroups" };
	struct fake fp = { .calls = STRBUF_INIT, .fail_scenario = "cgroups" };
	struct matrix_outcome one, two;
	json_object *par;

	run(p, &f, NULL, &one);
	assert_int_equal(one.exit_code, 1);	/* beta's cgroups fails */
	assert_null(jsonx_get(one.run->doc, "parallel"));
	run_with(p, &fp, NULL, NULL, 2, &two);
	assert_int_equal(two.exit_code, 1);
	assert_string_equal(fp.calls.buf,
			    "x86_64-base:config x86_64-alpha:config "
			    "x86_64-beta:config i386-base:config "
			    "i386-alpha:config i386-beta:config ");
	expect_same_run(two.run, one.run);
	assert_true(json_object_get_boolean(jsonx_get(two.run->doc, "complete")));
	par = jsonx_get(two.run->doc, "parallel");
	assert_int_equal(json_object_get_int(jsonx_get(par, "workers")), 2);
	assert_int_equal(json_object_get_int(jsonx_get(par, "asked")), 2);
	assert_string_equal(jsonx_str(par, "reason"), "asked for (--parallel 2)");
	expect_group(two.run, "alpha", "PASS", NULL);
	expect_group(two.run, "beta", "FAIL", "scenario");
	expect_no_worker_files(two.run);
	/* the saved run.json is what the run holds */
	{
		_cleanup_free_ char *jp = path_join(two.run->dir, "run.json");
		json_object *doc = json_object_from_file(jp);

		assert_non_null(doc);
		assert_true(json_object_equal(jsonx_get(doc, "boots"),
					      two.run->boots));
		json_object_put(doc);
	}
	run_free(one.run);
	run_free(two.run);
	fake_done(&f);
	fake_done(&fp);
}

/* A worker interrupted (here: its build cut short) makes the whole run
 * interrupted, exit 130, incomplete; the other arch's worker is stopped
 * too; a resume in one process finishes what is left and reuses the
 * rest. */
static void test_parallel_interrupted(void **state)
{
	_cleanup_plan_ struct plan *p = plan_of(plan2_text);
	struct fake f = { .calls = STRBUF_INIT, .interrupt_in = "i386-base" };
	struct fake f2 = { .calls = STRBUF_INIT };
	struct matrix_outcome cut, resumed;

	run_with(p, &f, NULL, NULL, 2, &cut);
	assert_int_equal(cut.exit_code, 130);
	assert_false(json_object_get_boolean(jsonx_get(cut.run->doc, "complete")));
	assert_string_equal(jsonx_str(jsonx_get(boot_of(cut.run, "i386-base"),
						"build"), "result"), "skip");
	expect_no_worker_files(cut.run);
	run(p, &f2, cut.run->dir, &resumed);
	assert_int_equal(resumed.exit_code, 0);
	assert_true(json_object_get_boolean(jsonx_get(resumed.run->doc, "complete")));
	/* i386-base was cut in its build: built and booted now */
	assert_non_null(strstr(f2.calls.buf, "i386-base:build i386-base:boot"));
	assert_null(strstr(f2.calls.buf, ":config"));
	expect_group(resumed.run, "alpha", "PASS", NULL);
	expect_group(resumed.run, "beta", "PASS", NULL);
	run_free(cut.run);
	run_free(resumed.run);
	fake_done(&f);
	fake_done(&f2);
}

/* A group the plan names that no arch has is bad input before any run. */
static void test_unknown_group(void **state)
{
	_cleanup_plan_ struct plan *p =
		plan_of("arch x86_64\nbase tinyconfig\ngroup gamma\n");
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct fake f = { .calls = STRBUF_INIT };
	struct matrix_opts o = {
		.plan = p, .datadir = datadir, .cache = tmp,
		.ksrc = "/nonexistent/linux", .release = "6.12.0",
		.results = results, .quiet = true,
		.stages = &fake_ops, .stages_ud = &f,
	};
	struct matrix_outcome out;

	assert_int_equal(matrix_run(&o, &out, &err), -ENOENT);
	assert_null(out.run);
	assert_non_null(strstr(err.buf, "t.plan:3: group gamma"));
	assert_string_equal(f.calls.buf, "");
	fake_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stage_order),
		cmocka_unit_test(test_failed_build),
		cmocka_unit_test(test_failed_config),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_group_verdicts),
		cmocka_unit_test(test_unknown_group),
		cmocka_unit_test(test_shards_merged),
		cmocka_unit_test(test_resume_samples),
		cmocka_unit_test(test_shard_resume),
		cmocka_unit_test(test_parallel),
		cmocka_unit_test(test_parallel_interrupted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
