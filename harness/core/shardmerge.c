// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/shardmerge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/matrixrec.h"
#include "core/shard.h"
#include "util/cleanup.h"
#include "util/exitcode.h"
#include "util/jsonx.h"
#include "util/xalloc.h"

static bool streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* ------------------------------------------------------------ checking */

/* The first member of plan a that b lacks or has otherwise (or that only
 * b has), or NULL when they are equal. */
static const char *plan_difference(json_object *a, json_object *b)
{
	json_object_object_foreach(a, k, v) {
		json_object *w;

		if (!json_object_object_get_ex(b, k, &w) ||
		    !json_object_equal(v, w))
			return k;
	}
	json_object_object_foreach(b, k2, v2) {
		(void)v2;
		if (!json_object_object_get_ex(a, k2, NULL))
			return k2;
	}
	return NULL;
}

/* The same plan and tree as the first shard's? */
static int check_plan(const struct shardmerge_input *first,
		      const struct shardmerge_input *s, struct strbuf *err)
{
	json_object *a = jsonx_get(first->doc, "plan");
	json_object *b = jsonx_get(s->doc, "plan");
	const char *k;

	if (!streq(jsonx_str(a, "ksrc"), jsonx_str(b, "ksrc")) ||
	    !streq(jsonx_str(a, "release"), jsonx_str(b, "release")))
		return strbuf_fail(err, -EINVAL,
				   "%s ran on another kernel tree: %s (Linux "
				   "%s) where %s has %s (Linux %s)",
				   s->dir, jsonx_str(b, "ksrc") ?: "?",
				   jsonx_str(b, "release") ?: "?", first->dir,
				   jsonx_str(a, "ksrc") ?: "?",
				   jsonx_str(a, "release") ?: "?");
	k = plan_difference(a, b);
	if (k)
		return strbuf_fail(err, -EINVAL,
				   "%s ran another plan: its \"%s\" differs "
				   "from %s's (%s against %s)",
				   s->dir, k, first->dir,
				   json_object_to_json_string_ext(
					   jsonx_get(b, k), JSON_C_TO_STRING_PLAIN),
				   json_object_to_json_string_ext(
					   jsonx_get(a, k), JSON_C_TO_STRING_PLAIN));
	return 0;
}

/* The same split (ids, order and shards) as the first shard's? */
static int check_split(const struct shardmerge_input *first,
		       const struct shardmerge_input *s, struct strbuf *err)
{
	json_object *a = jsonx_get(first->doc, "shard");
	json_object *b = jsonx_get(s->doc, "shard");
	size_t na = jsonx_len(a, "split"), nb = jsonx_len(b, "split");

	for (size_t i = 0; i < na || i < nb; i++) {
		json_object *x = jsonx_at(a, "split", i);
		json_object *y = jsonx_at(b, "split", i);
		double kx = 0, ky = 0;

		jsonx_num(x, "shard", &kx);
		jsonx_num(y, "shard", &ky);
		if (x && y && streq(jsonx_str(x, "id"), jsonx_str(y, "id")) &&
		    kx == ky)
			continue;
		if (!x || !y || !streq(jsonx_str(x, "id"), jsonx_str(y, "id")))
			return strbuf_fail(err, -EINVAL,
					   "%s and %s list other candidates "
					   "(%s against %s)",
					   s->dir, first->dir,
					   y ? jsonx_str(y, "id") : "none",
					   x ? jsonx_str(x, "id") : "none");
		return strbuf_fail(err, -EINVAL,
				   "%s split the candidates otherwise than %s "
				   "(%s: shard %.0f in the one, %.0f in the "
				   "other): --shard-by cost splits by the build "
				   "times each job's cache measured; give every "
				   "shard the same cache, or use --shard-by order",
				   s->dir, first->dir, jsonx_str(x, "id"), ky, kx);
	}
	return 0;
}

/* A record of every candidate of the split in the shard's boots? */
static int check_boots(const struct shardmerge_input *s, struct strbuf *err)
{
	json_object *sh = jsonx_get(s->doc, "shard");

	for (size_t i = 0; i < jsonx_len(sh, "split"); i++) {
		const char *id = jsonx_str(jsonx_at(sh, "split", i), "id");
		bool found = false;

		for (size_t b = 0; !found && b < jsonx_len(s->doc, "boots"); b++)
			found = streq(jsonx_str(jsonx_get(jsonx_at(s->doc, "boots", b),
							  "candidate"),
						"id"),
				      id);
		if (!found)
			return strbuf_fail(err, -EINVAL,
					   "%s/run.json: no record of candidate "
					   "%s of its split", s->dir, id);
	}
	return 0;
}

