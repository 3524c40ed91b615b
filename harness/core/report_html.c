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
#include "core/html.h"
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
	"footer{color:var(--muted);font-size:12.5px;padding:24px}\n";

struct rh {
	json_object *run;
	const struct report_html_ops *ops;
	bool oom;
	/* Anchor of each boot record, by index. */
	char **anchors;
	size_t n_anchors;
};

/* ------------------------------------------------------------ verdicts */

static const char *group_class(const char *v)
{
	if (!v)
		return "v-none";
	if (!strcmp(v, "PASS"))
		return "v-pass";
	if (!strcmp(v, "PARTIAL"))
		return "v-partial";
	if (!strcmp(v, "FAIL"))
		return "v-fail";
	return "v-skip";
}

static const char *boot_class(const char *v)
{
	if (!v)
		return "v-none";
	if (!strcmp(v, "BOOTED"))
		return "v-pass";
	if (!strcmp(v, "INFRA"))
		return "v-infra";
	if (!strcmp(v, "INCOMPLETE") || !strcmp(v, "RUNNING"))
		return "v-skip";
	return "v-fail";
}

static const char *result_class(const char *r)
{
	if (!r)
		return "v-none";
	if (!strcmp(r, "pass") || !strcmp(r, "reused") || !strcmp(r, "kept"))
		return "v-pass";
	if (!strcmp(r, "partial") || !strcmp(r, "changed") ||
	    !strcmp(r, "absent") || !strcmp(r, "demoted"))
		return "v-partial";
	if (!strcmp(r, "fail") || !strcmp(r, "error"))
		return "v-fail";
	return "v-skip";
}

/* ------------------------------------------------------------ helpers */

static bool file_exists(struct rh *h, const char *rel)
{
	return !h->ops || !h->ops->exists || h->ops->exists(h->ops->ud, rel);
}

