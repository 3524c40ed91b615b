// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/explain.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const kind_names[EXPLAIN_KIND_MAX] = {
	[EXPLAIN_UNKNOWN] = "unknown",
	[EXPLAIN_DEPENDS] = "depends",
	[EXPLAIN_MODULE] = "module",
	[EXPLAIN_SELECT] = "select",
	[EXPLAIN_RANGE] = "range",
	[EXPLAIN_NOPROMPT] = "noprompt",
	[EXPLAIN_CHOICE] = "choice",
	[EXPLAIN_NOMODULES] = "nomodules",
	[EXPLAIN_INVALID] = "invalid",
	[EXPLAIN_OTHER] = "other",
	[EXPLAIN_OVERRIDDEN] = "overridden",
	[EXPLAIN_STALE_BASE] = "stale base option",
	[EXPLAIN_UNEXPLAINED] = "unexplained",
};

static const char *const rule_names[EXPLAIN_RULE_KIND_MAX] = {
	[EXPLAIN_RULE_DEPENDS] = "depends",
	[EXPLAIN_RULE_PROMPT] = "prompt",
	[EXPLAIN_RULE_DEFAULT] = "default",
	[EXPLAIN_RULE_SELECT] = "select",
	[EXPLAIN_RULE_IMPLY] = "imply",
	[EXPLAIN_RULE_CHOICE] = "choice",
};

const char *explain_rule_kind_name(enum explain_rule_kind k)
{
	if ((unsigned)k >= EXPLAIN_RULE_KIND_MAX)
		return "?";
	return rule_names[k];
}

const char *explain_kind_name(enum explain_kind k)
{
	if ((unsigned)k >= EXPLAIN_KIND_MAX)
		return "?";
	return kind_names[k];
}

int explain_kind_from_word(const char *w, enum explain_kind *ret)
{
	/* Only the kinds the helper itself reports. */
	for (int k = EXPLAIN_UNKNOWN; k <= EXPLAIN_OTHER; k++)
		if (!strcmp(kind_names[k], w)) {
			*ret = k;
			return 0;
		}
	return -EINVAL;
}

/* ------------------------------------------------------------ queries */

static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		/* The helper splits on tabs and lines: neither can be in a
		 * .config value the kernel reads, so drop them. */
		if (*s == '\n')
			continue;
		strbuf_addch(sb, *s == '\t' ? ' ' : *s);
	}
}

void explain_query_value(struct strbuf *sb, const char *name,
			 const char *value)
{
	strbuf_addstr(sb, "explain\t");
	add_escaped(sb, name);
	strbuf_addch(sb, '\t');
	add_escaped(sb, value);
	strbuf_addch(sb, '\n');
}

void explain_query_exists(struct strbuf *sb, const char *name)
{
	strbuf_addstr(sb, "exists\t");
	add_escaped(sb, name);
	strbuf_addch(sb, '\n');
}

void explain_query_why(struct strbuf *sb, const char *name)
{
	strbuf_addstr(sb, "why\t");
	add_escaped(sb, name);
	strbuf_addch(sb, '\n');
}

/* ------------------------------------------------------------ freeing */

static void terms_done(struct explain_term *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].value);
		free(t[i].type);
	}
	free(t);
}

static void reason_done(struct explain_reason *r)
{
	free(r->source);
	free(r->value);
	free(r->expr);
	free(r->symbol);
	free(r->low);
	free(r->high);
	free(r->text);
	terms_done(r->terms, r->n_terms);
}

static void rule_done(struct explain_rule *r)
{
	free(r->value);
	free(r->cond);
	free(r->expr);
	free(r->cond_expr);
	free(r->symbol);
	free(r->choice_default);
	terms_done(r->terms, r->n_terms);
}

static void symbol_done(struct explain_symbol *s)
{
	for (size_t i = 0; i < s->n_rules; i++)
		rule_done(&s->rules[i]);
	free(s->rules);
	free(s->name);
	free(s->type);
	free(s->final);
	free(s->defined);
	for (size_t i = 0; i < s->n_reasons; i++)
		reason_done(&s->reasons[i]);
	free(s->reasons);
}

void explain_result_free(struct explain_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_syms; i++)
		symbol_done(&r->syms[i]);
	free(r->syms);
	free(r);
}

const struct explain_symbol *explain_find(const struct explain_result *r,
					  const char *name)
{
	for (size_t i = 0; i < r->n_syms; i++)
		if (!strcmp(r->syms[i].name, name))
			return &r->syms[i];
	return NULL;
}

