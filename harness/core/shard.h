/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shard: one part of a plan's candidates, for CI jobs that each run a part
 * (`bootproof run --shard K/N`) and a job that merges the parts into one
 * run (`bootproof merge`, core/shardmerge).  Pure: values in, values and
 * new json-c objects out, no I/O.
 *
 * The split is a function of the candidates (in the plan's order) and
 * their expected costs only, so every job that sees the same costs makes
 * the same split:
 *
 *   by cost (when at least one cost is known): a candidate whose cost is
 *	unknown costs the median of the known ones; then, the costliest
 *	first (ties: the earlier in the plan), each goes to the shard with
 *	the least cost so far (ties: the lower number) -- the longest-
 *	processing-time rule, within 4/3 of the best balance;
 *   by order (asked for, or no cost known): contiguous runs of the plan's
 *	order, as equal in number as can be (candidate i of n goes to shard
 *	1 + i*N/n), so that an arch's candidates stay together and a shard
 *	builds from clean as few trees as it can.
 *
 * A shard may be empty (more shards than candidates): it runs nothing.
 */
#ifndef BP_SHARD_H
#define BP_SHARD_H

#include <stddef.h>

#include <json-c/json.h>

#include "util/strbuf.h"

/* The most shards a plan may be split into. */
#define SHARD_MAX 256

/* Shard k of n, 1 <= k <= n <= SHARD_MAX. */
struct shard_spec {
	unsigned k, n;
};

enum shard_by {
	SHARD_BY_COST,
	SHARD_BY_ORDER,
};

/*
 * "K/N" (decimal, nothing else) into *ret.  Returns 0, or -EINVAL with err
 * (may be NULL) saying what is wrong: "'3/2': K must be 1..N".
 */
int shard_parse(const char *s, struct shard_spec *ret, struct strbuf *err);

/* "cost" / "order" into *ret: 0 or -EINVAL. */
int shard_by_parse(const char *s, enum shard_by *ret);
const char *shard_by_name(enum shard_by by);

/* A candidate to place: its id and expected cost in seconds (< 0:
 * unknown).  Borrowed. */
struct shard_item {
	const char *id;
	double cost;
};

/*
 * Split items[0..n) into count shards: ret[i] (n of them) gets the shard
 * (1..count) of item i.  Returns the rule used: SHARD_BY_ORDER when by is
 * SHARD_BY_ORDER or no cost is known, else SHARD_BY_COST.
 */
enum shard_by shard_split(const struct shard_item *items, size_t n,
			  unsigned count, enum shard_by by, unsigned *ret);

/*
 * The run.json member "shard" of shard s (docs/results.md):
 *
 *	{ "index": K, "count": N, "asked": "cost", "by": "cost"|"order",
 *	  "split": [ { "id", "shard", "cost" (seconds or null) }... ] }
 *
 * split lists every candidate of the plan, in its order.  A new object.
 */
json_object *shard_record(const struct shard_spec *s, enum shard_by asked,
			  enum shard_by used, const struct shard_item *items,
			  size_t n, const unsigned *assign);

/*
 * Read a "shard" member back: its spec.  Returns 0, or -EINVAL when rec is
 * not such a member (err, may be NULL, says why).  shard_of(): the shard
 * its split gives candidate id, 0 when the split does not name it.
 */
int shard_from_record(json_object *rec, struct shard_spec *ret,
		      struct strbuf *err);
unsigned shard_of(json_object *rec, const char *id);

#endif