/* A link to a file of the run directory, or its name when missing. */
static void file_link(struct rh *h, xmlNodePtr parent, const char *rel,
		      const char *label)
{
	_cleanup_strbuf_ struct strbuf href = STRBUF_INIT;
	xmlNodePtr a;

	if (!rel)
		return;
	if (!file_exists(h, rel)) {
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

static void duration(struct strbuf *sb, double s)
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

static void join_strings(json_object *o, const char *key, const char *sep,
			 struct strbuf *sb)
{
	for (size_t i = 0; i < jsonx_len(o, key); i++) {
		json_object *e = jsonx_at(o, key, i);
		if (i)
			strbuf_addstr(sb, sep);
		strbuf_addstr(sb, json_object_get_string(e));
	}
}

/* The command line, arguments quoted when they need it (text only). */
static void command_line(json_object *run, struct strbuf *sb)
{
	strbuf_addstr(sb, "bootproof");
	for (size_t i = 0; i < jsonx_len(run, "argv"); i++) {
		const char *a = json_object_get_string(jsonx_at(run, "argv", i));
		bool plain = *a != '\0';

		for (const char *c = a; *c && plain; c++)
			plain = strchr("-_./=:,+@%", *c) ||
				(*c >= '0' && *c <= '9') ||
				(*c >= 'a' && *c <= 'z') ||
				(*c >= 'A' && *c <= 'Z');
		strbuf_addch(sb, ' ');
		if (plain) {
			strbuf_addstr(sb, a);
			continue;
		}
		strbuf_addch(sb, '\'');
		for (const char *c = a; *c; c++) {
			if (*c == '\'')
				strbuf_addstr(sb, "'\\''");
			else
				strbuf_addch(sb, *c);
		}
		strbuf_addch(sb, '\'');
	}
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
static long boot_by_candidate(struct rh *h, const char *id)
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

static void boot_link(struct rh *h, xmlNodePtr parent, const char *id)
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

static json_object *group_entry(struct rh *h, const char *group,
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

static void render_status(struct rh *h, xmlNodePtr parent)
{
	json_object *run = h->run;
	bool complete = jsonx_bool(run, "complete", false);
	json_object *ec = jsonx_get(run, "exit_code");
	int64_t code = ec && json_object_is_type(ec, json_type_int)
			       ? json_object_get_int64(ec)
			       : -1;
	xmlNodePtr p;

	if (!complete) {
		p = html_elc(parent, "p", "status incomplete");
		html_text(p, "INCOMPLETE: this run was interrupted, killed or is "
			"still running. Below is what it recorded; missing "
			"results are not passes.");
		return;
	}
	switch (code) {
	case 0:
		p = html_elc(parent, "p", "status ok");
		html_text(p, "Complete: exit 0, everything passed");
		break;
	case 1:
		p = html_elc(parent, "p", "status fail");
		html_text(p, "Complete: exit 1, a kernel, config or scenario "
			"failure");
		break;
	case 2:
		p = html_elc(parent, "p", "status fail");
		html_text(p, "Complete: exit 2, bad usage or input");
		break;
	case 3:
		p = html_elc(parent, "p", "status infra");
		html_text(p, "Complete: exit 3, an infrastructure problem (the "
			"host, not the kernel)");
		break;
	default:
		p = html_elc(parent, "p", "status fail");
		if (code < 0)
			html_text(p, "Complete, no exit code recorded");
		else
			html_textf(p, "Complete: exit %" PRId64, code);
	}
}

static void render_header(struct rh *h, xmlNodePtr body)
{
	json_object *run = h->run, *host = jsonx_get(run, "host");
	json_object *plan = jsonx_get(run, "plan");
	xmlNodePtr hd = html_el(body, "header"), t, td, h1;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	time_t t0, t1;

	h1 = html_el(hd, "h1");
	html_textf(h1, "bootproof %s ", runread_is_matrix(run) ? "run" : "boot");
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
		duration(&sb, (double)(t1 - t0));
		strbuf_addch(&sb, ')');
		html_text(td, sb.buf);
	}
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
			join_strings(plan, "base_groups", ", ", &sb);
			html_textf(td, " with %s", sb.buf);
		}
		strbuf_reset(&sb);
		join_strings(plan, "arches", ", ", &sb);
		html_text(html_row(t, "arches"), sb.buf);
		strbuf_reset(&sb);
		join_strings(plan, "groups", ", ", &sb);
		html_text(html_row(t, "groups"), sb.buf);
		strbuf_reset(&sb);
		join_strings(plan, "candidates", ", ", &sb);
		if (sb.len)
			html_text(html_row(t, "candidates"), sb.buf);
		if (jsonx_str(plan, "ksrc"))
			html_jtext(html_row(t, "kernel source"), plan, "ksrc");
	}
}

/* ------------------------------------------------------------ matrix */

static void render_counts(struct rh *h, xmlNodePtr parent)
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

static void render_matrix(struct rh *h, xmlNodePtr main_)
{
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
			json_object *e = group_entry(h, groups.v[g], arches.v[a]);
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
				html_jtext(html_elc(td, "div", "why"), e, "reason");
			if (jsonx_len(e, "dropped")) {
				xmlNodePtr d = html_elc(td, "div", "why");
				_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
				for (size_t k = 0; k < jsonx_len(e, "dropped"); k++)
					strbuf_addf(&sb, "%s%s", k ? ", " : "",
						    jsonx_str(jsonx_at(e, "dropped", k),
								"option"));
				html_textf(d, "dropped: %s", sb.buf);
			}
			if (jsonx_len(e, "scenarios")) {
				xmlNodePtr d = html_elc(td, "div", "why");
				_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
				for (size_t k = 0; k < jsonx_len(e, "scenarios"); k++) {
					json_object *sc = jsonx_at(e, "scenarios", k);
					strbuf_addf(&sb, "%s%s %s", k ? ", " : "",
						    jsonx_str(sc, "name"),
						    jsonx_str(sc, "result"));
				}
				html_textf(d, "scenarios: %s", sb.buf);
			}
			if (jsonx_str(e, "candidate"))
				boot_link(h, html_el(td, "div"),
					  jsonx_str(e, "candidate"));
		}
	}
	p = html_elc(sec, "p", "legend");
	html_badge(p, "v-pass", "PASS");
	html_text(p, "options kept, kernel built and booted, the group's "
		"scenarios passed. ");
	html_badge(p, "v-partial", "PARTIAL");
	html_text(p, "some options dropped (with reasons), scenarios passed. ");
	html_badge(p, "v-fail", "FAIL");
	html_text(p, "the stage named failed, for the reason given. ");
	html_badge(p, "v-skip", "SKIP");
	html_text(p, "nothing could prove it (e.g. its scenarios skipped).");
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

static void value_change(xmlNodePtr td, json_object *o)
{
	const char *req = jsonx_str(o, "requested");
	const char *fin = jsonx_str(o, "final");

	html_textf(td, "%s → %s", req ? req : "(unset)",
	      fin ? fin : "(not set)");
}

