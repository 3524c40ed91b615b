/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matrixrec: the records a matrix run writes into run.json (pure: values
 * and json-c objects in, new json-c objects out, no I/O).  The shapes are
 * those of docs/results.md: a boot record per candidate with its
 * "candidate", "config" and "build" members, the run's "plan" and
 * "groups".
 *
 * Every function returning json_object * returns a new object owned by
 * the caller.  A path shown in a record is made relative to datadir when
 * it is inside it (the data directory differs between hosts).
 */
#ifndef BP_MATRIXREC_H
#define BP_MATRIXREC_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/explain.h"
#include "core/groups.h"
#include "core/kconfig.h"
#include "core/plan.h"

/* One arch of a plan: its base and groups (groups borrowed). */
struct matrixrec_arch {
	const char *arch;
	const char *base;
	struct group **base_groups;
	size_t n_base_groups;
	struct group **groups;	/* the plan's groups found for this arch */
	size_t n_groups;
};

/* One candidate: an arch's base with some groups. */
struct matrixrec_cand {
	char *id;		/* "x86_64-bpf" */
	const struct matrixrec_arch *as;
	unsigned kind;		/* PLAN_CAND_* */
	struct group **groups;	/* base groups, then the candidate's */
	size_t n_groups;
	size_t n_base;		/* how many of groups are base groups */
	char *scenarios;	/* "boot,bpf" */
	char *name;		/* libvirt domain name */
	char *reproduce;	/* the command that runs it alone (core/repro),
				 * or NULL */
};

/* { id, arch, base, base_groups[], groups[], kind, scenarios, reproduce } */
json_object *matrixrec_candidate(const struct matrixrec_cand *c);

/* The record of a candidate that has not booted (yet): name, arch,
 * candidate, config and build (taken, may be NULL), verdict null, reason,
 * no scenarios, "complete": false. */
json_object *matrixrec_stub(const struct matrixrec_cand *c, json_object *config,
			    json_object *build, const char *reason);

/* The run's "plan": what ran (arches, bases, groups, candidates, the
 * scenarios and timeout the plan set, each arch's groups' scenarios), the
 * tree and its release, and what
 * the command line replaced (group_args, base_arg, base_group_args,
 * candidates_arg: null when the plan's own were used). */
json_object *matrixrec_plan(const struct plan *p,
			    const struct matrixrec_arch *arches, size_t n_arches,
			    char *const *names, size_t n_names,
			    const char *datadir, const char *ksrc,
			    const char *release);

/* What became of one requested option (a view of configstage's). */
struct matrixrec_option {
	const char *group;	/* NULL: a line of the base */
	const struct kconfig_option *requested, *final, *overridden_by;
	enum kconfig_verdict verdict;
	bool kept;
	enum explain_kind kind;	/* the kind shown (for a stale base line:
				 * its cause) */
	const char *reason;
	const struct explain_symbol *detail;
};

/* { option, group, source, requested, final, status, reason_kind, reason,
 *   detail } */
json_object *matrixrec_option(const struct matrixrec_option *op,
			      const char *datadir);

/* "unknown", "unmet-dependency", ... as run.json's reason_kind. */
const char *matrixrec_reason_kind(enum explain_kind k);

/* A config stage that ran: opts and stale (arrays of matrixrec_option
 * objects) are taken. */
struct matrixrec_config {
	const char *release;
	const char *final_config;	/* "<id>/config" */
	size_t n_dropped;
	json_object *opts, *stale;
	const char *explain_error;
	double seconds, cpu_seconds;
};
json_object *matrixrec_config(const struct matrixrec_config *c);

/* A config stage that could not run (result "fail" with the error). */
json_object *matrixrec_config_fail(const char *release, const char *error);

/* A build stage's outcome (a view of buildstage's). */
struct matrixrec_build {
	const char *status;	/* buildstage_status_name() */
	bool failed, reused;	/* failed: status "fail" */
	const char *reason, *built;
	const char *first_error;	/* may be inside ksrc: shown relative */
	size_t first_error_log_line;
	const char *log;		/* "<id>/build.log" */
	double seconds, built_seconds, cpu_seconds;
	const char *hash;
	/* Artifacts (NULL bzimage: none). */
	const char *bzimage, *vmlinux, *system_map, *config, *modules, *dir;
	const char *kernelrelease;
	const char *distcc;	/* the distcc farm it compiled on, or NULL */
};
json_object *matrixrec_build(const struct matrixrec_build *b,
			     const char *ksrc);

/* A build that could not run: result "skip", "infrastructure: <error>";
 * log and hash may be NULL. */
json_object *matrixrec_build_infra(const char *error, const char *log,
				   const char *hash);

/*
 * The run's "groups": a group verdict (core/groupverdict) for every name
 * and arch, from the boot records; a name an arch lacks is a SKIP.
 */
json_object *matrixrec_groups(json_object *boots,
			      const struct matrixrec_arch *arches,
			      size_t n_arches, char *const *names,
			      size_t n_names, const struct plan *p);

/*
 * The "groups" of a matrix run.json decided again from its boots, with
 * the groups' scenarios its plan recorded ("plan"."group_scenarios"):
 * after a candidate's record was replaced (a LAVA job read back).  A new
 * array, or NULL when the document has no group_scenarios (written before
 * they were recorded) or no groups.
 */
json_object *matrixrec_regroup(json_object *doc);

/*
 * The same from a run.json alone (bootproof merge): the groups, arches and
 * scenarios line of its "plan" member, each group's scenarios from the
 * plan's "group_scenarios" (a group an arch does not list is a SKIP there).
 */
json_object *matrixrec_groups_recorded(json_object *boots, json_object *plan);

/* Did the run fail (exit code 1): a group FAILed, or a base-alone
 * candidate failed (matrixrec_failed)? */
bool matrixrec_run_failed(json_object *groups, json_object *boots);

/* Did this candidate's record fail (config or build failed, a verdict
 * other than BOOTED / INFRA / INCOMPLETE / RUNNING, a scenario failed)? */
bool matrixrec_failed(json_object *rec);

#endif
