// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/costrec.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/recjson.h"
#include "util/jsonx.h"

/* ------------------------------------------------------------ samples */

/* The boot-record members sampled, and the keys they have in samples. */
static const char *const sampled[] = {
	"time_to_init_s", "kernel_time_to_init_s", "time_to_agent_end_s",
};
static const char *const sampled_mem[] = {
	"kernel_available_kb", "agent_memavailable_kb",
};

static json_object *copy_member(json_object *o, const char *key)
{
	return json_object_get(jsonx_get(o, key));
}

void costrec_samples(json_object *first, json_object *const *repeats,
		     size_t n)
{
	json_object *s = json_object_new_object();
	json_object *arr[ELEMENTSOF(sampled) + ELEMENTSOF(sampled_mem) + 2];
	size_t k = 0;

	for (size_t i = 0; i < ELEMENTSOF(arr); i++)
		arr[i] = json_object_new_array();
	for (size_t b = 0; b <= n; b++) {
		json_object *r = b ? repeats[b - 1] : first;
		json_object *files = jsonx_get(r, "files");

		k = 0;
		for (size_t i = 0; i < ELEMENTSOF(sampled); i++)
			json_object_array_add(arr[k++], copy_member(r, sampled[i]));
		for (size_t i = 0; i < ELEMENTSOF(sampled_mem); i++)
			json_object_array_add(arr[k++],
					      copy_member(jsonx_get(r, "memory"),
							  sampled_mem[i]));
		json_object_array_add(arr[k++], copy_member(r, "verdict"));
		json_object_array_add(arr[k++], copy_member(files, "console"));
	}
	json_object_object_add(s, "n", json_object_new_int64((int64_t)n + 1));
	k = 0;
	for (size_t i = 0; i < ELEMENTSOF(sampled); i++)
		json_object_object_add(s, sampled[i], arr[k++]);
	for (size_t i = 0; i < ELEMENTSOF(sampled_mem); i++)
		json_object_object_add(s, sampled_mem[i], arr[k++]);
	json_object_object_add(s, "verdicts", arr[k++]);
	json_object_object_add(s, "consoles", arr[k++]);
	json_object_object_add(first, "samples", s);
}

/* ------------------------------------------------------------ figures */

/* A sample boot whose figures count: one that ran to its end (BOOTED, or
 * PROBLEMS: it ended but the kernel logged problems), or one whose
 * verdict the samples do not say (written before they did).  A HUNG
 * boot's "agent end" is the timeout, a PANIC's figures stop short. */
static bool sample_counts(json_object *s, size_t i)
{
	const char *v;

	if (!jsonx_len(s, "verdicts"))
		return true;
	v = json_object_get_string(jsonx_at(s, "verdicts", i));
	return v && (!strcmp(v, "BOOTED") || !strcmp(v, "PROBLEMS"));
}

/* The values of a boot figure: samples[key] when the record has
 * samples (those of the boots that count), else its own member (in
 * memory for the memory ones). */
static void values(json_object *rec, const char *key, bool mem,
		   struct cost_sample *ret)
{
	double v[COST_MAX_SAMPLES];
	size_t n = 0;
	json_object *s = jsonx_get(rec, "samples");

	if (s) {
		for (size_t i = 0; i < jsonx_len(s, key) && n < COST_MAX_SAMPLES;
		     i++) {
			json_object *e = jsonx_at(s, key, i);

			if (!sample_counts(s, i))
				continue;
			if (e && (json_object_is_type(e, json_type_int) ||
				  json_object_is_type(e, json_type_double)))
				v[n++] = json_object_get_double(e);
		}
	} else if (jsonx_num(mem ? jsonx_get(rec, "memory") : rec, key, &v[0])) {
		n = 1;
	}
	cost_sample_of(v, n, ret);
}

static json_object *sample_json(const struct cost_sample *s)
{
	json_object *o;

	if (!s->n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "n", json_object_new_int64((int64_t)s->n));
	json_object_object_add(o, "median", recjson_seconds(s->median));
	json_object_object_add(o, "min", recjson_seconds(s->min));
	json_object_object_add(o, "max", recjson_seconds(s->max));
	return o;
}

