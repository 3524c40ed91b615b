// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/junit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "util/strbuf.h"

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

struct w {
	xmlTextWriterPtr x;
	int bad;
};

static void st(struct w *w, const char *el)
{
	w->bad |= xmlTextWriterStartElement(w->x, BAD_CAST el) < 0;
}

static void en(struct w *w)
{
	w->bad |= xmlTextWriterEndElement(w->x) < 0;
}

static void at(struct w *w, const char *k, const char *v)
{
	w->bad |= xmlTextWriterWriteAttribute(w->x, BAD_CAST k,
					      BAD_CAST(v ? v : "")) < 0;
}

static void txt(struct w *w, const char *t)
{
	w->bad |= xmlTextWriterWriteString(w->x, BAD_CAST(t ? t : "")) < 0;
}

static void atn(struct w *w, const char *k, long n)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld", n);
	at(w, k, b);
}

struct counts {
	long tests, failures, errors, skipped;
};

/* A test case: result "pass", "fail", "error" or "skip". */
static void testcase(struct w *w, const char *cls, const char *name,
		     const char *result, const char *message,
		     const char *details, struct counts *c)
{
	st(w, "testcase");
	at(w, "classname", cls);
	at(w, "name", name);
	c->tests++;
	if (!strcmp(result, "fail") || !strcmp(result, "error")) {
		bool err = !strcmp(result, "error");
		st(w, err ? "error" : "failure");
		at(w, "message", message ? message : result);
		if (details)
			txt(w, details);
		en(w);
		if (err)
			c->errors++;
		else
			c->failures++;
	} else if (!strcmp(result, "skip")) {
		st(w, "skipped");
		at(w, "message", message ? message : "skipped");
		en(w);
		c->skipped++;
	}
	en(w);
}

static void diags_of(json_object *t, struct strbuf *sb, int depth)
{
	json_object *d = jget(t, "diagnostics"), *s = jget(t, "subtests");

	if (depth && jstr(t, "status") && strcmp(jstr(t, "status"), "pass") &&
	    strcmp(jstr(t, "status"), "skip"))
		strbuf_addf(sb, "%*s%s: %s%s%s\n", depth * 2, "",
			    jstr(t, "name") ?: "", jstr(t, "status"), jstr(t, "reason") ? " - " : "",
			    jstr(t, "reason") ? jstr(t, "reason") : "");
	for (size_t i = 0; d && i < json_object_array_length(d); i++)
		strbuf_addf(sb, "%*s# %s\n", depth * 2 + 2, "",
			    json_object_get_string(json_object_array_get_idx(d, i)));
	for (size_t i = 0; s && i < json_object_array_length(s); i++)
		diags_of(json_object_array_get_idx(s, i), sb, depth + 1);
}

