/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * domxml: the libvirt domain XML of one bootproof guest (pure: builds a
 * string, no libvirt call).
 *
 * One transient domain per run.  Every name, port and file that could
 * collide between parallel runs comes from the caller (derived from the
 * run id), so two runs never share one.  The guest gets: direct kernel boot
 * (kernel, optional initrd, command line), ACPI and APIC (without them the
 * guest cannot power off), the root disk as a qcow2 overlay on virtio-blk,
 * virtio-net on an unattached tap (the guest reaches nothing), virtio-rng,
 * a virtio console and a virtio-serial channel, the serial console on
 * ttyS0 (a pty that the harness reads through virDomainOpenConsole), an
 * optional second serial port for kgdb as a TCP server on 127.0.0.1, a
 * pvpanic device, and destroy on poweroff, reboot and crash.
 */
#ifndef BP_DOMXML_H
#define BP_DOMXML_H

#include <stdbool.h>

#include "core/arch.h"


struct domxml_spec {
	const char *name;	/* unique domain name, required */
	enum bp_arch arch;
	enum bp_accel accel;
	const char *emulator;	/* NULL: /usr/bin/ + the arch's qemu_system */
	unsigned memory_mib;	/* 0: 1024 */
	unsigned vcpus;		/* 0: 2 */
	const char *kernel;	/* required */
	const char *initrd;	/* optional */
	const char *cmdline;	/* optional */
	const char *disk;	/* qcow2 overlay on virtio-blk (vda), optional */
	int kgdb_port;		/* > 0: ttyS1 as TCP server 127.0.0.1:port */
	/* The agent's virtio-serial channel: what the guest writes there
	 * goes to this file (QEMU's file chardev, always connected);
	 * NULL: a pty nobody opens. */
	const char *channel_file;
	bool no_network;	/* leave out the virtio-net interface */
};

/*
 * Build the XML.  On success *ret_xml is a malloc'd NUL-terminated string
 * owned by the caller and 0 is returned; -EINVAL when a required field is
 * missing or a value is out of range, -ENOMEM on allocation failure.
 */
int domxml_build(const struct domxml_spec *spec, char **ret_xml);

#endif
