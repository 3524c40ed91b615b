/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arch: the guest architectures and accelerators bootproof knows, their
 * names, and every fact that depends on them (pure: tables and parsers).
 *
 * One home for the vocabulary: domain XML, images, boot arguments, groups,
 * plans and the verbs all speak enum bp_arch and enum bp_accel, and ask
 * this table for the QEMU binary, the ELF class and machine, the compiler
 * flag or the libvirt name of an arch instead of spelling them out.
 */
#ifndef BP_ARCH_H
#define BP_ARCH_H

#include <stdbool.h>

enum bp_arch {
	BP_ARCH_X86_64,
	BP_ARCH_I386,
	BP_ARCH_COUNT,
};

enum bp_accel {
	BP_ACCEL_TCG,
	BP_ACCEL_KVM,
	BP_ACCEL_COUNT,
};

/* For messages: the canonical names, "x86_64 or i386". */
#define BP_ARCH_KNOWN "x86_64 or i386"

struct bp_arch_info {
	bool is_64bit;
	const char *cc_flag;		/* gcc's "-m64" / "-m32" */
	unsigned elf_class;		/* ELFCLASS64 / ELFCLASS32 */
	unsigned elf_machine;		/* EM_X86_64 / EM_386 */
	const char *elf_machine_name;	/* how readelf calls the machine */
	const char *libvirt_arch;	/* <os><type arch=...>: "x86_64", "i686" */
	const char *qemu_system;	/* "qemu-system-x86_64" */
	const char *qemu_user;		/* "qemu-x86_64" (user-mode) */
	/*
	 * The CPU model of a TCG guest, NULL for QEMU's "maximum".  i386:
	 * QEMU's "max" CPU for qemu-system-i386 is an AMD family 6 (K7) part
	 * without the MP bit, on which every SMP kernel WARNs "This
	 * combination of AMD processors is not suitable for SMP"
	 * (arch/x86/kernel/cpu/amd.c): a kernel problem the host made.  An
	 * Intel Core Duo is SMP-capable and has PAE, NX and SSE3.
	 */
	const char *tcg_cpu_model;
	/*
	 * The firmware of a direct kernel boot, when the host has it: QEMU's
	 * qboot, which only hands the kernel QEMU's fw_cfg tables (E820,
	 * ACPI) and jumps to it, where SeaBIOS (QEMU's default) runs a POST
	 * that costs seconds under TCG.  A host without the file boots with
	 * QEMU's default.
	 */
	const char *fast_firmware;
};

/* The facts of a, or NULL when a is out of range. */
const struct bp_arch_info *bp_arch_info(enum bp_arch a);

/* The canonical names, index = enum bp_arch, NULL-terminated. */
extern const char *const bp_arch_names[BP_ARCH_COUNT + 1];

/* "x86_64" / "i386"; NULL for an out-of-range value. */
const char *bp_arch_name(enum bp_arch a);

/*
 * A canonical name ("x86_64", "i386": what plans, groups and images use,
 * and the kernel's own make ARCH= value), compared exactly.  0 and *ret
 * (ret may be NULL), or -EINVAL for anything else, NULL included; *ret is
 * untouched on error.
 */
int bp_arch_from_name(const char *s, enum bp_arch *ret);

/*
 * A name as a user may write it: a canonical name, or "amd64", "x86-64"
 * (x86_64), "i686", "x86" (i386).  0 and *ret (ret may be NULL), or
 * -EINVAL; *ret is untouched on error.
 */
int bp_arch_parse(const char *s, enum bp_arch *ret);

/* "tcg" / "kvm"; NULL for an out-of-range value. */
const char *bp_accel_name(enum bp_accel a);

/* libvirt's <domain type=...> for an accelerator: "qemu" / "kvm"; NULL
 * for an out-of-range value. */
const char *bp_accel_domain_type(enum bp_accel a);

#endif
