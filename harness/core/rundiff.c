// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/rundiff.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runread.h"
#include "core/verdict.h"
#include "util/jsonx.h"
#include "util/xalloc.h"

struct ctx {
	struct rundiff *d;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void add(struct ctx *c, enum rundiff_class cls, const char *what,
		const char *key, const char *from, const char *to,
		const char *detail)
{
	struct rundiff *d = c->d;
	struct rundiff_item *it;

	d->items = xreallocarray(d->items, d->n + 1, sizeof(*d->items));
	it = &d->items[d->n];
	*it = (struct rundiff_item){
		.cls = cls,
		.what = what,
		.key = xstrdup(key),
		.from = dup_or_null(from),
		.to = dup_or_null(to),
		.detail = detail && *detail ? xstrdup(detail) : NULL,
	};
	d->n++;
	switch (cls) {
	case RUNDIFF_REGRESSION: d->n_regressions++; break;
	case RUNDIFF_FIX: d->n_fixes++; break;
	case RUNDIFF_NOTE: d->n_notes++; break;
	}
}

static bool eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool in(const char *s, const char *const *set)
{
	for (size_t i = 0; s && set[i]; i++)
		if (!strcmp(s, set[i]))
			return true;
	return false;
}

/* "stage: reason", "reason" or "". */
static void stage_reason(json_object *g, struct strbuf *sb)
{
	const char *st = jsonx_str(g, "stage"), *r = jsonx_str(g, "reason");

	strbuf_reset(sb);
	if (st)
		strbuf_addf(sb, "%s%s", st, r ? ": " : "");
	if (r)
		strbuf_addstr(sb, r);
}

static void dropped_list(json_object *g, const char *prefix,
			 struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t i = 0; i < jsonx_len(g, "dropped"); i++) {
		json_object *d = jsonx_at(g, "dropped", i);
		strbuf_addf(sb, "%s%s", i ? "; " : prefix,
			    jsonx_str(d, "option"));
		if (jsonx_str(d, "reason"))
			strbuf_addf(sb, " (%s)", jsonx_str(d, "reason"));
	}
}

/* ------------------------------------------------------------ groups */

static json_object *find_group(json_object *run, const char *group,
			       const char *arch)
{
	for (size_t i = 0; i < jsonx_len(run, "groups"); i++) {
		json_object *g = jsonx_at(run, "groups", i);
		if (!strcmp(jsonx_str(g, "group"), group) &&
		    !strcmp(jsonx_str(g, "arch"), arch))
			return g;
	}
	return NULL;
}

static void diff_group(struct ctx *c, const char *key, json_object *ga,
		       json_object *gb)
{
	const char *va = jsonx_str(ga, "verdict");
	const char *vb = jsonx_str(gb, "verdict");
	_cleanup_strbuf_ struct strbuf det = STRBUF_INIT;

	if (!ga || !gb) {
		add(c, RUNDIFF_NOTE, "group", key, va, vb,
		    gb ? "only in B" : "not in B");
		return;
	}
	if (eq(va, vb)) {
		if (!strcmp(va, "FAIL") &&
		    !eq(jsonx_str(ga, "stage"), jsonx_str(gb, "stage"))) {
			stage_reason(gb, &det);
			add(c, RUNDIFF_NOTE, "group", key, va, vb, det.buf);
		}
		return;
	}
	if (!strcmp(vb, "FAIL")) {
		stage_reason(gb, &det);
		add(c, RUNDIFF_REGRESSION, "group", key, va, vb, det.buf);
	} else if (!strcmp(va, "FAIL") &&
		   (!strcmp(vb, "PASS") || !strcmp(vb, "PARTIAL"))) {
		_cleanup_strbuf_ struct strbuf was = STRBUF_INIT;

		stage_reason(ga, &det);
		if (det.len)
			strbuf_addf(&was, "was %s", det.buf);
		add(c, RUNDIFF_FIX, "group", key, va, vb, was.buf);
	} else if (!strcmp(vb, "PARTIAL")) {
		dropped_list(gb, "dropped: ", &det);
		add(c, RUNDIFF_NOTE, "group", key, va, vb, det.buf);
	} else if (!strcmp(va, "PARTIAL") && !strcmp(vb, "PASS")) {
		dropped_list(ga, "now kept: ", &det);
		add(c, RUNDIFF_NOTE, "group", key, va, vb, det.buf);
	} else {
		stage_reason(gb, &det);
		add(c, RUNDIFF_NOTE, "group", key, va, vb, det.buf);
	}
}

