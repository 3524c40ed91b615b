/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_bisect: report.html of a `bootproof bisect` run directory (pure):
 * the failure looked for, the answer (the culprit option lines with where
 * they were requested, and the one command that reproduces it; or why the
 * bisection stopped and what it had narrowed to), then every step: its
 * kind, lines, outcome and why, with links to its fragment and its run's
 * own report.  Built with core/html (every outside string a text node).
 */
#ifndef BP_REPORT_BISECT_H
#define BP_REPORT_BISECT_H

#include <stddef.h>

#include <json-c/json.h>

/* The page for doc, a bisection's run.json: 0 and a malloc'd buffer in
 * *ret (*ret_len bytes), -EINVAL (not a bisection), -ENOMEM. */
int report_bisect_render(json_object *doc, char **ret, size_t *ret_len);

#endif
