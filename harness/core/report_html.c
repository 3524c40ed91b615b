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

#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include "core/console.h"
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

/* ------------------------------------------------------------ text */

static void put_cp(struct strbuf *out, unsigned cp)
{
	char b[3] = { (char)(0xe0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3f)),
		      (char)(0x80 | (cp & 0x3f)) };

	strbuf_add(out, b, 3);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f; /* no surrogates */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void report_html_clean_text(const char *s, size_t n, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t run = i;

		while (run < n && p[run] >= 0x20 && p[run] < 0x7f)
			run++;
		if (run > i) {
			strbuf_add(out, p + i, run - i);
			i = run;
			continue;
		}
		if (c == '\t' || c == '\n') {
			strbuf_addch(out, c);
			i++;
		} else if (c == '\r') {
			i++;
		} else if (c < 0x20) {
			put_cp(out, 0x2400 + c);
			i++;
		} else if (c == 0x7f) {
			put_cp(out, 0x2421);
			i++;
		} else {
			size_t len = utf8_len(p + i, n - i);

			if (len) {
				strbuf_add(out, p + i, len);
				i += len;
			} else {
				put_cp(out, 0xfffd);
				i++;
			}
		}
	}
}

/* ------------------------------------------------------------ tree */

static xmlNodePtr el(struct rh *h, xmlNodePtr parent, const char *name)
{
	xmlNodePtr n;

	if (!parent)
		return NULL;
	n = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
	if (!n)
		h->oom = true;
	return n;
}

static void attr(struct rh *h, xmlNodePtr n, const char *key, const char *val)
{
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;

	if (!n)
		return;
	report_html_clean_text(val ? val : "", val ? strlen(val) : 0, &c);
	if (!xmlSetProp(n, BAD_CAST key, BAD_CAST c.buf))
		h->oom = true;
}

static xmlNodePtr elc(struct rh *h, xmlNodePtr parent, const char *name,
		      const char *cls)
{
	xmlNodePtr n = el(h, parent, name);

	if (cls)
		attr(h, n, "class", cls);
	return n;
}

static void textn(xmlNodePtr n, const char *s, size_t len)
{
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;

	if (!n || !s)
		return;
	report_html_clean_text(s, len, &c);
	if (c.len > INT32_MAX)
		strbuf_setlen(&c, INT32_MAX); /* cannot be reached from run.json */
	xmlNodeAddContentLen(n, BAD_CAST c.buf, (int)c.len);
}

static void text(xmlNodePtr n, const char *s)
{
	if (s)
		textn(n, s, strlen(s));
}

static void textf(xmlNodePtr n, const char *fmt, ...) _printf_(2, 3);
static void textf(xmlNodePtr n, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	textn(n, sb.buf, sb.len);
}

/* A JSON string member as text (NUL bytes and all); false when absent. */
static bool jtext(xmlNodePtr n, json_object *o, const char *key)
{
	json_object *m = jsonx_get(o, key);

	if (!m || !json_object_is_type(m, json_type_string))
		return false;
	textn(n, json_object_get_string(m),
	      (size_t)json_object_get_string_len(m));
	return true;
}

static xmlNodePtr elt(struct rh *h, xmlNodePtr parent, const char *name,
		      const char *cls, const char *t)
{
	xmlNodePtr n = elc(h, parent, name, cls);

	text(n, t);
	return n;
}

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

static void badge(struct rh *h, xmlNodePtr parent, const char *cls,
		  const char *t)
{
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;

	strbuf_addf(&c, "badge %s", cls);
	elt(h, parent, "span", c.buf, t);
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
		xmlNodePtr s = elc(h, parent, "span", "muted");
		attr(h, s, "title", rel);
		textf(s, "%s (missing)", label);
		return;
	}
	/* "./" keeps a name such as "x:y" from reading as a URL scheme
	 * (runread refuses ':' anyway). */
	strbuf_addf(&href, "./%s", rel);
	a = el(h, parent, "a");
	attr(h, a, "href", href.buf);
	text(a, label);
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

