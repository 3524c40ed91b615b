// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "core/overlap.h"
#include "core/html.h"
#include "core/report_bisect.h"
#include "core/report_html.h"
#include "util/jsonx.h"
#include "core/runread.h"
#include "util/fileio.h"
#include "util/strbuf.h"

/* ------------------------------------------------------------ helpers */

static json_object *load_doc(const char *run)
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

static json_object *parse_doc(const char *text)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *doc = NULL;

	if (runread_parse("t", text, strlen(text), &doc, &err) < 0)
		fail_msg("%s", err.buf);
	return doc;
}

/* File ops on a directory of tests/data/runs (what the verb does). */
static bool t_exists(void *ud, const char *rel)
{
	_cleanup_free_ char *p = NULL;
	struct stat st;

	assert_true(asprintf(&p, "%s/%s", (const char *)ud, rel) > 0);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static long t_tail(void *ud, const char *rel, size_t max, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf all = STRBUF_INIT;
	_cleanup_free_ char *p = NULL;
	long n;

	assert_true(asprintf(&p, "%s/%s", (const char *)ud, rel) > 0);
	n = strbuf_read_file(&all, p, 0);
	if (n < 0)
		return n;
	if (all.len > max)
		strbuf_add(out, all.buf + all.len - max, max);
	else
		strbuf_add(out, all.buf, all.len);
	return (long)all.len;
}

static char *render(json_object *doc, const char *run)
{
	_cleanup_free_ char *dir = NULL;
	struct report_html_ops ops = { .exists = t_exists, .tail = t_tail };
	char *page = NULL;
	size_t len = 0;

	if (run) {
		assert_true(asprintf(&dir, "%s/runs/%s", TEST_DATA, run) > 0);
		ops.ud = dir;
	}
	assert_int_equal(report_html_render(doc, run ? &ops : NULL, &page, &len),
			 0);
	assert_non_null(page);
	assert_int_equal(strlen(page), len);
	return page;
}

/* Compare with (or, with BP_UPDATE_GOLDEN=1, record) the golden page. */
static void golden(const char *run, const char *page)
{
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
	_cleanup_free_ char *path = NULL;
	const char *upd = getenv("BP_UPDATE_GOLDEN");

	assert_true(asprintf(&path, "%s/runs/%s/expected-report.html",
			     TEST_DATA, run) > 0);
	if (upd && !strcmp(upd, "1")) {
		assert_int_equal(write_file_atomic(path, page, strlen(page),
						   0644), 0);
		return;
	}
	assert_true(strbuf_read_file(&want, path, 0) > 0);
	if (strcmp(want.buf, page)) {
		size_t i = 0;
		while (want.buf[i] && want.buf[i] == page[i])
			i++;
		fail_msg("%s differs at byte %zu: want '%.60s', got '%.60s' "
			 "(BP_UPDATE_GOLDEN=1 re-records; review the diff)",
			 path, i, want.buf + i, page + i);
	}
}

struct dom_stats {
	unsigned forbidden;	/* script, img, iframe, svg, object, embed... */
	unsigned on_attrs;	/* on* event handler attributes */
	unsigned bad_hrefs;	/* not "#..." or "./..." */
	unsigned hrefs;
	unsigned cells;		/* td.cell of the matrix */
	unsigned pres;
};

static void walk(xmlNodePtr n, struct dom_stats *s)
{
	static const char *const forbidden[] = {
		"script", "img", "iframe", "svg", "object", "embed", "link",
		"form", "input", "base", "frame", "video", "audio", NULL,
	};

	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (size_t i = 0; forbidden[i]; i++)
			if (!xmlStrcasecmp(n->name, BAD_CAST forbidden[i]))
				s->forbidden++;
		if (!xmlStrcasecmp(n->name, BAD_CAST "pre"))
			s->pres++;
		for (xmlAttrPtr a = n->properties; a; a = a->next) {
			xmlChar *v = xmlGetProp(n, a->name);

			if (!xmlStrncasecmp(a->name, BAD_CAST "on", 2))
				s->on_attrs++;
			if (!xmlStrcasecmp(a->name, BAD_CAST "href")) {
				s->hrefs++;
				if (!v || (v[0] != '#' &&
					   xmlStrncmp(v, BAD_CAST "./", 2)))
					s->bad_hrefs++;
			}
			if (!xmlStrcasecmp(a->name, BAD_CAST "class") && v &&
			    !xmlStrncmp(v, BAD_CAST "cell ", 5))
				s->cells++;
			xmlFree(v);
		}
		walk(n->children, s);
	}
}

