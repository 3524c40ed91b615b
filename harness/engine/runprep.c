// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/runprep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bootproof.h"
#include "core/distcc.h"
#include "core/plan.h"
#include "engine/guesthost.h"
#include "engine/ksrc.h"
#include "engine/report.h"
#include "util/interrupt.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The lists a run uses: the user's, or those the resumed run recorded. */
struct names {
	const char **v;
	size_t n;
};

static void names_set(struct names *s, const char *const *v, size_t n)
{
	s->v = xrealloc(NULL, (n + 1) * sizeof(char *));
	if (n)
		memcpy(s->v, v, n * sizeof(char *));
	s->n = n;
}

static void names_from_json(struct names *s, json_object *arr)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(char *));
		s->v[s->n++] = json_object_get_string(
			json_object_array_get_idx(arr, i));
	}
}

static bool file_ok(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* PLAN as given, or scenarios/plans/<PLAN>[.plan] of the data directory. */
static char *find_plan(const char *datadir, const char *arg)
{
	_cleanup_free_ char *dir = path_join(datadir, "scenarios/plans");
	char *p;

	if (!arg)
		arg = "demo";
	if (strchr(arg, '/') || file_ok(arg))
		return strdup(arg);
	p = path_join(dir, arg);
	if (file_ok(p))
		return p;
	free(p);
	if (asprintf(&p, "%s/%s.plan", dir, arg) < 0)
		return NULL;
	return p;
}

/* What replaces the plan's own lists (the command line's, or those the
 * resumed run recorded). */
struct overrides {
	struct names arches, groups, base_groups, candidates, distcc;
	const char *base;
	bool have_base_groups;	/* even an empty list replaces */
};

/* With --resume: what the interrupted run used, for what is not given. */
static int from_record(const char *dir, const char *datadir, char **plan,
		       struct overrides *ov, char **ksrc,
		       json_object **ret_doc)
{
	struct names *arches = &ov->arches, *groups = &ov->groups;
	_cleanup_free_ char *p = path_join(dir, "run.json");
	json_object *doc = json_object_from_file(p), *pl, *v;

	if (!doc) {
		log_error("--resume %s: cannot read %s: %s", dir, p,
			  json_util_get_last_err());
		return -EINVAL;
	}
	*ret_doc = doc;
	pl = jsonx_get(doc, "plan");
	if (!pl) {
		log_error("--resume %s: %s is not the record of a `bootproof "
			  "run` (no plan)", dir, p);
		return -EINVAL;
	}
	if (!*plan && (v = jsonx_get(pl, "file")) &&
	    json_object_get_string(v)) {
		const char *f = json_object_get_string(v);

		*plan = f[0] == '/' ? strdup(f) : path_join(datadir, f);
	}
	if (!arches->n && (v = jsonx_get(pl, "arches")))
		names_from_json(arches, v);
	/* Only what --group gave: the plan's own groups come from the plan
	 * file, resolved against its directory as the first time. */
	if (!groups->n && (v = jsonx_get(pl, "group_args")) &&
	    json_object_is_type(v, json_type_array))
		names_from_json(groups, v);
	if (!*ksrc && (v = jsonx_get(pl, "ksrc")) && json_object_get_string(v))
		*ksrc = strdup(json_object_get_string(v));
	if (!ov->base && jsonx_str(pl, "base_arg"))
		ov->base = jsonx_str(pl, "base_arg");
	if (!ov->have_base_groups && (v = jsonx_get(pl, "base_group_args")) &&
	    json_object_is_type(v, json_type_array)) {
		names_from_json(&ov->base_groups, v);
		ov->have_base_groups = true;
	}
	if (!ov->candidates.n && (v = jsonx_get(pl, "candidates_arg")) &&
	    json_object_is_type(v, json_type_array))
		names_from_json(&ov->candidates, v);
	return 0;
}

/* The plan file, with what the command line replaces; a BP_EXIT_*. */
static int load_plan(const char *plan_path, const struct overrides *ov,
		     struct plan **ret)
{
	const struct names *arches = &ov->arches, *groups = &ov->groups;
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	int r;

	r = strbuf_read_file(&sb, plan_path, 1 << 20);
	if (r < 0) {
		log_error_errno(r, "run: plan %s", plan_path);
		return BP_EXIT_USAGE;
	}
	r = plan_parse(plan_path, sb.buf, sb.len, ret, &err);
	/* The base first: --arch checks every arch has one. */
	if (r >= 0 && ov->base)
		r = plan_set_base(*ret, ov->base, &err);
	if (r >= 0 && ov->have_base_groups)
		r = plan_set_base_groups(*ret, ov->base_groups.v,
					 ov->base_groups.n, &err);
	if (r >= 0 && ov->candidates.n)
		r = plan_set_candidates(*ret, ov->candidates.v,
					ov->candidates.n, &err);
	if (r >= 0 && arches->n)
		r = plan_set_arches(*ret, arches->v, arches->n, &err);
	if (r >= 0 && groups->n)
		r = plan_set_groups(*ret, groups->v, groups->n, &err);
	if (r >= 0 && ov->distcc.n)
		r = plan_set_distcc(*ret, ov->distcc.v, ov->distcc.n, &err);
	if (r < 0) {
		log_error("run: %s", err.buf);
		return r == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	return BP_EXIT_OK;
}

/* The kernel tree and its release; a BP_EXIT_*. */
static int find_ksrc(const char *ksrc_arg, const char *cache, char **ret_ksrc,
		     char **ret_release)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *unpack = ksrc_unpack_dir(cache,
						      KSRC_DEFAULT_TARBALL);
	int r;

	/* Started inside a kernel tree: that tree (a developer's loop). */
	if (!ksrc_arg && ksrc_looks_like(".")) {
		ksrc_arg = ".";
		log_info("kernel tree: the current directory (--ksrc DIR "
			 "names another)");
	}
	if (!ksrc_arg && unpack &&
	    !ksrc_is_unpacked(KSRC_DEFAULT_TARBALL, unpack))
		log_info("unpacking %s into %s (once; a minute or two)",
			 KSRC_DEFAULT_TARBALL, unpack);
	r = ksrc_resolve(ksrc_arg, cache, ret_ksrc, &err);
	if (r < 0) {
		log_error("run: %s", err.buf);
		return ksrc_arg &&
			       (r == -ENOENT || r == -EINVAL || r == -ENOTDIR)
			   ? BP_EXIT_USAGE
			   : BP_EXIT_INFRA;
	}
	r = ksrc_release(*ret_ksrc, ret_release);
	if (r < 0) {
		log_error_errno(r, "run: %s: no kernel release in its Makefile",
				*ret_ksrc);
		return BP_EXIT_INFRA;
	}
	return BP_EXIT_OK;
}

/* --shard and --shard-by, or the shard the resumed run recorded; a
 * BP_EXIT_*. */
static int find_shard(const struct runprep_args *a, json_object *resumed,
		      struct runprep_loaded *l)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	json_object *rec = jsonx_get(resumed, "shard");
	struct shard_spec old;

	l->shard_by = SHARD_BY_COST;
	if (a->shard_by && shard_by_parse(a->shard_by, &l->shard_by) < 0) {
		log_error("run: --shard-by %s: expected cost or order",
			  a->shard_by);
		return BP_EXIT_USAGE;
	}
	if (a->shard_by && !a->shard && !rec) {
		log_error("run: --shard-by %s needs --shard K/N", a->shard_by);
		return BP_EXIT_USAGE;
	}
	if (a->shard && shard_parse(a->shard, &l->shard, &err) < 0) {
		log_error("run: --shard %s", err.buf);
		return BP_EXIT_USAGE;
	}
	if (rec && shard_from_record(rec, &old, &err) < 0) {
		log_error("run: --resume %s: %s", a->resume, err.buf);
		return BP_EXIT_USAGE;
	}
	if (rec && a->shard && (old.k != l->shard.k || old.n != l->shard.n)) {
		log_error("run: --resume %s is shard %u/%u; --shard %s differs",
			  a->resume, old.k, old.n, a->shard);
		return BP_EXIT_USAGE;
	}
	if (resumed && !rec && a->shard) {
		log_error("run: --resume %s ran every candidate; it cannot "
			  "become a shard", a->resume);
		return BP_EXIT_USAGE;
	}
	if (rec) {
		l->shard = old;
		shard_by_parse(jsonx_str(rec, "asked"), &l->shard_by);
	}
	l->sharded = rec || a->shard;
	return BP_EXIT_OK;
}

