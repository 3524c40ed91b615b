// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/plan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/arch.h"
#include "core/distcc.h"
#include "core/groups.h"
#include "util/paths.h"
#include "util/xalloc.h"

#define MAX_WORDS 64

/* Every error of a plan is bad input at file:line. */
#define fail(err, file, line, ...)                                             \
	strbuf_fail_at((err), -EINVAL, (file), (line), __VA_ARGS__)

static void items_free(struct plan_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].arch);
		free(v[i].value);
	}
	free(v);
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->file);
	strv_free(p->arches, p->n_arches);
	strv_free(p->file_arches, p->n_file_arches);
	items_free(p->bases, p->n_bases);
	items_free(p->base_groups, p->n_base_groups);
	items_free(p->groups, p->n_groups);
	strv_free(p->scenarios, p->n_scenarios);
	strv_free(p->distcc, p->n_distcc);
	free(p);
}

static bool in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static void add_item(struct plan_item **v, size_t *n, const char *arch,
		     const char *value, unsigned line)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[*n].arch = arch ? xstrdup(arch) : NULL;
	(*v)[*n].value = xstrdup(value);
	(*v)[*n].line = line;
	(*n)++;
}

static void add_str(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(char *));
	(*v)[(*n)++] = xstrdup(s);
}

static bool group_word_ok(const char *w)
{
	return strchr(w, '/') || group_name_valid(w);
}

const char *plan_candidate_kind_name(unsigned kind_bit)
{
	switch (kind_bit) {
	case PLAN_CAND_BASE:
		return "base";
	case PLAN_CAND_EACH:
		return "each";
	case PLAN_CAND_ALL:
		return "all";
	}
	return NULL;
}

static int parse_uint(const char *s, unsigned max, unsigned *ret)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

/* Split a line (modified in place) into words; '#' ends it. */
static size_t split(char *s, char **words, size_t max, bool *too_many)
{
	size_t n = 0;
	char *hash = strchr(s, '#');

	if (hash)
		*hash = '\0';
	*too_many = false;
	for (;;) {
		s += strspn(s, " \t\r\v\f");
		if (!*s)
			break;
		if (n == max) {
			*too_many = true;
			break;
		}
		words[n++] = s;
		s += strcspn(s, " \t\r\v\f");
		if (*s)
			*s++ = '\0';
	}
	return n;
}

struct seen {
	unsigned name, arch, candidates, timeout, boots;
};

static int directive(struct plan *p, struct seen *seen, const char *file,
		     unsigned ln, const char *arch, char **w, size_t n,
		     struct strbuf *err)
{
	const char *key = w[0];

	if (n < 2)
		return fail(err, file, ln, "'%s' needs a value", key);
	if (arch && (!strcmp(key, "name") || !strcmp(key, "arch") ||
		     !strcmp(key, "candidates")))
		return fail(err, file, ln, "'%s' cannot be given per arch",
			    key);

