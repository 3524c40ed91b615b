/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * builderr: the error that broke a kernel build, from its log (pure).
 *
 * A failed `make` prints many lines: the compiler's or linker's own
 * diagnostic, then one "make[N]: *** [...] Error 1" per directory level.
 * The first compiler or linker error is what a person wants to read:
 *
 *	kernel/fork.c:123:5: error: the frame size of 40 bytes is larger ...
 *	arch/x86/entry/entry_64.S:12: Error: no such instruction: `foo'
 *	ld: vmlinux.o: in function `x':  +  foo.c:(.text+0x5): undefined ...
 *
 * builderr_find() looks for, in this order, the first line of the log
 * that is
 *   1. a compiler, assembler or linker error (BUILDERR_COMPILER, _LINKER),
 *   2. another tool's error ("ERROR: modpost: ...", "gcc: error: ...",
 *      "<path>: No such file or directory", "... is neither a file nor a
 *      directory": BUILDERR_TOOL),
 *   3. make's own ("make[2]: *** No rule to make target ...", "make: ***
 *      [...] Error 2": BUILDERR_MAKE),
 * so a make line never hides the diagnostic it follows, even when a
 * parallel build printed it later.  Lines are taken as printed ("\r" and
 * trailing blanks dropped).
 *
 * Pure module: no I/O, never logs.
 */
#ifndef BP_BUILDERR_H
#define BP_BUILDERR_H

#include <stddef.h>

enum builderr_kind {
	BUILDERR_NONE,
	BUILDERR_COMPILER,	/* file:line[:col]: [fatal ]error: / Error: */
	BUILDERR_LINKER,	/* ld / ld.lld: undefined reference, ... */
	BUILDERR_TOOL,		/* another program's error line */
	BUILDERR_MAKE,		/* make: *** ... */
};

struct builderr {
	enum builderr_kind kind;
	char *text;		/* the error line (owned), NULL for NONE */
	char *file;		/* the source file it names, or NULL (owned) */
	unsigned line, col;	/* 0 when not given */
	size_t log_line;	/* 1-based line of the log */
};

/*
 * Find the error in len bytes of log.  Returns 1 with *ret filled (release
 * with builderr_done), or 0 when the log has no error line (ret->kind NONE).
 */
int builderr_find(const char *log, size_t len, struct builderr *ret);

/* Free what ret owns; accepts a zeroed struct. */
void builderr_done(struct builderr *e);

/* "compiler", "linker", "tool", "make", "none". */
const char *builderr_kind_name(enum builderr_kind k);

#endif
