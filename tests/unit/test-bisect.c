// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/bisect: the state machine driven by oracles (which sets of lines
 * fail, and how), exhaustively for small candidates; what "the same way"
 * means on candidate records; the fragment of a step.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/bisect.h"
#include "util/cleanup.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

#define MAXN 16

/* An oracle: how a set of lines ends.  Lines are bits of a mask. */
struct oracle {
	unsigned all;		/* every line of the candidate */
	unsigned need;		/* FAIL_SAME when every one of these is in */
	unsigned need2;		/* ... or every one of these (0: unused) */
	unsigned other;		/* FAIL_OTHER when one of these is in and the
				 * set does not fail the same way */
	unsigned masks;		/* one of these in: FAIL_OTHER, always */
	unsigned infra_at;	/* this step is INFRA (0: none) */
	bool base_fails, full_passes, confirm_passes;
};

static unsigned mask_of(const bool *v, size_t n)
{
	unsigned m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i])
			m |= 1u << i;
	return m;
}

static bool has_all(unsigned set, unsigned need)
{
	return need && (set & need) == need;
}

static enum bisect_outcome ask(const struct oracle *o,
			       const struct bisect_step *s, size_t n)
{
	unsigned set = mask_of(s->lines, n);

	if (o->infra_at && s->n == o->infra_at)
		return BISECT_INFRA;
	if (s->kind == BISECT_STEP_BASE)
		return o->base_fails ? BISECT_FAIL_SAME : BISECT_PASS;
	if (s->kind == BISECT_STEP_FULL && o->full_passes)
		return BISECT_PASS;
	if (s->kind == BISECT_STEP_CONFIRM && o->confirm_passes)
		return BISECT_PASS;
	if (set & o->masks)
		return BISECT_FAIL_OTHER;
	if (has_all(set, o->need) || has_all(set, o->need2))
		return BISECT_FAIL_SAME;
	if (set & o->other)
		return BISECT_FAIL_OTHER;
	return BISECT_PASS;
}

struct result {
	enum bisect_status status;
	unsigned culprit;
	unsigned steps;
	bool interaction;
	char kinds[256];	/* one letter per step: b f s c C */
	char phases[256];	/* c g l C */
};

/* Drive a bisection of n lines (groups: group_of, NULL: one group) to the
 * end, checking on the way that no set runs twice (but the confirmation)
 * and that every step's lines are what its kind says. */
static struct result drive(const struct oracle *o, size_t n,
			   const size_t *group_of, size_t n_groups,
			   unsigned max_steps)
{
	static const size_t one[MAXN];
	struct bisect *b = NULL;
	struct bisect_step s, again;
	struct result r = { 0 };
	unsigned seen[512];
	size_t n_seen = 0, nc;
	const bool *c;

	assert_int_equal(bisect_new(group_of ? group_of : one, n,
				    group_of ? n_groups : 1, max_steps, &b),
			 0);
	while (bisect_next(b, &s)) {
		unsigned set = mask_of(s.lines, n);

		assert_true(bisect_next(b, &again));	/* same step */
		assert_int_equal(again.n, s.n);
		assert_int_equal(s.n, r.steps + 1);
		assert_int_equal(s.n_in, (size_t)__builtin_popcount(set));
		if (s.kind == BISECT_STEP_BASE)
			assert_int_equal(set, 0);
		if (s.kind == BISECT_STEP_FULL)
			assert_int_equal(set, o->all);
		if (s.kind != BISECT_STEP_CONFIRM) {
			for (size_t i = 0; i < n_seen; i++)
				if (seen[i] == set)
					fail_msg("step %u runs set 0x%x again",
						 s.n, set);
			assert_true(n_seen < 512);
			seen[n_seen++] = set;
		}
		r.kinds[r.steps] = "bfscC"[s.kind];
		r.phases[r.steps] = "cglC"[s.phase];
		r.steps++;
		assert_true(r.steps < 255);
		bisect_report(b, ask(o, &s, n));
	}
	r.status = bisect_status(b);
	c = bisect_culprit(b, &nc);
	r.culprit = c ? mask_of(c, n) : 0;
	assert_int_equal((size_t)__builtin_popcount(r.culprit), nc);
	r.interaction = bisect_interaction(b);
	assert_int_equal(bisect_steps(b), r.steps);
	bisect_free(b);
	return r;
}