/* ------------------------------------------------------------ parsing */

#define MAX_FIELDS 8

struct fields {
	char *f[MAX_FIELDS];
	size_t n;
};

static void fields_done(struct fields *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->f[i]);
	fs->n = 0;
}

/* Split one line into unescaped fields.  -EINVAL: too many fields or a
 * bad escape. */
static int split_line(const char *line, size_t n, struct fields *fs)
{
	struct strbuf cur = STRBUF_INIT;
	size_t i = 0;

	fs->n = 0;
	for (;;) {
		if (i == n || line[i] == '\t') {
			if (fs->n == MAX_FIELDS) {
				strbuf_release(&cur);
				return -EINVAL;
			}
			fs->f[fs->n++] = strbuf_detach(&cur, NULL);
			if (i == n)
				return 0;
			i++;
			continue;
		}
		if (line[i] == '\\') {
			char c = i + 1 < n ? line[i + 1] : '\0';

			if (c == 't')
				strbuf_addch(&cur, '\t');
			else if (c == 'n')
				strbuf_addch(&cur, '\n');
			else if (c == '\\')
				strbuf_addch(&cur, '\\');
			else {
				strbuf_release(&cur);
				return -EINVAL;
			}
			i += 2;
			continue;
		}
		strbuf_addch(&cur, line[i++]);
	}
}

static int bad(struct strbuf *err, unsigned line, const char *fmt, ...)
	_printf_(3, 4);
