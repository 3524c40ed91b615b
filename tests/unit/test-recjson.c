// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON record builders against golden files (tests/data/recjson/,
 * README.md there names the command that records them): core/recjson
 * (console problems, milestones, KTAP) on recorded serial consoles, and
 * core/matrixrec (the plan, candidates, config, build and group records
 * of `bootproof run`) on the demo plan and its groups, a real .config, the
 * explain helper's recorded answers and a recorded build log.
 *
 * BP_RECORD_GOLDEN=1 writes the golden files instead of comparing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/builderr.h"
#include "core/console.h"
#include "core/explain.h"
#include "core/groups.h"
#include "core/kconfig.h"
#include "core/ktap.h"
#include "core/matrixrec.h"
#include "core/plan.h"
#include "core/recjson.h"
#include "core/repro.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

#define KSRC "/var/tmp/bp-dev/linux-source-6.12"

static char top[4096];	/* the source tree: TEST_DATA/../.. */

static void slurp(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (strbuf_read_file(sb, path, 64u << 20) < 0)
		fail_msg("cannot read %s", path);
}

/* Compare j (taken) with tests/data/recjson/<name>, or record it. */
static void golden(const char *name, json_object *j)
{
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf got = STRBUF_INIT;
	char path[4200];

	snprintf(path, sizeof(path), "%s/recjson/%s", TEST_DATA, name);
	assert_non_null(j);
	strbuf_addstr(&got, json_object_to_json_string_ext(
				    j, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE));
	strbuf_addch(&got, '\n');
	json_object_put(j);
	if (getenv("BP_RECORD_GOLDEN")) {
		assert_int_equal(write_file_atomic(path, got.buf, got.len, 0644),
				 0);
		return;
	}
	slurp(path, &want);
	assert_string_equal(got.buf, want.buf);
}

/* ------------------------------------------------------------ recjson */

struct feed {
	struct ktap *k;
};

static void to_ktap(const struct console_line *l, void *ud)
{
	struct feed *f = ud;

	ktap_feed_line(f->k, l->text, l->len);
}

/* A recorded console through the parsers: problems, milestones, KTAP. */
static json_object *console_json(const char *log)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct feed f = { .k = ktap_new(NULL, NULL, NULL) };
	const struct console_ops ops = { .on_line = to_ktap };
	_cleanup_console_ struct console *c = console_new(&ops, &f);
	json_object *o = json_object_new_object(), *p = json_object_new_array();
	char path[4200];

	snprintf(path, sizeof(path), "%s/console/%s", TEST_DATA, log);
	slurp(path, &sb);
	assert_int_equal(console_feed(c, sb.buf, sb.len), 0);
	assert_int_equal(console_finish(c), 0);
	assert_int_equal(ktap_finish(f.k), 0);
	for (size_t i = 0; i < console_n_problems(c); i++)
		json_object_array_add(p, recjson_problem(console_problem(c, i),
							 true));
	json_object_object_add(o, "problems", p);
	json_object_object_add(o, "milestones", recjson_milestones(c));
	json_object_object_add(o, "ktap", recjson_ktap(f.k));
	ktap_free(f.k);
	return o;
}

static void test_console_bug(void **state)
{
	golden("x86_64-lkdtm-bug.json", console_json("x86_64-lkdtm-bug.log"));
}

static void test_console_kunit(void **state)
{
	golden("x86_64-kunit.json", console_json("x86_64-kunit.log"));
}

static void test_seconds(void **state)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, recjson_seconds(43.813000000000002));
	json_object_array_add(a, recjson_seconds(0));
	json_object_array_add(a, recjson_seconds(1.0005));
	assert_string_equal(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
			    "[43.813,0.000,1.000]");
	json_object_put(a);
}

/* ------------------------------------------------------------ matrixrec */

struct demo {
	struct plan *plan;
	struct matrixrec_arch arches[2];
	char *names[4];
	struct matrixrec_cand all;
};

static struct group *load_group(const char *arch, const char *name)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char path[4200];
	struct group *g = NULL;

	snprintf(path, sizeof(path), "%s/scenarios/groups/%s/%s.config", top,
		 arch, name);
	slurp(path, &sb);
	assert_int_equal(group_parse(path, sb.buf, sb.len, GROUP_PARSE_STRICT,
				     &g, NULL), 0);
	return g;
}

