/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeline: where the time of one boot goes, as consecutive named phases
 * (pure: the caller reads the clock and passes the times in).
 *
 * A timeline has at most one open phase: timeline_begin() closes it at
 * the given time and opens the next, so the phases cover the boot without
 * gaps from the timeline's start to timeline_end().  The engine's phases
 * (engine/bootprep and engine/boot) are listed in docs/results.md
 * ("timeline").  Everything is by value: a timeline is copied with =.
 */
#ifndef BP_TIMELINE_H
#define BP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

#define TIMELINE_MAX 48
#define TIMELINE_NAME_MAX 48

struct timeline_phase {
	char name[TIMELINE_NAME_MAX];	/* cut to fit */
	long long start_ms, end_ms;	/* end_ms < 0: still open */
};

struct timeline {
	long long t0_ms;	/* what start_s counts from */
	struct timeline_phase v[TIMELINE_MAX];
	size_t n;
	size_t dropped;		/* phases not kept: the last one grew instead */
};

/* An empty timeline whose times count from t0_ms. */
void timeline_init(struct timeline *tl, long long t0_ms);

/* Close the open phase (if any) at now_ms and open name at now_ms.  A
 * full timeline keeps its last phase open instead and counts the drop.
 * A now_ms before the open phase's start is taken as its start. */
void timeline_begin(struct timeline *tl, const char *name, long long now_ms);

/* Close the open phase, if any, at now_ms. */
void timeline_end(struct timeline *tl, long long now_ms);

/* The open phase's name, or NULL when none is open. */
const char *timeline_open(const struct timeline *tl);

/* Give the open phase another name (no-op when none is open): what it
 * was spent on was learnt at its end. */
void timeline_rename(struct timeline *tl, const char *name);

/* Milliseconds spent in phases called name (0 when none). */
long long timeline_ms(const struct timeline *tl, const char *name);

/*
 * run.json's "timeline": { "phases": [ { "phase", "start_s", "seconds" } ],
 * "total_s", "dropped" }; start_s counts from t0_ms, an open phase's
 * seconds and an open timeline's total_s are null.  New object, owned by
 * the caller.
 */
json_object *timeline_json(const struct timeline *tl);

/*
 * The text `bootproof boot --verbose` prints of a record's "timeline"
 * (timeline_json's shape, as read back from run.json): one line per phase
 * with its start, its seconds and its share of the total, then the total.
 * Returns 0, or -EINVAL (nothing appended) when tl is not of that shape.
 */
int timeline_format(json_object *tl, struct strbuf *out);

#endif
