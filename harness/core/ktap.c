// SPDX-License-Identifier: GPL-2.0-or-later
#include "ktap.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* ------------------------------------------------------------ lines */

/* What a line handler made of a line (or -ENOMEM). */
enum {
	LINE_UNRELATED = 0,
	LINE_KTAP = 1,
	LINE_MALFORMED = 2,
};

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

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_blanks(const char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

/* Parse decimal digits; *overflow on values beyond ULONG_MAX. */
static const char *parse_ulong(const char *s, unsigned long *ret,
			       bool *overflow)
{
	unsigned long v = 0;

	*overflow = false;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (ULONG_MAX - d) / 10)
			*overflow = true;
		else
			v = v * 10 + d;
	}
	*ret = v;
	return s;
}

static bool word_end(char c)
{
	return !isalnum((unsigned char)c) && c != '_';
}

/* A directive keyword at the start of s (after '#' and blanks). */
static enum ktap_directive parse_directive(const char *s, const char **rest)
{
	static const struct {
		const char *kw;
		enum ktap_directive dir;
		bool prefix; /* SKIPPED, SKIP_REASON... */
	} kws[] = {
		{ "SKIP", KTAP_DIR_SKIP, true },
		{ "TODO", KTAP_DIR_TODO, false },
		{ "XFAIL", KTAP_DIR_XFAIL, false },
		{ "TIMEOUT", KTAP_DIR_TIMEOUT, false },
		{ "ERROR", KTAP_DIR_ERROR, false },
	};

	for (size_t i = 0; i < ELEMENTSOF(kws); i++) {
		size_t n = strlen(kws[i].kw);
		const char *p = s + n;

		if (strncasecmp(s, kws[i].kw, n))
			continue;
		if (kws[i].prefix)
			while (isalpha((unsigned char)*p))
				p++;
		if (!word_end(*p))
			continue;
		p = skip_blanks(p);
		if (*p == ':')
			p = skip_blanks(p + 1);
		*rest = p;
		return kws[i].dir;
	}
	*rest = s;
	return KTAP_DIR_NONE;
}

/*
 * Split "name # directive reason" at the first '#' that starts the text or
 * follows a blank and is not escaped.
 */
static void parse_description(const char *s, struct line *l)
{
	const char *p = s, *end;

	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '#' && (p == s || is_blank(p[-1])))
			break;
	}
	end = p;
	while (end > s && is_blank(end[-1]))
		end--;
	l->name = s;
	l->name_len = (size_t)(end - s);
	l->dir = KTAP_DIR_NONE;
	l->rest = NULL;
	if (*p == '#') {
		p = skip_blanks(p + 1);
		l->dir = parse_directive(p, &l->rest);
		if (l->dir == KTAP_DIR_NONE && !*p)
			l->rest = NULL;
	}
}

static bool parse_version(const char *s, struct line *l)
{
	const char *p;
	bool ovf;

	if (!strncmp(s, "KTAP version ", 13))
		p = s + 13;
	else if (!strncmp(s, "TAP version ", 12))
		p = s + 12;
	else
		return false;
	if (!isdigit((unsigned char)*p))
		return false;
	p = parse_ulong(p, &l->number, &ovf);
	if (*skip_blanks(p))
		return false;
	l->type = L_VERSION;
	return true;
}

static bool parse_plan(const char *s, struct line *l)
{
	const char *p;
	bool ovf;

	if (strncmp(s, "1..", 3))
		return false;
	p = s + 3;
	l->type = L_BAD;
	if (!isdigit((unsigned char)*p))
		return true;
	p = parse_ulong(p, &l->number, &ovf);
	if (ovf)
		return true;
	if (*p && !is_blank(*p) && *p != '#')
		return true;
	p = skip_blanks(p);
	l->dir = KTAP_DIR_NONE;
	l->rest = NULL;
	if (*p == '#')
		l->dir = parse_directive(skip_blanks(p + 1), &l->rest);
	else if (*p)
		return true;
	l->type = L_PLAN;
	return true;
}

static bool parse_result(const char *s, struct line *l)
{
	const char *p;

	if (!strncmp(s, "ok", 2)) {
		l->ok = true;
		p = s + 2;
	} else if (!strncmp(s, "not ok", 6)) {
		l->ok = false;
		p = s + 6;
	} else {
		return false;
	}
	if (*p && !is_blank(*p))
		return false;
	p = skip_blanks(p);
	l->has_number = false;
	l->bad_number = false;
	l->number = 0;
	if (isdigit((unsigned char)*p)) {
		bool ovf;
		const char *q = parse_ulong(p, &l->number, &ovf);

		if (!*q || is_blank(*q)) {
			l->has_number = !ovf;
			l->bad_number = ovf;
			p = skip_blanks(q);
		}
	}
	if (p[0] == '-' && (!p[1] || is_blank(p[1])))
		p = skip_blanks(p + 1);
	parse_description(p, l);
	l->type = L_RESULT;
	return true;
}