/* scenarios/plans/demo.plan with its groups, as the matrix loads them. */
static void demo_init(struct demo *d)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char path[4200];

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "%s/scenarios/plans/demo.plan", top);
	slurp(path, &sb);
	assert_int_equal(plan_parse(path, sb.buf, sb.len, &d->plan, NULL), 0);
	assert_int_equal(d->plan->n_arches, 2);
	assert_int_equal(d->plan->n_groups, 4);
	for (size_t a = 0; a < 2; a++) {
		struct matrixrec_arch *as = &d->arches[a];

		as->arch = d->plan->arches[a];
		as->base = plan_base(d->plan, as->arch)->value;
		as->base_groups = calloc(1, sizeof(struct group *));
		as->base_groups[0] = load_group(as->arch, "demo-base");
		as->n_base_groups = 1;
		as->groups = calloc(4, sizeof(struct group *));
		for (size_t i = 0; i < 4; i++)
			as->groups[i] = load_group(as->arch,
						   d->plan->groups[i].value);
		as->n_groups = 4;
	}
	for (size_t i = 0; i < 4; i++)
		d->names[i] = d->plan->groups[i].value;
	/* The demo plan's one candidate per arch: the base and all groups. */
	d->all.id = "x86_64-all";
	d->all.name = "bootproof-20261204-021000-demo-4f2a9c-x86_64-all";
	d->all.as = &d->arches[0];
	d->all.kind = PLAN_CAND_ALL;
	d->all.groups = calloc(5, sizeof(struct group *));
	d->all.groups[0] = d->arches[0].base_groups[0];
	memcpy(d->all.groups + 1, d->arches[0].groups, 4 * sizeof(struct group *));
	d->all.n_groups = 5;
	d->all.n_base = 1;
	d->all.scenarios = "boot,bpf,cgroups,userfaultfd,kgdb";
	/* What engine/matrix writes (core/repro), with fixed paths. */
	{
		static const char *const bg[] = {
			"/src/scenarios/groups/x86_64/demo-base.config" };
		static const char *const gs[] = {
			"/src/scenarios/groups/x86_64/demo-bpf.config",
			"/src/scenarios/groups/x86_64/demo-cgroups.config",
			"/src/scenarios/groups/x86_64/demo-userfaultfd.config",
			"/src/scenarios/groups/x86_64/demo-kgdb.config" };
		struct repro_run r = {
			.plan = "/src/scenarios/plans/demo.plan",
			.arch = "x86_64", .base = d->all.as->base,
			.base_groups = bg, .n_base_groups = 1,
			.groups = gs, .n_groups = 4, .candidates = "all",
			.accel = "tcg", .ksrc = KSRC,
		};

		strbuf_reset(&sb);
		repro_command(&r, &sb);
		d->all.reproduce = strbuf_detach(&sb, NULL);
	}
}

static void demo_done(struct demo *d)
{
	for (size_t a = 0; a < 2; a++) {
		group_free(d->arches[a].base_groups[0]);
		free(d->arches[a].base_groups);
		for (size_t i = 0; i < 4; i++)
			group_free(d->arches[a].groups[i]);
		free(d->arches[a].groups);
	}
	free(d->all.groups);
	free(d->all.reproduce);
	plan_free(d->plan);
}

static void test_plan(void **state)
{
	struct demo d;

	demo_init(&d);
	golden("demo-plan.json",
	       matrixrec_plan(d.plan, d.arches, 2, d.names, 4, top, KSRC,
			      "6.12.118"));
	demo_done(&d);
}

static void test_candidate(void **state)
{
	struct demo d;

	demo_init(&d);
	golden("demo-x86_64-all-stub.json",
	       matrixrec_stub(&d.all, NULL, NULL, NULL));
	demo_done(&d);
}

static struct kconfig *parse_config(const char *path)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct kconfig *kc = NULL;

	slurp(path, &sb);
	assert_int_equal(kconfig_new(&kc), 0);
	assert_true(kconfig_parse(kc, path, sb.buf, sb.len, NULL) >= 0);
	return kc;
}

/* Each check of requested against final as the config stage records it:
 * a dropped option explained from the helper's recorded answer. */
