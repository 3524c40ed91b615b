// SPDX-License-Identifier: GPL-2.0-or-later
#include "strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bug.h"
#include "xalloc.h"

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *ret_len)
{
	char *r;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	r = sb->buf;
	if (ret_len)
		*ret_len = sb->len;
	strbuf_init(sb, 0);
	return r;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need, n;
	int fresh = !sb->alloc;

	if (extra > SIZE_MAX - sb->len - 1)
		xalloc_die();
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	n = sb->alloc ? sb->alloc : 64;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (fresh) {
		sb->buf = xmalloc(n);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, n);
	}
	sb->alloc = n;
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (len)
			BUG("strbuf_setlen(%zu) of an empty strbuf", len);
		return;
	}
	if (len >= sb->alloc)
		BUG("strbuf_setlen(%zu) beyond its %zu bytes", len, sb->alloc);
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed on format '%s'", fmt);
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

void strbuf_trim(struct strbuf *sb)
{
	size_t i = 0;

	strbuf_rtrim(sb);
	while (i < sb->len && isspace((unsigned char)sb->buf[i]))
		i++;
	if (i) {
		memmove(sb->buf, sb->buf + i, sb->len - i);
		strbuf_setlen(sb, sb->len - i);
	}
}

long strbuf_read_fd(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 8192);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			strbuf_setlen(sb, start);
			return -e;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
		if (max && sb->len - start > max) {
			strbuf_setlen(sb, start);
			return -EFBIG;
		}
	}
	return (long)(sb->len - start);
}

long strbuf_read_file(struct strbuf *sb, const char *path, size_t max)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return strbuf_read_fd(sb, fd, max);
}

int strbuf_fail(struct strbuf *err, int r, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		strbuf_reset(err);
		va_start(ap, fmt);
		strbuf_vaddf(err, fmt, ap);
		va_end(ap);
	}
	return r;
}

int strbuf_vfail_at(struct strbuf *err, int r, const char *file,
		    unsigned line, const char *fmt, va_list ap)
{
	if (!err)
		return r;
	strbuf_reset(err);
	if (line)
		strbuf_addf(err, "%s:%u: ", file, line);
	else
		strbuf_addf(err, "%s: ", file);
	strbuf_vaddf(err, fmt, ap);
	return r;
}

int strbuf_fail_at(struct strbuf *err, int r, const char *file, unsigned line,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r = strbuf_vfail_at(err, r, file, line, fmt, ap);
	va_end(ap);
	return r;
}