static void classify(char *s, struct line *l)
{
	unsigned col = 0;
	size_t n;

	for (; is_blank(*s); s++)
		col = *s == '\t' ? (col + 8) & ~7u : col + 1;
	memset(l, 0, sizeof(*l));
	l->indent = col;
	l->text = s;
	l->type = L_UNKNOWN;

	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	if (!strcmp(s, "---")) {
		l->type = L_YAML_START;
	} else if (!strcmp(s, "...")) {
		l->type = L_YAML_END;
	} else if (s[0] == '#') {
		const char *p = skip_blanks(s + 1);

		if (!strncmp(p, "Subtest:", 8)) {
			l->type = L_SUBTEST;
			l->name = skip_blanks(p + 8);
			l->name_len = strlen(l->name);
		} else {
			l->type = L_DIAG;
			l->rest = p;
		}
	} else if (!strncasecmp(s, "Bail out!", 9)) {
		l->type = L_BAIL;
		l->rest = skip_blanks(s + 9);
	} else if (parse_version(s, l) || parse_plan(s, l) ||
		   parse_result(s, l)) {
		/* typed by the parser */
	}
}

/* Remove "<6>", "[    1.234567] " and "[    T1] " prefixes in place. */
static char *strip_prefixes(char *s)
{
	if (s[0] == '<' && isdigit((unsigned char)s[1])) {
		char *p = s + 1;

		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '>')
			s = p + 1;
	}
	if (s[0] == '[') {
		char *p = s + 1;
		bool digits = false;

		while (*p == ' ')
			p++;
		for (; isdigit((unsigned char)*p); p++)
			digits = true;
		if (digits && *p == '.') {
			p++;
			while (isdigit((unsigned char)*p))
				p++;
			if (*p == ']') {
				s = p + 1;
				/* CONFIG_PRINTK_CALLER: "[    T1]" */
				if (s[0] == '[') {
					p = s + 1;
					while (*p == ' ')
						p++;
					if (*p == 'T' || *p == 'C') {
						p++;
						digits = false;
						for (; isdigit((unsigned char)*p); p++)
							digits = true;
						if (digits && *p == ']')
							s = p + 1;
					}
				}
				if (*s == ' ')
					s++;
			}
		}
	}
	return s;
}

/* ------------------------------------------------------------ tree */

static void test_free(struct ktap_test *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_children; i++)
		test_free(t->children[i]);
	for (size_t i = 0; i < t->n_diags; i++)
		free(t->diags[i]);
	free(t->diags);
	free(t->children);
	free(t->name);
	free(t->reason);
	free(t);
}

