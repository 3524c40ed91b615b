// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/junit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "core/verdict.h"
#include "core/xmlout.h"
#include "util/jsonx.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
	json_object *d = jsonx_get(t, "diagnostics");
	json_object *s = jsonx_get(t, "subtests");
	const char *status = jsonx_text(t, "status");
	const char *reason = jsonx_text(t, "reason");

	if (depth && status && strcmp(status, "pass") && strcmp(status, "skip"))
		strbuf_addf(sb, "%*s%s: %s%s%s\n", depth * 2, "",
			    jsonx_text(t, "name") ?: "", status,
			    reason ? " - " : "", reason ? reason : "");
	for (size_t i = 0; d && i < json_object_array_length(d); i++)
		strbuf_addf(sb, "%*s# %s\n", depth * 2 + 2, "",
			    json_object_get_string(json_object_array_get_idx(d, i)));
	for (size_t i = 0; s && i < json_object_array_length(s); i++)
		diags_of(json_object_array_get_idx(s, i), sb, depth + 1);
}

static void suite(struct w *w, json_object *rec)
{
	/* A matrix candidate that never booted has no domain name: it goes
	 * by its candidate id. */
	const char *name = jsonx_text(rec, "name")
				   ?: jsonx_text(jsonx_get(rec, "candidate"), "id")
				   ?: "boot";
	json_object *cfg = jsonx_get(rec, "config");
	json_object *build = jsonx_get(rec, "build");
	json_object *sc = jsonx_get(rec, "scenarios");
	json_object *pr = jsonx_get(rec, "problems");
	const char *verdict = jsonx_text(rec, "verdict");
	const char *bres = jsonx_text(build, "result");
	struct counts c = { 0 };
	_cleanup_strbuf_ struct strbuf cls = STRBUF_INIT;

	strbuf_addf(&cls, "bootproof.%s", name);
	/* Counts go on the element before its children are known: write
	 * the cases into a separate writer would cost more than counting
	 * twice, so count first. */
	{
		json_object *opts = jsonx_get(cfg, "options");
		c.tests = (opts ? (long)json_object_array_length(opts) : 0) +
			  (build ? 1 : 0) + (verdict ? 1 : 0) +
			  (sc ? (long)json_object_array_length(sc) : 0);
		for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
			const char *s = jsonx_text(json_object_array_get_idx(opts, i), "status");
			if (s && strcmp(s, "kept"))
				c.failures++;
		}
		if (bres && strcmp(bres, "pass") && strcmp(bres, "reused") &&
		    strcmp(bres, "skip"))
			c.failures++;
		else if (bres && !strcmp(bres, "skip"))
			c.skipped++;
		if (verdict && strcmp(verdict, "BOOTED")) {
			if (!verdict_name_kernel(verdict))
				c.errors++;
			else
				c.failures++;
		}
		for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
			const char *r = jsonx_text(json_object_array_get_idx(sc, i), "result");
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
	at(w, "name", name);
	atn(w, "tests", c.tests);
	atn(w, "failures", c.failures);
	atn(w, "errors", c.errors);
	atn(w, "skipped", c.skipped);
	if (jsonx_get(rec, "elapsed_s"))
		at(w, "time", jsonx_text(rec, "elapsed_s"));

	memset(&c, 0, sizeof(c));
	{
		json_object *opts = jsonx_get(cfg, "options");
		for (size_t i = 0; opts && i < json_object_array_length(opts); i++) {
			json_object *o = json_object_array_get_idx(opts, i);
			_cleanup_strbuf_ struct strbuf n = STRBUF_INIT;
			const char *s = jsonx_text(o, "status");
			strbuf_addf(&n, "config:%s", jsonx_text(o, "option") ?: "?");
			testcase(w, cls.buf, n.buf,
				 s && !strcmp(s, "kept") ? "pass" : "fail",
				 jsonx_text(o, "reason"), jsonx_text(o, "detail"), &c);
		}
	}
	if (build)
		testcase(w, cls.buf, "build", bres ? bres : "error",
			 jsonx_text(build, "reason"),
			 jsonx_text(build, "first_error"), &c);
	if (verdict) {
		_cleanup_strbuf_ struct strbuf det = STRBUF_INIT;
		const char *res = "fail";

		for (size_t i = 0; pr && i < json_object_array_length(pr) && i < 3;
		     i++)
			strbuf_addf(&det, "%s\n",
				    jsonx_text(json_object_array_get_idx(pr, i),
					       "report"));
		if (!strcmp(verdict, "BOOTED"))
			res = "pass";
		else if (!verdict_name_kernel(verdict))
			res = "error";
		testcase(w, cls.buf, "boot", res, jsonx_text(rec, "reason"),
			 det.len ? det.buf : NULL, &c);
	}
	for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
		json_object *s = json_object_array_get_idx(sc, i), *ch;
		_cleanup_strbuf_ struct strbuf n = STRBUF_INIT, det = STRBUF_INIT;
		const char *r = jsonx_text(s, "result");

		strbuf_addf(&n, "scenario:%s", jsonx_text(s, "name") ?: "?");
		ch = jsonx_get(s, "checks");
		for (size_t j = 0; ch && j < json_object_array_length(ch); j++)
			diags_of(json_object_array_get_idx(ch, j), &det, 1);
		testcase(w, cls.buf, n.buf,
			 !r || !strcmp(r, "pending") ? "error" : r,
			 jsonx_text(s, "reason"), det.len ? det.buf : NULL, &c);
	}
	en(w);
}

int junit_from_records(json_object *suites, char **ret)
{
	struct xmlout xo;
	struct w w = { 0 };

	if (!suites || !json_object_is_type(suites, json_type_array))
		return -EINVAL;
	if (xmlout_open(&xo) < 0)
		return -ENOMEM;
	w.x = xo.w;
	w.bad |= xmlTextWriterStartDocument(w.x, NULL, "UTF-8", NULL) < 0;
	st(&w, "testsuites");
	at(&w, "name", "bootproof");
	for (size_t i = 0; i < json_object_array_length(suites); i++)
		suite(&w, json_object_array_get_idx(suites, i));
	en(&w);
	return xmlout_close(&xo, w.bad, ret);
}
