/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rundiff: what regressed and what was fixed between two runs (pure).
 *
 * Both documents must have passed runread_validate().  Matrix runs are
 * compared per group x arch, per candidate (matched by candidate.id) and
 * within a candidate per stage, scenario, kernel problem and requested
 * option; single-boot runs per boot record (matched by arch).
 *
 * Classes (docs/report.md has the table):
 *   regression  group verdict to FAIL; config or build to fail; boot
 *               verdict BOOTED to PANIC/PROBLEMS/HUNG/CRASHED; scenario
 *               pass to fail/error; a kernel problem (by signature) that A
 *               did not have and that is not allowed
 *   fix         the reverse of each of those
 *   note        everything else that changed: PASS<->PARTIAL (with the
 *               options), anything to or from SKIP, INFRA or INCOMPLETE,
 *               options newly dropped or now kept, candidates, groups or
 *               scenarios present in only one run, an incomplete run
 * A problem is new when B's kernel ran (a verdict other than INFRA or
 * none) and A's ran to the end (nor INCOMPLETE or RUNNING either); gone
 * the other way round: a kernel that no longer builds, or a boot cut
 * short, has not fixed its oops.
 */
#ifndef BP_RUNDIFF_H
#define BP_RUNDIFF_H

#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

enum rundiff_class {
	RUNDIFF_REGRESSION,
	RUNDIFF_FIX,
	RUNDIFF_NOTE,
};

struct rundiff_item {
	enum rundiff_class cls;
	/* "run", "group", "config", "build", "boot", "scenario", "problem",
	 * "option", "candidate" (static strings). */
	const char *what;
	char *key;	/* "demo-bpf/x86_64", "x86_64-bpf/bpf", ... */
	char *from;	/* A's value, NULL when A does not have it */
	char *to;	/* B's value, NULL when B does not have it */
	char *detail;	/* one line: why, or NULL */
};

struct rundiff {
	struct rundiff_item *items;	/* in report order */
	size_t n;
	size_t n_regressions, n_fixes, n_notes;
};

/*
 * Compare run a (the baseline) with run b.  name_a / name_b name them in
 * messages.  *ret is owned by the caller (rundiff_free).  Returns 0;
 * -EINVAL with err set when the runs cannot be compared (a matrix run and
 * a single boot).
 */
int rundiff_compare(json_object *a, const char *name_a, json_object *b,
		    const char *name_b, struct rundiff **ret,
		    struct strbuf *err);

/* Accepts NULL. */
void rundiff_free(struct rundiff *d);

const char *rundiff_class_name(enum rundiff_class c);

/* Text for people: a section per class, one line per item, a summary
 * line.  Appends to out. */
void rundiff_format_text(const struct rundiff *d, struct strbuf *out);

/*
 * { "regressions": [ITEM...], "fixes": [...], "notes": [...],
 *   "counts": { "regressions", "fixes", "notes" } } where ITEM is
 * { "what", "key", "from", "to", "detail" }.  New object (caller puts) or
 * NULL on allocation failure.
 */
json_object *rundiff_to_json(const struct rundiff *d);

#endif
