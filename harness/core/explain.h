/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain: why a requested kernel option did not survive (pure).
 *
 * The reasons come from the kernel tree's own Kconfig: the bp-kconfig-explain
 * helper (harness/kconfig-explain/kconfig-explain.c, compiled at run time
 * against the tree's scripts/kconfig objects) answers queries written with
 * explain_query_*() and prints records that explain_parse() reads back.
 * Some reasons are bootproof's own (a later fragment overriding an earlier
 * one; a stale line in the base config); they share the kinds below so one
 * result can hold them all.
 *
 * The helper's output, version 2 (one record per line, tab-separated, a
 * tab, newline or backslash inside a field escaped as \t \n \\):
 *
 *	bp-kconfig-explain	2
 *	symbol	NAME	TYPE	FINAL	DEFINED		then 0+ reasons, then end
 *	reason	unknown
 *	reason	depends	SOURCE	VALUE	EXPR	SOURCE: depends | prompt
 *	reason	module	SOURCE	VALUE	EXPR
 *	reason	select	SELECTOR	VALUE	EXPR
 *	reason	range	LOW	HIGH
 *	reason	noprompt	TEXT
 *	reason	choice	CHOSEN	TEXT
 *	reason	nomodules
 *	reason	invalid	TEXT
 *	reason	other	TEXT
 *	rule	depends	VALUE	EXPR		"why" queries: the rules below
 *	rule	prompt	VALUE	EXPR		one per prompt
 *	rule	default	VALUE	COND	EXPR	CONDEXPR	each, in order
 *	rule	select	SELECTOR	VALUE	EXPR	each select
 *	rule	imply	IMPLIER	VALUE	EXPR	each imply
 *	rule	choice	CHOSEN	DEFAULT		a choice member
 *	term	NAME	VALUE	TYPE		a symbol of the reason or rule above
 *	end
 *
 * Version 2 added the "why" query and its rule records (an "explain" or
 * "exists" query is answered as in version 1).  The helper's own comment
 * says what each field holds.
 *
 * Pure module: buffers in, structures out; no I/O, never logs.
 */
#ifndef BP_EXPLAIN_H
#define BP_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/cleanup.h"
#include "util/strbuf.h"

#define EXPLAIN_PROTOCOL_VERSION 2

enum explain_kind {
	EXPLAIN_UNKNOWN,	/* not a symbol of this tree (for this arch) */
	EXPLAIN_DEPENDS,	/* unmet dependency: expression is n */
	EXPLAIN_MODULE,		/* limited to m by a tristate dependency */
	EXPLAIN_SELECT,		/* forced by a select */
	EXPLAIN_RANGE,		/* int/hex value outside its range */
	EXPLAIN_NOPROMPT,	/* no prompt: not user-settable */
	EXPLAIN_CHOICE,		/* another member of a choice was chosen */
	EXPLAIN_NOMODULES,	/* m requested but MODULES=n */
	EXPLAIN_INVALID,	/* the value is not one of the symbol's type */
	EXPLAIN_OTHER,		/* Kconfig gave no reason we recognise */
	EXPLAIN_OVERRIDDEN,	/* a later fragment set another value */
	EXPLAIN_STALE_BASE,	/* a line of the base config with no effect */
	EXPLAIN_UNEXPLAINED,	/* the helper could not be run */
	EXPLAIN_KIND_MAX,
};

/*
 * Stable names for reports and JSON: "unknown", "depends", "module",
 * "select", "range", "noprompt", "choice", "nomodules", "invalid", "other",
 * "overridden", "stale base option", "unexplained"; "?" out of range.
 */
const char *explain_kind_name(enum explain_kind k);
/* Parse a helper kind word (unknown, depends, ...); -EINVAL when unknown. */
int explain_kind_from_word(const char *w, enum explain_kind *ret);

struct explain_term {
	char *name;
	char *value;	/* the symbol's current value */
	char *type;	/* bool, tristate, ..., "unknown" when undefined */
};

/* Every string is owned by the reason; NULL when the record has none. */
struct explain_reason {
	enum explain_kind kind;
	char *source;	/* DEPENDS/MODULE: "depends" or "prompt" */
	char *value;	/* DEPENDS/MODULE: the expression's value (n/m);
			 * SELECT: the selector's value */
	char *expr;	/* DEPENDS/MODULE/SELECT: the Kconfig expression */
	char *symbol;	/* SELECT: the selector; CHOICE: the chosen member */
	char *low, *high; /* RANGE */
	char *text;	/* NOPROMPT, CHOICE, INVALID, OTHER */
	struct explain_term *terms;
	size_t n_terms;
};

/* The rules a "why" query lists: what can give a symbol its value. */
enum explain_rule_kind {
	EXPLAIN_RULE_DEPENDS,	/* "depends on", enclosing menus and ifs */
	EXPLAIN_RULE_PROMPT,	/* a prompt and its visibility */
	EXPLAIN_RULE_DEFAULT,	/* a default and its condition */
	EXPLAIN_RULE_SELECT,	/* "select NAME" in another symbol */
	EXPLAIN_RULE_IMPLY,	/* "imply NAME" in another symbol */
	EXPLAIN_RULE_CHOICE,	/* the symbol is a member of a choice */
	EXPLAIN_RULE_KIND_MAX,
};

