// SPDX-License-Identifier: GPL-2.0-or-later
/* kcidb: a run record as a KCIDB v5.3 document (see kcidb.h). */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "core/kcidb.h"
#include "core/runread.h"
#include "util/cleanup.h"
#include "util/jsonx.h"

/* The schema's bound on log_excerpt. */
#define EXCERPT_MAX 16384

struct ctx {
	const struct kcidb_opts *o;
	const char *origin;
	struct strbuf checkout_id;	/* "<origin>:<id>" */
	json_object *builds, *tests;
};

static const struct {
	const char *from, *to;
} test_status[] = {
	{ "pass", "PASS" },   { "fail", "FAIL" },   { "skip", "SKIP" },
	{ "error", "ERROR" }, { "pending", "MISS" }, { "xfail", "PASS" },
};

const char *kcidb_test_status(const char *result)
{
	for (size_t i = 0; result && i < ELEMENTSOF(test_status); i++)
		if (!strcmp(result, test_status[i].from))
			return test_status[i].to;
	return "MISS";
}

static bool origin_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

/* One element of a KCIDB path: [a-zA-Z0-9_-]+, other bytes as '_'. */
static void add_path_elem(struct strbuf *sb, const char *s)
{
	if (!s || !*s) {
		strbuf_addch(sb, '_');
		return;
	}
	for (; *s; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-';
		strbuf_addch(sb, ok ? c : '_');
	}
}

static void add_str(json_object *o, const char *key, const char *s)
{
	if (s)
		json_object_object_add(o, key, json_object_new_string(s));
}

/* Copy member key of from (any type) into to, when present and not null. */
static void copy_member(json_object *to, const char *key, json_object *from,
			const char *from_key)
{
	json_object *m = jsonx_get(from, from_key);

	if (m)
		json_object_object_add(to, key, json_object_get(m));
}

/* Copy the members of from named in keys (NULL-terminated) under the same
 * names. */
static void copy_same(json_object *to, json_object *from,
		      const char *const *keys)
{
	for (; *keys; keys++)
		copy_member(to, *keys, from, *keys);
}
#define COPY_SAME(to, from, ...)                                              \
	copy_same((to), (from), (const char *const[]){ __VA_ARGS__, NULL })

/* A log excerpt: s cut to the schema's bound, NUL bytes cannot occur. */
static void add_excerpt(json_object *o, const char *s)
{
	size_t n;

	if (!s || !*s)
		return;
	n = strlen(s);
	if (n > EXCERPT_MAX)
		n = EXCERPT_MAX;
	json_object_object_add(o, "log_excerpt",
			       json_object_new_string_len(s, (int)n));
}

/* log_url (and nothing else) for a file of the run directory. */
static void add_url(const struct ctx *x, json_object *o, const char *rel)
{
	_cleanup_strbuf_ struct strbuf u = STRBUF_INIT;
	size_t n;

	if (!x->o->base_url || !rel)
		return;
	strbuf_addstr(&u, x->o->base_url);
	n = strlen(x->o->base_url);
	if (n && x->o->base_url[n - 1] != '/')
		strbuf_addch(&u, '/');
	strbuf_addstr(&u, rel);
	json_object_object_add(o, "log_url", json_object_new_string(u.buf));
}

static const char *build_status(json_object *rec)
{
	json_object *cfg = jsonx_get(rec, "config");
	json_object *b = jsonx_get(rec, "build");
	const char *cr = jsonx_str(cfg, "result");
	const char *br = jsonx_str(b, "result");
	const char *why = jsonx_str(b, "reason");

	if (cr && !strcmp(cr, "fail"))
		return "FAIL";
	if (!br)
		return NULL;
	if (!strcmp(br, "fail"))
		return "FAIL";
	if (!strcmp(br, "pass") || !strcmp(br, "reused"))
		return "PASS";
	if (why && !strncmp(why, "infrastructure:", 15))
		return "ERROR";
	return "MISS";
}