static void diff_groups(struct ctx *c, json_object *a, json_object *b)
{
	_cleanup_strbuf_ struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(a, "groups"); i++) {
		json_object *ga = jsonx_at(a, "groups", i);
		const char *g = jsonx_str(ga, "group");
		const char *ar = jsonx_str(ga, "arch");

		strbuf_reset(&key);
		strbuf_addf(&key, "%s/%s", g, ar);
		diff_group(c, key.buf, ga, find_group(b, g, ar));
	}
	for (size_t i = 0; i < jsonx_len(b, "groups"); i++) {
		json_object *gb = jsonx_at(b, "groups", i);
		const char *g = jsonx_str(gb, "group");
		const char *ar = jsonx_str(gb, "arch");

		if (find_group(a, g, ar))
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%s/%s", g, ar);
		diff_group(c, key.buf, NULL, gb);
	}
}

/* ------------------------------------------------------------ boots */

static const char *const boot_failed[] = { "PANIC", "PROBLEMS", "HUNG",
					   "CRASHED", NULL };

static json_object *find_boot(json_object *run, const char *key)
{
	_cleanup_strbuf_ struct strbuf k = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(run, "boots"); i++) {
		runread_boot_key(run, i, &k);
		if (!strcmp(k.buf, key))
			return jsonx_at(run, "boots", i);
	}
	return NULL;
}

static void diff_config(struct ctx *c, const char *key, json_object *ca,
			json_object *cb)
{
	const char *ra = jsonx_str(ca, "result"), *rb = jsonx_str(cb, "result");
	_cleanup_strbuf_ struct strbuf k = STRBUF_INIT;

	if (ca && cb && !eq(ra, rb)) {
		if (!strcmp(rb, "fail"))
			add(c, RUNDIFF_REGRESSION, "config", key, ra, rb,
			    jsonx_str(cb, "error"));
		else if (!strcmp(ra, "fail"))
			add(c, RUNDIFF_FIX, "config", key, ra, rb, NULL);
		else
			add(c, RUNDIFF_NOTE, "config", key, ra, rb, NULL);
	}
	/* Requested options that changed between kept and dropped. */
	for (size_t i = 0; ca && cb && i < jsonx_len(cb, "options"); i++) {
		json_object *ob = jsonx_at(cb, "options", i), *oa = NULL;
		const char *name = jsonx_str(ob, "option");
		const char *grp = jsonx_str(ob, "group");
		bool kept_a, kept_b;

		for (size_t j = 0; j < jsonx_len(ca, "options"); j++) {
			json_object *o = jsonx_at(ca, "options", j);
			if (!strcmp(jsonx_str(o, "option"), name) &&
			    eq(jsonx_str(o, "group"), grp)) {
				oa = o;
				break;
			}
		}
		if (!oa)
			continue;
		kept_a = !strcmp(jsonx_str(oa, "status"), "kept");
		kept_b = !strcmp(jsonx_str(ob, "status"), "kept");
		if (kept_a == kept_b)
			continue;
		strbuf_reset(&k);
		strbuf_addf(&k, "%s/%s", key, name);
		add(c, RUNDIFF_NOTE, "option", k.buf,
		    jsonx_str(oa, "status"), jsonx_str(ob, "status"),
		    kept_a ? jsonx_str(ob, "reason") : "now kept");
	}
}

static void diff_build(struct ctx *c, const char *key, json_object *ba,
		       json_object *bb)
{
	static const char *const ok[] = { "pass", "reused", NULL };
	const char *ra = jsonx_str(ba, "result"), *rb = jsonx_str(bb, "result");

	if (!ba || !bb || eq(ra, rb))
		return;
	if (in(ra, ok) && in(rb, ok))
		return; /* built or reused: the same kernel either way */
	if (!strcmp(rb, "fail"))
		add(c, RUNDIFF_REGRESSION, "build", key, ra, rb,
		    jsonx_str(bb, "first_error") ?: jsonx_str(bb, "reason"));
	else if (!strcmp(ra, "fail") && in(rb, ok))
		add(c, RUNDIFF_FIX, "build", key, ra, rb, NULL);
	else
		add(c, RUNDIFF_NOTE, "build", key, ra, rb,
		    jsonx_str(bb, "reason"));
}