/* { base, group, delta, spread, spread_known, change } */
static json_object *sampled_figure(json_object *b, json_object *g,
				   const char *key, bool mem)
{
	struct cost_sample sb, sg;
	double d, spread;
	enum cost_change c;
	json_object *o = json_object_new_object();

	values(b, key, mem, &sb);
	values(g, key, mem, &sg);
	c = cost_compare(&sb, &sg, &d, &spread);
	json_object_object_add(o, "base", sample_json(&sb));
	json_object_object_add(o, "group", sample_json(&sg));
	json_object_object_add(o, "delta",
			       c == COST_UNKNOWN ? NULL : recjson_seconds(d));
	json_object_object_add(o, "spread", recjson_seconds(spread));
	json_object_object_add(o, "spread_known", json_object_new_boolean(
							  cost_spread_known(&sb, &sg)));
	recjson_add_str(o, "change", cost_change_name(c));
	return o;
}

/* An exact figure: { base, group, delta } (null where unknown). */
static json_object *exact(json_object *b, json_object *g, const char *key)
{
	json_object *o = json_object_new_object();
	json_object *vb = jsonx_get(b, key), *vg = jsonx_get(g, key);
	bool nb = vb && json_object_is_type(vb, json_type_int);
	bool ng = vg && json_object_is_type(vg, json_type_int);

	json_object_object_add(o, "base", nb ? json_object_new_int64(
						       json_object_get_int64(vb))
					      : NULL);
	json_object_object_add(o, "group", ng ? json_object_new_int64(
							json_object_get_int64(vg))
					       : NULL);
	json_object_object_add(o, "delta",
			       nb && ng ? json_object_new_int64(
						  json_object_get_int64(vg) -
						  json_object_get_int64(vb))
					: NULL);
	return o;
}

/* ------------------------------------------------------------ build */

static long lnum(json_object *o, const char *key)
{
	double v;

	return jsonx_num(o, key, &v) ? (long)v : -1;
}

void costrec_build(json_object *rec, const char *base_hash,
		   struct cost_build *ret)
{
	json_object *m = jsonx_get(jsonx_get(rec, "build"), "measure");
	json_object *cc = jsonx_get(m, "ccache");
	const char *prev = jsonx_str(m, "previous_config");
	double cpu;

	*ret = (struct cost_build){
		.objects = lnum(m, "objects"),
		.objects_compiled = lnum(m, "objects_compiled"),
		.cpu_seconds = jsonx_num(m, "cpu_seconds", &cpu) ? cpu : -1,
		.from_clean = jsonx_bool(m, "from_clean", false),
		.ccache_hits = cc ? lnum(cc, "hits") : -1,
		.ccache_misses = cc ? lnum(cc, "misses") : -1,
		.after_base = prev && base_hash && !strcmp(prev, base_hash),
	};
}

static const char cpu_method_measured[] =
	"both builds from clean without a ccache hit: the difference of "
	"their CPU times";
static const char cpu_method_both_clean[] =
	"the group's build from clean, the base's from clean or with all "
	"but a tenth of its objects recompiled; their ccache hits and kept "
	"objects counted at each build's CPU per miss; error: those "
	"corrections";
static const char cpu_method_estimated[] =
	"the base's from-clean CPU seconds per object (its ccache hits "
	"and kept objects counted at its CPU per miss) times the objects "
	"the group adds (a group built in a kept tree is not compared by "
	"its CPU: builds hours apart differ by the host's load); "
	"error: the same objects at the CPU per object the group's "
	"incremental build after the base compiled, plus the hits' share";