static void render_dropped(struct rh *h, xmlNodePtr main_)
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
			xmlNodePtr td;

			if (!table) {
				table = html_elc(sec, "table", "list");
				tr = html_el(html_el(table, "thead"), "tr");
				html_elt(tr, "th", NULL, "group");
				html_elt(tr, "th", NULL, "arch");
				html_elt(tr, "th", NULL, "option");
				html_elt(tr, "th", NULL, "requested → final");
				html_elt(tr, "th", NULL, "why");
				table = html_el(table, "tbody");
			}
			o = find_option(b, jsonx_str(d, "option"),
					jsonx_str(g, "group"));
			tr = html_el(table, "tr");
			html_jtext(html_el(tr, "td"), g, "group");
			html_jtext(html_el(tr, "td"), g, "arch");
			td = html_el(tr, "td");
			html_textf(html_elc(td, "code", NULL), "CONFIG_%s",
			      jsonx_str(d, "option"));
			if (o && jsonx_str(o, "source")) {
				xmlNodePtr s = html_elc(td, "div", "muted mono");
				html_jtext(s, o, "source");
			}
			td = html_elc(tr, "td", "mono");
			if (o)
				value_change(td, o);
			td = html_el(tr, "td");
			if (o && jsonx_str(o, "reason_kind")) {
				html_jtext(html_elc(td, "b", NULL), o, "reason_kind");
				html_text(td, ": ");
			}
			if (!html_jtext(td, d, "reason"))
				html_jtext(td, o, "reason");
			if (o && jsonx_str(o, "detail"))
				html_jtext(html_elc(td, "pre", NULL), o, "detail");
			n++;
		}
	}
	if (!n)
		html_elt(sec, "p", "muted",
		    "No requested option was dropped.");
}

static void render_stale(struct rh *h, xmlNodePtr main_)
{
	xmlNodePtr sec = html_el(main_, "section"), table = NULL, tr, td;
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
			if (!table) {
				table = html_elc(sec, "table", "list");
				tr = html_el(html_el(table, "thead"), "tr");
				html_elt(tr, "th", NULL, "arch");
				html_elt(tr, "th", NULL, "base");
				html_elt(tr, "th", NULL, "option");
				html_elt(tr, "th", NULL, "requested → final");
				html_elt(tr, "th", NULL, "why");
				table = html_el(table, "tbody");
			}
			tr = html_el(table, "tr");
			html_text(html_el(tr, "td"), arch);
			html_jtext(html_el(tr, "td"), cand, "base");
			td = html_el(tr, "td");
			html_textf(html_elc(td, "code", NULL), "CONFIG_%s",
			      jsonx_str(o, "option"));
			if (jsonx_str(o, "source"))
				html_jtext(html_elc(td, "div", "muted mono"), o,
				      "source");
			value_change(html_elc(tr, "td", "mono"), o);
			td = html_el(tr, "td");
			if (jsonx_str(o, "reason_kind")) {
				html_jtext(html_elc(td, "b", NULL), o, "reason_kind");
				html_text(td, ": ");
			}
			html_jtext(td, o, "reason");
			n++;
		}
	}
	if (!n)
		html_elt(sec, "p", "muted",
		    "The base configuration has no stale option.");
}

/* ------------------------------------------------------------ boots */

/* The KTAP tests in o[key] (a scenario's "checks", a test's "subtests"),
 * with their diagnostics, nested. */
static void render_checks(struct rh *h, xmlNodePtr parent, json_object *o,
			  const char *key)
{
	xmlNodePtr ul;

	if (!jsonx_len(o, key))
		return;
	ul = html_elc(parent, "ul", "checks");
	for (size_t i = 0; i < jsonx_len(o, key); i++) {
		json_object *c = jsonx_at(o, key, i);
		xmlNodePtr li = html_el(ul, "li");
		const char *st = jsonx_str(c, "status");

		html_badge(li, result_class(st), st ? st : "?");
		if (jsonx_str(c, "name") && *jsonx_str(c, "name")) {
			html_text(li, " ");
			html_jtext(html_elc(li, "code", NULL), c, "name");
		}
		if (jsonx_str(c, "directive")) {
			html_text(li, " # ");
			html_jtext(li, c, "directive");
		}
		if (jsonx_str(c, "reason")) {
			html_text(li, ": ");
			html_jtext(li, c, "reason");
		}
		for (size_t k = 0; k < jsonx_len(c, "diagnostics"); k++) {
			json_object *d = jsonx_at(c, "diagnostics", k);
			xmlNodePtr div = html_elc(li, "div", "diag");
			html_textn(div, json_object_get_string(d),
			      (size_t)json_object_get_string_len(d));
		}
		render_checks(h, li, c, "subtests");
	}
}

