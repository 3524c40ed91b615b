// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/refresh.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const change_names[REFRESH_CHANGE_MAX] = {
	[REFRESH_ADDED] = "added",
	[REFRESH_REMOVED] = "removed",
	[REFRESH_CHANGED] = "changed",
	[REFRESH_MOVED] = "moved",
};

static const char *const cause_names[REFRESH_CAUSE_MAX] = {
	[REFRESH_CAUSE_RESULT] = "changes result",
	[REFRESH_CAUSE_MOVED] = "moved",
	[REFRESH_CAUSE_GONE] = "gone",
	[REFRESH_CAUSE_DEFAULT] = "default",
	[REFRESH_CAUSE_SELECTED] = "selected",
	[REFRESH_CAUSE_IMPLIED] = "implied",
	[REFRESH_CAUSE_DEPENDS] = "depends",
	[REFRESH_CAUSE_NOPROMPT] = "noprompt",
	[REFRESH_CAUSE_CHOICE] = "choice",
	[REFRESH_CAUSE_UNEXPLAINED] = "unexplained",
};

const char *refresh_change_name(enum refresh_change c)
{
	return (unsigned)c < REFRESH_CHANGE_MAX ? change_names[c] : "?";
}

const char *refresh_cause_name(enum refresh_cause c)
{
	return (unsigned)c < REFRESH_CAUSE_MAX ? cause_names[c] : "?";
}

/* ------------------------------------------------------------ values */

static bool is_tri(const struct kconfig_option *o)
{
	return o->kind == KCONFIG_NO || o->kind == KCONFIG_YES ||
	       o->kind == KCONFIG_MODULE;
}

/* Equal final values; an absent option equals an "n" one. */
static bool final_equal(const struct kconfig_option *a,
			const struct kconfig_option *b)
{
	if (!a && !b)
		return true;
	if (!a)
		return b->kind == KCONFIG_NO;
	if (!b)
		return a->kind == KCONFIG_NO;
	return kconfig_value_equal(a, b);
}

void refresh_format_value(struct strbuf *sb, const struct kconfig_option *o)
{
	if (!o)
		strbuf_addstr(sb, "n");
	else
		kconfig_format_value(sb, o);
}

/* A diff's values, "y -> n"; an absent int/string is "(unset)". */
static void format_change(struct strbuf *sb, const struct refresh_diff *d)
{
	const struct kconfig_option *o = d->old ? d->old : d->new;
	bool tri = o && is_tri(o);

	if (d->old || tri)
		refresh_format_value(sb, d->old);
	else
		strbuf_addstr(sb, "(unset)");
	strbuf_addstr(sb, " -> ");
	if (d->new || tri)
		refresh_format_value(sb, d->new);
	else
		strbuf_addstr(sb, "(unset)");
}

/* ------------------------------------------------------------ names */

struct name_ix {
	const char *name;
	size_t ix;
};

static int cmp_name_ix(const void *a, const void *b)
{
	return strcmp(((const struct name_ix *)a)->name,
		      ((const struct name_ix *)b)->name);
}

/* Sorted (name, index) pairs for lookups by name. */
struct index {
	struct name_ix *v;
	size_t n;
};

static void index_add(struct index *x, const char *name, size_t ix)
{
	x->v = xreallocarray(x->v, x->n + 1, sizeof(*x->v));
	x->v[x->n].name = name;
	x->v[x->n].ix = ix;
	x->n++;
}

static void index_sort(struct index *x)
{
	if (x->n)
		qsort(x->v, x->n, sizeof(*x->v), cmp_name_ix);
}

/* The index stored for name, or (size_t)-1. */
static size_t index_find(const struct index *x, const char *name)
{
	struct name_ix key = { name, 0 };
	const struct name_ix *hit;

	if (!x->n)
		return (size_t)-1;
	hit = bsearch(&key, x->v, x->n, sizeof(*x->v), cmp_name_ix);
	return hit ? hit->ix : (size_t)-1;
}

/* ------------------------------------------------------------ compare */

struct builder {
	struct refresh_result *r;
	size_t alloc_lines, alloc_diffs;
};

