// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/sha256: the FIPS 180-2 examples, the file variant equal to the
 * buffer one (a file larger than one read), a key built piece by piece
 * equal to the digest of the same bytes at once, and errors kept to the
 * end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cleanup.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/sha256.h"

static char tmp[64];

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "%s", "/tmp/test-sha256-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	return 0;
}

static void test_known(void **state)
{
	char hex[SHA256_HEX_LEN + 1];

	assert_int_equal(sha256_hex("abc", 3, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
				 "b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(sha256_hex("", 0, hex), 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
				 "27ae41e4649b934ca495991b7852b855");
}

/* 3 MiB + 7: more than one read of the file variant. */
static void test_file(void **state)
{
	size_t n = (3u << 20) + 7;
	unsigned char *buf = malloc(n);
	_cleanup_free_ char *p = path_join(tmp, "big");
	_cleanup_free_ char *gone = path_join(tmp, "gone");
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];

	for (size_t i = 0; i < n; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 24);
	assert_int_equal(write_file_atomic(p, buf, n, 0644), 0);
	assert_int_equal(sha256_hex(buf, n, a), 0);
	assert_int_equal(sha256_file_hex(p, b), 0);
	assert_string_equal(a, b);
	free(buf);
	snprintf(b, sizeof(b), "%s", "untouched");
	assert_int_equal(sha256_file_hex(gone, b), -ENOENT);
	assert_string_equal(b, "untouched");
	assert_int_equal(sha256_file_hex(tmp, b), -EISDIR);
}

static void test_pieces(void **state)
{
	_cleanup_(sha256_done) struct sha256 h = SHA256_INIT;
	_cleanup_free_ char *p = path_join(tmp, "f");
	char a[SHA256_HEX_LEN + 1], b[SHA256_HEX_LEN + 1];
	static const char all[] = "ab\0c\0file bytes";

	assert_int_equal(write_file_atomic(p, "file bytes", 10, 0644), 0);
	assert_int_equal(sha256_begin(&h), 0);
	sha256_add(&h, "a", 1);
	sha256_add_str(&h, "b");	/* with its NUL */
	sha256_add_str(&h, "c");
	assert_int_equal(sha256_add_file(&h, p), 0);
	assert_int_equal(sha256_end_hex(&h, a), 0);
	assert_int_equal(sha256_hex(all, sizeof(all) - 1, b), 0);
	assert_string_equal(a, b);
	/* ("ab","c") and ("a","bc") are different keys. */
	assert_int_equal(sha256_begin(&h), 0);
	sha256_add_str(&h, "a");
	sha256_add_str(&h, "bc");
	assert_int_equal(sha256_end_hex(&h, b), 0);
	assert_string_not_equal(a, b);
}

/* A file that cannot be read spoils the key: the end says so. */
static void test_error_kept(void **state)
{
	_cleanup_(sha256_done) struct sha256 h = SHA256_INIT;
	_cleanup_free_ char *gone = path_join(tmp, "gone");
	char hex[SHA256_HEX_LEN + 1];

	assert_int_equal(sha256_begin(&h), 0);
	assert_int_equal(sha256_add_file(&h, gone), -ENOENT);
	sha256_add_str(&h, "more");
	assert_int_equal(sha256_end_hex(&h, hex), -ENOENT);
	/* Ended: adding to it is an error, not a crash. */
	sha256_add_str(&h, "late");
	assert_int_equal(sha256_end_hex(&h, hex), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_error_kept),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
