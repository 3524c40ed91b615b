// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/timeline.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/recjson.h"
#include "util/jsonx.h"

void timeline_init(struct timeline *tl, long long t0_ms)
{
	memset(tl, 0, sizeof(*tl));
	tl->t0_ms = t0_ms;
}

static struct timeline_phase *open_phase(struct timeline *tl)
{
	if (!tl->n || tl->v[tl->n - 1].end_ms >= 0)
		return NULL;
	return &tl->v[tl->n - 1];
}

void timeline_end(struct timeline *tl, long long now_ms)
{
	struct timeline_phase *p = open_phase(tl);

	if (p)
		p->end_ms = now_ms < p->start_ms ? p->start_ms : now_ms;
}

void timeline_begin(struct timeline *tl, const char *name, long long now_ms)
{
	struct timeline_phase *p = open_phase(tl);

	if (tl->n == TIMELINE_MAX && p) {
		tl->dropped++;
		return;
	}
	if (p && now_ms < p->start_ms)
		now_ms = p->start_ms;
	timeline_end(tl, now_ms);
	if (tl->n == TIMELINE_MAX) {
		/* The last phase, closed, goes on until the next one that
		 * fits: none will. */
		tl->v[tl->n - 1].end_ms = -1;
		tl->dropped++;
		return;
	}
	p = &tl->v[tl->n++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->start_ms = now_ms;
	p->end_ms = -1;
}

const char *timeline_open(const struct timeline *tl)
{
	if (!tl->n || tl->v[tl->n - 1].end_ms >= 0)
		return NULL;
	return tl->v[tl->n - 1].name;
}

void timeline_rename(struct timeline *tl, const char *name)
{
	struct timeline_phase *p = open_phase(tl);

	if (p)
		snprintf(p->name, sizeof(p->name), "%s", name);
}

long long timeline_ms(const struct timeline *tl, const char *name)
{
	long long ms = 0;

	for (size_t i = 0; i < tl->n; i++)
		if (tl->v[i].end_ms >= 0 && !strcmp(tl->v[i].name, name))
			ms += tl->v[i].end_ms - tl->v[i].start_ms;
	return ms;
}

json_object *timeline_json(const struct timeline *tl)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	long long last = tl->t0_ms;
	bool open = false;

	for (size_t i = 0; i < tl->n; i++) {
		const struct timeline_phase *p = &tl->v[i];
		json_object *j = json_object_new_object();

		recjson_add_str(j, "phase", p->name);
		json_object_object_add(j, "start_s",
				       recjson_seconds((p->start_ms - tl->t0_ms) /
						       1000.0));
		json_object_object_add(j, "seconds",
				       p->end_ms >= 0
					       ? recjson_seconds((p->end_ms -
								  p->start_ms) /
								 1000.0)
					       : NULL);
		json_object_array_add(a, j);
		open = p->end_ms < 0;
		last = p->end_ms;
	}
	json_object_object_add(o, "phases", a);
	json_object_object_add(o, "total_s",
			       open ? NULL
				    : recjson_seconds((last - tl->t0_ms) / 1000.0));
	json_object_object_add(o, "dropped",
			       json_object_new_int64((int64_t)tl->dropped));
	return o;
}

int timeline_format(json_object *tl, struct strbuf *out)
{
	json_object *phases = jsonx_get(tl, "phases");
	double total = 0, start, secs;
	bool have_total = jsonx_num(tl, "total_s", &total);
	size_t n;

	if (!phases || !json_object_is_type(phases, json_type_array))
		return -EINVAL;
	n = json_object_array_length(phases);
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(phases, i);

		if (!jsonx_str(p, "phase") || !jsonx_num(p, "start_s", &start))
			return -EINVAL;
	}
	strbuf_addstr(out, "timeline (wall clock):\n"
			   "     start   seconds  share  phase\n");
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(phases, i);

		jsonx_num(p, "start_s", &start);
		strbuf_addf(out, "  %7.2fs ", start);
		if (jsonx_num(p, "seconds", &secs)) {
			strbuf_addf(out, "%8.2fs ", secs);
			if (have_total && total > 0)
				strbuf_addf(out, "%5.1f%%  ", 100.0 * secs / total);
			else
				strbuf_addstr(out, "     -  ");
		} else {
			strbuf_addstr(out, "  (open)      -  ");
		}
		strbuf_addf(out, "%s\n", jsonx_str(p, "phase"));
	}
	if (have_total)
		strbuf_addf(out, "  total    %8.2fs\n", total);
	else
		strbuf_addstr(out, "  total    (not finished)\n");
	if (jsonx_num(tl, "dropped", &secs) && secs > 0)
		strbuf_addf(out, "  (%.0f later phases not kept: the last one "
				 "includes them)\n", secs);
	return 0;
}