static void render_scenarios(struct rh *h, xmlNodePtr sec, json_object *b)
{
	xmlNodePtr table, tr, td;

	if (!jsonx_len(b, "scenarios"))
		return;
	html_elt(sec, "h4", NULL, "Scenarios");
	table = html_elc(sec, "table", "list");
	tr = html_el(html_el(table, "thead"), "tr");
	html_elt(tr, "th", NULL, "scenario");
	html_elt(tr, "th", NULL, "result");
	html_elt(tr, "th", NULL, "reason and checks");
	table = html_el(table, "tbody");
	for (size_t i = 0; i < jsonx_len(b, "scenarios"); i++) {
		json_object *s = jsonx_at(b, "scenarios", i);
		json_object *host = jsonx_get(s, "host");
		const char *r = jsonx_str(s, "result");
		xmlNodePtr det, sum;
		size_t nc = jsonx_len(s, "checks");

		tr = html_el(table, "tr");
		html_jtext(html_elc(html_el(tr, "td"), "code", NULL), s, "name");
		html_badge(html_el(tr, "td"), result_class(r), r);
		td = html_el(tr, "td");
		if (jsonx_str(s, "reason"))
			html_jtext(html_el(td, "div"), s, "reason");
		if (host && jsonx_str(host, "reason")) {
			xmlNodePtr d = html_el(td, "div");
			html_text(d, "host: ");
			html_jtext(d, host, "reason");
		}
		if (!nc)
			continue;
		det = html_el(td, "details");
		if (strcmp(r, "pass") && strcmp(r, "skip"))
			html_attr(det, "open", "open");
		sum = html_el(det, "summary");
		html_textf(sum, "%zu check%s", nc, nc == 1 ? "" : "s");
		render_checks(h, det, s, "checks");
	}
}

static void render_problems(struct rh *h, xmlNodePtr sec, json_object *b)
{
	size_t n = jsonx_len(b, "problems");
	xmlNodePtr hd;

	if (!n)
		return;
	hd = html_el(sec, "h4");
	html_textf(hd, "Kernel problems (%zu)", n);
	for (size_t i = 0; i < n; i++) {
		json_object *p = jsonx_at(b, "problems", i);
		bool allowed = jsonx_bool(p, "allowed", false);
		xmlNodePtr div = html_elc(sec, "div", allowed ? "problem allowed"
							   : "problem");
		xmlNodePtr t = html_elc(div, "p", "ptitle"), m, det, sum;
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		double line, ts, first, last;

		/* "WARNING: CPU..." says its kind; "Kernel panic..." not. */
		if (strncmp(jsonx_str(p, "title"), jsonx_str(p, "kind"),
			    strlen(jsonx_str(p, "kind"))))
			html_jtext(html_elc(t, "span", "kind"), p, "kind");
		html_jtext(t, p, "title");
		m = html_elc(div, "div", "sub");
		if (jsonx_str(p, "signature")) {
			html_text(m, "signature ");
			html_jtext(html_elc(m, "code", NULL), p, "signature");
		}
		if (jsonx_num(p, "line", &line))
			strbuf_addf(&sb, " · console line %.0f", line);
		if (jsonx_num(p, "timestamp", &ts) && ts >= 0)
			strbuf_addf(&sb, " · at %.3f s", ts);
		if (jsonx_str(p, "end"))
			strbuf_addf(&sb, " · ended by %s", jsonx_str(p, "end"));
		if (allowed)
			strbuf_addstr(&sb, " · allowed (does not fail the boot)");
		html_text(m, sb.buf);
		if (jsonx_str(p, "reason")) {
			xmlNodePtr r = html_elc(div, "div", NULL);
			html_text(r, "reason: ");
			html_jtext(r, p, "reason");
		}
		if (jsonx_len(p, "frames")) {
			strbuf_reset(&sb);
			join_strings(p, "frames", " ← ", &sb);
			xmlNodePtr f = html_elc(div, "div", "mono");
			html_textf(f, "frames: %s", sb.buf);
		}
		if (!jsonx_str(p, "report"))
			continue;
		det = html_el(div, "details");
		html_attr(det, "open", "open");
		sum = html_el(det, "summary");
		if (jsonx_num(p, "first_line", &first) &&
		    jsonx_num(p, "last_line", &last))
			html_textf(sum, "report block (console lines %.0f–%.0f)",
			      first, last);
		else
			html_text(sum, "report block");
		html_jtext(html_el(det, "pre"), p, "report");
	}
}

