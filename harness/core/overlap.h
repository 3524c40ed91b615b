/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * overlap: whether `bootproof run` boots a built candidate while the next
 * one builds (`--overlap auto|on|off`, docs/run.md), and the numbers of
 * run.json's "times" (the matrix's wall time against the sum of its
 * stages).  Pure: what the host has in, a decision and its reason out.
 *
 * The rule of auto:
 *  - no boot on this host (LAVA jobs are written instead): off;
 *  - one CPU: off;
 *  - a distcc farm compiles: on (this host only preprocesses and links);
 *  - make's -j below the CPU count: on (the CPUs it leaves are the
 *    guest's);
 *  - OVERLAP_MIN_CPUS CPUs or more: on (a guest of DOMXML_VCPUS_DEFAULT
 *    vCPUs beside make -jN leaves the build most of the host);
 *  - else off: make -jN takes every CPU, and a TCG guest squeezed beside
 *    it would slow the build and come near its own boot timeout.
 * on and off are what was asked for, whatever the host.
 */
#ifndef BP_OVERLAP_H
#define BP_OVERLAP_H

#include <stdbool.h>

#include <json-c/json.h>

#include "util/strbuf.h"

#define OVERLAP_MIN_CPUS 4

enum overlap_mode {
	OVERLAP_AUTO,
	OVERLAP_ON,
	OVERLAP_OFF,
};

struct overlap_host {
	unsigned cpus;		/* CPUs this process may run on (>= 1) */
	unsigned jobs;		/* make's -j asked for; 0: the default (the
				 * CPUs, or the farm's slots) */
	unsigned distcc_slots;	/* > 0: a distcc farm compiles */
	bool boots_here;	/* false: LAVA jobs instead of boots */
};

/* "auto", "on", "off" into *ret: 0, or -EINVAL (*ret untouched). */
int overlap_mode_parse(const char *s, enum overlap_mode *ret);
/* The name of a mode ("auto", "on", "off"). */
const char *overlap_mode_name(enum overlap_mode m);

/* Whether the boots run beside the next build; one sentence saying why is
 * appended to why (when not NULL). */
bool overlap_decide(enum overlap_mode mode, const struct overlap_host *h,
		    struct strbuf *why);

/* run.json's "overlap": {"mode", "used", "reason", "cpus", "jobs"} (jobs:
 * make's -j, 0 for the default).  A new object. */
json_object *overlap_record(enum overlap_mode mode,
			    const struct overlap_host *h, bool used,
			    const char *reason);

/* The wall time of a matrix against the sum of its stages, for the run's
 * summary: "12 min of wall time for 18 min of stages (1.5x)"; "" when
 * no stage ran. */
void overlap_times_format(double wall_s, double stages_s, struct strbuf *sb);

/* run.json's "times" of a run that took wall_s from its start to its end
 * (one invocation, not resumed) with the records boots:
 *   {"wall_s", "stages_s": the configs', builds' (not reused) and first
 *    boots' seconds summed, "from_clean_builds": how many builds compiled
 *    every object, "from_clean_builds_s": their seconds summed}.
 * A new object. */
json_object *overlap_times_record(json_object *boots, double wall_s);

/* The summary's line of a "times" record: "the run: 11 min of wall time
 * for 14 min of stages (1.27x); the 2 builds from clean alone took
 * 13 min"; "" for NULL or a record without stages. */
void overlap_times_line(json_object *times, struct strbuf *sb);

#endif