static xmlNodePtr meta_row(struct rh *h, xmlNodePtr table, const char *label)
{
	xmlNodePtr tr = el(h, table, "tr");

	elt(h, tr, "th", NULL, label);
	return el(h, tr, "td");
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
		elt(h, parent, "span", "muted", id);
		return;
	}
	strbuf_addf(&href, "#%s", h->anchors[i]);
	a = el(h, parent, "a");
	attr(h, a, "href", href.buf);
	text(a, id);
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
		p = elc(h, parent, "p", "status incomplete");
		text(p, "INCOMPLETE: this run was interrupted, killed or is "
			"still running. Below is what it recorded; missing "
			"results are not passes.");
		return;
	}
	switch (code) {
	case 0:
		p = elc(h, parent, "p", "status ok");
		text(p, "Complete: exit 0, everything passed");
		break;
	case 1:
		p = elc(h, parent, "p", "status fail");
		text(p, "Complete: exit 1, a kernel, config or scenario "
			"failure");
		break;
	case 2:
		p = elc(h, parent, "p", "status fail");
		text(p, "Complete: exit 2, bad usage or input");
		break;
	case 3:
		p = elc(h, parent, "p", "status infra");
		text(p, "Complete: exit 3, an infrastructure problem (the "
			"host, not the kernel)");
		break;
	default:
		p = elc(h, parent, "p", "status fail");
		if (code < 0)
			text(p, "Complete, no exit code recorded");
		else
			textf(p, "Complete: exit %" PRId64, code);
	}
}

static void render_header(struct rh *h, xmlNodePtr body)
{
	json_object *run = h->run, *host = jsonx_get(run, "host");
	json_object *plan = jsonx_get(run, "plan");
	xmlNodePtr hd = el(h, body, "header"), t, td, h1;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	time_t t0, t1;

	h1 = el(h, hd, "h1");
	textf(h1, "bootproof %s ", runread_is_matrix(run) ? "run" : "boot");
	jtext(h1, run, "run_id");
	render_status(h, hd);

	t = elc(h, hd, "table", "meta");
	command_line(run, &sb);
	td = meta_row(h, t, "command");
	text(elc(h, td, "code", NULL), sb.buf);
	td = meta_row(h, t, "started");
	jtext(td, run, "started");
	td = meta_row(h, t, "finished");
	if (!jtext(td, run, "finished"))
		text(td, "not finished");
	if (parse_iso(jsonx_str(run, "started"), &t0) &&
	    parse_iso(jsonx_str(run, "finished"), &t1) && t1 >= t0) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, " (");
		duration(&sb, (double)(t1 - t0));
		strbuf_addch(&sb, ')');
		text(td, sb.buf);
	}
	if (host) {
		td = meta_row(h, t, "host");
		if (!jtext(td, host, "hostname"))
			text(td, "?");
		td = meta_row(h, t, "accelerator");
		text(elc(h, td, "b", NULL),
		     jsonx_str(host, "accel") ?: "?");
		if (jsonx_str(host, "accel_reason")) {
			text(td, ": ");
			jtext(td, host, "accel_reason");
		}
		if (jsonx_str(host, "libvirt_uri")) {
			td = meta_row(h, t, "libvirt");
			jtext(td, host, "libvirt_uri");
		}
	}
	if (plan) {
		td = meta_row(h, t, "plan");
		if (!jtext(td, plan, "name"))
			text(td, "?");
		if (jsonx_str(plan, "file")) {
			text(td, " (");
			jtext(td, plan, "file");
			text(td, ")");
		}
		td = meta_row(h, t, "base");
		jtext(td, plan, "base");
		if (jsonx_len(plan, "base_groups")) {
			strbuf_reset(&sb);
			join_strings(plan, "base_groups", ", ", &sb);
			textf(td, " with %s", sb.buf);
		}
		strbuf_reset(&sb);
		join_strings(plan, "arches", ", ", &sb);
		text(meta_row(h, t, "arches"), sb.buf);
		strbuf_reset(&sb);
		join_strings(plan, "groups", ", ", &sb);
		text(meta_row(h, t, "groups"), sb.buf);
		strbuf_reset(&sb);
		join_strings(plan, "candidates", ", ", &sb);
		if (sb.len)
			text(meta_row(h, t, "candidates"), sb.buf);
		if (jsonx_str(plan, "ksrc"))
			jtext(meta_row(h, t, "kernel source"), plan, "ksrc");
	}
}

/* ------------------------------------------------------------ matrix */

