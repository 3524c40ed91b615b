// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/virtcaps.h"
#include "util/strbuf.h"

static int label(const char *xml, size_t len, const char *type,
		 char **u, char **g)
{
	*u = *g = NULL;
	return virtcaps_dac_label(xml, len, type, u, g);
}

static void test_qemu_system(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char *u, *g;

	assert_true(strbuf_read_file(&sb, TEST_DATA "/virtcaps/qemu-system.xml",
				     0) > 0);
	assert_int_equal(label(sb.buf, sb.len, "qemu", &u, &g), 0);
	assert_string_equal(u, "+64055");
	assert_string_equal(g, "+64055");
	free(u);
	free(g);
	assert_int_equal(label(sb.buf, sb.len, "kvm", &u, &g), 0);
	assert_string_equal(u, "+64055");
	free(u);
	free(g);
	assert_int_equal(label(sb.buf, sb.len, "xen", &u, &g), -ENOENT);
	assert_null(u);
	assert_null(g);
}

static void test_test_driver(void **state)
{
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	char *u, *g;

	assert_true(strbuf_read_file(&sb, TEST_DATA "/virtcaps/test-default.xml",
				     0) > 0);
	assert_int_equal(label(sb.buf, sb.len, "qemu", &u, &g), -ENOENT);
	assert_null(u);
}

static void test_names_and_errors(void **state)
{
	static const char named[] =
		"<capabilities><host>"
		"<secmodel><model>selinux</model><baselabel type='qemu'>"
		"system_u:system_r:svirt_t:s0</baselabel></secmodel>"
		"<secmodel><model>dac</model><doi>0</doi>"
		"<baselabel type='kvm'>qemu:kvm</baselabel>"
		"<baselabel type='qemu'>libvirt-qemu:kvm</baselabel>"
		"</secmodel></host></capabilities>";
	static const char bad_label[] =
		"<capabilities><host><secmodel><model>dac</model>"
		"<baselabel type='qemu'>+0</baselabel>"
		"</secmodel></host></capabilities>";
	static const char truncated[] = "<capabilities><host><secmodel>";
	static const char other_root[] = "<domainCapabilities/>";
	char *u, *g;

	/* The selinux label of the same type is not the DAC one. */
	assert_int_equal(label(named, strlen(named), "qemu", &u, &g), 0);
	assert_string_equal(u, "libvirt-qemu");
	assert_string_equal(g, "kvm");
	free(u);
	free(g);
	assert_int_equal(label(named, strlen(named), "kvm", &u, &g), 0);
	assert_string_equal(u, "qemu");
	free(u);
	free(g);

	assert_int_equal(label(bad_label, strlen(bad_label), "qemu", &u, &g),
			 -EINVAL);
	assert_int_equal(label(truncated, strlen(truncated), "qemu", &u, &g),
			 -EINVAL);
	assert_int_equal(label(other_root, strlen(other_root), "qemu", &u, &g),
			 -EINVAL);
	assert_int_equal(label("", 0, "qemu", &u, &g), -EINVAL);
	assert_null(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_system),
		cmocka_unit_test(test_test_driver),
		cmocka_unit_test(test_names_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
