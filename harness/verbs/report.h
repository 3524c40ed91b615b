/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `bootproof report` and `bootproof diff` share, and what the run
 * verbs (boot, run) call to write report.html at the end of a run.
 */
#ifndef BP_VERBS_REPORT_H
#define BP_VERBS_REPORT_H

#include <json-c/json.h>

/* Largest run.json read (a run with many problem reports is a few MiB). */
#define REPORT_RUNJSON_MAX (64u << 20)

/*
 * Load and validate a run: arg is a run directory or its run.json.
 * *ret_dir gets the run directory (malloc'd), *ret the document.  Logs one
 * error naming the file and what is wrong.  Returns 0, -ENOENT (no such
 * run directory or no run.json in it), -EINVAL / -EPROTONOSUPPORT (not a
 * valid run.json), other -errno (could not read it).
 */
int report_load_run(const char *arg, char **ret_dir, json_object **ret);

/*
 * (Re)write <run_dir>/report.html (atomically) from <run_dir>/run.json.
 * *ret_path (may be NULL) gets the page's path, malloc'd.  Logs a warning
 * on failure.  Returns 0 or -errno.
 */
int report_write(const char *run_dir, char **ret_path);

#endif
