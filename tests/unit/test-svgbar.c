// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svgbar: the geometry of the bars against the numbers, for every sign
 * mix, with errors, unknown bars and none; and the <svg> the tree gets
 * (parsed back with libxml2's HTML parser) carries exactly that geometry.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

#include "core/html.h"
#include "core/svgbar.h"

/* Each drawn bar: width = round(|v| * scale), x = round(x0 + min(0,v) *
 * scale), within the plot, the axis inside the plot. */
static void check_geometry(const struct svgbar_chart *c)
{
	struct svgbar_geom g[16];
	double x0, scale, lo = 0, hi = 0;

	assert_true(c->n <= 16);
	svgbar_layout(c, &x0, &scale, g);
	for (size_t i = 0; i < c->n; i++) {
		const struct svgbar_bar *b = &c->bars[i];
		double e = b->error > 0 ? b->error : 0;

		if (b->kind == SVGBAR_UNKNOWN)
			continue;
		lo = fmin(lo, b->value - e);
		hi = fmax(hi, b->value + e);
	}
	if (hi > lo)
		assert_true(fabs(scale - SVGBAR_PLOT_W / (hi - lo)) < 1e-9);
	else
		assert_true(scale == 0);
	assert_true(x0 >= SVGBAR_PLOT_X - 1e-9 &&
		    x0 <= SVGBAR_PLOT_X + SVGBAR_PLOT_W + 1e-9);
	for (size_t i = 0; i < c->n; i++) {
		const struct svgbar_bar *b = &c->bars[i];
		double v = b->kind == SVGBAR_UNKNOWN ? 0 : b->value;

		assert_int_equal(g[i].y, SVGBAR_TOP + (int)i * SVGBAR_ROW);
		assert_int_equal(g[i].height, SVGBAR_BAR);
		assert_int_equal(g[i].width, (int)lround(fabs(v) * scale));
		assert_int_equal(g[i].x, (int)lround(x0 + fmin(0, v) * scale));
		assert_true(g[i].x >= SVGBAR_PLOT_X);
		assert_true(g[i].x + g[i].width <= SVGBAR_PLOT_X + SVGBAR_PLOT_W + 1);
		/* a positive bar starts at the axis, a negative one ends there */
		if (v > 0)
			assert_true(abs(g[i].x - (int)lround(x0)) <= 1);
		if (v < 0)
			assert_true(abs(g[i].x + g[i].width - (int)lround(x0)) <= 1);
	}
}

static void test_layout(void **state)
{
	const struct svgbar_bar pos[] = {
		{ "a", 100, 0, SVGBAR_MORE, NULL },
		{ "b", 50, 0, SVGBAR_MORE, NULL },
		{ "c", 0, 0, SVGBAR_NONE, NULL },
	};
	const struct svgbar_bar neg[] = {
		{ "a", -10, 0, SVGBAR_LESS, NULL },
		{ "b", -40, 0, SVGBAR_LESS, NULL },
	};
	const struct svgbar_bar mixed[] = {
		{ "a", 30, 5, SVGBAR_MORE, NULL },
		{ "b", -10, 2, SVGBAR_LESS, NULL },
		{ "c", 3, 10, SVGBAR_NONE, NULL },
		{ "d", 1e9, 0, SVGBAR_UNKNOWN, NULL },
		{ "e", NAN, 0, SVGBAR_MORE, NULL },
	};
	const struct svgbar_bar zero[] = { { "a", 0, 0, SVGBAR_NONE, NULL } };
	const struct svgbar_chart charts[] = {
		{ "pos", pos, ELEMENTSOF(pos) },
		{ "neg", neg, ELEMENTSOF(neg) },
		{ "mixed", mixed, ELEMENTSOF(mixed) },
		{ "zero", zero, 1 },
		{ "empty", NULL, 0 },
	};
	struct svgbar_geom g[8];
	double x0, scale;

	for (size_t i = 0; i < ELEMENTSOF(charts); i++)
		check_geometry(&charts[i]);
	/* the exact numbers of two of them */
	svgbar_layout(&charts[0], &x0, &scale, g);
	assert_true(x0 == SVGBAR_PLOT_X && scale == 2.0);
	assert_int_equal(g[0].width, 200);
	assert_int_equal(g[1].width, 100);
	assert_int_equal(g[2].width, 0);
	svgbar_layout(&charts[1], &x0, &scale, g);
	assert_true(x0 == SVGBAR_PLOT_X + SVGBAR_PLOT_W && scale == 5.0);
	assert_int_equal(g[1].x, SVGBAR_PLOT_X);
	assert_int_equal(g[1].width, 200);
	assert_int_equal(g[0].x, SVGBAR_PLOT_X + 150);
	/* mixed: [lo, hi] = [-12, 35], the errors included; the unknown and
	 * NaN bars do not widen it */
	svgbar_layout(&charts[2], &x0, &scale, g);
	assert_true(fabs(scale - 200.0 / 47) < 1e-9);
	assert_int_equal(g[0].err_x1, (int)lround(x0 + 25 * scale));
	assert_int_equal(g[0].err_x2, (int)lround(x0 + 35 * scale));
	assert_int_equal(g[3].width, 0);
	assert_int_equal(g[4].width, 0);
	assert_int_equal(svgbar_height(3), 2 * SVGBAR_TOP + 3 * SVGBAR_ROW);
	assert_int_equal(svgbar_height(100000), svgbar_height(SVGBAR_MAX_BARS));
}

static xmlXPathObjectPtr query(htmlDocPtr d, const char *xp)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(d);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST xp, ctx);

	xmlXPathFreeContext(ctx);
	return o;
}