static const char *boot_status(json_object *rec)
{
	const char *v = jsonx_str(rec, "verdict");
	static const char *const kernel_failures[] = {
		"PANIC", "PROBLEMS", "HUNG", "CRASHED",
	};

	if (!v)
		return NULL;
	if (!strcmp(v, "BOOTED"))
		return "PASS";
	for (size_t i = 0; i < ELEMENTSOF(kernel_failures); i++)
		if (!strcmp(v, kernel_failures[i]))
			return "FAIL";
	if (!strcmp(v, "INFRA") && (jsonx_len(rec, "milestones") ||
				    jsonx_str(jsonx_get(rec, "kernel"), "banner")))
		return "ERROR";
	return "MISS";
}

/* The options a config stage did not keep, for a dashboard. */
static json_object *dropped_options(json_object *cfg)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < jsonx_len(cfg, "options"); i++) {
		json_object *op = jsonx_at(cfg, "options", i);
		const char *st = jsonx_str(op, "status");
		json_object *d;

		if (!st || !strcmp(st, "kept"))
			continue;
		d = json_object_new_object();
		COPY_SAME(d, op, "option", "group");
		add_str(d, "status", st);
		COPY_SAME(d, op, "requested", "final", "reason");
		json_object_array_add(a, d);
	}
	return a;
}

static json_object *config_name(json_object *cand)
{
	_cleanup_strbuf_ struct strbuf n = STRBUF_INIT;

	strbuf_addstr(&n, jsonx_str(cand, "base") ? jsonx_str(cand, "base")
						  : "base");
	for (size_t i = 0; i < jsonx_len(cand, "groups"); i++) {
		const char *g = json_object_get_string(
			jsonx_at(cand, "groups", i));
		strbuf_addf(&n, "+%s", g ? g : "");
	}
	return json_object_new_string(n.buf);
}

static json_object *build_misc(json_object *rec)
{
	json_object *misc = json_object_new_object();
	json_object *cand = jsonx_get(rec, "candidate");
	json_object *cfg = jsonx_get(rec, "config");
	json_object *b = jsonx_get(rec, "build");

	copy_member(misc, "candidate", cand, "id");
	COPY_SAME(misc, cand, "groups", "base_groups");
	copy_member(misc, "config_hash", b, "config_hash");
	copy_member(misc, "build_result", b, "result");
	copy_member(misc, "build_reason", b, "reason");
	copy_member(misc, "first_error", b, "first_error");
	copy_member(misc, "release", cfg, "release");
	copy_member(misc, "config_result", cfg, "result");
	copy_member(misc, "config_error", cfg, "error");
	if (cfg)
		json_object_object_add(misc, "dropped", dropped_options(cfg));
	copy_member(misc, "kernel", jsonx_get(rec, "kernel"), "path");
	return misc;
}

static void add_build(struct ctx *x, json_object *rec, const char *id)
{
	json_object *b = json_object_new_object();
	json_object *cand = jsonx_get(rec, "candidate");
	json_object *bs = jsonx_get(rec, "build");
	const char *arch = jsonx_str(cand, "arch") ? jsonx_str(cand, "arch")
						    : jsonx_str(rec, "arch");
	const char *st = build_status(rec);
	double secs;

	add_str(b, "id", id);
	add_str(b, "origin", x->origin);
	add_str(b, "checkout_id", x->checkout_id.buf);
	add_str(b, "architecture", arch);
	if (cand)
		json_object_object_add(b, "config_name", config_name(cand));
	if (jsonx_num(bs, "seconds", &secs))
		json_object_object_add(b, "duration",
				       json_object_new_double(secs));
	add_str(b, "status", st);
	add_excerpt(b, jsonx_str(bs, "first_error")
			       ? jsonx_str(bs, "first_error")
			       : jsonx_str(jsonx_get(rec, "config"), "error"));
	add_url(x, b, jsonx_str(bs, "log"));
	json_object_object_add(b, "misc", build_misc(rec));
	json_object_array_add(x->builds, b);
}

