// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel problem reports on a console (see console_impl.h, console.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "console.h"
#include "console_impl.h"
#include "util/sha256.h"

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

/* "...: 0000 [#1] ..." as printed by x86 __die_header(), or arm64's
 * "Internal error: Oops: 0000000096000004 [#1] ..." (4 to 16 digits). */
static bool is_die_header(const char *t)
{
	for (const char *p = strstr(t, " [#"); p; p = strstr(p + 1, " [#")) {
		const char *q = p + 3, *h = p;

		while (h > t && is_xdigit(h[-1]))
			h--;
		if (p - h < 4 || p - h > 16 || h - t < 2 || h[-1] != ' ' ||
		    h[-2] != ':')
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

/* Report titles known by their start alone, the specific before the
 * general (none of them starts like the other tests in classify). */
static const struct prefix_rule titles[] = {
	{ "BUG: KASAN:", CONSOLE_KASAN },
	{ "BUG: KFENCE:", CONSOLE_KFENCE },
	{ "BUG: KCSAN:", CONSOLE_KCSAN },
	{ "BUG: KMSAN:", CONSOLE_KMSAN },
	{ "BUG: MAX_LOCK", CONSOLE_LOCKDEP },
	{ "BUG: MAX_STACK_TRACE_ENTRIES too low", CONSOLE_LOCKDEP },
	{ "BUG: key ", CONSOLE_LOCKDEP },
	{ "BUG: looking up invalid subclass", CONSOLE_LOCKDEP },
	{ "INFO: trying to register non-static key", CONSOLE_LOCKDEP },
	{ "BUG: Bad page state in ", CONSOLE_BAD_PAGE },
	{ "BUG: Bad page map in ", CONSOLE_BAD_PAGE },
	{ "BUG: Bad page cache in ", CONSOLE_BAD_PAGE },
	{ "BUG: sleeping function called from invalid context",
	  CONSOLE_ATOMIC },
	{ "BUG: scheduling while atomic", CONSOLE_ATOMIC },
	{ "BUG: scheduling in a non-blocking section", CONSOLE_ATOMIC },
	{ "BUG: assuming atomic context", CONSOLE_ATOMIC },
	{ "BUG: assuming non migratable context", CONSOLE_ATOMIC },
	{ "BUG: using ", CONSOLE_ATOMIC },
	{ "PANIC: double fault", CONSOLE_STACK },
	{ "traps: PANIC: double fault", CONSOLE_STACK },
	{ "BUG: ", CONSOLE_BUG },
	{ "kernel BUG at ", CONSOLE_BUG },
	{ "Unable to handle kernel ", CONSOLE_BUG },
	{ "WARNING: CPU: ", CONSOLE_WARNING },
	{ "WARNING: at ", CONSOLE_WARNING },
	{ "UBSAN: ", CONSOLE_UBSAN },
	{ "VFS: Cannot open root device", CONSOLE_NO_ROOT_FS },
	{ "VFS: Unable to mount root", CONSOLE_NO_ROOT_FS },
	{ "No filesystem could mount root", CONSOLE_NO_ROOT_FS },
	{ "Can't find any bdev filesystem", CONSOLE_NO_ROOT_FS },
	{ "Gave up waiting for root", CONSOLE_NO_ROOT_FS },
	{ "unregister_netdevice: waiting for ", CONSOLE_NETDEV_LEAK },
	{ "VFS: Busy inodes after unmount", CONSOLE_BUSY_INODES },
	{ "Internal error: ", CONSOLE_OOPS },
	{ "Unhandled fault", CONSOLE_OOPS },
};

/* Lockdep's titles (kernel/locking/lockdep.c) after "WARNING: " (since
 * 4.15), or inside "[ INFO: ... ]" / "[ BUG: ... ]" (before). */
static const char *const lockdep_titles[] = {
	"possible circular locking dependency detected",
	"possible recursive locking detected",
	"inconsistent lock state",
	"possible irq lock inversion dependency detected",
	"bad unlock balance detected!",
	"held lock freed!",
	"lock held when returning to user space!",
	"suspicious RCU usage",
	"chain_key collision",
	"Nested lock was not taken",
	"bad contention detected!",
};

static bool is_lockdep_title(const char *t)
{
	const char *s;

	if (startswith(t, "WARNING: "))
		s = t + strlen("WARNING: ");
	else if (startswith(t, "[ INFO: "))
		s = t + strlen("[ INFO: ");
	else if (startswith(t, "[ BUG: "))
		s = t + strlen("[ BUG: ");
	else
		return false;
	for (size_t i = 0; i < ELEMENTSOF(lockdep_titles); i++)
		if (startswith(s, lockdep_titles[i]))
			return true;
	/* "HARDIRQ-safe -> HARDIRQ-unsafe lock order detected",
	 * "sh/1 still has locks held!" */
	return strstr(s, "-unsafe lock order detected") ||
	       strstr(s, " still has locks held!");
}

/* SLUB's own report title, right after its ===== line (mm/slub.c
 * slab_bug): "BUG kmalloc-64 (Not tainted): Object already free". */
static bool is_slub_title(const char *t)
{
	const char *s;

	if (!startswith(t, "BUG ") || t[4] == ' ' || t[4] == '(')
		return false;
	s = strstr(t + 4, " (");
	if (!s || memchr(t + 4, ' ', (size_t)(s - t - 4)))
		return false;	/* the cache name is one word */
	s = strstr(s, "): ");
	return s && s[3];
}

/* Die headers of a kernel stack overflow or double fault (x86). */
static bool is_stack_die(const char *t)
{
	return (startswith(t, "stack guard page: ") ||
		startswith(t, "double fault: ") ||
		startswith(t, "kernel stack overflow")) &&
	       is_die_header(t);
}

/* kmemleak's console lines carry its pr_fmt prefix; its debugfs file,
 * copied to the console by user space, does not. */
static const char *kmemleak_text(const char *t)
{
	return startswith(t, "kmemleak: ") ? t + strlen("kmemleak: ") : t;
}

/* The kind of report t opens, NONE when none.  after_cut: t follows a
 * cut here line (a WARN message comes there, not a report of its own). */
static int classify_text(const char *t, bool after_cut)
{
	const char *s = t;
	int kind;

	if (startswith(t, "Kernel panic - not syncing"))
		return CONSOLE_PANIC;
	if (startswith(kmemleak_text(t), "unreferenced object 0x"))
		return CONSOLE_KMEMLEAK;

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

	if (is_lockdep_title(t))
		return CONSOLE_LOCKDEP;
	/* "BUG: Bad page state: 3 messages suppressed" precedes a report */
	if (startswith(t, "BUG: ") && strstr(t, " messages suppressed"))
		return NONE;
	if (startswith(t, "BUG: ") && strstr(t, " stack guard page was hit"))
		return CONSOLE_STACK;
	kind = prefix_match(titles, ELEMENTSOF(titles), t);
	if (kind == CONSOLE_BUSY_INODES && after_cut)
		return NONE;
	if (kind != NONE)
		return kind;
	if (startswith(t, "INFO: task ") &&
	    (strstr(t, " blocked for more than ") ||
	     strstr(t, " can't die for more than ")))
		return CONSOLE_HUNG_TASK;

	s = startswith(t, "rcu: ") ? t + strlen("rcu: ") : t;
	if (startswith(s, "INFO: rcu") && strstr(s, " stall"))
		return CONSOLE_RCU_STALL;

	if (startswith(t, "ALERT!  ") && strstr(t, " does not exist"))
		return CONSOLE_NO_ROOT_FS;

	if (strstr(t, " invoked oom-killer: "))
		return CONSOLE_OOM;

	if (startswith(t, "general protection fault") ||
	    startswith(t, "Oops: general protection fault"))
		return CONSOLE_GPF;
	if (is_stack_die(t))
		return CONSOLE_STACK;
	if (startswith(t, "Oops: ") || is_die_header(t))
		return CONSOLE_OOPS;
	return NONE;
}

/*
 * classify_text, and a title without printk timestamp in a boot cycle
 * whose kernel lines have them is user space's (an ssh banner, a test's
 * output), not a report: but initramfs' root messages come from user
 * space, and so does a copy of kmemleak's debugfs file, the only place
 * its leaks show unless kmemleak is verbose.  When the kernel printed
 * leaks itself in this boot cycle (verbose, as the agent has it), such a
 * copy repeats them and is not counted again.
 */
static int classify(struct console *c, const char *t, double ts,
		    bool after_cut)
{
	int kind = classify_text(t, after_cut);

	if (kind == CONSOLE_KMEMLEAK && ts >= 0)
		c->cycle_kmemleak_seen = true;
	if (kind != NONE && ts < 0 && c->cycle_ts_seen &&
	    kind != CONSOLE_NO_ROOT_FS &&
	    !(kind == CONSOLE_KMEMLEAK && !c->cycle_kmemleak_seen))
		return NONE;
	return kind;
}

/* Kinds whose report is opened and closed by a ===== line. */
static bool closes_on_separator(int kind)
{
	return kind == CONSOLE_KASAN || kind == CONSOLE_KFENCE ||
	       kind == CONSOLE_KCSAN || kind == CONSOLE_KMSAN ||
	       kind == CONSOLE_UBSAN;
}

/* Kinds of one line (and its indented continuation): no call trace. */
static bool one_line(int kind)
{
	return kind == CONSOLE_NETDEV_LEAK || kind == CONSOLE_BUSY_INODES;
}

/* Kinds that may print lines from several CPUs or tasks as one report
 * (backtraces of all CPUs). */
static bool multi_caller(int kind)
{
	return kind == CONSOLE_SOFT_LOCKUP || kind == CONSOLE_HARD_LOCKUP ||
	       kind == CONSOLE_RCU_STALL || kind == CONSOLE_HUNG_TASK ||
	       kind == CONSOLE_PANIC;
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
	       startswith(t, "Kernel Offset:") || startswith(t, "---[ ") ||
	       /* print_irqtrace_events(), after a WARN's trace on lockdep
		* kernels, before its end line */
	       startswith(t, "irq event stamp: ") ||
	       startswith(t, "hardirqs last ") ||
	       startswith(t, "softirqs last ") ||
	       startswith(t, "RIP  [<") || startswith(t, " RSP <");	/* 4.x */
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
	const char *s, *e;

	if (startswith(t, "PC is at "))	/* arm64 before 4.15 */
		t += strlen("PC is at ") - strlen("pc : ");
	else if (!startswith(t, "RIP: ") && !startswith(t, "EIP: ") &&
		 !startswith(t, "pc : "))
		return;
	s = t + 5;
	if (is_xdigit(s[0]) && is_xdigit(s[1]) && is_xdigit(s[2]) &&
	    is_xdigit(s[3]) && s[4] == ':')
		s += 5;
	/* 4.x: "RIP: 0010:[<ffffffff81>]  [<ffffffff81>] func+0x1/0x2" */
	while (s[0] == '[' && s[1] == '<' && strstr(s, ">]")) {
		s = strstr(s, ">]") + 2;
		while (*s == ' ')
			s++;
	}
	for (e = s; is_word(*e) || *e == '.' || *e == '$'; e++)
		;
	if (*e != '+')
		return;	/* no "func+0x1/0x2": arm64's "lr : [<...>]" */
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
	if (*t != ' ' && *t != '\t' && !(t[0] == '[' && t[1] == '<'))
		return false;	/* arm64 before 4.15 does not indent */
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

void console_normalise(struct strbuf *sb, const char *t)
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
	char hex[SHA256_HEX_LEN + 1];

	strbuf_addstr(&in, console_problem_kind_name(p->kind));
	strbuf_addch(&in, '\n');
	if (p->reason) {
		console_normalise(&in, p->reason);
		strbuf_addch(&in, '\n');
	}
	for (size_t i = 0; i < p->n_frames; i++) {
		strbuf_addstr(&in, p->frames[i]);
		strbuf_addch(&in, '\n');
	}
	if (!p->n_frames) {
		console_normalise(&in, p->header);
		strbuf_addch(&in, '\n');
	}
	if (sha256_hex(in.buf, in.len, hex) < 0)
		abort();	/* SHA-256 cannot fail but for lack of memory */
	memcpy(p->signature, hex, 16);	/* the first 8 bytes of the digest */
	p->signature[16] = '\0';
}

/* ------------------------------------------------------------ problems */

void console_report_release(struct console_problem *p)
{
	free((char *)p->header);
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

/* Is the report complete although no end line came?  Its call trace is
 * over (kmemleak's backtrace has no closing line), or it has none. */
static bool complete_without_marker(const struct block *b)
{
	if (expects_marker(b))
		return false;
	return b->trace == TRACE_DONE || one_line(b->p.kind) ||
	       b->p.kind == CONSOLE_NO_ROOT_FS ||
	       (b->p.kind == CONSOLE_KMEMLEAK && b->trace == TRACE_IN &&
		b->p.n_frames);
}

/* A line of the block's text starting with prefix? */
static bool block_has_line(const char *report, const char *prefix)
{
	for (const char *l = report; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l)
		if (startswith(l, prefix))
			return true;
	return false;
}

/* What a WARNING or kernel BUG is about: its message (between cut here
 * and the title since 4.x, after the title before) or its location. */
static void refine_kind(struct console_problem *p)
{
	static const struct {
		bool in_header;
		const char *text;
		int kind;
	} rules[] = {
		{ false, "ODEBUG: ", CONSOLE_ODEBUG },
		{ false, "refcount_t: ", CONSOLE_REFCOUNT },
		{ false, "list_add corruption", CONSOLE_LIST_CORRUPTION },
		{ false, "list_del corruption", CONSOLE_LIST_CORRUPTION },
		{ false, "list_add double add", CONSOLE_LIST_CORRUPTION },
		{ false, "VFS: Busy inodes after unmount", CONSOLE_BUSY_INODES },
		{ true, " at lib/debugobjects.c:", CONSOLE_ODEBUG },
		{ true, " at lib/refcount.c:", CONSOLE_REFCOUNT },
		{ true, " at lib/list_debug.c:", CONSOLE_LIST_CORRUPTION },
	};

	if (p->kind != CONSOLE_WARNING && p->kind != CONSOLE_BUG)
		return;
	for (size_t i = 0; i < ELEMENTSOF(rules); i++)
		if (rules[i].in_header ? strstr(p->header, rules[i].text) != NULL
				       : p->kind == CONSOLE_WARNING &&
						 block_has_line(p->report,
								rules[i].text)) {
			p->kind = rules[i].kind;
			return;
		}
}

void console_report_close(struct console *c, enum console_end end)
{
	struct block *b = &c->blk;
	struct console_problem *p = &b->p;

	if (!b->open)
		return;
	/* A report without end line whose call trace is complete is over,
	 * whatever comes next. */
	if ((end == CONSOLE_END_NEXT || end == CONSOLE_END_STREAM) &&
	    complete_without_marker(b))
		end = CONSOLE_END_SHAPE;
	p->end = end;
	/* A panic that got as far as its last words before a reboot
	 * (panic=N) never prints its end line: it is complete. */
	p->corrupted |= (end == CONSOLE_END_NEXT ||
			 end == CONSOLE_END_STREAM) &&
			!b->panic_tail && !b->panic_next;
	p->report = strbuf_detach(&b->report, &p->report_len);
	refine_kind(p);
	p->title = console_title(p->kind, p->header, p->report, p->frames,
				 p->n_frames);
	compute_signature(p);
	c->stats.problems++;
	if (p->kind == CONSOLE_KMEMLEAK)
		c->stats.kmemleak++;
	if (c->ops.on_problem)
		c->ops.on_problem(p, c->userdata);
	if (c->n_problems < CONSOLE_MAX_PROBLEMS) {
		c->problems[c->n_problems++] = *p;
		memset(p, 0, sizeof(*p));
	} else {
		c->stats.problems_dropped++;
		console_report_release(p);
	}
	memset(b, 0, sizeof(*b));
	b->report = (struct strbuf)STRBUF_INIT;
}

static void block_open(struct console *c, int kind, const char *t,
		       size_t len, double ts, unsigned long caller)
{
	struct block *b = &c->blk;
	struct console_problem *p = &b->p;
	struct opener *o = &c->prev;

	memset(b, 0, sizeof(*b));
	b->report = (struct strbuf)STRBUF_INIT;
	b->open = true;
	p->kind = kind;
	p->header = xstrndup_cut(t, len, CONSOLE_TITLE_MAX);
	b->caller = caller;
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
	if (kind != CONSOLE_OOPS && kind != CONSOLE_GPF &&
	    kind != CONSOLE_STACK && kind != CONSOLE_WARNING)
		return false;
	/* SLUB's report goes on with the WARNING __slab_err raises */
	if (kind == CONSOLE_WARNING)
		return b->slub && b->cut_opened && b->trace == TRACE_NONE;
	if (b->die_seen || b->trace != TRACE_NONE || !is_die_header(t))
		return false;
	return bk == CONSOLE_BUG || bk == CONSOLE_KASAN ||
	       bk == CONSOLE_KFENCE || bk == CONSOLE_STACK ||
	       bk == CONSOLE_OOPS;
}

/* Is this line still part of the open report (structure only)? */
static bool block_fits(struct block *b, const char *t)
{
	if (b->p.kind == CONSOLE_PANIC)
		b->panic_tail |= startswith(t, "Kernel Offset:") ||
				 startswith(t, "Rebooting in ");
	if (b->trace == TRACE_IN) {
		if (trace_line(b, t))
			return true;
		b->trace = TRACE_DONE;
		b->frames_done = true;
	}
	if (one_line(b->p.kind))
		return t[0] == ' ' || t[0] == '\t' ||
		       startswith(t, "ref_tracker: ");
	if (b->held_list)
		return startswith(t, " #");
	/* lockdep's "lock held when returning to user space!" prints no
	 * stack: it ends with its list of held locks */
	if (b->p.kind == CONSOLE_LOCKDEP &&
	    strstr(b->p.header, "returning to user space") &&
	    (strstr(t, " lock held by ") || strstr(t, " locks held by ")))
		b->held_list = true;
	if (startswith(t, "Call Trace:") || startswith(t, "Call trace:") ||
	    (b->p.kind == CONSOLE_KMEMLEAK && startswith(t, "  backtrace"))) {
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
	/* SLUB before 6.x: its "FIX cache: ..." lines after the stack */
	if (b->slub && startswith(t, "FIX "))
		return true;
	return is_trailer(t);
}

/* A line as console_report_line sees it. */
struct rline {
	const char *t;
	size_t len;
	double ts;
	unsigned long caller;
	int kind;
	bool sep, boundary;
};

/* Does the line come from another printk caller than the report's title
 * (another CPU or task printing at the same time)? */
static bool foreign(const struct block *b, const struct rline *l)
{
	return b->caller && l->caller && l->caller != b->caller &&
	       !multi_caller(b->p.kind);
}

/*
 * Offer a line to the open block.  Returns true when the block took it;
 * false when it closed the block and the line must be looked at afresh.
 */
static bool block_take(struct console *c, const struct rline *l)
{
	struct block *b = &c->blk;
	unsigned long lineno = c->lineno;
	const char *t = l->t;

	/* 6.x SLUB reports end in a WARNING of their own: its cut here
	 * line is part of the report */
	if (!l->boundary && is_cut_here(t) && b->slub && !b->cut_opened &&
	    b->trace == TRACE_NONE) {
		b->cut_opened = true;
		block_append(b, t, l->len, lineno);
		return true;
	}
	if (l->boundary || is_cut_here(t)) {
		console_report_close(c, CONSOLE_END_NEXT);
		return false;
	}
	if (foreign(b, l) && l->kind == NONE && !l->sep) {
		b->skipped++;
		b->p.corrupted = true;
		return true;
	}
	if (startswith(t, "---[ end trace") ||
	    startswith(t, "---[ end Kernel panic")) {
		block_append(b, t, l->len, lineno);
		console_report_close(c, CONSOLE_END_MARKER);
		return true;
	}
	if (l->sep) {
		if (b->sep_opened && closes_on_separator(b->p.kind)) {
			block_append(b, t, l->len, lineno);
			console_report_close(c, CONSOLE_END_MARKER);
			return true;
		}
		console_report_close(c, CONSOLE_END_NEXT);
		return false;
	}
	if (l->kind != NONE) {
		if (foreign(b, l) || !absorbs(b, l->kind, t)) {
			/* panic_on_warn, panic_on_oops: the report was over */
			b->panic_next = l->kind == CONSOLE_PANIC &&
					(b->trace == TRACE_DONE ||
					 (b->trace == TRACE_NONE &&
					  !expects_marker(b)));
			console_report_close(c, CONSOLE_END_NEXT);
			return false;
		}
		b->die_seen |= is_die_header(t);
		block_append(b, t, l->len, lineno);
		return true;
	}
	/* User space writing to the console while the kernel's output lags
	 * behind: its lines land inside the report but are not part of it. */
	if (b->has_ts && l->ts < 0) {
		b->skipped++;
		return true;
	}
	if ((!b->has_ts && l->ts >= 0) ||
	    (l->ts >= 0 && b->last_ts >= 0 && b->p.kind != CONSOLE_PANIC &&
	     l->ts - b->last_ts > CONSOLE_BLOCK_GAP_S) ||
	    !block_fits(b, b->p.kind == CONSOLE_KMEMLEAK ? kmemleak_text(t)
							   : t)) {
		console_report_close(c, CONSOLE_END_SHAPE);
		return false;
	}
	if (l->ts >= 0)
		b->last_ts = l->ts;
	block_append(b, t, l->len, lineno);
	return true;
}

static void opener_add(struct opener *o, const char *t, size_t len,
		       unsigned long lineno)
{
	strbuf_add(&o->text, t, utf8_cut(t, len, CONSOLE_TITLE_MAX));
	o->lineno[o->n] = lineno;
	o->end[o->n++] = o->text.len;
}

/* Lines by which lockdep says it stopped checking. */
static const struct prefix_rule lockdep_off_lines[] = {
	{ "INFO: lockdep is turned off.", 1 },
	{ "turning off the locking correctness validator.", 1 },
	{ "Disabling lock debugging due to kernel taint", 1 },
};

void console_report_line(struct console *c, const char *t, size_t len,
			 double ts, unsigned long caller, bool boundary)
{
	struct opener *o = &c->prev;
	struct rline l = {
		.t = t,
		.len = len,
		.ts = ts,
		.caller = caller,
		.sep = is_separator(t),
		.boundary = boundary,
	};
	bool slub;

	l.kind = classify(c, t, ts, o->valid && !o->sep);
	slub = l.kind == NONE && o->valid && o->sep && o->n == 1 &&
	       !(ts < 0 && c->cycle_ts_seen) && is_slub_title(t);
	if (slub)
		l.kind = CONSOLE_BUG;
	if (!c->lockdep_off &&
	    prefix_match(lockdep_off_lines, ELEMENTSOF(lockdep_off_lines),
			 t) != NONE) {
		c->lockdep_off = true;
		c->lockdep_off_lineno = c->lineno;
	}
	if (c->blk.open && block_take(c, &l))
		goto done;
	if (boundary)
		goto done;
	if (l.kind != NONE) {
		block_open(c, l.kind, t, len, ts, caller);
		c->blk.slub = slub;
		goto done;
	}
	if (l.sep || is_cut_here(t)) {
		o->valid = true;
		o->sep = l.sep;
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
