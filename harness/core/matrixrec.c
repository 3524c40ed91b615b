// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/matrixrec.h"

#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "core/groupverdict.h"
#include "core/recjson.h"
#include "core/verdict.h"
#include "util/cleanup.h"
#include "util/jsonx.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A path shown relative to the data directory when it is inside it. */
static const char *shown(const char *datadir, const char *path)
{
	size_t n = datadir ? strlen(datadir) : 0;

	if (n && path && !strncmp(path, datadir, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/* ------------------------------------------------------------ candidates */

json_object *matrixrec_candidate(const struct matrixrec_cand *c)
{
	json_object *o = json_object_new_object();
	json_object *bg = json_object_new_array(), *g = json_object_new_array();

	json_object_object_add(o, "id", jsonx_new_str(c->id));
	json_object_object_add(o, "arch", jsonx_new_str(c->as->arch));
	json_object_object_add(o, "base", jsonx_new_str(c->as->base));
	for (size_t i = 0; i < c->n_groups; i++)
		json_object_array_add(i < c->n_base ? bg : g,
				      jsonx_new_str(c->groups[i]->name));
	json_object_object_add(o, "base_groups", bg);
	json_object_object_add(o, "groups", g);
	json_object_object_add(o, "kind",
			       jsonx_new_str(plan_candidate_kind_name(c->kind)));
	json_object_object_add(o, "scenarios", jsonx_new_str(c->scenarios));
	json_object_object_add(o, "reproduce", jsonx_new_str(c->reproduce));
	return o;
}

json_object *matrixrec_stub(const struct matrixrec_cand *c, json_object *config,
			    json_object *build, const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", jsonx_new_str(c->name));
	json_object_object_add(o, "arch", jsonx_new_str(c->as->arch));
	json_object_object_add(o, "candidate", matrixrec_candidate(c));
	json_object_object_add(o, "config", config);
	json_object_object_add(o, "build", build);
	json_object_object_add(o, "verdict", NULL);
	json_object_object_add(o, "reason", jsonx_new_str(reason));
	json_object_object_add(o, "scenarios", json_object_new_array());
	json_object_object_add(o, "complete", json_object_new_boolean(0));
	return o;
}

/* ------------------------------------------------------------ the plan */

static json_object *str_array(char *const *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, jsonx_new_str(v[i]));
	return a;
}

static bool array_has(json_object *a, const char *s)
{
	for (size_t k = 0; k < json_object_array_length(a); k++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(a, k)),
			    s))
			return true;
	return false;
}

/* The arches, their bases, and the base shared by all (or null). */
static void plan_arches(json_object *o, const struct matrixrec_arch *arches,
			size_t n_arches)
{
	json_object *a = json_object_new_array();
	json_object *bases = json_object_new_object();
	json_object *bg = json_object_new_array();
	const char *common = n_arches ? arches[0].base : NULL;

	for (size_t i = 0; i < n_arches; i++) {
		json_object_array_add(a, jsonx_new_str(arches[i].arch));
		json_object_object_add(bases, arches[i].arch,
				       jsonx_new_str(arches[i].base));
		if (common && strcmp(common, arches[i].base))
			common = NULL;
		for (size_t j = 0; j < arches[i].n_base_groups; j++) {
			const char *n = arches[i].base_groups[j]->name;

			if (!array_has(bg, n))
				json_object_array_add(bg, jsonx_new_str(n));
		}
	}
	json_object_object_add(o, "arches", a);
	json_object_object_add(o, "base", jsonx_new_str(common));
	json_object_object_add(o, "bases", bases);
	json_object_object_add(o, "base_groups", bg);
}

/* { arch: { group: [ scenario... ] } }: what the group verdicts need of
 * the group files, so that they can be decided again from run.json alone
 * (matrixrec_groups_recorded, matrixrec_regroup). */
