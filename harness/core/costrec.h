/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * costrec: what each option group costs, as run.json's "costs" and as
 * text (pure: json-c objects in, new json-c objects and text out).  The
 * figures and their meaning are docs/cost.md's; the arithmetic is
 * core/cost.h.
 *
 * A group's cost is its "each" candidate against the base candidate of
 * the same arch, from their boot records: the build's "measure" (engine/
 * buildmeasure), the boot's times and memory (with "samples" when the
 * candidate booted more than once), the image size, and the two final
 * .configs compared (which only the caller can read: a callback).
 */
#ifndef BP_COSTREC_H
#define BP_COSTREC_H

#include <stddef.h>

#include <json-c/json.h>

#include "core/cost.h"
#include "util/strbuf.h"

/*
 * Add "samples" to first, the record of a candidate's first boot, from
 * the records of the same kernel booted again (repeats, n of them,
 * borrowed): { n, time_to_init_s: [], kernel_time_to_init_s: [],
 * time_to_agent_end_s: [], kernel_available_kb: [],
 * agent_memavailable_kb: [], verdicts: [], consoles: [] }, the first
 * boot's values first (null where a boot did not say).
 */
void costrec_samples(json_object *first, json_object *const *repeats,
		     size_t n);

/* What a candidate's record (rec, its "build" member's "measure") says of
 * its build: objects, CPU seconds, from clean or not, ccache; after_base
 * when it was built after the config whose hash is base_hash (NULL:
 * never).  The one reader of build.measure. */
void costrec_build(json_object *rec, const char *base_hash,
		   struct cost_build *ret);

/*
 * Fill *ret with the comparison of the two final .configs: base_rel and
 * cand_rel are the records' config.final_config (paths in the run
 * directory); requested the option names the group's fragment asked
 * for.  0, or -errno (the config member is then null).
 */
typedef int (*costrec_config_fn)(void *ud, const char *base_rel,
				 const char *cand_rel,
				 const char *const *requested, size_t n,
				 struct cost_config *ret);

/*
 * The run's "costs": one entry per "each" candidate of run (a run.json
 * document) whose arch has a base candidate, in the order of the boots.
 * config may be NULL (config members null).  A new array.
 */
json_object *costrec_run(json_object *run, costrec_config_fn config,
			 void *ud);

/* The costs as text (what `bootproof cost` and the run summary print). */
void costrec_text(json_object *costs, struct strbuf *out);

#endif
