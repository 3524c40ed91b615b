/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * domxml: the libvirt domain XML of one bootproof guest (pure: builds a
 * string, no libvirt call).
 *
 * One transient domain per run.  Every name, port and file that could
 * collide between parallel runs comes from the caller (derived from the
 * run id), so two runs never share one.  The guest gets: the q35 machine
 * with its PCI devices on the root bus, direct kernel boot (kernel,
 * optional initrd, command line), ACPI and APIC (without them the guest
 * cannot power off), the firmware the caller names, no USB controller
 * (nothing of the guest uses one; QEMU's UHCI costs boot time), the root
 * disk as a qcow2 overlay on virtio-blk,
 * virtio-net on an unattached tap (the guest reaches nothing), virtio-rng,
 * a virtio console and a virtio-serial channel, the serial console on
 * ttyS0 (a pty that the harness reads through virDomainOpenConsole), an
 * optional second serial port for kgdb as a TCP server on 127.0.0.1, a
 * pvpanic device, and destroy on poweroff, reboot and crash.
 *
 * domxml_qemu() describes the same guest as QEMU command-line options, for
 * a QEMU that bootproof does not start itself (a LAVA lab's qemu device,
 * core/lavajob): one place says what a bootproof guest is made of.
 */
#ifndef BP_DOMXML_H
#define BP_DOMXML_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arch.h"


/*
 * The machine: q35.  Its PCI interrupts go to fixed GSIs, where "pc"
 * (i440FX) routes them through ACPI interrupt links that the kernel
 * evaluates and programs while it enables each PCI device: under TCG
 * about 0.2 s per device, 0.6-0.9 s of a guest's boot with its four
 * (docs/boot.md, "The speed of a boot").
 */
#define DOMXML_MACHINE "q35"

/* What a guest gets when the spec says 0. */
#define DOMXML_MEMORY_MIB_DEFAULT 1024
#define DOMXML_VCPUS_DEFAULT 2

struct domxml_spec {
	const char *name;	/* unique domain name, required */
	enum bp_arch arch;
	enum bp_accel accel;
	const char *emulator;	/* NULL: /usr/bin/ + the arch's qemu_system */
	unsigned memory_mib;	/* 0: DOMXML_MEMORY_MIB_DEFAULT */
	unsigned vcpus;		/* 0: DOMXML_VCPUS_DEFAULT */
	const char *kernel;	/* required */
	const char *initrd;	/* optional */
	/* The firmware ROM (<loader type="rom">), NULL: QEMU's default
	 * (SeaBIOS).  See struct bp_arch_info's fast_firmware. */
	const char *firmware;
	const char *cmdline;	/* optional */
	const char *disk;	/* qcow2 overlay on virtio-blk (vda), optional */
	int kgdb_port;		/* > 0: ttyS1 as TCP server 127.0.0.1:port */
	/* The agent's virtio-serial channel: what the guest writes there
	 * goes to this file (QEMU's file chardev, always connected);
	 * NULL: a pty nobody opens. */
	const char *channel_file;
	bool no_network;	/* leave out the virtio-net interface */
	/* QEMU's own log of ttyS0, every byte the guest printed there
	 * (absolute path; NULL: none). */
	const char *serial_log;
};

/*
 * Build the XML.  On success *ret_xml is a malloc'd NUL-terminated string
 * owned by the caller and 0 is returned; -EINVAL when a required field is
 * missing or a value is out of range, -ENOMEM on allocation failure.
 */
int domxml_build(const struct domxml_spec *spec, char **ret_xml);

/* The memory and CPUs spec asks for, defaults applied. */
unsigned domxml_memory_mib(const struct domxml_spec *spec);
unsigned domxml_vcpus(const struct domxml_spec *spec);

/*
 * The guest of spec as QEMU options, for a QEMU started by someone else
 * (a LAVA qemu device).  spec->kernel, ->initrd and ->disk are written as
 * given (a LAVA job puts its placeholders there: "{kernel}"); spec->name,
 * ->emulator and ->kgdb_port are not used (no second serial port: the host
 * half of kgdb needs bootproof's own gdb), nor ->channel_file: the
 * channel has nothing behind it (QEMU's null chardev), and neither has the
 * virtio console.  The network interface is not in opts: the device's own
 * "-net nic,model=virtio" is (docs/lava.md).
 *
 *   opts        "-machine q35", "-smp N", "-cpu MODEL" (KVM or TCG alike:
 *               "max", or the arch's TCG model), "-no-reboot" (a reboot
 *               ends the guest, as on_reboot destroy does), virtio-rng,
 *               virtio-serial with the virtio console and the agent's
 *               channel, pvpanic: one option and its value per string
 *   kernel_arg  -kernel K -append "CMDLINE"
 *   initrd_arg  -initrd I, or NULL
 *   disk_arg    the root disk on virtio-blk (vda), raw, or NULL
 *
 * Returns 0 with *ret filled (release with domxml_qemu_done), -EINVAL when
 * a required field is missing or the command line holds a character a
 * shell-like split would change (a double quote or a backslash).
 */
struct domxml_qemu {
	char **opts;		/* NULL-terminated */
	size_t n_opts;
	unsigned memory_mib;
	char *kernel_arg, *initrd_arg, *disk_arg;
};

int domxml_qemu(const struct domxml_spec *spec, struct domxml_qemu *ret);
void domxml_qemu_done(struct domxml_qemu *q);

#endif
