// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/shard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/eta.h"
#include "core/recjson.h"
#include "util/cleanup.h"
#include "util/jsonx.h"
#include "util/xalloc.h"

/* s[0..len) as a decimal number of 1 to 4 digits. */
static bool number(const char *s, size_t len, unsigned *ret)
{
	unsigned v = 0;

	if (!len || len > 4)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*ret = v;
	return true;
}

int shard_parse(const char *s, struct shard_spec *ret, struct strbuf *err)
{
	const char *slash = s ? strchr(s, '/') : NULL;
	unsigned k, n;

	if (!slash || !number(s, (size_t)(slash - s), &k) ||
	    !number(slash + 1, strlen(slash + 1), &n))
		return strbuf_fail(err, -EINVAL, "'%s': expected K/N (shard K "
				   "of N, e.g. 1/4)", s ? s : "");
	if (n < 1 || n > SHARD_MAX)
		return strbuf_fail(err, -EINVAL, "'%s': N must be 1..%u", s,
				   SHARD_MAX);
	if (k < 1 || k > n)
		return strbuf_fail(err, -EINVAL, "'%s': K must be 1..N", s);
	ret->k = k;
	ret->n = n;
	return 0;
}

static const char *const by_names[] = {
	[SHARD_BY_COST] = "cost",
	[SHARD_BY_ORDER] = "order",
};

int shard_by_parse(const char *s, enum shard_by *ret)
{
	for (size_t i = 0; s && i < ELEMENTSOF(by_names); i++)
		if (!strcmp(s, by_names[i])) {
			*ret = (enum shard_by)i;
			return 0;
		}
	return -EINVAL;
}

const char *shard_by_name(enum shard_by by)
{
	return ENUM_NAME(by_names, by, "?");
}

/* ------------------------------------------------------------ splitting */

struct placed {
	size_t i;	/* index in items */
	double cost;
};

static int by_cost_desc(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void split_cost(const struct shard_item *items, size_t n,
		       unsigned count, double fill, unsigned *ret)
{
	struct placed *p = xrealloc(NULL, n * sizeof(*p));
	double *load = xrealloc(NULL, count * sizeof(*load));

	for (size_t i = 0; i < n; i++)
		p[i] = (struct placed){ i, items[i].cost >= 0 ? items[i].cost
							      : fill };
	for (unsigned s = 0; s < count; s++)
		load[s] = 0;
	qsort(p, n, sizeof(*p), by_cost_desc);
	for (size_t i = 0; i < n; i++) {
		unsigned best = 0;

		for (unsigned s = 1; s < count; s++)
			if (load[s] < load[best])
				best = s;
		load[best] += p[i].cost;
		ret[p[i].i] = best + 1;
	}
	free(load);
	free(p);
}

enum shard_by shard_split(const struct shard_item *items, size_t n,
			  unsigned count, enum shard_by by, unsigned *ret)
{
	double *known = xrealloc(NULL, (n + 1) * sizeof(*known));
	size_t n_known = 0;

	for (size_t i = 0; i < n; i++)
		if (items[i].cost >= 0)
			known[n_known++] = items[i].cost;
	if (by == SHARD_BY_COST && n_known && count > 0) {
		split_cost(items, n, count, eta_median(known, n_known), ret);
	} else {
		by = SHARD_BY_ORDER;
		for (size_t i = 0; i < n; i++)
			ret[i] = 1 + (unsigned)((unsigned long long)i * count / n);
	}
	free(known);
	return by;
}

/* ------------------------------------------------------------ records */

json_object *shard_record(const struct shard_spec *s, enum shard_by asked,
			  enum shard_by used, const struct shard_item *items,
			  size_t n, const unsigned *assign)
{
	json_object *o = json_object_new_object(), *split;

	json_object_object_add(o, "index", json_object_new_int((int)s->k));
	json_object_object_add(o, "count", json_object_new_int((int)s->n));
	json_object_object_add(o, "asked", jsonx_new_str(shard_by_name(asked)));
	json_object_object_add(o, "by", jsonx_new_str(shard_by_name(used)));
	split = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "id", jsonx_new_str(items[i].id));
		json_object_object_add(e, "shard",
				       json_object_new_int((int)assign[i]));
		json_object_object_add(e, "cost", items[i].cost >= 0
							  ? recjson_seconds(items[i].cost)
							  : NULL);
		json_object_array_add(split, e);
	}
	json_object_object_add(o, "split", split);
	return o;
}

static bool uint_member(json_object *o, const char *key, unsigned max,
			unsigned *ret)
{
	json_object *v = jsonx_get(o, key);
	int64_t x;

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	x = json_object_get_int64(v);
	if (x < 1 || x > max)
		return false;
	*ret = (unsigned)x;
	return true;
}

int shard_from_record(json_object *rec, struct shard_spec *ret,
		      struct strbuf *err)
{
	json_object *split = jsonx_get(rec, "split");
	struct shard_spec s;

	if (!rec || !json_object_is_type(rec, json_type_object))
		return strbuf_fail(err, -EINVAL, "no \"shard\" member (not a "
				   "run with --shard)");
	if (!uint_member(rec, "count", SHARD_MAX, &s.n) ||
	    !uint_member(rec, "index", s.n, &s.k))
		return strbuf_fail(err, -EINVAL, "shard: index and count must "
				   "be 1 <= index <= count <= %u", SHARD_MAX);
	if (!split || !json_object_is_type(split, json_type_array))
		return strbuf_fail(err, -EINVAL, "shard: no \"split\" array");
	for (size_t i = 0; i < json_object_array_length(split); i++) {
		json_object *e = json_object_array_get_idx(split, i);
		unsigned k;

		if (!jsonx_str(e, "id") || !uint_member(e, "shard", s.n, &k))
			return strbuf_fail(err, -EINVAL, "shard: split[%zu] "
					   "needs an id and a shard 1..%u", i,
					   s.n);
	}
	*ret = s;
	return 0;
}

unsigned shard_of(json_object *rec, const char *id)
{
	json_object *split = jsonx_get(rec, "split");

	for (size_t i = 0; id && i < jsonx_len(rec, "split"); i++) {
		json_object *e = json_object_array_get_idx(split, i);
		double k;

		if (jsonx_str(e, "id") && !strcmp(jsonx_str(e, "id"), id) &&
		    jsonx_num(e, "shard", &k))
			return (unsigned)k;
	}
	return 0;
}
