// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A guest that lies or floods (docs/reliability.md).
 *
 * First the console and KTAP parsers, chained as the boot engine and
 * triage chain them, on hostile streams: megabyte lines, binary garbage,
 * NUL bytes, invalid UTF-8, escape sequences that never end.  Every line
 * they deliver must be clean, what follows the garbage must still be
 * understood, and the heap must stay under the bound docs/reliability.md
 * states, however much is fed.
 *
 * Then the boot engine (harness/engine/boot.c) with the fake domain
 * (tests/unit/support/fake_domain.c) printing what a broken or lying guest
 * prints: an endless flood is HUNG at the timeout, never BOOTED; KTAP that
 * the kernel printed (a printk line) never passes a scenario the agent did
 * not run; a plan that never completes or announces 4 billion tests fails
 * without eating memory; a flood of KTAP results does not stall the
 * engine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adapters/proc.h"
#include <libxml/parser.h>

#include "core/console.h"
#include "core/junit.h"
#include "core/ktap.h"
#include "engine/boot.h"
#include "boot_fixture.h"
#include "fake_domain.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

/* ------------------------------------------------------------ heap */

/*
 * Bytes of heap in use: ASan's own count when sanitized (freed blocks in
 * its quarantine are not counted), else glibc's.
 */
#if defined(__SANITIZE_ADDRESS__)
#define HEAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_ASAN 1
#endif
#endif
#ifdef HEAP_ASAN
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_in_use(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
static size_t heap_in_use(void)
{
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
}
#endif

/*
 * The bounds docs/reliability.md states.  Console parser: two line
 * buffers of CONSOLE_LINE_MAX, the open report block and the kept
 * problems (CONSOLE_MAX_PROBLEMS blocks of CONSOLE_REPORT_MAX_BYTES):
 * under 8 MiB.  KTAP parser with its default limits: under 64 MiB.
 */
#define CONSOLE_HEAP_BOUND (8u << 20)
#define KTAP_HEAP_BOUND (64u << 20)
/* The boot engine: both parsers and the run record, whose KTAP tree can
 * hold max_tests tests (a plan of 4 billion makes 65536 placeholders). */
#define ENGINE_HEAP_BOUND (160u << 20)

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Valid UTF-8, no C0 control but '\t', no DEL, no C1 (U+0080..U+009F),
 * no U+FFFE/U+FFFF (XML cannot carry them). */
static bool clean_text(const char *s, size_t n)
{
	const unsigned char *b = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		unsigned c = b[i], need;
		uint32_t cp, min;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t') || c == 0x7f)
				return false;
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			need = 1, cp = c & 0x1f, min = 0x80;
		else if ((c & 0xf0) == 0xe0)
			need = 2, cp = c & 0x0f, min = 0x800;
		else if ((c & 0xf8) == 0xf0)
			need = 3, cp = c & 0x07, min = 0x10000;
		else
			return false;
		if (n - i <= need)
			return false;
		for (unsigned k = 1; k <= need; k++) {
			if ((b[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (b[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
		    (cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe || cp == 0xffff)
			return false;
		i += need + 1;
	}
	return true;
}

/* ------------------------------------------------------------ parsers */

/* console → KTAP, as boot.c and triage chain them. */
struct chain {
	struct console *c;
	struct ktap *k;
	size_t base, peak;
	unsigned long lines, dirty;
	/* the last few lines delivered, for assertions */
	struct strbuf last[4];
	size_t n_last;
	unsigned long last_lineno;
	bool last_truncated;
};

static void chain_line(const struct console_line *l, void *ud)
{
	struct chain *ch = ud;

	ch->lines++;
	if (!clean_text(l->text, l->len) || strlen(l->text) != l->len ||
	    l->len > CONSOLE_LINE_MAX)
		ch->dirty++;
	ktap_feed_line(ch->k, l->text, l->len);
	if (ch->n_last == ELEMENTSOF(ch->last)) {
		struct strbuf t = ch->last[0];

		memmove(&ch->last[0], &ch->last[1],
			sizeof(ch->last[0]) * (ELEMENTSOF(ch->last) - 1));
		ch->last[ELEMENTSOF(ch->last) - 1] = t;
		ch->n_last--;
	}
	strbuf_reset(&ch->last[ch->n_last]);
	strbuf_add(&ch->last[ch->n_last], l->text, l->len);
	ch->n_last++;
	ch->last_lineno = l->lineno;
	ch->last_truncated = l->truncated;
}

static void chain_init(struct chain *ch)
{
	const struct console_ops ops = { .on_line = chain_line };

	memset(ch, 0, sizeof(*ch));
	for (size_t i = 0; i < ELEMENTSOF(ch->last); i++)
		strbuf_init(&ch->last[i], 0);
	ch->base = heap_in_use();
	ch->k = ktap_new(NULL, NULL, NULL);
	ch->c = console_new(&ops, ch);
	assert_non_null(ch->k);
	assert_non_null(ch->c);
}

static void chain_feed(struct chain *ch, const void *buf, size_t n)
{
	size_t h;

	assert_int_equal(console_feed(ch->c, buf, n), 0);
	h = heap_in_use();
	if (h > ch->peak)
		ch->peak = h;
}

static void chain_feed_str(struct chain *ch, const char *s)
{
	chain_feed(ch, s, strlen(s));
}

static void chain_finish(struct chain *ch)
{
	assert_int_equal(console_finish(ch->c), 0);
	assert_int_equal(ktap_finish(ch->k), 0);
}

static size_t chain_growth(const struct chain *ch)
{
	return ch->peak > ch->base ? ch->peak - ch->base : 0;
}

static void chain_free(struct chain *ch)
{
	console_free(ch->c);
	ktap_free(ch->k);
	for (size_t i = 0; i < ELEMENTSOF(ch->last); i++)
		strbuf_release(&ch->last[i]);
}

/* The i-th last line delivered (0: the last one). */
static const char *last_line(const struct chain *ch, size_t i)
{
	assert_true(i < ch->n_last);
	return ch->last[ch->n_last - 1 - i].buf;
}

/* A line of 8 MiB: kept up to CONSOLE_LINE_MAX, the rest counted; the
 * lines after it are read as usual, with the right numbers. */
static void test_megabyte_line(void **state)
{
	struct chain ch;
	struct console_stats st;
	char buf[65536];
	const struct console_problem *p;

	chain_init(&ch);
	chain_feed_str(&ch, "[    0.000000] Linux version 6.12.118 (x) #1\r\n");
	memset(buf, 'A', sizeof(buf));
	for (int i = 0; i < 128; i++)
		chain_feed(&ch, buf, sizeof(buf));
	chain_feed_str(&ch, "\r\n");
	assert_int_equal(ch.last_lineno, 2);
	assert_true(ch.last_truncated);
	assert_int_equal(strlen(last_line(&ch, 0)), CONSOLE_LINE_MAX);
	chain_feed_str(&ch, "[    1.000000] Kernel panic - not syncing: after "
			    "the flood\r\n");
	chain_finish(&ch);
	console_get_stats(ch.c, &st);
	assert_int_equal(st.lines_truncated, 1);
	assert_int_equal(st.bytes_truncated, (128u << 16) - CONSOLE_LINE_MAX);
	assert_int_equal(console_n_problems(ch.c), 1);
	p = console_problem(ch.c, 0);
	assert_int_equal(p->kind, CONSOLE_PANIC);
	assert_int_equal(p->lineno, 3);
	assert_string_equal(p->reason, "after the flood");
	assert_non_null(console_banner(ch.c));
	assert_int_equal(ch.dirty, 0);
	assert_true(chain_growth(&ch) < CONSOLE_HEAP_BOUND);
	chain_free(&ch);
}

/* 64 MiB of random bytes: every line delivered is clean text, the heap
 * does not grow with the input, and a boot after the garbage is read. */
static void test_binary_garbage(void **state)
{
	struct chain ch;
	struct console_stats st;
	uint32_t seed = 0x2545f491;
	static uint32_t buf[16384];
	static const char after[] =
		"\n[    0.000000] Linux version 6.12.118 (x) #1\r\n"
		"[    1.000000] Run /sbin/init as init process\r\n"
		"[    9.000000] reboot: Power down\r\n";

	chain_init(&ch);
	for (int i = 0; i < 1024; i++) {
		for (size_t j = 0; j < ELEMENTSOF(buf); j++)
			buf[j] = xorshift(&seed);
		chain_feed(&ch, buf, sizeof(buf));
	}
	chain_feed_str(&ch, after);
	chain_finish(&ch);
	console_get_stats(ch.c, &st);
	assert_int_equal(st.bytes, (64u << 20) + strlen(after));
	assert_true(st.lines > 200000);
	assert_int_equal(ch.dirty, 0);
	assert_true(st.invalid_utf8 > 0 && st.controls > 0);
	assert_non_null(console_banner(ch.c));
	assert_int_equal(console_milestones(ch.c) &
				 ((1u << CONSOLE_MS_INIT_STARTED) |
				  (1u << CONSOLE_MS_POWER_OFF)),
			 (1u << CONSOLE_MS_INIT_STARTED) |
				 (1u << CONSOLE_MS_POWER_OFF));
	assert_true(chain_growth(&ch) < CONSOLE_HEAP_BOUND);
	chain_free(&ch);
}

/* NUL bytes and control characters are dropped, invalid UTF-8 becomes
 * U+FFFD byte by byte (U+FFFE and U+FFFF, which XML cannot carry, one
 * U+FFFD each), escape sequences go: what is left is read. */
static void test_nul_utf8_escapes(void **state)
{
	struct chain ch;
	const struct console_problem *p;
	const struct ktap_test *t;

	chain_init(&ch);
	static const char nul[] = "KTAP version 1\r\n1..1\r\nok 1 bo\0ot\r\n";

	chain_feed(&ch, nul, sizeof(nul) - 1);
	assert_string_equal(last_line(&ch, 0), "ok 1 boot");
	chain_feed_str(&ch, "bad \xff \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 "
			    "\xe2\x82 \xef\xbf\xbe\xef\xbf\xbf ok \xc3\xa9\r\n");
	assert_string_equal(last_line(&ch, 0),
			    "bad \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
			    "\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
			    "ok \xc3\xa9");
	chain_feed_str(&ch, "\x1b[1;31m[    2.000000] \x1b[0mKernel panic - "
			    "not syncing: \x1b]0;title\x07red\x1b[0m\x01\x7f"
			    "\xc2\x85\r\n");
	chain_finish(&ch);
	assert_int_equal(ch.dirty, 0);
	assert_int_equal(console_n_problems(ch.c), 1);
	p = console_problem(ch.c, 0);
	assert_int_equal(p->kind, CONSOLE_PANIC);
	assert_string_equal(p->header, "Kernel panic - not syncing: red");
	assert_string_equal(p->title, "kernel panic: red");
	t = ktap_test_find(ktap_root(ch.k), "boot");
	assert_non_null(t);
	assert_int_equal(t->status, KTAP_PASS);
	chain_free(&ch);
}

/* An escape sequence that never ends swallows its line, not the rest
 * of the log, and is not kept in memory. */
static void test_unterminated_escapes(void **state)
{
	struct chain ch;
	char buf[65536];

	chain_init(&ch);
	chain_feed_str(&ch, "\x1b]0;");
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 64; i++)
		chain_feed(&ch, buf, sizeof(buf));
	chain_feed_str(&ch, "\n[    0.000000] Linux version 6.12.118 (x) #1\r\n"
			    "\x1b[");
	memset(buf, ';', sizeof(buf));
	for (int i = 0; i < 64; i++)
		chain_feed(&ch, buf, sizeof(buf));
	chain_feed_str(&ch, "\n\x1bP");
	for (int i = 0; i < 64; i++)
		chain_feed(&ch, buf, sizeof(buf));
	chain_feed_str(&ch, "\n[    1.000000] Run /init as init process\r\n");
	chain_finish(&ch);
	assert_string_equal(last_line(&ch, 0), "Run /init as init process");
	assert_int_equal(ch.last_lineno, 5);
	assert_string_equal(console_banner(ch.c),
			    "Linux version 6.12.118 (x) #1");
	assert_int_equal(ch.dirty, 0);
	assert_true(chain_growth(&ch) < CONSOLE_HEAP_BOUND);
	chain_free(&ch);
}

/* The KTAP parser's own bound: the largest tree the defaults allow (every
 * name and reason at its limit, diagnostics up to their total) stays
 * under KTAP_HEAP_BOUND, and a plan of 4 billion tests that never
 * completes makes no more than max_tests placeholders. */
static void test_ktap_bounds(void **state)
{
	struct chain ch;
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT;
	char name[KTAP_DEFAULT_MAX_NAME + 40];
	const struct ktap_stats *st;
	const struct ktap_test *root;

	chain_init(&ch);
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	chain_feed_str(&ch, "KTAP version 1\n1..4294967295\n");
	for (unsigned i = 1; i <= KTAP_DEFAULT_MAX_TESTS + 100; i++) {
		strbuf_reset(&line);
		strbuf_addf(&line, "# %s %s %s\nnot ok %u %s # SKIP %s\n", name,
			    name, name, i, name, name);
		chain_feed(&ch, line.buf, line.len);
	}
	chain_finish(&ch);
	st = ktap_get_stats(ch.k);
	root = ktap_root(ch.k);
	assert_true(st->dropped_tests >= 100);
	assert_int_equal(root->n_children, KTAP_DEFAULT_MAX_TESTS);
	assert_false(st->complete);
	assert_int_equal(root->status, KTAP_ERROR);
	assert_true(chain_growth(&ch) < KTAP_HEAP_BOUND);
	chain_free(&ch);

	/* Never completes: placeholders up to max_tests, no more. */
	chain_init(&ch);
	chain_feed_str(&ch, "KTAP version 1\n1..4294967295\nok 1 boot\n");
	chain_finish(&ch);
	st = ktap_get_stats(ch.k);
	assert_int_equal(ktap_root(ch.k)->n_children, KTAP_DEFAULT_MAX_TESTS);
	assert_int_equal(st->missing, 4294967294ul);
	assert_true(chain_growth(&ch) < KTAP_HEAP_BOUND);
	chain_free(&ch);
}

/* ------------------------------------------------------------ engine */

static struct boot_fixture fx;

static int setup(void **state)
{
	return boot_fixture_setup(&fx, "hostile");
}

static int teardown(void **state)
{
	boot_fixture_teardown(&fx);
	return 0;
}

/* qemu-img is not run: the overlay for an image is faked. */
static int fake_qemu_img(const struct proc_cmd *cmd, struct proc_result *r,
			 void *opaque)
{
	r->exited = true;
	r->exit_status = 0;
	return 0;
}

static struct boot_request base_req(bool agent)
{
	struct boot_request r = boot_fixture_req(&fx, "bootproof-hostile");

	if (agent) {
		r.image = "/images/root.img";
		r.scenarios = "boot,bpf";
		proc_set_dry_run(fake_qemu_img, NULL);
	}
	return r;
}

static json_object *scenario(json_object *rec, const char *name)
{
	json_object *sc = json_object_object_get(rec, "scenarios");

	for (size_t i = 0; i < json_object_array_length(sc); i++)
		if (!strcmp(jsonx_text(json_object_array_get_idx(sc, i), "name"), name))
			return json_object_array_get_idx(sc, i);
	return NULL;
}

static char *write_log(const char *name, const char *text)
{
	char *p = path_join(fx.dir, name);

	assert_int_equal(write_file_atomic(p, text, strlen(text), 0644), 0);
	return p;
}

/* run.json must hold whatever the guest printed as valid JSON. */
static void assert_record_reads_back(json_object *rec)
{
	const char *s = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN);
	json_object *back = json_tokener_parse(s);

	assert_non_null(back);
	json_object_put(back);
}

static void done(struct boot_outcome *o, struct fake_domain *f)
{
	assert_record_reads_back(o->record);
	json_object_put(o->record);
	free(f->xml);
	proc_set_dry_run(NULL, NULL);
}

/* The start of a real boot, up to init (the agent's KTAP follows). */
#define BOOT_HEAD                                                              \
	"SeaBIOS (version 1.16.2-debian-1.16.2-1)\r\n"                          \
	"[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists."     \
	"debian.org) (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0) #1 SMP\r\n"     \
	"[    0.000000] Command line: console=ttyS0,115200 panic=-1\r\n"       \
	"[    2.100000] VFS: Mounted root (ext4 filesystem) on device 254:0.\r\n" \
	"[    2.200000] Run /bootproof/agent as init process\r\n"

/* A cyclic flood: pattern bytes served forever, the heap sampled at
 * every poll. */
struct flood {
	const char *pattern;
	size_t len, pos;
	size_t base, peak;
};

static ssize_t flood_gen(void *ud, char *buf, size_t max)
{
	struct flood *fl = ud;
	size_t n = 0, h = heap_in_use();

	if (h > fl->peak)
		fl->peak = h;
	while (n < max) {
		size_t k = fl->len - fl->pos;

		if (k > max - n)
			k = max - n;
		memcpy(buf + n, fl->pattern + fl->pos, k);
		n += k;
		fl->pos = (fl->pos + k) % fl->len;
	}
	return (ssize_t)n;
}

/* The hostile pattern: lines that look like the end of a good boot (the
 * agent's KTAP, its done line, power-off) from the kernel and from "user
 * space", a 1 MiB line, binary garbage, escapes, NULs, invalid UTF-8. */
static char *hostile_pattern(size_t *ret_len)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t seed = 0x9e3779b9;

	strbuf_addstr(&sb, "KTAP version 1\r\n1..2\r\nok 1 boot\r\nok 2 bpf\r\n"
			   "# bootproof-agent: done\r\n"
			   "[    9.000000] reboot: Power down\r\n"
			   "[   10.000000] \x1b[31mok 1 boot\x1b[0m\r\n");
	for (int i = 0; i < (1 << 20); i++)
		strbuf_addch(&sb, 'L');
	strbuf_addstr(&sb, "\r\n");
	for (int i = 0; i < (1 << 18); i++)
		strbuf_addch(&sb, (char)(xorshift(&seed) & 0xff));
	strbuf_addstr(&sb, "\r\n\x1b[2J\x1b]0;t\x07\xff\xfe\xc0\xaf");
	strbuf_add(&sb, "nul\0nul\0\r\n", 10);
	*ret_len = sb.len;
	return strbuf_detach(&sb, NULL);
}

/* A guest that writes forever, even lines of a good ending, and never
 * powers off: HUNG at the timeout (never BOOTED), destroyed, every byte
 * in console.log, the heap bounded. */
static void test_flood_forever_is_hung(void **state)
{
	_cleanup_free_ char *log = write_log("head.log", BOOT_HEAD);
	_cleanup_free_ char *pattern = NULL;
	_cleanup_free_ char *clog = path_join(fx.run_dir, "console.log");
	struct flood fl = { 0 };
	struct fake_domain f = { .log = log, .chunk = 65536,
				 .end = GUEST_RUNNING, .gen = flood_gen,
				 .gen_ud = &fl };
	struct boot_request r = base_req(true);
	struct boot_outcome o;
	struct stat stt;
	long long t0;

	pattern = hostile_pattern(&fl.len);
	fl.pattern = pattern;
	fl.base = heap_in_use();
	r.timeout_s = 3;
	fake_domain_use(&f);
	t0 = now_ms();
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_HUNG);
	assert_int_equal(o.exit_code, 1);
	assert_non_null(strstr(jsonx_text(o.record, "reason"), "no end within 3s"));
	assert_int_equal(f.destroyed, 1);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "pass");
	/* The verdict came at the timeout, not later. */
	assert_true(now_ms() - t0 < 3000 + 3000);
	assert_true(f.bytes > 4 * fl.len);
	/* console.log keeps everything up to its cap (64 MiB, engine/boot.c),
	 * then says where it was cut. */
	assert_int_equal(stat(clog, &stt), 0);
	if (f.bytes <= (64u << 20))
		assert_int_equal((unsigned long long)stt.st_size, f.bytes);
	else
		assert_true(stt.st_size > (64 << 20) &&
			    stt.st_size < (64 << 20) + 200);
	assert_true(fl.peak - fl.base < CONSOLE_HEAP_BOUND + KTAP_HEAP_BOUND);
	done(&o, &f);
}

/* The kernel prints a whole agent run (printk lines): KTAP, the done
 * line, then powers off.  The agent never ran: no scenario passes, and
 * the boot is not BOOTED. */
static void test_fake_ktap_from_kernel(void **state)
{
	_cleanup_free_ char *log = write_log(
		"fake.log",
		BOOT_HEAD "[    2.300000] KTAP version 1\r\n"
			  "[    2.300001] 1..2\r\n"
			  "[    2.300002] ok 1 boot\r\n"
			  "[    2.300003] ok 2 bpf\r\n"
			  "[    2.300004] # bootproof-agent: done\r\n"
			  "[    2.400000] reboot: Power down\r\n");
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF };
	struct boot_request r = base_req(true);
	struct boot_outcome o;

	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_not_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 1);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "error");
	assert_string_equal(jsonx_text(scenario(o.record, "bpf"), "result"), "error");
	done(&o, &f);
}

