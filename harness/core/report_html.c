// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/report_html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/console.h"
#include "core/overlap.h"
#include "core/repro.h"
#include "core/report_parts.h"
#include "core/runread.h"
#include "util/jsonx.h"

/* Ours, constant: the only text that is not escaped (a <style> body). */
static const char page_css[] =
	":root{--pass:#116329;--pass-bg:#d3f5dc;--partial:#7a4d00;"
	"--partial-bg:#fff1b8;--fail:#a40e26;--fail-bg:#ffdadb;"
	"--skip:#4a535c;--skip-bg:#e4e8ec;--infra:#6a2fc0;--infra-bg:#efe4ff;"
	"--line:#d0d7de;--muted:#59636e}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:#f6f8fa;color:#1f2328;"
	"font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans',sans-serif}\n"
	"header,main,footer{max-width:1280px;margin:0 auto;padding:0 24px}\n"
	"header{padding-top:20px}\n"
	"h1{font-size:22px;margin:0 0 10px;overflow-wrap:anywhere}\n"
	"h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;"
	"border-bottom:1px solid var(--line)}\n"
	"h3{font-size:16px;margin:0 0 6px;display:flex;gap:10px;"
	"align-items:center;flex-wrap:wrap}\n"
	"h4{font-size:14px;margin:14px 0 6px}\n"
	"a{color:#0550ae}\n"
	"code,pre,.mono{font-family:'DejaVu Sans Mono',ui-monospace,Menlo,"
	"Consolas,monospace;font-size:12.5px}\n"
	"pre{background:#fff;border:1px solid var(--line);border-radius:6px;"
	"padding:8px 10px;overflow:auto;max-height:32em;margin:6px 0;"
	"white-space:pre-wrap;overflow-wrap:anywhere}\n"
	".status{font-size:16px;font-weight:600;padding:10px 14px;"
	"border-radius:6px;margin:0 0 12px;border:1px solid}\n"
	".status.ok{background:var(--pass-bg);color:var(--pass)}\n"
	".status.fail{background:var(--fail-bg);color:var(--fail)}\n"
	".status.infra{background:var(--infra-bg);color:var(--infra)}\n"
	".status.incomplete{background:var(--fail);color:#fff;font-size:20px;"
	"letter-spacing:.02em;border-color:var(--fail)}\n"
	"table{border-collapse:collapse;background:#fff}\n"
	"th,td{border:1px solid var(--line);padding:5px 8px;text-align:left;"
	"vertical-align:top;overflow-wrap:break-word}\n"
	"thead th{background:#eef1f4}\n"
	"table.meta th{background:#eef1f4;white-space:nowrap;width:1%}\n"
	"table.meta{width:100%}\n"
	"table.list{width:100%}\n"
	".badge{display:inline-block;font-weight:700;font-size:12px;"
	"padding:1px 7px;border-radius:10px;border:1px solid;"
	"white-space:nowrap;letter-spacing:.02em}\n"
	".v-pass{background:var(--pass-bg);color:var(--pass);"
	"border-color:var(--pass)}\n"
	".v-partial{background:var(--partial-bg);color:var(--partial);"
	"border-color:var(--partial)}\n"
	".v-fail{background:var(--fail-bg);color:var(--fail);"
	"border-color:var(--fail)}\n"
	".v-skip,.v-none{background:var(--skip-bg);color:var(--skip);"
	"border-color:var(--skip)}\n"
	".v-infra{background:var(--infra-bg);color:var(--infra);"
	"border-color:var(--infra)}\n"
	"table.matrix{min-width:50%}\n"
	"table.matrix th[scope=row]{white-space:nowrap}\n"
	"table.matrix td.cell{min-width:200px;border:1px solid var(--line);"
	"border-left:6px solid}\n"
	"td.cell.v-pass{border-left-color:var(--pass)}\n"
	"td.cell.v-partial{border-left-color:var(--partial)}\n"
	"td.cell.v-fail{border-left-color:var(--fail)}\n"
	"td.cell.v-skip,td.cell.v-none{border-left-color:var(--skip)}\n"
	"td.cell .verdict{font-weight:800;font-size:15px}\n"
	"td.cell .stage{font-size:12px;text-transform:uppercase;"
	"letter-spacing:.04em}\n"
	"td.cell .why{color:#1f2328;margin:2px 0}\n"
	"td.cell a{font-size:12px}\n"
	".legend{color:var(--muted);font-size:12.5px}\n"
	".legend .badge{margin-right:4px}\n"
	".counts .badge{margin-right:6px;font-size:13px}\n"
	"nav{margin:8px 0 0}\n"
	"nav a{margin-right:12px}\n"
	"section.boot{background:#fff;border:1px solid var(--line);"
	"border-radius:8px;padding:14px 16px;margin:16px 0}\n"
	"section.boot table{width:100%}\n"
	".sub,.muted{color:var(--muted)}\n"
	".problem{border-left:4px solid var(--fail);padding:2px 0 2px 10px;"
	"margin:10px 0}\n"
	".problem.allowed{border-left-color:var(--skip)}\n"
	".ptitle{font-weight:600;margin:0;overflow-wrap:anywhere}\n"
	".kind{font-weight:800;color:var(--fail);margin-right:6px}\n"
	".files a{margin-right:14px}\n"
	"details>summary{cursor:pointer;color:#0550ae;margin:6px 0}\n"
	"ul.checks{margin:4px 0;padding-left:20px}\n"
	"ul.checks li{margin:2px 0}\n"
	".diag{color:var(--muted);font-size:12.5px;white-space:pre-wrap}\n"
	"footer{color:var(--muted);font-size:12.5px;padding:24px}\n"
	".costs{display:grid;grid-template-columns:repeat(auto-fill,"
	"minmax(460px,1fr));gap:12px}\n"
	"figure.cost{margin:0;background:#fff;border:1px solid var(--line);"
	"border-radius:6px;padding:8px}\n"
	"figure.cost figcaption{font-weight:600;margin-bottom:4px}\n"
	"svg.costchart text{font-size:12px;fill:#1f2328}\n"
	".c-more{color:#c8553d}.c-less{color:#2e8b57}.c-none{color:#9aa4ad}\n";