/* "depends", "prompt", "default", "select", "imply", "choice"; "?" out of
 * range. */
const char *explain_rule_kind_name(enum explain_rule_kind k);

/* Every string is owned by the rule; NULL when the record has none. */
struct explain_rule {
	enum explain_rule_kind kind;
	/*
	 * DEPENDS/PROMPT: the expression's value (y/m/n); DEFAULT: what the
	 * default gives (a bool/tristate's already limited by its
	 * condition; another type's value as text); SELECT/IMPLY: the value
	 * of the term "SELECTOR && condition".
	 */
	char *value;
	char *cond;	/* DEFAULT: its condition's value, y/m/n */
	char *expr;	/* the expression (DEFAULT: the default's) */
	char *cond_expr; /* DEFAULT: its condition ("y" when none) */
	char *symbol;	/* SELECT/IMPLY: who selects; CHOICE: the member
			 * chosen (NULL when none) */
	char *choice_default; /* CHOICE: the choice's default, or NULL */
	/* The symbols of the expressions (CHOICE: the members). */
	struct explain_term *terms;
	size_t n_terms;
};

struct explain_symbol {
	char *name;
	char *type;	/* bool tristate int hex string unknown */
	char *final;	/* value in the .config, NULL when not written */
	char *defined;	/* "file:line" of its first definition, NULL */
	struct explain_reason *reasons;
	size_t n_reasons;
	struct explain_rule *rules;	/* "why" queries only, in order */
	size_t n_rules;
};

struct explain_result {
	struct explain_symbol *syms;	/* in the order of the queries */
	size_t n_syms;
};

/*
 * Queries, appended to sb (the helper's stdin): "why is NAME's final value
 * not VALUE" (VALUE as in kconfig_option.value: y/m/n, digits, a string's
 * unescaped contents) and "is NAME a symbol of this tree".
 */
void explain_query_value(struct strbuf *sb, const char *name,
			 const char *value);
void explain_query_exists(struct strbuf *sb, const char *name);
/* "Every rule that can give NAME its value": answered with rule records. */
void explain_query_why(struct strbuf *sb, const char *name);

/*
 * Parse the helper's output.  Returns 0 and the result in *ret, -EINVAL on
 * malformed output with "line N: ..." in *err (err may be NULL; a missing
 * header, an unknown record or reason, a record out of place, a block not
 * ended by "end" are all malformed), or -EPROTO for another protocol
 * version.
 */
int explain_parse(const char *buf, size_t len, struct explain_result **ret,
		  struct strbuf *err);

void explain_result_free(struct explain_result *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct explain_result *, explain_result_free)
#define _cleanup_explain_result_ _cleanup_(explain_result_freep)

/* The symbol named name in r, or NULL. */
const struct explain_symbol *explain_find(const struct explain_result *r,
					  const char *name);

/*
 * One line of human text for a reason, appended to sb, e.g.
 *	unmet dependency: depends on VIRTUALIZATION && KVM && IA32_FEAT_CTL
 *	    (KVM=n)
 *	limited to m: depends on KVM (KVM=m)
 *	forced by select: selected by BPF_LSM=y (BPF_LSM && ...)
 *	value out of range 1024..4096
 * Only the terms that make the expression fail are named for DEPENDS and
 * MODULE (all of them when none can be singled out); all for SELECT.
 */
void explain_format_reason(struct strbuf *sb, const struct explain_reason *r);

/*
 * All the reasons of a symbol as one line, appended to sb: each reason as
 * explain_format_reason() writes it, separated by "; ", except that several
 * selects are summarised as "forced by select: selected by A=y, B=y (and
 * N more)" (the JSON keeps each select's expression).  Nothing is appended
 * when s has no reason.
 */
void explain_format_symbol(struct strbuf *sb, const struct explain_symbol *s);

/*
 * The terms of r that limit its expression: for DEPENDS those whose value
 * is n (or "unknown" type), for MODULE those at m.  Sets flags[i] for each
 * term i of r (flags has r->n_terms entries); returns how many were set.
 */
size_t explain_limiting_terms(const struct explain_reason *r, bool *flags);

/*
 * The environment Kconfig saw, from a tree's include/config/auto.conf.cmd
 * (written by syncconfig: one 'ifneq "$(NAME)" "VALUE"' block for each
 * variable the Kconfig files read).  The helper must run with the same
 * values, or symbols computed by $(shell,...) such as CC_CAN_LINK come out
 * differently.  Returns the number of "NAME=VALUE" strings appended to sb,
 * each NUL-terminated (so sb holds them back to back), or -EINVAL when a
 * line starting with ifneq is not of that form.
 */
int explain_parse_env(const char *buf, size_t len, struct strbuf *sb);

#endif
