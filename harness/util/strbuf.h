/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growable NUL-terminated byte buffers, after git's strbuf.
 *
 * A strbuf always holds a valid C string in buf (possibly "" from a static
 * empty string before first growth); len excludes the terminating NUL, and
 * the buffer may contain NUL bytes before len.  All growing functions abort
 * on allocation failure (there is no sane recovery in a CLI harness); none
 * of them does I/O except strbuf_read_file / strbuf_read_fd.
 */
#ifndef BP_STRBUF_H
#define BP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "cleanup.h"

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { .alloc = 0, .len = 0, .buf = strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the storage and reset to STRBUF_INIT.  Accepts an initialised sb. */
void strbuf_release(struct strbuf *sb);
/* Hand the string to the caller (malloc'd, never NULL) and reset sb. */
char *strbuf_detach(struct strbuf *sb, size_t *ret_len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) _printf_(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/*
 * An error message and its code at once: replace err's content (when err
 * is not NULL) with the formatted message and return r, as in
 * `return strbuf_fail(err, -EINVAL, "%s: not a plan", path);`.
 */
int strbuf_fail(struct strbuf *err, int r, const char *fmt, ...) _printf_(3, 4);
/*
 * The same for an error found at a place in a file: the message is
 * prefixed with "file:line: ", or "file: " when line is 0, as in
 * `return strbuf_fail_at(err, -EINVAL, "demo.plan", 3, "unknown arch");`.
 */
int strbuf_fail_at(struct strbuf *err, int r, const char *file, unsigned line,
		   const char *fmt, ...) _printf_(5, 6);
int strbuf_vfail_at(struct strbuf *err, int r, const char *file,
		    unsigned line, const char *fmt, va_list ap);
/* Remove leading and trailing whitespace. */
void strbuf_trim(struct strbuf *sb);
void strbuf_rtrim(struct strbuf *sb);

/*
 * Append the whole content of a file / fd.  At most max bytes are read when
 * max > 0 (returns -EFBIG when the file is larger).  Returns the number of
 * bytes appended or -errno.
 */
long strbuf_read_fd(struct strbuf *sb, int fd, size_t max);
long strbuf_read_file(struct strbuf *sb, const char *path, size_t max);

static inline void strbuf_releasep(struct strbuf *sb)
{
	strbuf_release(sb);
}
#define _cleanup_strbuf_ _cleanup_(strbuf_releasep)

#endif
