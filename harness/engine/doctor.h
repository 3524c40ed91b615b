/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doctor: the orchestration behind `bootproof doctor` (which only parses
 * and prints), separate so that a unit test can run it with fake host
 * checks (struct hostcheck_ops).
 */
#ifndef BP_ENGINE_DOCTOR_H
#define BP_ENGINE_DOCTOR_H

#include "adapters/hostcheck.h"
#include "core/checks.h"

struct doctor_opts {
	const char *uri;	/* NULL: $LIBVIRT_DEFAULT_URI, qemu:///system */
	const char *ksrc;	/* NULL: HOSTCHECK_DEFAULT_KSRC */
	const char *cc;		/* NULL: "cc" */
	unsigned guestfs_timeout_ms; /* 0: HOSTCHECK_GUESTFS_TIMEOUT_MS */
	bool quick;		/* skip the libguestfs launch (warn: unchecked) */
	/*
	 * Called once every check but libguestfs is done, with those results
	 * (the first entries of the final list, in the same order) while the
	 * libguestfs appliance is still booting: a text report can show them
	 * at once, the KVM verdict included.  May be NULL.
	 */
	void (*early)(const struct check_list *done, const char *accel,
		      void *ud);
	void *early_ud;
};

/*
 * Run every check, the slow ones concurrently: the KVM probe first (it
 * decides whether libguestfs needs force_tcg), then the libguestfs launch
 * in a child process, then the others in threads.  Appends the results to
 * *ret in a fixed order: qemu-x86_64, qemu-i386, libvirt, libvirt-x86_64,
 * libvirt-i686, qemu-user, kvm, tcg, kernel-source, cc-x86_64, cc-i386,
 * cache, libguestfs (the libvirt ones after "libvirt" only when connected;
 * libguestfs last because it is the slow one).
 * *ret_accel is "kvm", "tcg" or NULL (no accelerator ran the probe).
 * Returns 0 or -errno when a thread could not be started.
 */
int doctor_run(const struct hostcheck_ops *ops, const struct doctor_opts *o,
	       struct check_list *ret, const char **ret_accel);

#endif