static struct refresh_line *add_line(struct builder *b, enum refresh_change c,
				     const struct kconfig_option *old,
				     const struct kconfig_option *new)
{
	struct refresh_result *r = b->r;
	struct refresh_line *l;

	if (r->n_lines == b->alloc_lines) {
		b->alloc_lines = b->alloc_lines ? 2 * b->alloc_lines : 16;
		r->lines = xreallocarray(r->lines, b->alloc_lines,
					 sizeof(*r->lines));
	}
	l = &r->lines[r->n_lines++];
	memset(l, 0, sizeof(*l));
	l->change = c;
	l->name = old ? old->name : new->name;
	l->old = old;
	l->new = new;
	l->cause = c == REFRESH_MOVED ? REFRESH_CAUSE_MOVED
				      : REFRESH_CAUSE_UNEXPLAINED;
	return l;
}

static void add_diff(struct builder *b, const struct kconfig_option *old,
		     const struct kconfig_option *new)
{
	struct refresh_result *r = b->r;
	struct refresh_diff *d;

	if (r->n_diffs == b->alloc_diffs) {
		b->alloc_diffs = b->alloc_diffs ? 2 * b->alloc_diffs : 16;
		r->diffs = xreallocarray(r->diffs, b->alloc_diffs,
					 sizeof(*r->diffs));
	}
	d = &r->diffs[r->n_diffs++];
	memset(d, 0, sizeof(*d));
	d->name = old ? old->name : new->name;
	d->old = old;
	d->new = new;
}

static void compare_finals(struct builder *b, const struct kconfig *old_final,
			   const struct kconfig *new_final)
{
	size_t n = kconfig_count(new_final), m = kconfig_count(old_final);

	for (size_t i = 0; i < n; i++) {
		const struct kconfig_option *nw = kconfig_at(new_final, i);
		const struct kconfig_option *ol = kconfig_find(old_final,
							       nw->name);

		if (!final_equal(ol, nw))
			add_diff(b, ol, nw);
	}
	for (size_t i = 0; i < m; i++) {
		const struct kconfig_option *ol = kconfig_at(old_final, i);

		if (!kconfig_find(new_final, ol->name) && !final_equal(ol, NULL))
			add_diff(b, ol, NULL);
	}
}

/*
 * Which of the lines both files have with the same value stay in place:
 * each symbol is in a set once, so the longest common subsequence of the
 * two orders is the longest increasing run of new positions taken in the
 * old order (patience sorting, n log n).  keep[i] is set for the i-th
 * entry of pos[] that stays.
 */