/* ------------------------------------------------------------ verdicts */

const char *report_class(const struct report_class *map, size_t n,
			 const char *v, const char *other)
{
	if (!v)
		return "v-none";
	for (size_t i = 0; i < n; i++)
		if (!strcmp(map[i].v, v))
			return map[i].cls;
	return other;
}

static const char *group_class(const char *v)
{
	static const struct report_class map[] = {
		{ "PASS", "v-pass" },
		{ "PARTIAL", "v-partial" },
		{ "FAIL", "v-fail" },
	};

	return report_class(map, ELEMENTSOF(map), v, "v-skip");
}

/* ------------------------------------------------------------ helpers */

bool report_file_exists(const struct report_page *h, const char *rel)
{
	return !h->ops || !h->ops->exists || h->ops->exists(h->ops->ud, rel);
}

void report_file_link(const struct report_page *h, xmlNodePtr parent,
		      const char *rel, const char *label)
{
	_cleanup_strbuf_ struct strbuf href = STRBUF_INIT;
	xmlNodePtr a;

	if (!rel)
		return;
	if (!report_file_exists(h, rel)) {
		xmlNodePtr s = html_elc(parent, "span", "muted");
		html_attr(s, "title", rel);
		html_textf(s, "%s (missing)", label);
		return;
	}
	/* "./" keeps a name such as "x:y" from reading as a URL scheme
	 * (runread refuses ':' anyway). */
	strbuf_addf(&href, "./%s", rel);
	a = html_el(parent, "a");
	html_attr(a, "href", href.buf);
	html_text(a, label);
}

static bool parse_iso(const char *s, time_t *ret)
{
	struct tm tm = { 0 };
	const char *end;

	if (!s)
		return false;
	end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return false;
	*ret = timegm(&tm);
	return true;
}

