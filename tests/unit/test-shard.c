// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/shard: K/N parsed strictly; the split by order (contiguous runs in
 * the plan's order, as even as can be) and by cost (longest first to the
 * least loaded shard, unknown costs as the median of the known ones),
 * always the same for the same input and always a partition; the
 * "shard" record and reading it back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/eta.h"
#include "core/shard.h"
#include "util/jsonx.h"
#include "util/strbuf.h"

static void test_parse(void **state)
{
	static const struct {
		const char *s;
		unsigned k, n;
	} good[] = { { "1/1", 1, 1 }, { "2/4", 2, 4 }, { "256/256", 256, 256 },
		     { "01/02", 1, 2 } };
	static const struct {
		const char *s, *msg;
	} bad[] = {
		{ "", "expected K/N" },	     { "1", "expected K/N" },
		{ "1/", "expected K/N" },    { "/2", "expected K/N" },
		{ "a/2", "expected K/N" },   { "1/2x", "expected K/N" },
		{ " 1/2", "expected K/N" },  { "1//2", "expected K/N" },
		{ "-1/2", "expected K/N" },  { "+1/2", "expected K/N" },
		{ "12345/1", "expected K/N" }, { "0/2", "K must be 1..N" },
		{ "3/2", "K must be 1..N" }, { "1/0", "N must be 1..256" },
		{ "1/257", "N must be 1..256" },
	};
	struct shard_spec s;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(shard_parse(good[i].s, &s, NULL), 0);
		assert_int_equal(s.k, good[i].k);
		assert_int_equal(s.n, good[i].n);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf err = STRBUF_INIT;

		s = (struct shard_spec){ 7, 7 };
		assert_int_equal(shard_parse(bad[i].s, &s, &err), -EINVAL);
		if (!strstr(err.buf, bad[i].msg))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].s, err.buf,
				 bad[i].msg);
		/* quoted as given */
		assert_non_null(strstr(err.buf, bad[i].s));
		assert_int_equal(s.k, 7);	/* untouched */
		strbuf_release(&err);
	}
	assert_int_equal(shard_parse(NULL, &s, NULL), -EINVAL);
}

static void test_by(void **state)
{
	enum shard_by b = SHARD_BY_ORDER;

	(void)state;
	assert_int_equal(shard_by_parse("cost", &b), 0);
	assert_int_equal(b, SHARD_BY_COST);
	assert_int_equal(shard_by_parse("order", &b), 0);
	assert_int_equal(b, SHARD_BY_ORDER);
	assert_int_equal(shard_by_parse("Cost", &b), -EINVAL);
	assert_int_equal(shard_by_parse(NULL, &b), -EINVAL);
	assert_string_equal(shard_by_name(SHARD_BY_COST), "cost");
	assert_string_equal(shard_by_name(SHARD_BY_ORDER), "order");
	assert_string_equal(shard_by_name((enum shard_by)9), "?");
}

static void expect_split(const double *costs, size_t n, unsigned count,
			 enum shard_by by, enum shard_by want_by,
			 const unsigned *want)
{
	struct shard_item it[16] = { { 0 } };
	unsigned got[16] = { 0 };

	for (size_t i = 0; i < n; i++)
		it[i] = (struct shard_item){ "c", costs ? costs[i] : -1 };
	assert_int_equal(shard_split(it, n, count, by, got), want_by);
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("item %zu: shard %u, not %u", i, got[i], want[i]);
}

static void test_split_order(void **state)
{
	static const unsigned five_by_2[] = { 1, 1, 1, 2, 2 };
	static const unsigned five_by_5[] = { 1, 2, 3, 4, 5 };
	static const unsigned two_by_3[] = { 1, 2 };
	static const unsigned seven_by_3[] = { 1, 1, 1, 2, 2, 3, 3 };
	static const double known[] = { 9, 1, 1, 1, 1 };

	(void)state;
	expect_split(NULL, 5, 2, SHARD_BY_COST, SHARD_BY_ORDER, five_by_2);
	expect_split(NULL, 5, 5, SHARD_BY_ORDER, SHARD_BY_ORDER, five_by_5);
	expect_split(NULL, 2, 3, SHARD_BY_ORDER, SHARD_BY_ORDER, two_by_3);
	expect_split(NULL, 7, 3, SHARD_BY_COST, SHARD_BY_ORDER, seven_by_3);
	/* by order even when costs are known */
	expect_split(known, 5, 2, SHARD_BY_ORDER, SHARD_BY_ORDER, five_by_2);
	expect_split(NULL, 0, 4, SHARD_BY_COST, SHARD_BY_ORDER, NULL);
}

static void test_split_cost(void **state)
{
	/* 100 -> 1; 50 -> 2; 50 -> 2 (50 < 100); 40 -> 1 (tie: the lower);
	 * 10 -> 2: loads 140 and 110 */
	static const double c1[] = { 100, 50, 50, 40, 10 };
	static const unsigned w1[] = { 1, 2, 2, 1, 2 };
	/* unknown ones cost the median of 100 and 20: 60; equal costs go
	 * in the plan's order: 100 -> 1, 60 (i1) -> 2, 60 (i3) -> 2, 20 -> 1 */
	static const double c2[] = { 100, -1, 20, -1 };
	static const unsigned w2[] = { 1, 2, 1, 2 };
	/* all equal: round robin in the plan's order */
	static const double c3[] = { 5, 5, 5, 5, 5 };
	static const unsigned w3[] = { 1, 2, 3, 1, 2 };
	/* one shard: everything in it */
	static const unsigned w4[] = { 1, 1, 1, 1, 1 };

	(void)state;
	expect_split(c1, 5, 2, SHARD_BY_COST, SHARD_BY_COST, w1);
	expect_split(c2, 4, 2, SHARD_BY_COST, SHARD_BY_COST, w2);
	expect_split(c3, 5, 3, SHARD_BY_COST, SHARD_BY_COST, w3);
	expect_split(c1, 5, 1, SHARD_BY_COST, SHARD_BY_COST, w4);
}

