// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapters/image_guestfs.h"
#include "adapters/proc.h"
#include "core/groups.h"
#include "core/groupverdict.h"
#include "core/recjson.h"
#include "engine/boot.h"
#include "engine/buildstage.h"
#include "engine/configstage.h"
#include "util/clock.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------ progress */

/*
 * One line per candidate and stage.  On a terminal the line is redrawn
 * every second with the stage's elapsed time and what it is doing (make's
 * last line, the boot's last milestone), then left with its result; else
 * a plain line when a stage starts and one when it ends.
 */
struct progress {
	bool tty, quiet;
	pthread_mutex_t mu;
	pthread_t thr;
	bool have_thr;
	volatile bool stop;
	bool active;
	char what[160];
	char detail[240];
	double t0;
};


static void fmt_elapsed(char *buf, size_t n, double s)
{
	unsigned v = s < 0 ? 0 : (unsigned)s;

	if (v >= 3600)
		snprintf(buf, n, "%u:%02u:%02u", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, n, "%u:%02u", v / 60, v % 60);
}

/* Caller holds mu. */
static void prog_draw(struct progress *p)
{
	struct winsize ws = { 0 };
	char el[32], line[512];
	int cols = 80;

	if (!p->active)
		return;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		cols = ws.ws_col;
	fmt_elapsed(el, sizeof(el), clock_mono_s() - p->t0);
	snprintf(line, sizeof(line), "  %-32s %7s  %s", p->what, el, p->detail);
	if ((int)strlen(line) >= cols)
		line[cols - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

static void *prog_thread(void *ud)
{
	struct progress *p = ud;

	while (!p->stop) {
		struct timespec ts = { 0, 250 * 1000000L };

		pthread_mutex_lock(&p->mu);
		prog_draw(p);
		pthread_mutex_unlock(&p->mu);
		for (int i = 0; i < 4 && !p->stop; i++)
			nanosleep(&ts, NULL);
	}
	return NULL;
}

static void prog_init(struct progress *p, bool quiet)
{
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->mu, NULL);
	p->quiet = quiet;
	p->tty = !quiet && isatty(STDERR_FILENO) && getenv("TERM") &&
		 strcmp(getenv("TERM"), "dumb");
	if (p->tty) {
		sigset_t all, old;

		/* Signals are for the main thread (its proc_run and boot
		 * loops notice them). */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		p->have_thr = pthread_create(&p->thr, NULL, prog_thread, p) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
}

static void prog_done(struct progress *p)
{
	p->stop = true;
	if (p->have_thr)
		pthread_join(p->thr, NULL);
	pthread_mutex_destroy(&p->mu);
}

static void prog_start(struct progress *p, const char *cand,
		       const char *stage)
{
	if (p->quiet)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->what, sizeof(p->what), "%s %s", cand, stage);
	p->detail[0] = '\0';
	p->t0 = clock_mono_s();
	p->active = true;
	if (p->tty)
		prog_draw(p);
	else
		fprintf(stderr, "bootproof: %s: %s ...\n", cand, stage);
	pthread_mutex_unlock(&p->mu);
}

static void prog_detail(struct progress *p, const char *detail)
{
	if (p->quiet || !p->tty)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->detail, sizeof(p->detail), "%s", detail);
	pthread_mutex_unlock(&p->mu);
}

static void prog_end(struct progress *p, const char *fmt, ...) _printf_(2, 3);
static void prog_end(struct progress *p, const char *fmt, ...)
{
	char msg[512], el[32];
	va_list ap;

	if (p->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&p->mu);
	fmt_elapsed(el, sizeof(el), clock_mono_s() - p->t0);
	if (p->tty)
		fprintf(stderr, "\r\033[K  %-32s %7s  %s\n", p->what, el, msg);
	else
		fprintf(stderr, "bootproof: %s: %s (%.1f s)\n", p->what, msg,
			clock_mono_s() - p->t0);
	p->active = false;
	fflush(stderr);
	pthread_mutex_unlock(&p->mu);
}

/* Clear the live line before another message goes to stderr. */
static void prog_clear(struct progress *p)
{
	if (!p->tty)
		return;
	pthread_mutex_lock(&p->mu);
	fputs("\r\033[K", stderr);
	pthread_mutex_unlock(&p->mu);
}

/* ------------------------------------------------------------ the matrix */

struct archset {
	const char *arch;
	const char *base;
	struct group **base_groups;
	size_t n_base_groups;
	struct group **groups;	/* the plan's groups found for this arch */
	size_t n_groups;
};

struct cand {
	char *id;
	const struct archset *as;
	unsigned kind;		/* PLAN_CAND_* */
	struct group **groups;	/* base groups, then the candidate's */
	size_t n_groups;
	size_t n_base;		/* how many of groups are base groups */
	char *scenarios;	/* "boot,bpf" */
	char *dir;		/* <run>/<id> */
	char *name;		/* libvirt domain name */
	size_t index;		/* in the run's boots */
	json_object *old;	/* the record being resumed, or NULL */
};

struct image_slot {
	const char *arch;
	char *modules;		/* NULL: none */
	struct image_result img;
	int err;		/* < 0: it could not be made */
	char *why;
};

struct matrix {
	const struct matrix_opts *o;
	struct archset *arches;
	size_t n_arches;
	char **names;		/* the plan's group names, in order */
	size_t n_names;
	struct cand *cands;
	size_t n_cands;
	struct run *run;
	struct image_slot *images;
	size_t n_images;
	bool bad_input, infra;
	struct progress prog;
	size_t current;		/* candidate whose boot is running */
	char *toolchain;	/* gcc and ld versions, for the config key */
};

static void matrix_done(struct matrix *m)
{
	for (size_t i = 0; i < m->n_arches; i++) {
		configstage_groups_free(m->arches[i].base_groups,
					m->arches[i].n_base_groups);
		configstage_groups_free(m->arches[i].groups,
					m->arches[i].n_groups);
	}
	free(m->arches);
	for (size_t i = 0; i < m->n_names; i++)
		free(m->names[i]);
	free(m->names);
	for (size_t i = 0; i < m->n_cands; i++) {
		free(m->cands[i].id);
		free(m->cands[i].groups);
		free(m->cands[i].scenarios);
		free(m->cands[i].dir);
		free(m->cands[i].name);
		json_object_put(m->cands[i].old);
	}
	free(m->cands);
	for (size_t i = 0; i < m->n_images; i++) {
		free(m->images[i].modules);
		free(m->images[i].why);
		image_result_done(&m->images[i].img);
	}
	free(m->images);
	free(m->toolchain);
}

