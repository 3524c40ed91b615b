// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/junit against recorded runs: the junit.xml that real `bootproof
 * boot` runs wrote (tests/data/runs/README.md says how they were recorded)
 * must come out byte for byte from their run.json; in every run the
 * counts on <testsuite> must agree with the test cases under it; and the
 * matrix record's cases (config options, a failed build, a panic, a
 * scenario error or skip) come out as CI systems expect.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "core/junit.h"
#include "core/runread.h"
#include "util/strbuf.h"

static char *read_data(const char *run, const char *file)
{
	_cleanup_strbuf_ struct strbuf buf = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;

	assert_true(asprintf(&path, "%s/runs/%s/%s", TEST_DATA, run, file) > 0);
	assert_true(strbuf_read_file(&buf, path, 0) > 0);
	return strbuf_detach(&buf, NULL);
}

static char *junit_of(const char *run)
{
	_cleanup_free_ char *text = read_data(run, "run.json");
	json_object *doc = json_tokener_parse(text), *boots;
	char *xml = NULL;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "boots", &boots));
	assert_int_equal(junit_from_records(boots, &xml), 0);
	json_object_put(doc);
	return xml;
}

static void test_recorded_boots(void **state)
{
	static const char *const runs[] = {
		"boot-debian61",
		"boot-debian61-crash",
		"boot-debian61-hostile-cmdline",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		_cleanup_free_ char *want = read_data(runs[i], "junit.xml");
		_cleanup_free_ char *got = junit_of(runs[i]);

		if (strcmp(got, want))
			fail_msg("%s: junit.xml differs from the recorded one:\n%s",
				 runs[i], got);
	}
}

/* ------------------------------------------------------------ XPath */

struct xdoc {
	xmlDocPtr doc;
	xmlXPathContextPtr ctx;
};

static void xdoc_open(struct xdoc *x, const char *xml)
{
	x->doc = xmlReadMemory(xml, (int)strlen(xml), "junit.xml", NULL,
			       XML_PARSE_NONET);
	assert_non_null(x->doc);
	x->ctx = xmlXPathNewContext(x->doc);
	assert_non_null(x->ctx);
}

static void xdoc_close(struct xdoc *x)
{
	xmlXPathFreeContext(x->ctx);
	xmlFreeDoc(x->doc);
}

static double xnum(struct xdoc *x, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, x->ctx);
	double v;

	assert_non_null(o);
	v = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	return v;
}

/* The string value of expr ("" when it selects nothing); caller frees. */
static char *xstr(struct xdoc *x, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, x->ctx);
	xmlChar *s;
	char *r;

	assert_non_null(o);
	s = xmlXPathCastToString(o);
	r = strdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(o);
	return r;
}

static void assert_counts_agree(const char *run)
{
	_cleanup_free_ char *xml = junit_of(run);
	struct xdoc x;
	int n;

	xdoc_open(&x, xml);
	n = (int)xnum(&x, "count(/testsuites/testsuite)");
	assert_true(n > 0);
	for (int i = 1; i <= n; i++) {
		static const char *const attr[] = { "tests", "failures",
						     "errors", "skipped" };
		static const char *const child[] = { "", "failure", "error",
						     "skipped" };
		for (size_t a = 0; a < 4; a++) {
			char e1[160], e2[160];
			double want, got;

			snprintf(e1, sizeof(e1),
				 "number(/testsuites/testsuite[%d]/@%s)", i,
				 attr[a]);
			if (child[a][0])
				snprintf(e2, sizeof(e2),
					 "count(/testsuites/testsuite[%d]/"
					 "testcase/%s)",
					 i, child[a]);
			else
				snprintf(e2, sizeof(e2),
					 "count(/testsuites/testsuite[%d]/"
					 "testcase)",
					 i);
			want = xnum(&x, e2);
			got = xnum(&x, e1);
			if (want != got)
				fail_msg("%s suite %d: %s=%g but %g such cases",
					 run, i, attr[a], got, want);
		}
	}
	xdoc_close(&x);
}

static void test_counts_agree(void **state)
{
	(void)state;
	assert_counts_agree("boot-debian61");
	assert_counts_agree("boot-debian61-crash");
	assert_counts_agree("boot-debian61-hostile-cmdline");
	assert_counts_agree("matrix-synthetic");
	assert_counts_agree("matrix-hostile-synthetic");
}

#define SUITE(name) "/testsuites/testsuite[@name='" name "']"
#define MX "bootproof-20261203-090000-demo-5a1c0e-"

static void test_matrix_cases(void **state)
{
	_cleanup_free_ char *xml = junit_of("matrix-synthetic");
	struct xdoc x;
	char *s;

	(void)state;
	xdoc_open(&x, xml);
	assert_int_equal((int)xnum(&x, "count(/testsuites/testsuite)"), 10);

	/* Requested options are cases, one per option; the one Kconfig
	 * does not know (CGROUP_DMEM on 6.12) is the suite's one failure. */
	assert_int_equal(
		(int)xnum(&x, "count(" SUITE(MX "x86_64-demo-cgroups")
			      "/testcase[starts-with(@name,'config:')])"),
		4);
	assert_int_equal(
		(int)xnum(&x, "count(" SUITE(MX "x86_64-demo-cgroups")
			      "//failure)"),
		1);
	assert_int_equal(
		(int)xnum(&x, "count(" SUITE(MX "x86_64-demo-cgroups")
			      "/testcase[@name='config:CGROUP_DMEM']/failure)"),
		1);

	/* A candidate whose build failed never booted: it has no name of
	 * its own, so its suite is named after the candidate; the build
	 * case fails with the reason and the compiler's first error, and
	 * there is no boot case. */
	assert_int_equal((int)xnum(&x, "count(" SUITE("x86_64-demo-userfaultfd")
					   ")"),
			 1);
	s = xstr(&x, SUITE("x86_64-demo-userfaultfd")
		     "/testcase[@name='build']/failure/@message");
	assert_string_equal(s, "make exited with status 2");
	free(s);
	s = xstr(&x, SUITE("x86_64-demo-userfaultfd")
		     "/testcase[@name='build']/failure");
	assert_non_null(strstr(s, "mm/userfaultfd.c:1711:9: error:"));
	free(s);
	assert_int_equal((int)xnum(&x, "count(" SUITE("x86_64-demo-userfaultfd")
					   "/testcase[@name='boot'])"),
			 0);

	/* A panic fails the boot case with the panic line; the scenario the
	 * crash cut short is an error, not a failure. */
	s = xstr(&x, SUITE(MX "x86_64-demo-kgdb")
		     "/testcase[@name='boot']/failure/@message");
	assert_string_equal(
		s, "Kernel panic - not syncing: Attempted to kill init! "
		   "exitcode=0x0000000b");
	free(s);
	s = xstr(&x, SUITE(MX "x86_64-demo-kgdb")
		     "/testcase[@name='scenario:kgdb']/error/@message");
	assert_string_equal(s, "no result: the guest crashed");
	free(s);

	/* A reused build passes; a skipped scenario is skipped; a failed
	 * scenario is a failure. */
	assert_int_equal((int)xnum(&x, "count(" SUITE(MX "i386-demo-kgdb")
					   "/testcase[@name='build']/*)"),
			 0);
	assert_int_equal(
		(int)xnum(&x, "count(" SUITE(MX "i386-demo-userfaultfd")
			      "/testcase[@name='scenario:userfaultfd']/"
			      "skipped)"),
		1);
	assert_int_equal((int)xnum(&x, "count(" SUITE(MX "i386-demo-kgdb")
					   "/testcase[@name='scenario:kgdb']/"
					   "failure)"),
			 1);
	xdoc_close(&x);
}

static void test_not_an_array(void **state)
{
	json_object *o = json_object_new_object();
	char *xml = NULL;

	(void)state;
	assert_int_equal(junit_from_records(o, &xml), -EINVAL);
	assert_null(xml);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_boots),
		cmocka_unit_test(test_counts_agree),
		cmocka_unit_test(test_matrix_cases),
		cmocka_unit_test(test_not_an_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
