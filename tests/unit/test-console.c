// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tests of the console parser.  Besides the cmocka tests:
 *
 *   test-console --dump LOG...   print the expectation dump of each log
 *                                (how tests/data/console/expect/ is made)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/console.h"
#include "util/strbuf.h"

#define CONSOLE_DIR TEST_DATA "/console"
#define EXPECT_DIR CONSOLE_DIR "/expect"

/* ------------------------------------------------------------ recorder */

/* Everything the callbacks saw, as text: two runs are equal iff equal. */
struct rec {
	struct strbuf log;
	size_t n_lines, n_milestones, n_problems;
};

static void rec_line(const struct console_line *l, void *ud)
{
	struct rec *r = ud;

	assert_int_equal(strlen(l->text), l->len);
	strbuf_addf(&r->log, "L %lu %.6f%s|%s\n", l->lineno, l->timestamp,
		    l->truncated ? " T" : "", l->text);
	r->n_lines++;
}

static void rec_milestone(const struct console_milestone_event *ev, void *ud)
{
	struct rec *r = ud;

	strbuf_addf(&r->log, "M %s %lu %.6f|%s\n",
		    console_milestone_name(ev->milestone), ev->lineno,
		    ev->timestamp, ev->text);
	r->n_milestones++;
}

static void dump_problem(struct strbuf *sb, const struct console_problem *p,
			 bool report)
{
	strbuf_addf(sb, "problem %s line %lu ts %.6f sig %s end %s block %lu-%lu (%zu lines",
		    console_problem_kind_name(p->kind), p->lineno, p->timestamp,
		    p->signature, console_end_name(p->end), p->first_lineno,
		    p->last_lineno, p->report_lines);
	if (p->report_lines_dropped)
		strbuf_addf(sb, ", %zu dropped", p->report_lines_dropped);
	if (p->report_lines_skipped)
		strbuf_addf(sb, ", %zu skipped", p->report_lines_skipped);
	strbuf_addf(sb, ")%s\n  header \"%s\"\n  title \"%s\"\n",
		    p->corrupted ? " corrupted" : "", p->header, p->title);
	if (p->reason)
		strbuf_addf(sb, "  reason \"%s\"\n", p->reason);
	strbuf_addstr(sb, "  frames");
	for (size_t i = 0; i < p->n_frames; i++)
		strbuf_addf(sb, " %s", p->frames[i]);
	if (!p->n_frames)
		strbuf_addstr(sb, " -");
	strbuf_addch(sb, '\n');
	if (report)
		strbuf_addf(sb, "  report<<\n%s>>\n", p->report);
}

static void rec_problem(const struct console_problem *p, void *ud)
{
	struct rec *r = ud;

	dump_problem(&r->log, p, true);
	r->n_problems++;
}

static const struct console_ops rec_ops = {
	.on_line = rec_line,
	.on_milestone = rec_milestone,
	.on_problem = rec_problem,
};

/* The expectation dump: what the parser kept, queried after the end. */
static void dump_console(struct strbuf *sb, const struct console *c)
{
	const struct console_milestone_event *ev;
	struct console_stats st;

	console_get_stats(c, &st);
	strbuf_addf(sb, "lines %lu timestamped %lu split %lu truncated %lu boots %lu\n",
		    st.lines, st.timestamped, st.lines_split,
		    st.lines_truncated, st.boots);
	strbuf_addf(sb, "escapes %lu controls %lu invalid_utf8 %lu\n",
		    st.escapes, st.controls, st.invalid_utf8);
	for (int m = 0; m < _CONSOLE_MS_MAX; m++) {
		ev = console_milestone_first(c, m);
		if (ev)
			strbuf_addf(sb, "milestone %s line %lu ts %.6f \"%s\"\n",
				    console_milestone_name(m), ev->lineno,
				    ev->timestamp, ev->text);
	}
	ev = console_last_milestone(c);
	strbuf_addf(sb, "last %s line %lu\n",
		    ev ? console_milestone_name(ev->milestone) : "none",
		    ev ? ev->lineno : 0);
	strbuf_addf(sb, "problems %lu dropped %lu\n", st.problems,
		    st.problems_dropped);
	for (size_t i = 0; i < console_n_problems(c); i++)
		dump_problem(sb, console_problem(c, i), false);
}

enum chunking {
	WHOLE,
	BYTES,
	RANDOM,
};

/* xorshift: a fixed sequence of chunk sizes, the same on every machine. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Parse data in the given chunking; callbacks and final dump into *out. */
static void run(const char *data, size_t n, enum chunking how, uint32_t seed,
		struct strbuf *out)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = console_new(&rec_ops, &r);
	size_t i = 0;

	assert_non_null(c);
	while (i < n) {
		size_t k = n - i;

		if (how == BYTES)
			k = 1;
		else if (how == RANDOM)
			k = 1 + next_rand(&seed) % 700;
		if (k > n - i)
			k = n - i;
		assert_int_equal(console_feed(c, data + i, k), 0);
		i += k;
	}
	assert_int_equal(console_finish(c), 0);
	strbuf_add(out, r.log.buf, r.log.len);
	strbuf_addstr(out, "--\n");
	dump_console(out, c);
	strbuf_release(&r.log);
}

/* A parser fed once with a string, then finished. */
static struct console *parse(const char *s, struct rec *r)
{
	struct console *c = console_new(r ? &rec_ops : NULL, r);

	assert_non_null(c);
	assert_int_equal(console_feed(c, s, strlen(s)), 0);
	assert_int_equal(console_finish(c), 0);
	return c;
}

static const struct console_problem *only_problem(const struct console *c)
{
	assert_int_equal(console_n_problems(c), 1);
	return console_problem(c, 0);
}

/* ------------------------------------------------------------ basics */

static void test_names(void **state)
{
	enum console_problem_kind k;
	enum console_milestone m;

	for (int i = 0; i < _CONSOLE_PROBLEM_MAX; i++) {
		const char *n = console_problem_kind_name(i);

		assert_non_null(n);
		assert_int_equal(console_problem_kind_from_string(n, &k), 0);
		assert_int_equal(k, i);
	}
	for (int i = 0; i < _CONSOLE_MS_MAX; i++) {
		const char *n = console_milestone_name(i);

		assert_non_null(n);
		assert_int_equal(console_milestone_from_string(n, &m), 0);
		assert_int_equal(m, i);
	}
	assert_string_equal(console_problem_kind_name(CONSOLE_SOFT_LOCKUP),
			    "SOFT_LOCKUP");
	assert_string_equal(console_milestone_name(CONSOLE_MS_KERNEL_BANNER),
			    "KERNEL_BANNER");
	assert_string_equal(console_end_name(CONSOLE_END_MARKER), "MARKER");
	assert_null(console_problem_kind_name(_CONSOLE_PROBLEM_MAX));
	assert_null(console_problem_kind_name((enum console_problem_kind)-1));
	assert_null(console_milestone_name(_CONSOLE_MS_MAX));
	assert_null(console_end_name(_CONSOLE_END_MAX));
	assert_int_equal(console_problem_kind_from_string("panic", &k), 0);
	assert_int_equal(k, CONSOLE_PANIC);
	assert_int_equal(console_problem_kind_from_string("nope", &k),
			 -EINVAL);
	assert_int_equal(console_milestone_from_string(NULL, &m), -EINVAL);
}

static void test_feed_errors(void **state)
{
	_cleanup_console_ struct console *c = console_new(NULL, NULL);

	assert_int_equal(console_feed(NULL, "x", 1), -EINVAL);
	assert_int_equal(console_feed(c, NULL, 1), -EINVAL);
	assert_int_equal(console_feed(c, NULL, 0), 0);
	assert_int_equal(console_finish(NULL), -EINVAL);
	assert_int_equal(console_finish(c), 0);
	assert_int_equal(console_finish(c), 0);
	assert_int_equal(console_feed(c, "x", 1), -EINVAL);
	console_free(NULL);
}

static void test_lines_and_cr(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c =
		parse("a\r\nb\rc\n\r\r\n\ntail", &r);
	struct console_stats st;

	assert_string_equal(r.log.buf, "L 1 -1.000000|a\n"
				       "L 2 -1.000000|bc\n"
				       "L 3 -1.000000|\n"
				       "L 4 -1.000000|\n"
				       "L 5 -1.000000|tail\n");
	console_get_stats(c, &st);
	assert_int_equal(st.lines, 5);
	assert_int_equal(st.bytes, 15);
	strbuf_release(&r.log);
}

static void test_no_partial_line_without_bytes(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse("one\n", &r);
	struct console_stats st;

	assert_int_equal(r.n_lines, 1);
	console_get_stats(c, &st);
	assert_int_equal(st.lines, 1);
	strbuf_release(&r.log);
}

static void test_timestamps(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse(
		"[    1.234567] hello\n"
		"[12345.000001] big\n"
		"<6>[    0.500000] syslog prefix\n"
		"[    2.000000][    T1] caller id\n"
		"[    3.250000][     C0] cpu caller id\n"
		"[  OK  ] Started something\n"
		"[ 1.2.3] not a timestamp\n"
		"[    1.5]no space\n"
		"<x>[    1.000000] bad prefix\n"
		"[    4.000000] \n",
		&r);
	struct console_stats st;

	assert_string_equal(r.log.buf,
			    "L 1 1.234567|hello\n"
			    "L 2 12345.000001|big\n"
			    "L 3 0.500000|syslog prefix\n"
			    "L 4 2.000000|caller id\n"
			    "L 5 3.250000|cpu caller id\n"
			    "L 6 -1.000000|[  OK  ] Started something\n"
			    "L 7 -1.000000|[ 1.2.3] not a timestamp\n"
			    "L 8 1.500000|no space\n"
			    /* not a prefix: a kernel message after text */
			    "L 9 -1.000000|<x>\n"
			    "L 9 1.000000|bad prefix\n"
			    "L 10 4.000000|\n");
	console_get_stats(c, &st);
	assert_int_equal(st.timestamped, 8);
	strbuf_release(&r.log);
}

static void test_midline_kernel_message(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse(
		"Begin: Loading essential drivers ... [   19.126825] raid6: sse2x4\r\n"
		"user [1.000000] too narrow\n"
		"[    1.000000] kernel [    2.000000] not split\n",
		&r);
	struct console_stats st;

	assert_string_equal(
		r.log.buf,
		"L 1 -1.000000|Begin: Loading essential drivers ... \n"
		"L 1 19.126825|raid6: sse2x4\n"
		"L 2 -1.000000|user [1.000000] too narrow\n"
		"L 3 1.000000|kernel [    2.000000] not split\n");
	console_get_stats(c, &st);
	assert_int_equal(st.lines, 3);
	assert_int_equal(st.lines_split, 1);
	strbuf_release(&r.log);
}

/* From a real boot (kdb front end, gdb attached through it): the console
 * of `bootproof boot --kernel K --scenarios boot,kgdb` on a kernel with
 * KGDB, KGDB_LOW_LEVEL_TRAP and KGDB_KDB, run 20261207-181913-x86_64-65b95e. */