static json_object *group_scenarios(const struct matrixrec_arch *arches,
				    size_t n_arches)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < n_arches; i++) {
		json_object *a = json_object_new_object();

		for (size_t j = 0; j < arches[i].n_groups; j++) {
			const struct group *g = arches[i].groups[j];

			json_object_object_add(a, g->name,
					       str_array(g->scenarios,
							 g->n_scenarios));
		}
		json_object_object_add(o, arches[i].arch, a);
	}
	return o;
}

json_object *matrixrec_plan(const struct plan *p,
			    const struct matrixrec_arch *arches, size_t n_arches,
			    char *const *names, size_t n_names,
			    const char *datadir, const char *ksrc,
			    const char *release)
{
	json_object *o = json_object_new_object(), *a;
	static const unsigned kinds[] = { PLAN_CAND_BASE, PLAN_CAND_EACH,
					  PLAN_CAND_ALL };

	json_object_object_add(o, "name", jsonx_new_str(p->name));
	json_object_object_add(o, "file", jsonx_new_str(shown(datadir, p->file)));
	plan_arches(o, arches, n_arches);
	json_object_object_add(o, "groups", str_array(names, n_names));
	json_object_object_add(o, "group_scenarios",
			       group_scenarios(arches, n_arches));
	/* What --group said (paths made absolute), for --resume: the plan's
	 * own groups are read from the plan file again. */
	a = NULL;
	if (p->groups_from_args) {
		a = json_object_new_array();
		for (size_t i = 0; i < p->n_groups; i++)
			json_object_array_add(a, jsonx_new_str(p->groups[i].value));
	}
	json_object_object_add(o, "group_args", a);
	json_object_object_add(o, "base_arg",
			       p->base_from_args && p->n_bases
				       ? jsonx_new_str(p->bases[0].value)
				       : NULL);
	a = NULL;
	if (p->base_groups_from_args) {
		a = json_object_new_array();
		for (size_t i = 0; i < p->n_base_groups; i++)
			json_object_array_add(
				a, jsonx_new_str(p->base_groups[i].value));
	}
	json_object_object_add(o, "base_group_args", a);
	a = json_object_new_array();
	for (size_t i = 0; i < ELEMENTSOF(kinds); i++)
		if (p->candidates & kinds[i])
			json_object_array_add(
				a, jsonx_new_str(plan_candidate_kind_name(kinds[i])));
	json_object_object_add(o, "candidates", a);
	json_object_object_add(o, "candidates_arg",
			       p->candidates_from_args ? json_object_get(a)
						       : NULL);
	json_object_object_add(o, "scenarios",
			       p->scenarios ? str_array(p->scenarios,
							p->n_scenarios)
					    : NULL);
	json_object_object_add(o, "timeout_s",
			       p->timeout_s ? json_object_new_int((int)p->timeout_s)
					    : NULL);
	json_object_object_add(o, "ksrc", jsonx_new_str(ksrc));
	json_object_object_add(o, "release", jsonx_new_str(release));
	return o;
}

/* ------------------------------------------------------------ config */

static const char *const matrixrec_reason_kind_names[] = {
	[EXPLAIN_UNKNOWN] = "unknown",
	[EXPLAIN_DEPENDS] = "unmet-dependency",
	[EXPLAIN_NOMODULES] = "unmet-dependency",
	[EXPLAIN_MODULE] = "limited-to-m",
	[EXPLAIN_SELECT] = "selected", [EXPLAIN_RANGE] = "out-of-range",
	[EXPLAIN_INVALID] = "out-of-range",
	[EXPLAIN_NOPROMPT] = "no-prompt", [EXPLAIN_CHOICE] = "choice",
	[EXPLAIN_OVERRIDDEN] = "overridden",
};

const char *matrixrec_reason_kind(enum explain_kind k)
{
	return ENUM_NAME(matrixrec_reason_kind_names, k, "unexplained");
}

static const char *option_status(const struct matrixrec_option *op)
{
	if (op->kept)
		return "kept";
	if (op->verdict == KCONFIG_CHANGED || op->verdict == KCONFIG_KEPT)
		return "changed";
	if (op->verdict == KCONFIG_DEMOTED)
		return "demoted";
	return "absent";
}