static json_object *options_json(const struct group *g,
				 const struct kconfig *requested,
				 const struct kconfig *final,
				 const struct explain_result *ex)
{
	_cleanup_kconfig_report_ struct kconfig_report *rep = NULL;
	json_object *a = json_object_new_array();

	assert_true(kconfig_verify(requested, final, &rep) >= 0);
	for (size_t i = 0; i < rep->n_checks; i++) {
		const struct kconfig_check *c = &rep->checks[i];
		const struct explain_symbol *s =
			ex ? explain_find(ex, c->requested->name) : NULL;
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
		struct matrixrec_option op = {
			.group = g->name,
			.requested = c->requested,
			.final = c->final,
			.verdict = c->verdict,
			.kept = c->verdict == KCONFIG_KEPT,
			.kind = EXPLAIN_UNEXPLAINED,
			.detail = s,
		};

		if (s && s->n_reasons) {
			op.kind = s->reasons[0].kind;
			explain_format_reason(&why, &s->reasons[0]);
		} else {
			strbuf_addstr(&why, "not explained");
		}
		op.reason = why.buf;
		json_object_array_add(a, matrixrec_option(&op, top));
	}
	return a;
}

static void test_config(void **state)
{
	struct demo d;
	char path[4200];
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_explain_result_ struct explain_result *ex = NULL;
	struct kconfig *final, *kvm, *kvm_final;
	_cleanup_group_ struct group *kg = NULL;
	struct matrixrec_config c = {
		.release = "6.12.118",
		.final_config = "x86_64-all/config",
		.explain_error = NULL,
		.seconds = 61.2345,
		.cpu_seconds = 58.5,
	};

	demo_init(&d);
	/* demo-bpf against the .config of tests/data/console/x86_64-boot.log */
	snprintf(path, sizeof(path), "%s/console/x86_64.config", TEST_DATA);
	final = parse_config(path);
	c.opts = options_json(d.arches[0].groups[0], d.arches[0].groups[0]->options,
			      final, NULL);
	/* the x86_64-kvm-m case of tests/data/explain/ */
	snprintf(path, sizeof(path), "%s/explain/x86_64-kvm-m.out", TEST_DATA);
	slurp(path, &sb);
	assert_int_equal(explain_parse(sb.buf, sb.len, &ex, NULL), 0);
	snprintf(path, sizeof(path), "%s/recjson/kvm-m.config", TEST_DATA);
	kvm = parse_config(path);
	snprintf(path, sizeof(path), "%s/recjson/kvm-m.final.config", TEST_DATA);
	kvm_final = parse_config(path);
	{
		static const char text[] = "# group: kvm-m\nCONFIG_KVM=m\n";

		assert_int_equal(group_parse("kvm-m.config", text,
					     sizeof(text) - 1, 0, &kg, NULL), 0);
	}
	{
		json_object *more = options_json(kg, kvm, kvm_final, ex);

		for (size_t i = 0; i < json_object_array_length(more); i++)
			json_object_array_add(c.opts, json_object_get(
					json_object_array_get_idx(more, i)));
		json_object_put(more);
	}
	for (size_t i = 0; i < json_object_array_length(c.opts); i++)
		if (strcmp(jsonx_str(json_object_array_get_idx(c.opts, i),
				     "status"), "kept"))
			c.n_dropped++;
	c.stale = json_object_new_array();
	golden("config.json", matrixrec_config(&c));
	golden("config-fail.json",
	       matrixrec_config_fail("6.12.118", "unknown base 'tinyconf' "
				     "(defconfig, tinyconfig, ...)"));
	kconfig_free(final);
	kconfig_free(kvm);
	kconfig_free(kvm_final);
	demo_done(&d);
}

