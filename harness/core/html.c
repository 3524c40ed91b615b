// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/html.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonx.h"

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

void html_clean_text(const char *s, size_t n, struct strbuf *out)
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

/* ------------------------------------------------------------ document */

/* What a document's _private points to once building it failed. */
static char failed;

void html_fail(xmlNodePtr n)
{
	if (n && n->doc)
		n->doc->_private = &failed;
}

htmlDocPtr html_doc_new(const char *lang, xmlNodePtr *ret_root)
{
	htmlDocPtr doc = htmlNewDocNoDtD(NULL, NULL);
	xmlNodePtr root;

	*ret_root = NULL;
	if (!doc)
		return NULL;
	if (!xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL))
		doc->_private = &failed;
	root = xmlNewNode(NULL, BAD_CAST "html");
	if (!root) {
		doc->_private = &failed;
		return doc;
	}
	xmlDocSetRootElement(doc, root);
	html_attr(root, "lang", lang);
	*ret_root = root;
	return doc;
}

int html_doc_dump(htmlDocPtr doc, char **ret, size_t *ret_len)
{
	xmlOutputBufferPtr ob;
	size_t size;
	char *page;
	int r = 0;

	if (doc->_private == &failed)
		return -ENOMEM;
	/*
	 * An output buffer without an encoder writes UTF-8 as it is (every
	 * string was made valid UTF-8 on the way in); htmlDocDumpMemory
	 * would pick libxml2's "HTML" encoder, which turns every non-ASCII
	 * character into an entity.
	 */
	ob = xmlAllocOutputBuffer(NULL);
	if (!ob)
		return -ENOMEM;
	htmlDocContentDumpFormatOutput(ob, doc, NULL, 1);
	if (xmlOutputBufferFlush(ob) < 0) {
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
	xmlOutputBufferClose(ob);
	return r;
}

/* ------------------------------------------------------------ tree */

xmlNodePtr html_el(xmlNodePtr parent, const char *name)
{
	xmlNodePtr n;

	if (!parent)
		return NULL;
	n = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
	if (!n)
		html_fail(parent);
	return n;
}

void html_attr(xmlNodePtr n, const char *key, const char *val)
{
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;

	if (!n)
		return;
	html_clean_text(val ? val : "", val ? strlen(val) : 0, &c);
	if (!xmlSetProp(n, BAD_CAST key, BAD_CAST c.buf))
		html_fail(n);
}

xmlNodePtr html_elc(xmlNodePtr parent, const char *name, const char *cls)
{
	xmlNodePtr n = html_el(parent, name);

	if (cls)
		html_attr(n, "class", cls);
	return n;
}

void html_textn(xmlNodePtr n, const char *s, size_t len)
{
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;

	if (!n || !s)
		return;
	html_clean_text(s, len, &c);
	if (c.len > INT32_MAX) /* cannot be reached from run.json */
		strbuf_setlen(&c, INT32_MAX);
	xmlNodeAddContentLen(n, BAD_CAST c.buf, (int)c.len);
}

void html_text(xmlNodePtr n, const char *s)
{
	if (s)
		html_textn(n, s, strlen(s));
}

void html_textf(xmlNodePtr n, const char *fmt, ...)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	html_textn(n, sb.buf, sb.len);
}

bool html_jtext(xmlNodePtr n, json_object *o, const char *key)
{
	json_object *m = jsonx_get(o, key);

	if (!m || !json_object_is_type(m, json_type_string))
		return false;
	html_textn(n, json_object_get_string(m),
		   (size_t)json_object_get_string_len(m));
	return true;
}

xmlNodePtr html_elt(xmlNodePtr parent, const char *name, const char *cls,
		    const char *t)
{
	xmlNodePtr n = html_elc(parent, name, cls);

	html_text(n, t);
	return n;
}

void html_badge(xmlNodePtr parent, const char *cls, const char *t)
{
	_cleanup_strbuf_ struct strbuf c = STRBUF_INIT;

	strbuf_addf(&c, "badge %s", cls);
	html_elt(parent, "span", c.buf, t);
}

xmlNodePtr html_row(xmlNodePtr table, const char *label)
{
	xmlNodePtr tr = html_el(table, "tr");

	html_elt(tr, "th", NULL, label);
	return html_el(tr, "td");
}

xmlNodePtr html_thead(xmlNodePtr table, const char *const *cols, size_t n)
{
	xmlNodePtr tr = html_el(html_el(table, "thead"), "tr");

	for (size_t i = 0; i < n; i++)
		html_elt(tr, "th", NULL, cols[i]);
	return html_el(table, "tbody");
}
