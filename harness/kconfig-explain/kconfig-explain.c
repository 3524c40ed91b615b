// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bp-kconfig-explain: ask a kernel tree's own Kconfig why a requested option
 * did not survive into a .config.
 *
 * Not built by bootproof's GNUmakefile.  bootproof compiles this file at run
 * time against the scripts/kconfig objects of a configured kernel tree (they
 * exist in O=.../scripts/kconfig/ after any config target) and the tree's
 * headers, so the dependency evaluation is exactly the tree's:
 *
 *   cc -I$srctree/scripts/kconfig -I$srctree/scripts/include \
 *      -o bp-kconfig-explain kconfig-explain.c $O/scripts/kconfig/{common objs}
 *
 * Usage: bp-kconfig-explain KCONFIG DOTCONFIG < queries
 *
 * Run it with the environment Kconfig saw when the .config was made (the
 * variables recorded in include/config/auto.conf.cmd, plus srctree), or the
 * $(shell,...) symbols such as CC_CAN_LINK evaluate differently.
 *
 * Queries, one per line, fields separated by a tab:
 *	explain	NAME	VALUE	why is NAME's final value not VALUE?
 *	exists	NAME		is NAME a symbol of this tree?
 *	why	NAME		every rule that can set NAME's value
 * VALUE is y, m, n, a number, or a string's contents (unquoted).
 *
 * Output, one record per line, fields separated by a tab (a tab, newline or
 * backslash inside a field is written \t, \n, \\):
 *	bp-kconfig-explain	2
 *	symbol	NAME	TYPE	FINAL	DEFINED
 *		TYPE: unknown bool tristate int hex string
 *		FINAL: the value now, "-" when the symbol is not written
 *		DEFINED: file:line of its first definition, "" when unknown
 *	reason	unknown
 *	reason	depends	SOURCE	VALUE	EXPR	(SOURCE: depends | prompt)
 *	reason	module	SOURCE	VALUE	EXPR	(the expression is only m)
 *	reason	select	SELECTOR	VALUE	EXPR	(one line per active select)
 *	reason	range	LOW	HIGH
 *	reason	noprompt	TEXT
 *	reason	choice	CHOSEN	TEXT	(CHOSEN "" when none)
 *	reason	nomodules
 *	reason	invalid	TEXT
 *	reason	other	TEXT
 *	rule	depends	VALUE	EXPR	(why: "depends on", menus and ifs included)
 *	rule	prompt	VALUE	EXPR	(why: one per prompt, its visibility)
 *	rule	default	VALUE	COND	EXPR	CONDEXPR
 *		(why: every default in order; VALUE what it gives, for a
 *		bool/tristate already limited by COND, the value of its
 *		condition CONDEXPR, "y" when it has none)
 *	rule	select	SELECTOR	VALUE	EXPR	(why: every select of NAME)
 *	rule	imply	IMPLIER	VALUE	EXPR	(why: every imply of NAME)
 *	rule	choice	CHOSEN	DEFAULT	(why: NAME is a member of a choice;
 *		its terms are the members; "" when none chosen / no default)
 *	term	NAME	VALUE	TYPE	(a symbol of the preceding reason's or
 *		rule's expressions)
 *	end
 * Every query gives one symbol ... end block, in query order.  Version 2
 * added the why query and its rule records; the rest is as in version 1.
 * Exit: 0, 2 bad usage or query, 3 the Kconfig or .config could not be read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <list.h>

#include "lkc.h"

/* The output format's version (core/explain.h EXPLAIN_PROTOCOL_VERSION). */
#define EXPLAIN_VERSION "2"

/* ------------------------------------------------------------ output */

static void put_field(const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '\t':
			fputs("\\t", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		default:
			putchar(*s);
		}
	}
}

/* Print a record: the fields, tab-separated, escaped, then a newline. */
static void record(const char *first, ...)
{
	va_list ap;
	const char *f;

	put_field(first);
	va_start(ap, first);
	while ((f = va_arg(ap, const char *))) {
		putchar('\t');
		put_field(f);
	}
	va_end(ap);
	putchar('\n');
}

/* ------------------------------------------------------------ strings */

struct buf {
	char *s;
	size_t len, alloc;
};

