/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runread: read and validate a run.json (docs/results.md, the matrix
 * members of docs/report.md) for the report and diff verbs (pure: json-c
 * on a buffer given to it).
 *
 * Validation checks what a reader relies on, not everything a writer puts
 * there: the schema, the type of every member read by report_html and
 * rundiff, the value sets of verdicts and results, and that every file a
 * record names for a link is a relative path inside the run directory (no
 * "/...", no "..", no "scheme:").  Unknown members are ignored, so the
 * writers may add to the record without breaking the readers.
 *
 * After runread_parse() / runread_validate() succeeded, the accessors below
 * never see a member of the wrong type.
 */
#ifndef BP_RUNREAD_H
#define BP_RUNREAD_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

#define RUNREAD_SCHEMA "bootproof-run/1"

/*
 * Parse buf (len bytes, need not be NUL-terminated) as the run.json called
 * name in messages, and validate it.  On success *ret is the document (the
 * caller owns it: json_object_put).  On failure *ret is untouched and err
 * gets one line naming the file and what is wrong:
 *   "r/run.json:3:14: not valid JSON: unexpected character"
 *   "r/run.json: boots[0].verdict: expected a string or null, got a number"
 * Returns 0; -EINVAL (not JSON, not a run.json, a member wrong);
 * -EPROTONOSUPPORT ("schema" names another version of the format);
 * -ENOMEM.
 */
int runread_parse(const char *name, const char *buf, size_t len,
		  json_object **ret, struct strbuf *err);

/* Validate a document already in memory (same checks and errors). */
int runread_validate(const char *name, json_object *doc, struct strbuf *err);

/* A matrix run (`bootproof run`): it has "groups" or a "plan". */
bool runread_is_matrix(json_object *doc);

/*
 * The key that names boot record i across runs: its candidate.id, else its
 * arch, else "boot"; "#2", "#3"... appended when an earlier record of the
 * same document has the same key.  Written to out (reset first).
 */
void runread_boot_key(json_object *doc, size_t i, struct strbuf *out);

#endif
