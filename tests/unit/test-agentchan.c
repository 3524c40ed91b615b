// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../scenarios/contract.h"
#include "core/agentchan.h"

#define LINE BP_CHANNEL_LINE "6.12.118\n"
#define LOG "[    0.000000] Linux version 6.12.118\n[    1.5] Run /init\n"

static void split(const char *s, struct agentchan *c)
{
	agentchan_split(s, strlen(s), c);
}

static void test_line_then_log(void **state)
{
	const char *s = LINE BP_CHANNEL_DMESG "58\n" LOG;
	struct agentchan c;

	(void)state;
	assert_int_equal(strlen(LOG), 58);
	split(s, &c);
	assert_int_equal(c.before_len, strlen(LINE));
	assert_memory_equal(c.before, LINE, strlen(LINE));
	assert_int_equal(c.dmesg_announced, 58);
	assert_int_equal(c.dmesg_len, 58);
	assert_memory_equal(c.dmesg, LOG, 58);
	assert_int_equal(c.after_len, 0);
	assert_true(agentchan_dmesg_complete(&c));
}

/* The boot scenario did not run: the log is all there is. */
static void test_log_only(void **state)
{
	struct agentchan c;

	(void)state;
	split(BP_CHANNEL_DMESG "58\n" LOG, &c);
	assert_int_equal(c.before_len, 0);
	assert_int_equal(c.dmesg_len, 58);
	assert_true(agentchan_dmesg_complete(&c));
}

/* The guest stopped while sending: what arrived is kept, and said to be
 * short. */
static void test_log_cut(void **state)
{
	struct agentchan c;

	(void)state;
	split(LINE BP_CHANNEL_DMESG "5000\n" LOG, &c);
	assert_int_equal(c.dmesg_announced, 5000);
	assert_int_equal(c.dmesg_len, 58);
	assert_false(agentchan_dmesg_complete(&c));
	assert_int_equal(c.after_len, 0);
}

/* Bytes after the announced log stay the channel's; a header inside the
 * log is log. */
static void test_after_and_nested(void **state)
{
	const char *s =
		BP_CHANNEL_DMESG "39\n" BP_CHANNEL_DMESG "7\nabcdefg\ntail\n";
	struct agentchan c;

	(void)state;
	split(s, &c);
	assert_int_equal(strlen(BP_CHANNEL_DMESG "7\nabcdefg\n"), 39);
	assert_int_equal(c.dmesg_announced, 39);
	assert_int_equal(c.dmesg_len, 39);
	assert_memory_equal(c.dmesg, BP_CHANNEL_DMESG "7\n", 31);
	assert_memory_equal(c.after, "tail\n", 5);
	assert_int_equal(c.after_len, 5);
}

/* Not a header: mid-line, without a size, or cut before its newline. */
static void test_not_headers(void **state)
{
	static const char *const cases[] = {
		"x" BP_CHANNEL_DMESG "5\nabcde",
		BP_CHANNEL_DMESG "\nabcde",
		BP_CHANNEL_DMESG "5",
		BP_CHANNEL_DMESG "5 \nabcde",
		BP_CHANNEL_DMESG,
		"",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct agentchan c;

		split(cases[i], &c);
		assert_int_equal(c.dmesg_announced, -1);
		assert_null(c.dmesg);
		assert_int_equal(c.before_len, strlen(cases[i]));
		assert_false(agentchan_dmesg_complete(&c));
	}
}

/* An empty log is complete. */
static void test_empty_log(void **state)
{
	struct agentchan c;

	(void)state;
	split(LINE BP_CHANNEL_DMESG "0\n", &c);
	assert_int_equal(c.dmesg_announced, 0);
	assert_int_equal(c.dmesg_len, 0);
	assert_true(agentchan_dmesg_complete(&c));
	agentchan_split(NULL, 0, &c);
	assert_int_equal(c.dmesg_announced, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_then_log),
		cmocka_unit_test(test_log_only),
		cmocka_unit_test(test_log_cut),
		cmocka_unit_test(test_after_and_nested),
		cmocka_unit_test(test_not_headers),
		cmocka_unit_test(test_empty_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
