/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guesthost: how this host runs the guests of a run, decided once for
 * `bootproof boot` and `bootproof run` alike: the accelerator (--accel)
 * and the libvirt URI (--connect).
 */
#ifndef BP_ENGINE_GUESTHOST_H
#define BP_ENGINE_GUESTHOST_H

#include <stddef.h>

#include "adapters/accel.h"
#include "core/domxml.h"

/* Room for the reason guesthost_accel() gives. */
#define GUESTHOST_REASON_MAX 512

/*
 * The accelerator for mode ("auto", "kvm" or "tcg", as --accel takes it):
 * tcg is TCG; kvm and auto run the KVM probe guest (accel_probe_kvm with
 * probe, which may be NULL for the defaults) and take KVM only when it
 * really ran; auto then falls back to TCG.  On success *ret is the
 * accelerator and reason (n bytes) says why, one line for the run record:
 * "TCG requested", "KVM probe guest ran in N ms", "KVM unusable: WHY;
 * using TCG".  On failure reason holds the message for the user, naming
 * --accel.  Returns 0, -EINVAL (mode is none of the three), -ENODEV (kvm
 * asked for and unusable).
 */
int guesthost_accel(const char *mode, const struct accel_probe_opts *probe,
		    enum bp_accel *ret, char *reason, size_t n);

/*
 * The libvirt URI: uri when given and not empty, else
 * $LIBVIRT_DEFAULT_URI when set and not empty, else "qemu:///system".
 * The result is uri, the environment's string or a constant: not owned.
 */
const char *guesthost_uri(const char *uri);

#endif
