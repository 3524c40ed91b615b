// SPDX-License-Identifier: GPL-2.0-or-later
#include "engine/guesthost.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int guesthost_accel(const char *mode, const struct accel_probe_opts *probe,
		    enum bp_accel *ret, char *reason, size_t n)
{
	struct accel_probe p;

	if (!strcmp(mode, "tcg")) {
		*ret = BP_ACCEL_TCG;
		snprintf(reason, n, "TCG requested");
		return 0;
	}
	if (strcmp(mode, "kvm") && strcmp(mode, "auto")) {
		snprintf(reason, n, "--accel %s: expected auto, kvm or tcg",
			 mode);
		return -EINVAL;
	}
	accel_probe_kvm(probe, &p);
	if (p.usable) {
		*ret = BP_ACCEL_KVM;
		snprintf(reason, n, "KVM probe guest ran in %ld ms",
			 p.elapsed_ms);
		return 0;
	}
	if (!strcmp(mode, "kvm")) {
		snprintf(reason, n, "--accel kvm: KVM unusable: %s", p.reason);
		return -ENODEV;
	}
	*ret = BP_ACCEL_TCG;
	snprintf(reason, n, "KVM unusable: %s; using TCG", p.reason);
	return 0;
}

const char *guesthost_uri(const char *uri)
{
	if (!uri)
		uri = getenv("LIBVIRT_DEFAULT_URI");
	if (!uri || !*uri)
		uri = "qemu:///system";
	return uri;
}
