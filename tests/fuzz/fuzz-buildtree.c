// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a kernel build tree's files say (core/kbuild) and an ELF file's
 * sizes (core/elfsize): the archives, .mod lists and ccache logs a build
 * (or anyone with write access to the cache) leaves, and vmlinux.
 *
 * Input: byte 0 chooses the parser (0 ar archive, 1 words, 2 ccache log,
 * 3 ELF: the rest is a file's head and, at the offset it names, its
 * section table); the rest, an exact-size copy.  Checks: every name given
 * lies inside the buffer and is not empty but for ar's; counts match the
 * calls; the ELF sums are the sections' and fit the class.
 */
#include "fuzz.h"

#include "core/elfsize.h"
#include "core/kbuild.h"

struct seen {
	const char *buf;
	size_t n;
	int calls;
	bool words;
};

static int check_name(void *ud, const char *name, size_t len)
{
	struct seen *s = ud;

	FUZZ_CHECK(name >= s->buf && name + len <= s->buf + s->n);
	if (s->words)
		FUZZ_CHECK(len > 0);
	s->calls++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = { 0 };
	char *buf;
	int r;

	if (size < 1)
		return 0;
	buf = malloc(size - 1 ? size - 1 : 1);
	FUZZ_CHECK(buf);
	if (size > 1)
		memcpy(buf, data + 1, size - 1);
	s.buf = buf;
	s.n = size - 1;
	switch (data[0] & 3) {
	case 0:
		r = kbuild_ar_members(buf, s.n, check_name, &s);
		FUZZ_CHECK(r == -EINVAL || r == s.calls);
		break;
	case 1:
		s.words = true;
		r = kbuild_words(buf, s.n, check_name, &s);
		FUZZ_CHECK(r == s.calls);
		break;
	case 2: {
		struct kbuild_ccache c;
		size_t headers = 0;

		kbuild_ccache_log(buf, s.n, &c);
		for (size_t i = 0; i < s.n; i++)
			if (buf[i] == '#' && (i == 0 || buf[i - 1] == '\n'))
				headers++;
		FUZZ_CHECK(c.hits + c.misses + c.other == headers);
		break;
	}
	default: {
		uint64_t off, len;
		struct elfsize e;

		r = elfsize_table(buf, s.n, &off, &len);
		FUZZ_CHECK(r == 0 || r == -ENOEXEC);
		if (r == 0 && off <= s.n && len <= s.n - off) {
			r = elfsize_sum(buf, s.n, buf + off, (size_t)len, &e);
			FUZZ_CHECK(r == 0);
			FUZZ_CHECK(e.sections <= len / 40);
			if (buf[4] == 1) /* ELFCLASS32: 32-bit sizes */
				FUZZ_CHECK(e.text <= e.sections * 0xffffffffull &&
					   e.data <= e.sections * 0xffffffffull);
		}
		break;
	}
	}
	free(buf);
	return 0;
}