static void diff_verdict(struct ctx *c, const char *key, json_object *a,
			 json_object *b)
{
	const char *va = jsonx_str(a, "verdict"), *vb = jsonx_str(b, "verdict");
	const char *why = jsonx_str(b, "reason");

	if (eq(va, vb))
		return;
	if (eq(va, "BOOTED") && in(vb, boot_failed))
		add(c, RUNDIFF_REGRESSION, "boot", key, va, vb, why);
	else if (in(va, boot_failed) && eq(vb, "BOOTED"))
		add(c, RUNDIFF_FIX, "boot", key, va, vb,
		    jsonx_str(a, "reason"));
	else
		add(c, RUNDIFF_NOTE, "boot", key, va ? va : "not booted",
		    vb ? vb : "not booted", why);
}

static json_object *find_named(json_object *o, const char *arr,
			       const char *name)
{
	for (size_t i = 0; i < jsonx_len(o, arr); i++) {
		json_object *e = jsonx_at(o, arr, i);
		if (eq(jsonx_str(e, "name"), name))
			return e;
	}
	return NULL;
}

static void diff_scenarios(struct ctx *c, const char *key, json_object *a,
			   json_object *b)
{
	static const char *const bad[] = { "fail", "error", NULL };
	_cleanup_strbuf_ struct strbuf k = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(a, "scenarios"); i++) {
		json_object *sa = jsonx_at(a, "scenarios", i);
		const char *name = jsonx_str(sa, "name");
		json_object *sb = find_named(b, "scenarios", name);
		const char *ra = jsonx_str(sa, "result");
		const char *rb = jsonx_str(sb, "result");

		strbuf_reset(&k);
		strbuf_addf(&k, "%s/%s", key, name);
		if (!sb) {
			add(c, RUNDIFF_NOTE, "scenario", k.buf, ra, NULL,
			    "not run in B");
			continue;
		}
		if (eq(ra, rb))
			continue;
		if (!strcmp(ra, "pass") && in(rb, bad))
			add(c, RUNDIFF_REGRESSION, "scenario", k.buf, ra, rb,
			    jsonx_str(sb, "reason"));
		else if (in(ra, bad) && !strcmp(rb, "pass"))
			add(c, RUNDIFF_FIX, "scenario", k.buf, ra, rb,
			    jsonx_str(sa, "reason"));
		else
			add(c, RUNDIFF_NOTE, "scenario", k.buf, ra, rb,
			    jsonx_str(sb, "reason"));
	}
	for (size_t i = 0; i < jsonx_len(b, "scenarios"); i++) {
		json_object *sb = jsonx_at(b, "scenarios", i);
		const char *name = jsonx_str(sb, "name");

		if (find_named(a, "scenarios", name))
			continue;
		strbuf_reset(&k);
		strbuf_addf(&k, "%s/%s", key, name);
		add(c, RUNDIFF_NOTE, "scenario", k.buf, NULL,
		    jsonx_str(sb, "result"), "only in B");
	}
}

/* A problem's key in the diff: its signature, else kind and title. */
static void problem_id(json_object *p, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (jsonx_str(p, "signature"))
		strbuf_addstr(sb, jsonx_str(p, "signature"));
	else
		strbuf_addf(sb, "%s %s", jsonx_str(p, "kind"),
			    jsonx_str(p, "title"));
}

