/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisectrun: `bootproof bisect RUN_DIR`, a failing candidate of a matrix
 * run narrowed to the option lines that make it fail (docs/bisect.md).
 *
 * Reads the failing run's run.json, picks the candidate (the one asked
 * for, else the first that failed and is not the base alone), takes its
 * failure's signature (core/bisect: what "the same way" means) and loads
 * the run's plan and kernel tree as --resume would (engine/runprep).  Then
 * core/bisect proposes steps; each step is a real `bootproof run` of one
 * candidate through engine/matrix (its stages behind struct
 * matrix_stage_ops: opts->stages puts fakes there): the base alone, or the
 * base plus one fragment holding the step's lines, written to
 * <bisect>/steps/NN.config (the confirmation's to <bisect>/culprit.config).
 * Each step's run directory is <bisect>/steps/<run-id>/ with its own
 * run.json and report.html, so every step has its reproducer
 * (candidate.reproduce).
 *
 * The bisection's own run directory, <results>/<run-id>/ (tag "bisect"),
 * has run.json with "command": "bisect" and a "bisect" member rewritten
 * after every step (docs/bisect.md), and report.html (core/report_bisect).
 */
#ifndef BP_ENGINE_BISECTRUN_H
#define BP_ENGINE_BISECTRUN_H

#include <stdbool.h>

#include "engine/matrix.h"
#include "engine/runrec.h"

struct bisectrun_opts {
	const char *run_dir;	/* the failing matrix run */
	const char *candidate;	/* its id, or NULL: the first failed one */
	const char *results;	/* where the bisection's directory goes */
	const char *accel;	/* "auto", "kvm", "tcg"; NULL: the run's */
	const char *uri;	/* NULL: guesthost_uri() */
	unsigned jobs, retries;
	unsigned max_steps;	/* 0: no limit */
	bool quiet;		/* no progress on stderr */
	int argc;		/* recorded in run.json */
	char **argv;
	/* Tests: fakes behind the stages, a data and cache directory (NULL:
	 * bp_data_dir(), bp_cache_dir()). */
	const struct matrix_stage_ops *stages;
	void *stages_ud;
	const char *datadir, *cache;
};

/*
 * Run the bisection.  Logs what goes wrong, once.  Returns the exit code:
 * 1 the failure was narrowed (status found) or is a failure that cannot
 * be narrowed (base-fails, flaky, step-limit); 0 the candidate did not
 * fail again (not-reproduced); 2 bad input (no such run or candidate, a
 * candidate that did not fail, the base alone); 3 a step the host could
 * not run; 130 interrupted.  *ret_run gets the bisection's run when one
 * was opened (free with run_free), else NULL.
 */
int bisectrun_run(const struct bisectrun_opts *o, struct run **ret_run);

#endif