/* Many random inputs: a partition into 1..count, the same every time,
 * and the greedy bound (no shard over the mean load plus the costliest
 * item). */
static void test_split_properties(void **state)
{
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 2000; round++) {
		size_t n = (size_t)(rand_r(&seed) % 40);
		unsigned count = 1 + (unsigned)(rand_r(&seed) % 8);
		enum shard_by by = rand_r(&seed) % 3 ? SHARD_BY_COST : SHARD_BY_ORDER;
		struct shard_item it[40];
		unsigned a[40], b[40];
		double load[9] = { 0 }, total = 0, max = 0, known[40];
		size_t n_known = 0;
		enum shard_by used;

		for (size_t i = 0; i < n; i++) {
			double c = rand_r(&seed) % 5 ? (double)(rand_r(&seed) % 4000)
						     : -1;

			it[i] = (struct shard_item){ "x", c };
			if (c >= 0)
				known[n_known++] = c;
		}
		used = shard_split(it, n, count, by, a);
		assert_int_equal(shard_split(it, n, count, by, b), used);
		assert_memory_equal(a, b, n * sizeof(*a));
		assert_int_equal(used, by == SHARD_BY_COST && n_known
					       ? SHARD_BY_COST : SHARD_BY_ORDER);
		for (size_t i = 0; i < n; i++)
			assert_true(a[i] >= 1 && a[i] <= count);
		if (used == SHARD_BY_ORDER) {
			/* contiguous, non-decreasing, sizes differ by <= 1 */
			size_t size[9] = { 0 }, lo = n, hi = 0;

			for (size_t i = 0; i < n; i++) {
				if (i)
					assert_true(a[i] >= a[i - 1]);
				size[a[i]]++;
			}
			for (unsigned k = 1; k <= count; k++) {
				lo = size[k] < lo ? size[k] : lo;
				hi = size[k] > hi ? size[k] : hi;
			}
			if (n)
				assert_true(hi - lo <= 1);
			continue;
		}
		{
			/* unknown costs count as the median of the known ones */
			double fill = eta_median(known, n_known);

			for (size_t i = 0; i < n; i++) {
				double c = it[i].cost >= 0 ? it[i].cost : fill;

				load[a[i]] += c;
				total += c;
				max = c > max ? c : max;
			}
			for (unsigned k = 1; k <= count; k++)
				assert_true(load[k] <= total / count + max + 1e-9);
		}
	}
}

static void test_record(void **state)
{
	const struct shard_item it[] = {
		{ "x86_64-base", 3600 }, { "x86_64-bpf", -1 }, { "i386-base", 10.5 },
	};
	const unsigned assign[] = { 1, 2, 2 };
	const struct shard_spec spec = { 2, 2 };
	json_object *rec = shard_record(&spec, SHARD_BY_COST, SHARD_BY_COST, it,
					3, assign);
	struct shard_spec back = { 0, 0 };
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_string_equal(json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN),
			    "{\"index\":2,\"count\":2,\"asked\":\"cost\",\"by\":"
			    "\"cost\",\"split\":[{\"id\":\"x86_64-base\",\"shard\":1,"
			    "\"cost\":3600.000},{\"id\":\"x86_64-bpf\",\"shard\":2,"
			    "\"cost\":null},{\"id\":\"i386-base\",\"shard\":2,"
			    "\"cost\":10.500}]}");
	assert_int_equal(shard_from_record(rec, &back, NULL), 0);
	assert_int_equal(back.k, 2);
	assert_int_equal(back.n, 2);
	assert_int_equal(shard_of(rec, "x86_64-base"), 1);
	assert_int_equal(shard_of(rec, "i386-base"), 2);
	assert_int_equal(shard_of(rec, "i386-bpf"), 0);
	assert_int_equal(shard_of(rec, NULL), 0);
	assert_int_equal(shard_of(NULL, "x86_64-base"), 0);

	/* what is not a shard record */
	{
		static const struct {
			const char *json, *msg;
		} bad[] = {
			{ "null", "no \"shard\" member" },
			{ "[1]", "no \"shard\" member" },
			{ "{\"index\":1,\"split\":[]}", "index and count" },
			{ "{\"index\":3,\"count\":2,\"split\":[]}", "index and count" },
			{ "{\"index\":0,\"count\":2,\"split\":[]}", "index and count" },
			{ "{\"index\":1,\"count\":257,\"split\":[]}", "index and count" },
			{ "{\"index\":\"1\",\"count\":2,\"split\":[]}", "index and count" },
			{ "{\"index\":1,\"count\":2}", "no \"split\"" },
			{ "{\"index\":1,\"count\":2,\"split\":[{\"shard\":1}]}",
			  "split[0] needs an id" },
			{ "{\"index\":1,\"count\":2,\"split\":[{\"id\":\"a\","
			  "\"shard\":3}]}", "split[0] needs an id and a shard 1..2" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			json_object *j = json_tokener_parse(bad[i].json);

			strbuf_reset(&err);
			assert_int_equal(shard_from_record(j, &back, &err), -EINVAL);
			if (!strstr(err.buf, bad[i].msg))
				fail_msg("%s: '%s' lacks '%s'", bad[i].json,
					 err.buf, bad[i].msg);
			json_object_put(j);
		}
	}
	strbuf_release(&err);
	json_object_put(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_by),
		cmocka_unit_test(test_split_order),
		cmocka_unit_test(test_split_cost),
		cmocka_unit_test(test_split_properties),
		cmocka_unit_test(test_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
