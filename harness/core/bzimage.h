/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bzimage: what an x86 kernel image says about itself (pure).
 * Reads the boot protocol's setup header (Documentation/arch/x86/boot.rst):
 * the "HdrS" magic, the protocol version, the kernel_version string and
 * whether the kernel has a 64-bit entry point (XLF_KERNEL_64).
 */
#ifndef BP_BZIMAGE_H
#define BP_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>

struct bzimage_info {
	unsigned protocol;	/* e.g. 0x020f */
	bool is_64bit;		/* XLF_KERNEL_64: an x86_64 kernel */
	char version[256];	/* "6.1.0-57-amd64 (debian-kernel@...) #1 ..." */
	char release[128];	/* first word of version: "6.1.0-57-amd64" */
	/* The least a complete file has: the setup sectors and the
	 * protected-mode code (syssize), per the header; 0 when the
	 * protocol is too old to say (< 2.04).  A file shorter than this
	 * was cut off. */
	unsigned long long min_size;
};

/*
 * Inspect the first bytes of a file (at least 0x1000 are needed to read the
 * version string; pass what you have).  Returns 0, or -ENOEXEC when this
 * is not an x86 bzImage (no "HdrS" magic, old protocol, no version).
 */
int bzimage_inspect(const void *buf, size_t len, struct bzimage_info *ret);

#endif
