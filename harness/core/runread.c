// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/runread.h"
#include "util/jsonx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* json-c's default of 32 is less than a deep KTAP tree needs. */
#define RUNREAD_MAX_DEPTH 128

enum {
	T_NULL = 1 << 0,
	T_STR = 1 << 1,
	T_BOOL = 1 << 2,
	T_INT = 1 << 3,
	T_NUM = 1 << 4, /* int or double */
	T_OBJ = 1 << 5,
	T_ARR = 1 << 6,
};

static const char *const boot_verdicts[] = {
	"BOOTED", "PANIC", "PROBLEMS", "HUNG", "CRASHED",
	"INFRA", "INCOMPLETE", "RUNNING", NULL,
};
static const char *const scenario_results[] = {
	"pass", "fail", "skip", "error", "pending", NULL,
};
static const char *const group_verdicts[] = {
	"PASS", "PARTIAL", "FAIL", "SKIP", NULL,
};
static const char *const group_stages[] = {
	"config", "build", "boot", "scenario", NULL,
};
static const char *const config_results[] = {
	"pass", "partial", "fail", NULL,
};
static const char *const build_results[] = {
	"pass", "fail", "reused", "skip", NULL,
};
static const char *const option_status[] = {
	"kept", "changed", "absent", "demoted", NULL,
};

struct vc {
	const char *name;
	struct strbuf *err;
	struct strbuf path; /* where we are: "boots[2].config" */
};

static int fail(struct vc *v, const char *member, const char *fmt, ...)
	_printf_(3, 4);

static int fail(struct vc *v, const char *member, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf where = STRBUF_INIT;
	va_list ap;
	int r;

	/* "run.json: boots[2].config: ..." */
	strbuf_addstr(&where, v->name);
	if (v->path.len || member)
		strbuf_addstr(&where, ": ");
	strbuf_addstr(&where, v->path.buf);
	if (v->path.len && member)
		strbuf_addch(&where, '.');
	if (member)
		strbuf_addstr(&where, member);
	va_start(ap, fmt);
	r = strbuf_vfail_at(v->err, -EINVAL, where.buf, 0, fmt, ap);
	va_end(ap);
	return r;
}

static const char *type_word(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a number";
	case json_type_int: return "a number";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "something else";
}

static bool type_ok(json_object *o, unsigned types)
{
	switch (json_object_get_type(o)) {
	case json_type_null: return types & T_NULL;
	case json_type_boolean: return types & T_BOOL;
	case json_type_int: return types & (T_INT | T_NUM);
	case json_type_double: return types & T_NUM;
	case json_type_object: return types & T_OBJ;
	case json_type_array: return types & T_ARR;
	case json_type_string: return types & T_STR;
	}
	return false;
}

static void type_names(unsigned types, struct strbuf *sb)
{
	static const struct {
		unsigned t;
		const char *w;
	} names[] = {
		{ T_STR, "a string" }, { T_BOOL, "a boolean" },
		{ T_INT, "an integer" }, { T_NUM, "a number" },
		{ T_OBJ, "an object" }, { T_ARR, "an array" },
		{ T_NULL, "null" },
	};
	size_t n = 0, total = 0;

	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (types & names[i].t)
			total++;
	for (size_t i = 0; i < ELEMENTSOF(names); i++) {
		if (!(types & names[i].t))
			continue;
		if (n)
			strbuf_addstr(sb, n + 1 == total ? " or " : ", ");
		strbuf_addstr(sb, names[i].w);
		n++;
	}
}

/*
 * Member key of o, of one of types.  *ret gets it (NULL when missing or
 * JSON null).  A missing member is an error only when required.
 */
static int member(struct vc *v, json_object *o, const char *key,
		  unsigned types, bool required, json_object **ret)
{
	json_object *m = NULL;

	*ret = NULL;
	if (!json_object_object_get_ex(o, key, &m)) {
		if (required)
			return fail(v, key, "missing");
		return 0;
	}
	if (!type_ok(m, types)) {
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;

		type_names(types, &want);
		return fail(v, key, "expected %s, got %s", want.buf,
			    type_word(m));
	}
	*ret = m;
	return 0;
}