static void longest_increasing(const size_t *pos, size_t n, bool *keep)
{
	size_t *tails = xcalloc(n + 1, sizeof(size_t));	/* entry indexes */
	size_t *prev = xcalloc(n + 1, sizeof(size_t));
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = len;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (pos[tails[mid]] < pos[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tails[lo - 1] : (size_t)-1;
		tails[lo] = i;
		if (lo == len)
			len++;
	}
	if (len)
		for (size_t i = tails[len - 1]; i != (size_t)-1; i = prev[i])
			keep[i] = true;
	free(tails);
	free(prev);
}

static void compare_lines(struct builder *b, const struct kconfig *old_def,
			  const struct kconfig *new_def)
{
	size_t n_old = kconfig_count(old_def), n_new = kconfig_count(new_def);
	struct index new_pos = { NULL, 0 };
	size_t *pos = xcalloc(n_old + 1, sizeof(size_t));
	size_t *which = xcalloc(n_old + 1, sizeof(size_t));
	bool *keep = xcalloc(n_old + 1, sizeof(bool));
	size_t n_same = 0, s = 0;

	for (size_t j = 0; j < n_new; j++)
		index_add(&new_pos, kconfig_at(new_def, j)->name, j);
	index_sort(&new_pos);
	for (size_t i = 0; i < n_old; i++) {
		const struct kconfig_option *o = kconfig_at(old_def, i);
		const struct kconfig_option *nw = kconfig_find(new_def, o->name);

		if (nw && kconfig_value_equal(o, nw)) {
			pos[n_same] = index_find(&new_pos, o->name);
			which[n_same++] = i;
		}
	}
	longest_increasing(pos, n_same, keep);
	for (size_t i = 0; i < n_old; i++) {
		const struct kconfig_option *o = kconfig_at(old_def, i);
		const struct kconfig_option *nw = kconfig_find(new_def, o->name);

		if (s < n_same && which[s] == i) {
			if (!keep[s])
				add_line(b, REFRESH_MOVED, o, nw);
			s++;
		} else if (!nw)
			add_line(b, REFRESH_REMOVED, o, NULL);
		else
			add_line(b, REFRESH_CHANGED, o, nw);
	}
	for (size_t j = 0; j < n_new; j++) {
		const struct kconfig_option *nw = kconfig_at(new_def, j);

		if (!kconfig_find(old_def, nw->name))
			add_line(b, REFRESH_ADDED, NULL, nw);
	}
	free(new_pos.v);
	free(pos);
	free(which);
	free(keep);
}

int refresh_compare(const struct kconfig *old_def, const struct kconfig *new_def,
		    const struct kconfig *old_final,
		    const struct kconfig *new_final,
		    struct refresh_result **ret)
{
	struct builder b = { .r = NULL };

	if (!old_def || !new_def || !old_final || !new_final || !ret)
		return -EINVAL;
	b.r = xcalloc(1, sizeof(*b.r));
	compare_finals(&b, old_final, new_final);
	compare_lines(&b, old_def, new_def);
	for (size_t i = 0; i < b.r->n_lines; i++)
		if (b.r->lines[i].change == REFRESH_MOVED)
			b.r->lines[i].reason = xstrdup(
				"only moved (same line, other position)");
	*ret = b.r;
	return 0;
}

size_t refresh_queries(const struct refresh_result *r, struct strbuf *sb)
{
	struct index seen = { NULL, 0 };
	size_t n = 0;

	/* Few names: a linear look-up keeps the order simple. */
	for (size_t i = 0; i < r->n_lines + r->n_diffs; i++) {
		const char *name;
		bool dup = false;

		if (i < r->n_lines) {
			if (r->lines[i].change == REFRESH_MOVED)
				continue;
			name = r->lines[i].name;
		} else
			name = r->diffs[i - r->n_lines].name;
		for (size_t k = 0; k < seen.n && !dup; k++)
			dup = !strcmp(seen.v[k].name, name);
		if (dup)
			continue;
		index_add(&seen, name, n);
		explain_query_why(sb, name);
		n++;
	}
	free(seen.v);
	return n;
}

/* ------------------------------------------------------------ classify */

static int tri_rank(const char *v)
{
	if (!v)
		return 0;
	if (!strcmp(v, "y"))
		return 2;
	if (!strcmp(v, "m"))
		return 1;
	return 0;
}

static bool type_is_tri(const struct explain_symbol *s)
{
	return !strcmp(s->type, "bool") || !strcmp(s->type, "tristate");
}

static void add_symbol(struct refresh_line *l, const char *name)
{
	for (size_t i = 0; i < l->n_symbols; i++)
		if (!strcmp(l->symbols[i], name))
			return;
	l->symbols = xreallocarray(l->symbols, l->n_symbols + 1,
				   sizeof(char *));
	l->symbols[l->n_symbols++] = xstrdup(name);
}

/* " (A=n B=n)": the terms of a dependency that are off, named. */
static void add_off_terms(struct strbuf *sb, struct refresh_line *l,
			  const struct explain_rule *rule)
{
	bool first = true;

	for (size_t i = 0; i < rule->n_terms; i++) {
		const struct explain_term *t = &rule->terms[i];

		if (strcmp(t->value, "n") && strcmp(t->type, "unknown"))
			continue;
		strbuf_addf(sb, "%s%s=%s%s", first ? " (" : " ", t->name,
			    t->value,
			    strcmp(t->type, "unknown") ? "" : " undefined");
		add_symbol(l, t->name);
		first = false;
	}
	if (!first)
		strbuf_addch(sb, ')');
}

static const struct explain_rule *find_rule(const struct explain_symbol *s,
					    enum explain_rule_kind k)
{
	for (size_t i = 0; i < s->n_rules; i++)
		if (s->rules[i].kind == k)
			return &s->rules[i];
	return NULL;
}

/* The default Kconfig takes: the first whose condition is not n. */
static const struct explain_rule *active_default(const struct explain_symbol *s)
{
	for (size_t i = 0; i < s->n_rules; i++)
		if (s->rules[i].kind == EXPLAIN_RULE_DEFAULT &&
		    s->rules[i].cond && strcmp(s->rules[i].cond, "n"))
			return &s->rules[i];
	return NULL;
}

static void set(struct refresh_line *l, enum refresh_cause c,
		struct strbuf *text)
{
	l->cause = c;
	free(l->reason);
	l->reason = strbuf_detach(text, NULL);
}

/* The dependency that is off: "depends on" first, then the prompts. */
static bool explain_off(struct refresh_line *l, const struct explain_symbol *s,
			struct strbuf *t)
{
	const struct explain_rule *dep = find_rule(s, EXPLAIN_RULE_DEPENDS);
	const struct explain_rule *prompt = NULL;
	bool any_prompt = false, all_off = true;

	if (dep && !strcmp(dep->value, "n")) {
		strbuf_addf(t, "depends on something off: depends on %s",
			    dep->expr);
		add_off_terms(t, l, dep);
		set(l, REFRESH_CAUSE_DEPENDS, t);
		return true;
	}
	for (size_t i = 0; i < s->n_rules; i++) {
		if (s->rules[i].kind != EXPLAIN_RULE_PROMPT)
			continue;
		any_prompt = true;
		prompt = &s->rules[i];
		if (strcmp(s->rules[i].value, "n"))
			all_off = false;
	}
	if (any_prompt && all_off) {
		strbuf_addf(t, "depends on something off: prompt only if %s",
			    prompt->expr);
		add_off_terms(t, l, prompt);
		set(l, REFRESH_CAUSE_DEPENDS, t);
		return true;
	}
	return false;
}

/* "selected by A, B" / "implied by A": the rules giving at least want. */
static bool explain_forced(struct refresh_line *l,
			   const struct explain_symbol *s,
			   enum explain_rule_kind k, int want,
			   struct strbuf *t)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_rules; i++) {
		const struct explain_rule *r = &s->rules[i];

		if (r->kind != k || tri_rank(r->value) < want || !r->symbol)
			continue;
		strbuf_addf(t, "%s%s", n ? ", " : k == EXPLAIN_RULE_SELECT
							? "selected by "
							: "implied by ",
			    r->symbol);
		add_symbol(l, r->symbol);
		n++;
	}
	if (!n)
		return false;
	set(l, k == EXPLAIN_RULE_SELECT ? REFRESH_CAUSE_SELECTED
					: REFRESH_CAUSE_IMPLIED, t);
	return true;
}

