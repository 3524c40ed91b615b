// SPDX-License-Identifier: GPL-2.0-or-later
/* One KTAP line, classified (see ktap_impl.h). */
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "ktap_impl.h"

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

void ktap_line_classify(char *s, struct line *l)
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
char *ktap_line_strip_prefixes(char *s)
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
