// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/kconfig.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/bug.h"
#include "util/xalloc.h"

#define CONFIG_PREFIX "CONFIG_"
#define CONFIG_PREFIX_LEN (sizeof(CONFIG_PREFIX) - 1)
#define NOT_SET_SUFFIX " is not set"
#define NOT_SET_SUFFIX_LEN (sizeof(NOT_SET_SUFFIX) - 1)

struct kconfig {
	/* Latest definition of each symbol, in first-definition order. */
	struct kconfig_option **opts;
	size_t n_opts, alloc_opts;
	/* Open addressing, linear probing: 0 = empty, else index + 1. */
	size_t *table;
	size_t table_size; /* a power of two, at least twice n_opts */
	/* File names the options point to. */
	char **files;
	size_t n_files, alloc_files;
};

/*
 * An option node and its strings are one allocation: the struct, then the
 * name, then the value, each NUL-terminated.
 */
static struct kconfig_option *option_new(const char *name, size_t name_len,
					 enum kconfig_kind kind,
					 const char *value, size_t value_len,
					 const char *file, unsigned line)
{
	struct kconfig_option *o;
	char *p;

	o = xmalloc(sizeof(*o) + name_len + 1 + value_len + 1);
	p = (char *)(o + 1);
	memcpy(p, name, name_len);
	p[name_len] = '\0';
	o->name = p;
	p += name_len + 1;
	if (value_len)
		memcpy(p, value, value_len);
	p[value_len] = '\0';
	o->value = p;
	o->value_len = value_len;
	o->kind = kind;
	o->file = file;
	o->line = line;
	o->overrides = NULL;
	return o;
}

static void option_chain_free(const struct kconfig_option *o)
{
	while (o) {
		const struct kconfig_option *prev = o->overrides;

		free((void *)o);
		o = prev;
	}
}

int kconfig_new(struct kconfig **ret)
{
	*ret = xcalloc(1, sizeof(struct kconfig));
	return 0;
}

void kconfig_free(struct kconfig *kc)
{
	if (!kc)
		return;
	for (size_t i = 0; i < kc->n_opts; i++)
		option_chain_free(kc->opts[i]);
	free(kc->opts);
	free(kc->table);
	for (size_t i = 0; i < kc->n_files; i++)
		free(kc->files[i]);
	free(kc->files);
	free(kc);
}

void kconfig_error_done(struct kconfig_error *err)
{
	if (!err)
		return;
	strbuf_release(&err->msg);
	err->line = 0;
}

/* FNV-1a */
static size_t hash_name(const char *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 0x100000001b3ULL;
	}
	return (size_t)(h ^ (h >> 32));
}

/* Slot of name in kc->table: the one holding it, or the empty one where it
 * would go.  The table must exist. */
static size_t table_slot(const struct kconfig *kc, const char *name, size_t len)
{
	size_t mask = kc->table_size - 1;
	size_t i = hash_name(name, len) & mask;

	for (;;) {
		size_t idx = kc->table[i];
		const struct kconfig_option *o;

		if (!idx)
			return i;
		o = kc->opts[idx - 1];
		if (strncmp(o->name, name, len) == 0 && o->name[len] == '\0')
			return i;
		i = (i + 1) & mask;
	}
}

static struct kconfig_option **find_entry(const struct kconfig *kc,
					  const char *name, size_t len)
{
	size_t idx;

	if (!kc->table_size)
		return NULL;
	idx = kc->table[table_slot(kc, name, len)];
	return idx ? &kc->opts[idx - 1] : NULL;
}

/*
 * Make room for `more` new symbols and files without any later allocation,
 * so that a merge cannot fail half-way.
 */