static void test_kdb_prompt(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse(
		"[0]kdb>     ok 3 host_debugger\n"
		"[0]kdb> \n"
		"[12]kdb> [    9.749833] INFO: NMI handler took too long\n"
		"[x]kdb> not a prompt\n",
		&r);
	struct console_stats st;

	(void)state;
	assert_string_equal(
		r.log.buf,
		"L 1 -1.000000|[0]kdb> \n"
		"L 1 -1.000000|    ok 3 host_debugger\n"
		"L 2 -1.000000|[0]kdb> \n"
		"L 3 -1.000000|[12]kdb> \n"
		"L 3 9.749833|INFO: NMI handler took too long\n"
		"L 4 -1.000000|[x]kdb> not a prompt\n");
	console_get_stats(c, &st);
	assert_int_equal(st.lines_split, 2);
	strbuf_release(&r.log);
}

static void test_escape_sequences(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	/* SeaBIOS' serial console noise, colours, an OSC title, a charset
	 * switch, a DCS string, and an unterminated CSI cut by '\n'. */
	_cleanup_console_ struct console *c = parse(
		"\x1b" "c\x1b[?7l\x1b[2J\x1b[0mSeaBIOS (version 1.16.2)\r\n"
		"\x1b[1;31mred\x1b[0m plain\n"
		"\x1b]0;title\x07" "after osc\n"
		"\x1b]2;title\x1b\\after st\n"
		"\x1b(Bcharset\n"
		"\x1bPdcs string\x1b\\after dcs\n"
		"x\x1b[12;\nnext\n"
		"\x1b]unterminated osc\n"
		"\x1b\x1b" "[1mdouble esc\n",
		&r);
	struct console_stats st;

	assert_string_equal(r.log.buf,
			    "L 1 -1.000000|SeaBIOS (version 1.16.2)\n"
			    "M FIRMWARE 1 -1.000000|SeaBIOS (version 1.16.2)\n"
			    "L 2 -1.000000|red plain\n"
			    "L 3 -1.000000|after osc\n"
			    "L 4 -1.000000|after st\n"
			    "L 5 -1.000000|charset\n"
			    "L 6 -1.000000|after dcs\n"
			    "L 7 -1.000000|x\n"
			    "L 8 -1.000000|next\n"
			    "L 9 -1.000000|\n"
			    "L 10 -1.000000|double esc\n");
	console_get_stats(c, &st);
	/* ST inside a string and ESC ESC do not start new sequences */
	assert_int_equal(st.escapes, 13);
	assert_true(console_milestones(c) & (1u << CONSOLE_MS_FIRMWARE));
	strbuf_release(&r.log);
}

static void test_controls_and_utf8(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	static const char in[] =
		"a\0b\x01\x7f" "c\td\n"		/* NUL, SOH, DEL gone, tab kept */
		"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7\n" /* valid */
		"bad \xff \xc0\xaf \xed\xa0\x80 \xe2\x82!\n" /* invalid */
		"c1 \xc2\x85|\xc2\x9f|\xc2\xa0|\n"	 /* C1 gone, NBSP kept */
		"nonchar \xef\xbf\xbe|\xef\xbf\xbf|\xef\xbf\xbd\n"; /* not XML */
	_cleanup_console_ struct console *c = console_new(&rec_ops, &r);
	struct console_stats st;

	assert_int_equal(console_feed(c, in, sizeof(in) - 1), 0);
	assert_int_equal(console_finish(c), 0);
	assert_string_equal(
		r.log.buf,
		"L 1 -1.000000|abc\td\n"
		"L 2 -1.000000|caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7\n"
		"L 3 -1.000000|bad \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
		"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
		"\xef\xbf\xbd\xef\xbf\xbd!\n"
		"L 4 -1.000000|c1 ||\xc2\xa0|\n"
		"L 5 -1.000000|nonchar \xef\xbf\xbd|\xef\xbf\xbd|\xef\xbf\xbd\n");
	console_get_stats(c, &st);
	assert_int_equal(st.controls, 3 + 2);
	assert_int_equal(st.invalid_utf8, 1 + 2 + 3 + 2 + 2);
	strbuf_release(&r.log);
}

/* Random binary garbage: every line is valid UTF-8 without controls. */
static void check_clean_text(const struct console_line *l, void *ud)
{
	const unsigned char *s = (const unsigned char *)l->text;
	size_t *n = ud;

	for (size_t i = 0; i < l->len; i++) {
		assert_true(s[i] >= 0x20 || s[i] == '\t');
		assert_true(s[i] != 0x7f);
		assert_true(s[i] != 0xc0 && s[i] != 0xc1 && s[i] < 0xf5);
		if (s[i] == 0xc2)
			assert_true(s[i + 1] >= 0xa0);
	}
	assert_int_equal(strlen(l->text), l->len);
	(*n)++;
}

static void test_binary_garbage(void **state)
{
	static const struct console_ops ops = { .on_line = check_clean_text };
	size_t n = 0, size = 1 << 20;
	_cleanup_free_ char *buf = malloc(size);
	_cleanup_console_ struct console *c = console_new(&ops, &n);
	uint32_t seed = 12345;
	struct console_stats st;

	assert_non_null(buf);
	for (size_t i = 0; i < size; i++)
		buf[i] = (char)next_rand(&seed);
	assert_int_equal(console_feed(c, buf, size), 0);
	assert_int_equal(console_finish(c), 0);
	console_get_stats(c, &st);
	assert_int_equal(st.bytes, size);
	assert_true(n > 1000);	/* ~1/256 of the bytes are '\n' */
	assert_int_equal(n, st.lines + st.lines_split);
	assert_true(st.invalid_utf8 > 1000);
}

static void test_long_line_truncated(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = console_new(&rec_ops, &r);
	size_t size = 3 * CONSOLE_LINE_MAX + 17;
	_cleanup_free_ char *buf = malloc(size);
	struct console_stats st;

	memset(buf, 'x', size);
	/* in chunks, so the limit is crossed inside a feed call */
	for (size_t i = 0; i < size; i += 1000)
		assert_int_equal(console_feed(c, buf + i,
					      size - i < 1000 ? size - i : 1000),
				 0);
	assert_int_equal(console_feed(c, "\nnext\n", 6), 0);
	assert_int_equal(console_finish(c), 0);
	console_get_stats(c, &st);
	assert_int_equal(st.lines, 2);
	assert_int_equal(st.lines_truncated, 1);
	assert_int_equal(st.bytes_truncated, size - CONSOLE_LINE_MAX);
	assert_int_equal(r.n_lines, 2);
	/* "L 1 -1.000000 T|" + 64 KiB of x + "\n" + next line */
	assert_int_equal(r.log.len, 16 + CONSOLE_LINE_MAX + 1 + 19);
	assert_memory_equal(r.log.buf, "L 1 -1.000000 T|xxx", 19);
	assert_string_equal(r.log.buf + 16 + CONSOLE_LINE_MAX,
			    "\nL 2 -1.000000|next\n");
	strbuf_release(&r.log);
}

/* Invalid bytes expand to 3-byte U+FFFD: the clean line is capped too. */
static void test_long_invalid_line_capped(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = console_new(&rec_ops, &r);
	_cleanup_free_ char *buf = malloc(CONSOLE_LINE_MAX);

	memset(buf, 0xff, CONSOLE_LINE_MAX);
	assert_int_equal(console_feed(c, buf, CONSOLE_LINE_MAX), 0);
	assert_int_equal(console_finish(c), 0);
	assert_int_equal(r.n_lines, 1);
	/* the largest multiple of 3 not above the limit, flagged */
	assert_int_equal(r.log.len,
			 16 + (CONSOLE_LINE_MAX / 3) * 3 + 1);
	strbuf_release(&r.log);
}

/* ------------------------------------------------------------ milestones */

static void test_milestones(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse(
		"SeaBIOS (version 1.16.2-debian-1.16.2-1)\n"
		"Booting from ROM..\n"
		"EFI stub: Booting Linux Kernel...\n"
		"[    0.000000] Linux version 6.12.118 (root@h) (gcc 12) #1 SMP\n"
		"[    1.000000] EXT4-fs (vda): mounted filesystem ro\n"
		"[    1.100000] VFS: Mounted root (ext4 filesystem) readonly on device 254:0.\n"
		"[    1.200000] Run /sbin/init as init process\n"
		"[    1.300000] Run /etc/init as init process\n"
		"    KTAP version 1\n"
		"KTAP version 1\n"
		"cat /proc/version: Linux version 6.12.118\n"
		"Linux version 6.12.118 (echoed by user space)\n"
		"[    9.000000] reboot: Power down\n",
		&r);
	const struct console_milestone_event *ev;

	assert_int_equal(r.n_milestones, 6);
	assert_int_equal(console_milestones(c),
			 (1u << CONSOLE_MS_FIRMWARE) |
				 (1u << CONSOLE_MS_KERNEL_BANNER) |
				 (1u << CONSOLE_MS_ROOT_MOUNTED) |
				 (1u << CONSOLE_MS_INIT_STARTED) |
				 (1u << CONSOLE_MS_KTAP_START) |
				 (1u << CONSOLE_MS_POWER_OFF));
	ev = console_milestone_first(c, CONSOLE_MS_FIRMWARE);
	assert_int_equal(ev->lineno, 1);
	assert_string_equal(ev->text,
			    "SeaBIOS (version 1.16.2-debian-1.16.2-1)");
	assert_string_equal(console_banner(c), "Linux version 6.12.118 "
					       "(root@h) (gcc 12) #1 SMP");
	ev = console_milestone_first(c, CONSOLE_MS_ROOT_MOUNTED);
	assert_int_equal(ev->lineno, 6);	/* ext4 before init: not root */
	assert_true(ev->timestamp > 1.09 && ev->timestamp < 1.11);
	ev = console_milestone_first(c, CONSOLE_MS_INIT_STARTED);
	assert_int_equal(ev->lineno, 7);
	ev = console_milestone_first(c, CONSOLE_MS_KTAP_START);
	assert_int_equal(ev->lineno, 9);
	assert_string_equal(ev->text, "    KTAP version 1");
	ev = console_last_milestone(c);
	assert_int_equal(ev->milestone, CONSOLE_MS_POWER_OFF);
	assert_int_equal(ev->lineno, 13);
	assert_true(ev->timestamp == 9.0);
	assert_null(console_milestone_first(c, CONSOLE_MS_HALT));
	assert_null(console_milestone_first(c, _CONSOLE_MS_MAX));
	strbuf_release(&r.log);
}

static void test_root_after_initramfs(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    0.000000] Linux version 6.1.0-57-amd64 (x) #1\n"
		"[   10.868161] Run /init as init process\n"
		"Begin: Mounting root file system ... \n"
		"[   22.616295] EXT4-fs (vda): mounted filesystem with ordered data mode. Quota mode: none.\n"
		"[   23.271047] reboot: System halted\n",
		NULL);
	const struct console_milestone_event *ev;

	ev = console_milestone_first(c, CONSOLE_MS_ROOT_MOUNTED);
	assert_non_null(ev);
	assert_int_equal(ev->lineno, 4);
	ev = console_last_milestone(c);
	assert_int_equal(ev->milestone, CONSOLE_MS_HALT);
}