/* A path shown relative to the data directory when it is inside it. */
static const char *shown(const struct matrix *m, const char *path)
{
	size_t n = strlen(m->o->datadir);

	if (path && !strncmp(path, m->o->datadir, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

static bool interrupted(const struct matrix *m)
{
	return m->o->interrupted && *m->o->interrupted;
}

/* ------------------------------------------------------------ groups */

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

static void add_name(struct matrix *m, const char *name)
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

static int load_groups(struct matrix *m, struct strbuf *err)
{
	const struct plan *p = m->o->plan;
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
		struct archset *as = &m->arches[a];

		as->arch = p->arches[a];
		as->base = plan_base(p, as->arch)->value;
		for (size_t i = 0; i < p->n_base_groups; i++) {
			const struct plan_item *it = &p->base_groups[i];
			_cleanup_free_ char *arg = NULL;
			struct group *g = NULL;

			if (!plan_item_for(it, as->arch))
				continue;
			arg = group_arg(p, it->value);
			r = configstage_load_group(m->o->datadir, as->arch, arg,
						   &g, &e);
			if (r < 0)
				return strbuf_fail(err, r, "%s:%u: base-group %s for %s: %s",
					    p->file, it->line, it->value,
					    as->arch, e.buf);
			if (has_group(as->base_groups, as->n_base_groups,
				      g->name)) {
				group_free(g);
				continue;
			}
			as->base_groups = xrealloc(
				as->base_groups,
				(as->n_base_groups + 1) * sizeof(*as->base_groups));
			as->base_groups[as->n_base_groups++] = g;
		}
		for (size_t i = 0; i < p->n_groups; i++) {
			const struct plan_item *it = &p->groups[i];
			_cleanup_free_ char *arg = NULL;
			struct group *g = NULL;

			if (!plan_item_for(it, as->arch))
				continue;
			arg = group_arg(p, it->value);
			r = configstage_load_group(m->o->datadir, as->arch, arg,
						   &g, &e);
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
			if (has_group(as->groups, as->n_groups, g->name) ||
			    has_group(as->base_groups, as->n_base_groups,
				      g->name)) {
				group_free(g);
				continue;
			}
			as->groups = xrealloc(as->groups, (as->n_groups + 1) *
								  sizeof(*as->groups));
			as->groups[as->n_groups++] = g;
		}
	}
	for (size_t i = 0; i < p->n_groups; i++) {
		bool any_arch = false;

		for (size_t a = 0; a < p->n_arches; a++)
			if (plan_item_for(&p->groups[i], p->arches[a]))
				any_arch = true;
		if (!found[i] && any_arch) {
			/* Say what configstage says about the first arch. */
			struct group *g = NULL;
			const char *arch = p->groups[i].arch ? p->groups[i].arch
							     : p->arches[0];

			r = configstage_load_group(m->o->datadir, arch,
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

/* ------------------------------------------------------------ candidates */

static void add_cand(struct matrix *m, const struct archset *as,
		     unsigned kind, struct group *const *gs, size_t n)
{
	struct cand *c;
	_cleanup_strbuf_ struct strbuf sc = STRBUF_INIT;
	const char *which = kind == PLAN_CAND_BASE ? "base"
			    : kind == PLAN_CAND_ALL ? "all"
						    : gs[0]->name;

	m->cands = xrealloc(m->cands, (m->n_cands + 1) * sizeof(*m->cands));
	c = &m->cands[m->n_cands];
	memset(c, 0, sizeof(*c));
	c->as = as;
	c->kind = kind;
	c->index = m->n_cands++;
	/* A group called "base" or "all" must not take those ids. */
	if (asprintf(&c->id, "%s-%s%s", as->arch,
		     kind == PLAN_CAND_EACH && (!strcmp(which, "base") ||
						!strcmp(which, "all"))
			     ? "group-"
			     : "",
		     which) < 0)
		abort();
	c->n_base = as->n_base_groups;
	c->n_groups = as->n_base_groups + n;
	c->groups = xrealloc(NULL, (c->n_groups + 1) * sizeof(*c->groups));
	memcpy(c->groups, as->base_groups,
	       as->n_base_groups * sizeof(*c->groups));
	memcpy(c->groups + as->n_base_groups, gs, n * sizeof(*c->groups));

	for (size_t s = 0; group_known_scenarios[s]; s++) {
		const char *name = group_known_scenarios[s];
		bool wanted = !strcmp(name, "boot");

		for (size_t i = 0; i < c->n_groups && !wanted; i++)
			wanted = group_has_scenario(c->groups[i], name);
		if (wanted && plan_allows_scenario(m->o->plan, name))
			strbuf_addf(&sc, "%s%s", sc.len ? "," : "", name);
	}
	c->scenarios = sc.len ? strbuf_detach(&sc, NULL) : xstrdup("boot");
}

static void make_cands(struct matrix *m)
{
	unsigned k = m->o->plan->candidates;

	for (size_t a = 0; a < m->n_arches; a++) {
		const struct archset *as = &m->arches[a];

		if (k & PLAN_CAND_BASE)
			add_cand(m, as, PLAN_CAND_BASE, NULL, 0);
		if (k & PLAN_CAND_EACH)
			for (size_t i = 0; i < as->n_groups; i++)
				add_cand(m, as, PLAN_CAND_EACH, &as->groups[i],
					 1);
		if ((k & PLAN_CAND_ALL) && as->n_groups &&
		    !((k & PLAN_CAND_EACH) && as->n_groups == 1))
			add_cand(m, as, PLAN_CAND_ALL, as->groups,
				 as->n_groups);
	}
}

/* ------------------------------------------------------------ records */

static json_object *rec_of(const struct matrix *m, const struct cand *c)
{
	return json_object_array_get_idx(m->run->boots, c->index);
}

static json_object *cand_json(const struct cand *c)
{
	json_object *o = json_object_new_object();
	json_object *bg = json_object_new_array(), *g = json_object_new_array();

	json_object_object_add(o, "id", jsonx_new_str(c->id));
	json_object_object_add(o, "arch", jsonx_new_str(c->as->arch));
	json_object_object_add(o, "base", jsonx_new_str(c->as->base));
	for (size_t i = 0; i < c->n_groups; i++)
		json_object_array_add(i < c->n_base ? bg : g,
				      jsonx_new_str(c->groups[i]->name));
	json_object_object_add(o, "base_groups", bg);
	json_object_object_add(o, "groups", g);
	json_object_object_add(o, "kind",
			       jsonx_new_str(plan_candidate_kind_name(c->kind)));
	json_object_object_add(o, "scenarios", jsonx_new_str(c->scenarios));
	return o;
}

/* A record for a candidate that has not booted (yet). */
static json_object *stub(const struct cand *c, json_object *config,
			 json_object *build, const char *reason)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", jsonx_new_str(c->name));
	json_object_object_add(o, "arch", jsonx_new_str(c->as->arch));
	json_object_object_add(o, "candidate", cand_json(c));
	json_object_object_add(o, "config", config);
	json_object_object_add(o, "build", build);
	json_object_object_add(o, "verdict", NULL);
	json_object_object_add(o, "reason", jsonx_new_str(reason));
	json_object_object_add(o, "scenarios", json_object_new_array());
	json_object_object_add(o, "complete", json_object_new_boolean(0));
	return o;
}

/* Replace a member of the candidate's record. */
static void rec_set(struct matrix *m, const struct cand *c, const char *key,
		    json_object *v)
{
	json_object_object_add(rec_of(m, c), key, v);
}

/* The candidate's record becomes rec (a boot record): its candidate,
 * config and build members are carried over. */
static void rec_replace(struct matrix *m, const struct cand *c,
			json_object *rec)
{
	json_object *old = rec_of(m, c);
	static const char *const keep[] = { "candidate", "config", "build" };

	for (size_t i = 0; i < ELEMENTSOF(keep); i++)
		json_object_object_add(rec, keep[i],
				       json_object_get(jsonx_get(old, keep[i])));
	run_set_boot(m->run, c->index, rec);
}

static void update_groups(struct matrix *m)
{
	json_object *arr = json_object_new_array();
	const struct plan *p = m->o->plan;

	for (size_t n = 0; n < m->n_names; n++) {
		for (size_t a = 0; a < m->n_arches; a++) {
			const struct archset *as = &m->arches[a];
			const struct group *g = NULL;
			json_object *gv;

			for (size_t i = 0; i < as->n_groups; i++)
				if (!strcmp(as->groups[i]->name, m->names[n]))
					g = as->groups[i];
			if (!g) {
				_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

				strbuf_addf(&why, "no %s group %s (scenarios/"
					    "groups/%s/) in this plan",
					    as->arch, m->names[n], as->arch);
				gv = groupverdict_skip(m->names[n], as->arch,
						       NULL, why.buf);
			} else {
				struct groupverdict_group q = {
					.name = g->name,
					.arch = as->arch,
					.scenarios = (const char *const *)
							     g->scenarios,
					.n_scenarios = g->n_scenarios,
					.plan_scenarios =
						(const char *const *)p->scenarios,
					.n_plan_scenarios = p->n_scenarios,
				};

				gv = groupverdict_decide(m->run->boots, &q);
			}
			json_object_array_add(arr, gv);
		}
	}
	json_object_object_add(m->run->doc, "groups", arr);
}

static void save(struct matrix *m)
{
	int r;

	update_groups(m);
	r = run_save(m->run);
	if (r < 0) {
		prog_clear(&m->prog);
		log_warn_errno(r, "could not save %s/run.json", m->run->dir);
	}
}

static json_object *plan_json(const struct matrix *m)
{
	const struct plan *p = m->o->plan;
	json_object *o = json_object_new_object(), *a, *bases;
	const char *common = m->n_arches ? m->arches[0].base : NULL;
	static const unsigned kinds[] = { PLAN_CAND_BASE, PLAN_CAND_EACH,
					  PLAN_CAND_ALL };

	json_object_object_add(o, "name", jsonx_new_str(p->name));
	json_object_object_add(o, "file", jsonx_new_str(shown(m, p->file)));
	a = json_object_new_array();
	bases = json_object_new_object();
	for (size_t i = 0; i < m->n_arches; i++) {
		json_object_array_add(a, jsonx_new_str(m->arches[i].arch));
		json_object_object_add(bases, m->arches[i].arch,
				       jsonx_new_str(m->arches[i].base));
		if (strcmp(common, m->arches[i].base))
			common = NULL;
	}
	json_object_object_add(o, "arches", a);
	json_object_object_add(o, "base", jsonx_new_str(common));
	json_object_object_add(o, "bases", bases);
	a = json_object_new_array();
	for (size_t i = 0; i < m->n_arches; i++)
		for (size_t j = 0; j < m->arches[i].n_base_groups; j++) {
			const char *n = m->arches[i].base_groups[j]->name;
			bool dup = false;

			for (size_t k = 0; k < json_object_array_length(a); k++)
				dup |= !strcmp(json_object_get_string(
						       json_object_array_get_idx(a, k)),
					       n);
			if (!dup)
				json_object_array_add(a, jsonx_new_str(n));
		}
	json_object_object_add(o, "base_groups", a);
	a = json_object_new_array();
	for (size_t i = 0; i < m->n_names; i++)
		json_object_array_add(a, jsonx_new_str(m->names[i]));
	json_object_object_add(o, "groups", a);
	/* What --group said (paths made absolute), for --resume: the plan's
	 * own groups are read from the plan file again. */
	a = NULL;
	if (p->groups_from_args) {
		a = json_object_new_array();
		for (size_t i = 0; i < p->n_groups; i++)
			json_object_array_add(a, jsonx_new_str(p->groups[i].value));
	}
	json_object_object_add(o, "group_args", a);
	a = json_object_new_array();
	for (size_t i = 0; i < ELEMENTSOF(kinds); i++)
		if (p->candidates & kinds[i])
			json_object_array_add(
				a, jsonx_new_str(plan_candidate_kind_name(kinds[i])));
	json_object_object_add(o, "candidates", a);
	if (p->scenarios) {
		a = json_object_new_array();
		for (size_t i = 0; i < p->n_scenarios; i++)
			json_object_array_add(a, jsonx_new_str(p->scenarios[i]));
	} else {
		a = NULL;
	}
	json_object_object_add(o, "scenarios", a);
	json_object_object_add(o, "timeout_s",
			       p->timeout_s ? json_object_new_int((int)p->timeout_s)
					    : NULL);
	json_object_object_add(o, "ksrc", jsonx_new_str(m->o->ksrc));
	json_object_object_add(o, "release", jsonx_new_str(m->o->release));
	return o;
}

static bool file_ok(const char *p);

/* ------------------------------------------------------------ config */

static const char *reason_kind(enum explain_kind k)
{
	switch (k) {
	case EXPLAIN_UNKNOWN:
		return "unknown";
	case EXPLAIN_DEPENDS:
	case EXPLAIN_NOMODULES:
		return "unmet-dependency";
	case EXPLAIN_MODULE:
		return "limited-to-m";
	case EXPLAIN_SELECT:
		return "selected";
	case EXPLAIN_RANGE:
	case EXPLAIN_INVALID:
		return "out-of-range";
	case EXPLAIN_NOPROMPT:
		return "no-prompt";
	case EXPLAIN_CHOICE:
		return "choice";
	case EXPLAIN_OVERRIDDEN:
		return "overridden";
	case EXPLAIN_STALE_BASE:
	case EXPLAIN_OTHER:
	case EXPLAIN_UNEXPLAINED:
	case EXPLAIN_KIND_MAX:
		break;
	}
	return "unexplained";
}

static json_object *option_json(const struct matrix *m,
				 const struct configstage_option *op)
{
	json_object *j = json_object_new_object();
	_cleanup_strbuf_ struct strbuf v = STRBUF_INIT;
	const char *status;

	json_object_object_add(j, "option", jsonx_new_str(op->requested->name));
	json_object_object_add(j, "group", jsonx_new_str(op->group ? op->group->name
							  : NULL));
	strbuf_addf(&v, "%s:%u", shown(m, op->requested->file),
		    op->requested->line);
	json_object_object_add(j, "source", jsonx_new_str(v.buf));
	strbuf_reset(&v);
	kconfig_format_value(&v, op->requested);
	json_object_object_add(j, "requested", jsonx_new_str(v.buf));
	strbuf_reset(&v);
	if (op->final)
		kconfig_format_value(&v, op->final);
	json_object_object_add(j, "final", op->final ? jsonx_new_str(v.buf) : NULL);
	if (op->kept)
		status = "kept";
	else if (op->verdict == KCONFIG_CHANGED || op->verdict == KCONFIG_KEPT)
		status = "changed";
	else if (op->verdict == KCONFIG_DEMOTED)
		status = "demoted";
	else
		status = "absent";
	json_object_object_add(j, "status", jsonx_new_str(status));
	json_object_object_add(
		j, "reason_kind",
		op->kept ? NULL
			 : jsonx_new_str(reason_kind(op->kind == EXPLAIN_STALE_BASE
						    ? op->cause
						    : op->kind)));
	json_object_object_add(j, "reason",
			       jsonx_new_str(op->kept ? NULL : op->reason));
	strbuf_reset(&v);
	if (!op->kept && op->overridden_by)
		strbuf_addf(&v, "overridden by %s:%u\n",
			    shown(m, op->overridden_by->file),
			    op->overridden_by->line);
	if (!op->kept && op->detail) {
		if (op->detail->defined)
			strbuf_addf(&v, "defined at %s\n", op->detail->defined);
		for (size_t i = 0; i < op->detail->n_reasons; i++) {
			explain_format_reason(&v, &op->detail->reasons[i]);
			strbuf_addch(&v, '\n');
		}
	}
	strbuf_rtrim(&v);
	json_object_object_add(j, "detail", v.len ? jsonx_new_str(v.buf) : NULL);
	return j;
}

static json_object *config_fail_json(const char *release, const char *error)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "result", jsonx_new_str("fail"));
	json_object_object_add(j, "error", jsonx_new_str(error));
	json_object_object_add(j, "release", jsonx_new_str(release));
	json_object_object_add(j, "final_config", NULL);
	json_object_object_add(j, "dropped", json_object_new_int(0));
	json_object_object_add(j, "options", json_object_new_array());
	json_object_object_add(j, "stale_base", json_object_new_array());
	return j;
}

static void unlockp(int *fd)
{
	if (*fd >= 0) {
		flock(*fd, LOCK_UN);
		close(*fd);
	}
}

/* Another run may hold it: wait, unless interrupted meanwhile. */
static int lock_file(const char *path, volatile sig_atomic_t *intr)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR || (intr && *intr)) {
			int e = -errno;

			close(fd);
			return e;
		}
	return fd;
}

/*
 * Config stages are cached like builds: by a key of everything the result
 * depends on (the tree, arch, base, each group file's bytes, the compiler
 * and linker Kconfig asks about, the explain helper's source), in
 * <cache>/build/<release>-<tree>/<arch>/configs/<key>/ (config and
 * stage.json, renamed into place whole).  Bump the version when the JSON
 * written for a stage changes.
 */
#define CONFIG_CACHE_VERSION "bootproof-config-cache/1"

static void first_line(const struct strbuf *sb, struct strbuf *out)
{
	size_t n = strcspn(sb->buf, "\n");

	strbuf_add(out, sb->buf, n);
	strbuf_addch(out, '\n');
}

static const char *toolchain(struct matrix *m)
{
	static const char *const progs[][3] = {
		{ "gcc", "--version", NULL },
		{ "ld", "--version", NULL },
	};
	struct strbuf sb = STRBUF_INIT;

	if (m->toolchain)
		return m->toolchain;
	for (size_t i = 0; i < ELEMENTSOF(progs); i++) {
		_cleanup_(proc_result_release) struct proc_result pr =
			PROC_RESULT_INIT;
		struct proc_cmd cmd = { .argv = progs[i], .timeout_ms = 10000 };

		if (proc_run(&cmd, &pr) == 0 && proc_result_ok(&pr))
			first_line(&pr.out, &sb);
		else
			strbuf_addf(&sb, "%s: ?\n", progs[i][0]);
	}
	m->toolchain = strbuf_detach(&sb, NULL);
	return m->toolchain;
}

static void hash_str(EVP_MD_CTX *ctx, const char *s)
{
	EVP_DigestUpdate(ctx, s, strlen(s) + 1);
}

static int hash_file(EVP_MD_CTX *ctx, const char *path)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	long r = strbuf_read_file(&sb, path, 16u << 20);

	if (r < 0)
		return (int)r;
	EVP_DigestUpdate(ctx, sb.buf, sb.len);
	hash_str(ctx, "");
	return 0;
}

