// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/recjson.h"

#include "core/bootlog.h"

#include <stdio.h>

void recjson_add_str(json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

json_object *recjson_seconds(double v)
{
	char b[32];

	snprintf(b, sizeof(b), "%.3f", v);
	return json_object_new_double_s(v, b);
}

static json_object *num_or_null(double v)
{
	return v < 0 ? NULL : recjson_seconds(v);
}

json_object *recjson_problem(const struct console_problem *p,
			     bool with_report)
{
	json_object *o = json_object_new_object();
	json_object *fr = json_object_new_array();

	if (!o || !fr) {
		json_object_put(o);
		json_object_put(fr);
		return NULL;
	}
	recjson_add_str(o, "kind", console_problem_kind_name(p->kind));
	recjson_add_str(o, "title", p->title);
	recjson_add_str(o, "header", p->header);
	json_object_object_add(o, "corrupted",
			       json_object_new_boolean(p->corrupted));
	recjson_add_str(o, "reason", p->reason);
	json_object_object_add(o, "line", json_object_new_int64((int64_t)p->lineno));
	json_object_object_add(o, "timestamp", num_or_null(p->timestamp));
	recjson_add_str(o, "signature", p->signature);
	recjson_add_str(o, "end", console_end_name(p->end));
	for (size_t i = 0; i < p->n_frames; i++)
		json_object_array_add(fr, json_object_new_string(p->frames[i]));
	json_object_object_add(o, "frames", fr);
	json_object_object_add(o, "first_line",
			       json_object_new_int64((int64_t)p->first_lineno));
	json_object_object_add(o, "last_line",
			       json_object_new_int64((int64_t)p->last_lineno));
	if (with_report)
		json_object_object_add(
			o, "report",
			json_object_new_string_len(p->report ? p->report : "",
						   (int)p->report_len));
	return o;
}

json_object *recjson_milestones(const struct console *c)
{
	json_object *a = json_object_new_array();

	if (!a)
		return NULL;
	for (int m = 0; m < _CONSOLE_MS_MAX; m++) {
		const struct console_milestone_event *ev =
			console_milestone_first(c, (enum console_milestone)m);
		json_object *o;

		if (!ev)
			continue;
		o = json_object_new_object();
		if (!o)
			break;
		recjson_add_str(o, "name", console_milestone_name(ev->milestone));
		json_object_object_add(o, "line",
				       json_object_new_int64((int64_t)ev->lineno));
		json_object_object_add(o, "timestamp",
				       num_or_null(ev->timestamp));
		recjson_add_str(o, "text", ev->text);
		json_object_array_add(a, o);
	}
	return a;
}

json_object *recjson_ktap_test(const struct ktap_test *t)
{
	json_object *o = json_object_new_object();
	json_object *d, *s;

	if (!o)
		return NULL;
	recjson_add_str(o, "name", t->name);
	json_object_object_add(o, "number", json_object_new_int64((int64_t)t->number));
	recjson_add_str(o, "status", ktap_status_name(t->status));
	if (t->directive != KTAP_DIR_NONE)
		recjson_add_str(o, "directive", ktap_directive_name(t->directive));
	recjson_add_str(o, "reason", t->reason);
	if (t->n_diags) {
		d = json_object_new_array();
		for (size_t i = 0; d && i < t->n_diags; i++)
			json_object_array_add(d, json_object_new_string(t->diags[i]));
		json_object_object_add(o, "diagnostics", d);
	}
	if (t->n_children) {
		s = json_object_new_array();
		for (size_t i = 0; s && i < t->n_children; i++)
			json_object_array_add(s, recjson_ktap_test(t->children[i]));
		json_object_object_add(o, "subtests", s);
	}
	return o;
}

json_object *recjson_ktap(const struct ktap *k)
{
	const struct ktap_test *root = ktap_root(k);
	const struct ktap_stats *st = ktap_get_stats(k);
	struct ktap_totals tot;
	json_object *o = json_object_new_object();
	json_object *t, *s;

	if (!o)
		return NULL;
	ktap_test_totals(root, &tot);
	recjson_add_str(o, "status", ktap_status_name(root->status));
	json_object_object_add(o, "complete", json_object_new_boolean(st->complete));
	json_object_object_add(o, "documents", json_object_new_int64((int64_t)st->documents));
	if (st->bailed_out)
		recjson_add_str(o, "bail_out", st->bail_reason);
	t = json_object_new_object();
	if (t) {
		json_object_object_add(t, "passed", json_object_new_int64((int64_t)tot.passed));
		json_object_object_add(t, "failed", json_object_new_int64((int64_t)tot.failed));
		json_object_object_add(t, "skipped", json_object_new_int64((int64_t)tot.skipped));
		json_object_object_add(t, "xfailed", json_object_new_int64((int64_t)tot.xfailed));
		json_object_object_add(t, "errors", json_object_new_int64((int64_t)tot.errors));
		json_object_object_add(o, "totals", t);
	}
	s = json_object_new_array();
	for (size_t i = 0; s && i < root->n_children; i++)
		json_object_array_add(s, recjson_ktap_test(root->children[i]));
	json_object_object_add(o, "tests", s);
	return o;
}

json_object *recjson_debug(const struct bootlog *b)
{
	const struct bootlog_debug *d = bootlog_debug(b);
	const struct console *c = bootlog_console(b);
	json_object *o = json_object_new_object(), *k = NULL;
	struct console_stats st;
	unsigned long off;

	if (!o)
		return NULL;
	console_get_stats(c, &st);
	recjson_add_str(o, "lockdep", bootlog_lockdep_name(d->lockdep));
	json_object_object_add(o, "lockdep_off_line",
			       console_lockdep_off(c, &off)
				       ? json_object_new_int64((int64_t)off)
				       : NULL);
	if (d->kmemleak_scanned || d->kmemleak_no_scan[0] || st.kmemleak) {
		k = json_object_new_object();
		json_object_object_add(k, "reported",
				       json_object_new_int64((int64_t)st.kmemleak));
		json_object_object_add(
			k, "scanned", json_object_new_boolean(d->kmemleak_scanned));
		json_object_object_add(
			k, "leaks",
			d->kmemleak_scanned
				? json_object_new_int64((int64_t)d->kmemleak_leaks)
				: NULL);
		recjson_add_str(k, "no_scan", d->kmemleak_no_scan[0]
						      ? d->kmemleak_no_scan
						      : NULL);
	}
	json_object_object_add(o, "kmemleak", k);
	return o;
}

static json_object *kb_or_null(long v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

json_object *recjson_memory(const struct bootlog *b)
{
	const struct bootlog_memory *m = bootlog_memory(b);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kernel_available_kb",
			       kb_or_null(m->kernel_available_kb));
	json_object_object_add(o, "kernel_total_kb",
			       kb_or_null(m->kernel_total_kb));
	json_object_object_add(o, "agent_memavailable_kb",
			       kb_or_null(m->agent_memavailable_kb));
	return o;
}
