// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "core/bootargs.h"
#include "util/strbuf.h"

/* check returns 0 when want is NULL, else -EINVAL with exactly want. */
#define EXPECT(call, want)                                                \
	do {                                                              \
		_cleanup_strbuf_ struct strbuf err = STRBUF_INIT;         \
		int r_ = (call);                                          \
		if (!(want)) {                                            \
			if (r_ != 0)                                      \
				fail_msg("%s: %d %s", #call, r_, err.buf); \
		} else {                                                  \
			assert_int_equal(r_, -EINVAL);                    \
			assert_string_equal(err.buf, (want));             \
		}                                                         \
	} while (0)

static void test_scenarios(void **state)
{
	EXPECT(bootargs_check_scenarios("boot,bpf,cgroups,userfaultfd,mm,kgdb",
					&err),
	       NULL);
	EXPECT(bootargs_check_scenarios("none", &err), NULL);
	EXPECT(bootargs_check_scenarios("kgdb", &err), NULL);
	/* the project's own test scenarios */
	EXPECT(bootargs_check_scenarios("boot,crash", &err), NULL);
	EXPECT(bootargs_check_scenarios("hang,timeout,segv", &err), NULL);
	EXPECT(bootargs_check_scenarios("boot,bfp", &err),
	       "--scenarios boot,bfp: unknown scenario 'bfp' (known: boot, "
	       "bpf, cgroups, userfaultfd, kgdb, mm; or none)");
	/* a prefix of a name is not the name */
	EXPECT(bootargs_check_scenarios("bo", &err),
	       "--scenarios bo: unknown scenario 'bo' (known: boot, bpf, "
	       "cgroups, userfaultfd, kgdb, mm; or none)");
	EXPECT(bootargs_check_scenarios("boot,none", &err),
	       "--scenarios boot,none: unknown scenario 'none' (known: boot, "
	       "bpf, cgroups, userfaultfd, kgdb, mm; or none)");
	EXPECT(bootargs_check_scenarios("", &err),
	       "--scenarios : an empty name");
	EXPECT(bootargs_check_scenarios("boot,", &err),
	       "--scenarios boot,: an empty name");
	EXPECT(bootargs_check_scenarios(",boot", &err),
	       "--scenarios ,boot: an empty name");
	EXPECT(bootargs_check_scenarios("bpf,boot,bpf", &err),
	       "--scenarios bpf,boot,bpf: 'bpf' twice");
	EXPECT(bootargs_check_scenarios("boot,bootx", &err),
	       "--scenarios boot,bootx: unknown scenario 'bootx' (known: "
	       "boot, bpf, cgroups, userfaultfd, kgdb, mm; or none)");
}

static void test_allow(void **state)
{
	EXPECT(bootargs_check_allow("warn", &err), NULL);
	EXPECT(bootargs_check_allow("WARNING,ubsan,Soft_Lockup", &err), NULL);
	EXPECT(bootargs_check_allow("all", &err), NULL);
	EXPECT(bootargs_check_allow("kfence,kasan,oom,lockdep", &err), NULL);
	EXPECT(bootargs_check_allow("panic", &err),
	       "--allow panic: a panic cannot be allowed (it ends the boot)");
	EXPECT(bootargs_check_allow("warn,PANIC", &err),
	       "--allow warn,PANIC: a panic cannot be allowed (it ends the "
	       "boot)");
	EXPECT(bootargs_check_allow("warnings", &err),
	       "--allow warnings: unknown problem kind 'warnings' (known: "
	       "warn, all, OOPS, BUG, WARNING, GPF, UBSAN, KFENCE, KASAN, "
	       "SOFT_LOCKUP, HARD_LOCKUP, HUNG_TASK, RCU_STALL, NO_ROOT_FS, "
	       "LOCKDEP, KCSAN, KMSAN, OOM, KMEMLEAK, ODEBUG, REFCOUNT, "
	       "LIST_CORRUPTION, BAD_PAGE, ATOMIC, STACK, NETDEV_LEAK, "
	       "BUSY_INODES; any case)");
	EXPECT(bootargs_check_allow("warn,", &err),
	       "--allow warn,: an empty name");
	EXPECT(bootargs_check_allow("", &err), "--allow : an empty name");
	EXPECT(bootargs_check_allow("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				    &err),
	       "--allow aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: a name too long");
}

static void test_config(void **state)
{
	static const char real[] = "#\n"
				   "# Automatically generated file; DO NOT EDIT.\n"
				   "# Linux/x86 6.12.118 Kernel Configuration\n"
				   "#\n"
				   "CONFIG_CC_VERSION_TEXT=\"gcc\"\n";
	static const char unset_only[] = "# CONFIG_KGDB is not set\n";
	static const char fragment[] = "CONFIG_KGDB=y";
	static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
				     "# CONFIG_FOO is set, says a comment\n"
				     "CONFIG_=y\n"
				     "CONFIG_BAR y\n"
				     "x CONFIG_BAZ=y\n";
	static const char bin[] = "CONFIG_X=y\n\0\1\2";

	EXPECT(bootargs_check_config("c", real, sizeof(real) - 1, &err), NULL);
	EXPECT(bootargs_check_config("c", unset_only, sizeof(unset_only) - 1,
				     &err),
	       NULL);
	EXPECT(bootargs_check_config("c", fragment, sizeof(fragment) - 1,
				     &err),
	       NULL);
	EXPECT(bootargs_check_config("/etc/passwd", passwd, sizeof(passwd) - 1,
				     &err),
	       "--config /etc/passwd: not a kernel config (no CONFIG_ line)");
	EXPECT(bootargs_check_config("e", "", 0, &err),
	       "--config e: not a kernel config (no CONFIG_ line)");
	EXPECT(bootargs_check_config("CONFIG_", "CONFIG_", 7, &err),
	       "--config CONFIG_: not a kernel config (no CONFIG_ line)");
	EXPECT(bootargs_check_config("b", bin, sizeof(bin) - 1, &err),
	       "--config b: not a kernel config (binary data)");
}

/* An ELF header: class, data (1 LE, 2 BE), machine. */
static void elf(unsigned char *h, unsigned cls, unsigned data, unsigned m)
{
	memset(h, 0, 64);
	memcpy(h, "\177ELF", 4);
	h[4] = (unsigned char)cls;
	h[5] = (unsigned char)data;
	h[6] = 1;
	h[16] = 2; /* ET_EXEC */
	if (data == 2) {
		h[18] = (unsigned char)(m >> 8);
		h[19] = (unsigned char)m;
	} else {
		h[18] = (unsigned char)m;
		h[19] = (unsigned char)(m >> 8);
	}
}

static void test_vmlinux(void **state)
{
	unsigned char h[64];

	elf(h, 2, 1, 62);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_X86_64, &err), NULL);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_I386, &err),
	       "--vmlinux v: an ELF64 file for x86-64, but the guest is i386");
	elf(h, 1, 1, 3);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_I386, &err), NULL);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_X86_64, &err),
	       "--vmlinux v: an ELF32 file for i386, but the guest is x86_64");
	elf(h, 2, 1, 183);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_X86_64, &err),
	       "--vmlinux v: an ELF64 file for AArch64, but the guest is "
	       "x86_64");
	/* big-endian machine field read as such */
	elf(h, 2, 2, 62);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_X86_64, &err), NULL);
	elf(h, 2, 1, 999);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_X86_64, &err),
	       "--vmlinux v: an ELF64 file for machine 999, but the guest is "
	       "x86_64");
	/* x86-64 machine in a 32-bit ELF (x32-like): not a vmlinux here */
	elf(h, 1, 1, 62);
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_X86_64, &err),
	       "--vmlinux v: an ELF32 file for x86-64, but the guest is "
	       "x86_64");
	/* a bzImage, or too short to tell */
	memset(h, 0, sizeof(h));
	memcpy(h + 0x202 - 0x200, "HdrS", 4);
	EXPECT(bootargs_check_vmlinux("bz", h, sizeof(h), BP_ARCH_X86_64, &err),
	       "--vmlinux bz: not an ELF file (the uncompressed kernel with "
	       "symbols, not the bzImage)");
	EXPECT(bootargs_check_vmlinux("v", h, sizeof(h), BP_ARCH_COUNT, &err),
	       "--vmlinux v: no such guest architecture (2)");
	elf(h, 2, 1, 62);
	EXPECT(bootargs_check_vmlinux("s", h, 19, BP_ARCH_X86_64, &err),
	       "--vmlinux s: not an ELF file (the uncompressed kernel with "
	       "symbols, not the bzImage)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scenarios),
		cmocka_unit_test(test_allow),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_vmlinux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