static int member_enum(struct vc *v, json_object *o, const char *key,
		       const char *const *set, bool nullable, bool required)
{
	json_object *m;
	const char *s;
	int r;

	r = member(v, o, key, T_STR | (nullable ? T_NULL : 0), required, &m);
	if (r < 0 || !m)
		return r;
	s = json_object_get_string(m);
	for (size_t i = 0; set[i]; i++)
		if (!strcmp(s, set[i]))
			return 0;
	{
		_cleanup_strbuf_ struct strbuf list = STRBUF_INIT;

		for (size_t i = 0; set[i]; i++)
			strbuf_addf(&list, "%s%s", i ? ", " : "", set[i]);
		return fail(v, key, "'%s' is not one of %s%s", s, list.buf,
			    nullable ? " or null" : "");
	}
}

/* Optional members, each of the same types. */
static int members(struct vc *v, json_object *o, unsigned types,
		   const char *const *keys)
{
	json_object *m;

	for (size_t i = 0; keys[i]; i++) {
		int r = member(v, o, keys[i], types, false, &m);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A file of the run directory, linked from the report: relative, inside. */
static bool path_inside(const char *p)
{
	const char *c = p;

	if (!*p || *p == '/' || strchr(p, ':') || strchr(p, '\\'))
		return false;
	while (*c) {
		size_t n = strcspn(c, "/");
		if (n == 2 && c[0] == '.' && c[1] == '.')
			return false;
		c += n;
		if (*c == '/')
			c++;
	}
	return true;
}

static int member_path(struct vc *v, json_object *o, const char *key)
{
	json_object *m;
	int r = member(v, o, key, T_STR | T_NULL, false, &m);

	if (r < 0 || !m)
		return r;
	if (!path_inside(json_object_get_string(m)))
		return fail(v, key,
			    "'%s' is not a relative path inside the run "
			    "directory", json_object_get_string(m));
	return 0;
}

/* Descend: path += ".key" or "[i]"; returns the old length to restore. */
static size_t push_key(struct vc *v, const char *key)
{
	size_t old = v->path.len;

	strbuf_addf(&v->path, "%s%s", old ? "." : "", key);
	return old;
}

static size_t push_idx(struct vc *v, const char *key, size_t i)
{
	size_t old = v->path.len;

	strbuf_addf(&v->path, "%s%s[%zu]", old ? "." : "", key, i);
	return old;
}

static void pop(struct vc *v, size_t old)
{
	strbuf_setlen(&v->path, old);
}

typedef int (*elem_fn)(struct vc *v, json_object *e);

/* Optional (or required) array member whose elements are objects checked by
 * fn, or strings when fn is NULL. */
static int array_of(struct vc *v, json_object *o, const char *key,
		    bool required, elem_fn fn)
{
	json_object *a;
	int r = member(v, o, key, T_ARR | (required ? 0 : T_NULL), required,
		       &a);

	if (r < 0 || !a)
		return r;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);
		size_t old = push_idx(v, key, i);

		if (fn && !json_object_is_type(e, json_type_object))
			r = fail(v, NULL, "expected an object, got %s",
				 type_word(e));
		else if (!fn && !json_object_is_type(e, json_type_string))
			r = fail(v, NULL, "expected a string, got %s",
				 type_word(e));
		else if (fn)
			r = fn(v, e);
		pop(v, old);
		if (r < 0)
			return r;
	}
	return 0;
}

/* An object member checked by fn; NULL allowed unless required. */
static int object_of(struct vc *v, json_object *o, const char *key,
		     bool required, elem_fn fn)
{
	json_object *m;
	size_t old;
	int r = member(v, o, key, T_OBJ | (required ? 0 : T_NULL), required,
		       &m);

	if (r < 0 || !m)
		return r;
	old = push_key(v, key);
	r = fn(v, m);
	pop(v, old);
	return r;
}

static int check_problem(struct vc *v, json_object *p)
{
	static const char *const strs[] = { "reason", "signature", "report",
					    "end", "header", NULL };
	static const char *const nums[] = { "line", "timestamp", "first_line",
					    "last_line", NULL };
	json_object *m;
	int r;

	if ((r = member(v, p, "kind", T_STR, true, &m)) < 0 ||
	    (r = member(v, p, "title", T_STR, true, &m)) < 0 ||
	    (r = members(v, p, T_STR | T_NULL, strs)) < 0 ||
	    (r = members(v, p, T_NUM | T_NULL, nums)) < 0 ||
	    (r = member(v, p, "allowed", T_BOOL, false, &m)) < 0 ||
	    (r = member(v, p, "corrupted", T_BOOL, false, &m)) < 0)
		return r;
	return array_of(v, p, "frames", false, NULL);
}

