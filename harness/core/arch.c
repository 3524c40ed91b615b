// SPDX-License-Identifier: GPL-2.0-or-later
#include "core/arch.h"

#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "util/cleanup.h"

const char *const bp_arch_names[BP_ARCH_COUNT + 1] = {
	[BP_ARCH_X86_64] = "x86_64",
	[BP_ARCH_I386] = "i386",
	[BP_ARCH_COUNT] = NULL,
};

/* Debian's qemu-system-data ships it. */
#define BP_QBOOT_ROM "/usr/share/qemu/qboot.rom"

static const struct bp_arch_info arches[BP_ARCH_COUNT] = {
	[BP_ARCH_X86_64] = {
		.is_64bit = true, .cc_flag = "-m64",
		.elf_class = ELFCLASS64, .elf_machine = EM_X86_64,
		.elf_machine_name = "x86-64", .libvirt_arch = "x86_64",
		.qemu_system = "qemu-system-x86_64", .qemu_user = "qemu-x86_64",
		.fast_firmware = BP_QBOOT_ROM,
	},
	[BP_ARCH_I386] = {
		.is_64bit = false, .cc_flag = "-m32",
		.elf_class = ELFCLASS32, .elf_machine = EM_386,
		.elf_machine_name = "i386", .libvirt_arch = "i686",
		.qemu_system = "qemu-system-i386", .qemu_user = "qemu-i386",
		.tcg_cpu_model = "coreduo",
		.fast_firmware = BP_QBOOT_ROM,
	},
};

/* Other spellings users write, for bp_arch_parse(). */
static const struct {
	const char *alias;
	enum bp_arch arch;
} aliases[] = {
	{ "amd64", BP_ARCH_X86_64 },
	{ "x86-64", BP_ARCH_X86_64 },
	{ "i686", BP_ARCH_I386 },
	{ "x86", BP_ARCH_I386 },
};

static const char *const accel_names[BP_ACCEL_COUNT] = {
	[BP_ACCEL_TCG] = "tcg",
	[BP_ACCEL_KVM] = "kvm",
};

static const char *const accel_domain_types[BP_ACCEL_COUNT] = {
	[BP_ACCEL_TCG] = "qemu",
	[BP_ACCEL_KVM] = "kvm",
};

const struct bp_arch_info *bp_arch_info(enum bp_arch a)
{
	return (unsigned)a < BP_ARCH_COUNT ? &arches[a] : NULL;
}

const char *bp_arch_name(enum bp_arch a)
{
	return (unsigned)a < BP_ARCH_COUNT ? bp_arch_names[a] : NULL;
}

int bp_arch_from_name(const char *s, enum bp_arch *ret)
{
	for (unsigned a = 0; s && a < BP_ARCH_COUNT; a++)
		if (!strcmp(s, bp_arch_names[a])) {
			if (ret)
				*ret = (enum bp_arch)a;
			return 0;
		}
	return -EINVAL;
}

int bp_arch_parse(const char *s, enum bp_arch *ret)
{
	if (bp_arch_from_name(s, ret) == 0)
		return 0;
	for (size_t i = 0; s && i < ELEMENTSOF(aliases); i++)
		if (!strcmp(s, aliases[i].alias)) {
			if (ret)
				*ret = aliases[i].arch;
			return 0;
		}
	return -EINVAL;
}

const char *bp_accel_name(enum bp_accel a)
{
	return (unsigned)a < BP_ACCEL_COUNT ? accel_names[a] : NULL;
}

const char *bp_accel_domain_type(enum bp_accel a)
{
	return (unsigned)a < BP_ACCEL_COUNT ? accel_domain_types[a] : NULL;
}
