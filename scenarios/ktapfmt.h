/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Formatting of KTAP v1 lines for the agent.  Pure: formats into a caller's
 * buffer, no I/O; compiled into the agent and into a host unit test.
 *
 * Every line formatted here ends with exactly one '\n' and contains no
 * other newline or control character (they become ' '), so a single
 * write() of it is one console line.  Lines longer than the buffer are cut
 * (the newline is kept).
 */
#ifndef BP_AGENT_KTAPFMT_H
#define BP_AGENT_KTAPFMT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define KTAPFMT_INDENT 4
#define KTAPFMT_LINE_MAX 1024
#define KTAPFMT_REASON_MAX 256

/*
 * Format indent spaces + the printf-formatted text + '\n' into buf (size n,
 * n >= 2).  Returns the length written (excluding the NUL).
 */
size_t ktapfmt_vline(char *buf, size_t n, unsigned indent, const char *fmt,
		 va_list ap) __attribute__((format(printf, 4, 0)));
size_t ktapfmt_line(char *buf, size_t n, unsigned indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A result line: "<indent>ok|not ok <num> <name>[ # <directive>[ <reason>]]".
 * '#' in name is replaced by '_' (KTAP forbids it in a description);
 * directive is NULL, "SKIP", "TIMEOUT" or "ERROR"; reason may be NULL.
 */
size_t ktapfmt_result(char *buf, size_t n, unsigned indent, bool ok,
		       unsigned num, const char *name, const char *directive,
		       const char *reason);

#endif
