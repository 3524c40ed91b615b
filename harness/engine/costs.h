/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * costs: what each option group of a matrix run costs (docs/cost.md), from
 * its run.json and the final .configs in its directory.  The one pipeline
 * behind run.json's "costs" (written by the matrix at the end of a run),
 * the run summary, report.html and `bootproof cost`: core/costrec does the
 * records and text, this module reads the two .configs it compares.
 */
#ifndef BP_ENGINE_COSTS_H
#define BP_ENGINE_COSTS_H

#include <json-c/json.h>

/*
 * The "costs" of doc, the run.json of run directory dir: a new array
 * (core/costrec_run; a .config that cannot be read leaves that entry's
 * "config" null).
 */
json_object *costs_of_run(const char *dir, json_object *doc);

#endif