static json_object *new_test(const struct ctx *x, const char *build_id,
			     const char *path, const char *status)
{
	json_object *t = json_object_new_object();
	_cleanup_strbuf_ struct strbuf id = STRBUF_INIT;

	strbuf_addf(&id, "%s:%s", build_id, path);
	add_str(t, "id", id.buf);
	add_str(t, "origin", x->origin);
	add_str(t, "build_id", build_id);
	add_str(t, "path", path);
	add_str(t, "status", status);
	return t;
}

static void add_diagnostics(json_object *t, json_object *check)
{
	_cleanup_strbuf_ struct strbuf ex = STRBUF_INIT;

	for (size_t i = 0; i < jsonx_len(check, "diagnostics"); i++) {
		const char *d = json_object_get_string(
			jsonx_at(check, "diagnostics", i));
		strbuf_addf(&ex, "%s\n", d ? d : "");
	}
	add_excerpt(t, ex.buf);
}

/* KTAP checks (and their subtests) below path, one test each. */
static void add_checks(struct ctx *x, const char *build_id, const char *path,
		       json_object *owner, const char *member)
{
	for (size_t i = 0; i < jsonx_len(owner, member); i++) {
		json_object *c = jsonx_at(owner, member, i);
		_cleanup_strbuf_ struct strbuf p = STRBUF_INIT;
		const char *st = jsonx_str(c, "status");
		json_object *t, *misc;

		strbuf_addf(&p, "%s.", path);
		add_path_elem(&p, jsonx_str(c, "name"));
		t = new_test(x, build_id, p.buf, kcidb_test_status(st));
		misc = json_object_new_object();
		add_str(misc, "ktap_status", st);
		COPY_SAME(misc, c, "reason", "directive", "number");
		json_object_object_add(t, "misc", misc);
		add_diagnostics(t, c);
		json_object_array_add(x->tests, t);
		add_checks(x, build_id, p.buf, c, "subtests");
	}
}

