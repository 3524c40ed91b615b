/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The KTAP parser's state and the interfaces of its three parts (not a
 * public header: only ktap.c, ktap_line.c and ktap_tree.c include it).
 *
 *   ktap_line.c  one line -> struct line: what kind of KTAP line it is and
 *                its fields (pure, no parser state);
 *   ktap_tree.c  the tests: allocation within the limits, names, reasons,
 *                diagnostics, and the public queries over a finished tree
 *                (find, totals, path, status and directive names);
 *   ktap.c       the parser: the stack of nested blocks, plans, results,
 *                events, ktap_new/feed/finish/free.
 */
#ifndef BP_KTAP_IMPL_H
#define BP_KTAP_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "ktap.h"

/*
 * One block per nesting level: the subtests of one test (the root for a
 * document), at one indentation.
 */
struct block {
	unsigned indent;
	struct ktap_test *owner; /* NULL: over the limits, results dropped */
	size_t first_child;	 /* owner->children index of our first test */
	unsigned long plan;
	bool plan_seen;
	bool fresh;		/* only header lines so far */
	bool started;		/* TEST_START emitted for the owner */
	unsigned long last_number;
	size_t results;		/* result lines, kept or not */
	size_t dropped;		/* result lines not kept */
	/* The test owning the child block just opened or closed: the next
	 * result line at our indentation is its result. */
	struct ktap_test *open_child;
	char **diags;		/* for the next test created here */
	size_t n_diags;
	size_t dropped_diags;
	char *subtest_name;	/* TAP14 "# Subtest:" at our level */
};

enum cont {
	CONT_NONE,
	CONT_DIAG,	/* last line was a diagnostic */
	CONT_RESULT,	/* last line was a result: "---" may follow */
	CONT_YAML,	/* inside "---" ... "..." */
};

struct ktap {
	struct ktap_limits lim;
	ktap_event_fn fn;
	void *userdata;
	struct ktap_test *root;
	struct block *blocks;
	size_t depth;		/* blocks in use; 0 outside a document */
	size_t n_tests;
	size_t diag_bytes;
	struct ktap_stats stats;
	char *bail_reason;
	char *scratch;		/* max_line + 1 */
	enum cont cont;
	unsigned cont_indent;
	struct ktap_test *yaml_test;
};

/* ------------------------------------------------------------ ktap_line.c */

enum ltype {
	L_UNKNOWN,
	L_VERSION,
	L_SUBTEST,
	L_PLAN,
	L_BAD,		/* malformed plan or overflowing number */
	L_RESULT,
	L_BAIL,
	L_DIAG,
	L_YAML_START,
	L_YAML_END,
};

struct line {
	enum ltype type;
	unsigned indent;
	const char *text;	/* after the indentation */
	/* L_RESULT */
	bool ok;
	bool has_number;
	bool bad_number;
	unsigned long number;	/* also N of L_PLAN */
	const char *name;	/* L_RESULT, L_SUBTEST; not NUL-terminated */
	size_t name_len;
	enum ktap_directive dir; /* L_RESULT, L_PLAN */
	const char *rest;	/* directive reason / diagnostic data, or
				 * the text of L_DIAG, L_BAIL */
};

/* Remove "<6>", "[    1.234567] " and "[    T1] " prefixes in place;
 * returns where the line now starts. */
char *ktap_line_strip_prefixes(char *s);
/* Classify s (NUL-terminated; trailing blanks are cut off in place) into
 * *l, whose pointers point into s. */
void ktap_line_classify(char *s, struct line *l);

/* ------------------------------------------------------------ ktap_tree.c */

/* Free t and its subtree (accepts NULL). */
void ktap_tree_free(struct ktap_test *t);
/* Free the n strings of v, and v. */
void ktap_tree_free_strv(char **v, size_t n);
/* A copy of at most max bytes of s[0..n), counting truncation; NULL when
 * out of memory. */
char *ktap_tree_copy(struct ktap *k, const char *s, size_t n, size_t max);
/* A name (max_name): "\#" is '#', "\\" is '\'.  NULL: out of memory. */
char *ktap_tree_copy_name(struct ktap *k, const char *s, size_t n);
/* Replace t's reason with a copy of s (max_name).  0 or -ENOMEM. */
int ktap_tree_set_reason(struct ktap *k, struct ktap_test *t, const char *s);
/* Make room for element n of the array *pv (elements of size elem, grown
 * in powers of two from 4).  0 or -ENOMEM. */
int ktap_tree_grow(void *pv, size_t n, size_t elem);
/* Append a test to parent.  Returns 0 and *ret (NULL when over max_tests
 * or when there is no parent: the caller counts what is lost) or -ENOMEM. */
int ktap_tree_new_test(struct ktap *k, struct ktap_test *parent,
		       struct ktap_test **ret);
/* Append a diagnostic (malloc'd, taken in all cases) to a list within the
 * limits.  0 or -ENOMEM. */
int ktap_tree_push_diag(struct ktap *k, char ***v, size_t *n, size_t *dropped,
			char *s);
/* The same to t's diagnostics; dropped (and counted) when t is NULL. */
int ktap_tree_add_diag(struct ktap *k, struct ktap_test *t, char *s);

#endif
