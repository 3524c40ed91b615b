// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/agentchan.h"

#include <string.h>

#include "../scenarios/contract.h"

/* The first header that starts a line, or NULL. */
static const char *find_header(const char *buf, size_t n)
{
	static const char head[] = BP_CHANNEL_DMESG;
	const size_t hl = sizeof(head) - 1;

	for (const char *p = buf; p && (size_t)(p - buf) + hl <= n;) {
		if ((p == buf || p[-1] == '\n') && !memcmp(p, head, hl))
			return p;
		p = memchr(p, '\n', n - (size_t)(p - buf));
		if (p)
			p++;
	}
	return NULL;
}

void agentchan_split(const char *buf, size_t n, struct agentchan *ret)
{
	const char *h = buf ? find_header(buf, n) : NULL;
	const char *end = buf + n, *p;
	unsigned long long size = 0;
	size_t digits = 0;

	*ret = (struct agentchan){ .before = buf, .before_len = n,
				   .dmesg_announced = -1 };
	if (!h)
		return;
	p = h + strlen(BP_CHANNEL_DMESG);
	while (p < end && *p >= '0' && *p <= '9' && digits < 18) {
		size = size * 10 + (unsigned long long)(*p++ - '0');
		digits++;
	}
	/* A header cut off, or not followed by a size and a newline, is
	 * not one: the bytes stay the channel's. */
	if (!digits || p >= end || *p != '\n')
		return;
	p++;
	ret->before_len = (size_t)(h - buf);
	ret->dmesg = p;
	ret->dmesg_announced = (long long)size;
	ret->dmesg_len = (size_t)(end - p) < size ? (size_t)(end - p)
						 : (size_t)size;
	ret->after = p + ret->dmesg_len;
	ret->after_len = (size_t)(end - ret->after);
}
