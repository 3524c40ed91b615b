/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages for the user.  Only the verb layer and adapters' callers report;
 * pure modules never log.  Everything goes to stderr so that a verb's --json
 * output on stdout shares no stream with logs (as bpftool does).
 *
 * log_error_errno() returns -abs(err) so a verb can write
 *	return log_error_errno(r, "cannot open %s", path);
 */
#ifndef BP_LOG_H
#define BP_LOG_H

#include "cleanup.h"

enum log_level {
	LOG_LVL_ERROR,
	LOG_LVL_WARN,
	LOG_LVL_INFO,
	LOG_LVL_DEBUG,
};

/* Messages above this level are dropped; BOOTPROOF_DEBUG=1 sets DEBUG. */
extern enum log_level log_max_level;
void log_setup(void);

void log_msg(enum log_level lvl, const char *fmt, ...) _printf_(2, 3);
int log_errno(enum log_level lvl, int err, const char *fmt, ...) _printf_(3, 4);

#define log_error(...) log_msg(LOG_LVL_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_LVL_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LVL_DEBUG, __VA_ARGS__)
#define log_error_errno(e, ...) log_errno(LOG_LVL_ERROR, (e), __VA_ARGS__)
#define log_warn_errno(e, ...) log_errno(LOG_LVL_WARN, (e), __VA_ARGS__)
#define log_debug_errno(e, ...) log_errno(LOG_LVL_DEBUG, (e), __VA_ARGS__)

#endif
