// SPDX-License-Identifier: GPL-2.0-or-later
#include "console.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "util/strbuf.h"

#define NONE (-1)

static const char *const problem_names[_CONSOLE_PROBLEM_MAX] = {
	[CONSOLE_PANIC] = "PANIC",
	[CONSOLE_OOPS] = "OOPS",
	[CONSOLE_BUG] = "BUG",
	[CONSOLE_WARNING] = "WARNING",
	[CONSOLE_GPF] = "GPF",
	[CONSOLE_UBSAN] = "UBSAN",
	[CONSOLE_KFENCE] = "KFENCE",
	[CONSOLE_KASAN] = "KASAN",
	[CONSOLE_SOFT_LOCKUP] = "SOFT_LOCKUP",
	[CONSOLE_HARD_LOCKUP] = "HARD_LOCKUP",
	[CONSOLE_HUNG_TASK] = "HUNG_TASK",
	[CONSOLE_RCU_STALL] = "RCU_STALL",
	[CONSOLE_NO_ROOT_FS] = "NO_ROOT_FS",
	[CONSOLE_LOCKDEP] = "LOCKDEP",
	[CONSOLE_KCSAN] = "KCSAN",
	[CONSOLE_KMSAN] = "KMSAN",
	[CONSOLE_OOM] = "OOM",
};

static const char *const milestone_names[_CONSOLE_MS_MAX] = {
	[CONSOLE_MS_FIRMWARE] = "FIRMWARE",
	[CONSOLE_MS_KERNEL_BANNER] = "KERNEL_BANNER",
	[CONSOLE_MS_ROOT_MOUNTED] = "ROOT_MOUNTED",
	[CONSOLE_MS_INIT_STARTED] = "INIT_STARTED",
	[CONSOLE_MS_KTAP_START] = "KTAP_START",
	[CONSOLE_MS_POWER_OFF] = "POWER_OFF",
	[CONSOLE_MS_HALT] = "HALT",
	[CONSOLE_MS_REBOOT] = "REBOOT",
};

static const char *const end_names[_CONSOLE_END_MAX] = {
	[CONSOLE_END_MARKER] = "MARKER",
	[CONSOLE_END_SHAPE] = "SHAPE",
	[CONSOLE_END_NEXT] = "NEXT",
	[CONSOLE_END_STREAM] = "STREAM",
};

const char *console_problem_kind_name(enum console_problem_kind k)
{
	return (unsigned)k < _CONSOLE_PROBLEM_MAX ? problem_names[k] : NULL;
}

const char *console_milestone_name(enum console_milestone m)
{
	return (unsigned)m < _CONSOLE_MS_MAX ? milestone_names[m] : NULL;
}

const char *console_end_name(enum console_end e)
{
	return (unsigned)e < _CONSOLE_END_MAX ? end_names[e] : NULL;
}

int console_problem_kind_from_string(const char *s,
				     enum console_problem_kind *ret)
{
	for (int i = 0; s && i < _CONSOLE_PROBLEM_MAX; i++)
		if (!strcasecmp(s, problem_names[i])) {
			*ret = i;
			return 0;
		}
	return -EINVAL;
}

int console_milestone_from_string(const char *s, enum console_milestone *ret)
{
	for (int i = 0; s && i < _CONSOLE_MS_MAX; i++)
		if (!strcasecmp(s, milestone_names[i])) {
			*ret = i;
			return 0;
		}
	return -EINVAL;
}

/* ------------------------------------------------------------ state */

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
	enum trace_state trace;
	bool frames_done;		/* the first call trace is over */
	bool in_irq;			/* inside <IRQ>, <NMI>... */
	bool has_ts;
	double last_ts;
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
	struct milestone_slot first[_CONSOLE_MS_MAX];
	struct milestone_slot last;

	/* problems */
	struct block blk;
	struct opener prev;
	struct console_problem problems[CONSOLE_MAX_PROBLEMS];
	size_t n_problems;

	struct console_stats stats;
};

/* ------------------------------------------------------------ helpers */

