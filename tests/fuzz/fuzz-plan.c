// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Matrix plan files (a user's, or plans/ in the tree).
 *
 * Input: the file's content.  Checks (plan.h): 0 with a plan, or -EINVAL
 * with a message naming the file; a plan has arches it knows, a base for
 * each, candidates among base/each/all, items with their line; its own
 * arches given again on the command line are accepted; the scenario
 * filter says yes exactly to the listed scenarios.
 */
#include "fuzz.h"

#include "core/plan.h"

static const char file[] = "plans/fuzz.plan";

static void check_items(const struct plan_item *it, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(it[i].value && *it[i].value);
		FUZZ_CHECK(it[i].line >= 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct plan *p = NULL;
	int r = plan_parse(file, (const char *)data, size, &p, &err);

	FUZZ_CHECK(r == 0 || r == -EINVAL);
	if (r < 0) {
		FUZZ_CHECK(!p);
		FUZZ_CHECK(!strncmp(err.buf, file, strlen(file)));
		FUZZ_CHECK(err.buf[strlen(file)] == ':');
		strbuf_release(&err);
		return 0;
	}
	FUZZ_CHECK(p && p->name && *p->name && p->file);
	FUZZ_CHECK(p->n_arches >= 1);
	FUZZ_CHECK(p->candidates &&
		   !(p->candidates & ~(unsigned)(PLAN_CAND_BASE | PLAN_CAND_EACH |
						 PLAN_CAND_ALL)));
	for (unsigned bit = 1; bit <= PLAN_CAND_ALL; bit <<= 1)
		if (p->candidates & bit)
			FUZZ_CHECK(plan_candidate_kind_name(bit));
	for (size_t i = 0; i < p->n_arches; i++) {
		FUZZ_CHECK(!strcmp(p->arches[i], "x86_64") ||
			   !strcmp(p->arches[i], "i386"));
		FUZZ_CHECK(plan_base(p, p->arches[i]));
		FUZZ_CHECK(plan_item_for(plan_base(p, p->arches[i]),
					 p->arches[i]));
	}
	check_items(p->bases, p->n_bases);
	check_items(p->base_groups, p->n_base_groups);
	check_items(p->groups, p->n_groups);
	if (!p->scenarios) {
		FUZZ_CHECK(plan_allows_scenario(p, "boot"));
	} else {
		for (size_t i = 0; i < p->n_scenarios; i++)
			FUZZ_CHECK(plan_allows_scenario(p, p->scenarios[i]));
		FUZZ_CHECK(!plan_allows_scenario(p, "no-such-scenario!"));
	}
	{
		const char **a = calloc(p->n_arches, sizeof(*a));

		FUZZ_CHECK(a);
		size_t n = p->n_arches;

		/* copies: the call replaces the plan's own strings */
		for (size_t i = 0; i < n; i++)
			a[i] = fuzz_strndup(p->arches[i], strlen(p->arches[i]));
		strbuf_reset(&err);
		FUZZ_CHECK(plan_set_arches(p, a, n, &err) == 0);
		FUZZ_CHECK(p->n_arches == n);
		for (size_t i = 0; i < n; i++)
			free((char *)a[i]);
		free(a);
	}
	plan_free(p);
	strbuf_release(&err);
	return 0;
}
