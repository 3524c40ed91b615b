// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.html's "What each group costs" section: run.json's "costs"
 * (core/costrec) as bar charts, one bar per group per figure
 * (core/svgbar), per arch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report_parts.h"
#include "core/svgbar.h"
#include "util/jsonx.h"

/* A figure: where its number is in a cost entry, and how it is shown. */
struct figure {
	const char *title;
	const char *section, *member;	/* entry[section][member] */
	const char *value;		/* its member holding the number */
	const char *error;		/* member holding the error, or NULL */
	bool sampled;			/* change/spread of a boot figure */
	bool fewer_is_cost;		/* memory available: less costs */
	double scale;			/* shown value = number / scale */
	const char *unit;
};

static const struct figure figures[] = {
	{ "Objects compiled", "build", "objects", "delta", NULL, false, false,
	  1, "" },
	{ "CPU of a build from clean (s)", "build", "cpu_from_clean", "delta",
	  "error", false, false, 1, " s" },
	{ "CPU of the incremental build after the base (s)", "build",
	  "incremental", "cpu_seconds", NULL, false, false, 1, " s" },
	{ "bzImage (KiB)", "size", "bzimage_bytes", "delta", NULL, false, false,
	  1024, " KiB" },
	{ "vmlinux text (KiB)", "size", "text", "delta", NULL, false, false,
	  1024, " KiB" },
	{ "vmlinux data (KiB)", "size", "data", "delta", NULL, false, false,
	  1024, " KiB" },
	{ "vmlinux bss (KiB)", "size", "bss", "delta", NULL, false, false,
	  1024, " KiB" },
	{ "Modules (KiB)", "size", "modules_bytes", "delta", NULL, false, false,
	  1024, " KiB" },
	{ "Root image (KiB)", "size", "image_bytes", "delta", NULL, false,
	  false, 1024, " KiB" },
	{ "Time to init (s, median)", "boot", "time_to_init_s", "delta",
	  "spread", true, false, 1, " s" },
	{ "Time to the agent's end (s, median)", "boot", "time_to_agent_end_s",
	  "delta", "spread", true, false, 1, " s" },
	{ "Memory available to the kernel (MiB)", "boot",
	  "kernel_available_kb", "delta", "spread", true, true, 1024, " MiB" },
	{ "MemAvailable at the agent's start (MiB)", "boot",
	  "agent_memavailable_kb", "delta", "spread", true, true, 1024,
	  " MiB" },
	{ "Options turned on (direct + implied)", "config", NULL, "on", NULL, false,
	  false, 1, "" },
};

/* One bar of figure f for cost entry c; text goes into txt. */
static void bar_of(const struct figure *f, json_object *c, struct strbuf *txt,
		   struct svgbar_bar *ret)
{
	json_object *o = jsonx_get(jsonx_get(c, f->section), f->member ?: "");
	double v, e = 0;
	bool none;

	if (!f->member)
		o = jsonx_get(c, f->section);
	*ret = (struct svgbar_bar){ .label = jsonx_str(c, "group") ?: "?",
				    .kind = SVGBAR_UNKNOWN };
	if (!jsonx_num(o, f->value, &v)) {
		strbuf_addstr(txt, "unknown");
		return;
	}
	v /= f->scale;
	if (f->error && jsonx_num(o, f->error, &e))
		e /= f->scale;
	else
		e = 0;
	if (f->sampled)
		none = !strcmp(jsonx_str(o, "change") ?: "", "none");
	else
		none = fabs(v) <= e || v == 0;
	ret->value = v;
	ret->error = e;
	ret->kind = none ? SVGBAR_NONE
		    : (v > 0) != f->fewer_is_cost ? SVGBAR_MORE
						  : SVGBAR_LESS;
	if (v == 0)
		strbuf_addf(txt, "0%s", f->unit);
	else if (none)
		strbuf_addf(txt, "none (%+.1f%s)", v, f->unit);
	else if (!strcmp(f->value, "delta"))
		strbuf_addf(txt, f->scale == 1 && !*f->unit ? "%+.0f%s"
							    : "%+.1f%s",
			    v, f->unit);
	else
		strbuf_addf(txt, "%.0f%s", v, f->unit);
	if (e > 0 && !none)
		strbuf_addf(txt, " ±%.1f", e);
	if (!f->member) {
		double d, i;

		if (jsonx_num(o, "direct", &d) && jsonx_num(o, "implied", &i))
			strbuf_addf(txt, " (%.0f + %.0f)", d, i);
	}
}