static void render_options(struct rh *h, xmlNodePtr sec, json_object *cfg)
{
	size_t n = jsonx_len(cfg, "options"), kept = 0;
	xmlNodePtr det, sum, table, tr, td;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(jsonx_str(jsonx_at(cfg, "options", i), "status"),
			    "kept"))
			kept++;
	det = html_el(sec, "details");
	sum = html_el(det, "summary");
	html_textf(sum, "Requested options: %zu kept, %zu dropped", kept, n - kept);
	table = html_elc(det, "table", "list");
	tr = html_el(html_el(table, "thead"), "tr");
	html_elt(tr, "th", NULL, "option");
	html_elt(tr, "th", NULL, "group");
	html_elt(tr, "th", NULL, "requested → final");
	html_elt(tr, "th", NULL, "status");
	html_elt(tr, "th", NULL, "why");
	table = html_el(table, "tbody");
	for (size_t i = 0; i < n; i++) {
		json_object *o = jsonx_at(cfg, "options", i);
		const char *st = jsonx_str(o, "status");

		tr = html_el(table, "tr");
		td = html_el(tr, "td");
		html_textf(html_elc(td, "code", NULL), "CONFIG_%s",
		      jsonx_str(o, "option"));
		if (jsonx_str(o, "source"))
			html_jtext(html_elc(td, "div", "muted mono"), o, "source");
		html_jtext(html_el(tr, "td"), o, "group");
		value_change(html_elc(tr, "td", "mono"), o);
		html_badge(html_el(tr, "td"), result_class(st), st);
		td = html_el(tr, "td");
		if (jsonx_str(o, "reason_kind")) {
			html_jtext(html_elc(td, "b", NULL), o, "reason_kind");
			html_text(td, ": ");
		}
		html_jtext(td, o, "reason");
		if (jsonx_str(o, "detail"))
			html_jtext(html_elc(td, "pre", NULL), o, "detail");
	}
}

struct tail_lines {
	struct strbuf lines[REPORT_HTML_TAIL_LINES];
	size_t next, n;
};

static void on_tail_line(const struct console_line *l, void *ud)
{
	struct tail_lines *t = ud;
	struct strbuf *sb = &t->lines[t->next];

	strbuf_reset(sb);
	if (l->timestamp >= 0)
		strbuf_addf(sb, "[%12.6f] ", l->timestamp);
	strbuf_add(sb, l->text, l->len);
	t->next = (t->next + 1) % REPORT_HTML_TAIL_LINES;
	if (t->n < REPORT_HTML_TAIL_LINES)
		t->n++;
}

/* The last lines of the console log, cleaned by the console parser. */
static void render_console_tail(struct rh *h, xmlNodePtr sec, json_object *b,
				const char *rel)
{
	_cleanup_strbuf_ struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	_cleanup_console_ struct console *c = NULL;
	struct console_ops ops = { .on_line = on_tail_line };
	struct tail_lines *t;
	const char *v = jsonx_str(b, "verdict");
	size_t start = 0;
	long size;
	xmlNodePtr det, sum;

	if (!h->ops || !h->ops->tail || !file_exists(h, rel))
		return;
	size = h->ops->tail(h->ops->ud, rel, REPORT_HTML_TAIL_BYTES, &raw);
	if (size < 0)
		return;
	if ((size_t)size > raw.len) {
		/* Begins mid-line: start after the first newline. */
		const char *nl = memchr(raw.buf, '\n', raw.len);
		start = nl ? (size_t)(nl - raw.buf) + 1 : raw.len;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		h->oom = true;
		return;
	}
	for (size_t i = 0; i < REPORT_HTML_TAIL_LINES; i++)
		strbuf_init(&t->lines[i], 0);
	c = console_new(&ops, t);
	if (c) {
		console_feed(c, raw.buf + start, raw.len - start);
		console_finish(c);
	} else {
		h->oom = true;
	}
	for (size_t i = 0; i < t->n; i++) {
		size_t k = (t->next + REPORT_HTML_TAIL_LINES - t->n + i) %
			   REPORT_HTML_TAIL_LINES;
		strbuf_add(&out, t->lines[k].buf, t->lines[k].len);
		strbuf_addch(&out, '\n');
	}
	for (size_t i = 0; i < REPORT_HTML_TAIL_LINES; i++)
		strbuf_release(&t->lines[i]);
	det = html_el(sec, "details");
	if (!v || strcmp(v, "BOOTED"))
		html_attr(det, "open", "open");
	sum = html_el(det, "summary");
	html_textf(sum, "End of %s (last %zu lines of %ld bytes)", rel, t->n, size);
	free(t);
	html_textn(html_elc(det, "pre", "console"), out.buf, out.len);
}

static const char *file_label(const char *key)
{
	if (!strcmp(key, "console"))
		return "console log";
	if (!strcmp(key, "domain_xml"))
		return "domain XML";
	if (!strcmp(key, "kgdb"))
		return "gdb transcript (kgdb)";
	if (!strcmp(key, "channel"))
		return "agent channel (virtio-serial)";
	return key;
}