static void render_counts(struct rh *h, xmlNodePtr parent)
{
	static const char *const v[] = { "PASS", "PARTIAL", "FAIL", "SKIP" };
	size_t n[4] = { 0 };
	xmlNodePtr p = elc(h, parent, "p", "counts");

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
		badge(h, p, group_class(v[k]), sb.buf);
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

	sec = el(h, main_, "section");
	attr(h, sec, "id", "matrix");
	elt(h, sec, "h2", NULL, "Option groups × architectures");
	render_counts(h, sec);
	if (!groups.n || !arches.n) {
		elt(h, sec, "p", "muted", "This run has no group verdicts.");
		goto out;
	}
	table = elc(h, sec, "table", "matrix");
	tr = el(h, el(h, table, "thead"), "tr");
	elt(h, tr, "th", NULL, "group");
	for (size_t a = 0; a < arches.n; a++)
		elt(h, tr, "th", NULL, arches.v[a]);
	table = el(h, table, "tbody");
	for (size_t g = 0; g < groups.n; g++) {
		xmlNodePtr th;

		tr = el(h, table, "tr");
		th = elt(h, tr, "th", NULL, groups.v[g]);
		attr(h, th, "scope", "row");
		for (size_t a = 0; a < arches.n; a++) {
			json_object *e = group_entry(h, groups.v[g], arches.v[a]);
			const char *v = jsonx_str(e, "verdict");
			_cleanup_strbuf_ struct strbuf cls = STRBUF_INIT;
			xmlNodePtr td;

			strbuf_addf(&cls, "cell %s", group_class(v));
			td = elc(h, tr, "td", cls.buf);
			attr(h, td, "data-group", groups.v[g]);
			attr(h, td, "data-arch", arches.v[a]);
			if (!e) {
				elt(h, td, "div", "verdict", "—");
				elt(h, td, "div", "why muted",
				    "not in this run");
				continue;
			}
			elt(h, td, "div", "verdict", v);
			if (jsonx_str(e, "stage")) {
				xmlNodePtr d = elc(h, td, "div", "stage");
				textf(d, "at %s", jsonx_str(e, "stage"));
			}
			if (jsonx_str(e, "reason"))
				jtext(elc(h, td, "div", "why"), e, "reason");
			if (jsonx_len(e, "dropped")) {
				xmlNodePtr d = elc(h, td, "div", "why");
				_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
				for (size_t k = 0; k < jsonx_len(e, "dropped"); k++)
					strbuf_addf(&sb, "%s%s", k ? ", " : "",
						    jsonx_str(jsonx_at(e, "dropped", k),
								"option"));
				textf(d, "dropped: %s", sb.buf);
			}
			if (jsonx_len(e, "scenarios")) {
				xmlNodePtr d = elc(h, td, "div", "why");
				_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
				for (size_t k = 0; k < jsonx_len(e, "scenarios"); k++) {
					json_object *sc = jsonx_at(e, "scenarios", k);
					strbuf_addf(&sb, "%s%s %s", k ? ", " : "",
						    jsonx_str(sc, "name"),
						    jsonx_str(sc, "result"));
				}
				textf(d, "scenarios: %s", sb.buf);
			}
			if (jsonx_str(e, "candidate"))
				boot_link(h, el(h, td, "div"),
					  jsonx_str(e, "candidate"));
		}
	}
	p = elc(h, sec, "p", "legend");
	badge(h, p, "v-pass", "PASS");
	text(p, "options kept, kernel built and booted, the group's "
		"scenarios passed. ");
	badge(h, p, "v-partial", "PARTIAL");
	text(p, "some options dropped (with reasons), scenarios passed. ");
	badge(h, p, "v-fail", "FAIL");
	text(p, "the stage named failed, for the reason given. ");
	badge(h, p, "v-skip", "SKIP");
	text(p, "nothing could prove it (e.g. its scenarios skipped).");
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

	textf(td, "%s → %s", req ? req : "(unset)",
	      fin ? fin : "(not set)");
}

