/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation that aborts on failure, as git's xmalloc: the one policy for
 * running out of memory in bootproof.  A CLI harness has no sane recovery
 * from it, so no function returns -ENOMEM for its own allocations; strbuf
 * grows the same way.  (Libraries that allocate on their own, json-c and
 * libxml2, still report failure through their return values.)
 */
#ifndef BOOTPROOF_UTIL_XALLOC_H
#define BOOTPROOF_UTIL_XALLOC_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"

static inline _noreturn_ void xalloc_die(void)
{
	fputs("bootproof: out of memory\n", stderr);
	abort();
}

static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_die();
	return p;
}

static inline void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xalloc_die();
	return p;
}

static inline void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xalloc_die();
	return p;
}

/* xrealloc of an array of nmemb elements of size bytes, overflow checked. */
static inline void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > (size_t)-1 / size)
		xalloc_die();
	return xrealloc(p, nmemb * size);
}

static inline char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		xalloc_die();
	return p;
}

static inline char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		xalloc_die();
	return p;
}

static inline _printf_(1, 2) char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_die();
	return p;
}

#endif