/* The key of a candidate's config stage, 64 hex digits. */
static int config_key(struct matrix *m, const struct cand *c, char ret[65])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	_cleanup_free_ char *helper = path_join(m->o->datadir,
						 "harness/kconfig-explain/"
						 "kconfig-explain.c");
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	int r = 0;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		return -ENOMEM;
	}
	hash_str(ctx, CONFIG_CACHE_VERSION);
	hash_str(ctx, m->o->ksrc);
	hash_str(ctx, m->o->release);
	hash_str(ctx, c->as->arch);
	hash_str(ctx, c->as->base);
	hash_str(ctx, toolchain(m));
	if (strchr(c->as->base, '/'))
		r = hash_file(ctx, c->as->base);
	if (r >= 0)
		r = hash_file(ctx, helper);
	for (size_t i = 0; i < c->n_groups && r >= 0; i++) {
		hash_str(ctx, c->groups[i]->name);
		hash_str(ctx, c->groups[i]->file); /* "source" names it */
		r = hash_file(ctx, c->groups[i]->file);
	}
	if (r >= 0 && (!EVP_DigestFinal_ex(ctx, md, &n) || n != 32))
		r = -EIO;
	EVP_MD_CTX_free(ctx);
	if (r < 0)
		return r;
	for (unsigned i = 0; i < n; i++)
		snprintf(ret + 2 * i, 3, "%02x", md[i]);
	return 0;
}