static unsigned all_of(size_t n)
{
	return (1u << n) - 1;
}

/* Every single culprit at every place, in 1..12 lines: found, alone, in
 * about 2 log2(n) steps, no interaction. */
static void test_single_culprit(void **state)
{
	for (size_t n = 1; n <= 12; n++)
		for (size_t i = 0; i < n; i++) {
			struct oracle o = { .all = all_of(n), .need = 1u << i };
			struct result r = drive(&o, n, NULL, 0, 0);
			unsigned bound = 3;

			for (size_t k = 1; k < n; k *= 2)
				bound += 2;
			assert_int_equal(r.status, BISECT_FOUND);
			assert_int_equal(r.culprit, 1u << i);
			assert_false(r.interaction);
			if (r.steps > bound)
				fail_msg("n=%zu culprit %zu: %u steps > %u", n,
					 i, r.steps, bound);
			/* base, full first; confirmation last */
			assert_int_equal(r.kinds[0], 'b');
			assert_int_equal(r.kinds[1], 'f');
			assert_int_equal(r.kinds[r.steps - 1], 'C');
		}
}

/* Eight harmless lines and one that breaks, in the middle: the proof on
 * real kernels (tests/matrix/run-bisect.sh), step by step. */
static void test_nine_lines_one_breaks(void **state)
{
	struct oracle o = { .all = all_of(9), .need = 1u << 4 };
	struct result r = drive(&o, 9, NULL, 0, 0);

	assert_int_equal(r.status, BISECT_FOUND);
	assert_int_equal(r.culprit, 1u << 4);
	assert_string_equal(r.kinds, "bfssssC");
	assert_string_equal(r.phases, "ccllllC");
}

/* Exhaustively, every set of lines that fails only all together (n up to
 * 7): exactly that set, with interaction when it has several lines. */
static void test_every_conjunction(void **state)
{
	for (size_t n = 1; n <= 7; n++)
		for (unsigned need = 1; need <= all_of(n); need++) {
			struct oracle o = { .all = all_of(n), .need = need };
			struct result r = drive(&o, n, NULL, 0, 0);

			if (r.status != BISECT_FOUND || r.culprit != need)
				fail_msg("n=%zu need 0x%x: %s 0x%x", n, need,
					 bisect_status_name(r.status),
					 r.culprit);
			if (__builtin_popcount(need) > 1)
				assert_true(r.interaction);
		}
}

/* A pair that fails only together, far apart in 9 lines. */
static void test_pair_only_together(void **state)
{
	struct oracle o = { .all = all_of(9), .need = (1u << 2) | (1u << 6) };
	struct result r = drive(&o, 9, NULL, 0, 0);

	assert_int_equal(r.status, BISECT_FOUND);
	assert_int_equal(r.culprit, o.need);
	assert_true(r.interaction);
	/* no half failed alone: complements were tried */
	assert_non_null(strchr(r.kinds, 'c'));
}

/* Two independent culprits: one of them, alone (1-minimal). */
static void test_two_independent_culprits(void **state)
{
	for (size_t a = 0; a < 6; a++)
		for (size_t b = a + 1; b < 6; b++) {
			struct oracle o = { .all = all_of(6), .need = 1u << a,
					    .need2 = 1u << b };
			struct result r = drive(&o, 6, NULL, 0, 0);

			assert_int_equal(r.status, BISECT_FOUND);
			assert_true(r.culprit == 1u << a || r.culprit == 1u << b);
		}
}