/* Everything the matrix needs is known: run it, then the report. */
static int run_matrix(const struct runprep_args *a, struct matrix_opts *mo,
		      struct matrix_outcome *ret, char **ret_report)
{
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	char accel_reason[GUESTHOST_REASON_MAX];
	int r;

	r = guesthost_accel(a->accel, NULL, &mo->accel, accel_reason,
			    sizeof(accel_reason));
	if (r < 0) {
		log_error("%s", accel_reason);
		return r == -EINVAL ? BP_EXIT_USAGE : BP_EXIT_INFRA;
	}
	mo->accel_reason = accel_reason;
	mo->uri = guesthost_uri(a->uri);
	mo->interrupted = interrupt_catch();
	if (!a->quiet)
		log_info("plan %s: %s; Linux %s at %s; %s", mo->plan->name,
			 mo->plan->file, mo->release, mo->ksrc, accel_reason);
	r = matrix_run(mo, ret, &err);
	if (r < 0) {
		log_error("run: %s", err.buf);
		return r == -EINVAL || r == -ENOENT ? BP_EXIT_USAGE
						    : BP_EXIT_INFRA;
	}
	/* The human-readable report; run.json when it could not be
	 * written (report_write says why). */
	if (report_write(ret->run->dir, ret_report) < 0 || !*ret_report)
		*ret_report = run_path(ret->run, "run.json");
	return ret->exit_code;
}