static void render_dropped(struct rh *h, xmlNodePtr main_)
{
	xmlNodePtr sec = el(h, main_, "section"), table = NULL, tr;
	size_t n = 0;

	attr(h, sec, "id", "dropped");
	elt(h, sec, "h2", NULL, "Dropped options");
	for (size_t i = 0; i < jsonx_len(h->run, "groups"); i++) {
		json_object *g = jsonx_at(h->run, "groups", i);
		long bi = boot_by_candidate(h, jsonx_str(g, "candidate"));
		json_object *b = bi >= 0 ? jsonx_at(h->run, "boots", (size_t)bi)
					 : NULL;

		for (size_t k = 0; k < jsonx_len(g, "dropped"); k++) {
			json_object *d = jsonx_at(g, "dropped", k), *o;
			xmlNodePtr td;

			if (!table) {
				table = elc(h, sec, "table", "list");
				tr = el(h, el(h, table, "thead"), "tr");
				elt(h, tr, "th", NULL, "group");
				elt(h, tr, "th", NULL, "arch");
				elt(h, tr, "th", NULL, "option");
				elt(h, tr, "th", NULL, "requested → final");
				elt(h, tr, "th", NULL, "why");
				table = el(h, table, "tbody");
			}
			o = find_option(b, jsonx_str(d, "option"),
					jsonx_str(g, "group"));
			tr = el(h, table, "tr");
			jtext(el(h, tr, "td"), g, "group");
			jtext(el(h, tr, "td"), g, "arch");
			td = el(h, tr, "td");
			textf(elc(h, td, "code", NULL), "CONFIG_%s",
			      jsonx_str(d, "option"));
			if (o && jsonx_str(o, "source")) {
				xmlNodePtr s = elc(h, td, "div", "muted mono");
				jtext(s, o, "source");
			}
			td = elc(h, tr, "td", "mono");
			if (o)
				value_change(td, o);
			td = el(h, tr, "td");
			if (o && jsonx_str(o, "reason_kind")) {
				jtext(elc(h, td, "b", NULL), o, "reason_kind");
				text(td, ": ");
			}
			if (!jtext(td, d, "reason"))
				jtext(td, o, "reason");
			if (o && jsonx_str(o, "detail"))
				jtext(elc(h, td, "pre", NULL), o, "detail");
			n++;
		}
	}
	if (!n)
		elt(h, sec, "p", "muted",
		    "No requested option was dropped.");
}