/* A line that fails another way counts as a pass: never the culprit. */
static void test_other_failure_is_a_pass(void **state)
{
	for (size_t x = 0; x < 8; x++)
		for (size_t y = 0; y < 8; y++) {
			struct oracle o = { .all = all_of(8), .need = 1u << y,
					    .other = 1u << x };
			struct result r;

			if (x == y)
				continue;
			r = drive(&o, 8, NULL, 0, 0);
			assert_int_equal(r.status, BISECT_FOUND);
			assert_int_equal(r.culprit, 1u << y);
		}
	/* a line whose failure hides the one looked for (it fails first,
	 * another way): the culprit is found without it, never it */
	{
		struct oracle o = { .all = all_of(8), .need = 1u << 6,
				    .masks = 1u << 1, .full_passes = false };
		struct result r;

		/* the full set would fail another way: not reproduced */
		r = drive(&o, 8, NULL, 0, 0);
		assert_int_equal(r.status, BISECT_NOT_REPRODUCED);
		assert_int_equal(r.culprit, 0);
	}
}

/* A step the host could not run stops the bisection at once, with what
 * it had narrowed to and no culprit claimed. */
static void test_infra_stops(void **state)
{
	for (unsigned at = 1; at <= 6; at++) {
		struct oracle o = { .all = all_of(9), .need = 1u << 7,
				    .infra_at = at };
		struct result r = drive(&o, 9, NULL, 0, 0);

		assert_int_equal(r.status, BISECT_STOPPED_INFRA);
		assert_int_equal(r.steps, at);
		/* whatever it narrowed to still holds the culprit */
		if (r.culprit)
			assert_true(r.culprit & (1u << 7));
		else
			assert_true(at <= 2);
	}
	assert_non_null(strstr(bisect_status_text(BISECT_STOPPED_INFRA),
			       "could not run"));
}

/* Intermittent failures: no culprit, a clear reason. */
static void test_flaky(void **state)
{
	struct oracle o = { .all = all_of(9), .need = 1u << 3,
			    .confirm_passes = true };
	struct result r = drive(&o, 9, NULL, 0, 0);

	assert_int_equal(r.status, BISECT_FLAKY);
	assert_string_equal(bisect_status_name(r.status), "flaky");
	assert_non_null(strstr(bisect_status_text(r.status), "intermittent"));

	o = (struct oracle){ .all = all_of(9), .need = 1u << 3,
			     .full_passes = true };
	r = drive(&o, 9, NULL, 0, 0);
	assert_int_equal(r.status, BISECT_NOT_REPRODUCED);
	assert_int_equal(r.steps, 2);
	assert_int_equal(r.culprit, 0);

	o = (struct oracle){ .all = all_of(9), .need = 1u << 3,
			     .base_fails = true };
	r = drive(&o, 9, NULL, 0, 0);
	assert_int_equal(r.status, BISECT_BASE_FAILS);
	assert_int_equal(r.steps, 1);
}

/* Several groups: the groups first (each step whole groups), then the
 * lines of the group that remains. */
static void test_groups_then_lines(void **state)
{
	/* lines 0-2 group 0, 3-6 group 1, 7-9 group 2 */
	static const size_t g[] = { 0, 0, 0, 1, 1, 1, 1, 2, 2, 2 };
	struct oracle o = { .all = all_of(10), .need = 1u << 5 };
	struct bisect *b = NULL;
	struct bisect_step s;
	struct result r = drive(&o, 10, g, 3, 0);

	assert_int_equal(r.status, BISECT_FOUND);
	assert_int_equal(r.culprit, 1u << 5);
	assert_non_null(strchr(r.phases, 'g'));
	assert_true(strrchr(r.phases, 'g') < strchr(r.phases, 'l'));

	/* every groups-phase step is a union of whole groups */
	assert_int_equal(bisect_new(g, 10, 3, 0, &b), 0);
	while (bisect_next(b, &s)) {
		if (s.phase == BISECT_PHASE_GROUPS)
			for (size_t i = 1; i < 10; i++)
				if (g[i] == g[i - 1])
					assert_int_equal(s.lines[i],
							 s.lines[i - 1]);
		bisect_report(b, ask(&o, &s, 10));
	}
	bisect_free(b);

	/* a pair across two groups */
	o = (struct oracle){ .all = all_of(10), .need = (1u << 1) | (1u << 8) };
	r = drive(&o, 10, g, 3, 0);
	assert_int_equal(r.status, BISECT_FOUND);
	assert_int_equal(r.culprit, o.need);
	assert_true(r.interaction);
}

