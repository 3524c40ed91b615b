/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_parts: what the two halves of report.html (core/report_html.h)
 * share, for those two files only.  report_html.c renders the page and
 * its run sections: header and status, the groups x arches matrix, the
 * dropped and the stale options, the footer; it also implements the
 * report_* helpers below.  report_boots.c renders the boot sections, one
 * per boot record or candidate (report_boots).  Element building itself
 * is core/html.h.
 */
#ifndef BP_REPORT_PARTS_H
#define BP_REPORT_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/html.h"
#include "core/report_html.h"
#include "util/strbuf.h"

/* The page being rendered. */
struct report_page {
	json_object *run;	/* the validated run.json (borrowed) */
	const struct report_html_ops *ops; /* may be NULL */
	bool oom;		/* a failure outside the tree (core/html) */
	/* Anchor of each boot record, by index (owned). */
	char **anchors;
	size_t n_anchors;
};

/* The CSS class of a verdict or result v: the class of the first entry of
 * map (n entries, {value, class}) equal to v, "v-none" for NULL, else
 * other. */
struct report_class {
	const char *v, *cls;
};
const char *report_class(const struct report_class *map, size_t n,
			 const char *v, const char *other);

/* Does relpath exist in the run directory (true when ops cannot say)? */
bool report_file_exists(const struct report_page *h, const char *rel);
/* A link to a file of the run directory, or its name when missing
 * (nothing for a NULL rel). */
void report_file_link(const struct report_page *h, xmlNodePtr parent,
		      const char *rel, const char *label);

/* s seconds as "12.3 s", "4m05s" or "1h02m03s". */
void report_duration(struct strbuf *sb, double s);
/* The strings of the array o[key], sep between them. */
void report_join(json_object *o, const char *key, const char *sep,
		 struct strbuf *sb);
/* "name result, name result" of the array o["scenarios"]. */
void report_scenario_list(json_object *o, struct strbuf *sb);

/* Cells of an option record o (a row of requested, dropped or stale
 * options): CONFIG_<option> with where it was requested; "requested →
 * final"; why: its reason kind, then the reason of first (when it has
 * one, else of o), then o's detail when with_detail. */
void report_option_cell(xmlNodePtr tr, const char *option, json_object *o);
void report_value_cell(xmlNodePtr tr, json_object *o);
void report_why_cell(xmlNodePtr tr, json_object *first, json_object *o,
		     bool with_detail);

/* "reproduce: <code>bootproof run ...</code>" of o["reproduce"] (a FAIL
 * group verdict's, a failed candidate's), as a div under parent. */
void report_reproduce(xmlNodePtr parent, json_object *o);

/* The boot sections, under main_. */
void report_boots(struct report_page *h, xmlNodePtr main_);

/* The costs section (report_costs.c): run.json's "costs" as bar charts;
 * nothing when the run has no "costs" member. */
void report_costs(struct report_page *h, xmlNodePtr main_);

#endif