static int check_one(const struct shardmerge_input *s, struct shard_spec *ret,
		     struct strbuf *err)
{
	_cleanup_strbuf_ struct strbuf why = STRBUF_INIT;

	if (!streq(jsonx_str(s->doc, "command"), "run") ||
	    !jsonx_get(s->doc, "plan"))
		return strbuf_fail(err, -EINVAL, "%s is not a `bootproof run` "
				   "(command %s)", s->dir,
				   jsonx_str(s->doc, "command") ?: "?");
	if (shard_from_record(jsonx_get(s->doc, "shard"), ret, &why) < 0)
		return strbuf_fail(err, -EINVAL, "%s is not a shard: %s", s->dir,
				   why.buf);
	return check_boots(s, err);
}

/* The candidates of shard k, for a message. */
static void ids_of(json_object *sh, unsigned k, struct strbuf *sb)
{
	for (size_t i = 0; i < jsonx_len(sh, "split"); i++) {
		json_object *e = jsonx_at(sh, "split", i);

		if (shard_of(sh, jsonx_str(e, "id")) == k)
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "",
				    jsonx_str(e, "id"));
	}
	if (!sb->len)
		strbuf_addstr(sb, "none");
}

int shardmerge_check(const struct shardmerge_input *in, size_t n,
		     struct strbuf *err)
{
	_cleanup_free_ size_t *by_k = NULL;
	struct shard_spec first, s;
	int r;

	if (!n)
		return strbuf_fail(err, -EINVAL, "no shard to merge");
	r = check_one(&in[0], &first, err);
	if (r < 0)
		return r;
	by_k = xrealloc(NULL, (first.n + 1) * sizeof(*by_k));
	for (unsigned k = 0; k <= first.n; k++)
		by_k[k] = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		r = i ? check_one(&in[i], &s, err) : 0;
		if (!i)
			s = first;
		if (r >= 0 && s.n != first.n)
			r = strbuf_fail(err, -EINVAL,
					"%s is shard %u/%u and %s shard %u/%u: "
					"the shards of one run have the same N",
					in[i].dir, s.k, s.n, in[0].dir, first.k,
					first.n);
		if (r >= 0 && i)
			r = check_plan(&in[0], &in[i], err);
		if (r >= 0 && i)
			r = check_split(&in[0], &in[i], err);
		if (r >= 0 && by_k[s.k] != SIZE_MAX)
			r = strbuf_fail(err, -EINVAL,
					"%s and %s are both shard %u/%u: their "
					"candidates would be merged twice",
					in[by_k[s.k]].dir, in[i].dir, s.k, s.n);
		if (r < 0)
			return r;
		by_k[s.k] = i;
	}
	for (unsigned k = 1; k <= first.n; k++)
		if (by_k[k] == SIZE_MAX) {
			_cleanup_strbuf_ struct strbuf ids = STRBUF_INIT;

			ids_of(jsonx_get(in[0].doc, "shard"), k, &ids);
			return strbuf_fail(err, -EINVAL,
					   "shard %u/%u is missing: nobody ran "
					   "its candidates (%s)", k, first.n,
					   ids.buf);
		}
	return 0;
}

/* ------------------------------------------------------------ merging */

static json_object *copy_of(json_object *o)
{
	json_object *c = NULL;

	if (o && json_object_deep_copy(o, &c, NULL) < 0)
		abort();	/* out of memory */
	return c;
}

/* Index in `in` of shard k. */
static size_t input_of(const struct shardmerge_input *in, size_t n, unsigned k)
{
	for (size_t i = 0; i < n; i++) {
		struct shard_spec s;

		if (shard_from_record(jsonx_get(in[i].doc, "shard"), &s, NULL) == 0 &&
		    s.k == k)
			return i;
	}
	return 0;
}

static json_object *record_of(json_object *doc, const char *id)
{
	for (size_t b = 0; b < jsonx_len(doc, "boots"); b++) {
		json_object *r = jsonx_at(doc, "boots", b);

		if (streq(jsonx_str(jsonx_get(r, "candidate"), "id"), id))
			return r;
	}
	return NULL;
}

