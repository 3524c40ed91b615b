// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/groupverdict.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/plan.h"
#include "core/verdict.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static const char *const names[] = {
	[GROUPVERDICT_PASS] = "PASS",
	[GROUPVERDICT_PARTIAL] = "PARTIAL",
	[GROUPVERDICT_FAIL] = "FAIL",
	[GROUPVERDICT_SKIP] = "SKIP",
};

const char *groupverdict_name(enum groupverdict v)
{
	return (unsigned)v < ELEMENTSOF(names) ? names[v] : "?";
}

int groupverdict_of(json_object *gv, enum groupverdict *ret)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(gv, "verdict", &v) ||
	    !(s = json_object_get_string(v)))
		return -EINVAL;
	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (!strcmp(s, names[i])) {
			*ret = (enum groupverdict)i;
			return 0;
		}
	return -EINVAL;
}

/* ------------------------------------------------------------ reading */

static bool streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static bool array_has(json_object *a, const char *s)
{
	if (!a || !json_object_is_type(a, json_type_array))
		return false;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		if (streq(json_object_get_string(json_object_array_get_idx(a, i)),
			  s))
			return true;
	return false;
}

static json_object *pick(json_object *boots, const char *group,
			 const char *arch)
{
	json_object *best = NULL;
	int best_rank = 99;

	if (!boots || !json_object_is_type(boots, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		json_object *c = jsonx_get(b, "candidate");
		const char *kind = jsonx_str(c, "kind");
		int rank;

		if (!c || !streq(jsonx_str(c, "arch"), arch) ||
		    !array_has(jsonx_get(c, "groups"), group))
			continue;
		rank = streq(kind, "each") ? 0 : streq(kind, "all") ? 1 : 2;
		if (rank < best_rank) {
			best = b;
			best_rank = rank;
		}
	}
	return best;
}

static json_object *base_of(json_object *boots, const char *arch)
{
	for (size_t i = 0; i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		json_object *c = jsonx_get(b, "candidate");

		if (streq(jsonx_str(c, "arch"), arch) && streq(jsonx_str(c, "kind"), "base"))
			return b;
	}
	return NULL;
}

/* ------------------------------------------------------------ writing */

static void add_str(json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

static json_object *verdict_new(const char *group, const char *arch)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	add_str(o, "group", group);
	add_str(o, "arch", arch);
	return o;
}

static void set_verdict(json_object *o, enum groupverdict v,
			const char *stage, const char *reason)
{
	add_str(o, "verdict", groupverdict_name(v));
	add_str(o, "stage", stage);
	add_str(o, "reason", reason);
}

json_object *groupverdict_skip(const char *group, const char *arch,
			       const char *stage, const char *reason)
{
	json_object *o = verdict_new(group, arch);

	if (!o)
		return NULL;
	set_verdict(o, GROUPVERDICT_SKIP, stage, reason);
	add_str(o, "candidate", NULL);
	json_object_object_add(o, "dropped", json_object_new_array());
	json_object_object_add(o, "scenarios", json_object_new_array());
	add_str(o, "reproduce", NULL);
	return o;
}

/* ------------------------------------------------------------ deciding */

/* The reason of the dropped option named name (without CONFIG_), or NULL
 * when it was not dropped. */
static json_object *dropped_entry(json_object *dropped, const char *name,
				  size_t len)
{
	for (size_t i = 0; i < json_object_array_length(dropped); i++) {
		json_object *d = json_object_array_get_idx(dropped, i);
		const char *o = jsonx_str(d, "option");

		if (o && strlen(o) == len && !strncmp(o, name, len))
			return d;
	}
	return NULL;
}

/* A skip reason naming CONFIG_X for a dropped X: rewrite it. */
static bool skip_for_dropped(json_object *dropped, const char *why,
			     struct strbuf *out)
{
	for (const char *p = why ? strstr(why, "CONFIG_") : NULL; p;
	     p = strstr(p + 1, "CONFIG_")) {
		const char *n = p + 7;
		size_t len = 0;
		json_object *d;

		while (isalnum((unsigned char)n[len]) || n[len] == '_')
			len++;
		if (!len || !(d = dropped_entry(dropped, n, len)))
			continue;
		strbuf_addf(out, "CONFIG_%.*s was dropped: %s (guest: %s)",
			    (int)len, n,
			    jsonx_str(d, "reason") ? jsonx_str(d, "reason") : "?", why);
		return true;
	}
	return false;
}

static bool is_own(const struct groupverdict_group *g, const char *s)
{
	return strcmp(s, "boot") || g->n_scenarios == 1;
}

static json_object *find_scenario(json_object *boot, const char *name)
{
	json_object *sc = jsonx_get(boot, "scenarios");

	if (!sc || !json_object_is_type(sc, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(sc); i++) {
		json_object *s = json_object_array_get_idx(sc, i);

		if (streq(jsonx_str(s, "name"), name))
			return s;
	}
	return NULL;
}

/* " (the base alone fails too: x86_64-base)" when it does. */
static void base_too(json_object *boots, json_object *cand, const char *arch,
		     const char *stage, struct strbuf *sb)
{
	json_object *base = base_of(boots, arch), *b;
	const char *v;

	if (!base || base == cand)
		return;
	if (!strcmp(stage, "build")) {
		b = jsonx_get(base, "build");
		if (!streq(jsonx_str(b, "result"), "fail"))
			return;
	} else {
		v = jsonx_str(base, "verdict");
		if (!verdict_name_kernel(v) || streq(v, "BOOTED"))
			return;
	}
	strbuf_addf(sb, " (the base alone fails too: %s)",
		    jsonx_str(jsonx_get(base, "candidate"), "id"));
}

/* What the config stage dropped from this group ({ option, reason }); the
 * number of the group's options in *ret_n. */
static json_object *dropped_of(json_object *cfg,
			       const struct groupverdict_group *g,
			       size_t *ret_n)
{
	json_object *dropped = json_object_new_array();
	json_object *opts = jsonx_get(cfg, "options");
	size_t n = 0;

	for (size_t i = 0; opts && json_object_is_type(opts, json_type_array) &&
			   i < json_object_array_length(opts);
	     i++) {
		json_object *op = json_object_array_get_idx(opts, i), *d;

		if (!streq(jsonx_str(op, "group"), g->name))
			continue;
		n++;
		if (streq(jsonx_str(op, "status"), "kept"))
			continue;
		d = json_object_new_object();
		add_str(d, "option", jsonx_str(op, "option"));
		add_str(d, "reason", jsonx_str(op, "reason") ? jsonx_str(op, "reason")
						       : jsonx_str(op, "reason_kind"));
		json_object_array_add(dropped, d);
	}
	*ret_n = n;
	return dropped;
}

/* The candidate booted the first time: did a later boot of its samples
 * (bootsamples: the same kernel again) end otherwise?  Then sb says which
 * and true: a candidate that fails one boot in three fails. */
static bool later_failed_boot(json_object *cand, struct strbuf *sb)
{
	json_object *s = jsonx_get(cand, "samples");
	size_t n = jsonx_len(s, "verdicts");

	for (size_t i = 1; i < n; i++) {
		const char *v = json_object_get_string(jsonx_at(s, "verdicts", i));
		json_object *c = jsonx_at(s, "consoles", i);

		if (!verdict_name_kernel(v) || streq(v, "BOOTED"))
			continue;
		strbuf_addf(sb, "boot %zu of %zu: %s", i + 1, n, v);
		if (c && json_object_is_type(c, json_type_string))
			strbuf_addf(sb, " (%s)", json_object_get_string(c));
		strbuf_addstr(sb, "; the first boot BOOTED: it fails "
				  "intermittently");
		return true;
	}
	return false;
}

/* The candidate's first boot failed: say which of its later boots
 * BOOTED, if any (then the failure is intermittent). */
static void later_booted(json_object *cand, struct strbuf *sb)
{
	json_object *s = jsonx_get(cand, "samples");
	size_t n = jsonx_len(s, "verdicts"), k = 0;
	_cleanup_strbuf_ struct strbuf which = STRBUF_INIT;

	for (size_t i = 1; i < n; i++) {
		const char *v = json_object_get_string(jsonx_at(s, "verdicts", i));

		if (v && streq(v, "BOOTED"))
			strbuf_addf(&which, "%s%zu", k++ ? ", " : "", i + 1);
	}
	if (k)
		strbuf_addf(sb, "; boot%s %s of %zu BOOTED: it fails "
				"intermittently", k > 1 ? "s" : "", which.buf, n);
}

/* The stages, in order: true when one of them decided the verdict. */
static bool decide_stages(json_object *o, json_object *boots, json_object *cand,
			  const struct groupverdict_group *g)
{
	json_object *cfg = jsonx_get(cand, "config");
	json_object *build = jsonx_get(cand, "build");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	const char *res = jsonx_str(cfg, "result"), *v;

	if (!res) {
		/* A stub's reason says why (another shard runs it), else the
		 * run was cut short. */
		set_verdict(o, GROUPVERDICT_SKIP, "config",
			    jsonx_str(cand, "reason")
				    ? jsonx_str(cand, "reason")
				    : "the config stage did not run (run "
				      "interrupted)");
		return true;
	}
	if (streq(res, "fail")) {
		strbuf_addf(&sb, "config stage failed: %s",
			    jsonx_str(cfg, "error") ? jsonx_str(cfg, "error") : "?");
		set_verdict(o, GROUPVERDICT_FAIL, "config", sb.buf);
		return true;
	}
	res = jsonx_str(build, "result");
	if (!res || streq(res, "skip")) {
		strbuf_addf(&sb, "not built: %s",
			    jsonx_str(build, "reason") ? jsonx_str(build, "reason")
						 : "the run was interrupted");
		set_verdict(o, GROUPVERDICT_SKIP, "build", sb.buf);
		return true;
	}
	if (streq(res, "fail")) {
		strbuf_addf(&sb, "build failed: %s",
			    jsonx_str(build, "first_error") ? jsonx_str(build, "first_error")
			    : jsonx_str(build, "reason")    ? jsonx_str(build, "reason")
						      : "?");
		base_too(boots, cand, g->arch, "build", &sb);
		set_verdict(o, GROUPVERDICT_FAIL, "build", sb.buf);
		return true;
	}
	v = jsonx_str(cand, "verdict");
	if (!v && jsonx_get(cand, "lava")) {
		strbuf_addf(&sb, "waiting for LAVA: %s (bootproof lava-results)",
			    jsonx_str(jsonx_get(cand, "lava"), "job"));
		set_verdict(o, GROUPVERDICT_SKIP, "boot", sb.buf);
		return true;
	}
	if (!v || verdict_name_cut(v)) {	/* !v: for the compiler */
		set_verdict(o, GROUPVERDICT_SKIP, "boot",
			    "the boot did not finish (run interrupted)");
		return true;
	}
	if (streq(v, "BOOTED")) {
		if (!later_failed_boot(cand, &sb))
			return false;
		set_verdict(o, GROUPVERDICT_FAIL, "boot", sb.buf);
		return true;
	}
	strbuf_addf(&sb, "%s%s: %s", streq(v, "INFRA") ? "infrastructure, " : "",
		    v, jsonx_str(cand, "reason") ? jsonx_str(cand, "reason") : "?");
	if (streq(v, "INFRA")) {
		set_verdict(o, GROUPVERDICT_SKIP, "boot", sb.buf);
		return true;
	}
	later_booted(cand, &sb);
	base_too(boots, cand, g->arch, "boot", &sb);
	set_verdict(o, GROUPVERDICT_FAIL, "boot", sb.buf);
	return true;
}

/* The result of one of the group's scenarios in the candidate's boot,
 * with its reason (in w when rewritten). */
static const char *scenario_result(json_object *cand, json_object *dropped,
				   const struct groupverdict_group *g,
				   const char *name, const char **ret_why,
				   struct strbuf *w)
{
	json_object *bs;
	const char *r;

	if (g->plan && !plan_allows_scenario(g->plan, name)) {
		*ret_why = "not in the plan's scenarios";
		return "skip";
	}
	if (!(bs = find_scenario(cand, name))) {
		*ret_why = "the candidate's boot has no result for it";
		return "error";
	}
	r = jsonx_str(bs, "result") ? jsonx_str(bs, "result") : "error";
	*ret_why = jsonx_str(bs, "reason");
	if (streq(r, "pending"))
		r = "error";
	if (streq(r, "skip") && skip_for_dropped(dropped, *ret_why, w))
		*ret_why = w->buf;
	return r;
}

/* The group's scenarios into scen; the failed ones in fails; whether one
 * of its own passed (0), none of its own passed (1), it has none (2). */
static int judge_scenarios(json_object *cand, json_object *dropped,
			   const struct groupverdict_group *g, json_object *scen,
			   struct strbuf *fails)
{
	size_t n_own = 0, n_own_pass = 0;

	for (size_t i = 0; i < g->n_scenarios; i++) {
		const char *name = g->scenarios[i], *r, *why = NULL;
		json_object *s = json_object_new_object();
		_cleanup_strbuf_ struct strbuf w = STRBUF_INIT;

		r = scenario_result(cand, dropped, g, name, &why, &w);
		add_str(s, "name", name);
		add_str(s, "result", r);
		add_str(s, "reason", why);
		json_object_array_add(scen, s);
		if (streq(r, "fail") || streq(r, "error"))
			strbuf_addf(fails, "%sscenario %s %s: %s",
				    fails->len ? "; " : "", name,
				    streq(r, "fail") ? "failed" : "gave no result",
				    why ? why : "?");
		if (is_own(g, name)) {
			n_own++;
			if (streq(r, "pass"))
				n_own_pass++;
		}
	}
	return !n_own ? 2 : n_own_pass ? 0 : 1;
}

/* After the scenarios: FAIL, SKIP (nothing proved it), PARTIAL, PASS. */
static void decide_scenarios(json_object *o, const struct groupverdict_group *g,
			     json_object *scen, json_object *dropped,
			     size_t n_opts, int own, const struct strbuf *fails)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	size_t nd = json_object_array_length(dropped);

	if (fails->len) {
		set_verdict(o, GROUPVERDICT_FAIL, "scenario", fails->buf);
		return;
	}
	if (own == 1) {
		strbuf_addstr(&sb, "nothing proved it:");
		for (size_t i = 0; i < json_object_array_length(scen); i++) {
			json_object *s = json_object_array_get_idx(scen, i);

			if (!is_own(g, jsonx_str(s, "name")))
				continue;
			strbuf_addf(&sb, " %s skipped (%s);", jsonx_str(s, "name"),
				    jsonx_str(s, "reason") ? jsonx_str(s, "reason") : "?");
		}
		strbuf_setlen(&sb, sb.len - 1);
		set_verdict(o, GROUPVERDICT_SKIP, "scenario", sb.buf);
		return;
	}
	if (nd) {
		strbuf_addf(&sb, "%zu of %zu options dropped:", nd, n_opts);
		for (size_t i = 0; i < nd; i++) {
			json_object *d = json_object_array_get_idx(dropped, i);

			strbuf_addf(&sb, "%s CONFIG_%s (%s)", i ? "," : "",
				    jsonx_str(d, "option"),
				    jsonx_str(d, "reason") ? jsonx_str(d, "reason") : "?");
		}
		set_verdict(o, GROUPVERDICT_PARTIAL, NULL, sb.buf);
		return;
	}
	strbuf_addf(&sb, "%zu option%s kept, booted", n_opts,
		    n_opts == 1 ? "" : "s");
	for (size_t i = 0, k = 0; i < json_object_array_length(scen); i++) {
		json_object *s = json_object_array_get_idx(scen, i);

		if (streq(jsonx_str(s, "result"), "pass"))
			strbuf_addf(&sb, "%s%s", k++ ? ", " : "; passed: ",
				    jsonx_str(s, "name"));
	}
	set_verdict(o, GROUPVERDICT_PASS, NULL, sb.buf);
}

json_object *groupverdict_decide(json_object *boots,
				 const struct groupverdict_group *g)
{
	json_object *o, *cand, *dropped, *scen;
	_cleanup_strbuf_ struct strbuf fails = STRBUF_INIT;
	size_t n_opts = 0;
	int own;

	cand = pick(boots, g->name, g->arch);
	if (!cand) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "no candidate of the plan has %s on %s",
			    g->name, g->arch);
		return groupverdict_skip(g->name, g->arch, NULL, sb.buf);
	}
	o = verdict_new(g->name, g->arch);
	if (!o)
		return NULL;
	add_str(o, "candidate", jsonx_str(jsonx_get(cand, "candidate"), "id"));
	dropped = dropped_of(jsonx_get(cand, "config"), g, &n_opts);
	json_object_object_add(o, "dropped", dropped);
	scen = json_object_new_array();
	json_object_object_add(o, "scenarios", scen);
	if (!decide_stages(o, boots, cand, g)) {
		own = judge_scenarios(cand, dropped, g, scen, &fails);
		decide_scenarios(o, g, scen, dropped, n_opts, own, &fails);
	}
	/* A FAIL names the command that runs its candidate alone again. */
	add_str(o, "reproduce",
		streq(jsonx_str(o, "verdict"), "FAIL")
			? jsonx_str(jsonx_get(cand, "candidate"), "reproduce")
			: NULL);
	return o;
}
