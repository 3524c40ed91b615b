/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * BUG(): a broken invariant of bootproof itself, never bad input or a host
 * failure (those are -errno returns).  As git's BUG(): print where and what
 * on stderr, then abort so a core dump or the sanitizer shows the stack.
 *
 *	if (kind >= ELEMENTSOF(names))
 *		BUG("check kind %d out of range", kind);
 */
#ifndef BP_UTIL_BUG_H
#define BP_UTIL_BUG_H

#include "cleanup.h"

_noreturn_ void bug_fl(const char *file, int line, const char *fmt, ...)
	_printf_(3, 4);

#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

#endif