static void test_reboot_cycles(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse(
		"[    0.000000] Linux version 6.12.0 (a) #1\n"
		"[    1.000000] Run /init as init process\n"
		"[    2.000000] reboot: Restarting system\n"
		"SeaBIOS (version 1.16.2)\n"
		"[    0.000000] Linux version 6.12.0 (a) #1\n"
		"[    1.000000] Run /init as init process\n"
		/* a triple fault: firmware again without a reboot message */
		"SeaBIOS (version 1.16.2)\n"
		"[    0.000000] Linux version 6.12.0 (b) #2\n",
		&r);
	struct console_stats st;

	assert_int_equal(r.n_milestones, 8);
	assert_string_equal(console_banner(c), "Linux version 6.12.0 (a) #1");
	assert_int_equal(console_last_milestone(c)->lineno, 8);
	assert_int_equal(console_last_milestone(c)->milestone,
			 CONSOLE_MS_KERNEL_BANNER);
	assert_int_equal(console_milestone_first(c, CONSOLE_MS_FIRMWARE)
				 ->lineno, 4);
	console_get_stats(c, &st);
	assert_int_equal(st.boots, 3);
	strbuf_release(&r.log);
}

/* ------------------------------------------------------------ problems */

static void test_problem_kinds(void **state)
{
	static const struct {
		const char *line;
		enum console_problem_kind kind;
	} cases[] = {
		{ "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009",
		  CONSOLE_PANIC },
		{ "Oops: 0000 [#1] PREEMPT SMP NOPTI", CONSOLE_OOPS },
		{ "invalid opcode: 0000 [#1] PREEMPT SMP PTI", CONSOLE_OOPS },
		{ "stack segment: 0000 [#1] SMP", CONSOLE_OOPS },
		{ "BUG: kernel NULL pointer dereference, address: 0000000000000000",
		  CONSOLE_BUG },
		{ "kernel BUG at drivers/misc/lkdtm/bugs.c:87!", CONSOLE_BUG },
		{ "BUG: scheduling while atomic: sh/1/0x00000002", CONSOLE_ATOMIC },
		{ "WARNING: CPU: 1 PID: 64 at drivers/misc/lkdtm/bugs.c:300 lkdtm_WARNING+0x12/0x20",
		  CONSOLE_WARNING },
		{ "WARNING: at kernel/foo.c:12 foo+0x1/0x2", CONSOLE_WARNING },
		{ "general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] PREEMPT SMP PTI",
		  CONSOLE_GPF },
		{ "Oops: general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] PREEMPT SMP NOPTI",
		  CONSOLE_GPF },
		{ "UBSAN: array-index-out-of-bounds in drivers/misc/lkdtm/bugs.c:400:16",
		  CONSOLE_UBSAN },
		{ "BUG: KFENCE: use-after-free read in lkdtm_READ_AFTER_FREE+0x1/0x2",
		  CONSOLE_KFENCE },
		{ "BUG: KASAN: slab-out-of-bounds in foo+0x1/0x2",
		  CONSOLE_KASAN },
		{ "BUG: KCSAN: data-race in a / b", CONSOLE_KCSAN },
		{ "BUG: KMSAN: uninit-value in foo", CONSOLE_KMSAN },
		{ "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:65]",
		  CONSOLE_SOFT_LOCKUP },
		{ "BUG: soft lockup - CPU#0 stuck for 22s! [sh:65]",
		  CONSOLE_SOFT_LOCKUP },
		{ "watchdog: Watchdog detected hard LOCKUP on cpu 1",
		  CONSOLE_HARD_LOCKUP },
		{ "NMI watchdog: Watchdog detected hard LOCKUP on cpu 0",
		  CONSOLE_HARD_LOCKUP },
		{ "INFO: task sh:70 blocked for more than 10 seconds.",
		  CONSOLE_HUNG_TASK },
		{ "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
		  CONSOLE_RCU_STALL },
		{ "rcu: INFO: rcu_preempt self-detected stall on CPU",
		  CONSOLE_RCU_STALL },
		{ "INFO: rcu_sched detected stalls on CPUs/tasks:",
		  CONSOLE_RCU_STALL },
		{ "VFS: Cannot open root device \"vdz\" or unknown-block(0,0): error -6",
		  CONSOLE_NO_ROOT_FS },
		{ "No filesystem could mount root, tried: ", CONSOLE_NO_ROOT_FS },
		{ "VFS: Unable to mount root fs via NFS.", CONSOLE_NO_ROOT_FS },
		{ "Gave up waiting for root file system device.  Common problems:",
		  CONSOLE_NO_ROOT_FS },
		{ "ALERT!  /dev/vdz does not exist.  Dropping to a shell!",
		  CONSOLE_NO_ROOT_FS },
		{ "sh invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0",
		  CONSOLE_OOM },
	};

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		_cleanup_strbuf_ struct strbuf in = STRBUF_INIT;
		_cleanup_console_ struct console *c = NULL;
		const struct console_problem *p;

		strbuf_addf(&in, "[    5.000000] before\n[    5.100000] %s\n",
			    cases[i].line);
		c = parse(in.buf, NULL);
		p = only_problem(c);
		if (p->kind != cases[i].kind)
			fail_msg("%s: got %s, want %s", cases[i].line,
				 console_problem_kind_name(p->kind),
				 console_problem_kind_name(cases[i].kind));
		assert_string_equal(p->header, cases[i].line);
		assert_int_equal(p->lineno, 2);
		assert_true(p->timestamp == 5.1);
		/* a root fs message is all there is: not cut off */
		assert_int_equal(p->end, cases[i].kind == CONSOLE_NO_ROOT_FS
						 ? CONSOLE_END_SHAPE
						 : CONSOLE_END_STREAM);
		assert_int_equal(p->corrupted,
				 cases[i].kind != CONSOLE_NO_ROOT_FS);
		assert_int_equal(strlen(p->signature), 16);
		assert_int_equal(p->reason != NULL, p->kind == CONSOLE_PANIC);
	}
}

static void test_not_problems(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    1.000000] traps: sh[1] general protection fault ip:7f sp:7ff error:0 in libc.so\n"
		"[    1.100000] sh[1]: segfault at 0 ip 0000 sp 0000 error 4\n"
		"[    1.200000] WARNING: unsupported something\n"	/* no ===== */
		"[    1.300000] watchdog: Delayed init of the lockup detector failed: -19\n"
		"[    1.400000] rcu: Hierarchical RCU implementation.\n"
		"[    1.500000] Oops, a user space message\n"
		"[    1.600000] INFO: task list built\n"
		"---[ end trace 0000000000000000 ]---\n"
		"[    2.000000] Kernel Offset: disabled\n",
		NULL);

	assert_int_equal(console_n_problems(c), 0);
	assert_false(console_in_report(c));
}

/* A 6.12-style WARNING report, as LKDTM prints it. */
static const char warning_612[] =
	"[   12.010000] lkdtm: Performing direct entry WARNING\n"
	"[   12.020000] ------------[ cut here ]------------\n"
	"[   12.030000] WARNING: CPU: 1 PID: 64 at drivers/misc/lkdtm/bugs.c:300 lkdtm_WARNING+0x12/0x20\n"
	"[   12.040000] Modules linked in:\n"
	"[   12.050000] CPU: 1 UID: 0 PID: 64 Comm: sh Not tainted 6.12.118 #1\n"
	"[   12.060000] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)\n"
	"[   12.070000] RIP: 0010:lkdtm_WARNING+0x12/0x20\n"
	"[   12.080000] Code: 90 90 90 90 <0f> 0b c3 cc\n"
	"[   12.090000] RSP: 0018:ffffc900001a7e40 EFLAGS: 00010246\n"
	"[   12.100000] RAX: 0000000000000000 RBX: ffffffff81e2b3a0 RCX: 0000000000000000\n"
	"[   12.110000] CR2: 00007f0d4d8b6000 CR3: 0000000002c8e000 CR4: 00000000000006f0\n"
	"[   12.120000] Call Trace:\n"
	"[   12.130000]  <TASK>\n"
	"[   12.140000]  ? __warn+0x81/0x130\n"
	"[   12.150000]  ? lkdtm_WARNING+0x12/0x20\n"
	"[   12.160000]  lkdtm_do_action+0x16/0x30 [lkdtm]\n"
	"[   12.170000]  direct_entry.isra.0+0xc7/0x150\n"
	"[   12.180000]  full_proxy_write+0x5b/0x80\n"
	"[   12.190000]  vfs_write+0xcb/0x440\n"
	"[   12.200000]  ksys_write+0x63/0xe0\n"
	"[   12.210000]  do_syscall_64+0x58/0x120\n"
	"[   12.220000]  entry_SYSCALL_64_after_hwframe+0x76/0x7e\n"
	"[   12.230000] RIP: 0033:0x7f0d4d9d1e37\n"
	"[   12.240000] Code: 0f 00 f7 d8 64 89 02 48 c7 c0 ff ff ff ff eb b7\n"
	"[   12.250000] RSP: 002b:00007ffd84c6b1c8 EFLAGS: 00000246 ORIG_RAX: 0000000000000001\n"
	"[   12.260000]  </TASK>\n"
	"[   12.270000] ---[ end trace 0000000000000000 ]---\n"
	"[   12.280000] after the report\n";

static void test_warning_block(void **state)
{
	struct rec r = { .log = STRBUF_INIT };
	_cleanup_console_ struct console *c = parse(warning_612, &r);
	const struct console_problem *p = only_problem(c);
	static const char *const frames[] = {
		"lkdtm_WARNING",  "lkdtm_do_action", "direct_entry",
		"full_proxy_write", "vfs_write",   "ksys_write",
		"do_syscall_64",  "entry_SYSCALL_64_after_hwframe",
	};

	assert_int_equal(p->kind, CONSOLE_WARNING);
	assert_string_equal(p->header, "WARNING: CPU: 1 PID: 64 at drivers/misc/lkdtm/bugs.c:300 lkdtm_WARNING+0x12/0x20");
	assert_string_equal(p->title, "WARNING in lkdtm_WARNING");
	assert_false(p->corrupted);
	assert_int_equal(p->lineno, 3);
	assert_int_equal(p->first_lineno, 2);
	assert_int_equal(p->last_lineno, 27);
	assert_int_equal(p->report_lines, 26);
	assert_int_equal(p->end, CONSOLE_END_MARKER);
	assert_memory_equal(p->report, "------------[ cut here ]", 24);
	assert_non_null(strstr(p->report, "\n---[ end trace 0000000000000000 ]---\n"));
	assert_null(strstr(p->report, "after the report"));
	assert_null(strstr(p->report, "[   12."));	/* no timestamps */
	assert_int_equal(p->n_frames, ELEMENTSOF(frames));
	for (size_t i = 0; i < ELEMENTSOF(frames); i++)
		assert_string_equal(p->frames[i], frames[i]);
	assert_null(p->reason);
	assert_int_equal(r.n_problems, 1);
	strbuf_release(&r.log);
}