static void test_step_limit_and_bad_input(void **state)
{
	struct oracle o = { .all = all_of(9), .need = 1u << 8 };
	struct result r = drive(&o, 9, NULL, 0, 4);
	struct bisect *b = NULL;
	static const size_t g[] = { 0, 3 };

	assert_int_equal(r.status, BISECT_STEP_LIMIT);
	assert_int_equal(r.steps, 4);
	assert_true(r.culprit & (1u << 8));	/* narrowed so far */
	assert_int_equal(bisect_new(g, 0, 1, 0, &b), -EINVAL);
	assert_int_equal(bisect_new(g, 2, 2, 0, &b), -EINVAL);
	assert_null(b);
	bisect_free(NULL);
}

/* ------------------------------------------------------------ same way */

static json_object *rec(const char *s)
{
	json_object *o = json_tokener_parse(s);

	if (!o)
		fail_msg("bad test JSON: %s", s);
	return o;
}

#define CFG "\"config\": { \"result\": \"pass\" }"
#define BUILD_FAIL(e) "\"build\": { \"result\": \"fail\", \"first_error\": " e " }"
#define BUILD_OK "\"build\": { \"result\": \"pass\" }"
#define PROBLEM(sig, allowed)                                                  \
	"{ \"kind\": \"WARNING\", \"title\": \"WARNING in " sig "\", "        \
	"\"signature\": \"" sig "\", \"allowed\": " allowed " }"
#define PROBLEM_AS(title, sig)                                                 \
	"{ \"kind\": \"WARNING\", \"title\": \"WARNING in " title "\", "      \
	"\"signature\": \"" sig "\", \"allowed\": false }"
#define KGDB(status)                                                           \
	"{ \"name\": \"kgdb\", \"result\": \"" status "\", \"checks\": ["      \
	"{ \"name\": \"kgdboc\", \"status\": \"pass\" },"                      \
	"{ \"name\": \"kgdbts\", \"status\": \"" status "\", \"subtests\": [" \
	"{ \"name\": \"hw_break\", \"status\": \"" status "\" } ] } ] }"

/* The target's signature from rec, then the judgement of other. */
static enum bisect_outcome judge(const char *target, const char *other,
				 const char *want_text)
{
	struct bisect_sig t;
	json_object *a = rec(target), *b = rec(other);
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	enum bisect_outcome o;

	assert_int_equal(bisect_sig_of(a, &t), BISECT_FAIL_SAME);
	if (want_text && strcmp(t.text, want_text))
		fail_msg("signature '%s', want '%s'", t.text, want_text);
	o = bisect_judge(&t, b, &why);
	assert_true(why.len > 0);
	bisect_sig_done(&t);
	json_object_put(a);
	json_object_put(b);
	return o;
}

