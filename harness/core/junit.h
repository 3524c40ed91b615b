/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * junit: JUnit XML from a run record (pure; libxml2 writer, so everything a
 * guest printed is escaped).
 *
 * One <testsuite> per boot record (per candidate in a matrix run), named
 * after its domain (a candidate that never booted: after its candidate
 * id).  Its test cases: "config:<OPTION>" for each requested option
 * checked against the final .config (when the record has "config"),
 * "build" (when it has "build"), "boot" (the verdict; failure message =
 * the reason, system-out = the first problem reports), and
 * "scenario:<name>" for each scenario (skipped with the reason, failure
 * with the reason and the failing checks' diagnostics).
 */
#ifndef BP_JUNIT_H
#define BP_JUNIT_H

#include <json-c/json.h>

/*
 * suites: a JSON array of records, each an object with "name" and the
 * members described in docs/results.md.  *ret is a malloc'd document.
 * Returns 0, -EINVAL for a non-array, -ENOMEM.
 */
int junit_from_records(json_object *suites, char **ret);

#endif
