// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/checks.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/xalloc.h"

static const char *const check_status_names[] = {
	[CHECK_OK] = "ok", [CHECK_WARN] = "warn", [CHECK_FAIL] = "FAIL",
};

const char *check_status_name(enum check_status s)
{
	return ENUM_NAME(check_status_names, s, "?");
}

static const char *json_status_name(enum check_status s)
{
	return s == CHECK_FAIL ? "fail" : check_status_name(s);
}

/* One line: control characters become spaces, runs of them collapse. */
static char *one_line(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	bool space = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			space = true;
			continue;
		}
		if (space && sb.len)
			strbuf_addch(&sb, ' ');
		space = false;
		strbuf_addch(&sb, (char)c);
	}
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

struct check *check_list_add(struct check_list *l, const char *name,
			     enum check_status status, bool required,
			     const char *fix, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct check *c;
	va_list ap;

	if (l->n == l->alloc) {
		size_t n = l->alloc ? l->alloc * 2 : 8;

		l->v = xreallocarray(l->v, n, sizeof(*l->v));
		l->alloc = n;
	}
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);

	c = &l->v[l->n++];
	*c = (struct check){
		.name = xstrdup(name),
		.status = status,
		.required = required,
		.detail = one_line(sb.buf, sb.len),
		.fix = fix ? one_line(fix, strlen(fix)) : NULL,
	};
	return c;
}

void check_list_splice(struct check_list *dst, struct check_list *src)
{
	if (!src->n)
		return;
	if (dst->alloc - dst->n < src->n) {
		size_t n = dst->n + src->n;

		dst->v = xreallocarray(dst->v, n, sizeof(*dst->v));
		dst->alloc = n;
	}
	memcpy(dst->v + dst->n, src->v, src->n * sizeof(*src->v));
	dst->n += src->n;
	free(src->v);
	*src = (struct check_list)CHECK_LIST_INIT;
}

const struct check *check_list_find(const struct check_list *l,
				    const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

bool check_list_bootable(const struct check_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].required && l->v[i].status == CHECK_FAIL)
			return false;
	return true;
}

void check_list_release(struct check_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].detail);
		free(l->v[i].fix);
	}
	free(l->v);
	*l = (struct check_list)CHECK_LIST_INIT;
}

void check_list_render_text(const struct check_list *l, const char *accel,
			    struct strbuf *out)
{
	check_list_render_lines(l, 0, out);
	check_list_render_summary(l, accel, out);
}

void check_list_render_lines(const struct check_list *l, size_t from,
			     struct strbuf *out)
{
	for (size_t i = from; i < l->n; i++) {
		const struct check *c = &l->v[i];

		strbuf_addf(out, "%-4s  %-15s %s", check_status_name(c->status),
			    c->name, c->detail);
		if (c->status != CHECK_OK && c->fix)
			strbuf_addf(out, " | fix: %s", c->fix);
		strbuf_addch(out, '\n');
	}
}

void check_list_render_summary(const struct check_list *l, const char *accel,
			       struct strbuf *out)
{
	bool bootable = check_list_bootable(l);

	if (bootable && accel)
		strbuf_addf(out, "bootable: yes (accelerator: %s)\n", accel);
	else
		strbuf_addstr(out, bootable ? "bootable: yes\n" : "bootable: no\n");
}

static void json_put_str(json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

int check_list_render_json(const struct check_list *l, const char *accel,
			   struct strbuf *out)
{
	json_object *root = json_object_new_object();
	json_object *arr = json_object_new_array();
	const char *s;
	bool bootable = check_list_bootable(l);

	if (!root || !arr)
		xalloc_die();
	json_object_object_add(root, "bootable",
			       json_object_new_boolean(bootable));
	json_put_str(root, "accelerator", bootable ? accel : NULL);
	for (size_t i = 0; i < l->n; i++) {
		const struct check *c = &l->v[i];
		json_object *o = json_object_new_object();

		if (!o)
			xalloc_die();
		json_put_str(o, "name", c->name);
		json_put_str(o, "status", json_status_name(c->status));
		json_object_object_add(o, "required",
				       json_object_new_boolean(c->required));
		json_put_str(o, "detail", c->detail);
		json_put_str(o, "fix", c->fix);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "checks", arr);
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		xalloc_die();
	strbuf_addstr(out, s);
	strbuf_addch(out, '\n');
	json_object_put(root);
	return 0;
}