static htmlDocPtr parse_html(const char *page)
{
	htmlDocPtr d = htmlReadMemory(page, (int)strlen(page), "report.html",
				      "UTF-8",
				      HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
					      HTML_PARSE_NONET);
	assert_non_null(d);
	return d;
}

static void dom_stats_of(const char *page, struct dom_stats *s)
{
	htmlDocPtr d = parse_html(page);

	memset(s, 0, sizeof(*s));
	walk(xmlDocGetRootElement(d), s);
	xmlFreeDoc(d);
}

/* The text of the whole page, as a reader sees it. */
static char *page_text(const char *page)
{
	htmlDocPtr d = parse_html(page);
	xmlChar *t = xmlNodeGetContent(xmlDocGetRootElement(d));
	char *r = strdup((const char *)t);

	xmlFree(t);
	xmlFreeDoc(d);
	return r;
}

/* Text of the first element with this class attribute (exact). */
static xmlNodePtr find_class(xmlNodePtr n, const char *cls)
{
	for (; n; n = n->next) {
		xmlNodePtr r;

		if (n->type == XML_ELEMENT_NODE) {
			xmlChar *v = xmlGetProp(n, BAD_CAST "class");
			bool hit = v && !xmlStrcmp(v, BAD_CAST cls);
			xmlFree(v);
			if (hit)
				return n;
		}
		if ((r = find_class(n->children, cls)))
			return r;
	}
	return NULL;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------ golden */

static void test_golden_boot(void **state)
{
	json_object *doc = load_doc("boot-debian61");
	_cleanup_free_ char *page = render(doc, "boot-debian61");
	struct dom_stats s;

	golden("boot-debian61", page);
	dom_stats_of(page, &s);
	assert_int_equal(s.forbidden, 0);
	assert_int_equal(s.cells, 0); /* no matrix for a single boot */
	assert_non_null(strstr(page, "Complete: exit 0, everything passed"));
	assert_non_null(strstr(page, "<a href=\"./console.log\">console log</a>"));
	assert_non_null(strstr(page, "<a href=\"./domain.xml\">domain XML</a>"));
	assert_null(strstr(page, "id=\"matrix\""));
	/* The end of the console: the agent's last KTAP lines. */
	assert_non_null(strstr(page, "End of console.log (last 40 lines of "
				     "33400 bytes)"));
	assert_non_null(strstr(page, "reboot: Power down"));
	json_object_put(doc);
}

static void test_golden_crash(void **state)
{
	json_object *doc = load_doc("boot-debian61-crash");
	_cleanup_free_ char *page = render(doc, "boot-debian61-crash");
	_cleanup_free_ char *text = page_text(page);

	golden("boot-debian61-crash", page);
	assert_non_null(strstr(page, "Complete: exit 1, a kernel, config or "
				     "scenario failure"));
	assert_non_null(strstr(text, "Kernel problems (1)"));
	assert_non_null(strstr(text, "signature 67ed89291e102ea2"));
	assert_non_null(strstr(text, "report block (console lines 477–514)"));
	assert_non_null(strstr(text, " sysrq_handle_crash+0x16/0x20\n"));
	/* A failed boot shows its console end opened. */
	assert_non_null(strstr(page, "<details open=\"open\"><summary>End of "
				     "console.log"));
	json_object_put(doc);
}

/* A real cost run (tests/data/runs/README.md): the costs section, one
 * chart per figure with a bar per group, the bars' values run.json's. */
static void test_golden_cost(void **state)
{
	json_object *doc = load_doc("cost-x86_64");
	_cleanup_free_ char *page = render(doc, "cost-x86_64");
	json_object *costs = NULL;
	struct dom_stats s;

	golden("cost-x86_64", page);
	dom_stats_of(page, &s);
	/* svg is "forbidden" only when a string made it: here the 14 charts
	 * are ours, and nothing else is there */
	assert_int_equal(s.forbidden, 14);
	assert_int_equal(s.on_attrs, 0);
	assert_int_equal(s.bad_hrefs, 0);
	assert_non_null(strstr(page, "<section id=\"costs\">"));
	assert_non_null(strstr(page, "<a href=\"#costs\">costs</a>"));
	assert_true(json_object_object_get_ex(doc, "costs", &costs));
	for (size_t i = 0; i < json_object_array_length(costs); i++) {
		json_object *c = json_object_array_get_idx(costs, i), *o, *d;
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;

		assert_true(json_object_object_get_ex(c, "build", &o));
		assert_true(json_object_object_get_ex(o, "objects", &o));
		assert_true(json_object_object_get_ex(o, "delta", &d));
		if (!d)
			continue;
		strbuf_addf(&want, "data-value=\"%" PRId64 "\"",
			    json_object_get_int64(d));
		if (!strstr(page, want.buf))
			fail_msg("no bar with %s", want.buf);
	}
	json_object_put(doc);
}

/* A recorded bisection's page: the culprit line and its reproducer, every
 * step, nothing active, links inside the run directory only. */
static void test_golden_bisect(void **state)
{
	json_object *doc = load_doc("bisect-test-bisect");
	char *page = NULL;
	size_t len = 0;
	struct dom_stats s;

	assert_int_equal(report_bisect_render(doc, &page, &len), 0);
	assert_int_equal(strlen(page), len);
	golden("bisect-test-bisect", page);
	dom_stats_of(page, &s);
	assert_int_equal(s.forbidden, 0);
	assert_int_equal(s.on_attrs, 0);
	assert_int_equal(s.bad_hrefs, 0);
	assert_non_null(strstr(page, "CONFIG_PHYSICAL_ALIGN=0x300000"));
	assert_non_null(strstr(page, "test-bisect.config:14"));
	assert_non_null(strstr(page, "culprit.config --candidates each"));
	assert_non_null(strstr(page, "./steps/20261206-014027-step07-99b38c/"
				     "report.html"));
	free(page);
	json_object_put(doc);
	/* not a bisection */
	doc = json_tokener_parse("{}");
	assert_int_equal(report_bisect_render(doc, &page, &len), -EINVAL);
	json_object_put(doc);
}

/* A FAIL group and a failed candidate show the command that reproduces
 * them, as text (quotes and markup escaped); others show none. */
static void test_reproduce_shown(void **state)
{
	json_object *doc = load_doc("matrix-synthetic");
	const char *cmd = "bootproof run --group '/tmp/a&b<c>.config' "
			  "--candidates each";
	char *page;
	size_t n = 0;

	for (size_t i = 0; i < jsonx_len(doc, "groups"); i++) {
		json_object *g = jsonx_at(doc, "groups", i);

		if (!strcmp(jsonx_str(g, "verdict"), "FAIL") &&
		    !strcmp(jsonx_str(g, "group"), "demo-userfaultfd"))
			json_object_object_add(g, "reproduce",
					       json_object_new_string(cmd));
	}
	for (size_t i = 0; i < jsonx_len(doc, "boots"); i++) {
		json_object *c = jsonx_get(jsonx_at(doc, "boots", i),
					   "candidate");

		json_object_object_add(c, "reproduce",
				       json_object_new_string(cmd));
	}
	page = render(doc, NULL);
	for (const char *p = page; (p = strstr(p, "reproduce: ")); p++)
		n++;
	/* the FAIL cell, and the three candidates that failed (the build of
	 * x86_64-demo-userfaultfd, the panic of x86_64-demo-kgdb, the kgdb
	 * scenario of i386-demo-kgdb) */
	assert_int_equal(n, 4);
	assert_non_null(strstr(page, "--group '/tmp/a&amp;b&lt;c&gt;.config' "
				     "--candidates each"));
	assert_null(strstr(page, "<c>"));
	free(page);
	json_object_put(doc);
}

static void test_golden_matrix(void **state)
{
	json_object *doc = load_doc("matrix-synthetic");
	_cleanup_free_ char *page = render(doc, NULL);
	static const char *const groups[] = { "demo-bpf", "demo-cgroups",
					      "demo-userfaultfd", "demo-kgdb" };
	static const char *const arches[] = { "x86_64", "i386" };
	/* Verdicts of the synthetic run (tests/data/runs/README.md). */
	static const char *const cls[4][2] = {
		{ "v-pass", "v-pass" },
		{ "v-partial", "v-partial" },
		{ "v-fail", "v-skip" },
		{ "v-fail", "v-fail" },
	};
	struct dom_stats s;

	golden("matrix-synthetic", page);
	dom_stats_of(page, &s);
	assert_int_equal(s.forbidden, 0);
	assert_int_equal(s.on_attrs, 0);
	assert_int_equal(s.bad_hrefs, 0);
	assert_int_equal(s.cells, 8);
	for (size_t g = 0; g < 4; g++)
		for (size_t a = 0; a < 2; a++) {
			_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
			strbuf_addf(&want,
				    "<td class=\"cell %s\" data-group=\"%s\" "
				    "data-arch=\"%s\">",
				    cls[g][a], groups[g], arches[a]);
			if (!strstr(page, want.buf))
				fail_msg("no cell %s", want.buf);
		}
	/* Stage and reason of a failed cell, and the link to its candidate. */
	assert_non_null(strstr(page, "<div class=\"stage\">at build</div>"));
	assert_non_null(strstr(page, "<a href=\"#boot-4-x86_64-demo-userfaultfd\">"
				     "x86_64-demo-userfaultfd</a>"));
	assert_non_null(strstr(page, "id=\"boot-4-x86_64-demo-userfaultfd\""));
	/* Dropped options per group, stale base options once per arch. */
	assert_int_equal(count(page, "<code>CONFIG_CGROUP_DMEM</code>"), 2 + 2);
	assert_int_equal(count(page, "<code>CONFIG_S390_GUEST</code>"), 2);
	assert_non_null(strstr(page, "<b>no-prompt</b>: no prompt: set only by"));
	/* The counts. */
	assert_non_null(strstr(page, ">2 PASS<"));
	assert_non_null(strstr(page, ">2 PARTIAL<"));
	assert_non_null(strstr(page, ">3 FAIL<"));
	assert_non_null(strstr(page, ">1 SKIP<"));
	/* Build failure: first error, not booted. */
	assert_non_null(strstr(page, "<pre>mm/userfaultfd.c:1711:9: error: "));
	assert_non_null(strstr(page, "<span class=\"badge v-none\">not booted"));
	json_object_put(doc);
}

/* ------------------------------------------------------------ escaping */

static void assert_no_markup_injected(const char *page)
{
	struct dom_stats s;

	dom_stats_of(page, &s);
	assert_int_equal(s.forbidden, 0);
	assert_int_equal(s.on_attrs, 0);
	assert_int_equal(s.bad_hrefs, 0);
	assert_null(strstr(page, "<script"));
	assert_null(strstr(page, "<img"));
	assert_null(strstr(page, "<iframe"));
	assert_null(strstr(page, "<svg"));
}

static void test_hostile_matrix_is_text(void **state)
{
	json_object *doc = load_doc("matrix-hostile-synthetic");
	_cleanup_free_ char *page = render(doc, "matrix-hostile-synthetic");
	_cleanup_free_ char *text = page_text(page);
	htmlDocPtr d;
	xmlNodePtr n;
	xmlChar *v;
	struct dom_stats s;

	assert_no_markup_injected(page);
	dom_stats_of(page, &s);
	assert_int_equal(s.cells, 4);
	/* Every hostile string is there, as text. */
	assert_non_null(strstr(text, "WARNING: CPU: 0 PID: 1 at "
				     "<script>alert(1)</script>"));
	assert_non_null(strstr(text, "<img src=x onerror=alert(2)>"));
	assert_non_null(strstr(text, "</pre></td></table><iframe "
				     "src=javascript:alert(3)></iframe>"));
	assert_non_null(strstr(text, "&amp; &lt;tag&gt; \"double\" 'single' "
				     "<svg onload=alert(4)>"));
	assert_non_null(strstr(text, "<b onmouseover=alert(6)>host</b>"));
	/* ... in the console end too, cleaned of what a terminal eats. */
	assert_non_null(strstr(text, "[   12.401000] <script>alert(1)</script>\n"));
	assert_non_null(strstr(text, "invalid UTF-8 (\xef\xbf\xbd\xef\xbf\xbd)"));
	/* The hostile group name is an attribute value, exactly. */
	d = parse_html(page);
	n = find_class(xmlDocGetRootElement(d), "cell v-fail");
	assert_non_null(n);
	v = xmlGetProp(n, BAD_CAST "data-group");
	assert_string_equal((const char *)v, "evil\"><script>alert(5)</script>");
	xmlFree(v);
	/* The problem title is one element's text. */
	n = find_class(xmlDocGetRootElement(d), "ptitle");
	v = xmlNodeGetContent(n);
	assert_string_equal((const char *)v, "WARNING: CPU: 0 PID: 1 at "
					     "<script>alert(1)</script>");
	xmlFree(v);
	xmlFreeDoc(d);
	/* A hostile candidate id makes a tame anchor. */
	assert_non_null(strstr(page, "id=\"boot-2-x86_64-___script_alert_7___"
				     "script_\""));
	json_object_put(doc);
}

/* A real boot whose command line the kernel and the agent echoed. */
static void test_hostile_cmdline_boot_is_text(void **state)
{
	json_object *doc = load_doc("boot-debian61-hostile-cmdline");
	_cleanup_free_ char *page = render(doc, "boot-debian61-hostile-cmdline");
	_cleanup_free_ char *text = page_text(page);
	static const char hostile[] = "<script>alert(1)</script> "
				      "x=<img/src=x/onerror=alert(2)> "
				      "</pre>&amp;";

	assert_no_markup_injected(page);
	/* The command line (run.json), the agent's KTAP diagnostic and the
	 * console end each show it. */
	assert_true(count(text, hostile) >= 3);
	assert_non_null(strstr(text, "# kernel: command line: console=ttyS0"));
	json_object_put(doc);
}

static void test_clean_text(void **state)
{
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} cases[] = {
		{ "plain <b>&", 10, "plain <b>&" },
		{ "tab\tnl\ncr\r.", 11, "tab\tnl\ncr." },
		{ "nul\0bel\a", 8, "nul\xe2\x90\x80" "bel\xe2\x90\x87" },
		{ "esc\x1b[0m del\x7f", 12,
		  "esc\xe2\x90\x9b[0m del\xe2\x90\xa1" },
		{ "\xc3\xa9\xe2\x86\x92\xf0\x9f\x90\xa7", 9,
		  "\xc3\xa9\xe2\x86\x92\xf0\x9f\x90\xa7" }, /* é→🐧 */
		{ "\xff", 1, "\xef\xbf\xbd" },
		{ "\xc0\x80", 2, "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong */
		{ "\xed\xa0\x80", 3,
		  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* surrogate */
		{ "\xf4\x90\x80\x80", 4,
		  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "ab\xe2\x86", 4, "ab\xef\xbf\xbd\xef\xbf\xbd" }, /* cut */
		{ "\xe2(x", 3, "\xef\xbf\xbd(x" },
	};

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

		html_clean_text(cases[i].in, cases[i].n, &sb);
		if (strcmp(sb.buf, cases[i].out))
			fail_msg("case %zu: got '%s'", i, sb.buf);
	}
}

/* A NUL inside a JSON string is shown, and does not cut the text. */
static void test_json_nul_in_reason(void **state)
{
	json_object *doc = parse_doc(
		"{\"schema\":\"bootproof-run/1\",\"run_id\":\"r\","
		"\"command\":\"boot\",\"started\":\"s\",\"complete\":true,"
		"\"exit_code\":1,\"boots\":[{\"arch\":\"x86_64\","
		"\"verdict\":\"HUNG\",\"reason\":\"before\\u0000after <x>\"}]}");
	_cleanup_free_ char *page = render(doc, NULL);

	assert_non_null(strstr(page, "before\xe2\x90\x80" "after &lt;x&gt;"));
	json_object_put(doc);
}

/* ------------------------------------------------------------ states */

static void test_incomplete_run_says_so(void **state)
{
	json_object *doc = parse_doc(
		"{\"schema\":\"bootproof-run/1\",\"run_id\":\"r1\","
		"\"command\":\"boot\",\"started\":\"2026-12-03T08:00:00Z\","
		"\"finished\":null,\"complete\":false,\"exit_code\":null,"
		"\"boots\":[{\"arch\":\"x86_64\",\"verdict\":\"RUNNING\","
		"\"files\":{\"console\":\"console.log\"}}]}");
	_cleanup_free_ char *page = render(doc, NULL);

	assert_non_null(strstr(page, "<title>bootproof r1: INCOMPLETE</title>"));
	assert_non_null(strstr(page, "<p class=\"status incomplete\">"
				     "INCOMPLETE: this run was interrupted"));
	assert_non_null(strstr(page, "not finished"));
	json_object_put(doc);
}

/* run.json's "times", as run 20261207-154956-demo-a95794 (make demo on
 * a new cache) recorded it: the summary's line, in the header too. */
static void test_times_line(void **state)
{
	json_object *doc = parse_doc(
		"{\"schema\":\"bootproof-run/1\",\"run_id\":\"r1\","
		"\"command\":\"run\",\"started\":\"2026-12-07T15:49:56Z\","
		"\"finished\":\"2026-12-07T15:58:49Z\",\"complete\":true,"
		"\"exit_code\":0,\"boots\":[],\"times\":{"
		"\"wall_s\":533.2273870739955,\"stages_s\":504.9016291339947,"
		"\"from_clean_builds\":2,"
		"\"from_clean_builds_s\":447.78829936499824}}");
	_cleanup_free_ char *page = render(doc, NULL);
	_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;

	(void)state;
	overlap_times_line(jsonx_get(doc, "times"), &want);
	assert_true(want.len > 0);
	assert_non_null(strstr(page, "<th>time</th>"));
	assert_non_null(strstr(page, want.buf));
	assert_non_null(strstr(page, "the 2 builds from clean alone took"));
	json_object_put(doc);
}

/* Numbers no integer holds (found by fuzz/fuzz-report): shown as they
 * are, without undefined behaviour (UBSan in make check). */
static void test_out_of_range_numbers(void **state)
{
	json_object *doc = parse_doc(
		"{\"schema\":\"bootproof-run/1\",\"run_id\":\"r\","
		"\"command\":\"boot\",\"started\":\"0-2-3T0:4:8Z\","
		"\"finished\":\"206-2-3T0:9:9Z\",\"complete\":true,"
		"\"exit_code\":9223372036854775807,\"boots\":[{\"verdict\":"
		"\"HUNG\",\"elapsed_s\":1e300,\"time_to_init_s\":-5,"
		"\"build\":{\"result\":\"pass\",\"seconds\":4e9}}]}");
	_cleanup_free_ char *page = render(doc, NULL);

	assert_non_null(strstr(page, "Complete: exit 9223372036854775807"));
	assert_non_null(strstr(page, "(6500736301.0 s)"));
	assert_non_null(strstr(page, "<div>4000000000.0 s</div>"));
	assert_non_null(strstr(page, "init after -5.0 s"));
	json_object_put(doc);
}

static bool none_exist(void *ud, const char *rel)
{
	return false;
}

static void test_missing_files_are_not_linked(void **state)
{
	json_object *doc = load_doc("boot-debian61");
	struct report_html_ops ops = { .exists = none_exist };
	_cleanup_free_ char *page = NULL;
	struct dom_stats s;

	assert_int_equal(report_html_render(doc, &ops, &page, NULL), 0);
	assert_non_null(strstr(page, "<span class=\"muted\" "
				     "title=\"console.log\">console log "
				     "(missing)</span>"));
	assert_null(strstr(page, "href=\"./"));
	assert_null(strstr(page, "End of console.log"));
	dom_stats_of(page, &s);
	assert_int_equal(s.bad_hrefs, 0);
	json_object_put(doc);
}

/* The console end starts at a whole line and keeps the last lines. */
static long fake_tail(void *ud, const char *rel, size_t max,
		      struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf all = STRBUF_INIT;

	for (int i = 1; i <= 5000; i++)
		strbuf_addf(&all, "[%5d.000000] line %d of a long log\r\n", i, i);
	assert_true(all.len > max);
	strbuf_add(out, all.buf + all.len - max, max);
	return (long)all.len;
}

static void test_console_tail_lines(void **state)
{
	json_object *doc = parse_doc(
		"{\"schema\":\"bootproof-run/1\",\"run_id\":\"r\","
		"\"command\":\"boot\",\"started\":\"s\",\"complete\":true,"
		"\"boots\":[{\"verdict\":\"HUNG\",\"files\":{\"console\":"
		"\"c.log\"}}]}");
	struct report_html_ops ops = { .tail = fake_tail };
	_cleanup_free_ char *page = NULL, *text = NULL;
	char *pre;

	assert_int_equal(report_html_render(doc, &ops, &page, NULL), 0);
	text = page_text(page);
	pre = strstr(text, "[ 4961.000000] line 4961 of a long log\n");
	assert_non_null(pre);
	assert_null(strstr(text, "line 4960 of"));
	assert_non_null(strstr(pre, "[ 5000.000000] line 5000 of a long log\n"));
	assert_int_equal(count(text, " of a long log\n"), REPORT_HTML_TAIL_LINES);
	json_object_put(doc);
}

static void test_bad_input(void **state)
{
	char *page = NULL;
	json_object *arr = json_object_new_array();

	assert_int_equal(report_html_render(NULL, NULL, &page, NULL), -EINVAL);
	assert_int_equal(report_html_render(arr, NULL, &page, NULL), -EINVAL);
	assert_null(page);
	json_object_put(arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_boot),
		cmocka_unit_test(test_golden_crash),
		cmocka_unit_test(test_golden_matrix),
		cmocka_unit_test(test_golden_cost),
		cmocka_unit_test(test_reproduce_shown),
		cmocka_unit_test(test_golden_bisect),
		cmocka_unit_test(test_hostile_matrix_is_text),
		cmocka_unit_test(test_hostile_cmdline_boot_is_text),
		cmocka_unit_test(test_clean_text),
		cmocka_unit_test(test_json_nul_in_reason),
		cmocka_unit_test(test_incomplete_run_says_so),
		cmocka_unit_test(test_times_line),
		cmocka_unit_test(test_out_of_range_numbers),
		cmocka_unit_test(test_missing_files_are_not_linked),
		cmocka_unit_test(test_console_tail_lines),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
