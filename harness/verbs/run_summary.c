// SPDX-License-Identifier: GPL-2.0-or-later
/* What `bootproof run` and `bootproof merge` print at the end of a run. */
#include "verbs/run_summary.h"

#include <stdio.h>
#include <string.h>

#include "core/costrec.h"
#include "core/overlap.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

/* "  41.0 s" (9 wide) from o's key, or "-" when it has none. */
static void put_seconds(json_object *o, const char *key)
{
	double s;

	if (o && jsonx_num(o, key, &s))
		printf(" %7.1f s", s);
	else
		printf(" %9s", "-");
}

/* How long each candidate's stages took: config, build (and whether it
 * was built or reused), boot (and its verdict). */
static void print_times(json_object *boots)
{
	size_t n = boots ? json_object_array_length(boots) : 0;

	if (!n)
		return;
	printf("\n%-24s %9s %9s %-7s %9s\n", "candidate", "config", "build",
	       "", "boot");
	for (size_t i = 0; i < n; i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		json_object *build = jsonx_get(b, "build");

		printf("%-24s", jsonx_text(jsonx_get(b, "candidate"), "id") ?: "?");
		put_seconds(jsonx_get(b, "config"), "seconds");
		put_seconds(build, "seconds");
		printf(" %-7s", jsonx_text(build, "result") ?: "");
		put_seconds(b, "elapsed_s");
		printf(" %s\n", jsonx_text(b, "verdict") ?: "");
	}
}

void run_summary_print(const struct run *run, const char *report)
{
	json_object *groups = jsonx_get(run->doc, "groups");
	json_object *plan = jsonx_get(run->doc, "plan");
	json_object *arches = jsonx_get(plan, "arches");
	json_object *names = jsonx_get(plan, "groups");
	size_t na = arches ? json_object_array_length(arches) : 0;
	json_object *costs;

	printf("%-24s", "group");
	for (size_t a = 0; a < na; a++)
		printf(" %-8s", json_object_get_string(
					json_object_array_get_idx(arches, a)));
	putchar('\n');
	for (size_t n = 0; names && n < json_object_array_length(names); n++) {
		const char *name = json_object_get_string(
			json_object_array_get_idx(names, n));

		printf("%-24s", name);
		for (size_t a = 0; a < na; a++) {
			const char *arch = json_object_get_string(
				json_object_array_get_idx(arches, a));
			const char *v = "?";

			for (size_t i = 0; i < json_object_array_length(groups);
			     i++) {
				json_object *g = json_object_array_get_idx(groups, i);

				if (!strcmp(jsonx_text(g, "group") ?: "", name) &&
				    !strcmp(jsonx_text(g, "arch") ?: "", arch))
					v = jsonx_text(g, "verdict") ?: "?";
			}
			printf(" %-8s", v);
		}
		putchar('\n');
	}
	for (size_t i = 0; groups && i < json_object_array_length(groups); i++) {
		json_object *g = json_object_array_get_idx(groups, i);
		const char *v = jsonx_text(g, "verdict") ?: "?";
		const char *stage = jsonx_text(g, "stage");

		if (!strcmp(v, "PASS"))
			continue;
		printf("  %s on %s: %s%s%s\n      %s\n",
		       jsonx_text(g, "group") ?: "?", jsonx_text(g, "arch") ?: "?", v,
		       stage ? " at " : "", stage ? stage : "",
		       jsonx_text(g, "reason") ?: "");
		if (jsonx_text(g, "reproduce"))
			printf("      reproduce: %s\n", jsonx_text(g, "reproduce"));
	}
	for (size_t i = 0; groups && i < json_object_array_length(groups); i++)
		if (jsonx_text(json_object_array_get_idx(groups, i), "reproduce")) {
			printf("narrow a failure down to its option lines: "
			       "bootproof bisect %s\n", run->dir);
			break;
		}
	print_times(jsonx_get(run->doc, "boots"));
	{
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

		overlap_times_line(jsonx_get(run->doc, "times"), &sb);
		if (sb.len)
			printf("%s%s\n", sb.buf,
			       json_object_get_int(jsonx_get(
				       jsonx_get(run->doc, "parallel"),
				       "workers")) > 1
				       ? " (the arches at once)"
				       : "");
	}
	costs = jsonx_get(run->doc, "costs");
	if (costs && json_object_array_length(costs)) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

		costrec_text(costs, &sb);
		printf("\nwhat each group costs (bootproof cost):\n%s\n", sb.buf);
	}
	printf("results: %s/\n", run->dir);
	if (report)
		printf("report: %s\n", report);
}