static bool same_str(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/*
 * The same problem in two boots: the same signature (the same kind and
 * call trace), or the same kind and title (a title names the kind and the
 * first meaningful function: the same problem reached through another
 * path, or a trace the other boot's console cut short).
 */
static bool same_problem(json_object *p, json_object *q)
{
	return same_str(jsonx_str(p, "signature"), jsonx_str(q, "signature")) ||
	       (same_str(jsonx_str(p, "kind"), jsonx_str(q, "kind")) &&
		same_str(jsonx_str(p, "title"), jsonx_str(q, "title")));
}

/* Is p among the first n problems of boot? */
static bool has_problem(json_object *boot, json_object *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (same_problem(jsonx_at(boot, "problems", i), p))
			return true;
	return false;
}

/* The kernel ran (whatever it did), not only the host failing. */
static bool ran(json_object *boot)
{
	const char *v = jsonx_str(boot, "verdict");

	return v && strcmp(v, "INFRA");
}

/* ... and to the end: what it did not print, it did not do. */
static bool finished(json_object *boot)
{
	const char *v = jsonx_str(boot, "verdict");

	return ran(boot) && !verdict_name_cut(v);
}

/*
 * The problems of boot `in` that boot `other` does not have
 * (same_problem), each once, as cls (a note when the problem was allowed), from -> to.
 */
static void problems_only_in(struct ctx *c, const char *key, json_object *in,
			     json_object *other, enum rundiff_class cls,
			     const char *from, const char *to)
{
	_cleanup_strbuf_ struct strbuf id = STRBUF_INIT, k = STRBUF_INIT,
				       det = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(in, "problems"); i++) {
		json_object *p = jsonx_at(in, "problems", i);

		/* Each problem once per candidate. */
		if (has_problem(other, p, jsonx_len(other, "problems")) ||
		    has_problem(in, p, i))
			continue;
		problem_id(p, &id);
		strbuf_reset(&k);
		strbuf_addf(&k, "%s/%s", key, id.buf);
		strbuf_reset(&det);
		strbuf_addf(&det, "%s: %s", jsonx_str(p, "kind"),
			    jsonx_str(p, "title"));
		add(c, jsonx_bool(p, "allowed", false) ? RUNDIFF_NOTE : cls,
		    "problem", k.buf, from, to, det.buf);
	}
}

static void diff_problems(struct ctx *c, const char *key, json_object *a,
			  json_object *b)
{
	/* New in B: B ran and A ran to the end.  Gone from B: the reverse. */
	if (ran(b) && finished(a))
		problems_only_in(c, key, b, a, RUNDIFF_REGRESSION, NULL,
				 "new");
	if (ran(a) && finished(b))
		problems_only_in(c, key, a, b, RUNDIFF_FIX, "present", "gone");
}

static void diff_boot(struct ctx *c, const char *key, json_object *a,
		      json_object *b)
{
	diff_config(c, key, jsonx_get(a, "config"), jsonx_get(b, "config"));
	diff_build(c, key, jsonx_get(a, "build"), jsonx_get(b, "build"));
	diff_verdict(c, key, a, b);
	diff_scenarios(c, key, a, b);
	diff_problems(c, key, a, b);
}

static void diff_boots(struct ctx *c, json_object *a, json_object *b)
{
	_cleanup_strbuf_ struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(a, "boots"); i++) {
		json_object *ba = jsonx_at(a, "boots", i), *bb;

		runread_boot_key(a, i, &key);
		bb = find_boot(b, key.buf);
		if (bb)
			diff_boot(c, key.buf, ba, bb);
		else
			add(c, RUNDIFF_NOTE, "candidate", key.buf,
			    jsonx_str(ba, "verdict") ?: "not booted", NULL,
			    "not in B");
	}
	for (size_t i = 0; i < jsonx_len(b, "boots"); i++) {
		json_object *bb = jsonx_at(b, "boots", i);

		runread_boot_key(b, i, &key);
		if (!find_boot(a, key.buf))
			add(c, RUNDIFF_NOTE, "candidate", key.buf, NULL,
			    jsonx_str(bb, "verdict") ?: "not booted",
			    "only in B");
	}
}

int rundiff_compare(json_object *a, const char *name_a, json_object *b,
		    const char *name_b, struct rundiff **ret,
		    struct strbuf *err)
{
	struct ctx c = { 0 };