static json_object *build_json(json_object *b, json_object *g)
{
	json_object *o = json_object_new_object(), *c, *inc;
	json_object *mb = jsonx_get(jsonx_get(b, "build"), "measure");
	json_object *mg = jsonx_get(jsonx_get(g, "build"), "measure");
	const char *base_hash = jsonx_str(jsonx_get(b, "build"), "config_hash");
	struct cost_build cb, cg;
	struct cost_cpu cpu;

	costrec_build(b, NULL, &cb);
	costrec_build(g, base_hash, &cg);
	cost_cpu_of(&cb, &cg, &cpu);
	json_object_object_add(o, "measured",
			       json_object_new_boolean(mb && mg));
	json_object_object_add(o, "objects", exact(mb, mg, "objects"));
	c = json_object_new_object();
	recjson_add_str(c, "how", cost_cpu_how_name(cpu.how));
	json_object_object_add(c, "base", cpu.how != COST_CPU_UNKNOWN
						  ? recjson_seconds(cpu.base)
						  : NULL);
	json_object_object_add(c, "group", cpu.how != COST_CPU_UNKNOWN
						   ? recjson_seconds(cpu.group)
						   : NULL);
	json_object_object_add(c, "delta", cpu.how != COST_CPU_UNKNOWN
						   ? recjson_seconds(cpu.delta)
						   : NULL);
	json_object_object_add(c, "error", cpu.how != COST_CPU_UNKNOWN &&
						   cpu.error >= 0
					       ? recjson_seconds(cpu.error)
					       : NULL);
	json_object_object_add(c, "seconds_per_object",
			       cpu.how == COST_CPU_ESTIMATED
				       ? recjson_seconds(cpu.rate)
				       : NULL);
	recjson_add_str(c, "method",
			cpu.how == COST_CPU_MEASURED ? cpu_method_measured
			: cpu.how == COST_CPU_UNKNOWN
				? cost_cpu_unknown_why(&cb, &cg)
			: cpu.difference ? cpu_method_both_clean
				: cpu_method_estimated);
	json_object_object_add(o, "cpu_from_clean", c);
	if (mg && !cg.from_clean) {
		inc = json_object_new_object();
		json_object_object_add(inc, "after_base",
				       json_object_new_boolean(cg.after_base));
		json_object_object_add(inc, "cpu_seconds",
				       cg.cpu_seconds >= 0
					       ? recjson_seconds(cg.cpu_seconds)
					       : NULL);
		json_object_object_add(inc, "objects_compiled",
				       cg.objects_compiled >= 0
					       ? json_object_new_int64(
							 cg.objects_compiled)
					       : NULL);
		json_object_object_add(inc, "ccache_hits",
				       cg.ccache_hits >= 0
					       ? json_object_new_int64(cg.ccache_hits)
					       : NULL);
		json_object_object_add(o, "incremental", inc);
	} else {
		json_object_object_add(o, "incremental", NULL);
	}
	return o;
}

/* ------------------------------------------------------------ size */

static json_object *size_json(json_object *b, json_object *g)
{
	json_object *o = json_object_new_object();
	json_object *mb = jsonx_get(jsonx_get(b, "build"), "measure");
	json_object *mg = jsonx_get(jsonx_get(g, "build"), "measure");
	static const char *const parts[] = { "text", "data", "bss" };

	json_object_object_add(o, "bzimage_bytes", exact(mb, mg, "bzimage_bytes"));
	for (size_t i = 0; i < ELEMENTSOF(parts); i++)
		json_object_object_add(o, parts[i],
				       exact(jsonx_get(mb, "vmlinux"),
					     jsonx_get(mg, "vmlinux"), parts[i]));
	json_object_object_add(o, "modules",
			       exact(jsonx_get(mb, "modules"),
				     jsonx_get(mg, "modules"), "count"));
	json_object_object_add(o, "modules_bytes",
			       exact(jsonx_get(mb, "modules"),
				     jsonx_get(mg, "modules"), "bytes"));
	json_object_object_add(o, "image_bytes", exact(b, g, "image_bytes"));
	return o;
}

/* ------------------------------------------------------------ boot */

/*
 * The QEMU machine a boot ran on.  Boot records without the field were
 * written before it existed (2026-12-07), when every guest was "pc".
 */
static const char *machine_of(json_object *boot)
{
	return jsonx_str(boot, "machine") ?: "pc";
}

