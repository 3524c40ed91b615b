// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

int agent_out_fd = 1;

/* One write() per line; a short write to a tty is finished, not split. */
static void emit(const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(agent_out_fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		len -= (size_t)w;
	}
}

static void vline(unsigned indent, const char *fmt, va_list ap)
{
	char buf[KTAPFMT_LINE_MAX];
	size_t len = ktapfmt_vline(buf, sizeof(buf), indent, fmt, ap);

	emit(buf, len);
}

void out_line(unsigned indent, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(indent, fmt, ap);
	va_end(ap);
}

void out_note(const char *fmt, ...)
{
	char msg[KTAPFMT_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	out_line(0, BP_AGENT_NOTE "%s", msg);
}

static void vdiag(struct tctx *t, const char *fmt, va_list ap)
{
	char msg[KTAPFMT_LINE_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	out_line(SUB, "# %s: %s", t->name, msg);
}

void diag(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(t, fmt, ap);
	va_end(ap);
}

enum check_result fail(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(t, fmt, ap);
	va_end(ap);
	return CHECK_FAIL;
}

enum check_result skip(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
	return CHECK_SKIP;
}