void report_duration(struct strbuf *sb, double s)
{
	long t;

	/* Out of range (or NaN): as it is, never through an integer. */
	if (!(s >= 60 && s < 1e9)) {
		strbuf_addf(sb, "%.1f s", s);
		return;
	}
	t = (long)s;
	if (t >= 3600)
		strbuf_addf(sb, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60,
			    t % 60);
	else
		strbuf_addf(sb, "%ldm%02lds", t / 60, t % 60);
}

void report_join(json_object *o, const char *key, const char *sep,
		 struct strbuf *sb)
{
	for (size_t i = 0; i < jsonx_len(o, key); i++) {
		json_object *e = jsonx_at(o, key, i);
		if (i)
			strbuf_addstr(sb, sep);
		strbuf_addstr(sb, json_object_get_string(e));
	}
}

void report_scenario_list(json_object *o, struct strbuf *sb)
{
	for (size_t k = 0; k < jsonx_len(o, "scenarios"); k++) {
		json_object *sc = jsonx_at(o, "scenarios", k);

		strbuf_addf(sb, "%s%s %s", k ? ", " : "", jsonx_str(sc, "name"),
			    jsonx_str(sc, "result"));
	}
}

/* The command line, arguments quoted when they need it (text only). */
static void command_line(json_object *run, struct strbuf *sb)
{
	strbuf_addstr(sb, "bootproof");
	for (size_t i = 0; i < jsonx_len(run, "argv"); i++) {
		strbuf_addch(sb, ' ');
		repro_quote(sb, json_object_get_string(jsonx_at(run, "argv", i)));
	}
}

void report_reproduce(xmlNodePtr parent, json_object *o)
{
	xmlNodePtr d = html_elc(parent, "div", "why");

	html_text(html_elc(d, "span", "muted"), "reproduce: ");
	html_jtext(html_elc(d, "code", NULL), o, "reproduce");
}

/* An anchor id from free text: [A-Za-z0-9_-] kept, others '_'. */
static char *make_anchor(size_t i, const char *key)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "boot-%zu-", i + 1);
	for (const char *c = key; *c && sb.len < 80; c++)
		strbuf_addch(&sb, ((*c >= 'a' && *c <= 'z') ||
				   (*c >= 'A' && *c <= 'Z') ||
				   (*c >= '0' && *c <= '9') || *c == '-' ||
				   *c == '_')
					  ? *c
					  : '_');
	return strbuf_detach(&sb, NULL);
}

/* Index of the boot record whose candidate id is id, or -1. */
static long boot_by_candidate(struct report_page *h, const char *id)
{
	if (!id)
		return -1;
	for (size_t i = 0; i < jsonx_len(h->run, "boots"); i++) {
		json_object *b = jsonx_at(h->run, "boots", i);
		const char *cid = jsonx_str(jsonx_get(b, "candidate"), "id");
		if (cid && !strcmp(cid, id))
			return (long)i;
	}
	return -1;
}

static void boot_link(struct report_page *h, xmlNodePtr parent, const char *id)
{
	long i = boot_by_candidate(h, id);
	_cleanup_strbuf_ struct strbuf href = STRBUF_INIT;
	xmlNodePtr a;

	if (!id)
		return;
	if (i < 0) {
		html_elt(parent, "span", "muted", id);
		return;
	}
	strbuf_addf(&href, "#%s", h->anchors[i]);
	a = html_el(parent, "a");
	html_attr(a, "href", href.buf);
	html_text(a, id);
}

/* Unique strings in order of appearance: the preferred list, then those
 * found in arr[*].key. */
struct names {
	const char **v;
	size_t n;
};

static void names_add(struct names *nm, const char *s)
{
	const char **v;

	if (!s)
		return;
	for (size_t i = 0; i < nm->n; i++)
		if (!strcmp(nm->v[i], s))
			return;
	v = realloc(nm->v, (nm->n + 1) * sizeof(*v));
	if (!v)
		abort();
	nm->v = v;
	nm->v[nm->n++] = s;
}

