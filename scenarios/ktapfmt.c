// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "ktapfmt.h"

/* Replace control characters (newlines included) by spaces, in place. */
static void sanitize(char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = ' ';
}

size_t ktapfmt_vline(char *buf, size_t n, unsigned indent, const char *fmt,
		 va_list ap)
{
	size_t len;
	int r;

	if (n < 2) {
		if (n)
			buf[0] = '\0';
		return 0;
	}
	if (indent > n - 2)
		indent = n - 2;
	memset(buf, ' ', indent);
	/* Leave room for the newline. */
	r = vsnprintf(buf + indent, n - 1 - indent, fmt, ap);
	if (r < 0)
		r = 0;
	len = indent + (size_t)r;
	if (len > n - 2)
		len = n - 2;
	sanitize(buf + indent, len - indent);
	buf[len++] = '\n';
	buf[len] = '\0';
	return len;
}

size_t ktapfmt_line(char *buf, size_t n, unsigned indent, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	len = ktapfmt_vline(buf, n, indent, fmt, ap);
	va_end(ap);
	return len;
}

size_t ktapfmt_result(char *buf, size_t n, unsigned indent, bool ok,
		       unsigned num, const char *name, const char *directive,
		       const char *reason)
{
	char desc[128];
	size_t len;

	snprintf(desc, sizeof(desc), "%s", name ? name : "");
	for (char *p = desc; *p; p++)
		if (*p == '#')
			*p = '_';
	if (directive && reason && *reason)
		len = ktapfmt_line(buf, n, indent, "%s %u %s # %s %s",
			       ok ? "ok" : "not ok", num, desc, directive,
			       reason);
	else if (directive)
		len = ktapfmt_line(buf, n, indent, "%s %u %s # %s",
			       ok ? "ok" : "not ok", num, desc, directive);
	else
		len = ktapfmt_line(buf, n, indent, "%s %u %s",
			       ok ? "ok" : "not ok", num, desc);
	return len;
}