/* The agent runs boot, then dies; a kernel message says "ok 2 bpf"; the
 * agent's done line comes anyway.  bpf did not pass. */
static void test_fake_result_midrun(void **state)
{
	_cleanup_free_ char *log = write_log(
		"mid.log",
		BOOT_HEAD "KTAP version 1\r\n1..2\r\n"
			  "# bootproof-agent: version 1\r\n"
			  "    KTAP version 1\r\n    # Subtest: boot\r\n"
			  "    1..1\r\n    ok 1 kernel\r\nok 1 boot\r\n"
			  "[    3.000000] ok 2 bpf\r\n"
			  "# bootproof-agent: done\r\n"
			  "[    3.100000] reboot: Power down\r\n");
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF };
	struct boot_request r = base_req(true);
	struct boot_outcome o;

	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "pass");
	assert_string_equal(jsonx_text(scenario(o.record, "bpf"), "result"), "error");
	assert_int_not_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 1);
	done(&o, &f);
}

/* A plan that never completes while the kernel keeps talking: HUNG at
 * the timeout, the scenarios never reported are errors. */
static void test_plan_never_completes(void **state)
{
	_cleanup_free_ char *log = write_log(
		"plan.log", BOOT_HEAD "KTAP version 1\r\n1..2\r\nok 1 boot\r\n");
	static const char noise[] =
		"[   30.000000] random: crng reseeded on system resumption\r\n";
	struct flood fl = { .pattern = noise, .len = sizeof(noise) - 1 };
	struct fake_domain f = { .log = log, .end = GUEST_RUNNING,
				 .gen = flood_gen, .gen_ud = &fl };
	struct boot_request r = base_req(true);
	struct boot_outcome o;

	fake_domain_use(&f);
	r.timeout_s = 2;
	fl.base = heap_in_use();
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_HUNG);
	assert_int_equal(o.exit_code, 1);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "pass");
	assert_string_equal(jsonx_text(scenario(o.record, "bpf"), "result"), "error");
	assert_true(fl.peak - fl.base < CONSOLE_HEAP_BOUND + KTAP_HEAP_BOUND);
	done(&o, &f);
}

