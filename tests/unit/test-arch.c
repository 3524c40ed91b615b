// SPDX-License-Identifier: GPL-2.0-or-later
/* arch: names, the two parsers and the table of per-arch facts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <string.h>

#include "core/arch.h"

static void test_names(void **state)
{
	assert_string_equal(bp_arch_name(BP_ARCH_X86_64), "x86_64");
	assert_string_equal(bp_arch_name(BP_ARCH_I386), "i386");
	assert_null(bp_arch_name(BP_ARCH_COUNT));
	assert_null(bp_arch_name((enum bp_arch)-1));
	for (unsigned a = 0; a < BP_ARCH_COUNT; a++)
		assert_string_equal(bp_arch_names[a], bp_arch_name(a));
	assert_null(bp_arch_names[BP_ARCH_COUNT]);
	assert_string_equal(bp_accel_name(BP_ACCEL_TCG), "tcg");
	assert_string_equal(bp_accel_name(BP_ACCEL_KVM), "kvm");
	assert_null(bp_accel_name(BP_ACCEL_COUNT));
	assert_string_equal(bp_accel_domain_type(BP_ACCEL_TCG), "qemu");
	assert_string_equal(bp_accel_domain_type(BP_ACCEL_KVM), "kvm");
	assert_null(bp_accel_domain_type(BP_ACCEL_COUNT));
}

/* Plans, groups and images take the canonical names only. */
static void test_from_name_is_strict(void **state)
{
	enum bp_arch a = BP_ARCH_COUNT;

	assert_int_equal(bp_arch_from_name("x86_64", &a), 0);
	assert_int_equal(a, BP_ARCH_X86_64);
	assert_int_equal(bp_arch_from_name("i386", &a), 0);
	assert_int_equal(a, BP_ARCH_I386);
	assert_int_equal(bp_arch_from_name("i386", NULL), 0);
	a = BP_ARCH_X86_64;
	assert_int_equal(bp_arch_from_name("amd64", &a), -EINVAL);
	assert_int_equal(bp_arch_from_name("I386", &a), -EINVAL);
	assert_int_equal(bp_arch_from_name("i38", &a), -EINVAL);
	assert_int_equal(bp_arch_from_name("", &a), -EINVAL);
	assert_int_equal(bp_arch_from_name(NULL, &a), -EINVAL);
	assert_int_equal(a, BP_ARCH_X86_64);	/* untouched on error */
}

/* --arch of `bootproof boot` also takes the usual other spellings. */
static void test_parse_aliases(void **state)
{
	static const struct {
		const char *s;
		enum bp_arch want;
	} ok[] = {
		{ "x86_64", BP_ARCH_X86_64 }, { "amd64", BP_ARCH_X86_64 },
		{ "x86-64", BP_ARCH_X86_64 }, { "i386", BP_ARCH_I386 },
		{ "i686", BP_ARCH_I386 }, { "x86", BP_ARCH_I386 },
	};
	enum bp_arch a;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		a = BP_ARCH_COUNT;
		assert_int_equal(bp_arch_parse(ok[i].s, &a), 0);
		assert_int_equal(a, ok[i].want);
	}
	a = BP_ARCH_I386;
	assert_int_equal(bp_arch_parse("arm64", &a), -EINVAL);
	assert_int_equal(bp_arch_parse("AMD64", &a), -EINVAL);
	assert_int_equal(bp_arch_parse(NULL, &a), -EINVAL);
	assert_int_equal(a, BP_ARCH_I386);
	assert_int_equal(bp_arch_parse("x86", NULL), 0);
}

static void test_facts(void **state)
{
	const struct bp_arch_info *x64 = bp_arch_info(BP_ARCH_X86_64);
	const struct bp_arch_info *x32 = bp_arch_info(BP_ARCH_I386);

	assert_non_null(x64);
	assert_non_null(x32);
	assert_null(bp_arch_info(BP_ARCH_COUNT));
	assert_true(x64->is_64bit);
	assert_false(x32->is_64bit);
	assert_int_equal(x64->elf_class, ELFCLASS64);
	assert_int_equal(x64->elf_machine, EM_X86_64);
	assert_int_equal(x32->elf_class, ELFCLASS32);
	assert_int_equal(x32->elf_machine, EM_386);
	assert_string_equal(x64->cc_flag, "-m64");
	assert_string_equal(x32->cc_flag, "-m32");
	assert_string_equal(x64->libvirt_arch, "x86_64");
	assert_string_equal(x32->libvirt_arch, "i686");
	assert_string_equal(x64->qemu_system, "qemu-system-x86_64");
	assert_string_equal(x32->qemu_system, "qemu-system-i386");
	assert_string_equal(x64->qemu_user, "qemu-x86_64");
	assert_string_equal(x32->qemu_user, "qemu-i386");
	assert_null(x64->tcg_cpu_model);
	assert_string_equal(x32->tcg_cpu_model, "coreduo");
	/* The messages' list names every arch. */
	for (unsigned a = 0; a < BP_ARCH_COUNT; a++)
		assert_non_null(strstr(BP_ARCH_KNOWN, bp_arch_name(a)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_from_name_is_strict),
		cmocka_unit_test(test_parse_aliases),
		cmocka_unit_test(test_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
