// SPDX-License-Identifier: GPL-2.0-or-later
#include "ktap.h"
#include "ktap_impl.h"

#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ lines */

/* What a line handler made of a line (or -ENOMEM). */
enum {
	LINE_UNRELATED = 0,
	LINE_KTAP = 1,
	LINE_MALFORMED = 2,
};

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
		r = ktap_tree_add_diag(k, t, b->diags[i]);
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
			r = ktap_tree_set_reason(k, t, why);
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
		r = ktap_tree_new_test(k, o, &t);
		if (r < 0)
			return r;
		if (!t) /* over max_tests: counted in stats.missing only */
			break;
		t->number = next;
		t->status = KTAP_ERROR;
		t->incomplete = true;
		r = ktap_tree_set_reason(k, t, "missing");
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
	r = ktap_tree_new_test(k, b->owner, &t);
	if (r < 0)
		return r;
	if (t) /* until its result line says otherwise */
		t->number = b->last_number + 1;
	r = block_flush_diags(k, b, t);
	if (r < 0)
		return r;
	if (t && name) {
		free(t->name);
		t->name = ktap_tree_copy_name(k, name, name_len);
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
		b->owner->name = ktap_tree_copy_name(k, l->name, l->name_len);
		if (!b->owner->name)
			return -ENOMEM;
		touch(k, b);
		return LINE_KTAP;
	}
	/* TAP14: the comment sits at the parent's level. */
	touch(k, b);
	free(b->subtest_name);
	b->subtest_name = ktap_tree_copy_name(k, l->name, l->name_len);
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
			r = ktap_tree_set_reason(k, o, l->rest);
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
		r = ktap_tree_new_test(k, b->owner, &t);
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
		char *name = ktap_tree_copy_name(k, l->name, l->name_len);

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
			r = ktap_tree_set_reason(k, t, l->rest);
		} else {
			char *d = ktap_tree_copy(k, l->rest, strlen(l->rest),
					      k->lim.max_line);
			r = d ? ktap_tree_add_diag(k, t, d) : -ENOMEM;
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
		return ktap_tree_add_diag(k, b->open_child, s);
	if (b->fresh && indent >= b->indent)
		return ktap_tree_add_diag(k, b->owner, s);
	if (!b->owner) {
		free(s);
		k->stats.dropped_diags++;
		return 0;
	}
	return ktap_tree_push_diag(k, &b->diags, &b->n_diags, &b->dropped_diags, s);
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
	s = ktap_tree_copy(k, l->rest, strlen(l->rest), k->lim.max_line);
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
		k->bail_reason = ktap_tree_copy(k, l->rest, strlen(l->rest),
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
		r = ktap_tree_add_diag(k, k->yaml_test,
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
	if (!k->depth && l->type == L_PLAN) {
		/* A plan outside any document starts one: TAP that has no
		 * version line, or a version line a kernel message was
		 * spliced into on a shared serial console ("KTAP ver[  9.98]
		 * random: crng init done" then "sion 1"). */
		k->cont = CONT_NONE;
		r = start_document(k, l->indent);
		return r < 0 ? r : on_plan(k, l);
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
	s = ktap_line_strip_prefixes(k->scratch);
	ktap_line_classify(s, &l);

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
		r = ktap_tree_set_reason(k, root, "no KTAP output");
	} else if (root->incomplete || k->stats.bailed_out ||
		   k->stats.missing || k->stats.incomplete || tot.errors) {
		root->status = KTAP_ERROR;
		if (k->stats.bailed_out)
			r = ktap_tree_set_reason(k, root, "bail out");
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

/* What a zero field of struct ktap_limits takes. */
static const struct {
	size_t off, value;
} limit_defaults[] = {
	{ offsetof(struct ktap_limits, max_line), KTAP_DEFAULT_MAX_LINE },
	{ offsetof(struct ktap_limits, max_name), KTAP_DEFAULT_MAX_NAME },
	{ offsetof(struct ktap_limits, max_tests), KTAP_DEFAULT_MAX_TESTS },
	{ offsetof(struct ktap_limits, max_depth), KTAP_DEFAULT_MAX_DEPTH },
	{ offsetof(struct ktap_limits, max_diags), KTAP_DEFAULT_MAX_DIAGS },
	{ offsetof(struct ktap_limits, max_diag_bytes),
	  KTAP_DEFAULT_MAX_DIAG_BYTES },
};

struct ktap *ktap_new(const struct ktap_limits *limits, ktap_event_fn fn,
		      void *userdata)
{
	struct ktap *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	if (limits)
		k->lim = *limits;
	for (size_t i = 0; i < ELEMENTSOF(limit_defaults); i++) {
		size_t *v = (size_t *)((char *)&k->lim + limit_defaults[i].off);

		if (!*v)
			*v = limit_defaults[i].value;
	}
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
		ktap_tree_free_strv(k->blocks[i].diags, k->blocks[i].n_diags);
		free(k->blocks[i].subtest_name);
	}
	free(k->blocks);
	ktap_tree_free(k->root);
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
