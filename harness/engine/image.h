/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image: guest disk images, the cache in front of the builder
 * (adapters/image_guestfs.h: struct image_ops, libguestfs or a fake).
 *
 *   struct image_request req = { .arch = BP_ARCH_X86_64 };
 *   _cleanup_(image_result_done) struct image_result res = {0};
 *   r = image_ensure(&req, &res);     // res.path, res.hash
 *
 * The inputs: the agent and busybox (static executables for the image's
 * arch, found at their default places unless given), and optionally the
 * modules the agent loads from a /lib/modules/<release> directory
 * (chosen by core/image_spec from modules.dep, their index files
 * filtered to match).
 *
 * An image is <cache>/images/bootproof-<arch>-<key16>.img, where key is
 * image_layout_hash() of its layout (core/image_spec.h): every byte and
 * mode that goes into it.  A present image is complete: it is built under
 * a temporary name (.<name>.tmp.XXXXXX) and renamed into place, and
 * builders of the same image serialise on <name>.lock (flock), so a second
 * builder waits and then finds the image.  Temporary files of killed
 * builds are removed by the next builder of that image.  Beside each image,
 * <name>.json records what went into it and the sha256 of the image file:
 * a cached image is used only when its size and that hash match, so one
 * truncated or overwritten after it was built is built again.  The hash is
 * read again only when the file is not the one <name>.img.checked last saw
 * hash right (device, inode, size, mtime, ctime): a boot does not read the
 * whole image each time.
 */
#ifndef BP_ENGINE_IMAGE_H
#define BP_ENGINE_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "adapters/image_guestfs.h"
#include "core/image_spec.h"
#include "util/strbuf.h"

/* 0, or -EINVAL for anything but auto, tcg, kvm. */
int image_accel_from_string(const char *s, enum image_accel *ret);

/* What to build.  Every pointer is borrowed; NULL picks the default. */
struct image_request {
	enum bp_arch arch;
	/* The agent binary: default <build>/guest/<arch>/bootproof-agent,
	 * where <build> is $BP_BUILD, else the directory of the running
	 * bootproof or its parent (build/ or build/san-*), else ./build. */
	const char *agent;
	/* x86_64: /bin/busybox (busybox-static); i386:
	 * <cache>/i386-busybox/bin/busybox (see harness/setup.sh). */
	const char *busybox;
	/* A modules directory (/lib/modules/<release>): copy what the
	 * agent loads.  NULL: no modules in the image. */
	const char *modules;
	const char *cache_dir;	/* default bp_cache_dir() */
	enum image_accel accel;
	bool force;		/* build even when the image is cached */
};

struct image_result {
	char *path;		/* the image (owned) */
	char *manifest;		/* <image>.json beside it (owned) */
	char hash[IMAGE_HASH_HEX_LEN + 1];
	/* sha256 of the image file itself, recorded in the manifest when
	 * it was built and checked against the file whenever the cached
	 * image is used: a damaged image is built again, never booted. */
	char image_sha256[IMAGE_HASH_HEX_LEN + 1];
	uint64_t size;		/* apparent size in bytes */
	bool cached;		/* found, not built */
	double seconds;		/* build time (0 when cached) */
};

/* Free what a result owns; accepts a zeroed result. */
void image_result_done(struct image_result *r);

/*
 * Find the image for req in the cache, or build it with ops.  On success
 * fills *ret (which the caller releases with image_result_done) and
 * returns 0.  On failure returns -EINVAL for a request the user must fix
 * (unknown arch, a missing or unusable agent, busybox or modules
 * directory), another -errno for a failure of the host (cache directory,
 * lock, builder: libguestfs), and err (when not NULL) says what and names
 * the file.  Writes a progress line ("building ...") to the log.
 */
int image_ensure_with(const struct image_ops *ops, void *userdata,
		      const struct image_request *req, struct image_result *ret,
		      struct strbuf *err);

/*
 * bootproof's own initramfs for a modular kernel, where a distro's would
 * spend seconds under TCG in udev and its scripts: the agent as
 * BP_INITRAMFS_INIT (scenarios/initramfs.c: it loads the modules, mounts
 * the root image and runs the agent there), the modules of req->modules
 * (required) that image_root_modules need, and BP_INITRAMFS_MODULES
 * naming them; /dev/console, /dev, /proc, /sys and /root.  Uses req's
 * arch, agent, cache_dir and force.  It is <cache>/images/initramfs-
 * <arch>-<key16>.cpio, key image_layout_hash() of its layout: written under
 * a temporary name and renamed, used as it is when its bytes are those of
 * the layout.  Fills ret's path, hash, size, cached and seconds; returns
 * as image_ensure_with (-EINVAL: an input the user must fix, err says
 * which).
 */
int image_initramfs_ensure(const struct image_request *req,
			   struct image_result *ret, struct strbuf *err);

/* image_ensure_with(&image_guestfs_ops) that logs the error itself. */
int image_ensure(const struct image_request *req, struct image_result *ret);

#endif
