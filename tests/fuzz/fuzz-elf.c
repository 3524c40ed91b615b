// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ELF check of programs put into a guest image (the agent, a user's
 * busybox).  Input: byte 0 chooses the arch, the rest is the file's head.
 * Checks (image_spec.h): 0, or -ENOEXEC with a reason; never reads past
 * the buffer (an exact-size copy is passed).
 */
#include "fuzz.h"

#include "core/image_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why = "unset";
	uint8_t *buf;
	int r;

	if (size < 1)
		return 0;
	/* Exactly the input's bytes: reading past them is caught. */
	buf = malloc(size - 1);
	FUZZ_CHECK(buf || size == 1);
	if (size > 1)
		memcpy(buf, data + 1, size - 1);
	r = image_check_elf(buf, size - 1,
			    (data[0] & 1) ? BP_ARCH_I386 : BP_ARCH_X86_64,
			    &why);
	FUZZ_CHECK(r == 0 || r == -ENOEXEC);
	FUZZ_CHECK((r == 0) == (why == NULL));
	free(buf);
	return 0;
}