	if (!strcmp(key, "name")) {
		if (seen->name)
			return fail(err, file, ln, "name given twice (first "
				    "at line %u)", seen->name);
		if (n != 2 || !group_name_valid(w[1]))
			return fail(err, file, ln, "name: expected one word of "
				    "[a-z0-9_.-], got '%s'", w[1]);
		seen->name = ln;
		free(p->name);
		p->name = xstrdup(w[1]);
		return 0;
	}
	if (!strcmp(key, "arch")) {
		if (seen->arch)
			return fail(err, file, ln, "arch given twice (first "
				    "at line %u)", seen->arch);
		seen->arch = ln;
		for (size_t i = 1; i < n; i++) {
			if (!in_list(bp_arch_names, w[i]))
				return fail(err, file, ln, "unknown arch '%s' "
					    "(x86_64 or i386)", w[i]);
			for (size_t j = 0; j < p->n_arches; j++)
				if (!strcmp(p->arches[j], w[i]))
					return fail(err, file, ln, "arch %s "
						    "given twice", w[i]);
			add_str(&p->arches, &p->n_arches, w[i]);
		}
		return 0;
	}
	if (!strcmp(key, "base")) {
		if (n != 2)
			return fail(err, file, ln, "base: expected one base "
				    "(targets joined by '+', or a file)");
		add_item(&p->bases, &p->n_bases, arch, w[1], ln);
		return 0;
	}
	if (!strcmp(key, "base-group") || !strcmp(key, "group")) {
		bool base = key[4] == '-';

		for (size_t i = 1; i < n; i++) {
			if (!group_word_ok(w[i]))
				return fail(err, file, ln, "%s: '%s' is neither "
					    "a group name ([a-z0-9][a-z0-9_.-]*) "
					    "nor a path (with a '/')", key, w[i]);
			if (base)
				add_item(&p->base_groups, &p->n_base_groups,
					 arch, w[i], ln);
			else
				add_item(&p->groups, &p->n_groups, arch, w[i],
					 ln);
		}
		return 0;
	}
	if (!strcmp(key, "candidates")) {
		if (seen->candidates)
			return fail(err, file, ln, "candidates given twice "
				    "(first at line %u)", seen->candidates);
		seen->candidates = ln;
		p->candidates = 0;
		for (size_t i = 1; i < n; i++) {
			if (!strcmp(w[i], "base"))
				p->candidates |= PLAN_CAND_BASE;
			else if (!strcmp(w[i], "each"))
				p->candidates |= PLAN_CAND_EACH;
			else if (!strcmp(w[i], "all"))
				p->candidates |= PLAN_CAND_ALL;
			else
				return fail(err, file, ln, "unknown candidates "
					    "'%s' (base, each, all)", w[i]);
		}
		return 0;
	}
	if (!strcmp(key, "scenarios")) {
		if (arch)
			return fail(err, file, ln, "'scenarios' cannot be "
				    "given per arch");
		for (size_t i = 1; i < n; i++) {
			if (!in_list(group_known_scenarios, w[i]))
				return fail(err, file, ln, "unknown scenario "
					    "'%s'", w[i]);
			add_str(&p->scenarios, &p->n_scenarios, w[i]);
		}
		return 0;
	}
	if (!strcmp(key, "timeout")) {
		if (arch)
			return fail(err, file, ln, "'timeout' cannot be given "
				    "per arch");
		if (seen->timeout)
			return fail(err, file, ln, "timeout given twice (first "
				    "at line %u)", seen->timeout);
		seen->timeout = ln;
		if (n != 2 || parse_uint(w[1], 86400, &p->timeout_s) < 0 ||
		    !p->timeout_s)
			return fail(err, file, ln, "timeout: expected seconds "
				    "(1..86400), got '%s'", w[1]);
		return 0;
	}
	if (!strcmp(key, "boots")) {
		if (arch)
			return fail(err, file, ln, "'boots' cannot be given "
				    "per arch");
		if (seen->boots)
			return fail(err, file, ln, "boots given twice (first "
				    "at line %u)", seen->boots);
		seen->boots = ln;
		if (n != 2 || parse_uint(w[1], PLAN_MAX_BOOTS, &p->boots) < 0 ||
		    !p->boots)
			return fail(err, file, ln, "boots: expected a count "
				    "(1..%u), got '%s'", PLAN_MAX_BOOTS,
				    n > 1 ? w[1] : "");
		return 0;
	}
	if (!strcmp(key, "distcc")) {
		if (arch)
			return fail(err, file, ln, "'distcc' cannot be given "
				    "per arch");
		for (size_t i = 1; i < n; i++) {
			_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

			if (distcc_host_check(w[i], NULL, &why) < 0)
				return fail(err, file, ln, "distcc: %s", why.buf);
			add_str(&p->distcc, &p->n_distcc, w[i]);
		}
		return 0;
	}
	return fail(err, file, ln, "unknown directive '%s' (name, arch, base, "
		    "base-group, group, candidates, scenarios, timeout, boots, "
		    "distcc)", key);
}

int plan_parse(const char *file, const char *buf, size_t len,
	       struct plan **ret, struct strbuf *err)
{
	_cleanup_plan_ struct plan *p = xcalloc(1, sizeof(*p));
	struct seen seen = { 0 };
	unsigned ln = 0;
	size_t off = 0;
	int r;

	p->file = xstrdup(file);
	p->name = path_stem(file, ".plan");
	p->candidates = PLAN_CAND_BASE | PLAN_CAND_EACH | PLAN_CAND_ALL;

	while (off < len) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (buf + off)) : len - off;
		_cleanup_free_ char *line = NULL;
		char *words[MAX_WORDS];
		const char *arch = NULL;
		bool too_many;
		size_t n;

		ln++;
		if (memchr(buf + off, '\0', l))
			return fail(err, file, ln, "NUL byte in a plan file");
		line = xstrndup(buf + off, l);
		off += l + (nl ? 1 : 0);
		n = split(line, words, MAX_WORDS, &too_many);
		if (too_many)
			return fail(err, file, ln, "more than %d words",
				    MAX_WORDS);
		if (!n)
			continue;
		/* "ARCH:" prefix, as its own word or glued to the key */
		{
			char *colon = strchr(words[0], ':');

			if (colon) {
				*colon = '\0';
				arch = words[0];
				if (!in_list(bp_arch_names, arch))
					return fail(err, file, ln, "unknown arch "
						    "'%s' before ':' (x86_64 or "
						    "i386)", arch);
				if (colon[1]) {
					words[0] = colon + 1;
				} else {
					memmove(words, words + 1,
						--n * sizeof(char *));
					if (!n)
						return fail(err, file, ln,
							    "'%s:' with no "
							    "directive", arch);
				}
			}
		}
		r = directive(p, &seen, file, ln, arch, words, n, err);
		if (r < 0)
			return r;
	}

	if (!p->n_arches)
		return fail(err, file, 0, "no 'arch' line (e.g. 'arch x86_64 "
			    "i386')");
	for (size_t i = 0; i < p->n_arches; i++)
		if (!plan_base(p, p->arches[i]))
			return fail(err, file, 0, "no 'base' for %s (e.g. "
				    "'base tinyconfig' or '%s: base ...')",
				    p->arches[i], p->arches[i]);
	*ret = TAKE_PTR(p);
	return 0;
}

