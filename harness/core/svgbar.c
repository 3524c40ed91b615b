// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/svgbar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/html.h"

int svgbar_height(size_t n)
{
	if (n > SVGBAR_MAX_BARS)
		n = SVGBAR_MAX_BARS;
	return 2 * SVGBAR_TOP + (int)n * SVGBAR_ROW;
}

static bool drawn(const struct svgbar_bar *b)
{
	return b->kind != SVGBAR_UNKNOWN && isfinite(b->value);
}

static double err_of(const struct svgbar_bar *b)
{
	return isfinite(b->error) && b->error > 0 ? b->error : 0;
}

void svgbar_layout(const struct svgbar_chart *c, double *ret_x0,
		   double *ret_scale, struct svgbar_geom *geom)
{
	double lo = 0, hi = 0, scale, x0;
	size_t n = c->n < SVGBAR_MAX_BARS ? c->n : SVGBAR_MAX_BARS;

	for (size_t i = 0; i < n; i++) {
		const struct svgbar_bar *b = &c->bars[i];

		if (!drawn(b))
			continue;
		if (b->value - err_of(b) < lo)
			lo = b->value - err_of(b);
		if (b->value + err_of(b) > hi)
			hi = b->value + err_of(b);
	}
	scale = hi > lo ? SVGBAR_PLOT_W / (hi - lo) : 0;
	x0 = SVGBAR_PLOT_X + (0 - lo) * scale;
	for (size_t i = 0; geom && i < n; i++) {
		const struct svgbar_bar *b = &c->bars[i];
		struct svgbar_geom *g = &geom[i];
		double v = drawn(b) ? b->value : 0, e = drawn(b) ? err_of(b) : 0;

		g->y = SVGBAR_TOP + (int)i * SVGBAR_ROW;
		g->height = SVGBAR_BAR;
		g->x = (int)lround(x0 + (v < 0 ? v : 0) * scale);
		g->width = (int)lround(fabs(v) * scale);
		g->err_x1 = (int)lround(x0 + (v - e) * scale);
		g->err_x2 = (int)lround(x0 + (v + e) * scale);
	}
	*ret_x0 = x0;
	*ret_scale = scale;
}

static void attr_int(xmlNodePtr n, const char *k, long v)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld", v);
	html_attr(n, k, b);
}

static const char *fill_of(enum svgbar_kind k)
{
	return k == SVGBAR_MORE ? SVGBAR_FILL_MORE
	       : k == SVGBAR_LESS ? SVGBAR_FILL_LESS
				  : SVGBAR_FILL_NONE;
}

static const char *kind_name(enum svgbar_kind k)
{
	return k == SVGBAR_MORE ? "more"
	       : k == SVGBAR_LESS ? "less"
	       : k == SVGBAR_NONE ? "none"
				  : "unknown";
}

xmlNodePtr svgbar_render(xmlNodePtr parent, const struct svgbar_chart *c)
{
	size_t n = c->n < SVGBAR_MAX_BARS ? c->n : SVGBAR_MAX_BARS;
	struct svgbar_geom *geom = calloc(n + 1, sizeof(*geom));
	int h = svgbar_height(n);
	double x0, scale;
	char vb[64], val[64];
	xmlNodePtr svg, e;

	if (!geom)
		abort();
	svgbar_layout(c, &x0, &scale, geom);
	svg = html_el(parent, "svg");
	html_attr(svg, "xmlns", "http://www.w3.org/2000/svg");
	attr_int(svg, "width", SVGBAR_WIDTH);
	attr_int(svg, "height", h);
	snprintf(vb, sizeof(vb), "0 0 %d %d", SVGBAR_WIDTH, h);
	html_attr(svg, "viewBox", vb);
	html_attr(svg, "role", "img");
	html_attr(svg, "class", "costchart");
	if (c->title)
		html_text(html_el(svg, "title"), c->title);
	/* The zero axis first: the bars start on it and cover it. */
	e = html_el(svg, "line");
	html_attr(e, "class", "axis");
	attr_int(e, "x1", lround(x0));
	attr_int(e, "x2", lround(x0));
	attr_int(e, "y1", SVGBAR_TOP - 4);
	attr_int(e, "y2", h - SVGBAR_TOP + 4);
	html_attr(e, "stroke", "#59636e");
	html_attr(e, "stroke-width", "1");
	html_attr(e, "shape-rendering", "crispEdges");
	for (size_t i = 0; i < n; i++) {
		const struct svgbar_bar *b = &c->bars[i];
		const struct svgbar_geom *g = &geom[i];
		int mid = g->y + SVGBAR_BAR / 2;

		e = html_el(svg, "text");
		attr_int(e, "x", SVGBAR_PLOT_X - 6);
		attr_int(e, "y", mid + 4);
		html_attr(e, "text-anchor", "end");
		html_attr(e, "class", "label");
		html_text(e, b->label ? b->label : "?");
		if (drawn(b)) {
			e = html_el(svg, "rect");
			html_attr(e, "class", "bar");
			html_attr(e, "data-kind", kind_name(b->kind));
			snprintf(val, sizeof(val), "%.17g", b->value);
			html_attr(e, "data-value", val);
			attr_int(e, "x", g->x);
			attr_int(e, "y", g->y);
			attr_int(e, "width", g->width);
			attr_int(e, "height", g->height);
			html_attr(e, "fill", fill_of(b->kind));
			html_attr(e, "shape-rendering", "crispEdges");
			if (err_of(b) > 0) {
				e = html_el(svg, "line");
				html_attr(e, "class", "error");
				attr_int(e, "x1", g->err_x1);
				attr_int(e, "x2", g->err_x2);
				attr_int(e, "y1", mid);
				attr_int(e, "y2", mid);
				html_attr(e, "stroke", "#1f2328");
				html_attr(e, "stroke-width", "1");
			}
		}
		e = html_el(svg, "text");
		attr_int(e, "x", SVGBAR_PLOT_X + SVGBAR_PLOT_W + 8);
		attr_int(e, "y", mid + 4);
		html_attr(e, "class", "value");
		html_text(e, b->text ? b->text : drawn(b) ? "" : "unknown");
	}
	free(geom);
	return svg;
}
