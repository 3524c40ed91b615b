// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bisect.h"

#include <errno.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/xalloc.h"

/* A set that was run, and how it ended. */
struct tried {
	bool *lines;
	enum bisect_outcome o;
};

struct bisect {
	size_t n;		/* lines */
	size_t *group_of;
	size_t n_groups;
	unsigned max_steps, steps;
	enum bisect_status status;
	enum bisect_phase phase;
	bool base_done;
	/* ddmin over units (groups or lines): the current failing set, the
	 * number of parts it is split into, the next part to try (0..parts-1
	 * subsets, parts..2*parts-1 complements). */
	size_t *cur, n_cur;
	size_t parts, next;
	bool interaction;
	bool *best;		/* lines of the smallest known failing set */
	/* The step given out and not yet reported. */
	bool pending;
	struct bisect_step step;
	bool *test;
	size_t *units, n_units;	/* its units, for a subset or complement */
	struct tried *tried;
	size_t n_tried;
};

static const char *const outcome_names[] = {
	[BISECT_PASS] = "pass",
	[BISECT_FAIL_SAME] = "fail-same",
	[BISECT_FAIL_OTHER] = "fail-other",
	[BISECT_INFRA] = "infra",
};
static const char *const kind_names[] = {
	[BISECT_STEP_BASE] = "base",
	[BISECT_STEP_FULL] = "full",
	[BISECT_STEP_SUBSET] = "subset",
	[BISECT_STEP_COMPLEMENT] = "complement",
	[BISECT_STEP_CONFIRM] = "confirm",
};
static const char *const phase_names[] = {
	[BISECT_PHASE_CHECK] = "check",
	[BISECT_PHASE_GROUPS] = "groups",
	[BISECT_PHASE_LINES] = "lines",
	[BISECT_PHASE_CONFIRM] = "confirm",
};
static const char *const status_names[] = {
	[BISECT_RUNNING] = "running",
	[BISECT_FOUND] = "found",
	[BISECT_BASE_FAILS] = "base-fails",
	[BISECT_NOT_REPRODUCED] = "not-reproduced",
	[BISECT_STOPPED_INFRA] = "infra",
	[BISECT_FLAKY] = "flaky",
	[BISECT_STEP_LIMIT] = "step-limit",
};
static const char *const status_texts[] = {
	[BISECT_RUNNING] = "still running",
	[BISECT_FOUND] = "these lines make the base fail the same way; without "
			 "any one of them it does not",
	[BISECT_BASE_FAILS] = "the base alone fails the same way: the failure "
			      "is not the groups'",
	[BISECT_NOT_REPRODUCED] = "the candidate did not fail the same way "
				  "again: nothing to narrow",
	[BISECT_STOPPED_INFRA] = "a step could not run (the host's fault): "
				 "stopped rather than guess its result",
	[BISECT_FLAKY] = "the narrowed lines did not fail the same way when "
			 "run again: the failure is intermittent, no culprit",
	[BISECT_STEP_LIMIT] = "the step limit was reached before the lines "
			      "were narrowed to a minimal set",
};

const char *bisect_outcome_name(enum bisect_outcome o)
{
	return ENUM_NAME(outcome_names, o, "?");
}

const char *bisect_kind_name(enum bisect_kind k)
{
	return ENUM_NAME(kind_names, k, "?");
}

const char *bisect_phase_name(enum bisect_phase p)
{
	return ENUM_NAME(phase_names, p, "?");
}

const char *bisect_status_name(enum bisect_status s)
{
	return ENUM_NAME(status_names, s, "?");
}

const char *bisect_status_text(enum bisect_status s)
{
	return ENUM_NAME(status_texts, s, "?");
}

int bisect_new(const size_t *group_of, size_t n_lines, size_t n_groups,
	       unsigned max_steps, struct bisect **ret)
{
	struct bisect *b;

	if (!n_lines || !n_groups)
		return -EINVAL;
	for (size_t i = 0; i < n_lines; i++)
		if (group_of[i] >= n_groups)
			return -EINVAL;
	b = xcalloc(1, sizeof(*b));
	b->n = n_lines;
	b->n_groups = n_groups;
	b->group_of = xmalloc(n_lines * sizeof(size_t));
	memcpy(b->group_of, group_of, n_lines * sizeof(size_t));
	b->max_steps = max_steps;
	b->cur = xmalloc((n_lines > n_groups ? n_lines : n_groups) *
			 sizeof(size_t));
	b->units = xmalloc((n_lines > n_groups ? n_lines : n_groups) *
			   sizeof(size_t));
	b->test = xcalloc(n_lines, sizeof(bool));
	b->best = xcalloc(n_lines, sizeof(bool));
	*ret = b;
	return 0;
}

