/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostcheck: the prerequisites `bootproof doctor` looks at, each a real
 * look at the host (libvirt C API, libguestfs C API, subprocesses through
 * the proc adapter).  Every check appends its results to a check_list
 * (core/checks.h) with the verdict, a one-line detail and the exact fix;
 * none of them logs or prints.
 *
 * struct hostcheck_ops gathers them (and the accel probes) so that the
 * doctor's orchestration can be unit-tested with fakes; the real ones are
 * exercised by tests/integration/doctor.sh.
 *
 * All checks may run concurrently in threads, except hostcheck_guestfs_start,
 * which forks and must be called before any thread is started.
 */
#ifndef BP_HOSTCHECK_H
#define BP_HOSTCHECK_H

#include <stdbool.h>
#include <sys/types.h>

#include "adapters/accel.h"
#include "core/checks.h"

#define HOSTCHECK_DEFAULT_URI "qemu:///system"
#define HOSTCHECK_DEFAULT_KSRC "/usr/src/linux-source-6.12.tar.xz"
#define HOSTCHECK_GUESTFS_TIMEOUT_MS 120000

/* What the libvirt check learnt that other checks need. */
struct hostcheck_libvirt_info {
	bool connected;
	bool qemu_driver;	/* the URI leads to the QEMU driver */
	bool have_qemu_ids;	/* qemu_uid/qemu_gid are known */
	uid_t qemu_uid;
	gid_t qemu_gid;
};

/* A libguestfs launch running in a child process. */
struct hostcheck_guestfs;

struct hostcheck_ops {
	/*
	 * `BINARY --version`: check NAME, ok with the version line, FAIL
	 * with the apt-get fix when missing or broken.
	 */
	void (*qemu)(const char *binary, const char *name, bool required,
		     struct check_list *out);
	/*
	 * Connect to uri (NULL: $LIBVIRT_DEFAULT_URI, else qemu:///system)
	 * and append: "libvirt" (connection, libvirt and hypervisor
	 * versions; required), "libvirt-x86_64" / "libvirt-i686" (domain
	 * capabilities for virt types kvm and qemu; x86_64 required) and
	 * "qemu-user" (the DAC user QEMU runs as).  Fills *info.
	 */
	void (*libvirt)(const char *uri, struct check_list *out,
			struct hostcheck_libvirt_info *info);
	/* Run the probe guest (accel.h). */
	int (*probe_kvm)(const struct accel_probe_opts *o,
			 struct accel_probe *ret);
	int (*probe_tcg)(const struct accel_probe_opts *o,
			 struct accel_probe *ret);
	/*
	 * Start launching a libguestfs appliance (backend direct, and
	 * backend setting force_tcg when asked) in a forked child.  Returns
	 * 0 or -errno (fork failed).  Call before starting any thread.
	 */
	int (*guestfs_start)(bool force_tcg, struct hostcheck_guestfs **ret);
	/*
	 * Wait for that launch (killing it after timeout_ms), append the
	 * "libguestfs" check and free the job.  Accepts NULL (appends a
	 * FAIL saying it could not start).
	 */
	void (*guestfs_finish)(struct hostcheck_guestfs *job,
			       unsigned timeout_ms, struct check_list *out);
	/*
	 * The kernel source: path is a linux-source tarball or an unpacked
	 * tree (NULL: HOSTCHECK_DEFAULT_KSRC).  Appends "kernel-source".
	 */
	void (*ksrc)(const char *path, struct check_list *out);
	/*
	 * Compile and link a static hello world with -m64 and -m32 using cc
	 * (NULL: "cc") in a temporary directory, run the 64-bit one.
	 * Appends "cc-x86_64" and "cc-i386".
	 */
	void (*compiler)(const char *cc, struct check_list *out);
	/*
	 * The cache directory (util/paths.h): writable by us, and reachable
	 * by QEMU's user when lv knows it.  Appends "cache".
	 */
	void (*cache)(const struct hostcheck_libvirt_info *lv,
		      struct check_list *out);
};

extern const struct hostcheck_ops hostcheck_real_ops;

#endif