/* WARN(1, fmt): the message sits between "cut here" and the title. */
static void test_warn_message_in_block(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    1.000000] ------------[ cut here ]------------\n"
		"[    1.000001] list_add corruption. next->prev should be prev (ffffc900), but was 0.\n"
		"[    1.000002] second message line\n"
		"[    1.000003] WARNING: CPU: 0 PID: 1 at lib/list_debug.c:29 __list_add_valid_or_report+0x1/0x2\n"
		"[    1.000004] ---[ end trace 0000000000000000 ]---\n"
		"[    2.000000] ------------[ cut here ]------------\n"
		"[    2.000001] 1\n[    2.000002] 2\n[    2.000003] 3\n[    2.000004] 4\n"
		"[    2.000005] 5\n[    2.000006] 6\n[    2.000007] 7\n"
		"[    2.000008] 8\n"
		"[    2.000009] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n",
		NULL);
	const struct console_problem *p;

	assert_int_equal(console_n_problems(c), 2);
	p = console_problem(c, 0);
	assert_int_equal(p->kind, CONSOLE_LIST_CORRUPTION);
	assert_string_equal(p->title, "list_add corruption");
	assert_int_equal(p->first_lineno, 1);
	assert_int_equal(p->lineno, 4);
	assert_int_equal(p->last_lineno, 5);
	assert_string_equal(p->report,
			    "------------[ cut here ]------------\n"
			    "list_add corruption. next->prev should be prev (ffffc900), but was 0.\n"
			    "second message line\n"
			    "WARNING: CPU: 0 PID: 1 at lib/list_debug.c:29 __list_add_valid_or_report+0x1/0x2\n"
			    "---[ end trace 0000000000000000 ]---\n");
	/* too far from its cut here: the report starts at the title */
	p = console_problem(c, 1);
	assert_int_equal(p->first_lineno, 15);
	assert_int_equal(p->lineno, 15);
}

/* Rewrite timestamps, addresses, offsets, PIDs and CPUs of a log. */
static char *perturb(const char *in)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; in[i]; i++) {
		char ch = in[i];
		bool num = false;

		/* inside the leading [ ... ] timestamp */
		if ((i == 0 || in[i - 1] == '\n') && ch == '[') {
			const char *e = strchr(in + i, ']');

			if (!e)
				e = in + i + 1;
			strbuf_addch(&sb, '[');
			for (const char *q = in + i + 1; q < e; q++)
				strbuf_addch(&sb, *q >= '0' && *q < '9' ? *q + 1 : *q);
			i = (size_t)(e - in) - 1;
			continue;
		}
		/* hex after 0x, hex words, numbers after PID:/CPU:/CPU# */
		if (i >= 2 && (in[i - 1] == 'x' && in[i - 2] == '0'))
			num = true;
		if (i >= 5 && !strncmp(in + i - 5, "PID: ", 5))
			num = true;
		if (i >= 5 && !strncmp(in + i - 5, "CPU: ", 5))
			num = true;
		if (i >= 4 && !strncmp(in + i - 4, "CPU#", 4))
			num = true;
		if (i >= 4 && !strncmp(in + i - 4, ": ff", 4))
			num = true;	/* RSP: 0018:ffffc900... */
		if (num && ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
			while ((in[i] >= '0' && in[i] <= '9') ||
			       (in[i] >= 'a' && in[i] <= 'f')) {
				strbuf_addch(&sb, in[i] == '9'	 ? '1'
						  : in[i] == 'f' ? 'a'
						  : in[i] + 1);
				i++;
			}
			i--;
			continue;
		}
		strbuf_addch(&sb, ch);
	}
	return strbuf_detach(&sb, NULL);
}

static void test_signature_stable(void **state)
{
	_cleanup_free_ char *copy = perturb(warning_612);
	_cleanup_console_ struct console *a = parse(warning_612, NULL);
	_cleanup_console_ struct console *b = parse(copy, NULL);
	const struct console_problem *pa = only_problem(a);
	const struct console_problem *pb = only_problem(b);

	/* the copy really differs where it should */
	assert_string_not_equal(warning_612, copy);
	assert_null(strstr(copy, "[   12.030000]"));
	assert_null(strstr(copy, "PID: 64 "));
	assert_null(strstr(copy, "+0x12/0x20"));
	assert_string_not_equal(pa->header, pb->header);
	assert_string_equal(pa->title, pb->title);
	assert_string_equal(pa->signature, pb->signature);
	assert_true(pb->timestamp != pa->timestamp);
}

static void test_signature_differs(void **state)
{
	_cleanup_strbuf_ struct strbuf other = STRBUF_INIT;
	_cleanup_console_ struct console *a = parse(warning_612, NULL);
	_cleanup_console_ struct console *b = NULL;
	_cleanup_console_ struct console *d = NULL;
	const char *at = strstr(warning_612, "vfs_write");

	/* another function in the trace */
	strbuf_add(&other, warning_612, (size_t)(at - warning_612));
	strbuf_addstr(&other, "kernel_write");
	strbuf_addstr(&other, at + strlen("vfs_write"));
	b = parse(other.buf, NULL);
	assert_string_not_equal(only_problem(a)->signature,
				only_problem(b)->signature);
	/* the same trace under another kind */
	strbuf_reset(&other);
	at = strstr(warning_612, "WARNING: CPU");
	strbuf_add(&other, warning_612, (size_t)(at - warning_612));
	strbuf_addstr(&other, "kernel BUG at drivers/misc/lkdtm/bugs.c:300!");
	strbuf_addstr(&other, strchr(at, '\n'));
	d = parse(other.buf, NULL);
	assert_int_equal(only_problem(d)->kind, CONSOLE_BUG);
	assert_string_not_equal(only_problem(a)->signature,
				only_problem(d)->signature);
}

/* 6.12: BUG + "Oops: invalid opcode" is one problem; "Fatal exception"
 * panic after it is another; with a 6.1-style header as well. */
static void test_bug_oops_panic(void **state)
{
	static const char *const headers[] = {
		"Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI",
		"invalid opcode: 0000 [#1] PREEMPT SMP PTI",
	};

	for (size_t i = 0; i < ELEMENTSOF(headers); i++) {
		_cleanup_strbuf_ struct strbuf in = STRBUF_INIT;
		_cleanup_console_ struct console *c = NULL;
		const struct console_problem *p;

		strbuf_addf(&in,
			    "[    5.000000] ------------[ cut here ]------------\n"
			    "[    5.000001] kernel BUG at drivers/misc/lkdtm/bugs.c:87!\n"
			    "[    5.000002] %s\n"
			    "[    5.000003] CPU: 0 UID: 0 PID: 1 Comm: sh\n"
			    "[    5.000004] RIP: 0010:lkdtm_BUG+0x5/0x10\n"
			    "[    5.000005] Call Trace:\n"
			    "[    5.000006]  <TASK>\n"
			    "[    5.000007]  ? die+0x36/0x90\n"
			    "[    5.000008]  lkdtm_do_action+0x16/0x30\n"
			    "[    5.000009]  </TASK>\n"
			    "[    5.000010] Modules linked in:\n"
			    "[    5.000011] ---[ end trace 0000000000000000 ]---\n"
			    "[    5.000012] RIP: 0010:lkdtm_BUG+0x5/0x10\n"
			    "[    5.000013] Kernel panic - not syncing: Fatal exception\n"
			    "[    5.000014] Kernel Offset: disabled\n"
			    "[    5.000015] ---[ end Kernel panic - not syncing: Fatal exception ]---\n",
			    headers[i]);
		c = parse(in.buf, NULL);
		assert_int_equal(console_n_problems(c), 2);
		p = console_problem(c, 0);
		assert_int_equal(p->kind, CONSOLE_BUG);
		assert_string_equal(p->header, "kernel BUG at drivers/misc/lkdtm/bugs.c:87!");
		assert_int_equal(p->first_lineno, 1);
		assert_int_equal(p->last_lineno, 12);
		assert_int_equal(p->end, CONSOLE_END_MARKER);
		assert_int_equal(p->n_frames, 2);
		assert_string_equal(p->frames[0], "lkdtm_BUG");
		assert_string_equal(p->frames[1], "lkdtm_do_action");
		p = console_problem(c, 1);
		assert_int_equal(p->kind, CONSOLE_PANIC);
		assert_string_equal(p->reason, "Fatal exception");
		assert_int_equal(p->first_lineno, 14);
		assert_int_equal(p->last_lineno, 16);
		assert_int_equal(p->end, CONSOLE_END_MARKER);
		assert_int_equal(p->n_frames, 0);
	}
}

/* i386 (arch/x86/kernel/process_32.c, dumpstack_32.c): EIP without CS,
 * E*X registers, no <TASK> markers around the task stack. */
static void test_i386_report(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    3.000000] INFO: task init:48 blocked for more than 5 seconds.\n"
		"[    3.000001] task:init            state:D stack:0     pid:48\n"
		"[    3.000002] Call Trace:\n"
		"[    3.000003]  __schedule+0x1f4/0x5a0\n"
		"[    3.000004]  schedule+0x1d/0x80\n"
		"[    3.000005]  lkdtm_HUNG_TASK+0x14/0x20\n"
		"[    3.000006]  ? entry_SYSENTER_32+0x9f/0xf2\n"
		"[    3.000007]  do_SYSENTER_32+0x15/0x20\n"
		"[    3.000008] EIP: 0xb7f0c559\n"
		"[    3.000009] Code: 03 74 c0 01 10 05 03 74 b8 01 10 06 03 74 b4 01\n"
		"[    3.000010] EAX: ffffffda EBX: 00000001 ECX: 08b0a0f0 EDX: 00000009\n"
		"[    3.000011] ESI: 08b070f0 EDI: 00000009 EBP: bfa7ba88 ESP: bfa7ba58\n"
		"[    3.000012] DS: 007b ES: 007b FS: 0000 GS: 0033 SS: 007b EFLAGS: 00000246\n"
		"[    3.000013] random: crng init done\n"
		"[    4.000000] ------------[ cut here ]------------\n"
		"[    4.000001] WARNING: CPU: 0 PID: 47 at drivers/misc/lkdtm/bugs.c:112 lkdtm_WARNING+0x8/0x10\n"
		"[    4.000002] CPU: 0 UID: 0 PID: 47 Comm: init Not tainted 6.12.118 #1\n"
		"[    4.000003] EIP: lkdtm_WARNING+0x8/0x10\n"
		"[    4.000004] Code: 00 00 00 00\n"
		"[    4.000005] EAX: c1234567 EBX: 00000000 ECX: 00000000 EDX: 00000000\n"
		"[    4.000006] CR0: 80050033 CR2: 08080000 CR3: 01a2b000 CR4: 00000690\n"
		"[    4.000007] Call Trace:\n"
		"[    4.000008]  lkdtm_do_action+0x10/0x20\n"
		"[    4.000009]  direct_entry.cold+0x5/0x9\n"
		"[    4.000010] ---[ end trace 0000000000000000 ]---\n",
		NULL);
	const struct console_problem *p;

	assert_int_equal(console_n_problems(c), 2);
	p = console_problem(c, 0);
	assert_int_equal(p->kind, CONSOLE_HUNG_TASK);
	assert_int_equal(p->last_lineno, 13);
	assert_int_equal(p->end, CONSOLE_END_SHAPE);
	assert_int_equal(p->n_frames, 4);
	assert_string_equal(p->frames[3], "do_SYSENTER_32");
	p = console_problem(c, 1);
	assert_int_equal(p->kind, CONSOLE_WARNING);
	assert_int_equal(p->first_lineno, 15);
	assert_int_equal(p->end, CONSOLE_END_MARKER);
	assert_int_equal(p->n_frames, 3);
	assert_string_equal(p->frames[0], "lkdtm_WARNING");
	assert_string_equal(p->frames[2], "direct_entry");
}

