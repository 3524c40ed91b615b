// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The KTAP parser on any lines.  The guest's agent prints KTAP, but so can
 * a kernel message or anything else on the console.
 *
 * Input: byte 0 chooses the limits (bit 0: tiny limits, so the bounds are
 * hit; bit 1: feed with ktap_feed_text instead of line by line), the rest
 * is text split on '\n'.
 *
 * Checks (ktap.h): every fed line is counted exactly once (ktap_lines,
 * unrelated or malformed); the tree is consistent (parents, depths,
 * limits); after ktap_finish nothing is PENDING; a test's status does not
 * change after its TEST_DONE event, and no test gets two; every path
 * ktap_test_path gives finds a test with that path again; the run.json
 * form (recjson) reads back.
 */
#include "fuzz.h"

#include <json-c/json.h>

#include "core/ktap.h"
#include "core/recjson.h"

struct done {
	const struct ktap_test *t;
	enum ktap_status status;
};

struct state {
	struct done *tab; /* open addressing on the pointer */
	size_t cap, n;
	size_t tests;
	struct ktap_limits lim;
	bool finished;
};

static size_t slot(const struct state *s, const struct ktap_test *t)
{
	size_t i = ((uintptr_t)t >> 4) * 0x9e3779b97f4a7c15ull;

	for (i &= s->cap - 1; s->tab[i].t && s->tab[i].t != t;
	     i = (i + 1) & (s->cap - 1))
		;
	return i;
}

static void on_event(void *ud, const struct ktap_event *ev)
{
	struct state *s = ud;
	size_t i;

	FUZZ_CHECK(!s->finished);
	switch (ev->type) {
	case KTAP_EV_TEST_DONE:
		FUZZ_CHECK(ev->test && ev->test->depth >= 1);
		FUZZ_CHECK(ev->test->status != KTAP_PENDING);
		if (s->n * 2 >= s->cap) {
			struct done *old = s->tab;
			size_t oc = s->cap;

			s->cap = oc ? oc * 2 : 64;
			s->tab = calloc(s->cap, sizeof(*s->tab));
			FUZZ_CHECK(s->tab);
			for (size_t k = 0; k < oc; k++)
				if (old[k].t)
					s->tab[slot(s, old[k].t)] = old[k];
			free(old);
		}
		i = slot(s, ev->test);
		/* One DONE per test. */
		FUZZ_CHECK(!s->tab[i].t);
		s->tab[i].t = ev->test;
		s->tab[i].status = ev->test->status;
		s->n++;
		break;
	case KTAP_EV_TEST_START:
		FUZZ_CHECK(ev->test && ev->test->depth >= 1);
		break;
	case KTAP_EV_BAIL_OUT:
		FUZZ_CHECK(ev->reason);
		break;
	case KTAP_EV_DOC_START:
		break;
	default:
		FUZZ_CHECK(!"unknown event");
	}
}

