/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bootprep: `bootproof boot` from the user's request to the verdict.
 *
 * bootprep_prepare() turns what the user gave (a kernel and options, most
 * of them optional) into a complete boot request: it checks the kernel is
 * an x86 bzImage whole and of the arch asked for (or takes the arch from
 * it), finds what lies beside it as in /boot or a kernel build tree
 * (initrd.img-<release>, config-<release> or the tree's .config, the
 * tree's vmlinux), checks what was given (core/bootargs), chooses the
 * accelerator (engine/guesthost) and the libvirt URI, and makes sure of
 * the root image with the agent (engine/image), with the kernel's modules
 * when <kernel's dir>/../lib/modules/<release> or /lib/modules/<release>
 * has them; such a modular kernel boots with bootproof's own initramfs
 * (engine/image.h: image_initramfs_ensure), not the distro's beside it,
 * unless --initrd names one.  bootprep_boot() then opens the run directory, boots
 * (engine/boot), closes the run and writes its report.html.
 */
#ifndef BP_ENGINE_BOOTPREP_H
#define BP_ENGINE_BOOTPREP_H

#include <stdbool.h>

#include "core/bzimage.h"
#include "engine/boot.h"
#include "engine/guesthost.h"
#include "engine/image.h"
#include "engine/runrec.h"

/* What the user asked for.  Every string is borrowed; NULL: the default. */
struct bootprep_args {
	const char *kernel;	/* required */
	const char *arch;	/* "x86_64", "i386"; NULL: the kernel's */
	const char *initrd, *config, *vmlinux; /* NULL: found beside it */
	const char *cmdline;	/* appended to the kernel command line */
	const char *scenarios;	/* required; "none": no disk, no agent */
	const char *accel;	/* "auto", "kvm", "tcg" (required) */
	const char *uri;	/* NULL: guesthost_uri() */
	const char *allow;	/* problem kinds that do not fail: "warn,..." */
	unsigned timeout_s, memory_mib, vcpus; /* 0: engine/boot's */
	unsigned retries;	/* engine/boot.h: boot_request.retries */
};

#define BOOTPREP_MAX_ALLOWED 32

/* A prepared boot.  Owns everything req points to. */
struct bootprep {
	/* Complete but for what belongs to a run (name, run_dir, prefix,
	 * stage_dir, interrupted, quiet, on_update, ud). */
	struct boot_request req;
	struct bzimage_info kernel; /* what the kernel says about itself */
	char accel_reason[GUESTHOST_REASON_MAX];
	/* Storage behind req. */
	char *kernel_abs, *initrd, *config, *vmlinux, *modules, *allow_buf;
	/* initrd is bootproof's own initramfs (engine/image.h) */
	bool own_initrd;
	const char *allowed[BOOTPREP_MAX_ALLOWED];
	struct image_result image;
	/* From bootprep_prepare's start: checks, accelerator, image, run
	 * directory; engine/boot adds the boot's phases (req.timeline). */
	struct timeline timeline;
};

/*
 * Fill *ret (zeroed first; release with bootprep_done) from a.  Logs one
 * error naming the option and what is wrong.  Returns 0, -EINVAL for
 * input the user must fix, another -errno for a failure of the host (KVM
 * asked for and unusable: -ENODEV; the image could not be built).
 */
int bootprep_prepare(const struct bootprep_args *a, struct bootprep *ret);

/* Free what p owns; accepts a zeroed or partly prepared one. */
void bootprep_done(struct bootprep *p);

/*
 * Boot p: a run directory under results (run.json records argc/argv and
 * the host: accelerator and why, libvirt URI, saved as results arrive),
 * the guest (progress lines on stderr unless quiet), then run.json,
 * junit.xml and report.html.  *ret_run gets the run (the caller prints
 * from run->doc, and frees it with run_free), *ret_record the boot
 * record (owned by the run).
 * Returns the exit code (BP_EXIT_*: 3 also when the results could not be
 * written, whatever the kernel did), or -errno, logged, when there is no
 * run to show (*ret_run and *ret_record untouched).
 */
int bootprep_boot(struct bootprep *p, const char *results, int argc,
		  char **argv, bool quiet, struct run **ret_run,
		  json_object **ret_record);

/*
 * Instead of booting p here, send it to a LAVA lab (engine/lavaemit): a
 * run directory as bootprep_boot makes, whose one boot record waits for
 * LAVA ("verdict": null, "lava": the job and its files), the artifacts and
 * the job in lo->out.  `bootproof lava-results` reads the finished job
 * back into the run.  Returns BP_EXIT_OK, BP_EXIT_USAGE (a boot a job
 * cannot carry), BP_EXIT_INFRA (a file could not be written), each
 * logged; *ret_run and *ret_record as bootprep_boot's when a run exists.
 */
struct lavaemit_opts;
int bootprep_lava(struct bootprep *p, const struct lavaemit_opts *lo,
		  const char *results, int argc, char **argv,
		  struct run **ret_run, json_object **ret_record);

#endif
