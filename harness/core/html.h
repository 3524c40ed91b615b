/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html: building an HTML page as a libxml2 tree, so that every string
 * from outside (the guest, the kernel, a plan, the user) becomes a text
 * node or an attribute value that the serialiser escapes: nothing is
 * concatenated into markup.  Strings are made valid UTF-8 first
 * (html_clean_text).  Pure: the page is returned as bytes.
 *
 * Helpers take the parent node and do nothing when it is NULL, so a
 * caller builds a whole page without checking each step; an allocation
 * that fails is remembered by the node's document and reported once by
 * html_doc_dump().  Element helpers return the new node (NULL on
 * failure); none of them owns or keeps a string it is given.
 */
#ifndef BP_HTML_H
#define BP_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include "util/strbuf.h"

/*
 * Make s (n bytes) fit for a text node: valid UTF-8 (U+FFFD for each
 * invalid byte), C0 controls other than \t and \n and DEL as control
 * pictures (U+2400 + c, U+2421), \r dropped.  Appends to out.
 */
void html_clean_text(const char *s, size_t n, struct strbuf *out);

/*
 * A new document (<!DOCTYPE html>) whose root is <html lang=lang>; *ret
 * is the root element.  Returns the document (free with xmlFreeDoc), or
 * NULL when out of memory.
 */
htmlDocPtr html_doc_new(const char *lang, xmlNodePtr *ret_root);

/* Note a failure to build (out of memory) on n's document. */
void html_fail(xmlNodePtr n);

/*
 * The page as UTF-8 bytes as they are (no character entities), indented.
 * *ret is malloc'd and NUL-terminated (caller frees), *ret_len (may be
 * NULL) its length.  Returns 0, or -ENOMEM (also when building the tree
 * failed at any step).
 */
int html_doc_dump(htmlDocPtr doc, char **ret, size_t *ret_len);

/* <name> appended to parent. */
xmlNodePtr html_el(xmlNodePtr parent, const char *name);
/* <name class=cls> (no class when cls is NULL). */
xmlNodePtr html_elc(xmlNodePtr parent, const char *name, const char *cls);
/* <name class=cls>t</name> (no text when t is NULL). */
xmlNodePtr html_elt(xmlNodePtr parent, const char *name, const char *cls,
		    const char *t);
/* key=val on n (val NULL: empty). */
void html_attr(xmlNodePtr n, const char *key, const char *val);

/* Text appended to n: s (NULL: nothing), len bytes, or formatted. */
void html_text(xmlNodePtr n, const char *s);
void html_textn(xmlNodePtr n, const char *s, size_t len);
void html_textf(xmlNodePtr n, const char *fmt, ...) _printf_(2, 3);
/* The JSON string member o[key] as text, NUL bytes and all; false (and
 * nothing added) when it is absent or not a string. */
bool html_jtext(xmlNodePtr n, json_object *o, const char *key);

/* <span class="badge cls">t</span>. */
void html_badge(xmlNodePtr parent, const char *cls, const char *t);
/* A <tr><th>label</th><td></td></tr> of table; returns the td. */
xmlNodePtr html_row(xmlNodePtr table, const char *label);
/* The <thead> of table, one <th> per column (n of them); returns the
 * <tbody> that follows it. */
xmlNodePtr html_thead(xmlNodePtr table, const char *const *cols, size_t n);

#endif