static char *config_cache_dir(const struct matrix *m, const struct cand *c,
			      const char *key)
{
	_cleanup_free_ char *leaf = NULL;

	if (asprintf(&leaf, "configs/%s", key) < 0)
		abort();
	return buildstage_workdir(m->o->cache, m->o->ksrc, m->o->release,
				  c->as->arch, leaf);
}

/* A cached stage: its JSON (with "reused": true), the .config copied into
 * the candidate's directory.  NULL when there is none. */
static json_object *config_cached(const struct matrix *m, const struct cand *c,
				  const char *key)
{
	_cleanup_free_ char *dir = config_cache_dir(m, c, key);
	_cleanup_free_ char *js = path_join(dir, "stage.json");
	_cleanup_free_ char *cfg = path_join(dir, "config");
	_cleanup_free_ char *dst = path_join(c->dir, "config");
	json_object *j;

	if (!file_ok(js) || !file_ok(cfg) || !(j = json_object_from_file(js)))
		return NULL;
	if (copy_file_atomic(cfg, dst, 0644) < 0) {
		json_object_put(j);
		return NULL;
	}
	{
		_cleanup_free_ char *rel = NULL;

		if (asprintf(&rel, "%s/config", c->id) < 0)
			abort();
		json_object_object_add(j, "final_config", jsonx_new_str(rel));
	}
	json_object_object_add(j, "reused", json_object_new_boolean(1));
	return j;
}

