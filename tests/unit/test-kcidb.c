// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/kcidb on the recorded runs of tests/data/runs: what each record
 * becomes, and the status mapping the header promises.  The schema itself
 * is checked by tests/integration/kcidb.sh (python3-jsonschema against
 * ../shared/schemas/kcidb-v5.3.schema.json).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/kcidb.h"
#include "core/runread.h"
#include "util/cleanup.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static json_object *load(const char *rel)
{
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	json_object *doc = NULL;

	assert_true(asprintf(&path, "%s/runs/%s", TEST_DATA, rel) > 0);
	assert_true(strbuf_read_file(&buf, path, 0) > 0);
	if (runread_parse(path, buf.buf, buf.len, &doc, &err) < 0)
		fail_msg("%s", err.buf);
	return doc;
}

static json_object *export(json_object *run, const struct kcidb_opts *o)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	static const struct kcidb_opts dflt = { 0 };
	json_object *k = NULL;

	if (kcidb_from_run(run, o ? o : &dflt, &k, &err) < 0)
		fail_msg("%s", err.buf);
	return k;
}

/* The object of array member key of doc whose member "id" (or "path"
 * when by_path) ends with suffix. */
static json_object *find(json_object *doc, const char *key, const char *suffix)
{
	size_t ls = strlen(suffix);

	for (size_t i = 0; i < jsonx_len(doc, key); i++) {
		json_object *o = jsonx_at(doc, key, i);
		const char *id = jsonx_str(o, "id");
		size_t l = id ? strlen(id) : 0;

		if (l >= ls && !strcmp(id + l - ls, suffix))
			return o;
	}
	fail_msg("no %s with id ending in '%s'", key, suffix);
	return NULL;
}

static void assert_status(json_object *doc, const char *key,
			  const char *suffix, const char *want)
{
	json_object *o = find(doc, key, suffix);

	assert_non_null(jsonx_str(o, "status"));
	assert_string_equal(jsonx_str(o, "status"), want);
}

/* A real BOOTED boot: a build without status (bootproof did not build
 * it), a PASS boot, each scenario and check, kgdb SKIP. */
static void test_boot_booted(void **state)
{
	json_object *run = load("boot-debian61/run.json");
	json_object *k = export(run, NULL);
	json_object *c = jsonx_at(k, "checkouts", 0);
	json_object *b = jsonx_at(k, "builds", 0);

	assert_int_equal(json_object_get_int(
				 jsonx_get(jsonx_get(k, "version"), "major")),
			 5);
	assert_int_equal(jsonx_len(k, "checkouts"), 1);
	assert_string_equal(jsonx_str(c, "origin"), "bootproof");
	assert_true(strncmp(jsonx_str(c, "id"), "bootproof:", 10) == 0);
	assert_string_equal(jsonx_str(c, "id") + 10, jsonx_str(run, "run_id"));
	assert_int_equal(jsonx_len(k, "builds"), 1);
	assert_null(jsonx_get(b, "status"));
	assert_string_equal(jsonx_str(b, "checkout_id"), jsonx_str(c, "id"));
	assert_string_equal(jsonx_str(b, "architecture"), "x86_64");

	assert_status(k, "tests", ":boot", "PASS");
	assert_status(k, "tests", ":bootproof.bpf", "PASS");
	assert_status(k, "tests", ":bootproof.kgdb", "SKIP");
	assert_string_equal(jsonx_str(find(k, "tests", ":bootproof.kgdb"),
				      "log_excerpt"),
			    jsonx_str(jsonx_at(jsonx_at(run, "boots", 0),
					       "scenarios", 5),
				      "reason"));
	/* every test belongs to the one build; no log_url without a base */
	for (size_t i = 0; i < jsonx_len(k, "tests"); i++) {
		json_object *t = jsonx_at(k, "tests", i);

		assert_string_equal(jsonx_str(t, "build_id"),
				    jsonx_str(b, "id"));
		assert_null(jsonx_get(t, "log_url"));
		assert_string_equal(jsonx_str(t, "origin"), "bootproof");
	}
	json_object_put(k);
	json_object_put(run);
}

/* A real panic: the boot is FAIL (a kernel failure, not ERROR), the panic
 * report is its excerpt, the scenario the guest never finished ERROR. */
static void test_boot_panic(void **state)
{
	json_object *run = load("boot-debian61-crash/run.json");
	json_object *k = export(run, NULL);
	json_object *t = find(k, "tests", ":boot");
	json_object *probs = jsonx_get(jsonx_get(t, "misc"), "problems");

	assert_string_equal(jsonx_str(t, "status"), "FAIL");
	assert_string_equal(jsonx_str(jsonx_get(t, "misc"), "verdict"),
			    "PANIC");
	assert_int_equal(json_object_array_length(probs), 1);
	assert_string_equal(jsonx_str(json_object_array_get_idx(probs, 0),
				      "kind"),
			    "PANIC");
	assert_non_null(strstr(jsonx_str(t, "log_excerpt"), "Kernel panic"));
	assert_status(k, "tests", ":bootproof.crash", "ERROR");
	json_object_put(k);
	json_object_put(run);
}

/* The matrix: a build break FAIL with its first error and no tests, a
 * reused build PASS, a dropped option carried, group verdicts on the
 * checkout, a skipped scenario SKIP, a PANIC boot FAIL. */