static bool is_word_char(char c)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9');
}

/* Whether expr names the symbol name (a whole word of it). */
static bool expr_names(const char *expr, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = expr; (p = strstr(p, name)); p++)
		if ((p == expr || !is_word_char(p[-1])) && !is_word_char(p[n]))
			return true;
	return false;
}

/* The symbols of the default's own expression (not of its condition). */
static void add_default_terms(struct refresh_line *l,
			      const struct explain_rule *def)
{
	for (size_t i = 0; i < def->n_terms; i++)
		if (expr_names(def->expr, def->terms[i].name))
			add_symbol(l, def->terms[i].name);
}

static bool explain_default(struct refresh_line *l,
			    const struct explain_symbol *s, const char *value,
			    struct strbuf *t)
{
	const struct explain_rule *def = active_default(s);
	bool tri = type_is_tri(s);

	if (!def) {
		if (!tri || tri_rank(value))
			return false;
		strbuf_addstr(t, "the default gives the same value: n (no "
				 "default applies)");
		set(l, REFRESH_CAUSE_DEFAULT, t);
		return true;
	}
	if (tri ? tri_rank(def->value) != tri_rank(value)
		: strcmp(def->value, value))
		return false;
	strbuf_addf(t, "the default gives the same value: %s (default %s",
		    def->value, def->expr);
	if (strcmp(def->cond_expr, "y"))
		strbuf_addf(t, " if %s", def->cond_expr);
	strbuf_addch(t, ')');
	add_default_terms(l, def);
	set(l, REFRESH_CAUSE_DEFAULT, t);
	return true;
}

static bool explain_choice(struct refresh_line *l,
			   const struct explain_symbol *s, struct strbuf *t)
{
	const struct explain_rule *c = find_rule(s, EXPLAIN_RULE_CHOICE);

	if (!c)
		return false;
	strbuf_addf(t, "the choice picks the same member: %s",
		    c->symbol ? c->symbol : "none");
	if (c->symbol && c->choice_default &&
	    !strcmp(c->symbol, c->choice_default))
		strbuf_addstr(t, " (its default)");
	if (c->symbol)
		add_symbol(l, c->symbol);
	set(l, REFRESH_CAUSE_CHOICE, t);
	return true;
}

/*
 * Why the symbol has its value without the line that differs: s is the
 * answer for the side whose line does not decide (removed: the new side;
 * added: the old; changed: the side whose line's value did not hold).
 */