static void render_stale(struct rh *h, xmlNodePtr main_)
{
	xmlNodePtr sec = el(h, main_, "section"), table = NULL, tr, td;
	_cleanup_strbuf_ struct strbuf seen = STRBUF_INIT, key = STRBUF_INIT;
	size_t n = 0;

	attr(h, sec, "id", "stale");
	strbuf_addch(&seen, '\n'); /* every key is "\n...\n" */
	elt(h, sec, "h2", NULL, "Stale options in the base configuration");
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
				table = elc(h, sec, "table", "list");
				tr = el(h, el(h, table, "thead"), "tr");
				elt(h, tr, "th", NULL, "arch");
				elt(h, tr, "th", NULL, "base");
				elt(h, tr, "th", NULL, "option");
				elt(h, tr, "th", NULL, "requested → final");
				elt(h, tr, "th", NULL, "why");
				table = el(h, table, "tbody");
			}
			tr = el(h, table, "tr");
			text(el(h, tr, "td"), arch);
			jtext(el(h, tr, "td"), cand, "base");
			td = el(h, tr, "td");
			textf(elc(h, td, "code", NULL), "CONFIG_%s",
			      jsonx_str(o, "option"));
			if (jsonx_str(o, "source"))
				jtext(elc(h, td, "div", "muted mono"), o,
				      "source");
			value_change(elc(h, tr, "td", "mono"), o);
			td = el(h, tr, "td");
			if (jsonx_str(o, "reason_kind")) {
				jtext(elc(h, td, "b", NULL), o, "reason_kind");
				text(td, ": ");
			}
			jtext(td, o, "reason");
			n++;
		}
	}
	if (!n)
		elt(h, sec, "p", "muted",
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
	ul = elc(h, parent, "ul", "checks");
	for (size_t i = 0; i < jsonx_len(o, key); i++) {
		json_object *c = jsonx_at(o, key, i);
		xmlNodePtr li = el(h, ul, "li");
		const char *st = jsonx_str(c, "status");

		badge(h, li, result_class(st), st ? st : "?");
		if (jsonx_str(c, "name") && *jsonx_str(c, "name")) {
			text(li, " ");
			jtext(elc(h, li, "code", NULL), c, "name");
		}
		if (jsonx_str(c, "directive")) {
			text(li, " # ");
			jtext(li, c, "directive");
		}
		if (jsonx_str(c, "reason")) {
			text(li, ": ");
			jtext(li, c, "reason");
		}
		for (size_t k = 0; k < jsonx_len(c, "diagnostics"); k++) {
			json_object *d = jsonx_at(c, "diagnostics", k);
			xmlNodePtr div = elc(h, li, "div", "diag");
			textn(div, json_object_get_string(d),
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
	elt(h, sec, "h4", NULL, "Scenarios");
	table = elc(h, sec, "table", "list");
	tr = el(h, el(h, table, "thead"), "tr");
	elt(h, tr, "th", NULL, "scenario");
	elt(h, tr, "th", NULL, "result");
	elt(h, tr, "th", NULL, "reason and checks");
	table = el(h, table, "tbody");
	for (size_t i = 0; i < jsonx_len(b, "scenarios"); i++) {
		json_object *s = jsonx_at(b, "scenarios", i);
		json_object *host = jsonx_get(s, "host");
		const char *r = jsonx_str(s, "result");
		xmlNodePtr det, sum;
		size_t nc = jsonx_len(s, "checks");

		tr = el(h, table, "tr");
		jtext(elc(h, el(h, tr, "td"), "code", NULL), s, "name");
		badge(h, el(h, tr, "td"), result_class(r), r);
		td = el(h, tr, "td");
		if (jsonx_str(s, "reason"))
			jtext(el(h, td, "div"), s, "reason");
		if (host && jsonx_str(host, "reason")) {
			xmlNodePtr d = el(h, td, "div");
			text(d, "host: ");
			jtext(d, host, "reason");
		}
		if (!nc)
			continue;
		det = el(h, td, "details");
		if (strcmp(r, "pass") && strcmp(r, "skip"))
			attr(h, det, "open", "open");
		sum = el(h, det, "summary");
		textf(sum, "%zu check%s", nc, nc == 1 ? "" : "s");
		render_checks(h, det, s, "checks");
	}
}

static void render_problems(struct rh *h, xmlNodePtr sec, json_object *b)
{
	size_t n = jsonx_len(b, "problems");
	xmlNodePtr hd;

	if (!n)
		return;
	hd = el(h, sec, "h4");
	textf(hd, "Kernel problems (%zu)", n);
	for (size_t i = 0; i < n; i++) {
		json_object *p = jsonx_at(b, "problems", i);
		bool allowed = jsonx_bool(p, "allowed", false);
		xmlNodePtr div = elc(h, sec, "div", allowed ? "problem allowed"
							   : "problem");
		xmlNodePtr t = elc(h, div, "p", "ptitle"), m, det, sum;
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		double line, ts, first, last;

		/* "WARNING: CPU..." says its kind; "Kernel panic..." not. */
		if (strncmp(jsonx_str(p, "title"), jsonx_str(p, "kind"),
			    strlen(jsonx_str(p, "kind"))))
			jtext(elc(h, t, "span", "kind"), p, "kind");
		jtext(t, p, "title");
		m = elc(h, div, "div", "sub");
		if (jsonx_str(p, "signature")) {
			text(m, "signature ");
			jtext(elc(h, m, "code", NULL), p, "signature");
		}
		if (jsonx_num(p, "line", &line))
			strbuf_addf(&sb, " · console line %.0f", line);
		if (jsonx_num(p, "timestamp", &ts) && ts >= 0)
			strbuf_addf(&sb, " · at %.3f s", ts);
		if (jsonx_str(p, "end"))
			strbuf_addf(&sb, " · ended by %s", jsonx_str(p, "end"));
		if (allowed)
			strbuf_addstr(&sb, " · allowed (does not fail the boot)");
		text(m, sb.buf);
		if (jsonx_str(p, "reason")) {
			xmlNodePtr r = elc(h, div, "div", NULL);
			text(r, "reason: ");
			jtext(r, p, "reason");
		}
		if (jsonx_len(p, "frames")) {
			strbuf_reset(&sb);
			join_strings(p, "frames", " ← ", &sb);
			xmlNodePtr f = elc(h, div, "div", "mono");
			textf(f, "frames: %s", sb.buf);
		}
		if (!jsonx_str(p, "report"))
			continue;
		det = el(h, div, "details");
		attr(h, det, "open", "open");
		sum = el(h, det, "summary");
		if (jsonx_num(p, "first_line", &first) &&
		    jsonx_num(p, "last_line", &last))
			textf(sum, "report block (console lines %.0f–%.0f)",
			      first, last);
		else
			text(sum, "report block");
		jtext(el(h, det, "pre"), p, "report");
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
	det = el(h, sec, "details");
	sum = el(h, det, "summary");
	textf(sum, "Requested options: %zu kept, %zu dropped", kept, n - kept);
	table = elc(h, det, "table", "list");
	tr = el(h, el(h, table, "thead"), "tr");
	elt(h, tr, "th", NULL, "option");
	elt(h, tr, "th", NULL, "group");
	elt(h, tr, "th", NULL, "requested → final");
	elt(h, tr, "th", NULL, "status");
	elt(h, tr, "th", NULL, "why");
	table = el(h, table, "tbody");
	for (size_t i = 0; i < n; i++) {
		json_object *o = jsonx_at(cfg, "options", i);
		const char *st = jsonx_str(o, "status");

		tr = el(h, table, "tr");
		td = el(h, tr, "td");
		textf(elc(h, td, "code", NULL), "CONFIG_%s",
		      jsonx_str(o, "option"));
		if (jsonx_str(o, "source"))
			jtext(elc(h, td, "div", "muted mono"), o, "source");
		jtext(el(h, tr, "td"), o, "group");
		value_change(elc(h, tr, "td", "mono"), o);
		badge(h, el(h, tr, "td"), result_class(st), st);
		td = el(h, tr, "td");
		if (jsonx_str(o, "reason_kind")) {
			jtext(elc(h, td, "b", NULL), o, "reason_kind");
			text(td, ": ");
		}
		jtext(td, o, "reason");
		if (jsonx_str(o, "detail"))
			jtext(elc(h, td, "pre", NULL), o, "detail");
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
	det = el(h, sec, "details");
	if (!v || strcmp(v, "BOOTED"))
		attr(h, det, "open", "open");
	sum = el(h, det, "summary");
	textf(sum, "End of %s (last %zu lines of %ld bytes)", rel, t->n, size);
	free(t);
	textn(elc(h, det, "pre", "console"), out.buf, out.len);
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
	xmlNodePtr tr = el(h, table, "tr");

	elt(h, tr, "th", NULL, stage);
	badge(h, el(h, tr, "td"), cls, verdict);
	*ret_td = el(h, tr, "td");
}

static void render_stages(struct rh *h, xmlNodePtr sec, json_object *b)
{
	json_object *cfg = jsonx_get(b, "config");
	json_object *build = jsonx_get(b, "build");
	json_object *end = jsonx_get(b, "end");
	const char *v = jsonx_str(b, "verdict");
	xmlNodePtr table, tr, td, d;
	double x, y;

	table = elc(h, sec, "table", "list stages");
	tr = el(h, el(h, table, "thead"), "tr");
	elt(h, tr, "th", NULL, "stage");
	elt(h, tr, "th", NULL, "result");
	elt(h, tr, "th", NULL, "details");
	table = el(h, table, "tbody");
	if (cfg) {
		const char *r = jsonx_str(cfg, "result");
		size_t n = jsonx_len(cfg, "options"), kept = 0;

		for (size_t i = 0; i < n; i++)
			if (!strcmp(jsonx_str(jsonx_at(cfg, "options", i),
						"status"), "kept"))
				kept++;
		stage_row(h, table, "config", result_class(r), r, &td);
		if (jsonx_str(cfg, "error"))
			jtext(el(h, td, "div"), cfg, "error");
		d = el(h, td, "div");
		if (jsonx_str(cfg, "release"))
			textf(d, "Linux %s: ", jsonx_str(cfg, "release"));
		textf(d, "%zu of %zu requested options kept", kept, n);
		if (jsonx_len(cfg, "stale_base"))
			textf(d, "; %zu stale base option%s",
			      jsonx_len(cfg, "stale_base"),
			      jsonx_len(cfg, "stale_base") == 1 ? "" : "s");
		if (jsonx_str(cfg, "final_config")) {
			text(d, " · ");
			file_link(h, d, jsonx_str(cfg, "final_config"),
				  "final .config");
		}
	}
	if (build) {
		const char *r = jsonx_str(build, "result");

		stage_row(h, table, "build", result_class(r), r, &td);
		d = el(h, td, "div");
		if (jsonx_num(build, "seconds", &x)) {
			_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
			duration(&sb, x);
			text(d, sb.buf);
		}
		if (jsonx_str(build, "reason")) {
			text(d, d->children ? " · " : "");
			jtext(d, build, "reason");
		}
		if (jsonx_str(build, "log")) {
			text(d, d->children ? " · " : "");
			file_link(h, d, jsonx_str(build, "log"), "build log");
		}
		if (jsonx_str(build, "first_error"))
			jtext(elc(h, td, "pre", NULL), build, "first_error");
	}
	stage_row(h, table, "boot", boot_class(v), v ? v : "not booted", &td);
	if (jsonx_str(b, "reason"))
		jtext(el(h, td, "div"), b, "reason");
	d = elc(h, td, "div", "sub");
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
		text(d, sb.buf);
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
	sec = elc(h, parent, "section", "boot");
	attr(h, sec, "id", h->anchors[i]);
	h3 = el(h, sec, "h3");
	text(el(h, h3, "span"), key.buf);
	badge(h, h3, boot_class(v), v ? v : "not booted");

	p = elc(h, sec, "p", "sub");
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
	text(p, sb.buf);

	render_stages(h, sec, b);

	if (kernel && (jsonx_str(kernel, "path") ||
		       jsonx_str(kernel, "banner"))) {
		xmlNodePtr det = el(h, sec, "details"), td;

		text(el(h, det, "summary"), "Kernel and command line");
		t = elc(h, det, "table", "meta");
		if (jsonx_str(kernel, "banner"))
			jtext(elc(h, meta_row(h, t, "banner"), "code", NULL),
			      kernel, "banner");
		if (jsonx_str(kernel, "path"))
			jtext(elc(h, meta_row(h, t, "kernel"), "code", NULL),
			      kernel, "path");
		if (jsonx_str(kernel, "initrd"))
			jtext(elc(h, meta_row(h, t, "initrd"), "code", NULL),
			      kernel, "initrd");
		if (jsonx_str(kernel, "config"))
			jtext(elc(h, meta_row(h, t, "config"), "code", NULL),
			      kernel, "config");
		if (jsonx_str(b, "cmdline"))
			jtext(elc(h, meta_row(h, t, "command line"), "code",
				  NULL),
			      b, "cmdline");
		if (jsonx_str(b, "image"))
			jtext(elc(h, meta_row(h, t, "image"), "code", NULL), b,
			      "image");
		if (jsonx_str(b, "accel_reason")) {
			td = meta_row(h, t, "accelerator");
			textf(td, "%s: ", jsonx_str(b, "accel") ?: "?");
			jtext(td, b, "accel_reason");
		}
	}
	render_scenarios(h, sec, b);
	render_problems(h, sec, b);
	render_options(h, sec, jsonx_get(b, "config"));
	if (jsonx_str(files, "console"))
		render_console_tail(h, sec, b, jsonx_str(files, "console"));

	p = elc(h, sec, "p", "files");
	{
		json_object *cfg = jsonx_get(b, "config");
		json_object *build = jsonx_get(b, "build");
		bool any = false;

		text(elc(h, p, "b", NULL), "Files: ");
		if (files) {
			json_object_object_foreach(files, fk, fv)
			{
				if (!fv)
					continue;
				file_link(h, p, json_object_get_string(fv),
					  file_label(fk));
				text(p, " ");
				any = true;
			}
		}
		if (jsonx_str(cfg, "final_config")) {
			file_link(h, p, jsonx_str(cfg, "final_config"),
				  "final .config");
			text(p, " ");
			any = true;
		}
		if (jsonx_str(build, "log")) {
			file_link(h, p, jsonx_str(build, "log"), "build log");
			any = true;
		}
		if (!any)
			text(p, "none recorded");
	}
}

static void render_boot_index(struct rh *h, xmlNodePtr sec)
{
	xmlNodePtr table, tr, td;

	table = elc(h, sec, "table", "list");
	tr = el(h, el(h, table, "thead"), "tr");
	elt(h, tr, "th", NULL, "candidate");
	elt(h, tr, "th", NULL, "config");
	elt(h, tr, "th", NULL, "build");
	elt(h, tr, "th", NULL, "boot");
	elt(h, tr, "th", NULL, "init after");
	elt(h, tr, "th", NULL, "scenarios");
	elt(h, tr, "th", NULL, "problems");
	table = el(h, table, "tbody");
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
		tr = el(h, table, "tr");
		strbuf_addf(&href, "#%s", h->anchors[i]);
		a = el(h, el(h, tr, "td"), "a");
		attr(h, a, "href", href.buf);
		text(a, key.buf);
		td = el(h, tr, "td");
		if (cfg)
			badge(h, td, result_class(jsonx_str(cfg, "result")),
			      jsonx_str(cfg, "result"));
		td = el(h, tr, "td");
		if (build)
			badge(h, td, result_class(jsonx_str(build, "result")),
			      jsonx_str(build, "result"));
		badge(h, el(h, tr, "td"), boot_class(v), v ? v : "not booted");
		td = el(h, tr, "td");
		if (jsonx_num(b, "time_to_init_s", &x))
			textf(td, "%.1f s", x);
		td = el(h, tr, "td");
		for (size_t k = 0; k < jsonx_len(b, "scenarios"); k++) {
			json_object *s = jsonx_at(b, "scenarios", k);
			strbuf_addf(&sb, "%s%s %s", k ? ", " : "",
				    jsonx_str(s, "name"),
				    jsonx_str(s, "result"));
		}
		text(td, sb.buf);
		td = el(h, tr, "td");
		if (np)
			textf(td, "%zu", np);
	}
}

static void render_boots(struct rh *h, xmlNodePtr main_)
{
	size_t n = jsonx_len(h->run, "boots");
	bool matrix = runread_is_matrix(h->run);
	xmlNodePtr sec = el(h, main_, "section");

	attr(h, sec, "id", "boots");
	elt(h, sec, "h2", NULL, matrix ? "Candidates" : n == 1 ? "Boot" : "Boots");
	if (!n) {
		elt(h, sec, "p", "muted", "No boot was recorded.");
		return;
	}
	if (n > 1)
		render_boot_index(h, sec);
	for (size_t i = 0; i < n; i++)
		render_boot(h, sec, i);
}

static void render_footer(struct rh *h, xmlNodePtr body)
{
	xmlNodePtr f = el(h, body, "footer");

	text(f, "Written by bootproof report from ");
	file_link(h, f, "run.json", "run.json");
	if (file_exists(h, "junit.xml")) {
		text(f, " (JUnit: ");
		file_link(h, f, "junit.xml", "junit.xml");
		text(f, ")");
	}
	text(f, ". docs/report.md describes this page.");
}

static void render_page(struct rh *h, xmlDocPtr doc)
{
	xmlNodePtr html, head, body, n, main_, nav;
	bool matrix = runread_is_matrix(h->run);
	_cleanup_strbuf_ struct strbuf title = STRBUF_INIT;

	html = xmlNewNode(NULL, BAD_CAST "html");
	if (!html) {
		h->oom = true;
		return;
	}
	xmlDocSetRootElement(doc, html);
	attr(h, html, "lang", "en");
	head = el(h, html, "head");
	n = el(h, head, "meta");
	attr(h, n, "charset", "utf-8");
	n = el(h, head, "meta");
	attr(h, n, "name", "viewport");
	attr(h, n, "content", "width=device-width, initial-scale=1");
	n = el(h, head, "meta");
	attr(h, n, "name", "generator");
	attr(h, n, "content", "bootproof");
	strbuf_addf(&title, "bootproof %s: %s",
		    jsonx_str(h->run, "run_id"),
		    !jsonx_bool(h->run, "complete", false) ? "INCOMPLETE"
		    : jsonx_get(h->run, "exit_code") &&
				    json_object_get_int(jsonx_get(h->run,
								    "exit_code")) == 0
			    ? "passed"
			    : "failed");
	text(el(h, head, "title"), title.buf);
	n = el(h, head, "style");
	if (n)
		xmlNodeAddContent(n, BAD_CAST page_css);

	body = el(h, html, "body");
	render_header(h, body);
	if (matrix) {
		nav = el(h, xmlGetLastChild(body), "nav");
		n = el(h, nav, "a");
		attr(h, n, "href", "#matrix");
		text(n, "matrix");
		n = el(h, nav, "a");
		attr(h, n, "href", "#dropped");
		text(n, "dropped options");
		n = el(h, nav, "a");
		attr(h, n, "href", "#stale");
		text(n, "stale base options");
		n = el(h, nav, "a");
		attr(h, n, "href", "#boots");
		text(n, "candidates");
	}
	main_ = el(h, body, "main");
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
	xmlOutputBufferPtr ob = NULL;
	size_t size;
	char *page;
	int r = 0;

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
	hd = htmlNewDocNoDtD(NULL, NULL);
	if (!hd) {
		r = -ENOMEM;
		goto out;
	}
	if (!xmlCreateIntSubset(hd, BAD_CAST "html", NULL, NULL))
		h.oom = true;
	render_page(&h, hd);
	if (!h.oom) {
		/*
		 * An output buffer without an encoder writes UTF-8 as it is
		 * (every string was made valid UTF-8 above);
		 * htmlDocDumpMemory would pick libxml2's "HTML" encoder,
		 * which turns every non-ASCII character into an entity.
		 */
		ob = xmlAllocOutputBuffer(NULL);
		if (ob) {
			htmlDocContentDumpFormatOutput(ob, hd, NULL, 1);
			if (xmlOutputBufferFlush(ob) < 0)
				h.oom = true;
		} else {
			h.oom = true;
		}
	}
	xmlFreeDoc(hd);
	if (h.oom) {
		r = -ENOMEM;
		goto out;
	}
	size = xmlOutputBufferGetSize(ob);
	page = malloc(size + 1);
	if (!page) {
		r = -ENOMEM;
		goto out;
	}
	memcpy(page, xmlOutputBufferGetContent(ob), size);
	page[size] = '\0';
	*ret = page;
	if (ret_len)
		*ret_len = size;
out:
	if (ob)
		xmlOutputBufferClose(ob);
	for (size_t i = 0; i < h.n_anchors; i++)
		free(h.anchors[i]);
	free(h.anchors);
	return r;
}