/* A plan of 4 billion tests, one result, done line, power-off: not
 * BOOTED, and the engine finishes at once with bounded memory. */
static void test_huge_plan(void **state)
{
	_cleanup_free_ char *log = write_log(
		"huge.log", BOOT_HEAD "KTAP version 1\r\n1..4294967295\r\n"
				      "ok 1 boot\r\nok 2 bpf\r\n"
				      "# bootproof-agent: done\r\n"
				      "[    3.100000] reboot: Power down\r\n");
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF };
	struct boot_request r = base_req(true);
	struct boot_outcome o;
	size_t base = heap_in_use();
	long long t0 = now_ms();

	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_not_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 1);
	assert_true(now_ms() - t0 < 20000);
	/* What stays is the record (65536 placeholders in its ktap tree). */
	assert_true(heap_in_use() - base < ENGINE_HEAP_BOUND);
	done(&o, &f);
}

/* Top-level KTAP results without end: the engine stays on time (HUNG at
 * the timeout) and does not rewrite the record for every poll. */
static void test_ktap_result_flood(void **state)
{
	static char pattern[1 << 16];
	struct flood fl = { .pattern = pattern };
	struct fake_domain f = { .end = GUEST_RUNNING, .chunk = 4096,
				 .gen = flood_gen, .gen_ud = &fl };
	struct boot_request r = base_req(true);
	struct boot_outcome o;
	struct strbuf sb = STRBUF_INIT;
	long long t0;

	strbuf_addstr(&sb, BOOT_HEAD "KTAP version 1\r\n");
	for (unsigned i = 1; sb.len < sizeof(pattern) - 64; i++)
		strbuf_addf(&sb, "ok %u t%u\r\n", i, i);
	memcpy(pattern, sb.buf, sb.len);
	fl.len = sb.len;
	strbuf_release(&sb);
	fake_domain_use(&f);
	r.timeout_s = 3;
	t0 = now_ms();
	assert_int_equal(boot_run(&r, &o), 0);
	t0 = now_ms() - t0;
	assert_int_equal(o.verdict, VERDICT_HUNG);
	assert_true(t0 < 3000 + 5000);
	/* At most a record a second, not one per poll. */
	assert_true(fx.updates >= 1 && fx.updates <= t0 / 1000 + 1);
	done(&o, &f);
}

