/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scope-based cleanup, after systemd's cleanup-fundamental.h.
 *
 *   _cleanup_free_ char *s = strdup("x");
 *   return TAKE_PTR(s);            hand ownership to the caller
 *
 * Never jump (goto) into the scope of a _cleanup_ variable: the compiler
 * accepts it and the cleanup then frees garbage.  Destructors given to
 * _cleanup_ receive a pointer to the variable and must accept NULL.
 */
#ifndef BP_CLEANUP_H
#define BP_CLEANUP_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _noreturn_ __attribute__((noreturn))
#define _warn_unused_result_ __attribute__((warn_unused_result))

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

/* The name of enum value v in names[], a table indexed by the enum
 * (designated initializers: [FOO_BAR] = "bar"), or dflt for a value past
 * the table or without a name. */
#define ENUM_NAME(names, v, dflt)                                             \
	((size_t)(v) < ELEMENTSOF(names) && (names)[(size_t)(v)]               \
		 ? (names)[(size_t)(v)]                                        \
		 : (dflt))

/* Take the value out of a variable, leaving its zero behind. */
#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) _tp_ = (p);                                      \
		(p) = NULL;                                                    \
		_tp_;                                                          \
	})

#define TAKE_FD(fd)                                                            \
	({                                                                     \
		int _tf_ = (fd);                                               \
		(fd) = -1;                                                     \
		_tf_;                                                          \
	})

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
#define _cleanup_fclose_ _cleanup_(fclosep)

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
#define _cleanup_close_ _cleanup_(closep)

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}
#define _cleanup_closedir_ _cleanup_(closedirp)

/* Define NAME##p(T **) calling FN when the pointer is not NULL. */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, fn)                                  \
	static inline void fn##p(type *p)                                      \
	{                                                                      \
		if (*p)                                                        \
			fn(*p);                                                \
	}

#endif