static void arch_figures(xmlNodePtr grid, json_object *costs, const char *arch)
{
	size_t n = 0, len = json_object_array_length(costs);
	json_object **mine = calloc(len + 1, sizeof(*mine));

	if (!mine)
		abort();
	for (size_t i = 0; i < len; i++) {
		json_object *c = json_object_array_get_idx(costs, i);

		if (!strcmp(jsonx_str(c, "arch") ?: "", arch))
			mine[n++] = c;
	}
	for (size_t f = 0; f < ELEMENTSOF(figures); f++) {
		struct svgbar_bar *bars = calloc(n + 1, sizeof(*bars));
		struct strbuf *txt = calloc(n + 1, sizeof(*txt));
		struct svgbar_chart chart = { .title = figures[f].title,
					      .bars = bars, .n = n };
		xmlNodePtr fig = html_elc(grid, "figure", "cost");

		if (!bars || !txt)
			abort();
		html_attr(fig, "data-figure", figures[f].title);
		html_elt(fig, "figcaption", NULL, figures[f].title);
		for (size_t i = 0; i < n; i++) {
			strbuf_init(&txt[i], 0);
			bar_of(&figures[f], mine[i], &txt[i], &bars[i]);
			bars[i].text = txt[i].buf;
		}
		svgbar_render(fig, &chart);
		for (size_t i = 0; i < n; i++)
			strbuf_release(&txt[i]);
		free(txt);
		free(bars);
	}
	free(mine);
}

void report_costs(struct report_page *h, xmlNodePtr main_)
{
	json_object *costs = jsonx_get(h->run, "costs");
	const char *seen[64];
	size_t n_seen = 0, len;
	xmlNodePtr sec, p;

	if (!costs || !json_object_is_type(costs, json_type_array))
		return;
	len = json_object_array_length(costs);
	sec = html_el(main_, "section");
	html_attr(sec, "id", "costs");
	html_elt(sec, "h2", NULL, "What each group costs");
	if (!len) {
		html_elt(sec, "p", "muted",
			 "No group costs: the plan has no \"each\" candidate "
			 "beside a base candidate (candidates base each).");
		return;
	}
	p = html_elc(sec, "p", "legend");
	html_text(p, "Each bar is one group's candidate against the base "
		     "candidate of its arch: ");
	html_elt(p, "b", "c-more", "more");
	html_text(p, " costs more, ");
	html_elt(p, "b", "c-less", "less");
	html_text(p, " costs less, ");
	html_elt(p, "b", "c-none", "none");
	html_text(p, ": inside the spread of the boots or the estimate's "
		     "error (the whisker). `bootproof cost` prints the same "
		     "figures; docs/cost.md says how each is measured.");
	for (size_t i = 0; i < len && n_seen < ELEMENTSOF(seen); i++) {
		json_object *c = json_object_array_get_idx(costs, i);
		const char *arch = jsonx_str(c, "arch");
		bool dup = false;

		for (size_t k = 0; arch && k < n_seen; k++)
			dup = dup || !strcmp(seen[k], arch);
		if (!arch || dup)
			continue;
		seen[n_seen++] = arch;
		html_elt(sec, "h3", NULL, arch);
		if (jsonx_str(c, "base"))
			html_textf(html_elc(sec, "p", "muted"),
				   "against %s; CPU from clean: %s",
				   jsonx_str(c, "base"),
				   jsonx_str(jsonx_get(jsonx_get(c, "build"),
						       "cpu_from_clean"),
					     "method") ?: "unknown");
		arch_figures(html_elc(sec, "div", "costs"), costs, arch);
	}
}
