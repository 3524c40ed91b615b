// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/builderr.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const builderr_kind_names[] = {
	[BUILDERR_COMPILER] = "compiler", [BUILDERR_LINKER] = "linker",
	[BUILDERR_TOOL] = "tool", [BUILDERR_MAKE] = "make",
};

const char *builderr_kind_name(enum builderr_kind k)
{
	return ENUM_NAME(builderr_kind_names, k, "none");
}

void builderr_done(struct builderr *e)
{
	free(e->text);
	free(e->file);
	*e = (struct builderr){ 0 };
}

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Parse a decimal number at *s; advances. */
static bool number(const char **s, unsigned *ret)
{
	unsigned long v = 0;
	const char *p = *s;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p) && v < 100000000)
		v = v * 10 + (unsigned)(*p++ - '0');
	*ret = (unsigned)v;
	*s = p;
	return true;
}

/*
 * "<path>:<line>[:<col>]: " at the start of s: the path has no blank and
 * no ':'.  Returns what follows, or NULL.
 */
static const char *located(const char *s, size_t *ret_pathlen,
			   unsigned *ret_line, unsigned *ret_col)
{
	size_t n = strcspn(s, ": \t");
	const char *p = s + n;
	unsigned line = 0, col = 0;

	if (!n || *p != ':')
		return NULL;
	p++;
	if (!number(&p, &line) || *p != ':')
		return NULL;
	p++;
	if (isdigit((unsigned char)*p)) {
		if (!number(&p, &col) || *p != ':')
			return NULL;
		p++;
	}
	if (*p != ' ')
		return NULL;
	*ret_pathlen = n;
	*ret_line = line;
	*ret_col = col;
	return p + 1;
}

static bool is_linker_word(const char *s)
{
	/* ld, ld.bfd, ld.lld, x86_64-linux-gnu-ld, /usr/bin/ld: */
	size_t n = strcspn(s, ": \t");
	const char *b;

	if (s[n] != ':' || s[n + 1] != ' ')
		return false;
	for (b = s + n; b > s && b[-1] != '/'; b--)
		;
	return (s + n - b == 2 && starts(b, "ld")) || starts(b, "ld.") ||
	       (s + n - b > 3 && !strncmp(s + n - 3, "-ld", 3));
}

struct found {
	enum builderr_kind kind;
	size_t pathlen;
	unsigned line, col;
};

static bool classify(const char *s, struct found *f)
{
	size_t pl = 0;
	unsigned line = 0, col = 0;
	const char *rest = located(s, &pl, &line, &col);

	*f = (struct found){ BUILDERR_NONE, 0, 0, 0 };
	if (starts(s, "make") && strstr(s, "***")) {
		f->kind = BUILDERR_MAKE;
		return true;
	}
	if (strstr(s, "undefined reference to") ||
	    strstr(s, "multiple definition of") ||
	    strstr(s, "relocation truncated to fit")) {
		f->kind = BUILDERR_LINKER;
		if (rest) {
			f->pathlen = pl;
			f->line = line;
		} else if (!is_linker_word(s)) {
			/* "foo.c:(.text+0x12): undefined reference ..." */
			size_t n = strcspn(s, ": \t");

			if (s[n] == ':' && s[n + 1] == '(')
				f->pathlen = n;
		}
		return true;
	}
	if (is_linker_word(s)) {
		const char *m = s + strcspn(s, ":") + 2;

		if (starts(m, "error:") || strstr(m, "cannot find") ||
		    strstr(m, "ASSERT") || strstr(m, "final link failed") ||
		    strstr(m, "overlaps section") ||
		    strstr(m, "will not fit in region")) {
			f->kind = BUILDERR_LINKER;
			return true;
		}
		return false;
	}
	if (rest && (starts(rest, "error:") || starts(rest, "fatal error:") ||
		     starts(rest, "Error:") ||
		     starts(rest, "internal compiler error:"))) {
		f->kind = BUILDERR_COMPILER;
		f->pathlen = pl;
		f->line = line;
		f->col = col;
		return true;
	}
	if (starts(s, "ERROR: ") || strstr(s, ": error: ") ||
	    strstr(s, ": fatal error: ") ||
	    strstr(s, "No such file or directory") ||
	    strstr(s, "is neither a file nor a directory")) {
		f->kind = BUILDERR_TOOL;
		if (rest) {
			f->pathlen = pl;
			f->line = line;
			f->col = col;
		}
		return true;
	}
	return false;
}

/* Tiers: a lower rank wins; within a tier, the first line. */
static int rank(enum builderr_kind k)
{
	switch (k) {
	case BUILDERR_COMPILER:
	case BUILDERR_LINKER:
		return 0;
	case BUILDERR_TOOL:
		return 1;
	case BUILDERR_MAKE:
		return 2;
	case BUILDERR_NONE:
		break;
	}
	return 3;
}

int builderr_find(const char *log, size_t len, struct builderr *ret)
{
	struct found best = { BUILDERR_NONE, 0, 0, 0 };
	size_t best_off = 0, best_len = 0, best_ln = 0, off = 0, ln = 0;
	char buf[4096];

	*ret = (struct builderr){ 0 };
	while (off < len) {
		const char *nl = memchr(log + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (log + off)) : len - off;
		size_t take = l < sizeof(buf) - 1 ? l : sizeof(buf) - 1;
		struct found f;

		ln++;
		memcpy(buf, log + off, take);
		while (take && (buf[take - 1] == '\r' || buf[take - 1] == ' ' ||
				buf[take - 1] == '\t'))
			take--;
		buf[take] = '\0';
		if (strlen(buf) == take && classify(buf, &f) &&
		    rank(f.kind) < rank(best.kind)) {
			best = f;
			best_off = off;
			best_len = take;
			best_ln = ln;
			if (rank(f.kind) == 0)
				break;
		}
		off += l + (nl ? 1 : 0);
	}
	if (best.kind == BUILDERR_NONE)
		return 0;
	ret->kind = best.kind;
	ret->text = xstrndup(log + best_off, best_len);
	if (best.pathlen)
		ret->file = xstrndup(log + best_off, best.pathlen);
	ret->line = best.line;
	ret->col = best.col;
	ret->log_line = best_ln;
	return 1;
}
