// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/bisectrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/arch.h"
#include "core/bisect.h"
#include "core/matrixrec.h"
#include "engine/guesthost.h"
#include "engine/plangroups.h"
#include "engine/report.h"
#include "engine/runprep.h"
#include "util/clock.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/interrupt.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/xalloc.h"

struct bs {
	const struct bisectrun_opts *o;
	char *datadir, *cache;
	json_object *src;		/* the failing run's run.json */
	json_object *rec;		/* its candidate (borrowed from src) */
	const char *cand_id, *arch;
	struct bisect_sig target;
	struct runprep_loaded l;	/* its plan and tree */
	struct plangroups pg;
	char *plan_file, *base;		/* absolute when files */
	char **base_files;		/* the base groups' files, absolute */
	size_t n_base;
	char **group_files;		/* the candidate's groups' files */
	size_t n_groups;
	struct bisect_frag_line *lines;
	size_t *group_of, n_lines;
	char *scenarios, *frag_name;
	enum bp_accel accel;
	char accel_reason[GUESTHOST_REASON_MAX];
	const char *uri;
	volatile sig_atomic_t *intr;
	struct run *run;		/* the bisection's */
	json_object *brec, *steps;	/* its "bisect" and "bisect.steps" */
	char *culprit_repro;		/* the last same failure's command */
	const char *stop, *stop_why;	/* the engine stopped it: status */
	int stop_code;
};

static void bs_done(struct bs *b)
{
	free(b->datadir);
	free(b->cache);
	json_object_put(b->src);
	bisect_sig_done(&b->target);
	runprep_loaded_done(&b->l);
	plangroups_done(&b->pg);
	free(b->plan_file);
	free(b->base);
	for (size_t i = 0; i < b->n_base; i++)
		free(b->base_files[i]);
	free(b->base_files);
	for (size_t i = 0; i < b->n_groups; i++)
		free(b->group_files[i]);
	free(b->group_files);
	for (size_t i = 0; i < b->n_lines; i++) {
		free((char *)b->lines[i].text);
		free((char *)b->lines[i].source);
		free((char *)b->lines[i].name);
	}
	free(b->lines);
	free(b->group_of);
	free(b->scenarios);
	free(b->frag_name);
	free(b->culprit_repro);
}

static char *abs_or(const char *p)
{
	char *a = realpath(p, NULL);

	return a ? a : xstrdup(p);
}