static void config_store(const struct matrix *m, const struct cand *c,
			 const char *key, json_object *j)
{
	_cleanup_free_ char *dir = config_cache_dir(m, c, key);
	_cleanup_free_ char *tmp = NULL, *js = NULL;
	_cleanup_free_ char *src = path_join(c->dir, "config");
	const char *text;
	int r;

	if (asprintf(&tmp, "%s.tmp-%d", dir, (int)getpid()) < 0)
		abort();
	rm_rf(tmp);
	r = mkdir_p(tmp, 0755);
	js = path_join(tmp, "stage.json");
	text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (r >= 0) {
		_cleanup_free_ char *cfg = path_join(tmp, "config");

		r = copy_file_atomic(src, cfg, 0644);
	}
	if (r >= 0)
		r = write_file_atomic(js, text, strlen(text), 0644);
	if (r >= 0 && m->o->rebuild)
		rm_rf(dir);
	if (r >= 0 && rename(tmp, dir) < 0 && errno != EEXIST &&
	    errno != ENOTEMPTY)
		r = -errno;
	rm_rf(tmp);
	if (r < 0)
		log_debug_errno(r, "could not cache the config stage in %s", dir);
}

static void stage_config(struct matrix *m, struct cand *c)
{
	_cleanup_free_ char *odir = NULL, *ws = NULL, *lockp = NULL;
	_cleanup_free_ char *dst = NULL, *rel = NULL;
	_cleanup_configstage_result_ struct configstage_result *res = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_(unlockp) int lock = -1;
	json_object *j, *opts, *stale;
	char key[65];
	bool have_key;
	double t0 = 0, cpu0 = 0;
	struct configstage_opts co = {
		.ksrc = m->o->ksrc,
		.arch = c->as->arch,
		.base = c->as->base,
		.groups = c->groups,
		.n_groups = c->n_groups,
		.cache = m->o->cache,
		.datadir = m->o->datadir,
	};
	int r;

	prog_start(&m->prog, c->id, "config");
	have_key = config_key(m, c, key) == 0;
	if (have_key && !m->o->rebuild && (j = config_cached(m, c, key))) {
		json_object *d = jsonx_get(j, "dropped");

		rec_set(m, c, "config", j);
		prog_end(&m->prog, "reused: %s, %d option%s dropped",
			 jsonx_str(j, "result"), d ? json_object_get_int(d) : 0,
			 d && json_object_get_int(d) == 1 ? "" : "s");
		return;
	}
	ws = buildstage_workdir(m->o->cache, m->o->ksrc, m->o->release,
				c->as->arch, NULL);
	odir = path_join(ws, "config");
	lockp = path_join(ws, ".config.lock");
	co.odir = odir;
	r = mkdir_p(ws, 0755);
	if (r >= 0)
		r = lock = lock_file(lockp, m->o->interrupted);
	if (r < 0) {
		strbuf_addf(&err, "%s: %s", lockp, strerror(-r));
	} else {
		t0 = clock_mono_s();
		cpu0 = clock_children_cpu_s();
		r = configstage_run(&co, &res, &err);
		t0 = clock_mono_s() - t0;
		cpu0 = clock_children_cpu_s() - cpu0;
	}
	if (r >= 0) {
		dst = path_join(c->dir, "config");
		r = copy_file_atomic(res->final_config, dst, 0644);
		if (r < 0)
			strbuf_fail(&err, r, "cannot copy %s to %s: %s",
			     res->final_config, dst, strerror(-r));
	}
	if (r < 0 && interrupted(m)) {
		/* not a result: a resumed run does the stage again */
		prog_end(&m->prog, "interrupted");
		return;
	}
	if (r < 0) {
		if (r == -EINVAL)
			m->bad_input = true;
		else
			m->infra = true;
		rec_set(m, c, "config", config_fail_json(m->o->release, err.buf));
		prog_end(&m->prog, "FAILED: %s", err.buf);
		return;
	}
	j = json_object_new_object();
	json_object_object_add(j, "result",
			       jsonx_new_str(res->n_dropped ? "partial" : "pass"));
	json_object_object_add(j, "error", NULL);
	json_object_object_add(j, "release", jsonx_new_str(res->release));
	if (asprintf(&rel, "%s/config", c->id) < 0)
		abort();
	json_object_object_add(j, "final_config", jsonx_new_str(rel));
	json_object_object_add(j, "dropped",
			       json_object_new_int((int)res->n_dropped));
	opts = json_object_new_array();
	stale = json_object_new_array();
	for (size_t i = 0; i < res->n_opts; i++)
		json_object_array_add(res->opts[i].group ? opts : stale,
				      option_json(m, &res->opts[i]));
	json_object_object_add(j, "options", opts);
	json_object_object_add(j, "stale_base", stale);
	json_object_object_add(j, "explain_error", jsonx_new_str(res->explain_error));
	json_object_object_add(j, "seconds", recjson_seconds(t0));
	json_object_object_add(j, "cpu_seconds", recjson_seconds(cpu0));
	if (have_key && !res->explain_error)
		config_store(m, c, key, j);
	json_object_object_add(j, "reused", json_object_new_boolean(0));
	rec_set(m, c, "config", j);
	prog_end(&m->prog, "%s: %zu option%s dropped, %zu stale base line%s "
		 "(%.0f s of CPU)",
		 res->n_dropped ? "partial" : "pass", res->n_dropped,
		 res->n_dropped == 1 ? "" : "s", res->n_stale,
		 res->n_stale == 1 ? "" : "s", cpu0);
}