static int check_ktap_test(struct vc *v, json_object *t)
{
	static const char *const strs[] = { "name", "directive", "reason",
					    NULL };
	int r;

	if ((r = member_enum(v, t, "status", (const char *const[]){
				     "pass", "fail", "skip", "xfail", "error",
				     "pending", NULL }, true, false)) < 0 ||
	    (r = members(v, t, T_STR | T_NULL, strs)) < 0 ||
	    (r = array_of(v, t, "diagnostics", false, NULL)) < 0)
		return r;
	return array_of(v, t, "subtests", false, check_ktap_test);
}

static int check_scenario(struct vc *v, json_object *s)
{
	json_object *m;
	int r;

	if ((r = member(v, s, "name", T_STR, true, &m)) < 0 ||
	    (r = member_enum(v, s, "result", scenario_results, false,
			     true)) < 0 ||
	    (r = member(v, s, "reason", T_STR | T_NULL, false, &m)) < 0 ||
	    (r = member(v, s, "host", T_OBJ | T_NULL, false, &m)) < 0)
		return r;
	return array_of(v, s, "checks", false, check_ktap_test);
}

static int check_files(struct vc *v, json_object *f)
{
	json_object_object_foreach(f, key, val)
	{
		int r;

		if (!type_ok(val, T_STR | T_NULL))
			return fail(v, key, "expected a string or null, got %s",
				    type_word(val));
		if ((r = member_path(v, f, key)) < 0)
			return r;
	}
	return 0;
}

static int check_kernel(struct vc *v, json_object *k)
{
	static const char *const strs[] = { "path", "initrd", "vmlinux",
					    "config", "banner", NULL };

	return members(v, k, T_STR | T_NULL, strs);
}

static int check_end(struct vc *v, json_object *e)
{
	static const char *const strs[] = { "how", "reason", NULL };

	return members(v, e, T_STR | T_NULL, strs);
}

static int check_candidate(struct vc *v, json_object *c)
{
	static const char *const strs[] = { "arch", "base", "kind", NULL };
	json_object *m;
	int r;

	if ((r = member(v, c, "id", T_STR, true, &m)) < 0 ||
	    (r = members(v, c, T_STR | T_NULL, strs)) < 0 ||
	    (r = array_of(v, c, "base_groups", false, NULL)) < 0)
		return r;
	return array_of(v, c, "groups", false, NULL);
}

static int check_option(struct vc *v, json_object *o)
{
	static const char *const strs[] = { "group", "source", "requested",
					    "final", "reason_kind", "reason",
					    "detail", NULL };
	json_object *m;
	int r;

	if ((r = member(v, o, "option", T_STR, true, &m)) < 0 ||
	    (r = members(v, o, T_STR | T_NULL, strs)) < 0)
		return r;
	return member_enum(v, o, "status", option_status, false, true);
}

static int check_config(struct vc *v, json_object *c)
{
	static const char *const strs[] = { "error", "release", NULL };
	json_object *m;
	int r;

	if ((r = member_enum(v, c, "result", config_results, false, true)) < 0 ||
	    (r = members(v, c, T_STR | T_NULL, strs)) < 0 ||
	    (r = member_path(v, c, "final_config")) < 0 ||
	    (r = member(v, c, "dropped", T_INT | T_NULL, false, &m)) < 0 ||
	    (r = array_of(v, c, "options", false, check_option)) < 0)
		return r;
	return array_of(v, c, "stale_base", false, check_option);
}

static int check_build(struct vc *v, json_object *b)
{
	static const char *const strs[] = { "reason", "first_error",
					    "config_hash", NULL };
	json_object *m;
	int r;

	if ((r = member_enum(v, b, "result", build_results, false, true)) < 0 ||
	    (r = members(v, b, T_STR | T_NULL, strs)) < 0 ||
	    (r = member_path(v, b, "log")) < 0 ||
	    (r = member(v, b, "seconds", T_NUM | T_NULL, false, &m)) < 0)
		return r;
	return member(v, b, "artifacts", T_OBJ | T_NULL, false, &m);
}

