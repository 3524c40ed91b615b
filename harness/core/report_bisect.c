// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/report_bisect.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/bisect.h"
#include "core/html.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static const char page_css[] =
	"body{margin:0 auto;max-width:1200px;padding:16px 24px;"
	"font:14px/1.45 system-ui,sans-serif;color:#1f2328;background:#f6f8fa}\n"
	"code,pre{font-family:'DejaVu Sans Mono',monospace;font-size:12.5px}\n"
	"pre{background:#fff;border:1px solid #d0d7de;padding:8px;"
	"white-space:pre-wrap;overflow-wrap:anywhere}\n"
	"table{border-collapse:collapse;background:#fff;width:100%}\n"
	"th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;"
	"vertical-align:top}\n"
	".found{background:#ffdadb;border:1px solid #a40e26;padding:10px}\n"
	".stopped{background:#efe4ff;border:1px solid #6a2fc0;padding:10px}\n"
	".o-fail-same{color:#a40e26;font-weight:700}\n"
	".muted{color:#59636e}\n";

static void options_table(xmlNodePtr parent, json_object *opts)
{
	static const char *const cols[] = { "line", "option", "requested at" };
	xmlNodePtr t = html_thead(html_el(parent, "table"), cols, 3);

	for (size_t i = 0; i < json_object_array_length(opts); i++) {
		json_object *o = json_object_array_get_idx(opts, i);
		xmlNodePtr tr = html_el(t, "tr");

		html_textf(html_el(tr, "td"), "%d",
			   json_object_get_int(jsonx_get(o, "line")) + 1);
		html_jtext(html_el(html_el(tr, "td"), "code"), o, "text");
		html_jtext(html_el(tr, "td"), o, "source");
	}
}

static void file_link(xmlNodePtr parent, const char *rel, const char *label)
{
	_cleanup_strbuf_ struct strbuf href = STRBUF_INIT;
	xmlNodePtr a;

	if (!rel)
		return;
	strbuf_addf(&href, "./%s", rel);
	a = html_el(parent, "a");
	html_attr(a, "href", href.buf);
	html_text(a, label);
}

static void render_answer(xmlNodePtr body, json_object *bi)
{
	json_object *c = jsonx_get(bi, "culprit");
	json_object *n = jsonx_get(bi, "narrowed");
	xmlNodePtr d = html_elc(body, "div", c ? "found" : "stopped"), p;

	p = html_el(d, "p");
	html_text(html_el(p, "b"), c ? "Culprit: " : "Stopped: ");
	html_jtext(p, bi, "status");
	html_text(p, " — ");
	html_jtext(p, bi, "reason");
	if (jsonx_bool(bi, "interaction", false))
		html_text(html_el(d, "p"),
			  "No half of a split failed alone at some step: the "
			  "answer came from complements or finer splits (lines "
			  "that fail only together, or that mask each other).");
	if (c) {
		_cleanup_strbuf_ struct strbuf needs = STRBUF_INIT;

		options_table(d, jsonx_get(c, "options"));
		bisect_needs_text(c, &needs);
		for (char *l = needs.buf, *e; l && *l; l = e + 1) {
			if (!(e = strchr(l, '\n')))
				break;
			*e = '\0';
			html_text(html_el(d, "p"), l);
		}
		p = html_el(d, "p");
		html_text(p, "Reproduce: ");
		html_jtext(html_el(p, "code"), c, "reproduce");
		file_link(html_el(d, "p"), jsonx_str(c, "fragment"), "culprit.config");
	} else if (n) {
		html_text(html_el(d, "p"),
			  "Narrowed so far to these lines (they failed the "
			  "same way; not shown minimal):");
		options_table(d, jsonx_get(n, "options"));
	}
}

