/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktap: incremental parser of KTAP v1 and TAP 13/14 test output as it
 * appears on a kernel console (pure: no I/O, no logging).
 *
 * Formats: Documentation/dev-tools/ktap.rst, and what KUnit really prints
 * (lib/kunit/test.c): every document starts with a version line,
 *
 *	KTAP version 1              TAP version 13 / TAP version 14
 *	1..N                        plan (may also come last; "1..0 # SKIP why")
 *	    KTAP version 1          a nested block: deeper indentation
 *	    # Subtest: name         names the test that owns the block
 *	    1..M
 *	    # case: diagnostic      "# ..." lines belong to the next result
 *	    ok 1 case               [not] ok [N] [- ]name [# DIRECTIVE reason]
 *	ok 1 name                   the owner's result closes the block
 *	Bail out! reason
 *
 * Nesting is decided by indentation: any width (KUnit uses 4 spaces,
 * ktap.rst 2), compared with the enclosing block.  A version, subtest,
 * plan or result line less indented than the innermost block closes it;
 * diagnostics never do (KUnit prints a parameterised case's messages at
 * the case's level while its parameters' block is open): they belong to
 * the next test of the innermost block; to the block's owner when they come
 * before its plan indented like the block (KUnit's "# module: x"), or when
 * the block closes first.
 * TAP14's "# Subtest: name" is accepted both inside the new block and at
 * the parent's indentation.  Directives SKIP (also "skip", "SKIPPED"),
 * TODO, XFAIL, TIMEOUT, ERROR are case-insensitive; any other text after
 * '#' is diagnostic data.  A TAP YAML block ("---" ... "...") after a
 * result is kept as diagnostics of that test.  In a name, "\#" is a '#'.
 *
 * Anything else is an unrelated line (a serial console interleaves kernel
 * messages; KTAP explicitly allows them): it is counted and otherwise
 * ignored, except that lines indented at least as deep as a nested
 * diagnostic line directly before them continue it (KUnit's multi-line
 * "Expected a == b, but" assertion reports).
 *
 * Lines are given one at a time, without the newline.  The caller strips
 * console noise, but a leading printk timestamp "[    1.234567] " (also with
 * a "[T1] " caller id), a "<6>" level prefix, trailing "\r" and whitespace
 * are removed here too.  Lines before the first version line are unrelated.
 *
 * Sources: ktap_line.c says what one line is (version, plan, result,
 * diagnostic...); ktap.c is the parser proper (nested blocks, plans,
 * events and this API's feed/finish); ktap_tree.c builds the test tree
 * within the limits and answers the queries over it (find, totals, path,
 * names).  Their shared state is in ktap_impl.h, which nothing else
 * includes.
 *
 * Ownership: the parser owns every struct ktap_test and string it hands
 * out; they stay valid, at the same address, until ktap_free().  A test is
 * final when its KTAP_EV_TEST_DONE event is emitted, except that a TAP YAML
 * block right after its result line may still append diagnostics.
 */
#ifndef BP_KTAP_H
#define BP_KTAP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"
#include "util/strbuf.h"

enum ktap_status {
	KTAP_PENDING = 0, /* no result yet (never after ktap_finish) */
	KTAP_PASS,	  /* "ok" */
	KTAP_FAIL,	  /* "not ok" (also with # TIMEOUT) */
	KTAP_SKIP,	  /* # SKIP, either "ok" or "not ok" */
	KTAP_XFAIL,	  /* # TODO or # XFAIL: failure expected */
	KTAP_ERROR,	  /* did not finish: no result line, missing from
			   * the plan, bail out; or # ERROR */
};

enum ktap_directive {
	KTAP_DIR_NONE = 0,
	KTAP_DIR_SKIP,
	KTAP_DIR_TODO,
	KTAP_DIR_XFAIL,
	KTAP_DIR_TIMEOUT,
	KTAP_DIR_ERROR,
};

struct ktap_test {
	char *name;		/* never NULL; "" when the output gave none */
	unsigned long number;	/* as printed; implied (previous + 1) when
				 * the line had none; 0 for the root */
	enum ktap_status status;
	enum ktap_directive directive;
	bool ok;		/* the result line said "ok" */
	bool has_result;	/* a result line was seen for this test */
	bool incomplete;	/* no result line, plan not fulfilled, or a
				 * placeholder for a planned test that never
				 * reported (name "", reason "missing") */
	char *reason;		/* directive text, or why it is KTAP_ERROR;
				 * NULL when none */
	char **diags;		/* diagnostic lines, '#' and indentation
				 * stripped, in order */
	size_t n_diags;
	size_t dropped_diags;	/* not kept: limits */
	struct ktap_test **children;
	size_t n_children;
	struct ktap_test *parent; /* NULL for the root */
	unsigned long plan;	/* subtests announced by "1..N" */
	bool plan_seen;
	unsigned depth;		/* 0 root, 1 top-level test, ... */
	size_t line;		/* 1-based number of the fed line holding the
				 * result; 0 when none */
};

/*
 * The root is a synthetic test (name "", depth 0) whose children are the
 * top-level tests of every document seen (a console may show several: one
 * per boot or per module load; numbering restarts in each).  Its plan is
 * the sum of the documents' plans.  After ktap_finish its status is
 * ERROR when anything is incomplete or the run bailed out, else FAIL when
 * a test failed, else PASS when a test passed or xfailed, else SKIP (also
 * when there was no KTAP output at all: see stats.documents).
 */

/*
 * Bounds against hostile or runaway output.  A zero field takes the
 * default.  With the defaults the parser holds at most about 50 MiB
 * whatever it is fed (65536 tests with a 256-byte name and reason each,
 * plus 1 MiB of diagnostics); a KUnit run of a few thousand tests takes a
 * few hundred KiB.  Everything not kept is counted in struct ktap_stats.
 */
struct ktap_limits {
	size_t max_line;	/* bytes of a line looked at [4096] */
	size_t max_name;	/* bytes kept of a name or reason [256] */
	size_t max_tests;	/* tests kept, placeholders included [65536] */
	size_t max_depth;	/* nesting levels of blocks [16] */
	size_t max_diags;	/* diagnostic lines kept per test [64] */
	size_t max_diag_bytes;	/* bytes of diagnostics kept in total [1 MiB] */
};

#define KTAP_DEFAULT_MAX_LINE 4096
#define KTAP_DEFAULT_MAX_NAME 256
#define KTAP_DEFAULT_MAX_TESTS 65536
#define KTAP_DEFAULT_MAX_DEPTH 16
#define KTAP_DEFAULT_MAX_DIAGS 64
#define KTAP_DEFAULT_MAX_DIAG_BYTES (1024 * 1024)

/*
 * Counts.  Every fed line is exactly one of ktap_lines, unrelated or
 * malformed.
 */
struct ktap_stats {
	size_t lines;		/* lines fed */
	size_t ktap_lines;	/* understood as KTAP (incl. YAML and
				 * diagnostic continuation lines) */
	size_t unrelated;	/* not KTAP, or outside any document */
	size_t malformed;	/* KTAP-like but unusable: "1.." without N
				 * or with trailing junk, a plan number
				 * that overflows, a second plan */
	size_t truncated;	/* lines, names or reasons cut to a limit */
	size_t documents;	/* version lines that started a document */
	size_t misnumbered;	/* result numbers other than previous + 1,
				 * or overflowing (then taken as absent) */
	size_t extra;		/* results numbered beyond their plan */
	size_t missing;		/* planned tests that never reported */
	size_t incomplete;	/* tests whose result line never came */
	size_t dropped_tests;	/* results not kept: max_tests, max_depth */
	size_t dropped_diags;	/* diagnostic lines not kept */
	bool bailed_out;	/* "Bail out!" seen */
	const char *bail_reason; /* its text ("" when none), owned by k */
	bool finished;		/* ktap_finish was called */
	bool complete;		/* after ktap_finish: at least one document,
				 * every plan fulfilled, every result line
				 * present, no bail out */
};

/* Totals over a subtree, see ktap_test_totals. */
struct ktap_totals {
	size_t passed;
	size_t failed;
	size_t skipped;
	size_t xfailed;
	size_t errors;
	size_t pending;
};

enum ktap_event_type {
	KTAP_EV_DOC_START,	/* a version line began a document */
	KTAP_EV_TEST_START,	/* a test with subtests began (its block has
				 * content or a name); test->name is set if
				 * the output named it by then */
	KTAP_EV_TEST_DONE,	/* a test got its final status: result line,
				 * or ERROR at a cut-off, bail out, finish */
	KTAP_EV_BAIL_OUT,	/* "Bail out!"; reason is its text */
};

struct ktap_event {
	enum ktap_event_type type;
	const struct ktap_test *test; /* START, DONE; else NULL */
	const char *reason;	/* BAIL_OUT; else NULL */
	size_t line;		/* fed line that caused it (at ktap_finish:
				 * the number of lines fed) */
};

/*
 * Called synchronously from ktap_feed_line / ktap_finish.  The event and
 * what it points to are valid until ktap_free (ev itself only during the
 * call).  A top-level test is test->depth == 1.  The callback must not call
 * back into the same parser.
 */
typedef void (*ktap_event_fn)(void *userdata, const struct ktap_event *ev);

struct ktap;

/*
 * A new parser.  limits may be NULL (defaults); fn may be NULL.  Returns
 * NULL on allocation failure.  Free with ktap_free (accepts NULL).
 */
struct ktap *ktap_new(const struct ktap_limits *limits, ktap_event_fn fn,
		      void *userdata);
void ktap_free(struct ktap *k);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct ktap *, ktap_free)
#define _cleanup_ktap_ _cleanup_(ktap_freep)

/*
 * Feed one line (len bytes, no newline needed; stops at a NUL byte).
 * Returns 1 when the line was KTAP, 0 when it was unrelated or malformed,
 * -EINVAL after ktap_finish or for a NULL line, -ENOMEM (the line is then
 * partly lost; the tree stays consistent).
 */
int ktap_feed_line(struct ktap *k, const char *line, size_t len);

/*
 * Feed a whole buffer: split on '\n' (a last line without one is fed
 * too).  For recorded logs; a live stream should use ktap_feed_line.
 * Returns the number of KTAP lines or a negative errno as above.
 */
long ktap_feed_text(struct ktap *k, const char *buf, size_t len);

/*
 * End of input: close every open block.  Tests still waiting for their
 * result become KTAP_ERROR "no result line", planned tests never seen are
 * added as placeholders (KTAP_ERROR "missing"), events are emitted for
 * them, and the root's status and stats.complete are decided.  Idempotent.
 * Returns 0 or -ENOMEM.
 */
int ktap_finish(struct ktap *k);

/* The tree (root, see above) and the counts; owned by k. */
const struct ktap_test *ktap_root(const struct ktap *k);
const struct ktap_stats *ktap_get_stats(const struct ktap *k);

/*
 * Look a descendant of t up by names joined with '/': "bpf/map_update".
 * A name may itself contain '/'.  With duplicate names the first match
 * wins.  "" is t itself.  Returns NULL when there is none.
 */
const struct ktap_test *ktap_test_find(const struct ktap_test *t,
				       const char *path);

/*
 * Totals over the subtree of t, counting leaves (tests without subtests) by
 * status, like KUnit does; a test with subtests is counted itself only
 * when it failed or errored and none of its subtests explains that (e.g. a
 * suite that failed to initialise, or whose result line never came).  The
 * root itself is never counted.  Always succeeds.
 */
void ktap_test_totals(const struct ktap_test *t, struct ktap_totals *ret);

/* Append "parent/child/name" (without the root) to out. */
void ktap_test_path(const struct ktap_test *t, struct strbuf *out);

/* "pending", "pass", "fail", "skip", "xfail", "error"; "?" if unknown. */
const char *ktap_status_name(enum ktap_status s);
/* "", "SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR". */
const char *ktap_directive_name(enum ktap_directive d);

#endif