static int check_boot(struct vc *v, json_object *b)
{
	static const char *const strs[] = {
		"name", "arch", "accel", "accel_reason", "image", "cmdline",
		"started", "reason", "last_milestone", NULL,
	};
	static const char *const nums[] = {
		"timeout_s", "elapsed_s", "time_to_init_s",
		"kernel_time_to_init_s", "heavy_debug_options", NULL,
	};
	json_object *m;
	int r;

	if ((r = members(v, b, T_STR | T_NULL, strs)) < 0 ||
	    (r = members(v, b, T_NUM | T_NULL, nums)) < 0 ||
	    (r = member_enum(v, b, "verdict", boot_verdicts, true, false)) < 0 ||
	    (r = member(v, b, "complete", T_BOOL, false, &m)) < 0 ||
	    (r = object_of(v, b, "kernel", false, check_kernel)) < 0 ||
	    (r = object_of(v, b, "end", false, check_end)) < 0 ||
	    (r = array_of(v, b, "problems", false, check_problem)) < 0 ||
	    (r = array_of(v, b, "scenarios", false, check_scenario)) < 0 ||
	    (r = member(v, b, "ktap", T_OBJ | T_NULL, false, &m)) < 0 ||
	    (r = object_of(v, b, "files", false, check_files)) < 0 ||
	    (r = object_of(v, b, "candidate", false, check_candidate)) < 0 ||
	    (r = object_of(v, b, "config", false, check_config)) < 0)
		return r;
	return object_of(v, b, "build", false, check_build);
}

static int check_host(struct vc *v, json_object *h)
{
	static const char *const strs[] = { "hostname", "accel",
					    "accel_reason", "libvirt_uri",
					    NULL };

	return members(v, h, T_STR | T_NULL, strs);
}

static int check_plan(struct vc *v, json_object *p)
{
	static const char *const strs[] = { "name", "file", "base", "ksrc",
					    NULL };
	static const char *const arrays[] = { "arches", "base_groups",
					      "groups", "candidates", NULL };
	int r = members(v, p, T_STR | T_NULL, strs);

	for (size_t i = 0; r >= 0 && arrays[i]; i++)
		r = array_of(v, p, arrays[i], false, NULL);
	return r;
}

static int check_dropped(struct vc *v, json_object *d)
{
	json_object *m;
	int r = member(v, d, "option", T_STR, true, &m);

	if (r < 0)
		return r;
	return member(v, d, "reason", T_STR | T_NULL, false, &m);
}

static int check_group_scenario(struct vc *v, json_object *s)
{
	json_object *m;
	int r;

	if ((r = member(v, s, "name", T_STR, true, &m)) < 0 ||
	    (r = member_enum(v, s, "result", scenario_results, false,
			     true)) < 0)
		return r;
	return member(v, s, "reason", T_STR | T_NULL, false, &m);
}

static int check_group(struct vc *v, json_object *g)
{
	json_object *m;
	int r;

	if ((r = member(v, g, "group", T_STR, true, &m)) < 0 ||
	    (r = member(v, g, "arch", T_STR, true, &m)) < 0 ||
	    (r = member_enum(v, g, "verdict", group_verdicts, false,
			     true)) < 0 ||
	    (r = member_enum(v, g, "stage", group_stages, true, false)) < 0 ||
	    (r = member(v, g, "reason", T_STR | T_NULL, false, &m)) < 0 ||
	    (r = member(v, g, "candidate", T_STR | T_NULL, false, &m)) < 0 ||
	    (r = array_of(v, g, "dropped", false, check_dropped)) < 0)
		return r;
	return array_of(v, g, "scenarios", false, check_group_scenario);
}

