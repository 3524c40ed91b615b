// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "core/bzimage.h"
#include "util/strbuf.h"

/* A setup header as the boot protocol lays it out. */
static void make_header(unsigned char *b, size_t len, unsigned proto,
			int is64, const char *version)
{
	memset(b, 0, len);
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = proto & 0xff;
	b[0x207] = proto >> 8;
	b[0x20e] = 0x00; /* version at 0x200 + 0x0300 */
	b[0x20f] = 0x03;
	b[0x236] = is64 ? 1 : 0;
	if (version)
		memcpy(b + 0x500, version, strlen(version) + 1);
}

static void test_synthetic(void **state)
{
	unsigned char b[0x1000];
	struct bzimage_info bi;

	make_header(b, sizeof(b), 0x020f, 1,
		    "6.12.118 (root@host) #1 SMP Thu Dec 3 2026");
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.protocol, 0x020f);
	assert_true(bi.is_64bit);
	assert_string_equal(bi.release, "6.12.118");
	assert_string_equal(bi.version,
			    "6.12.118 (root@host) #1 SMP Thu Dec 3 2026");

	make_header(b, sizeof(b), 0x020f, 0, "6.12.118-i386 #2");
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_false(bi.is_64bit);
	assert_string_equal(bi.release, "6.12.118-i386");
}

static void test_not_a_kernel(void **state)
{
	unsigned char b[0x1000];
	struct bzimage_info bi;

	memset(b, 'x', sizeof(b));
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), -ENOEXEC);
	assert_int_equal(bzimage_inspect(b, 10, &bi), -ENOEXEC);
	make_header(b, sizeof(b), 0x0100, 1, "6.1");
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), -ENOEXEC);
	make_header(b, sizeof(b), 0x020f, 1, "");
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), -ENOEXEC);
	make_header(b, sizeof(b), 0x020f, 1, "6.1\x01garbage");
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), -ENOEXEC);
	/* Version beyond what was read. */
	make_header(b, sizeof(b), 0x020f, 1, "6.1.0");
	assert_int_equal(bzimage_inspect(b, 0x400, &bi), -ENOEXEC);
}

/* Every real kernel in /boot (Debian's, after make setup). */
static void test_real_kernels(void **state)
{
	DIR *d = opendir("/boot");
	struct dirent *de;
	int seen = 0;

	if (!d)
		skip();
	while ((de = readdir(d))) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		char path[512];
		struct bzimage_info bi;

		if (strncmp(de->d_name, "vmlinuz-", 8))
			continue;
		snprintf(path, sizeof(path), "/boot/%s", de->d_name);
		assert_true(strbuf_read_file(&sb, path, 0) > 0);
		assert_int_equal(bzimage_inspect(sb.buf, sb.len, &bi), 0);
		/* The file is named after its release. */
		assert_string_equal(bi.release, de->d_name + 8);
		assert_true(bi.is_64bit);
		seen++;
	}
	closedir(d);
	if (!seen)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_not_a_kernel),
		cmocka_unit_test(test_real_kernels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
