// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bisect.h"

#include <string.h>

#include "core/matrixrec.h"
#include "util/jsonx.h"

void bisect_frag_text(const struct bisect_frag *f, struct strbuf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n_lines; i++)
		n += f->in[i];
	strbuf_addf(out, "# group: %s\n# arch: %s\n# scenarios: %s\n"
		    "# from: %s\n"
		    "# summary: %zu of the %zu requested option lines of the "
		    "failing candidate (bootproof bisect).\n",
		    f->name, f->arch, f->scenarios, f->from, n, f->n_lines);
	for (size_t i = 0; i < f->n_lines; i++) {
		if (!f->in[i])
			continue;
		strbuf_addf(out, "# line %s\n%s\n", f->lines[i].source,
			    f->lines[i].text);
	}
}

json_object *bisect_dropped(json_object *rec, const struct bisect_frag_line *lines,
			    const bool *in, size_t n)
{
	json_object *out = json_object_new_array();
	json_object *cfg = jsonx_get(rec, "config");
	size_t n_opts = jsonx_len(cfg, "options");

	for (size_t i = 0; i < n; i++) {
		if (!in[i] || !lines[i].name)
			continue;
		for (size_t k = 0; k < n_opts; k++) {
			json_object *o = jsonx_at(cfg, "options", k), *d;
			const char *name = jsonx_str(o, "option");
			const char *st = jsonx_str(o, "status");

			if (!name || strcmp(name, lines[i].name) || !st ||
			    !strcmp(st, "kept"))
				continue;
			d = json_object_new_object();
			json_object_object_add(d, "line",
					       json_object_new_int((int)i));
			json_object_object_add(d, "option", jsonx_new_str(name));
			json_object_object_add(d, "reason_kind",
					       jsonx_new_str(jsonx_str(o, "reason_kind")));
			json_object_object_add(d, "reason",
					       jsonx_new_str(jsonx_str(o, "reason")));
			json_object_array_add(out, d);
			break;
		}
	}
	return out;
}

/* The step of steps whose lines are exactly the culprit less line m. */
static json_object *step_without(json_object *steps, const bool *culprit,
				 size_t n, size_t m)
{
	for (size_t s = 0; s < json_object_array_length(steps); s++) {
		json_object *st = json_object_array_get_idx(steps, s);
		json_object *ls = jsonx_get(st, "lines");
		size_t k = 0, len = json_object_array_length(ls);
		bool same = true;

		for (size_t i = 0; i < n && same; i++) {
			bool want = culprit[i] && i != m;
			bool has = k < len &&
				   json_object_get_int(json_object_array_get_idx(ls, k)) ==
					   (int)i;

			if (has)
				k++;
			same = want == has;
		}
		if (same && k == len)
			return st;
	}
	return NULL;
}

json_object *bisect_needs(json_object *steps, const bool *culprit, size_t n)
{
	json_object *out = json_object_new_array();

	for (size_t l = 0; l < n; l++) {
		json_object *e = NULL, *needs = NULL;

		if (!culprit[l])
			continue;
		for (size_t m = 0; m < n; m++) {
			json_object *st, *dr;

			if (!culprit[m] || m == l ||
			    !(st = step_without(steps, culprit, n, m)))
				continue;
			dr = jsonx_get(st, "dropped");
			for (size_t k = 0; k < json_object_array_length(dr); k++) {
				json_object *d = json_object_array_get_idx(dr, k);
				const char *kind = jsonx_str(d, "reason_kind");

				if (json_object_get_int(jsonx_get(d, "line")) != (int)l ||
				    !kind ||
				    strcmp(kind, matrixrec_reason_kind(EXPLAIN_DEPENDS)))
					continue;
				if (!e) {
					e = json_object_new_object();
					needs = json_object_new_array();
					json_object_object_add(e, "line",
							       json_object_new_int((int)l));
					json_object_object_add(e, "needs", needs);
					json_object_object_add(e, "reason",
							       jsonx_new_str(jsonx_str(d, "reason")));
				}
				json_object_array_add(needs, json_object_new_int((int)m));
				break;
			}
		}
		if (e)
			json_object_array_add(out, e);
	}
	return out;
}

/* The text of line i among a culprit's options, "line I" when absent. */
static void line_text(json_object *culprit, int i, struct strbuf *out)
{
	json_object *opts = jsonx_get(culprit, "options");

	for (size_t k = 0; k < jsonx_len(culprit, "options"); k++) {
		json_object *o = json_object_array_get_idx(opts, k);

		if (json_object_get_int(jsonx_get(o, "line")) == i &&
		    jsonx_str(o, "text")) {
			strbuf_addstr(out, jsonx_str(o, "text"));
			return;
		}
	}
	strbuf_addf(out, "line %d", i + 1);
}

void bisect_needs_text(json_object *culprit, struct strbuf *out)
{
	json_object *needs = jsonx_get(culprit, "needs");

	for (size_t i = 0; i < jsonx_len(culprit, "needs"); i++) {
		json_object *e = json_object_array_get_idx(needs, i);
		json_object *ms = jsonx_get(e, "needs");

		line_text(culprit, json_object_get_int(jsonx_get(e, "line")), out);
		strbuf_addstr(out, " needs ");
		for (size_t k = 0; k < jsonx_len(e, "needs"); k++) {
			if (k)
				strbuf_addstr(out, k + 1 < jsonx_len(e, "needs")
							   ? ", " : " and ");
			line_text(culprit,
				  json_object_get_int(json_object_array_get_idx(ms, k)),
				  out);
		}
		strbuf_addf(out, ": without %s, Kconfig drops it (%s)\n",
			    jsonx_len(e, "needs") > 1 ? "one of them" : "it",
			    jsonx_str(e, "reason") ?: "unmet dependency");
	}
}