static void test_build(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_(builderr_done) struct builderr e = { 0 };
	char path[4200];
	struct matrixrec_build b = {
		.status = "fail",
		.failed = true,
		.reason = "make bzImage failed (exit 2)",
		.log = "x86_64-all/build.log",
		.seconds = 12.5,
		.cpu_seconds = 20.25,
		.hash = "5b0e6b3c2f1a4d8e9c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbb",
	};

	snprintf(path, sizeof(path), "%s/build/gcc-fatal-header.log", TEST_DATA);
	slurp(path, &sb);
	assert_int_equal(builderr_find(sb.buf, sb.len, &e), 1);
	b.first_error = e.text;
	b.first_error_log_line = e.log_line;
	golden("build-fail.json", matrixrec_build(&b, KSRC));
	/* The same .config found failed before. */
	b.reused = true;
	b.built = "2026-12-03T10:15:00Z";
	golden("build-fail-reused.json", matrixrec_build(&b, KSRC));
	b = (struct matrixrec_build){
		.status = "pass",
		.log = "x86_64-all/build.log",
		.seconds = 1500.125,
		.built_seconds = 1500.125,
		.cpu_seconds = 2900.5,
		.hash = "5b0e6b3c2f1a4d8e9c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbb",
		.dir = "/c/kernels/6.12.118-1a2b3c4d/5b0e",
		.bzimage = "/c/kernels/6.12.118-1a2b3c4d/5b0e/bzImage",
		.vmlinux = "/c/kernels/6.12.118-1a2b3c4d/5b0e/vmlinux",
		.system_map = "/c/kernels/6.12.118-1a2b3c4d/5b0e/System.map",
		.config = "/c/kernels/6.12.118-1a2b3c4d/5b0e/config",
		.kernelrelease = "6.12.118",
	};
	golden("build-pass.json", matrixrec_build(&b, KSRC));
	/* An error inside the tree is shown relative to it. */
	b.status = "fail";
	b.failed = true;
	b.first_error = KSRC "/kernel/fork.c:12:3: error: boom";
	b.first_error_log_line = 7;
	{
		json_object *j = matrixrec_build(&b, KSRC);

		assert_string_equal(jsonx_str(j, "first_error"),
				    "kernel/fork.c:12:3: error: boom");
		json_object_put(j);
	}
	golden("build-infra.json",
	       matrixrec_build_infra("/c/kernels: Permission denied", NULL, NULL));
}

/* The demo candidate failed to build: every group of x86_64 FAIL/build,
 * i386 (no candidate in the records) SKIP. */
static void test_groups(void **state)
{
	struct demo d;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_(builderr_done) struct builderr e = { 0 };
	char path[4200];
	json_object *boots = json_object_new_array(), *cfg, *rec;
	struct matrixrec_build b = {
		.status = "fail",
		.failed = true,
		.reason = "make bzImage failed (exit 2)",
		.log = "x86_64-all/build.log",
	};

	demo_init(&d);
	snprintf(path, sizeof(path), "%s/build/ld-undefined.log", TEST_DATA);
	slurp(path, &sb);
	assert_int_equal(builderr_find(sb.buf, sb.len, &e), 1);
	b.first_error = e.text;
	b.first_error_log_line = e.log_line;
	cfg = json_object_new_object();
	json_object_object_add(cfg, "result", jsonx_new_str("pass"));
	json_object_object_add(cfg, "options", json_object_new_array());
	rec = matrixrec_stub(&d.all, cfg, matrixrec_build(&b, KSRC), NULL);
	assert_true(matrixrec_failed(rec));
	json_object_array_add(boots, rec);
	golden("demo-groups.json",
	       matrixrec_groups(boots, d.arches, 2, d.names, 4, d.plan));
	json_object_put(boots);
	demo_done(&d);
}

static void test_failed(void **state)
{
	json_object *r = json_tokener_parse(
		"{\"config\":{\"result\":\"pass\"},\"build\":{\"result\":\"pass\"},"
		"\"verdict\":\"BOOTED\",\"scenarios\":[{\"result\":\"pass\"},"
		"{\"result\":\"skip\"}]}");

	assert_false(matrixrec_failed(r));
	json_object_object_add(r, "verdict", jsonx_new_str("INFRA"));
	assert_false(matrixrec_failed(r));	/* the host's, not the kernel's */
	json_object_object_add(r, "verdict", jsonx_new_str("PANIC"));
	assert_true(matrixrec_failed(r));
	json_object_object_add(r, "verdict", jsonx_new_str("BOOTED"));
	json_object_array_add(jsonx_get(r, "scenarios"),
			      json_tokener_parse("{\"result\":\"error\"}"));
	assert_true(matrixrec_failed(r));
	json_object_put(r);
	assert_string_equal(matrixrec_reason_kind(EXPLAIN_NOMODULES),
			    "unmet-dependency");
	assert_string_equal(matrixrec_reason_kind(EXPLAIN_STALE_BASE),
			    "unexplained");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_console_bug),
		cmocka_unit_test(test_console_kunit),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_candidate),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_failed),
	};
	char *p;

	snprintf(top, sizeof(top), "%s", TEST_DATA);
	p = strstr(top, "/tests/data");
	if (p)
		*p = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