/* Why a dropped option went, in lines: who overrode it, the helper's
 * record of the symbol.  NULL when there is nothing to say. */
static json_object *option_detail(const struct matrixrec_option *op,
				  const char *datadir)
{
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

	if (op->kept)
		return NULL;
	if (op->overridden_by)
		strbuf_addf(&v, "overridden by %s:%u\n",
			    shown(datadir, op->overridden_by->file),
			    op->overridden_by->line);
	if (op->detail) {
		if (op->detail->defined)
			strbuf_addf(&v, "defined at %s\n", op->detail->defined);
		for (size_t i = 0; i < op->detail->n_reasons; i++) {
			explain_format_reason(&v, &op->detail->reasons[i]);
			strbuf_addch(&v, '\n');
		}
	}
	strbuf_rtrim(&v);
	return v.len ? jsonx_new_str(v.buf) : NULL;
}

json_object *matrixrec_option(const struct matrixrec_option *op,
			      const char *datadir)
{
	json_object *j = json_object_new_object();
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;

	json_object_object_add(j, "option", jsonx_new_str(op->requested->name));
	json_object_object_add(j, "group", jsonx_new_str(op->group));
	strbuf_addf(&v, "%s:%u", shown(datadir, op->requested->file),
		    op->requested->line);
	json_object_object_add(j, "source", jsonx_new_str(v.buf));
	strbuf_reset(&v);
	kconfig_format_value(&v, op->requested);
	json_object_object_add(j, "requested", jsonx_new_str(v.buf));
	strbuf_reset(&v);
	if (op->final)
		kconfig_format_value(&v, op->final);
	json_object_object_add(j, "final", op->final ? jsonx_new_str(v.buf) : NULL);
	json_object_object_add(j, "status", jsonx_new_str(option_status(op)));
	json_object_object_add(j, "reason_kind",
			       op->kept ? NULL
					: jsonx_new_str(matrixrec_reason_kind(op->kind)));
	json_object_object_add(j, "reason",
			       jsonx_new_str(op->kept ? NULL : op->reason));
	json_object_object_add(j, "detail", option_detail(op, datadir));
	return j;
}

json_object *matrixrec_config(const struct matrixrec_config *c)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "result",
			       jsonx_new_str(c->n_dropped ? "partial" : "pass"));
	json_object_object_add(j, "error", NULL);
	json_object_object_add(j, "release", jsonx_new_str(c->release));
	json_object_object_add(j, "final_config", jsonx_new_str(c->final_config));
	json_object_object_add(j, "dropped",
			       json_object_new_int((int)c->n_dropped));
	json_object_object_add(j, "options", c->opts);
	json_object_object_add(j, "stale_base", c->stale);
	json_object_object_add(j, "explain_error",
			       jsonx_new_str(c->explain_error));
	json_object_object_add(j, "seconds", recjson_seconds(c->seconds));
	json_object_object_add(j, "cpu_seconds", recjson_seconds(c->cpu_seconds));
	return j;
}

json_object *matrixrec_config_fail(const char *release, const char *error)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "result", jsonx_new_str("fail"));
	json_object_object_add(j, "error", jsonx_new_str(error));
	json_object_object_add(j, "release", jsonx_new_str(release));
	json_object_object_add(j, "final_config", NULL);
	json_object_object_add(j, "dropped", json_object_new_int(0));
	json_object_object_add(j, "options", json_object_new_array());
	json_object_object_add(j, "stale_base", json_object_new_array());
	return j;
}

/* ------------------------------------------------------------ build */

json_object *matrixrec_build_infra(const char *error, const char *log,
				   const char *hash)
{
	json_object *j = json_object_new_object();
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	strbuf_addf(&why, "infrastructure: %s", error);
	json_object_object_add(j, "result", jsonx_new_str("skip"));
	json_object_object_add(j, "reason", jsonx_new_str(why.buf));
	json_object_object_add(j, "first_error", NULL);
	json_object_object_add(j, "log", jsonx_new_str(log));
	json_object_object_add(j, "seconds", recjson_seconds(0));
	json_object_object_add(j, "config_hash", jsonx_new_str(hash));
	json_object_object_add(j, "artifacts", NULL);
	return j;
}

