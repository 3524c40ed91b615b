// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/merge.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/shardmerge.h"
#include "engine/costs.h"
#include "engine/report.h"
#include "util/exitcode.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/xalloc.h"

struct loaded {
	struct shardmerge_input *in;
	char **dirs;
	size_t n;
};

static void loaded_done(struct loaded *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->dirs[i]);
		json_object_put(l->in[i].doc);
	}
	free(l->dirs);
	free(l->in);
}

/* Every shard's run.json, validated (core/runread); a BP_EXIT_*. */
static int load(const struct merge_opts *o, struct loaded *l)
{
	l->in = xrealloc(NULL, (o->n_shards + 1) * sizeof(*l->in));
	l->dirs = xrealloc(NULL, (o->n_shards + 1) * sizeof(*l->dirs));
	for (size_t i = 0; i < o->n_shards; i++) {
		json_object *doc;
		int r = report_load_run(o->shards[i], &l->dirs[l->n], &doc);

		if (r < 0)
			return r == -ENOMEM ? BP_EXIT_INFRA : BP_EXIT_USAGE;
		l->in[l->n] = (struct shardmerge_input){ l->dirs[l->n], doc };
		l->n++;
	}
	return BP_EXIT_OK;
}

/* OUT, new; its parent made.  A BP_EXIT_*. */
static int make_out(const char *out)
{
	_cleanup_free_ char *copy = xstrdup(out);
	int r = mkdir_p(dirname(copy), 0755);

	if (r >= 0 && mkdir(out, 0755) < 0)
		r = -errno;
	if (r == -EEXIST) {
		log_error("merge: %s exists: the merged run goes into a new "
			  "directory", out);
		return BP_EXIT_USAGE;
	}
	if (r < 0) {
		log_error_errno(r, "merge: cannot make %s", out);
		return BP_EXIT_INFRA;
	}
	return BP_EXIT_OK;
}

/* Each candidate's directory from the shard that ran it. */
static int copy_candidates(const struct loaded *l, json_object *doc,
			   const size_t *owner, const char *out)
{
	json_object *boots = jsonx_get(doc, "boots");

	for (size_t i = 0; i < json_object_array_length(boots); i++) {
		const char *id = jsonx_str(jsonx_get(json_object_array_get_idx(boots, i),
						     "candidate"),
					   "id");
		_cleanup_free_ char *src = NULL, *dst = NULL;
		struct stat st;
		int r;

		if (!id || strchr(id, '/') || id[0] == '.')
			continue;	/* runread checked ids name files */
		src = path_join(l->in[owner[i]].dir, id);
		dst = path_join(out, id);
		if (lstat(src, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;	/* a candidate that never ran */
		r = copy_tree(src, dst);
		if (r < 0) {
			log_error_errno(r, "merge: cannot copy %s to %s", src,
					dst);
			return r;
		}
	}
	return 0;
}

int merge_run(const struct merge_opts *o, struct run **ret,
	      char **ret_report)
{
	struct loaded l = { 0 };
	_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;
	_cleanup_free_ size_t *owner = NULL;
	_cleanup_free_ char *base = NULL;
	struct run *run;
	bool complete;
	int code, r;

	*ret = NULL;
	*ret_report = NULL;
	code = load(o, &l);
	if (code == BP_EXIT_OK && shardmerge_check(l.in, l.n, &err) < 0) {
		log_error("merge: %s", err.buf);
		code = BP_EXIT_USAGE;
	}
	if (code == BP_EXIT_OK)
		code = make_out(o->out);
	if (code != BP_EXIT_OK) {
		loaded_done(&l);
		return code;
	}
	base = xstrdup(o->out);
	run = xrealloc(NULL, sizeof(*run));
	run->dir = xstrdup(o->out);
	run->id = xstrdup(basename(base));
	run->doc = shardmerge_doc(l.in, l.n, run->id, o->argc, o->argv, &owner);
	run->boots = jsonx_get(run->doc, "boots");
	r = copy_candidates(&l, run->doc, owner, o->out);
	if (r >= 0) {
		json_object_object_add(run->doc, "costs",
				       costs_of_run(run->dir, run->doc));
		code = shardmerge_exit_code(l.in, l.n, run->doc, &complete);
		r = run_close(run, code, complete);
		if (r < 0)
			log_error_errno(r, "merge: cannot write %s/run.json",
					o->out);
	}
	loaded_done(&l);
	if (r < 0) {
		rm_rf(o->out);
		run_free(run);
		return BP_EXIT_INFRA;
	}
	if (report_write(run->dir, ret_report) < 0 || !*ret_report)
		*ret_report = run_path(run, "run.json");
	*ret = run;
	return code;
}
