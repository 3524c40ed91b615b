// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/kbuild.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define AR_MAGIC_LEN 8
#define AR_HDR_LEN 60

/* A decimal field of an ar header (blank-padded); -1 when not one. */
static long long ar_num(const char *f, size_t n)
{
	long long v = 0;
	size_t i = 0;

	while (i < n && f[i] == ' ')
		i++;
	if (i == n || f[i] < '0' || f[i] > '9')
		return -1;
	for (; i < n && f[i] >= '0' && f[i] <= '9'; i++) {
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (f[i] - '0');
	}
	for (; i < n; i++)
		if (f[i] != ' ')
			return -1;
	return v;
}

/*
 * The offset of a long name: the digits after "/" in the name field.  GNU
 * ar may write more after them ("/4872          /": a member Kbuild moved
 * with `ar mPiT`), which says nothing about the name.  -1 when no digit.
 */
static long long long_offset(const char *f)
{
	size_t n = 0;

	while (n < 15 && f[n] >= '0' && f[n] <= '9')
		n++;
	if (!n || n > 12)
		return -1;
	return ar_num(f, n);
}

/* The long name at off in the "//" table: it ends with "/\n". */
static int long_name(const char *tab, size_t tab_len, long long off,
		     const char **ret, size_t *ret_len)
{
	size_t e;

	if (!tab || off < 0 || (size_t)off >= tab_len)
		return -EINVAL;
	for (e = (size_t)off; e < tab_len && tab[e] != '\n'; e++)
		;
	if (e > (size_t)off && tab[e - 1] == '/')
		e--;
	*ret = tab + off;
	*ret_len = e - (size_t)off;
	return 0;
}

int kbuild_ar_members(const char *buf, size_t n, kbuild_name_fn fn, void *ud)
{
	const char *tab = NULL;
	size_t tab_len = 0, pos = AR_MAGIC_LEN;
	bool thin;
	int count = 0;

	if (!buf || n < AR_MAGIC_LEN)
		return -EINVAL;
	if (!memcmp(buf, "!<thin>\n", AR_MAGIC_LEN))
		thin = true;
	else if (!memcmp(buf, "!<arch>\n", AR_MAGIC_LEN))
		thin = false;
	else
		return -EINVAL;
	while (pos < n) {
		const char *h = buf + pos, *name = h;
		size_t name_len;
		long long size;
		bool special, data;

		if (n - pos < AR_HDR_LEN || memcmp(h + 58, "`\n", 2))
			return -EINVAL;
		size = ar_num(h + 48, 10);
		if (size < 0)
			return -EINVAL;
		pos += AR_HDR_LEN;
		/* "/", "/SYM64/": symbol tables; "//": long names. */
		special = h[0] == '/' && (h[1] == ' ' || h[1] == '/' ||
					  !memcmp(h, "/SYM64/", 7));
		data = special || !thin;
		if (data && (unsigned long long)size > n - pos)
			return -EINVAL;
		if (special && h[1] == '/') {
			tab = buf + pos;
			tab_len = (size_t)size;
		} else if (!special) {
			if (h[0] == '/') {
				if (long_name(tab, tab_len, long_offset(h + 1),
					      &name, &name_len) < 0)
					return -EINVAL;
			} else {
				for (name_len = 0; name_len < 16 &&
						   h[name_len] != '/' &&
						   h[name_len] != ' ';
				     name_len++)
					;
			}
			if (fn) {
				int r = fn(ud, name, name_len);

				if (r < 0)
					return r;
			}
			count++;
		}
		if (data) {
			pos += (size_t)size;
			pos += pos & 1; /* members start on even offsets */
		}
	}
	return count;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

int kbuild_words(const char *buf, size_t n, kbuild_name_fn fn, void *ud)
{
	int count = 0;

	for (size_t i = 0; buf && i < n;) {
		size_t s;

		while (i < n && blank(buf[i]))
			i++;
		for (s = i; i < n && !blank(buf[i]); i++)
			;
		if (i == s)
			continue;
		if (fn) {
			int r = fn(ud, buf + s, i - s);

			if (r < 0)
				return r;
		}
		count++;
	}
	return count;
}

static bool line_is(const char *l, size_t len, const char *w)
{
	return len == strlen(w) && !memcmp(l, w, len);
}

void kbuild_ccache_log(const char *buf, size_t n, struct kbuild_ccache *ret)
{
	bool in = false, counted = false;

	*ret = (struct kbuild_ccache){ 0 };
	for (size_t i = 0; buf && i < n;) {
		const char *l = buf + i;
		const char *nl = memchr(l, '\n', n - i);
		size_t len = nl ? (size_t)(nl - l) : n - i;

		i += len + (nl != NULL);
		if (len && l[0] == '#') {
			if (in && !counted)
				ret->other++;
			in = true;
			counted = false;
			continue;
		}
		if (!in || counted)
			continue;
		if (line_is(l, len, "direct_cache_hit") ||
		    line_is(l, len, "preprocessed_cache_hit")) {
			ret->hits++;
			counted = true;
		} else if (line_is(l, len, "cache_miss")) {
			ret->misses++;
			counted = true;
		}
	}
	if (in && !counted)
		ret->other++;
}
