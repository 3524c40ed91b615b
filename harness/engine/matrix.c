// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/matrix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapters/image_guestfs.h"
#include "adapters/workers.h"
#include "core/arch.h"
#include "core/archjobs.h"
#include "core/buildorder.h"
#include "core/eta.h"
#include "core/groups.h"
#include "core/groupverdict.h"
#include "core/kconfig.h"
#include "core/matrixrec.h"
#include "core/overlap.h"
#include "core/recjson.h"
#include "core/repro.h"
#include "core/verdict.h"
#include "engine/boot.h"
#include "engine/bootsamples.h"
#include "engine/buildstage.h"
#include "engine/configcache.h"
#include "engine/configstage.h"
#include "engine/costs.h"
#include "engine/image.h"
#include "engine/ksrc.h"
#include "engine/lavaemit.h"
#include "engine/plangroups.h"
#include "engine/progress.h"
#include "util/clock.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/lockfile.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------ the matrix */

/* A candidate: its record's identity (core/matrixrec), where its files go,
 * and what an interrupted run recorded for it. */
struct cand {
	struct matrixrec_cand rc;	/* first: the real stages get &rc from
					 * the table and find the cand */
	char *dir;		/* <run>/<id> */
	size_t index;		/* in the run's boots */
	json_object *old;	/* the record being resumed, or NULL */
	int keep;		/* what of old stays (reusable()) */
	bool full;		/* its build recompiles every object (first of
				 * its arch, or other global options than the
				 * one built before: core/buildorder) */
	unsigned shard;		/* the shard that runs it (0: no shards) */
	bool elsewhere;		/* another shard runs it: a stub here */
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
	struct plangroups pg;	/* the plan's groups per arch */
	struct cand *cands;
	size_t n_cands;
	struct run *run;
	struct image_slot *images;
	size_t n_images;
	bool bad_input, infra;
	struct progress prog;
	size_t current;		/* candidate whose boot is running */
	const struct matrix_stage_ops *stages;
	void *stages_ud;
	char *toolchain;	/* gcc and ld versions, for the config key */
	struct ksrc_state src;	/* a user's tree as it is now (engine/ksrc) */
	double *boot_s;		/* wall seconds of this run's boots, for the
				 * ETA */
	size_t n_boot_s;
	json_object *shard_rec;	/* run.json's "shard", or NULL */
	size_t n_own;		/* candidates this run runs */
	/* In a worker (run_workers): where save() writes its candidates'
	 * records instead of run.json, and which they are. */
	char *worker_file;
	const size_t *worker_list;
	size_t n_worker_list;
	bool worker_cut;	/* a worker was interrupted: so is the run */
};

