// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/overlap.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "core/costrec.h"
#include "core/domxml.h"
#include "core/eta.h"
#include "core/recjson.h"
#include "util/jsonx.h"
#include "util/cleanup.h"

static const char *const mode_names[] = {
	[OVERLAP_AUTO] = "auto",
	[OVERLAP_ON] = "on",
	[OVERLAP_OFF] = "off",
};

int overlap_mode_parse(const char *s, enum overlap_mode *ret)
{
	for (size_t i = 0; s && i < sizeof(mode_names) / sizeof(*mode_names);
	     i++)
		if (!strcmp(s, mode_names[i])) {
			*ret = (enum overlap_mode)i;
			return 0;
		}
	return -EINVAL;
}

const char *overlap_mode_name(enum overlap_mode m)
{
	return (unsigned)m < sizeof(mode_names) / sizeof(*mode_names)
		       ? mode_names[m]
		       : "?";
}

static bool said(struct strbuf *why, bool v, const char *fmt, ...)
	_printf_(3, 4);

static bool said(struct strbuf *why, bool v, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		strbuf_vaddf(why, fmt, ap);
		va_end(ap);
	}
	return v;
}

bool overlap_decide(enum overlap_mode mode, const struct overlap_host *h,
		    struct strbuf *why)
{
	unsigned cpus = h->cpus ? h->cpus : 1;

	if (mode == OVERLAP_ON)
		return said(why, true, "asked for (--overlap on)");
	if (mode == OVERLAP_OFF)
		return said(why, false, "asked for (--overlap off)");
	if (!h->boots_here)
		return said(why, false, "no boot on this host (LAVA jobs are "
			    "written instead)");
	if (cpus == 1)
		return said(why, false, "one CPU: a boot beside the build would "
			    "only slow both");
	if (h->distcc_slots)
		return said(why, true, "the distcc farm compiles: this host "
			    "only preprocesses and links, its %u CPUs are "
			    "free for a boot", cpus);
	if (h->jobs && h->jobs < cpus)
		return said(why, true, "make -j%u leaves %u of the host's CPUs "
			    "to a boot", h->jobs, cpus - h->jobs);
	if (cpus >= OVERLAP_MIN_CPUS)
		return said(why, true, "%u CPUs: a guest of "
			    "%u vCPUs beside the build leaves it most of them",
			    cpus, DOMXML_VCPUS_DEFAULT);
	return said(why, false, "%u CPUs, all of them make's (-j%u): a TCG "
		    "guest beside the build would slow it and near its own "
		    "boot timeout", cpus, h->jobs ? h->jobs : cpus);
}

json_object *overlap_record(enum overlap_mode mode,
			    const struct overlap_host *h, bool used,
			    const char *reason)
{
	json_object *j = json_object_new_object();

	recjson_add_str(j, "mode", overlap_mode_name(mode));
	json_object_object_add(j, "used", json_object_new_boolean(used));
	recjson_add_str(j, "reason", reason);
	json_object_object_add(j, "cpus", json_object_new_int((int)h->cpus));
	json_object_object_add(j, "jobs", json_object_new_int((int)h->jobs));
	return j;
}

void overlap_times_format(double wall_s, double stages_s, struct strbuf *sb)
{
	if (stages_s <= 0 || wall_s <= 0)
		return;
	eta_format(wall_s, sb);
	strbuf_addstr(sb, " of wall time for ");
	eta_format(stages_s, sb);
	strbuf_addf(sb, " of stages (%.2fx)", stages_s / wall_s);
}

json_object *overlap_times_record(json_object *boots, double wall_s)
{
	json_object *j = json_object_new_object();
	double stages = 0, clean = 0, v;
	int n_clean = 0;

	for (size_t i = 0; boots && i < json_object_array_length(boots); i++) {
		json_object *b = json_object_array_get_idx(boots, i);
		json_object *build = jsonx_get(b, "build");
		const char *res = jsonx_str(build, "result");
		struct cost_build cb;

		if (jsonx_num(jsonx_get(b, "config"), "seconds", &v))
			stages += v;
		if (res && (!strcmp(res, "pass") || !strcmp(res, "fail")) &&
		    !jsonx_bool(build, "reused", false) &&
		    jsonx_num(build, "seconds", &v)) {
			stages += v;
			costrec_build(b, NULL, &cb);
			if (cb.from_clean) {
				clean += v;
				n_clean++;
			}
		}
		if (jsonx_num(b, "elapsed_s", &v))
			stages += v;
	}
	json_object_object_add(j, "wall_s", json_object_new_double(wall_s));
	json_object_object_add(j, "stages_s", json_object_new_double(stages));
	json_object_object_add(j, "from_clean_builds",
			       json_object_new_int(n_clean));
	json_object_object_add(j, "from_clean_builds_s",
			       json_object_new_double(clean));
	return j;
}

void overlap_times_line(json_object *times, struct strbuf *sb)
{
	double wall, stages, clean;
	int n = 0;

	if (!jsonx_num(times, "wall_s", &wall) ||
	    !jsonx_num(times, "stages_s", &stages) || stages <= 0)
		return;
	strbuf_addstr(sb, "the run: ");
	overlap_times_format(wall, stages, sb);
	if (jsonx_num(times, "from_clean_builds_s", &clean) && clean > 0) {
		n = json_object_get_int(jsonx_get(times, "from_clean_builds"));
		strbuf_addf(sb, "; the %d build%s from clean alone took ", n,
			    n == 1 ? "" : "s");
		eta_format(clean, sb);
	}
}