/* User space output lands in the middle of a report (i386 golden logs). */
static void test_user_space_inside_report(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    2.059313] ------------[ cut here ]------------\n"
		"[    2.059566] WARNING: CPU: 0 PID: 47 at a.c:1 lkdtm_WARNING+0x8/0xb\n"
		"bootproof-init: still running after 5s\n"
		"bootproof-init: powering off\n"
		"[    2.060865] EIP: lkdtm_WARNING+0x8/0xb\n"
		"[    2.073464] Call Trace:\n"
		"[    2.073909]  direct_entry+0x94/0xb1\n"
		"[    2.085558] ---[ end trace 0000000000000000 ]---\n"
		"[    3.000000] INFO: task a:1 blocked for more than 5 seconds.\n"
		"[    3.000001] Call Trace:\n"
		"[    3.000002]  <TASK>\n"
		"[    3.000003]  schedule+0x1/0x2\n"
		"[    3.000004]  </TASK>\n"
		"user space after the report\n"
		"[    4.000000] a later kernel message\n",
		NULL);
	const struct console_problem *p;

	assert_int_equal(console_n_problems(c), 2);
	p = console_problem(c, 0);
	assert_int_equal(p->end, CONSOLE_END_MARKER);
	assert_int_equal(p->last_lineno, 8);
	assert_int_equal(p->report_lines, 6);
	assert_int_equal(p->report_lines_skipped, 2);
	assert_null(strstr(p->report, "bootproof-init"));
	assert_int_equal(p->n_frames, 2);
	p = console_problem(c, 1);
	assert_int_equal(p->end, CONSOLE_END_SHAPE);
	assert_int_equal(p->last_lineno, 13);
	assert_int_equal(p->report_lines_skipped, 0);
}

/* A second oops while the first is open, and an Oops without a BUG line. */
static void test_oops_nesting(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    1.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000\n"
		"[    1.000001] #PF: supervisor read access in kernel mode\n"
		"[    1.000002] PGD 0 P4D 0\n"
		"[    1.000003] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
		"[    1.000004] RIP: 0010:foo+0x1/0x2\n"
		"[    1.000005] Oops: Oops: 0000 [#2] PREEMPT SMP NOPTI\n"
		"[    1.000006] RIP: 0010:bar+0x1/0x2\n",
		NULL);
	const struct console_problem *p;

	assert_int_equal(console_n_problems(c), 2);
	p = console_problem(c, 0);
	assert_int_equal(p->kind, CONSOLE_BUG);
	assert_int_equal(p->report_lines, 5);
	assert_int_equal(p->end, CONSOLE_END_NEXT);
	p = console_problem(c, 1);
	assert_int_equal(p->kind, CONSOLE_OOPS);
	assert_string_equal(p->frames[0], "bar");
	assert_int_equal(p->end, CONSOLE_END_STREAM);
}

static void test_separator_reports(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    1.000000] ==================================================================\n"
		"[    1.000001] BUG: KFENCE: use-after-free read in lkdtm_READ_AFTER_FREE+0x1/0x2\n"
		"[    1.000002] \n"
		"[    1.000003] Use-after-free read at 0x00000000abcd (in kfence-#7):\n"
		"[    1.000004]  lkdtm_READ_AFTER_FREE+0x1/0x2\n"
		"[    1.000005]  lkdtm_do_action+0x1/0x2\n"
		"[    1.000006] \n"
		"[    1.000007] kfence-#7: 0x00000000abcd-0x00000000abce, size=1024\n"
		"[    1.000008] CPU: 0 UID: 0 PID: 1 Comm: sh\n"
		"[    1.000009] ==================================================================\n"
		"[    1.100000] ======================================================\n"
		"[    1.100001] WARNING: possible circular locking dependency detected\n"
		"[    1.100002] 6.12.0 #1 Not tainted\n"
		"[    1.100003] ------------------------------------------------------\n"
		"[    1.100004] stack backtrace:\n"
		"[    1.100005] Call Trace:\n"
		"[    1.100006]  <TASK>\n"
		"[    1.100007]  dump_stack_lvl+0x1/0x2\n"
		"[    1.100008]  lock_acquire+0x1/0x2\n"
		"[    1.100009]  </TASK>\n"
		"[    1.100010] after\n",
		NULL);
	const struct console_problem *p;

	assert_int_equal(console_n_problems(c), 2);
	p = console_problem(c, 0);
	assert_int_equal(p->kind, CONSOLE_KFENCE);
	assert_int_equal(p->first_lineno, 1);
	assert_int_equal(p->last_lineno, 10);
	assert_int_equal(p->end, CONSOLE_END_MARKER);
	assert_int_equal(p->n_frames, 2);	/* no "Call Trace:" line */
	assert_string_equal(p->frames[0], "lkdtm_READ_AFTER_FREE");
	assert_string_equal(p->frames[1], "lkdtm_do_action");
	p = console_problem(c, 1);
	assert_int_equal(p->kind, CONSOLE_LOCKDEP);
	assert_int_equal(p->first_lineno, 11);
	assert_int_equal(p->last_lineno, 20);
	assert_int_equal(p->end, CONSOLE_END_SHAPE);
	assert_int_equal(p->n_frames, 2);
}

/* Soft lockup: the detector's <IRQ> frames do not count. */
static void test_lockup_irq_frames(void **state)
{
	static const char lockup[] =
		"[   30.000000] watchdog: BUG: soft lockup - CPU#%d stuck for %ds! [sh:%d]\n"
		"[   30.000001] CPU: 0 UID: 0 PID: 70 Comm: sh\n"
		"[   30.000002] RIP: 0010:lkdtm_SOFTLOCKUP+0x10/0x20\n"
		"[   30.000003] Call Trace:\n"
		"[   30.000004]  <IRQ>\n"
		"[   30.000005]  %s+0x1/0x2\n"
		"[   30.000006]  __hrtimer_run_queues+0x1/0x2\n"
		"[   30.000007]  </IRQ>\n"
		"[   30.000008]  <TASK>\n"
		"[   30.000009]  asm_sysvec_apic_timer_interrupt+0x1a/0x20\n"
		"[   30.000010] RIP: 0010:lkdtm_SOFTLOCKUP+0x%x/0x20\n"
		"[   30.000011]  lkdtm_do_action+0x16/0x30\n"
		"[   30.000012]  </TASK>\n"
		"[   30.000013] bootproof-init: next\n";
	_cleanup_strbuf_ struct strbuf a = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf b = STRBUF_INIT;
	_cleanup_console_ struct console *ca = NULL;
	_cleanup_console_ struct console *cb = NULL;
	const struct console_problem *p;

	strbuf_addf(&a, lockup, 0, 22, 70, "watchdog_timer_fn", 0x10);
	strbuf_addf(&b, lockup, 1, 48, 71, "other_irq_fn", 0x12);
	ca = parse(a.buf, NULL);
	cb = parse(b.buf, NULL);
	p = only_problem(ca);
	assert_int_equal(p->kind, CONSOLE_SOFT_LOCKUP);
	assert_int_equal(p->end, CONSOLE_END_SHAPE);
	assert_int_equal(p->last_lineno, 13);
	assert_int_equal(p->n_frames, 4);
	assert_string_equal(p->frames[0], "lkdtm_SOFTLOCKUP");
	assert_string_equal(p->frames[1], "asm_sysvec_apic_timer_interrupt");
	assert_string_equal(p->frames[2], "lkdtm_SOFTLOCKUP");
	assert_string_equal(p->frames[3], "lkdtm_do_action");
	assert_string_equal(p->signature, only_problem(cb)->signature);
}

/* NMI backtraces of other CPUs belong to the report, not to its frames. */
static void test_first_trace_only(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    1.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
		"[    1.000001] rcu: \t1-...!: (1 GPs behind) idle=a/1/0x4000\n"
		"[    1.000002] Sending NMI from CPU 0 to CPUs 1:\n"
		"[    1.000003] NMI backtrace for cpu 1\n"
		"[    1.000004] RIP: 0010:spin+0x1/0x2\n"
		"[    1.000005] Call Trace:\n"
		"[    1.000006]  <TASK>\n"
		"[    1.000007]  caller+0x1/0x2\n"
		"[    1.000008]  </TASK>\n"
		"[    1.000009] NMI backtrace for cpu 0\n"
		"[    1.000010] RIP: 0010:other+0x1/0x2\n"
		"[    1.000011] Call Trace:\n"
		"[    1.000012]  <TASK>\n"
		"[    1.000013]  other_caller+0x1/0x2\n"
		"[    1.000014]  </TASK>\n"
		"[    1.000015] next message\n",
		NULL);
	const struct console_problem *p = only_problem(c);

	assert_int_equal(p->kind, CONSOLE_RCU_STALL);
	assert_int_equal(p->last_lineno, 15);
	assert_int_equal(p->end, CONSOLE_END_SHAPE);
	assert_int_equal(p->n_frames, 2);
	assert_string_equal(p->frames[0], "spin");
	assert_string_equal(p->frames[1], "caller");
}

static void test_block_ends_without_marker(void **state)
{
	_cleanup_console_ struct console *c = parse(
		/* a timestamped line after an untimestamped title */
		"Gave up waiting for root file system device.  Common problems:\n"
		" - Boot args (cat /proc/cmdline)\n"
		"[    1.500000] random: crng init done\n"
		/* a long silence (user space in between is skipped) */
		"[    2.000000] INFO: task sh:1 blocked for more than 10 seconds.\n"
		"[    2.000001]       Not tainted 6.12.0 #1\n"
		"user space text\n"
		"[    9.000000] random: crng init done\n"
		/* a firmware line (reboot) */
		"[   10.000000] UBSAN: shift-out-of-bounds in x.c:1:2\n"
		"SeaBIOS (version 1.16)\n",
		NULL);

	assert_int_equal(console_n_problems(c), 3);
	assert_int_equal(console_problem(c, 0)->kind, CONSOLE_NO_ROOT_FS);
	assert_int_equal(console_problem(c, 0)->end, CONSOLE_END_SHAPE);
	assert_int_equal(console_problem(c, 0)->last_lineno, 2);
	assert_int_equal(console_problem(c, 1)->end, CONSOLE_END_SHAPE);
	assert_int_equal(console_problem(c, 1)->last_lineno, 5);
	/* the user-space line came after its last line: not counted */
	assert_int_equal(console_problem(c, 1)->report_lines_skipped, 0);
	assert_int_equal(console_problem(c, 2)->end, CONSOLE_END_NEXT);
	assert_int_equal(console_problem(c, 2)->last_lineno, 8);
}