static json_object *problems_misc(json_object *rec)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < jsonx_len(rec, "problems"); i++) {
		json_object *p = jsonx_at(rec, "problems", i);
		json_object *o = json_object_new_object();

		COPY_SAME(o, p,
			  "kind", "title", "signature", "line", "allowed");
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *environment(json_object *run, json_object *rec)
{
	json_object *env = json_object_new_object();
	json_object *misc = json_object_new_object();
	json_object *host = jsonx_get(run, "host");
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;
	const char *accel = jsonx_str(rec, "accel");

	strbuf_addf(&c, "QEMU %s guest (%s) through libvirt",
		    accel ? accel : "?", jsonx_str(rec, "arch")
						 ? jsonx_str(rec, "arch")
						 : "?");
	add_str(env, "comment", c.buf);
	COPY_SAME(misc, rec, "accel", "accel_reason");
	COPY_SAME(misc, host, "libvirt_uri", "hostname");
	COPY_SAME(misc, rec, "image", "cmdline");
	json_object_object_add(env, "misc", misc);
	return env;
}

static void add_boot_tests(struct ctx *x, json_object *run, json_object *rec,
			   const char *build_id)
{
	const char *st = boot_status(rec);
	json_object *t, *misc, *first;
	double secs;

	if (!st)
		return;
	t = new_test(x, build_id, "boot", st);
	copy_member(t, "start_time", rec, "started");
	if (jsonx_num(rec, "elapsed_s", &secs))
		json_object_object_add(t, "duration",
				       json_object_new_double(secs));
	json_object_object_add(t, "environment", environment(run, rec));
	first = jsonx_at(rec, "problems", 0);
	add_excerpt(t, first ? jsonx_str(first, "report")
			     : jsonx_str(rec, "reason"));
	add_url(x, t, jsonx_str(jsonx_get(rec, "files"), "console"));
	misc = json_object_new_object();
	COPY_SAME(misc, rec,
		  "verdict", "reason", "last_milestone", "time_to_init_s");
	copy_member(misc, "banner", jsonx_get(rec, "kernel"), "banner");
	json_object_object_add(misc, "problems", problems_misc(rec));
	json_object_object_add(t, "misc", misc);
	json_object_array_add(x->tests, t);

	for (size_t i = 0; i < jsonx_len(rec, "scenarios"); i++) {
		json_object *s = jsonx_at(rec, "scenarios", i);
		_cleanup_strbuf_ struct strbuf p = STRBUF_INIT;
		json_object *sm = json_object_new_object();
		json_object *ts;

		strbuf_addstr(&p, "bootproof.");
		add_path_elem(&p, jsonx_str(s, "name"));
		ts = new_test(x, build_id, p.buf,
			      kcidb_test_status(jsonx_str(s, "result")));
		COPY_SAME(sm, s, "result", "reason");
		json_object_object_add(ts, "misc", sm);
		add_excerpt(ts, jsonx_str(s, "reason"));
		json_object_array_add(x->tests, ts);
		add_checks(x, build_id, p.buf, s, "checks");
	}
}

static json_object *checkout(const struct ctx *x, json_object *run)
{
	json_object *c = json_object_new_object();
	json_object *misc = json_object_new_object();
	json_object *plan = jsonx_get(run, "plan");
	const char *ksrc = jsonx_str(plan, "ksrc");
	const char *slash = ksrc ? strrchr(ksrc, '/') : NULL;

	add_str(c, "id", x->checkout_id.buf);
	add_str(c, "origin", x->origin);
	if (ksrc)
		add_str(c, "tree_name", slash && slash[1] ? slash + 1 : ksrc);
	copy_member(c, "start_time", run, "started");
	json_object_object_add(c, "valid", json_object_new_boolean(true));
	COPY_SAME(misc, run, "run_id", "command", "complete", "exit_code");
	copy_member(misc, "plan", plan, "name");
	copy_member(misc, "ksrc", plan, "ksrc");
	copy_member(misc, "groups", run, "groups");
	json_object_object_add(c, "misc", misc);
	return c;
}

int kcidb_from_run(json_object *run, const struct kcidb_opts *o,
		   json_object **ret, struct strbuf *err)
{
	struct ctx x = { .o = o, .checkout_id = STRBUF_INIT };
	const char *cid = o->checkout_id ? o->checkout_id
					 : jsonx_str(run, "run_id");
	json_object *doc, *ver, *checkouts;

	x.origin = o->origin ? o->origin : "bootproof";
	if (!origin_ok(x.origin))
		return strbuf_fail(err, -EINVAL,
				   "--origin '%s': expected [a-z0-9_]+",
				   x.origin);
	if (!cid || !*cid)
		return strbuf_fail(err, -EINVAL,
				   "--checkout-id: empty (and the run has no run_id)");
	strbuf_addf(&x.checkout_id, "%s:%s", x.origin, cid);

	x.builds = json_object_new_array();
	x.tests = json_object_new_array();
	for (size_t i = 0; i < jsonx_len(run, "boots"); i++) {
		json_object *rec = jsonx_at(run, "boots", i);
		_cleanup_strbuf_ struct strbuf key = STRBUF_INIT,
					       bid = STRBUF_INIT;

		runread_boot_key(run, i, &key);
		strbuf_addf(&bid, "%s:%s", x.checkout_id.buf, key.buf);
		add_build(&x, rec, bid.buf);
		add_boot_tests(&x, run, rec, bid.buf);
	}

	doc = json_object_new_object();
	ver = json_object_new_object();
	json_object_object_add(ver, "major", json_object_new_int(5));
	json_object_object_add(ver, "minor", json_object_new_int(3));
	json_object_object_add(doc, "version", ver);
	checkouts = json_object_new_array();
	json_object_array_add(checkouts, checkout(&x, run));
	json_object_object_add(doc, "checkouts", checkouts);
	json_object_object_add(doc, "builds", x.builds);
	json_object_object_add(doc, "tests", x.tests);
	strbuf_release(&x.checkout_id);
	*ret = doc;
	return 0;
}
