// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/yamljson.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <yaml.h>

/* Nesting kept: deeper input is refused rather than recursed into. */
#define MAX_DEPTH 64

struct yp {
	yaml_parser_t p;
	struct strbuf *err;
	int r;
};

static int fail(struct yp *y, const char *what)
{
	if (y->err && !y->err->len) {
		if (y->p.error != YAML_NO_ERROR)
			strbuf_addf(y->err, "line %zu column %zu: %s",
				    y->p.problem_mark.line + 1,
				    y->p.problem_mark.column + 1,
				    y->p.problem ? y->p.problem : "bad YAML");
		else
			strbuf_addf(y->err, "%s", what);
	}
	y->r = -EINVAL;
	return -EINVAL;
}

static int next(struct yp *y, yaml_event_t *e)
{
	if (!yaml_parser_parse(&y->p, e))
		return fail(y, "bad YAML");
	return 0;
}

static json_object *scalar(const yaml_event_t *e)
{
	const char *v = (const char *)e->data.scalar.value;
	size_t n = e->data.scalar.length;

	if (e->data.scalar.plain_implicit &&
	    e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (n == 0 || !strcmp(v, "~") || !strcmp(v, "null") ||
	     !strcmp(v, "Null") || !strcmp(v, "NULL")))
		return NULL;
	return json_object_new_string_len(v, (int)n);
}

static int node(struct yp *y, yaml_event_t *e, int depth, json_object **ret);

/* The items of a sequence or the pairs of a mapping, up to its end. */
static int items(struct yp *y, bool map, int depth, json_object *into)
{
	for (;;) {
		yaml_event_t e;
		json_object *k = NULL, *v = NULL;
		int r;

		if (next(y, &e) < 0)
			return -EINVAL;
		if (e.type == (map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT)) {
			yaml_event_delete(&e);
			return 0;
		}
		if (map) {
			if (e.type != YAML_SCALAR_EVENT) {
				yaml_event_delete(&e);
				return fail(y, "a mapping key that is not a scalar");
			}
			k = json_object_new_string_len(
				(const char *)e.data.scalar.value,
				(int)e.data.scalar.length);
			yaml_event_delete(&e);
			if (next(y, &e) < 0) {
				json_object_put(k);
				return -EINVAL;
			}
		}
		r = node(y, &e, depth + 1, &v);
		if (r < 0) {
			json_object_put(k);
			return r;
		}
		if (map) {
			json_object_object_add(into, json_object_get_string(k), v);
			json_object_put(k);
		} else {
			json_object_array_add(into, v);
		}
	}
}

/* e (consumed) starts a node: its value into *ret. */
static int node(struct yp *y, yaml_event_t *e, int depth, json_object **ret)
{
	yaml_event_type_t t = e->type;
	int r;

	*ret = NULL;
	if (depth > MAX_DEPTH) {
		yaml_event_delete(e);
		return fail(y, "nested too deep");
	}
	switch (t) {
	case YAML_SCALAR_EVENT:
		*ret = scalar(e);
		yaml_event_delete(e);
		return 0;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		yaml_event_delete(e);
		*ret = t == YAML_MAPPING_START_EVENT ? json_object_new_object()
						     : json_object_new_array();
		r = items(y, t == YAML_MAPPING_START_EVENT, depth, *ret);
		if (r < 0) {
			json_object_put(*ret);
			*ret = NULL;
		}
		return r;
	case YAML_ALIAS_EVENT:
		yaml_event_delete(e);
		return fail(y, "YAML aliases are not read");
	default:
		yaml_event_delete(e);
		return fail(y, "unexpected YAML event");
	}
}

int yamljson_parse(const char *buf, size_t len, json_object **ret,
		   struct strbuf *err)
{
	struct yp y = { .err = err };
	yaml_event_t e;
	int r = 0;

	*ret = NULL;
	if (!yaml_parser_initialize(&y.p))
		return -ENOMEM;
	yaml_parser_set_input_string(&y.p, (const unsigned char *)buf, len);
	/* stream start, then a document start (or the stream's end) */
	while (r == 0 && next(&y, &e) == 0) {
		yaml_event_type_t t = e.type;

		if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&e);
			continue;
		}
		if (t == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&e);
			r = fail(&y, "no YAML document");
			break;
		}
		r = node(&y, &e, 0, ret);
		break;
	}
	if (y.r < 0 && r == 0)
		r = y.r;
	yaml_parser_delete(&y.p);
	if (r < 0) {
		json_object_put(*ret);
		*ret = NULL;
	}
	return r;
}
