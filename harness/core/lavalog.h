/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lavalog: a finished LAVA job's log, read back (pure: buffers in, no I/O).
 *
 * The log is what LAVA's dispatcher writes, one record a line, each a YAML
 * flow mapping {dt, lvl, msg}: lava-run prints them on stderr as they are,
 * a LAVA server keeps them as a YAML sequence ("- {...}" lines) and its
 * REST API (jobs/<id>/logs/) returns that file.  Both are read here.
 *
 *   lvl "target"   a line of the device's console (the dispatcher's
 *                  ShellLogger dropped '\r' and ESC and wrote '"' as
 *                  '\"': undone here for the quotes)
 *   lvl "results"  a test case: {definition, case, result, ...}; the last,
 *                  definition "lava" case "job", is the job's outcome with
 *                  LAVA's error_type and error_msg when it failed
 *   lvl "info"     "Boot command: ..." is the QEMU command line the device
 *                  ran (-enable-kvm in it: KVM), "lava-dispatcher,
 *                  installed at version: V"
 *
 * lavalog_read feeds the console, line by line, into a struct bootlog:
 * the same chain a local boot's console goes through (core/bootlog), so
 * that a job gets the same milestones, problems, KTAP and verdict.
 * lavalog_end then says how the guest ended, from LAVA's outcome and what
 * the console showed (docs/lava.md, "Failure classes"):
 *
 *   the console shows a power-off, halt or reboot    stopped
 *   LAVA cancelled the job                           interrupted, or timeout
 *                                                    when the kernel panicked
 *                                                    (a panic outranks: PANIC)
 *   a LAVA time-out, or no job result at all         timeout
 *   any other LAVA error, no kernel output at all    infra (a 404 for an
 *                                                    image, a QEMU that did
 *                                                    not start): never the
 *                                                    kernel's failure
 *   "Connection closed" after kernel output          stopped: QEMU ended by
 *                                                    itself (-no-reboot
 *                                                    turns a reset or reboot
 *                                                    into an exit)
 *   another LAVA error after kernel output           infra
 */
#ifndef BP_LAVALOG_H
#define BP_LAVALOG_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/bootlog.h"
#include "core/verdict.h"
#include "util/strbuf.h"

struct lavalog {
	/* The device's console, '\n' after each target line (a message
	 * holding "\n" escapes is that many lines of it). */
	struct strbuf console;
	size_t records;		/* lines read as log records */
	size_t not_records;	/* non-empty lines that were not */
	size_t target_lines;
	/* UNIX times (seconds) from the records' dt; < 0: not seen. */
	double t_first, t_qemu, t_last;	/* first record, "Boot command", last */
	double t_init, t_done;	/* the console's INIT_STARTED, agent "done" */
	char *qemu_command;	/* NULL: no "Boot command" record */
	char *dispatcher;	/* the dispatcher's version, or NULL */
	json_object *cases;	/* every "results" record's msg, in order */
	/* The job's outcome (the "lava"/"job" case), NULL when the log has
	 * none (cut short); pointers into cases. */
	const char *job_result, *error_type, *error_msg;
};

/* Release what l owns (accepts a zeroed one). */
void lavalog_done(struct lavalog *l);

/*
 * Read len bytes of a job log into *l (zeroed first), feeding each console
 * line to bl (may be NULL) as it is read; bl is not finished here.
 * Returns 0; -EINVAL (err says why) when no line of buf is a log record.
 */
int lavalog_read(struct lavalog *l, const char *buf, size_t len,
		 struct bootlog *bl, struct strbuf *err);

/* The device ran QEMU with KVM ("-enable-kvm" or accel=kvm). */
bool lavalog_kvm(const struct lavalog *l);

/*
 * The machine type of the QEMU command ("-machine TYPE[,...]" or
 * "-machine type=TYPE,..."), written into buf; NULL when the command has
 * none or is not known (QEMU's default then: "pc" for x86).
 */
const char *lavalog_machine(const struct lavalog *l, char *buf, size_t size);

/* The sha256sum LAVA computed of its download of the image labelled
 * label ("kernel", "ramdisk", "rootfs"), or NULL. */
const char *lavalog_download_sha256(const struct lavalog *l, const char *label);

/*
 * How the guest ended (the table above), after bootlog_finish(bl): *ret
 * and a reason (LAVA's words) in why.
 */
void lavalog_end(const struct lavalog *l, const struct bootlog *bl,
		 enum boot_end *ret, char *why, size_t n);

/* Did LAVA's outcome say it timed out (a LAVATimeout, or an error whose
 * message says "timed out")? */
bool lavalog_timed_out(const struct lavalog *l);

/* UNIX seconds of a LAVA dt ("2026-12-06T03:50:34.045526", UTC); -1 when
 * it is not one. */
double lavalog_time(const char *dt);

#endif
