// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/plangroups.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "engine/configstage.h"
#include "util/paths.h"
#include "util/xalloc.h"

/* A plan word: a name, or a path relative to the plan file's directory. */
static char *group_arg(const struct plan *p, const char *value)
{
	_cleanup_free_ char *f = NULL;

	if (!strchr(value, '/') || value[0] == '/')
		return xstrdup(value);
	f = xstrdup(p->file);
	return path_join(dirname(f), value);
}

static bool has_group(struct group **v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i]->name, name))
			return true;
	return false;
}

static void add_name(struct plangroups *m, const char *name)
{
	for (size_t i = 0; i < m->n_names; i++)
		if (!strcmp(m->names[i], name))
			return;
	m->names = xrealloc(m->names, (m->n_names + 1) * sizeof(char *));
	m->names[m->n_names++] = xstrdup(name);
}

/* The name a plan word stands for when its file is missing. */
static const char *word_name(const char *value)
{
	const char *b = strrchr(value, '/');

	return b ? b + 1 : value;
}

/* Load the plan word it for arch (a path relative to the plan file). */
static int load(const struct plan *p, const char *datadir,
		const struct plan_item *it, const char *arch,
		struct group **ret, struct strbuf *e)
{
	_cleanup_free_ char *arg = group_arg(p, it->value);

	return configstage_load_group(datadir, arch, arg, ret, e);
}

/* Append g to v, unless a group of that name is there already (or in
 * also): then g is freed. */
static void add_group(struct group ***v, size_t *n, struct group **also,
		      size_t n_also, struct group *g)
{
	if (has_group(*v, *n, g->name) || has_group(also, n_also, g->name)) {
		group_free(g);
		return;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = g;
}

static int load_arch(const struct plan *p, const char *datadir,
		     struct plangroups *m, struct matrixrec_arch *as,
		     bool *found, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf e = STRBUF_INIT;
	struct group *g;
	int r;

	as->arch = p->arches[as - m->arches];
	as->base = plan_base(p, as->arch)->value;
	for (size_t i = 0; i < p->n_base_groups; i++) {
		const struct plan_item *it = &p->base_groups[i];

		if (!plan_item_for(it, as->arch))
			continue;
		r = load(p, datadir, it, as->arch, &g, &e);
		if (r < 0)
			return strbuf_fail(err, r, "%s:%u: base-group %s for %s: %s",
					   p->file, it->line, it->value,
					   as->arch, e.buf);
		add_group(&as->base_groups, &as->n_base_groups, NULL, 0, g);
	}
	for (size_t i = 0; i < p->n_groups; i++) {
		const struct plan_item *it = &p->groups[i];

		if (!plan_item_for(it, as->arch))
			continue;
		r = load(p, datadir, it, as->arch, &g, &e);
		if (r == -ENOENT && !strchr(it->value, '/')) {
			/* Not for this arch: a SKIP, unless no arch
			 * has it (checked below). */
			add_name(m, it->value);
			continue;
		}
		if (r < 0)
			return strbuf_fail(err, r, "%s%s%.0u%s group %s for %s: %s",
					   p->file, it->line ? ":" : "",
					   it->line, it->line ? ":" : "",
					   it->value, as->arch, e.buf);
		found[i] = true;
		add_name(m, g->name);
		add_group(&as->groups, &as->n_groups, as->base_groups,
			  as->n_base_groups, g);
	}
	return 0;
}

/* True when the plan file's group item exists for one of the file's own
 * arches that plan_set_arches() replaced. */
static bool in_file_arch(const struct plan *p, const char *datadir,
			 const struct plan_item *it)
{
	_cleanup_strbuf_ struct strbuf e = STRBUF_INIT;

	for (size_t a = 0; a < p->n_file_arches; a++) {
		struct group *g = NULL;
		int r;

		if (!plan_item_for(it, p->file_arches[a]))
			continue;
		r = configstage_load_group(datadir, p->file_arches[a],
					   it->value, &g, &e);
		group_free(g);
		if (r == 0)
			return true;
	}
	return false;
}

int plangroups_load(const struct plan *p, const char *datadir,
		    struct plangroups *m, struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf e = STRBUF_INIT;
	_cleanup_free_ bool *found = calloc(p->n_groups + 1, sizeof(bool));
	int r;

	if (!found)
		return -ENOMEM;
	m->arches = calloc(p->n_arches, sizeof(*m->arches));
	if (!m->arches)
		return -ENOMEM;
	m->n_arches = p->n_arches;
	for (size_t a = 0; a < p->n_arches; a++) {
		r = load_arch(p, datadir, m, &m->arches[a], found, err);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < p->n_groups; i++) {
		bool any_arch = false;

		for (size_t a = 0; a < p->n_arches; a++)
			if (plan_item_for(&p->groups[i], p->arches[a]))
				any_arch = true;
		if (!found[i] && any_arch && p->groups[i].line &&
		    in_file_arch(p, datadir, &p->groups[i])) {
			/* A group of the file for an arch --arch left
			 * out: a SKIP for the arches run. */
			continue;
		}
		if (!found[i] && any_arch) {
			/* Say what configstage says about the first arch. */
			struct group *g = NULL;
			const char *arch = p->groups[i].arch ? p->groups[i].arch
							     : p->arches[0];

			r = configstage_load_group(datadir, arch,
						   p->groups[i].value, &g, &e);
			group_free(g);
			if (p->groups[i].line)
				return strbuf_fail(err, -ENOENT, "%s:%u: group %s: no "
					    "such group for any arch of the "
					    "plan: %s", p->file,
					    p->groups[i].line,
					    word_name(p->groups[i].value), e.buf);
			return strbuf_fail(err, -ENOENT, "--group %s: no such group for "
				    "any arch of the plan: %s",
				    p->groups[i].value, e.buf);
		}
	}
	return 0;
}

void plangroups_done(struct plangroups *g)
{
	for (size_t i = 0; i < g->n_arches; i++) {
		configstage_groups_free(g->arches[i].base_groups,
					g->arches[i].n_base_groups);
		configstage_groups_free(g->arches[i].groups,
					g->arches[i].n_groups);
	}
	free(g->arches);
	for (size_t i = 0; i < g->n_names; i++)
		free(g->names[i]);
	free(g->names);
	*g = (struct plangroups){ 0 };
}