static void reserve(struct kconfig *kc, size_t more, size_t more_files)
{
	size_t need = kc->n_opts + more;

	if (need < kc->n_opts)
		xalloc_die();
	if (need > kc->alloc_opts) {
		size_t n = kc->alloc_opts ? kc->alloc_opts : 64;

		while (n < need)
			n *= 2;
		kc->opts = xreallocarray(kc->opts, n, sizeof(*kc->opts));
		kc->alloc_opts = n;
	}
	if (need * 2 > kc->table_size) {
		size_t n = kc->table_size ? kc->table_size : 128;

		while (n < need * 2)
			n *= 2;
		free(kc->table);
		kc->table = xcalloc(n, sizeof(*kc->table));
		kc->table_size = n;
		for (size_t i = 0; i < kc->n_opts; i++) {
			const struct kconfig_option *o = kc->opts[i];
			size_t s = table_slot(kc, o->name, strlen(o->name));

			kc->table[s] = i + 1;
		}
	}
	if (kc->n_files + more_files > kc->alloc_files) {
		size_t n = kc->alloc_files ? kc->alloc_files : 4;

		while (n < kc->n_files + more_files)
			n *= 2;
		kc->files = xreallocarray(kc->files, n, sizeof(*kc->files));
		kc->alloc_files = n;
	}
}

/*
 * Make o the latest definition of its symbol; an earlier one goes to the
 * end of o's override chain.  Room must have been reserved.
 */
static void put_option(struct kconfig *kc, struct kconfig_option *o)
{
	size_t slot = table_slot(kc, o->name, strlen(o->name));
	size_t idx = kc->table[slot];

	if (idx) {
		struct kconfig_option *tail = o;

		while (tail->overrides)
			tail = (struct kconfig_option *)tail->overrides;
		tail->overrides = kc->opts[idx - 1];
		kc->opts[idx - 1] = o;
		return;
	}
	kc->opts[kc->n_opts++] = o;
	kc->table[slot] = kc->n_opts;
}

/*
 * Move everything of src into dst (src's fragment read after dst's) and
 * leave src empty.
 */
static void merge_move(struct kconfig *dst, struct kconfig *src)
{
	reserve(dst, src->n_opts, src->n_files);
	for (size_t i = 0; i < src->n_files; i++)
		dst->files[dst->n_files++] = src->files[i];
	src->n_files = 0;
	for (size_t i = 0; i < src->n_opts; i++)
		put_option(dst, src->opts[i]);
	src->n_opts = 0;
}

/* kc's own copy of the file name. */
static const char *add_file(struct kconfig *kc, const char *file)
{
	reserve(kc, 0, 1);
	kc->files[kc->n_files] = xstrdup(file);
	return kc->files[kc->n_files++];
}

/* Append at most 40 bytes of s, non-printable bytes as '?'. */
static void add_excerpt(struct strbuf *sb, const char *s, size_t n)
{
	size_t max = n > 40 ? 37 : n;

	for (size_t i = 0; i < max; i++)
		strbuf_addch(sb, isprint((unsigned char)s[i]) ? s[i] : '?');
	if (max < n)
		strbuf_addstr(sb, "...");
}

struct parser {
	const char *file;
	unsigned line;
	struct kconfig_error *err;
};

static int fail(struct parser *p, const char *fmt, ...) _printf_(2, 3);
static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (!p->err)
		return -EINVAL;
	p->err->line = p->line;
	va_start(ap, fmt);
	r = strbuf_vfail_at(&p->err->msg, -EINVAL, p->file, p->line, fmt, ap);
	va_end(ap);
	return r;
}

static bool is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Length of the symbol name at s (at most n bytes). */
static size_t name_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_name_char(s[i]))
		i++;
	return i;
}

