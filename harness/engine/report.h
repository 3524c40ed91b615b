/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report: loading a run directory and writing its report.html.
 *
 * What `bootproof report` and `bootproof diff` share, and what the run
 * verbs (boot, run) call to write report.html at the end of a run.  The
 * page itself is core/report_html; this module reads run.json
 * (core/runread validates it) and the run directory's files for it.
 */
#ifndef BP_ENGINE_REPORT_H
#define BP_ENGINE_REPORT_H

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
 * Write <dir>/report.html (atomically) for doc, the run.json of the run
 * directory dir (its files are linked and the console logs' ends read).
 * *ret_path (may be NULL) gets the page's path, malloc'd.  Does not log.
 * Returns 0 or -errno.
 */
int report_write_page(const char *dir, json_object *doc, char **ret_path);

/*
 * (Re)write <run_dir>/report.html (atomically) from <run_dir>/run.json.
 * *ret_path (may be NULL) gets the page's path, malloc'd.  Logs a warning
 * on failure.  Returns 0 or -errno.
 */
int report_write(const char *run_dir, char **ret_path);

#endif