static json_object *group_entry(struct report_page *h, const char *group,
				const char *arch)
{
	for (size_t i = 0; i < jsonx_len(h->run, "groups"); i++) {
		json_object *g = jsonx_at(h->run, "groups", i);
		if (!strcmp(jsonx_str(g, "group"), group) &&
		    !strcmp(jsonx_str(g, "arch"), arch))
			return g;
	}
	return NULL;
}

/* ------------------------------------------------------------ header */

static void render_status(struct report_page *h, xmlNodePtr parent)
{
	static const struct {
		int64_t code;
		const char *cls, *text;
	} exits[] = {
		{ 0, "status ok", "Complete: exit 0, everything passed" },
		{ 1, "status fail",
		  "Complete: exit 1, a kernel, config or scenario failure" },
		{ 2, "status fail", "Complete: exit 2, bad usage or input" },
		{ 3, "status infra", "Complete: exit 3, an infrastructure "
				     "problem (the host, not the kernel)" },
	};
	json_object *run = h->run;
	bool complete = jsonx_bool(run, "complete", false);
	json_object *ec = jsonx_get(run, "exit_code");
	int64_t code = ec && json_object_is_type(ec, json_type_int)
			       ? json_object_get_int64(ec)
			       : -1;
	xmlNodePtr p;

	if (!complete) {
		p = html_elc(parent, "p", "status incomplete");
		html_text(p,
			  "INCOMPLETE: this run was interrupted, killed or is "
			  "still running. Below is what it recorded; missing "
			  "results are not passes.");
		return;
	}
	for (size_t i = 0; i < ELEMENTSOF(exits); i++)
		if (exits[i].code == code) {
			html_elt(parent, "p", exits[i].cls, exits[i].text);
			return;
		}
	p = html_elc(parent, "p", "status fail");
	if (code < 0)
		html_text(p, "Complete, no exit code recorded");
	else
		html_textf(p, "Complete: exit %" PRId64, code);
}

static void render_header(struct report_page *h, xmlNodePtr body)
{
	json_object *run = h->run, *host = jsonx_get(run, "host");
	json_object *plan = jsonx_get(run, "plan");
	xmlNodePtr hd = html_el(body, "header"), t, td, h1;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	time_t t0, t1;

	h1 = html_el(hd, "h1");
	html_textf(h1, "bootproof %s ",
		   runread_is_matrix(run) ? "run" : "boot");
	html_jtext(h1, run, "run_id");
	render_status(h, hd);

	t = html_elc(hd, "table", "meta");
	command_line(run, &sb);
	td = html_row(t, "command");
	html_text(html_elc(td, "code", NULL), sb.buf);
	td = html_row(t, "started");
	html_jtext(td, run, "started");
	td = html_row(t, "finished");
	if (!html_jtext(td, run, "finished"))
		html_text(td, "not finished");
	if (parse_iso(jsonx_str(run, "started"), &t0) &&
	    parse_iso(jsonx_str(run, "finished"), &t1) && t1 >= t0) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, " (");
		report_duration(&sb, (double)(t1 - t0));
		strbuf_addch(&sb, ')');
		html_text(td, sb.buf);
	}
	strbuf_reset(&sb);
	overlap_times_line(jsonx_get(run, "times"), &sb);	/* "" without */
	if (sb.len)
		html_text(html_row(t, "time"), sb.buf);
	if (host) {
		td = html_row(t, "host");
		if (!html_jtext(td, host, "hostname"))
			html_text(td, "?");
		td = html_row(t, "accelerator");
		html_text(html_elc(td, "b", NULL),
			  jsonx_str(host, "accel") ?: "?");
		if (jsonx_str(host, "accel_reason")) {
			html_text(td, ": ");
			html_jtext(td, host, "accel_reason");
		}
		if (jsonx_str(host, "libvirt_uri")) {
			td = html_row(t, "libvirt");
			html_jtext(td, host, "libvirt_uri");
		}
	}
	if (plan) {
		td = html_row(t, "plan");
		if (!html_jtext(td, plan, "name"))
			html_text(td, "?");
		if (jsonx_str(plan, "file")) {
			html_text(td, " (");
			html_jtext(td, plan, "file");
			html_text(td, ")");
		}
		td = html_row(t, "base");
		html_jtext(td, plan, "base");
		if (jsonx_len(plan, "base_groups")) {
			strbuf_reset(&sb);
			report_join(plan, "base_groups", ", ", &sb);
			html_textf(td, " with %s", sb.buf);
		}
		strbuf_reset(&sb);
		report_join(plan, "arches", ", ", &sb);
		html_text(html_row(t, "arches"), sb.buf);
		strbuf_reset(&sb);
		report_join(plan, "groups", ", ", &sb);
		html_text(html_row(t, "groups"), sb.buf);
		strbuf_reset(&sb);
		report_join(plan, "candidates", ", ", &sb);
		if (sb.len)
			html_text(html_row(t, "candidates"), sb.buf);
		if (jsonx_str(plan, "ksrc"))
			html_jtext(html_row(t, "kernel source"), plan, "ksrc");
	}
}