/* The host's load when each side's first boot started: times of boots
 * under unlike loads differ by the host, not by the group. */
static json_object *host_loads(json_object *b, json_object *g)
{
	json_object *o = json_object_new_object();
	double v;

	json_object_object_add(o, "base", jsonx_num(b, "host_load", &v)
						  ? recjson_seconds(v)
						  : NULL);
	json_object_object_add(o, "group", jsonx_num(g, "host_load", &v)
						   ? recjson_seconds(v)
						   : NULL);
	return o;
}

static json_object *boot_json(json_object *b, json_object *g,
			      const char **ret_why)
{
	json_object *o;
	const char *ab = jsonx_str(b, "accel"), *ag = jsonx_str(g, "accel");
	const char *vb = jsonx_str(b, "verdict"), *vg = jsonx_str(g, "verdict");

	if (!vb || !vg) {
		*ret_why = "a candidate did not boot";
		return NULL;
	}
	if (!ab || !ag || strcmp(ab, ag)) {
		*ret_why = "the two booted under different accelerators";
		return NULL;
	}
	if (strcmp(machine_of(b), machine_of(g))) {
		*ret_why = "the two booted on different QEMU machines";
		return NULL;
	}
	*ret_why = NULL;
	o = json_object_new_object();
	recjson_add_str(o, "accel", ab);
	json_object_object_add(o, "time_to_init_s",
			       sampled_figure(b, g, "time_to_init_s", false));
	json_object_object_add(o, "kernel_time_to_init_s",
			       sampled_figure(b, g, "kernel_time_to_init_s",
					      false));
	json_object_object_add(o, "time_to_agent_end_s",
			       sampled_figure(b, g, "time_to_agent_end_s", false));
	json_object_object_add(o, "kernel_available_kb",
			       sampled_figure(b, g, "kernel_available_kb", true));
	json_object_object_add(o, "agent_memavailable_kb",
			       sampled_figure(b, g, "agent_memavailable_kb",
					      true));
	json_object_object_add(o, "host_load", host_loads(b, g));
	return o;
}

/* ------------------------------------------------------------ config */

static json_object *config_json(json_object *b, json_object *g,
				const char *group, costrec_config_fn fn,
				void *ud)
{
	json_object *opts = jsonx_get(jsonx_get(g, "config"), "options");
	const char *fb = jsonx_str(jsonx_get(b, "config"), "final_config");
	const char *fg = jsonx_str(jsonx_get(g, "config"), "final_config");
	size_t n = 0, len = opts ? json_object_array_length(opts) : 0;
	const char **req = calloc(len + 1, sizeof(*req));
	struct cost_config c;
	json_object *o = NULL;

	if (!req)
		abort();
	for (size_t i = 0; i < len; i++) {
		json_object *op = json_object_array_get_idx(opts, i);
		const char *og = jsonx_str(op, "group");

		if (og && !strcmp(og, group) && jsonx_str(op, "option"))
			req[n++] = jsonx_str(op, "option");
	}
	if (fn && fb && fg && fn(ud, fb, fg, req, n, &c) == 0) {
		o = json_object_new_object();
		json_object_object_add(o, "on", json_object_new_int64((int64_t)c.on));
		json_object_object_add(o, "direct",
				       json_object_new_int64((int64_t)c.direct));
		json_object_object_add(o, "implied",
				       json_object_new_int64((int64_t)c.implied));
		json_object_object_add(o, "off", json_object_new_int64((int64_t)c.off));
		json_object_object_add(o, "changed",
				       json_object_new_int64((int64_t)c.changed));
	}
	free(req);
	return o;
}

/* ------------------------------------------------------------ the run */

static json_object *cand_of(json_object *rec)
{
	return jsonx_get(rec, "candidate");
}

static bool built(json_object *rec)
{
	const char *r = jsonx_str(jsonx_get(rec, "build"), "result");

	return r && (!strcmp(r, "pass") || !strcmp(r, "reused"));
}

