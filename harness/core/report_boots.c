// SPDX-License-Identifier: GPL-2.0-or-later
/* The boot sections of report.html (core/report_parts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/console.h"
#include "core/matrixrec.h"
#include "core/report_parts.h"
#include "core/runread.h"
#include "util/jsonx.h"

static const char *boot_class(const char *v)
{
	static const struct report_class map[] = {
		{ "BOOTED", "v-pass" },
		{ "INFRA", "v-infra" },
		{ "INCOMPLETE", "v-skip" },
		{ "RUNNING", "v-skip" },
	};

	return report_class(map, ELEMENTSOF(map), v, "v-fail");
}

static const char *result_class(const char *r)
{
	static const struct report_class map[] = {
		{ "pass", "v-pass" },	 { "reused", "v-pass" },
		{ "kept", "v-pass" },	 { "partial", "v-partial" },
		{ "changed", "v-partial" }, { "absent", "v-partial" },
		{ "demoted", "v-partial" }, { "fail", "v-fail" },
		{ "error", "v-fail" },
	};

	return report_class(map, ELEMENTSOF(map), r, "v-skip");
}

/* The KTAP tests in o[key] (a scenario's "checks", a test's "subtests"),
 * with their diagnostics, nested. */
static void render_checks(struct report_page *h, xmlNodePtr parent,
			  json_object *o, const char *key)
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