static void buf_add(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n + 1 > b->alloc) {
		b->alloc = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->alloc);
		if (!b->s) {
			perror("bp-kconfig-explain");
			exit(3);
		}
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* A decimal or 0x-prefixed hex number, as Kconfig writes ranges. */
static bool is_number(const char *s)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (hex)
		s += 2;
	else if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') ||
		      (hex && ((*s >= 'a' && *s <= 'f') ||
			       (*s >= 'A' && *s <= 'F')))))
			return false;
	return true;
}

/* expr_print() callback; constant strings ("i386") are quoted as in the
 * Kconfig source, so that they cannot be taken for symbol names. */
static void expr_to_buf(void *data, struct symbol *sym, const char *str)
{
	bool quote = sym && (sym->flags & SYMBOL_CONST) && sym != &symbol_yes &&
		     sym != &symbol_mod && sym != &symbol_no && !is_number(str);

	if (quote)
		buf_add(data, "\"");
	buf_add(data, str);
	if (quote)
		buf_add(data, "\"");
}

/* The expression as the kernel prints it ("y" for none); caller frees. */
static char *expr_str(const struct expr *e)
{
	struct buf b = { 0 };

	buf_add(&b, "");
	expr_print(e, expr_to_buf, &b, E_NONE);
	return b.s;
}

static const char *tri_str(tristate t)
{
	return t == yes ? "y" : t == mod ? "m" : "n";
}

static const char *type_str(const struct symbol *sym)
{
	switch (sym->type) {
	case S_BOOLEAN:
		return "bool";
	case S_TRISTATE:
		return "tristate";
	case S_INT:
		return "int";
	case S_HEX:
		return "hex";
	case S_STRING:
		return "string";
	default:
		return "unknown";
	}
}

static bool sym_is_defined(const struct symbol *sym)
{
	return sym && sym->type != S_UNKNOWN && !list_empty(&sym->menus);
}

static const char *sym_value(struct symbol *sym)
{
	sym_calc_value(sym);
	return sym_get_string_value(sym);
}

/* ------------------------------------------------------------ terms */

#define MAX_TERMS 128

struct terms {
	struct symbol *sym[MAX_TERMS];
	size_t n;
};

static void terms_add(struct terms *t, struct symbol *sym)
{
	if (!sym || !sym->name || (sym->flags & SYMBOL_CONST))
		return;
	/* "default 2048": Kconfig keeps the number as an undefined symbol */
	if (!sym_is_defined(sym) && is_number(sym->name))
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->sym[i] == sym)
			return;
	if (t->n < MAX_TERMS)
		t->sym[t->n++] = sym;
}

static void terms_collect(struct terms *t, const struct expr *e)
{
	if (!e)
		return;
	switch (e->type) {
	case E_OR:
	case E_AND:
		terms_collect(t, e->left.expr);
		terms_collect(t, e->right.expr);
		break;
	case E_NOT:
		terms_collect(t, e->left.expr);
		break;
	case E_SYMBOL:
		terms_add(t, e->left.sym);
		break;
	case E_EQUAL:
	case E_UNEQUAL:
	case E_LTH:
	case E_LEQ:
	case E_GTH:
	case E_GEQ:
	case E_RANGE:
		terms_add(t, e->left.sym);
		terms_add(t, e->right.sym);
		break;
	default:
		break;
	}
}

static void print_terms2(const struct expr *e, const struct expr *e2)
{
	struct terms t = { .n = 0 };

	terms_collect(&t, e);
	terms_collect(&t, e2);
	for (size_t i = 0; i < t.n; i++) {
		struct symbol *s = t.sym[i];

		if (!sym_is_defined(s))
			record("term", s->name, "n", "unknown", NULL);
		else
			record("term", s->name, sym_value(s), type_str(s), NULL);
	}
}

static void print_terms(const struct expr *e)
{
	print_terms2(e, NULL);
}

/* reason KIND SOURCE VALUE EXPR, then its terms. */
static void reason_expr(const char *kind, const char *source, struct expr *e)
{
	char *s = expr_str(e);

	record("reason", kind, source, tri_str(expr_calc_value(e)), s, NULL);
	free(s);
	print_terms(e);
}

/* ------------------------------------------------------------ analysis */

