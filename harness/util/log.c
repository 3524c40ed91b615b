// SPDX-License-Identifier: GPL-2.0-or-later
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum log_level log_max_level = LOG_LVL_INFO;

void log_setup(void)
{
	const char *e = getenv("BOOTPROOF_DEBUG");

	if (e && *e && strcmp(e, "0"))
		log_max_level = LOG_LVL_DEBUG;
}

static const char *const prefix[] = {
	[LOG_LVL_ERROR] = "error: ",
	[LOG_LVL_WARN] = "warning: ",
	[LOG_LVL_INFO] = "",
	[LOG_LVL_DEBUG] = "debug: ",
};

static void vlog(enum log_level lvl, int err, const char *fmt, va_list ap)
{
	if (lvl > log_max_level)
		return;
	fprintf(stderr, "bootproof: %s", prefix[lvl]);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(lvl, 0, fmt, ap);
	va_end(ap);
}

int log_errno(enum log_level lvl, int err, const char *fmt, ...)
{
	va_list ap;

	if (err < 0)
		err = -err;
	va_start(ap, fmt);
	vlog(lvl, err, fmt, ap);
	va_end(ap);
	return -err;
}