/* NEXT and STREAM mean interrupted; a finished report without end line
 * is SHAPE whatever closes it. */
static void test_end_kinds(void **state)
{
	_cleanup_console_ struct console *c = parse(
		"[    1.000000] INFO: task a:1 blocked for more than 5 seconds.\n"
		"[    1.000001] Call Trace:\n"
		"[    1.000002]  <TASK>\n"
		"[    1.000003]  schedule+0x1/0x2\n"
		"[    1.000004]  </TASK>\n"
		"[    1.000005] INFO: task a:1 blocked for more than 10 seconds.\n"
		"[    1.000006] Call Trace:\n"
		"[    1.000007]  <TASK>\n"
		"[    1.000008]  schedule+0x1/0x2\n"
		"[    1.000009] ------------[ cut here ]------------\n"
		"[    1.000010] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n"
		"[    1.000011] Call Trace:\n"
		"[    1.000012]  <TASK>\n"
		"[    1.000013]  f+0x1/0x2\n"
		"[    1.000014]  </TASK>\n"
		"[    1.000015] Kernel panic - not syncing: panic_on_warn set ...\n"
		"[    1.000016] Kernel Offset: disabled\n"
		"[    1.000017] ---[ end Kernel panic - not syncing: panic_on_warn set ... ]---\n"
		"[    1.000018] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:1]\n"
		"[    1.000019] Call Trace:\n"
		"[    1.000020]  <TASK>\n"
		"[    1.000021]  f+0x1/0x2\n"
		"[    1.000022]  </TASK>\n",
		NULL);
	static const enum console_end want[] = {
		CONSOLE_END_SHAPE,	/* trace complete, then the next one */
		CONSOLE_END_NEXT,	/* cut inside its trace */
		CONSOLE_END_NEXT,	/* no ---[ end trace: interrupted */
		CONSOLE_END_MARKER,
		CONSOLE_END_SHAPE,	/* complete when the stream ends */
	};

	assert_int_equal(console_n_problems(c), ELEMENTSOF(want));
	for (size_t i = 0; i < ELEMENTSOF(want); i++)
		if (console_problem(c, i)->end != want[i])
			fail_msg("problem %zu: end %s, want %s", i,
				 console_end_name(console_problem(c, i)->end),
				 console_end_name(want[i]));
}

static void test_panic_signature_reason(void **state)
{
	_cleanup_console_ struct console *a = parse(
		"[    1.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009\n",
		NULL);
	_cleanup_console_ struct console *b = parse(
		"[    2.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b\n",
		NULL);
	_cleanup_console_ struct console *d = parse(
		"[    1.0] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n",
		NULL);

	assert_string_equal(only_problem(a)->reason,
			    "Attempted to kill init! exitcode=0x00000009");
	assert_string_equal(only_problem(a)->signature,
			    only_problem(b)->signature);
	assert_string_not_equal(only_problem(a)->signature,
				only_problem(d)->signature);
}

/* ------------------------------------------------------------ bounds */

static void test_report_bounds(void **state)
{
	_cleanup_strbuf_ struct strbuf in = STRBUF_INIT;
	_cleanup_console_ struct console *c = NULL;
	const struct console_problem *p;
	size_t n = 3000;

	strbuf_addstr(&in, "[    1.000000] Kernel panic - not syncing: big\n"
			   "[    1.000000] Call Trace:\n");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&in, "[    1.000000]  func_%zu+0x1/0x2\n", i);
	strbuf_addstr(&in, "[    1.000000] ---[ end Kernel panic - not syncing: big ]---\n");
	c = parse(in.buf, NULL);
	p = only_problem(c);
	assert_int_equal(p->report_lines, n + 3);
	assert_int_equal(p->report_lines_dropped, n + 3 - CONSOLE_REPORT_MAX_LINES);
	assert_int_equal(p->end, CONSOLE_END_MARKER);	/* still seen */
	assert_int_equal(p->last_lineno, n + 3);
	assert_int_equal(p->n_frames, CONSOLE_MAX_FRAMES);
	assert_string_equal(p->frames[CONSOLE_MAX_FRAMES - 1], "func_15");

	/* bytes: few lines, but long ones */
	strbuf_reset(&in);
	strbuf_addstr(&in, "[    1.000000] Kernel panic - not syncing: wide\n");
	for (size_t i = 0; i < 10; i++) {
		strbuf_addstr(&in, "[    1.000000] ");
		for (size_t k = 0; k < CONSOLE_REPORT_MAX_BYTES / 4; k++)
			strbuf_addch(&in, 'w');
		strbuf_addch(&in, '\n');
	}
	console_free(c);
	c = parse(in.buf, NULL);
	p = only_problem(c);
	assert_int_equal(p->report_lines, 11);
	assert_true(p->report_len <= CONSOLE_REPORT_MAX_BYTES);
	assert_int_equal(p->report_lines_dropped, 11 - 4);
	assert_true(strlen(p->header) <= CONSOLE_TITLE_MAX);
	assert_true(strlen(p->title) <= CONSOLE_TITLE_MAX);
}

static void count_problem(const struct console_problem *p, void *ud)
{
	(*(size_t *)ud)++;
}

/* A guest that reports forever: kept problems and memory stay bounded. */
static void test_problem_cap(void **state)
{
	static const struct console_ops ops = { .on_problem = count_problem };
	size_t seen = 0, n = 1000;
	_cleanup_console_ struct console *c = console_new(&ops, &seen);
	struct console_stats st;

	for (size_t i = 0; i < n; i++)
		assert_int_equal(console_feed(c, warning_612,
					      sizeof(warning_612) - 1), 0);
	assert_int_equal(console_finish(c), 0);
	assert_int_equal(seen, n);
	assert_int_equal(console_n_problems(c), CONSOLE_MAX_PROBLEMS);
	assert_null(console_problem(c, CONSOLE_MAX_PROBLEMS));
	console_get_stats(c, &st);
	assert_int_equal(st.problems, n);
	assert_int_equal(st.problems_dropped, n - CONSOLE_MAX_PROBLEMS);
	assert_string_equal(console_problem(c, 0)->signature,
			    console_problem(c, CONSOLE_MAX_PROBLEMS - 1)->signature);
}

/* A title line that never ends, and an open report fed garbage forever. */
static void test_endless_report(void **state)
{
	_cleanup_console_ struct console *c = console_new(NULL, NULL);
	_cleanup_free_ char *chunk = malloc(4096);
	struct console_stats st;

	memset(chunk, 'y', 4096);
	assert_int_equal(console_feed(c, "Kernel panic - not syncing: ", 28), 0);
	for (int i = 0; i < 64; i++)	/* 256 KiB on one line */
		assert_int_equal(console_feed(c, chunk, 4096), 0);
	assert_int_equal(console_feed(c, "\n", 1), 0);
	for (int i = 0; i < 20000; i++) {
		assert_int_equal(console_feed(c, " frame+0x1/0x2\n", 15), 0);
	}
	assert_true(console_in_report(c));
	assert_int_equal(console_finish(c), 0);
	assert_false(console_in_report(c));
	console_get_stats(c, &st);
	assert_int_equal(st.lines_truncated, 1);
	assert_int_equal(console_problem(c, 0)->report_lines, 20001);
	assert_true(console_problem(c, 0)->report_len <= CONSOLE_REPORT_MAX_BYTES);
	assert_true(strlen(console_problem(c, 0)->header) <= CONSOLE_TITLE_MAX);
	assert_true(strlen(console_problem(c, 0)->title) <= CONSOLE_TITLE_MAX);
	assert_true(strlen(console_problem(c, 0)->reason) <= CONSOLE_TITLE_MAX);
	assert_int_equal(console_problem(c, 0)->end, CONSOLE_END_STREAM);
}

/* ------------------------------------------------------------ chunking */

static void check_chunking(const char *name, const char *data, size_t n)
{
	_cleanup_strbuf_ struct strbuf whole = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf bytes = STRBUF_INIT;

	run(data, n, WHOLE, 0, &whole);
	run(data, n, BYTES, 0, &bytes);
	if (strcmp(whole.buf, bytes.buf))
		fail_msg("%s: byte-by-byte feeding differs", name);
	for (uint32_t seed = 1; seed <= 3; seed++) {
		_cleanup_strbuf_ struct strbuf rnd = STRBUF_INIT;

		run(data, n, RANDOM, seed * 2654435761u, &rnd);
		if (strcmp(whole.buf, rnd.buf))
			fail_msg("%s: random chunks (seed %u) differ", name,
				 seed);
	}
}

static void test_chunking_synthetic(void **state)
{
	static const char noisy[] =
		"\x1b" "c\x1b[?7l\x1b[2JSeaBIOS (version 1.16)\r\n"
		"Booting from ROM..\x1b" "c\x1b[?7l\x1b[2J"
		"[    0.000000] Linux version 6.12.0 (a) #1\r\n"
		"\x1b]0;t\x07\xc3\xa9\xff\0\r\r\n"
		"Begin: x ... [   19.126825] WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\r\n"
		"[   19.126826] Call Trace:\r\n"
		"[   19.126827]  <TASK>\r\n"
		"[   19.126828]  f+0x1/0x2\r\n"
		"[   19.126829]  </TASK>\r\n"
		"[   19.126830] ---[ end trace 0000000000000000 ]---\r\n"
		"[   20.000000] reboot: Power down\r\n"
		"partial";

	check_chunking("noisy", noisy, sizeof(noisy) - 1);
	check_chunking("warning", warning_612, sizeof(warning_612) - 1);
}

/* ------------------------------------------------------------ golden */

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of files in dir ending in suffix (sorted), suffix removed. */
static size_t list_names(const char *dir, const char *suffix, char ***ret)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;

	if (!d) {
		*ret = NULL;
		return 0;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !has_suffix(de->d_name, suffix))
			continue;
		v = realloc(v, (n + 1) * sizeof(*v));
		assert_non_null(v);
		v[n++] = strndup(de->d_name,
				 strlen(de->d_name) - strlen(suffix));
	}
	qsort(v, n, sizeof(*v), cmp_names);
	*ret = v;
	return n;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void read_log(const char *name, struct strbuf *sb)
{
	_cleanup_free_ char *path = NULL;

	assert_true(asprintf(&path, "%s/%s.log", CONSOLE_DIR, name) > 0);
	if (strbuf_read_file(sb, path, 16 << 20) < 0)
		fail_msg("cannot read %s", path);
}

static void dump_log(const char *name, const char *data, size_t n,
		     struct strbuf *out)
{
	_cleanup_console_ struct console *c = console_new(NULL, NULL);

