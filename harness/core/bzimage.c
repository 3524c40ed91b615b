// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/bzimage.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

int bzimage_inspect(const void *buf, size_t len, struct bzimage_info *ret)
{
	const unsigned char *b = buf;
	size_t off, i;

	memset(ret, 0, sizeof(*ret));
	if (len < 0x240 || memcmp(b + 0x202, "HdrS", 4))
		return -ENOEXEC;
	ret->protocol = le16(b + 0x206);
	if (ret->protocol < 0x0200)
		return -ENOEXEC;
	if (ret->protocol >= 0x020c)
		ret->is_64bit = b[0x236] & 1;
	if (ret->protocol >= 0x0204) {
		/* setup_sects 0 means 4 (boot.rst); syssize counts 16 bytes. */
		unsigned setup = b[0x1f1] ? b[0x1f1] : 4;
		unsigned long long sys = (unsigned long long)le16(b + 0x1f4) |
					 (unsigned long long)le16(b + 0x1f6) << 16;
		ret->min_size = (setup + 1ull) * 512 + sys * 16;
	}
	off = le16(b + 0x20e);
	if (!off)
		return -ENOEXEC;
	off += 0x200;
	for (i = 0; off + i < len && i < sizeof(ret->version) - 1; i++) {
		unsigned char c = b[off + i];
		if (!c)
			break;
		if (c < 0x20 || c > 0x7e)
			return -ENOEXEC;
		ret->version[i] = (char)c;
	}
	ret->version[i] = '\0';
	for (i = 0; ret->version[i] && ret->version[i] != ' ' &&
		    i < sizeof(ret->release) - 1;
	     i++)
		ret->release[i] = ret->version[i];
	ret->release[i] = '\0';
	return ret->release[0] ? 0 : -ENOEXEC;
}