static json_object *group_cost(json_object *b, json_object *g,
			       costrec_config_fn fn, void *ud)
{
	json_object *o = json_object_new_object(), *cg = cand_of(g);
	const char *group = NULL, *why = NULL;
	size_t ng = jsonx_len(cg, "groups");

	if (ng)
		group = json_object_get_string(jsonx_at(cg, "groups", ng - 1));
	recjson_add_str(o, "arch", jsonx_str(cg, "arch"));
	recjson_add_str(o, "group", group);
	recjson_add_str(o, "candidate", jsonx_str(cg, "id"));
	recjson_add_str(o, "base", jsonx_str(cand_of(b), "id"));
	if (!built(b) || !built(g)) {
		recjson_add_str(o, "why", built(b) ? "the group's candidate did "
						     "not build"
						   : "the base did not build");
		json_object_object_add(o, "build", NULL);
		json_object_object_add(o, "size", NULL);
	} else {
		json_object_object_add(o, "build", build_json(b, g));
		json_object_object_add(o, "size", size_json(b, g));
	}
	json_object_object_add(o, "boot", boot_json(b, g, &why));
	recjson_add_str(o, "boot_why", why);
	json_object_object_add(o, "config",
			       group ? config_json(b, g, group, fn, ud) : NULL);
	if (!jsonx_get(o, "why"))
		json_object_object_add(o, "why", NULL);
	return o;
}

json_object *costrec_run(json_object *run, costrec_config_fn config,
			 void *ud)
{
	json_object *out = json_object_new_array();

	for (size_t i = 0; i < jsonx_len(run, "boots"); i++) {
		json_object *g = jsonx_at(run, "boots", i), *cg = cand_of(g);
		const char *kind = jsonx_str(cg, "kind");

		if (!kind || strcmp(kind, "each"))
			continue;
		for (size_t k = 0; k < jsonx_len(run, "boots"); k++) {
			json_object *b = jsonx_at(run, "boots", k);
			const char *bk = jsonx_str(cand_of(b), "kind");
			const char *ba = jsonx_str(cand_of(b), "arch");

			if (bk && !strcmp(bk, "base") && ba &&
			    jsonx_str(cg, "arch") &&
			    !strcmp(ba, jsonx_str(cg, "arch"))) {
				json_object_array_add(out,
						      group_cost(b, g, config, ud));
				break;
			}
		}
	}
	return out;
}

/* ------------------------------------------------------------ text */

/* bytes in B, KiB or MiB, signed when sign. */
static void add_bytes(struct strbuf *sb, double v, bool sign)
{
	double a = fabs(v);
	const char *s = sign ? (v < 0 ? "-" : "+") : (v < 0 ? "-" : "");

	if (a < 10 * 1024)
		strbuf_addf(sb, "%s%.0f B", s, a);
	else if (a < 10 * 1024 * 1024)
		strbuf_addf(sb, "%s%.1f KiB", s, a / 1024);
	else
		strbuf_addf(sb, "%s%.1f MiB", s, a / (1024 * 1024));
}

static bool num(json_object *o, const char *key, double *ret)
{
	return jsonx_num(o, key, ret);
}

/* "+85 (1372 -> 1457)" of an exact figure; "unknown" without delta. */
static void add_exact(struct strbuf *sb, json_object *f, bool bytes)
{
	double d, b, g;

	if (!num(f, "delta", &d) || !num(f, "base", &b) || !num(f, "group", &g)) {
		strbuf_addstr(sb, "unknown");
		return;
	}
	if (bytes) {
		add_bytes(sb, d, true);
		strbuf_addstr(sb, " (");
		add_bytes(sb, b, false);
		strbuf_addstr(sb, " -> ");
		add_bytes(sb, g, false);
		strbuf_addch(sb, ')');
	} else {
		strbuf_addf(sb, "%+.0f (%.0f -> %.0f)", d, b, g);
	}
}

/* A sampled figure: "+0.4 s (median 2.0 s -> 2.4 s; spread 0.2 s, 3 boots
 * each)", "none: ..." inside the spread. */
