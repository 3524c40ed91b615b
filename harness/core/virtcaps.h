/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * virtcaps: what libvirt's host capabilities XML (virConnectGetCapabilities,
 * `virsh capabilities`) says about how QEMU is run.  Pure: parses a buffer
 * with libxml2, no libvirt call, no user database look-up.
 */
#ifndef BP_VIRTCAPS_H
#define BP_VIRTCAPS_H

#include <stddef.h>

/*
 * The DAC base label of QEMU processes for a virt type ("qemu" or "kvm"),
 * i.e. qemu.conf's effective user and group, as libvirt reports them:
 * <secmodel><model>dac</model><baselabel type='qemu'>+64055:+64055</...>.
 * A part starting with '+' is a numeric id, otherwise a name.
 *
 * On success returns 0 and hands out malloc'd strings (caller frees) in
 * *ret_user and *ret_group, '+' kept.  Returns -ENOENT when there is no
 * DAC security model or no label for virttype (libvirt's test driver, or
 * a build without DAC), -EINVAL when the XML or the label cannot be
 * parsed.
 */
int virtcaps_dac_label(const char *xml, size_t len, const char *virttype,
		       char **ret_user, char **ret_group);

#endif
