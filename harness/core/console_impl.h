/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The console parser's state and the helpers its two halves share (not a
 * public header: only console.c and console_report.c include it).
 *
 *   console.c         bytes -> cleaned lines (escapes, '\r', UTF-8,
 *                     timestamps, kernel messages split off mid-line),
 *                     boot milestones and cycles, the public API;
 *   console_report.c  kernel problem reports: which line opens one, the
 *                     report block and where it ends, call trace frames,
 *                     signatures.
 *
 * console.c hands every line to console_report_line() after on_line and
 * before the line's milestone is emitted; console_finish closes an open
 * report with console_report_close(c, CONSOLE_END_STREAM).
 */
#ifndef BP_CONSOLE_IMPL_H
#define BP_CONSOLE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

#define NONE (-1)

enum esc_state {
	ESC_NONE,
	ESC_START,	/* after ESC */
	ESC_CSI,	/* ESC [ params intermediates */
	ESC_INTER,	/* ESC intermediates */
	ESC_STR,	/* OSC/DCS/SOS/PM/APC string */
	ESC_STR_ESC,	/* ESC inside a string: maybe ST */
};

enum trace_state {
	TRACE_NONE,	/* before "Call Trace:" */
	TRACE_IN,
	TRACE_DONE,
};

struct block {
	bool open;
	struct console_problem p;	/* title/reason/frames malloc'd */
	struct strbuf report;
	size_t kept_lines;
	bool sep_opened;		/* started by a ===== line */
	bool cut_opened;		/* started by a cut here line */
	bool die_seen;			/* die header "[#N]" seen */
	bool slub;			/* a SLUB "BUG cache (taint): ..."
					   report, which ends in a WARNING
					   (6.x) or a stack dump (before) */
	enum trace_state trace;
	bool frames_done;		/* the first call trace is over */
	bool in_irq;			/* inside <IRQ>, <NMI>... */
	bool panic_tail;		/* PANIC: "Kernel Offset:" or
					   "Rebooting in" seen */
	bool panic_next;		/* ended, its trace complete, by a
					   panic (panic_on_warn...) */
	bool held_list;			/* in a trace-less lockdep report's
					   list of held locks */
	bool has_ts;
	double last_ts;
	unsigned long caller;		/* of the title, 0 when none */
	size_t skipped;			/* since the last line taken */
};

/*
 * Lines that may open a report: a ===== line right before its title, or a
 * "cut here" line and the few lines between it and the title (WARN(1, fmt)
 * prints its message there).
 */
#define OPENER_MAX_LINES 8
struct opener {
	bool valid;
	bool sep;			/* ===== (else cut here) */
	size_t n;
	unsigned long lineno[OPENER_MAX_LINES];
	size_t end[OPENER_MAX_LINES];	/* of each line in text */
	struct strbuf text;
};

struct milestone_slot {
	bool set;
	struct console_milestone_event ev;	/* text malloc'd */
};

struct console {
	struct console_ops ops;
	void *userdata;
	bool finished;

	/* bytes → lines */
	enum esc_state esc;
	struct strbuf raw;		/* current line, escapes removed */
	bool raw_any;			/* a byte arrived since the last '\n' */
	bool raw_truncated;
	struct strbuf clean;
	unsigned long lineno;

	/* milestones */
	unsigned reached;
	unsigned cycle;			/* reached in this boot cycle */
	bool cycle_ts_seen;
	bool cycle_kmemleak_seen;	/* the kernel printed a leak itself */
	struct milestone_slot first[_CONSOLE_MS_MAX];
	struct milestone_slot last;

	/* problems */
	struct block blk;
	struct opener prev;
	struct console_problem problems[CONSOLE_MAX_PROBLEMS];
	size_t n_problems;
	bool lockdep_off;
	unsigned long lockdep_off_lineno;

	struct console_stats stats;
};

/* ------------------------------------------------------------ helpers */

static inline bool startswith(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static inline bool is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static inline bool is_xdigit(int ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

static inline bool is_word(int ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || ch == '_';
}

/* Length of s[0..len) cut to at most max bytes on a UTF-8 boundary. */
static inline size_t utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

static inline char *xstrndup_cut(const char *s, size_t len, size_t max)
{
	char *r = strndup(s, utf8_cut(s, len, max));

	if (!r)
		abort();	/* as strbuf does: no recovery in a CLI */
	return r;
}

/* Lines told apart by how they start: the first entry whose prefix
 * starts t gives its value; NONE when none does. */
struct prefix_rule {
	const char *prefix;
	int value;
};

static inline int prefix_match(const struct prefix_rule *rules, size_t n,
			       const char *t)
{
	for (size_t i = 0; i < n; i++)
		if (startswith(t, rules[i].prefix))
			return rules[i].value;
	return NONE;
}

/* console_report.c */

/*
 * One cleaned line (without its timestamp, ts -1 when none) at c->lineno.
 * caller: its printk caller id ("[T123]"/"[C1]" made a number), 0 when
 * none.  boundary: the line is a boot boundary (firmware, a kernel banner,
 * a power-off, halt or reboot message), which ends any open report.
 */
void console_report_line(struct console *c, const char *t, size_t len,
			 double ts, unsigned long caller, bool boundary);
/* Close the open report, if any, as end; deliver and keep it. */
void console_report_close(struct console *c, enum console_end end);
/* Free what a problem's fields point to (the struct itself is not). */
void console_report_release(struct console_problem *p);
/* Append t to sb with numbers made "N": decimal, 0x-hex, and hex words
 * of 8+ digits (the signature's normalisation). */
void console_normalise(struct strbuf *sb, const char *t);

/* console_title.c */

/*
 * The short title of a problem (see console.h, "Titles"): a pure function
 * of its kind, header (first line), block (lines, each ended by '\n') and
 * frames.  Returns a malloc'd string of at most CONSOLE_TITLE_MAX bytes.
 */
char *console_title(enum console_problem_kind kind, const char *header,
		    const char *report, const char *const *frames,
		    size_t n_frames);
/* Is name reporting machinery (dump_stack, __warn, kasan_report...), not
 * the function a title should name? */
bool console_title_machinery(const char *name);

#endif