/* ------------------------------------------------------------ matrix */

static void render_counts(struct report_page *h, xmlNodePtr parent)
{
	static const char *const v[] = { "PASS", "PARTIAL", "FAIL", "SKIP" };
	size_t n[4] = { 0 };
	xmlNodePtr p = html_elc(parent, "p", "counts");

	for (size_t i = 0; i < jsonx_len(h->run, "groups"); i++) {
		const char *g = jsonx_str(jsonx_at(h->run, "groups", i),
					    "verdict");
		for (size_t k = 0; k < 4; k++)
			if (!strcmp(g, v[k]))
				n[k]++;
	}
	for (size_t k = 0; k < 4; k++) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%zu %s", n[k], v[k]);
		html_badge(p, group_class(v[k]), sb.buf);
	}
}

static void render_matrix(struct report_page *h, xmlNodePtr main_)
{
	static const struct {
		const char *verdict, *text;
	} legend[] = {
		{ "PASS", "options kept, kernel built and booted, the group's "
			  "scenarios passed. " },
		{ "PARTIAL", "some options dropped (with reasons), scenarios "
			     "passed. " },
		{ "FAIL", "the stage named failed, for the reason given. " },
		{ "SKIP", "nothing could prove it (e.g. its scenarios "
			  "skipped)." },
	};
	json_object *plan = jsonx_get(h->run, "plan");
	struct names arches = { 0 }, groups = { 0 };
	xmlNodePtr sec, table, tr, p;

	for (size_t i = 0; i < jsonx_len(plan, "arches"); i++)
		names_add(&arches, json_object_get_string(
					   jsonx_at(plan, "arches", i)));
	for (size_t i = 0; i < jsonx_len(plan, "groups"); i++)
		names_add(&groups, json_object_get_string(
					   jsonx_at(plan, "groups", i)));
	for (size_t i = 0; i < jsonx_len(h->run, "groups"); i++) {
		json_object *g = jsonx_at(h->run, "groups", i);
		names_add(&groups, jsonx_str(g, "group"));
		names_add(&arches, jsonx_str(g, "arch"));
	}

	sec = html_el(main_, "section");
	html_attr(sec, "id", "matrix");
	html_elt(sec, "h2", NULL, "Option groups × architectures");
	render_counts(h, sec);
	if (!groups.n || !arches.n) {
		html_elt(sec, "p", "muted", "This run has no group verdicts.");
		goto out;
	}
	table = html_elc(sec, "table", "matrix");
	tr = html_el(html_el(table, "thead"), "tr");
	html_elt(tr, "th", NULL, "group");
	for (size_t a = 0; a < arches.n; a++)
		html_elt(tr, "th", NULL, arches.v[a]);
	table = html_el(table, "tbody");
	for (size_t g = 0; g < groups.n; g++) {
		xmlNodePtr th;

		tr = html_el(table, "tr");
		th = html_elt(tr, "th", NULL, groups.v[g]);
		html_attr(th, "scope", "row");
		for (size_t a = 0; a < arches.n; a++) {
			json_object *e =
			    group_entry(h, groups.v[g], arches.v[a]);
			const char *v = jsonx_str(e, "verdict");
			_cleanup_strbuf_ struct strbuf cls = STRBUF_INIT;
			xmlNodePtr td;

			strbuf_addf(&cls, "cell %s", group_class(v));
			td = html_elc(tr, "td", cls.buf);
			html_attr(td, "data-group", groups.v[g]);
			html_attr(td, "data-arch", arches.v[a]);
			if (!e) {
				html_elt(td, "div", "verdict", "—");
				html_elt(td, "div", "why muted",
					 "not in this run");
				continue;
			}
			html_elt(td, "div", "verdict", v);
			if (jsonx_str(e, "stage")) {
				xmlNodePtr d = html_elc(td, "div", "stage");
				html_textf(d, "at %s", jsonx_str(e, "stage"));
			}
			if (jsonx_str(e, "reason"))
				html_jtext(html_elc(td, "div", "why"), e,
					   "reason");
			if (jsonx_len(e, "dropped")) {
				xmlNodePtr d = html_elc(td, "div", "why");
				_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
				for (size_t k = 0; k < jsonx_len(e, "dropped");
				     k++)
					strbuf_addf(
					    &sb, "%s%s", k ? ", " : "",
					    jsonx_str(jsonx_at(e, "dropped", k),
						      "option"));
				html_textf(d, "dropped: %s", sb.buf);
			}
			if (jsonx_len(e, "scenarios")) {
				xmlNodePtr d = html_elc(td, "div", "why");
				_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

				report_scenario_list(e, &sb);
				html_textf(d, "scenarios: %s", sb.buf);
			}
			if (jsonx_str(e, "candidate"))
				boot_link(h, html_el(td, "div"),
					  jsonx_str(e, "candidate"));
			if (jsonx_str(e, "reproduce"))
				report_reproduce(td, e);
		}
	}
	p = html_elc(sec, "p", "legend");
	for (size_t i = 0; i < ELEMENTSOF(legend); i++) {
		html_badge(p, group_class(legend[i].verdict),
			   legend[i].verdict);
		html_text(p, legend[i].text);
	}
out:
	free(arches.v);
	free(groups.v);
}