void bisect_free(struct bisect *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_tried; i++)
		free(b->tried[i].lines);
	free(b->tried);
	free(b->group_of);
	free(b->cur);
	free(b->units);
	free(b->test);
	free(b->best);
	free(b);
}

enum bisect_status bisect_status(const struct bisect *b)
{
	return b->status;
}

unsigned bisect_steps(const struct bisect *b)
{
	return b->steps;
}

bool bisect_interaction(const struct bisect *b)
{
	return b->interaction;
}

static size_t count(const bool *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += v[i];
	return k;
}

const bool *bisect_culprit(const struct bisect *b, size_t *ret_n)
{
	size_t k = count(b->best, b->n);

	*ret_n = k;
	return k ? b->best : NULL;
}

/* ------------------------------------------------------------ sets */

/* The lines of units u[0..n) into out. */
static void lines_of(const struct bisect *b, const size_t *u, size_t n,
		     bool *out)
{
	memset(out, 0, b->n * sizeof(bool));
	for (size_t k = 0; k < n; k++) {
		if (b->phase == BISECT_PHASE_GROUPS) {
			for (size_t l = 0; l < b->n; l++)
				if (b->group_of[l] == u[k])
					out[l] = true;
		} else {
			out[u[k]] = true;
		}
	}
}

static const struct tried *find_tried(const struct bisect *b, const bool *v)
{
	for (size_t i = 0; i < b->n_tried; i++)
		if (!memcmp(b->tried[i].lines, v, b->n * sizeof(bool)))
			return &b->tried[i];
	return NULL;
}

static void remember(struct bisect *b, const bool *v, enum bisect_outcome o)
{
	b->tried = xrealloc(b->tried, (b->n_tried + 1) * sizeof(*b->tried));
	b->tried[b->n_tried].lines = xmalloc(b->n * sizeof(bool));
	memcpy(b->tried[b->n_tried].lines, v, b->n * sizeof(bool));
	b->tried[b->n_tried++].o = o;
}

/* ------------------------------------------------------------ phases */

static void start_ddmin(struct bisect *b, enum bisect_phase phase)
{
	b->phase = phase;
	b->n_cur = 0;
	if (phase == BISECT_PHASE_GROUPS) {
		for (size_t g = 0; g < b->n_groups; g++)
			for (size_t l = 0; l < b->n; l++)
				if (b->best[l] && b->group_of[l] == g) {
					b->cur[b->n_cur++] = g;
					break;
				}
	} else {
		for (size_t l = 0; l < b->n; l++)
			if (b->best[l])
				b->cur[b->n_cur++] = l;
	}
	b->parts = 2;
	b->next = 0;
}

/* The set failed the same way: it becomes the current set. */
static void narrow(struct bisect *b, const size_t *u, size_t n,
		   bool complement)
{
	memmove(b->cur, u, n * sizeof(size_t));
	b->n_cur = n;
	lines_of(b, b->cur, b->n_cur, b->best);
	b->parts = complement && b->parts > 3 ? b->parts - 1 : 2;
	b->next = 0;
}

static void end_ddmin(struct bisect *b)
{
	if (b->phase == BISECT_PHASE_GROUPS)
		start_ddmin(b, BISECT_PHASE_LINES);
	else
		b->phase = BISECT_PHASE_CONFIRM;
}

/* Units of part k (of b->parts) of the current set, or of the current set
 * less that part, into b->units. */
static void part_units(struct bisect *b, size_t k, bool complement)
{
	size_t lo = k * b->n_cur / b->parts;
	size_t hi = (k + 1) * b->n_cur / b->parts;

	b->n_units = 0;
	for (size_t i = 0; i < b->n_cur; i++)
		if ((i >= lo && i < hi) != complement)
			b->units[b->n_units++] = b->cur[i];
}

