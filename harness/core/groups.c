// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/groups.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../scenarios/contract.h"
#include "core/arch.h"
#include "util/paths.h"
#include "util/xalloc.h"

const char *const group_known_scenarios[] = {
	BP_FEATURE_SCENARIOS(BP_SCENARIO_NAME) NULL,
};

bool group_in_list(const char *const *list, const char *s, size_t len)
{
	for (; *list; list++)
		if (strlen(*list) == len && !memcmp(*list, s, len))
			return true;
	return false;
}

bool group_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64)
		return false;
	if (!((name[0] >= 'a' && name[0] <= 'z') ||
	      (name[0] >= '0' && name[0] <= '9')))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			return false;
	}
	return true;
}

void group_free(struct group *g)
{
	if (!g)
		return;
	free(g->name);
	free(g->arch);
	for (size_t i = 0; i < g->n_scenarios; i++)
		free(g->scenarios[i]);
	free(g->scenarios);
	free(g->from);
	free(g->summary);
	free(g->file);
	kconfig_free(g->options);
	free(g);
}

bool group_for_arch(const struct group *g, const char *arch)
{
	return !g->arch || !strcmp(g->arch, arch);
}

bool group_has_scenario(const struct group *g, const char *s)
{
	for (size_t i = 0; i < g->n_scenarios; i++)
		if (!strcmp(g->scenarios[i], s))
			return true;
	return false;
}

/* Every error of a group file is bad input at file:line. */
#define fail(err, file, line, ...)                                             \
	strbuf_fail_at((err), -EINVAL, (file), (line), __VA_ARGS__)

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Trim [*s, *s + *n) in place. */
static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

enum hdr_key { HDR_GROUP, HDR_ARCH, HDR_SCENARIOS, HDR_FROM, HDR_SUMMARY,
	       HDR_MAX };
static const char *const hdr_names[HDR_MAX] = {
	"group", "arch", "scenarios", "from", "summary",
};

/*
 * If line is "# key: value" with a known key, return the key and the
 * trimmed value; else -1.
 */
static int header_key(const char *line, size_t n, const char **ret_val,
		      size_t *ret_len)
{
	const char *colon;
	const char *k;
	size_t klen;

	if (!n || line[0] != '#')
		return -1;
	line++, n--;
	trim(&line, &n);
	colon = memchr(line, ':', n);
	if (!colon)
		return -1;
	k = line;
	klen = (size_t)(colon - line);
	for (int i = 0; i < HDR_MAX; i++) {
		if (strlen(hdr_names[i]) != klen || memcmp(hdr_names[i], k, klen))
			continue;
		*ret_val = colon + 1;
		*ret_len = n - klen - 1;
		trim(ret_val, ret_len);
		return i;
	}
	return -1;
}

static bool is_option_line(const char *line, size_t n)
{
	trim(&line, &n);
	if (n >= 7 && !memcmp(line, "CONFIG_", 7))
		return true;
	if (n >= 9 && !memcmp(line, "# CONFIG_", 9))
		return true;
	return false;
}

static int parse_scenarios(struct group *g, const char *v, size_t n,
			   struct strbuf *err, const char *file, unsigned line)
{
	size_t i = 0;

	while (i < n) {
		size_t start, len;

		while (i < n && (v[i] == ',' || is_space(v[i])))
			i++;
		if (i >= n)
			break;
		start = i;
		while (i < n && v[i] != ',' && !is_space(v[i]))
			i++;
		len = i - start;
		if (!group_in_list(group_known_scenarios, v + start, len)) {
			struct strbuf known = STRBUF_INIT;
			int r;

			for (size_t k = 0; group_known_scenarios[k]; k++)
				strbuf_addf(&known, "%s%s", k ? ", " : "",
					    group_known_scenarios[k]);
			r = fail(err, file, line,
				 "unknown scenario '%.*s' (known: %s)",
				 (int)len, v + start, known.buf);
			strbuf_release(&known);
			return r;
		}
		for (size_t k = 0; k < g->n_scenarios; k++)
			if (strlen(g->scenarios[k]) == len &&
			    !memcmp(g->scenarios[k], v + start, len))
				return fail(err, file, line,
					    "scenario '%.*s' named twice",
					    (int)len, v + start);
		g->scenarios = xreallocarray(g->scenarios, g->n_scenarios + 1,
					     sizeof(char *));
		g->scenarios[g->n_scenarios++] = xstrndup(v + start, len);
	}
	if (!g->n_scenarios)
		return fail(err, file, line, "no scenario named");
	return 0;
}