static bool startswith(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_xdigit(int ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

static bool is_word(int ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || ch == '_';
}

/* Length of s[0..len) cut to at most max bytes on a UTF-8 boundary. */
static size_t utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

static char *xstrndup_cut(const char *s, size_t len, size_t max)
{
	char *r = strndup(s, utf8_cut(s, len, max));

	if (!r)
		abort();	/* as strbuf does: no recovery in a CLI */
	return r;
}

/* ------------------------------------------------------------ names */

/* A line of 16 or more '=' and nothing else (trailing blanks allowed). */
static bool is_separator(const char *t)
{
	size_t n = 0;

	while (t[n] == '=')
		n++;
	if (n < 16)
		return false;
	while (t[n] == ' ' || t[n] == '\t')
		n++;
	return !t[n];
}

static bool is_cut_here(const char *t)
{
	return startswith(t, "------------[ cut here ]");
}

/* "...: 0000 [#1] ..." as printed by x86 __die_header(). */
static bool is_die_header(const char *t)
{
	for (const char *p = strstr(t, " [#"); p; p = strstr(p + 1, " [#")) {
		const char *q = p + 3;
		size_t off = (size_t)(p - t);

		if (off < 6 || p[-5] != ' ' || p[-6] != ':')
			continue;
		if (!is_xdigit(p[-1]) || !is_xdigit(p[-2]) ||
		    !is_xdigit(p[-3]) || !is_xdigit(p[-4]))
			continue;
		if (!is_digit(*q))
			continue;
		while (is_digit(*q))
			q++;
		if (*q == ']')
			return true;
	}
	return false;
}

static int classify(const char *t, bool prev_sep)
{
	const char *s = t;

	if (startswith(t, "Kernel panic - not syncing"))
		return CONSOLE_PANIC;

	if (startswith(t, "watchdog: "))
		s = t + strlen("watchdog: ");
	else if (startswith(t, "NMI watchdog: "))
		s = t + strlen("NMI watchdog: ");
	if (startswith(s, "BUG: soft lockup"))
		return CONSOLE_SOFT_LOCKUP;
	if (startswith(s, "Watchdog detected hard LOCKUP"))
		return CONSOLE_HARD_LOCKUP;
	if (s != t)
		return NONE;

	if (startswith(t, "BUG: KASAN:"))
		return CONSOLE_KASAN;
	if (startswith(t, "BUG: KFENCE:"))
		return CONSOLE_KFENCE;
	if (startswith(t, "BUG: KCSAN:"))
		return CONSOLE_KCSAN;
	if (startswith(t, "BUG: KMSAN:"))
		return CONSOLE_KMSAN;
	if (startswith(t, "BUG: ") || startswith(t, "kernel BUG at "))
		return CONSOLE_BUG;
	if (startswith(t, "WARNING: CPU: ") || startswith(t, "WARNING: at "))
		return CONSOLE_WARNING;
	if (startswith(t, "WARNING: ") && prev_sep)
		return CONSOLE_LOCKDEP;
	if (startswith(t, "UBSAN: "))
		return CONSOLE_UBSAN;
	if (startswith(t, "INFO: task ") &&
	    strstr(t, " blocked for more than "))
		return CONSOLE_HUNG_TASK;

	s = startswith(t, "rcu: ") ? t + strlen("rcu: ") : t;
	if (startswith(s, "INFO: rcu") && strstr(s, " stall"))
		return CONSOLE_RCU_STALL;

	if (startswith(t, "VFS: Cannot open root device") ||
	    startswith(t, "VFS: Unable to mount root") ||
	    startswith(t, "No filesystem could mount root") ||
	    startswith(t, "Can't find any bdev filesystem") ||
	    startswith(t, "Gave up waiting for root") ||
	    (startswith(t, "ALERT!  ") && strstr(t, " does not exist")))
		return CONSOLE_NO_ROOT_FS;

	if (strstr(t, " invoked oom-killer: "))
		return CONSOLE_OOM;

	if (startswith(t, "general protection fault") ||
	    startswith(t, "Oops: general protection fault"))
		return CONSOLE_GPF;
	if (startswith(t, "Oops: ") || is_die_header(t))
		return CONSOLE_OOPS;
	return NONE;
}

/* Kinds whose report is opened and closed by a ===== line. */
static bool closes_on_separator(int kind)
{
	return kind == CONSOLE_KASAN || kind == CONSOLE_KFENCE ||
	       kind == CONSOLE_KCSAN || kind == CONSOLE_KMSAN ||
	       kind == CONSOLE_UBSAN;
}

static bool headerless_trace(int kind)
{
	return kind == CONSOLE_KFENCE || kind == CONSOLE_KCSAN ||
	       kind == CONSOLE_KMSAN;
}

/* Kinds whose detector runs in interrupt context: its frames there are
 * the detector's, not the culprit's. */
static bool skips_irq_frames(int kind)
{
	return kind == CONSOLE_SOFT_LOCKUP || kind == CONSOLE_HARD_LOCKUP ||
	       kind == CONSOLE_RCU_STALL;
}

/* The first word of each line of an x86_64 or i386 register dump
 * (__show_regs, show_iret_regs). */
static bool is_register_line(const char *t)
{
	static const char *const regs[] = {
		"RIP: ", "EIP: ", "Code: ", "RSP: ", "ESP: ", "RAX: ", "EAX: ",
		"RDX: ", "EDX: ", "RBP: ", "EBP: ", "ESI: ", "R10: ", "R13: ",
		"FS: ",	 "CS: ",  "DS: ",   "CR0: ", "CR2: ", "DR0: ", "DR3: ",
		"DR6: ", "PKRU: ",
	};

	for (size_t i = 0; i < ELEMENTSOF(regs); i++)
		if (startswith(t, regs[i]))
			return true;
	return false;
}

/* Lines that may follow a finished call trace within the same report. */
static bool is_trailer(const char *t)
{
	return is_register_line(t) || startswith(t, "Modules linked in:") ||
	       startswith(t, "Kernel Offset:") || startswith(t, "---[ ");
}

/* ------------------------------------------------------------ frames */

static void add_frame(struct block *b, const char *name, size_t len)
{
	struct console_problem *p = &b->p;

	if (!len || p->n_frames >= CONSOLE_MAX_FRAMES || b->frames_done)
		return;
	if (skips_irq_frames(p->kind) && b->in_irq)
		return;
	len = len > CONSOLE_FRAME_MAX ? CONSOLE_FRAME_MAX : len;
	if (p->n_frames && strlen(p->frames[p->n_frames - 1]) == len &&
	    !memcmp(p->frames[p->n_frames - 1], name, len))
		return;
	p->frames[p->n_frames++] = xstrndup_cut(name, len, len);
}

/*
 * The function name at s ("func+0x1a/0x30 [mod]", "func.isra.0+0x..."):
 * its length without compiler suffix, 0 when s is no symbol (an address).
 */
static size_t symbol_len(const char *s)
{
	size_t n = 0, dot = 0;

	if (!(is_word(s[0]) && !is_digit(s[0])) && s[0] != '$')
		return 0;
	while (is_word(s[n]) || s[n] == '.' || s[n] == '$') {
		if (s[n] == '.' && !dot)
			dot = n;
		n++;
	}
	if (s[n] && s[n] != '+' && s[n] != ' ')
		return 0;
	return dot ? dot : n;
}

/* "RIP: 0010:func+0x1/0x2" or "EIP: func+0x1/0x2". */
static void take_rip(struct block *b, const char *t)
{
	const char *s;

	if (!startswith(t, "RIP: ") && !startswith(t, "EIP: "))
		return;
	s = t + 5;
	if (is_xdigit(s[0]) && is_xdigit(s[1]) && is_xdigit(s[2]) &&
	    is_xdigit(s[3]) && s[4] == ':')
		s += 5;
	add_frame(b, s, symbol_len(s));
}

/* One line inside a call trace: is it still part of it? */
static bool trace_line(struct block *b, const char *t)
{
	const char *s = t;

	if (is_register_line(t)) {
		take_rip(b, t);
		return true;
	}
	if (*t != ' ' && *t != '\t')
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '<') {
		if (startswith(s, "</TASK>")) {
			b->trace = TRACE_DONE;
			b->frames_done = true;
			b->in_irq = false;
		} else if (startswith(s, "</")) {
			b->in_irq = false;
		} else {
			b->in_irq = !startswith(s, "<TASK>");
		}
		return true;
	}
	if (s[0] == '?' && s[1] == ' ')
		return true;
	if (s[0] == '[' && s[1] == '<') {	/* [<ffffffff8100>] func */
		const char *e = strstr(s, ">] ");

		if (!e)
			return true;
		s = e + 3;
		if (s[0] == '?' && s[1] == ' ')
			return true;
	}
	add_frame(b, s, symbol_len(s));
	return true;
}

/* ------------------------------------------------------------ signature */

/* Numbers become "N": decimal, 0x-hex, and hex words of 8+ digits. */
static void normalise(struct strbuf *sb, const char *t)
{
	size_t i = 0;

	while (t[i]) {
		bool boundary = !i || !is_word(t[i - 1]);
		size_t n = 0;

		if (boundary && t[i] == '0' && (t[i + 1] == 'x' ||
						t[i + 1] == 'X') &&
		    is_xdigit(t[i + 2])) {
			n = 2;
			while (is_xdigit(t[i + n]))
				n++;
		} else if (boundary && is_xdigit(t[i])) {
			bool digit = false;

			while (is_xdigit(t[i + n])) {
				digit |= is_digit(t[i + n]);
				n++;
			}
			if (!(n >= 8 && digit && !is_word(t[i + n])))
				n = 0;
		}
		if (!n && boundary && is_digit(t[i]))
			while (is_digit(t[i + n]))
				n++;
		if (n) {
			strbuf_addch(sb, 'N');
			i += n;
		} else {
			strbuf_addch(sb, t[i++]);
		}
	}
}

static void compute_signature(struct console_problem *p)
{
	_cleanup_strbuf_ struct strbuf in = STRBUF_INIT;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	static const char hex[] = "0123456789abcdef";

	strbuf_addstr(&in, problem_names[p->kind]);
	strbuf_addch(&in, '\n');
	if (p->reason) {
		normalise(&in, p->reason);
		strbuf_addch(&in, '\n');
	}
	for (size_t i = 0; i < p->n_frames; i++) {
		strbuf_addstr(&in, p->frames[i]);
		strbuf_addch(&in, '\n');
	}
	if (!p->n_frames) {
		normalise(&in, p->title);
		strbuf_addch(&in, '\n');
	}
	if (!EVP_Digest(in.buf, in.len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen < 8)
		abort();	/* SHA-256 cannot fail but for lack of memory */
	for (int i = 0; i < 8; i++) {
		p->signature[2 * i] = hex[md[i] >> 4];
		p->signature[2 * i + 1] = hex[md[i] & 15];
	}
	p->signature[16] = '\0';
}

/* ------------------------------------------------------------ problems */

static void problem_release(struct console_problem *p)
{
	free((char *)p->title);
	free((char *)p->reason);
	free((char *)p->report);
	for (size_t i = 0; i < p->n_frames; i++)
		free((char *)p->frames[i]);
	memset(p, 0, sizeof(*p));
}

static void block_append(struct block *b, const char *t, size_t len,
			 unsigned long lineno)
{
	b->p.report_lines++;
	b->p.last_lineno = lineno;
	b->p.report_lines_skipped += b->skipped;
	b->skipped = 0;
	if (b->kept_lines < CONSOLE_REPORT_MAX_LINES &&
	    b->report.len + len + 1 <= CONSOLE_REPORT_MAX_BYTES) {
		strbuf_add(&b->report, t, len);
		strbuf_addch(&b->report, '\n');
		b->kept_lines++;
	} else {
		b->p.report_lines_dropped++;
	}
}

/* Will this report print an end line ("---[ end ...", =====)? */
static bool expects_marker(const struct block *b)
{
	return b->cut_opened || b->die_seen || b->p.kind == CONSOLE_PANIC ||
	       (b->sep_opened && closes_on_separator(b->p.kind));
}

static void block_close(struct console *c, enum console_end end)
{
	struct block *b = &c->blk;
	struct console_problem *p = &b->p;

	if (!b->open)
		return;
	/* A report without end line whose call trace is complete is over,
	 * whatever comes next. */
	if ((end == CONSOLE_END_NEXT || end == CONSOLE_END_STREAM) &&
	    b->trace == TRACE_DONE && !expects_marker(b))
		end = CONSOLE_END_SHAPE;
	p->end = end;
	p->report = strbuf_detach(&b->report, &p->report_len);
	compute_signature(p);
	c->stats.problems++;
	if (c->ops.on_problem)
		c->ops.on_problem(p, c->userdata);
	if (c->n_problems < CONSOLE_MAX_PROBLEMS) {
		c->problems[c->n_problems++] = *p;
		memset(p, 0, sizeof(*p));
	} else {
		c->stats.problems_dropped++;
		problem_release(p);
	}
	memset(b, 0, sizeof(*b));
	b->report = (struct strbuf)STRBUF_INIT;
}

static void block_open(struct console *c, int kind, const char *t,
		       size_t len, double ts)
{
	struct block *b = &c->blk;
	struct console_problem *p = &b->p;
	struct opener *o = &c->prev;

	memset(b, 0, sizeof(*b));
	b->report = (struct strbuf)STRBUF_INIT;
	b->open = true;
	p->kind = kind;
	p->title = xstrndup_cut(t, len, CONSOLE_TITLE_MAX);
	p->lineno = c->lineno;
	p->timestamp = ts;
	p->first_lineno = c->lineno;
	if (kind == CONSOLE_PANIC) {
		const char *r = strstr(t, "not syncing");

		r += strlen("not syncing");
		if (*r == ':')
			r++;
		if (*r == ' ')
			r++;
		p->reason = xstrndup_cut(r, len - (size_t)(r - t),
					 CONSOLE_TITLE_MAX);
	}
	b->has_ts = ts >= 0;
	b->last_ts = ts;
	b->die_seen = is_die_header(t);
	if (o->valid) {
		size_t start = 0;

		b->sep_opened = o->sep;
		b->cut_opened = !o->sep;
		p->first_lineno = o->lineno[0];
		for (size_t i = 0; i < o->n; i++) {
			block_append(b, o->text.buf + start, o->end[i] - start,
				     o->lineno[i]);
			start = o->end[i];
		}
	}
	block_append(b, t, len, c->lineno);
}

/* Does the open block take a die header as its own (BUG: + Oops:)? */
static bool absorbs(const struct block *b, int kind, const char *t)
{
	int bk = b->p.kind;

	if (kind == CONSOLE_NO_ROOT_FS && bk == CONSOLE_NO_ROOT_FS)
		return true;
	if (kind != CONSOLE_OOPS && kind != CONSOLE_GPF)
		return false;
	if (b->die_seen || b->trace != TRACE_NONE || !is_die_header(t))
		return false;
	return bk == CONSOLE_BUG || bk == CONSOLE_KASAN ||
	       bk == CONSOLE_KFENCE;
}

/* Is this line still part of the open report (structure only)? */
static bool block_fits(struct block *b, const char *t)
{
	if (b->trace == TRACE_IN) {
		if (trace_line(b, t))
			return true;
		b->trace = TRACE_DONE;
		b->frames_done = true;
	}
	if (startswith(t, "Call Trace:") || startswith(t, "Call trace:")) {
		b->trace = TRACE_IN;
		b->in_irq = false;
		return true;
	}
	if (startswith(t, "NMI backtrace for cpu") ||
	    startswith(t, "Sending NMI from CPU")) {
		b->trace = TRACE_NONE;
		return true;
	}
	if (b->trace == TRACE_NONE) {
		/* KFENCE, KCSAN and KMSAN print their first stack right
		 * after the title, without "Call Trace:". */
		if (headerless_trace(b->p.kind) && t[0] == ' ' &&
		    strstr(t, "+0x")) {
			b->trace = TRACE_IN;
			return trace_line(b, t);
		}
		take_rip(b, t);
		return true;
	}
	/* TRACE_DONE */
	if (b->sep_opened && closes_on_separator(b->p.kind))
		return true;	/* KASAN & co. go on until their ===== */
	if (b->p.kind == CONSOLE_PANIC)
		return true;	/* "Shutting down cpus with NMI", "Kernel
				   Offset:", "Rebooting in", until its end */
	return is_trailer(t);
}

/*
 * Offer a line to the open block.  Returns true when the block took it;
 * false when it closed the block and the line must be looked at afresh.
 */
static bool block_take(struct console *c, const char *t, size_t len,
		       double ts, int kind, bool sep, bool boundary)
{
	struct block *b = &c->blk;
	unsigned long lineno = c->lineno;

	if (boundary || is_cut_here(t)) {
		block_close(c, CONSOLE_END_NEXT);
		return false;
	}
	if (startswith(t, "---[ end trace") ||
	    startswith(t, "---[ end Kernel panic")) {
		block_append(b, t, len, lineno);
		block_close(c, CONSOLE_END_MARKER);
		return true;
	}
	if (sep) {
		if (b->sep_opened && closes_on_separator(b->p.kind)) {
			block_append(b, t, len, lineno);
			block_close(c, CONSOLE_END_MARKER);
			return true;
		}
		block_close(c, CONSOLE_END_NEXT);
		return false;
	}
	if (kind != NONE) {
		if (!absorbs(b, kind, t)) {
			block_close(c, CONSOLE_END_NEXT);
			return false;
		}
		b->die_seen |= is_die_header(t);
		block_append(b, t, len, lineno);
		return true;
	}
	/* User space writing to the console while the kernel's output lags
	 * behind: its lines land inside the report but are not part of it. */
	if (b->has_ts && ts < 0) {
		b->skipped++;
		return true;
	}
	if ((!b->has_ts && ts >= 0) ||
	    (ts >= 0 && b->last_ts >= 0 && b->p.kind != CONSOLE_PANIC &&
	     ts - b->last_ts > CONSOLE_BLOCK_GAP_S) ||
	    !block_fits(b, t)) {
		block_close(c, CONSOLE_END_SHAPE);
		return false;
	}
	if (ts >= 0)
		b->last_ts = ts;
	block_append(b, t, len, lineno);
	return true;
}

static void opener_add(struct opener *o, const char *t, size_t len,
		       unsigned long lineno)
{
	strbuf_add(&o->text, t, utf8_cut(t, len, CONSOLE_TITLE_MAX));
	o->lineno[o->n] = lineno;
	o->end[o->n++] = o->text.len;
}

static void problem_line(struct console *c, const char *t, size_t len,
			 double ts, bool boundary)
{
	struct opener *o = &c->prev;
	bool sep = is_separator(t);
	int kind = classify(t, o->valid && o->sep);

	if (c->blk.open && block_take(c, t, len, ts, kind, sep, boundary))
		goto done;
	if (boundary)
		goto done;
	if (kind != NONE) {
		block_open(c, kind, t, len, ts);
		goto done;
	}
	if (sep || is_cut_here(t)) {
		o->valid = true;
		o->sep = sep;
		o->n = 0;
		strbuf_reset(&o->text);
		opener_add(o, t, len, c->lineno);
		return;
	}
	if (o->valid && !o->sep && o->n < OPENER_MAX_LINES) {
		opener_add(o, t, len, c->lineno);
		return;
	}
done:
	o->valid = false;
}

/* ------------------------------------------------------------ milestones */

static bool fs_mounted(const char *t)
{
	if (startswith(t, "EXT4-fs (") || startswith(t, "EXT3-fs (") ||
	    startswith(t, "EXT2-fs ("))
		return strstr(t, "): mounted filesystem") != NULL;
	if (startswith(t, "XFS ("))
		return strstr(t, "): Ending clean mount") != NULL;
	return false;
}

static int milestone_of(const struct console *c, const char *t, double ts)
{
	const char *s = t;

	if (startswith(t, "SeaBIOS (version") || startswith(t, "iPXE (") ||
	    startswith(t, "Booting from ") || startswith(t, "BdsDxe: ") ||
	    startswith(t, "EFI stub: "))
		return CONSOLE_MS_FIRMWARE;
	if (startswith(t, "Linux version ") &&
	    is_digit(t[strlen("Linux version ")]) &&
	    (ts >= 0 || !c->cycle_ts_seen))
		return CONSOLE_MS_KERNEL_BANNER;
	if (startswith(t, "VFS: Mounted root ("))
		return CONSOLE_MS_ROOT_MOUNTED;
	if ((c->cycle & (1u << CONSOLE_MS_INIT_STARTED)) && fs_mounted(t))
		return CONSOLE_MS_ROOT_MOUNTED;
	if (startswith(t, "Run ") && strstr(t, " as init process"))
		return CONSOLE_MS_INIT_STARTED;
	while (*s == ' ' || *s == '\t')
		s++;
	if (startswith(s, "KTAP version ") || startswith(s, "TAP version "))
		return CONSOLE_MS_KTAP_START;
	if (startswith(t, "reboot: Power down"))
		return CONSOLE_MS_POWER_OFF;
	if (startswith(t, "reboot: System halted"))
		return CONSOLE_MS_HALT;
	if (startswith(t, "reboot: Restarting system"))
		return CONSOLE_MS_REBOOT;
	return NONE;
}

static void slot_set(struct milestone_slot *s,
		     const struct console_milestone_event *ev)
{
	free((char *)s->ev.text);
	s->ev = *ev;
	s->ev.text = xstrndup_cut(ev->text, strlen(ev->text),
				  CONSOLE_MILESTONE_TEXT_MAX);
	s->set = true;
}

static void milestone_emit(struct console *c, int m, const char *t,
			   double ts)
{
	struct console_milestone_event ev = {
		.milestone = m,
		.text = t,
		.lineno = c->lineno,
		.timestamp = ts,
	};

	c->reached |= 1u << m;
	c->cycle |= 1u << m;
	slot_set(&c->last, &ev);
	if (!c->first[m].set)
		slot_set(&c->first[m], &ev);
	if (c->ops.on_milestone)
		c->ops.on_milestone(&c->last.ev, c->userdata);
}

/* ------------------------------------------------------------ lines */

static size_t parse_digits(const char *s, size_t max, uint64_t *ret)
{
	size_t n = 0;
	uint64_t v = 0;

	while (n < max && is_digit(s[n]))
		v = v * 10 + (uint64_t)(s[n++] - '0');
	*ret = v;
	return n;
}

/* Length of the "<N>[  1.234567][ T1] " prefix, 0 if none; *ret_ts. */
static size_t parse_timestamp(const char *s, double *ret_ts)
{
	size_t i = 0, n, nf;
	uint64_t sec, frac, scale = 1;

	*ret_ts = -1;
	if (s[0] == '<') {
		n = 1;
		while (n <= 4 && is_digit(s[n]))
			n++;
		if (n == 1 || s[n] != '>')
			return 0;
		i = n + 1;
	}
	if (s[i] != '[')
		return 0;
	i++;
	while (s[i] == ' ')
		i++;
	n = parse_digits(s + i, 12, &sec);
	if (!n || s[i + n] != '.')
		return 0;
	i += n + 1;
	nf = parse_digits(s + i, 9, &frac);
	if (!nf || s[i + nf] != ']')
		return 0;
	i += nf + 1;
	for (size_t k = 0; k < nf; k++)
		scale *= 10;
	*ret_ts = (double)sec + (double)frac / (double)scale;
	/* printk caller id: "[    T123]" or "[     C0]" */
	if (s[i] == '[') {
		size_t j = i + 1;

		while (s[j] == ' ')
			j++;
		if ((s[j] == 'T' || s[j] == 'C') && is_digit(s[j + 1])) {
			j++;
			while (is_digit(s[j]))
				j++;
			if (s[j] == ']')
				i = j + 1;
		}
	}
	if (s[i] == ' ')
		i++;
	return i;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid;
 * *ret_cp its code point. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *ret_cp)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return len;
}

/* raw → clean: valid UTF-8 without C1 controls, at most CONSOLE_LINE_MAX. */
static void clean_line(struct console *c)
{
	const unsigned char *s = (const unsigned char *)c->raw.buf;
	size_t n = c->raw.len, i = 0;
	struct strbuf *out = &c->clean;

	strbuf_reset(out);
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_seq(s + i, n - i, &cp);

		if (!k) {
			c->stats.invalid_utf8++;
			if (out->len + 3 > CONSOLE_LINE_MAX) {
				c->raw_truncated = true;
				break;
			}
			strbuf_add(out, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		if (cp == 0xfffe || cp == 0xffff) {
			/* Noncharacters XML cannot carry (junit.xml). */
			c->stats.invalid_utf8++;
			if (out->len + 3 > CONSOLE_LINE_MAX) {
				c->raw_truncated = true;
				break;
			}
			strbuf_add(out, "\xef\xbf\xbd", 3);
		} else if (cp >= 0x80 && cp <= 0x9f) {
			c->stats.controls++;
		} else {
			if (out->len + k > CONSOLE_LINE_MAX) {
				c->raw_truncated = true;
				break;
			}
			strbuf_add(out, s + i, k);
		}
		i += k;
	}
}

/*
 * A kernel message that begins after other text on the same line (user
 * space wrote a partial line, then printk): "[%5lu.%06lu] " exactly.
 */
static size_t midline_timestamp(const char *s, size_t len)
{
	for (size_t k = 1; k < len; k++) {
		const char *p = s + k;
		size_t i = 1, width = 0, digits = 0;

		if (*p != '[')
			continue;
		for (; p[i] == ' '; i++)
			width++;
		for (; is_digit(p[i]); i++, width++)
			digits++;
		if (!digits || width < 5 || p[i] != '.')
			continue;
		for (digits = 0, i++; is_digit(p[i]); i++)
			digits++;
		if (digits == 6 && p[i] == ']' && p[i + 1] == ' ')
			return k;
	}
	return 0;
}

static void process_line(struct console *c, const char *text, size_t len,
			 double ts, bool truncated)
{
	struct console_line line = {
		.text = text,
		.len = len,
		.lineno = c->lineno,
		.timestamp = ts,
		.truncated = truncated,
	};
	bool boundary;
	int m;

	if (ts >= 0)
		c->stats.timestamped++;
	if (c->ops.on_line)
		c->ops.on_line(&line, c->userdata);

	m = milestone_of(c, text, ts);
	/* Firmware or a second banner after a banner: the machine rebooted. */
	if ((m == CONSOLE_MS_FIRMWARE || m == CONSOLE_MS_KERNEL_BANNER) &&
	    (c->cycle & (1u << CONSOLE_MS_KERNEL_BANNER))) {
		c->cycle = 0;
		c->cycle_ts_seen = false;
	}
	if ((m == CONSOLE_MS_FIRMWARE || m == CONSOLE_MS_KERNEL_BANNER) &&
	    !(c->cycle & ((1u << CONSOLE_MS_FIRMWARE) |
			  (1u << CONSOLE_MS_KERNEL_BANNER))))
		c->stats.boots++;
	if (ts >= 0)
		c->cycle_ts_seen = true;
	boundary = m == CONSOLE_MS_FIRMWARE || m == CONSOLE_MS_KERNEL_BANNER ||
		   m == CONSOLE_MS_POWER_OFF || m == CONSOLE_MS_HALT ||
		   m == CONSOLE_MS_REBOOT;

	problem_line(c, text, len, ts, boundary);

	if (m != NONE && !(c->cycle & (1u << m)))
		milestone_emit(c, m, text, ts);
	if (m == CONSOLE_MS_REBOOT) {
		c->cycle = 0;
		c->cycle_ts_seen = false;
	}
}

static void end_line(struct console *c)
{
	char *s;
	size_t len, off, mid;
	double ts;
	bool truncated;

	clean_line(c);
	s = c->clean.buf;
	len = c->clean.len;
	truncated = c->raw_truncated;
	strbuf_reset(&c->raw);
	c->raw_any = false;
	c->raw_truncated = false;

	c->lineno++;
	c->stats.lines++;
	if (truncated)
		c->stats.lines_truncated++;
	off = parse_timestamp(s, &ts);
	if (!off && (mid = midline_timestamp(s, len))) {
		char save = s[mid];

		c->stats.lines_split++;
		s[mid] = '\0';
		process_line(c, s, mid, -1, false);
		s[mid] = save;
		s += mid;
		len -= mid;
		off = parse_timestamp(s, &ts);
	}
	process_line(c, s + off, len - off, ts, truncated);
}

static void add_byte(struct console *c, unsigned char ch)
{
	if (c->raw.len < CONSOLE_LINE_MAX) {
		strbuf_addch(&c->raw, ch);
	} else {
		c->raw_truncated = true;
		c->stats.bytes_truncated++;
	}
}

static void feed_byte(struct console *c, unsigned char ch)
{
	c->raw_any = true;
	if (ch == '\n') {
		c->esc = ESC_NONE;
		end_line(c);
		return;
	}
	switch (c->esc) {
	case ESC_NONE:
		if (ch == 0x1b) {
			c->esc = ESC_START;
			c->stats.escapes++;
		} else if (ch == '\r') {
			/* dropped */
		} else if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			c->stats.controls++;
		} else {
			add_byte(c, ch);
		}
		break;
	case ESC_START:
		if (ch == '[')
			c->esc = ESC_CSI;
		else if (ch == ']' || ch == 'P' || ch == 'X' || ch == '^' ||
			 ch == '_')
			c->esc = ESC_STR;
		else if (ch >= 0x20 && ch <= 0x2f)
			c->esc = ESC_INTER;
		else if (ch != 0x1b)
			c->esc = ESC_NONE;	/* ESC c, ESC 7, ... */
		break;
	case ESC_CSI:
		if (ch >= 0x40 && ch <= 0x7e)
			c->esc = ESC_NONE;
		else if (ch == 0x1b)
			c->esc = ESC_START;
		else if (ch >= 0x7f)
			c->esc = ESC_NONE;	/* malformed: drop it */
		break;
	case ESC_INTER:
		if (ch == 0x1b)
			c->esc = ESC_START;
		else if (ch < 0x20 || ch > 0x2f)
			c->esc = ESC_NONE;
		break;
	case ESC_STR:
		if (ch == 0x07)
			c->esc = ESC_NONE;
		else if (ch == 0x1b)
			c->esc = ESC_STR_ESC;
		break;
	case ESC_STR_ESC:
		if (ch == '\\')
			c->esc = ESC_NONE;
		else if (ch != 0x1b)
			c->esc = ESC_STR;
		break;
	}
}

/* ------------------------------------------------------------ API */

struct console *console_new(const struct console_ops *ops, void *userdata)
{
	struct console *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (ops)
		c->ops = *ops;
	c->userdata = userdata;
	strbuf_init(&c->raw, 0);
	strbuf_init(&c->clean, 0);
	strbuf_init(&c->prev.text, 0);
	strbuf_init(&c->blk.report, 0);
	return c;
}

void console_free(struct console *c)
{
	if (!c)
		return;
	strbuf_release(&c->raw);
	strbuf_release(&c->clean);
	strbuf_release(&c->prev.text);
	strbuf_release(&c->blk.report);
	problem_release(&c->blk.p);
	for (size_t i = 0; i < c->n_problems; i++)
		problem_release(&c->problems[i]);
	for (int m = 0; m < _CONSOLE_MS_MAX; m++)
		free((char *)c->first[m].ev.text);
	free((char *)c->last.ev.text);
	free(c);
}

int console_feed(struct console *c, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	if (!c || (!buf && n) || c->finished)
		return -EINVAL;
	c->stats.bytes += n;
	for (size_t i = 0; i < n; i++) {
		/* Fast path for plain text. */
		if (c->esc == ESC_NONE && p[i] >= 0x20 && p[i] != 0x7f) {
			c->raw_any = true;
			add_byte(c, p[i]);
			continue;
		}
		feed_byte(c, p[i]);
	}
	return 0;
}

int console_finish(struct console *c)
{
	if (!c)
		return -EINVAL;
	if (c->finished)
		return 0;
	if (c->raw_any)
		end_line(c);
	c->esc = ESC_NONE;
	block_close(c, CONSOLE_END_STREAM);
	c->finished = true;
	return 0;
}

unsigned console_milestones(const struct console *c)
{
	return c->reached;
}

const struct console_milestone_event *
console_milestone_first(const struct console *c, enum console_milestone m)
{
	if ((unsigned)m >= _CONSOLE_MS_MAX || !c->first[m].set)
		return NULL;
	return &c->first[m].ev;
}

const struct console_milestone_event *
console_last_milestone(const struct console *c)
{
	return c->last.set ? &c->last.ev : NULL;
}

const char *console_banner(const struct console *c)
{
	const struct console_milestone_event *ev =
		console_milestone_first(c, CONSOLE_MS_KERNEL_BANNER);

	return ev ? ev->text : NULL;
}

size_t console_n_problems(const struct console *c)
{
	return c->n_problems;
}

const struct console_problem *console_problem(const struct console *c,
					      size_t i)
{
	return i < c->n_problems ? &c->problems[i] : NULL;
}

bool console_in_report(const struct console *c)
{
	return c->blk.open;
}

void console_get_stats(const struct console *c, struct console_stats *ret)
{
	*ret = c->stats;
}
