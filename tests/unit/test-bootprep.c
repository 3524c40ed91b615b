// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bootprep_prepare: `bootproof boot`'s arguments into a boot request, with
 * stand-in kernels (a setup header, nothing else) laid out as in /boot and
 * as in a kernel build tree.  --accel tcg and --scenarios none keep QEMU
 * and libguestfs out of it.
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

#include "engine/bootprep.h"
#include "util/fileio.h"
#include "util/paths.h"

static char tmp[] = "/tmp/bp-test-bootprep-XXXXXX";

/* A kernel file: the setup header of the boot protocol (2.15), 4 KiB. */
static char *kernel(const char *rel, bool is64, const char *version)
{
	unsigned char b[0x1000];
	char *p = path_join(tmp, rel);

	memset(b, 0, sizeof(b));
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = 0x0f;
	b[0x207] = 0x02;
	b[0x20f] = 0x03; /* version string at 0x200 + 0x0300 */
	b[0x236] = is64 ? 1 : 0;
	memcpy(b + 0x500, version, strlen(version) + 1);
	assert_int_equal(write_file_atomic(p, b, sizeof(b), 0644), 0);
	return p;
}

static char *file(const char *rel, const char *content)
{
	char *p = path_join(tmp, rel);

	assert_int_equal(write_file_atomic(p, content, strlen(content), 0644),
			 0);
	return p;
}

static int setup(void **state)
{
	if (!mkdtemp(tmp))
		return -1;
	setenv("LIBVIRT_DEFAULT_URI", "test:///default", 1);
	return 0;
}

static int teardown(void **state)
{
	rm_rf(tmp);
	return 0;
}

/* The request for kernel with everything else left to its default. */
static struct bootprep_args args(const char *k)
{
	return (struct bootprep_args){
		.kernel = k, .scenarios = "none", .accel = "tcg",
	};
}

/* As in /boot: vmlinuz-<release> with initrd.img- and config-<release>. */
static void test_beside_in_boot(void **state)
{
	_cleanup_free_ char *k = kernel("vmlinuz-6.12.0", true,
					"6.12.0 (root@host) #1 SMP");
	_cleanup_free_ char *i = file("initrd.img-6.12.0", "initrd");
	_cleanup_free_ char *c = file("config-6.12.0", "CONFIG_64BIT=y\n");
	_cleanup_(bootprep_done) struct bootprep p = { 0 };
	struct bootprep_args a = args(k);

	a.allow = "warn,ubsan";
	a.cmdline = "quiet";
	a.timeout_s = 77;
	assert_int_equal(bootprep_prepare(&a, &p), 0);
	assert_int_equal(p.req.arch, BP_ARCH_X86_64);
	assert_string_equal(p.kernel.release, "6.12.0");
	assert_string_equal(p.req.initrd, i);
	assert_string_equal(p.req.config, c);
	assert_null(p.req.vmlinux);
	/* No agent: no image, no scenarios. */
	assert_null(p.req.image);
	assert_null(p.req.scenarios);
	assert_int_equal(p.req.accel, BP_ACCEL_TCG);
	assert_string_equal(p.req.accel_reason, "TCG requested");
	assert_string_equal(p.req.uri, "test:///default");
	assert_int_equal(p.req.n_allowed, 2);
	assert_string_equal(p.req.allowed[0], "warn");
	assert_string_equal(p.req.allowed[1], "ubsan");
	assert_string_equal(p.req.cmdline_extra, "quiet");
	assert_int_equal(p.req.timeout_s, 77);
}

/* In a build tree: its .config and vmlinux, no initrd; a 32-bit kernel
 * boots as i386. */
static void test_beside_in_tree(void **state)
{
	_cleanup_free_ char *d = path_join(tmp, "tree/arch/x86/boot");
	_cleanup_free_ char *k = NULL, *c = NULL, *v = NULL;
	_cleanup_(bootprep_done) struct bootprep p = { 0 };
	struct bootprep_args a;

	assert_int_equal(mkdir_p(d, 0755), 0);
	k = kernel("tree/arch/x86/boot/bzImage", false, "6.12.0-i386 #2");
	c = file("tree/.config", "CONFIG_X86_32=y\n");
	v = file("tree/vmlinux", "\177ELF");
	a = args(k);
	a.uri = "qemu:///session";
	assert_int_equal(bootprep_prepare(&a, &p), 0);
	assert_int_equal(p.req.arch, BP_ARCH_I386);
	assert_null(p.req.initrd);
	assert_string_equal(p.req.config, c);
	assert_string_equal(p.req.vmlinux, v);
	assert_string_equal(p.req.uri, "qemu:///session");
}

static void expect_usage(struct bootprep_args a)
{
	_cleanup_(bootprep_done) struct bootprep p = { 0 };

	assert_int_equal(bootprep_prepare(&a, &p), -EINVAL);
}

/* What the user must fix is -EINVAL (exit 2), each of it. */
static void test_bad_input(void **state)
{
	_cleanup_free_ char *k = kernel("vmlinuz-6.13.0", true, "6.13.0 #1");
	_cleanup_free_ char *nk = file("not-a-kernel", "hello\n");
	struct bootprep_args a;

	expect_usage(args(nk));
	a = args(k);
	a.arch = "i386"; /* a 64-bit kernel */
	expect_usage(a);
	a = args(k);
	a.arch = "arm64";
	expect_usage(a);
	a = args(k);
	a.initrd = "/nonexistent/initrd";
	expect_usage(a);
	a = args(k);
	a.config = nk; /* not a kernel config */
	expect_usage(a);
	a = args(k);
	a.vmlinux = nk; /* not an ELF */
	expect_usage(a);
	a = args(k);
	a.allow = "nosuchkind";
	expect_usage(a);
	a = args(k);
	a.scenarios = "boot,nosuchscenario";
	expect_usage(a);
	a = args(k);
	a.accel = "fast";
	expect_usage(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside_in_boot),
		cmocka_unit_test(test_beside_in_tree),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
