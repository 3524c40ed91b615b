// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console parser on any byte stream, fed in fuzzer-chosen chunks
 * through the chain boot and triage use (core/bootlog: console, the
 * agent's lines to KTAP, the verdict input), with the run.json pieces
 * (recjson) made from what it found.
 *
 * Input: byte 0 chooses the chunking (0: one chunk; else chunk sizes from
 * a generator seeded by it, up to 4, 64, 4096 or 65536 bytes), the rest is
 * the stream.
 *
 * Checks (console.h): every delivered line is valid UTF-8 without control
 * characters other than '\t' and without U+FFFE/U+FFFF, NUL-terminated at
 * len, at most CONSOLE_LINE_MAX bytes; line numbers never go back; titles, frames,
 * signatures and report blocks keep their bounds; the stats agree with the
 * callbacks; and the events are exactly the same as when the stream
 * arrives in one chunk.
 */
#include "fuzz.h"

#include <json-c/json.h>

#include "core/bootlog.h"
#include "core/recjson.h"

struct run {
	uint64_t hash;
	unsigned long lines, problems, milestones, last_lineno;
};

static void check_clean(const char *t, size_t len)
{
	FUZZ_CHECK(t[len] == '\0');
	FUZZ_CHECK(strlen(t) == len);
	FUZZ_CHECK(fuzz_utf8_valid(t, len));
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)t[i];

		FUZZ_CHECK(ch >= 0x20 || ch == '\t');
		FUZZ_CHECK(ch != 0x7f);
		/* C1 controls U+0080..U+009F are C2 80..C2 9F */
		if (ch == 0xc2 && i + 1 < len)
			FUZZ_CHECK((unsigned char)t[i + 1] >= 0xa0);
		/* U+FFFE, U+FFFF (EF BF BE/BF): not XML characters */
		if (ch == 0xef && i + 2 < len && (unsigned char)t[i + 1] == 0xbf)
			FUZZ_CHECK((unsigned char)t[i + 2] < 0xbe);
	}
}

static void on_line(const struct console_line *l, bool agent, void *ud)
{
	struct run *r = ud;

	check_clean(l->text, l->len);
	FUZZ_CHECK(l->len <= CONSOLE_LINE_MAX);
	FUZZ_CHECK(l->lineno >= 1 && l->lineno >= r->last_lineno);
	FUZZ_CHECK(l->timestamp == -1 || l->timestamp >= 0);
	/* bootlog.h: the agent's lines are exactly those without one. */
	FUZZ_CHECK(agent == (l->timestamp < 0));
	r->last_lineno = l->lineno;
	r->lines++;
	fuzz_hash(&r->hash, "L", 1);
	fuzz_hash(&r->hash, &l->lineno, sizeof(l->lineno));
	fuzz_hash(&r->hash, &l->timestamp, sizeof(l->timestamp));
	fuzz_hash(&r->hash, &l->truncated, sizeof(l->truncated));
	fuzz_hash(&r->hash, l->text, l->len);
}

static void on_milestone(const struct console_milestone_event *ev, void *ud)
{
	struct run *r = ud;

	FUZZ_CHECK((unsigned)ev->milestone < _CONSOLE_MS_MAX);
	FUZZ_CHECK(ev->text);
	FUZZ_CHECK(strlen(ev->text) <= CONSOLE_MILESTONE_TEXT_MAX);
	r->milestones++;
	fuzz_hash(&r->hash, "M", 1);
	fuzz_hash(&r->hash, &ev->milestone, sizeof(ev->milestone));
	fuzz_hash(&r->hash, &ev->lineno, sizeof(ev->lineno));
	fuzz_hash_str(&r->hash, ev->text);
}

static void check_problem(const struct console_problem *p)
{
	FUZZ_CHECK((unsigned)p->kind < _CONSOLE_PROBLEM_MAX);
	FUZZ_CHECK((unsigned)p->end < _CONSOLE_END_MAX);
	FUZZ_CHECK(p->header && strlen(p->header) <= CONSOLE_TITLE_MAX);
	FUZZ_CHECK(fuzz_utf8_valid(p->header, strlen(p->header)));
	FUZZ_CHECK(p->title && *p->title &&
		   strlen(p->title) <= CONSOLE_TITLE_MAX);
	FUZZ_CHECK(fuzz_utf8_valid(p->title, strlen(p->title)));
	FUZZ_CHECK(!strchr(p->title, '\n'));
	FUZZ_CHECK((p->kind == CONSOLE_PANIC) == (p->reason != NULL));
	if (p->reason)
		FUZZ_CHECK(strlen(p->reason) <= CONSOLE_TITLE_MAX);
	FUZZ_CHECK(p->first_lineno <= p->lineno);
	FUZZ_CHECK(p->lineno <= p->last_lineno);
	FUZZ_CHECK(p->report_len <= CONSOLE_REPORT_MAX_BYTES);
	FUZZ_CHECK(p->report_lines_dropped <= p->report_lines);
	FUZZ_CHECK(p->report_lines - p->report_lines_dropped <=
		   CONSOLE_REPORT_MAX_LINES);
	FUZZ_CHECK(p->report && p->report[p->report_len] == '\0');
	FUZZ_CHECK(p->report_len == 0 || p->report[p->report_len - 1] == '\n');
	FUZZ_CHECK(p->n_frames <= CONSOLE_MAX_FRAMES);
	for (size_t i = 0; i < p->n_frames; i++)
		FUZZ_CHECK(p->frames[i] && *p->frames[i] &&
			   strlen(p->frames[i]) <= CONSOLE_FRAME_MAX);
	FUZZ_CHECK(strlen(p->signature) == 16);
	for (size_t i = 0; i < 16; i++)
		FUZZ_CHECK((p->signature[i] >= '0' && p->signature[i] <= '9') ||
			   (p->signature[i] >= 'a' && p->signature[i] <= 'f'));
}