static void test_same_way(void **state)
{
	const char *b1, *b2, *pass, *cfgfail;

	b1 = "{ " CFG ", " BUILD_FAIL("\"arch/x86/include/asm/boot.h:19:3: "
				      "error: #error \\\"Invalid value for "
				      "CONFIG_PHYSICAL_ALIGN\\\"\"") " }";
	b2 = "{ " CFG ", " BUILD_FAIL("\"kernel/fork.c:1:1: error: frame size\"") " }";
	pass = "{ " CFG ", " BUILD_OK ", \"verdict\": \"BOOTED\", "
	       "\"scenarios\": [ { \"name\": \"boot\", \"result\": \"pass\" } ] }";
	cfgfail = "{ \"config\": { \"result\": \"fail\", \"error\": \"x\" } }";

	/* build: the same first error, exactly */
	assert_int_equal(judge(b1, b1, "build: arch/x86/include/asm/boot.h:19:3: "
				       "error: #error \"Invalid value for "
				       "CONFIG_PHYSICAL_ALIGN\""),
			 BISECT_FAIL_SAME);
	assert_int_equal(judge(b1, b2, NULL), BISECT_FAIL_OTHER);
	assert_int_equal(judge(b1, pass, NULL), BISECT_PASS);
	assert_int_equal(judge(b1, cfgfail, NULL), BISECT_FAIL_OTHER);
	/* config: the stage (its error names the step's own file) */
	assert_int_equal(judge(cfgfail, "{ \"config\": { \"result\": \"fail\", "
					"\"error\": \"y\" } }", "config"),
			 BISECT_FAIL_SAME);

	/* the host: no result */
	assert_int_equal(judge(b1, "{ " CFG ", \"build\": { \"result\": \"skip\", "
				   "\"reason\": \"infrastructure: disk\" } }",
			       NULL),
			 BISECT_INFRA);
	assert_int_equal(judge(b1, "{ " CFG ", " BUILD_OK ", \"verdict\": "
				   "\"INFRA\", \"reason\": \"libvirt\" }", NULL),
			 BISECT_INFRA);
	assert_int_equal(judge(b1, "{ " CFG ", " BUILD_OK ", \"verdict\": null }",
			       NULL),
			 BISECT_INFRA);
	assert_int_equal(judge(b1, "{ \"config\": null }", NULL), BISECT_INFRA);
}

static void test_same_way_boot_and_scenario(void **state)
{
	const char *probs =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"PROBLEMS\", "
		"\"problems\": [ " PROBLEM("aaaa", "true") ", "
		PROBLEM("kgdbts", "false") " ] }";
	const char *probs2 =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"PROBLEMS\", "
		"\"problems\": [ " PROBLEM("other", "false") ", "
		PROBLEM("kgdbts", "false") " ] }";
	const char *probs3 =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"PROBLEMS\", "
		"\"problems\": [ " PROBLEM("other", "false") " ] }";
	/* the same WARNING reached through another call trace (a function
	 * not inlined any more): another signature, the same title */
	const char *inlined =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"PROBLEMS\", "
		"\"problems\": [ " PROBLEM_AS("kgdbts", "c2ed6f0e") " ] }";
	const char *elsewhere =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"PROBLEMS\", "
		"\"problems\": [ " PROBLEM_AS("run_simple_test", "kgdbts") " ] }";
	const char *panic =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"PANIC\", "
		"\"problems\": [ " PROBLEM("kgdbts", "false") " ] }";
	const char *kgdb_fail =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"BOOTED\", "
		"\"scenarios\": [ { \"name\": \"boot\", \"result\": \"pass\" }, "
		KGDB("fail") " ] }";
	const char *kgdb_pass =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"BOOTED\", "
		"\"scenarios\": [ " KGDB("pass") " ] }";
	const char *kgdb_other =
		"{ " CFG ", " BUILD_OK ", \"verdict\": \"BOOTED\", "
		"\"scenarios\": [ { \"name\": \"kgdb\", \"result\": \"fail\", "
		"\"checks\": [ { \"name\": \"kgdboc\", \"status\": \"fail\" } ] } ] }";

	/* the first problem not allowed; found again among others */
	assert_int_equal(judge(probs, probs2,
			       "boot: PROBLEMS (WARNING in kgdbts, signature "
			       "kgdbts)"),
			 BISECT_FAIL_SAME);
	assert_int_equal(judge(probs, probs3, NULL), BISECT_FAIL_OTHER);
	/* the same title is the same failure, whatever the signature; the
	 * same signature too, whatever the title */
	assert_int_equal(judge(probs, inlined, NULL), BISECT_FAIL_SAME);
	assert_int_equal(judge(probs, elsewhere, NULL), BISECT_FAIL_SAME);
	assert_int_equal(judge(inlined, probs3, NULL), BISECT_FAIL_OTHER);
	/* the same problem under another verdict is another failure */
	assert_int_equal(judge(probs, panic, NULL), BISECT_FAIL_OTHER);

	/* scenario: that check failed again */
	assert_int_equal(judge(kgdb_fail, kgdb_fail,
			       "scenario: kgdb (kgdbts/hw_break)"),
			 BISECT_FAIL_SAME);
	assert_int_equal(judge(kgdb_fail, kgdb_pass, NULL), BISECT_PASS);
	assert_int_equal(judge(kgdb_fail, kgdb_other, NULL), BISECT_FAIL_OTHER);
	assert_int_equal(judge(kgdb_fail, probs, NULL), BISECT_FAIL_OTHER);
}