bool plan_item_for(const struct plan_item *it, const char *arch)
{
	return !it->arch || !strcmp(it->arch, arch);
}

const struct plan_item *plan_base(const struct plan *p, const char *arch)
{
	const struct plan_item *any = NULL, *mine = NULL;

	for (size_t i = 0; i < p->n_bases; i++) {
		if (!p->bases[i].arch)
			any = &p->bases[i];
		else if (!strcmp(p->bases[i].arch, arch))
			mine = &p->bases[i];
	}
	return mine ? mine : any;
}

int plan_set_arches(struct plan *p, const char *const *arches, size_t n,
		    struct strbuf *err)
{
	char **v = NULL;
	size_t nv = 0;

	for (size_t i = 0; i < n; i++) {
		if (!in_list(bp_arch_names, arches[i])) {
			strv_free(v, nv);
			return fail(err, "--arch", 0, "unknown arch '%s' "
				    "(x86_64 or i386)", arches[i]);
		}
		if (!plan_base(p, arches[i])) {
			strv_free(v, nv);
			return fail(err, p->file, 0, "no 'base' for %s",
				    arches[i]);
		}
		add_str(&v, &nv, arches[i]);
	}
	if (!p->file_arches) {
		p->file_arches = p->arches;
		p->n_file_arches = p->n_arches;
	} else {
		strv_free(p->arches, p->n_arches);
	}
	p->arches = v;
	p->n_arches = nv;
	return 0;
}

/* Group words given on the command line (option opt) as plan items in
 * *ret, after checking each; *ret is replaced only when all are good. */
static int items_from_args(const char *opt, const char *const *groups,
			   size_t n, struct plan_item **ret, size_t *ret_n,
			   struct strbuf *err)
{
	struct plan_item *v = NULL;
	size_t nv = 0;

	for (size_t i = 0; i < n; i++) {
		if (!group_word_ok(groups[i])) {
			items_free(v, nv);
			return fail(err, opt, 0, "'%s' is neither a group "
				    "name nor a path (with a '/')", groups[i]);
		}
		add_item(&v, &nv, NULL, groups[i], 0);
	}
	items_free(*ret, *ret_n);
	*ret = v;
	*ret_n = nv;
	return 0;
}

int plan_set_groups(struct plan *p, const char *const *groups, size_t n,
		    struct strbuf *err)
{
	int r = items_from_args("--group", groups, n, &p->groups,
				&p->n_groups, err);

	if (r == 0)
		p->groups_from_args = true;
	return r;
}

int plan_set_base(struct plan *p, const char *base, struct strbuf *err)
{
	if (!base || !*base)
		return fail(err, "--base", 0, "an empty base (targets joined "
			    "by '+', or a config file)");
	items_free(p->bases, p->n_bases);
	p->bases = NULL;
	p->n_bases = 0;
	add_item(&p->bases, &p->n_bases, NULL, base, 0);
	p->base_from_args = true;
	return 0;
}

int plan_set_base_groups(struct plan *p, const char *const *groups, size_t n,
			 struct strbuf *err)
{
	int r = items_from_args("--base-group", groups, n, &p->base_groups,
				&p->n_base_groups, err);

	if (r == 0)
		p->base_groups_from_args = true;
	return r;
}

int plan_set_candidates(struct plan *p, const char *const *kinds, size_t n,
			struct strbuf *err)
{
	static const unsigned bits[] = { PLAN_CAND_BASE, PLAN_CAND_EACH,
					 PLAN_CAND_ALL };
	unsigned v = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned b = 0;

		for (size_t k = 0; k < ELEMENTSOF(bits); k++)
			if (!strcmp(kinds[i], plan_candidate_kind_name(bits[k])))
				b = bits[k];
		if (!b)
			return fail(err, "--candidates", 0, "unknown candidates "
				    "'%s' (base, each, all)", kinds[i]);
		v |= b;
	}
	if (!v)
		return fail(err, "--candidates", 0, "no candidate kind "
			    "(base, each, all)");
	p->candidates = v;
	p->candidates_from_args = true;
	return 0;
}

bool plan_allows_scenario(const struct plan *p, const char *s)
{
	if (!p->scenarios)
		return true;
	for (size_t i = 0; i < p->n_scenarios; i++)
		if (!strcmp(p->scenarios[i], s))
			return true;
	return false;
}

int plan_set_distcc(struct plan *p, const char *const *hosts, size_t n,
		    struct strbuf *err)
{
	char **v = NULL;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		if (distcc_host_check(hosts[i], NULL, &why) < 0) {
			strv_free(v, k);
			return strbuf_fail(err, -EINVAL, "--distcc %s", why.buf);
		}
		add_str(&v, &k, hosts[i]);
	}
	strv_free(p->distcc, p->n_distcc);
	p->distcc = v;
	p->n_distcc = k;
	p->distcc_from_args = true;
	return 0;
}
