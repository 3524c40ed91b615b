/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image_guestfs: the libguestfs builder of guest disk images, behind a
 * small ops table (struct image_ops) so that a unit test can put a fake
 * builder behind the image cache (engine/image.h), which decides what
 * goes into an image, where it lives and when it is built.
 */
#ifndef BP_IMAGE_GUESTFS_H
#define BP_IMAGE_GUESTFS_H

#include <stdint.h>

#include "core/image_spec.h"
#include "util/strbuf.h"

enum image_accel {
	IMAGE_ACCEL_AUTO,	/* TCG: see docs/images.md */
	IMAGE_ACCEL_TCG,	/* backend setting force_tcg */
	IMAGE_ACCEL_KVM,	/* let libguestfs use KVM */
};

/* What the builder gets: a layout to turn into a filesystem at path. */
struct image_build {
	const struct image_layout *layout;
	const char *path;	/* an existing empty file: the image */
	uint64_t size;		/* bytes (image_disk_size) */
	enum image_accel accel;
};

struct image_ops {
	/*
	 * Make b->path a raw ext4 filesystem of b->size bytes, labelled
	 * IMAGE_LABEL, holding every entry of b->layout, plus the applet
	 * links of layout->applets_of (image_applet_links of what that
	 * busybox lists when run inside the image).  One launch.  Returns
	 * 0, or -errno with a message in err.
	 */
	int (*build)(void *userdata, const struct image_build *b,
		     struct strbuf *err);
};

/* The real builder: libguestfs, backend direct. */
extern const struct image_ops image_guestfs_ops;

#endif