static void explain_no_effect(struct refresh_line *l,
			      const struct explain_symbol *s)
{
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;
	bool tri;
	const char *value;

	if (!s) {
		strbuf_addstr(&t, "no effect; Kconfig was not asked why");
		set(l, REFRESH_CAUSE_UNEXPLAINED, &t);
		return;
	}
	if (!strcmp(s->type, "unknown")) {
		strbuf_addf(&t, "symbol gone from this tree: no config %s in "
				"its Kconfig files",
			    l->name);
		set(l, REFRESH_CAUSE_GONE, &t);
		return;
	}
	tri = type_is_tri(s);
	value = s->final ? s->final : tri ? "n" : "";
	if ((!tri || !tri_rank(value)) && explain_off(l, s, &t))
		return;
	if (tri && tri_rank(value) &&
	    (explain_forced(l, s, EXPLAIN_RULE_SELECT, tri_rank(value), &t) ||
	     explain_forced(l, s, EXPLAIN_RULE_IMPLY, tri_rank(value), &t)))
		return;
	if (explain_choice(l, s, &t) || explain_default(l, s, value, &t))
		return;
	if (!find_rule(s, EXPLAIN_RULE_PROMPT)) {
		strbuf_addstr(&t, "no prompt: a line cannot set it, only its "
				  "defaults and selects do");
		set(l, REFRESH_CAUSE_NOPROMPT, &t);
		return;
	}
	strbuf_addf(&t, "no effect, but Kconfig's rules name no reason for "
			"%s=%s", l->name, value);
	set(l, REFRESH_CAUSE_UNEXPLAINED, &t);
}

static const struct explain_symbol *answer(const struct explain_result *r,
					   const char *name)
{
	return r ? explain_find(r, name) : NULL;
}

/* The side whose answer says why a line without effect had none. */
static const struct explain_symbol *
no_effect_side(const struct refresh_line *l, const struct explain_result *o,
	       const struct explain_result *n)
{
	const struct explain_symbol *s;

	switch (l->change) {
	case REFRESH_ADDED:
		return answer(o, l->name);
	case REFRESH_CHANGED:
		/* The new line did not hold, or (it holds) the old one did
		 * not. */
		s = answer(n, l->name);
		if (s && s->final && !strcmp(s->final, l->new->value))
			return answer(o, l->name);
		return s;
	default:
		return answer(n, l->name);
	}
}

static void diff_add_line(struct refresh_result *r, size_t d, size_t l)
{
	struct refresh_diff *df = &r->diffs[d];
	struct refresh_line *ln = &r->lines[l];

	for (size_t i = 0; i < df->n_lines; i++)
		if (df->lines[i] == l)
			return;
	df->lines = xreallocarray(df->lines, df->n_lines + 1, sizeof(size_t));
	df->lines[df->n_lines++] = l;
	ln->changes = xreallocarray(ln->changes, ln->n_changes + 1,
				    sizeof(size_t));
	ln->changes[ln->n_changes++] = d;
}

struct graph {
	struct refresh_result *r;
	const struct explain_result *o, *n;
	struct index diff_ix;	/* name -> diff */
	struct index line_ix;	/* name -> line (not moved) */
};

/* Each term of each rule of name that is itself a changed option, given
 * to fn (stops when fn returns true). */
static void each_changed_term(struct graph *g, const char *name,
			      bool (*fn)(struct graph *, size_t diff,
					 enum explain_rule_kind, void *),
			      void *data)
{
	const struct explain_symbol *side[2] = { answer(g->n, name),
						 answer(g->o, name) };

	for (size_t k = 0; k < 2; k++) {
		if (!side[k])
			continue;
		for (size_t i = 0; i < side[k]->n_rules; i++) {
			const struct explain_rule *ru = &side[k]->rules[i];

			for (size_t j = 0; j < ru->n_terms; j++) {
				size_t d = index_find(&g->diff_ix,
						      ru->terms[j].name);

				if (d != (size_t)-1 && strcmp(ru->terms[j].name, name) &&
				    fn(g, d, ru->kind, data))
					return;
			}
		}
	}
}

struct walk {
	size_t origin;		/* the diff being explained */
	bool *seen;		/* per diff */
	size_t *queue;
	size_t n_queue;
	bool first_hop;
};