static void add_sampled(struct strbuf *sb, json_object *f, const char *unit,
			double scale)
{
	const char *c = jsonx_str(f, "change");
	json_object *b = jsonx_get(f, "base"), *g = jsonx_get(f, "group");
	double d = 0, spread = 0, mb = 0, mg = 0, nb = 0, ng = 0;

	if (!c || !strcmp(c, "unknown")) {
		strbuf_addstr(sb, "unknown (not measured on both)");
		return;
	}
	num(f, "delta", &d);
	num(f, "spread", &spread);
	num(b, "median", &mb);
	num(g, "median", &mg);
	num(b, "n", &nb);
	num(g, "n", &ng);
	if (!strcmp(c, "none") && d != 0)
		strbuf_addf(sb, "none (%+.1f %s, inside the spread of %.1f %s)",
			    d / scale, unit, spread / scale, unit);
	else if (!strcmp(c, "none"))
		strbuf_addstr(sb, "none");
	else
		strbuf_addf(sb, "%+.1f %s", d / scale, unit);
	strbuf_addf(sb, "; median %.1f -> %.1f %s", mb / scale, mg / scale,
		    unit);
	if (jsonx_bool(f, "spread_known", false))
		strbuf_addf(sb, ", spread %.1f %s, %.0f/%.0f boots",
			    spread / scale, unit, nb, ng);
	else
		strbuf_addf(sb, ", %.0f/%.0f boot%s: spread not known", nb, ng,
			    nb + ng > 2 ? "s" : "");
}

static void text_build(struct strbuf *sb, json_object *b)
{
	json_object *c = jsonx_get(b, "cpu_from_clean");
	json_object *inc = jsonx_get(b, "incremental");
	const char *how = jsonx_str(c, "how") ?: "unknown";
	double d, e, base, v;

	strbuf_addstr(sb, "  build   objects      ");
	add_exact(sb, jsonx_get(b, "objects"), false);
	strbuf_addstr(sb, "\n          CPU (clean)  ");
	if (!num(c, "delta", &d)) {
		strbuf_addf(sb, "unknown: %s", jsonx_str(c, "method") ?: "");
	} else {
		strbuf_addf(sb, fabs(d) < 9.95 ? "%+.1f s %s" : "%+.0f s %s", d,
			    how);
		if (!strcmp(how, "estimated")) {
			if (num(c, "error", &e))
				strbuf_addf(sb, e < 9.95 ? " ±%.1f s" : " ±%.0f s", e);
			else
				strbuf_addstr(sb, ", error unknown");
		}
		if (num(c, "base", &base))
			strbuf_addf(sb, " (base %.0f s from clean)", base);
	}
	strbuf_addstr(sb, "\n          incremental  ");
	if (!jsonx_bool(b, "measured", false)) {
		strbuf_addstr(sb, "unknown (a build without a measure: built "
				  "before bootproof recorded them)");
	} else if (!inc) {
		strbuf_addstr(sb, "none (built from clean)");
	} else {
		if (num(inc, "cpu_seconds", &v))
			strbuf_addf(sb, "%.0f s of CPU", v);
		strbuf_addstr(sb, jsonx_bool(inc, "after_base", false)
					  ? " after the base"
					  : " after another build (not the base)");
		if (num(inc, "objects_compiled", &v))
			strbuf_addf(sb, ", %.0f objects compiled", v);
		if (num(inc, "ccache_hits", &v))
			strbuf_addf(sb, ", %.0f ccache hits", v);
	}
	strbuf_addch(sb, '\n');
}

static void text_size(struct strbuf *sb, json_object *s)
{
	static const char *const parts[] = { "text", "data", "bss" };

	strbuf_addstr(sb, "  size    bzImage      ");
	add_exact(sb, jsonx_get(s, "bzimage_bytes"), true);
	for (size_t i = 0; i < ELEMENTSOF(parts); i++) {
		strbuf_addf(sb, "\n          vmlinux %-5s", parts[i]);
		add_exact(sb, jsonx_get(s, parts[i]), true);
	}
	strbuf_addstr(sb, "\n          modules      ");
	add_exact(sb, jsonx_get(s, "modules"), false);
	strbuf_addstr(sb, ", ");
	add_exact(sb, jsonx_get(s, "modules_bytes"), true);
	strbuf_addstr(sb, "\n          root image   ");
	add_exact(sb, jsonx_get(s, "image_bytes"), true);
	strbuf_addch(sb, '\n');
}

