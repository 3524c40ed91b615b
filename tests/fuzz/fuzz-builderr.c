// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first error of a kernel build log (what make, the compiler and the
 * linker printed while building a user's tree).
 *
 * Input: the log.  Checks (builderr.h): 1 with a kind, its line's text
 * (trailing blanks and '\r' dropped) and number, or 0 with nothing; a file
 * named is where the text starts; the answer depends on the log only up
 * to the line found (nothing earlier outranks it, so cutting the log
 * after that line gives the same answer).
 */
#include "fuzz.h"

#include "core/builderr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *log = (const char *)data;
	struct builderr e, cut;
	size_t off = 0, lines = 0;
	int r;

	r = builderr_find(log, size, &e);
	FUZZ_CHECK(r == 0 || r == 1);
	for (size_t i = 0; i < size; i++)
		if (log[i] == '\n' || i == size - 1)
			lines++;
	if (r == 0) {
		FUZZ_CHECK(e.kind == BUILDERR_NONE && !e.text && !e.file);
		builderr_done(&e);
		return 0;
	}
	FUZZ_CHECK(e.kind > BUILDERR_NONE && e.kind <= BUILDERR_MAKE);
	FUZZ_CHECK(strcmp(builderr_kind_name(e.kind), "none"));
	FUZZ_CHECK(e.text && *e.text);
	FUZZ_CHECK(e.log_line >= 1 && e.log_line <= lines);
	if (e.file) {
		FUZZ_CHECK(*e.file);
		FUZZ_CHECK(!strncmp(e.text, e.file, strlen(e.file)));
	}
	/* The text is the start of line log_line. */
	for (size_t ln = 1; ln < e.log_line; ln++) {
		const char *nl = memchr(log + off, '\n', size - off);

		FUZZ_CHECK(nl);
		off = (size_t)(nl - log) + 1;
	}
	FUZZ_CHECK(!strncmp(log + off, e.text, strlen(e.text)));
	/* Cut after that line: the same answer. */
	{
		const char *nl = memchr(log + off, '\n', size - off);
		size_t end = nl ? (size_t)(nl - log) + 1 : size;

		FUZZ_CHECK(builderr_find(log, end, &cut) == 1);
		FUZZ_CHECK(cut.kind == e.kind && cut.log_line == e.log_line);
		FUZZ_CHECK(!strcmp(cut.text, e.text));
		FUZZ_CHECK(cut.line == e.line && cut.col == e.col);
		builderr_done(&cut);
	}
	builderr_done(&e);
	return 0;
}
