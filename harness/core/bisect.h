/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect: which option lines of a failing candidate make it fail, and
 * what "fail the same way" means (docs/bisect.md).  Pure: no I/O, never
 * logs; allocation aborts (util/xalloc).
 *
 * The state machine (bisect.c).  The candidate's requested option lines
 * are numbered 0..n-1, each belonging to one of its groups.  A step is a
 * set of lines put on top of the base; the caller runs it through the
 * config, build and boot stages and reports how it ended.  The steps:
 *
 *   1. the base alone (no line): it must not fail the same way, else the
 *      failure is not the groups' (BISECT_BASE_FAILS);
 *   2. every line: it must fail the same way again, else there is
 *      nothing to narrow (BISECT_NOT_REPRODUCED);
 *   3. with several groups, the groups as units, then the lines of the
 *      groups that remain; with one group, its lines.  Each is ddmin
 *      (Zeller and Hildebrandt, "Simplifying and Isolating
 *      Failure-Inducing Input", 2002), which is ktest.pl's config bisect
 *      when a half fails alone: the current failing set is split into
 *      parts (halves first); a part that fails alone the same way becomes
 *      the set; when none does, each complement (the set less one part)
 *      is tried, and a failing one becomes the set; when none of those
 *      fails either, the lines interact: the parts are split finer, until
 *      every part is one line.  The result is 1-minimal: removing any one
 *      of its lines makes the failure go away (or change);
 *   4. the result again (BISECT_STEP_CONFIRM): a failure that does not
 *      come back the same way is flaky (BISECT_FLAKY), never a culprit.
 *
 * A step that fails another way (another stage, another first error,
 * another problem, another check) counts as a pass for this bisection: it
 * does not show the failure looked for.  A step the host could not run
 * (BISECT_INFRA) stops the bisection: guessing its result could name a
 * wrong culprit.  A set already tried is not run again (its result is
 * reused), except for the confirmation.
 */
#ifndef BP_BISECT_H
#define BP_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

enum bisect_outcome {
	BISECT_PASS,		/* no failure */
	BISECT_FAIL_SAME,	/* failed the way the candidate did */
	BISECT_FAIL_OTHER,	/* failed another way: a pass here */
	BISECT_INFRA,		/* the host failed: no result */
};

enum bisect_kind {
	BISECT_STEP_BASE,	/* no line */
	BISECT_STEP_FULL,	/* every line */
	BISECT_STEP_SUBSET,	/* one part of the current set */
	BISECT_STEP_COMPLEMENT,	/* the current set less one part */
	BISECT_STEP_CONFIRM,	/* the result, again */
};

enum bisect_phase {
	BISECT_PHASE_CHECK,	/* base and full */
	BISECT_PHASE_GROUPS,	/* units are groups */
	BISECT_PHASE_LINES,	/* units are lines */
	BISECT_PHASE_CONFIRM,
};

enum bisect_status {
	BISECT_RUNNING,
	BISECT_FOUND,		/* bisect_culprit() made it fail */
	BISECT_BASE_FAILS,	/* the base alone fails the same way */
	BISECT_NOT_REPRODUCED,	/* every line together did not fail so */
	BISECT_STOPPED_INFRA,	/* a step could not run */
	BISECT_FLAKY,		/* the result did not fail again */
	BISECT_STEP_LIMIT,	/* max_steps ran out */
};

/* A step to run: lines[i] says whether line i is in it (borrowed from the
 * bisection, valid until the next bisect_report()). */
struct bisect_step {
	unsigned n;		/* 1-based step number */
	enum bisect_kind kind;
	enum bisect_phase phase;
	const bool *lines;
	size_t n_in;		/* lines in it */
	size_t part, parts;	/* subset/complement: part (1-based) of parts */
	size_t units;		/* units (groups or lines) in the current set */
};

struct bisect;

/*
 * A bisection of n_lines lines; group_of[i] is the group of line i
 * (0..n_groups-1).  max_steps: stop after that many steps (0: no limit).
 * Returns 0 and a new bisection, or -EINVAL (no line, a group out of
 * range).
 */
int bisect_new(const size_t *group_of, size_t n_lines, size_t n_groups,
	       unsigned max_steps, struct bisect **ret);
void bisect_free(struct bisect *b);

/* The next step to run, true; false when the bisection is over
 * (bisect_status says how).  Asking again without a report gives the
 * same step. */
bool bisect_next(struct bisect *b, struct bisect_step *ret);
/* How the step bisect_next() gave ended. */
void bisect_report(struct bisect *b, enum bisect_outcome o);

enum bisect_status bisect_status(const struct bisect *b);
/* The smallest set of lines known to fail the same way (FOUND: the
 * culprit; stopped early: what it had narrowed to; NULL before the full
 * step failed).  *ret_n: how many lines are in it. */
const bool *bisect_culprit(const struct bisect *b, size_t *ret_n);
/* True when no part of the split failed alone at some point: the answer
 * came from complements or finer splits (lines that fail only together,
 * or a failure whose lines mask each other). */
bool bisect_interaction(const struct bisect *b);
/* Steps given so far. */
unsigned bisect_steps(const struct bisect *b);

const char *bisect_outcome_name(enum bisect_outcome o);	/* "pass", "fail-same", ... */
const char *bisect_kind_name(enum bisect_kind k);	/* "base", "full", ... */
const char *bisect_phase_name(enum bisect_phase p);	/* "check", "groups", ... */
const char *bisect_status_name(enum bisect_status s);	/* "running", "found", ... */
/* One line saying what the status means, for the record and the report. */
const char *bisect_status_text(enum bisect_status s);

/*
 * What "the same way" means (bisect_sig.c).  A failure's signature, from a
 * candidate's record in a matrix run.json (docs/results.md):
 *   config    the config stage failed (its error text is not compared: it
 *             names the step's own fragment file);
 *   build     the build failed: its first error (core/builderr), exactly;
 *   boot      the boot verdict (PANIC, PROBLEMS, HUNG, CRASHED) and the
 *             signature and title of its first problem not allowed
 *             (core/console), when it has one;
 *   scenario  the first scenario that failed or gave no result, and its
 *             first failed KTAP check (a path "kgdb/kgdbts").
 * A step fails the same way when it fails at the same stage and: build,
 * the same first error; boot, the same verdict with a problem of the same
 * signature or the same title among its own problems; scenario, that check
 * failed again (that scenario without a result again).  The title counts
 * because the signature hashes the call trace, which the options bisected
 * change: one that turns off inlining (DEBUG_SECTION_MISMATCH) makes a
 * function inlined before a frame of its own, and the same WARNING a new
 * signature.  The title (kind and the function it fired in) does not move.
 */
struct bisect_sig {
	char *stage;	/* "config", "build", "boot", "scenario" */
	char *what;	/* build: first error; boot: verdict; scenario: name */
	char *detail;	/* boot: problem signature; scenario: check path;
			 * NULL when none */
	char *title;	/* boot: that problem's title; NULL when none */
	char *text;	/* one line for people */
};

/* How a candidate record ended: BISECT_PASS, BISECT_INFRA (not finished:
 * the host failed or the run was cut), or a failure with *ret filled
 * (release with bisect_sig_done) and BISECT_FAIL_SAME returned. */
enum bisect_outcome bisect_sig_of(json_object *rec, struct bisect_sig *ret);
void bisect_sig_done(struct bisect_sig *s);

/* The outcome of a step's record against the failure looked for; why
 * gets one line (the step's own signature, or why it does not count). */
enum bisect_outcome bisect_judge(const struct bisect_sig *target,
				 json_object *rec, struct strbuf *why);

/*
 * The fragment of a step (bisect_frag.c): a group header naming the
 * scenarios the candidate's groups name, then, for each chosen line, a
 * comment with where it was requested and the line itself.
 */
struct bisect_frag_line {
	const char *text;	/* "CONFIG_X=y" / "# CONFIG_X is not set" */
	const char *source;	/* "file:line" */
	const char *name;	/* "X" */
};
struct bisect_frag {
	const char *name;	/* "# group:" (a valid group name) */
	const char *arch;
	const char *scenarios;	/* "boot,kgdb" */
	const char *from;	/* one line */
	const struct bisect_frag_line *lines;
	const bool *in;		/* which of lines */
	size_t n_lines;
};
void bisect_frag_text(const struct bisect_frag *f, struct strbuf *out);

/*
 * The lines of a step that its config stage dropped: rec is the step's
 * candidate record ("config": { "options": [ { option, status,
 * reason_kind, reason } ] }); for each line in the step whose option's
 * status is not "kept", { "line": i, "option": name, "reason_kind",
 * "reason" }.  A new array (empty when nothing was dropped or the record
 * says nothing).
 */
json_object *bisect_dropped(json_object *rec, const struct bisect_frag_line *lines,
			    const bool *in, size_t n);

/*
 * Which lines of the culprit are there for another: L needs M when a
 * recorded step that ran exactly the culprit less M (ddmin tries each
 * before it calls the culprit 1-minimal) lost L to an unmet dependency
 * (its "dropped" has L with run.json's reason_kind for it,
 * matrixrec_reason_kind(EXPLAIN_DEPENDS): "unmet-dependency").  Such an M is no
 * cause of the failure by itself: L is, and M is what L needs to be
 * built at all.  steps: the "steps" array of a bisection record (each
 * with "lines" and "dropped").  A new array, one entry per culprit line
 * that needs others, in line order: { "line": L, "needs": [M...],
 * "reason": the config stage's reason for dropping L }.
 */
json_object *bisect_needs(json_object *steps, const bool *culprit, size_t n);

/* One sentence per "needs" entry of a culprit record (with its "options"
 * for the lines' text), each ending in a newline: "CONFIG_X=y needs
 * CONFIG_Y=y: without it, Kconfig drops it (REASON)". */
void bisect_needs_text(json_object *culprit, struct strbuf *out);

#endif