static bool sym_has_prompt(const struct symbol *sym)
{
	struct property *prop;

	for_all_prompts(sym, prop)
		return true;
	return false;
}

/* The visibility of the symbol's prompts as one expression. */
static struct expr *prompt_expr(const struct symbol *sym)
{
	struct property *prop;
	struct expr *e = NULL;
	int n = 0;

	for_all_prompts(sym, prop) {
		e = n ? expr_alloc_or(e, prop->visible.expr) : prop->visible.expr;
		n++;
	}
	return e;
}

/*
 * Why is the value lower than wanted (want > have)?  The first limit that
 * applies: no prompt, the symbol's dependencies, its prompt's condition.
 */
static void explain_too_low(struct symbol *sym, tristate want)
{
	struct menu *choice = sym_get_choice_menu(sym);

	if (!sym_has_prompt(sym)) {
		record("reason", "noprompt",
		       "no prompt: not user-settable, its value comes only from "
		       "its defaults and from select",
		       NULL);
		return;
	}
	if (sym->dir_dep.expr && sym->dir_dep.tri < want) {
		reason_expr(sym->dir_dep.tri == mod ? "module" : "depends",
			    "depends", sym->dir_dep.expr);
		return;
	}
	if (sym->visible < want) {
		reason_expr(sym->visible == mod ? "module" : "depends",
			    "prompt", prompt_expr(sym));
		return;
	}
	if (want == mod && sym->type == S_TRISTATE && modules_sym &&
	    sym_get_tristate_value(modules_sym) == no) {
		record("reason", "nomodules", NULL);
		return;
	}
	if (choice) {
		struct menu *m;
		const char *chosen = "";

		menu_for_each_sub_entry(m, choice)
			if (m->sym && m->sym != sym &&
			    sym_get_tristate_value(m->sym) == yes)
				chosen = m->sym->name;
		record("reason", "choice", chosen,
		       "another member of the choice was chosen", NULL);
		return;
	}
	record("reason", "other", "the symbol is visible but kept its value",
	       NULL);
}

static tristate term_value(struct expr *e)
{
	return expr_calc_value(e);
}

/* The symbol a rev_dep term "SELECTOR && condition" starts with. */
static struct symbol *term_selector(struct expr *e)
{
	while (e && e->type == E_AND)
		e = e->left.expr;
	return e && e->type == E_SYMBOL ? e->left.sym : NULL;
}

static int print_selectors(struct expr *e, tristate want)
{
	int n = 0;

	if (!e)
		return 0;
	if (e->type == E_OR)
		return print_selectors(e->left.expr, want) +
		       print_selectors(e->right.expr, want);
	if (term_value(e) > want) {
		struct symbol *s = term_selector(e);
		char *str = expr_str(e);

		record("reason", "select", s && s->name ? s->name : "?",
		       s ? sym_value(s) : "?", str, NULL);
		free(str);
		print_terms(e);
		n++;
	}
	return n;
}

/* Why is the value higher than wanted (want < have)? */
static void explain_too_high(struct symbol *sym, tristate want, tristate have)
{
	struct menu *choice = sym_get_choice_menu(sym);

	if (sym->rev_dep.tri > want && print_selectors(sym->rev_dep.expr, want))
		return;
	if (want == mod && have == yes && sym->type == S_TRISTATE &&
	    modules_sym && sym_get_tristate_value(modules_sym) == no) {
		record("reason", "nomodules", NULL);
		return;
	}
	if (!sym_has_prompt(sym)) {
		record("reason", "noprompt",
		       "no prompt: not user-settable, its value comes only from "
		       "its defaults and from select",
		       NULL);
		return;
	}
	if (sym->visible == no) {
		reason_expr("depends", "prompt", prompt_expr(sym));
		return;
	}
	if (choice) {
		record("reason", "choice", "",
		       "no other member of the choice is set, so this one stays",
		       NULL);
		return;
	}
	record("reason", "other", "the symbol is visible but kept its value",
	       NULL);
}

static struct property *range_prop(struct symbol *sym)
{
	struct property *prop;

	for_all_properties(sym, prop, P_RANGE) {
		prop->visible.tri = expr_calc_value(prop->visible.expr);
		if (prop->visible.tri != no)
			return prop;
	}
	return NULL;
}