static void test_matrix(void **state)
{
	json_object *run = load("matrix-synthetic/run.json");
	json_object *k = export(run, NULL);
	json_object *b;

	assert_int_equal(jsonx_len(k, "builds"), jsonx_len(run, "boots"));
	assert_status(k, "builds", ":x86_64-base", "PASS");
	b = find(k, "builds", ":x86_64-demo-userfaultfd");
	assert_string_equal(jsonx_str(b, "status"), "FAIL");
	assert_string_equal(jsonx_str(b, "config_name"),
			    "tinyconfig+kvm_guest.config+demo-userfaultfd");
	for (size_t i = 0; i < jsonx_len(k, "tests"); i++)
		assert_null(strstr(jsonx_str(jsonx_at(k, "tests", i), "id"),
				   ":x86_64-demo-userfaultfd:"));
	/* the option the config stage dropped, with why, where a dashboard
	 * shows the build */
	{
		json_object *d = jsonx_get(jsonx_get(find(k, "builds",
							   ":x86_64-demo-cgroups"),
						      "misc"),
					   "dropped");

		assert_int_equal(json_object_array_length(d), 1);
		assert_string_equal(jsonx_str(json_object_array_get_idx(d, 0),
					      "option"),
				    "CGROUP_DMEM");
		assert_string_equal(jsonx_str(json_object_array_get_idx(d, 0),
					      "group"),
				    "demo-cgroups");
		assert_non_null(strstr(jsonx_str(json_object_array_get_idx(d, 0),
						 "reason"),
				       "unknown symbol"));
	}
	assert_status(k, "builds", ":i386-demo-kgdb", "PASS"); /* reused */
	assert_status(k, "tests", ":x86_64-demo-kgdb:boot", "FAIL");
	assert_status(k, "tests", ":i386-demo-userfaultfd:bootproof.userfaultfd",
		      "SKIP");
	assert_status(k, "tests", ":i386-demo-kgdb:bootproof.kgdb", "FAIL");
	assert_int_equal(jsonx_len(jsonx_get(jsonx_at(k, "checkouts", 0),
					     "misc"),
				   "groups"),
			 jsonx_len(run, "groups"));
	json_object_put(k);
	json_object_put(run);
}

/* A boot that never reached the kernel is MISS, one that did but lost
 * its host is ERROR: never FAIL, the kernel is not to blame. */
static void test_infra(void **state)
{
	json_object *run = load("boot-debian61/run.json");
	json_object *rec = jsonx_at(run, "boots", 0);
	json_object *k;

	json_object_object_add(rec, "verdict", json_object_new_string("INFRA"));
	k = export(run, NULL);
	assert_status(k, "tests", ":boot", "ERROR");
	json_object_put(k);

	json_object_object_add(rec, "milestones", json_object_new_array());
	json_object_object_del(jsonx_get(rec, "kernel"), "banner");
	k = export(run, NULL);
	assert_status(k, "tests", ":boot", "MISS");
	json_object_put(k);

	json_object_object_add(rec, "verdict",
			       json_object_new_string("INCOMPLETE"));
	k = export(run, NULL);
	assert_status(k, "tests", ":boot", "MISS");
	json_object_put(k);
	json_object_put(run);
}

/* An infrastructure build skip is ERROR; one never attempted is MISS. */
static void test_build_skip(void **state)
{
	json_object *run = load("matrix-synthetic/run.json");
	json_object *bs = jsonx_get(jsonx_at(run, "boots", 3), "build");
	json_object *k;

	json_object_object_add(bs, "result", json_object_new_string("skip"));
	json_object_object_add(bs, "reason",
			       json_object_new_string(
				       "infrastructure: make could not run"));
	k = export(run, NULL);
	assert_status(k, "builds", ":x86_64-demo-userfaultfd", "ERROR");
	json_object_put(k);
	json_object_object_add(bs, "reason",
			       json_object_new_string("config stage failed"));
	k = export(run, NULL);
	assert_status(k, "builds", ":x86_64-demo-userfaultfd", "MISS");
	json_object_put(k);
	json_object_put(run);
}

/* Options: origin, checkout id, base URL; a bad origin is refused. */
static void test_options(void **state)
{
	json_object *run = load("boot-debian61/run.json");
	struct kcidb_opts o = { .origin = "my_lab", .checkout_id = "nightly-7",
				.base_url = "https://example.org/runs/r1" };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *k = export(run, &o), *bad = NULL;
	json_object *t = find(k, "tests", ":boot");

	assert_string_equal(jsonx_str(jsonx_at(k, "checkouts", 0), "id"),
			    "my_lab:nightly-7");
	assert_string_equal(jsonx_str(t, "id"), "my_lab:nightly-7:x86_64:boot");
	assert_string_equal(jsonx_str(t, "log_url"),
			    "https://example.org/runs/r1/console.log");
	json_object_put(k);

	o.origin = "My-Lab";
	assert_int_equal(kcidb_from_run(run, &o, &bad, &err), -EINVAL);
	assert_null(bad);
	assert_non_null(strstr(err.buf, "My-Lab"));
	json_object_put(run);
}

static void test_status_names(void **state)
{
	assert_string_equal(kcidb_test_status("pass"), "PASS");
	assert_string_equal(kcidb_test_status("fail"), "FAIL");
	assert_string_equal(kcidb_test_status("skip"), "SKIP");
	assert_string_equal(kcidb_test_status("error"), "ERROR");
	assert_string_equal(kcidb_test_status("pending"), "MISS");
	assert_string_equal(kcidb_test_status("xfail"), "PASS");
	assert_string_equal(kcidb_test_status("bogus"), "MISS");
	assert_string_equal(kcidb_test_status(NULL), "MISS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_booted),
		cmocka_unit_test(test_boot_panic),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_infra),
		cmocka_unit_test(test_build_skip),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_status_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