/* The option record of boot record b for option (and group). */
static json_object *find_option(json_object *b, const char *option,
				const char *group)
{
	json_object *cfg = jsonx_get(b, "config");

	for (size_t i = 0; i < jsonx_len(cfg, "options"); i++) {
		json_object *o = jsonx_at(cfg, "options", i);
		const char *g = jsonx_str(o, "group");
		if (!strcmp(jsonx_str(o, "option"), option) &&
		    (!group || !g || !strcmp(g, group)))
			return o;
	}
	return NULL;
}

void report_option_cell(xmlNodePtr tr, const char *option, json_object *o)
{
	xmlNodePtr td = html_el(tr, "td");

	html_textf(html_elc(td, "code", NULL), "CONFIG_%s", option);
	if (jsonx_str(o, "source"))
		html_jtext(html_elc(td, "div", "muted mono"), o, "source");
}

void report_value_cell(xmlNodePtr tr, json_object *o)
{
	xmlNodePtr td = html_elc(tr, "td", "mono");
	const char *req = jsonx_str(o, "requested");
	const char *fin = jsonx_str(o, "final");

	if (o)
		html_textf(td, "%s → %s", req ? req : "(unset)",
			   fin ? fin : "(not set)");
}

void report_why_cell(xmlNodePtr tr, json_object *first, json_object *o,
		     bool with_detail)
{
	xmlNodePtr td = html_el(tr, "td");

	if (jsonx_str(o, "reason_kind")) {
		html_jtext(html_elc(td, "b", NULL), o, "reason_kind");
		html_text(td, ": ");
	}
	if (!html_jtext(td, first, "reason"))
		html_jtext(td, o, "reason");
	if (with_detail && jsonx_str(o, "detail"))
		html_jtext(html_elc(td, "pre", NULL), o, "detail");
}