/* ------------------------------------------------------------ build */

static void on_make_line(void *ud, const char *line)
{
	struct matrix *m = ud;

	line += strspn(line, " ");
	if (*line)
		prog_detail(&m->prog, line);
}

static void stage_build(struct matrix *m, struct cand *c)
{
	_cleanup_free_ char *config = path_join(c->dir, "config");
	_cleanup_free_ char *log = path_join(c->dir, "build.log");
	_cleanup_free_ char *rel = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_(buildstage_result_done) struct buildstage_result res = { 0 };
	struct buildstage_opts bo = {
		.ksrc = m->o->ksrc,
		.release = m->o->release,
		.arch = c->as->arch,
		.config = config,
		.cache = m->o->cache,
		.log = log,
		.jobs = m->o->jobs,
		.rebuild = m->o->rebuild,
		.cancel = m->o->interrupted,
		.on_line = on_make_line,
		.ud = m,
	};
	json_object *j = json_object_new_object(), *a;
	int r;

	prog_start(&m->prog, c->id, "build");
	if (asprintf(&rel, "%s/build.log", c->id) < 0)
		abort();
	r = buildstage_run(&bo, &res, &err);
	if (r < 0) {
		m->infra = true;
		json_object_object_add(j, "result", jsonx_new_str("skip"));
		{
			_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

			strbuf_addf(&why, "infrastructure: %s", err.buf);
			json_object_object_add(j, "reason", jsonx_new_str(why.buf));
		}
		json_object_object_add(j, "first_error", NULL);
		json_object_object_add(j, "log", access(log, R_OK) == 0
							 ? jsonx_new_str(rel)
							 : NULL);
		json_object_object_add(j, "seconds", recjson_seconds(0));
		json_object_object_add(j, "config_hash", jsonx_new_str(res.hash[0]
								  ? res.hash
								  : NULL));
		json_object_object_add(j, "artifacts", NULL);
		rec_set(m, c, "build", j);
		prog_end(&m->prog, "cannot build: %s", err.buf);
		return;
	}
	json_object_object_add(j, "result",
			       jsonx_new_str(buildstage_status_name(res.status)));
	if (res.status == BUILDSTAGE_FAIL && res.reused) {
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s (this .config failed to build on %s; "
			    "not built again)", res.reason ? res.reason : "?",
			    res.built ? res.built : "?");
		json_object_object_add(j, "reason", jsonx_new_str(why.buf));
	} else {
		json_object_object_add(j, "reason", jsonx_new_str(res.reason));
	}
	json_object_object_add(j, "reused", json_object_new_boolean(res.reused));
	/* A path inside the kernel tree is shown relative to it, as the
	 * tree's own messages do ("kernel/fork.c:12:3: error: ..."). */
	{
		const char *t = res.error.text;
		size_t kl = strlen(m->o->ksrc);

		if (t && !strncmp(t, m->o->ksrc, kl) && t[kl] == '/')
			t += kl + 1;
		json_object_object_add(j, "first_error", jsonx_new_str(t));
	}
	json_object_object_add(j, "first_error_log_line",
			       res.error.text ? json_object_new_int64(
							(int64_t)res.error.log_line)
					      : NULL);
	json_object_object_add(j, "log", jsonx_new_str(rel));
	json_object_object_add(j, "seconds", recjson_seconds(res.seconds));
	json_object_object_add(j, "built_seconds",
			       res.bzimage ? recjson_seconds(res.built_seconds)
					   : NULL);
	json_object_object_add(j, "cpu_seconds",
			       recjson_seconds(res.cpu_seconds));
	json_object_object_add(j, "config_hash", jsonx_new_str(res.hash));
	if (res.bzimage) {
		a = json_object_new_object();
		json_object_object_add(a, "bzImage", jsonx_new_str(res.bzimage));
		json_object_object_add(a, "vmlinux", jsonx_new_str(res.vmlinux));
		json_object_object_add(a, "system_map", jsonx_new_str(res.system_map));
		json_object_object_add(a, "config", jsonx_new_str(res.config));
		json_object_object_add(a, "modules", jsonx_new_str(res.modules));
		json_object_object_add(a, "dir", jsonx_new_str(res.dir));
	} else {
		a = NULL;
	}
	json_object_object_add(j, "artifacts", a);
	json_object_object_add(j, "kernelrelease", jsonx_new_str(res.kernelrelease));
	rec_set(m, c, "build", j);
	switch (res.status) {
	case BUILDSTAGE_PASS:
		prog_end(&m->prog, "pass, %.0f s of CPU (%.12s)", res.cpu_seconds,
			 res.hash);
		break;
	case BUILDSTAGE_REUSED:
		prog_end(&m->prog, "reused %s (built in %.0f s, %.0f s of CPU)",
			 res.dir, res.built_seconds, res.cpu_seconds);
		break;
	case BUILDSTAGE_FAIL:
		prog_end(&m->prog, "FAILED%s: %s", res.reused ? " (before)" : "",
			 jsonx_str(j, "first_error") ? jsonx_str(j, "first_error")
						: res.reason);
		break;
	case BUILDSTAGE_CANCELLED:
		prog_end(&m->prog, "interrupted");
		break;
	}
}

/* ------------------------------------------------------------ boot */

static struct image_slot *image_for(struct matrix *m, const char *arch,
				    const char *modules)
{
	struct image_slot *s;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	struct image_request req = { .modules = modules };

	for (size_t i = 0; i < m->n_images; i++) {
		s = &m->images[i];
		if (!strcmp(s->arch, arch) &&
		    ((!s->modules && !modules) ||
		     (s->modules && modules && !strcmp(s->modules, modules))))
			return s;
	}
	m->images = xrealloc(m->images, (m->n_images + 1) * sizeof(*s));
	s = &m->images[m->n_images++];
	memset(s, 0, sizeof(*s));
	s->arch = arch;
	s->modules = modules ? xstrdup(modules) : NULL;
	bp_arch_from_name(arch, &req.arch);	/* a plan's: checked */
	prog_clear(&m->prog);
	s->err = image_ensure_with(&image_guestfs_ops, NULL, &req, &s->img,
				   &err);
	if (s->err < 0)
		s->why = xstrdup(err.len ? err.buf : strerror(-s->err));
	return s;
}