static void render_scenarios(struct report_page *h, xmlNodePtr sec,
			     json_object *b)
{
	static const char *const cols[] = { "scenario", "result",
					    "reason and checks" };
	xmlNodePtr table, tr, td;

	if (!jsonx_len(b, "scenarios"))
		return;
	html_elt(sec, "h4", NULL, "Scenarios");
	table = html_thead(html_elc(sec, "table", "list"), cols,
			   ELEMENTSOF(cols));
	for (size_t i = 0; i < jsonx_len(b, "scenarios"); i++) {
		json_object *s = jsonx_at(b, "scenarios", i);
		json_object *host = jsonx_get(s, "host");
		const char *r = jsonx_str(s, "result");
		xmlNodePtr det, sum;
		size_t nc = jsonx_len(s, "checks");

		tr = html_el(table, "tr");
		html_jtext(html_elc(html_el(tr, "td"), "code", NULL), s,
			   "name");
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

static void render_problems(struct report_page *h, xmlNodePtr sec,
			    json_object *b)
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
		xmlNodePtr div = html_elc(
		    sec, "div", allowed ? "problem allowed" : "problem");
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
			strbuf_addstr(&sb,
				      " · allowed (does not fail the boot)");
		html_text(m, sb.buf);
		if (jsonx_str(p, "reason")) {
			xmlNodePtr r = html_elc(div, "div", NULL);
			html_text(r, "reason: ");
			html_jtext(r, p, "reason");
		}
		if (jsonx_len(p, "frames")) {
			strbuf_reset(&sb);
			report_join(p, "frames", " ← ", &sb);
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
			html_textf(sum,
				   "report block (console lines %.0f–%.0f)",
				   first, last);
		else
			html_text(sum, "report block");
		html_jtext(html_el(det, "pre"), p, "report");
	}
}

static void render_options(struct report_page *h, xmlNodePtr sec,
			   json_object *cfg)
{
	static const char *const cols[] = { "option", "group",
					    "requested → final", "status",
					    "why" };
	size_t n = jsonx_len(cfg, "options"), kept = 0;
	xmlNodePtr det, sum, table, tr;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(jsonx_str(jsonx_at(cfg, "options", i), "status"),
			    "kept"))
			kept++;
	det = html_el(sec, "details");
	sum = html_el(det, "summary");
	html_textf(sum, "Requested options: %zu kept, %zu dropped", kept,
		   n - kept);
	table = html_thead(html_elc(det, "table", "list"), cols,
			   ELEMENTSOF(cols));
	for (size_t i = 0; i < n; i++) {
		json_object *o = jsonx_at(cfg, "options", i);
		const char *st = jsonx_str(o, "status");

		tr = html_el(table, "tr");
		report_option_cell(tr, jsonx_str(o, "option"), o);
		html_jtext(html_el(tr, "td"), o, "group");
		report_value_cell(tr, o);
		html_badge(html_el(tr, "td"), result_class(st), st);
		report_why_cell(tr, NULL, o, true);
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
static void render_console_tail(struct report_page *h, xmlNodePtr sec,
				json_object *b, const char *rel)
{
	_cleanup_strbuf_ struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	_cleanup_console_ struct console *c = NULL;
	struct console_ops ops = { .on_line = on_tail_line };
	struct tail_lines *t;
	const char *v = jsonx_str(b, "verdict");
	size_t start = 0;
	long size;
	xmlNodePtr det, sum;

	if (!h->ops || !h->ops->tail || !report_file_exists(h, rel))
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
	html_textf(sum, "End of %s (last %zu lines of %ld bytes)", rel, t->n,
		   size);
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
	if (!strcmp(key, "dmesg"))
		return "kernel log (dmesg)";
	return key;
}

static void stage_row(struct report_page *h, xmlNodePtr table,
		      const char *stage, const char *cls, const char *verdict,
		      xmlNodePtr *ret_td)
{
	xmlNodePtr tr = html_el(table, "tr");

	html_elt(tr, "th", NULL, stage);
	html_badge(html_el(tr, "td"), cls, verdict);
	*ret_td = html_el(tr, "td");
}

static void render_stages(struct report_page *h, xmlNodePtr sec, json_object *b)
{
	static const char *const cols[] = { "stage", "result", "details" };
	json_object *cfg = jsonx_get(b, "config");
	json_object *build = jsonx_get(b, "build");
	json_object *end = jsonx_get(b, "end");
	const char *v = jsonx_str(b, "verdict");
	xmlNodePtr table, td, d;
	double x, y;

	table = html_thead(html_elc(sec, "table", "list stages"), cols,
			   ELEMENTSOF(cols));
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
			report_file_link(h, d, jsonx_str(cfg, "final_config"),
					 "final .config");
		}
	}
	if (build) {
		const char *r = jsonx_str(build, "result");

		stage_row(h, table, "build", result_class(r), r, &td);
		d = html_el(td, "div");
		if (jsonx_num(build, "seconds", &x)) {
			_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
			report_duration(&sb, x);
			html_text(d, sb.buf);
		}
		if (jsonx_str(build, "reason")) {
			html_text(d, d->children ? " · " : "");
			html_jtext(d, build, "reason");
		}
		if (jsonx_str(build, "log")) {
			html_text(d, d->children ? " · " : "");
			report_file_link(h, d, jsonx_str(build, "log"),
					 "build log");
		}
		if (jsonx_str(build, "first_error"))
			html_jtext(html_elc(td, "pre", NULL), build,
				   "first_error");
	}
	stage_row(h, table, "boot", boot_class(v), v ? v : "not booted", &td);
	if (jsonx_str(b, "reason"))
		html_jtext(html_el(td, "div"), b, "reason");
	d = html_elc(td, "div", "sub");
	{
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

		if (jsonx_num(b, "elapsed_s", &x)) {
			strbuf_addstr(&sb, "ran ");
			report_duration(&sb, x);
		}
		if (jsonx_num(b, "time_to_init_s", &x)) {
			strbuf_addf(&sb, "%sinit after %.1f s",
				    sb.len ? " · " : "", x);
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

/* The kernel, its command line and the guest's image and accelerator. */
static void render_kernel(xmlNodePtr sec, json_object *b)
{
	static const struct {
		const char *label, *key;
		bool of_boot; /* a member of the boot record, not its kernel */
	} rows[] = {
		{ "banner", "banner", false },	 { "kernel", "path", false },
		{ "initrd", "initrd", false },	 { "config", "config", false },
		{ "command line", "cmdline", true }, { "image", "image", true },
	};
	json_object *kernel = jsonx_get(b, "kernel");
	xmlNodePtr det = html_el(sec, "details"), t, td;

	html_text(html_el(det, "summary"), "Kernel and command line");
	t = html_elc(det, "table", "meta");
	for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
		json_object *o = rows[i].of_boot ? b : kernel;

		if (jsonx_str(o, rows[i].key))
			html_jtext(html_elc(html_row(t, rows[i].label), "code",
					    NULL),
				   o, rows[i].key);
	}
	if (jsonx_str(b, "accel_reason")) {
		td = html_row(t, "accelerator");
		html_textf(td, "%s: ", jsonx_str(b, "accel") ?: "?");
		html_jtext(td, b, "accel_reason");
	}
}

/* Links to the files of boot record b. */
static void render_files(const struct report_page *h, xmlNodePtr sec,
			 json_object *b)
{
	json_object *files = jsonx_get(b, "files");
	json_object *cfg = jsonx_get(b, "config");
	json_object *build = jsonx_get(b, "build");
	xmlNodePtr p = html_elc(sec, "p", "files");
	bool any = false;

	html_text(html_elc(p, "b", NULL), "Files: ");
	if (files) {
		json_object_object_foreach(files, fk, fv)
		{
			if (!fv)
				continue;
			report_file_link(h, p, json_object_get_string(fv),
					 file_label(fk));
			html_text(p, " ");
			any = true;
		}
	}
	if (jsonx_str(cfg, "final_config")) {
		report_file_link(h, p, jsonx_str(cfg, "final_config"),
				 "final .config");
		html_text(p, " ");
		any = true;
	}
	if (jsonx_str(build, "log")) {
		report_file_link(h, p, jsonx_str(build, "log"), "build log");
		any = true;
	}
	if (!any)
		html_text(p, "none recorded");
}

static void render_boot(struct report_page *h, xmlNodePtr parent, size_t i)
{
	json_object *b = jsonx_at(h->run, "boots", i);
	json_object *cand = jsonx_get(b, "candidate");
	json_object *kernel = jsonx_get(b, "kernel");
	json_object *files = jsonx_get(b, "files");
	const char *v = jsonx_str(b, "verdict");
	_cleanup_strbuf_ struct strbuf key = STRBUF_INIT, sb = STRBUF_INIT;
	xmlNodePtr sec, h3, p;

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
			report_join(cand, "groups", " + ", &sb);
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
	if (matrixrec_failed(b) && jsonx_str(cand, "reproduce"))
		report_reproduce(sec, cand);

	render_stages(h, sec, b);

	if (kernel && (jsonx_str(kernel, "path") ||
		       jsonx_str(kernel, "banner")))
		render_kernel(sec, b);
	render_scenarios(h, sec, b);
	render_problems(h, sec, b);
	render_options(h, sec, jsonx_get(b, "config"));
	if (jsonx_str(files, "console"))
		render_console_tail(h, sec, b, jsonx_str(files, "console"));

	render_files(h, sec, b);
}

static void render_boot_index(struct report_page *h, xmlNodePtr sec)
{
	static const char *const cols[] = { "candidate", "config", "build",
					    "boot", "init after", "scenarios",
					    "problems" };
	xmlNodePtr table, tr, td;

	table = html_thead(html_elc(sec, "table", "list"), cols,
			   ELEMENTSOF(cols));
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
		html_badge(html_el(tr, "td"), boot_class(v),
			   v ? v : "not booted");
		td = html_el(tr, "td");
		if (jsonx_num(b, "time_to_init_s", &x))
			html_textf(td, "%.1f s", x);
		td = html_el(tr, "td");
		report_scenario_list(b, &sb);
		html_text(td, sb.buf);
		td = html_el(tr, "td");
		if (np)
			html_textf(td, "%zu", np);
	}
}

void report_boots(struct report_page *h, xmlNodePtr main_)
{
	size_t n = jsonx_len(h->run, "boots");
	bool matrix = runread_is_matrix(h->run);
	xmlNodePtr sec = html_el(main_, "section");

	html_attr(sec, "id", "boots");
	html_elt(sec, "h2", NULL,
		 matrix	  ? "Candidates"
		 : n == 1 ? "Boot"
			  : "Boots");
	if (!n) {
		html_elt(sec, "p", "muted", "No boot was recorded.");
		return;
	}
	if (n > 1)
		render_boot_index(h, sec);
	for (size_t i = 0; i < n; i++)
		render_boot(h, sec, i);
}