static void say(const struct bs *b, const char *fmt, ...) _printf_(2, 3);
static void say(const struct bs *b, const char *fmt, ...)
{
	va_list ap;

	if (b->o->quiet)
		return;
	va_start(ap, fmt);
	fputs("bootproof: bisect: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ------------------------------------------------------------ the source */

/* The candidate to narrow, and its failure; a BP_EXIT_*. */
static int load_source(struct bs *b)
{
	_cleanup_free_ char *p = path_join(b->o->run_dir, "run.json");
	json_object *boots, *c;
	enum bisect_outcome o;

	if (access(p, R_OK) < 0) {
		log_error("bisect: %s: not a run directory (no readable "
			  "run.json)", b->o->run_dir);
		return BP_EXIT_USAGE;
	}
	b->src = json_object_from_file(p);
	if (!b->src) {
		log_error("bisect: %s: not readable JSON (%s)", p,
			  json_util_get_last_err());
		return BP_EXIT_USAGE;
	}
	boots = jsonx_get(b->src, "boots");
	if (strcmp(jsonx_str(b->src, "command") ?: "", "run") ||
	    !jsonx_get(b->src, "plan") || !boots) {
		log_error("bisect: %s is not the record of a `bootproof run`", p);
		return BP_EXIT_USAGE;
	}
	for (size_t i = 0; i < json_object_array_length(boots) && !b->rec; i++) {
		json_object *r = json_object_array_get_idx(boots, i);
		const char *id = jsonx_str(jsonx_get(r, "candidate"), "id");

		if (b->o->candidate ? id && !strcmp(id, b->o->candidate)
				    : matrixrec_failed(r) &&
					      strcmp(jsonx_str(jsonx_get(r, "candidate"),
							       "kind") ?: "",
						     "base"))
			b->rec = r;
	}
	if (!b->rec) {
		if (b->o->candidate)
			log_error("bisect: %s has no candidate %s", p,
				  b->o->candidate);
		else
			log_error("bisect: no candidate of %s with groups "
				  "failed: nothing to narrow", p);
		return BP_EXIT_USAGE;
	}
	c = jsonx_get(b->rec, "candidate");
	b->cand_id = jsonx_str(c, "id");
	b->arch = jsonx_str(c, "arch");
	if (!strcmp(jsonx_str(c, "kind") ?: "", "base") ||
	    !jsonx_len(c, "groups")) {
		log_error("bisect: %s is the base alone: no option group to "
			  "narrow", b->cand_id);
		return BP_EXIT_USAGE;
	}
	o = bisect_sig_of(b->rec, &b->target);
	if (o != BISECT_FAIL_SAME) {
		log_error("bisect: %s %s: nothing to narrow", b->cand_id,
			  o == BISECT_PASS ? "did not fail"
					   : "did not finish (no result)");
		return BP_EXIT_USAGE;
	}
	return BP_EXIT_OK;
}

/* The group of the arch called name. */
static struct group *find_group(const struct matrixrec_arch *as,
				const char *name)
{
	for (size_t i = 0; i < as->n_groups; i++)
		if (!strcmp(as->groups[i]->name, name))
			return as->groups[i];
	return NULL;
}

/* Each option line of g (its latest request of each symbol). */
static void add_lines(struct bs *b, const struct group *g, size_t gi)
{
	size_t n = kconfig_count(g->options);

	b->lines = xrealloc(b->lines, (b->n_lines + n) * sizeof(*b->lines));
	b->group_of = xrealloc(b->group_of, (b->n_lines + n) * sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		const struct kconfig_option *op = kconfig_at(g->options, i);
		struct strbuf t = STRBUF_INIT, s = STRBUF_INIT;

		kconfig_format_option(&t, op);
		strbuf_rtrim(&t);
		strbuf_addf(&s, "%s:%u", op->file, op->line);
		b->lines[b->n_lines].text = strbuf_detach(&t, NULL);
		b->lines[b->n_lines].source = strbuf_detach(&s, NULL);
		b->lines[b->n_lines].name = xstrdup(op->name);
		b->group_of[b->n_lines++] = gi;
	}
}

/* The scenarios any of the candidate's groups names, "a,b". */
static void add_scenarios(struct strbuf *sb, const struct group *g)
{
	for (size_t i = 0; i < g->n_scenarios; i++) {
		bool dup = false;
		size_t len = strlen(g->scenarios[i]);

		for (const char *p = sb->buf; *p && !dup;) {
			size_t l = strcspn(p, ",");

			dup = l == len && !strncmp(p, g->scenarios[i], l);
			p += l + (p[l] == ',');
		}
		if (!dup)
			strbuf_addf(sb, "%s%s", sb->len ? "," : "",
				    g->scenarios[i]);
	}
}

/* The plan, tree and groups of the failing run, as --resume loads them. */
static int load_groups(struct bs *b)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, sc = STRBUF_INIT;
	json_object *names = jsonx_get(jsonx_get(b->rec, "candidate"), "groups");
	const struct matrixrec_arch *as = NULL;
	struct runprep_args a = {
		.arches = &b->arch, .n_arches = 1, .resume = b->o->run_dir,
	};
	int code = runprep_load(&a, b->datadir, b->cache, &b->l), r;

	if (code != BP_EXIT_OK)
		return code;
	r = plangroups_load(b->l.plan, b->datadir, &b->pg, &err);
	if (r < 0) {
		log_error("bisect: %s", err.buf);
		return r == -ENOMEM ? BP_EXIT_INFRA : BP_EXIT_USAGE;
	}
	for (size_t i = 0; i < b->pg.n_arches; i++)
		if (!strcmp(b->pg.arches[i].arch, b->arch))
			as = &b->pg.arches[i];
	if (!as)
		return BP_EXIT_USAGE;
	b->plan_file = abs_or(b->l.plan->file);
	b->base = strchr(as->base, '/') ? abs_or(as->base) : xstrdup(as->base);
	b->base_files = xcalloc(as->n_base_groups + 1, sizeof(char *));
	for (size_t i = 0; i < as->n_base_groups; i++)
		b->base_files[b->n_base++] = abs_or(as->base_groups[i]->file);
	b->n_groups = json_object_array_length(names);
	b->group_files = xcalloc(b->n_groups + 1, sizeof(char *));
	for (size_t i = 0; i < b->n_groups; i++) {
		const char *n = json_object_get_string(
			json_object_array_get_idx(names, i));
		struct group *g = find_group(as, n ?: "");

		if (!g) {
			log_error("bisect: group %s of %s is not in the run's "
				  "plan any more", n, b->cand_id);
			return BP_EXIT_USAGE;
		}
		b->group_files[i] = abs_or(g->file);
		add_lines(b, g, i);
		add_scenarios(&sc, g);
	}
	b->scenarios = strbuf_detach(&sc, NULL);
	b->frag_name = xstrdup(b->n_groups == 1
				       ? json_object_get_string(
						 json_object_array_get_idx(names, 0))
				       : "bisect");
	return BP_EXIT_OK;
}

/* ------------------------------------------------------------ records */

static json_object *line_list(const bool *in, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		if (in[i])
			json_object_array_add(a, json_object_new_int((int)i));
	return a;
}

static json_object *options_of(const struct bs *b, const bool *in)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < b->n_lines; i++) {
		json_object *o;

		if (!in[i])
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "line", json_object_new_int((int)i));
		json_object_object_add(o, "group",
				       jsonx_new_str(json_object_get_string(
					       json_object_array_get_idx(
						       jsonx_get(jsonx_get(b->rec,
									   "candidate"),
								 "groups"),
						       b->group_of[i]))));
		json_object_object_add(o, "source",
				       jsonx_new_str(b->lines[i].source));
		json_object_object_add(o, "text", jsonx_new_str(b->lines[i].text));
		json_object_array_add(a, o);
	}
	return a;
}