	if (!a || !b)
		return -EINVAL;
	if (runread_is_matrix(a) != runread_is_matrix(b)) {
		if (err)
			strbuf_addf(err,
				    "%s is a %s and %s a %s: they cannot be "
				    "compared",
				    name_a ? name_a : "A",
				    runread_is_matrix(a)
					    ? "matrix run (bootproof run)"
					    : "single boot (bootproof boot)",
				    name_b ? name_b : "B",
				    runread_is_matrix(b)
					    ? "matrix run (bootproof run)"
					    : "single boot (bootproof boot)");
		return -EINVAL;
	}
	c.d = xcalloc(1, sizeof(*c.d));
	if (!jsonx_bool(a, "complete", false))
		add(&c, RUNDIFF_NOTE, "run", "A", "complete", "INCOMPLETE",
		    "A was interrupted: what it lacks is not compared");
	if (!jsonx_bool(b, "complete", false))
		add(&c, RUNDIFF_NOTE, "run", "B", "complete", "INCOMPLETE",
		    "B was interrupted: what it lacks is not a regression");
	diff_groups(&c, a, b);
	diff_boots(&c, a, b);
	*ret = c.d;
	return 0;
}

void rundiff_free(struct rundiff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].key);
		free(d->items[i].from);
		free(d->items[i].to);
		free(d->items[i].detail);
	}
	free(d->items);
	free(d);
}

static const char *const rundiff_class_names[] = {
	[RUNDIFF_REGRESSION] = "regression", [RUNDIFF_FIX] = "fix",
	[RUNDIFF_NOTE] = "note",
};

const char *rundiff_class_name(enum rundiff_class c)
{
	return ENUM_NAME(rundiff_class_names, c, "?");
}

static const char *const section_title[] = {
	[RUNDIFF_REGRESSION] = "regressions",
	[RUNDIFF_FIX] = "fixes",
	[RUNDIFF_NOTE] = "other changes",
};

void rundiff_format_text(const struct rundiff *d, struct strbuf *out)
{
	size_t count[] = { d->n_regressions, d->n_fixes, d->n_notes };

	for (int cls = RUNDIFF_REGRESSION; cls <= RUNDIFF_NOTE; cls++) {
		if (!count[cls])
			continue;
		strbuf_addf(out, "%s (%zu):\n", section_title[cls], count[cls]);
		for (size_t i = 0; i < d->n; i++) {
			const struct rundiff_item *it = &d->items[i];

			if ((int)it->cls != cls)
				continue;
			strbuf_addf(out, "  %-9s %s: %s -> %s", it->what, it->key,
				    it->from ? it->from : "(none)",
				    it->to ? it->to : "(none)");
			if (it->detail)
				strbuf_addf(out, "  (%s)", it->detail);
			strbuf_addch(out, '\n');
		}
	}
	if (!d->n)
		strbuf_addstr(out, "no change in group verdicts, stages, "
				   "scenarios, kernel problems or options\n");
	strbuf_addf(out, "%zu regression%s, %zu fix%s, %zu other change%s\n",
		    d->n_regressions, d->n_regressions == 1 ? "" : "s",
		    d->n_fixes, d->n_fixes == 1 ? "" : "es", d->n_notes,
		    d->n_notes == 1 ? "" : "s");
}

json_object *rundiff_to_json(const struct rundiff *d)
{
	static const char *const keys[] = { "regressions", "fixes", "notes" };
	json_object *o = json_object_new_object(), *arr[3], *counts;

	if (!o)
		return NULL;
	for (int cls = 0; cls < 3; cls++) {
		arr[cls] = json_object_new_array();
		json_object_object_add(o, keys[cls], arr[cls]);
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct rundiff_item *it = &d->items[i];
		json_object *e = json_object_new_object();

		if (!e || !arr[it->cls]) {
			json_object_put(e);
			json_object_put(o);
			return NULL;
		}
		json_object_object_add(e, "what", json_object_new_string(it->what));
		json_object_object_add(e, "key", json_object_new_string(it->key));
		json_object_object_add(e, "from", jsonx_new_str(it->from));
		json_object_object_add(e, "to", jsonx_new_str(it->to));
		json_object_object_add(e, "detail", jsonx_new_str(it->detail));
		json_object_array_add(arr[it->cls], e);
	}
	counts = json_object_new_object();
	json_object_object_add(counts, "regressions",
			       json_object_new_int64((int64_t)d->n_regressions));
	json_object_object_add(counts, "fixes",
			       json_object_new_int64((int64_t)d->n_fixes));
	json_object_object_add(counts, "notes",
			       json_object_new_int64((int64_t)d->n_notes));
	json_object_object_add(o, "counts", counts);
	return o;
}