static int bad(struct strbuf *err, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	strbuf_reset(err);
	strbuf_addf(err, "line %u: ", line);
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Take field i (NULL for an empty optional field when empty_is_null). */
static char *take(struct fields *fs, size_t i, bool empty_is_null)
{
	char *s;

	if (i >= fs->n)
		return NULL;
	s = fs->f[i];
	fs->f[i] = NULL;
	if (empty_is_null && !*s) {
		free(s);
		return NULL;
	}
	return s;
}

static void *grow(void *p, size_t n, size_t size)
{
	p = xreallocarray(p, n + 1, size);
	memset((char *)p + n * size, 0, size);
	return p;
}

/* Fields each reason kind takes after "reason KIND". */
static size_t reason_arity(enum explain_kind k)
{
	switch (k) {
	case EXPLAIN_UNKNOWN:
	case EXPLAIN_NOMODULES:
		return 0;
	case EXPLAIN_NOPROMPT:
	case EXPLAIN_INVALID:
	case EXPLAIN_OTHER:
		return 1;
	case EXPLAIN_RANGE:
	case EXPLAIN_CHOICE:
		return 2;
	case EXPLAIN_DEPENDS:
	case EXPLAIN_MODULE:
	case EXPLAIN_SELECT:
		return 3;
	default:
		return 0;
	}
}

static void fill_reason(struct explain_reason *r, struct fields *fs)
{
	switch (r->kind) {
	case EXPLAIN_DEPENDS:
	case EXPLAIN_MODULE:
		r->source = take(fs, 2, false);
		r->value = take(fs, 3, false);
		r->expr = take(fs, 4, false);
		break;
	case EXPLAIN_SELECT:
		r->symbol = take(fs, 2, false);
		r->value = take(fs, 3, false);
		r->expr = take(fs, 4, false);
		break;
	case EXPLAIN_RANGE:
		r->low = take(fs, 2, false);
		r->high = take(fs, 3, false);
		break;
	case EXPLAIN_CHOICE:
		r->symbol = take(fs, 2, true);
		r->text = take(fs, 3, false);
		break;
	case EXPLAIN_NOPROMPT:
	case EXPLAIN_INVALID:
	case EXPLAIN_OTHER:
		r->text = take(fs, 2, false);
		break;
	default:
		break;
	}
}

/* Fields each rule kind takes after "rule KIND". */
static const size_t rule_arity[EXPLAIN_RULE_KIND_MAX] = {
	[EXPLAIN_RULE_DEPENDS] = 2, [EXPLAIN_RULE_PROMPT] = 2,
	[EXPLAIN_RULE_DEFAULT] = 4, [EXPLAIN_RULE_SELECT] = 3,
	[EXPLAIN_RULE_IMPLY] = 3,   [EXPLAIN_RULE_CHOICE] = 2,
};

static void fill_rule(struct explain_rule *r, struct fields *fs)
{
	switch (r->kind) {
	case EXPLAIN_RULE_DEPENDS:
	case EXPLAIN_RULE_PROMPT:
		r->value = take(fs, 2, false);
		r->expr = take(fs, 3, false);
		break;
	case EXPLAIN_RULE_DEFAULT:
		r->value = take(fs, 2, false);
		r->cond = take(fs, 3, false);
		r->expr = take(fs, 4, false);
		r->cond_expr = take(fs, 5, false);
		break;
	case EXPLAIN_RULE_SELECT:
	case EXPLAIN_RULE_IMPLY:
		r->symbol = take(fs, 2, false);
		r->value = take(fs, 3, false);
		r->expr = take(fs, 4, false);
		break;
	case EXPLAIN_RULE_CHOICE:
		r->symbol = take(fs, 2, true);
		r->choice_default = take(fs, 3, true);
		break;
	default:
		break;
	}
}

static int parse_rule(struct explain_symbol *s, struct fields *fs,
		      unsigned ln, struct strbuf *err)
{
	struct explain_rule *r;
	int k;

	for (k = 0; k < EXPLAIN_RULE_KIND_MAX; k++)
		if (fs->n >= 2 && !strcmp(fs->f[1], rule_names[k]))
			break;
	if (k == EXPLAIN_RULE_KIND_MAX)
		return bad(err, ln, "unknown rule '%s'",
			   fs->n < 2 ? "" : fs->f[1]);
	if (fs->n != 2 + rule_arity[k])
		return bad(err, ln, "rule '%s' takes %zu fields, not %zu",
			   fs->f[1], rule_arity[k], fs->n - 2);
	s->rules = grow(s->rules, s->n_rules, sizeof(*s->rules));
	r = &s->rules[s->n_rules++];
	r->kind = (enum explain_rule_kind)k;
	fill_rule(r, fs);
	return 0;
}

/* What a "term" record belongs to: the last reason or rule. */
enum last_record { LAST_NONE, LAST_REASON, LAST_RULE };

static int parse_line(struct explain_result *res, struct fields *fs,
		      bool *in_block, enum last_record *last, unsigned ln,
		      struct strbuf *err)
{
	const char *rec = fs->f[0];
	struct explain_symbol *s = res->n_syms ? &res->syms[res->n_syms - 1]
					       : NULL;

	if (!strcmp(rec, "symbol")) {
		if (*in_block)
			return bad(err, ln, "'symbol' before 'end' of %s",
				   s->name);
		if (fs->n != 5)
			return bad(err, ln, "'symbol' takes 4 fields, not %zu",
				   fs->n - 1);
		if (!*fs->f[1])
			return bad(err, ln, "'symbol' without a name");
		res->syms = grow(res->syms, res->n_syms, sizeof(*res->syms));
		s = &res->syms[res->n_syms++];
		s->name = take(fs, 1, false);
		s->type = take(fs, 2, false);
		s->final = take(fs, 3, false);
		if (!strcmp(s->final, "-")) {
			free(s->final);
			s->final = NULL;
		}
		s->defined = take(fs, 4, true);
		*in_block = true;
		*last = LAST_NONE;
		return 0;
	}
	if (!*in_block)
		return bad(err, ln, "'%s' outside a symbol block", rec);
	if (!strcmp(rec, "end")) {
		if (fs->n != 1)
			return bad(err, ln, "'end' takes no fields");
		*in_block = false;
		return 0;
	}
	if (!strcmp(rec, "reason")) {
		enum explain_kind k;
		struct explain_reason *r;

		if (fs->n < 2 || explain_kind_from_word(fs->f[1], &k) < 0)
			return bad(err, ln, "unknown reason '%s'",
				   fs->n < 2 ? "" : fs->f[1]);
		if (fs->n != 2 + reason_arity(k))
			return bad(err, ln, "reason '%s' takes %zu fields, not %zu",
				   fs->f[1], reason_arity(k), fs->n - 2);
		s->reasons = grow(s->reasons, s->n_reasons, sizeof(*s->reasons));
		r = &s->reasons[s->n_reasons++];
		r->kind = k;
		fill_reason(r, fs);
		*last = LAST_REASON;
		return 0;
	}
	if (!strcmp(rec, "rule")) {
		int e = parse_rule(s, fs, ln, err);

		if (!e)
			*last = LAST_RULE;
		return e;
	}
	if (!strcmp(rec, "term")) {
		struct explain_term **terms, *t;
		size_t *n;

		if (*last == LAST_NONE)
			return bad(err, ln,
				   "'term' before any 'reason' or 'rule'");
		if (fs->n != 4)
			return bad(err, ln, "'term' takes 3 fields, not %zu",
				   fs->n - 1);
		if (*last == LAST_REASON) {
			terms = &s->reasons[s->n_reasons - 1].terms;
			n = &s->reasons[s->n_reasons - 1].n_terms;
		} else {
			terms = &s->rules[s->n_rules - 1].terms;
			n = &s->rules[s->n_rules - 1].n_terms;
		}
		*terms = grow(*terms, *n, sizeof(**terms));
		t = &(*terms)[(*n)++];
		t->name = take(fs, 1, false);
		t->value = take(fs, 2, false);
		t->type = take(fs, 3, false);
		return 0;
	}
	return bad(err, ln, "unknown record '%s'", rec);
}

static bool is_our_version(const char *v)
{
	char want[16];

	snprintf(want, sizeof(want), "%d", EXPLAIN_PROTOCOL_VERSION);
	return !strcmp(v, want);
}

int explain_parse(const char *buf, size_t len, struct explain_result **ret,
		  struct strbuf *err)
{
	struct explain_result *res;
	struct fields fs = { .n = 0 };
	bool header = false, in_block = false;
	enum last_record last = LAST_NONE;
	unsigned ln = 0;
	size_t pos = 0;
	int r = 0;

	res = xcalloc(1, sizeof(*res));
	while (pos < len) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		ln++;
		if (!n)
			continue;
		if (split_line(line, n, &fs) < 0) {
			r = bad(err, ln, "bad escape or too many fields");
			break;
		}
		if (!header) {
			if (fs.n != 2 || strcmp(fs.f[0], "bp-kconfig-explain")) {
				r = bad(err, ln,
					"expected 'bp-kconfig-explain VERSION'");
				break;
			}
			if (!is_our_version(fs.f[1])) {
				r = -EPROTO;
				if (err) {
					strbuf_reset(err);
					strbuf_addf(err,
						    "line %u: protocol version %s, "
						    "expected %d",
						    ln, fs.f[1],
						    EXPLAIN_PROTOCOL_VERSION);
				}
				break;
			}
			header = true;
			fields_done(&fs);
			continue;
		}
		r = parse_line(res, &fs, &in_block, &last, ln, err);
		fields_done(&fs);
		if (r < 0)
			break;
	}
	fields_done(&fs);
	if (!r && !header)
		r = bad(err, ln ? ln : 1, "no 'bp-kconfig-explain' header");
	if (!r && in_block)
		r = bad(err, ln, "last symbol block has no 'end'");
	if (r < 0) {
		explain_result_free(res);
		return r;
	}
	*ret = res;
	return 0;
}

