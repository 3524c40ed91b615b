/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svgbar: a small horizontal bar chart as inline SVG, one bar per row,
 * built into an HTML page's libxml2 tree (core/html.h: labels are text
 * nodes, every number an attribute we format), for report.html's costs.
 * Pure: no script, no style sheet needed (colours are attributes).
 *
 * The geometry is a function of the data alone (svgbar_layout), so a test
 * can hold the drawn rectangles against the numbers:
 *
 *	plot  x from SVGBAR_PLOT_X, SVGBAR_PLOT_W pixels wide, covering
 *	      [lo, hi] = [min(0, v - e), max(0, v + e)] over the bars;
 *	axis  at x0 = SVGBAR_PLOT_X + (0 - lo) * scale, scale =
 *	      SVGBAR_PLOT_W / (hi - lo) pixels per unit (0 when hi == lo);
 *	bar i at y = SVGBAR_TOP + i * SVGBAR_ROW, SVGBAR_BAR pixels high,
 *	      from the axis to the value: x = round(x0 + min(0, v) * scale),
 *	      width = round(|v| * scale);
 *	error a line from v - e to v + e through the bar's middle.
 *
 * Coordinates are whole pixels and the rectangles crisp-edged, so what a
 * browser draws is those pixels exactly (tests/integration/
 * report-chromium.sh measures the screenshot).
 */
#ifndef BP_SVGBAR_H
#define BP_SVGBAR_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#define SVGBAR_WIDTH 440
#define SVGBAR_PLOT_X 120
#define SVGBAR_PLOT_W 200
#define SVGBAR_TOP 8
#define SVGBAR_ROW 26
#define SVGBAR_BAR 16
#define SVGBAR_MAX_BARS 256

/* The colours of a bar, by what the difference is (fill attributes). */
#define SVGBAR_FILL_MORE "#c8553d"
#define SVGBAR_FILL_LESS "#2e8b57"
#define SVGBAR_FILL_NONE "#9aa4ad"

enum svgbar_kind {
	SVGBAR_MORE,	/* a cost: drawn SVGBAR_FILL_MORE */
	SVGBAR_LESS,	/* a saving */
	SVGBAR_NONE,	/* inside the noise: drawn grey, labelled "none" */
	SVGBAR_UNKNOWN,	/* not measured: no bar, labelled "unknown" */
};

struct svgbar_bar {
	const char *label;	/* the group (any text) */
	double value;
	double error;		/* half-width of the error whisker; <= 0 none */
	enum svgbar_kind kind;
	const char *text;	/* the value as shown right of the plot */
};

struct svgbar_chart {
	const char *title;	/* <title> of the svg, the figure's caption */
	const struct svgbar_bar *bars;
	size_t n;		/* at most SVGBAR_MAX_BARS drawn */
};

/* Where bar i goes (a zero-width bar for UNKNOWN). */
struct svgbar_geom {
	int x, y, width, height;
	int err_x1, err_x2;	/* the whisker, when the bar has an error */
};

/* The plot's axis position and scale, and each bar's rectangle (geom has
 * room for c->n entries). */
void svgbar_layout(const struct svgbar_chart *c, double *ret_x0,
		   double *ret_scale, struct svgbar_geom *geom);

/* Height of the svg for n bars. */
int svgbar_height(size_t n);

/* <svg> appended to parent: labels, bars (class "bar", data-value,
 * data-kind), whiskers, the zero axis, value texts.  Returns it (NULL
 * when parent is NULL or out of memory, noted on the document). */
xmlNodePtr svgbar_render(xmlNodePtr parent, const struct svgbar_chart *c);

#endif