static json_object *build_artifacts(const struct matrixrec_build *b)
{
	json_object *a;

	if (!b->bzimage)
		return NULL;
	a = json_object_new_object();
	json_object_object_add(a, "bzImage", jsonx_new_str(b->bzimage));
	json_object_object_add(a, "vmlinux", jsonx_new_str(b->vmlinux));
	json_object_object_add(a, "system_map", jsonx_new_str(b->system_map));
	json_object_object_add(a, "config", jsonx_new_str(b->config));
	json_object_object_add(a, "modules", jsonx_new_str(b->modules));
	json_object_object_add(a, "dir", jsonx_new_str(b->dir));
	return a;
}

json_object *matrixrec_build(const struct matrixrec_build *b,
			     const char *ksrc)
{
	json_object *j = json_object_new_object();
	const char *t = b->first_error;
	size_t kl = strlen(ksrc);

	json_object_object_add(j, "result", jsonx_new_str(b->status));
	if (b->failed && b->reused) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s (this .config failed to build on %s; "
			    "not built again)", b->reason ? b->reason : "?",
			    b->built ? b->built : "?");
		json_object_object_add(j, "reason", jsonx_new_str(why.buf));
	} else {
		json_object_object_add(j, "reason", jsonx_new_str(b->reason));
	}
	json_object_object_add(j, "reused", json_object_new_boolean(b->reused));
	/* A path inside the kernel tree is shown relative to it, as the
	 * tree's own messages do ("kernel/fork.c:12:3: error: ..."). */
	if (t && !strncmp(t, ksrc, kl) && t[kl] == '/')
		t += kl + 1;
	json_object_object_add(j, "first_error", jsonx_new_str(t));
	json_object_object_add(j, "first_error_log_line",
			       t ? json_object_new_int64(
					   (int64_t)b->first_error_log_line)
				 : NULL);
	json_object_object_add(j, "log", jsonx_new_str(b->log));
	json_object_object_add(j, "seconds", recjson_seconds(b->seconds));
	json_object_object_add(j, "built_seconds",
			       b->bzimage ? recjson_seconds(b->built_seconds)
					  : NULL);
	json_object_object_add(j, "cpu_seconds", recjson_seconds(b->cpu_seconds));
	json_object_object_add(j, "config_hash", jsonx_new_str(b->hash));
	json_object_object_add(j, "artifacts", build_artifacts(b));
	json_object_object_add(j, "kernelrelease", jsonx_new_str(b->kernelrelease));
	json_object_object_add(j, "distcc", jsonx_new_str(b->distcc));
	return j;
}

/* ------------------------------------------------------------ verdicts */

/* The verdict of group name on arch: scenarios NULL when the arch has no
 * such group. */
static json_object *verdict_of(json_object *boots, const char *arch,
			       const char *name, const char *const *scenarios,
			       size_t n_scenarios, const struct plan *p)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (scenarios) {
		struct groupverdict_group q = {
			.name = name,
			.arch = arch,
			.scenarios = scenarios,
			.n_scenarios = n_scenarios,
			.plan = p,
		};

		return groupverdict_decide(boots, &q);
	}
	strbuf_addf(&why, "no %s group %s (scenarios/groups/%s/) in this plan",
		    arch, name, arch);
	return groupverdict_skip(name, arch, NULL, why.buf);
}

static json_object *group_verdict(json_object *boots,
				  const struct matrixrec_arch *as,
				  const char *name, const struct plan *p)
{
	const struct group *g = NULL;

	for (size_t i = 0; i < as->n_groups; i++)
		if (!strcmp(as->groups[i]->name, name))
			g = as->groups[i];
	/* (a group has at least one scenario: "boot" when it names none) */
	return verdict_of(boots, as->arch, name,
			  g ? (const char *const *)g->scenarios : NULL,
			  g ? g->n_scenarios : 0, p);
}

