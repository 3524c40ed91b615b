// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bzImage header reader on any file head (a user can name any file
 * as the kernel).  Checks (bzimage.h): 0 or -ENOEXEC; on success the
 * version is printable ASCII, NUL-terminated, and the release is its first
 * word (cut to the array).
 */
#include "fuzz.h"

#include "core/bzimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so reading past it is caught. */
	uint8_t *buf = malloc(size ? size : 1);
	struct bzimage_info bi;
	int r;

	FUZZ_CHECK(buf);
	if (size)
		memcpy(buf, data, size);
	r = bzimage_inspect(buf, size, &bi);
	FUZZ_CHECK(r == 0 || r == -ENOEXEC);
	if (r == 0) {
		size_t n = strnlen(bi.version, sizeof(bi.version));
		size_t rl = strnlen(bi.release, sizeof(bi.release));

		FUZZ_CHECK(n < sizeof(bi.version) && rl < sizeof(bi.release));
		FUZZ_CHECK(rl > 0 && rl <= n);
		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(bi.version[i] >= 0x20 && bi.version[i] <= 0x7e);
		FUZZ_CHECK(!strncmp(bi.release, bi.version, rl));
		FUZZ_CHECK(!strchr(bi.release, ' '));
		FUZZ_CHECK(bi.protocol >= 0x0200);
		FUZZ_CHECK(!bi.is_64bit || bi.protocol >= 0x020c);
		/* the size a complete file has: said from protocol 2.04 on,
		 * and at least the setup sectors read */
		FUZZ_CHECK(bi.protocol >= 0x0204 || bi.min_size == 0);
		FUZZ_CHECK(!bi.min_size || bi.min_size >= 0x200);
	}
	free(buf);
	return 0;
}