static void on_problem(const struct console_problem *p, void *ud)
{
	struct run *r = ud;

	check_problem(p);
	r->problems++;
	fuzz_hash(&r->hash, "P", 1);
	fuzz_hash(&r->hash, &p->kind, sizeof(p->kind));
	fuzz_hash(&r->hash, &p->end, sizeof(p->end));
	fuzz_hash(&r->hash, &p->lineno, sizeof(p->lineno));
	fuzz_hash(&r->hash, &p->first_lineno, sizeof(p->first_lineno));
	fuzz_hash(&r->hash, &p->last_lineno, sizeof(p->last_lineno));
	fuzz_hash_str(&r->hash, p->header);
	fuzz_hash_str(&r->hash, p->title);
	fuzz_hash(&r->hash, &p->corrupted, sizeof(p->corrupted));
	fuzz_hash_str(&r->hash, p->reason);
	fuzz_hash(&r->hash, p->report, p->report_len);
	fuzz_hash_str(&r->hash, p->signature);
}

/* The verdict input agrees with the console's queries. */
static void check_verdict_input(const struct bootlog *b)
{
	const struct console *c = bootlog_console(b);
	const struct bootlog_context ctx = { .end = bootlog_recorded_end(b) };
	struct verdict_problem vp[CONSOLE_MAX_PROBLEMS];
	struct verdict_input in;
	struct verdict v;

	bootlog_verdict_input(b, &ctx, vp, &in);
	FUZZ_CHECK(in.n_problems == console_n_problems(c));
	for (size_t i = 0; i < in.n_problems; i++)
		FUZZ_CHECK(in.problems[i].kind &&
			   in.problems[i].title == console_problem(c, i)->title &&
			   in.problems[i].header ==
				   console_problem(c, i)->header);
	FUZZ_CHECK(in.banner == !!console_banner(c));
	FUZZ_CHECK(!in.last_milestone == !console_last_milestone(c));
	FUZZ_CHECK((ctx.end == BOOT_END_STOPPED) ==
		   (in.powered_off || in.rebooted));
	verdict_decide(&in, &v);
	FUZZ_CHECK(v.verdict != VERDICT_INFRA &&
		   v.verdict != VERDICT_INCOMPLETE);
}

static void serialize(json_object *o)
{
	const char *s;
	json_object *back;

	FUZZ_CHECK(o);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	FUZZ_CHECK(s);
	/* What run.json holds must read back. */
	back = json_tokener_parse(s);
	FUZZ_CHECK(back);
	json_object_put(back);
	json_object_put(o);
}

static uint32_t next(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static uint64_t run(const uint8_t *data, size_t size, uint8_t mode,
		    bool inspect)
{
	static const size_t max_chunk[] = { 4, 64, 4096, 65536 };
	const struct bootlog_ops ops = {
		.on_line = on_line,
		.on_milestone = on_milestone,
		.on_problem = on_problem,
	};
	struct run r = { .hash = 0xcbf29ce484222325ull };
	struct bootlog *b = bootlog_new(&ops, &r);
	const struct console *c;
	struct console_stats st;
	uint32_t seed = mode | (uint32_t)mode << 8 | 0x10000u;
	size_t pos = 0;

	FUZZ_CHECK(b);
	c = bootlog_console(b);
	while (pos < size) {
		size_t n = size - pos;

		if (mode) {
			size_t m = 1 + next(&seed) % max_chunk[mode & 3];
			if (n > m)
				n = m;
		}
		FUZZ_CHECK(bootlog_feed(b, data + pos, n) == 0);
		pos += n;
		if (inspect)
			(void)console_in_report(c);
	}
	FUZZ_CHECK(bootlog_finish(b) == 0);
	FUZZ_CHECK(bootlog_finish(b) == 0);
	FUZZ_CHECK(bootlog_feed(b, "x", 1) == -EINVAL);
	FUZZ_CHECK(!console_in_report(c));

	console_get_stats(c, &st);
	FUZZ_CHECK(st.bytes == size);
	FUZZ_CHECK(st.lines + st.lines_split == r.lines);
	FUZZ_CHECK(st.problems == r.problems);
	FUZZ_CHECK(console_n_problems(c) <= CONSOLE_MAX_PROBLEMS);
	FUZZ_CHECK(console_n_problems(c) + st.problems_dropped == st.problems);
	fuzz_hash(&r.hash, &st, sizeof(st));

	if (inspect) {
		unsigned ms = console_milestones(c);

		for (unsigned m = 0; m < _CONSOLE_MS_MAX; m++)
			FUZZ_CHECK(!!(ms & (1u << m)) ==
				   !!console_milestone_first(c, m));
		FUZZ_CHECK(!ms == !console_last_milestone(c));
		FUZZ_CHECK(!(ms & (1u << CONSOLE_MS_KERNEL_BANNER)) ==
			   !console_banner(c));
		for (size_t i = 0; i < console_n_problems(c); i++) {
			check_problem(console_problem(c, i));
			serialize(recjson_problem(console_problem(c, i), true));
		}
		FUZZ_CHECK(!console_problem(c, console_n_problems(c)));
		serialize(recjson_milestones(c));
		serialize(recjson_ktap(bootlog_ktap(b)));
		check_verdict_input(b);
	}
	bootlog_free(b);
	return r.hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t whole, chunked;

	if (size < 1)
		return 0;
	whole = run(data + 1, size - 1, 0, true);
	if (data[0]) {
		chunked = run(data + 1, size - 1, data[0], false);
		/* "Bytes arrive in any chunking": the same events. */
		FUZZ_CHECK(whole == chunked);
	}
	return 0;
}
