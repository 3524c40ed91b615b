/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation that aborts on failure, for the engine's bookkeeping (lists
 * of candidates, names): as strbuf does, since a CLI harness has no sane
 * recovery from running out of memory there.
 */
#ifndef BOOTPROOF_UTIL_XALLOC_H
#define BOOTPROOF_UTIL_XALLOC_H

#include <stdlib.h>
#include <string.h>

static inline void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	return p;
}

static inline char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		abort();
	return p;
}

#endif