static void render_steps(xmlNodePtr body, json_object *bi)
{
	static const char *const cols[] = { "step", "kind", "lines", "outcome",
					    "why", "files" };
	json_object *steps = jsonx_get(bi, "steps");
	xmlNodePtr t;

	html_elt(body, "h2", NULL, "Steps");
	t = html_thead(html_el(body, "table"), cols, 6);
	for (size_t i = 0; steps && i < json_object_array_length(steps); i++) {
		json_object *s = json_object_array_get_idx(steps, i);
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT, cls = STRBUF_INIT;
		xmlNodePtr tr = html_el(t, "tr"), td;

		html_jtext(html_el(tr, "td"), s, "n");
		strbuf_addstr(&sb, jsonx_str(s, "kind") ?: "?");
		if (jsonx_get(s, "part"))
			strbuf_addf(&sb, " %s/%s", jsonx_text(s, "part"),
				    jsonx_text(s, "parts"));
		strbuf_addf(&sb, " (%s)", jsonx_str(s, "phase") ?: "?");
		html_text(html_el(tr, "td"), sb.buf);
		strbuf_reset(&sb);
		for (size_t k = 0; k < jsonx_len(s, "lines"); k++)
			strbuf_addf(&sb, "%s%d", k ? " " : "",
				    json_object_get_int(jsonx_at(s, "lines", k)) + 1);
		html_text(html_el(tr, "td"), sb.len ? sb.buf : "none (the base)");
		strbuf_addf(&cls, "o-%s", jsonx_str(s, "outcome") ?: "none");
		html_jtext(html_elc(tr, "td", cls.buf), s, "outcome");
		td = html_el(tr, "td");
		html_jtext(td, s, "reason");
		if (jsonx_str(s, "reproduce")) {
			xmlNodePtr dd = html_elc(td, "div", "muted");

			html_jtext(html_el(dd, "code"), s, "reproduce");
		}
		td = html_el(tr, "td");
		file_link(td, jsonx_str(s, "fragment"), "fragment");
		html_text(td, " ");
		if (jsonx_str(s, "run")) {
			_cleanup_strbuf_ struct strbuf r = STRBUF_INIT;

			strbuf_addf(&r, "%s/report.html", jsonx_str(s, "run"));
			file_link(td, r.buf, "run");
		}
	}
}

int report_bisect_render(json_object *doc, char **ret, size_t *ret_len)
{
	json_object *bi = jsonx_get(doc, "bisect");
	json_object *src = jsonx_get(bi, "source");
	json_object *tg = jsonx_get(bi, "target");
	xmlNodePtr root, head, body, p, st;
	htmlDocPtr hd;
	int r;

	if (!bi)
		return -EINVAL;
	hd = html_doc_new("en", &root);
	if (!hd)
		return -ENOMEM;
	head = html_el(root, "head");
	html_attr(html_el(head, "meta"), "charset", "utf-8");
	html_textf(html_el(head, "title"), "bootproof bisect %s",
		   jsonx_str(doc, "run_id") ?: "");
	st = html_el(head, "style");
	if (st)
		xmlNodeAddContent(st, BAD_CAST page_css);
	body = html_el(root, "body");
	html_textf(html_el(body, "h1"), "bootproof bisect %s",
		   jsonx_str(doc, "run_id") ?: "");
	p = html_el(body, "p");
	html_text(p, "Candidate ");
	html_jtext(html_el(p, "b"), src, "candidate");
	html_text(p, " of run ");
	html_jtext(p, src, "run_id");
	html_text(p, " (");
	html_jtext(p, src, "run");
	html_text(p, "), which failed: ");
	html_jtext(html_el(p, "code"), tg, "text");
	if (!jsonx_bool(doc, "complete", false))
		html_elt(body, "p", "stopped",
			 "INCOMPLETE: interrupted, killed or still running.");
	render_answer(body, bi);
	html_elt(body, "h2", NULL, "The candidate's option lines");
	options_table(body, jsonx_get(bi, "lines"));
	render_steps(body, bi);
	p = html_elc(body, "p", "muted");
	html_text(p, "Written by bootproof bisect from ");
	file_link(p, "run.json", "run.json");
	html_text(p, "; docs/bisect.md describes the bisection.");
	r = html_doc_dump(hd, ret, ret_len);
	xmlFreeDoc(hd);
	return r;
}