static void suite(struct w *w, json_object *rec)
{
	const char *name = jstr(rec, "name");
	json_object *cfg = jget(rec, "config"), *build = jget(rec, "build");
	json_object *sc = jget(rec, "scenarios"), *pr = jget(rec, "problems");
	struct counts c = { 0 };
	_cleanup_strbuf_ struct strbuf cls = STRBUF_INIT;

	strbuf_addf(&cls, "bootproof.%s", name ? name : "boot");
	/* Counts go on the element before its children are known: write
	 * the cases into a separate writer would cost more than counting
	 * twice, so count first. */
	{
		json_object *opts = jget(cfg, "options");
		c.tests = (opts ? (long)json_object_array_length(opts) : 0) +
			  (build ? 1 : 0) + (jstr(rec, "verdict") ? 1 : 0) +
			  (sc ? (long)json_object_array_length(sc) : 0);
		for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
			const char *s = jstr(json_object_array_get_idx(opts, i), "status");
			if (s && strcmp(s, "kept"))
				c.failures++;
		}
		if (build && jstr(build, "result") && strcmp(jstr(build, "result"), "pass") &&
		    strcmp(jstr(build, "result"), "reused") &&
		    strcmp(jstr(build, "result"), "skip"))
			c.failures++;
		else if (build && jstr(build, "result") &&
			 !strcmp(jstr(build, "result"), "skip"))
			c.skipped++;
		if (jstr(rec, "verdict") && strcmp(jstr(rec, "verdict"), "BOOTED")) {
			if (!strcmp(jstr(rec, "verdict"), "INFRA") ||
			    !strcmp(jstr(rec, "verdict"), "INCOMPLETE"))
				c.errors++;
			else
				c.failures++;
		}
		for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
			const char *r = jstr(json_object_array_get_idx(sc, i), "result");
			if (!r)
				continue;
			if (!strcmp(r, "fail"))
				c.failures++;
			else if (!strcmp(r, "error") || !strcmp(r, "pending"))
				c.errors++;
			else if (!strcmp(r, "skip"))
				c.skipped++;
		}
	}
	st(w, "testsuite");
	at(w, "name", name ? name : "boot");
	atn(w, "tests", c.tests);
	atn(w, "failures", c.failures);
	atn(w, "errors", c.errors);
	atn(w, "skipped", c.skipped);
	if (jget(rec, "elapsed_s"))
		at(w, "time", jstr(rec, "elapsed_s"));

	memset(&c, 0, sizeof(c));
	{
		json_object *opts = jget(cfg, "options");
		for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
			json_object *o = json_object_array_get_idx(opts, i);
			_cleanup_strbuf_ struct strbuf n = STRBUF_INIT;
			const char *s = jstr(o, "status");
			strbuf_addf(&n, "config:%s", jstr(o, "option") ?: "?");
			testcase(w, cls.buf, n.buf,
				 s && !strcmp(s, "kept") ? "pass" : "fail",
				 jstr(o, "reason"), jstr(o, "detail"), &c);
		}
	}
	if (build)
		testcase(w, cls.buf, "build",
			 jstr(build, "result") ? jstr(build, "result") : "error",
			 jstr(build, "reason"), jstr(build, "first_error"), &c);
	if (jstr(rec, "verdict")) {
		const char *v = jstr(rec, "verdict");
		_cleanup_strbuf_ struct strbuf det = STRBUF_INIT;
		for (size_t i = 0; pr && i < json_object_array_length(pr) && i < 3; i++)
			strbuf_addf(&det, "%s\n", jstr(json_object_array_get_idx(pr, i),
						       "report"));
		testcase(w, cls.buf, "boot",
			 !strcmp(v, "BOOTED") ? "pass"
			 : !strcmp(v, "INFRA") || !strcmp(v, "INCOMPLETE") ? "error"
									     : "fail",
			 jstr(rec, "reason"), det.len ? det.buf : NULL, &c);
	}
	for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
		json_object *s = json_object_array_get_idx(sc, i), *ch;
		_cleanup_strbuf_ struct strbuf n = STRBUF_INIT, det = STRBUF_INIT;
		const char *r = jstr(s, "result");

		strbuf_addf(&n, "scenario:%s", jstr(s, "name") ?: "?");
		ch = jget(s, "checks");
		for (size_t j = 0; ch && j < json_object_array_length(ch); j++)
			diags_of(json_object_array_get_idx(ch, j), &det, 1);
		testcase(w, cls.buf, n.buf,
			 !r || !strcmp(r, "pending") ? "error" : r,
			 jstr(s, "reason"), det.len ? det.buf : NULL, &c);
	}
	en(w);
}

int junit_from_records(json_object *suites, char **ret)
{
	xmlBufferPtr buf;
	struct w w = { 0 };
	int r = 0;

	if (!suites || !json_object_is_type(suites, json_type_array))
		return -EINVAL;
	buf = xmlBufferCreate();
	if (!buf)
		return -ENOMEM;
	w.x = xmlNewTextWriterMemory(buf, 0);
	if (!w.x) {
		xmlBufferFree(buf);
		return -ENOMEM;
	}
	xmlTextWriterSetIndent(w.x, 1);
	xmlTextWriterSetIndentString(w.x, BAD_CAST "  ");
	w.bad |= xmlTextWriterStartDocument(w.x, NULL, "UTF-8", NULL) < 0;
	st(&w, "testsuites");
	at(&w, "name", "bootproof");
	for (size_t i = 0; i < json_object_array_length(suites); i++)
		suite(&w, json_object_array_get_idx(suites, i));
	en(&w);
	w.bad |= xmlTextWriterEndDocument(w.x) < 0;
	xmlFreeTextWriter(w.x);
	if (w.bad)
		r = -ENOMEM;
	else if (!(*ret = strdup((const char *)xmlBufferContent(buf))))
		r = -ENOMEM;
	xmlBufferFree(buf);
	return r;
}