static bool visit(struct graph *g, size_t d, enum explain_rule_kind kind,
		  void *data)
{
	struct walk *w = data;
	struct refresh_diff *o = &g->r->diffs[w->origin];
	size_t l;

	if (w->first_hop && !o->via) {
		o->via = g->r->diffs[d].name;
		o->via_rule = kind;
	}
	if (w->seen[d])
		return false;
	w->seen[d] = true;
	l = index_find(&g->line_ix, g->r->diffs[d].name);
	if (l != (size_t)-1)
		diff_add_line(g->r, w->origin, l);
	else
		w->queue[w->n_queue++] = d;
	return false;
}

/* A changed option without a line of its own: the changed lines its rules
 * lead to through other changed options. */
static void attribute(struct graph *g, size_t d)
{
	struct refresh_result *r = g->r;
	struct walk w = { .origin = d };

	w.seen = xcalloc(r->n_diffs, sizeof(bool));
	w.queue = xcalloc(r->n_diffs, sizeof(size_t));
	w.seen[d] = true;
	w.first_hop = true;
	each_changed_term(g, r->diffs[d].name, visit, &w);
	w.first_hop = false;
	for (size_t q = 0; q < w.n_queue; q++)
		each_changed_term(g, r->diffs[w.queue[q]].name, visit, &w);
	free(w.seen);
	free(w.queue);
}

static void result_text(struct refresh_result *r, struct refresh_line *l)
{
	_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

	strbuf_addstr(&t, "changes the result: ");
	for (size_t i = 0; i < l->n_changes; i++) {
		const struct refresh_diff *d = &r->diffs[l->changes[i]];

		if (i)
			strbuf_addstr(&t, ", ");
		if (strcmp(d->name, l->name))
			strbuf_addstr(&t, "knock-on ");
		strbuf_addf(&t, "%s ", d->name);
		format_change(&t, d);
		if (d->via && strcmp(d->name, l->name))
			strbuf_addf(&t, " (%s %s)",
				    explain_rule_kind_name(d->via_rule),
				    d->via);
	}
	set(l, REFRESH_CAUSE_RESULT, &t);
}

void refresh_classify(struct refresh_result *r,
		      const struct explain_result *why_old,
		      const struct explain_result *why_new)
{
	struct graph g = { .r = r, .o = why_old, .n = why_new };
	bool answers = why_old && why_new;

	r->classified = answers;
	for (size_t i = 0; i < r->n_diffs; i++)
		index_add(&g.diff_ix, r->diffs[i].name, i);
	index_sort(&g.diff_ix);
	for (size_t i = 0; i < r->n_lines; i++)
		if (r->lines[i].change != REFRESH_MOVED)
			index_add(&g.line_ix, r->lines[i].name, i);
	index_sort(&g.line_ix);

	/* Lines whose own option changed, then the knock-on changes. */
	for (size_t i = 0; i < r->n_diffs; i++) {
		size_t l = index_find(&g.line_ix, r->diffs[i].name);

		if (l != (size_t)-1)
			diff_add_line(r, i, l);
	}
	for (size_t i = 0; answers && i < r->n_diffs; i++)
		if (!r->diffs[i].n_lines)
			attribute(&g, i);
	for (size_t i = 0; i < r->n_lines; i++) {
		struct refresh_line *l = &r->lines[i];

		if (l->change == REFRESH_MOVED)
			continue;
		if (l->n_changes) {
			l->effect = true;
			r->n_effect++;
			result_text(r, l);
		} else if (answers)
			explain_no_effect(l, no_effect_side(l, why_old,
							    why_new));
		else {
			_cleanup_strbuf_ struct strbuf t = STRBUF_INIT;

			strbuf_addstr(&t, "no effect; Kconfig could not be "
					  "asked why");
			set(l, REFRESH_CAUSE_UNEXPLAINED, &t);
		}
	}
	for (size_t i = 0; i < r->n_diffs; i++)
		r->n_unexplained_diffs += !r->diffs[i].n_lines;
	free(g.diff_ix.v);
	free(g.line_ix.v);
}

void refresh_result_free(struct refresh_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_lines; i++) {
		struct refresh_line *l = &r->lines[i];

		free(l->reason);
		for (size_t k = 0; k < l->n_symbols; k++)
			free(l->symbols[k]);
		free(l->symbols);
		free(l->changes);
	}
	free(r->lines);
	for (size_t i = 0; i < r->n_diffs; i++)
		free(r->diffs[i].lines);
	free(r->diffs);
	free(r);
}