static const char *range_end(struct symbol *s)
{
	if (s->flags & SYMBOL_CONST)
		return s->name;
	return sym_value(s);
}

static void explain_value(struct symbol *sym, const char *want)
{
	struct property *range;

	if (sym->visible == no) {
		if (!sym_has_prompt(sym))
			record("reason", "noprompt",
			       "no prompt: not user-settable, its value comes "
			       "only from its defaults",
			       NULL);
		else if (sym->dir_dep.expr && sym->dir_dep.tri == no)
			reason_expr("depends", "depends", sym->dir_dep.expr);
		else
			reason_expr("depends", "prompt", prompt_expr(sym));
		return;
	}
	if (!sym_string_valid(sym, want)) {
		record("reason", "invalid", "not a valid value for this type",
		       NULL);
		return;
	}
	range = range_prop(sym);
	if (range && !sym_string_within_range(sym, want)) {
		record("reason", "range", range_end(range->expr->left.sym),
		       range_end(range->expr->right.sym), NULL);
		return;
	}
	record("reason", "other", "the symbol is visible but kept its value",
	       NULL);
}

/* The "symbol" record of a query: name, type, final value, where it is
 * defined.  False (after an "unknown" record) when the tree has no such
 * symbol for this arch. */
static bool record_symbol(struct symbol *sym, const char *name)
{
	struct menu *m;
	char where[512] = "";
	const char *final;

	if (!sym || !sym_is_defined(sym)) {
		record("symbol", name, "unknown", "-", "", NULL);
		return false;
	}
	sym_calc_value(sym);
	list_for_each_entry(m, &sym->menus, link) {
		snprintf(where, sizeof(where), "%s:%d", m->filename, m->lineno);
		break;
	}
	final = (sym->flags & SYMBOL_WRITE) ? sym_get_string_value(sym) : "-";
	record("symbol", name, type_str(sym), final, where, NULL);
	return true;
}

static void explain(const char *name, const char *want, bool only_exists)
{
	struct symbol *sym = sym_find(name);
	tristate wt, have;

	if (!record_symbol(sym, name)) {
		if (!only_exists)
			record("reason", "unknown", NULL);
		record("end", NULL);
		return;
	}
	if (only_exists) {
		record("end", NULL);
		return;
	}

	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		if (!strcmp(want, "y"))
			wt = yes;
		else if (!strcmp(want, "m"))
			wt = mod;
		else if (!strcmp(want, "n"))
			wt = no;
		else {
			record("reason", "invalid",
			       "not y, m or n", NULL);
			break;
		}
		if (wt == mod && sym->type == S_BOOLEAN) {
			record("reason", "invalid",
			       "m is not a value of a bool symbol (the kernel "
			       "ignores the line)",
			       NULL);
			break;
		}
		have = sym_get_tristate_value(sym);
		if (wt > have)
			explain_too_low(sym, wt);
		else if (wt < have)
			explain_too_high(sym, wt, have);
		break;
	default:
		if (strcmp(want, sym_get_string_value(sym)) ||
		    !(sym->flags & SYMBOL_WRITE))
			explain_value(sym, want);
		break;
	}
	record("end", NULL);
}

/* ------------------------------------------------------------ why */

/* rule KIND NAME VALUE EXPR for each "SYM && cond" term of a select or
 * imply list (an OR of them), then its terms. */
static void rules_rev(const char *kind, struct expr *e)
{
	struct symbol *s;
	char *str;

	if (!e)
		return;
	if (e->type == E_OR) {
		rules_rev(kind, e->left.expr);
		rules_rev(kind, e->right.expr);
		return;
	}
	s = term_selector(e);
	str = expr_str(e);
	record("rule", kind, s && s->name ? s->name : "?",
	       tri_str(expr_calc_value(e)), str, NULL);
	free(str);
	print_terms(e);
}

/* What a default gives: for a bool/tristate its expression limited by its
 * condition (as sym_calc_value() takes it), else the value of the
 * default's symbol. */
