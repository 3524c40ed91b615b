/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recjson: the JSON form (json-c) of what the console and KTAP parsers
 * found, shared by `triage --json` and run.json (pure).  The shapes are
 * documented in docs/results.md.
 *
 * Every function returns a new json_object owned by the caller (release
 * with json_object_put), or NULL on allocation failure.
 */
#ifndef BP_RECJSON_H
#define BP_RECJSON_H

#include <stdbool.h>

#include <json-c/json.h>

#include "core/console.h"
#include "core/ktap.h"

/* { kind, title, reason, line, timestamp, signature, end, frames[],
 *   first_line, last_line, report (when with_report) } */
json_object *recjson_problem(const struct console_problem *p,
			     bool with_report);

/* [ { name, line, timestamp, text } ] in boot order, first of each. */
json_object *recjson_milestones(const struct console *c);

/* { name, status, directive, reason, diagnostics[], subtests[] } —
 * recursively; the root gives { status, subtests, totals, complete }. */
json_object *recjson_ktap_test(const struct ktap_test *t);
json_object *recjson_ktap(const struct ktap *k);

struct bootlog;
/* The kernel's debug checkers: { lockdep: "on"|"off"|null (the agent's
 * note, bootlog_debug), lockdep_off_line: the console line where the
 * kernel said lockdep stopped checking (console_lockdep_off) or null,
 * kmemleak: { reported: the kernel's KMEMLEAK reports, scanned, leaks,
 * no_scan (the agent's) } or null when neither said anything of it }. */
json_object *recjson_debug(const struct bootlog *b);

/* The boot's "memory": { kernel_available_kb, kernel_total_kb,
 * agent_memavailable_kb }, each null when not seen (bootlog_memory). */
json_object *recjson_memory(const struct bootlog *b);

/* A double printed with 3 decimals ("43.813", not 43.813000000000002). */
json_object *recjson_seconds(double v);

/* Add a string member, or null when s is NULL. */
void recjson_add_str(json_object *o, const char *key, const char *s);

#endif