static json_object *shards_member(const struct shardmerge_input *in, size_t n)
{
	json_object *a = json_object_new_array();
	struct shard_spec s;

	shard_from_record(jsonx_get(in[0].doc, "shard"), &s, NULL);
	for (unsigned k = 1; k <= s.n; k++) {
		const struct shardmerge_input *x = &in[input_of(in, n, k)];
		json_object *o = json_object_new_object();
		static const char *const keys[] = { "run_id", "started", "finished",
						    "exit_code", "complete" };

		json_object_object_add(o, "index", json_object_new_int((int)k));
		json_object_object_add(o, "count", json_object_new_int((int)s.n));
		json_object_object_add(o, "dir", jsonx_new_str(x->dir));
		json_object_object_add(o, "hostname",
				       jsonx_new_str(jsonx_str(jsonx_get(x->doc, "host"),
							       "hostname")));
		for (size_t i = 0; i < ELEMENTSOF(keys); i++)
			json_object_object_add(o, keys[i],
					       copy_of(jsonx_get(x->doc, keys[i])));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *shardmerge_doc(const struct shardmerge_input *in, size_t n,
			    const char *run_id, int argc, char **argv,
			    size_t **ret_owner)
{
	json_object *doc = copy_of(in[0].doc);
	json_object *sh = jsonx_get(in[0].doc, "shard");
	json_object *boots = json_object_new_array(), *order, *av;
	size_t n_split = jsonx_len(sh, "split");
	size_t *owner = xrealloc(NULL, (n_split + 1) * sizeof(*owner));
	const char *started = jsonx_str(in[0].doc, "started");
	struct shard_spec s;

	json_object_object_del(doc, "shard");
	json_object_object_del(doc, "costs");
	json_object_object_del(doc, "resumed");
	json_object_object_add(doc, "run_id", jsonx_new_str(run_id));
	av = json_object_new_array();
	for (int i = 0; i < argc; i++)
		json_object_array_add(av, jsonx_new_str(argv[i]));
	json_object_object_add(doc, "argv", av);
	for (size_t i = 1; i < n; i++) {
		const char *t = jsonx_str(in[i].doc, "started");

		/* ISO 8601 UTC: as strings in time order */
		if (t && (!started || strcmp(t, started) < 0))
			started = t;
	}
	json_object_object_add(doc, "started", jsonx_new_str(started));
	json_object_object_add(doc, "finished", NULL);
	json_object_object_add(doc, "exit_code", NULL);
	json_object_object_add(doc, "complete", json_object_new_boolean(0));
	json_object_object_add(doc, "shards", shards_member(in, n));

	for (size_t i = 0; i < n_split; i++) {
		const char *id = jsonx_str(jsonx_at(sh, "split", i), "id");

		owner[i] = input_of(in, n, shard_of(sh, id));
		json_object_array_add(boots,
				      copy_of(record_of(in[owner[i]].doc, id)));
	}
	json_object_object_add(doc, "boots", boots);
	json_object_object_add(doc, "groups",
			       matrixrec_groups_recorded(boots,
							 jsonx_get(doc, "plan")));
	order = json_object_new_array();
	shard_from_record(sh, &s, NULL);
	for (unsigned k = 1; k <= s.n; k++) {
		json_object *bo = jsonx_get(in[input_of(in, n, k)].doc,
					    "build_order");

		for (size_t i = 0; bo && json_object_is_type(bo, json_type_array) &&
				   i < json_object_array_length(bo);
		     i++)
			json_object_array_add(order,
					      copy_of(json_object_array_get_idx(bo, i)));
	}
	json_object_object_add(doc, "build_order", order);
	*ret_owner = owner;
	return doc;
}

int shardmerge_exit_code(const struct shardmerge_input *in, size_t n,
			 json_object *merged, bool *ret_complete)
{
	bool complete = true, usage = false, infra = false;

	for (size_t i = 0; i < n; i++) {
		double code = 0;

		if (!jsonx_bool(in[i].doc, "complete", false))
			complete = false;
		jsonx_num(in[i].doc, "exit_code", &code);
		if (code == BP_EXIT_USAGE)
			usage = true;
		if (code == BP_EXIT_INFRA)
			infra = true;
	}
	*ret_complete = complete;
	if (!complete)
		return BP_EXIT_INTERRUPTED;
	if (usage)
		return BP_EXIT_USAGE;
	if (infra)
		return BP_EXIT_INFRA;
	return matrixrec_run_failed(jsonx_get(merged, "groups"),
				    jsonx_get(merged, "boots"))
		       ? BP_EXIT_FAIL
		       : BP_EXIT_OK;
}