static void stage_row(struct rh *h, xmlNodePtr table, const char *stage,
		      const char *cls, const char *verdict, xmlNodePtr *ret_td)
{
	xmlNodePtr tr = html_el(table, "tr");

	html_elt(tr, "th", NULL, stage);
	html_badge(html_el(tr, "td"), cls, verdict);
	*ret_td = html_el(tr, "td");
}

static void render_stages(struct rh *h, xmlNodePtr sec, json_object *b)
{
	json_object *cfg = jsonx_get(b, "config");
	json_object *build = jsonx_get(b, "build");
	json_object *end = jsonx_get(b, "end");
	const char *v = jsonx_str(b, "verdict");
	xmlNodePtr table, tr, td, d;
	double x, y;

	table = html_elc(sec, "table", "list stages");
	tr = html_el(html_el(table, "thead"), "tr");
	html_elt(tr, "th", NULL, "stage");
	html_elt(tr, "th", NULL, "result");
	html_elt(tr, "th", NULL, "details");
	table = html_el(table, "tbody");
	if (cfg) {
		const char *r = jsonx_str(cfg, "result");
		size_t n = jsonx_len(cfg, "options"), kept = 0;

		for (size_t i = 0; i < n; i++)
			if (!strcmp(jsonx_str(jsonx_at(cfg, "options", i),
						"status"), "kept"))
				kept++;
		stage_row(h, table, "config", result_class(r), r, &td);
		if (jsonx_str(cfg, "error"))
			html_jtext(html_el(td, "div"), cfg, "error");
		d = html_el(td, "div");
		if (jsonx_str(cfg, "release"))
			html_textf(d, "Linux %s: ", jsonx_str(cfg, "release"));
		html_textf(d, "%zu of %zu requested options kept", kept, n);
		if (jsonx_len(cfg, "stale_base"))
			html_textf(d, "; %zu stale base option%s",
			      jsonx_len(cfg, "stale_base"),
			      jsonx_len(cfg, "stale_base") == 1 ? "" : "s");
		if (jsonx_str(cfg, "final_config")) {
			html_text(d, " · ");
			file_link(h, d, jsonx_str(cfg, "final_config"),
				  "final .config");
		}
	}
	if (build) {
		const char *r = jsonx_str(build, "result");

		stage_row(h, table, "build", result_class(r), r, &td);
		d = html_el(td, "div");
		if (jsonx_num(build, "seconds", &x)) {
			_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
			duration(&sb, x);
			html_text(d, sb.buf);
		}
		if (jsonx_str(build, "reason")) {
			html_text(d, d->children ? " · " : "");
			html_jtext(d, build, "reason");
		}
		if (jsonx_str(build, "log")) {
			html_text(d, d->children ? " · " : "");
			file_link(h, d, jsonx_str(build, "log"), "build log");
		}
		if (jsonx_str(build, "first_error"))
			html_jtext(html_elc(td, "pre", NULL), build, "first_error");
	}
	stage_row(h, table, "boot", boot_class(v), v ? v : "not booted", &td);
	if (jsonx_str(b, "reason"))
		html_jtext(html_el(td, "div"), b, "reason");
	d = html_elc(td, "div", "sub");
	{
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

		if (jsonx_num(b, "elapsed_s", &x)) {
			strbuf_addstr(&sb, "ran ");
			duration(&sb, x);
		}
		if (jsonx_num(b, "time_to_init_s", &x)) {
			strbuf_addf(&sb, "%sinit after %.1f s", sb.len ? " · " : "",
				    x);
			if (jsonx_num(b, "kernel_time_to_init_s", &y))
				strbuf_addf(&sb, " (kernel clock %.1f s)", y);
		}
		if (jsonx_str(end, "how"))
			strbuf_addf(&sb, "%send: %s%s%s", sb.len ? " · " : "",
				    jsonx_str(end, "how"),
				    jsonx_str(end, "reason") ? ", " : "",
				    jsonx_str(end, "reason") ?: "");
		if (jsonx_str(b, "last_milestone"))
			strbuf_addf(&sb, "%slast milestone %s",
				    sb.len ? " · " : "",
				    jsonx_str(b, "last_milestone"));
		if (jsonx_str(b, "accel"))
			strbuf_addf(&sb, "%s%s", sb.len ? " · " : "",
				    jsonx_str(b, "accel"));
		html_text(d, sb.buf);
	}
}