json_object *matrixrec_groups(json_object *boots,
			      const struct matrixrec_arch *arches,
			      size_t n_arches, char *const *names,
			      size_t n_names, const struct plan *p)
{
	json_object *arr = json_object_new_array();

	for (size_t n = 0; n < n_names; n++)
		for (size_t a = 0; a < n_arches; a++)
			json_object_array_add(arr, group_verdict(boots, &arches[a],
								 names[n], p));
	return arr;
}

/* The strings of a JSON array, borrowed, in a malloc'd vector. */
static const char **strings_of(json_object *a, size_t *ret_n)
{
	size_t n = a && json_object_is_type(a, json_type_array)
			   ? json_object_array_length(a)
			   : 0;
	const char **v = xrealloc(NULL, (n + 1) * sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(a, i));

		if (s && json_object_is_type(json_object_array_get_idx(a, i),
					     json_type_string))
			v[k++] = s;
	}
	*ret_n = k;
	return v;
}

json_object *matrixrec_groups_recorded(json_object *boots, json_object *plan)
{
	json_object *arr = json_object_new_array();
	json_object *gs = jsonx_get(plan, "group_scenarios");
	json_object *sc = jsonx_get(plan, "scenarios");
	size_t n_names, n_arches, n_sc;
	_cleanup_free_ const char **names =
		strings_of(jsonx_get(plan, "groups"), &n_names);
	_cleanup_free_ const char **arches =
		strings_of(jsonx_get(plan, "arches"), &n_arches);
	_cleanup_free_ const char **scen = strings_of(sc, &n_sc);
	struct plan p = { 0 };

	/* What groupverdict reads of a plan: its scenarios line. */
	if (sc && json_object_is_type(sc, json_type_array)) {
		p.scenarios = (char **)scen;
		p.n_scenarios = n_sc;
	}
	for (size_t n = 0; n < n_names; n++)
		for (size_t a = 0; a < n_arches; a++) {
			json_object *g = jsonx_get(jsonx_get(gs, arches[a]),
						   names[n]);
			size_t k = 0;
			_cleanup_free_ const char **v =
				g ? strings_of(g, &k) : NULL;

			json_object_array_add(arr, verdict_of(boots, arches[a],
							      names[n], v, k,
							      &p));
		}
	return arr;
}

static bool is(const char *s, const char *v)
{
	return s && !strcmp(s, v);
}

bool matrixrec_failed(json_object *rec)
{
	json_object *sc = jsonx_get(rec, "scenarios");
	const char *v = jsonx_str(rec, "verdict");

	if (is(jsonx_str(jsonx_get(rec, "config"), "result"), "fail") ||
	    is(jsonx_str(jsonx_get(rec, "build"), "result"), "fail"))
		return true;
	if (verdict_name_kernel(v) && !is(v, "BOOTED"))
		return true;
	for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
		const char *r = jsonx_str(json_object_array_get_idx(sc, i), "result");

		if (is(r, "fail") || is(r, "error"))
			return true;
	}
	return false;
}

json_object *matrixrec_regroup(json_object *doc)
{
	json_object *plan = jsonx_get(doc, "plan");
	json_object *gs = jsonx_get(plan, "group_scenarios");
	json_object *old = jsonx_get(doc, "groups");

	if (!gs || !json_object_is_type(gs, json_type_object) || !old ||
	    !json_object_is_type(old, json_type_array))
		return NULL;
	return matrixrec_groups_recorded(jsonx_get(doc, "boots"), plan);
}

bool matrixrec_run_failed(json_object *groups, json_object *boots)
{
	for (size_t i = 0; groups && i < json_object_array_length(groups); i++)
		if (is(jsonx_str(json_object_array_get_idx(groups, i), "verdict"),
		       "FAIL"))
			return true;
	for (size_t i = 0; boots && i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);

		if (is(jsonx_str(jsonx_get(b, "candidate"), "kind"), "base") &&
		    matrixrec_failed(b))
			return true;
	}
	return false;
}
