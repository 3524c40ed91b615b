/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_html: the human-readable report.html of a run (pure).
 *
 * A static, self-contained page (inline CSS, no script, no external
 * resource) built from a validated run.json document (core/runread) with
 * libxml2's HTML tree API (core/html.h): every string that came from the
 * guest, the kernel, the plan or the user becomes a text node or an
 * attribute value, so the serialiser escapes it; nothing is concatenated
 * into markup.  Strings are made valid UTF-8 first (invalid bytes become
 * U+FFFD, control characters their Unicode "control picture").
 *
 * The page: the run (id, command, start/end, host, accelerator and why,
 * complete or INCOMPLETE); for matrix runs the groups x arches matrix (a
 * colour per verdict, the deciding stage and reason in each cell), the
 * dropped options per group, the stale base options; then one section per
 * boot record / candidate (config, build and boot verdicts, time to init,
 * scenarios, kernel problems with their report blocks, requested options,
 * the end of the console log, links to its files).  Links are relative
 * hrefs into the run directory.  The output is deterministic: the same
 * document (and file contents) gives the same bytes.
 *
 * Code: report_html.c renders the page and the run's own sections (header
 * and status, matrix, dropped and stale options, footer), report_boots.c
 * the section of each boot record; core/report_parts.h is what the two
 * share, core/html.h the tree helpers under both.
 */
#ifndef BP_REPORT_HTML_H
#define BP_REPORT_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

/* Bytes of a console log's end read for the page, and lines shown. */
#define REPORT_HTML_TAIL_BYTES 16384
#define REPORT_HTML_TAIL_LINES 40

/*
 * What the page may know about the run directory.  Both callbacks may be
 * NULL (then every named file is linked and no console end is shown).
 * relpath is relative to the run directory (runread checked it is inside).
 */
struct report_html_ops {
	/* Does relpath exist?  A missing file is named, not linked. */
	bool (*exists)(void *ud, const char *relpath);
	/*
	 * Append at most max bytes from the end of relpath to out.  Returns
	 * the size of the whole file (more than what was appended when only
	 * its end was read) or -errno.
	 */
	long (*tail)(void *ud, const char *relpath, size_t max,
		     struct strbuf *out);
	void *ud;
};

/*
 * Render doc (a document that passed runread_validate) to HTML.  *ret is a
 * malloc'd NUL-terminated page (caller frees), *ret_len its length (may be
 * NULL).  ops may be NULL.  Returns 0, -EINVAL (doc is not an object),
 * -ENOMEM.
 */
int report_html_render(json_object *doc, const struct report_html_ops *ops,
		       char **ret, size_t *ret_len);

#endif