static void test_fragment(void **state)
{
	static const struct bisect_frag_line lines[] = {
		{ "CONFIG_LOG_BUF_SHIFT=18", "/g/t.config:9", "LOG_BUF_SHIFT" },
		{ "CONFIG_PHYSICAL_ALIGN=0x300000", "/g/t.config:10",
		  "PHYSICAL_ALIGN" },
		{ "# CONFIG_X is not set", "/g/my dir/t.config:11", "X" },
	};
	static const bool in[] = { false, true, true };
	const struct bisect_frag f = {
		.name = "test-bisect", .arch = "x86_64", .scenarios = "boot",
		.from = "bootproof bisect of x86_64-test-bisect, step 4",
		.lines = lines, .in = in, .n_lines = 3,
	};
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	bisect_frag_text(&f, &sb);
	assert_string_equal(sb.buf,
		"# group: test-bisect\n# arch: x86_64\n# scenarios: boot\n"
		"# from: bootproof bisect of x86_64-test-bisect, step 4\n"
		"# summary: 2 of the 3 requested option lines of the failing "
		"candidate (bootproof bisect).\n"
		"# line /g/t.config:10\nCONFIG_PHYSICAL_ALIGN=0x300000\n"
		"# line /g/my dir/t.config:11\n# CONFIG_X is not set\n");
}

/* The debug group's bisection as the seed matrix would end it: the
 * culprit {KGDB, KGDB_TESTS}; the step with KGDB_TESTS alone lost it to
 * its dependency on KGDB, the one with KGDB alone kept KGDB. */
