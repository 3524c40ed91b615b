/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * console: incremental parser of a serial console byte stream (pure).
 *
 * Bytes arrive in any chunking (console_feed); the parser cuts them into
 * lines, cleans each line, parses the printk timestamp off it and reports
 * three kinds of events through callbacks:
 *
 *   on_line       every line, cleaned and without its timestamp (a KTAP
 *                 parser can be fed from here);
 *   on_milestone  boot milestones (firmware, kernel banner, root mounted,
 *                 init started, first KTAP line, power-off/halt/reboot);
 *   on_problem    kernel problem reports (panic, oops, BUG, WARNING...),
 *                 delivered once the report block has ended, with the
 *                 whole block and a signature.
 *
 * Milestones and problems are also kept in the parser for later queries.
 *
 * Sources, split along the two things the parser finds: console.c cuts
 * and cleans lines and finds milestones (and holds this API);
 * console_report.c finds problem reports, their blocks and signatures.
 * Their shared state is in console_impl.h, which nothing else includes.
 * Boot and triage do not assemble this parser with KTAP themselves: they
 * use core/bootlog.h.
 *
 * Lines.  A line ends at '\n' only, so line numbers (1-based) are those of
 * the log file (`sed -n Np`).  Cleaning: '\r' is dropped (a lone '\r' does
 * not end a line); 7-bit escape sequences are removed (CSI `ESC [ ... final`,
 * OSC/DCS/SOS/PM/APC strings up to BEL or `ESC \`, `ESC` + intermediates +
 * final, two-byte escapes such as SeaBIOS' `ESC c`); a '\n' always ends the
 * line, even inside an unterminated escape sequence; C0 control characters
 * other than '\t', DEL and the C1 controls U+0080..U+009F are removed; every
 * byte that is not part of a valid UTF-8 sequence (overlong forms and
 * surrogates included) is replaced by U+FFFD, and so are the noncharacters
 * U+FFFE and U+FFFF (not allowed in XML).  Trailing blanks are kept.
 *
 * A kernel message that starts after other text on the same line (user
 * space printed a partial line, then the kernel printed "[%5lu.%06lu] ...")
 * is split off: the text before it and the message are delivered as two
 * lines with the same line number.  So is the text after kdb's prompt
 * ("[0]kdb> ", printed without a newline) at the start of a line: gdb
 * took over from kdb and the next output (the agent's KTAP) landed there.
 *
 * Timestamps.  An optional syslog prefix `<N>`, then `[  seconds.micros]`,
 * then an optional caller id `[    T123]` / `[     C1]` and one space are
 * parsed off the start of the cleaned line; the timestamp is a double in
 * seconds (parsed without the C library locale), -1 when the line has none.
 *
 * Boot cycles.  A reboot is visible on a console: "reboot: Restarting
 * system", or firmware/kernel banner text after a kernel banner.  Each
 * milestone is reported once per boot cycle (the first time it is reached
 * in that cycle).
 *
 * Problem report blocks.  A block starts at the title line, or at a
 * `=====...` separator line right before it, or at a
 * `------------[ cut here ]------------` line with at most 7 lines between
 * it and the title (the message of WARN(1, fmt) comes there), and ends (end kind in
 * parentheses):
 *   - at `---[ end trace ...]---` or `---[ end Kernel panic ...]---`, or
 *     at the closing `=====` line of a report opened by one (KASAN, KFENCE,
 *     KCSAN, KMSAN, UBSAN before 6.5) (CONSOLE_END_MARKER, line included);
 *   - when the report visibly ends: after its call trace (a line that is
 *     neither a trace entry nor a register/trailer line; not for PANIC,
 *     which goes on to its end line), or at a timestamped line when the
 *     title had none, or after a gap of more than CONSOLE_BLOCK_GAP_S
 *     seconds (not for PANIC) (CONSOLE_END_SHAPE, line excluded);
 *   - for NETDEV_LEAK and BUSY_INODES' line, at the first line that is
 *     neither indented nor "ref_tracker: " (CONSOLE_END_SHAPE);
 *   - at the next report, a "cut here" line, a kernel banner, firmware
 *     output or a reboot/power-off message (CONSOLE_END_NEXT);
 *   - at console_finish (CONSOLE_END_STREAM: the report was cut off).
 * A report that prints no end line (soft lockup, hung task, RCU stall...:
 * not opened by "cut here" or =====, no die header, not PANIC) and whose
 * call trace is complete ends CONSOLE_END_SHAPE even when the next report
 * or the end of the stream is what closes it; so NEXT and STREAM always
 * mean the report was interrupted.
 * Lines without timestamp inside a report whose title has one are user
 * space writing to the same console while the kernel's output lags behind
 * (under TCG they land in the middle of reports): they are skipped, neither
 * part of the report nor ending it (counted in report_lines_skipped).
 * Nesting: a `BUG:`/`kernel BUG at` report followed, before its call trace,
 * by the die header (`Oops: ...: 0000 [#1] ...`, or on kernels before 6.7
 * `invalid opcode: 0000 [#1] ...`) is ONE problem of the first kind.  A
 * `Kernel panic - not syncing:` always starts a separate PANIC problem (e.g.
 * "Fatal exception" after an oops).
 *
 * Signatures: 16 lower-case hex digits, the first 8 bytes of the SHA-256 of
 * the kind name, for PANIC the normalised reason, and the function names of
 * the report: the `RIP:`/`EIP:` function before the call trace, then the
 * reliable entries of its first call trace in order (KFENCE, KCSAN, KMSAN:
 * the first stack after the title, which has no "Call Trace:" line) (`?` entries, offsets, addresses,
 * `[module]` names and compiler suffixes such as `.isra.0` dropped, frames
 * inside <IRQ>/<NMI>/<SOFTIRQ> skipped for the lockup/stall kinds whose
 * detector runs there, consecutive duplicates merged), at most
 * CONSOLE_MAX_FRAMES.  A report without frames hashes its normalised title
 * instead.  Normalised: numbers (decimal, 0x-hex, and hex words of 8+
 * digits) become "N", so PIDs, CPUs, addresses and durations do not count.
 *
 * Kinds.  Lockdep and RCU-lockdep splats are LOCKDEP only when their title
 * is one of lockdep's (kernel/locking/lockdep.c), after "WARNING: " or in
 * 4.x's "[ INFO: ... ]"; any other "WARNING: ..." between ===== lines (a
 * deprecation banner) is no report.  A WARNING or kernel BUG becomes
 * ODEBUG, REFCOUNT, LIST_CORRUPTION or BUSY_INODES by its message ("ODEBUG:
 * ", "refcount_t: ", "list_add corruption", "VFS: Busy inodes...") or its
 * location (at lib/debugobjects.c, lib/refcount.c, lib/list_debug.c).  The
 * "unable to handle" family (x86 "BUG: unable to handle page fault / kernel
 * paging request / kernel NULL pointer dereference", "BUG: kernel NULL
 * pointer dereference", arm64 "Unable to handle kernel ... at virtual
 * address") is BUG, as is arm64's "kernel BUG at"; arm64's own die
 * ("Internal error: Oops...") and 4.x "Unhandled fault" are OOPS; both
 * absorb the die header after them like x86.  SLUB's own report (slab
 * debugging: "BUG <cache> (<taint>): <message>" right after a ===== line)
 * is BUG; it takes the WARNING __slab_err raises after it (6.x, cut here
 * to end trace) or its stack dump and "FIX <cache>: ..." lines (before),
 * and is titled "SLUB: <message> in FUNCTION".  Panics stay PANIC whatever
 * their reason (stack-protector, "corrupted stack end"), so the boot's
 * verdict is PANIC; their title names the reason.  STACK is the stack guard
 * page and double fault reports (the "Machine halted" panic after a double
 * fault is a separate PANIC).  kmemleak: one KMEMLEAK problem per
 * "unreferenced object" (with or without its "kmemleak: " prefix, a copy
 * of the debugfs file without timestamps included), its block the
 * object's lines, its frames from "backtrace:"; the "N new suspected
 * memory leaks" line is no report (console_stats.kmemleak counts them).
 * A title line without printk timestamp in a boot cycle whose kernel lines
 * have one is user space's and opens no report (but root-fs messages of an
 * initramfs and kmemleak's debugfs copy do).  Lines from another printk
 * caller (CONFIG_PRINTK_CALLER's [T123]/[C1]) inside a report of one task
 * or CPU are left out of it and make it corrupted (not for lockups, stalls,
 * hung tasks and panics, which print other CPUs' backtraces).
 *
 * Titles (console_title.c): short and stable across runs and kernels, the
 * kind's words and " in FUNCTION", FUNCTION being the first function that
 * is not reporting machinery (dump_stack, __warn, report_bug, kasan_report,
 * lock_acquire, mutex_lock, __might_resched, kmalloc, refcount_warn_saturate,
 * __list_add_valid_or_report, debug_print_object, panic...; one table in
 * console_title.c): the report's own location first (a WARNING's "at ...
 * func+0x", a sanitizer's "in func+0x", for lockdep the lock's ", at:
 * func"), else the frames.  E.g. "WARNING in foo", "KASAN: slab-use-after-free
 * Read in foo", "possible deadlock in foo", "memory leak in foo",
 * "BUG: unable to handle kernel NULL pointer dereference in foo",
 * "KCSAN: data-race in f1 / f2", "kernel panic: REASON" (first sentence),
 * "VFS: Busy inodes after unmount of FSTYPE" (umount's stack names no
 * culprit; the file system type does).
 * Offsets, "[...]" groups are dropped and numbers made "N": no address,
 * PID or CPU is in a title.  At most CONSOLE_TITLE_MAX bytes.
 *
 * Corrupted: a problem is corrupted when it ended NEXT or STREAM (cut by
 * another report, a boot boundary or the end of the stream; except a panic
 * that printed "Kernel Offset:" or "Rebooting in" before the machine
 * rebooted, and a report whose trace was over when a panic_on_warn-style
 * panic followed), or when another printk caller's lines came inside it.
 * It is still one problem, never dropped.
 *
 * Lockdep off: "INFO: lockdep is turned off.", "turning off the locking
 * correctness validator." and "Disabling lock debugging due to kernel
 * taint" are no problems but are recorded (console_lockdep_off).
 *
 * Bounds (a guest that writes forever must not grow memory; everything
 * dropped is counted in struct console_stats):
 */
#ifndef BP_CONSOLE_H
#define BP_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/cleanup.h"

/* Bytes of a line kept (raw, escapes removed, and again after cleaning);
 * the rest of a longer line is dropped and counted. */
#define CONSOLE_LINE_MAX (64 * 1024)
/* Lines and bytes of one report block kept; further lines of the block are
 * still parsed (frames, end markers) but not stored. */
#define CONSOLE_REPORT_MAX_LINES 1024
#define CONSOLE_REPORT_MAX_BYTES (64 * 1024)
/* Problems kept for queries; later ones still reach on_problem. */
#define CONSOLE_MAX_PROBLEMS 64
/* Call trace functions kept per problem (and hashed). */
#define CONSOLE_MAX_FRAMES 16
/* Bytes kept of a function name, a problem title or panic reason, and of
 * a milestone line (the kernel banner is ~200 bytes). */
#define CONSOLE_FRAME_MAX 128
#define CONSOLE_TITLE_MAX 1024
#define CONSOLE_MILESTONE_TEXT_MAX 1024
/* A report without an end marker is over after this much silence. */
#define CONSOLE_BLOCK_GAP_S 5.0

enum console_milestone {
	CONSOLE_MS_FIRMWARE,	  /* SeaBIOS, iPXE, "Booting from ", OVMF's
				     "BdsDxe: ", "EFI stub: " */
	CONSOLE_MS_KERNEL_BANNER, /* "Linux version <digit>..." */
	CONSOLE_MS_ROOT_MOUNTED,  /* "VFS: Mounted root (", or after init
				     started: an ext2/3/4 "mounted filesystem"
				     or XFS "Ending clean mount" */
	CONSOLE_MS_INIT_STARTED,  /* "Run <path> as init process" */
	CONSOLE_MS_KTAP_START,	  /* first "KTAP version " / "TAP version " */
	CONSOLE_MS_POWER_OFF,	  /* "reboot: Power down" */
	CONSOLE_MS_HALT,	  /* "reboot: System halted" */
	CONSOLE_MS_REBOOT,	  /* "reboot: Restarting system" */
	_CONSOLE_MS_MAX,
};

enum console_problem_kind {
	CONSOLE_PANIC,	     /* Kernel panic - not syncing: REASON */
	CONSOLE_OOPS,	     /* Oops: / die header "...: 0000 [#1]" */
	CONSOLE_BUG,	     /* BUG: ..., kernel BUG at ... */
	CONSOLE_WARNING,     /* WARNING: CPU: ... at ..., WARNING: at ... */
	CONSOLE_GPF,	     /* general protection fault */
	CONSOLE_UBSAN,	     /* UBSAN: ... */
	CONSOLE_KFENCE,	     /* BUG: KFENCE: ... */
	CONSOLE_KASAN,	     /* BUG: KASAN: ... */
	CONSOLE_SOFT_LOCKUP, /* watchdog: BUG: soft lockup - CPU#0 stuck */
	CONSOLE_HARD_LOCKUP, /* watchdog: Watchdog detected hard LOCKUP */
	CONSOLE_HUNG_TASK,   /* INFO: task X:N blocked for more than */
	CONSOLE_RCU_STALL,   /* rcu: INFO: ... detected stalls / stall */
	CONSOLE_NO_ROOT_FS,  /* VFS: Cannot open root device / Unable to
				mount root / No filesystem could mount root /
				initramfs "Gave up waiting for root" / "ALERT!
				... does not exist" */
	CONSOLE_LOCKDEP,     /* lockdep and RCU-lockdep splats: a lockdep
				title right after a ===== line ("WARNING:
				possible circular locking dependency
				detected", 4.x "[ INFO: ... ]"), "INFO:
				trying to register non-static key.",
				"BUG: MAX_LOCKDEP_... too low!" */
	CONSOLE_KCSAN,	     /* BUG: KCSAN: ... */
	CONSOLE_KMSAN,	     /* BUG: KMSAN: ... */
	CONSOLE_OOM,	     /* ... invoked oom-killer: */
	CONSOLE_KMEMLEAK,    /* [kmemleak: ]unreferenced object 0x... (size
				N): one problem per object */
	CONSOLE_ODEBUG,	     /* a WARNING whose message is "ODEBUG: ..." */
	CONSOLE_REFCOUNT,    /* a WARNING whose message is "refcount_t: ..."
				(or at lib/refcount.c) */
	CONSOLE_LIST_CORRUPTION, /* "list_add corruption." / "list_del
				corruption," WARNING, or kernel BUG / WARNING
				at lib/list_debug.c */
	CONSOLE_BAD_PAGE,    /* BUG: Bad page state / Bad page map / Bad
				page cache in process ... */
	CONSOLE_ATOMIC,	     /* BUG: sleeping function called from invalid
				context / scheduling while atomic / using
				smp_processor_id() in preemptible ... */
	CONSOLE_STACK,	     /* BUG: ... stack guard page was hit, kernel
				stack overflow, PANIC: double fault */
	CONSOLE_NETDEV_LEAK, /* unregister_netdevice: waiting for DEV to
				become free */
	CONSOLE_BUSY_INODES, /* VFS: Busy inodes after unmount (a WARNING
				message in 6.x, a line of its own before) */
	_CONSOLE_PROBLEM_MAX,
};

enum console_end {
	CONSOLE_END_MARKER, /* explicit end line (included) */
	CONSOLE_END_SHAPE,  /* the report visibly ended */
	CONSOLE_END_NEXT,   /* another report or boot event began */
	CONSOLE_END_STREAM, /* the stream ended inside the report */
	_CONSOLE_END_MAX,
};

/* Upper-case names ("PANIC", "SOFT_LOCKUP", "KERNEL_BANNER", "MARKER");
 * NULL for an out-of-range value.  Static strings. */
const char *console_problem_kind_name(enum console_problem_kind k);
const char *console_milestone_name(enum console_milestone m);
const char *console_end_name(enum console_end e);
/* Case-insensitive reverse look-ups: 0 or -EINVAL. */
int console_problem_kind_from_string(const char *s,
				     enum console_problem_kind *ret);
int console_milestone_from_string(const char *s, enum console_milestone *ret);

struct console_line {
	const char *text; /* cleaned, without timestamp, NUL-terminated */
	size_t len;
	unsigned long lineno; /* 1-based */
	double timestamp;     /* seconds, -1 when none */
	bool truncated;	      /* longer than CONSOLE_LINE_MAX */
};

struct console_milestone_event {
	enum console_milestone milestone;
	const char *text; /* the line (KERNEL_BANNER: the whole banner) */
	unsigned long lineno;
	double timestamp;
};

struct console_problem {
	enum console_problem_kind kind;
	const char *header; /* the report's first line after any cut here */
	const char *title;  /* short and stable: see "Titles" above */
	const char *reason; /* PANIC: text after "not syncing: "; else NULL */
	unsigned long lineno; /* of the title */
	double timestamp;     /* of the title, -1 when none */
	/* The block: its lines (cleaned, without timestamps), each ended by
	 * '\n', from first_lineno to last_lineno (skipped lines left out). */
	const char *report;
	size_t report_len;
	unsigned long first_lineno, last_lineno;
	size_t report_lines;	     /* lines in the block */
	size_t report_lines_dropped; /* of which not kept (bounds) */
	size_t report_lines_skipped; /* user-space lines (and other callers'
					lines) inside, not counted */
	enum console_end end;
	/* The report is incomplete or mixed with other output: it ended NEXT
	 * or STREAM (cut by another report, a reboot or the end of the
	 * stream), or lines of another printk caller ([T123]/[C1]) came
	 * inside it (two CPUs printing at once; those lines are left out
	 * and counted in report_lines_skipped). */
	bool corrupted;
	const char *frames[CONSOLE_MAX_FRAMES];
	size_t n_frames;
	char signature[17];
};

/* Callbacks may be NULL.  Event structs and their strings are owned by the
 * parser and valid during the call only.  A callback must not call
 * console_feed/console_finish/console_free on the same parser. */
struct console_ops {
	void (*on_line)(const struct console_line *line, void *userdata);
	void (*on_milestone)(const struct console_milestone_event *ev,
			     void *userdata);
	void (*on_problem)(const struct console_problem *p, void *userdata);
};

struct console_stats {
	uint64_t bytes;		       /* fed */
	unsigned long lines;	       /* delivered */
	unsigned long timestamped;     /* lines with a printk timestamp */
	unsigned long lines_split;     /* kernel messages split off mid-line */
	unsigned long lines_truncated; /* lines over CONSOLE_LINE_MAX */
	uint64_t bytes_truncated;      /* bytes dropped from those lines */
	unsigned long escapes;	       /* escape sequences removed */
	unsigned long controls;	       /* control characters removed */
	unsigned long invalid_utf8;    /* bytes (and U+FFFE/U+FFFF) made
					U+FFFD */
	unsigned long problems;	       /* problems reported */
	unsigned long problems_dropped; /* beyond CONSOLE_MAX_PROBLEMS */
	unsigned long boots;	       /* boot cycles seen (banners/firmware) */
	unsigned long kmemleak;	       /* KMEMLEAK problems reported (one per
					  unreferenced object) */
};

struct console;

/*
 * A new parser; ops (copied) and userdata may be NULL.  Returns NULL on
 * allocation failure only.  Free with console_free.
 */
struct console *console_new(const struct console_ops *ops, void *userdata);
/* Accepts NULL. */
void console_free(struct console *c);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct console *, console_free);
#define _cleanup_console_ _cleanup_(console_freep)

/*
 * Feed n bytes (any content, any chunking).  Returns 0; -EINVAL when c is
 * NULL, buf is NULL with n > 0, or the stream was already finished.
 */
int console_feed(struct console *c, const void *buf, size_t n);
/*
 * End of stream: deliver the last partial line (if any byte followed the
 * last '\n'), close an open report (CONSOLE_END_STREAM).  Idempotent.
 * Returns 0, -EINVAL when c is NULL.
 */
int console_finish(struct console *c);

/* Queries, valid until console_free.  Returned pointers are owned by c. */
/* Bit (1u << m) set for every milestone reached. */
unsigned console_milestones(const struct console *c);
/* The first time m was reached, or NULL. */
const struct console_milestone_event *
console_milestone_first(const struct console *c, enum console_milestone m);
/* The milestone reached last in the stream, or NULL when none. */
const struct console_milestone_event *
console_last_milestone(const struct console *c);
/* The first kernel banner line ("Linux version ..."), or NULL. */
const char *console_banner(const struct console *c);
/* Problems kept (at most CONSOLE_MAX_PROBLEMS), in stream order. */
size_t console_n_problems(const struct console *c);
/* NULL when i is out of range. */
const struct console_problem *console_problem(const struct console *c,
					      size_t i);
/*
 * Did lockdep turn itself off ("INFO: lockdep is turned off.", "turning
 * off the locking correctness validator.", "Disabling lock debugging due
 * to kernel taint")?  Then later silence about locking is not a clean
 * bill.  *ret_lineno (may be NULL) gets the first such line's number,
 * written only when true.
 */
bool console_lockdep_off(const struct console *c, unsigned long *ret_lineno);
/* Is a report still open (only before console_finish)? */
bool console_in_report(const struct console *c);
void console_get_stats(const struct console *c, struct console_stats *ret);

#endif
