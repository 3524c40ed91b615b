// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libvirt's host capabilities XML (virtcaps_dac_label).  Input: byte 0
 * chooses the virt type (qemu/kvm), the rest is the XML.  Checks
 * (virtcaps.h): 0 with two non-empty strings, else -ENOENT, -EINVAL or
 * -ENOMEM with nothing handed out.
 */
#include "fuzz.h"

#include <libxml/parser.h>

#include "core/virtcaps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *user = NULL, *group = NULL;
	int r;

	if (size < 1)
		return 0;
	r = virtcaps_dac_label((const char *)data + 1, size - 1,
			       (data[0] & 1) ? "kvm" : "qemu", &user, &group);
	FUZZ_CHECK(r == 0 || r == -ENOENT || r == -EINVAL || r == -ENOMEM);
	if (r == 0) {
		FUZZ_CHECK(user && *user && group && *group);
	} else {
		FUZZ_CHECK(!user && !group);
	}
	free(user);
	free(group);
	return 0;
}