/* A new row of the options table under sec, *table, made on the first
 * call with these two columns first. */
static xmlNodePtr option_row(xmlNodePtr sec, xmlNodePtr *table,
			     const char *first, const char *second)
{
	const char *const cols[] = { first, second, "option",
				     "requested → final", "why" };

	if (!*table)
		*table = html_thead(html_elc(sec, "table", "list"), cols,
				    ELEMENTSOF(cols));
	return html_el(*table, "tr");
}

/* The option, value and why cells of a row of it. */
static void option_cells(xmlNodePtr tr, const char *option,
			 json_object *first, json_object *o, bool with_detail)
{
	report_option_cell(tr, option, o);
	report_value_cell(tr, o);
	report_why_cell(tr, first, o, with_detail);
}

static void render_dropped(struct report_page *h, xmlNodePtr main_)
{
	xmlNodePtr sec = html_el(main_, "section"), table = NULL, tr;
	size_t n = 0;

	html_attr(sec, "id", "dropped");
	html_elt(sec, "h2", NULL, "Dropped options");
	for (size_t i = 0; i < jsonx_len(h->run, "groups"); i++) {
		json_object *g = jsonx_at(h->run, "groups", i);
		long bi = boot_by_candidate(h, jsonx_str(g, "candidate"));
		json_object *b = bi >= 0 ? jsonx_at(h->run, "boots", (size_t)bi)
					 : NULL;

		for (size_t k = 0; k < jsonx_len(g, "dropped"); k++) {
			json_object *d = jsonx_at(g, "dropped", k), *o;

			tr = option_row(sec, &table, "group", "arch");
			o = find_option(b, jsonx_str(d, "option"),
					jsonx_str(g, "group"));
			html_jtext(html_el(tr, "td"), g, "group");
			html_jtext(html_el(tr, "td"), g, "arch");
			option_cells(tr, jsonx_str(d, "option"), d, o, true);
			n++;
		}
	}
	if (!n)
		html_elt(sec, "p", "muted", "No requested option was dropped.");
}

static void render_stale(struct report_page *h, xmlNodePtr main_)
{
	xmlNodePtr sec = html_el(main_, "section"), table = NULL, tr;
	_cleanup_strbuf_ struct strbuf seen = STRBUF_INIT, key = STRBUF_INIT;
	size_t n = 0;

	html_attr(sec, "id", "stale");
	strbuf_addch(&seen, '\n'); /* every key is "\n...\n" */
	html_elt(sec, "h2", NULL, "Stale options in the base configuration");
	for (size_t i = 0; i < jsonx_len(h->run, "boots"); i++) {
		json_object *b = jsonx_at(h->run, "boots", i);
		json_object *cfg = jsonx_get(b, "config");
		json_object *cand = jsonx_get(b, "candidate");
		const char *arch = jsonx_str(cand, "arch") ?:
				   jsonx_str(b, "arch") ?: "?";

		for (size_t k = 0; k < jsonx_len(cfg, "stale_base"); k++) {
			json_object *o = jsonx_at(cfg, "stale_base", k);

			/* Every candidate of an arch has the same base. */
			strbuf_reset(&key);
			strbuf_addf(&key, "\n%s\t%s\t%s\n", arch,
				    jsonx_str(cand, "base") ?: "",
				    jsonx_str(o, "option"));
			if (strstr(seen.buf, key.buf))
				continue;
			strbuf_add(&seen, key.buf + 1, key.len - 1);
			tr = option_row(sec, &table, "arch", "base");
			html_text(html_el(tr, "td"), arch);
			html_jtext(html_el(tr, "td"), cand, "base");
			option_cells(tr, jsonx_str(o, "option"), NULL, o, false);
			n++;
		}
	}
	if (!n)
		html_elt(sec, "p", "muted",
			 "The base configuration has no stale option.");
}