/* The bisection's run directory and its first record. */
static int open_bisect(struct bs *b)
{
	json_object *host = json_object_new_object(), *src, *all, *t;
	bool *every = xcalloc(b->n_lines + 1, sizeof(bool));
	int r = run_open(b->o->results, "bisect", "bisect", b->o->argc,
			 b->o->argv, &b->run);

	if (r < 0) {
		free(every);
		log_error_errno(r, "bisect: cannot create a run directory "
				   "under %s", b->o->results);
		return BP_EXIT_INFRA;
	}
	json_object_object_add(host, "accel",
			       jsonx_new_str(bp_accel_name(b->accel)));
	json_object_object_add(host, "accel_reason",
			       jsonx_new_str(b->accel_reason));
	json_object_object_add(host, "libvirt_uri", jsonx_new_str(b->uri));
	json_object_object_add(b->run->doc, "host", host);

	b->brec = json_object_new_object();
	src = json_object_new_object();
	json_object_object_add(src, "run", jsonx_new_str(b->o->run_dir));
	json_object_object_add(src, "run_id",
			       jsonx_new_str(jsonx_str(b->src, "run_id")));
	json_object_object_add(src, "candidate", jsonx_new_str(b->cand_id));
	json_object_object_add(src, "reproduce",
			       jsonx_new_str(jsonx_str(jsonx_get(b->rec, "candidate"),
						       "reproduce")));
	json_object_object_add(b->brec, "source", src);
	t = json_object_new_object();
	json_object_object_add(t, "stage", jsonx_new_str(b->target.stage));
	json_object_object_add(t, "what", jsonx_new_str(b->target.what));
	json_object_object_add(t, "detail", jsonx_new_str(b->target.detail));
	json_object_object_add(t, "text", jsonx_new_str(b->target.text));
	json_object_object_add(b->brec, "target", t);
	all = json_object_new_array();
	for (size_t i = 0; i < b->n_groups; i++)
		json_object_array_add(all, jsonx_new_str(b->group_files[i]));
	json_object_object_add(b->brec, "group_files", all);
	memset(every, 1, b->n_lines);
	json_object_object_add(b->brec, "lines", options_of(b, every));
	free(every);
	b->steps = json_object_new_array();
	json_object_object_add(b->brec, "steps", b->steps);
	json_object_object_add(b->brec, "status", jsonx_new_str("running"));
	json_object_object_add(b->run->doc, "bisect", b->brec);
	return BP_EXIT_OK;
}

