// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bisect.h"

#include <stdlib.h>
#include <string.h>

#include "core/verdict.h"
#include "util/jsonx.h"
#include "util/xalloc.h"

static bool is(const char *s, const char *v)
{
	return s && !strcmp(s, v);
}

void bisect_sig_done(struct bisect_sig *s)
{
	free(s->stage);
	free(s->what);
	free(s->detail);
	free(s->title);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

static void sig_set(struct bisect_sig *s, const char *stage, const char *what,
		    const char *detail)
{
	struct strbuf t = STRBUF_INIT;

	s->stage = xstrdup(stage);
	s->what = what ? xstrdup(what) : NULL;
	s->detail = detail ? xstrdup(detail) : NULL;
	strbuf_addf(&t, "%s", stage);
	if (what)
		strbuf_addf(&t, ": %s", what);
	if (detail)
		strbuf_addf(&t, " (%s)", detail);
	s->text = strbuf_detach(&t, NULL);
}

/* The first problem that is not allowed. */
static json_object *first_problem(json_object *rec)
{
	for (size_t i = 0; i < jsonx_len(rec, "problems"); i++) {
		json_object *p = jsonx_at(rec, "problems", i);

		if (!jsonx_bool(p, "allowed", false))
			return p;
	}
	return NULL;
}

/* The path of the first failed KTAP test under t ("a/b"), depth first:
 * the innermost failure names the check. */
static bool failed_check(json_object *t, struct strbuf *path)
{
	size_t len = path->len;
	const char *st = jsonx_str(t, "status");

	if (!is(st, "fail") && !is(st, "error"))
		return false;
	strbuf_addf(path, "%s%s", len ? "/" : "", jsonx_str(t, "name") ?: "?");
	for (size_t i = 0; i < jsonx_len(t, "subtests"); i++)
		if (failed_check(jsonx_at(t, "subtests", i), path))
			return true;
	return true;
}

/* "name/check" of the scenario's first failed check, or NULL. */
static char *scenario_check(json_object *sc)
{
	struct strbuf p = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(sc, "checks"); i++)
		if (failed_check(jsonx_at(sc, "checks", i), &p))
			return strbuf_detach(&p, NULL);
	strbuf_release(&p);
	return NULL;
}

/* Did check path (under scenario sc) fail in sc? */
static bool check_failed(json_object *sc, const char *path)
{
	const char *slash = strchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : strlen(path);
	json_object *arr = sc;
	const char *key = "checks";

	for (;;) {
		json_object *hit = NULL;

		for (size_t i = 0; i < jsonx_len(arr, key) && !hit; i++) {
			json_object *t = jsonx_at(arr, key, i);
			const char *n = jsonx_str(t, "name");

			if (n && strlen(n) == len && !strncmp(n, path, len))
				hit = t;
		}
		if (!hit || (!is(jsonx_str(hit, "status"), "fail") &&
			     !is(jsonx_str(hit, "status"), "error")))
			return false;
		if (!slash)
			return true;
		path = slash + 1;
		slash = strchr(path, '/');
		len = slash ? (size_t)(slash - path) : strlen(path);
		arr = hit;
		key = "subtests";
	}
}

static json_object *scenario_named(json_object *rec, const char *name)
{
	for (size_t i = 0; i < jsonx_len(rec, "scenarios"); i++) {
		json_object *s = jsonx_at(rec, "scenarios", i);

		if (is(jsonx_str(s, "name"), name))
			return s;
	}
	return NULL;
}

enum bisect_outcome bisect_sig_of(json_object *rec, struct bisect_sig *ret)
{
	json_object *cfg = jsonx_get(rec, "config");
	json_object *build = jsonx_get(rec, "build");
	const char *r = jsonx_str(cfg, "result"), *v;

	memset(ret, 0, sizeof(*ret));
	if (!r)
		return BISECT_INFRA;
	if (is(r, "fail")) {
		sig_set(ret, "config", NULL, NULL);
		return BISECT_FAIL_SAME;
	}
	r = jsonx_str(build, "result");
	if (!r || is(r, "skip"))
		return BISECT_INFRA;
	if (is(r, "fail")) {
		sig_set(ret, "build", jsonx_str(build, "first_error"), NULL);
		return BISECT_FAIL_SAME;
	}
	v = jsonx_str(rec, "verdict");
	if (!verdict_name_kernel(v))
		return BISECT_INFRA;
	if (!is(v, "BOOTED")) {
		json_object *p = first_problem(rec);

		sig_set(ret, "boot", v, jsonx_str(p, "signature"));
		if (p && jsonx_str(p, "title")) {
			struct strbuf t = STRBUF_INIT;

			ret->title = xstrdup(jsonx_str(p, "title"));
			strbuf_addf(&t, "boot: %s (%s, signature %s)", v,
				    jsonx_str(p, "title"),
				    jsonx_str(p, "signature") ?: "?");
			free(ret->text);
			ret->text = strbuf_detach(&t, NULL);
		}
		return BISECT_FAIL_SAME;
	}
	for (size_t i = 0; i < jsonx_len(rec, "scenarios"); i++) {
		json_object *s = jsonx_at(rec, "scenarios", i);
		const char *res = jsonx_str(s, "result");
		char *check;

		if (!is(res, "fail") && !is(res, "error"))
			continue;
		check = is(res, "fail") ? scenario_check(s) : NULL;
		sig_set(ret, "scenario", jsonx_str(s, "name") ?: "?", check);
		free(check);
		return BISECT_FAIL_SAME;
	}
	return BISECT_PASS;
}

enum bisect_outcome bisect_judge(const struct bisect_sig *target,
				 json_object *rec, struct strbuf *why)
{
	struct bisect_sig s;
	enum bisect_outcome o = bisect_sig_of(rec, &s);
	bool same;

	if (o == BISECT_PASS) {
		strbuf_addstr(why, "passed");
		return o;
	}
	if (o == BISECT_INFRA) {
		strbuf_addstr(why, "no result: ");
		strbuf_addstr(why, jsonx_str(jsonx_get(rec, "build"), "reason") ?:
				   jsonx_str(rec, "reason") ?:
				   "the step did not finish");
		return o;
	}
	strbuf_addstr(why, s.text);
	same = is(s.stage, target->stage);
	if (same && is(s.stage, "build"))
		same = (!s.what && !target->what) ||
		       (s.what && target->what && !strcmp(s.what, target->what));
	else if (same && is(s.stage, "boot"))
		same = is(s.what, target->what);
	else if (same && is(s.stage, "scenario"))
		same = is(s.what, target->what);
	/* The problem looked for among the step's own, wherever it is. */
	if (same && is(s.stage, "boot") && target->detail) {
		bool found = false;

		for (size_t i = 0; i < jsonx_len(rec, "problems") && !found;
		     i++) {
			json_object *p = jsonx_at(rec, "problems", i);

			found = is(jsonx_str(p, "signature"), target->detail) ||
				(target->title &&
				 is(jsonx_str(p, "title"), target->title));
		}
		same = found;
	}
	if (same && is(s.stage, "scenario") && target->detail)
		same = check_failed(scenario_named(rec, target->what),
				    target->detail);
	bisect_sig_done(&s);
	if (!same)
		strbuf_addstr(why, " (another failure)");
	return same ? BISECT_FAIL_SAME : BISECT_FAIL_OTHER;
}