static void render_boot(struct rh *h, xmlNodePtr parent, size_t i)
{
	json_object *b = jsonx_at(h->run, "boots", i);
	json_object *cand = jsonx_get(b, "candidate");
	json_object *kernel = jsonx_get(b, "kernel");
	json_object *files = jsonx_get(b, "files");
	const char *v = jsonx_str(b, "verdict");
	_cleanup_strbuf_ struct strbuf key = STRBUF_INIT, sb = STRBUF_INIT;
	xmlNodePtr sec, h3, p, t;

	runread_boot_key(h->run, i, &key);
	sec = html_elc(parent, "section", "boot");
	html_attr(sec, "id", h->anchors[i]);
	h3 = html_el(sec, "h3");
	html_text(html_el(h3, "span"), key.buf);
	html_badge(h3, boot_class(v), v ? v : "not booted");

	p = html_elc(sec, "p", "sub");
	if (cand) {
		strbuf_addf(&sb, "%s", jsonx_str(cand, "arch") ?: "?");
		if (jsonx_str(cand, "base"))
			strbuf_addf(&sb, " · base %s", jsonx_str(cand, "base"));
		if (jsonx_len(cand, "groups")) {
			strbuf_addstr(&sb, " + ");
			join_strings(cand, "groups", " + ", &sb);
		}
		if (jsonx_str(cand, "kind"))
			strbuf_addf(&sb, " · candidate kind %s",
				    jsonx_str(cand, "kind"));
	} else {
		if (jsonx_str(b, "arch"))
			strbuf_addstr(&sb, jsonx_str(b, "arch"));
		if (jsonx_str(kernel, "path"))
			strbuf_addf(&sb, "%skernel %s", sb.len ? " · " : "",
				    jsonx_str(kernel, "path"));
	}
	if (jsonx_str(b, "name"))
		strbuf_addf(&sb, "%sdomain %s", sb.len ? " · " : "",
			    jsonx_str(b, "name"));
	html_text(p, sb.buf);

	render_stages(h, sec, b);

	if (kernel && (jsonx_str(kernel, "path") ||
		       jsonx_str(kernel, "banner"))) {
		xmlNodePtr det = html_el(sec, "details"), td;

		html_text(html_el(det, "summary"), "Kernel and command line");
		t = html_elc(det, "table", "meta");
		if (jsonx_str(kernel, "banner"))
			html_jtext(html_elc(html_row(t, "banner"), "code", NULL),
			      kernel, "banner");
		if (jsonx_str(kernel, "path"))
			html_jtext(html_elc(html_row(t, "kernel"), "code", NULL),
			      kernel, "path");
		if (jsonx_str(kernel, "initrd"))
			html_jtext(html_elc(html_row(t, "initrd"), "code", NULL),
			      kernel, "initrd");
		if (jsonx_str(kernel, "config"))
			html_jtext(html_elc(html_row(t, "config"), "code", NULL),
			      kernel, "config");
		if (jsonx_str(b, "cmdline"))
			html_jtext(html_elc(html_row(t, "command line"), "code",
				  NULL),
			      b, "cmdline");
		if (jsonx_str(b, "image"))
			html_jtext(html_elc(html_row(t, "image"), "code", NULL), b,
			      "image");
		if (jsonx_str(b, "accel_reason")) {
			td = html_row(t, "accelerator");
			html_textf(td, "%s: ", jsonx_str(b, "accel") ?: "?");
			html_jtext(td, b, "accel_reason");
		}
	}
	render_scenarios(h, sec, b);
	render_problems(h, sec, b);
	render_options(h, sec, jsonx_get(b, "config"));
	if (jsonx_str(files, "console"))
		render_console_tail(h, sec, b, jsonx_str(files, "console"));

	p = html_elc(sec, "p", "files");
	{
		json_object *cfg = jsonx_get(b, "config");
		json_object *build = jsonx_get(b, "build");
		bool any = false;

		html_text(html_elc(p, "b", NULL), "Files: ");
		if (files) {
			json_object_object_foreach(files, fk, fv)
			{
				if (!fv)
					continue;
				file_link(h, p, json_object_get_string(fv),
					  file_label(fk));
				html_text(p, " ");
				any = true;
			}
		}
		if (jsonx_str(cfg, "final_config")) {
			file_link(h, p, jsonx_str(cfg, "final_config"),
				  "final .config");
			html_text(p, " ");
			any = true;
		}
		if (jsonx_str(build, "log")) {
			file_link(h, p, jsonx_str(build, "log"), "build log");
			any = true;
		}
		if (!any)
			html_text(p, "none recorded");
	}
}