/* "host load    base 3.9, group 1.1 (...)" when either is known. */
static void text_host_load(struct strbuf *sb, json_object *l)
{
	double b, g;
	bool hb = jsonx_num(l, "base", &b), hg = jsonx_num(l, "group", &g);

	if (!hb && !hg)
		return;
	strbuf_addstr(sb, "          host load    base ");
	if (hb)
		strbuf_addf(sb, "%.1f", b);
	else
		strbuf_addstr(sb, "?");
	strbuf_addstr(sb, ", group ");
	if (hg)
		strbuf_addf(sb, "%.1f", g);
	else
		strbuf_addstr(sb, "?");
	strbuf_addstr(sb, " (1-minute load average as the first boot of "
		      "each started)\n");
}

static void text_boot(struct strbuf *sb, json_object *o, const char *why)
{
	if (!o) {
		strbuf_addf(sb, "  boot    not compared: %s\n", why ? why : "?");
		return;
	}
	strbuf_addf(sb, "  boot    (%s)\n          to init      ",
		    jsonx_str(o, "accel") ?: "?");
	add_sampled(sb, jsonx_get(o, "time_to_init_s"), "s", 1);
	strbuf_addstr(sb, "\n          agent end    ");
	add_sampled(sb, jsonx_get(o, "time_to_agent_end_s"), "s", 1);
	strbuf_addstr(sb, "\n          Memory:      ");
	add_sampled(sb, jsonx_get(o, "kernel_available_kb"), "MiB", 1024);
	strbuf_addstr(sb, "\n          MemAvailable ");
	add_sampled(sb, jsonx_get(o, "agent_memavailable_kb"), "MiB", 1024);
	strbuf_addch(sb, '\n');
	text_host_load(sb, jsonx_get(o, "host_load"));
}

static void text_config(struct strbuf *sb, json_object *c)
{
	double on, direct, implied, off, changed;

	if (!num(c, "on", &on) || !num(c, "direct", &direct) ||
	    !num(c, "implied", &implied) || !num(c, "off", &off) ||
	    !num(c, "changed", &changed)) {
		strbuf_addstr(sb, "  config  unknown (final .configs not read)\n");
		return;
	}
	strbuf_addf(sb, "  config  %.0f option%s on: %.0f directly, %.0f came "
		    "with them (selected or defaulted); %.0f turned off, %.0f "
		    "changed\n", on, on == 1 ? "" : "s", direct, implied, off,
		    changed);
}

void costrec_text(json_object *costs, struct strbuf *out)
{
	size_t n = costs && json_object_is_type(costs, json_type_array)
			   ? json_object_array_length(costs)
			   : 0;

	if (!n) {
		strbuf_addstr(out, "no group costs: the run has no \"each\" "
				   "candidate with a base candidate beside it\n");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(costs, i);

		strbuf_addf(out, "%s%s %s  (%s against %s)\n", i ? "\n" : "",
			    jsonx_str(c, "arch") ?: "?",
			    jsonx_str(c, "group") ?: "?",
			    jsonx_str(c, "candidate") ?: "?",
			    jsonx_str(c, "base") ?: "?");
		if (jsonx_str(c, "why"))
			strbuf_addf(out, "  build and size not compared: %s\n",
				    jsonx_str(c, "why"));
		else {
			text_build(out, jsonx_get(c, "build"));
			text_size(out, jsonx_get(c, "size"));
		}
		text_boot(out, jsonx_get(c, "boot"), jsonx_str(c, "boot_why"));
		text_config(out, jsonx_get(c, "config"));
	}
}