static void matrix_done(struct matrix *m)
{
	plangroups_done(&m->pg);
	for (size_t i = 0; i < m->n_cands; i++) {
		free(m->cands[i].rc.id);
		free(m->cands[i].rc.groups);
		free(m->cands[i].rc.scenarios);
		free(m->cands[i].dir);
		free(m->cands[i].rc.name);
		free(m->cands[i].rc.reproduce);
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
	free(m->boot_s);
	json_object_put(m->shard_rec);
}

static bool interrupted(const struct matrix *m)
{
	return m->worker_cut || (m->o->interrupted && *m->o->interrupted);
}

/* ------------------------------------------------------------ candidates */

static void add_cand(struct matrix *m, const struct matrixrec_arch *as,
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
	c->rc.as = as;
	c->rc.kind = kind;
	c->index = m->n_cands++;
	/* A group called "base" or "all" must not take those ids. */
	if (asprintf(&c->rc.id, "%s-%s%s", as->arch,
		     kind == PLAN_CAND_EACH && (!strcmp(which, "base") ||
						!strcmp(which, "all"))
			     ? "group-"
			     : "",
		     which) < 0)
		abort();
	c->rc.n_base = as->n_base_groups;
	c->rc.n_groups = as->n_base_groups + n;
	c->rc.groups = xrealloc(NULL, (c->rc.n_groups + 1) * sizeof(*c->rc.groups));
	/* (memcpy from NULL is undefined even for 0 bytes: a plan without
	 * base groups, the base candidate) */
	if (as->n_base_groups)
		memcpy(c->rc.groups, as->base_groups,
		       as->n_base_groups * sizeof(*c->rc.groups));
	if (n)
		memcpy(c->rc.groups + as->n_base_groups, gs,
		       n * sizeof(*c->rc.groups));

	for (size_t s = 0; group_known_scenarios[s]; s++) {
		const char *name = group_known_scenarios[s];
		bool wanted = !strcmp(name, "boot");

		for (size_t i = 0; i < c->rc.n_groups && !wanted; i++)
			wanted = group_has_scenario(c->rc.groups[i], name);
		if (wanted && plan_allows_scenario(m->o->plan, name))
			strbuf_addf(&sc, "%s%s", sc.len ? "," : "", name);
	}
	c->rc.scenarios = sc.len ? strbuf_detach(&sc, NULL) : xstrdup("boot");
}

/* p made absolute when it names a file that exists, else as it is. */
static char *abs_or(const char *p)
{
	char *a = realpath(p, NULL);

	return a ? a : xstrdup(p);
}

/* The command that runs c alone again (core/repro), every file absolute. */
static char *cand_reproduce(const struct matrix *m, const struct cand *c)
{
	_cleanup_free_ char *plan = abs_or(m->o->plan->file);
	_cleanup_free_ char *base = strchr(c->rc.as->base, '/')
					    ? abs_or(c->rc.as->base)
					    : xstrdup(c->rc.as->base);
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char **files = xrealloc(NULL, (c->rc.n_groups + 1) * sizeof(char *));
	struct repro_run r = {
		.plan = plan,
		.arch = c->rc.as->arch,
		.base = base,
		.base_groups = (const char *const *)files,
		.n_base_groups = c->rc.n_base,
		.groups = (const char *const *)files + c->rc.n_base,
		.n_groups = c->rc.n_groups - c->rc.n_base,
		.candidates = plan_candidate_kind_name(c->rc.kind),
		.accel = bp_accel_name(m->o->accel),
		.ksrc = m->o->ksrc,
	};

	for (size_t i = 0; i < c->rc.n_groups; i++)
		files[i] = abs_or(c->rc.groups[i]->file);
	repro_command(&r, &sb);
	for (size_t i = 0; i < c->rc.n_groups; i++)
		free(files[i]);
	free(files);
	return strbuf_detach(&sb, NULL);
}

static void make_cands(struct matrix *m)
{
	unsigned k = m->o->plan->candidates;

	for (size_t a = 0; a < m->pg.n_arches; a++) {
		const struct matrixrec_arch *as = &m->pg.arches[a];

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

/* ------------------------------------------------------------ shards */

static bool config_key(struct matrix *m, const struct cand *c, char *ret);

/* A boot's cost until this run measured one: TCG boots of the demo
 * kernels take 30-60 s here (docs/run.md). */
#define ETA_DEFAULT_BOOT_S 60.0

/* What the candidate is expected to cost: its build as the build cache
 * measured it (when the config cache holds its final .config) plus its
 * boots; < 0 when the caches do not know it. */
static double cand_cost(struct matrix *m, const struct cand *c)
{
	const struct matrix_opts *o = m->o;
	char key[SHA256_HEX_LEN + 1];
	_cleanup_free_ char *dir = NULL, *conf = NULL;
	unsigned boots = o->boots ? o->boots : o->plan->boots ? o->plan->boots : 1;
	double s;

	if (!o->cache || !o->ksrc || !o->release || !config_key(m, c, key))
		return -1;
	dir = configcache_dir(o->cache, o->ksrc, o->release, c->rc.as->arch, key);
	conf = dir ? path_join(dir, "config") : NULL;
	if (!conf || buildstage_measured(o->cache, o->ksrc, o->release, conf,
					 &s) < 0)
		return -1;
	return s + boots * ETA_DEFAULT_BOOT_S;
}

/* The split a resumed shard recorded, or NULL. */
static json_object *recorded_split(const struct matrix *m)
{
	_cleanup_free_ char *p = NULL;
	json_object *doc, *sh;

	if (!m->o->resume)
		return NULL;
	p = path_join(m->o->resume, "run.json");
	doc = json_object_from_file(p);
	sh = json_object_get(jsonx_get(doc, "shard"));
	json_object_put(doc);
	return sh;
}

/* Which shard runs each candidate (core/shard), recorded in m->shard_rec. */
static int assign_shards(struct matrix *m, struct strbuf *err)
{
	const struct shard_spec *spec = m->o->shard;
	struct shard_item *items;
	unsigned *assign;
	json_object *old;

	m->n_own = m->n_cands;
	if (!spec)
		return 0;
	items = xrealloc(NULL, m->n_cands * sizeof(*items));
	assign = xrealloc(NULL, m->n_cands * sizeof(*assign));
	old = recorded_split(m);
	for (size_t i = 0; i < m->n_cands; i++)
		items[i] = (struct shard_item){ m->cands[i].rc.id,
						old ? -1 : cand_cost(m, &m->cands[i]) };
	if (old) {
		/* The split it was started with, whatever the cache knows now. */
		for (size_t i = 0; i < m->n_cands; i++)
			assign[i] = shard_of(old, m->cands[i].rc.id);
		m->shard_rec = old;
	} else {
		enum shard_by used = shard_split(items, m->n_cands, spec->n,
						 m->o->shard_by, assign);

		m->shard_rec = shard_record(spec, m->o->shard_by, used, items,
					    m->n_cands, assign);
	}
	m->n_own = 0;
	for (size_t i = 0; i < m->n_cands; i++) {
		m->cands[i].shard = assign[i];
		m->cands[i].elsewhere = assign[i] != spec->k;
		if (!m->cands[i].elsewhere)
			m->n_own++;
	}
	free(items);
	free(assign);
	for (size_t i = 0; i < m->n_cands; i++)
		if (!m->cands[i].shard)
			return strbuf_fail(err, -EINVAL, "%s/run.json: its shard "
					   "split lacks candidate %s (another "
					   "plan?)", m->o->resume,
					   m->cands[i].rc.id);
	return 0;
}

/* ------------------------------------------------------------ records */

static json_object *rec_of(const struct matrix *m, const struct cand *c)
{
	return json_object_array_get_idx(m->run->boots, c->index);
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
	json_object_object_add(m->run->doc, "groups",
			       matrixrec_groups(m->run->boots, m->pg.arches,
						m->pg.n_arches, m->pg.names,
						m->pg.n_names, m->o->plan));
}

static void worker_save(struct matrix *m);

static void save(struct matrix *m)
{
	int r;

	if (m->worker_file) {
		worker_save(m);
		return;
	}
	update_groups(m);
	r = run_save(m->run);
	if (r < 0) {
		progress_clear(&m->prog);
		log_warn_errno(r, "could not save %s/run.json", m->run->dir);
	}
}

static bool file_ok(const char *p)
{
	struct stat st;

	return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static unsigned fail_flag(int r)
{
	return r == -EINVAL ? MATRIX_STAGE_BAD_INPUT : MATRIX_STAGE_INFRA;
}

/* ------------------------------------------------------------ config */

static json_object *option_json(const struct matrix *m,
				 const struct configstage_option *op)
{
	struct matrixrec_option v = {
		.group = op->group ? op->group->name : NULL,
		.requested = op->requested,
		.final = op->final,
		.overridden_by = op->overridden_by,
		.verdict = op->verdict,
		.kept = op->kept,
		.kind = op->kind == EXPLAIN_STALE_BASE ? op->cause : op->kind,
		.reason = op->reason,
		.detail = op->detail,
	};

	return matrixrec_option(&v, m->o->datadir);
}

/* The config stage's record from configstage's result. */
static json_object *config_json(const struct matrix *m, const struct cand *c,
				const struct configstage_result *res,
				double seconds, double cpu)
{
	_cleanup_free_ char *rel = NULL;
	struct matrixrec_config v = {
		.release = res->release,
		.n_dropped = res->n_dropped,
		.opts = json_object_new_array(),
		.stale = json_object_new_array(),
		.explain_error = res->explain_error,
		.seconds = seconds,
		.cpu_seconds = cpu,
	};

	if (asprintf(&rel, "%s/config", c->rc.id) < 0)
		abort();
	v.final_config = rel;
	for (size_t i = 0; i < res->n_opts; i++)
		json_object_array_add(res->opts[i].group ? v.opts : v.stale,
				      option_json(m, &res->opts[i]));
	return matrixrec_config(&v);
}

/* The config key, or false when it cannot be had (no caching then). */
static bool config_key(struct matrix *m, const struct cand *c, char *ret)
{
	_cleanup_free_ char *helper = path_join(m->o->datadir,
						 "harness/kconfig-explain/"
						 "kconfig-explain.c");
	struct configcache_key k = {
		.ksrc = m->o->ksrc,
		.release = m->o->release,
		.arch = c->rc.as->arch,
		.base = c->rc.as->base,
		.helper = helper,
		.groups = c->rc.groups,
		.n_groups = c->rc.n_groups,
	};

	if (!m->toolchain)
		m->toolchain = configcache_toolchain();
	k.toolchain = m->toolchain;
	k.src_state = m->src.tracked ? m->src.kconfig : NULL;
	return configcache_key(&k, ret) == 0;
}

/* configstage under the tree's config lock; the final .config copied to
 * the candidate's directory. */
static int config_run(struct matrix *m, const struct cand *c,
		      struct configstage_result **ret, double *ret_s,
		      double *ret_cpu, struct strbuf *err)
{
	_cleanup_free_ char *ws = buildstage_workdir(
		m->o->cache, m->o->ksrc, m->o->release, c->rc.as->arch, NULL);
	_cleanup_free_ char *odir = path_join(ws, "config");
	_cleanup_free_ char *lockp = path_join(ws, ".config.lock");
	_cleanup_free_ char *dst = path_join(c->dir, "config");
	_cleanup_configstage_result_ struct configstage_result *res = NULL;
	_cleanup_lockfile_ int lock = -1;
	struct configstage_opts co = {
		.ksrc = m->o->ksrc,
		.arch = c->rc.as->arch,
		.base = c->rc.as->base,
		.groups = c->rc.groups,
		.n_groups = c->rc.n_groups,
		.cache = m->o->cache,
		.datadir = m->o->datadir,
		.odir = odir,
		.cancel = m->o->interrupted,
	};
	double t0, cpu0;
	int r = mkdir_p(ws, 0755);

	if (r >= 0)
		r = lock = lockfile_take(lockp, 0, m->o->interrupted);
	if (r < 0)
		return strbuf_fail(err, r, "%s: %s", lockp, strerror(-r));
	t0 = clock_mono_s();
	cpu0 = clock_children_cpu_s();
	r = configstage_run(&co, &res, err);
	*ret_s = clock_mono_s() - t0;
	*ret_cpu = clock_children_cpu_s() - cpu0;
	if (r < 0)
		return r;
	r = copy_file_atomic(res->final_config, dst, 0644);
	if (r < 0)
		return strbuf_fail(err, r, "cannot copy %s to %s: %s",
				   res->final_config, dst, strerror(-r));
	*ret = TAKE_PTR(res);
	return 0;
}

static unsigned stage_config(void *ud, const struct matrix_stage *st,
			     json_object **ret)
{
	struct matrix *m = ud;
	const struct cand *c = (const struct cand *)st->cand;
	_cleanup_configstage_result_ struct configstage_result *res = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ char *dir = NULL, *dst = NULL, *rel = NULL;
	json_object *j;
	char key[SHA256_HEX_LEN + 1];
	bool have_key;
	double secs = 0, cpu = 0;
	int r;

	progress_start(&m->prog, c->rc.id, "config");
	have_key = config_key(m, c, key);
	if (have_key)
		dir = configcache_dir(m->o->cache, m->o->ksrc, m->o->release,
				      c->rc.as->arch, key);
	dst = path_join(c->dir, "config");
	if (asprintf(&rel, "%s/config", c->rc.id) < 0)
		abort();
	if (dir && !m->o->rebuild && (j = configcache_load(dir, dst, rel))) {
		json_object *d = jsonx_get(j, "dropped");

		progress_end(&m->prog, "reused: %s, %d option%s dropped",
			     jsonx_str(j, "result"), d ? json_object_get_int(d) : 0,
			     d && json_object_get_int(d) == 1 ? "" : "s");
		*ret = j;
		return 0;
	}
	r = config_run(m, c, &res, &secs, &cpu, &err);
	if (r < 0 && interrupted(m)) {
		/* not a result: a resumed run does the stage again */
		progress_end(&m->prog, "interrupted");
		return 0;
	}
	if (r < 0) {
		*ret = matrixrec_config_fail(m->o->release, err.buf);
		progress_end(&m->prog, "FAILED: %s", err.buf);
		return fail_flag(r);
	}
	j = config_json(m, c, res, secs, cpu);
	if (dir && !res->explain_error)
		configcache_store(dir, dst, j, m->o->rebuild);
	json_object_object_add(j, "reused", json_object_new_boolean(0));
	progress_end(&m->prog, "%s: %zu option%s dropped, %zu stale base line%s "
		     "(%.0f s of CPU)",
		     res->n_dropped ? "partial" : "pass", res->n_dropped,
		     res->n_dropped == 1 ? "" : "s", res->n_stale,
		     res->n_stale == 1 ? "" : "s", cpu);
	*ret = j;
	return 0;
}

/* ------------------------------------------------------------ build */

static void on_make_line(void *ud, const char *line)
{
	struct matrix *m = ud;

	line += strspn(line, " ");
	if (*line)
		progress_detail(&m->prog, line);
}

static json_object *build_json(const struct matrix *m,
			       const struct buildstage_result *res,
			       const char *log)
{
	struct matrixrec_build v = {
		.status = buildstage_status_name(res->status),
		.failed = res->status == BUILDSTAGE_FAIL,
		.reused = res->reused,
		.reason = res->reason,
		.built = res->built,
		.first_error = res->error.text,
		.first_error_log_line = res->error.log_line,
		.log = log,
		.seconds = res->seconds,
		.built_seconds = res->built_seconds,
		.cpu_seconds = res->cpu_seconds,
		.hash = res->hash,
		.bzimage = res->bzimage,
		.vmlinux = res->vmlinux,
		.system_map = res->system_map,
		.config = res->config,
		.modules = res->modules,
		.dir = res->dir,
		.kernelrelease = res->kernelrelease,
		.distcc = res->distcc,
	};
	json_object *j = matrixrec_build(&v, m->o->ksrc);

	if (res->measure)
		json_object_object_add(j, "measure",
				       json_object_get(res->measure));
	return j;
}

static void build_said(struct matrix *m, const struct buildstage_result *res,
		       json_object *j)
{
	switch (res->status) {
	case BUILDSTAGE_PASS:
		progress_end(&m->prog, "pass, %.0f s of CPU (%.12s)",
			     res->cpu_seconds, res->hash);
		break;
	case BUILDSTAGE_REUSED:
		progress_end(&m->prog, "reused %s (built in %.0f s, %.0f s of CPU)",
			     res->dir, res->built_seconds, res->cpu_seconds);
		break;
	case BUILDSTAGE_FAIL:
		progress_end(&m->prog, "FAILED%s: %s",
			     res->reused ? " (before)" : "",
			     jsonx_str(j, "first_error") ?: res->reason);
		break;
	case BUILDSTAGE_CANCELLED:
		progress_end(&m->prog, "interrupted");
		break;
	}
}

/* The final .config of the arch's base candidate, for an "each"
 * candidate (its build measured as an incremental one after the base,
 * docs/cost.md), when the base built; else NULL.  malloc'd. */
static char *base_config(const struct matrix *m, const struct cand *c)
{
	for (size_t i = 0; c->rc.kind == PLAN_CAND_EACH && i < m->n_cands; i++) {
		const struct cand *b = &m->cands[i];
		const char *br = jsonx_str(jsonx_get(rec_of(m, b), "build"),
					   "result");

		if (b->rc.kind == PLAN_CAND_BASE && b->rc.as == c->rc.as && br &&
		    (!strcmp(br, "pass") || !strcmp(br, "reused")))
			return path_join(b->dir, "config");
	}
	return NULL;
}

static unsigned stage_build(void *ud, const struct matrix_stage *st,
			    json_object **ret)
{
	struct matrix *m = ud;
	const struct cand *c = (const struct cand *)st->cand;
	_cleanup_free_ char *config = path_join(c->dir, "config");
	_cleanup_free_ char *log = path_join(c->dir, "build.log");
	_cleanup_free_ char *rel = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_(buildstage_result_done) struct buildstage_result res = { 0 };
	struct buildstage_opts bo = {
		.ksrc = m->o->ksrc,
		.release = m->o->release,
		.arch = c->rc.as->arch,
		.config = config,
		.cache = m->o->cache,
		.log = log,
		.jobs = m->o->jobs,
		.distcc_hosts = m->o->distcc_hosts,
		.distcc_slots = m->o->distcc_slots,
		.rebuild = m->o->rebuild,
		.src_state = m->src.tracked ? m->src.files : NULL,
		.cancel = m->o->interrupted,
		.on_line = on_make_line,
		.ud = m,
	};
	_cleanup_free_ char *after = NULL;
	int r;

	progress_start(&m->prog, c->rc.id, "build");
	if (asprintf(&rel, "%s/build.log", c->rc.id) < 0)
		abort();
	after = base_config(m, c);
	bo.after = after;
	r = buildstage_run(&bo, &res, &err);
	if (r < 0) {
		*ret = matrixrec_build_infra(err.buf,
					     access(log, R_OK) == 0 ? rel : NULL,
					     res.hash[0] ? res.hash : NULL);
		progress_end(&m->prog, "cannot build: %s", err.buf);
		return MATRIX_STAGE_INFRA;
	}
	*ret = build_json(m, &res, rel);
	build_said(m, &res, *ret);
	return 0;
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
	progress_clear(&m->prog);
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
	progress_detail(&m->prog, d.buf);
}

/* "BOOTED; scenarios boot:pass bpf:fail" */
static void boot_said(struct matrix *m, json_object *rec)
{
	json_object *sc = jsonx_get(rec, "scenarios");
	const char *v = jsonx_str(rec, "verdict");
	_cleanup_strbuf_ struct strbuf d = STRBUF_INIT;

	strbuf_addf(&d, "%s", v);
	if (!v || strcmp(v, "BOOTED"))
		strbuf_addf(&d, ": %s", jsonx_str(rec, "reason"));
	for (size_t i = 0; sc && i < json_object_array_length(sc); i++) {
		json_object *s = json_object_array_get_idx(sc, i);

		strbuf_addf(&d, "%s%s:%s", i ? " " : "; scenarios ",
			    jsonx_str(s, "name"), jsonx_str(s, "result"));
	}
	progress_end(&m->prog, "%s", d.buf);
}

/* The boot request of candidate c, as engine/boot runs it (strings
 * borrowed from the record a and the image slot). */
static void cand_request(struct matrix *m, const struct cand *c, json_object *a,
			 const struct image_slot *img, const char *prefix,
			 const char *stage, struct boot_request *ret)
{
	*ret = (struct boot_request){
		.name = c->rc.name,
		.accel = m->o->accel,
		.accel_reason = m->o->accel_reason,
		.uri = m->o->uri,
		.kernel = jsonx_str(a, "bzImage"),
		.vmlinux = jsonx_str(a, "vmlinux"),
		.config = jsonx_str(a, "config"),
		.image = img->img.path,
		.scenarios = c->rc.scenarios,
		.timeout_s = m->o->plan->timeout_s,
		.retries = m->o->retries,
		.run_dir = m->run->dir,
		.prefix = prefix,
		.stage_dir = stage,
		.ops = m->o->ops,
		.interrupted = m->o->interrupted,
		.quiet = true,
		.on_update = on_boot_update,
		.ud = m,
	};
	bp_arch_from_name(c->rc.as->arch, &ret->arch); /* plan: checked */
}

/* The candidate's root image, or an INFRA stub in *ret. */
static struct image_slot *cand_image(struct matrix *m, const struct cand *c,
				     json_object *a, json_object **ret,
				     unsigned *ret_flags)
{
	struct image_slot *img = image_for(m, c->rc.as->arch,
					   jsonx_str(a, "modules"));
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (img->err >= 0)
		return img;
	strbuf_addf(&why, "root image: %s", img->why);
	*ret = matrixrec_stub(&c->rc, NULL, NULL, why.buf);
	json_object_object_add(*ret, "verdict", jsonx_new_str("INFRA"));
	progress_end(&m->prog, "INFRA: %s", why.buf);
	*ret_flags = fail_flag(img->err);
	return NULL;
}

static unsigned stage_boot(void *ud, const struct matrix_stage *st,
			   json_object **ret)
{
	struct matrix *m = ud;
	const struct cand *c = (const struct cand *)st->cand;
	json_object *a = jsonx_get(jsonx_get(st->rec, "build"), "artifacts");
	_cleanup_free_ char *runs = path_join(m->o->cache, "runs");
	_cleanup_free_ char *stage = path_join(runs, c->rc.name);
	_cleanup_free_ char *prefix = NULL;
	struct image_slot *img;
	struct boot_outcome out = { 0 };
	struct boot_request req;
	unsigned flags = 0;
	int r;

	progress_start(&m->prog, c->rc.id, "boot");
	img = cand_image(m, c, a, ret, &flags);
	if (!img)
		return flags;
	if (asprintf(&prefix, "%s/", c->rc.id) < 0)
		abort();
	m->current = c->index;
	cand_request(m, c, a, img, prefix, stage, &req);
	r = boot_run(&req, &out);
	if (r == 0 && out.verdict != VERDICT_INFRA)
		bootsamples_run(&req, m->o->boots ? m->o->boots : m->o->plan->boots,
				out.record);
	if (r < 0) {
		progress_end(&m->prog, "cannot boot: %s", strerror(-r));
		return MATRIX_STAGE_INFRA;
	}
	json_object_object_add(out.record, "image_bytes",
			       json_object_new_int64((int64_t)img->img.size));
	boot_said(m, out.record);
	*ret = out.record;
	return out.verdict == VERDICT_INFRA ? MATRIX_STAGE_INFRA : 0;
}

/* Instead of the boot: the candidate's LAVA job (engine/lavaemit); its
 * record waits for `bootproof lava-results`. */
static unsigned stage_lava(void *ud, const struct matrix_stage *st,
			   json_object **ret)
{
	struct matrix *m = ud;
	const struct cand *c = (const struct cand *)st->cand;
	json_object *b = jsonx_get(st->rec, "build");
	json_object *a = jsonx_get(b, "artifacts"), *lava = NULL;
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT, groups = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;
	_cleanup_free_ char *job_name = NULL;
	struct image_slot *img;
	struct boot_request req;
	unsigned flags = 0;
	int r;

	progress_start(&m->prog, c->rc.id, "LAVA job");
	img = cand_image(m, c, a, ret, &flags);
	if (!img)
		return flags;
	cand_request(m, c, a, img, "", NULL, &req);
	for (size_t i = 0; i < c->rc.n_groups; i++)
		strbuf_addf(&groups, "%s%s", i ? "," : "", c->rc.groups[i]->name);
	if (asprintf(&job_name, "bootproof %s %s", m->run->id, c->rc.id) < 0)
		abort();
	{
		const struct lavajob_meta meta[] = {
			{ "bootproof.run", m->run->id },
			{ "bootproof.candidate", c->rc.id },
			{ "bootproof.record", c->rc.name },
			{ "bootproof.arch", c->rc.as->arch },
			{ "bootproof.groups", groups.buf },
			{ "bootproof.config_hash", jsonx_str(b, "config_hash") },
			{ "bootproof.scenarios", c->rc.scenarios },
		};

		_cleanup_free_ char *id = NULL;

		if (asprintf(&id, "%s/%s", m->run->id, c->rc.id) < 0)
			abort();
		r = lavaemit_job(m->o->lava, id, job_name, &req, meta,
				 ELEMENTSOF(meta), &lava, &err);
	}
	if (r < 0) {
		progress_end(&m->prog, "cannot write the LAVA job: %s", err.buf);
		return r == -EINVAL ? MATRIX_STAGE_BAD_INPUT : MATRIX_STAGE_INFRA;
	}
	strbuf_addf(&why, "sent to LAVA: %s", jsonx_str(lava, "job"));
	*ret = matrixrec_stub(&c->rc, NULL, NULL, why.buf);
	recjson_add_str(*ret, "image", img->img.path);
	recjson_add_str(*ret, "cmdline", jsonx_str(lava, "cmdline"));
	json_object_object_add(*ret, "image_bytes",
			       json_object_new_int64((int64_t)img->img.size));
	json_object_object_add(*ret, "lava", lava);
	progress_end(&m->prog, "%s", jsonx_str(lava, "job"));
	return 0;
}

static const struct matrix_stage_ops lava_stages = {
	.config = stage_config,
	.build = stage_build,
	.boot = stage_lava,
};

static const struct matrix_stage_ops real_stages = {
	.config = stage_config,
	.build = stage_build,
	.boot = stage_boot,
};

/* ------------------------------------------------------------ resume */

/* The run was interrupted while the candidate was booted again for its
 * samples (engine/bootsamples): a boot of them did not finish. */
static bool samples_cut(json_object *rec)
{
	json_object *s = jsonx_get(rec, "samples");

	for (size_t i = 0; i < jsonx_len(s, "verdicts"); i++) {
		const char *v = json_object_get_string(jsonx_at(s, "verdicts", i));

		if (verdict_name_cut(v))
			return true;
	}
	return false;
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
	if (!verdict_name_kernel(v) || samples_cut(c->old))
		return 2;
	return 3;
}

/* Match the old records to the candidates by id. */
static void match_old(struct matrix *m, json_object *old)
{
	for (size_t i = 0; i < m->n_cands; i++)
		for (size_t k = 0; k < json_object_array_length(old); k++) {
			json_object *b = json_object_array_get_idx(old, k);
			const char *id = jsonx_str(jsonx_get(b, "candidate"), "id");

			if (id && !strcmp(id, m->cands[i].rc.id))
				m->cands[i].old = json_object_get(b);
		}
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
	match_old(m, old);
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
	failed = matrixrec_run_failed(groups, m->run->boots);
	return failed ? BP_EXIT_FAIL : BP_EXIT_OK;
}

/* Run one stage through the table; what it returns goes into the record
 * (boot: replaces it). */
static void run_stage(struct matrix *m, struct cand *c, const char *key,
		      unsigned (*fn)(void *, const struct matrix_stage *,
				     json_object **))
{
	const struct matrix_stage st = { &c->rc, c->dir, rec_of(m, c) };
	json_object *j = NULL;
	unsigned f = fn(m->stages_ud, &st, &j);

	if (f & MATRIX_STAGE_BAD_INPUT)
		m->bad_input = true;
	if (f & MATRIX_STAGE_INFRA)
		m->infra = true;
	if (j && key)
		rec_set(m, c, key, j);
	else if (j)
		rec_replace(m, c, j);
}

static const char *member_result(struct matrix *m, const struct cand *c,
				 const char *key)
{
	return jsonx_str(jsonx_get(rec_of(m, c), key), "result");
}

/* The config stage of a candidate (or what an interrupted run recorded). */
static void run_config(struct matrix *m, struct cand *c)
{
	c->keep = reusable(c);
	if (c->keep >= 1) {
		rec_set(m, c, "config", json_object_get(jsonx_get(c->old, "config")));
		progress_note(&m->prog, c->rc.id,
			      c->keep == 3 ? "reused from the interrupted run"
					   : "config reused from the interrupted run");
	} else {
		if (c->old)	/* nothing of it stays */
			run_set_boot(m->run, c->index,
				     matrixrec_stub(&c->rc, NULL, NULL, NULL));
		run_stage(m, c, "config", m->stages->config);
	}
	save(m);
}

/* Its build and boot, once its config passed. */
static void run_build_boot(struct matrix *m, struct cand *c)
{
	const char *br;

	if (interrupted(m) || !strcmp(member_result(m, c, "config") ?: "fail",
				      "fail"))
		return;
	if (c->keep >= 2)
		rec_set(m, c, "build", json_object_get(jsonx_get(c->old, "build")));
	else
		run_stage(m, c, "build", m->stages->build);
	save(m);
	br = member_result(m, c, "build");
	if (interrupted(m) || !br || (strcmp(br, "pass") && strcmp(br, "reused")))
		return;

	if (c->keep >= 3) {
		rec_replace(m, c, json_object_get(c->old));
	} else {
		double t0 = clock_mono_s();

		run_stage(m, c, NULL, m->stages->boot);
		m->boot_s = xrealloc(m->boot_s,
				     (m->n_boot_s + 1) * sizeof(*m->boot_s));
		m->boot_s[m->n_boot_s++] = clock_mono_s() - t0;
	}
	save(m);
}

/* How many options a .config sets (y or m); 0 when it cannot be read. */
static unsigned options_on(const char *config)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	unsigned n = 0;

	if (strbuf_read_file(&sb, config, 64u << 20) < 0)
		return 0;
	for (const char *l = sb.buf; *l;) {
		size_t len = strcspn(l, "\n");

		if (len > 9 && !strncmp(l, "CONFIG_", 7) && l[len - 2] == '=' &&
		    (l[len - 1] == 'y' || l[len - 1] == 'm'))
			n++;
		l += len;
		if (*l)
			l++;
	}
	return n;
}

/* The rest of the run, the candidates list[0..n), as an ETA note
 * (core/eta): builds the cache holds cost nothing, the others what the
 * cache measured.  worker[i] is the worker that runs list[i] (NULL: one,
 * this process): the workers run at once, so the ETA is the longest
 * worker's sum. */
static void note_eta(struct matrix *m, const size_t *list, size_t n_list,
		     const unsigned *worker)
{
	const struct matrix_opts *o = m->o;
	struct eta_step *steps;
	_cleanup_strbuf_ struct strbuf how = STRBUF_INIT, msg = STRBUF_INIT;
	double *builds = NULL, per[ARCHJOBS_MAX] = { 0 }, t = 0;
	size_t n_builds = 0, n = 0;
	const char *arch = NULL;
	unsigned w = 0, n_workers = 1;
	bool unknown = false;

	if (!n_list || !o->cache || !o->ksrc || !o->release)
		return;
	steps = xrealloc(NULL, n_list * sizeof(*steps));
	/* one arch at a time: each has its own tree and measured times */
	for (size_t i = 0; i <= n_list; i++) {
		const struct cand *c = i < n_list ? &m->cands[list[i]] : NULL;
		double part;

		if (arch && (!c || strcmp(c->rc.as->arch, arch))) {
			buildstage_history(o->cache, o->ksrc, o->release, arch,
					   &builds, &n_builds);
			part = n_builds
				? eta_seconds(steps, n, builds, n_builds,
					      m->boot_s, m->n_boot_s,
					      ETA_DEFAULT_BOOT_S, &how)
				: eta_guess_seconds(
					  steps, n,
					  o->jobs ? o->jobs
						  : (unsigned)sysconf(
							    _SC_NPROCESSORS_ONLN),
					  m->boot_s, m->n_boot_s,
					  ETA_DEFAULT_BOOT_S, &how);
			strbuf_addf(&how, " [%s]; ", arch);
			free(builds);
			if (part < 0)
				unknown = true;
			else
				per[w] += part;
			n = 0;
		}
		if (!c)
			break;
		arch = c->rc.as->arch;
		w = worker && worker[i] < ARCHJOBS_MAX ? worker[i] : 0;
		if (w + 1 > n_workers)
			n_workers = w + 1;
		if (strcmp(member_result(m, c, "config") ?: "fail", "fail")) {
			_cleanup_free_ char *conf = path_join(c->dir, "config");

			steps[n++] = (struct eta_step){
				.options_on = options_on(conf),
				.cached = c->keep >= 2 ||
					  buildstage_have(o->cache, o->ksrc,
							  o->release, conf),
				.full = c->full,
				.boots = c->keep < 3,
			};
		}
	}
	free(steps);
	for (unsigned k = 0; k < n_workers; k++)
		if (per[k] > t)
			t = per[k];
	if (how.len >= 2)
		strbuf_setlen(&how, how.len - 2);
	if (!unknown) {
		strbuf_addstr(&msg, "about ");
		eta_format(t, &msg);
		strbuf_addf(&msg, " left%s: %s",
			    n_workers > 1 ? " (the arches at once)" : "",
			    how.buf);
	} else {
		strbuf_addf(&msg, "%s", how.buf);
	}
	progress_note(&m->prog, "ETA", msg.buf);
}

/* ------------------------------------------------------------ workers */

/* A worker's record of its candidates, <run>/.worker-<k>.json:
 * {"boots": {"<index in run.json's boots>": record}, "bad_input": b,
 *  "infra": b, "interrupted": b}, rewritten atomically whenever the worker saves. */
static void worker_save(struct matrix *m)
{
	json_object *j = json_object_new_object(), *b = json_object_new_object();
	const char *text;
	int r;

	for (size_t i = 0; i < m->n_worker_list; i++) {
		const struct cand *c = &m->cands[m->worker_list[i]];
		char key[24];

		snprintf(key, sizeof(key), "%zu", c->index);
		json_object_object_add(b, key, json_object_get(rec_of(m, c)));
	}
	json_object_object_add(j, "boots", b);
	json_object_object_add(j, "bad_input",
			       json_object_new_boolean(m->bad_input));
	json_object_object_add(j, "infra", json_object_new_boolean(m->infra));
	json_object_object_add(j, "interrupted",
			       json_object_new_boolean(interrupted(m)));
	text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	r = write_file_atomic(m->worker_file, text, strlen(text), 0644);
	if (r < 0)
		log_warn_errno(r, "could not save %s", m->worker_file);
	json_object_put(j);
}

/* What a worker saved, into the run's records, when the file changed
 * since *seen (its last modification time read, updated); false when it
 * did not change or the worker saved nothing yet. */
static bool worker_collect(struct matrix *m, const char *file,
			   struct timespec *seen)
{
	struct stat st;
	json_object *j;

	if (stat(file, &st) < 0 ||
	    (st.st_mtim.tv_sec == seen->tv_sec &&
	     st.st_mtim.tv_nsec == seen->tv_nsec))
		return false;
	j = json_object_from_file(file);
	if (!j)
		return false;
	*seen = st.st_mtim;
	json_object_object_foreach(jsonx_get(j, "boots"), key, rec)
	{
		char *end;
		unsigned long i = strtoul(key, &end, 10);

		if (!*end && i < m->n_cands && json_object_is_type(rec, json_type_object))
			run_set_boot(m->run, i, json_object_get(rec));
	}
	if (json_object_get_boolean(jsonx_get(j, "bad_input")))
		m->bad_input = true;
	if (json_object_get_boolean(jsonx_get(j, "infra")))
		m->infra = true;
	if (json_object_get_boolean(jsonx_get(j, "interrupted")))
		m->worker_cut = true;
	json_object_put(j);
	return true;
}

/* What a worker runs: the candidates list[0..n) in build order. */
struct worker_job {
	struct matrix *m;
	const size_t *list;
	size_t n;
	char *file;
};

static int worker_main(void *ud)
{
	struct worker_job *j = ud;
	struct matrix *m = j->m;

	m->worker_file = j->file;
	m->worker_list = j->list;
	m->n_worker_list = j->n;
	/* lines, not a redrawn one: another worker shares the terminal */
	progress_init_lines(&m->prog, m->o->quiet);
	save(m);
	/* no ETA of its own: the parent's counts every worker */
	for (size_t i = 0; i < j->n && !interrupted(m); i++)
		run_build_boot(m, &m->cands[j->list[i]]);
	save(m);
	progress_done(&m->prog);
	fflush(NULL);
	return 0;
}

/* The builds and boots of order[0..n_own) by workers (core/archjobs),
 * one process per group of arches; false when one process does them
 * (one worker: the caller runs them). */
static bool run_workers(struct matrix *m, const size_t *order)
{
	const char *arches[BP_ARCH_COUNT + 1];
	unsigned arch_worker[BP_ARCH_COUNT + 1], workers;
	struct archjobs_host h = {
		.cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN),
		.mem_mb = (unsigned long)((double)sysconf(_SC_PHYS_PAGES) *
					  (double)sysconf(_SC_PAGESIZE) /
					  (1024.0 * 1024.0)),
		.distcc_slots = m->o->distcc_slots,
	};
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT, note = STRBUF_INIT;
	size_t *lists, n_list[ARCHJOBS_MAX] = { 0 }, *eta_list;
	unsigned *eta_worker;
	pid_t pid[ARCHJOBS_MAX];
	char *file[ARCHJOBS_MAX];
	struct worker_job job[ARCHJOBS_MAX];
	struct timespec seen[ARCHJOBS_MAX] = { { 0 } };
	_cleanup_free_ size_t *arch_of = NULL;
	unsigned running = 0, want;
	bool forwarded = false;

	if (!m->o->parallel)
		return false;
	want = m->o->parallel == MATRIX_PARALLEL_AUTO ? 0 : m->o->parallel;
	/* each own candidate's arch, as an index into arches */
	arch_of = xrealloc(NULL, (m->n_own + 1) * sizeof(*arch_of));
	for (size_t i = 0; i < m->n_own; i++) {
		const char *a = m->cands[order[i]].rc.as->arch;
		size_t k = 0;

		while (k < h.n_arches && strcmp(arches[k], a))
			k++;
		if (k == h.n_arches && k < BP_ARCH_COUNT)
			arches[h.n_arches++] = a;
		arch_of[i] = k;
	}
	workers = archjobs_decide(want, &h, &why);
	json_object_object_add(m->run->doc, "parallel",
			       archjobs_record(want, workers, &h, why.buf));
	if (workers < 2)
		return false;
	archjobs_assign(h.n_arches, workers, arch_worker);
	/* each worker's candidates, in the build order */
	lists = xrealloc(NULL, (m->n_own + 1) * ARCHJOBS_MAX * sizeof(*lists));
	eta_list = xrealloc(NULL, (m->n_own + 1) * sizeof(*eta_list));
	eta_worker = xrealloc(NULL, (m->n_own + 1) * sizeof(*eta_worker));
	for (unsigned w = 0; w < workers; w++)
		for (size_t i = 0; i < m->n_own; i++)
			if (arch_of[i] < h.n_arches &&
			    arch_worker[arch_of[i]] == w)
				lists[w * (m->n_own + 1) + n_list[w]++] = order[i];
	{
		size_t e = 0;

		for (unsigned w = 0; w < workers; w++)
			for (size_t i = 0; i < n_list[w]; i++) {
				eta_worker[e] = w;
				eta_list[e++] = lists[w * (m->n_own + 1) + i];
			}
		/* "x86_64 | i386 at once (...)": a '|' between workers */
		for (unsigned w = 0; w < workers; w++) {
			bool first = true;

			for (size_t k = 0; k < h.n_arches; k++)
				if (arch_worker[k] == w) {
					strbuf_addf(&note, "%s%s",
						    first ? (w ? " | " : "") : " + ",
						    arches[k]);
					first = false;
				}
		}
		strbuf_addf(&note, " at once (%s)", why.buf);
		progress_note(&m->prog, "parallel", note.buf);
		note_eta(m, eta_list, e, eta_worker);
	}
	save(m);
	progress_done(&m->prog);
	fflush(NULL);
	for (unsigned w = 0; w < workers; w++) {
		char name[32];
		int r;

		snprintf(name, sizeof(name), ".worker-%u.json", w + 1);
		file[w] = path_join(m->run->dir, name);
		(void)unlink(file[w]);
		job[w] = (struct worker_job){ m, lists + w * (m->n_own + 1),
					      n_list[w], file[w] };
		pid[w] = -1;
		r = workers_start(worker_main, &job[w], &pid[w]);
		if (r < 0) {
			log_error_errno(r, "cannot start worker %u of %u", w + 1,
					workers);
			m->infra = true;
		} else {
			running++;
		}
	}
	/* the parent keeps run.json up to date with what the workers saved */
	while (running) {
		struct timespec ts = { 1, 0 };
		char how[96];
		size_t w;
		bool ok, changed;
		int r = workers_reap(pid, workers, &w, &ok, how, sizeof(how));

		if (r < 0) {
			log_error_errno(r, "cannot wait for the workers");
			m->infra = true;
			break;
		}
		if (r > 0) {
			pid[w] = -1;
			running--;
			if (!ok) {
				log_error("worker %zu of %u %s", w + 1, workers,
					  how);
				m->infra = true;
			}
			continue;
		}
		if (interrupted(m) && !forwarded) {
			/* a terminal's ^C reached them already; a signal to
			 * this process alone, or one worker's, did not: the
			 * whole run stops, to be resumed */
			for (unsigned k = 0; k < workers; k++)
				(void)workers_signal(pid[k], SIGTERM);
			forwarded = true;
		}
		nanosleep(&ts, NULL);
		changed = false;
		for (unsigned k = 0; k < workers; k++)
			changed |= worker_collect(m, file[k], &seen[k]);
		if (changed)
			save(m);
	}
	/* once more, whatever the time stamps say: two saves inside the
	 * file system's time stamp granularity look like one */
	for (unsigned w = 0; w < workers; w++) {
		seen[w] = (struct timespec){ 0 };
		worker_collect(m, file[w], &seen[w]);
		(void)unlink(file[w]);
		free(file[w]);
	}
	free(lists);
	free(eta_list);
	free(eta_worker);
	progress_init(&m->prog, m->o->quiet);
	return true;
}

/* The candidate's final .config, parsed; NULL when its config stage did
 * not pass or the file cannot be read (it then builds in plan order). */
static struct kconfig *final_config(struct matrix *m, const struct cand *c)
{
	_cleanup_free_ char *p = path_join(c->dir, "config");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	_cleanup_kconfig_error_ struct kconfig_error kerr = KCONFIG_ERROR_INIT;
	struct kconfig *kc = NULL;

	if (!strcmp(member_result(m, c, "config") ?: "fail", "fail") ||
	    strbuf_read_file(&sb, p, 64u << 20) < 0 || kconfig_new(&kc) < 0)
		return NULL;
	if (kconfig_parse(kc, p, sb.buf, sb.len, &kerr) < 0) {
		kconfig_free(kc);
		return NULL;
	}
	return kc;
}

/* The build order (core/buildorder) of the candidates this run runs,
 * from their final configs, recorded in run.json as "build_order"
 * (candidate ids): order[0..n_own) gets their indexes. */
static void plan_builds(struct matrix *m, size_t *order)
{
	size_t n = m->n_own, k = 0;
	struct buildorder_item *it = xrealloc(NULL, (n + 1) * sizeof(*it));
	struct kconfig **kc = xrealloc(NULL, (m->n_cands + 1) * sizeof(*kc));
	size_t *own = xrealloc(NULL, (n + 1) * sizeof(*own));
	json_object *ids = json_object_new_array();
	_cleanup_strbuf_ struct strbuf note = STRBUF_INIT;

	for (size_t i = 0; i < m->n_cands; i++) {
		kc[i] = NULL;
		if (m->cands[i].elsewhere)
			continue;
		kc[i] = final_config(m, &m->cands[i]);
		own[k] = i;
		it[k++] = (struct buildorder_item){
			.arch = m->cands[i].rc.as->arch,
			.config = kc[i],
			.base = m->cands[i].rc.kind == PLAN_CAND_BASE,
		};
	}
	buildorder_plan(it, n, order);
	for (size_t i = 0; i < n; i++)
		order[i] = own[order[i]];
	free(own);
	for (size_t i = 0; i < n; i++) {
		struct cand *c = &m->cands[order[i]];
		const struct cand *p = i ? &m->cands[order[i - 1]] : NULL;
		const char *id = c->rc.id;
		_cleanup_strbuf_ struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

		if (kc[order[i]])
			buildorder_signature(kc[order[i]], &a);
		if (p && kc[order[i - 1]])
			buildorder_signature(kc[order[i - 1]], &b);
		c->full = !p || strcmp(p->rc.as->arch, c->rc.as->arch) ||
			  !kc[order[i - 1]] || strcmp(a.buf, b.buf);

		json_object_array_add(ids, jsonx_new_str(id));
		strbuf_addf(&note, "%s%s", i ? ", " : "", id);
	}
	for (size_t i = 0; i < m->n_cands; i++)
		kconfig_free(kc[i]);
	json_object_object_add(m->run->doc, "build_order", ids);
	if (n > 1)
		progress_note(&m->prog, "build order", note.buf);
	free(kc);
	free(it);
}

/* The run directory (new, or the one resumed) with the host and plan
 * recorded, and a stub record per candidate. */
/* run.json's plan.ksrc_state: the state of a user's tree the run built. */
static json_object *src_state_json(const struct ksrc_state *st)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "files", json_object_new_int64(
						    (int64_t)st->n_files));
	json_object_object_add(j, "state", json_object_new_string(st->files));
	json_object_object_add(j, "kconfig_state",
			       json_object_new_string(st->kconfig));
	json_object_object_add(j, "seconds", json_object_new_double(st->seconds));
	return j;
}