int runprep_load(const struct runprep_args *a, const char *datadir,
		 const char *cache, struct runprep_loaded *ret)
{
	_cleanup_free_ char *plan_path = NULL, *ksrc_arg = NULL;
	struct overrides ov = { .base = a->base,
				.have_base_groups = a->n_base_groups > 0 };
	json_object *resumed_doc = NULL;
	int code = BP_EXIT_OK;

	*ret = (struct runprep_loaded){ 0 };
	names_set(&ov.arches, a->arches, a->n_arches);
	names_set(&ov.groups, a->groups, a->n_groups);
	names_set(&ov.base_groups, a->base_groups, a->n_base_groups);
	names_set(&ov.candidates, a->candidates, a->n_candidates);
	names_set(&ov.distcc, a->distcc, a->n_distcc);
	if (a->ksrc)
		ksrc_arg = xstrdup(a->ksrc);
	if (a->plan)
		plan_path = find_plan(datadir, a->plan);
	if (a->resume && from_record(a->resume, datadir, &plan_path, &ov,
				     &ksrc_arg, &resumed_doc) < 0)
		code = BP_EXIT_USAGE;
	if (code == BP_EXIT_OK && !plan_path)
		plan_path = find_plan(datadir, NULL);
	if (code == BP_EXIT_OK)
		code = load_plan(plan_path, &ov, &ret->plan);
	if (code == BP_EXIT_OK)
		code = find_shard(a, resumed_doc, ret);
	if (code == BP_EXIT_OK && ret->plan->n_distcc) {
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;

		if (distcc_farm((const char *const *)ret->plan->distcc,
				ret->plan->n_distcc, &ret->distcc_hosts,
				&ret->distcc_slots, &err) < 0) {
			log_error("run: %s", err.buf);
			code = BP_EXIT_USAGE;
		}
	}
	if (code == BP_EXIT_OK)
		code = find_ksrc(ksrc_arg, cache, &ret->ksrc, &ret->release);
	free(ov.arches.v);
	free(ov.groups.v);
	free(ov.base_groups.v);
	free(ov.candidates.v);
	free(ov.distcc.v);
	json_object_put(resumed_doc);
	if (code != BP_EXIT_OK)
		runprep_loaded_done(ret);
	return code;
}

void runprep_loaded_done(struct runprep_loaded *l)
{
	plan_free(l->plan);
	free(l->distcc_hosts);
	free(l->ksrc);
	free(l->release);
	*l = (struct runprep_loaded){ 0 };
}

int runprep_run(const struct runprep_args *a, struct matrix_outcome *ret,
		char **ret_report)
{
	_cleanup_free_ char *datadir = bp_data_dir(), *cache = bp_cache_dir();
	struct runprep_loaded l;
	int code;

	*ret = (struct matrix_outcome){ 0 };
	*ret_report = NULL;
	if (!datadir) {
		log_error("run: cannot find bootproof's data directory "
			  "(scenarios/): set BOOTPROOF_DATADIR to the source "
			  "checkout");
		return BP_EXIT_INFRA;
	}
	if (!cache)
		return BP_EXIT_INFRA;
	code = runprep_load(a, datadir, cache, &l);
	if (code == BP_EXIT_OK) {
		struct matrix_opts mo = {
			.plan = l.plan,
			.datadir = datadir,
			.cache = cache,
			.ksrc = l.ksrc,
			.release = l.release,
			.results = a->results,
			.resume = a->resume,
			.argc = a->argc,
			.argv = a->argv,
			.quiet = a->quiet,
			.jobs = a->jobs,
			.retries = a->retries,
			.boots = a->boots,
			.parallel = a->parallel ? a->parallel
						: MATRIX_PARALLEL_AUTO,
			.rebuild = a->rebuild,
			.lava = a->lava,
			.distcc_hosts = l.distcc_hosts,
			.distcc_slots = l.distcc_slots,
			.shard = l.sharded ? &l.shard : NULL,
			.shard_by = l.shard_by,
		};

		code = run_matrix(a, &mo, ret, ret_report);
		runprep_loaded_done(&l);
	}
	return code;
}