/* ------------------------------------------------------------ text */

size_t explain_limiting_terms(const struct explain_reason *r, bool *flags)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_terms; i++) {
		const struct explain_term *t = &r->terms[i];
		bool lim = false;

		if (r->kind == EXPLAIN_DEPENDS)
			lim = !strcmp(t->value, "n") ||
			      !strcmp(t->type, "unknown");
		else if (r->kind == EXPLAIN_MODULE)
			lim = !strcmp(t->value, "m");
		flags[i] = lim;
		n += lim;
	}
	return n;
}

static void add_terms(struct strbuf *sb, const struct explain_reason *r,
		      bool only_limiting)
{
	bool *flags;
	size_t n;
	bool first = true;

	if (!r->n_terms)
		return;
	flags = xcalloc(r->n_terms, sizeof(bool));
	n = explain_limiting_terms(r, flags);
	strbuf_addstr(sb, " (");
	for (size_t i = 0; i < r->n_terms; i++) {
		const struct explain_term *t = &r->terms[i];

		if (only_limiting && n && !flags[i])
			continue;
		strbuf_addf(sb, "%s%s=%s", first ? "" : " ", t->name,
			    t->value);
		if (!strcmp(t->type, "unknown"))
			strbuf_addstr(sb, " undefined");
		first = false;
	}
	strbuf_addch(sb, ')');
	free(flags);
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

void explain_format_reason(struct strbuf *sb, const struct explain_reason *r)
{
	bool prompt = r->source && !strcmp(r->source, "prompt");

	switch (r->kind) {
	case EXPLAIN_UNKNOWN:
		strbuf_addstr(sb, "unknown symbol: not defined in this tree "
				  "for this arch");
		break;
	case EXPLAIN_DEPENDS:
		strbuf_addf(sb, "unmet dependency: %s %s",
			    prompt ? "prompt only if" : "depends on",
			    or_empty(r->expr));
		add_terms(sb, r, true);
		break;
	case EXPLAIN_MODULE:
		strbuf_addf(sb, "limited to m by a tristate dependency: %s %s",
			    prompt ? "prompt only if" : "depends on",
			    or_empty(r->expr));
		add_terms(sb, r, true);
		break;
	case EXPLAIN_SELECT:
		strbuf_addf(sb, "forced by select: selected by %s=%s",
			    or_empty(r->symbol), or_empty(r->value));
		if (r->expr && strcmp(r->expr, or_empty(r->symbol)))
			strbuf_addf(sb, " [%s]", r->expr);
		break;
	case EXPLAIN_RANGE:
		strbuf_addf(sb, "value out of range %s..%s", or_empty(r->low),
			    or_empty(r->high));
		break;
	case EXPLAIN_NOPROMPT:
		strbuf_addf(sb, "%s", or_empty(r->text));
		break;
	case EXPLAIN_CHOICE:
		if (r->symbol)
			strbuf_addf(sb, "choice: %s chosen instead",
				    r->symbol);
		else
			strbuf_addf(sb, "choice: %s", or_empty(r->text));
		break;
	case EXPLAIN_NOMODULES:
		strbuf_addstr(sb, "MODULES=n: a tristate is y or n, never m");
		break;
	case EXPLAIN_INVALID:
		strbuf_addf(sb, "invalid value: %s", or_empty(r->text));
		break;
	case EXPLAIN_OTHER:
		strbuf_addf(sb, "Kconfig kept another value: %s",
			    or_empty(r->text));
		break;
	default:
		strbuf_addf(sb, "%s%s%s", explain_kind_name(r->kind),
			    r->text ? ": " : "", or_empty(r->text));
		break;
	}
}

#define MAX_SELECTORS_SHOWN 6

void explain_format_symbol(struct strbuf *sb, const struct explain_symbol *s)
{
	size_t n_sel = 0, shown = 0;
	bool first = true;

	for (size_t i = 0; i < s->n_reasons; i++)
		n_sel += s->reasons[i].kind == EXPLAIN_SELECT;
	for (size_t i = 0; i < s->n_reasons; i++) {
		const struct explain_reason *r = &s->reasons[i];

		if (r->kind != EXPLAIN_SELECT || n_sel == 1) {
			if (!first)
				strbuf_addstr(sb, "; ");
			explain_format_reason(sb, r);
			first = false;
			continue;
		}
		if (shown == 0) {
			if (!first)
				strbuf_addstr(sb, "; ");
			strbuf_addstr(sb, "forced by select: selected by ");
			first = false;
		}
		if (shown < MAX_SELECTORS_SHOWN)
			strbuf_addf(sb, "%s%s=%s", shown ? ", " : "",
				    or_empty(r->symbol), or_empty(r->value));
		else if (shown == MAX_SELECTORS_SHOWN)
			strbuf_addf(sb, " (and %zu more)",
				    n_sel - MAX_SELECTORS_SHOWN);
		shown++;
	}
}

/* ------------------------------------------------------------ env */

int explain_parse_env(const char *buf, size_t len, struct strbuf *sb)
{
	static const char pre[] = "ifneq \"$(";
	size_t pos = 0;
	int n = 0;

	while (pos < len) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) : len - pos;
		const char *name, *close, *val;
		size_t nlen, vlen;

		pos += l + (nl ? 1 : 0);
		if (l < 6 || memcmp(line, "ifneq ", 6))
			continue;
		if (l < sizeof(pre) - 1 || memcmp(line, pre, sizeof(pre) - 1))
			return -EINVAL;
		name = line + sizeof(pre) - 1;
		close = memchr(name, ')', l - (size_t)(name - line));
		if (!close || close == name)
			return -EINVAL;
		nlen = (size_t)(close - name);
		/* ")" "VALUE" */
		if ((size_t)(close - line) + 4 > l || memcmp(close, ")\" \"", 4))
			return -EINVAL;
		val = close + 4;
		vlen = l - (size_t)(val - line);
		if (!vlen || val[vlen - 1] != '"')
			return -EINVAL;
		vlen--;
		for (size_t i = 0; i < nlen; i++)
			if (!(name[i] == '_' || (name[i] >= 'A' && name[i] <= 'Z') ||
			      (name[i] >= 'a' && name[i] <= 'z') ||
			      (name[i] >= '0' && name[i] <= '9')))
				return -EINVAL;
		strbuf_add(sb, name, nlen);
		strbuf_addch(sb, '=');
		strbuf_add(sb, val, vlen);
		strbuf_addch(sb, '\0');
		n++;
	}
	return n;
}