/* A copy of at most max bytes of s[0..n), counting truncation. */
static char *copy_capped(struct ktap *k, const char *s, size_t n, size_t max)
{
	char *r;

	if (n > max) {
		n = max;
		k->stats.truncated++;
	}
	r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* A name: "\#" is '#', "\\" is '\'. */
static char *copy_name(struct ktap *k, const char *s, size_t n)
{
	char *r = copy_capped(k, s, n, k->lim.max_name);
	char *w;

	if (!r)
		return NULL;
	w = r;
	for (char *p = r; *p; p++) {
		if (*p == '\\' && (p[1] == '#' || p[1] == '\\'))
			p++;
		*w++ = *p;
	}
	*w = '\0';
	return r;
}

static int set_reason(struct ktap *k, struct ktap_test *t, const char *s)
{
	char *r = copy_capped(k, s, strlen(s), k->lim.max_name);

	if (!r)
		return -ENOMEM;
	free(t->reason);
	t->reason = r;
	return 0;
}

/*
 * Make room for element n of the array *pv (elements of size elem, grown in
 * powers of two from 4).  0 or -ENOMEM.
 */
static int grow(void *pv, size_t n, size_t elem)
{
	void **p = pv;
	void *nv;
	size_t a;

	if (n == 0)
		a = 4;
	else if (n >= 4 && !(n & (n - 1)))
		a = 2 * n;
	else
		return 0;
	nv = realloc(*p, a * elem);
	if (!nv)
		return -ENOMEM;
	*p = nv;
	return 0;
}

/*
 * Append a test to parent.  Returns 0 and *ret (NULL when over max_tests or
 * when there is no parent: the caller counts what is lost) or -ENOMEM.
 */
static int new_test(struct ktap *k, struct ktap_test *parent,
		    struct ktap_test **ret)
{
	struct ktap_test *t;

	*ret = NULL;
	if (!parent || k->n_tests >= k->lim.max_tests)
		return 0;
	if (grow(&parent->children, parent->n_children,
		 sizeof(*parent->children)) < 0)
		return -ENOMEM;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->name = strdup("");
	if (!t->name) {
		free(t);
		return -ENOMEM;
	}
	t->parent = parent;
	t->depth = parent->depth + 1;
	parent->children[parent->n_children++] = t;
	k->n_tests++;
	*ret = t;
	return 0;
}

/*
 * Append a diagnostic to a list within the limits.  Takes s (malloc'd)
 * in all cases.
 */
static int strv_push(struct ktap *k, char ***v, size_t *n, size_t *dropped,
		     char *s)
{
	size_t cost = strlen(s) + 1;

	if (*n >= k->lim.max_diags ||
	    k->diag_bytes + cost > k->lim.max_diag_bytes) {
		free(s);
		(*dropped)++;
		k->stats.dropped_diags++;
		return 0;
	}
	if (grow(v, *n, sizeof(**v)) < 0) {
		free(s);
		return -ENOMEM;
	}
	(*v)[(*n)++] = s;
	k->diag_bytes += cost;
	return 0;
}

static int test_add_diag(struct ktap *k, struct ktap_test *t, char *s)
{
	if (!t) {
		free(s);
		k->stats.dropped_diags++;
		return 0;
	}
	return strv_push(k, &t->diags, &t->n_diags, &t->dropped_diags, s);
}

/* Move the block's pending diagnostics into t (or drop them). */
static int block_flush_diags(struct ktap *k, struct block *b,
			     struct ktap_test *t)
{
	int r = 0;

	for (size_t i = 0; i < b->n_diags; i++) {
		k->diag_bytes -= strlen(b->diags[i]) + 1;
		if (r < 0) {
			free(b->diags[i]);
			continue;
		}
		r = test_add_diag(k, t, b->diags[i]);
	}
	if (t)
		t->dropped_diags += b->dropped_diags;
	free(b->diags);
	b->diags = NULL;
	b->n_diags = 0;
	b->dropped_diags = 0;
	return r;
}

static void emit(struct ktap *k, enum ktap_event_type type,
		 const struct ktap_test *t, const char *reason)
{
	struct ktap_event ev = {
		.type = type,
		.test = t,
		.reason = reason,
		.line = k->stats.lines,
	};

	if (k->fn)
		k->fn(k->userdata, &ev);
}

/* ------------------------------------------------------------ blocks */

static struct block *top(struct ktap *k)
{
	return &k->blocks[k->depth - 1];
}

/* The block has content: announce its owner once. */
static void touch(struct ktap *k, struct block *b)
{
	if (b->started)
		return;
	b->started = true;
	if (b->owner && b->owner != k->root)
		emit(k, KTAP_EV_TEST_START, b->owner, NULL);
}

/* A test that will not get its result line. */
static int give_up(struct ktap *k, struct ktap_test *t, const char *why)
{
	int r = 0;

	if (t->status == KTAP_PENDING) {
		t->status = KTAP_ERROR;
		t->incomplete = true;
		k->stats.incomplete++;
		if (!t->reason)
			r = set_reason(k, t, why);
		emit(k, KTAP_EV_TEST_DONE, t, NULL);
	}
	return r;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The plan of a closing block: count tests numbered beyond it, and add a
 * placeholder for each planned number nobody reported.
 */
static int check_plan(struct ktap *k, struct block *b)
{
	struct ktap_test *o = b->owner;
	_cleanup_free_ unsigned long *nums = NULL;
	size_t n = 0, distinct = 0, kept;
	unsigned long missing, next = 1;
	int r;

	if (!b->plan_seen || !o)
		return 0;
	kept = o->n_children - b->first_child;
	if (kept) {
		nums = malloc(kept * sizeof(*nums));
		if (!nums)
			return -ENOMEM;
	}
	for (size_t i = b->first_child; i < o->n_children; i++) {
		unsigned long v = o->children[i]->number;

		if (v > b->plan)
			k->stats.extra++;
		else if (v > 0)
			nums[n++] = v;
	}
	if (n)
		qsort(nums, n, sizeof(*nums), cmp_ulong);
	for (size_t i = 0; i < n; i++)
		if (!i || nums[i] != nums[i - 1])
			distinct++;
	missing = b->plan - distinct;
	missing = missing > b->dropped ? missing - b->dropped : 0;
	if (!missing)
		return 0;
	k->stats.missing += missing;
	o->incomplete = true;

	for (size_t i = 0; missing > 0; next++) {
		struct ktap_test *t;

		while (i < n && nums[i] < next)
			i++;
		if (i < n && nums[i] == next)
			continue;
		r = new_test(k, o, &t);
		if (r < 0)
			return r;
		if (!t) /* over max_tests: counted in stats.missing only */
			break;
		t->number = next;
		t->status = KTAP_ERROR;
		t->incomplete = true;
		r = set_reason(k, t, "missing");
		if (r < 0)
			return r;
		emit(k, KTAP_EV_TEST_DONE, t, NULL);
		missing--;
	}
	return 0;
}

static int close_block(struct ktap *k, const char *why)
{
	struct block *b = top(k);
	int r;

	touch(k, b);
	r = block_flush_diags(k, b, b->owner);
	if (r < 0)
		return r;
	free(b->subtest_name);
	b->subtest_name = NULL;
	if (b->open_child) {
		r = give_up(k, b->open_child, why);
		b->open_child = NULL;
		if (r < 0)
			return r;
	}
	r = check_plan(k, b);
	if (r < 0)
		return r;
	if (k->depth == 1 && !b->plan_seen && !b->results)
		k->root->incomplete = true; /* a header and nothing else */
	k->depth--;
	return 0;
}

static int close_all(struct ktap *k, const char *why)
{
	while (k->depth > 0) {
		int r = close_block(k, why);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Close the blocks indented deeper than indent (never the document's). */
static int pop_to(struct ktap *k, unsigned indent)
{
	while (k->depth > 1 && top(k)->indent > indent) {
		int r = close_block(k, "no result line");
		if (r < 0)
			return r;
	}
	return 0;
}

static void push_block(struct ktap *k, unsigned indent,
		       struct ktap_test *owner)
{
	struct block *b = &k->blocks[k->depth++];

	memset(b, 0, sizeof(*b));
	b->indent = indent;
	b->owner = owner;
	b->first_child = owner ? owner->n_children : 0;
	b->fresh = true;
}

/*
 * Open a block at indent for a new test in the current block, named by
 * name (NULL: the pending "# Subtest:" of this level, if any).  Returns 1,
 * 0 when too deep (the caller ignores the line), or -ENOMEM.
 */
static int open_child(struct ktap *k, unsigned indent, const char *name,
		      size_t name_len)
{
	struct block *b = top(k);
	struct ktap_test *t;
	int r;

	if (k->depth >= k->lim.max_depth)
		return 0;
	if (b->open_child) {
		b->last_number = b->open_child->number;
		r = give_up(k, b->open_child, "no result line");
		b->open_child = NULL;
		if (r < 0)
			return r;
	}
	touch(k, b);
	r = new_test(k, b->owner, &t);
	if (r < 0)
		return r;
	if (t) /* until its result line says otherwise */
		t->number = b->last_number + 1;
	r = block_flush_diags(k, b, t);
	if (r < 0)
		return r;
	if (t && name) {
		free(t->name);
		t->name = copy_name(k, name, name_len);
		if (!t->name)
			return -ENOMEM;
	} else if (t && b->subtest_name) {
		free(t->name);
		t->name = TAKE_PTR(b->subtest_name);
	}
	free(b->subtest_name);
	b->subtest_name = NULL;
	b->fresh = false;
	b->open_child = t;
	push_block(k, indent, t);
	return LINE_KTAP;
}

/*
 * Make the innermost block the one at indent: close deeper ones, open an
 * implicit one when the line is deeper.  Returns 1, 0 when the line must be
 * dropped (too deep), or -ENOMEM.
 */
static int enter(struct ktap *k, unsigned indent)
{
	int r = pop_to(k, indent);

	if (r < 0)
		return r;
	if (top(k)->indent < indent)
		return open_child(k, indent, NULL, 0);
	return 1;
}

/* ------------------------------------------------------------ lines */

static int start_document(struct ktap *k, unsigned indent)
{
	int r = close_all(k, "no result line");

	if (r < 0)
		return r;
	push_block(k, indent, k->root);
	k->stats.documents++;
	emit(k, KTAP_EV_DOC_START, NULL, NULL);
	return LINE_KTAP;
}

static int on_version(struct ktap *k, const struct line *l)
{
	struct block *root = &k->blocks[0];
	int r;

	if (!k->depth || l->indent < root->indent ||
	    (l->indent == root->indent && !root->fresh))
		return start_document(k, l->indent);
	if (l->indent == root->indent)
		return LINE_KTAP; /* a repeated header */
	r = pop_to(k, l->indent);
	if (r < 0)
		return r;
	if (top(k)->indent == l->indent) {
		if (top(k)->fresh)
			return LINE_KTAP;
		/* A sibling's block starts: the previous one got no result
		 * line (it stays open_child and is given up below). */
		r = close_block(k, "no result line");
		if (r < 0)
			return r;
	}
	r = open_child(k, l->indent, NULL, 0);
	return r < 0 ? r : LINE_KTAP; /* too deep: ignored */
}

static int on_subtest(struct ktap *k, const struct line *l)
{
	struct block *b;
	int r = pop_to(k, l->indent);

	if (r < 0)
		return r;
	b = top(k);
	if (b->indent < l->indent) {
		r = open_child(k, l->indent, l->name, l->name_len);
		if (r > 0)
			touch(k, top(k));
		return r < 0 ? r : LINE_KTAP;
	}
	if (b->fresh && k->depth > 1 && b->owner && !b->owner->name[0]) {
		free(b->owner->name);
		b->owner->name = copy_name(k, l->name, l->name_len);
		if (!b->owner->name)
			return -ENOMEM;
		touch(k, b);
		return LINE_KTAP;
	}
	/* TAP14: the comment sits at the parent's level. */
	touch(k, b);
	free(b->subtest_name);
	b->subtest_name = copy_name(k, l->name, l->name_len);
	return b->subtest_name ? LINE_KTAP : -ENOMEM;
}

static int on_plan(struct ktap *k, const struct line *l)
{
	struct block *b;
	struct ktap_test *o;
	int r = enter(k, l->indent);

	if (r <= 0)
		return r < 0 ? r : LINE_KTAP; /* too deep: ignored */
	b = top(k);
	touch(k, b);
	if (b->plan_seen)
		return LINE_MALFORMED;
	b->plan_seen = true;
	b->plan = l->number;
	b->fresh = false;
	o = b->owner;
	if (!o)
		return LINE_KTAP;
	o->plan_seen = true;
	if (o != k->root)
		o->plan = l->number;
	else if (o->plan > ULONG_MAX - l->number)
		o->plan = ULONG_MAX;
	else
		o->plan += l->number;
	if (l->dir != KTAP_DIR_NONE && o->directive == KTAP_DIR_NONE) {
		o->directive = l->dir;
		if (l->rest && *l->rest && !o->reason) {
			r = set_reason(k, o, l->rest);
			if (r < 0)
				return r;
		}
	}
	return LINE_KTAP;
}

static enum ktap_status status_of(bool ok, enum ktap_directive dir)
{
	switch (dir) {
	case KTAP_DIR_SKIP:
		return KTAP_SKIP;
	case KTAP_DIR_TODO:
	case KTAP_DIR_XFAIL:
		return KTAP_XFAIL;
	case KTAP_DIR_ERROR:
		return KTAP_ERROR;
	case KTAP_DIR_TIMEOUT:
		return KTAP_FAIL;
	case KTAP_DIR_NONE:
		break;
	}
	return ok ? KTAP_PASS : KTAP_FAIL;
}

static int on_result(struct ktap *k, const struct line *l)
{
	struct block *b;
	struct ktap_test *t;
	unsigned long number;
	int r = enter(k, l->indent);

	if (r < 0)
		return r;
	if (!r) {
		k->stats.dropped_tests++; /* too deep */
		return LINE_KTAP;
	}
	b = top(k);
	touch(k, b);
	b->fresh = false;
	b->results++;
	free(b->subtest_name);
	b->subtest_name = NULL;
	if (l->bad_number)
		k->stats.misnumbered++;
	if (l->has_number) {
		number = l->number;
		if (number != b->last_number + 1)
			k->stats.misnumbered++;
	} else {
		number = b->last_number + 1;
	}
	b->last_number = number;

	if (b->open_child) {
		t = TAKE_PTR(b->open_child);
	} else {
		r = new_test(k, b->owner, &t);
		if (r < 0)
			return r;
		r = block_flush_diags(k, b, t);
		if (r < 0)
			return r;
		if (!t) {
			k->stats.dropped_tests++;
			b->dropped++;
			return LINE_KTAP;
		}
	}
	if (l->name_len || !t->name[0]) {
		char *name = copy_name(k, l->name, l->name_len);

		if (!name)
			return -ENOMEM;
		free(t->name);
		t->name = name;
	}
	t->number = number;
	t->ok = l->ok;
	t->has_result = true;
	t->directive = l->dir;
	t->status = status_of(l->ok, l->dir);
	t->line = k->stats.lines;
	if (l->rest && *l->rest) {
		if (l->dir != KTAP_DIR_NONE) {
			r = set_reason(k, t, l->rest);
		} else {
			char *d = copy_capped(k, l->rest, strlen(l->rest),
					      k->lim.max_line);
			r = d ? test_add_diag(k, t, d) : -ENOMEM;
		}
		if (r < 0)
			return r;
	}
	k->cont = CONT_RESULT;
	k->cont_indent = l->indent;
	k->yaml_test = t;
	emit(k, KTAP_EV_TEST_DONE, t, NULL);
	return LINE_KTAP;
}

/*
 * A diagnostic (at indent) goes to the test waiting for its result, else to
 * the next one.  In a block's header (before its plan and tests: KUnit's
 * "# module: x" attributes) it describes the block's owner, unless it is
 * less indented than the block: KUnit prints the first parameter's
 * messages at the case's level right after the parameters' header.
 */
static int add_diag(struct ktap *k, char *s, unsigned indent)
{
	struct block *b = top(k);

	if (b->open_child)
		return test_add_diag(k, b->open_child, s);
	if (b->fresh && indent >= b->indent)
		return test_add_diag(k, b->owner, s);
	if (!b->owner) {
		free(s);
		k->stats.dropped_diags++;
		return 0;
	}
	return strv_push(k, &b->diags, &b->n_diags, &b->dropped_diags, s);
}

/*
 * Diagnostics never close a block, whatever their indentation: KUnit
 * prints a parameterised case's messages ("# case: EXPECTATION FAILED"),
 * stats and attributes at the case's level while the parameters' block,
 * one level deeper, is still open.  What a closing block still holds goes
 * to its owner.
 */
static int on_diag(struct ktap *k, const struct line *l)
{
	char *s;
	int r;

	touch(k, top(k));
	s = copy_capped(k, l->rest, strlen(l->rest), k->lim.max_line);
	if (!s)
		return -ENOMEM;
	r = add_diag(k, s, l->indent);
	if (r < 0)
		return r;
	k->cont = CONT_DIAG;
	k->cont_indent = l->indent;
	return LINE_KTAP;
}

static int on_bail(struct ktap *k, const struct line *l)
{
	int r;

	k->stats.bailed_out = true;
	if (!k->bail_reason) {
		k->bail_reason = copy_capped(k, l->rest, strlen(l->rest),
					     k->lim.max_name);
		if (!k->bail_reason)
			return -ENOMEM;
		k->stats.bail_reason = k->bail_reason;
	}
	emit(k, KTAP_EV_BAIL_OUT, NULL, k->bail_reason);
	r = close_all(k, "bail out");
	return r < 0 ? r : LINE_KTAP;
}

/* Text of a continuation line, keeping indentation beyond base. */
static char *indented_copy(struct ktap *k, const struct line *l,
			   unsigned base)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	size_t extra = l->indent > base ? l->indent - base : 0;

	if (extra > k->lim.max_line)
		extra = k->lim.max_line;
	for (size_t i = 0; i < extra; i++)
		strbuf_addch(&sb, ' ');
	strbuf_addstr(&sb, l->text);
	if (sb.len > k->lim.max_line) {
		strbuf_setlen(&sb, k->lim.max_line);
		k->stats.truncated++;
	}
	return strbuf_detach(&sb, NULL);
}

static bool structural(enum ltype t)
{
	return t == L_VERSION || t == L_SUBTEST || t == L_PLAN ||
	       t == L_RESULT || t == L_BAIL;
}

/*
 * Lines that only mean something right after the previous one.  Returns
 * LINE_KTAP when the line was consumed, LINE_UNRELATED to go on with the
 * normal dispatch, or -ENOMEM.
 */
static int continuation(struct ktap *k, const struct line *l)
{
	enum cont c = k->cont;
	int r;

	k->cont = CONT_NONE;
	switch (c) {
	case CONT_NONE:
		break;
	case CONT_RESULT:
		if (l->type == L_YAML_START && l->indent >= k->cont_indent) {
			k->cont = CONT_YAML;
			return LINE_KTAP;
		}
		break;
	case CONT_YAML:
		if (l->type == L_YAML_END && l->indent >= k->cont_indent)
			return LINE_KTAP;
		if ((structural(l->type) && l->indent <= k->cont_indent) ||
		    (l->indent < k->cont_indent && l->text[0]))
			break;
		r = test_add_diag(k, k->yaml_test,
				  indented_copy(k, l, k->cont_indent));
		if (r < 0)
			return r;
		k->cont = CONT_YAML;
		return 1;
	case CONT_DIAG:
		if (l->type == L_UNKNOWN && l->text[0] &&
		    l->indent >= k->cont_indent &&
		    l->indent > k->blocks[0].indent) {
			r = add_diag(k, indented_copy(k, l, k->cont_indent),
				     k->cont_indent);
			if (r < 0)
				return r;
			k->cont = CONT_DIAG;
			return LINE_KTAP;
		}
		break;
	}
	return LINE_UNRELATED;
}

static int dispatch(struct ktap *k, const struct line *l)
{
	int r;

	if (l->type == L_VERSION) {
		k->cont = CONT_NONE;
		return on_version(k, l);
	}
	if (!k->depth || l->indent < k->blocks[0].indent) {
		k->cont = CONT_NONE;
		return LINE_UNRELATED;
	}
	r = continuation(k, l);
	if (r)
		return r;
	switch (l->type) {
	case L_SUBTEST:
		return on_subtest(k, l);
	case L_PLAN:
		return on_plan(k, l);
	case L_RESULT:
		return on_result(k, l);
	case L_BAIL:
		return on_bail(k, l);
	case L_DIAG:
		return on_diag(k, l);
	case L_BAD:
		return LINE_MALFORMED;
	default:
		return LINE_UNRELATED;
	}
}

int ktap_feed_line(struct ktap *k, const char *line, size_t len)
{
	struct line l;
	const char *nul;
	char *s;
	int r;

	if (!k || (!line && len) || k->stats.finished)
		return -EINVAL;
	k->stats.lines++;
	nul = len ? memchr(line, '\0', len) : NULL;
	if (nul)
		len = (size_t)(nul - line);
	if (len > k->lim.max_line) {
		len = k->lim.max_line;
		k->stats.truncated++;
	}
	if (len)
		memcpy(k->scratch, line, len);
	k->scratch[len] = '\0';
	s = strip_prefixes(k->scratch);
	classify(s, &l);

	r = dispatch(k, &l);
	switch (r) {
	case LINE_KTAP:
		k->stats.ktap_lines++;
		return 1;
	case LINE_MALFORMED:
		k->stats.malformed++;
		return 0;
	case LINE_UNRELATED:
		k->stats.unrelated++;
		return 0;
	}
	return r;
}

long ktap_feed_text(struct ktap *k, const char *buf, size_t len)
{
	long n = 0;

	if (!k || (!buf && len))
		return -EINVAL;
	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t ll = nl ? (size_t)(nl - buf) : len;
		int r = ktap_feed_line(k, buf, ll);

		if (r < 0)
			return r;
		n += r;
		if (!nl)
			break;
		len -= ll + 1;
		buf = nl + 1;
	}
	return n;
}

int ktap_finish(struct ktap *k)
{
	struct ktap_totals tot;
	struct ktap_test *root;
	int r;

	if (!k)
		return -EINVAL;
	if (k->stats.finished)
		return 0;
	r = close_all(k, "no result line");
	if (r < 0)
		return r;
	k->stats.finished = true;
	root = k->root;
	ktap_test_totals(root, &tot);
	if (!k->stats.documents) {
		root->status = KTAP_SKIP;
		r = set_reason(k, root, "no KTAP output");
	} else if (root->incomplete || k->stats.bailed_out ||
		   k->stats.missing || k->stats.incomplete || tot.errors) {
		root->status = KTAP_ERROR;
		if (k->stats.bailed_out)
			r = set_reason(k, root, "bail out");
	} else if (tot.failed) {
		root->status = KTAP_FAIL;
	} else if (tot.passed || tot.xfailed) {
		root->status = KTAP_PASS;
	} else {
		root->status = KTAP_SKIP;
	}
	k->stats.complete = k->stats.documents && !root->incomplete &&
			    !k->stats.bailed_out && !k->stats.missing &&
			    !k->stats.incomplete;
	return r;
}

/* ------------------------------------------------------------ API */

struct ktap *ktap_new(const struct ktap_limits *limits, ktap_event_fn fn,
		      void *userdata)
{
	struct ktap *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	if (limits)
		k->lim = *limits;
	if (!k->lim.max_line)
		k->lim.max_line = KTAP_DEFAULT_MAX_LINE;
	if (!k->lim.max_name)
		k->lim.max_name = KTAP_DEFAULT_MAX_NAME;
	if (!k->lim.max_tests)
		k->lim.max_tests = KTAP_DEFAULT_MAX_TESTS;
	if (!k->lim.max_depth)
		k->lim.max_depth = KTAP_DEFAULT_MAX_DEPTH;
	if (!k->lim.max_diags)
		k->lim.max_diags = KTAP_DEFAULT_MAX_DIAGS;
	if (!k->lim.max_diag_bytes)
		k->lim.max_diag_bytes = KTAP_DEFAULT_MAX_DIAG_BYTES;
	k->fn = fn;
	k->userdata = userdata;
	k->root = calloc(1, sizeof(*k->root));
	k->blocks = calloc(k->lim.max_depth, sizeof(*k->blocks));
	k->scratch = malloc(k->lim.max_line + 1);
	if (!k->root || !k->blocks || !k->scratch ||
	    !(k->root->name = strdup(""))) {
		ktap_free(k);
		return NULL;
	}
	k->stats.bail_reason = "";
	return k;
}

void ktap_free(struct ktap *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->depth; i++) {
		struct block *b = &k->blocks[i];

		for (size_t j = 0; j < b->n_diags; j++)
			free(b->diags[j]);
		free(b->diags);
		free(b->subtest_name);
	}
	free(k->blocks);
	test_free(k->root);
	free(k->bail_reason);
	free(k->scratch);
	free(k);
}

const struct ktap_test *ktap_root(const struct ktap *k)
{
	return k->root;
}

const struct ktap_stats *ktap_get_stats(const struct ktap *k)
{
	return &k->stats;
}

const struct ktap_test *ktap_test_find(const struct ktap_test *t,
				       const char *path)
{
	if (!t || !path)
		return NULL;
	if (!*path)
		return t;
	for (size_t i = 0; i < t->n_children; i++) {
		const struct ktap_test *c = t->children[i];
		size_t n = strlen(c->name);
		const struct ktap_test *found;

		if (!n || strncmp(path, c->name, n))
			continue;
		if (!path[n])
			return c;
		/* "x/" is a name ending in '/', not x */
		if (path[n] != '/' || !path[n + 1])
			continue;
		found = ktap_test_find(c, path + n + 1);
		if (found)
			return found;
	}
	return NULL;
}

/* Returns how many failures and errors the subtree accounts for. */
static size_t totals(const struct ktap_test *t, bool count_self,
		     struct ktap_totals *tot)
{
	size_t bad = 0;

	for (size_t i = 0; i < t->n_children; i++)
		bad += totals(t->children[i], true, tot);
	if (!count_self || (t->n_children && bad))
		return bad;
	switch (t->status) {
	case KTAP_PENDING:
		if (!t->n_children)
			tot->pending++;
		return bad;
	case KTAP_PASS:
		if (!t->n_children)
			tot->passed++;
		return bad;
	case KTAP_SKIP:
		if (!t->n_children)
			tot->skipped++;
		return bad;
	case KTAP_XFAIL:
		if (!t->n_children)
			tot->xfailed++;
		return bad;
	case KTAP_FAIL:
		tot->failed++;
		return bad + 1;
	case KTAP_ERROR:
		tot->errors++;
		return bad + 1;
	}
	return bad;
}

void ktap_test_totals(const struct ktap_test *t, struct ktap_totals *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (t)
		totals(t, t->depth > 0, ret);
}

void ktap_test_path(const struct ktap_test *t, struct strbuf *out)
{
	if (!t || !t->parent)
		return;
	if (t->parent->parent) {
		ktap_test_path(t->parent, out);
		strbuf_addch(out, '/');
	}
	strbuf_addstr(out, t->name);
}

const char *ktap_status_name(enum ktap_status s)
{
	switch (s) {
	case KTAP_PENDING:
		return "pending";
	case KTAP_PASS:
		return "pass";
	case KTAP_FAIL:
		return "fail";
	case KTAP_SKIP:
		return "skip";
	case KTAP_XFAIL:
		return "xfail";
	case KTAP_ERROR:
		return "error";
	}
	return "?";
}

const char *ktap_directive_name(enum ktap_directive d)
{
	switch (d) {
	case KTAP_DIR_NONE:
		return "";
	case KTAP_DIR_SKIP:
		return "SKIP";
	case KTAP_DIR_TODO:
		return "TODO";
	case KTAP_DIR_XFAIL:
		return "XFAIL";
	case KTAP_DIR_TIMEOUT:
		return "TIMEOUT";
	case KTAP_DIR_ERROR:
		return "ERROR";
	}
	return "?";
}