/* What a guest prints ends up in junit.xml, which CI systems parse: markup
 * is escaped, and characters XML cannot carry (U+FFFE, U+FFFF, controls)
 * never get there, so the file stays well-formed. */
static void test_junit_well_formed(void **state)
{
	_cleanup_free_ char *log = write_log(
		"junit.log",
		BOOT_HEAD "[    2.250000] WARNING: CPU: 0 PID: 1 at x.c:1 "
			  "f\xef\xbf\xbf</failure><x>\x01\r\n"
			  "[    2.250001] Call Trace:\r\n"
			  "[    2.250002]  f+0x1/0x2\r\n"
			  "[    2.250003] ---[ end trace 0000000000000000 ]---\r\n"
			  "KTAP version 1\r\n1..2\r\n"
			  "    KTAP version 1\r\n    # Subtest: boot\r\n"
			  "    1..1\r\n    # k\xef\xbf\xbe: ]]> <script>\x1b[31m\r\n"
			  "    not ok 1 k\xef\xbf\xbe<![CDATA[\r\n"
			  "not ok 1 boot\r\n"
			  "ok 2 bpf # SKIP \xef\xbf\xbf&amp;\x7f\r\n"
			  "# bootproof-agent: done\r\n"
			  "[    3.100000] reboot: Power down\r\n");
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF };
	struct boot_request r = base_req(true);
	struct boot_outcome o;
	json_object *arr = json_object_new_array();
	char *xml = NULL;
	xmlDocPtr doc;

	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_PROBLEMS);
	json_object_array_add(arr, json_object_get(o.record));
	assert_int_equal(junit_from_records(arr, &xml), 0);
	doc = xmlReadMemory(xml, (int)strlen(xml), "junit.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
				    XML_PARSE_NOWARNING);
	assert_non_null(doc);
	assert_null(strstr(xml, "<script>"));
	assert_null(strstr(xml, "<x>"));
	xmlFreeDoc(doc);
	free(xml);
	json_object_put(arr);
	done(&o, &f);
}

