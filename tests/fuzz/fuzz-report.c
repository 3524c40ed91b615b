// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.json (read back by the report and diff verbs) and the HTML report
 * made of it: everything in a record may come from the guest (console
 * lines, KTAP names, problem titles) or from a user.
 *
 * Input: a run.json, then optionally a NUL byte and the console log the
 * page shows the end of.  Checks (runread.h, report_html.h): the reader
 * accepts or names the file in its error; a document it accepts renders;
 * the page, parsed back with libxml2's HTML parser, has no script (no
 * script, iframe, object, embed or svg element, no on* attribute, no link
 * or source with a scheme or outside the run directory); the same
 * document renders to the same bytes.
 */
#include "fuzz.h"

#include <libxml/HTMLparser.h>
#include <strings.h>

#include "core/report_html.h"
#include "core/runread.h"
#include "util/jsonx.h"

static const char name[] = "fuzz/run.json";

struct files {
	const char *log;
	size_t len;
};

static bool f_exists(void *ud, const char *relpath)
{
	FUZZ_CHECK(relpath && *relpath != '/');
	return true;
}

static long f_tail(void *ud, const char *relpath, size_t max,
		   struct strbuf *out)
{
	const struct files *f = ud;
	size_t n = f->len < max ? f->len : max;

	FUZZ_CHECK(relpath && *relpath != '/');
	strbuf_add(out, f->log + f->len - n, n);
	return (long)f->len;
}

static bool bad_url(const char *v)
{
	size_t i = strcspn(v, ":/?#");

	/* relative, inside the run directory, or a fragment */
	return v[i] == ':' || v[0] == '/' || !strncmp(v, "..", 2) ||
	       strstr(v, "/../");
}

static void check_tree(xmlNodePtr n)
{
	static const char *const banned[] = { "script", "iframe", "object",
					      "embed", "svg", "math", "base",
					      "frame", "applet", NULL };

	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE) {
			for (const char *const *b = banned; *b; b++)
				FUZZ_CHECK(strcasecmp((const char *)n->name, *b));
			for (xmlAttrPtr a = n->properties; a; a = a->next) {
				const char *an = (const char *)a->name;
				xmlChar *v;

				FUZZ_CHECK(strncasecmp(an, "on", 2));
				if (strcasecmp(an, "href") && strcasecmp(an, "src"))
					continue;
				v = xmlNodeGetContent((xmlNodePtr)a);
				FUZZ_CHECK(v);
				if (bad_url((const char *)v))
					fprintf(stderr, "link: %s\n", v);
				FUZZ_CHECK(!bad_url((const char *)v));
				xmlFree(v);
			}
		}
		check_tree(n->children);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memchr(data, '\0', size);
	size_t jlen = sep ? (size_t)(sep - data) : size;
	struct files f = { .log = sep ? (const char *)sep + 1 : "",
			   .len = sep ? size - jlen - 1 : 0 };
	struct report_html_ops ops = { .exists = f_exists, .tail = f_tail,
				       .ud = &f };
	struct strbuf err = STRBUF_INIT, key = STRBUF_INIT;
	json_object *doc = NULL;
	char *page = NULL, *again = NULL;
	size_t plen = 0, alen = 0;
	htmlDocPtr html;
	int r;

	r = runread_parse(name, (const char *)data, jlen, &doc, &err);
	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -EPROTONOSUPPORT);
	if (r < 0) {
		FUZZ_CHECK(!doc);
		FUZZ_CHECK(!strncmp(err.buf, name, strlen(name)));
		strbuf_release(&err);
		return 0;
	}
	FUZZ_CHECK(doc);
	FUZZ_CHECK(runread_validate(name, doc, &err) == 0);
	(void)runread_is_matrix(doc);
	for (size_t i = 0; i < jsonx_len(doc, "boots") && i < 64; i++)
		runread_boot_key(doc, i, &key);

	FUZZ_CHECK(report_html_render(doc, &ops, &page, &plen) == 0);
	FUZZ_CHECK(page && strlen(page) == plen);
	FUZZ_CHECK(report_html_render(doc, &ops, &again, &alen) == 0);
	FUZZ_CHECK(alen == plen && !memcmp(page, again, plen));

	html = htmlReadMemory(page, (int)plen, "report.html", "UTF-8",
			      HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
				      HTML_PARSE_NONET);
	FUZZ_CHECK(html);
	check_tree(xmlDocGetRootElement(html));
	xmlFreeDoc(html);

	free(page);
	free(again);
	json_object_put(doc);
	strbuf_release(&err);
	strbuf_release(&key);
	return 0;
}