/* Set header field k from value v (already trimmed, non-empty). */
static int set_header(struct group *g, int k, const char *v, size_t n,
		      struct strbuf *err, const char *file, unsigned line)
{
	switch (k) {
	case HDR_GROUP: {
		_cleanup_free_ char *name = xstrndup(v, n);

		if (!group_name_valid(name))
			return fail(err, file, line,
				    "invalid group name '%s' (expected "
				    "[a-z0-9][a-z0-9_.-]*)",
				    name);
		g->name = TAKE_PTR(name);
		return 0;
	}
	case HDR_ARCH:
		if (!group_in_list(bp_arch_names, v, n))
			return fail(err, file, line,
				    "unknown arch '%.*s' (expected x86_64 or "
				    "i386)",
				    (int)n, v);
		g->arch = xstrndup(v, n);
		return 0;
	case HDR_SCENARIOS:
		return parse_scenarios(g, v, n, err, file, line);
	case HDR_FROM:
		g->from = xstrndup(v, n);
		return 0;
	case HDR_SUMMARY: {
		struct strbuf sb = STRBUF_INIT;

		if (g->summary) {
			strbuf_addstr(&sb, g->summary);
			strbuf_addch(&sb, ' ');
			free(g->summary);
		}
		strbuf_add(&sb, v, n);
		g->summary = strbuf_detach(&sb, NULL);
		return 0;
	}
	}
	return -EINVAL;
}

int group_parse(const char *file, const char *buf, size_t len, unsigned flags,
		struct group **ret, struct strbuf *err)
{
	_cleanup_group_ struct group *g = NULL;
	_cleanup_kconfig_error_ struct kconfig_error kerr = KCONFIG_ERROR_INIT;
	bool seen[HDR_MAX] = { false };
	bool options_started = false;
	unsigned lineno = 0;
	size_t pos = 0;
	int r;

	g = xcalloc(1, sizeof(*g));
	g->file = xstrdup(file);

	while (pos < len) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		const char *v;
		size_t vlen;
		int k;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (is_option_line(line, n)) {
			options_started = true;
			continue;
		}
		k = header_key(line, n, &v, &vlen);
		if (k < 0)
			continue;
		if (options_started)
			return fail(err, file, lineno,
				    "header line '# %s:' after the first option "
				    "(header comments come first)",
				    hdr_names[k]);
		if (seen[k] && k != HDR_SUMMARY)
			return fail(err, file, lineno, "'# %s:' given twice",
				    hdr_names[k]);
		if (!vlen)
			return fail(err, file, lineno, "empty '# %s:'",
				    hdr_names[k]);
		seen[k] = true;
		g->has_header = true;
		r = set_header(g, k, v, vlen, err, file, lineno);
		if (r < 0)
			return r;
	}

	if (flags & GROUP_PARSE_STRICT) {
		static const int required[] = { HDR_GROUP, HDR_ARCH,
						HDR_SCENARIOS, HDR_FROM };

		for (size_t i = 0; i < ELEMENTSOF(required); i++) {
			int k = required[i];

			if (!seen[k])
				return fail(err, file, 0,
					    "missing header line '# %s: ...'",
					    hdr_names[k]);
		}
	}
	if (!g->name)
		g->name = path_stem(file, ".config");
	if (!g->n_scenarios) {
		g->scenarios = xmalloc(sizeof(char *));
		g->scenarios[0] = xstrdup("boot");
		g->n_scenarios = 1;
	}

	kconfig_new(&g->options);
	r = kconfig_parse(g->options, file, buf, len, &kerr);
	if (r == -EINVAL) {
		if (err) {
			strbuf_reset(err);
			strbuf_addstr(err, kerr.msg.buf);
		}
		return r;
	}
	if (r < 0)
		return r;
	if (kconfig_count(g->options) == 0)
		return fail(err, file, 0, "no options (expected CONFIG_NAME=value "
				     "or '# CONFIG_NAME is not set' lines)");
	*ret = TAKE_PTR(g);
	return 0;
}
