// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/distcc: the host forms let through (with their limits: distcc's
 * defaults, 4 for a TCP host and 2 for localhost), every form refused
 * with its reason, the farm's DISTCC_HOSTS value and slots.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/distcc.h"
#include "util/strbuf.h"

static void test_hosts(void **state)
{
	static const struct {
		const char *spec;
		unsigned limit;
	} good[] = {
		{ "10.253.1.2", 4 },	     { "10.253.1.2/2", 2 },
		{ "build-1.example.org", 4 }, { "b1:3632", 4 },
		{ "b1:4000/8", 8 },	     { "b1/8,lzo", 8 },
		{ "b1:1,lzo", 4 },	     { "localhost", 2 },
		{ "localhost/3", 3 },	     { "b1/1024", 1024 },
		{ "B1", 4 },
	};
	static const struct {
		const char *spec, *msg;
	} bad[] = {
		{ "", "expected HOST[:PORT][/LIMIT][,lzo]" },
		{ "-b1", "options and zeroconf are not supported" },
		{ "--randomize", "options and zeroconf are not supported" },
		{ "+zeroconf", "options and zeroconf are not supported" },
		{ "user@b1", "ssh hosts are not supported" },
		{ "@b1/2", "ssh hosts are not supported" },
		{ "[::1]", "IPv6 hosts are not supported" },
		{ "fe80::1", "IPv6 hosts are not supported" },
		{ "b1:0", "the port after ':' must be 1..65535" },
		{ "b1:65536", "the port after ':' must be 1..65535" },
		{ "b1:", "the port after ':' must be 1..65535" },
		{ "b1:x", "the port after ':' must be 1..65535" },
		{ "b1/0", "the limit after '/' must be 1..1024" },
		{ "b1/1025", "the limit after '/' must be 1..1024" },
		{ "b1/", "the limit after '/' must be 1..1024" },
		{ "b1/2x", "the limit after '/' must be 1..1024" },
		{ "b1,cpp", "the only option is ,lzo" },
		{ "b1,lzo,cpp", "the only option is ,lzo" },
		{ "b1,auth", "the only option is ,lzo" },
		{ "b1/2:3632", "the limit after '/' must be" },
		{ "localhost:3632", "localhost compiles here, it takes no port" },
		{ "localhost,lzo", "localhost takes no option" },
		{ "b_1", "expected HOST" },
		{ "b1;rm", "expected HOST" },
		{ "b1 b2", "expected HOST" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		unsigned limit = 0;
		struct strbuf err = STRBUF_INIT;

		if (distcc_host_check(good[i].spec, &limit, &err) < 0)
			fail_msg("'%s': %s", good[i].spec, err.buf);
		assert_int_equal(limit, good[i].limit);
		strbuf_release(&err);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned limit = 77;
		struct strbuf err = STRBUF_INIT;

		assert_int_equal(distcc_host_check(bad[i].spec, &limit, &err),
				 -EINVAL);
		if (!strstr(err.buf, bad[i].msg))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].spec, err.buf,
				 bad[i].msg);
		/* the word is quoted */
		if (bad[i].spec[0])
			assert_non_null(strstr(err.buf, bad[i].spec));
		assert_int_equal(limit, 77);
		strbuf_release(&err);
	}
	assert_int_equal(distcc_host_check(NULL, NULL, NULL), -EINVAL);
}

static void test_farm(void **state)
{
	const char *two[] = { "10.253.1.2/2", "10.253.2.2/2" };
	const char *mixed[] = { "localhost", "b1", "b2:4000/16,lzo" };
	const char *dup[] = { "b1/2", "b2", "b1:3632" };
	const char *dup2[] = { "b1/2", "b1/4" };
	const char *badhost[] = { "b1", "u@b2" };
	char *hosts = NULL;
	unsigned slots = 0;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(distcc_farm(two, 2, &hosts, &slots, NULL), 0);
	assert_string_equal(hosts, "10.253.1.2/2 10.253.2.2/2");
	assert_int_equal(slots, 4);
	free(hosts);
	assert_int_equal(distcc_farm(mixed, 3, &hosts, &slots, NULL), 0);
	assert_string_equal(hosts, "localhost b1 b2:4000/16,lzo");
	assert_int_equal(slots, 2 + 4 + 16);
	free(hosts);
	hosts = NULL;
	assert_int_equal(distcc_farm(two, 0, &hosts, &slots, &err), -EINVAL);
	assert_string_equal(err.buf, "distcc: no host");
	/* the same host with another port is another daemon; the same
	 * host:port twice is not */
	assert_int_equal(distcc_farm(dup, 3, &hosts, &slots, &err), 0);
	free(hosts);
	hosts = NULL;
	assert_int_equal(distcc_farm(dup2, 2, &hosts, &slots, &err), -EINVAL);
	assert_string_equal(err.buf, "distcc: host b1 given twice");
	assert_int_equal(distcc_farm(badhost, 2, &hosts, &slots, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "'u@b2': ssh hosts"));
	assert_null(hosts);
	{
		const char *many[DISTCC_MAX_HOSTS + 1];

		for (size_t i = 0; i <= DISTCC_MAX_HOSTS; i++)
			many[i] = "b1";
		assert_int_equal(distcc_farm(many, DISTCC_MAX_HOSTS + 1, &hosts,
					     &slots, &err), -EINVAL);
		assert_non_null(strstr(err.buf, "more than 256 hosts"));
	}
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_farm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