static const char *default_value(struct symbol *sym, struct property *prop,
				 tristate cond)
{
	struct symbol *ds;

	if (sym->type == S_BOOLEAN || sym->type == S_TRISTATE) {
		tristate v = expr_calc_value(prop->expr);

		return tri_str(v < cond ? v : cond);
	}
	ds = prop_get_symbol(prop);
	if (!ds)
		return "";
	sym_calc_value(ds);
	return sym_get_string_value(ds);
}

static void rules_choice(struct symbol *sym)
{
	struct menu *choice = sym_get_choice_menu(sym);
	struct symbol *def, *chosen = NULL;
	struct terms t = { .n = 0 };
	struct menu *m;

	if (!choice)
		return;
	menu_for_each_sub_entry(m, choice)
		if (m->sym && m->sym->name) {
			terms_add(&t, m->sym);
			if (sym_get_tristate_value(m->sym) == yes)
				chosen = m->sym;
		}
	def = sym_choice_default(choice);
	record("rule", "choice", chosen ? chosen->name : "",
	       def && def->name ? def->name : "", NULL);
	for (size_t i = 0; i < t.n; i++)
		record("term", t.sym[i]->name, sym_value(t.sym[i]),
		       type_str(t.sym[i]), NULL);
}

/*
 * Every rule that can give sym its value, with the values Kconfig computed
 * for this .config: what a line of a defconfig for sym competes with.
 */
static void why(const char *name)
{
	struct symbol *sym = sym_find(name);
	struct property *prop;

	if (!record_symbol(sym, name)) {
		record("end", NULL);
		return;
	}
	if (sym->dir_dep.expr) {
		char *s = expr_str(sym->dir_dep.expr);

		record("rule", "depends", tri_str(sym->dir_dep.tri), s, NULL);
		free(s);
		print_terms(sym->dir_dep.expr);
	}
	for_all_prompts(sym, prop) {
		char *s = expr_str(prop->visible.expr);

		record("rule", "prompt",
		       tri_str(expr_calc_value(prop->visible.expr)), s, NULL);
		free(s);
		print_terms(prop->visible.expr);
	}
	for_all_defaults(sym, prop) {
		tristate cond = expr_calc_value(prop->visible.expr);
		char *e = expr_str(prop->expr);
		char *c = expr_str(prop->visible.expr);

		record("rule", "default", default_value(sym, prop, cond),
		       tri_str(cond), e, c, NULL);
		free(e);
		free(c);
		print_terms2(prop->expr, prop->visible.expr);
	}
	rules_rev("select", sym->rev_dep.expr);
	rules_rev("imply", sym->implied.expr);
	rules_choice(sym);
	record("end", NULL);
}

/* ------------------------------------------------------------ main */

static void to_stderr(const char *s)
{
	fputs(s, stderr);
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;

	if (argc != 3) {
		fputs("usage: bp-kconfig-explain KCONFIG DOTCONFIG < queries\n",
		      stderr);
		return 2;
	}
	/* Keep stdout for our records: kconfig's messages go to stderr. */
	conf_set_message_callback(to_stderr);
	conf_parse(argv[1]);
	if (conf_read(argv[2])) {
		fprintf(stderr, "bp-kconfig-explain: cannot read %s\n",
			argv[2]);
		return 3;
	}
	record("bp-kconfig-explain", EXPLAIN_VERSION, NULL);
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		char *f[3] = { NULL, NULL, NULL };
		char *p = line;
		int nf = 0;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!*line)
			continue;
		/* The last field (a string value) may itself hold tabs. */
		for (;;) {
			f[nf++] = p;
			if (nf == 3 || !(p = strchr(p, '\t')))
				break;
			*p++ = '\0';
		}
		if (nf == 3 && !strcmp(f[0], "explain"))
			explain(f[1], f[2], false);
		else if (nf == 2 && !strcmp(f[0], "exists"))
			explain(f[1], NULL, true);
		else if (nf == 2 && !strcmp(f[0], "why"))
			why(f[1]);
		else {
			fprintf(stderr,
				"bp-kconfig-explain: stdin:%u: expected "
				"'explain NAME VALUE', 'exists NAME' or "
				"'why NAME'\n",
				lineno);
			free(line);
			return 2;
		}
	}
	free(line);
	fflush(stdout);
	return ferror(stdout) ? 3 : 0;
}