static void save(struct bs *b)
{
	int r = run_save(b->run);

	if (r < 0)
		log_warn_errno(r, "could not save %s/run.json", b->run->dir);
}

/* ------------------------------------------------------------ a step */

/* Write the step's fragment; its path (malloc'd) or NULL on failure. */
static char *write_fragment(struct bs *b, const struct bisect_step *s)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT, from = STRBUF_INIT;
	_cleanup_free_ char *dir = path_join(b->run->dir, "steps");
	char *path;
	struct bisect_frag f = {
		.name = b->frag_name,
		.arch = b->arch,
		.scenarios = b->scenarios,
		.lines = b->lines,
		.in = s->lines,
		.n_lines = b->n_lines,
	};
	int r;

	strbuf_addf(&from, "bootproof bisect %s of %s in %s, step %u (%s)",
		    b->run->id, b->cand_id, jsonx_str(b->src, "run_id") ?: "?",
		    s->n, bisect_kind_name(s->kind));
	f.from = from.buf;
	bisect_frag_text(&f, &text);
	if (s->kind == BISECT_STEP_CONFIRM) {
		path = path_join(b->run->dir, "culprit.config");
	} else {
		_cleanup_free_ char *name = NULL;

		if (asprintf(&name, "%02u.config", s->n) < 0)
			abort();
		path = path_join(dir, name);
	}
	r = mkdir_p(dir, 0755);
	if (r >= 0)
		r = write_file_atomic(path, text.buf, text.len, 0644);
	if (r < 0) {
		log_error_errno(r, "bisect: cannot write %s", path);
		free(path);
		return NULL;
	}
	return path;
}

/* The step through the matrix: the base alone, or the base and the
 * fragment; its run in *ret_run.  A BP_EXIT_* of loading or running. */