static bool is_decimal(const char *s, size_t n)
{
	size_t i = (n && s[0] == '-') ? 1 : 0;

	if (i == n)
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool is_hex(const char *s, size_t n)
{
	if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (size_t i = 2; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * Parse the value of CONFIG_<name>= at v (n bytes, trailing whitespace
 * already cut).  Strings are unescaped into *str.  Returns 0 with the kind
 * and the value (ret_v, ret_n) or a parse error.
 */
static int parse_value(struct parser *p, const char *name, size_t nlen,
		       const char *v, size_t n, struct strbuf *str,
		       enum kconfig_kind *ret_kind, const char **ret_v,
		       size_t *ret_n)
{
	if (n == 0)
		return fail(p, "expected a value after 'CONFIG_%.*s='",
			    (int)nlen, name);
	if (v[0] == '"') {
		size_t i;

		/*
		 * As confdata.c reads it: a backslash takes the next byte
		 * literally; the writer only escapes '"' and '\\'.
		 */
		strbuf_reset(str);
		for (i = 1; i < n && v[i] != '"'; i++) {
			if (v[i] == '\\' && ++i == n)
				break;
			strbuf_addch(str, v[i]);
		}
		if (i >= n)
			return fail(p,
				    "expected a closing '\"' in the value of "
				    "CONFIG_%.*s",
				    (int)nlen, name);
		if (i + 1 < n) {
			int r = fail(p,
				     "expected the end of the line after the "
				     "string value of CONFIG_%.*s, found '",
				     (int)nlen, name);

			if (p->err) {
				add_excerpt(&p->err->msg, v + i + 1, n - i - 1);
				strbuf_addch(&p->err->msg, '\'');
			}
			return r;
		}
		*ret_kind = KCONFIG_STRING;
		*ret_v = str->buf;
		*ret_n = str->len;
		return 0;
	}
	if (n == 1 && (v[0] == 'y' || v[0] == 'm' || v[0] == 'n')) {
		*ret_kind = v[0] == 'y'	  ? KCONFIG_YES
			    : v[0] == 'm' ? KCONFIG_MODULE
					  : KCONFIG_NO;
		*ret_v = v;
		*ret_n = 1;
		return 0;
	}
	if (is_hex(v, n) || is_decimal(v, n)) {
		*ret_kind = is_decimal(v, n) ? KCONFIG_DECIMAL : KCONFIG_HEX;
		*ret_v = v;
		*ret_n = n;
		return 0;
	}
	{
		int r = fail(p,
			     "expected y, m, n, a number or a \"string\" as "
			     "the value of CONFIG_%.*s, found '",
			     (int)nlen, name);

		if (p->err) {
			add_excerpt(&p->err->msg, v, n);
			strbuf_addch(&p->err->msg, '\'');
		}
		return r;
	}
}

static int check_name(struct parser *p, const char *name, size_t nlen)
{
	if (nlen == 0)
		return fail(p, "expected a symbol name after 'CONFIG_'");
	if (name[0] >= 'a' && name[0] <= 'z')
		return fail(p,
			    "expected an upper-case symbol name after "
			    "'CONFIG_', found '%.*s'",
			    (int)nlen, name);
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * One line (no '\n', trailing whitespace cut) into kc.  Returns 1 when it
 * defined an option, 0 for a blank or comment line, or -errno.
 */
static int parse_line(struct parser *p, struct kconfig *kc, const char *s,
		      size_t n, struct strbuf *str)
{
	struct kconfig_option *o;
	enum kconfig_kind kind = KCONFIG_NO;
	const char *name, *v;
	size_t nlen = 0, vlen = 0;
	int r;

	if (n == 0)
		return 0;
	if (memchr(s, '\0', n))
		return fail(p, "unexpected NUL byte");
	if (s[0] == '#') {
		/* "# CONFIG_X is not set"; any other '#' line is a comment,
		 * as for the kernel. */
		if (n < 2 + CONFIG_PREFIX_LEN + NOT_SET_SUFFIX_LEN ||
		    memcmp(s, "# " CONFIG_PREFIX, 2 + CONFIG_PREFIX_LEN) != 0 ||
		    memcmp(s + n - NOT_SET_SUFFIX_LEN, NOT_SET_SUFFIX,
			   NOT_SET_SUFFIX_LEN) != 0)
			return 0;
		name = s + 2 + CONFIG_PREFIX_LEN;
		nlen = (size_t)(s + n - NOT_SET_SUFFIX_LEN - name);
		if (name_len(name, nlen) != nlen) {
			/* The kernel takes the name up to the first space. */
			const char *sp = memchr(name, ' ', nlen);

			if (sp && sp != name)
				return 0; /* "# CONFIG_X is ... is not set" */
			return fail(p, "expected a symbol name in '# "
				       "CONFIG_NAME is not set'");
		}
		r = check_name(p, name, nlen);
		if (r < 0)
			return r;
		kind = KCONFIG_NO;
		v = "n";
		vlen = 1;
	} else if (n >= CONFIG_PREFIX_LEN &&
		   memcmp(s, CONFIG_PREFIX, CONFIG_PREFIX_LEN) == 0) {
		name = s + CONFIG_PREFIX_LEN;
		nlen = name_len(name, n - CONFIG_PREFIX_LEN);
		r = check_name(p, name, nlen);
		if (r < 0)
			return r;
		if (CONFIG_PREFIX_LEN + nlen == n || name[nlen] != '=')
			return fail(p, "expected '=' after 'CONFIG_%.*s'",
				    (int)nlen, name);
		v = name + nlen + 1;
		r = parse_value(p, name, nlen, v, (size_t)(s + n - v), str,
				&kind, &v, &vlen);
		if (r < 0)
			return r;
	} else {
		const char *hint = "";

		if (n > CONFIG_PREFIX_LEN &&
		    strncasecmp(s, CONFIG_PREFIX, CONFIG_PREFIX_LEN) == 0)
			hint = " (CONFIG_ is upper case)";
		else if (is_space(s[0]))
			hint = " (found leading whitespace)";
		return fail(p,
			    "expected CONFIG_NAME=value or '# CONFIG_NAME is "
			    "not set'%s",
			    hint);
	}

	reserve(kc, 1, 0);
	o = option_new(name, nlen, kind, v, vlen, p->file, p->line);
	put_option(kc, o);
	return 1;
}

int kconfig_parse(struct kconfig *kc, const char *file, const char *buf,
		  size_t len, struct kconfig_error *err)
{
	_cleanup_kconfig_ struct kconfig *tmp = NULL;
	_cleanup_strbuf_ struct strbuf str = STRBUF_INIT;
	struct parser p = {.file = file ? file : "(buffer)", .err = err};
	const char *s, *end;
	int count = 0, r;

	if (!kc || (!buf && len))
		return -EINVAL;
	s = buf ? buf : "";
	end = s + len;
	kconfig_new(&tmp);
	p.file = add_file(tmp, p.file);

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;

		if (p.line == UINT_MAX || count == INT_MAX)
			return -E2BIG;
		p.line++;
		while (e > s && is_space(e[-1]))
			e--;
		r = parse_line(&p, tmp, s, (size_t)(e - s), &str);
		if (r < 0)
			return r;
		count += r;
		s = nl ? nl + 1 : end;
	}

	merge_move(kc, tmp);
	return count;
}

/* Index of file in src->files, for copying; the last hit is tried first. */
static size_t file_index(const struct kconfig *src, const char *file,
			 size_t *hint)
{
	if (*hint < src->n_files && src->files[*hint] == file)
		return *hint;
	for (size_t i = 0; i < src->n_files; i++)
		if (src->files[i] == file)
			return *hint = i;
	BUG("option file %s not in its kconfig's set", file);
}

int kconfig_merge(struct kconfig *dst, const struct kconfig *src)
{
	_cleanup_kconfig_ struct kconfig *tmp = NULL;
	size_t hint = 0;

	if (!dst || !src)
		return -EINVAL;
	kconfig_new(&tmp);
	reserve(tmp, src->n_opts, src->n_files);
	for (size_t i = 0; i < src->n_files; i++)
		tmp->files[tmp->n_files++] = xstrdup(src->files[i]);
	for (size_t i = 0; i < src->n_opts; i++) {
		struct kconfig_option *head = NULL, *last = NULL;

		for (const struct kconfig_option *o = src->opts[i]; o;
		     o = o->overrides) {
			size_t fi = file_index(src, o->file, &hint);
			struct kconfig_option *c;

			c = option_new(o->name, strlen(o->name), o->kind,
				       o->value, o->value_len, tmp->files[fi],
				       o->line);
			if (last)
				last->overrides = c;
			else
				head = c;
			last = c;
		}
		put_option(tmp, head);
	}
	merge_move(dst, tmp);
	return 0;
}

size_t kconfig_count(const struct kconfig *kc)
{
	return kc ? kc->n_opts : 0;
}

const struct kconfig_option *kconfig_at(const struct kconfig *kc, size_t i)
{
	return kc && i < kc->n_opts ? kc->opts[i] : NULL;
}

const struct kconfig_option *kconfig_find(const struct kconfig *kc,
					  const char *name)
{
	struct kconfig_option **e;

	if (!kc || !name)
		return NULL;
	if (strncmp(name, CONFIG_PREFIX, CONFIG_PREFIX_LEN) == 0)
		name += CONFIG_PREFIX_LEN;
	e = find_entry(kc, name, strlen(name));
	return e ? *e : NULL;
}

/* Hex digits without the 0x prefix and leading zeros. */
static const char *hex_digits(const char *v, size_t n, size_t *ret_n)
{
	v += 2;
	n -= 2;
	while (n > 1 && *v == '0') {
		v++;
		n--;
	}
	*ret_n = n;
	return v;
}

bool kconfig_value_equal(const struct kconfig_option *a,
			 const struct kconfig_option *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case KCONFIG_NO:
	case KCONFIG_YES:
	case KCONFIG_MODULE:
		return true;
	case KCONFIG_HEX: {
		size_t na, nb;
		const char *da = hex_digits(a->value, a->value_len, &na);
		const char *db = hex_digits(b->value, b->value_len, &nb);

		return na == nb && strncasecmp(da, db, na) == 0;
	}
	case KCONFIG_STRING:
	case KCONFIG_DECIMAL:
		return a->value_len == b->value_len &&
		       memcmp(a->value, b->value, a->value_len) == 0;
	}
	return false;
}

void kconfig_format_value(struct strbuf *sb, const struct kconfig_option *o)
{
	if (o->kind != KCONFIG_STRING) {
		strbuf_add(sb, o->value, o->value_len);
		return;
	}
	strbuf_addch(sb, '"');
	for (size_t i = 0; i < o->value_len; i++) {
		if (o->value[i] == '"' || o->value[i] == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, o->value[i]);
	}
	strbuf_addch(sb, '"');
}

void kconfig_format_option(struct strbuf *sb, const struct kconfig_option *o)
{
	if (o->kind == KCONFIG_NO) {
		strbuf_addf(sb, "# " CONFIG_PREFIX "%s" NOT_SET_SUFFIX "\n",
			    o->name);
		return;
	}
	strbuf_addf(sb, CONFIG_PREFIX "%s=", o->name);
	kconfig_format_value(sb, o);
	strbuf_addch(sb, '\n');
}

int kconfig_write(const struct kconfig *kc, FILE *f)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;

	if (!kc || !f)
		return -EINVAL;
	for (size_t i = 0; i < kc->n_opts; i++) {
		strbuf_reset(&sb);
		kconfig_format_option(&sb, kc->opts[i]);
		if (fwrite(sb.buf, 1, sb.len, f) != sb.len)
			return -EIO;
	}
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

const char *kconfig_verdict_to_string(enum kconfig_verdict v)
{
	static const char *const names[KCONFIG_VERDICT_MAX] = {
	    [KCONFIG_KEPT] = "KEPT",
	    [KCONFIG_CHANGED] = "CHANGED",
	    [KCONFIG_ABSENT] = "ABSENT",
	    [KCONFIG_DEMOTED] = "DEMOTED",
	};

	if ((unsigned)v >= KCONFIG_VERDICT_MAX)
		return "?";
	return names[v];
}

static enum kconfig_verdict judge(const struct kconfig_option *req,
				  const struct kconfig_option *fin)
{
	if (!fin)
		return req->kind == KCONFIG_NO ? KCONFIG_KEPT : KCONFIG_ABSENT;
	if (kconfig_value_equal(req, fin))
		return KCONFIG_KEPT;
	if (req->kind == KCONFIG_YES && fin->kind == KCONFIG_MODULE)
		return KCONFIG_DEMOTED;
	return KCONFIG_CHANGED;
}

int kconfig_verify(const struct kconfig *requested, const struct kconfig *final,
		   struct kconfig_report **ret)
{
	struct kconfig_report *r;
	size_t n;

	if (!requested || !final || !ret)
		return -EINVAL;
	n = requested->n_opts;
	r = xcalloc(1, sizeof(*r));
	r->checks = xcalloc(n, sizeof(*r->checks));
	for (size_t i = 0; i < n; i++) {
		const struct kconfig_option *req = requested->opts[i];
		struct kconfig_option **e =
		    find_entry(final, req->name, strlen(req->name));
		struct kconfig_check *c = &r->checks[i];

		c->requested = req;
		c->final = e ? *e : NULL;
		c->verdict = judge(req, c->final);
		r->count[c->verdict]++;
	}
	r->n_checks = n;
	*ret = r;
	n -= r->count[KCONFIG_KEPT];
	return n > INT_MAX ? INT_MAX : (int)n;
}

void kconfig_report_free(struct kconfig_report *r)
{
	if (!r)
		return;
	free(r->checks);
	free(r);
}