static int check_doc(struct vc *v, json_object *doc)
{
	static const char *const strs[] = { "run_id", "command", "started",
					    NULL };
	json_object *m;
	const char *schema;
	int r;

	if (!doc || !json_object_is_type(doc, json_type_object))
		return fail(v, NULL, "not a run.json: expected a JSON object, "
			    "got %s", doc ? type_word(doc) : "null");
	r = member(v, doc, "schema", T_STR, false, &m);
	if (r < 0)
		return r;
	if (!m)
		return fail(v, NULL, "not a run.json: no \"schema\" member");
	schema = json_object_get_string(m);
	if (strcmp(schema, RUNREAD_SCHEMA)) {
		fail(v, "schema", "'%s' is not supported (this bootproof "
		     "reads %s)", schema, RUNREAD_SCHEMA);
		return strncmp(schema, "bootproof-run/", 14) ? -EINVAL
							     : -EPROTONOSUPPORT;
	}
	for (size_t i = 0; strs[i]; i++)
		if ((r = member(v, doc, strs[i], T_STR, true, &m)) < 0)
			return r;
	if ((r = member(v, doc, "finished", T_STR | T_NULL, false, &m)) < 0 ||
	    (r = member(v, doc, "complete", T_BOOL, true, &m)) < 0 ||
	    (r = member(v, doc, "exit_code", T_INT | T_NULL, false, &m)) < 0 ||
	    (r = array_of(v, doc, "argv", false, NULL)) < 0 ||
	    (r = object_of(v, doc, "host", false, check_host)) < 0 ||
	    (r = array_of(v, doc, "boots", true, check_boot)) < 0 ||
	    (r = object_of(v, doc, "plan", false, check_plan)) < 0)
		return r;
	return array_of(v, doc, "groups", false, check_group);
}

int runread_validate(const char *name, json_object *doc, struct strbuf *err)
{
	struct vc v = { .name = name ? name : "run.json", .err = err,
			.path = STRBUF_INIT };
	int r = check_doc(&v, doc);

	strbuf_release(&v.path);
	return r;
}

/* 1-based line and column of byte off. */
static void line_col(const char *buf, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int runread_parse(const char *name, const char *buf, size_t len,
		  json_object **ret, struct strbuf *err)
{
	struct json_tokener *tok;
	json_object *doc;
	enum json_tokener_error je;
	size_t end, line, col;
	int r;

	if (!name)
		name = "run.json";
	if (len > INT32_MAX) {
		if (err)
			strbuf_addf(err, "%s: too large for a run.json", name);
		return -EINVAL;
	}
	end = 0;
	while (end < len && strchr(" \t\r\n", buf[end]) && buf[end])
		end++;
	if (end == len) {
		if (err)
			strbuf_addf(err, "%s: empty, not a run.json", name);
		return -EINVAL;
	}
	tok = json_tokener_new_ex(RUNREAD_MAX_DEPTH);
	if (!tok)
		return -ENOMEM;
	doc = json_tokener_parse_ex(tok, buf, (int)len);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!doc || je != json_tokener_success) {
		json_object_put(doc);
		line_col(buf, end > len ? len : end, &line, &col);
		if (err) {
			strbuf_reset(err);
			strbuf_addf(err, "%s:%zu:%zu: not valid JSON: %s", name,
				    line, col,
				    je == json_tokener_continue
					    ? "unexpected end of file"
					    : json_tokener_error_desc(je));
		}
		return -EINVAL;
	}
	while (end < len && buf[end] && strchr(" \t\r\n", buf[end]))
		end++;
	if (end < len) {
		json_object_put(doc);
		line_col(buf, end, &line, &col);
		if (err) {
			strbuf_reset(err);
			strbuf_addf(err, "%s:%zu:%zu: not valid JSON: data after "
				    "the end of the document", name, line, col);
		}
		return -EINVAL;
	}
	r = runread_validate(name, doc, err);
	if (r < 0) {
		json_object_put(doc);
		return r;
	}
	*ret = doc;
	return 0;
}

bool runread_is_matrix(json_object *doc)
{
	return jsonx_get(doc, "groups") || jsonx_get(doc, "plan");
}

static void base_key(json_object *b, struct strbuf *out)
{
	const char *id = jsonx_str(jsonx_get(b, "candidate"), "id");
	const char *arch = jsonx_str(b, "arch");

	strbuf_addstr(out, id ? id : arch ? arch : "boot");
}

void runread_boot_key(json_object *doc, size_t i, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf other = STRBUF_INIT;
	unsigned same = 1;

	strbuf_reset(out);
	base_key(jsonx_at(doc, "boots", i), out);
	for (size_t j = 0; j < i; j++) {
		strbuf_reset(&other);
		base_key(jsonx_at(doc, "boots", j), &other);
		if (!strcmp(other.buf, out->buf))
			same++;
	}
	if (same > 1)
		strbuf_addf(out, "#%u", same);
}