static int matrix_step(struct bs *b, const struct bisect_step *s,
		       const char *frag, struct run **ret_run)
{
	_cleanup_free_ char *steps = path_join(b->run->dir, "steps");
	const char *kind = frag ? "each" : "base";
	const char *arg_groups[] = { frag };
	struct runprep_args a = {
		.plan = b->plan_file,
		.arches = &b->arch, .n_arches = 1,
		/* the base alone: the candidate's groups are loaded, not used */
		.groups = frag ? arg_groups : (const char *const *)b->group_files,
		.n_groups = frag ? 1 : b->n_groups,
		.base = b->base,
		.base_groups = (const char *const *)b->base_files,
		.n_base_groups = b->n_base,
		.candidates = &kind, .n_candidates = 1,
		.ksrc = b->l.ksrc,
	};
	struct runprep_loaded l;
	struct matrix_outcome out = { 0 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	int code = runprep_load(&a, b->datadir, b->cache, &l), r;

	*ret_run = NULL;
	if (code != BP_EXIT_OK)
		return code;
	/* The step's run id says which step it is. */
	free(l.plan->name);
	if (asprintf(&l.plan->name, "step%02u", s->n) < 0)
		abort();
	{
		struct matrix_opts mo = {
			.plan = l.plan,
			.datadir = b->datadir,
			.cache = b->cache,
			.ksrc = l.ksrc,
			.release = l.release,
			.results = steps,
			.accel = b->accel,
			.accel_reason = b->accel_reason,
			.uri = b->uri,
			.argc = b->o->argc,
			.argv = b->o->argv,
			.quiet = b->o->quiet,
			.jobs = b->o->jobs,
			/* a plan's distcc line: the steps build on its farm */
			.distcc_hosts = l.distcc_hosts,
			.distcc_slots = l.distcc_slots,
			.retries = b->o->retries,
			.interrupted = b->intr,
			.stages = b->o->stages,
			.stages_ud = b->o->stages_ud,
		};

		r = matrix_run(&mo, &out, &err);
	}
	runprep_loaded_done(&l);
	if (r < 0) {
		log_error("bisect: step %u: %s", s->n, err.buf);
		return r == -EINVAL || r == -ENOENT ? BP_EXIT_USAGE
						    : BP_EXIT_INFRA;
	}
	report_write(out.run->dir, NULL);
	*ret_run = out.run;
	return out.exit_code;
}

/* "lines 1-4, 7 of 9" */
static void lines_said(struct strbuf *sb, const bool *in, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		if (!in[i])
			continue;
		while (j + 1 < n && in[j + 1])
			j++;
		strbuf_addf(sb, "%s%zu", k++ ? ", " : "", i + 1);
		if (j > i)
			strbuf_addf(sb, "-%zu", j + 1);
		i = j;
	}
	if (!k)
		strbuf_addstr(sb, "none");
	strbuf_addf(sb, " of %zu", n);
}

/* The step's record in bisect.steps. */
static json_object *step_json(struct bs *b, const struct bisect_step *s,
			      const char *frag, const struct run *sr,
			      json_object *rec, enum bisect_outcome o,
			      const char *why, double secs)
{
	json_object *j = json_object_new_object();
	size_t dl = strlen(b->run->dir);

	json_object_object_add(j, "n", json_object_new_int((int)s->n));
	json_object_object_add(j, "kind", jsonx_new_str(bisect_kind_name(s->kind)));
	json_object_object_add(j, "phase", jsonx_new_str(bisect_phase_name(s->phase)));
	json_object_object_add(j, "part", s->parts ? json_object_new_int((int)s->part) : NULL);
	json_object_object_add(j, "parts", s->parts ? json_object_new_int((int)s->parts) : NULL);
	json_object_object_add(j, "lines", line_list(s->lines, b->n_lines));
	json_object_object_add(j, "dropped",
			       bisect_dropped(rec, b->lines, s->lines, b->n_lines));
	json_object_object_add(j, "fragment",
			       jsonx_new_str(frag ? frag + dl + 1 : NULL));
	json_object_object_add(j, "run", jsonx_new_str(sr ? sr->dir + dl + 1 : NULL));
	json_object_object_add(j, "candidate",
			       jsonx_new_str(jsonx_str(jsonx_get(rec, "candidate"), "id")));
	json_object_object_add(j, "outcome", jsonx_new_str(bisect_outcome_name(o)));
	json_object_object_add(j, "reason", jsonx_new_str(why));
	json_object_object_add(j, "seconds", json_object_new_double(secs));
	json_object_object_add(j, "reproduce",
			       jsonx_new_str(jsonx_str(jsonx_get(rec, "candidate"),
						       "reproduce")));
	return j;
}

/* Run step s; its outcome in *ret.  False when the engine has to stop
 * (b->stop says why). */
static bool run_step(struct bs *b, const struct bisect_step *s,
		     enum bisect_outcome *ret)
{
	_cleanup_free_ char *frag = NULL;
	_cleanup_strbuf_ struct strbuf what = STRBUF_INIT, why = STRBUF_INIT;
	struct run *sr = NULL;
	json_object *rec = NULL;
	double t0 = clock_mono_s();
	int code;

