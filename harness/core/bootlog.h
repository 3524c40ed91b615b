/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootlog: one boot's console log, from bytes to a verdict (pure: no I/O,
 * no logging).  The single chain every reader of a console uses: the live
 * boot (engine/boot.c), triage of recorded logs (verbs/triage.c), and any
 * reader of a remote job's log, so that they cannot judge the same log
 * differently.
 *
 *	bytes ──► console parser ──► cleaned lines, milestones, problems
 *	                 │
 *	                 └── agent lines only ──► KTAP parser ──► tests
 *
 *	bootlog_verdict_input: milestones + problems + KTAP + what the caller
 *	knows of how the guest ended ──► struct verdict_input
 *
 * The one rule about which lines reach KTAP: a line with a printk
 * timestamp is a kernel message, never the agent's KTAP or notes, whatever
 * it says (the harness boots with printk.time=1; the agent writes to
 * /dev/console without timestamps, and a kernel cannot print a line
 * without one).  KTAP a kernel prints itself (in-kernel KUnit) is
 * therefore not counted as test results: it is kernel output.  The same
 * lines are the ones searched for the agent's "done" line.
 *
 * Ownership: the bootlog owns its console and KTAP parsers; the pointers
 * bootlog_console() and bootlog_ktap() return, and everything queried
 * through them, stay valid until bootlog_free().  Event structs passed to
 * the callbacks are owned by the parsers and valid during the call only.
 */
#ifndef BP_BOOTLOG_H
#define BP_BOOTLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/console.h"
#include "core/ktap.h"
#include "core/verdict.h"
#include "util/cleanup.h"

/* KTAP tests kept: the agent runs a handful of scenarios with tens of
 * checks; a guest announcing a plan of billions gets placeholders up to
 * this, not KTAP_DEFAULT_MAX_TESTS (docs/reliability.md). */
#define BOOTLOG_KTAP_MAX_TESTS 4096

/*
 * Callbacks, each may be NULL; userdata is bootlog_new's.  They are called
 * synchronously from bootlog_feed/bootlog_finish and must not call back
 * into the same bootlog.
 *   on_line       every cleaned line (console_line); agent is true when
 *                 the line is the agent's (no printk timestamp): it was
 *                 fed to the KTAP parser just before this call;
 *   on_milestone  as console_ops;
 *   on_problem    as console_ops;
 *   on_ktap       every KTAP parser event.
 */
struct bootlog_ops {
	void (*on_line)(const struct console_line *line, bool agent,
			void *userdata);
	void (*on_milestone)(const struct console_milestone_event *ev,
			     void *userdata);
	void (*on_problem)(const struct console_problem *p, void *userdata);
	void (*on_ktap)(const struct ktap_event *ev, void *userdata);
};

struct bootlog;

/* A new chain; ops (copied) may be NULL.  NULL on allocation failure
 * only.  Free with bootlog_free (accepts NULL). */
struct bootlog *bootlog_new(const struct bootlog_ops *ops, void *userdata);
void bootlog_free(struct bootlog *b);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct bootlog *, bootlog_free)
#define _cleanup_bootlog_ _cleanup_(bootlog_freep)

/* Feed n bytes of console output (any chunking).  0, or -EINVAL as
 * console_feed (NULL b, NULL buf with n > 0, after bootlog_finish). */
int bootlog_feed(struct bootlog *b, const void *buf, size_t n);
/* End of the stream: finishes the console parser, then the KTAP parser.
 * Idempotent.  0, -EINVAL for a NULL b, or -ENOMEM from ktap_finish. */
int bootlog_finish(struct bootlog *b);

/* The parsers, owned by b (see above). */
const struct console *bootlog_console(const struct bootlog *b);
const struct ktap *bootlog_ktap(const struct bootlog *b);

/* The agent printed BP_AGENT_DONE_LINE (scenarios/contract.h) on an
 * agent line. */
bool bootlog_agent_said_done(const struct bootlog *b);
/*
 * What the agent said of the kernel's own debug checkers after the
 * scenarios (contract.h: BP_AGENT_KMEMLEAK_*, BP_AGENT_LOCKDEP_*).  The
 * leaks themselves are KMEMLEAK problems, printed by the kernel.
 */
enum bootlog_lockdep {
	BOOTLOG_LOCKDEP_UNKNOWN, /* no note: no lockdep, or no agent */
	BOOTLOG_LOCKDEP_ON,
	BOOTLOG_LOCKDEP_OFF,	 /* it turned itself off after a report */
};

struct bootlog_debug {
	bool kmemleak_scanned;	 /* "kmemleak: leaks N" */
	unsigned long kmemleak_leaks; /* its N */
	char kmemleak_no_scan[128]; /* why a scan failed; "" when none */
	enum bootlog_lockdep lockdep;
};
const struct bootlog_debug *bootlog_debug(const struct bootlog *b);
/* "on", "off", or NULL for BOOTLOG_LOCKDEP_UNKNOWN. */
const char *bootlog_lockdep_name(enum bootlog_lockdep l);

/*
 * Memory as the boot reported it: the kernel's "Memory: AK/TK available
 * (...)" line (mm/mm_init.c: what the page allocator got, of the RAM it
 * saw) and the agent's note of MemAvailable at its start
 * (contract.h BP_AGENT_MEMAVAILABLE).  -1: not seen.
 */
struct bootlog_memory {
	long kernel_available_kb, kernel_total_kb;
	long agent_memavailable_kb;
};
const struct bootlog_memory *bootlog_memory(const struct bootlog *b);

/* Does the log look like a kernel console at all: a milestone, a printk
 * timestamp, a problem or a KTAP document?  (A recorded file that shows
 * none of these is not a console log.) */
bool bootlog_is_console(const struct bootlog *b);
/*
 * How a recorded log ended, for a reader that did not watch the guest:
 * BOOT_END_STOPPED when it shows a power-off, halt or reboot, else
 * BOOT_END_TIMEOUT (the log just stops).
 */
enum boot_end bootlog_recorded_end(const struct bootlog *b);
/*
 * The KTAP result fails: there was KTAP output and a test failed or
 * errored, or the plan was not completed.  After bootlog_finish; totals
 * may be NULL, else it gets ktap_test_totals of the root.
 */
bool bootlog_ktap_failed(const struct bootlog *b, struct ktap_totals *totals);

/*
 * What the log alone cannot tell, from the caller: how the guest ended
 * (a recorded log: bootlog_recorded_end, timeout_s 0), whether an agent
 * was told to run, and the problem kinds allowed.
 */
struct bootlog_context {
	enum boot_end end;
	const char *end_reason;	/* may be NULL */
	bool expect_agent;
	unsigned timeout_s;	/* 0: a recorded log */
	const char *const *allowed;
	size_t n_allowed;
};

/*
 * Fill *ret from what b saw (call after bootlog_finish) and ctx.  The
 * problems go to problems[] (CONSOLE_MAX_PROBLEMS entries), which
 * ret->problems then points to, as do its strings to b's: valid while
 * both live.  Always succeeds.
 */
void bootlog_verdict_input(const struct bootlog *b,
			   const struct bootlog_context *ctx,
			   struct verdict_problem problems[CONSOLE_MAX_PROBLEMS],
			   struct verdict_input *ret);
/* bootlog_verdict_input, then verdict_decide.  Always succeeds. */
void bootlog_decide(const struct bootlog *b, const struct bootlog_context *ctx,
		    struct verdict *ret);

#endif