	assert_int_equal(console_feed(c, data, n), 0);
	assert_int_equal(console_finish(c), 0);
	strbuf_addf(out, "# console expectations for %s.log (see README.md)\n",
		    name);
	dump_console(out, c);
}

/* Every log has an expectation, and every expectation holds. */
static void test_golden_expectations(void **state)
{
	char **logs, **exps;
	size_t n_logs = list_names(CONSOLE_DIR, ".log", &logs);
	size_t n_exps = list_names(EXPECT_DIR, ".expect", &exps);
	size_t failures = 0;

	assert_true(n_logs > 0);
	for (size_t i = 0; i < n_logs; i++) {
		_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf got = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf want = STRBUF_INIT;
		_cleanup_free_ char *path = NULL;

		read_log(logs[i], &data);
		dump_log(logs[i], data.buf, data.len, &got);
		assert_true(asprintf(&path, "%s/%s.expect", EXPECT_DIR,
				     logs[i]) > 0);
		if (strbuf_read_file(&want, path, 0) < 0) {
			print_error("%s: missing (regenerate with --dump, "
				    "then check it by hand)\n", path);
			failures++;
			continue;
		}
		if (strcmp(got.buf, want.buf)) {
			print_error("%s: differs; the parser says:\n%s\n",
				    path, got.buf);
			failures++;
		}
	}
	for (size_t i = 0; i < n_exps; i++) {
		bool found = false;

		for (size_t k = 0; k < n_logs; k++)
			found |= !strcmp(exps[i], logs[k]);
		if (!found) {
			print_error("expect/%s.expect: no such log\n", exps[i]);
			failures++;
		}
	}
	free_names(logs, n_logs);
	free_names(exps, n_exps);
	assert_int_equal(failures, 0);
}

/* On every log: any chunking gives the same events. */
static void test_golden_chunking(void **state)
{
	char **logs;
	size_t n_logs = list_names(CONSOLE_DIR, ".log", &logs);

	for (size_t i = 0; i < n_logs; i++) {
		_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;

		read_log(logs[i], &data);
		check_chunking(logs[i], data.buf, data.len);
	}
	free_names(logs, n_logs);
}

/* The lines of a log as delivered (a split line gives two pieces). */
struct pieces {
	struct piece {
		unsigned long lineno;
		bool ts;
		char *text;
	} *v;
	size_t n;
};

static void pieces_line(const struct console_line *l, void *ud)
{
	struct pieces *ps = ud;

	ps->v = realloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	assert_non_null(ps->v);
	ps->v[ps->n].lineno = l->lineno;
	ps->v[ps->n].ts = l->timestamp >= 0;
	ps->v[ps->n].text = strdup(l->text);
	ps->n++;
}

/*
 * Does a run of pieces from line first to line last make up report?  In a
 * report with timestamps, pieces without are not part of it.
 */
static bool report_is_run(const struct pieces *ps,
			  const struct console_problem *p)
{
	bool ts = p->timestamp >= 0;

	for (size_t i = 0; i < ps->n; i++) {
		_cleanup_strbuf_ struct strbuf run = STRBUF_INIT;
		size_t skipped = 0;

		if (ps->v[i].lineno != p->first_lineno)
			continue;
		for (size_t k = i; k < ps->n && ps->v[k].lineno <= p->last_lineno;
		     k++) {
			if (ts && !ps->v[k].ts) {
				skipped++;
				continue;
			}
			strbuf_addstr(&run, ps->v[k].text);
			strbuf_addch(&run, '\n');
			if (ps->v[k].lineno == p->last_lineno &&
			    !strcmp(run.buf, p->report) &&
			    skipped == p->report_lines_skipped)
				return true;
		}
	}
	return false;
}

/*
 * On every log: a report is exactly the lines first_lineno..last_lineno,
 * blocks do not overlap, and the title is one of them.
 */
static void test_golden_block_invariants(void **state)
{
	static const struct console_ops ops = { .on_line = pieces_line };
	char **logs;
	size_t n_logs = list_names(CONSOLE_DIR, ".log", &logs);

	for (size_t i = 0; i < n_logs; i++) {
		_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;
		struct pieces ps = { 0 };
		_cleanup_console_ struct console *c = console_new(&ops, &ps);
		unsigned long prev_last = 0;

		read_log(logs[i], &data);
		assert_int_equal(console_feed(c, data.buf, data.len), 0);
		assert_int_equal(console_finish(c), 0);
		for (size_t k = 0; k < console_n_problems(c); k++) {
			const struct console_problem *p = console_problem(c, k);

			assert_true(p->first_lineno >= prev_last);
			assert_true(p->first_lineno <= p->lineno);
			assert_true(p->lineno <= p->last_lineno);
			if (!p->report_lines_dropped && !report_is_run(&ps, p))
				fail_msg("%s: problem %zu (line %lu): report is not lines %lu-%lu",
					 logs[i], k, p->lineno,
					 p->first_lineno, p->last_lineno);
			assert_non_null(strstr(p->report, p->header));
			prev_last = p->last_lineno;
		}
		for (size_t k = 0; k < ps.n; k++)
			free(ps.v[k].text);
		free(ps.v);
	}
	free_names(logs, n_logs);
}

/* Two recordings of the same LKDTM crash (NAME-1.log, NAME-2.log) give
 * the same problem kinds and signatures. */
static void test_golden_signature_pairs(void **state)
{
	char **logs;
	size_t n_logs = list_names(CONSOLE_DIR, ".log", &logs), pairs = 0;

	for (size_t i = 0; i < n_logs; i++) {
		_cleanup_strbuf_ struct strbuf a = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf b = STRBUF_INIT;
		_cleanup_free_ char *other = NULL;
		_cleanup_console_ struct console *ca = console_new(NULL, NULL);
		_cleanup_console_ struct console *cb = console_new(NULL, NULL);

		if (!has_suffix(logs[i], "-1"))
			continue;
		other = strdup(logs[i]);
		other[strlen(other) - 1] = '2';
		read_log(logs[i], &a);
		read_log(other, &b);
		console_feed(ca, a.buf, a.len);
		console_finish(ca);
		console_feed(cb, b.buf, b.len);
		console_finish(cb);
		assert_true(console_n_problems(ca) > 0);
		assert_int_equal(console_n_problems(ca),
				 console_n_problems(cb));
		for (size_t k = 0; k < console_n_problems(ca); k++) {
			const struct console_problem *pa = console_problem(ca, k);
			const struct console_problem *pb = console_problem(cb, k);

			assert_int_equal(pa->kind, pb->kind);
			if (strcmp(pa->signature, pb->signature))
				fail_msg("%s vs %s: problem %zu (%s) signatures %s != %s",
					 logs[i], other, k,
					 console_problem_kind_name(pa->kind),
					 pa->signature, pb->signature);
		}
		pairs++;
	}
	free_names(logs, n_logs);
	if (!pairs)
		skip();
}

/* The same recorded crash with other addresses and timestamps. */
static void test_golden_signature_perturbed(void **state)
{
	char **logs;
	size_t n_logs = list_names(CONSOLE_DIR, ".log", &logs), checked = 0;

	for (size_t i = 0; i < n_logs; i++) {
		_cleanup_strbuf_ struct strbuf a = STRBUF_INIT;
		_cleanup_free_ char *copy = NULL;
		_cleanup_console_ struct console *ca = NULL;
		_cleanup_console_ struct console *cb = NULL;

		read_log(logs[i], &a);
		if (strlen(a.buf) != a.len)
			continue;	/* NUL bytes: perturb() is for text */
		copy = perturb(a.buf);
		assert_string_not_equal(copy, a.buf);
		ca = parse(a.buf, NULL);
		cb = parse(copy, NULL);
		assert_int_equal(console_n_problems(ca),
				 console_n_problems(cb));
		for (size_t k = 0; k < console_n_problems(ca); k++) {
			const struct console_problem *pa = console_problem(ca, k);
			const struct console_problem *pb = console_problem(cb, k);

			if (pa->n_frames && strcmp(pa->signature, pb->signature))
				fail_msg("%s: problem %zu (%s) signature changed with addresses",
					 logs[i], k, pa->title);
			checked += pa->n_frames > 0;
		}
	}
	free_names(logs, n_logs);
	assert_true(checked > 0);
}

/* ------------------------------------------------------------ main */

static int dump_files(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
		_cleanup_free_ char *name = NULL;
		const char *base = strrchr(argv[i], '/');

		if (strbuf_read_file(&data, argv[i], 16 << 20) < 0) {
			fprintf(stderr, "test-console: cannot read %s\n",
				argv[i]);
			return 1;
		}
		name = strdup(base ? base + 1 : argv[i]);
		if (has_suffix(name, ".log"))
			name[strlen(name) - 4] = '\0';
		dump_log(name, data.buf, data.len, &out);
		fputs(out.buf, stdout);
	}
	return 0;
}

/* ------------------------------------------------------------ excerpts */

#define EXCERPT_DIR CONSOLE_DIR "/excerpts"

static void read_excerpt(const char *file, struct strbuf *sb)
{
	_cleanup_free_ char *path = NULL;

	assert_true(asprintf(&path, "%s/%s", EXCERPT_DIR, file) > 0);
	if (strbuf_read_file(sb, path, 1 << 20) < 0)
		fail_msg("cannot read %s", path);
}

/* Each excerpt of tests/data/console/excerpts/ (see its README): its first
 * problem's kind, title, block, corrupted flag, and how many problems. */
