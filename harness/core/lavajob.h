/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lavajob: one bootproof boot as a LAVA v2 job definition for the `qemu`
 * device type (pure: a YAML string out, written with libyaml's emitter so
 * that every value is quoted as YAML needs).  docs/lava.md says why each
 * part is as it is.
 *
 *   deploy  to tmpfs: the kernel, the initrd (when there is one) and the
 *           root image as URLs, each with its sha256sum (LAVA checks the
 *           download) and the QEMU argument that puts it in the guest
 *           (core/domxml's domxml_qemu: the same command line, devices,
 *           memory and CPUs as a local boot);
 *   boot    method qemu, media tmpfs, no prompts: the agent is init, there
 *           is no shell to log in to;
 *   test    one monitor watching the console from the agent's first
 *           "KTAP version 1" to the kernel's "reboot: Power down": every
 *           KTAP result line, a scenario's or one of its checks, becomes a
 *           LAVA test case (ok: pass, not ok: fail, # SKIP: skip).
 *
 * The job's context sets what the device type's template takes from a job
 * (arch, memory, netdevice "user,restrict=on": the NIC it always adds
 * transmits and reaches nothing, as the local guest's tap) and passes every other option as its
 * extra_options.  metadata holds what bootproof needs to read the job's
 * results back (core/lavalog): the run, the candidate, its groups and its
 * config hash.
 */
#ifndef BP_LAVAJOB_H
#define BP_LAVAJOB_H

#include <stddef.h>

#include "core/domxml.h"

/* What a monitor waits for before and after the agent's KTAP. */
#define LAVAJOB_MONITOR_NAME "bootproof"
#define LAVAJOB_MONITOR_START "KTAP version 1"
#define LAVAJOB_MONITOR_END "reboot: Power down"

/* The placeholders LAVA replaces with its downloaded copies. */
#define LAVAJOB_KERNEL "{kernel}"
#define LAVAJOB_INITRD "{ramdisk}"
#define LAVAJOB_DISK "{rootfs}"

/* A metadata entry: "bootproof.candidate": "x86_64-all". */
struct lavajob_meta {
	const char *key, *value;
};

/* One downloaded file: its URL and sha256 (64 hex digits, or NULL). */
struct lavajob_file {
	const char *url;
	const char *sha256;
};

struct lavajob_spec {
	const char *job_name;		/* required, 1..200 characters */
	/* The guest, as for a local boot (its kernel, initrd and disk are
	 * replaced by the placeholders above). */
	const struct domxml_spec *guest;
	struct lavajob_file kernel;	/* required */
	struct lavajob_file initrd;	/* url NULL: none */
	struct lavajob_file disk;	/* required: the agent's root image */
	const struct lavajob_meta *meta;
	size_t n_meta;
	unsigned boot_timeout_s;	/* the test's limit; required */
	unsigned download_timeout_s;	/* 0: 600 */
};

/*
 * The job as YAML in *ret_yaml (malloc'd, NUL-terminated; the caller
 * frees).  0, -EINVAL for a spec that cannot make a job (a missing field,
 * a command line domxml_qemu refuses, a job name out of range), -ENOMEM.
 */
int lavajob_build(const struct lavajob_spec *spec, char **ret_yaml);

/*
 * The monitor's pattern and result words, exported for the tests that run
 * them against real consoles.
 */
extern const char lavajob_pattern[];

#endif