	lines_said(&what, s->lines, b->n_lines);
	if (s->parts)
		say(b, "step %u: %s %zu/%zu of %zu %s, lines %s", s->n,
		    bisect_kind_name(s->kind), s->part, s->parts, s->units,
		    s->phase == BISECT_PHASE_GROUPS ? "groups" : "lines",
		    what.buf);
	else
		say(b, "step %u: %s, lines %s", s->n,
		    bisect_kind_name(s->kind), what.buf);
	if (s->kind != BISECT_STEP_BASE && !(frag = write_fragment(b, s))) {
		b->stop = "infra";
		b->stop_why = "a step's fragment could not be written";
		b->stop_code = BP_EXIT_INFRA;
		return false;
	}
	code = matrix_step(b, s, frag, &sr);
	if (sr)
		rec = json_object_array_get_idx(sr->boots, 0);
	if (code == BP_EXIT_INTERRUPTED || (b->intr && *b->intr)) {
		b->stop = "interrupted";
		b->stop_why = "interrupted (SIGINT/SIGTERM): the steps so far "
			      "are kept";
		b->stop_code = BP_EXIT_INTERRUPTED;
	} else if (code == BP_EXIT_USAGE || !rec) {
		b->stop = "bad-input";
		b->stop_why = "a step's plan, group or base was refused (bad "
			      "input): see its message";
		b->stop_code = code == BP_EXIT_USAGE ? BP_EXIT_USAGE
						     : BP_EXIT_INFRA;
	}
	*ret = rec ? bisect_judge(&b->target, rec, &why) : BISECT_INFRA;
	if (!rec)
		strbuf_addstr(&why, "the step did not run");
	if (code == BP_EXIT_INFRA && *ret != BISECT_INFRA) {
		*ret = BISECT_INFRA;
		strbuf_addstr(&why, " (the host failed during the step)");
	}
	json_object_array_add(b->steps, step_json(b, s, frag, sr, rec, *ret,
						  why.buf,
						  clock_mono_s() - t0));
	if (*ret == BISECT_FAIL_SAME) {
		free(b->culprit_repro);
		b->culprit_repro = xstrdup(jsonx_str(jsonx_get(rec, "candidate"),
						     "reproduce") ?: "");
	}
	say(b, "step %u: %s: %s", s->n, bisect_outcome_name(*ret), why.buf);
	run_free(sr);
	save(b);
	return !b->stop;
}

/* ------------------------------------------------------------ the end */

/* The status, its reason, the culprit (or what it narrowed to); the exit
 * code. */
static int finish(struct bs *b, const struct bisect *bi)
{
	enum bisect_status st = bisect_status(bi);
	size_t n = 0;
	const bool *c = bisect_culprit(bi, &n);
	json_object *cj = NULL;
	int code;

	switch (st) {
	case BISECT_FOUND:
	case BISECT_BASE_FAILS:
	case BISECT_FLAKY:
	case BISECT_STEP_LIMIT:
		code = BP_EXIT_FAIL;
		break;
	case BISECT_NOT_REPRODUCED:
		code = BP_EXIT_OK;
		break;
	default:
		code = BP_EXIT_INFRA;
		break;
	}
	if (b->stop)
		code = b->stop_code;
	json_object_object_add(b->brec, "status",
			       jsonx_new_str(b->stop ?: bisect_status_name(st)));
	json_object_object_add(b->brec, "reason",
			       jsonx_new_str(b->stop_why ?: bisect_status_text(st)));
	json_object_object_add(b->brec, "interaction",
			       json_object_new_boolean(bisect_interaction(bi)));
	if (c) {
		cj = json_object_new_object();
		json_object_object_add(cj, "lines", line_list(c, b->n_lines));
		json_object_object_add(cj, "options", options_of(b, c));
		json_object_object_add(cj, "needs",
				       bisect_needs(b->steps, c, b->n_lines));
		json_object_object_add(cj, "fragment",
				       jsonx_new_str(st == BISECT_FOUND
							     ? "culprit.config"
							     : NULL));
		json_object_object_add(cj, "reproduce",
				       jsonx_new_str(st == BISECT_FOUND
							     ? b->culprit_repro
							     : NULL));
	}
	/* Only a found culprit is one; anything else is what it narrowed to
	 * before it stopped. */
	json_object_object_add(b->brec, "culprit",
			       st == BISECT_FOUND && !b->stop ? cj : NULL);
	json_object_object_add(b->brec, "narrowed",
			       st == BISECT_FOUND && !b->stop ? NULL : cj);
	json_object_object_add(b->brec, "steps_run",
			       json_object_new_int((int)bisect_steps(bi)));
	return code;
}