static long attr_long(xmlNodePtr n, const char *k)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST k);
	long r = v ? strtol((const char *)v, NULL, 10) : -1;

	xmlFree(v);
	return r;
}

/* The tree, dumped and parsed back, has the layout's rectangles with the
 * values, the kinds' colours, the labels as text. */
static void test_render(void **state)
{
	const struct svgbar_bar bars[] = {
		{ "demo-bpf", 85, 0, SVGBAR_MORE, "+85" },
		{ "<script>x</script>", -20, 4, SVGBAR_LESS, "-20 ±4" },
		{ "quiet", 1, 3, SVGBAR_NONE, "none (+1)" },
		{ "lost", 0, 0, SVGBAR_UNKNOWN, NULL },
	};
	const struct svgbar_chart c = { "Objects compiled", bars, 4 };
	static const char *const fills[] = { SVGBAR_FILL_MORE, SVGBAR_FILL_LESS,
					     SVGBAR_FILL_NONE };
	struct svgbar_geom g[4];
	double x0, scale;
	xmlNodePtr root, body;
	htmlDocPtr doc = html_doc_new("en", &root), back;
	xmlXPathObjectPtr o;
	char *page = NULL;
	size_t len;

	body = html_el(root, "body");
	assert_non_null(svgbar_render(body, &c));
	assert_int_equal(html_doc_dump(doc, &page, &len), 0);
	xmlFreeDoc(doc);
	back = htmlReadMemory(page, (int)len, "t.html", "UTF-8",
			      HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	assert_non_null(back);
	svgbar_layout(&c, &x0, &scale, g);
	o = query(back, "//svg/rect[@class='bar']");
	assert_int_equal(xmlXPathNodeSetGetLength(o->nodesetval), 3);
	for (int i = 0; i < 3; i++) {
		xmlNodePtr r = xmlXPathNodeSetItem(o->nodesetval, i);
		xmlChar *fill = xmlGetProp(r, BAD_CAST "fill");
		xmlChar *val = xmlGetProp(r, BAD_CAST "data-value");

		assert_int_equal(attr_long(r, "x"), g[i].x);
		assert_int_equal(attr_long(r, "y"), g[i].y);
		assert_int_equal(attr_long(r, "width"), g[i].width);
		assert_int_equal(attr_long(r, "height"), SVGBAR_BAR);
		assert_string_equal((char *)fill, fills[i]);
		assert_true(strtod((char *)val, NULL) == bars[i].value);
		xmlFree(fill);
		xmlFree(val);
	}
	xmlXPathFreeObject(o);
	/* two whiskers (the none bar has one too), one axis */
	o = query(back, "//svg/line[@class='error']");
	assert_int_equal(xmlXPathNodeSetGetLength(o->nodesetval), 2);
	assert_int_equal(attr_long(xmlXPathNodeSetItem(o->nodesetval, 0), "x1"),
			 g[1].err_x1);
	xmlXPathFreeObject(o);
	o = query(back, "//svg/line[@class='axis']");
	assert_int_equal(xmlXPathNodeSetGetLength(o->nodesetval), 1);
	assert_int_equal(attr_long(xmlXPathNodeSetItem(o->nodesetval, 0), "x1"),
			 lround(x0));
	xmlXPathFreeObject(o);
	/* a label is text: no script element came from it */
	o = query(back, "//script");
	assert_int_equal(xmlXPathNodeSetGetLength(o->nodesetval), 0);
	xmlXPathFreeObject(o);
	o = query(back, "//svg/text[@class='label'][2]");
	assert_int_equal(xmlXPathNodeSetGetLength(o->nodesetval), 1);
	xmlXPathFreeObject(o);
	o = query(back, "string(//svg/text[@class='value'][4])");
	assert_string_equal((char *)o->stringval, "unknown");
	xmlXPathFreeObject(o);
	o = query(back, "string(//svg/title)");
	assert_string_equal((char *)o->stringval, "Objects compiled");
	xmlXPathFreeObject(o);
	assert_non_null(strstr(page, "&lt;script&gt;"));
	xmlFreeDoc(back);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_render),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
