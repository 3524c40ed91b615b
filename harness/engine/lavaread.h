/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lavaread: a finished LAVA job read back into the run that sent it
 * (`bootproof lava-results`, docs/lava.md).
 *
 * The job's log (lava-run's stderr, or a LAVA server's jobs/<id>/logs/)
 * goes through core/lavalog into the same console chain as a local boot
 * (core/bootlog), and the record is built by the same builder
 * (core/bootrec): the candidate gets the same boot record, verdict,
 * problems and scenario results as a local boot would have given it.
 * The record replaces the one that waited for LAVA; a matrix run's group
 * verdicts are decided again (core/matrixrec), its exit code with them;
 * run.json, junit.xml and report.html are written again.  The console is
 * kept as <prefix>console.log, the log as <prefix>lava-log.yaml.
 *
 * Which record: --candidate, else the job's metadata (bootproof.candidate
 * or bootproof.record, from the job definition given: the YAML bootproof
 * wrote, or the server's jobs/<id>/ JSON whose "definition" it is), else
 * the run's only record.  A job whose bootproof.run is another run's is
 * refused.
 */
#ifndef BP_ENGINE_LAVAREAD_H
#define BP_ENGINE_LAVAREAD_H

#include <json-c/json.h>

#include "util/strbuf.h"

struct lavaread_opts {
	const char *run;	/* a run directory (or its run.json) */
	const char *log;	/* the job's log (required) */
	const char *job;	/* the job definition or the server's job
				 * JSON, or NULL */
	const char *tests;	/* the server's jobs/<id>/tests/ JSON, or NULL */
	const char *candidate;	/* a candidate id, or NULL */
};

/*
 * Read the job into the run.  *ret_record gets the new record (owned by
 * *ret_doc, the run's document, which the caller frees), *ret_exit the
 * run's exit code after it (enum bp_exit).  Returns 0, or -errno with err
 * saying what: -EINVAL / -ENOENT for input the user must fix (not a run,
 * not a LAVA log, no such candidate, a job of another run, a record that
 * was not sent to LAVA), other -errno when a file could not be written.
 */
int lavaread_run(const struct lavaread_opts *o, json_object **ret_doc,
		 json_object **ret_record, int *ret_exit, struct strbuf *err);

#endif