static void test_excerpts(void **state)
{
	static const struct {
		const char *file;
		enum console_problem_kind kind;
		const char *title;
		unsigned long first, last;
		bool corrupted;
		size_t n;
	} cases[] = {
		{ "lockdep-circular.log", CONSOLE_LOCKDEP, "possible deadlock in demo_take_b", 3, 62, false, 1 },
		{ "lockdep-circular-4.9.log", CONSOLE_LOCKDEP, "possible deadlock in demo_take_b", 3, 28, false, 1 },
		{ "lockdep-recursive.log", CONSOLE_LOCKDEP, "possible recursive locking in foo_reset", 3, 47, false, 1 },
		{ "lockdep-inconsistent.log", CONSOLE_LOCKDEP, "inconsistent lock state in bar_timer_fn", 3, 45, false, 1 },
		{ "lockdep-bad-unlock.log", CONSOLE_LOCKDEP, "bad unlock balance in demo_release", 3, 28, false, 1 },
		{ "lockdep-held-lock-freed.log", CONSOLE_LOCKDEP, "held lock freed in obj_destroy", 3, 25, false, 1 },
		{ "lockdep-exit-locks-held.log", CONSOLE_LOCKDEP, "still has locks held in demo_thread", 3, 21, false, 1 },
		{ "lockdep-return-to-user.log", CONSOLE_LOCKDEP, "lock held when returning to user space in demo_write", 3, 9, false, 1 },
		{ "lockdep-suspicious-rcu.log", CONSOLE_LOCKDEP, "suspicious RCU usage in dev_get_by_foo", 3, 28, false, 1 },
		{ "lockdep-suspicious-rcu-4.9.log", CONSOLE_LOCKDEP, "suspicious RCU usage in dev_get_by_foo", 3, 21, false, 1 },
		{ "lockdep-non-static-key.log", CONSOLE_LOCKDEP, "trying to register non-static key in baz_notify", 2, 20, false, 1 },
		{ "lockdep-max-keys.log", CONSOLE_LOCKDEP, "BUG: MAX_LOCKDEP_KEYS too low", 2, 15, false, 1 },
		{ "kmemleak.log", CONSOLE_KMEMLEAK, "memory leak in leaky_init", 2, 15, false, 2 },
		{ "kmemleak-debugfs-4.9.log", CONSOLE_KMEMLEAK, "memory leak in leaky_probe", 2, 11, false, 1 },
		{ "kcsan.log", CONSOLE_KCSAN, "KCSAN: data-race in test_kernel_read / test_kernel_write", 2, 22, false, 1 },
		{ "kmsan-uninit.log", CONSOLE_KMSAN, "KMSAN: uninit-value in test_uninit_kmalloc", 2, 15, false, 1 },
		{ "kmsan-infoleak.log", CONSOLE_KMSAN, "KMSAN: kernel-infoleak in foo_ioctl", 2, 18, false, 1 },
		{ "kasan.log", CONSOLE_KASAN, "KASAN: slab-use-after-free Read in foo_ioctl", 2, 31, false, 1 },
		{ "odebug.log", CONSOLE_ODEBUG, "ODEBUG: free active timer_list in demo_exit", 2, 28, false, 1 },
		{ "odebug-4.9.log", CONSOLE_ODEBUG, "ODEBUG: free active timer_list in demo_exit", 2, 17, false, 1 },
		{ "refcount-underflow.log", CONSOLE_REFCOUNT, "refcount bug in obj_put", 2, 27, false, 1 },
		{ "refcount-4.14.log", CONSOLE_REFCOUNT, "refcount bug in obj_put", 2, 16, false, 1 },
		{ "list-del.log", CONSOLE_LIST_CORRUPTION, "list_del corruption in item_remove", 2, 27, false, 1 },
		{ "list-add-bug.log", CONSOLE_LIST_CORRUPTION, "list_add corruption in item_add", 3, 28, false, 1 },
		{ "bad-page-state.log", CONSOLE_BAD_PAGE, "BUG: Bad page state in demo_release_pages", 2, 23, false, 1 },
		{ "bad-page-map.log", CONSOLE_BAD_PAGE, "BUG: Bad page map in zap_pte_range", 2, 17, false, 1 },
		{ "sleeping-in-atomic.log", CONSOLE_ATOMIC, "BUG: sleeping function called from invalid context in demo_ioctl", 2, 21, false, 1 },
		{ "scheduling-while-atomic.log", CONSOLE_ATOMIC, "BUG: scheduling while atomic in demo_ioctl", 2, 22, false, 1 },
		{ "smp-processor-id.log", CONSOLE_ATOMIC, "BUG: using smp_processor_id() in preemptible code in demo_stat", 2, 15, false, 1 },
		{ "stack-guard-page.log", CONSOLE_STACK, "BUG: TASK stack guard page was hit in recurse_deep", 2, 28, false, 2 },
		{ "stack-overflow-4.14.log", CONSOLE_STACK, "BUG: stack guard page was hit in recurse_deep", 2, 18, false, 1 },
		{ "double-fault.log", CONSOLE_STACK, "PANIC: double fault in bad_switch", 2, 25, false, 2 },
		{ "double-fault-i386-4.9.log", CONSOLE_STACK, "PANIC: double fault", 2, 6, true, 1 },
		{ "stack-end-corrupted.log", CONSOLE_PANIC, "kernel panic: corrupted stack end detected inside scheduler", 2, 17, false, 1 },
		{ "stack-protector-4.9.log", CONSOLE_PANIC, "kernel panic: stack-protector: Kernel stack is corrupted in: N", 2, 11, false, 1 },
		{ "task-cant-die.log", CONSOLE_HUNG_TASK, "INFO: task can't die in demo_spin", 2, 13, false, 1 },
		{ "netdev-leak.log", CONSOLE_NETDEV_LEAK, "unregister_netdevice: waiting for DEV to become free", 2, 6, false, 1 },
		{ "busy-inodes.log", CONSOLE_BUSY_INODES, "VFS: Busy inodes after unmount of ext4", 2, 27, false, 1 },
		{ "busy-inodes-old.log", CONSOLE_BUSY_INODES, "VFS: Busy inodes after unmount", 2, 2, false, 1 },
		{ "arm64-paging-request.log", CONSOLE_BUG, "BUG: unable to handle kernel paging request in demo_read", 2, 33, false, 1 },
		{ "arm64-null-deref.log", CONSOLE_BUG, "BUG: unable to handle kernel NULL pointer dereference in demo_read", 2, 33, false, 1 },
		{ "arm64-kernel-bug.log", CONSOLE_BUG, "kernel BUG in lkdtm_BUG", 2, 24, false, 1 },
		{ "arm64-undefined.log", CONSOLE_OOPS, "Oops in demo_exec", 2, 21, false, 1 },
		{ "arm64-unhandled-fault-4.14.log", CONSOLE_OOPS, "Unhandled fault in demo_mmio_read", 2, 17, false, 1 },
		{ "x86-page-fault.log", CONSOLE_BUG, "BUG: unable to handle kernel paging request in demo_write", 2, 28, false, 1 },
		{ "x86-paging-request-4.14.log", CONSOLE_BUG, "BUG: unable to handle kernel paging request in demo_write", 2, 19, false, 1 },
		{ "x86-null-deref-4.9.log", CONSOLE_BUG, "BUG: unable to handle kernel NULL pointer dereference in demo_write", 2, 22, false, 1 },
		{ "slub-double-free-5.10.log", CONSOLE_BUG, "SLUB: Object already free in demo_release", 2, 34, false, 1 },
		{ "truncated.log", CONSOLE_WARNING, "WARNING in demo_check", 2, 16, true, 1 },
		{ "cut-by-reboot.log", CONSOLE_WARNING, "WARNING in demo_check", 2, 14, true, 1 },
		{ "interleaved.log", CONSOLE_WARNING, "WARNING in demo_check", 2, 24, true, 1 },
		{ "interleaved-title.log", CONSOLE_WARNING, "WARNING in demo_check", 2, 15, true, 2 },
	};

	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;
		_cleanup_console_ struct console *c = NULL;
		const struct console_problem *p;

		read_excerpt(cases[i].file, &data);
		c = parse(data.buf, NULL);
		if (console_n_problems(c) != cases[i].n)
			fail_msg("%s: %zu problems", cases[i].file,
				 console_n_problems(c));
		p = console_problem(c, 0);
		if (p->kind != cases[i].kind || strcmp(p->title, cases[i].title) ||
		    p->first_lineno != cases[i].first ||
		    p->last_lineno != cases[i].last ||
		    p->corrupted != cases[i].corrupted)
			fail_msg("%s: %s \"%s\" %lu-%lu%s", cases[i].file,
				 console_problem_kind_name(p->kind), p->title,
				 p->first_lineno, p->last_lineno,
				 p->corrupted ? " corrupted" : "");
		/* the title names a function the machinery is not */
		assert_null(strstr(p->title, "dump_stack"));
		assert_null(strstr(p->title, "__warn"));
	}
}

/* What only looks like a report is none; lockdep off is recorded. */
static void test_excerpt_false_alarms(void **state)
{
	_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;
	_cleanup_console_ struct console *c = NULL;
	unsigned long line = 0;
	struct console_stats st;

	read_excerpt("false-alarms.log", &data);
	c = parse(data.buf, NULL);
	assert_int_equal(console_n_problems(c), 0);
	assert_true(console_lockdep_off(c, &line));
	assert_int_equal(line, 11);
	console_get_stats(c, &st);
	assert_int_equal(st.kmemleak, 0);
}

static void test_lockdep_off(void **state)
{
	_cleanup_strbuf_ struct strbuf data = STRBUF_INIT;
	_cleanup_console_ struct console *c = NULL;
	unsigned long line = 0;
	struct console_stats st;

	read_excerpt("lockdep-non-static-key.log", &data);
	c = parse(data.buf, NULL);
	assert_true(console_lockdep_off(c, &line));
	assert_int_equal(line, 5);
	strbuf_reset(&data);
	console_free(c);
	read_excerpt("kmemleak.log", &data);
	c = parse(data.buf, NULL);
	assert_false(console_lockdep_off(c, NULL));
	console_get_stats(c, &st);
	assert_int_equal(st.kmemleak, 2);
	assert_string_equal(console_problem(c, 1)->title,
			    "memory leak in leaky_name");
	console_free(c);
	c = parse("[    1.000000] Disabling lock debugging due to kernel taint\n",
		  NULL);
	assert_true(console_lockdep_off(c, &line));
	assert_int_equal(line, 1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_feed_errors),
		cmocka_unit_test(test_lines_and_cr),
		cmocka_unit_test(test_no_partial_line_without_bytes),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_midline_kernel_message),
		cmocka_unit_test(test_kdb_prompt),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_controls_and_utf8),
		cmocka_unit_test(test_binary_garbage),
		cmocka_unit_test(test_long_line_truncated),
		cmocka_unit_test(test_long_invalid_line_capped),
		cmocka_unit_test(test_milestones),
		cmocka_unit_test(test_root_after_initramfs),
		cmocka_unit_test(test_reboot_cycles),
		cmocka_unit_test(test_problem_kinds),
		cmocka_unit_test(test_not_problems),
		cmocka_unit_test(test_warning_block),
		cmocka_unit_test(test_warn_message_in_block),
		cmocka_unit_test(test_signature_stable),
		cmocka_unit_test(test_signature_differs),
		cmocka_unit_test(test_bug_oops_panic),
		cmocka_unit_test(test_i386_report),
		cmocka_unit_test(test_user_space_inside_report),
		cmocka_unit_test(test_oops_nesting),
		cmocka_unit_test(test_separator_reports),
		cmocka_unit_test(test_lockup_irq_frames),
		cmocka_unit_test(test_first_trace_only),
		cmocka_unit_test(test_block_ends_without_marker),
		cmocka_unit_test(test_end_kinds),
		cmocka_unit_test(test_panic_signature_reason),
		cmocka_unit_test(test_report_bounds),
		cmocka_unit_test(test_problem_cap),
		cmocka_unit_test(test_endless_report),
		cmocka_unit_test(test_chunking_synthetic),
		cmocka_unit_test(test_excerpts),
		cmocka_unit_test(test_excerpt_false_alarms),
		cmocka_unit_test(test_lockdep_off),
		cmocka_unit_test(test_golden_expectations),
		cmocka_unit_test(test_golden_chunking),
		cmocka_unit_test(test_golden_block_invariants),
		cmocka_unit_test(test_golden_signature_pairs),
		cmocka_unit_test(test_golden_signature_perturbed),
	};

	if (argc > 1 && !strcmp(argv[1], "--dump"))
		return dump_files(argc - 2, argv + 2);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