static void walk(struct state *s, const struct ktap_test *root,
		 const struct ktap_test *t)
{
	FUZZ_CHECK(t->name);
	FUZZ_CHECK(strlen(t->name) <= s->lim.max_name);
	if (t->reason)
		FUZZ_CHECK(strlen(t->reason) <= s->lim.max_name);
	FUZZ_CHECK(t->status != KTAP_PENDING);
	FUZZ_CHECK(t->n_diags <= s->lim.max_diags);
	for (size_t i = 0; i < t->n_diags; i++)
		FUZZ_CHECK(t->diags[i]);
	FUZZ_CHECK(t->depth <= s->lim.max_depth + 1);
	if (t != root) {
		size_t i = s->cap ? slot(s, t) : 0;

		s->tests++;
		/* Final at its DONE event (and every test gets one). */
		FUZZ_CHECK(s->cap && s->tab[i].t == t);
		FUZZ_CHECK(s->tab[i].status == t->status);
		/* A test without a name has no path (ktap_test_find). */
		bool named = true;

		for (const struct ktap_test *a = t; a != root; a = a->parent)
			named = named && *a->name;
		/* (the first tests only: a lookup walks the siblings) */
		if (named && s->tests <= 256) {
			struct strbuf p = STRBUF_INIT;
			const struct ktap_test *f;

			ktap_test_path(t, &p);
			f = ktap_test_find(root, p.buf);
			FUZZ_CHECK(f);
			if (f != t) { /* duplicate names: same path */
				struct strbuf q = STRBUF_INIT;

				ktap_test_path(f, &q);
				if (strcmp(p.buf, q.buf))
					fprintf(stderr, "path \"%s\" finds \"%s\"\n",
						p.buf, q.buf);
				FUZZ_CHECK(!strcmp(p.buf, q.buf));
				strbuf_release(&q);
			}
			strbuf_release(&p);
		}
	}
	for (size_t i = 0; i < t->n_children; i++) {
		const struct ktap_test *c = t->children[i];

		FUZZ_CHECK(c && c->parent == t);
		FUZZ_CHECK(c->depth == t->depth + 1);
		walk(s, root, c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ktap_limits tiny = {
		.max_line = 64,
		.max_name = 8,
		.max_tests = 12,
		.max_depth = 3,
		.max_diags = 2,
		.max_diag_bytes = 40,
	};
	/* The defaults, but fewer tests: a plan "1..1000000" that never
	 * completes makes max_tests placeholders, and 65536 of them per run
	 * would slow the fuzzer a hundredfold (the unit tests cover the
	 * default bound: tests/unit/test-hostile.c). */
	const struct ktap_limits defaults = {
		.max_line = KTAP_DEFAULT_MAX_LINE,
		.max_name = KTAP_DEFAULT_MAX_NAME,
		.max_tests = 2048,
		.max_depth = KTAP_DEFAULT_MAX_DEPTH,
		.max_diags = KTAP_DEFAULT_MAX_DIAGS,
		.max_diag_bytes = KTAP_DEFAULT_MAX_DIAG_BYTES,
	};
	struct state s = { 0 };
	const struct ktap_stats *st;
	const char *text;
	size_t len, lines = 0;
	struct ktap *k;
	struct ktap_totals tot;
	json_object *j;

	if (size < 1)
		return 0;
	text = (const char *)data + 1;
	len = size - 1;
	s.lim = (data[0] & 1) ? tiny : defaults;
	k = ktap_new(&s.lim, on_event, &s);
	FUZZ_CHECK(k);
	if (data[0] & 2) {
		FUZZ_CHECK(ktap_feed_text(k, text, len) >= 0);
	} else {
		size_t pos = 0;

		while (pos < len) {
			const char *nl = memchr(text + pos, '\n', len - pos);
			size_t n = nl ? (size_t)(nl - text - pos) : len - pos;

			FUZZ_CHECK(ktap_feed_line(k, text + pos, n) >= 0);
			pos += n + (nl ? 1 : 0);
		}
	}
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' || i == len - 1)
			lines++;
	st = ktap_get_stats(k);
	FUZZ_CHECK(st->lines == lines);
	FUZZ_CHECK(st->lines == st->ktap_lines + st->unrelated + st->malformed);
	FUZZ_CHECK(ktap_finish(k) == 0);
	FUZZ_CHECK(ktap_finish(k) == 0);
	s.finished = true;
	FUZZ_CHECK(ktap_feed_line(k, "ok 1 x", 6) == -EINVAL);
	FUZZ_CHECK(st->finished);
	FUZZ_CHECK(!st->bailed_out || st->bail_reason);
	FUZZ_CHECK(!st->complete || (st->documents > 0 && !st->bailed_out));

	walk(&s, ktap_root(k), ktap_root(k));
	FUZZ_CHECK(s.tests <= s.lim.max_tests);
	FUZZ_CHECK(s.tests == s.n);
	ktap_test_totals(ktap_root(k), &tot);
	FUZZ_CHECK(tot.pending == 0);

	j = recjson_ktap(k);
	FUZZ_CHECK(j);
	{
		json_object *back = json_tokener_parse(
			json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
		FUZZ_CHECK(back);
		json_object_put(back);
	}
	json_object_put(j);
	ktap_free(k);
	free(s.tab);
	return 0;
}