static void test_needs(void **state)
{
	static const struct bisect_frag_line lines[] = {
		{ "CONFIG_UBSAN=y", "/g/debug.config:12", "UBSAN" },
		{ "CONFIG_KGDB=y", "/g/debug.config:7", "KGDB" },
		{ "CONFIG_KGDB_TESTS=y", "/g/debug.config:8", "KGDB_TESTS" },
	};
	static const bool only_tests[] = { false, false, true };
	static const bool culprit[] = { false, true, true };
	/* reason_kind as the config stage records it (matrixrec): step 11 of
	 * the seed debug bisection 20261207-173735-bisect-ad9bb7 recorded
	 * KGDB_TESTS "unmet-dependency" */
	json_object *rec = json_tokener_parse(
		"{ \"config\": { \"options\": ["
		"{ \"option\": \"PRINTK\", \"status\": \"absent\", "
		"  \"reason_kind\": \"unmet-dependency\", \"reason\": \"not this step's\" },"
		"{ \"option\": \"KGDB_TESTS\", \"status\": \"absent\", "
		"  \"reason_kind\": \"unmet-dependency\", \"reason\": \"unmet dependency: "
		"depends on KGDB (KGDB=n)\" } ] } }");
	json_object *kept = json_tokener_parse(
		"{ \"config\": { \"options\": ["
		"{ \"option\": \"KGDB\", \"status\": \"kept\" } ] } }");
	json_object *d, *steps = json_object_new_array(), *st, *needs, *c;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* what a step's config dropped, among the step's own lines */
	d = bisect_dropped(rec, lines, only_tests, 3);
	assert_int_equal(json_object_array_length(d), 1);
	assert_string_equal(json_object_to_json_string_ext(
				    json_object_array_get_idx(d, 0),
				    JSON_C_TO_STRING_PLAIN),
			    "{\"line\":2,\"option\":\"KGDB_TESTS\","
			    "\"reason_kind\":\"unmet-dependency\",\"reason\":"
			    "\"unmet dependency: depends on KGDB (KGDB=n)\"}");
	/* the recorded steps: {KGDB_TESTS} dropped it, {KGDB} kept all */
	st = json_tokener_parse("{ \"lines\": [2] }");
	json_object_object_add(st, "dropped", d);
	json_object_array_add(steps, st);
	st = json_tokener_parse("{ \"lines\": [1] }");
	d = bisect_dropped(kept, lines, (const bool[]){ false, true, false }, 3);
	assert_int_equal(json_object_array_length(d), 0);
	json_object_object_add(st, "dropped", d);
	json_object_array_add(steps, st);
	needs = bisect_needs(steps, culprit, 3);
	assert_string_equal(json_object_to_json_string_ext(needs,
							   JSON_C_TO_STRING_PLAIN),
			    "[{\"line\":2,\"needs\":[1],\"reason\":"
			    "\"unmet dependency: depends on KGDB (KGDB=n)\"}]");
	c = json_tokener_parse(
		"{ \"options\": [ { \"line\": 1, \"text\": \"CONFIG_KGDB=y\" },"
		" { \"line\": 2, \"text\": \"CONFIG_KGDB_TESTS=y\" } ] }");
	json_object_object_add(c, "needs", needs);
	bisect_needs_text(c, &sb);
	assert_string_equal(sb.buf, "CONFIG_KGDB_TESTS=y needs CONFIG_KGDB=y: "
				    "without it, Kconfig drops it (unmet "
				    "dependency: depends on KGDB (KGDB=n))\n");
	/* a drop that is not a dependency, or in a step that is not the
	 * culprit less one line, says nothing */
	json_object_put(c);
	st = json_object_array_get_idx(steps, 0);
	json_object_object_add(json_object_array_get_idx(jsonx_get(st, "dropped"), 0),
			       "reason_kind", json_object_new_string("unknown"));
	needs = bisect_needs(steps, culprit, 3);
	assert_int_equal(json_object_array_length(needs), 0);
	json_object_put(needs);
	needs = bisect_needs(steps, (const bool[]){ true, true, true }, 3);
	assert_int_equal(json_object_array_length(needs), 0);
	json_object_put(needs);
	json_object_put(steps);
	json_object_put(rec);
	json_object_put(kept);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_culprit),
		cmocka_unit_test(test_nine_lines_one_breaks),
		cmocka_unit_test(test_every_conjunction),
		cmocka_unit_test(test_pair_only_together),
		cmocka_unit_test(test_two_independent_culprits),
		cmocka_unit_test(test_other_failure_is_a_pass),
		cmocka_unit_test(test_infra_stops),
		cmocka_unit_test(test_flaky),
		cmocka_unit_test(test_groups_then_lines),
		cmocka_unit_test(test_step_limit_and_bad_input),
		cmocka_unit_test(test_same_way),
		cmocka_unit_test(test_same_way_boot_and_scenario),
		cmocka_unit_test(test_fragment),
		cmocka_unit_test(test_needs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
