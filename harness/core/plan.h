/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan: a matrix plan file (pure).  docs/run.md describes the format:
 *
 *	# the default plan of `make demo`
 *	name demo
 *	arch x86_64 i386
 *	base tinyconfig+kvm_guest.config
 *	base-group demo-base
 *	group demo-bpf demo-cgroups demo-userfaultfd demo-kgdb
 *	candidates all
 *	scenarios boot bpf cgroups userfaultfd kgdb
 *	timeout 600
 *
 * One directive per line: a key and its words, separated by blanks; '#'
 * starts a comment anywhere on a line.  A line may start with "ARCH:" to
 * apply to that arch only ("i386: base i386_defconfig").  Keys:
 *
 *	name NAME		the plan's name (default: the file name
 *				without .plan); at most once
 *	arch A...		x86_64 and/or i386 (required, at most once)
 *	base BASE		in-tree targets joined by '+' or a config file
 *				path (required for every arch; an "ARCH:"
 *				line wins over a plain one)
 *	base-group G...		groups merged into every candidate's base
 *	group G...		the groups the plan gives verdicts for
 *	candidates K...		base, each, all (default: all three)
 *	scenarios S...		the only scenarios run (default: every
 *				scenario the candidates' groups name)
 *	timeout S		limit of one boot in seconds (default: the
 *				boot engine's, by accelerator and debug options)
 *	boots N			boot each candidate N times (1..PLAN_MAX_BOOTS,
 *				default 1): its boot times become medians with
 *				a spread (docs/cost.md)
 *	distcc HOST...		compile the kernels on these distcc hosts
 *				(core/distcc's forms: HOST[:PORT][/LIMIT][,lzo]
 *				or localhost[/LIMIT]); lines add up
 *
 * A group G is a name (group_name_valid) or a path with a '/' (relative
 * paths are relative to the plan file's directory: the caller joins them).
 * Repeated base-group, group and scenarios lines add up.
 *
 * Pure module: parses a buffer, no I/O, never logs.
 */
#ifndef BP_PLAN_H
#define BP_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"
#include "util/strbuf.h"

enum {
	PLAN_CAND_BASE = 1 << 0, /* the base alone */
	PLAN_CAND_EACH = 1 << 1, /* base + each group */
	PLAN_CAND_ALL = 1 << 2,	 /* base + all groups */
};

/* A word of a directive, for one arch or all (arch NULL). */
struct plan_item {
	char *arch;
	char *value;
	unsigned line;	/* where it was written, 1-based */
};

struct plan {
	char *name;
	char *file;		/* as given to plan_parse() */
	char **arches;		/* in the order written */
	size_t n_arches;
	/* plan_set_arches() replaced them: the file's, else NULL */
	char **file_arches;
	size_t n_file_arches;
	struct plan_item *bases, *base_groups, *groups;
	size_t n_bases, n_base_groups, n_groups;
	bool groups_from_args;	/* groups replaced by plan_set_groups() */
	bool base_from_args;	/* bases replaced by plan_set_base() */
	bool base_groups_from_args; /* ... by plan_set_base_groups() */
	bool candidates_from_args; /* ... by plan_set_candidates() */
	unsigned candidates;	/* PLAN_CAND_* bits, never 0 */
	char **scenarios;	/* NULL when not restricted */
	size_t n_scenarios;
	unsigned timeout_s;	/* 0: the boot engine's default */
	unsigned boots;		/* boots per candidate; 0: not given (1) */
	char **distcc;		/* distcc hosts; NULL: compile here */
	size_t n_distcc;
	bool distcc_from_args;	/* ... replaced by plan_set_distcc() */
};

/* The most boots per candidate a plan (or run --boots) may ask for. */
#define PLAN_MAX_BOOTS 20

/*
 * Parse len bytes of buf, the content of file (its base name gives the
 * default name).  Returns 0 and a new plan in *ret; -EINVAL for a bad plan
 * with "file:line: ..." in err (err may be NULL): unknown key or arch,
 * a malformed word, a missing or repeated required directive, an arch
 * without a base.
 */
int plan_parse(const char *file, const char *buf, size_t len,
	       struct plan **ret, struct strbuf *err);

void plan_free(struct plan *p);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct plan *, plan_free)
#define _cleanup_plan_ _cleanup_(plan_freep)

/* True when the item applies to arch. */
bool plan_item_for(const struct plan_item *it, const char *arch);

/* The base of arch: the last "ARCH: base" for it, else the last plain
 * base line; NULL when none (plan_parse makes sure there is one for every
 * arch of the plan). */
const struct plan_item *plan_base(const struct plan *p, const char *arch);

/*
 * Replace the plan's arches / groups by the command line's (--arch,
 * --group).  Arches are checked as in the file (the file's own stay in
 * file_arches); a replaced group list applies to every arch.  Returns 0
 * or -EINVAL (err: what is wrong).
 */
int plan_set_arches(struct plan *p, const char *const *arches, size_t n,
		    struct strbuf *err);
int plan_set_groups(struct plan *p, const char *const *groups, size_t n,
		    struct strbuf *err);

/*
 * Replace the plan's base (of every arch), base groups and candidate kinds
 * by the command line's (--base, --base-group, --candidates: what a
 * reproducer, core/repro, says).  A base is any non-empty word (targets
 * joined by '+', or a file with a '/': configstage checks it); kinds are
 * "base", "each", "all", at least one.  Returns 0 or -EINVAL (err: what
 * is wrong).
 */
int plan_set_base(struct plan *p, const char *base, struct strbuf *err);
int plan_set_base_groups(struct plan *p, const char *const *groups, size_t n,
			 struct strbuf *err);
int plan_set_candidates(struct plan *p, const char *const *kinds, size_t n,
			struct strbuf *err);

/* Replace the plan's distcc hosts by the command line's (--distcc),
 * each checked as core/distcc says.  Returns 0 or -EINVAL (err). */
int plan_set_distcc(struct plan *p, const char *const *hosts, size_t n,
		    struct strbuf *err);

/* True when the plan lets scenario s run. */
bool plan_allows_scenario(const struct plan *p, const char *s);

/* "base", "each", "all"; NULL for anything else. */
const char *plan_candidate_kind_name(unsigned kind_bit);

#endif