static int open_run(struct matrix *m, struct strbuf *err)
{
	const struct matrix_opts *o = m->o;
	json_object *host;
	int r;

	if (o->resume) {
		r = reopen(m, err);
	} else {
		r = run_open(o->results, o->plan->name, "run", o->argc, o->argv,
			     &m->run);
		if (r < 0)
			strbuf_fail(err, r, "cannot create a run directory under %s: %s",
				    o->results, strerror(-r));
	}
	if (r < 0)
		return r;
	host = jsonx_get(m->run->doc, "host");
	if (!host) {
		host = json_object_new_object();
		json_object_object_add(m->run->doc, "host", host);
	}
	recjson_add_str(host, "accel", bp_accel_name(o->accel));
	recjson_add_str(host, "accel_reason", o->accel_reason);
	recjson_add_str(host, "libvirt_uri", o->uri);
	recjson_add_str(host, "distcc", o->distcc_hosts);
	json_object_object_add(m->run->doc, "plan",
			       matrixrec_plan(o->plan, m->pg.arches, m->pg.n_arches,
					      m->pg.names, m->pg.n_names, o->datadir,
					      o->ksrc, o->release));
	json_object_object_add(m->run->doc, "shard",
			       json_object_get(m->shard_rec));
	if (m->src.tracked)
		json_object_object_add(jsonx_get(m->run->doc, "plan"),
				       "ksrc_state", src_state_json(&m->src));
	for (size_t i = 0; i < m->n_cands; i++) {
		struct cand *c = &m->cands[i];
		_cleanup_free_ char *why = NULL;

		if (asprintf(&c->rc.name, "bootproof-%s-%s", m->run->id,
			     c->rc.id) < 0)
			abort();
		c->dir = path_join(m->run->dir, c->rc.id);
		c->rc.reproduce = cand_reproduce(m, c);
		r = mkdir_p(c->dir, 0755);
		if (r < 0) {
			strbuf_fail(err, r, "%s: %s", c->dir, strerror(-r));
			run_free(TAKE_PTR(m->run));
			return r;
		}
		if (c->elsewhere &&
		    asprintf(&why, "run by shard %u/%u (bootproof merge puts "
			     "the shards together)", c->shard, o->shard->n) < 0)
			abort();
		/* a resumed candidate keeps what was recorded until its
		 * stages are reused or run again (run_config): run.json never
		 * loses a result, even for a moment */
		run_set_boot(m->run, i,
			     c->old && !c->elsewhere
				     ? json_object_get(c->old)
				     : matrixrec_stub(&c->rc, NULL, NULL, why));
	}
	return 0;
}

