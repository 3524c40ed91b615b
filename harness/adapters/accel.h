/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is an accelerator usable?  Decided by running a probe guest, never by a
 * device node existing: on some hosts /dev/kvm is there but is a
 * paravirtual KVM that cannot run ordinary guests (QEMU with -cpu host
 * aborts with "failed to set MSR 0x10a", a normal guest hangs).
 *
 * The probe guest is one boot sector of real-mode code that writes
 * ACCEL_PROBE_PORT_VALUE to an isa-debug-exit device at port 0xf4, which
 * makes QEMU exit at once with status ACCEL_PROBE_EXIT.  That status
 * within the timeout means the accelerator ran guest code; anything else
 * (an error, a crash, a hang) means it did not.
 *
 * QEMU runs through the proc adapter, so a unit test can set the proc
 * dry-run hook and hand the probe any result it wants.
 */
#ifndef BP_ACCEL_H
#define BP_ACCEL_H

#include <stdbool.h>
#include <stdint.h>

#define ACCEL_PROBE_PORT 0xf4
#define ACCEL_PROBE_PORT_VALUE 0x2a
/* isa-debug-exit: QEMU exits with (value << 1) | 1. */
#define ACCEL_PROBE_EXIT ((ACCEL_PROBE_PORT_VALUE << 1) | 1)

#define ACCEL_KVM_TIMEOUT_MS 3000
#define ACCEL_TCG_TIMEOUT_MS 15000

struct accel_probe_opts {
	const char *qemu;	/* NULL: "qemu-system-x86_64" from $PATH */
	const char *dev_kvm;	/* NULL: "/dev/kvm" (KVM probe only) */
	const char *tmpdir;	/* NULL: $TMPDIR, else /tmp */
	const char *cpuinfo;	/* NULL: "/proc/cpuinfo" (KVM fix hint) */
	unsigned timeout_ms;	/* 0: ACCEL_KVM_ / ACCEL_TCG_TIMEOUT_MS */
};

struct accel_probe {
	bool usable;
	/* Why not, one line: QEMU's first meaningful stderr line, "no
	 * /dev/kvm", "probe guest did not finish in 3 s", ...; "" when
	 * usable. */
	char reason[256];
	/* What to do about it (KVM only), "" when usable: a modprobe when
	 * the CPU has vmx/svm but there is no /dev/kvm, else why nothing
	 * on this host can help. */
	char fix[256];
	/* The exact QEMU command line of the probe, for messages. */
	char command[512];
	long elapsed_ms;	/* how long the probe guest took */
};

/*
 * Run the probe guest under KVM (-accel kvm -cpu host).  Fills *ret and
 * returns 0 whether or not KVM is usable; returns -errno only when the
 * probe itself could not be prepared (temporary file not writable).
 */
int accel_probe_kvm(const struct accel_probe_opts *opts,
		    struct accel_probe *ret);

/* The same probe under TCG (-accel tcg): can this host run a guest at all? */
int accel_probe_tcg(const struct accel_probe_opts *opts,
		    struct accel_probe *ret);

/* The 512 bytes of the probe guest's boot sector. */
void accel_boot_sector(uint8_t buf[512]);

#endif