static void render_footer(struct report_page *h, xmlNodePtr body)
{
	xmlNodePtr f = html_el(body, "footer");

	html_text(f, "Written by bootproof report from ");
	report_file_link(h, f, "run.json", "run.json");
	if (report_file_exists(h, "junit.xml")) {
		html_text(f, " (JUnit: ");
		report_file_link(h, f, "junit.xml", "junit.xml");
		html_text(f, ")");
	}
	html_text(f, ". docs/report.md describes this page.");
}

static void render_page(struct report_page *h, xmlNodePtr html)
{
	static const struct {
		const char *href, *label;
	} sections[] = {
		{ "#matrix", "matrix" },
		{ "#costs", "costs" },
		{ "#dropped", "dropped options" },
		{ "#stale", "stale base options" },
		{ "#boots", "candidates" },
	};
	xmlNodePtr head, body, n, main_, nav;
	bool matrix = runread_is_matrix(h->run);
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;

	head = html_el(html, "head");
	n = html_el(head, "meta");
	html_attr(n, "charset", "utf-8");
	n = html_el(head, "meta");
	html_attr(n, "name", "viewport");
	html_attr(n, "content", "width=device-width, initial-scale=1");
	n = html_el(head, "meta");
	html_attr(n, "name", "generator");
	html_attr(n, "content", "bootproof");
	strbuf_addf(
	    &title, "bootproof %s: %s", jsonx_str(h->run, "run_id"),
	    !jsonx_bool(h->run, "complete", false) ? "INCOMPLETE"
	    : jsonx_get(h->run, "exit_code") &&
		    json_object_get_int(jsonx_get(h->run, "exit_code")) == 0
		? "passed"
		: "failed");
	html_text(html_el(head, "title"), title.buf);
	n = html_el(head, "style");
	if (n)
		xmlNodeAddContent(n, BAD_CAST page_css);

	body = html_el(html, "body");
	render_header(h, body);
	if (matrix) {
		nav = html_el(xmlGetLastChild(body), "nav");
		for (size_t i = 0; i < ELEMENTSOF(sections); i++) {
			if (!strcmp(sections[i].href, "#costs") &&
			    !jsonx_get(h->run, "costs"))
				continue;
			n = html_el(nav, "a");
			html_attr(n, "href", sections[i].href);
			html_text(n, sections[i].label);
		}
	}
	main_ = html_el(body, "main");
	if (matrix) {
		render_matrix(h, main_);
		report_costs(h, main_);
		render_dropped(h, main_);
		render_stale(h, main_);
	}
	report_boots(h, main_);
	render_footer(h, body);
}

int report_html_render(json_object *doc, const struct report_html_ops *ops,
		       char **ret, size_t *ret_len)
{
	struct report_page h = { .run = doc, .ops = ops };
	htmlDocPtr hd;
	xmlNodePtr root;
	int r;

	if (!doc || !json_object_is_type(doc, json_type_object))
		return -EINVAL;
	h.n_anchors = jsonx_len(doc, "boots");
	h.anchors = calloc(h.n_anchors + 1, sizeof(*h.anchors));
	if (!h.anchors)
		return -ENOMEM;
	for (size_t i = 0; i < h.n_anchors; i++) {
		_cleanup_strbuf_ struct strbuf key = STRBUF_INIT;
		runread_boot_key(doc, i, &key);
		h.anchors[i] = make_anchor(i, key.buf);
	}
	hd = html_doc_new("en", &root);
	if (hd) {
		render_page(&h, root);
		r = h.oom ? -ENOMEM : html_doc_dump(hd, ret, ret_len);
		xmlFreeDoc(hd);
	} else {
		r = -ENOMEM;
	}
	for (size_t i = 0; i < h.n_anchors; i++)
		free(h.anchors[i]);
	free(h.anchors);
	return r;
}
