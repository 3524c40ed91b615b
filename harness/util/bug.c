// SPDX-License-Identifier: GPL-2.0-or-later
#include "bug.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bootproof: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}