static void on_boot_update(void *ud, json_object *rec)
{
	struct matrix *m = ud;
	struct cand *c = &m->cands[m->current];
	const char *ms = jsonx_str(rec, "last_milestone");
	json_object *sc = jsonx_get(rec, "scenarios");
	_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;

	rec_replace(m, c, json_object_get(rec));
	save(m);
	if (ms)
		strbuf_addstr(&d, ms);
	for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
		json_object *s = json_object_array_get_idx(sc, i);
		const char *r = jsonx_str(s, "result");

		if (r && strcmp(r, "pending"))
			strbuf_addf(&d, " %s:%s", jsonx_str(s, "name"), r);
	}
	prog_detail(&m->prog, d.buf);
}

static void stage_boot(struct matrix *m, struct cand *c)
{
	json_object *b = jsonx_get(rec_of(m, c), "build");
	json_object *a = jsonx_get(b, "artifacts");
	_cleanup_free_ char *stage = NULL, *prefix = NULL, *runs = NULL;
	struct image_slot *img;
	struct boot_outcome out = { 0 };
	int r;

	prog_start(&m->prog, c->id, "boot");
	img = image_for(m, c->as->arch, jsonx_str(a, "modules"));
	if (img->err < 0) {
		json_object *rec = stub(c, NULL, NULL, NULL);
		_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

		if (img->err == -EINVAL)
			m->bad_input = true;
		else
			m->infra = true;
		strbuf_addf(&why, "root image: %s", img->why);
		json_object_object_add(rec, "verdict", jsonx_new_str("INFRA"));
		json_object_object_add(rec, "reason", jsonx_new_str(why.buf));
		rec_replace(m, c, rec);
		prog_end(&m->prog, "INFRA: %s", why.buf);
		return;
	}
	runs = path_join(m->o->cache, "runs");
	stage = path_join(runs, c->name);
	if (asprintf(&prefix, "%s/", c->id) < 0)
		abort();
	m->current = c->index;
	{
		struct boot_request req = {
			.name = c->name,
			.accel = m->o->accel,
			.accel_reason = m->o->accel_reason,
			.uri = m->o->uri,
			.kernel = jsonx_str(a, "bzImage"),
			.vmlinux = jsonx_str(a, "vmlinux"),
			.config = jsonx_str(a, "config"),
			.image = img->img.path,
			.scenarios = c->scenarios,
			.timeout_s = m->o->plan->timeout_s,
			.run_dir = m->run->dir,
			.prefix = prefix,
			.stage_dir = stage,
			.ops = m->o->ops,
			.interrupted = m->o->interrupted,
			.quiet = true,
			.on_update = on_boot_update,
			.ud = m,
		};

		bp_arch_from_name(c->as->arch, &req.arch); /* plan: checked */
		r = boot_run(&req, &out);
	}
	if (r < 0) {
		m->infra = true;
		prog_end(&m->prog, "cannot boot: %s", strerror(-r));
		return;
	}
	rec_replace(m, c, out.record);
	if (out.verdict == VERDICT_INFRA)
		m->infra = true;
	{
		json_object *rec = rec_of(m, c), *sc = jsonx_get(rec, "scenarios");
		_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;

		strbuf_addf(&d, "%s", jsonx_str(rec, "verdict"));
		if (out.verdict != VERDICT_BOOTED)
			strbuf_addf(&d, ": %s", jsonx_str(rec, "reason"));
		for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
			json_object *s = json_object_array_get_idx(sc, i);

			strbuf_addf(&d, "%s%s:%s", i ? " " : "; scenarios ",
				    jsonx_str(s, "name"), jsonx_str(s, "result"));
		}
		prog_end(&m->prog, "%s", d.buf);
	}
}

/* ------------------------------------------------------------ resume */

static bool file_ok(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* What of the old record can stay: 0 nothing, 1 config, 2 + build,
 * 3 + boot. */
static int reusable(const struct cand *c)
{
	json_object *cfg = jsonx_get(c->old, "config");
	json_object *b = jsonx_get(c->old, "build");
	json_object *a = jsonx_get(b, "artifacts");
	const char *res = jsonx_str(cfg, "result"), *br = jsonx_str(b, "result");
	const char *v = jsonx_str(c->old, "verdict");
	_cleanup_free_ char *conf = path_join(c->dir, "config");

	if (!c->old || !res)
		return 0;
	if (strcmp(res, "fail") && !file_ok(conf))
		return 0;
	if (!strcmp(res, "fail"))
		return 3;
	if (!br || !strcmp(br, "skip"))
		return 1;
	if (!strcmp(br, "fail"))
		return 3;
	if (!file_ok(jsonx_str(a, "bzImage")) || !file_ok(jsonx_str(a, "vmlinux")))
		return 1;
	if (!v || !strcmp(v, "INCOMPLETE") || !strcmp(v, "RUNNING") ||
	    !strcmp(v, "INFRA"))
		return 2;
	return 3;
}

static int reopen(struct matrix *m, struct strbuf *err)
{
	_cleanup_free_ char *path = path_join(m->o->resume, "run.json");
	json_object *doc = json_object_from_file(path), *old, *v;
	const char *cmd = jsonx_str(doc, "command");
	struct run *r;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;

	if (!doc)
		return strbuf_fail(err, -EINVAL, "%s: not readable JSON (%s)", path,
			    json_util_get_last_err());
	if (!cmd || strcmp(cmd, "run") || !jsonx_get(doc, "plan") ||
	    !(old = jsonx_get(doc, "boots")) ||
	    !json_object_is_type(old, json_type_array)) {
		json_object_put(doc);
		return strbuf_fail(err, -EINVAL, "%s: not the record of a `bootproof "
			    "run` (command, plan or boots missing)", path);
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		json_object_put(doc);
		return -ENOMEM;
	}
	r->dir = xstrdup(m->o->resume);
	r->id = xstrdup(jsonx_str(doc, "run_id") ? jsonx_str(doc, "run_id")
					    : m->o->resume);
	r->doc = doc;
	/* Match the old records to the candidates by id. */
	for (size_t i = 0; i < m->n_cands; i++)
		for (size_t k = 0; k < json_object_array_length(old); k++) {
			json_object *b = json_object_array_get_idx(old, k);

			if (jsonx_str(jsonx_get(b, "candidate"), "id") &&
			    !strcmp(jsonx_str(jsonx_get(b, "candidate"), "id"),
				    m->cands[i].id))
				m->cands[i].old = json_object_get(b);
		}
	r->boots = json_object_new_array();
	json_object_object_add(doc, "boots", r->boots);
	json_object_object_add(doc, "finished", NULL);
	json_object_object_add(doc, "complete", json_object_new_boolean(0));
	json_object_object_add(doc, "exit_code", NULL);
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	v = jsonx_get(doc, "resumed");
	if (!v || !json_object_is_type(v, json_type_array)) {
		v = json_object_new_array();
		json_object_object_add(doc, "resumed", v);
	}
	json_object_array_add(v, jsonx_new_str(now));
	m->run = r;
	return 0;
}

/* ------------------------------------------------------------ the run */

static bool cand_failed(json_object *rec)
{
	json_object *sc = jsonx_get(rec, "scenarios");
	const char *v = jsonx_str(rec, "verdict");

	if (!strcmp(jsonx_str(jsonx_get(rec, "config"), "result") ?: "", "fail") ||
	    !strcmp(jsonx_str(jsonx_get(rec, "build"), "result") ?: "", "fail"))
		return true;
	if (v && strcmp(v, "BOOTED") && strcmp(v, "INFRA") &&
	    strcmp(v, "INCOMPLETE") && strcmp(v, "RUNNING"))
		return true;
	for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
		const char *r = jsonx_str(json_object_array_get_idx(sc, i), "result");

		if (r && (!strcmp(r, "fail") || !strcmp(r, "error")))
			return true;
	}
	return false;
}