static void render_boot_index(struct rh *h, xmlNodePtr sec)
{
	xmlNodePtr table, tr, td;

	table = html_elc(sec, "table", "list");
	tr = html_el(html_el(table, "thead"), "tr");
	html_elt(tr, "th", NULL, "candidate");
	html_elt(tr, "th", NULL, "config");
	html_elt(tr, "th", NULL, "build");
	html_elt(tr, "th", NULL, "boot");
	html_elt(tr, "th", NULL, "init after");
	html_elt(tr, "th", NULL, "scenarios");
	html_elt(tr, "th", NULL, "problems");
	table = html_el(table, "tbody");
	for (size_t i = 0; i < jsonx_len(h->run, "boots"); i++) {
		json_object *b = jsonx_at(h->run, "boots", i);
		json_object *cfg = jsonx_get(b, "config");
		json_object *build = jsonx_get(b, "build");
		const char *v = jsonx_str(b, "verdict");
		_cleanup_strbuf_ struct strbuf key = STRBUF_INIT,
					       href = STRBUF_INIT,
					       sb = STRBUF_INIT;
		xmlNodePtr a;
		double x;
		size_t np = jsonx_len(b, "problems");

		runread_boot_key(h->run, i, &key);
		tr = html_el(table, "tr");
		strbuf_addf(&href, "#%s", h->anchors[i]);
		a = html_el(html_el(tr, "td"), "a");
		html_attr(a, "href", href.buf);
		html_text(a, key.buf);
		td = html_el(tr, "td");
		if (cfg)
			html_badge(td, result_class(jsonx_str(cfg, "result")),
			      jsonx_str(cfg, "result"));
		td = html_el(tr, "td");
		if (build)
			html_badge(td, result_class(jsonx_str(build, "result")),
			      jsonx_str(build, "result"));
		html_badge(html_el(tr, "td"), boot_class(v), v ? v : "not booted");
		td = html_el(tr, "td");
		if (jsonx_num(b, "time_to_init_s", &x))
			html_textf(td, "%.1f s", x);
		td = html_el(tr, "td");
		for (size_t k = 0; k < jsonx_len(b, "scenarios"); k++) {
			json_object *s = jsonx_at(b, "scenarios", k);
			strbuf_addf(&sb, "%s%s %s", k ? ", " : "",
				    jsonx_str(s, "name"),
				    jsonx_str(s, "result"));
		}
		html_text(td, sb.buf);
		td = html_el(tr, "td");
		if (np)
			html_textf(td, "%zu", np);
	}
}

static void render_boots(struct rh *h, xmlNodePtr main_)
{
	size_t n = jsonx_len(h->run, "boots");
	bool matrix = runread_is_matrix(h->run);
	xmlNodePtr sec = html_el(main_, "section");

	html_attr(sec, "id", "boots");
	html_elt(sec, "h2", NULL, matrix ? "Candidates" : n == 1 ? "Boot" : "Boots");
	if (!n) {
		html_elt(sec, "p", "muted", "No boot was recorded.");
		return;
	}
	if (n > 1)
		render_boot_index(h, sec);
	for (size_t i = 0; i < n; i++)
		render_boot(h, sec, i);
}

static void render_footer(struct rh *h, xmlNodePtr body)
{
	xmlNodePtr f = html_el(body, "footer");

	html_text(f, "Written by bootproof report from ");
	file_link(h, f, "run.json", "run.json");
	if (file_exists(h, "junit.xml")) {
		html_text(f, " (JUnit: ");
		file_link(h, f, "junit.xml", "junit.xml");
		html_text(f, ")");
	}
	html_text(f, ". docs/report.md describes this page.");
}

static void render_page(struct rh *h, xmlNodePtr html)
{
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
	strbuf_addf(&title, "bootproof %s: %s",
		    jsonx_str(h->run, "run_id"),
		    !jsonx_bool(h->run, "complete", false) ? "INCOMPLETE"
		    : jsonx_get(h->run, "exit_code") &&
				    json_object_get_int(jsonx_get(h->run,
								    "exit_code")) == 0
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
		n = html_el(nav, "a");
		html_attr(n, "href", "#matrix");
		html_text(n, "matrix");
		n = html_el(nav, "a");
		html_attr(n, "href", "#dropped");
		html_text(n, "dropped options");
		n = html_el(nav, "a");
		html_attr(n, "href", "#stale");
		html_text(n, "stale base options");
		n = html_el(nav, "a");
		html_attr(n, "href", "#boots");
		html_text(n, "candidates");
	}
	main_ = html_el(body, "main");
	if (matrix) {
		render_matrix(h, main_);
		render_dropped(h, main_);
		render_stale(h, main_);
	}
	render_boots(h, main_);
	render_footer(h, body);
}

int report_html_render(json_object *doc, const struct report_html_ops *ops,
		       char **ret, size_t *ret_len)
{
	struct rh h = { .run = doc, .ops = ops };
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