/* Output that comes after a pause: silent until at, then text once. */
struct later {
	const char *text;
	long long at;
	bool sent;
};

static ssize_t later_gen(void *ud, char *buf, size_t max)
{
	struct later *l = ud;
	size_t n = strlen(l->text);

	if (l->sent)
		return -1;
	if (now_ms() < l->at)
		return 0;
	assert_true(n <= max);
	memcpy(buf, l->text, n);
	l->sent = true;
	return (ssize_t)n;
}

/* The agent (user space) quotes the words of a panic in a diagnostic and
 * goes on for longer than the engine's grace after a panic: the engine
 * must not take the guest for panicked and cut it off. */
static void test_panic_words_from_user_space(void **state)
{
	_cleanup_free_ char *log = write_log(
		"words.log",
		BOOT_HEAD "KTAP version 1\r\n1..1\r\n"
			  "# boot: dmesg has no \"Kernel panic - not syncing\"\r\n");
	struct later l = { .text = "ok 1 boot\r\n# bootproof-agent: done\r\n"
				   "[   20.000000] reboot: Power down\r\n" };
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF,
				 .gen = later_gen, .gen_ud = &l };
	struct boot_request r = base_req(true);
	struct boot_outcome o;

	r.scenarios = "boot";
	/* Later than the engine's 10 s panic grace. */
	l.at = now_ms() + 11000;
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "pass");
	assert_int_equal(o.exit_code, 0);
	done(&o, &f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_megabyte_line),
		cmocka_unit_test(test_binary_garbage),
		cmocka_unit_test(test_nul_utf8_escapes),
		cmocka_unit_test(test_unterminated_escapes),
		cmocka_unit_test(test_ktap_bounds),
		cmocka_unit_test(test_flood_forever_is_hung),
		cmocka_unit_test(test_fake_ktap_from_kernel),
		cmocka_unit_test(test_fake_result_midrun),
		cmocka_unit_test(test_plan_never_completes),
		cmocka_unit_test(test_huge_plan),
		cmocka_unit_test(test_ktap_result_flood),
		cmocka_unit_test(test_junit_well_formed),
		cmocka_unit_test(test_panic_words_from_user_space),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