/* The accelerator: the one asked for, else the failing run's. */
static int choose_accel(struct bs *b)
{
	const char *mode = b->o->accel
				   ?: jsonx_str(jsonx_get(b->src, "host"), "accel")
				   ?: "auto";
	int r = guesthost_accel(mode, NULL, &b->accel, b->accel_reason,
				sizeof(b->accel_reason));

	if (r < 0) {
		log_error("bisect: %s", b->accel_reason);
		return r == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	b->uri = guesthost_uri(b->o->uri);
	return BP_EXIT_OK;
}

static int bisect_loop(struct bs *b)
{
	struct bisect *bi = NULL;
	struct bisect_step s;
	enum bisect_outcome o;
	int code;

	if (bisect_new(b->group_of, b->n_lines, b->n_groups, b->o->max_steps,
		       &bi) < 0) {
		log_error("bisect: %s has no option line to narrow", b->cand_id);
		return BP_EXIT_USAGE;
	}
	say(b, "%s of %s: %zu option lines in %zu group%s; looking for %s",
	    b->cand_id, jsonx_str(b->src, "run_id") ?: "?", b->n_lines,
	    b->n_groups, b->n_groups == 1 ? "" : "s", b->target.text);
	save(b);
	while (bisect_next(bi, &s)) {
		if (!run_step(b, &s, &o))
			break;
		bisect_report(bi, o);
	}
	code = finish(b, bi);
	bisect_free(bi);
	return code;
}

/* report.html of the bisection (engine/report: core/report_bisect). */
static void write_report(struct bs *b)
{
	int r = report_write_page(b->run->dir, b->run->doc, NULL);

	if (r < 0)
		log_warn_errno(r, "could not write %s/report.html", b->run->dir);
}

int bisectrun_run(const struct bisectrun_opts *o, struct run **ret_run)
{
	struct bs b = { .o = o };
	int code, r;

	*ret_run = NULL;
	b.datadir = o->datadir ? xstrdup(o->datadir) : bp_data_dir();
	b.cache = o->cache ? xstrdup(o->cache) : bp_cache_dir();
	if (!b.datadir || !b.cache) {
		log_error("bisect: cannot find bootproof's data directory "
			  "(scenarios/) or cache: set BOOTPROOF_DATADIR");
		bs_done(&b);
		return BP_EXIT_INFRA;
	}
	b.intr = interrupt_catch();
	code = load_source(&b);
	if (code == BP_EXIT_OK)
		code = load_groups(&b);
	if (code == BP_EXIT_OK)
		code = choose_accel(&b);
	if (code == BP_EXIT_OK)
		code = open_bisect(&b);
	if (code != BP_EXIT_OK) {
		bs_done(&b);
		return code;
	}
	code = bisect_loop(&b);
	r = run_close(b.run, code, code != BP_EXIT_INTERRUPTED);
	if (r < 0) {
		log_error_errno(r, "cannot write the results in %s", b.run->dir);
		if (code == BP_EXIT_OK)
			code = BP_EXIT_INFRA;
	}
	write_report(&b);
	*ret_run = TAKE_PTR(b.run);
	bs_done(&b);
	return code;
}
