/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared bits of the libFuzzer targets (tests/fuzz/fuzz-<parser>.c).
 *
 * A target checks properties the parser's header promises, not just "no
 * crash": FUZZ_CHECK aborts (libFuzzer then saves the input as a crash)
 * with the failed condition, so a broken promise is found like a crash.
 */
#ifndef BP_FUZZ_H
#define BP_FUZZ_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n",           \
				__FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

/* A NUL-terminated copy of n bytes (the parsers' inputs need not be
 * terminated; some callers' are).  Aborts on allocation failure. */
static inline char *fuzz_strndup(const void *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		abort();
	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* 64-bit FNV-1a, to compare event sequences of two runs. */
static inline void fuzz_hash(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 0x100000001b3ull;
	}
}

static inline void fuzz_hash_str(uint64_t *h, const char *s)
{
	if (s)
		fuzz_hash(h, s, strlen(s) + 1);
	else
		fuzz_hash(h, "\xff", 1);
}

/*
 * Is s[0..n) valid UTF-8 (no overlong forms, no surrogates, nothing above
 * U+10FFFF)?
 */
static inline bool fuzz_utf8_valid(const char *s, size_t n)
{
	const unsigned char *b = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned c = b[i], need, min;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			need = 1, cp = c & 0x1f, min = 0x80;
		else if ((c & 0xf0) == 0xe0)
			need = 2, cp = c & 0x0f, min = 0x800;
		else if ((c & 0xf8) == 0xf0)
			need = 3, cp = c & 0x07, min = 0x10000;
		else
			return false;
		if (n - i <= need)
			return false;
		for (unsigned k = 1; k <= need; k++) {
			if ((b[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (b[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += need + 1;
	}
	return true;
}

#endif
