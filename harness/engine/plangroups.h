/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plangroups: the option groups of a plan, loaded for each of its arches
 * (engine/configstage_load_group: a name under scenarios/groups/<arch>/,
 * or a path relative to the plan file).  A group an arch lacks is left
 * out of that arch (its verdict there is a SKIP) unless no arch of the
 * plan has it: that is bad input.  Base groups go first, duplicates once.
 */
#ifndef BP_PLANGROUPS_H
#define BP_PLANGROUPS_H

#include <stddef.h>

#include "core/matrixrec.h"
#include "core/plan.h"
#include "util/strbuf.h"

struct plangroups {
	struct matrixrec_arch *arches;	/* one per plan arch, in order */
	size_t n_arches;
	char **names;		/* the plan's group names, in order */
	size_t n_names;
};

/*
 * Fill *ret (zeroed by the caller; release with plangroups_done, also
 * after a failure).  Returns 0, -ENOENT for a group no arch of the plan
 * has, -EINVAL for a malformed group file, other -errno; err says which
 * (with the plan's file:line).
 */
int plangroups_load(const struct plan *p, const char *datadir,
		    struct plangroups *ret, struct strbuf *err);
void plangroups_done(struct plangroups *g);

#endif