int matrix_run(const struct matrix_opts *o, struct matrix_outcome *ret,
	       struct strbuf *err)
{
	struct matrix m = { .o = o, .stages = o->stages, .stages_ud = o->stages_ud };
	double t0 = clock_mono_s();
	int r;

	ret->exit_code = BP_EXIT_OK;
	ret->run = NULL;
	if (!m.stages) {
		m.stages = o->lava ? &lava_stages : &real_stages;
		m.stages_ud = &m;
	}
	r = plangroups_load(o->plan, o->datadir, &m.pg, err);
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
	/* The tree's state keys the real stages' caches (fakes have none). */
	r = o->stages ? 0 : ksrc_state(o->ksrc, o->cache, &m.src, err);
	if (r >= 0)
		r = assign_shards(&m, err);
	if (r >= 0)
		r = open_run(&m, err);
	if (r < 0) {
		matrix_done(&m);
		return r;
	}
	progress_init(&m.prog, o->quiet);
	if (!o->quiet && o->shard)
		fprintf(stderr, "bootproof: run %s: shard %u/%u, %zu of %zu "
			"candidates (split by %s), results in %s/\n", m.run->id,
			o->shard->k, o->shard->n, m.n_own, m.n_cands,
			jsonx_str(m.shard_rec, "by"), m.run->dir);
	else if (!o->quiet)
		fprintf(stderr, "bootproof: run %s: %zu candidate%s, results in "
			"%s/\n", m.run->id, m.n_cands, m.n_cands == 1 ? "" : "s",
			m.run->dir);
	save(&m);
	/* Every config first (a minute each, then cached): the final configs
	 * decide the order of the builds (core/buildorder). */
	for (size_t i = 0; i < m.n_cands && !interrupted(&m); i++)
		if (!m.cands[i].elsewhere)
			run_config(&m, &m.cands[i]);
	if (!interrupted(&m)) {
		size_t *order = xrealloc(NULL, (m.n_own + 1) * sizeof(*order));
		bool workers;

		plan_builds(&m, order);
		save(&m);
		workers = run_workers(&m, order);
		for (size_t i = 0; !workers && i < m.n_own && !interrupted(&m);
		     i++) {
			/* before each candidate that does work: one reused
			 * whole (build and boots) changes nothing left */
			if (m.cands[order[i]].keep < 3)
				note_eta(&m, order + i, m.n_own - i, NULL);
			run_build_boot(&m, &m.cands[order[i]]);
		}
		free(order);
	}
	progress_done(&m.prog);
	update_groups(&m);
	json_object_object_add(m.run->doc, "costs",
			       costs_of_run(m.run->dir, m.run->doc));
	/* a resumed run's wall time is spread over its sessions; an
	 * interrupted one's stages are cut short */
	json_object_object_add(m.run->doc, "times",
			       o->resume || interrupted(&m) ? NULL
					 : overlap_times_record(m.run->boots,
								clock_mono_s() - t0));
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