static int exit_code(struct matrix *m)
{
	json_object *groups = jsonx_get(m->run->doc, "groups");
	bool failed = false;

	if (interrupted(m))
		return BP_EXIT_INTERRUPTED;
	if (m->bad_input)
		return BP_EXIT_USAGE;
	if (m->infra)
		return BP_EXIT_INFRA;
	for (size_t i = 0; groups && i < json_object_array_length(groups); i++) {
		enum groupverdict v;

		if (groupverdict_of(json_object_array_get_idx(groups, i), &v) == 0 &&
		    v == GROUPVERDICT_FAIL)
			failed = true;
	}
	for (size_t i = 0; i < m->n_cands; i++)
		if (m->cands[i].kind == PLAN_CAND_BASE &&
		    cand_failed(rec_of(m, &m->cands[i])))
			failed = true;
	return failed ? BP_EXIT_FAIL : BP_EXIT_OK;
}

static void run_cand(struct matrix *m, struct cand *c)
{
	int keep = reusable(c);
	json_object *rec = rec_of(m, c);
	const char *br;

	if (keep >= 1) {
		rec_set(m, c, "config", json_object_get(jsonx_get(c->old, "config")));
		if (!m->prog.quiet)
			fprintf(stderr, "  %-32s %7s  %s\n", c->id, "",
				keep == 3 ? "reused from the interrupted run"
					  : "config reused from the interrupted run");
	} else {
		stage_config(m, c);
	}
	save(m);
	if (interrupted(m) ||
	    !strcmp(jsonx_str(jsonx_get(rec, "config"), "result") ?: "fail", "fail"))
		return;

	if (keep >= 2)
		rec_set(m, c, "build", json_object_get(jsonx_get(c->old, "build")));
	else
		stage_build(m, c);
	save(m);
	br = jsonx_str(jsonx_get(rec_of(m, c), "build"), "result");
	if (interrupted(m) || !br || (strcmp(br, "pass") && strcmp(br, "reused")))
		return;

	if (keep >= 3)
		rec_replace(m, c, json_object_get(c->old));
	else
		stage_boot(m, c);
	save(m);
}

int matrix_run(const struct matrix_opts *o, struct matrix_outcome *ret,
	       struct strbuf *err)
{
	struct matrix m = { .o = o };
	int r;

	ret->exit_code = BP_EXIT_OK;
	ret->run = NULL;
	r = load_groups(&m, err);
	if (r < 0) {
		matrix_done(&m);
		return r;
	}
	make_cands(&m);
	if (!m.n_cands) {
		matrix_done(&m);
		return strbuf_fail(err, -EINVAL, "%s: no candidates (a 'candidates' "
			    "line without base, and no group)",
			    o->plan->file);
	}
	if (o->resume) {
		r = reopen(&m, err);
	} else {
		r = run_open(o->results, o->plan->name, "run", o->argc, o->argv,
			     &m.run);
		if (r < 0)
			strbuf_fail(err, r, "cannot create a run directory under %s: %s",
			     o->results, strerror(-r));
	}
	if (r < 0) {
		matrix_done(&m);
		return r;
	}
	{
		json_object *host = jsonx_get(m.run->doc, "host");

		if (!host) {
			host = json_object_new_object();
			json_object_object_add(m.run->doc, "host", host);
		}
		recjson_add_str(host, "accel", bp_accel_name(o->accel));
		recjson_add_str(host, "accel_reason", o->accel_reason);
		recjson_add_str(host, "libvirt_uri", o->uri);
	}
	json_object_object_add(m.run->doc, "plan", plan_json(&m));
	for (size_t i = 0; i < m.n_cands; i++) {
		struct cand *c = &m.cands[i];

		if (asprintf(&c->name, "bootproof-%s-%s", m.run->id, c->id) < 0)
			abort();
		c->dir = path_join(m.run->dir, c->id);
		r = mkdir_p(c->dir, 0755);
		if (r < 0) {
			strbuf_fail(err, r, "%s: %s", c->dir, strerror(-r));
			run_free(m.run);
			matrix_done(&m);
			return r;
		}
		run_set_boot(m.run, i, stub(c, NULL, NULL, NULL));
	}
	prog_init(&m.prog, o->quiet);
	if (!o->quiet)
		fprintf(stderr, "bootproof: run %s: %zu candidate%s, results in "
			"%s/\n", m.run->id, m.n_cands, m.n_cands == 1 ? "" : "s",
			m.run->dir);
	save(&m);
	for (size_t i = 0; i < m.n_cands && !interrupted(&m); i++)
		run_cand(&m, &m.cands[i]);
	prog_done(&m.prog);
	update_groups(&m);
	ret->exit_code = exit_code(&m);
	r = run_close(m.run, ret->exit_code, !interrupted(&m));
	if (r < 0) {
		log_error_errno(r, "cannot write the results in %s", m.run->dir);
		if (ret->exit_code == BP_EXIT_OK)
			ret->exit_code = BP_EXIT_INFRA;
	}
	ret->run = TAKE_PTR(m.run);
	matrix_done(&m);
	return 0;
}