/* Give out the step in b->test. */
static bool propose(struct bisect *b, enum bisect_kind kind, size_t part,
		    struct bisect_step *ret)
{
	if (b->max_steps && b->steps >= b->max_steps) {
		b->status = BISECT_STEP_LIMIT;
		return false;
	}
	b->pending = true;
	b->step = (struct bisect_step){
		.n = ++b->steps,
		.kind = kind,
		.phase = b->phase,
		.lines = b->test,
		.n_in = count(b->test, b->n),
		.part = part,
		.parts = part ? b->parts : 0,
		.units = b->n_cur,
	};
	*ret = b->step;
	return true;
}

/* One ddmin move: true with a step given out; false when the move was
 * decided without running anything (loop again). */
static bool ddmin_move(struct bisect *b, struct bisect_step *ret)
{
	const struct tried *t;
	size_t k;
	bool complement;

	if (b->n_cur <= 1) {
		end_ddmin(b);
		return false;
	}
	if (b->next >= 2 * b->parts) {
		/* No part failed alone, nor any complement: the units
		 * interact.  Split finer, or, one unit a part, that is the
		 * answer. */
		b->interaction = true;
		if (b->parts >= b->n_cur) {
			end_ddmin(b);
			return false;
		}
		b->parts = 2 * b->parts < b->n_cur ? 2 * b->parts : b->n_cur;
		b->next = 0;
		return false;
	}
	k = b->next % b->parts;
	complement = b->next++ >= b->parts;
	/* Of two parts, each complement is the other part. */
	if (complement && b->parts == 2)
		return false;
	part_units(b, k, complement);
	lines_of(b, b->units, b->n_units, b->test);
	t = find_tried(b, b->test);
	if (t) {
		if (t->o == BISECT_FAIL_SAME)
			narrow(b, b->units, b->n_units, complement);
		return false;
	}
	return propose(b, complement ? BISECT_STEP_COMPLEMENT
				     : BISECT_STEP_SUBSET,
		       k + 1, ret);
}

bool bisect_next(struct bisect *b, struct bisect_step *ret)
{
	if (b->pending) {
		*ret = b->step;
		return true;
	}
	while (b->status == BISECT_RUNNING) {
		switch (b->phase) {
		case BISECT_PHASE_CHECK:
			if (!b->base_done) {
				memset(b->test, 0, b->n * sizeof(bool));
				return propose(b, BISECT_STEP_BASE, 0, ret);
			}
			memset(b->test, 1, b->n * sizeof(bool));
			return propose(b, BISECT_STEP_FULL, 0, ret);
		case BISECT_PHASE_GROUPS:
		case BISECT_PHASE_LINES:
			if (ddmin_move(b, ret))
				return true;
			break;
		case BISECT_PHASE_CONFIRM:
			memcpy(b->test, b->best, b->n * sizeof(bool));
			return propose(b, BISECT_STEP_CONFIRM, 0, ret);
		}
	}
	return false;
}

void bisect_report(struct bisect *b, enum bisect_outcome o)
{
	bool same = o == BISECT_FAIL_SAME;
	size_t groups = 0;

	if (!b->pending)
		return;
	b->pending = false;
	if (o == BISECT_INFRA) {
		b->status = BISECT_STOPPED_INFRA;
		return;
	}
	if (b->step.kind != BISECT_STEP_CONFIRM)
		remember(b, b->test, o);
	switch (b->step.kind) {
	case BISECT_STEP_BASE:
		if (same)
			b->status = BISECT_BASE_FAILS;
		b->base_done = true;
		break;
	case BISECT_STEP_FULL:
		if (!same) {
			b->status = BISECT_NOT_REPRODUCED;
			break;
		}
		memset(b->best, 1, b->n * sizeof(bool));
		for (size_t g = 0; g < b->n_groups; g++)
			for (size_t l = 0; l < b->n; l++)
				if (b->group_of[l] == g) {
					groups++;
					break;
				}
		start_ddmin(b, groups > 1 ? BISECT_PHASE_GROUPS
					  : BISECT_PHASE_LINES);
		break;
	case BISECT_STEP_SUBSET:
	case BISECT_STEP_COMPLEMENT:
		if (same)
			narrow(b, b->units, b->n_units,
			       b->step.kind == BISECT_STEP_COMPLEMENT);
		break;
	case BISECT_STEP_CONFIRM:
		b->status = same ? BISECT_FOUND : BISECT_FLAKY;
		break;
	}
}
